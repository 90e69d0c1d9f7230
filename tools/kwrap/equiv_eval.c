/*
 * kwrap: the interval evaluator of the equivalence proofs (equiv.c):
 * the value of an integer expression of the kernel in one case of the
 * spec, as an interval, or unknown.  See equiv.c for what it knows.
 */
#include "equiv.h"

static struct val parse_expr(struct px *p);
static struct val parse_cond(struct px *p);
static struct val parse_unary(struct px *p);
static int ident_value(struct px *p, const char *name, struct val *v);
static int loop_index(struct px *p, const char *name, size_t d,
    struct val *v);
static int macro_index(struct px *p, const char *name, struct val *v);


static struct val
known(long long lo, long long hi, int uns)
{
	struct val v = { 1, lo, hi, uns };

	if (lo > hi || lo < INT_MIN || hi > (long long)UINT_MAX ||
	    (!uns && hi > INT_MAX) || (uns && lo < 0))
		return unknown;
	return v;
}

static int
at(const struct px *p, const char *w)
{
	return mt_is(p->s, &p->t, p->i, w);
}

static int
tok_eq(const char *s, const struct mtok *k, const char *w)
{
	return k->len == strlen(w) && strncmp(s + k->off, w, k->len) == 0;
}

static void
tok_text(const char *s, const struct mtok *k, char *out, size_t cap)
{
	size_t l = k->len < cap - 1 ? k->len : cap - 1;

	memcpy(out, s + k->off, l);
	out[l] = '\0';
}

/* ------------------------------------------------------------ types */

/* An integer type word: 1 signed, 2 unsigned, 0 not one. */
static int
int_word(const char *w)
{
	static const char *const sw[] = { "int", "long", "short", "signed",
		"int8_t", "int16_t", "int32_t", "int64_t", "ptrdiff_t",
		"char", NULL };
	static const char *const uw[] = { "unsigned", "uint8_t", "uint16_t",
		"uint32_t", "uint64_t", "size_t", "uint", NULL };
	int i;

	for (i = 0; sw[i] != NULL; i++)
		if (strcmp(w, sw[i]) == 0)
			return 1;
	for (i = 0; uw[i] != NULL; i++)
		if (strcmp(w, uw[i]) == 0)
			return 2;
	return 0;
}

/* The type named by tokens [a, b) of s: 1 signed int, 2 unsigned, 3
 * bool, 4 auto, 0 anything else (a float, a pointer, a class). */
static int
type_of(const char *s, const struct mtoks *t, size_t a, size_t b)
{
	int ty = 0, w;
	size_t i;
	char x[64];

	for (i = a; i < b; i++) {
		tok_text(s, &t->v[i], x, sizeof(x));
		if (strcmp(x, "const") == 0 || strcmp(x, "volatile") == 0 ||
		    strcmp(x, "constexpr") == 0 || strcmp(x, "register") == 0 ||
		    strcmp(x, "static") == 0)
			continue;
		if (strcmp(x, "bool") == 0)
			w = 3;
		else if (strcmp(x, "auto") == 0)
			w = 4;
		else
			w = int_word(x);
		if (w == 0)
			return 0;
		if (ty == 0 || (ty == 1 && w == 2))
			ty = w;
		else if (w >= 3 || ty >= 3)
			return 0;
	}
	return ty;
}

/* v converted to type ty (type_of). */
static struct val
convert(struct val v, int ty)
{
	if (!v.known)
		return v;
	switch (ty) {
	case 1:
		if (v.hi > INT_MAX)
			return unknown;
		v.uns = 0;
		return v;
	case 2:
		if (v.lo < 0)
			return unknown;
		v.uns = 1;
		return v;
	case 3:
		if (v.lo > 0 || v.hi < 0)
			return known(1, 1, 0);
		if (v.lo == 0 && v.hi == 0)
			return known(0, 0, 0);
		return known(0, 1, 0);
	case 4:
		return v;
	}
	return unknown;
}

/* ------------------------------------------------------------ names */

int
eq_is_assign(const char *s, const struct mtok *k)
{
	static const char *const ops[] = { "=", "+=", "-=", "*=", "/=", "%=",
		"&=", "|=", "^=", "<<=", ">>=", NULL };
	int i;

	for (i = 0; ops[i] != NULL; i++)
		if (tok_eq(s, k, ops[i]))
			return 1;
	return 0;
}

static int
ends_operand(const char *s, const struct mtok *k)
{
	return k->kind == M_ID || k->kind == M_NUM || tok_eq(s, k, ")") ||
	    tok_eq(s, k, "]");
}

/* Calls that change none of their arguments and have no effect. */
static int
pure_call(const char *name)
{
	static const char *const f[] = { "min", "max", "abs", "assert",
		"__ldg", "fminf", "fmaxf", "fabsf", "sqrtf", "expf", "logf",
		"floorf", "ceilf", "fmin", "fmax", "fabs", "sqrt", "exp", "log",
		"floor", "ceil", "static_cast", NULL };
	int i;

	for (i = 0; f[i] != NULL; i++)
		if (strcmp(name, f[i]) == 0)
			return 1;
	return 0;
}

/* Token j of the body is a bare argument of a call or macro kwrap does
 * not know to be pure: f(x), f(a, x). */
static int
bare_arg(const struct eq *g, size_t j)
{
	const struct mtoks *t = &g->t;
	size_t i;
	int d = 0;
	char name[64];

	if (j == 0 || j + 1 >= t->n)
		return 0;
	if (!(mt_is(g->code, t, j - 1, "(") || mt_is(g->code, t, j - 1, ",")) ||
	    !(mt_is(g->code, t, j + 1, ")") || mt_is(g->code, t, j + 1, ",")))
		return 0;
	for (i = j; i-- > g->a;) {
		if (mt_is(g->code, t, i, ")") || mt_is(g->code, t, i, "]") ||
		    mt_is(g->code, t, i, "}"))
			d++;
		else if (mt_is(g->code, t, i, "[") || mt_is(g->code, t, i,
		    "{"))
			d--;
		else if (mt_is(g->code, t, i, "(") && d-- == 0)
			break;
		if (d < 0)
			return 0;
	}
	if (i <= g->a || i + 1 > j)
		return 0;
	if (t->v[i - 1].kind != M_ID && !mt_is(g->code, t, i - 1, ">"))
		return 0;	/* a group, not a call */
	tok_text(g->code, &t->v[i - 1], name, sizeof(name));
	if (strcmp(name, "if") == 0 || strcmp(name, "while") == 0 ||
	    strcmp(name, "switch") == 0 || strcmp(name, "return") == 0 ||
	    strcmp(name, "for") == 0)
		return 0;
	return !pure_call(name);
}

