#!/bin/sh
# HIP on NVIDIA without a GPU: kforge's mapping headers (lib/hipnv/) compile
# the HIP examples, the test kernels and the HIP harness with nvcc; kbuild's
# platforms and its wavefront-width report on small kernels of test/hip/;
# kverify's verify.hip on fake builds.  test/gpu/hip.sh runs them.
. "$(dirname "$0")/lib.sh"

have_tool kbuild || skip_all "kbuild not built"
have_tool kverify || skip_all "kverify not built"
have_tool kscan || skip_all "kscan not built"
have_tool kslice || skip_all "kslice not built"
have_tool kwrap || skip_all "kwrap not built"
command -v jq > /dev/null || skip_all "jq not installed (make deps)"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$NVCC" ] || skip_all "nvcc not installed"
KB=$(tool kbuild)
KV=$(tool kverify)
W=$T_TMP/work
export KFORGE_WORK=$W

# --- the mapping alone, as a user would use it: nvcc -I lib/hipnv
for f in examples/src/hip/saxpy.hip test/hip/chevron.hip test/hip/wave64.hip \
    test/hip/warp32.hip test/hip/portable.hip; do
	"$NVCC" -std=c++17 -x cu -cubin -arch=sm_90 -Ilib/hipnv -o "$T_TMP/m.cubin" \
	    "$f" > "$T_TMP/log" 2>&1
	ok $? "mapping: $f compiles with nvcc" || diag_file "$T_TMP/log"
done
nm "$T_TMP/m.cubin" 2> /dev/null | grep -q ' T _Z12warp_sum_anyPKfPfi$'
ok $? "mapping: the kernel is in the cubin under its mangled name"
# the mask-less warp functions become the _sync forms (PTX shfl.sync and
# vote.sync), the half and bfloat16 headers come through hip_fp16/hip_bf16
cat > "$T_TMP/warp.hip" <<'EOF2'
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>
#include <hip/hip_math_constants.h>
#include <hip/hip_cooperative_groups.h>
#include <hipcub/hipcub.hpp>
__global__ void k(float *x, __half *h, __hip_bfloat16 *b, unsigned long long *m) {
  typedef hipcub::WarpReduce<float> R;
  __shared__ typename R::TempStorage t;
  cooperative_groups::this_thread_block().sync();
  x[1] = R(t).Sum(x[0]) + HIPRT_INF_F;
  HIP_DYNAMIC_SHARED(float, s)
  float v = x[hipThreadIdx_x];
  v += __shfl_down(v, 1) + __shfl_xor(v, 2) + __shfl_up(v, 1) + __shfl(v, 0);
  s[threadIdx.x] = v;
  m[0] = __ballot(v > 0) + __any(v > 1) + __all(v < 2) + __lane_id();
  h[0] = __float2half(v) + __shfl_xor(h[1], 1);
  b[0] = __float2bfloat16(s[0]);
}
EOF2
"$NVCC" -std=c++17 -x cu -ptx -arch=sm_90 -Ilib/hipnv -o "$T_TMP/warp.ptx" \
    "$T_TMP/warp.hip" > "$T_TMP/log" 2>&1
ok $? "mapping: shuffles, votes, lane id, dynamic shared memory, half, bfloat16, math constants, cooperative groups, hipCUB" ||
    diag_file "$T_TMP/log"
# what hipify makes of a cuRAND kernel: hipRAND's device API and HIP's
# vector types header, both through the mapping
cat > "$T_TMP/rand.hip" <<'EOF2'
#include <hip/hip_runtime.h>
#include <hip/hip_vector_types.h>
#include <hiprand/hiprand_kernel.h>
__global__ void dropout(const float4 *x, float4 *y, float p, unsigned long long seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  hiprandStatePhilox4_32_10_t st;
  hiprand_init(seed, i, 0, &st);
  float4 r = hiprand_uniform4(&st);
  if (i < n) {
    float4 v = x[i];
    y[i] = make_float4(r.x > p ? v.x : 0.f, r.y > p ? v.y : 0.f,
        r.z > p ? v.z : 0.f, r.w > p ? v.w + hiprand_normal(&st) : 0.f);
  }
}
EOF2
"$NVCC" -std=c++17 -x cu -cubin -arch=sm_90 -Ilib/hipnv -o "$T_TMP/rand.cubin" \
    "$T_TMP/rand.hip" > "$T_TMP/log" 2>&1
