#!/bin/sh
# kverify on one GPU, then on two, over the same built records, in one
# session on a two-GPU machine.  Prints wall seconds, the records each GPU
# took, and the ratio.
#
#	sh bench/kverify-gpus.sh BUILT.ndjson [COPIES]
#
# COPIES (default 1) repeats every record under a new id, so that a small
# set gives the workers a longer queue; the copies share their artifacts.
# Needs awk only (no jq): it runs on the GPU machine.
set -eu
[ $# -ge 1 ] || { echo "usage: kverify-gpus.sh built.ndjson [copies]" >&2; exit 2; }
built=$1 copies=${2:-1}
tmp=${TMPDIR:-/tmp}/kverify-gpus.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
awk -v n="$copies" '{ for (i = 0; i < n; i++) { l = $0
	sub(/^\{"id":"/, "{\"id\":\"copy" i ":", l); print l } }' "$built" > "$tmp/in"
echo "records: $(wc -l < "$tmp/in")"
for g in 0 0,1; do
	t0=$(date +%s.%N)
	./kverify --no-time --gpus "$g" < "$tmp/in" > "$tmp/out.$g" 2> "$tmp/err.$g" || true
	t1=$(date +%s.%N)
	echo "$t0 $t1" > "$tmp/t.$g"
	per=$(grep -o '"gpu":[0-9]*' "$tmp/out.$g" | cut -d: -f2 | sort | uniq -c |
	    awk '{ printf "%sGPU %s: %s records", s, $2, $1; s = ", " }')
	awk -v g="$g" -v a="$t0" -v b="$t1" -v p="$per" -v n="$(wc -l < "$tmp/out.$g")" \
	    'BEGIN { printf "--gpus %s\t%.1f s\t%d records out\t%s\n", g, b - a, n, p }'
done
awk '{ print $2 - $1 }' "$tmp/t.0" "$tmp/t.0,1" | tr '\n' ' ' |
    awk '{ printf "ratio\t%.2fx faster on two GPUs\n", $1 / $2 }'
