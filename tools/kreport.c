/*
 * kreport: read records from any stage and say what happened: records per
 * stage, pass rates, pass@k, speedups, failure classes and breakdowns, as
 * Markdown, a self-contained HTML page or JSON; or write per-failure debug
 * folders; or export dataset rows (kforge or TritonBench shaped).
 *
 * Every report is rendered from one JSON summary, so the three formats
 * cannot disagree.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "k_buf.h"
#include "k_exit.h"
#include "k_hash.h"
#include "k_msg.h"
#include "k_record.h"

#define STAGE "kreport"
#define NAME_MAX_KEPT 80	/* bytes of sanitized id in a folder name */
#define FAILED_SHOWN 200	/* failed records listed in md and html */
#define FAIL_BARS 20		/* failure classes drawn in the chart */

static const char usage_line[] =
    "usage: kreport [-hqV] [--debug-dir dir] [--export kforge | tritonbench]\n"
    "               [--format md | html | json] [--project-depth n]\n"
    "               [file ...]\n";

enum { F_MD, F_HTML, F_JSON };
enum { X_NONE, X_KFORGE, X_TRITON };

static struct {
	int format;
	int export;
	const char *debug_dir;
	int depth;
} opt;

/* ------------------------------------------------------- aggregates */

/* One row of a count table: a failure class, a project, a task. */
struct agg {
	char *key;
	char *example;		/* the first record's id */
	char *message;		/* the first error's message */
	long records, built, cands, call, exe, perf, sp_n;
	double sp_log;
	long fast[4];		/* candidates correct and faster than p */
};

struct table {
	struct agg *v;
	size_t n, cap;
};

static const double fast_ps[4] = { 0, 1, 1.5, 2 };

static void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n)) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	return p;
}

static char *
xstrdup(const char *s)
{
	char *p = strdup(s != NULL ? s : "");

	if (p == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	return p;
}

static struct agg *
agg_get(struct table *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->v[i].key, key) == 0)
			return &t->v[i];
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	memset(&t->v[t->n], 0, sizeof(t->v[t->n]));
	t->v[t->n].key = xstrdup(key);
	return &t->v[t->n++];
}

static void
table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->v[i].key);
		free(t->v[i].example);
		free(t->v[i].message);
	}
	free(t->v);
}

static int
by_key(const void *a, const void *b)
{
	return strcmp(((const struct agg *)a)->key,
	    ((const struct agg *)b)->key);
}

