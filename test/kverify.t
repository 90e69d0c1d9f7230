#!/bin/sh
# kverify without a GPU: fake harnesses (test/kverify/fake_harness.c) that
# speak the kwrap harness's command line and manifest and misbehave on
# purpose, named by fake build entries in a scratch work directory.
. "$(dirname "$0")/lib.sh"

have_tool kverify || skip_all "kverify not built"
command -v jq > /dev/null || skip_all "jq not installed (make deps)"
KV=$(tool kverify)
W=$T_TMP/work
export KFORGE_WORK=$W
# the fake harnesses log through $FAKE_* into files outside their run
# directories, which a sandboxed harness cannot: test/hostile.t tests the
# sandbox
KFORGE_BWRAP=none
export KFORGE_BWRAP
CC=${CC:-cc}
$CC -std=c11 -D_GNU_SOURCE -O1 -o "$T_TMP/fake" test/kverify/fake_harness.c \
    -lm || skip_all "cannot compile the fake harness"

# entry ROLE WORD: a build entry holding WORD (module) or the fake harness;
# prints its key
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

# compute-sanitizer's stand-in, found through $CUDA_PATH: runs the
# harness and reports one memcheck error for a module holding "memerr"
# (or "memnm", on case 2 only, "memsm" on case 1 only), none otherwise; racecheck reports one
# hazard for a module holding "racy" (or "raceloop", on case 2 only), one
# or two of warning severity for "warn1" or "warn2"
mkdir -p "$T_TMP/cuda/bin"
cat > "$T_TMP/cuda/bin/compute-sanitizer" <<'EOF'
#!/bin/sh
echo "$*" >> "${FAKE_SAN_LOG:-/dev/null}"
tool=memcheck
while [ $# -gt 0 ]; do
	case $1 in
	--tool) tool=$2; shift 2 ;;
	--print-limit) shift 2 ;;
	*) break ;;
	esac
done
"$@"
rc=$?
if [ "$tool" = racecheck ]; then
	if grep -q racy "$2" 2> /dev/null || { grep -q raceloop "$2" \
	    2> /dev/null && case " $* " in *" --case 2 "*) true ;;
	    *) false ;; esac; }; then
		echo "========= Error: Race reported between Write access at 0x20 in fake(float *)"
		echo "=========     and Read access at 0x30 in fake(float *) [16 hazards]"
		echo "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"
	elif grep -q warn2 "$2" 2> /dev/null; then
		echo "========= Warning: Race reported between Write access at 0x24 in fake(float *)"
		echo "========= RACECHECK SUMMARY: 2 hazards displayed (0 errors, 2 warnings)"
	elif grep -q warn1 "$2" 2> /dev/null; then
		echo "========= Warning: Race reported between Write access at 0x24 in fake(float *)"
		echo "========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)"
	else
		# as compute-sanitizer 2025: no ERROR SUMMARY from racecheck
		echo "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
	fi
	exit $rc
fi
if grep -q memerr "$2" 2> /dev/null || { grep -q memnm "$2" 2> /dev/null &&
    case " $* " in *" --case 2 "*) true ;; *) false ;; esac; } ||
    { grep -q memsm "$2" 2> /dev/null &&
    case " $* " in *" --case 1 "*) true ;; *) false ;; esac; }; then
	echo "========= Invalid __global__ write of size 4 bytes"
	echo "=========     at 0x10 in fake(float *)"
	echo "========= ERROR SUMMARY: 1 error"
else
	echo "========= ERROR SUMMARY: 0 errors"
fi
exit $rc
EOF
chmod +x "$T_TMP/cuda/bin/compute-sanitizer"
CUDA_PATH=$T_TMP/cuda
export CUDA_PATH

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

# verify ID REF CAND [OPTIONS...]: run kverify on one record; the verify
# section lands in $T_TMP/v
verify() {
	id=$1 ref=$2 cand=$3
	shift 3
	rec "$id" "$ref" "$cand" > "$T_TMP/in"
	run "$KV" "$@" < "$T_TMP/in"
	jq -c '.verify' "$T_TMP/out" > "$T_TMP/v"
}
v() {
	jq -r "$1" "$T_TMP/v"
}

# --- a record may name only kbuild's work-directory entries
rec escape ref good | jq -c '.build.harness.artifact = ".."' > "$T_TMP/in"
rec escape2 ref good | jq -c '.build.reference.file = ".."' >> "$T_TMP/in"
run "$KV" < "$T_TMP/in"
is "$T_STATUS:$(jq -r '.errors[0].code' "$T_TMP/out" | tr '\n' ' ')" "1:not-built not-built " \
    "artifact keys and file names outside kbuild's shapes are refused, nothing run"

# --- golden run of a good reference, a correct candidate (a noise floor
# the fake's 1% jitter never gets under: every round runs)
verify good ref good --time 5 --noise-floor 0.005
is "$T_STATUS" 0 "correct candidate: exit 0"
is "$(v '[.cases, .deterministic, .pass_exe, .pass_perf] | @tsv')" \
    "$(printf '3\ttrue\ttrue\ttrue')" "correct candidate passes, 3 cases"
is "$(v '.golden | map(.outputs | map(.name) | join(",")) | join(" ")')" \
    "y,k y,k y,k" "golden: every output of every case"
is "$(v '[.runs[] | "\(.role):\(.mode):\(.case)"] | join(" ")')" \
    "harness:cases:null reference:check:null reference:repeat:null candidate:check:null reference:time:0 candidate:time:0 candidate:time:0 reference:time:0 reference:time:0 candidate:time:0 candidate:time:0 reference:time:0" \
    "every case of a role in one harness run (--all), timing alternated"
h=$(v '.golden[0].outputs[0].hash')
[ -f "$W/blobs/$(echo "$h" | cut -c1-2)/$h" ] &&
    [ "$(sha256sum < "$W/blobs/$(echo "$h" | cut -c1-2)/$h" | cut -c1-64)" = "$h" ]
ok $? "golden outputs stored in the work directory by sha256"
is "$(v '.timing.speedup')" 2 "speedup is reference median / candidate median"
is "$(v '[.timing.reference.n, .timing.candidate.n, .timing.reference.median_ms] | @tsv')" \
    "$(printf '20\t20\t2.02')" "timing: 4 rounds of 5 repetitions each, median kept"
is "$(v '[.runs[] | select(.mode == "time") | .role] | join(" ")')" \
    "reference candidate candidate reference reference candidate candidate reference" "timing order alternates (ABBA)"
is "$(v '.timing.suspicious')" false "a 2x speedup is not suspicious"
is "$(v '.timing.rounds')" 4 "rounds whose noise stays over half the floor: all four"
is "$(v '.candidate.cases[1].outputs[0] | [.match, .mismatches] | @tsv')" \
    "$(printf 'true\t0')" "NaN and Inf in the same places match"
is "$(ls "$W/verify")" "" "temporary run directories removed"
run test/validate "$T_TMP/out"
ok "$T_STATUS" "output validates against schemas/"
# the rounds stop once their noise is under half of --noise-floor (3%):
# the fake's 1% jitter gets there after an ABBA pair of 20 repetitions a
# run, after three rounds of 5
verify good ref good --time 20
is "$(v '[.timing.rounds, .timing.reference.n, .timing.candidate.n, .timing.speedup, .pass_perf, ([.runs[] | select(.mode == "time") | .role[0:1]] | join(""))] | map(tostring) | join(" ")')" \
    "2 40 40 2 true rccr" "a settled speedup: one ABBA pair of rounds is enough"
verify good ref good --time 5
is "$(v '[.timing.rounds, .timing.reference.n] | map(tostring) | join(" ")')" "3 15" \
    "fewer repetitions a run: a third round"

# --- tolerance
verify close ref close --no-time
is "$(v '[.pass_exe, .pass_perf] | map(tostring) | join(" ")')" "true null" \
    "within the float32 tolerance: passes (no timing, no pass_perf)"
like "$(v '.candidate.cases[0].outputs[0].max_rel_err')" '^[0-9.e-]+$' \
    "max relative error reported"
verify close ref close --no-time --atol 0 --rtol 0
is "$(v '[.pass_exe, .candidate.reasons[0]] | @tsv')" "$(printf 'false\tmismatch')" \
    "--atol 0 --rtol 0: the same candidate fails"
verify far ref far --no-time
is "$(v '[.pass_exe, (.candidate.cases[0].outputs[0] | .mismatches, .first_mismatch)] | @tsv')" \
    "$(printf 'false\t1\t7')" "wrong value: mismatch count and first index"
is "$(v '.candidate.cases[0].outputs[0].max_abs_err > 0.009')" true "max absolute error"
is "$(v '[.runs[] | select(.mode == "recheck") | .role] | join(" ")')" reference \
    "a candidate whose values alone differ: the reference runs once more"
# a reference whose later runs do not reproduce its golden (the golden's
# two runs agreed): the element the candidate missed is one the
# reference moves too, and the rest of the output matched
verify drift drift far --no-time
is "$(v '[.pass_exe, (.candidate.reasons | length), .candidate.unjudged, .candidate.cases[0].outputs[0].match, .candidate.cases[0].outputs[0].not_compared, .candidate.cases[0].pass] | map(tostring) | join(" ")')" \
    "true 0 null true 1 true" \
    "the reference, run again, moves the one element the candidate missed: matched where the reference holds still"
like "$(v '.candidate.cases[0].outputs[0].note')" "matched where the reference reproduces its golden: the 1 element it missed" \
    "and the output says why"
verify driftw drift2 far --no-time
is "$(v '[.pass_exe, .candidate.cases[0].outputs[0].not_compared, .candidate.cases[0].outputs[0].note] | map(tostring) | join(" | ")')" \
    "true | 2 | matched where the reference reproduces its golden: the 1 element it missed the reference, run again, moves too" \
    "the reference moves two elements, the candidate missed one of them: the note counts the candidate's, not_compared the reference's"
