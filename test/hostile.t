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
	for sig in TERM HUP; do
		rm -f "$T_TMP/pid" "$T_TMP/sig.out"
		# the reader waits, so kwrap blocks in the middle of a line
		( "$(tool kwrap)" < "$T_TMP/big.ndjson" 2> /dev/null &
		  echo $! > "$T_TMP/pid"; wait $!; echo $? > "$T_TMP/st" ) |
		    { sleep 3; cat > "$T_TMP/sig.out"; } &
		i=0
		while [ ! -s "$T_TMP/pid" ] && [ $i -lt 100 ]; do
			sleep 0.1; i=$((i + 1)); done
		sleep 1
		kill -s "$sig" "$(cat "$T_TMP/pid")"
		wait
		is "$(tail -c 1 "$T_TMP/sig.out" | od -An -c | tr -d ' ')" '\n' \
		    "kwrap, SIG$sig while writing: the last line is whole"
		jq -c .id "$T_TMP/sig.out" > /dev/null 2>&1
		ok $? "kwrap, SIG$sig while writing: every line is a record"
		[ "$(cat "$T_TMP/st")" -gt 128 ]
		ok $? "kwrap, SIG$sig: ends by the signal (status $(cat "$T_TMP/st"))"
	done
else
	skip "signals" "kwrap not built"
fi

done_testing
