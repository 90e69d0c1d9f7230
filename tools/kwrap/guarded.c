/*
 * kwrap: outputs that start zeroed (man kwrap, "Outputs that start
 * zeroed").  A pure output begins as the harness's sentinel, and any
 * element the reference leaves unwritten fails the golden.  Two kinds of
 * kernel leave elements unwritten by design, and their callers hand them
 * a zeroed buffer:
 *
 *  - every store into the buffer happens only where a condition on data
 *    or on a mode holds: under "if (x[i] > 0)", after "if (roi_w <= 0)
 *    continue;" on a value read from a buffer, in a loop whose trip count
 *    was read from one, or under "if (aligned)" / "if (mode == 1)" on a
 *    scalar that selects a mode; or at an element that data picks
 *    (out[idx[i]] = v);
 *  - the buffer is only accumulated into by atomics (atomicAdd(&g[i], v),
 *    atomicSub), never stored to or read otherwise: its elements are sums
 *    that start from zero (an atomicMin or atomicMax target keeps its
 *    fill: its start is the caller's choice).
 *
 * Such a buffer becomes an inout one filled with zeros in every case: the
 * elements the kernel leaves alone hold 0 for the reference and for a
 * candidate alike, and "fully written" is not asked of them.  A store
 * under a bounds guard (if (i < n)), under a test of a thread index
 * (if (tid == 0)) or of a pointer for null keeps the buffer a pure
 * output.  A value is data when it is read from a buffer, or assigned
 * from data, or assigned under a guard on data (cnt++ under
 * "if (mask[k])"), or named alone beside data in the arguments of a
 * call that is a statement of its own (convert(p[j], v);: the call's
 * out-parameter).
 */
#include "kwrap.h"

struct use {
	int stores, guarded;	/* stores, and those under a data guard */
	int atomics, other;	/* atomic arguments; reads and calls */
};

struct walk {
	struct kern *k;
	struct names *tn;
	struct use *u;		/* per parameter; NULL while tainting */
	int grew;
	int depth;		/* statements nested around the walk */
};

/* Nesting beyond which statements are taken as plain ones: the walk
 * recurses once per level, and a hostile text may nest thousands. */
#define MAX_NEST 64

/* The buffer parameter that token i names, directly or through a local
 * pointer into it; -1 for none. */
static int
buffer_at(struct kern *k, size_t i)
{
	const struct toks *t = &k->t;
	struct var *v;
	int pi;

	if (!is_ident(t->v[i]) || is(t, i - 1, ".") || is(t, i - 1, "->"))
		return -1;
	if ((pi = param_index(k, t->v[i])) >= 0)
		return k->p[pi].ptr ? pi : -1;
	if ((v = var_get(k, t->v[i])) != NULL && v->alias >= 0)
		return v->alias;
	return -1;
}

/* Whether fn is an atomic that accumulates (atomicAdd, atomicSub,
 * gpuAtomicAdd): its target's elements are sums from zero.  atomicMin,
 * atomicMax and atomicExch keep a start that the caller chose. */
static int
accumulates(const char *fn)
{
	return (strncmp(fn, "atomic", 6) == 0 || strstr(fn, "tomicAdd") !=
	    NULL) && (strstr(fn, "Add") != NULL || strstr(fn, "Sub") != NULL);
}

/* Whether token i belongs to the definition of a local pointer into
 * buffer pi (T *q = p + off: both q and p). */
static int
alias_def(struct kern *k, int pi, size_t i)
{
	const struct toks *t = &k->t;
	int j;

	for (j = 0; j < k->nv; j++)
		if (k->v[j].alias == pi && ((i >= k->v[j].a && i < k->v[j].b) ||
		    (strcmp(t->v[i], k->v[j].name) == 0 && is(t, i + 1, "="))))
			return 1;
	return 0;
}

/* Whether token i, a pointer, is only tested for null ("p != nullptr",
 * "if (p)", "!p"). */
static int
null_test(const struct toks *t, size_t i)
{
	if ((is(t, i + 1, "!=") || is(t, i + 1, "==")) &&
	    (is(t, i + 2, "nullptr") || is(t, i + 2, "NULL") ||
	    is(t, i + 2, "0")))
		return 1;
	if ((is(t, i - 1, "!=") || is(t, i - 1, "==")) &&
	    (is(t, i - 2, "nullptr") || is(t, i - 2, "NULL")))
		return 1;
	return (is(t, i - 1, "(") || is(t, i - 1, "!") || is(t, i - 1, "&&") ||
	    is(t, i - 1, "||")) && (is(t, i + 1, ")") || is(t, i + 1, "&&") ||
	    is(t, i + 1, "||"));
}

