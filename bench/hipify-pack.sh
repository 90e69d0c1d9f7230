#!/bin/sh
# Pack the translation loop for a machine with nvcc, an NVIDIA GPU and
# python3 with torch but not this checkout's build: kbuild, kverify and
# the libraries they link other than libc's, bench/hipify-gpu.sh and
# bench/hipify.py, and each OUT's kverify.ndjson with its work directory's
# builds (the CUDA references, so only the translations compile there).
#
#	sh bench/hipify-pack.sh DEST [OUT...]
#
# DEST gets hipify.tar.xz; there, run
#	tar xJf hipify.tar.xz && sh bench/hipify-gpu.sh out/*
# An OUT without kverify.ndjson stands for every directory in it that has
# one (bench/funnel-all.sh's output directory: every corpus).
# Without OUT it packs the tools and scripts only: unpack it where
# bench/funnel-gpu.sh left its OUT directories (a funnel-pack.sh copy:
# this kbuild and kverify replace the packed ones, the CUDA builds stay
# cached) and run the same command there.
set -eu
dest=${1:?usage: bench/hipify-pack.sh DEST [OUT...]}
shift
k=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dest"
s=$(mktemp -d)
trap 'rm -rf "$s"' EXIT
mkdir -p "$s/bench" "$s/lib"
cp "$k/kbuild" "$k/kverify" "$s/"
cp "$k/bench/hipify-gpu.sh" "$k/bench/hipify.py" "$s/bench/"
for t in kbuild kverify; do
	ldd "$k/$t" | awk '/=> \// && !/libc\.so|ld-linux|libm\.so|libpthread/ { print $3 }'
done | sort -u | while read -r lib; do cp -L "$lib" "$s/lib/"; done
# a directory of funnel outputs stands for every one in it
n=$#
for a in "$@"; do
	if [ -d "$a" ] && [ ! -e "$a/kverify.ndjson" ]; then
		for d in "$a"/*/; do
			if [ -f "$d/kverify.ndjson" ]; then
				set -- "$@" "${d%/}"
			fi
		done
	else
		set -- "$@" "$a"
	fi
done
shift "$n"
for o in "$@"; do
	n=$(basename "$o")
	mkdir -p "$s/out/$n"
	[ -s "$o/kverify.ndjson" ] ||
	    { echo "hipify-pack: $o: no kverify.ndjson" >&2; exit 2; }
	cp "$o/kverify.ndjson" "$s/out/$n/"
	[ -d "$o/work/build" ] && mkdir -p "$s/out/$n/work" &&
	    cp -R "$o/work/build" "$s/out/$n/work/"
done
tar cJf "$dest/hipify.tar.xz" -C "$s" .
echo "hipify-pack: $dest/hipify.tar.xz ($(du -h "$dest/hipify.tar.xz" | cut -f1)):" \
    "$(ls "$s/out" 2> /dev/null | tr '\n' ' ')"
