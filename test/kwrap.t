#!/bin/sh
# kwrap on the saved kslice output of the example project: the saved
# output, golden specs and instructions, a user spec overriding inference,
# a kernel whose sizes cannot be inferred, every harness compiled (nvcc,
# and hipcc for the HIP ones), bad input as error records, the schemas.
. "$(dirname "$0")/lib.sh"

if ! have_tool kwrap; then
	skip_all "kwrap is not built"
fi
KWRAP=$(tool kwrap)

run "$KWRAP" < examples/kslice.ndjson
is "$T_STATUS" 0 "examples: exit status 0"
is_file "$T_TMP/out" examples/kwrap.ndjson "examples: output is examples/kwrap.ndjson"
cp "$T_TMP/out" "$T_TMP/w.ndjson"
W=$T_TMP/w.ndjson

# spec(ID, JQ): a jq expression on one record's spec, compact
spec() {
	jq -c --arg id "$1" "select(.id == \$id) | .wrap.spec | $2" "$W"
}
QK='examples/src/attention.cu::qk_scores_kernel<float>'
is "$(spec "$QK" '[.params[] | [.name, .role, .type, .count // .use]]')" \
    '[["q","in","float","seq * dim"],["k","in","float","seq * dim"],["scores","out","float","seq * seq"],["seq","scalar","int","size"],["dim","scalar","int","size"],["scale","scalar","float","value"]]' \
    "golden: qk_scores roles, types and counts"
is "$(spec "$QK" '.launch')" \
    '{"grid":["(seq + 15) / 16","(seq + 15) / 16","1"],"block":[16,16,1],"shared_mem":"0"}' \
    "golden: qk_scores launch"
is "$(spec "$QK" '[.cases[].name]')" \
    '["typical","smallest","one_block","one_warp","non_multiple","large","zeros","negatives","large_magnitude"]' \
    "golden: qk_scores cases"
is "$(spec 'examples/src/elementwise.cu::bias_act_kernel<float>' \
    '[.params[] | .count // empty]')" '["rows * cols","cols","rows * cols"]' \
    "golden: bias_act counts, bias by modulo"
is "$(spec 'examples/src/elementwise.cu::axpby_kernel' \
    '[.params[0].fields[] | [.name, .offset, .use]], .cases[0].scalars')" \
    '[["alpha",0,"value"],["beta",4,"value"],["n",8,"size"]]
{"p.alpha":1.5,"p.beta":-0.75,"p.n":100000}' \
    "golden: axpby's struct fields bound by the cases"
is "$(spec 'examples/src/reduce.cu::block_sum_kernel' '.params[1].count')" \
    '"(n + 255) / 256"' "golden: block_sum writes one partial per block"
is "$(spec 'examples/src/reduce.cu::count_nonfinite_kernel' \
    '[.params[1].role, .params[1].count]')" '["inout","1"]' \
    "golden: count_nonfinite's counter is one element"
is "$(spec 'examples/src/kernels/softmax_kernels.cuh::softmax_rows_kernel<float>' \
    '[.launch.grid[0], .launch.shared_mem, .confidence.overall]')" \
    '["rows","1024","high"]' "golden: softmax one row per block"
is "$(jq -r 'select(.wrap.spec.confidence.overall == "high") | .id' "$W" | wc -l |
    tr -d ' ')" 18 "golden: 18 of the 19 example specs fully inferred"
is "$(spec 'examples/src/reduce.cu::count_nonfinite_kernel' '[.launch.block, .confidence.launch, .confidence.guesses[0]]')" \
    '[[256,1,1],"low","block size 256 x 1: not a constant at the launch site"]' \
    "golden: a kernel launched nowhere has a guessed block, and a low launch"

# Case sizes as the counts see them: every count and grid of every case
# evaluated with the case's scalars (sh arithmetic, 64 bits): no grid
# dimension below 1, no buffer over the case's budget (1 << 20 elements a
# buffer and 64 MiB in all; large: 1 << 24 and 512 MiB), as kwrap(1) says.
# cases_exprs FILE: id, case, what, element size, expression with values
cases_exprs() {
	jq -r '.id as $id | .wrap.spec as $s | $s.cases[] | . as $c |
	    ([$c.scalars | to_entries[] | select((.value | type) == "number" and
	    .value == (.value | floor) and (.value | fabs) < 1e15)] |
	    sort_by(-(.key | length))) as $b |
	    def bind: reduce $b[] as $e (.; gsub("(?<![A-Za-z0-9_.])" +
	        ($e.key | gsub("\\."; "\\.")) + "(?![A-Za-z0-9_])";
	        ($e.value | tostring)));
	    (($s.params[] | select(.count != null) | ["count " + .name,
	        (.element_size | tostring), (.count | tostring | bind)]),
	    ($s.launch.grid | to_entries[] | ["grid." + ("xyz"[.key:.key + 1]),
	        "0", (.value | tostring | bind)])) |
	    [$id, $c.name] + . | @tsv' "$1"
}
# check_cases FILE: one line per problem
check_cases() {
	: > "$T_TMP/case-bytes"
	cases_exprs "$1" | while IFS='	' read -r id name what size expr; do
		v=$( (eval "echo \$(( $expr ))") 2> /dev/null)
		case $v in
		'' | -*[!0-9]* | [!-]*[!0-9]*)
			echo "$id $name: $what = $expr does not evaluate"
			continue ;;
		esac
		cap=1048576
		[ "$name" != large ] || cap=16777216
		case $what in
		grid.*)
			[ "$v" -ge 1 ] || echo "$id $name: $what = $expr = $v" ;;
		*)
			[ "$v" -le "$cap" ] ||
			    echo "$id $name: $what = $expr = $v, over $cap"
			printf '%s\t%s\t%s\n' "$id" "$name" "$((v * size))" \
			    >> "$T_TMP/case-bytes" ;;
		esac
	done
	awk -F '\t' '{ sum[$1 " " $2] += $3; large[$1 " " $2] = $2 == "large" }
	    END { for (c in sum) if (sum[c] > (large[c] ? 536870912 : 67108864))
	        print c ": " sum[c] " bytes in all, over budget" }' \
	    "$T_TMP/case-bytes"
}
check_cases "$W" > "$T_TMP/case-problems"
is "$(cat "$T_TMP/case-problems")" "" \
    "cases: every count and grid evaluates, no grid dimension below 1, every buffer within budget"
