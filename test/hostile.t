#!/bin/sh
# Records and candidates as hostile input (issue 17): each hole the audit
# found, one section, each a test that failed before its fix.
. "$(dirname "$0")/lib.sh"

command -v jq > /dev/null || skip_all "jq not installed (make deps)"
long=$(awk 'BEGIN { while (n++ < 600) printf "s" }')

# --- kreport: an errors[].stage of 600 bytes (a 512-byte key buffer once
# cut the separator away and crashed every format)
if have_tool kreport; then
	printf '{"id":"a::k","errors":[{"stage":"%s","code":"c\\tx","message":"m"}]}\n' \
	    "$long" > "$T_TMP/long.ndjson"
	for f in md json html; do
		run "$(tool kreport)" --format "$f" "$T_TMP/long.ndjson"
		is "$T_STATUS" 0 "kreport --format $f: a 600-byte stage is reported"
	done
	run "$(tool kreport)" --format json "$T_TMP/long.ndjson"
	is "$(jq -r '.errors[0] | "\(.stage | length) \(.code)"' "$T_TMP/out")" \
	    "600 c	x" "kreport: the long stage and the code with a tab kept whole"

	# --- kreport --debug-dir: two records with one id, two without one
	printf '%s\n' '{"id":"x::k","errors":[{"stage":"s","code":"one","message":"m"}]}' \
	    '{"id":"x::k","errors":[{"stage":"s","code":"two","message":"m"}]}' \
	    '{"errors":[{"stage":"s","code":"three","message":"m"}]}' \
	    '{"errors":[{"stage":"s","code":"four","message":"m"}]}' \
	    > "$T_TMP/dup.ndjson"
	mkdir "$T_TMP/dbg"
	run "$(tool kreport)" --debug-dir "$T_TMP/dbg" "$T_TMP/dup.ndjson"
	is "$(ls "$T_TMP/dbg" | wc -l | tr -d ' ')" 4 \
	    "kreport --debug-dir: one folder per record, ids repeated or missing"
	is "$(cat "$T_TMP"/dbg/*/record.ndjson | jq -r '.errors[0].code' | sort | tr '\n' ' ')" \
	    "four one three two " "kreport --debug-dir: no record's folder overwritten"
else
	skip "kreport" "kreport not built"
fi

# --- kbuild: a failed write ends the run; the spent window is neither built
# nor written again (it once was, from freed records: ASan's
# heap-use-after-free, and "no slice section" messages)
if have_tool kbuild; then
	run "$(tool kbuild)" --check --work "$T_TMP/w" < examples/kwrap.ndjson
	T_STATUS=0
	"$(tool kbuild)" --check --work "$T_TMP/w" < examples/kwrap.ndjson \
	    > /dev/full 2> "$T_TMP/err" || T_STATUS=$?
	is "$T_STATUS" 3 "kbuild > /dev/full: exit 3"
	is "$(grep -c 'no slice' "$T_TMP/err")" 0 \
	    "kbuild > /dev/full: no record handled after the failed write"
else
	skip "kbuild /dev/full" "kbuild not built"
fi

# --- SIGTERM while a large record is being written: the line is finished,
# then the run ends by the signal (it once left a partial line)
if have_tool kwrap; then
	awk 'BEGIN { s = "x"; while (length(s) < 8388608) s = s s;
	    for (i = 0; i < 3; i++) printf "{\"id\":\"big%d\",\"pad\":\"%s\"}\n", i, s }' \
	    > "$T_TMP/big.ndjson"
	# (a background job of sh ignores SIGINT, which then stays ignored)
	# a SIGHUP the caller ignores (nohup) stays ignored, as kforge
	# documents: then there is nothing to test for it
	hup_ignored=0
	ign=$(awk '/^SigIgn:/ { print $2 }' /proc/$$/status 2> /dev/null)
	case $ign in *[13579bBdDfF]) hup_ignored=1 ;; esac
	for sig in TERM HUP; do
		if [ "$sig" = HUP ] && [ "$hup_ignored" = 1 ]; then
			skip "kwrap, SIGHUP" "SIGHUP is ignored by this test's caller (nohup)"
			continue
		fi
		rm -f "$T_TMP/pid" "$T_TMP/sig.out"
		# the reader waits, so kwrap blocks in the middle of a line
		( "$(tool kwrap)" < "$T_TMP/big.ndjson" 2> /dev/null &
		  echo $! > "$T_TMP/pid"; wait $!; echo $? > "$T_TMP/st" ) 2> /dev/null |
		    { sleep 3; cat > "$T_TMP/sig.out"; } &
		i=0
		while [ ! -s "$T_TMP/pid" ] && [ $i -lt 100 ]; do
			sleep 0.1; i=$((i + 1)); done
		sleep 1
		kill -s "$sig" "$(cat "$T_TMP/pid")"
		wait
		# (empty when the signal came before the first write)
		[ ! -s "$T_TMP/sig.out" ] ||
		    [ "$(tail -c 1 "$T_TMP/sig.out" | od -An -c | tr -d ' ')" = '\n' ]
		ok $? "kwrap, SIG$sig while writing: the last line is whole"
		jq -c .id "$T_TMP/sig.out" > /dev/null 2>&1
		ok $? "kwrap, SIG$sig while writing: every line is a record"
		[ "$(cat "$T_TMP/st")" -gt 128 ]
		ok $? "kwrap, SIG$sig: ends by the signal (status $(cat "$T_TMP/st"))"
	done
