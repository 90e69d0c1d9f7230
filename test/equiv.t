#!/bin/sh
# kwrap --mutants: mutants proven equivalent to the reference under the
# spec's cases and launch (wrap.mutants.list[].equivalent), on the small
# kernels of test/equiv/guards.cu, and near misses that must NOT be
# marked: a fill that reaches the bound, a grid.y of 2, a launch where
# blockIdx.y can equal b, a loop one past the bound.  No GPU.
. "$(dirname "$0")/lib.sh"

for t in kscan kslice kwrap; do
	have_tool "$t" || skip_all "$t is not built"
done
command -v jq > /dev/null || skip_all "jq not installed (make deps)"
KW=$(tool kwrap)
F=test/equiv/guards.cu

"$(tool kscan)" "$F" 2> /dev/null | "$(tool kslice)" 2> /dev/null \
    > "$T_TMP/slice"
run "$KW" --mutants 100 < "$T_TMP/slice"
is "$T_STATUS" 0 "kwrap --mutants exits 0"
cp "$T_TMP/out" "$T_TMP/wrap"

# marked: kernel mutant-id rule, one a line
marked() {
	jq -r --arg k "$1" 'select(.scan.name == $k) | .wrap.mutants.list[] |
	    select(.equivalent) | "\(.id) \(.equivalent.rule)"' "$2"
}
# the + line of mutant id of kernel k
plus() {
	jq -r --arg k "$1" --arg m "$2" 'select(.scan.name == $k) |
	    .wrap.mutants.list[] | select(.id == $m) | .diff |
	    split("\n")[2] | ltrimstr("+") | gsub("^\\s+"; "")' "$3"
}

is "$(marked gather_guard "$T_TMP/wrap")" \
    "$(printf 'm4 same-value\nm5 same-value\nm8 assert-holds\nm9 same-value')" \
    "kn read from an index buffer (fill 0..3, n0 >= 4): kn >= n0 made >, || made &&, the assert dropped or made <= are equivalent"
is "$(plus gather_guard m4 "$T_TMP/wrap") | $(plus gather_guard m5 "$T_TMP/wrap") | $(plus gather_guard m8 "$T_TMP/wrap")" \
    "if (kn > n0 || kn < 0) | if (kn >= n0 && kn < 0) | ;" \
    "the marked mutants are the guard's and the assert's"
is "$(jq -r 'select(.scan.name == "gather_guard") | .wrap.mutants.list[] |
    select(.id == "m6" or .id == "m7") | .equivalent // "none"' "$T_TMP/wrap" | sort -u)" \
    none "kn < 0 made kn <= 0 (or kn < 1) is not equivalent: kn = 0 is in the fill"
is "$(jq -r 'select(.scan.name == "gather_guard") | .wrap.mutants.list[] |
    select(.id == "m4") | .equivalent | [.under, .cases, .reason] |
    map(tostring) | join(" | ")' "$T_TMP/wrap")" \
    "spec | 9 | kn >= n0 and kn > n0 are both 0 in every case (over the cases: kn in [0, 3], n0 in [4, 256])" \
    "the proof says what it rests on: the spec, its cases, the ranges"
is "$(jq -r 'select(.scan.name == "gather_guard") | .wrap.mutants.equivalent' "$T_TMP/wrap")" \
    4 "wrap.mutants.equivalent counts the marked mutants"
is "$(marked batch_guard "$T_TMP/wrap")" "m3 same-value" \
    "bs = blockIdx.y with grid.y = b: bs >= b made bs > b is equivalent (both 0), pt >= m made > is not"
is "$(marked row_stride "$T_TMP/wrap")" "m3 same-value" \
    "a stride of blockDim.x * gridDim.y with grid.y = 1: * made / is equivalent"
is "$(marked loop_assert "$T_TMP/wrap")" \
    "$(printf 'm3 assert-holds\nm4 same-value')" \
    "b = i / n in a grid-stride macro's loop to B * n: assert(b < B) dropped is equivalent"
is "$(marked loop_assert_over "$T_TMP/wrap")" "" \
    "near miss: the loop runs to B * n + 1, b reaches B: the assert is not marked"

