#!/bin/sh
# kreport on a crafted input covering every failure class: golden Markdown
# and JSON reports, pass@k and fast_p against hand computation, debug
# folders, both export formats, bad input lines, and the HTML page opened
# in a headless browser.
. "$(dirname "$0")/lib.sh"

have_tool kreport || skip_all "kreport not built"
command -v jq > /dev/null || skip_all "jq not installed (make deps)"
KREPORT=$(tool kreport)
IN=test/kreport/input.ndjson

# --- golden reports (the path of the input is part of bad lines' ids)
run "$KREPORT" "$IN"
is "$T_STATUS" 1 "md: exit 1 (two input lines are not records)"
is_file "$T_TMP/out" test/kreport/report.md "md: golden report"
is "$(cat "$T_TMP/err")" "kreport: $IN:6: invalid JSON: unexpected token near end of file at column 25
kreport: $IN:10: JSON value is not an object" "bad lines reported on stderr"
run "$KREPORT" --format json "$IN"
is "$T_STATUS" 1 "json: exit 1"
is_file "$T_TMP/out" test/kreport/report.json "json: golden report"
J=$T_TMP/report.json
cp "$T_TMP/out" "$J"

# --- numbers against hand computation
is "$(jq -r '[.records, .bad_lines] | join(" ")' "$J")" "20 2" \
    "every line counted, bad ones too"
is "$(jq -r '[.errors[] | select(.stage == "kreport") | .code] | join(" ")' "$J")" \
    "invalid-json not-an-object" "bad lines are error records of kreport"
is "$(jq -r '.candidates | [.records, .tasks, .pass_call.n, .pass_exe.n, .pass_perf.n] | join(" ")' "$J")" \
    "10 4 8 4 3" "candidates, tasks and verdict counts"
# task A: n=5, c=2; task B: n=3, c=2; a task of one failed candidate, and
# one whose only candidate never ran (no GPU): not judged, not counted
# pass@1 = (2/5 + 2/3 + 0) / 3 = 0.355556
# pass@2 = (1 - C(3,2)/C(5,2) + 1 - C(1,2)/C(3,2)) / 2 = (0.7 + 1) / 2
# pass@5 = 1 - C(3,5)/C(5,5) = 1, over task A alone
is "$(jq -r '[.pass_at_k[] | "\(.k):\(.tasks):\(.value)"] | join(" ")' "$J")" \
    "1:3:0.355556 2:2:0.85 5:1:1" "pass@k by hand, over candidates that got a verdict"
# correct speedups: A 2.5, 0.8; B 1.2, 1.6
# fast_1 = (1/5 + 2/3) / 3; fast_1.5 = (1/5 + 1/3) / 3; fast_2 = (1/5) / 3
is "$(jq -r '[.fast_p[] | "\(.p):\(.value)"] | join(" ")' "$J")" \
    "0:0.355556 1:0.288889 1.5:0.177778 2:0.0666667" "fast_p by hand"
is "$(jq -r '.speedup | [.n, .geomean, .median, .min, .max] | join(" ")' "$J")" \
    "4 1.39985 1.4 0.8 2.5" "geometric mean (2.5*0.8*1.2*1.6)^(1/4), median"
is "$(jq -r '[.speedup.histogram[].n] | join(" ")' "$J")" "0 1 0 1 1 1 0" \
    "speedup histogram"
for c in error:kslice/cannot-slice error:kslice/no-instance \
    compile:reference:undefined-identifier compile:candidate:syntax \
    fault:candidate:crash fault:reference:runtime timeout:candidate \
    mismatch:values nondeterministic degenerate:all-zero \
    degenerate:equals-input slow skipped error:kverify/no-device \
    error:kbuild/bad-candidate; do
	is "$(jq -r --arg c "$c" '.failures[] | select(.class == $c) | .records' "$J")" 1 \
	    "failure class $c"
done
is "$(jq -r '[.breakdown.dialect[].key] | join(" ")' "$J")" \
    "(unknown) cuda cuda->hip" "dialects, translation shown as from->to"
run "$KREPORT" --format json --project-depth 2 "$IN"
is "$(jq -r '[.breakdown.project[].key] | join(" ")' "$T_TMP/out")" \
    "(none) projA/src projB projC projD" "--project-depth 2"
