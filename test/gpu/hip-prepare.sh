#!/bin/sh
# The HIP part of test/gpu/prepare.sh (run by it; needs nvcc, jq and the
# built tools, no GPU): the HIP examples built through kforge's mapping of
# HIP onto CUDA, each with a CUDA twin (the same slice with CUDA's names,
# the same harness with KW_HIP 0) whose golden outputs must be the same
# bytes, and HIP translations of the CUDA relu example as candidates: one
# right, one wrong, one right but dependent on the warp width.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
KFORGE_WORK=${KFORGE_WORK:-$root/.kforge}
export KFORGE_WORK
g=$KFORGE_WORK/gpu-test
mkdir -p "$g"
arch=${ARCH:-sm_90}

{
	jq -c 'select(.scan.dialect == "hip") | .id = "gpu-test:hip:" + .scan.name' \
	    examples/kwrap.ndjson
	jq -c 'select(.scan.dialect == "hip") | .id = "gpu-test:twin:" + .scan.name |
	    .scan.dialect = "cuda" |
	    .slice.code |= (sub("#include <hip/hip_runtime.h>\n"; "") |
	        gsub("hip(?<w>Block|Thread|Grid)(?<k>Idx|Dim)_(?<d>[xyz])";
	            (.w | ascii_downcase) + .k + "." + .d)) |
	    .wrap.harness.dialect = "cuda" |
	    .wrap.harness.code |= sub("#define KW_HIP 1"; "#define KW_HIP 0")' \
	    examples/kwrap.ndjson
} > "$g/hip.in"
grep -q 'gpu-test:twin:saxpy_kernel' "$g/hip.in" && ! grep -q '"id":"gpu-test:twin[^}]*hipBlockIdx' "$g/hip.in" ||
    { echo "hip-prepare.sh: the CUDA twins did not come out" >&2; exit 2; }
./kbuild -q -j 4 --arch "$arch" --hip-platform nvidia < "$g/hip.in" > "$g/hip-built.ndjson"

base=$(jq -c 'select(.id == "examples/src/elementwise.cu::relu_kernel")' \
    examples/kwrap.ndjson)
for n in relu relu-wrong relu-lanes; do
	printf '%s\n' "$base" | jq -c --arg n "$n" --rawfile code "test/gpu/hip/$n.hip" \
	    '.parent = .id | .id = "gpu-test:hip-" + $n |
	     .candidate = {code: $code, dialect: "hip", source: "test"}'
done > "$g/hip-cands.in"
./kbuild -q -j 4 --arch "$arch" --hip-platform nvidia < "$g/hip-cands.in" \
    > "$g/hip-cands.ndjson"
echo "hip-prepare.sh: $(wc -l < "$g/hip-built.ndjson") HIP examples and twins," \
    "$(wc -l < "$g/hip-cands.ndjson") HIP candidates"
