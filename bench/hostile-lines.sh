#!/bin/sh
# The hostile stream: N lines (default 100000) of crafted input -- lines that
# are not JSON or not objects, records with repeated, missing or 600-byte
# ids and error stages, candidates that include /dev/zero, /etc/passwd or
# ../ paths, foreign harnesses, impossible specs, scan.tu outside the root
# -- mixed with the example records, through kslice, kwrap, kbuild --check,
# kverify and kreport.  Each stage must write one line per line read and
# exit with a status its man page lists; the script prints one line per
# stage (lines in, lines out, status, seconds, peak resident KiB) and exits
# 1 when any stage breaks either rule.  Machine-independent: no GPU needed
# (kverify then says no-device for every record).
#
#	sh bench/hostile-lines.sh [lines] [workdir]
set -u
cd "$(dirname "$0")/.." || exit 2
n=${1:-100000}
w=${2:-/tmp/kforge-hostile-lines}
rm -rf "$w"
mkdir -p "$w" || exit 2
export KFORGE_WORK="$w/work"

python3 - "$n" > "$w/in.ndjson" <<'PY'
import json, sys
n = int(sys.argv[1])
ex = [json.loads(l) for l in open("examples/kwrap.ndjson")]
base = ex[4] if len(ex) > 4 else ex[0]
k = "__global__ void k(float *x) { x[0] = 1; }\n"
def rec(**kw):
    r = json.loads(json.dumps(base))
    for a, v in kw.items():
        r[a] = v
    return json.dumps(r, separators=(",", ":"))
shapes = [
    lambda i: "not json at all {",
    lambda i: "42",
    lambda i: '"a string"',
    lambda i: "[1,2,3]",
    lambda i: "",
    lambda i: json.dumps({"id": "dup"}),
    lambda i: json.dumps({"scan": {"tu": "/etc/passwd", "usr": "c:@F@k",
                                   "name": "k"}}),
    lambda i: json.dumps({"id": "s" * 600, "errors": [
        {"stage": "x" * 600, "code": "c\tc", "message": "m"}]}),
    lambda i: rec(candidate={"code": "#include </dev/zero>\n" + k}),
    lambda i: rec(candidate={"code": '#include "/etc/passwd"\n' + k}),
    lambda i: rec(candidate={"code": '#include "../../../../etc/shadow"\n' + k}),
    lambda i: rec(id="dup"),
    lambda i: json.dumps(dict(json.loads(rec()), wrap=dict(
        json.loads(rec())["wrap"],
        harness={"dialect": "cuda", "code": "int main(void) { return 0; }\n"}))),
    lambda i: json.dumps({"id": "deep", "x": [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]}),
    lambda i: json.dumps({"id": "bad-slice", "slice": "not an object"}),
    lambda i: json.dumps({"id": "\u0000nul\ud800"}) if False else
              json.dumps({"id": "nul\\u0000", "slice": {"code": ""}}),
    lambda i: rec(),
]
for i in range(n):
    print(shapes[i % len(shapes)](i))
PY
in=$(wc -l < "$w/in.ndjson" | tr -d ' ')

status=0
prev=$w/in.ndjson
# stage NAME ALLOWED-STATUSES COMMAND...: one stage over $prev
stage() {
	name=$1 allowed=$2
	shift 2
	t0=$(date +%s.%N)
	/usr/bin/time -f %M -o "$w/$name.rss" "$@" < "$prev" \
	    > "$w/$name.out" 2> "$w/$name.err"
	st=$?
	t1=$(date +%s.%N)
	out=$(wc -l < "$w/$name.out" | tr -d ' ')
	lin=$(wc -l < "$prev" | tr -d ' ')
	ok=ok
	[ "$name" = kreport ] || [ "$out" -eq "$lin" ] || ok=LINES
	case " $allowed " in *" $st "*) ;; *) ok="$ok,STATUS" ;; esac
	[ "$ok" = ok ] || status=1
	printf '%-8s in %6s out %6s status %s %6.1f s %7s KiB  %s\n' "$name" \
	    "$lin" "$out" "$st" "$(echo "$t1 - $t0" | bc)" \
	    "$(tail -n 1 "$w/$name.rss")" "$ok"
	[ "$name" = kreport ] || prev=$w/$name.out
}
echo "hostile-lines: $in lines"
stage kslice "0 1" ./kslice -q --timeout 60
stage kwrap "0 1" ./kwrap -q
stage kbuild "0 1" ./kbuild -q -j 2 --check --mem 1024 --timeout 60
stage kverify "0 1" ./kverify -q --no-time
stage kreport "0 1" ./kreport --format json
exit $status
