#!/usr/bin/env python3
"""Run case 0 of every built harness under compute-sanitizer memcheck.

    gpu-memcheck-case0.py BUILT.ndjson OUT.tsv [JOBS]

BUILT is kbuild output; artifacts are found under $KFORGE_WORK (default
.kforge).  Writes one line per runnable record: id, spec confidence,
harness exit status, memcheck error count.  Used for the mmcv rows of
BENCHMARKS.md; needs a GPU and compute-sanitizer.  kverify now does this
itself (memcheck on case 0 by default, in verify.verified); the script
stays for the figures that were measured with it.
"""
import concurrent.futures, json, os, re, subprocess, sys, tempfile

work = os.environ.get("KFORGE_WORK", ".kforge")
cs = os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "compute-sanitizer")

def path(unit):
    a = unit["artifact"]
    return os.path.join(work, "build", a[:2], a, unit["file"])

def one(rec):
    b = rec["build"]
    with tempfile.TemporaryDirectory() as d:
        try:
            p = subprocess.run([cs, "--tool", "memcheck", "--print-limit", "3",
                                path(b["harness"]), path(b["reference"]),
                                b["reference"]["symbol"], d, "--case", "0"],
                               capture_output=True, text=True, timeout=120)
            out, st = p.stdout + p.stderr, p.returncode
        except subprocess.TimeoutExpired:
            out, st = "", "timeout"
    m = re.findall(r"ERROR SUMMARY: (\d+)", out)
    conf = rec.get("wrap", {}).get("spec", {}).get("confidence", {}).get("overall", "?")
    return "%s\t%s\t%s\t%s" % (rec["id"], conf, st, m[-1] if m else "?")

recs = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    b = r.get("build", {})
    h, ref = b.get("harness") or {}, b.get("reference") or {}
    if h.get("ok") and ref.get("ok") and ref.get("runnable") and ref.get("symbol"):
        recs.append(r)
jobs = int(sys.argv[3]) if len(sys.argv) > 3 else 4
with open(sys.argv[2], "w") as f, concurrent.futures.ThreadPoolExecutor(jobs) as ex:
    f.write("id\tconfidence\tharness_status\tmemcheck_errors\n")
    for row in ex.map(one, recs):
        f.write(row + "\n")
        f.flush()