/* Most records first, then by key: the biggest problem leads. */
static int
by_count(const void *a, const void *b)
{
	const struct agg *x = a, *y = b;

	if (x->records != y->records)
		return x->records < y->records ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* ------------------------------------------------------------ records */

struct info {
	json_t *rec;
	const char *id;		/* borrowed from rec */
	char *task, *project, *dialect;
	int bad, cand;
	int call, exe, perf;	/* 1, 0, or -1: not reached */
	int has_sp;
	double sp;
	json_t *classes;	/* failure classes, strings, deduplicated */
	char *dir;		/* debug folder name */
};

static struct info *recs;
static size_t nrecs, caprecs;

static struct {
	long records, bad;
	long present[5], ok[5];
	long cands, call, exe, perf;
} tot;

static const char *const sections[5] = {
	"scan", "slice", "wrap", "build", "verify"
};

static struct table t_fail, t_err, t_proj, t_dial, t_tag, t_task;
static double *speedups;
static size_t nsp, capsp;

static int
tri(json_t *v)
{
	return json_is_true(v) ? 1 : json_is_false(v) ? 0 : -1;
}

static void
add_class(struct info *in, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
add_class(struct info *in, const char *fmt, ...)
{
	char buf[512];
	size_t i;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (i = 0; i < json_array_size(in->classes); i++)
		if (strcmp(json_string_value(json_array_get(in->classes, i)),
		    buf) == 0)
			return;
	json_array_append_new(in->classes, k_string_lossy(buf, strlen(buf)));
}

/*
 * The kind of a failed compile, from its first error diagnostic: a short
 * stable name, so that a thousand failures read as a handful of rows.
 */
static const char *
compile_kind(json_t *unit)
{
	static const struct {
		const char *needle, *kind;
	} kinds[] = {
		{ "timed out", "timeout" },
		{ "killed by signal", "crash" },
		{ "is undefined", "undefined-identifier" },
		{ "undeclared identifier", "undefined-identifier" },
		{ "was not declared", "undefined-identifier" },
		{ "cannot open source file", "missing-include" },
		{ "file not found", "missing-include" },
		{ "no such file", "missing-include" },
		{ "no instance of", "no-matching-overload" },
		{ "no matching function", "no-matching-overload" },
		{ "no suitable", "no-matching-overload" },
		{ "too few arguments", "wrong-arguments" },
		{ "too many arguments", "wrong-arguments" },
		{ "cannot be used to initialize", "type-mismatch" },
		{ "cannot convert", "type-mismatch" },
		{ "incompatible", "type-mismatch" },
		{ "a value of type", "type-mismatch" },
		{ "redefinition", "redefinition" },
		{ "already been defined", "redefinition" },
		{ "expected", "syntax" },
		{ "unexpected", "syntax" },
		{ "ptxas", "ptxas" },
		{ "uses too much shared data", "resources" },
		{ "too much", "resources" },
	};
	json_t *d = json_object_get(unit, "diagnostics");
	size_t i, j;

	for (i = 0; i < json_array_size(d); i++) {
		json_t *x = json_array_get(d, i);
		const char *sev = k_get_str(x, "severity");
		const char *m = k_get_str(x, "message");
		if (sev == NULL || strcmp(sev, "error") != 0 || m == NULL)
			continue;
		for (j = 0; j < sizeof(kinds) / sizeof(kinds[0]); j++)
			if (strcasestr(m, kinds[j].needle) != NULL)
				return kinds[j].kind;
		return "other";
	}
	return "no-diagnostic";
}

/* The first depth directory components of a project-relative path. */
static char *
project_of(const char *path, int depth)
{
	const char *p = path, *slash, *end = NULL;
	int i;

	if (path == NULL || *path == '\0')
		return xstrdup("(none)");
	while (*p == '/')
		p++;
	for (i = 0; i < depth; i++) {
		if ((slash = strchr(p, '/')) == NULL)
			break;
		end = slash;
		p = slash + 1;
	}
	if (end == NULL)
		return xstrdup(".");
	{
		const char *start = path;
		char *s;
		while (*start == '/')
			start++;
		s = xstrdup(start);
		s[end - start] = '\0';
		return s;
	}
}

/*
 * A task is what candidates compete on: candidate.task when set, else the
 * id up to a final '#' (ids TASK#CANDIDATE), else the id.
 */
static char *
task_of(json_t *rec, const char *id)
{
	json_t *cand = json_object_get(rec, "candidate");
	const char *t = k_get_str(cand, "task"), *hash;
	char *s;

	if (t != NULL && *t != '\0')
		return xstrdup(t);
	if (json_is_object(cand) && (hash = strrchr(id, '#')) != NULL &&
	    hash != id) {
		s = xstrdup(id);
		s[hash - id] = '\0';
		return s;
	}
	return xstrdup(id);
}

/* Whether the CPU reference compiled into the harness disagrees with
 * the reference kernel: then the golden is not to be trusted. */
static int
oracle_disagrees(json_t *verify)
{
	const char *s = k_get_str(json_object_get(verify, "oracle"),
	    "status");

	return s != NULL && strcmp(s, "disagree") == 0;
}

/* The number of distinct cases with a degenerate output. */
static size_t
degenerate_cases(json_t *dg)
{
	size_t i, j, n = 0;

	for (i = 0; i < json_array_size(dg); i++) {
		json_int_t c = k_get_int(json_array_get(dg, i), "case", -1);
		for (j = 0; j < i; j++)
			if (k_get_int(json_array_get(dg, j), "case", -2) == c)
				break;
		if (j == i)
			n++;
	}
	return n;
}

static void
note_unit(struct info *in, json_t *build, const char *role)
{
	json_t *u = json_object_get(build, role);

	if (json_is_object(u) && json_is_false(json_object_get(u, "ok")))
		add_class(in, "compile:%s:%s", role, compile_kind(u));
}

/* Verdicts and failure classes of one record; counts it everywhere. */
static void
digest(struct info *in)
{
	json_t *rec = in->rec, *v, *errs, *build, *verify, *cand, *slice;
	json_t *scan, *wrap, *tags;
	const char *dia, *cdia, *key, *file;
	size_t i;
	int k, built;

	in->id = k_id_borrowed(rec);
	if (in->id == NULL)
		in->id = "(no id)";
	in->classes = json_array();
	in->call = in->exe = in->perf = -1;
	scan = json_object_get(rec, "scan");
	slice = json_object_get(rec, "slice");
	wrap = json_object_get(rec, "wrap");
	build = json_object_get(rec, "build");
	verify = json_object_get(rec, "verify");
	cand = json_object_get(rec, "candidate");
	in->cand = json_is_object(cand);
	in->task = task_of(rec, in->id);

	tot.records++;
	if (in->bad)
		tot.bad++;
	for (k = 0; k < 5; k++)
		if (json_is_object(json_object_get(rec, sections[k])))
			tot.present[k]++;
	if (json_is_object(scan))
		tot.ok[0]++;
	if (json_is_string(json_object_get(slice, "code")))
		tot.ok[1]++;
	if (json_is_string(json_object_get(json_object_get(wrap, "harness"),
	    "code")))
		tot.ok[2]++;
	v = json_object_get(build, "harness");
	built = json_is_true(json_object_get(json_object_get(build,
	    "reference"), "ok")) && (!json_is_object(v) ||
	    json_is_true(json_object_get(v, "ok")));
	if (built)
		tot.ok[3]++;
	/* kverify's own verdict; a record from a kverify that gave none:
	 * what it can still see (a degenerate case is expected where a
	 * case is built to give one, so some case must not be) */
	v = json_object_get(verify, "degenerate");
	if (json_is_object(json_object_get(verify, "verified"))) {
		json_t *ver = json_object_get(verify, "verified");
		if (json_is_true(json_object_get(ver, "value")))
			tot.ok[4]++;
		else if (k_get_str(ver, "reason") != NULL)
			add_class(in, "unverified:%s", k_get_str(ver,
			    "reason"));
	} else if (json_array_size(json_object_get(verify, "golden")) > 0 &&
	    !json_is_false(json_object_get(verify, "deterministic")) &&
	    !oracle_disagrees(verify) &&
	    degenerate_cases(v) < json_array_size(json_object_get(verify,
	    "golden")))
		tot.ok[4]++;

	/* errors, by stage and code */
	errs = json_object_get(rec, "errors");
	for (i = 0; i < json_array_size(errs); i++) {
		json_t *e = json_array_get(errs, i);
		const char *st = k_get_str(e, "stage"), *co = k_get_str(e,
		    "code");
		char ek[512];
		struct agg *a;
		snprintf(ek, sizeof(ek), "%s\t%s", st ? st : "?",
		    co ? co : "?");
		add_class(in, "error:%s/%s", st ? st : "?", co ? co : "?");
		a = agg_get(&t_err, ek);
		if (a->example == NULL) {
			a->example = xstrdup(in->id);
			a->message = xstrdup(k_get_str(e, "message"));
		}
		/* a record with the same error twice is one record */
		{
			size_t j, dup = 0;
			for (j = 0; j < i; j++) {
				json_t *f = json_array_get(errs, j);
				const char *s2 = k_get_str(f, "stage");
				const char *c2 = k_get_str(f, "code");
				if (strcmp(s2 ? s2 : "?", st ? st : "?") == 0 &&
				    strcmp(c2 ? c2 : "?", co ? co : "?") == 0)
					dup = 1;
			}
			if (!dup)
				a->records++;
		}
	}

	/* compiles */
	note_unit(in, build, "reference");
	note_unit(in, build, "candidate");
	note_unit(in, build, "harness");

	/* runs */
	if (json_is_object(verify)) {
		json_t *f = json_object_get(verify, "fault");
		json_t *dg = json_object_get(verify, "degenerate");
		json_t *rs = json_object_get(json_object_get(verify,
		    "candidate"), "reasons");
		if (k_get_str(verify, "skipped") != NULL)
			add_class(in, "skipped");
		if (json_is_object(f)) {
			const char *fk = k_get_str(f, "kind");
			const char *fr = k_get_str(f, "role");
			if (fk != NULL && strcmp(fk, "timeout") == 0)
				add_class(in, "timeout:%s", fr ? fr : "?");
			else
				add_class(in, "fault:%s:%s", fr ? fr : "?",
				    fk ? fk : "?");
		}
		if (json_is_false(json_object_get(verify, "deterministic")))
			add_class(in, "nondeterministic");
		key = k_get_str(json_object_get(verify, "oracle"), "status");
		if (key != NULL && strcmp(key, "agree") != 0)
			add_class(in, "oracle:%s", key);
		for (i = 0; i < json_array_size(dg); i++) {
			const char *r = k_get_str(json_array_get(dg, i),
			    "reason");
			char buf[64];
			if (r == NULL)
				continue;
			snprintf(buf, sizeof(buf), "%s", r);
			buf[strcspn(buf, ":")] = '\0';
			add_class(in, "degenerate:%s", buf);
		}
		for (i = 0; i < json_array_size(rs); i++) {
			const char *r = json_string_value(json_array_get(rs,
			    i));
			if (r == NULL || strcmp(r, "fault") == 0 ||
			    strcmp(r, "not-built") == 0)
				continue;
			add_class(in, "mismatch:%s",
			    strcmp(r, "mismatch") == 0 ? "values" : r);
		}
		if (json_is_true(json_object_get(json_object_get(verify,
		    "timing"), "suspicious")))
			add_class(in, "suspicious");
	}

	/* candidate verdicts: a stage not reached is -1 unless an earlier
	 * one already failed */
	if (in->cand) {
		json_t *bc = json_object_get(build, "candidate");
		if (json_is_object(bc)) {
			in->call = tri(json_object_get(bc, "pass_call"));
			if (in->call < 0)
				in->call = tri(json_object_get(bc, "ok"));
		} else if (json_is_object(build))
			in->call = 0;
		in->exe = in->call == 0 ? 0 : json_is_object(verify) ?
		    tri(json_object_get(verify, "pass_exe")) : -1;
		in->perf = in->exe == 0 ? 0 : json_is_object(verify) ?
		    tri(json_object_get(verify, "pass_perf")) : -1;
		v = json_object_get(json_object_get(verify, "timing"),
		    "speedup");
		if (in->exe == 1 && json_is_number(v) &&
		    json_number_value(v) > 0) {
			in->has_sp = 1;
			in->sp = json_number_value(v);
		}
		if (in->exe == 1 && in->perf == 0)
			add_class(in, "slow");
		tot.cands++;
		tot.call += in->call == 1;
		tot.exe += in->exe == 1;
		tot.perf += in->perf == 1;
		if (in->has_sp) {
			if (nsp == capsp) {
				capsp = capsp ? capsp * 2 : 64;
				speedups = xrealloc(speedups, capsp *
				    sizeof(*speedups));
			}
			speedups[nsp++] = in->sp;
		}
	}

	/* breakdowns */
	file = k_get_str(scan, "file");
	if (file != NULL)
		in->project = project_of(file, opt.depth);
	else if (!in->bad && strstr(in->id, "::") != NULL) {
		char *s = xstrdup(in->id);
		*strstr(s, "::") = '\0';
		in->project = project_of(s, opt.depth);
		free(s);
	} else
		in->project = xstrdup("(none)");
	dia = k_get_str(slice, "dialect");
	if (dia == NULL)
		dia = k_get_str(scan, "dialect");
	if (dia == NULL)
		dia = k_get_str(json_object_get(wrap, "harness"), "dialect");
	cdia = k_get_str(cand, "dialect");
	if (dia == NULL)
		dia = cdia != NULL ? cdia : "(unknown)";
	if (cdia != NULL && strcmp(cdia, dia) != 0) {
		char buf[128];
		snprintf(buf, sizeof(buf), "%s->%s", dia, cdia);
		in->dialect = xstrdup(buf);
	} else
		in->dialect = xstrdup(dia);

	{
		struct agg *rows[64];
		size_t n = 0, r;
		const char *tk;
		rows[n++] = agg_get(&t_proj, in->project);
		rows[n++] = agg_get(&t_dial, in->dialect);
		tags = json_object_get(slice, "tags");
		if (json_is_object(tags)) {
			size_t before = n;
			json_object_foreach(tags, tk, v) {
				if (json_is_true(v) && n < 64)
					rows[n++] = agg_get(&t_tag, tk);
			}
			if (n == before)
				rows[n++] = agg_get(&t_tag, "(none)");
		}
		for (r = 0; r < n; r++) {
			struct agg *a = rows[r];
			a->records++;
			a->built += built;
			if (!in->cand)
				continue;
			a->cands++;
			a->call += in->call == 1;
			a->exe += in->exe == 1;
			a->perf += in->perf == 1;
			if (in->has_sp) {
				a->sp_n++;
				a->sp_log += log(in->sp);
			}
		}
	}
	if (in->cand) {
		struct agg *a = agg_get(&t_task, in->task);
		a->cands++;
		a->exe += in->exe == 1;
		for (k = 0; k < 4; k++)
			a->fast[k] += in->exe == 1 && (fast_ps[k] == 0 ||
			    (in->has_sp && in->sp > fast_ps[k]));
	}

	for (i = 0; i < json_array_size(in->classes); i++) {
		struct agg *a;
		key = json_string_value(json_array_get(in->classes, i));
		a = agg_get(&t_fail, key);
		a->records++;
		if (a->example == NULL)
			a->example = xstrdup(in->id);
	}
}

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

static json_t *
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
		for (i = 0; i < t_task.n; i++) {
			if (t_task.v[i].cands < ks[k])
				continue;
			sum += pass_at_k(t_task.v[i].cands, t_task.v[i].exe,
			    ks[k]);
			nt++;
		}
		json_array_append_new(arr, json_pack("{sI sI sf}", "k",
		    (json_int_t)ks[k], "tasks", (json_int_t)nt, "value",
		    nt > 0 ? sum / (double)nt : 0.0));
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
		for (i = 0; i < t_task.n; i++)
			sum += (double)t_task.v[i].fast[k] /
			    (double)t_task.v[i].cands;
		json_array_append_new(arr, json_pack("{sf sI sf}", "p",
		    fast_ps[k], "tasks", (json_int_t)tasks, "value",
		    tasks > 0 ? sum / (double)tasks : 0.0));
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
		char *tab = strchr(t_err.v[i].key, '\t');
		*tab = '\0';
		json_array_append_new(arr, json_pack("{ss ss sI ss ss}",
		    "stage", t_err.v[i].key, "code", tab + 1,
		    "records", (json_int_t)t_err.v[i].records,
		    "example", t_err.v[i].example,
		    "message", t_err.v[i].message));
		*tab = '\t';
	}
	json_object_set_new(s, "errors", arr);

	json_object_set_new(s, "breakdown", json_pack("{so so so}",
	    "project", breakdown(&t_proj), "dialect", breakdown(&t_dial),
	    "tag", breakdown(&t_tag)));

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

/* ------------------------------------------------------- number text */

static double
num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static long
inum(json_t *o, const char *key)
{
	return (long)json_integer_value(json_object_get(o, key));
}

static const char *
pct(double x, char *buf, size_t len)
{
	snprintf(buf, len, "%.1f%%", 100 * x);
	return buf;
}

/* "3 (75.0%)", or "-" when there is nothing to divide by. */
static const char *
count_pct(long n, long of, char *buf, size_t len)
{
	if (of > 0)
		snprintf(buf, len, "%ld (%.1f%%)", n, 100.0 * (double)n /
		    (double)of);
	else
		snprintf(buf, len, "-");
	return buf;
}

static const char *
speed(json_t *v, char *buf, size_t len)
{
	if (json_is_number(v))
		snprintf(buf, len, "%.2fx", json_number_value(v));
	else
		snprintf(buf, len, "-");
	return buf;
}

/* ---------------------------------------------------------- markdown */

/* Inline code in a table cell: backticks and pipes would end it. */
static void
md_code(const char *s)
{
	putchar('`');
	for (; *s != '\0'; s++) {
		if (*s == '`')
			putchar('\'');
		else if (*s == '|')
			fputs("\\|", stdout);
		else if (*s == '\n' || *s == '\r')
			putchar(' ');
		else
			putchar(*s);
	}
	putchar('`');
}

static void
md_breakdown(json_t *rows, const char *title)
{
	size_t i;
	json_t *r;
	char b1[64], b2[64], b3[64], b4[64], b5[64];

	if (json_array_size(rows) == 0)
		return;
	printf("\n### By %s\n\n", title);
	printf("| %s | records | built | candidates | pass_call | pass_exe "
	    "| pass_perf | geomean speedup |\n", title);
	printf("|---|--:|--:|--:|--:|--:|--:|--:|\n");
	json_array_foreach(rows, i, r) {
		long c = inum(r, "candidates");
		fputs("| ", stdout);
		md_code(k_get_str(r, "key"));
		printf(" | %ld | %s | %ld | %s | %s | %s | %s |\n",
		    inum(r, "records"), count_pct(inum(r, "built"),
		    inum(r, "records"), b1, sizeof(b1)), c,
		    count_pct(inum(r, "pass_call"), c, b2, sizeof(b2)),
		    count_pct(inum(r, "pass_exe"), c, b3, sizeof(b3)),
		    count_pct(inum(r, "pass_perf"), c, b4, sizeof(b4)),
		    speed(json_object_get(r, "geomean_speedup"), b5,
		    sizeof(b5)));
	}
}

static void
render_md(json_t *s)
{
	json_t *c = json_object_get(s, "candidates"), *r, *sp;
	json_t *arr;
	long records = inum(s, "records"), nc = inum(c, "records");
	size_t i;
	char b1[64], b2[64], b3[64], b4[64];

	printf("# kforge report\n\n");
	printf("%ld records (%ld bad input lines), %ld candidates for %ld "
	    "tasks.\n", records, inum(s, "bad_lines"), nc, inum(c, "tasks"));

	printf("\n## Stages\n\n");
	printf("| stage | records with section | ok | ok of all records |\n");
	printf("|---|--:|--:|--:|\n");
	json_array_foreach(json_object_get(s, "stages"), i, r)
		printf("| %s | %ld | %ld | %s |\n", k_get_str(r, "stage"),
		    inum(r, "records"), inum(r, "ok"), pct(num(r, "rate"), b1,
		    sizeof(b1)));

	if (nc > 0) {
		static const char *const v[] = { "pass_call", "pass_exe",
		    "pass_perf" };
		int k;
		printf("\n## Candidates\n\n");
		printf("| verdict | passed | rate |\n|---|--:|--:|\n");
		for (k = 0; k < 3; k++) {
			r = json_object_get(c, v[k]);
			printf("| %s | %ld of %ld | %s |\n", v[k], inum(r, "n"),
			    nc, pct(num(r, "rate"), b1, sizeof(b1)));
		}
		arr = json_object_get(s, "pass_at_k");
		if (json_array_size(arr) > 0) {
			printf("\n### pass@k\n\n");
			printf("| k | tasks | pass@k |\n|--:|--:|--:|\n");
			json_array_foreach(arr, i, r)
				printf("| %ld | %ld | %.4f |\n", inum(r, "k"),
				    inum(r, "tasks"), num(r, "value"));
		}
		sp = json_object_get(s, "speedup");
		printf("\n### Speedup\n\n");
		printf("%ld correct candidates timed; geometric mean %s, "
		    "median %s, min %s, max %s.\n\n", inum(sp, "n"),
		    speed(json_object_get(sp, "geomean"), b1, sizeof(b1)),
		    speed(json_object_get(sp, "median"), b2, sizeof(b2)),
		    speed(json_object_get(sp, "min"), b3, sizeof(b3)),
		    speed(json_object_get(sp, "max"), b4, sizeof(b4)));
		printf("| p | fast_p |\n|--:|--:|\n");
		json_array_foreach(json_object_get(s, "fast_p"), i, r)
			printf("| %g | %.4f |\n", num(r, "p"), num(r, "value"));
		printf("\n| speedup | candidates |\n|---|--:|\n");
		json_array_foreach(json_object_get(sp, "histogram"), i, r)
			printf("| %s | %ld |\n", k_get_str(r, "bin"),
			    inum(r, "n"));
	}

	arr = json_object_get(s, "failures");
	printf("\n## Failures\n\n");
	if (json_array_size(arr) == 0)
		printf("None.\n");
	else {
		printf("| class | records | first |\n|---|--:|---|\n");
		json_array_foreach(arr, i, r) {
			fputs("| ", stdout);
			md_code(k_get_str(r, "class"));
			printf(" | %ld | ", inum(r, "records"));
			md_code(k_get_str(r, "example"));
			printf(" |\n");
		}
	}
	arr = json_object_get(s, "errors");
	if (json_array_size(arr) > 0) {
		printf("\n### Errors\n\n");
		printf("| stage | code | records | first | message |\n");
		printf("|---|---|--:|---|---|\n");
		json_array_foreach(arr, i, r) {
			printf("| %s | ", k_get_str(r, "stage"));
			md_code(k_get_str(r, "code"));
			printf(" | %ld | ", inum(r, "records"));
			md_code(k_get_str(r, "example"));
			fputs(" | ", stdout);
			md_code(k_get_str(r, "message"));
			printf(" |\n");
		}
	}

	printf("\n## Breakdown\n");
	r = json_object_get(s, "breakdown");
	md_breakdown(json_object_get(r, "project"), "project");
	md_breakdown(json_object_get(r, "dialect"), "dialect");
	md_breakdown(json_object_get(r, "tag"), "tag");

	arr = json_object_get(s, "failed");
	if (json_array_size(arr) > 0) {
		printf("\n## Failed records\n\n");
		json_array_foreach(arr, i, r) {
			json_t *cl;
			size_t j;
			if (i == FAILED_SHOWN) {
				printf("- ... and %zu more\n",
				    json_array_size(arr) - i);
				break;
			}
			fputs("- ", stdout);
			md_code(k_get_str(r, "id"));
			fputs(":", stdout);
			json_array_foreach(json_object_get(r, "classes"), j,
			    cl) {
				fputs(j ? ", " : " ", stdout);
				md_code(json_string_value(cl));
			}
			if (k_get_str(r, "debug") != NULL) {
				fputs(" (", stdout);
				md_code(k_get_str(r, "debug"));
				fputs(")", stdout);
			}
			putchar('\n');
		}
	}
}

/* -------------------------------------------------------------- html */

static void
h(const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", stdout);
			break;
		case '>':
			fputs("&gt;", stdout);
			break;
		case '&':
			fputs("&amp;", stdout);
			break;
		case '"':
			fputs("&quot;", stdout);
			break;
		default:
			putchar(*s);
		}
	}
}

