/*
 * kwrap --mutants: equivalence by code that never runs, or stores that
 * nothing reads, under the spec's cases and the instance's template
 * arguments (equiv.c calls these; man kwrap, "Mutants").
 *
 *	dead-code	the edit lies in code that runs in no case, the
 *			evaluator holding template value parameters at
 *			the instance's values: the statement an "if" (or
 *			"if constexpr") runs when its condition is 0 in
 *			every case ("if (blockSize >= 512) { ... }" in
 *			kernel<256>), the else of one whose condition is
 *			nonzero in every case (an else-if chain with it),
 *			a section of a switch that no case's value reaches
 *			by its labels, by default or by falling through;
 *	dead-store	a store-plus-one ("x[i] = v" made "x[i] = (v) + 1")
 *			into an on-chip array of the kernel that nothing
 *			live reads: every other mention of the array is a
 *			plain store "x[...] = ...;" or lies in dead code
 *			(above), and its memory is reached by no other name.
 *
 * An array counts as reached by its name alone when it is declared in
 * the kernel's body as "__shared__ T x[N]" (its own memory), as "extern
 * __shared__ T x[]" where the slice declares no other extern shared
 * array, or as a pointer "T *x = F<...>();" whose initializer names F
 * (a struct or function that hands out the dynamic shared memory), F
 * is named nowhere else than in its own definitions, and every "extern
 * __shared__" of the slice lies inside those definitions.  A pointer
 * that is copied, passed, reassigned, or read through anywhere live
 * proves nothing; so does a macro of the slice in the body that may read
 * the array by a name the tokens do not show.  Shared memory does not outlive the launch, so values
 * stored there and never read cannot reach an output.
 */
#include "equiv.h"

int
eq_tk(const struct eq *g, size_t i, const char *w)
{
	return i < g->t.n && mt_is(g->code, &g->t, i, w);
}

size_t
eq_semi(const struct eq *g, size_t a, size_t b)
{
	for (; a < b; a++) {
		if (eq_tk(g, a, "(") || eq_tk(g, a, "[") || eq_tk(g, a, "{"))
			a = mt_close(g->code, &g->t, a);
		else if (eq_tk(g, a, ";"))
			return a;
	}
	return b;
}

int
eq_same_name(const struct eq *g, size_t i, size_t j)
{
	return i < g->t.n && j < g->t.n && g->t.v[i].kind == M_ID &&
	    g->t.v[j].kind == M_ID && g->t.v[i].len == g->t.v[j].len &&
	    strncmp(g->code + g->t.v[i].off, g->code + g->t.v[j].off,
	    g->t.v[i].len) == 0;
}

/* The ")" that closes the header of the if, for, while or switch at s
 * ("if constexpr (" too); 0 when s starts none of them. */
static size_t
header_close(const struct eq *g, size_t s)
{
	size_t h = s + 1;

	if (!eq_tk(g, s, "if") && !eq_tk(g, s, "for") &&
	    !eq_tk(g, s, "while") && !eq_tk(g, s, "switch"))
		return 0;
	if (eq_tk(g, s, "if") && eq_tk(g, h, "constexpr"))
		h++;
	if (!eq_tk(g, h, "("))
		return 0;
	h = mt_close(g->code, &g->t, h);
	return h < g->b ? h : 0;
}

/*
 * The last token of the statement at s: a block, a simple statement (to
 * its ";", groups skipped, with no brace, goto or label in it), or an
 * if (with its else), for, while, do or switch over such statements; 0
 * when it is none of these, or nests deeper than EQ_DEPTH.  An else goes
 * with the nearest if, as in C, so "if (a) if (b) x; else y;" is one
 * statement.
 */
