#!/bin/sh
# Every stage under valgrind's memcheck, each on the saved intermediate of
# the examples that it reads (examples/kscan.ndjson for kslice, and so on),
# so that the stages are independent and none waits on a slow one: kscan
# on examples/src, kslice, kwrap, kbuild with a warm cache (warmed first
# without valgrind: the compilers are not the subject), kverify on the
# records kbuild wrote (no GPU here: the no-device path), kreport on
# kverify's.  Forked workers (kscan's and kslice's parsers) are traced and
# write their own logs (%p); exec'd children (nvcc, harnesses) are not.
# Prints one line per stage: exit status, seconds, definite and indirect
# leaks and memcheck errors summed over the stage's processes; exits 1
# when any stage has leaks of either kind or errors.
#
#	sh bench/valgrind-pipeline.sh [outdir [stage...]]
#	    (default bench/out/valgrind, every stage)
cd "$(dirname "$0")/.." || exit 2
out=${1:-bench/out/valgrind}
[ $# -gt 0 ] && shift
stages=${*:-kscan kslice kwrap kbuild kverify kreport}
mkdir -p "$out" || exit 2
command -v valgrind > /dev/null || { echo "valgrind not installed" >&2; exit 2; }
KFORGE_WORK=$(cd "$out" && pwd)/work
export KFORGE_WORK
# libclang's own leaks at exit would drown ours: suppress leaks whose
# stacks are only libclang/LLVM, never a kforge frame
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

# the cache kbuild's run is measured against
if echo "$stages" | grep -q kbuild; then
	./kbuild -q -j 2 < examples/kwrap.ndjson > "$out/kbuild.warm" 2>&1
fi

# sum N "pattern" logs...: the sum of the number before "bytes in" (or
# after "ERROR SUMMARY:") over the last matching line of each log
sum_bytes() {
	what=$1
	shift
	for l in "$@"; do
		sed -n "s/.*$what: \([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\1 \2/p" "$l" |
		    tail -n 1
	done | tr -d , | awk '{ b += $1; n += $2 } END { printf "%d bytes in %d blocks", b, n }'
}
sum_errors() {
	for l in "$@"; do
		sed -n 's/.*ERROR SUMMARY: \([0-9,]*\) errors.*/\1/p' "$l" | tail -n 1
	done | tr -d , | awk '{ e += $1 } END { print e + 0 }'
}

status=0
for t in $stages; do
	[ -x "./$t" ] || { echo "$t: not built, skipped"; continue; }
	rm -f "$out/$t".*.valgrind
	set -- valgrind --leak-check=full --show-leak-kinds=definite,indirect \
	    --errors-for-leak-kinds=none --error-exitcode=99 \
	    --suppressions="$supp" --log-file="$out/$t.%p.valgrind" "./$t"
	start=$(date +%s)
	case $t in
	kscan)	"$@" examples/src ;;
	kslice)	"$@" < examples/kscan.ndjson ;;
	kwrap)	"$@" < examples/kslice.ndjson ;;
	kbuild)	"$@" -j 2 < examples/kwrap.ndjson ;;
	kverify) "$@" < "$out/kbuild.ndjson" ;;
	kreport) "$@" < "$out/kverify.ndjson" ;;
	esac > "$out/$t.ndjson" 2> "$out/$t.err"
	rc=$?
	end=$(date +%s)
	logs=$(ls "$out/$t".*.valgrind)
	# shellcheck disable=SC2086
	definite=$(sum_bytes "definitely lost" $logs)
	# shellcheck disable=SC2086
	indirect=$(sum_bytes "indirectly lost" $logs)
	# shellcheck disable=SC2086
	errors=$(sum_errors $logs)
	printf '%-8s exit %-3s %5ss  %s process(es)  definitely lost: %s  indirectly lost: %s  errors: %s\n' \
	    "$t" "$rc" "$((end - start))" "$(echo "$logs" | wc -l)" \
	    "$definite" "$indirect" "$errors"
	case "$definite $indirect $errors" in
	"0 bytes in 0 blocks 0 bytes in 0 blocks 0") ;;
	*) status=1 ;;
	esac
done
exit "$status"