/* A horizontal bar chart: one labelled bar per row, value text at its
 * end; values are fractions of max. */
static void
svg_hbars(const char *title, const char **labels, const double *values,
    const char **texts, size_t n, double max, const char *color)
{
	const int lw = 260, bw = 520, rh = 24, top = 30;
	int height = top + (int)n * rh + 10;
	size_t i;

	printf("<figure><svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">"
	    "\n<title>", lw + bw + 140, height, lw + bw + 140, height);
	h(title);
	printf("</title>\n<text x=\"0\" y=\"18\" class=\"t\">");
	h(title);
	printf("</text>\n");
	for (i = 0; i < n; i++) {
		int y = top + (int)i * rh;
		int w = max > 0 ? (int)(values[i] / max * bw + 0.5) : 0;
		printf("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", lw - 8,
		    y + 16);
		h(labels[i]);
		printf("</text><rect x=\"%d\" y=\"%d\" width=\"%d\" "
		    "height=\"%d\" fill=\"%s\"/><rect x=\"%d\" y=\"%d\" "
		    "width=\"%d\" height=\"%d\" fill=\"none\" "
		    "stroke=\"#ccc\"/><text x=\"%d\" y=\"%d\">", lw, y + 3, w,
		    rh - 6, color, lw, y + 3, bw, rh - 6, lw + bw + 6, y + 16);
		h(texts[i]);
		printf("</text>\n");
	}
	printf("</svg></figure>\n");
}

