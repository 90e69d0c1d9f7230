#!/bin/sh
# The funnel table: one Markdown row per OUT directory of bench/funnel.sh
# (and bench/funnel-gpu.sh), then what keeps slices from being verified
# tasks, by cause, largest first.  Reads counts.json, kslice.ndjson,
# kwrap.ndjson, kbuild.ndjson and, where the GPU half ran, kverify.ndjson.
#
#	sh bench/funnel-table.sh OUT...
set -eu

# label OUT: the corpus counts.json names, and the OUT directory's own
# name after it where that differs (two layouts of one corpus, such as
# gsplat and gsplat-glm, stay apart)
label() {
	l=$(jq -r .corpus "$1/counts.json")
	b=$(basename "$1")
	if [ "$b" = "$l" ]; then echo "$l"; else echo "$l ($b)"; fi
}

# row OUT: one line of the table
row() {
	o=$1
	v=$o/kverify.ndjson
	[ -s "$v" ] || v=/dev/null
	jq -n -r --slurpfile c "$o/counts.json" --arg lbl "$(label "$o")" \
	    --slurpfile b "$o/kbuild.ndjson" --slurpfile v "$v" '
	$c[0] as $c |
	def pct(a; b): if b > 0 then "\(a * 100 / b | floor)%" else "-" end;
	[$b[] | select(.build.reference.ok == true and
	    .build.reference.symbol != null)] as $ok |
	[$ok[] | select(.build.harness.ok == true)] as $h |
	[$v[] | .verify.verified | select(. != null)] as $ver |
	($ver | map(select(.reason == null or ([.reason] | inside(
	    ["nondeterministic", "reads-unwritten", "clock", "memcheck",
	     "no-outputs", "unwritten", "degenerate", "oracle"])))) | length) as $gold |
	($ver | map(select(.reason == "nondeterministic" or
	    .reason == "reads-unwritten" or .reason == "clock")) | length) as $nd |
	($ver | map(select(.reason == "memcheck")) | length) as $mc |
	($ver | map(select(.reason == "no-outputs")) | length) as $no |
	($ver | map(select(.reason == "unwritten")) | length) as $uw |
	($ver | map(select(.reason == "degenerate")) | length) as $dg |
	($ver | map(select(.value)) | length) as $yes |
	($c.specs // {}) as $s |
	"| \($lbl) | \($c.kernels) | \($c.sampled) | \($c.slices) " +
	"| \($ok | length) (\(pct($ok | length; $c.slices))) " +
	"| \($h | length) " +
	"| \($s.high // 0)/\($s.medium // 0)/\($s.low // 0) " +
	(if ($v | length) == 0 then "| - | - | - | - | - | - | - | - |" else
	"| \($gold) | \($gold - $nd) | \($gold - $nd - $mc) " +
	"| \($gold - $nd - $mc - $no) " +
	"| \($gold - $nd - $mc - $no - $uw) | \($gold - $nd - $mc - $no - $uw - $dg) " +
	"| **\($yes)** | \(pct($yes; $c.slices)) |" end)'
}

# causes OUT...: "count<TAB>corpus<TAB>cause" for every record that is
# not a verified task, the stage that stopped it first
causes() {
	for o in "$@"; do
		v=$o/kverify.ndjson
		[ -s "$v" ] || v=$o/kbuild.ndjson
		jq -r --arg corpus "$(label "$o")" '
		def norm: gsub("\"[^\"]*\""; "\"…\"") | gsub("'"'"'[^'"'"']*'"'"'"; "'"'"'…'"'"'")
		    | gsub("[0-9]+"; "N") | .[0:100];
		def err($st): [(.errors // [])[] | select(.stage == $st)][0];
		def firstdiag($u): [($u.diagnostics // [])[] |
		    select(.severity == "error")][0].message //
		    ([($u.log // "") | splits("\n") | select(test("error"))]
		    | if length > 0 then .[0] | sub("^.*error: "; "") else
		    null end) // "no message";
		def idless: sub("^[^ ]*: "; "");
		if .slice.code == null then
			(err("kslice") // (.errors // [])[0]) as $e |
			"\($e.stage // "kslice")/\($e.code // "none"): \($e.message // "" | idless | norm)"
		elif .build.reference.ok != true and .build.reference.missing_includes != null then
			"kbuild: reference does not compile: includes kscan did not find: \(.build.reference.missing_includes | join(", "))"
		elif .build.reference.ok != true then
			"kbuild: reference does not compile: \(firstdiag(.build.reference) | norm)"
		elif .build.reference.runnable == false then
			"not runnable on this GPU (\(.scan.dialect // "?"))"
		elif .build.reference.symbol == null then
			"kbuild/no-symbol"
		elif .wrap.harness.code == null then
			(err("kwrap") // {code: "no-harness"}) as $e |
			"kwrap/\($e.code): \($e.message // "" | idless | norm)"
		elif .build.harness.ok != true then
			"kbuild: harness does not compile: \(firstdiag(.build.harness) | norm)"
		elif .verify == null then
			(err("kverify") // {code: "not-run"}) as $e |
			"kverify/\($e.code)"
		elif .verify.verified.value == true then empty
		else .verify.verified as $r |
			if $r.reason == "memcheck" then
				"memcheck: \($r.detail | sub("^[0-9]+ errors? on case [0-9]+: "; "") | norm)"
			elif $r.reason == "no-outputs" then
				"no-outputs: the harness has no output buffer"
			elif $r.reason == "unwritten" then
				"unwritten: output elements left as the sentinel"
			elif $r.reason == "degenerate" then
				"degenerate: an output \(($r.detail |
				    capture("\\((?<r>[^)]*)\\)$").r) // "?" | norm) in every case"
			elif $r.reason == "nondeterministic" then
				"nondeterministic: \([.verify.tolerance.outputs[]? |
				    select(.unbanded != null) |
				    if .unbanded == "too-large" then
					"a spread over 1% of the values"
				    else {integer: "integer elements",
					nan: "a NaN that moves",
					infinity: "an infinity that moves",
					size: "another size"}[.difference.kind //
					"-"] // "no band" end] | unique |
				    join(", "))"
			elif $r.reason == "oracle" then
				$r.reason
			elif $r.reason == "reads-unwritten" then
				"reads-unwritten: outputs follow the bytes unwritten memory holds"
			else "\($r.reason): \($r.detail // "" | sub("^reference, case [0-9]+: "; "") | norm)"
			end
		end | "\($corpus)\t\(.)"' "$v"
	done | sort | uniq -c | awk '{ n = $1; sub(/^ *[0-9]+ /, "");
	    split($0, a, "\t"); c = a[2]; total[c] += n
	    per[c] = per[c] (per[c] == "" ? "" : ", ") a[1] " " n }
	    END { for (c in total) printf "%d\t%s\t%s\n", total[c], c, per[c] }' |
	    sort -t '	' -k1,1nr -k2,2
}

echo "| corpus | kernels | sampled | slices | compile alone + symbol | harness built | specs high/medium/low | golden | deterministic | + memcheck clean | + has an output | + all written | + not degenerate | **verified** | yield |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for o in "$@"; do
	row "$o"
done
echo
printf 'Verified tasks with cases left out (the reference failed on them; verify.left_out):'
for o in "$@"; do
	[ -s "$o/kverify.ndjson" ] || continue
	jq -s -r --arg lbl "$(label "$o")" '
	    [.[] | select(.verify.verified.value == true)] as $y |
	    [$y[] | select((.verify.left_out // []) | length > 0)] as $l |
	    " \($lbl) \($l | length) of \($y | length)" +
	    " (\([$l[] | .verify.left_out[] | .name // "?"] | group_by(.) |
	    map("\(.[0]) \(length)") | join(", ")));"' "$o/kverify.ndjson" |
	    tr -d '\n'
done
echo
# where the records carried their reference as the candidate (funnel-gpu.sh -s)
self=$(for o in "$@"; do
	[ -s "$o/kverify.ndjson" ] || continue
	jq -s -r --arg lbl "$(label "$o")" '
	    [.[] | select(.candidate != null and (.verify.golden // []) != [])] as $g |
	    [$g[] | select(.verify.pass_exe == true)] as $p |
	    [$g[] | select(.verify.pass_exe == null and
	    .verify.candidate.unjudged != null)] as $u |
	    [$g[] | select(.verify.pass_exe != true and
	    .verify.candidate.unjudged == null) |
	    (.verify.candidate.reasons // ["?"]) | join(",")] as $why |
	    if ($g | length) > 0 then
	    " \($lbl) \($p | length) of \($g | length)" +
	    [$g[] | select([.verify.tolerance.outputs[]? | select(.masked)] | length > 0)] as $mk |
	    [$g[] | select([.verify.tolerance.outputs[]? | select(.split)] | length > 0)] as $sp |
	    " (\([$g[] | select(.verify.deterministic == false)] | length) nondeterministic" +
	    "\(if ($mk | length) + ($sp | length) > 0 then ", \($mk | length) with a masked output, \($sp | length) split" else "" end)" +
	    "\(if ($u | length) > 0 then "; not judged on an output no band covers: \($u | length)" else "" end)" +
	    "\(if ($why | length) > 0 then "; failing: " + ($why | group_by(.) |
	    map("\(.[0]) \(length)") | join(", ")) else "" end));"
	    else empty end' "$o/kverify.ndjson" | tr -d '\n'
done)
if [ -n "$self" ]; then
	echo
	echo "The reference as its own candidate, among the records with a golden:$self"
fi
echo
echo "What keeps the slices from being verified tasks, by cause (the first stage that stopped each), largest first:"
echo
echo "| slices | cause | by corpus |"
echo "|---|---|---|"
causes "$@" | head -n 40 | awk -F '\t' '{ gsub(/\|/, "\\|", $2)
    printf "| %s | %s | %s |\n", $1, $2, $3 }'