is "$("$KREPORT" --format json < "$IN" 2> /dev/null | jq -c 'del(.failures, .errors, .failed)')" \
    "$(jq -c 'del(.failures, .errors, .failed)' "$J")" "stdin reads the same as a file"

# --- debug folders
D=$T_TMP/debug
run "$KREPORT" --debug-dir "$D" "$IN"
is "$(find "$D" -mindepth 1 -maxdepth 1 -type d | wc -l | tr -d ' ')" \
    "$(jq '.failed | length' "$J")" "one folder per failed record"
is "$(ls "$D" | grep -cv '^[A-Za-z0-9_][A-Za-z0-9._-]*$')" 0 "folder names are safe"
c2=$(ls -d "$D"/projA_src_scale.cu_scale_kernel_c2-*)
# jq stops at the input's bad lines: pick the record by text
c2_rec() {
	grep -F '"id":"projA/src/scale.cu::scale_kernel#c2"' "$IN"
}
is "$(cd "$c2" && ls | tr '\n' ' ')" \
    "README build.log candidate.cu harness.cu instruction.md mismatch.txt record.ndjson reference.cu verify.log " \
    "a mismatch's folder holds everything needed"
like "$(cat "$c2/mismatch.txt")" "x: 999 mismatches, 0 NaN mismatches, first at 1, max abs err 249.75" \
    "mismatch.txt summarizes the mismatching output"
is "$(cat "$c2/reference.cu")" "$(c2_rec | jq -r .slice.code)" \
    "reference.cu is slice.code"
is "$(jq -S . "$c2/verify.log")" "$(c2_rec | jq -S .verify)" \
    "verify.log is the verify section"
is "$(jq -c . "$c2/record.ndjson")" "$(c2_rec | jq -c .)" \
    "record.ndjson is the record, to rerun"
grep -q 'kbuild < record.ndjson' "$c2/README"
ok $? "README says how to rerun"
r1=$(ls -d "$D"/projB_b.cu_bias_kernel_run1-*)
is "$(cd "$r1" && ls round-* | tr '\n' ' ')" \
    "round-1.code round-1.error round-1.strategy round-2.code round-2.error round-2.strategy " \
    "repair history: one file per round and part"
is "$(jq -r '.reasons[0]' "$r1/round-2.error")" mismatch "a structured round error is kept as JSON"
like "$(cat "$(ls -d "$D"/projA_src_old.cu_legacy_kernel-*)/build.log")" 'texRef" is undefined' \
    "build.log holds the compiler's output"
before=$(ls "$D" | sort)
run "$KREPORT" --debug-dir "$D" "$IN"
is "$(ls "$D" | sort)" "$before" "a rerun finds the same folders"
printf '%s\n' '{"id":"a/b<c>"}' '{"id":"a/b_c_"}' |
    sed 's/}$/,"errors":[{"stage":"x","code":"y","message":"z"}]}/' |
    "$KREPORT" --debug-dir "$T_TMP/coll" > /dev/null 2>&1
is "$(ls "$T_TMP/coll" | wc -l | tr -d ' ')" 2 "ids that sanitize alike get distinct folders"
long=mmcv/ops/csrc/common/cuda/a_rather_long_directory_name/another_one/sync_bn_cuda_kernel.cuh
printf '%s\n' "{\"id\":\"$long::sync_bn_forward_mean_cuda_kernel<float>\"}" \
    "{\"id\":\"$long::sync_bn_backward_reduce_cuda_kernel<float>\"}" |
    sed 's/}$/,"errors":[{"stage":"x","code":"y","message":"z"}]}/' |
    "$KREPORT" --debug-dir "$T_TMP/long" > /dev/null 2>&1
is "$(ls "$T_TMP/long" | sed 's/-[0-9a-f]*$//' | tr '\n' ' ')" \
    "sync_bn_cuda_kernel.cuh_sync_bn_backward_reduce_cuda_kernel_float_ sync_bn_cuda_kernel.cuh_sync_bn_forward_mean_cuda_kernel_float_ " \
    "long ids: folder names keep the file and kernel names, not the directories"

