#!/bin/sh
# Hostile and broken input for every tool: each bad line fails its own
# record, with the documented exit status and a message on stderr; one
# record out per line in; valid JSON on every output line; no crash.
# No compiler and no GPU is ever reached: NVCC and HIPCC name nothing.
. "$(dirname "$0")/lib.sh"

command -v jq > /dev/null || skip_all "jq not installed"
export KFORGE_WORK="$T_TMP/work"
NVCC=$T_TMP/no-nvcc
HIPCC=$T_TMP/no-hipcc
export NVCC HIPCC
I=$T_TMP/in
mkdir -p "$I"

# ------------------------------------------------------------ the inputs
: > "$I/empty"
printf '\n\n   \n' > "$I/blank"
printf 'hello world\n' > "$I/notjson"
printf '{"id":"x","scan":{"name":"k"\n' > "$I/truncated"
printf '{"id":"\377\376x"}\n' > "$I/utf8"
printf '[1,2]\n42\n"s"\nnull\n' > "$I/notobject"
printf '{"id":"x"}\n' > "$I/missing"
printf '{"id":"x"}' > "$I/nonewline"
printf '{"id":"x","scan":5,"slice":{"code":7},"wrap":"w","build":[1],"candidate":3}\n' \
    > "$I/wrongtype"
printf '%s\n' '{"id":7,"scan":{"name":5,"tu":[],"params":"p","template_params":{},"launches":[1]},"slice":{"code":"","dialect":3},"wrap":{"harness":5,"spec":"s"},"build":{"reference":"r","harness":{"ok":"yes"}},"errors":"none"}' \
    > "$I/wrongtype2"
# every section present, with wrong types inside; some stages may find
# nothing wrong here, so only the status range is checked
printf '%s\n' '{"id":"x","scan":{"dialect":"cuda","tu":"t.cu","usr":"u","name":"n","qualified_name":"q","file":"f","params":[{"name":1}],"template_params":[{"name":"T","kind":"value","spelled":"int T","type":null}],"launches":[{"args":[1,2],"template_args":"T"}]},"slice":{"code":7,"dialect":"cuda"},"wrap":{"harness":{"code":[]},"spec":[1]},"build":{"reference":{"ok":true,"artifact":"..","file":".."},"harness":{"ok":true,"artifact":"ab","file":"h"}}}' \
    > "$I/wrongtype3"
printf '{"id":"%s"}\n' "$(head -c 3000 /dev/zero | tr '\0' a)" > "$I/long"
awk 'BEGIN { s = ""; for (i = 0; i < 100000; i++) s = s "["; print s }' \
    > "$I/deep"
awk 'BEGIN { s = "{"; for (i = 0; i < 20000; i++) s = s "\"a\":{"; print s }' \
    > "$I/deepobj"
awk 'BEGIN { for (i = 1; i <= 100000; i++) printf "{\"id\":\"r%d\"}\n", i }' \
    > "$I/many"

# case: file, lines out, exit status ("01" means 0 or 1), stderr pattern
# ("-" nothing, "any" some message from the tool)
cases='
empty 0 0 -
blank 3 1 <stdin>:1: empty line
notjson 1 1 <stdin>:1: invalid JSON
truncated 1 1 <stdin>:1: invalid JSON
utf8 1 1 <stdin>:1: invalid JSON
notobject 4 1 <stdin>:4: JSON value is not an object
missing 1 1 any
nonewline 1 1 any
wrongtype 1 1 any
wrongtype2 1 1 any
wrongtype3 1 01 -
long 1 1 <stdin>:1: line longer than 1000 bytes
deep 1 1 <stdin>:1: invalid JSON: maximum parsing depth
deepobj 1 1 <stdin>:1: invalid JSON: maximum parsing depth
many 100000 1 any
'

for t in kslice kwrap kbuild kverify; do
	if ! have_tool "$t"; then
		skip "$t: bad input" "$t is not built"
		continue
	fi
	echo "$cases" | while read -r c lines want pat; do
		[ -n "$c" ] || continue
		max=
		[ "$c" = long ] && max=1000
		T_STATUS=0
		KFORGE_MAX_LINE=$max "$(tool "$t")" < "$I/$c" > "$T_TMP/out" \
		    2> "$T_TMP/err" || T_STATUS=$?
		[ "$T_STATUS" -lt 128 ]
		ok $? "$t $c: no crash (status $T_STATUS)"
		case $want in
		01)	[ "$T_STATUS" -le 1 ]
			ok $? "$t $c: exit status 0 or 1" ;;
		*)	is "$T_STATUS" "$want" "$t $c: exit status $want" ;;
		esac
		got=$(wc -l < "$T_TMP/out" | tr -d ' ')
		if [ "$t" = kslice ] && [ "$c" = wrongtype3 ]; then
			[ "$got" -ge 1 ]
			ok $? "$t $c: at least one record out"
		else
			is "$got" "$lines" "$t $c: $lines records out"
		fi
		types=$(jq -R -r 'fromjson | type' "$T_TMP/out" 2>&1 | sort -u)
		if [ "$lines" -eq 0 ]; then
			is "$types" "" "$t $c: no output"
		else
			is "$types" object "$t $c: every output line is a JSON object"
		fi
		if [ "$want" = 1 ]; then
			n=$(jq -r 'select((.errors | length) > 0) | 1' \
			    "$T_TMP/out" | wc -l | tr -d ' ')
			is "$n" "$lines" "$t $c: every record carries an error"
		fi
		case $pat in
		-)	[ "$c" != empty ] || is "$(cat "$T_TMP/err")" "" \
			    "$t $c: nothing on stderr" ;;
		any)	like "$(head -n 1 "$T_TMP/err")" "^$t: [^ ]" \
			    "$t $c: a message on stderr" ;;
		*)	like "$(cat "$T_TMP/err")" "^$t: $pat" \
			    "$t $c: says \"$pat\"" ;;
		esac
		if [ "$c" = many ]; then
			jq -r .id "$T_TMP/out" > "$T_TMP/ids"
			jq -r .id "$I/many" > "$T_TMP/ids.in"
			cmp -s "$T_TMP/ids" "$T_TMP/ids.in"
			ok $? "$t $c: ids kept, in input order"
		fi
		if [ "$c" = utf8 ]; then
			like "$(jq -r .raw "$T_TMP/out")" 'x"}$' \
			    "$t $c: raw line kept (bad bytes replaced)"
		fi
	done > "$T_TMP/tap.$t"
	# the loop ran in a subshell: count its results here
	cat "$T_TMP/tap.$t"
	n=$(grep -c '^\(not \)\{0,1\}ok ' "$T_TMP/tap.$t")
	f=$(grep -c '^not ok ' "$T_TMP/tap.$t")
	T_N=$((T_N + n))
	T_FAILED=$((T_FAILED + f))
