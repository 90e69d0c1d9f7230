#!/bin/sh
# Two kscans over the same code bases: for each, the kernels, how many
# have a launch, the launches in all, and whether the outputs are the
# same byte for byte (benchmark 71).  Each scan gets a fresh work
# directory, so no parse cache is shared or reused.
#
#	sh bench/kscan-ab.sh KSCAN_A KSCAN_B ROOT...
#
# Prints one line a root; OUT (a directory) keeps each scan's output as
# NAME.a and NAME.b.  Needs jq.
set -eu
[ $# -ge 3 ] || { echo "usage: kscan-ab.sh kscan_a kscan_b root..." >&2; exit 2; }
a=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
b=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
shift 2
tmp=${TMPDIR:-/tmp}/kscan-ab.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
count() {
	jq -s -r '[.[] | select(.scan) | (.scan.launches | length)] |
	    "\(length) kernels, \(map(select(. > 0)) | length) with a launch, \(add // 0) launches"' "$1"
}
for root; do
	name=$(basename "$(cd "$root" && pwd)")
	for v in a b; do
		k=$a
		[ "$v" = b ] && k=$b
		rm -rf "$tmp/work"
		(cd "$root" && KFORGE_WORK=$tmp/work "$k" -q -j1 .) > "$tmp/$name.$v" 2> /dev/null || true
	done
	same=differs
	cmp -s "$tmp/$name.a" "$tmp/$name.b" && same=identical
	printf '%s\tA: %s\tB: %s\t%s\n' "$name" "$(count "$tmp/$name.a")" \
	    "$(count "$tmp/$name.b")" "$same"
	[ -z "${OUT:-}" ] || { mkdir -p "$OUT"; cp "$tmp/$name.a" "$tmp/$name.b" "$OUT"/; }
done
