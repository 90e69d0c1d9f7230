#!/bin/sh
# Parameters passed by value that kwrap lays out (test/accessor/accessor.cu,
# saved as test/accessor/kslice.ndjson): PyTorch's packed tensor accessors
# become a struct of a data buffer, N sizes (scalars of the cases, one
# value a dimension for every accessor's) and N strides the harness derives from the
# sizes, with the accessor's bytes (data_, sizes_[N], strides_[N], the
# index type's size); a CUDA vector type a struct of its components;
# typedefs of an enum and of a scalar their types; pointer members
# declared together each a buffer.  The harnesses compile, kbuild builds
# the slices with them, and the accessor's own type (stubs/, the stand-in
# a slice compiles against) agrees with the spec's layout.
. "$(dirname "$0")/lib.sh"

have_tool kwrap || skip_all "kwrap is not built"
KWRAP=$(tool kwrap)

run "$KWRAP" < test/accessor/kslice.ndjson
is "$T_STATUS" 0 "exit status 0: every kernel gets a harness"
is "$(wc -l < "$T_TMP/out" | tr -d ' ')" 11 "every line in is a line out"
cp "$T_TMP/out" "$T_TMP/a.ndjson"
# rec(KERNEL, JQ): a jq expression on KERNEL's record
rec() {
	jq -c --arg id "test/accessor/accessor.cu::$1" \
	    "select(.id == \$id) | $2" "$T_TMP/a.ndjson"
}

# PackedTensorAccessor32<float, 2>: 8 + 2 * 4 + 2 * 4 bytes
is "$(rec scale_rows_kernel '[(.errors // [] | length), (.wrap.spec.params[0] | [.dtype, .size, [.fields[] | [.name, .dtype, .offset, .use, (.expr // .buffer)]]])]')" \
    '[0,["struct",24,[["data","float32",0,"buffer","x_data"],["size0","int32",8,"size",null],["size1","int32",12,"size",null],["stride0","int32",16,"derived","x.size1"],["stride1","int32",20,"derived","1"]]]]' \
    "an accessor of rank 2, 32-bit indices: data, sizes, then strides derived from the sizes"
is "$(rec scale_rows_kernel '[.wrap.spec.params[] | select(.member) | [.name, .member, .role, .dtype, .count]]')" \
    '[["x_data","x.data","in","float32","x.size0 * x.size1"],["y_data","y.data","out","float32","y.size0 * y.size1"]]' \
    "its data a buffer: in from reads x[r][c], out from writes y[r][c], the product of the sizes"
is "$(rec scale_rows_kernel '.wrap.spec.launch.grid[0]')" '"(x.size0 + 255) / 256"' \
    "the launch covers the rows: x.size(0) is a size"
is "$(rec scale_rows_kernel '[.wrap.spec.cases[] | .scalars | [.["x.size0"] == .["y.size0"], .["x.size1"] == .["y.size1"]]] | flatten | unique')" \
    '[true]' "every case gives the accessors' sizes one value a dimension"
is "$(rec scale_rows_kernel '[.wrap.spec.cases[] | .scalars | select(.["x.size0"] != .["x.size1"]) | .["x.size0"], .["x.size1"]]')" \
    '[67,5,320,64]' "the dimensions differ in two cases (non_multiple, and multi_block: the rows scaled to two blocks), so that size(0) read for size(1) shows"
is "$(rec scale_rows_kernel '[.wrap.spec.cases[0].scalars | keys[] | select(test("stride"))] | length')" \
    '0' "the cases bind no stride"
# PackedTensorAccessor64<float, 2> with p[i][0..2]; rank 1 out
is "$(rec 'norms_kernel<float>' '[(.wrap.spec.params[0] | [.size, [.fields[] | [.name, .dtype, .offset, .use]]]), (.wrap.spec.params[1].size), ([.wrap.spec.cases[].scalars["p.size1"]] | unique)]')" \
    '[[40,[["data","float32",0,"buffer"],["size0","int64",8,"size"],["size1","int64",16,"value"],["stride0","int64",24,"derived"],["stride1","int64",32,"derived"]]],24,[3]]' \
    "64-bit indices; a dimension subscripted by constants 0..2 keeps size 3 in every case"
