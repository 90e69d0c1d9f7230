#!/bin/sh
# kverify --fit without a GPU: a fake harness (test/fit/fake_fit.c) whose
# spec says x and y hold n elements while its "kernel" reads 2n + 1 of x
# and writes n - 3 of y, and a compute-sanitizer stand-in that makes it
# print memcheck's report of the reads past x.  The fit grows x by the
# overflow the report names, shrinks y to what is written, fits both
# counts over three sizes of n, and the verdict that follows uses them.
. "$(dirname "$0")/lib.sh"
# the fake harness and compute-sanitizer write their logs where the test
# reads them, outside the sandbox kverify would put them in
KFORGE_BWRAP=none
export KFORGE_BWRAP

have_tool kverify || skip_all "kverify not built"
command -v jq > /dev/null || skip_all "jq not installed (make deps)"
KV=$(tool kverify)
W=$T_TMP/work
export KFORGE_WORK=$W
CC=${CC:-cc}
$CC -std=c11 -D_GNU_SOURCE -O1 -o "$T_TMP/fake" test/fit/fake_fit.c ||
    skip_all "cannot compile the fake harness"

# entry ROLE WORD: a build entry holding WORD (module) or the fake harness
entry() {
	key=$(printf '%s:%s' "$1" "$2" | sha256sum | cut -c1-64)
	d=$W/build/$(echo "$key" | cut -c1-2)/$key
	mkdir -p "$d"
	if [ "$1" = harness ]; then
		cp "$T_TMP/fake" "$d/harness"
	else
		printf '%s\n' "$2" > "$d/module.cubin"
	fi
	echo "$key"
}
HKEY=$(entry harness fake)
RKEY=$(entry reference ref)

mkdir -p "$T_TMP/cuda/bin"
cat > "$T_TMP/cuda/bin/compute-sanitizer" <<'EOF'
#!/bin/sh
if [ "$1" = --help ]; then
	[ -n "${FAKE_NOPAD:-}" ] || echo "  --padding arg    padding after every allocation"
	exit 0
fi
echo "$*" >> "${FAKE_SAN_LOG:-/dev/null}"
while [ $# -gt 0 ]; do
	case $1 in --tool|--print-limit|--show-backtrace|--padding) shift 2 ;; *) break ;; esac
done
echo "========= COMPUTE-SANITIZER"
FAKE_SAN=1 "$@"
EOF
chmod +x "$T_TMP/cuda/bin/compute-sanitizer"
CUDA_PATH=$T_TMP/cuda
export CUDA_PATH

# the record: built units and the spec the fake's plan follows
jq -cn --arg h "$HKEY" --arg r "$RKEY" '
def unit($key; $file; $sym): {ok: true, compiler: "nvcc", version: "fake",
    command: "nvcc", seconds: 0, cached: false, artifact: $key, file: $file,
    symbol: $sym, runnable: true, diagnostics: [], log: "",
    log_truncated: false, pass_call: true};
{id: "fit:fake", wrap: {spec: {source: "inferred", kernel: "fake_kernel",
    params: [
	{name: "x", role: "in", type: "float", dtype: "float32", count: "n"},
	{name: "y", role: "out", type: "float", dtype: "float32", count: "n"},
	{name: "n", role: "scalar", type: "int", dtype: "int32", use: "size"}],
    launch: {grid: ["(n + 31) / 32", "1", "1"], block: [32, 1, 1],
	shared_mem: "0"},
    cases: [{name: "a", seed: 1, scalars: {n: 100}},
	{name: "b", seed: 2, scalars: {n: 37}},
	{name: "c", seed: 3, scalars: {n: 100}},
	{name: "d", seed: 4, scalars: {n: 64}}],
    confidence: {overall: "low", roles: "high", counts: "low",
	launch: "high", cases: "high", guesses: []}}},
 build: {arch: "sm_90", reference: unit($r; "module.cubin"; "_Z4fakev"),
    harness: unit($h; "harness"; null)}}' > "$T_TMP/rec.ndjson"

# --- without --fit: the spec's counts fault under memcheck and leave y's
# tail unwritten
run "$KV" --no-time < "$T_TMP/rec.ndjson"
is "$(jq -c '[.verify.verified.value, .verify.verified.reason, has("fit")]' "$T_TMP/out")" \
    '[false,"memcheck",false]' "without --fit: memcheck fails the spec's counts, no fit section"

