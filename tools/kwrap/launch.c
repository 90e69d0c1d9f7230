/*
 * kwrap: the launch: block, grid and dynamic shared memory.
 */
#include "kwrap.h"

/* The block as bexpr spells it when it is constant, else block[0] 0. */
static void
block_at(struct kern *k, const char *bexpr)
{
	struct toks bt = { 0 };
	static const char *const comma[] = { ",", NULL };
	size_t a = 0, e;
	long long v;
	int d;

	k->block[0] = 0;
	k->block[1] = k->block[2] = 1;
	if (bexpr == NULL)
		return;
	tokenize(bexpr, &bt);
	if (is(&bt, 0, "dim3") && is(&bt, 1, "("))
		a = 2;
	for (d = 0; d < 3 && a < bt.n; d++) {
		e = expr_end(&bt, a, comma);
		if (!eval_range(&bt, a, e, &k->c, &v) || v <= 0 || v > 1024) {
			k->block[0] = 0;
			k->block[1] = k->block[2] = 1;
			break;
		}
		k->block[d] = v;
		a = e + 1;
	}
	toks_free(&bt);
}

/* The block: from the launch site when its expression is a constant,
 * else __launch_bounds__, else a default; a shared array sized N and
 * indexed by thread caps it.  It depends on no bound, so it is found
 * once, before them. */