is "$(rec 'norms_kernel<float>' '[.wrap.spec.params[] | select(.member) | [.member, .role, .count]]')" \
    '[["p.data","in","p.size0 * p.size1"],["out.data","out","out.size0"]]' \
    "a template's accessors: the instance's element type, rank 1 counted by its size"

is "$(rec gather_kernel '[[.wrap.spec.params[] | select(.member) | [.member, .role]], [.wrap.spec.confidence.guesses[] | select(test("src_data: (no access|not const)"))]]')" \
    '[[["src.data","inout"],["dst.data","out"]],["src_data: not const and never seen written, taken as inout"]]' \
    "a non-const accessor read is seen read; one written through data() an output"

# a vector type, typedefs, pointer members declared together
is "$(rec affine_kernel '[(.wrap.spec.params[1] | [.dtype, .size, [.fields[] | [.name, .dtype, .offset, .use]]]), [.wrap.spec.cases[0].scalars["ab.x", "ab.y"] | type]]')" \
    '[["struct",8,[["x","float32",0,"value"],["y","float32",4,"value"]]],["number","number"]]' \
    "float2 by value: a struct of x and y, each a value of the cases"
is "$(rec modes_kernel '[(.wrap.spec.params[1,2] | [.name, .dtype]), ([.wrap.spec.cases[].scalars.mode] | unique)]')" \
    '[["mode","int32"],["bias","int64"],[0,1]]' \
    "typedef enum {...} T: an int taking its enumerators; typedef long T: an int64"
is "$(rec pair_sum_kernel '[(.wrap.spec.params[0] | [.size, [.fields[] | [.name, .offset, .use]]]), [.wrap.spec.params[] | select(.member) | [.member, .role]]]')" \
    '[[32,[["a",0,"buffer"],["b",8,"buffer"],["sum",16,"buffer"],["n",24,"size"]]],[["p.a","in"],["p.b","in"],["p.sum","out"]]]' \
    "const float *a, *b;: two buffers, each with its offset"
is "$(rec mixed_kernel '[(.errors // [] | length), (.wrap.spec.params[0] | [.size, [.fields[] | [.name, .dtype, .offset, .use]]]), ([.wrap.spec.cases[].scalars["p.lv"]] | unique)]')" \
    '[0,[32,[["h","int32",0,"size"],["w","int32",4,"size"],["lv","uint8",8,"value"],["x","float32",16,"buffer"],["y","float32",24,"buffer"]]],[0,1]]' \
    "int h, w;: two fields; an enum member of underlying type unsigned char: one byte taking its enumerators"

# the launcher's dim3 blocks(x.size(0)) for the accessor of x it passes
is "$(rec row_sum_kernel '[(.errors // [] | length), .wrap.spec.launch.grid, .wrap.spec.confidence.launch]')" \
    '[0,["x.size0","1","1"],"high"]' \
    "a launcher's grid of a tensor's size: the size field of the accessor it passes"

# int2 after an int at 8, int4 at 16 bytes' alignment (32), pointers at 48
is "$(rec tile_kernel '[(.errors // [] | length), (.wrap.spec.params[0] | [.size, [.fields[] | [.name, .offset, .use]]]), .wrap.spec.launch.grid[0]]')" \
    '[0,[64,[["n",0,"size"],["up_x",8,"value"],["up_y",12,"value"],["scale",16,"value"],["pad_x",32,"value"],["pad_y",36,"value"],["pad_z",40,"value"],["pad_w",44,"value"],["x",48,"buffer"],["y",56,"buffer"]]],"(p.n + 255) / 256"]' \
    "vector members: a field per component at the vector's alignment"
