#!/bin/sh
# A root that travels: kscan run from a directory that is neither the tree
# nor the work directory, the tree named by an absolute path; the saved
# output rerun elsewhere, and again once the tree has moved.
. "$(dirname "$0")/lib.sh"

have_tool kscan && have_tool kslice || skip_all "kscan or kslice not built"
KSCAN=$(tool kscan)
KSLICE=$(tool kslice)
# outside this repository's git work tree: a tree of its own
X=$(mktemp -d "${TMPDIR:-/tmp}/kforge-travel.XXXXXX") || exit 255
trap 'rm -rf "$X"; t_end' EXIT
export KFORGE_WORK=$X/work
mkdir -p "$X/tree/src/inc" "$X/run" "$X/other"
cat > "$X/tree/src/inc/scale.cuh" <<'EOF2'
template <typename T> __device__ T twice(T v) { return v + v; }
EOF2
cat > "$X/tree/src/scale.cu" <<'EOF2'
#include "inc/scale.cuh"
template <typename T>
__global__ void scale(T *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = twice(x[i]);
}
__global__ void scale(double *x, long n) { x[0] = n; }
void run_scale(float *x, int n) { scale<float><<<(n + 127) / 128, 128>>>(x, n); }
EOF2

# --- kscan from elsewhere, the tree by its absolute path
cd "$X/run" || exit 255
run "$KSCAN" "$X/tree"
is "$T_STATUS" 0 "kscan of an absolute path from elsewhere: exit 0"
cp "$T_TMP/out" "$X/scan.ndjson"
is "$(jq -r .id "$X/scan.ndjson" | tr '\n' ' ')" \
    "src/scale.cu::scale(T *, int) src/scale.cu::scale(double *, long) " \
    "ids relative to the directory given, overloads in the source's spelling"
is "$(jq -r .scan.root "$X/scan.ndjson" | sort -u)" "$X/tree" \
    "scan.root records the root kscan chose"
is "$(jq -r '.scan.flags | join(" ")' "$X/scan.ndjson" | sort -u)" "-I ." \
    "flags relative to the root"
ok "$([ ! -e "$X/run/.kforge" ] && echo 0 || echo 1)" \
    "no work directory made where kscan ran"
run "$KSCAN" "$X/tree/src/scale.cu"
is "$(jq -r .id "$T_TMP/out" | head -n 1)" "scale.cu::scale(T *, int)" \
    "a file operand: ids relative to its directory"

# a git work tree: the root is its top
mkdir -p "$X/repo/a/b"
cp "$X/tree/src/scale.cu" "$X/repo/a/b/k.cu"
cp -r "$X/tree/src/inc" "$X/repo/a/b/inc"
mkdir "$X/repo/.git"
run "$KSCAN" "$X/repo/a/b"
is "$(jq -r .id "$T_TMP/out" | head -n 1)" "a/b/k.cu::scale(T *, int)" \
    "a directory inside a git work tree: ids relative to its top"
is "$(jq -r .scan.root "$T_TMP/out" | sort -u)" "$X/repo" \
    "scan.root is the top of the work tree"
run "$KSCAN" --root "$X/repo/a" "$X/repo/a/b"
is "$(jq -r .id "$T_TMP/out" | head -n 1)" "b/k.cu::scale(T *, int)" \
    "--root wins over the default"

# --- kslice on the saved output, from a third directory
cd "$X/other" || exit 255
run "$KSLICE" "$X/scan.ndjson"
is "$T_STATUS" 0 "kslice elsewhere on saved records: exit 0"
is "$(jq -r .id "$T_TMP/out" | tr '\n' ' ')" \
    "src/scale.cu::scale(T *, int)<float> src/scale.cu::scale(double *, long) " \
    "kslice finds the sources through scan.root"
ok "$(jq -e -s 'all(.[]; .errors == null)' "$T_TMP/out" > /dev/null; echo $?)" \
    "no errors without --root while the tree stays put"

run "$KSLICE" -j 3 "$X/scan.ndjson" "$X/scan.ndjson"
"$KSLICE" "$X/scan.ndjson" "$X/scan.ndjson" > "$X/j1.ndjson" 2> /dev/null
is_file "$T_TMP/out" "$X/j1.ndjson" "kslice -j 3 writes what -j 1 does, in input order"

