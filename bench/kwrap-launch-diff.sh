#!/bin/sh
# The records whose spec launch (grid, block, shared memory) or buffer
# counts differ between two kwrap binaries on one saved kslice output:
#
#	sh bench/kwrap-launch-diff.sh BASELINE-KWRAP KWRAP KSLICE.ndjson
#
# One line per record that moved: id, overall confidence old->new, and
# what changed ("block [256,1,1] -> [16,1,1]; count x n -> 4 * n").
base=${1:?usage: bench/kwrap-launch-diff.sh BASELINE-KWRAP KWRAP KSLICE.ndjson}
new=${2:?usage: bench/kwrap-launch-diff.sh BASELINE-KWRAP KWRAP KSLICE.ndjson}
in=${3:?usage: bench/kwrap-launch-diff.sh BASELINE-KWRAP KWRAP KSLICE.ndjson}
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
"$base" < "$in" 2> /dev/null | jq -c '{id, s: (.wrap.spec // {})}' > "$t/a"
"$new" < "$in" 2> /dev/null | jq -c '{id, s: (.wrap.spec // {})}' > "$t/b"
jq -rn --slurpfile a "$t/a" --slurpfile b "$t/b" '
    ($a | map({(.id): .s}) | add // {}) as $A
    | $b[] | . as $r | ($A[$r.id]) as $o | select($o != null)
    | (($o.launch // {})) as $ol | (($r.s.launch // {})) as $nl
    | ((($o.params // []) | map({(.name): .count}) | add) // {}) as $oc
    | ((($r.s.params // []) | map({(.name): .count}) | add) // {}) as $nc
    | [(["grid", "block", "shared_mem"][] as $k
        | select($ol[$k] != $nl[$k])
        | "\($k) \($ol[$k] | tojson) -> \($nl[$k] | tojson)"),
       (($oc + $nc) | keys[] as $p | select($oc[$p] != $nc[$p])
        | "count \($p) \($oc[$p]) -> \($nc[$p])")]
    | select(length > 0)
    | [$r.id, "\($o.confidence.overall)->\($r.s.confidence.overall)",
       join("; ")] | @tsv'
