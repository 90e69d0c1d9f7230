#!/bin/sh
# kwrap --mutants (golden mutant lists for the small kernels in
# test/mutate/, each NAME.cu with its NAME.mutants) and --switch-cases
# (cases for switch-like scalars and data-dependent guards).  No GPU:
# kbuild compiles the mutants and kverify runs them (test/gpu/).
. "$(dirname "$0")/lib.sh"

for t in kscan kslice kwrap; do
	have_tool "$t" || skip_all "$t is not built"
done
command -v jq > /dev/null || skip_all "jq not installed (make deps)"
KW=$(tool kwrap)

for f in modes blocksum guard decl; do
	"$(tool kscan)" "test/mutate/$f.cu" 2> /dev/null |
	    "$(tool kslice)" 2> /dev/null > "$T_TMP/$f.slice"
	run "$KW" --mutants 100 < "$T_TMP/$f.slice"
	is "$T_STATUS" 0 "$f: kwrap --mutants exits 0"
	cp "$T_TMP/out" "$T_TMP/$f.wrap"
	jq -r '.wrap.mutants | "sites \(.sites)",
	    (.list[] | "\(.id) \(.op) \(.line) \(.replacement)")' \
	    "$T_TMP/$f.wrap" > "$T_TMP/$f.got"
	is_file "$T_TMP/$f.got" "test/mutate/$f.mutants" \
	    "$f: the mutants are test/mutate/$f.mutants"
	# each mutant is its edit of slice.code and nothing else: the
	# edited text holds the diff's + line, the reference does not
	n=$(jq -r '.slice.code as $c | .wrap.mutants.list[] |
	    ($c[0:.offset] + .replacement + $c[.offset + .length:]) as $m |
	    (.diff | split("\n")[2][1:]) as $plus |
	    select(($m | contains($plus)) and ($c | contains($plus) | not) |
	    not) | .id' "$T_TMP/$f.wrap" | wc -l)
	is "$n" 0 "$f: every edit gives the code its diff shows"
done

is "$(jq -r '.wrap.mutants.list[] | select(.op == "drop-syncthreads") |
    .diff' "$T_TMP/blocksum.wrap" | head -n 3)" \
    "$(printf '@@ line 9 @@\n-\t__syncthreads();\n+\t;')" \
    "a dropped __syncthreads, as a diff of its line"
is "$(jq -r '.wrap.mutants.list[] | select(.op == "store-plus-one") |
    .diff' "$T_TMP/modes.wrap")" \
    "$(printf '@@ line 18 @@\n-\t\t\ty[i] = v;\n+\t\t\ty[i] = (v) + 1;')" \
    "+ 1 on a stored value"
ok "$(jq -e '[.wrap.mutants.list[] | select(.replacement == "257")] |
    length == 1' "$T_TMP/blocksum.wrap" > /dev/null; echo $?)" \
    "an array's declared size is not a site, an index constant is"

run "$KW" --mutants 3 < "$T_TMP/modes.slice"
is "$(jq -r '[.wrap.mutants.budget, (.wrap.mutants.list[] | .op)] | join(" ")' "$T_TMP/out")" \
    "3 swap-arith swap-relational constant" \
    "a budget takes the operators round-robin, in source order"
run "$KW" < "$T_TMP/modes.slice"
is "$(jq -r '.wrap.mutants' "$T_TMP/out")" null "no --mutants: no mutants"
run "$KW" --mutants x < "$T_TMP/modes.slice"
is "$T_STATUS" 2 "--mutants x: usage error"

# --- switch cases
is "$(jq -r '.wrap.spec.cases[] | select(.name | startswith("switch")) |
    "\(.name) \(.scalars.mode) \(.scalars.n)"' "$T_TMP/modes.wrap")" \
    "$(printf 'switch_mode_2 2 100000\nswitch_mode_0 0 100000\nswitch_accumulate_0 3 100000')" \
    "a scalar compared with 2 (mode == 2) gets a case with mode 2; 0 and false, which only the zeros case gave, get one of plain data"
is "$(jq -r '[.wrap.spec.cases[].scalars.mode] | map(tostring) | join(" ")' "$T_TMP/modes.wrap")" \
    "3 3 3 3 3 3 0 -3 1000000 2 0 3" \
    "every value the kernel compares mode with (0, 2, 3) is in some case"
is "$(jq -c '.wrap.spec.cases[] | select(.name | startswith("straddle")) |
    [.name, .fills.x]' "$T_TMP/guard.wrap")" \
    '["straddle_x_0_5",{"kind":"uniform","lo":-1.5,"hi":2.5}]' \
    "a store guarded by x[i] > 0.5f: a fill of x on both sides of 0.5"
"$(tool kscan)" test/mutate/guardlocal.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KW" > "$T_TMP/gl" 2> /dev/null
is "$(jq -c '.wrap.spec.cases[] | select(.name | startswith("straddle")) |
    [.name, .fills.x]' "$T_TMP/gl")" \
    '["straddle_x_0_25",{"kind":"uniform","lo":-1.75,"hi":2.25}]' \
    "a guard on a local loaded from x (v = x[i]; v > 0.25f) straddles x too"
is "$("$(tool kscan)" test/mutate/helper.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KW" 2> /dev/null | jq -c '[.wrap.spec.cases[] | select(.name | startswith("switch")) | [.name, .scalars.pool]]')" \
    '[["switch_pool_1",1]]' \
    "a scalar a helper compares under the same name (pool == 1) gets its case"