ok $? "mapping: hipRAND's device API (hiprand_kernel.h) and hip_vector_types.h" ||
    diag_file "$T_TMP/log"
nm "$T_TMP/rand.cubin" 2> /dev/null | grep -q ' T _Z7dropoutPK6float4PS_fyi$'
ok $? "mapping: the hipRAND kernel is in the cubin under its mangled name"
is "$(grep -c 'shfl.sync' "$T_TMP/warp.ptx" 2> /dev/null | awk '{ print ($1 >= 5) }')" 1 \
    "mask-less shuffles are shfl.sync"
is "$(grep -c 'vote.sync' "$T_TMP/warp.ptx" 2> /dev/null | awk '{ print ($1 >= 3) }')" 1 \
    "__ballot, __any, __all are vote.sync"
grep -q 'activemask' "$T_TMP/warp.ptx"
ok $? "over the active lanes (activemask), as HIP's mask-less forms are"

# --- a PyTorch extension written for ROCm (test/hip/torchext.hip): torch's
# headers answered by the stand-ins, and a half atomicAdd, which ROCm 5
# lacks; the HIP parse must not see CUDA's headers (their vector types
# clash with HIP's)
mkdir -p "$T_TMP/ext"
cp test/hip/torchext.hip "$T_TMP/ext/"
"$(tool kscan)" -q --root "$T_TMP/ext" "$T_TMP/ext" > "$T_TMP/ext.scan" 2> "$T_TMP/err"
is "$(jq -r '[.scan.dialect, .scan.diagnostics.errors] | join(" ")' "$T_TMP/ext.scan")" \
    "hip 0" "a HIP torch extension parses without errors"
"$(tool kslice)" -q < "$T_TMP/ext.scan" > "$T_TMP/ext.slice" 2> "$T_TMP/err"
is "$(jq -r '.errors // [] | length' "$T_TMP/ext.slice")" 0 \
    "and its slice parses (no slice-does-not-parse)" || diag_file "$T_TMP/ext.slice"
jq -r '.slice.code' "$T_TMP/ext.slice" > "$T_TMP/ext/slice.hip"
if command -v hipcc > /dev/null; then
	(cd "$T_TMP/ext" && hipcc --offload-arch=gfx90a -std=c++17 -w -c \
	    slice.hip -o slice.o) > "$T_TMP/log" 2>&1
	ok $? "the slice compiles with hipcc for AMD (gfx90a)" || diag_file "$T_TMP/log"
else
	skip "hipcc not installed (make deps)" 1
fi
"$(tool kwrap)" -q < "$T_TMP/ext.slice" |
    "$KB" -q --arch sm_90 --hip-platform nvidia > "$T_TMP/ext.built" 2> "$T_TMP/err"
is "$(jq -r '[.build.reference.ok, .build.harness.ok, .build.reference.symbol] | join(" ")' "$T_TMP/ext.built")" \
    "true true _Z19scatter_half_kernelPK6__halfPKiPS_i" \
    "and builds for NVIDIA through the mapping, harness included"

# --- kbuild --hip-platform nvidia: the HIP examples and their harnesses
jq -c 'select(.scan.dialect == "hip")' examples/kwrap.ndjson > "$T_TMP/hip.in"
is "$(wc -l < "$T_TMP/hip.in" | tr -d ' ')" 2 "the examples hold two HIP kernels"
run "$KB" -j 2 --arch sm_90 --hip-platform nvidia < "$T_TMP/hip.in"
is "$T_STATUS" 0 "kbuild --hip-platform nvidia: exit 0"
diag_file "$T_TMP/err"
cp "$T_TMP/out" "$T_TMP/built"
is "$(jq -r '[.build.arch, .build.reference.ok, .build.reference.runnable, .build.reference.platform, .build.reference.file, .build.reference.compiler] | join(" ")' "$T_TMP/built" | sort -u)" \
    "sm_90 true true nvidia-through-hip-mapping module.cubin nvcc" \
    "HIP references: cubins through the mapping, runnable"