static void
svg_hist(json_t *hist)
{
	const int bw = 90, ch = 200, top = 30, left = 40;
	size_t i, n = json_array_size(hist);
	long max = 1;
	json_t *r;

	json_array_foreach(hist, i, r)
		if (inum(r, "n") > max)
			max = inum(r, "n");
	printf("<figure><svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">"
	    "\n<title>speedup of correct candidates</title>\n"
	    "<text x=\"0\" y=\"18\" class=\"t\">speedup of correct "
	    "candidates (reference time / candidate time)</text>\n",
	    left + (int)n * bw + 20, top + ch + 50, left + (int)n * bw + 20,
	    top + ch + 50);
	printf("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	    "stroke=\"#444\"/>\n", left, top + ch, left + (int)n * bw,
	    top + ch);
	json_array_foreach(hist, i, r) {
		long v = inum(r, "n");
		int bh = (int)((double)v / (double)max * (ch - 20) + 0.5);
		int x = left + (int)i * bw;
		double lo = num(r, "lo");
		const char *col = lo >= 1.1 ? "#2a9d8f" : lo >= 0.9 ?
		    "#8d99ae" : "#e76f51";
		printf("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		    "fill=\"%s\"/><text x=\"%d\" y=\"%d\" "
		    "text-anchor=\"middle\">%ld</text><text x=\"%d\" y=\"%d\" "
		    "text-anchor=\"middle\">", x + 6, top + ch - bh, bw - 12,
		    bh, col, x + bw / 2, top + ch - bh - 4, v, x + bw / 2,
		    top + ch + 18);
		h(k_get_str(r, "bin"));
		printf("</text>\n");
	}
	printf("</svg></figure>\n");
}

static void
html_breakdown(json_t *rows, const char *title)
{
	size_t i;
	json_t *r;
	char b1[64], b2[64], b3[64], b4[64], b5[64];

	if (json_array_size(rows) == 0)
		return;
	printf("<h3>By %s</h3>\n<table><tr><th>%s</th><th>records</th>"
	    "<th>built</th><th>candidates</th><th>pass_call</th>"
	    "<th>pass_exe</th><th>pass_perf</th><th>geomean speedup</th>"
	    "</tr>\n", title, title);
	json_array_foreach(rows, i, r) {
		long c = inum(r, "candidates");
		printf("<tr><td><code>");
		h(k_get_str(r, "key"));
		printf("</code></td><td>%ld</td><td>%s</td><td>%ld</td>"
		    "<td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
		    inum(r, "records"), count_pct(inum(r, "built"),
		    inum(r, "records"), b1, sizeof(b1)), c,
		    count_pct(inum(r, "pass_call"), c, b2, sizeof(b2)),
		    count_pct(inum(r, "pass_exe"), c, b3, sizeof(b3)),
		    count_pct(inum(r, "pass_perf"), c, b4, sizeof(b4)),
		    speed(json_object_get(r, "geomean_speedup"), b5,
		    sizeof(b5)));
	}
	printf("</table>\n");
}

