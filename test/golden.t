#!/bin/sh
# Golden cases: test/golden/<tool>/<case>/ holds
#	cmd	one line of shell, run from the repository root (./kscan ...);
#		$CASE is the case directory, relative to the root, and
#		$SCRATCH an empty directory that changes from run to run
#	stdin	optional; the command's standard input (else /dev/null)
#	stdout, stderr, status	what the command must print and exit with
#	needs	optional; programs the case runs besides the tool (nvcc jq):
#		where one is missing, the case is skipped
# Three tests per case (stdout, stderr, status); a tool that is not built
# yet skips its cases.  KFORGE_GOLDEN_UPDATE=1 rewrites the expected files
# from what the tools do now: review every change with git diff.
# KFORGE_GOLDEN_TIMEOUT (seconds, default 300) bounds each case;
# KFORGE_GOLDEN_DIR (default test/golden) is where the cases are.
. "$(dirname "$0")/lib.sh"

update=${KFORGE_GOLDEN_UPDATE:-0}
gdir=${KFORGE_GOLDEN_DIR:-test/golden}
limit=${KFORGE_GOLDEN_TIMEOUT:-300}
timeout=
command -v timeout > /dev/null 2>&1 && timeout="timeout $limit"

# check CASE NAME GOT: compare (or, updating, rewrite) CASE/NAME.
check() {
	if [ "$update" = 1 ]; then
		if cmp -s "$3" "$1/$2"; then
			pass "$label: $2"
		else
			if [ -e "$1/$2" ]; then
				t_diff "$1/$2" "$3"
			else
				diag "new file $1/$2"
			fi
			cp "$3" "$1/$2"
			pass "$label: $2 (updated: review it)"
		fi
	elif [ ! -e "$1/$2" ]; then
		fail "$label: $2"
		diag "$1/$2 is missing (KFORGE_GOLDEN_UPDATE=1 writes it)"
	else
		is_file "$3" "$1/$2" "$label: $2"
	fi
}

found=0
for dir in "$gdir"/*/*/; do
	[ -d "$dir" ] || continue
	found=1
	case=${dir%/}
	label=${case#"$gdir"/}
	t=${label%%/*}
	if ! have_tool "$t"; then
		for f in stdout stderr status; do
			skip "$label: $f" "$t is not built"
		done
		continue
	fi
	missing=
	if [ -f "$case/needs" ]; then
		for p in $(cat "$case/needs"); do
			command -v "$p" > /dev/null 2>&1 || missing="$missing $p"
		done
	fi
	if [ -n "$missing" ]; then
		for f in stdout stderr status; do
			skip "$label: $f" "no$missing"
		done
		continue
	fi
	if [ ! -f "$case/cmd" ]; then
		fail "$label: cmd"
		diag "$case/cmd is missing"
		continue
	fi
	in=/dev/null
	[ -f "$case/stdin" ] && in=$case/stdin
	out=$T_TMP/$t.${label#*/}
	rm -rf "$out"
	mkdir -p "$out/scratch"
	status=0
	CASE=$case SCRATCH=$out/scratch KFORGE_WORK=$out/scratch/.kforge \
	    $timeout sh -c "$(cat "$case/cmd")" < "$in" > "$out/stdout" \
	    2> "$out/stderr" || status=$?
	echo "$status" > "$out/status"
	[ -n "$timeout" ] && [ "$status" = 124 ] &&
	    diag "$label: killed after ${limit}s (KFORGE_GOLDEN_TIMEOUT)"
	for f in stdout stderr status; do
		check "$case" "$f" "$out/$f"
	done
done
[ "$found" = 1 ] || skip_all "no cases under $gdir"

# The runner itself: a case whose expected output is wrong fails it, with
# the difference shown, and the same case with the right output passes.
if [ -z "${KFORGE_GOLDEN_DIR:-}" ] && [ "$update" != 1 ] &&
    have_tool kreport; then
	c=$T_TMP/self/kreport/echo
	mkdir -p "$c"
	echo 'echo found; exit 3' > "$c/cmd"
	echo expected > "$c/stdout"
	: > "$c/stderr"
	echo 3 > "$c/status"
	KFORGE_GOLDEN_DIR=$T_TMP/self sh "$0" > "$T_TMP/self.out" 2>&1
	st=$?
	[ "$st" -ne 0 ] && grep -q '^# +found' "$T_TMP/self.out" &&
	    grep -q '^# -expected' "$T_TMP/self.out"
	ok $? "runner: a wrong expected stdout fails, with diff -u"
	echo found > "$c/stdout"
	KFORGE_GOLDEN_DIR=$T_TMP/self sh "$0" > "$T_TMP/self.out" 2>&1
	ok $? "runner: the right expected files pass"
fi
done_testing