# --- exports
run "$KREPORT" --export kforge "$IN"
is "$(wc -l < "$T_TMP/out" | tr -d ' ')" 16 "kforge export: one row per record with a slice"
is "$(jq -c 'select(.id == "projA/src/scale.cu::scale_kernel#c0") | [.task, .verdicts.pass_call, .verdicts.pass_exe, .verdicts.pass_perf, .verdicts.speedup, (.spec | type), (.harness.code | type), (.code | type)]' "$T_TMP/out")" \
    '["projA/src/scale.cu::scale_kernel",true,true,true,2.5,"object","string","string"]' \
    "kforge row: task, verdicts, spec, harness, code"
run "$KREPORT" --export tritonbench "$IN"
is "$(jq -c keys_unsorted "$T_TMP/out" | sort -u)" \
    '["instruction","label","predict","test_code","filename","pass_call","pass_exe","pass_perf","id"]' \
    "tritonbench rows: the columns TritonBench reads"
is "$(jq -c 'select(.id == "projB/b.cu::bias_kernel/run2") | [.filename, .pass_call, .pass_exe, .pass_perf, (.label | test("__global__")), (.predict | test("__fmul_rn")), (.test_code | test("harness"))]' "$T_TMP/out")" \
    '["bias_kernel.cu",true,true,true,true,true,true]' "tritonbench row: label, predict, test_code, verdicts"
is "$(jq -r 'select(.id == "projC/k.cu::shift_kernel") | .filename' "$T_TMP/out")" \
    shift_kernel.hip "a HIP candidate's file name"

# --- errors of kreport itself
run "$KREPORT" --format pdf "$IN"
is "$T_STATUS" 2 "unknown format: exit 2"
run "$KREPORT" "$T_TMP/nonexistent" "$IN"
is "$T_STATUS:$(grep -c . "$T_TMP/out" | tr -d ' ')" "3:$(grep -c . test/kreport/report.md)" \
    "an unreadable file: exit 3, the others still reported"
if [ -w /dev/full ]; then
	"$KREPORT" "$IN" > /dev/full 2> /dev/null
	is "$?" 3 "a full disk is an error"
else
	skip "a full disk is an error" "no /dev/full"
fi

# --- HTML: self-contained, and rendered by a real browser
run "$KREPORT" --format html "$IN"
H=$T_TMP/report.html
cp "$T_TMP/out" "$H"
is "$(grep -c '<svg' "$H")" 3 "three inline SVG charts"
is "$(grep -Eic '<script|<link|<img|src=|href=|@import|url\(' "$H")" 0 \
    "no scripts and no external resources"
browser=
for b in chromium chromium-browser; do
	command -v "$b" > /dev/null && { browser=$b; break; }
done
if [ -z "$browser" ]; then
	# make deps installs it: missing is a failure, not a skip
	fail "the HTML report renders in a browser"
	diag "chromium is not installed (make deps)"
else
	P=$T_TMP/report.png
	HOME=$T_TMP timeout 120 "$browser" --headless --disable-gpu --no-sandbox \
	    --screenshot="$P" --window-size=1200,1600 "file://$H" > "$T_TMP/browser.log" 2>&1
	# a PNG decoded with the standard library only: size, and colours
	python3 - "$P" > "$T_TMP/png" 2>&1 <<'PY'
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(d):
    n, t = struct.unpack(">I4s", d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    if t == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif t == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), "unexpected PNG kind"
bpp = 3 if ctype == 2 else 4
raw, stride, prev, colours = zlib.decompress(idat), w * bpp, None, set()
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    prev = prev or bytearray(stride)
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        for x in range(0, w, 3):
            colours.add(bytes(line[x * bpp:x * bpp + 3]))
    prev = line
print(w, h, len(colours))
PY
	read -r pw ph pc < "$T_TMP/png" 2> /dev/null
	is "$pw x $ph" "1200 x 1600" "the browser rendered a 1200x1600 screenshot" ||
	    { diag_file "$T_TMP/png"; diag_file "$T_TMP/browser.log"; }
	[ "$(wc -c < "$P")" -gt 20000 ] && [ "${pc:-0}" -gt 10 ]
	ok $? "the screenshot is not blank ($pc colours)"
