/*
 * kscan: the conditions a launch runs under, read from the launcher's
 * tokens.  A launcher that dispatches on its sizes
 *
 *	if (cols % 4 == 0 && rows >= 8)
 *		vec4_kernel<<<g, b>>>(x, rows, cols);
 *	else
 *		plain_kernel<<<g, b>>>(x, rows, cols);
 *
 * launches vec4_kernel only where cols is a multiple of 4; a check before
 * the launch (TORCH_CHECK(n % 8 == 0, ...), assert(n > 0)) says the same
 * of every launch after it in its block.  These are launches[].conditions,
 * innermost last; an else branch adds nothing (the negation of the
 * branches before it is left out).
 */
#include "kscan.h"

#define MAX_DEPTH 64

/* Macros and functions whose first argument must hold for the code after
 * them to run. */
static int
is_check(const char *s)
{
	static const char *const names[] = { "assert", "TORCH_CHECK",
	    "AT_ASSERT", "AT_ASSERTM", "TORCH_INTERNAL_ASSERT", "CHECK",
	    "static_assert", NULL };
	int i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(s, names[i]) == 0)
			return 1;
	return 0;
}

/*
 * The conditions that hold at offset off of the function whose tokens
 * are ft[0..fn): the ranges [cs[i], ce[i]) of ft, outermost first, at
 * most max; returns their number.
 */
unsigned
launch_conditions(struct tok *ft, unsigned fn, unsigned off, unsigned *cs,
    unsigned *ce, unsigned max)
{
	/* per open block: the condition it is the then-branch of (or
	 * none), and the checks met in it so far */
	unsigned bs[MAX_DEPTH], be[MAX_DEPTH], first[MAX_DEPTH];
	unsigned ca[MAX_DEPTH * 2], cb[MAX_DEPTH * 2], nck = 0;
	unsigned pa = 0, pb = 0, i, k, nout = 0;
	unsigned ua[MAX_DEPTH], ub[MAX_DEPTH], nu = 0;
	int depth = 0, pending = 0;
	static const char *const semi[] = { ";", NULL };
	static const char *const arg_end[] = { ",", ")", NULL };

	for (i = 0; i < fn && ft[i].a < off; i++) {
		const char *s = ft[i].s;
		if (strcmp(s, "{") == 0) {
			if (depth < MAX_DEPTH) {
				bs[depth] = pending ? pa : 0;
				be[depth] = pending ? pb : 0;
				first[depth] = nck;
			}
			depth++;
			pending = 0;
		} else if (strcmp(s, "}") == 0) {
			if (depth > 0 && --depth < MAX_DEPTH)
				nck = first[depth];
			pending = 0;
		} else if (strcmp(s, "if") == 0 && i + 1 < fn) {
			unsigned o = i + 1, c, e;
			/* if constexpr (...) reads the same */
			if (strcmp(ft[o].s, "constexpr") == 0)
				o++;
			if (o >= fn || strcmp(ft[o].s, "(") != 0)
				continue;
			if ((c = matching(ft, o, fn)) >= fn)
				break;
			if (c + 1 < fn && strcmp(ft[c + 1].s, "{") == 0 &&
			    c > o + 1) {
				pa = o + 1;
				pb = c;
				pending = 1;
			} else if (c > o + 1 &&
			    (e = next_top(ft, c + 1, fn, semi)) < fn &&
			    ft[e].a >= off && nu < MAX_DEPTH) {
				/* if (c) launch; the statement holds it */
				ua[nu] = o + 1;
				ub[nu++] = c;
			}
			i = c;
		} else if (is_check(s) && i + 1 < fn &&
		    strcmp(ft[i + 1].s, "(") == 0 &&
		    (i == 0 || (strcmp(ft[i - 1].s, ".") != 0 &&
		    strcmp(ft[i - 1].s, "->") != 0 &&
		    strcmp(ft[i - 1].s, "::") != 0))) {
			unsigned c = matching(ft, i + 1, fn);
			/* the end of its first argument */
			unsigned e = next_top(ft, i + 2, fn, arg_end);
			/* a check that ended before the launch */
			if (c < fn && ft[c].a < off && e > i + 2 &&
			    nck < MAX_DEPTH * 2) {
				ca[nck] = i + 2;
				cb[nck++] = e;
			}
			if (c < fn)
				i = c;
		} else if (strcmp(s, "else") != 0)
			pending = 0;
	}
	/* the open blocks' conditions and checks, outermost first */
	for (k = 0; k < (unsigned)depth && k < MAX_DEPTH; k++) {
		unsigned j, lim = k + 1 < (unsigned)depth && k + 1 <
		    MAX_DEPTH ? first[k + 1] : nck;
		if (be[k] > bs[k] && nout < max) {
			cs[nout] = bs[k];
			ce[nout++] = be[k];
		}
		for (j = first[k]; j < lim && nout < max; j++) {
			cs[nout] = ca[j];
			ce[nout++] = cb[j];
		}
	}
	for (k = 0; k < nu && nout < max; k++) {
		cs[nout] = ua[k];
		ce[nout++] = ub[k];
	}
	return nout;
}
