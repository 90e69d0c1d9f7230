#!/bin/sh
# What an exported task costs to build, without a GPU: a sample of a
# kwrap output's CUDA records built by kbuild as the pipeline builds them
# (the harness and the kernel's cubin, -j 1, a fresh work directory: the
# baseline), then exported by kreport --export-dir and each folder's
# test.cu built alone with nvcc, both for the same --arch.  The export
# needs a verify section: test/export/golden.jq gives each record
# placeholder golden outputs (16 bytes; only the build is measured here,
# bench/export-gpu.sh runs the real ones).
#
#	sh bench/export-build.sh [-a arch] [-n records] KWRAP.ndjson
#
# -a: the architecture of both builds (default sm_90); -n: records in the
# sample, every k-th CUDA record with a harness (default 12).  Needs jq,
# sha256sum, nvcc and the built kbuild and kreport.  Prints a Markdown
# table; scratch files in a temporary directory, removed at the end.
set -eu
k=$(cd "$(dirname "$0")/.." && pwd)
arch=sm_90
n=12
while getopts a:n: o; do
	case $o in
	a) arch=$OPTARG ;;
	n) n=$OPTARG ;;
	*) echo "usage: bench/export-build.sh [-a arch] [-n records] KWRAP.ndjson" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: bench/export-build.sh [-a arch] [-n records] KWRAP.ndjson" >&2; exit 2; }
in=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
s=$(mktemp -d)
trap 'rm -rf "$s"' EXIT
KFORGE_WORK=$s/work
export KFORGE_WORK

jq -c 'select(.wrap.harness.code != null and (.wrap.harness.dialect // "cuda") == "cuda")' \
    "$in" > "$s/cuda.ndjson"
total=$(wc -l < "$s/cuda.ndjson")
step=$(( total / n ))
[ "$step" -ge 1 ] || step=1
awk -v s="$step" -v n="$n" '(NR - 1) % s == 0 && c < n { print; c++ }' \
    "$s/cuda.ndjson" > "$s/sample.ndjson"
got=$(wc -l < "$s/sample.ndjson")
echo "# $(basename "$in"): $got of its $total CUDA records with a harness; nvcc $("$NVCC" --version | grep -o 'release [0-9.]*'), --arch $arch"
echo "# machine: $(nproc) CPUs, $(uname -sr); shared with other jobs: single runs, no repetition"

# the baseline: kbuild, one job, nothing cached
t0=$(date +%s.%N)
"$k/kbuild" -q -j 1 --arch "$arch" < "$s/sample.ndjson" > "$s/built.ndjson" || true
t1=$(date +%s.%N)
kb_ok=$(jq -s '[.[] | select(.build.reference.ok == true and .build.harness.ok == true)] | length' "$s/built.ndjson")

# placeholder goldens, the export, and each test.cu built alone
for i in $(seq 0 31); do
	printf '%016d' "$i" > "$s/blob"
	h=$(sha256sum < "$s/blob" | cut -c1-64)
	mkdir -p "$KFORGE_WORK/blobs/$(echo "$h" | cut -c1-2)"
	mv "$s/blob" "$KFORGE_WORK/blobs/$(echo "$h" | cut -c1-2)/$h"
	echo "\"$h\""
done | jq -s . > "$s/hashes.json"
jq -c --slurpfile h "$s/hashes.json" -f "$k/test/export/golden.jq" \
    "$s/sample.ndjson" > "$s/verified.ndjson"
"$k/kreport" -q --export-dir "$s/x" "$s/verified.ndjson" > "$s/export.ndjson" || true
folders=$(grep -c '"dir"' "$s/export.ndjson" || true)
t2=$(date +%s.%N)
ok=0
for d in $(grep -o '"dir":"[^"]*"' "$s/export.ndjson" | cut -d'"' -f4); do
	c=$(jq -r .build "$d/task.json")
	if (cd "$d" && eval "\"\$NVCC\" -arch=$arch${c#nvcc}" > build.log 2>&1); then
		ok=$((ok + 1))
	else
		echo "# does not build: $(basename "$d"): $(grep -m 1 error "$d/build.log")"
	fi
done
t3=$(date +%s.%N)

awk -v kb="$(echo "$t1 - $t0" | bc)" -v ex="$(echo "$t3 - $t2" | bc)" \
    -v n="$got" -v kbok="$kb_ok" -v f="$folders" -v ok="$ok" 'BEGIN {
	print ""
	print "| build | records | built | seconds | s / record | ratio |"
	print "|---|---:|---:|---:|---:|---:|"
	printf "| kbuild -j 1: harness + cubin (baseline) | %d | %d | %.1f | %.2f | 1.00 |\n", n, kbok, kb, kb / n
	printf "| nvcc test.cu of the exported folder | %d | %d | %.1f | %.2f | %.2f |\n", f, ok, ex, ex / (f ? f : 1), (ex / (f ? f : 1)) / (kb / n)
}'