# --- the whole pipeline from here, its work directory elsewhere
if have_tool kwrap && have_tool kbuild && have_tool kverify &&
    have_tool kreport && { command -v nvcc > /dev/null ||
    [ -x /usr/local/cuda/bin/nvcc ]; }; then
	"$KSLICE" "$X/scan.ndjson" 2> /dev/null | "$(tool kwrap)" 2> /dev/null |
	    "$(tool kbuild)" --arch sm_90 2> /dev/null > "$X/built.ndjson"
	is "$(jq -r '[.id, .build.reference.ok, .build.harness.ok] | join(" ")' "$X/built.ndjson" | head -n 1)" \
	    "src/scale.cu::scale(T *, int)<float> true true" \
	    "kslice | kwrap | kbuild from elsewhere: built, ids relative"
	run "$(tool kverify)" "$X/built.ndjson"
	is "$(jq -r '.errors[0].code' "$T_TMP/out" | sort -u | tr '\n' ' ')" \
	    "$(if nvidia-smi > /dev/null 2>&1; then echo "null "; else echo "no-device "; fi)" \
	    "kverify finds kbuild's work directory through KFORGE_WORK"
	"$(tool kreport)" --format json "$T_TMP/out" > "$X/report.json" 2> /dev/null
	is "$(jq -r '[.breakdown.project[].key] | join(" ")' "$X/report.json")" src \
	    "kreport's projects come from relative ids, not the machine's paths"
	ok "$([ ! -e "$X/other/.kforge" ] && echo 0 || echo 1)" \
	    "no work directory made where the pipeline ran"
else
	for t in 1 2 3 4; do
		skip "the whole pipeline from elsewhere" "a stage or nvcc is missing"
	done
fi

# --- the tree moves: --root says where it is now
mv "$X/tree" "$X/moved"
run "$KSLICE" "$X/scan.ndjson"
is "$T_STATUS" 1 "tree moved, no --root: exit 1"
like "$(cat "$T_TMP/err")" "looked under $X/tree, the root kscan recorded in scan.root; --root names where the tree is now" \
    "the error says where it looked and that --root exists"
run "$KSLICE" --root "$X/moved" "$X/scan.ndjson"
is "$T_STATUS" 0 "tree moved, --root given: exit 0"
is "$(jq -r .id "$T_TMP/out" | head -n 1)" "src/scale.cu::scale(T *, int)<float>" \
    "--root finds the moved tree; ids unchanged"

# a relative --root makes records that resolve where the later stage runs
cd "$X/moved" || exit 255
"$KSCAN" --root . src > "$X/rel.ndjson" 2> /dev/null
is "$(jq -r .scan.root "$X/rel.ndjson" | sort -u)" . "--root as given is recorded"
cp -r "$X/moved" "$X/copy"
cd "$X/copy" || exit 255
run "$KSLICE" "$X/rel.ndjson"
is "$T_STATUS" 0 "a relative scan.root resolves in the directory kslice runs in"

# --- -p: a missing build directory is an error record
cd "$X/run" || exit 255
run "$KSCAN" -p "$X/nowhere"
is "$T_STATUS" 1 "-p missing: exit 1"
is "$(jq -r '.errors[0].code' "$T_TMP/out")" no-compdb "-p missing: one error record"
ok "$(grep -c 'LIBCLANG' "$T_TMP/err")" "-p missing: no raw libclang message"
mkdir "$X/build"
run "$KSCAN" -p "$X/build"
like "$(jq -r '.errors[0].message' "$T_TMP/out")" "compile_commands.json: No such file or directory [(]CMake writes it" \
    "-p without compile_commands.json: the message says how to make one"

# --- kverify where no work directory is: it says where it looked, makes none
have_tool kverify && {
KVERIFY=$(tool kverify)
key=$(printf %064d 0 | tr 0 a)
rec='{"id":"a.cu::k","build":{"harness":{"ok":true,"artifact":"'$key'","file":"harness","runnable":true},"reference":{"ok":true,"artifact":"'$key'","file":"module.cubin","runnable":true,"symbol":"k"}}}'
cd "$X/other" || exit 255
echo "$rec" | KFORGE_WORK= run "$KVERIFY"
is "$T_STATUS" 1 "kverify, artifact not in the work directory: exit 1"
is "$(jq -r '.errors[0].code' "$T_TMP/out")" no-artifact "an error record says what is missing"
like "$(cat "$T_TMP/err")" "$X/other/.kforge/build/aa/$key/harness: No such file or directory .*from the default .kforge in the current directory.*--work or KFORGE_WORK" \
    "the message says where it looked and how to point it"
ok "$([ ! -e "$X/other/.kforge" ] && echo 0 || echo 1)" "no stray work directory made"
echo "$rec" | KFORGE_WORK=$X/w2 run "$KVERIFY"
like "$(cat "$T_TMP/err")" "$X/w2/build/.*from KFORGE_WORK" "KFORGE_WORK named in the message"
echo "$rec" > "$X/rec.ndjson"
KFORGE_WORK=$X/w2 run "$KVERIFY" "$X/rec.ndjson" - "$X/nope.ndjson" "$X/rec.ndjson" < "$X/rec.ndjson"
is "$T_STATUS:$(wc -l < "$T_TMP/out" | tr -d ' ')" 3:3 \
    "kverify reads file operands and - in order; an unreadable one is exit 3"
like "$(tr "\n" " " < "$T_TMP/err")" "kverify: $X/rec.ndjson:1: a.cu::k: .*kverify: <stdin>:1: .*kverify: $X/nope.ndjson: No such file" \
    "messages name each file and line"
ok "$([ ! -e "$X/w2" ] && echo 0 || echo 1)" "a KFORGE_WORK that does not exist is not made either"
}

done_testing
