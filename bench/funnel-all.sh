#!/bin/sh
# The whole funnel over several code bases at once, on one machine with
# many cores: the CPU half of every corpus in parallel (kscan -j2 each,
# kslice in CHUNKS processes per corpus), then the GPU half
# (bench/funnel-gpu.sh) over all of them.
#
#	sh bench/funnel-all.sh [-c chunks] [-d seconds] [-o dir] [-s] CORPUS_ROOT...
#
# Each CORPUS_ROOT is a code base (only read); mmcv is taken whole, the
# others sampled to 60 kernels, as bench/funnel.sh does with -n.  -o: where
# the outputs go (default bench/out/all; OUT/NAME per corpus, table.md in
# OUT).  -c: kslice processes per corpus (default 4).  -d: kverify's
# deadline, passed to funnel-gpu.sh (default 400).  -s: stop after the CPU
# half (a machine without a GPU; run funnel-gpu.sh on OUT/* later).
# The tools are this checkout's (or $KFORGE_BIN's); on a machine that
# lacks libclang, unpack the libraries the tools link and put them on
# LD_LIBRARY_PATH first, and point KFORGE_CUDA_PATH at a CUDA 12.x tree
# (the one `make deps` lays out).
set -eu
k=$(cd "$(dirname "$0")/.." && pwd)
bin=${KFORGE_BIN:-$k}
chunks=4
deadline=400
out=$k/bench/out/all
cpuonly=0
usage="usage: bench/funnel-all.sh [-c chunks] [-d seconds] [-o dir] [-s] CORPUS_ROOT..."
while getopts c:d:o:s o; do
	case $o in
	c) chunks=$OPTARG ;;
	d) deadline=$OPTARG ;;
	o) out=$OPTARG ;;
	s) cpuonly=1 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
KFORGE_BIN=$bin
export KFORGE_BIN

# kernels sampled: mmcv whole (as in BENCHMARKS.md), the others 60
samples() { if [ "$1" = mmcv ]; then echo 0; else echo 60; fi; }

# kscan and the sample, every corpus at once
for root in "$@"; do
	name=$(basename "$(cd "$root" && pwd)")
	sh "$k/bench/funnel.sh" -n "$(samples "$name")" -t kscan "$root" "$out/$name" \
	    > "$out/$name.log" 2>&1 &
done
wait
echo "# kscan: $(date -u +%T)"

# kslice: each sample cut in $chunks, every chunk its own process
for root in "$@"; do
	root=$(cd "$root" && pwd)
	name=$(basename "$root")
	rm -f "$out/$name"/part.*
	split -n "l/$chunks" -d "$out/$name/sample.ndjson" "$out/$name/part."
	for p in "$out/$name"/part.*; do
		# shellcheck disable=SC2086
		(cd "$root" || exit 0
		 KFORGE_WORK=$out/$name/work "$bin/kslice" -q \
		    ${FUNNEL_KSLICE---types float} < "$p" > "$p.out" \
		    2> "$p.err" || true) &
	done
done
wait
echo "# kslice: $(date -u +%T)"

# kwrap and the counts, corpus by corpus (funnel.sh from kwrap on)
for root in "$@"; do
	name=$(basename "$(cd "$root" && pwd)")
	cat "$out/$name"/part.*.out > "$out/$name/kslice.ndjson"
	rm -f "$out/$name"/part.*
	sh "$k/bench/funnel.sh" -n "$(samples "$name")" -f kwrap -t kwrap \
	    "$root" "$out/$name" |
	    tail -n 1
done
echo "# kwrap: $(date -u +%T)"
[ "$cpuonly" = 1 ] && exit 0

set --
for d in "$out"/*/; do
	[ -f "$d/kwrap.ndjson" ] && set -- "$@" "${d%/}"
done
sh "$k/bench/funnel-gpu.sh" -d "$deadline" "$@"