# near misses from the spec: --spec replaces cases or the launch
spec() {	# spec NAME KERNEL JSON
	id=$(jq -r --arg k "$2" 'select(.scan.name == $k) | .id' "$T_TMP/slice")
	printf '{"id":"%s","spec":%s}\n' "$id" "$3" > "$T_TMP/$1.spec"
	"$KW" --mutants 100 --spec "$T_TMP/$1.spec" < "$T_TMP/slice" \
	    > "$T_TMP/$1" 2> /dev/null
}
spec reach gather_guard '{"cases":[{"name":"a","scalars":{"n":300,"n0":64}},{"name":"b","scalars":{"n":300,"n0":4},"fills":{"idx":{"kind":"int","lo":0,"hi":4}}}]}'
is "$(marked gather_guard "$T_TMP/reach")" "" \
    "near miss: a case whose fill of idx reaches n0 (0..4, n0 = 4): nothing marked"
spec inside gather_guard '{"cases":[{"name":"a","scalars":{"n":300,"n0":64}},{"name":"b","scalars":{"n":300,"n0":5},"fills":{"idx":{"kind":"int","lo":0,"hi":4}}}]}'
is "$(marked gather_guard "$T_TMP/inside")" \
    "$(printf 'm4 same-value\nm5 same-value\nm8 assert-holds\nm9 same-value')" \
    "the same fill with n0 = 5 stays inside: marked again"
spec float gather_guard '{"cases":[{"name":"a","scalars":{"n":300,"n0":64},"fills":{"idx":{"kind":"uniform","lo":0,"hi":3}}}]}'
is "$(marked gather_guard "$T_TMP/float")" "" \
    "a fill kwrap cannot bound as integers (uniform): nothing marked"
spec grid2 row_stride '{"launch":{"grid":["b","2","1"]}}'
is "$(marked row_stride "$T_TMP/grid2")" "" \
    "near miss: grid.y = 2: blockDim.x * gridDim.y made / is not marked"
spec over batch_guard '{"launch":{"grid":["(m + 255) / 256","b + 1","1"]}}'
is "$(marked batch_guard "$T_TMP/over")" "" \
    "near miss: grid.y = b + 1, blockIdx.y can equal b: bs >= b made > is not marked"
spec noscalar batch_guard '{"cases":[{"name":"a","scalars":{"m":300}}]}'
is "$(marked batch_guard "$T_TMP/noscalar")" "" \
    "a case without b's value: nothing marked"

is "$(marked batch_ref "$T_TMP/wrap")" "" \
    "near miss: bs changed through a reference (int &r = bs; r += 0): bs >= b made > is not marked"
is "$(marked batch_macro "$T_TMP/wrap")" "" \
    "near miss: b passed bare to a macro that may change it: nothing marked"
is "$(marked gather_alias "$T_TMP/wrap" | tr '\n' ' ')" "m4 same-value m5 same-value m6 dead-code m7 dead-code " \
    "gather_alias: only n0 < 0 made <= 0 or < 1 (n0 >= 4 in every case) and the store under it, which never runs; idx is written, kn >= n0 made > is not marked"
spec alias gather_alias '{"params":[{"name":"idx","role":"in"}]}'
is "$(marked gather_alias "$T_TMP/alias" | tr '\n' ' ')" "m4 same-value m5 same-value m6 dead-code m7 dead-code " \
    "near miss: idx declared an input by the spec but written through an alias (w = idx): its fill proves nothing"

# code that never runs for the instance's template arguments, and stores
# into on-chip arrays that nothing live reads (test/equiv/dead.cu)
"$(tool kscan)" test/equiv/dead.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KW" --mutants 100 > "$T_TMP/dead" 2> /dev/null
# kernel<instance>: op line rule, one a line
dmarked() {
	jq -r --arg k "$1" 'select(.id | endswith("::" + $k)) |
	    .wrap.mutants.list[] | select(.equivalent) |
	    select(.equivalent.rule | startswith("dead")) |
	    "\(.op) \(.line) \(.equivalent.rule)"' "$T_TMP/dead"
}
is "$(dmarked 'tile_sum<32>')" "$(printf '%s\n' 'store-plus-one 12 dead-store' \
    'swap-relational 15 dead-code' 'constant 15 dead-code' \
    'drop-statement 16 dead-code' 'swap-arith 16 dead-code' 'constant 16 dead-code')" \
    "tile_sum<32>: B = 32, if (B >= 64) never runs: the mutants in it are dead code, and part[t] = v made + 1 a dead store (part is read only there)"
