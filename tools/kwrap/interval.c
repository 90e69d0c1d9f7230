/*
 * kwrap: interval evaluation of C expressions over flow facts.
 */
#include "kwrap.h"

/* ---- evaluation */

struct ex {
	struct fn *f;
	size_t i, end;
	int bad;
};

static void x_cond(struct ex *x, struct iv *r);
static void x_unary(struct ex *x, struct iv *r);
static void expr_guards(struct fn *f, size_t a, size_t b, struct iv *r);

void
eval_at(struct fn *f, size_t a, size_t b, struct iv *r)
{
	struct ex x = { f, a, b, 0 };

	if (a >= b || f->k->depth > MAX_DEPTH) {
		iv_top(r);
		return;
	}
	f->k->depth++;
	x_cond(&x, r);
	if (x.bad || x.i != b)
		iv_top(r);
	if (b > a + 1 && f->ng > 0)
		expr_guards(f, a, b, r);
	f->k->depth--;
}

static void var_value(struct fn *f, const char *name, size_t pos,
    struct iv *r);

/* What a parameter or variable starts as: 1 and *r when it has a
 * binding. */
static int
initial(struct fn *f, const char *name, struct iv *r)
{
	struct kern *k = f->k;
	int p = fn_param(f, name);

	if (p < 0)
		return 0;
	if (!f->kernel) {
		if (f->bind != NULL)
			*r = f->bind[p];
		else
			iv_top(r);
		return 1;
	}
	if (k->p[p].ptr || k->p[p].is_struct || k->p[p].dt == NULL ||
	    k->p[p].is_enum || k->p[p].dt->is_float)
		iv_top(r);
	else if (strcmp(k->p[p].dt->name, "bool") == 0) {
		p_const(&r->lo, 0);
		p_const(&r->hi, 1);
	} else {
		int a = atom_get(k->at, name);
		if (a >= 0) {
			k->at->a[a].ge1 = 1;
			if (k->p[p].align > 1)
				k->at->a[a].mult = k->p[p].align;
		}
		p_atom(&r->lo, a);
		p_atom(&r->hi, a);
	}
	return 1;
}

/* How many times the step at pos of the local name (declared at def)
 * inside loops runs, at most, into r (step_times); 0 when it is in no
 * loop, or name is passed to a call, which may change it through a
 * reference (Scan(x, x)). */
static int
inc_times(struct fn *f, const char *name, size_t pos, size_t def,
    struct poly *r)
{
	const struct toks *t = f->t;
	size_t i;
	int argi;

	for (i = f->a + 1; i + 1 < f->b; i++)
		if (is(t, i, name) && (is(t, i - 1, "(") || is(t, i - 1, ",")) &&
		    (is(t, i + 1, ",") || is(t, i + 1, ")")) &&
		    call_open(t, f->a, i, &argi) > 0)
			return 0;
	return step_times(f, name, pos, def, r);
}

/* Whether tokens [a, b) are the midpoint of two names: (x + y) >> 1,
 * (x + y) / 2, x + (y - x) / 2 or x + ((y - x) >> 1); the names' tokens
 * into *x and *y. */
static int
midpoint(const struct toks *t, size_t a, size_t b, size_t *x, size_t *y)
{
#define HALF(i) ((is(t, (i), ">>") && is(t, (i) + 1, "1")) || \
	(is(t, (i), "/") && is(t, (i) + 1, "2")))
	if (b == a + 7 && is(t, a, "(") && is_ident(t->v[a + 1]) &&
	    is(t, a + 2, "+") && is_ident(t->v[a + 3]) && is(t, a + 4, ")") &&
	    HALF(a + 5)) {
		*x = a + 1;
		*y = a + 3;
		return 1;
	}
	if (b == a + 9 && is_ident(t->v[a]) && is(t, a + 1, "+") &&
	    is(t, a + 2, "(") && is_ident(t->v[a + 3]) && is(t, a + 4, "-") &&
	    is(t, a + 5, t->v[a]) && is(t, a + 6, ")") && HALF(a + 7)) {
		*x = a;
		*y = a + 3;
		return 1;
	}
	if (b == a + 11 && is_ident(t->v[a]) && is(t, a + 1, "+") &&
	    is(t, a + 2, "(") && is(t, a + 3, "(") && is_ident(t->v[a + 4]) &&
	    is(t, a + 5, "-") && is(t, a + 6, t->v[a]) && is(t, a + 7, ")") &&
	    HALF(a + 8) && is(t, a + 10, ")")) {
		*x = a;
		*y = a + 4;
		return 1;
	}
	return 0;
#undef HALF
}

/* Whether assignment as steps its variable to a midpoint: its right side
 * is m, m + c or m - c for a local m assigned nothing but the midpoint
 * of the variable and one other; the step into *c, the other's name into
 * *other (lo = mid + 1 and hi = mid in a bisection). */
static int
bisect_step(struct fn *f, const struct asg *as, long long *c,
    const char **other)
{
	const struct toks *t = f->t;
	size_t a = as->a, b = as->b, x, y;
	const char *o;
	int found = 0, j;

	if (b <= a || !is_ident(t->v[a]))
		return 0;
	if (b == a + 1)
		*c = 0;
	else if (b == a + 3 && (is(t, a + 1, "+") || is(t, a + 1, "-")) &&
	    isdigit((unsigned char)t->v[a + 2][0]))
		*c = (is(t, a + 1, "+") ? 1 : -1) *
		    strtoll(t->v[a + 2], NULL, 0);
	else
		return 0;
	for (j = 0; j < f->nas; j++) {
		const struct asg *g = &f->as[j];
		if (strcmp(g->name, t->v[a]) != 0)
			continue;
		if (g->kind != A_EQ || !midpoint(t, g->a, g->b, &x, &y))
			return 0;
		if (is(t, x, as->name))
			o = t->v[y];
		else if (is(t, y, as->name))
			o = t->v[x];
		else
			return 0;
		if (found && strcmp(o, *other) != 0)
			return 0;
		*other = o;
		found = 1;
	}
	return found;
}

/* What a bisection's bound name starts as: the hull of its values as a
 * parameter and of what is assigned to it but the steps to a midpoint;
 * 0 when it has none, or an assignment of another kind. */
static int
bisect_start(struct fn *f, const char *name, struct iv *r)
{
	struct iv v;
	const char *o;
	long long c;
	int have = initial(f, name, r), j;

	for (j = 0; j < f->nas; j++) {
		const struct asg *as = &f->as[j];
		if (strcmp(as->name, name) != 0)
			continue;
		if (as->kind != A_EQ)
			return 0;
		if (bisect_step(f, as, &c, &o))
			continue;
		eval_at(f, as->a, as->b, &v);
		if (have)
			iv_hull(f->k->at, r, r, &v);
		else
			*r = v;
		have = 1;
	}
	return have;
}

