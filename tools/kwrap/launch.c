/*
 * kwrap: the launch: block, grid and dynamic shared memory.
 */
#include "kwrap.h"

/* The block: from the launch site when its expression is a constant,
 * else __launch_bounds__, else a default; a shared array sized N and
 * indexed by thread caps it.  It depends on no bound, so it is found
 * once, before them. */
void
infer_block(struct kern *k, json_t *launch)
{
	struct toks *t = &k->t, bt = { 0 };
	const char *bexpr = k_get_str(launch, "block");
	long long v;
	size_t i;
	int d;

	k->block[0] = k->block[1] = k->block[2] = 1;
	k->dims = 1;
	for (i = 0; i < t->n; i++)
		if ((is(t, i, "threadIdx") || is(t, i, "blockDim")) &&
		    dim_of(t, i) >= 1)
			k->dims = 2;
	k->block_state = 2;
	if (bexpr != NULL) {
		size_t a = 0, e;
		static const char *const comma[] = { ",", NULL };
		tokenize(bexpr, &bt);
		if (is(&bt, 0, "dim3") && is(&bt, 1, "("))
			a = 2;
		for (d = 0; d < 3 && a < bt.n; d++) {
			e = expr_end(&bt, a, comma);
			if (!eval_range(&bt, a, e, &k->c, &v) || v <= 0 ||
			    v > 1024) {
				k->block[0] = 0;
				break;
			}
			k->block[d] = v;
			a = e + 1;
		}
	} else
		k->block[0] = 0;
	if (k->block[0] == 0) {
		k->block[0] = k->block[1] = k->block[2] = 1;
		for (i = 0; i + 2 < k->all.n; i++)
			if (is(&k->all, i, "__launch_bounds__") &&
			    is(&k->all, i + 1, "(")) {
				size_t e = skip_group(&k->all, i + 1) - 1, c;
				for (c = i + 2; c < e && !is(&k->all, c, ","); c++)
					;
				if (eval_range(&k->all, i + 2, c, &k->c, &v))
					k->block[0] = v;
			}
		if (k->block[0] <= 1) {
			k->block[0] = k->dims == 2 ? 16 : DEFAULT_BLOCK;
			if (k->dims == 2)
				k->block[1] = 16;
			guess(k, "block size %lld x %lld: not a constant at the "
			    "launch site", k->block[0], k->block[1]);
			k->block_state = 1;
		}
	}
	toks_free(&bt);
	/* a shared array sized N and indexed by thread caps the block */
	for (i = 0; i + 4 < t->n; i++)
		if (is(t, i, "__shared__") && !is(t, i - 1, "extern")) {
			size_t j = i + 1;
			while (j < t->n && !is(t, j, "[") && !is(t, j, ";"))
				j++;
			if (is(t, j, "[")) {
				size_t e = skip_group(t, j) - 1;
				if (eval_range(t, j + 1, e, &k->c, &v) && v > 0 &&
				    v < k->block[0] * k->block[1] &&
				    k->dims == 1 && v >= 32) {
					k->block[0] = v;
				}
			}
		}
}

/* The grid: per dimension, the range of a global or block index.  Guards
 * read through param_expr may name gridDim, so bounds and grid are found
 * in rounds (process); say is 0 in all but the last, which says what
 * stays a guess. */
void
infer_grid(struct kern *k, int say)
{
	int d, n;

	k->grid_state = 2;
	for (d = 0; d < 3; d++) {
		const char *dom = NULL;
		int kind = -1;
		for (n = 0; n < k->nv; n++) {
			struct var *vv = &k->v[n];
			if (vv->dim != d || vv->bound[0] == '\0' ||
			    (vv->kind != V_GLOBAL && vv->kind != V_BLOCK))
				continue;
			if (dom == NULL || (kind == V_BLOCK &&
			    vv->kind == V_GLOBAL)) {
				dom = vv->bound;
				kind = (int)vv->kind;
			}
		}
		if (dom == NULL) {
			int used = 0;
			for (n = 0; n < k->nv; n++)
				if ((k->v[n].kind == V_GLOBAL ||
				    k->v[n].kind == V_BLOCK) && k->v[n].dim == d)
					used = 1;
			copy(k->grid[d], sizeof(k->grid[d]), "1");
			if (used) {
				k->grid_state = 1;
				if (say)
					guess(k, "grid.%c: no bound found for "
					    "its index, 1 assumed", 'x' + d);
			}
		} else if (kind == V_BLOCK) {
			copy(k->grid[d], sizeof(k->grid[d]), dom);
		} else {
			char pd[MAX_EXPR];
			paren(dom, pd, sizeof(pd));
			if (k->block[d] == 1)
				copy(k->grid[d], sizeof(k->grid[d]), dom);
			else
				bprintf(k->grid[d], sizeof(k->grid[d]),
				    "(%s + %lld) / %lld", pd, k->block[d] - 1,
				    k->block[d]);
		}
	}
	if (k->grid_state == 2 && strcmp(k->grid[0], "1") == 0 &&
	    strcmp(k->grid[1], "1") == 0) {
		int any = 0;
		for (n = 0; n < k->nv; n++)
			any |= k->v[n].kind == V_GLOBAL ||
			    k->v[n].kind == V_BLOCK;
		if (!any && say)
			guess(k, "grid: one block (no block index is used)");
	}
}

/* Dynamic shared memory: from the launch site's expression, else one
 * element of the kernel's extern __shared__ array per thread (a guess
 * that shared_of may replace with the bytes its accesses reach). */
void
infer_shared(struct kern *k, json_t *launch)
{
	struct toks *t = &k->t;
	const char *bexpr = k_get_str(launch, "block");
	const char *sexpr = k_get_str(launch, "shared_mem");
	long long v;
	size_t i;

	k->shared_state = 2;
	copy(k->shared, sizeof(k->shared), "0");
	for (i = 0; i + 3 < t->n; i++)
		if (is(t, i, "extern") && is(t, i + 1, "__shared__"))
			break;
	if (i + 3 < t->n) {
		char buf[MAX_EXPR] = "";
		struct toks st = { 0 };
		int ok = 0;
		if (sexpr != NULL && bexpr != NULL) {
			/* the launcher's block variable is our block */
			size_t j;
			tokenize(sexpr, &st);
			for (j = 0; j < st.n; j++)
				if (is_ident(st.v[j]) && strcmp(st.v[j], bexpr) == 0) {
					free(st.v[j]);
					st.v[j] = k_asprintf("%lld", k->block[0]);
				}
			ok = param_expr(k, &st, 0, st.n, buf, sizeof(buf)) &&
			    eval_str(buf, &k->c, &v) && v > 0;
			toks_free(&st);
		}
		if (ok)
			snprintf(k->shared, sizeof(k->shared), "%lld", v);
		else {
			const struct k_dtype *dt = k_dtype_c(t->v[i + 2]);
			int sz = dt != NULL ? dt->size : 8;
			snprintf(k->shared, sizeof(k->shared), "%lld",
			    k->block[0] * k->block[1] * sz);
			k->shared_state = 1;
			snprintf(k->shared_guess, sizeof(k->shared_guess),
			    "shared_mem: one %s per thread of the block",
			    dt != NULL ? t->v[i + 2] : "8-byte word");
		}
	}
}