/* Whether the body may change name (an assignment other than its
 * declaration at decl, ++, --, its address, a bare argument), tokens
 * [skip_a, skip_b) left out (a loop's own header). */
static int
changed(const struct eq *g, const char *name, size_t decl, size_t skip_a,
    size_t skip_b)
{
	const struct mtoks *t = &g->t;
	size_t j;

	for (j = g->a; j < g->b; j++) {
		if (!mt_is(g->code, t, j, name) || (j >= skip_a && j < skip_b))
			continue;
		if (j > g->a && (mt_is(g->code, t, j - 1, ".") ||
		    mt_is(g->code, t, j - 1, "->") || mt_is(g->code, t, j - 1,
		    "::")))
			continue;
		if (j + 1 < g->b && j != decl && eq_is_assign(g->code,
		    &t->v[j + 1]))
			return 1;
		if ((j + 1 < g->b && (mt_is(g->code, t, j + 1, "++") ||
		    mt_is(g->code, t, j + 1, "--"))) || (j > g->a &&
		    (mt_is(g->code, t, j - 1, "++") || mt_is(g->code, t, j - 1,
		    "--"))))
			return 1;
		if (j > g->a && mt_is(g->code, t, j - 1, "&") && (j - 1 == g->a ||
		    !ends_operand(g->code, &t->v[j - 2])))
			return 1;
		if (bare_arg(g, j))
			return 1;
		/* T &r = name: r may change it */
		if (j >= g->a + 3 && mt_is(g->code, t, j - 1, "=") &&
		    t->v[j - 2].kind == M_ID && (mt_is(g->code, t, j - 3, "&") ||
		    mt_is(g->code, t, j - 3, "&&")))
			return 1;
	}
	return 0;
}

/* The declarations of name in the body: their count, the last one's
 * name token at *d. */
static int
declarations(const struct eq *g, const char *name, size_t *d)
{
	const struct mtoks *t = &g->t;
	size_t j;
	int n = 0;

	for (j = g->a + 1; j < g->b; j++) {
		const struct mtok *pv = &t->v[j - 1];
		if (!mt_is(g->code, t, j, name))
			continue;
		if (pv->kind == M_ID && !tok_eq(g->code, pv, "return") &&
		    !tok_eq(g->code, pv, "case") && !tok_eq(g->code, pv,
		    "else") && !tok_eq(g->code, pv, "do"))
			;	/* int x, T x */
		else if ((tok_eq(g->code, pv, "*") || tok_eq(g->code, pv, "&")) &&
		    j >= g->a + 2 && t->v[j - 2].kind == M_ID &&
		    /* not a member's product: "gridDim.x * T;" */
		    !(j >= g->a + 3 && (tok_eq(g->code, &t->v[j - 3], ".") ||
		    tok_eq(g->code, &t->v[j - 3], "->"))) &&
		    j + 1 < g->b && (mt_is(g->code, t, j + 1, "=") ||
		    mt_is(g->code, t, j + 1, ";") || mt_is(g->code, t, j + 1,
		    ",") || mt_is(g->code, t, j + 1, "[")))
			;	/* T *x = ... (or a product: counted anyway) */
		else if (tok_eq(g->code, pv, ",") && j + 1 < g->b &&
		    mt_is(g->code, t, j + 1, "="))
			;	/* int a = 1, x = 2 */
		else
			continue;
		n++;
		*d = j;
	}
	return n;
}

/* A local's one definition "T name = init;" at d: its type (type_of),
 * the initializer [*ia, *ib) and the end of its scope (a token of the
 * body); 0 when it is not that shape. */
static int
definition(const struct eq *g, size_t d, int *ty, size_t *ia, size_t *ib,
    size_t *scope)
{
	const struct mtoks *t = &g->t;
	size_t s, e;
	int depth = 0;

	if (d + 1 >= g->b || !mt_is(g->code, t, d + 1, "="))
		return 0;
	for (s = d; s > g->a; s--)
		if (mt_is(g->code, t, s - 1, ";") || mt_is(g->code, t, s - 1,
		    "{") || mt_is(g->code, t, s - 1, "}"))
			break;
		else if (mt_is(g->code, t, s - 1, "(") || mt_is(g->code, t,
		    s - 1, ")") || mt_is(g->code, t, s - 1, ",") ||
		    t->v[s - 1].kind == M_PUNCT)
			return 0;	/* a for header, a declarator list */
	*ty = type_of(g->code, t, s, d);
	if (*ty == 0)
		return 0;
	for (e = d + 2; e < g->b && !mt_is(g->code, t, e, ";"); e++) {
		if (mt_is(g->code, t, e, "(") || mt_is(g->code, t, e, "[") ||
		    mt_is(g->code, t, e, "{")) {
			e = mt_close(g->code, t, e);
			continue;
		}
		if (mt_is(g->code, t, e, ",") || mt_is(g->code, t, e, "}"))
			return 0;
	}
	if (e >= g->b)
		return 0;
	*ia = d + 2;
	*ib = e;
	for (*scope = e; *scope < g->b; (*scope)++) {
		if (mt_is(g->code, t, *scope, "{"))
			depth++;
		else if (mt_is(g->code, t, *scope, "}") && depth-- == 0)
			break;
	}
	return 1;
}

/* The spec's parameter named name (borrowed), or NULL. */
static json_t *
spec_param(const struct eq *g, const char *name)
{
	json_t *prm;
	size_t i;

	json_array_foreach(json_object_get(g->spec, "params"), i, prm)
		if (k_get_str(prm, "name") != NULL &&
		    strcmp(k_get_str(prm, "name"), name) == 0)
			return prm;
	return NULL;
}

static int
int_dtype(const char *dt, long long *lo, long long *hi)
{
	static const struct {
		const char *n;
		long long lo, hi;
	} d[] = {
		{ "int8", -128, 127 }, { "uint8", 0, 255 },
		{ "int16", -32768, 32767 }, { "uint16", 0, 65535 },
		{ "int32", INT_MIN, INT_MAX }, { "uint32", 0, UINT_MAX },
		{ "int64", LLONG_MIN, LLONG_MAX }, { "uint64", 0, LLONG_MAX },
		{ "bool", 0, 1 },
	};
	size_t i;

	for (i = 0; dt != NULL && i < sizeof(d) / sizeof(d[0]); i++)
		if (strcmp(dt, d[i].n) == 0) {
			*lo = d[i].lo;
			*hi = d[i].hi;
			return 1;
		}
	return 0;
}

