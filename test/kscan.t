#!/bin/sh
# kscan on the example project, on bad input, and on the shapes of code
# real projects have.
. "$(dirname "$0")/lib.sh"

have_tool kscan || skip_all "kscan not built"
KSCAN=$(tool kscan)
D=$T_TMP
# a parse cache of this file's own (test/pcache.t tests the cache)
export KFORGE_WORK=$D/work

# --- the example project: the saved intermediate later stages test on
run "$KSCAN" --root . examples/src
is "$T_STATUS" 0 "examples: exit 0"
is_file "$T_TMP/out" examples/kscan.ndjson "examples: output equals examples/kscan.ndjson"
cp "$T_TMP/out" "$D/ex.ndjson"
is "$(wc -l < "$D/ex.ndjson" | tr -d ' ')" 18 "examples: 18 kernels (examples/src/KERNELS.md)"
run test/validate "$D/ex.ndjson"
ok "$T_STATUS" "examples: records validate against schemas/"

q() { jq -r "$1" "$D/ex.ndjson"; }
is "$(q 'select(.scan.name=="relu_kernel") | .scan.macro.name')" \
    DEFINE_UNARY_KERNEL "macro-generated kernel names its macro"
is "$(q 'select(.scan.name=="relu_kernel") | .scan.text')" \
    "DEFINE_UNARY_KERNEL(relu, x > 0.0f ? x : 0.0f)" "macro-generated kernel's text is the invocation"
is "$(q 'select(.id=="examples/src/elementwise.cu::fill_kernel<int>") | .scan.specialization_of != null')" \
    true "explicit specialization is its own record"
is "$(q 'select(.scan.name=="causal_mask_kernel") | .scan.qualified_name')" \
    kf::detail::causal_mask_kernel "namespaced kernel is qualified"
is "$(q 'select(.scan.name=="count_nonfinite_kernel") | .scan.device_only')" \
    true "kernel behind #ifdef __CUDA_ARCH__ is found on the device side"
is "$(q 'select(.scan.name=="softmax_rows_kernel") | [.scan.file, (.scan.launches | length)] | join(" ")')" \
    "examples/src/kernels/softmax_kernels.cuh 3" \
    "header kernel reported once, with launches from both including files"
is "$(q 'select(.scan.name=="softmax_rows_kernel") | .scan.attributes[0] | "\(.name)(\(.args[0]))"')" \
    "launch_bounds(KF_BLOCK_THREADS)" "launch bounds with their expression"
is "$(q 'select(.scan.name=="scale_kernel") | .scan.launches[0] | [.kernel, .grid, .block, .shared_mem, .stream, (.args | join(","))] | join(";")')" \
    "scale_kernel<T>;blocks;threads;0;stream;x,y,alpha,n" \
    "launch in a function template: every expression as spelled"
is "$(q 'select(.scan.name=="softmax_rows_kernel") | .scan.launches[0].shared_mem')" \
    "threads * sizeof(float)" "dynamic shared memory expression"
is "$(q 'select(.scan.name=="conv1d_kernel") | .scan.launches[0] | [.kind, .grid, .block, .shared_mem] | join(" ")')" \
    "cudaLaunchKernel grid block 0" "cudaLaunchKernel launch site"
is "$(q 'select(.scan.name=="scale_add_kernel") | .scan.launches[0] | [.kind, .template_args[0], .grid] | join(" ")')" \
    "hipLaunchKernelGGL float dim3(blocks)" "hipLaunchKernelGGL with HIP_KERNEL_NAME"
is "$(q 'select(.scan.file | endswith(".hip")) | .scan.dialect' | sort -u)" hip "HIP file's kernels are hip"
is "$(q 'select(.scan.name=="axpby_kernel") | .scan.params[0] | [.type, .pointer_depth] | join(" ")')" \
    "AxpbyParams 0" "struct parameter by value"
is "$(q 'select(.scan.name=="scale_kernel") | .scan.params[0] | [.pointee_type, .const, .restrict, .template_dependent] | join(" ")')" \
    "const T true true true" "pointer parameter facts"
is "$(jq -s '[.[].scan.diagnostics.errors] | add' "$D/ex.ndjson")" 0 "examples parse without errors"

# --- parallel parsing gives the same bytes
run "$KSCAN" --root . -j 2 examples/src
is_file "$T_TMP/out" "$D/ex.ndjson" "-j 2 output equals -j 1"

# --- paths on stdin
find examples/src -name '*.cu' -o -name '*.cuh' -o -name '*.hip' | sort |
    "$KSCAN" -I examples/src > "$D/stdin.ndjson"
is "$(jq -r .id "$D/stdin.ndjson" | sort | tr '\n' ' ')" \
    "$(jq -r .id "$D/ex.ndjson" | sort | tr '\n' ' ')" "paths on stdin: same kernels"

# --- compile_commands.json
mkdir -p "$D/build"
for f in attention conv1d elementwise reduce softmax; do
	printf '{"directory":"%s","file":"examples/src/%s.cu","command":"nvcc -Iexamples/src -DKF_TEST=1 -arch=sm_90 --expt-relaxed-constexpr -c examples/src/%s.cu -o %s.o"}\n' \
	    "$T_ROOT" "$f" "$f" "$f"
done | jq -s . > "$D/build/compile_commands.json"
run "$KSCAN" -p "$D/build"
is "$T_STATUS" 0 "-p: exit 0"
is "$(jq -r .id "$T_TMP/out" | wc -l | tr -d ' ')" 16 "-p: the five units' 16 CUDA kernels"
is "$(jq -r '.scan.flags | join(" ")' "$T_TMP/out" | sort -u)" \
    "-I examples/src -D KF_TEST=1" "-p: include paths and macros kept (relative to the root), nvcc options dropped"
is "$(jq -r '.scan.build_flags | join(" ")' "$T_TMP/out" | sort -u)" \
    "-DKF_TEST=1 --expt-relaxed-constexpr" "-p: the nvcc flags that change device code kept for slice.flags"
