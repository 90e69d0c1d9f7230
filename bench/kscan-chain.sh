#!/bin/sh
# Reproduces BENCHMARKS.md, section "The operator chain on mmcv": how many
# of a corpus's kernels kscan names an op for and links all the way from
# kernel to binding, and what reading the binding and dispatcher files
# costs against a kscan without the chain, in the same run.
#
#	sh bench/kscan-chain.sh KSCAN BASELINE_KSCAN SRC OUTDIR
#
# SRC is scanned from itself with -j2, each kscan cold (its own empty work
# directory).  Counts, per kernel record: op (scan.op set), full (a chain
# from kernel through its launcher to a binding), dispatched (a
# dispatcher link on the way), callers above the launcher without a
# binding, the launcher alone (no chain), no launch site in a function;
# units: the files each kscan parsed (a C++ file that binds, registers or
# dispatches is one more for the chain).  BASELINE_KSCAN may be "-" to
# leave out the baseline; COUNT_ONLY=1 counts the outputs already in OUTDIR
# without scanning.
set -eu
usage='usage: bench/kscan-chain.sh KSCAN BASELINE_KSCAN SRC OUTDIR'
kscan=${1:?$usage}
base=${2:?$usage}
src=${3:?$usage}
out=${4:?$usage}
mkdir -p "$out"
out=$(cd "$out" && pwd)
case $kscan in /*) ;; *) kscan=$(pwd)/$kscan ;; esac
case $base in /*|-) ;; *) base=$(pwd)/$base ;; esac

now() { date +%s.%N; }
run() {	# kscan name
	rm -rf "$out/$2.work"
	t0=$(now)
	# CPU time, the parsing processes included: steadier than wall time
	# on a machine shared with other jobs
	(cd "$src" && /usr/bin/time -f '%U %S' -o "$out/$2.cpu" \
	    "$1" -q -j2 --timing --work "$out/$2.work" . \
	    > "$out/$2.ndjson" 2> "$out/$2.timing") || true
	t1=$(now)
	echo "$t0 $t1" | awk '{ printf "%.2f\n", $2 - $1 }' > "$out/$2.wall"
	uptime >> "$out/$2.wall"
}

if [ "${COUNT_ONLY:-0}" != 1 ]; then
	[ "$base" = - ] || run "$base" baseline
	run "$kscan" chain
fi

python3 - "$out" "$base" <<'PY'
import json, os, sys
out, base = sys.argv[1], sys.argv[2]
def units(name):
    return sum(1 for l in open(os.path.join(out, name + ".timing"))
               if ": parsed in " in l)
recs = [json.loads(l) for l in open(os.path.join(out, "chain.ndjson"))]
ks = [r for r in recs if "scan" in r]
def roles(r):
    return [l["role"] for l in r["scan"].get("chain") or []]
op = [r for r in ks if r["scan"].get("op")]
full = [r for r in ks if "launcher" in roles(r) and "binding" in roles(r)]
disp = [r for r in full if "dispatcher" in roles(r)]
# callers above the launcher but no binding (a plain C++ API)
above = [r for r in ks if len(roles(r)) > 2 and "binding" not in roles(r)]
# the launcher alone: no chain (or, from before that rule, two links)
lonly = [r for r in ks if len(roles(r)) <= 2 and
         any(l.get("function") for l in r["scan"]["launches"])]
none = [r for r in ks if not any(l.get("function")
                                 for l in r["scan"]["launches"])]
n = len(ks)
pc = lambda a: "%d (%.0f%%)" % (len(a), 100.0 * len(a) / n if n else 0)
print("kernels %d" % n)
print("op %s" % pc(op))
print("full chain (kernel .. launcher .. binding) %s" % pc(full))
print("  of which through a dispatcher %s" % pc(disp))
print("callers above the launcher, no binding %s" % pc(above))
print("the launcher alone (no caller found) %s" % pc(lonly))
print("no launch site in a function %s" % pc(none))
print("ops named %d" % len({r["scan"]["op"] for r in op}))
def cost(name):
    w = open(os.path.join(out, name + ".wall")).read().split("\n")
    try:
        c = sum(map(float, open(os.path.join(out, name + ".cpu")).read()
                    .split()[-2:]))
    except (OSError, ValueError):
        c = float("nan")
    return float(w[0]), c, w[1].split("load average:")[-1].strip()
wall, cpu, load = cost("chain")
print("chain: units %d, wall %.2f s, cpu %.2f s, load after %s" %
      (units("chain"), wall, cpu, load))
if base != "-":
    bw, bc, bl = cost("baseline")
    bk = sum(1 for l in open(os.path.join(out, "baseline.ndjson"))
             if '"scan"' in l)
    print("baseline: units %d, wall %.2f s, cpu %.2f s, load after %s, "
          "kernels %d" % (units("baseline"), bw, bc, bl, bk))
    print("chain / baseline: wall %.2fx, cpu %.2fx" % (wall / bw, cpu / bc))
with open(os.path.join(out, "lonly.txt"), "w") as f:
    for r in above + lonly + none:
        f.write("%s %s\n" % (r["id"], roles(r)))
PY
