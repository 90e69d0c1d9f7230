#!/bin/sh
# Loads and stores written in inline PTX, and buffers reached through
# chains of pointer locals (test/ptx/ptx.cu, saved as
# test/ptx/kslice.ndjson).  kslice sees neither as an access; kwrap reads
# the asm template for the instruction that addresses each operand (ld,
# st, atom and red, cp.async) and how many bytes it moves, and follows a
# pointer local set from another.  A buffer only PTX writes, whose count
# is still a guess, stays an inout.
. "$(dirname "$0")/lib.sh"

if ! have_tool kwrap; then
	skip_all "kwrap is not built"
fi
KWRAP=$(tool kwrap)

run "$KWRAP" < test/ptx/kslice.ndjson
is "$T_STATUS" 0 "ptx: exit status 0"
is "$(wc -l < "$T_TMP/out" | tr -d ' ')" 5 "every line in is a line out"
cp "$T_TMP/out" "$T_TMP/p.ndjson"
# pspec(KERNEL, JQ): a jq expression on the spec of KERNEL
pspec() {
	jq -c --arg id "test/ptx/ptx.cu::$1" \
	    "select(.id == \$id) | .wrap.spec | $2" "$T_TMP/p.ndjson"
}
bufs='[[.params[] | select(.role != "scalar") | [.name, .role, .count]], .confidence.counts]'

is "$(pspec copy8_kernel "$bufs")" \
    '[[["in","inout","8 * n8"],["out","out","8 * n8"]],"high"]' \
    "ld.global.v4.u32 in a class's constructor and st.global.v4.u32 in a function: 16 bytes, eight halves a thread"
is "$(pspec copy8_kernel '[.confidence.guesses[] | select(startswith("in: "))]')" \
    '["in: not const and never seen written, taken as inout"]' \
    "a buffer PTX only loads is read, not unseen"
is "$(pspec red_kernel "$bufs")" \
    '[[["x","in","n"],["sum","inout","4"]],"high"]' \
    "red.global.add: read and written, at sum + i % 4"
is "$(pspec rows_kernel "$bufs")" \
    '[[["a","in","rows * cols"],["out","out","rows * cols"]],"high"]' \
    "a pointer local set from another that points into out: out is written"
is "$(pspec stage_kernel "$bufs")" \
    '[[["src","inout","4 * n4"],["dst","out","n4"]],"high"]' \
    "cp.async's second address is read, as many bytes as its size operand"
is "$(pspec scatter_kernel '.params[1] | [.name, .role]')" '["out","inout"]' \
    "written only in PTX, at a place no bound holds: an inout"
like "$(pspec scatter_kernel '.confidence.guesses | join("; ")')" \
    "out: written where kslice saw no write, its count not derived: taken as inout" \
    "the guess says why"
is "$(jq -sc '[.[] | select(.wrap.harness == null) | .id]' "$T_TMP/p.ndjson")" '[]' \
    "every kernel gets a harness"

done_testing