/* Whether tokens [a, b) hold a value of data. */
static int
has_data(struct walk *w, size_t a, size_t b)
{
	const struct toks *t = &w->k->t;
	size_t i;

	for (i = a; i < b; i++) {
		if (!is_ident(t->v[i]) || is(t, i - 1, ".") ||
		    is(t, i - 1, "->"))
			continue;
		if (buffer_at(w->k, i) >= 0 && !null_test(t, i))
			return 1;
		if (names_has(w->tn, t->v[i]))
			return 1;
	}
	return 0;
}

/* Whether condition [a, b) selects a mode: a scalar parameter compared
 * for equality with a number, or a bool or integer one tested for truth
 * alone. */
static int
has_mode(struct walk *w, size_t a, size_t b)
{
	const struct toks *t = &w->k->t;
	size_t i;
	int pi;

	for (i = a; i < b; i++) {
		const struct param *p;
		if ((pi = param_index(w->k, t->v[i])) < 0 ||
		    is(t, i - 1, ".") || is(t, i - 1, "->"))
			continue;
		p = &w->k->p[pi];
		if (p->ptr || p->is_struct || p->dt == NULL)
			continue;
		if ((is(t, i + 1, "==") || is(t, i + 1, "!=")) && i + 2 < b &&
		    isdigit((unsigned char)t->v[i + 2][0]))
			return 1;
		if ((is(t, i - 1, "==") || is(t, i - 1, "!=")) && i >= a + 2 &&
		    isdigit((unsigned char)t->v[i - 2][0]))
			return 1;
		/* a flag tested for truth: if (aligned), if (clear_first) */
		if (!p->dt->is_float && null_test(t, i))
			return 1;
	}
	return 0;
}

static void walk_range(struct walk *w, size_t s, size_t e, int g);

/* Whether token i, a name before (, begins statement [a, ...) as a call
 * whose value nothing takes: f(...); or ns::f(...); */
static int
stmt_call(const struct toks *t, size_t a, size_t i)
{
	size_t s = i, c;

	while (s >= a + 2 && is(t, s - 1, "::") && is_ident(t->v[s - 2]))
		s -= 2;
	if (s != a)
		return 0;
	c = skip_group(t, i + 1);
	return c < t->n && is(t, c, ";");
}

/* A call f(..., data, ..., x, ...) whose ( is at open, within [open, b):
 * a local named alone as an argument beside an argument of data may be
 * the call's out-parameter (convert(p[j], v) sets v from p[j]), so it is
 * data too.  Whether a local was newly tainted. */
static int
call_taints(struct walk *w, size_t open, size_t b)
{
	const struct toks *t = &w->k->t;
	size_t ends[16], close = skip_group(t, open), s;
	int n, j, mixed, data = 0, grew = 0;

	if (close > b || close <= open + 2)
		return 0;
	n = split_top(t, open + 1, close - 1, ",", ends, 16, &mixed);
	for (j = 0, s = open + 1; j < n; s = ends[j] + 1, j++)
		if (has_data(w, s, ends[j]))
			data = 1;
	if (!data || n < 2)
		return 0;
	for (j = 0, s = open + 1; j < n; s = ends[j] + 1, j++)
		if (ends[j] == s + 1 && is_ident(t->v[s]) &&
		    !is_keyword(t->v[s]) && buffer_at(w->k, s) < 0 &&
		    param_index(w->k, t->v[s]) < 0 && names_add(w->tn, t->v[s]))
			grew = 1;
	return grew;
}

/* A plain statement [a, b): its assignments taint, its uses of buffers
 * count. */
