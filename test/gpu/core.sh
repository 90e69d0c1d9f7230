# The core part of test/gpu/run.sh (sourced by it, with its helpers ok,
# line, val and has; sh test/gpu/run.sh core runs it alone): the golden
# run of every example, compute-sanitizer, candidates against one golden,
# a faulting candidate between good ones, goldens taken again, the CPU
# oracle, --fit and hostile records.  The export part reads its golden.
# --- golden run of every example
t0=$(date +%s)
./kverify -j "$JOBS" --time 10 < "$g/built.ndjson" > "$out/golden.ndjson" 2> "$out/golden.err"
rc=$?
t1=$(date +%s)
echo "# golden run of $(wc -l < "$g/built.ndjson") records: $((t1 - t0)) s, exit $rc"
sed 's/^/# /' "$out/golden.err" | head -n 20
if grep -q 'no GPU' "$out/golden.err"; then
	echo "Bail out! no GPU here (see above)"
	exit 2
fi
ok "$rc" "golden run of every example: exit 0"
total=$(wc -l < "$g/built.ndjson")
ok "$([ "$(wc -l < "$out/golden.ndjson")" -eq "$total" ] && echo 0 || echo 1)" \
    "lines in equal lines out"
cuda=$(grep -vc '"skipped"' "$out/golden.ndjson")
gold=$(grep -c '"golden":\[{"case":0' "$out/golden.ndjson")
ok "$([ "$gold" -eq "$cuda" ] && [ "$gold" -gt 0 ] && echo 0 || echo 1)" \
    "every CUDA example has golden outputs ($gold of $cuda)"
# a record's error list, not the "errors" counts inside scan.diagnostics
# or verify.sanitize
ok "$(grep -c '"errors":\[{"stage"' "$out/golden.ndjson" | grep -qx 0 && echo 0 || echo 1)" \
    "no record carries an error"
ok "$(grep -c '"deterministic":true' "$out/golden.ndjson" | grep -qx "$gold" && echo 0 || echo 1)" \
    "every example is deterministic"
# every record has a verdict: the CUDA ones their own, the HIP examples
# built for AMD (not runnable here) not-runnable
ok "$([ "$(grep -c '"verified":{"value":' "$out/golden.ndjson")" -eq "$total" ] &&
    [ "$(grep -c '"reason":"not-runnable"' "$out/golden.ndjson")" -eq "$((total - cuda))" ] &&
    echo 0 || echo 1)" \
    "every record has kverify's verdict (memcheck on case 0 by default)"
grep -o '"verified":{"value":[a-z]*,"reason":[^,]*' "$out/golden.ndjson" |
    sort | uniq -c | sed 's/^/# /'
ok "$([ "$(grep -c '"verified":{"value":true' "$out/golden.ndjson")" -eq "$cuda" ] && echo 0 || echo 1)" \
    "every CUDA example is a verified task"
grep '"verified":{"value":false' "$out/golden.ndjson" |
    grep -v '"reason":"not-runnable"' |
    grep -o '"id":"[^"]*"\|"verified":{[^}]*}' | sed 's/^/# not verified: /'
while IFS= read -r l; do
	printf '%s\n' "$l" | grep -o '"id":"[^"]*"\|"seconds":[^,}]*}*$\|"kernel_seconds":[^,}]*\|"overhead_seconds":[^,}]*' |
	    tr '\n' ' ' | sed 's/^/# /'
	echo
done < "$out/golden.ndjson"
# a count of non-finite elements is 0 on finite data: the nonfinite case
# (NaN, +Inf and -Inf in a quarter of the input) makes it a test
id=examples/src/reduce.cu::count_nonfinite_kernel
echo "# count_nonfinite: $(line "$out/golden.ndjson" "$id" | grep -o '"verified":{[^}]*}')"
has "$out/golden.ndjson" "$id" '"verified":{"value":true'
ok $? "count_nonfinite_kernel is a verified task"
! has "$out/golden.ndjson" "$id" '"reason":"degenerate"'
ok $? "count_nonfinite_kernel: its count is not degenerate (the nonfinite case)"

# the hash of a golden blob is the sha256 of its bytes
h=$(grep -o '"hash":"[0-9a-f]*"' "$out/golden.ndjson" | head -n 1 | cut -d'"' -f4)
f=$KFORGE_WORK/blobs/$(echo "$h" | cut -c1-2)/$h
ok "$([ -f "$f" ] && [ "$(sha256sum < "$f" | cut -c1-64)" = "$h" ] && echo 0 || echo 1)" \
    "golden blobs are stored by sha256"

