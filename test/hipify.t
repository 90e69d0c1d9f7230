#!/bin/sh
# bench/hipify-gpu.sh's plumbing without a GPU or PyTorch: a stand-in for
# torch.utils.hipify (renames cuda to hip), kbuild and kverify stand-ins
# whose verdicts the task ids choose, and a funnel output directory with
# two corpora and a stray directory.  One command covers every corpus; the
# table has a row per corpus and a total; every translation that does not
# pass is listed with its cause, every wavefront-sensitive one with why.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 > /dev/null 2>&1 || ! command -v jq > /dev/null 2>&1; then
	skip_all "python3 or jq is not installed"
fi

# the translator: torch.utils.hipify.hipify_python.hipify over a tree
mkdir -p "$T_TMP/py/torch/utils/hipify"
echo '__version__ = "0.0-stand-in"' > "$T_TMP/py/torch/__init__.py"
: > "$T_TMP/py/torch/utils/__init__.py"
: > "$T_TMP/py/torch/utils/hipify/__init__.py"
cat > "$T_TMP/py/torch/utils/hipify/hipify_python.py" <<'EOF'
import os
def hipify(project_directory, output_directory, **kw):
    os.makedirs(output_directory, exist_ok=True)
    for n in os.listdir(project_directory):
        t = open(os.path.join(project_directory, n)).read()
        open(os.path.join(output_directory, n[:-3] + ".hip"), "w").write(
            t.replace("cuda", "hip"))
EOF
# kbuild: "nocompile" in the id fails to compile, "wave" is sensitive
mkdir -p "$T_TMP/bin"
cat > "$T_TMP/bin/kbuild" <<'EOF'
#!/bin/sh
exec jq -c 'if (.id | test("nocompile")) then
  .build = {candidate: {ok: false, diagnostics: [{severity: "error",
    message: "identifier \"hipFoo\" is undefined"}]}}
else .build = {candidate: {ok: true, symbol: "_Z1kPf",
  wavefront: {sensitive: (.id | test("wave")), reasons: (if (.id | test("wave"))
    then [{kind: "lane-mask", line: 3}] else [] end)}}} end'
EOF
# kverify: "mismatch" in the id fails against the golden; "noref": the
# CUDA reference itself is not verified in this run
cat > "$T_TMP/bin/kverify" <<'EOF'
#!/bin/sh
exec jq -c 'if .build.candidate.ok then .verify = {verified: {value: (.id | test("noref") | not),
  reason: (if (.id | test("noref")) then "reference-fault" else null end)},
  pass_exe: (.id | test("mismatch") | not),
  candidate: {reasons: ["mismatch"]}} else . end'
EOF
chmod +x "$T_TMP/bin/kbuild" "$T_TMP/bin/kverify"

task() {
	jq -cn --arg id "$1" --argjson v "$2" '{id: $id, scan: {dialect: "cuda"},
	    slice: {code: "__global__ void k(float *x) { cudaFoo(); }"},
	    verify: {verified: {value: $v}}}'
}
F=$T_TMP/funnel
mkdir -p "$F/alpha" "$F/beta" "$F/stray"
{
	task alpha/a.cu::ok true
	task alpha/b.cu::mismatch true
	task alpha/c.cu::wave_ok true
	task alpha/d.cu::unverified false
	task alpha/e.cu::noref true
} > "$F/alpha/kverify.ndjson"
{
	task beta/a.cu::nocompile true
	task beta/b.cu::wave_mismatch true
} > "$F/beta/kverify.ndjson"

PYTHONPATH=$T_TMP/py KFORGE_BIN=$T_TMP/bin run sh bench/hipify-gpu.sh -j 2 "$F"
is "$T_STATUS" 0 "one command over the funnel's directory: exit status 0"
is "$(grep -c '^| [a-z*]' "$F/hipify.md")" 4 \
    "a row per corpus with verified tasks (two), the header and the total"
like "$(cat "$F/hipify.md")" \
    '| alpha | 4 | 4 | 4 | 1 | 2 | 66.7% | 1 |' \
    "alpha: 4 verified, 4 compile, 1 not judged (its reference failed), 2 of 3 pass, 1 sensitive"
like "$(cat "$F/hipify.md")" \
    '| beta | 2 | 2 | 1 | 0 | 0 | 0.0% | 1 |' "beta: 2 verified, 1 compiles, none passes"
like "$(cat "$F/hipify.md")" \
    '| \*\*all 2 corpora\*\* | 6 | 6 | 5 | 1 | 2 | 50.0% | 2 |' "the total row"
like "$(cat "$F/hipify.md")" \
    '\* alpha `alpha/e.cu::noref`: not judged: the CUDA reference was not verified again: reference-fault' \
    "a translation whose CUDA reference failed in this run: listed as not judged"
like "$(cat "$F/hipify.md")" \
    '\* beta `beta/a.cu::nocompile`: compile: identifier "…" is undefined' \
    "a translation that does not compile, listed with the compiler's error"
like "$(cat "$F/hipify.md")" \
    '\* alpha `alpha/b.cu::mismatch`: verify: mismatch' \
    "a translation that does not pass, listed with its verdict"
like "$(cat "$F/hipify.md")" \
    '\* beta `beta/b.cu::wave_mismatch` \(does not pass\): lane-mask@3' \
    "a wavefront-sensitive translation, listed with its reasons"
is "$(grep -c '^\* ' "$F/hipify.md")" 6 "three failures, one not judged and two sensitive listed, no more"
is "$(jq -r .candidate.code "$F/alpha/hipify/in.ndjson" | sort -u)" \
    "__global__ void k(float *x) { hipFoo(); }" "the candidate is the translator's text"
is "$(grep -c stray "$F/hipify.md")" 0 "a directory without funnel output is left out"

PYTHONPATH=$T_TMP/py KFORGE_BIN=$T_TMP/bin run sh bench/hipify-gpu.sh "$F/stray"
is "$T_STATUS" 2 "nothing to translate: exit status 2"

done_testing
