#!/bin/sh
# kverify's rate and its timing, the old engine (one harness process per
# run) against the new (one serving harness per record), in one run on one
# GPU machine:
#   - candidate verdicts per GPU-hour against goldens already computed:
#     counted from the runs a candidate adds to a record (its check, every
#     timing round of reference and candidate), and measured by kverify
#     run again over its own output, which takes each golden again
#     (verify.golden_reused), timing and every per-candidate check on;
#   - the overhead per candidate beyond the kernels' own time (the timed
#     samples);
#   - the one-time cost of a golden per task (reference check, repeat,
#     memcheck, oracle, mutants: the rest of the record's wall time);
#   - the reference timed as its own candidate: the fraction of speedups
#     within [0.97, 1.03], and pass_perf (false expected on every record
#     at threshold 1.0);
#   - 1 GPU against all of the machine's GPUs, the new engine, the same
#     records; with JOBS (kverify -j, workers per GPU) above 1, also one
#     worker against JOBS workers on the one GPU.
#
#	sh bench/kverify-rate.sh BUILT.ndjson [OLD_KVERIFY [OLD_BUILT.ndjson]]
#
# BUILT: kbuild's records, each with its reference's own code as the
# candidate (jq '.candidate = {code: .slice.code, dialect: .slice.dialect}'
# before kbuild).  OLD_KVERIFY: a kverify built before the serving harness
# (the baseline; omitted: no old-engine figures), and OLD_BUILT the same
# records built by the kbuild of that version (its harnesses; default
# BUILT).  Environment: KV (the new
# kverify, default ./kverify), OLD_N (records the old engine runs, default
# all), KV_ARGS (options for both engines, e.g. --timeout 20), COPIES (each record repeated under a new id for the 1-vs-N run,
# default 2), NEW_N (records the new engine runs, default all), GPUS (how many, default nvidia-smi's count), JOBS (kverify -j in the
# 1-vs-N part, default 1; ONE1=0 leaves out its -j 1 run), NEW_JOBS (kverify -j of the new engine's one-GPU run, default 1:
# with more, the rate per GPU-hour is also read off the wall clock), OUT (where the
# outputs stay, default a temporary directory that is removed).
# REUSE=0 leaves out the goldens taken again (kverify over its own
# output: candidate verdicts against goldens already computed, one GPU
# and, with several, all of them).
# SCALING_ONLY=1 runs the 1-vs-N part only (a command's time limit may not
# hold both).  Needs python3 (statistics), the GPU driver and
# compute-sanitizer; kverify's libraries through LD_LIBRARY_PATH and the
# work directory through KFORGE_WORK where the records were built
# elsewhere.  Preparing the records on a machine with nvcc:
#	jq -c 'select(.wrap.spec.confidence.overall == "high" and
#	    .wrap.harness.code != null) |
#	    .candidate = {code: .slice.code, dialect: .slice.dialect}' \
#	    OUT/mmcv/kwrap.ndjson > self.in
#	./kbuild -q -j 2 --arch sm_90 --work W < self.in > self.ndjson
# and with the old version's kbuild, the same --work W, > self-old.ndjson.
set -eu
[ $# -ge 1 ] || { echo "usage: kverify-rate.sh built.ndjson [old-kverify [old-built.ndjson]]" >&2; exit 2; }
built=$1 old=${2:-} oldbuilt=${3:-$1}
KV=${KV:-./kverify}
COPIES=${COPIES:-2}
GPUS=${GPUS:-$(nvidia-smi -L 2> /dev/null | grep -c '^GPU' || true)}
[ "${GPUS:-0}" -ge 1 ] 2> /dev/null || GPUS=1
if [ -n "${OUT:-}" ]; then
	mkdir -p "$OUT"
	o=$OUT
else
	o=${TMPDIR:-/tmp}/kverify-rate.$$
	mkdir -p "$o"
	trap 'rm -rf "$o"' EXIT
fi
n=$(wc -l < "$built")
OLD_N=${OLD_N:-$n}
if [ -n "${NEW_N:-}" ]; then
	head -n "$NEW_N" "$built" > "$o/new.in"
	built=$o/new.in
	n=$NEW_N
fi
echo "# device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2> /dev/null | head -n 1) x $GPUS"
echo "# records: $n ($built); old engine on the first $OLD_N"

# wall NAME CMD...: run CMD, its wall seconds into $o/NAME.wall
wall() {
	name=$1
	shift
	t0=$(date +%s.%N)
	"$@" || true
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }' > "$o/$name.wall"
}

