/*
 * Size-guard cases (man kwrap, "Size-guard cases").  A kernel that
 * exits early on an empty problem ("if (m <= 0) return;", "if (n < 1 ||
 * b <= 0) return;") compares a size scalar, one that buffer counts or
 * the grid derive from, with a constant; no default case gives a size
 * that value, so a mutant of the guard ("m <= 0" made "m < 0") runs
 * the same as the reference in every case, and only shows where the
 * size is the constant: with m = 0 the mutant goes on, writes an
 * element of a buffer of 0 elements, and memcheck sees it.
 *
 * Each size scalar compared with a whole constant c >= 0 in a guard at
 * the top of the kernel's body (an "if" whose statement is "return;",
 * its condition one comparison or several joined by "||") gets one
 * case, cloned from the first, with that scalar at c, where all of this
 * holds, so that the case can never fail the reference:
 *
 *  - the statements before the guard are other such guards or
 *    declarations that read and write no memory (no "[", "->", "*" of
 *    a pointer, no call but a cast, no "++", no compound assignment):
 *    nothing runs on the empty size before the guard;
 *  - at c the guard fires (every thread returns at once) and every
 *    output that starts as the sentinel (role out) then has 0 elements,
 *    so that none is left unwritten; or c is 1 or more and the guard
 *    does not fire (a case of a small size, like "smallest");
 *  - the launch evaluates, at c, to a grid and block of at least 1;
 *  - no case already gives the scalar c.
 *
 * At most two, named size_edge and size_edge_2; kverify runs them under
 * memcheck for the mutants (a size of 0 is where a guard's mutant goes
 * out of bounds) and counts an output that is empty in a case as neither
 * degenerate nor evidence (man kverify).
 */
#include "kwrap.h"
#include "mtok.h"

#define MAX_EDGES 2

struct edge {
	const char *name;	/* the size scalar, borrowed from the spec */
	long long v;
};

static int
tk(const char *c, const struct mtoks *t, size_t i, const char *w)
{
	return i < t->n && mt_is(c, t, i, w);
}

/* The size scalar of the spec named by token i, or NULL (borrowed). */
static const char *
size_scalar(const char *c, const struct mtoks *t, size_t i, json_t *spec)
{
	json_t *q;
	size_t k;

	if (i >= t->n || t->v[i].kind != M_ID)
		return NULL;
	json_array_foreach(json_object_get(spec, "params"), k, q) {
		const char *n = k_get_str(q, "name"), *role = k_get_str(q,
		    "role"), *use = k_get_str(q, "use");
		const struct k_dtype *d = k_dtype_named(k_get_str(q, "dtype"));
		if (n != NULL && role != NULL && use != NULL && d != NULL &&
		    strcmp(role, "scalar") == 0 && strcmp(use, "size") == 0 &&
		    !d->is_float && strlen(n) == t->v[i].len &&
		    strncmp(c + t->v[i].off, n, t->v[i].len) == 0)
			return n;
	}
	return NULL;
}

/* A whole number at token i, in *v. */
static int
whole(const char *c, const struct mtoks *t, size_t i, long long *v)
{
	char buf[32], *end;

	if (i >= t->n || t->v[i].kind != M_NUM || t->v[i].len >= sizeof(buf))
		return 0;
	memcpy(buf, c + t->v[i].off, t->v[i].len);
	buf[t->v[i].len] = '\0';
	errno = 0;
	*v = strtoll(buf, &end, 0);
	return errno == 0 && strspn(end, "uUlL") == strlen(end);
}

size_t
kw_stmt_end(const char *c, const struct mtoks *t, size_t i, size_t b)
{
	for (; i < b; i++) {
		if (tk(c, t, i, "(") || tk(c, t, i, "[") || tk(c, t, i, "{")) {
			size_t e = mt_close(c, t, i);
			if (tk(c, t, i, "{") && (e + 1 >= b || !tk(c, t, e + 1,
			    ";")))
				return e;	/* a block */
			i = e;
			continue;
		}
		if (tk(c, t, i, ";"))
			return i;
	}
	return b;
}

/* [s, e] is "if (COND) return;" or "if (COND) { return; }"; the
 * condition's tokens in [*cs, *ce). */