# the drift counts runs of its module: from the first again
k=$(entry reference drift)
rm -f "$W/build/$(echo "$k" | cut -c1-2)/$k/module.cubin.n"
verify drift2 drift far2 --no-time
is "$(v '[.pass_exe, (.candidate.reasons | join(",")), .candidate.cases[0].outputs[0].match, .candidate.cases[0].outputs[0].note] | map(tostring) | join(" | ")')" \
    "false | mismatch | false | the reference, run again, moves 1 element of this output, not every one the candidate missed" \
    "near miss: the candidate also misses y[2], which the reference reproduces: not matched"
verify intoff ref intoff --no-time --atol 10 --rtol 10
is "$(v '[.pass_exe, .candidate.cases[0].outputs[1].mismatches, .candidate.cases[0].outputs[0].match] | @tsv')" \
    "$(printf 'false\t1\ttrue')" "integers compare exactly whatever the tolerance"

# --- NaN policy
verify nan ref nan --no-time --atol 1e30
is "$(v '[.pass_exe, .candidate.reasons[0], .candidate.cases[0].outputs[0].nan_mismatches] | @tsv')" \
    "$(printf 'false\tnan-mismatch\t1')" "NaN is not a wildcard, even with a huge atol"
is "$(v '.candidate.cases[1].outputs[0].nan_mismatches')" 2 \
    "a number where the golden has NaN fails too"

# --- cheating
verify sentinel ref sentinel --no-time
test/validate "$T_TMP/out" > /dev/null 2>&1
ok $? "failed candidate validates against schemas/"
is "$(v '[.pass_exe, (.candidate.reasons | join(","))] | @tsv')" \
    "$(printf 'false\tsentinel-left')" "output left as the sentinel fails"
verify modify ref modify --no-time
is "$(v '[.pass_exe, (.candidate.reasons | join(","))] | @tsv')" \
    "$(printf 'false\tmodified-inputs')" "a candidate that changes its inputs fails"
# a reference that writes into its input on case 2 alone: that case is
# left out, and the reference passes as its own candidate
verify modify2 modify2 modify2 --no-time
is "$(v '[.pass_exe, (.left_out | map("\(.case) \(.fault) \(.message)") | join(","))] | @tsv')" \
    "$(printf 'true\t2 modifies-inputs input x: the reference wrote into it')" \
    "a case on which the reference writes into an input is left out; the reference passes as itself"
test/validate "$T_TMP/out" > /dev/null 2>&1
ok $? "a record with a case left out for writing into an input validates against schemas/"
# one that does it on case 0: the spec is wrong about the kernel (stores
# that reach past an output), and no golden is taken, as for a fault
verify modify0 modify modify --no-time
is "$T_STATUS" 1 "a reference that writes into an input on case 0: exit 1"
is "$(v '[.pass_exe, .fault.kind, .fault.role, .fault.case, (.golden | length)] | map(tostring) | @tsv')" \
    "$(printf 'null\tmodifies-inputs\treference\t0\t0')" \
    "one that writes into an input on case 0 has no golden: a reference fault"
is "$(jq -r '.errors[0] | "\(.code): \(.message)"' "$T_TMP/out" | sed 's/^[^:]*: [^:]*: //')" \
    "reference, case 0: modifies-inputs: input x: the reference wrote into it (the spec calls it an input; case 0 and others): the outputs follow what it did to the inputs, and no golden is taken" \
    "the error names the case and the input"
test/validate "$T_TMP/out" > /dev/null 2>&1
ok $? "a reference fault for writing into an input validates against schemas/"
verify flaky ref flaky --no-time
is "$(v '[.pass_exe, (.candidate.reasons | join(","))] | @tsv')" \
    "$(printf 'false\ttimed-outputs-differ')" \
    "correct on the first launch only: fails"
verify fast ref fast --time 3
is "$(v '[.pass_exe, .pass_perf, .timing.suspicious] | @tsv')" \
    "$(printf 'true\ttrue\ttrue')" "200x speedup flagged suspicious"
verify slow good ref --time 3
is "$(v '[.pass_exe, .pass_perf, .timing.speedup] | @tsv')" \
    "$(printf 'true\tfalse\t0.5')" "slower than the reference: pass_perf false"
