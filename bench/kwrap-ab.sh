#!/bin/sh
# Two builds of kwrap on the same saved slices: per corpus, how many specs
# move (a buffer's count, the launch, or case 0's scalars differ) and how
# many mutants each proves equivalent, by rule.  CPU only.
#
#	sh bench/kwrap-ab.sh [-n mutants] KWRAP_A KWRAP_B OUT...
#
# OUT is a directory with kslice.ndjson (bench/funnel.sh -t kslice).  One
# Markdown row per corpus, then the total.
set -eu
n=8
while getopts n: o; do
	case $o in
	n) n=$OPTARG ;;
	*) echo "usage: bench/kwrap-ab.sh [-n mutants] KWRAP_A KWRAP_B OUT..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 3 ] || { echo "usage: bench/kwrap-ab.sh [-n mutants] KWRAP_A KWRAP_B OUT..." >&2; exit 2; }
a=$1 b=$2
shift 2
command -v jq > /dev/null || { echo "kwrap-ab: needs jq" >&2; exit 2; }
s=$(mktemp -d)
trap 'rm -rf "$s"' EXIT
# the parts of a spec a reference's run depends on
key='[.id, [.wrap.spec.params[]? | .count], .wrap.spec.launch,
    (.wrap.spec.cases[0].scalars // null)] | tostring'
printf '| corpus | slices | specs that move | mutants | equivalent (A) | equivalent (B) | rules (B) |\n'
printf '|---|---:|---:|---:|---:|---:|---|\n'
for o in "$@"; do
	c=$(basename "$o")
	"$a" -q --mutants "$n" < "$o/kslice.ndjson" > "$s/a" 2> /dev/null || true
	"$b" -q --mutants "$n" < "$o/kslice.ndjson" > "$s/b" 2> /dev/null || true
	jq -r "$key" "$s/a" > "$s/ka"
	jq -r "$key" "$s/b" > "$s/kb"
	moved=$(paste -d '\n' "$s/ka" "$s/kb" | awk 'NR % 2 { x = $0; next } $0 != x { m++ } END { print m + 0 }')
	jq -cs --arg c "$c" --argjson moved "$moved" --slurpfile a "$s/a" '
	    def eqs(r): [r[] | .wrap.mutants.list[]? | select(.equivalent)];
	    {c: $c, r: length, moved: $moved,
	     m: ([.[] | .wrap.mutants.list[]?] | length),
	     ea: (eqs($a) | length), eb: (eqs(.) | length),
	     rules: (eqs(.) | map(.equivalent.rule) | group_by(.) |
		map("\(.[0]) \(length)") | join(", "))}' "$s/b"
done | jq -rs '(.[] | "| \(.c) | \(.r) | \(.moved) | \(.m) | \(.ea) | \(.eb) | \(.rules) |"),
    "| all | \(map(.r) | add) | \(map(.moved) | add) | \(map(.m) | add) | \(map(.ea) | add) | \(map(.eb) | add) | |"'
