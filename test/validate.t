#!/bin/sh
# test/validate and schemas/: the schemas load, the record envelope accepts
# what the tools write and rejects what they must not, section $refs
# resolve from the schemas directory, and every saved NDJSON output under
# examples/ and test/golden/ validates.
. "$(dirname "$0")/lib.sh"

v=test/validate

if ! /usr/bin/python3 -c 'import jsonschema' 2> /dev/null; then
	skip_all "python3-jsonschema is not installed"
fi

# every schema in schemas/ is a valid draft 2020-12 schema
run $v /dev/null
is "$T_STATUS:$(cat "$T_TMP/out" "$T_TMP/err")" "0:" "schemas/ loads"

cat > "$T_TMP/good" <<'EOF'
{"id":"a"}
{"id":"src/x.cu:k<float>","parent":"src/x.cu:k","unknown":{"kept":[1]}}
{"id":"<stdin>:2","raw":"","errors":[{"stage":"kslice","code":"empty-line","message":"empty line","line":2}]}
{"id":"b","errors":[],"unknown_stage":{"kept":true},"verify":{},"candidate":{"code":"__global__ void k() {}","model":"m","extra":1}}
{"id":"c","errors":[{"stage":"kwrap","code":"x","message":"","extra":true}]}
EOF
run $v "$T_TMP/good"
is "$T_STATUS:$(cat "$T_TMP/out" "$T_TMP/err")" "0:" "valid records pass"

# one problem per line, as file:line: message
cat > "$T_TMP/bad" <<'EOF'
{"x":1}
{"id":""}
{"id":7}
{"id":"a","parent":""}
{"id":"a","raw":3}
{"id":"a","errors":{}}
{"id":"a","errors":[{"stage":"s","code":"c"}]}
{"id":"a","errors":[{"stage":"","code":"c","message":"m"}]}
{"id":"a","errors":[{"stage":"s","code":"c","message":"m","line":"3"}]}
{"id":"a","slice":[]}
{"id":"a","candidate":"__global__ void k() {}"}

not json
[1]
{"id":"a","id":"b"}
EOF
run $v "$T_TMP/bad"
is "$T_STATUS" 1 "invalid records: exit status 1"
b=$T_TMP/bad
is "$(cat "$T_TMP/out")" "$b:1: 'id' is a required property
$b:2: \$.id: '' is too short
$b:3: \$.id: 7 is not of type 'string'
$b:4: \$.parent: '' is too short
$b:5: \$.raw: 3 is not of type 'string'
$b:6: \$.errors: {} is not of type 'array'
$b:7: \$.errors[0]: 'message' is a required property
$b:8: \$.errors[0].stage: '' is too short
$b:9: \$.errors[0].line: '3' is not of type 'integer'
$b:10: \$.slice: [] is not of type 'object'
$b:11: \$.candidate: '__global__ void k() {}' is not of type 'object'
$b:12: empty line
$b:13: invalid JSON: Expecting value: line 1 column 1 (char 0)
$b:14: [1] is not of type 'object'
$b:15: invalid JSON: duplicate object key 'id'" "invalid records: one message each"

printf '{"id":"a"}\n{"id":"b"}' > "$T_TMP/in"
run $v < "$T_TMP/in"
is "$T_STATUS:$(cat "$T_TMP/out")" \
    "1:<stdin>:2: no newline at end of file" "stdin; missing final newline"

printf '{"id":"\377"}\n' > "$T_TMP/utf8"
run $v "$T_TMP/utf8" /nonexistent
is "$T_STATUS:$(cat "$T_TMP/out")" "2:$T_TMP/utf8:1: invalid UTF-8 at byte 8" \
    "invalid UTF-8; an unreadable file makes the status 2"

# section schemas are found by file name in the schemas directory, with or
# without an $id, and never fetched
mkdir "$T_TMP/schemas"
cp schemas/record.schema.json "$T_TMP/schemas/"
cat > "$T_TMP/schemas/scan.schema.json" <<'EOF'
{"$schema": "https://json-schema.org/draft/2020-12/schema",
 "$id": "https://kforge.invalid/schemas/scan.schema.json",
 "type": "object", "required": ["file"],
 "properties": {"file": {"$ref": "#/$defs/path"}},
 "$defs": {"path": {"type": "string", "minLength": 1}}}
EOF
printf '%s\n' '{"id":"a","scan":{"file":"x.cu","more":1}}' \
    '{"id":"a","scan":{}}' '{"id":"a","scan":{"file":""}}' > "$T_TMP/in"
run $v -d "$T_TMP/schemas" < "$T_TMP/in"
is "$T_STATUS:$(cat "$T_TMP/out")" "1:<stdin>:2: \$.scan: 'file' is a required property
<stdin>:3: \$.scan.file: '' is too short" "scan section via \$ref scan.schema.json"
# shellcheck disable=SC2016 # a literal $id
sed '/"\$id"/d' "$T_TMP/schemas/scan.schema.json" > "$T_TMP/s" &&
    mv "$T_TMP/s" "$T_TMP/schemas/scan.schema.json"
printf '%s\n' '{"id":"a","scan":{}}' > "$T_TMP/in"
run $v -d "$T_TMP/schemas" < "$T_TMP/in"
is "$T_STATUS:$(cat "$T_TMP/out")" "1:<stdin>:1: \$.scan: 'file' is a required property" \
    "scan section via \$ref, schema without \$id"

# saved outputs: NDJSON under examples/, and golden stdout that holds
# records (starts with "{"; not usage text or kreport's output), except
# in a case with a file no-validate (bad input passed through)
missing=
for ref in $(jq -r '.. | objects | .["$ref"]? // empty' \
    schemas/record.schema.json | grep -v '^#'); do
	[ -f "schemas/$ref" ] || missing="$missing schemas/$ref"
done
for f in $(find examples test/golden -type f \( -name '*.ndjson' \
    -o -name '*.jsonl' -o -path 'test/golden/k*/*/stdout' \) \
    ! -path 'test/golden/kreport/*' 2> /dev/null | sort); do
	[ "$(head -c 1 "$f")" = "{" ] || continue
	# a golden case whose input is deliberately broken says so
	case $f in
	test/golden/*)
		[ -f "$(dirname "$f")/no-validate" ] && continue ;;
	esac
	if [ -n "$missing" ]; then
		skip "$f validates" "missing$missing"
		continue
	fi
	run $v "$f"
	is "$T_STATUS:$(cat "$T_TMP/out" "$T_TMP/err")" "0:" "$f validates"
done
done_testing
