/*
 * Loop-entry cases (man kwrap, "Loop-entry cases").  A kernel whose
 * loop runs a number of times derived from its sizes can run it zero
 * times in every case kwrap made: a software-pipelined main loop,
 *
 *	int tiles = ((m + 63) / 64 + split - 1) / split;
 *	for (int k = 0; k < tiles - 1; ++k) { ...; __syncthreads(); ... }
 *	... the last tile ...
 *
 * runs only where m covers two tiles per split; with the cases' small m
 * or a split as large as m, only the last tile runs.  Nothing of the
 * loop's body is then tested: a mutant of it (a dropped barrier, a wrong
 * accumulation) passes as correct.
 *
 * For each "for" statement at the top of the kernel's body whose first
 * trip can be told from the scalars (its condition, with the loop's
 * variable at its start value, evaluates under a case, through the
 * straight-line declarations of locals before it), where no case runs
 * it, one case is cloned from the first with the integer scalars that
 * the condition reads (through those locals) moved so that it runs:
 * each moved to 1, 2, one over its value, twice it and twice it plus
 * one, or to c - 1, c, c + 1, 2c, 2c + 1 for each whole constant c of
 * the condition and the locals it reads; one scalar, else two, the move
 * nearest case 0 (the least sum of |log2(new / old)|) taken.  A size
 * never goes below 1; the launch must evaluate to at least 1 everywhere
 * and every buffer to at most KW_CASE_ELEMS elements.  A local assigned
 * anywhere but its declaration, or one that does not evaluate, makes
 * every loop that reads it one that cannot be told, and gets no case.
 * At most two, named loop_entry and loop_entry_2.
 *
 * A loop whose body holds a __syncthreads() and whose step is ++V, V++
 * or V += E counts as run only where it makes two trips (the variable
 * one step on still meets the condition): a barrier at the top of such
 * a body orders one trip's reads of shared memory before the next
 * trip's writes, and a single trip leaves that, and the barrier's
 * mutant, untested.
 */
#include "kwrap.h"
#include "mtok.h"

#define MAX_EVENTS 256
#define MAX_ENTRIES 2
#define MAX_NAMES 32
#define CANDS 48
#define MOVE_CAP (1LL << 20)	/* no scalar moved past it */

enum { EV_DEF, EV_KILL, EV_LOOP };

struct event {
	int kind;
	char name[64];		/* the local (DEF, KILL), the variable (LOOP) */
	char *expr;		/* DEF: its value; LOOP: its start */
	char *cond;		/* LOOP: its condition */
	char *step;		/* LOOP: what ++V, V++ or V += E adds, or NULL */
	int barrier;		/* LOOP: its body holds a __syncthreads() */
};

static int
tk(const char *c, const struct mtoks *t, size_t i, const char *w)
{
	return i < t->n && mt_is(c, t, i, w);
}

static char *
text(const char *c, const struct mtoks *t, size_t a, size_t b)
{
	if (b <= a)
		return k_strdup("");
	return k_asprintf("%.*s", (int)(t->v[b - 1].off + t->v[b - 1].len -
	    t->v[a].off), c + t->v[a].off);
}

static int
push(struct event *ev, int *n, int kind, const char *c,
    const struct mtoks *t, size_t name)
{
	if (*n >= MAX_EVENTS || t->v[name].len >= sizeof(ev->name))
		return 0;
	memset(&ev[*n], 0, sizeof(*ev));
	ev[*n].kind = kind;
	memcpy(ev[*n].name, c + t->v[name].off, t->v[name].len);
	return ++*n;
}

/* Every name [s, e] assigns (x = , x += , ++x, x--) as a KILL. */
static void
kills(const char *c, const struct mtoks *t, size_t s, size_t e,
    struct event *ev, int *n)
{
	static const char *const asg[] = { "=", "+=", "-=", "*=", "/=", "%=",
		"&=", "|=", "^=", "<<=", ">>=", "++", "--", NULL };
	size_t i;
	int k;

