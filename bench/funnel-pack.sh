#!/bin/sh
# Pack what the funnel's GPU half needs for a machine that has nvcc,
# compute-sanitizer and a GPU but not this checkout's build: kbuild,
# kverify, kreport and the libraries they link other than libc's, the
# bench/funnel scripts and bench/export-gpu.sh, and each OUT's counts.json
# and kwrap.ndjson (the CPU half's).
#
#	sh bench/funnel-pack.sh [-n records] DEST OUT...
#
# DEST gets funnel.tar.xz; there, run
#	tar xJf funnel.tar.xz && sh bench/funnel-gpu.sh out/*
# (funnel-gpu.sh finds the tools next to bench/ and lib/ on its own).
# -n N: pack each corpus's first N records in the order funnel-gpu.sh
# queues them (kernel by kernel: every kernel's first instance before
# any kernel's second), for a GPU machine lent for less time than the
# whole corpus takes; counts.json then says "slices": N (the sample the
# table's yields are of) and keeps the corpus's own as "slices_all".
set -eu
usage="usage: bench/funnel-pack.sh [-n records] DEST OUT..."
sample=
while getopts n: o; do
	case $o in
	n) sample=$OPTARG ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
dest=${1:?$usage}
shift
k=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dest"
s=$(mktemp -d)
trap 'rm -rf "$s"' EXIT
mkdir -p "$s/bench" "$s/lib" "$s/out"
cp "$k/kbuild" "$k/kverify" "$k/kreport" "$s/"
cp "$k/bench/funnel-gpu.sh" "$k/bench/funnel-table.sh" "$k/bench/export-gpu.sh" \
    "$k/bench/kernel-order.sh" "$s/bench/"
for t in kbuild kverify kreport; do
	ldd "$k/$t" | awk '/=> \// && !/libc\.so|ld-linux|libm\.so|libpthread/ { print $3 }'
done | sort -u | while read -r lib; do cp -L "$lib" "$s/lib/"; done
for o in "$@"; do
	n=$(basename "$o")
	mkdir -p "$s/out/$n"
	if [ -z "$sample" ]; then
		cp "$o/counts.json" "$o/kwrap.ndjson" "$s/out/$n/"
		continue
	fi
	sh "$k/bench/kernel-order.sh" "$o/kwrap.ndjson" |
	    head -n "$sample" > "$s/out/$n/kwrap.ndjson"
	jq -c --argjson n "$(wc -l < "$s/out/$n/kwrap.ndjson")" \
	    '.slices_all = .slices | .slices = $n' "$o/counts.json" \
	    > "$s/out/$n/counts.json"
done
tar cJf "$dest/funnel.tar.xz" -C "$s" .
echo "funnel-pack: $dest/funnel.tar.xz ($(du -h "$dest/funnel.tar.xz" | cut -f1)):" \
    "$(ls "$s/out" | tr '\n' ' ')"
