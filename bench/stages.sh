#!/bin/sh
# Per-stage cost on this machine (no GPU needed): wall time and peak memory
# of each stage on the example project at -j1 and -j2, and how cost grows
# with the number of records (10, 100, 1000 copies of the example slices,
# ids made unique).  Run from the repository root after make:
#
#	bench/stages.sh [outdir]
set -eu
cd "$(dirname "$0")/.."
out=${1:-bench/out/stages}
rm -rf "$out"
mkdir -p "$out"
export KFORGE_WORK="$out/work"

# measure NAME CMD...: one line "NAME wall_s peak_rss_MiB", stdin passed on;
# the peak is time(1)'s, which counts the children a tool waited for
# (nvcc under kbuild)
measure() {
	name=$1
	shift
	/usr/bin/time -f "%e %M" -o "$out/time" "$@" > "$out/last" 2> /dev/null || true
	# time(1) adds a line when the command fails; the numbers are last
	awk -v n="$name" '/^[0-9.]+ [0-9]+$/ { printf "%-34s %8.2f s %8.1f MiB\n", n, $1, $2 / 1024 }' "$out/time"
}

echo "stage on the examples                wall       peak RSS"
measure "kscan -j1" ./kscan -j1 examples/src
measure "kscan -j2" ./kscan -j2 examples/src
measure "kslice" ./kslice < examples/kscan.ndjson
measure "kwrap" ./kwrap < examples/kslice.ndjson
rm -rf "$KFORGE_WORK"
measure "kbuild -j1 cold" ./kbuild -q -j1 < examples/kwrap.ndjson
rm -rf "$KFORGE_WORK"
measure "kbuild -j2 cold" ./kbuild -q -j2 < examples/kwrap.ndjson
cp "$out/last" "$out/built.ndjson"
measure "kbuild -j2 warm" ./kbuild -q -j2 < examples/kwrap.ndjson
measure "kverify (no GPU: no-device)" ./kverify < "$out/built.ndjson"
measure "kreport" ./kreport "$out/built.ndjson"

echo
echo "records   kslice     kwrap      kbuild warm   kreport   (wall s; peak MiB)"
for n in 10 100 1000; do
	# n records: copies of the example records with unique ids
	for f in kscan kslice; do
		jq -s -c '. as $all | range(0; 60) as $i | $all[] |
		    .id = "\(.id)#\($i)"' "examples/$f.ndjson" |
		    head -n "$n" > "$out/$f.$n"
	done
	jq -s -c '. as $all | range(0; 60) as $i | $all[] | .id = "\(.id)#\($i)"' \
	    examples/kwrap.ndjson | head -n "$n" > "$out/kwrap.$n"
	s=$(measure x ./kslice < "$out/kscan.$n")
	w=$(measure x ./kwrap < "$out/kslice.$n")
	b=$(measure x ./kbuild -q -j2 < "$out/kwrap.$n")
	r=$(measure x ./kreport "$out/kwrap.$n")
	printf '%-8s %s | %s | %s | %s\n' "$n" \
	    "$(echo "$s" | awk '{ print $2 " " $4 }')" \
	    "$(echo "$w" | awk '{ print $2 " " $4 }')" \
	    "$(echo "$b" | awk '{ print $2 " " $4 }')" \
	    "$(echo "$r" | awk '{ print $2 " " $4 }')"
done
