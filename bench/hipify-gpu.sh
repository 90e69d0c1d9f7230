#!/bin/sh
# The CUDA->HIP translation loop on the GPU machine: for each OUT directory
# of a funnel run (bench/funnel-gpu.sh left OUT/kverify.ndjson and the
# builds in OUT/work), translate the reference of every verified CUDA task
# to HIP with PyTorch's torch.utils.hipify (bench/hipify.py), attach it as
# a HIP candidate, build it through kforge's mapping of HIP onto CUDA
# (kbuild --hip-platform nvidia) and judge it against the CUDA golden
# (kverify).  Prints a Markdown table: tasks, translations hipify changed,
# how many compile, how many pass, the pass rate among those that
# compile, wavefront-sensitive translations, and the causes of the rest;
# then a total row over every corpus, every translation that does not pass
# with its cause, and every wavefront-sensitive one with its reasons.
#
#	sh bench/hipify-gpu.sh [-j jobs] [-t seconds] OUT...
#
# An OUT without kverify.ndjson stands for every directory in it that has
# one: bench/funnel-all.sh's output directory (OUT/NAME per corpus) gives
# every corpus's verified tasks in one command.
#
# Needs nvcc (CUDA 12 or 13), an NVIDIA GPU, python3 with torch; kbuild
# and kverify from $KFORGE_BIN (default: next to bench/), with $KFORGE_BIN/lib
# on LD_LIBRARY_PATH where it exists (bench/hipify-pack.sh packs them).
# Writes OUT/hipify/{in,kbuild,kverify}.ndjson and summary.json, and
# hipify.md and hipify-summary.ndjson (every corpus's summary line) next to
# the first corpus's OUT.
set -eu
k=$(cd "$(dirname "$0")/.." && pwd)
bin=${KFORGE_BIN:-$k}
jobs=$(nproc 2> /dev/null || echo 4)
tmo=10
usage="usage: bench/hipify-gpu.sh [-j jobs] [-t seconds] OUT..."
while getopts j:t: o; do
	case $o in
	j) jobs=$OPTARG ;;
	t) tmo=$OPTARG ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
# every corpus: a directory of funnel outputs stands for those in it
n=$#
for a in "$@"; do
	if [ -d "$a" ] && [ ! -e "$a/kverify.ndjson" ]; then
		found=0
		for d in "$a"/*/; do
			[ -f "$d/kverify.ndjson" ] || continue
			set -- "$@" "${d%/}"
			found=1
		done
		[ $found = 1 ] || echo "# $a: no kverify.ndjson in it or its directories"
	else
		set -- "$@" "$a"
	fi
done
shift "$n"
[ $# -gt 0 ] || { echo "hipify-gpu.sh: no funnel output to translate" >&2; exit 2; }
if [ -d "$bin/lib" ]; then
	LD_LIBRARY_PATH=$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
fi
python3 -c 'import torch.utils.hipify.hipify_python' 2> /dev/null ||
    { echo "hipify-gpu.sh: needs python3 with torch (torch.utils.hipify)" >&2; exit 2; }
echo "# device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2> /dev/null | head -n 1)"
echo "# nvcc: $(nvcc --version 2> /dev/null | grep -o 'release [0-9.]*' | head -n 1)"
echo "# torch: $(python3 -c 'import torch; print(torch.__version__)' 2> /dev/null)"
echo "# $(nproc) CPUs, $jobs kbuild jobs and kverify processes, --timeout $tmo"

table=$(cd "$1/.." && pwd)/hipify.md
sums=${table%.md}-summary.ndjson
: > "$sums"
{
	echo "| corpus | verified CUDA tasks | changed by hipify | HIP compiles | not judged | HIP passes | passes / judged | wavefront-sensitive |"
	echo "|---|---|---|---|---|---|---|---|"
} > "$table"
for out in "$@"; do
	out=$(cd "$out" && pwd)
	name=$(basename "$out")
	h=$out/hipify
	mkdir -p "$h"
	[ -s "$out/kverify.ndjson" ] ||
	    { echo "# $name: no kverify.ndjson (run bench/funnel-gpu.sh first)"; continue; }
	t0=$(date +%s)
	python3 "$k/bench/hipify.py" translate "$out/kverify.ndjson" "$h/in.ndjson"
	t1=$(date +%s)
	KFORGE_WORK=$out/work "$bin/kbuild" -q -j "$jobs" --hip-platform nvidia \
	    < "$h/in.ndjson" > "$h/kbuild.ndjson" || true
	t2=$(date +%s)
	# kverify in $jobs processes over slices of the records, joined back
	# in input order (each line keeps its number)
	rm -rf "$h/parts"
	mkdir -p "$h/parts"
	awk -v d="$h/parts" -v j="$jobs" '{ print > sprintf("%s/%03d.in", d, (NR - 1) % j) }' \
	    "$h/kbuild.ndjson"
	for p in "$h"/parts/*.in; do
		[ -f "$p" ] || continue
		KFORGE_WORK=$out/work "$bin/kverify" -q --no-time --no-memcheck \
		    --timeout "$tmo" < "$p" > "${p%.in}.out" 2> "${p%.in}.err" &
	done
	wait
	for p in "$h"/parts/*.in; do
		[ -f "$p" ] || continue
		awk -v f="$(basename "$p" .in)" -v j="$jobs" '{ printf "%d\t%s\n", (NR - 1) * j + f, $0 }' \
		    "${p%.in}.out"
	done | sort -n | cut -f2- > "$h/kverify.ndjson"
	t3=$(date +%s)
	echo "# $name: $(wc -l < "$h/in.ndjson") translated in $((t1 - t0)) s," \
	    "kbuild $((t2 - t1)) s, kverify $((t3 - t2)) s"
	[ "$(wc -l < "$h/kverify.ndjson")" -eq "$(wc -l < "$h/in.ndjson")" ] ||
	    echo "# $name: kverify wrote $(wc -l < "$h/kverify.ndjson") of $(wc -l < "$h/in.ndjson") lines"
	python3 "$k/bench/hipify.py" report "$name" "$h/kverify.ndjson" >> "$table" 2> "$h/summary.json"
	cat "$h/summary.json" >> "$sums"
done
python3 "$k/bench/hipify.py" total "$sums" >> "$table"
cat "$table"
