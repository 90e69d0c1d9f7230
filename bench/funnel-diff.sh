#!/bin/sh
# Two GPU halves of the funnel, record by record (benchmarks 78 and 79):
# each record of both runs whose verified verdict differs, with the
# reason run B gives, and a count of those gained and lost.  CPU only.
#
#	sh bench/funnel-diff.sh A B
#
# A and B hold one directory per corpus, each with kverify.ndjson (what
# bench/funnel-gpu.sh leaves in out/NAME); corpora and records that only
# one run has are left out.
set -eu
[ $# -eq 2 ] || { echo "usage: bench/funnel-diff.sh A B" >&2; exit 2; }
command -v jq > /dev/null || { echo "funnel-diff: needs jq" >&2; exit 2; }
s=$(mktemp -d)
trap 'rm -rf "$s"' EXIT
tab=$(printf '\t')
for d in "$2"/*/; do
	c=$(basename "$d")
	[ -s "$1/$c/kverify.ndjson" ] && [ -s "$d/kverify.ndjson" ] || continue
	for x in a b; do
		f=$1/$c/kverify.ndjson
		[ $x = b ] && f=$d/kverify.ndjson
		jq -r '[.id, (.verify.verified.value // false | tostring),
		    (.verify.verified.reason // "-")] | @tsv' "$f" |
		    sort -t "$tab" -k 1,1 > "$s/$x"
	done
	join -t "$tab" "$s/a" "$s/b" |
	    awk -F '\t' -v c="$c" '$2 != $4 { print c "\t" $2 " -> " $4 "\t" $5 "\t" $1 }'
done > "$s/diff"
cat "$s/diff"
echo "# $(grep -c 'false -> true' "$s/diff" || true) gained, $(grep -c 'true -> false' "$s/diff" || true) lost"