static int
json_int(json_t *v, long long *x)
{
	double d;

	if (json_is_integer(v)) {
		*x = (long long)json_integer_value(v);
		return 1;
	}
	if (!json_is_real(v))
		return 0;
	d = json_real_value(v);
	if (d != floor(d) || d < -9e15 || d > 9e15)
		return 0;
	*x = (long long)d;
	return 1;
}

/* The values of an element of input buffer prm in the current case. */
static struct val
element(const struct eq *g, json_t *prm)
{
	const char *name = k_get_str(prm, "name");
	json_t *f = json_object_get(json_object_get(g->cs, "fills"), name);
	const char *kind;
	long long lo, hi, dlo, dhi;

	if (f == NULL)
		f = json_object_get(prm, "fill");
	kind = k_get_str(f, "kind");
	if (kind == NULL || !int_dtype(k_get_str(prm, "dtype"), &dlo, &dhi))
		return unknown;
	if (strcmp(kind, "int") == 0) {
		if (!json_int(json_object_get(f, "lo"), &lo) ||
		    !json_int(json_object_get(f, "hi"), &hi))
			return unknown;
	} else if (strcmp(kind, "constant") == 0) {
		if (!json_int(json_object_get(f, "value"), &lo))
			return unknown;
		hi = lo;
	} else
		return unknown;
	if (lo < dlo || hi > dhi)
		return unknown;
	if (strcmp(k_get_str(prm, "dtype"), "bool") == 0)
		return convert(known(lo, hi, 0), 3);
	return known(lo, hi, dlo == 0 && strcmp(k_get_str(prm, "dtype"),
	    "bool") != 0);
}

/* The callee of the innermost call whose parentheses hold token j of
 * the body, into name; 0 when j is in none. */
static int
callee(const struct eq *g, size_t j, char *name, size_t cap)
{
	const struct mtoks *t = &g->t;
	size_t i;
	int d = 0;

	for (i = j; i-- > g->a;) {
		if (mt_is(g->code, t, i, ")") || mt_is(g->code, t, i, "]"))
			d++;
		else if (mt_is(g->code, t, i, "[") && d > 0)
			d--;
		else if (mt_is(g->code, t, i, "(") && d-- == 0)
			break;
		else if (mt_is(g->code, t, i, "{") || mt_is(g->code, t, i,
		    "}") || mt_is(g->code, t, i, ";"))
			return 0;
	}
	if (i <= g->a || t->v[i - 1].kind != M_ID)
		return 0;
	tok_text(g->code, &t->v[i - 1], name, cap);
	return 1;
}

/*
 * Whether the buffer behind pointer name may change or be reached
 * another way: every use must be a read of an element (name[...] not
 * assigned, *name not assigned, &name[...] in a call known to be pure
 * such as __ldg) or the pointer's own step (name += k, name++); any
 * other use (a store, an alias q = name, an argument) may write it.
 */
static int
stored(const struct eq *g, const char *name)
{
	const struct mtoks *t = &g->t;
	size_t j, e;
	char fn[64];

	for (j = g->a; j < g->b; j++) {
		if (!mt_is(g->code, t, j, name) || (j > g->a &&
		    (mt_is(g->code, t, j - 1, ".") || mt_is(g->code, t, j - 1,
		    "->") || mt_is(g->code, t, j - 1, "::"))))
			continue;
		if (j + 1 < g->b && (mt_is(g->code, t, j + 1, "+=") ||
		    mt_is(g->code, t, j + 1, "-=") || mt_is(g->code, t, j + 1,
		    "++") || mt_is(g->code, t, j + 1, "--")))
			continue;	/* its own step */
		if (j + 1 < g->b && mt_is(g->code, t, j + 1, "[")) {
			e = mt_close(g->code, t, j + 1);
			if (e + 1 < g->b && (eq_is_assign(g->code, &t->v[e + 1]) ||
			    mt_is(g->code, t, e + 1, "++") || mt_is(g->code, t,
			    e + 1, "--")))
				return 1;
			if (j > g->a && mt_is(g->code, t, j - 1, "&") &&
			    (!callee(g, j, fn, sizeof(fn)) || !pure_call(fn)))
				return 1;
			continue;
		}
		if (j > g->a && mt_is(g->code, t, j - 1, "*") && (j - 1 ==
		    g->a || !ends_operand(g->code, &t->v[j - 2])) &&
		    !(j + 1 < g->b && eq_is_assign(g->code, &t->v[j + 1])) &&
		    !(j >= g->a + 2 && (mt_is(g->code, t, j - 2, "++") ||
		    mt_is(g->code, t, j - 2, "--"))))
			continue;	/* *name read */
		return 1;
	}
	return 0;
}

static void
note(struct px *p, const char *name, struct val v)
{
	struct eq *g = p->g;
	int i;

	if (!p->record || !v.known || p->depth > 0)
		return;
	for (i = 0; i < g->nnames; i++)
		if (strcmp(g->names[i].name, name) == 0) {
			if (v.lo < g->names[i].lo)
				g->names[i].lo = v.lo;
			if (v.hi > g->names[i].hi)
				g->names[i].hi = v.hi;
			return;
		}
	if (g->nnames == EQ_NAMES)
		return;
	copy(g->names[g->nnames].name, sizeof(g->names[0].name), name);
	g->names[g->nnames].lo = v.lo;
	g->names[g->nnames].hi = v.hi;
	g->nnames++;
}

/* Evaluate text s, standing at [use_a, use_b) of the code, in a
 * definition up's evaluation follows. */
static struct val
eval_text(struct px *up, const char *s, size_t use_a, size_t use_b)
{
	struct px p = { 0 };
	struct val v;

	if (up->depth >= EQ_DEPTH)
		return unknown;
	p.g = up->g;
	p.s = s;
	mt_lex(s, &p.t);
	p.ok = p.t.n > 0;
	p.use_a = use_a;
	p.use_b = use_b;
	p.depth = up->depth + 1;
	p.site = -1;
	v = p.ok ? parse_expr(&p) : unknown;
	if (!p.ok || p.i != p.t.n || p.effects)
		v = unknown;
	free(p.t.v);
	return v;
}

