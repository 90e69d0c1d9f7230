#!/bin/sh
# kscan's throughput against a plain extractor, and a rerun against a cold
# run (BENCHMARKS.md, "kscan: parse cache, recall of skipped branches,
# throughput").
#
#	bench/kscan-throughput.sh [-j jobs] CORPUS_DIR...
#
# For each directory, in one run: kscan -j jobs (default 2) with an empty
# parse cache, --timing naming the files it parsed; bench/kextract, one
# process, parsing exactly those files once each with the include
# directories kscan's records name (-I DIR, as kscan gives a directory
# argument, and those it added to resolve quoted includes); kscan again on the
# unchanged files, served by the cache.  Prints the wall times, the
# throughput ratio (extractor time / kscan cold time, both over the same
# files) and the rerun speed-up (cold / warm), per directory and summed,
# with the load average before and after; then the CPU time (user + system,
# with /usr/bin/time) of the cold kscan and of the extractor, which other
# jobs on the machine move less than wall time.
set -eu
jobs=2
if [ "${1:-}" = -j ]; then jobs=$2; shift 2; fi
here=$(cd "$(dirname "$0")/.." && pwd)
out=$here/bench/out/throughput
mkdir -p "$out"
make -s -C "$here" kscan bench/kextract >/dev/null
# the toolkit kscan parses with, for bench/kextract too
if [ -z "${KFORGE_CUDA_PATH:-}" ] && [ -d "$here/deps/cuda-12.4" ]; then
	KFORGE_CUDA_PATH=$here/deps/cuda-12.4
	export KFORGE_CUDA_PATH
fi
now() { date +%s.%N; }
# cpu FILE COMMAND...: run it, user + system seconds into FILE
cpu() {
	f=$1
	shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %S' -o "$f" "$@"
	else
		echo '0 0' > "$f"
		"$@"
	fi
}

echo "machine: $(nproc) CPUs, $(uname -sr); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-12s %6s %8s %8s %10s %8s %10s %8s %8s\n' corpus files \
    kscan_s kextr_s throughput warm_s rerun_x kernels kextr_k
tk=0 te=0 tw=0 tkc=0 tec=0 cpus=
for dir in "$@"; do
	name=$(basename "$dir")
	work=$out/work.$name
	rm -rf "$work"
	# the files in the page cache, so neither side pays for the disk
	find "$dir" -type f -exec cat {} + > /dev/null
	t0=$(now)
	(cd "$dir" && cpu "$out/$name.cold.cpu" env KFORGE_WORK="$work" \
	    "$here/kscan" -q -j "$jobs" --timing .) \
	    > "$out/$name.cold.ndjson" 2> "$out/$name.cold.err" || true
	t1=$(now)
	sed -n 's/^kscan: \(.*\): parsed in .*/\1/p' "$out/$name.cold.err" |
	    sed 's|^\./||' > "$out/$name.files"
	t2=$(now)
	jq -r '.scan.flags // [] | . as $f | range(0; length) |
	    select($f[.] == "-I") | "-I\($f[. + 1])"' "$out/$name.cold.ndjson" |
	    sort -u > "$out/$name.incs"
	(cd "$dir" && cpu "$out/$name.kextract.cpu" xargs \
	    "$here/bench/kextract" $(cat "$out/$name.incs") \
	    < "$out/$name.files") \
	    > "$out/$name.kextract" 2> "$out/$name.kextract.err" || true
	t3=$(now)
	(cd "$dir" && KFORGE_WORK=$work "$here/kscan" -q -j "$jobs" --timing .) \
	    > "$out/$name.warm.ndjson" 2> "$out/$name.warm.err" || true
	t4=$(now)
	cmp -s "$out/$name.cold.ndjson" "$out/$name.warm.ndjson" ||
		echo "warning: $name: the rerun's records differ" >&2
	k=$(echo "$t1 - $t0" | bc) e=$(echo "$t3 - $t2" | bc) w=$(echo "$t4 - $t3" | bc)
	printf '%-12s %6d %8.2f %8.2f %9.2fx %8.2f %9.1fx %8d %8d\n' "$name" \
	    "$(wc -l < "$out/$name.files")" "$k" "$e" "$(echo "$e / $k" | bc -l)" \
	    "$w" "$(echo "$k / $w" | bc -l)" \
	    "$(grep -c '"scan"' "$out/$name.cold.ndjson" || true)" \
	    "$(sort -u "$out/$name.kextract" | wc -l)"
	tk=$(echo "$tk + $k" | bc) te=$(echo "$te + $e" | bc) tw=$(echo "$tw + $w" | bc)
	# the last line: time(1) puts a non-zero exit status before it
	kc=$(tail -n 1 "$out/$name.cold.cpu" | awk '{ print $1 + $2 }')
	ec=$(tail -n 1 "$out/$name.kextract.cpu" | awk '{ print $1 + $2 }')
	tkc=$(echo "$tkc + $kc" | bc) tec=$(echo "$tec + $ec" | bc)
	cpus="$cpus$(printf '%-12s %10.2f %10.2f %9.2fx' "$name" "$kc" "$ec" \
	    "$(echo "$ec / ($kc + 0.001)" | bc -l)")
"
done
printf '%-12s %6s %8.2f %8.2f %9.2fx %8.2f %9.1fx\n' all "" "$tk" "$te" \
    "$(echo "$te / $tk" | bc -l)" "$tw" "$(echo "$tk / $tw" | bc -l)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-12s %10s %10s %10s\n' corpus kscan_cpu kextr_cpu cpu_ratio
printf '%s' "$cpus"
printf '%-12s %10.2f %10.2f %9.2fx\n' all "$tkc" "$tec" \
    "$(echo "$tec / ($tkc + 0.001)" | bc -l)"