is "$(dmarked 'tile_sum<64>')" "" \
    "near miss: tile_sum<64> runs the read of part: nothing dead"
is "$(jq -r 'select(.id | endswith("::tile_sum<32>")) | .wrap.mutants.list[] |
    select(.equivalent.rule == "dead-store") | .equivalent.reason' "$T_TMP/dead")" \
    "part is an on-chip array that no live code reads (1 read, all in code that never runs in any case)" \
    "the dead store's reason counts the reads it found dead"
is "$(dmarked 'alias_sum<32>' | grep -c dead-store)" 0 \
    "near miss: part also read through q = part: its store is not dead"
is "$(dmarked 'dyn_sum<32>' | head -n 1)" "store-plus-one 18 dead-store" \
    "dyn_sum<32>: dynamic shared memory handed out once (DynShared), read only where B >= 64: a dead store"
is "$(dmarked 'macro_sum<32>' | grep -c dead-store)" 0 \
    "near miss: part read inside a macro (PEEK), out of kwrap's tokens: its store is not dead"
is "$(dmarked 'dyn_twice<32>' | grep -c dead-store)" 0 \
    "near miss: DynShared handed out twice, the second pointer reads the first's stores"

# branches that never run for the instance (test/equiv/branches.cu): a
# side of an if constexpr, the else of an if whose condition holds, the
# sections of a switch that no case's value reaches
"$(tool kscan)" test/equiv/branches.cu 2> /dev/null |
    "$(tool kslice)" 2> /dev/null > "$T_TMP/br.slice"
"$KW" --mutants 100 < "$T_TMP/br.slice" > "$T_TMP/br" 2> /dev/null
# kernel<instance> [file]: op line rule of each marked mutant, a comma after
brmarked() {
	jq -r --arg k "$1" 'select(.id | endswith("::" + $k)) |
	    .wrap.mutants.list[] | select(.equivalent) |
	    "\(.op) \(.line) \(.equivalent.rule)"' "${2:-$T_TMP/br}" | tr '\n' ,
}
is "$(brmarked 'sparse_scale<0>')" \
    "drop-statement 11 dead-code,swap-arith 11 dead-code," \
    "sparse_scale<0>: if constexpr (SPARSE) with SPARSE = 0: its block is dead code, its else runs"
is "$(brmarked 'sparse_scale<1>')" \
    "drop-statement 13 dead-code,swap-arith 13 dead-code," \
    "near miss sparse_scale<1>: the if constexpr's condition holds: nothing of its block is marked, its else is dead code"
is "$(brmarked 'dequant<0>')" \
    "swap-relational 14 dead-code,drop-statement 15 dead-code,swap-arith 15 dead-code,constant 15 dead-code,swap-relational 16 dead-code,constant 16 dead-code,drop-statement 17 dead-code,drop-statement 19 dead-code,swap-arith 19 dead-code,constant 19 dead-code," \
    "dequant<General8bit>: the else of if (D == General8bit) is dead, the else-if's condition, the nested if and the last else with it; the if's own condition is not"
is "$(brmarked 'dequant<2>')" \
    "drop-statement 13 dead-code,swap-arith 13 dead-code,constant 13 dead-code,drop-statement 15 dead-code,swap-arith 15 dead-code,constant 15 dead-code,swap-relational 16 dead-code,constant 16 dead-code,drop-statement 17 dead-code," \
    "near miss dequant<NF4>: the first if's condition is 0, so its else runs (the else-if's condition and the last else are not marked); the two then-branches are dead"
is "$(brmarked 'pick_mode<0>')" \
    "drop-statement 17 dead-code,swap-arith 17 dead-code,constant 17 dead-code,drop-statement 19 dead-code,swap-arith 19 dead-code,constant 19 dead-code,drop-statement 22 dead-code,swap-arith 22 dead-code,constant 22 dead-code," \
    "pick_mode<SCALE>: switch (M) enters at case SCALE, which breaks: SHIFT, LOWER and default are dead code"
