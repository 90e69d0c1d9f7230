/*
 * kwrap --mutants: equivalence by an initial value that nothing reads
 * (equiv.c calls this; man kwrap, "Mutants").
 *
 *	dead-init	the edit lies in the initializer of a local
 *			"T x = init;" (one declarator, an initializer
 *			without calls, assignments, ++ or --), and from the
 *			declaration to the end of its block every path
 *			assigns x ("x = ...;" as a statement of its own,
 *			whose right-hand side does not name x) before it
 *			reads x, or ends (return), or never reads it:
 *			"int valid = 0; for (...) { if (c) valid = a; else
 *			valid = b; ... valid ... }".
 *
 * The walk follows the statements of the block: a block, if/else (both
 * arms assign, or neither reads), for and while (the body may run no
 * time: it assigns for itself, and the code after the loop is read as if
 * it had not), do/while (the body runs once), return, break and continue
 * (which end the path through the body), and expression or declaration
 * statements.  Any other mention of x (x += , x++, &x, x passed to a call
 * or read in a condition before it is assigned) is a read; so is a
 * mention in switch, goto, a label, or a loop's step.  x must be named
 * nowhere outside its block and declared once, and no macro named in the
 * block may name x or paste tokens.  The proof holds for every input, not only the spec's
 * cases: kverify still runs the mutant, and one it kills contradicts it.
 */
#include "equiv.h"

enum { W_NONE, W_SET, W_READ };	/* no read yet; assigned or ended; read */

struct init {
	struct eq *g;
	size_t x;		/* the declared name's token */
	int breaks;		/* a break or continue was seen */
};

static int stmt(struct init *s, size_t i, size_t end, size_t *next);

/* Token j names x (not a member x of something else). */
static int
names_x(const struct init *s, size_t j)
{
	const struct eq *g = s->g;

	return eq_same_name(g, j, s->x) && !eq_tk(g, j - 1, ".") &&
	    !eq_tk(g, j - 1, "->") && !eq_tk(g, j - 1, "::");
}

/* Whether [a, b) mentions x. */
static int
mentions(const struct init *s, size_t a, size_t b)
{
	size_t j;

	for (j = a; j < b; j++)
		if (names_x(s, j))
			return 1;
	return 0;
}

/* The statements of [i, end) in order: W_SET when one of them assigns x
 * (or ends the path) before any reads it, W_READ when one reads it
 * first, else W_NONE. */
static int
list(struct init *s, size_t i, size_t end)
{
	size_t next;
	int r;

	while (i < end) {
		r = stmt(s, i, end, &next);
		if (r != W_NONE || next <= i)
			return r == W_NONE ? W_READ : r;
		i = next;
	}
	return W_NONE;
}

/* The parenthesized header opening at i: its close, or 0. */
static size_t
header(const struct init *s, size_t i, size_t end)
{
	size_t c;

	if (!eq_tk(s->g, i, "("))
		return 0;
	c = mt_close(s->g->code, &s->g->t, i);
	return c < end ? c : 0;
}

