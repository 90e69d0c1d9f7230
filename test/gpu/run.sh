#!/bin/sh
# GPU tests for kverify (make test-gpu), on a machine with an NVIDIA GPU,
# the CUDA driver and, for --sanitize, compute-sanitizer.  Needs only
# ./kverify, the repository and the work directory that test/gpu/prepare.sh
# filled (builds, candidate records, kverify's libraries): no jq, no
# python, no compiler.  Prints TAP; exits with the number of failures.
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
cd "$root" || exit 2
KFORGE_WORK=${KFORGE_WORK:-$root/.kforge}
export KFORGE_WORK
g=$KFORGE_WORK/gpu-test
if [ ! -f "$g/built.ndjson" ] || [ ! -f "$g/cands.ndjson" ] || [ ! -x ./kverify ]; then
	echo "test/gpu/run.sh: run make and sh test/gpu/prepare.sh first" >&2
	exit 2
fi
LD_LIBRARY_PATH=$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
out=$g/out
# kverify workers for the calls whose records are independent (-j: the
# GPU is shared, timing has it alone); KV_J=1 runs them one at a time
J=${KV_J:-4}
rm -rf "$out"
mkdir -p "$out"
n=0
failed=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
	fi
}

# line FILE ID: the output line of one record
line() {
	awk -v id="\"id\":\"$2\"" 'index($0, id) == 2' "$1"
}

# val FILE ID KEY: the scalar after the first "KEY": in that record
val() {
	line "$1" "$2" | awk -v k="\"$3\":" '{
		i = index($0, k)
		if (i == 0) { print "absent"; exit }
		s = substr($0, i + length(k))
		if (substr(s, 1, 1) == "\"") {
			s = substr(s, 2); print substr(s, 1, index(s, "\"") - 1)
		} else {
			match(s, /^[^,}\]]*/); print substr(s, 1, RLENGTH)
		}
	}'
}

has() {
	line "$1" "$2" | grep -q -- "$3"
}

echo "# device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"

# --- golden run of every example
t0=$(date +%s)
./kverify -j "$J" --time 10 < "$g/built.ndjson" > "$out/golden.ndjson" 2> "$out/golden.err"
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
./kverify -j "$J" --no-time --sanitize < "$out/san.in" > "$out/san.ndjson" 2> "$out/san.err"
ok $? "--sanitize: exit 0"
for tool in memcheck racecheck initcheck synccheck; do
	c=$(grep -o "\"$tool\":{\"errors\":[0-9][0-9]*" "$out/san.ndjson" | wc -l)
	ok "$([ "$c" -eq 2 ] && echo 0 || echo 1)" "--sanitize: $tool error count recorded"
done
grep -o '"sanitize":{[^}]*}[^}]*}[^}]*}[^}]*}' "$out/san.ndjson" | sed 's/^/# /'

# --- candidates, each against the same golden reference
./kverify -j "$J" --time 20 --timeout 60 < "$g/cands.ndjson" > "$out/cands.ndjson" 2> "$out/cands.err"
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

# --- HIP through kforge's mapping onto CUDA (test/gpu/hip.sh)
. "$root/test/gpu/hip.sh"

