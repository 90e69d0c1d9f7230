#!/bin/sh
# kverify's serving harness (harness --serve) and its timing verdict,
# without a GPU: the fake harness of test/kverify.t speaks the protocol and
# logs its process id per command ($FAKE_PIDS).
. "$(dirname "$0")/lib.sh"

have_tool kverify || skip_all "kverify not built"
command -v jq > /dev/null || skip_all "jq not installed (make deps)"
KV=$(tool kverify)
W=$T_TMP/work
export KFORGE_WORK=$W
# the fake harness logs outside its run directory: no sandbox here
# (test/hostile.t tests it)
KFORGE_BWRAP=none
export KFORGE_BWRAP
CC=${CC:-cc}
$CC -std=c11 -D_GNU_SOURCE -O1 -o "$T_TMP/fake" test/kverify/fake_harness.c \
    -lm || skip_all "cannot compile the fake harness"

# the fake harness as harness.so, and the four driver calls the host makes
# before it loads one, as libcuda.so.1 (no GPU here)
mkdir -p "$T_TMP/cuda"
$CC -std=c11 -D_GNU_SOURCE -O1 -shared -fPIC -o "$T_TMP/fake.so" \
    test/kverify/fake_harness.c -lm || skip_all "cannot build a shared object"
$CC -std=c11 -O1 -shared -fPIC -o "$T_TMP/cuda/libcuda.so.1" \
    test/kverify/fake_cuda.c || skip_all "cannot build a shared object"

# entry ROLE WORD: a build entry holding WORD (module) or the fake harness
# (role "hosted": with harness.so beside it)
entry() {
	key=$(printf '%s:%s' "$1" "$2" | sha256sum | cut -c1-64)
	d=$W/build/$(echo "$key" | cut -c1-2)/$key
	mkdir -p "$d"
	if [ "$1" = harness ] || [ "$1" = hosted ]; then
		cp "$T_TMP/fake" "$d/harness"
		[ "$1" = harness ] || cp "$T_TMP/fake.so" "$d/harness.so"
	else
		printf '%s\n' "$2" > "$d/module.cubin"
	fi
	echo "$key"
}
HKEY=$(entry harness fake)
SKEY=$(entry hosted fake)

# rec ID REFWORD [CANDWORD]: one built record
rec() {
	r=$(entry reference "$2")
	c=
	[ -n "${3:-}" ] && c=$(entry candidate "$3")
	jq -cn --arg id "$1" --arg h "$HKEY" --arg r "$r" --arg c "$c" '
	def unit($key; $file; $sym): {ok: true, compiler: "nvcc",
	    version: "fake", command: "nvcc", seconds: 0, cached: false,
	    artifact: $key, file: $file, symbol: $sym, runnable: true,
	    diagnostics: [], log: "", log_truncated: false, pass_call: true};
	{id: $id, build: ({arch: "sm_90",
	    reference: unit($r; "module.cubin"; "_Z4fakev"),
	    harness: unit($h; "harness"; null)} +
	    (if $c == "" then {} else
	    {candidate: unit($c; "module.cubin"; "_Z4fakev")} end))}'
}
# the verify section of record ID in $T_TMP/out
sec() {
	jq -c --arg id "$1" 'select(.id == $id) | .verify' "$T_TMP/out"
}
# processes that ran the record's commands, from $FAKE_PIDS
procs() {
	cut -d' ' -f1 "$1" | sort -u | wc -l | tr -d ' '
}

# --- one process for every run of a record (a noise floor the fake's 1%
# jitter never gets under: all four timing rounds run)
rec good ref good > "$T_TMP/in"
FAKE_PIDS=$T_TMP/pids1 run "$KV" --no-memcheck --time 5 --noise-floor 0.005 < "$T_TMP/in"
is "$T_STATUS" 0 "serving harness: exit 0"
is "$(sec good | jq -c '.serve | del(.start_seconds)')" \
    '{"used":true,"hosted":false,"processes":1,"commands":10}' \
    "golden, candidate and 8 timing runs: 10 commands, 1 process"
is "$(procs "$T_TMP/pids1"):$(wc -l < "$T_TMP/pids1" | tr -d ' ')" "1:10" \
    "the harness saw the 10 commands in one process"
is "$(jq -r 'select(.id == "good") | .verify.runs[] | select(.mode == "repeat") | .role' "$T_TMP/out")" \
    reference "the golden's repeat ran, in a process of its own (not among the served commands)"
is "$(grep -c ' times-only$' "$T_TMP/pids1")" 8 \
    "the 8 timing runs ask for times only (no buffer files)"
