#!/bin/sh
# How many records' sizes move from one kwrap binary to the next, on saved
# kslice outputs: a binary per step of a change (the first the baseline),
# each step compared with the one before it.
#
#	sh bench/kwrap-sizes.sh KSLICE.ndjson KWRAP0 KWRAP1 [KWRAP2 ...]
#
# "Sizes" are what decides whether the reference stays in its buffers: a
# buffer's count and dtype, an input's fill, the dynamic shared memory
# and the scalars of every case.  Prints a Markdown table: per step, the
# records whose sizes differ from the step before, and of those how many
# changed a count, a dtype, a fill, the shared memory or a case; the last
# column, apart, counts the records whose grid or block moved.
set -eu
in=${1:?usage: bench/kwrap-sizes.sh KSLICE.ndjson KWRAP0 KWRAP1 ...}
shift
[ $# -ge 2 ] || { echo "usage: bench/kwrap-sizes.sh KSLICE.ndjson KWRAP0 KWRAP1 ..." >&2; exit 2; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
n=0
for kw in "$@"; do
	"$kw" < "$in" 2> /dev/null | jq -c '{id, c: [(.wrap.spec.params // [])[]
	    | [.name, .count, .dtype]], f: [(.wrap.spec.params // [])[]
	    | [.name, .fill]], s: .wrap.spec.launch.shared_mem,
	    k: [(.wrap.spec.cases // [])[] | .scalars],
	    l: [.wrap.spec.launch.grid, .wrap.spec.launch.block]}' > "$t/$n"
	n=$((n + 1))
done
echo "| step | records | sizes moved | counts or dtypes | fills | shared memory | case scalars | launch |"
echo "|---|---|---|---|---|---|---|---|"
i=1
for kw in "$@"; do
	[ "$kw" = "$1" ] && continue
	jq -rn --slurpfile a "$t/$((i - 1))" --slurpfile b "$t/$i" --arg step "$(basename "$kw")" '
	    ($a | map({(.id): .}) | add // {}) as $A
	    | [$b[] | . as $r | $A[$r.id] as $o | select($o != null)
	       | {c: ($o.c != $r.c), f: ($o.f != $r.f), s: ($o.s != $r.s),
	          k: ($o.k != $r.k), l: ($o.l != $r.l)}] as $d
	    | [$step, ($b | length),
	       ($d | map(select(.c or .f or .s or .k)) | length),
	       ($d | map(select(.c)) | length), ($d | map(select(.f)) | length),
	       ($d | map(select(.s)) | length), ($d | map(select(.k)) | length),
	       ($d | map(select(.l)) | length)]
	    | "| " + (map(tostring) | join(" | ")) + " |"'
	i=$((i + 1))
done