# --- rows of other benchmarks, imported (test/gpu/import.sh)
. "$root/test/gpu/import.sh"
# --- a nondeterministic reference judged in its band, and the mutation
# score (test/gpu/judge/, test/mutate/; prepare.sh built them)
if [ -f "$g/judge.ndjson" ]; then
	t0=$(date +%s)
	./kverify -j "$J" --no-time --mutant-timeout 5 < "$g/judge.ndjson" \
	    > "$out/judge.ndjson" 2> "$out/judge.err"
	echo "# judge: exit $? in $(($(date +%s) - t0)) s"
	sed 's/^/# /' "$out/judge.err" | head -n 10
	J=$out/judge.ndjson
	b=test/gpu/judge/binsum.cu::bin_sum
	echo "# bin_sum: deterministic=$(val "$J" "$b" deterministic)" \
	    "$(line "$J" "$b" | grep -o '"tolerance":{[^]]*]' | head -c 400)"
	ok "$([ "$(val "$J" "$b" deterministic)" = false ] && echo 0 || echo 1)" \
	    "float atomicAdd over 16M elements: the reference's outputs differ between runs"
	has "$J" "$b" '"banded":true'
	ok $? "and the spread is measured: a tolerance band"
	has "$J" "$b" '"verified":{"value":true'
	ok $? "a nondeterministic reference within its band is a verified task"
	ok "$([ "$(val "$J" "$b" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "the reference submitted as its own candidate passes (reasons: $(line "$J" "$b" | grep -o '"reasons":\[[^]]*\]' | head -n 1))"
	for m in test/mutate/blocksum.cu::block_sum test/mutate/modes.cu::axpy_mode \
	    test/mutate/guard.cu::clamp_low; do
		echo "# $m: verified=$(line "$J" "$m" | grep -o '"verified":{"value":[a-z]*' | cut -d: -f3)" \
		    "tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
		    "equivalent=$(line "$J" "$m" | grep -o '"mutation":{[^}]*' | grep -o '"equivalent":[0-9]*' | cut -d: -f2)" \
		    "score=$(val "$J" "$m" score)" \
		    "survivors=$(line "$J" "$m" | grep -o '"survivors":\[[^]]*\]' | grep -o '"id":"m[0-9]*"' | cut -d'"' -f4 | tr '\n' ' ')"
		ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
		    "$m: the reference passes as its own candidate"
	done
	m=test/mutate/blocksum.cu::block_sum
	tried=$(val "$J" "$m" tried)
	killed=$(val "$J" "$m" killed)
	ok "$([ "${tried:-0}" -ge 15 ] 2> /dev/null && echo 0 || echo 1)" \
	    "block_sum: its mutants ran (tried $tried of 20)"
	ok "$([ "${killed:-0}" -ge $(( ${tried:-0} * 6 / 10 )) ] 2> /dev/null && [ "${killed:-0}" -gt 0 ] && echo 0 || echo 1)" \
	    "block_sum: the tests kill most of them ($killed of $tried)"
	line "$J" "$m" | grep -o '"mutants":\[{"id":"m1".*"status":"[a-z]*"[^]]*\]' |
	    grep -o '"id":"m[0-9]*","status":"[a-z]*"\(,"by":"[a-z]*"\)\?' |
	    tr '\n' ' ' | sed 's/^/# /'
	echo
	has "$J" "$m" '"killed_by":{"[a-z]'
	ok $? "block_sum: killed_by says how"
	# a bound one too far ("i < n" made "i <= n") writes y[n], past the
	# buffer, and every compared element stays right: memcheck kills it
	m=test/mutate/order.cu::order_guard
	echo "# $m: tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
	    "$(line "$J" "$m" | grep -o '"killed_by":{[^}]*}')"
	has "$J" "$m" '"killed_by":{[^}]*"memcheck":[1-9]'
	ok $? "order_guard: a mutant whose outputs are right dies under memcheck"
	m=test/mutate/modes.cu::axpy_mode
	has "$J" "$m" '"mutation":{"tried":[1-9]'
	ok $? "axpy_mode: scored (its switch case gives mode == 2 a run)"
	# kwrap's boundary cases: comparisons that only data or scalars
	# exactly on the compared value tell apart from their mutants
	m=test/mutate/boundary.cu::boundary_kernel
	for id in m4 m9 m14 m16 m17 m18; do
		has "$J" "$m" "\"id\":\"$id\",[^}]*\"status\":\"killed\""
		rc=$?
		bk=$(line "$J" "$m" | grep -o "\"id\":\"$id\",\"case\":[0-9]*" |
		    cut -d: -f3)
		ok $rc "boundary_kernel: $id killed (by case $bk; v >= thresh, x[i] < y[i], v > 0.0f beside mode == 1 &&, k < lim || flip != 0)"
	done
	has "$J" test/mutate/ties.cu::nearest '"id":"m9",[^}]*"status":"killed"'
	ok $? "nearest: d < best made d <= best dies where distances tie"
	# kwrap's size-guard case: m = 0 at "if (m <= 0) return;", where the
	# guard made "m < 0" (m1) stores into a buffer of 0 elements and
	# memcheck sees it; the reference, which returns, stays a verified
	# task with an output of 0 elements in that case
	m=test/mutate/sizeguard.cu::pick_rows
	echo "# $m: verified=$(line "$J" "$m" | grep -o '"verified":{"value":[a-z]*' | cut -d: -f3)" \
	    "tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
	    "$(line "$J" "$m" | grep -o '"killed_by":{[^}]*}')"
	has "$J" "$m" '"verified":{"value":true'
	ok $? "pick_rows: verified with its size_edge case (picks empty there)"
	ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "pick_rows: the reference passes as its own candidate"
	has "$J" "$m" '"id":"m1",[^}]*"status":"killed","by":"memcheck"'
	ok $? "pick_rows: m <= 0 made m < 0 dies under memcheck on the size_edge case"
	# sizes that differ in some case (test/mutate/decompose.cu): b =
	# index / L / C leaves 0 in non_multiple, so b's term made a
	# quotient (m6) reads another element there
	m=test/mutate/decompose.cu::batch_decompose
	echo "# $m: verified=$(line "$J" "$m" | grep -o '"verified":{"value":[a-z]*' | cut -d: -f3)" \
	    "tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
	    "survivors=$(line "$J" "$m" | grep -o '"survivors":\[[^]]*\]' | grep -o '"id":"m[0-9]*"' | cut -d'"' -f4 | tr '\n' ' ')"
	ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "batch_decompose: the reference passes as its own candidate"
	has "$J" "$m" '"id":"m6",[^}]*"status":"killed"'
	ok $? "batch_decompose: b * C made b / C dies (b reaches 2 in non_multiple)"
	# kwrap's proofs of equivalence under the spec (test/equiv/guards.cu):
	# the mutants it marked run and survive every case; a kill would
	# contradict a proof
	for k in gather_guard batch_guard row_stride loop_assert; do
		m=test/equiv/guards.cu::$k
		echo "# $m: tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
		    "spec_equivalent=$(val "$J" "$m" spec_equivalent)" \
		    "contradictions=$(val "$J" "$m" contradictions) score=$(val "$J" "$m" score)"
		has "$J" "$m" '"spec_equivalent":[1-9]'
		ok $? "$k: the mutants kwrap proved equivalent survive on the GPU"
		has "$J" "$m" '"contradictions":0[,}]'
		ok $? "$k: no kill contradicts a proof of equivalence"
	done
	# dead code and dead stores for a template instance
	# (test/equiv/dead.cu): the marked mutants survive, none is killed
	for k in 'tile_sum<32>' 'tile_sum<64>' 'dyn_sum<32>'; do
		m="test/equiv/dead.cu::$k"
		echo "# $m: tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
		    "spec_equivalent=$(val "$J" "$m" spec_equivalent)" \
		    "contradictions=$(val "$J" "$m" contradictions) score=$(val "$J" "$m" score)"
		ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
		    "$k: the reference passes as its own candidate"
		has "$J" "$m" '"contradictions":0[,}]'
		ok $? "$k: no kill contradicts a proof of dead code or a dead store"
	done
	has "$J" 'test/equiv/dead.cu::tile_sum<32>' '"spec_equivalent":[1-9]'
	ok $? "tile_sum<32>: its dead-code and dead-store mutants survive on the GPU"
	# a launch with 64 KiB of dynamic shared memory, over the 48 KiB a
	# kernel gets without opting in (test/gpu/judge/bigshared.cu): the
	# harness opts in as the project's host code does
	m=test/gpu/judge/bigshared.cu::tile_reverse
	echo "# $m: $(line "$J" "$m" | grep -o '"verified":{[^}]*}')"
	has "$J" "$m" '"verified":{"value":true'
	ok $? "tile_reverse: a launch with 64 KiB of dynamic shared memory runs and is verified"
	ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "tile_reverse: the reference passes as its own candidate"
	# shared memory read before it is written
	# (test/gpu/judge/staleshared.cu): the harness fills it with the
	# run's sentinel, the repeat's differs, so the golden differs from
	# its repeat in the host (this run) and in processes of its own
	m=test/gpu/judge/staleshared.cu::stale_shared_sum
	echo "# $m: deterministic=$(val "$J" "$m" deterministic) $(line "$J" "$m" | grep -o '"verified":{[^}]*}')"
	ok "$([ "$(val "$J" "$m" deterministic)" = false ] && echo 0 || echo 1)" \
	    "stale_shared_sum: shared memory read before written: nondeterministic in the host"
	has "$J" "$m" '"verified":{"value":false,"reason":"reads-unwritten"'
	ok $? "stale_shared_sum: not a verified task: its outputs follow the shared memory's fill (reads-unwritten)"
	has "$J" "$m" '"hosted":true'
	ok $? "stale_shared_sum: the judge run went to the worker's host (the default)"
	grep -F "\"id\":\"$m\"" "$g/judge.ndjson" |
	    ./kverify --no-host --no-time --no-mutants > "$out/stale-nohost.ndjson" 2>> "$out/judge.err"
	has "$out/stale-nohost.ndjson" "$m" '"verified":{"value":false,"reason":"reads-unwritten"'
	ok $? "stale_shared_sum: reads-unwritten with --no-host too"
	has "$out/stale-nohost.ndjson" "$m" '"hosted":false'
	ok $? "stale_shared_sum: --no-host ran it in a serving harness of its own"
	# results placed through an atomic counter
	# (test/gpu/judge/partition.cu): the golden's runs hold the same
	# elements in other orders; the output is unordered, compared as a
	# multiset, and the reference passes as itself
	m=test/gpu/judge/partition.cu::split_sign
	echo "# $m: deterministic=$(val "$J" "$m" deterministic) $(line "$J" "$m" | grep -o '"verified":{[^}]*}')"
	ok "$([ "$(val "$J" "$m" deterministic)" = false ] && echo 0 || echo 1)" \
	    "split_sign: a partition through atomic counters differs between runs"
	has "$J" "$m" '"name":"out"[^}]*"unordered":true'
	ok $? "split_sign: its output is unordered, not incomparable"
	has "$J" "$m" '"verified":{"value":true'
	ok $? "split_sign: a verified task"
	ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "split_sign: the reference passes as its own candidate"
	# a race on one element (test/gpu/judge/tailwinner.cu): where the
	# runs differ there, the output is split (the race is small beside
	# the large_magnitude case's values: banded) or masked, the other
	# elements judged in their own band, and the task is still verified;
	# the reference passes as itself
	m=test/gpu/judge/tailwinner.cu::tail_winner
	echo "# $m: deterministic=$(val "$J" "$m" deterministic) $(line "$J" "$m" | grep -o '"\(masked\|split\)":true,"unstable":[0-9]*' | head -n 1)"
	has "$J" "$m" '"verified":{"value":true'
	ok $? "tail_winner: a race on one element is a verified task"
	ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
	    "tail_winner: the reference passes as its own candidate"
	ok "$([ "$(val "$J" "$m" deterministic)" = true ] ||
	    has "$J" "$m" '"\(masked\|split\)":true' && echo 0 || echo 1)" \
	    "tail_winner: where its runs differ, out is split or masked"
	# vector stores guarded at their start (test/sizes/vector.cu): the
	# count rounded up to the width leaves no element unwritten
	# (and rows of float4 read through a const pointer or copied
	# asynchronously: the row stride a multiple of 4; halves and pairs
	# of them named through a traits class's aliases)
	for k in vec_index_kernel vec_offset_kernel vec_stride_kernel \
	    "vec_bytes_kernel<__half>" vec_tile_kernel vec_async_kernel \
	    "vec_alias_kernel<half_io>"; do
		m="test/sizes/vector.cu::$k"
		has "$J" "$m" '"verified":{"value":true'
		ok $? "$k: a verified task, every element of its count written"
	done
	# verified FILE WHAT KERNEL...: each kernel of FILE a verified task
	# (WHAT says how) that passes as its own candidate
	verified() {
		vf=$1
		vw=$2
		shift 2
		for k in "$@"; do
			m="$vf::$k"
			echo "# $m: $(line "$J" "$m" | grep -o '"verified":{[^}]*}')"
			has "$J" "$m" '"verified":{"value":true'
			ok $? "$k: a verified task, $vw"
			ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
			    "$k: the reference passes as its own candidate"
		done
	}
	# launches under the launcher's conditions (test/sizes/dispatch.cu):
	# cols a multiple of 32, the tap bounded through chans / 32, groups
	# and eps at the values the launcher runs with, a row no wider than
	# its shared buffer, a length that divides the tile, whole tiles of
	# a grid divided down (and its near miss, a grid with a tail block),
	# a block of the warp size by the larger of two row counts
	verified test/sizes/dispatch.cu "under its launch's conditions" \
	    tile_rows tap_gather one_group row_cached tile_pairs col_tiles \
	    tail_block head_rows
	# offsets that bound segments or that a helper bisects
	# (test/fills/offsets.cu): filled so that they never decrease, the
	# rows they bound stay inside their buffers and every run agrees
	verified test/fills/offsets.cu "its offsets never decreasing" \
	    csr_rows_kernel packed_tokens_kernel segment_of_kernel
	# strides passed as integers (test/sizes/strides.cu): laid out so
	# that no two elements meet, the output a view whose gaps stay
	verified test/sizes/strides.cu "its strides laid out" \
	    rotate_rows strided_pick rotate_halves
	# pointers set in branches, namesakes in sibling scopes, constructors
	# picked by their class's specialization, grids split by a product,
	# locals set once from the instance (test/sizes/branches.cu): every
	# buffer sized from its accesses
	verified test/sizes/branches.cu "its buffers sized from their accesses" \
	    'checked_rows<false>' 'checked_rows<true>' either_rows two_loops \
	    'picked_load<1>' flat_split 'typed_split<float>' tiled_grid
	# shared memory that grows with a size (test/sizes/sharedfit.cu)
	verified test/sizes/sharedfit.cu "its cases within a block's shared memory" \
	    reverse_row
	# maps that pick where plain stores land (test/fills/scatter.cu):
	# distinct, so no two threads store to one element; the near misses
	# (a gather, an atomic scatter) keep their integers
	verified test/fills/scatter.cu "every run agreeing" \
	    scatter_rows_kernel scatter_local_kernel gather_rows_kernel \
	    scatter_atomic_kernel
	# texture objects (test/textures/textures.cu): the harness makes
	# each from the kernel's fetches (2d, normalized, linear, 3d, a
	# helper's, layered) and passes its handle
	verified test/textures/textures.cu "over a texture the harness made" \
	    row_sum rotate lookup sample_volume edges layer_mean
	# row pitches (test/sizes/pitch.cu): at least the row's width in
	# every case, so no two rows meet
	verified test/sizes/pitch.cu "its rows apart" \
	    pitched_scale pitched_read row_major
	# dropped barriers that order nothing (test/equiv/barrier.cu): the
	# marked ones survive, no kill contradicts them; the reference
	# passes as its own candidate
	for k in 'pick_far<64>' tail_sync; do
		m="test/equiv/barrier.cu::$k"
		echo "# $m: tried=$(val "$J" "$m" tried) killed=$(val "$J" "$m" killed)" \
		    "spec_equivalent=$(val "$J" "$m" spec_equivalent)" \
		    "contradictions=$(val "$J" "$m" contradictions) score=$(val "$J" "$m" score)"
		ok "$([ "$(val "$J" "$m" pass_exe)" = true ] && echo 0 || echo 1)" \
		    "$k: the reference passes as its own candidate"
		has "$J" "$m" '"spec_equivalent":[1-9]'
		ok $? "$k: its dropped barrier that orders nothing survives on the GPU"
		has "$J" "$m" '"contradictions":0[,}]'
		ok $? "$k: no kill contradicts a proof that a barrier orders nothing"
	done
