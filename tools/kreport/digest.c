/*
 * kreport: what one record says (its stages, verdicts, speedup, failure
 * classes, task, project and dialect), counted into the tables the
 * summary is made from.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "k_exit.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_record.h"
#include "kreport.h"

/* ------------------------------------------------------- aggregates */

struct agg *
agg_get(struct table *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->v[i].key, key) == 0)
			return &t->v[i];
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->v = k_reallocarray(t->v, t->cap, sizeof(*t->v));
	}
	memset(&t->v[t->n], 0, sizeof(t->v[t->n]));
	t->v[t->n].key = k_strdup(key);
	return &t->v[t->n++];
}

void
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

int
by_key(const void *a, const void *b)
{
	return strcmp(((const struct agg *)a)->key,
	    ((const struct agg *)b)->key);
}

/* Most records first, then by key: the biggest problem leads. */
int
by_count(const void *a, const void *b)
{
	const struct agg *x = a, *y = b;

	if (x->records != y->records)
		return x->records < y->records ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* ------------------------------------------------------------ records */

struct info *recs;
size_t nrecs;
static size_t caprecs;
struct totals tot;
const char *const sections[5] = {
	"scan", "slice", "wrap", "build", "verify"
};
const double fast_ps[4] = { 0, 1, 1.5, 2 };
struct table t_fail, t_err, t_proj, t_dial, t_tag, t_task;
double *speedups;
size_t nsp;
static size_t capsp;

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
	char *buf;
	size_t i;
	va_list ap;

	/* the class names input-derived text (a stage, a code): no fixed
	 * buffer */
	va_start(ap, fmt);
	if (vasprintf(&buf, fmt, ap) < 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	va_end(ap);
	for (i = 0; i < json_array_size(in->classes); i++)
		if (strcmp(json_string_value(json_array_get(in->classes, i)),
		    buf) == 0) {
			free(buf);
			return;
		}
	json_array_append_new(in->classes, k_string_lossy(buf, strlen(buf)));
	free(buf);
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
		return k_strdup("(none)");
	while (*p == '/')
		p++;
	for (i = 0; i < depth; i++) {
		if ((slash = strchr(p, '/')) == NULL)
			break;
		end = slash;
		p = slash + 1;
	}
	if (end == NULL)
		return k_strdup(".");
	{
		const char *start = path;
		char *s;
		while (*start == '/')
			start++;
		s = k_strdup(start);
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
		return k_strdup(t);
	if (json_is_object(cand) && (hash = strrchr(id, '#')) != NULL &&
	    hash != id) {
		s = k_strdup(id);
		s[hash - id] = '\0';
		return s;
	}
	return k_strdup(id);
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

/* Does rec carry an error from stage? */
static int
stage_erred(json_t *rec, const char *stage)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(rec, "errors"), i, e)
		if (k_get_str(e, "stage") != NULL &&
		    strcmp(k_get_str(e, "stage"), stage) == 0)
			return 1;
	return 0;
}

/* Verdicts and failure classes of one record; counts it everywhere. */
void
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
	/* a stage is ok where its section holds what it makes and the
	 * stage recorded no error (kslice writes a slice that does not
	 * parse, with an error saying so) */
	if (json_is_object(scan) && !stage_erred(rec, "kscan"))
		tot.ok[0]++;
	if (json_is_string(json_object_get(slice, "code")) &&
	    !stage_erred(rec, "kslice"))
		tot.ok[1]++;
	if (json_is_string(json_object_get(json_object_get(wrap, "harness"),
	    "code")) && !stage_erred(rec, "kwrap"))
		tot.ok[2]++;
	v = json_object_get(build, "harness");
	built = json_is_true(json_object_get(json_object_get(build,
	    "reference"), "ok")) && (!json_is_object(v) ||
	    json_is_true(json_object_get(v, "ok")));
	/* built: the reference and the harness (a bad candidate is the
	 * candidate's verdict, pass_call) */
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
		char *ek;
		struct agg *a;
		/* the key is the stage, the code and the stage's length:
		 * either may hold any character, a tab too, and be of any
		 * length (summary.c takes it apart) */
		if (st == NULL)
			st = "?";
		ek = k_asprintf("%s\t%s\t%zu", st, co ? co : "?", strlen(st));
		add_class(in, "error:%s/%s", st, co ? co : "?");
		a = agg_get(&t_err, ek);
		free(ek);
		if (a->example == NULL) {
			a->example = k_strdup(in->id);
			a->message = k_strdup(k_get_str(e, "message") != NULL ?
			    k_get_str(e, "message") : "");
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
		/* a reference that differs between runs only within its
		 * band is a task (the "nondeterministic" tag says why its
		 * bound is looser); one without a band is a failure */
		if (json_is_false(json_object_get(verify, "deterministic"))) {
			json_t *o;
			size_t j;
			in->banded = 1;
			json_array_foreach(json_object_get(json_object_get(
			    verify, "tolerance"), "outputs"), j, o)
				if (k_get_str(o, "unbanded") != NULL)
					in->banded = 0;
			if (json_object_get(verify, "tolerance") == NULL)
				in->banded = 0;
			if (!in->banded)
				add_class(in, "nondeterministic");
		}
		key = k_get_str(json_object_get(verify, "oracle"), "status");
		if (key != NULL && strcmp(key, "agree") != 0)
			add_class(in, "oracle:%s", key);
		for (i = 0; i < json_array_size(dg); i++) {
			const char *r = k_get_str(json_array_get(dg, i),
			    "reason");
			if (r == NULL)
				continue;
			add_class(in, "degenerate:%.*s", (int)strcspn(r, ":"),
			    r);
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
			/* compiled, but not the task's kernel (another name
			 * or signature): a failure of its own */
			else if (in->call == 0 &&
			    json_is_true(json_object_get(bc, "ok")))
				add_class(in, "compile:candidate:wrong-kernel");
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
				speedups = k_reallocarray(speedups, capsp,
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
		char *s = k_strdup(in->id);
		*strstr(s, "::") = '\0';
		in->project = project_of(s, opt.depth);
		free(s);
	} else
		in->project = k_strdup("(none)");
	dia = k_get_str(slice, "dialect");
	if (dia == NULL)
		dia = k_get_str(scan, "dialect");
	if (dia == NULL)
		dia = k_get_str(json_object_get(wrap, "harness"), "dialect");
	cdia = k_get_str(cand, "dialect");
	if (dia == NULL)
		dia = cdia != NULL ? cdia : "(unknown)";
	if (cdia != NULL && strcmp(cdia, dia) != 0) {
		in->dialect = k_asprintf("%s->%s", dia, cdia);
	} else
		in->dialect = k_strdup(dia);

	{
		struct agg *rows[64];
		size_t n = 0, r;
		const char *tk;
		rows[n++] = agg_get(&t_proj, in->project);
		rows[n++] = agg_get(&t_op, op_key(in));
		rows[n++] = agg_get(&t_dial, in->dialect);
		tags = json_object_get(slice, "tags");
		if (json_is_object(tags)) {
			size_t before = n;
			json_object_foreach(tags, tk, v) {
				if (json_is_true(v) && n < 63)
					rows[n++] = agg_get(&t_tag, tk);
			}
			if (n == before)
				rows[n++] = agg_get(&t_tag, "(none)");
		}
		if (in->banded)
			rows[n++] = agg_get(&t_tag, "nondeterministic");
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
		a->judged += in->exe >= 0;
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
			a->example = k_strdup(in->id);
	}
}


void
add_record(json_t *rec, int bad)
{
	if (nrecs == caprecs) {
		caprecs = caprecs ? caprecs * 2 : 256;
		recs = k_reallocarray(recs, caprecs, sizeof(*recs));
	}
	memset(&recs[nrecs], 0, sizeof(recs[nrecs]));
	recs[nrecs].rec = rec;
	recs[nrecs].bad = bad;
	digest(&recs[nrecs]);
	nrecs++;
}

void
records_free(void)
{
	size_t i;

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
	table_free(&t_op);
	table_free(&t_task);
}
