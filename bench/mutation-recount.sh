#!/bin/sh
# A mutation run's GPU verdicts counted again under another kwrap's
# equivalence marks (no GPU): for each corpus directory of a mutation
# pack's output (verified.ndjson, as bench/mutation-gpu.sh leaves it), the
# records kverify scored are wrapped again with KWRAP --mutants N, each
# GPU verdict is paired with the new list's mutant of the same offset,
# length and replacement, and the survivors now marked equivalent, the
# killed ones now marked (contradictions) and the old marks lost are
# counted (benchmark 67).
#
#	sh bench/mutation-recount.sh [-n N] KWRAP OUT/corpus...
set -eu
n=6
[ "${1:-}" = -n ] && { n=$2; shift 2; }
[ $# -ge 2 ] || { echo "usage: bench/mutation-recount.sh [-n N] KWRAP DIR..." >&2; exit 2; }
kw=$1
shift
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
echo "| corpus | survivors | now equivalent | killed now marked | marks lost |"
echo "|---|---:|---:|---:|---:|"
for d in "$@"; do
	jq -c 'select(.verify.mutation != null)' "$d/verified.ndjson" > "$t/old"
	jq -c 'del(.wrap, .build, .verify, .candidate)' "$t/old" |
	    "$kw" --mutants "$n" 2> /dev/null > "$t/new"
	jq -rn --arg c "$(basename "$d")" --slurpfile old "$t/old" \
	    --slurpfile new "$t/new" '
	    def key: "\(.offset):\(.length):\(.replacement)";
	    ($new | map({key: .id, value: (.wrap.mutants.list |
		map({key: key, value: .}) | from_entries)}) | from_entries) as $nm |
	    [ $old[] | .id as $id | (.wrap.mutants.list |
		map({key: .id, value: .}) | from_entries) as $om |
	      .verify.mutation.mutants[] | . as $v | $om[$v.id] as $o |
	      ($nm[$id][$o | key] // {}) as $x |
	      { st: $v.status, was: ($o.equivalent != null),
		now: ($x.equivalent != null) } ] |
	    "| \($c) | \(map(select(.st == "survived")) | length) | \(map(select(.st == "survived" and .now and (.was | not))) | length) | \(map(select(.st == "killed" and .now and (.was | not))) | length) | \(map(select(.was and (.now | not))) | length) |"'
done
