/*
 * kwrap --mutants: equivalence by the choice of a block's writer thread
 * (equiv.c calls this; man kwrap, "Mutants").
 *
 *	any-thread	the edit lies in the condition of an "if" that only
 *			the thread's index decides ("if (threadIdx.x == 0)"
 *			after a reduction in shared memory), whose body does
 *			the same thing in whichever thread runs it, and in
 *			every case of the spec the reference's condition and
 *			the mutant's each hold for at least one thread of the
 *			block: "threadIdx.x == 1" and "threadIdx.x != 0"
 *			store the same value to the same place.
 *
 * What "the same thing in whichever thread" asks of the body (a block
 * or one statement, with no else):
 *
 *  - it names no threadIdx, and no local of the kernel declared outside
 *    it: only its own locals, the kernel's parameters, blockIdx,
 *    blockDim, gridDim, the slice's constants, and __shared__ arrays
 *    the kernel declares;
 *  - it calls no atomic, shuffle, vote, clock, barrier or asm (nor a
 *    function of the slice whose body does, or names threadIdx), no
 *    method; it has no return, break, continue or goto;
 *  - it changes only its own locals with ++, -- or a compound
 *    assignment; what it stores to memory with "=" it does not read
 *    (threads that run it together cannot see each other's stores), and
 *    a buffer parameter it stores to is named nowhere else in the
 *    kernel; a __shared__ array it stores to is followed at once by
 *    __syncthreads() (or the kernel's end): the threads that read it
 *    after the barrier read the one value, whoever stored it.
 *
 * Where the body reads a __shared__ array or a buffer that the kernel
 * also writes, the statement just before the "if" is __syncthreads()
 * (or a call of a function of the slice whose body ends with one): any
 * thread then reads what thread 0 would.  The "if" stands in the
 * kernel's outermost block, after no return: every thread of the block
 * reaches it.  The conditions are evaluated for every thread of the
 * block (at most 1024), under each case's launch; one that reads
 * anything but the thread's index, scalars and constants proves
 * nothing.  It holds under the spec's launch, not for every launch.
 */
#include "equiv.h"

#define MAX_NAMES 64

static int
is_id(const struct eq *g, size_t i)
{
	return i < g->t.n && g->t.v[i].kind == M_ID;
}

/* Token i's text into buf (empty when it does not fit). */
static const char *
text(const struct eq *g, size_t i, char *buf, size_t n)
{
	if (i >= g->t.n || g->t.v[i].len >= n)
		buf[0] = '\0';
	else {
		memcpy(buf, g->code + g->t.v[i].off, g->t.v[i].len);
		buf[g->t.v[i].len] = '\0';
	}
	return buf;
}

/* Whether a name does what differs between threads, or orders them. */
static int
hazard_name(const char *w)
{
	static const char *const bad[] = { "atomic", "Atomic", "shfl",
		"ballot", "sync", "Sync", "clock", "activemask", "laneid",
		"asm", "rand", "printf", "threadfence", NULL };
	int i;

	if (strcmp(w, "threadIdx") == 0)
		return 1;
	for (i = 0; bad[i] != NULL; i++)
		if (strstr(w, bad[i]) != NULL)
			return 1;
	return 0;
}

/* Whether [a, b) names a hazard (a name of hazard_name). */
static int
hazard_in(const struct eq *g, size_t a, size_t b)
{
	char w[128];
	size_t i;

	for (i = a; i < b && i < g->t.n; i++)
		if (is_id(g, i) && hazard_name(text(g, i, w, sizeof(w))))
			return 1;
	return 0;
}

/* Whether a spec parameter is named w (or w is a struct parameter whose
 * fields the spec names "w.f"); its role into *role. */
static int
param_named(const struct eq *g, const char *w, const char **role)
{
	json_t *q;
	size_t i, n = strlen(w);

	json_array_foreach(json_object_get(g->spec, "params"), i, q) {
		const char *name = k_get_str(q, "name");
		if (name == NULL)
			continue;
		if (strcmp(name, w) == 0 || (strncmp(name, w, n) == 0 &&
		    name[n] == '.')) {
			*role = k_get_str(q, "role");
			return 1;
		}
	}
	return 0;
}