static void
render_html(json_t *s)
{
	json_t *c = json_object_get(s, "candidates"), *r, *arr, *sp;
	long records = inum(s, "records"), nc = inum(c, "records");
	const char *labels[16], *texts[16];
	char tbuf[16][64], b1[64], b2[64], b3[64], b4[64];
	double values[16];
	size_t i, n = 0;
	static const char *const v[] = { "pass_call", "pass_exe",
	    "pass_perf" };
	int k;

	printf("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>kforge report</title>\n"
	    "<style>\n"
	    "body { font: 14px/1.4 sans-serif; margin: 2em; color: #222; "
	    "background: #fff; max-width: 1100px; }\n"
	    "table { border-collapse: collapse; margin: 0.5em 0 1.5em; }\n"
	    "th, td { border: 1px solid #ccc; padding: 3px 8px; "
	    "text-align: right; }\n"
	    "th:first-child, td:first-child { text-align: left; }\n"
	    "th { background: #f0f0f0; }\n"
	    "figure { margin: 1em 0; }\n"
	    "svg text { font: 12px sans-serif; fill: #222; }\n"
	    "svg text.t { font-weight: bold; font-size: 14px; }\n"
	    ".cards { display: flex; gap: 1em; flex-wrap: wrap; }\n"
	    ".card { border: 1px solid #ccc; border-radius: 6px; "
	    "padding: 0.6em 1.2em; }\n"
	    ".card b { display: block; font-size: 22px; }\n"
	    "</style>\n</head>\n<body>\n<h1>kforge report</h1>\n");
	printf("<div class=\"cards\">\n"
	    "<div class=\"card\"><b>%ld</b>records</div>\n"
	    "<div class=\"card\"><b>%ld</b>bad input lines</div>\n"
	    "<div class=\"card\"><b>%ld</b>candidates</div>\n"
	    "<div class=\"card\"><b>%ld</b>tasks</div>\n",
	    records, inum(s, "bad_lines"), nc, inum(c, "tasks"));
	for (k = 0; k < 3; k++)
		printf("<div class=\"card\"><b>%s</b>%s</div>\n",
		    nc > 0 ? pct(num(json_object_get(c, v[k]), "rate"), b1,
		    sizeof(b1)) : "-", v[k]);
	sp = json_object_get(s, "speedup");
	printf("<div class=\"card\"><b>%s</b>geomean speedup</div>\n"
	    "</div>\n", speed(json_object_get(sp, "geomean"), b1,
	    sizeof(b1)));

	/* pass rates per stage */
	printf("<h2>Stages</h2>\n");
	json_array_foreach(json_object_get(s, "stages"), i, r) {
		labels[n] = k_get_str(r, "stage");
		values[n] = num(r, "rate");
		snprintf(tbuf[n], sizeof(tbuf[n]), "%ld (%.1f%%)",
		    inum(r, "ok"), 100 * values[n]);
		texts[n] = tbuf[n];
		n++;
	}
	if (nc > 0)
		for (k = 0; k < 3; k++) {
			r = json_object_get(c, v[k]);
			labels[n] = v[k];
			values[n] = num(r, "rate");
			snprintf(tbuf[n], sizeof(tbuf[n]), "%ld of %ld "
			    "(%.1f%%)", inum(r, "n"), nc, 100 * values[n]);
			texts[n] = tbuf[n];
			n++;
		}
	svg_hbars("pass rate per stage (stages: of all records; verdicts: "
	    "of candidates)", labels, values, texts, n, 1.0, "#457b9d");
	printf("<table><tr><th>stage</th><th>records with section</th>"
	    "<th>ok</th><th>ok of all records</th></tr>\n");
	json_array_foreach(json_object_get(s, "stages"), i, r)
		printf("<tr><td>%s</td><td>%ld</td><td>%ld</td><td>%s</td>"
		    "</tr>\n", k_get_str(r, "stage"), inum(r, "records"),
		    inum(r, "ok"), pct(num(r, "rate"), b1, sizeof(b1)));
	printf("</table>\n");

	if (nc > 0) {
		printf("<h2>Candidates</h2>\n");
		arr = json_object_get(s, "pass_at_k");
		if (json_array_size(arr) > 0) {
			printf("<table><tr><th>k</th><th>tasks</th>"
			    "<th>pass@k</th></tr>\n");
			json_array_foreach(arr, i, r)
				printf("<tr><td>%ld</td><td>%ld</td>"
				    "<td>%.4f</td></tr>\n", inum(r, "k"),
				    inum(r, "tasks"), num(r, "value"));
			printf("</table>\n");
		}
		svg_hist(json_object_get(sp, "histogram"));
		printf("<p>%ld correct candidates timed; geometric mean %s, "
		    "median %s, min %s, max %s.</p>\n", inum(sp, "n"),
		    speed(json_object_get(sp, "geomean"), b1, sizeof(b1)),
		    speed(json_object_get(sp, "median"), b2, sizeof(b2)),
		    speed(json_object_get(sp, "min"), b3, sizeof(b3)),
		    speed(json_object_get(sp, "max"), b4, sizeof(b4)));
		printf("<table><tr><th>p</th><th>fast_p</th></tr>\n");
		json_array_foreach(json_object_get(s, "fast_p"), i, r)
			printf("<tr><td>%g</td><td>%.4f</td></tr>\n",
			    num(r, "p"), num(r, "value"));
		printf("</table>\n");
	}

	printf("<h2>Failures</h2>\n");
	arr = json_object_get(s, "failures");
	if (json_array_size(arr) == 0)
		printf("<p>None.</p>\n");
	else {
		const char *fl[FAIL_BARS], *ft[FAIL_BARS];
		double fv[FAIL_BARS], max = 1;
		char fb[FAIL_BARS][32];
		size_t m = 0;
		json_array_foreach(arr, i, r) {
			if (m == FAIL_BARS)
				break;
			fl[m] = k_get_str(r, "class");
			fv[m] = (double)inum(r, "records");
			if (fv[m] > max)
				max = fv[m];
			snprintf(fb[m], sizeof(fb[m]), "%ld",
			    inum(r, "records"));
			ft[m] = fb[m];
			m++;
		}
		svg_hbars("failure classes (records)", fl, fv, ft, m, max,
		    "#e76f51");
		printf("<table><tr><th>class</th><th>records</th>"
		    "<th>first</th></tr>\n");
		json_array_foreach(arr, i, r) {
			printf("<tr><td><code>");
			h(k_get_str(r, "class"));
			printf("</code></td><td>%ld</td><td><code>",
			    inum(r, "records"));
			h(k_get_str(r, "example"));
			printf("</code></td></tr>\n");
		}
		printf("</table>\n");
	}
	arr = json_object_get(s, "errors");
	if (json_array_size(arr) > 0) {
		printf("<h3>Errors</h3>\n<table><tr><th>stage</th>"
		    "<th>code</th><th>records</th><th>first</th>"
		    "<th>message</th></tr>\n");
		json_array_foreach(arr, i, r) {
			printf("<tr><td>");
			h(k_get_str(r, "stage"));
			printf("</td><td><code>");
			h(k_get_str(r, "code"));
			printf("</code></td><td>%ld</td><td><code>",
			    inum(r, "records"));
			h(k_get_str(r, "example"));
			printf("</code></td><td style=\"text-align:left\">");
			h(k_get_str(r, "message"));
			printf("</td></tr>\n");
		}
		printf("</table>\n");
	}

	printf("<h2>Breakdown</h2>\n");
	r = json_object_get(s, "breakdown");
	html_breakdown(json_object_get(r, "project"), "project");
	html_breakdown(json_object_get(r, "dialect"), "dialect");
	html_breakdown(json_object_get(r, "tag"), "tag");

	arr = json_object_get(s, "failed");
	if (json_array_size(arr) > 0) {
		printf("<h2>Failed records</h2>\n<ul>\n");
		json_array_foreach(arr, i, r) {
			json_t *cl;
			size_t j;
			if (i == FAILED_SHOWN) {
				printf("<li>... and %zu more</li>\n",
				    json_array_size(arr) - i);
				break;
			}
			printf("<li><code>");
			h(k_get_str(r, "id"));
			printf("</code>:");
			json_array_foreach(json_object_get(r, "classes"), j,
			    cl) {
				printf("%s<code>", j ? ", " : " ");
				h(json_string_value(cl));
				printf("</code>");
			}
			if (k_get_str(r, "debug") != NULL) {
				printf(" (<code>");
				h(k_get_str(r, "debug"));
				printf("</code>)");
			}
			printf("</li>\n");
		}
		printf("</ul>\n");
	}
	printf("</body>\n</html>\n");
}