fi

# --- kreport --export-dir: tasks as folders run by plain nvcc builds
# --- non-finite cases (test/nonfinite/nonfinite.cu and the candidates of
# test/gpu/nonfinite/; prepare.sh built them): each kernel that tests its
# data for NaN or Inf is a verified task that passes as its own candidate;
# a count_nonfinite_kernel that is wrong only on non-finite data fails
if [ -f "$g/nonfinite.ndjson" ]; then
	./kverify --no-time < "$g/nonfinite.ndjson" > "$out/nonfinite.ndjson" \
	    2> "$out/nonfinite.err"
	echo "# nonfinite: exit $?"
	sed 's/^/# /' "$out/nonfinite.err" | head -n 10
	N=$out/nonfinite.ndjson
	for k in count_bad_kernel nan_to_zero_kernel helper_guard_kernel \
	    self_compare_kernel half_nan_kernel nan_to_num_kernel; do
		m=test/nonfinite/nonfinite.cu::$k
		echo "# $k: $(line "$N" "$m" | grep -o '"verified":{[^}]*}') pass_exe=$(val "$N" "$m" pass_exe)"
		has "$N" "$m" '"verified":{"value":true' &&
		    [ "$(val "$N" "$m" pass_exe)" = true ]
		ok $? "nonfinite: $k is a verified task and passes as its own candidate"
	done
	for c in good nan-only double; do
		echo "# nonfinite-$c: pass_exe=$(val "$N" "gpu-test:nonfinite-$c" pass_exe)" \
		    "$(line "$N" "gpu-test:nonfinite-$c" | grep -o '"reasons":\[[^]]*\]' | head -n 1)"
	done
	ok "$([ "$(val "$N" gpu-test:nonfinite-good pass_exe)" = true ] && echo 0 || echo 1)" \
	    "nonfinite: a right count_nonfinite_kernel written otherwise passes"
	ok "$([ "$(val "$N" gpu-test:nonfinite-nan-only pass_exe)" = false ] &&
	    [ "$(val "$N" gpu-test:nonfinite-double pass_exe)" = false ] && echo 0 || echo 1)" \
	    "nonfinite: counting NaN only, or 2 per element, fails (finite data alone would pass them)"
