#!/bin/sh
# The mutation bench's GPU half (bench/mutation-pack.sh made its input):
# for each OUT, kbuild the tasks with their mutants (this GPU's arch),
# kverify them with -j processes sharing the GPU (no timing), then say,
# per corpus and overall: how many references pass as their own
# candidate among those with a golden (nondeterministic ones, judged in
# their band, counted apart), and the mutation score (killed over tried,
# equivalent and stillborn mutants apart) with its distribution over the
# tasks and the operators of the survivors.  Needs no jq: awk reads the
# kreport JSON lines.
#
#	sh bench/mutation-gpu.sh [-d seconds] [-j jobs] [-t seconds] OUT...
#
# -j: kbuild jobs and kverify processes (default: the CPUs).  -t: the
# mutant's --mutant-timeout per case (default 5).  -d: stop kverify after
# this many seconds.  Writes OUT/built.ndjson, OUT/verified.ndjson and
# mutation.md next to the first OUT.
set -eu
k=$(cd "$(dirname "$0")/.." && pwd)
bin=${KFORGE_BIN:-$k}
jobs=$(nproc 2> /dev/null || echo 4)
tmo=5
deadline=
while getopts d:j:t: o; do
	case $o in
	d) deadline=$OPTARG ;;
	j) jobs=$OPTARG ;;
	t) tmo=$OPTARG ;;
	*) echo "usage: bench/mutation-gpu.sh [-d seconds] [-j jobs] [-t seconds] OUT..." >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: bench/mutation-gpu.sh [-d seconds] [-j jobs] [-t seconds] OUT..." >&2; exit 2; }
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
: > "$md"

for out in "$@"; do
	out=$(cd "$out" && pwd)
	n=$(basename "$out")
	t0=$(date +%s)
	KFORGE_WORK=$out/work "$bin/kbuild" -q -j "$jobs" --arch "$arch" \
	    < "$out/mut.ndjson" > "$out/built.ndjson" || true
	t1=$(date +%s)
	# deal the records to the processes, four at a time
	rm -f "$out"/part.*
	awk -v j="$jobs" -v d="$out" '{ print > (d "/part." int((NR - 1) / 4) % j) }' \
	    "$out/built.ndjson"
	for p in "$out"/part.*; do
		# shellcheck disable=SC2086
		KFORGE_WORK=$out/work ${deadline:+timeout $deadline} \
		    "$bin/kverify" -q --no-time --mutant-timeout "$tmo" \
		    < "$p" > "$p.out" 2> "$p.err" &
	done
	wait
	cat "$out"/part.*.out > "$out/verified.ndjson"
	t2=$(date +%s)
	"$bin/kreport" --export kforge "$out/verified.ndjson" > "$out/rows.ndjson" || true
	echo "# $n: kbuild $((t1 - t0)) s, kverify $((t2 - t1)) s"
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
		if (tr == "" || tr + 0 == 0) next
		scored++; tried += tr; killed += ki; equiv += eq
		s = ki / tr
		if (s == 1) b[1]++; else if (s >= .95) b[2]++
		else if (s >= .9) b[3]++; else if (s >= .8) b[4]++
		else if (s >= .5) b[5]++; else b[6]++
	}
	END {
		printf "| %s | %d | %d | %d of %d | %d of %d | %d | %d | %d | %s | %d / %d / %d / %d / %d / %d |\n",
		    name, tasks, gold, pass, gold, ndpass, ndet, scored, tried,
		    killed, tried ? sprintf("%.1f%%", 100 * killed / tried) : "-",
		    b[1], b[2], b[3], b[4], b[5], b[6]
	}' "$out/rows.ndjson" >> "$md"
	# the operators of the survivors
	grep -o '"survivors":\[[^]]*\]' "$out/verified.ndjson" |
	    grep -o '"op":"[a-z-]*"' | cut -d'"' -f4 | sort | uniq -c |
	    sort -rn | awk -v n="$n" '{ printf "%s%s %s", (NR > 1 ? ", " : "# " n " survivors: "), $2, $1 } END { if (NR) print "" }'
done
{
	echo "| corpus | tasks | golden | reference passes as itself | of them nondeterministic | scored | mutants tried | killed | score | tasks at 100% / 95-99 / 90-95 / 80-90 / 50-80 / <50% |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	cat "$md"
} > "$md.tmp" && mv "$md.tmp" "$md"
awk -F'|' 'NR > 2 { t += $8; k += $9 } END { printf "# overall: %d of %d mutants killed (%.1f%%)\n", k, t, t ? 100 * k / t : 0 }' "$md"
cat "$md"