else
	skip "signals" "kwrap not built"
fi

# --- kbuild: what a candidate's code may read, and how much memory and
# disk its compile may take
if have_tool kbuild && command -v nvcc > /dev/null; then
	KB=$(tool kbuild)
	head -n 1 examples/kwrap.ndjson | jq -c '{id, scan,
	    slice: {code: "__global__ void k(float *x) { x[0] = 1; }\n"}}' \
	    > "$T_TMP/base.ndjson"
	cand() {	# cand NAME CODE: a record with that candidate
		jq -c --arg c "$2" '.candidate = {code: $c}' "$T_TMP/base.ndjson" \
		    > "$T_TMP/$1.ndjson"
	}
	k='__global__ void k(float *x) {}'
	cand passwd "#include \"/etc/passwd\"
$k"
	cand zero "#include </dev/zero>
$k"
	cand parent "#include \"../../../../../../etc/passwd\"
$k"
	cand hasinc "#if __has_include(\"/etc/shadow\")
#endif
$k"
	cand spliced "#inc\\
lude \"/etc/passwd\"
$k"
	cand fine "#include <cuda_fp16.h>
// #include \"/etc/passwd\" in a comment is no include
const char *s = \"#include </etc/passwd>\";
$k"
	for c in passwd zero parent hasinc spliced; do
		run "$KB" --check --work "$T_TMP/w" < "$T_TMP/$c.ndjson"
		is "$T_STATUS:$(jq -r '.errors[0].code' "$T_TMP/out")" 1:bad-include \
		    "kbuild: candidate $c: refused before any compiler starts"
		! grep -q 'root:' "$T_TMP/out" "$T_TMP/err"
		ok $? "kbuild: candidate $c: nothing of the file in the output"
	done
	like "$(cat "$T_TMP/err")" 'candidate: line 1: #include of /etc/passwd, a path outside the toolkit' \
	    "kbuild: the refusal names the line and the path"
	run "$KB" --check --work "$T_TMP/w" < "$T_TMP/fine.ndjson"
	is "$T_STATUS:$(jq -r '.build.candidate.ok' "$T_TMP/out")" 0:true \
	    "kbuild: a toolkit header, and include text in a comment and a string, build"
	! grep -rqs 'root:' "$T_TMP/w"
	ok $? "kbuild: nothing of /etc/passwd in the work directory (cache, logs)"

	# a path the preprocessor builds from a macro: past the textual
	# check, stopped by the sandbox (no /etc there) and the memory limit
	zmac="#define Z </dev/zero>
#include Z
$k"
	pmac="#define P \"/etc/passwd\"