is "$(brmarked 'pick_mode<1>')" \
    "drop-statement 14 dead-code,swap-arith 14 dead-code,constant 14 dead-code,drop-statement 22 dead-code,swap-arith 22 dead-code,constant 22 dead-code," \
    "near miss pick_mode<SHIFT>: case LOWER is reached by falling through from SHIFT (not marked); SCALE and default are dead"
is "$(brmarked 'pick_mode<7>')" \
    "drop-statement 14 dead-code,swap-arith 14 dead-code,constant 14 dead-code,drop-statement 17 dead-code,swap-arith 17 dead-code,constant 17 dead-code,drop-statement 19 dead-code,swap-arith 19 dead-code,constant 19 dead-code," \
    "near miss pick_mode<7>: 7 matches no label, so default runs (not marked); every case section is dead"
is "$(brmarked run_mode)" "" \
    "near miss run_mode: a switch on a runtime scalar, whose cases reach both labels: nothing marked"
is "$(brmarked 'odd_label<0>')" "" \
    "near miss odd_label<0>: a label kwrap cannot evaluate (case sizeof(float)): nothing of the switch is marked"
is "$(for k in 'sparse_scale<0>' 'sparse_scale<1>' 'dequant<0>' 'pick_mode<1>'; do
	jq -r --arg k "$k" 'select(.id | endswith("::" + $k)) |
	    .wrap.mutants.list[] | .equivalent.reason // empty' "$T_TMP/br" |
	    head -n 1
done)" "$(printf '%s\n' \
    'the edit lies in what if constexpr (SPARSE) runs, and the condition is 0 in every case' \
    'the edit lies in the else branch of if constexpr (SPARSE), and the condition holds in every case' \
    'the edit lies in the else branch of if (D == General8bit), and the condition holds in every case' \
    'the edit lies under case SCALE: of switch (M), whose value is 1 in every case')" \
    "the reason names the shape: the if's statement, its else, a switch's section"
id=$(jq -r 'select(.scan.name == "run_mode") | .id' "$T_TMP/br.slice")
printf '{"id":"%s","spec":{"cases":[{"name":"a","scalars":{"n":300,"mode":0}},{"name":"b","scalars":{"n":300,"mode":3}}]}}\n' \
    "$id" > "$T_TMP/br.spec"
"$KW" --mutants 100 --spec "$T_TMP/br.spec" < "$T_TMP/br.slice" \
    > "$T_TMP/br.mode" 2> /dev/null
is "$(brmarked run_mode "$T_TMP/br.mode")" \
    "drop-statement 14 dead-code,swap-arith 14 dead-code,constant 14 dead-code," \
    "run_mode with mode 0 or 3 by the spec: case 1 is reached by no case (case 0 breaks)"
is "$(jq -r 'select(.scan.name == "run_mode") | .wrap.mutants.list[] |
    .equivalent | select(.) | [.reason, (.reads | join(","))] | join(" | ")' \
    "$T_TMP/br.mode" | sort -u)" \
    "the edit lies under case 1: of switch (mode), whose value (0 to 3 over the cases) reaches no label that runs it (over the cases: mode in [0, 3]) | scalars" \
    "a value that differs between cases: the reason gives its range and the proof reads the scalars"
run test/validate "$T_TMP/br"
ok "$T_STATUS" "dead-code proofs of branches validate against schemas/"

# initial values that no path reads (test/equiv/init.cu): the constant of
# the initializer is marked dead-init; near misses are not
"$(tool kscan)" test/equiv/init.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KW" --mutants 100 > "$T_TMP/init" 2> /dev/null
# every mutant in a declaration's initializer: kernel line rule
imarked() {
	jq -r '.scan.name as $k | .wrap.mutants.list[] |
	    select(.op == "constant" and (.diff | split("\n")[2] |
	    test("^\\+\\s*int [a-z]+ = [0-9]+;$"))) |
	    "\($k) \(.line) \(.equivalent.rule // "-")"' "$T_TMP/init"
}
is "$(imarked | tr '\n' ',')" \
    "tail_count 5 dead-init,early_out 6 dead-init,once_more 6 dead-init,maybe_set 6 -,running 5 -,cond_read 5 -,break_first 6 -,after_loop 5 -,macro_other 8 dead-init,macro_names 8 -," \
    "dead-init: assigned on both arms in each pass, before an early return's other path, in a do body, beside a macro that does not name it; not: an if without else, +=, a loop condition, a break first, a read after a loop, a read inside a macro"