is "$(sec good | jq -r '[.pass_exe, .pass_perf, .verified.value] | @tsv')" \
    "$(printf 'true\ttrue\ttrue')" "verdict as before"
strip='del(.verify.runs, .verify.seconds, .verify.overhead_seconds,
    .verify.kernel_seconds, .verify.serve, .verify.stages)'
jq -c "$strip" "$T_TMP/out" > "$T_TMP/served"
run test/validate "$T_TMP/out"
ok "$T_STATUS" "serve section validates against schemas/"

# --- -j with timing on: a batch of cases goes case by case, each a command
# of the serving harness, so that a timing waits for one case, not a
# whole batch; one --all command without timing
rec good ref good > "$T_TMP/in1"
# (FAKE_BUSY: each case takes 0.2 s, so that a check's sum is not a few
# milliseconds that round to 0)
mkdir -p "$T_TMP/busy4"
FAKE_BUSY=$T_TMP/busy4 FAKE_PIDS=$T_TMP/pids4 run "$KV" --no-memcheck --time 5 --noise-floor 0.005 -j 2 < "$T_TMP/in1"
is "$(grep -c ' all$' "$T_TMP/pids4"):$(grep -vc ' times-only' "$T_TMP/pids4"):$(sec good | jq -r '[.pass_exe, .verified.value, .cases] | @tsv')" \
    "$(printf '0:6:true\ttrue\t3')" \
    "-j 2, timing on: the reference's and the candidate's checks run case by case (6 commands), same verdict"
is "$(sec good | jq -r '[.runs[] | select(.mode == "check") | .seconds >= 0.6] | all')" true \
    "case by case: a check's seconds are its cases' sum (three cases of 0.2 s each)"
FAKE_PIDS=$T_TMP/pids5 run "$KV" --no-memcheck --no-time -j 2 < "$T_TMP/in1"
is "$(grep -c ' all$' "$T_TMP/pids5")" 2 "-j 2 without timing (no drain to wait for): one --all command a check"

# --- the same verdicts one process per run (--no-serve, and a harness
# from before --serve)
FAKE_PIDS=$T_TMP/pids2 run "$KV" --no-memcheck --time 5 --noise-floor 0.005 --no-serve \
    < "$T_TMP/in"
is "$(jq -c "$strip" "$T_TMP/out")" "$(cat "$T_TMP/served")" \
    "--no-serve: the same verify section"
is "$(sec good | jq -c '.serve'):$([ -s "$T_TMP/pids2" ] && echo served)" \
    "null:" "--no-serve: no serving process"
FAKE_NOSERVE=1 run "$KV" --no-memcheck --time 5 --noise-floor 0.005 < "$T_TMP/in"
is "$(jq -c "$strip" "$T_TMP/out")" "$(cat "$T_TMP/served")" \
    "a harness that refuses --serve: the same verify section"
is "$(sec good | jq -c '.serve | del(.start_seconds)')" '{"used":false,"hosted":false,"processes":1,"commands":0}' \
    "a harness that refuses --serve: one process per run, said"

# --- a faulting candidate between two good ones (KernelBench #92)
{ rec a ref good; rec b ref crash; rec c ref good; } > "$T_TMP/in"
FAKE_PIDS=$T_TMP/pids3 run "$KV" --no-memcheck --time 5 --noise-floor 0.005 < "$T_TMP/in"
is "$T_STATUS" 0 "a faulting candidate is a verdict, not an error"
is "$(for i in a b c; do sec $i | jq -r '[.pass_exe, .verified.value] | @tsv'; done | tr '\t\n' ', ')" \
    "true,true false,true true,true " \
    "the good candidates around it keep their verdicts"
is "$(sec b | jq -r '.fault | [.kind, .role, .case] | @tsv')" \
    "$(printf 'crash\tcandidate\t1')" "the fault is the candidate's, on its case"
is "$(sec b | jq -c '.serve | [.used, .processes]')" '[true,2]' \
    "a fresh process after the fault"
is "$(sec b | jq -r '[.timing.reference.n, .timing.candidate.n // "none"] | @tsv')" \
    "$(printf '20\tnone')" "the reference is still timed after the fault"
is "$(procs "$T_TMP/pids3")" 4 "one process per record, one more after the fault"

