/*
 * A value that tells a surviving mutant from the reference (man kwrap,
 * "Survivor cases"): for an integer scalar its line names, the smallest
 * parenthesized group of the reference's line around the edit (else the
 * right-hand side of its assignment), and the mutant's, are evaluated with the scalar at candidate values, the other
 * scalars at the first case's values, the slice's integer constants and
 * the instance's template values; the candidate nearest the first case's
 * value where the two groups differ is the hit.
 *
 * Candidates: 0, 1, 2, and v - 1, v, v + 1, 2v and 2v + 1 for every
 * constant v of the group (a literal, or a parenthesized part that
 * evaluates without the scalar): "n % (TH * NUM_PER_THREAD) == 0 ? 0 :
 * ..." made "== 1" parts at n = 1 (and 4097), where a first case's
 * n = 13 runs both the same.  Where the first case's value already
 * parts them, or no group evaluates, there is none.
 */
#include "kwrap.h"

#define HIT_MAX (1LL << 24)	/* no candidate past it in magnitude */
#define HIT_CANDS 64

/* The innermost "(...)" of s that starts before a and closes at or after
 * b: [*o, *c] (the parentheses included); 0 when none. */
static int
group_around(const char *s, size_t a, size_t b, size_t *o, size_t *c)
{
	size_t i, j;
	int d;

	for (i = a; i-- > 0;) {
		if (s[i] != '(')
			continue;
		for (j = i, d = 0; s[j] != '\0'; j++) {
			if (s[j] == '(')
				d++;
			else if (s[j] == ')' && --d == 0)
				break;
		}
		if (s[j] == ')' && j >= b) {
			*o = i;
			*c = j;
			return 1;
		}
	}
	return 0;
}

/* Else the right-hand side around a: after the "=" before a that is an
 * assignment (not ==, !=, <=, >=) to the ";" after it, or the line's
 * end: [*o, *c]; 0 when none. */
static int
rhs_around(const char *s, size_t a, size_t *o, size_t *c)
{
	size_t i = a, e;

	while (i-- > 0)
		if (s[i] == '=' && s[i + 1] != '=' && (i == 0 ||
		    strchr("=!<>+-*/%&|^", s[i - 1]) == NULL))
			break;
	if (i == (size_t)-1)
		return 0;
	for (e = a; s[e] != '\0' && s[e] != ';'; e++)
		;
	*o = i + 1;
	*c = e - 1;
	return *c >= *o;
}

/* The value of text [a, b] of s under k, into *v. */
static int
value_of(const char *s, size_t a, size_t b, const struct consts *k,
    long long *v)
{
	char *t = k_asprintf("%.*s", (int)(b - a + 1), s + a);
	int ok = eval_str(t, k, v);

	free(t);
	return ok;
}

static void
add(long long *c, int *n, long long v)
{
	int i;

	if (v < -HIT_MAX || v > HIT_MAX)
		return;
	for (i = 0; i < *n; i++)
		if (c[i] == v)
			return;
	if (*n < HIT_CANDS)
		c[(*n)++] = v;
}

/* Whether a comes before b: nearer to base, the smaller of two as near. */
static int
nearer(long long a, long long b, long long base)
{
	long long da = a > base ? a - base : base - a;
	long long db = b > base ? b - base : base - b;

	return da != db ? da < db : a < b;
}

int
kw_hit_value(const char *ref, const char *mut, const char *name,
    const struct consts *k, long long base, int positive, long long *out)
{
	size_t lr = strlen(ref), lm = strlen(mut), p, sr, ro, rc, mo, mc, i;
	long long cand[HIT_CANDS], v, a, b;
	struct consts with = { 0 };
	int n = 0, found = 0, j;

	/* where the lines part: [p, lr - s) in ref, [p, lm - s) in mut */
	for (p = 0; p < lr && p < lm && ref[p] == mut[p]; p++)
		;
	for (sr = 0; sr < lr - p && sr < lm - p && ref[lr - 1 - sr] ==
	    mut[lm - 1 - sr]; sr++)
		;
	if (p == lr && p == lm)
		return 0;
	if ((!group_around(ref, p, lr - sr > p ? lr - sr - 1 : p, &ro, &rc) ||
	    !group_around(mut, p, lm - sr > p ? lm - sr - 1 : p, &mo, &mc)) &&
	    (!rhs_around(ref, p, &ro, &rc) || !rhs_around(mut, p, &mo, &mc)))
		return 0;
	if (ro != mo)
		return 0;
	/* the candidates: small values and the group's constants */
	add(cand, &n, 0);
	add(cand, &n, 1);
	add(cand, &n, 2);
	for (i = ro; i <= rc; i++) {
		size_t o, c;
		int lit = isdigit((unsigned char)ref[i]) && (i == 0 ||
		    (!isalnum((unsigned char)ref[i - 1]) && ref[i - 1] != '_'
		    && ref[i - 1] != '.'));
		if (lit) {
			for (c = i; isalnum((unsigned char)ref[c + 1]); c++)
				;
			if (!value_of(ref, i, c, k, &v))
				continue;
		} else if (ref[i] == '(' && group_around(ref, i + 1, i + 1, &o,
		    &c) && o == i) {
			if (!value_of(ref, o, c, k, &v))
				continue;
		} else
			continue;
		add(cand, &n, v - 1);
		add(cand, &n, v);
		add(cand, &n, v + 1);
		if (v < HIT_MAX / 2 && v > -HIT_MAX / 2) {
			add(cand, &n, 2 * v);
			add(cand, &n, 2 * v + 1);
		}
	}
	/* the first case's value must not part them already */
	for (j = 0; j < k->n; j++)
		const_set(&with, k->v[j].name, k->v[j].val);
	const_set(&with, name, base);
	if (!value_of(ref, ro, rc, &with, &a) || !value_of(mut, mo, mc, &with,
	    &b) || a != b) {
		consts_free(&with);
		return 0;
	}
	/* nearest first (kwrap's workers share no state: no qsort with a
	 * global base) */
	for (j = 1; j < n; j++) {
		long long c = cand[j];
		int m;
		for (m = j; m > 0 && nearer(c, cand[m - 1], base); m--)
			cand[m] = cand[m - 1];
		cand[m] = c;
	}
	for (j = 0; j < n && !found; j++) {
		if (cand[j] == base || (positive && cand[j] < 1))
			continue;
		const_set(&with, name, cand[j]);
		if (value_of(ref, ro, rc, &with, &a) && value_of(mut, mo, mc,
		    &with, &b) && a != b) {
			*out = cand[j];
			found = 1;
		}
	}
	consts_free(&with);
	return found;
}