void
infer_block(struct kern *k, json_t *launch)
{
	struct toks *t = &k->t;
	const char *bexpr = k_get_str(launch, "block");
	long long v;
	size_t i;

	k->block[0] = k->block[1] = k->block[2] = 1;
	k->dims = 1;
	for (i = 0; i < t->n; i++)
		if ((is(t, i, "threadIdx") || is(t, i, "blockDim")) &&
		    dim_of(t, i) >= 1)
			k->dims = 2;
	k->block_state = 2;
	block_at(k, bexpr);
	if (k->block[0] == 0) {
		/* another launch site of the kernel that spells it */
		json_t *all = json_object_get(json_object_get(k->rec, "scan"),
		    "launches"), *l;
		json_array_foreach(all, i, l) {
			block_at(k, k_get_str(l, "block"));
			if (k->block[0] != 0)
				break;
		}
	}
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
		int kind = -1, td = d;
		/* the grid a launch site spells in the kernel's parameters,
		 * with the block it spells too, is the project's own */
		if (k->block_state == 2 && site_grid(k, d, k->grid[d],
		    sizeof(k->grid[d])))
			continue;
		for (n = 0; n < k->nv; n++) {
			struct var *vv = &k->v[n];
			if (vv->bdim != d || vv->bound[0] == '\0' ||
			    (vv->kind != V_GLOBAL && vv->kind != V_BLOCK))
				continue;
			if (dom == NULL || (kind == V_BLOCK &&
			    vv->kind == V_GLOBAL)) {
				dom = vv->bound;
				kind = (int)vv->kind;
				td = vv->dim;
			}
		}
		if (dom == NULL) {
			int used = 0;
			for (n = 0; n < k->nv; n++)
				if ((k->v[n].kind == V_GLOBAL ||
				    k->v[n].kind == V_BLOCK) && k->v[n].bdim == d)
					used = 1;
			copy(k->grid[d], sizeof(k->grid[d]), "1");
			if (used && site_grid(k, d, k->grid[d],
			    sizeof(k->grid[d])))
				continue;
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
			if (k->block[td] == 1)
				copy(k->grid[d], sizeof(k->grid[d]), dom);
			else
				bprintf(k->grid[d], sizeof(k->grid[d]),
				    "(%s + %lld) / %lld", pd, k->block[td] - 1,
				    k->block[td]);
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

/* The launch site that carries the arguments: scan.launches' entry at
 * slice.launch's "from" (file:line), else the one slice.launch is. */
json_t *
launch_site(json_t *rec, json_t *launch)
{
	json_t *all = json_object_get(json_object_get(rec, "scan"), "launches");
	const char *from = k_get_str(launch, "from");
	json_t *l;
	size_t i;
	char at[600];

	if (json_is_array(json_object_get(launch, "args")))
		return launch;
	json_array_foreach(all, i, l) {
		const char *f = k_get_str(l, "file");
		json_int_t line = json_integer_value(json_object_get(l, "line"));
		if (f == NULL || from == NULL)
			continue;
		snprintf(at, sizeof(at), "%s:%lld", f, (long long)line);
		if (strcmp(at, from) == 0)
			return l;
	}
	return NULL;
}

/* Grid dimension d as launch site l spells it, its terms replaced by
 * the parameters their argument expressions are passed to: in
 * k<<<dim3(w, r), 256>>>(x, r) with k(float *x, int rows) grid.y is
 * rows.  A term that is no argument and no constant makes no grid. */
static int
grid_at(struct kern *k, json_t *l, int d, char *out, size_t cap)
{
	json_t *args = json_object_get(l, "args");
	const char *g = k_get_str(l, "grid");
	static const char *const comma[] = { ",", NULL };
	struct toks gt = { 0 }, at = { 0 }, mt = { 0 };
	size_t a = 0, e, i, j;
	long long v;
	int ok = 1, n, dd;

	if (g == NULL || !json_is_array(args) ||
	    json_array_size(args) != (size_t)k->np)
		return 0;
	tokenize(g, &gt);
	e = gt.n;
	if (is(&gt, 0, "dim3") && is(&gt, 1, "(")) {
		a = 2;
		e = skip_group(&gt, 1) - 1;
		for (dd = 0; dd < d && a < e; dd++)
			a = expr_end(&gt, a, comma) + 1;
		if (a >= e) {
			toks_free(&gt);
			return 0;	/* 1 by default: no term to read */
		}
		e = expr_end(&gt, a, comma);
	} else if (d > 0) {
		/* a scalar grid (an expression, not a dim3 variable's
		 * name) launches one block in y and z */
		ok = gt.n > 1 && !is(&gt, 0, "dim3");
		if (ok)
			copy(out, cap, "1");
		toks_free(&gt);
		return ok;
	}
	for (i = a; i < e && ok; ) {
		size_t best = 0;
		int bp = -1;
		for (n = 0; n < k->np; n++) {
			const char *s = json_string_value(json_array_get(args,
			    (size_t)n));
			if (s == NULL || k->p[n].ptr || k->p[n].is_struct)
				continue;
			tokenize(s, &at);
			for (j = 0; j < at.n && i + j < e &&
			    strcmp(at.v[j], gt.v[i + j]) == 0; j++)
				;
			if (j == at.n && j > best) {
				best = j;
				bp = n;
			}
			toks_free(&at);
		}
		if (bp >= 0) {
			/* the argument, a term of its own */
			tok_push(&mt, k->p[bp].name, strlen(k->p[bp].name));
			i += best;
			continue;
		}
		if (is_ident(gt.v[i]) && !const_get(&k->c, gt.v[i], &v))
			ok = 0;
		else
			tok_push(&mt, gt.v[i], strlen(gt.v[i]));
		i++;
	}
	if (ok && mt.n > 0)
		ok = param_expr(k, &mt, 0, mt.n, out, cap);
	else
		ok = 0;
	if (ok)
		mark_size_str(k, out);
	toks_free(&gt);
	toks_free(&mt);
	return ok;
}

/* Grid dimension d from the launch site kwrap follows, else from any
 * other launch site of the kernel that spells it. */
int
site_grid(struct kern *k, int d, char *out, size_t cap)
{
	json_t *all = json_object_get(json_object_get(k->rec, "scan"),
	    "launches"), *l;
	size_t i;

	if (k->site != NULL && grid_at(k, k->site, d, out, cap))
		return 1;
	json_array_foreach(all, i, l)
		if (l != k->site && grid_at(k, l, d, out, cap))
			return 1;
	return 0;
}
