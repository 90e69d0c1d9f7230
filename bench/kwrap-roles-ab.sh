#!/bin/sh
# Two builds of kwrap on the same saved slices: per corpus, what moves in
# the buffers' roles and counts (benchmark 75): records with a harness,
# buffers kwrap saw no access of ("no access seen"), count guesses, counts
# and roles that changed parameter by parameter, harnesses that changed,
# records whose launch grid changed and records whose cases' scalars
# changed.
# CPU only.
#
#	sh bench/kwrap-roles-ab.sh KWRAP_A KWRAP_B OUT...
#
# OUT is a directory with kslice.ndjson (bench/funnel.sh -t kslice),
# named after its corpus.  One Markdown row per corpus.
set -eu
[ $# -ge 3 ] || { echo "usage: bench/kwrap-roles-ab.sh KWRAP_A KWRAP_B OUT..." >&2; exit 2; }
a=$1 b=$2
shift 2
command -v jq > /dev/null || { echo "kwrap-roles-ab: needs jq" >&2; exit 2; }
s=$(mktemp -d)
trap 'rm -rf "$s"' EXIT
# guesses of a kind, summed over a file: guesses FILE REGEX
guesses() {
	jq -r --arg re "$2" '[.wrap.spec.confidence.guesses[]? | select(test($re))] | length' "$1" |
	    awk '{ n += $1 } END { print n + 0 }'
}
# parameter by parameter, what differs between A and B: changed FIELD
changed() {
	paste "$s/a.$1" "$s/b.$1" | jq -R -r 'split("\t") | (.[0] | fromjson) as $x |
	    (.[1] | fromjson) as $y | range(0; $x | length) | select($x[.] != $y[.]) |
	    "\($x[.])->\($y[.])"'
}
printf '| corpus | records | with a harness | buffers "no access seen" | count guesses | counts changed | roles changed | harnesses changed | grids changed | cases changed |\n'
printf '|---|---:|---|---|---|---:|---|---:|---:|---:|\n'
for o in "$@"; do
	"$a" -q < "$o/kslice.ndjson" > "$s/a" 2> /dev/null || true
	"$b" -q < "$o/kslice.ndjson" > "$s/b" 2> /dev/null || true
	for x in a b; do
		jq -c '[.wrap.spec.params[]? | .role]' "$s/$x" > "$s/$x.role"
		jq -c '[.wrap.spec.params[]? | .count]' "$s/$x" > "$s/$x.count"
		jq -c '.wrap.harness' "$s/$x" > "$s/$x.harness"
		jq -c '.wrap.spec.launch.grid' "$s/$x" > "$s/$x.grid"
		jq -c '[.wrap.spec.cases[]? | .scalars]' "$s/$x" > "$s/$x.cases"
	done
	ha=$(jq -r 'select(.wrap.harness) | 1' "$s/a" | wc -l)
	hb=$(jq -r 'select(.wrap.harness) | 1' "$s/b" | wc -l)
	roles=$(changed role | sort | uniq -c |
	    awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }')
	printf '| %s | %d | %d -> %d | %d -> %d | %d -> %d | %d | %s | %d | %d | %d |\n' \
	    "$(basename "$o")" "$(wc -l < "$s/a")" "$ha" "$hb" \
	    "$(guesses "$s/a" 'no access seen')" "$(guesses "$s/b" 'no access seen')" \
	    "$(guesses "$s/a" ': count')" "$(guesses "$s/b" ': count')" \
	    "$(changed count | wc -l)" "${roles:-none}" \
	    "$(paste "$s/a.harness" "$s/b.harness" | awk -F '\t' '$1 != $2' | wc -l)" \
	    "$(paste "$s/a.grid" "$s/b.grid" | awk -F '\t' '$1 != $2' | wc -l)" \
	    "$(paste "$s/a.cases" "$s/b.cases" | awk -F '\t' '$1 != $2' | wc -l)"
done
