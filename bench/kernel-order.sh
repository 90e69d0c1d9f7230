#!/bin/sh
# The records of FILE (ndjson), kernel by kernel: each kernel's first
# instance (by .parent, else .id) before any kernel's second, and so on,
# in file order within each round.  The order bench/funnel-gpu.sh queues
# a corpus in, and the one bench/funnel-pack.sh -n takes its sample from.
#
#	sh bench/kernel-order.sh FILE
set -eu
f=${1:?usage: bench/kernel-order.sh FILE}
r=$(mktemp)
trap 'rm -f "$r"' EXIT
# each record's rank among its kernel's instances, then its line
jq -r '(.parent // .id) | tostring' "$f" | awk '{ print ++seen[$0] - 1, NR }' > "$r"
paste -d ' ' "$r" "$f" | sort -n -k1,1 -k2,2 | cut -d ' ' -f3-