# --- --fit
FAKE_SAN_LOG=$T_TMP/san.log run "$KV" --no-time --fit < "$T_TMP/rec.ndjson"
cp "$T_TMP/out" "$T_TMP/fitted.ndjson"
is "$T_STATUS" 0 "--fit: exit 0"
f() { jq -c ".fit | $1" "$T_TMP/fitted.ndjson"; }
is "$(f '[.status, .counts]')" '["fitted",{"x":"2 * n + 1","y":"n - 3"}]' \
    "--fit: x grows to 2n + 1 (memcheck), y shrinks to n - 3 (written), fitted over n"
is "$(f '.args')" '["--count","x=2 * n + 1","--count","y=n - 3"]' \
    "--fit: the harness arguments later runs use"
is "$(f '[.samples[] | .case]')" '[0,1,3]' \
    "--fit: three samples, case 2 left out (the same n as case 0)"
is "$(f '[.buffers[] | [.name, .how, [.samples[] | .count], [.samples[] | .from]]]')" \
    '[["x","exact",[201,75,129],["memcheck","memcheck","memcheck"]],["y","exact",[97,34,61],["written","written","written"]]]' \
    "--fit: each sample's count and where it came from"
is "$(f '.rounds[0] | [.case, .counts, .exit, .errors, .fixable, .findings[0].buffer, .findings[0].need_bytes]')" \
    '[0,{},5,101,101,"x",404]' \
    "--fit: round 1 of case 0 is the spec's counts; memcheck names x, the first finding needs 404 bytes"
is "$(f '.rounds[0].findings[0].text')" '"Invalid __global__ read of size 4 bytes"' \
    "--fit: the finding's own words are the evidence"
is "$(f '[.rounds[] | select(.case == 0) | .counts.x]')" '[null,201]' \
    "--fit: every finding printed, so one grown trial is clean"
is "$(jq -c '[.verify.verified.value, .verify.verified.reason, .verify.sanitize.memcheck.errors, [.verify.golden[0].outputs[] | .count, .unwritten]]' "$T_TMP/fitted.ndjson")" \
    '[true,null,0,[97,0]]' \
    "--fit: the verdict uses the fitted counts: clean, fully written, verified"
grep -c -- '--count x=2 \* n + 1' "$T_TMP/san.log" > "$T_TMP/c" || true
is "$(cat "$T_TMP/c")" 1 "the verdict's memcheck run got the fitted counts"
# memcheck pads every allocation, so that an access past a buffer cannot
# land unseen in the next one (where the sanitizer's --help offers it)
is "$(grep -c -- '--tool memcheck .*--padding 4194304 ' "$T_TMP/san.log")" \
    "$(grep -c -- '--tool memcheck' "$T_TMP/san.log")" \
    "every memcheck run (the fit's and the verdict's) pads allocations (--padding)"
FAKE_NOPAD=1 FAKE_SAN_LOG=$T_TMP/nopad.log run "$KV" --no-time --fit < "$T_TMP/rec.ndjson"
is "$(grep -c -- '--padding' "$T_TMP/nopad.log"):$(jq -r '.fit.status' "$T_TMP/out")" "0:fitted" \
    "a compute-sanitizer without --padding is run without it"

if /usr/bin/python3 -c 'import jsonschema' 2> /dev/null; then
	test/validate "$T_TMP/fitted.ndjson" > "$T_TMP/val" 2>&1
	is "$?:$(cat "$T_TMP/val")" "0:" "--fit: the record validates (schemas/fit.schema.json)"
else
	skip "--fit: the record validates" "python3-jsonschema is not installed"
fi

# --- a saved fitted record: kverify without --fit keeps using its counts
run "$KV" --no-time < "$T_TMP/fitted.ndjson"
is "$(jq -c '[.verify.verified.value, .fit.status]' "$T_TMP/out")" '[true,"fitted"]' \
    "a fitted record verifies again without --fit, from its fit section"

# --- memcheck prints few findings: the search overshoots, then bisects
FAKE_PRINT=4 run "$KV" --no-time --fit < "$T_TMP/rec.ndjson"
is "$(jq -c '.fit | [.status, .counts.x]' "$T_TMP/out")" '["fitted","2 * n + 1"]' \
    "--fit with 4 findings printed per run: the same formula"
