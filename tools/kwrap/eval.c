/*
 * kwrap: the slice's integer constants and an exact 64-bit evaluator.
 */
#include "kwrap.h"

/* The value of name, the one set last. */
int
const_get(const struct consts *c, const char *name, long long *v)
{
	int i;

	for (i = c->n; i-- > 0;)
		if (strcmp(c->v[i].name, name) == 0) {
			*v = c->v[i].val;
			return 1;
		}
	return 0;
}

void
const_set(struct consts *c, const char *name, long long v)
{
	c->v = grow(c->v, &c->cap, c->n, sizeof(*c->v));
	c->v[c->n].name = k_strdup(name);
	c->v[c->n++].val = v;
}

/* Forget every constant, keeping the memory of the array. */
void
consts_clear(struct consts *c)
{
	int i;

	for (i = 0; i < c->n; i++)
		free(c->v[i].name);
	c->n = 0;
}

void
consts_free(struct consts *c)
{
	int i, j;

	consts_clear(c);
	for (i = 0; i < c->nfn; i++) {
		for (j = 0; j < c->fn[i].np; j++)
			free(c->fn[i].pn[j]);
		free(c->fn[i].pn);
		free(c->fn[i].name);
	}
	free(c->fn);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/* A small integer evaluator over tokens, in 64 bits; fails on anything it
 * does not know rather than guess, and on overflow rather than wrap.  The
 * optional bindings (a case's scalars, "p.n" for a struct's field) are
 * looked up before the constants. */
struct ev {
	const struct toks *t;
	size_t i, end;
	const struct consts *c;
	int ok;
	const struct consts *bind;
	int ovf;		/* failed by overflow or division by 0 */
	int skip;		/* in an operand not taken (a ? b : c, a && b):
				   read, not evaluated, nothing fails */
	int depth;		/* constexpr calls deep */
};

#define MAX_CALLS 64		/* constexpr calls deep (recursion) */

static long long ev_expr(struct ev *e);
static long long ev_cond(struct ev *e);

/* e fails, unless it is reading an operand it does not take */
static long long
ev_fail(struct ev *e, int ovf)
{
	if (e->skip)
		return 0;
	e->ok = 0;
	e->ovf |= ovf;
	return 0;
}

static int
ev_name(struct ev *e, const char *s, long long *v)
{
	char dotted[64];

	if (e->bind != NULL && e->i + 1 < e->end &&
	    strcmp(e->t->v[e->i], ".") == 0 && is_ident(e->t->v[e->i + 1])) {
		bprintf(dotted, sizeof(dotted), "%s.%s", s, e->t->v[e->i + 1]);
		if (const_get(e->bind, dotted, v)) {
			e->i += 2;
			return 1;
		}
	}
	if ((e->bind != NULL && const_get(e->bind, s, v)) ||
	    const_get(e->c, s, v))
		return 1;
	/* the warp size as CUDA and PyTorch spell it, where the slice does
	 * not define the name: 32 on the NVIDIA GPUs the harness runs on */
	if (strcmp(s, "warpSize") == 0 || strcmp(s, "C10_WARP_SIZE") == 0) {
		*v = 32;
		return 1;
	}
	return 0;
}

/* Whether s names an integer type (int, unsigned, size_t, int64_t): a
 * cast to it keeps the value. */
static int
int_type(const char *s)
{
	const struct k_dtype *dt = k_dtype_c(s);

	return (dt != NULL && !dt->is_float) || strcmp(s, "unsigned") == 0 ||
	    strcmp(s, "signed") == 0 || strcmp(s, "long") == 0 ||
	    strcmp(s, "short") == 0;
}

/* The constexpr function name of c with n parameters, or NULL. */
static const struct cfn *
cfn_get(const struct consts *c, const char *name, int n)
{
	int i;

	for (i = c->nfn; i-- > 0;)
		if (strcmp(c->fn[i].name, name) == 0 && c->fn[i].np == n)
			return &c->fn[i];
	return NULL;
}

/* A call at e->i (its open parenthesis) of name: min and max, or a
 * constexpr function of the slice whose body returns one expression,
 * evaluated with its parameters bound to the arguments' values. */
static long long
ev_call(struct ev *e, const char *name)
{
	const struct toks *t = e->t;
	size_t close = skip_group(t, e->i) - 1, a, j;
	long long arg[8], v = 0;
	int n = 0, depth = 0;
	const struct cfn *fn;

	if (close >= e->end || !is(t, close, ")")) {
		e->ok = 0;
		return 0;
	}
	for (a = j = e->i + 1; j <= close && e->ok; j++) {
		const char *s = t->v[j];
		if (*s == '(' || *s == '[')
			depth++;
		else if ((*s == ')' || *s == ']') && j < close)
			depth--;
		if (j < close && !(depth == 0 && *s == ','))
			continue;
		if (j == a && j == close && n == 0)
			break;		/* f() */
		if (n == 8) {
			e->ok = 0;
			return 0;
		}
		{
			struct ev s2 = *e;
			s2.i = a;
			s2.end = j;
			arg[n++] = ev_expr(&s2);
			if (!s2.ok || s2.i != j)
				e->ok = 0;
			e->ovf |= s2.ovf;
		}
		a = j + 1;
	}
	e->i = close + 1;
	if (!e->ok || e->skip)
		return 0;
	if (strcmp(name, "min") == 0 && n == 2)
		return arg[0] < arg[1] ? arg[0] : arg[1];
	if (strcmp(name, "max") == 0 && n == 2)
		return arg[0] < arg[1] ? arg[1] : arg[0];
	fn = cfn_get(e->c, name, n);
	if (fn == NULL || e->depth >= MAX_CALLS)
		return ev_fail(e, 0);
	{
		struct consts pb = { 0 };
		struct ev b = { fn->t, fn->a, fn->b, e->c, 1, &pb, 0, 0,
		    e->depth + 1 };
		int i;
		for (i = 0; i < n; i++)
			const_set(&pb, fn->pn[i], arg[i]);
		v = ev_expr(&b);
		if (!b.ok || b.i != fn->b) {
			e->ovf |= b.ovf;
			v = ev_fail(e, 0);
		}
		consts_free(&pb);
	}
	return v;
}

static long long
ev_prim(struct ev *e)
{
	const struct toks *t = e->t;
	const char *s;
	long long v;
	size_t j;

	if (e->i >= e->end) {
		e->ok = 0;
		return 0;
	}
	s = t->v[e->i++];
	if (strcmp(s, "(") == 0) {
		/* a cast such as (int), (size_t) or (unsigned int) */
		for (j = e->i; j < e->end && is_ident(t->v[j]) &&
		    int_type(t->v[j]) && !const_get(e->c, t->v[j], &v) &&
		    (e->bind == NULL || !const_get(e->bind, t->v[j], &v)); j++)
			;
		if (j > e->i && j + 1 < e->end && strcmp(t->v[j], ")") == 0) {
			e->i = j + 1;
			return ev_prim(e);
		}
		v = ev_expr(e);
		if (e->i < e->end && strcmp(t->v[e->i], ")") == 0)
			e->i++;
		else
			e->ok = 0;
		return v;
	}
	if (strcmp(s, "-") == 0) {
		v = ev_prim(e);
		if (v == LLONG_MIN)
			return ev_fail(e, 1);
		return e->ok ? -v : 0;
	}
	if (strcmp(s, "+") == 0)
		return ev_prim(e);
	if (strcmp(s, "~") == 0)
		return ~ev_prim(e);
	if (strcmp(s, "!") == 0)
		return !ev_prim(e);
	if (isdigit((unsigned char)*s)) {
		char *end;
		errno = 0;
		v = strtoll(s, &end, 0);
		if (errno == ERANGE)
			ev_fail(e, 1);
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
			end++;
		if (*end != '\0')
			e->ok = 0;
		return v;
	}
	if (!is_ident(s)) {
		e->ok = 0;
		return 0;
	}
	if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0)
		return *s == 't';
	/* std::min, c10::kFoo: the last name of a qualified one */
	while (e->i + 1 < e->end && strcmp(t->v[e->i], "::") == 0 &&
	    is_ident(t->v[e->i + 1]) && !ev_name(e, s, &v))
		s = t->v[(e->i += 2) - 1];
	if ((strcmp(s, "static_cast") == 0 || strcmp(s, "int_cast") == 0) &&
	    e->i < e->end && strcmp(t->v[e->i], "<") == 0) {
		/* static_cast<int>(x) */
		for (j = e->i + 1; j < e->end && (is_ident(t->v[j]) ||
		    strcmp(t->v[j], "::") == 0); j++)
			;
		if (j + 1 >= e->end || strcmp(t->v[j], ">") != 0 ||
		    strcmp(t->v[j + 1], "(") != 0) {
			e->ok = 0;
			return 0;
		}
		e->i = j + 1;
		return ev_prim(e);
	}
	if (e->i < e->end && strcmp(t->v[e->i], "(") == 0) {
		if (int_type(s))
			return ev_prim(e);	/* int(x) */
		return ev_call(e, s);
	}
	if (ev_name(e, s, &v))
		return v;
	return ev_fail(e, 0);
}