/* One statement at i: its result, and where the next begins. */
static int
stmt(struct init *s, size_t i, size_t end, size_t *next)
{
	const struct eq *g = s->g;
	size_t c, e, semi;
	int r1, r2;

	*next = end;
	if (eq_tk(g, i, ";")) {
		*next = i + 1;
		return W_NONE;
	}
	if (eq_tk(g, i, "{")) {
		c = mt_close(g->code, &g->t, i);
		if (c >= end)
			return W_READ;
		*next = c + 1;
		return list(s, i + 1, c);
	}
	if (eq_tk(g, i, "if")) {
		if ((c = header(s, i + 1, end)) == 0 || mentions(s, i + 1, c))
			return W_READ;
		r1 = stmt(s, c + 1, end, &e);
		r2 = W_NONE;
		if (eq_tk(g, e, "else"))
			r2 = stmt(s, e + 1, end, &e);
		*next = e;
		if (r1 == W_READ || r2 == W_READ)
			return W_READ;
		return r1 == W_SET && r2 == W_SET ? W_SET : W_NONE;
	}
	if (eq_tk(g, i, "for") || eq_tk(g, i, "while")) {
		if ((c = header(s, i + 1, end)) == 0)
			return W_READ;
		if (eq_tk(g, i, "for")) {
			/* init; cond; step: the init may assign x, the
			 * condition and the step may not name it */
			size_t s1 = eq_semi(s->g, i + 2, c), s2;
			if (s1 >= c)
				return W_READ;	/* a range for */
			s2 = eq_semi(s->g, s1 + 1, c);
			if (s2 >= c || mentions(s, s1 + 1, c))
				return W_READ;
			r1 = s1 > i + 2 ? stmt(s, i + 2, s1 + 1, &e) : W_NONE;
			if (r1 != W_NONE) {
				*next = c + 1;
				/* assigned before anything reads it */
				if (r1 == W_READ)
					return W_READ;
				(void)stmt(s, c + 1, end, next);
				return W_SET;
			}
		} else if (mentions(s, i + 1, c))
			return W_READ;
		/* the body may run no time: what it assigns is its own */
		r1 = stmt(s, c + 1, end, next);
		return r1 == W_READ ? W_READ : W_NONE;
	}
	if (eq_tk(g, i, "do")) {
		int before = s->breaks;
		s->breaks = 0;
		r1 = stmt(s, i + 1, end, &e);
		r2 = s->breaks;
		s->breaks = before;
		if (r1 == W_READ || !eq_tk(g, e, "while") ||
		    (c = header(s, e + 1, end)) == 0 || !eq_tk(g, c + 1, ";"))
			return W_READ;
		*next = c + 2;
		/* once at least, unless a break leaves it first */
		if (r1 == W_SET && !r2)
			return W_SET;
		return mentions(s, e + 1, c) ? W_READ : W_NONE;
	}
	if (eq_tk(g, i, "return")) {
		semi = eq_semi(s->g, i, end);
		*next = semi + 1;
		return mentions(s, i, semi) ? W_READ : W_SET;
	}
	if (eq_tk(g, i, "break") || eq_tk(g, i, "continue")) {
		s->breaks = 1;
		*next = i + 2;
		return W_SET;	/* the path through this body ends */
	}
	if (eq_tk(g, i, "switch") || eq_tk(g, i, "case") ||
	    eq_tk(g, i, "default") || eq_tk(g, i, "goto") ||
	    eq_tk(g, i, "else") || eq_tk(g, i, "asm") ||
	    eq_tk(g, i, "__asm__") || (g->t.v[i].kind == M_ID &&
	    eq_tk(g, i + 1, ":") && !eq_tk(g, i + 2, ":")))
		return W_READ;
	/* an expression or a declaration */
	semi = eq_semi(s->g, i, end);
	if (semi >= end)
		return W_READ;
	*next = semi + 1;
	if (!mentions(s, i, semi))
		return W_NONE;
	if (names_x(s, i) && eq_tk(g, i + 1, "=") && !mentions(s, i + 1,
	    semi))
		return W_SET;
	return W_READ;
}

/* Whether [a, b) (an initializer) has no call, assignment, ++ or --. */
static int
pure(const struct eq *g, size_t a, size_t b)
{
	static const char *const bad[] = { "=", "+=", "-=", "*=", "/=", "%=",
	    "&=", "|=", "^=", "<<=", ">>=", "++", "--", NULL };
	size_t j;
	int k;

	for (j = a; j < b; j++) {
		for (k = 0; bad[k] != NULL; k++)
			if (eq_tk(g, j, bad[k]))
				return 0;
		/* a call: a name before "(" that no cast or keyword is */
		if (eq_tk(g, j, "(") && j > a && g->t.v[j - 1].kind == M_ID &&
		    !eq_tk(g, j - 1, "sizeof"))
			return 0;
	}
	return 1;
}

/* Whether a macro of the code (a "#define" line) that is named in
 * [a, b) may touch x: its replacement names x or pastes tokens (##). */