"$(tool kscan)" test/mutate/order.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null \
    > "$T_TMP/order.slice"
"$KW" < "$T_TMP/order.slice" > "$T_TMP/order" 2> /dev/null
is "$(jq -c '.wrap.spec.cases[] | select(.name | test("straddle|switch")) |
    [.name, .scalars.k, .fills.x]' "$T_TMP/order")" \
    "$(printf '%s\n' '["straddle_x_0",3,{"kind":"int","lo":-2,"hi":2}]' \
    '["switch_k_5",5,null]')" \
    "ordered against a whole constant: x[i] >= 0.0f draws 0 itself, k < 5 gets k = 5"
is "$("$(tool kscan)" examples/src/reduce.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KW" 2> /dev/null | jq -c 'select(.scan.name == "histogram_kernel") |
    .wrap.spec.cases[0].scalars | [.lo, .hi]')" "[-0.5,0.75]" \
    "bounds named lo and hi sit inside the data's [-1, 1], their magnitudes apart"
is "$("$(tool kscan)" test/mutate/step.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KW" 2> /dev/null | jq -c '[.wrap.spec.cases[] | select(.name == "zeros" or .name == "negatives") |
    [.name, .scalars.step, .scalars.group, .scalars.scale, .scalars.bias]]')" \
    '[["zeros",3,4,5,0],["negatives",3,4,5,-6]]' \
    "a loop's step and a divisor keep their typical values where zeros and negatives would hang or divide by 0"
is "$("$(tool kscan)" test/mutate/negdims.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KW" 2> /dev/null | jq -c '[.wrap.spec.cases[] | select(.name == "negatives") |
    [.scalars.H, .scalars.W, .scalars.K, .scalars.sigma]]')" \
    '[[4,5,6,-2.5]]' \
    "dimensions that bound a loop through a local or divide as a product stay positive in negatives"
run "$KW" --switch-cases 0 < "$T_TMP/modes.slice"
is "$(jq -r '[.wrap.spec.cases[] | select(.name | startswith("switch"))] | length' "$T_TMP/out")" \
    0 "--switch-cases 0: none added"
"$(tool kscan)" test/mutate/blocksum.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KW" > "$T_TMP/bs" 2> /dev/null
is "$(jq -r '[.wrap.spec.cases[] | select(.name | test("switch|straddle"))] | length' "$T_TMP/bs")" \
    0 "sizes (n) are not switches: no case with n = 0"

# --- boundary cases: compared values drawn exactly, connectives decided
"$(tool kscan)" test/mutate/boundary.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null \
    > "$T_TMP/bnd.slice"