# CMake's CUDA rules: include paths and macros in a response file
mkdir -p "$D/cmake/CMakeFiles/k.dir"
printf -- '-I%s/examples/src "-DKF_NAME=\\"a b\\""\n' "$T_ROOT" \
    > "$D/cmake/CMakeFiles/k.dir/includes_CUDA.rsp"
printf '[{"directory":"%s","file":"%s/examples/src/conv1d.cu","command":"nvcc --options-file CMakeFiles/k.dir/includes_CUDA.rsp -O3 --use_fast_math -x cu -c %s/examples/src/conv1d.cu -o conv1d.o"}]\n' \
    "$D/cmake" "$T_ROOT" "$T_ROOT" > "$D/cmake/compile_commands.json"
run "$KSCAN" -p "$D/cmake"
is "$(jq -c '[.scan.flags, .scan.build_flags]' "$T_TMP/out" | sort -u)" \
    "[[\"-I\",\"examples/src\",\"-D\",\"KF_NAME=\\\"a b\\\"\"],[\"-DKF_NAME=\\\"a b\\\"\",\"--use_fast_math\"]]" \
    "-p: --options-file response files read, for the parser and for slice.flags"

# --- shapes of real code
mkdir -p "$D/p/inc" "$D/p/only"
cat > "$D/p/a.cu" <<'CU'
#include "missing/never_there.h"
#include "deep/helpers.cuh"
#define KERNEL_FOR(T) __global__ void add_##T(T *x, int n) { if (threadIdx.x < n) x[threadIdx.x] += helper(T(1)); }
KERNEL_FOR(float)
KERNEL_FOR(int)
template <typename T, int N> __global__ void tk(T *x) { x[N] = 0; }
template <> __global__ void tk<double, 4>(double *x) { x[0] = 1; }
void go(float *x, int n, cudaStream_t s) {
  add_float<<<1, n, 0, s>>>(x, n);
  tk<float, 8><<<dim3(1, 2), 32>>>(x);
}
CU
mkdir -p "$D/p/inc/deep"
printf 'template <typename T> __device__ T helper(T v) { return v; }\n' > "$D/p/inc/deep/helpers.cuh"
printf '__global__ void lonely(float *y) { y[0] = 1; }\n' > "$D/p/only/orphan.cuh"
run "$KSCAN" --root "$D/p" "$D/p"
is "$T_STATUS" 0 "project with a missing header: exit 0"
is "$(jq -r .id "$T_TMP/out" | tr '\n' ' ')" \
    "a.cu::add_float a.cu::add_int a.cu::tk a.cu::tk<double, 4> only/orphan.cuh::lonely " \
    "macro kernels, template, specialization and a header nothing includes"
is "$(jq -r 'select(.scan.name=="add_float") | .scan.diagnostics.messages[0]' "$T_TMP/out")" \
    "a.cu:1:10: 'missing/never_there.h' file not found" "missing header is a diagnostic, not a stop"
is "$(jq -r 'select(.scan.name=="add_float") | .scan.diagnostics.errors' "$T_TMP/out")" 1 \
    "include found under the scanned tree resolves (only the missing one errs)"
is "$(jq -r 'select(.id=="a.cu::tk") | .scan.launches[0] | [.grid, .block, (.template_args | join(","))] | join(";")' "$T_TMP/out")" \
    "dim3(1, 2);32;float,8" "launch of a template instantiation belongs to the template"
is "$(jq -r 'select(.id=="a.cu::tk<double, 4>") | .scan.launches | length' "$T_TMP/out")" 0 \
    "specialization gets no launches of other instantiations"

