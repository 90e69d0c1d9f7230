/*
 * Timing: reference and candidate in alternating rounds, and the
 * statistics of their samples.
 */
#include <math.h>
#include <stdlib.h>

#include "kverify.h"

/* ----------------------------------------------------------- timing */

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void
samples_add(struct samples *s, const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s->n == s->cap) {
			s->cap = s->cap ? s->cap * 2 : 64;
			s->v = k_reallocarray(s->v, s->cap, sizeof(double));
		}
		if (isfinite(v[i]))
			s->v[s->n++] = v[i];
	}
}

json_t *
stats(struct samples *s, double *median)
{
	json_t *o = json_object();
	double sum = 0, sq = 0, mean, med;
	size_t i;

	*median = NAN;
	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	if (s->n == 0)
		return o;
	qsort(s->v, s->n, sizeof(double), cmp_double);
	med = s->n % 2 ? s->v[s->n / 2] :
	    (s->v[s->n / 2 - 1] + s->v[s->n / 2]) / 2;
	for (i = 0; i < s->n; i++)
		sum += s->v[i];
	mean = sum / s->n;
	for (i = 0; i < s->n; i++)
		sq += (s->v[i] - mean) * (s->v[i] - mean);
	*median = med;
	json_object_set_new(o, "median_ms", jnum(med));
	json_object_set_new(o, "min_ms", jnum(s->v[0]));
	json_object_set_new(o, "max_ms", jnum(s->v[s->n - 1]));
	json_object_set_new(o, "mean_ms", jnum(mean));
	json_object_set_new(o, "stddev_ms", jnum(sqrt(sq / s->n)));
	return o;
}