static int
guard(const char *c, const struct mtoks *t, size_t s, size_t e, size_t *cs,
    size_t *ce)
{
	size_t close;

	if (!tk(c, t, s, "if") || !tk(c, t, s + 1, "("))
		return 0;
	close = mt_close(c, t, s + 1);
	if (close >= e)
		return 0;
	*cs = s + 2;
	*ce = close;
	if (close + 2 == e && tk(c, t, close + 1, "return") && tk(c, t, e,
	    ";"))
		return 1;
	return close + 4 == e && tk(c, t, close + 1, "{") && tk(c, t,
	    close + 2, "return") && tk(c, t, close + 3, ";") && tk(c, t, e,
	    "}");
}

/* [s, e] reads and writes no memory and calls nothing: a declaration of
 * locals from scalars, the launch and constants. */
static int
inert(const char *c, const struct mtoks *t, size_t s, size_t e)
{
	static const char *const bad[] = { "[", "->", "++", "--", "+=", "-=",
		"*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "&", "asm",
		"__syncthreads", "return", "if", "for", "while", "do", "switch",
		"goto", "{", NULL };
	size_t i;
	int k;

	for (i = s; i <= e; i++) {
		for (k = 0; bad[k] != NULL; k++)
			if (tk(c, t, i, bad[k]))
				return 0;
		/* a call: a name before "(" (a cast's "(int)" has none) */
		if (tk(c, t, i, "(") && i > s && t->v[i - 1].kind == M_ID)
			return 0;
		/* "*p": a dereference (a product has an operand before) */
		if (tk(c, t, i, "*") && (i == s || (t->v[i - 1].kind ==
		    M_PUNCT && !tk(c, t, i - 1, ")") && !tk(c, t, i - 1, "]"))))
			return 0;
	}
	return 1;
}

/* Each comparison of a size scalar with a whole constant >= 0 among the
 * "||" operands of [cs, ce), into e (n so far); 0 when an operand joins
 * with "&&" or "?": the guard's truth would not follow from one. */
static int
edges_of(const char *c, const struct mtoks *t, size_t cs, size_t ce,
    json_t *spec, struct edge *e, int *n)
{
	size_t i;
	int d = 0;

	for (i = cs; i < ce; i++) {
		const char *p;
		long long v;
		size_t x, y;
		if (tk(c, t, i, "(") || tk(c, t, i, "["))
			d++;
		else if (tk(c, t, i, ")") || tk(c, t, i, "]"))
			d--;
		if (tk(c, t, i, "&&") || tk(c, t, i, "?"))
			return 0;
		if (!mt_is_cmp(c, t, i) || d != 0 || i == cs)
			continue;
		/* P op NUM or NUM op P, alone between || or the ends */
		x = i - 1;
		y = i + 1;
		if ((p = size_scalar(c, t, x, spec)) != NULL && whole(c, t, y,
		    &v)) ;
		else if ((p = size_scalar(c, t, y, spec)) != NULL && whole(c,
		    t, x, &v)) ;
		else
			continue;
		if ((x != cs && !tk(c, t, x - 1, "||")) || (y + 1 != ce &&
		    !tk(c, t, y + 1, "||")) || v < 0 || v > 65536)
			continue;
		if (*n < MAX_EDGES) {
			int k;
			for (k = 0; k < *n && strcmp(e[k].name, p) != 0; k++)
				;
			if (k == *n) {
				e[*n].name = p;
				e[(*n)++].v = v;
			}
		}
	}
	return 1;
}

int
kw_case_value(json_t *x, const struct consts *k, long long *v)
{
	struct toks t = { 0 };
	int ok;

	if (json_is_integer(x)) {
		*v = json_integer_value(x);
		return 1;
	}
	if (!json_is_string(x))
		return 0;
	tokenize(json_string_value(x), &t);
	ok = eval_bound(&t, k, k, v) == 1;
	toks_free(&t);
	return ok;
}

