#!/bin/sh
# kslice on the saved kscan output of the example project: the saved slices,
# every slice compiled (nvcc for CUDA, hipcc for HIP) with no -I and its
# kernel symbol in the object, bad input as error records, the schemas.
. "$(dirname "$0")/lib.sh"

if ! have_tool kslice; then
	skip_all "kslice is not built"
fi
KSLICE=$(tool kslice)

run "$KSLICE" < examples/kscan.ndjson
is "$T_STATUS" 0 "examples: exit status 0"
is_file "$T_TMP/out" examples/kslice.ndjson "examples: output is examples/kslice.ndjson"
cp "$T_TMP/out" "$T_TMP/slices.ndjson"
is "$(wc -l < "$T_TMP/slices.ndjson" | tr -d ' ')" 19 \
    "examples: 18 kernels give 19 instance records"
is "$(jq -r 'select(.parent) | .id' "$T_TMP/slices.ndjson" | grep -c '>$')" 8 \
    "examples: every template instance has a parent and an instance id"

# one file per slice
mkdir -p "$T_TMP/s"
jq -r '[.slice.dialect, .slice.symbol, .id] | @tsv' "$T_TMP/slices.ndjson" |
    awk '{ print NR "\t" $0 }' > "$T_TMP/index"
n=0
while IFS='	' read -r n dialect sym id; do
	ext=cu
	[ "$dialect" = hip ] && ext=hip
	jq -r "select(.id == \"$id\") | .slice.code" "$T_TMP/slices.ndjson" \
	    > "$T_TMP/s/$n.$ext"
	printf '%s\n' "$sym" > "$T_TMP/s/$n.sym"
	printf '%s\n' "$id" > "$T_TMP/s/$n.id"
done < "$T_TMP/index"

if command -v nvcc > /dev/null 2>&1; then
	for f in "$T_TMP"/s/*.cu; do
		b=${f%.cu}
		id=$(cat "$b.id")
		if nvcc -std=c++17 -c -arch=sm_90 "$f" -o "$b.o" 2> "$b.err"; then
			nm -C "$b.o" | grep -qF "$(cat "$b.sym")("
			ok $? "nvcc: $id compiles and holds its symbol"
		else
			fail "nvcc: $id compiles and holds its symbol"
			diag_file "$b.err"
		fi
	done
else
	skip "nvcc: every CUDA slice compiles" "nvcc is not installed"
fi

if command -v hipcc > /dev/null 2>&1; then
	for f in "$T_TMP"/s/*.hip; do
		b=${f%.hip}
		id=$(cat "$b.id")
		if hipcc --offload-arch=gfx90a -c "$f" -o "$b.o" 2> "$b.err"; then
			nm -C "$b.o" | grep -qF "$(cat "$b.sym")("
			ok $? "hipcc: $id compiles and holds its symbol"
		else
			fail "hipcc: $id compiles and holds its symbol"
			diag_file "$b.err"
		fi
	done
else
	skip "hipcc: the HIP slices compile" "hipcc is not installed"
fi

# slice.writes sees stores inside kernels a macro generates
for k in relu_kernel square_kernel; do
	is "$(jq -c "select(.slice.symbol == \"$k\") | [.slice.writes, .slice.reads]" \
	    "$T_TMP/slices.ndjson")" '[["out"],["in"]]' \
	    "writes: $k (macro-generated) writes out and reads in"
done
is "$(jq -c 'select(.slice.symbol == "scale_kernel<float>") | .slice.writes' \
    "$T_TMP/slices.ndjson")" '["y"]' "writes: an ordinary kernel still writes y"

# a namespace alias the kernel names is taken; a #define only a comment
# names is dropped once the slice is parsed again, the one used is kept
if have_tool kscan; then
	mkdir -p "$T_TMP/alias"
	cat > "$T_TMP/alias/k.cu" <<'EOF'
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define TILE 32
#define ONLY_IN_A_COMMENT 7
__global__ void tile_sum(float *out, const float *in)
{
	cg::thread_block cta = cg::this_thread_block();
	cg::thread_block_tile<TILE> t = cg::tiled_partition<TILE>(cta);
	float v = in[cta.thread_rank()];
	/* ONLY_IN_A_COMMENT */
	v += t.shfl_down(v, 1);
	cg::sync(cta);
	out[cta.thread_rank()] = v;
}
typedef struct { float a; } pair_t;
#ifdef __CUDACC__
__host__ __device__
#endif
inline float twice(float x) { return 2 * x; }
extern "C" __global__ void c_kernel(pair_t *p) { p->a = twice(p->a); }
EOF
	(cd "$T_TMP/alias" && "$(tool kscan)" -q k.cu > scan.ndjson 2> /dev/null)
	(cd "$T_TMP/alias" && "$KSLICE" -q < scan.ndjson > slice.ndjson)
	is "$?" 0 "alias: exit status 0"
	jq -r 'select(.slice.symbol == "tile_sum") | .slice.code' \
	    "$T_TMP/alias/slice.ndjson" > "$T_TMP/alias/s.cu"
	grep -qx 'namespace cg = cooperative_groups;' "$T_TMP/alias/s.cu"
	ok $? "alias: the slice holds the namespace alias"
	grep -q '^#define TILE 32' "$T_TMP/alias/s.cu"
	ok $? "alias: a #define the kernel expands is kept"
	! grep -q 'define ONLY_IN_A_COMMENT' "$T_TMP/alias/s.cu"
	ok $? "alias: a #define only a comment names is dropped"
	is "$(jq -c 'select(.slice.symbol == "tile_sum") |
	    [.slice.deps[] | select(.kind == "macro") | .name]' \
	    "$T_TMP/alias/slice.ndjson")" '["TILE"]' \
	    "alias: the dropped #define leaves slice.deps"
	# extern "C" kernel: once; typedef'd anonymous struct: once; the
	# #ifdef around a function's __host__ __device__: whole
	jq -r 'select(.slice.symbol == "c_kernel") | .slice.code' \
	    "$T_TMP/alias/slice.ndjson" > "$T_TMP/alias/c.cu"
	is "$(jq -c 'select(.slice.symbol == "c_kernel") | .errors // []' \
	    "$T_TMP/alias/slice.ndjson")" '[]' "extern C: the slice parses"
	is "$(grep -c 'void c_kernel' "$T_TMP/alias/c.cu")" 1 \
	    "extern C: the kernel is emitted once"
	is "$(grep -c 'struct { float a; }' "$T_TMP/alias/c.cu")" 1 \
	    "typedef struct { }: the anonymous struct is emitted once"
	grep -q '^#ifdef __CUDACC__' "$T_TMP/alias/c.cu"
	ok $? "#ifdef: the conditional around __host__ __device__ is whole"
	if command -v nvcc > /dev/null 2>&1; then
		nvcc -std=c++17 -c -arch=sm_90 "$T_TMP/alias/s.cu" \
		    -o "$T_TMP/alias/s.o" 2> "$T_TMP/alias/s.err"
		ok $? "alias: the slice compiles" || diag_file "$T_TMP/alias/s.err"
	else
		skip "alias: the slice compiles" "nvcc is not installed"
	fi
