#!/bin/sh
# Specs that keep the reference in bounds on its own cases
# (test/sizes/sizes.cu, saved as test/sizes/kslice.ndjson): dynamic shared
# memory taken through a helper, stores through pointers assigned after
# their declaration and stepped in loops, values read from a buffer and
# used as indices, indices kept in on-chip arrays (test/onchip/); every
# harness compiled with nvcc.  Helpers that take a pointer and
# template-argument constexprs: test/sizes/helpers.cu; row pitches:
# test/sizes/pitch.cu; remainders by a multiple: test/sizes/modulo.cu.
. "$(dirname "$0")/lib.sh"

if ! have_tool kwrap; then
	skip_all "kwrap is not built"
fi
KWRAP=$(tool kwrap)

run "$KWRAP" < test/sizes/kslice.ndjson
is "$T_STATUS" 0 "sizes: exit status 0"
cp "$T_TMP/out" "$T_TMP/s.ndjson"
# spec_of OUT FILE KERNEL EXPR: EXPR over the spec of FILE::KERNEL
# among the records of OUT
spec_of() {
	jq -c --arg id "$2::$3" "select(.id == \$id) | .wrap.spec | $4" "$1"
}
# sspec(KERNEL, JQ): a jq expression on the spec of test/sizes' KERNEL
sspec() { spec_of "$T_TMP/s.ndjson" test/sizes/sizes.cu "$@"; }

is "$(sspec 'shared_helper_kernel<float>' '[.launch.shared_mem, .confidence.overall]')" \
    '["1024","high"]' \
    "shared memory through SharedMem<T>(): the local's accesses size it (2 * 128 floats)"
is "$(sspec deref_kernel '[[.params[] | .count // empty], .confidence.counts]')" \
    '[["n","2 * n","n * rows"],"high"]' \
    "stores through q assigned after T *q; and through c += n in a loop of rows trips"
is "$(sspec deref_index_kernel '[(.params[] | select(.name == "map" or .name == "w" or .name == "x") | [.count, .fill.lo, .fill.hi]), .confidence.counts]')" \
    '[["n * taps",0,3],["taps",0,3],["3 * taps + 4",-1,1],"high"]' \
    "indices read through (int)(*(map + k)) and *(w + k): 0..3, and x sized by them"
is "$(sspec one_based_kernel '[(.params[] | select(.name == "idx" or .name == "x") | [.count, .fill.lo, .fill.hi]), .confidence.counts]')" \
    '[["n",1,4],["4",-1,1],"high"]' \
    "indices counted from 1 (x[idx[i] - 1]): filled with 1..4, x holds 4"
is "$(sspec one_based_kernel '[.cases[] | .fills.idx // empty | [.lo, .hi]] | unique')" \
    '[[1,4]]' "every case keeps the fill of 1..4"
is "$(sspec vector_type_kernel '[(.params[] | select(.role != "scalar") | [.type, .dtype, .element_size, .count]), .confidence.counts]')" \
    '[["real_t","float32",4,"n"],["float2","float32",4,"2 * n"],["float2","float32",4,"2 * n"],"high"]' \
    "element types through clang's canonical type (real_t) and vector types counted in their elements (float2)"
like "$(jq -r 'select(.id == "test/sizes/sizes.cu::vector_type_kernel") | .wrap.instruction.concise' "$T_TMP/s.ndjson")" \
    'z \(float2, 2 \* n elements of float32\)' \
    "the instruction says what a vector buffer's count counts"
is "$(sspec guarded_index_kernel '[(.params[] | select(.name == "nbr") | .fill), ([.cases[] | .scalars.npts] | min)]')" \
    '[{"kind":"int","lo":0,"hi":3},4]' \
    "a scalar an index is compared with (k >= npts, assert(first < npts)) is at least 4 in every case"
is "$(sspec deref_index_kernel '[.cases[] | .scalars.taps] | min')" '1' \
    "a scalar no index is compared with keeps its smallest case"
is "$(sspec stepped_offset_kernel '[.params[] | select(.role != "scalar") | .count]')" \
    '["2 * n * levels * points","n * levels * points","n"]' \
    "integer offsets stepped in loops of bounded trips (at += 2) bound their reads"
like "$(sspec stepped_offset_kernel '.confidence.guesses | join(";")')" \
    'w: count .*no bound for the access in .*w\[back\]' \
    "a step in a loop whose body moves its own variable has no bound"

# Indices kept in on-chip arrays (test/onchip/onchip.cu): a read of a
# __shared__ or local array holds what was stored into it
# (timeout: a hang guard, the whole file takes well under a second; an
# evaluation repeated inside every read of a reassigned variable once
# took minutes on farthest_kernel)
run timeout 300 "$KWRAP" < test/onchip/kslice.ndjson
is "$T_STATUS" 0 "onchip: exit status 0, no evaluation without end"
cat "$T_TMP/out" >> "$T_TMP/s.ndjson"
ospec() { spec_of "$T_TMP/s.ndjson" test/onchip/onchip.cu "$@"; }
is "$(ospec 'argmax_row_kernel<128>' '[(.params[] | select(.role != "scalar") | .count), .confidence.counts]')" \
    '["rows","rows * width","width","high"]' \
    "an index reduced through shared memory by a helper keeping one of two candidates bounds the row it picks"
is "$(ospec local_index_kernel '[(.params[] | select(.role != "scalar") | .count), .confidence.counts]')" \
    '["n * m","7 * m","n","high"]' \
    "a local array of indices stored in a loop and an initialized local array of offsets bound the gather"