# --- a PyTorch extension without PyTorch: launches inside dispatch lambdas
cat > "$D/ext.cu" <<'CU'
#include <torch/extension.h>
template <typename T> __global__ void kk(const T *x, T *y, int n) { if (threadIdx.x < n) y[threadIdx.x] = x[threadIdx.x]; }
void launch(at::Tensor in, at::Tensor out) {
  int n = in.numel();
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  at::Tensor t = at::zeros({n, 4}, in.options().dtype(at::kFloat)), e = torch::empty({}, in.options());
  at::Tensor p = in.permute({1, 0}).contiguous().view({-1}).sum({0}, true), q = in.view(-1), r = in.view(in.sizes());
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(in.scalar_type(), "kk", [&] {
    kk<scalar_t><<<(n + 255) / 256, 256, 0, stream>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
}
CU
run "$KSCAN" --root "$D" "$D/ext.cu"
is "$(jq -r '[.scan.diagnostics.errors, (.scan.launches[0] | .function, .grid, (.template_args | join(",")), (.args | join(",")))] | join(";")' "$T_TMP/out")" \
    "0;launch;(n + 255) / 256;scalar_t;in.data_ptr<scalar_t>(),out.data_ptr<scalar_t>(),n" \
    "launch inside AT_DISPATCH lambda found without PyTorch installed; sizes as braced lists parse"
is "$(jq -c '.scan.launches[0].resolved | [.grid, .args[2]]' "$T_TMP/out")" \
    '["((in.numel()) + 255) / 256","in.numel()"]' \
    "resolved: a local of the enclosing function read inside the lambda"

# --- launches spelled inside the project's macros (dispatch macros): each
# launch of an invocation found, with the template arguments the
# expansion spells (nested macros, arguments passed on, ## pasting); a
# kernel gets only its own launches
cat > "$D/mlaunch.cu" <<'CU'
template <typename T, int N, int A>
__global__ void km(T *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n && N > 0) x[i] *= (T)A; }
__global__ void kp4(float *x) { x[threadIdx.x] = 4; }
__global__ void kother(float *x) { x[0] = 0; }
#define LAUNCH(NN, AA) km<T, NN, AA><<<(n + 255) / 256, 256>>>(x, n)
#define FOR_A(AA) \
	if (w == 4) { LAUNCH(4, AA); } else if (w == 8) { LAUNCH(8, AA); }
#define PASTE(N) kp##N<<<1, N>>>((float *)x); kother<<<1, 1>>>((float *)x)
template <typename T>
void launch(T *x, int n, int w, int a)
{
	if (a == 2) { FOR_A(2); } else { FOR_A(16); }
	PASTE(4);
}
template void launch<float>(float *, int, int, int);
CU
run "$KSCAN" --root "$D" "$D/mlaunch.cu"
is "$(jq -r 'select(.scan.name == "km") | [.scan.launches[] | .template_args | join(",")] | join(" ")' "$T_TMP/out")" \
    "T,4,2 T,8,2 T,4,16 T,8,16" "launches inside nested macros: one each, values as expanded"
is "$(jq -r 'select(.scan.name == "km") | .scan.launches[0] | [.kernel, .grid, .block, (.args | join(",")), .line, .function] | map(tostring) | join(";")' "$T_TMP/out")" \
    "km<T, 4, 2>;(n + 255) / 256;256;x,n;12;launch" "the launch's text is the expansion's, its line the invocation's"
is "$(jq -r 'select(.scan.name == "kp4" or .scan.name == "kother") | "\(.scan.name):\(.scan.launches | length):\(.scan.launches[0].block)"' "$T_TMP/out" | tr '\n' ' ')" \
    "kp4:1:4 kother:1:1 " "## pasting; two kernels of one invocation each get their own launch"
run test/validate "$T_TMP/out"
ok "$T_STATUS" "launches from macros validate against schemas/"

# a macro that expands to 8192 launches, and one that names itself: the
# launches of one invocation stop at 256, the self-reference is not
# expanded again
{
	printf '%s\n' '__global__ void kk(float *x) { x[0] = 1; }' \
	    '#define A0(x) kk<<<1, 1>>>(x); kk<<<1, 1>>>(x)'
	i=1
	while [ $i -le 12 ]; do
		printf '#define A%d(x) A%d(x); A%d(x)\n' $i $((i - 1)) $((i - 1))
		i=$((i + 1))
	done
	printf '%s\n' '#define REC(x) REC(x) kk<<<1, 2>>>(x)' \
	    'void f(float *x) { A12(x); REC(x); }'
} > "$D/bomb.cu"
run "$KSCAN" --root "$D" "$D/bomb.cu"
is "$T_STATUS:$(jq -r '[.scan.launches | length, (map(select(.block == "2")) | length)] | join(" ")' "$T_TMP/out")" \
    "0:257 1" "an expansion's launches bounded; a macro that names itself expanded once"

# --- a launcher's own template parameters in a launch (k<numBits, 2>)
# bound by the calls that give the launcher its arguments, themselves in
# a dispatch macro; an enumeration's value cast to its type; kslice takes
# the bound values as concrete
cat > "$D/bind.cu" <<'CU'
enum class Mode { A, B };
template <int Bits, int N, Mode M>
__global__ void kb(float *x) { x[threadIdx.x] = Bits * N + (M == Mode::B); }
#define LAUNCH_KB(NN) kb<numBits, NN, mode><<<1, 32>>>(x)
template <int numBits, Mode mode>
void launch_impl(float *x, int n)
{
	if (n == 2) LAUNCH_KB(2); else LAUNCH_KB(4);
}
#define DISPATCH(B, M) launch_impl<B, M>(x, n)
void launch(float *x, int n, int bits, bool b)
{
	if (bits == 4) { if (b) DISPATCH(4, Mode::B); else DISPATCH(4, Mode::A); }
	else DISPATCH(8, Mode::A);
}
template <int U> __global__ void kn(float *x) { x[0] = U; }
template <int U> void never_called(float *x) { kn<U><<<1, 1>>>(x); }
CU
run "$KSCAN" --root "$D" "$D/bind.cu"
is "$(jq -r 'select(.scan.name == "kb") | [.scan.launches[] | .template_args | join(",")] | join(" ")' "$T_TMP/out")" \
    "4,2,(Mode)1 4,2,(Mode)0 8,2,(Mode)0 4,4,(Mode)1 4,4,(Mode)0 8,4,(Mode)0" \
    "a launcher's parameters bound from its calls: one launch each"
is "$(jq -r 'select(.scan.name == "kn") | [.scan.launches[] | .template_args | join(",")] | join(" ")' "$T_TMP/out")" \
    "U" "a launcher nothing calls: its launch as spelled"
is "$(jq -c 'select(.scan.name == "kb") | [.scan.launches[] | keys[] | select(startswith("_"))] | length' "$T_TMP/out")" 0 \
    "no internal field left in the output"
is "$(jq -c 'select(.scan.name == "kb")' "$T_TMP/out" | (cd "$D" && "$(tool kslice)" -q 2> /dev/null) | jq -r '[.id, (.slice.guessed // [] | length)] | @tsv' | head -2 | tr '\t\n' ': ')" \
    "bind.cu::kb<4, 2, (Mode)1>:0 bind.cu::kb<4, 2, (Mode)0>:0 " \
    "kslice takes the bound values, the enumeration's included, as given: nothing guessed"

# --- a launcher's template template parameter (an epilogue policy) bound
# by a call as the call spells the class template; a launcher's type
# parameter: the types its calls give it in call_types, the argument as
# spelled (types follow kslice --types)
cat > "$D/policy.cu" <<'CU'
template <typename T> struct Twice { __device__ T operator()(T v) const { return 2 * v; } };
template <typename T, template <typename> class Op>
__global__ void kp(T *x) { x[threadIdx.x] = Op<T>()(x[threadIdx.x]); }
template <typename T, template <typename> class Op>
void launch_policy(T *x) { kp<T, Op><<<1, 32>>>(x); }
void run_policy(float *x, double *y)
{
	launch_policy<float, Twice>(x);
	launch_policy<double, Twice>(y);
}
CU
run "$KSCAN" --root "$D" "$D/policy.cu"
is "$(jq -c 'select(.scan.name == "kp") | [.scan.launches[] | [.template_args, .call_types]]' "$T_TMP/out")" \
    '[[["T","Twice"],[["float","double"],null]]]' \
    "a template template argument bound from the calls; the calls' types in call_types"

# --- launches through a function-pointer variable: one per kernel it is
# set from, in its declaration or an assignment, each with its kernel
# text and template arguments
run "$KSCAN" --root test/kslice/alone test/kslice/alone/kernel_pointer.cu
is "$(jq -c '[.scan.name, [.scan.launches[] | [.kernel, (.template_args | join(","))]]]' "$T_TMP/out" | tr '\n' ' ')" \
    '["tiled_kernel",[["tiled_kernel<float, 2, true>","float,2,true"],["tiled_kernel<float, 4, true>","float,4,true"],["tiled_kernel<float, 1, false>","float,1,false"]]] ["fill_kernel",[["fill_kernel<double>","double"]]] ' \
    "launches through a function-pointer variable: one per kernel it is set from"

# --- a launch argument that names a local type alias of its launcher,
# built from the launcher's type and value parameters: the aliased type
# as written (its comment left out), both kinds bound from each call
run "$KSCAN" --root test/kslice/alone test/kslice/alone/traits_alias.cu
is "$(jq -c '[.scan.launches[] | .template_args[0]]' "$T_TMP/out")" \
    '["Traits<float, float, 768, 4>","Traits<double, float, 1024, 4>"]' \
    "a launcher's local alias: expanded, its type and value parameters bound from the calls"

# --- launch values resolved to the launcher's parameters (test/bounds/launch.cu)
run "$KSCAN" test/bounds/launch.cu
is "$(jq -sc '[.[].scan.launches[].resolved | [.grid, .block, .shared_mem]]' "$T_TMP/out")" \
    '[["min(((((rows * cols)) + 512 - 1) / 512), 65535)","512",null],["dim3((((cols + 32 - 1) / 32)), (((rows + 8 - 1) / 8)), 1)","dim3(32, 8, 1)",null],["(n + 128 - 1) / 128","dim3(128, 1, 1)","128 * sizeof(float)"],["1","dim3(256, 1, 1)",null],["1","dim3(16, 1, 1)",null]]' \
    "resolved: a helper's locals and default argument, dim3 locals of a macro, constexpr and enum, a local's one later assignment and a dim3's .x, a switch's case"
is "$(jq -sc '[.[].scan.launches[].resolved.args[2]]' "$T_TMP/out")" \
    '["rows * cols","rows","n","n","n"]' "resolved: an argument that is a local is its initializer"
# the conditions a launch runs under (test/sizes/dispatch.cu): the if
# whose then-branch holds it and the checks before it; an else adds none
run "$KSCAN" --root . test/sizes/dispatch.cu
is "$(jq -sc '[.[].scan.launches[] | [.kernel, .conditions]]' "$T_TMP/out")" \
    '[["tile_rows",["x.dim() == 2","cols % 32 == 0 && rows >= 4"]],["each_elem",["x.dim() == 2"]],["each_scaled",["x.dim() == 2","!quiet"]],["tap_gather",["chans % 32 == 0"]],["tap_gather_any",[]],["one_group",["groups == 1 and eps == 0.0f"]],["mode_square",["mode == 2"]],["row_sums",["x.dim() == 2"]],["row_cached",["cols <= 1024"]],["tile_pairs",["1024 % len == 0"]],["col_tiles",[]],["tail_block",[]],["head_rows",[]]]' \
    "conditions: a TORCH_CHECK before the launch, the if holding it (braced or not), nothing from an else or from a check in another function"
is "$(jq -sc '[.[].scan.launches[0].resolved.conditions[1]]' "$T_TMP/out")" \
    '["(x.size(1)) % 32 == 0 && rows >= 4",null,"! quiet",null,null,null,null,null,null,null,null,null,null]' \
    "resolved.conditions: the launcher's locals followed as in the arguments"
cat > "$D/emptyif.cu" <<'CU'
__global__ void ke(float *y, int n) { int i = threadIdx.x; if (i < n) y[i] = 1; }
void run_ke(float *y, int n) {
  if () ke<<<1, 32>>>(y, n);
  if () { ke<<<1, 32>>>(y, n); }
}
CU
run "$KSCAN" --root "$D" "$D/emptyif.cu"
is "$(jq -c '[.scan.launches[] | .conditions]' "$T_TMP/out")" '[[],[]]' \
    "conditions: an if with nothing between its parentheses adds none (not an empty string)"
cat > "$D/twice.cu" <<'CU'
#define TPB 128
__global__ void kz(float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 0; }
void run(float *y, int n, bool big) {
  int threads = 64;
  if (big) threads = 256;
  dim3 g;
  g.x = (n + TPB - 1) / TPB;
  kz<<<g, threads>>>(y, n);
  dim3 h(not_declared::ceil(n, TPB));
  kz<<<h, 32>>>(y, n);
}
CU
run "$KSCAN" --root "$D" "$D/twice.cu"
is "$(jq -c '.scan.launches[0].resolved | [.grid, .block]' "$T_TMP/out")" \
    '["dim3((n + 128 - 1) / 128, 1, 1)","threads"]' \
    "resolved: a dim3's .x assigned once; a local assigned after its initializer stays as spelled"
is "$(jq -c '.scan.launches[1].resolved.grid' "$T_TMP/out")" \
    '"dim3(not_declared::ceil(n, 128), 1, 1)"' \
    "resolved: a dim3 whose initializer does not parse keeps its text, not 1 x 1 x 1"

# --- kernels taking PyTorch's packed accessors by value (no PyTorch here)
cat > "$D/acc.cu" <<'CU'
#include <torch/extension.h>
template <typename scalar_t>
__global__ void acc32(const at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> x,
    at::PackedTensorAccessor32<scalar_t, 1, at::RestrictPtrTraits> y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < x.size(0)) { scalar_t s = 0; for (int j = 0; j < x.size(1); j++) s += x[i][j]; y[i] = s; }
}
__global__ void acc64(torch::PackedTensorAccessor64<int64_t, 3> v, at::PackedTensorAccessor<float, 1> w,
    at::GenericPackedTensorAccessor<int, 2, at::DefaultPtrTraits, int> g) {
  w[0] = v[0][1][2] + g[1][0] + v.stride(2);
}
void launch(at::Tensor x, at::Tensor y, at::Tensor v, at::Tensor w, at::Tensor g) {
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "acc32", [&] {
    acc32<scalar_t><<<x.size(0), 1>>>(x.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        y.packed_accessor32<scalar_t, 1, at::RestrictPtrTraits>());
  });
  acc64<<<1, 1>>>(v.packed_accessor64<int64_t, 3>(), w.packed_accessor<float, 1>(),
      g.generic_packed_accessor<int, 2, at::DefaultPtrTraits, int>());
}
CU
run "$KSCAN" --root "$D" "$D/acc.cu"
is "$(jq -r '[.scan.name, .scan.diagnostics.errors, (.scan.launches | length)] | join(":")' "$T_TMP/out" | tr '\n' ' ')" \
    "acc32:0:1 acc64:0:1 " \
    "kernels taking PackedTensorAccessor32/64, PackedTensorAccessor and the generic one parse and are found, with their launches"