is "$(cases_exprs "$W" | cut -f 1,2 | sort -u | wc -l | tr -d ' ')" 172 \
    "cases: all 172 example cases checked"
is "$(spec 'examples/src/attention.cu::kf::detail::causal_mask_kernel' \
    '[.cases[] | .scalars.seq]')" '[1024,1,16,32,785,4096,1024,1024,1024]' \
    "cases: seq * seq buffers take the square root of the budget"
is "$(spec 'examples/src/elementwise.cu::fill_kernel<int>' \
    '.cases[] | select(.name == "smallest") | .scalars.n')" 4 \
    "cases: smallest is raised until (n / 4 + 255) / 256 is one block"
is "$(spec 'examples/src/elementwise.cu::bias_act_kernel<float>' \
    '.cases[] | select(.name == "one_block") | [.scalars.rows, .scalars.cols]')" \
    '[32,8]' "cases: one_block scales rows and cols down to one block"
is "$(spec 'examples/src/attention.cu::kf::detail::causal_mask_kernel' \
    '[.cases[] | .scalars.fill]')" '["-inf",1.5,1.5,1.5,1.5,1.5,0,-2.5,1e+30]' \
    "cases: typical takes fill = -INFINITY from the only launch site"
jq -r --arg id 'examples/src/attention.cu::kf::detail::causal_mask_kernel' \
    'select(.id == $id) | .wrap.harness.code' "$W" |
    grep -qF 'fill = (float)-INFINITY;'
ok $? "cases: the harness binds fill = -INFINITY"
# a grid no sizes make positive: the case goes, and the guess says so
jq -c 'select(.id == "examples/src/elementwise.cu::fill_kernel<float>") |
    {id, spec: {launch: {grid: ["n / 0x7fffffffffff", "1", "1"]}}}' \
    "$W" > "$T_TMP/zero.ndjson"
