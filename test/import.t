#!/bin/sh
# kimport: rows of each foreign format (test/import/, written for these
# tests) become records; a GEAK-style run's two iterations with their
# memory files round-trip into records whose candidates kbuild builds
# (real nvcc, no GPU) and whose failures kreport --debug-dir shows with
# the agent's reflections; references from the row or from --reference;
# bad rows become error records; --run-tests runs a row's own test in
# the sandbox.
. "$(dirname "$0")/lib.sh"

have_tool kimport || skip_all "kimport not built"
have_tool kbuild || skip_all "kbuild not built"
KIMPORT=$(tool kimport)
D=test/import
KFORGE_WORK=$T_TMP/work
export KFORGE_WORK

# --- GEAK style: <run>_<iter>.jsonl with <run>_mem_<iter>.json beside it
run "$KIMPORT" $D/run_0.jsonl $D/run_1.jsonl
is "$T_STATUS" 1 "geak: exit 1 (a Python predict is an error record)"
cp "$T_TMP/out" "$T_TMP/geak"
# 4 rows, then 3 rows of which one defines two kernels
is "$(wc -l < "$T_TMP/geak" | tr -d ' ')" 8 "geak: one record per kernel of each row"
is "$(jq -r '[.import.row, .id, (.import.reference // "-")] | @tsv' "$T_TMP/geak")" \
"$D/run_0.jsonl:1	saxpy.hip::saxpy_kernel	row
$D/run_0.jsonl:2	clamp.cu::clamp_kernel	none
$D/run_0.jsonl:3	geak:relu.py	-
$D/run_0.jsonl:4	scale.cu::scale_rows	row
$D/run_1.jsonl:1	saxpy.hip::saxpy_kernel	row
$D/run_1.jsonl:2	clamp_shift.cu::clamp_kernel	none
$D/run_1.jsonl:2	clamp_shift.cu::shift_kernel	none
$D/run_1.jsonl:3	scale.cu::scale_rows	row" \
    "geak: rows, ids and references in input order"
is "$(jq -r 'select(.errors[]?.stage == "kimport") | .errors[0].code' "$T_TMP/geak")" \
    not-cuda "geak: the Triton predict is a not-cuda error record"
like "$(cat "$T_TMP/err")" "run_0.jsonl:3: geak:relu.py: the candidate defines no __global__ kernel" \
    "geak: the error names the row and the cause"
is "$(jq -r 'select(.id == "saxpy.hip::saxpy_kernel") | [.import.iter, .candidate.dialect, (.candidate.history | length)] | @tsv' "$T_TMP/geak")" \
"0	hip	1
1	hip	2" "geak: the HIP candidate's history grows with each iteration"
is "$(jq -r 'select(.import.row == "'$D'/run_1.jsonl:1") | .candidate.history[] | [.round, .reflection, (.error // "-"), .pass_exe] | @tsv' "$T_TMP/geak")" \
"0	The kernel drops y[i]; the grid also misses the tail when n is not a multiple of 128.	mismatch at index 0: got 2.0, expected 3.0	false
1	Both fixed: the sum keeps y[i] and the grid rounds up.	-	true" \
    "geak: history from both memory files: rounds, reflections, errors, verdicts"
