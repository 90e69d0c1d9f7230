#!/bin/sh
# Parameters passed by value (test/byvalue/byvalue.cu, saved as
# test/byvalue/kslice.ndjson): a struct of plain scalars and an enum get a
# harness that compiles, and so does a CUDA vector type (a struct of its
# components, or fields of a struct, one per component); a struct's pointer members are buffers of their own (roles,
# counts and a void * member's element type from the kernel's accesses
# through p.x, followed through aliases and a traits class's member types,
# test/byvalue/traits.cu), their addresses put into the struct the
# harness passes, a void * member the kernel never reaches a null pointer
# (test/byvalue/shared.cu); a
# std::pair of two scalars is a struct of its members first and second;
# a constructor, member functions and static members take no room
# (test/byvalue/ctor.cu); a
# type kwrap cannot build (a void * never cast, a class template instance)
# is a bad-spec error naming the parameter, its type and why, with no
# harness that would pass the kernel a value of the wrong size.
. "$(dirname "$0")/lib.sh"

if ! have_tool kwrap; then
	skip_all "kwrap is not built"
fi
KWRAP=$(tool kwrap)

run "$KWRAP" < test/byvalue/kslice.ndjson
is "$T_STATUS" 1 "byvalue: exit status 1 (records with errors)"
is "$(wc -l < "$T_TMP/out" | tr -d ' ')" 16 "every line in is a line out"
cp "$T_TMP/out" "$T_TMP/b.ndjson"
cp "$T_TMP/out" "$T_TMP/b0.ndjson"
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

# a struct with a constructor (an initializer list, braced members), a
# member function and a static constant: laid out by its data members
is "$("$(tool kscan)" test/byvalue/ctor.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KWRAP" 2> /dev/null | jq -c '[(.wrap.harness.code != null), (.errors // [] | length),
    (.wrap.spec.params[0] | [.size, [.fields[] | [.name, .offset]]])]')" \
    '[true,0,[24,[["n",0],["scale",4],["x",8],["y",16]]]]' \
    "a struct's constructor, member function and static member take no room: a harness"

# bad(KERNEL, PATTERN, WHAT): KERNEL's record is a kwrap bad-spec error
# matching PATTERN, and has no harness
bad() {
	is "$(rec "$1" '[.errors[]? | select(.stage == "kwrap") | .code] | join(",")')" \
	    '"bad-spec"' "$3: a bad-spec error"
	like "$(rec "$1" '[.errors[]?.message] | join(";")')" "$2" \
	    "$3: the message names the parameter, its type and why"
	is "$(rec "$1" '.wrap.harness.code != null')" false "$3: no harness"
}
is "$(rec pointer_member_kernel '[(.errors // [] | length), (.wrap.spec.params[0] | [.size, [.fields[] | [.name, .offset, .use, .buffer]]]), [.wrap.spec.params[] | select(.member) | [.name, .member, .role, .dtype, .count]]]')" \
    '[0,[16,[["data",0,"buffer","s_data"],["len",8,"size",null]]],[["s_data","s.data","in","float32","s.len"]]]' \
    "a struct's typed pointer member: a buffer of its own, counted by the access s.data[i] under i < s.len"
is "$(rec void_member_kernel '[(.wrap.spec.params[0] | [.size, [.fields[] | [.name, .dtype, .offset, .use]]]), [.wrap.spec.params[] | select(.member) | [.member, .role, .dtype, .count]], .wrap.spec.confidence.counts]')" \
    '[[32,[["x","float32",0,"buffer"],["y","float32",8,"buffer"],["n","int32",16,"size"],["alpha","float32",20,"value"],["b","float32",24,"buffer"]]],[["p.x","in","float32","p.n"],["p.y","out","float32","p.n"],["p.b","in","float32","4"]],"high"]' \
    "void * members: element types from the kernel's casts, the written one an output, offsets with 8-byte pointers"
like "$(rec void_member_kernel '.wrap.instruction.concise')" \
    'reads p\.x \(float, p\.n elements\), p\.b \(float, 4 elements\) and writes p\.y' \
    "the instruction names the members as the kernel does"
is "$(rec void_member_kernel '[.wrap.spec.cases[0].scalars | keys[]]')" \
    '["p.alpha","p.n"]' "the cases bind the scalar members only"
code=$(rec void_member_kernel '.wrap.harness.code' | jq -r .)
like "$code" 'struct kw_struct_p \{ void \* x; void \* y; int32_t n; float alpha; void \* b; \} p;' \
    "the harness lays the struct out with its pointers"
like "$code" 'kw_b\[kw_nb\]\.member = &p\.y;' "the buffer's address goes into its member"
like "$code" 'void \*kw_args\[\] = \{ \(void \*\)&p \};' \
    "the struct is the one argument; its buffers are none"