is "$(jq -r '.build.reference.symbol' "$T_TMP/built" | tr '\n' ' ')" \
    "_Z12saxpy_kernelifPKfS0_Pf _Z16scale_add_kernelIfEvPKT_S2_PS0_S0_i " \
    "the kernels' mangled names, for the harness to launch"
is "$(jq -r '[.build.harness.ok, .build.harness.runnable, .build.harness.platform] | join(" ")' "$T_TMP/built" | sort -u)" \
    "true true nvidia-through-hip-mapping" "kforge's HIP harness (KW_HIP) compiles with nvcc"
like "$(jq -r '.build.harness.command' "$T_TMP/built" | head -n 1)" \
    '^set -e; nvcc .*-Ihipnv .*-cudart none .*-c -o harness.o harness.hip; .* -o harness harness.o .*-lcuda; .* -shared -o harness.so harness.o .*-lcuda; rm -f harness.o$' \
    "the harness is plain C++ over the driver API, linked as a program and as harness.so"
like "$(jq -r '.build.reference.command' "$T_TMP/built" | head -n 1)" \
    '^nvcc .*-x cu -cubin -arch=sm_90 -Ihipnv -include hip/hip_runtime.h' \
    "the kernel sees the mapping as hipcc's implicit include"
a=$(jq -r '.build.reference.artifact' "$T_TMP/built" | head -n 1)
[ -f "$W/build/$(echo "$a" | cut -c1-2)/$a/hipnv/hip/hip_runtime.h" ]
ok $? "the mapping's headers are kept in the entry"
is "$(jq -r '.build.reference.wavefront.sensitive' "$T_TMP/built" | sort -u)" false \
    "the examples do not depend on the wavefront width"
run test/validate "$T_TMP/built"
ok "$T_STATUS" "output validates against schemas/"
run "$KB" --arch sm_90 --hip-platform nvidia < "$T_TMP/hip.in"
is "$(jq -r '[.build.reference.cached, .build.reference.platform, .build.reference.runnable] | join(" ")' "$T_TMP/out" | sort -u)" \
    "true nvidia-through-hip-mapping true" "a cached entry keeps its platform"

# a HIP candidate of a CUDA reference: both cubins, one CUDA harness
rec=$(jq -c 'select(.id == "examples/src/elementwise.cu::relu_kernel")' examples/kwrap.ndjson)
printf '%s\n' "$rec" | jq -c --rawfile c test/gpu/hip/relu.hip \
    '.candidate = {code: $c, dialect: "hip"}' > "$T_TMP/cand.in"
run "$KB" --check --arch sm_90 --hip-platform nvidia < "$T_TMP/cand.in"
is "$(jq -r '[.build.reference.platform, .build.candidate.platform, .build.candidate.ok, .build.candidate.symbol] | join(" ")' "$T_TMP/out")" \
    "nvidia nvidia-through-hip-mapping true _Z11relu_kernelPKfPfi" \
    "a HIP translation of a CUDA kernel: a cubin with the same symbol"

# --- the AMD path stays: hipcc for gfx targets, compile-checked here
if command -v hipcc > /dev/null && [ ! -e /dev/kfd ]; then
	run "$KB" --check --hip-platform amd < "$T_TMP/hip.in"
	is "$(jq -r '[.build.reference.compiler, .build.reference.platform, .build.reference.file, .build.reference.runnable, .build.reference.note] | join(" ")' "$T_TMP/out" | sort -u)" \
	    "hipcc amd module.hsaco false compile-checked only: AMD targets cannot run here" \
	    "--hip-platform amd: hipcc code objects, not runnable without an AMD GPU"
	like "$(jq -r '.build.arch' "$T_TMP/out" | head -n 1)" '^gfx' "build.arch names the gfx targets"
	is "$(jq -r '.build.reference.symbol' "$T_TMP/out" | tr '\n' ' ')" \
	    "_Z12saxpy_kernelifPKfS0_Pf _Z16scale_add_kernelIfEvPKT_S2_PS0_S0_i " \
	    "the mangled names read from the code object bundle, for HIP's own module loader on AMD"
else
	skip "hipcc not installed, or an AMD GPU is here" 3
fi
run "$KB" --hip-platform intel < /dev/null
is "$T_STATUS:$(cat "$T_TMP/err")" \
    "2:kbuild: --hip-platform: expected amd, nvidia or auto: intel" "a platform kbuild does not know"

