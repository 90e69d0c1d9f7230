/*
 * Cases with non-finite data (man kwrap, "Non-finite cases").  The fills
 * of the other cases are finite, so a kernel that tests its data for
 * NaN or Inf ("if (!isfinite(x[i])) atomicAdd(count, 1)", a NaN guard
 * before a reduction, "v != v") never runs the branch that matters: its
 * count is 0 in every case, and a mutant that inverts the test survives.
 * Here a float input buffer whose elements reach such a test in the
 * kernel, directly, through a local computed from them or a pointer into
 * the buffer, or as the argument of a helper of the slice that tests its
 * parameter, gets one case, "nonfinite", cloned from the first: its fill
 * is the buffer's own range with a share NONFINITE_RATE of the elements
 * NaN, +Inf and -Inf (the harness's nonfinite fill).  A test of a scalar
 * parameter or of a value computed from no input buffer adds nothing:
 * the data kwrap draws cannot move it.
 *
 * The tests: isfinite, isnan, isinf (with std:: or :: or not), their C
 * spellings with an f or l suffix and the __ forms (__isnan, __isinff,
 * __finite, __finitef), half and bfloat16 ones (__hisnan, __hisinf and
 * their 2-lane forms), and a value compared with itself (x != x,
 * x[i] == x[i]).
 */
#include "kwrap.h"
#include "mtok.h"

#define MAX_TAINT 128		/* names that hold data, per function */
#define MAX_HELPERS 32		/* helpers that test a parameter */
#define HELPER_ROUNDS 4		/* helpers that call helpers, deep */

static const char *const tests[] = {
	"isfinite", "isnan", "isinf", "isfinitef", "isnanf", "isinff",
	"isnanl", "isinfl", "finite", "finitef", "__finite", "__finitef",
	"__finitel", "__isnan", "__isnanf", "__isnanl", "__isinf",
	"__isinff", "__isinfl", "__hisnan", "__hisinf", "__hisnan2",
	"__hisinf2", NULL
};

/* A helper of the slice that tests its parameter arg for finiteness. */
struct helper {
	size_t name;		/* its name's token */
	int arg;
};

struct scan {
	const char *c;
	const struct mtoks *t;
	struct helper h[MAX_HELPERS];
	int nh;
};

struct taint {
	size_t v[MAX_TAINT];	/* a token naming each */
	int n;
};

static int
same(const struct scan *s, size_t i, size_t j)
{
	return i < s->t->n && j < s->t->n && s->t->v[i].len ==
	    s->t->v[j].len && strncmp(s->c + s->t->v[i].off, s->c +
	    s->t->v[j].off, s->t->v[i].len) == 0;
}

/* Whether token i names a tainted name (not a member: ".x", "->x"). */
static int
tainted(const struct scan *s, const struct taint *tn, size_t i, size_t a)
{
	int k;

	if (i >= s->t->n || s->t->v[i].kind != M_ID || (i > a &&
	    (mt_is(s->c, s->t, i - 1, ".") || mt_is(s->c, s->t, i - 1, "->"))))
		return 0;
	for (k = 0; k < tn->n; k++)
		if (same(s, tn->v[k], i))
			return 1;
	return 0;
}

static int
taint_add(const struct scan *s, struct taint *tn, size_t i)
{
	int k;

	for (k = 0; k < tn->n; k++)
		if (same(s, tn->v[k], i))
			return 0;
	if (tn->n >= MAX_TAINT)
		return 0;
	tn->v[tn->n++] = i;
	return 1;
}

/* Whether [a, b) holds a tainted name. */
static int
holds(const struct scan *s, const struct taint *tn, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b && i < s->t->n; i++)
		if (tainted(s, tn, i, a))
			return 1;
	return 0;
}

/* The end of the expression that starts at i: the ";" or "," at its
 * depth, or the bracket that closes around it. */
static size_t
rhs_end(const struct scan *s, size_t i, size_t b)
{
	int d = 0;

	for (; i < b; i++) {
		const char *c = s->c;
		if (mt_is(c, s->t, i, "(") || mt_is(c, s->t, i, "[") ||
		    mt_is(c, s->t, i, "{"))
			d++;
		else if (mt_is(c, s->t, i, ")") || mt_is(c, s->t, i, "]") ||
		    mt_is(c, s->t, i, "}")) {
			if (d-- == 0)
				return i;
		} else if (d == 0 && (mt_is(c, s->t, i, ";") ||
		    mt_is(c, s->t, i, ",")))
			return i;
	}
	return b;
}

/* The name assigned by the assignment at token i ("x = ..",
 * "x[j] += .."): its token, or 0 for none. */