#include P
$k"
	cand zmac "$zmac"
	cand pmac "$pmac"
	if bwrap --unshare-all --ro-bind / / true 2> /dev/null; then
		run "$KB" --check --work "$T_TMP/w" < "$T_TMP/pmac.ndjson"
		is "$T_STATUS:$(jq -r '.build.candidate.ok' "$T_TMP/out")" 0:false \
		    "kbuild, sandboxed: a macro-built /etc/passwd is not found"
		! grep -rqs 'root:' "$T_TMP/out" "$T_TMP/w"
		ok $? "kbuild, sandboxed: nothing of /etc/passwd anywhere"
		run "$KB" --check --mem 256 --work "$T_TMP/w" < "$T_TMP/zmac.ndjson"
		is "$T_STATUS:$(jq -r '.errors[0].code' "$T_TMP/out")" 4:resource \
		    "kbuild, sandboxed: a macro-built /dev/zero ends at --mem, exit 4"
		! grep -qi 'sandbox' "$T_TMP/err"
		ok $? "kbuild, sandboxed: no warning"
	else
		skip "kbuild sandboxed" "bwrap cannot make namespaces here"
	fi
	KFORGE_BWRAP=none run "$KB" --check --mem 256 --work "$T_TMP/w" \
	    < "$T_TMP/zmac.ndjson"
	is "$T_STATUS:$(jq -r '.errors[0].code' "$T_TMP/out")" 4:resource \
	    "kbuild, no sandbox: /dev/zero still ends at --mem, exit 4"
	like "$(jq -r '.errors[0].message' "$T_TMP/out")" 'out of memory \(--mem 256 MiB\)' \
	    "kbuild: the resource error says which limit"
	is "$(grep -c 'no sandbox for compilers' "$T_TMP/err")" 1 \
	    "kbuild, no sandbox: one warning for the run"
	is "$(ls "$T_TMP/w/build" | grep -c '^tmp\.')" 0 \
	    "kbuild: no temporary directory left after resource errors"

	# a full disk: an error of the run (exit 3), nothing cached, nothing
	# left behind, and the build succeeds once there is space
	if unshare -rm true 2> /dev/null; then
		mkdir "$T_TMP/full"
		unshare -rm sh -c '
		    mount -t tmpfs -o size=96k none "$2" || exit 99
		    "$1" --check --work "$2" < "$3" > "$4.out1" 2> "$4.err1"
		    echo $? > "$4.st1"
		    ls "$2/build" > "$4.ls1"
		    mount -o remount,size=64m "$2"
		    "$1" --check --work "$2" < "$3" > "$4.out2" 2> "$4.err2"
		    echo $? > "$4.st2"
		    # the disk full before the source is written
		    mount -o remount,size=32k "$2"
		    rm -rf "$2/build"
		    dd if=/dev/zero of="$2/fill" bs=1k 2> /dev/null
		    "$1" --check --work "$2" < "$3" > "$4.out3" 2> "$4.err3"
		    echo $? > "$4.st3"
		    ls "$2/build" | grep -c "^tmp\." > "$4.ls3"' sh "$KB" \
		    "$T_TMP/full" "$T_TMP/base.ndjson" "$T_TMP/f"
		is "$(cat "$T_TMP/f.st1"):$(jq -r '.errors[0].code' "$T_TMP/f.out1")" \
		    3:no-space "kbuild, disk full: exit 3, a no-space error"
		is "$(grep -c . "$T_TMP/f.ls1")" 0 \
		    "kbuild, disk full: nothing cached, no temporary directory"
		is "$(cat "$T_TMP/f.st2"):$(jq -r '[.build.reference.ok, .build.reference.cached] | join(" ")' "$T_TMP/f.out2")" \
		    "0:true false" "kbuild, space again: built, not served from the cache"
		is "$(cat "$T_TMP/f.st3"):$(jq -r '.errors[0].code' "$T_TMP/f.out3"):$(cat "$T_TMP/f.ls3")" \
		    3:no-space:0 "kbuild, disk full before the source: exit 3, no-space, nothing left"
	else
		skip "kbuild disk full" "no user namespaces (unshare -rm)"
	fi
else
	skip "kbuild includes and limits" "kbuild or nvcc missing"
fi

