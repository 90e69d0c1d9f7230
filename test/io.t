#!/bin/sh
# A full disk is an error, not silence: every tool run with its standard
# output on /dev/full exits 3 (K_EXIT_IO) and says "write error" on stderr.
. "$(dirname "$0")/lib.sh"

if [ ! -w /dev/full ]; then
	skip_all "no writable /dev/full on this system"
fi

src=examples/src/
if [ ! -d "$src" ]; then
	src=$T_TMP/k.cu
	echo '__global__ void k(float *x){}' > "$src"
fi

for t in kscan kslice kwrap kbuild kverify kreport kimport; do
	if ! have_tool "$t"; then
		skip "$t: exit status 3 on /dev/full" "$t is not built"
		skip "$t: write error reported" "$t is not built"
		continue
	fi
	status=0
	if [ "$t" = kscan ]; then
		"$(tool kscan)" "$src" < /dev/null > /dev/full \
		    2> "$T_TMP/err" || status=$?
	else
		echo '{"id":"x"}' | "$(tool "$t")" > /dev/full \
		    2> "$T_TMP/err" || status=$?
	fi
	is "$status" 3 "$t: exit status 3 on /dev/full"
	if grep -q "write error" "$T_TMP/err"; then
		pass "$t: write error reported"
	else
		fail "$t: write error reported"
		diag "stderr was:"
		diag_file "$T_TMP/err"
	fi
done
done_testing