/* The median of v[0..n) (sorted in place); NAN when n is 0. */
double
median_of(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The relative standard error of a sample's median: 1.2533 x sigma /
 * sqrt(n) / median, sigma estimated robustly as 1.4826 x the median
 * absolute deviation (a stray slow launch does not widen it).
 */
static double
median_rse(const struct samples *s, double med)
{
	double *d;
	size_t i;
	double mad;

	if (s->n < 2 || !(med > 0))
		return NAN;
	d = k_reallocarray(NULL, s->n, sizeof(double));
	for (i = 0; i < s->n; i++)
		d[i] = fabs(s->v[i] - med);
	mad = median_of(d, s->n);
	free(d);
	return 1.2533 * 1.4826 * mad / sqrt((double)s->n) / med;
}

/* The fastest of the samples, or NAN. */
static double
fastest(const struct samples *s)
{
	double m = NAN;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (isfinite(s->v[i]) && !(s->v[i] >= m))
			m = s->v[i];
	return m;
}

/*
 * The uncertainty of speedup = ref / cand, relative: the larger of twice
 * the combined standard error of the two medians, half the spread of the
 * rounds' own speedups (drift between rounds: clocks, other work on the
 * device) and --noise-floor.
 */
double
speedup_noise(double rse_ref, double rse_cand, const double *round_sp,
    int nrounds, double floor)
{
	double noise = floor, lo = INFINITY, hi = -INFINITY, mid;
	int i;

	if (isfinite(rse_ref) && isfinite(rse_cand) &&
	    2 * sqrt(rse_ref * rse_ref + rse_cand * rse_cand) > noise)
		noise = 2 * sqrt(rse_ref * rse_ref + rse_cand * rse_cand);
	for (i = 0; i < nrounds; i++)
		if (isfinite(round_sp[i])) {
			if (round_sp[i] < lo)
				lo = round_sp[i];
			if (round_sp[i] > hi)
				hi = round_sp[i];
		}
	mid = (lo + hi) / 2;
	if (hi > lo && mid > 0 && (hi - lo) / 2 / mid > noise)
		noise = (hi - lo) / 2 / mid;
	return noise;
}

/* The bytes a case moves between host and device: its inputs and
 * outputs. */
static double
case_bytes(const struct run *r)
{
	double n = 0;
	size_t i;

	for (i = 0; i < r->nin; i++)
		n += (double)r->in[i].len;
	for (i = 0; i < r->nout; i++)
		n += (double)r->out[i].len;
	return n;
}

/*
 * The case worth timing.  A timed run's cost is its launches (inputs
 * restored, L2 flushed, the kernel) and, once a run, its buffers carried
 * between host and device at pageable-copy speed: on a case of a few
 * hundred megabytes that is most of the window in which the GPU is held
 * alone (-j), for a kernel of microseconds.  So: of the cases the
 * reference's checking runs took at least TIMED_MIN_MS on (long enough
 * that launch overhead does not weigh on the ratio), the one with the
 * fewest bytes; where none is that long, the longest of the cases of at
 * most TIMED_MAX_BYTES, else the one with the fewest bytes.  Case 0
 * when none was timed.
 */
int
timed_case(const struct run *gold, int ncases)
{
	int k, enough = -1, small = -1, fewest = -1;
	double enough_b = INFINITY, small_m = -1, fewest_b = INFINITY;

	for (k = 0; k < ncases; k++) {
		struct samples one = { NULL, 0, 0 };
		double m, b;
		if (case_skipped(k))
			continue;
		samples_add(&one, gold[k].times, gold[k].ntimes);
		m = median_of(one.v, one.n);
		free(one.v);
		if (!isfinite(m))
			continue;
		b = case_bytes(&gold[k]);
		if (m >= TIMED_MIN_MS && b < enough_b) {
			enough_b = b;
			enough = k;
		}
		if (b <= TIMED_MAX_BYTES && m > small_m) {
			small_m = m;
			small = k;
		}
		if (b < fewest_b) {
			fewest_b = b;
			fewest = k;
		}
	}
	if (enough >= 0)
		return enough;
	if (small >= 0)
		return small;
	return fewest >= 0 ? fewest : 0;
}

/*
 * Whether the rounds so far (an ABBA pair at least) measured the speedup
 * well enough to stop: its noise from them, without the floor (twice the
 * combined standard error of the medians, half the spread of the rounds'
 * own speedups), is under half of --noise-floor, so that the floor sets
 * the band and more rounds could not move the verdict.  Without a
 * candidate, the reference's median alone.
 */
static int
settled(struct samples *s, int n, const double *round_sp, int rounds)
{
	double med[2], rse[2];
	int i;

	for (i = 0; i < n; i++) {
		struct samples one = { NULL, 0, 0 };
		samples_add(&one, s[i].v, s[i].n);
		med[i] = median_of(one.v, one.n);
		rse[i] = median_rse(&one, med[i]);
		free(one.v);
		if (!isfinite(rse[i]))
			return 0;
	}
	if (n == 1)
		return 2 * rse[0] <= opt.noise_floor / 2;
	return speedup_noise(rse[0], rse[1], round_sp, rounds, 0) <=
	    opt.noise_floor / 2;
}

/*
 * Reference and candidate timed in alternating rounds (ABBA: round r runs
 * the reference first when r is even), in the same serving harness when
 * the record has one; each round's harness run warms up, flushes L2 and
 * repeats until its noise is small (tools/kwrap/harness.in).  The
 * speedup is the ratio of the pooled medians, with its uncertainty.
 */
void
timing(struct ctx *c, const struct unit *h, const struct unit *ref,
    const struct unit *cand, int kcase)
{
	struct samples s[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
	const struct unit *who[2] = { ref, cand };
	static const char *const role[2] = { "reference", "candidate" };
	json_t *t = json_object();
	char dir[PATH_MAX + 64];
	double med[2] = { NAN, NAN }, round_med[TIME_ROUNDS][2];
	double round_sp[TIME_ROUNDS], rse[2];
	int round, k, rounds, n = cand != NULL ? 2 : 1;

	json_object_set_new(c->v, "timing", t);
	json_object_set_new(t, "case", json_integer(kcase));
	json_object_set_new(t, "reps", json_integer(opt.reps));
	/* every round with the GPU alone (-j): one drain, not one a run */
	gpu_hold(c->w);
	for (round = 0; round < TIME_ROUNDS; round++) {
		round_med[round][0] = round_med[round][1] = NAN;
		for (k = 0; k < n; k++) {
			int i = round % 2 == 0 ? k : n - 1 - k, rc;
			struct run r;
			dir_for(c, "time", kcase, dir, sizeof(dir));
			run_times_only = 1;
			rc = run_harness(c->w, h->path, who[i]->path,
			    who[i]->symbol, dir, kcase, opt.reps, NULL,
			    opt.timeout, &r);
			run_times_only = 0;
			if (rc != 0)
				continue;
			log_run(c->runs, role[i], kcase, "time", &r);
			if (r.ok) {
				size_t j;
				struct samples one = { NULL, 0, 0 };
				samples_add(&s[i], r.times, r.ntimes);
				samples_add(&one, r.times, r.ntimes);
				round_med[round][i] = median_of(one.v, one.n);
				free(one.v);
				for (j = 0; j < r.ntimes; j++)
					if (isfinite(r.times[j]))
						c->kernel_ms += r.times[j];
				if (i == 1 && r.timed_match == 0)
					json_object_set_new(t,
					    "candidate_outputs_differ",
					    json_true());
			} else if (i == 1 &&
			    json_object_get(c->v, "fault") == NULL)
				json_object_set_new(c->v, "fault",
				    fault_json("candidate", kcase, &r));
			run_free(&r);
		}
		round_sp[round] = round_med[round][0] / round_med[round][1];
		if (round + 1 >= TIME_ROUNDS_MIN && round + 1 < TIME_ROUNDS &&
		    settled(s, n, round_sp, round + 1))
			break;
	}
	rounds = round < TIME_ROUNDS ? round + 1 : TIME_ROUNDS;
	json_object_set_new(t, "rounds", json_integer(rounds));
	gpu_release(c->w);
	json_object_set_new(t, "reference", stats(&s[0], &med[0]));
	rse[0] = median_rse(&s[0], med[0]);
	if (cand != NULL) {
		double sp, sp_min, noise;
		json_object_set_new(t, "candidate", stats(&s[1], &med[1]));
		rse[1] = median_rse(&s[1], med[1]);
		sp = med[0] / med[1];
		noise = speedup_noise(rse[0], rse[1], round_sp, rounds,
		    opt.noise_floor);
		/* the speedup of the fastest runs: where it and the
		 * medians' part, the times have more than one mode (clock
		 * states, where the blocks landed) and the medians fell in
		 * different ones: the band spans both, each with its own
		 * noise (benchmark 66: a kernel timed 1.196 against itself
		 * by its medians, 1.000 by its fastest runs) */
		sp_min = fastest(&s[0]) / fastest(&s[1]);
		if (isfinite(sp) && isfinite(sp_min) && sp > 0)
			noise += fabs(sp - sp_min) / sp;
		json_object_set_new(t, "speedup", jround(sp, 1e-4));
		json_object_set_new(t, "speedup_min", isfinite(sp_min) ?
		    jround(sp_min, 1e-4) : json_null());
		json_object_set_new(t, "speedup_noise", isfinite(sp) ?
		    jround(sp * noise, 1e-4) : json_null());
		json_object_set_new(t, "speedup_low", isfinite(sp) ?
		    jround(sp * (1 - noise), 1e-4) : json_null());
		json_object_set_new(t, "speedup_high", isfinite(sp) ?
		    jround(sp * (1 + noise), 1e-4) : json_null());
		json_object_set_new(t, "suspicious", json_boolean(
		    isfinite(sp) && sp > opt.suspicious));
	}
	free(s[0].v);
	free(s[1].v);
}