# 1. the new engine, one GPU
[ -n "${SCALING_ONLY:-}" ] || wall new "$KV" ${KV_ARGS:-} -j "${NEW_JOBS:-1}" --gpus 0 < "$built" > "$o/new.ndjson" 2> "$o/new.err"
# 1b. the goldens of 1 taken again (kverify's output as its input, the
# reference still its own candidate): the candidate's runs and the timing
# only, COPIES copies of each record, one GPU, then every GPU (REUSE=0:
# not measured)
if [ -z "${SCALING_ONLY:-}" ] && [ "${REUSE:-1}" != 0 ] && [ -s "$o/new.ndjson" ]; then
	awk -v n="$COPIES" '{ for (i = 0; i < n; i++) print }' "$o/new.ndjson" > "$o/reuse.in"
	wall reuse "$KV" ${KV_ARGS:-} -j "${NEW_JOBS:-1}" --gpus 0 < "$o/reuse.in" > "$o/reuse.ndjson" 2> "$o/reuse.err"
	if [ "$GPUS" -gt 1 ]; then
		all=$(awk -v n="$GPUS" 'BEGIN { for (i = 0; i < n; i++) printf "%s%d", i ? "," : "", i }')
		wall reusemany "$KV" ${KV_ARGS:-} -j "${NEW_JOBS:-1}" --gpus "$all" < "$o/reuse.in" > "$o/reusemany.ndjson" 2> "$o/reusemany.err"
	fi
fi
# 2. the old engine, one GPU, on the first OLD_N records
head -n "$OLD_N" "$oldbuilt" > "$o/old.in"
if [ -n "$old" ] && [ -z "${SCALING_ONLY:-}" ]; then
	wall old "$old" ${KV_ARGS:-} --gpus 0 < "$o/old.in" > "$o/old.ndjson" 2> "$o/old.err"
fi
# 3. 1 GPU against all of them, the new engine, COPIES copies of each
# record (a longer queue)
awk -v n="$COPIES" '{ for (i = 0; i < n; i++) { l = $0
	sub(/^\{"id":"/, "{\"id\":\"copy" i ":", l); print l } }' "$built" > "$o/copies.in"
JOBS=${JOBS:-1}
if [ "$JOBS" -gt 1 ] && [ "${ONE1:-1}" != 0 ]; then
	wall one1 "$KV" ${KV_ARGS:-} --gpus 0 < "$o/copies.in" > "$o/one1.ndjson" 2> "$o/one1.err"
fi
if [ "$GPUS" -gt 1 ] || [ "$JOBS" -gt 1 ]; then
	wall one "$KV" ${KV_ARGS:-} -j "$JOBS" --gpus 0 < "$o/copies.in" > "$o/one.ndjson" 2> "$o/one.err"
fi
if [ "$GPUS" -gt 1 ]; then
	all=$(awk -v n="$GPUS" 'BEGIN { for (i = 0; i < n; i++) printf "%s%d", i ? "," : "", i }')
	wall many "$KV" ${KV_ARGS:-} -j "$JOBS" --gpus "$all" < "$o/copies.in" > "$o/many.ndjson" 2> "$o/many.err"
fi

python3 - "$o" "$OLD_N" "$GPUS" "$JOBS" <<'EOF'
import json, os, statistics as st, sys
o, old_n, gpus, jobs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])

def load(name):
    p = os.path.join(o, name + ".ndjson")
    if not os.path.exists(p):
        return None
    recs = []
    for line in open(p):
        try:
            recs.append(json.loads(line))
        except ValueError:
            pass
    return recs

def wall(name):
    p = os.path.join(o, name + ".wall")
    return float(open(p).read()) if os.path.exists(p) else None

def split(r):
    """(golden seconds, candidate seconds, kernel seconds in the
    candidate's runs) of one record, or None without a timed candidate."""
    v = r.get("verify") or {}
    t = v.get("timing") or {}
    if v.get("pass_exe") is not True or "candidate" not in t:
        return None
    runs = v.get("runs") or []
    cand = sum(x["seconds"] or 0 for x in runs
               if x["role"] == "candidate" or x["mode"] == "time")
    kern = 0.0
    for side in ("reference", "candidate"):
        s = t.get(side) or {}
        if s.get("n") and s.get("mean_ms") is not None:
            kern += s["n"] * s["mean_ms"] / 1000
    return (v.get("seconds", 0) - cand, cand, kern)

def q(xs, f):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(f * len(xs)))] if xs else float("nan")

