/*
 * kwrap: bound algebra: polynomials over atoms and intervals of them.
 */
#include "kwrap.h"

void
p_const(struct poly *p, long long c)
{
	p->inf = 0;
	p->n = 0;
	if (c != 0) {
		p->n = 1;
		p->t[0].c = c;
		p->t[0].na = 0;
	}
}

void
p_inf(struct poly *p)
{
	p->inf = 1;
	p->n = 0;
}

int
p_isconst(const struct poly *p, long long *c)
{
	if (p->inf || p->n > 1 || (p->n == 1 && p->t[0].na > 0))
		return 0;
	*c = p->n ? p->t[0].c : 0;
	return 1;
}

/* Monomial order: higher degree first, then by atoms. */
static int
mono_cmp(const struct term *x, const struct term *y)
{
	int i;

	if (x->na != y->na)
		return y->na - x->na;
	for (i = 0; i < x->na; i++)
		if (x->a[i] != y->a[i])
			return (int)x->a[i] - (int)y->a[i];
	return 0;
}

static void
p_addterm(struct poly *p, const struct term *t)
{
	int i, j;

	if (p->inf || t->c == 0)
		return;
	for (i = 0; i < p->n; i++) {
		int r = mono_cmp(t, &p->t[i]);
		if (r == 0) {
			if (__builtin_add_overflow(p->t[i].c, t->c, &p->t[i].c))
				p_inf(p);
			else if (p->t[i].c == 0) {
				for (j = i; j + 1 < p->n; j++)
					p->t[j] = p->t[j + 1];
				p->n--;
			}
			return;
		}
		if (r < 0)
			break;
	}
	if (p->n >= MAX_TERMS) {
		p_inf(p);
		return;
	}
	for (j = p->n; j > i; j--)
		p->t[j] = p->t[j - 1];
	p->t[i] = *t;
	p->n++;
}

/* r = a + sign * b */
void
p_add(struct poly *r, const struct poly *a, const struct poly *b, int sign)
{
	struct poly s = *a;
	int i;

	if (a->inf || b->inf) {
		p_inf(r);
		return;
	}
	for (i = 0; i < b->n && !s.inf; i++) {
		struct term t = b->t[i];
		if (sign < 0 && __builtin_mul_overflow(t.c, -1LL, &t.c)) {
			p_inf(&s);
			break;
		}
		p_addterm(&s, &t);
	}
	*r = s;
}

void
p_mul(struct poly *r, const struct poly *a, const struct poly *b)
{
	struct poly s;
	int i, j, x, y, n;

	if (a->inf || b->inf) {
		p_inf(r);
		return;
	}
	p_const(&s, 0);
	for (i = 0; i < a->n && !s.inf; i++)
		for (j = 0; j < b->n && !s.inf; j++) {
			const struct term *u = &a->t[i], *v = &b->t[j];
			struct term t;
			if (u->na + v->na > MAX_MONO ||
			    __builtin_mul_overflow(u->c, v->c, &t.c)) {
				p_inf(&s);
				break;
			}
			/* merge two ascending atom lists */
			for (x = y = n = 0; x < u->na || y < v->na;)
				t.a[n++] = y >= v->na || (x < u->na &&
				    u->a[x] <= v->a[y]) ? u->a[x++] : v->a[y++];
			t.na = n;
			p_addterm(&s, &t);
		}
	*r = s;
}

void
p_scale(struct poly *r, const struct poly *a, long long c)
{
	struct poly k;

	p_const(&k, c);
	p_mul(r, a, &k);
}

static int
atom_signed(const struct atoms *at, int i)
{
	return !at->a[i].ge1 && !at->a[i].nonneg;
}

/* Whether p >= 0 for every value of its atoms: each negative term is
 * paid for by positive terms over the same atoms and more sizes (n * m - n
 * >= 0, since m >= 1), or by the constant when it is constant itself. */
int
p_nonneg(const struct atoms *at, const struct poly *p)
{
	long long w[MAX_TERMS];
	int i, j, x, y;

	if (p->inf)
		return 0;
	for (i = 0; i < p->n; i++) {
		w[i] = p->t[i].c;
		for (x = 0; x < p->t[i].na; x++)
			if (atom_signed(at, p->t[i].a[x]))
				return 0;
	}
	for (i = 0; i < p->n; i++) {
		const struct term *u = &p->t[i];
		long long need = -w[i];
		if (need <= 0)
			continue;
		for (j = 0; j < p->n && need > 0; j++) {
			const struct term *v = &p->t[j];
			long long take;
			if (w[j] <= 0 || v->na < u->na)
				continue;
			/* u's atoms a sub-multiset of v's, the rest sizes */
			for (x = y = 0; y < v->na; y++) {
				if (x < u->na && u->a[x] == v->a[y])
					x++;
				else if (!at->a[v->a[y]].ge1)
					break;
			}
			if (x < u->na || y < v->na)
				continue;
			take = w[j] < need ? w[j] : need;
			w[j] -= take;
			need -= take;
		}
		if (need > 0)
			return 0;
	}
	return 1;
}

