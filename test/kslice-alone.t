#!/bin/sh
# Slices that compile alone: every kernel of test/kslice/alone/ (one .cu
# per kind of C++/CUDA code that a slice used to lose, its kind in the
# file's first comment) is scanned, sliced and compiled by kbuild --check
# with its slice.flags; each slice must compile and hold its kernel's
# symbol.  A file's "// slices: N" line says how many slices it gives.
. "$(dirname "$0")/lib.sh"

for t in kscan kslice kbuild; do
	have_tool "$t" || skip_all "$t is not built"
done
command -v nvcc > /dev/null 2>&1 || skip_all "nvcc is not installed"
KFORGE_WORK=$T_TMP/work
export KFORGE_WORK
cp -R test/kslice/alone "$T_TMP/src"
(cd "$T_TMP/src" && "$(tool kscan)" -q --root . $(ls *.cu) 2> "$T_TMP/scan.err") \
    > "$T_TMP/scan.ndjson"
(cd "$T_TMP/src" && "$(tool kslice)" -q) < "$T_TMP/scan.ndjson" \
    > "$T_TMP/slice.ndjson" 2> "$T_TMP/slice.err"
"$(tool kbuild)" -q --check < "$T_TMP/slice.ndjson" > "$T_TMP/build.ndjson" \
    2> "$T_TMP/build.err"

for f in test/kslice/alone/*.cu; do
	b=$(basename "$f")
	want=$(sed -n 's,^// slices: \([0-9]*\)$,\1,p' "$f")
	got=$(jq -r --arg f "$b" 'select(.scan.file == $f and
	    .slice.code != null) | .id' "$T_TMP/build.ndjson" | wc -l |
	    tr -d ' ')
	is "$got" "${want:-1}" "$b: ${want:-1} slice(s)"
	bad=$(jq -r --arg f "$b" 'select(.scan.file == $f) |
	    select((.build.reference.ok == true and
	    .build.reference.symbol != null and
	    ((.errors // []) | length) == 0) | not) |
	    "\(.id): \((.errors // [])[0].message //
	    ([.build.reference.diagnostics[]? | select(.severity == "error") |
	    .message] | join("; ")))"' "$T_TMP/build.ndjson")
	is "$bad" "" "$b: every slice compiles alone and holds its symbol"
done

done_testing