is "$(jq -r '.scan.launches[0].args | length' "$T_TMP/out" | tr '\n' ' ')" "2 3 " \
    "a launch's arguments are not split at the commas of a template argument list (x.packed_accessor32<scalar_t, 2, ...>())"
is "$(jq -r '.scan.launches[0].resolved.args | length' "$T_TMP/out" | tr '\n' ' ')" "2 3 " \
    "nor are its resolved arguments (launches[].resolved.args), which kwrap pairs with the kernel's parameters"
cat > "$D/cmpargs.cu" <<'CU'
__global__ void pick(const float *x, float *y, int a, int b) { y[threadIdx.x] = a < b ? x[0] : x[1]; }
void launch(const float *x, float *y, int n, int m) { pick<<<1, 32>>>(x, y, n < m, m > (n)); }
CU
run "$KSCAN" --root "$D" "$D/cmpargs.cu"
is "$(jq -r '.scan.launches[0].args | length' "$T_TMP/out")" 4 \
    "comparisons among a launch's arguments are not a template argument list (n < m, m > (n): a plain name before the <)"

# the binding block an extension ends with parses too (pybind11 through
# torch/extension.h, answered by the stand-in)
cat > "$D/bind.cu" <<'CU'
#include <torch/extension.h>
namespace py = pybind11;
__global__ void fill1(float *x) { x[threadIdx.x] = 1; }
void fill(torch::Tensor t) { fill1<<<1, 32>>>(t.data_ptr<float>()); }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("fill", &fill, "fill with ones", py::arg("t"));
  m.def("fill_", &fill);
}
CU
run "$KSCAN" --root "$D" "$D/bind.cu"
is "$(jq -r '[.scan.name, .scan.diagnostics.errors, (.scan.launches | length)] | join(":")' "$T_TMP/out")" \
    "fill1:0:1" "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) with m.def and py::arg parses"

