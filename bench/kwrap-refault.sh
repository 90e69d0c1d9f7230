#!/bin/sh
# Which of the records whose reference faulted on its own test case (a
# kverify reference-fault) get another spec from this checkout's kwrap:
# each such record's slice is wrapped again and its buffers (count, fill)
# and case 0's scalars compared with the spec it ran with.
#
#	sh bench/kwrap-refault.sh KVERIFY.ndjson...
#
# One line per faulting record: corpus (the file's directory name), how
# it faulted, moved or same, what moved (buffers, case0), and the id;
# then the counts by corpus.  Reads saved kverify output only: no GPU.
k=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || { echo "usage: bench/kwrap-refault.sh KVERIFY.ndjson..." >&2; exit 2; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
for f in "$@"; do
	c=$(basename "$(dirname "$f")")
	jq -c --arg c "$c" 'select(any(.errors[]?; .code == "reference-fault")) |
	    {c: $c, how: ([.errors[] | select(.code == "reference-fault") |
	    .message | sub(".*: reference, "; "")][0]), rec: .}' "$f"
done > "$t/f"
jq -c '.rec | del(.wrap, .build, .verify, .errors, .candidate)' "$t/f" |
    "$k/kwrap" 2> /dev/null | jq -c '.wrap.spec // {}' > "$t/new"
jq -c '.rec.wrap.spec // {}' "$t/f" > "$t/old"
# key SPEC: the buffers' counts and fills, and case 0's scalars
key='[[.params[]? | select(.role != "scalar") | [.name, .count, .fill]],
    (.cases[0].scalars // {})]'
jq -c "$key" "$t/old" > "$t/ko"
jq -c "$key" "$t/new" > "$t/kn"
jq -r '[.c, .how, .rec.id] | @tsv' "$t/f" |
    paste - "$t/ko" "$t/kn" | awk -F '\t' '{
	split($4, o, "\\],\\{"); split($5, n, "\\],\\{")
	what = ""
	if (o[1] != n[1]) what = "buffers"
	if (o[2] != n[2]) what = what (what == "" ? "" : ",") "case0"
	printf "%s\t%s\t%s\t%s\t%s\n", $1, $2, (what == "" ? "same" : "moved"),
	    (what == "" ? "-" : what), $3
}' > "$t/out"
cat "$t/out"
echo
awk -F '\t' '{ n[$1]++; if ($3 == "moved") m[$1]++; N++; if ($3 == "moved") M++ }
    END { for (c in n) printf "%s: %d of %d moved\n", c, m[c], n[c]
	printf "all: %d of %d moved\n", M, N }' "$t/out" | sort