like "$(rec tile_kernel '.wrap.harness.code' | jq -r .)" \
    'struct kw_struct_p \{ int32_t n; unsigned char kw_pad0\[4\]; int32_t up_x; int32_t up_y; float scale; unsigned char kw_pad1\[12\]; int32_t pad_x; int32_t pad_y; int32_t pad_z; int32_t pad_w; void \* x; void \* y; \} p;' \
    "the harness pads the struct to the spec's offsets"

code=$(rec scale_rows_kernel '.wrap.harness.code' | jq -r .)
like "$code" 'struct kw_struct_x \{ void \* data; int32_t size0; int32_t size1; int32_t stride0; int32_t stride1; \} x;' \
    "the harness lays the accessor out as the spec says"
like "$code" 'static_assert\(sizeof\(x\) == 24, ' "the harness asserts the struct's size"
like "$code" 'x\.stride0 = \(int32_t\)kw_value\(kw_n\(kw_n\(x\.size1\)\)' \
    "the harness derives the strides from the sizes as --set leaves them"
unlike_set=$(printf '%s\n' "$code" | grep -c 'kw_scalar("x.stride' || true)
is "$unlike_set" 0 "a stride is no scalar --set could change"

# indices read from an integer accessor: n = idx[b][k][i], then feats[ch][n]
is "$(rec gather_sum_kernel '[(.wrap.spec.params[] | select(.name == "idx_data") | .fill), ([.wrap.spec.cases[] | .scalars["feats.size1"]] | min), ([.wrap.spec.cases[] | .fills.idx_data // empty] | unique)]')" \
    '[{"kind":"int","lo":0,"hi":3},4,[{"kind":"int","lo":0,"hi":3}]]' \
    "an accessor's integers that subscript another accessor alone are indices: filled 0..3 in every case, that dimension at least 4"
is "$(rec count_scale_kernel '.wrap.spec.params[] | select(.name == "counts_data") | .fill.hi')" 100 \
    "near miss: integers read from an accessor and only multiplied keep the default fill"

run test/validate "$T_TMP/a.ndjson"
is "$T_STATUS" 0 "schemas: every output validates (fields of use derived)"

# a user's spec whose derived field has no expression is refused
jq -c 'select(.id | test("scale_rows")) | {id: .id, spec: (.wrap.spec |
    .params[0].fields[3] |= del(.expr))}' "$T_TMP/a.ndjson" > "$T_TMP/user.ndjson"
run "$KWRAP" --spec "$T_TMP/user.ndjson" < test/accessor/kslice.ndjson
like "$(jq -r 'select(.id | test("scale_rows")) | [.errors[]?.message] | join(";")' "$T_TMP/out")" \
    'params\[0\]\.fields\[3\]\.expr: missing for a derived field' \
    "--spec: a derived field without its expression is a bad spec"

NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=${CUDA:-$(dirname "$(dirname "$NVCC")")}
if [ ! -x "$NVCC" ]; then
	skip "kbuild and layout checks" "nvcc is not installed"
	done_testing
	exit 0
fi

# kbuild: every slice compiles alone with its harness (one job)
if have_tool kbuild; then
	KFORGE_WORK=$T_TMP/work run "$(tool kbuild)" -q -j 1 --arch sm_90 \
	    < "$T_TMP/a.ndjson"
	is "$(jq -c '[.build.reference.ok, .build.harness.ok]' "$T_TMP/out" |
	    sort -u | tr -d '\n')" '[true,true]' \
	    "kbuild: every reference and harness builds"
	is "$(jq -c 'select(.id | test("scale_rows")) |
	    .build.harness.record_code_differs' "$T_TMP/out")" false \
	    "kbuild's own harness generator gives the record's harness"
else
	skip "kbuild builds" "kbuild is not built"
fi