static long long
ev_mul(struct ev *e)
{
	long long v = ev_prim(e), r;

	while (e->ok && e->i < e->end) {
		const char *op = e->t->v[e->i];
		if (strcmp(op, "*") != 0 && strcmp(op, "/") != 0 &&
		    strcmp(op, "%") != 0)
			break;
		e->i++;
		r = ev_prim(e);
		if (!e->ok)
			break;
		if (*op == '*') {
			if (__builtin_mul_overflow(v, r, &v))
				v = ev_fail(e, 1);
		} else if (r == 0 || (v == LLONG_MIN && r == -1))
			v = ev_fail(e, 1);
		else
			v = *op == '/' ? v / r : v % r;
	}
	return e->ok ? v : 0;
}

static long long
ev_add(struct ev *e)
{
	long long v = ev_mul(e), r;

	while (e->ok && e->i < e->end) {
		const char *op = e->t->v[e->i];
		if (strcmp(op, "+") != 0 && strcmp(op, "-") != 0)
			break;
		e->i++;
		r = ev_mul(e);
		if (!e->ok)
			break;
		if (*op == '+' ? __builtin_add_overflow(v, r, &v) :
		    __builtin_sub_overflow(v, r, &v))
			v = ev_fail(e, 1);
	}
	return e->ok ? v : 0;
}

