#!/bin/sh
# Parameters passed by value (test/byvalue/byvalue.cu, saved as
# test/byvalue/kslice.ndjson): a struct of plain scalars and an enum get a
# harness that compiles; a type kwrap cannot build (a struct holding a
# pointer, a class template instance, a CUDA vector type) is a bad-spec
# error naming the parameter, its type and why, with no harness that
# would pass the kernel a value of the wrong size.
. "$(dirname "$0")/lib.sh"

if ! have_tool kwrap; then
	skip_all "kwrap is not built"
fi
KWRAP=$(tool kwrap)

run "$KWRAP" < test/byvalue/kslice.ndjson
is "$T_STATUS" 1 "byvalue: exit status 1 (records with errors)"
is "$(wc -l < "$T_TMP/out" | tr -d ' ')" 5 "every line in is a line out"
cp "$T_TMP/out" "$T_TMP/b.ndjson"
# rec(KERNEL, JQ): a jq expression on KERNEL's record
rec() {
	jq -c --arg id "test/byvalue/byvalue.cu::$1" \
	    "select(.id == \$id) | $2" "$T_TMP/b.ndjson"
}

is "$(rec plain_struct_kernel '[(.wrap.harness.code != null), (.errors // [] | length), (.wrap.spec.params[0] | [.dtype, .size, [.fields[] | [.name, .dtype, .offset]]])]')" \
    '[true,0,["struct",8,[["n","int32",0],["scale","float32",4]]]]' \
    "a struct of plain scalars: its fields laid out, a harness"
is "$(rec enum_kernel '[(.wrap.harness.code != null), (.errors // [] | length), (.wrap.spec.params[1].dtype)]')" \
    '[true,0,"int32"]' "an enum: an int, a harness"

# bad(KERNEL, PATTERN, WHAT): KERNEL's record is a kwrap bad-spec error
# matching PATTERN, and has no harness
bad() {
	is "$(rec "$1" '[.errors[]? | select(.stage == "kwrap") | .code] | join(",")')" \
	    '"bad-spec"' "$3: a bad-spec error"
	like "$(rec "$1" '[.errors[]?.message] | join(";")')" "$2" \
	    "$3: the message names the parameter, its type and why"
	is "$(rec "$1" '.wrap.harness // "none"')" '"none"' "$3: no harness"
}
bad pointer_member_kernel \
    'parameter s \(span\) is passed by value and kwrap cannot build it: its member data is a pointer \(const float \*\)' \
    "a struct holding a pointer"
bad template_value_kernel \
    'parameter t \(two<int, float>\) is passed by value .*: a class template instance' \
    "a class template instance"
bad vector_value_kernel \
    'parameter v \(float4\) is passed by value .*: a CUDA vector type' \
    "a CUDA vector type"

# a user's spec that keeps a by-value scalar of dtype bytes is refused too
jq -c '{id: .id, spec: {launch: {block: [128, 1, 1]}}}' \
    test/byvalue/kslice.ndjson > "$T_TMP/user.ndjson"
run "$KWRAP" --spec "$T_TMP/user.ndjson" < test/byvalue/kslice.ndjson
cp "$T_TMP/out" "$T_TMP/b.ndjson"
like "$(rec pointer_member_kernel '[.errors[]?.message] | join(";")')" \
    'params\[0\]\.dtype: bytes for a scalar \(span passed by value\)' \
    "--spec: a scalar of dtype bytes is a bad spec, naming the field"
is "$(rec pointer_member_kernel '.wrap.harness // "none"')" '"none"' \
    "--spec: no harness for it"
is "$(rec plain_struct_kernel '[(.wrap.harness.code != null), (.errors // [] | length)]')" \
    '[true,0]' "--spec: a struct of plain scalars still gets its harness"

# the harnesses built compile as harness.build says
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=${CUDA:-$(dirname "$(dirname "$NVCC")")}
mkdir -p "$T_TMP/h"
for k in plain_struct_kernel enum_kernel; do
	if [ ! -x "$NVCC" ]; then
		skip "nvcc: $k harness builds" "nvcc is not installed"
		continue
	fi
	rec $k '.wrap.harness.code' | jq -r . > "$T_TMP/h/harness.cu"
	if (cd "$T_TMP/h" && "$NVCC" -std=c++17 -O2 -x c++ \
	    -cudart none harness.cu -o harness \
	    -L"$CUDA/lib64/stubs" -lcuda) 2> "$T_TMP/h/err"; then
		pass "nvcc: $k harness builds"
	else
		fail "nvcc: $k harness builds"
		diag_file "$T_TMP/h/err"
	fi
done

done_testing
