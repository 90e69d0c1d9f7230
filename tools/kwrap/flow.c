/*
 * kwrap: flow facts of the kernel or a helper: assignments, declarations,
 * guards and loops.
 */
#include "kwrap.h"

void
fn_free(struct fn *f)
{
	free(f->as);
	free(f->g);
	free(f->m);
	free(f->l);
	free(f->dc);
	free(f->dead);
	free(f->ifs);
	free(f->oc);
	free(f->bind);
	free(f->pn);
	free(f->pptr);
	free(f->pint);
	free(f->psz);
	consts_free(&f->tc);
	free(f);
}

/* s without its spaces: "c10 :: Half" is c10::Half */
static void
squeeze(char *s)
{
	char *d = s;

	do
		if (*s != ' ')
			*d++ = *s;
	while (*s++ != '\0');
}

/* Room in f's parameter arrays for parameter f->np, zeroed. */
static void
fn_room(struct fn *f)
{
	int n = f->np, c = f->cp;

	if (n < f->cp)
		return;
	f->pn = grow(f->pn, &c, n, sizeof(*f->pn));
	c = f->cp;
	f->pptr = grow(f->pptr, &c, n, sizeof(*f->pptr));
	c = f->cp;
	f->pint = grow(f->pint, &c, n, sizeof(*f->pint));
	c = f->cp;
	f->psz = grow(f->psz, &c, n, sizeof(*f->psz));
	memset(f->psz + n, 0, (size_t)(c - n) * sizeof(*f->psz));
	memset(f->pn + n, 0, (size_t)(c - n) * sizeof(*f->pn));
	memset(f->pptr + n, 0, (size_t)(c - n) * sizeof(*f->pptr));
	memset(f->pint + n, 0, (size_t)(c - n) * sizeof(*f->pint));
	f->cp = c;
}

int
fn_param(const struct fn *f, const char *name)
{
	int i;

	for (i = 0; i < f->np; i++)
		if (strcmp(f->pn[i], name) == 0)
			return i;
	return -1;
}

int
is_keyword(const char *s)
{
	static const char *const kw[] = { "if", "for", "while", "do", "switch",
	    "return", "else", "case", "sizeof", "new", "delete", NULL };
	int i;

	for (i = 0; kw[i] != NULL; i++)
		if (strcmp(s, kw[i]) == 0)
			return 1;
	return 0;
}

/* Whether the operator at j is unary (what is before it ends no operand):
 * also after the ) of a statement's condition, if (c) *p = v. */
int
unary_at(const struct toks *t, size_t j)
{
	const char *s;
	size_t o;
	int depth = 0;

	if (j == 0)
		return 1;
	s = t->v[j - 1];
	if (strcmp(s, ")") == 0) {
		for (o = j - 1; o > 0; o--) {
			if (is(t, o, ")"))
				depth++;
			else if (is(t, o, "(") && --depth == 0)
				break;
		}
		return o > 0 && depth == 0 && (is(t, o - 1, "if") ||
		    is(t, o - 1, "while") || is(t, o - 1, "for") ||
		    is(t, o - 1, "switch"));
	}
	return !(is_ident(s) && !is_keyword(s)) && !isdigit((unsigned char)*s) &&
	    strcmp(s, "]") != 0;
}

/* The ( of the call whose argument list holds token s at depth 0, the
 * commas before s counted into *argi; 0 when s is in no call's arguments
 * after token lo. */
size_t
call_open(const struct toks *t, size_t lo, size_t s, int *argi)
{
	size_t j;
	int depth = 0;

	*argi = 0;
	if (s == 0)
		return 0;
	for (j = s - 1;; j--) {
		if (is(t, j, ")") || is(t, j, "]"))
			depth++;
		else if (is(t, j, "(") || is(t, j, "[")) {
			if (depth-- == 0)
				break;
		} else if (depth == 0 && is(t, j, ","))
			(*argi)++;
		if (j <= lo)
			break;
	}
	if (is(t, j, "(") && j > 0 && is_ident(t->v[j - 1]))
		return j;
	if (is(t, j, "(") && j > 1 && is(t, j - 1, ">") &&
	    call_name(t, j) != NULL)
		return j;	/* f<T, 4>(...) */
	return 0;
}

/* The name of the function whose call opens at open (its parenthesis),
 * f( or f<T, 4>(, its template arguments at [*ta, *tb) when given; NULL
 * when the token before open ends no name. */
const char *
call_name_args(const struct toks *t, size_t open, size_t *ta, size_t *tb)
{
	size_t j;
	int depth = 0;

	if (ta != NULL)
		*ta = *tb = 0;
	if (open == 0)
		return NULL;
	if (is_ident(t->v[open - 1]))
		return is_keyword(t->v[open - 1]) ? NULL : t->v[open - 1];
	if (!is(t, open - 1, ">"))
		return NULL;
	for (j = open - 1; j > 0; j--) {
		if (is(t, j, ">"))
			depth++;
		else if (is(t, j, "<") && --depth == 0)
			break;
		else if (is(t, j, ";") || is(t, j, "{") || is(t, j, "}") ||
		    is(t, j, "&&") || is(t, j, "||"))
			return NULL;	/* a < b && c > (d) compares */
	}
	if (j == 0 || !is_ident(t->v[j - 1]) || is_keyword(t->v[j - 1]) ||
	    angle_end(t, j) != open)
		return NULL;
	if (ta != NULL) {
		*ta = j + 1;
		*tb = open - 1;
	}
	return t->v[j - 1];
}

const char *
call_name(const struct toks *t, size_t open)
{
	return call_name_args(t, open, NULL, NULL);
}

/* End (exclusive) of the statement at i. */
size_t
stmt_end(const struct toks *t, size_t i, size_t lim)
{
	static const char *const semi[] = { ";", NULL };
	size_t j;

	if (i >= lim)
		return lim;
	if (is(t, i, "{"))
		return skip_group(t, i);
	if (is(t, i, "if") && is(t, i + 1, "(")) {
		j = stmt_end(t, skip_group(t, i + 1), lim);
		if (is(t, j, "else"))
			j = stmt_end(t, j + 1, lim);
		return j;
	}
	if ((is(t, i, "for") || is(t, i, "while") || is(t, i, "switch") ||
	    (i < t->n && loop_macro_known(t->v[i]))) && is(t, i + 1, "("))
		return stmt_end(t, skip_group(t, i + 1), lim);
	if (is(t, i, "do")) {
		j = stmt_end(t, i + 1, lim);
		if (is(t, j, "while") && is(t, j + 1, "("))
			j = skip_group(t, j + 1);
		return is(t, j, ";") ? j + 1 : j;
	}
	j = expr_end(t, i, semi);
	return j < lim ? j + 1 : lim;
}