static size_t
statement_end(const struct eq *g, size_t s, int depth)
{
	static const char *const ctl[] = { "if", "for", "while", "do",
		"switch", "else", "case", "default", "goto", NULL };
	size_t c, e, i;
	int k;

	if (s >= g->b || depth > EQ_DEPTH)
		return 0;
	if (eq_tk(g, s, "{")) {
		e = mt_close(g->code, &g->t, s);
		return e < g->b ? e : 0;
	}
	if ((c = header_close(g, s)) != 0) {
		if ((e = statement_end(g, c + 1, depth + 1)) == 0)
			return 0;
		if (eq_tk(g, s, "if") && eq_tk(g, e + 1, "else"))
			e = statement_end(g, e + 2, depth + 1);
		return e;
	}
	if (eq_tk(g, s, "do")) {
		e = statement_end(g, s + 1, depth + 1);
		if (e == 0 || !eq_tk(g, e + 1, "while") ||
		    !eq_tk(g, e + 2, "("))
			return 0;
		c = mt_close(g->code, &g->t, e + 2);
		return c + 1 < g->b && eq_tk(g, c + 1, ";") ? c + 1 : 0;
	}
	for (i = s; i < g->b; i++) {
		for (k = 0; ctl[k] != NULL; k++)
			if (eq_tk(g, i, ctl[k]))
				return 0;
		if (eq_tk(g, i, "(") || eq_tk(g, i, "["))
			i = mt_close(g->code, &g->t, i);
		else if (eq_tk(g, i, "{") || eq_tk(g, i, "}"))
			return 0;
		else if (eq_tk(g, i, ";"))
			return i;
	}
	return 0;
}

/* A case or default label among tokens [a, b]: a switch around them
 * could jump in past the condition that guards them. */
static int
labelled(const struct eq *g, size_t a, size_t b)
{
	for (; a <= b && a < g->b; a++)
		if (eq_tk(g, a, "case") || eq_tk(g, a, "default"))
			return 1;
	return 0;
}

/* What g has noted for a reason so far: the names the evaluations read,
 * their values, what of the cases they read.  An attempt that proves
 * nothing is taken back, so that it says nothing of the proof. */
struct notes {
	struct seen names[EQ_NAMES];
	int nnames, reads;
};

static void
notes_keep(const struct eq *g, struct notes *n)
{
	memcpy(n->names, g->names, sizeof(n->names));
	n->nnames = g->nnames;
	n->reads = g->reads;
}

static void
notes_back(struct eq *g, const struct notes *n)
{
	memcpy(g->names, n->names, sizeof(n->names));
	g->nnames = n->nnames;
	g->reads = n->reads;
}

/* Whether the condition [a, c) has truth t (0 or 1) in every case. */
static int
always(struct eq *g, size_t a, size_t c, int t)
{
	json_t *cases = json_object_get(g->spec, "cases"), *cs;
	struct notes kept;
	int ok = 1;
	char *txt;
	size_t ci;

	if (c <= a || json_array_size(cases) == 0)
		return 0;
	notes_keep(g, &kept);
	txt = k_asprintf("%.*s", (int)(g->t.v[c].off - g->t.v[a].off),
	    g->code + g->t.v[a].off);
	json_array_foreach(cases, ci, cs) {
		struct val v;
		eq_case_start(g, cs);
		if (!eq_parse_text(g, txt, g->t.v[a].off, g->t.v[c].off, -1,
		    NULL, 1, &v, NULL) || eq_truth(v) != t) {
			ok = 0;
			break;
		}
	}
	free(txt);
	if (!ok)
		notes_back(g, &kept);
	return ok;
}

/* Tokens [a, b) as a reason shows them, white space squeezed. */
static void
show(const struct eq *g, struct k_buf *why, size_t a, size_t b)
{
	char *s, *q;

	if (why == NULL || b <= a)
		return;
	s = k_asprintf("%.*s", (int)(g->t.v[b - 1].off + g->t.v[b - 1].len -
	    g->t.v[a].off), g->code + g->t.v[a].off);
	q = eq_squeeze(s);
	k_buf_add(why, q);
	free(q);
	free(s);
}

/*
 * Token k lies in a branch of the if at i that runs in no case: the
 * statement the if runs, its condition 0 in every case, or the else's,
 * its condition nonzero in every case (an else-if chain is the else's
 * statement: all of it).  The condition itself is evaluated: an edit
 * there is in neither branch.
 */