int
p_ge(const struct atoms *at, const struct poly *a, const struct poly *b)
{
	struct poly d;

	if (a->inf && !b->inf)
		return 0;
	p_add(&d, a, b, -1);
	return p_nonneg(at, &d);
}


int
atom_get(struct atoms *at, const char *text)
{
	int i;

	for (i = 0; i < at->n; i++)
		if (strcmp(at->a[i].text, text) == 0)
			return i;
	if (at->n >= MAX_ATOMS || strlen(text) >= sizeof(at->a[0].text))
		return -1;
	memset(&at->a[at->n], 0, sizeof(at->a[0]));
	copy(at->a[at->n].text, sizeof(at->a[0].text), text);
	at->a[at->n].datom = -1;
	return at->n++;
}

void
p_atom(struct poly *p, int a)
{
	if (a < 0) {
		p_inf(p);
		return;
	}
	p_const(p, 1);
	p->t[0].na = 1;
	p->t[0].a[0] = (unsigned char)a;
}

/* Whether atom m is at least 1: a size, or X / d of a size X every case
 * keeps a multiple of d. */
static int
atom_ge1(const struct atoms *at, int m)
{
	const struct poly *x = &at->a[m].num;

	return at->a[m].ge1 || (at->a[m].div > 1 && x->n == 1 &&
	    x->t[0].c == 1 && x->t[0].na == 1 &&
	    at->a[x->t[0].a[0]].ge1 && at->a[x->t[0].a[0]].mult > 0 &&
	    at->a[x->t[0].a[0]].mult % at->a[m].div == 0);
}

/* (Q * m + c) / m for a monomial m (a constant d times atoms each at
 * least 1, so m >= d) that every term of a but a constant c holds, where
 * Q >= 1: Q for 0 <= c < d, Q - 1 for -d <= c < 0 (Q * m - 1 is Q * m's
 * last value below it: index / m for index < n * m is at most n - 1, and
 * blockIdx.x / (A * B) for a grid of A * B * n blocks too); c / m is 0
 * for 0 <= c < d.  0 when a is not of that form. */
static int
div_mono(const struct atoms *at, struct poly *r, const struct poly *a,
    const struct term *m)
{
	struct poly q, one;
	long long c = 0;
	int i, j, x, y;

	if (m->c < 1 || m->na == 0)
		return 0;
	for (y = 0; y < m->na; y++)
		if (!atom_ge1(at, m->a[y]))
			return 0;
	q.inf = 0;
	q.n = 0;
	for (i = 0; i < a->n; i++) {
		struct term u = a->t[i];
		if (u.na == 0) {
			c += u.c;
			continue;
		}
		if (u.c % m->c != 0)
			return 0;
		u.c /= m->c;
		for (y = 0; y < m->na; y++) {
			for (x = 0; x < u.na && u.a[x] != m->a[y]; x++)
				;
			if (x == u.na)
				return 0;
			for (j = x; j + 1 < u.na; j++)
				u.a[j] = u.a[j + 1];
			u.na--;
		}
		p_addterm(&q, &u);
	}
	p_const(&one, 1);
	if (q.n == 0 && c >= 0 && c < m->c) {
		p_const(r, 0);	/* 15 / (16 * x): below one m */
		return 1;
	}
	if (q.n == 0 || q.inf || c < -m->c || c >= m->c ||
	    !p_ge(at, &q, &one))
		return 0;
	if (c >= 0)
		*r = q;
	else
		p_add(r, &q, &one, -1);
	return 1;
}

/* The atom that stands for a / b (b a constant or one atom), made on
 * first use with what is known of it: its dividend, divisor, sign and
 * whether it is at least 1; -1 where its text is too long. */
