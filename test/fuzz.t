#!/bin/sh
# The fuzz targets without libFuzzer: each fuzz/fuzz_*.c is linked with
# fuzz/replay.c (under AddressSanitizer and UBSan where the compiler has
# them) and run over its seed corpus fuzz/corpus/<target>/, so every input
# that once crashed a target keeps being tried.  "make fuzz" builds the
# real fuzzers with clang.
. "$(dirname "$0")/lib.sh"

CC=${CC:-cc}
command -v "$CC" > /dev/null || skip_all "no C compiler ($CC)"
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
LLVM_CONFIG=${LLVM_CONFIG:-llvm-config-19}
[ -f lib/k_prelude.c ] || skip_all "lib/k_prelude.c not generated (make)"
jflags=$($PKG_CONFIG --cflags jansson libcrypto) || skip_all "no jansson"
jlibs=$($PKG_CONFIG --libs jansson libcrypto)
CFLAGS="-std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes
    -Wmissing-prototypes -Werror -Ilib $jflags -O1 -g"
san="-fsanitize=address,undefined -fno-omit-frame-pointer"
echo 'int main(void){return 0;}' > "$T_TMP/t.c"
if $CC $san -o "$T_TMP/t" "$T_TMP/t.c" 2> /dev/null && "$T_TMP/t"; then
	CFLAGS="$CFLAGS $san"
else
	note "no sanitizers with $CC: replaying without them"
fi
# leaks are test-asan's business (with its suppressions for libclang)
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_OPTIONS UBSAN_OPTIONS
# the Makefile's one list of lib/ sources
LIB=$(${MAKE:-make} -s --no-print-directory print-LIB_SRCS) ||
    skip_all "make print-LIB_SRCS failed"
[ -n "$LIB" ] || skip_all "make print-LIB_SRCS printed nothing"

# and its list of targets
targets=$(${MAKE:-make} -s --no-print-directory print-FUZZ_TARGETS)
for t in $targets; do
	extra=
	if [ "$t" = kslice ]; then
		if ! $LLVM_CONFIG --libdir > /dev/null 2>&1; then
			skip "fuzz_$t: replay" "no $LLVM_CONFIG"
			continue
		fi
		d=$($LLVM_CONFIG --libdir)
		units=$(ls tools/kslice/*.c | grep -v '/main\.c$')
		extra="-I$($LLVM_CONFIG --includedir) -Itools/kslice $units
		    lib/k_parse.c lib/k_pch.c
		    lib/k_prelude.c -L$d -lclang -Wl,-rpath,$d"
	fi
	if [ "$t" = kbuild ]; then
		# and kwrap's harness generator, which trust.c links
		if [ ! -f tools/kwrap/harness_text.c ]; then
			skip "fuzz_$t: replay" "tools/kwrap/harness_text.c not generated (make)"
			continue
		fi
		extra="-Itools/kbuild -Itools/kwrap
		    $(ls tools/kbuild/*.c | grep -v '/main\.c$')
		    tools/kwrap/harness.c tools/kwrap/instruction.c
		    tools/kwrap/vocab.c tools/kwrap/tok.c
		    tools/kwrap/harness_text.c tools/kwrap/validate.c
		    tools/kwrap/eval.c"
	fi
	if [ "$t" = kwrap ]; then
		# the other units of tools/kwrap/, and --llm's client
		curl=$($PKG_CONFIG --cflags --libs libcurl 2> /dev/null)
		if [ ! -f tools/kwrap/harness_text.c ] || [ -z "$curl" ]; then
			skip "fuzz_$t: replay" "tools/kwrap/harness_text.c not generated (make) or no libcurl"
			continue
		fi
		extra="-Itools/kwrap $(ls tools/kwrap/*.c | grep -v '/kwrap\.c$')
		    lib/k_llm.c lib/k_llm_extract.c $curl"
	fi
	if [ "$t" = kimport ]; then
		extra="-Itools/kimport tools/kimport/rows.c"
	fi
	# shellcheck disable=SC2086
	$CC $CFLAGS -o "$T_TMP/fuzz_$t" "fuzz/fuzz_$t.c" fuzz/replay.c $LIB \
	    $extra $jlibs -lpthread -lm > "$T_TMP/cc.$t" 2>&1
	if ! ok $? "fuzz_$t: builds without warnings"; then
		diag_file "$T_TMP/cc.$t"
		continue
	fi
	n=$(ls "fuzz/corpus/$t" | wc -l | tr -d ' ')
	[ "$n" -gt 0 ]
	ok $? "fuzz_$t: a seed corpus ($n inputs)"
	run "$T_TMP/fuzz_$t" "fuzz/corpus/$t"
	is "$T_STATUS" 0 "fuzz_$t: the corpus replays cleanly"
	[ "$T_STATUS" -eq 0 ] || diag_file "$T_TMP/err"
	is "$(cat "$T_TMP/out")" "replay: $n inputs" "fuzz_$t: every input tried"
done
done_testing