else
	skip "alias: namespace aliases and unused #defines" "kscan is not built"
fi

# bad input: each line gives one record with an error, the run goes on
{
	echo '{"id":"no-scan"}'
	head -n 1 examples/kscan.ndjson |
	    jq -c '.id = "missing-tu" | .scan.tu = "examples/src/missing.cu"'
	echo 'this is not json'
	sed -n 3p examples/kscan.ndjson
} > "$T_TMP/bad.ndjson"
run "$KSLICE" < "$T_TMP/bad.ndjson"
is "$T_STATUS" 1 "bad input: exit status 1"
is "$(wc -l < "$T_TMP/out" | tr -d ' ')" 4 "bad input: lines in = lines out"
is "$(jq -r '.errors[0].code // "none"' "$T_TMP/out" | tr '\n' ' ')" \
    "no-scan cannot-slice invalid-json none " "bad input: error codes"
like "$(jq -r 'select(.id == "missing-tu") | .errors[0].message' "$T_TMP/out")" \
    'missing\.cu' "bad input: the message names the missing file"
is "$(sed -n 4p "$T_TMP/out" | jq -r '.slice.symbol')" conv1d_kernel \
    "bad input: a good record after bad ones is sliced"
like "$(cat "$T_TMP/err")" '^kslice: ' "bad input: messages on stderr"

# records that already carry errors pass through unchanged
sed -n 1p "$T_TMP/out" > "$T_TMP/err1.ndjson"
run "$KSLICE" < "$T_TMP/err1.ndjson"
is_file "$T_TMP/out" "$T_TMP/err1.ndjson" "a record with errors passes through"

# a record whose file crashes libclang or keeps it busy fails alone, and
# the next record is sliced by a new worker (test/hostile/*.cu)
jq -c 'select(.id == "examples/src/conv1d.cu::conv1d_kernel")' \
    examples/kscan.ndjson > "$T_TMP/conv.ndjson"