is "$(rec 'template_cast_kernel<double>' '[(.errors // [] | length), [.wrap.spec.params[] | select(.member) | [.member, .role, .dtype, .count]]]')" \
    '[0,[["p.in","in","float64","p.n"],["p.out","out","float64","p.n"]]]' \
    "a void * cast to the template's type parameter: the instance's type (double)"
is "$(rec vector_member_kernel '[(.errors // [] | length), (.wrap.spec.params[0] | [.size, [.fields[] | [.name, .dtype, .offset, .use]]]), [.wrap.spec.params[] | select(.member) | [.member, .count]]]')" \
    '[0,[16,[["x","float32",0,"buffer"],["tile_x","int32",8,"size"],["tile_y","int32",12,"value"]]],[["p.x","p.tile_x"]]]' \
    "a vector member (int2 tile): a field per component, p.tile.x the size p.tile_x"
bad opaque_member_kernel \
    'parameter o \(opaque\) is passed by value and kwrap cannot build it: its member x \(const void \*\) points to elements of a type kwrap cannot tell' \
    "a void * member never cast"
bad template_value_kernel \
    'parameter t \(two<int, float>\) is passed by value .*: a class template instance' \
    "a class template instance"
is "$(rec vector_value_kernel '[(.wrap.harness.code != null), (.errors // [] | length), (.wrap.spec.params[1] | [.dtype, .size, [.fields[] | [.name, .dtype, .offset, .use]]]), (.wrap.spec.cases[0].scalars | keys)]')" \
    '[true,0,["struct",16,[["x","float32",0,"value"],["y","float32",4,"value"],["z","float32",8,"value"],["w","float32",12,"value"]]],["n","v.w","v.x","v.y","v.z"]]' \
    "a CUDA vector type: a struct of its components, each a scalar of the cases"

run test/validate "$T_TMP/b.ndjson"
is "$T_STATUS" 0 "schemas: every output validates (fields of use buffer, member)"

# a user's spec that keeps a by-value scalar of dtype bytes is refused too
jq -c '{id: .id, spec: {launch: {block: [128, 1, 1]}}}' \
    test/byvalue/kslice.ndjson > "$T_TMP/user.ndjson"
run "$KWRAP" --spec "$T_TMP/user.ndjson" < test/byvalue/kslice.ndjson
cp "$T_TMP/out" "$T_TMP/b.ndjson"
like "$(rec template_value_kernel '[.errors[]?.message] | join(";")')" \
    'params\[0\]\.dtype: bytes for a scalar \(two < int , float > passed by value\)' \
    "--spec: a scalar of dtype bytes is a bad spec, naming the field"
is "$(rec template_value_kernel '.wrap.harness.code != null')" false \
    "--spec: no harness for it"
like "$(rec opaque_member_kernel '[.errors[]?.message] | join(";")')" \
    'params\[0\]\.fields\[0\]\.dtype: bytes is not a dtype' \
    "--spec: an untyped pointer member is a bad spec too"
is "$(rec void_member_kernel '[(.wrap.harness.code != null), (.errors // [] | length)]')" \
    '[true,0]' "--spec: a struct of typed pointer members keeps its harness"
is "$(rec plain_struct_kernel '[(.wrap.harness.code != null), (.errors // [] | length)]')" \
    '[true,0]' "--spec: a struct of plain scalars still gets its harness"

# std::pair of two scalars (test/byvalue/pair.cu): its members first and
# second, the second aligned to its own size
recp() {
	jq -c --arg id "test/byvalue/pair.cu::$1" \
	    "select(.id == \$id) | $2" "$T_TMP/b.ndjson"
}
is "$(recp pair_seed_kernel '[(.wrap.harness.code != null), (.errors // [] | length), (.wrap.spec.params[2] | [.dtype, .size, [.fields[] | [.name, .dtype, .offset]]])]')" \
    '[true,0,["struct",16,[["first","uint64",0],["second","uint64",8]]]]' \
    "std::pair<uint64_t, uint64_t> by value: first and second, a harness"
is "$(recp pair_mixed_kernel '[(.wrap.harness.code != null), (.wrap.spec.params[2] | [.size, [.fields[] | [.name, .dtype, .offset]]])]')" \
    '[true,[16,[["first","int32",0],["second","float64",8]]]]' \
    "std::pair<int, double>: the double after four bytes of padding, 16 bytes in all"

is "$(jq -c 'select(.id == "test/byvalue/traits.cu::traits_cast_kernel<io_traits_f64>") | [(.errors // [] | length), [.wrap.spec.params[] | select(.member) | [.member, .role, .dtype, .count]]]' "$T_TMP/b.ndjson")" \
    '[0,[["p.in","in","float64","p.n"],["p.out","out","float64","p.n"]]]' \
    "void * members cast to a type named through a traits class (Traits::io::elem, the instance's class): its element type (double)"