verify slow2 good ref --time 3 --threshold 0.4
is "$(v '.pass_perf')" true "--threshold lowers the bar"
for f in "$W"/verify/*; do
	[ -e "$f" ] && fail "nothing left in verify/ ($f)"
done

# --- faults: one record each, the next record runs normally
{ rec hang ref hang; rec crash ref crash; rec fault ref fault;
  rec torn ref torn; rec nomanifest ref nomanifest; rec after ref good; } \
    > "$T_TMP/in"
run "$KV" --no-time --no-memcheck --timeout 1 < "$T_TMP/in"
is "$T_STATUS" 0 "candidate faults are verdicts, not errors: exit 0"
is "$(jq -r '[.id, .verify.fault.kind, .verify.fault.role, .verify.pass_exe] | map(tostring) | join(" ")' "$T_TMP/out")" \
    "$(printf 'hang timeout candidate false\ncrash crash candidate false\nfault runtime candidate false\ntorn harness candidate false\nnomanifest harness candidate false\nafter null null true')" \
    "hang, crash, illegal address, torn output and missing manifest each fail one record"
test/validate "$T_TMP/out" > /dev/null 2>&1
ok $? "fault records validate against schemas/"
is "$(jq -r 'select(.id == "crash") | [.verify.fault.case, .verify.fault.signal] | @tsv' "$T_TMP/out")" \
    "$(printf '1\t11')" "crash: case and signal"
is "$(jq -r 'select(.id == "fault") | .verify.fault.tail' "$T_TMP/out")" \
    "harness: kw_sync(): CUDA_ERROR_ILLEGAL_ADDRESS" "fault: the harness's message kept"
rec refcrash crash good > "$T_TMP/in"
FAKE_LOG=$T_TMP/lolog run "$KV" --no-time < "$T_TMP/in"
is "$T_STATUS:$(jq -c '.verify | [.left_out, [.golden[].case], [.candidate.cases[].case], .pass_exe, .verified.value]' "$T_TMP/out")" \
    '0:[[{"case":1,"name":null,"fault":"crash","message":"killed by signal 11 (Segmentation fault)"}],[0,2],[0,2],true,true]' \
    "a reference that crashes on a case other than case 0: the case is left out, the rest judged"
is "$(grep -c '^good - 1 ' "$T_TMP/lolog")" 0 "the left-out case is never run for the candidate (harness --skip)"
test/validate "$T_TMP/out" > /dev/null 2>&1
ok $? "a record with a case left out validates against schemas/"
rec refcrash2r crash2r good > "$T_TMP/in"
run "$KV" --no-time < "$T_TMP/in"
is "$T_STATUS:$(jq -c '.verify | [.left_out, [.golden[].case], [.candidate.cases[].case], .pass_exe, .verified.value]' "$T_TMP/out")" \
    '0:[[{"case":2,"name":null,"fault":"crash","message":"killed by signal 11 (Segmentation fault)"}],[0,1],[0,1],true,true]' \
    "a reference that crashes on case 2 in its repeat alone: the case is left out, the rest judged"
rec refcrash12 crash12 good > "$T_TMP/in"
run "$KV" --no-time < "$T_TMP/in"
is "$T_STATUS:$(jq -r '[.errors[0].code, .verify.fault.kind, .verify.fault.role, .verify.fault.case, (.verify.left_out | length)] | @tsv' "$T_TMP/out")" \
    "1:$(printf 'reference-fault\tcrash\treference\t2\t1')" \
    "a reference that fails on half of the cases or more is an error of its record"
rec reffault fault good > "$T_TMP/in"
run "$KV" --no-time < "$T_TMP/in"
is "$T_STATUS:$(jq -r '[.errors[0].code, .verify.fault.case, (.verify.left_out // [] | length)] | @tsv' "$T_TMP/out")" \
    "1:$(printf 'reference-fault\t0\t0')" "a reference that faults on case 0: never left out, an error of its record"

# --- out of device memory, and output without end: the capture is bounded
# (K_RUN_OUTPUT_MAX, 64 MiB, kills a flood; the log keeps 1 MiB from each
# end), the record fails, the next one is fine.  The flood runs under a
# timeout long enough for 64 MiB on a loaded machine (it is the byte limit
# that must stop it, not the clock); the endless drip under a short one.
{ rec oom ref oom; rec flood ref flood; rec after2 ref good; } > "$T_TMP/in"
rm -rf "$W/verify"
if [ -x /usr/bin/time ]; then
	run /usr/bin/time -f '%M' -o "$T_TMP/rss" "$KV" --keep --no-time \
	    --no-memcheck --timeout 300 < "$T_TMP/in"
else
	run "$KV" --keep --no-time --no-memcheck --timeout 300 < "$T_TMP/in"
fi
s1=$T_STATUS
cp "$T_TMP/out" "$T_TMP/out1"
rec drip ref drip > "$T_TMP/in"
run "$KV" --keep --no-time --no-memcheck --timeout 3 < "$T_TMP/in"
cat "$T_TMP/out1" "$T_TMP/out" > "$T_TMP/out2" && mv "$T_TMP/out2" "$T_TMP/out"
is "$s1:$T_STATUS" "0:0" "oom, floods and drips are candidate verdicts: exit 0"
is "$(jq -r '[.id, .verify.fault.kind, .verify.pass_exe] | map(tostring) | join(" ")' "$T_TMP/out")" \
    "oom alloc false
flood output false
after2 null true
drip timeout false" "out of memory, a flood and an endless drip each fail one record"
is "$(jq -r '.verify.fault.message // empty' "$T_TMP/out")" \
    "harness exited 3: out of memory
killed after writing more than 64 MiB to standard output and error
no result after 3 s" "and say what happened"
is "$(jq -r 'select(.id == "oom") | .verify.fault.tail' "$T_TMP/out")" \
    "harness: kw_alloc(&b[i].dev, b[i].bytes ? b[i].bytes : 1): CUDA_ERROR_OUT_OF_MEMORY" \
    "oom: the harness's message kept"
like "$(jq -r 'select(.id == "flood") | .verify.fault.tail' "$T_TMP/out")" \
    "thread [0-9]* says hello again" "flood: the end of its output kept"
test/validate "$T_TMP/out" > /dev/null 2>&1
ok $? "oom and flood records validate against schemas/"
big=$(find "$W/verify" -name '*.log' -size +2100k | head -1)
is "$big" "" "no log on disk over 2 MiB (1 MiB head, 1 MiB tail)"
flog=$(grep -l 'bytes of output left out' $(find "$W/verify" -name '*.log') |
    head -1)
ok "$([ -n "$flog" ] && echo 0 || echo 1)" "the flood's log says what was left out"
if [ -s "$T_TMP/rss" ]; then
	ok "$([ "$(tail -1 "$T_TMP/rss")" -lt 65536 ] && echo 0 || echo 1)" \
	    "kverify stays under 64 MiB resident through a 64 MiB flood ($(tail -1 "$T_TMP/rss") KiB)"
else
	skip "kverify's peak memory" "no /usr/bin/time"
fi
rm -rf "$W/verify"
rec refoom oom good > "$T_TMP/in"
run "$KV" --no-time < "$T_TMP/in"
is "$T_STATUS:$(jq -r '[.errors[0].code, .verify.fault.kind, .errors[0].message] | @tsv' "$T_TMP/out")" \
    "1:$(printf 'reference-fault\talloc\trefoom: reference, case 0: alloc: harness exited 3: out of memory')" \
    "a reference out of memory is an error of its record"

# --- nondeterministic and degenerate references
verify nondet nondet "" --no-time
is "$(v '.deterministic')" false "outputs differing between runs: nondeterministic"
is "$(v '[.verified.reason, .tolerance.outputs[0].unbanded] | join(" ")')" \
    "nondeterministic too-large" \
    "a spread far beyond rounding (y another thousand at every run) is a race: no band"

# --- the tolerance band: the reference's own spread between runs
verify jit jitter jitter --no-time
is "$(v '[.deterministic, .verified.value, .pass_exe] | map(tostring) | join(" ")')" \
    "false true true" \
    "float atomics: not deterministic, still verified, and passes as its own candidate"
is "$(v '[.tolerance.k, (.tolerance.outputs[] | "\(.name):\(.spread):\(.atol):\(.banded)")] | map(tostring) | join(" ")')" \
    "4 y:0.004000000189989805:0.015999794006347656:true k:0:0:false" \
    "verify.tolerance: per output the largest spread seen, case 0's band k x its spread"
is "$(v '[.golden[].outputs | "\(.[0].spread * 1e4 | round):\(.[1].spread)"] | join(" ")')" \
    "40:null 40:null 40:null" \
    "golden: the spread seen in each case (timed repetitions and a fresh process)"
verify jitlo jitcrash jitter --no-time
is "$(v '[.left_out[0].case, .verified.value, .pass_exe, .tolerance.outputs[0].banded, .tolerance.outputs[0].unbanded] | map(tostring) | join(" ")')" \
    "1 true true true null" \
    "float atomics with a case left out: the other cases' spread still gives a band"
verify jitk jitter jitter --no-time --spread-k 1
is "$(v '[.tolerance.outputs[0].atol, .pass_exe] | map(tostring) | join(" ")')" \
    "0.003999948501586914 true" "--spread-k 1: the band is the spread itself"
verify jitbig jitbig jitbig --no-time
is "$(v '[.verified.value, .pass_exe, (.tolerance.outputs[0] | .spread > 1000, .relative < 1e-3, (.atol * 1e3 | round))] | map(tostring) | join(" ")')" \
    "true true true true 16" \
    "a case of values a million times larger: its spread sizes its own band, case 0 keeps 4 x 0.004"
# a race on one element whose spread is small beside another case's
# values: banded, but the elements that held still keep their own band
verify rbig racebig racebig --no-time
is "$(v '[.verified.value, .pass_exe, (.tolerance.outputs[0] | .banded, .split, .unstable, .atol, .stable_atol)] | map(tostring) | join(" ")')" \
    "true true true true 3 20 1e-05" \
    "y[0] 5 more in the repeat beside case 2's million: split, the band 20 for y[0], the default for the others"
verify rbigoff racebig bigoff --no-time
is "$(v '[.pass_exe, (.candidate.reasons | join(",")), .candidate.cases[0].outputs[0].first_mismatch] | map(tostring) | join(" ")')" \
    "false mismatch 3" \
    "y[3] 10 off, inside the race's band of 20: fails, held to the default band where the reference held still"
verify rfar racebig racefar --no-time
is "$(v '[.pass_exe, (.candidate.reasons | length), .candidate.cases[0].outputs[0].match, .candidate.cases[0].outputs[0].not_compared] | map(tostring) | join(" ")')" \
    "true 0 true 1" \
    "y[0], which the golden's runs saw race, 50 off (past the band of 20): not compared there, passes"
verify rjit racejit bigoff --no-time
is "$(v '[.tolerance.outputs[0].split, .tolerance.outputs[0].banded, .pass_exe] | map(tostring) | join(" ")')" \
    "null true true" \
    "near miss: the other elements also round another way: not split, one band for all (y[3] 10 off passes inside it, as before)"
# a race the golden's runs never showed (y[1]), met by the candidate's
# timed repetitions: against a nondeterministic golden they are misses
# as a first launch's are, and the reference, run again, moves y[1] too
verify rlate racelate racelatec --no-time
is "$(v '[.pass_exe, (.candidate.reasons | length), .candidate.cases[0].outputs[0].timed_mismatches, .candidate.cases[0].outputs[0].match, .candidate.cases[0].outputs[0].not_compared] | map(tostring) | join(" ")')" \
    "true 0 1 true 1" \
    "timed repetitions off where the reference, run again, moves too: passes, that element not compared"
verify rlaten racebig racelatec --no-time
is "$(v '[.pass_exe, (.candidate.reasons | join(",")), .candidate.cases[0].outputs[0].timed_mismatches] | map(tostring) | join(" ")')" \
    "false timed-outputs-differ 1" \
    "near miss: where the reference, run again, holds y[1], the same repetitions fail"
verify jitbigf jitbig jitbigfar --no-time
is "$(v '[.pass_exe, (.candidate.reasons | join(","))] | map(tostring) | join(" ")')" \
    "false timed-outputs-differ,mismatch" \
    "0.05 off where values are small fails, though another case's band is a thousandfold wider"
verify jitfar jitter jitfar --no-time
is "$(v '[.pass_exe, (.candidate.reasons | join(","))] | map(tostring) | join(" ")')" \
    "false mismatch" "a candidate beyond k x spread fails"
verify jittf jitter timedfar --no-time
is "$(v '[.pass_exe, (.candidate.reasons | join(","))] | map(tostring) | join(" ")')" \
    "false timed-outputs-differ" \
    "timed repetitions outside the band fail: timed-outputs-differ"
verify dettf ref jitter --no-time
is "$(v '[.deterministic, .tolerance.outputs[0].atol, .pass_exe] | map(tostring) | join(" ")')" \
    "true 1e-05 false" \
    "a deterministic reference keeps the default band: 0.004 off in repetitions fails"
# an integer output one element of which moves between runs (k[4], a
# race over which thread's value lands there): masked, judged on the
# other elements
verify jint jitint jitint --no-time
is "$(v '[.deterministic, .verified.value, .pass_exe, (.tolerance.outputs[1] | .masked, .unstable, .elements, .unbanded, .difference)] | map(tostring) | join(" ")')" \
    "false true true true 3 48 null null" \
    "an integer output whose runs differ in one element a case: masked (3 of 48 elements), verified, passes as its own candidate"
is "$(v '[.golden[].outputs[1] | "\(.unstable):\(.unstable_hash | length)"] | join(" ")')" \
    "1:64 1:64 1:64" "golden: each case's count of unstable elements and the blob of their map"
test/validate "$T_TMP/out" > /dev/null 2>&1
ok $? "a record with a masked output validates against schemas/"
verify jintc jitint intoff --no-time
is "$(v '[.pass_exe, (.candidate.unjudged // [] | length), (.candidate.reasons | length), ([.candidate.cases[].outputs[] | select(.name == "k") | "\(.match):\(.not_compared)"] | unique | join(","))] | map(tostring) | join(" ")')" \
    "true 0 0 true:1" \
    "a candidate that differs only in the masked element passes; the output says how many were not compared"
verify jintc2 jitint intoff2 --no-time
is "$(v '[.pass_exe, (.candidate.reasons | join(",")), .candidate.cases[0].outputs[1].first_mismatch] | map(tostring) | join(" ")')" \
    "false mismatch 2" \
    "near miss: another element of the masked output, k[2], which every run of the reference holds, fails"
verify jintt jitint inttimed --no-time
is "$(v '[.pass_exe, (.candidate.reasons | length)] | map(tostring) | join(" ")')" \
    "true 0" \
    "timed repetitions that differ only in the masked element pass"
verify inttd ref inttimed --no-time
is "$(v '[.pass_exe, (.candidate.reasons | join(","))] | map(tostring) | join(" ")')" \
    "false timed-outputs-differ" \
    "near miss: against a deterministic golden the same repetitions fail"
verify jintf jitint far --no-time
is "$(v '[.pass_exe, (.candidate.reasons | join(",")), (.candidate.unjudged // [] | length)] | map(tostring) | join(" ")')" \
    "false mismatch 0" \
    "the other outputs still judge: y 0.01 off fails beside the masked k"
is "$(v '[.runs[] | select(.mode == "mask")] | length')" 2 \
    "the mask held still over two more runs of the reference (runs mode mask)"
verify jroam introam intoff --no-time
is "$(v '[.verified.reason, .tolerance.outputs[1].masked, .tolerance.outputs[1].unbanded, ([.runs[] | select(.mode == "mask")] | length), .pass_exe] | map(tostring) | join(" ")')" \
    "nondeterministic null incomparable 1 null" \
    "near miss: a race that lands on another element at every run moves a new one in the first run more: not masked, not judged"
# MASK_MAX: a race in half of an output's elements is masked, in more not
verify jhalf inthalf inthalf --no-time
is "$(v '[.verified.value, .pass_exe, .tolerance.outputs[1].masked, .tolerance.outputs[1].unstable] | map(tostring) | join(" ")')" \
    "true true true 24" "8 of 16 elements unstable in each case: masked"
verify jhalf9 inthalf9 "" --no-time
is "$(v '[.verified.reason, .tolerance.outputs[1].masked, .tolerance.outputs[1].unbanded] | map(tostring) | join(" ")')" \
    "nondeterministic null incomparable" "near miss: 9 of 16: more than half, not masked"
# an integer output whose every element moves: no band, nothing to mask
verify jwide intwide "" --no-time
is "$(v '[.verified.reason, .tolerance.outputs[1].unbanded, .verified.detail] | map(tostring) | join(" | ")')" \
    "nondeterministic | incomparable | output k differs between the reference's runs where no tolerance band applies (integer elements): in element 0 of case 0 it is 0 in one run and 1 in another" \
    "an integer output that differs between runs everywhere: no band, not verified, and where it differed said"
is "$(v '.tolerance.outputs[1].difference | [.kind, .case, .element, .golden, .other] | map(tostring) | join(" ")')" \
    "integer 0 0 0 1" "verify.tolerance: the first element no band covers, in both runs"
# a candidate on a golden with an output no band covers: that output is
# not compared (a correct candidate would fail on it as often as not),
# the others are, and the verdict is neither pass nor fail
verify jwidec intwide intoff --no-time
is "$(v '[.pass_exe, .pass_perf, (.candidate.unjudged | join(",")), (.candidate.reasons | length), ([.candidate.cases[].outputs[] | select(.name == "k") | .match] | unique | map(tostring) | join(","))] | map(tostring) | join(" ")')" \
    "null null k 0 null" \
    "an output whose golden runs differ beyond any band: not compared, pass_exe null, candidate.unjudged names it"
test/validate "$T_TMP/out" > /dev/null 2>&1
ok $? "a record with an output not judged validates against schemas/"
verify jwidet intwide inttimed --no-time
is "$(v '[.pass_exe, (.candidate.reasons | length), (.candidate.unjudged | join(","))] | map(tostring) | join(" ")')" \
    "null 0 k" \
    "repetitions that differ only in the output no band covers are not judged on it either"
verify jwidef intwide far --no-time
is "$(v '[.pass_exe, (.candidate.reasons | join(",")), (.candidate.unjudged | join(","))] | map(tostring) | join(" ")')" \
    "false mismatch k" \
    "the outputs a band covers still judge: y 0.01 off fails beside the unjudged k"
test/validate "$T_TMP/out" > /dev/null 2>&1
ok $? "a record with an output no band covers validates against schemas/"
verify jperm jitperm jitperm --no-time
is "$(v '[.deterministic, .verified.value, .pass_exe, .tolerance.outputs[1].unordered, .tolerance.outputs[1].unbanded, .tolerance.outputs[0].unordered, .tolerance.outputs[0].unbanded] | map(tostring) | join(" ")')" \
    "false true true true null true null" \
    "outputs whose runs hold the same elements in another order (int32 and float): unordered, verified, pass as their own candidate"
verify jpermref jitperm ref --no-time
is "$(v '.pass_exe')" true "an unordered output: a candidate in the golden's own order passes"
verify jpermint jitperm intoff --no-time
is "$(v '[.pass_exe, (.candidate.reasons | join(","))] | map(tostring) | join(" ")')" \
    "false mismatch" "an unordered output: another element, not another order, fails"
test/validate "$T_TMP/out" > /dev/null 2>&1
ok $? "a record with an unordered output validates against schemas/"
verify jint2 jitint2 ref --no-time
is "$(v '[.deterministic, .verified.value, .pass_exe, ([.golden[].case] | join(",")), ([.candidate.cases[].case] | join(","))] | map(tostring) | join(" ")')" \
    "true true true 0,1 0,1" \
    "a golden that differs beyond any band on case 2 only: the case is left out, the others are a deterministic task"
is "$(v '.left_out[0] | [.case, .fault, .message] | map(tostring) | join(" | ")')" \
    "2 | nondeterministic | output k differs between the reference's runs where no tolerance band applies (integer): element 4 is 6 in one run and 7 in another" \
    "verify.left_out says which output differed and where"
test/validate "$T_TMP/out" > /dev/null 2>&1
ok $? "a record with a nondeterministic case left out validates against schemas/"
is "$(v '[.runs[] | select(.mode == "confirm")] | length')" 1 \
    "the cases kept ran once more to confirm the golden"
verify jclk clock ref --no-time
is "$(v '[.deterministic, (.left_out // [] | length), .tolerance.outputs[1].masked, ([.golden[].outputs[1].unstable] | join(","))] | map(tostring) | join(" ")')" \
    "false 0 true 1,1,1" \
    "cases kept that agreed by chance (a clock) differ in the confirming run: nothing is left out, the element that moved in it is masked in every case"
verify jrace race "" --no-time
is "$(v '[.verified.value, .tolerance.outputs[0].masked, .tolerance.outputs[0].unstable] | map(tostring) | join(" ")')" \
    "true true 3" "y[0] another value by 5 in the repeat: a spread too large for rounding in one element, masked"
verify jnd nondet "" --no-time
like "$(v '.verified.detail')" '^output y differs between the reference.s runs by [0-9]+, more than rounding' \
    "a spread too large for rounding in every element: not verified, and said"
verify jflaky ref flaky --no-time
is "$(v '(.candidate.reasons | join(","))')" "timed-outputs-differ" \
    "repetitions that differ without a timed file (an older harness): byte equality, as before"

verify zero zero "" --no-time
is "$(v '[.degenerate[] | select(.case == 0) | .output + ":" + .reason] | join(" ")')" \
    "y:all-zero k:constant" "degenerate: all zero, constant"
verify copy copy "" --no-time
is "$(v '[.degenerate[] | select(.case == 0) | .reason] | join(" ")')" \
    "equals-input:x" "degenerate: an output equal to an input"
verify sent sentinel "" --no-time
is "$(v '[.degenerate[] | select(.case == 0) | .reason] | join(" ")')" \
    "sentinel" "degenerate: an output still the sentinel"
is "$(v '[.pass_exe, .pass_perf, .deterministic] | map(tostring) | join(" ")')" \
    "null null true" "no candidate: no verdicts"
is "$(v '.timing')" null "--no-time: no timing section"

# --- the verdict: verify.verified, the first check that failed
verify vgood ref "" --no-time
is "$(v '[.verified.value, .verified.reason, .verified.memcheck, .sanitize.memcheck.errors] | map(tostring) | join(" ")')" \
    "true null true 0" "a deterministic, clean, fully written golden is a verified task"
FAKE_SAN_LOG=$T_TMP/sanlog verify vlog ref "" --no-time
like "$(cat "$T_TMP/sanlog")" '^--tool memcheck --print-limit 20 .*--case 0$' \
    "memcheck runs by default, on case 0 only"
verify vmem memerr "" --no-time
is "$(v '[.verified.value, .verified.reason, .verified.detail] | map(tostring) | join(" | ")')" \
    "false | memcheck | 1 error on case 0: Invalid __global__ write of size 4 bytes" \
    "a memcheck error on case 0: not verified, and the finding said"
verify vmemoff memerr "" --no-time --no-memcheck
is "$(v '[.verified.value, .verified.memcheck, .sanitize] | map(tostring) | join(" ")')" \
    "true false null" "--no-memcheck: the verdict without it, and says so"
verify vholes holes "" --no-time
is "$(v '[.verified.reason, .verified.detail, (.golden[0].outputs | map(.unwritten) | join(","))] | map(tostring) | join(" | ")')" \
    "unwritten | output y, case 0: 3 of 16 elements still hold the sentinel | 3,0" \
    "output elements left as the sentinel: counted per output, not verified"
verify vholes2 holes2 holes2 --no-time
is "$(v '[.verified.value, ([.golden[].case] | join(",")), ([.candidate.cases[].case] | join(",")), .pass_exe, (.left_out[0] | .case, .fault, .message)] | map(tostring) | join(" | ")')" \
    "true | 0,1 | 0,1 | true | 2 | unwritten | output y: 3 of 16 elements never written" \
    "elements left unwritten on case 2 only (a precondition the case misses): the case is left out, the others a verified task"
test/validate "$T_TMP/out" > /dev/null 2>&1
ok $? "a record with an unwritten case left out validates against schemas/"
verify vnoout noout "" --no-time
is "$(v '[.verified.value, .verified.reason, .deterministic] | map(tostring) | join(" | ")')" \
    "false | no-outputs | true" \
    "a harness without an output buffer observes nothing: not a verified task"
# a kernel that reads a clock: its outputs can follow the time it ran,
# however two runs agreed (the fake's are deterministic)
# clockrec ID CODE: a verdict on a record whose slice's code is CODE
clockrec() {
	rec "$1" ref "" | jq -c --arg code "$2" '.slice = {code: $code}' \
	    > "$T_TMP/in"
	run "$KV" --no-time < "$T_TMP/in"
	jq -c '.verify' "$T_TMP/out" > "$T_TMP/v"
}
clockrec vclock '__global__ void k(long long *t)
{
	t[0] = clock64 ();
}'
is "$(v '[.verified.value, .verified.reason, .verified.detail, .deterministic] | map(tostring) | join(" | ")')" \
    "false | clock | the kernel calls clock64(): its outputs can follow when and how fast it ran | true" \
    "a kernel that calls clock64(): not a verified task, deterministic as its two runs were"
clockrec vtimer '__global__ void k(unsigned long long *t)
{
	unsigned long long v;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v));
	t[0] = v;
}'
is "$(v '[.verified.reason, .verified.detail] | join(" | ")')" \
    "clock | the kernel reads %globaltimer in inline PTX: its outputs can follow when and how fast it ran" \
    "a kernel that reads %globaltimer in inline PTX: the same"
clockrec vnoclock '// clock() in a comment, clock64() /* too */
__global__ void k(clock_t *t, S s)
{
	t[0] = s.clock() + p->clock64(); /* clock64() */
	const char *m = "clock()";
}'
is "$(v '[.verified.value, .verified.reason] | map(tostring) | join(" | ")')" \
    "true | null" \
    "near miss: clock_t, members named clock, comments and strings: a verified task"

