#!/bin/sh
# Run the libFuzzer targets that "make fuzz" built, each for SECONDS
# (default 60), starting from the seed corpus fuzz/corpus/<target>/.  New
# inputs go to test/tmp/fuzz/corpus-<target>/ (copy the interesting ones
# into fuzz/corpus/ by hand), crashes to test/tmp/fuzz/crash-<target>/.
# One line per target: how long it ran, how many runs, what it found.
#
#	sh fuzz/run.sh [seconds] [target ...]
cd "$(dirname "$0")/.." || exit 2
secs=${1:-60}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- record kbuild kverify kslice kwrap
out=test/tmp/fuzz
status=0
for t in "$@"; do
	bin=$out/fuzz_$t
	if [ ! -x "$bin" ]; then
		echo "fuzz/run.sh: $bin not built (make fuzz)" >&2
		status=2
		continue
	fi
	mkdir -p "$out/corpus-$t" "$out/crash-$t"
	start=$(date +%s)
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	    "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	    -max_len=16384 -print_final_stats=1 \
	    -artifact_prefix="$out/crash-$t/" "$out/corpus-$t" \
	    "fuzz/corpus/$t" > "$out/log-$t" 2>&1
	rc=$?
	end=$(date +%s)
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log-$t")
	cov=$(grep -o 'cov: [0-9]*' "$out/log-$t" | tail -n 1)
	crashes=$(ls "$out/crash-$t" | wc -l | tr -d ' ')
	printf '%s: %ss, %s runs, %s, corpus %s, %s crash files, status %s\n' \
	    "$t" "$((end - start))" "${runs:-?}" "${cov:-cov: ?}" \
	    "$(ls "$out/corpus-$t" | wc -l | tr -d ' ')" "$crashes" "$rc"
	[ "$rc" -eq 0 ] || status=1
done
exit "$status"
