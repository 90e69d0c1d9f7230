#!/bin/sh
# The boundary cases kwrap adds (man kwrap, "Boundary cases"), counted on
# saved kslice outputs for a baseline kwrap and this one in the same run
# (no GPU): records wrapped, their cases in all, the records that get a
# "boundary" case and, of those, the ones where it moves a scalar onto a
# compared value, draws an input around a compared value, or draws
# inputs on the grid -2 ... 2 so that they or values computed from them
# tie; the records that get a "boundary_logic" case; and the relational
# and logical mutants (kwrap --mutants 20) that lie in the records with
# a boundary case, of all of them.
#
#	sh bench/boundary-cases.sh BASELINE-KWRAP KWRAP NAME=KSLICE.ndjson...
set -eu
[ $# -ge 3 ] || { echo "usage: bench/boundary-cases.sh BASELINE-KWRAP KWRAP NAME=KSLICE.ndjson..." >&2; exit 2; }
command -v jq > /dev/null || { echo "boundary-cases: needs jq" >&2; exit 2; }
base=$1
new=$2
shift 2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
echo "| corpus | kwrap | records wrapped | cases | with boundary | scalar on a value | input around a value | inputs tied | with boundary_logic | relational + logical mutants in them / all |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for a in "$@"; do
	name=${a%%=*}
	f=${a#*=}
	for w in baseline new; do
		if [ "$w" = baseline ]; then k=$base; else k=$new; fi
		"$k" -q --mutants 20 < "$f" > "$t/out" 2> /dev/null || true
		jq -r --arg n "$name" --arg w "$w" -s '
		    def bc: [.wrap.spec.cases[] | select(.name == "boundary")][0];
		    def rl: [.wrap.mutants.list // [] | .[] |
			select(.op == "swap-relational" or .op == "swap-logical")] | length;
		    map(select(.wrap.spec != null)) |
		    map(. + {b: bc, s0: .wrap.spec.cases[0].scalars}) |
		    map(select(.b != null)) as $b |
		    "| \($n) | \($w) | \(length) | " +
		    "\(map(.wrap.spec.cases | length) | add // 0) | " +
		    "\($b | length) | " +
		    "\($b | map(select(. as $r | [.b.scalars | to_entries[] |
			select($r.s0[.key] != .value)] | length > 0)) | length) | " +
		    "\($b | map(select([.b.fills // {} | .[] |
			select(.lo != -2 or .hi != 2)] | length > 0)) | length) | " +
		    "\($b | map(select([.b.fills // {} | .[] |
			select(.lo == -2 and .hi == 2)] | length > 0)) | length) | " +
		    "\(map(select(any(.wrap.spec.cases[]; .name == "boundary_logic"))) | length) | " +
		    "\($b | map(rl) | add // 0) / \(map(rl) | add // 0) |"' "$t/out"
	done
done