# the argument checks and indexing helpers extension launchers use
cat > "$D/checks.cu" <<'CU'
#include <ATen/ATen.h>
#include <ATen/core/TensorAccessor.h>
__global__ void twice(const float *x, float *y, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 2 * x[i]; }
at::Tensor twice_cuda(const at::Tensor &x, at::Tensor &y)
{
  at::TensorArg x_t{x, "x", 1}, y_t{y, "y", 2};
  at::CheckedFrom c = "twice_cuda";
  at::checkAllSameGPU(c, {x_t, y_t});
  at::checkAllSameType(c, {x_t, y_t});
  using at::indexing::None;
  using at::indexing::Slice;
  auto tail = y.index({Slice(1, None)});
  at::globalContext().alertNotDeterministic("twice_cuda");
  float most = at::max(x).item<float>() + std::get<0>(at::max(x, 0)).item<float>();
  std::stringstream ss;
  ss << most;
  twice<<<1, 256>>>(x.data_ptr<float>(), tail.data_ptr<float>(), 255);
  return y;
}
CU
run "$KSCAN" --root "$D" "$D/checks.cu"
is "$(jq -r '[.scan.name, .scan.diagnostics.errors, (.scan.launches | length)] | join(":")' "$T_TMP/out")" \
    "twice:0:1" "at::TensorArg, at::checkAllSameGPU, t.index({Slice(1, None)}), at::globalContext(), at::max and ATen/core/TensorAccessor.h parse"

# --- bad input: reported, recorded, the run goes on
printf '\000\001binary' > "$D/bin.cu"
mkdir -p "$D/empty"
run "$KSCAN" "$D/nosuch.cu" "$D/bin.cu" "$D/empty" examples/src/conv1d.cu
is "$T_STATUS" 1 "bad inputs: exit 1"
is "$(jq -r '.errors[0].code // "kernel"' "$T_TMP/out" | tr '\n' ' ')" \
    "unreadable binary no-sources kernel " "one error record per bad input, and the good file's kernel"
like "$(cat "$T_TMP/err")" "^kscan: .*nosuch.cu: .*No such file or directory" "unreadable path on stderr"
like "$(cat "$T_TMP/err")" "bin.cu: binary file, not scanned" "binary file on stderr"
like "$(cat "$T_TMP/err")" "empty: no CUDA or HIP sources found" "empty directory on stderr"
run test/validate "$T_TMP/out"
ok "$T_STATUS" "error records validate"

printf 'this is not C++ at all;\nint broken = ;\n__global__ void survivor(int *p) { *p = 1; }\n' > "$D/garbage.cu"
run "$KSCAN" "$D/garbage.cu"
is "$T_STATUS:$(jq -r .scan.name "$T_TMP/out")" "0:survivor" "a file with parse errors still yields its kernels"

