#!/bin/sh
# Reproduces BENCHMARKS.md, section "kslice": scan mmcv's ops/csrc, slice
# every kernel (float instantiations), compile each slice with nvcc and only
# the toolkit on the include path, and check that the object holds the
# kernel's symbol.
#
#	sh bench/kslice-mmcv.sh /path/to/mmcv/mmcv/ops/csrc [workdir]
#
# Prints the count, the failures grouped by cause and the timings; keeps
# every slice, object and compiler log in workdir (default
# /tmp/kslice-bench).  Needs jq, nvcc and nm; JOBS sets nvcc's parallelism.
# KSCAN_NDJSON names a kscan output of the same tree to slice instead of
# scanning again (paths relative to CSRC); SAMPLE=N slices and compiles
# the kernels of every Nth kscan record only (1, the default: every one),
# and the rate is of their slices.
set -eu
src=${1:?usage: bench/kslice-mmcv.sh CSRC [WORKDIR]}
work=${2:-/tmp/kslice-bench}
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-$(nproc)}
NVCC=${NVCC:-nvcc}
rm -rf "$work"
mkdir -p "$work/slices"

sample=${SAMPLE:-1}
saved=${KSCAN_NDJSON:-}
case $saved in ''|/*) ;; *) saved=$(pwd)/$saved ;; esac
cd "$src"
t0=$(date +%s.%N)
if [ -n "$saved" ]; then
	cp "$saved" "$work/kscan.all.ndjson"
else
	"$root/kscan" -q -j "$jobs" . > "$work/kscan.all.ndjson" || true
fi
awk -v s="$sample" 'NR % s == 1 % s' "$work/kscan.all.ndjson" \
    > "$work/kscan.ndjson"
t1=$(date +%s.%N)
"$root/kslice" -q --types float < "$work/kscan.ndjson" > "$work/kslice.ndjson" || true
t2=$(date +%s.%N)
cd "$work"

kernels=$(wc -l < kscan.ndjson)
records=$(wc -l < kslice.ndjson)
# one file per record: NNN.cu (the slice), NNN.sym (the symbol), NNN.id
jq -r '[.slice.code // "", .slice.symbol // "", .id, (.errors // [] | map(.code) | join(","))] | @json' kslice.ndjson |
    awk '{ printf "%04d\t%s\n", NR, $0 }' > index.tsv
while IFS='	' read -r n j; do
	printf '%s' "$j" | jq -r '.[0]' > "slices/$n.cu"
	printf '%s' "$j" | jq -r '.[1]' > "slices/$n.sym"
	printf '%s' "$j" | jq -r '.[2]' > "slices/$n.id"
	printf '%s' "$j" | jq -r '.[3]' > "slices/$n.err"
done < index.tsv

cat > compile.sh <<'EOS'
n=$1
if [ -n "$(cat "slices/$n.err")" ]; then
	echo "$n kslice-error:$(cat "slices/$n.err")"
	exit 0
fi
if ! ${NVCC:-nvcc} -std=c++17 -c -arch=sm_90 "slices/$n.cu" -o "slices/$n.o" \
    > "slices/$n.log" 2>&1; then
	cause=$(grep -m1 -o 'error: .*' "slices/$n.log" |
	    sed -e 's/"[^"]*"/"X"/g' | cut -c1-70)
	echo "$n nvcc:$cause"
	exit 0
fi
# nm spells value arguments its own way (1024u): match the name, then the
# argument list or the parameter list
sym=$(cut -d'<' -f1 "slices/$n.sym")
if nm -C "slices/$n.o" | grep -qF -e "$sym<" -e "$sym("; then
	echo "$n ok"
else
	echo "$n no-symbol"
fi
EOS
export NVCC
ls slices | sed -n 's/\.cu$//p' | xargs -P "$jobs" -n 1 sh compile.sh > results.txt
sort -o results.txt results.txt
ok=$(grep -c ' ok$' results.txt || true)
tried=$(wc -l < results.txt | tr -d ' ')
echo "kernels (kscan): $kernels"
echo "slice records (float instantiations): $records"
[ "$sample" -gt 1 ] && echo "sampled: every ${sample}th kscan record, $kernels of $(wc -l < kscan.all.ndjson)"
echo "compile with nvcc -c -arch=sm_90 and hold the kernel symbol: $ok / $tried ($(echo "scale=1; 100 * $ok / $tried" | bc)%)"
echo "kscan time: $(echo "$t1 - $t0" | bc) s; kslice time: $(echo "$t2 - $t1" | bc) s ($(echo "scale=3; ($t2 - $t1) / $kernels" | bc) s per kernel)"
echo "failures by cause:"
grep -v ' ok$' results.txt | cut -d' ' -f2- | sort | uniq -c | sort -rn
echo "failing records:"
grep -v ' ok$' results.txt | while read -r n c; do echo "  $(cat "slices/$n.id"): $c"; done
