/*
 * Boundary cases (man kwrap, "Boundary cases").  A mutant that turns
 * "<" into "<=" or "&&" into "||" changes the outcome only where the
 * compared values are equal, or where one operand of the connective
 * decides alone; uniform data in [-1, 1] and whole numbers in [0, 100]
 * are almost never equal to what the kernel compares them with.  Two
 * cases at most, cloned from the first and added after the switch
 * cases:
 *
 * "boundary": each value scalar compared with a constant takes that
 * constant ("if (k < 5)": k = 5) and one compared with another scalar
 * takes that scalar's value ("lo == hi", "idx < n"); each input buffer
 * of plain data (the default fill, not indices) whose element, or a
 * local loaded straight from one through casts or __ldg, is compared
 * with a constant or a scalar is filled with whole steps around that
 * value (c - 1, c, c + 1, a third of the elements exactly c: where "<"
 * and "<=" part), and two buffers compared with each other with the
 * same few values, so that ties happen ("x[i] < y[i]"); where the
 * kernel compares a computed value, a local declared floating, with
 * another local, a constant or a scalar ("d2 < best", "d2 == 0"), every
 * float input of plain data is drawn from -2 ... 2, so that computed
 * values tie or land on the constant (not where the kernel calls
 * atomicCAS, atomicExch, atomicMax or atomicMin: ties settled by the
 * threads' order would make the reference nondeterministic).
 *
 * "boundary_logic": the same data, and for each "A && B" or "A || B"
 * with an operand the spec decides (a scalar compared with a constant
 * or a scalar, or tested for truth), that operand is set so that it
 * does not mask the other (true beside "&&", false beside "||"): the
 * other operand alone decides the outcome, so that a swap of the
 * connective or of the other operand's comparison shows; where both
 * operands are scalars', they are set one true and one false, at the
 * compared value where that gives the truth wanted.  Added only where
 * it differs from "boundary".
 *
 * Sizes (the spec sizes a count or the grid with them) are never
 * moved, a scalar that divides or steps a loop is never set to zero or
 * less, an unsigned one never below zero, an integer one never past
 * 65536 in magnitude (a bound that long runs the reference out of
 * time).  The analysis is of the kernel's body, on tokens.
 */
#include <strings.h>

#include "kwrap.h"
#include "mtok.h"

#define MAX_PARAMS 64
#define MAX_VALUES 8
#define MAX_ALIASES 32
#define INT_LIMIT 65536.0

enum { A_NONE, A_NUM, A_SCALAR, A_BUF };

struct opnd {
	int kind;
	double num;		/* A_NUM */
	int p;			/* A_SCALAR, A_BUF: the parameter */
	size_t s, e;		/* its tokens [s, e) */
};

struct prm {
	const char *name;
	const struct k_dtype *dt;
	int scalar;		/* a scalar parameter with a number */
	int settable;		/* a value scalar, not a size */
	int positive;		/* divides or steps a loop */
	int buf;		/* an input of plain data */
	/* case 1: the boundary value of a settable scalar */
	int set;
	double v;
	/* a buffer: the constants (sc -1) and scalars it is compared
	 * with, in the order of the source */
	double num[MAX_VALUES];
	int sc[MAX_VALUES], nv, ties;
	int peer[MAX_VALUES], npeer;	/* buffers it is compared with */
};

struct bcmp {
	struct opnd l, r;
	char op[3];
};

struct bscan {
	const char *c;
	const struct mtoks *t;
	struct prm *p;
	int np;
	size_t alias[MAX_ALIASES];	/* token of a local loaded from a buffer */
	int alias_of[MAX_ALIASES], nalias;
	int alias_arr[MAX_ALIASES];	/* an array a load filled */
};

/* Token i binds tighter than a comparison or is one: an operand next to
 * it is part of a larger expression. */
static int
binds(const char *c, const struct mtoks *t, size_t i)
{
	static const char *const ops[] = { "+", "-", "*", "/", "%", "<<",
		">>", "&", "|", "^", ".", "->", "!", "~", "::", "[", "(", NULL };
	int k;

	if (i >= t->n)
		return 0;
	for (k = 0; ops[k] != NULL; k++)
		if (mt_is(c, t, i, ops[k]))
			return 1;
	return mt_is_cmp(c, t, i);
}

static int
tok_eq(const struct bscan *sc, size_t i, const char *w)
{
	return mt_is(sc->c, sc->t, i, w);
}

/* The parameter token i names, or -1. */
static int
param_at(const struct bscan *sc, size_t i)
{
	int k;

	if (i >= sc->t->n || sc->t->v[i].kind != M_ID)
		return -1;
	for (k = 0; k < sc->np; k++)
		if (tok_eq(sc, i, sc->p[k].name))
			return k;
	return -1;
}