int
kw_case_fits(json_t *spec, const struct consts *k, int fires)
{
	json_t *launch = json_object_get(spec, "launch"), *q;
	const char *dims[] = { "grid", "block" };
	long long v;
	size_t i, d;

	for (d = 0; d < 2; d++) {
		json_t *a = json_object_get(launch, dims[d]);
		if (!json_is_array(a) || json_array_size(a) == 0)
			return 0;
		for (i = 0; i < json_array_size(a); i++)
			if (!kw_case_value(json_array_get(a, i), k, &v) || v < 1)
				return 0;
	}
	if (json_object_get(launch, "shared_mem") != NULL &&
	    (!kw_case_value(json_object_get(launch, "shared_mem"), k, &v) || v < 0))
		return 0;
	json_array_foreach(json_object_get(spec, "params"), i, q) {
		const char *role = k_get_str(q, "role");
		json_t *cnt = json_object_get(q, "count");
		if (role == NULL || strcmp(role, "scalar") == 0)
			continue;
		if (!kw_case_value(cnt, k, &v) || v > KW_CASE_ELEMS)
			return 0;
		if (fires && strcmp(role, "out") == 0 && v > 0)
			return 0;
	}
	return 1;
}

void
kw_case_bind(struct consts *k, const struct consts *slice, json_t *cs)
{
	json_t *x;
	const char *key;
	int i;

	for (i = 0; i < slice->n; i++)
		const_set(k, slice->v[i].name, slice->v[i].val);
	json_object_foreach(json_object_get(cs, "scalars"), key, x)
		if (json_is_integer(x))
			const_set(k, key, json_integer_value(x));
		else if (json_is_boolean(x))
			const_set(k, key, json_is_true(x));
}

/* Whether some case gives scalar name the value v. */
static int
given(json_t *cases, const char *name, long long v)
{
	json_t *cs, *x;
	size_t i;

	json_array_foreach(cases, i, cs) {
		x = json_object_get(json_object_get(cs, "scalars"), name);
		if (json_is_integer(x) && json_integer_value(x) == v)
			return 1;
	}
	return 0;
}

void
kw_size_guard_cases(const char *code, const char *kernel, json_t *spec,
    int budget)
{
	json_t *cases = json_object_get(spec, "cases"), *base;
	struct mtoks t = { 0 };
	struct toks all = { 0 };
	struct consts slice = { 0 };
	struct edge e[MAX_EDGES];
	size_t a, b, s, end, cs, ce;
	json_int_t seed;
	int n = 0, k, added = 0;

	if (!kw_case_start(code, kernel, cases, budget, &t, &a, &b, &base,
	    &seed))
		return;
	/* the guards at the top of the body, while nothing else ran */
	for (s = a; s < b; s = end + 1) {
		end = kw_stmt_end(code, &t, s, b);
		if (end >= b)
			break;
		if (guard(code, &t, s, end, &cs, &ce)) {
			if (!edges_of(code, &t, cs, ce, spec, e, &n))
				break;
			continue;
		}
		if (!inert(code, &t, s, end))
			break;
	}
	if (n == 0) {
		free(t.v);
		return;
	}
	tokenize(code, &all);
	collect_consts(code, &all, &slice);
	for (k = 0; k < n && added < budget; k++) {
		json_t *c1;
		struct consts bound = { 0 };
		long long fires = 0;
		int ok = 1;
		if (given(cases, e[k].name, e[k].v))
			continue;
		c1 = json_deep_copy(base);
		json_object_set_new(c1, "name", json_string(added == 0 ?
		    "size_edge" : "size_edge_2"));
		json_object_set_new(c1, "seed", json_integer(seed++));
		json_object_set_new(json_object_get(c1, "scalars"), e[k].name,
		    json_integer(e[k].v));
		kw_case_bind(&bound, &slice, c1);
		/* the guards again, at the edge: does one fire (one that
		 * reads a local or the thread's index cannot be told) */
		for (s = a; s < b && ok && !fires; s = end + 1) {
			long long f;
			char *txt;
			end = kw_stmt_end(code, &t, s, b);
			if (end >= b)
				break;
			if (!guard(code, &t, s, end, &cs, &ce)) {
				if (!inert(code, &t, s, end))
					break;
				continue;
			}
			txt = k_asprintf("%.*s", (int)(t.v[ce].off -
			    t.v[cs].off), code + t.v[cs].off);
			ok = eval_str(txt, &bound, &f);
			fires = ok && f != 0;
			free(txt);
		}
		if (ok && (fires || e[k].v >= 1) && kw_case_fits(spec, &bound,
		    (int)fires)) {
			json_array_append(cases, c1);
			added++;
		}
		json_decref(c1);
		consts_free(&bound);
	}
	consts_free(&slice);
	toks_free(&all);
	free(t.v);
}