# --- a candidate out of time: killed, the next run in a fresh process
{ rec h ref hang; } > "$T_TMP/in"
run "$KV" --no-memcheck --time 5 --noise-floor 0.005 --timeout 1 < "$T_TMP/in"
is "$(sec h | jq -r '[.fault.kind, .fault.role, .pass_exe, .timing.reference.n, .serve.processes] | @tsv')" \
    "$(printf 'timeout\tcandidate\tfalse\t20\t2')" \
    "a hang: timeout for the candidate, the reference timed in a fresh process"

# --- a slow start (many harnesses starting at once on a busy host) is not
# the first run's time: --timeout counts from "ready", the start has a
# limit of its own and is said in serve.start_seconds
rec slow ref good > "$T_TMP/in"
FAKE_READY_DELAY=1.5 run "$KV" --no-memcheck --no-time --timeout 1 < "$T_TMP/in"
is "$(sec slow | jq -r '[.pass_exe, .verified.value, .fault.kind // "none", .serve.start_seconds >= 1.5, ([.runs[] | select(.role == "reference" and .mode == "check") | .seconds < 1] | all)] | @tsv')" \
    "$(printf 'true\ttrue\tnone\ttrue\ttrue')" \
    "a start of 1.5 s under --timeout 1: the runs pass, the start said apart"

# --- no device: the serving process cannot start, every record says so
rec nd nodev > "$T_TMP/in"
run "$KV" --no-memcheck < "$T_TMP/in"
is "$T_STATUS:$(jq -r '.errors[0].code' "$T_TMP/out")" "1:no-device" \
    "a harness that cannot start the driver: no-device"

# --- the host (--host): records whose harness was built as harness.so too
# run in one process per worker, which outlives the record
HKEY=$SKEY
{ rec ha ref good; rec hb ref good; rec hc ref good; } > "$T_TMP/in"
FAKE_PIDS=$T_TMP/pids6 LD_LIBRARY_PATH=$T_TMP/cuda \
    run "$KV" --host --no-memcheck --time 5 --noise-floor 0.005 < "$T_TMP/in"
is "$T_STATUS" 0 "host: exit 0"
is "$(for i in ha hb hc; do sec $i | jq -c '.serve | [.used, .hosted, .processes, .commands]'; done | tr '\n' ' ')" \
    "[true,true,1,10] [true,true,0,10] [true,true,0,10] " \
    "three records, 30 commands, one host started by the first"
is "$(procs "$T_TMP/pids6"):$(wc -l < "$T_TMP/pids6" | tr -d ' ')" "1:30" \
    "one process saw the three records' commands"
other='del(.id, .build.harness.artifact, .verify.golden_key)'
is "$(jq -c "$strip" "$T_TMP/out" | sed -n 2p | jq -c "$other")" \
    "$(jq -c "$other" "$T_TMP/served")" \
    "the verify section a serving harness gives (the harness's key aside)"
ls "$W/verify" | grep -q '^host\.' && left=yes || left=no
is "$left" no "the host's log is gone with it"

# a faulting candidate between two good ones: the host is started again,
# only the record that faulted sees the fault
{ rec ha ref good; rec hb ref crash; rec hc ref good; } > "$T_TMP/in"
FAKE_PIDS=$T_TMP/pids7 LD_LIBRARY_PATH=$T_TMP/cuda \
    run "$KV" --host --no-memcheck --time 5 --noise-floor 0.005 < "$T_TMP/in"
is "$(for i in ha hb hc; do sec $i | jq -r '[.pass_exe, .verified.value, .serve.hosted, .serve.processes] | @tsv'; done | tr '\t\n' ', ')" \
    "true,true,true,1 false,true,true,1 true,true,true,0 " \
    "host: the good candidates around a fault keep their verdicts; a fresh host after it"
is "$(sec hb | jq -r '.fault | [.kind, .role, .case] | @tsv')" \
    "$(printf 'crash\tcandidate\t1')" "host: the fault is the candidate's, on its case"
is "$(procs "$T_TMP/pids7")" 2 "host: two processes for three records and a fault"

# -j 2: a host per worker
{ rec ha ref good; rec hb ref good; rec hc ref good; rec hd ref good; } > "$T_TMP/in"
FAKE_PIDS=$T_TMP/pids8 LD_LIBRARY_PATH=$T_TMP/cuda \
    run "$KV" --host --no-memcheck --no-time -j 2 < "$T_TMP/in"
is "$(jq -s '[.[] | .verify.serve.processes] | add' "$T_TMP/out"):$(jq -s '[.[] | select(.verify.pass_exe and .verify.serve.hosted)] | length' "$T_TMP/out")" \
    "$(procs "$T_TMP/pids8"):4" "-j 2: every record hosted, as many hosts as the records say were started"