static long long
ev_shift(struct ev *e)
{
	long long v = ev_add(e), r;

	while (e->ok && e->i < e->end) {
		const char *op = e->t->v[e->i];
		if (strcmp(op, "<<") != 0 && strcmp(op, ">>") != 0)
			break;
		e->i++;
		r = ev_add(e);
		if (!e->ok)
			break;
		if (r < 0 || r > 62 || v < 0 ||
		    (op[0] == '<' && v > (LLONG_MAX >> r)))
			v = ev_fail(e, 1);
		else
			v = op[0] == '<' ? v << r : v >> r;
	}
	return e->ok ? v : 0;
}

/* Comparisons, bitwise and logical operators by C's precedence: level
 * l's operators over level l + 1's operands. */
static const char *const binops[][5] = {
	{ "||", NULL }, { "&&", NULL }, { "|", NULL }, { "^", NULL },
	{ "&", NULL }, { "==", "!=", NULL }, { "<", ">", "<=", ">=", NULL }
};
#define NBIN 7

static long long
ev_bin(struct ev *e, int l)
{
	long long v, r;
	const char *op;
	int k, lazy;

	if (l == NBIN)
		return ev_shift(e);
	v = ev_bin(e, l + 1);
	while (e->ok && e->i < e->end) {
		op = e->t->v[e->i];
		for (k = 0; binops[l][k] != NULL; k++)
			if (strcmp(op, binops[l][k]) == 0)
				break;
		if (binops[l][k] == NULL)
			break;
		e->i++;
		/* a || b with a true, a && b with a false: b is not taken */
		lazy = (l == 0 && v) || (l == 1 && !v);
		e->skip += lazy;
		r = ev_bin(e, l + 1);
		e->skip -= lazy;
		if (!e->ok)
			break;
		switch (l) {
		case 0: v = v || r; break;
		case 1: v = v && r; break;
		case 2: v |= r; break;
		case 3: v ^= r; break;
		case 4: v &= r; break;
		case 5: v = k == 0 ? v == r : v != r; break;
		default:
			v = k == 0 ? v < r : k == 1 ? v > r : k == 2 ? v <= r :
			    v >= r;
		}
	}
	return e->ok ? v : 0;
}

