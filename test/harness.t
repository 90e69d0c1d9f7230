#!/bin/sh
# The generated harness's runtime overrides, compiled with nvcc and run
# against the toolkit's stub libcuda (every driver call fails), which is
# enough for what happens before the driver is touched: --plan prints the
# case as it would run (scalars, launch, each buffer's count and bytes)
# after --set, --count, --grid, --block and --shared-mem; bad overrides
# are usage errors (exit 2) and overflowing ones refused (exit 4).
. "$(dirname "$0")/lib.sh"

NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUDA=${CUDA:-$(dirname "$(dirname "$NVCC")")}
STUB=$CUDA/lib64/stubs/libcuda.so
[ -x "$NVCC" ] || skip_all "nvcc is not installed"
[ -f "$STUB" ] || skip_all "the toolkit's stub libcuda is missing"
mkdir -p "$T_TMP/stub" "$T_TMP/o"
ln -sf "$STUB" "$T_TMP/stub/libcuda.so.1"
LD_LIBRARY_PATH=$T_TMP/stub
export LD_LIBRARY_PATH

# build NAME ID: the example's harness, as harness.build says
build() {
	jq -r --arg id "$2" 'select(.id == $id) | .wrap.harness.code' \
	    examples/kwrap.ndjson > "$T_TMP/$1.cu"
	(cd "$T_TMP" && "$NVCC" -std=c++17 -O2 -x c++ -cudart none "$1.cu" \
	    -o "$1" -L"$CUDA/lib64/stubs" -lcuda) 2> "$T_TMP/$1.err"
}

# plan HARNESS ARGS...: the --plan line(s), compact, or the exit status
plan() {
	h=$1
	shift
	"$T_TMP/$h" m k "$T_TMP/o" --plan "$@" > "$T_TMP/plan" 2> "$T_TMP/perr"
	st=$?
	if [ $st -ne 0 ]; then
		echo "exit $st: $(cat "$T_TMP/perr")"
	else
		jq -c "${JQ:-.}" "$T_TMP/plan"
	fi
}

CAUSAL='examples/src/attention.cu::kf::detail::causal_mask_kernel'
if ! build causal "$CAUSAL"; then
	fail "the causal_mask harness builds"
	diag_file "$T_TMP/causal.err"
	done_testing
fi
pass "the causal_mask harness builds"

is "$(plan causal --case 0)" \
    '{"case":0,"grid":[4096,1,1],"block":[256,1,1],"shared_mem":0,"scalars":{"seq":1024,"fill":"-inf"},"buffers":[{"name":"scores","role":"in","type":"float32","size":4,"count":1048576,"spec_count":1048576,"bytes":4194304},{"name":"masked","role":"out","type":"float32","size":4,"count":1048576,"spec_count":1048576,"bytes":4194304}]}' \
    "--plan: the case's scalars, launch and buffers, without a GPU"
ls "$T_TMP/o" > "$T_TMP/ls"
is "$(cat "$T_TMP/ls")" "" "--plan writes no file"

JQ='[.scalars.seq, .grid, .shared_mem, [.buffers[] | [.count, .spec_count, .bytes]]]' \
    plan causal --case 2 --set seq=5 --count 'masked=seq * seq + 2 * (seq - 1)' \
    --grid '(seq + 1) / 2, 1, 1' --shared-mem 'seq << 2' > "$T_TMP/got"
is "$(cat "$T_TMP/got")" '[5,[3,1,1],20,[[25,25,100],[33,25,132]]]' \
    "--set, then --count, --grid and --shared-mem over the set scalars"
JQ='[.case, .scalars.seq, .buffers[1].count]' plan causal --all --set seq=3 \
    --count masked=seq > "$T_TMP/got"
is "$(tr '\n' ' ' < "$T_TMP/got")" '[0,3,3] [1,3,3] [2,3,3] [3,3,3] [4,3,3] [5,3,3] [6,3,3] [7,3,3] [8,3,3] ' \
    "--all: the overrides apply to every case"
JQ='.case' plan causal --all --skip 1 --skip 7 > "$T_TMP/got"
is "$(tr '\n' ' ' < "$T_TMP/got")" '0 2 3 4 5 6 8 ' "--all --skip: the cases named are left out"
is "$(plan causal --case 0 --skip 1 | head -n 1 | cut -c1-30)" 'exit 2: usage: harness module ' \
    "--skip without --all: usage error"
is "$(plan causal --all --skip 9 | head -n 1 | cut -c1-30)" 'exit 2: usage: harness module ' \
    "--skip of a case the harness does not have: usage error"
JQ='.case' plan causal --case 1 --sentinel 0x5A > "$T_TMP/got"
is "$(cat "$T_TMP/got")" 1 "--sentinel takes a byte"
is "$(plan causal --case 0 --sentinel 256 | head -n 1 | cut -c1-30)" 'exit 2: usage: harness module ' \
    "--sentinel beyond a byte: usage error"
JQ='[.scalars.fill, .block]' plan causal --set fill=-2.5 --set seq=0x10 \
    --block 128,1,1 > "$T_TMP/got"
is "$(cat "$T_TMP/got")" '[-2.5,[128,1,1]]' "--set: a float, a hexadecimal integer; --block"
JQ='.buffers[1].count' plan causal --count 'masked=1024ULL * 3' > "$T_TMP/got"
is "$(cat "$T_TMP/got")" 3072 "--count: integer suffixes are read as C's"

is "$(plan causal --set nope=1)" \
    'exit 2: harness: --set nope=1: the kernel has no scalar of that name' \
    "--set of an unknown scalar: usage error"