/* Evaluate tokens [a, b) of g->code where they stand. */
static struct val
eval_code(struct px *up, size_t a, size_t b)
{
	size_t so, eo;
	char *s;
	struct val v;

	if (a >= b)
		return unknown;
	so = up->g->t.v[a].off;
	eo = up->g->t.v[b - 1].off + up->g->t.v[b - 1].len;
	s = k_asprintf("%.*s", (int)(eo - so), up->g->code + so);
	v = eval_text(up, s, so, eo);
	free(s);
	return v;
}

/* The statement after token h of the body (a loop's header), as
 * offsets [*ba, *bb) of the code. */
static int
stmt_after(const struct eq *g, size_t h, size_t *ba, size_t *bb)
{
	const struct mtoks *t = &g->t;
	size_t e;

	if (h + 1 >= g->b)
		return 0;
	if (mt_is(g->code, t, h + 1, "{"))
		e = mt_close(g->code, t, h + 1);
	else
		for (e = h + 1; e < g->b && !mt_is(g->code, t, e, ";"); e++)
			if (mt_is(g->code, t, e, "(") || mt_is(g->code, t, e,
			    "[") || mt_is(g->code, t, e, "{"))
				e = mt_close(g->code, t, e);
	if (e >= g->b)
		return 0;
	*ba = t->v[h + 1].off;
	*bb = t->v[e].off + t->v[e].len;
	return 1;
}

/*
 * The index of a counting loop, in its body: header "T i = A; i < E;
 * i += S" (or <=, i++, ++i) with S at least 1 and i changed nowhere
 * else, gives i in [A, E - 1].  h is the header's text (s, its tokens
 * t), standing at [ha, hb) of the code; the body at [ba, bb).
 */
static int
loop_range(struct px *p, const char *name, const char *s,
    const struct mtoks *t, size_t ha, size_t hb, size_t ba, size_t bb,
    struct val *v)
{
	size_t semi[2], i, n = 0, d;
	int ty, strict, depth = 0;
	struct val a, e, st;
	char *x;

	*v = unknown;
	if (p->use_a < ba || p->use_b > bb)
		return 1;
	for (i = 0; i < t->n; i++) {
		if (mt_is(s, t, i, "(") || mt_is(s, t, i, "[") || mt_is(s, t, i,
		    "{"))
			depth++;
		else if (mt_is(s, t, i, ")") || mt_is(s, t, i, "]") ||
		    mt_is(s, t, i, "}"))
			depth--;
		else if (depth == 0 && mt_is(s, t, i, ";")) {
			if (n == 2)
				return 1;
			semi[n++] = i;
		}
	}
	if (n != 2)
		return 1;
	/* T name = A; */
	for (d = 0; d < semi[0] && !mt_is(s, t, d, name); d++)
		;
	if (d == 0 || d + 2 >= semi[0] || !mt_is(s, t, d + 1, "="))
		return 1;
	if ((ty = type_of(s, t, 0, d)) == 0 || ty == 3)
		return 1;
	/* name < E; */
	if (semi[0] + 3 > semi[1] || !mt_is(s, t, semi[0] + 1, name) ||
	    !(mt_is(s, t, semi[0] + 2, "<") || mt_is(s, t, semi[0] + 2, "<=")))
		return 1;
	strict = mt_is(s, t, semi[0] + 2, "<");
	/* name += S, name++, ++name */
	if (semi[1] + 3 == t->n && ((mt_is(s, t, semi[1] + 1, name) &&
	    mt_is(s, t, semi[1] + 2, "++")) || (mt_is(s, t, semi[1] + 1, "++") &&
	    mt_is(s, t, semi[1] + 2, name))))
		st = known(1, 1, 0);
	else if (semi[1] + 3 < t->n && mt_is(s, t, semi[1] + 1, name) &&
	    mt_is(s, t, semi[1] + 2, "+=")) {
		x = k_asprintf("%s", s + t->v[semi[1] + 3].off);
		st = eval_text(p, x, ha, hb);
		free(x);
	} else
		return 1;
	x = k_asprintf("%.*s", (int)(t->v[semi[0]].off - t->v[d + 2].off),
	    s + t->v[d + 2].off);
	a = eval_text(p, x, ha, hb);
	free(x);
	x = k_asprintf("%.*s", (int)(t->v[semi[1]].off -
	    t->v[semi[0] + 3].off), s + t->v[semi[0] + 3].off);
	e = eval_text(p, x, ha, hb);
	free(x);
	if (!a.known || !e.known || !st.known || st.lo < 1 ||
	    e.hi + st.hi > INT_MAX || (a.uns != e.uns && (a.lo < 0 ||
	    e.lo < 0)))
		return 1;
	*v = convert(known(a.lo, strict ? e.hi - 1 : e.hi, a.uns), ty);
	note(p, name, *v);
	return 1;
}

/* A loop index declared in a for header at d: its range (loop_range). */
static int
loop_index(struct px *p, const char *name, size_t d, struct val *v)
{
	struct eq *g = p->g;
	const struct mtoks *t = &g->t;
	size_t open, close, ba, bb;
	char *s;
	struct mtoks ht = { 0 };
	int depth = 0;

	*v = unknown;
	for (open = d; open-- > g->a;) {
		if (mt_is(g->code, t, open, ")") || mt_is(g->code, t, open, "]"))
			depth++;
		else if (mt_is(g->code, t, open, "[") || (mt_is(g->code, t,
		    open, "(") && depth > 0))
			depth--;
		else if (mt_is(g->code, t, open, "(") || mt_is(g->code, t,
		    open, ";") || mt_is(g->code, t, open, "{") ||
		    mt_is(g->code, t, open, "}"))
			break;
	}
	if (open <= g->a || !mt_is(g->code, t, open, "(") ||
	    !mt_is(g->code, t, open - 1, "for"))
		return 1;
	close = mt_close(g->code, t, open);
	if (close >= g->b || open + 1 >= close ||
	    changed(g, name, d, open, close) || !stmt_after(g, close, &ba,
	    &bb))
		return 1;
	s = k_asprintf("%.*s", (int)(t->v[close].off - t->v[open + 1].off),
	    g->code + t->v[open + 1].off);
	mt_lex(s, &ht);
	(void)loop_range(p, name, s, &ht, t->v[open].off, t->v[close].off,
	    ba, bb, v);
	free(ht.v);
	free(s);
	return 1;
}

/* The text of macro mname's definition in the code, its parameters
 * replaced by args (n of them), or NULL. */