/* Whether statement [s, e) always leaves the code after it. */
int
stmt_exits(const struct toks *t, size_t s, size_t e)
{
	size_t j, last = s;

	if (is(t, s, "{")) {
		if (e < s + 2)
			return 0;
		for (j = s + 1; j < e - 1; j = stmt_end(t, j, e - 1))
			last = j;
		if (last == s)
			return 0;
		s = last;
	}
	return is(t, s, "return") || is(t, s, "continue") || is(t, s, "break");
}

/* The closing brace of the block holding pos. */
size_t
block_end(const struct fn *f, size_t pos)
{
	const struct toks *t = f->t;
	size_t j;
	int depth = 0;

	for (j = pos; j-- > f->a;) {
		if (is(t, j, "}"))
			depth++;
		else if (is(t, j, "{") && depth-- == 0)
			return skip_group(t, j) - 1;
	}
	return f->b;
}

static int int_expr(const struct fn *f, size_t a, size_t b);

/* Whether name is declared with an integer type in f (for strictness:
 * i < n gives i <= n - 1 only when i is an integer); auto name = e
 * where e is an integer expression (auto i = blockIdx.y) is one. */
int
int_var(const struct fn *f, const char *name)
{
	static const char *const stop[] = { ";", ",", NULL };
	static int depth;
	const struct toks *t = f->t;
	const struct k_dtype *dt;
	size_t i;
	int p, r;

	if ((p = fn_param(f, name)) >= 0)
		return f->pint[p];
	for (i = f->a; i < f->b; i++) {
		size_t j, k;
		int d = 0;
		if (!is(t, i, name) || i == 0 || !(is(t, i + 1, "=") ||
		    is(t, i + 1, ";") || is(t, i + 1, ",") || is(t, i + 1, "[") ||
		    is(t, i + 1, ":")))
			continue;
		if (is_ident(t->v[i - 1]) && (dt = k_dtype_c(t->v[i - 1])) !=
		    NULL && !dt->is_float)
			return 1;
		if (is(t, i - 1, "auto") && is(t, i + 1, "=") && depth < 4) {
			depth++;
			r = int_expr(f, i + 2, expr_end(t, i + 2, stop));
			depth--;
			if (r)
				return 1;
			continue;
		}
		if (!is(t, i - 1, ","))
			continue;
		/* int a = 0, name = ...: the statement's type, the comma
		 * at its top level */
		for (j = i - 1; j > f->a; j--) {
			if (is(t, j, ")") || is(t, j, "]"))
				d++;
			else if (is(t, j, "(") || is(t, j, "[")) {
				if (d-- == 0)
					break;
			} else if (d == 0 && (is(t, j, ";") || is(t, j, "{") ||
			    is(t, j, "}")))
				break;
		}
		if (d < 0 && !(j > 0 && is(t, j - 1, "for")))
			continue;
		if (is(t, j, ";") || is(t, j, "{") || is(t, j, "}") ||
		    is(t, j, "("))
			j++;
		for (; j < i && (is(t, j, "const") || is(t, j, "static") ||
		    is(t, j, "register")); j++)
			;
		/* integer type words (unsigned int, long long), then the
		 * first declarator's name */
		for (k = j; k < i && is_ident(t->v[k]) && (dt =
		    k_dtype_c(t->v[k])) != NULL && !dt->is_float; k++)
			;
		if (k > j && k < i && is_ident(t->v[k]) &&
		    k_dtype_c(t->v[k]) == NULL)
			return 1;
	}
	return 0;
}

static void
add_guard(struct fn *f, const char *name, int hi, int strict, size_t a,
    size_t b, size_t s, size_t e)
{
	struct guard *g;

	if (s >= e || b <= a || strlen(name) >= sizeof(g->name))
		return;
	f->g = grow(f->g, &f->cg, f->ng, sizeof(*f->g));
	g = &f->g[f->ng++];
	memset(g, 0, sizeof(*g));
	copy(g->name, sizeof(g->name), name);
	g->hi = hi;
	g->strict = strict && int_var(f, name);
	g->a = a;
	g->b = b;
	g->s = s;
	g->e = e;
}

/* Whether [a, b) is an integer expression of names kwrap knows to be
 * integers (declared so, the launch's indices, the slice's constants),
 * integer literals and integer operators: "i < n" gives i <= n - 1 only
 * for integers. */
static int
int_expr(const struct fn *f, size_t a, size_t b)
{
	static const char *const ops[] = { "+", "-", "*", "/", "%", "(", ")",
		"<<", ">>", "&", "|", "^", NULL };
	static const char *const launch[] = { "threadIdx", "blockIdx",
		"blockDim", "gridDim", NULL };
	const struct toks *t = f->t;
	size_t i;
	long long v;
	int k;

	for (i = a; i < b; i++) {
		const char *o = t->v[i];
		if (isdigit((unsigned char)*o)) {
			if (strpbrk(o, ".eEfF") != NULL && strncmp(o, "0x", 2) != 0)
				return 0;
			continue;
		}
		if (is_ident(o)) {
			for (k = 0; launch[k] != NULL; k++)
				if (strcmp(o, launch[k]) == 0)
					break;
			if (launch[k] != NULL && is(t, i + 1, ".") && i + 2 < b) {
				i += 2;
				continue;
			}
			if (!int_var(f, o) && !const_get(&f->k->c, o, &v))
				return 0;
			if (is(t, i + 1, "["))	/* an element of an int array */
				i = skip_group(t, i + 1) - 1;
			continue;
		}
		for (k = 0; ops[k] != NULL; k++)
			if (strcmp(o, ops[k]) == 0)
				break;
		if (ops[k] == NULL)
			return 0;
	}
	return 1;
}

/* E < [a, b) (or above it: hi 0) over [s, e), E the expression [xa, xb)
 * of more than one token: a subscript spelled as E gets the bound. */
static void
expr_guard(struct fn *f, size_t xa, size_t xb, int hi, int strict, size_t a,
    size_t b, size_t s, size_t e)
{
	const struct toks *t = f->t;
	int n = f->ng;
	size_t i;

	if (xb <= xa + 1)
		return;
	for (i = xa; i < xb; i++)
		if (is(t, i, "=") || is(t, i, "++") || is(t, i, "--") ||
		    is(t, i, "?") || is(t, i, ",") || (is_ident(t->v[i]) &&
		    is(t, i + 1, "(")))
			return;
	add_guard(f, "", hi, 0, a, b, s, e);
	if (f->ng == n)
		return;
	f->g[n].strict = strict && int_expr(f, xa, xb);
	f->g[n].xa = xa;
	f->g[n].xb = xb;
}