/* A type word a cast names: float, int, T, scalar_t, ... */
static int
type_word(const struct bscan *sc, size_t i)
{
	static const char *const w[] = { "float", "double", "int", "long",
		"short", "char", "unsigned", "signed", "bool", "half", "T",
		"const", "__half", "__nv_bfloat16", NULL };
	const struct mtok *x;
	int k;

	if (i >= sc->t->n || sc->t->v[i].kind != M_ID)
		return 0;
	for (k = 0; w[k] != NULL; k++)
		if (tok_eq(sc, i, w[k]))
			return 1;
	x = &sc->t->v[i];
	return x->len > 2 && strncmp(sc->c + x->off + x->len - 2, "_t", 2) == 0;
}

/* A function that hands its argument on unchanged in value: a load or a
 * conversion. */
static int
passes_on(const struct bscan *sc, size_t i)
{
	return tok_eq(sc, i, "__ldg") || tok_eq(sc, i, "__half2float") ||
	    tok_eq(sc, i, "__bfloat162float") || tok_eq(sc, i, "float") ||
	    tok_eq(sc, i, "double") || tok_eq(sc, i, "T") ||
	    tok_eq(sc, i, "static_cast") || type_word(sc, i);
}

/*
 * The operand starting at token i: casts ("(int)", "T(...)",
 * "static_cast<T>(...)", "__ldg(&...)") around a number, a scalar
 * parameter, a buffer's element or a local loaded from a buffer.
 */
static int
atom_at(const struct bscan *sc, size_t i, size_t b, struct opnd *a)
{
	const char *c = sc->c;
	const struct mtoks *t = sc->t;
	size_t j;
	int close = 0, k;
	char buf[64], *end;

	memset(a, 0, sizeof(*a));
	a->s = i;
	for (;;) {
		if (i + 2 < b && tok_eq(sc, i, "(") && type_word(sc, i + 1)) {
			for (j = i + 1; j < b && type_word(sc, j); j++)
				;
			if (!tok_eq(sc, j, ")"))
				return 0;
			i = j + 1;
		} else if (i + 1 < b && tok_eq(sc, i, "static_cast") &&
		    tok_eq(sc, i + 1, "<")) {
			for (j = i + 2; j < b && !tok_eq(sc, j, ">"); j++)
				;
			if (!tok_eq(sc, j + 1, "("))
				return 0;
			i = j + 2;
			close++;
		} else if (i + 1 < b && passes_on(sc, i) &&
		    tok_eq(sc, i + 1, "(")) {
			i += 2;
			close++;
			if (tok_eq(sc, i, "&"))
				i++;
		} else
			break;
	}
	if (i >= b)
		return 0;
	if ((tok_eq(sc, i, "-") && i + 1 < b && t->v[i + 1].kind == M_NUM) ||
	    t->v[i].kind == M_NUM) {
		int neg = tok_eq(sc, i, "-");
		const struct mtok *x = &t->v[i + neg];
		if (x->len >= sizeof(buf))
			return 0;
		memcpy(buf, c + x->off, x->len);
		buf[x->len] = '\0';
		if (strncmp(buf, "0x", 2) == 0 || strncmp(buf, "0X", 2) == 0)
			a->num = (double)strtoll(buf, &end, 16);
		else
			a->num = strtod(buf, &end);
		if (strspn(end, "uUlLfF") != strlen(end))
			return 0;
		a->num = neg ? -a->num : a->num;
		a->kind = A_NUM;
		i += 1 + neg;
	} else if ((k = param_at(sc, i)) >= 0 && sc->p[k].buf &&
	    tok_eq(sc, i + 1, "[")) {
		a->kind = A_BUF;
		a->p = k;
		i = mt_close(c, t, i + 1) + 1;
	} else if (k >= 0 && sc->p[k].scalar && !tok_eq(sc, i + 1, "[") &&
	    !tok_eq(sc, i + 1, "(") && !tok_eq(sc, i + 1, ".") &&
	    !tok_eq(sc, i + 1, "->") && !tok_eq(sc, i + 1, "::")) {
		a->kind = A_SCALAR;
		a->p = k;
		i++;
	} else {
		for (k = 0; k < sc->nalias; k++)
			if (t->v[i].kind == M_ID && t->v[i].len ==
			    t->v[sc->alias[k]].len && strncmp(c + t->v[i].off,
			    c + t->v[sc->alias[k]].off, t->v[i].len) == 0)
				break;
		if (k >= sc->nalias)
			return 0;
		if (sc->alias_arr[k]) {
			/* arr[j], an element the load filled */
			if (i + 1 >= b || !tok_eq(sc, i + 1, "["))
				return 0;
			a->kind = A_BUF;
			a->p = sc->alias_of[k];
			i = mt_close(c, t, i + 1) + 1;
		} else {
			if (i + 1 < b && (tok_eq(sc, i + 1, "[") ||
			    tok_eq(sc, i + 1, "(") || tok_eq(sc, i + 1, ".")))
				return 0;
			a->kind = A_BUF;
			a->p = sc->alias_of[k];
			i++;
		}
	}
	for (; close > 0; close--, i++)
		if (!tok_eq(sc, i, ")"))
			return 0;
	a->e = i;
	return 1;
}