static size_t
assigned(const struct scan *s, size_t i, size_t a)
{
	size_t j = i - 1;
	int d = 0;

	if (i <= a)
		return 0;
	if (mt_is(s->c, s->t, j, "]")) {
		for (; j > a; j--) {
			if (mt_is(s->c, s->t, j, "]"))
				d++;
			else if (mt_is(s->c, s->t, j, "[") && --d == 0)
				break;
		}
		if (j <= a)
			return 0;
		j--;
	}
	return s->t->v[j].kind == M_ID ? j : 0;
}

static int
is_assign(const struct scan *s, size_t i)
{
	static const char *const ops[] = {
		"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", NULL
	};
	int k;

	for (k = 0; ops[k] != NULL; k++)
		if (mt_is(s->c, s->t, i, ops[k]))
			return 1;
	return 0;
}

/* Taint every name that [a, b) assigns from a tainted value, until
 * nothing changes. */
static void
spread(const struct scan *s, struct taint *tn, size_t a, size_t b)
{
	size_t i, l, e;
	int grew = 1, rounds = 0;

	while (grew && rounds++ < MAX_TAINT) {
		grew = 0;
		for (i = a; i < b; i++) {
			if (!is_assign(s, i) || (l = assigned(s, i, a)) == 0)
				continue;
			e = rhs_end(s, i + 1, b);
			if (holds(s, tn, i + 1, e))
				grew |= taint_add(s, tn, l);
		}
	}
}

/* The operand that ends at token e (a name or "name[..]"): its first
 * token, or e + 1 for none. */
static size_t
operand_start(const struct scan *s, size_t e, size_t a)
{
	int d = 0;
	size_t j = e;

	if (s->t->v[e].kind == M_ID)
		return e;
	if (!mt_is(s->c, s->t, e, "]"))
		return e + 1;
	for (; j > a; j--) {
		if (mt_is(s->c, s->t, j, "]"))
			d++;
		else if (mt_is(s->c, s->t, j, "[") && --d == 0)
			break;
	}
	return j > a && s->t->v[j - 1].kind == M_ID ? j - 1 : e + 1;
}

/* Whether [a, b) tests a tainted value for finiteness. */
static int
tests_data(const struct scan *s, const struct taint *tn, size_t a, size_t b)
{
	const char *c = s->c;
	size_t i, e, l;
	int k;

	for (i = a; i + 1 < b; i++) {
		if (s->t->v[i].kind == M_ID && mt_is(c, s->t, i + 1, "(") &&
		    (i == a || (!mt_is(c, s->t, i - 1, ".") &&
		    !mt_is(c, s->t, i - 1, "->")))) {
			e = mt_close(c, s->t, i + 1);
			for (k = 0; tests[k] != NULL; k++)
				if (mt_is(c, s->t, i, tests[k]) &&
				    holds(s, tn, i + 2, e))
					return 1;
			for (k = 0; k < s->nh; k++) {
				/* the helper's argument arg */
				size_t x = i + 2, y;
				int n = 0;
				if (!same(s, s->h[k].name, i))
					continue;
				while (x < e) {
					y = rhs_end(s, x, e);
					if (n++ == s->h[k].arg && holds(s, tn, x,
					    y))
						return 1;
					x = y + 1;
				}
			}
		}
		/* v != v, v[i] == v[i] */
		if ((mt_is(c, s->t, i, "!=") || mt_is(c, s->t, i, "==")) &&
		    i > a && (l = operand_start(s, i - 1, a)) < i &&
		    tainted(s, tn, l, a)) {
			size_t m = i - l;
			for (e = 0; e < m && same(s, l + e, i + 1 + e); e++)
				;
			if (e == m && !mt_is(c, s->t, i + 1 + m, "[") &&
			    !mt_is(c, s->t, i + 1 + m, "(") &&
			    !mt_is(c, s->t, i + 1 + m, ".") &&
			    !mt_is(c, s->t, i + 1 + m, "->"))
				return 1;
		}
	}
	return 0;
}

/* Helpers of the slice that test a parameter: name ( params ) { body }
 * after a return type, each parameter tainted on its own. */