def report(name, recs):
    parts = [p for p in (split(r) for r in recs) if p is not None]
    sp = [r["verify"]["timing"]["speedup"] for r in recs
          if (r.get("verify") or {}).get("timing", {}).get("speedup") is not None]
    pp = [r["verify"].get("pass_perf") for r in recs
          if (r.get("verify") or {}).get("pass_exe") is True]
    errs = sum(1 for r in recs if r.get("errors"))
    res = {"records": len(recs), "errors": errs, "timed": len(parts)}
    if parts:
        g = [p[0] for p in parts]; c = [p[1] for p in parts]
        ov = [p[1] - p[2] for p in parts]
        res.update(golden_s=st.mean(g), cand_s=st.mean(c),
                   per_hour=3600 / st.mean(c), overhead_s=st.mean(ov),
                   overhead_p90=q(ov, 0.9),
                   record_s=st.mean(r["verify"]["seconds"] for r in recs
                                    if "verify" in r))
    if sp:
        res.update(speedups=len(sp),
                   within=sum(1 for s in sp if 0.97 <= s <= 1.03) / len(sp),
                   sp_min=min(sp), sp_max=max(sp),
                   pass_perf_true=sum(1 for p in pp if p is True))
    print("%-5s %s" % (name, json.dumps(res, sort_keys=True)))
    return res

new = load("new") or []
old = load("old")
n = report("new", new)
if new and wall("new"):
    ok = sum(1 for r in new if (r.get("verify") or {}).get("pass_exe") is True)
    print("new, wall clock: %d records (%d candidates passed) in %.1f s on "
          "one GPU: %.0f candidate verdicts per GPU-hour, golden included" %
          (len(new), ok, wall("new"), len(new) / wall("new") * 3600))
reuse = load("reuse")
if reuse and wall("reuse"):
    kept = [r for r in reuse if (r.get("verify") or {}).get("golden_reused")]
    ok = sum(1 for r in kept if r["verify"].get("pass_exe") is True)
    w = wall("reuse")
    ks = [r["verify"].get("kernel_seconds") or 0 for r in kept]
    lat = [r["verify"]["seconds"] - (r["verify"].get("kernel_seconds") or 0)
           for r in kept]
    print("goldens taken again: %d of %d records (%d candidates passed) in "
          "%.1f s on one GPU (-j as NEW_JOBS): %.0f candidate verdicts per "
          "GPU-hour against goldens already computed" %
          (len(kept), len(reuse), ok, w, len(reuse) / w * 3600))
    if kept:
        print("  per candidate: GPU wall %.3f s, kernels %.3f s, overhead "
              "(GPU wall less kernels) %.3f s; one record's own time less "
              "its kernels: mean %.2f s, p90 %.2f s" %
              (w / len(reuse), st.mean(ks), w / len(reuse) - st.mean(ks),
               st.mean(lat), q(lat, 0.9)))
    report("reuse", reuse)
    if wall("reusemany"):
        rm = load("reusemany") or []
        print("  %d GPUs: %.1f s for %d records, %.0f verdicts per hour: "
              "%.2fx one GPU" % (gpus, wall("reusemany"), len(rm),
              len(rm) / wall("reusemany") * 3600, w / wall("reusemany")))
if old is not None:
    ids = set(r["id"] for r in old)
    nsub = report("new*", [r for r in new if r["id"] in ids])
    osub = report("old", old)
    if nsub.get("cand_s") and osub.get("cand_s"):
        print("ratio candidate verdicts per GPU-hour new/old: %.2f" %
              (nsub["per_hour"] / osub["per_hour"]))
        print("ratio record seconds old/new: %.2f" %
              (osub["record_s"] / nsub["record_s"]))
        print("ratio golden seconds old/new: %.2f" %
              (osub["golden_s"] / nsub["golden_s"]))
    if wall("old") and wall("new"):
        print("wall old %.1f s (%d records), new %.1f s (%d records)" %
              (wall("old"), len(old), wall("new"), len(new)))
def same(a, b):
    # the same verdict (verified or not, first error code) per record id
    def key(r):
        v = r.get("verify") or {}
        e = r.get("errors") or [{}]
        return ((v.get("verified") or {}).get("value"), e[0].get("code"))
    x = {r["id"]: key(r) for r in load(a) or []}
    y = {r["id"]: key(r) for r in load(b) or []}
    common = set(x) & set(y)
    return sum(1 for i in common if x[i] == y[i]), len(common)

def rate(name):
    recs = load(name) or []
    return len(recs), len(recs) / wall(name) * 3600

if jobs > 1 and wall("one1") and wall("one"):
    n1, r1 = rate("one1")
    nj, rj = rate("one")
    print("1 GPU -j 1: %.1f s, %d records, %.0f records per GPU-hour" %
          (wall("one1"), n1, r1))
    print("1 GPU -j %d: %.1f s, %d records, %.0f records per GPU-hour: "
          "%.2fx -j 1; same verdicts %d of %d" %
          ((jobs, wall("one"), nj, rj, rj / r1) + same("one1", "one")))
if gpus > 1 and wall("one") and wall("many"):
    print("1 GPU %.1f s, %d GPUs %.1f s: %.2fx (-j %d each); same verdicts "
          "%d of %d" % ((wall("one"), gpus, wall("many"),
          wall("one") / wall("many"), jobs) + same("one", "many")))
EOF