for k in crash:deep_sum slow:slow_kernel; do
	f=test/hostile/${k%%:*}.cu n=${k#*:}
	jq -c --arg f "$f" --arg n "$n" '.id = "\($f)::\($n)" |
	    .scan.file = $f | .scan.tu = $f | .scan.name = $n |
	    .scan.qualified_name = $n | .scan.usr = "c:@F@\($n)#*I#"' \
	    "$T_TMP/conv.ndjson"
done > "$T_TMP/hostile.ndjson"
cat "$T_TMP/conv.ndjson" >> "$T_TMP/hostile.ndjson"
# under make test-asan the crash must stay a SIGSEGV, not a report
[ -n "${ASAN_OPTIONS:-}" ] && ASAN_OPTIONS=$ASAN_OPTIONS:handle_segv=0
run "$KSLICE" --timeout 10 "$T_TMP/hostile.ndjson"
is "$T_STATUS" 1 "crashing and endless records: exit 1"
is "$(jq -r '[.id, .errors[0].code // "sliced"] | join(" ")' "$T_TMP/out")" \
    "test/hostile/crash.cu::deep_sum slice-crashed
test/hostile/slow.cu::slow_kernel slice-timeout
examples/src/conv1d.cu::conv1d_kernel sliced" \
    "lines in = lines out: two error records, then the next record sliced"
is "$(jq -r '.errors[0].message // empty' "$T_TMP/out")" \
    "test/hostile/crash.cu::deep_sum: parse failed: the slicing process was killed by signal 11 (Segmentation fault)
test/hostile/slow.cu::slow_kernel: parse failed: no result after 10 s (--timeout)" \
    "the records say what happened"
like "$(cat "$T_TMP/err")" "^kslice: [^ ]*/hostile.ndjson:1: test/hostile/crash.cu::deep_sum: parse failed: the slicing process was killed by signal 11" \
    "the crash on stderr, with its input line"
like "$(cat "$T_TMP/err")" "kslice: [^ ]*/hostile.ndjson:2: test/hostile/slow.cu::slow_kernel: parse failed: no result after 10 s" \
    "the timeout on stderr, with its input line"
is "$(sed -n 3p "$T_TMP/out")" "$("$KSLICE" < "$T_TMP/conv.ndjson")" \
    "the record after them is sliced as it is alone"
run "$KSLICE" --timeout -1 < /dev/null
is "$T_STATUS" 2 "bad --timeout: exit status 2"

if [ -z "${ASAN_OPTIONS:-}" ]; then
	"$KSLICE" --mem 8 < "$T_TMP/conv.ndjson" > "$T_TMP/mem.out" 2> /dev/null
	is "$?:$(jq -r '.errors[0].code' "$T_TMP/mem.out")" "1:slice-crashed" \
	    "--mem: a record whose parse needs more is slice-crashed, exit 1"
else
	skip "--mem: a record whose parse needs more is slice-crashed, exit 1" "ASan build (no limit)"
fi
run "$KSLICE" --mem -5 < /dev/null
is "$T_STATUS" 2 "bad --mem: exit status 2"

run "$KSLICE" --types nosuch < /dev/null
is "$T_STATUS" 2 "bad --types: exit status 2"

run "$KSLICE" -h
like "$(cat "$T_TMP/out")" '^usage: kslice ' "-h prints the usage line"

if [ -x test/validate ] && python3 -c 'import jsonschema' 2> /dev/null; then
	test/validate "$T_TMP/slices.ndjson" > "$T_TMP/v.out" 2>&1
	ok $? "examples: slices validate against the schemas" || diag_file "$T_TMP/v.out"
else
	skip "slices validate against the schemas" "no validator"
fi

# --- slice.flags: PyTorch's extension flags for a source that includes
# the torch headers, the compile command's when kscan read one, else none
mkdir -p "$T_TMP/torch"
cat > "$T_TMP/torch/ext.cu" <<'CU'
#include <torch/extension.h>
__global__ void twice_kernel(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2 * x[i];
}
CU
printf '__global__ void plain_kernel(float *y) { y[threadIdx.x] = 1; }\n' \
    > "$T_TMP/torch/plain.cu"
(cd "$T_TMP/torch" && "$(tool kscan)" -q . 2> /dev/null) > "$T_TMP/tscan.ndjson"
(cd "$T_TMP/torch" && "$KSLICE" -q) < "$T_TMP/tscan.ndjson" > "$T_TMP/out"
is "$(jq -r '[.scan.name, (.slice.flags | join(" "))] | join(": ")' "$T_TMP/out" | sort | tr '\n' ';')" \
    "plain_kernel: ;twice_kernel: -D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__ -D__CUDA_NO_HALF2_OPERATORS__ --expt-relaxed-constexpr -std=c++17;" \
    "slice.flags: PyTorch's defaults where the torch headers are included, none elsewhere"
# a unit of kernels and launchers that includes no torch header, beside
# the extension's binding file that does: built as part of the extension,
# with its defaults (a constexpr host function called in device code
# needs --expt-relaxed-constexpr)
mkdir -p "$T_TMP/ext"
printf '#include <torch/extension.h>\nvoid bind_clamp();\n' > "$T_TMP/ext/binding.cpp"
cat > "$T_TMP/ext/clamp.cu" <<'CU'
#include <algorithm>
__global__ void clamp_kernel(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = std::max(0.0f, y[i]);
}
void clamp(float *y, int n) { clamp_kernel<<<(n + 127) / 128, 128>>>(y, n); }
CU
(cd "$T_TMP/ext" && "$(tool kscan)" -q clamp.cu 2> /dev/null) > "$T_TMP/escan.ndjson"
(cd "$T_TMP/ext" && "$KSLICE" -q) < "$T_TMP/escan.ndjson" > "$T_TMP/out"
is "$(jq -r '.slice.flags | join(" ")' "$T_TMP/out")" \
    "-D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__ -D__CUDA_NO_HALF2_OPERATORS__ --expt-relaxed-constexpr -std=c++17" \
    "slice.flags: PyTorch's defaults for a unit beside a C++ source that includes torch"
if command -v nvcc > /dev/null 2>&1; then
	"$(tool kbuild)" -q --check < "$T_TMP/out" > "$T_TMP/ebuild.ndjson" 2> /dev/null
	is "$(jq -r '.build.reference.ok' "$T_TMP/ebuild.ndjson")" "true" \
	    "the unit beside the binding file compiles with its slice.flags"
else
	skip "the unit beside the binding file compiles with its slice.flags" "nvcc is not installed"
fi
rm "$T_TMP/ext/binding.cpp"
(cd "$T_TMP/ext" && "$KSLICE" -q) < "$T_TMP/escan.ndjson" > "$T_TMP/out"
is "$(jq -r '.slice.flags | join(" ")' "$T_TMP/out")" "" \
    "slice.flags: none for the same unit alone"
jq -c 'select(.scan.name == "twice_kernel") | .scan.build_flags = ["-DFROM_BUILD", "-I/x", "--expt-extended-lambda"]' \
    "$T_TMP/tscan.ndjson" > "$T_TMP/tscan2.ndjson"
(cd "$T_TMP/torch" && "$KSLICE" -q) < "$T_TMP/tscan2.ndjson" > "$T_TMP/out"
is "$(jq -r '.slice.flags | join(" ")' "$T_TMP/out")" "-DFROM_BUILD --expt-extended-lambda" \
    "slice.flags: the compile command's flags (scan.build_flags) win, only build flags kept"

# --- PyTorch's accumulate and op-math types (at::acc_type in the launcher,
# at::opmath_type in the kernel): both stand-ins define them, so the unit
# parses (at::optional in the launcher too), the launch binds acc_t, and
# the slice compiles
mkdir -p "$T_TMP/acct"
cat > "$T_TMP/acct/acc.cu" <<'CU'
#include <ATen/AccumulateType.h>
#include <ATen/OpMathType.h>
#include <torch/extension.h>
template <typename scalar_t, typename acc_t>
__global__ void row_mean_kernel(const scalar_t *x, scalar_t *y, int rows, int cols)
{
	using opmath_t = at::opmath_type<scalar_t>;
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	acc_t s = 0;
	for (int c = 0; c < cols; c++)
		s += static_cast<opmath_t>(x[r * cols + c]);
	y[r] = static_cast<scalar_t>(s / cols);
}
void row_mean(at::Tensor x, at::Tensor y, int rows, int cols,
    at::optional<at::Tensor> weight)
{
	AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "row_mean", [&] {
		using acc_t = at::acc_type<scalar_t, true>;
		row_mean_kernel<scalar_t, acc_t><<<(rows + 127) / 128, 128>>>(
		    x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), rows, cols);
	});
}
CU
(cd "$T_TMP/acct" && "$(tool kscan)" -q . 2> /dev/null) > "$T_TMP/ascan.ndjson"
is "$(jq -r '.scan.diagnostics.errors' "$T_TMP/ascan.ndjson")" 0 \
    "at::acc_type, at::opmath_type (ATen/AccumulateType.h, ATen/OpMathType.h) and at::optional parse"
