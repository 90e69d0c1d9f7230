#!/bin/sh
# Every stage on mmcv's operators (open-mmlab/mmcv, mmcv/ops/csrc, kept out
# of this repository and only read here): wall time, throughput and peak
# memory at -j1 and -j2, then how cost grows with 10, 100 and 1000 records.
# No GPU: kverify is not run (its cost is the GPU's).  Run from anywhere
# after make:
#
#	sh bench/stages-mmcv.sh /path/to/mmcv/mmcv/ops/csrc [outdir]
#
# -j2 is the stage's own -j where it has one (kscan, kbuild) and GNU
# parallel --pipe --keep-order over two halves of the input where it does
# not (kslice, kwrap); kreport aggregates every record, so it runs once.
# Where the real input has fewer than 1000 records, records are repeated
# (ids made unique) and units named again; the output says so.
set -eu
src=${1:?usage: bench/stages-mmcv.sh CSRC [outdir]}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$root/bench/out/stages-mmcv}
src=$(cd "$src" && pwd)
rm -rf "$out"
mkdir -p "$out"
KFORGE_WORK=$out/work
export KFORGE_WORK
k=$root

# measure NAME IN CMD...: run CMD (stdin from IN, stdout to $out/last),
# print "NAME wall records-out rate peak"; the peak is time(1)'s, which
# counts the children a tool waits for (nvcc under kbuild, the forked
# parsers under kscan and kslice: the largest process, not the sum)
measure() {
	name=$1 in=$2
	shift 2
	/usr/bin/time -f "%e %M" -o "$out/time" "$@" < "$in" > "$out/last" \
	    2> "$out/stderr" || true
	n=$(wc -l < "$out/last" | tr -d ' ')
	awk -v name="$name" -v n="$n" '/^[0-9.]+ [0-9]+$/ {
		printf "%-30s %8.2f s %6d rec %8.2f rec/s %8.1f MiB\n", name,
		    $1, n, ($1 > 0 ? n / $1 : 0), $2 / 1024 }' "$out/time"
}

# one line of a growth table: wall and peak of a measure line
f() { echo "$1" | awk '{ printf "%7.2f s %6.1f MiB", $2, $8 }'; }

# repeat N FILE: N records from FILE, repeated with ids made unique
repeat() {
	jq -s -c --argjson n "$1" '. as $all | [range(0; ($n / ($all | length)
	    | ceil))] | map(. as $i | $all[] | .id = "\(.id)#\($i)") |
	    .[:$n][]' "$2"
}

cd "$src"
find . \( -name '*.cu' -o -name '*.cuh' -o -name '*.hip' \) | sort |
    sed 's|^\./||' > "$out/files"
echo "# mmcv: $src"
echo "# $(git -C "$src" log -1 --format='commit %h (%cs)' 2> /dev/null ||
    echo 'not a git checkout'); $(wc -l < "$out/files") CUDA/HIP files"
echo "# $(nproc) CPUs, load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "stage on mmcv                      wall       records        rate       peak RSS"
: > "$out/empty"
"$k/kscan" -q -j2 . > /dev/null 2>&1 || true	# warm the page cache
measure "kscan -j1" "$out/empty" "$k/kscan" -j1 .
measure "kscan -j2" "$out/empty" "$k/kscan" -j2 .
cp "$out/last" "$out/kscan.ndjson"
nscan=$(wc -l < "$out/kscan.ndjson" | tr -d ' ')
measure "kslice" "$out/kscan.ndjson" "$k/kslice" -q
measure "kslice, 2 halves (parallel)" "$out/kscan.ndjson" parallel --pipe \
    --keep-order -j2 -N "$(( (nscan + 1) / 2 ))" "$k/kslice" -q
cp "$out/last" "$out/kslice.ndjson"
nslice=$(wc -l < "$out/kslice.ndjson" | tr -d ' ')
measure "kwrap" "$out/kslice.ndjson" "$k/kwrap" -q
measure "kwrap, 2 halves (parallel)" "$out/kslice.ndjson" parallel --pipe \
    --keep-order -j2 -N "$(( (nslice + 1) / 2 ))" "$k/kwrap" -q
cp "$out/last" "$out/kwrap.ndjson"
rm -rf "$KFORGE_WORK"
measure "kbuild -j1, cold" "$out/kwrap.ndjson" "$k/kbuild" -q -j1
rm -rf "$KFORGE_WORK"
measure "kbuild -j2, cold" "$out/kwrap.ndjson" "$k/kbuild" -q -j2
cp "$out/last" "$out/kbuild.ndjson"
measure "kbuild -j2, warm" "$out/kwrap.ndjson" "$k/kbuild" -q -j2
measure "kreport (markdown)" "$out/kbuild.ndjson" "$k/kreport"
echo "# kverify: not run here (no GPU)"
echo "# records: $nscan kernels, $nslice slices and instances," \
    "$(grep -c '"errors":\[{' "$out/kbuild.ndjson" || true) of them with an error after kbuild"

echo
echo "records  kscan -j2 (units)   kslice              kwrap              kbuild -j2 warm    kreport"
for n in 10 100 1000; do
	# units: the tree's files, named again once all are used
	awk -v n="$n" '{ f[NR] = $0 } END { for (i = 0; i < n; i++)
	    print f[i % NR + 1] }' "$out/files" > "$out/units.$n"
	repeat "$n" "$out/kscan.ndjson" > "$out/kscan.$n"
	repeat "$n" "$out/kslice.ndjson" > "$out/kslice.$n"
	repeat "$n" "$out/kwrap.ndjson" > "$out/kwrap.$n"
	repeat "$n" "$out/kbuild.ndjson" > "$out/kbuild.$n"
	a=$(measure x "$out/units.$n" "$k/kscan" -q -j2)
	b=$(measure x "$out/kscan.$n" "$k/kslice" -q)
	c=$(measure x "$out/kslice.$n" "$k/kwrap" -q)
	d=$(measure x "$out/kwrap.$n" "$k/kbuild" -q -j2)
	e=$(measure x "$out/kbuild.$n" "$k/kreport")
	printf '%-8s %s  %s  %s  %s  %s\n' "$n" "$(f "$a")" "$(f "$b")" \
	    "$(f "$c")" "$(f "$d")" "$(f "$e")"
done
echo "# repeated: units beyond $(wc -l < "$out/files" | tr -d ' ') files," \
    "records beyond $nscan kernels / $nslice slices (ids made unique;" \
    "kslice's parse cache and kbuild's build cache make repeats cheaper)"
echo "# load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
