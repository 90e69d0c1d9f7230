#!/bin/sh
# The mutation bench's GPU half (bench/mutation-pack.sh made its input):
# for each OUT, kbuild the tasks with their mutants (this GPU's arch),
# kverify them with -j processes sharing the GPU (no timing), then say,
# per corpus and overall: how many references pass as their own
# candidate among those with a golden (nondeterministic ones, judged in
# their band, counted apart), and the mutation score (killed over tried
# less the survivors kwrap proved equivalent under the spec's cases and
# launch; equivalent and stillborn mutants apart) with its distribution over the
# tasks and the operators of the survivors.  Needs no jq: awk reads the
# kreport JSON lines.
#
#	sh bench/mutation-gpu.sh [-b seconds] [-d seconds] [-g gpus] [-j jobs] [-r rounds] [-t seconds] OUT...
#
# -g: the OUTs at once, spread over this many GPUs of the host (OUT i on
# GPU i mod gpus, CUDA_VISIBLE_DEVICES; each OUT's own log in
# OUT/mutation.log, printed at the end), -j jobs each; without it, one
# OUT after another on every GPU the host shows.
# -r: rounds of survivor cases: the tasks with surviving mutants are
# wrapped again with kwrap --survivor-cases 4 (cases aimed at the
# survivors' lines), built and verified; a task's new record replaces the
# old one where it is still verified (default 0 rounds).
# -j: kbuild jobs and kverify processes (default: the CPUs).  -t: the
# mutant's --mutant-timeout per case (default 5).  -d: stop kverify after
# this many seconds; -b: stop kbuild after this many seconds (the records
# it finished are judged: on a lent machine, mutant builds can take a
# whole call's limit).  Writes OUT/built.ndjson, OUT/verified.ndjson,
# OUT/mutation.row and OUT/mutation.tasks, and next to the first OUT
# mutation.md (per corpus) and mutation-tasks.md (per task, lowest score
# first), from every OUT there that has been run: corpora can be run one
# call at a time.  compute-sanitizer (kverify finds it as for its
# verdict) also kills survivors that read or write past a buffer.
set -eu
k=$(cd "$(dirname "$0")/.." && pwd)
bin=${KFORGE_BIN:-$k}
jobs=$(nproc 2> /dev/null || echo 4)
tmo=5
deadline=
bbound=
rounds=0
gpus=
while getopts b:d:g:j:r:t: o; do
	case $o in
	b) bbound=$OPTARG ;;
	g) gpus=$OPTARG ;;
	d) deadline=$OPTARG ;;
	r) rounds=$OPTARG ;;
	j) jobs=$OPTARG ;;
	t) tmo=$OPTARG ;;
	*) echo "usage: bench/mutation-gpu.sh [-b seconds] [-d seconds] [-g gpus] [-j jobs] [-r rounds] [-t seconds] OUT..." >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: bench/mutation-gpu.sh [-b seconds] [-d seconds] [-g gpus] [-j jobs] [-r rounds] [-t seconds] OUT..." >&2; exit 2; }
if [ -d "$bin/lib" ]; then
	LD_LIBRARY_PATH=$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
fi
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2> /dev/null |
    head -n 1 | tr -d ' .')
arch=sm_${arch:-90}
echo "# device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2> /dev/null | head -n 1), $arch"
echo "# $(nproc) CPUs, $jobs jobs, --mutant-timeout $tmo"
md=$(cd "$(dirname "$1")" && pwd)/mutation.md
if [ -n "$gpus" ]; then
	i=0
	for out in "$@"; do
		# shellcheck disable=SC2086
		CUDA_VISIBLE_DEVICES=$((i % gpus)) sh "$0" ${bbound:+-b "$bbound"} \
		    ${deadline:+-d "$deadline"} -j "$jobs" -r "$rounds" -t "$tmo" \
		    "$out" > "$out/mutation.log" 2>&1 &
		i=$((i + 1))
	done
	wait
	for out in "$@"; do
		grep "^# $(basename "$out")[: ]" "$out/mutation.log" || true
	done
	set --		# each wrote its rows: the tables follow
