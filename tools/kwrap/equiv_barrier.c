/*
 * kwrap --mutants: a dropped __syncthreads() that orders nothing
 * (equiv.c calls this; man kwrap, "Mutants").
 *
 * A barrier is needed only where memory one thread touches before it is
 * touched by another thread after it, one of the two a write.  The
 * accesses before the barrier are those on any path from the previous
 * barrier (or the kernel's start) to it; those after, on any path from
 * it to the next barrier (or the kernel's end).  Both are taken as spans
 * of the body's statements, walked over the structure of the code:
 *
 *	- a plain "__syncthreads();" statement ends the walk;
 *	- a for or while loop whose body holds such a statement at its top
 *	  level adds its header and the part of its body up to that
 *	  barrier (walking forward) or after its last one (walking back),
 *	  the whole body where a break or continue may skip it, and the
 *	  walk goes on past the loop (it may run no iteration);
 *	- any other statement is added whole, barriers inside it or not;
 *	- at the end (start) of a block the walk leaves it: past the "if"
 *	  or block that holds it, round a loop that holds it (header and
 *	  the body's part up to its first barrier, or back from its last)
 *	  unless the loop runs one pass in every case (single_pass), and
 *	  out of the kernel's body, where it stops.
 *
 * Over both spans every mention of memory is then read: a kernel
 * parameter that is not a plain scalar of the spec, a __shared__
 * variable, a name the kernel does not declare (the slice's globals),
 * and a pointer local set from one of those (an alias of it; one set
 * from anything else may point anywhere).  x[...] followed by an
 * assignment, ++ or -- is a write, otherwise a read; "p += n" moves a
 * pointer and touches nothing; any other use of a pointer's value (a
 * cast, an argument, &x[i] or &(x[i])) may write through it, as may a
 * member handed whole to any call ("Load(tmp.a)": a reference parameter
 * may bind it) and every argument of a function the slice defines or a
 * functor the kernel holds.  Code
 * that never runs in any case (equiv_dead.c) touches nothing.  The
 * barrier orders nothing when no object is written on one side and
 * mentioned on the other.
 *
 * A type's name is no memory (C's type words, what a named cast's
 * angle brackets hold).
 *
 * Not proven (the mutant is left unmarked): a body with goto or asm, a
 * reference bound to memory ("T &r = x[i]"), a call of a function the
 * slice defines where the slice holds __shared__ variables outside the
 * kernel or __device__ ones it writes, a macro of the slice on either side whose
 * replacement assigns, subscripts or calls, a barrier inside a switch, a
 * loop body that is not a block.  Other barriers (cooperative groups' sync,
 * __syncthreads_count) do not end a walk: the spans only grow.
 */
#include "equiv.h"

#define BR_OBJS 256		/* memory objects a kernel's spans name */
#define BR_SPANS 512		/* token spans of one side */
#define BR_ANY (-1)		/* a pointer that may point anywhere */
#define BR_ROOT (-2)		/* an object of its own */
#define BR_UNSET (-3)		/* a pointer not seen set yet */

struct span {
	size_t a, b;		/* tokens [a, b) */
};

struct side {
	struct span v[BR_SPANS];
	int n;
	int over;		/* more spans than fit: prove nothing */
};

enum { O_PTR, O_SCALAR };	/* subscripts reach memory; the name does */

struct obj {
	size_t tok;		/* a token that names it */
	int kind;
	int alias;		/* for a pointer local: the object, or BR_ANY */
	int rd[2], wr[2];	/* per side: read, written */
};

struct br {
	struct eq *g;
	struct obj o[BR_OBJS];
	int n;
	int fail;
	int any_rd[2], any_wr[2];	/* through a pointer to anywhere */
	int user_call[2];
	int dead;		/* a mention skipped as code that never runs */
	size_t first;		/* the first token plain may mark */
};

/* ------------------------------------------------------------ shape */

/* Token i of the body is "__syncthreads ( ) ;". */
static int
plain_barrier(const struct eq *g, size_t i)
{
	return eq_tk(g, i, "__syncthreads") && eq_tk(g, i + 1, "(") &&
	    eq_tk(g, i + 2, ")") && eq_tk(g, i + 3, ";");
}

/* The last token of the statement that starts at i (at most lim). */
static size_t
stmt_last(const struct eq *g, size_t i, size_t lim)
{
	size_t j;

	if (i >= lim)
		return lim;
	if (eq_tk(g, i, "{"))
		return mt_close(g->code, &g->t, i);
	if ((eq_tk(g, i, "if") || eq_tk(g, i, "for") || eq_tk(g, i, "while") ||
	    eq_tk(g, i, "switch")) && eq_tk(g, i + 1, "(")) {
		int is_if = eq_tk(g, i, "if");
		j = mt_close(g->code, &g->t, i + 1);
		if (j >= lim)
			return lim;
		j = stmt_last(g, j + 1, lim);
		if (is_if && j + 1 < lim && eq_tk(g, j + 1, "else"))
			j = stmt_last(g, j + 2, lim);
		return j;
	}
	if (eq_tk(g, i, "if") && eq_tk(g, i + 1, "constexpr") && eq_tk(g, i + 2, "(")) {
		j = mt_close(g->code, &g->t, i + 2);
		if (j >= lim)
			return lim;
		j = stmt_last(g, j + 1, lim);
		if (j + 1 < lim && eq_tk(g, j + 1, "else"))
			j = stmt_last(g, j + 2, lim);
		return j;
	}
	if (eq_tk(g, i, "do")) {
		j = stmt_last(g, i + 1, lim);
		/* while ( ... ) ; */
		if (j + 2 < lim && eq_tk(g, j + 1, "while") && eq_tk(g, j + 2, "("))
			j = mt_close(g->code, &g->t, j + 2) + 1;
		return j < lim ? j : lim;
	}
	for (j = i; j < lim; j++) {
		if (eq_tk(g, j, "(") || eq_tk(g, j, "[") || eq_tk(g, j, "{")) {
			j = mt_close(g->code, &g->t, j);
			continue;
		}
		if (eq_tk(g, j, ";"))
			return j;
	}
	return lim;
}

