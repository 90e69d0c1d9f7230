#!/bin/sh
# The cmocka unit tests: every test/unit/test_*.c, built by "make test" into
# test/unit/test_*, runs with CMOCKA_MESSAGE_OUTPUT=TAP; each of its cases
# becomes one test here, plus one that the program ran to its end (all
# planned cases reported, exit status matching the results).
. "$(dirname "$0")/lib.sh"

limit=${KFORGE_UNIT_TIMEOUT:-300}
timeout=
command -v timeout > /dev/null 2>&1 && timeout="timeout $limit"

found=0
for src in test/unit/test_*.c; do
	[ -f "$src" ] || continue
	found=1
	bin=${src%.c}
	name=${bin#test/unit/test_}
	if [ ! -x "$bin" ]; then
		skip "$name: unit tests" "$bin is not built (make test builds it)"
		continue
	fi
	for dep in "$src" test/unit/unit.h lib/libkforge.a; do
		if [ -e "$dep" ] && [ -n "$(find "$dep" -newer "$bin")" ]; then
			diag "$bin is older than $dep (make test rebuilds it)"
			break
		fi
	done
	status=0
	TMPDIR=$T_TMP CMOCKA_MESSAGE_OUTPUT=TAP $timeout "$bin" \
	    > "$T_TMP/out" 2> "$T_TMP/err" || status=$?
	# renumber the program's results into this file's stream; its
	# comments (failure details) and anything else go to stderr
	awk -v n="$T_N" -v name="$name" -v counts="$T_TMP/counts" '
	/^1\.\.[0-9]+/ {
		plan = substr($1, 4) + 0
		next
	}
	/^(not )?ok [0-9]+/ {
		bad = ($1 == "not")
		sub(/^(not )?ok [0-9]+( - )?/, "")
		n++
		results++
		if (bad)
			failed++
		printf "%s %d - %s: %s\n", bad ? "not ok" : "ok", n, name, $0
		if (bad)
			printf "#   Failed test %d: %s: %s\n", n, name, $0 \
			    > "/dev/stderr"
		next
	}
	/^# (not )?ok - / { next }
	{
		sub(/^# ?/, "")
		print "# " $0 > "/dev/stderr"
	}
	END {
		printf "%d %d %d %d\n", n, failed, results, plan > counts
	}' "$T_TMP/out"
	read -r T_N f results planned < "$T_TMP/counts"
	T_FAILED=$((T_FAILED + f))
	if [ -s "$T_TMP/err" ]; then
		diag "$bin wrote on stderr:"
		diag_file "$T_TMP/err"
	fi
	# cmocka exits non-zero exactly when a case failed
	consistent=0
	[ "$status" -eq 0 ] && [ "$f" -eq 0 ] && consistent=1
	[ "$status" -ne 0 ] && [ "$f" -gt 0 ] && consistent=1
	if [ "$consistent" = 1 ] && [ "$results" -gt 0 ] &&
	    [ "$results" -eq "$planned" ]; then
		pass "$name: ran to the end ($results cases)"
	else
		fail "$name: ran to the end"
		diag "$bin: exit status $status, $results of $planned" \
		    "planned results, $f failed"
	fi
done
[ "$found" = 1 ] || skip_all "no unit tests under test/unit"
done_testing