"$KW" < "$T_TMP/bnd.slice" > "$T_TMP/bnd" 2> /dev/null
is "$(jq -c '.wrap.spec.cases[] | select(.name | startswith("boundary")) |
    [.name, .scalars.mode, .scalars.k, .scalars.lim, .scalars.flip,
    .fills.x, .fills.lab, .fills.y]' "$T_TMP/bnd")" \
    "$(printf '%s\n' '["boundary",1,6,6,0,{"kind":"int","lo":0.5,"hi":2.5},{"kind":"int","lo":1,"hi":3},{"kind":"int","lo":0.5,"hi":2.5}]' \
    '["boundary_logic",1,6,6,1,{"kind":"int","lo":-1,"hi":1},{"kind":"int","lo":1,"hi":3},{"kind":"int","lo":-1,"hi":1}]')" \
    "boundary: x and y around thresh (1.5) and tied, lab around 2, k = lim; boundary_logic: mode == 1 beside && true, k < lim false and flip != 0 true beside ||, x around 0"
"$KW" --switch-cases 0 < "$T_TMP/bnd.slice" > "$T_TMP/bnd0" 2> /dev/null
is "$(jq -c '[.wrap.spec.cases | length, (.[0] | tojson)]' "$T_TMP/bnd0")" \
    "$(jq -c '[(.wrap.spec.cases | length) - 4, (.wrap.spec.cases[0] | tojson)]' "$T_TMP/bnd")" \
    "two boundary cases (and two switch cases) at the end; case 0 unchanged; --switch-cases 0: none"
is "$(jq -r '[.wrap.spec.cases[] | select(.name | startswith("boundary"))] | length' "$T_TMP/bs")" \
    0 "nothing compared with data or a value scalar (blocksum): no boundary case"
"$(tool kscan)" test/mutate/loaded.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null |
    "$KW" > "$T_TMP/ld" 2> /dev/null
is "$(jq -c '.wrap.spec.cases[] | select(.name | startswith("boundary")) |
    [.name, .scalars.skip, .fills]' "$T_TMP/ld")" \
    '["boundary",true,{"g":{"kind":"int","lo":-1,"hi":1},"st":{"kind":"int","lo":-0.5,"hi":1.5}}]' \
    "an array a load fills from g (load4(d, &g[4 * i])) compared with 0: g drawn -1 ... 1; st (inout) around 0.5; out, stored from d, not filled"
# --- size-guard cases: a size at the constant of an early-exit guard
"$(tool kscan)" test/mutate/sizeguard.cu 2> /dev/null | "$(tool kslice)" 2> /dev/null \
    > "$T_TMP/sg.slice"
"$KW" < "$T_TMP/sg.slice" > "$T_TMP/sg" 2> /dev/null
added() {	# the cases named $1... of kernel $2 in $3: name and scalars
	jq -r --arg p "$1" --arg k "$2" 'select(.scan.name == $k) |
	    .wrap.spec.cases[] | select(.name | startswith($p)) |
	    "\(.name) \(.scalars | to_entries | map("\(.key)=\(.value)") |
	    join(","))"' "$3"
}
edges() { added size_edge "$@"; }
is "$(edges pick_rows "$T_TMP/sg")" "size_edge b=300,n=64,m=0" \
    "if (m <= 0) return; first, picks sized by b * m: a case with m = 0, the rest as case 0"
is "$(edges pair_rows "$T_TMP/sg")" \
    "$(printf 'size_edge b=285,n=0,m=60\nsize_edge_2 b=285,n=60,m=0')" \
    "if (n <= 0 || m <= 0) return;: one case per size"
is "$(edges keeps_y "$T_TMP/sg")" "" \
    "near miss: y has n elements at m = 0, left unwritten: no case"
is "$(edges store_first "$T_TMP/sg")" "" \
    "near miss: a store before the guard would run on the empty size: no case"
is "$(edges grid_of "$T_TMP/sg")" "" \
    "near miss: the grid (n + 255) / 256 is empty at n = 0: no case"
"$KW" --switch-cases 1 < "$T_TMP/sg.slice" > "$T_TMP/sg1" 2> /dev/null
is "$(edges pair_rows "$T_TMP/sg1")" "size_edge b=285,n=0,m=60" \
    "--switch-cases 1: the first size only"
is "$(jq -r 'select(.scan.name == "pick_rows") | .wrap.spec.cases[0].scalars.m' "$T_TMP/sg")" \
    64 "case 0 keeps its size"