/* c * name < [a, b) over [s, e), when c is a constant above 1. */
static void
scaled_guard(struct fn *f, const char *name, const char *c, int strict,
    size_t a, size_t b, size_t s, size_t e)
{
	long long v;

	if (!eval_str(c, &f->k->c, &v) || v <= 1)
		return;
	add_guard(f, name, 1, 0, a, b, s, e);
	if (f->ng > 0 && strcmp(f->g[f->ng - 1].name, name) == 0) {
		f->g[f->ng - 1].scale = v;
		f->g[f->ng - 1].strict = strict && int_var(f, name);
	}
}

/* One comparison [a, b) as guards over [s, e); negated when neg.  A
 * clamp [ra, rb) is what the code assigned where the comparison failed. */
static void
cmp_guard(struct fn *f, size_t a, size_t b, int neg, size_t s, size_t e,
    size_t ra, size_t rb, const char *only)
{
	const struct toks *t = f->t;
	size_t i, op = 0;
	int n = 0, depth = 0, lt, eq;
	const char *o;

	while (b - a >= 2 && is(t, a, "(") && skip_group(t, a) == b) {
		a++;
		b--;
	}
	if (b > a && is(t, a, "!") && is(t, a + 1, "(") &&
	    skip_group(t, a + 1) == b) {
		a += 2;
		b--;
		neg = !neg;
	}
	for (i = a; i < b; i++) {
		o = t->v[i];
		if (*o == '(' || *o == '[')
			depth++;
		else if (*o == ')' || *o == ']')
			depth--;
		else if (depth == 0 && (strcmp(o, "<") == 0 ||
		    strcmp(o, "<=") == 0 || strcmp(o, ">") == 0 ||
		    strcmp(o, ">=") == 0 || strcmp(o, "==") == 0)) {
			op = i;
			n++;
		} else if (depth == 0 && (strcmp(o, "&&") == 0 ||
		    strcmp(o, "||") == 0 || strcmp(o, "?") == 0))
			return;
	}
	if (n != 1 || op == a || op + 1 >= b)
		return;
	o = t->v[op];
	eq = strcmp(o, "==") == 0;
	if (eq && neg)
		return;
	lt = *o == '<';		/* left below right */
	if (neg && !eq) {
		lt = !lt;	/* !(l < r) is l >= r */
		o = strchr(o, '=') != NULL ? "strict" : "";
	} else
		o = strchr(o, '=') != NULL ? "" : "strict";
	if (op == a + 1 && is_ident(t->v[a]) && (only == NULL ||
	    strcmp(only, t->v[a]) == 0)) {
		if (eq || lt)
			add_guard(f, t->v[a], 1, *o != '\0' && !eq, op + 1, b, s, e);
		if (eq || !lt)
			add_guard(f, t->v[a], 0, *o != '\0' && !eq, op + 1, b, s, e);
		if (ra < rb && f->ng > 0 &&
		    strcmp(f->g[f->ng - 1].name, t->v[a]) == 0) {
			f->g[f->ng - 1].ra = ra;
			f->g[f->ng - 1].rb = rb;
		}
	}
	if (op > a + 1 && only == NULL) {
		/* base + k < n: an expression that a subscript may spell
		 * again (y[base + k]) */
		if (eq || lt)
			expr_guard(f, a, op, 1, *o != '\0' && !eq, op + 1, b, s, e);
		if (eq || !lt)
			expr_guard(f, a, op, 0, *o != '\0' && !eq, op + 1, b, s, e);
	}
	/* c * v < E and E > c * v, c a positive constant: an upper bound
	 * of v, E / c (a vector index: 4 * i < n) */
	if (only == NULL && !eq && op == a + 3 && is(t, a + 1, "*") &&
	    lt && is_ident(t->v[a + 2]))
		scaled_guard(f, t->v[a + 2], t->v[a], *o != '\0', op + 1, b,
		    s, e);
	if (only == NULL && !eq && op == a + 3 && is(t, a + 1, "*") &&
	    lt && is_ident(t->v[a]))
		scaled_guard(f, t->v[a], t->v[a + 2], *o != '\0', op + 1, b,
		    s, e);
	if (only == NULL && !eq && b == op + 4 && is(t, op + 2, "*") &&
	    !lt && is_ident(t->v[op + 3]))
		scaled_guard(f, t->v[op + 3], t->v[op + 1], *o != '\0', a, op,
		    s, e);
	if (b == op + 2 && is_ident(t->v[op + 1]) && only == NULL) {
		if (eq || !lt)
			add_guard(f, t->v[op + 1], 1, *o != '\0' && !eq, a, op, s, e);
		if (eq || lt)
			add_guard(f, t->v[op + 1], 0, *o != '\0' && !eq, a, op, s, e);
	}
}

/* Split [a, b) at top-level sep; the parts' ends in ends[]. */
int
split_top(const struct toks *t, size_t a, size_t b, const char *sep,
    size_t *ends, int max, int *mixed)
{
	size_t i;
	int depth = 0, n = 0;
	const char *other = strcmp(sep, "&&") == 0 ? "||" : "&&";

	*mixed = 0;
	for (i = a; i < b; i++) {
		const char *s = t->v[i];
		if (*s == '(' || *s == '[')
			depth++;
		else if (*s == ')' || *s == ']')
			depth--;
		else if (depth == 0 && strcmp(s, sep) == 0) {
			if (n < max - 1)
				ends[n++] = i;
		} else if (depth == 0 && (strcmp(s, other) == 0 ||
		    strcmp(s, "?") == 0))
			*mixed = 1;
	}
	ends[n++] = b;
	return n;
}

int
sum_terms(const struct toks *t, size_t a, size_t b, size_t *s, size_t *e,
    int *sg, int max)
{
	size_t i, st = a;
	int n = 0, sign = 1;

	for (i = a; i <= b; ) {
		if (i < b && (is(t, i, "(") || is(t, i, "["))) {
			i = skip_group(t, i);
			continue;
		}
		if (i == b || ((is(t, i, "+") || is(t, i, "-")) && i > st &&
		    !unary_at(t, i))) {
			if (i <= st || n == max)
				return -1;
			s[n] = st;
			e[n] = i;
			sg[n++] = sign;
			if (i == b)
				break;
			sign = is(t, i, "+") ? 1 : -1;
			st = i + 1;
		}
		i++;
	}
	return n;
}

