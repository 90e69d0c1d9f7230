#!/bin/sh
# kslice -j N against -j 1 on the same saved records, in the same run:
# wall seconds of each (best of REPS), the ratio, and that the outputs are
# the same bytes.  usage: bench/kslice-jobs.sh [records.ndjson] [N] [REPS]
# (default examples/kscan.ndjson, 2, 3).  The work directory is a fresh
# one per run, so every run loads the same precompiled headers.
set -eu
cd "$(dirname "$0")/.."
in=${1:-examples/kscan.ndjson}
n=${2:-2}
reps=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
KFORGE_WORK=$tmp/warm ./kslice < "$in" > /dev/null 2>&1 || true

best() {	# best JOBS: the fastest of reps runs, in seconds
	b=
	i=0
	while [ $i -lt "$reps" ]; do
		t0=$(date +%s.%N)
		KFORGE_WORK=$tmp/warm ./kslice -j "$1" < "$in" > "$tmp/out.$1" 2> /dev/null || true
		t1=$(date +%s.%N)
		t=$(echo "$t1 - $t0" | bc)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
		i=$((i + 1))
	done
	echo "$b"
}
t1=$(best 1)
tn=$(best "$n")
cmp -s "$tmp/out.1" "$tmp/out.$n" && same=yes || same=NO
printf 'kslice on %s (%s records), best of %s: -j 1 %.1f s, -j %s %.1f s, ratio %.2f, same output: %s\n' \
    "$in" "$(wc -l < "$in" | tr -d ' ')" "$reps" "$t1" "$n" "$tn" \
    "$(echo "$t1 / $tn" | bc -l)" "$same"