/* The value a bisection's step (lo = mid + 1, hi = mid) assigns: the
 * midpoint stays between where the two bounds started, so the hull of
 * their starts, moved by the step; 0 when as is no such step. */
static int
bisect_value(struct fn *f, const struct asg *as, struct iv *r)
{
	struct iv a, b, cv;
	const char *o;
	long long c;

	if (!bisect_step(f, as, &c, &o) || !bisect_start(f, as->name, &a) ||
	    !bisect_start(f, o, &b))
		return 0;
	iv_hull(f->k->at, r, &a, &b);
	iv_const(&cv, c);
	iv_add(r, r, &cv, 1);
	return 1;
}

/* What step as (x += E, x -= E, x++, x--) moves x by: E, or 1. */
static void
step_by(struct fn *f, const struct asg *as, struct iv *v)
{
	if (as->b > as->a)
		eval_at(f, as->a, as->b, v);
	else
		iv_const(v, 1);
}

/* The hull of what is assigned to name (declared at d) into r; in fin
 * (*nfin of them) the hull of the values with both sides bounded. */
static void
hull_pass(struct fn *f, const char *name, int d, struct iv *r,
    struct iv *fin, int *nfin)
{
	struct atoms *at = f->k->at;
	struct iv v;
	struct poly tm;
	int have;

	*nfin = 0;
	have = d < 0 && initial(f, name, r);
	if (have && !r->lo.inf && !r->hi.inf) {
		*fin = *r;
		*nfin = 1;
	}
	for (int j = 0; j < f->nas; j++) {
		struct asg *as = &f->as[j];
		/* an assignment in code the instance never runs sets nothing */
		if (strcmp(as->name, name) != 0 || as->d != d ||
		    fn_dead(f, as->pos))
			continue;
		if (as->kind == A_EQ) {
			if (!bisect_value(f, as, &v))
				eval_at(f, as->a, as->b, &v);
		} else if (as->kind == A_LOOP0) {
			p_const(&v.lo, 0);
			p_inf(&v.hi);
		} else
			continue;
		if (have)
			iv_hull(at, r, r, &v);
		else
			*r = v;
		have = 1;
		if (v.lo.inf || v.hi.inf)
			continue;
		if ((*nfin)++)
			iv_hull(at, fin, fin, &v);
		else
			*fin = v;
	}
	if (!have)
		iv_top(r);
	for (int j = 0; j < f->nas && have; j++) {
		struct asg *as = &f->as[j];
		if (strcmp(as->name, name) != 0 || as->d != d ||
		    fn_dead(f, as->pos))
			continue;
		if (as->kind == A_INC || as->kind == A_DEC) {
			int up = as->kind == A_INC;
			step_by(f, as, &v);
			if (!iv_nonneg(at, &v))
				iv_top(r);
			else if (up && as->cb > as->ca) {
				eval_at(f, as->ca, as->cb, &v);
				p_max(at, &r->hi, &r->hi, &v.hi);
			} else if (d >= 0 && !in_for_header(f, as->pos) &&
			    inc_times(f, name, as->pos, f->dc[d].s, &tm)) {
				/* x += c in loops of bounded trips */
				struct iv ti;
				p_const(&ti.lo, 0);
				ti.hi = tm;
				iv_mul(at, &v, &v, &ti);
				if (up)
					p_add(&r->hi, &r->hi, &v.hi, 1);
				else
					p_add(&r->lo, &r->lo, &v.hi, -1);
			} else if (up)
				p_inf(&r->hi);
			else
				p_inf(&r->lo);
		} else if (as->kind == A_DIV) {
			if (iv_nonneg(at, r))
				p_const(&r->lo, 0);
			else
				iv_top(r);
		} else if (as->kind == A_UNK)
			iv_top(r);
	}
}

/* A variable's value anywhere: the hull of what is assigned to it.  A
 * variable assigned a value that reads it (best = v > b ? k : best, x =
 * x + 1) is checked by induction: the hull of the bounded assignments is
 * taken, widened by what one more round gives, and kept where every
 * assignment evaluated with the variable in it stays in it. */
static void
var_hull(struct fn *f, const char *name, int d, struct iv *r)
{
	struct atoms *at = f->k->at;
	struct memo *m = NULL;
	struct iv fin, g, fin2;
	struct fn_mark mk;
	int i, nfin, round;

	for (i = 0; i < f->nm; i++)
		if (strcmp(f->m[i].name, name) == 0 && f->m[i].d == d) {
			m = &f->m[i];
			break;
		}
	if (m != NULL && (m->state == 2 || m->state == 3)) {
		*r = m->v;
		return;
	}
	if (m != NULL || strlen(name) >= sizeof(m->name)) {
		if (m != NULL) {
			m->cyc++;
			f->k->pend++;
		}
		iv_top(r);	/* a cycle: x = f(x) */
		return;
	}
	f->m = grow(f->m, &f->cm, f->nm, sizeof(*f->m));
	i = f->nm++;
	memset(&f->m[i], 0, sizeof(f->m[i]));
	copy(f->m[i].name, sizeof(f->m[i].name), name);
	f->m[i].d = d;
	f->m[i].state = 1;
	fn_mark(f, &mk);
	hull_pass(f, name, d, r, &fin, &nfin);
	if (!f->m[i].cyc)
		fn_keep(&mk);
	else {
		/* what the first round gave and cached rests on this one */
		fn_undo(f, &mk);
		iv_top(r);
		if (f->k->rounds >= MAX_ROUNDS)
			nfin = 0;
		f->m[i].state = 3;
		for (round = 0; nfin && round < INDUCTION_ROUNDS; round++) {
			int n2;
			f->m[i].v = fin;
			f->k->rounds++;
			fn_mark(f, &mk);
			hull_pass(f, name, d, &g, &fin2, &n2);
			fn_undo(f, &mk);
			if (g.lo.inf || g.hi.inf)
				break;
			if (iv_within(at, &g, &fin)) {
				*r = fin;
				break;
			}
			iv_hull(at, &fin, &fin, &g);
		}
	}
	f->m[i].state = 2;
	f->m[i].v = *r;
	f->k->pend -= f->m[i].cyc;	/* no longer a value being evaluated */
}

/* The assignment x = E that alone reaches pos, or -1: the last one
 * before pos, a statement of its own in a block that holds pos, with no
 * assignment of x after pos in a loop around pos that does not hold it
 * (whose next trip would bring that value back).  A step x += E, x -= E,
 * x++ or x-- qualifies as well: its value is then the one that reaches
 * the step, moved by E (var_value). */
