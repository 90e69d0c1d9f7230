#!/bin/sh
# kreport --export-dir: the example records, given a verify section and
# golden blobs of their own (test/export/golden.jq), become one folder per
# verified CUDA task: kernel.cu, task.json, test.cu, expected/ and
# README.md; test.cu builds with plain nvcc (no GPU here: build only; the
# run is test/gpu/export.sh's).
. "$(dirname "$0")/lib.sh"

have_tool kreport || skip_all "kreport not built"
command -v jq > /dev/null || skip_all "jq not installed (make deps)"
command -v sha256sum > /dev/null || skip_all "no sha256sum"
KREPORT=$(tool kreport)
KFORGE_WORK=$T_TMP/work
export KFORGE_WORK

# blob K: case K's bytes of every output, 16 of them ("0000000000000K" as
# text); its hash goes to hashes.json
hashes=
for k in $(seq 0 15); do
	printf '%016d' "$k" > "$T_TMP/blob"
	h=$(sha256sum < "$T_TMP/blob" | cut -c1-64)
	mkdir -p "$KFORGE_WORK/blobs/$(echo "$h" | cut -c1-2)"
	mv "$T_TMP/blob" "$KFORGE_WORK/blobs/$(echo "$h" | cut -c1-2)/$h"
	hashes="$hashes${hashes:+,}\"$h\""
done
echo "[$hashes]" > "$T_TMP/hashes.json"
H3=$(jq -r '.[3]' "$T_TMP/hashes.json")
IN=$T_TMP/in.ndjson
jq -c --slurpfile h "$T_TMP/hashes.json" -f test/export/golden.jq \
    examples/kwrap.ndjson > "$IN"
total=$(wc -l < examples/kwrap.ndjson)
hip=$(jq -s '[.[] | select(.wrap.harness.dialect == "hip")] | length' "$IN")

# --- every example: one line each, a folder for each CUDA task
cd "$T_TMP" || exit 1
run "$KREPORT" --export-dir x in.ndjson
cd "$T_ROOT" || exit 1
is "$T_STATUS" 0 "export: exit 0"
is "$(wc -l < "$T_TMP/out")" "$total" "one line per record"
cp "$T_TMP/out" "$T_TMP/lines"
is "$(jq -r 'select(.skipped) | .skipped' "$T_TMP/lines" | sort -u)" \
    "not CUDA: test.cu is built with nvcc" "only HIP tasks are left out"
is "$(jq -r 'select(.dir) | .dir' "$T_TMP/lines" | wc -l)" "$((total - hip))" \
    "a folder for each CUDA task"
X=$T_TMP/$(jq -r 'select(.id == "examples/src/conv1d.cu::conv1d_kernel") | .dir' "$T_TMP/lines")
is "$(cd "$X" && find . -type f | sort | tr '\n' ' ')" \
    "./README.md ./expected/0/out.bin ./expected/1/out.bin ./expected/2/out.bin ./expected/3/out.bin ./expected/4/out.bin ./expected/5/out.bin ./expected/6/out.bin ./expected/7/out.bin ./expected/8/out.bin ./kernel.cu ./task.json ./test.cu " \
    "conv1d: kernel, task, test, readme and one expected output per case"
R=$(jq -c 'select(.id == "examples/src/conv1d.cu::conv1d_kernel")' "$IN")
printf '%s\n' "$R" | jq -j .slice.code > "$T_TMP/kernel.cu"
is_file "$X/kernel.cu" "$T_TMP/kernel.cu" "kernel.cu is the slice"
is_file "$X/expected/3/out.bin" "$KFORGE_WORK/blobs/$(echo "$H3" | cut -c1-2)/$H3" \
    "expected/3/out.bin is case 3's golden blob"
is "$(jq -c '[.id, .source.file, .source.line, .kernel, .signature,
    (.instruction | keys), .spec.kernel, (.tags | type), .verdicts.verified.value,
    .verdicts.mutation.score, .build, .run, (.cases | length)]' "$X/task.json")" \
    '["examples/src/conv1d.cu::conv1d_kernel","examples/src/conv1d.cu",12,"conv1d_kernel","__global__ void conv1d_kernel(const float *__restrict__ in, float *__restrict__ out, int n)",["concise","detailed"],"conv1d_kernel","object",true,0.9,"nvcc -o test test.cu","./test",9]' \
    "task.json: id, source, kernel, signature, instruction, spec, tags, verdicts, commands"
