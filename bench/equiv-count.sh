#!/bin/sh
# How many of kwrap's mutants it proves equivalent to the reference under
# the spec's cases and launch (wrap.mutants.list[].equivalent), per
# corpus: each OUT directory's saved slices (OUT/kslice.ndjson, from
# bench/funnel.sh) through ./kwrap --mutants N.  CPU only.
#
#	sh bench/equiv-count.sh [-n mutants] OUT...
#
# One line per corpus: records wrapped with mutants, mutants, marked
# equivalent, of those the ones whose proof reads only constants (a
# template instance's values: kbuild often finds the same machine code
# for them too), and by which rule; then the total.
set -eu
n=8
while getopts n: o; do
	case $o in
	n) n=$OPTARG ;;
	*) echo "usage: bench/equiv-count.sh [-n mutants] OUT..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: bench/equiv-count.sh [-n mutants] OUT..." >&2; exit 2; }
k=$(cd "$(dirname "$0")/.." && pwd)
printf '| corpus | records | mutants | equivalent | %% | constants only | by rule |\n'
printf '|---|---:|---:|---:|---:|---:|---|\n'
for o in "$@"; do
	"$k/kwrap" -q --mutants "$n" < "$o/kslice.ndjson" 2> /dev/null |
	    jq -cs --arg c "$(basename "$o")" '[.[] | select(.wrap.mutants != null)] as $r |
	    [$r[].wrap.mutants.list[]] as $m | [$m[] | select(.equivalent)] as $e |
	    {c: $c, r: ($r | length), m: ($m | length), e: ($e | length),
	    k: ([$e[] | select(.equivalent.reads == [])] | length),
	    rules: ([$e[].equivalent.rule] | group_by(.) |
	    map("\(.[0]) \(length)") | join(", "))}'
done | jq -rs 'def pc(a; b): if b > 0 then (1000 * a / b | round) / 10 else 0 end;
    (.[] | "| \(.c) | \(.r) | \(.m) | \(.e) | \(pc(.e; .m)) | \(.k) | \(.rules) |"),
    "| all | \(map(.r) | add) | \(map(.m) | add) | \(map(.e) | add) | \(pc(map(.e) | add; map(.m) | add)) | \(map(.k) | add) | |"'
