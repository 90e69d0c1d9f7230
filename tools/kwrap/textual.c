/*
 * kwrap: bounds of index variables and element counts read from the
 * patterns of guards and subscripts.
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
		if (is(t, i + 1, "<") || is(t, i + 1, "<=")) {
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
	(void)pb;
	for (n = 0; n < k->nv; n++)
		after += k->v[n].bound[0] != '\0';
	return after - before;
}

/* One subscript's element count, from the bounds of what it adds up.
 * Returns 2 when derived, 0 when it cannot say. */
static int
index_count(struct kern *k, const struct toks *t, size_t a, size_t b,
    char *out, size_t cap)
{
	char vars[4][MAX_EXPR], coefs[4][MAX_EXPR];
	int nt = 0, i;
	size_t s, e, m;
	static const char *const plus[] = { "+", "-", NULL };
	static const char *const star[] = { "*", "%", NULL };

	for (s = a; s < b; s = e + 1) {
		char coef[MAX_EXPR] = "", bound[MAX_EXPR] = "", buf[MAX_EXPR];
		int hasvar = 0;
		e = expr_end(t, s, plus);
		if (e > b)
			e = b;
		if (e < b && is(t, e, "-"))
			return 0;
		if (nt >= 4)
			return 0;
		for (m = s; m < e;) {
			size_t f = expr_end(t, m, star), fs = m;
			struct var *v;
			if (f > e)
				f = e;
			/* drop casts in front of the factor */
			while (fs + 2 < f && is(t, fs, "(") &&
			    k_dtype_c(t->v[fs + 1]) != NULL && is(t, fs + 2, ")"))
				fs += 3;
			if (fs + 1 == f && (v = var_get(k, t->v[fs])) != NULL &&
			    (v->bound[0] != '\0' || v->kind != V_LOCAL)) {
				if (hasvar || v->bound[0] == '\0')
					return 0;
				copy(bound, sizeof(bound), v->bound);
				hasvar = 1;
			} else if (fs + 3 == f && (is(t, fs, "blockIdx") ||
			    is(t, fs, "threadIdx")) && dim_of(t, fs) >= 0) {
				int d = dim_of(t, fs);
				if (hasvar)
					return 0;
				if (is(t, fs, "blockIdx"))
					copy(bound, sizeof(bound), k->grid[d]);
				else
					snprintf(bound, sizeof(bound), "%lld",
					    k->block[d]);
				hasvar = 1;
			} else if (param_expr(k, t, fs, f, buf, sizeof(buf))) {
				char pb[MAX_EXPR];
				paren(buf, pb, sizeof(pb));
				if (m > s && is(t, m - 1, "%")) {
					/* x % E: below E whatever x is */
					copy(bound, sizeof(bound), buf);
					coef[0] = '\0';
					hasvar = 1;
				} else if (coef[0] == '\0')
					copy(coef, sizeof(coef), pb);
				else {
					char both[MAX_EXPR];
					bprintf(both, sizeof(both), "%s * %s",
					    coef, pb);
					copy(coef, sizeof(coef), both);
				}
			} else
				return 0;
			m = f + 1;
		}
		if (!hasvar) {
			long long v;
			if (eval_str(coef, &k->c, &v) && v == 0)
				continue;
			copy(bound, sizeof(bound), "1");
		}
		copy(vars[nt], sizeof(vars[0]), bound);
		copy(coefs[nt], sizeof(coefs[0]), coef);
		nt++;
	}
	if (nt == 0) {
		copy(out, cap, "1");
		return 2;
	}
	/* v * E + w with w < E: v's bound times E */
	if (nt == 2) {
		for (i = 0; i < 2; i++) {
			char pv[MAX_EXPR], pe[MAX_EXPR];
			if (coefs[1 - i][0] != '\0' ||
			    (strcmp(vars[1 - i], coefs[i]) != 0 &&
			    !(coefs[i][0] == '(' &&
			    strncmp(coefs[i] + 1, vars[1 - i],
			    strlen(vars[1 - i])) == 0)))
				continue;
			paren(vars[i], pv, sizeof(pv));
			paren(coefs[i], pe, sizeof(pe));
			bprintf(out, cap, "%s * %s", pv, pe);
			return 2;
		}
	}
	{
		struct k_buf sb = { 0 };
		for (i = 0; i < nt; i++) {
			char pv[MAX_EXPR];
			paren(vars[i], pv, sizeof(pv));
			if (i > 0)
				k_buf_add(&sb, " + ");
			if (coefs[i][0] != '\0')
				k_buf_printf(&sb, "%s * %s", pv, coefs[i]);
			else
				k_buf_add(&sb, nt > 1 ? pv : vars[i]);
		}
		copy(out, cap, k_buf_str(&sb));
		k_buf_free(&sb);
	}
	return 2;
}