fi

# verify IN OUT DIR: kbuild and kverify, -j processes sharing the GPU
verify() {
	# shellcheck disable=SC2086
	KFORGE_WORK=$3/work ${bbound:+timeout $bbound} "$bin/kbuild" -q \
	    -j "$jobs" --arch "$arch" < "$1" > "$3/built.tmp" || true
	rm -f "$3"/part.*
	if [ ! -s "$3/built.tmp" ]; then
		: > "$2"
		return 0
	fi
	# deal the records to the processes, four at a time
	awk -v j="$jobs" -v d="$3" '{ print > (d "/part." int((NR - 1) / 4) % j) }' \
	    "$3/built.tmp"
	for p in "$3"/part.*; do
		# shellcheck disable=SC2086
		KFORGE_WORK=$3/work ${deadline:+timeout $deadline} \
		    "$bin/kverify" -q --no-time --mutant-timeout "$tmo" \
		    < "$p" > "$p.out" 2> "$p.err" &
	done
	wait
	cat "$3"/part.*.out > "$2"
	rm -f "$3"/part.* "$3/built.tmp"
}

for out in "$@"; do
	out=$(cd "$out" && pwd)
	n=$(basename "$out")
	t0=$(date +%s)
	verify "$out/mut.ndjson" "$out/verified.ndjson" "$out"
	t1=$(date +%s)
	r=0
	while [ "$r" -lt "$rounds" ]; do
		r=$((r + 1))
		grep '"survivors":\[{' "$out/verified.ndjson" > "$out/surv.ndjson" || true
		[ -s "$out/surv.ndjson" ] || break
		"$bin/kwrap" -q --mutants "$(cat "$out/budget" 2> /dev/null || echo 20)" \
		    --survivor-cases 4 < "$out/surv.ndjson" > "$out/surv.in" || true
		verify "$out/surv.in" "$out/surv.out" "$out"
		# a task's new record replaces its old one where still scored
		awk 'FILENAME == ARGV[1] { if (index($0, "\"mutation\":{")) {
			i = index($0, "\",\""); new[substr($0, 1, i)] = $0 }; next }
		    { i = index($0, "\",\""); k = substr($0, 1, i)
		      print (k in new) ? new[k] : $0 }' \
		    "$out/surv.out" "$out/verified.ndjson" > "$out/verified.tmp"
		mv "$out/verified.tmp" "$out/verified.ndjson"
		echo "# $n: round $r: $(wc -l < "$out/surv.ndjson") tasks with survivors," \
		    "$(grep -c '"survivors":\[{' "$out/verified.ndjson" || true) after"
	done
	t2=$(date +%s)
	"$bin/kreport" --export kforge "$out/verified.ndjson" > "$out/rows.ndjson" || true
	echo "# $n: build and verify $((t1 - t0)) s, $r survivor rounds $((t2 - t1)) s"
	awk -v name="$n" '
	function num(key,   i, s) {
		i = index($0, "\"" key "\":")
		if (i == 0) return ""
		s = substr($0, i + length(key) + 3)
		match(s, /^[^,}]*/)
		return substr(s, 1, RLENGTH)
	}
	{
		tasks++
		if (index($0, "\"deterministic\":null")) next
		gold++
		nd = index($0, "\"deterministic\":false") > 0
		self = index($0, "\"pass_exe\":true") > 0
		pass += self; ndet += nd; ndpass += nd && self
		m = index($0, "\"mutation\":{")
		if (m == 0) next
		$0 = substr($0, m)
		tr = num("tried"); ki = num("killed"); eq = num("equivalent")
		se = num("spec_equivalent") + 0
		if (tr == "" || tr - se <= 0) next
		scored++; tried += tr; killed += ki; equiv += eq; speq += se
		s = ki / (tr - se)
		if (s == 1) b[1]++; else if (s >= .95) b[2]++
		else if (s >= .9) b[3]++; else if (s >= .8) b[4]++
		else if (s >= .5) b[5]++; else b[6]++
	}
	END {
		sc = tried - speq > 0 ? sprintf("%.1f%%", 100 * killed / (tried - speq)) : "-"
		printf "| %s | %d | %d | %d of %d | %d of %d | %d | %d | %d | %d | %s | %d / %d / %d / %d / %d / %d |\n",
		    name, tasks, gold, pass, gold, ndpass, ndet, scored, tried,
		    speq, killed, sc,
		    b[1], b[2], b[3], b[4], b[5], b[6]
	}' "$out/rows.ndjson" > "$out/mutation.row"
	# per task: its score, what killed, the operators of its survivors
	# (between "survivors":[ and ],"mutants":[, where a diff's own
	# brackets cannot end the list early)
	awk -v name="$n" '
	function num(s, key,   i) {
		i = index(s, "\"" key "\":")
		if (i == 0) return ""
		s = substr(s, i + length(key) + 3)
		match(s, /^[^,}]*/)
		return substr(s, 1, RLENGTH)
	}
	{
		m = index($0, "\"mutation\":{")
		if (m == 0) next
		match($0, /^\{"id":"([^"\\]|\\.)*"/)
		id = substr($0, 8, RLENGTH - 8)
		s = substr($0, m)
		tr = num(s, "tried"); ki = num(s, "killed")
		se = num(s, "spec_equivalent") + 0
		if (tr == "" || tr - se <= 0) next
		a = index(s, "\"survivors\":[")
		e = index(s, "],\"equivalents\":[")
		if (e == 0)
			e = index(s, "],\"mutants\":[")
		sv = a > 0 && e > a ? substr(s, a, e - a) : ""
		ops = ""; delete c
		while (match(sv, /"op":"[a-z-]*"/)) {
			c[substr(sv, RSTART + 6, RLENGTH - 7)]++
			sv = substr(sv, RSTART + RLENGTH)
		}
		for (o in c) ops = ops (ops == "" ? "" : ", ") o " " c[o]
		printf "| %s | %s | %d | %d | %d | %.1f%% | %s |\n", name, id, tr,
		    se, ki, 100 * ki / (tr - se), ops == "" ? "-" : ops
	}' "$out/verified.ndjson" | sort -t'|' -k7,7n > "$out/mutation.tasks"
	# the operators of the survivors, over the corpus
	awk -F'|' '{ n = split($8, a, ", "); for (i = 1; i <= n; i++) {
		split(a[i], p, " "); if (p[2] != "") c[p[1]] += p[2] } }
	    END { for (o in c) print c[o], o }' "$out/mutation.tasks" |
	    sort -rn | awk -v n="$n" '{ printf "%s%s %s", (NR > 1 ? ", " : "# " n " survivors: "), $2, $1 } END { if (NR) print "" }'
done
# the tables, over every OUT next to the first one that has been run
# (one call per corpus adds its rows)
parent=$(dirname "$md")
{
	echo "| corpus | tasks | golden | reference passes as itself | of them nondeterministic | scored | mutants tried | equivalent under the spec | killed | score | tasks at 100% / 95-99 / 90-95 / 80-90 / 50-80 / <50% |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	cat "$parent"/*/mutation.row 2> /dev/null
} > "$md"
{
	echo "| corpus | task | mutants tried | equivalent under the spec | killed | score | survivors by operator |"
	echo "|---|---|---|---|---|---|---|"
	cat "$parent"/*/mutation.tasks 2> /dev/null
} > "$parent/mutation-tasks.md"
awk -F'|' 'NR > 2 { t += $8 - $9; e += $9; k += $10 } END { printf "# overall: %d of %d mutants killed (%.1f%%), %d more proven equivalent under the spec left out\n", k, t, t ? 100 * k / t : 0, e }' "$md"
cat "$md"
echo "# per task: $parent/mutation-tasks.md"
