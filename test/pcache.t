#!/bin/sh
# The parse cache: a unit whose text, included files and parser arguments
# are unchanged is not parsed again, and a change to any of them is seen.
. "$(dirname "$0")/lib.sh"

have_tool kscan || skip_all "kscan not built"
KSCAN=$(tool kscan)
D=$T_TMP
W=$D/work
export KFORGE_WORK=$W

# a project of its own, edited below (no HIP file: whether its toolkit
# probe can be kept depends on the machine)
mkdir -p "$D/p"
cp -R examples/src/common examples/src/kernels examples/src/reduce.cu \
    examples/src/softmax.cu examples/src/attention.cu "$D/p/"
# ids relative to this directory, as the expectations below spell them
cd "$D" || exit 1
stats() { grep 'parse cache' "$T_TMP/err"; }

run "$KSCAN" --root . --timing p
is "$T_STATUS" 0 "cold: exit 0"
cp "$T_TMP/out" cold.ndjson
like "$(stats)" ": 0 reused, [1-9][0-9]* parsed, 0 changed$" "cold: every unit parsed"
ok "$(find "$W/pcache/kscan" -name '*.json' | grep -q . && echo 0 || echo 1)" \
    "cold: entries under \$KFORGE_WORK/pcache/kscan"

run "$KSCAN" --root . --timing p
is_file "$T_TMP/out" cold.ndjson "warm: the same records"
like "$(stats)" ": [1-9][0-9]* reused, 0 parsed, 0 changed$" "warm: no unit parsed"
is "$(grep -c 'parsed in' "$T_TMP/err")" 0 "warm: no parse timed"

# an included header changes: the units that include it parse again
printf '__global__ void added_kernel(float *x) { x[0] = 1; }\n' \
    >> p/kernels/softmax_kernels.cuh
run "$KSCAN" --root . --timing p
like "$(stats)" ", 2 changed$" "an edited header: its two includers parse again"
is "$(jq -r 'select(.scan.name=="added_kernel") | .scan.file' "$T_TMP/out")" \
    p/kernels/softmax_kernels.cuh "an edited header: its new kernel is found"
run "$KSCAN" --root . --timing p
cp "$T_TMP/out" edited.ndjson
like "$(stats)" ", 0 parsed, 0 changed$" "an edited header: kept again"

# the unit's own text, and the parser's arguments, are in the key
printf '// a comment\n' >> p/reduce.cu
run "$KSCAN" --root . --timing p
like "$(stats)" ": [1-9][0-9]* reused, 1 parsed, 0 changed$" "an edited unit parses again"
run "$KSCAN" --root . --timing -D KF_BLOCK_THREADS=128 p
like "$(stats)" ": [0-9]+ reused, [1-9][0-9]* parsed" "a new -D parses again"

# runs sharing the work directory at once: same records, no temporary
# files left behind
rm -rf "$W"
"$KSCAN" --root . -q -j 2 p > par1.ndjson 2>/dev/null &
"$KSCAN" --root . -q -j 2 p > par2.ndjson 2>/dev/null
wait
"$KSCAN" --root . -q --no-cache p > nocache.ndjson
is_file par1.ndjson nocache.ndjson "concurrent runs: the first has the uncached records"
is_file par2.ndjson nocache.ndjson "concurrent runs: the second too"
is "$(find "$W" -name '*.tmp.*' | wc -l | tr -d ' ')" 0 "concurrent runs: no temporary files left"

# a damaged entry is a miss, not an error
for f in $(find "$W/pcache/kscan" -name '*.json'); do
	printf '{"format":' > "$f"
done
run "$KSCAN" --root . --timing p
is "$T_STATUS" 0 "damaged entries: exit 0"
is_file "$T_TMP/out" nocache.ndjson "damaged entries: parsed again, same records"

# the toolkit's headers, precompiled once
run "$KSCAN" --root . --work "$D/wp" p
is_file "$T_TMP/out" nocache.ndjson "precompiled toolkit headers: the same records"
ok "$(find "$D/wp/pcache/pch" -name '*.pch' | grep -q . && echo 0 || echo 1)" \
    "precompiled toolkit headers: kept under pcache/pch"

