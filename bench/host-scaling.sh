#!/bin/sh
# What concurrent processes on one host cost each other, apart from
# kverify: N processes spread over G GPUs, each running R rounds of a
# small CUDA program (bench/host-scaling.cu: a context alone; a context
# then K rounds of allocate, launch, free; a context then K rounds of
# launch on one buffer) and, given a file of "harness module symbol"
# lines (a kbuild output's artifacts), of a record's harness running
# case 0.  A run's seconds grow with N only where something of the
# host's (not of a GPU's) is shared.
#
# usage: sh bench/host-scaling.sh [-r ROUNDS] [-k K] [-c "N:G ..."] [HARNESSES]
# Needs nvcc and a GPU; every run is bounded by timeout(1).
set -eu
R=3 K=50 CONF=""
while getopts r:k:c: o; do
	case $o in
	r) R=$OPTARG ;;
	k) K=$OPTARG ;;
	c) CONF=$OPTARG ;;
	*) echo "usage: $0 [-r rounds] [-k K] [-c 'N:G ...'] [harnesses]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
H=${1:-}
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/hs.XXXXXX")
trap 'rm -rf "$t"' EXIT
nvcc -O2 -o "$t/hs" "$here/host-scaling.cu"
ng=$(nvidia-smi -L | wc -l)
[ -n "$CONF" ] || CONF="1:1 4:1 16:1 16:$ng 64:$ng"
now() { date +%s.%N; }

# one configuration: N processes, G GPUs, the command's mode
one() {
	n=$1 g=$2 mode=$3
	rm -rf "$t/r"; mkdir -p "$t/r"
	w0=$(now)
	i=0
	while [ "$i" -lt "$n" ]; do
		(
		export CUDA_VISIBLE_DEVICES=$((i % g))
		r=0
		while [ "$r" -lt "$R" ]; do
			s=$(now)
			case $mode in
			harness)
				set -- $(sed -n "$((i % $(wc -l < "$H") + 1))p" "$H")
				mkdir -p "$t/r/o$i-$r"
				if timeout -s KILL 60 "$1" "$2" "$3" "$t/r/o$i-$r" \
				    --case 0 </dev/null >/dev/null 2>&1; then
					rc=0; else rc=$?; fi
				in="- -" ;;
			*)
				if out=$(timeout -s KILL 60 "$t/hs" $mode </dev/null 2>/dev/null); then
					rc=0; else rc=$?; fi
				in=$(echo "$out" | awk '{print $2, $4}')
				[ -n "$in" ] || in="- -" ;;
			esac
			echo "$s $(now) $rc $in"
			r=$((r + 1))
		done > "$t/r/t$i"
		) &
		i=$((i + 1))
	done
	wait
	w1=$(now)
	cat "$t/r"/t* | awk -v n="$n" -v g="$g" -v m="$mode" -v w="$w0 $w1" '
	    { d = $2 - $1; s += d; if (d > mx) mx = d; c++; bad += ($3 != 0)
	      if ($4 != "-") { ni++; si += $4; sl += $5 } }
	    END { split(w, a, " "); wall = a[2] - a[1]
		printf "| %s | %d | %d | %d | %d | %.3f | %.3f | %s | %s | %.2f | %.1f |\n",
		    m, n, g, c, bad, s / c, mx,
		    ni ? sprintf("%.3f", si / ni) : "-",
		    ni ? sprintf("%.3f", sl / ni) : "-", wall, c / wall }'
}

nvidia-smi -L | head -1
echo "rounds $R, K $K"
echo
echo "| run | processes | GPUs | runs | failed | mean s | max s | context s | loop s | wall s | runs/s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for c in $CONF; do
	n=${c%:*} g=${c#*:}
	one "$n" "$g" ctx
	one "$n" "$g" "alloc $K"
	one "$n" "$g" "keep $K"
	[ -z "$H" ] || one "$n" "$g" harness
done