fi

# --- index maps and vector strides (test/fills/indexmap.cu; prepare.sh
# built them): with a map filled with indices into the buffer it indexes,
# and strides that keep float4 loads aligned, each reference is clean
# under memcheck on case 0, runs every case and passes as its own
# candidate
if [ -f "$g/indexmap.ndjson" ]; then
	./kverify --no-time < "$g/indexmap.ndjson" > "$out/indexmap.ndjson" \
	    2> "$out/indexmap.err"
	echo "# indexmap: exit $?"
	sed 's/^/# /' "$out/indexmap.err" | head -n 10
	for k in map_gather_kernel vec_rows_kernel; do
		m=test/fills/indexmap.cu::$k
		echo "# $k: $(line "$out/indexmap.ndjson" "$m" | grep -o '"verified":{[^}]*}') pass_exe=$(val "$out/indexmap.ndjson" "$m" pass_exe)"
		has "$out/indexmap.ndjson" "$m" '"verified":{"value":true' &&
		    ! has "$out/indexmap.ndjson" "$m" '"reference-fault"' &&
		    [ "$(val "$out/indexmap.ndjson" "$m" pass_exe)" = true ]
		ok $? "indexmap: $k is a verified task, no case faults, and it passes as its own candidate"
	done
fi

# --- structs passed by value that hold pointers (test/byvalue/byvalue.cu;
# prepare.sh built them): a struct laid out wrongly hands the kernel
# garbage addresses, which memcheck or the unwritten outputs catch
if [ -f "$g/byvalue.ndjson" ]; then
	./kverify --no-time < "$g/byvalue.ndjson" > "$out/byvalue.ndjson" \
	    2> "$out/byvalue.err"
	echo "# byvalue: exit $?"
	sed 's/^/# /' "$out/byvalue.err" | head -n 10
	for k in pointer_member_kernel void_member_kernel \
	    'template_cast_kernel<double>'; do
		has "$out/byvalue.ndjson" "test/byvalue/byvalue.cu::$k" \
		    '"verified":{"value":true'
		ok $? "byvalue: $k, its struct's pointer members buffers, is a verified task"
	done
	has "$out/byvalue.ndjson" 'test/byvalue/traits.cu::traits_cast_kernel<io_traits_f64>' \
	    '"verified":{"value":true'
	ok $? "byvalue: traits_cast_kernel, void * members cast to a traits class's element type, is a verified task"
	has "$out/byvalue.ndjson" 'test/byvalue/shared.cu::shared_sum_kernel' \
	    '"verified":{"value":true'
	ok $? "byvalue: shared_sum_kernel, a void * member it never names passed as null, is a verified task"