/* c ? a : b, the operand not taken read, not evaluated */
static long long
ev_cond(struct ev *e)
{
	long long c = ev_bin(e, 0), a, b;

	if (!e->ok || e->i >= e->end || strcmp(e->t->v[e->i], "?") != 0)
		return c;
	e->i++;
	e->skip += !c;
	a = ev_cond(e);
	e->skip -= !c;
	if (!e->ok || e->i >= e->end || strcmp(e->t->v[e->i], ":") != 0) {
		e->ok = 0;
		return 0;
	}
	e->i++;
	e->skip += !!c;
	b = ev_cond(e);
	e->skip -= !!c;
	return e->ok ? (c ? a : b) : 0;
}

static long long
ev_expr(struct ev *e)
{
	return ev_cond(e);
}

/* Evaluate tokens [a, b); 1 and *v on success. */
int
eval_range(const struct toks *t, size_t a, size_t b, const struct consts *c,
    long long *v)
{
	struct ev e = { t, a, b, c, 1, NULL, 0, 0, 0 };

	if (a >= b)
		return 0;
	*v = ev_expr(&e);
	return e.ok && e.i == b;
}

/* Evaluate all of t with the bindings bind looked up before the
 * constants c: 1 and *v, 0 when it names what is not known, -1 when it
 * overflows or divides by 0. */
int
eval_bound(const struct toks *t, const struct consts *c,
    const struct consts *bind, long long *v)
{
	struct ev e = { t, 0, t->n, c, 1, bind, 0, 0, 0 };

	if (t->n == 0)
		return 0;
	*v = ev_expr(&e);
	if (e.ok && e.i == e.end)
		return 1;
	return e.ovf ? -1 : 0;
}

int
eval_str(const char *s, const struct consts *c, long long *v)
{
	struct toks t = { 0 };
	int ok;

	tokenize(s, &t);
	ok = eval_range(&t, 0, t.n, c, v);
	toks_free(&t);
	return ok;
}

/* Collect the slice's integer constants from its tokens (macros come from
 * the raw text, since tokenize() drops preprocessor lines). */
void
collect_consts(const char *code, const struct toks *t, struct consts *c)
{
	const char *p = code;
	long long v;

	while ((p = strstr(p, "#define")) != NULL) {
		char name[64], line[512];
		const char *q = p + 7;
		size_t n = 0;
		while (*q == ' ' || *q == '\t')
			q++;
		while ((isalnum((unsigned char)q[n]) || q[n] == '_') &&
		    n < sizeof(name) - 1)
			n++;
		memcpy(name, q, n);
		name[n] = '\0';
		q += n;
		p = q;
		if (n == 0 || *q == '(')
			continue;
		n = strcspn(q, "\n");
		if (n >= sizeof(line) || (n > 0 && q[n - 1] == '\\'))
			continue;
		memcpy(line, q, n);
		line[n] = '\0';
		if (eval_str(line, c, &v))
			const_set(c, name, v);
	}
	collect_range(t, 0, t->n, c);
}

/* A constexpr function at token i (its "constexpr") whose body returns
 * one expression: constexpr int f(int a, int b) { return E; } */