static void
walk_plain(struct walk *w, size_t a, size_t b, int g)
{
	static const char *const stop[] = { ";", ",", NULL };
	const struct toks *t = &w->k->t;
	size_t i, e;
	int pi;

	for (i = a; i < b; i++) {
		const char *s = t->v[i];
		int asg = strcmp(s, "=") == 0 || (strlen(s) == 2 &&
		    s[1] == '=' && strchr("+-*/%&|^", s[0]) != NULL);
		if ((asg || strcmp(s, "++") == 0 || strcmp(s, "--") == 0) &&
		    w->u == NULL) {
			/* the assigned local: x = .., x[j] = .., ++x, x++ */
			size_t at = i - 1;
			if (is(t, at, "]")) {
				int depth = 0;
				while (at > a) {
					if (is(t, at, "]"))
						depth++;
					else if (is(t, at, "[") && --depth == 0)
						break;
					at--;
				}
				at--;
			}
			if (!asg && !is_ident(t->v[at]))
				at = i + 1;
			if (at < b && is_ident(t->v[at]) &&
			    buffer_at(w->k, at) < 0 && param_index(w->k,
			    t->v[at]) < 0) {
				e = asg ? expr_end(t, i + 1, stop) : i;
				if (e > b)
					e = b;
				if ((g || (asg && has_data(w, i + 1, e))) &&
				    names_add(w->tn, t->v[at]))
					w->grew = 1;
			}
			continue;
		}
		if (w->u == NULL && is_ident(s) && !is_keyword(s) &&
		    is(t, i + 1, "(") && stmt_call(t, a, i) &&
		    call_taints(w, i + 1, b))
			w->grew = 1;
		if (w->u == NULL || (pi = buffer_at(w->k, i)) < 0)
			continue;
		if (alias_def(w->k, pi, i))
			continue;
		if (is(t, i + 1, "[")) {
			size_t c = skip_group(t, i + 1);
			const char *n = c < t->n ? t->v[c] : "";
			if (strcmp(n, "=") == 0 || (strlen(n) == 2 &&
			    n[1] == '=' && n[0] != '=' && n[0] != '!' &&
			    n[0] != '<' && n[0] != '>')) {
				/* out[idx[i]] = v: data picks the element */
				w->u[pi].stores++;
				w->u[pi].guarded += g || has_data(w, i + 2, c - 1);
				if (strcmp(n, "=") != 0)
					w->u[pi].other++;
				continue;
			}
		} else if (is(t, i - 1, "*") && unary_at(t, i - 1) &&
		    is(t, i + 1, "=")) {
			w->u[pi].stores++;
			w->u[pi].guarded += g;
			continue;
		}
		{
			/* atomicAdd(&g[i], v), atomicAdd(g + i, v) */
			size_t o = i;
			while (o > a && (is(t, o - 1, "&") || is(t, o - 1, "(")))
				o--;
			if (o < i && is(t, o, "(") && o > a &&
			    accumulates(t->v[o - 1])) {
				w->u[pi].atomics++;
				continue;
			}
		}
		w->u[pi].other++;
	}
}

/* The statements of [s, e), each under guard g (a data or mode guard
 * holds around it). */
static void
walk_range(struct walk *w, size_t s, size_t e, int g)
{
	const struct toks *t = &w->k->t;
	size_t j, je, c;

	if (w->depth >= MAX_NEST) {
		walk_plain(w, s, e, g);
		return;
	}
	w->depth++;
	for (j = s; j < e; j = je) {
		je = stmt_end(t, j, e);
		if (je <= j)
			je = j + 1;
		if (is(t, j, "{")) {
			walk_range(w, j + 1, je - 1, g);
		} else if (is(t, j, "if") && is(t, j + 1, "(")) {
			size_t ce = skip_group(t, j + 1), te, sel;
			sel = has_data(w, j + 2, ce - 1) ||
			    has_mode(w, j + 2, ce - 1);
			te = stmt_end(t, ce, e);
			walk_range(w, ce, te, g || sel);
			if (is(t, te, "else"))
				walk_range(w, te + 1, je, g || sel);
			/* if (roi_w <= 0) continue;: what follows runs
			 * only where the condition fails */
			if (sel && stmt_exits(t, ce, te))
				g = 1;
		} else if ((is(t, j, "for") || is(t, j, "while") ||
		    is(t, j, "switch")) && is(t, j + 1, "(")) {
			size_t ce = skip_group(t, j + 1);
			int sel = has_data(w, j + 2, ce - 1) ||
			    (is(t, j, "switch") && has_mode(w, j + 2, ce - 1));
			walk_plain(w, j + 2, ce - 1, g);
			walk_range(w, ce, je, g || sel);
		} else if (is_ident(t->v[j]) && is(t, j + 1, "(") &&
		    (c = skip_group(t, j + 1)) < je && is(t, c, "{")) {
			/* CUDA_1D_KERNEL_LOOP(i, n) { ... } */
			walk_range(w, c, je, g);
		} else
			walk_plain(w, j, je, g);
	}
	w->depth--;
}

