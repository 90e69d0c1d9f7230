/*
 * kwrap: the values of on-chip arrays.  A `__shared__` array or a local
 * array declared in the kernel (or in a helper) holds only what the code
 * stores into it: a read of it is in the hull of every value stored, its
 * initializer's included, where kwrap sees every store.  Stores through a
 * helper that the array is passed to count as the kernel's own.  A store
 * of a value read from the same array (reductions: a[i] = v > w ? a[j] :
 * a[i]) is checked by induction: the hull of the stores that do not
 * depend on the array is taken as its values, and every store evaluated
 * with reads of the array in that hull must stay inside it; else the
 * array has no bound.  Any use kwrap cannot follow (its address taken, a
 * compound assignment, passed to a function outside the slice, assigned
 * to a pointer) leaves it unbounded.
 */
#include "kwrap.h"

struct onchip {
	char name[64];
	int d;			/* its declaration in f */
	int state;		/* 1 first pass, 2 done, 3 induction */
	int cyc;		/* reads while its stores were evaluated */
	struct iv v;
};

void
fn_mark(struct fn *f, struct fn_mark *s)
{
	int i;

	s->nm = f->nm;
	s->noc = f->noc;
	s->g = k_calloc((size_t)(f->ng ? f->ng : 1), 1);
	for (i = 0; i < f->ng; i++)
		s->g[i] = f->g[i].state == 0;
}

void
fn_undo(struct fn *f, struct fn_mark *s)
{
	int i;

	if (f->nm > s->nm)
		f->nm = s->nm;
	if (f->noc > s->noc)
		f->noc = s->noc;
	for (i = 0; i < f->ng; i++)
		if (s->g[i] && f->g[i].state == 2)
			f->g[i].state = 0;
	free(s->g);
}

void
fn_keep(struct fn_mark *s)
{
	free(s->g);
}

/* The values stored, gathered over the stores of one array. */
struct gather {
	struct fn *own;		/* the array's function */
	const char *name;
	int d;
	int ok;			/* every use followed */
	int have, nfin;
	struct iv all;		/* every value stored */
	struct iv fin;		/* the values with both sides bounded */
};

static void
candidate(struct gather *g, struct fn *f, size_t a, size_t b)
{
	struct atoms *at = f->k->at;
	struct iv v;

	if (b <= a) {
		g->ok = 0;
		return;
	}
	eval_at(f, a, b, &v);
	if (g->have)
		iv_hull(at, &g->all, &g->all, &v);
	else
		g->all = v;
	g->have = 1;
	if (v.lo.inf || v.hi.inf)
		return;
	if (g->nfin++)
		iv_hull(at, &g->fin, &g->fin, &v);
	else
		g->fin = v;
}

static void
candidate_const(struct gather *g, struct fn *f, long long c)
{
	struct iv v;

	iv_const(&v, c);
	if (g->have)
		iv_hull(f->k->at, &g->all, &g->all, &v);
	else
		g->all = v;
	if (g->nfin++)
		iv_hull(f->k->at, &g->fin, &g->fin, &v);
	else
		g->fin = v;
	g->have = 1;
}

/* Subscripts [..][..] from i: their count, *e past the last. */
static int
subscripts(const struct toks *t, size_t i, size_t *e)
{
	int n = 0;

	while (is(t, i, "[")) {
		i = skip_group(t, i);
		n++;
	}
	*e = i;
	return n;
}

/* The declaration T name[N] = { ... } at s: its initializer's values,
 * and 0 where the list may be shorter than the array. */
