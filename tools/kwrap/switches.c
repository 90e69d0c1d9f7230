/*
 * Cases that reach the kernel's branches (man kwrap, "Switch cases").
 * The default cases hold every scalar at one value, so a scalar that
 * selects a mode ("if (mode == 2)", "switch (pool)", "if (aligned)")
 * runs one branch only, and a mutant in the others survives.  Here each
 * integer or bool scalar that the slice compares with a constant (==,
 * !=, an order, a case label) or tests for truth, in the kernel or in a
 * helper that takes it under the same name, gets one case per value seen
 * that no case of plain data gives it yet, cloned from the first case
 * (the zeros case's false runs a branch on all-zero data only).  Likewise an
 * input buffer that a guard compares element-wise with a constant
 * ("if (x[i] > 0.5f)") gets a case whose fill straddles that constant,
 * so that both sides of the guarded store happen; a whole constant is
 * drawn exactly too (an integer fill), as is a constant an integer
 * scalar is ordered against ("if (k < 3)" gets k = 3): where "<" and
 * "<=" part.  A float scalar compared with a constant ("if (max_norm >
 * 0.0f)") takes that constant too, with plain data: the zeros case
 * gives it 0 only beside all-zero inputs.
 */
#include "kwrap.h"
#include "mtok.h"

#define MAX_VALUES 16		/* per scalar */

struct seen {
	const char *name;	/* borrowed from the spec */
	int is_ptr;		/* a float input buffer */
	int is_real;		/* a float scalar: comparisons only */
	double v[MAX_VALUES];
	int n;
};

static void
note(struct seen *s, double v)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->v[i] == v)
			return;
	if (s->n < MAX_VALUES)
		s->v[s->n++] = v;
}

/* The number at token i ("-" NUM or NUM), in *v; its last token in *e. */
static int
number_at(const char *c, const struct mtoks *t, size_t i, double *v,
    size_t *e)
{
	int neg = 0;
	char buf[64];
	char *end;

	if (mt_is(c, t, i, "-")) {
		neg = 1;
		i++;
	}
	if (i >= t->n || t->v[i].kind != M_NUM || t->v[i].len >= sizeof(buf))
		return 0;
	memcpy(buf, c + t->v[i].off, t->v[i].len);
	buf[t->v[i].len] = '\0';
	buf[strcspn(buf, "uUlLfF")] = '\0';
	if (strncmp(buf, "0x", 2) == 0 || strncmp(buf, "0X", 2) == 0)
		*v = (double)strtoll(buf, &end, 16);
	else
		*v = strtod(buf, &end);
	if (*end != '\0')
		return 0;
	if (neg)
		*v = -*v;
	*e = i;
	return 1;
}

/* What the body [a, b) does with scalar or buffer s. */
static void
scan_uses(const char *c, const struct mtoks *t, size_t a, size_t b,
    struct seen *s)
{
	size_t i, e, sw_end = 0, al[8], nal = 0, q;
	double v;