static char *
macro_expand(const char *code, const char *mname, char **args, int n)
{
	const char *p = code, *q, *e;
	struct k_buf b = { 0 };
	char pn[8][64];
	int np = 0, k;
	size_t l = strlen(mname), i;
	struct mtoks t = { 0 };
	char *body, *r;

	for (;;) {
		p = strstr(p, "#define");
		if (p == NULL)
			return NULL;
		q = p + 7;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, mname, l) == 0 && q[l] == '(')
			break;
		p = q;
	}
	q += l + 1;
	while (*q != ')' && *q != '\0' && *q != '\n' && np < 8) {
		size_t w;
		while (*q == ' ' || *q == ',')
			q++;
		w = strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "_0123456789");
		if (w == 0 || w >= 64)
			return NULL;
		memcpy(pn[np], q, w);
		pn[np++][w] = '\0';
		q += w;
		while (*q == ' ')
			q++;
	}
	if (*q != ')' || np != n)
		return NULL;
	q++;
	/* the body: to the end of the line, continuations joined */
	for (e = q; *e != '\0' && *e != '\n'; e++)
		if (*e == '\\' && e[1] == '\n')
			e++;
	body = k_asprintf("%.*s", (int)(e - q), q);
	for (i = 0; body[i] != '\0'; i++)
		if (body[i] == '\\' && body[i + 1] == '\n')
			body[i] = body[i + 1] = ' ';
	mt_lex(body, &t);
	for (i = 0; i < t.n; i++) {
		const char *w = body + t.v[i].off;
		for (k = 0; k < np; k++)
			if (t.v[i].kind == M_ID && t.v[i].len == strlen(pn[k]) &&
			    strncmp(w, pn[k], t.v[i].len) == 0)
				break;
		k_buf_add(&b, " ");
		if (k < np)
			k_buf_add(&b, args[k]);
		else
			k_buf_addn(&b, w, t.v[i].len);
	}
	free(t.v);
	free(body);
	r = k_strdup(b.n > 0 ? k_buf_str(&b) : "");
	k_buf_free(&b);
	return r;
}

/* A loop index declared by a macro: M(name, E) whose definition is a
 * counting for loop declaring its first parameter (CUDA_1D_KERNEL_LOOP),
 * the only such use of name in the body. */
static int
macro_index(struct px *p, const char *name, struct val *v)
{
	struct eq *g = p->g;
	const struct mtoks *t = &g->t;
	size_t j, found = 0, close = 0, ba, bb, c, ka;
	int n = 0, k;
	char *args[8] = { 0 }, *x = NULL, mname[64];
	struct mtoks ht = { 0 };

	*v = unknown;
	for (j = g->a + 2; j < g->b; j++)
		if (mt_is(g->code, t, j, name) && mt_is(g->code, t, j - 1, "(") &&
		    t->v[j - 2].kind == M_ID && mt_is(g->code, t, j + 1, ",")) {
			found = j;
			n++;
		}
	if (n != 1)
		return 1;
	j = found - 1;
	close = mt_close(g->code, t, j);
	tok_text(g->code, &t->v[j - 1], mname, sizeof(mname));
	if (close >= g->b || changed(g, name, (size_t)-1, j, close) ||
	    !stmt_after(g, close, &ba, &bb))
		return 1;
	/* the arguments, as text */
	n = 0;
	for (c = j + 1, ka = 0; c <= close && n < 8; c++) {
		if (mt_is(g->code, t, c, "(") || mt_is(g->code, t, c, "[")) {
			c = mt_close(g->code, t, c);
			continue;
		}
		if (mt_is(g->code, t, c, ",") || c == close) {
			size_t so = t->v[ka ? ka : j + 1].off;
			args[n++] = k_asprintf("%.*s", (int)(t->v[c].off - so),
			    g->code + so);
			ka = c + 1;
		}
	}
	x = macro_expand(g->code, mname, args, n);
	for (k = 0; k < n; k++)
		free(args[k]);
	if (x != NULL) {
		mt_lex(x, &ht);
		if (ht.n > 3 && mt_is(x, &ht, 0, "for") && mt_is(x, &ht, 1, "(") &&
		    mt_close(x, &ht, 1) == ht.n - 1) {
			char *h = k_asprintf("%.*s", (int)(ht.v[ht.n - 1].off -
			    ht.v[2].off), x + ht.v[2].off);
			struct mtoks t2 = { 0 };
			mt_lex(h, &t2);
			(void)loop_range(p, name, h, &t2, t->v[j].off,
			    t->v[close].off, ba, bb, v);
			free(t2.v);
			free(h);
		}
		free(ht.v);
		free(x);
	}
	return 1;
}

/* The value of identifier name in the current case. */
static int
ident_value(struct px *p, const char *name, struct val *v)
{
	struct eq *g = p->g;
	size_t d = 0, ia, ib, scope;
	int nd = declarations(g, name, &d), ty;
	json_t *prm;
	long long x;

	*v = unknown;
	if (nd > 1)
		return 1;
	if (nd == 1) {
		/* a local: one definition before the use, in scope */
		if (!definition(g, d, &ty, &ia, &ib, &scope))
			return loop_index(p, name, d, v);
		if (changed(g, name, d, 0, 0) ||
		    g->t.v[ib].off >= p->use_a ||
		    (scope < g->b && g->t.v[scope].off < p->use_b))
			return 1;
		*v = convert(eval_code(p, ia, ib), ty);
		note(p, name, *v);
		return 1;
	}
	if ((prm = spec_param(g, name)) != NULL) {
		long long lo, hi;
		if (strcmp(k_get_str(prm, "role") ? k_get_str(prm, "role") :
		    "", "scalar") != 0 || changed(g, name, (size_t)-1, 0, 0) ||
		    !int_dtype(k_get_str(prm, "dtype"), &lo, &hi) ||
		    !const_get(&g->bind, name, &x) || x < lo || x > hi)
			return 1;
		g->reads |= EQ_R_SCALARS;
		*v = known(x, x, lo == 0 && strcmp(k_get_str(prm, "dtype"),
		    "bool") != 0);
		note(p, name, *v);
		return 1;
	}
	if (strcmp(name, "true") == 0 || strcmp(name, "false") == 0) {
		*v = known(name[0] == 't', name[0] == 't', 0);
		return 1;
	}
	if (const_get(&g->c, name, &x)) {
		*v = known(x, x, 0);
		return 1;
	}
	return macro_index(p, name, v);
}