/* Nothing before token s binds an operand starting there into more. */
static int
starts(const struct bscan *sc, size_t s)
{
	if (s == 0)
		return 1;
	if (binds(sc->c, sc->t, s - 1) && !tok_eq(sc, s - 1, "("))
		return 0;
	return tok_eq(sc, s - 1, "return") || (sc->t->v[s - 1].kind ==
	    M_PUNCT && !tok_eq(sc, s - 1, ")") && !tok_eq(sc, s - 1, "]"));
}

/* Whether token i names a local array of [a, b): "T name[N];". */
static int
local_array(const struct bscan *sc, size_t a, size_t b, size_t i)
{
	const struct mtok *x = &sc->t->v[i];
	size_t j;

	if (x->kind != M_ID || param_at(sc, i) >= 0)
		return 0;
	for (j = a + 1; j + 1 < b; j++)
		if (j != i && sc->t->v[j].len == x->len && strncmp(sc->c +
		    sc->t->v[j].off, sc->c + x->off, x->len) == 0 &&
		    tok_eq(sc, j + 1, "[") && (type_word(sc, j - 1) ||
		    sc->t->v[j - 1].kind == M_ID) && !tok_eq(sc, j - 1,
		    "return") && tok_eq(sc, mt_close(sc->c, sc->t, j + 1) + 1,
		    ";"))
			return 1;
	return 0;
}

/* The buffer argument [s, e) of a call points into: "&x[i]", "&(x[i])",
 * "x + i", "x"; -1 when it is none. */
static int
into_buffer(const struct bscan *sc, size_t s, size_t e)
{
	int k;

	if (s < e && tok_eq(sc, s, "&")) {
		s++;
		if (s < e && tok_eq(sc, s, "("))
			s++;
		k = param_at(sc, s);
		return k >= 0 && sc->p[k].buf && tok_eq(sc, s + 1, "[") ? k : -1;
	}
	k = param_at(sc, s);
	if (k < 0 || !sc->p[k].buf)
		return -1;
	return s + 1 == e || tok_eq(sc, s + 1, "+") ? k : -1;
}

/* Whether the name [p, p + n) holds "load" in any case. */
static int
names_load(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i + 4 <= n; i++)
		if (strncasecmp(p + i, "load", 4) == 0)
			return 1;
	return 0;
}

/* A load that fills local arrays from one buffer: a call whose name
 * holds "load" (cub's BlockLoad::Load, a project's load_global) with one
 * argument into an input buffer and others that are local arrays,
 * "Load(tmp).Load(&(g[i]), g_vals, n)", "load_global<16>(d, x + o)":
 * each array's elements are the buffer's. */
static void
load_aliases(struct bscan *sc, size_t a, size_t b)
{
	const struct mtoks *t = sc->t;
	size_t i, j, close, s, arrs[8];
	int buf, nb, na, q;

	for (i = a + 1; i + 1 < b && sc->nalias < MAX_ALIASES; i++) {
		size_t f = i;
		if (!tok_eq(sc, i, "("))
			continue;
		/* the callee's name, past template arguments */
		if (f > a && tok_eq(sc, f - 1, ">")) {
			int d = 0;
			for (f = f - 1; f > a; f--) {
				d += tok_eq(sc, f, ">") - tok_eq(sc, f, "<");
				if (d == 0)
					break;
			}
		}
		if (f <= a || t->v[f - 1].kind != M_ID ||
		    !names_load(sc->c + t->v[f - 1].off, t->v[f - 1].len))
			continue;
		close = mt_close(sc->c, t, i);
		if (close >= b)
			continue;
		buf = -1;
		nb = na = 0;
		for (s = i + 1; s < close; s = j + 1) {
			int d = 0;
			for (j = s; j < close; j++) {
				if (tok_eq(sc, j, "(") || tok_eq(sc, j, "["))
					d++;
				else if (tok_eq(sc, j, ")") || tok_eq(sc, j, "]"))
					d--;
				else if (d == 0 && tok_eq(sc, j, ","))
					break;
			}
			if ((q = into_buffer(sc, s, j)) >= 0) {
				buf = q;
				nb++;
			} else if (j == s + 1 && na < 8 &&
			    local_array(sc, a, b, s))
				arrs[na++] = s;
		}
		for (q = 0; nb == 1 && q < na && sc->nalias < MAX_ALIASES;
		    q++) {
			sc->alias[sc->nalias] = arrs[q];
			sc->alias_arr[sc->nalias] = 1;
			sc->alias_of[sc->nalias++] = buf;
		}
	}
}