is "$(jq -r 'select(.scan.name == "tail_count") | .wrap.mutants.list[] |
    select(.equivalent.rule == "dead-init") | .equivalent | [.reason, (.reads | length)] | map(tostring) | join(" | ")' "$T_TMP/init")" \
    "the initial value of valid is never read: no path from its declaration reads valid before assigning it | 0" \
    "the proof reads no case"
run test/validate "$T_TMP/init"
ok "$T_STATUS" "dead-init proofs validate against schemas/"

# stores stored over before anything can read them (test/equiv/overwrite.cu)
"$(tool kscan)" test/equiv/overwrite.cu 2> /dev/null |
    "$(tool kslice)" 2> /dev/null | "$KW" --mutants 100 > "$T_TMP/ow" 2> /dev/null
omarked() {	# the mutants of each kernel's first store: kernel op rule
	jq -r '.scan.name as $k | .wrap.mutants.list[] |
	    select(.diff | split("\n")[1] | test("= (5|0|1)\\.0f;$")) |
	    "\($k) \(.op) \(.equivalent.rule // "-")"' "$T_TMP/ow" | tr '\n' ','
}
is "$(omarked)" \
    "sum_slot drop-statement overwritten,sum_slot store-plus-one overwritten,dyn_slot drop-statement overwritten,dyn_slot store-plus-one overwritten,barrier_between drop-statement -,barrier_between store-plus-one -,helper_syncs drop-statement -,helper_syncs store-plus-one -,read_between drop-statement -,read_between store-plus-one -,other_index drop-statement -,other_index store-plus-one -,return_between drop-statement -,return_between store-plus-one -,reads_itself drop-statement -,reads_itself store-plus-one -,loop_body drop-statement -,loop_body store-plus-one -," \
    "overwritten: a zeroed slot set again after a loop, extern shared memory through a cast; not: a barrier or a synchronizing helper between, a read between, another index, a return between, a second store that reads the first"
is "$(jq -r 'select(.scan.name == "loop_body") | .wrap.mutants.list[] |
    select(.diff | split("\n")[1] | test("\\+ 1\\.0f;$")) |
    .equivalent.rule // "-"' "$T_TMP/ow" | sort -u)" "-" \
    "near miss: a first store that is a while loop's body, whose condition reads it, is not overwritten"
is "$(jq -r 'select(.scan.name == "sum_slot") | .wrap.mutants.list[] |
    select(.equivalent.rule == "overwritten") | .equivalent.reason' "$T_TMP/ow" | head -n 1)" \
    "sh[threadIdx.x] is stored again at line 12 before anything can read it (no barrier, jump or mention between), and its memory is reached by that name alone" \
    "the proof says where the second store is"
is "$(jq -r 'select(.scan.name | startswith("ptr_")) | .scan.name as $k |
    .wrap.mutants.list[] | select(.diff | split("\n")[1] | test("slot = 0;")) |
    "\($k) \(.op) \(.equivalent.rule // "-")"' "$T_TMP/ow" | tr '\n' ',')" \
    "ptr_slot constant overwritten,ptr_read constant -," \
    "overwritten through a local pointer to one element of an output; not: the output read through its own name between"
is "$(jq -r 'select(.scan.name == "ptr_slot") | .wrap.mutants.list[] |
    select(.equivalent.rule == "overwritten") | .equivalent.reason' "$T_TMP/ow")" \
    "*slot (one element of the output out) is stored again at line 13 before anything can read it (no barrier, jump or mention between), and nothing else in the kernel names out" \
    "the proof names the output and the second store"
run test/validate "$T_TMP/ow"
ok "$T_STATUS" "overwritten proofs validate against schemas/"

# dropped barriers that order nothing (test/equiv/barrier.cu), and near
# misses where a barrier orders a write before a read on the other side
"$(tool kscan)" test/equiv/barrier.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KW" --mutants 100 > "$T_TMP/barrier" 2> /dev/null
# kernel: line rule of each dropped barrier, one a line
bmarked() {
	jq -r --arg k "$1" 'select(.id | endswith("::" + $k)) |
	    .wrap.mutants.list[] | select(.op == "drop-syncthreads") |
	    "\(.line) \(.equivalent.rule // "none")"' "${B:-$T_TMP/barrier}"
}
is "$(bmarked 'pick_far<64>')" "$(printf '%s\n' '14 barrier-orders-nothing' \
    '28 none' '34 none')" \
    "pick_far<64>: the barrier after thread 0's first pick orders nothing; those of the reduction do"
