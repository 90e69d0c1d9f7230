#!/bin/sh
# kbuild on the example slices: real nvcc and hipcc compiles (no GPU
# needed), the cache, candidates, compile failures, hangs and bad input.
. "$(dirname "$0")/lib.sh"

have_tool kbuild || skip_all "kbuild not built"
command -v nvcc > /dev/null || [ -x /usr/local/cuda/bin/nvcc ] ||
    skip_all "nvcc not installed"
KBUILD=$(tool kbuild)
W=$T_TMP/work
export KFORGE_WORK=$W
# the wrapper below logs each call to a file, which a sandboxed compiler
# cannot write: test/hostile.t tests the sandbox
KFORGE_BWRAP=none
export KFORGE_BWRAP

# a compiler wrapper that logs each call, so the cache can be shown to
# spare the compiler
REAL_NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
mkdir -p "$T_TMP/bin"
cat > "$T_TMP/bin/nvcc" <<EOF2
#!/bin/sh
echo "\$*" >> "$T_TMP/calls"
case " \$* " in *" -o "*)
	if [ "\$(cd "\${TMPDIR:-/nonexistent}" 2> /dev/null && pwd -P)" = "\$(pwd -P)" ]
	then echo same; else echo "TMPDIR \${TMPDIR:-unset}"; fi >> "$T_TMP/tmpdirs" ;;
esac
exec "$REAL_NVCC" "\$@"
EOF2
chmod +x "$T_TMP/bin/nvcc"

strip_times() {
	jq -c '.build |= walk(if type == "object" then del(.seconds, .cached) else . end)' "$@"
}

# --- cold build of every example slice
NVCC=$T_TMP/bin/nvcc run "$KBUILD" -j 2 --arch sm_90 < examples/kslice.ndjson
is "$T_STATUS" 0 "examples: exit 0"
cp "$T_TMP/out" "$T_TMP/cold"
is "$(sort -u "$T_TMP/tmpdirs")" same \
    "without the sandbox too, each compile's TMPDIR is its scratch directory (hipcc leaves directories in /tmp)"
is "$(wc -l < "$T_TMP/cold" | tr -d ' ')" "$(wc -l < examples/kslice.ndjson | tr -d ' ')" \
    "lines in equal lines out"
is "$(jq -r 'select(.scan.dialect == "cuda") | .build.reference.ok' "$T_TMP/cold" | sort -u)" true \
    "every CUDA slice compiles to a cubin"
is "$(jq -r 'select(.scan.dialect == "cuda") | .build.reference.symbol | startswith("_Z")' "$T_TMP/cold" | sort -u)" true \
    "every cubin holds the kernel's mangled name"
is "$(jq -r 'select(.id == "examples/src/elementwise.cu::scale_kernel<float>") | .build.reference.symbol' "$T_TMP/cold")" \
    "_Z12scale_kernelIfEvPKT_PS0_S0_i" "template instance symbol"
is "$(jq -r 'select(.scan.dialect == "hip") | [.build.reference.ok, .build.reference.runnable, .build.reference.file] | join(" ")' "$T_TMP/cold" | sort -u)" \
    "true false module.hsaco" "HIP slices compile for AMD and say they cannot run here"
is "$(jq -r 'select(.scan.dialect == "cuda") | .build.reference.cached' "$T_TMP/cold" | sort -u)" false "cold build: nothing cached"
n_cold=$(grep -c -- '-cubin' "$T_TMP/calls")
is "$n_cold" "$(jq -r 'select(.scan.dialect == "cuda") | .build.reference.artifact' "$T_TMP/cold" | sort -u | wc -l | tr -d ' ')" \
    "one compiler call per distinct slice"
f=$(jq -r 'select(.id == "examples/src/reduce.cu::histogram_kernel") | .build.reference.artifact' "$T_TMP/cold")
[ -s "$W/build/$(echo "$f" | cut -c1-2)/$f/module.cubin" ]
ok $? "the artifact is in the work directory under its hash"
run test/validate "$T_TMP/cold"
ok "$T_STATUS" "output validates against schemas/"

# --- warm: the compiler is not called again
: > "$T_TMP/calls"
NVCC=$T_TMP/bin/nvcc run "$KBUILD" -j 2 --arch sm_90 < examples/kslice.ndjson
is "$(jq -r '.build.reference.cached' "$T_TMP/out" | sort -u)" true "warm rebuild: every entry cached"
is "$(grep -c -- '-cubin' "$T_TMP/calls")" 0 "warm rebuild never compiles"
is "$(wc -l < "$T_TMP/calls" | tr -d ' ')" 0 "warm rebuild does not start the compiler at all (version remembered)"
[ "$(strip_times "$T_TMP/cold" | wc -l)" -eq 19 ]
ok $? "comparisons below see all 19 records"
is "$(strip_times "$T_TMP/out")" "$(strip_times "$T_TMP/cold")" "warm output equals cold output"
NVCC=$T_TMP/bin/nvcc KFORGE_WORK=$T_TMP/wj1 run "$KBUILD" -j 1 --arch sm_90 \
    < examples/kslice.ndjson