# --- the harness a record carries: kbuild builds the one kwrap generates
# from wrap.spec, never the record's text (a foreign main() once ran on the
# host through kverify)
if have_tool kbuild && command -v nvcc > /dev/null; then
	KB=$(tool kbuild)
	head -n 1 examples/kwrap.ndjson | jq -c '.wrap.harness.code =
	    "#include <stdio.h>\nint main(void) { FILE *f = fopen(\"/tmp/kforge-pwned\", \"w\"); return f == NULL; }\n"' \
	    > "$T_TMP/foreign.ndjson"
	run "$KB" --work "$T_TMP/wh" < "$T_TMP/foreign.ndjson"
	is "$T_STATUS:$(jq -r '.build.harness | [.ok, .regenerated, .record_code_differs] | join(" ")' "$T_TMP/out")" \
	    "0:true true true" "kbuild: a foreign harness: the generated one is built instead"
	like "$(cat "$T_TMP/err")" "harness: wrap.harness.code is not what kwrap generates from wrap.spec" \
	    "kbuild: a foreign harness: a warning says so"
	! grep -rqs 'kforge-pwned' "$T_TMP/wh/build"
	ok $? "kbuild: the foreign harness text was never compiled"
	jq -c 'del(.wrap.spec)' "$T_TMP/foreign.ndjson" > "$T_TMP/nospec.ndjson"
	run "$KB" --work "$T_TMP/wh" < "$T_TMP/nospec.ndjson"
	is "$T_STATUS:$(jq -r '[.errors[0].code, .build.harness] | join(" ")' "$T_TMP/out")" \
	    "1:foreign-harness " "kbuild: a harness with no spec to generate it from is refused"
	run "$KB" --trust-records --work "$T_TMP/wh" < "$T_TMP/foreign.ndjson"
	is "$T_STATUS:$(jq -r '.build.harness | [.ok, .regenerated] | join(" ")' "$T_TMP/out")" \
	    "0:true false" "kbuild --trust-records: the record's harness, as it is"
	head -n 3 examples/kwrap.ndjson > "$T_TMP/three.ndjson"
	run "$KB" --work "$T_TMP/wh" < "$T_TMP/three.ndjson"
	is "$(jq -r '.build.harness.record_code_differs' "$T_TMP/out" | sort -u)" false \
	    "kbuild: kwrap's own harnesses are what the generator gives"
else
	skip "kbuild harness" "kbuild or nvcc missing"
fi

# --- kwrap: impossible or hostile specs are refused, the field named
if have_tool kwrap; then
	R='examples/src/elementwise.cu::relu_kernel'
	spec() {	# spec NAME JSON: a --spec file for relu_kernel
		printf '{"id":"%s","spec":%s}\n' "$R" "$2" > "$T_TMP/$1.spec"
	}
	spec neg '{"params":[{"name":"out","count":"-5"}]}'
	spec huge '{"params":[{"name":"out","count":"1000000000000000"}]}'
	spec grid0 '{"launch":{"grid":["0","1","1"]}}'
	spec block '{"launch":{"block":[2048,1,1]}}'
	spec shared '{"launch":{"shared_mem":"1048576"}}'
	spec call '{"params":[{"name":"out","count":"exit(0)"}]}'
	spec inject '{"params":[{"name":"out","count":"n); kill(-1, 9); (n"}]}'
	spec name '{"params":[{"name":"out\"; system(\"id\"); \"","role":"out"}]}'
	for c in "neg:params\[[0-9]+\]\.count: -5 in case" \
	    "huge:params\[[0-9]+\]\.count: 1000000000000000 in case" \
	    "grid0:launch\.grid\[0\]: 0 in case" \
	    "block:launch\.block\[0\]: 2048 in case" \
	    "shared:launch\.shared_mem: 1048576 in case" \
	    "call:params\[[0-9]+\]\.count: exit\(\.\.\.\): no calls" \
	    "inject:params\[[0-9]+\]\.count: (kill\(\.\.\.\)|; )" \
	    "name:params\[[0-9]+\]\.name: not a C identifier"; do
		n=${c%%:*}
		"$(tool kwrap)" --spec "$T_TMP/$n.spec" < examples/kslice.ndjson \
		    > "$T_TMP/out" 2> "$T_TMP/err"
		st=$?
		m=$(jq -r --arg id "$R" 'select(.id == $id) | [.errors[]?.message] | join(";")' "$T_TMP/out")
		like "$st:$m" "^1:.*${c#*:}" "kwrap --spec $n: bad-spec, naming the field"
		is "$(jq -r --arg id "$R" 'select(.id == $id) | .wrap.harness // "none"' "$T_TMP/out")" none \
		    "kwrap --spec $n: no harness"
	done
	# the spec's own words for elements kwrap cannot type are not bad:
	# "bytes" (an opaque pointer, one byte each) and "struct"
	spec bytes '{"params":[{"name":"out","dtype":"bytes","element_size":1}]}'
	"$(tool kwrap)" --spec "$T_TMP/bytes.spec" < examples/kslice.ndjson \
	    > "$T_TMP/out" 2> "$T_TMP/err"
	is "$(jq -r --arg id "$R" 'select(.id == $id) | [(.errors // [] | length), (.wrap.harness.code != null)] | map(tostring) | join(" ")' "$T_TMP/out")" \
	    "0 true" "kwrap --spec: dtype bytes (an opaque pointer's elements) is valid"
	if have_tool kbuild && command -v nvcc > /dev/null; then
		# kbuild generates the harness from wrap.spec: a spec edited
		# in the record is checked the same way first
		jq -c --arg id "$R" 'select(.id == $id) |
		    .wrap.spec.params[1].count = "n); kill(-1, 9); (n"' \
		    examples/kwrap.ndjson > "$T_TMP/inj.ndjson"
		run "$(tool kbuild)" --work "$T_TMP/wv" < "$T_TMP/inj.ndjson"
		is "$T_STATUS:$(jq -r '[.errors[0].code, .build.harness] | join(" ")' "$T_TMP/out")" \
		    "1:foreign-harness " "kbuild: a record's spec with code in an expression: no harness"
	fi