# --- loop-entry cases: a loop no case runs gets a case that runs it
"$(tool kscan)" test/mutate/loopentry.cu 2> /dev/null |
    "$(tool kslice)" 2> /dev/null > "$T_TMP/le.slice"
"$KW" < "$T_TMP/le.slice" > "$T_TMP/le" 2> /dev/null
entries() { added loop_entry "$@"; }
is "$(entries pipelined "$T_TMP/le")" "loop_entry m=129,split=1" \
    "a pipelined main loop with a barrier (k < tiles - 1, tiles from m and split): two sizes moved, so that it runs twice"
is "$(entries stepped "$T_TMP/le")" "loop_entry m=129,split=2" \
    "the same loop with a step kwrap cannot read (k = next_tile(k)): a case for its first trip"
is "$(entries staged "$T_TMP/le")" "" \
    "near miss: a loop with a barrier the cases run many times: no case"
is "$(entries segments "$T_TMP/le")" "loop_entry rows=300,cols=2049" \
    "segments of 2048: cols one past a segment, rows as case 0"
is "$(entries always "$T_TMP/le")" "" "near miss: a loop every case runs: no case"
is "$(entries strided "$T_TMP/le")" "" \
    "near miss: a strided loop whose second trip needs a buffer past the budget: no case"
is "$(entries rowsum "$T_TMP/le")" "loop_entry rows=300,cols=513" \
    "a loop from the thread's index in strides of the block (512): cols one past a stride, so that thread 0 makes two trips"
is "$(jq -r 'select(.scan.name == "rowsum") | .wrap.spec.cases |
    map(select(.name != "loop_entry")) | map(.scalars.cols) |
    map(select(. > 512)) | length' "$T_TMP/le")" 0 \
    "no other case of rowsum makes a second trip (what the case is for)"
is "$(entries reassigned "$T_TMP/le")" "" \
    "near miss: the bound's local is assigned again under a condition: no case"
is "$(jq -r 'select(.scan.name == "segments") | .wrap.spec.cases |
    map(select(.name != "loop_entry")) | map(.scalars.cols) |
    map(select(. > 2048)) | length' "$T_TMP/le")" 0 \
    "no other case of segments runs its main loop (what the case is for)"
"$KW" --switch-cases 0 < "$T_TMP/le.slice" > "$T_TMP/le0" 2> /dev/null
is "$(entries pipelined "$T_TMP/le0")" "" "--switch-cases 0: no loop-entry case"

# --- a float scalar compared with a constant takes it, with plain data
"$(tool kscan)" test/mutate/floatswitch.cu 2> /dev/null |
    "$(tool kslice)" 2> /dev/null | "$KW" > "$T_TMP/fs" 2> /dev/null
is "$(jq -r '.scan.name as $k | .wrap.spec.cases[] | select(.name | startswith("switch")) |
    "\($k) \(.name) \(.scalars | to_entries | map("\(.key)=\(.value)") | join(","))"' "$T_TMP/fs")" \
    "clipped switch_clip_0 clip=0,scale=-0.75,n=100000" \
    "if (clip > 0.0f): a case with clip at 0 and case 0's data; near misses: scale only multiplied, alpha tested for truth alone: no case"
is "$(jq -r 'select(.scan.name == "clipped") | .wrap.spec.cases[] |
    select(.name == "switch_clip_0") | .fills // {} | length' "$T_TMP/fs")" 0 \
    "the case keeps case 0's fills (plain data, not zeros)"

# --- multi-block cases: a grid every case holds at one block gets two
"$(tool kscan)" test/mutate/gridcase.cu 2> /dev/null |
    "$(tool kslice)" 2> /dev/null > "$T_TMP/gc.slice"
"$KW" < "$T_TMP/gc.slice" > "$T_TMP/gc" 2> /dev/null
is "$(jq -r 'select(.scan.name == "plane_scale") | .wrap.spec.cases[] |
    select(.name == "multi_block") | "\(.scalars["p.c"]) \(.scalars["p.rows"])"' "$T_TMP/gc")" \
    "320 300" \
    "a grid of (p.c + 255) / 256 with p.c at most 256 in every case: p.c five times case 0's, two blocks, the rest as case 0"
