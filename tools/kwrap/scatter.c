/*
 * kwrap: index buffers that pick where a plain store lands.  A kernel
 * that scatters through a map, out[c * omap[k] + j] += v or
 * out[idx[i]] = v, with no atomic, relies on the map's values being
 * distinct: two threads never store to the same element.  The fill kwrap
 * gives an index buffer by default (integers 0..3, see data_read) repeats
 * values, so such a store races and the reference's outputs differ from
 * run to run.  Such a buffer gets the "distinct" fill instead (every
 * value once: a permutation of data_lo ..  data_lo + count - 1), and a
 * value read from it is bounded by its count, which then sizes the
 * buffer stored to.
 *
 * A buffer qualifies when it is an input of integers whose values index
 * (kwrap.h: vals), its count is derived, and a value read from it,
 * directly or through locals assigned from it (int out_row = k < n ?
 * omap[k] : -1), picks the element of a store to another buffer of the
 * kernel ("=" or a compound assignment, never an atomic call) the way
 * scatter_sub says.
 */
#include "kwrap.h"

/* Whether tokens [a, b) of f read buffer name (name[...], *name,
 * *(name + ...)) or name a local in s. */
static int
reaches(const struct fn *f, size_t a, size_t b, const char *name,
    const struct names *s)
{
	const struct toks *t = f->t;
	size_t i;

	for (i = a; i < b; i++) {
		if (!is_ident(t->v[i]) || (i > 0 && (is(t, i - 1, ".") ||
		    is(t, i - 1, "->"))))
			continue;
		if (strcmp(t->v[i], name) == 0 && (is(t, i + 1, "[") ||
		    (i > 0 && is(t, i - 1, "*") && unary_at(t, i - 1)) ||
		    (i > 1 && is(t, i - 1, "(") && is(t, i - 2, "*") &&
		    unary_at(t, i - 2))))
			return 1;
		if (names_has(s, t->v[i]))
			return 1;
	}
	return 0;
}

/*
 * Whether subscript [a, b) lets the value read from buffer name pick the
 * element alone: the subscript is that value (out[v], out[o] with o set
 * from it), or a sum with one term that multiplies it by M and others
 * that stay within M and a constant (c * omap[k] + j under j < c): threads
 * that read the same value store to the same elements.  A value added to
 * a row other terms pick (idx[i * MAX + num[i]]), or multiplied by less
 * than the others reach (now_t * hw + offset, offset over all rows), picks
 * a column of a row the thread owns: no race.
 */
static int
scatter_sub(struct fn *f, size_t a, size_t b, const char *name,
    const struct names *s, int depth)
{
	const struct toks *t = f->t;
	struct atoms *at = f->k->at;
	size_t ends[16], fe[16], st, ts = 0, te = 0, fs;
	struct iv m, rest, v;
	struct poly d;
	int n, nf, i, j, mixed, hit = -1, mult = 0;

	if (b == a + 1 && names_has(s, t->v[a])) {
		/* a local: what its one assignment makes it */
		int one = -1, dl = decl_of(f, t->v[a], a);
		for (i = 0; i < f->nas; i++)
			if (strcmp(f->as[i].name, t->v[a]) == 0 &&
			    f->as[i].d == dl && !fn_dead(f, f->as[i].pos))
				one = one == -1 ? i : -2;
		if (one < 0 || depth >= 2)
			return 1;
		return scatter_sub(f, f->as[one].a, f->as[one].b, name, s,
		    depth + 1);
	}
	n = split_top(t, a, b, "+", ends, 16, &mixed);
	if (mixed)
		return n == 1;
	for (i = 0, st = a; i < n; st = ends[i++] + 1)
		if (reaches(f, st, ends[i], name, s)) {
			if (hit >= 0)
				return 0;
			hit = i;
			ts = st;
			te = ends[i];
		}
	if (hit < 0)
		return 0;
	if (n == 1)
		return 1;
	/* the term that holds it: a product, M its other factors */
	nf = split_top(t, ts, te, "*", fe, 16, &mixed);
	if (mixed || nf < 2)
		return 0;
	iv_const(&m, 1);
	for (j = 0, fs = ts; j < nf; fs = fe[j++] + 1) {
		if (fs >= fe[j])
			return 0;	/* a unary *: no product */
		if (reaches(f, fs, fe[j], name, s))
			continue;
		eval_at(f, fs, fe[j], &v);
		iv_mul(at, &m, &m, &v);
		mult++;
	}
	if (mult == 0 || mult == nf || m.lo.inf)
		return 0;
	iv_const(&rest, 0);
	for (i = 0, st = a; i < n; st = ends[i++] + 1)
		if (i != hit) {
			eval_at(f, st, ends[i], &v);
			iv_add(&rest, &rest, &v, 1);
		}
	if (rest.hi.inf)
		return 0;
	/* rest - M, loosened (4 * (c / 4) <= c): a constant, or no
	 * monomial added */
	p_add(&d, &rest.hi, &m.lo, -1);
	p_loosen(at, &d);
	if (d.inf)
		return 0;
	for (i = 0; i < d.n; i++)
		if (d.t[i].na > 0 && d.t[i].c > 0)
			return 0;
	return 1;
}