# --- files that crash libclang or keep it busy: that file fails, the run
# goes on (test/hostile/*.cu say how they do it)
H=test/hostile
# under make test-asan the crash must stay a SIGSEGV, not a report
[ -n "${ASAN_OPTIONS:-}" ] && ASAN_OPTIONS=$ASAN_OPTIONS:handle_segv=0
run "$KSCAN" --timeout 10 $H/crash.cu $H/slow.cu examples/src/conv1d.cu
is "$T_STATUS" 1 "crashing and endless files: exit 1"
is "$(jq -r '[.id, .errors[0].code // .scan.name] | join(" ")' "$T_TMP/out")" \
    "$H/crash.cu parse-crashed
$H/slow.cu parse-timeout
examples/src/conv1d.cu::conv1d_kernel conv1d_kernel" \
    "an error record for each, in input order, then the next file's kernel"
is "$(jq -r '.errors[0].message // empty' "$T_TMP/out")" \
    "$H/crash.cu: parse failed: the parsing process was killed by signal 11 (Segmentation fault)
$H/slow.cu: parse failed: no result after 10 s (--timeout)" \
    "the records say what happened"
is "$(cat "$T_TMP/err")" \
    "kscan: $H/crash.cu: parse failed: the parsing process was killed by signal 11 (Segmentation fault)
kscan: $H/slow.cu: parse failed: no result after 10 s (--timeout)" \
    "and so does stderr"
run test/validate "$T_TMP/out"
ok "$T_STATUS" "crash and timeout records validate"
cp "$T_TMP/out" "$D/hostile.ndjson"
t0=$(date +%s)
run "$KSCAN" -j 2 --timeout 10 $H/slow.cu $H/crash.cu examples/src/conv1d.cu \
    $H/slow.cu
t1=$(date +%s)
is "$(jq -r '.id' "$T_TMP/out" | tr '\n' ' ')" \
    "$H/slow.cu $H/crash.cu $H/slow.cu examples/src/conv1d.cu::conv1d_kernel " \
    "-j 2: the same records, in input order"
ok "$([ $((t1 - t0)) -lt 30 ] && echo 0 || echo 1)" \
    "-j 2: each endless file stops at its --timeout, not the default 300 s ($((t1 - t0)) s)"
run "$KSCAN" --timeout soon examples/src
is "$T_STATUS" 2 "bad --timeout is a usage error"

# a parse that allocates past --mem dies alone, and says the limit (not
# in sanitizer builds, where the shadow memory is data: no limit there).
# The limit bounds what the worker allocates beyond the memory it
# inherits, free blocks of its parent included, so the source must need
# far more than 8 MiB: eight thousand functions do.
if [ -z "${ASAN_OPTIONS:-}" ]; then
	{
		echo '__global__ void k(float *x) { x[0] = 1; }'
		i=0
		while [ $i -lt 8000 ]; do
			i=$((i + 1))
			echo "static int f$i(int a) { int b = a * $i; return b + a; }"
		done
	} > "$T_TMP/big.cu"
	run "$KSCAN" --no-cache --mem 8 "$T_TMP/big.cu"
	is "$T_STATUS:$(jq -r '.errors[0].code' "$T_TMP/out")" "1:parse-crashed" \
	    "--mem: a parse past the limit is a parse-crashed record, exit 1"
	like "$(jq -r '.errors[0].message' "$T_TMP/out")" "its memory limit: 8 MiB, --mem" \
	    "--mem: the message names the limit"
else
	skip "--mem: a parse past the limit is a parse-crashed record, exit 1" "ASan build"
	skip "--mem: the message names the limit" "ASan build"
fi
run "$KSCAN" --mem 0 examples/src/elementwise.cu
is "$T_STATUS:$(wc -l < "$T_TMP/out" | tr -d ' ')" "0:7" "--mem 0: no limit"
run "$KSCAN" --mem lots examples/src
is "$T_STATUS" 2 "bad --mem is a usage error"

# kernels in preprocessor branches the parse did not take
run "$KSCAN" test/recall/branches.cu
is "$T_STATUS" 0 "skipped branches: exit 0"
cp "$T_TMP/out" "$D/recall.ndjson"
r() { jq -r "$1" "$D/recall.ndjson"; }
is "$(r '[.scan.name, (.scan.assumed_macros // [] | join("+"))] | join(" ")')" \
"always_kernel 
debug_kernel KF_DEBUG
gpu_kernel KF_GPU+KF_LEVEL
a_kernel KF_A
b_kernel KF_B
c_kernel 
nested_kernel KF_INNER+KF_OUTER
on_kernel 
header_kernel KF_HEADER_KERNELS" \
    "skipped branches: #ifdef, #if defined() &&, each of an #elif chain, nested, in a header"
is "$(r 'select(.scan.name=="nested_kernel") | .scan.flags | join(" ")')" \
    "-D KF_INNER -D KF_OUTER" "skipped branches: the assumed macros end the flags"
is "$(r 'select(.scan.name=="debug_kernel") | .scan.launches | length')" 1 \
    "skipped branches: a launch in the branch is found too"
is "$(r 'select(.scan.name=="off_kernel" or .scan.name=="dead_kernel") | .id')" "" \
    "skipped branches: #else of !defined and #if 0 are not assumed"
run test/validate "$D/recall.ndjson"
ok "$T_STATUS" "skipped branches: records validate against schemas/"
run "$KSCAN" -D KF_DEBUG test/recall/branches.cu
is "$(jq -r 'select(.scan.name=="debug_kernel") | .scan.assumed_macros' "$T_TMP/out")" null \
    "skipped branches: a macro the command line defines is not assumed"

# a file that tests __CUDA_ARCH__ but hides no kernel or launch from the
# host side is parsed once
printf '#ifdef __CUDA_ARCH__\n#define KF_SIDE 1\n#endif\n__global__ void side_kernel(float *x) { x[0] = 0; }\n' \
    > "$D/side.cu"
run "$KSCAN" --no-cache --timing "$D/side.cu"
is "$(jq -r .scan.name "$T_TMP/out"):$(grep -c 'host and device' "$T_TMP/err")" \
    "side_kernel:0" "__CUDA_ARCH__ with nothing behind it: no device-side parse"

