#!/bin/sh
# Every man page is mandoc -Tlint clean, documents the exit statuses, and
# its SYNOPSIS matches what the tool's -h prints.
. "$(dirname "$0")/lib.sh"

command -v mandoc > /dev/null || skip_all "mandoc not installed (make deps)"

synopsis() {
	mandoc -Tascii -O width=400 "$1" | col -b |
	    awk '/^SYNOPSIS/ { f = 1; next } /^[A-Z]/ { f = 0 } f' |
	    tr -s ' \n' '  ' | sed -e 's/^ //' -e 's/ $//'
}

for page in man/*.1; do
	name=$(basename "$page" .1)
	run mandoc -Tlint -W warning "$page"
	is "$T_STATUS:$(cat "$T_TMP/out" "$T_TMP/err")" "0:" \
	    "$name.1: mandoc -Tlint clean"
	for code in 0 1 2 3 4; do
		mandoc -Tascii "$page" | col -b |
		    awk '/^EXIT STATUS/ { f = 1; next } /^[A-Z]/ { f = 0 } f' |
		    grep -Eq "^[[:space:]]+$code([[:space:]]|\$)"
		ok $? "$name.1: EXIT STATUS documents $code"
	done
	if have_tool "$name"; then
		got=$("$(tool "$name")" -h | tr -s ' \n' '  ' |
		    sed -e 's/^usage: //' -e 's/ $//')
		is "$got" "$(synopsis "$page")" "$name -h matches SYNOPSIS"
	else
		skip "$name -h matches SYNOPSIS" "$name not built"
	fi
done
done_testing
