#!/bin/sh
# What kwrap --mutants and its switch cases find in the funnel's tasks,
# on the CPU: for each OUT (bench/funnel.sh; OUT/kwrap.ndjson), kwrap run
# again without mutants and without switch cases (the baseline), then
# with --mutants N; prints per corpus the tasks, the sites found, the
# mutants kept and by operator, the switch and straddle cases added, and
# the time of the second run over the baseline's.
#
#	sh bench/mutation-sites.sh [-n mutants] OUT...
set -eu
k=$(cd "$(dirname "$0")/.." && pwd)
nmut=20
while getopts n: o; do
	case $o in
	n) nmut=$OPTARG ;;
	*) echo "usage: bench/mutation-sites.sh [-n mutants] OUT..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
command -v jq > /dev/null || { echo "mutation-sites: needs jq" >&2; exit 2; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
echo "| corpus | tasks | sites (median per task) | mutants kept | swap-arith / relational / logical / constant / drop-stmt / drop-sync / store+1 | switch cases | straddle cases | time vs baseline |"
echo "|---|---|---|---|---|---|---|---|"
for o in "$@"; do
	n=$(basename "$o")
	t0=$(date +%s.%N)
	"$k/kwrap" -q --switch-cases 0 < "$o/kwrap.ndjson" > "$t/base" || true
	t1=$(date +%s.%N)
	"$k/kwrap" -q --mutants "$nmut" < "$o/kwrap.ndjson" > "$t/mut" || true
	t2=$(date +%s.%N)
	jq -r --arg n "$n" --argjson t "$(echo "$t0 $t1 $t2" |
	    awk '{ printf "%.2f", ($3 - $2) / ($2 - $1) }')" -s '
	    [.[] | select(.wrap.mutants != null)] as $r |
	    ($r | map(.wrap.mutants.sites) | sort) as $s |
	    ($r | map(.wrap.mutants.list[]) | group_by(.op) |
	        map({(.[0].op): length}) | add // {}) as $ops |
	    [$r[] | .wrap.spec.cases[] | .name] as $cn |
	    "| \($n) | \($r | length) | \($s | add // 0) (\(if ($s | length) > 0 then $s[($s | length) / 2 | floor] else 0 end)) | \($r | map(.wrap.mutants.list | length) | add // 0) | \([$ops["swap-arith"], $ops["swap-relational"], $ops["swap-logical"], $ops["constant"], $ops["drop-statement"], $ops["drop-syncthreads"], $ops["store-plus-one"]] | map(. // 0 | tostring) | join(" / ")) | \($cn | map(select(startswith("switch_"))) | length) | \($cn | map(select(startswith("straddle_"))) | length) | \($t)x |"' "$t/mut"
done