# --- the wavefront width: what each test kernel assumes
# kinds FILE: "kind/assumes@line" per reason
kinds() {
	jq -cn --rawfile c "$1" --arg f "$1" \
	    '{id: $f, scan: {name: "k", dialect: "hip"}, slice: {code: $c}}' |
	    "$KB" -q --check --hip-platform nvidia |
	    jq -r '.build.reference.wavefront | [.sensitive] + [.reasons[] | "\(.kind)/\(.assumes)@\(.line)"] | join(" ")'
}
is "$(kinds test/hip/wave64.hip)" \
    "true shuffle-width/64@7 lane-arithmetic/64@10 lane-mask/64@12 lane-id/null@14" \
    "64-lane code: the reduction from offset 32, % 64, a ballot counted in 64 bits, __lane_id"
is "$(kinds test/hip/warp32.hip)" \
    "true warpsize-constant/32@4 shuffle-width/32@9 lane-mask/32@10 lane-arithmetic/32@11" \
    "32-lane code: WARP_SIZE 32, the reduction from 16, 0xffffffff, & 31"
is "$(kinds test/hip/constant.hip)" \
    "true block-size/64@5 warpsize-constant/null@6 shuffle-width/64@9" \
    "a block of one wavefront, warpSize as an array size, a shuffle of width 64"
is "$(kinds test/hip/portable.hip)" "false" \
    "width from warpSize at run time (and 64 only in a comment or a string): nothing"
is "$(kinds test/hip/chevron.hip)" "false" "plain element-wise HIP: nothing"
# only what the kernel reaches: KERNEL names it as scan.name does
reached() {
	jq -cn --rawfile c "$1" --arg f "$1" --arg k "$2" \
	    '{id: $f, scan: {name: $k, dialect: "hip"}, slice: {code: $c}}' |
	    NVCC=/bin/false "$KB" -q --check --hip-platform nvidia |
	    jq -r '.build.reference.wavefront | [.scope, .sensitive] + [.reasons[] | "\(.kind)/\(.assumes)@\(.line)"] | join(" ")'
}
is "$(reached test/hip/helper.hip scale_kernel)" "kernel false" \
    "a helper header's WARP_SIZE 32, mask and & 31 the kernel never reaches: not flagged"
is "$(reached test/hip/reached.hip sum_kernel)" \
    "kernel true warpsize-constant/32@4 shuffle-width/32@9 lane-mask/32@10" \
    "the same helpers reached through two calls and a macro: flagged; the unreached & 63 and 64 are not"
is "$(reached test/hip/helper.hip helpers::scale_kernel)" "kernel false" \
    "a qualified kernel name is found by its last name"
is "$(reached test/hip/warp32.hip no_such_kernel)" \
    "kernels true warpsize-constant/32@4 shuffle-width/32@9 lane-mask/32@10 lane-arithmetic/32@11" \
    "the kernel not found: every __global__ function is a start"
printf '#define WAVE 64\nint lane = threadIdx.x %% 64;\n' > "$T_TMP/nofn.hip"
is "$(reached "$T_TMP/nofn.hip" k)" \
    "unit true warpsize-constant/64@1 lane-arithmetic/64@2" \
    "no function definition: the whole source is looked at"
# a reason on every one of 5000 lines: 32 listed, the rest counted
awk 'BEGIN { print "__global__ void k(int *x) {"; for (i = 0; i < 5000; i++)
    print "  x[__lane_id()] = threadIdx.x % 64;"; print "}" }' > "$T_TMP/many.hip"
jq -cn --rawfile c "$T_TMP/many.hip" '{id: "many", scan: {name: "k", dialect: "hip"},
    slice: {code: $c}}' | NVCC=/bin/false "$KB" -q --check --hip-platform nvidia > "$T_TMP/out"
is "$(jq -r '.build.reference.wavefront | [(.reasons | length), .note] | join(" ")' "$T_TMP/out")" \
    "32 9968 more reasons not listed" "reasons are bounded; the count of the rest is kept"