static void
initializer(struct gather *g, struct fn *f, size_t s, int dims)
{
	const struct toks *t = f->t;
	size_t e, j, from, close;
	int depth = 0, n = 0, sized = dims == 1;
	long long len = 0;

	subscripts(t, s + 1, &e);
	if (sized && !eval_range(t, s + 2, e - 1, &f->k->c, &len))
		sized = 0;
	if (!is(t, e, "="))
		return;
	if (!is(t, e + 1, "{")) {
		g->ok = 0;
		return;
	}
	close = skip_group(t, e + 1) - 1;
	for (j = from = e + 2; j <= close; j++) {
		const char *x = t->v[j];
		if (*x == '(' || *x == '[')
			depth++;
		else if (*x == ')' || *x == ']')
			depth--;
		else if (depth == 0 && (*x == '{' || *x == '}' || *x == ',')) {
			if (j > from) {
				candidate(g, f, from, j);
				n++;
			}
			from = j + 1;
		}
	}
	if (!sized || n < len)
		candidate_const(g, f, 0);
}

static void stores(struct gather *g, struct fn *f, const char *name, int d,
    int dims, int hd);

/* The array passed whole as argument argi of the call at open: the
 * helper's stores into that parameter are the array's. */
static void
passed(struct gather *g, struct fn *f, size_t open, int argi, int dims,
    int hd)
{
	struct fn *h;

	if (hd >= MAX_HELPER || (h = helper_call(f, open)) == NULL) {
		g->ok = 0;
		return;
	}
	if (argi < h->np && h->pptr[argi] && *h->pn[argi] != '\0') {
		h->oc_up = g->own;
		h->oc_param = argi;
		copy(h->oc_name, sizeof(h->oc_name), g->name);
		h->oc_d = g->d;
		stores(g, h, h->pn[argi], -1, dims, hd + 1);
	} else
		g->ok = 0;
	fn_free(h);
}

/* Every use of the array name (declared at d in f, or f's parameter when
 * d < 0) in f: stores gathered, uses kwrap cannot follow noted. */
static void
stores(struct gather *g, struct fn *f, const char *name, int d, int dims,
    int hd)
{
	static const char *const rhs[] = { ";", ",", NULL };
	const struct toks *t = f->t;
	size_t i, e;
	int n, argi;

	for (i = f->a; i < f->b && g->ok; i++) {
		if (!is(t, i, name) || is(t, i - 1, ".") || is(t, i - 1, "->") ||
		    is(t, i - 1, "::") || decl_of(f, name, i) != d)
			continue;
		if (d >= 0 && i == f->dc[d].s) {
			initializer(g, f, i, dims);
			continue;
		}
		n = subscripts(t, i + 1, &e);
		if (is(t, i - 1, "sizeof") || (is(t, i - 1, "(") &&
		    is(t, i - 2, "sizeof")))
			continue;
		if (n == 0 && (is(t, i - 1, "(") || is(t, i - 1, ",")) &&
		    (is(t, e, ",") || is(t, e, ")")) &&
		    call_open(t, f->a, i, &argi) > 0) {
			passed(g, f, call_open(t, f->a, i, &argi), argi, dims,
			    hd);
			continue;
		}
		if (n != dims || (is(t, i - 1, "&") && unary_at(t, i - 1)) ||
		    is(t, i - 1, "++") || is(t, i - 1, "--") ||
		    is(t, e, "++") || is(t, e, "--") || is(t, e, ".") ||
		    is(t, e, "->")) {
			g->ok = 0;
			continue;
		}
		if (is(t, e, "="))
			candidate(g, f, e + 1, expr_end(t, e + 1, rhs));
		else if (strlen(t->v[e]) >= 2 && t->v[e][strlen(t->v[e]) - 1] ==
		    '=' && strcmp(t->v[e], "==") != 0 &&
		    strcmp(t->v[e], "!=") != 0 && strcmp(t->v[e], "<=") != 0 &&
		    strcmp(t->v[e], ">=") != 0)
			g->ok = 0;	/* a[i] += v */
	}
}

/* One pass over the stores of the array name declared at d in f; what
 * it caches in f from mk on. */