/* Guards of condition [a, b): its conjuncts hold from their end to e;
 * its negation (each disjunct failed) over [ns, ne). */
static void
cond_guards(struct fn *f, size_t a, size_t b, size_t e, size_t ns,
    size_t ne)
{
	size_t ends[16], s;
	int n, i, mixed;

	n = split_top(f->t, a, b, "&&", ends, 16, &mixed);
	if (!mixed)
		for (i = 0, s = a; i < n; s = ends[i++] + 1)
			cmp_guard(f, s, ends[i], 0, ends[i], e, 0, 0, NULL);
	if (ns >= ne)
		return;
	n = split_top(f->t, a, b, "||", ends, 16, &mixed);
	if (!mixed)
		for (i = 0, s = a; i < n; s = ends[i++] + 1)
			cmp_guard(f, s, ends[i], 1, ns, ne, 0, 0, NULL);
}

int
fn_dead(const struct fn *f, size_t pos)
{
	int i;

	for (i = 0; i < f->ndead; i++)
		if (pos >= f->dead[2 * i] && pos < f->dead[2 * i + 1])
			return 1;
	return 0;
}

int
fn_exclusive(const struct fn *f, size_t p, size_t q)
{
	const size_t *x;
	int i;

	for (i = 0; i < f->nifs; i++) {
		x = f->ifs + 6 * i + 2;
		if ((p >= x[0] && p < x[1] && q >= x[2] && q < x[3]) ||
		    (q >= x[0] && q < x[1] && p >= x[2] && p < x[3]))
			return 1;
	}
	return 0;
}

/* Mark [s, e) as never running. */
static void
add_dead(struct fn *f, size_t s, size_t e)
{
	f->dead = grow(f->dead, &f->cdead, 2 * f->ndead + 2,
	    sizeof(*f->dead));
	f->dead[2 * f->ndead] = s;
	f->dead[2 * f->ndead + 1] = e;
	f->ndead++;
}

static int instance_value(struct fn *f, size_t a, size_t b, long long *v,
    int depth);

/* The value of local name at token i where its one assignment, its
 * declaration's, is an instance value (bool isfloat = sizeof(T) == 4;):
 * 1 and *v, else 0. */
static int
local_value(struct fn *f, const char *name, size_t i, long long *v,
    int depth)
{
	int x, one = -1, d = decl_of(f, name, i);

	for (x = 0; x < f->nas; x++)
		if (strcmp(f->as[x].name, name) == 0 && f->as[x].d == d)
			one = one == -1 && f->as[x].kind == A_EQ &&
			    f->as[x].pos == f->dc[d].s ? x : -2;
	return one >= 0 && depth < 4 && instance_value(f, f->as[one].a,
	    f->as[one].b, v, depth + 1);
}

/* The value of tokens [a, b) over the slice's constants, the kernel's
 * template values and locals set once from them alone, in *v; 0 when a
 * name there is another of f's parameters or locals, or the text does
 * not evaluate. */
static int
instance_value(struct fn *f, size_t a, size_t b, long long *v, int depth)
{
	const struct toks *t = f->t;
	struct k_buf txt = { 0 };
	long long lv;
	size_t i;
	int ok = b > a;

	for (i = a; i < b && ok; i++) {
		const struct k_dtype *dt;
		/* sizeof(T) of a type the instance binds */
		if (is(t, i, "sizeof") && is(t, i + 1, "(") && i + 3 < b &&
		    is(t, i + 3, ")") &&
		    (dt = bound_dtype(f->k, t->v[i + 2])) != NULL) {
			k_buf_printf(&txt, "%d ", dt->size);
			i += 3;
			continue;
		}
		if (is_ident(t->v[i]) && !is(t, i + 1, "(") &&
		    decl_of(f, t->v[i], i) >= 0 &&
		    local_value(f, t->v[i], i, &lv, depth)) {
			k_buf_printf(&txt, "(%lld) ", lv);
			continue;
		}
		if (is_ident(t->v[i]) && (fn_param(f, t->v[i]) >= 0 ||
		    decl_of(f, t->v[i], i) >= 0))
			ok = 0;
		k_buf_printf(&txt, "%s ", t->v[i]);
	}
	ok = ok && eval_str(k_buf_str(&txt), &f->k->c, v);
	k_buf_free(&txt);
	return ok;
}

/* What the if with condition [a, b) runs, [s, e), or its else, [es,
 * ee), never runs for the instance: a conjunct of the condition is 0
 * over the slice's constants and the kernel's template values alone ("if
 * (blockSize >= 512 && tid < 256)" in kernel<128>), or the whole
 * condition is not 0 there (if constexpr (Check) ... else ... in
 * kernel<true>: the else).  Only in the kernel itself, where those values
 * are the instance's, and only for names that are none of its parameters
 * or locals. */
static void
dead_if(struct fn *f, size_t a, size_t b, size_t s, size_t e, size_t es,
    size_t ee)
{
	size_t ends[16], c;
	int n, k, mixed;
	long long v;

	if (!f->kernel)
		return;
	if (es < ee && instance_value(f, a, b, &v, 0) && v != 0) {
		add_dead(f, es, ee);
		return;
	}
	if (s >= e)
		return;
	n = split_top(f->t, a, b, "&&", ends, 16, &mixed);
	if (mixed)
		return;
	for (k = 0, c = a; k < n; c = ends[k++] + 1)
		if (instance_value(f, c, ends[k], &v, 0) && v == 0) {
			add_dead(f, s, e);
			break;
		}
}

/* The innermost declaration of name seen at pos, or -1. */
int
decl_of(const struct fn *f, const char *name, size_t pos)
{
	int i, best = -1;

	for (i = 0; i < f->nd; i++)
		if (pos >= f->dc[i].s && pos < f->dc[i].e &&
		    strcmp(f->dc[i].name, name) == 0 &&
		    (best < 0 || f->dc[i].s >= f->dc[best].s))
			best = i;
	return best;
}