else
	skip "kwrap spec validation" "kwrap not built"
fi

# --- the API key in a server's answer, in every shape it may take: as
# \uXXXX escapes in a body that is stored (record, cache), and cut in two
# by --max-response; nothing of it lands anywhere
if have_tool kwrap && "$(tool kwrap)" -h | grep -q -- --llm &&
    command -v python3 > /dev/null; then
	KEY="sk-SECRET-CANARY-$$-key"
	ESC=$(printf '%s' "$KEY" | od -An -tx1 | tr -s ' \n' ' ' |
	    sed 's/ \([0-9a-f][0-9a-f]\)/\\u00\1/g; s/ //g')
	PRE=$(printf '%s' "$KEY" | cut -c1-12)
	unset KFORGE_LLM_URL KFORGE_LLM_MODEL KFORGE_LLM_MAX_RESPONSE \
	    OPENAI_API_KEY http_proxy https_proxy HTTP_PROXY HTTPS_PROXY \
	    ALL_PROXY all_proxy
	jq -c 'select(.scan.name == "relu_kernel")' examples/kwrap.ndjson \
	    > "$T_TMP/relu.ndjson"
	for shape in escaped error cut notjson; do
		rm -f "$T_TMP/port"
		python3 test/hostile/echo.py "$shape" "$T_TMP/port" &
		srv=$!
		i=0
		while [ ! -s "$T_TMP/port" ] && [ $i -lt 100 ]; do
			sleep 0.1; i=$((i + 1)); done
		NO_PROXY=127.0.0.1 no_proxy=127.0.0.1 \
		    KFORGE_LLM_API_KEY=$KEY KFORGE_LLM_MODEL=m \
		    KFORGE_LLM_URL=http://127.0.0.1:$(cat "$T_TMP/port")/v1 \
		    KFORGE_WORK=$T_TMP/llm-$shape \
		    "$(tool kwrap)" --llm candidate --retries 0 --timeout 10 \
		    --max-response 2000 < "$T_TMP/relu.ndjson" \
		    > "$T_TMP/$shape.out" 2> "$T_TMP/$shape.err"
		kill "$srv" 2> /dev/null
		wait "$srv" 2> /dev/null
		is "$(wc -l < "$T_TMP/$shape.out" | tr -d ' ')" 1 \
		    "key, $shape: one line out"
		# every stored text, decoded once more where it is JSON text
		{ cat "$T_TMP/$shape.out" "$T_TMP/$shape.err"
		  jq -r '.. | strings' "$T_TMP/$shape.out"
		  find "$T_TMP/llm-$shape" -type f -exec cat {} + 2> /dev/null
		  find "$T_TMP/llm-$shape" -type f -name '*.json' \
		      -exec jq -r '.. | strings' {} + 2> /dev/null
		  jq -r '.. | strings' "$T_TMP/$shape.out" |
		      jq -Rr 'fromjson? | .. | strings' 2> /dev/null
		} > "$T_TMP/$shape.all"
		! grep -qF -e "$PRE" -e "$ESC" "$T_TMP/$shape.all"
		ok $? "key, $shape: not a piece of the key anywhere (output, stderr, cache)"
	done
	grep -q '\[redacted\]' "$T_TMP/error.out"
	ok $? "key, error: the echoed key is redacted in the error's raw"
