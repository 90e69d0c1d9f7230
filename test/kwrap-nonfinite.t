#!/bin/sh
# Non-finite cases (test/nonfinite/nonfinite.cu, saved as
# test/nonfinite/kslice.ndjson): a float input whose elements reach a test
# for NaN or Inf (directly, through a local, through a helper, compared
# with itself, __hisnan on half data) gets the case "nonfinite", whose fill
# mixes NaN, +Inf and -Inf into its range; an input no such test reads, a
# test of a scalar and one of a value computed from no input add nothing.
# The fill itself runs on the CPU: the harness compiled with nvcc against
# the toolkit's stub libcuda, with a CPU reference (--oracle needs no
# driver), and kw_fill_buf called on its own for half, bfloat16 and int.
. "$(dirname "$0")/lib.sh"

if ! have_tool kwrap; then
	skip_all "kwrap is not built"
fi
KWRAP=$(tool kwrap)
ID=test/nonfinite/nonfinite.cu

run "$KWRAP" < test/nonfinite/kslice.ndjson
is "$T_STATUS" 0 "nonfinite: exit status 0"
cp "$T_TMP/out" "$T_TMP/n.ndjson"

# the kernels with a nonfinite case, and the buffers it fills
is "$(jq -c '[(.id | sub(".*::"; "")), ([.wrap.spec.cases[] |
    select(.name == "nonfinite") | .fills | keys] | add // [])]' \
    "$T_TMP/n.ndjson" | tr '\n' ' ')" \
    '["count_bad_kernel",["x"]] ["nan_to_zero_kernel",["w","x"]] ["helper_guard_kernel",["x"]] ["self_compare_kernel",["x"]] ["half_nan_kernel",["h"]] ["nan_to_num_kernel",["x"]] ["scale_kernel",[]] ["scalar_test_kernel",[]] ["computed_test_kernel",[]] ' \
    "a test of an element, of a local computed from elements, in a helper, x != x, __hisnan and an inout's give the case; no test, a scalar's and a computed value's give none"
run "$KWRAP" --switch-cases 0 < test/nonfinite/kslice.ndjson
is "$(jq -c '[.wrap.spec.cases[] | select(.name == "nonfinite")]' "$T_TMP/out" |
    sort -u)" '[]' "--switch-cases 0: no nonfinite case either"