/* Whether the name at i is declared there (int j =, const T *p =). */
static void
note_decl(struct fn *f, size_t i)
{
	const struct toks *t = f->t;
	const char *p = t->v[i - 1];
	struct decl *d;
	size_t j;

	if (!(is(t, i + 1, "=") || is(t, i + 1, ";") || is(t, i + 1, ",") ||
	    is(t, i + 1, "[")))
		return;
	if (strcmp(p, "*") == 0 || strcmp(p, "&") == 0) {
		if (i < 2 || !(is_ident(t->v[i - 2]) || is(t, i - 2, ">")))
			return;
	} else if (!is_ident(p) || is_keyword(p) || strcmp(p, "goto") == 0)
		return;
	if (strlen(t->v[i]) >= sizeof(d->name))
		return;
	/* the type starts a statement or a for's first clause (a * b; is
	 * no declaration inside x += a * b;) */
	for (j = i - 1; j >= f->a && (is_ident(t->v[j]) || is(t, j, "*") ||
	    is(t, j, "&") || is(t, j, "::")) && !is_keyword(t->v[j]); j--)
		;
	if (!(j < f->a || is(t, j, ";") || is(t, j, "{") || is(t, j, "}") ||
	    (is(t, j, "(") && j > 0 && is(t, j - 1, "for"))))
		return;
	f->dc = grow(f->dc, &f->cd, f->nd, sizeof(*f->dc));
	d = &f->dc[f->nd++];
	copy(d->name, sizeof(d->name), t->v[i]);
	d->s = i;
	d->e = block_end(f, i);
	if (j >= f->a && is(t, j, "("))
		d->e = stmt_end(t, j - 1, f->b);
}

static void
add_asg(struct fn *f, const char *name, int kind, size_t pos, size_t a,
    size_t b)
{
	struct asg *x;

	if (strlen(name) >= sizeof(x->name))
		return;
	f->as = grow(f->as, &f->cas, f->nas, sizeof(*f->as));
	x = &f->as[f->nas++];
	memset(x, 0, sizeof(*x));
	copy(x->name, sizeof(x->name), name);
	x->kind = kind;
	x->pos = pos;
	x->a = a;
	x->b = b;
	x->d = decl_of(f, name, pos);
}

/* if (C) S without an exit: where S assigns a variable of C's negation
 * at its top level, after the if that variable satisfies the negation or
 * holds what S assigned (if (y <= 0) y = 0; clamps y to 0 and above). */
static void
clamp_guards(struct fn *f, size_t c0, size_t c1, size_t s0, size_t s1,
    size_t after)
{
	const struct toks *t = f->t;
	size_t j, je, ends[16], s, lim = s1;
	int x, n, i, mixed;

	n = split_top(t, c0, c1, "||", ends, 16, &mixed);
	if (mixed)
		return;
	if (is(t, s0, "{")) {
		j = s0 + 1;
		lim = s1 - 1;
	} else
		j = s0;
	for (; j < lim; j = je) {
		je = stmt_end(t, j, lim);
		if (!is_ident(t->v[j]) || is_keyword(t->v[j]))
			continue;
		for (x = 0; x < f->nas; x++) {
			struct asg *as = &f->as[x];
			if (as->kind != A_EQ || as->pos < j || as->pos >= je)
				continue;
			for (i = 0, s = c0; i < n; s = ends[i++] + 1)
				cmp_guard(f, s, ends[i], 1, after,
				    block_end(f, after), as->a, as->b, as->name);
		}
	}
}

/* Whether the grid-stride loop over v runs once per thread: kwrap's
 * grid covers v's range, as infer_launch derived it. */
static int
loop_once(struct kern *k, const char *v)
{
	struct var *w = var_get(k, v);
	char pd[MAX_EXPR], g[MAX_EXPR];

	if (w == NULL || w->kind != V_GLOBAL || w->dim != 0 ||
	    w->bound[0] == '\0' || k->grid_state < 2)
		return 0;
	paren(w->bound, pd, sizeof(pd));
	if (k->block[0] == 1)
		copy(g, sizeof(g), w->bound);
	else
		bprintf(g, sizeof(g), "(%s + %lld) / %lld", pd, k->block[0] - 1,
		    k->block[0]);
	return strcmp(g, k->grid[0]) == 0;
}

