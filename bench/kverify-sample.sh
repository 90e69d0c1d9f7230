#!/bin/sh
# kverify over IN with the machine sampled beside it (benchmark 70): every
# STEP seconds a line with the records out, the page cache (Dirty,
# Writeback, Cached), the size of the work directory's verify/, the
# hosts' resident memory and threads (kverify --host), the load, and each
# GPU's memory, SM clock, temperature, power and utilisation.  A run
# that slows as it goes shows which of these grows with it.
#
#	sh bench/kverify-sample.sh IN.ndjson [GPUS]
#
# GPUS: kverify --gpus (default 0).  Environment: KV (the kverify, default
# ./kverify), KV_ARGS (default "-j 8 --host --timeout 10"), LIMIT (seconds,
# default 130), STEP (default 10), KFORGE_WORK (the work directory of
# IN's builds).  Output: the sample lines, then the records out and the
# rate.  Needs awk and nvidia-smi.
set -eu
[ $# -ge 1 ] || { echo "usage: kverify-sample.sh in.ndjson [gpus]" >&2; exit 2; }
in=$1 gpus=${2:-0}
KV=${KV:-./kverify}
LIMIT=${LIMIT:-130} STEP=${STEP:-10}
W=${KFORGE_WORK:-.kforge}
out=${TMPDIR:-/tmp}/kverify-sample.$$
trap 'rm -f "$out"' EXIT
: > "$out"
sample() {
	while :; do
		printf '%s out=%s ' "$(date +%s)" "$(wc -l < "$out")"
		awk '/^(Dirty|Writeback|Cached):/ { printf "%s%dM ", $1, $2 / 1024 }' /proc/meminfo
		printf 'verify=%sM ' "$(du -sm "$W/verify" 2> /dev/null | cut -f1)"
		ps -eo rss=,nlwp=,args= | awk '/kverify-host/ && !/awk/ { h++; r += $1; t += $2; if ($1 > m) m = $1 }
		    END { printf "hosts=%d rss=%dM max=%dM threads=%d ", h, r / 1024, m / 1024, t }'
		printf 'load=%s ' "$(cut -d' ' -f1 /proc/loadavg)"
		nvidia-smi --query-gpu=memory.used,clocks.sm,temperature.gpu,power.draw,utilization.gpu \
		    --format=csv,noheader,nounits | tr -d ' ' | tr '\n' '|'
		echo
		sleep "$STEP"
	done
}
sample &
sp=$!
t0=$(date +%s.%N)
# shellcheck disable=SC2086
timeout -s KILL "$LIMIT" "$KV" -q ${KV_ARGS:--j 8 --host --timeout 10} --gpus "$gpus" \
    < "$in" > "$out" 2> /dev/null || true
t1=$(date +%s.%N)
kill "$sp" 2> /dev/null || true
awk -v a="$t0" -v b="$t1" -v n="$(wc -l < "$out")" -v g="$gpus" \
    'BEGIN { printf "--gpus %s: %d records in %.1f s, %.0f an hour\n", g, n, b - a, 3600 * n / (b - a) }'