/* Whether the token after a subscript's ] at i stores: =, +=, -=, ... */
static int
stores(const struct toks *t, size_t i)
{
	static const char *const ops[] = { "=", "+=", "-=", "*=", "/=", "|=",
	    "&=", "^=", "<<=", ">>=", NULL };
	int j;

	for (j = 0; ops[j] != NULL; j++)
		if (is(t, i, ops[j]))
			return 1;
	return 0;
}

/* Whether a value read from buffer pi is in the subscript of a plain
 * store to another buffer of the kernel. */
static int
picks_stores(struct kern *k, int pi)
{
	struct fn *f = k->kf;
	const struct toks *t = f->t;
	const char *name = k->p[pi].name;
	struct names s = { 0 };
	size_t i, c;
	int j, q, grew, round, hit = 0;

	/* the locals a value read from it flows into */
	for (round = 0, grew = 1; grew && round < 8; round++) {
		grew = 0;
		for (j = 0; j < f->nas; j++) {
			const struct asg *as = &f->as[j];
			if (as->kind != A_EQ || names_has(&s, as->name) ||
			    fn_param(f, as->name) >= 0 || fn_dead(f, as->pos))
				continue;
			if (reaches(f, as->a, as->b, name, &s)) {
				names_add(&s, as->name);
				grew = 1;
			}
		}
	}
	for (i = f->a; i < f->b && !hit; i++) {
		if (!is_ident(t->v[i]) || !is(t, i + 1, "[") ||
		    (i > 0 && (is(t, i - 1, ".") || is(t, i - 1, "->"))) ||
		    (q = fn_param(f, t->v[i])) < 0 || q == pi ||
		    !k->p[q].ptr || fn_dead(f, i))
			continue;
		c = skip_group(t, i + 1);
		if (stores(t, c) && reaches(f, i + 2, c - 1, name, &s) &&
		    scatter_sub(f, i + 2, c - 1, name, &s, 0))
			hit = 1;
	}
	free(s.v);
	return hit;
}

/* Mark the kernel's scatter indices (param.scatter); how many. */
int
scatter_indices(struct kern *k)
{
	int i, n = 0;

	if (k->kf == NULL)
		return 0;
	for (i = 0; i < k->np; i++) {
		struct param *p = &k->p[i];
		if (!p->ptr || !p->vals || p->count_state != 2 ||
		    p->role != R_IN || p->dt == NULL || p->dt->is_float ||
		    p->zeroed || p->offsets)
			continue;
		if (picks_stores(k, i)) {
			p->scatter = 1;
			n++;
		}
	}
	return n;
}