/* Assignments, guards and loops of f. */
static void
fn_scan(struct fn *f)
{
	const struct toks *t = f->t;
	static const char *const rhs[] = { ";", ",", NULL };
	size_t i, e, c0, c1, s0, s1, e0, e1, *y;
	int x;

	for (i = f->a; i < f->b; i++) {
		const char *s = t->v[i];
		if (is_ident(s) && !is_keyword(s) && !is(t, i - 1, ".") &&
		    !is(t, i - 1, "->") && !is(t, i - 1, "::")) {
			const char *n = i + 1 < t->n ? t->v[i + 1] : "";
			note_decl(f, i);
			int kind = -1;
			if (strcmp(n, "=") == 0)
				kind = A_EQ;
			else if (strcmp(n, "+=") == 0)
				kind = A_INC;
			else if (strcmp(n, "-=") == 0)
				kind = A_DEC;
			else if (strcmp(n, "/=") == 0 || strcmp(n, ">>=") == 0)
				kind = A_DIV;
			else if (strcmp(n, "*=") == 0 || strcmp(n, "%=") == 0 ||
			    strcmp(n, "<<=") == 0 || strcmp(n, "&=") == 0 ||
			    strcmp(n, "|=") == 0 || strcmp(n, "^=") == 0)
				kind = A_UNK;
			if (kind >= 0 && is(t, i - 1, "*") && unary_at(t, i - 1))
				kind = -1;	/* *p = v stores through p */
			if (kind >= 0) {
				e = expr_end(t, i + 2, rhs);
				add_asg(f, s, kind, i, i + 2, e);
			} else if (strcmp(n, "++") == 0 || is(t, i - 1, "++"))
				add_asg(f, s, A_INC, i, 0, 0);
			else if (strcmp(n, "--") == 0 || is(t, i - 1, "--"))
				add_asg(f, s, A_DEC, i, 0, 0);
			else if (is(t, i - 1, "&") && unary_at(t, i - 1) &&
			    !is(t, i + 1, "[") && !is(t, i + 1, "->") &&
			    !is(t, i + 1, "."))	/* &p->x takes no p */
				add_asg(f, s, A_UNK, i, 0, 0);
			if (f->nas > 0 && f->as[f->nas - 1].pos == i &&
			    f->as[f->nas - 1].kind == A_INC) {
				/* ++c; if (c >= E) break; keeps c <= E */
				struct asg *as = &f->as[f->nas - 1];
				size_t j = stmt_end(t, i, f->b);
				if ((as->b == as->a || (as->b == as->a + 1 &&
				    is(t, as->a, "1"))) && is(t, j, "if") &&
				    is(t, j + 1, "(") && is(t, j + 2, s) &&
				    (is(t, j + 3, ">=") || is(t, j + 3, "==")) &&
				    (e = skip_group(t, j + 1)) > j + 5 &&
				    (is(t, e, "break") || is(t, e, "return"))) {
					as->ca = j + 4;
					as->cb = e - 1;
				}
			}
		}
		if (is(t, i, "if") && is(t, i + 1, "(")) {
			c0 = i + 2;
			c1 = skip_group(t, i + 1) - 1;
			s0 = c1 + 1;
			s1 = stmt_end(t, s0, f->b);
			e0 = e1 = s1;
			if (is(t, s1, "else")) {
				e0 = s1 + 1;
				e1 = stmt_end(t, e0, f->b);
			}
			cond_guards(f, c0, c1, s1, e0, e1);
			/* what never runs is marked once every assignment
			 * is known; the branches serve fn_exclusive too */
			f->ifs = grow(f->ifs, &f->cifs, 6 * f->nifs + 6,
			    sizeof(*f->ifs));
			y = f->ifs + 6 * f->nifs++;
			y[0] = c0;
			y[1] = c1;
			y[2] = s0;
			y[3] = s1;
			y[4] = e0;
			y[5] = e1;
			if (stmt_exits(t, s0, s1))
				cond_guards(f, c0, c1, c0, e1, block_end(f, i));
		} else if ((is(t, i, "for") || is(t, i, "while")) &&
		    is(t, i + 1, "(")) {
			size_t ends[3];
			int mixed, n;
			c1 = skip_group(t, i + 1) - 1;
			s1 = stmt_end(t, c1 + 1, f->b);
			n = split_top(t, i + 2, c1, ";", ends, 3, &mixed);
			if (is(t, i, "while"))
				cond_guards(f, i + 2, c1, s1, 0, 0);
			else if (n == 3)
				cond_guards(f, ends[0] + 1, ends[1], s1, 0, 0);
			f->l = grow(f->l, &f->cl, f->nl, sizeof(*f->l));
			f->l[f->nl].s = c1 + 1;
			f->l[f->nl].e = s1;
			f->l[f->nl++].once = 0;
		} else if (is(t, i, "do")) {
			f->l = grow(f->l, &f->cl, f->nl, sizeof(*f->l));
			f->l[f->nl].s = i + 1;
			f->l[f->nl].e = stmt_end(t, i + 1, f->b);
			f->l[f->nl++].once = 0;
		} else if ((is(t, i, "CUDA_1D_KERNEL_LOOP") ||
		    is(t, i, "CUDA_KERNEL_LOOP") ||
		    is(t, i, "HIP_1D_KERNEL_LOOP")) && is(t, i + 1, "(") &&
		    is_ident(t->v[i + 2]) && is(t, i + 3, ",")) {
			/* for (i = global index; i < n; i += grid's threads) */
			c1 = skip_group(t, i + 1) - 1;
			s1 = stmt_end(t, c1 + 1, f->b);
			add_asg(f, t->v[i + 2], A_LOOP0, i + 2, 0, 0);
			add_guard(f, t->v[i + 2], 1, 1, i + 4, c1, c1 + 1, s1);
			f->g[f->ng - 1].strict = 1;
			f->l = grow(f->l, &f->cl, f->nl, sizeof(*f->l));
			f->l[f->nl].s = c1 + 1;
			f->l[f->nl].e = s1;
			f->l[f->nl++].once = f->kernel &&
			    loop_once(f->k, t->v[i + 2]);
		} else if (is(t, i, "CUDA_2D_KERNEL_LOOP") && is(t, i + 1, "(") &&
		    is_ident(t->v[i + 2]) && is(t, i + 3, ",")) {
			/* two nested grid-stride loops: (i, n, j, m) */
			size_t ends[4];
			int mixed;
			c1 = skip_group(t, i + 1) - 1;
			s1 = stmt_end(t, c1 + 1, f->b);
			if (split_top(t, i + 2, c1, ",", ends, 4, &mixed) != 4 ||
			    !is_ident(t->v[ends[1] + 1]) ||
			    ends[2] != ends[1] + 2)
				continue;
			add_asg(f, t->v[i + 2], A_LOOP0, i + 2, 0, 0);
			add_guard(f, t->v[i + 2], 1, 1, ends[0] + 1, ends[1],
			    c1 + 1, s1);
			f->g[f->ng - 1].strict = 1;
			add_asg(f, t->v[ends[1] + 1], A_LOOP0, ends[1] + 1, 0, 0);
			add_guard(f, t->v[ends[1] + 1], 1, 1, ends[2] + 1, c1,
			    c1 + 1, s1);
			f->g[f->ng - 1].strict = 1;
			f->l = grow(f->l, &f->cl, f->nl, sizeof(*f->l));
			f->l[f->nl].s = c1 + 1;
			f->l[f->nl].e = s1;
			f->l[f->nl++].once = 0;
		} else if (is(t, i, "?")) {
			/* C ? T : F */
			static const char *const fstop[] = { ";", ",", ":",
			    NULL };
			size_t j = i, q;
			int depth = 0, nest = 0;
			while (j-- > f->a) {
				const char *s2 = t->v[j];
				if (*s2 == ')' || *s2 == ']')
					depth++;
				else if (*s2 == '(' || *s2 == '[') {
					if (depth-- == 0)
						break;
				} else if (depth == 0 && (strcmp(s2, "=") == 0 ||
				    strcmp(s2, "return") == 0 ||
				    strcmp(s2, ",") == 0 || strcmp(s2, ";") == 0 ||
				    strcmp(s2, "{") == 0 || strcmp(s2, "}") == 0 ||
				    strcmp(s2, "?") == 0 || strcmp(s2, ":") == 0))
					break;
			}
			for (q = i + 1, depth = 0; q < f->b; q++) {
				const char *s2 = t->v[q];
				if (*s2 == '(' || *s2 == '[' || *s2 == '{')
					depth++;
				else if (*s2 == ')' || *s2 == ']' || *s2 == '}') {
					if (depth-- == 0)
						break;
				} else if (depth == 0 && *s2 == '?')
					nest++;
				else if (depth == 0 && *s2 == ':' && nest-- == 0)
					break;
			}
			if (!is(t, q, ":"))
				continue;
			e1 = expr_end(t, q + 1, fstop);
			cond_guards(f, j + 1, i, q, q + 1, e1);
		}
	}
	for (x = 0; x < f->nifs; x++) {
		y = f->ifs + 6 * x;
		dead_if(f, y[0], y[1], y[2], y[3], y[4], y[5]);
	}
}

