#!/usr/bin/env python3
"""The translation loop's Python half (bench/hipify-gpu.sh runs it).

  hipify.py translate IN OUT   verified CUDA tasks of IN (kverify output)
                               -> OUT: each with its reference translated to
                               HIP by PyTorch's torch.utils.hipify, attached
                               as a HIP candidate (build and verify dropped)
  hipify.py report NAME VERIFY verified translations: counts and causes as
                               Markdown, plus one JSON line on stderr (with
                               every translation that does not pass and its
                               cause, every wavefront-sensitive one and why)
  hipify.py total SUMMARY...   the JSON lines of report, one per corpus ->
                               the table's total row, then every translation
                               that does not pass and every wavefront-sensitive
                               one, by corpus, as Markdown

The translator is the one users have (torch.utils.hipify); nothing here
rewrites code itself.
"""
import inspect
import io
import json
import os
import re
import shutil
import sys
import tempfile
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout


def verified_cuda(rec):
    v = rec.get("verify") or {}
    scan = rec.get("scan") or {}
    return (scan.get("dialect", "cuda") == "cuda" and
            (v.get("verified") or {}).get("value") is True and
            isinstance((rec.get("slice") or {}).get("code"), str))


def hipify_all(codes):
    """Translate each text with torch.utils.hipify; returns
    [(text or None, status)] where status is changed, unchanged or an
    error."""
    import torch
    from torch.utils.hipify import hipify_python
    top = tempfile.mkdtemp(prefix="kforge-hipify.")
    src, dst = os.path.join(top, "src"), os.path.join(top, "out")
    os.makedirs(src)
    for i, c in enumerate(codes):
        with open(os.path.join(src, "t%d.cu" % i), "w") as f:
            f.write(c)
    want = dict(project_directory=src, output_directory=dst,
                includes=[os.path.join(dst, "*")], show_detailed=False,
                is_pytorch_extension=True, show_progress=False)
    have = inspect.signature(hipify_python.hipify).parameters
    kw = {k: v for k, v in want.items() if k in have}
    out = []
    try:
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            hipify_python.hipify(**kw)
    except BaseException as e:  # the translator's failure is a result
        msg = "hipify failed: %s" % (str(e).splitlines() or [type(e).__name__])[0]
        shutil.rmtree(top, ignore_errors=True)
        return [(None, msg[:200])] * len(codes), torch.__version__
    for i, c in enumerate(codes):
        h = os.path.join(dst, "t%d.hip" % i)
        if os.path.exists(h):
            text = open(h).read()
            out.append((text, "changed" if text != c else "unchanged"))
        elif os.path.exists(os.path.join(dst, "t%d.cu" % i)):
            text = open(os.path.join(dst, "t%d.cu" % i)).read()
            out.append((text, "changed" if text != c else "unchanged"))
        else:
            out.append((None, "hipify wrote no output"))
    shutil.rmtree(top, ignore_errors=True)
    return out, torch.__version__


def translate(inp, outp):
    recs = []
    with open(inp) as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if isinstance(r, dict) and verified_cuda(r):
                recs.append(r)
    res, version = hipify_all([r["slice"]["code"] for r in recs]) if recs else ([], "")
    n = Counter()
    with open(outp, "w") as f:
        for r, (text, status) in zip(recs, res):
            n[status if text is not None else "failed"] += 1
            for k in ("build", "verify", "candidate", "errors"):
                r.pop(k, None)
            r["candidate"] = {
                "code": text if text is not None else "",
                "dialect": "hip",
                "source": "torch.utils.hipify (PyTorch %s)" % version,
                "translation": status}
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    sys.stderr.write("hipify.py: %s: %d verified CUDA tasks translated (%s)\n" %
                     (inp, len(recs), ", ".join("%s %d" % kv for kv in sorted(n.items()))))


def first_error(unit):
    for d in (unit or {}).get("diagnostics") or []:
        if d.get("severity") == "error":
            m = d.get("message", "")
            # names and numbers vary; the kind of error does not
            m = re.sub(r'"[^"]*"', '"…"', m)
            m = re.sub(r"'[^']*'", "'…'", m)
            return m[:120]
    return "no error message" if unit else "not built"


NOT_JUDGED = "not judged: the CUDA reference was not verified again: "


def cause(rec):
    """(compiled, passed, cause) of one translated record."""
    b = rec.get("build") or {}
    c = b.get("candidate")
    errs = rec.get("errors") or []
    if not (rec.get("candidate") or {}).get("code"):
        return False, False, "translation: " + (rec.get("candidate") or {}).get("translation", "none")
    if c is None or not c.get("ok"):
        if c is None and errs:
            return False, False, "kbuild: " + errs[0].get("code", "?")
        return False, False, "compile: " + first_error(c)
    if c.get("symbol") is None:
        return True, False, "compile: kernel symbol not in the module"
    v = rec.get("verify")
    if v is None:
        return True, False, "kverify: " + (errs[0].get("code", "?") if errs else "no verify section")
    if (v.get("verified") or {}).get("value") is not True:
        # the CUDA reference failed its own checks in this run: the
        # translation was not judged (counted apart, not as a failure)
        return True, False, NOT_JUDGED + str((v.get("verified") or {}).get("reason"))
    if v.get("pass_exe") is True:
        return True, True, "pass"
    cv = v.get("candidate") or {}
    rs = cv.get("reasons") or []
    fault = (cv.get("fault") or {}).get("kind")
    return True, False, "verify: " + (",".join(rs) if rs else "failed") + (" (%s)" % fault if fault else "")


