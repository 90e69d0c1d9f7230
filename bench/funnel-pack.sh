#!/bin/sh
# Pack what the funnel's GPU half needs for a machine that has nvcc,
# compute-sanitizer and a GPU but not this checkout's build: kbuild,
# kverify, kreport and the libraries they link other than libc's, the
# bench/funnel scripts and bench/export-gpu.sh, and each OUT's counts.json
# and kwrap.ndjson (the CPU half's).
#
#	sh bench/funnel-pack.sh DEST OUT...
#
# DEST gets funnel.tar.xz; there, run
#	tar xJf funnel.tar.xz && sh bench/funnel-gpu.sh out/*
# (funnel-gpu.sh finds the tools next to bench/ and lib/ on its own).
set -eu
dest=${1:?usage: bench/funnel-pack.sh DEST OUT...}
shift
k=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dest"
s=$(mktemp -d)
trap 'rm -rf "$s"' EXIT
mkdir -p "$s/bench" "$s/lib" "$s/out"
cp "$k/kbuild" "$k/kverify" "$k/kreport" "$s/"
cp "$k/bench/funnel-gpu.sh" "$k/bench/funnel-table.sh" "$k/bench/export-gpu.sh" "$s/bench/"
for t in kbuild kverify kreport; do
	ldd "$k/$t" | awk '/=> \// && !/libc\.so|ld-linux|libm\.so|libpthread/ { print $3 }'
done | sort -u | while read -r lib; do cp -L "$lib" "$s/lib/"; done
for o in "$@"; do
	n=$(basename "$o")
	mkdir -p "$s/out/$n"
	cp "$o/counts.json" "$o/kwrap.ndjson" "$s/out/$n/"
done
tar cJf "$dest/funnel.tar.xz" -C "$s" .
echo "funnel-pack: $dest/funnel.tar.xz ($(du -h "$dest/funnel.tar.xz" | cut -f1)):" \
    "$(ls "$s/out" | tr '\n' ' ')"
