#!/bin/sh
# Run every built example harness, every test case, under compute-sanitizer
# memcheck on a GPU machine.
#
#   here:    bench/gpu-harness-memcheck.sh prepare BUILT.ndjson > LIST
#   on GPU:  bench/gpu-harness-memcheck.sh run LIST OUTDIR
#
# prepare needs jq; run needs only sh, awk and the CUDA toolkit.  LIST holds
# one line per record: id, harness, module, kernel symbol, number of cases;
# paths are under $KFORGE_WORK (default .kforge), which must travel along.
set -eu
cmd=${1:?usage: gpu-harness-memcheck.sh prepare BUILT | run LIST OUTDIR}
work=${KFORGE_WORK:-.kforge}

case $cmd in
prepare)
	jq -r --arg w "$work" '
	    select(.build.harness.ok and .build.reference.ok and
	        .build.reference.runnable) |
	    [.id,
	     "\($w)/build/\(.build.harness.artifact[0:2])/\(.build.harness.artifact)/harness",
	     "\($w)/build/\(.build.reference.artifact[0:2])/\(.build.reference.artifact)/\(.build.reference.file)",
	     .build.reference.symbol,
	     (.wrap.spec.cases | length)] | @tsv' "$2"
	;;
run)
	list=$2
	out=$3
	mkdir -p "$out"
	cs=${CUDA_PATH:-/usr/local/cuda}/bin/compute-sanitizer
	[ -x "$cs" ] || cs=compute-sanitizer
	nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader \
	    > "$out/gpu.txt" 2>&1 || true
	printf 'id\tcase\tharness_status\tmemcheck_errors\n' > "$out/memcheck.tsv"
	tab=$(printf '\t')
	while IFS=$tab read -r id harness module symbol ncases; do
		c=0
		while [ "$c" -lt "$ncases" ]; do
			d=$out/run.$$; rm -rf "$d"; mkdir -p "$d"
			st=0
			"$cs" --tool memcheck --print-limit 5 "$harness" "$module" \
			    "$symbol" "$d" --case "$c" > "$d.log" 2>&1 || st=$?
			errs=$(awk '/ERROR SUMMARY:/ { print $4 }' "$d.log" | tail -1)
			printf '%s\t%d\t%d\t%s\n' "$id" "$c" "$st" "${errs:-?}" \
			    >> "$out/memcheck.tsv"
			if [ "$st" -ne 0 ] || [ "${errs:-?}" != 0 ]; then
				{ echo "== $id case $c (status $st)"; tail -30 "$d.log"; } \
				    >> "$out/failures.log"
			fi
			rm -rf "$d" "$d.log"
			c=$((c + 1))
		done
	done < "$list"
	awk -F'\t' 'NR > 1 { n++; if ($3 == 0 && $4 == "0") ok++ }
	    END { printf "cases: %d, clean under memcheck: %d\n", n, ok }' \
	    "$out/memcheck.tsv"
	;;
*)
	echo "usage: gpu-harness-memcheck.sh prepare BUILT | run LIST OUTDIR" >&2
	exit 2
	;;
esac