# includes that resolve only one directory at a time: the last round's
# parse is still walked
mkdir -p "$D/deep/a/x" "$D/deep/b/y" "$D/deep/c/z"
echo '#include "y/two.h"' > "$D/deep/a/x/one.h"
echo '#include "z/three.h"' > "$D/deep/b/y/two.h"
echo '#define K 1' > "$D/deep/c/z/three.h"
printf '#include "x/one.h"\n__global__ void deep_kernel(float *p) { p[0] = 0; }\n' \
    > "$D/deep/main.cu"
run sh -c "cd '$D/deep' && '$KSCAN' --root . --no-cache ."
is "$(jq -r .id "$T_TMP/out")" main.cu::deep_kernel \
    "a unit whose includes resolve one directory at a time is scanned"
is "$(jq -r '[.scan.diagnostics.errors, (.scan.flags | join(" "))] | join(" ")' "$T_TMP/out")" \
    "0 -I . -I a -I b -I c" \
    "quoted includes resolved before the parse, nested ones too, in the order met"

run "$KSCAN" -j 0 examples/src
is "$T_STATUS" 2 "-j 0 is a usage error"
run "$KSCAN" --prelude auto examples/src/conv1d.cu
is "$T_STATUS" 2 "--prelude is gone: a usage error"

# the CUDA headers: found next to the program (make deps), else named
run "$KSCAN" --cuda-path "$T_TMP/nowhere" examples/src/conv1d.cu
is "$T_STATUS" 2 "--cuda-path naming no toolkit is a usage error"
like "$(cat "$T_TMP/err")" "--cuda-path: .*nowhere: not a CUDA toolkit" \
    "--cuda-path: the message names the directory"
KFORGE_CUDA_PATH=$T_TMP/nowhere run "$KSCAN" examples/src/conv1d.cu
is "$T_STATUS" 2 "KFORGE_CUDA_PATH naming no toolkit is a usage error"
tree=$(cd "$(dirname "$KSCAN")" && pwd)/deps/cuda-12.4
if [ -d "$tree" ]; then
	mkdir -p "$T_TMP/bin"
	cp "$KSCAN" "$T_TMP/bin/kscan"
	run env -u KFORGE_CUDA_PATH "$T_TMP/bin/kscan" examples/src/conv1d.cu
	is "$T_STATUS" 4 "no toolkit next to the program, none named: exit 4"
	like "$(cat "$T_TMP/err")" 'no CUDA headers to parse with: run "make deps"' \
	    "the message says how to get them"
	KFORGE_CUDA_PATH=$tree run "$T_TMP/bin/kscan" examples/src/conv1d.cu
	is "$T_STATUS:$(jq '.scan.diagnostics.errors' "$T_TMP/out")" "0:0" \
	    "KFORGE_CUDA_PATH names the toolkit"
	run env -u KFORGE_CUDA_PATH "$T_TMP/bin/kscan" --cuda-path "$tree" \
	    examples/src/conv1d.cu
	is "$T_STATUS:$(jq '.scan.diagnostics.errors' "$T_TMP/out")" "0:0" \
	    "--cuda-path names the toolkit"
else
	for i in 1 2 3 4; do
		skip "a copied kscan finds no toolkit ($i)" \
		    "no deps/cuda-12.4 next to kscan"
	done
fi

# the toolkit's own headers: what the hand-written prelude lacked
run "$KSCAN" test/cuda/toolkit.cu
is "$T_STATUS:$(jq -s '[.[].scan.diagnostics.errors] | add' "$T_TMP/out")" "0:0" \
    "cub, cooperative groups, bf16/half, the runtime API, a device-side launch, host min, assert, surfaces, placement new parse"
is "$(jq -r -s '[.[].scan.name] | join(" ")' "$T_TMP/out")" \
    "tk_kernel parent_kernel surf_kernel" "the toolkit's own kernels (cub's) are not reported"

# cuRAND: the toolkit's own headers from make deps, not a stand-in (clang's
# CUDA wrapper includes curand_mtgp32_kernel.h in every CUDA parse)
is "$(ls "${KFORGE_CUDA_PATH:-$(cd "$(dirname "$KSCAN")" && pwd)/deps/cuda-12.4}/include/curand_mtgp32_kernel.h" 2>&1 | sed 's,.*/,,')" \
    curand_mtgp32_kernel.h "the parse toolkit tree holds cuRAND's headers"
run "$KSCAN" test/cuda/curand.cu
is "$T_STATUS:$(jq -r -s '[.[] | .scan.name + "=" + (.scan.diagnostics.errors | tostring)] | join(" ")' "$T_TMP/out")" \
    "0:mtgp_kernel=0 philox_kernel=0" \
    "MTGP32, discrete distributions and Philox parse with cuRAND's own headers"

# alignas after __shared__, __device__, __constant__, __managed__ (nvcc's
# order), in the unit and in a header it includes: parsed in clang's order,
# lines and columns of what is around unmoved
run "$KSCAN" test/cuda/alignas.cu
is "$(jq -r '[.scan.name, .scan.line, .scan.end_line, .scan.diagnostics.errors, (.scan.launches | length)] | join(":")' "$T_TMP/out" | tr '\n' ' ')" \
    "staged:10:17:0:1 dynamic_tile:19:22:0:1 " \
    "alignas after a memory-space keyword parses; kernels, extents and launches as written"

# clang's CUDA refuses what nvcc compiles (a __shared__ object with a
# destructor, a kernel template launching itself): set apart from the
# errors; a call no compiler takes stays an error
run "$KSCAN" test/cuda/nvcc_accepts.cu
is "$(jq -r '[.scan.name, .scan.diagnostics.errors, (.scan.diagnostics.nvcc_accepts | length), (.scan.launches | length)] | join(":")' "$T_TMP/out" | tr '\n' ' ')" \
    "staged:0:3:1 split:0:3:2 " \
    "errors nvcc accepts are not counted, kernels and launches found"