is "$(plan causal --count out=1)" \
    'exit 2: harness: --count out=1: the kernel has no buffer of that name' \
    "--count of an unknown buffer: usage error"
is "$(plan causal --count 'masked=seq *')" \
    'exit 2: harness: --count masked=seq *: expected a number, a scalar or (' \
    "--count with a cut expression: usage error"
is "$(plan causal --count 'masked=n + 1')" \
    'exit 2: harness: --count masked=n + 1: names no scalar of the kernel' \
    "--count naming what is not a scalar: usage error"
is "$(plan causal --count 'masked=(seq + 1')" \
    'exit 2: harness: --count masked=(seq + 1: expected )' \
    "--count with an open parenthesis: usage error"
is "$(plan causal --count 'masked=seq seq')" \
    'exit 2: harness: --count masked=seq seq: unexpected text after the expression' \
    "--count with text after the expression: usage error"
is "$(plan causal --set seq=3000000000)" \
    'exit 2: harness: --set seq=3000000000: not an integer of the scalar'"'"'s type' \
    "--set out of the scalar's range: usage error"
is "$(plan causal --set seq=2.5)" \
    'exit 2: harness: --set seq=2.5: not an integer of the scalar'"'"'s type' \
    "--set of a fraction to an int: usage error"
is "$(plan causal --set =3)" 'exit 2: harness: --set =3: expected name=value' \
    "--set without a name: usage error"
is "$(plan causal --grid 1,2)" \
    'exit 2: harness: --grid 1,2: expected three expressions x,y,z' \
    "--grid with two dimensions: usage error"
is "$(plan causal --count 'masked=(seq + 1) / 0')" \
    'exit 4: harness: --count masked=(seq + 1) / 0: overflows 64-bit arithmetic for this case' \
    "--count dividing by zero: refused as out of range, exit 4"
is "$(plan causal --count 'masked=seq * seq * seq * seq * seq * seq * seq')" \
    'exit 4: harness: --count masked=seq * seq * seq * seq * seq * seq * seq: overflows 64-bit arithmetic for this case' \
    "--count overflowing 64 bits: exit 4"
is "$(plan causal --grid '0,1,1')" \
    'exit 4: harness: launch configuration out of range: grid.x = 0, not in 1..2147483647' \
    "--grid is checked like the spec's grid"
"$T_TMP/causal" m k "$T_TMP/o" --plan --layout > /dev/null 2>&1
is "$?" 2 "--plan and --layout exclude each other"

# a run (not --plan) with overrides reaches the driver: the stub's failure,
# exit 1, after the overrides were accepted
"$T_TMP/causal" m k "$T_TMP/o" --case 0 --layout --count masked=7 \
    > /dev/null 2> "$T_TMP/e"
is "$? $(cat "$T_TMP/e")" '1 harness: kw_init(): unknown error' \
    "a run with overrides goes on to the driver"

# --serve starts the driver before it answers "ready": with the stub it
# answers nothing and exits as a run of its own would (kverify: no device)
printf 'm\tk\t%s\t--case\t0\n' "$T_TMP/o" | "$T_TMP/causal" --serve \
    > "$T_TMP/so" 2> "$T_TMP/e"
is "$? [$(cat "$T_TMP/so")] $(cat "$T_TMP/e")" \
    '1 [] harness: kw_init(): unknown error' \
    "--serve: no driver, no ready, the run's exit status"
"$T_TMP/causal" --serve m k "$T_TMP/o" > /dev/null 2>&1
is "$?" 2 "--serve takes its commands on standard input only"

# struct fields by name
AXPBY='examples/src/elementwise.cu::axpby_kernel'
if build axpby "$AXPBY"; then
	JQ='[.scalars, .grid, .buffers[0].count]' plan axpby --set p.n=1000 \
	    --set p.alpha=2 > "$T_TMP/got"
	is "$(cat "$T_TMP/got")" \
	    '[{"p.alpha":2,"p.beta":-0.75,"p.n":1000},[4,1,1],1000]' \
	    "--set of a struct's field; the counts and grid follow it"
	is "$(plan axpby --count 'x=p.n * 2' | jq -c '.buffers[0].count')" \
	    "200000" "--count over a struct's field"
else
	fail "the axpby harness builds"
	diag_file "$T_TMP/axpby.err"
fi
# kbuild links the same host code as harness.so for kverify's host: it
# exports the host's entry, and holds no STB_GNU_UNIQUE symbol (which
# would keep it loaded, statics and all, after the host unloads it)
if have_tool kbuild && command -v nm > /dev/null; then
	jq -c --arg id "$AXPBY" 'select(.id == $id)' examples/kwrap.ndjson |
	    KFORGE_WORK=$T_TMP/work run "$(tool kbuild)" -q
	h=$(jq -r '.build.harness | "\(.artifact) \(.shared)"' "$T_TMP/out")
	so=$T_TMP/work/build/$(echo "$h" | cut -c1-2)/${h% *}/harness.so
	is "${h#* }:$([ -f "$so" ] && echo file)" "harness.so:file" \
	    "kbuild: build.harness.shared names harness.so, beside the program"
	like "$(nm -D --defined-only "$so" 2> /dev/null | grep ' kw_host_command$')" \
	    ' T kw_host_command$' "harness.so exports kw_host_command"
	is "$(nm -D "$so" 2> /dev/null | grep -c ' u ')" 0 \
	    "harness.so has no unique symbols: the host can unload it"
fi
done_testing