	for (i = s; i <= e && i < t->n; i++) {
		if (t->v[i].kind != M_ID)
			continue;
		for (k = 0; asg[k] != NULL; k++)
			if (tk(c, t, i + 1, asg[k]) || (k >= 11 && i > s &&
			    tk(c, t, i - 1, asg[k])))
				break;
		if (asg[k] != NULL)
			push(ev, n, EV_KILL, c, t, i);
	}
}

/* [s, e] as "TYPE NAME = EXPR;" (one name, no pointer, no array): the
 * DEF of NAME; 0 when it is not one. */
static int
definition(const char *c, const struct mtoks *t, size_t s, size_t e,
    struct event *ev, int *n)
{
	static const char *const kw[] = { "return", "if", "for", "while",
		"do", "switch", "goto", "break", "continue", "asm", "else",
		"__syncthreads", "extern", "static", "__shared__", NULL };
	size_t i, eq = 0;
	int d = 0, k;

	for (k = 0; kw[k] != NULL; k++)
		if (tk(c, t, s, kw[k]))
			return 0;
	for (i = s; i < e; i++) {
		if (tk(c, t, i, "(") || tk(c, t, i, "[") || tk(c, t, i, "{"))
			d++;
		else if (tk(c, t, i, ")") || tk(c, t, i, "]") || tk(c, t, i,
		    "}"))
			d--;
		else if (d == 0 && tk(c, t, i, ","))
			return 0;
		else if (d == 0 && eq == 0 && tk(c, t, i, "="))
			eq = i;
	}
	/* a type before the name: a declaration, not an assignment */
	if (eq < s + 2 || !tk(c, t, e, ";") || t->v[eq - 1].kind != M_ID ||
	    t->v[eq - 2].kind != M_ID)
		return 0;
	if (!push(ev, n, EV_DEF, c, t, eq - 1))
		return 0;
	ev[*n - 1].expr = text(c, t, eq + 1, e);
	return 1;
}

/* [s, e] as "for (T V = START; COND; ...) BODY": the LOOP, then what its
 * body assigns; 0 when it is not one. */
static int
loop(const char *c, const struct mtoks *t, size_t s, size_t e,
    struct event *ev, int *n)
{
	size_t close, i, s1 = 0, s2 = 0, eq = 0;
	int d = 0;

	if (!tk(c, t, s, "for") || !tk(c, t, s + 1, "("))
		return 0;
	close = mt_close(c, t, s + 1);
	if (close >= e + 1)
		return 0;
	for (i = s + 2; i < close; i++) {
		if (tk(c, t, i, "(") || tk(c, t, i, "["))
			d++;
		else if (tk(c, t, i, ")") || tk(c, t, i, "]"))
			d--;
		else if (d == 0 && tk(c, t, i, ";")) {
			if (s1 == 0)
				s1 = i;
			else if (s2 == 0)
				s2 = i;
		} else if (d == 0 && s1 == 0 && eq == 0 && tk(c, t, i, "="))
			eq = i;
	}
	if (s1 == 0 || s2 == 0 || eq == 0 || eq < s + 3 || s2 == s1 + 1 ||
	    t->v[eq - 1].kind != M_ID || !push(ev, n, EV_LOOP, c, t, eq - 1))
		return 0;
	ev[*n - 1].expr = text(c, t, eq + 1, s1);
	ev[*n - 1].cond = text(c, t, s1 + 1, s2);
	/* the step: ++V, V++ (1) or V += E, the whole increment */
	if ((close == s2 + 3 && ((tk(c, t, s2 + 1, "++") && t->v[s2 + 2].len ==
	    t->v[eq - 1].len && memcmp(c + t->v[s2 + 2].off, c +
	    t->v[eq - 1].off, t->v[eq - 1].len) == 0) || (tk(c, t, s2 + 2,
	    "++") && t->v[s2 + 1].len == t->v[eq - 1].len && memcmp(c +
	    t->v[s2 + 1].off, c + t->v[eq - 1].off, t->v[eq - 1].len) == 0))))
		ev[*n - 1].step = k_strdup("1");
	else if (close > s2 + 3 && tk(c, t, s2 + 2, "+=") &&
	    t->v[s2 + 1].len == t->v[eq - 1].len && memcmp(c +
	    t->v[s2 + 1].off, c + t->v[eq - 1].off, t->v[eq - 1].len) == 0)
		ev[*n - 1].step = text(c, t, s2 + 3, close);
	for (i = close + 1; i <= e && i < t->n; i++)
		if (tk(c, t, i, "__syncthreads"))
			ev[*n - 1].barrier = 1;
	kills(c, t, close + 1, e, ev, n);
	return 1;
}