static int
sole_def(struct fn *f, const char *name, int d, size_t pos)
{
	const struct toks *t = f->t;
	int j, last = -1;
	size_t st, pa;

	for (j = 0; j < f->nas; j++) {
		struct asg *as = &f->as[j];
		if (strcmp(as->name, name) != 0 || as->d != d ||
		    as->pos >= pos || (pos >= as->a && pos < as->b) ||
		    fn_dead(f, as->pos))
			continue;
		if (last < 0 || as->pos > f->as[last].pos)
			last = j;
	}
	if (last < 0)
		return -1;
	/* a step in a loop's header runs after the body it precedes */
	if (f->as[last].kind != A_EQ && ((f->as[last].kind != A_INC &&
	    f->as[last].kind != A_DEC) || in_for_header(f, f->as[last].pos)))
		return -1;
	pa = f->as[last].pos;
	for (st = pa; st > f->a && (is_ident(t->v[st - 1]) ||
	    is(t, st - 1, "*") || is(t, st - 1, "&") || is(t, st - 1, "::")) &&
	    !is_keyword(t->v[st - 1]); st--)
		;
	if (st > f->a && !is(t, st - 1, ";") && !is(t, st - 1, "{") &&
	    !is(t, st - 1, "}"))
		return -1;
	if (block_end(f, pa) < pos)
		return -1;
	for (j = 0; j < f->nl; j++) {
		struct loop *l = &f->l[j];
		int k2;
		if (pos < l->s || pos >= l->e || (pa >= l->s && pa < l->e))
			continue;
		for (k2 = 0; k2 < f->nas; k2++)
			if (strcmp(f->as[k2].name, name) == 0 &&
			    f->as[k2].d == d && (f->as[k2].pos >= pos ||
			    f->as[k2].b > pos) && f->as[k2].pos < l->e)
				return -1;	/* x = x + 1 reads the last trip's x */
	}
	return last;
}

/* for (v = A; v < B; v += C) with A and C constants: v is A plus a
 * multiple of C, so a constant upper bound h is A + C * ((h - A) / C)
 * (s < 8 stepping by 4 is at most 4). */
static void
stride_hi(struct fn *f, const char *name, int d, struct iv *r)
{
	long long a = 0, c = 0, h, x;
	struct iv v;
	int j, eq = 0;

	if (d < 0 || !p_isconst(&r->hi, &h))
		return;
	/* the shape first, without evaluating anything: one = and steps
	 * (an evaluation here runs inside the variable's own, for every
	 * read of it) */
	for (j = 0; j < f->nas; j++) {
		struct asg *as = &f->as[j];
		if (strcmp(as->name, name) != 0 || as->d != d)
			continue;
		if (as->kind == A_EQ)
			eq++;
		else if (as->kind != A_INC)
			return;
		else
			c = 1;
	}
	if (eq != 1 || c == 0)
		return;
	eq = 0;
	c = 0;
	for (j = 0; j < f->nas; j++) {
		struct asg *as = &f->as[j];
		if (strcmp(as->name, name) != 0 || as->d != d)
			continue;
		eval_at(f, as->a, as->b, &v);
		if (as->b <= as->a || !p_isconst(&v.lo, &x) ||
		    !p_isconst(&v.hi, &x))
			return;
		if (as->kind == A_EQ) {
			if (eq++)
				return;
			a = x;
		} else if (x <= 1 || (c != 0 && c != x))
			return;
		else
			c = x;
	}
	if (eq == 1 && c > 1 && h >= a)
		p_const(&r->hi, a + c * ((h - a) / c));
}

/* A guard's bound on a variable that is a multiple of m in every path
 * (multiple.c) holds for the multiple of m at or below it: i < n with i
 * stepping by 4 gives i <= 4 * ((n - 1) / 4). */
static void
multiple_hi(struct fn *f, const char *name, int d, struct iv *r)
{
	struct atoms *at = f->k->at;
	struct poly c, q;
	long long m;

	if (r->hi.inf || !p_nonneg(at, &r->hi) || f->k->in_multiple)
		return;
	f->k->in_multiple = 1;	/* its reads of other variables */
	m = var_multiple(f, name, d, 0);
	f->k->in_multiple = 0;
	if (m <= 1)
		return;
	p_const(&c, m);
	p_div(at, &q, &r->hi, &c);
	if (!q.inf)
		p_mul(&r->hi, &q, &c);
}

/* Narrow r by guard g, which holds where r is taken. */
static void
guard_meet(struct fn *f, struct guard *g, struct iv *r)
{
	struct atoms *at = f->k->at;
	struct poly one, b;
	struct iv rv;

	if (g->state == 0) {
		g->state = 1;
		eval_at(f, g->a, g->b, &g->v);
		g->state = 2;
	}
	if (g->state != 2)
		return;
	p_const(&one, 1);
	if (g->hi) {
		b = g->v.hi;
		if (g->strict)
			p_add(&b, &b, &one, -1);
		if (g->scale > 1) {
			/* c * v <= b: v <= b / c, b at least 0 */
			struct poly c;
			p_const(&c, g->scale);
			p_div(at, &b, &b, &c);
		}
		if (g->rb > g->ra) {
			eval_at(f, g->ra, g->rb, &rv);
			p_max(at, &b, &b, &rv.hi);
		}
		p_meet_hi(at, &r->hi, &b, &r->hi);
	} else {
		b = g->v.lo;
		if (g->strict)
			p_add(&b, &b, &one, 1);
		if (g->rb > g->ra) {
			eval_at(f, g->ra, g->rb, &rv);
			p_min(at, &b, &b, &rv.lo);
		}
		p_meet_lo(at, &r->lo, &b, &r->lo);
	}
}

/* Whether guard g bounds expression [a, b) at a: its expression is
 * spelled as [a, b), a lies in its range, and none of its names is
 * assigned between the guard and a. */
static int
guard_on(struct fn *f, const struct guard *g, size_t a, size_t b)
{
	const struct toks *t = f->t;
	size_t j;
	int x;

	if (g->xb <= g->xa || g->xb - g->xa != b - a || a < g->s ||
	    a >= g->e || g->state == 1)
		return 0;
	for (j = 0; j < b - a; j++)
		if (strcmp(t->v[a + j], t->v[g->xa + j]) != 0)
			return 0;
	/* the assignments flow.c noted: one to a name of the expression
	 * between the guard and a voids it */
	for (x = 0; x < f->nas; x++) {
		if (f->as[x].pos < g->s || f->as[x].pos >= a)
			continue;
		for (j = g->xa; j < g->xb; j++)
			if (strcmp(f->as[x].name, t->v[j]) == 0)
				return 0;
	}
	return 1;
}

