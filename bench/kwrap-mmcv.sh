#!/bin/sh
# kwrap's throughput on a saved kslice output, two kwrap binaries in the
# same run (a baseline, e.g. main's, and this tree's), so that their
# ratio means something on a shared machine:
#
#	sh bench/kwrap-mmcv.sh KSLICE.ndjson BASELINE-KWRAP [KWRAP] [RECORDS] [RUNS]
#
# KSLICE.ndjson is kslice's output (bench/stages-mmcv.sh leaves mmcv's in
# bench/out/stages-mmcv/kslice.ndjson); its records are repeated, ids made
# unique, up to RECORDS (default 1000).  Each binary runs RUNS times
# (default 7), alternating, so that load drifts touch both alike; each
# line gives the median wall time, records per second and peak RSS, and
# the last the ratio of the medians.
set -eu
in=${1:?usage: bench/kwrap-mmcv.sh KSLICE.ndjson BASELINE-KWRAP [KWRAP] [RECORDS] [RUNS]}
base=${2:?usage: bench/kwrap-mmcv.sh KSLICE.ndjson BASELINE-KWRAP [KWRAP] [RECORDS] [RUNS]}
root=$(cd "$(dirname "$0")/.." && pwd)
new=${3:-$root/kwrap}
n=${4:-1000}
runs=${5:-7}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

jq -s -c --argjson n "$n" '. as $all | [range(0; ($n / ($all | length)
    | ceil))] | map(. as $i | $all[] | .id = "\(.id)#\($i)") | .[:$n][]' \
    "$in" > "$tmp/in"
echo "# $(wc -l < "$tmp/in" | tr -d ' ') records from $in; $(nproc) CPUs," \
    "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$runs" ]; do
	for which in base new; do
		eval bin=\$$which
		/usr/bin/time -f "%e %M %U %S" -o "$tmp/t" "$bin" -q < "$tmp/in" \
		    > "$tmp/out.$which" 2> /dev/null || true
		# time(1) says "Command exited with non-zero status 1"
		# first when a record carries an error
		grep -E '^[0-9.]+ [0-9]+ [0-9.]+ [0-9.]+$' "$tmp/t" >> "$tmp/times.$which"
	done
	i=$((i + 1))
done
cmp -s "$tmp/out.base" "$tmp/out.new" && same=identical || same=different
echo "# records with a kwrap error: base $(grep -c '"stage":"kwrap"' \
    "$tmp/out.base" || true), new $(grep -c '"stage":"kwrap"' "$tmp/out.new" ||
    true)"
for which in base new; do
	eval bin=\$$which
	# wall and CPU (user + system) medians: on a shared machine the
	# CPU time is the steadier of the two
	cm=$(awk '{ print $3 + $4 }' "$tmp/times.$which" | sort -n |
	    awk '{ c[NR] = $1 } END { print c[int((NR + 1) / 2)] }')
	sort -n "$tmp/times.$which" | awk -v w="$which" -v b="$bin" \
	    -v cm="$cm" -v n="$(wc -l < "$tmp/in")" '
	    { t[NR] = $1; m = $2 > m ? $2 : m }
	    END { med = t[int((NR + 1) / 2)]
	    printf "%-5s %7.3f s wall median of %d (%.3f to %.3f), %7.0f rec/s, CPU %.3f s (%.0f rec/s), %6.1f MiB  %s\n",
	    w, med, NR, t[1], t[NR], n / med, cm, n / cm, m / 1024, b }'
done > "$tmp/lines"
cat "$tmp/lines"
awk 'NR == 1 { b = $2; bc = $14 } NR == 2 { printf "new / base: %.2fx the wall time, %.2fx the CPU time (outputs %s)\n", $2 / b, $14 / bc, same }' \
    same="$same" "$tmp/lines"
echo "# load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