is "$(jq -r 'select(.import.row == "'$D'/run_1.jsonl:1") | (.candidate.history[0].code | test("a \\* x\\[i\\];")), (.candidate.history[1].code | test("a \\* x\\[i\\] \\+ y\\[i\\]"))' "$T_TMP/geak")" \
"true
true" "geak: each round keeps the code its iteration proposed"
# two candidates of one task, each scanned alone: one launch each, its own
is "$(jq -r 'select(.id == "saxpy.hip::saxpy_kernel") | [(.candidate.kernel.launches | length), .candidate.kernel.launches[0].grid] | @tsv' "$T_TMP/geak")" \
"1	dim3(n / 128)
1	dim3((n + 127) / 128)" "geak: candidates of one task do not share launch sites"
is "$(jq -r 'select(.import.row == "'$D'/run_1.jsonl:2") | [.candidate.kernel.id, (.candidate.kernel.launches | length)] | @tsv' "$T_TMP/geak")" \
"clamp_shift.cu::clamp_kernel	1
clamp_shift.cu::shift_kernel	2" "geak: a row's kernels each keep their own launches"
is "$(jq -r 'select(.candidate) | .candidate.code | test("PYBIND11_MODULE|torch::Tensor [a-z]+\\(")' "$T_TMP/geak" | sort -u)" false \
    "geak: candidates are cut to the kernel (no host wrapper, no binding)"
is "$(jq -r 'select(.id == "scale.cu::scale_rows") | .slice.code | test("w\\[r\\] \\* in")' "$T_TMP/geak" | sort -u)" false \
    "geak: the reference is the row's label, not its predict"

# a rerun reads the scans kept in the work directory, and gives the same
run "$KIMPORT" $D/run_0.jsonl $D/run_1.jsonl
is_file "$T_TMP/out" "$T_TMP/geak" "geak: a rerun gives the same records"

# --- the candidates build
command -v nvcc > /dev/null || [ -x /usr/local/cuda/bin/nvcc ] || {
	skip "geak: kbuild builds the candidates" "nvcc not installed"
	done_testing
	exit
}
run "$(tool kbuild)" -j 2 --arch sm_90 --hip-platform nvidia < "$T_TMP/geak"
cp "$T_TMP/out" "$T_TMP/geak.built"
is "$(wc -l < "$T_TMP/geak.built" | tr -d ' ')" 8 "kbuild: lines in equal lines out"
is "$(jq -r 'select(.candidate.kernel) | [.import.row, .build.candidate.ok, .build.candidate.pass_call] | @tsv' "$T_TMP/geak.built")" \
"$D/run_0.jsonl:1	true	true
$D/run_0.jsonl:2	true	true
$D/run_0.jsonl:4	true	false
$D/run_1.jsonl:1	true	true
$D/run_1.jsonl:2	true	true
$D/run_1.jsonl:2	true	true
$D/run_1.jsonl:3	true	true" \
    "kbuild: every candidate builds; the one with the wrong signature fails pass_call"
like "$(jq -r 'select(.import.row == "'$D'/run_0.jsonl:4") | .build.candidate.pass_call_reason' "$T_TMP/geak.built")" \
    "does not define scale_rows with the task's signature" "kbuild: and says why"

# --- kreport --debug-dir: the failure with the agent's reflections
run "$(tool kreport)" --debug-dir "$T_TMP/debug" "$T_TMP/geak.built"
dir=$(ls -d "$T_TMP"/debug/scale.cu_scale_rows-* 2> /dev/null | head -1)
ok "$([ -n "$dir" ]; echo $?)" "kreport: a debug folder for the wrong-kernel candidate"
like "$(cat "$dir/mismatch.txt" 2> /dev/null)" "classes: compile:candidate:wrong-kernel" \
    "kreport: its class"
like "$(cat "$dir/mismatch.txt" 2> /dev/null | tr '\n' '|')" \
    "history:\|round 0: pass_call no pass_exe no pass_perf no\|  error: scale_rows: no kernel with the signature.*\|  reflection: The weights are float in the task; I declared them double.\|  strategy: Take the weights as const float \*." \
    "kreport: mismatch.txt shows the agent's history"
is "$(cat "$dir/round-0.reflection" 2> /dev/null)" \
    "The weights are float in the task; I declared them double." \
    "kreport: round-0.reflection"

# --- TritonBench: {instruction, predict, label}
run "$KIMPORT" $D/tritonbench.jsonl
is "$(jq -r '[.import.format, .id, (.import.reference // "-"), (.errors[0].code // "-")] | @tsv' "$T_TMP/out")" \
"tritonbench	task-71a9f5c5be92.cu::negate	row	-
tritonbench	task-71a9f5c5be92.cu::negate	row	-
tritonbench	tritonbench:task-059f2effabf6	-	not-cuda" \
    "tritonbench: the label is the reference; a task is named by its label's hash"
cp "$T_TMP/out" "$T_TMP/tb"
run "$(tool kbuild)" --arch sm_90 < "$T_TMP/tb"
is "$(jq -r '.build.candidate.pass_call | if . == null then "-" else tostring end' "$T_TMP/out")" "true
false
-" "tritonbench: a candidate with another signature fails pass_call"

# --- ComputeEval: the baseline is the reference; a problem alone is a task
run "$KIMPORT" $D/computeeval.jsonl
is "$(jq -r '[.id, (.import.reference // "-"), (.candidate != null), (.errors[0].code // "-")] | @tsv' "$T_TMP/out")" \
"solution.cu::square_kernel	row	false	-
solution.cu::square_kernel	row	true	-
computeeval:CUDA/escape-1	-	false	bad-files" \
    "computeeval: problem, solution, and a file outside the task refused"
is "$(jq -r 'select(.candidate) | .candidate.model' "$T_TMP/out")" example-model \
    "computeeval: the model that wrote it"

# --- KernelBench: the kernel inside load_inline(cuda_sources=...)
run "$KIMPORT" --reference examples/kslice.ndjson $D/kernelbench.jsonl
is "$(jq -r '[.id, (.import.reference // "-"), (.candidate.kernel.id // "-"), (.errors[0].code // "-")] | @tsv' "$T_TMP/out")" \
"examples/src/elementwise.cu::relu_kernel	records	19_ReLU.cu::relu_kernel	-
neg.cu::negate	none	neg.cu::negate	-
kernelbench:bad	-	-	no-cuda-sources" \
    "kernelbench: a name assigned the source, a literal; --reference matches name and signature (__restrict__ aside)"
like "$(cat "$T_TMP/err")" "kernelbench:bad: cuda_sources names make_source, which is not assigned a string literal" \
    "kernelbench: why the source was not found"

# --- bad input: every line gives a line
run "$KIMPORT" < $D/bad.jsonl
is "$T_STATUS" 1 "bad input: exit 1"
is "$(jq -r '.errors[0].code' "$T_TMP/out")" "invalid-json
unknown-format
not-an-object" "bad input: one error record per line, naming the cause"
is "$(jq -c '.import.raw' "$T_TMP/out" | sed -n 2p)" '{"hello":1}' \
    "bad input: the row is kept in the error record"

# --- -f forces a format; -m names the memory of standard input
run "$KIMPORT" -f kernelbench < $D/tritonbench.jsonl
is "$(jq -r '.errors[0].code' "$T_TMP/out" | sort -u)" no-code "-f kernelbench: tritonbench rows are not kernelbench's"
sed -n 4p $D/run_0.jsonl > "$T_TMP/one.jsonl"
run "$KIMPORT" -m $D/run_mem_0.json < "$T_TMP/one.jsonl"
is "$T_STATUS:$(jq -r '[.import.run, (.candidate.history | length)] | @tsv' "$T_TMP/out")" "0:-	1" \
    "-m: standard input's memory; exit 0 when every record is fine"
run "$KIMPORT" -f nosuch < /dev/null
is "$T_STATUS" 2 "-f nosuch: usage error"

# --- --run-tests: the row's own test, in the sandbox, its verdict apart
run "$KIMPORT" --run-tests $D/run_0.jsonl $D/run_1.jsonl $D/computeeval.jsonl
is "$(jq -r 'select(.import.test) | [.import.row, .import.test.ran, (.import.test.pass | if . == null then "-" else tostring end)] | @tsv' "$T_TMP/out" | sort -u)" \
"$D/computeeval.jsonl:2	true	false
$D/run_0.jsonl:1	true	false
$D/run_0.jsonl:2	false	-
$D/run_0.jsonl:4	false	-
$D/run_1.jsonl:1	true	true
$D/run_1.jsonl:2	false	-
$D/run_1.jsonl:3	false	-" \
    "--run-tests: test_code and test_command run; rows without a test say so"
is "$(jq -r 'select(.import.row == "'$D'/computeeval.jsonl:2") | [.import.test.build_command, .import.test.command, .import.test.build_failed] | @tsv' "$T_TMP/out")" \
    "test -f include/square.h	sh test/check.sh	false" \
    "--run-tests: ComputeEval builds with the context files, then tests"

done_testing