/* The statements of the block [a, b): the tokens each starts at, into
 * st (at most max); how many, -1 when they do not fit or parse. */
static int
statements(const struct eq *g, size_t a, size_t b, size_t *st, int max)
{
	size_t i = a, e;
	int n = 0;

	while (i < b) {
		if (n >= max)
			return -1;
		e = stmt_last(g, i, b);
		if (e >= b)
			return -1;
		st[n++] = i;
		i = e + 1;
	}
	return n;
}

/* A loop statement at s: its kind (f, w or d), the header's tokens and
 * its body's braces; 0 when s is not a loop with a block body. */
static int
loop_at(const struct eq *g, size_t s, size_t lim, int *kind, size_t *ha,
    size_t *hb, size_t *lo, size_t *hi)
{
	size_t c;

	if ((eq_tk(g, s, "for") || eq_tk(g, s, "while")) && eq_tk(g, s + 1, "(")) {
		c = mt_close(g->code, &g->t, s + 1);
		if (c + 1 >= lim || !eq_tk(g, c + 1, "{"))
			return 0;
		*kind = eq_tk(g, s, "for") ? 'f' : 'w';
		*ha = s;
		*hb = c + 1;
		*lo = c + 1;
		*hi = mt_close(g->code, &g->t, c + 1);
		return *hi < lim;
	}
	if (eq_tk(g, s, "do") && eq_tk(g, s + 1, "{")) {
		*kind = 'd';
		*lo = s + 1;
		*hi = mt_close(g->code, &g->t, s + 1);
		if (*hi + 2 >= lim || !eq_tk(g, *hi + 1, "while"))
			return 0;
		*ha = *hi + 1;
		*hb = mt_close(g->code, &g->t, *hi + 2) + 1;
		return *hb <= lim;
	}
	return 0;
}

static void
add(struct side *sd, size_t a, size_t b)
{
	if (b <= a)
		return;
	if (sd->n >= BR_SPANS) {
		sd->over = 1;
		return;
	}
	sd->v[sd->n].a = a;
	sd->v[sd->n++].b = b;
}

/* Whether [a, b) holds break or continue (for the loop that owns them
 * or a nested one: either way a barrier may be skipped). */
static int
jumps(const struct eq *g, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b; i++)
		if (eq_tk(g, i, "break") || eq_tk(g, i, "continue"))
			return 1;
	return 0;
}

/* The first (last: last != 0) plain barrier among the top-level
 * statements of block {lo ... hi}, or 0. */
static size_t
top_barrier(const struct eq *g, size_t lo, size_t hi, int last)
{
	size_t st[512], r = 0;
	int n, i;

	if ((n = statements(g, lo + 1, hi, st, 512)) < 0)
		return 0;
	for (i = 0; i < n; i++)
		if (plain_barrier(g, st[i])) {
			r = st[i];
			if (!last)
				break;
		}
	return r;
}

/* A loop met by a walk: what of it the walk adds (fwd: from its start
 * to the body's first barrier; back: from the body's last barrier to
 * its exit); 1 when the walk ends there (a do loop whose body holds a
 * barrier, walking forward), 0 when it goes on past the loop. */
static int
cross_loop(const struct eq *g, struct side *sd, int fwd, size_t s, size_t e,
    int kind, size_t ha, size_t hb, size_t lo, size_t hi)
{
	size_t fb = top_barrier(g, lo, hi, !fwd);

	if (fb == 0 || (!fwd && jumps(g, lo, hi))) {
		add(sd, s, e + 1);
		return 0;
	}
	if (fwd) {
		add(sd, s, fb);		/* header and the body to it */
		if (kind == 'd')
			return 1;
		return 0;
	}
	add(sd, fb + 4, hi);		/* after the last barrier */
	add(sd, ha, hb);		/* the condition, the increment */
	return kind == 'd';
}

/*
 * Walk from statement index i of the block whose statements are st[0..n)
 * (fwd: forward from st[i + 1]; back: backward from st[i - 1]); 1 when a
 * barrier ended it, 0 when it ran off the block.
 */
static int
walk_block(const struct eq *g, struct side *sd, int fwd, size_t *st, int n,
    int i, size_t b)
{
	int j;

	for (j = fwd ? i + 1 : i - 1; j >= 0 && j < n; j += fwd ? 1 : -1) {
		size_t s = st[j], e = j + 1 < n ? st[j + 1] - 1 : b - 1, ha,
		    hb, lo, hi;
		int kind;
		if (plain_barrier(g, s))
			return 1;
		if (loop_at(g, s, b, &kind, &ha, &hb, &lo, &hi)) {
			if (cross_loop(g, sd, fwd, s, e, kind, ha, hb, lo, hi))
				return 1;
			continue;
		}
		add(sd, s, e + 1);
	}
	return 0;
}

/* One level of the blocks that hold the barrier, outermost first. */
struct level {
	size_t lo, hi;		/* the block's braces (the body: a - 1, b) */
	size_t s, e;		/* the statement of the outer block that holds it */
	int loop;		/* 'f', 'w', 'd' or 0 */
	size_t ha, hb;		/* a loop's header */
	size_t ca, cb;		/* an if's condition, else 0 */
};

