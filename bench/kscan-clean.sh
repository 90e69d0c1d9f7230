#!/bin/sh
# How cleanly kscan parses each corpus, before and after a change: per
# corpus, its kernels, those whose unit parses with no error, and the
# units' errors summed over the kernels' records (benchmark 77).  CPU only.
#
#	sh bench/kscan-clean.sh BEFORE AFTER NAME...
#
# BEFORE and AFTER hold NAME/kscan.ndjson each (bench/funnel.sh -t kscan
# into BEFORE/NAME and AFTER/NAME).  One Markdown row per NAME.
set -eu
[ $# -ge 3 ] || { echo "usage: bench/kscan-clean.sh BEFORE AFTER NAME..." >&2; exit 2; }
a=$1 b=$2
shift 2
# clean FILE: kernels parsing with no error; errors FILE: their sum
clean() { jq -r 'select(.scan.diagnostics.errors == 0) | .id' "$1" | wc -l | tr -d ' '; }
errors() { jq '.scan.diagnostics.errors // 0' "$1" | awk '{ s += $1 } END { print s + 0 }'; }
echo "| corpus | kernels | parsing with no error | errors |"
echo "|---|---:|---|---|"
for n in "$@"; do
	echo "| $n | $(wc -l < "$b/$n/kscan.ndjson" | tr -d ' ') |" \
	    "$(clean "$a/$n/kscan.ndjson") -> $(clean "$b/$n/kscan.ndjson") |" \
	    "$(errors "$a/$n/kscan.ndjson") -> $(errors "$b/$n/kscan.ndjson") |"
done