/* Locals loaded straight from a buffer: "T v = (T)x[i];", and arrays a
 * load fills. */
static void
find_aliases(struct bscan *sc, size_t a, size_t b)
{
	struct opnd x;
	size_t i;

	for (i = a + 1; i + 1 < b && sc->nalias < MAX_ALIASES; i++)
		if (tok_eq(sc, i, "=") && sc->t->v[i - 1].kind == M_ID &&
		    param_at(sc, i - 1) < 0 && atom_at(sc, i + 1, b, &x) &&
		    x.kind == A_BUF && tok_eq(sc, x.e, ";")) {
			sc->alias_arr[sc->nalias] = 0;
			sc->alias[sc->nalias] = i - 1;
			sc->alias_of[sc->nalias++] = x.p;
		}
	load_aliases(sc, a, b);
}

/* The comparisons of [a, b) between two atoms. */
static size_t
find_cmps(struct bscan *sc, size_t a, size_t b, struct bcmp *out, size_t max)
{
	size_t i, n = 0;
	struct bcmp m;

	for (i = a; i < b && n < max; i++) {
		if (!starts(sc, i) || !atom_at(sc, i, b, &m.l) ||
		    !mt_is_cmp(sc->c, sc->t, m.l.e) ||
		    !atom_at(sc, m.l.e + 1, b, &m.r) ||
		    binds(sc->c, sc->t, m.r.e) ||
		    (m.l.kind == A_NUM && m.r.kind == A_NUM))
			continue;
		snprintf(m.op, sizeof(m.op), "%.*s", (int)sc->t->v[m.l.e].len,
		    sc->c + sc->t->v[m.l.e].off);
		out[n++] = m;
		i = m.r.e - 1;
	}
	return n;
}