/* The guards on expression [a, b) that hold at a (guard_on). */
static void
expr_guards(struct fn *f, size_t a, size_t b, struct iv *r)
{
	int i;

	for (i = 0; i < f->ng; i++)
		if (guard_on(f, &f->g[i], a, b))
			guard_meet(f, &f->g[i], r);
}

/* Whether some guard bounds [a, b). */
static int
guarded_sum(struct fn *f, size_t a, size_t b)
{
	int i;

	for (i = 0; i < f->ng; i++)
		if (guard_on(f, &f->g[i], a, b))
			return 1;
	return 0;
}

/* A variable's value at pos: what the one assignment that reaches it
 * gives, else its hull, narrowed by the guards there. */
static void
var_value(struct fn *f, const char *name, size_t pos, struct iv *r)
{
	size_t after = 0;
	int i, d = decl_of(f, name, pos), j, met = 0;

	if ((j = sole_def(f, name, d, pos)) >= 0 && f->as[j].kind != A_EQ) {
		/* x += E in straight-line code (an offset moved on between
		 * two calls): what reaches the step, plus E */
		struct iv step;
		step_by(f, &f->as[j], &step);
		var_value(f, name, f->as[j].pos, r);
		iv_add(r, r, &step, f->as[j].kind == A_INC ? 1 : -1);
		after = f->as[j].b > f->as[j].a ? f->as[j].b : f->as[j].pos + 1;
	} else if (j >= 0) {
		eval_at(f, f->as[j].a, f->as[j].b, r);
		after = f->as[j].b;
	} else
		var_hull(f, name, d, r);
	for (i = 0; i < f->ng; i++) {
		struct guard *g = &f->g[i];
		if (pos < g->s || pos >= g->e || strcmp(g->name, name) != 0 ||
		    g->state == 1 || g->s < after)
			continue;
		guard_meet(f, g, r);
		met = 1;
	}
	if (j < 0)
		stride_hi(f, name, d, r);
	if (met)
		multiple_hi(f, name, d, r);
}