is "$(jq -c --arg id "$ID::count_bad_kernel" 'select(.id == $id) |
    .wrap.spec.cases | [length, .[-1].name, .[-1].fills.x,
    (.[-1].scalars == .[0].scalars), (.[-1].seed > ([.[:-1][].seed] | max)),
    ([.[:-1][] | .fills // {} | .[] | select(.kind == "nonfinite")] | length)]' \
    "$T_TMP/n.ndjson")" \
    '[10,"nonfinite",{"kind":"nonfinite","lo":-1,"hi":1,"rate":0.25},true,true,0]' \
    "the case: the first case's scalars, a seed of its own, a quarter non-finite in x's range; every other case stays finite"

# the example of examples/src/reduce.cu: a count of non-finite elements
# whose golden was 0 in every case
is "$(jq -c 'select(.id == "examples/src/reduce.cu::count_nonfinite_kernel") |
    [.wrap.spec.cases[] | select(.fills.in.kind == "nonfinite") | .name]' \
    examples/kwrap.ndjson)" '["nonfinite"]' \
    "examples: count_nonfinite_kernel has the nonfinite case"
is "$(jq -sc '[.[] | select(any(.wrap.spec.cases[]?; .name == "nonfinite")) |
    .id]' examples/kwrap.ndjson)" '["examples/src/reduce.cu::count_nonfinite_kernel"]' \
    "examples: no other example tests its data for finiteness"

# a spec may name the fill (a user's, a model's); kwrap checks it
bad_spec() {
	printf '{"id":"%s","spec":%s}\n' "$ID::count_bad_kernel" "$1" > "$T_TMP/user.ndjson"
	"$KWRAP" --spec "$T_TMP/user.ndjson" < test/nonfinite/kslice.ndjson 2> /dev/null |
	    jq -r --arg id "$ID::count_bad_kernel" 'select(.id == $id) |
	    .errors[0].message // "none" | sub(".*::count_bad_kernel: "; "")'
}
is "$(bad_spec '{"params":[{"name":"count","fill":{"kind":"nonfinite"}}]}')" \
    'params[1].fill: nonfinite for count, which is not a float buffer' \
    "validation: no nonfinite fill for an integer buffer"
is "$(bad_spec '{"params":[{"name":"x","fill":{"kind":"nonfinite","rate":1.5}}]}')" \
    'params[0].fill.rate: not a number in (0, 1]' "validation: a rate is a share"
is "$(bad_spec '{"params":[{"name":"x","fill":{"kind":"nan"}}]}')" \
    "params[0].fill: a fill needs a kind of the spec's vocabulary" \
    "validation: a fill's kind is one of the vocabulary"
is "$(bad_spec '{"params":[{"name":"x","fill":{"kind":"nonfinite","rate":1}}]}')" \
    none "validation: a nonfinite fill of a float buffer is a spec"

NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=${CUDA:-$(dirname "$(dirname "$NVCC")")}
STUB=$CUDA/lib64/stubs/libcuda.so
if [ ! -x "$NVCC" ] || [ ! -f "$STUB" ]; then
	skip "the fill on the CPU" "nvcc or its stub libcuda missing"
	done_testing
fi
mkdir -p "$T_TMP/stub" "$T_TMP/h" "$T_TMP/c0" "$T_TMP/c9" "$T_TMP/c9b"
ln -sf "$STUB" "$T_TMP/stub/libcuda.so.1"

# count_bad_kernel's harness with a CPU reference that counts the
# non-finite elements of x: --oracle runs a case without a GPU
CPU='#include <math.h>
void count_bad_kernel_cpu(const float *x, int *count, int n)
{
	for (int i = 0; i < n; i++)
		if (!isfinite(x[i]))
			count[0]++;
}'
jq -c --arg id "$ID::count_bad_kernel" --arg c "$CPU" 'select(.id == $id) |
    .wrap.reference_cpu = {code: $c, language: "c", source: "user"}' \
    "$T_TMP/n.ndjson" | "$KWRAP" | jq -r .wrap.harness.code > "$T_TMP/h/count.cu"
if ! (cd "$T_TMP/h" && "$NVCC" -std=c++17 -O2 -x c++ -cudart none count.cu \
    -o count -L"$CUDA/lib64/stubs" -lcuda) 2> "$T_TMP/h/err"; then
	fail "the harness with the CPU reference builds"
	diag_file "$T_TMP/h/err"
	done_testing
fi
LD_LIBRARY_PATH=$T_TMP/stub
export LD_LIBRARY_PATH
H=$T_TMP/h/count
"$H" m count_bad_kernel "$T_TMP/c0" --case 0 --oracle 2> "$T_TMP/e0" &&
    "$H" m count_bad_kernel "$T_TMP/c9" --case 9 --oracle 2> "$T_TMP/e9" &&
    "$H" m count_bad_kernel "$T_TMP/c9b" --case 9 --oracle 2>> "$T_TMP/e9"
ok $? "--oracle runs case 0 and the nonfinite case on the CPU"
# words FILE: how many NaN, +Inf and -Inf (as the harness stores them) and
# how many 4-byte words in all
words() {
	od -An -tx4 -v "$1" | tr -s ' ' '\n' | awk 'NF {
		n++; if ($1 == "7fc00000") a++; else if ($1 == "7f800000") b++;
		else if ($1 == "ff800000") c++ } END { print a + 0, b + 0, c + 0, n + 0 }'
}
is "$(words "$T_TMP/c0/x.in.bin")" "0 0 0 100000" "case 0: x is finite"
set -- $(words "$T_TMP/c9/x.in.bin")
ok "$([ "$4" -eq 100000 ] && [ "$1" -gt 7500 ] && [ "$1" -lt 9200 ] &&
    [ "$2" -gt 7500 ] && [ "$2" -lt 9200 ] && [ "$3" -gt 7500 ] &&
    [ "$3" -lt 9200 ] && echo 0 || echo 1)" \
    "nonfinite: NaN, +Inf and -Inf each about a twelfth of x ($1, $2, $3 of $4)"
