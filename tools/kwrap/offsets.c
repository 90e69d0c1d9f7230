/*
 * kwrap: buffers of offsets.  An integer buffer whose elements bound
 * segments (first[b] .. first[b + 1], a row pointer) or that a bisection
 * searches must not decrease: a fill at random makes negative lengths,
 * loops that never end and rows that start before the buffer.  Such a
 * buffer gets the "offsets" fill (spec.c).
 */
#include "kwrap.h"


/* The local that the statement holding token i assigns ("int s = x[b];",
 * "e = c ? x[b + 1] : n;", "for (int j = x[b]; ..."), or NULL. */
static const char *
assigned_at(const struct toks *t, size_t lo, size_t i)
{
	size_t j = i;

	while (j > lo && !is(t, j - 1, ";") && !is(t, j - 1, "{") &&
	    !is(t, j - 1, "}"))
		j--;
	for (; j < i; j++)
		if (is(t, j + 1, "=") && is_ident(t->v[j]))
			return t->v[j];
	return NULL;
}

/* Whether the kernel takes the segment between locals s and e: "e - s",
 * or a loop "for (... = s; ... < e; ...)". */
static int
segment_use(const struct toks *t, size_t lo, const char *s, const char *e)
{
	size_t i, j, c;

	for (i = lo; i + 2 < t->n; i++) {
		if (is(t, i, e) && is(t, i + 1, "-") && is(t, i + 2, s))
			return 1;
		if (!is(t, i, "for") || !is(t, i + 1, "("))
			continue;
		c = skip_group(t, i + 1);
		for (j = i + 2; j + 1 < c; j++)
			if (is(t, j, "=") && is(t, j + 1, s))
				break;
		if (j + 1 >= c)
			continue;
		for (; j + 1 < c; j++)
			if ((is(t, j, "<") || is(t, j, "<=")) &&
			    is(t, j + 1, e))
				return 1;
	}
	return 0;
}

static int
in_names(char (*set)[64], int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(set[i], s) == 0)
			return 1;
	return 0;
}

/*
 * The locals that take their value from the statement holding token i
 * ("int t = s + first[b];") and, a few steps on, from those ("int u = t +
 * 4;"), into set (room for TAINTED); how many.
 */
int
locals_from(const struct toks *t, size_t lo, size_t i, char (*set)[64])
{
	const char *a;
	int n = 0, pass, grew = 1;
	size_t j;

	if ((a = assigned_at(t, lo, i)) == NULL)
		return 0;
	copy(set[n++], 64, a);
	for (pass = 0; pass < 4 && grew; pass++) {
		grew = 0;
		for (j = lo; j + 1 < t->n && n < TAINTED; j++) {
			if (!in_names(set, n, t->v[j]) || is(t, j + 1, "="))
				continue;
			if ((a = assigned_at(t, lo, j)) != NULL &&
			    !in_names(set, n, a)) {
				copy(set[n++], 64, a);
				grew = 1;
			}
		}
	}
	return n;
}

/* A name of set that stands alone at i (not a call or an array). */
static int
named_alone(const struct toks *t, size_t i, char (*set)[64], int n)
{
	return i < t->n && in_names(set, n, t->v[i]) && !is(t, i + 1, "[") &&
	    !is(t, i + 1, "(") && !is(t, i - 1, ".") && !is(t, i - 1, "->");
}

/*
 * Whether the read at token j (name[e + 1], or __ldg(&name[e + 1])) is
 * compared with a local of set, or is assigned to a local that is: "if
 * (t >= first[b + 1]) return;" after "t = s + first[b]", "for (j =
 * row[r]; j < row[r + 1]; j++)".
 */
static int
compared_with(const struct toks *t, size_t lo, size_t j, char (*set)[64],
    int n)
{
	size_t s = j, e = skip_group(t, j + 1), i;
	const char *end;

	if (j >= 3 && is(t, j - 1, "&") && is(t, j - 2, "(") &&
	    is_ident(t->v[j - 3]) && is(t, e, ")")) {
		s = j - 3;
		e++;
	}
	if (s >= 2 && relational(t, s - 1) && named_alone(t, s - 2, set, n))
		return 1;
	if (relational(t, e) && named_alone(t, e + 1, set, n))
		return 1;
	/* "int end = first[b + 1];" then "t < end" */
	if ((end = assigned_at(t, lo, j)) == NULL || in_names(set, n, end))
		return 0;
	for (i = lo + 1; i + 1 < t->n; i++)
		if (relational(t, i) && ((is(t, i + 1, end) &&
		    named_alone(t, i - 1, set, n)) || (is(t, i - 1, end) &&
		    named_alone(t, i + 1, set, n))))
			return 1;
	return 0;
}