# --- compute-sanitizer on two examples
grep -e 'relu_kernel"' -e 'histogram_kernel"' "$g/built.ndjson" > "$out/san.in"
./kverify -j "$JOBS" --no-time --sanitize < "$out/san.in" > "$out/san.ndjson" 2> "$out/san.err"
ok $? "--sanitize: exit 0"
for tool in memcheck racecheck initcheck synccheck; do
	c=$(grep -o "\"$tool\":{\"errors\":[0-9][0-9]*" "$out/san.ndjson" | wc -l)
	ok "$([ "$c" -eq 2 ] && echo 0 || echo 1)" "--sanitize: $tool error count recorded"
done
grep -o '"sanitize":{[^}]*}[^}]*}[^}]*}[^}]*}' "$out/san.ndjson" | sed 's/^/# /'

# --- candidates, each against the same golden reference
./kverify -j "$JOBS" --time 20 --timeout 60 < "$g/cands.ndjson" > "$out/cands.ndjson" 2> "$out/cands.err"
echo "# candidates: exit $?"
sed 's/^/# /' "$out/cands.err" | head -n 20
C=$out/cands.ndjson
for c in good wrong stale modify stream late firstonly; do
	echo "# $c: pass_exe=$(val "$C" "gpu-test:$c" pass_exe)" \
	    "pass_perf=$(val "$C" "gpu-test:$c" pass_perf)" \
	    "speedup=$(val "$C" "gpu-test:$c" speedup)" \
	    "reasons=$(line "$C" "gpu-test:$c" | grep -o '"reasons":\[[^]]*\]')"
done
ok "$([ "$(val "$C" gpu-test:good pass_exe)" = true ] && echo 0 || echo 1)" \
    "a correct candidate passes"
has "$C" gpu-test:good '"candidate":{"n":[1-9]'
ok $? "the correct candidate is timed next to the reference"
ok "$([ "$(val "$C" gpu-test:wrong pass_exe)" = false ] && echo 0 || echo 1)" \
    "a wrong candidate fails"
has "$C" gpu-test:wrong '"reasons":\["mismatch"'
ok $? "wrong: reason mismatch"
has "$C" gpu-test:stale '"reasons":\["sentinel-left"'
ok $? "a candidate that writes nothing (stale memory) is caught: sentinel-left"
has "$C" gpu-test:modify '"modified-inputs"'
ok $? "a candidate that modifies its inputs is caught: modified-inputs"
ok "$([ "$(val "$C" gpu-test:stream pass_exe)" = false ] && echo 0 || echo 1)" \
    "work pushed to another stream: not passed"
has "$C" gpu-test:firstonly '"timed-outputs-differ"'
ok $? "correct on the first launch only: caught (timed-outputs-differ)"
ok "$([ "$(val "$C" gpu-test:late pass_exe)" = true ] && echo 0 || echo 1)" \
    "a correct candidate with a late block passes"
late=$(line "$C" gpu-test:late | grep -o '"candidate":{"n":[0-9]*,"median_ms":[0-9.e+-]*' |
    sed 's/.*median_ms"://')
echo "# late: candidate median $late ms"
ok "$(awk -v m="${late:-0}" 'BEGIN { exit !(m >= 1.0) }' && echo 0 || echo 1)" \
    "the clock stops after the whole grid: the late block's 2 ms are timed"

# --- a faulting candidate between two good ones (KernelBench #92): the
# fault ends its record's serving harness only (--no-host: one of the
# record's own); the records before and after it, and the reference's own
# timing after it, keep their verdicts
{ line "$g/cands.ndjson" gpu-test:good; line "$g/cands.ndjson" gpu-test:fault
  line "$g/cands.ndjson" gpu-test:late; } > "$out/between.in"
./kverify --time 20 --no-host < "$out/between.in" > "$out/between.ndjson" 2> "$out/between.err"
echo "# between: exit $?"
B=$out/between.ndjson
for c in good fault late; do
	echo "# $c: pass_exe=$(val "$B" "gpu-test:$c" pass_exe)" \
	    "$(line "$B" "gpu-test:$c" | grep -o '"fault":{"kind":"[a-z]*","role":"[a-z]*"\|"serve":{[^}]*}' | tr '\n' ' ')"
done
ok "$([ "$(val "$B" gpu-test:good pass_exe)" = true ] &&
    [ "$(val "$B" gpu-test:late pass_exe)" = true ] && echo 0 || echo 1)" \
    "the good candidates before and after a faulting one pass"