verify vlooks looks "" --no-time
is "$(v '[.verified.value, .deterministic, (.golden[0].outputs | map(.unwritten) | join(","))] | map(tostring) | join(" | ")')" \
    "true | true | 0,0" \
    "an element written with the sentinel's bytes: the repeat's other sentinel tells it from an unwritten one"
is "$(jq -r '[.verify.runs[] | select(.mode == "repeat")] | length' "$T_TMP/out")" 1 \
    "one repeat: the harness takes --sentinel"
FAKE_NOSENT=1 verify vlooksold looks "" --no-time
is "$(v '[.verified.reason, (.golden[0].outputs | map(.unwritten) | join(","))] | map(tostring) | join(" | ")')" \
    "unwritten | 1,0" "a harness from before --sentinel: repeated with the one sentinel, as before"
FAKE_NOSENT=1 verify vinout inout "" --no-time
is "$(v '[.verified.value, (.golden[0].outputs | map(.unwritten) | join(","))] | map(tostring) | join(" | ")')" \
    "true | 0,0" "an inout buffer starts as its input: sentinel bytes there are not unwritten"
FAKE_NOSENT=1 verify vholesold holes "" --no-time
is "$(v '[.verified.reason, .deterministic, (.golden[0].outputs | map(.unwritten) | join(","))] | map(tostring) | join(" | ")')" \
    "unwritten | true | 3,0" "a harness from before --sentinel: elements left unwritten still counted"