is "$(jq -r 'select(.scan.name == "plane_scale") | .wrap.spec.cases |
    map(select(.name != "multi_block")) | map(.scalars["p.c"]) |
    map(select(. > 256)) | length' "$T_TMP/gc")" 0 \
    "no other case of plane_scale runs a second block (what the case is for)"
is "$(jq -r 'select(.scan.name != "plane_scale") | .wrap.spec.cases[] |
    select(.name | startswith("multi_block")) | .name' "$T_TMP/gc")" "" \
    "near misses: a grid of constants, a kernel that names no blockIdx, a grid the default sizes make many blocks: no case"
"$KW" --switch-cases 0 < "$T_TMP/gc.slice" > "$T_TMP/gc0" 2> /dev/null
is "$(jq -r '.wrap.spec.cases[] | select(.name == "multi_block") | .name' "$T_TMP/gc0")" "" \
    "--switch-cases 0: no multi-block case"

# The fills as the harness draws them (its own code, on the CPU), and
# the conditions of test/mutate/boundary.cu and of their mutants
# evaluated over them: each mutant differs on the boundary cases, none
# on the typical case.
if command -v c++ > /dev/null; then
	{
		echo '#include <cstdint>'; echo '#include <cstring>'
		echo '#include <cmath>'; echo '#include <cstdio>'
		echo '#include <cstdlib>'; echo '#include <cstddef>'
		sed -n '/^enum { KW_F32/,/^static std::string kw_fnv/p' \
		    tools/kwrap/harness.in | sed '$d'
		cat <<'CC'
// fill KIND LO HI SEED BUFFER COUNT: the floats buffer BUFFER (its
// ordinal among the pointers) of a case of seed SEED holds
int main(int argc, char **argv)
{
	if (argc != 7) return 2;
	kw_fill f = { atoi(argv[1]), atof(argv[2]), atof(argv[3]), -1 };
	uint64_t seed = strtoull(argv[4], NULL, 10);
	int i = atoi(argv[5]);
	size_t n = (size_t)atol(argv[6]);
	float *v = (float *)calloc(n, sizeof(float));
	kw_fill_buf((unsigned char *)v, n, 4, KW_F32, f,
	    seed ^ ((uint64_t)(i + 1) * 0xD1B54A32D192ED03ULL), 0);
	for (size_t k = 0; k < n; k++) printf("%.9g\n", v[k]);
	return 0;
}
CC
	} > "$T_TMP/fill.cc"
	c++ -O1 -o "$T_TMP/fill" "$T_TMP/fill.cc" 2> "$T_TMP/fill.err"
	ok "$?" "the harness's fill code builds on the CPU"
	# draw NAME BUFFER ORDINAL: case NAME's buffer, 4096 elements
	draw() {
		jq -r --arg c "$1" --arg b "$2" '.wrap.spec as $s |
		    ($s.cases[] | select(.name == $c)) as $k |
		    ($k.fills[$b] // ($s.params[] | select(.name == $b) | .fill)) as $f |
		    "\(if $f.kind == "int" then 2 else 0 end) \($f.lo) \($f.hi) \($k.seed)"' \
		    "$T_TMP/bnd" | { read -r kd lo hi sd
		    "$T_TMP/fill" "$kd" "$lo" "$hi" "$sd" "$3" 4096; }
	}
	# differ CASE: per mutant, the elements where it and the reference
	# disagree: v >= thresh / v > thresh, x[i] < y[i] / <=, v > 0.0f /
	# v >= 0.0f under mode == 1 &&, and k < lim || flip != 0 / k <= lim,
	# / &&
	differ() {
		draw "$1" x 0 > "$T_TMP/x"
		draw "$1" y 2 > "$T_TMP/y"
		jq -r --arg c "$1" '.wrap.spec.cases[] | select(.name == $c) |
		    .scalars | "\(.thresh) \(.mode) \(.k) \(.lim) \(.flip)"' \
		    "$T_TMP/bnd" > "$T_TMP/sc"
		paste "$T_TMP/x" "$T_TMP/y" | awk -v s="$(cat "$T_TMP/sc")" '
		    BEGIN { split(s, a, " "); t = a[1]; m = a[2]; k = a[3];
			l = a[4]; f = a[5] }
		    { v = $1; y = $2
		      ge += (v >= t) != (v > t); lt += (v < y) != (v <= y)
		      gz += (m == 1 && v > 0) != (m == 1 && v >= 0)
		      o = (k < l || f != 0)
		      ol += o != (k <= l || f != 0); oa += o != (k < l && f != 0) }
		    END { print (ge > 0) + 0, (lt > 0) + 0, (gz > 0) + 0, (ol > 0) + 0, (oa > 0) + 0 }'
	}
	is "$(differ typical)" "0 0 0 0 0" \
	    "typical: no mutant of the five conditions differs from the reference"
	is "$(differ boundary) $(differ boundary_logic)" "1 1 0 1 0 0 1 1 0 1" \
	    "boundary kills >= / >, < / <= on ties, k < lim / <=; boundary_logic: ties, v > 0 / >= beside mode == 1, || / &&"
	# nearest (test/mutate/ties.cu): d < best made d <= best picks
	# another index where distances tie, on 64 p and the 64 q
	"$(tool kscan)" test/mutate/ties.cu 2> /dev/null |
	    "$(tool kslice)" 2> /dev/null | "$KW" > "$T_TMP/ties" 2> /dev/null
	cp "$T_TMP/bnd" "$T_TMP/bnd.keep"
	cp "$T_TMP/ties" "$T_TMP/bnd"
	picks() {
		draw "$1" p 0 | head -n 64 > "$T_TMP/p"
		draw "$1" q 1 | head -n 64 > "$T_TMP/q"
		awk 'NR == FNR { q[n++] = $1; next }
		    { b1 = b2 = 1e30; i1 = i2 = 0
		      for (j = 0; j < n; j++) { d = $1 - q[j]; if (d < 0) d = -d
			if (d < b1) { b1 = d; i1 = j }
			if (d <= b2) { b2 = d; i2 = j } }
		      diff += i1 != i2 }
		    END { print diff + 0 }' "$T_TMP/q" "$T_TMP/p"
	}
	is "$(jq -c '.wrap.spec.cases[] | select(.name | startswith("boundary")) | [.name, .fills]' "$T_TMP/ties")" \
	    '["boundary",{"p":{"kind":"int","lo":-2,"hi":2},"q":{"kind":"int","lo":-2,"hi":2}}]' \
	    "two locals compared (d < best, float d, best): every float input on the grid -2 ... 2"
	is "$(picks typical) $(test "$(picks boundary)" -gt 0 && echo some)" "0 some" \
	    "d < best made d <= best: the same index on typical data, another on the grid"
	is "$("$(tool kscan)" test/mutate/tiesatomic.cu 2> /dev/null |
	    "$(tool kslice)" 2> /dev/null | "$KW" 2> /dev/null |
	    jq -r '[.wrap.spec.cases[] | select(.name | startswith("boundary"))] | length')" 0 \
	    "the same under atomicExch: no grid (ties the threads' order settles)"
	cp "$T_TMP/bnd.keep" "$T_TMP/bnd"
else
	skip "the harness's fills on the CPU" "no C++ compiler"
fi

# --- cases aimed at surviving mutants (verify.mutation.survivors)
jq -c '.verify = {mutation: {survivors: [
    {id: "m5", op: "swap-relational", line: 9,
     diff: "@@ line 9 @@\n-\t\tif (mode == 2)\n+\t\tif (mode != 2)\n"},
    {id: "m4", op: "swap-arith", line: 8,
     diff: "@@ line 8 @@\n-\t\tfloat v = x[i] * a;\n+\t\tfloat v = x[i] / a;\n"}]}}' \
    "$T_TMP/modes.wrap" > "$T_TMP/surv.in"