static int
dead_branch(struct eq *g, size_t i, size_t k, struct k_buf *why)
{
	size_t c, e, x, h = i + 1 + eq_tk(g, i + 1, "constexpr");
	const char *cx = h > i + 1 ? " constexpr" : "";

	if ((c = header_close(g, i)) == 0 || c >= k ||
	    (e = statement_end(g, c + 1, 0)) == 0)
		return 0;
	if (k <= e) {
		if (labelled(g, c + 1, e) || !always(g, h + 1, c, 0))
			return 0;
		if (why != NULL) {
			k_buf_printf(why, "the edit lies in what if%s (", cx);
			show(g, why, h + 1, c);
			k_buf_add(why, ") runs, and the condition is 0 in "
			    "every case");
		}
		return 1;
	}
	if (!eq_tk(g, e + 1, "else") || k <= e + 1 ||
	    (x = statement_end(g, e + 2, 0)) == 0 || k > x ||
	    labelled(g, e + 2, x) || !always(g, h + 1, c, 1))
		return 0;
	if (why != NULL) {
		k_buf_printf(why, "the edit lies in the else branch of if%s (",
		    cx);
		show(g, why, h + 1, c);
		k_buf_add(why, "), and the condition holds in every case");
	}
	return 1;
}

/*
 * The next label at the top level of a switch's body from token j to e
 * (the body's "}"): its "case" or "default" at *at, its ":" at *colon.
 * 1 when there is one, 0 at the body's end, -1 when the body is not
 * plain enough to follow: a label inside a block of its own (Duff's
 * device), after a statement's header ("if (c) case 1:"), without a ":"
 * of its own; a nested switch and its labels are skipped whole.
 */
static int
next_label(const struct eq *g, size_t j, size_t e, size_t *at,
    size_t *colon)
{
	size_t x;
	int d = 0;

	for (; j < e; j++) {
		if (eq_tk(g, j, "(") || eq_tk(g, j, "[")) {
			if ((j = mt_close(g->code, &g->t, j)) >= e)
				return -1;
		} else if (eq_tk(g, j, "switch")) {
			if ((x = header_close(g, j)) == 0 || !eq_tk(g, x + 1,
			    "{") || (j = mt_close(g->code, &g->t, x + 1)) >= e)
				return -1;
		} else if (eq_tk(g, j, "{"))
			d++;
		else if (eq_tk(g, j, "}"))
			d--;
		else if (eq_tk(g, j, "case") || eq_tk(g, j, "default")) {
			if (d != 0 || !(eq_tk(g, j - 1, "{") ||
			    eq_tk(g, j - 1, ";") || eq_tk(g, j - 1, "}") ||
			    eq_tk(g, j - 1, ":")))
				return -1;
			for (x = j + 1; x < e && !eq_tk(g, x, ":"); x++)
				if (eq_tk(g, x, "(") || eq_tk(g, x, "["))
					x = mt_close(g->code, &g->t, x);
				else if (eq_tk(g, x, "{") || eq_tk(g, x, "}") ||
				    eq_tk(g, x, ";") || eq_tk(g, x, "?"))
					return -1;
			if (x >= e || (x == j + 1) != eq_tk(g, j, "default"))
				return -1;
			*at = j;
			*colon = x;
			return 1;
		}
	}
	return 0;
}

/* Whether a switch's section, statements [a, b), may run on into the
 * next: unless its last statement is a break, continue or return of its
 * own (not under an if or a loop). */
static int
falls_through(const struct eq *g, size_t a, size_t b)
{
	size_t s, x, last = b;

	for (s = a; s < b; s = x + 1) {
		if ((x = statement_end(g, s, 0)) == 0 || x >= b)
			return 1;
		last = s;
	}
	return last == b || !(eq_tk(g, last, "break") || eq_tk(g, last,
	    "continue") || eq_tk(g, last, "return"));
}

/* The value of tokens [a, b) in the current case, one number; 0 when it
 * is not one. */
static int
one_value(struct eq *g, size_t a, size_t b, int record, struct val *v)
{
	char *txt;
	int ok;

	if (b <= a)
		return 0;
	txt = k_asprintf("%.*s", (int)(g->t.v[b].off - g->t.v[a].off),
	    g->code + g->t.v[a].off);
	ok = eq_parse_text(g, txt, g->t.v[a].off, g->t.v[b].off, -1, NULL,
	    record, v, NULL) && eq_single(*v);
	free(txt);
	return ok;
}

struct label {
	size_t at, colon;
};

/*
 * Token k lies in a section of the switch at s that no case reaches.  In
 * one case the switch's value enters at the label that equals it, else at
 * default, else nowhere; from there it runs on while each section falls
 * through (falls_through).  So k's section runs only where a case enters
 * at its own labels or at a label before them whose sections all fall
 * through to it.  The value and every label must be one number in each
 * case, and every label of the body plain (next_label); else nothing is
 * proven.  The labels' values compare as C does only where both are
 * ints: one unsigned with a negative or huge other proves nothing.
 */
