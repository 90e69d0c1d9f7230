#!/bin/sh
# Exported tasks on a GPU machine: every verified task of a kverify output
# (bench/funnel-gpu.sh's OUT/kverify.ndjson with its OUT/work, mmcv's for
# issue 20) exported with kreport --export-dir, each folder's test.cu built
# with plain nvcc in the folder (as a user would: no kforge, no flags but
# the slice's), run there, and counted: built, PASS, FAIL.  Then the
# wrong-kernel check: each folder's killed mutants (--export-mutants, where
# kwrap ran with --mutants) copied over kernel.cu must build and FAIL.
#
#	sh bench/export-gpu.sh [-j jobs] [-m mutants] [-t seconds] OUT
#
# -j: nvcc builds at once (default: the number of CPUs); -m: mutants per
# task (default 1); -t: the limit of one ./test run (default 120 s).
# Tools from $KFORGE_BIN (default the repository root, or a packed copy
# with lib/, as bench/funnel-gpu.sh); nvcc from $NVCC or PATH.  Writes
# OUT/export/ (the folders), OUT/export.ndjson (kreport's lines),
# OUT/export-runs.tsv (folder, build status, run status, last line) and
# prints a Markdown table.
set -eu
k=$(cd "$(dirname "$0")/.." && pwd)
bin=${KFORGE_BIN:-$k}
jobs=$(nproc 2> /dev/null || echo 4)
muts=1
tmo=120
while getopts j:m:t: o; do
	case $o in
	j) jobs=$OPTARG ;;
	m) muts=$OPTARG ;;
	t) tmo=$OPTARG ;;
	*) echo "usage: bench/export-gpu.sh [-j jobs] [-m mutants] [-t seconds] OUT" >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: bench/export-gpu.sh [-j jobs] [-m mutants] [-t seconds] OUT" >&2; exit 2; }
out=$(cd "$1" && pwd)
[ -f "$out/kverify.ndjson" ] || { echo "export-gpu: no $out/kverify.ndjson" >&2; exit 2; }
if [ -d "$bin/lib" ]; then
	LD_LIBRARY_PATH=$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
fi
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
export NVCC
echo "# device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2> /dev/null | head -n 1)"
echo "# nvcc: $("$NVCC" --version 2> /dev/null | grep -o 'release [0-9.]*' | head -n 1), $jobs builds at once"

x=$out/export
rm -rf "$x"
t0=$(date +%s)
KFORGE_WORK=${KFORGE_WORK:-$out/work} "$bin/kreport" -q --export-dir "$x" \
    --export-mutants "$muts" "$out/kverify.ndjson" > "$out/export.ndjson" || true
t1=$(date +%s)
records=$(wc -l < "$out/export.ndjson")
dirs=$(grep -o '"dir":"[^"]*"' "$out/export.ndjson" | cut -d'"' -f4 || true)
ndirs=$(printf '%s\n' "$dirs" | grep -c . || true)
echo "# kreport: $records records, $ndirs folders in $((t1 - t0)) s ($(du -sh "$x" 2> /dev/null | cut -f1))"
grep -o '"skipped":"[^"]*"' "$out/export.ndjson" | sort | uniq -c | sort -rn |
    sed 's/^/# skipped: /' || true

# build every folder, then run each in turn with a time limit
# (task.json's command: the slice's flags; nvcc as $NVCC); a folder that
# does not build so is tried again with -arch=native and counted apart
printf '%s\n' "$dirs" | grep . | xargs -P "$jobs" -I{} sh -c 'cd "$1" &&
    c=$(sed -n "s/^  \"build\": \"\(.*\)\",\$/\1/p" task.json) &&
    eval "\"\$NVCC\"${c#nvcc}" > build.log 2>&1; echo $? > build.rc
    [ "$(cat build.rc)" -eq 0 ] || { eval "\"\$NVCC\" -arch=native${c#nvcc}" \
        > build-native.log 2>&1 && echo native > build.rc; }' sh {} || true
t2=$(date +%s)
: > "$out/export-runs.tsv"
built=0 native=0 passed=0 failed=0
for d in $dirs; do
	b=$(cat "$d/build.rc" 2> /dev/null || echo 1)
	r=-
	last=$(grep -m 1 'error' "$d/build.log" 2> /dev/null || true)
	[ "$b" = native ] && native=$((native + 1))
	if [ "$b" = 0 ] || [ "$b" = native ]; then
		built=$((built + 1))
		r=0
		(cd "$d" && timeout "$tmo" ./test > run.log 2>&1) || r=$?
		last=$(tail -n 1 "$d/run.log")
		if [ "$r" -eq 0 ] && grep -q '^PASS ' "$d/run.log"; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
		fi
	fi
	printf '%s\t%s\t%s\t%s\n' "$(basename "$d")" "$b" "$r" "$last" >> "$out/export-runs.tsv"
done
t3=$(date +%s)

# killed mutants over kernel.cu: each must build and FAIL
mt=0 mb=0 mf=0
for m in "$x"/*/mutants/*.cu; do
	[ -f "$m" ] || continue
	d=$(dirname "$(dirname "$m")")
	w=$out/export-mutant
	rm -rf "$w"
	mkdir -p "$w"
	cp -R "$d/test.cu" "$d/task.json" "$d/expected" "$w/"
	cp "$m" "$w/kernel.cu"
	mt=$((mt + 1))
	a=
	[ "$(cat "$d/build.rc")" = native ] && a=" -arch=native"
	if (cd "$w" && c=$(sed -n 's/^  "build": "\(.*\)",$/\1/p' task.json) &&
	    eval "\"\$NVCC\"$a${c#nvcc}" > build.log 2>&1); then
		mb=$((mb + 1))
		r=0
		(cd "$w" && timeout "$tmo" ./test > run.log 2>&1) || r=$?
		if [ "$r" -ne 0 ] && tail -n 1 "$w/run.log" | grep -q '^FAIL '; then
			mf=$((mf + 1))
		else
			echo "# mutant not caught: $(basename "$d")/$(basename "$m"): exit $r: $(tail -n 1 "$w/run.log")"
		fi
	fi
done
rm -rf "$out/export-mutant"
t4=$(date +%s)

echo
echo "| exported tasks ($(basename "$out")) | count |"
echo "|---|---:|"
echo "| records | $records |"
echo "| folders (verified CUDA tasks) | $ndirs |"
echo "| builds with task.json's command | $((built - native)) |"
echo "| builds only with -arch=native added | $native |"
echo "| \`./test\` PASS, exit 0 | $passed |"
echo "| \`./test\` not PASS | $failed |"
echo "| killed mutants in kernel.cu: built / FAIL | $mb of $mt / $mf |"
echo
echo "# seconds: export $((t1 - t0)), builds $((t2 - t1)), runs $((t3 - t2)), mutants $((t4 - t3))"
awk -F '\t' '$3 != "0" { print "# not passed: " $1 ": build " $2 ", run " $3 ": " $4 }' \
    "$out/export-runs.tsv" | head -n 40