static void
collect_fn(const struct toks *t, size_t i, size_t b, struct consts *c)
{
	size_t j, close, s, last, body;
	struct cfn *f;
	int depth = 0, dflt = 0;

	for (j = i + 1; j + 1 < b && (is_ident(t->v[j]) || is(t, j, "::") ||
	    is(t, j, "*") || is(t, j, "&")); j++)
		if (is_ident(t->v[j]) && is(t, j + 1, "("))
			break;
	if (j + 1 >= b || !is_ident(t->v[j]) || !is(t, j + 1, "(") ||
	    is(t, j, "sizeof") || is(t, j, "decltype") || is(t, j, "if"))
		return;
	close = skip_group(t, j + 1) - 1;
	for (body = close + 1; body < b && (is(t, body, "const") ||
	    is(t, body, "noexcept")); body++)
		;
	if (!is(t, body, "{") || !is(t, body + 1, "return"))
		return;
	for (s = body + 2; s < b && !is(t, s, ";") && !is(t, s, "{") &&
	    !is(t, s, "}"); s++)
		;
	if (!is(t, s, ";") || !is(t, s + 1, "}"))
		return;
	c->fn = grow(c->fn, &c->cfn, c->nfn, sizeof(*c->fn));
	f = &c->fn[c->nfn++];
	memset(f, 0, sizeof(*f));
	f->name = k_strdup(t->v[j]);
	f->t = t;
	f->a = body + 2;
	f->b = s;
	/* each parameter's name: its last name before a default */
	for (s = j + 2, last = 0; s <= close && close > j + 2; s++) {
		const char *x = t->v[s];
		if (*x == '(' || *x == '[' || *x == '<')
			depth++;
		else if ((*x == ')' || *x == ']' || *x == '>') && s < close)
			depth--;
		else if (depth == 0 && *x == '=')
			dflt = 1;	/* the default: no name in it */
		else if (depth == 0 && is_ident(x) && !dflt)
			last = s;
		if (s < close && !(depth == 0 && *x == ','))
			continue;
		dflt = 0;
		f->pn = k_reallocarray(f->pn, (size_t)f->np + 1,
		    sizeof(*f->pn));
		f->pn[f->np++] = k_strdup(last > 0 ? t->v[last] : "");
		last = 0;
	}
}

/* The constants and constexpr functions of tokens [a, b) of t; one set
 * later is found first (const_get), so a caller collects the kernel's
 * own body last. */
void
collect_range(const struct toks *t, size_t a, size_t b, struct consts *c)
{
	static const char *const semi[] = { ";", ",", NULL };
	static const char *const comma[] = { ",", "}", NULL };
	size_t i, j, e;
	long long v, next;

	for (i = a; i + 3 < b; i++) {
		/* enum X { A = 1, B, ... } */
		if (is(t, i, "enum")) {
			j = i + 1;
			if (is(t, j, "class") || is(t, j, "struct"))
				j++;
			while (j < b && !is(t, j, "{") && !is(t, j, ";"))
				j++;
			if (!is(t, j, "{"))
				continue;
			next = 0;
			for (j++; j < b && !is(t, j, "}");) {
				const char *name = t->v[j];
				if (!is_ident(name))
					break;
				if (is(t, j + 1, "=")) {
					e = expr_end(t, j + 2, comma);
					if (eval_range(t, j + 2, e, c, &v))
						next = v;
					j = e;
				} else
					j++;
				const_set(c, name, next++);
				if (is(t, j, ","))
					j++;
			}
			continue;
		}
		if (!is(t, i, "constexpr") && !is(t, i, "const"))
			continue;
		if (is(t, i, "constexpr"))
			collect_fn(t, i, b, c);
		/* [static] const[expr] int NAME = expr; (any integer type,
		 * bool or auto) */
		for (j = i + 1; j < b && (int_type(t->v[j]) ||
		    is(t, j, "auto") || is(t, j, "static") ||
		    is(t, j, "constexpr") || is(t, j, "const")); j++)
			;
		if (j == i + 1 || j + 1 >= b || !is_ident(t->v[j]) ||
		    !is(t, j + 1, "="))
			continue;
		e = expr_end(t, j + 2, semi);
		if (e <= b && eval_range(t, j + 2, e, c, &v))
			const_set(c, t->v[j], v);
	}
}
