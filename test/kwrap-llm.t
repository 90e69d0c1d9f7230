#!/bin/sh
# kwrap --llm against a loopback chat-completions server that this script
# starts (test/llm/server.py; no other network): scripted answers, fenced
# and prose-wrapped JSON, invalid answers retried once with the error,
# 429 with Retry-After, 500 until the retries run out, a response that
# never ends, one over the size limit, the cache on a rerun, repair rounds,
# and an API key that shows up nowhere.
. "$(dirname "$0")/lib.sh"

have_tool kwrap || skip_all "kwrap is not built"
command -v python3 > /dev/null || skip_all "python3 not installed"
command -v jq > /dev/null || skip_all "jq not installed"
KWRAP=$(tool kwrap)
"$KWRAP" -h | grep -q -- --llm || skip_all "kwrap has no --llm"

# nothing from the caller's environment reaches the client; loopback only
unset KFORGE_LLM_URL KFORGE_LLM_MODEL KFORGE_LLM_TEMPERATURE \
    KFORGE_LLM_MAX_TOKENS KFORGE_LLM_TIMEOUT KFORGE_LLM_RETRIES \
    KFORGE_LLM_MAX_BACKOFF KFORGE_LLM_MAX_RESPONSE KFORGE_LLM_JOBS \
    KFORGE_PROMPTS OPENAI_API_KEY http_proxy https_proxy HTTP_PROXY \
    HTTPS_PROXY ALL_PROXY all_proxy
NO_PROXY=127.0.0.1
no_proxy=127.0.0.1
KEY="kforge-test-key-$$-$(date +%s)-marker"
KFORGE_LLM_API_KEY=$KEY
KFORGE_LLM_MODEL=test-model
KFORGE_LLM_BACKOFF=0.05
KFORGE_WORK=$T_TMP/work
export NO_PROXY no_proxy KFORGE_LLM_API_KEY KFORGE_LLM_MODEL \
    KFORGE_LLM_BACKOFF KFORGE_WORK

LOG=$T_TMP/server.log
python3 test/llm/server.py test/llm/script.json "$T_TMP/port" "$LOG" \
    "$KEY" 2> "$T_TMP/server.err" &
SERVER=$!
i=0
while [ ! -s "$T_TMP/port" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ ! -s "$T_TMP/port" ]; then
	kill "$SERVER" 2> /dev/null
	diag_file "$T_TMP/server.err"
	skip_all "the loopback server did not start"
fi
KFORGE_LLM_URL=http://127.0.0.1:$(cat "$T_TMP/port")/v1
export KFORGE_LLM_URL
: > "$LOG"

# pick KERNEL...: the example slices of these kernels
pick() {
	jq -c --args 'select(.scan.name as $n | $ARGS.positional |
	    index($n))' "$@" < examples/kslice.ndjson
}
# requests ENTRY: how many requests the server saw for script entry ENTRY
requests() {
	jq -s --argjson e "$1" '[.[] | select(.entry == $e)] | length' "$LOG"
}
# rec FILE KERNEL JQ: a jq expression on one record of FILE
rec() {
	jq -c --arg n "$2" "select(.scan.name == \$n) | $3" "$1"
}

# --- candidates: good, 429 then good, 500 forever, hang, too big
pick relu_kernel histogram_kernel count_nonfinite_kernel saxpy_kernel \
    scale_add_kernel > "$T_TMP/a.in"
run "$KWRAP" --llm candidate -j 8 --timeout 1 --retries 2 \
    --max-response 100000 "$T_TMP/a.in"
cp "$T_TMP/out" "$T_TMP/a.out"
cp "$T_TMP/err" "$T_TMP/a.err"
is "$T_STATUS" 1 "candidate: exit 1, some records carry errors"
is "$(wc -l < "$T_TMP/a.out" | tr -d ' ')" 5 "candidate: lines in = lines out"
is "$(rec "$T_TMP/a.out" relu_kernel '[.candidate.dialect, .candidate.source,
    .candidate.model, .candidate.prompt.name,
    (.candidate.code | test("^#include <cuda_runtime.h>\n\n__global__ void relu_kernel"))]')" \
    '["cuda","llm","test-model","candidate",true]' \
    "candidate: code taken from the fenced block, model and prompt named"
