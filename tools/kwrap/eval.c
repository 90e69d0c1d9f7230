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
	consts_clear(c);
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
};

static long long ev_expr(struct ev *e);

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
	return (e->bind != NULL && const_get(e->bind, s, v)) ||
	    const_get(e->c, s, v);
}

static long long
ev_prim(struct ev *e)
{
	const char *s;
	long long v;

	if (e->i >= e->end) {
		e->ok = 0;
		return 0;
	}
	s = e->t->v[e->i++];
	if (strcmp(s, "(") == 0) {
		/* a cast such as (int) or (size_t) */
		if (e->i + 1 < e->end && is_ident(e->t->v[e->i]) &&
		    strcmp(e->t->v[e->i + 1], ")") == 0 &&
		    !const_get(e->c, e->t->v[e->i], &v) &&
		    (e->bind == NULL || !const_get(e->bind, e->t->v[e->i], &v))) {
			e->i += 2;
			return ev_prim(e);
		}
		v = ev_expr(e);
		if (e->i < e->end && strcmp(e->t->v[e->i], ")") == 0)
			e->i++;
		else
			e->ok = 0;
		return v;
	}
	if (strcmp(s, "-") == 0) {
		v = ev_prim(e);
		if (v == LLONG_MIN)
			e->ok = 0, e->ovf = 1;
		return e->ok ? -v : 0;
	}
	if (strcmp(s, "+") == 0)
		return ev_prim(e);
	if (strcmp(s, "~") == 0)
		return ~ev_prim(e);
	if (isdigit((unsigned char)*s)) {
		char *end;
		errno = 0;
		v = strtoll(s, &end, 0);
		if (errno == ERANGE)
			e->ok = 0, e->ovf = 1;
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
			end++;
		if (*end != '\0')
			e->ok = 0;
		return v;
	}
	if (is_ident(s) && ev_name(e, s, &v))
		return v;
	e->ok = 0;
	return 0;
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
				e->ok = 0, e->ovf = 1;
		} else if (r == 0 || (v == LLONG_MIN && r == -1))
			e->ok = 0, e->ovf = 1;
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
			e->ok = 0, e->ovf = 1;
	}
	return e->ok ? v : 0;
}

static long long
ev_expr(struct ev *e)
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
			e->ok = 0, e->ovf = 1;
		else
			v = op[0] == '<' ? v << r : v >> r;
	}
	return e->ok ? v : 0;
}

/* Evaluate tokens [a, b); 1 and *v on success. */
int
eval_range(const struct toks *t, size_t a, size_t b, const struct consts *c,
    long long *v)
{
	struct ev e = { t, a, b, c, 1, NULL, 0 };

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
	struct ev e = { t, 0, t->n, c, 1, bind, 0 };

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
	size_t i, e;
	long long v, next;
	static const char *const semi[] = { ";", ",", NULL };
	static const char *const comma[] = { ",", "}", NULL };

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
	for (i = 0; i + 3 < t->n; i++) {
		/* enum X { A = 1, B, ... } */
		if (is(t, i, "enum")) {
			size_t j = i + 1;
			if (is(t, j, "class") || is(t, j, "struct"))
				j++;
			while (j < t->n && !is(t, j, "{") && !is(t, j, ";"))
				j++;
			if (!is(t, j, "{"))
				continue;
			next = 0;
			for (j++; j < t->n && !is(t, j, "}");) {
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
		/* [static] const[expr] int NAME = expr; */
		if ((is(t, i, "constexpr") || is(t, i, "const")) &&
		    (is(t, i + 1, "int") || is(t, i + 1, "unsigned") ||
		    is(t, i + 1, "long") || is(t, i + 1, "size_t")) &&
		    is_ident(t->v[i + 2]) && is(t, i + 3, "=")) {
			e = expr_end(t, i + 4, semi);
			if (eval_range(t, i + 4, e, c, &v))
				const_set(c, t->v[i + 2], v);
		}
	}
}