if /usr/bin/python3 -c 'import jsonschema' 2> /dev/null; then
	for f in "$T_TMP"/x/*/task.json; do jq -c . "$f"; done > "$T_TMP/tasks.ndjson"
	run test/validate -s task.schema.json "$T_TMP/tasks.ndjson"
	is "$T_STATUS:$(cat "$T_TMP/out" "$T_TMP/err")" "0:" \
	    "every task.json validates against schemas/task.schema.json"
else
	skip "task.json against its schema" "python3-jsonschema is not installed"
fi
like "$(cat "$X/README.md")" '^    nvcc -o test test\.cu$' "README: the build command"
like "$(cat "$X/README.md")" '^    \./test$' "README: the run command"
# the harness's driver layer is the runtime's; the kernel is its symbol
like "$(grep -c 'cuModuleLoad\|cuLaunchKernel\|#include <cuda.h>' "$X/test.cu")" '^0$' \
    "test.cu calls no driver API (plain nvcc links no libcuda)"
like "$(cat "$X/test.cu")" 'return \(const void \*\)&conv1d_kernel; \}' \
    "the kernel is found by its symbol"
like "$(cat "$X/test.cu")" 'if \(strcmp\(name, "c_taps"\) == 0\) return \(const void \*\)&c_taps;' \
    "a __constant__ global is found by its symbol"
like "$(cat "$X/test.cu")" '^#include "kernel.cu"$' "test.cu includes kernel.cu"
like "$(cat "$X/test.cu")" 'cudaFuncSetAttribute\(f, cudaFuncAttributeMaxDynamicSharedMemorySize, \(int\)sh\)' \
    "a launch with over 48 KiB of dynamic shared memory opts the kernel in, as the harness does"
# verify.tolerance's band (the fixture widens out's atol to 0.5)
like "$(cat "$X/test.cu")" '\{ 3, "out", 1, 4, 0.5, 0.0001' \
    "an output is compared in the band kverify measured"
# an unordered output (kverify: the same elements in another order) is
# compared as a multiset
printf '%s\n' "$R" | jq -c '.verify.tolerance.outputs |= map(if .name == "out" then .unordered = true else . end)' \
    > "$T_TMP/unord.ndjson"
run "$KREPORT" --export-dir "$T_TMP/uo" "$T_TMP/unord.ndjson"
like "$(cat "$(jq -r .dir "$T_TMP/out")/test.cu")" '\{ 3, "out", 1, 4, 0\.5, 0\.0001, [0-9]+ULL, 1, 0, 0\.5 \}' \
    "an unordered output is marked so in test.cu"
like "$(cat "$X/test.cu")" '\{ 3, "out", 1, 4, 0\.5, 0\.0001, [0-9]+ULL, 0, 0, 0\.5 \}' \
    "the others are not"
# a masked output (kverify: a few elements move between the reference's
# runs): its map of unstable elements beside the golden, where it has one
H5=$(jq -r '.[5]' "$T_TMP/hashes.json")
printf '%s\n' "$R" | jq -c --arg m "$H5" '.verify.tolerance.outputs |= map(if .name == "out" then .masked = true | .unstable = 1 | .elements = 36 else . end) |
    .verify.golden[1].outputs[0] += {unstable: 1, unstable_hash: $m, stable_spread: 0}' \
    > "$T_TMP/masked.ndjson"
run "$KREPORT" --export-dir "$T_TMP/mk" "$T_TMP/masked.ndjson"
M=$(jq -r .dir "$T_TMP/out")
like "$(cat "$M/test.cu")" '\{ 1, "out", 1, 4, 0\.5, 0\.0001, [0-9]+ULL, 0, 1, 0\.5 \}' \
    "a masked output is marked so in test.cu"
printf '%s\n' "$R" | jq -c --arg m "$H5" '.verify.tolerance.outputs |= map(if .name == "out" then .split = true | .unstable = 1 | .elements = 36 | .stable_atol = 0.001 else . end) |
    .verify.golden[1].outputs[0] += {unstable: 1, unstable_hash: $m, stable_spread: 0}' \
    > "$T_TMP/split.ndjson"
run "$KREPORT" --export-dir "$T_TMP/sp" "$T_TMP/split.ndjson"
like "$(cat "$(jq -r .dir "$T_TMP/out")/test.cu")" '\{ 1, "out", 1, 4, 0\.5, 0\.0001, [0-9]+ULL, 0, 2, 0\.001 \}' \
    "a split output is marked so in test.cu, with its stable elements' band"
is "$(cd "$M" && find expected -name '*.unstable.bin' | sort | tr '\n' ' ')" \
    "expected/1/out.unstable.bin " "its map is copied where the golden has one (case 1), no other"
is_file "$M/expected/1/out.unstable.bin" "$KFORGE_WORK/blobs/$(echo "$H5" | cut -c1-2)/$H5" \
    "expected/1/out.unstable.bin is the map's blob"
printf '%s\n' "$R" | jq -c '.verify.golden[1].outputs[0].unstable_hash = "../../x"' \
    > "$T_TMP/mbad.ndjson"
run "$KREPORT" --export-dir "$T_TMP/mb" "$T_TMP/mbad.ndjson"
is "$(jq -r .skipped "$T_TMP/out")" "a golden output's unstable_hash is not a SHA-256" \
    "a map named by something else than a hash is refused"
T=$T_TMP/$(jq -r 'select(.id == "examples/src/attention.cu::qk_scores_kernel<float>") | .dir' "$T_TMP/lines")
like "$(cat "$T/test.cu")" 'return \(const void \*\)&qk_scores_kernel<float>; \}' \
    "a template instantiation is found by its symbol"

# --- what has no folder, and why: one line each
{
	printf '%s\n' "$R" | jq -c '.id = "t:unverified" | .verify.verified.value = false'
	printf '%s\n' "$R" | jq -c '.id = "t:no-blob" | .verify.golden[2].outputs[0].hash = ("ab" * 32)'
	printf '%s\n' "$R" | jq -c '.id = "t:no-driver-block" |
	    .wrap.harness.code |= sub("#include <cuda.h>"; "#include <cuda_runtime.h>")'
	printf '%s\n' "$R" | jq -c '.id = "t:cases" | .verify.golden |= .[0:3]'
	echo 'not json'
} > "$T_TMP/odd.ndjson"
run "$KREPORT" --export-dir "$T_TMP/y" "$T_TMP/odd.ndjson"
is "$T_STATUS" 1 "a line that is not a record: exit 1"
is "$(jq -r '.skipped' "$T_TMP/out")" "not verified
a golden output is not in the work directory's blobs (KFORGE_WORK)
the harness has no CUDA driver-API block to replace
the golden outputs and the spec's cases differ in number
not a record" "each record without a folder says why"
is "$(find "$T_TMP/y" -mindepth 1 | wc -l)" 0 "and has no folder"

# --- a blob that is not what its hash says is not copied
B=$KFORGE_WORK/blobs/$(echo "$H3" | cut -c1-2)/$H3
cp "$B" "$T_TMP/b3"
printf '%016d' 99 > "$B"
printf '%s\n' "$R" > "$T_TMP/one.ndjson"
run "$KREPORT" --export-dir "$T_TMP/z" "$T_TMP/one.ndjson"
is "$(jq -r .skipped "$T_TMP/out")" "a golden blob does not match its hash" \
    "a blob changed in the work directory is refused"
is "$(find "$T_TMP/z" -mindepth 1 | wc -l)" 0 "and its folder removed"
cp "$T_TMP/b3" "$B"

# --- --export-max-bytes: the cases that fit, in order; the rest listed
run "$KREPORT" --export-dir "$T_TMP/m" --export-max-bytes 40 "$T_TMP/one.ndjson"
M=$(jq -r .dir "$T_TMP/out")
is "$(jq -c '[.cases[] | select(.included) | .case]' "$M/task.json")" "[0,1]" \
    "two cases of 16 bytes fit in 40"
like "$(cat "$M/test.cu")" 'static const int kx_cases\[\] = \{ 0, 1 \};' \
    "test.cu runs those"
like "$(cat "$M/README.md")" '7 of the task.s 9 test cases are left out' \
    "README says the others are left out"
run "$KREPORT" --export-dir "$T_TMP/m" --export-max-bytes 8 "$T_TMP/one.ndjson"
like "$(jq -r .skipped "$T_TMP/out")" "over --export-max-bytes" \
    "no case fits: no folder"
# kverify --fit's harness arguments go with every run
printf '%s\n' "$R" | jq -c '.fit = {status: "fitted", args: ["--count", "out=n + 1", "--shared-mem", "64"]}' \
    > "$T_TMP/fit.ndjson"
run "$KREPORT" --export-dir "$T_TMP/f" "$T_TMP/fit.ndjson"
FT=$(jq -r .dir "$T_TMP/out")/test.cu
like "$(cat "$FT")" '^	kw_add_override\(kw_counts, "--count", "out=n \+ 1"\);$' \
    "fit.args: --count is passed to the harness"
like "$(cat "$FT")" '^	kw_ov_launch\[6\] = "64";$' "fit.args: and --shared-mem"
# as kverify, only a fit that fitted or bound the counts
printf '%s\n' "$R" | jq -c '.fit = {status: "failed", args: ["--count", "out=n + 1"]}' \
    > "$T_TMP/fit2.ndjson"
run "$KREPORT" --export-dir "$T_TMP/f2" "$T_TMP/fit2.ndjson"
FT=$(jq -r .dir "$T_TMP/out")
is "$(grep -c "kw_add_override(kw_counts, \"--count\", \"out" "$FT/test.cu"):$(jq -c .fit_args "$FT/task.json")" "0:null" \
    "a fit that failed gives no arguments"

# --export-mutants: killed mutants (by a mismatch) as mutants/ID.cu
printf '%s\n' "$R" | jq -c '(.slice.code | index("in[j]")) as $o |
    .wrap.mutants = {budget: 2, sites: 2, list: [
	{id: "m1", op: "constant", offset: $o, length: 5, replacement: "in[i]", line: 1, diff: ""},
	{id: "m2", op: "constant", offset: 0, length: 0, replacement: "x", line: 1, diff: ""}]} |
    .verify.mutation.mutants = [{id: "m1", status: "killed", by: "mismatch", case: 0},
	{id: "m2", status: "survived"}]' > "$T_TMP/mut.ndjson"
run "$KREPORT" --export-dir "$T_TMP/k" --export-mutants 3 "$T_TMP/mut.ndjson"
D=$(jq -r .dir "$T_TMP/out")
is "$(ls "$D/mutants" | tr '\n' ' ')" "m1.cu " "the killed mutant is kept, not the survivor"
printf '%s\n' "$R" | jq -j '.slice.code | sub("in\\[j\\]"; "in[i]")' > "$T_TMP/m1.cu"
is_file "$D/mutants/m1.cu" "$T_TMP/m1.cu" "mutants/m1.cu: the slice with the mutant's edit"
run "$KREPORT" --export-dir "$T_TMP/k2" "$T_TMP/mut.ndjson"
is "$(ls "$(jq -r .dir "$T_TMP/out")" | grep -c mutants)" 0 "no mutants/ by default"

run "$KREPORT" --export-dir "$T_TMP/u" --export kforge "$T_TMP/one.ndjson"
is "$T_STATUS" 2 "--export-dir with --export: usage error"

# --- test.cu's comparison on the CPU: tolerances, NaN, infinities, half
# and bfloat16, integers byte for byte, sizes, a missing file
if command -v g++ > /dev/null; then
	mkdir -p "$T_TMP/cmp"
	sed -n '/^\/\/@@ compare$/,/^\/\/@@ main$/p' tools/kreport/exporttest.in |
	    sed '1d;$d' > "$T_TMP/cmp/compare.inc"
	g++ -Wall -Wextra -Werror -Wno-unused-function -I"$T_TMP/cmp" -o "$T_TMP/cmp/cmp" \
	    test/export/compare.cpp > "$T_TMP/cmp.log" 2>&1
	ok $? "the comparison builds alone" || diag_file "$T_TMP/cmp.log"
	(cd "$T_TMP/cmp" && ./cmp > result 2>&1)
	is_file "$T_TMP/cmp/result" test/export/compare.out \
	    "comparisons and their mismatch lines (test/export/compare.out)"
else
	skip "the comparison on the CPU" "no g++"
fi

# --- slice.flags: -D and -U into test.cu, the others into the command
# (on the template instantiation, whose test.cu is built below)
jq -c 'select(.id == "examples/src/attention.cu::qk_scores_kernel<float>") |
    .id = "t:flags" | .slice.flags = ["-DKX_A=3", "-D", "KX_B",
    "-UKX_C", "--expt-relaxed-constexpr", "-std=c++17"]' "$IN" > "$T_TMP/flags.ndjson"
run "$KREPORT" --export-dir "$T_TMP/fl" "$T_TMP/flags.ndjson"
F=$(jq -r .dir "$T_TMP/out")
is "$(jq -r .build "$F/task.json")" "nvcc --expt-relaxed-constexpr -std=c++17 -o test test.cu" \
    "task.json: the build command carries the flags that are not defines"
like "$(cat "$F/README.md")" '^    nvcc --expt-relaxed-constexpr -std=c\+\+17 -o test test\.cu$' \
    "README: the same command"
is "$(sed -n '/^#define KX_\|^#undef KX_/p' "$F/test.cu")" "#define KX_A 3
#define KX_B 1
#undef KX_C" "defines and undefines at the top of test.cu"

# --- an overloaded kernel (kscan gives its id the parameter types) is
# taken by its type; "(anonymous namespace)" is no parameter list
jq -c 'select(.id == "examples/src/elementwise.cu::relu_kernel") |
    .id = "examples/src/elementwise.cu::relu_kernel(const float *, float *, int)" |
    .slice.code += "\n__global__ void relu_kernel(const double *in, double *out, int n) { }\n"' \
    "$IN" > "$T_TMP/over.ndjson"
jq -c 'select(.id == "examples/src/elementwise.cu::relu_kernel") |
    .id = "a.cu::(anonymous namespace)::relu_kernel"' "$IN" >> "$T_TMP/over.ndjson"
run "$KREPORT" --export-dir "$T_TMP/ov" "$T_TMP/over.ndjson"
O=$(jq -r .dir "$T_TMP/out" | head -n 1)
like "$(cat "$O/test.cu")" \
    'return \(const void \*\)static_cast<void \(\*\)\(const float \*, float \*, int\)>\(&relu_kernel\); \}' \
    "an overload is taken by its parameter types"
like "$(cat "$(jq -r .dir "$T_TMP/out" | tail -n 1)/test.cu")" \
    'return \(const void \*\)&relu_kernel; \}' "(anonymous namespace) is not a parameter list"

# --- a case kverify left out (verify.left_out): verify.golden has no
# entry for it, and the task neither runs nor expects it
jq -c 'select(.id == "examples/src/conv1d.cu::conv1d_kernel") |
    .verify.golden |= map(select(.case != 4)) |
    .verify.left_out = [{case: 4, name: "non_multiple", fault: "runtime",
    message: "harness exited 5: fault while running"}]' "$IN" > "$T_TMP/lo.ndjson"
run "$KREPORT" --export-dir "$T_TMP/lo" "$T_TMP/lo.ndjson"
L=$(jq -r .dir "$T_TMP/out")
is "$(cd "$L" && ls expected | tr '\n' ' ')" "0 1 2 3 5 6 7 8 " \
    "a case left out has no expected/ folder; the others keep their numbers"
is "$(jq -c '[[.cases[].case], .verdicts.left_out[0].case]' "$L/task.json")" \
    '[[0,1,2,3,5,6,7,8],4]' "task.json: the cases kept, and the one left out"
like "$(cat "$L/test.cu")" 'kx_cases\[\] = \{ 0, 1, 2, 3, 5, 6, 7, 8 \};' \
    "test.cu runs the cases kept, by their numbers"
like "$(cat "$L/test.cu")" '\{ 5, "out", 1, 4,' "case 5's expected output keeps its number"
jq -c 'del(.verify.left_out)' "$T_TMP/lo.ndjson" > "$T_TMP/gap.ndjson"
run "$KREPORT" --export-dir "$T_TMP/gap" "$T_TMP/gap.ndjson"
is "$(jq -r .skipped "$T_TMP/out")" "the golden outputs are not one per case, in order" \
    "a case missing from the golden that was not left out: no folder"

# --- the exported tests build with plain nvcc, from their own folder
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -x "$NVCC" ]; then
	for d in "$X" "$F" "$O" "$L" "$M"; do
		c=$(jq -r .build "$d/task.json")
		(cd "$d" && eval "\"\$NVCC\"${c#nvcc}") > "$T_TMP/nvcc.log" 2>&1
		ok $? "nvcc -o test test.cu: $(basename "$d")" || diag_file "$T_TMP/nvcc.log"
		is "$(grep -c 'warning' "$T_TMP/nvcc.log")" 0 "no warnings: $(basename "$d")"
	done
else
	skip "nvcc -o test test.cu" "nvcc not installed"
fi
done_testing