/* The blocks from the body to the barrier at k, into lv; how many, 0
 * when the barrier lies somewhere the walk does not go. */
static int
levels(const struct eq *g, size_t k, struct level *lv, int max)
{
	size_t lo = g->a - 1, hi = g->b, st[512];
	int n = 0, m, i;

	lv[n].lo = lo;
	lv[n].hi = hi;
	lv[n].s = lv[n].e = 0;
	lv[n].loop = 0;
	lv[n].ca = lv[n].cb = 0;
	n++;
	for (;;) {
		if ((m = statements(g, lo + 1, hi, st, 512)) < 0)
			return 0;
		for (i = 0; i < m; i++) {
			size_t e = i + 1 < m ? st[i + 1] - 1 : hi - 1;
			if (k >= st[i] && k <= e)
				break;
		}
		if (i == m)
			return 0;
		if (st[i] == k)
			return n;
		{
			size_t s = st[i], e = i + 1 < m ? st[i + 1] - 1 : hi - 1;
			size_t ha, hb, blo, bhi, c;
			int kind;
			if (n >= max)
				return 0;
			lv[n].s = s;
			lv[n].e = e;
			lv[n].loop = 0;
			lv[n].ca = lv[n].cb = 0;
			if (loop_at(g, s, hi, &kind, &ha, &hb, &blo, &bhi) &&
			    k > blo && k < bhi) {
				lv[n].loop = kind;
				lv[n].ha = ha;
				lv[n].hb = hb;
				lv[n].lo = blo;
				lv[n].hi = bhi;
			} else if (eq_tk(g, s, "{")) {
				lv[n].lo = s;
				lv[n].hi = mt_close(g->code, &g->t, s);
			} else if (eq_tk(g, s, "if") && eq_tk(g, s + 1, "(")) {
				c = mt_close(g->code, &g->t, s + 1);
				lv[n].ca = s + 2;
				lv[n].cb = c;
				if (eq_tk(g, c + 1, "{") && k < mt_close(g->code,
				    &g->t, c + 1)) {
					lv[n].lo = c + 1;
				} else {
					/* the else block */
					size_t t = stmt_last(g, c + 1, hi);
					if (!eq_tk(g, t + 1, "else") || !eq_tk(g, t + 2,
					    "{"))
						return 0;
					lv[n].lo = t + 2;
				}
				lv[n].hi = mt_close(g->code, &g->t, lv[n].lo);
			} else
				return 0;	/* switch, a body not a block */
			lo = lv[n].lo;
			hi = lv[n].hi;
			n++;
		}
	}
}

/*
 * Whether the for loop at ha ("for (T i = A; i < B; i += C) { ... }",
 * its body's braces lo, hi) runs at most one pass in every case, for
 * every thread: A + C - B is 0 or more (1 or more for "<=") in each
 * case's launch and scalars, and the body never assigns i.  A grid-
 * stride loop up to gridDim.x * TILE from blockIdx.x * TILE is one.
 */
static int
single_pass(struct eq *g, size_t ha, size_t lo, size_t hi)
{
	json_t *cases = json_object_get(g->spec, "cases"), *cs;
	size_t s1, s2, i, eq, j, ci;
	int le, ok = 1;
	char *txt;

	s1 = eq_semi(g, ha + 2, lo);
	s2 = s1 < lo ? eq_semi(g, s1 + 1, lo) : lo;
	if (s2 >= lo - 1 || json_array_size(cases) == 0)
		return 0;
	for (eq = ha + 2; eq < s1 && !eq_tk(g, eq, "="); eq++)
		;
	i = eq - 1;
	/* i < B or i <= B; i += C */
	if (eq >= s1 || eq == ha + 2 || g->t.v[i].kind != M_ID ||
	    !eq_same_name(g, s1 + 1, i) || (!eq_tk(g, s1 + 2, "<") &&
	    !eq_tk(g, s1 + 2, "<=")) || !eq_same_name(g, s2 + 1, i) ||
	    !eq_tk(g, s2 + 2, "+=") || s2 + 3 >= lo - 1)
		return 0;
	le = eq_tk(g, s1 + 2, "<=");
	/* the body leaves i alone */
	for (j = lo; j < hi; j++)
		if (eq_same_name(g, j, i) && !eq_tk(g, j - 1, ".") &&
		    !eq_tk(g, j - 1, "->") && (eq_tk(g, j - 1, "&") ||
		    eq_tk(g, j - 1, "++") || eq_tk(g, j - 1, "--") ||
		    eq_tk(g, j + 1, "++") || eq_tk(g, j + 1, "--") ||
		    (j + 1 < hi && eq_is_assign(g->code, &g->t.v[j + 1]))))
			return 0;
	txt = k_asprintf("(%.*s) + (%.*s) - (%.*s)",
	    (int)(g->t.v[s1].off - g->t.v[eq + 1].off), g->code +
	    g->t.v[eq + 1].off,
	    (int)(g->t.v[lo - 1].off - g->t.v[s2 + 3].off), g->code +
	    g->t.v[s2 + 3].off,
	    (int)(g->t.v[s2].off - g->t.v[s1 + 3].off), g->code +
	    g->t.v[s1 + 3].off);
	json_array_foreach(cases, ci, cs) {
		struct val v;
		eq_case_start(g, cs);
		if (!eq_parse_text(g, txt, g->t.v[ha].off, g->t.v[lo].off, -1,
		    NULL, 0, &v, NULL) || !v.known || v.lo < le) {
			ok = 0;
			break;
		}
	}
	free(txt);
	return ok;
}