# a PyTorch extension (a project header includes the stand-in): its PCH
# holds the prelude and the stand-in too, kept with the prelude under
# pcache/pch; the records are those of a parse without
mkdir -p px/inc
printf '#pragma once\n#include <torch/extension.h>\n' > px/inc/helper.h
cat > px/ext.cu <<'CU'
#include "inc/helper.h"
__global__ void twice(const float *x, float *y, int n) { if (threadIdx.x < n) y[threadIdx.x] = 2 * x[threadIdx.x]; }
void launch(at::Tensor x, at::Tensor y) {
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "twice", [&] {
    twice<<<1, 32>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
  });
}
CU
"$KSCAN" -q --no-cache px > px-nocache.ndjson
run "$KSCAN" --work "$D/wt" px
is_file "$T_TMP/out" px-nocache.ndjson "a PyTorch unit with the stand-in precompiled: the same records"
is "$(jq -r '[.scan.diagnostics.errors, (.scan.launches | length)] | join(":")' "$T_TMP/out")" \
    "0:1" "the stand-in precompiled: no errors, the launch found"
is "$(find "$D/wt/pcache/pch" -name '*.pch' | wc -l | tr -d ' '):$(grep -l 'prelude-[0-9a-f]*/torch/kforge_torch.h' $(find "$D/wt/pcache/pch" -name '*.json') | wc -l | tr -d ' '):$(find "$D/wt/pcache/pch" -path '*prelude-*' -name kforge_torch.h | wc -l | tr -d ' ')" \
    "1:1:1" "one PCH, made from the stand-in too, and the prelude kept"
run "$KSCAN" --work "$D/wt" --no-cache px
is_file "$T_TMP/out" px-nocache.ndjson "and again without"

# --no-cache and --work
run "$KSCAN" --root . --no-cache --work "$D/w2" p
ok "$([ ! -e "$D/w2" ] && echo 0 || echo 1)" "--no-cache: no work directory made"
run "$KSCAN" --root . --work "$D/w3" p
ok "$(find "$D/w3/pcache/kscan" -name '*.json' | grep -q . && echo 0 || echo 1)" \
    "--work: entries under the directory given"
: > notadir
run "$KSCAN" --root . --work notadir/w p
is "$T_STATUS" 0 "a work directory that cannot be made: exit 0"
is_file "$T_TMP/out" nocache.ndjson "a work directory that cannot be made: same records"
like "$(cat "$T_TMP/err")" "notadir/w: cannot use as work directory" \
    "a work directory that cannot be made: a warning"

# kslice loads the same precompiled headers
if have_tool kslice; then
	KSLICE=$(tool kslice)
	cd "$T_ROOT" || exit 1
	head -n 3 examples/kscan.ndjson > "$D/three.ndjson"
	run "$KSLICE" --no-cache "$D/three.ndjson"
	cp "$T_TMP/out" "$D/slices.nocache"
	run "$KSLICE" --work "$D/wk" "$D/three.ndjson"
	is_file "$T_TMP/out" "$D/slices.nocache" "kslice: the same slices with the work directory"
	run "$KSLICE" --work "$D/notadir/w" "$D/three.ndjson"
	is_file "$T_TMP/out" "$D/slices.nocache" "kslice: a work directory that cannot be made: same slices"
	like "$(cat "$T_TMP/err")" "notadir/w: cannot use as work directory" \
	    "kslice: a work directory that cannot be made: a warning"
fi

# the toolkit headers a unit includes first are in its precompiled
# headers, shared by units that include the same ones; not one that
# follows a macro the unit defines, nor one in a branch not taken, nor one
# the PyTorch stand-in's PCH holds already
cd "$T_ROOT" || exit 1
H=test/cuda/hoist
run "$KSCAN" --work "$D/wh" $H/one.cu $H/two.cu $H/macro.cu $H/branch.cu \
    $H/torch.cu
cp "$T_TMP/out" "$D/hoist.ndjson"
run "$KSCAN" --no-cache $H/one.cu $H/two.cu $H/macro.cu $H/branch.cu \
    $H/torch.cu
is_file "$T_TMP/out" "$D/hoist.ndjson" \
    "toolkit headers in the PCH: the records of a parse without"
is "$(jq -r '[.scan.name, .scan.diagnostics.errors] | join(":")' "$D/hoist.ndjson" | tr '\n' ' ')" \
    "branch_kernel:1 macro_kernel:1 one_kernel:0 torch_kernel:0 two_kernel:0 " \
    "cub found; __half without operators after the macro; no cub outside the branch"
is "$(find "$D/wh/pcache/pch" -name '*.pch' | wc -l | tr -d ' '):$(grep -l 'cub/block/block_reduce.cuh' $(find "$D/wh/pcache/pch" -name '*.json') | wc -l | tr -d ' ')" \
    "3:1" "the toolkit's, the stand-in's, and one with cub for both units that include it"

done_testing
