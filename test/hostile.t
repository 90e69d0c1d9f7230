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

done_testing