/* The spans before (back) or after (fwd) the barrier statement at k. */
static int
region(struct eq *g, size_t k, int fwd, struct side *sd)
{
	struct level lv[32];
	size_t st[512];
	int nl = levels(g, k, lv, 32), l, m, i;
	size_t at = k;

	if (nl == 0)
		return 0;
	for (l = nl - 1; l >= 0; l--) {
		if ((m = statements(g, lv[l].lo + 1, lv[l].hi, st, 512)) < 0)
			return 0;
		for (i = 0; i < m && st[i] != at; i++)
			;
		if (i == m)
			return 0;
		if (walk_block(g, sd, fwd, st, m, i, lv[l].hi))
			return 1;
		if (l == 0)
			return 1;	/* the kernel's start or end */
		at = lv[l].s;
		if (lv[l].loop == 'f' && single_pass(g, lv[l].ha, lv[l].lo,
		    lv[l].hi))
			add(sd, lv[l].ha, lv[l].hb);	/* no other pass */
		else if (lv[l].loop) {
			/* round the loop: another iteration, or out */
			size_t fb = top_barrier(g, lv[l].lo, lv[l].hi, !fwd);
			add(sd, lv[l].ha, lv[l].hb);
			if (fb == 0 || (!fwd && jumps(g, lv[l].lo, lv[l].hi)))
				add(sd, lv[l].lo, lv[l].hi + 1);
			else if (fwd)
				add(sd, lv[l].lo, fb);
			else
				add(sd, fb + 4, lv[l].hi);
		} else if (!fwd && lv[l].cb > lv[l].ca)
			add(sd, lv[l].ca, lv[l].cb);
	}
	return 1;
}

/* ------------------------------------------------------------ memory */

/* The statement start before token d (a for header's "(" starts one). */
static size_t
decl_start(const struct eq *g, size_t d)
{
	size_t s;

	for (s = d; s > g->a; s--)
		if (eq_tk(g, s - 1, ";") || eq_tk(g, s - 1, "{") || eq_tk(g, s - 1, "}") ||
		    eq_tk(g, s - 1, "("))
			break;
	return s;
}

/* Token j is the name a declaration of the body declares, the first
 * declarator of a statement or a for header: "T x", "T *x", "T x[N]",
 * "__shared__ T x", "auto &x". */
static int
declares(const struct eq *g, size_t j)
{
	static const char *const kw[] = { "return", "case", "else", "goto",
		"new", "delete", "throw", "sizeof", "typedef", "using", NULL };
	size_t s = decl_start(g, j), i;
	int k;

	if (j <= g->a || j == s || g->t.v[j].kind != M_ID)
		return 0;
	if (!(eq_tk(g, j + 1, "=") || eq_tk(g, j + 1, ";") || eq_tk(g, j + 1, "[") ||
	    eq_tk(g, j + 1, ",") || eq_tk(g, j + 1, "{") || eq_tk(g, j + 1, ":")))
		return 0;
	if (!(g->t.v[j - 1].kind == M_ID || eq_tk(g, j - 1, "*") ||
	    eq_tk(g, j - 1, "&") || eq_tk(g, j - 1, ">")))
		return 0;
	/* a type before the name: "&x[i]" in a call's arguments is none */
	for (i = s; i < j && g->t.v[i].kind != M_ID; i++)
		;
	if (i == j)
		return 0;
	for (i = s; i < j; i++) {
		if (!(g->t.v[i].kind == M_ID || eq_tk(g, i, "*") || eq_tk(g, i, "&") ||
		    eq_tk(g, i, "::") || eq_tk(g, i, "<") || eq_tk(g, i, ">") ||
		    g->t.v[i].kind == M_NUM))
			return 0;
		for (k = 0; kw[k] != NULL; k++)
			if (eq_tk(g, i, kw[k]))
				return 0;
	}
	return 1;
}

static int
obj_of(struct br *r, size_t tok)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (eq_same_name(r->g, r->o[i].tok, tok))
			return i;
	return -1;
}

static int
obj_new(struct br *r, size_t tok, int kind, int alias)
{
	if (r->n >= BR_OBJS) {
		r->fail = 1;
		return -1;
	}
	memset(&r->o[r->n], 0, sizeof r->o[r->n]);
	r->o[r->n].tok = tok;
	r->o[r->n].kind = kind;
	r->o[r->n].alias = alias;
	return r->n++;
}

/* The kernel's parameters, as the spec lists them: every one that is not
 * a plain scalar (a pointer, an array, a struct, an accessor) is an
 * object; each named by its token in the parameter list.  A plain scalar
 * is each thread's own copy, noted in plain as a local is. */
static void
params(struct br *r, unsigned char *pl)
{
	struct eq *g = r->g;
	json_t *p;
	size_t idx, i;

	json_array_foreach(json_object_get(g->spec, "params"), idx, p) {
		const char *nm = k_get_str(p, "name"), *role = k_get_str(p,
		    "role"), *dt = k_get_str(p, "dtype");
		int plain;
		if (nm == NULL)
			continue;
		plain = role != NULL && strcmp(role, "scalar") == 0 &&
		    json_object_get(p, "fields") == NULL && (dt == NULL ||
		    (strcmp(dt, "struct") != 0 && strcmp(dt, "bytes") != 0));
		for (i = g->a; i-- > 0;)
			if (g->t.v[i].kind == M_ID && g->t.v[i].len == strlen(nm) &&
			    strncmp(g->code + g->t.v[i].off, nm,
			    g->t.v[i].len) == 0)
				break;
		if (i == (size_t)-1) {
			r->fail = 1;
			return;
		}
		if (eq_tk(g, i - 1, "*") || eq_tk(g, i - 1, "&") ||
		    eq_tk(g, i + 1, "["))
			plain = 0;
		if (!plain && obj_of(r, i) < 0)
			obj_new(r, i, O_PTR, BR_ROOT);
		else if (plain) {
			pl[i] = 1;
			if (i < r->first)
				r->first = i;
		}
	}
}