else
	skip "key redaction" "kwrap without --llm, or no python3"
fi

# --- kslice reads only under --root: a scan.tu outside it (an absolute
# path, or one with ..) is refused, not sliced into the record
if have_tool kslice && have_tool kscan; then
	D=$(mktemp -d /tmp/kforge-outside.XXXXXX)
	printf '#define SECRET_MACRO 42\n__global__ void outside_kernel(float *x) { x[0] = SECRET_MACRO; }\n' \
	    > "$D/k.cu"
	# a record that names a file outside the root it is sliced under
	# (here: none recorded, so the current directory)
	"$(tool kscan)" "$D" 2> /dev/null | jq -c --arg d "$D" \
	    '.scan.tu = ($d + "/k.cu") | del(.scan.root)' > "$T_TMP/outside.ndjson"
	run "$(tool kslice)" < "$T_TMP/outside.ndjson"
	is "$T_STATUS:$(jq -r '[.errors[0].code, (.slice.code // "" | test("SECRET"))] | join(" ")' "$T_TMP/out")" \
	    "1:cannot-slice false" "kslice: a scan.tu outside --root is not read"
	like "$(cat "$T_TMP/err")" "k.cu: outside the root .*, not read" \
	    "kslice: the error says why"
	jq -c '.scan.tu = "examples/../../../../../../../../etc/passwd"' \
	    "$T_TMP/outside.ndjson" > "$T_TMP/dotdot.ndjson"
	run "$(tool kslice)" < "$T_TMP/dotdot.ndjson"
	like "$(cat "$T_TMP/err")" "passwd: outside the root" \
	    "kslice: a tu climbing out with .. is not read"
	run "$(tool kslice)" --root "$D" < "$T_TMP/outside.ndjson"
	is "$(jq -r '.slice.code | test("SECRET_MACRO")' "$T_TMP/out")" true \
	    "kslice --root at the file's directory: sliced"
	rm -rf "$D"
else
	skip "kslice --root" "kslice or kscan not built"
fi

# --- kverify runs a harness in the sandbox: nothing outside its run
# directory written, nothing of /etc read
if have_tool kverify && bwrap --unshare-all --ro-bind / / true 2> /dev/null; then
	W=$T_TMP/kv
	key=$(printf 'harness:evil' | sha256sum | cut -c1-64)
	hd=$W/build/$(echo "$key" | cut -c1-2)/$key
	mkdir -p "$hd"
	{
		echo '#!/bin/sh'
		echo "echo escaped > '$T_TMP/escaped'"
		echo 'cat /etc/passwd'
		echo "echo \"\$HOME\" > '$T_TMP/home'"
		echo 'echo 1'
	} > "$hd/harness"
	chmod +x "$hd/harness"
	rkey=$(printf 'reference:m' | sha256sum | cut -c1-64)
	mkdir -p "$W/build/$(echo "$rkey" | cut -c1-2)/$rkey"
	echo m > "$W/build/$(echo "$rkey" | cut -c1-2)/$rkey/module.cubin"
	jq -cn --arg h "$key" --arg r "$rkey" '
	    def unit($key; $file; $sym): {ok: true, compiler: "nvcc",
	    version: "fake", command: "nvcc", seconds: 0, cached: false,
	    artifact: $key, file: $file, symbol: $sym, runnable: true,
	    diagnostics: [], log: "", log_truncated: false, pass_call: true};
	    {id: "evil", build: {arch: "sm_90",
	    reference: unit($r; "module.cubin"; "_Z4fakev"),
	    harness: unit($h; "harness"; null)}}' > "$T_TMP/evil.ndjson"
	KFORGE_WORK=$W run "$(tool kverify)" --no-time --no-memcheck \
	    < "$T_TMP/evil.ndjson"
	is "$(wc -l < "$T_TMP/out" | tr -d ' ')" 1 \
	    "kverify, a hostile harness: one line out"
	[ ! -e "$T_TMP/escaped" ] && [ ! -e "$T_TMP/home" ]
	ok $? "kverify: the harness wrote nothing outside its run directory"
	! grep -rqs 'root:' "$T_TMP/out" "$T_TMP/err" "$W"
	ok $? "kverify: the harness read nothing of /etc/passwd"
else
	skip "kverify sandbox" "kverify not built, or bwrap cannot make namespaces"
fi

done_testing
