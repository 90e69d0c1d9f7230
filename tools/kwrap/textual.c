/*
 * kwrap: the ranges of index variables read from the patterns of guards
 * (i < n, if (i >= n) return, min(i, n - 1)): the grid is made of them.
 */
#include "kwrap.h"

/* Whether [a, e) is a whole disjunct of if (... || ... ) return;: the
 * condition's other parts joined to it by || only. */
static int
returns_if(const struct toks *t, size_t a, size_t e)
{
	size_t j = a, c;

	while (j > 1 && is(t, j - 1, "||")) {
		/* back over the disjunct before */
		int depth = 0;
		for (j -= 2; j > 0; j--) {
			if (is(t, j, ")") || is(t, j, "]"))
				depth++;
			else if (is(t, j, "(") || is(t, j, "[")) {
				if (depth-- == 0)
					break;
			} else if (depth == 0 && (is(t, j, "||") ||
			    is(t, j, "&&") || is(t, j, "?") || is(t, j, ",") ||
			    is(t, j, ";") || is(t, j, "{")))
				break;
		}
		if (!is(t, j, "||") && !is(t, j, "("))
			return 0;
		j++;
	}
	if (j < 2 || !is(t, j - 1, "(") || !is(t, j - 2, "if"))
		return 0;
	c = skip_group(t, j - 1) - 1;
	for (j = e; j < c; j++) {
		if (is(t, j, "(") || is(t, j, "[")) {
			j = skip_group(t, j) - 1;
			continue;
		}
		if (is(t, j, "&&") || is(t, j, "?") || is(t, j, ","))
			return 0;
	}
	return is(t, c, ")") && (is(t, c + 1, "return") ||
	    (is(t, c + 1, "{") && is(t, c + 2, "return")));
}

/* Upper bounds of variables from guards: v < E, v <= E, if (v >= E ||
 * ...) return, and min/clamp definitions ending in E - 1.  A variable
 * keeps the first bound found; returns how many were found this time. */
int
find_bounds(struct kern *k)
{
	struct toks *t = &k->t;
	static const char *const stop[] = { "&&", "||", ";", "?", ",", NULL };
	char buf[MAX_EXPR], pb[MAX_EXPR];
	size_t i, e;
	int n, before = 0, after = 0;

	for (n = 0; n < k->nv; n++)
		before += k->v[n].bound[0] != '\0';
	for (i = 0; i + 2 < t->n; i++) {
		struct var *v;
		if (!is_ident(t->v[i]) || (v = var_get(k, t->v[i])) == NULL ||
		    v->bound[0] != '\0' || is(t, i - 1, "."))
			continue;
		if (i > 0 && strchr("*/%+-&|^", t->v[i - 1][0]) != NULL &&
		    !is(t, i - 1, "&&") && !is(t, i - 1, "||") &&
		    !unary_at(t, i - 1)) {
			/* c * v < E bounds v by E / c; x + v < E is no bound */
			long long c;
			size_t o = i - 2;
			if (!is(t, i - 1, "*") || i < 2 ||
			    !eval_str(t->v[o], &k->c, &c) || c <= 1 ||
			    (o > 0 && !unary_at(t, o - 1) &&
			    strchr("(,;!", t->v[o - 1][0]) == NULL &&
			    !is(t, o - 1, "&&") && !is(t, o - 1, "||")) ||
			    !is(t, i + 1, "<"))
				continue;
			e = expr_end(t, i + 2, stop);
			if (param_expr(k, t, i + 2, e, buf, sizeof(buf))) {
				paren(buf, pb, sizeof(pb));
				bprintf(v->bound, sizeof(v->bound),
				    "(%s + %lld) / %lld", pb, c - 1, c);
				mark_size_use(k, t, i + 2, e);
			}
		} else if (is(t, i + 1, "<") || is(t, i + 1, "<=")) {
			e = expr_end(t, i + 2, stop);
			if (param_expr(k, t, i + 2, e, buf, sizeof(buf))) {
				if (is(t, i + 1, "<="))
					bprintf(v->bound, sizeof(v->bound),
					    "%s + 1", buf);
				else
					copy(v->bound, sizeof(v->bound), buf);
				mark_size_use(k, t, i + 2, e);
			}
		} else if (is(t, i + 1, ">=") && i > 1 && (is(t, i - 1, "(") ||
		    is(t, i - 1, "||"))) {
			e = expr_end(t, i + 2, stop);
			if (returns_if(t, i, e) &&
			    param_expr(k, t, i + 2, e, buf, sizeof(buf))) {
				copy(v->bound, sizeof(v->bound), buf);
				mark_size_use(k, t, i + 2, e);
			}
		}
	}
	/* b = clamp(x, 0, E - 1) or min(x, E - 1) */
	for (n = 0; n < k->nv; n++) {
		struct var *v = &k->v[n];
		if (v->bound[0] != '\0' || v->b < 3 || !is(t, v->b - 1, ")"))
			continue;
		for (i = v->b - 1; i > v->a; i--)
			if (is(t, i, ","))
				break;
		if (i <= v->a || !is(t, v->b - 2, "1") || !is(t, v->b - 3, "-"))
			continue;
		if (param_expr(k, t, i + 1, v->b - 3, buf, sizeof(buf))) {
			copy(v->bound, sizeof(v->bound), buf);
			mark_size_use(k, t, i + 1, v->b - 3);
		}
	}
	for (n = 0; n < k->nv; n++)
		after += k->v[n].bound[0] != '\0';
	return after - before;
}