/* Clamps, once every assignment is known. */
static void
fn_clamps(struct fn *f)
{
	const struct toks *t = f->t;
	size_t i, c1, s1, e1;

	for (i = f->a; i < f->b; i++) {
		if (!is(t, i, "if") || !is(t, i + 1, "("))
			continue;
		c1 = skip_group(t, i + 1) - 1;
		s1 = stmt_end(t, c1 + 1, f->b);
		e1 = is(t, s1, "else") ? stmt_end(t, s1 + 1, f->b) : s1;
		if (!stmt_exits(t, c1 + 1, s1))
			clamp_guards(f, i + 2, c1, c1 + 1, s1, e1);
	}
}

/* The kernel, or the helper called name with nargs arguments. */
struct fn *
fn_new(struct kern *k, const struct toks *t, size_t open, size_t plist,
    int kernel)
{
	struct fn *f = k_calloc(1, sizeof(*f));
	size_t i, s, close;
	int depth = 0;

	f->k = k;
	f->t = t;
	f->a = open + 1;
	f->b = skip_group(t, open) - 1;
	f->kernel = kernel;
	if (kernel) {
		for (f->np = 0; f->np < k->np; f->np++) {
			const struct param *p = &k->p[f->np];
			fn_room(f);
			f->pn[f->np] = p->name;
			f->pptr[f->np] = p->ptr;
			f->pint[f->np] = !p->ptr && p->dt != NULL &&
			    !p->dt->is_float && !p->is_enum;
		}
	} else if (is(t, plist, "(")) {
		close = skip_group(t, plist) - 1;
		for (i = s = plist + 1; i <= close; i++) {
			const char *x = t->v[i];
			size_t j, last = 0;
			if (*x == '(' || *x == '[' || *x == '<')
				depth++;
			else if ((*x == ')' || *x == ']' || *x == '>') &&
			    i < close)
				depth--;
			if (!(i == close || (depth == 0 && *x == ',')))
				continue;
			fn_room(f);
			f->pn[f->np] = "";
			for (j = s; j < i && !is(t, j, "="); j++) {
				const struct k_dtype *dt;
				char q[128];
				if (is_ident(t->v[j]))
					last = j;
				/* the pointee's size: float *p, c10::Half *p */
				if (is_ident(t->v[j]) && j + 1 < i &&
				    is(t, j + 1, "*")) {
					if (j >= s + 2 && is(t, j - 1, "::"))
						join(t, j - 2, j + 1, q, sizeof(q));
					else
						copy(q, sizeof(q), t->v[j]);
					squeeze(q);
					if ((dt = k_dtype_c(q)) != NULL ||
					    (dt = k_dtype_c(t->v[j])) != NULL)
						f->psz[f->np] = dt->size;
				}
				/* const int &h is h's value, T *&p a pointer */
				if (is(t, j, "*") || is(t, j, "["))
					f->pptr[f->np] = 1;
				if ((dt = k_dtype_c(t->v[j])) != NULL &&
				    !dt->is_float)
					f->pint[f->np] = 1;
			}
			if (last > 0)
				f->pn[f->np] = t->v[last];
			if (f->pptr[f->np])
				f->pint[f->np] = 0;
			f->np++;
			s = i + 1;
		}
		if (f->np == 1 && close == plist + 1)
			f->np = 0;
	}
	fn_scan(f);
	fn_clamps(f);
	return f;
}

/* The token after the template argument list that opens at i (its <),
 * or 0 when it does not close before a ; or a brace. */
size_t
angle_end(const struct toks *t, size_t i)
{
	int depth = 0;

	for (; i < t->n; i++) {
		if (is(t, i, "<"))
			depth++;
		else if (is(t, i, ">") && --depth == 0)
			return i + 1;
		else if (is(t, i, ">>") && (depth -= 2) <= 0)
			return depth == 0 ? i + 1 : 0;
		else if (is(t, i, "(") || is(t, i, "["))
			i = skip_group(t, i) - 1;
		else if (is(t, i, ";") || is(t, i, "{") || is(t, i, "}"))
			return 0;
	}
	return 0;
}

/* A constructor at token i (its name) defined inside the explicit
 * specialization of its class, struct load<16> { load(...) { } }: *sa,
 * *sb are that specialization's arguments (16), as for a function's; the
 * call load<16>(v, p) names it so. */
static void
ctor_of(const struct toks *t, size_t i, size_t *sa, size_t *sb)
{
	size_t j, e, o = 0;
	int depth = 0;

	for (j = i; j > 0; j--) {
		if (is(t, j - 1, "}"))
			depth++;
		else if (is(t, j - 1, "{") && depth-- == 0) {
			o = j - 1;
			break;
		}
	}
	/* struct name < args > { */
	if (o < 4 || !is(t, o - 1, ">"))
		return;
	for (j = o - 1; j > 0 && !is(t, j, "{") && !is(t, j, ";"); j--)
		if (is(t, j, "<") && is(t, j - 1, t->v[i]) && j >= 2 &&
		    (is(t, j - 2, "struct") || is(t, j - 2, "class")) &&
		    (e = angle_end(t, j)) == o) {
			*sa = j + 1;
			*sb = e - 1;
			return;
		}
}

/* The next definition, from token *from on, of a helper called name with
 * nargs parameters (*from moves past it), or NULL.  With spec, an
 * explicit specialization (name<float, 4>(...) { }) counts too; h->sa and
 * h->sb are then its template arguments, and h->ta, h->tb the template
 * parameters of its declaration (template <typename T, int N>). */
