/*
 * The fit's arithmetic: the smallest integer combination of candidate
 * terms (the spec's own count, 1, the size scalars, their products, the
 * launch's threads and blocks, the other buffers' counts) that gives the
 * count the GPU measured in every sample, with more samples than
 * unknowns so that at least one sample checks the formula rather than
 * making it.  Pure: no GPU, no record; test/unit/test_fit.c tests it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kverify.h"

typedef __int128 wide;

static wide
det_k(wide a[FIT_UNKNOWNS][FIT_UNKNOWNS], int k)
{
	if (k == 1)
		return a[0][0];
	if (k == 2)
		return a[0][0] * a[1][1] - a[0][1] * a[1][0];
	return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
	    a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
	    a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

/* Whether a term's text needs no parentheses inside a product. */
static int
simple(const char *e)
{
	return strspn(e, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789_.") == strlen(e);
}

/* Whether a term's text needs no parentheses as an operand of + (or of
 * -): a product of names and numbers. */
static int
additive_ok(const char *e, int minus)
{
	if (strstr(e, "<<") != NULL || strstr(e, ">>") != NULL)
		return 0;
	if (minus && (strchr(e, '+') != NULL || strchr(e, '-') != NULL ||
	    strchr(e, '/') != NULL || strchr(e, '%') != NULL))
		return 0;
	return strchr(e, '(') == NULL || !minus;
}

/* The formula sum of coef[i] * term[idx[i]], as a harness expression. */
static void
formula(const struct fit_term *t, const int *idx, const long long *coef,
    int k, char *out, size_t len)
{
	size_t n = 0;
	int i, first = 1;

	out[0] = '\0';
	for (i = 0; i < k; i++) {
		const char *e = t[idx[i]].expr;
		long long c = coef[i];
		const char *sign = first ? (c < 0 ? "-" : "") : (c < 0 ? " - " :
		    " + ");
		unsigned long long a = c < 0 ? 0ULL - (unsigned long long)c :
		    (unsigned long long)c;
		int one = strcmp(e, "1") == 0, w;
		if (c == 0)
			continue;
		if (one)
			w = snprintf(out + n, len - n, "%s%llu", sign, a);
		else if (a == 1)
			w = snprintf(out + n, len - n, additive_ok(e, c < 0) ?
			    "%s%s" : "%s(%s)", sign, e);
		else
			w = snprintf(out + n, len - n, simple(e) ? "%s%llu * %s" :
			    "%s%llu * (%s)", sign, a, e);
		if (w < 0 || (size_t)w >= len - n) {
			out[0] = '\0';
			return;
		}
		n += (size_t)w;
		first = 0;
	}
	if (first)
		snprintf(out, len, "0");
}

/*
 * Whether e is in the grammar of the harness's override expressions
 * (tools/kwrap/harness.in, kw_eval): integers (C suffixes allowed), names
 * (p.field), + - * / % << >>, unary minus and parentheses.  A spec count
 * with a cast, a ternary or a call is not, and must not reach --count.
 */
int
fit_expr_ok(const char *e)
{
	int operand = 1, depth = 0;	/* operand: one is expected next */

	while (*e != '\0') {
		if (*e == ' ' || *e == '\t') {
			e++;
		} else if (*e == '(' && operand) {
			depth++;
			e++;
		} else if (*e == ')' && !operand && depth > 0) {
			depth--;
			e++;
		} else if ((*e == '-' || *e == '+') && operand) {
			e++;
		} else if (operand && ((*e >= '0' && *e <= '9') || *e == '_' ||
		    (*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z'))) {
			e += strspn(e, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM"
			    "NOPQRSTUVWXYZ0123456789_.");
			operand = 0;
		} else if (!operand && strchr("+-*/%", *e) != NULL) {
			e++;
			operand = 1;
		} else if (!operand && (strncmp(e, "<<", 2) == 0 ||
		    strncmp(e, ">>", 2) == 0)) {
			e += 2;
			operand = 1;
		} else
			return 0;
	}
	return !operand && depth == 0;
}

/* Solve the subset idx[0..k) exactly on the samples; 1 with r filled. */
static int
solve(const struct fit_term *t, const int *idx, int k, const long long *y,
    size_t m, struct fit_result *r)
{
	wide a[FIT_UNKNOWNS][FIT_UNKNOWNS], b[FIT_UNKNOWNS][FIT_UNKNOWNS], d;
	size_t rows[FIT_UNKNOWNS], s;
	long long coef[FIT_UNKNOWNS];
	int i, j, c, found = 0;

	for (i = 0; i < k; i++)
		if (t[idx[i]].unusable)
			return 0;
	/* values this large could overflow the determinants */
	for (i = 0; i < k; i++)
		for (s = 0; s < m; s++)
			if (t[idx[i]].v[s] > FIT_VALUE_MAX ||
			    t[idx[i]].v[s] < -FIT_VALUE_MAX)
				return 0;
	/* k linearly independent samples: the first such rows in order */
	if (k == 1) {
		for (s = 0; s < m && !found; s++)
			if (t[idx[0]].v[s] != 0) {
				rows[0] = s;
				found = 1;
			}
	} else if (k == 2) {
		size_t p, q;
		for (p = 0; p < m && !found; p++)
			for (q = p + 1; q < m && !found; q++) {
				for (i = 0; i < 2; i++) {
					a[0][i] = t[idx[i]].v[p];
					a[1][i] = t[idx[i]].v[q];
				}
				if (det_k(a, 2) != 0) {
					rows[0] = p;
					rows[1] = q;
					found = 1;
				}
			}
	} else {
		size_t p, q, u;
		for (p = 0; p < m && !found; p++)
			for (q = p + 1; q < m && !found; q++)
				for (u = q + 1; u < m && !found; u++) {
					for (i = 0; i < 3; i++) {
						a[0][i] = t[idx[i]].v[p];
						a[1][i] = t[idx[i]].v[q];
						a[2][i] = t[idx[i]].v[u];
					}
					if (det_k(a, 3) != 0) {
						rows[0] = p;
						rows[1] = q;
						rows[2] = u;
						found = 1;
					}
				}
	}
	if (!found)
		return 0;
	for (i = 0; i < k; i++)
		for (j = 0; j < k; j++)
			a[i][j] = t[idx[j]].v[rows[i]];
	d = det_k(a, k);
	/* Cramer's rule; a coefficient that is not an integer is no fit */
	for (c = 0; c < k; c++) {
		wide x;
		memcpy(b, a, sizeof(a));
		for (i = 0; i < k; i++)
			b[i][c] = y[rows[i]];
		x = det_k(b, k);
		if (x % d != 0)
			return 0;
		x /= d;
		if (x == 0 || x > LLONG_MAX || x < -LLONG_MAX)
			return 0;
		coef[c] = (long long)x;
	}
	for (s = 0; s < m; s++) {
		wide sum = 0;
		for (i = 0; i < k; i++)
			sum += (wide)coef[i] * t[idx[i]].v[s];
		if (sum != y[s])
			return 0;
	}
	r->nterms = k;
	for (i = 0; i < k; i++) {
		r->idx[i] = idx[i];
		r->coef[i] = coef[i];
	}
	formula(t, idx, coef, k, r->formula, sizeof(r->formula));
	return r->formula[0] != '\0';
}

/*
 * Fit y[0..m) (the measured counts, one per sample) over the nt terms t;
 * stat: the index of the spec's own count among them, -1 if none.  r->how
 * says what was found:
 *	"static"  the spec's count gives every sample: confirmed
 *	"exact"   a combination of at most FIT_UNKNOWNS terms gives every
 *	          sample, with more samples than unknowns
 *	"single"  one sample only: the measured count, as a constant
 *	"bound"   nothing fits exactly: the smallest multiple of the spec's
 *	          count (or the largest sample) that holds every sample
 * Returns 0, or -1 with nothing found (no samples).
 */
int
fit_formula(const struct fit_term *t, size_t nt, const long long *y,
    size_t m, int stat, struct fit_result *r)
{
	int idx[FIT_UNKNOWNS], k;
	size_t s;
	long long most = 0;

	memset(r, 0, sizeof(*r));
	if (m == 0 || m > FIT_SAMPLES)
		return -1;
	for (s = 0; s < m; s++)
		if (y[s] > most)
			most = y[s];
	if (stat >= 0 && (size_t)stat < nt) {
		for (s = 0; s < m && t[stat].v[s] == y[s]; s++)
			;
		if (s == m) {
			r->how = "static";
			r->nterms = 1;
			r->idx[0] = stat;
			r->coef[0] = 1;
			snprintf(r->formula, sizeof(r->formula), "%s",
			    t[stat].expr);
			return 0;
		}
	}
	if (m == 1) {
		r->how = "single";
		snprintf(r->formula, sizeof(r->formula), "%lld", y[0]);
		return 0;
	}
	for (k = 1; k <= FIT_UNKNOWNS && (size_t)k < m; k++) {
		/* every subset of k terms, in the terms' order */
		for (idx[0] = 0; idx[0] < (int)nt; idx[0]++) {
			if (k == 1) {
				if (solve(t, idx, 1, y, m, r))
					goto found;
				continue;
			}
			for (idx[1] = idx[0] + 1; idx[1] < (int)nt; idx[1]++) {
				if (k == 2) {
					if (solve(t, idx, 2, y, m, r))
						goto found;
					continue;
				}
				for (idx[2] = idx[1] + 1; idx[2] < (int)nt;
				    idx[2]++)
					if (solve(t, idx, 3, y, m, r))
						goto found;
			}
		}
	}
	/* an upper bound: never too small for a sample, maybe too large */
	r->how = "bound";
	if (stat >= 0 && (size_t)stat < nt && !t[stat].unusable) {
		long long c = 1;
		for (s = 0; s < m; s++) {
			long long v = t[stat].v[s];
			if (v <= 0) {
				if (y[s] > 0)
					break;
				continue;
			}
			if ((y[s] + v - 1) / v > c)
				c = (y[s] + v - 1) / v;
		}
		if (s == m) {
			r->nterms = 1;
			r->idx[0] = stat;
			r->coef[0] = c;
			formula(t, &stat, &c, 1, r->formula,
			    sizeof(r->formula));
			return 0;
		}
	}
	snprintf(r->formula, sizeof(r->formula), "%lld", most);
	return 0;
found:
	r->how = "exact";
	return 0;
}