(cd "$T_TMP/acct" && "$KSLICE" -q) < "$T_TMP/ascan.ndjson" > "$T_TMP/out"
is "$(jq -c '[.slice.instance, (.errors // [] | length)]' "$T_TMP/out" | sort -u | tr '\n' ' ')" \
    '[{"scalar_t":"float","acc_t":"float"},0] ' \
    "the launch's acc_type<float, true> binds acc_t to float; no error"
if command -v nvcc > /dev/null 2>&1; then
	jq -r 'select(.slice.instance.scalar_t == "float") | .slice.code' "$T_TMP/out" > "$T_TMP/acct/s.cu"
	# shellcheck disable=SC2046
	nvcc $(jq -r 'select(.slice.instance.scalar_t == "float") | .slice.flags | join(" ")' "$T_TMP/out") \
	    -c -arch=sm_90 "$T_TMP/acct/s.cu" -o "$T_TMP/acct/s.o" 2> "$T_TMP/acct/err"
	ok $? "the slice compiles with its flags (the stub's opmath_type)"
else
	skip "the acc_type slice compiles" "nvcc is not installed"
fi

# --- template arguments that are the launcher's locals under a dispatch
# macro (const int ILP = 16 / sizeof(scalar_t); using label_t =
# int64_t;): kscan resolves them as the parse binds the dispatch's type
# (float), and kslice takes them for the float instance only
mkdir -p "$T_TMP/ilp"
cat > "$T_TMP/ilp/ilp.cu" <<'CU'
#include <torch/extension.h>
template <int ILP, typename scalar_t, typename label_t>
__global__ void ilp_kernel(scalar_t *y, const scalar_t *x, const label_t *lab,
    int n)
{
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * ILP;
	for (int j = 0; j < ILP; j++)
		if (i + j < n)
			y[i + j] = lab[(i + j) / ILP] == 0 ? x[i + j] : scalar_t(0);
}
void ilp(at::Tensor x, at::Tensor y, at::Tensor lab)
{
	int n = x.numel();
	AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "ilp", [&] {
		const int ILP = 16 / sizeof(scalar_t);
		using label_t = int64_t;
		ilp_kernel<ILP, scalar_t, label_t><<<(n + 511) / 512, 128>>>(
		    y.data_ptr<scalar_t>(), x.data_ptr<scalar_t>(),
		    lab.data_ptr<label_t>(), n);
	});
}
CU
(cd "$T_TMP/ilp" && "$(tool kscan)" -q . 2> /dev/null) > "$T_TMP/iscan.ndjson"
is "$(jq -c '.scan.launches[0] | [.template_args, .resolved.template_args]' "$T_TMP/iscan.ndjson")" \
    '[["ILP","scalar_t","label_t"],["4","scalar_t","long"]]' \
    "kscan: resolved.template_args, the launcher's locals as the parse binds them (scalar_t float), the dispatch's type as spelled"