run "$KWRAP" --spec "$T_TMP/zero.ndjson" < examples/kslice.ndjson
is "$(jq -c 'select(.id == "examples/src/elementwise.cu::fill_kernel<float>") |
    [(.wrap.spec.cases | length), (.wrap.spec.confidence.guesses |
    map(select(test("dropped"))) | length), (.errors // [] | length)]' \
    "$T_TMP/out")" '[0,9,1]' "cases: a case that cannot get a block is dropped"
is "$(jq -c 'select(.id == "examples/src/elementwise.cu::fill_kernel<float>") |
    [.wrap.spec.confidence.cases, .wrap.spec.confidence.overall]' "$T_TMP/out")" \
    '["low","low"]' "cases dropped: confidence never says high about them"
like "$(jq -r 'select(.id == "examples/src/elementwise.cu::fill_kernel<float>") |
    .errors[0].message' "$T_TMP/out")" \
    "spec has no cases: case typical dropped: no sizes give every grid dimension a block; case smallest dropped" \
    "the error says which cases were dropped and why"

# Counts from the bounds of every access (test/bounds/bounds.cu): each
# count checked against the kernel's text by hand.
run "$KWRAP" < test/bounds/kslice.ndjson
is "$T_STATUS" 0 "bounds: exit status 0"
cp "$T_TMP/out" "$T_TMP/b.ndjson"
# bcount(KERNEL, JQ): a jq expression on test/bounds' spec of KERNEL
bspec() {
	jq -c --arg id "test/bounds/bounds.cu::$1" \
	    "select(.id == \$id) | .wrap.spec | $2" "$T_TMP/b.ndjson"
}
is "$(bspec ball_query_kernel '[[.params[] | .count // empty], .confidence.counts]')" \
    '[["3 * b * m","3 * b * n","b * m * nsample + 1"],"high"]' \
    "bounds: pointer offsets (p += off), and a counter that stops at nsample"
is "$(bspec 'pool_kernel<float>' '[.params[] | select(.name == "input" or .name == "output") | .count]')" \
    '["((nthreads - 1) / pooled_w / pooled_h) * height * width + channels * height * width","nthreads"]' \
    "bounds: a flat index decomposed by % and /, a helper that clamps its coordinates"
is "$(bspec 'pool_kernel<float>' '.confidence.overall')" '"high"' \
    "bounds: pool_kernel fully inferred"
is "$(bspec rows_kernel '[[.params[] | .count // empty], .confidence.counts]')" \
    '[["rows * cols + k","rows * cols"],"high"]' \
    "bounds: loop variables up and down, min() on a loop's end"
is "$(bspec gather_kernel '[.confidence.counts, (.params[] | select(.name == "x" or .name == "where") | [.count, .fill])]')" \
    '["high",["4",{"kind":"uniform","lo":-1,"hi":1}],["n",{"kind":"uniform","lo":0,"hi":3}]]' \
    "bounds: an index read from a buffer that is filled with 0..3"
is "$(bspec roi_kernel '[.confidence.counts, (.params[] | select(.role == "in") | [.name, .count, .fill.hi])]')" \
    '["high",["input","4 * channels * height * width - height * width + 4",1],["rois","5 * ((nthreads - 1) / channels) + 2",3],["argmax","nthreads",3]]' \
    "bounds: a batch index read through a pointer alias, an int argmax"
is "$(bspec roi_kernel '[.cases[] | .fills // {} | [.rois.hi, .argmax.hi]] | unique')" \
    '[[null,null],[3,3]]' "bounds: every case keeps the fill of 0..3"
is "$(bspec unbounded_kernel '[.confidence.counts, (.params[] | select(.name == "where" or .name == "idx") | .fill.kind), (.confidence.guesses | map(select(test("^[xy]: "))) | length)]')" \
    '["low","uniform","indices",2]' \
    "bounds: a float scaled before it indexes, an index buffer also written: no bound"
is "$(bspec batch_kernel '[.launch.grid, .confidence.launch, .confidence.overall]')" \
    '[["(n + 255) / 256","c","b"],"high","high"]' \
    "bounds: grid.y and grid.z from one guard of three disjuncts that returns"
is "$(bspec clamp_kernel '[.confidence.counts, [.params[] | .count // empty]]')" \
    '["high",["width","n","5 * n"]]' \
    "bounds: the one assignment that reaches a use, not the hull; a loop's later assignment"
is "$(bspec transpose_kernel '[.launch, .params[0].count, .confidence.overall]')" \
    '[{"grid":["(cols + 15) / 16","(rows + 15) / 16","batch"],"block":[16,16,1],"shared_mem":"0"},"batch * rows * cols","high"]' \
    "bounds: grid.z and the block from the launch site that spells them, b passed to batch"
is "$(bspec row_scale_kernel '[.launch.grid, [.params[] | .count // empty], .confidence.overall]')" \
    '[["rows","1","1"],["rows * cols","cols","rows * cols"],"high"]' \
    "bounds: a row per block with no guard, the grid the launch site passes as rows"
is "$(bspec vec_kernel '[[.params[] | [.role, .count] | select(.[1] != null)], .launch.grid[0], .confidence.overall]')" \
    '[[["in","n + 3"],["out","n + 3"],["out","4 * m4"]],"(m4 + 255) / 256","high"]' \
    "bounds: float4 through (const float4 *)&x[4 * i] under 4 * i < n, stores through reinterpret_cast; the grid is the site's, n / 4 passed as m4"
is "$(spec 'examples/src/elementwise.cu::fill_kernel<int>' '.params[0] | [.role, .fill.kind]')" \
    '["out","sentinel"]' "golden: fill_kernel's int4 store makes p an output"
is "$(bspec warp_rows_kernel '[.launch.grid, .launch.block, .confidence.overall]')" \
    '[["(rows + 3) / 4","1","1"],[32,4,1],"high"]' \
    "bounds: blockIdx.x * blockDim.y + threadIdx.y covers rows in grid.x, in steps of block.y"
is "$(bspec cast_alias_kernel '[[.params[] | .role], .confidence.overall]')" \
    '[["in","out","scalar"],"high"]' \
    "bounds: a pointer cast once (reinterpret_cast, (float4 *)) is an alias: out is written"
is "$(bspec 'helper_write_kernel<float>' '[[.params[] | .role], .confidence.overall]')" \
    '[["in","out","scalar"],"high"]' \
    "bounds: a buffer passed to a device function that writes it is an output"
# launches held in locals, macros and helpers (test/bounds/launch.cu):
# the launch the launcher computes for a case's scalars
lspec() {
	jq -c --arg id "test/bounds/launch.cu::$1" \
	    "select(.id == \$id) | .wrap.spec | $2" "$T_TMP/b.ndjson"
}
is "$(lspec stride_copy_kernel '[.launch, .params[1].count, .confidence.launch, (.confidence.guesses | length)]')" \
    '[{"grid":["(n + 511) / 512","1","1"],"block":[512,1,1],"shared_mem":"0"},"n","high",1]' \
    "launch: a helper's grid with its default block and a cap left out (said), the local passed as n"
is "$(lspec tile_add_kernel '[.launch, .confidence.overall]')" \
    '[{"grid":["(cols + 31) / 32","(rows + 7) / 8","1"],"block":[32,8,1],"shared_mem":"0"},"high"]' \
    "launch: dim3 locals of a function-like macro, a constexpr and an enum constant"
is "$(lspec block_sum_kernel '[.launch, .params[1].count, .confidence.overall]')" \
    '[{"grid":["(n + 127) / 128","1","1"],"block":[128,1,1],"shared_mem":"512"},"(n + 127) / 128","high"]' \
    "launch: a block assigned once after its declaration, shared memory from the block's .x, one partial per block"
is "$(jq -sc '[.[] | select(.id | startswith("test/bounds/launch.cu::block_max_kernel<")) | .wrap.spec.launch.block[0]]' "$T_TMP/b.ndjson")" \
    '[256,16]' "launch: each instance gets the block of the switch case it is launched under"
# a resolved grid: constants folded, a product's parentheses dropped, the
# cap said for the one dimension that has it
printf '%s\n' '{"id":"capped","scan":{"name":"k","params":[{"name":"p","type":"float *","pointer_depth":1,"pointee_type":"float"},{"name":"rows","type":"int"},{"name":"cols","type":"int"},{"name":"batch","type":"int"}],"text":"__global__ void k(float *p, int rows, int cols, int batch) { int i = blockIdx.x * blockDim.x + threadIdx.x; int b = blockIdx.y; if (i < rows * cols && b < batch) p[b * rows * cols + i] = 0; }","launches":[{"file":"a.cu","line":3,"grid":"grid","block":"block","args":["q","r","c","n"],"resolved":{"grid":"dim3(min(((r * c) + 256 - 1) / 256, 65535), n, 1)","block":"dim3(256, 1, 1)","shared_mem":null,"args":["q","r","c","n"]}}]},"slice":{"code":"","launch":{"grid":"grid","block":"block","from":"a.cu:3"}}}' \
    > "$T_TMP/capped.ndjson"
run "$KWRAP" < "$T_TMP/capped.ndjson"
is "$(jq -c '[.wrap.spec.launch.grid, .wrap.spec.launch.block, .wrap.spec.confidence.guesses]' "$T_TMP/out")" \
    '[["(rows * cols + 255) / 256","batch","1"],[256,1,1],["grid.x: the launcher'"'"'s cap on the grid (min(blocks, constant)) left out: cases stay below it"]]' \
    "launch: a resolved dim3 grid in the parameters, folded, its cap said once"
# a block that stays a guess makes the launch low
printf '%s\n' '{"id":"guessed","scan":{"name":"k","params":[{"name":"p","type":"float *","pointer_depth":1,"pointee_type":"float"},{"name":"n","type":"int"}],"text":"__global__ void k(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 0; }","launches":[{"file":"a.cu","line":3,"grid":"g","block":"threads","args":["q","len"],"resolved":{"grid":"g","block":"threads","shared_mem":null,"args":["q","len"]}}]},"slice":{"code":"","launch":{"grid":"g","block":"threads","from":"a.cu:3"}}}' \
    > "$T_TMP/guessed.ndjson"
run "$KWRAP" < "$T_TMP/guessed.ndjson"
is "$(jq -c '[.wrap.spec.launch.block, .wrap.spec.confidence.launch, .wrap.spec.confidence.overall]' "$T_TMP/out")" \
    '[[256,1,1],"low","low"]' "launch: a guessed block size makes the launch low"
# the project's own grid: a grid-stride kernel launched with as many
# blocks as rows, the y index of a scalar grid
printf '%s\n' '{"id":"stride","scan":{"name":"k","params":[{"name":"p","type":"float *","pointer_depth":1,"pointee_type":"float"},{"name":"n","type":"int"},{"name":"w","type":"int"}],"text":"__global__ void k(float *p, int n, int w) { int y = blockIdx.y * blockDim.y + threadIdx.y; for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) p[i + y] = 0; }","launches":[{"file":"a.cu","line":3,"grid":"len / 512 + 1","block":"dim3(128, 2)","args":["q","len","4"]}]},"slice":{"code":"","launch":{"grid":"(n / 2 + 1) / 2","block":"dim3(128, 2)","from":"a.cu:3"}}}' \
    > "$T_TMP/stride.ndjson"
run "$KWRAP" < "$T_TMP/stride.ndjson"
is "$(jq -c '[.wrap.spec.launch, .wrap.spec.params[0].count, .wrap.spec.confidence.launch]' "$T_TMP/out")" \
    '[{"grid":["n / 512 + 1","1","1"],"block":[128,2,1],"shared_mem":"0"},"n + 1","high"]' \
    "launch site: its grid in the parameters it passes (len to n), one block in y"
check_cases "$T_TMP/b.ndjson" > "$T_TMP/case-problems"
is "$(cat "$T_TMP/case-problems")" "" \
    "bounds: every count and grid of every case evaluates within budget"

SAXPY='examples/src/hip/saxpy.hip::saxpy_kernel'
jq -r --arg id "$SAXPY" 'select(.id == $id) | .wrap.instruction.concise' "$W" \
    > "$T_TMP/concise"
is "$(cat "$T_TMP/concise")" 'Write the HIP kernel saxpy_kernel with the signature `__global__ void saxpy_kernel(int n, float a, const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ out)`: it reads x (float, n elements), y (float, n elements) and writes out (float, n elements). Launch: grid ((n + 255) / 256, 1, 1), block (256, 1, 1), 0 bytes of dynamic shared memory. Constraints: size parameters are at least 1; buffers hold exactly the sizes above; the kernel must not write input buffers nor outside the output sizes.' \
    "golden: saxpy concise instruction"
jq -r --arg id "$SAXPY" 'select(.id == $id) | .wrap.instruction.detailed' "$W" \
    > "$T_TMP/detailed"
like "$(grep -c '^| ' "$T_TMP/detailed")" '^6$' \
    "golden: saxpy detailed instruction has a parameter table"
ok "$(grep -c '|' "$T_TMP/concise")" "concise: no table"
missing=0
for part in 'Launch: grid ((n + 255) / 256, 1, 1)' 'Constraints: size parameters'; do
	grep -qF "$part" "$T_TMP/detailed" || missing=1
done
ok $missing "concise: says nothing detailed does not"

# a user spec overrides inference
printf '%s\n' "{\"id\":\"$SAXPY\",\"spec\":{\"params\":[{\"name\":\"out\",\"count\":\"n + 7\",\"role\":\"inout\"}],\"launch\":{\"block\":[128,1,1],\"grid\":[\"(n + 127) / 128\",\"1\",\"1\"]}}}" \
    > "$T_TMP/user.ndjson"
run "$KWRAP" --spec "$T_TMP/user.ndjson" < examples/kslice.ndjson
is "$T_STATUS" 0 "--spec: exit status 0"
is "$(jq -c --arg id "$SAXPY" 'select(.id == $id) | .wrap.spec |
    [.source, (.params[] | select(.name == "out") | .count, .role), .launch.block[0]]' \
    "$T_TMP/out")" '["user","n + 7","inout",128]' "--spec: user values win"
jq -r --arg id "$SAXPY" 'select(.id == $id) | .wrap.harness.code' "$T_TMP/out" |
    grep -qF 'kw_value(kw_n(kw_n(n) + 7), "count of out", "n + 7")'
ok $? "--spec: the harness follows the user spec"
is "$(jq -c --arg id "$QK" 'select(.id == $id) | .wrap.spec.source' "$T_TMP/out")" \
    '"inferred"' "--spec: other records are inferred"
# an expression longer than kwrap's buffers is an error, never cut short
names=$(seq -f 'a_rather_long_size_name_%02g' 0 24)
params=$(for n in $names; do printf '{"name":"%s","type":"int"},' "$n"; done)
sum=$(echo $names | sed 's/ / + /g')
printf '{"id":"long","scan":{"name":"k","params":[{"name":"p","type":"float *","pointer_depth":1,"pointee_type":"float"},%s],"text":"__global__ void k(float *p) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < %s) p[i] = 0; }"},"slice":{"code":""}}\n' \
    "${params%,}" "$sum" > "$T_TMP/long.ndjson"
run "$KWRAP" < "$T_TMP/long.ndjson"
is "$T_STATUS" 1 "too long: exit status 1"
is "$(jq -c '[.errors[].code, (.wrap | type)]' "$T_TMP/out")" '["too-long","null"]' \
    "too long: an error, and no spec made of a cut expression"
grep -q 'an expression is longer than 511 bytes' "$T_TMP/err"
ok $? "too long: said on stderr"

# a slice longer than 65536 tokens (a header-only library inlined into
# it) is read whole: the kernel gets its harness
seq -f '__device__ inline float unused_%g(float x, float y) { return x * y + 1.0f; }' \
    1 4000 > "$T_TMP/pad.cu"
head -n 1 examples/kslice.ndjson | jq -c --rawfile pad "$T_TMP/pad.cu" \
    '.slice.code = $pad + .slice.code' > "$T_TMP/many.ndjson"
run "$KWRAP" < "$T_TMP/many.ndjson"
is "$T_STATUS:$(jq -c '[(.errors // [] | length), (.wrap.harness.code | type)]' "$T_TMP/out")" \
    '0:[0,"string"]' "a slice of 80000 tokens: a harness, no error"
# past 1048576 tokens (14 times the 80000 above) the error says so, not
# that an expression is long
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do cat "$T_TMP/pad.cu"; done > "$T_TMP/pad14.cu"
head -n 1 examples/kslice.ndjson | jq -c --rawfile pad "$T_TMP/pad14.cu" \
    '.slice.code = $pad + .slice.code' > "$T_TMP/toomany.ndjson"
run "$KWRAP" < "$T_TMP/toomany.ndjson"
is "$T_STATUS:$(jq -c '[.errors[].code, (.wrap | type)]' "$T_TMP/out")" \
    '1:["too-long","null"]' "a slice past the token limit: too-long, no spec"
grep -q 'the slice has more than 1048576 tokens' "$T_TMP/err"
ok $? "and the message names the tokens"

# no fixed number of parameters: a kernel with 70 keeps every one
params=$(seq -f '{"name":"s%g","type":"int"},' 1 69 | tr -d '\n')
printf '{"id":"wide","scan":{"name":"k","params":[%s{"name":"p","type":"float *","pointer_depth":1,"pointee_type":"float"}],"text":"__global__ void k() { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < s69) p[i] = s1; }"},"slice":{"code":""}}\n' \
    "$params" > "$T_TMP/wide.ndjson"
run "$KWRAP" < "$T_TMP/wide.ndjson"
is "$(jq -c '[(.wrap.spec.params | length), (.wrap.spec.params[-1] | .name, .count)]' "$T_TMP/out")" \
    '[70,"p","s69"]' "70 parameters: all in the spec, the last one's count derived"

# one engine of counts: where an access has no bound, the guess is the
# largest of those that have one, and says which access had none
printf '%s\n' '{"id":"partial","scan":{"name":"k","params":[{"name":"p","type":"float *","pointer_depth":1,"pointee_type":"float"},{"name":"n","type":"int"}],"text":"__global__ void k(float *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { p[2 * i + 1] = 1; p[hash(i)] = 2; } }"},"slice":{"code":""}}' \
    > "$T_TMP/partial.ndjson"
run "$KWRAP" < "$T_TMP/partial.ndjson"
is "$(jq -c '[.wrap.spec.params[0].count, .wrap.spec.confidence.counts, (.wrap.spec.confidence.guesses[] | select(startswith("p:")))]' "$T_TMP/out")" \
    '["2 * n","low","p: count 2 * n: no bound for the access in \"p[hash(i)] =\""]' \
    "partial bounds: the guess is the bounded accesses' count"

# a fill is one value: the user's replaces the inferred one whole
printf '%s\n' "{\"id\":\"$SAXPY\",\"spec\":{\"params\":[{\"name\":\"x\",\"fill\":{\"kind\":\"constant\",\"value\":3}}]}}" \
    > "$T_TMP/fill.ndjson"
run "$KWRAP" --spec "$T_TMP/fill.ndjson" < examples/kslice.ndjson
is "$(jq -c --arg id "$SAXPY" 'select(.id == $id) | .wrap.spec.params[] |
    select(.name == "x") | .fill' "$T_TMP/out")" '{"kind":"constant","value":3}' \
    "--spec: a user's fill replaces the inferred fill whole"

# sizes that cannot be inferred: low confidence, not a crash
head -n 1 examples/kslice.ndjson | jq -c '.id = "opaque" |
    .scan.text = "__global__ void opaque(const float *in, float *out, int off) { out[threadIdx.x + off] = in[lookup(threadIdx.x)]; }" |
    .scan.params = [.scan.params[0], .scan.params[2], (.scan.params[3] | .name = "off")] |
    .scan.params[0].name = "in" | .scan.params[1].name = "out" |
    .slice.writes = ["out"] | .slice.reads = ["in"] | .slice.instance = {"T": "float"} |
    .slice.code = .scan.text | .slice.launch = null' > "$T_TMP/opaque.ndjson"
run "$KWRAP" < "$T_TMP/opaque.ndjson"
is "$T_STATUS" 0 "uninferable sizes: exit status 0"
is "$(jq -c '.wrap.spec.confidence | [.overall, .counts]' "$T_TMP/out")" \
    '["low","low"]' "uninferable sizes: low confidence"
like "$(jq -r '.wrap.spec.confidence.guesses[]' "$T_TMP/out")" \
    'count unknown' "uninferable sizes: the guess is listed"
cat "$T_TMP/out" >> "$T_TMP/all.ndjson"

# every harness compiles (CUDA: compiled and linked as harness.build says)
mkdir -p "$T_TMP/h"
jq -r '[.wrap.harness.dialect, .id] | @tsv' "$W" | awk '{ print NR "\t" $0 }' \
    > "$T_TMP/index"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=${CUDA:-$(dirname "$(dirname "$NVCC")")}
while IFS='	' read -r n dialect id; do
	sed -n "${n}p" "$W" | jq -r .wrap.harness.code > "$T_TMP/h/$n.$dialect"
	if [ "$dialect" = cuda ]; then
		if [ ! -x "$NVCC" ]; then
			skip "nvcc: $id harness builds" "nvcc is not installed"
			continue
		fi
		cp "$T_TMP/h/$n.cuda" "$T_TMP/h/harness.cu"
		if (cd "$T_TMP/h" && "$NVCC" -std=c++17 -O2 -x c++ -cudart none harness.cu \
		    -o "harness$n" -L"$CUDA/lib64/stubs" -lcuda) 2> "$T_TMP/h/$n.err"
		then
			pass "nvcc: $id harness builds"
		else
			fail "nvcc: $id harness builds"
			diag_file "$T_TMP/h/$n.err"
		fi
	elif command -v hipcc > /dev/null 2>&1; then
		cp "$T_TMP/h/$n.hip" "$T_TMP/h/harness.hip"
		if (cd "$T_TMP/h" && hipcc -std=c++17 -O2 --offload-arch=gfx90a \
		    -c harness.hip -o "harness$n.o") 2> "$T_TMP/h/$n.err"; then
			pass "hipcc: $id harness compiles"
		else
			fail "hipcc: $id harness compiles"
			diag_file "$T_TMP/h/$n.err"
		fi
	else
		skip "hipcc: $id harness compiles" "hipcc is not installed"
	fi
done < "$T_TMP/index"
if [ -x "$T_TMP/h/harness1" ]; then
	# --cases needs no GPU, but the program needs libcuda to start
	if out=$("$T_TMP/h/harness1" --cases 2> /dev/null); then
		is "$out" 9 "harness --cases prints the case count"
	else
		skip "harness --cases prints the case count" "no libcuda here"
	fi
fi
# the harness computes counts and grids in 64 bits and refuses what does not
# fit before it touches the driver, so the toolkit's stub libcuda (every
# call fails: exit 1) is enough to see it
STUB=$CUDA/lib64/stubs/libcuda.so
CAUSAL='examples/src/attention.cu::kf::detail::causal_mask_kernel'
if [ -x "$NVCC" ] && [ -f "$STUB" ]; then
	mkdir -p "$T_TMP/stub" "$T_TMP/o"
	ln -sf "$STUB" "$T_TMP/stub/libcuda.so.1"
	printf '%s\n' "{\"id\":\"$CAUSAL\",\"spec\":{\"params\":[{\"name\":\"masked\",\"count\":\"seq * seq * seq\"}],\"cases\":[{\"name\":\"wide\",\"seed\":1,\"scalars\":{\"seq\":65536,\"fill\":0}},{\"name\":\"empty\",\"seed\":2,\"scalars\":{\"seq\":0,\"fill\":0}},{\"name\":\"cube\",\"seed\":3,\"scalars\":{\"seq\":3000000,\"fill\":0}}]}}" \
	    > "$T_TMP/wide.ndjson"
	# kwrap refuses such a spec (tools/kwrap/validate.c); the harness's
	# own checks are seen on one made from sizes that pass, edited after
	"$KWRAP" --spec "$T_TMP/wide.ndjson" < examples/kslice.ndjson \
	    2> /dev/null | jq -r --arg id "$CAUSAL" \
	    'select(.id == $id) | .errors[0].message' > "$T_TMP/wide.err"
	like "$(cat "$T_TMP/wide.err")" 'params\[[0-9]+\]\.count: [0-9]+ in case wide, outside 0 to' \
	    "--spec: a count past the device's memory is refused, the field named"
	sed -e 's/65536,/11,/' -e 's/"seq":0,/"seq":7,/' -e 's/3000000,/13,/' \
	    "$T_TMP/wide.ndjson" > "$T_TMP/small.ndjson"
	"$KWRAP" --spec "$T_TMP/small.ndjson" < examples/kslice.ndjson |
	    jq -r --arg id "$CAUSAL" 'select(.id == $id) | .wrap.harness.code' |
	    sed -e 's/(int32_t)11LL;/(int32_t)65536LL;/' \
	    -e 's/(int32_t)7LL;/(int32_t)0LL;/' \
	    -e 's/(int32_t)13LL;/(int32_t)3000000LL;/' > "$T_TMP/stub/harness.cu"
	if (cd "$T_TMP/stub" && "$NVCC" -std=c++17 -O2 -x c++ -cudart none harness.cu \
	    -o harness -L"$CUDA/lib64/stubs" -lcuda) 2> "$T_TMP/stub/err"; then
		H=$T_TMP/stub/harness
		LD_LIBRARY_PATH=$T_TMP/stub "$H" m k "$T_TMP/o" --case 0 \
		    2> "$T_TMP/stub/e0"
		st=$?
		ok "$( [ $st -ne 4 ] && ! grep -q 'out of range\|overflow' \
		    "$T_TMP/stub/e0"; echo $?)" \
		    "harness: seq = 65536 gives seq * seq = 2^32 elements, not 0 (64-bit counts)"
		LD_LIBRARY_PATH=$T_TMP/stub "$H" m k "$T_TMP/o" --case 1 \
		    2> "$T_TMP/stub/e1"
		is "$? $(cat "$T_TMP/stub/e1")" \
		    '4 harness: launch configuration out of range: grid.x = 0, not in 1..2147483647' \
		    "harness: a zero grid is refused, exit 4"
		LD_LIBRARY_PATH=$T_TMP/stub "$H" m k "$T_TMP/o" --case 2 \
		    2> "$T_TMP/stub/e2"
		is "$? $(cat "$T_TMP/stub/e2")" \
		    '4 harness: count of masked = seq * seq * seq: overflows 64-bit arithmetic for this case' \
		    "harness: an overflowing count is refused, exit 4"
	else
		fail "harness: builds with a user spec's cases"
		diag_file "$T_TMP/stub/err"
	fi
else
	skip "harness: 64-bit counts and grids" "nvcc or its stub libcuda missing"
fi
# __constant__ arrays the kernel reads are filled through the module
CONV=examples/src/conv1d.cu::conv1d_kernel
is "$(spec "$CONV" '.globals')" \
    '[{"name":"c_taps","type":"float","dtype":"float32","element_size":4,"count":"9","fill":{"kind":"uniform","lo":-1,"hi":1}}]' \
    "__constant__: c_taps[CONV_TAPS] is a global input of 9 floats"
jq -r --arg id "$CONV" 'select(.id == $id) | .wrap.harness.code' "$W" > "$T_TMP/conv.cu"
is "$(grep -c 'kw_b\[kw_nb\].name = "c_taps";.*kw_b\[kw_nb\].global = 1;' "$T_TMP/conv.cu")" 1 \
    "__constant__: the harness fills c_taps through the module"
like "$(jq -r --arg id "$CONV" 'select(.id == $id) | .wrap.instruction.concise' "$W")" \
    "reads the file-scope __constant__ float c_taps\[9\]" \
    "__constant__: the instruction tells a candidate to declare it"
jq -c --arg id "$CONV" 'select(.id == $id) | .slice.code |=
    sub("float c_taps\\[CONV_TAPS\\];"; "float c_taps[CONV_TAPS] = {1, 2, 3, 4, 5, 4, 3, 2, 1};")' \
    examples/kslice.ndjson > "$T_TMP/conv-init.ndjson"
jq -c --arg id "$CONV" 'select(.id == $id) | .slice.code |=
    sub("__constant__ float c_taps"; "struct tap { float w; };\n__constant__ tap c_taps")' \
    examples/kslice.ndjson >> "$T_TMP/conv-init.ndjson"
run "$KWRAP" < "$T_TMP/conv-init.ndjson"
is "$(jq -c '[.wrap.spec.globals, (.wrap.spec.confidence.guesses | map(select(test("__constant__"))))]' "$T_TMP/out" | tr '\n' ' ')" \
    '[null,[]] [null,["__constant__ tap c_taps: a type kwrap cannot fill, not filled"]] ' \
    "__constant__: one with an initializer is the module's data; one of a struct type is said, not filled"

# a CPU reference in wrap.reference_cpu is compiled into the harness
RELU_CPU='#include <stddef.h>
void relu_kernel_cpu(const float *restrict in, float *out, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = in[i] > 0 ? in[i] : 0.0f;
}'
jq -c --arg c "$RELU_CPU" 'select(.id | endswith("::relu_kernel")) |
    .wrap.reference_cpu = {code: $c, language: "c", source: "user"}' \
    examples/kwrap.ndjson > "$T_TMP/ref.in"
jq -c --arg c "$RELU_CPU" 'select(.id | endswith("::square_kernel")) |
    .wrap.reference_cpu = {code: $c, language: "c", source: "user"}' \
    examples/kwrap.ndjson >> "$T_TMP/ref.in"
run "$KWRAP" < "$T_TMP/ref.in"
is "$T_STATUS:$(jq -c '[.wrap.harness.oracle, .wrap.reference_cpu.oracle,
    .wrap.reference_cpu.why]' "$T_TMP/out" | tr '\n' ' ')" \
    '0:[true,true,null] [false,false,"reference_cpu does not define the function KERNEL_cpu"] ' \
    "reference_cpu: compiled in when it defines KERNEL_cpu, kept and said why not otherwise"