/* -------------------------------------------------------- debug dirs */

/*
 * A folder name from an id: safe bytes kept, the rest '_', cut to
 * NAME_MAX_KEPT, and the id's hash appended so that ids that sanitize alike
 * stay apart and a rerun finds the same folder.
 */
static char *
dir_name(const char *id)
{
	char hex[K_SHA256_HEX], buf[NAME_MAX_KEPT + 16];
	size_t i, n = 0;

	k_sha256_hex(id, strlen(id), hex);
	for (i = 0; id[i] != '\0' && n < NAME_MAX_KEPT; i++) {
		unsigned char ch = (unsigned char)id[i];
		int safe = (ch >= 'a' && ch <= 'z') || (ch >= 'A' &&
		    ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
		    ch == '-' || ch == '_';
		if (!safe) {
			if (n > 0 && buf[n - 1] == '_')
				continue;
			ch = '_';
		}
		if (n == 0 && ch == '.')
			ch = '_';
		buf[n++] = (char)ch;
	}
	snprintf(buf + n, sizeof(buf) - n, "-%.8s", hex);
	return xstrdup(buf);
}


static void
put_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *fp;
	int bad;

	if (text == NULL)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fp = fopen(path, "w")) == NULL) {
		k_warn(K_EXIT_IO, path, "cannot write: %s", strerror(errno));
		return;
	}
	bad = fputs(text, fp) < 0;
	if (*text != '\0' && text[strlen(text) - 1] != '\n')
		bad |= putc('\n', fp) == EOF;
	if (fclose(fp) != 0 || bad) {
		k_warn(K_EXIT_IO, path, "write error: %s", strerror(errno));
	}
}

static void
bjson(struct k_buf *b, json_t *v)
{
	char *t = json_dumps(v, JSON_INDENT(2) | JSON_ENCODE_ANY |
	    JSON_REAL_PRECISION(6));

	k_buf_printf(b, "%s\n", t != NULL ? t : "null");
	free(t);
}

static const char *
tri_text(int v)
{
	return v < 0 ? "not reached" : v ? "true" : "false";
}