static void
number(const char *s, struct iv *r)
{
	char *end;
	long long v;
	double d;

	errno = 0;
	v = strtoll(s, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	if (*end == '\0' && errno == 0) {
		iv_const(r, v);
		return;
	}
	d = strtod(s, &end);
	if ((*end == 'f' || *end == 'F' || *end == '\0') && fabs(d) < 1e15) {
		p_const(&r->lo, (long long)floor(d));
		p_const(&r->hi, (long long)ceil(d));
	} else
		iv_top(r);
}

/* The scalar type a type name means: itself, or the one the instance
 * binds a template parameter of that name to (sizeof(T), T float). */
const struct k_dtype *
bound_dtype(struct kern *k, const char *name)
{
	json_t *b = json_object_get(json_object_get(json_object_get(k->rec,
	    "slice"), "instance"), name);

	return k_dtype_c(json_is_string(b) ? json_string_value(b) : name);
}

/* Whether ( ... ) at i..close is a cast, not a parenthesized value. */
int
is_cast(struct fn *f, size_t i, size_t close)
{
	const struct toks *t = f->t;
	size_t j;
	long long v;

	if (close <= i + 1 || close + 1 >= f->t->n)
		return 0;
	for (j = i + 1; j < close; j++) {
		const char *s = t->v[j];
		if (!is_ident(s) && strcmp(s, "*") != 0 && strcmp(s, "::") != 0 &&
		    strcmp(s, "&") != 0)
			return 0;
		if (is_ident(s) && (fn_param(f, s) >= 0 ||
		    const_get(&f->k->c, s, &v)))
			return 0;
		if (is_ident(s) && k_dtype_c(s) == NULL && j + 1 == close) {
			int x;
			for (x = 0; x < f->nas; x++)
				if (strcmp(f->as[x].name, s) == 0)
					return 0;
		}
	}
	j = close + 1;
	return is_ident(t->v[j]) || isdigit((unsigned char)*t->v[j]) ||
	    is(t, j, "(") || is(t, j, "-") || is(t, j, "+") || is(t, j, "!") ||
	    is(t, j, "~") || is(t, j, "*") || is(t, j, "&") || is(t, j, ".");
}

size_t *
args_of(struct fn *f, size_t open, int *n)
{
	size_t close = skip_group(f->t, open) - 1, i, *ends;
	int mixed, max = 2, depth = 0;

	/* room for every argument: one more than the commas */
	for (i = open + 1; i < close; i++) {
		const char *s = f->t->v[i];
		if (*s == '(' || *s == '[')
			depth++;
		else if (*s == ')' || *s == ']')
			depth--;
		else if (depth == 0 && *s == ',')
			max++;
	}
	ends = k_calloc((size_t)max, sizeof(*ends));
	*n = split_top(f->t, open + 1, close, ",", ends, max, &mixed);
	if (close == open + 1)
		*n = 0;
	return ends;
}

/* Bind helper h's parameters to the n arguments of the call whose ( is
 * at open in f (ends: args_of's): a pointer unbounded, a value its
 * interval. */
void
helper_bind(struct fn *f, struct fn *h, size_t open, const size_t *ends,
    int n)
{
	int i;

	h->bind = k_calloc((size_t)(n ? n : 1), sizeof(*h->bind));
	for (i = 0; i < n; i++)
		if (h->pptr[i])
			iv_top(&h->bind[i]);
		else
			eval_at(f, i ? ends[i - 1] + 1 : open + 1, ends[i],
			    &h->bind[i]);
}

struct fn *
helper_call(struct fn *f, size_t open)
{
	const char *name = open > 0 ? f->t->v[open - 1] : "";
	struct fn *h;
	size_t *ends;
	int n;

	if (!is_ident(name))
		return NULL;
	ends = args_of(f, open, &n);
	if ((h = find_helper(f->k, name, n)) != NULL)
		helper_bind(f, h, open, ends, n);
	free(ends);
	return h;
}

/* A call's value: min, max, rounding, abs; anything else unbounded. */
static void
x_call(struct ex *x, const char *name, size_t open, struct iv *r)
{
	static const char *const mins[] = { "min", "fminf", "fmin", "umin",
	    "llmin", "__min", "MIN", "imin", NULL };
	static const char *const maxs[] = { "max", "fmaxf", "fmax", "umax",
	    "llmax", "__max", "MAX", "imax", NULL };
	static const char *const same[] = { "floor", "floorf", "ceil", "ceilf",
	    "round", "roundf", "rint", "rintf", "trunc", "truncf", "lrintf",
	    "__float2int_rd", "__float2int_rn", "__float2int_ru",
	    "__float2int_rz", "__double2int_rd", "__double2int_rn",
	    "__double2int_ru", "__double2int_rz", "__float2uint_rd",
	    "__float2ll_rd", "int", "long", "unsigned", "size_t", "int64_t",
	    "float", "double", "static_cast", "T", NULL };
	struct fn *f = x->f;
	struct atoms *at = f->k->at;
	size_t *ends;
	struct iv a, b;
	struct fn *h;
	int n, i, kind = 0;

	ends = args_of(f, open, &n);
	for (i = 0; mins[i] != NULL; i++)
		if (strcmp(name, mins[i]) == 0)
			kind = 1;
	for (i = 0; maxs[i] != NULL; i++)
		if (strcmp(name, maxs[i]) == 0)
			kind = 2;
	for (i = 0; same[i] != NULL; i++)
		if (strcmp(name, same[i]) == 0)
			kind = 3;
	if (strncmp(name, "__shfl", 6) == 0 && (n == 2 || n == 3 ||
	    (n == 4 && strcmp(name + strlen(name) - 5, "_sync") == 0))) {
		/* another lane's value of the same variable: its hull */
		i = strcmp(name + strlen(name) - 5, "_sync") == 0;
		eval_at(f, i ? ends[0] + 1 : open + 1, ends[i], r);
		free(ends);
		return;
	}
	if (strcmp(name, "abs") == 0 || strcmp(name, "fabsf") == 0 ||
	    strcmp(name, "fabs") == 0 || strcmp(name, "llabs") == 0)
		kind = 4;
	if ((kind == 1 || kind == 2) && n == 2) {
		eval_at(f, open + 1, ends[0], &a);
		eval_at(f, ends[0] + 1, ends[1], &b);
		if (kind == 1) {
			p_min(at, &r->lo, &a.lo, &b.lo);
			p_meet_hi(at, &r->hi, &a.hi, &b.hi);
		} else {
			p_meet_lo(at, &r->lo, &a.lo, &b.lo);
			p_max(at, &r->hi, &a.hi, &b.hi);
		}
	} else if (kind >= 3 && n == 1) {
		eval_at(f, open + 1, ends[0], r);
		if (kind == 4 && !iv_nonneg(at, r)) {
			struct poly z, neg;
			p_const(&z, 0);
			p_add(&neg, &z, &r->lo, -1);
			p_max(at, &r->hi, &r->hi, &neg);
			p_const(&r->lo, 0);
		}
	} else if (kind == 0 && f->k->calls < MAX_HELPER &&
	    (h = find_helper(f->k, name, n)) != NULL) {
		/* a helper of the slice: the hull of what it returns */
		size_t j;
		int have = 0;
		h->bind = k_calloc((size_t)(n ? n : 1), sizeof(*h->bind));
		for (i = 0; i < n; i++)
			eval_at(f, i ? ends[i - 1] + 1 : open + 1, ends[i],
			    &h->bind[i]);
		f->k->calls++;
		for (j = h->a; j < h->b; j++) {
			static const char *const semi[] = { ";", NULL };
			size_t e;
			if (!is(h->t, j, "return"))
				continue;
			e = expr_end(h->t, j + 1, semi);
			eval_at(h, j + 1, e, &a);
			if (have)
				iv_hull(at, r, r, &a);
			else
				*r = a;
			have = 1;
		}
		f->k->calls--;
		if (!have)
			iv_top(r);
		fn_free(h);
	} else
		iv_top(r);
	free(ends);
}

/* The kernel parameter that pointer name points into: the parameter
 * itself, or a local every assignment of which is q, q + off or q - off
 * for such a pointer q (a chain of locals, row = map + r * k; at = row +
 * j), or moves it (q += off); -1 when it is neither.  depth bounds the
 * chain. */
static int
buffer_at(struct fn *f, const char *name, int depth)
{
	const struct toks *t = f->t;
	int p = fn_param(f, name), j, q, eq = 0;

	if (p >= 0)
		return f->k->p[p].ptr ? p : -1;
	if (depth <= 0)
		return -1;
	p = -1;
	for (j = 0; j < f->nas; j++) {
		struct asg *as = &f->as[j];
		if (strcmp(as->name, name) != 0)
			continue;
		if (as->kind == A_INC || as->kind == A_DEC)
			continue;
		if (as->kind != A_EQ || as->b <= as->a ||
		    !is_ident(t->v[as->a]) ||
		    strcmp(t->v[as->a], name) == 0 ||
		    (q = buffer_at(f, t->v[as->a], depth - 1)) < 0 ||
		    !f->k->p[q].ptr || (p >= 0 && q != p) ||
		    !(as->a + 1 == as->b || is(t, as->a + 1, "+") ||
		    is(t, as->a + 1, "-")))
			return -1;
		p = q;
		eq = 1;
	}
	return eq ? p : -1;
}

static int
buffer_of(struct fn *f, const char *name, size_t pos)
{
	(void)pos;
	return buffer_at(f, name, 4);
}

/* Whether tokens [i, e), a read of element type integer or one converted
 * to an integer there: (int)b[j], static_cast<int>(b[j]), int v = b[j]; */
static int
int_read(struct fn *f, size_t i, size_t e, const struct k_dtype *dt)
{
	const struct toks *t = f->t;
	const struct k_dtype *c;

	if (!dt->is_float)
		return 1;
	if (i >= 3 && is(t, i - 1, ")") && is(t, i - 3, "(") &&
	    (c = k_dtype_c(t->v[i - 2])) != NULL && !c->is_float)
		return 1;
	if (i >= 5 && is(t, i - 1, "(") && is(t, i - 2, ">") &&
	    is(t, i - 4, "<") && is(t, i - 5, "static_cast") &&
	    (c = k_dtype_c(t->v[i - 3])) != NULL && !c->is_float &&
	    is(t, e, ")"))
		return 1;
	return i >= 2 && is(t, i - 1, "=") && is_ident(t->v[i - 2]) &&
	    int_var(f, t->v[i - 2]) && (is(t, e, ";") || is(t, e, ","));
}

/* The value of expression text s evaluated in f: a count's, a grid
 * dimension's. */
static void
text_value(struct fn *f, const char *s, struct iv *r)
{
	struct fn g = *f;
	struct toks gt = { 0 };

	tokenize(s, &gt);
	g.t = &gt;
	g.a = 0;
	g.b = gt.n;
	g.nas = g.ng = 0;
	g.nm = 0;
	g.m = NULL;
	g.cm = 0;
	g.ndead = 0;
	g.nifs = 0;
	eval_at(&g, 0, gt.n, r);
	free(g.m);
	toks_free(&gt);
}

/* Whether the read name[...] at [i, e) is of an input buffer whose values
 * kwrap bounds: the kernel's, read-only (an input, or a pointer not const
 * that the kernel is never seen to write), of integers or converted to an
 * integer at once.  The buffer is then filled with data_lo..data_lo +
 * DATA_HI in every case (fill_json), and the read is in that range, *r;
 * a scatter index (scatter.c) is filled with distinct values, each of
 * data_lo .. data_lo + count - 1 once. */
static int
data_read(struct fn *f, const char *name, size_t i, size_t e, struct iv *r)
{
	struct param *p;
	struct iv c;
	struct poly one;
	int pi;

	if (!f->kernel || (pi = buffer_of(f, name, i)) < 0)
		return 0;
	p = &f->k->p[pi];
	if ((p->role != R_IN && (p->role != R_INOUT || p->written)) ||
	    p->dt == NULL ||
	    strcmp(p->dt->name, "bool") == 0 || !int_read(f, i, e, p->dt) ||
	    is(f->t, e, ".") || is(f->t, e, "->"))
		return 0;
	p->vals = 1;
	p_const(&r->lo, f->k->data_lo);
	p_const(&r->hi, f->k->data_lo + DATA_HI);
	if (p->distinct) {
		text_value(f, p->dcount, &c);
		if (!c.hi.inf) {
			p_const(&one, f->k->data_lo - 1);
			p_add(&r->hi, &c.hi, &one, 1);
		}
	}
	return 1;
}

static void
x_primary(struct ex *x, struct iv *r)
{
	struct fn *f = x->f;
	struct kern *k = f->k;
	const struct toks *t = f->t;
	const char *s;
	size_t i = x->i, close;
	long long v;
	int d, p;

	if (i >= x->end) {
		x->bad = 1;
		iv_top(r);
		return;
	}
	s = t->v[i];
	if (isdigit((unsigned char)*s) || (*s == '.' &&
	    isdigit((unsigned char)s[1]))) {
		number(s, r);
		x->i++;
		return;
	}
	if (strcmp(s, "(") == 0) {
		close = skip_group(t, i) - 1;
		if (close >= x->end) {
			x->bad = 1;
			iv_top(r);
			return;
		}
		if (is_cast(f, i, close)) {
			int ptr = 0;
			size_t j;
			for (j = i + 1; j < close; j++)
				ptr |= is(t, j, "*");
			x->i = close + 1;
			x_unary(x, r);
			if (ptr)
				iv_top(r);
			return;
		}
		eval_at(f, i + 1, close, r);
		x->i = close + 1;
		return;
	}
	if (!is_ident(s)) {
		x->bad = 1;
		iv_top(r);
		return;
	}
	if (is(t, i + 1, "::") && i + 2 < x->end && is_ident(t->v[i + 2]) &&
	    (strcmp(s, "std") == 0 || strcmp(s, "cuda") == 0)) {
		x->i = i + 2;
		x_primary(x, r);
		return;
	}
	x->i = i + 1;
	if ((strcmp(s, "blockIdx") == 0 || strcmp(s, "threadIdx") == 0 ||
	    strcmp(s, "blockDim") == 0 || strcmp(s, "gridDim") == 0) &&
	    (d = dim_of(t, i)) >= 0) {
		x->i = i + 3;
		if (*s == 't') {
			p_const(&r->lo, 0);
			p_const(&r->hi, k->block[d] - 1);
		} else if (strcmp(s, "blockDim") == 0)
			iv_const(r, k->block[d]);
		else {
			struct iv gv;
			struct poly one;
			text_value(k->kf != NULL ? k->kf : f, k->grid[d], &gv);
			/* a grid dimension is at least 1 in every case (fit
			 * raises the sizes until it is): micro_batch / 16
			 * is a size, and so is each factor of a product of
			 * factors none of which is negative, ((M + 127) /
			 * 128) * (N / 64) */
			if (!gv.hi.inf && gv.hi.n == 1 && gv.hi.t[0].c >= 1) {
				const struct term *u = &gv.hi.t[0];
				int y, ok = 1;
				for (y = 0; y < u->na; y++)
					if (!k->at->a[u->a[y]].ge1 &&
					    !k->at->a[u->a[y]].nonneg)
						ok = 0;
				for (y = 0; ok && y < u->na; y++)
					k->at->a[u->a[y]].ge1 = 1;
			}
			if (*s == 'g')
				*r = gv;
			else {
				p_const(&r->lo, 0);
				p_const(&one, 1);
				p_add(&r->hi, &gv.hi, &one, -1);
			}
		}
		return;
	}
	if ((strcmp(s, "static_cast") == 0 || strcmp(s, "reinterpret_cast") == 0) &&
	    is(t, i + 1, "<")) {
		size_t j = i + 1, close2;
		int ptr = 0;
		while (j < x->end && !is(t, j, ">"))
			ptr |= is(t, j++, "*");
		if (!is(t, j + 1, "(")) {
			x->bad = 1;
			iv_top(r);
			return;
		}
		close2 = skip_group(t, j + 1) - 1;
		eval_at(f, j + 2, close2, r);
		if (ptr || *s == 'r')
			iv_top(r);
		x->i = close2 + 1;
		return;
	}
	if (strcmp(s, "sizeof") == 0 && is(t, i + 1, "(")) {
		const struct k_dtype *dt = bound_dtype(k, t->v[i + 2]);
		close = skip_group(t, i + 1) - 1;
		x->i = close + 1;
		if (dt != NULL && close == i + 3)
			iv_const(r, dt->size);
		else
			iv_top(r);
		return;
	}
	if (is(t, i + 1, "(")) {
		close = skip_group(t, i + 1) - 1;
		x_call(x, s, i + 1, r);
		x->i = close + 1;
		return;
	}
	if (is(t, i + 1, "[")) {
		/* a value read from memory */
		x->i = skip_group(t, i + 1);
		if (!is(t, x->i, "[") && data_read(f, s, i, x->i, r))
			return;
		while (is(t, x->i, "["))
			x->i = skip_group(t, x->i);
		if (!onchip_read(f, s, i, r))
			iv_top(r);
		return;
	}
	if (is(t, i + 1, ".") || is(t, i + 1, "->")) {
		p = f->kernel ? fn_param(f, s) : -1;
		x->i = i + 3;
		if (p >= 0 && k->p[p].is_struct && is_ident(t->v[i + 2])) {
			char fld[160];
			int fi, a;
			for (fi = 0; fi < k->p[p].nf; fi++)
				if (strcmp(k->p[p].f[fi].name, t->v[i + 2]) == 0 &&
				    !k->p[p].f[fi].dt->is_float)
					break;
			if (fi < k->p[p].nf) {
				bprintf(fld, sizeof(fld), "%s.%s", s, t->v[i + 2]);
				a = atom_get(k->at, fld);
				if (a >= 0)
					k->at->a[a].ge1 = 1;
				p_atom(&r->lo, a);
				p_atom(&r->hi, a);
				return;
			}
		}
		iv_top(r);
		return;
	}
	if (fn_param(f, s) < 0 && (const_get(&f->tc, s, &v) ||
	    const_get(&k->c, s, &v))) {
		iv_const(r, v);
		return;
	}
	if (strcmp(s, "warpSize") == 0) {
		iv_const(r, 32);
		return;
	}
	if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0) {
		iv_const(r, *s == 't');
		return;
	}
	var_value(f, s, i, r);
}

