#!/bin/sh
# The stages that the lib/ helpers and the kreport cut changed, against a
# baseline build of the same stages, in one run on the same machine:
#
#   bench/lib-helpers.sh BASEDIR [REPS]
#
# BASEDIR holds the baseline's built kscan, kslice and kreport (e.g. a
# "git archive main" built with make).  Each measurement alternates
# baseline and this tree REPS times (default 5) and prints the median
# wall seconds of each and their ratio (this tree / baseline).
set -eu
cd "$(dirname "$0")/.."
base=${1:?usage: bench/lib-helpers.sh BASEDIR [REPS]}
reps=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# kreport's input: the test records, 500 times over (10,000 lines)
i=0
while [ $i -lt 500 ]; do
	cat test/kreport/input.ndjson
	i=$((i + 1))
done > "$tmp/report.ndjson"

# seconds CMD...: wall seconds of one run, output discarded
seconds() {
	s=$(date +%s.%N)
	"$@" > /dev/null 2>&1 || true
	e=$(date +%s.%N)
	echo "$e - $s" | bc
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# measure NAME STDIN ARGS...: baseline and this tree, alternating
measure() {
	name=$1 in=$2
	shift 2
	: > "$tmp/a"
	: > "$tmp/b"
	r=0
	while [ $r -lt "$reps" ]; do
		seconds sh -c '"$0" "$@" < '"$in" "$base/$name" "$@" >> "$tmp/a"
		seconds sh -c '"$0" "$@" < '"$in" "./$name" "$@" >> "$tmp/b"
		r=$((r + 1))
	done
	a=$(median < "$tmp/a")
	b=$(median < "$tmp/b")
	printf '%-28s baseline %7.3f s  this tree %7.3f s  ratio %.2f\n' \
	    "$name $*" "$a" "$b" "$(echo "$b / $a" | bc -l)"
}

measure kreport "$tmp/report.ndjson" --format md
measure kreport "$tmp/report.ndjson" --format html
measure kreport "$tmp/report.ndjson" --format json
measure kscan /dev/null examples/src
measure kslice examples/kscan.ndjson
