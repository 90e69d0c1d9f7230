#!/bin/sh
# Progress on a terminal: every stage draws one stderr line that updates
# (records done, of how many when known, the rate, the time left) and
# stays, final, at the end; nothing when stderr is not a terminal or with
# -q.  On a terminal, warnings like one already shown are counted and
# summed up in one line.  script(1) gives the stages a pseudo-terminal.
. "$(dirname "$0")/lib.sh"

command -v script > /dev/null 2>&1 || skip_all "no script(1)"
for t in kscan kslice kwrap kbuild kverify kreport; do
	have_tool $t || skip_all "$t not built"
done
D=$T_TMP
export KFORGE_WORK=$D/work

# tty name command...: run on a pseudo-terminal, stdin and stdout
# redirected inside it; what the terminal showed, carriage returns and
# erase sequences as "<CR>" and "<EL>", goes to $D/name.tty
tty() {
	t_name=$1
	shift
	timeout 120 script -qec "$*" /dev/null < /dev/null > "$D/$t_name.raw" 2>&1
	tr '\r' '\n' < "$D/$t_name.raw" | sed 's/\x1b\[K/<EL>/g' > "$D/$t_name.tty"
}
ex=examples
head -2 $ex/kscan.ndjson > "$D/scan2.ndjson"
head -2 $ex/kwrap.ndjson > "$D/wrap2.ndjson"

tty kscan "$(tool kscan) --root . $ex/src/attention.cu > $D/o"
like "$(cat "$D/kscan.tty")" "^kscan: 1/1 files in [0-9]+:[0-9][0-9], [0-9.]+/s<EL>" \
    "kscan: files done of how many, time, rate"
tty kslice "$(tool kslice) < $D/scan2.ndjson > $D/o"
like "$(cat "$D/kslice.tty")" "^kslice: [0-9]+ records in [0-9]+:[0-9][0-9], [0-9.]+/s<EL>" \
    "kslice: the final line"
tty kwrap "$(tool kwrap) < $ex/kslice.ndjson > $D/o"
like "$(cat "$D/kwrap.tty")" "^kwrap: 1 records \\([0-9]+% of the input\\), [0-9.]+/s<EL>" \
    "kwrap: while running, the share of a file input read"
like "$(cat "$D/kwrap.tty")" "^kwrap: 19 records in [0-9]+:[0-9][0-9]" \
    "kwrap: 19 records at the end"
tty kwrap-pipe "cat $ex/kslice.ndjson | $(tool kwrap) > $D/o"
is "$(grep -c 'of the input' "$D/kwrap-pipe.tty")" 0 \
    "kwrap: no share of a pipe's input"
tty kbuild "$(tool kbuild) < $D/scan2.ndjson > $D/o"
like "$(cat "$D/kbuild.tty")" "^kbuild: 2 records in " "kbuild: the final line"
tty kreport "$(tool kreport) < $ex/kwrap.ndjson > $D/o"
like "$(cat "$D/kreport.tty")" "^kreport: 19 records in " \
    "kreport: records read, for a report written at the end"

# kverify without builds: one warning a record, collapsed on a terminal
tty kverify "$(tool kverify) < $ex/kwrap.ndjson > $D/o"
like "$(cat "$D/kverify.tty")" "^kverify: 19 records in " "kverify: the final line"
is "$(grep -c 'no build section' "$D/kverify.tty")" 2 \
    "kverify: 19 like warnings are 2 lines on a terminal"
like "$(cat "$D/kverify.tty")" \
    "^kverify: 18 more like: examples/src/attention.cu::qk_scores_kernel<float>: no build section" \
    "kverify: the count of the warnings not shown, with the first"
like "$(cat "$D/kverify.tty")" "<EL>kverify: <stdin>:1: [^ ]*: no build section" \
    "a warning erases the progress line before it prints"
"$(tool kverify)" < $ex/kwrap.ndjson > "$D/o" 2> "$D/kverify.err"
is "$(grep -c 'no build section' "$D/kverify.err")" 19 \
    "stderr not a terminal: every warning, one a line"
is "$(grep -c 'records in' "$D/kverify.err")" 0 \
    "stderr not a terminal: no progress"
tty kverify-out "$(tool kverify) < $ex/kwrap.ndjson"
is "$(grep -c 'records in' "$D/kverify-out.tty")" 0 \
    "stdout on the terminal too: no progress line among the records"
like "$(cat "$D/kverify-out.tty")" "^kverify: 18 more like: " \
    "stdout on the terminal too: warnings still counted"
tty kverify-q "$(tool kverify) -q < $ex/kwrap.ndjson > $D/o"
is "$(grep -c 'records\|no build' "$D/kverify-q.tty")" 0 "-q: no progress, no warnings"
tty kverify-status "$(tool kverify) < $ex/kwrap.ndjson > $D/o; echo status \$?"
like "$(cat "$D/kverify-status.tty")" "^status 1" \
    "collapsed warnings still raise the exit status"

# warnings that differ in more than their record and numbers stay apart
printf '{"id":"a"}\nnot json\n{"id":"b"}\n' > "$D/mixed.ndjson"
tty kwrap-mixed "$(tool kwrap) < $D/mixed.ndjson > $D/o"
is "$(grep -c 'no scan.params' "$D/kwrap-mixed.tty")" 2 \
    "records a and b: one warning and its count"
like "$(cat "$D/kwrap-mixed.tty")" "^kwrap: 1 more like: a: record has no scan.params" \
    "records a and b: the count names the first"
like "$(cat "$D/kwrap-mixed.tty")" "kwrap: <stdin>:2: invalid JSON" \
    "a different warning between them is shown"

done_testing