is "$(sed -n 1p "$T_TMP/out" | jq -r .wrap.harness.code | grep -c \
    'relu_kernel_cpu(kw_anyptr{kb\[0\].host.data()}, kw_anyptr{kb\[1\].host.data()}, n);')" 1 \
    "reference_cpu: called with the host buffers and scalars in the kernel's order"
is "$(sed -n 2p "$T_TMP/out" | jq -r .wrap.harness.code | grep -c 'relu_kernel_cpu\|kw_oracle_fn')" 0 \
    "reference_cpu: not compiled in when unusable"
printf '%s\n' "{\"id\":\"$(sed -n 1p "$T_TMP/ref.in" | jq -r .id)\",\"spec\":{\"params\":[{\"name\":\"in\",\"type\":\"__half\",\"dtype\":\"float16\"}]}}" \
    > "$T_TMP/half.ndjson"
sed -n 1p "$T_TMP/ref.in" | "$KWRAP" --spec "$T_TMP/half.ndjson" 2> /dev/null |
    jq -c '[.wrap.harness.oracle, .wrap.reference_cpu.oracle, .wrap.reference_cpu.why]' > "$T_TMP/o16"
is "$(cat "$T_TMP/o16")" '[false,false,"a parameter is float16 or bfloat16, which C has no type for"]' \
    "reference_cpu: not compiled in for a type C cannot name"