verify vzero zero "" --no-time
is "$(v '[.verified.reason, .verified.detail] | join(" | ")')" \
    "degenerate | output y is degenerate in every case (all-zero)" \
    "an output degenerate in every case: not verified"
verify vfill fill "" --no-time
is "$(v '[.verified.value, ([.degenerate[] | select(.output == "y") | .value] | unique | length)] | map(tostring) | join(" ")')" \
    "true 3" \
    "an output that is one value in every case, another value in each (a fill): still a test, verified"
verify vempty emptyfill "" --no-time
is "$(v '[.verified.value, ([.degenerate[] | select(.output == "k") | "\(.case):\(.reason)"] | join(" ")), .golden[2].outputs[1].count, .golden[2].outputs[1].unwritten] | map(tostring) | join(" | ")')" \
    "true | 0:constant 1:constant 2:empty | 0 | 0" \
    "an output of 0 elements in a case (a size of 0) is listed empty, not unwritten; a fill in the other cases is still a test: verified"
verify vemptyc emptyconst "" --no-time
is "$(v '[.verified.reason, .verified.detail] | join(" | ")')" \
    "degenerate | output k is degenerate in every case (constant)" \
    "an output that is one value wherever it has elements, empty elsewhere: the empty case hides nothing, not verified"
verify vnondet nondet "" --no-time
is "$(v '.verified.reason')" nondeterministic "a nondeterministic golden: not verified"
is "$(v '.reads_unwritten')" false \
    "another value at every run: the two runs more with each sentinel do not give the golden's and the repeat's outputs again"
is "$(v '[.runs[] | select(.mode == "sentinel")] | length')" 1 \
    "the run with the golden's sentinel differs from the golden: no second one (mode sentinel)"
verify vreadsout readsout "" --no-time
is "$(v '[.deterministic, .reads_unwritten, .verified.value, .verified.reason, ([.runs[] | select(.mode == "sentinel")] | length)] | map(tostring) | join(" ")')" \
    "false true false reads-unwritten 2" \
    "outputs that follow the sentinel (an output read before it is written): reads-unwritten, not verified"
like "$(v '.verified.detail')" 'reads memory it did not write' "the detail says what the kernel does"
verify vgood good "" --no-time
is "$(v '[.reads_unwritten, ([.runs[] | select(.mode == "sentinel")] | length)] | map(tostring) | join(" ")')" \
    "null 0" "a deterministic golden: no sentinel runs, no reads_unwritten"
rec vcrash crash12 > "$T_TMP/in"
run "$KV" --no-time < "$T_TMP/in"
is "$(jq -r '.verify.verified | [.value, .reason, .detail] | map(tostring) | join(" | ")' "$T_TMP/out")" \
    "false | reference-fault | reference, case 2: crash: killed by signal 11 (Segmentation fault)" \
    "no golden: the reference's fault is the reason"
rec vnosan ref > "$T_TMP/in"
CUDA_PATH=$T_TMP/none PATH=/usr/bin:/bin run "$KV" --no-time < "$T_TMP/in"
is "$(jq -r '.verify.verified | [.value, .reason, .detail] | map(tostring) | join(" | ")' "$T_TMP/out")" \
    "false | memcheck | not run: compute-sanitizer not found" \
    "no compute-sanitizer: nothing is verified, and that is why"
like "$(cat "$T_TMP/err")" "compute-sanitizer not found" "and it is said on stderr"
rec vnosym ref | jq -c '.build.reference.symbol = null' > "$T_TMP/in"
run "$KV" --no-time < "$T_TMP/in"
is "$T_STATUS:$(jq -r '[.errors[0].code, .verify] | map(tostring) | join(" ")' "$T_TMP/out")" \
    "1:no-symbol null" "a reference without a kernel symbol is an error, not 'not runnable'"
{ rec vs1 ref; rec vs2 holes; rec vs3 memerr; } > "$T_TMP/in"
"$KV" --no-time < "$T_TMP/in" 2> /dev/null | test/validate > /dev/null 2>&1
ok $? "verdicts validate against schemas/"

# --- no GPU: every record gets no-device, the run ends cleanly
{ rec nd1 nodev good; rec nd2 ref good; rec nd3 ref good; } > "$T_TMP/in"
FAKE_LOG=$T_TMP/ndlog run "$KV" --no-time < "$T_TMP/in"
is "$T_STATUS:$(jq -r '.errors[0].code' "$T_TMP/out" | sort -u):$(wc -l < "$T_TMP/out" | tr -d ' ')" \
    "1:no-device:3" "no device: exit 1, every record carries no-device"
test/validate "$T_TMP/out" > /dev/null 2>&1
ok $? "no-device records validate against schemas/"
is "$(grep -c . "$T_TMP/ndlog")" 1 "no device: detected once, nothing else run"
like "$(cat "$T_TMP/err")" 'no GPU: kw_init\(\): CUDA_ERROR_NO_DEVICE' \
    "no device: the driver's reason said"

# --- --gpus: two workers, every record exactly once
: > "$T_TMP/in"
for i in 1 2 3 4 5 6 7; do rec "g$i" ref good >> "$T_TMP/in"; done
FAKE_LOG=$T_TMP/glog run "$KV" --no-time --gpus 3,5 < "$T_TMP/in"
is "$T_STATUS" 0 "--gpus: exit 0"
is "$(jq -r .id "$T_TMP/out" | sort | tr '\n' ' ')" "g1 g2 g3 g4 g5 g6 g7 " \
    "--gpus: every record exactly once"
is "$(awk '{ print $2 }' "$T_TMP/glog" | sort -u | tr '\n' ' ')" "3 5 " \
    "--gpus: CUDA_VISIBLE_DEVICES set per worker"
is "$(jq -r '.verify.gpu' "$T_TMP/out" | sort -u | tr '\n' ' ')" "3 5 " \
    "--gpus: each record says which GPU ran it"
rec g1 ref good > "$T_TMP/one"
FAKE_LOG=$T_TMP/glog1 run "$KV" --no-time < "$T_TMP/one"
is "$(awk '{ print $2 }' "$T_TMP/glog1" | sort -u)" "-" \
    "without --gpus the environment is left alone"

# --- -j: workers per GPU share the queue; with --gpus, jobs on each GPU
: > "$T_TMP/in"
for i in 1 2 3 4 5 6; do rec "j$i" ref good >> "$T_TMP/in"; done
mkdir -p "$T_TMP/busy1" "$T_TMP/busy3"
FAKE_BUSY=$T_TMP/busy1 run "$KV" --no-time --no-memcheck < "$T_TMP/in"
is "$T_STATUS:$(awk '{ print $2 }' "$T_TMP/busy1/seen" | sort -n | tail -1)" "0:1" \
    "-j 1 (the default): one run at a time"
