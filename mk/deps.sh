#!/bin/sh
# Install what kforge builds, tests and parses with; a no-op when it is all
# present.  Used by "make deps".
#
# 1. Debian packages, libclang 19 among them.
# 2. The CUDA 12.4 headers libclang parses CUDA with, from NVIDIA's wheels
#    on PyPI (runtime, nvcc's crt/ and nvvm/libdevice, CCCL's cub, thrust
#    and libcu++, cuRAND), checked against the sha256 sums below and laid out as
#    one toolkit tree (include/, nvvm/, bin/) in deps/cuda-12.4, which git
#    ignores.  The tools find it there or installed under the share
#    directory; nothing is downloaded at run time.
set -eu
cd "$(dirname "$0")/.."

# libomp-19-dev: clang 19's own <omp.h> (in its resource directory), which
# CUDA programs built with nvcc -Xcompiler -fopenmp include and libclang
# does not find in gcc's
pkgs="gcc make pkg-config perl jq unzip
libclang-19-dev llvm-19 clang-19 libomp-19-dev
libjansson-dev libcurl4-openssl-dev libssl-dev libcmocka-dev
hipcc mandoc parallel python3 python3-pip python3-jsonschema chromium
bubblewrap"

missing=
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	echo "deps: installing:$missing" >&2
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	# a fresh machine may have never fetched the package lists
	$sudo apt-get update -qq || true
	# shellcheck disable=SC2086
	$sudo apt-get install -y -qq --no-install-recommends $missing >&2
fi

# ------------------------------------------------------- CUDA header tree

tree=deps/cuda-12.4
stamp=$tree/.kforge-tree
# name==version sha256 of its manylinux x86_64 wheel
wheels="nvidia-cuda-runtime-cu12==12.4.127
64403288fa2136ee8e467cdc9c9427e0434110899d07c779f25b5c068934faa5
nvidia-cuda-nvcc-cu12==12.4.131
e4c9a35435c3b0e36c6397c5696334c9ea6650e524736cbd1c5d345ea099bb04
nvidia-cuda-cccl-cu12==12.4.127.post1
2027fa5fc75fbee703bf24e8275a40a605cf94a3e8fef8a7187897d49b34facb
nvidia-curand-cu12==10.3.5.147
a88f583d4e0bb643c49743469964103aa59f7f708d862c3ddb0fc07f851e3b8b"

# a tree laid out from this very list is kept; another list lays it out anew
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(echo "$wheels" | awk 'NR % 2 == 1')" ] &&
    exit 0

dl=deps/wheels
mkdir -p "$dl"
# shellcheck disable=SC2046
set -- $(echo "$wheels" | awk 'NR % 2 == 1')
echo "deps: downloading the CUDA 12.4 header wheels: $*" >&2
python3 -m pip download -q --no-deps --only-binary=:all: \
    --platform manylinux2014_x86_64 --python-version 3 -d "$dl" "$@" >&2

echo "$wheels" | while read -r spec; read -r sum; do
	name=$(echo "$spec" | sed 's/==.*//; s/-/_/g')
	ver=${spec#*==}
	whl=$(ls "$dl/$name-$ver-"*.whl 2>/dev/null | head -n 1)
	if [ -z "$whl" ]; then
		echo "deps: $spec: no wheel in $dl" >&2
		exit 1
	fi
	got=$(sha256sum "$whl" | cut -d ' ' -f 1)
	if [ "$got" != "$sum" ]; then
		echo "deps: $whl: sha256 $got, expected $sum" >&2
		exit 1
	fi
done

tmp=$tree.tmp
rm -rf "$tmp"
mkdir -p "$tmp/unpack" "$tmp/include" "$tmp/nvvm" "$tmp/bin"
echo "$wheels" | awk 'NR % 2 == 1' | while read -r spec; do
	name=$(echo "$spec" | sed 's/==.*//; s/-/_/g')
	unzip -q -o "$dl/$name-${spec#*==}-"*.whl 'nvidia/*' -d "$tmp/unpack"
done
u=$tmp/unpack/nvidia
# cuRAND's headers too: clang's CUDA wrapper includes
# curand_mtgp32_kernel.h, and kernels use curand_kernel.h
cp -R "$u/cuda_runtime/include/." "$u/cuda_nvcc/include/." \
    "$u/cuda_cccl/include/." "$u/curand/include/." "$tmp/include/"
cp -R "$u/cuda_nvcc/nvvm/libdevice" "$tmp/nvvm/"
rm -f "$tmp/include/__init__.py"
# clang takes a directory for a toolkit when it has include/ and bin/; the
# parser runs no tool from it
echo "CUDA 12.4 headers for parsing (kforge make deps); no tools" \
    > "$tmp/bin/README"
rm -rf "$tmp/unpack"
echo "$wheels" | awk 'NR % 2 == 1' > "$tmp/.kforge-tree"
rm -rf "$tree"
mv "$tmp" "$tree"
echo "deps: CUDA 12.4 headers in $tree" >&2