run "$KW" --survivor-cases 4 < "$T_TMP/surv.in"
is "$(jq -r '.wrap.spec.cases[] | select(.name | startswith("survivor")) |
    "\(.name) \(.scalars.mode) \(.scalars.a) \(.fills.x.kind // "-")"' "$T_TMP/out")" \
    "$(printf 'survivor_m5_mode_1 4 2.25 -\nsurvivor_m5_mode_2 7 2.25 -\nsurvivor_m4_x_1 3 2.25 normal\nsurvivor_m4_a_1 3 -2.25 -')" \
    "each parameter a survivor's line names is moved off its value, within the budget"
run "$KW" < "$T_TMP/surv.in"
is "$(jq -r '[.wrap.spec.cases[] | select(.name | startswith("survivor"))] | length' "$T_TMP/out")" \
    0 "no --survivor-cases: none"
jq -c '.verify = {mutation: {survivors: [
    {id: "m4", op: "constant", line: 8,
     diff: "@@ line 8 @@\n-\t\tfor (int j = 0; j < m; j++)\n+\t\tfor (int j = 1; j < m; j++)\n"},
    {id: "m6", op: "drop-statement", line: 9,
     diff: "@@ line 9 @@\n-\t\t\tv += x[(i + j) % n];\n+\t\t\t;\n"},
    {id: "m3", op: "swap-relational", line: 6,
     diff: "@@ line 6 @@\n-\tif (i < w) {\n+\tif (i <= w) {\n"},
    {id: "m9", op: "swap-relational", line: 1,
     diff: "@@ line 1 @@\n-\tif (t < 1) {\n+\tif (t <= 1) {\n"}]}}' \
    "$T_TMP/order" > "$T_TMP/surv.in"