struct fn *
next_helper(struct kern *k, const char *name, int nargs, size_t *from,
    int spec)
{
	const struct toks *t = &k->all;
	size_t i, close, open, sa, sb;
	struct fn *h;

	for (i = *from > 0 ? *from : 1; i + 1 < t->n; i++) {
		int n = 1, depth = 0;
		size_t j;
		if (!is(t, i, name) || is(t, i - 1, ".") ||
		    is(t, i - 1, "->") || is(t, i - 1, "=") ||
		    !(is_ident(t->v[i - 1]) || is(t, i - 1, "*") ||
		    is(t, i - 1, ">") || is(t, i - 1, "&") || is(t, i - 1, "::")))
			continue;
		open = i + 1;
		sa = sb = 0;
		if (spec && is(t, open, "<") && (j = angle_end(t, open)) > 0) {
			sa = open + 1;
			sb = j - 1;
			open = j;
		}
		if (!is(t, open, "("))
			continue;
		close = skip_group(t, open) - 1;
		if (!is(t, close + 1, "{"))
			continue;
		for (j = open + 1; j < close; j++) {
			const char *x = t->v[j];
			if (*x == '(' || *x == '[' || *x == '<')
				depth++;
			else if (*x == ')' || *x == ']' || *x == '>')
				depth--;
			else if (depth == 0 && *x == ',')
				n++;
		}
		if (close == open + 1 || (close == open + 2 &&
		    is(t, open + 1, "void")))
			n = 0;
		if (n != nargs)
			continue;
		*from = close + 1;
		h = fn_new(k, t, close + 1, open, 0);
		if (spec && sa == 0)
			ctor_of(t, i, &sa, &sb);
		h->sa = sa;
		h->sb = sb;
		/* template <...> before the declaration */
		for (j = i; j > 0 && !is(t, j - 1, ";") && !is(t, j - 1, "}") &&
		    !is(t, j - 1, "{"); j--)
			if (is(t, j - 1, "template") && is(t, j, "<") &&
			    (h->tb = angle_end(t, j)) > 0) {
				h->ta = j + 1;
				h->tb--;
				break;
			}
		return h;
	}
	*from = t->n;
	return NULL;
}

/* A helper defined in the slice with nargs parameters. */
struct fn *
find_helper(struct kern *k, const char *name, int nargs)
{
	size_t from = 1;

	return next_helper(k, name, nargs, &from, 0);
}

/* The most trips of the for loop whose body starts at token s, 0 when
 * kwrap cannot bound them: for (int v = A; v < B; ++v) runs B - A
 * times (B - A + 1 for <=), with A at its least and B at its most. */
int
loop_trips(struct fn *f, size_t s, struct poly *r)
{
	const struct toks *t = f->t;
	struct atoms *at = f->k->at;
	size_t o, c = s - 1, ends[3], v, a, e = f->b;
	struct iv lo, hi;
	int depth = 0, mixed, n, j;

	if (s < 2 || !is(t, c, ")"))
		return 0;
	for (o = c; o > f->a; o--)
		if (is(t, o, ")"))
			depth++;
		else if (is(t, o, "(") && --depth == 0)
			break;
	if (o <= f->a || !is(t, o - 1, "for") ||
	    (n = split_top(t, o + 1, c, ";", ends, 3, &mixed)) != 3)
		return 0;
	/* init: [T] v = A */
	for (v = o + 1; v < ends[0] && !is(t, v + 1, "="); v++)
		;
	if (v >= ends[0] || !is_ident(t->v[v]))
		return 0;
	a = v + 2;
	/* cond: v < B or v <= B */
	if (!is(t, ends[0] + 1, t->v[v]) || (!is(t, ends[0] + 2, "<") &&
	    !is(t, ends[0] + 2, "<=")))
		return 0;
	/* step: ++v, v++ or v += 1 */
	if (!((ends[2] == ends[1] + 3 && ((is(t, ends[1] + 1, "++") &&
	    is(t, ends[1] + 2, t->v[v])) || (is(t, ends[1] + 1, t->v[v]) &&
	    is(t, ends[1] + 2, "++")))) || (ends[2] == ends[1] + 4 &&
	    is(t, ends[1] + 1, t->v[v]) && is(t, ends[1] + 2, "+=") &&
	    is(t, ends[1] + 3, "1"))))
		return 0;
	for (j = 0; j < f->nl; j++)
		if (f->l[j].s == s)
			e = f->l[j].e;
	for (j = 0; j < f->nas; j++)
		if (strcmp(f->as[j].name, t->v[v]) == 0 && f->as[j].pos >= s &&
		    f->as[j].pos < e)
			return 0;	/* the body moves v too */
	eval_at(f, a, ends[0], &lo);
	eval_at(f, ends[0] + 3, ends[1], &hi);
	if (lo.lo.inf || hi.hi.inf)
		return 0;
	p_add(r, &hi.hi, &lo.lo, -1);
	if (is(t, ends[0] + 2, "<=")) {
		struct poly one;
		p_const(&one, 1);
		p_add(r, r, &one, 1);
	}
	p_loosen(at, r);
	return !r->inf && p_nonneg(at, r);
}

/* How many times the step at pos moves a pointer defined at def (or a
 * parameter, def (size_t)-1), at most, into r: the product of the trips
 * of the loops around pos that def is not in, less one when every use
 * comes before the step in its loop (the last step is never used).
 * 0 when a loop's trips have no bound. */
int
step_times(struct fn *f, const char *name, size_t pos, size_t def,
    struct poly *r)
{
	const struct toks *t = f->t;
	struct atoms *at = f->k->at;
	struct poly tr, one;
	size_t i, in = 0;
	int j, n = 0, before = 1;

	p_const(r, 1);
	for (j = 0; j < f->nl; j++) {
		const struct loop *l = &f->l[j];
		if (pos < l->s || pos >= l->e || l->once ||
		    (def != (size_t)-1 && def >= l->s && def < l->e))
			continue;
		if (!loop_trips(f, l->s, &tr))
			return 0;
		p_mul(r, r, &tr);
		if (!n || l->s > in)
			in = l->s;	/* the innermost loop's body */
		n++;
	}
	if (n == 0)
		return 0;
	for (i = f->a; i < f->b; i++)
		if (is(t, i, name) && i != pos && i != def &&
		    !is(t, i + 1, "+=") && !is(t, i + 1, "=") &&
		    !is(t, i - 1, ".") && !is(t, i - 1, "->") &&
		    (i < in || i > pos))
			before = 0;
	if (before) {
		p_const(&one, 1);
		p_add(r, r, &one, -1);
	}
	p_loosen(at, r);
	return !r->inf;
}

/* Whether pos is in the header of a for loop: for (...; ...; ++i). */
int
in_for_header(const struct fn *f, size_t pos)
{
	const struct toks *t = f->t;
	size_t o;
	int j, depth;

	for (j = 0; j < f->nl; j++) {
		size_t c = f->l[j].s - 1;
		if (f->l[j].s < 2 || !is(t, c, ")") || pos >= c)
			continue;
		for (o = c, depth = 0; o > f->a; o--)
			if (is(t, o, ")"))
				depth++;
			else if (is(t, o, "(") && --depth == 0)
				break;
		if (o > f->a && is(t, o - 1, "for") && pos > o)
			return 1;
	}
	return 0;
}