# a host that cannot make a context: each record's own serving harness
FAKE_CUDA_FAIL=1 LD_LIBRARY_PATH=$T_TMP/cuda \
    run "$KV" --host --no-memcheck --no-time < "$T_TMP/in"
is "$(jq -r '[.verify.pass_exe, .verify.serve.used, .verify.serve.hosted] | @tsv' "$T_TMP/out" | sort -u)" \
    "$(printf 'true\ttrue\tfalse')" "no context in the host: serving harnesses, same verdicts"
LD_LIBRARY_PATH=$T_TMP/cuda run "$KV" --no-host --no-memcheck --no-time < "$T_TMP/in"
is "$(jq -r '[.verify.pass_exe, .verify.serve.used, .verify.serve.hosted, .verify.serve.processes] | @tsv' "$T_TMP/out" | sort -u)" \
    "$(printf 'true\ttrue\tfalse\t1')" "--no-host: a serving harness per record, harness.so or not"
run test/validate "$T_TMP/out"
ok "$T_STATUS" "hosted records validate against schemas/"
HKEY=$(entry harness fake)

# --- the timed case and the noise rule
{ rec ramp ramp ramp; rec rampmid rampmid rampmid; rec ramplow ramplow ramplow; } > "$T_TMP/in"
run "$KV" --no-memcheck --time 5 < "$T_TMP/in"
is "$(for r in ramp rampmid ramplow; do sec $r | jq -r '"\(.timing.case):\(.timing.reference.median_ms)"'; done | tr '\n' ' ')" \
    "0:2.02 1:1.212 2:0.909 " \
    "the timed case: the smallest the reference took 1 ms or more on, else its longest"
rec ramplowbig ramplowbig ramplowbig > "$T_TMP/in"
run "$KV" --no-memcheck --time 5 < "$T_TMP/in"
is "$(sec ramplowbig | jq -r '"\(.timing.case):\(.timing.reference.median_ms)"')" "1:0.606" \
    "none 1 ms: the longest of the cases of at most 16 MiB, not one that carries 17 MiB each run"
rec self ref ref > "$T_TMP/in"
run "$KV" --no-memcheck --time 5 < "$T_TMP/in"
is "$(sec self | jq -r '[.timing.speedup, .pass_perf] | @tsv')" \
    "$(printf '1\tfalse')" \
    "the reference against itself: speedup 1, pass_perf false at threshold 1"
is "$(sec self | jq -r '.timing | [.speedup_noise, .speedup_low, .speedup_high] | map(. * 1000 | round / 1000) | @tsv')" \
    "$(printf '0.03\t0.97\t1.03')" "its noise is the floor, 3%"
run "$KV" --no-memcheck --time 5 --threshold 0.9 < "$T_TMP/in"
is "$(sec self | jq -r '.pass_perf')" true \
    "threshold 0.9: 1.0 beats it by more than the noise"
rec near ref near > "$T_TMP/in"
run "$KV" --no-memcheck --time 5 < "$T_TMP/in"
is "$(sec near | jq -r '[.timing.speedup, .pass_perf] | @tsv')" \
    "$(printf '1.0204\tfalse')" "2% faster is within the 3% floor: pass_perf false"
run "$KV" --no-memcheck --time 5 --noise-floor 0.001 < "$T_TMP/in"
is "$(sec near | jq -r '.pass_perf')" true \
    "--noise-floor 0.001: 2% beats the samples' own noise"
like "$(sec near | jq -r '.timing.speedup_noise')" '^0\.0[01][0-9]*$' \
    "the samples' noise: about 1% of the speedup"

# two modes: the medians say 1.2 (the reference slow in three of five
# runs, the candidate in two), the fastest runs say 1.0; the difference
# is noise, and 1.2 does not pass at threshold 1
rec bimodal modes3 modes2 > "$T_TMP/in"
run "$KV" --no-memcheck --time 5 < "$T_TMP/in"
is "$(sec bimodal | jq -r '.timing | [.speedup, .speedup_min, (.speedup_low * 1000 | round / 1000), .pass_perf // "-"] | @tsv')" \
    "$(printf '1.2\t1\t0.964\t-')" \
    "bimodal times: speedup 1.2 by the medians, 1 by the fastest runs; the band spans both (1 less its 3% floor)"
is "$(sec bimodal | jq -r '[.pass_exe, .pass_perf] | @tsv')" "$(printf 'true\tfalse')" \
    "bimodal times: pass_perf false at threshold 1"

done_testing
