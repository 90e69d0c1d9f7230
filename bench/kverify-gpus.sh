#!/bin/sh
# kverify on one GPU, then on every GPU of the machine, over the same
# records, in one session: the rate of verdicts (records out over the
# wall clock) on each, and their ratio (issue 19: 4 GPUs at least 3.5x
# one).  Each run is bounded by LIMIT seconds and counts the records it
# finished, so that a queue long enough for the many-GPU run is not a
# wait of many minutes for the one-GPU run; the queue must outlast both
# (the script says so where it ran dry).
#
#	sh bench/kverify-gpus.sh IN.ndjson [COPIES]
#
# IN: records kverify can judge: kbuild's output, or kverify's own output
# (the goldens are then taken again and only the candidate and its timing
# run, with KFORGE_WORK the directory they were built in).  COPIES
# (default 1) repeats every record under a new id, so that a small set
# gives the workers a longer queue; the copies share their artifacts.
# Environment: GPUS (how many, default nvidia-smi's count), JOBS (kverify
# -j: workers per GPU, default 1), LIMIT (seconds a run, default 300),
# KV_ARGS (more kverify options, e.g. --no-time or --timeout 10), KV
# (the kverify, default ./kverify), OUT (a directory that keeps each
# run's output, out.0 and out.0-1-..., and its samples; default none),
# SPLIT (1: a third run, one kverify process per GPU, each given every
# GPUS-th record: the fan-out of one host's GPUs over processes, against
# one process's workers over them all).  Every run is sampled each 5 s
# (the CPUs' busy share, the load, memory the machine has and has free,
# dirty pages) into samp.RUN, and its CPUs' busy share over the whole run
# is printed.  Needs awk only (no jq): it runs on the GPU machine.
set -eu
[ $# -ge 1 ] || { echo "usage: kverify-gpus.sh in.ndjson [copies]" >&2; exit 2; }
in=$1 copies=${2:-1}
KV=${KV:-./kverify}
JOBS=${JOBS:-1} LIMIT=${LIMIT:-300}
GPUS=${GPUS:-$(nvidia-smi -L 2> /dev/null | grep -c '^GPU' || true)}
[ "${GPUS:-0}" -ge 1 ] 2> /dev/null || GPUS=1
tmp=${TMPDIR:-/tmp}/kverify-gpus.$$
mkdir -p "$tmp"
trap '[ -z "${OUT:-}" ] || { mkdir -p "$OUT"; cp "$tmp"/out.* "$tmp"/err.* "$tmp"/samp.* "$OUT"/; }
rm -rf "$tmp"' EXIT
# copy by copy, not record by record: a run bounded by LIMIT judges a
# prefix of the queue, and every prefix must hold the same mix of records
# for the two runs' rates to compare (benchmark 70: with each record's
# copies side by side, the one-GPU run judged only the first, lighter
# records and the many-GPU run went on to heavier ones)
awk -v n="$copies" '{ r[NR] = $0 } END { for (i = 0; i < n; i++)
	for (k = 1; k <= NR; k++) { l = r[k]
	sub(/^\{"id":"/, "{\"id\":\"copy" i ":", l); print l } }' "$in" > "$tmp/in"
all=$(awk -v n="$GPUS" 'BEGIN { for (i = 0; i < n; i++) printf "%s%d", i ? "," : "", i }')
echo "# device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2> /dev/null | head -n 1) x $GPUS; $(nproc) CPUs"
echo "# records: $(wc -l < "$tmp/in"); kverify -j $JOBS ${KV_ARGS:-}; at most $LIMIT s a run"
# the CPUs' busy and total jiffies, from /proc/stat's first line
cpu() { awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t; exit }' /proc/stat; }
# sampler RUN: every 5 s, the records RUN has put out so far and the machine
sampler() {
	# shellcheck disable=SC2046
	set -- $(cpu)
	while sleep 5; do
		b0=$1 j0=$2
		# shellcheck disable=SC2046
		set -- $(cpu)
		awk -v b="$(($1 - b0))" -v t="$(($2 - j0))" -v l="$(cut -d' ' -f1 /proc/loadavg)" \
		    -v o="$(cat "$tmp/out.$f" "$tmp"/out.split.* 2> /dev/null | wc -l)" \
		    -v now="$(date +%T)" '
		    /^MemTotal:/ { m = $2 } /^MemFree:/ { f = $2 } /^Dirty:/ { d = $2 }
		    END { printf "%s out=%d cpu=%.0f%% load=%s mem=%dM free=%dM dirty=%dM\n",
			now, o, t ? 100 * b / t : 0, l, m / 1024, f / 1024, d / 1024 }' /proc/meminfo
	done
}
runs=0
[ "$all" != 0 ] && runs="0 $all"
[ "${SPLIT:-0}" = 1 ] && [ "$all" != 0 ] && runs="$runs split"
for g in $runs; do
	# files are named with dashes: out.0-1-2-3 (a comma is not a name
	# every copying tool takes)
	f=$(echo "$g" | tr , -)
	sampler > "$tmp/samp.$f" &
	sp=$!
	c0=$(cpu)
	t0=$(date +%s.%N)
	if [ "$g" = split ]; then
		# one process per GPU, each its share of the queue
		k=0 pids=
		for d in $(echo "$all" | tr , ' '); do
			awk -v n="$GPUS" -v k="$k" 'NR % n == k' "$tmp/in" > "$tmp/in.$d"
			# shellcheck disable=SC2086
			timeout -s KILL "$LIMIT" "$KV" -q -j "$JOBS" ${KV_ARGS:-} --gpus "$d" \
			    < "$tmp/in.$d" > "$tmp/out.split.$d" 2> "$tmp/err.split.$d" &
			pids="$pids $!" k=$((k + 1))
		done
		for p in $pids; do wait "$p" || true; done
		cat "$tmp"/out.split.* > "$tmp/out.$f"
		rm -f "$tmp"/out.split.*
	else
		# shellcheck disable=SC2086
		timeout -s KILL "$LIMIT" "$KV" -q -j "$JOBS" ${KV_ARGS:-} --gpus "$g" \
		    < "$tmp/in" > "$tmp/out.$f" 2> "$tmp/err.$f" || true
	fi
	t1=$(date +%s.%N)
	kill "$sp" 2> /dev/null || true
	wait "$sp" 2> /dev/null || true
	echo "--gpus $g: the CPUs $(cpu | awk -v a="$c0" 'BEGIN { split(a, c, " ") }
	    { printf "%.0f%%", 100 * ($1 - c[1]) / ($2 - c[2]) }') busy over the run"
	n=$(wc -l < "$tmp/out.$f")
	echo "$t0 $t1 $n" > "$tmp/t.$f"
	# how many of the distinct records the run reached, and how far
	kinds=$(sed -n 's/^{"id":"copy[0-9]*:\([^"]*\)".*/\1/p' "$tmp/out.$f" | sort -u | wc -l)
	echo "--gpus $g: $kinds of $(wc -l < "$in") distinct records among those out"
	per=$(grep -o '"gpu":[0-9]*' "$tmp/out.$f" | cut -d: -f2 | sort | uniq -c |
	    awk '{ printf "%sGPU %s: %s", s, $2, $1; s = ", " }')
	awk -v g="$g" -v a="$t0" -v b="$t1" -v p="$per" -v n="$n" \
	    -v all="$(wc -l < "$tmp/in")" -v ok="$(grep -c '"pass_exe":true' "$tmp/out.$f" || true)" \
	    'BEGIN { printf "--gpus %s\t%.1f s\t%d of %d records out (%d passed)\t%.0f verdicts per hour\t%s%s\n",
		g, b - a, n, all, ok, 3600 * n / (b - a), p,
		n == all ? "\t(the queue ran dry: the rate is a lower bound)" : "" }'
	# the candidate's checking run, in the order the records came out:
	# a run that slows as it goes shows here (benchmark 69)
	awk '{ if (match($0, /"mode":"check"[^}]*"seconds":[0-9.]+/)) {
		c = substr($0, RSTART, RLENGTH); sub(/.*"seconds":/, "", c)
		s += c; n++; if (n % 150 == 0) { o = o sprintf(" %d:%.3f", n, s / 150); s = 0 } } }
	    END { if (o != "") print "check run, mean s by 150 records out:" o }' "$tmp/out.$f"
done
[ "$all" = 0 ] && exit 0
set -- "$tmp/t.0" "$tmp/t.$(echo "$all" | tr , -)"
[ -f "$tmp/t.split" ] && set -- "$@" "$tmp/t.split"
awk '{ r[NR] = $3 / ($2 - $1) } END {
	printf "ratio\t%.2fx the verdicts per second of one GPU on %d\n", r[2] / r[1], '"$GPUS"'
	if (NR > 2) printf "ratio\t%.2fx with one process per GPU\n", r[3] / r[1] }' \
    "$@"