static void
one_pass(struct fn *f, const char *name, int d, int dims, struct gather *g,
    struct fn_mark *mk)
{
	memset(g, 0, sizeof(*g));
	g->own = f;
	g->name = name;
	g->d = d;
	g->ok = 1;
	fn_mark(f, mk);
	stores(g, f, name, d, dims, 0);
}

int
iv_within(const struct atoms *at, const struct iv *in, const struct iv *out)
{
	return p_ge(at, &out->hi, &in->hi) && p_ge(at, &in->lo, &out->lo);
}

/* The values of the array name declared at d in f, of dims subscripts. */
static void
values(struct fn *f, const char *name, int d, int dims, struct iv *r)
{
	struct atoms *at = f->k->at;
	struct gather g;
	struct fn_mark mk;
	int x;

	for (x = 0; x < f->noc; x++)
		if (strcmp(f->oc[x].name, name) == 0 && f->oc[x].d == d)
			break;
	if (x < f->noc) {
		if (f->oc[x].state == 1) {
			f->oc[x].cyc++;
			f->k->pend++;
			iv_top(r);
		} else
			*r = f->oc[x].v;
		return;
	}
	if (strlen(name) >= sizeof(f->oc[0].name)) {
		iv_top(r);
		return;
	}
	f->oc = grow(f->oc, &f->coc, f->noc, sizeof(*f->oc));
	x = f->noc++;
	memset(&f->oc[x], 0, sizeof(f->oc[x]));
	copy(f->oc[x].name, sizeof(f->oc[x].name), name);
	f->oc[x].d = d;
	f->oc[x].state = 1;
	one_pass(f, name, d, dims, &g, &mk);
	if (!f->oc[x].cyc)
		fn_keep(&mk);
	else		/* what it cached rests on this array's top */
		fn_undo(f, &mk);
	if (!g.ok || !g.have)
		iv_top(r);
	else if (!f->oc[x].cyc)
		*r = g.all;
	else if (g.nfin == 0 || f->k->rounds >= MAX_ROUNDS)
		iv_top(r);
	else {
		/* induction: the stores that do not read the array, widened
		 * by what the stores that do give */
		struct iv h = g.fin;
		int round;
		iv_top(r);
		f->oc[x].state = 3;
		for (round = 0; round < INDUCTION_ROUNDS; round++) {
			f->oc[x].v = h;
			f->k->rounds++;
			one_pass(f, name, d, dims, &g, &mk);
			fn_undo(f, &mk);
			if (!g.ok || !g.have || g.all.lo.inf || g.all.hi.inf)
				break;
			if (iv_within(at, &g.all, &h)) {
				*r = h;
				break;
			}
			iv_hull(at, &h, &h, &g.all);
		}
	}
	f->oc[x].state = 2;
	f->oc[x].v = *r;
	f->k->pend -= f->oc[x].cyc;
}

int
onchip_read(struct fn *f, const char *name, size_t pos, struct iv *r)
{
	const struct toks *t = f->t;
	size_t e, s;
	int d, dims, n = subscripts(t, pos + 1, &e);

	if (n == 0 || is(t, e, ".") || is(t, e, "->"))
		return 0;
	if (f->oc_up != NULL && fn_param(f, name) == f->oc_param &&
	    decl_of(f, name, pos) < 0) {
		struct fn *u = f->oc_up;
		d = f->oc_d;
		if (d < 0 || d >= u->nd)
			return 0;
		dims = subscripts(u->t, u->dc[d].s + 1, &e);
		if (dims != n)
			return 0;
		values(u, f->oc_name, d, dims, r);
		return 1;
	}
	if ((d = decl_of(f, name, pos)) < 0)
		return 0;
	s = f->dc[d].s;
	if (!is(t, s + 1, "[") || is(t, s - 1, "*") || is(t, s - 1, "&"))
		return 0;
	dims = subscripts(t, s + 1, &e);
	if (dims != n)
		return 0;
	values(f, name, d, dims, r);
	return 1;
}