/* Thread 0 of block 0 under the case k: the indices 0, the block's and
 * the grid's dimensions as the spec's launch evaluates them (one that
 * does not evaluate stays unbound: what reads it cannot be told). */
static void
thread0(json_t *spec, const struct consts *k, struct consts *at)
{
	static const char *const ax[] = { "x", "y", "z" };
	static const char *const dims[] = { "grid", "block" };
	static const char *const names[] = { "gridDim", "blockDim" };
	json_t *launch = json_object_get(spec, "launch");
	char name[32];
	long long v;
	int d, i;

	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "threadIdx.%s", ax[i]);
		const_set(at, name, 0);
		snprintf(name, sizeof(name), "blockIdx.%s", ax[i]);
		const_set(at, name, 0);
	}
	for (d = 0; d < 2; d++)
		for (i = 0; i < 3; i++) {
			json_t *x = json_array_get(json_object_get(launch,
			    dims[d]), (size_t)i);
			if (json_is_integer(x))
				v = json_integer_value(x);
			else if (!json_is_string(x) ||
			    eval_str(json_string_value(x), k, &v) != 1)
				continue;
			snprintf(name, sizeof(name), "%s.%s", names[d], ax[i]);
			const_set(at, name, v);
		}
}

/* s over w, thread 0's bindings at looked up first. */
static int
eval_at0(const char *s, const struct consts *w, const struct consts *at,
    long long *v)
{
	struct toks t = { 0 };
	int ok;

	tokenize(s, &t);
	ok = eval_bound(&t, w, at, v) == 1;
	toks_free(&t);
	return ok;
}

/* Whether the first trip of loop ev[l] (with trips 2, the first two)
 * runs under k (the case's scalars over the slice's constants): 1 yes, 0
 * no, -1 cannot be told. */
static int
enters(json_t *spec, const struct event *ev, int l, const struct consts *k,
    int trips)
{
	struct consts w = { 0 }, at = { 0 };
	char unknown[MAX_EVENTS][64];
	int nu = 0, i, j, r = -1;
	long long v;

	for (i = 0; i < k->n; i++)
		const_set(&w, k->v[i].name, k->v[i].val);
	thread0(spec, k, &at);
	for (i = 0; i <= l; i++) {
		const char *e = ev[i].kind == EV_KILL ? NULL : ev[i].expr;
		int bad = 0;
		if (ev[i].kind == EV_LOOP && i < l)
			continue;
		for (j = 0; e != NULL && j < nu; j++)
			bad |= unknown[j][0] != '\0' && kw_names(e, unknown[j]);
		for (j = 0; ev[i].kind == EV_LOOP && j < nu; j++)
			bad |= unknown[j][0] != '\0' && kw_names(ev[i].cond,
			    unknown[j]);
		if (ev[i].kind == EV_DEF && !bad && eval_at0(e, &w, &at, &v)) {
			for (j = 0; j < nu; j++)
				if (strcmp(unknown[j], ev[i].name) == 0)
					unknown[j][0] = '\0';
			const_set(&w, ev[i].name, v);
			continue;
		}
		if (ev[i].kind != EV_LOOP) {
			if (nu < MAX_EVENTS)
				copy(unknown[nu++], sizeof(unknown[0]),
				    ev[i].name);
			continue;
		}
		/* the loop: its variable at its start, then its condition */
		if (!bad && eval_at0(e, &w, &at, &v)) {
			long long d;
			const_set(&w, ev[i].name, v);
			if (eval_at0(ev[i].cond, &w, &at, &d))
				r = d != 0;
			/* the second trip: the variable one step on */
			if (r == 1 && trips > 1) {
				r = -1;
				if (ev[i].step != NULL && eval_at0(ev[i].step,
				    &w, &at, &d) && d > 0) {
					const_set(&w, ev[i].name, v + d);
					if (eval_at0(ev[i].cond, &w, &at, &d))
						r = d != 0;
				}
			}
		}
	}
	consts_free(&w);
	consts_free(&at);
	return r;
}

