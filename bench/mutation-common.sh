#!/bin/sh
# Two runs of the mutation bench compared on the tasks both scored (no
# GPU): for each run, a directory or file list of records whose mutation
# score kverify computed, as bench/mutation-gpu.sh leaves them
# (OUT/verified.ndjson, .verify.mutation) or reduced to {id, mutation}
# per corpus (NAME.mut.ndjson); a larger bound lets a later run finish
# more tasks, so its overall score is not the earlier one's.  Prints the
# killed over the scored (tried less spec-equivalent) mutants of each run
# on the tasks both have, and on all of each run's tasks (benchmark 89).
#
#	sh bench/mutation-common.sh BEFORE AFTER
#
# BEFORE and AFTER: a directory (every *.mut.ndjson and */verified.ndjson
# under it is read) or one file.
set -eu
[ $# -eq 2 ] || { echo "usage: bench/mutation-common.sh BEFORE AFTER" >&2; exit 2; }
command -v jq > /dev/null || { echo "mutation-common: needs jq" >&2; exit 2; }

# tasks RUN: one line per scored task, "id<TAB>scored<TAB>killed"
tasks() {
	if [ -d "$1" ]; then
		find "$1" \( -name '*.mut.ndjson' -o -name verified.ndjson \) \
		    -type f | sort | xargs cat
	else
		cat "$1"
	fi | jq -r '(.verify.mutation // .mutation) as $m |
	    select($m.tried != null and .id != null) |
	    [.id, ($m.tried - ($m.spec_equivalent // 0)), $m.killed] | @tsv'
}

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
tasks "$1" | sort -u > "$t/a"
tasks "$2" | sort -u > "$t/b"
cut -f1 "$t/a" | sort -u > "$t/ia"
cut -f1 "$t/b" | sort -u > "$t/ib"
comm -12 "$t/ia" "$t/ib" > "$t/common"

# score FILE [IDS]: "killed of scored (percent), tasks"
score() {
	if [ $# -eq 2 ]; then
		awk -F '\t' 'NR == FNR { keep[$1] = 1; next } keep[$1]' "$2" "$1"
	else
		cat "$1"
	fi | awk -F '\t' '{ s += $2; k += $3; n++ }
	    END { printf "%d of %d (%.1f%%), %d tasks\n", k, s,
	    (s > 0 ? 100 * k / s : 0), n }'
}

echo "tasks both scored: $(wc -l < "$t/common" | tr -d ' ')"
echo "before, on them: $(score "$t/a" "$t/common")"
echo "after, on them:  $(score "$t/b" "$t/common")"
echo "before, all:     $(score "$t/a")"
echo "after, all:      $(score "$t/b")"