is "$(strip_times "$T_TMP/out")" "$(strip_times "$T_TMP/cold")" \
    "cold -j 1 in another work directory gives what -j 2 gave, in input order"

# --- two processes sharing one work directory, both cold
W2=$T_TMP/shared
KFORGE_WORK=$W2 "$KBUILD" -j 2 --arch sm_90 < examples/kslice.ndjson > "$T_TMP/p1" 2>/dev/null &
KFORGE_WORK=$W2 "$KBUILD" -j 2 --arch sm_90 < examples/kslice.ndjson > "$T_TMP/p2" 2>/dev/null
wait
is "$(jq -r '.build.reference.ok' "$T_TMP/p1" "$T_TMP/p2" | sort | uniq -c | tr -s ' ')" \
    " 38 true" "concurrent kbuilds: every build ok in both"
is "$(ls "$W2/build" | grep -c '^tmp\.')" 0 "concurrent kbuilds: no temporary entries left"
KFORGE_WORK=$W2 run "$KBUILD" --arch sm_90 < examples/kslice.ndjson
is "$(jq -r '.build.reference.cached' "$T_TMP/out" | sort -u)" true "shared cache is whole afterwards"

# --- candidates
rec=$(jq -c 'select(.id == "examples/src/elementwise.cu::relu_kernel")' examples/kslice.ndjson)
good='__global__ void relu_kernel(const float *__restrict__ in, float *__restrict__ out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = fmaxf(in[i], 0.0f); }'
bad='__global__ void relu_kernel(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = undeclared_thing(in[i]);
}'
{
	printf "%s\n" "$rec" | jq -c --arg c "$good" '.candidate = {code: $c, dialect: "cuda"}'
	printf "%s\n" "$rec" | jq -c --arg c "$bad" '.candidate = {code: $c, dialect: "cuda"}'
	printf "%s\n" "$rec" | jq -c '.candidate = {code: "   ", dialect: "cuda"}'
	printf "%s\n" "$rec" | jq -c '.candidate = {code: "Sure! Here is a faster kernel.", dialect: "cuda"}'
	printf "%s\n" "$rec" | jq -c --arg c "#include <hip/hip_runtime.h>
$good" '.candidate = {code: $c, dialect: "hip"}'
} > "$T_TMP/cands"
run "$KBUILD" --arch sm_90 < "$T_TMP/cands"
is "$T_STATUS" 1 "bad candidates: exit 1"
is "$(jq -r '[(if .build.candidate then .build.candidate.pass_call else "none" end), (.errors // [] | map(.code) | join(","))] | join(" ")' "$T_TMP/out" | tr '\n' ';')" \
    "true ;false ;none bad-candidate;none bad-candidate;true ;" \
    "good compiles, bad fails its verdict, empty and prose are errors, HIP candidate compiles"
is "$(jq -r 'select(.build.candidate.ok == false) | .build.candidate.diagnostics[0] | [.file, .line, .severity] | join(":")' "$T_TMP/out")" \
    "kernel.cu:3:error" "compile error parsed into file:line:severity"
like "$(jq -r 'select(.build.candidate.ok == false) | .build.candidate.diagnostics[0].message' "$T_TMP/out")" \
    "undeclared_thing" "the diagnostic names the problem"
like "$(cat "$T_TMP/err")" "^kbuild: <stdin>:3: examples/src/elementwise.cu::relu_kernel: candidate code is empty" \
    "bad candidate reported on stderr with its input line and the record's id"

# --- slice.flags: the project's flags, exactly; --flag adds the user's
# (test/kbuild/flags.ndjson: a constexpr host function called from a
# kernel, which nvcc accepts only with --expt-relaxed-constexpr)
F=test/kbuild/flags.ndjson
run "$KBUILD" --arch sm_90 < "$F"
is "$(jq -r '[.id, .build.reference.ok, (.build.flags // [] | join(","))] | map(tostring) | join(" ")' "$T_TMP/out" | tr '\n' ';')" \
    "flags:none false ;flags:relaxed true --expt-relaxed-constexpr;flags:torch true -D__CUDA_NO_HALF_OPERATORS__,--expt-relaxed-constexpr,-std=c++17;flags:bad null ;" \
    "a slice builds with its slice.flags and only with them"