/* Element count of buffer pi: the subscript whose count has the most
 * factors wins (x[0] and x[c] over one row: the row's). */
void
buffer_count(struct kern *k, int pi, const char *domain)
{
	struct toks *t = &k->t;
	struct param *p = &k->p[pi];
	size_t i;
	int unknown = 0, any = 0, bare = 0, best = -1;

	for (i = k->body; i < t->n; i++) {
		struct var *v = NULL;
		struct toks idx = { 0 };
		char cnt[MAX_EXPR];
		int hit = is(t, i, p->name);
		if (is(t, i - 1, ".") || is(t, i - 1, "->"))
			continue;
		if (!hit && (v = var_get(k, t->v[i])) != NULL && v->alias == pi)
			hit = 1;
		else
			v = NULL;
		if (!hit)
			continue;
		if (v == NULL && i + 1 < t->n && is(t, i + 1, "=") &&
		    is(t, i - 1, "*"))
			continue;
		if (!is(t, i + 1, "[")) {
			if (is(t, i - 1, "(") && i >= 2 &&
			    strncmp(t->v[i - 2], "atomic", 6) == 0)
				bare = 1;
			else if (is(t, i - 1, "*"))
				bare = 1;
			else if (!(is(t, i - 1, "=") && v == NULL &&
			    i >= 2 && var_get(k, t->v[i - 2]) != NULL &&
			    var_get(k, t->v[i - 2])->alias == pi))
				unknown = 1;
			continue;
		}
		{
			size_t e = skip_group(t, i + 1) - 1, j;
			/* alias offset tokens, then " + ", then the index */
			idx.v = k_calloc(t->n + 4, sizeof(char *));
			if (v != NULL) {
				for (j = v->a + 2; j < v->b; j++)
					idx.v[idx.n++] = t->v[j];
				if (idx.n)
					idx.v[idx.n++] = (char *)"+";
			}
			for (j = i + 2; j < e; j++)
				idx.v[idx.n++] = t->v[j];
			any = 1;
			if (index_count(k, &idx, 0, idx.n, cnt, sizeof(cnt))) {
				int stars = 0;
				const char *q;
				for (q = cnt; *q != '\0'; q++)
					stars += *q == '*' || *q == ' ';
				if (stars > best) {
					best = stars;
					copy(p->count, sizeof(p->count), cnt);
				}
			} else
				unknown = 1;
			free(idx.v);
		}
	}
	if (best >= 0 && !unknown) {
		p->count_state = 2;
	} else if (best >= 0) {
		p->count_state = 1;
		guess(k, "%s: count %s from some subscripts only", p->name,
		    p->count);
	} else if (bare && !any && !unknown) {
		copy(p->count, sizeof(p->count), "1");
		p->count_state = 2;
	} else if (domain != NULL) {
		copy(p->count, sizeof(p->count), domain);
		p->count_state = 1;
		guess(k, "%s: count taken to be the index range %s", p->name,
		    domain);
	} else {
		copy(p->count, sizeof(p->count), "1048576");
		p->count_state = 1;
		guess(k, "%s: count unknown, 1048576 assumed", p->name);
	}
	mark_size_str(k, p->count);
}