has "$B" gpu-test:fault '"fault":{"kind":"runtime","role":"candidate"'
ok $? "the illegal address is the faulting candidate's (runtime)"
has "$B" gpu-test:fault '"verified":{"value":true'
ok $? "its reference stays a verified task"
has "$B" gpu-test:fault '"serve":{"used":true,"hosted":false,"processes":[2-9]'
ok $? "a fresh serving harness after the fault"
has "$B" gpu-test:fault '"timing":{[^}]*"reference":{"n":[1-9]'
ok $? "the reference is timed after the fault"
has "$B" gpu-test:good '"serve":{"used":true,"hosted":false,"processes":1,'
ok $? "a record without a fault runs in one serving harness"
# the same in the worker's host (the default), which loads each record's
# harness.so and outlives the record
./kverify --time 20 < "$out/between.in" > "$out/between-host.ndjson" 2>> "$out/between.err"
N=$out/between-host.ndjson
ok "$([ "$(val "$N" gpu-test:good pass_exe)" = true ] &&
    [ "$(val "$N" gpu-test:late pass_exe)" = true ] &&
    [ "$(val "$N" gpu-test:fault pass_exe)" = false ] && echo 0 || echo 1)" \
    "--host: the same three verdicts"
has "$N" gpu-test:fault '"fault":{"kind":"runtime","role":"candidate"'
ok $? "--host: the illegal address is the faulting candidate's"
has "$N" gpu-test:good '"serve":{"used":true,"hosted":true,"processes":1,'
ok $? "--host: the first record starts the worker's host"
has "$N" gpu-test:fault '"serve":{"used":true,"hosted":true,"processes":[1-9]'
ok $? "--host: a fresh host after the fault"
has "$N" gpu-test:late '"serve":{"used":true,"hosted":true,"processes":0,'
ok $? "--host: the record after the fault runs in the host started again"
has "$C" gpu-test:good '"speedup_noise":[0-9]'
ok $? "the speedup comes with its noise"

# --- goldens taken again: the candidates' records, judged once more,
# run the candidates and the timing only, and judge them the same
{ line "$C" gpu-test:good; line "$C" gpu-test:wrong; } > "$out/reuse.in"
./kverify --time 20 --timeout 60 < "$out/reuse.in" > "$out/reuse.ndjson" 2> "$out/reuse.err"
ok $? "goldens taken again: exit 0"
R=$out/reuse.ndjson
ok "$([ "$(grep -c '"golden_reused":true' "$R")" -eq 2 ] && echo 0 || echo 1)" \
    "goldens taken again: both records reuse theirs"
ok "$(grep -c '"role":"reference","case":null,"mode":"check"' "$R" | grep -qx 0 && echo 0 || echo 1)" \
    "goldens taken again: the reference's checking runs do not run again"
ok "$([ "$(val "$R" gpu-test:good pass_exe)" = true ] &&
    [ "$(val "$R" gpu-test:wrong pass_exe)" = false ] && echo 0 || echo 1)" \
    "goldens taken again: the correct candidate passes, the wrong one fails"
has "$R" gpu-test:good '"timing":{[^}]*"reference":{"n":[1-9]'
ok $? "goldens taken again: the reference is timed beside the candidate"

# --- the CPU reference compiled into the harness checks the golden
if [ -f "$g/oracle.ndjson" ]; then
	./kverify --no-time < "$g/oracle.ndjson" > "$out/oracle.ndjson" 2> "$out/oracle.err"
	ok $? "oracle: exit 0 (a disagreement does not fail the record)"
	sed 's/^/# /' "$out/oracle.err" | head -n 5
	O=$out/oracle.ndjson
	has "$O" gpu-test:oracle-good '"oracle":{"status":"agree"'
	ok $? "oracle: the relu kernel agrees with a right CPU reference on every case"
	has "$O" gpu-test:oracle-bad '"oracle":{"status":"disagree"'
	ok $? "oracle: a CPU reference that forgets the clamp disagrees"
	line "$O" gpu-test:oracle-bad | grep -o '"oracle":{[^]]*' | cut -c1-300 | sed 's/^/# /'
fi

