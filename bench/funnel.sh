#!/bin/sh
# The funnel of one code base, CPU half: how many kernels kscan finds,
# how many slices kslice cuts, how many of those compile alone with their
# slice.flags and hold the kernel's symbol, how many harnesses build, and
# the specs by confidence.  The GPU half (bench/funnel-gpu.sh) runs
# kverify over what this leaves in OUT and counts the verified tasks;
# bench/funnel-table.sh turns both into BENCHMARKS.md's table.
#
#	sh bench/funnel.sh [-n kernels] [-f stage] [-t stage] ROOT [OUT]
#
# ROOT is the code base (only read).  OUT (default bench/out/funnel/NAME,
# NAME being ROOT's last component) gets each stage's output, the work
# directory kbuild filled (OUT/work) and counts.json.  -n N samples N
# kernels, evenly spaced in id order, when kscan finds more (default 60;
# 0: all of them).  -f STAGE reuses the saved outputs of the stages before
# STAGE (kslice, kwrap or kbuild) and runs from there; -t STAGE stops after
# it (kwrap: leave kbuild to bench/funnel-gpu.sh, on a machine with more
# cores; the compile counts then come from there).  Extra kbuild
# options come from $FUNNEL_KBUILD (e.g. "--flag -DNDEBUG"), kslice's from
# $FUNNEL_KSLICE (default "--types float": float instances, as in the
# earlier mmcv figures), kscan's from $FUNNEL_KSCAN (e.g. "--no-chain":
# the operator chain reads the files that bind kernels to ops as well,
# which the funnel's counts do not need).
set -eu
n=60
from=kscan
to=kbuild
usage="usage: bench/funnel.sh [-n kernels] [-f stage] [-t stage] ROOT [OUT]"
while getopts n:f:t: o; do
	case $o in
	n) n=$OPTARG ;;
	f) from=$OPTARG ;;
	t) to=$OPTARG ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
root=${1:?$usage}
k=$(cd "$(dirname "$0")/.." && pwd)
name=$(basename "$(cd "$root" && pwd)")
out=${2:-$k/bench/out/funnel/$name}
mkdir -p "$out"
out=$(cd "$out" && pwd)
KFORGE_WORK=$out/work
export KFORGE_WORK
case $from in kscan|kslice|kwrap|kbuild) ;; *)
	echo "funnel: -f: one of kslice, kwrap, kbuild: $from" >&2; exit 2 ;;
esac

case $to in kscan|kslice|kwrap|kbuild) ;; *)
	echo "funnel: -t: one of kscan, kslice, kwrap, kbuild: $to" >&2; exit 2 ;;
esac

# the stage runs when it is $from or comes after it, up to $to
runs() {
	on=0
	for s in kscan kslice kwrap kbuild; do
		[ "$s" = "$from" ] && on=1
		[ "$s" = "$1" ] && return $((1 - on))
		[ "$s" = "$to" ] && on=0
	done
	return 1
}

t0=$(date +%s)
if runs kscan; then
	(cd "$root" && "$k/kscan" -q -j2 ${FUNNEL_KSCAN:-} .) > "$out/kscan.ndjson" || true
	# evenly spaced in id order, so that a rerun samples the same kernels
	jq -s -c --argjson n "$n" 'map(select(.scan != null)) | sort_by(.id) |
	    length as $l | if $n == 0 or $l <= $n then .[] else
	    [range(0; $n) | ($l * . / $n | floor)] as $ix | .[$ix[]] end' \
	    "$out/kscan.ndjson" > "$out/sample.ndjson"
fi
t1=$(date +%s)
if runs kslice; then
	# kscan ran in ROOT: its paths are relative to it
	# shellcheck disable=SC2086
	(cd "$root" && "$k/kslice" -q ${FUNNEL_KSLICE---types float}) \
	    < "$out/sample.ndjson" \
	    > "$out/kslice.ndjson" || true
fi
t2=$(date +%s)
if runs kwrap; then
	"$k/kwrap" -q < "$out/kslice.ndjson" > "$out/kwrap.ndjson" || true
fi
t3=$(date +%s)
if runs kbuild; then
	# shellcheck disable=SC2086
	"$k/kbuild" -q -j2 ${FUNNEL_KBUILD:-} < "$out/kwrap.ndjson" \
	    > "$out/kbuild.ndjson" || true
fi
t4=$(date +%s)

# counts.json: the CPU half's figures (bench/funnel-gpu.sh recounts
# after its own kbuild)
runs kbuild || : > "$out/kbuild.ndjson"
jq -n -c --arg name "$name" --arg commit "$(git -C "$root" log -1 \
    --format=%h 2> /dev/null || echo unknown)" \
    --argjson n "$n" \
    --argjson secs "[$((t1 - t0)),$((t2 - t1)),$((t3 - t2)),$((t4 - t3))]" \
    --slurpfile scan "$out/kscan.ndjson" \
    --slurpfile sample "$out/sample.ndjson" \
    --slurpfile slice "$out/kslice.ndjson" \
    --slurpfile wrap "$out/kwrap.ndjson" \
    --slurpfile build "$out/kbuild.ndjson" '
    def noerr: (.errors // []) | length == 0;
    {corpus: $name, commit: $commit, sample_limit: $n,
     seconds: {kscan: $secs[0], kslice: $secs[1], kwrap: $secs[2],
	       kbuild: $secs[3]},
     kernels: [$scan[] | select(.scan != null)] | length,
     sampled: $sample | length,
     slices: [$slice[] | select(.slice.code != null)] | length,
     with_flags: [$slice[] | select((.slice.flags // []) | length > 0)]
	| length,
     specs: ([$wrap[] | select(.wrap.harness.code != null) |
	.wrap.spec.confidence.overall // "none"] | group_by(.) |
	map({(.[0]): length}) | add // {}),
     compiled: [$build[] | select(.build.reference.ok == true)] | length,
     compiled_symbol: [$build[] | select(.build.reference.ok == true and
	.build.reference.symbol != null)] | length,
     harness_built: [$build[] | select(.build.reference.ok == true and
	.build.reference.symbol != null and .build.harness.ok == true)]
	| length}' > "$out/counts.json"
jq -r '"\(.corpus): \(.kernels) kernels, \(.sampled) sampled, \(.slices) " +
    "slices (\(.with_flags) with flags), \(.compiled_symbol) compile alone " +
    "with the kernel symbol, \(.harness_built) with a harness; specs " +
    "\(.specs | tostring)"' "$out/counts.json"