static void
x_postfix(struct ex *x, struct iv *r)
{
	x_primary(x, r);
	while (x->i < x->end && (is(x->f->t, x->i, "++") ||
	    is(x->f->t, x->i, "--")))
		x->i++;
}

/* *p or *(p + k) at x->i, a read of an input buffer whose values kwrap
 * bounds (data_read): in data_lo + [0, DATA_HI]; 0 when it is not one.  A cast
 * around the read in parentheses, (int)(*(p + k)), counts as at once. */
static int
data_deref(struct ex *x, struct iv *r)
{
	struct fn *f = x->f;
	const struct toks *t = f->t;
	size_t st = x->i, e, a, b;
	const char *name;

	if (st + 2 < t->n && is_ident(t->v[st + 1]) && !is(t, st + 2, "(") &&
	    !is(t, st + 2, "[") && !is(t, st + 2, ".") &&
	    !is(t, st + 2, "->")) {
		name = t->v[st + 1];
		e = st + 2;
	} else if (st + 3 < t->n && is(t, st + 1, "(") &&
	    is_ident(t->v[st + 2]) && (is(t, st + 3, "+") ||
	    is(t, st + 3, ")"))) {
		name = t->v[st + 2];
		e = skip_group(t, st + 1);
	} else
		return 0;
	if (e > x->end)
		return 0;
	a = st;
	b = e;
	if (a > 0 && is(t, a - 1, "(") && is(t, b, ")")) {
		a--;
		b++;
	}
	if (!data_read(f, name, a, b, r))
		return 0;
	x->i = e;
	return 1;
}

