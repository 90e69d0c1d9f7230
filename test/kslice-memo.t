#!/bin/sh
# kslice slices a record once per run when an earlier one had the same
# scan and id: repeats give what slicing them alone gives (their other
# fields their own), the memo is keyed on the id as well, a stale slice
# in the input is replaced, and a failure is kept and named again.
. "$(dirname "$0")/lib.sh"

if ! have_tool kslice || ! have_tool kscan; then
	skip_all "kslice or kscan is not built"
fi
if ! command -v jq > /dev/null 2>&1; then
	skip_all "jq is not installed"
fi
KSLICE=$(tool kslice)

# --- the examples twice in one stream: the saved slices twice, in order
cat examples/kscan.ndjson examples/kscan.ndjson > "$T_TMP/twice.ndjson"
cat examples/kslice.ndjson examples/kslice.ndjson > "$T_TMP/twice.want"
run "$KSLICE" < "$T_TMP/twice.ndjson"
is "$T_STATUS" 0 "twice: exit status 0"
is_file "$T_TMP/out" "$T_TMP/twice.want" \
    "twice: every instance record of the repeats as the first time"
run "$KSLICE" -j 2 < "$T_TMP/twice.ndjson"
is_file "$T_TMP/out" "$T_TMP/twice.want" "twice, -j 2: the same, in order"

# --- a repeat with fields of its own, one under another id, one that
# carries a stale slice: each as kslice gives it alone
tmpl=$(jq -c 'select((.scan.template_params | length) > 0)' \
    examples/kscan.ndjson | head -n 1)
printf '%s\n' "$tmpl" > "$T_TMP/mixed.ndjson"
printf '%s\n' "$tmpl" | jq -c '.candidate = {"code": "// mine"}' \
    >> "$T_TMP/mixed.ndjson"
printf '%s\n' "$tmpl" | jq -c '.id = "other"' >> "$T_TMP/mixed.ndjson"
printf '%s\n' "$tmpl" | jq -c '.slice = {"code": "stale"} | .parent = "x"' \
    >> "$T_TMP/mixed.ndjson"
: > "$T_TMP/alone.want"
while IFS= read -r line; do
	printf '%s\n' "$line" | "$KSLICE" >> "$T_TMP/alone.want"
done < "$T_TMP/mixed.ndjson"
run "$KSLICE" < "$T_TMP/mixed.ndjson"
is_file "$T_TMP/out" "$T_TMP/alone.want" \
    "mixed: each repeat as sliced alone"
is "$(jq -r 'select(.candidate) | .candidate.code' "$T_TMP/out" | sort -u)" \
    "// mine" "mixed: the repeat keeps its own candidate"
is "$(jq -r 'select(.id | startswith("other")) | .parent' "$T_TMP/out" |
    sort -u)" other "mixed: another id gives its own instance ids"
is "$(jq -r '.slice.code' "$T_TMP/out" | grep -c '^stale$')" 0 \
    "mixed: a stale slice in the input is replaced"

# --- the memo is what answers a repeat: a record whose file is missing
# fails; the file comes back before its repeat, which still gets the
# kept failure (the tree is taken not to change during a run) and says
# where it was first; the same scan under another id is sliced anew
D=$T_TMP/tree
mkdir -p "$D"
printf '__global__ void memo_kernel(float *x) { x[0] = 1; }\n' > "$D/k.cu"
(cd "$D" && "$(tool kscan)" k.cu 2> /dev/null) > "$T_TMP/k.ndjson"
is "$(wc -l < "$T_TMP/k.ndjson" | tr -d ' ')" 1 "missing file: one kernel"
mv "$D/k.cu" "$D/k.away"
mkfifo "$T_TMP/fifo"
(cd "$D" && exec "$KSLICE" < "$T_TMP/fifo" > "$T_TMP/out" \
    2> "$T_TMP/err") &
pid=$!
exec 3> "$T_TMP/fifo"
cat "$T_TMP/k.ndjson" >&3
# (up to 5 minutes: a parse on a loaded machine with the CUDA headers
# has taken over one; the file must stay away until the line is out)
i=0
while [ "$(wc -l < "$T_TMP/out" | tr -d ' ')" -lt 1 ] && [ $i -lt 3000 ]; do
	sleep 0.1
	i=$((i + 1))
done
mv "$D/k.away" "$D/k.cu"
cat "$T_TMP/k.ndjson" >&3
jq -c '.id = "renamed"' "$T_TMP/k.ndjson" >&3
exec 3>&-
wait $pid
is "$(jq -r '[.id, (.errors[0].code // "sliced")] | join(" ")' \
    "$T_TMP/out" | sed 's/^[^ ]*memo_kernel /K /')" "K cannot-slice
K cannot-slice
renamed sliced" "missing file: the repeat gets the kept failure, a new id is sliced"
like "$(sed -n 2p "$T_TMP/err")" \
    "cannot-slice \\(the same scan and id as <stdin>:1\\)" \
    "missing file: the repeat's failure is said again, with where it was first"
is "$(wc -l < "$T_TMP/err" | tr -d ' ')" 2 "missing file: one message a failed record"

done_testing
