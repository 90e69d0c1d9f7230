#!/bin/sh
# kscan -p: compile_commands.json as CMake, Bear, Meson and PyTorch's
# ninja builds write it (test/compdb/README), each for the same tree whose
# parse needs every flag the build passes.
. "$(dirname "$0")/lib.sh"

have_tool kscan || skip_all "kscan not built"
KSCAN=$(tool kscan)
X=$T_TMP
export KFORGE_WORK=$X/work

# form BUILD: lay the form's files out in BUILD for the tree at $X/src
form() {
	mkdir -p "$2"
	(cd "test/compdb/$1" && find . -type f) | while read -r f; do
		mkdir -p "$2/$(dirname "$f")"
		sed -e "s|@SRC@|$X/src|g" -e "s|@BUILD@|$2|g" \
		    "test/compdb/$1/$f" > "$2/$f"
	done
}

rm -rf "$X/src"
cp -r test/compdb/src "$X/src"
for f in cmake bear meson torch; do
	b=$X/build-$f
	[ "$f" = meson ] && b=$X/src/builddir
	form "$f" "$b"
	run "$KSCAN" --root "$X/src" -p "$b"
	is "$T_STATUS" 0 "$f: exit 0"
	is "$(jq -r '[.id, .scan.diagnostics.errors] | join(" ")' "$T_TMP/out")" \
	    "ops/vec.cu::vec_scale 0" \
	    "$f: the kernel, parsed without errors (include paths, -isystem, -D, -std all taken)"
	is "$(jq -r '.scan.flags | map(select(. == "-std=c++17" or . == "KF_BUILD=1" or . == "include" or . == "sys")) | join(" ")' "$T_TMP/out")" \
	    "$(case $f in
	    cmake) echo "KF_BUILD=1 include sys -std=c++17" ;;
	    bear) echo "include sys KF_BUILD=1 -std=c++17" ;;
	    meson) echo "include sys KF_BUILD=1 -std=c++17" ;;
	    torch) echo "include sys KF_BUILD=1 -std=c++17" ;;
	    esac)" "$f: scan.flags keep them, relative to the root"
	like "$(jq -r '.scan.build_flags | join(" ")' "$T_TMP/out")" \
	    "--expt-(relaxed-constexpr|extended-lambda)" "$f: --expt-* kept for slice.flags"
done
is "$(jq -r '.scan.flags | map(select(startswith("-D"))) | length' "$T_TMP/out")" 9 \
    "torch: every -D of the command, quoted values too"

# --- a -p that names no database: one error record, no libclang message
run "$KSCAN" -p "$X/nowhere"
is "$T_STATUS" 1 "-p missing directory: exit 1"
is "$(jq -c '[.errors[0].code, (.scan == null)]' "$T_TMP/out")" '["no-compdb",true]' \
    "-p missing directory: an error record"
is "$(grep -c . "$T_TMP/err")" 1 "-p missing directory: one message, no LIBCLANG TOOLING ERROR"
printf 'not json' > "$X/build-cmake/compile_commands.json"
run "$KSCAN" -p "$X/build-cmake"
is "$(jq -r '.errors[0].code' "$T_TMP/out")" no-compdb "-p unreadable database: an error record"

done_testing