done

# kreport aggregates, so it has no one-out-per-one-in contract: it must
# only survive and say what was wrong
if have_tool kreport; then
	for c in empty blank notjson utf8 notobject missing wrongtype \
	    wrongtype2 wrongtype3 deep many; do
		run "$(tool kreport)" < "$I/$c"
		[ "$T_STATUS" -lt 128 ]
		ok $? "kreport $c: no crash (status $T_STATUS)"
	done
else
	skip "kreport: bad input" "kreport is not built"
fi

# ------------------------------------------------------------ kscan
if have_tool kscan; then
	KSCAN=$(tool kscan)
	S=$T_TMP/src
	mkdir -p "$S"
	: > "$S/empty.cu"
	run "$KSCAN" "$S/empty.cu"
	is "$T_STATUS" 0 "kscan empty file: exit 0"
	is "$(wc -c < "$T_TMP/out" | tr -d ' ')" 0 "kscan empty file: no records"

	head -c 4096 /dev/urandom > "$S/binary.cu"
	printf '\0\0\0' >> "$S/binary.cu"
	run "$KSCAN" "$S/binary.cu"
	is "$T_STATUS" 1 "kscan binary file: exit 1"
	is "$(jq -r '.errors[0].code' "$T_TMP/out")" binary \
	    "kscan binary file: one error record"
	like "$(cat "$T_TMP/err")" "^kscan: .*binary.cu: binary file" \
	    "kscan binary file: says so"

	# root reads a mode 000 file, so that case only runs as another user;
	# a symbolic link loop fails for everyone
	printf '__global__ void k(float *x) {}\n' > "$S/unreadable.cu"
	chmod 000 "$S/unreadable.cu"
	if [ "$(id -u)" -ne 0 ]; then
		run "$KSCAN" "$S/unreadable.cu"
		is "$T_STATUS" 1 "kscan unreadable file: exit 1"
		like "$(cat "$T_TMP/err")" "unreadable.cu: Permission denied" \
		    "kscan unreadable file: says why"
	else
		skip "kscan unreadable file (mode 000)" "running as root"
	fi
	chmod 644 "$S/unreadable.cu"
	ln -s loop.cu "$S/loop.cu"
	run "$KSCAN" "$S/loop.cu"
	is "$T_STATUS" 1 "kscan symbolic link loop: exit 1"
	is "$(jq -r '.errors[0].code' "$T_TMP/out")" unreadable \
	    "kscan symbolic link loop: an unreadable record"
	like "$(cat "$T_TMP/err")" "^kscan: .*loop.cu: Too many levels" \
	    "kscan symbolic link loop: says why"

	ln -s "$S/nowhere.cu" "$S/dangling.cu"
	run "$KSCAN" "$S/dangling.cu" "$S/nonexistent.cu"
	is "$T_STATUS" 1 "kscan dangling link and missing path: exit 1"
	is "$(jq -r '.errors[0].code' "$T_TMP/out" | tr '\n' ' ')" \
	    "unreadable unreadable " "kscan: one error record for each"
	is "$(grep -c 'No such file or directory' "$T_TMP/err")" 2 \
	    "kscan: says No such file or directory for each"

	awk 'BEGIN { s = "// "; for (i = 0; i < 300000; i++) s = s "x";
	    print s; print "__global__ void after_long_line(float *x) {}" }' \
	    > "$S/longline.cu"
	run "$KSCAN" "$S/longline.cu"
	is "$T_STATUS" 0 "kscan 300 kB line: exit 0"
	is "$(jq -r .scan.name "$T_TMP/out")" after_long_line \
	    "kscan 300 kB line: the kernel after it is found"

	run "$KSCAN" "$S/empty.cu" "$S/loop.cu" "$S/longline.cu"
	is "$T_STATUS" 1 "kscan: a bad path among good ones: exit 1"
	is "$(jq -r '.scan.name // .errors[0].code' "$T_TMP/out" | tr '\n' ' ')" \
	    "unreadable after_long_line " "kscan: the run goes on after it"
else
	skip "kscan: bad input" "kscan is not built"
fi
done_testing