is "$(jq -c '[.fit.rounds[] | select(.case == 0) | .counts.x] | .[1:] | map(. > 0) | all' "$T_TMP/out")" \
    true "and more rounds, each a trial count for x"
like "$(jq -c '.fit.memcheck_runs' "$T_TMP/out")" '^([4-9]|[1-9][0-9])$' \
    "the rounds are counted"

# --- one finding printed and a large case: bisection runs out of rounds
# there (the count is bounded, not pinned); the formula the exact samples
# give is taken where it falls inside that case's bounds
jq -c '.wrap.spec.cases += [{name: "e", seed: 5, scalars: {n: 300000}}]' \
    "$T_TMP/rec.ndjson" > "$T_TMP/large.ndjson"
FAKE_LARGE=1 FAKE_PRINT=1 run "$KV" --no-time --fit < "$T_TMP/large.ndjson"
is "$(jq -c '.fit | [.status, .counts.x, (.buffers[0] | .how, [.samples[] | .exact])]' "$T_TMP/out")" \
    '["fitted","2 * n + 1","exact",[true,true,true,false]]' \
    "a sample memcheck bounds but does not pin: the exact samples' formula, inside its bounds, is fitted"

# --- a spec whose counts are right: case 0 clean and written, no fit
jq -c '.wrap.spec.params[0].count = "2 * n + 1" | .wrap.spec.params[1].count = "n - 3"' \
    "$T_TMP/rec.ndjson" > "$T_TMP/right.ndjson"
FAKE_SPEC=right run "$KV" --no-time --fit < "$T_TMP/right.ndjson"
is "$(jq -c '[.fit.status, .fit.args, (.fit.samples | length), .fit.memcheck_runs, .verify.verified.value]' "$T_TMP/out")" \
    '["not-needed",[],0,0,true]' \
    "right counts: case 0 runs clean and fully written, so no fit runs (no memcheck run, no overrides)"
is "$(jq -r '.fit.why' "$T_TMP/out")" \
    "case 0 ran clean with the spec's counts and wrote every element of its outputs" "and it says why"
is "$(jq -r '.fit.why' "$T_TMP/fitted.ndjson")" null \
    "a fit that ran leaves no reason of the gate behind"

# --- case 0 runs clean and writes every element, but reads past x: only
# the verdict's memcheck run sees it, and that evidence starts the fit,
# whose counts the golden is then taken again with
FAKE_YFULL=1 run "$KV" --no-time < "$T_TMP/rec.ndjson"
is "$(jq -c '[.verify.deterministic, .verify.verified.value, .verify.verified.reason, .verify.sanitize.memcheck.errors > 0, has("fit")]' "$T_TMP/out")" \
    '[true,false,"memcheck",true,false]' "reads past x, all written: without --fit memcheck fails it"
FAKE_YFULL=1 run "$KV" --no-time --fit < "$T_TMP/rec.ndjson"
is "$(jq -c '[.fit.status, .fit.counts, .fit.trigger.tool, .fit.trigger.errors > 0, .fit.why]' "$T_TMP/out")" \
    '["fitted",{"x":"2 * n + 1"},"memcheck",true,null]' \
    "--fit: memcheck's errors start the fit the clean case 0 did not need; x grows to 2n + 1 (y, right already, is not listed)"
is "$(jq -c '[.verify.verified.value, .verify.sanitize.memcheck.errors, (.verify.golden[0].outputs[0].count), (.verify.stages | has("fit") and has("golden"))]' "$T_TMP/out")" \
    '[true,0,100,true]' "the golden taken again with the fitted counts: clean under memcheck, verified"
if python3 -c 'import jsonschema' 2> /dev/null; then
	test/validate "$T_TMP/out" > "$T_TMP/val" 2>&1
	is "$?:$(cat "$T_TMP/val")" "0:" "a fit started by memcheck validates (schemas/)"
else
	skip "a fit started by memcheck validates" "python3-jsonschema is not installed"
fi

# --- no compute-sanitizer: the fit says why it did not run
CUDA_PATH=$T_TMP/none PATH=/usr/bin:/bin run "$KV" --no-time --no-memcheck --fit < "$T_TMP/rec.ndjson"
is "$(jq -c '[.fit.status, .fit.why]' "$T_TMP/out")" \
    '["skipped","compute-sanitizer not found"]' "no compute-sanitizer: fit skipped, and why"
done_testing
