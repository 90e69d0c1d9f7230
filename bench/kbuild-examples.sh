#!/bin/sh
# Reproduce the kbuild figures of BENCHMARKS.md on the example project:
# cold builds at -j1 and -j2 (fresh work directories), a warm rebuild (all
# cached), and each harness's compile time next to a plain `nvcc -c` of the
# same file.  Run from the repository root after `make`.
set -eu
cd "$(dirname "$0")/.."
out=${1:-bench/out}
mkdir -p "$out"
now() { date +%s.%N; }

./kscan examples/src | ./kslice | ./kwrap > "$out/wrapped.ndjson" 2>/dev/null
n=$(wc -l < "$out/wrapped.ndjson")

rm -rf "$out/w1" "$out/w2"
t0=$(now)
KFORGE_WORK=$out/w1 ./kbuild -q -j1 < "$out/wrapped.ndjson" > "$out/built.j1.ndjson"
t1=$(now)
KFORGE_WORK=$out/w2 ./kbuild -q -j2 < "$out/wrapped.ndjson" > "$out/built.j2.ndjson"
t2=$(now)
KFORGE_WORK=$out/w2 ./kbuild -q -j2 < "$out/wrapped.ndjson" > "$out/built.warm.ndjson"
t3=$(now)
cached=$(jq -r '[.build.reference.cached, .build.harness.cached] | .[]' \
    "$out/built.warm.ndjson" | grep -c true || true)

# plain nvcc -c of each harness, next to what kbuild spent building it
jq -r '.wrap.harness.code' "$out/wrapped.ndjson" > /dev/null
i=0
: > "$out/harness.tsv"
while IFS= read -r line; do
	i=$((i + 1))
	d=$(printf '%s\n' "$line" | jq -r '.wrap.harness.dialect')
	[ "$d" = cuda ] || continue
	printf '%s\n' "$line" | jq -r '.wrap.harness.code' > "$out/h.cu"
	a=$(now)
	nvcc -std=c++17 -O2 -c -x cu "$out/h.cu" -o "$out/h.o"
	b=$(now)
	k=$(sed -n "${i}p" "$out/built.j1.ndjson" | jq -r '.build.harness.seconds')
	printf '%s\t%s\n' "$(echo "$b - $a" | bc)" "$k" >> "$out/harness.tsv"
done < "$out/wrapped.ndjson"

awk -v n="$n" -v j1="$(echo "$t1 - $t0" | bc)" -v j2="$(echo "$t2 - $t1" | bc)" \
    -v warm="$(echo "$t3 - $t2" | bc)" -v cached="$cached" '
{ plain += $1; kb += $2; m++ }
END {
	printf "records: %d (reference kernel + harness each)\n", n
	printf "cold -j1: %.2f s (%.2f s per record)\n", j1, j1 / n
	printf "cold -j2: %.2f s (%.2fx faster than -j1)\n", j2, j1 / j2
	printf "warm -j2: %.3f s (%.4f s per record; %d of %d builds cached; %.0fx faster than cold -j1)\n",
	    warm, warm / n, cached, 2 * n, j1 / warm
	printf "harness compile, kbuild (nvcc -o, links libcuda): mean %.2f s\n", kb / m
	printf "harness compile, plain nvcc -c:                  mean %.2f s (%d harnesses)\n", plain / m, m
}' "$out/harness.tsv"