/* The texts the first trip of loop ev[l] is decided by: its condition,
 * its start, and the definitions of the locals they read, in texts. */
static void
reads(const struct event *ev, int l, const char **texts, int *nt)
{
	int i;

	texts[(*nt)++] = ev[l].cond;
	texts[(*nt)++] = ev[l].expr;
	for (i = l - 1; i >= 0; i--) {
		int j, used = 0;
		if (ev[i].kind != EV_DEF)
			continue;
		for (j = 0; j < *nt && !used; j++)
			used = kw_names(texts[j], ev[i].name);
		if (used && *nt < MAX_EVENTS)
			texts[(*nt)++] = ev[i].expr;
	}
}

static void
add(long long *c, int *n, long long v, int positive)
{
	int i;

	if (v > MOVE_CAP || v < -MOVE_CAP || (positive && v < 1))
		return;
	for (i = 0; i < *n; i++)
		if (c[i] == v)
			return;
	if (*n < CANDS)
		c[(*n)++] = v;
}

/* The whole constants of s: c - 1, c, c + 1, 2c, 2c + 1 each. */
static void
constants_of(const char *s, long long *c, int *n, int positive)
{
	const char *p;

	for (p = s; *p != '\0'; p++) {
		char *end;
		long long v;
		if (!isdigit((unsigned char)*p) || (p > s && (isalnum(
		    (unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.')))
			continue;
		errno = 0;
		v = strtoll(p, &end, 0);
		if (errno == 0 && *end != '.' && *end != 'e' && *end != 'f' &&
		    v < MOVE_CAP) {
			add(c, n, v - 1, positive);
			add(c, n, v, positive);
			add(c, n, v + 1, positive);
			add(c, n, 2 * v, positive);
			add(c, n, 2 * v + 1, positive);
		}
		p = end - 1;
	}
}

static double
cost(long long from, long long to)
{
	double a = from < 1 ? 1 : (double)from, b = to < 1 ? 1 : (double)to;

	return fabs(log2(b / a)) + (from != to && (from < 1 || to < 1));
}

struct mover {
	const char *name;	/* borrowed from the spec */
	long long v;		/* case 0's */
	long long c[CANDS];
	int n;
};

/* The case's scalars over the slice's constants, scalar i moved to a and
 * j to b (-1: none). */
static void
bound(struct consts *k, const struct consts *slice, json_t *base,
    const struct mover *m, int i, long long a, int j, long long b)
{
	consts_clear(k);
	kw_case_bind(k, slice, base);
	if (i >= 0)
		const_set(k, m[i].name, a);
	if (j >= 0)
		const_set(k, m[j].name, b);
}

/* Whether loop ev[l] runs with scalar i of m at a and j at b (-1: none),
 * the case fitting, at a cost below *best: then the move is noted. */
static void
try_move(json_t *spec, const struct event *ev, int l, int trips,
    const struct mover *m, const struct consts *slice, json_t *base,
    struct consts *k, int i,
    long long a, int j, long long b, double *best, int *bi, long long *ba,
    int *bj, long long *bb)
{
	double c = cost(m[i].v, a) + (j >= 0 ? cost(m[j].v, b) : 0);

	if (c >= *best)
		return;
	bound(k, slice, base, m, i, a, j, b);
	if (enters(spec, ev, l, k, trips) != 1 || !kw_case_fits(spec, k, 0))
		return;
	*best = c;
	*bi = i;
	*ba = a;
	*bj = j;
	*bb = b;
}

/* A move of one or two of the scalars m[0..nm) under which loop ev[l]
 * runs, the nearest case 0, into nc; 0 when none. */
static int
search(json_t *spec, const struct event *ev, int l, int trips, struct mover *m,
    int nm, const struct consts *slice, json_t *base, json_t **nc)
{
	struct consts k = { 0 };
	double best = HUGE_VAL;
	int i, j, a, b, bi = -1, bj = -1, single;
	long long ba = 0, bb = 0;

	for (i = 0; i < nm; i++)
		for (a = 0; a < m[i].n; a++)
			try_move(spec, ev, l, trips, m, slice, base, &k, i, m[i].c[a],
			    -1, 0, &best, &bi, &ba, &bj, &bb);
	single = bi >= 0;
	for (i = 0; i < nm && !single; i++)
		for (j = i + 1; j < nm; j++)
			for (a = 0; a < m[i].n; a++)
				for (b = 0; b < m[j].n; b++)
					try_move(spec, ev, l, trips, m, slice, base,
					    &k, i, m[i].c[a], j, m[j].c[b],
					    &best, &bi, &ba, &bj, &bb);
	consts_free(&k);
	if (bi < 0)
		return 0;
	*nc = json_deep_copy(base);
	json_object_set_new(json_object_get(*nc, "scalars"), m[bi].name,
	    json_integer(ba));
	if (bj >= 0)
		json_object_set_new(json_object_get(*nc, "scalars"),
		    m[bj].name, json_integer(bb));
	return 1;
}

/* The integer scalars of case 0 that texts read, with their candidate
 * values, into m. */
static int
movers(json_t *spec, json_t *base, const char **texts, int nt,
    struct mover *m)
{
	json_t *p;
	size_t i;
	int n = 0, j;

	json_array_foreach(json_object_get(spec, "params"), i, p) {
		const char *name = k_get_str(p, "name"), *use = k_get_str(p,
		    "use");
		json_t *v = json_object_get(json_object_get(base, "scalars"),
		    name != NULL ? name : "");
		int used = 0, positive;
		long long x;
		if (!json_is_integer(v) || n >= MAX_NAMES)
			continue;
		for (j = 0; j < nt && !used; j++)
			used = kw_names(texts[j], name);
		if (!used)
			continue;
		x = json_integer_value(v);
		positive = (use != NULL && strcmp(use, "size") == 0) || x > 0;
		m[n].name = name;
		m[n].v = x;
		m[n].n = 0;
		add(m[n].c, &m[n].n, 1, positive);
		add(m[n].c, &m[n].n, 2, positive);
		if (x < MOVE_CAP / 2 && x > -MOVE_CAP / 2) {
			add(m[n].c, &m[n].n, x + 1, positive);
			add(m[n].c, &m[n].n, 2 * x, positive);
			add(m[n].c, &m[n].n, 2 * x + 1, positive);
		}
		for (j = 0; j < nt; j++)
			constants_of(texts[j], m[n].c, &m[n].n, positive);
		for (j = 0; j < m[n].n; j++)
			if (m[n].c[j] == x)
				m[n].c[j--] = m[n].c[--m[n].n];
		n++;
	}
	return n;
}

/* A loop's step as case 0 has it (thread 0's launch): each scalar may
 * also move to one stride and one past it, and to two strides and one
 * past them, where a size a few times another's reaches the second
 * trip that the moves of its own value do not. */
static void
stride_moves(json_t *spec, const struct event *l, const struct consts *slice,
    json_t *base, struct mover *m, int nm)
{
	struct consts k = { 0 }, at = { 0 };
	long long d;
	int i;

	kw_case_bind(&k, slice, base);
	thread0(spec, &k, &at);
	if (eval_at0(l->step, &k, &at, &d) && d > 1 && d < MOVE_CAP / 2)
		for (i = 0; i < nm; i++) {
			add(m[i].c, &m[i].n, d, 1);
			add(m[i].c, &m[i].n, d + 1, 1);
			add(m[i].c, &m[i].n, 2 * d, 1);
			add(m[i].c, &m[i].n, 2 * d + 1, 1);
		}
	consts_free(&k);
	consts_free(&at);
}

void
kw_loop_entry_cases(const char *code, const char *kernel, json_t *spec,
    int budget)
{
	json_t *cases = json_object_get(spec, "cases"), *base, *cs;
	struct mtoks t = { 0 };
	struct toks all = { 0 };
	struct consts slice = { 0 }, k = { 0 };
	struct event *ev;
	size_t a, b, s, end, c;
	json_int_t seed;
	int n = 0, i, added = 0;

	if (!kw_case_start(code, kernel, cases, budget, &t, &a, &b, &base,
	    &seed))
		return;
	ev = k_calloc(MAX_EVENTS, sizeof(*ev));
	for (s = a; s < b && n < MAX_EVENTS; s = end + 1) {
		end = kw_stmt_end(code, &t, s, b);
		if (end >= b)
			end = b - 1;
		if (!definition(code, &t, s, end, ev, &n) && !loop(code, &t,
		    s, end, ev, &n))
			kills(code, &t, s, end, ev, &n);
	}
	tokenize(code, &all);
	collect_consts(code, &all, &slice);
	for (i = 0; i < n && added < budget && added < MAX_ENTRIES; i++) {
		struct mover m[MAX_NAMES];
		const char *texts[MAX_EVENTS];
		int nt = 0, nm, told = 0, runs = 0, trips;
		json_t *nc;
		if (ev[i].kind != EV_LOOP)
			continue;
		/* a barrier in the body orders one trip's reads before the
		 * next one's writes: only a second trip tests it */
		trips = ev[i].barrier && ev[i].step != NULL ? 2 : 1;
		/* from the thread's index in strides: one trip a thread
		 * tests neither the stride nor what a thread carries from
		 * one trip to the next */
		if (ev[i].step != NULL && (kw_names(ev[i].expr, "threadIdx") ||
		    kw_names(ev[i].expr, "blockIdx")))
			trips = 2;
		json_array_foreach(cases, c, cs) {
			int r;
			consts_clear(&k);
			kw_case_bind(&k, &slice, cs);
			r = enters(spec, ev, i, &k, trips);
			told += r >= 0;
			runs |= r == 1;
		}
		/* some case runs it (twice), or no case can tell */
		if (runs || told == 0)
			continue;
		reads(ev, i, texts, &nt);
		if (ev[i].step != NULL && nt < MAX_EVENTS)
			texts[nt++] = ev[i].step;
		nm = movers(spec, base, texts, nt, m);
		if (trips == 2)
			stride_moves(spec, &ev[i], &slice, base, m, nm);
		if (nm == 0 || !search(spec, ev, i, trips, m, nm, &slice, base,
		    &nc))
			continue;
		json_object_set_new(nc, "name", json_string(added == 0 ?
		    "loop_entry" : "loop_entry_2"));
		json_object_set_new(nc, "seed", json_integer(seed++));
		json_array_append_new(cases, nc);
		added++;
	}
	for (i = 0; i < n; i++) {
		free(ev[i].expr);
		free(ev[i].cond);
		free(ev[i].step);
	}
	free(ev);
	consts_free(&k);
	consts_free(&slice);
	toks_free(&all);
	free(t.v);
}