/* Whether the slice writes the variable named by token d (declared at
 * d, outside the kernel) anywhere but in its declaration: a subscript of
 * it assigned, incremented or decremented, its name assigned, or its
 * name used whole (an array handed on decays to a pointer that may
 * write). */
static int
var_written(const struct eq *g, size_t d)
{
	size_t i, j;

	for (i = 0; i < g->t.n; i++) {
		if (i == d || !eq_same_name(g, i, d) || eq_tk(g, i - 1, ".") ||
		    eq_tk(g, i - 1, "->") || eq_tk(g, i - 1, "::"))
			continue;
		if (i > 0 && (eq_tk(g, i - 1, "&") || eq_tk(g, i - 1, "++") ||
		    eq_tk(g, i - 1, "--")))
			return 1;
		if (!eq_tk(g, i + 1, "["))
			return 1;
		for (j = i + 1; j < g->t.n && eq_tk(g, j, "[");)
			j = mt_close(g->code, &g->t, j) + 1;
		if (j >= g->t.n || eq_tk(g, j, "++") || eq_tk(g, j, "--") ||
		    eq_tk(g, j, ".") || eq_tk(g, j, "->") ||
		    eq_is_assign(g->code, &g->t.v[j]))
			return 1;
	}
	return 0;
}

/* Whether the slice holds __shared__ variables outside the kernel's body,
 * or __device__ ones it writes (a function of the slice may reach them);
 * a __device__ table that nothing writes (a lookup table of constants a
 * device function reads) orders nothing with anything. */
static int
outside_vars(const struct eq *g)
{
	size_t i, j;

	for (i = 0; i < g->t.n; i++) {
		if (i >= g->a && i < g->b)
			continue;
		if (eq_tk(g, i, "__shared__"))
			return 1;
		if (!eq_tk(g, i, "__device__") && !eq_tk(g, i, "__managed__"))
			continue;
		for (j = i + 1; j < g->t.n; j++) {
			if (eq_tk(g, j, "(") || eq_tk(g, j, "{"))
				break;
			if (eq_tk(g, j, ";") || eq_tk(g, j, "=") ||
			    eq_tk(g, j, "[")) {
				if (g->t.v[j - 1].kind != M_ID ||
				    var_written(g, j - 1))
					return 1;
				break;
			}
		}
	}
	return 0;
}

/* Token j names a function the slice defines ("F (...) ... {") outside
 * the kernel's body. */
static int
slice_function(const struct eq *g, size_t j)
{
	size_t i, c;

	for (i = 0; i + 1 < g->t.n; i++) {
		if ((i + 1 >= g->a && i < g->b) || !eq_same_name(g, i, j) ||
		    !eq_tk(g, i + 1, "("))
			continue;
		c = mt_close(g->code, &g->t, i + 1);
		while (c + 1 < g->t.n && (g->t.v[c + 1].kind == M_ID ||
		    eq_tk(g, c + 1, "&")))
			c++;
		if (eq_tk(g, c + 1, "{") || eq_tk(g, c + 1, ":"))
			return 1;
	}
	return 0;
}

/* The callee of the call whose argument list opens at token p, or 0:
 * "F (", "F <...> (", "x.f (" (the name before the parenthesis). */
static size_t
callee(const struct eq *g, size_t p)
{
	static const char *const kw[] = { "if", "for", "while", "switch",
		"return", "sizeof", "alignof", "decltype", "catch", NULL };
	size_t f;
	int k, e = 0;

	if (p <= g->a)
		return 0;
	f = p - 1;
	if (eq_tk(g, f, ">")) {
		for (; f > g->a; f--) {
			if (eq_tk(g, f, ">"))
				e++;
			else if (eq_tk(g, f, "<") && --e == 0)
				break;
		}
		if (f <= g->a)
			return 0;
		f--;
	}
	if (g->t.v[f].kind != M_ID)
		return 0;
	for (k = 0; kw[k] != NULL; k++)
		if (eq_tk(g, f, kw[k]))
			return 0;
	return f;
}

/* The innermost group around token i: its opener, or 0 at the
 * statement's level. */
static size_t
group_of(const struct eq *g, size_t i)
{
	size_t j;
	int d = 0;

	for (j = i; j-- > g->a;) {
		if (eq_tk(g, j, ")") || eq_tk(g, j, "]"))
			d++;
		else if (eq_tk(g, j, "(") || eq_tk(g, j, "[")) {
			if (d-- == 0)
				return j;
		} else if (eq_tk(g, j, "{") || eq_tk(g, j, "}") || eq_tk(g, j, ";"))
			return 0;
	}
	return 0;
}

/* A call of a function of the slice or of a functor (an object of the
 * kernel) encloses token i. */
static int
in_user_call(struct br *r, size_t i)
{
	struct eq *g = r->g;
	size_t p = i, f;

	while ((p = group_of(g, p)) != 0) {
		if (eq_tk(g, p, "(") && (f = callee(g, p)) != 0 &&
		    (slice_function(g, f) || obj_of(r, f) >= 0))
			return 1;
	}
	return 0;
}

/* Token i is an argument of a call, or the operand of a cast, directly
 * (its own group is the call's parentheses). */