	/* locals loaded straight from the buffer ("float v = x[i];"): a
	 * guard on them is a guard on its data */
	for (i = a + 1; s->is_ptr && i + 2 < b && nal < 8; i++)
		if (mt_is(c, t, i, "=") && t->v[i - 1].kind == M_ID &&
		    mt_is(c, t, i + 1, s->name) && mt_is(c, t, i + 2, "[") &&
		    mt_is(c, t, mt_close(c, t, i + 2) + 1, ";"))
			al[nal++] = i - 1;
	for (i = a; i < b; i++) {
		for (q = 0; q < nal; q++)
			if (t->v[i].len == t->v[al[q]].len && strncmp(c +
			    t->v[i].off, c + t->v[al[q]].off, t->v[i].len) ==
			    0 && i != al[q] && mt_is_cmp(c, t, i + 1) &&
			    number_at(c, t, i + 2, &v, &e))
				note(s, v);
		if (mt_is(c, t, i, "switch") && mt_is(c, t, i + 1, "(") &&
		    mt_is(c, t, i + 2, s->name) && mt_is(c, t, i + 3, ")") &&
		    !s->is_ptr && mt_is(c, t, i + 4, "{"))
			sw_end = mt_close(c, t, i + 4);
		if (i < sw_end && mt_is(c, t, i, "case") &&
		    number_at(c, t, i + 1, &v, &e) && mt_is(c, t, e + 1, ":"))
			note(s, v);
		if (!mt_is(c, t, i, s->name) || (i > a && (mt_is(c, t, i - 1,
		    ".") || mt_is(c, t, i - 1, "->"))))
			continue;
		if (s->is_ptr) {
			/* x[...] OP C */
			if (!mt_is(c, t, i + 1, "["))
				continue;
			e = mt_close(c, t, i + 1);
			if (mt_is_cmp(c, t, e + 1) && number_at(c, t, e + 2, &v,
			    &e))
				note(s, v);
			continue;
		}
		/* p == C, p != C, C == p; p < C and the other orders: C is
		 * where "<" and "<=" part, so a case on it tells them
		 * apart (the other cases put p on either side) */
		if (mt_is_cmp(c, t, i + 1) && number_at(c, t, i + 2, &v, &e))
			note(s, v);
		else if (i >= a + 2 && mt_is_cmp(c, t, i - 1) &&
		    t->v[i - 2].kind == M_NUM &&
		    number_at(c, t, i - 2, &v, &e))
			note(s, v);
		/* a truth value standing alone: if (p), !p, (p && q),
		 * p ? a : b; not "i < n && ..." */
		else if (!s->is_real && i > a && (mt_is(c, t, i - 1, "!") ||
		    ((mt_is(c, t, i - 1, "(") || mt_is(c, t, i - 1, "&&") ||
		    mt_is(c, t, i - 1, "||")) && (mt_is(c, t, i + 1, "&&") ||
		    mt_is(c, t, i + 1, "||") || mt_is(c, t, i + 1, "?") ||
		    (mt_is(c, t, i + 1, ")") && (!mt_is(c, t, i - 1, "(") ||
		    (i >= a + 2 && (mt_is(c, t, i - 2, "if") ||
		    mt_is(c, t, i - 2, "while"))))))))) {
			note(s, 0);
			note(s, 1);
		}
	}
}

/* Whether the spec sizes something with name: a count or the grid.  A
 * size held at a switch's value would be an empty task, not a branch. */
static int
sizes(json_t *spec, const char *name)
{
	json_t *p, *g;
	size_t i, l = strlen(name);
	const char *x;

	json_array_foreach(json_object_get(spec, "params"), i, p) {
		for (x = k_get_str(p, "count"); x != NULL &&
		    (x = strstr(x, name)) != NULL; x += l)
			if (!isalnum((unsigned char)x[l]) && x[l] != '_')
				return 1;
	}
	json_array_foreach(json_object_get(json_object_get(spec, "launch"),
	    "grid"), i, g) {
		for (x = json_string_value(g); x != NULL &&
		    (x = strstr(x, name)) != NULL; x += l)
			if (!isalnum((unsigned char)x[l]) && x[l] != '_')
				return 1;
	}
	return 0;
}

/* Whether case cs already gives scalar name the value v. */
static int
has_value(json_t *cs, const char *name, double v)
{
	json_t *x = json_object_get(json_object_get(cs, "scalars"), name);

	if (json_is_boolean(x))
		return (json_is_true(x) ? 1 : 0) == v;
	return json_is_number(x) && json_number_value(x) == v;
}

int
kw_case_start(const char *code, const char *kernel, json_t *cases,
    int budget, struct mtoks *t, size_t *a, size_t *b, json_t **base,
    json_int_t *seed)
{
	json_t *q;
	size_t i;

	if (budget <= 0 || code == NULL || kernel == NULL ||
	    !json_is_array(cases) || json_array_size(cases) == 0)
		return 0;
	mt_lex(code, t);
	if (!mt_body(code, t, kernel, a, b)) {
		free(t->v);
		t->v = NULL;
		return 0;
	}
	*base = json_array_get(cases, 0);
	*seed = 0;
	json_array_foreach(cases, i, q)
		if (k_get_int(q, "seed", 0) >= *seed)
			*seed = k_get_int(q, "seed", 0) + 1;
	return 1;
}

