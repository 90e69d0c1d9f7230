#!/bin/sh
# Recall of kscan against a text search, per corpus (BENCHMARKS.md,
# "kscan: parse cache, recall of skipped branches, throughput").
#
#	bench/kscan-recall.sh [-j jobs] CORPUS_DIR... > table
#
# For each directory: kscan over it (paths relative to it, parse cache in
# bench/out/work), then every line holding __global__ in a source or header
# file it reads is looked up in the records.  A line inside some record's
# [line, end_line] is found; the rest are sorted into comments, macro
# bodies (#define ... __global__), declarations without a body, and
# definitions kscan missed, which are listed.
set -eu
jobs=2
if [ "${1:-}" = -j ]; then jobs=$2; shift 2; fi
here=$(cd "$(dirname "$0")/.." && pwd)
out=$here/bench/out
mkdir -p "$out"
KFORGE_WORK=${KFORGE_WORK:-$out/work}
export KFORGE_WORK

for dir in "$@"; do
	name=$(basename "$dir")
	(cd "$dir" && "$here/kscan" -q -j "$jobs" .) > "$out/$name.recall.ndjson" || true
	(cd "$dir" && grep -rnIw '__global__' --include='*.cu' --include='*.cuh' \
	    --include='*.h' --include='*.hpp' --include='*.hh' --include='*.hxx' \
	    --include='*.inl' --include='*.inc' --include='*.cuinc' \
	    --include='*.cpp' --include='*.cc' --include='*.cxx' --include='*.c' \
	    --include='*.hip' . || true) | sed 's|^\./||' > "$out/$name.grep"
	python3 - "$name" "$dir" "$out/$name.recall.ndjson" "$out/$name.grep" <<'PY'
import json, re, sys
name, root, recs, grep = sys.argv[1:5]
spans = {}
assumed = 0
for l in open(recs):
    r = json.loads(l)
    s = r.get("scan")
    if not s:
        continue
    spans.setdefault(s["file"], []).append((s["line"], s["end_line"]))
    assumed += "assumed_macros" in s
texts = {}
def lines_of(f):
    if f not in texts:
        texts[f] = open(root + "/" + f, errors="replace").read().split("\n")
    return texts[f]
kind = {"found": 0, "comment": 0, "macro": 0, "declaration": 0, "missed": []}
for g in open(grep):
    f, n, text = g.rstrip("\n").split(":", 2)
    n = int(n)
    if any(a <= n <= b for a, b in spans.get(f, [])):
        kind["found"] += 1
        continue
    code = text.split("//")[0]
    st = text.strip()
    if "__global__" not in code or st.startswith("*") or st.startswith("/*"):
        kind["comment"] += 1
        continue
    ls = lines_of(f)
    if st.startswith("#") or (n >= 2 and ls[n - 2].rstrip().endswith("\\")):
        kind["macro"] += 1
        continue
    rest = "\n".join(ls[n - 1:n + 40])
    rest = rest[rest.find("__global__"):]
    semi, brace = rest.find(";"), rest.find("{")
    if semi >= 0 and (brace < 0 or semi < brace):
        kind["declaration"] += 1
        continue
    kind["missed"].append("%s:%d" % (f, n))
print("%-13s records %5d  assumed %3d  __global__ lines %5d  found %5d  comment %3d  macro %3d  declaration %3d  missed %3d %s" % (
    name, sum(len(v) for v in spans.values()), assumed,
    sum(1 for _ in open(grep)), kind["found"], kind["comment"],
    kind["macro"], kind["declaration"], len(kind["missed"]),
    " ".join(kind["missed"])))
PY
done