static int
in_call(const struct eq *g, size_t i)
{
	size_t p = group_of(g, i);

	return p != 0 && eq_tk(g, p, "(") && callee(g, p) != 0;
}

/* After name j: subscripts and member chains skipped, the token after
 * them; *subs counts them, *call is set where a member is called. */
static size_t
chain_end(const struct eq *g, size_t j, int *subs, int *call)
{
	size_t i = j + 1;

	*subs = *call = 0;
	for (;;) {
		if (eq_tk(g, i, "[")) {
			(*subs)++;
			i = mt_close(g->code, &g->t, i) + 1;
		} else if ((eq_tk(g, i, ".") || eq_tk(g, i, "->")) && i + 1 < g->t.n &&
		    g->t.v[i + 1].kind == M_ID) {
			(*subs)++;
			i += 2;
		} else if (eq_tk(g, i, "(") && *subs > 0) {
			*call = 1;
			i = mt_close(g->code, &g->t, i) + 1;
		} else
			return i;
	}
}

static int
assign_at(const struct eq *g, size_t i)
{
	return i < g->t.n && (eq_is_assign(g->code, &g->t.v[i]) || eq_tk(g, i,
	    "++") || eq_tk(g, i, "--"));
}

/* The chain of name j, ending before token e, has its address taken:
 * "&x[i]", or "&(x[i])". */
static int
addr_of(const struct eq *g, size_t j, size_t e)
{
	return eq_tk(g, j - 1, "&") || (j >= 2 && eq_tk(g, j - 1, "(") &&
	    eq_tk(g, j - 2, "&") && eq_tk(g, e, ")") &&
	    mt_close(g->code, &g->t, j - 1) == e);
}

/* The chain of name j, ending before token e, is a whole argument of a
 * call and names a member ("f(s.tmp)", "T(u.load).Load(...)"): a class
 * object handed over, which a reference parameter may bind and write (a
 * library's block load staging its values in the storage it is given). */
static int
member_arg(const struct eq *g, size_t j, size_t e)
{
	return in_call(g, j) && (eq_tk(g, j - 1, "(") || eq_tk(g, j - 1,
	    ",")) && (eq_tk(g, e, ",") || eq_tk(g, e, ")")) && e >= 2 &&
	    (eq_tk(g, e - 2, ".") || eq_tk(g, e - 2, "->"));
}

/* The value of pointer x flows at token j (not read through): bare, or
 * &x[...]. */
static int
address_use(const struct eq *g, size_t j)
{
	int subs, call;
	size_t e = chain_end(g, j, &subs, &call);

	return subs == 0 || addr_of(g, j, e);
}

/* The locals of the body: plain ones (private to a thread) are noted so
 * that they are not taken for globals; pointers and references become
 * objects; __shared__ variables are objects of their own. */
static void
locals(struct br *r, unsigned char *plain)
{
	struct eq *g = r->g;
	size_t j, s, i;

	for (j = g->a; j < g->b && !r->fail; j++) {
		int shared = 0, ptr = 0, ref = 0, o;
		if (!declares(g, j))
			continue;
		s = decl_start(g, j);
		for (i = s; i < j; i++) {
			shared |= eq_tk(g, i, "__shared__");
			ptr |= eq_tk(g, i, "auto");
		}
		for (i = j; i-- > s;) {
			if (eq_tk(g, i, "*"))
				ptr = 1;
			else if (eq_tk(g, i, "&"))
				ref = 1;
			else if (!eq_tk(g, i, "const") && !eq_tk(g, i, "__restrict__") &&
			    !eq_tk(g, i, "volatile") && !eq_tk(g, i, "__restrict"))
				break;
		}
		if ((o = obj_of(r, j)) >= 0) {
			/* declared twice: pointers merge, anything else is
			 * a name kwrap cannot tell apart */
			if (r->o[o].alias == BR_ROOT || shared || !ptr)
				r->fail = 1;
			continue;
		}
		if (shared)
			obj_new(r, j, eq_tk(g, j + 1, "[") ? O_PTR : O_SCALAR,
			    BR_ROOT);
		else if (ref) {
			/* T &r = x[i]: r writes x by its own name */
			size_t e;
			for (e = j + 1; e < g->b && !eq_tk(g, e, ";"); e++)
				if (g->t.v[e].kind == M_ID && obj_of(r, e) >= 0)
					r->fail = 1;
			plain[j] = 1;
		} else if (ptr)
			obj_new(r, j, O_PTR, BR_UNSET);
		else
			plain[j] = 1;
	}
}

/* Where a pointer local (or parameter) is set, "p = e" or "T *p = e",
 * what it may point at: the objects whose address e uses; the tokens of
 * those uses marked in src (they are no access). */
static void
aliases(struct br *r, unsigned char *src)
{
	struct eq *g = r->g;
	size_t j, e;
	int o, x, hit, k;

	for (j = g->a; j < g->b && !r->fail; j++) {
		if (g->t.v[j].kind != M_ID || (o = obj_of(r, j)) < 0 ||
		    r->o[o].kind != O_PTR || !eq_tk(g, j + 1, "=") ||
		    eq_tk(g, j - 1, ".") || eq_tk(g, j - 1, "->"))
			continue;
		hit = 0;
		for (e = j + 2; e < g->b && !eq_tk(g, e, ";") && !(eq_tk(g, e, ",") &&
		    group_of(g, e) == 0); e++) {
			if (g->t.v[e].kind != M_ID || (x = obj_of(r, e)) < 0 ||
			    eq_tk(g, e - 1, ".") || eq_tk(g, e - 1, "->") ||
			    !address_use(g, e))
				continue;
			src[e] = 1;
			hit = 1;
			if (r->o[o].alias == BR_ROOT) {
				/* a parameter set to another object */
				if (x != o)
					r->fail = 1;
			} else if (r->o[o].alias == BR_UNSET)
				r->o[o].alias = x;
			else if (r->o[o].alias != x)
				r->o[o].alias = BR_ANY;
		}
		if (!hit && r->o[o].alias != BR_ROOT)
			r->o[o].alias = BR_ANY;
	}
	for (k = 0; k < r->n; k++)
		if (r->o[k].alias == BR_UNSET)
			r->o[k].alias = BR_ANY;
}