cat "$T_TMP/out" >> "$T_TMP/all.ndjson"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=${CUDA:-$(dirname "$(dirname "$NVCC")")}
if [ -x "$NVCC" ] && [ -e "$CUDA/lib64/stubs/libcuda.so" ]; then
	mkdir -p "$T_TMP/oracle"
	sed -n 1p "$T_TMP/out" | jq -r .wrap.harness.code > "$T_TMP/oracle/harness.cu"
	if (cd "$T_TMP/oracle" && "$NVCC" -std=c++17 -O2 -x c++ -cudart none \
	    harness.cu -o harness -L"$CUDA/lib64/stubs" -lcuda) 2> "$T_TMP/oracle/err"
	then
		pass "reference_cpu: the harness with the CPU reference builds"
	else
		fail "reference_cpu: the harness with the CPU reference builds"
		diag_file "$T_TMP/oracle/err"
	fi
else
	skip "reference_cpu: the harness with the CPU reference builds" "nvcc or its stub libcuda missing"
fi

# one generator: the CUDA harness of a HIP record and the other way round
run "$KWRAP" --dialect hip < examples/kslice.ndjson
is "$(jq -r .wrap.harness.dialect "$T_TMP/out" | sort -u)" hip "--dialect hip"
is "$(jq -r '.wrap.harness.code' "$T_TMP/out" | grep -c '^#define KW_HIP 1')" 19 \
    "--dialect hip: every harness is HIP"