static void
write_debug(struct info *in)
{
	json_t *rec = in->rec, *wrap = json_object_get(rec, "wrap");
	json_t *build = json_object_get(rec, "build");
	json_t *verify = json_object_get(rec, "verify");
	json_t *cand = json_object_get(rec, "candidate");
	json_t *ins = json_object_get(wrap, "instruction"), *x, *y;
	json_t *hist = json_object_get(cand, "history");
	static const char *const roles[3] = { "reference", "candidate",
	    "harness" };
	char dir[PATH_MAX], name[64];
	struct k_buf b = { 0 };
	size_t i, j;
	char *line;
	int k;

	in->dir = dir_name(in->id);
	snprintf(dir, sizeof(dir), "%s/%s", opt.debug_dir, in->dir);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		k_warn(K_EXIT_IO, dir, "cannot create: %s", strerror(errno));
		return;
	}

	/* the record itself, one line, to feed back into a stage */
	line = json_dumps(rec, JSON_COMPACT | JSON_REAL_PRECISION(17));
	put_file(dir, "record.ndjson", line);
	free(line);

	if (json_is_object(ins)) {
		k_buf_printf(&b, "# %s\n\n## Instruction\n\n%s\n\n## Concise\n\n"
		    "%s\n", in->id, k_get_str(ins, "detailed") ?
		    k_get_str(ins, "detailed") : "", k_get_str(ins,
		    "concise") ? k_get_str(ins, "concise") : "");
		put_file(dir, "instruction.md", k_buf_str(&b));
		b.n = 0;
	}
	put_file(dir, "reference.cu", k_get_str(json_object_get(rec, "slice"),
	    "code"));
	put_file(dir, "candidate.cu", k_get_str(cand, "code"));
	put_file(dir, "harness.cu", k_get_str(json_object_get(wrap,
	    "harness"), "code"));

	if (json_is_object(build)) {
		for (k = 0; k < 3; k++) {
			x = json_object_get(build, roles[k]);
			if (!json_is_object(x))
				continue;
			k_buf_printf(&b, "== %s: %s (%s)\n$ %s\n", roles[k],
			    json_is_true(json_object_get(x, "ok")) ? "ok" :
			    "FAILED", k_get_str(x, "compiler") ?
			    k_get_str(x, "compiler") : "?",
			    k_get_str(x, "command") ? k_get_str(x, "command") :
			    "");
			k_buf_printf(&b, "%s%s\n", k_get_str(x, "log") ?
			    k_get_str(x, "log") : "", json_is_true(
			    json_object_get(x, "log_truncated")) ?
			    "\n[log truncated]" : "");
		}
		put_file(dir, "build.log", k_buf_str(&b));
		b.n = 0;
	}
	if (json_is_object(verify)) {
		bjson(&b, verify);
		put_file(dir, "verify.log", k_buf_str(&b));
		b.n = 0;
	}

	/* what went wrong, in one page */
	k_buf_printf(&b, "id: %s\nclasses:", in->id);
	json_array_foreach(in->classes, i, x)
		k_buf_printf(&b, " %s", json_string_value(x));
	k_buf_printf(&b, "\n");
	if (in->cand) {
		k_buf_printf(&b, "pass_call: %s\npass_exe: %s\npass_perf: %s\n",
		    tri_text(in->call), tri_text(in->exe), tri_text(in->perf));
		if (in->has_sp)
			k_buf_printf(&b, "speedup: %.3f\n", in->sp);
	}
	json_array_foreach(json_object_get(rec, "errors"), i, x)
		k_buf_printf(&b, "error: %s/%s: %s\n", k_get_str(x, "stage") ?
		    k_get_str(x, "stage") : "?", k_get_str(x, "code") ?
		    k_get_str(x, "code") : "?", k_get_str(x, "message") ?
		    k_get_str(x, "message") : "");
	for (k = 0; k < 3; k++) {
		x = json_object_get(build, roles[k]);
		if (!json_is_object(x) || json_is_true(json_object_get(x,
		    "ok")))
			continue;
		json_array_foreach(json_object_get(x, "diagnostics"), i, y)
			if (k_get_str(y, "severity") != NULL &&
			    strcmp(k_get_str(y, "severity"), "error") == 0)
				k_buf_printf(&b, "compile %s: %s:%ld: %s\n",
				    roles[k], k_get_str(y, "file") ?
				    k_get_str(y, "file") : "?",
				    (long)k_get_int(y, "line", 0),
				    k_get_str(y, "message") ?
				    k_get_str(y, "message") : "");
	}
	if (json_is_object(verify)) {
		json_t *vc = json_object_get(verify, "candidate");
		x = json_object_get(verify, "fault");
		if (json_is_object(x))
			k_buf_printf(&b, "fault: %s %s, case %ld, exit %ld, signal "
			    "%ld: %s\n%s\n", k_get_str(x, "role") ?
			    k_get_str(x, "role") : "?", k_get_str(x, "kind") ?
			    k_get_str(x, "kind") : "?",
			    (long)k_get_int(x, "case", -1),
			    (long)k_get_int(x, "exit", -1),
			    (long)k_get_int(x, "signal", 0),
			    k_get_str(x, "message") ? k_get_str(x, "message") :
			    "", k_get_str(x, "tail") ? k_get_str(x, "tail") :
			    "");
		if (json_is_false(json_object_get(verify, "deterministic")))
			k_buf_printf(&b, "golden: the reference is not "
			    "deterministic\n");
		json_array_foreach(json_object_get(verify, "degenerate"), i, x)
			k_buf_printf(&b, "golden: case %ld output %s is degenerate: "
			    "%s\n", (long)k_get_int(x, "case", -1),
			    k_get_str(x, "output") ? k_get_str(x, "output") :
			    "?", k_get_str(x, "reason") ?
			    k_get_str(x, "reason") : "?");
		x = json_object_get(verify, "oracle");
		if (k_get_str(x, "status") != NULL &&
		    strcmp(k_get_str(x, "status"), "agree") != 0)
			k_buf_printf(&b, "golden: the CPU reference %s%s%s\n",
			    strcmp(k_get_str(x, "status"), "error") == 0 ?
			    "failed" : "disagrees with the reference kernel",
			    k_get_str(x, "message") ? ": " : "",
			    k_get_str(x, "message") ? k_get_str(x, "message") :
			    "");
		json_array_foreach(json_object_get(x, "mismatches"), i, y)
			k_buf_printf(&b, "oracle: case %ld output %s: %s, %ld "
			    "elements, first at %ld\n", (long)k_get_int(y,
			    "case", -1), k_get_str(y, "output") ? k_get_str(y,
			    "output") : "?", k_get_str(y, "reason") ?
			    k_get_str(y, "reason") : "?", (long)k_get_int(y,
			    "mismatches", 0), (long)k_get_int(y, "first", -1));
		if (json_array_size(json_object_get(vc, "reasons")) > 0) {
			k_buf_printf(&b, "reasons:");
			json_array_foreach(json_object_get(vc, "reasons"), i,
			    x)
				k_buf_printf(&b, " %s", json_string_value(x) ?
				    json_string_value(x) : "?");
			k_buf_printf(&b, "\n");
		}
		json_array_foreach(json_object_get(vc, "cases"), i, x) {
			json_t *o;
			if (json_is_true(json_object_get(x, "pass")))
				continue;
			k_buf_printf(&b, "case %ld: FAIL\n",
			    (long)k_get_int(x, "case", -1));
			json_array_foreach(json_object_get(x, "outputs"), j,
			    o) {
				json_t *ae = json_object_get(o, "max_abs_err");
				json_t *re = json_object_get(o, "max_rel_err");
				if (json_is_true(json_object_get(o, "match")))
					continue;
				k_buf_printf(&b, "  %s: %ld mismatches, %ld NaN "
				    "mismatches, first at %ld, max abs err "
				    "%g, max rel err %g%s%s\n",
				    k_get_str(o, "name") ? k_get_str(o, "name") :
				    "?", (long)k_get_int(o, "mismatches", 0),
				    (long)k_get_int(o, "nan_mismatches", 0),
				    (long)k_get_int(o, "first_mismatch", -1),
				    json_is_number(ae) ? json_number_value(ae) :
				    NAN, json_is_number(re) ?
				    json_number_value(re) : NAN,
				    k_get_str(o, "note") ? "; " : "",
				    k_get_str(o, "note") ? k_get_str(o, "note") :
				    "");
			}
		}
	}
	put_file(dir, "mismatch.txt", k_buf_str(&b));
	b.n = 0;

	/* kwrap's repair rounds, when it made several */
	json_array_foreach(hist, i, x) {
		json_int_t rn = k_get_int(x, "round", (json_int_t)i + 1);
		y = json_object_get(x, "error");
		snprintf(name, sizeof(name), "round-%lld.error", (long long)rn);
		if (json_is_string(y))
			put_file(dir, name, json_string_value(y));
		else if (y != NULL && !json_is_null(y)) {
			bjson(&b, y);
			put_file(dir, name, k_buf_str(&b));
			b.n = 0;
		}
		snprintf(name, sizeof(name), "round-%lld.strategy",
		    (long long)rn);
		put_file(dir, name, k_get_str(x, "strategy"));
		snprintf(name, sizeof(name), "round-%lld.code", (long long)rn);
		put_file(dir, name, k_get_str(x, "code"));
	}

	k_buf_printf(&b, "# %s\n\nFailed: ", in->id);
	json_array_foreach(in->classes, i, x)
		k_buf_printf(&b, "%s%s", i ? ", " : "", json_string_value(x));
	k_buf_printf(&b, "\n\nWhat went wrong is in mismatch.txt; the compiler's "
	    "output in build.log,\nthe verifier's findings in verify.log.\n\n"
	    "Compare the reference with the candidate:\n\n"
	    "    diff -u reference.cu candidate.cu\n\n"
	    "Rebuild and rerun this record alone (record.ndjson is the "
	    "input line):\n\n"
	    "    kbuild < record.ndjson > built.ndjson\n"
	    "    kverify < built.ndjson > verified.ndjson\n"
	    "    kreport < verified.ndjson\n\n"
	    "After editing candidate.cu, put it back into the record:\n\n"
	    "    jq -c --rawfile c candidate.cu '.candidate.code = $c' "
	    "record.ndjson |\n"
	    "        kbuild | kverify | kreport\n");
	for (k = 0; k < 3; k++) {
		x = json_object_get(build, roles[k]);
		if (!json_is_object(x) || k_get_str(x, "command") == NULL)
			continue;
		if (k == 0)
			k_buf_printf(&b, "\nThe compiler commands kbuild ran, in its "
			    "cache entry $KFORGE_WORK/build/XX/HASH/:\n\n");
		k_buf_printf(&b, "    # %s\n    %s\n", roles[k],
		    k_get_str(x, "command"));
	}
	if (json_array_size(hist) > 0)
		k_buf_printf(&b, "\nThe repair rounds are round-N.error, "
		    "round-N.strategy and round-N.code:\n\n"
		    "    diff -u round-1.code candidate.cu\n");
	put_file(dir, "README", k_buf_str(&b));
	free(b.s);
}

/* ------------------------------------------------------------ export */

