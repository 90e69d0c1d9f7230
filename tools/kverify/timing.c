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

/* Reference and candidate timed in the same run, alternating: round 0
 * runs ref then cand, round 1 cand then ref. */
void
timing(struct ctx *c, const struct unit *h, const struct unit *ref,
    const struct unit *cand)
{
	struct samples s[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
	const struct unit *who[2] = { ref, cand };
	static const char *const role[2] = { "reference", "candidate" };
	json_t *t = json_object();
	char dir[PATH_MAX + 64];
	double med[2] = { NAN, NAN };
	int round, k, n = cand != NULL ? 2 : 1;

	json_object_set_new(c->v, "timing", t);
	json_object_set_new(t, "case", json_integer(0));
	json_object_set_new(t, "reps", json_integer(opt.reps));
	json_object_set_new(t, "rounds", json_integer(2));
	for (round = 0; round < 2; round++) {
		for (k = 0; k < n; k++) {
			int i = round % 2 == 0 ? k : n - 1 - k;
			struct run r;
			dir_for(c, "time", 0, dir, sizeof(dir));
			if (run_harness(c->w, h->path, who[i]->path,
			    who[i]->symbol, dir, 0, opt.reps, NULL,
			    opt.timeout, &r) != 0)
				continue;
			log_run(c->runs, role[i], 0, "time", &r);
			if (r.ok) {
				size_t j;
				samples_add(&s[i], r.times, r.ntimes);
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
				    fault_json("candidate", 0, &r));
			run_free(&r);
		}
	}
	json_object_set_new(t, "reference", stats(&s[0], &med[0]));
	if (cand != NULL) {
		double sp;
		json_object_set_new(t, "candidate", stats(&s[1], &med[1]));
		sp = med[0] / med[1];
		json_object_set_new(t, "speedup", jround(sp, 1e-4));
		json_object_set_new(t, "suspicious", json_boolean(
		    isfinite(sp) && sp > opt.suspicious));
	}
	free(s[0].v);
	free(s[1].v);
}