static int
dead_section(struct eq *g, size_t s, size_t k, struct k_buf *why)
{
	json_t *cases = json_object_get(g->spec, "cases"), *cs;
	struct label *lab = NULL;
	struct notes kept;
	int r, ok = 0;
	size_t c, e, j, n = 0, sec, first, ci, m, at, colon;
	long long lo = 0, hi = 0;

	if (!eq_tk(g, s, "switch") || (c = header_close(g, s)) == 0 ||
	    c >= k || !eq_tk(g, c + 1, "{") ||
	    (e = mt_close(g->code, &g->t, c + 1)) >= g->b || k >= e)
		return 0;
	notes_keep(g, &kept);
	for (j = c + 2; (r = next_label(g, j, e, &at, &colon)) > 0;
	    j = colon + 1) {
		lab = k_reallocarray(lab, n + 1, sizeof(*lab));
		lab[n].at = at;
		lab[n++].colon = colon;
	}
	/* k's section: after the last label whose ":" comes before k, and
	 * not in the next label */
	for (sec = n; sec > 0 && lab[sec - 1].colon >= k; sec--)
		;
	if (r < 0 || sec-- == 0 || (sec + 1 < n && lab[sec + 1].at <= k))
		goto out;
	for (first = sec; first > 0 && falls_through(g, lab[first - 1].colon +
	    1, lab[first].at); first--)
		;
	json_array_foreach(cases, ci, cs) {
		struct val v, l;
		size_t entry = n, dflt = n;
		eq_case_start(g, cs);
		if (!one_value(g, s + 2, c, 1, &v))
			goto out;
		for (m = 0; m < n; m++) {
			if (eq_tk(g, lab[m].at, "default")) {
				dflt = m;
				continue;
			}
			if (!one_value(g, lab[m].at + 1, lab[m].colon, 0, &l) ||
			    (v.uns != l.uns && (v.lo < 0 || l.lo < 0 ||
			    v.lo > INT_MAX || l.lo > INT_MAX)))
				goto out;
			if (l.lo == v.lo && entry == n)
				entry = m;
		}
		if (entry == n)
			entry = dflt;
		if (entry >= first && entry <= sec)
			goto out;
		if (ci == 0 || v.lo < lo)
			lo = v.lo;
		if (ci == 0 || v.lo > hi)
			hi = v.lo;
	}
	ok = json_array_size(cases) > 0;
	if (ok && why != NULL) {
		k_buf_add(why, "the edit lies under ");
		show(g, why, lab[sec].at, lab[sec].colon);
		k_buf_add(why, ": of switch (");
		show(g, why, s + 2, c);
		if (lo == hi)
			k_buf_printf(why, "), whose value is %lld in every "
			    "case", lo);
		else
			k_buf_printf(why, "), whose value (%lld to %lld over "
			    "the cases) reaches no label that runs it", lo, hi);
	}
out:
	if (!ok)
		notes_back(g, &kept);
	free(lab);
	return ok;
}

int
eq_dead_at(struct eq *g, size_t k, struct k_buf *why)
{
	size_t i;

	/* a jump into the branch would run it without the condition */
	for (i = g->a; i < g->b; i++)
		if (eq_tk(g, i, "goto") || eq_tk(g, i, "asm"))
			return 0;
	for (i = g->a; i + 1 < k; i++)
		if ((eq_tk(g, i, "if") && dead_branch(g, i, k, why)) ||
		    (eq_tk(g, i, "switch") && dead_section(g, i, k, why)))
			return 1;
	return 0;
}

/* Token i starts a statement. */
static int
stmt_start(const struct eq *g, size_t i)
{
	return i == g->a || eq_tk(g, i - 1, ";") || eq_tk(g, i - 1, "{") ||
	    eq_tk(g, i - 1, "}") || eq_tk(g, i - 1, ")") || eq_tk(g, i - 1, "else");
}

int
eq_list_start(const struct eq *g, size_t i)
{
	return i == g->a || eq_tk(g, i - 1, ";") || eq_tk(g, i - 1, "{") ||
	    eq_tk(g, i - 1, "}");
}

/* Token j is the array of a plain store "x[...] = ...;" that is a
 * statement of its own (its value is not used); the "=" in *eq. */
