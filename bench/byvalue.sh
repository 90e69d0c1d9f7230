#!/bin/sh
# bench/byvalue.sh OLD_KWRAP NEW_KWRAP KSLICE...: parameters passed by value
# that kwrap cannot build as a scalar, an enum or a struct of plain scalars,
# before (OLD_KWRAP) and after (NEW_KWRAP), per kslice output file:
#   records         records in
#   bytes_harness   records given a harness that passes a by-value
#                   parameter of dtype "bytes" (a 4-byte stand-in)
#   member_harness  records given a harness with a struct's pointer members
#                   as buffers (spec.params[].member)
#   byvalue_error   records that are a bad-spec error for a by-value type
#   harness         records with a harness
# One table row per file and kwrap, tab-separated.  CPU only.
set -eu
old=$1
new=$2
shift 2
tmp=${TMPDIR:-/tmp}/byvalue.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
printf 'file\tkwrap\trecords\tbytes_harness\tmember_harness\tbyvalue_error\tharness\n'
for f in "$@"; do
	for k in old new; do
		eval bin=\$$k
		"$bin" -q < "$f" > "$tmp/out" 2> /dev/null || true
		jq -rs --arg f "$f" --arg k "$k" '
		    [length,
		     (map(select(.wrap.harness.code != null and
		        any(.wrap.spec.params[]; .role == "scalar" and .dtype == "bytes"))) | length),
		     (map(select(.wrap.harness.code != null and
		        any(.wrap.spec.params[]; .member != null))) | length),
		     (map(select(any(.errors[]?; .stage == "kwrap" and
		        (.message | test("is passed by value and kwrap cannot build it"))))) | length),
		     (map(select(.wrap.harness.code != null)) | length)] as $n |
		    [$f, $k] + ($n | map(tostring)) | join("\t")' "$tmp/out"
	done
done
