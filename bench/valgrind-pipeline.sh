#!/bin/sh
# The whole pipeline over the examples, each stage under valgrind's
# memcheck, fed the previous stage's output (produced under valgrind as
# well).  Prints one line per stage with its definite leaks and memcheck
# errors; exits 1 when any stage has either.  Without a GPU kverify's
# records fail with no-device, which is fine here.  Child processes (nvcc,
# harnesses) are not traced.
#
#	sh bench/valgrind-pipeline.sh [outdir]     (default bench/out/valgrind)
cd "$(dirname "$0")/.." || exit 2
out=${1:-bench/out/valgrind}
mkdir -p "$out" || exit 2
command -v valgrind > /dev/null || { echo "valgrind not installed" >&2; exit 2; }
KFORGE_WORK=$(cd "$out" && pwd)/work
export KFORGE_WORK
# libclang's own leaks at exit would drown ours: suppress frames that are
# only libclang/LLVM, never a kforge frame
supp=$out/libclang.supp
cat > "$supp" <<'SUPP'
{
   libclang-only
   Memcheck:Leak
   ...
   obj:*libclang*
}
{
   libLLVM-only
   Memcheck:Leak
   ...
   obj:*libLLVM*
}
SUPP

status=0
prev=
for t in kscan kslice kwrap kbuild kverify kreport; do
	[ -x "./$t" ] || { echo "$t: not built, skipped"; continue; }
	[ "$t" = kreport ] && [ -z "$prev" ] && continue
	log=$out/$t.valgrind
	set -- valgrind --leak-check=full --errors-for-leak-kinds=definite \
	    --show-leak-kinds=definite --error-exitcode=99 \
	    --suppressions="$supp" --log-file="$log" "./$t"
	start=$(date +%s)
	if [ "$t" = kscan ]; then
		"$@" examples/src > "$out/$t.ndjson" 2> "$out/$t.err"
	else
		"$@" < "$prev" > "$out/$t.ndjson" 2> "$out/$t.err"
	fi
	rc=$?
	end=$(date +%s)
	definite=$(sed -n 's/.*definitely lost: \([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\1 bytes in \2 blocks/p' "$log" | tail -n 1)
	errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9,]*\) errors.*/\1/p' "$log" | tail -n 1)
	printf '%-8s exit %-3s %4ss  definitely lost: %s  errors: %s  (%s)\n' \
	    "$t" "$rc" "$((end - start))" "${definite:-0 bytes in 0 blocks}" \
	    "${errors:-?}" "$log"
	[ "$rc" -ne 99 ] || status=1
	prev=$out/$t.ndjson
done
exit "$status"
