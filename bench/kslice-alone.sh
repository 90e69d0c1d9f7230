#!/bin/sh
# Slices that compile alone: reslice a saved sample of one corpus and
# compile every slice's reference with kbuild --check (its slice.flags, no
# harness), counting the slices that compile and hold the kernel symbol,
# and the failures by their first error message (the cause classes of
# BENCHMARKS.md, section "Slices that compile alone").
#
#	sh bench/kslice-alone.sh ROOT DIR [TAG]
#
# ROOT is the code base (only read).  DIR holds sample.ndjson, the kscan
# records to slice (bench/funnel.sh -t kscan ROOT DIR leaves it there).
# TAG (default "now") names this run's files in DIR: kslice.TAG.ndjson,
# kbuild.TAG.ndjson and causes.TAG.txt; the kbuild cache is DIR/work, so
# a second run recompiles only the slices that changed.  Extra kslice
# options come from $KSLICE_OPTS (default "--types float", as the
# funnel); $KSLICE names another kslice to run (a baseline build),
# $KBUILD_JOBS kbuild's -j (default 2).
set -eu
usage="usage: bench/kslice-alone.sh ROOT DIR [TAG]"
root=${1:?$usage}
dir=${2:?$usage}
tag=${3:-now}
k=$(cd "$(dirname "$0")/.." && pwd)
dir=$(cd "$dir" && pwd)
KFORGE_WORK=$dir/work
export KFORGE_WORK
[ -s "$dir/sample.ndjson" ] || { echo "kslice-alone: no $dir/sample.ndjson" >&2; exit 2; }

t0=$(date +%s)
# shellcheck disable=SC2086
(cd "$root" && "${KSLICE:-$k/kslice}" -q ${KSLICE_OPTS---types float}) \
    < "$dir/sample.ndjson" > "$dir/kslice.$tag.ndjson" || true
t1=$(date +%s)
"$k/kbuild" -q -j"${KBUILD_JOBS:-2}" --check < "$dir/kslice.$tag.ndjson" \
    > "$dir/kbuild.$tag.ndjson" || true
t2=$(date +%s)

# one line per slice that does not compile alone with its symbol: the
# first error (kslice's, else the compiler's first error diagnostic)
jq -r 'select(.slice.code != null) |
    select((.build.reference.ok == true and
	.build.reference.symbol != null) | not) |
    [.id, ((.errors // [])[0].message //
	([.build.reference.diagnostics[]? | select(.severity == "error")]
	    [0].message) // (.build.reference.log // "?" |
	    split("\n") | map(select(test("error|Error"))) | .[0]) // "?")]
    | @tsv' "$dir/kbuild.$tag.ndjson" > "$dir/causes.$tag.txt"
slices=$(jq -s '[.[] | select(.slice.code != null)] | length' \
    "$dir/kbuild.$tag.ndjson")
ok=$(jq -s '[.[] | select(.build.reference.ok == true and
    .build.reference.symbol != null)] | length' "$dir/kbuild.$tag.ndjson")
echo "$(basename "$dir") $tag: $ok of $slices slices compile alone with" \
    "the kernel symbol (kslice $((t1 - t0)) s, kbuild $((t2 - t1)) s)"