FAKE_BUSY=$T_TMP/busy3 run "$KV" --no-time --no-memcheck -j 3 < "$T_TMP/in"
is "$T_STATUS" 0 "-j 3: exit 0"
is "$(jq -r .id "$T_TMP/out" | sort | tr '\n' ' ')" "j1 j2 j3 j4 j5 j6 " \
    "-j 3: every record exactly once"
[ "$(awk '{ print $2 }' "$T_TMP/busy3/seen" | sort -n | tail -1)" -ge 2 ]
ok $? "-j 3: runs of several records at once"
# timed runs (--time 7) have the GPU alone, the checks (3 reps) share it
mkdir -p "$T_TMP/busyt"
FAKE_BUSY=$T_TMP/busyt run "$KV" --time 7 --noise-floor 0.001 --no-memcheck -j 3 < "$T_TMP/in"
is "$T_STATUS:$(jq -r .id "$T_TMP/out" | sort -u | wc -l | tr -d ' ')" "0:6" \
    "-j 3 with timing: every record once"
is "$(awk '$1 == 7 { print $2 }' "$T_TMP/busyt/seen" | sort -u | tr '\n' ' ')" "1 " \
    "-j 3: a timed run has the GPU alone"
[ "$(awk '$1 == 7' "$T_TMP/busyt/seen" | wc -l)" -ge 6 ] &&
    [ "$(awk '$1 != 7 { print $2 }' "$T_TMP/busyt/seen" | sort -n | tail -1)" -ge 2 ]
ok $? "-j 3: every record timed, the checks still side by side"
# a record's timing rounds hold the GPU from the first to the last: its
# timed runs follow one another, no other run between them
# (runs of timed lines in the log, each a multiple of 4 rounds x 2)
is "$(awk '{ t = $1 == 7 } t { n++ } !t && n { if (n % 8) bad++; n = 0 }
    END { if (n % 8) bad++; print bad + 0 }' "$T_TMP/busyt/seen")" 0 \
    "-j 3: a record's timing rounds run back to back"
FAKE_LOG=$T_TMP/jlog run "$KV" --no-time -j 2 --gpus 3,5 < "$T_TMP/in"
is "$T_STATUS:$(jq -r .id "$T_TMP/out" | sort -u | wc -l | tr -d ' ')" "0:6" \
    "-j 2 --gpus 3,5: every record once"
is "$(jq -r '.verify.gpu' "$T_TMP/out" | sort -u | tr '\n' ' ')" "3 5 " \
    "-j 2 --gpus 3,5: both GPUs used"
rec j1 ref good > "$T_TMP/one"
run "$KV" -j 0 < "$T_TMP/one"
is "$T_STATUS" 2 "-j 0: usage error"
run "$KV" -j 200 --gpus 0,1 < "$T_TMP/one"
is "$T_STATUS:$(grep -c '400 workers, at most 256' "$T_TMP/err")" "2:1" \
    "more than 256 workers in all: usage error, said"

# --- a CPU reference compiled into the harness checks the golden
orec() {
	rec "$1" "$2" | jq -c '.wrap.harness.oracle = true'
}
orec vodis far > "$T_TMP/in"
run "$KV" --no-time < "$T_TMP/in"
is "$(jq -r '.verify.verified.reason' "$T_TMP/out")" oracle \
    "verdict: the CPU reference disagreeing, not verified"
orec oagree good > "$T_TMP/in"
run "$KV" --no-time < "$T_TMP/in"
is "$T_STATUS:$(jq -c '.verify.oracle | [.status, .cases, (.mismatches | length)]' "$T_TMP/out")" \
    '0:["agree",3,0]' "oracle: a reference kernel that agrees with its CPU reference on every case"
is "$(jq -c '[.verify.runs[] | select(.role == "oracle") | .case]' "$T_TMP/out")" \
    "[null]" "oracle: every case in one CPU run"
orec odis far > "$T_TMP/in"
run "$KV" --no-time < "$T_TMP/in"
is "$T_STATUS:$(jq -c '.verify.oracle | [.status, (.mismatches | map([.case, .output, .reason, .mismatches, .first]))]' "$T_TMP/out")" \
    '0:["disagree",[[0,"y","values",1,7],[1,"y","values",1,7],[2,"y","values",1,7]]]' \
    "oracle: a wrong reference kernel is caught, element by element, without failing the record"
like "$(cat "$T_TMP/err")" "odis: the CPU reference disagrees with the reference kernel" \
    "oracle: a disagreement is said on stderr"
orec ohang good > "$T_TMP/in"
FAKE_ORACLE=hang run "$KV" --no-time --timeout 2 < "$T_TMP/in"
is "$T_STATUS:$(jq -c '.verify.oracle | [.status, .cases, .fault.kind]' "$T_TMP/out"):$(jq -r .verify.golden[0].case "$T_TMP/out")" \
    '0:["error",0,"timeout"]:0' "oracle: a CPU reference that hangs is stopped and reported; the golden stands"
orec ocrash good > "$T_TMP/in"
FAKE_ORACLE=crash run "$KV" --no-time < "$T_TMP/in"
is "$(jq -c '.verify.oracle | [.status, .fault.kind]' "$T_TMP/out")" \
    '["error","crash"]' "oracle: a CPU reference that crashes is reported"
{ orec oagree good; orec odis far; } > "$T_TMP/in"
"$KV" --no-time < "$T_TMP/in" 2> /dev/null | jq -c "del(.wrap)" |
    test/validate > /dev/null 2>&1
ok $? "oracle sections validate against schemas/"
rec onone good > "$T_TMP/in"
run "$KV" --no-time < "$T_TMP/in"
is "$(jq -c '[.verify.oracle, ([.verify.runs[] | select(.role == "oracle")] | length)]' "$T_TMP/out")" \
    "[null,0]" "oracle: none run without one compiled in"

# --- a harness built before --all: one process per case, same verdicts
rec old ref good > "$T_TMP/in"
FAKE_OLD=1 run "$KV" --no-time < "$T_TMP/in"
is "$T_STATUS:$(jq -c '.verify | [.cases, .deterministic, .pass_exe, (.golden | length),
    ([.runs[] | select(.role == "reference" and .mode == "check")] | length)]' "$T_TMP/out")" \
    '0:[3,true,true,3,1]' "a harness without --all is run case by case, with the same verdicts"
rec oldcrash crash12 > "$T_TMP/in"
FAKE_OLD=1 run "$KV" --no-time < "$T_TMP/in"
is "$(jq -c '.verify.fault | [.case, .kind]' "$T_TMP/out")" '[2,"crash"]' \
    "a harness without --all: the fault is still its case's"
rec oldcrash1 crash > "$T_TMP/in"
FAKE_OLD=1 run "$KV" --no-time < "$T_TMP/in"
is "$(jq -c '.verify | [[.left_out[].case], [.golden[].case], .verified.value]' "$T_TMP/out")" '[[1],[0,2],true]' \
    "a harness without --all: a case left out is not run either"

# --- the mutation score: build.mutants through the same cases
mut() {
	k=$(entry mutant "$2")
	jq -cn --arg id "$1" --arg k "$k" --argjson eq "${3:-false}" '{id: $id,
	    ok: true, artifact: $k, file: "module.cubin", symbol: "_Z4fakev",
	    runnable: true, equivalent: $eq}'
}
{
	mut m1 far; mut m2 crash; mut m3 hang; mut m4 good; mut m5 ref true
	echo '{"id":"m6","ok":false,"error":"expected a ;"}'
	mut m7 timedfar; mut m8 "good memerr"; mut m9 "good memnm"
	mut m10 "good memsm"
} | jq -cs '{built: 9, stillborn: 1, equivalent: 1, list: .}' > "$T_TMP/bm"
rec mscore ref | jq -c --slurpfile bm "$T_TMP/bm" '.build.mutants = $bm[0] |
    .wrap.spec.cases = [{name: "typical"}, {name: "smallest"}, {name: "non_multiple"}] |
    .wrap.mutants = {budget: 10, sites: 10, list: [range(1; 11) |
    {id: "m\(.)", op: "swap-arith", offset: 0, length: 1, replacement: "-",
    line: ., diff: "@@ line \(.) @@\n-a + b\n+a - b\n"}]}' > "$T_TMP/in"
t0=$(date +%s)
FAKE_SAN_LOG=$T_TMP/msan run "$KV" --no-time --mutant-timeout 1 < "$T_TMP/in"
t1=$(date +%s)
jq -c '.verify' "$T_TMP/out" > "$T_TMP/v"
is "$(v '.mutation | [.tried, .killed, .survived, .equivalent, .stillborn, (.score * 1e4 | round)] | map(tostring) | join(" ")')" \
    "8 7 1 1 1 8750" \
    "score: killed over tried; equivalent and stillborn mutants not counted"