run "$KW" --survivor-cases 8 < "$T_TMP/surv.in"
is "$(jq -c '.wrap.spec.cases[] | select(.name | startswith("survivor")) |
    [.name, .scalars.n, .scalars.m, .scalars.k, .fills.x.kind // "-"]' "$T_TMP/out")" \
    "$(printf '%s\n' '["survivor_m4_m_1",300,65,3,"-"]' '["survivor_m4_m_2",300,129,3,"-"]' \
    '["survivor_m6_x_1",300,64,3,"normal"]' '["survivor_m6_n_1",301,64,3,"-"]' \
    '["survivor_m6_n_2",601,64,3,"-"]' '["survivor_sizes",300,49,3,"-"]' \
    '["survivor_data",300,64,3,"normal"]')" \
    "a survivor whose line names no parameter: sizes apart and wider data, once"
jq -c 'del(.verify)' "$T_TMP/out" > "$T_TMP/order.surv"
run "$KW" --survivor-cases 6 < "$T_TMP/surv.in"
is "$(jq -r '[.wrap.spec.cases[] | select(.name | startswith("survivor")) | .name] | join(" ")' "$T_TMP/out")" \
    "survivor_m4_m_1 survivor_m4_m_2 survivor_m6_x_1 survivor_m6_n_1 survivor_m6_n_2 survivor_sizes" \
    "the budget bounds them too"

# a value where the survivor's line and the mutant's part: k = 3 runs
# "k % 8 == 0" and "k % 8 == 1" the same, k = 1 does not; a size is never
# moved to 0 or below for it ("m > 0" against "m >= 0" parts only there)
jq -c '.verify = {mutation: {survivors: [
    {id: "m7", op: "constant", line: 4,
     diff: "@@ line 4 @@\n-\tint r = k % 8 == 0 ? 1 : 2;\n+\tint r = k % 8 == 1 ? 1 : 2;\n"},
    {id: "m8", op: "swap-relational", line: 5,
     diff: "@@ line 5 @@\n-\tif (m > 0)\n+\tif (m >= 0)\n"}]}}' \
    "$T_TMP/order" > "$T_TMP/surv.in"
run "$KW" --survivor-cases 8 < "$T_TMP/surv.in"
is "$(jq -r '[.wrap.spec.cases[] | select(.name | startswith("survivor")) |
    "\(.name)=\(.scalars.k),\(.scalars.m)"] | join(" ")' "$T_TMP/out")" \
    "survivor_m7_k_hit=1,64 survivor_m7_k_1=4,64 survivor_m7_k_2=7,64 survivor_m8_m_1=3,65 survivor_m8_m_2=3,129" \
    "survivor cases: k = 1 where the lines part; no hit for a size that parts only at 0"