# a struct two kernels share (test/byvalue/shared.cu): a void * member
# the kernel never reaches is a null pointer, no buffer
recs() {
	jq -c --arg id "test/byvalue/shared.cu::$1" \
	    "select(.id == \$id) | $2" "$T_TMP/b.ndjson"
}
is "$(recs shared_sum_kernel '[(.errors // [] | length), (.wrap.spec.params[0].fields | map([.name, .use, .offset])), [.wrap.spec.params[] | select(.member) | .member]]')" \
    '[0,[["in","buffer",0],["out","null",8],["sums","buffer",16],["n","size",24]],["p.in","p.sums"]]' \
    "a void * member the kernel never names: a null pointer in its place, no buffer, a harness"
is "$(recs shared_store_kernel '[(.errors // [] | length), [.wrap.spec.params[] | select(.member) | [.member, .role, .dtype]]]')" \
    '[0,[["p.in","in","float32"],["p.out","out","float32"],["p.sums","inout","float32"]]]' \
    "the kernel that casts it: a buffer of its element type"
like "$(recs shared_sum_kernel '.wrap.harness.code' | jq -r .)" \
    'struct kw_struct_p \{ void \* in; void \* out; void \* sums; int32_t n; \} p;' \
    "the harness lays the null member out as a pointer, which its memset leaves 0"
is "$(recs pair_sum_kernel '[(.errors // [] | length), (.wrap.spec.params[0].fields | map([.name, .use])), [.wrap.spec.params[] | select(.member) | .member]]')" \
    '[0,[["in","buffer"],["y","null"],["sums","buffer"],["n","size"]],["p.in","p.sums"]]' \
    "a void * member y the kernel never reaches, though it names a float2's .y: a null pointer, a harness"
like "$(jq -r 'select(.id == "test/byvalue/shared.cu::pair_helper_kernel") | [.errors[]?.message] | join(";")' "$T_TMP/b0.ndjson")" \
    'parameter p \(pair_sum_params\) is passed by value and kwrap cannot build it: its member y \(void \*\) points to elements of a type kwrap cannot tell' \
    "the struct handed whole to a helper whose code names a .y: the member may be reached, still a bad spec"

# the harnesses built compile as harness.build says
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=${CUDA:-$(dirname "$(dirname "$NVCC")")}
mkdir -p "$T_TMP/h"
for k in plain_struct_kernel enum_kernel pointer_member_kernel \
    'template_cast_kernel<double>' vector_value_kernel pair_seed_kernel \
    pair_mixed_kernel 'traits_cast_kernel<io_traits_f64>' shared_sum_kernel \
    pair_sum_kernel void_member_kernel; do
	if [ ! -x "$NVCC" ]; then
		skip "nvcc: $k harness builds" "nvcc is not installed"
		continue
	fi
	case $k in
	pair_sum_*) recs "$k" '.wrap.harness.code' ;;
	pair_*) recp "$k" '.wrap.harness.code' ;;
	traits_*) jq -c --arg id "test/byvalue/traits.cu::$k" \
	    'select(.id == $id) | .wrap.harness.code' "$T_TMP/b.ndjson" ;;
	shared_*) recs "$k" '.wrap.harness.code' ;;
	*) rec "$k" '.wrap.harness.code' ;;
	esac | jq -r . > "$T_TMP/h/harness.cu"
	if (cd "$T_TMP/h" && "$NVCC" -std=c++17 -O2 -x c++ \
	    -cudart none harness.cu -o harness \
	    -L"$CUDA/lib64/stubs" -lcuda) 2> "$T_TMP/h/err"; then
		pass "nvcc: $k harness builds"
	else
		fail "nvcc: $k harness builds"
		diag_file "$T_TMP/h/err"
	fi
done

# --plan, without a GPU: the member buffers with their counts (the last
# harness built above, void_member_kernel's)
STUB=$CUDA/lib64/stubs/libcuda.so
if [ -x "$NVCC" ] && [ -f "$STUB" ]; then
	mkdir -p "$T_TMP/stub"
	ln -sf "$STUB" "$T_TMP/stub/libcuda.so.1"
	(cd "$T_TMP/h" && LD_LIBRARY_PATH=$T_TMP/stub ./harness m k o --plan) \
	    > "$T_TMP/plan" 2>&1
	is "$(jq -c '[.scalars, [.buffers[] | [.name, .role, .count]]]' "$T_TMP/plan")" \
	    '[{"p.n":100000,"p.alpha":1.5},[["p_x","in",100000],["p_y","out",100000],["p_b","in",4]]]' \
	    "--plan: the struct's scalars and its member buffers"
else
	skip "--plan of void_member_kernel" "nvcc or the stub libcuda is missing"
fi

done_testing