is "$(v '[.mutation.mutants[] | "\(.id):\(.status):\(.by // "-")"] | join(" ")')" \
    "m1:killed:mismatch m2:killed:fault m3:killed:timeout m4:survived:- m5:equivalent:- m6:stillborn:- m7:killed:timed m8:killed:memcheck m9:killed:memcheck m10:killed:memcheck" \
    "each mutant's fate: wrong values, a crash, a hang, timed repetitions out of band, memcheck's errors all kill"
is "$(v '[.mutation.mutants[7,8,9] | "\(.memcheck):\(.case)"] | join(" | ")')" \
    "Invalid __global__ write of size 4 bytes:0 | Invalid __global__ write of size 4 bytes:2 | Invalid __global__ write of size 4 bytes:1" \
    "memcheck kills a mutant with right outputs on case 0, on non_multiple or on smallest (a guard one off reads past a buffer of one), and says why"
is "$(grep -- '--tool memcheck' "$T_TMP/msan" | grep -o -- '--case [0-9]' | tr '\n' ' ')" \
    "--case 0 --case 0 --case 2 --case 2 --case 1 --case 1 --case 0 --case 0 --case 2 --case 0 --case 2 --case 1 " \
    "memcheck runs: the reference on case 0, then per survivor of the values case 0, non_multiple and smallest (the reference there once)"
is "$(v '.mutation.survivors | map("\(.id) \(.line) \(.diff)") | join("")')" \
    "$(printf 'm4 4 @@ line 4 @@\n-a + b\n+a - b\n')" \
    "a survivor carries its diff from wrap.mutants"
ok "$([ $((t1 - t0)) -lt 30 ] && echo 0 || echo 1)" \
    "--mutant-timeout bounds a hanging mutant ($((t1 - t0)) s)"
if python3 -c 'import jsonschema' 2> /dev/null; then
	jq -c 'del(.wrap)' "$T_TMP/out" | python3 test/validate > "$T_TMP/val" 2> /dev/null
	is "$?:$(cat "$T_TMP/val")" "0:" "verify.mutation validates against schemas/"
fi
# racecheck: a survivor whose shared-memory accesses race where the
# reference's do not is killed (a dropped barrier the schedule hid)
{ mut r1 good; mut r2 "good racy"; } |
    jq -cs '{built: 2, stillborn: 0, equivalent: 0, list: .}' > "$T_TMP/bmr"
rec mrace ref | jq -c --slurpfile bm "$T_TMP/bmr" '.build.mutants = $bm[0]' > "$T_TMP/inr"
FAKE_SAN_LOG=$T_TMP/rsan run "$KV" --no-time --mutant-timeout 1 < "$T_TMP/inr"
jq -c '.verify' "$T_TMP/out" > "$T_TMP/v"
is "$(v '[.mutation.mutants[] | "\(.id):\(.status):\(.by // "-"):\(.racecheck // "-")"] | join(" | ")')" \
    "r1:survived:-:- | r2:killed:racecheck:Error: Race reported between Write access at 0x20 in fake(float *)" \
    "racecheck kills a survivor with right outputs whose shared accesses race, and says why"
is "$(grep -c -- '--tool racecheck' "$T_TMP/rsan")" 3 \
    "racecheck runs: the reference on case 0 once, then each survivor"
# a barrier dropped inside a loop only kwrap's loop_entry case runs: the
# race shows on that case alone
{ mut r1 good; mut r2 "good raceloop"; } |
    jq -cs '{built: 2, stillborn: 0, equivalent: 0, list: .}' > "$T_TMP/bml"
rec mrace4 ref | jq -c --slurpfile bm "$T_TMP/bml" '.build.mutants = $bm[0] |
    .wrap.spec.cases = [{name: "typical"}, {name: "smallest"}, {name: "loop_entry"}]' \
    > "$T_TMP/inl"
FAKE_SAN_LOG=$T_TMP/lsan run "$KV" --no-time --mutant-timeout 1 < "$T_TMP/inl"
is "$(jq -r '[.verify.mutation.mutants[] | "\(.id):\(.status):\(.by // "-"):\(.case // "-")"] | join(" ")' "$T_TMP/out")" \
    "r1:survived:-:- r2:killed:racecheck:2" \
    "racecheck on the loop_entry case kills a barrier dropped in a loop case 0 never runs"
is "$(grep -- '--tool racecheck' "$T_TMP/lsan" | grep -o -- '--case [0-9]' | tr '\n' ' ')" \
    "--case 0 --case 0 --case 2 --case 2 --case 0 --case 2 " \
    "racecheck runs: each survivor on case 0 and loop_entry, the reference on each once, first"
is "$(grep -- '--tool memcheck' "$T_TMP/lsan" | grep -c -- '--case 2')" 3 \
    "memcheck runs on the loop_entry case too: the reference once, each survivor"
rec mrace2 "ref racy" | jq -c --slurpfile bm "$T_TMP/bmr" '.build.mutants = $bm[0]' > "$T_TMP/inr"
run "$KV" --no-time --mutant-timeout 1 < "$T_TMP/inr"
is "$(jq -r '[.verify.mutation.mutants[] | "\(.id):\(.status)"] | join(" ")' "$T_TMP/out")" \
    "r1:survived r2:survived" "a reference that races itself: racecheck kills nothing"
is "$(jq -c '.verify.mutation.racecheck_reference' "$T_TMP/out")" '{"errors":1,"warnings":0}' \
    "and the record says why: the reference's own hazard"
run "$KV" --no-time --no-memcheck --mutant-timeout 1 < "$T_TMP/inr"
is "$(jq -r '[.verify.mutation.mutants[] | "\(.id):\(.status)"] | join(" ")' "$T_TMP/out")" \
    "r1:survived r2:survived" "--no-memcheck: no sanitizer kills"
# hazards of warning severity count too, beyond the reference's own
{ mut r1 "good warn1"; mut r2 "good warn2"; } |
    jq -cs '{built: 2, stillborn: 0, equivalent: 0, list: .}' > "$T_TMP/bmw"
rec mrace3 "ref warn1" | jq -c --slurpfile bm "$T_TMP/bmw" '.build.mutants = $bm[0]' > "$T_TMP/inw"
run "$KV" --no-time --mutant-timeout 1 < "$T_TMP/inw"
is "$(jq -r '[.verify.mutation.mutants[] | "\(.id):\(.status):\(.by // "-"):\(.racecheck // "-")"] | join(" | ")' "$T_TMP/out")" \
    "r1:survived:-:- | r2:killed:racecheck:Warning: Race reported between Write access at 0x24 in fake(float *)" \
    "racecheck kills a mutant with more hazards of warning severity than the reference, not one with as many"
is "$(jq -c '.verify.mutation.racecheck_reference' "$T_TMP/out")" '{"errors":0,"warnings":1}' \
    "the reference's racecheck, which the survivors are measured against, is in the record"
run "$KV" --no-time --sanitize --no-mutants < "$T_TMP/inw"
is "$(jq -c '.verify.sanitize.racecheck | [.errors, .warnings]' "$T_TMP/out")" "[0,1]" \
    "--sanitize: racecheck's errors and warnings apart"
# kwrap's proofs of equivalence under the spec: a survivor with one is
# left out of the denominator; a killed one contradicts its proof
jq -c '.wrap.mutants.list |= map(if .id == "m4" or .id == "m1" then
    .equivalent = {under: "spec", rule: "same-value", cases: 3,
    reason: "i >= n and i > n are both 0 in every case"} else . end)' \
    "$T_TMP/in" > "$T_TMP/ineq"
run "$KV" --no-time --mutant-timeout 1 < "$T_TMP/ineq"
jq -c '.verify' "$T_TMP/out" > "$T_TMP/v"
is "$(v '.mutation | [.tried, .killed, .survived, .spec_equivalent, .contradictions, (.score * 1e4 | round)] | map(tostring) | join(" ")')" \
    "8 7 0 1 1 10000" \
    "a proven-equivalent survivor leaves the denominator: 7 killed of 8 tried - 1 equivalent"
is "$(v '[.mutation.mutants[0,3] | "\(.id):\(.status):\(.contradiction // "-")"] | join(" ")')" \
    "m1:killed:true m4:spec-equivalent:-" \
    "the equivalent survivor has its own status; a killed one with a proof is a contradiction"
is "$(v '.mutation | [.survivors, (.equivalents | map("\(.id) \(.rule) \(.reason)"))] | tostring')" \
    '[[],["m4 same-value i >= n and i > n are both 0 in every case"]]' \
    "equivalents are listed apart from survivors, with kwrap's reason"
like "$(cat "$T_TMP/err")" "mutant m1: killed \(mismatch\), but kwrap proved it equivalent" \
    "a contradiction is said on stderr"
if python3 -c 'import jsonschema' 2> /dev/null; then
	jq -c 'del(.wrap)' "$T_TMP/out" | python3 test/validate > "$T_TMP/val" 2> /dev/null
	is "$?:$(cat "$T_TMP/val")" "0:" "verify.mutation with equivalents validates against schemas/"
fi
jq -c '.fit = {status: "fitted", args: ["--set", "n=3"]}' "$T_TMP/ineq" > "$T_TMP/infit"
run "$KV" --no-time --mutant-timeout 1 < "$T_TMP/infit"
jq -c '.verify' "$T_TMP/out" > "$T_TMP/v"
is "$(v '.mutation | [.survived, .spec_equivalent, .contradictions, (.score * 1e4 | round), (.proofs_unused != null)] | map(tostring) | join(" ")')" \
    "1 0 0 8750 true" \
    "a fit that sets a scalar runs cases the proofs did not cover: they are not used"
run "$KV" --no-time --no-mutants < "$T_TMP/in"
is "$(jq -c '.verify.mutation' "$T_TMP/out")" null "--no-mutants: none run"
rec mnondet nondet | jq -c --slurpfile bm "$T_TMP/bm" '.build.mutants = $bm[0]' > "$T_TMP/in"
run "$KV" --no-time --mutant-timeout 1 < "$T_TMP/in"
is "$(jq -c '.verify.mutation' "$T_TMP/out")" null \
    "an unverified golden scores no mutants"

# a nondeterministic golden (racelate: y[0] moves between its runs, y[1]
# where it is run again): a mutant told apart only where the reference,
# run again, moves too is not killed; one that misses where it holds is
{
	mut r1 racelatec; mut r2 bigoff; mut r3 racefar
} | jq -cs '{built: 3, stillborn: 0, equivalent: 0, list: .}' > "$T_TMP/bmr"
rec mrace racelate | jq -c --slurpfile bm "$T_TMP/bmr" '.build.mutants = $bm[0]' > "$T_TMP/in"
run "$KV" --no-time --mutant-timeout 1 --no-memcheck < "$T_TMP/in"
jq -c '.verify' "$T_TMP/out" > "$T_TMP/v"
is "$(v '[.deterministic, .mutation.tried, .mutation.killed, .mutation.raced, (.mutation.mutants[] | "\(.id):\(.status):\(.by // "-"):\(.raced // "-")")] | map(tostring) | join(" ")')" \
    "false 3 1 2 r1:survived:-:0 r2:killed:mismatch:- r3:survived:-:0" \
    "mutants told apart where the reference, run again, moves too (r1) or where the golden saw it race (r3) survive, raced; one 10 off where the reference holds is killed"
is "$(v '[.runs[] | select(.mode == "recheck")] | length')" 1 \
    "the reference is run again once for the record, not once a mutant"
rec mrace0 ref | jq -c --slurpfile bm "$T_TMP/bmr" '.build.mutants = $bm[0]' > "$T_TMP/in"
run "$KV" --no-time --mutant-timeout 1 --no-memcheck < "$T_TMP/in"
is "$(jq -c '.verify.mutation | [.killed, .raced]' "$T_TMP/out")" '[3,null]' \
    "near miss: against a deterministic golden all three are killed, and no race is counted"

# --- a golden an earlier run computed is taken again (reuse.c)
# cand FILE WORD: FILE's records with WORD's module as their candidate
cand() {
	jq -c --arg c "$(entry candidate "$2")" \
	    '.build.candidate = (.build.reference | .artifact = $c)' "$1"
}
reverify() {
	run "$KV" "$@" < "$T_TMP/in"
	jq -c '.verify' "$T_TMP/out" > "$T_TMP/v"
}
verify reuse rampmid good --no-time
cp "$T_TMP/out" "$T_TMP/gold1"
is "$(v '[.golden_reused, (.golden_key | length), (.golden[0].inputs | map(.name) | join(",")), (.golden[] | .ms > 0)] | map(tostring) | join(" ")')" \
    "false 64 x true true true" \
    "a computed golden: its key, and per case its inputs' checksums and time"
is "$(v '.stages | [(keys_unsorted | join(",")), (map(.seconds >= 0 and .gpu_wait >= 0) | all)] | map(tostring) | join(" ")')" \
    "golden,sanitize,verdict,candidate,mutation true" \
    "each stage's wall time and GPU wait, in the order they ran"
cand "$T_TMP/gold1" far > "$T_TMP/in"
reverify --no-time
is "$(v '[.golden_reused, .pass_exe, (.candidate.reasons | join(",")), ([.runs[].role] | unique | join(","))] | map(tostring) | join(" ")')" \
    "true false mismatch candidate,reference" \
    "a new candidate against the kept golden: the candidate runs (the reference once more, its values differing), and a wrong one fails"
is "$(jq -r -n '[input.verify, input.verify] | [.[0].verified.value, .[0].cases, .[0].deterministic, (.[0].golden | length), .[0].golden_key == .[1].golden_key] | map(tostring) | join(" ")' "$T_TMP/out" "$T_TMP/gold1")" \
    "true 3 true 3 true" "the golden, its verdict and its key are kept"
cand "$T_TMP/gold1" good > "$T_TMP/in"
reverify --time 5
is "$(v '[.golden_reused, .pass_exe, .timing.speedup, .timing.case, ([.runs[] | "\(.role):\(.mode)"] | unique | join(","))] | map(tostring) | join(" ")')" \
    "true true 1.2 1 candidate:check,candidate:time,reference:time" \
    "a right one passes, timed against the reference on the case the golden's times choose"
is "$(v '.stages | keys_unsorted | join(",")')" "reuse,candidate,timing" \
    "a kept golden: the stages are the reuse, the candidate and the timing"
run test/validate "$T_TMP/out"
ok "$T_STATUS" "a record with a kept golden validates against schemas/"
cand "$T_TMP/gold1" shifted > "$T_TMP/in"
reverify --no-time
is "$(v '[.golden_reused, .pass_exe, (.candidate.reasons | join(","))] | map(tostring) | join(" ")')" \
    "true false inputs-differ,mismatch" \
    "other inputs than the reference's are caught by their checksums"
verify reuseru readsout good --no-time
cand "$T_TMP/out" good > "$T_TMP/in"
reverify --no-time
is "$(v '[.golden_reused, .reads_unwritten, .verified.reason] | map(tostring) | join(" ")')" \
    "true true reads-unwritten" \
    "a kept golden whose outputs follow the sentinel keeps reads_unwritten with its verdict"
cand "$T_TMP/gold1" good > "$T_TMP/in"
reverify --no-time --no-reuse
is "$(v '[.golden_reused, ([.runs[].role] | unique | join(","))] | map(tostring) | join(" ")')" \
    "false candidate,harness,reference" "--no-reuse: the golden is computed again"
reverify --no-time --timeout 30
is "$(v '.golden_reused')" false "another --timeout: another key, computed again"
jq -c '.build.reference.artifact = $k' --arg k "$(entry reference far)" \
    "$T_TMP/in" > "$T_TMP/in2"
run "$KV" --no-time < "$T_TMP/in2"
is "$(jq -c '[.verify.golden_reused, .verify.pass_exe]' "$T_TMP/out")" "[false,false]" \
    "another reference module: computed again, and the candidate judged against it"
h=$(jq -r '.verify.golden[1].outputs[0].hash' "$T_TMP/gold1")
hb=$W/blobs/$(echo "$h" | cut -c1-2)/$h
cp "$hb" "$T_TMP/blob"
printf 'x' >> "$hb"
reverify --no-time
is "$(v '[.golden_reused, .pass_exe] | map(tostring) | join(" ")')" "false true" \
    "a golden blob changed in the work directory: computed again"
rm -f "$hb"
reverify --no-time
is "$(v '.golden_reused')" false "a golden blob missing: computed again"
verify reusejb jitbig jitbig --no-time
cp "$T_TMP/out" "$T_TMP/gold2"
cand "$T_TMP/gold2" jitbigfar > "$T_TMP/in"
reverify --no-time
is "$(v '[.golden_reused, .pass_exe, (.candidate.reasons | join(","))] | map(tostring) | join(" ")')" \
    "true false timed-outputs-differ,mismatch" \
    "a kept golden keeps each case's band: 0.05 off where values are small fails"
cand "$T_TMP/gold2" jitbig > "$T_TMP/in"
reverify --no-time
is "$(v '[.golden_reused, .pass_exe] | map(tostring) | join(" ")')" "true true" \
    "and the reference's own spread passes"
# a split output's map comes back too: its stable elements keep their band
verify reusesp racebig racebig --no-time
cp "$T_TMP/out" "$T_TMP/gold4"
cand "$T_TMP/gold4" bigoff > "$T_TMP/in"
reverify --no-time
is "$(v '[.golden_reused, .pass_exe, (.candidate.reasons | join(","))] | map(tostring) | join(" ")')" \
    "true false mismatch" "a kept split golden: y[3] 10 off still fails"
# a masked output's map comes back from the blob store with the golden
verify reusemk jitint jitint --no-time
cp "$T_TMP/out" "$T_TMP/gold3"
cand "$T_TMP/gold3" intoff > "$T_TMP/in"
reverify --no-time
is "$(v '[.golden_reused, .pass_exe, .candidate.cases[0].outputs[1].not_compared] | map(tostring) | join(" ")')" \
    "true true 1" "a kept masked golden: the masked element is still not compared"
cand "$T_TMP/gold3" intoff2 > "$T_TMP/in"
reverify --no-time
is "$(v '[.golden_reused, .pass_exe, (.candidate.reasons | join(","))] | map(tostring) | join(" ")')" \
    "true false mismatch" "and the others are: k[2] off fails"
h=$(jq -r '.verify.golden[0].outputs[1].unstable_hash' "$T_TMP/gold3")
rm -f "$W/blobs/$(echo "$h" | cut -c1-2)/$h"
cand "$T_TMP/gold3" intoff > "$T_TMP/in"
reverify --no-time
is "$(v '[.golden_reused, .pass_exe, .tolerance.outputs[1].masked] | map(tostring) | join(" ")')" \
    "false true true" "the map's blob missing: the golden is computed again, masked again"

# --- records kverify cannot run pass through
printf '%s\n' '{"id":"nb"}' 'not json' > "$T_TMP/in"
run "$KV" < "$T_TMP/in"
is "$T_STATUS:$(jq -r '.errors[0].code' "$T_TMP/out" | tr '\n' ' ')" \
    "1:not-built invalid-json " "unbuilt record and bad line: errors, lines kept"
# a whole-number literal past 64 bits is a real (jq 1.6 writes a large
# real, a float spread of 7.25e24, as its digits): read, not refused;
# integers that fit, and digits in strings, keep every digit
printf '%s\n' '{"id":"big","s":7253554917687775000000000,"m":-9223372036854775809,"i":1234567890123456789,"t":"92233720368547758070"}' > "$T_TMP/in"
run "$KV" < "$T_TMP/in"
is "$(jq -r '.errors[0].code' "$T_TMP/out")" not-built \
    "numbers past 64 bits: the line is read"
is "$(tr ',' '\n' < "$T_TMP/out" | grep -E '^"(s|m|i|t)":')" \
    "$(printf '%s\n' '"s":7.253554917687775e24' '"m":-9.2233720368547758e18' \
    '"i":1234567890123456789' '"t":"92233720368547758070"')" \
    "as reals, an integer that fits and digits in a string as written"

# --- usage
run "$KV" --time 0
is "$T_STATUS" 2 "--time 0: usage error"
run "$KV" --gpus 0,0
is "$T_STATUS" 2 "--gpus with a repeated GPU: usage error"
run "$KV" --time 3 --no-time
is "$T_STATUS" 2 "--time with --no-time: usage error"
"$KV" --no-time < "$T_TMP/one" > /dev/full 2> /dev/null
is "$?" 3 "writing to a full disk fails loudly"
done_testing