fi
# --- tensor accessors passed by value (test/accessor/accessor.cu;
# prepare.sh built them): the harness hands the kernel a data pointer,
# sizes and strides laid out as the accessor; a wrong layout reads garbage
# addresses (memcheck) or leaves outputs unwritten
if [ -f "$g/accessor.ndjson" ]; then
	./kverify --no-time < "$g/accessor.ndjson" > "$out/accessor.ndjson" \
	    2> "$out/accessor.err"
	echo "# accessor: exit $?"
	sed 's/^/# /' "$out/accessor.err" | head -n 10
	for k in scale_rows_kernel 'norms_kernel<float>' gather_kernel \
	    affine_kernel modes_kernel pair_sum_kernel tile_kernel \
	    mixed_kernel row_sum_kernel gather_sum_kernel count_scale_kernel; do
		has "$out/accessor.ndjson" "test/accessor/accessor.cu::$k" \
		    '"verified":{"value":true'
		ok $? "accessor: $k is a verified task"
	done
fi
# the layout kwrap gives an accessor against PyTorch's own headers, where
# this machine has PyTorch and nvcc (prepare.sh wrote the checks)
if [ -d "$g/accessor-layout" ]; then
	inc=$(python3 -c 'from torch.utils.cpp_extension import include_paths
print(" ".join("-I" + p for p in include_paths()))' 2> /dev/null)
	if [ -n "$inc" ] && command -v nvcc > /dev/null; then
		for f in "$g"/accessor-layout/*.cu; do
			b=$out/layout-$(basename "$f" .cu)
			# shellcheck disable=SC2086 # the include flags split
			nvcc -std=c++17 $inc -o "$b" "$f" 2> "$b.err" &&
			    "$b" > "$b.out" 2>&1
			ok $? "accessor layout agrees with PyTorch's: $(basename "$f" .cu)"
		done
	else
		echo "# accessor layout against PyTorch's headers: skipped (no torch or nvcc)"
	fi
fi
. "$root/test/gpu/export.sh"

echo "1..$n"
echo "# test-gpu: $n tests, $failed failed; outputs in $out"
exit "$failed"