void
kw_switch_cases(const char *code, const char *kernel, json_t *spec,
    int budget)
{
	json_t *cases = json_object_get(spec, "cases");
	json_t *params = json_object_get(spec, "params"), *p, *base;
	struct mtoks t = { 0 };
	size_t a, b, i, k;
	json_int_t seed = 0;
	int added = 0, j;

	if (!kw_case_start(code, kernel, cases, budget, &t, &a, &b, &base,
	    &seed))
		return;
	json_array_foreach(params, i, p) {
		const char *role = k_get_str(p, "role");
		const struct k_dtype *d = k_dtype_named(k_get_str(p, "dtype"));
		struct seen s;
		memset(&s, 0, sizeof(s));
		s.name = k_get_str(p, "name");
		if (s.name == NULL || role == NULL || d == NULL)
			continue;
		/* float data only: an integer input may be indices,
		 * whose fill keeps them in bounds */
		s.is_ptr = strcmp(role, "in") == 0 && d->is_float;
		s.is_real = !s.is_ptr && d->is_float;
		if (!s.is_ptr && (strcmp(role, "scalar") != 0 ||
		    sizes(spec, s.name)))
			continue;
		/* a scalar is looked for in the whole slice: the helpers
		 * the kernel passes it to take it under its own name
		 * ("if (mode_flag == 0)" in an iou helper) */
		if (s.is_ptr)
			scan_uses(code, &t, a, b, &s);
		else
			scan_uses(code, &t, 0, t.n, &s);
		for (j = 0; j < s.n && added < budget; j++) {
			json_t *nc, *sc;
			char name[160], val[40];
			int covered = 0;
			/* a value only a case of special data gives (zeros,
			 * negatives, large magnitudes) runs its branch on
			 * data that hides what the branch computes */
			if (!s.is_ptr)
				json_array_foreach(cases, k, nc)
					covered |= json_object_size(
					    json_object_get(nc, "fills")) == 0 &&
					    has_value(nc, s.name, s.v[j]);
			if (covered || (!s.is_ptr && json_object_get(
			    json_object_get(base, "scalars"), s.name) == NULL))
				continue;
			snprintf(val, sizeof(val), "%g", s.v[j]);
			val[strspn(val, "0123456789.-e+")] = '\0';
			for (k = 0; val[k] != '\0'; k++)
				if (val[k] == '-' || val[k] == '.' ||
				    val[k] == '+')
					val[k] = val[k] == '-' ? 'm' : '_';
			snprintf(name, sizeof(name), "%s_%s_%s", s.is_ptr ?
			    "straddle" : "switch", s.name, val);
			nc = json_deep_copy(base);
			json_object_set_new(nc, "name", json_string(name));
			json_object_set_new(nc, "seed", json_integer(seed++));
			if (s.is_ptr) {
				/* both sides of "x[i] OP C" */
				json_t *f = json_object_get(nc, "fills");
				if (!json_is_object(f)) {
					f = json_object();
					json_object_set_new(nc, "fills", f);
				}
				/* a whole C is drawn itself too, as an
				 * integer fill: where "<" and "<=" part */
				json_object_set_new(f, s.name, s.v[j] ==
				    floor(s.v[j]) && fabs(s.v[j]) < 1e9 ?
				    json_pack("{s:s,s:I,s:I}", "kind", "int",
				    "lo", (json_int_t)s.v[j] - 2, "hi",
				    (json_int_t)s.v[j] + 2) : json_pack(
				    "{s:s,s:f,s:f}", "kind", "uniform", "lo",
				    s.v[j] - 2, "hi", s.v[j] + 2));
			} else {
				sc = json_object_get(nc, "scalars");
				json_object_set_new(sc, s.name, s.is_real ?
				    json_real(s.v[j]) : strcmp(d->name,
				    "bool") == 0 ? json_boolean(s.v[j] != 0) :
				    json_integer((json_int_t)s.v[j]));
			}
			json_array_append_new(cases, nc);
			added++;
		}
	}
	free(t.v);
}

/*
 * Cases for a survivor whose line names no parameter ("best[i] = 0;",
 * "if (cnt >= 4) break;"): what it changes shows only under shapes and
 * data the cases never had.  Sizes that every case gives equal values
 * (n and k both 64) hide a "<" between them, and a bound one off is
 * invisible while one size covers the other; so one case gives each
 * size scalar its own value, at most its old one plus one (the k-th:
 * v x (4 - k mod 4) / 4 + k mod 2), and one draws every float input
 * from a normal of deviation 10 instead of [-1, 1].  Added once per
 * run, within budget; returns how many.
 */