(cd "$T_TMP/ilp" && "$KSLICE" -q --types float,double) < "$T_TMP/iscan.ndjson" > "$T_TMP/out"
is "$(jq -c '[.slice.instance, .slice.guessed]' "$T_TMP/out" | tr '\n' ' ')" \
    '[{"ILP":"4","scalar_t":"float","label_t":"long"},null] [{"ILP":"1","scalar_t":"double","label_t":"double"},["ILP"]] ' \
    "the float instance takes ILP 4 and label_t long, guessing nothing; the double one guesses as before (the parse computed float's)"

# --- a macro matrix of 64 instances (each row's launches from one
# invocation): kscan keeps every launch, kslice 32 instances that cover
# every value of both parameters, and says so
"$(tool kscan)" -q test/cuda/matrix.cu > "$T_TMP/mscan.ndjson" 2> /dev/null
is "$(jq '.scan.launches | length' "$T_TMP/mscan.ndjson")" 64 \
    "kscan: the 64 launches of 8 invocations, 8 launches each"
"$KSLICE" < "$T_TMP/mscan.ndjson" > "$T_TMP/out" 2> "$T_TMP/err"
is "$?" 0 "a kernel with more instances than kept is no error"
is "$(wc -l < "$T_TMP/out" | tr -d ' ')" 32 "at most 32 instances of one kernel"
is "$(jq -r '.slice.instance.A' "$T_TMP/out" | sort -u | tr '\n' ' ')" \
    "1 2 3 4 5 6 7 8 " "every value of A is among those kept"
is "$(jq -r '.slice.instance.B' "$T_TMP/out" | sort -u | tr '\n' ' ')" \
    "1 2 3 4 5 6 7 8 " "every value of B is among those kept"
like "$(cat "$T_TMP/err")" "mat_kernel: 64 instances from its launches; 32 kept" \
    "the cut is reported"

done_testing