# bad input: each line gives one record, the run goes on
{
	echo '{"id":"no-slice"}'
	echo 'this is not json'
	sed -n 3p examples/kslice.ndjson
} > "$T_TMP/bad.ndjson"
run "$KWRAP" < "$T_TMP/bad.ndjson"
is "$T_STATUS" 1 "bad input: exit status 1"
is "$(wc -l < "$T_TMP/out" | tr -d ' ')" 3 "bad input: lines in = lines out"
is "$(jq -r '.errors[0].code // "none"' "$T_TMP/out" | tr '\n' ' ')" \
    "no-slice invalid-json none " "bad input: error codes"
cat "$T_TMP/out" >> "$T_TMP/all.ndjson"

run "$KWRAP" --dialect sass < /dev/null
is "$T_STATUS" 2 "usage: a bad --dialect is exit status 2"
printf 'not json\n' > "$T_TMP/badspec.ndjson"
run "$KWRAP" --spec "$T_TMP/badspec.ndjson" < /dev/null
is "$T_STATUS" 2 "usage: a bad --spec file is exit status 2"

if python3 -c 'import jsonschema' 2> /dev/null; then
	run test/validate examples/kwrap.ndjson "$T_TMP/all.ndjson"
	is "$T_STATUS" 0 "schemas: every output validates"
	[ "$T_STATUS" = 0 ] || diag_file "$T_TMP/out"
else
	skip "schemas: every output validates" "python3-jsonschema missing"
fi
done_testing
