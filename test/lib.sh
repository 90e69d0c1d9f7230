# Helpers for test/*.t shell scripts; source it first:
#
#	. "$(dirname "$0")/lib.sh"
#
# It moves to the repository root (so ./kscan and test/golden/ are found from
# there), makes a scratch directory $T_TMP under test/tmp/ that is removed
# when the script exits (KFORGE_KEEP_TMP=1 keeps it), and prints TAP.
# Diagnostics go to stderr, which prove shows even when it is not verbose.
# A script ends with done_testing (or announces its count with plan N); one
# that stops early is reported as failed.  The exit status is the number of
# failed tests (254 at most).

T_ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 255
cd "$T_ROOT" || exit 255
# the built tools; override to test an installed or out-of-tree build
KFORGE_BIN=${KFORGE_BIN:-$T_ROOT}
T_NAME=$(basename "$0" .t)
T_TMP=$T_ROOT/test/tmp/$T_NAME.$$
T_N=0
T_FAILED=0
T_SKIPPED=0
T_PLANNED=
T_DONE=

# Outputs must not depend on the caller's locale, zone or settings.
LC_ALL=C
TZ=UTC
export LC_ALL TZ
unset KFORGE_MAX_LINE KFORGE_WORK

rm -rf "$T_TMP"
mkdir -p "$T_TMP" || exit 255
# what the tests' own compilers leave in $TMPDIR (hipcc leaves
# directories) in a directory of this file's, gone with T_TMP; outside
# the source tree, as a user's TMPDIR is (test/travel.t moves trees
# there)
T_SYSTMP=$(mktemp -d "${TMPDIR:-/tmp}/kforge-$T_NAME.XXXXXX") || exit 255
TMPDIR=$T_SYSTMP
export TMPDIR

t_end() {
	t_rc=$?
	trap - EXIT
	# one line that test/run counts, since prove only shows skips with -v
	if [ "$T_SKIPPED" -gt 0 ]; then
		diag "$T_NAME.t: $T_SKIPPED skipped ($(sort -u "$T_TMP/.skips" |
		    sed -e :a -e '$!N;s/\n/; /;ta'))"
	fi
	if [ "${KFORGE_KEEP_TMP:-0}" = 1 ]; then
		diag "kept $T_TMP"
	else
		rm -rf "$T_TMP"
	fi
	rm -rf "$T_SYSTMP"
	if [ -z "$T_PLANNED" ] && [ "$T_DONE" != 1 ]; then
		# no plan line follows, so prove reports this file as failed
		diag "$T_NAME.t stopped after $T_N tests, before" \
		    "done_testing (status $t_rc)"
		[ "$t_rc" -ne 0 ] && exit "$t_rc"
		exit 255
	fi
	[ "$T_FAILED" -gt 254 ] && T_FAILED=254
	exit "$T_FAILED"
}
trap t_end EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# plan N: announce the number of tests up front (else printed at the end).
plan() {
	T_PLANNED=$1
	echo "1..$1"
}

# done_testing: the script's last line; prints the plan if none was given.
done_testing() {
	T_DONE=1
	[ -z "$T_PLANNED" ] && echo "1..$T_N"
	exit 0
}

# skip_all REASON: nothing here can run; exits.
skip_all() {
	T_PLANNED=0
	echo "1..0 # SKIP $*"
	exit 0
}

# diag MSG...: a diagnostic line on stderr, prefixed with "# ".
diag() {
	printf '%s\n' "$*" | t_indent
}

# diag_file FILE: a file's content as diagnostics.
diag_file() {
	t_indent < "$1"
}

t_indent() {
	sed 's/^/# /' >&2
}

# t_diff EXPECTED GOT: diff -u as diagnostics, without the root's path and
# the time stamps in its header.
t_diff() {
	diff -u "$1" "$2" | sed -e "1,2s|$T_ROOT/||" -e '1,2s/	.*//' | t_indent
}

# note LINE...: comments in the TAP stream, shown only by prove -v.
note() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

pass() {
	T_N=$((T_N + 1))
	echo "ok $T_N - $*"
}

fail() {
	T_N=$((T_N + 1))
	T_FAILED=$((T_FAILED + 1))
	echo "not ok $T_N - $*"
	diag "  Failed test $T_N: $*"
}

# ok STATUS DESC: passes when STATUS is 0, as in: cmp -s a b; ok $? "same"
ok() {
	t_status=$1
	shift
	if [ "$t_status" -eq 0 ]; then
		pass "$@"
	else
		fail "$@"
	fi
	return "$t_status"
}

# skip DESC REASON: one skipped test.
skip() {
	T_N=$((T_N + 1))
	T_SKIPPED=$((T_SKIPPED + 1))
	echo "ok $T_N - $1 # SKIP $2"
	echo "$2" >> "$T_TMP/.skips"
}

# is GOT EXPECTED DESC: compare strings; diff -u (expected first) on failure.
is() {
	if [ "$1" = "$2" ]; then
		pass "$3"
		return 0
	fi
	fail "$3"
	printf '%s\n' "$2" > "$T_TMP/is.expected"
	printf '%s\n' "$1" > "$T_TMP/is.got"
	(cd "$T_TMP" && t_diff is.expected is.got)
	return 1
}

# is_file GOT_FILE EXPECTED_FILE DESC: compare files byte for byte.
is_file() {
	if cmp -s "$2" "$1"; then
		pass "$3"
		return 0
	fi
	fail "$3"
	if [ ! -e "$2" ]; then
		diag "expected file $2 is missing"
	else
		t_diff "$2" "$1"
	fi
	return 1
}

# like STRING PATTERN DESC: STRING matches the grep -E PATTERN.
like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		pass "$3"
		return 0
	fi
	fail "$3"
	diag "got:      $1"
	diag "expected: /$2/"
	return 1
}

# tool NAME: path of a built kforge tool (it may not exist yet).
tool() {
	echo "$KFORGE_BIN/$1"
}

# have_tool NAME: the tool is built.
have_tool() {
	[ -x "$KFORGE_BIN/$1" ] && [ -f "$KFORGE_BIN/$1" ]
}

# run CMD...: run a command, keeping its stdout in $T_TMP/out, stderr in
# $T_TMP/err and exit status in $T_STATUS.  stdin is the caller's.
# shellcheck disable=SC2034 # T_STATUS is for the scripts
run() {
	T_STATUS=0
	"$@" > "$T_TMP/out" 2> "$T_TMP/err" || T_STATUS=$?
}
