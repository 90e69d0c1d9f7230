#!/bin/sh
# Grid-stride loops written through a project's own macros
# (test/loops/loops.cu, saved as test/loops/kslice.ndjson): where the
# slice holds a function-like macro whose replacement is a loop header,
# kwrap expands its uses in the kernel, so the loop's bound counts the
# buffers the loop indexes: parameters in either order, two loops in one
# macro, a loop macro written through another.  A macro that stringizes
# stays as written (its counts stay guesses).
. "$(dirname "$0")/lib.sh"

if ! have_tool kwrap; then
	skip_all "kwrap is not built"
fi
KWRAP=$(tool kwrap)

run "$KWRAP" < test/loops/kslice.ndjson
is "$T_STATUS" 0 "loops: exit status 0"
is "$(wc -l < "$T_TMP/out" | tr -d ' ')" 6 "every line in is a line out"
cp "$T_TMP/out" "$T_TMP/l.ndjson"
# lspec(KERNEL, JQ): a jq expression on the spec of KERNEL
lspec() {
	jq -c --arg id "test/loops/loops.cu::$1" \
	    "select(.id == \$id) | .wrap.spec | $2" "$T_TMP/l.ndjson"
}
counts='[[.params[] | .count // empty], .confidence.counts]'

is "$(lspec scale_loop "$counts")" '[["n","n"],"high"]' \
    "GRID_LOOP(i, n): x[i] and y[i] hold n"
is "$(lspec batch_loop "$counts")" '[["B * n","B * n"],"high"]' \
    "GRID_LOOP(i, B * n): an argument of several tokens is the bound"
is "$(lspec swapped_loop "$counts")" '[["n","n"],"high"]' \
    "EACH_INDEX(n, k): the bound first, the index second"
is "$(lspec table_loop "$counts")" '[["rows * cols","rows * cols"],"high"]' \
    "ROWS_COLS(r, rows, c, cols): two loops in one macro, r * cols + c under both bounds"
is "$(lspec nested_macro_loop "$counts")" '[["n","n"],"high"]' \
    "KERNEL_LOOP(i, n), defined as GRID_LOOP(i, n): expanded through both"
is "$(lspec tagged_loop '[[.params[] | .count // empty], .confidence.guesses]')" \
    '[["1048576","1048576"],["x: count unknown, 1048576 assumed","y: count unknown, 1048576 assumed"]]' \
    "near miss: a macro that stringizes its parameter is left as written"
is "$(lspec table_loop '.launch.grid')" '["(cols + 127) / 128","rows","1"]' \
    "ROWS_COLS's launch: the grid as the launch site wrote it"

# the fixture is CUDA nvcc compiles
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$NVCC" ]; then
	if "$NVCC" -std=c++17 -c test/loops/loops.cu -o "$T_TMP/loops.o" \
	    2> "$T_TMP/nvcc.err"; then
		pass "nvcc compiles test/loops/loops.cu"
	else
		fail "nvcc compiles test/loops/loops.cu"
		diag_file "$T_TMP/nvcc.err"
	fi
else
	skip "nvcc compiles test/loops/loops.cu" "nvcc is not installed"
fi

done_testing
