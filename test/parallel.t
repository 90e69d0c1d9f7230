#!/bin/sh
# Fan-out: kscan and kslice over the examples through GNU parallel --pipe
# give, joined by id, what one serial run gives.  Stages are filters whose
# outputs are order-independent, so splitting the input changes nothing.
. "$(dirname "$0")/lib.sh"

have_tool kscan || skip_all "kscan not built"
have_tool kslice || skip_all "kslice not built"
command -v parallel > /dev/null || skip_all "GNU parallel not installed"
command -v jq > /dev/null || skip_all "jq not installed"
parallel --version 2> /dev/null | grep -q 'GNU parallel' ||
    skip_all "parallel is not GNU parallel"
export KFORGE_WORK="$T_TMP/work"
KSCAN=$(tool kscan)
KSLICE=$(tool kslice)
P="parallel --will-cite --pipe --halt never"

# kscan takes paths, so --pipe splits the list of source files; the
# serial run scans the same list (a directory argument would add -I flags)
find examples/src -type f \( -name '*.cu' -o -name '*.hip' \) | sort \
    > "$T_TMP/files"
[ -s "$T_TMP/files" ]
ok $? "example sources found"
xargs "$KSCAN" < "$T_TMP/files" > "$T_TMP/scan.serial" 2> "$T_TMP/err"
is "$?" 0 "serial kscan: exit 0"
$P -N 2 -j 4 xargs "$KSCAN" < "$T_TMP/files" > "$T_TMP/scan.par" \
    2> "$T_TMP/err"
is "$?" 0 "parallel kscan: exit 0"

byid() {
	jq -c -s 'sort_by(.id) | .[]' "$1"
}
is "$(jq -r .id "$T_TMP/scan.par" | sort -u)" \
    "$(jq -r .id "$T_TMP/scan.serial" | sort -u)" \
    "kscan: the same kernel ids either way"
# a kernel in a header is reported by every job that parses a unit
# including it (one run reports it once): compare kernels defined in
# their own unit exactly, and header kernels without the unit's details
own='select(.scan.file == .scan.tu)'
jq -c "$own" "$T_TMP/scan.serial" > "$T_TMP/s1"
jq -c "$own" "$T_TMP/scan.par" > "$T_TMP/p1"
byid "$T_TMP/s1" > "$T_TMP/a"
byid "$T_TMP/p1" > "$T_TMP/b"
is_file "$T_TMP/b" "$T_TMP/a" \
    "kscan: kernels in their own unit are equal to serial, by id"
# a header kernel's launch sites are found in whichever units a job parses,
# so joined by id their union is what the serial run found
launches='[.[] | select(.scan.file != .scan.tu)] | group_by(.id) |
    map({id: .[0].id, launches: ([.[].scan.launches[]] | unique)}) | .[]'
jq -c -s "$launches" "$T_TMP/scan.serial" > "$T_TMP/a"
jq -c -s "$launches" "$T_TMP/scan.par" > "$T_TMP/b"
is_file "$T_TMP/b" "$T_TMP/a" \
    "kscan: header kernels: the launches of all jobs join to the serial ones"

# kslice over a split of kscan's output, 3 records a job
"$KSLICE" < "$T_TMP/scan.serial" > "$T_TMP/slice.serial" 2> "$T_TMP/err"
serial_status=$?
$P -N 3 -j 4 "$KSLICE" < "$T_TMP/scan.serial" > "$T_TMP/slice.par" \
    2> "$T_TMP/err"
par_status=$?
# GNU parallel exits with the number of failed jobs
[ "$serial_status" -eq 0 ] && [ "$par_status" -eq 0 ] ||
    { [ "$serial_status" -ne 0 ] && [ "$par_status" -ne 0 ] &&
    [ "$par_status" -lt 101 ]; }
ok $? "kslice: failure in one run means failed jobs in the other" \
    "($serial_status, $par_status)"
is "$(wc -l < "$T_TMP/slice.par" | tr -d ' ')" \
    "$(wc -l < "$T_TMP/slice.serial" | tr -d ' ')" \
    "kslice: as many records either way"
[ "$(wc -l < "$T_TMP/slice.serial")" -gt "$(wc -l < "$T_TMP/scan.serial")" ]
ok $? "kslice fanned templates out (the join covers instances)"
byid "$T_TMP/slice.serial" > "$T_TMP/a"
byid "$T_TMP/slice.par" > "$T_TMP/b"
is_file "$T_TMP/b" "$T_TMP/a" "kslice: parallel output equals serial, by id"
is "$(jq -r .id "$T_TMP/slice.par" | sort | uniq -d)" "" \
    "kslice: ids are unique, so the join is one to one"
done_testing
