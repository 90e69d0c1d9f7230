#!/bin/sh
# GPU tests for kverify (make test-gpu), on a machine with an NVIDIA GPU,
# the CUDA driver and, for --sanitize, compute-sanitizer.  Needs only
# ./kverify, the repository and the work directory that test/gpu/prepare.sh
# filled (builds, candidate records, kverify's libraries): no jq, no
# python, no compiler.  Prints TAP; exits with the number of failures.
#
#	sh test/gpu/run.sh [PART...]	(make test-gpu [PARTS="PART..."])
#
# PART is core, hip, import, judge, specs or export (test/gpu/PART.sh);
# without one, all of them in that order.
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
cd "$root" || exit 2
KFORGE_WORK=${KFORGE_WORK:-$root/.kforge}
export KFORGE_WORK
g=$KFORGE_WORK/gpu-test
if [ ! -f "$g/built.ndjson" ] || [ ! -f "$g/cands.ndjson" ] || [ ! -x ./kverify ]; then
	echo "test/gpu/run.sh: run make and sh test/gpu/prepare.sh first" >&2
	exit 2
fi
LD_LIBRARY_PATH=$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
out=$g/out
# kverify workers for the calls whose records are independent (-j: the
# GPU is shared, timing has it alone); KV_J=1 runs them one at a time
JOBS=${KV_J:-4}
# the parts, in order: sh test/gpu/run.sh PART... runs those alone (on a
# machine lent for less time than the whole takes); export reads core's
# golden and judge's records
parts=${*:-core hip import judge specs export}
for p in $parts; do
	case $p in
	core|hip|import|judge|specs|export) ;;
	*) echo "test/gpu/run.sh: no part named $p (core hip import judge specs export)" >&2
	   exit 2 ;;
	esac
done
rm -rf "$out"
mkdir -p "$out"
n=0
failed=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
	fi
}

# line FILE ID: the output line of one record
line() {
	awk -v id="\"id\":\"$2\"" 'index($0, id) == 2' "$1"
}

# val FILE ID KEY: the scalar after the first "KEY": in that record
val() {
	line "$1" "$2" | awk -v k="\"$3\":" '{
		i = index($0, k)
		if (i == 0) { print "absent"; exit }
		s = substr($0, i + length(k))
		if (substr(s, 1, 1) == "\"") {
			s = substr(s, 2); print substr(s, 1, index(s, "\"") - 1)
		} else {
			match(s, /^[^,}\]]*/); print substr(s, 1, RLENGTH)
		}
	}'
}

has() {
	line "$1" "$2" | grep -q -- "$3"
}

echo "# device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"

for p in $parts; do
	. "$root/test/gpu/$p.sh"
done

echo "1..$n"
echo "# test-gpu: $n tests, $failed failed; outputs in $out"
exit "$failed"