like "$(jq -r 'select(.id == "flags:relaxed") | .build.reference.command' "$T_TMP/out")" \
    "^nvcc -std=c\\+\\+17 --expt-relaxed-constexpr -cubin" "the flags are on the command line"
like "$(jq -r 'select(.id == "flags:torch") | .build.reference.command' "$T_TMP/out")" \
    "^nvcc -D__CUDA_NO_HALF_OPERATORS__ --expt-relaxed-constexpr -std=c\\+\\+17 -cubin" \
    "the project's -std replaces kbuild's"
is "$(jq -r 'select(.id == "flags:bad") | .errors[0] | [.code, .message] | join(" ")' "$T_TMP/out")" \
    "bad-flags flags:bad: slice.flags[0]: not a flag kbuild passes on (macros, -std, --expt-*, floating-point modes): -o/tmp/x" \
    "a flag that is not a build flag is refused, nothing built"
run test/validate "$T_TMP/out"
ok "$T_STATUS" "records with flags validate against schemas/"
run "$KBUILD" --arch sm_90 --flag --expt-relaxed-constexpr --flag -std=c++20 < "$F"
is "$(jq -r 'select(.id == "flags:none") | [.build.reference.ok, (.build.flags | join(","))] | join(" ")' "$T_TMP/out")" \
    "true --expt-relaxed-constexpr,-std=c++20" "--flag adds flags to every device build"
is "$(jq -r 'select(.id == "flags:torch") | .build.flags | join(",")' "$T_TMP/out")" \
    "-D__CUDA_NO_HALF_OPERATORS__,--expt-relaxed-constexpr,--expt-relaxed-constexpr,-std=c++20" \
    "the user's -std replaces the record's"
run "$KBUILD" --flag NDEBUG < /dev/null
is "$T_STATUS" 2 "--flag that is not an option: usage error"

# --- a back end's error without a file (NVVM's broken module, here from a
# device function template that is declared and never defined) is still
# a diagnostic
jq -nc '{id: "broken", scan: {name: "k", dialect: "cuda"}, slice: {code: "namespace { template <typename T, int N> __device__ __inline__ void copy_vector(T *d, const T *s); }\n__global__ void k(float *a, const float *b) { copy_vector<float, 1>(a, b); }\n"}}' > "$T_TMP/broken"
run "$KBUILD" --arch sm_90 --check < "$T_TMP/broken"
is "$(jq -r '[.build.reference.ok, ([.build.reference.diagnostics[] | select(.severity == "error") | .message][0])] | map(tostring) | join(" ")' "$T_TMP/out")" \
    "false Broken module found, compilation aborted!" "an error line without a file is a diagnostic"

# --- kernel symbols: static __global__ kernels are local (nm: t); a
# kernel that is not in the module is an error that says so
S=test/kbuild/symbols.ndjson
run "$KBUILD" --arch sm_90 < "$S"
is "$(jq -r '[.id, .build.reference.symbol, (.errors // [] | map(.code) | join(","))] | map(tostring) | join(" ")' "$T_TMP/out" | tr '\n' ';')" \
    "sym:static _Z7local_kPf ;sym:missing null no-symbol;sym:clone _Z6trig_kPd ;" \
    "a static kernel's local symbol is found, not a compiler clone that spells its name; a missing one is a no-symbol error"
like "$(cat "$T_TMP/err")" "sym:missing: reference: no function for kernel gone_k among the module's symbols" \
    "and the error names the kernel"

# --- a compiler that hangs fails its record only, within the timeout
cat > "$T_TMP/bin/slow" <<'EOF2'
#!/bin/sh
case "$*" in *--version*) echo "slow version 1"; exit 0;; esac
sleep 30
EOF2
chmod +x "$T_TMP/bin/slow"
start=$(date +%s)
NVCC=$T_TMP/bin/slow KFORGE_WORK=$T_TMP/w3 run "$KBUILD" --timeout 1 --check < examples/kslice.ndjson
took=$(( $(date +%s) - start ))
is "$T_STATUS:$(wc -l < "$T_TMP/out" | tr -d ' ')" "0:19" "hanging compiler: run goes on, every record out"
like "$(jq -r 'select(.scan.dialect == "cuda") | .build.reference.diagnostics[0].message' "$T_TMP/out" | sort -u)" \
    "^nvcc timed out after 1 s$" "hanging compiler: each record says it timed out"
[ "$took" -lt 60 ]
ok $? "hanging compiler: 17 timeouts of 1 s took ${took}s, not 17 x 30 s"

