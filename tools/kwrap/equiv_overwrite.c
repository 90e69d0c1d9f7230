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
 * the same test (four levels down).  The same through a local pointer
 * to one element of an output, "T *p = out + i; *p = v; ... *p = w;",
 * where p is defined once and named only in such stores, and out
 * nowhere else in the body (ptr_overwritten).  Another thread could
 * read x[i] between only after a barrier, and there is none; so the
 * first store's value, and v's evaluation (no effects, no call but those
 * above), can reach nothing.  The proof holds for every input, not only the spec's cases.
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

static int
arr_overwritten(struct eq *g, size_t off, size_t len, struct k_buf *why)
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
	if (j >= g->b || !eq_list_start(g, j))
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

/* Whether a spec parameter named like token i is a buffer the kernel
 * writes (out, or inout: an output the kernel may leave partly alone). */
static int
written_buffer(const struct eq *g, size_t i)
{
	json_t *q;
	size_t k;

	json_array_foreach(json_object_get(g->spec, "params"), k, q) {
		const char *n = k_get_str(q, "name"), *r = k_get_str(q, "role");
		if (n != NULL && r != NULL && (strcmp(r, "out") == 0 ||
		    strcmp(r, "inout") == 0) &&
		    strlen(n) == g->t.v[i].len && memcmp(n, g->code +
		    g->t.v[i].off, g->t.v[i].len) == 0)
			return 1;
	}
	return 0;
}

/*
 * The same through a local pointer into an output buffer: "T *p = out +
 * i;" defined once, p named only there and in "*p = v;" statements, out
 * named nowhere else in the body.  The kernel reads no element of out
 * (no name it has reads), and p reaches one element alone, so between
 * "*p = v;" and a later "*p = w;" of the same block nothing can read the
 * first value unless it names p (or synchronizes, or jumps: the same
 * tests as above).
 */
static int
ptr_overwritten(struct eq *g, size_t off, size_t len, struct k_buf *why)
{
	size_t j, p, semi = 0, i, e, s2 = 0, def = 0, dsemi = 0, buf = 0;
	int defs = 0, bufs = 0;

	for (j = g->a; j + 2 < g->b; j++) {
		if (!eq_tk(g, j, "*") || !is_name(g, j + 1) || !eq_tk(g, j + 2,
		    "=") || !eq_list_start(g, j))
			continue;
		semi = eq_semi(g, j + 2, g->b);
		if (semi >= g->b || off < g->t.v[j].off || off + len >
		    g->t.v[semi].off + 1)
			continue;
		if (off == g->t.v[j].off || off > g->t.v[j + 2].off)
			break;
		return 0;
	}
	if (j + 2 >= g->b)
		return 0;
	p = j + 1;
	/* p: one definition "T *p = ...;", else only "*p = ...;" starts */
	for (i = g->a; i < g->b; i++) {
		if (!eq_same_name(g, i, p) || eq_tk(g, i - 1, ".") ||
		    eq_tk(g, i - 1, "->") || eq_tk(g, i - 1, "::"))
			continue;
		if (eq_tk(g, i - 1, "*") && eq_tk(g, i + 1, "=") &&
		    eq_list_start(g, i - 1))
			continue;	/* a store through p */
		if (eq_tk(g, i - 1, "*") && eq_tk(g, i + 1, "=") && i >= g->a + 2 &&
		    is_name(g, i - 2)) {
			def = i;
			defs++;
			continue;
		}
		return 0;
	}
	if (defs != 1 || (dsemi = eq_semi(g, def + 1, g->b)) >= g->b ||
	    effects(g, def + 2, dsemi) || may_sync(g, def + 2, dsemi, 0))
		return 0;
	/* into one pure output that nothing else in the body names */
	for (i = def + 2; i < dsemi; i++)
		if (is_name(g, i) && !eq_tk(g, i - 1, ".") && !eq_tk(g, i - 1,
		    "->") && written_buffer(g, i)) {
			buf = i;
			bufs++;
		}
	if (bufs != 1)
		return 0;
	for (i = g->a; i < g->b; i++)
		if ((i < def + 2 || i >= dsemi) && eq_same_name(g, i, buf))
			return 0;
	/* the statements after the first store, to the second */
	for (i = semi + 1; i < g->b && !eq_tk(g, i, "}"); i = e + 1) {
		e = kw_stmt_end(g->code, &g->t, i, g->b);
		if (e >= g->b)
			return 0;
		if (eq_tk(g, i, "*") && eq_same_name(g, i + 1, p) &&
		    eq_tk(g, i + 2, "=")) {
			size_t s3 = eq_semi(g, i + 2, g->b);
			if (s3 < g->b && !touches(g, i + 3, s3, p, 0, 0) &&
			    !effects(g, i + 3, s3)) {
				s2 = i;
				break;
			}
		}
		if (touches(g, i, e + 1, p, 0, 0) || may_sync(g, i, e + 1, 0) ||
		    jumps(g, i, e + 1))
			return 0;
	}
	if (s2 == 0)
		return 0;
	k_buf_printf(why, "*%.*s (one element of the output %.*s) is "
	    "stored again at line %d before anything can read it (no barrier, "
	    "jump or mention between), and nothing else in the kernel names "
	    "%.*s", (int)g->t.v[p].len, g->code + g->t.v[p].off,
	    (int)g->t.v[buf].len, g->code + g->t.v[buf].off, line_of(g->code,
	    g->t.v[s2].off), (int)g->t.v[buf].len, g->code + g->t.v[buf].off);
	return 1;
}

int
eq_overwritten(struct eq *g, size_t off, size_t len, struct k_buf *why)
{
	return arr_overwritten(g, off, len, why) || ptr_overwritten(g, off,
	    len, why);
}