static void
find_helpers(struct scan *s, const char *kernel)
{
	static const char *const notfn[] = {
		"if", "for", "while", "switch", "catch", "return", "do", NULL
	};
	const struct mtoks *t = s->t;
	size_t i, e, j, x, y;
	int round, k, n, found;

	for (round = 0; round < HELPER_ROUNDS; round++) {
		found = 0;
		for (i = 1; i + 1 < t->n && s->nh < MAX_HELPERS; i++) {
			if (t->v[i].kind != M_ID || !mt_is(s->c, t, i + 1, "(") ||
			    mt_is(s->c, t, i, kernel) ||
			    (t->v[i - 1].kind != M_ID && !mt_is(s->c, t, i - 1,
			    "*") && !mt_is(s->c, t, i - 1, "&") &&
			    !mt_is(s->c, t, i - 1, ">")))
				continue;
			for (k = 0; notfn[k] != NULL; k++)
				if (mt_is(s->c, t, i, notfn[k]) ||
				    mt_is(s->c, t, i - 1, notfn[k]))
					break;
			if (notfn[k] != NULL)
				continue;
			e = mt_close(s->c, t, i + 1);
			j = e;
			while (j + 1 < t->n && t->v[j + 1].kind == M_ID)
				j++;
			if (j + 1 >= t->n || !mt_is(s->c, t, j + 1, "{"))
				continue;
			/* each parameter: the last name before its "," */
			for (x = i + 2, n = 0; x < e; x = y + 1, n++) {
				struct taint tn = { .n = 0 };
				size_t b = mt_close(s->c, t, j + 1), q;
				y = rhs_end(s, x, e);
				for (q = y; q > x && t->v[q - 1].kind != M_ID; q--)
					;
				if (q == x || q - 1 == x)
					continue;	/* a type alone */
				for (k = 0; k < s->nh; k++)
					if (same(s, s->h[k].name, i) &&
					    s->h[k].arg == n)
						break;
				if (k < s->nh || s->nh >= MAX_HELPERS)
					continue;
				taint_add(s, &tn, q - 1);
				spread(s, &tn, j + 2, b);
				if (tests_data(s, &tn, j + 2, b)) {
					s->h[s->nh].name = i;
					s->h[s->nh++].arg = n;
					found = 1;
				}
			}
			i = e;
		}
		if (!found)
			break;
	}
}

/* Whether kernel's body [a, b) tests the data of buffer name. */
static int
buffer_tested(struct scan *s, size_t a, size_t b, const char *name)
{
	struct taint tn = { .n = 0 };
	size_t i;

	for (i = a; i < b; i++)
		if (mt_is(s->c, s->t, i, name) && !mt_is(s->c, s->t, i - 1, ".")
		    && !mt_is(s->c, s->t, i - 1, "->")) {
			taint_add(s, &tn, i);
			break;
		}
	if (tn.n == 0)
		return 0;
	spread(s, &tn, a, b);
	return tests_data(s, &tn, a, b);
}

void
kw_nonfinite_cases(const char *code, const char *kernel, json_t *spec,
    int budget)
{
	json_t *cases = json_object_get(spec, "cases"), *p, *base, *nc = NULL;
	json_t *fills = NULL, *q;
	struct mtoks t = { 0 };
	struct scan s;
	size_t a, b, i;
	json_int_t seed;

	if (!kw_case_start(code, kernel, cases, budget, &t, &a, &b, &base,
	    &seed))
		return;
	json_array_foreach(cases, i, q)
		if (k_get_str(q, "name") != NULL && strcmp(k_get_str(q, "name"),
		    "nonfinite") == 0) {
			free(t.v);
			return;
		}
	memset(&s, 0, sizeof(s));
	s.c = code;
	s.t = &t;
	find_helpers(&s, kernel);
	json_array_foreach(json_object_get(spec, "params"), i, p) {
		const char *role = k_get_str(p, "role"), *name = k_get_str(p,
		    "name");
		const struct k_dtype *d = k_dtype_named(k_get_str(p, "dtype"));
		json_t *f = json_object_get(p, "fill");
		double lo = -1, hi = 1;
		if (name == NULL || role == NULL || d == NULL || !d->is_float ||
		    (strcmp(role, "in") != 0 && strcmp(role, "inout") != 0))
			continue;
		/* an inout that starts zeroed keeps its zeros */
		if (k_get_str(f, "kind") != NULL && strcmp(k_get_str(f, "kind"),
		    "constant") == 0)
			continue;
		if (!buffer_tested(&s, a, b, name))
			continue;
		if (k_get_str(f, "kind") != NULL && strcmp(k_get_str(f, "kind"),
		    "uniform") == 0 && json_is_number(json_object_get(f, "lo")) &&
		    json_is_number(json_object_get(f, "hi"))) {
			lo = json_number_value(json_object_get(f, "lo"));
			hi = json_number_value(json_object_get(f, "hi"));
		}
		if (nc == NULL) {
			nc = json_deep_copy(base);
			json_object_set_new(nc, "name", json_string("nonfinite"));
			json_object_set_new(nc, "seed", json_integer(seed));
			if (!json_is_object(fills = json_object_get(nc,
			    "fills"))) {
				fills = json_object();
				json_object_set_new(nc, "fills", fills);
			}
		}
		json_object_set_new(fills, name, json_pack("{s:s,s:f,s:f,s:f}",
		    "kind", "nonfinite", "lo", lo, "hi", hi, "rate",
		    NONFINITE_RATE));
	}
	if (nc != NULL)
		json_array_append_new(cases, nc);
	free(t.v);
}