static void
x_unary(struct ex *x, struct iv *r)
{
	const struct toks *t = x->f->t;
	struct iv z;

	if (x->i >= x->end) {
		x->bad = 1;
		iv_top(r);
		return;
	}
	if (is(t, x->i, "-") || is(t, x->i, "+")) {
		int neg = is(t, x->i, "-");
		x->i++;
		x_unary(x, r);
		if (neg) {
			iv_const(&z, 0);
			iv_add(r, &z, r, -1);
		}
		return;
	}
	if (is(t, x->i, "!")) {
		x->i++;
		x_unary(x, r);
		p_const(&r->lo, 0);
		p_const(&r->hi, 1);
		return;
	}
	if (is(t, x->i, "*") && data_deref(x, r))
		return;
	if (is(t, x->i, "~") || is(t, x->i, "*") || is(t, x->i, "&")) {
		x->i++;
		x_unary(x, r);
		iv_top(r);
		return;
	}
	if (is(t, x->i, "++") || is(t, x->i, "--")) {
		x->i++;
		x_unary(x, r);
		iv_top(r);
		return;
	}
	x_postfix(x, r);
}

/*
 * x % m where m is a multiple of c and x = c * Q + e, Q's terms each a
 * multiple of c and e from 0 to R < c: the remainder is c * (Q mod m / c)
 * + e, at most m - c + R, which x % m < m does not say.  (16 * b + t /
 * 4) % Kp with Kp = 16 * ((K + 15) / 16) is at most Kp - 9, and the rows
 * a store adds to it (up to 8) stay below Kp.  [a, e) is x, [ma, me) m,
 * r (0 or more) x % m so far.
 */
#define MOD_TERMS 64	/* terms of a dividend mod_tail reads */

static void
mod_tail(struct fn *f, size_t a, size_t e, size_t ma, size_t me,
    const struct iv *m, struct iv *r)
{
	const struct toks *t = f->t;
	struct atoms *at = f->k->at;
	struct poly k, h;
	struct iv tv;
	long long c = expr_multiple(f, ma, me), lo = 0, hi = 0, v, w, tm;
	size_t s[MOD_TERMS], en[MOD_TERMS];
	int sg[MOD_TERMS], n, j;

	if (c <= 1)
		return;
	while (e > a + 1 && is(t, a, "(") && skip_group(t, a) == e) {
		a++;
		e--;
	}
	/* each term: a multiple of c, or bounded by constants */
	if ((n = sum_terms(t, a, e, s, en, sg, MOD_TERMS)) < 0)
		return;
	for (j = 0; j < n; j++) {
		tm = expr_multiple(f, s[j], en[j]);
		if (tm != 0 && tm % c == 0)
			continue;
		eval_at(f, s[j], en[j], &tv);
		if (!p_isconst(&tv.lo, &v) || !p_isconst(&tv.hi, &w))
			return;
		lo += sg[j] > 0 ? v : -w;
		hi += sg[j] > 0 ? w : -v;
	}
	if (lo < 0 || hi >= c)
		return;
	p_const(&k, c - hi);
	p_add(&h, &m->hi, &k, -1);
	p_meet_hi(at, &r->hi, &h, &r->hi);
}

static void
x_mul(struct ex *x, struct iv *r)
{
	struct atoms *at = x->f->k->at;
	const struct toks *t = x->f->t;
	struct iv b;
	struct poly one, z;
	long long c;
	size_t s0 = x->i;

	x_unary(x, r);
	p_const(&one, 1);
	p_const(&z, 0);
	while (x->i < x->end && (is(t, x->i, "*") || is(t, x->i, "/") ||
	    is(t, x->i, "%"))) {
		size_t at_op = x->i;
		char op = *t->v[x->i++];
		x_unary(x, &b);
		if (op == '*')
			iv_mul(at, r, r, &b);
		else if (!p_ge(at, &b.lo, &one) && p_nonneg(at, &b.lo) &&
		    iv_nonneg(at, r)) {
			/* a divisor of 0 or more, such as c >> 2, is at
			 * least 1 where the quotient has a value: x % d is
			 * at most x and below d (taken as d, which stays 0
			 * or more where d is 0), x / d is 0 or more (x as
			 * its bound overshoots by d, into counts of more
			 * than 64 GiB) */
			if (op == '%')
				p_meet_hi(at, &r->hi, &b.hi, &r->hi);
			else
				p_inf(&r->hi);
			p_const(&r->lo, 0);
		} else if (!p_ge(at, &b.lo, &one)) {
			/* a divisor that may be negative */
			iv_top(r);
		} else if (op == '/') {
			struct iv s;
			if (p_isconst(&b.lo, &c) && p_isconst(&b.hi, &c)) {
				p_div(at, &s.lo, &r->lo, &b.lo);
				p_div(at, &s.hi, &r->hi, &b.lo);
			} else if (iv_nonneg(at, r)) {
				/* (Q + m - 1) / m, Q >= 1: at least 1 */
				p_const(&s.lo, !b.hi.inf &&
				    p_ge(at, &r->lo, &b.hi) ? 1 : 0);
				p_div(at, &s.hi, &r->hi, &b.lo);
			} else
				iv_top(&s);
			*r = s;
		} else {
			/* x % m is below m, and 0 or more for x >= 0 */
			struct poly h;
			p_add(&h, &b.hi, &one, -1);
			if (iv_nonneg(at, r)) {
				p_meet_hi(at, &r->hi, &h, &r->hi);
				p_const(&r->lo, 0);
				mod_tail(x->f, s0, at_op, at_op + 1, x->i, &b,
				    r);
			} else {
				r->hi = h;
				p_add(&r->lo, &z, &h, -1);
			}
		}
	}
}

