#!/bin/sh
# The funnel's GPU half, on a machine with an NVIDIA GPU, nvcc and
# compute-sanitizer: for each OUT directory bench/funnel.sh left, build
# what is not built yet (kbuild, this GPU's arch, all cores), run kverify
# on every record (its verdict: golden deterministic, clean under memcheck
# on case 0, every output element written, not degenerate), then print
# the Markdown table and the causes (bench/funnel-table.sh).
#
#	sh bench/funnel-gpu.sh [-Frs] [-d seconds] [-g gpus] [-j jobs] [-t seconds] OUT...
#
# -s: every record with a harness gets its reference's own code as the
# candidate before kbuild, so that each golden also judges the reference
# as its own candidate (the table counts how many pass).
#
# Each corpus's records are queued kernel by kernel: the first instance
# of every kernel (kslice's parent) before any kernel's second, so that a
# deadline leaves a sample of the kernels judged, not the instances of
# the first few.  -r: resume the queue an earlier run (stopped by -d)
# left in OUT/chunks: chunks it finished are kept, the others run (a
# chunk stopped midway, from its start).
#
# -F: kverify --fit, the GPU sizing step before the verdict (a spec's
# counts grown under compute-sanitizer memcheck until clean, outputs shrunk
# to what is written, fitted across the cases); the fit statuses are
# counted after the table, and table.md gets them too.
# -j: kverify processes at once (default: the number of CPUs); records
# are dealt to them four at a time, the corpora in turn (a deadline leaves
# each partly judged).  -g: how many GPUs they share (default 1): the
# queue's Nth chunk runs on GPU N mod gpus (CUDA_VISIBLE_DEVICES).
# -t: kverify's --timeout per test case (default 10; memcheck gets ten
# times as long).  -d: stop kverify after this many seconds (a machine
# lent for a limited time); records it did not reach (or did not finish:
# a chunk stopped midway keeps the records it finished) get the error
# kverify/not-run and are counted as such.  The tools are taken from $KFORGE_BIN (default the
# repository root); where $KFORGE_BIN/lib exists (the libraries a machine
# without jansson needs, see bench/funnel-pack.sh) it is put on
# LD_LIBRARY_PATH; a packed copy (bench/funnel-pack.sh) has the tools and
# lib/ next to bench/.  Extra kbuild options come from $FUNNEL_KBUILD.
# Writes OUT/kbuild.ndjson (when it builds), OUT/kverify.ndjson, and
# table.md in the first OUT's parent.
set -eu
k=$(cd "$(dirname "$0")/.." && pwd)
bin=${KFORGE_BIN:-$k}
jobs=$(nproc 2> /dev/null || echo 4)
tmo=10
gpus=1
deadline=
fit=
resume=
self=
while getopts Frsd:g:j:t: o; do
	case $o in
	F) fit=--fit ;;
	r) resume=1 ;;
	s) self=1 ;;
	d) deadline=$OPTARG ;;
	g) gpus=$OPTARG ;;
	j) jobs=$OPTARG ;;
	t) tmo=$OPTARG ;;
	*) echo "usage: bench/funnel-gpu.sh [-Frs] [-d seconds] [-g gpus] [-j jobs] [-t seconds] OUT..." >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: bench/funnel-gpu.sh [-Frs] [-d seconds] [-g gpus] [-j jobs] [-t seconds] OUT..." >&2; exit 2; }
if [ -d "$bin/lib" ]; then
	LD_LIBRARY_PATH=$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
fi
export KFORGE_BIN=$bin
echo "# device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2> /dev/null | head -n 1)"
echo "# nvcc: $(nvcc --version 2> /dev/null | grep -o 'release [0-9.]*' | head -n 1)"
echo "# $(nproc) CPUs, $gpus GPU(s), $jobs kverify processes, --timeout $tmo${fit:+, --fit}${self:+, the reference as its own candidate}"