fi
# a golden is worth something while some case is not degenerate
printf '%s\n' \
    '{"id":"d1","verify":{"golden":[{"case":0},{"case":1}],"deterministic":true,"degenerate":[{"case":1,"output":"y","reason":"all-zero"}]}}' \
    '{"id":"d2","verify":{"golden":[{"case":0},{"case":1}],"deterministic":true,"degenerate":[{"case":0,"output":"y","reason":"all-zero"},{"case":1,"output":"y","reason":"constant"}]}}' \
    > "$T_TMP/degen.ndjson"
is "$("$KREPORT" --format json "$T_TMP/degen.ndjson" | jq -c '.stages[] | select(.stage == "verify") | [.records, .ok]')" \
    "[2,1]" "verify ok when some case is not degenerate, not when every case is"

# --- a golden the CPU reference disagrees with is not counted as verified
G='{"case":0,"outputs":[{"name":"y","type":"float32","count":4,"bytes":16,"hash":"x"}]}'
for st in agree disagree error; do
	printf '%s\n' "{\"id\":\"o-$st\",\"verify\":{\"cases\":1,\"golden\":[$G],\"deterministic\":true,\"degenerate\":[],\"oracle\":{\"status\":\"$st\",\"cases\":1,\"mismatches\":[]},\"pass_exe\":null,\"pass_perf\":null}}"
done > "$T_TMP/oracle.ndjson"
"$KREPORT" --format json "$T_TMP/oracle.ndjson" > "$T_TMP/oracle.json"
is "$(jq -c '[(.stages[] | select(.stage == "verify") | [.records, .ok]),
    [.failures[] | select(.class | startswith("oracle")) | .class]]' "$T_TMP/oracle.json")" \
    '[[3,2],["oracle:disagree","oracle:error"]]' \
    "oracle: a disagreement un-verifies the golden; both show as failure classes"

# --- the verify stage counts kverify's own verdict where it gave one
printf '%s\n' \
    '{"id":"v1","verify":{"golden":[{"case":0,"outputs":[]}],"deterministic":true,"degenerate":[],"verified":{"value":true,"reason":null,"detail":null,"memcheck":true}}}' \
    '{"id":"v2","verify":{"golden":[{"case":0,"outputs":[]}],"deterministic":true,"degenerate":[],"verified":{"value":false,"reason":"memcheck","detail":"1 error on case 0","memcheck":true}}}' \
    '{"id":"v3","verify":{"golden":[{"case":0,"outputs":[]}],"deterministic":true,"degenerate":[]}}' \
    > "$T_TMP/ver.ndjson"
run "$KREPORT" --format json "$T_TMP/ver.ndjson"
is "$(jq -r '[(.stages[] | select(.stage == "verify") | .ok), (.failures[] | select(.class == "unverified:memcheck") | .records)] | join(" ")' "$T_TMP/out")" \
    "2 1" "verify: verify.verified counted (v1), its reason a failure class (v2), an older record by the old rule (v3)"

# --- the mutation score per task and overall; a banded nondeterministic
# reference is a tag, not a failure
V='"golden":[{"case":0,"outputs":[]}],"degenerate":[],"verified":{"value":true,"reason":null,"detail":null,"memcheck":true}'
printf '%s\n' \
    '{"id":"a.cu::k1","slice":{"code":"k1"},"verify":{'"$V"',"deterministic":true,"mutation":{"tried":10,"killed":9,"survived":1,"equivalent":2,"stillborn":1,"score":0.9,"survivors":[{"id":"m4","op":"constant","line":3,"diff":"x"}]}}}' \
    '{"id":"a.cu::k2","slice":{"code":"k2"},"verify":{'"$V"',"deterministic":false,"tolerance":{"k":4,"outputs":[{"name":"y","spread":0.001,"atol":0.004,"rtol":0.0001,"banded":true}]},"mutation":{"tried":4,"killed":4,"survived":0,"equivalent":0,"stillborn":0,"score":1,"survivors":[]}}}' \
    '{"id":"a.cu::k3","slice":{"code":"k3"},"verify":{'"$V"',"deterministic":true}}' \
    > "$T_TMP/mut.ndjson"
run "$KREPORT" --format json "$T_TMP/mut.ndjson"
is "$(jq -c '.mutation | [.tasks, .tried, .killed, .survived, .equivalent, .stillborn, (.score * 1000 | round)]' "$T_TMP/out")" \
    "[2,14,13,1,2,1,929]" "mutation: overall killed over tried, over the scored tasks"
