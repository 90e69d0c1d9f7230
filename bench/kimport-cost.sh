#!/bin/sh
# What kimport costs over running kscan and kslice by hand on the same
# candidates, and what its kept scans save on a rerun.
#
#	sh bench/kimport-cost.sh [ROWS...]
#
# ROWS (default: test/import's GEAK run, TritonBench, ComputeEval and
# KernelBench rows) are imported three times in one run: into an empty
# work directory (cold), again into the same one (rerun), and, as the
# baseline, each row's candidate written to a directory of its own and
# run through "kscan --root DIR DIR | kslice" by hand, and each row's
# label that holds a kernel likewise (what kimport does for each
# candidate and reference one-string row, without reading rows, the
# agent's memory or joining references; ComputeEval's file lists and
# KernelBench's Python are left out of the baseline, so it does less).  The
# parse caches start empty for the cold run and the baseline alike.
# Prints seconds and the ratios to the baseline.
set -eu
k=$(cd "$(dirname "$0")/.." && pwd)
cd "$k"
[ -x ./kimport ] || { echo "kimport-cost: run make first" >&2; exit 2; }
[ $# -gt 0 ] || set -- test/import/run_0.jsonl test/import/run_1.jsonl \
    test/import/tritonbench.jsonl test/import/computeeval.jsonl \
    test/import/kernelbench.jsonl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }

# baseline: the candidates by hand, the way kimport lays them out
KFORGE_WORK=$tmp/base
export KFORGE_WORK
mkdir -p "$tmp/base"
i=0
t0=$(now)
for f in "$@"; do
	while IFS= read -r line; do
		i=$((i + 1))
		d=$tmp/hand/$i
		mkdir -p "$d"
		name=$(printf '%s\n' "$line" | jq -r '.filename // "predict.cu" |
		    if test("\\.(cu|cuh|hip)$") then . else . + ".cu" end')
		for key in predict label; do
			mkdir -p "$d/$key"
			printf '%s\n' "$line" | jq -r --arg k "$key" '.[$k] //
			    (if $k == "predict" then .completion else null end) //
			    empty | if type == "string" then . else empty end' \
			    > "$d/$key/$name"
			grep -q __global__ "$d/$key/$name" 2> /dev/null || continue
			./kscan -q --root "$d/$key" "$d/$key" 2> /dev/null |
			    ./kslice -q > "$d/$key.ndjson" 2> /dev/null || true
		done
	done < "$f"
done
t1=$(now)

KFORGE_WORK=$tmp/imp
export KFORGE_WORK
./kimport -q "$@" > "$tmp/cold.ndjson" || true
t2=$(now)
./kimport -q "$@" > "$tmp/rerun.ndjson" || true
t3=$(now)
cmp -s "$tmp/cold.ndjson" "$tmp/rerun.ndjson" ||
    echo "kimport-cost: the rerun's records differ" >&2

awk -v b="$(echo "$t1 - $t0" | bc)" -v c="$(echo "$t2 - $t1" | bc)" \
    -v r="$(echo "$t3 - $t2" | bc)" -v n="$(wc -l < "$tmp/cold.ndjson")" 'BEGIN {
	printf "records out: %d\n", n
	printf "baseline (kscan | kslice by hand): %.2f s\n", b
	printf "kimport cold: %.2f s (%.2fx the baseline)\n", c, c / b
	printf "kimport rerun: %.2f s (%.3fx the baseline)\n", r, r / b
}'