# --- bad input
printf '%s\n' '{"id":"no-slice"}' 'not json' '{"id":"e","slice":{"code":""}}' > "$T_TMP/bad"
KFORGE_WORK=$T_TMP/w4 run "$KBUILD" < "$T_TMP/bad"
is "$T_STATUS" 1 "bad input: exit 1"
is "$(jq -r '.errors[0].code' "$T_TMP/out" | tr '\n' ' ')" "no-slice invalid-json no-slice " \
    "one error record per bad line"
rec=$(jq -c 'select(.scan.dialect == "cuda")' examples/kslice.ndjson | head -1)
printf "%s\n" "$rec" > "$T_TMP/one"
NVCC=/nonexistent/nvcc KFORGE_WORK=$T_TMP/w5 run "$KBUILD" < "$T_TMP/one"
is "$T_STATUS:$(jq -r '.errors[0].code' "$T_TMP/out")" "1:compiler-missing" "missing compiler is an error record"
run "$KBUILD" --arch 90
is "$T_STATUS" 2 "bad --arch is a usage error"
KFORGE_WORK=$T_TMP/w6 run "$KBUILD" --arch sm_1000 < "$T_TMP/one"
is "$T_STATUS:$(wc -l < "$T_TMP/out" | tr -d ' ')" 2:0 \
    "an --arch nvcc does not build for: usage error before any record"
like "$(cat "$T_TMP/err")" "^kbuild: --arch sm_1000: nvcc .* does not build for it; it builds for: sm_[0-9]+ .*sm_90" \
    "and the message lists what nvcc builds for"
if command -v hipcc > /dev/null; then
	KFORGE_WORK=$T_TMP/w6 run "$KBUILD" --hip-arch gfx90a,gfx9999 < "$T_TMP/one"
	is "$T_STATUS" 2 "a --hip-arch hipcc does not build for: usage error"
	like "$(cat "$T_TMP/err")" "^kbuild: --hip-arch gfx9999: hipcc .* it builds for: gfx.* gfx90a" \
	    "and the message lists what hipcc builds for"
else
	skip "--hip-arch checked against hipcc" "no hipcc"
	skip "--hip-arch message" "no hipcc"
fi
printf '#!/bin/sh\nexit 1\n' > "$T_TMP/bin/mute"
chmod +x "$T_TMP/bin/mute"
NVCC=$T_TMP/bin/mute KFORGE_WORK=$T_TMP/w7 run "$KBUILD" --arch sm_1000 < /dev/null
is "$T_STATUS" 0 "a compiler that lists no targets: nothing is checked"
run "$KBUILD" no-such-file
is "$T_STATUS:$(cat "$T_TMP/err")" "3:kbuild: no-such-file: No such file or directory" \
    "a file operand that cannot be read: reported, exit 3"
NVCC=/nonexistent/nvcc KFORGE_WORK=$T_TMP/w5 run "$KBUILD" "$T_TMP/one" - "$T_TMP/one" < "$T_TMP/one"
is "$(wc -l < "$T_TMP/out" | tr -d ' ')" 3 "file operands and - read in order"
like "$(sed -n 3p "$T_TMP/err")" "^kbuild: $T_TMP/one:1: " "messages name the file and line"

# a header library the tree does not hold (test/kbuild/missing/warp.cu):
# the reference that does not compile names the include kscan missed
if have_tool kscan && have_tool kslice; then
	"$(tool kscan)" test/kbuild/missing/warp.cu 2> /dev/null |
	    "$(tool kslice)" 2> /dev/null > "$T_TMP/missing"
	like "$(jq -r '.errors[0].message' "$T_TMP/missing")" \
	    "slice does not parse: .* [(]the source includes what kscan did not find: vecmath/vec3.hpp; kscan -I names where it is[)]\$" \
	    "kslice: a slice that does not parse names the include the source's parse missed"
	KFORGE_WORK=$T_TMP/w8 run "$KBUILD" < "$T_TMP/missing"
	is "$(jq -c '[.build.reference.ok, .build.reference.missing_includes]' "$T_TMP/out")" \
	    '[false,["vecmath/vec3.hpp"]]' \
	    "kbuild: a reference that does not compile lists the includes kscan did not find"
	"$(tool kscan)" examples/src/conv1d.cu 2> /dev/null |
	    "$(tool kslice)" 2> /dev/null | KFORGE_WORK=$T_TMP/w8 "$KBUILD" 2> /dev/null |
	    jq -r '.build.reference | [.ok, .missing_includes] | map(tostring) | join(" ")' |
	    sort -u > "$T_TMP/found"
	is "$(cat "$T_TMP/found")" "true null" "near miss: a source whose includes were found lists none"
else
	skip "missing includes" "kscan or kslice not built"
	skip "missing includes" "kscan or kslice not built"
	skip "missing includes" "kscan or kslice not built"
fi

done_testing