is "$(jq -r 'select(.id | endswith("::pick_far<64>")) | .wrap.mutants.list[] |
    select(.equivalent.rule == "barrier-orders-nothing") | .equivalent.reason' "$T_TMP/barrier")" \
    "nothing written on one side of the barrier is touched on the other (written before it: picks; written after it: best, d, di)" \
    "the proof names what each side writes"
is "$(bmarked tail_sync)" "8 barrier-orders-nothing" \
    "a barrier at the kernel's end orders nothing"
is "$(bmarked bounded_tail)" "9 barrier-orders-nothing" \
    "__launch_bounds__ between the parameters and the body: the same proof"
is "$(bmarked macro_tail)" "10 barrier-orders-nothing" \
    "a macro that only computes a value (TWICE(v)) hides no access"
for k in stage_read shared_count global_pass alias_read helper_write \
    macro_store; do
	is "$(bmarked "$k" | awk '{ print $2 }' | sort -u)" none \
	    "near miss $k: the barrier orders a write before a read on the other side"
done
is "$(bmarked ring_shift | awk '{ print $2 }' | sort -u)" none \
    "near miss ring_shift: round the loop, the next iteration reads what this one wrote"
is "$(bmarked 'one_pass<64>' | tr '\n' ',')" "10 barrier-orders-nothing,13 none," \
    "one_pass<64>: a loop from blockIdx.x * T to gridDim.x * T in steps of gridDim.x * T runs one pass: its first barrier has no earlier pass before it (and __ldg(&x[...]) declares nothing)"
is "$(bmarked 'many_pass<64>' | awk '{ print $2 }' | sort -u)" none \
    "near miss many_pass<64>: up to n, a block runs more passes, and the first barrier orders the last pass's reads of buf before the next one's writes"
# logical swaps by their node (test/equiv/logical.cu)
"$(tool kscan)" test/equiv/logical.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KW" --mutants 100 > "$T_TMP/logical" 2> /dev/null
lmarked() {
	jq -r --arg k "$1" 'select(.scan.name == $k) | [.wrap.mutants.list[] |
	    select(.op == "swap-logical") | .equivalent.rule // "none"] |
	    join(" ")' "$T_TMP/logical"
}
is "$(lmarked chain_guard)" "same-value none" \
    "chain_guard: y > 0 || z > 0 || i >= n, the first || made && (both 0: one grid row and layer) is equivalent, the second is not"
is "$(lmarked chain_all)" "none none" \
    "near miss chain_all: the first && of y == 0 && z == 0 && i < n made || regroups (y == 0 || (z == 0 && i < n)): not proven by its node"
# library calls that write what they are handed (test/equiv/barrier_lib.cu)
"$(tool kscan)" test/equiv/barrier_lib.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KW" --mutants 100 > "$T_TMP/blib" 2> /dev/null
is "$(B=$T_TMP/blib bmarked 'union_loads<64>' | awk '{ print $2 }' | sort -u)" none \
    "near miss union_loads<64>: cub's loads are handed members of one __shared__ union (Load(tmp.a)), which they write: every barrier orders them"
is "$(B=$T_TMP/blib bmarked paren_atomic)" "10 none" \
    "near miss paren_atomic: atomicAdd(&(x[...])) writes x before the barrier, read after it"
is "$(B=$T_TMP/blib bmarked 'own_loads<64>')" "16 barrier-orders-nothing" \
    "own_loads<64>: a barrier at the kernel's end after a load into storage of its own orders nothing"
is "$(B=$T_TMP/blib bmarked 'stage_pass<64, 0>' | awk '{ print $2 }' | sort -u)" barrier-orders-nothing \
    "stage_pass<64, 0>: in one pass of a grid-stride loop, both barriers order nothing (static_cast<int64_t> names a type, not a global)"