static int
macro_touches(const struct init *s, size_t a, size_t b)
{
	const struct eq *g = s->g;
	const char *c = g->code, *p, *q, *name, *e, *r;
	const char *x = c + g->t.v[s->x].off;
	size_t xl = g->t.v[s->x].len, nl, j;

	for (p = c; (q = eq_define(c, p, &name, &nl, &e)) != NULL; p = e) {
		/* named in the range? */
		for (j = a; j < b; j++)
			if (g->t.v[j].kind == M_ID && g->t.v[j].len == nl &&
			    strncmp(c + g->t.v[j].off, name, nl) == 0)
				break;
		if (j == b)
			continue;
		for (r = q; r < e; r++) {
			if (r[0] == '#' && r[1] == '#')
				return 1;
			if ((size_t)(e - r) >= xl && strncmp(r, x, xl) == 0 &&
			    !isalnum((unsigned char)r[xl]) && r[xl] != '_' &&
			    (r == q || (!isalnum((unsigned char)r[-1]) &&
			    r[-1] != '_')))
				return 1;
		}
	}
	return 0;
}

int
eq_dead_init(struct eq *g, size_t off, size_t len, struct k_buf *why)
{
	struct init s = { 0 };
	size_t k, e, semi, open, close, j;
	int depth, r;

	for (k = g->a; k < g->b && g->t.v[k].off != off; k++)
		;
	if (k >= g->b)
		return 0;
	/* the "=" of the declaration: back from the edit, at depth 0 */
	for (e = k, depth = 0; e > g->a; e--) {
		if (eq_tk(g, e, ")") || eq_tk(g, e, "]"))
			depth++;
		else if (eq_tk(g, e, "(") || eq_tk(g, e, "["))
			depth--;
		else if (depth == 0 && (eq_tk(g, e, ";") || eq_tk(g, e, "{") ||
		    eq_tk(g, e, "}") || eq_tk(g, e, ",")))
			return 0;
		else if (depth == 0 && eq_tk(g, e, "="))
			break;
	}
	/* "T x = ...", T a name, the statement's start before it */
	if (e <= g->a + 1 || depth != 0 || g->t.v[e - 1].kind != M_ID ||
	    g->t.v[e - 2].kind != M_ID || eq_tk(g, e - 2, "return"))
		return 0;
	for (j = e - 2; j > g->a && (g->t.v[j - 1].kind == M_ID ||
	    eq_tk(g, j - 1, "::")); j--)
		;
	if (!eq_tk(g, j - 1, ";") && !eq_tk(g, j - 1, "{") &&
	    !eq_tk(g, j - 1, "}"))
		return 0;
	for (; j < e - 1; j++)
		if (eq_tk(g, j, "static") || eq_tk(g, j, "__shared__") ||
		    eq_tk(g, j, "extern") || eq_tk(g, j, "const") ||
		    eq_tk(g, j, "constexpr"))
			return 0;
	s.g = g;
	s.x = e - 1;
	semi = eq_semi(g, e + 1, g->b);
	if (semi >= g->b || k >= semi || off + len > g->t.v[semi].off ||
	    !pure(g, e + 1, semi))
		return 0;
	for (j = e + 1; j < semi; j++)
		if (eq_tk(g, j, ","))
			return 0;	/* another declarator */
	/* the block the declaration lies in */
	for (open = e, depth = 0; open > g->a; open--) {
		if (eq_tk(g, open, "}"))
			depth++;
		else if (eq_tk(g, open, "{") && depth-- == 0)
			break;
	}
	close = open > g->a ? mt_close(g->code, &g->t, open) : g->b;
	if (close > g->b)
		return 0;
	/* named nowhere else, declared once, no macro in reach */
	if (macro_touches(&s, semi, close))
		return 0;
	for (j = g->a; j < g->b; j++) {
		if (j == s.x || !names_x(&s, j))
			continue;
		if (j < semi || j >= close || (g->t.v[j - 1].kind == M_ID &&
		    !eq_tk(g, j - 1, "return") && !eq_tk(g, j - 1, "else") &&
		    !eq_tk(g, j - 1, "do") && !eq_tk(g, j - 1, "case")))
			return 0;
	}
	r = list(&s, semi + 1, close);
	if (r == W_READ)
		return 0;
	k_buf_printf(why, "the initial value of %.*s is never read: no path "
	    "from its declaration reads %.*s before assigning it",
	    (int)g->t.v[s.x].len, g->code + g->t.v[s.x].off,
	    (int)g->t.v[s.x].len, g->code + g->t.v[s.x].off);
	return 1;
}
