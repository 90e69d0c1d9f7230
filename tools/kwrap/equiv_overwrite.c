/*
 * kwrap --mutants: equivalence by a store that the same thread stores
 * over before anything can read it (equiv.c calls this; man kwrap,
 * "Mutants").
 *
 *	overwritten	the edit lies in the value of "x[i] = v;" (or drops
 *			the statement), x an on-chip array of the kernel
 *			whose memory only that name reaches, and a later
 *			statement of the same block stores "x[i] = w;" at
 *			the same index, w not naming x: "sh[threadIdx.x] =
 *			0; for (...) acc += ...; sh[threadIdx.x] = acc;".
 *
 * Between the two stores nothing may see the first: no mention of x, no
 * barrier or other synchronization (__syncthreads, __syncwarp, any name
 * with "sync" in it, asm), no return or goto, no break or continue but
 * inside a loop of its own, no assignment to a name of the index, no
 * macro of the slice that may touch memory, and no call but to a cast,
 * to a function the slice does not define whose name is no method's and
 * holds no "sync", or to one the slice defines (every definition of the
 * name, overloads and a class of that name included) whose body passes
 * the same test (four levels down).  Another thread could read x[i] between
 * only after a barrier, and there is none; so the first store's value,
 * and v's evaluation (no effects, no call but those above), can reach
 * nothing.  The proof holds for every input, not only the spec's cases.
 */
#include "equiv.h"

#define CALL_DEPTH 4
#define MAX_DEFS 16	/* definitions of one name read */

static int
is_name(const struct eq *g, size_t i)
{
	return i < g->t.n && g->t.v[i].kind == M_ID;
}

static int
has_sync(const struct eq *g, size_t i)
{
	char w[128];

	if (!is_name(g, i) || g->t.v[i].len >= sizeof(w))
		return 0;
	memcpy(w, g->code + g->t.v[i].off, g->t.v[i].len);
	w[g->t.v[i].len] = '\0';
	return strstr(w, "sync") != NULL || strstr(w, "Sync") != NULL ||
	    strcmp(w, "asm") == 0 || strcmp(w, "__asm__") == 0 ||
	    strcmp(w, "__threadfence") == 0 || strcmp(w, "__shared__") == 0;
}

/* Whether [a, b) synchronizes or may: see the top. */
static int
may_sync(const struct eq *g, size_t a, size_t b, int depth)
{
	size_t i, s, sp[MAX_DEFS][2];
	int n, d;

	for (i = a; i < b; i++) {
		if (has_sync(g, i) || (is_name(g, i) && eq_macro_hazard(g, i)))
			return 1;
		if (!is_name(g, i) || !eq_tk(g, i + 1, "("))
			continue;
		if (eq_tk(g, i - 1, ".") || eq_tk(g, i - 1, "->"))
			return 1;	/* a method: its object's */
		/* a math function or a cast has none: nothing to read */
		if ((n = eq_definitions(g, i, sp, MAX_DEFS)) < 0)
			return 1;
		for (d = 0; d < n; d++) {
			/* the body, from its brace */
			for (s = sp[d][0]; s < sp[d][1] && !eq_tk(g, s, "{");
			    s++)
				if (eq_tk(g, s, "(") || eq_tk(g, s, "["))
					s = mt_close(g->code, &g->t, s);
			if (depth >= CALL_DEPTH || may_sync(g, s, sp[d][1],
			    depth + 1))
				return 1;
		}
	}
	return 0;
}

/* Whether [a, b) has an effect: an assignment, ++ or --. */
static int
effects(const struct eq *g, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b; i++)
		if (eq_tk(g, i, "++") || eq_tk(g, i, "--") ||
		    eq_is_assign(g->code, &g->t.v[i]))
			return 1;
	return 0;
}

/* Whether [a, b) names x, or assigns a name of the index [ia, ib). */
static int
touches(const struct eq *g, size_t a, size_t b, size_t x, size_t ia,
    size_t ib)
{
	size_t i, j;

	for (i = a; i < b; i++) {
		if (eq_same_name(g, i, x) && !eq_tk(g, i - 1, ".") &&
		    !eq_tk(g, i - 1, "->") && !eq_tk(g, i - 1, "::"))
			return 1;
		for (j = ia; j < ib; j++)
			if (is_name(g, j) && eq_same_name(g, i, j) &&
			    (eq_tk(g, i - 1, "&") || eq_tk(g, i - 1, "++") ||
			    eq_tk(g, i - 1, "--") || eq_tk(g, i + 1, "++") ||
			    eq_tk(g, i + 1, "--") || (i + 1 < g->t.n &&
			    eq_is_assign(g->code, &g->t.v[i + 1]))))
				return 1;
	}
	return 0;
}