static int
unnamed_cases(json_t *spec, json_t *base, json_int_t *seed, int budget)
{
	json_t *p, *nc = json_deep_copy(base), *sc = json_object_get(nc,
	    "scalars"), *f;
	size_t i;
	int k = 0, moved = 0, n = 0;

	json_array_foreach(json_object_get(spec, "params"), i, p) {
		const char *name = k_get_str(p, "name");
		json_t *v = json_object_get(sc, name != NULL ? name : "");
		json_int_t x, y;
		if (!json_is_integer(v) || (!sizes(spec, name) &&
		    (k_get_str(p, "use") == NULL || strcmp(k_get_str(p,
		    "use"), "size") != 0)))
			continue;
		x = json_integer_value(v);
		y = x / 4 * (4 - k % 4) + (x % 4) * (4 - k % 4) / 4 + k % 2;
		if (y < 1)
			y = 1;
		moved += y != x;
		json_object_set_new(sc, name, json_integer(y));
		k++;
	}
	if (moved > 0 && k > 1 && n < budget) {
		json_object_set_new(nc, "name", json_string("survivor_sizes"));
		json_object_set_new(nc, "seed", json_integer((*seed)++));
		json_array_append(json_object_get(spec, "cases"), nc);
		n++;
	}
	json_decref(nc);
	nc = json_deep_copy(base);
	moved = 0;
	json_array_foreach(json_object_get(spec, "params"), i, p) {
		const struct k_dtype *d = k_dtype_named(k_get_str(p, "dtype"));
		const char *name = k_get_str(p, "name");
		if (name == NULL || d == NULL || !d->is_float ||
		    k_get_str(p, "role") == NULL || strcmp(k_get_str(p,
		    "role"), "in") != 0)
			continue;
		if (!json_is_object(f = json_object_get(nc, "fills"))) {
			f = json_object();
			json_object_set_new(nc, "fills", f);
		}
		json_object_set_new(f, name, json_pack("{s:s,s:f,s:f}", "kind",
		    "normal", "mean", 0.0, "stddev", 10.0));
		moved++;
	}
	if (moved > 0 && n < budget) {
		json_object_set_new(nc, "name", json_string("survivor_data"));
		json_object_set_new(nc, "seed", json_integer((*seed)++));
		json_array_append(json_object_get(spec, "cases"), nc);
		n++;
	}
	json_decref(nc);
	return n;
}

/* What the lines of survivors are evaluated under (kw_hit_value): the
 * slice's integer constants, the instance's template values, the first
 * case's integer and bool scalars. */
static void
survivor_consts(json_t *rec, json_t *base, struct consts *k)
{
	json_t *slice = json_object_get(rec, "slice"), *x;
	const char *code = k_get_str(slice, "code"), *key;
	struct toks all = { 0 };
	long long v;

	if (code != NULL) {
		tokenize(code, &all);
		collect_consts(code, &all, k);
		toks_free(&all);
	}
	json_object_foreach(json_object_get(slice, "instance"), key, x)
		if (json_is_string(x) && eval_str(json_string_value(x), k, &v))
			const_set(k, key, v);
	json_object_foreach(json_object_get(base, "scalars"), key, x)
		if (json_is_integer(x))
			const_set(k, key, json_integer_value(x));
		else if (json_is_boolean(x))
			const_set(k, key, json_is_true(x));
}

/*
 * Cases aimed at the mutants that survived the last kverify run
 * (verify.mutation.survivors): each parameter the survivor's line names
 * gets a case that moves it off the values every case gave it, a scalar
 * to one more and to twice plus one (a float one negated), an input
 * buffer to a wider normal fill; a survivor whose line names none gets
 * the cases of unnamed_cases.  A loop of kwrap --survivor-cases,
 * kbuild and kverify adds cases until the survivors die or its budget
 * ends (bench/mutation-gpu.sh -r).
 */
