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
# run's output, out.0 and out.0,1,...; default none).  Needs awk only (no
# jq): it runs on the GPU machine.
set -eu
[ $# -ge 1 ] || { echo "usage: kverify-gpus.sh in.ndjson [copies]" >&2; exit 2; }
in=$1 copies=${2:-1}
KV=${KV:-./kverify}
JOBS=${JOBS:-1} LIMIT=${LIMIT:-300}
GPUS=${GPUS:-$(nvidia-smi -L 2> /dev/null | grep -c '^GPU' || true)}
[ "${GPUS:-0}" -ge 1 ] 2> /dev/null || GPUS=1
tmp=${TMPDIR:-/tmp}/kverify-gpus.$$
mkdir -p "$tmp"
trap '[ -z "${OUT:-}" ] || { mkdir -p "$OUT"; cp "$tmp"/out.* "$tmp"/err.* "$OUT"/; }
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
for g in 0 "$all"; do
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	timeout -s KILL "$LIMIT" "$KV" -q -j "$JOBS" ${KV_ARGS:-} --gpus "$g" \
	    < "$tmp/in" > "$tmp/out.$g" 2> "$tmp/err.$g" || true
	t1=$(date +%s.%N)
	n=$(wc -l < "$tmp/out.$g")
	echo "$t0 $t1 $n" > "$tmp/t.$g"
	# how many of the distinct records the run reached, and how far
	kinds=$(sed -n 's/^{"id":"copy[0-9]*:\([^"]*\)".*/\1/p' "$tmp/out.$g" | sort -u | wc -l)
	echo "--gpus $g: $kinds of $(wc -l < "$in") distinct records among those out"
	per=$(grep -o '"gpu":[0-9]*' "$tmp/out.$g" | cut -d: -f2 | sort | uniq -c |
	    awk '{ printf "%sGPU %s: %s", s, $2, $1; s = ", " }')
	awk -v g="$g" -v a="$t0" -v b="$t1" -v p="$per" -v n="$n" \
	    -v all="$(wc -l < "$tmp/in")" -v ok="$(grep -c '"pass_exe":true' "$tmp/out.$g" || true)" \
	    'BEGIN { printf "--gpus %s\t%.1f s\t%d of %d records out (%d passed)\t%.0f verdicts per hour\t%s%s\n",
		g, b - a, n, all, ok, 3600 * n / (b - a), p,
		n == all ? "\t(the queue ran dry: the rate is a lower bound)" : "" }'
	# the candidate's checking run, in the order the records came out:
	# a run that slows as it goes shows here (benchmark 69)
	awk '{ if (match($0, /"mode":"check"[^}]*"seconds":[0-9.]+/)) {
		c = substr($0, RSTART, RLENGTH); sub(/.*"seconds":/, "", c)
		s += c; n++; if (n % 150 == 0) { o = o sprintf(" %d:%.3f", n, s / 150); s = 0 } } }
	    END { if (o != "") print "check run, mean s by 150 records out:" o }' "$tmp/out.$g"
done
[ "$all" = 0 ] && exit 0
awk '{ r[NR] = $3 / ($2 - $1) } END {
	printf "ratio\t%.2fx the verdicts per second of one GPU on %d\n", r[2] / r[1], '"$GPUS"' }' \
    "$tmp/t.0" "$tmp/t.$all"