/*
 * A sum, term by term.  The terms that end it may be what a guard bounds
 * as a whole: in row * stride + i * step + tid under
 * "if (i * step + tid < stride)", the last two terms are at most
 * stride - 1, which no term's own range says; such a run of terms is
 * evaluated as one expression (eval_at, which meets its guards).
 */
#define SUM_TERMS 16

static void
x_add(struct ex *x, struct iv *r)
{
	const struct toks *t = x->f->t;
	struct iv *tv = NULL;	/* the terms, once there are two (the
				   nesting of sums is deep: not on the stack) */
	size_t st[SUM_TERMS];
	int sg[SUM_TERMS], n = 1, j;

	st[0] = x->i;
	sg[0] = 1;
	x_mul(x, r);
	while (x->i < x->end && (is(t, x->i, "+") || is(t, x->i, "-"))) {
		int sign = is(t, x->i, "+") ? 1 : -1;
		size_t s = ++x->i;
		if (tv == NULL) {
			tv = k_calloc(SUM_TERMS, sizeof(*tv));
			tv[0] = *r;
		}
		if (n == SUM_TERMS) {
			/* a long sum: the earliest terms as one */
			iv_add(&tv[0], &tv[0], &tv[1], sg[1]);
			memmove(tv + 1, tv + 2, (SUM_TERMS - 2) * sizeof(*tv));
			memmove(st + 1, st + 2, (SUM_TERMS - 2) * sizeof(*st));
			memmove(sg + 1, sg + 2, (SUM_TERMS - 2) * sizeof(*sg));
			n--;
		}
		st[n] = s;
		sg[n] = sign;
		x_mul(x, &tv[n++]);
		/* the whole sum is eval_at's: only a run after the first
		 * term, added, at least two terms */
		for (j = 1; j + 1 < n && !x->bad; j++)
			if (sg[j] == 1 && guarded_sum(x->f, st[j], x->i)) {
				eval_at(x->f, st[j], x->i, &tv[j]);
				n = j + 1;
				break;
			}
	}
	if (tv == NULL)
		return;
	*r = tv[0];
	for (j = 1; j < n; j++)
		iv_add(r, r, &tv[j], sg[j]);
	free(tv);
}

static void
x_shift(struct ex *x, struct iv *r)
{
	struct atoms *at = x->f->k->at;
	const struct toks *t = x->f->t;
	struct iv b, m;
	long long c;

	x_add(x, r);
	while (x->i < x->end && (is(t, x->i, "<<") || is(t, x->i, ">>"))) {
		int left = is(t, x->i, "<<");
		x->i++;
		x_add(x, &b);
		if (!p_isconst(&b.lo, &c) || !p_isconst(&b.hi, &c) || c < 0 ||
		    c > 40) {
			iv_top(r);
			continue;
		}
		iv_const(&m, 1LL << c);
		if (left)
			iv_mul(at, r, r, &m);
		else if (iv_nonneg(at, r)) {
			p_div(at, &r->lo, &r->lo, &m.lo);
			p_div(at, &r->hi, &r->hi, &m.lo);
		} else
			iv_top(r);
	}
}

/* Comparisons and logic give 0 or 1; & with a mask m >= 0 gives [0, m];
 * | and ^ of nonnegatives stay below their sum. */
static void
x_bits(struct ex *x, struct iv *r)
{
	struct atoms *at = x->f->k->at;
	const struct toks *t = x->f->t;
	static const char *const ops[] = { "<", ">", "<=", ">=", "==", "!=",
	    "&&", "||", "&", "|", "^", NULL };
	struct iv b;
	int k;

	x_shift(x, r);
	while (x->i < x->end) {
		for (k = 0; ops[k] != NULL; k++)
			if (is(t, x->i, ops[k]))
				break;
		if (ops[k] == NULL)
			break;
		x->i++;
		x_shift(x, &b);
		if (k < 8) {
			p_const(&r->lo, 0);
			p_const(&r->hi, 1);
		} else if (k == 8 && (iv_nonneg(at, r) || iv_nonneg(at, &b))) {
			if (iv_nonneg(at, r) && iv_nonneg(at, &b))
				p_meet_hi(at, &r->hi, &r->hi, &b.hi);
			else if (iv_nonneg(at, &b))
				r->hi = b.hi;
			p_const(&r->lo, 0);
		} else if (iv_nonneg(at, r) && iv_nonneg(at, &b)) {
			p_add(&r->hi, &r->hi, &b.hi, 1);
			p_const(&r->lo, 0);
		} else
			iv_top(r);
	}
}

static void
x_cond(struct ex *x, struct iv *r)
{
	struct atoms *at = x->f->k->at;
	const struct toks *t = x->f->t;
	struct iv b;

	/* a = b = E: the value of E */
	if (x->i + 1 < x->end && is_ident(t->v[x->i]) && is(t, x->i + 1, "=")) {
		x->i += 2;
		x_cond(x, r);
		return;
	}
	x_bits(x, r);
	if (x->i < x->end && is(t, x->i, "?")) {
		int p0 = x->f->k->pend, p1;
		x->i++;
		x_cond(x, r);
		if (!is(t, x->i, ":")) {
			x->bad = 1;
			return;
		}
		x->i++;
		p1 = x->f->k->pend;
		x_cond(x, &b);
		/* an arm that reads a value still being evaluated (best = v >
		 * b ? k : best) leaves the other as the guess an induction
		 * checks; nothing else keeps a value read so */
		if (p1 > p0 && x->f->k->pend == p1)
			*r = b;
		else if (p1 == p0 && x->f->k->pend > p1)
			;
		else
			iv_hull(at, r, r, &b);
	}
}
