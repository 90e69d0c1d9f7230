#!/bin/sh
# Spec confidence on saved kslice output: how many records' specs two kwrap
# binaries rate high, medium and low (wrap.spec.confidence.overall; none:
# no spec, a kwrap error), each corpus through both in the same run.
#
#	sh bench/kwrap-confidence.sh BASELINE-KWRAP KWRAP NAME=KSLICE.ndjson...
#
# A saved kslice output of a corpus, sampled to at most 160 kernels:
#	kscan -q -j1 DIR > scan.ndjson
#	k=$(( ($(wc -l < scan.ndjson) + 159) / 160 ))
#	awk -v k=$k '(NR - 1) % k == 0' scan.ndjson | kslice -q > NAME.ndjson
# Prints a Markdown table: one row per corpus and binary; "launch high"
# counts spec.confidence.launch, "block guessed" the specs whose block
# size is a guess.
base=${1:?usage: bench/kwrap-confidence.sh BASELINE-KWRAP KWRAP NAME=FILE...}
new=${2:?usage: bench/kwrap-confidence.sh BASELINE-KWRAP KWRAP NAME=FILE...}
shift 2
# per record: overall confidence, launch confidence, 1 if the block size
# is a guess ("block size ...: not a constant at the launch site")
count() {
	"$1" < "$2" 2> /dev/null |
	    jq -r '[.wrap.spec.confidence.overall // "none",
	        .wrap.spec.confidence.launch // "none",
	        ([.wrap.spec.confidence.guesses[]? |
	        select(startswith("block size"))] | length)] | @tsv' |
	    awk '{ n[$1]++; t++; if ($2 == "high") lh++; if ($3 > 0) bg++ }
	        END { printf "%d | %d | %d | %d | %d | %d | %d", t, n["high"],
	        n["medium"], n["low"], n["none"], lh, bg }'
}
echo "| corpus | kwrap | records | high | medium | low | none | launch high | block guessed |"
echo "|---|---|---|---|---|---|---|---|---|"
for arg in "$@"; do
	name=${arg%%=*}
	file=${arg#*=}
	echo "| $name | baseline | $(count "$base" "$file") |"
	echo "| $name | new | $(count "$new" "$file") |"
done