/* Whether token x names an array the kernel declares __shared__. */
static int
shared_array(const struct eq *g, size_t x)
{
	size_t i, j;

	for (i = g->a; i < g->b; i++) {
		if (!eq_tk(g, i, "__shared__"))
			continue;
		for (j = i + 1; j < g->b && !eq_tk(g, j, ";"); j++)
			if (eq_same_name(g, j, x) && (eq_tk(g, j + 1, "[") ||
			    eq_tk(g, j + 1, ";")))
				return 1;
	}
	return 0;
}

/* Whether token i, inside [a, b), declares a local: "T x =", "T x;",
 * "T x[", "T *x =", "T x," with T a name or a closing ">". */
static int
declares(const struct eq *g, size_t i, size_t a)
{
	size_t p = i;

	if (!is_id(g, i) || !(eq_tk(g, i + 1, "=") || eq_tk(g, i + 1, ";") ||
	    eq_tk(g, i + 1, "[") || eq_tk(g, i + 1, ",")))
		return 0;
	while (p > a && (eq_tk(g, p - 1, "*") || eq_tk(g, p - 1, "&")))
		p--;
	return p > a && (is_id(g, p - 1) || eq_tk(g, p - 1, ">")) &&
	    !eq_tk(g, p - 1, "return");
}

/* Whether token i is a name of the body's own locals [a, b). */
static int
body_local(const struct eq *g, size_t i, size_t a, size_t b)
{
	size_t j;

	for (j = a; j < b; j++)
		if (eq_same_name(g, i, j) && declares(g, j, a))
			return 1;
	return 0;
}

/* The bodies of the slice's definitions of the function at token f,
 * [s, e] pairs (from the brace) into sp; how many, 0 for none or one
 * that does not fit. */
static int
bodies(const struct eq *g, size_t f, size_t sp[][2], int max)
{
	size_t s;
	int n, d;

	if ((n = eq_definitions(g, f, sp, max)) <= 0)
		return 0;
	for (d = 0; d < n; d++) {
		for (s = sp[d][0]; s < sp[d][1] && !eq_tk(g, s, "{"); s++)
			if (eq_tk(g, s, "(") || eq_tk(g, s, "["))
				s = mt_close(g->code, &g->t, s);
		if (s >= sp[d][1])
			return 0;
		sp[d][0] = s;
	}
	return n;
}

/* A call of the function at token f may run in any thread alike: the
 * slice does not define it (a math function, a conversion) or every
 * definition is free of hazards. */
static int
helper_ok(const struct eq *g, size_t f)
{
	size_t sp[8][2];
	int n, d;

	if (eq_definitions(g, f, sp, 8) == 0)
		return 1;
	if ((n = bodies(g, f, sp, 8)) == 0)
		return 0;
	for (d = 0; d < n; d++)
		if (hazard_in(g, sp[d][0], sp[d][1]))
			return 0;
	return 1;
}

/* Every definition of the function at token f ends with a barrier. */
static int
ends_with_barrier(const struct eq *g, size_t f)
{
	size_t sp[8][2];
	int n, d;

	if ((n = bodies(g, f, sp, 8)) == 0)
		return 0;
	for (d = 0; d < n; d++)
		if (sp[d][1] < sp[d][0] + 5 || !eq_tk(g, sp[d][1] - 4,
		    "__syncthreads") || !eq_tk(g, sp[d][1] - 1, ";"))
			return 0;
	return 1;
}

/* The statement that ends at token e (its ";") is a barrier: a
 * "__syncthreads();" or a call of a slice function that ends with one. */
static int
barrier_ends(const struct eq *g, size_t e)
{
	size_t j;
	int d = 0;

	if (e < g->a + 3 || !eq_tk(g, e, ";") || !eq_tk(g, e - 1, ")"))
		return 0;
	for (j = e - 1; j > g->a; j--) {
		if (eq_tk(g, j, ")"))
			d++;
		else if (eq_tk(g, j, "(") && --d == 0)
			break;
	}
	if (j <= g->a || !is_id(g, j - 1) || !eq_list_start(g, j - 1))
		return 0;
	return eq_tk(g, j - 1, "__syncthreads") || ends_with_barrier(g,
	    j - 1);
}

/* The body [bs, be) runs alike in any thread (see the top); *reads:
 * it reads a __shared__ array or a buffer the kernel writes. */
