#!/bin/sh
# Reproduces BENCHMARKS.md, section "Parsing with the toolkit's own
# headers": on each corpus, how many kscan records carry parse
# diagnostics, and how many of those name a declaration or header that a
# CUDA toolkit provides (a missing toolkit declaration).
#
#	sh bench/kscan-diagnostics.sh KSCAN CORPORA_DIR OUTDIR [corpus ...]
#
# KSCAN is the kscan binary to measure (run it once with main's tools and
# once with these); CORPORA_DIR holds one directory per corpus, laid out as
# ../shared/CORPORA.md says.  Each corpus is scanned from its own root with
# -j2.  A message counts as a missing toolkit declaration when what it
# says is missing is the toolkit's: a header found in a CUDA toolkit's
# include tree (TOOLKIT_INCLUDE, default deps/cuda-12.4/include, the tree
# "make deps" lays out, or /usr/local/cuda/include when it exists), an
# undeclared identifier or unknown type or template named in those
# headers, or a member missing from one of the toolkit's namespaces (cub,
# thrust, cuda, nvcuda, cooperative_groups) or types (__half, __nv_*).  An
# overload that does not match is not a missing declaration; neither is a
# member missing from PyTorch's or the project's types.  Only the first
# five messages of a unit are in a record; a record counts once.
# COUNT_ONLY=1 counts the outputs already in OUTDIR without scanning.
set -eu
kscan=${1:?usage: bench/kscan-diagnostics.sh KSCAN CORPORA_DIR OUTDIR [corpus ...]}
corpora=${2:?usage: bench/kscan-diagnostics.sh KSCAN CORPORA_DIR OUTDIR [corpus ...]}
out=${3:?usage: bench/kscan-diagnostics.sh KSCAN CORPORA_DIR OUTDIR [corpus ...]}
shift 3
here=$(cd "$(dirname "$0")/.." && pwd)
case $kscan in /*) ;; *) kscan=$(pwd)/$kscan ;; esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
inc=${TOOLKIT_INCLUDE:-$here/deps/cuda-12.4/include}
[ $# -gt 0 ] || set -- mmcv cuda-samples apex deepspeed pytorch3d gsplat \
    bitsandbytes torchsparse

for c in "$@"; do
	[ "${COUNT_ONLY:-0}" = 1 ] && break
	start=$(date +%s)
	(cd "$corpora/$c" && "$kscan" -q -j2 . > "$out/$c.ndjson" \
	    2> "$out/$c.err") || true
	echo "$c $(($(date +%s) - start))" >> "$out/seconds"
done

python3 - "$out" "$inc" /usr/local/cuda/include "$@" <<'PY'
import json, os, re, sys
out, incs, names = sys.argv[1], sys.argv[2:4], sys.argv[4:]
words, files = set(), set()
for inc in incs:
    for d, _, fs in os.walk(inc):
        if re.search(r"/system/(omp|tbb|cpp)(/|$)", d):
            continue	# thrust's host back ends: OpenMP's names
        for f in fs:
            p = os.path.join(d, f)
            files.add(os.path.relpath(p, inc))
            try:
                words.update(re.findall(r"[A-Za-z_]\w*",
                                        open(p, errors="replace").read()))
            except OSError:
                pass
missing = re.compile(r"(?:undeclared identifier|unknown type name|"
                     r"unknown template name|no template named|"
                     r"explicit specialization of undeclared template) "
                     r"'([^']+)'(?: in (?:namespace )?'([^']+)')?")
member = re.compile(r"no (?:member|type|template) named '([^']+)' in "
                    r"(?:namespace )?'([^']+)'")
notfound = re.compile(r"'([^']+)' file not found")
namespaces = {"cub", "thrust", "cuda", "nvcuda", "cooperative_groups",
              "nv", "std"}
def toolkit_scope(s):
    first = s.split("::")[0].split("<")[0]
    if first == "std":
        return False
    return first in namespaces or first.startswith("__nv") or \
        first.startswith("__half") or first.startswith("cuda")
def toolkit(m):
    f = notfound.search(m)
    if f:
        return f.group(1) in files
    q = member.search(m)
    if q:
        return toolkit_scope(q.group(2))
    q = missing.search(m)
    if q:
        if q.group(2):
            return toolkit_scope(q.group(2))
        return q.group(1).split("<")[0].split("::")[-1] in words
    return False
print("| corpus | records | with parse diagnostics | from a missing toolkit declaration |")
print("|---|---:|---:|---:|")
for c in names:
    n = diag = tk = 0
    for line in open(os.path.join(out, c + ".ndjson")):
        r = json.loads(line)
        n += 1
        d = (r.get("scan") or {}).get("diagnostics") or {}
        if d.get("errors", 0) > 0:
            diag += 1
            if any(toolkit(m) for m in d.get("messages", [])):
                tk += 1
    print("| %s | %d | %d | %d |" % (c, n, diag, tk))
PY