int
eq_plain_store(const struct eq *g, size_t j, size_t *eq)
{
	size_t q;

	if (!stmt_start(g, j) || !eq_tk(g, j + 1, "["))
		return 0;
	q = mt_close(g->code, &g->t, j + 1);
	if (q >= g->b || !eq_tk(g, q + 1, "="))
		return 0;
	*eq = q + 1;
	return 1;
}

/* The definitions of F in the code, [s, e] pairs into sp (at most max):
 * "struct F ... { ... }" and "F (...) { ... }"; how many, -1 when one
 * does not fit. */
int
eq_definitions(const struct eq *g, size_t f, size_t sp[][2], int max)
{
	size_t i, j;
	int n = 0;

	for (i = 0; i < g->t.n; i++) {
		if (!eq_same_name(g, i, f) || (i >= g->a && i < g->b))
			continue;
		j = i + 1;
		if (i > 0 && (eq_tk(g, i - 1, "struct") || eq_tk(g, i - 1, "class"))) {
			while (j < g->t.n && !eq_tk(g, j, "{") && !eq_tk(g, j, ";"))
				j++;
		} else if (eq_tk(g, j, "(")) {
			j = mt_close(g->code, &g->t, j) + 1;
			while (j < g->t.n && (eq_tk(g, j, "const") || g->t.v[j].kind ==
			    M_ID))
				j++;
		} else
			continue;
		if (!eq_tk(g, j, "{"))
			continue;
		if (n >= max)
			return -1;
		sp[n][0] = i;
		sp[n++][1] = mt_close(g->code, &g->t, j);
		i = sp[n - 1][1];
	}
	return n;
}

static int
inside(size_t sp[][2], int n, size_t i)
{
	int k;

	for (k = 0; k < n; k++)
		if (i >= sp[k][0] && i <= sp[k][1])
			return 1;
	return 0;
}

/* "extern __shared__" at token i. */
static int
extern_shared(const struct eq *g, size_t i)
{
	return eq_tk(g, i, "extern") && eq_tk(g, i + 1, "__shared__");
}

/* d declares "T *x = reinterpret_cast<T *>(y);" (or "(T *)y"), y an
 * "extern __shared__ U y[]" of the body, named nowhere else, and no
 * other extern __shared__ in the slice. */
static int
cast_of_extern(const struct eq *g, size_t d)
{
	size_t e, y = 0, i, s;

	for (e = d + 2; e < g->b && !eq_tk(g, e, ";"); e++)
		if (eq_tk(g, e, "(") || eq_tk(g, e, "["))
			e = mt_close(g->code, &g->t, e);
	if (e >= g->b)
		return 0;
	/* reinterpret_cast<...>(y) or (T *)y: y the last name, alone */
	if (eq_tk(g, d + 2, "reinterpret_cast") && eq_tk(g, e - 1, ")") &&
	    eq_tk(g, e - 3, "(") && g->t.v[e - 2].kind == M_ID)
		y = e - 2;
	else if (eq_tk(g, d + 2, "(") && eq_tk(g, e - 2, ")") &&
	    g->t.v[e - 1].kind == M_ID && mt_close(g->code, &g->t, d + 2) ==
	    e - 2)
		y = e - 1;
	if (y == 0)
		return 0;
	for (i = 0, s = 0; i < g->t.n; i++) {
		if (extern_shared(g, i)) {
			size_t n = i + 2;
			while (n < g->t.n && g->t.v[n].kind == M_ID && !eq_tk(g,
			    n + 1, "["))
				n++;
			if (i < g->a || i >= d || !eq_same_name(g, n, y) ||
			    !eq_tk(g, n + 1, "[") || s != 0)
				return 0;
			s = n;
		} else if (eq_same_name(g, i, y) && i != y && i != s)
			return 0;
	}
	return s != 0;
}

/* Token j, naming an array, declares it: "T *x = ..." or "T x[...]". */
static int
array_decl(const struct eq *g, size_t j)
{
	return (eq_tk(g, j - 1, "*") && eq_tk(g, j + 1, "=") && j >= g->a + 2 &&
	    g->t.v[j - 2].kind == M_ID) || (eq_tk(g, j + 1, "[") &&
	    g->t.v[j - 1].kind == M_ID && !eq_tk(g, j - 1, "return"));
}

/* The declaration of on-chip array x (its token in the body, d): its
 * memory reached by that name alone (see the top). */
