#!/bin/sh
# Candidate verdicts against goldens already computed, two builds of the
# tools side by side in one run on one GPU (issue 19's measure, as a
# ratio against a baseline taken in the same run):
#   - each build's kbuild builds the records (its own work directory, so
#     each gets its own harnesses), its kverify computes the goldens
#     (--no-time, -j JOBS), then kverify runs again, timing on, over
#     COPIES copies of every record that has a golden (each copy a new
#     candidate verdict against a golden taken again), for at most LIMIT
#     seconds, in ROUNDS rounds of A then B (default 1), so that other
#     load on the machine weighs on both alike;
#   - per build: candidate verdicts per GPU-hour (records done over the
#     wall clock), GPU wall per candidate less the kernels' own timed
#     time (the overhead), the timing window (timing stage less its wait
#     for the GPU: the time the GPU is held alone), the reference as its
#     own candidate (speedups within [0.97, 1.03], pass_perf true), the
#     timing rounds, the mean GPU utilisation (nvidia-smi, 0.5 s) and
#     CPU use (vmstat, us + sy), and a record's candidate and timing
#     stages with their waits for the GPU (verify.stages).
#
#	sh bench/kverify-reuse-ab.sh SELF.in A_DIR B_DIR
#
# SELF.in: kwrap records, each with its reference's own code as the
# candidate (jq '.candidate = {code: .slice.code, dialect: "cuda"}').
# A_DIR, B_DIR: directories holding kbuild and kverify (A the baseline).
# Environment: JOBS (kverify -j, default 16), COPIES (default 4), LIMIT
# (seconds for each taken-again run, default 100; a run stopped by it
# counts the records it finished), ROUNDS, GLIMIT (seconds for the goldens,
# default 120), OUT (where the outputs stay; default a temporary
# directory, removed).  Needs jq, python3, nvidia-smi; the tools' shared
# libraries through LD_LIBRARY_PATH.
set -eu
[ $# -eq 3 ] || { echo "usage: kverify-reuse-ab.sh self.in a-dir b-dir" >&2; exit 2; }
self=$1 a=$(cd "$2" && pwd) b=$(cd "$3" && pwd)
JOBS=${JOBS:-16} COPIES=${COPIES:-4} LIMIT=${LIMIT:-100} GLIMIT=${GLIMIT:-120}
ROUNDS=${ROUNDS:-1}
# the GPU whose utilisation is sampled: the first CUDA_VISIBLE_DEVICES
# names (nvidia-smi does not follow it), else 0
gpu=${CUDA_VISIBLE_DEVICES:-0}
gpu=${gpu%%,*}
if [ -n "${OUT:-}" ]; then
	mkdir -p "$OUT"
	o=$(cd "$OUT" && pwd)
else
	o=${TMPDIR:-/tmp}/kverify-reuse-ab.$$
	mkdir -p "$o"
	trap 'rm -rf "$o"' EXIT
fi
echo "# device: $(nvidia-smi -i "$gpu" --query-gpu=name,driver_version --format=csv,noheader 2> /dev/null | head -n 1) (GPU $gpu); $(nproc) CPUs"
echo "# records: $(wc -l < "$self"); kverify -j $JOBS; $COPIES copies; $LIMIT s a run; $ROUNDS round(s) of A then B"
for v in A B; do
	if [ $v = A ]; then d=$a; else d=$b; fi
	w=$o/work-$v
	KFORGE_WORK=$w "$d/kbuild" -q -j "$(nproc)" < "$self" > "$o/built-$v.ndjson" || true
	KFORGE_WORK=$w timeout -s KILL "$GLIMIT" "$d/kverify" -q -j "$JOBS" \
	    --no-time --timeout 10 < "$o/built-$v.ndjson" > "$o/gold-$v.ndjson" 2> /dev/null || true
	jq -c 'select(.verify.golden != null)' "$o/gold-$v.ndjson" > "$o/g-$v.ndjson"
	i=0
	while [ $i -lt "$COPIES" ]; do
		i=$((i + 1))
		jq -c --arg i "$i" '.id = (.id + "#" + $i)' "$o/g-$v.ndjson"
	done > "$o/again-$v.in"
done
# the taken-again runs alternate, A B A B ..., so that whatever else the
# machine does weighs on both alike
r=0
while [ $r -lt "$ROUNDS" ]; do
	r=$((r + 1))
	for v in A B; do
		if [ $v = A ]; then d=$a; else d=$b; fi
		nvidia-smi -i "$gpu" --query-gpu=utilization.gpu \
		    --format=csv,noheader,nounits -lms 500 > "$o/util-$v-$r" 2> /dev/null &
		p=$!
		vmstat -n 1 > "$o/cpu-$v-$r" 2> /dev/null &
		q=$!
		t0=$(date +%s.%N)
		KFORGE_WORK=$o/work-$v timeout -s KILL "$LIMIT" "$d/kverify" -q \
		    -j "$JOBS" --timeout 10 < "$o/again-$v.in" \
		    > "$o/again-$v-$r.ndjson" 2> /dev/null || true
		t1=$(date +%s.%N)
		kill $p $q 2> /dev/null || true
		echo "$t0 $t1" > "$o/wall-$v-$r"
	done
done
python3 - "$o" <<'EOF'
import json, statistics as st, sys
o = sys.argv[1]
rows = {}
import glob
for v in "AB":
    wall, recs, util, cpu = 0.0, [], [], []
    rounds_run = sorted(glob.glob(f"{o}/wall-{v}-*"))
    for wf in rounds_run:
        r = wf.rsplit("-", 1)[1]
        t0, t1 = map(float, open(wf).read().split())
        wall += t1 - t0
        recs += [json.loads(l) for l in open(f"{o}/again-{v}-{r}.ndjson") if l.strip()]
        util += [float(l) for l in open(f"{o}/util-{v}-{r}") if l.strip()]
        try:
            lines = open(f"{o}/cpu-{v}-{r}").read().split("\n")
            head = lines[1].split() if len(lines) > 1 else []
            for l in lines[3:]:
                f = l.split()
                if len(f) == len(head) and "us" in head and "sy" in head:
                    cpu.append(float(f[head.index("us")]) + float(f[head.index("sy")]))
        except OSError:
            pass
    again = len(rounds_run) * sum(1 for l in open(f"{o}/again-{v}.in") if l.strip())
    reused = [r["verify"] for r in recs if r.get("verify", {}).get("golden_reused")]
    kern = sum(x.get("kernel_seconds") or 0 for x in reused)
    def stage(x, s):
        a = (x.get("stages") or {}).get(s)
        return (a["seconds"] - a["gpu_wait"]) if a else 0
    win = [stage(x, "timing") for x in reused]
    sp = [x["timing"]["speedup"] for x in reused if (x.get("timing") or {}).get("speedup") is not None]
    pp = sum(1 for x in reused if x.get("pass_perf") is True)
    rounds = {}
    for x in reused:
        r = (x.get("timing") or {}).get("rounds")
        if r is not None:
            rounds[r] = rounds.get(r, 0) + 1
    n = len(recs)
    rows[v] = dict(
        records=n, of=again, reused=len(reused), wall=wall,
        per_hour=3600 * n / wall if wall > 0 else 0,
        per_cand=wall / n if n else float("nan"),
        overhead=(wall - kern) / n if n else float("nan"),
        window=st.mean(win) if win else float("nan"),
        within=sum(1 for s in sp if 0.97 <= s <= 1.03), timed=len(sp),
        sp_min=min(sp) if sp else None, sp_max=max(sp) if sp else None,
        pass_perf=pp, rounds=rounds,
        util=st.mean(util) if util else float("nan"),
        cpu=st.mean(cpu) if cpu else float("nan"),
        stage={k: st.mean([((x.get("stages") or {}).get(k) or {}).get(f, 0) for x in reused]) if reused else float("nan")
               for k in ("candidate", "timing") for f in ("seconds",)},
        wait={k: st.mean([((x.get("stages") or {}).get(k) or {}).get("gpu_wait", 0) for x in reused]) if reused else float("nan")
              for k in ("candidate", "timing")})
for v in "AB":
    r = rows[v]
    print(f"{v}: {r['records']} of {r['of']} records in {r['wall']:.1f} s "
          f"({r['reused']} with the golden taken again): "
          f"{r['per_hour']:.0f} candidate verdicts per GPU-hour; per candidate "
          f"{r['per_cand']:.3f} s of GPU wall, overhead {r['overhead']:.3f} s; "
          f"timing window {r['window']:.3f} s; self-speedups within [0.97, 1.03] "
          f"{r['within']} of {r['timed']} ({r['sp_min']} to {r['sp_max']}), "
          f"pass_perf true {r['pass_perf']}; rounds {r['rounds']}; "
          f"GPU busy {r['util']:.1f}%, CPUs busy {r['cpu']:.1f}%; a record's "
          f"candidate stage {r['stage']['candidate']:.2f} s (waiting for the GPU "
          f"{r['wait']['candidate']:.2f}), timing stage {r['stage']['timing']:.2f} s "
          f"(waiting {r['wait']['timing']:.2f})")
a, b = rows["A"], rows["B"]
if a["per_hour"] > 0:
    print(f"B over A: verdicts per GPU-hour {b['per_hour'] / a['per_hour']:.2f}x, "
          f"timing window {b['window'] / a['window']:.2f}x")
EOF