def report(name, path):
    n = Counter()
    causes = Counter()
    examples = {}
    wf = Counter()
    wf_kinds = Counter()
    failures = []
    sensitive = []
    with open(path) as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                n["bad line"] += 1
                continue
            n["tasks"] += 1
            compiled, passed, why = cause(r)
            n["compiled"] += compiled
            n["passed"] += passed
            n["not judged"] += why.startswith(NOT_JUDGED)
            if (r.get("candidate") or {}).get("translation") == "changed":
                n["changed"] += 1
            w = ((r.get("build") or {}).get("candidate") or {}).get("wavefront") or {}
            if w.get("sensitive"):
                wf["sensitive"] += 1
                wf["sensitive and passed"] += passed
                kinds = sorted({x.get("kind") for x in w.get("reasons") or []})
                for k in kinds:
                    wf_kinds[k] += 1
                sensitive.append({"id": r.get("id"), "passed": passed,
                                  "reasons": ["%s@%s" % (x.get("kind"), x.get("line"))
                                              for x in w.get("reasons") or []]})
            if not passed:
                causes[why] += 1
                examples.setdefault(why, r.get("id"))
                failures.append({"id": r.get("id"), "cause": why})
    judged = n["compiled"] - n["not judged"]
    rate = 100.0 * n["passed"] / judged if judged else 0.0
    print("| %s | %d | %d | %d | %d | %d | %.1f%% | %d |" % (
        name, n["tasks"], n["changed"], n["compiled"], n["not judged"], n["passed"],
        rate, wf["sensitive"]))
    for why, k in causes.most_common():
        print("|   | cause: %s | %d | e.g. `%s` | | | | |" % (why.replace("|", "\\|"), k, examples[why]))
    if wf_kinds:
        print("|   | wavefront-sensitive kinds: %s | | | | | | |" % ", ".join(
            "%s %d" % kv for kv in wf_kinds.most_common()))
    sys.stderr.write(json.dumps({"corpus": name, "tasks": n["tasks"],
                                 "changed": n["changed"], "compiled": n["compiled"],
                                 "passed": n["passed"], "not_judged": n["not judged"],
                                 "pass_of_judged": round(rate, 1),
                                 "wavefront_sensitive": wf["sensitive"],
                                 "wavefront_sensitive_passed": wf["sensitive and passed"],
                                 "causes": dict(causes), "failures": failures,
                                 "sensitive": sensitive}) + "\n")


def total(paths):
    """The total row over every corpus's summary, then the lists."""
    sums = []
    for p in paths:
        with open(p) as f:
            for line in f:
                try:
                    sums.append(json.loads(line))
                except ValueError:
                    pass
    t = Counter()
    for s in sums:
        for k in ("tasks", "changed", "compiled", "not_judged", "passed",
                  "wavefront_sensitive"):
            t[k] += s.get(k, 0)
    judged = t["compiled"] - t["not_judged"]
    rate = 100.0 * t["passed"] / judged if judged else 0.0
    print("| **all %d corpora** | %d | %d | %d | %d | %d | %.1f%% | %d |" % (
        len(sums), t["tasks"], t["changed"], t["compiled"], t["not_judged"],
        t["passed"], rate, t["wavefront_sensitive"]))
    causes = Counter()
    for s in sums:
        causes.update(s.get("causes") or {})
    print()
    print("Causes over all corpora: " + (", ".join(
        "%s: %d" % kv for kv in causes.most_common()) or "none") + ".")
    print()
    print("Translations that do not pass (%d):" % sum(causes.values()))
    print()
    for s in sums:
        for x in s.get("failures") or []:
            print("* %s `%s`: %s" % (s.get("corpus"), x.get("id"), x.get("cause")))
    print()
    print("Wavefront-sensitive translations (%d; reasons as kind@line of the HIP source):"
          % t["wavefront_sensitive"])
    print()
    for s in sums:
        for x in s.get("sensitive") or []:
            print("* %s `%s` (%s): %s" % (s.get("corpus"), x.get("id"),
                                        "passes" if x.get("passed") else "does not pass",
                                        ", ".join(x.get("reasons") or [])))


def main(argv):
    if len(argv) == 4 and argv[1] == "translate":
        translate(argv[2], argv[3])
    elif len(argv) == 4 and argv[1] == "report":
        report(argv[2], argv[3])
    elif len(argv) >= 2 and argv[1] == "total":
        total(argv[2:])
    else:
        sys.stderr.write("usage: hipify.py translate IN OUT | report NAME VERIFY"
                         " | total SUMMARY...\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