/* threadIdx.x and its kin, or unknown. */
static struct val
builtin(struct eq *g, const char *base, const char *m)
{
	int d = strcmp(m, "x") == 0 ? 0 : strcmp(m, "y") == 0 ? 1 :
	    strcmp(m, "z") == 0 ? 2 : -1;

	if (d < 0 || !g->have_launch)
		return unknown;
	g->reads |= EQ_R_LAUNCH;
	if (strcmp(base, "threadIdx") == 0)
		return g->tid_fixed ? known(g->tid[d], g->tid[d], 1) :
		    known(0, g->block[d] - 1, 1);
	if (strcmp(base, "blockIdx") == 0)
		return known(0, g->grid[d] - 1, 1);
	if (strcmp(base, "blockDim") == 0)
		return known(g->block[d], g->block[d], 1);
	if (strcmp(base, "gridDim") == 0)
		return known(g->grid[d], g->grid[d], 1);
	return unknown;
}

/* ------------------------------------------------------------ parsing */

/* Skip the group opened at p->i, its contents parsed for effects. */
static void
skip_args(struct px *p, struct val *args, int max, int *n)
{
	*n = 0;
	p->i++;		/* ( */
	if (at(p, ")")) {
		p->i++;
		return;
	}
	for (;;) {
		struct val v = parse_cond(p);
		if (*n < max)
			args[*n] = v;
		(*n)++;
		if (!p->ok)
			return;
		if (at(p, ",")) {
			p->i++;
			continue;
		}
		if (!at(p, ")")) {
			p->ok = 0;
			return;
		}
		p->i++;
		return;
	}
}

/* A cast's type at p->i: "(int)", static_cast's "<int>"; its type
 * (type_of, or -1 for a type kwrap does not know) when tokens [p->i,
 * close) are type words, 0 when they are not a type. */
static int
cast_type(struct px *p, size_t close)
{
	size_t j;
	char x[64];
	int ty;

	if (close <= p->i)
		return 0;
	for (j = p->i; j < close; j++) {
		if (p->t.v[j].kind != M_ID && !mt_is(p->s, &p->t, j, "*") &&
		    !mt_is(p->s, &p->t, j, "&"))
			return 0;
		if (p->t.v[j].kind == M_ID) {
			tok_text(p->s, &p->t.v[j], x, sizeof(x));
			if (int_word(x) == 0 && strcmp(x, "const") != 0 &&
			    strcmp(x, "bool") != 0 && strcmp(x, "float") != 0 &&
			    strcmp(x, "double") != 0 && strcmp(x, "unsigned") != 0 &&
			    (x[0] == '\0' || strlen(x) < 3 ||
			    strcmp(x + strlen(x) - 2, "_t") != 0))
				return 0;
		}
	}
	ty = type_of(p->s, &p->t, p->i, close);
	return ty == 0 || ty == 4 ? -1 : ty;
}

static struct val
parse_primary(struct px *p)
{
	const struct mtok *k;
	char name[64], m[64];
	struct val v = unknown;

	if (p->i >= p->t.n) {
		p->ok = 0;
		return unknown;
	}
	k = &p->t.v[p->i];
	if (at(p, "(")) {
		p->i++;
		v = parse_expr(p);
		if (!at(p, ")"))
			p->ok = 0;
		p->i++;
		return v;
	}
	if (k->kind == M_NUM) {
		char num[40], *e;
		long long x;
		tok_text(p->s, k, num, sizeof(num));
		p->i++;
		errno = 0;
		x = strtoll(num, &e, 0);
		if (errno != 0 || e == num || strspn(e, "uUlL") != strlen(e) ||
		    (num[0] == '0' && num[1] != '\0' && num[1] != 'x' &&
		    num[1] != 'X'))
			return unknown;	/* a float, an octal */
		return known(x, x, strpbrk(e, "uU") != NULL);
	}
	if (k->kind != M_ID) {
		p->ok = 0;
		return unknown;
	}
	tok_text(p->s, k, name, sizeof(name));
	p->i++;
	while (at(p, "::") && p->i + 1 < p->t.n &&
	    p->t.v[p->i + 1].kind == M_ID) {
		int std = strcmp(name, "std") == 0;
		p->i++;
		tok_text(p->s, &p->t.v[p->i++], name, sizeof(name));
		if (!std)
			copy(name, sizeof(name), "?");
	}
	if (strcmp(name, "sizeof") == 0 || strcmp(name, "new") == 0 ||
	    strcmp(name, "this") == 0) {
		p->effects |= strcmp(name, "new") == 0;
		if (at(p, "("))
			p->i = mt_close(p->s, &p->t, p->i) + 1;
		return unknown;
	}
	if (strcmp(name, "static_cast") == 0 && at(p, "<")) {
		size_t c = p->i + 1;
		int ty;
		while (c < p->t.n && !mt_is(p->s, &p->t, c, ">"))
			c++;
		p->i++;
		ty = cast_type(p, c);
		p->i = c + 1;
		if (ty == 0 || !at(p, "(")) {
			p->ok = 0;
			return unknown;
		}
		v = parse_primary(p);
		return ty < 0 ? unknown : convert(v, ty);
	}
	if (at(p, ".") && p->i + 1 < p->t.n && p->t.v[p->i + 1].kind == M_ID) {
		tok_text(p->s, &p->t.v[p->i + 1], m, sizeof(m));
		p->i += 2;
		v = builtin(p->g, name, m);
		if (!v.known)
			return unknown;
		bprintf(name + strlen(name), sizeof(name) - strlen(name),
		    ".%s", m);
		note(p, name, v);
		return v;
	}
	if (at(p, "(")) {
		/* a call: min and max are known, the rest are values kwrap
		 * does not follow; one kwrap does not know to be pure may
		 * change anything */
		struct val a[2];
		int n;
		skip_args(p, a, 2, &n);
		if (!pure_call(name)) {
			p->effects = 1;
			return unknown;
		}
		if (n == 2 && a[0].known && a[1].known &&
		    a[0].uns == a[1].uns && (strcmp(name, "min") == 0 ||
		    strcmp(name, "max") == 0)) {
			int mn = strcmp(name, "min") == 0;
			return known(mn ? (a[0].lo < a[1].lo ? a[0].lo : a[1].lo) :
			    (a[0].lo > a[1].lo ? a[0].lo : a[1].lo),
			    mn ? (a[0].hi < a[1].hi ? a[0].hi : a[1].hi) :
			    (a[0].hi > a[1].hi ? a[0].hi : a[1].hi), a[0].uns);
		}
		return unknown;
	}
	if (at(p, "[")) {
		/* an element of a buffer: its fill, when the kernel only
		 * reads the buffer */
		json_t *prm = spec_param(p->g, name);
		size_t c = mt_close(p->s, &p->t, p->i);
		int reads = p->g->reads;
		p->i++;
		/* the index is parsed for its effects; its value is not
		 * the element's, nor what the proof reads */
		(void)parse_expr(p);
		p->g->reads = reads;
		if (p->i != c) {
			p->ok = 0;
			return unknown;
		}
		p->i++;
		if (prm == NULL || declarations(p->g, name, &c) != 0 ||
		    strcmp(k_get_str(prm, "role") ? k_get_str(prm, "role") :
		    "", "in") != 0 || stored(p->g, name))
			return unknown;
		v = element(p->g, prm);
		p->g->reads |= EQ_R_DATA;
		note(p, name, v);
		return v;
	}
	(void)ident_value(p, name, &v);
	return v;
}