/*
 * A flag the kernel returns on before any work: "if (flag && *flag != 0)
 * return;", "if (*noop) return;", "if (noop[0] == 1) return;" at the top
 * of its body.  Filled like other data, the flag is almost never 0 and
 * the kernel does nothing in any case; its caller passes a clear flag.
 * A buffer whose element the guard reads (*p or p[0]) is filled with 0
 * in every case where the guard, with the element 0 and every pointer
 * tested for null taken as set, evaluates false.  Returns the buffer's
 * index, or -1.
 */
static int
exit_flag(struct kern *k, size_t a, size_t b)
{
	const struct toks *t = &k->t;
	struct toks e = { 0 };
	size_t i;
	long long v;
	int flag = -1, pi, ok = 1;

	for (i = a; i < b && ok; i++) {
		pi = is_ident(t->v[i]) ? param_index(k, t->v[i]) : -1;
		if (pi >= 0 && k->p[pi].ptr && !k->p[pi].is_struct &&
		    is(t, i - 1, "*") && (i == a || is(t, i - 2, "(") ||
		    is(t, i - 2, "&&") || is(t, i - 2, "||") ||
		    is(t, i - 2, "!"))) {
			/* *p, the element */
			ok = flag < 0 || flag == pi;
			flag = pi;
			free(e.v[--e.n]);
			tok_push(&e, "0", 1);
		} else if (pi >= 0 && k->p[pi].ptr && !k->p[pi].is_struct &&
		    is(t, i + 1, "[") && is(t, i + 2, "0") && is(t, i + 3, "]")) {
			ok = flag < 0 || flag == pi;
			flag = pi;
			tok_push(&e, "0", 1);
			i += 3;
		} else if (pi >= 0 && k->p[pi].ptr)
			tok_push(&e, "1", 1);	/* tested for null: set */
		else
			tok_push(&e, t->v[i], strlen(t->v[i]));
	}
	ok = ok && flag >= 0 && eval_range(&e, 0, e.n, &k->c, &v) && v == 0;
	toks_free(&e);
	return ok ? flag : -1;
}

/* exit_flag over the guards that open the kernel's body. */
static void
exit_flags(struct kern *k)
{
	const struct toks *t = &k->t;
	size_t i = k->body + 1, c;
	int pi;

	while (is(t, i, "if") && is(t, i + 1, "(")) {
		c = skip_group(t, i + 1);
		if (!is(t, c, "return") || !is(t, c + 1, ";"))
			break;
		if ((pi = exit_flag(k, i + 2, c - 1)) >= 0 &&
		    !k->p[pi].zeroed && k->p[pi].dt != NULL &&
		    !k->p[pi].dt->is_float) {
			struct param *p = &k->p[pi];
			p->zeroed = 1;
			if (!p->written && !p->text_written) {
				/* only read: no output, and the guess that
				 * took it as one (model.c) no longer holds */
				char was[128];
				p->role = R_IN;
				bprintf(was, sizeof(was), "%s: not const and "
				    "never seen written, taken as inout",
				    p->name);
				guess_drop(k, was);
			} else if (p->role == R_OUT)
				p->role = R_INOUT;
			guess(k, "%s: the kernel returns at once where it is "
			    "set: filled with 0%s", p->name, p->role == R_IN ?
			    ", and only read" : "");
		}
		i = c + 2;
	}
}

void
zeroed_outputs(struct kern *k)
{
	struct names tn = { 0 };
	struct walk w = { k, &tn, NULL, 0, 0 };
	const struct toks *t = &k->t;
	size_t end;
	int i, round;

	if (!is(t, k->body, "{"))
		return;
	end = skip_group(t, k->body) - 1;
	for (round = 0; round < 8; round++) {
		w.grew = 0;
		walk_range(&w, k->body + 1, end, 0);
		if (!w.grew)
			break;
	}
	w.u = k_calloc((size_t)k->np + 1, sizeof(*w.u));
	walk_range(&w, k->body + 1, end, 0);
	for (i = 0; i < k->np; i++) {
		struct param *p = &k->p[i];
		const struct use *u = &w.u[i];
		if (!p->ptr || p->is_const || u->other > 0)
			continue;
		if (p->role == R_OUT && u->stores > 0 &&
		    u->guarded == u->stores && u->atomics == 0) {
			p->zeroed = 1;
			guess(k, "%s: every store is under a condition on data "
			    "or a mode: starts zeroed, as inout", p->name);
		} else if (u->atomics > 0 && u->stores == 0) {
			p->zeroed = 1;
			guess(k, "%s: only accumulated into by atomics: starts "
			    "zeroed, as inout", p->name);
		}
		if (p->zeroed)
			p->role = R_INOUT;
	}
	free(w.u);
	free(tn.v);
	exit_flags(k);
}