bad=$(($1 + $2 + $3))
is "$(od -An -td4 "$T_TMP/c9/count.bin" | tr -d ' ')" "$bad" \
    "nonfinite: the reference counts them ($bad)"
is "$(od -An -td4 "$T_TMP/c0/count.bin" | tr -d ' ')" 0 \
    "case 0: the count stays 0, so the cases tell the count apart"
cmp -s "$T_TMP/c9/x.in.bin" "$T_TMP/c9b/x.in.bin"
ok $? "nonfinite: the fill is the same from run to run (from the case's seed)"
set -- $(od -An -tf4 -v "$T_TMP/c9/x.in.bin" | tr -s ' ' '\n' | awk 'NF &&
    $1 != "nan" && $1 != "-nan" && $1 != "inf" && $1 != "-inf" {
	if (lo == "" || $1 < lo) lo = $1; if (hi == "" || $1 > hi) hi = $1 }
    END { print (lo >= -1 && hi <= 1 && hi - lo > 1.9) ? "in" : "out", lo, hi }')
is "$1" in "nonfinite: the finite elements keep the range [-1, 1] ($2 .. $3)"

# kw_fill_buf on its own: the harness's text with a main of the test's,
# for the 2-byte floats and an integer buffer
{
	echo '#define main kw_harness_main'
	cat "$T_TMP/h/count.cu"
	echo '#undef main'
	cat <<'EOF'
int main(void)
{
	static unsigned char p[4 * 40000];
	const int dts[3] = { KW_F16, KW_BF16, KW_I32 };
	for (int k = 0; k < 3; k++) {
		const int sz = dts[k] == KW_I32 ? 4 : 2;
		kw_fill f = { KW_NONFINITE, -1, 1, -1, 0.25 };
		long nan = 0, pinf = 0, ninf = 0, zero = 0;
		kw_fill_buf(p, 40000, sz, dts[k], f, 42, 0);
		for (int i = 0; i < 40000; i++) {
			uint32_t w = 0;
			memcpy(&w, p + (size_t)i * sz, sz);
			if (dts[k] == KW_I32) { zero += w == 0; continue; }
			uint32_t e = dts[k] == KW_F16 ? 0x7c00 : 0x7f80;
			nan += (w & e) == e && (w & ~(e | 0x8000)) != 0;
			pinf += w == e;
			ninf += w == (e | 0x8000);
		}
		printf("%d %d %d %d\n", nan > 2800 && nan < 3900,
		    pinf > 2800 && pinf < 3900, ninf > 2800 && ninf < 3900,
		    zero > 8000);
	}
	// a buffer of 1 or 3 elements, where a quarter rounds to none,
	// still gets a non-finite element, whatever the seed
	int all = 1;
	for (uint64_t seed = 0; seed < 200; seed++) {
		float x[3];
		kw_fill f = { KW_NONFINITE, -1, 1, -1, 0.25 };
		kw_fill_buf((unsigned char *)x, 1 + seed % 3, 4, KW_F32, f, seed, 0);
		int any = 0;
		for (uint64_t i = 0; i < 1 + seed % 3; i++)
			any |= !std::isfinite(x[i]);
		all &= any;
	}
	printf("%d\n", all);
	return 0;
}
EOF
} > "$T_TMP/h/fill.cu"
if (cd "$T_TMP/h" && "$NVCC" -std=c++17 -O2 -x c++ -cudart none fill.cu \
    -o fill -L"$CUDA/lib64/stubs" -lcuda) 2> "$T_TMP/h/ferr"; then
	is "$("$T_TMP/h/fill" | tr '\n' ' ')" '1 1 1 0 1 1 1 0 0 0 0 1 1 ' \
	    "kw_fill_buf: float16 and bfloat16 get NaN, +Inf and -Inf; an int32 buffer 0 in their place; a buffer of 1 to 3 elements one at least"
else
	fail "kw_fill_buf: the test's harness builds"
	diag_file "$T_TMP/h/ferr"
fi

done_testing