# the accessor's own type agrees with the spec: size and offsets
sh test/accessor/layout.sh "$T_TMP/a.ndjson" "$T_TMP/layout"
is "$(ls "$T_TMP/layout" | wc -l | tr -d ' ')" 13 "a layout check per accessor"
for f in "$T_TMP"/layout/*.cu; do
	n=$(basename "$f" .cu)
	if "$NVCC" -std=c++17 -I stubs -o "$T_TMP/layout/$n" "$f" \
	    2> "$T_TMP/layout/$n.err" && "$T_TMP/layout/$n" \
	    > "$T_TMP/layout/$n.out" 2>&1; then
		pass "layout: $n agrees with stubs/kforge_torch.h"
	else
		fail "layout: $n agrees with stubs/kforge_torch.h"
		diag_file "$T_TMP/layout/$n.err"
		diag_file "$T_TMP/layout/$n.out"
	fi
done
# the check fails on a layout that is not the accessor's: strides first
jq -c 'select(.id | test("scale_rows")) | .wrap.spec.params[0].fields |=
    (.[1].offset = 16 | .[2].offset = 20 | .[3].offset = 8 |
    .[4].offset = 12)' "$T_TMP/a.ndjson" > "$T_TMP/wrong.ndjson"
sh test/accessor/layout.sh "$T_TMP/wrong.ndjson" "$T_TMP/wrong"
f=$(ls "$T_TMP"/wrong/*__x.cu)
if "$NVCC" -std=c++17 -I stubs -o "$T_TMP/wrong/x" "$f" 2> /dev/null &&
    ! "$T_TMP/wrong/x" > "$T_TMP/wrong/out"; then
	like "$(cat "$T_TMP/wrong/out")" 'size0: not at its offset' \
	    "layout: sizes where the strides are fail the check"
else
	fail "layout: sizes where the strides are fail the check"
fi

# the struct the slice defines has the spec's offsets and size
rec tile_kernel '.slice.code as $c | .wrap.spec.params[0] as $p |
    $c + "\n#include <cstddef>\nstatic_assert(sizeof(\($p.type)) == \($p.size), \"size\");\n" +
    ([$p.fields[] | select(.name == ("n", "up_x", "scale", "pad_x", "x", "y")) |
    "static_assert(offsetof(\($p.type), \(.name | sub("_x$"; ""))) == \(.offset), \"\(.name)\");"] |
    join("\n"))' | jq -r . > "$T_TMP/offsets.cu"
if "$NVCC" -std=c++17 -c -o "$T_TMP/offsets.o" "$T_TMP/offsets.cu" \
    2> "$T_TMP/offsets.err"; then
	pass "nvcc: tile_params has the spec's offsets (vector members) and size"
else
	fail "nvcc: tile_params has the spec's offsets (vector members) and size"
	diag_file "$T_TMP/offsets.err"
fi

# --plan, without a GPU: the accessor's buffers counted from its sizes
STUB=$CUDA/lib64/stubs/libcuda.so
if [ -f "$STUB" ]; then
	mkdir -p "$T_TMP/stub" "$T_TMP/h"
	ln -sf "$STUB" "$T_TMP/stub/libcuda.so.1"
	printf '%s\n' "$code" > "$T_TMP/h/harness.cu"
	(cd "$T_TMP/h" && "$NVCC" -std=c++17 -O2 -x c++ -cudart none \
	    harness.cu -o harness -L"$CUDA/lib64/stubs" -lcuda &&
	    LD_LIBRARY_PATH=$T_TMP/stub ./harness m k o --plan \
	    --set x.size1=5) > "$T_TMP/plan" 2>&1
	is "$(jq -c '[.grid, [.buffers[] | [.name, .role, .count]]]' "$T_TMP/plan")" \
	    '[[1,1,1],[["x_data","in",320],["y_data","out",4096]]]' \
	    "--plan --set x.size1=5: x's buffer 64 x 5, y's 64 x 64"
else
	skip "--plan of scale_rows_kernel" "the stub libcuda is missing"
fi

done_testing
