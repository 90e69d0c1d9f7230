#!/bin/sh
# kverify's golden runs over kbuild output, by two kverify binaries in one
# session on the same GPU: a baseline (e.g. one built from an older commit)
# and the one under test.  Prints wall seconds and seconds per record of
# each, and their ratio.
#
#	sh bench/kverify-batch.sh BASELINE CANDIDATE BUILT.ndjson
#
# Both binaries use the same work directory ($KFORGE_WORK), so the same
# built harnesses and modules; every record's verify section is discarded
# (the output goes to $TMPDIR).
set -eu
[ $# -eq 3 ] || { echo "usage: kverify-batch.sh baseline candidate built.ndjson" >&2; exit 2; }
base=$1 cand=$2 built=$3
n=$(wc -l < "$built")
tmp=${TMPDIR:-/tmp}/kverify-batch.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
for who in base cand; do
	eval bin=\$$who
	t0=$(date +%s.%N)
	"$bin" --no-time < "$built" > "$tmp/$who.ndjson" 2> "$tmp/$who.err" || true
	t1=$(date +%s.%N)
	golden=$(grep -c '"golden":\[{' "$tmp/$who.ndjson" || true)
	awk -v w="$who" -v a="$t0" -v b="$t1" -v n="$n" -v g="$golden" 'BEGIN {
		printf "%s\t%.1f s\t%.2f s/record\t%d of %d with golden outputs\n", w, b - a, (b - a) / n, g, n }'
	echo "$t0 $t1" > "$tmp/$who.t"
done
awk '{ print $2 - $1 }' "$tmp/base.t" "$tmp/cand.t" | tr '\n' ' ' |
    awk '{ printf "ratio\t%.2fx faster\n", $1 / $2 }'