static int
own_memory(const struct eq *g, size_t d)
{
	size_t s, i, f = 0, e, sp[16][2];
	int n, shared = 0, ext = 0;

	for (s = d; s > g->a && !stmt_start(g, s); s--)
		;
	for (i = s; i < d; i++) {
		shared |= eq_tk(g, i, "__shared__");
		ext |= eq_tk(g, i, "extern");
	}
	if (shared && eq_tk(g, d + 1, "[") && !ext)
		return 1;		/* __shared__ T x[N] */
	if (shared && ext && eq_tk(g, d + 1, "[")) {
		for (i = 0; i < g->t.n; i++)
			if (extern_shared(g, i) && (i < s || i >= d))
				return 0;
		return 1;
	}
	/* T *x = F<...>(); */
	if (shared || !eq_tk(g, d - 1, "*") || !eq_tk(g, d + 1, "="))
		return 0;
	if (cast_of_extern(g, d))
		return 1;
	for (e = d + 2; e < g->b && !eq_tk(g, e, ";"); e++)
		if (f == 0 && g->t.v[e].kind == M_ID && (eq_tk(g, e + 1, "(") ||
		    eq_tk(g, e + 1, "<")))
			f = e;
	if (f == 0 || (n = eq_definitions(g, f, sp, 16)) <= 0)
		return 0;
	for (i = 0; i < g->t.n; i++) {
		if (extern_shared(g, i) && !inside(sp, n, i))
			return 0;
		if (eq_same_name(g, i, f) && i != f && !inside(sp, n, i))
			return 0;
	}
	return 1;
}

int
eq_dead_store(struct eq *g, size_t off, size_t len, struct k_buf *why)
{
	size_t k, j, x, eqt, semi, d = 0;
	int reads = 0;

	for (k = g->a; k < g->b && g->t.v[k].off != off; k++)
		;
	/* the edit is the whole right-hand side of "x[...] = v;" */
	if (k >= g->b || k < g->a + 2 || !eq_tk(g, k - 1, "="))
		return 0;
	for (semi = k; semi < g->b && !eq_tk(g, semi, ";"); semi++)
		if (eq_tk(g, semi, "(") || eq_tk(g, semi, "["))
			semi = mt_close(g->code, &g->t, semi);
	if (semi >= g->b || g->t.v[semi - 1].off + g->t.v[semi - 1].len !=
	    off + len || !eq_tk(g, k - 2, "]"))
		return 0;
	for (x = k - 2; x > g->a; x--)
		if (eq_tk(g, x, "[") && mt_close(g->code, &g->t, x) == k - 2)
			break;
	if (x <= g->a || !eq_plain_store(g, --x, &eqt) || eqt != k - 1)
		return 0;
	/* a macro that subscripts or assigns may read the array by a name
	 * kwrap's tokens do not show */
	for (j = g->a; j < g->b; j++)
		if (g->t.v[j].kind == M_ID && eq_macro_hazard(g, j))
			return 0;
	/* every other mention: the declaration, plain stores, dead code */
	for (j = g->a; j < g->b; j++) {
		if (!eq_same_name(g, j, x) || j == x || eq_tk(g, j - 1, ".") ||
		    eq_tk(g, j - 1, "->") || eq_tk(g, j - 1, "::"))
			continue;
		if (d == 0 && j < x && array_decl(g, j)) {
			d = j;
			continue;
		}
		if (eq_plain_store(g, j, &eqt))
			continue;
		if (eq_dead_at(g, j, NULL)) {
			reads++;
			continue;
		}
		return 0;
	}
	if (d == 0 || !own_memory(g, d))
		return 0;
	k_buf_printf(why, "%.*s is an on-chip array that no live code reads "
	    "(%d read%s, all in code that never runs in any case)",
	    (int)g->t.v[x].len, g->code + g->t.v[x].off, reads, reads == 1 ?
	    "" : "s");
	return 1;
}

int
eq_array_own(const struct eq *g, size_t x)
{
	size_t j;

	for (j = g->a; j < g->b; j++) {
		if (!eq_same_name(g, j, x) || eq_tk(g, j - 1, ".") ||
		    eq_tk(g, j - 1, "->") || eq_tk(g, j - 1, "::"))
			continue;
		/* the first mention is its declaration, or x is not ours */
		return array_decl(g, j) && own_memory(g, j);
	}
	return 0;
}
