#!/bin/sh
# bench/accessor.sh OLD_BIN NEW_BIN KSLICE...: by-value parameters kwrap
# builds (PyTorch tensor accessors, CUDA vector types, typedefs of scalars
# and enums, pointer members declared together), before (OLD_BIN/kwrap)
# and after (NEW_BIN/kwrap), per kslice output file; OLD_BIN and NEW_BIN
# are directories holding kwrap and kbuild.  Columns:
#   records        records in
#   byvalue_error  records that are a bad-spec error for a by-value type
#   accessor_error of those, for a tensor accessor
#   harness        records with a harness
#   accessors      records whose harness passes a tensor accessor
#   changed        records whose wrap.spec differs between the two
# then, with KBUILD=1, each kwrap's records among the changed ones that
# have a harness built by its own kbuild (-j 1, --arch sm_90, a fresh
# KFORGE_WORK each): built (reference and harness compile), of how many.
# One table row per file and kwrap, tab-separated.  CPU only (nvcc).
set -eu
old=$1
new=$2
shift 2
tmp=${TMPDIR:-/tmp}/accessor.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
printf 'file\tkwrap\trecords\tbyvalue_error\taccessor_error\tharness\taccessors\tchanged\tbuilt\n'
for f in "$@"; do
	"$old/kwrap" -q < "$f" > "$tmp/old" 2> /dev/null || true
	"$new/kwrap" -q < "$f" > "$tmp/new" 2> /dev/null || true
	# the ids whose spec differs (records keep their order)
	jq -c '[.id, .wrap.spec]' "$tmp/old" > "$tmp/old.s"
	jq -c '[.id, .wrap.spec]' "$tmp/new" > "$tmp/new.s"
	paste -d '\n' "$tmp/old.s" "$tmp/new.s" | jq -rs '
	    [range(0; length; 2) as $i | select(.[$i] != .[$i + 1]) |
	     .[$i][0]] | .[]' > "$tmp/changed"
	for k in old new; do
		eval bin=\$$k
		built=-
		if [ "${KBUILD:-0}" = 1 ]; then
			jq -c --rawfile ids "$tmp/changed" '
			    select(.wrap.harness.code != null and
			    (.id as $id | $ids | split("\n") | index($id)))' \
			    "$tmp/$k" > "$tmp/$k.b"
			rm -rf "$tmp/work"
			KFORGE_WORK=$tmp/work "$bin/kbuild" -q -j 1 --arch sm_90 \
			    < "$tmp/$k.b" > "$tmp/$k.built" 2> /dev/null || true
			built="$(jq -s 'map(select(.build.reference.ok == true and
			    .build.harness.ok == true)) | length' \
			    "$tmp/$k.built") of $(wc -l < "$tmp/$k.b" | tr -d ' ')"
		fi
		jq -rs --arg f "$f" --arg k "$k" --arg b "$built" \
		    --arg c "$(wc -l < "$tmp/changed" | tr -d ' ')" '
		    def bv: any(.errors[]?; .stage == "kwrap" and
		        (.message | test("is passed by value and kwrap cannot build it")));
		    [length,
		     (map(select(bv)) | length),
		     (map(select(any(.errors[]?; .stage == "kwrap" and
		        (.message | test("passed by value and kwrap cannot build it: a tensor accessor"))))) | length),
		     (map(select(.wrap.harness.code != null)) | length),
		     (map(select(.wrap.harness.code != null and
		        any(.wrap.spec.params[]; any(.fields[]?; .name == "stride0"))))
		        | length)] as $n |
		    [$f, $k] + ($n | map(tostring)) + [$c, $b] | join("\t")' \
		    "$tmp/$k"
	done
done