static struct val
parse_postfix(struct px *p)
{
	struct val v = parse_primary(p);

	while (p->ok && p->i < p->t.n) {
		if (at(p, "++") || at(p, "--")) {
			p->effects = 1;
			p->i++;
			v = unknown;
		} else if (at(p, "[")) {
			p->i++;
			(void)parse_expr(p);
			if (!at(p, "]"))
				p->ok = 0;
			p->i++;
			v = unknown;
		} else if ((at(p, ".") || at(p, "->")) && p->i + 1 < p->t.n &&
		    p->t.v[p->i + 1].kind == M_ID) {
			p->i += 2;
			v = unknown;
		} else if (at(p, "(")) {
			struct val a[1];
			int n;
			skip_args(p, a, 1, &n);
			p->effects = 1;
			v = unknown;
		} else
			break;
	}
	return v;
}

static struct val
parse_unary(struct px *p)
{
	struct val v;

	if (at(p, "-") || at(p, "+") || at(p, "!") || at(p, "~")) {
		char op = p->s[p->t.v[p->i].off];
		p->i++;
		v = parse_unary(p);
		if (!v.known)
			return unknown;
		if (op == '-')
			return v.uns ? unknown : known(-v.hi, -v.lo, 0);
		if (op == '!')
			return v.lo > 0 || v.hi < 0 ? known(0, 0, 0) : v.lo == 0 &&
			    v.hi == 0 ? known(1, 1, 0) : known(0, 1, 0);
		if (op == '~')
			return v.lo == v.hi && !v.uns ? known(~v.lo, ~v.lo, 0) :
			    unknown;
		return v;
	}
	if (at(p, "++") || at(p, "--")) {
		p->effects = 1;
		p->i++;
		(void)parse_unary(p);
		return unknown;
	}
	if (at(p, "*") || at(p, "&")) {
		p->i++;
		(void)parse_unary(p);
		return unknown;
	}
	if (at(p, "(")) {
		size_t c = mt_close(p->s, &p->t, p->i);
		int ty;
		p->i++;
		ty = cast_type(p, c);
		p->i--;
		if (ty != 0 && c + 1 < p->t.n) {
			p->i = c + 1;
			v = parse_unary(p);
			return ty < 0 ? unknown : convert(v, ty);
		}
	}
	return parse_postfix(p);
}

enum { B_MUL, B_ADD, B_SHIFT, B_REL, B_EQ, B_BAND, B_BXOR, B_BOR, B_LAND,
	B_LOR };

/* The binary operator at p->i and its level, or -1. */
static int
binop(struct px *p, char *op)
{
	static const struct {
		const char *w;
		int lv;
	} t[] = {
		{ "*", B_MUL }, { "/", B_MUL }, { "%", B_MUL },
		{ "+", B_ADD }, { "-", B_ADD }, { "<<", B_SHIFT },
		{ ">>", B_SHIFT }, { "<", B_REL }, { "<=", B_REL },
		{ ">", B_REL }, { ">=", B_REL }, { "==", B_EQ }, { "!=", B_EQ },
		{ "&", B_BAND }, { "^", B_BXOR }, { "|", B_BOR },
		{ "&&", B_LAND }, { "||", B_LOR },
	};
	size_t k;

	for (k = 0; k < sizeof(t) / sizeof(t[0]); k++)
		if (at(p, t[k].w)) {
			copy(op, 4, t[k].w);
			return t[k].lv;
		}
	return -1;
}

int
eq_single(struct val v)
{
	return v.known && v.lo == v.hi;
}

int
eq_truth(struct val v)
{
	if (!v.known)
		return -1;
	if (v.lo > 0 || v.hi < 0)
		return 1;
	return v.lo == 0 && v.hi == 0 ? 0 : -1;
}

static struct val
from_truth(int t)
{
	return t < 0 ? known(0, 1, 0) : known(t, t, 0);
}