/*
 * Whether the text [a, b) reads pointer name at a midpoint: a local set
 * to "(lo + hi) >> 1", "(lo + hi) / 2" or "lo + (hi - lo) / 2", then
 * name[m] or name + m.  A bisection assumes its table never decreases.
 */
static int
bisected(const struct toks *t, size_t a, size_t b, const char *name)
{
	static const char *const stop[] = { ";", ",", NULL };
	size_t i, j, e;
	int plus;

	for (i = a; i + 2 < b; i++) {
		if (!is_ident(t->v[i]) || !is(t, i + 1, "="))
			continue;
		e = expr_end(t, i + 2, stop);
		if (e > b || e < i + 6 || !((is(t, e - 2, ">>") &&
		    is(t, e - 1, "1")) || (is(t, e - 2, "/") &&
		    is(t, e - 1, "2"))))
			continue;
		for (j = i + 2, plus = 0; j + 2 < e; j++)
			plus |= is(t, j, "+");
		if (!plus)
			continue;
		for (j = a + 1; j + 3 < b; j++)
			if (is(t, j, name) && !is(t, j - 1, ".") &&
			    !is(t, j - 1, "->") && is(t, j + 2, t->v[i]) &&
			    ((is(t, j + 1, "[") && is(t, j + 3, "]")) ||
			    (is(t, j + 1, "+") && !is(t, j + 3, "*") &&
			    !is(t, j + 3, "/"))))
				return 1;
	}
	return 0;
}

/* Whether the kernel bisects buffer name, itself or in a helper it
 * passes the buffer to. */
static int
bisected_by(struct kern *k, const char *name)
{
	const struct toks *t = &k->t;
	const char *fn;
	struct fn *h;
	size_t i, from;
	int ca, n, found = 0;

	if (bisected(t, k->body, t->n, name))
		return 1;
	for (i = k->body + 1; i + 1 < t->n && !found; i++) {
		if (!is(t, i, name) || is(t, i - 1, ".") ||
		    (ca = call_arg(t, k->body, i, &fn, &n)) < 0)
			continue;
		from = 1;
		while (!found && (h = next_helper(k, fn, n, &from, 1)) != NULL) {
			found = ca < h->np && h->pptr[ca] &&
			    bisected(h->t, h->a, h->b, h->pn[ca]);
			fn_free(h);
		}
	}
	return found;
}

/*
 * Whether buffer name holds offsets that must not decrease.  The kernel
 * reads it at some [e] and at [e + 1] and takes the segment between the
 * two: their difference, a loop from one to the other (start = first[b];
 * end = first[b + 1]; f < end - start), or a comparison of the second
 * with a value taken from the first (t = s + first[b]; t >= first[b +
 * 1]).  Or it bisects the buffer.  Pairs read the same way but used apart
 * (a height at [2 * l] and a width at [2 * l + 1]) are no offsets.
 */
int
segment_offsets(struct kern *k, const char *name)
{
	const struct toks *t = &k->t;
	size_t i, j, a, b, n, *at = NULL;
	int na = 0, ca = 0, ii, jj, nt, found = 0;
	const char *s, *e;
	char set[TAINTED][64];

	/* where the kernel reads name[...] */
	for (i = k->body; i + 1 < t->n; i++)
		if (is(t, i, name) && is(t, i + 1, "[") && !is(t, i - 1, ".")) {
			at = grow(at, &ca, na, sizeof(*at));
			at[na++] = i;
		}
	for (ii = 0; ii < na && !found; ii++) {
		i = at[ii];
		a = i + 2;
		b = skip_group(t, i + 1) - 1;	/* the index: [a, b) */
		n = b > a ? b - a : 0;
		nt = -1;
		for (jj = 0; jj < na && !found; jj++) {
			size_t x;
			j = at[jj];
			if (n == 0 || !is(t, j + n + 2, "+") ||
			    !is(t, j + n + 3, "1") || !is(t, j + n + 4, "]"))
				continue;
			for (x = 0; x < n && is(t, j + 2 + x, t->v[a + x]); x++)
				;
			if (x != n)
				continue;
			if ((s = assigned_at(t, k->body, i)) != NULL &&
			    (e = assigned_at(t, k->body, j)) != NULL &&
			    strcmp(s, e) != 0 && segment_use(t, k->body, s, e))
				found = 1;
			if (!found && nt < 0)
				nt = locals_from(t, k->body, i, set);
			if (!found && nt > 0 &&
			    compared_with(t, k->body, j, set, nt))
				found = 1;
		}
	}
	free(at);
	return found || bisected_by(k, name);
}