static int
quotient(struct atoms *at, const struct poly *a, const struct poly *b)
{
	char ta[MAX_EXPR], tb[MAX_EXPR], text[MAX_EXPR * 2 + 8];
	long long d;
	int simple_a, simple_b, x;

	p_print(at, a, ta, sizeof(ta));
	p_print(at, b, tb, sizeof(tb));
	simple_a = a->n == 1 && a->t[0].c == 1 && a->t[0].na == 1;
	simple_b = p_isconst(b, &d) || (b->n == 1 && b->t[0].c == 1 &&
	    b->t[0].na == 1 && strchr(at->a[b->t[0].a[0]].text, ' ') == NULL);
	bprintf(text, sizeof(text), "%s%s%s / %s%s%s", simple_a ? "" : "(",
	    ta, simple_a ? "" : ")", simple_b ? "" : "(", tb,
	    simple_b ? "" : ")");
	if (strlen(text) >= MAX_EXPR || (x = atom_get(at, text)) < 0)
		return -1;
	if (!at->a[x].num.n && !at->a[x].div && at->a[x].datom < 0) {
		at->a[x].num = *a;
		at->a[x].nonneg = p_nonneg(at, a);
		if (p_isconst(b, &d)) {
			struct poly dd;
			at->a[x].div = d;
			/* (M + 127) / 128 of a size M is at least 1, and so
			 * is N / 16 of a size kept a multiple of 16 */
			p_const(&dd, d);
			if (p_ge(at, a, &dd) || atom_ge1(at, x))
				at->a[x].ge1 = 1;
		}
		else if (b->n == 1 && b->t[0].c == 1 && b->t[0].na == 1) {
			at->a[x].datom = b->t[0].a[0];
		}
	}
	return x;
}

/* The atom "X / m" for an atom X every case keeps a multiple of m: at
 * least 1 where X is a size, made before or not. */
static int
quotient_atom(struct atoms *at, int x, long long m)
{
	struct poly px, pm;
	int y;

	p_atom(&px, x);
	p_const(&pm, m);
	if ((y = quotient(at, &px, &pm)) >= 0 && at->a[x].ge1)
		at->a[y].ge1 = 1;
	return y;
}