static int
body_alike(const struct eq *g, size_t ifs, size_t bs, size_t be, size_t
    after, int *reads)
{
	size_t i, j, wr[MAX_NAMES];
	int nw = 0, k, shared_wr = 0;
	char w[128];
	const char *role;

	*reads = 0;
	/* the stores to memory, "x[...] = v" (x not the body's own), and
	 * the changes, on the body's own locals only */
	for (i = bs; i < be; i++) {
		if (eq_tk(g, i, "++") || eq_tk(g, i, "--") ||
		    (eq_is_assign(g->code, &g->t.v[i]) && !eq_tk(g, i, "="))) {
			size_t x = (eq_tk(g, i, "++") || eq_tk(g, i, "--")) &&
			    is_id(g, i + 1) ? i + 1 : i - 1;
			if (!is_id(g, x) || !body_local(g, x, bs, be))
				return 0;
		} else if (eq_tk(g, i, "=") && eq_tk(g, i - 1, "]")) {
			int d = 0;
			for (j = i - 1; j > bs; j--) {
				if (eq_tk(g, j, "]"))
					d++;
				else if (eq_tk(g, j, "[") && --d == 0)
					break;
			}
			if (j <= bs || !is_id(g, j - 1) || body_local(g, j - 1,
			    bs, be) || nw == MAX_NAMES)
				return 0;
			wr[nw++] = j - 1;
		} else if (eq_tk(g, i, "=") && is_id(g, i - 1) &&
		    !body_local(g, i - 1, bs, be))
			return 0;	/* a local of the kernel, or a member */
	}
	for (i = bs; i < be; i++) {
		for (k = 0; k < nw && wr[k] != i; k++)
			;
		if (k < nw)
			continue;	/* a store's target */
		if (!is_id(g, i) || eq_tk(g, i - 1, ".") || eq_tk(g, i - 1,
		    "->") || eq_tk(g, i - 1, "::"))
			continue;
		text(g, i, w, sizeof(w));
		if (eq_tk(g, i, "return") || eq_tk(g, i, "break") ||
		    eq_tk(g, i, "continue") || eq_tk(g, i, "goto") ||
		    eq_tk(g, i, "else") || hazard_name(w))
			return 0;
		if (eq_tk(g, i + 1, "(")) {
			/* a call: a cast, a math function, a clean helper */
			if (!helper_ok(g, i))
				return 0;
			continue;
		}
		if (strcmp(w, "blockIdx") == 0 || strcmp(w, "blockDim") == 0 ||
		    strcmp(w, "gridDim") == 0 || body_local(g, i, bs, be))
			continue;
		/* a type: a declaration's, a cast's, a template argument */
		if (is_id(g, i + 1) || eq_tk(g, i + 1, ">") || (eq_tk(g, i - 1,
		    "(") && eq_tk(g, i + 1, ")")) || (eq_tk(g, i + 1, "*") &&
		    (eq_tk(g, i + 2, ">") || eq_tk(g, i + 2, ")"))))
			continue;
		{
			long long x;
			if (const_get(&g->c, w, &x))
				continue;
		}
		if (shared_array(g, i)) {
			*reads = 1;	/* not a store's target: a read */
			continue;
		}
		if (param_named(g, w, &role)) {
			if (role != NULL && strcmp(role, "in") != 0 &&
			    strcmp(role, "scalar") != 0)
				*reads = 1;
			continue;
		}
		return 0;	/* a local of the kernel, or unknown */
	}
	/* memory stored to: not read in the body, and seen by no one but
	 * after a barrier */
	for (k = 0; k < nw; k++) {
		int stores = 0, seen = 0;
		for (i = bs; i < be; i++)
			if (eq_same_name(g, i, wr[k]) && !eq_tk(g, i - 1, ".") &&
			    !eq_tk(g, i - 1, "->")) {
				seen++;
				for (j = 0; j < (size_t)nw; j++)
					stores += wr[j] == i;
			}
		if (seen != stores)
			return 0;
		if (shared_array(g, wr[k])) {
			shared_wr = 1;
			continue;
		}
		text(g, wr[k], w, sizeof(w));
		if (!param_named(g, w, &role))
			return 0;
		for (i = g->a; i < g->b; i++)
			if ((i < ifs || i >= be) && eq_same_name(g, i, wr[k]))
				return 0;
	}
	if (shared_wr && after < g->b && !(eq_tk(g, after,
	    "__syncthreads") && eq_tk(g, after + 1, "(") && eq_tk(g, after + 2,
	    ")") && eq_tk(g, after + 3, ";")))
		return 0;
	return 1;
}

int
eq_any_thread(struct eq *g, size_t off, size_t len, const char *rep,
    struct k_buf *why)
{
	json_t *cases = json_object_get(g->spec, "cases"), *cs;
	size_t i, ifs = 0, c0 = 0, c1 = 0, bs, be, ci;
	int depth = 0, found = 0, ok, reads;
	long long ref0 = 0, mut0 = 0, all0 = 0;
	char *os, *ms;