is "$(ospec unbounded_onchip_kernel '[(.params[] | select(.name == "x" or .name == "y") | .count), .confidence.counts]')" \
    '["1048576","1048576","low"]' \
    "a running sum stored back (s[t] += ...) and an address given to an atomic leave the arrays unbounded"
is "$(ospec self_assigned_kernel '[(.params[] | select(.role != "scalar") | .count), .confidence.counts]')" \
    '["n * m","n","m","low"]' \
    "best = ... ? j : best in a loop stays in the loop's range; c = c + 1 in a loop has no bound"
is "$(ospec level_gather_kernel '[(.params[] | select(.role != "scalar") | [.count, .fill.lo, .fill.hi]), .confidence.counts]')" \
    '[["2 * levels",0,3],["levels",0,3],["12",-1,1],["n",null,null],"high"]' \
    "sizes read from an input buffer and passed to a helper by const reference bound its read (shapes and starts filled with 0..3)"
is "$(ospec warp_argmax_kernel '[(.params[] | select(.role != "scalar") | .count), .confidence.counts]')" \
    '["rows * cols","cols","rows","high"]' \
    "an index reduced across a warp with __shfl_down_sync stays in its own variable's range"
is "$(ospec chained_onchip_kernel '[(.params[] | select(.role != "scalar") | .count), .confidence.counts]')" \
    '["n + 128","128","high"]' \
    "a value carried through two arrays and a scalar, each keeping its old value or the one before it, stays a thread index"
is "$(ospec 'farthest_kernel<64>' '[(.params[] | select(.role != "scalar") | .count), .confidence.counts]')" \
    '["2 * n","n","rounds","high"]' \
    "a winner reduced level by level and carried to the next round as its centre stays a point index"