# --- kverify --fit: a spec whose counts are wrong (test/gpu/fitsize.cu:
# in holds 2n, out n; the spec says n and n + 7) is sized by the GPU and
# then verifies with the fitted counts, without a rebuild
if [ -f "$g/fit.ndjson" ]; then
	F=$out/fit.ndjson
	./kverify --no-time < "$g/fit.ndjson" > "$out/nofit.ndjson" 2> "$out/nofit.err"
	ID=test/gpu/fitsize.cu::pairsum_kernel
	echo "# without --fit: verified=$(line "$out/nofit.ndjson" "$ID" | grep -o '"verified":{[^}]*}')"
	has "$out/nofit.ndjson" "$ID" '"verified":{"value":false'
	ok $? "fit: the wrong spec is no verified task without --fit"
	has "$out/nofit.ndjson" "$ID" '"memcheck":{"errors":[1-9]'
	ok $? "fit: its reference fails memcheck on its own case"
	t0=$(date +%s)
	./kverify --no-time --fit < "$g/fit.ndjson" > "$F" 2> "$out/fit.err"
	rc=$?
	echo "# --fit: exit $rc in $(($(date +%s) - t0)) s"
	sed 's/^/# /' "$out/fit.err" | head -n 5
	line "$F" "$ID" | grep -o '"fit":{"status":"[a-z]*"\|"counts":{[^}]*}\|"why":"[^"]*"\|"memcheck_runs":[0-9]*' | sed 's/^/# /'
	ok "$rc" "fit: kverify --fit exits 0"
	ok "$([ "$(val "$F" "$ID" status)" = fitted ] && echo 0 || echo 1)" \
	    "fit: status fitted"
	has "$F" "$ID" '"counts":{"in":"2 \* n","out":"n"}'
	ok $? "fit: in is 2 * n (memcheck), out is n (written), fitted over the cases"
	has "$F" "$ID" '"args":\["--count","in=2 \* n","--count","out=n"\]'
	ok $? "fit: the harness arguments"
	has "$F" "$ID" '"verified":{"value":true'
	ok $? "fit: then the record is a verified task with the fitted counts"
	has "$F" "$ID" '"memcheck":{"errors":0'
	ok $? "fit: the verdict's memcheck run is clean"
	has "$F" "$ID" '"buffers":\[{"name":"in","spec":"n","formula":"2 \* n","how":"exact"'
	ok $? "fit: the evidence: in's formula is exact over the samples"
	./kverify --no-time < "$F" > "$out/refit.ndjson" 2> /dev/null
	has "$out/refit.ndjson" "$ID" '"verified":{"value":true'
	ok $? "fit: the saved fitted record verifies again without --fit"
fi

# --- hostile records (prepare.sh): output without end, more device memory
# than there is; each fails alone, within --timeout, with bounded logs
rm -rf "$KFORGE_WORK/verify"
t0=$(date +%s)
./kverify --no-time --keep --timeout 10 < "$g/hostile.ndjson" \
    > "$out/hostile.ndjson" 2> "$out/hostile.err"
rc=$?
t1=$(date +%s)
echo "# hostile: exit $rc in $((t1 - t0)) s"
sed 's/^/# /' "$out/hostile.err" | head -n 20
H=$out/hostile.ndjson
kind=$(line "$H" gpu-test:printf | grep -o '"fault":{"kind":"[a-z]*"' | cut -d'"' -f6)
echo "# printf: pass_exe=$(val "$H" gpu-test:printf pass_exe) fault=$kind"
ok "$([ "$(val "$H" gpu-test:printf pass_exe)" = false ] &&
    { [ "$kind" = timeout ] || [ "$kind" = output ]; } && echo 0 || echo 1)" \
    "a candidate that printf's for ever fails (timeout or output)"
big=$(find "$KFORGE_WORK/verify" -name '*.log' -size +2100k 2> /dev/null | head -n 1)
ok "$([ -z "$big" ] && echo 0 || echo 1)" "no harness log over 2 MiB ${big:+($big)}"
ok "$([ $((t1 - t0)) -lt 120 ] && echo 0 || echo 1)" \
    "the hostile records take their timeouts, not longer ($((t1 - t0)) s)"
kind=$(line "$H" gpu-test:oom | grep -o '"fault":{"kind":"[a-z]*"' | cut -d'"' -f6)
echo "# oom: $(line "$H" gpu-test:oom | grep -o '"errors":\[{[^]]*\]')"
has "$H" gpu-test:oom '"code":"reference-fault"'
ok $? "a spec asking for more device memory than there is: reference-fault"
ok "$([ "$kind" = alloc ] && echo 0 || echo 1)" \
    "and the fault is alloc, the harness's exit 3 (got ${kind:-none})"
ok "$([ "$(val "$H" gpu-test:after pass_exe)" = true ] && echo 0 || echo 1)" \
    "the good candidate after them passes"
rm -rf "$KFORGE_WORK/verify"
