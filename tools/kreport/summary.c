/*
 * kreport: the one JSON summary of the tables digest.c counted; every
 * format (JSON as it is, Markdown and HTML through render.c) is made
 * from it, so they cannot disagree.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "k_mem.h"
#include "k_record.h"
#include "kreport.h"

/* ------------------------------------------------------------ summary */

/*
 * Unbiased pass@k for n samples of which c pass (Chen et al. 2021), as the
 * product 1 - prod_{i=n-c+1}^{n} (1 - k/i): no binomials that overflow.
 */
static double
pass_at_k(long n, long c, long k)
{
	double p = 1.0;
	long i;

	if (n - c < k)
		return 1.0;
	for (i = n - c + 1; i <= n; i++)
		p *= 1.0 - (double)k / (double)i;
	return 1.0 - p;
}

static json_t *
rate(long n, long of)
{
	return json_pack("{sI sf}", "n", (json_int_t)n, "rate",
	    of > 0 ? (double)n / (double)of : 0.0);
}

static json_t *
real_or_null(int have, double x)
{
	return have ? json_real(x) : json_null();
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static json_t *
breakdown(struct table *t)
{
	json_t *arr = json_array();
	size_t i;

	if (t->n > 0)
		qsort(t->v, t->n, sizeof(*t->v), by_key);
	for (i = 0; i < t->n; i++) {
		struct agg *a = &t->v[i];
		json_array_append_new(arr, json_pack("{ss sI sI sI sI sI sI so}",
		    "key", a->key, "records", (json_int_t)a->records,
		    "built", (json_int_t)a->built,
		    "candidates", (json_int_t)a->cands,
		    "pass_call", (json_int_t)a->call,
		    "pass_exe", (json_int_t)a->exe,
		    "pass_perf", (json_int_t)a->perf,
		    "geomean_speedup", real_or_null(a->sp_n > 0,
		    a->sp_n > 0 ? exp(a->sp_log / (double)a->sp_n) : 0)));
	}
	return arr;
}

static const double hist_edges[] = { 0.5, 0.9, 1.1, 1.5, 2, 4 };
#define NBINS 7

static int
by_score(const void *a, const void *b)
{
	json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	double sx = json_number_value(json_object_get(x, "score"));
	double sy = json_number_value(json_object_get(y, "score"));

	if (sx != sy)
		return sx < sy ? -1 : 1;
	return strcmp(k_get_str(x, "task"), k_get_str(y, "task"));
}

/*
 * The mutation score (verify.mutation, kverify): per task, from its first
 * record that has one (every record of a task scores the same reference),
 * lowest score first, and overall: killed over tried less the survivors
 * kwrap proved equivalent under the spec (spec_equivalent), summed.  NULL
 * when no record was scored.
 */
static json_t *
mutation(void)
{
	json_t *m, *tasks = json_object(), *t, *arr = json_array(), **v;
	long tried = 0, killed = 0, equiv = 0, still = 0, speq = 0, contra = 0;
	const char *key;
	size_t i, n = 0;

	for (i = 0; i < nrecs; i++) {
		json_t *mv = json_object_get(json_object_get(recs[i].rec,
		    "verify"), "mutation"), *ids = json_array(), *x;
		size_t j;
		if (!json_is_object(mv) || json_object_get(tasks,
		    recs[i].task) != NULL) {
			json_decref(ids);
			continue;
		}
		json_array_foreach(json_object_get(mv, "survivors"), j, x)
			json_array_append(ids, json_object_get(x, "id"));
		json_object_set_new(tasks, recs[i].task, json_pack(
		    "{ss sI sI sI sI sI sI sO so}", "task", recs[i].task,
		    "tried", k_get_int(mv, "tried", 0),
		    "killed", k_get_int(mv, "killed", 0),
		    "survived", k_get_int(mv, "survived", 0),
		    "equivalent", k_get_int(mv, "equivalent", 0),
		    "spec_equivalent", k_get_int(mv, "spec_equivalent", 0),
		    "contradictions", k_get_int(mv, "contradictions", 0),
		    "score", json_object_get(mv, "score") != NULL ?
		    json_object_get(mv, "score") : json_null(),
		    "survivors", ids));
		tried += (long)k_get_int(mv, "tried", 0);
		killed += (long)k_get_int(mv, "killed", 0);
		equiv += (long)k_get_int(mv, "equivalent", 0);
		still += (long)k_get_int(mv, "stillborn", 0);
		speq += (long)k_get_int(mv, "spec_equivalent", 0);
		contra += (long)k_get_int(mv, "contradictions", 0);
	}
	if (json_object_size(tasks) == 0) {
		json_decref(tasks);
		json_decref(arr);
		return NULL;
	}
	v = k_calloc(json_object_size(tasks), sizeof(*v));
	json_object_foreach(tasks, key, t)
		v[n++] = t;
	qsort(v, n, sizeof(*v), by_score);
	for (i = 0; i < n; i++)
		json_array_append(arr, v[i]);
	free(v);
	m = json_pack("{sI sI sI sI sI sI sI sI so so}", "tasks",
	    (json_int_t)n, "tried", (json_int_t)tried, "killed",
	    (json_int_t)killed, "survived", (json_int_t)(tried - killed -
	    speq), "equivalent", (json_int_t)equiv, "spec_equivalent",
	    (json_int_t)speq, "contradictions", (json_int_t)contra,
	    "stillborn", (json_int_t)still, "score", tried - speq > 0 ?
	    json_real((double)killed / (double)(tried - speq)) :
	    json_null(), "per_task", arr);
	json_decref(tasks);
	return m;
}

json_t *
summary(void)
{
	json_t *s = json_object(), *st = json_array(), *c, *arr, *sp;
	long maxn = 0, tasks = 0;
	size_t i;
	int k;
	static const long ks[] = { 1, 2, 5, 10, 100 };

	json_object_set_new(s, "records", json_integer(tot.records));
	json_object_set_new(s, "bad_lines", json_integer(tot.bad));
	for (k = 0; k < 5; k++)
		json_array_append_new(st, json_pack("{ss sI sI sf}", "stage",
		    sections[k], "records", (json_int_t)tot.present[k], "ok",
		    (json_int_t)tot.ok[k], "rate", tot.records > 0 ?
		    (double)tot.ok[k] / (double)tot.records : 0.0));
	json_object_set_new(s, "stages", st);

	for (i = 0; i < t_task.n; i++) {
		if (t_task.v[i].cands > maxn)
			maxn = t_task.v[i].cands;
		tasks++;
	}
	c = json_object();
	json_object_set_new(c, "records", json_integer(tot.cands));
	json_object_set_new(c, "tasks", json_integer(tasks));
	json_object_set_new(c, "pass_call", rate(tot.call, tot.cands));
	json_object_set_new(c, "pass_exe", rate(tot.exe, tot.cands));
	json_object_set_new(c, "pass_perf", rate(tot.perf, tot.cands));
	json_object_set_new(s, "candidates", c);

	arr = json_array();
	for (k = 0; k < (int)(sizeof(ks) / sizeof(ks[0])); k++) {
		double sum = 0;
		long nt = 0;
		if (ks[k] > maxn)
			break;
		/* over the candidates that got a pass_exe verdict: one
		 * never run (no GPU) is not a failure */
		for (i = 0; i < t_task.n; i++) {
			if (t_task.v[i].judged < ks[k])
				continue;
			sum += pass_at_k(t_task.v[i].judged, t_task.v[i].exe,
			    ks[k]);
			nt++;
		}
		json_array_append_new(arr, json_pack("{sI sI so}", "k",
		    (json_int_t)ks[k], "tasks", (json_int_t)nt, "value",
		    real_or_null(nt > 0, nt > 0 ? sum / (double)nt : 0)));
	}
	json_object_set_new(s, "pass_at_k", arr);

	sp = json_object();
	if (nsp > 0)
		qsort(speedups, nsp, sizeof(*speedups), cmp_double);
	{
		double lsum = 0, med = 0;
		json_t *h = json_array();
		long bins[NBINS] = { 0 };
		for (i = 0; i < nsp; i++) {
			size_t b = 0;
			lsum += log(speedups[i]);
			while (b < NBINS - 1 && speedups[i] >= hist_edges[b])
				b++;
			bins[b]++;
		}
		if (nsp > 0)
			med = nsp % 2 ? speedups[nsp / 2] :
			    (speedups[nsp / 2 - 1] + speedups[nsp / 2]) / 2;
		json_object_set_new(sp, "n", json_integer((json_int_t)nsp));
		json_object_set_new(sp, "geomean", real_or_null(nsp > 0,
		    nsp > 0 ? exp(lsum / (double)nsp) : 0));
		json_object_set_new(sp, "min", real_or_null(nsp > 0,
		    nsp > 0 ? speedups[0] : 0));
		json_object_set_new(sp, "median", real_or_null(nsp > 0, med));
		json_object_set_new(sp, "max", real_or_null(nsp > 0,
		    nsp > 0 ? speedups[nsp - 1] : 0));
		for (k = 0; k < NBINS; k++) {
			char label[32];
			if (k == 0)
				snprintf(label, sizeof(label), "<%g",
				    hist_edges[0]);
			else if (k == NBINS - 1)
				snprintf(label, sizeof(label), ">=%g",
				    hist_edges[k - 1]);
			else
				snprintf(label, sizeof(label), "%g-%g",
				    hist_edges[k - 1], hist_edges[k]);
			json_array_append_new(h, json_pack("{ss so so sI}",
			    "bin", label,
			    "lo", k == 0 ? json_real(0) :
			    json_real(hist_edges[k - 1]),
			    "hi", k == NBINS - 1 ? json_null() :
			    json_real(hist_edges[k]),
			    "n", (json_int_t)bins[k]));
		}
		json_object_set_new(sp, "histogram", h);
	}
	json_object_set_new(s, "speedup", sp);

	arr = json_array();
	for (k = 0; k < 4; k++) {
		double sum = 0;
		long nt = 0;
		for (i = 0; i < t_task.n; i++) {
			if (t_task.v[i].judged == 0)
				continue;
			sum += (double)t_task.v[i].fast[k] /
			    (double)t_task.v[i].judged;
			nt++;
		}
		json_array_append_new(arr, json_pack("{sf sI so}", "p",
		    fast_ps[k], "tasks", (json_int_t)nt, "value",
		    real_or_null(nt > 0, nt > 0 ? sum / (double)nt : 0)));
	}
	json_object_set_new(s, "fast_p", arr);

	arr = json_array();
	if (t_fail.n > 0)
		qsort(t_fail.v, t_fail.n, sizeof(*t_fail.v), by_count);
	for (i = 0; i < t_fail.n; i++)
		json_array_append_new(arr, json_pack("{ss sI ss}", "class",
		    t_fail.v[i].key, "records", (json_int_t)t_fail.v[i].records,
		    "example", t_fail.v[i].example));
	json_object_set_new(s, "failures", arr);

	arr = json_array();
	if (t_err.n > 0)
		qsort(t_err.v, t_err.n, sizeof(*t_err.v), by_count);
	for (i = 0; i < t_err.n; i++) {
		/* "<stage>\t<code>\t<length of stage>" (digest.c) */
		const char *key = t_err.v[i].key;
		const char *last = strrchr(key, '\t');
		size_t len = strtoul(last + 1, NULL, 10);
		json_array_append_new(arr, json_pack("{ss% ss% sI ss ss}",
		    "stage", key, len, "code", key + len + 1,
		    (size_t)(last - (key + len + 1)),
		    "records", (json_int_t)t_err.v[i].records,
		    "example", t_err.v[i].example,
		    "message", t_err.v[i].message));
	}
	json_object_set_new(s, "errors", arr);

	if ((arr = mutation()) != NULL)
		json_object_set_new(s, "mutation", arr);

	json_object_set_new(s, "breakdown", json_pack("{so so so}",
	    "project", breakdown(&t_proj), "dialect", breakdown(&t_dial),
	    "tag", breakdown(&t_tag)));
	if (op_any())
		json_object_set_new(json_object_get(s, "breakdown"), "op",
		    breakdown(&t_op));

	arr = json_array();
	for (i = 0; i < nrecs; i++) {
		json_t *f;
		if (json_array_size(recs[i].classes) == 0)
			continue;
		f = json_pack("{ss sO}", "id", recs[i].id, "classes",
		    recs[i].classes);
		if (recs[i].dir != NULL)
			json_object_set_new(f, "debug", json_string(
			    recs[i].dir));
		json_array_append_new(arr, f);
	}
	json_object_set_new(s, "failed", arr);
	return s;
}