/* The scalar's value in case cs, or NAN. */
static double
value_in(json_t *cs, const char *name)
{
	json_t *v = json_object_get(json_object_get(cs, "scalars"), name);

	if (json_is_boolean(v))
		return json_is_true(v) ? 1 : 0;
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Whether v may be given to scalar p. */
static int
fits(const struct prm *p, double v)
{
	if (!p->settable || isnan(v))
		return 0;
	if (strcmp(p->dt->name, "bool") == 0)
		return v == 0 || v == 1;
	if (p->positive && v <= 0)
		return 0;
	if (!p->dt->is_float && (v != floor(v) || fabs(v) > INT_LIMIT ||
	    (!p->dt->is_signed && v < 0)))
		return 0;
	return 1;
}

static void
set_scalar(json_t *cs, const struct prm *p, double v)
{
	json_t *sc = json_object_get(cs, "scalars");

	json_object_set_new(sc, p->name, strcmp(p->dt->name, "bool") == 0 ?
	    json_boolean(v != 0) : p->dt->is_float ? json_real(v) :
	    json_integer((json_int_t)v));
}

/* Buffer p is compared with constant v (k -1) or scalar k. */
static void
note_value(struct prm *p, double v, int k)
{
	int i;

	for (i = 0; i < p->nv; i++)
		if (p->sc[i] == k && (k >= 0 || p->num[i] == v))
			return;
	if (p->nv < MAX_VALUES) {
		p->num[p->nv] = v;
		p->sc[p->nv++] = k;
	}
}


static void
note_peer(struct prm *p, int k)
{
	p->ties = 1;
	if (p->npeer < MAX_VALUES)
		p->peer[p->npeer++] = k;
}

/* The values buffer p is compared with, scalars at their values in cs,
 * into v; how many. */
static int
values_of(const struct bscan *sc, const struct prm *p, json_t *cs,
    double *v)
{
	int n = 0, i;
	double x;

	for (i = 0; i < p->nv; i++)
		if (!isnan(x = p->sc[i] < 0 ? p->num[i] : value_in(cs,
		    sc->p[p->sc[i]].name)))
			v[n++] = x;
	return n;
}

static json_t *
number(double v)
{
	return v == floor(v) && fabs(v) < 1e15 ? json_integer((json_int_t)v) :
	    json_real(v);
}

/*
 * Case cs's fill of buffer p: whole steps from one below to one above
 * the first value it is compared with in the source (the last, with
 * last), and those a whole number of steps from it, at most four away,
 * so that a third or more of the
 * elements lie exactly on a compared value; compared with another
 * buffer alone, that buffer's fill or -2 ... 2, so that ties happen.
 * NULL where there is nothing to fill.
 */
static json_t *
boundary_fill(const struct bscan *sc, const struct prm *p, json_t *cs,
    int last)
{
	double v[2 * MAX_VALUES], c, lo, hi;
	int n, i;

	n = values_of(sc, p, cs, v);
	for (i = 0; n == 0 && i < p->npeer; i++)
		n = values_of(sc, &sc->p[p->peer[i]], cs, v);
	if (n == 0 && !p->ties)
		return NULL;
	if (n == 0)
		lo = -2, hi = 2;
	else {
		c = v[last ? n - 1 : 0];
		c = p->dt->is_float ? c : floor(c);
		lo = hi = c;
		for (i = 0; i < n; i++)
			if (fabs(v[i] - c) <= 4 && v[i] - c == floor(v[i] - c)) {
				lo = fmin(lo, v[i]);
				hi = fmax(hi, v[i]);
			}
		lo -= 1;
		hi += 1;
	}
	if (!p->dt->is_signed && lo < 0) {
		hi = fmax(hi - lo, 2);
		lo = 0;
	}
	if (fabs(lo) > 1e15 || fabs(hi) > 1e15 || isnan(lo) || isnan(hi))
		return NULL;
	return json_pack("{s:s,s:o,s:o}", "kind", "int", "lo", number(lo),
	    "hi", number(hi));
}

/* Scalar p divides or steps a loop somewhere in the slice: "/ n", "% n",
 * "/ (float)n", "i += n)". */
static int
positive(const struct bscan *sc, const struct prm *p)
{
	size_t i;

	for (i = 1; i < sc->t->n; i++) {
		if (!tok_eq(sc, i, p->name))
			continue;
		if (tok_eq(sc, i - 1, "/") || tok_eq(sc, i - 1, "%") ||
		    tok_eq(sc, i - 1, "/=") || tok_eq(sc, i - 1, "%=") ||
		    ((tok_eq(sc, i - 1, "+=") || tok_eq(sc, i - 1, "-=")) &&
		    tok_eq(sc, i + 1, ")")))
			return 1;
		if (i >= 4 && tok_eq(sc, i - 1, ")") && type_word(sc, i - 2) &&
		    tok_eq(sc, i - 3, "(") && (tok_eq(sc, i - 4, "/") ||
		    tok_eq(sc, i - 4, "%")))
			return 1;
	}
	return 0;
}

/* The value for the scalar of "var OP r" (var on the left when left)
 * that gives the comparison truth value want: r itself where it does. */
static double
value_for(const char *op, int left, double r, int want)
{
	char o[3];
	int bt;

	snprintf(o, sizeof(o), "%s", op);
	if (!left && o[0] == '<')
		o[0] = '>';
	else if (!left && o[0] == '>')
		o[0] = '<';
	bt = strcmp(o, "<=") == 0 || strcmp(o, ">=") == 0 ||
	    strcmp(o, "==") == 0;
	if (want == bt)
		return r;
	if (strcmp(o, "<") == 0 || strcmp(o, ">=") == 0)
		return r - 1;
	return r + 1;
}

/* The end of the operand of a connective: backward (dir -1) or forward
 * from token i, at depth 0, to a token that ends an expression; the
 * operand is [*s, *e). */
static void
operand(const struct bscan *sc, size_t i, size_t a, size_t b, int dir,
    size_t *s, size_t *e)
{
	static const char *const stop[] = { "&&", "||", "?", ":", ",", ";",
		"{", "}", "=", "return", NULL };
	size_t j = i;
	int d = 0, k, end = 0;

	for (; !end; j += (size_t)dir) {
		if ((dir < 0 && j <= a) || (dir > 0 && j + 1 >= b))
			break;
		size_t n = j + (size_t)dir;
		if (tok_eq(sc, n, dir > 0 ? "(" : ")") ||
		    tok_eq(sc, n, dir > 0 ? "[" : "]"))
			d++;
		else if (tok_eq(sc, n, dir > 0 ? ")" : "(") ||
		    tok_eq(sc, n, dir > 0 ? "]" : "[")) {
			if (d-- == 0)
				break;
		} else if (d == 0)
			for (k = 0; stop[k] != NULL; k++)
				if (tok_eq(sc, n, stop[k]))
					end = 1;
		if (end)
			break;
	}
	if (dir < 0) {
		*s = j;
		*e = i;
	} else {
		*s = i + 1;
		*e = j + 1;
	}
}

/*
 * The operand [s, e) as one the spec decides: a comparison of a value
 * scalar with a constant or another scalar (*cm), or a value scalar
 * tested for truth, alone or after "!" (*neg).  The scalar in *var;
 * 0 when the operand is none of these.
 */
static int
decided(const struct bscan *sc, const struct bcmp *cm, size_t ncm, size_t s,
    size_t e, const struct bcmp **m, int *var, int *neg)
{
	size_t i;
	int k;

	while (e > s + 2 && tok_eq(sc, s, "(") &&
	    mt_close(sc->c, sc->t, s) == e - 1)
		s++, e--;
	*m = NULL;
	*neg = 0;
	for (i = 0; i < ncm; i++) {
		if (cm[i].l.s != s || cm[i].r.e != e)
			continue;
		if (cm[i].l.kind == A_SCALAR && sc->p[cm[i].l.p].settable &&
		    (cm[i].r.kind == A_NUM || cm[i].r.kind == A_SCALAR))
			*var = cm[i].l.p;
		else if (cm[i].r.kind == A_SCALAR &&
		    sc->p[cm[i].r.p].settable && (cm[i].l.kind == A_NUM ||
		    cm[i].l.kind == A_SCALAR))
			*var = cm[i].r.p;
		else
			return 0;
		*m = &cm[i];
		return 1;
	}
	if (e == s + 2 && tok_eq(sc, s, "!")) {
		*neg = 1;
		s++;
	}
	if (e != s + 1 || (k = param_at(sc, s)) < 0 || !sc->p[k].settable)
		return 0;
	*var = k;
	return 1;
}

/* Give operand's scalar the value that makes it want; 0 where it cannot
 * (already set here, or the value does not fit). */
static int
decide(const struct bscan *sc, json_t *cs, const struct bcmp *m, int var,
    int neg, int want, int *done)
{
	double r, v;
	int left;

	if (done[var])
		return 0;
	if (m == NULL)
		v = want != neg;
	else {
		left = m->l.kind == A_SCALAR && m->l.p == var;
		const struct opnd *o = left ? &m->r : &m->l;
		r = o->kind == A_NUM ? o->num : value_in(cs,
		    sc->p[o->p].name);
		if (isnan(r) || (o->kind == A_SCALAR && o->p == var))
			return 0;
		v = value_for(m->op, left, r, want);
	}
	if (!fits(&sc->p[var], v))
		return 0;
	set_scalar(cs, &sc->p[var], v);
	done[var] = 1;
	return 1;
}

/* Whether the local at token i is declared in [a, b) with a floating
 * type: float, double, half, T, scalar_t and other "_t" types but the
 * integers'. */
static int
float_local(const struct bscan *sc, size_t i, size_t a, size_t b)
{
	static const char *const fl[] = { "float", "double", "half", "__half",
		"__nv_bfloat16", "T", NULL };
	const struct mtok *x = &sc->t->v[i], *y;
	size_t j;
	int k;

	for (j = a + 1; j < b; j++) {
		size_t d = j - 1;
		if (j == i || sc->t->v[j].len != x->len || strncmp(sc->c +
		    sc->t->v[j].off, sc->c + x->off, x->len) != 0)
			continue;
		/* a list: "T *p, val, maxval;" */
		while (d > a + 1 && tok_eq(sc, d, ",") && (sc->t->v[d - 1].kind ==
		    M_ID || tok_eq(sc, d - 1, "*"))) {
			for (d--; d > a + 1 && (sc->t->v[d].kind == M_ID ||
			    tok_eq(sc, d, "*")) && !type_word(sc, d); d--)
				;
		}
		if (sc->t->v[d].kind != M_ID)
			continue;
		for (k = 0; fl[k] != NULL; k++)
			if (tok_eq(sc, d, fl[k]))
				return 1;
		y = &sc->t->v[d];
		if (y->len > 2 && strncmp(sc->c + y->off + y->len - 2, "_t",
		    2) == 0 && strncmp(sc->c + y->off, "int", 3) != 0 &&
		    strncmp(sc->c + y->off, "uint", 4) != 0 &&
		    strncmp(sc->c + y->off, "size", 4) != 0 &&
		    strncmp(sc->c + y->off, "index", 5) != 0 &&
		    strncmp(sc->c + y->off, "ptrdiff", 7) != 0)
			return 1;
	}
	return 0;
}

/* Token j is a local: an identifier that names no parameter, no type,
 * no member. */
static int
local_at(const struct bscan *sc, size_t j)
{
	return j < sc->t->n && sc->t->v[j].kind == M_ID &&
	    param_at(sc, j) < 0 && !type_word(sc, j) && !passes_on(sc, j) &&
	    !tok_eq(sc, j - 1, ".") && !tok_eq(sc, j - 1, "->") &&
	    !tok_eq(sc, j - 1, "::") && !tok_eq(sc, j + 1, "(") &&
	    !tok_eq(sc, j + 1, "[") && !tok_eq(sc, j + 1, ".") &&
	    !tok_eq(sc, j + 1, "->") && !tok_eq(sc, j + 1, "::");
}

/*
 * Whether the body [a, b) compares a computed value, a local declared
 * floating, with another local, a constant or a scalar ("d2 < best",
 * "val > maxval", "d2 == 0", "h_im > -1"), outside a for loop's header:
 * where inputs on a grid of whole numbers make such values tie or land
 * on the constant (sums, differences and products of small whole
 * numbers are exact).
 */
static int
compares_locals(const struct bscan *sc, size_t a, size_t b)
{
	size_t i, hdr = 0, r;
	int k;

	/* ties that an atomic settles (an argmax through atomicCAS or
	 * atomicMax) settle by the threads' order: a reference that is no
	 * longer deterministic */
	for (i = a; i < b; i++)
		if (tok_eq(sc, i, "atomicCAS") || tok_eq(sc, i, "atomicExch") ||
		    tok_eq(sc, i, "atomicMax") || tok_eq(sc, i, "atomicMin"))
			return 0;
	for (i = a + 1; i + 1 < b; i++) {
		if (tok_eq(sc, i, "for") && tok_eq(sc, i + 1, "("))
			hdr = mt_close(sc->c, sc->t, i + 1);
		if (i < hdr || !mt_is_cmp(sc->c, sc->t, i) ||
		    tok_eq(sc, i - 2, "template"))
			continue;
		r = i + 1 + tok_eq(sc, i + 1, "-");
		if (binds(sc->c, sc->t, r + 1) || (i >= a + 2 &&
		    binds(sc->c, sc->t, i - 2) && !tok_eq(sc, i - 2, "(") &&
		    !tok_eq(sc, i - 2, "!")))
			continue;
		if (local_at(sc, i - 1) && float_local(sc, i - 1, a, b) &&
		    (local_at(sc, r) || sc->t->v[r].kind == M_NUM ||
		    ((k = param_at(sc, r)) >= 0 && sc->p[k].scalar)))
			return 1;
		if (r == i + 1 && local_at(sc, r) && float_local(sc, r, a, b) &&
		    (local_at(sc, i - 1) || sc->t->v[i - 1].kind == M_NUM ||
		    ((k = param_at(sc, i - 1)) >= 0 && sc->p[k].scalar)))
			return 1;
	}
	return 0;
}

/* Whether cases already holds a case with cs's scalars and fills. */
static int
held(json_t *cases, json_t *cs)
{
	json_t *x;
	size_t i;

	json_array_foreach(cases, i, x)
		if (json_equal(json_object_get(x, "scalars"),
		    json_object_get(cs, "scalars")) &&
		    ((json_object_get(x, "fills") == NULL &&
		    json_object_get(cs, "fills") == NULL) ||
		    json_equal(json_object_get(x, "fills"),
		    json_object_get(cs, "fills"))))
			return 1;
	return 0;
}

/* Fill every buffer compared with something, in case cs, as
 * boundary_fill says; how many. */
static int
fill_all(const struct bscan *sc, json_t *cs, int last)
{
	json_t *f = json_object_get(cs, "fills"), *x;
	int k, n = 0;

	for (k = 0; k < sc->np; k++) {
		if (!sc->p[k].buf || (x = boundary_fill(sc, &sc->p[k],
		    cs, last)) == NULL)
			continue;
		if (!json_is_object(f)) {
			f = json_object();
			json_object_set_new(cs, "fills", f);
		}
		json_object_set_new(f, sc->p[k].name, x);
		n++;
	}
	return n;
}

void
kw_boundary_cases(const char *code, const char *kernel, json_t *spec,
    int budget)
{
	json_t *cases = json_object_get(spec, "cases"), *base, *c1, *c2, *q;
	struct mtoks t = { 0 };
	struct prm p[MAX_PARAMS];
	struct bscan sc;
	struct bcmp cm[256];
	size_t a, b, i, ncm, ls, le, rs, re;
	json_int_t seed = 0;
	int k, np = 0, changed = 0, done[MAX_PARAMS] = { 0 };

	if (!kw_case_start(code, kernel, cases, budget, &t, &a, &b, &base,
	    &seed))
		return;
	memset(p, 0, sizeof(p));
	memset(&sc, 0, sizeof(sc));
	sc.c = code;
	sc.t = &t;
	sc.p = p;
	json_array_foreach(json_object_get(spec, "params"), i, q) {
		const char *role = k_get_str(q, "role");
		const char *use = k_get_str(q, "use");
		const char *fk = k_get_str(json_object_get(q, "fill"), "kind");
		json_t *f = json_object_get(q, "fill");
		if (np >= MAX_PARAMS)
			break;
		p[np].name = k_get_str(q, "name");
		p[np].dt = k_dtype_named(k_get_str(q, "dtype"));
		if (p[np].name == NULL || role == NULL || p[np].dt == NULL)
			continue;
		if (strcmp(role, "scalar") == 0) {
			p[np].scalar = !isnan(value_in(base, p[np].name));
			p[np].settable = p[np].scalar && use != NULL &&
			    strcmp(use, "value") == 0;
		} else if ((strcmp(role, "in") == 0 ||
		    strcmp(role, "inout") == 0) && fk != NULL &&
		    strcmp(p[np].dt->name, "bool") != 0 &&
		    json_object_get(json_object_get(base, "fills"),
		    p[np].name) == NULL) {
			/* plain data: the default fill, not indices or
			 * values that index (an inout's too: what it
			 * starts as is data the kernel reads) */
			double lo = json_number_value(json_object_get(f, "lo"));
			double hi = json_number_value(json_object_get(f, "hi"));
			p[np].buf = p[np].dt->is_float ?
			    strcmp(fk, "uniform") == 0 && lo == -1 && hi == 1 :
			    strcmp(fk, "int") == 0 && lo == 0 && hi == 100;
		}
		np++;
	}
	sc.np = np;
	/* computed values compared: every float input of plain data on
	 * the grid, so that they tie */
	if (compares_locals(&sc, a, b))
		for (k = 0; k < np; k++)
			p[k].ties |= p[k].buf && p[k].dt->is_float;
	for (k = 0; k < np; k++)
		p[k].positive = p[k].settable && positive(&sc, &p[k]);
	find_aliases(&sc, a, b);
	ncm = find_cmps(&sc, a, b, cm, sizeof(cm) / sizeof(cm[0]));
	for (i = 0; i < ncm; i++) {
		struct opnd *l = &cm[i].l, *r = &cm[i].r, *x;
		for (k = 0; k < 2; k++, x = l, l = r, r = x) {
			struct prm *pl = &p[l->p];
			double v;
			/* two scalars: the first that can move takes
			 * the other's value */
			if (l->kind == A_SCALAR && pl->settable && !pl->set &&
			    (r->kind == A_NUM || (r->kind == A_SCALAR &&
			    r->p != l->p && !p[r->p].set)) && fits(pl,
			    v = r->kind == A_NUM ? r->num :
			    value_in(base, p[r->p].name))) {
				pl->set = 1;
				pl->v = v;
				if (r->kind == A_SCALAR)
					break;
			}
			if (l->kind == A_BUF && r->kind == A_NUM)
				note_value(pl, r->num, -1);
			else if (l->kind == A_BUF && r->kind == A_SCALAR)
				note_value(pl, 0, r->p);
			else if (l->kind == A_BUF && r->kind == A_BUF)
				note_peer(pl, r->p);
		}
	}
	/* case 1: scalars at their compared values, data around them */
	c1 = json_deep_copy(base);
	json_object_set_new(c1, "name", json_string("boundary"));
	json_object_set_new(c1, "seed", json_integer(seed++));
	for (k = 0; k < np; k++)
		if (p[k].set && value_in(c1, p[k].name) != p[k].v) {
			set_scalar(c1, &p[k], p[k].v);
			changed++;
		}
	changed += fill_all(&sc, c1, 0);
	/* case 2: each operand the spec decides does not mask the other */
	c2 = json_deep_copy(c1);
	json_object_set_new(c2, "name", json_string("boundary_logic"));
	for (i = a; i < b; i++) {
		const struct bcmp *ml, *mr;
		int and = tok_eq(&sc, i, "&&"), vl, vr, nl, nr, dl, dr;
		if (!and && !tok_eq(&sc, i, "||"))
			continue;
		operand(&sc, i, a, b, -1, &ls, &le);
		operand(&sc, i, a, b, 1, &rs, &re);
		dl = decided(&sc, cm, ncm, ls, le, &ml, &vl, &nl);
		dr = decided(&sc, cm, ncm, rs, re, &mr, &vr, &nr);
		/* beside "&&" true, beside "||" false: the other decides;
		 * both the spec's: one true, the other false */
		if (dl)
			decide(&sc, c2, ml, vl, nl, and, done);
		if (dr)
			decide(&sc, c2, mr, vr, nr, dl ? !and : and, done);
	}
	fill_all(&sc, c2, 1);
	if (changed > 0 && budget > 0 && !held(cases, c1)) {
		json_array_append(cases, c1);
		budget--;
	}
	if (budget > 0 && !json_equal(json_object_get(c1, "scalars"),
	    json_object_get(c2, "scalars")) && !held(cases, c2)) {
		if (changed == 0)
			json_object_set_new(c2, "seed", json_integer(seed - 1));
		else
			json_object_set_new(c2, "seed", json_integer(seed));
		json_array_append(cases, c2);
	}
	json_decref(c1);
	json_decref(c2);
	free(t.v);
}