like "$(jq -r '.scan.diagnostics.nvcc_accepts | join(";")' "$T_TMP/out" | sed -n 1p)" \
    "nvcc_accepts.cu:15:.*initialization is not supported for __shared__ variables;.*nvcc_accepts.cu:32:3: no matching function for call to 'split'" \
    "each named with its place"
run test/validate "$T_TMP/out"
ok "$T_STATUS" "nvcc_accepts: records validate against schemas/"
cat > "$D/refused.cu" <<'EOF'
__device__ int twice(int x) { return 2 * x; }
template <int N> __global__ void wrong(int *d) { d[0] = twice(d, N); }
template <int N> __global__ void again(int *d) { wrong<N><<<1, 1>>>(d, 1); }
void run(int *d) { again<1><<<1, 1>>>(d); }
EOF
run "$KSCAN" "$D/refused.cu"
is "$(jq -r '[.scan.name, .scan.diagnostics.errors, (.scan.diagnostics.nvcc_accepts // [] | length)] | join(":")' "$T_TMP/out" | tr '\n' ' ')" \
    "wrong:2:0 again:2:0 " \
    "a call refused for another reason (its arguments), a launch with the wrong arguments: still errors"

# HIP: hipcc's own headers; <<<...>>> launches are found
run "$KSCAN" test/hip/chevron.hip
is "$(jq -c '[.scan.dialect, .scan.diagnostics.errors]' "$T_TMP/out" | sort -u)" \
    '["hip",0]' "a HIP chevron source parses with HIP's headers"
is "$(jq -r 'select(.scan.name=="negate_kernel") | .scan.launches[0] | [.kind, .kernel, .grid, .block, .shared_mem, .stream] | join(";")' "$T_TMP/out")" \
    "chevron;negate_kernel;(n + 255) / 256;256;0;stream" \
    "HIP chevron launch: every expression"
is "$(jq -r 'select(.scan.name=="shift_kernel") | .scan.launches[0] | [.kernel, .template_args[0], .grid] | join(";")' "$T_TMP/out")" \
    "shift_kernel<T>;T;dim3((n + 127) / 128)" \
    "HIP chevron launch from a function template"
run "$KSCAN" examples/src/hip/saxpy.hip
is "$(jq -r '[.scan.name, .scan.dialect, .scan.diagnostics.errors, .scan.launches[0].kind] | join(":")' "$T_TMP/out" | tr '\n' ' ')" \
    "saxpy_kernel:hip:0:hipLaunchKernelGGL scale_add_kernel:hip:0:hipLaunchKernelGGL " \
    "a HIP source launching with hipLaunchKernelGGL parses with HIP's headers, launches found"
# --- units are parsed largest first (their own and their project
# headers' text); the records keep the order the units came in
for cache in --no-cache ""; do
	run "$KSCAN" $cache --timing -j1 --root . test/cuda/order
	is "$(sed -n 's/^kscan: \(.*\): parsed in .*/\1/p' "$T_TMP/err" |
	    tr '\n' ' ')" \
	    "test/cuda/order/b_large.cu test/cuda/order/a_small.cu " \
	    "largest unit parsed first ${cache:-(cache)}"
	is "$(jq -r .scan.name "$T_TMP/out" | tr '\n' ' ')" \
	    "small_kernel large_kernel " \
	    "records in the walk's order ${cache:-(cache)}"
done
# --- a kernel named through a variable set from it, and cudaLaunchKernelEx
run "$KSCAN" test/cuda/fnptr.cu
is "$(jq -r '.scan.launches[] | [.kind, .kernel, (.template_args | join(",")), (.args | join(",")), .grid // "-"] | join(";")' "$T_TMP/out")" \
    "$(printf '%s\n' 'cudaLaunchKernel;tile_add<float, 128>;float,128;args;dim3((n + 127) / 128)' \
    'cudaLaunchKernel;tile_add<float, 64>;float,64;;-' \
    'cudaLaunchKernel;tile_add<float, 32>;float,32;;-' \
    'cudaLaunchKernel;plain_copy;;args;dim3(1)' \
    'cudaLaunchKernelEx;ex_scale<256>;256;x,y,2.0f,n;-' \
    'cudaLaunchKernel;ex_scale<32>;32;;-')" \
    "auto k = tile_add<float, 128>; cudaLaunchKernel(k, ...): the initializer is the kernel, with its template arguments; inside a macro, the specialization the AST names; a function pointer likewise; cudaLaunchKernelEx(&cfg, kernel, args...); one macro invocation that launches two kernels gives both launches (cudaLaunchCooperativeKernel too)"
is "$("$KSCAN" test/cuda/fnptr.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null | jq -r '.id' | tr '\n' ' ')" \
    "test/cuda/fnptr.cu::tile_add<float, 128> test/cuda/fnptr.cu::tile_add<float, 64> test/cuda/fnptr.cu::tile_add<float, 32> test/cuda/fnptr.cu::plain_copy test/cuda/fnptr.cu::ex_scale<256> test/cuda/fnptr.cu::ex_scale<32> " \
    "kslice slices the instances those launches name"
run test/validate "$T_TMP/out"
ok "$T_STATUS" "the launches validate against schemas/"

run "$KSCAN" --bogus
is "$T_STATUS" 2 "unknown option is a usage error"
like "$(cat "$T_TMP/err")" "^usage: kscan " "usage on stderr"

# --- no operands with a terminal on standard input: kscan says it waits
# (script(1) gives it a pseudo-terminal; timeout ends the wait)
if command -v script > /dev/null 2>&1; then
	timeout 10 script -qec "$KSCAN" /dev/null < /dev/null > "$T_TMP/tty" 2>&1
	like "$(cat "$T_TMP/tty")" "kscan: reading paths from standard input" \
	    "no operands on a terminal: kscan says it is reading paths from it"
	printf 'examples/src/attention.cu\n' | "$KSCAN" -q > "$T_TMP/out" 2> "$T_TMP/err"
	is "$(grep -c 'reading paths' "$T_TMP/err")" 0 \
	    "paths on a pipe: nothing said"
else
	skip "kscan on a terminal" "no script(1)"
fi

done_testing