	/* the if, in the outermost block, whose condition holds the edit */
	for (i = g->a; i < g->b && !found; i++) {
		if (eq_tk(g, i, "{"))
			depth++;
		else if (eq_tk(g, i, "}"))
			depth--;
		else if (eq_tk(g, i, "(") || eq_tk(g, i, "["))
			i = mt_close(g->code, &g->t, i);
		else if (eq_tk(g, i, "return"))
			return 0;
		else if (depth == 0 && eq_tk(g, i, "if") && eq_tk(g, i + 1,
		    "(") && eq_list_start(g, i)) {
			size_t c = mt_close(g->code, &g->t, i + 1);
			if (c >= g->b)
				return 0;
			if (g->t.v[i + 1].off < off && off + len <=
			    g->t.v[c].off) {
				ifs = i;
				c0 = i + 1;
				c1 = c;
				found = 1;
			} else if (g->t.v[i].off <= off && off < g->t.v[c].off)
				return 0;
		}
	}
	if (!found || c1 + 1 >= g->b)
		return 0;
	if (eq_tk(g, c1 + 1, "{")) {
		bs = c1 + 2;
		be = mt_close(g->code, &g->t, c1 + 1);
		if (be >= g->b)
			return 0;
		i = be + 1;
	} else {
		bs = c1 + 1;
		be = eq_semi(g, bs, g->b);
		if (be >= g->b || eq_tk(g, bs, "if") || eq_tk(g, bs, "for") ||
		    eq_tk(g, bs, "while") || eq_tk(g, bs, "do") ||
		    eq_tk(g, bs, "switch"))
			return 0;
		i = be + 1;
		be++;		/* the ";" is the statement's */
	}
	if (eq_tk(g, i, "else"))
		return 0;
	if (!body_alike(g, ifs, bs, be, i, &reads))
		return 0;
	if (reads && !barrier_ends(g, ifs - 1))
		return 0;
	os = k_asprintf("%.*s", (int)(g->t.v[c1].off - g->t.v[c0].off - 1),
	    g->code + g->t.v[c0].off + 1);
	ms = k_asprintf("%.*s%s%.*s", (int)(off - g->t.v[c0].off - 1),
	    g->code + g->t.v[c0].off + 1, rep, (int)(g->t.v[c1].off - off -
	    len), g->code + off + len);
	ok = json_array_size(cases) > 0;
	json_array_foreach(cases, ci, cs) {
		long long x, y, z, nr = 0, nm = 0;
		eq_case_start(g, cs);
		if (!g->have_launch || g->block[0] * g->block[1] *
		    g->block[2] > 1024) {
			ok = 0;
			break;
		}
		g->tid_fixed = 1;
		for (z = 0; z < g->block[2] && ok; z++)
			for (y = 0; y < g->block[1] && ok; y++)
				for (x = 0; x < g->block[0] && ok; x++) {
					struct val a, b;
					int ta, tb;
					g->tid[0] = x;
					g->tid[1] = y;
					g->tid[2] = z;
					if (!eq_parse_text(g, os, g->t.v[c0].off,
					    g->t.v[c1].off, -1, NULL, 0, &a,
					    NULL) || !eq_parse_text(g, ms,
					    g->t.v[c0].off, g->t.v[c1].off, -1,
					    NULL, 0, &b, NULL) ||
					    (ta = eq_truth(a)) < 0 ||
					    (tb = eq_truth(b)) < 0)
						ok = 0;
					else {
						nr += ta;
						nm += tb;
					}
				}
		g->tid_fixed = 0;
		if (!ok || nr == 0 || nm == 0) {
			ok = 0;
			break;
		}
		if (ci == 0) {
			ref0 = nr;
			mut0 = nm;
			all0 = g->block[0] * g->block[1] * g->block[2];
		}
	}
	if (ok) {
		char *a = eq_squeeze(os), *b = eq_squeeze(ms);
		k_buf_printf(why, "the body of if (%s) does the same in "
		    "whichever thread runs it, and some thread of each block "
		    "runs it in every case, in the reference and with %s (%lld "
		    "and %lld of %lld threads in case 0)", a, b, ref0, mut0,
		    all0);
		free(a);
		free(b);
	}
	free(os);
	free(ms);
	return ok;
}