/* Side s touches object o (through aliases to their root). */
static void
touch(struct br *r, int o, int s, int w)
{
	int hops;

	for (hops = 0; r->o[o].alias != BR_ROOT; hops++) {
		if (r->o[o].alias == BR_ANY || hops >= BR_OBJS) {
			if (w)
				r->any_wr[s] = 1;
			else
				r->any_rd[s] = 1;
			return;
		}
		o = r->o[o].alias;
	}
	if (w)
		r->o[o].wr[s] = 1;
	else
		r->o[o].rd[s] = 1;
}

/* The slice's macros whose replacement may touch memory: it assigns (=,
 * op=, ++, --), subscripts or calls.  The tokens kwrap reads have the
 * preprocessor's lines dropped, so what such a macro does is not in them;
 * one that only computes a value is harmless. */
const char *
eq_define(const char *c, const char *p, const char **name, size_t *nlen,
    const char **end)
{
	const char *q, *n;

	for (; (p = strstr(p, "define")) != NULL; p += 6) {
		/* "#" then blanks then define at a line's start */
		for (q = p; q > c && (q[-1] == ' ' || q[-1] == '\t'); q--)
			;
		if (q == c || q[-1] != '#')
			continue;
		for (q--; q > c && (q[-1] == ' ' || q[-1] == '\t'); q--)
			;
		if (q != c && q[-1] != '\n')
			continue;
		for (q = p + 6; *q == ' ' || *q == '\t'; q++)
			;
		for (n = q; isalnum((unsigned char)*q) || *q == '_'; q++)
			;
		if (q == n)
			continue;
		*name = n;
		*nlen = (size_t)(q - n);
		/* the replacement, over continued lines */
		for (*end = q; **end != '\0' && !(**end == '\n' &&
		    (*end)[-1] != '\\'); (*end)++)
			;
		return q;
	}
	return NULL;
}

void
eq_macros(struct eq *g)
{
	const char *c = g->code, *p, *e, *q, *name, *end;
	size_t nl;
	int cap = 0;

	for (p = c; (q = eq_define(c, p, &name, &nl, &end)) != NULL;
	    p = end) {
		for (e = q; e < end; e++)
			if (*e == '[' || (e[0] == '+' && e[1] == '+') ||
			    (e[0] == '-' && e[1] == '-') || (*e == '=' &&
			    e[1] != '=' && strchr("=<>!", e[-1]) == NULL) ||
			    (*e == '(' && e > q && (isalnum((unsigned char)
			    e[-1]) || e[-1] == '_')))
				break;
		if (e == end)
			continue;
		g->hazards = grow(g->hazards, &cap, g->nhazards,
		    sizeof(*g->hazards));
		g->hazards[g->nhazards].off = (size_t)(name - c);
		g->hazards[g->nhazards++].len = nl;
	}
}

int
eq_macro_hazard(const struct eq *g, size_t j)
{
	int i;

	for (i = 0; i < g->nhazards; i++)
		if (g->hazards[i].len == g->t.v[j].len &&
		    strncmp(g->code + g->hazards[i].off, g->code +
		    g->t.v[j].off, g->t.v[j].len) == 0)
			return 1;
	return 0;
}

/* Whether token j names a type, never memory: a word of C's built-in
 * types, or any name inside the angle brackets of a named cast
 * ("static_cast<int64_t>(n)": int64_t is no global of the slice). */
static int
type_name_at(const struct eq *g, size_t j)
{
	static const char *const words[] = { "int", "unsigned", "signed",
	    "char", "short", "long", "float", "double", "bool", "void",
	    "const", "volatile", "auto", NULL };
	static const char *const casts[] = { "static_cast", "reinterpret_cast",
	    "const_cast", "dynamic_cast", NULL };
	size_t i;
	int k, depth = 0;

	for (k = 0; words[k] != NULL; k++)
		if (eq_tk(g, j, words[k]))
			return 1;
	for (i = j; i > 0; i--) {
		if (eq_tk(g, i - 1, ">"))
			depth++;
		else if (eq_tk(g, i - 1, "<")) {
			if (depth == 0) {
				for (k = 0; casts[k] != NULL; k++)
					if (i >= 2 && eq_tk(g, i - 2, casts[k]))
						return 1;
				return 0;
			}
			depth--;
		} else if (g->t.v[i - 1].kind != M_ID && !eq_tk(g, i - 1,
		    "*") && !eq_tk(g, i - 1, "&") && !eq_tk(g, i - 1, "::") &&
		    !eq_tk(g, i - 1, ","))
			return 0;
	}
	return 0;
}

