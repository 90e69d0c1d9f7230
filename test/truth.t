#!/bin/sh
# kreport's counts mean what their headers say: a slice that does not parse
# is no slice; nothing to rate says "none"; "1 task"; a missing input gives
# no report.  kslice's tags come from the kernel's own code, not stubs.
. "$(dirname "$0")/lib.sh"

have_tool kreport || skip_all "kreport not built"
KREPORT=$(tool kreport)
D=$T_TMP

# --- a slice flagged slice-does-not-parse is not counted as sliced
cat > "$D/in.ndjson" <<'EOF2'
{"id":"a.cu::k","scan":{"file":"a.cu","name":"k"},"slice":{"code":"__global__ void k() {","tags":{}},"errors":[{"stage":"kslice","code":"slice-does-not-parse","message":"a.cu::k: slice does not parse"}]}
{"id":"b.cu::k","scan":{"file":"b.cu","name":"k"},"slice":{"code":"__global__ void k() {}","tags":{}},"candidate":{"code":"__global__ void k() {}"}}
EOF2
run "$KREPORT" --format json "$D/in.ndjson"
is "$(jq -c '[.stages[] | select(.stage == "slice") | .records, .ok]' "$T_TMP/out")" \
    '[2,1]' "stage table: a slice that does not parse is not ok"
is "$(jq -c '[.pass_at_k[0].value, .fast_p[0].value, .fast_p[0].tasks]' "$T_TMP/out")" \
    '[null,null,0]' "a candidate never verified: pass@k and fast_p are null, not 0"
run "$KREPORT" "$D/in.ndjson"
like "$(cat "$T_TMP/out")" "2 records \(0 bad input lines\), 1 candidate for 1 task\." \
    "singular and plural as the counts say"
like "$(cat "$T_TMP/out")" "\| 1 \| 0 \| none \|" "pass@1 with nothing judged: none"
like "$(cat "$T_TMP/out")" "\| 0 \| none \|" "fast_0 with nothing judged: none"
printf '%s\n' '{"id":"c.cu::k","scan":{"file":"c.cu"}}' | run "$KREPORT"
is "$(grep -c 'fast_p\|pass@k' "$T_TMP/out")" 0 "no candidates at all: no rates of candidates shown"

# --- an input that cannot be read: no report, exit 3
run "$KREPORT" "$D/nowhere.ndjson"
is "$T_STATUS:$(wc -c < "$T_TMP/out" | tr -d ' ')" "3:0" \
    "a missing input: exit 3 and no empty report"
run "$KREPORT" "$D/nowhere.ndjson" "$D/in.ndjson"
is "$T_STATUS:$(grep -c '^# kforge report' "$T_TMP/out")" "3:1" \
    "one missing of two: the report of the other, exit 3"

# --- kslice: tags from the kernel's own code, not from a stub it includes
if have_tool kscan && have_tool kslice; then
	mkdir -p "$D/tree" "$D/stubs"
	printf '#pragma once\n__device__ inline float scaled(float v, float s) { return v * s; }\n' \
	    > "$D/tree/helper.cuh"
	cat > "$D/stubs/helper.cuh" <<'EOF2'
#pragma once
__device__ inline float scaled(float v, float s) { return v * s; }
__device__ inline void atomic_add_helper(float *p, float v) { atomicAdd(p, v); }
EOF2
	cat > "$D/tree/k.cu" <<'EOF2'
#include "helper.cuh"
__global__ void scale_kernel(float *x, float s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = scaled(x[i], s);
}
EOF2
	KFORGE_WORK=$D/work "$(tool kscan)" --root "$D/tree" "$D/tree" \
	    > "$D/s.ndjson" 2> /dev/null
	rm "$D/tree/helper.cuh"
	KFORGE_WORK=$D/work run "$(tool kslice)" --stubs "$D/stubs" "$D/s.ndjson"
	is "$(jq -c '[.slice.stubs, (.slice.code | test("atomicAdd")), .slice.tags.atomics]' "$T_TMP/out")" \
	    '[["helper.cuh"],true,false]' \
	    "a stub that defines an atomic is in the slice, but the tag is the kernel's: no atomics"
else
	skip "tags from the kernel's own code" "kscan or kslice not built"
fi

# --- kscan's man page spells its messages whole ("No" is an mdoc macro)
if command -v mandoc > /dev/null; then
	like "$(mandoc -Tascii man/kscan.1 | col -b)" "kscan: nosuch.cu: No such file or directory" \
	    "kscan.1 DIAGNOSTICS: the message as kscan prints it"
else
	skip "kscan.1 DIAGNOSTICS" "no mandoc"
fi

done_testing