/* Whether return, goto or throw lies in [a, b). */
static int
jumps_hard(const struct eq *g, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b; i++)
		if (eq_tk(g, i, "return") || eq_tk(g, i, "goto") ||
		    eq_tk(g, i, "throw"))
			return 1;
	return 0;
}

/* The line of offset off in s, from 1. */
static int
line_of(const char *s, size_t off)
{
	int n = 1;
	size_t i;

	for (i = 0; i < off && s[i] != '\0'; i++)
		n += s[i] == '\n';
	return n;
}

/* Whether a jump in [a, b) leaves the statements: return and goto
 * anywhere; break and continue unless a loop in [a, b) holds them. */
static int
jumps(const struct eq *g, size_t a, size_t b)
{
	size_t i;

	for (i = a; i < b; i++) {
		if (jumps_hard(g, i, i + 1))
			return 1;
		if (eq_tk(g, i, "for") || eq_tk(g, i, "while")) {
			/* its header and body: their jumps are its own but
			 * for return and goto (seen above as we go on) */
			size_t c = eq_tk(g, i + 1, "(") ? mt_close(g->code,
			    &g->t, i + 1) : i, e;
			if (c >= b)
				return 1;
			e = eq_tk(g, c + 1, "{") ? mt_close(g->code, &g->t,
			    c + 1) : eq_semi(g, c + 1, b);
			if (jumps_hard(g, c + 1, e > b ? b : e))
				return 1;
			i = e;
			continue;
		}
		if (eq_tk(g, i, "do")) {
			size_t e = eq_tk(g, i + 1, "{") ? mt_close(g->code,
			    &g->t, i + 1) : i;
			if (e >= b || jumps_hard(g, i + 1, e))
				return 1;
			i = e;
			continue;
		}
		if (eq_tk(g, i, "break") || eq_tk(g, i, "continue"))
			return 1;
	}
	return 0;
}

int
eq_overwritten(struct eq *g, size_t off, size_t len, struct k_buf *why)
{
	size_t j, x, q, eqt = 0, semi = 0, i, e, s2 = 0, q2, eq2, semi2;

	/* the store whose value or whole statement the edit is */
	for (j = g->a; j < g->b; j++) {
		if (!eq_plain_store(g, j, &eqt))
			continue;
		semi = eq_semi(g, eqt, g->b);
		if (semi >= g->b || off < g->t.v[j].off || off + len >
		    g->t.v[semi].off + 1)
			continue;
		if (off == g->t.v[j].off || off > g->t.v[eqt].off)
			break;
		return 0;	/* in the index: another element */
	}
	/* in a list of statements, not the body of an if or a loop (whose
	 * condition may read the value stored) */
	if (j >= g->b || !(j == g->a || eq_tk(g, j - 1, ";") || eq_tk(g, j - 1,
	    "{") || eq_tk(g, j - 1, "}")))
		return 0;
	x = j;
	q = mt_close(g->code, &g->t, j + 1);
	if (!eq_array_own(g, x) || effects(g, j + 2, q) || effects(g, eqt + 1,
	    semi) || may_sync(g, j + 2, q, 0) || may_sync(g, eqt + 1, semi, 0))
		return 0;
	/* the statements after it in its block, to the second store */
	for (i = semi + 1; i < g->b && !eq_tk(g, i, "}"); i = e + 1) {
		e = kw_stmt_end(g->code, &g->t, i, g->b);
		if (e >= g->b)
			return 0;
		if (eq_plain_store(g, i, &eq2) && eq_same_name(g, i, x) &&
		    (q2 = mt_close(g->code, &g->t, i + 1)) - i == q - j) {
			size_t k;
			for (k = 1; k < q - j; k++)
				if (g->t.v[j + 1 + k].len != g->t.v[i + 1 +
				    k].len || memcmp(g->code + g->t.v[j + 1 +
				    k].off, g->code + g->t.v[i + 1 + k].off,
				    g->t.v[j + 1 + k].len) != 0)
					break;
			semi2 = eq_semi(g, eq2, g->b);
			if (k == q - j && semi2 < g->b && !touches(g, eq2 + 1,
			    semi2, x, j + 2, q)) {
				s2 = i;
				break;
			}
		}
		if (touches(g, i, e + 1, x, j + 2, q) || may_sync(g, i, e + 1,
		    0) || jumps(g, i, e + 1))
			return 0;
	}
	if (s2 == 0)
		return 0;
	k_buf_printf(why, "%.*s[%.*s] is stored again at line %d before "
	    "anything can read it (no barrier, jump or mention between), "
	    "and its memory is reached by that name alone",
	    (int)g->t.v[x].len, g->code + g->t.v[x].off,
	    (int)(g->t.v[q].off - g->t.v[j + 2].off), g->code +
	    g->t.v[j + 2].off, line_of(g->code, g->t.v[s2].off));
	return 1;
}