is "$(B=$T_TMP/blib bmarked 'stage_pass<64, 1>' | awk '{ print $2 }' | sort -u)" barrier-orders-nothing \
    "stage_pass<64, 1>: a device function that reads a __device__ table nothing writes orders nothing either"
is "$(B=$T_TMP/blib bmarked 'stage_count<64>' | awk '{ print $2 }')" none \
    "near miss stage_count<64>: the device function called before the barrier writes a __device__ counter"
is "$(jq -r 'select(.id | endswith("::tile_sum<32>")) | .wrap.mutants.list[] |
    select(.op == "drop-syncthreads") | .equivalent.rule' "$T_TMP/dead") $(jq -r 'select(.id | endswith("::tile_sum<64>")) | .wrap.mutants.list[] |
    select(.op == "drop-syncthreads") | .equivalent.rule // "none"' "$T_TMP/dead")" \
    "barrier-orders-nothing none" \
    "tile_sum<32>: the only read after the barrier never runs; tile_sum<64> reads part there"

# a block's result stored by one thread (test/equiv/thread.cu)
"$(tool kscan)" test/equiv/thread.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KW" --mutants 100 > "$T_TMP/thread" 2> /dev/null
tmarked() {	# each kernel's writer-thread mutants: kernel mutant rule
	jq -r '.scan.name as $k | .wrap.mutants.list[] |
	    select(.diff | split("\n")[1] | test("if \\(threadIdx.x == 0\\)")) |
	    "\($k) \(.diff | split("\n")[2] | ltrimstr("+") |
	    gsub("^\\s+|\\s*\\{$"; "")) \(.equivalent.rule // "-")"' "$T_TMP/thread" |
	    tr '\n' ','
}
is "$(tmarked)" \
    "block_sum if (threadIdx.x != 0) any-thread,block_sum if (threadIdx.x == 1) any-thread,broadcast if (threadIdx.x != 0) any-thread,broadcast if (threadIdx.x == 1) any-thread,own_sum if (threadIdx.x != 0) -,own_sum if (threadIdx.x == 1) -,counted if (threadIdx.x != 0) -,counted if (threadIdx.x == 1) -,no_barrier if (threadIdx.x != 0) -,no_barrier if (threadIdx.x == 1) -,returned if (threadIdx.x != 0) -,returned if (threadIdx.x == 1) -,added if (threadIdx.x != 0) -,added if (threadIdx.x == 1) -,lone if (threadIdx.x != 0) -,lone if (threadIdx.x == 1) -," \
    "any-thread: a block's sum after a helper's barrier, a broadcast through shared memory; not: the thread's own sum, an atomic, shared memory with no barrier before, a return before, a store that adds, a block of one thread"
is "$(jq -r 'select(.scan.name == "block_sum") | .wrap.mutants.list[] |
    select(.equivalent.rule == "any-thread") | .equivalent.reason' "$T_TMP/thread" | tail -n 1)" \
    "the body of if (threadIdx.x == 0) does the same in whichever thread runs it, and some thread of each block runs it in every case, in the reference and with threadIdx.x == 1 (1 and 1 of 256 threads in case 0)" \
    "the proof counts the threads that take the if"
is "$(jq -r '[.wrap.mutants.list[] | select(.equivalent.rule == "any-thread")] |
    length' "$T_TMP/thread" | awk '{ t += $1 } END { print t }')" 4 \
    "no other mutant of these kernels is marked any-thread"
run test/validate "$T_TMP/thread"
ok "$T_STATUS" "any-thread proofs validate against schemas/"

# the schema's shape, and what each proof read
is "$(jq -rs '[.[].wrap.mutants.list[] | select(.equivalent) | .equivalent |
    keys | join(",")] | unique | .[]' "$T_TMP/wrap")" "cases,reads,reason,rule,under" \
    "each proof has under, rule, cases, reads and reason"
is "$(jq -r 'select(.scan.name == "gather_guard" or .scan.name == "batch_guard" or
    .scan.name == "row_stride") | .wrap.mutants.list[] | select(.id == "m4" or
    .id == "m3") | select(.equivalent) | .equivalent.reads | join(",")' "$T_TMP/wrap")" \
    "$(printf 'scalars,data\nscalars,launch\nlaunch')" \
    "reads: the index buffer's fill and n0; blockIdx.y and b; blockDim.x and gridDim.y"

done_testing