# --- kverify: verify.hip on fake builds (no GPU: the reference is an AMD
# code object, so nothing runs, or the record names nothing buildable)
mkdir -p "$W"
jq -c '.build.reference.runnable = false | .build.reference.platform = "amd" |
    .build.reference.file = "module.hsaco" |
    .build.reference.wavefront = {sensitive: true, reasons: [{kind: "lane-id",
        assumes: null, line: 3, why: "w", text: "t"}]}' \
    "$T_TMP/built" | head -n 1 > "$T_TMP/v.in"
run "$KV" < "$T_TMP/v.in"
is "$T_STATUS" 0 "kverify on an AMD module here: exit 0 (skipped)"
is "$(jq -c '.verify.hip' "$T_TMP/out")" \
    '{"platform":"amd","judged":false,"wavefront_sensitive":true,"reasons":[{"kind":"lane-id","assumes":null,"line":3,"why":"w","text":"t","role":"reference"}],"transferable":false}' \
    "verify.hip: platform, not judged, wavefront-sensitive with the reasons, not transferable"
run test/validate "$T_TMP/out"
ok "$T_STATUS" "kverify's verify.hip validates against schemas/"
printf '%s\n' "$rec" | jq -c '.build = {reference: {ok: true, runnable: false,
    platform: "nvidia", file: "module.hsaco"}}' > "$T_TMP/v.in"
run "$KV" < "$T_TMP/v.in"
is "$(jq -c '.verify.hip // "none"' "$T_TMP/out")" '"none"' "no verify.hip for a CUDA record"

# a judged HIP candidate: the fake harness of test/kverify.t stands for
# the GPU (module "ref" and "good" compute the same, "far" does not)
CC=${CC:-cc}
if $CC -std=c11 -D_GNU_SOURCE -O1 -o "$T_TMP/fake" test/kverify/fake_harness.c -lm; then
	entry() {
		key=$(printf 'hip:%s:%s' "$1" "$2" | sha256sum | cut -c1-64)
		d=$W/build/$(echo "$key" | cut -c1-2)/$key
		mkdir -p "$d"
		if [ "$1" = harness ]; then cp "$T_TMP/fake" "$d/harness"
		else printf '%s\n' "$2" > "$d/module.cubin"; fi
		echo "$key"
	}
	h=$(entry harness fake) r=$(entry reference ref)
	for c in good far; do
		jq -cn --arg id "hip-$c" --arg h "$h" --arg r "$r" --arg c "$(entry candidate $c)" '
		def unit($key; $file; $sym; $p): {ok: true, compiler: "nvcc",
		    version: "fake", command: "nvcc", seconds: 0, cached: false,
		    artifact: $key, file: $file, symbol: $sym, runnable: true,
		    platform: $p, diagnostics: [], log: "", log_truncated: false,
		    pass_call: true};
		{id: $id, build: {arch: "sm_90",
		    reference: unit($r; "module.cubin"; "_Z4fakev"; "nvidia"),
		    harness: unit($h; "harness"; null; "nvidia"),
		    candidate: (unit($c; "module.cubin"; "_Z4fakev";
		        "nvidia-through-hip-mapping") + {wavefront: {sensitive: true,
		        reasons: [{kind: "lane-arithmetic", assumes: 32, line: 7,
		        why: "w", text: "t"}]}})}}'
	done > "$T_TMP/j.in"
	run "$KV" --no-time --no-memcheck < "$T_TMP/j.in"
	is "$(jq -r '[.id, .verify.pass_exe, (.verify.candidate.reasons // [] | join(","))] | join(" ")' "$T_TMP/out" | tr '\n' ';')" \
	    "hip-good true ;hip-far false mismatch;" \
	    "HIP candidates judged against the CUDA golden: the right one passes, the wrong one mismatches"
	is "$(jq -c '.verify.hip' "$T_TMP/out" | sort -u)" \
	    '{"platform":"nvidia-through-hip-mapping","judged":true,"wavefront_sensitive":true,"reasons":[{"kind":"lane-arithmetic","assumes":32,"line":7,"why":"w","text":"t","role":"candidate"}],"transferable":false}' \
	    "verify.hip of a judged candidate: judged through the mapping, the candidate's reasons, not transferable"
	run test/validate "$T_TMP/out"
	ok "$T_STATUS" "judged records validate against schemas/"
else
	skip "cannot compile the fake harness" 3
fi

done_testing