# --- kbuild builds the mutants; byte-equal modules are equivalent
if have_tool kbuild && { command -v nvcc > /dev/null ||
    [ -x /usr/local/cuda/bin/nvcc ]; }; then
	PATH=$PATH:/usr/local/cuda/bin
	KFORGE_WORK=$T_TMP/work
	export KFORGE_WORK
	"$(tool kscan)" test/mutate/dead.cu 2> /dev/null |
	    "$(tool kslice)" 2> /dev/null | "$KW" --mutants 100 2> /dev/null |
	    jq -c '.wrap.mutants.list[1].replacement = "@@"' |
	    "$(tool kbuild)" -q --arch sm_90 > "$T_TMP/dead.built"
	is "$(jq -c '.build.mutants | [.built, .stillborn, .equivalent]' "$T_TMP/dead.built")" \
	    "[7,1,2]" "kbuild: 7 mutants built, 1 stillborn, 2 equivalent"
	is "$(jq -r '. as $r | [.wrap.mutants.list[] | .id as $id |
	    select(any($r.build.mutants.list[]; .id == $id and .equivalent)) |
	    "\(.line):\(.replacement)"] | join(" ")' "$T_TMP/dead.built")" \
	    "6:/ 6:8" \
	    "the mutants of dead code (int dead = i * 7) are equivalent: the same module bytes"
	like "$(jq -r '.build.mutants.list[1] | "\(.ok) \(.error)"' "$T_TMP/dead.built")" \
	    '^false .*' "a mutant that does not compile is stillborn, with the compiler's error"
	# nvcc names an anonymous namespace's table by a hash of the unit's
	# text: every mutant's module differs from the reference's there
	"$(tool kscan)" test/mutate/deadns.cu 2> /dev/null |
	    "$(tool kslice)" 2> /dev/null | "$KW" --mutants 100 2> /dev/null |
	    "$(tool kbuild)" -q --arch sm_90 > "$T_TMP/deadns.built"
	is "$(jq -r '. as $r | [.build.mutants.built, .build.mutants.equivalent,
	    (.wrap.mutants.list[] | .id as $id |
	    select(any($r.build.mutants.list[]; .id == $id and .equivalent)) |
	    "\(.line):\(.replacement)")] | join(" ")' "$T_TMP/deadns.built")" \
	    "9 2 10:/ 10:8" \
	    "with an internal entity in the unit, dead code's mutants are equivalent all the same (its names' unit hash set aside)"
	unset KFORGE_WORK
else
	skip "kbuild and the mutants" "kbuild or nvcc missing"
fi

# --- sizes that differ in some case (test/mutate/decompose.cu): one index
# over B * C * L taken apart by C and L; a case where C and L differ and
# nthreads passes C * L, so b leaves 0 and "b * C" made "b / C" (m6)
# reads another element there (make test-gpu: killed)
"$(tool kscan)" test/mutate/decompose.cu 2> /dev/null |
    "$(tool kslice)" 2> /dev/null | "$KW" --mutants 100 > "$T_TMP/dec" 2> /dev/null
is "$(jq -c '[.wrap.spec.cases[] | .scalars |
    select(.C != .L and .nthreads >= 2 * .C * .L) | [.nthreads, .C, .L]]' \
    "$T_TMP/dec")" '[[773,67,5]]' \
    "non_multiple gives C and L values of their own, their product below nthreads: b reaches 2"
is "$(jq -r '.wrap.mutants.list[] | select(.id == "m6") |
    "\(.diff | split("\n")[2] | ltrimstr("+") | gsub("^\\s+"; "")) | \(.equivalent)"' \
    "$T_TMP/dec")" \
    'out[index] = in[(b / C + c) * L + l] * 2.0f + (float)c; | null' \
    "m6 is b's term made a quotient, not marked equivalent"

if python3 -c 'import jsonschema' 2> /dev/null; then
	cat "$T_TMP/modes.wrap" "$T_TMP/blocksum.wrap" "$T_TMP/guard.wrap" \
	    "$T_TMP/order" "$T_TMP/order.surv" "$T_TMP/bnd" "$T_TMP/ties" "$T_TMP/sg" \
	    "$T_TMP/dead.built" 2> /dev/null |
	    python3 test/validate > "$T_TMP/val" 2> /dev/null
	is "$?:$(cat "$T_TMP/val")" "0:" "wrap.mutants and the added cases validate against schemas/"
else
	skip "python3 jsonschema not installed"
fi

done_testing