is "$(rec "$T_TMP/a.out" relu_kernel '.candidate.prompt.sha256')" \
    "\"$(sha256sum prompts/candidate.md | cut -c1-64)\"" \
    "candidate: the prompt's sha256 is the file's"
is "$(requests 0)" 1 "candidate: one request for a good answer"
is "$(rec "$T_TMP/a.out" histogram_kernel '[(.candidate.code | length > 0),
    .wrap.llm.tasks.candidate.requests]')" '[true,2]' \
    "429: retried, then answered"
is "$(requests 1)" 2 "429: the server saw two requests"
gap=$(jq -s '[.[] | select(.entry == 1) | .t] | .[1] - .[0] >= 1' "$LOG")
is "$gap" true "429: Retry-After: 1 honoured (backoff alone is 0.05 s)"
is "$(rec "$T_TMP/a.out" count_nonfinite_kernel '[.candidate, (.errors[-1] |
    .code, (.message | test("HTTP 500 \\(3 attempts\\)")),
    (.raw | test("overloaded")))]')" '[null,"llm-request",true,true]' \
    "500: an error after the retries, keeping the response"
is "$(requests 2)" 3 "500: 1 request + 2 retries"
is "$(rec "$T_TMP/a.out" saxpy_kernel '[.candidate, (.errors[-1] | .code,
    (.message | test("timed out")))]')" '[null,"llm-request",true]' \
    "hang: timed out"
is "$(requests 3)" 3 "hang: timeouts are retried too"
is "$(rec "$T_TMP/a.out" scale_add_kernel '[.candidate, (.errors[-1] | .code,
    (.message | test("larger than 100000 bytes")))]')" \
    '[null,"llm-request",true]' "size: a response over the limit is cut off"
is "$(requests 4)" 1 "size: not retried"
grep -q "retrying" "$T_TMP/a.err"
ok $? "candidate: retries are reported on stderr"

# --- spec: fenced JSON, prose around JSON, invalid JSON, schema failure
pick square_kernel conv1d_kernel block_sum_kernel block_max_kernel \
    > "$T_TMP/b.in"
run "$KWRAP" --llm spec -j 4 "$T_TMP/b.in"
cp "$T_TMP/out" "$T_TMP/b.out"
cp "$T_TMP/err" "$T_TMP/b.err"
is "$T_STATUS" 1 "spec: exit 1 (one answer stays invalid)"
is "$(rec "$T_TMP/b.out" square_kernel '[.wrap.spec.source,
    .wrap.spec.description, .wrap.spec.params[0].fill,
    (.wrap.harness.code | length > 0), .errors]')" \
    '["llm","squares every element",{"kind":"uniform","lo":-4,"hi":4},true,null]' \
    "spec: fenced JSON merged, harness regenerated"
is "$(rec "$T_TMP/b.out" square_kernel '.wrap.instruction.detailed |
    test("Computation: squares every element")')" true \
    "spec: the description is in the instruction"
is "$(rec "$T_TMP/b.out" conv1d_kernel '[.wrap.spec.description,
    .wrap.llm.tasks.spec.ok]')" '["a 1-D convolution",true]' \
    "spec: JSON found in prose"
is "$(rec "$T_TMP/b.out" block_sum_kernel '[.wrap.spec.source, (.errors[-1] |
    .code, (.message | test("invalid JSON")), (.raw | test("sums"))),
    .wrap.llm.tasks.spec.retried]')" \
    '["inferred","llm-invalid",true,true,true]' \
    "spec: invalid JSON retried once, then an error keeping the raw answer"
is "$(requests 7)" 2 "spec: invalid JSON: two requests"
is "$(rec "$T_TMP/b.out" block_max_kernel '[.wrap.spec.description,
    .wrap.llm.tasks.spec.retried, .errors]')" \
    '["block-wise maximum",true,null]' \
    "spec: an answer failing the schema retried and fixed"
