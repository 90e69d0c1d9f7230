#!/bin/sh
# Pack what make test-gpu reads for a GPU machine that takes less than the
# whole work directory: ./kverify and ./kreport, and of the work directory
# that test/gpu/prepare.sh filled the builds (build/), the GPU tests'
# records and libraries (gpu-test/) and the imported rows (import/), not
# the parse cache (pcache/) nor anything else no GPU test reads.  Builds
# are named by their hash under the work directory, so the pack works
# from any checkout of the same tree.
#
#	sh test/gpu/pack.sh DEST
#
# DEST gets gpu-test.tar.xz; in a checkout on the GPU machine, run
#	tar xJf DEST/gpu-test.tar.xz && make test-gpu
# (the files land in ./kverify, ./kreport and ./.kforge).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
dest=${1:?usage: test/gpu/pack.sh DEST}
w=${KFORGE_WORK:-$root/.kforge}
[ -f "$w/gpu-test/built.ndjson" ] && [ -x ./kverify ] && [ -x ./kreport ] ||
    { echo "pack.sh: run make and sh test/gpu/prepare.sh first" >&2; exit 2; }
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
s=$(mktemp -d)
trap 'rm -rf "$s"' EXIT
mkdir -p "$s/.kforge"
cp ./kverify ./kreport "$s/"
for d in build gpu-test import; do
	[ -d "$w/$d" ] && ln -s "$w/$d" "$s/.kforge/$d"
done
# the work directory's own test output is made again there
tar -cJhf "$dest/gpu-test.tar.xz" -C "$s" --exclude=.kforge/gpu-test/out \
    kverify kreport .kforge
echo "pack.sh: $dest/gpu-test.tar.xz ($(du -h "$dest/gpu-test.tar.xz" | cut -f1))"
