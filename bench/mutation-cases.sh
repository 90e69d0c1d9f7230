#!/bin/sh
# The cases kwrap adds to reach a kernel's branches, counted on saved
# kslice outputs, for a baseline kwrap and this one in the same run (no
# GPU): records wrapped, records that get switch cases (a scalar set to a
# value the slice compares it with) and straddle cases (data drawn on
# both sides of a constant a guard compares it with), those cases in
# all, and the records whose float bounds named lo/min/hi/max take
# values of unequal magnitude (-0.5 and 0.75; before: -1 and 1, whose
# squares agree).
#
#	sh bench/mutation-cases.sh BASELINE-KWRAP KWRAP NAME=KSLICE.ndjson...
set -eu
[ $# -ge 3 ] || { echo "usage: bench/mutation-cases.sh BASELINE-KWRAP KWRAP NAME=KSLICE.ndjson..." >&2; exit 2; }
command -v jq > /dev/null || { echo "mutation-cases: needs jq" >&2; exit 2; }
base=$1
new=$2
shift 2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
echo "| corpus | kwrap | records wrapped | with switch cases | switch cases | with straddle cases | straddle cases | with lo/min/hi/max bounds |"
echo "|---|---|---|---|---|---|---|---|"
for a in "$@"; do
	name=${a%%=*}
	f=${a#*=}
	for w in baseline new; do
		if [ "$w" = baseline ]; then k=$base; else k=$new; fi
		"$k" -q < "$f" > "$t/out" 2> /dev/null || true
		jq -r --arg n "$name" --arg w "$w" -s '
		    def cs($p): [.wrap.spec.cases // [] | .[] |
			select(.name | startswith($p))] | length;
		    map(select(.wrap.spec != null)) |
		    "| \($n) | \($w) | \(length) | " +
		    "\(map(select(cs("switch_") > 0)) | length) | " +
		    "\(map(cs("switch_")) | add // 0) | " +
		    "\(map(select(cs("straddle_") > 0)) | length) | " +
		    "\(map(cs("straddle_")) | add // 0) | " +
		    "\(map(select([.wrap.spec.params[] | select(.role == "scalar" and
			(.dtype | startswith("float")) and
			(.name | test("^(lo|min|hi|max)")))] | length > 0)) | length) |"' \
		    "$t/out"
	done
done
