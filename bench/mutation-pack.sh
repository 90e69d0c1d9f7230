#!/bin/sh
# The mutation bench's CPU half: for each funnel OUT directory
# (bench/funnel.sh), take its tasks (only those OUT/kverify.ndjson marks
# verified, when the funnel's GPU half has run), at most -m per corpus
# (default 0: all of them) taken kernel by kernel (bench/kernel-order.sh),
# wrap them again with kwrap --mutants N (switch and straddle cases
# included), give each its own reference as the candidate, and pack the
# tools and those records for a GPU machine (as bench/funnel-pack.sh).
#
#	sh bench/mutation-pack.sh [-m tasks] [-n mutants] DEST OUT...
#
# DEST gets mutation.tar.xz; there, run
#	tar xJf mutation.tar.xz && sh bench/mutation-gpu.sh out/*
# or one corpus per call (sh bench/mutation-gpu.sh out/mmcv, ...): the
# tables gather every corpus run so far.
set -eu
max=0
nmut=20
while getopts m:n: o; do
	case $o in
	m) max=$OPTARG ;;
	n) nmut=$OPTARG ;;
	*) echo "usage: bench/mutation-pack.sh [-m tasks] [-n mutants] DEST OUT..." >&2
	   exit 2 ;;
	esac
done
shift $((OPTIND - 1))
dest=${1:?usage: bench/mutation-pack.sh [-m tasks] [-n mutants] DEST OUT...}
shift
k=$(cd "$(dirname "$0")/.." && pwd)
command -v jq > /dev/null || { echo "mutation-pack: needs jq" >&2; exit 2; }
mkdir -p "$dest"
s=$(mktemp -d)
trap 'rm -rf "$s" "$s.ids"' EXIT
mkdir -p "$s/bench" "$s/lib" "$s/out"
cp "$k/kwrap" "$k/kbuild" "$k/kverify" "$k/kreport" "$s/"
cp "$k/bench/mutation-gpu.sh" "$s/bench/"
for t in kwrap kbuild kverify kreport; do
	ldd "$k/$t" | awk '/=> \// && !/libc\.so|ld-linux|libm\.so|libpthread/ { print $3 }'
done | sort -u | while read -r lib; do cp -L "$lib" "$s/lib/"; done
for o in "$@"; do
	n=$(basename "$o")
	mkdir -p "$s/out/$n"
	echo "$nmut" > "$s/out/$n/budget"
	if [ -s "$o/kverify.ndjson" ]; then
		jq -r 'select(.verify.verified.value == true) | .id' \
		    "$o/kverify.ndjson" > "$s.ids"
	else
		jq -r 'select(.wrap.harness != null) | .id' "$o/kwrap.ndjson" \
		    > "$s.ids"
	fi
	# kernel by kernel (bench/kernel-order.sh), so that -m spreads over
	# a corpus's kernels rather than one template's instances
	sh "$k/bench/kernel-order.sh" "$o/kwrap.ndjson" |
	    jq -c --rawfile ids "$s.ids" '($ids | split("\n")) as $keep |
	    select(.id as $i | $keep | index($i))' |
	    { if [ "$max" -gt 0 ]; then head -n "$max"; else cat; fi; } |
	    "$k/kwrap" -q --mutants "$nmut" |
	    jq -c '.candidate = {code: .slice.code, dialect: (.scan.dialect // "cuda")}' \
	    > "$s/out/$n/mut.ndjson"
	echo "mutation-pack: $n: $(wc -l < "$s/out/$n/mut.ndjson") tasks," \
	    "$(jq '.wrap.mutants.list | length' "$s/out/$n/mut.ndjson" |
	    awk '{ t += $1 } END { print t + 0 }') mutants"
done
tar cJf "$dest/mutation.tar.xz" -C "$s" .
echo "mutation-pack: $dest/mutation.tar.xz ($(du -h "$dest/mutation.tar.xz" | cut -f1))"