/* The greatest common divisor, with 0 the multiple of everything. */
long long
gcd_ll(long long a, long long b)
{
	if (a < 0)
		a = -a;
	if (b < 0)
		b = -b;
	while (b != 0) {
		long long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* a / d for a constant d >= 2 where every term but a constant c holds
 * an atom whose multiple makes it one of d: K * kv / 32 with K a
 * multiple of 32 is (K / 32) * kv, and (N - 1) / 16 + 1 with N a
 * multiple of 16 is N / 16.  The constant, -d < c < d, takes 1 off
 * where it is negative (the terms being at least d).  0 when a is not
 * of that form. */
static int
div_mult(struct atoms *at, struct poly *r, const struct poly *a, long long d)
{
	struct poly q, one;
	long long c = 0;
	int i, j, x, y, any = 0;

	q.inf = 0;
	q.n = 0;
	for (i = 0; i < a->n; i++) {
		struct term u = a->t[i];
		long long g, need;
		if (u.na == 0) {
			c += u.c;
			continue;
		}
		if (u.c % d == 0) {
			u.c /= d;
			p_addterm(&q, &u);
			continue;
		}
		g = gcd_ll(u.c, d);
		need = d / g;
		for (x = 0; x < u.na && (at->a[u.a[x]].mult <= 0 ||
		    at->a[u.a[x]].mult % need != 0 || !at->a[u.a[x]].ge1); x++)
			;
		if (x == u.na || (y = quotient_atom(at, u.a[x], need)) < 0)
			return 0;
		/* c * X * rest / d = (c / g) * (X / need) * rest, the atoms
		 * kept ascending */
		for (j = x; j + 1 < u.na; j++)
			u.a[j] = u.a[j + 1];
		for (j = u.na - 1; j > 0 && u.a[j - 1] > y; j--)
			u.a[j] = u.a[j - 1];
		u.a[j] = (unsigned char)y;
		u.c /= g;
		p_addterm(&q, &u);
		any = 1;
	}
	p_const(&one, 1);
	if (!any || q.inf || q.n == 0 || c <= -d || c >= d)
		return 0;
	if (c >= 0) {
		*r = q;
		return 1;
	}
	if (!p_ge(at, &q, &one))
		return 0;
	p_add(r, &q, &one, -1);
	return 1;
}

/* a / b in C's truncating division, for b >= 1: exact where every term
 * divides, else a new atom. */
void
p_div(struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b)
{
	long long c, d;
	int i, x;

	if (a->inf || b->inf) {
		p_inf(r);
		return;
	}
	if (p_isconst(b, &d) && d >= 1) {
		if (d == 1) {
			*r = *a;
			return;
		}
		if (p_isconst(a, &c)) {
			p_const(r, c / d);
			return;
		}
		for (i = 0; i < a->n && a->t[i].c % d == 0; i++)
			;
		if (i == a->n) {
			*r = *a;
			for (i = 0; i < r->n; i++)
				r->t[i].c /= d;
			return;
		}
		if (div_mult(at, r, a, d))
			return;
	}
	if (b->n == 1 && div_mono(at, r, a, &b->t[0]))
		return;
	if ((x = quotient(at, a, b)) < 0) {
		p_inf(r);
		return;
	}
	p_atom(r, x);
}

/* An upper bound loosened where that removes a quotient: c * (P / c) <=
 * P and m * (P / m) <= P for P >= 0. */
void
p_loosen(struct atoms *at, struct poly *p)
{
	int i, x, y, changed = 1, rounds = 0;

	while (changed && !p->inf && rounds++ < 8) {
		changed = 0;
		for (i = 0; i < p->n && !changed; i++) {
			struct term u = p->t[i];
			for (x = 0; x < u.na && !changed; x++) {
				const struct atom *q = &at->a[u.a[x]];
				struct poly rest, np, out;
				int drop = -1;
				if (!q->nonneg || u.c <= 0 || q->keep)
					continue;
				if (q->div > 1 && u.c % q->div == 0)
					;
				else if (q->datom >= 0) {
					for (y = 0; y < u.na; y++)
						if (y != x && u.a[y] == q->datom)
							drop = y;
					if (drop < 0)
						continue;
				} else
					continue;
				/* the term without the quotient (and divisor) */
				p_const(&rest, q->div > 1 ? u.c / q->div : u.c);
				rest.t[0].na = 0;
				for (y = 0; y < u.na; y++)
					if (y != x && y != drop)
						rest.t[0].a[rest.t[0].na++] = u.a[y];
				p_mul(&np, &rest, &q->num);
				p->t[i].c = 0;
				{
					struct poly keep = *p, z;
					int j;
					p_const(&z, 0);
					for (j = 0; j < keep.n; j++)
						if (j != i)
							p_addterm(&z, &keep.t[j]);
					p_add(&out, &z, &np, 1);
				}
				*p = out;
				changed = 1;
			}
		}
	}
}

void
p_print(const struct atoms *at, const struct poly *p, char *out, size_t cap)
{
	struct k_buf sb = { 0 };
	int i, x;

	if (p->inf) {
		copy(out, cap, "inf");
		return;
	}
	for (i = 0; i < p->n; i++) {
		const struct term *u = &p->t[i];
		long long c = u->c;
		if (i > 0)
			k_buf_add(&sb, c < 0 ? " - " : " + ");
		else if (c < 0)
			k_buf_add(&sb, "-");
		if (c < 0)
			c = -c;
		if (u->na == 0 || c != 1)
			k_buf_printf(&sb, "%lld", c);
		for (x = 0; x < u->na; x++) {
			const char *s = at->a[u->a[x]].text;
			int bare = strchr(s, ' ') == NULL ||
			    (u->na == 1 && c == 1);
			if (x > 0 || c != 1)
				k_buf_add(&sb, " * ");
			k_buf_printf(&sb, bare ? "%s" : "(%s)", s);
		}
	}
	copy(out, cap, sb.n ? k_buf_str(&sb) : "0");
	k_buf_free(&sb);
}

/* ---- intervals */

void
iv_top(struct iv *r)
{
	p_inf(&r->lo);
	p_inf(&r->hi);
}

void
iv_const(struct iv *r, long long c)
{
	p_const(&r->lo, c);
	p_const(&r->hi, c);
}

int
iv_nonneg(const struct atoms *at, const struct iv *a)
{
	return p_nonneg(at, &a->lo);
}

/* Whether no atom of p may be negative. */
static int
p_unsigned_atoms(const struct atoms *at, const struct poly *p)
{
	int i, x;

	for (i = 0; i < p->n; i++)
		for (x = 0; x < p->t[i].na; x++)
			if (atom_signed(at, p->t[i].a[x]))
				return 0;
	return 1;
}

/* Monomial by monomial the larger coefficient (0 for one a or b lacks):
 * with no atom negative every monomial is at least 0, so the sum is at
 * least a and at least b (n * m - n + 7 and n * m + 3 give n * m + 7). */
static void
p_termmax(struct poly *r, const struct poly *a, const struct poly *b)
{
	struct poly x;
	struct term u;
	int i, j;

	x.inf = 0;
	x.n = 0;
	for (i = 0; i < a->n; i++) {
		u = a->t[i];
		for (j = 0; j < b->n && mono_cmp(&u, &b->t[j]) != 0; j++)
			;
		if (j < b->n && b->t[j].c > u.c)
			u.c = b->t[j].c;
		if (u.c > 0)
			p_addterm(&x, &u);
	}
	for (j = 0; j < b->n; j++) {
		u = b->t[j];
		for (i = 0; i < a->n && mono_cmp(&u, &a->t[i]) != 0; i++)
			;
		if (i == a->n && u.c > 0)
			p_addterm(&x, &u);
	}
	*r = x;
}

/* The larger of two upper bounds: one that is provably larger, else
 * their sum where both are at least 0 (a + b >= max(a, b)), else the
 * larger coefficient monomial by monomial where no atom is negative. */
void
p_max(const struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b)
{
	if (a->inf || b->inf)
		p_inf(r);
	else if (p_ge(at, a, b))
		*r = *a;
	else if (p_ge(at, b, a))
		*r = *b;
	else if (p_nonneg(at, a) && p_nonneg(at, b))
		p_add(r, a, b, 1);
	else if (p_unsigned_atoms(at, a) && p_unsigned_atoms(at, b))
		p_termmax(r, a, b);
	else
		p_inf(r);
}

/* The smaller of two lower bounds: one that is provably smaller, else 0
 * where both are at least 0. */
void
p_min(const struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b)
{
	if (a->inf || b->inf)
		p_inf(r);
	else if (p_ge(at, b, a))
		*r = *a;
	else if (p_ge(at, a, b))
		*r = *b;
	else if (p_nonneg(at, a) && p_nonneg(at, b))
		p_const(r, 0);
	else
		p_inf(r);
}

/* Two upper bounds that both hold: the provably smaller, else the
 * finite one, else the first. */
void
p_meet_hi(const struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b)
{
	if (a->inf)
		*r = *b;
	else if (b->inf || p_ge(at, b, a))
		*r = *a;
	else if (p_ge(at, a, b))
		*r = *b;
	else
		*r = *a;
}

void
p_meet_lo(const struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b)
{
	if (a->inf)
		*r = *b;
	else if (b->inf || p_ge(at, a, b))
		*r = *a;
	else if (p_ge(at, b, a))
		*r = *b;
	else if (p_nonneg(at, b) && !p_nonneg(at, a))
		*r = *b;
	else
		*r = *a;
}

void
iv_hull(const struct atoms *at, struct iv *r, const struct iv *a,
    const struct iv *b)
{
	struct iv s;

	p_min(at, &s.lo, &a->lo, &b->lo);
	p_max(at, &s.hi, &a->hi, &b->hi);
	*r = s;
}

void
iv_add(struct iv *r, const struct iv *a, const struct iv *b, int sign)
{
	struct iv s;

	if (sign > 0) {
		p_add(&s.lo, &a->lo, &b->lo, 1);
		p_add(&s.hi, &a->hi, &b->hi, 1);
	} else {
		p_add(&s.lo, &a->lo, &b->hi, -1);
		p_add(&s.hi, &a->hi, &b->lo, -1);
	}
	*r = s;
}

void
iv_mul(struct atoms *at, struct iv *r, const struct iv *a, const struct iv *b)
{
	struct iv s;
	long long c;
	const struct iv *x = a, *y = b;

	if (p_isconst(&a->lo, &c) && p_isconst(&a->hi, &c) && c < 0) {
		x = b;
		y = a;
	}
	if (p_isconst(&y->lo, &c) && p_isconst(&y->hi, &c)) {
		/* times a constant: a negative one swaps the sides */
		if (c >= 0) {
			p_scale(&s.lo, &x->lo, c);
			p_scale(&s.hi, &x->hi, c);
		} else {
			p_scale(&s.lo, &x->hi, c);
			p_scale(&s.hi, &x->lo, c);
		}
		if (c == 0)
			iv_const(&s, 0);
	} else if (iv_nonneg(at, a) && iv_nonneg(at, b)) {
		p_mul(&s.lo, &a->lo, &b->lo);
		p_mul(&s.hi, &a->hi, &b->hi);
	} else {
		if (!iv_nonneg(at, a)) {
			x = b;
			y = a;
		}
		if (!iv_nonneg(at, x)) {
			iv_top(r);
			return;
		}
		/* x >= 0, y of either sign */
		struct poly l1, l2;
		if (p_nonneg(at, &y->hi))
			p_mul(&s.hi, &x->hi, &y->hi);
		else
			p_inf(&s.hi);
		p_mul(&l1, &x->hi, &y->lo);
		p_mul(&l2, &x->lo, &y->lo);
		p_min(at, &s.lo, &l1, &l2);
	}
	*r = s;
}