is "$(jq -c '[.mutation.per_task[] | [.task, .score, .survivors]]' "$T_TMP/out")" \
    '[["a.cu::k1",0.9,["m4"]],["a.cu::k2",1,[]]]' "mutation: per task, lowest score first, survivors named"
is "$(jq -c '[(.failures | map(.class) | index("nondeterministic")), (.breakdown.tag[] | select(.key == "nondeterministic") | .records)]' "$T_TMP/out")" \
    "[null,1]" "a reference judged in its band: tag nondeterministic, no failure class"
run "$KREPORT" "$T_TMP/mut.ndjson"
like "$(cat "$T_TMP/out")" '## Mutation score' "md: a mutation score section"
like "$(grep -A1 '^13 of 14' "$T_TMP/out")" '^13 of 14 mutants killed \(92\.9%\) over 2 tasks' \
    "md: the overall score in words"
run "$KREPORT" --export kforge "$T_TMP/mut.ndjson"
is "$(jq -c '.verdicts.mutation' "$T_TMP/out" | tr '\n' ' ')" \
    '{"score":0.9,"tried":10,"killed":9,"survived":1,"equivalent":2,"spec_equivalent":0,"contradictions":0} {"score":1,"tried":4,"killed":4,"survived":0,"equivalent":0,"spec_equivalent":0,"contradictions":0} null ' \
    "export: verdicts.mutation per row"
is "$(jq -r 'select(.verdicts.mutation.score >= 0.95) | .id' "$T_TMP/out")" "a.cu::k2" \
    "the README's recipe: tasks whose tests kill at least 95% of the mutants"

# survivors kwrap proved equivalent under the spec leave the denominator;
# a killed one that had a proof is a contradiction, said in the report
printf '%s\n' \
    '{"id":"b.cu::k1","slice":{"code":"k1"},"verify":{'"$V"',"deterministic":true,"mutation":{"tried":10,"killed":8,"survived":1,"equivalent":0,"spec_equivalent":1,"contradictions":0,"stillborn":0,"score":0.8889,"survivors":[{"id":"m2","op":"constant","line":3,"diff":"x"}],"equivalents":[{"id":"m5","op":"swap-relational","line":4,"diff":"y","rule":"same-value","reason":"r"}]}}}' \
    '{"id":"b.cu::k2","slice":{"code":"k2"},"verify":{'"$V"',"deterministic":true,"mutation":{"tried":5,"killed":5,"survived":0,"equivalent":0,"spec_equivalent":0,"contradictions":1,"stillborn":0,"score":1,"survivors":[]}}}' \
    > "$T_TMP/meq.ndjson"
run "$KREPORT" --format json "$T_TMP/meq.ndjson"
is "$(jq -c '.mutation | [.tried, .killed, .survived, .spec_equivalent, .contradictions, (.score * 1000 | round)]' "$T_TMP/out")" \
    "[15,13,1,1,1,929]" "mutation: killed over tried less the spec-equivalent survivors (13 of 14)"
is "$(jq -c '[.mutation.per_task[] | [.task, .spec_equivalent, .contradictions]]' "$T_TMP/out")" \
    '[["b.cu::k1",1,0],["b.cu::k2",0,1]]' "mutation: per task, the equivalent count and contradictions"
run "$KREPORT" "$T_TMP/meq.ndjson"
like "$(cat "$T_TMP/out")" '13 of 14 mutants killed \(92\.9%\) over 2 tasks: killed over tried \(15\) less the 1 survivors kwrap proved equivalent under the spec' \
    "md: the score's denominator leaves the equivalent out, and says so"
like "$(cat "$T_TMP/out")" 'Contradictions: 1 killed mutants had been proved equivalent' \
    "md: a contradiction is said"
like "$(grep 'b.cu::k2' "$T_TMP/out")" '0 \(contradicted\)' "md: the task with the contradiction is marked"
run "$KREPORT" --export kforge "$T_TMP/meq.ndjson"
is "$(jq -c '.verdicts.mutation | [.spec_equivalent, .contradictions]' "$T_TMP/out" | tr '\n' ' ')" \
    '[1,0] [0,1] ' "export: the equivalent count and contradictions per row"
done_testing