void
kw_survivor_cases(json_t *rec, json_t *spec, int budget)
{
	json_t *surv = json_object_get(json_object_get(json_object_get(rec,
	    "verify"), "mutation"), "survivors"), *s, *p;
	json_t *cases = json_object_get(spec, "cases"), *base;
	struct consts k = { 0 };
	json_int_t seed = 0;
	size_t i, j, c;
	int added = 0, fallback = 0;

	if (budget <= 0 || !json_is_array(cases) ||
	    json_array_size(cases) == 0 || json_array_size(surv) == 0)
		return;
	base = json_array_get(cases, 0);
	json_array_foreach(cases, c, p)
		if (k_get_int(p, "seed", 0) >= seed)
			seed = k_get_int(p, "seed", 0) + 1;
	survivor_consts(rec, base, &k);
	json_array_foreach(surv, i, s) {
		const char *diff = k_get_str(s, "diff"), *id = k_get_str(s,
		    "id"), *plus;
		char line[1024], mline[1024];
		size_t l;
		int before = added;
		if (diff == NULL || id == NULL || (diff = strstr(diff,
		    "\n-")) == NULL)
			continue;
		diff += 2;
		l = strcspn(diff, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)(l < sizeof(line) ?
		    l : sizeof(line) - 1), diff);
		mline[0] = '\0';
		if ((plus = strstr(diff, "\n+")) != NULL) {
			plus += 2;
			l = strcspn(plus, "\n");
			snprintf(mline, sizeof(mline), "%.*s", (int)(l <
			    sizeof(mline) ? l : sizeof(mline) - 1), plus);
		}
		json_array_foreach(json_object_get(spec, "params"), j, p) {
			const char *name = k_get_str(p, "name");
			const char *role = k_get_str(p, "role");
			const struct k_dtype *d = k_dtype_named(k_get_str(p,
			    "dtype"));
			json_t *v = json_object_get(json_object_get(base,
			    "scalars"), name), *nc;
			int step;
			long long hit;
			if (name == NULL || role == NULL || d == NULL ||
			    !kw_names(line, name))
				continue;
			/* a value where the line and the mutant's part */
			if (strcmp(role, "scalar") == 0 && !d->is_float &&
			    json_is_integer(v) && mline[0] != '\0' &&
			    added < budget && kw_hit_value(line, mline, name,
			    &k, json_integer_value(v), k_get_str(p, "use") !=
			    NULL && strcmp(k_get_str(p, "use"), "size") == 0,
			    &hit) && hit != json_integer_value(v) + 1 &&
			    hit != 2 * json_integer_value(v) + 1) {
				char cn[200];
				nc = json_deep_copy(base);
				snprintf(cn, sizeof(cn), "survivor_%s_%s_hit", id,
				    name);
				json_object_set_new(nc, "name", json_string(cn));
				json_object_set_new(nc, "seed",
				    json_integer(seed++));
				json_object_set_new(json_object_get(nc,
				    "scalars"), name, json_integer(hit));
				json_array_append_new(cases, nc);
				added++;
			}
			for (step = 0; step < 2 && added < budget; step++) {
				char cn[200];
				if (strcmp(role, "scalar") == 0 &&
				    !json_is_number(v))
					break;
				if (strcmp(role, "in") == 0 && (!d->is_float ||
				    step > 0))
					break;
				if (strcmp(role, "scalar") != 0 &&
				    strcmp(role, "in") != 0)
					break;
				nc = json_deep_copy(base);
				snprintf(cn, sizeof(cn), "survivor_%s_%s_%d", id,
				    name, step + 1);
				json_object_set_new(nc, "name", json_string(cn));
				json_object_set_new(nc, "seed",
				    json_integer(seed++));
				if (strcmp(role, "in") == 0) {
					json_t *f = json_object_get(nc, "fills");
					if (!json_is_object(f)) {
						f = json_object();
						json_object_set_new(nc, "fills", f);
					}
					json_object_set_new(f, name, json_pack(
					    "{s:s,s:f,s:f}", "kind", "normal",
					    "mean", 0.0, "stddev", 10.0));
				} else if (d->is_float)
					json_object_set_new(json_object_get(nc,
					    "scalars"), name, json_real(step ?
					    0.5 * json_number_value(v) :
					    -json_number_value(v)));
				else
					json_object_set_new(json_object_get(nc,
					    "scalars"), name, json_integer(step ?
					    2 * json_integer_value(v) + 1 :
					    json_integer_value(v) + 1));
				json_array_append_new(cases, nc);
				added++;
			}
		}
		if (added == before && !fallback && added < budget) {
			fallback = 1;
			added += unnamed_cases(spec, base, &seed, budget - added);
		}
	}
	consts_free(&k);
}
