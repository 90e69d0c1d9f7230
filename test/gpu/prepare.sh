#!/bin/sh
# Prepare the GPU tests on a machine with nvcc (no GPU needed): build every
# example and one relu_kernel candidate per file in test/gpu/*.cu into the
# work directory, and copy the libraries kverify links, so that a GPU
# machine with only the CUDA driver can run test/gpu/run.sh.
#
#	sh test/gpu/prepare.sh		(then carry .kforge and kverify)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
KFORGE_WORK=${KFORGE_WORK:-$root/.kforge}
export KFORGE_WORK
g=$KFORGE_WORK/gpu-test
mkdir -p "$g/lib"
[ -x ./kbuild ] && [ -x ./kverify ] || { echo "prepare.sh: run make first" >&2; exit 2; }
command -v jq > /dev/null || { echo "prepare.sh: needs jq" >&2; exit 2; }

./kbuild -q -j 4 --arch "${ARCH:-sm_90}" < examples/kwrap.ndjson > "$g/built.ndjson"

base=$(jq -c 'select(.id == "examples/src/elementwise.cu::relu_kernel")' \
    examples/kwrap.ndjson)
: > "$g/cands.in"
for f in test/gpu/*.cu; do
	name=$(basename "$f" .cu)
	printf '%s\n' "$base" | jq -c --arg n "$name" --rawfile code "$f" \
	    '.parent = .id | .id = "gpu-test:" + $n |
	     .candidate = {code: $code, dialect: "cuda"}' >> "$g/cands.in"
done
./kbuild -q -j 4 --arch "${ARCH:-sm_90}" < "$g/cands.in" > "$g/cands.ndjson" || true

# the relu example with a CPU reference compiled into its harness: one
# right, one wrong (it forgets the clamp), for kverify's oracle check
good_cpu='void relu_kernel_cpu(const float *in, float *out, int n)
{ for (int i = 0; i < n; i++) out[i] = in[i] > 0 ? in[i] : 0.0f; }'
bad_cpu='void relu_kernel_cpu(const float *in, float *out, int n)
{ for (int i = 0; i < n; i++) out[i] = in[i]; }'
{
	printf '%s\n' "$base" | jq -c --arg c "$good_cpu" '.id = "gpu-test:oracle-good" |
	    .wrap.reference_cpu = {code: $c, language: "c", source: "test"}'
	printf '%s\n' "$base" | jq -c --arg c "$bad_cpu" '.id = "gpu-test:oracle-bad" |
	    .wrap.reference_cpu = {code: $c, language: "c", source: "test"}'
} | ./kwrap -q | ./kbuild -q --arch "${ARCH:-sm_90}" > "$g/oracle.ndjson"

# hostile records, verified apart with a short --timeout: a candidate that
# prints for ever, then one spec whose output buffer (the harness's count
# of out, times 10^10: 4 PB) is more device memory than any GPU has, then
# a good candidate that must still pass after them
{
	printf '%s\n' "$base" | jq -c --rawfile code test/gpu/hostile/printf.cu \
	    '.parent = .id | .id = "gpu-test:printf" |
	     .candidate = {code: $code, dialect: "cuda"}'
	printf '%s\n' "$base" | jq -c '.parent = .id | .id = "gpu-test:oom" |
	    .wrap.harness.code |= sub("kw_n\\(kw_n\\(n\\)\\), \"count of out\"";
	        "kw_n(kw_n(n)) * 10000000000LL, \"count of out\"")'
	printf '%s\n' "$base" | jq -c --rawfile code test/gpu/good.cu \
	    '.parent = .id | .id = "gpu-test:after" |
	     .candidate = {code: $code, dialect: "cuda"}'
} > "$g/hostile.in"
grep -q '10000000000LL, \\"count of out' "$g/hostile.in" ||
    { echo "prepare.sh: the oom harness edit did not apply" >&2; exit 2; }
# the oom record's harness is edited by hand: kbuild builds it only when
# told to trust the records
./kbuild -q -j 4 --trust-records --arch "${ARCH:-sm_90}" < "$g/hostile.in" > "$g/hostile.ndjson" || true

# kverify --fit: a kernel of its own (test/gpu/fitsize.cu) under a user
# spec whose counts are wrong (fitsize.spec.ndjson); the GPU must fix them
if [ -x ./kscan ] && [ -x ./kslice ] && [ -x ./kwrap ]; then
	./kscan -q test/gpu/fitsize.cu | ./kslice -q |
	    ./kwrap -q --spec test/gpu/fitsize.spec.ndjson |
	    ./kbuild -q --arch "${ARCH:-sm_90}" > "$g/fit.ndjson"
	grep -q '"harness":{"ok":true' "$g/fit.ndjson" ||
	    { echo "prepare.sh: the fit record did not build" >&2; exit 2; }
fi

# index maps and vector strides (test/fills/indexmap.cu): a map read as
# indices, a divisor that may be 0, a float4 load strided by a scalar;
# each kernel with its own code as the candidate; test/gpu/run.sh checks
# that the reference runs clean on its own test cases
if [ -x ./kwrap ]; then
	./kwrap -q < test/fills/kslice.ndjson 2> /dev/null |
	    jq -c 'select(.id | startswith("test/fills/indexmap.cu::")) |
	    .candidate = {code: .slice.code, dialect: "cuda"}' |
	    ./kbuild -q --arch "${ARCH:-sm_90}" > "$g/indexmap.ndjson" || true
fi

# structs passed by value that hold pointers (test/byvalue/byvalue.cu):
# each pointer member a buffer whose device address the harness puts into
# the struct; test/gpu/run.sh verifies them
if [ -x ./kwrap ]; then
	./kwrap -q < test/byvalue/kslice.ndjson 2> /dev/null |
	    jq -c 'select(.wrap.harness.code != null and
	        any(.wrap.spec.params[]; .member != null))' |
	    ./kbuild -q --arch "${ARCH:-sm_90}" > "$g/byvalue.ndjson" || true
fi

# non-finite cases: the kernels of test/nonfinite/nonfinite.cu that test
# their data for NaN or Inf, each with its own code as the candidate; and
# candidates for the count_nonfinite_kernel example (test/gpu/nonfinite/):
# one right, two wrong only where the data is not finite
if [ -x ./kwrap ]; then
	{
		./kwrap -q < test/nonfinite/kslice.ndjson 2> /dev/null |
		    jq -c 'select(any(.wrap.spec.cases[]; .name == "nonfinite")) |
		    .candidate = {code: .slice.code, dialect: "cuda"}'
		for f in test/gpu/nonfinite/*.cu; do
			jq -c --arg n "$(basename "$f" .cu)" --rawfile code "$f" \
			    'select(.id == "examples/src/reduce.cu::count_nonfinite_kernel") |
			    .parent = .id | .id = "gpu-test:nonfinite-" + $n |
			    .candidate = {code: $code, dialect: "cuda"}' examples/kwrap.ndjson
		done
	} | ./kbuild -q -j 4 --arch "${ARCH:-sm_90}" > "$g/nonfinite.ndjson" || true
fi

# tensor accessors, a vector type, typedefs and pointer members declared
# together passed by value (test/accessor/accessor.cu); and, for a machine
# with PyTorch, checks of the accessor's layout against its real headers
if [ -x ./kwrap ]; then
	./kwrap -q < test/accessor/kslice.ndjson 2> /dev/null |
	    tee "$g/accessor.in" |
	    ./kbuild -q --arch "${ARCH:-sm_90}" > "$g/accessor.ndjson" || true
	rm -rf "$g/accessor-layout"
	sh test/accessor/layout.sh "$g/accessor.in" "$g/accessor-layout"
fi

# HIP examples, their CUDA twins and HIP candidates (test/gpu/hip.sh)
sh test/gpu/hip-prepare.sh
# rows of other benchmarks through kimport (test/gpu/import.sh)
sh test/gpu/import-prepare.sh

# nondeterministic references and the mutation score: a float atomicAdd
# reduction, a race on one element (test/gpu/judge/tailwinner.cu) and
# small kernels of test/mutate/ and test/equiv/ (but its
# near miss loop_assert_over, whose own assert fires) and the vector
# stores of test/sizes/vector.cu (but its near miss) and the launches
# under conditions of test/sizes/dispatch.cu (but tap_gather_any, which
# divides by 0 on cases no condition keeps) and three kernels of offsets
# of test/fills/offsets.cu and the strides of test/sizes/strides.cu, the
# kernels of test/sizes/branches.cu and test/sizes/sharedfit.cu, the
# scatters of test/fills/scatter.cu, the texture objects of
# test/textures/textures.cu (but the two kwrap refuses) and the row
# pitches of test/sizes/pitch.cu, each with its mutants and its own code
# as the candidate (the reference must pass as itself)
if [ -x ./kscan ] && [ -x ./kslice ] && [ -x ./kwrap ]; then
	./kscan test/gpu/judge/binsum.cu test/gpu/judge/bigshared.cu \
	    test/gpu/judge/staleshared.cu test/gpu/judge/partition.cu \
	    test/gpu/judge/tailwinner.cu test/mutate/blocksum.cu \
	    test/mutate/modes.cu test/mutate/guard.cu test/mutate/order.cu \
	    test/mutate/boundary.cu test/mutate/ties.cu \
	    test/mutate/sizeguard.cu test/mutate/decompose.cu \
	    test/equiv/guards.cu \
	    test/equiv/dead.cu test/equiv/barrier.cu \
	    test/sizes/vector.cu test/sizes/dispatch.cu \
	    test/fills/offsets.cu test/sizes/strides.cu \
	    test/sizes/branches.cu test/sizes/sharedfit.cu \
	    test/fills/scatter.cu test/textures/textures.cu \
	    test/sizes/pitch.cu 2> /dev/null |
	    ./kslice 2> /dev/null | ./kwrap -q --mutants 40 |
	    jq -c 'select(.scan.name != "loop_assert_over" and
	    .scan.name != "vec_mixed_kernel" and
	    .scan.name != "tap_gather_any" and
	    .scan.name != "clear_surface" and .scan.name != "two_ways") |
	    select((.scan.file | test("sizeguard") | not) or
	    .scan.name == "pick_rows") |
	    select((.scan.file | test("equiv/dead") | not) or
	    .scan.name == "tile_sum" or .scan.name == "dyn_sum") |
	    select((.scan.file | test("equiv/barrier") | not) or
	    .scan.name == "pick_far" or .scan.name == "tail_sync") |
	    select((.scan.file | test("fills/offsets") | not) or
	    .scan.name == "csr_rows_kernel" or
	    .scan.name == "packed_tokens_kernel" or
	    .scan.name == "segment_of_kernel") |
	    .candidate = {code: .slice.code, dialect: "cuda"}' |
	    ./kbuild -q -j 4 --arch "${ARCH:-sm_90}" > "$g/judge.ndjson" || true
fi

# kverify's and kreport's shared libraries other than libc, for machines
# without them
for t in ./kverify ./kreport; do
	if [ -x "$t" ]; then ldd "$t"; fi
done | awk '/=> \// && !/libc\.so|ld-linux|libm\.so|libpthread/ { print $3 }' |
    sort -u | while read -r lib; do cp -L "$lib" "$g/lib/"; done
echo "prepare.sh: ready in $g ($(wc -l < "$g/built.ndjson") examples," \
    "$(cat "$g/fit.ndjson" 2> /dev/null | wc -l) fit record," \
    "$(wc -l < "$g/hostile.ndjson") hostile records," \
    "$(wc -l < "$g/cands.ndjson") candidates)"