static json_t *
verdict(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *
copy_or_null(json_t *v)
{
	return v != NULL ? json_deep_copy(v) : json_null();
}

/* A file name for the TritonBench row: the kernel's name, safe bytes. */
static json_t *
filename_of(struct info *in)
{
	json_t *scan = json_object_get(in->rec, "scan");
	const char *name = k_get_str(scan, "name"), *dia;
	char *d = dir_name(name != NULL ? name : in->id), *dash;
	json_t *r;

	/* the hash keeps folder names apart; here the id does */
	if ((dash = strrchr(d, '-')) != NULL)
		*dash = '\0';
	dia = k_get_str(json_object_get(in->rec, "candidate"), "dialect");
	if (dia == NULL)
		dia = k_get_str(scan, "dialect");
	r = json_sprintf("%s.%s", d, dia != NULL && strcmp(dia, "hip") ==
	    0 ? "hip" : "cu");
	free(d);
	return r;
}

static void
export_row(struct info *in)
{
	json_t *rec = in->rec, *slice = json_object_get(rec, "slice");
	json_t *wrap = json_object_get(rec, "wrap");
	json_t *ins = json_object_get(wrap, "instruction");
	json_t *cand = json_object_get(rec, "candidate");
	json_t *verify = json_object_get(rec, "verify"), *row;
	json_t *harness = json_object_get(wrap, "harness");

	if (!json_is_string(json_object_get(slice, "code")))
		return;
	row = json_object();
	if (opt.export == X_TRITON) {
		json_object_set_new(row, "instruction", copy_or_null(
		    json_object_get(ins, "detailed")));
		json_object_set_new(row, "label", copy_or_null(
		    json_object_get(slice, "code")));
		json_object_set_new(row, "predict", copy_or_null(
		    json_object_get(cand, "code")));
		json_object_set_new(row, "test_code", copy_or_null(
		    json_object_get(harness, "code")));
		json_object_set_new(row, "filename", filename_of(in));
		json_object_set_new(row, "pass_call", verdict(in->call));
		json_object_set_new(row, "pass_exe", verdict(in->exe));
		json_object_set_new(row, "pass_perf", verdict(in->perf));
		json_object_set_new(row, "id", json_string(in->id));
	} else {
		json_t *v = json_object();
		json_object_set_new(row, "id", json_string(in->id));
		json_object_set_new(row, "task", json_string(in->task));
		json_object_set_new(row, "project", json_string(in->project));
		json_object_set_new(row, "dialect", json_string(in->dialect));
		json_object_set_new(row, "kernel", copy_or_null(
		    json_object_get(slice, "symbol")));
		json_object_set_new(row, "instruction", copy_or_null(ins));
		json_object_set_new(row, "code", json_deep_copy(
		    json_object_get(slice, "code")));
		json_object_set_new(row, "tags", copy_or_null(
		    json_object_get(slice, "tags")));
		json_object_set_new(row, "spec", copy_or_null(
		    json_object_get(wrap, "spec")));
		json_object_set_new(row, "harness", copy_or_null(harness));
		if (json_is_object(cand))
			json_object_set_new(row, "candidate", json_pack(
			    "{so so}", "code", copy_or_null(
			    json_object_get(cand, "code")), "dialect",
			    copy_or_null(json_object_get(cand, "dialect"))));
		else
			json_object_set_new(row, "candidate", json_null());
		json_object_set_new(v, "built", json_is_object(
		    json_object_get(rec, "build")) ? json_boolean(json_is_true(
		    json_object_get(json_object_get(json_object_get(rec,
		    "build"), "reference"), "ok"))) : json_null());
		json_object_set_new(v, "deterministic", copy_or_null(
		    json_object_get(verify, "deterministic")));
		json_object_set_new(v, "degenerate", json_is_object(verify) ?
		    json_boolean(json_array_size(json_object_get(verify,
		    "degenerate")) > 0) : json_null());
		json_object_set_new(v, "pass_call", verdict(in->call));
		json_object_set_new(v, "pass_exe", verdict(in->exe));
		json_object_set_new(v, "pass_perf", verdict(in->perf));
		json_object_set_new(v, "speedup", in->has_sp ?
		    json_real(in->sp) : json_null());
		json_object_set_new(row, "verdicts", v);
		json_object_set_new(row, "failures", json_deep_copy(
		    in->classes));
	}
	k_write(row);
	json_decref(row);
}

/* -------------------------------------------------------------- main */

static void
usage(void)
{
	fputs(usage_line, stderr);
	exit(K_EXIT_USAGE);
}

static void
read_all(FILE *fp, const char *name)
{
	struct k_reader r;
	json_t *rec;
	int bad;

	k_reader_init(&r, fp, name, STAGE);
	while (k_read(&r, &rec, &bad) == 1) {
		if (nrecs == caprecs) {
			caprecs = caprecs ? caprecs * 2 : 256;
			recs = xrealloc(recs, caprecs * sizeof(*recs));
		}
		memset(&recs[nrecs], 0, sizeof(recs[nrecs]));
		recs[nrecs].rec = rec;
		recs[nrecs].bad = bad;
		digest(&recs[nrecs]);
		nrecs++;
	}
	k_reader_free(&r);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "debug-dir", required_argument, NULL, 'd' },
		{ "export", required_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "project-depth", required_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	json_t *s;
	char *end;
	long v;
	size_t i;
	int ch;

	k_msg_init(argv[0]);
	opt.depth = 1;
	while ((ch = getopt_long(argc, argv, "hqV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			if (*optarg == '\0')
				k_fatal(K_EXIT_USAGE, NULL,
				    "--debug-dir: empty path");
			opt.debug_dir = optarg;
			break;
		case 'e':
			if (strcmp(optarg, "kforge") == 0)
				opt.export = X_KFORGE;
			else if (strcmp(optarg, "tritonbench") == 0)
				opt.export = X_TRITON;
			else
				k_fatal(K_EXIT_USAGE, NULL, "--export: expected "
				    "kforge or tritonbench: %s", optarg);
			break;
		case 'f':
			if (strcmp(optarg, "md") == 0)
				opt.format = F_MD;
			else if (strcmp(optarg, "html") == 0)
				opt.format = F_HTML;
			else if (strcmp(optarg, "json") == 0)
				opt.format = F_JSON;
			else
				k_fatal(K_EXIT_USAGE, NULL, "--format: expected "
				    "md, html or json: %s", optarg);
			break;
		case 'p':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || v < 1 || v > 64)
				k_fatal(K_EXIT_USAGE, NULL, "--project-depth: "
				    "not a number from 1 to 64: %s", optarg);
			opt.depth = (int)v;
			break;
		case 'q':
			k_msg_quiet(1);
			break;
		case 'V':
			puts("kreport (kforge) 0.1");
			return k_finish();
		case 'h':
			fputs(usage_line, stdout);
			return k_finish();
		default:
			usage();
		}
	}
	if (opt.debug_dir != NULL && mkdir(opt.debug_dir, 0755) != 0 &&
	    errno != EEXIST)
		k_fatal(K_EXIT_IO, opt.debug_dir, "cannot create: %s",
		    strerror(errno));

	if (optind == argc)
		read_all(stdin, "<stdin>");
	for (; optind < argc; optind++) {
		FILE *fp;
		if (strcmp(argv[optind], "-") == 0) {
			read_all(stdin, "<stdin>");
			continue;
		}
		if ((fp = fopen(argv[optind], "r")) == NULL) {
			k_warn(K_EXIT_IO, argv[optind], "cannot open: %s",
			    strerror(errno));
			continue;
		}
		read_all(fp, argv[optind]);
		fclose(fp);
	}

	if (opt.debug_dir != NULL)
		for (i = 0; i < nrecs; i++)
			if (json_array_size(recs[i].classes) > 0)
				write_debug(&recs[i]);
	if (opt.export != X_NONE) {
		for (i = 0; i < nrecs; i++)
			export_row(&recs[i]);
	} else {
		s = summary();
		if (opt.format == F_JSON) {
			if (json_dumpf(s, stdout, JSON_INDENT(2) |
			    JSON_REAL_PRECISION(6)) == 0)
				putchar('\n');
		} else if (opt.format == F_HTML)
			render_html(s);
		else
			render_md(s);
		json_decref(s);
	}

	for (i = 0; i < nrecs; i++) {
		json_decref(recs[i].rec);
		json_decref(recs[i].classes);
		free(recs[i].task);
		free(recs[i].project);
		free(recs[i].dialect);
		free(recs[i].dir);
	}
	free(recs);
	free(speedups);
	table_free(&t_fail);
	table_free(&t_err);
	table_free(&t_proj);
	table_free(&t_dial);
	table_free(&t_tag);
	table_free(&t_task);
	return k_finish();
}
