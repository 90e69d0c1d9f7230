#!/bin/sh
# Reproduce the kscan figures of BENCHMARKS.md on mmcv's operators.
#
#	bench/kscan-mmcv.sh /path/to/mmcv/mmcv/ops/csrc [outdir]
#
# Prints: kernels found by kscan over the CUDA sources; an independent count
# of __global__ definitions by a text search (lines holding the keyword in
# .cu/.cuh/.h/.hpp/.cpp files), and the cross-check that every such line
# lies in exactly one kscan record and every record holds exactly one; wall
# time at -j1 and -j2; the per-file parse times (mean, median, max).
set -eu
src=${1:?usage: bench/kscan-mmcv.sh mmcv/ops/csrc [outdir]}
here=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$here/bench/out}
mkdir -p "$out"
kscan=$here/kscan
cd "$src"

now() { date +%s.%N; }

# one run to warm the page cache, not timed
"$kscan" -q -j2 . > /dev/null
t0=$(now)
"$kscan" -j1 --timing . > "$out/mmcv.j1.ndjson" 2> "$out/mmcv.timing"
t1=$(now)
"$kscan" -q -j2 . > "$out/mmcv.j2.ndjson"
t2=$(now)
cmp -s "$out/mmcv.j1.ndjson" "$out/mmcv.j2.ndjson" ||
	echo "warning: -j1 and -j2 outputs differ" >&2

grep -rn --include='*.cu' --include='*.cuh' --include='*.h' \
    --include='*.hpp' --include='*.cpp' -E '__global__' . |
    sed 's|^\./||' | awk -F: '{ print $1 ":" $2 }' | sort > "$out/mmcv.grep"

python3 - "$out/mmcv.j1.ndjson" "$out/mmcv.grep" <<'PY'
import collections, json, sys
ks = [json.loads(l) for l in open(sys.argv[1])]
ks = [k for k in ks if "scan" in k]
lines = [l.strip().rsplit(":", 1) for l in open(sys.argv[2])]
cover = collections.Counter()
stray = []
for f, n in lines:
    n = int(n)
    hit = [k["id"] for k in ks
           if k["scan"]["file"] == f and k["scan"]["line"] <= n <= k["scan"]["end_line"]]
    if len(hit) != 1:
        stray.append("%s:%d" % (f, n))
    for h in hit:
        cover[h] += 1
extra = [k["id"] for k in ks if cover[k["id"]] != 1]
print("kscan kernels:            %d" % len(ks))
print("text search definitions:  %d" % len(lines))
print("text lines not in exactly one record: %d %s" % (len(stray), " ".join(stray)))
print("records not holding exactly one line: %d %s" % (len(extra), " ".join(extra)))
print("launch sites matched:     %d" % sum(len(k["scan"]["launches"]) for k in ks))
print("kernels with no launch:   %d" % sum(1 for k in ks if not k["scan"]["launches"]))
PY
awk '/parsed in/ { for (i = 1; i <= NF; i++) if ($i == "in") print $(i + 1) }' \
    "$out/mmcv.timing" | sort -n > "$out/mmcv.pertu"
awk -v j1="$(echo "$t1 - $t0" | bc)" -v j2="$(echo "$t2 - $t1" | bc)" '
{ v[NR] = $1; s += $1 }
END {
	printf "files parsed:             %d\n", NR
	printf "wall -j1:                 %.2f s\n", j1
	printf "wall -j2:                 %.2f s (%.2fx of -j1)\n", j2, j1 / j2
	printf "per-file parse: mean %.3f s, median %.3f s, max %.3f s\n",
	    s / NR, v[int((NR + 1) / 2)], v[NR]
}' "$out/mmcv.pertu"