/* Read every mention of memory in side sd (s: 0 before, 1 after). */
static void
mentions(struct br *r, const struct side *sd, int s,
    const unsigned char *plain, const unsigned char *src)
{
	struct eq *g = r->g;
	size_t j, e, i;
	int k, o, subs, call, w;

	for (k = 0; k < sd->n && !r->fail; k++)
		for (j = sd->v[k].a; j < sd->v[k].b && j < g->b; j++) {
			if (g->t.v[j].kind == M_ID && eq_macro_hazard(g, j)) {
				r->fail = 1;
				return;
			}
			if (g->t.v[j].kind != M_ID || eq_tk(g, j - 1, ".") ||
			    eq_tk(g, j - 1, "->") || eq_tk(g, j - 1, "::") ||
			    eq_tk(g, j + 1, "::") || type_name_at(g, j))
				continue;
			if (eq_tk(g, j + 1, "(") || eq_tk(g, j + 1, "<")) {
				if (obj_of(r, j) >= 0 || slice_function(g, j))
					r->user_call[s] = 1;
				if (obj_of(r, j) < 0)
					continue;
			}
			if (src[j] || declares(g, j))
				continue;
			if (eq_dead_at(g, j, NULL)) {
				r->dead = 1;
				continue;
			}
			if ((o = obj_of(r, j)) < 0) {
				/* a plain local, or a name the kernel does not
				 * declare: the slice's globals */
				for (i = r->first; i < g->b; i++)
					if (plain[i] && eq_same_name(g, i, j))
						break;
				if (i < g->b)
					continue;
				if ((o = obj_new(r, j, O_SCALAR, BR_ROOT)) < 0)
					return;
			}
			e = chain_end(g, j, &subs, &call);
			w = assign_at(g, e) || eq_tk(g, j - 1, "++") ||
			    eq_tk(g, j - 1, "--");
			if (in_user_call(r, j) || (addr_of(g, j, e) &&
			    (subs > 0 || r->o[o].kind == O_SCALAR)) ||
			    (subs == 0 && in_call(g, j)) ||
			    member_arg(g, j, e)) {
				/* handed to code that may write it */
				touch(r, o, s, 0);
				touch(r, o, s, 1);
			} else if (r->o[o].kind == O_SCALAR || subs > 0) {
				touch(r, o, s, w || call);
				if (!w || !eq_tk(g, e, "="))
					touch(r, o, s, 0);
			} else if (eq_tk(g, e, "+=") || eq_tk(g, e, "-=") || eq_tk(g, e,
			    "++") || eq_tk(g, e, "--") || eq_tk(g, j - 1, "++") ||
			    eq_tk(g, j - 1, "--") || eq_tk(g, e, "=")) {
				/* the pointer itself moves or is set */
			} else {
				/* its value used some other way: a cast, an
				 * arithmetic, a comparison */
				touch(r, o, s, 0);
				touch(r, o, s, 1);
			}
		}
}

int
eq_barrier_free(struct eq *g, size_t off, struct k_buf *why)
{
	struct br *r;
	struct side *sd;
	unsigned char *plain, *src;
	size_t k, i;
	int ok = 0, o;

	for (k = g->a; k < g->b && g->t.v[k].off != off; k++)
		;
	if (k >= g->b || !plain_barrier(g, k))
		return 0;
	for (i = g->a; i < g->b; i++)
		if (eq_tk(g, i, "goto") || eq_tk(g, i, "asm") || eq_tk(g, i, "__asm__") ||
		    eq_tk(g, i, "__asm"))
			return 0;
	r = k_calloc(1, sizeof *r);
	sd = k_calloc(2, sizeof *sd);
	plain = k_calloc(g->t.n + 1, 1);
	src = k_calloc(g->t.n + 1, 1);
	r->g = g;
	if (!region(g, k, 0, &sd[0]) || !region(g, k, 1, &sd[1]) ||
	    sd[0].over || sd[1].over)
		goto out;
	r->first = g->a;
	params(r, plain);
	locals(r, plain);
	aliases(r, src);
	mentions(r, &sd[0], 0, plain, src);
	mentions(r, &sd[1], 1, plain, src);
	if (r->fail)
		goto out;
	if ((r->user_call[0] || r->user_call[1]) && outside_vars(g))
		goto out;
	for (i = 0; i < 2; i++) {
		int j = 1 - (int)i, wj = r->any_wr[j], tj = r->any_wr[j] ||
		    r->any_rd[j];
		for (o = 0; o < r->n; o++) {
			struct obj *x = &r->o[o];
			if (x->wr[i] && (x->rd[j] || x->wr[j]))
				goto out;
			wj |= x->wr[j];
			tj |= x->wr[j] || x->rd[j];
		}
		/* a pointer that may point anywhere meets every object */
		if ((r->any_wr[i] && tj) || (r->any_rd[i] && wj))
			goto out;
	}
	if (!r->dead) {
		/* the conditions evaluated read nothing the proof uses */
		g->nnames = 0;
		g->reads = 0;
	}
	k_buf_add(why, "nothing written on one side of the barrier is "
	    "touched on the other");
	for (i = 0; i < 2; i++) {
		int nw = 0;
		k_buf_add(why, i == 0 ? " (written before it: " :
		    "; written after it: ");
		for (o = 0; o < r->n; o++)
			if (r->o[o].wr[i] && nw++ < EQ_NAMES)
				k_buf_printf(why, "%s%.*s", nw > 1 ? ", " : "",
				    (int)g->t.v[r->o[o].tok].len, g->code +
				    g->t.v[r->o[o].tok].off);
		if (nw > EQ_NAMES)
			k_buf_printf(why, " and %d more", nw - EQ_NAMES);
		if (r->any_wr[i])
			k_buf_printf(why, "%sa pointer kwrap cannot follow",
			    nw > 0 ? ", " : "");
		else if (nw == 0)
			k_buf_add(why, "nothing");
	}
	k_buf_add(why, ")");
	ok = 1;
out:
	free(r);
	free(sd);
	free(plain);
	free(src);
	return ok;
}