/* a op b over intervals. */
static struct val
apply(const char *op, struct val a, struct val b)
{
	int uns = a.uns || b.uns;
	long long c[4], lo, hi;
	int i;

	if (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0) {
		int x = eq_truth(a), y = eq_truth(b), and = op[0] == '&';
		if (x == !and || y == !and)
			return known(!and, !and, 0);
		if (x == and && y == and)
			return known(and, and, 0);
		return a.known && b.known ? known(0, 1, 0) : unknown;
	}
	if (!a.known || !b.known)
		return unknown;
	if (uns && (a.lo < 0 || b.lo < 0))
		return unknown;
	if (op[0] == '<' || op[0] == '>' || op[0] == '=' || op[0] == '!') {
		int t;
		if (strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0) {
			if (b.lo != b.hi || b.lo < 0 || b.lo > 30 || a.lo < 0)
				return unknown;
			if (op[0] == '<')
				return a.hi > (LLONG_MAX >> b.lo) ? unknown :
				    known(a.lo << b.lo, a.hi << b.lo, a.uns);
			return known(a.lo >> b.lo, a.hi >> b.lo, a.uns);
		}
		if (strcmp(op, "<") == 0)
			t = a.hi < b.lo ? 1 : a.lo >= b.hi ? 0 : -1;
		else if (strcmp(op, "<=") == 0)
			t = a.hi <= b.lo ? 1 : a.lo > b.hi ? 0 : -1;
		else if (strcmp(op, ">") == 0)
			t = a.lo > b.hi ? 1 : a.hi <= b.lo ? 0 : -1;
		else if (strcmp(op, ">=") == 0)
			t = a.lo >= b.hi ? 1 : a.hi < b.lo ? 0 : -1;
		else if (a.lo == a.hi && b.lo == b.hi)
			t = (a.lo == b.lo) == (op[0] == '=');
		else if (a.hi < b.lo || b.hi < a.lo)
			t = op[0] == '!';
		else
			t = -1;
		return from_truth(t);
	}
	switch (op[0]) {
	case '+':
	case '-':
		lo = op[0] == '+' ? a.lo + b.lo : a.lo - b.hi;
		hi = op[0] == '+' ? a.hi + b.hi : a.hi - b.lo;
		return known(lo, hi, uns);
	case '*':
		if (a.lo < -(1LL << 31) || a.hi > (1LL << 32) ||
		    b.lo < -(1LL << 31) || b.hi > (1LL << 32))
			return unknown;
		c[0] = a.lo * b.lo;
		c[1] = a.lo * b.hi;
		c[2] = a.hi * b.lo;
		c[3] = a.hi * b.hi;
		break;
	case '/':
		if (b.lo <= 0 && b.hi >= 0)
			return unknown;
		c[0] = a.lo / b.lo;
		c[1] = a.lo / b.hi;
		c[2] = a.hi / b.lo;
		c[3] = a.hi / b.hi;
		break;
	case '%':
		if (b.lo <= 0 || a.lo < 0)
			return unknown;
		if (a.hi < b.lo)
			return known(a.lo, a.hi, uns);
		return known(0, a.hi < b.hi - 1 ? a.hi : b.hi - 1, uns);
	default:	/* & ^ |: one value each */
		if (a.lo != a.hi || b.lo != b.hi)
			return unknown;
		lo = op[0] == '&' ? (a.lo & b.lo) : op[0] == '|' ?
		    (a.lo | b.lo) : (a.lo ^ b.lo);
		return known(lo, lo, uns);
	}
	lo = hi = c[0];
	for (i = 1; i < 4; i++) {
		lo = c[i] < lo ? c[i] : lo;
		hi = c[i] > hi ? c[i] : hi;
	}
	return known(lo, hi, uns);
}

/* Binary operators of level lv and tighter. */
static struct val
parse_bin(struct px *p, int lv)
{
	size_t start = p->i < p->t.n ? p->t.v[p->i].off : 0;
	struct val a = lv == B_MUL ? parse_unary(p) : parse_bin(p, lv - 1), b;
	char op[4];
	int l;

	while (p->ok && (l = binop(p, op)) == lv) {
		long long off = (long long)p->t.v[p->i].off;
		p->i++;
		b = lv == B_MUL ? parse_unary(p) : parse_bin(p, lv - 1);
		if (off == p->site && p->ok && p->i > 0 && p->i <= p->t.n) {
			p->site_seen = 1;
			p->site_l = a;
			p->site_r = b;
			p->site_v = apply(op, a, b);
			p->site_m = p->site_rep != NULL && strlen(p->site_rep) <
			    4 ? apply(p->site_rep, a, b) : unknown;
			p->node_a = start;
			p->node_b = p->t.v[p->i - 1].off + p->t.v[p->i - 1].len;
		}
		a = apply(op, a, b);
	}
	return a;
}

static struct val
parse_cond(struct px *p)
{
	struct val c = parse_bin(p, B_LOR), x, y;
	int t;

	if (!p->ok || !at(p, "?"))
		return c;
	p->i++;
	x = parse_cond(p);
	if (!at(p, ":")) {
		p->ok = 0;
		return unknown;
	}
	p->i++;
	y = parse_cond(p);
	t = eq_truth(c);
	if (t == 1)
		return x;
	if (t == 0)
		return y;
	if (!c.known || !x.known || !y.known || x.uns != y.uns)
		return unknown;
	return known(x.lo < y.lo ? x.lo : y.lo, x.hi > y.hi ? x.hi : y.hi,
	    x.uns);
}

/* An expression: assignments and commas end it, they are effects. */
static struct val
parse_expr(struct px *p)
{
	struct val v = parse_cond(p);

	if (p->ok && p->i < p->t.n && eq_is_assign(p->s, &p->t.v[p->i]))
		p->ok = 0;
	return v;
}

/* Parse text s (at [use_a, use_b) of the code) as one expression; the
 * operator at offset site of s noted.  0 when it is not one. */
int
eq_parse_text(struct eq *g, const char *s, size_t use_a, size_t use_b,
    long long site, const char *rep, int record, struct val *v,
    struct px *out)
{
	struct px p = { 0 };

	p.g = g;
	p.s = s;
	mt_lex(s, &p.t);
	p.ok = p.t.n > 0;
	p.use_a = use_a;
	p.use_b = use_b;
	p.site = site;
	p.site_rep = rep;
	p.record = record;
	if (p.ok)
		*v = parse_expr(&p);
	if (p.i != p.t.n || p.effects)
		p.ok = 0;
	free(p.t.v);
	p.t.v = NULL;
	if (out != NULL)
		*out = p;
	return p.ok;
}

/* Set g's case scalars and launch from case cs; 0 when the launch is
 * not known (threadIdx and its kin then stay unknown). */
void
eq_case_start(struct eq *g, json_t *cs)
{
	json_t *sc = json_object_get(cs, "scalars"), *v, *l;
	const char *key;
	long long x;
	int d;

	consts_clear(&g->bind);
	g->cs = cs;
	json_object_foreach(sc, key, v)
		if (json_int(v, &x))
			const_set(&g->bind, key, x);
	l = json_object_get(g->spec, "launch");
	g->have_launch = 1;
	for (d = 0; d < 3; d++) {
		json_t *gd = json_array_get(json_object_get(l, "grid"), d);
		json_t *bd = json_array_get(json_object_get(l, "block"), d);
		struct toks t = { 0 };
		int ok = 0;
		if (json_is_string(gd)) {
			tokenize(json_string_value(gd), &t);
			ok = eval_bound(&t, &g->c, &g->bind, &g->grid[d]) == 1;
			toks_free(&t);
		} else
			ok = json_int(gd, &g->grid[d]);
		if (json_is_string(bd)) {
			tokenize(json_string_value(bd), &t);
			ok = ok && eval_bound(&t, &g->c, &g->bind,
			    &g->block[d]) == 1;
			toks_free(&t);
		} else
			ok = ok && json_int(bd, &g->block[d]);
		if (!ok || g->grid[d] < 1 || g->grid[d] > INT_MAX ||
		    g->block[d] < 1 || g->block[d] > 1024)
			g->have_launch = 0;
	}
}