for out in "$@"; do
	out=$(cd "$out" && pwd)
	# kbuild where funnel.sh stopped before it (or its output is older)
	if [ ! -s "$out/kbuild.ndjson" ] ||
	    [ "$out/kwrap.ndjson" -nt "$out/kbuild.ndjson" ]; then
		t0=$(date +%s)
		# shellcheck disable=SC2086
		jq -c --arg self "$self" 'if $self != "" and
		    .wrap.harness.code != null and .slice.code != null then
		    .candidate = {code: .slice.code,
		    dialect: (.scan.dialect // "cuda")} else . end' \
		    "$out/kwrap.ndjson" |
		KFORGE_WORK=$out/work "$bin/kbuild" -q -j "$jobs" \
		    ${FUNNEL_KBUILD:-} > "$out/kbuild.ndjson" || true
		echo "# $(basename "$out"): kbuild $(($(date +%s) - t0)) s"
	fi
done

# kverify: chunks of four records from every corpus in one queue, the
# corpora taken in turn (a chunk of each, then the next of each), so that
# a deadline leaves every corpus partly judged rather than the last ones
# not at all
q=$(mktemp -d)
trap 'rm -rf "$q"' EXIT
i=0
for out in "$@"; do
	out=$(cd "$out" && pwd)
	i=$((i + 1))
	if [ -z "$resume" ] || [ ! -d "$out/chunks" ]; then
		rm -rf "$out/chunks"
		mkdir -p "$out/chunks"
		# kernel by kernel (bench/kernel-order.sh)
		sh "$k/bench/kernel-order.sh" "$out/kbuild.ndjson" |
		    awk -v d="$out/chunks" '{ f = sprintf("%s/%05d.in", d, int((NR - 1) / 4))
		    print > f }'
	fi
	for c in "$out"/chunks/*.in; do
		[ -f "$c" ] && [ ! -f "${c%.in}.out" ] && echo "$c" >> "$q/list.$i"
	done
done
: > "$q/list"
for f in "$q"/list.*; do
	[ -f "$f" ] && nl -ba "$f" | awk -v c="${f##*.}" '{ printf "%08d %04d %s\n", $1, c, $2 }'
done | sort | cut -d' ' -f3- | awk '{ print NR - 1, $0 }' > "$q/list"
t0=$(date +%s)
# each: its place in the queue (which GPU: the place mod gpus) and the
# chunk; KFORGE_WORK is the chunk's corpus's work directory
${deadline:+timeout -s KILL "$deadline"} xargs -P "$jobs" -n 2 sh -c 'd=$(dirname "$(dirname "$2")");
    if [ '"$gpus"' -gt 1 ]; then
	CUDA_VISIBLE_DEVICES=$(($1 % '"$gpus"')); export CUDA_VISIBLE_DEVICES
    fi
    KFORGE_WORK=$d/work "$KFORGE_BIN/kverify" -q --no-time '"$fit"' --timeout "'"$tmo"'" \
    < "$2" > "${2%.in}.part" 2> /dev/null; mv "${2%.in}.part" "${2%.in}.out"' \
    sh < "$q/list" || echo "# kverify: stopped after ${deadline:-?} s"
echo "# kverify: $(($(date +%s) - t0)) s for $(wc -l < "$q/list") chunks${resume:+ (resumed)}"
for out in "$@"; do
	out=$(cd "$out" && pwd)
	: > "$out/kverify.ndjson"
	for c in "$out"/chunks/*.in; do
		[ -f "$c" ] || continue
		if [ -f "${c%.in}.out" ]; then
			cat "${c%.in}.out" >> "$out/kverify.ndjson"
		else
			# stopped midway: the records kverify finished (whole
			# lines of the .part it was writing) count; the others,
			# and those of a chunk not reached, say they were not run
			[ -f "${c%.in}.part" ] || : > "${c%.in}.part"
			jq -c -R 'fromjson? // empty | select(type == "object")' \
			    "${c%.in}.part" > "${c%.in}.done"
			cat "${c%.in}.done" >> "$out/kverify.ndjson"
			jq -c --slurpfile done "${c%.in}.done" '
			    ([$done[] | .id]) as $ids |
			    select(.id as $i | $ids | index($i) | not) |
			    .errors = (.errors // []) + [{stage: "kverify",
			    code: "not-run", message: "\(.id): the GPU run'"'"'s time
			    limit came first"}]' "$c" >> "$out/kverify.ndjson"
		fi
	done
done
{
	sh "$k/bench/funnel-table.sh" "$@"
	if [ -n "$fit" ]; then
		# what the sizing step did, per corpus
		echo
		echo "| corpus | fit not needed | confirmed | fitted | bound | failed | skipped | memcheck runs | fitted and verified |"
		echo "|---|---|---|---|---|---|---|---|---|"
		for out in "$@"; do
			out=$(cd "$out" && pwd)
			jq -s -r --arg c "$(basename "$out")" '
			    def n($s): map(select(.fit.status == $s)) | length;
			    "| \($c) | \(n("not-needed")) | \(n("confirmed")) | \(n("fitted")) | " +
			    "\(n("bound")) | \(n("failed")) | \(n("skipped")) | " +
			    "\(map(.fit.memcheck_runs // 0) | add // 0) | " +
			    "\(map(select((.fit.status == "fitted" or .fit.status == "bound") and .verify.verified.value == true)) | length) |"' \
			    "$out/kverify.ndjson"
		done
		echo
		echo "Why fits failed, largest first:"
		echo
		for out in "$@"; do
			jq -r 'select(.fit.status == "failed") | .fit.why |
			    sub("^case [0-9]+: "; "") | gsub("[0-9]+"; "N") | .[0:90]' \
			    "$(cd "$out" && pwd)/kverify.ndjson"
		done | sort | uniq -c | sort -rn | head -n 15 | sed 's/^/    /'
	fi
} | tee "$(cd "$1" && pwd)/../table.md"