# Outputs that start zeroed (test/fills/zeroed.cu): stores that only
# happen where data or a mode says, and sums accumulated by atomicAdd,
# get an inout buffer filled with 0 in every case; stores under bounds
# guards and atomicMin targets keep their sentinel or fill
run "$KWRAP" < test/fills/kslice.ndjson
is "$T_STATUS" 0 "fills: exit status 0"
cat "$T_TMP/out" >> "$T_TMP/s.ndjson"
zspec() { spec_of "$T_TMP/out" test/fills/zeroed.cu "$@"; }
# zbuf(KERNEL, BUFFER): role, first fill and every case's fill of BUFFER
zbuf() {
	zspec "$1" "[(.params[] | select(.name == \"$2\") | .role, .fill),
	    ([.cases[] | .fills.$2 // empty] | unique)]"
}
is "$(zbuf skip_on_data_kernel y)" \
    '["inout",{"kind":"constant","value":0},[{"kind":"constant","value":0}]]' \
    "a store skipped by continue on a value read from a buffer: y starts zeroed in every case"
is "$(zbuf bounds_only_kernel y)" '["out",{"kind":"sentinel"},[]]' \
    "a store under a bounds guard only: y stays a pure output"
is "$(zbuf counted_flag_kernel flag)" \
    '["inout",{"kind":"constant","value":0},[{"kind":"constant","value":0}]]' \
    "a count incremented under a condition on data decides the store: flag starts zeroed"
is "$(zbuf mode_kernel out)" \
    '["inout",{"kind":"constant","value":0},[{"kind":"constant","value":0}]]' \
    "a bool scalar selects how much is written: out starts zeroed"
is "$(zbuf scatter_add_kernel grad)" \
    '["inout",{"kind":"constant","value":0},[{"kind":"constant","value":0}]]' \
    "sums accumulated by atomicAdd start from zero"
is "$(zbuf scatter_min_kernel best)" \
    '["inout",{"kind":"int","lo":0,"hi":100},[{"kind":"int","lo":-100,"hi":-1},{"kind":"int","lo":-1073741824,"hi":1073741823},{"kind":"constant","value":0}]]' \
    "an atomicMin target keeps the caller's start: its fill as before"
is "$(zspec finite_flag_kernel '[(.params[] | select(.name == "flag") | .role, .count, .fill), ([.cases[] | .fills.flag // empty] | unique)]')" \
    '["inout","1",{"kind":"constant","value":0},[{"kind":"constant","value":0}]]' \
    "*flag = 1 right after if (!isfinite(x[j])), *flag = 0 under if (clear_first) with clear_first an int: one element, starts zeroed"
is "$(zbuf first_flag_kernel flag)" '["out",{"kind":"sentinel"},[]]' \
    "near miss: *flag under a test of the thread index only stays a pure output"
is "$(zbuf decoded_flag_kernel flag)" \
    '["inout",{"kind":"constant","value":0},[{"kind":"constant","value":0}]]' \
    "decode(p[i], v); as a statement sets v from data through a reference: a flag set where v > 0.5 starts zeroed"
is "$(zbuf noop_scale_kernel noop)" \
    '["in",{"kind":"constant","value":0},[{"kind":"constant","value":0}]]' \
    "if (noop && *noop != 0) return; first in the body: the flag is filled with 0 in every case, so that the kernel runs; only read, an input"
is "$(zbuf armed_scale_kernel armed | jq -c '.[1]')" '{"kind":"int","lo":0,"hi":100}' \
    "near miss: if (armed[0] == 0) return; would fire at 0: armed keeps its fill"
like "$(zspec skip_on_data_kernel '.confidence.guesses | join(";")')" \
    'y: every store is under a condition on data or a mode: starts zeroed' \
    "the spec says why y starts zeroed"
is "$(zspec pool_mode_kernel '[.cases[] | .scalars.pool_mode] | unique')" \
    '[-3,0,1]' \
    "a scalar only compared for equality takes a value it is compared with (0), its switch case the other (1)"
is "$(zspec mode_kernel '[.cases[0].scalars.aligned, ([.cases[] | .scalars.aligned] | unique)]')" \
    '[true,[false,true]]' "a bool mode keeps both values among the cases"
# Segment offsets (test/fills/offsets.cu): read at [b] and [b + 1] and
# taken as a segment, filled so that they never decrease
fspec() { spec_of "$T_TMP/out" test/fills/offsets.cu "$@"; }
is "$(fspec packed_rows_kernel '[(.params[] | select(.name == "first") | .fill), ([.cases[] | .fills.first // empty] | unique)]')" \
    '[{"kind":"offsets","lo":0,"hi":3},[{"kind":"offsets","lo":0,"hi":3}]]' \
    "offsets whose difference is a length never decrease, in every case"
is "$(fspec segment_sum_kernel '[.params[] | select(.name == "row" or .name == "v") | [.count, .fill.kind]]')" \
    '[["n + 1","offsets"],["3","uniform"]]' \
    "a loop from row[r] to row[r + 1]: offsets in 0..3, and v sized by them"
is "$(fspec shape_pairs_kernel '[.params[] | select(.name == "shapes") | .fill.kind]')" \
    '["int"]' "a height and a width read as a pair are no offsets"
is "$(fspec csr_rows_kernel '[.params[] | select(.name == "rowptr" or .name == "col") | [.count, .fill.kind]]')" \
    '[["n + 1","offsets"],["3","int"]]' \
    "a loop from row[r] to row[r + 1] spelled in its header: offsets"
is "$(fspec packed_tokens_kernel '[(.params[] | select(.name == "first") | .fill), ([.cases[] | .fills.first // empty] | unique)]')" \
    '[{"kind":"offsets","lo":0,"hi":3},[{"kind":"offsets","lo":0,"hi":3}]]' \
    "a position taken from first[b] and compared with first[b + 1]: offsets, in every case"
is "$(fspec segment_of_kernel '[.params[] | select(.name == "starts") | .fill.kind]')" \
    '["offsets"]' "a table a helper bisects at (lo + hi) >> 1 never decreases"
is "$(fspec segment_of_kernel '[(.params[] | select(.role != "scalar") | .count), .confidence.counts]')" \
    '["(2 * n - 1) / 2 + 1","n + 1","n","high"]' \
    "a bisection's bounds (lo = mid + 1, hi = mid) stay between where they started: the table and the segment it returns bounded"
is "$(fspec pair_bound_kernel '[.params[] | select(.name == "dims") | .fill.kind]')" \
    '["int"]' "a pair's second bounding a value not taken from its first is no offsets"
# Scatter maps (test/fills/scatter.cu): a map whose values pick where a
# store without an atomic lands holds distinct values, at most its count
# less one, which sizes the buffer stored to
scspec() { spec_of "$T_TMP/out" test/fills/scatter.cu "$@"; }
scbuf() {
	scspec "$1" '[.params[] | select(.role != "scalar") | [.name, .count, .fill.kind]]'
}
is "$(scbuf scatter_rows_kernel)" \
    '[["x","n * c","uniform"],["omap","n","distinct"],["out","n * c","uniform"]]' \
    "out[c * omap[k] + j] += v: the map distinct, out one row per map element"
is "$(scspec scatter_rows_kernel '[([.cases[] | .fills.omap // empty] | unique), .confidence.counts]')" \
    '[[{"kind":"distinct","lo":0}],"high"]' "the map is distinct in every case"
is "$(scbuf scatter_local_kernel | jq -c '.[1:]')" \
    '[["idx","n","distinct"],["out","n","constant"]]' \
    "a local set from the map (o = k < n ? idx[k] : -1) picking out[o]: distinct"
is "$(scbuf gather_rows_kernel | jq -c '[.[0], .[1]]')" \
    '[["x","4 * c","uniform"],["imap","n","int"]]' \
    "a map picking what is read keeps integers 0..3"
is "$(scbuf scatter_atomic_kernel | jq -c '[.[1], .[2]]')" \
    '[["idx","n","int"],["out","4","constant"]]' \
    "a map picking where an atomic adds keeps integers 0..3: no race"
jq -c 'select(.id | startswith("test/fills/scatter.cu::"))' "$T_TMP/out" \
    > "$T_TMP/sc.ndjson"
# Index maps (test/fills/indexmap.cu): a map reached through a chain of
# pointer locals, not const but never written, holds indices
ispec() { spec_of "$T_TMP/out" test/fills/indexmap.cu "$@"; }
# ibuf(KERNEL): each buffer's name, count and fill
ibuf() {
	ispec "$1" '[.params[] | select(.role != "scalar") | [.name, .count, .fill]]'
}
is "$(ibuf map_gather_kernel)" \
    '[["feat","4 * chans",{"kind":"uniform","lo":-1,"hi":1}],["nbr_map","rows * vol",{"kind":"int","lo":0,"hi":3}],["out","chans * rows * vol",{"kind":"sentinel"}]]' \
    "a map read through two pointer locals holds indices 0..3, and the buffer it indexes with a stride is sized for them"
is "$(ispec map_gather_kernel '[.cases[] | .fills.nbr_map // empty] | unique')" \
    '[{"kind":"int","lo":0,"hi":3}]' "the map holds indices in every case"
is "$(ibuf map_reset_kernel | jq -c '.[0]')" \
    '["nbr_map","rows * vol",{"kind":"int","lo":0,"hi":100}]' \
    "a map the kernel writes keeps the default fill"
is "$(ispec quad_rows_kernel '[([.params[] | select(.role != "scalar") | .count]), .confidence.counts]')" \
    '[["n * c - c + 4 * ((c + 4) / 4)","n * c - c + 4 * ((c + 4) / 4)"],"high"]' \
    "index % (c >> 2), a divisor that is 0 only where the kernel has no meaning, is below it: counts derived (the last lane of (j << 2) + l rounded to 4)"
is "$(ispec vec_rows_kernel '[[.cases[] | .scalars.chans | select(. % 4 != 0)], ([.cases[] | .scalars.rows | select(. % 4 != 0)] | length > 0)]')" \
    '[[],true]' \
    "the stride of a float4 load (r * chans) is a multiple of 4 in every case; the row count is not held to it"

# every harness compiles as harness.build says
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=${CUDA:-$(dirname "$(dirname "$NVCC")")}
mkdir -p "$T_TMP/h"
# builds FILE: each record's harness of FILE compiles
builds() {
	n=0
	jq -r .id "$1" > "$T_TMP/ids"
	while read -r id; do
		n=$((n + 1))
		if [ ! -x "$NVCC" ]; then
			skip "nvcc: $id harness builds" "nvcc is not installed"
			continue
		fi
		sed -n "${n}p" "$1" | jq -r .wrap.harness.code \
		    > "$T_TMP/h/harness.cu"
		if (cd "$T_TMP/h" && "$NVCC" -std=c++17 -O2 -x c++ \
		    -cudart none harness.cu -o harness \
		    -L"$CUDA/lib64/stubs" -lcuda) 2> "$T_TMP/h/err"; then
			pass "nvcc: $id harness builds"
		else
			fail "nvcc: $id harness builds"
			diag_file "$T_TMP/h/err"
		fi
	done < "$T_TMP/ids"
}
builds "$T_TMP/s.ndjson"

# Accesses through helpers that take a pointer, launch shapes from
# constexprs of the template argument (test/sizes/helpers.cu, saved as
# test/sizes/helpers.ndjson)
run "$KWRAP" < test/sizes/helpers.ndjson
is "$T_STATUS" 0 "helpers: exit status 0"
cp "$T_TMP/out" "$T_TMP/h.ndjson"
hspec() { spec_of "$T_TMP/h.ndjson" test/sizes/helpers.cu "$@"; }
is "$(hspec 'tile_rows_kernel<3>' '[.launch.block, .launch.grid]')" \
    '[[8,4,1],["(rows + 3) / 4","1","1"]]' \
    "block from the site's (1 << 3) < 32 ? ... : 32, evaluated"
is "$(hspec 'tile_rows_kernel<3>' '[[.params[] | .count // empty], .confidence.counts]')" \
    '[["rows * cols - cols + 8","rows * cols - cols + 8"],"high"]' \
    "move_n<float, VEC>(v, in + ...) with VEC = 1: the one-element specialization"
is "$(hspec 'tile_rows_kernel<8>' '[.launch.block, [.params[] | .count // empty], .confidence.counts]')" \
    '[[32,4,1],["rows * cols - cols + 256","rows * cols - cols + 256"],"high"]' \
    "VEC = pick_vec(256) = 4: the float4 specialization, s < 8 stepping by 4"
is "$(hspec 'tile_rows_kernel<8>' '[[.params[] | select(.role != "scalar") | .role], .confidence.roles]')" \
    '[["inout","in"],"high"]' \
    "out seen written through the float4 specialization's *reinterpret_cast<float4 *>(to) = ... (out += first reads as a use: inout)"
is "$(hspec 'pair_sum_kernel<3>' '[[.params[] | .count // empty], .confidence.counts]')" \
    '[["n","6 * n"],"high"]' \
    "sum_n<float, 2 * HALF>: the primary template's loop bound N bound to 6"
is "$(hspec head_rows_kernel '[.launch.grid, [.params[] | .count // empty], .confidence.launch]')" \
    '[["rows / 4","1","1"],["rows * cols","rows * cols"],"high"]' \
    "grid dim3(q / 4, h, b) with rows = b * h * q: the launch where b and h are 1"
builds "$T_TMP/h.ndjson"
# a block that a CUB block collective fixes (test/sizes/collective.cu,
# saved as test/sizes/collective.ndjson)
"$KWRAP" < test/sizes/collective.ndjson > "$T_TMP/c.ndjson" 2> /dev/null
cspec() { spec_of "$T_TMP/c.ndjson" test/sizes/collective.cu "$@"; }
is "$(cspec 'block_sums<128>' '[.launch.block, .confidence.guesses]')" '[[128,1,1],[]]' \
    "launched with a block of threads_for(n): cub::BlockReduce<float, THREADS> makes it 128, no guess"
is "$(cspec own_reduce '[.launch.block, (.confidence.guesses | map(select(test("block size"))) | length)]')" '[[256,1,1],1]' \
    "near miss: a project's own BlockReduce<float, 64> does not fix the block (a guess of 256)"
# guards on an index expression the subscript spells again
# (test/sizes/exprguard.cu, saved as test/sizes/exprguard.ndjson)
"$KWRAP" < test/sizes/exprguard.ndjson > "$T_TMP/g.ndjson" 2> /dev/null
gspec() { spec_of "$T_TMP/g.ndjson" test/sizes/exprguard.cu "$@"; }
is "$(gspec tile_flip '[.params[] | .count // empty]')" '["n","n"]' \
    "if (base + k < n) y[base + k] and base + k < n ? x[base + k]: both hold n (not n + 1023)"
is "$(gspec row_scale '[.params[] | .count // empty]')" '["rows * cols","rows * cols"]' \
    "r * cols + c < rows * cols, r and c declared in one statement (ints: the bound is strict)"
is "$(gspec 'tree_sum<32>' '.launch.shared_mem') $(gspec 'tree_sum<64>' '.launch.shared_mem')" \
    '"128" "256"' \
    "dynamic shared memory from the code the instance runs: if (B >= 64 && t < 32) is dead in tree_sum<32>"
is "$(gspec row_tail '[.params[] | .count // empty]')" '["rows * cols","rows * cols"]' \
    "row * cols + k * blockDim.x + t under if (k * blockDim.x + t < cols): the guarded last terms stay below cols"
is "$(gspec rows_auto '[.params[] | .count // empty]')" '["n1 * n2","n1","n1 * n2"]' \
    "for (auto i1 = blockIdx.y; i1 < n1; ...): auto from an index is an integer, i1 < n1 is strict (not n1 + 1 rows)"
is "$(gspec outer_split '[.params[] | .count // empty]')" '["n","m","n * m"]' \
    "i = index / m for index < n * m: at most n - 1, so out holds n * m and x n"
is "$(gspec rows_of_warps '[.launch.grid[0], .launch.block[0], [.params[] | .count // empty]]')" '["(rows + 3) / 4",128,["rows","rows"]]' \
    "row = blockIdx.x * 4 + threadIdx.x / 32 through a block-index local: a block covers 4 rows, the grid is (rows + 3) / 4"
is "$(gspec rows_in_helper '[.launch.grid[0], (.confidence.guesses | map(select(test("^grid"))))]')" \
    '["1",["grid: one block (a block index is used only in functions the kernel calls, whose range kwrap does not widen)"]]' \
    "a block index read only in a helper the kernel calls: one block, and the guess says so (not that no block index is used)"
is "$(gspec moved_base '[.params[] | select(.name == "y") | .count]')" '["n + 256"]' \
    "near miss: base += 1 after the guard: the store at base + k is not bounded by the guard's expression (n), only by base's own bound plus the step and k's (n + 256)"

# launches under the launcher's conditions (test/sizes/dispatch.cu,
# saved as test/sizes/dispatch.ndjson)
"$KWRAP" < test/sizes/dispatch.ndjson > "$T_TMP/d.ndjson" 2> /dev/null
dspec() { spec_of "$T_TMP/d.ndjson" test/sizes/dispatch.cu "$@"; }
is "$(dspec tile_rows '[.cases[] | .scalars | select(.cols % 32 != 0 or .cols < 32 or .rows < 4)] | length')" '0' \
    "launched under if (cols % 32 == 0 && rows >= 4): cols a multiple of 32 and rows at least 4 in every case"
is "$(dspec tile_rows '.cases[] | select(.name == "smallest") | .scalars')" '{"rows":4,"cols":32}' \
    "the smallest case at the least the launch keeps (rows 4, cols 32): cases are fitted at those multiples and bounds, not raised together to 32 rows"
is "$(dspec tile_rows '.launch.grid[0]')" '"rows * (cols / 32)"' \
    "grid rows * (cols / 32) with rows passed as torch::empty({rows, cols}).size(0): the size the tensor was made with"
is "$(dspec row_sums '[.launch.grid[0], [.params[] | .count // empty]]')" '["rows",["rows * cols","rows"]]' \
    "grid and argument both s.size(0) of s = torch::empty({rows}): the argument's text as written matches the grid's"
is "$(dspec tap_gather '[[.params[] | .count // empty], .confidence.counts]')" '[["4 * chans","taps * rows","32 * rows"],"high"]' \
    "chans a multiple of 32: (chans * taps - 1) / 32 + 1 is (chans / 32) * taps trips, so the tap k0 / (chans / 32) stays below taps"
is "$(dspec tap_gather_any '[.params[] | select(.name == "map") | .count]')" '["1048576"]' \
    "near miss: the same kernel under no condition: the tap has no bound (chans / 32 may be 0)"
is "$(dspec one_group '[.cases[] | .scalars | [.groups, .eps]] | unique')" '[[1,0]]' \
    "launched under if (groups == 1 and eps == 0.0f): every case has groups 1 and eps 0"
is "$(dspec mode_square '[.cases[] | [.name, .scalars.mode]] | map(select(.[1] != 2 or (.[0] | startswith("switch_mode"))))')" '[]' \
    "launched under if (mode == 2): every case runs mode 2, switch cases on other modes included, and none is added for mode 0"
is "$(dspec row_cached '[.cases[] | .scalars.cols] | [max, (map(select(. < 1024)) | length > 0)]')" '[1024,true]' \
    "launched under if (cols <= 1024): no case wider than the row the kernel keeps in shared memory, narrower ones kept"
is "$(dspec tile_pairs '[.cases[] | .scalars.len] | [(map(select(1024 % . != 0)) | length), (unique | length > 2)]')" '[0,true]' \
    "launched under if (1024 % len == 0): every case's len divides 1024, and they differ"
is "$(dspec col_tiles '[.launch.grid[0], ([.cases[] | .scalars.cols % 16] | max)]')" '["cols / 16",0]' \
    "a grid the launcher divides down (cols / 16) over a kernel with no guard: cols a multiple of 16 in every case"
is "$(dspec tail_block '[.launch.grid[0], ([.cases[] | .scalars.n % 256] | max > 0)]')" '["n / 256 + 1",true]' \
    "near miss: a grid of n / 256 + 1 blocks covers the remainder; n keeps values that are no multiple of 256"
is "$(dspec head_rows '[.launch.block, .confidence.launch]')" '[[32,8,1],"high"]' \
    "block dim3(C10_WARP_SIZE, h < 16 ? 4 : 8): the warp size 32 by the larger row count, not a guessed 16 x 16"
is "$(dspec each_elem '[.cases[] | .scalars.cols] | map(select(. % 32 != 0)) | length > 0')" 'true' \
    "near miss: the else branch's kernel keeps cols that are no multiple of 32"
is "$(dspec each_scaled '[.launch.grid[0], ([.cases[] | .scalars.n] | min)]')" '["(n + 255) / 256",1]' \
    "near miss: if (!quiet) bounds no parameter; n keeps its smallest case"

# vector loads and stores whose index steps by the vector's width, guarded
# only at its start (test/sizes/vector.cu, saved as
# test/sizes/vector.ndjson): the count ends at the multiple of the width
# at or above n, where the last vector ends, so no element is left
# unwritten; one path that is not a multiple keeps n + 3
"$KWRAP" < test/sizes/vector.ndjson > "$T_TMP/v.ndjson" 2> /dev/null
vspec() { spec_of "$T_TMP/v.ndjson" test/sizes/vector.cu "$@"; }
is "$(vspec vec_index_kernel '[[.params[] | .count // empty], .confidence.counts]')" \
    '[["4 * ((n + 3) / 4)","4 * ((n + 3) / 4)"],"high"]' \
    "i = (...) * 4, if (i < n) a float4 at [i / 4]: n rounded up to 4 (not n + 3)"
is "$(vspec vec_offset_kernel '[.params[] | .count // empty]')" \
    '["4 * ((n + 3) / 4)","4 * ((n + 3) / 4)"]' \
    "i = (...) << 2, if (i >= n) return, a float4 at in + i: n rounded up to 4"
is "$(vspec vec_stride_kernel '[.params[] | .count // empty]')" \
    '["2 * ((n + 1) / 2)","2 * ((n + 1) / 2)"]' \
    "a half2 in a grid-stride loop, start 2 * (...) and step 2 * blockDim.x * gridDim.x: n rounded up to 2"
is "$(vspec vec_mixed_kernel '[.params[] | .count // empty]')" '["n + 3","n + 3"]' \
    "near miss: i = t on one path, so i is no multiple of 4 and a float4 at i reaches n + 2"
is "$(vspec 'vec_bytes_kernel<__half>' '[[.params[] | [.role, .count] // empty], .confidence.counts]') $(vspec 'vec_bytes_kernel<float>' '[.params[] | .count // empty]')" \
    '[[["out","8 * ((n + 7) / 8)"],["in","8 * ((n + 7) / 8)"],["scalar",null]],"high"] ["4 * ((n + 3) / 4)","4 * ((n + 3) / 4)"]' \
    "constexpr per_load = 16 / sizeof(T): 8 halves, 4 floats; out seen written through its float4 (not inout)"
is "$(vspec vec_index_kernel '[.cases[] | .scalars.n | select(. % 4 != 0)] | length > 0')" \
    'true' "a case with n no multiple of 4 tries the rounding"
is "$(vspec vec_tile_kernel '[.params[1].count, ([.cases[] | .scalars.width % 4] | max)]')" \
    '["15 * width + 16",0]' \
    "a float4 read through const float4 *const row = ...(&in[width * y + col]): a derived count, width a multiple of 4 in every case"
is "$(vspec vec_async_kernel '[.params[1].count, ([.cases[] | .scalars.width % 4] | max)]')" \
    '["15 * width + 16",0]' \
    "__pipeline_memcpy_async(&tile[...], &in[width * y + col], sizeof(float4)): the copy's 16 bytes read, width a multiple of 4"
is "$(vspec 'vec_alias_kernel<half_io>' '[[.params[] | select(.role != "scalar") | [.name, .dtype, .count]], .confidence.counts]')" \
    '[[["out","float16","2 * (rows * n - n + (2 * n - 1) / 2 + 1)"],["in","float16","2 * rows * n"]],"high"]' \
    "void * buffers cast to a traits class's types (IOType = Traits::Type, a __half; IOType2 a __half2): halves, 2 * rows * n of each"
builds "$T_TMP/v.ndjson"

# dynamic shared memory reached only through a class and a device
# function of the slice (test/sizes/sharedfar.cu, saved as
# test/sizes/sharedfar.ndjson): the launcher's bytes, a constant
# expression with a ternary and sizeof(U), U bound to float
"$KWRAP" < test/sizes/sharedfar.ndjson > "$T_TMP/f.ndjson" 2> /dev/null
is "$(jq -c '[.wrap.spec.launch.shared_mem, .wrap.spec.confidence.launch]' "$T_TMP/f.ndjson")" \
    '["256","high"]' \
    "extern __shared__ in SharedBuf<float>::get(), nshared = 64 > 1 ? 64 * sizeof(U) : 0: 256 bytes (not 0)"
builds "$T_TMP/f.ndjson"

# strides passed as integers (test/sizes/strides.cu, saved as
# test/sizes/strides.ndjson): every case lays the rows out so that no
# two index tuples meet (innermost 1, each stride the span inside it);
# a step whose product is compared keeps the cases' own values; offsets
# stepped on between two calls (off += E) are the first plus E
"$KWRAP" < test/sizes/strides.ndjson > "$T_TMP/st.ndjson" 2> /dev/null
stcase() { spec_of "$T_TMP/st.ndjson" test/sizes/strides.cu "$@"; }
is "$(stcase rotate_rows '[.cases[] | .scalars | select(.stride_d == 1 and .stride_h == .d and .stride_r == .h * .d and .o_stride_d == 1 and .o_stride_h == .d and .o_stride_r == .h * .d)] | length')" \
    "$(stcase rotate_rows '.cases | length')" \
    "strides of a source and a destination: contiguous rows in every case (stride_d 1, stride_h d, stride_r h * d)"
is "$(stcase rotate_rows '[.params[] | select(.name == "dst") | .role]')" '["inout"]' \
    "an output written through a layout's strides is a view: an inout, its gaps kept"
is "$(stcase rotate_rows '.cases[0].scalars | [.rows, .h, .d]')" '[285,60,60]' \
    "the typical case's sizes fitted to the budget with the strides the layout gives"
is "$(stcase strided_pick '[.cases[] | .scalars.step] | unique')" '[1,5,32,64,256]' \
    "a step whose product is compared (x = i * step - 1; x < width) is no stride of a layout"
is "$(stcase rotate_halves '[.confidence.counts, (.params[] | select(.name == "dst") | .role)]')" \
    '["high","inout"]' \
    "offsets stepped on between two calls of a helper (o_off += d / 2 * o_stride_d): the accesses bounded, a layout"
is "$(stcase rotate_halves '[.cases[] | .scalars | select(.o_stride_d == 1 and .o_stride_h >= .d and .o_stride_r >= .h * .o_stride_h and .stride_d == 1 and .stride_h >= .d and .stride_r >= .h * .stride_h)] | length')" \
    "$(stcase rotate_halves '.cases | length')" \
    "the second half's offset is the first's plus the step: rows and heads apart in every case, no two stores meet"
builds "$T_TMP/st.ndjson"

# pointers set in branches and namesakes in sibling scopes
# (test/sizes/branches.cu, saved as test/sizes/branches.ndjson)
"$KWRAP" < test/sizes/branches.ndjson > "$T_TMP/br.ndjson" 2> /dev/null
brspec() { spec_of "$T_TMP/br.ndjson" test/sizes/branches.cu "$@"; }
is "$(brspec 'checked_rows<false>' '[(.params[] | select(.name == "src") | .count), .confidence.counts]')" \
    '["rows * cols","high"]' \
    "if constexpr on a template value of false: the else branch sets the row pointer, the other never runs"
is "$(brspec 'checked_rows<true>' '[(.params[] | select(.name == "src") | .count), .confidence.counts]')" \
    '["rows * pitch - pitch + cols","high"]' \
    "if constexpr on a template value of true: its else never runs"
is "$(brspec either_rows '[(.params[] | select(.name == "src") | .count), .confidence.counts]')" \
    '["2 * n - 1","high"]' \
    "a pointer set in either branch of a runtime if: the larger of the two reaches"
is "$(brspec two_loops '[(.params[] | select(.name == "x") | .count), .confidence.counts]')" \
    '["64 * split + n - 1","high"]' \
    "two loops each declaring q, k and t: each q its own pointer, the second loop from tiles - 1 never below 0"
is "$(brspec 'picked_load<1>' '[.params[] | select(.name == "x") | .count]')" \
    '["n"]' \
    "load_of<W>(v, p) in picked_load<1>: the constructor of load_of<1> reads one element, not load_of<4>'s four"
is "$(brspec flat_split '[.params[] | select(.role != "scalar") | .count]')" \
    '["batch","batch * rows * cols"]' \
    "blockIdx.x / (rows * cols) of a grid of batch * rows * cols blocks: at most batch - 1"
is "$(brspec tiled_grid '[.params[] | select(.role != "scalar") | .count]')" \
    '["m * n","m * n"]' \
    "a grid of ((m + 127) / 128) * (n / 16 / 4) blocks: n / 16 / 4 at least 1, the last column tile ends at n"
is "$(brspec 'typed_split<float>' '[.params[] | select(.role != "scalar") | .count]')" \
    '["n * c","n * c"]' \
    "bool wide = sizeof(T) == 4; if (wide) ... else ...: for float the else's j = index % (c >> 1) never runs"
builds "$T_TMP/br.ndjson"

# dynamic shared memory that grows with a size (test/sizes/sharedfit.cu,
# saved as test/sizes/sharedfit.ndjson): the cases are fitted to a
# block's limit of 232448 bytes as to the buffers' budget
run "$KWRAP" < test/sizes/sharedfit.ndjson
is "$T_STATUS" 0 "sharedfit: exit status 0"
cp "$T_TMP/out" "$T_TMP/sf.ndjson"
is "$(spec_of "$T_TMP/sf.ndjson" test/sizes/sharedfit.cu reverse_row '[.cases[] | .scalars.cols * 4 | select(. > 232448)] | length')" \
    '0' "shared memory of cols * 4 bytes: no case asks for more than a block may have"
is "$(spec_of "$T_TMP/sf.ndjson" test/sizes/sharedfit.cu reverse_row '[.cases[0].scalars.cols, .cases[1].scalars.cols]')" \
    '[58112,1]' "the typical case as large as the limit allows, the smallest one element"
builds "$T_TMP/sf.ndjson"

# row pitches (test/sizes/pitch.cu, saved as test/sizes/pitch.ndjson):
# out[y * pitch + x] with x < w keeps pitch at least w in every case, the
# elements past a row's end kept (inout); a pitch of a buffer only read
# and a row as wide as its pitch are left as they were
run "$KWRAP" < test/sizes/pitch.ndjson
is "$T_STATUS" 0 "pitch: exit status 0"
cp "$T_TMP/out" "$T_TMP/pi.ndjson"
pspec() { spec_of "$T_TMP/pi.ndjson" test/sizes/pitch.cu "$@"; }
is "$(pspec pitched_scale '[([.cases[] | .scalars | select(.pitch < .w)] | length), (.cases | length), .cases[0].scalars.pitch, .cases[0].scalars.w]')" \
    '[0,9,300,300]' "out[y * pitch + x], x < w: pitch at least w in every case"
is "$(pspec pitched_scale '[.params[0].role, .params[0].count, (.confidence.guesses | map(select(test("rows pitch apart"))) | length)]')" \
    '["inout","h * pitch - pitch + w",1]' \
    "the elements past each row's end are kept: an inout, said in the guesses"
is "$(pspec pitched_read '[([.cases[] | .scalars | select(.pitch < .w)] | length > 0), .params[0].role]')" \
    '[true,"out"]' "near miss: the pitch of a buffer only read keeps the cases' values"
is "$(pspec row_major '[.params[0].role, .params[0].count, .cases[0].scalars.n]')" \
    '["out","m * n",300]' "near miss: a row as wide as its pitch (row-major) is left alone"
builds "$T_TMP/pi.ndjson"

# remainders by a multiple (test/sizes/modulo.cu, saved as
# test/sizes/modulo.ndjson): (16 * b + lane / 4) % padded with padded a
# multiple of 16 is at most padded - 9, and with the 8 rows a store adds
# the rows end at padded - 1; a tile's start b / groups * 16 is a multiple
# of 16 too; a lane offset of up to 31 (near miss) keeps padded - 1
run "$KWRAP" < test/sizes/modulo.ndjson
is "$T_STATUS" 0 "modulo: exit status 0"
cp "$T_TMP/out" "$T_TMP/mo.ndjson"
mspec() { spec_of "$T_TMP/mo.ndjson" test/sizes/modulo.cu "$@"; }
is "$(mspec tile_rows '.params[0].count')" \
    '"K * splits * N + 15 * splits * N - N + 4"' \
    "(16 * b + lane / 4) % padded + 8: the last row is padded - 1 of the last split"
is "$(mspec group_rows '.params[0].count')" '"K * N + 14 * N + 4"' \
    "(b / groups * 16) % padded + lane / 4 + 8: a quotient times 16 is a multiple of 16"
is "$(mspec wide_lanes '.params[0].count')" '"K * N + 14 * N + 2"' \
    "near miss: a lane offset of up to 31 leaves x % padded at padded - 1"
builds "$T_TMP/mo.ndjson"

# the distinct fill's harness code compiles (test/fills/scatter.cu), and
# kw_fill_buf on its own gives each of lo .. lo + count - 1 once, in an
# order the seed picks
builds "$T_TMP/sc.ndjson"
if [ -x "$NVCC" ]; then
	{
		echo '#define main kw_harness_main'
		sed -n 1p "$T_TMP/sc.ndjson" | jq -r .wrap.harness.code
		echo '#undef main'
		cat <<'EOF'
int main(void)
{
	static int32_t v[5000];
	static unsigned char seen[5001];
	const size_t counts[] = { 1, 2, 12, 1000, 4096, 5000 };
	int ok = 1, moved = 0;
	for (size_t c = 0; c < 6; c++)
		for (uint64_t seed = 1; seed < 4; seed++) {
			kw_fill f = { KW_DISTINCT, 1, 1, -1, 0 };
			size_t n = counts[c];
			kw_fill_buf((unsigned char *)v, n, 4, KW_I32, f, seed, 0);
			memset(seen, 0, sizeof(seen));
			for (size_t i = 0; i < n; i++) {
				if (v[i] < 1 || (size_t)v[i] > n || seen[v[i]])
					ok = 0;
				else
					seen[v[i]] = 1;
				moved |= n > 2 && v[i] != (int32_t)i + 1;
			}
		}
	printf("%d %d\n", ok, moved);
	return 0;
}
EOF
	} > "$T_TMP/h/distinct.cu"
	if (cd "$T_TMP/h" && "$NVCC" -std=c++17 -O2 -x c++ -cudart none \
	    distinct.cu -o distinct -L"$CUDA/lib64/stubs" -lcuda) \
	    2> "$T_TMP/h/derr"; then
		# the toolkit's stub libcuda: the fill runs on the CPU alone
		mkdir -p "$T_TMP/stub"
		ln -sf "$CUDA/lib64/stubs/libcuda.so" "$T_TMP/stub/libcuda.so.1"
		is "$(LD_LIBRARY_PATH=$T_TMP/stub "$T_TMP/h/distinct")" '1 1' \
		    "kw_fill_buf distinct: each of 1 .. count once for counts 1 to 5000, not in order"
	else
		fail "kw_fill_buf distinct: the test's harness builds"
		diag_file "$T_TMP/h/derr"
	fi
else
	skip "kw_fill_buf distinct" "nvcc is not installed"
fi
done_testing