is "$(jq -s '[.[] | select(.entry == 8) | .retry_prompt]' -c "$LOG")" \
    '[false,true]' "spec: the retry shows the model its error"

# --- reference, tests, translate on one record; a key echoed back
pick qk_scores_kernel > "$T_TMP/c.in"
run "$KWRAP" --llm reference,tests,translate "$T_TMP/c.in"
cp "$T_TMP/out" "$T_TMP/c.out"
cp "$T_TMP/err" "$T_TMP/c.err"
is "$T_STATUS" 0 "reference,tests,translate: exit 0"
is "$(rec "$T_TMP/c.out" qk_scores_kernel '[.wrap.reference_cpu.language,
    (.wrap.reference_cpu.code | test("^/\\* Bearer \\[redacted\\] \\*/\nvoid qk_scores_kernel_cpu")),
    .wrap.reference_cpu.prompt.name]')" '["c",true,"reference"]' \
    "reference: a C function in wrap.reference_cpu"
is "$(rec "$T_TMP/c.out" qk_scores_kernel '[.wrap.harness.oracle,
    .wrap.reference_cpu.oracle, (.wrap.harness.code |
    test("qk_scores_kernel_cpu\\(kw_anyptr\\{kb\\[0\\].host.data\\(\\)\\}"))]')" \
    '[true,true,true]' "reference: compiled into the harness as an oracle"
is "$(rec "$T_TMP/c.out" qk_scores_kernel '[.wrap.spec.cases[-1] |
    .name, .scalars.seq, (.seed | type)]')" '["llm_tiny",3,"number"]' \
    "tests: a case added, given a seed"
is "$(rec "$T_TMP/c.out" qk_scores_kernel '.wrap.harness.code |
    test("kw_ncases = 10;")')" true "tests: the harness has the new case"
is "$(rec "$T_TMP/c.out" qk_scores_kernel '[.candidate.dialect,
    .candidate.task, (.candidate.code | test("hip_runtime"))]')" \
    '["hip","translate",true]' "translate: a HIP candidate"

# --- reference: an answer that does not compile goes back with the error
if command -v cc > /dev/null; then
	pick relu_kernel > "$T_TMP/e.in"
	run "$KWRAP" --llm reference "$T_TMP/e.in"
	is "$(jq -c '[.wrap.llm.tasks.reference | .ok, .retried, .requests],
	    (.wrap.reference_cpu.code | test(": 0.0f;"))' "$T_TMP/out")" \
	    '[true,true,2]
true' "reference: a C function that does not compile is retried"
	is "$(requests 12)" 2 "reference: two requests"
else
	skip "reference: a C function that does not compile is retried" "no cc"
	skip "reference: two requests" "no cc"
fi

# --- repair: a candidate that failed to build, then rounds run out
jq -c '.candidate = {code: "__global__ void relu_kernel(const float *in, float *out, int n) { out[threadIdx.x] = in[n]; }", dialect: "cuda"} |
    .build = {arch: "sm_90", candidate: {ok: false, diagnostics: [{file: "k.cu",
    line: 1, severity: "error", message: "identifier \"fmax\" is undefined"}]}}' \
    < "$T_TMP/a.in" | head -n 1 > "$T_TMP/d.in"
run "$KWRAP" --llm repair --rounds 1 "$T_TMP/d.in"
cp "$T_TMP/out" "$T_TMP/d.out"
is "$T_STATUS" 0 "repair: exit 0"
is "$(jq -c '[.candidate.round, .candidate.task,
    (.candidate.strategy | test("^Strategy: the kernel read past")),
    (.candidate.code | test("fmaxf")), (.candidate.history | length),
    (.candidate.history[0] | .round, (.error | test("fmax")),
    (.code | test("in\\[n\\]")))]' "$T_TMP/d.out")" \
    '[1,"repair",true,true,1,0,true,true]' \
    "repair: new code, stated strategy, the failed round in history"
is "$(requests 13)" 1 "repair: one request"
run "$KWRAP" --llm repair --rounds 1 "$T_TMP/d.out"
is "$(jq -c '[.candidate.round, (.candidate.history | length)]' \
    "$T_TMP/out")" '[1,1]' "repair: --rounds 1 stops after one round"
