#!/bin/sh
# Launch sites found by two kscan outputs of the same tree (A: the
# baseline's, B: the change's), per corpus: kernels, launches, kernels
# with at least one launch, and the kernels whose launches changed
# (gained, lost), with the template arguments B found where A found none.
#
#	sh bench/launches-ab.sh A.ndjson B.ndjson [NAME]
#
# Making the two outputs: in the tree, `kscan -q -j2 . > A.ndjson` with
# each build (a rebuilt kscan never reads the other's parse cache).
set -eu
[ $# -ge 2 ] || { echo "usage: bench/launches-ab.sh a.ndjson b.ndjson [name]" >&2; exit 2; }
a=$1 b=$2 name=${3:-$(basename "$b" .ndjson)}
command -v jq > /dev/null || { echo "launches-ab: needs jq" >&2; exit 2; }
jq -n -r --arg name "$name" --slurpfile a "$a" --slurpfile b "$b" '
def per($s): [$s[] | select(.scan != null) |
    {key: .id, value: [.scan.launches[]? | .template_args | join(",")]}] |
    from_entries;
def row($m): [($m | length), ([$m[] | length] | add // 0),
    ([$m[] | select(length > 0)] | length)];
per($a) as $A | per($b) as $B |
([$B | keys[] | . as $k | select(($A[$k] // [] | length) < ($B[$k] | length))]) as $gain |
([$A | keys[] | . as $k | select(($B[$k] // [] | length) < ($A[$k] | length))]) as $lost |
"| \($name) | \(row($A) | join(" / ")) | \(row($B) | join(" / ")) | \($gain | length) | \($lost | length) |",
($gain[] | . as $k | "#   + \($k): \($A[$k] // [] | length) -> \($B[$k] | length) launches: \($B[$k][0:4] | map("<" + . + ">") | join(" "))"),
($lost[] | . as $k | "#   - \($k): \($A[$k] | length) -> \($B[$k] // [] | length) launches")'