is "$(requests 13)" 1 "repair: no request once the rounds are spent"

# --- every output record fits the schemas
if [ -x test/validate ] && /usr/bin/python3 -c 'import jsonschema' \
    2> /dev/null; then
	# d.in's build section is a stub, not kbuild's
	jq -c 'del(.build)' "$T_TMP/d.out" > "$T_TMP/d.nobuild"
	run test/validate "$T_TMP/a.out" "$T_TMP/b.out" "$T_TMP/c.out" \
	    "$T_TMP/d.nobuild"
	is "$T_STATUS:$(cat "$T_TMP/out" "$T_TMP/err")" "0:" \
	    "schemas: every output record validates"
else
	skip "schemas: every output record validates" "no python3 jsonschema"
fi

# --- rerun: answered from the cache, the server sees nothing new
before=$(wc -l < "$LOG" | tr -d ' ')
run "$KWRAP" --llm spec -j 4 "$T_TMP/b.in"
is "$(jq -c 'del(.wrap.llm)' "$T_TMP/out")" \
    "$(jq -c 'del(.wrap.llm)' "$T_TMP/b.out")" "rerun: same spec results"
is "$(jq -c '[.wrap.llm.tasks.spec | .cached, .requests]' "$T_TMP/out" |
    sort -u)" '[true,0]' "rerun: every answer from the cache"
pick relu_kernel histogram_kernel > "$T_TMP/a2.in"
run "$KWRAP" --llm candidate "$T_TMP/a2.in"
is "$(jq -c '.candidate' "$T_TMP/out")" \
    "$(jq -c 'select(.candidate != null) | .candidate' "$T_TMP/a.out")" \
    "rerun: same candidates"
is "$(wc -l < "$LOG" | tr -d ' ')" "$before" "rerun: no new requests"
n=$(find "$KFORGE_WORK/llm" -name '*.json' | wc -l | tr -d ' ')
exp=12
command -v cc > /dev/null && exp=14
is "$n" "$exp" "cache: one file per successful exchange"
is "$(find "$KFORGE_WORK/llm" -name '*.tmp.*' | wc -l | tr -d ' ')" 0 \
    "cache: no temporary files left"
f=$(find "$KFORGE_WORK/llm" -name '*.json' | head -n 1)
like "$f" "/llm/([0-9a-f]{2})/\\1[0-9a-f]{62}\\.json\$" \
    "cache: llm/xx/<sha256>.json"

# --- the key went to the server and nowhere else
is "$(jq -s -c '[.[].auth_ok] | unique' "$LOG")" '[true]' \
    "key: every request carried it"
is "$(grep -c '\[redacted\]' "$T_TMP/c.out")" 1 "key: an echoed key is redacted"
grep -rl -- "$KEY" "$T_TMP" > "$T_TMP/leaks" 2> /dev/null
is "$(cat "$T_TMP/leaks")" "" "key: in no output, stderr, log or cache file"

# --- usage
run "$KWRAP" --llm bogus < /dev/null
is "$T_STATUS:$(cat "$T_TMP/err")" \
    "2:kwrap: --llm: unknown task: bogus (spec, reference, tests, candidate, translate, repair)" \
    "usage: unknown task"
run env -u KFORGE_LLM_MODEL "$KWRAP" --llm spec < /dev/null
is "$T_STATUS:$(cat "$T_TMP/err")" \
    "2:kwrap: no model: give --model or set KFORGE_LLM_MODEL" \
    "usage: no model"
run "$KWRAP" --llm candidate,translate < /dev/null
is "$T_STATUS" 2 "usage: candidate and translate together"
run "$KWRAP" --model x < /dev/null
is "$T_STATUS" 2 "usage: LLM options without --llm"
run env KFORGE_PROMPTS="$T_TMP/none" "$KWRAP" --llm spec < /dev/null
is "$T_STATUS" 2 "usage: prompts not found"

kill "$SERVER" 2> /dev/null
wait "$SERVER" 2> /dev/null
done_testing
