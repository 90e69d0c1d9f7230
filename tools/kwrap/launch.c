/*
 * kwrap: the launch: block, grid and dynamic shared memory.
 */
#include "kwrap.h"

/* The text of launch site l's key as kscan resolved it to the
 * launcher's parameters and constants (launches[].resolved), or NULL. */
static const char *
resolved(json_t *l, const char *key)
{
	return k_get_str(json_object_get(l, "resolved"), key);
}

/* A block dimension t[a..b) that is constant, or that the launcher
 * picks from two constants by a scalar (h < 16 ? 4 : 8): the larger, a
 * shape the launcher launches with, which a case's scalar may not pick
 * (kwrap launches one block shape for every case). */
static int
block_dim(struct kern *k, const struct toks *t, size_t a, size_t b,
    long long *v)
{
	static const char *const quest[] = { "?", NULL };
	static const char *const colon[] = { ":", NULL };
	long long x, y;
	size_t q, c;

	if (eval_range(t, a, b, &k->c, v))
		return 1;
	while (a < b && is(t, a, "(") && skip_group(t, a) == b) {
		a++;
		b--;
	}
	q = expr_end(t, a, quest);
	if (q >= b || !is(t, q, "?"))
		return 0;
	c = expr_end(t, q + 1, colon);
	if (c >= b || !is(t, c, ":") || !eval_range(t, q + 1, c, &k->c, &x) ||
	    !eval_range(t, c + 1, b, &k->c, &y))
		return 0;
	*v = x > y ? x : y;
	return 1;
}

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
		if (!block_dim(k, &bt, a, e, &v) || v <= 0 || v > 1024) {
			k->block[0] = 0;
			k->block[1] = k->block[2] = 1;
			break;
		}
		k->block[d] = v;
		a = e + 1;
	}
	toks_free(&bt);
}

/* The threads of a CUB block collective the kernel instantiates
 * (cub::BlockLoad<T, 128, 4>, hipcub::BlockReduce<float, THREADS>):
 * its second template argument is the block's x extent, which the
 * collective requires blockDim.x to equal.  Only a name qualified by a
 * namespace that ends in "cub" (cub, hipcub, a project's alias of it)
 * counts: a project's own BlockReduce may mean something else.  0 when
 * the kernel has none or its argument is no constant. */
static long long
cub_block(struct kern *k)
{
	static const char *const coll[] = { "BlockLoad", "BlockStore",
		"BlockReduce", "BlockScan", "BlockRadixSort", "BlockExchange",
		"BlockHistogram", "BlockDiscontinuity",
		"BlockAdjacentDifference", "BlockShuffle", "BlockMergeSort",
		NULL };
	static const char *const comma[] = { ",", ">", NULL };
	const struct toks *t = &k->t;
	size_t i, a, e, n;
	long long v;
	int c;

	for (i = 2; i + 3 < t->n; i++) {
		for (c = 0; coll[c] != NULL && !is(t, i, coll[c]); c++)
			;
		if (coll[c] == NULL || !is(t, i - 1, "::") ||
		    !is(t, i + 1, "<") || (n = strlen(t->v[i - 2])) < 3 ||
		    strcmp(t->v[i - 2] + n - 3, "cub") != 0)
			continue;
		/* the first argument (a type, perhaps a template's) */
		a = expr_end(t, i + 2, comma);
		while (a < t->n && is(t, a, ">"))	/* T<U> as the first */
			a = expr_end(t, a + 1, comma);
		if (!is(t, a, ","))
			continue;
		e = expr_end(t, a + 1, comma);
		if (eval_range(t, a + 1, e, &k->c, &v) && v > 0 && v <= 1024)
			return v;
	}
	return 0;
}

/* Whether array name is indexed by the thread's index somewhere:
 * name[threadIdx.x], or name[v] with "v = threadIdx.x;" in the kernel. */
static int
by_thread(const struct toks *t, const char *name)
{
	size_t i, j;

	for (i = 0; i + 4 < t->n; i++) {
		if (!is(t, i, name) || !is(t, i + 1, "["))
			continue;
		if (is(t, i + 2, "threadIdx") && is(t, i + 3, ".") &&
		    is(t, i + 4, "x") && i + 5 < t->n && is(t, i + 5, "]"))
			return 1;
		if (!is(t, i + 3, "]"))
			continue;
		for (j = 1; j + 5 < t->n; j++)
			if (is(t, j, t->v[i + 2]) && is(t, j + 1, "=") &&
			    is(t, j + 2, "threadIdx") && is(t, j + 3, ".") &&
			    is(t, j + 4, "x") && is(t, j + 5, ";"))
				return 1;
	}
	return 0;
}

/* The block: from the launch site when its expression is a constant,
 * else a CUB block collective's threads, else __launch_bounds__, else a
 * default; a shared array sized N and
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
	/* the site's block resolved to a constant (a dim3 local, a macro,
	 * a constexpr), else as the site spells it */
	block_at(k, resolved(k->site, "block"));
	if (k->block[0] == 0)
		block_at(k, bexpr);
	if (k->block[0] == 0) {
		/* another launch site of the kernel that spells it */
		json_t *all = json_object_get(json_object_get(k->rec, "scan"),
		    "launches"), *l;
		json_array_foreach(all, i, l) {
			block_at(k, resolved(l, "block"));
			if (k->block[0] == 0)
				block_at(k, k_get_str(l, "block"));
			if (k->block[0] != 0)
				break;
		}
	}
	if (k->block[0] == 0 && (v = cub_block(k)) > 0) {
		k->block[0] = v;
		k->block[1] = k->block[2] = 1;
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
	/* where the block is a guess, a shared array sized N and indexed
	 * by the thread's index caps it; a block the launch site, a CUB
	 * collective or __launch_bounds__ gives stands (an array of one
	 * element a warp, "__shared__ float part[32]" under 1024 threads,
	 * is indexed by the warp) */
	for (i = 0; k->block_state == 1 && i + 4 < t->n; i++)
		if (is(t, i, "__shared__") && !is(t, i - 1, "extern")) {
			size_t j = i + 1;
			while (j < t->n && !is(t, j, "[") && !is(t, j, ";"))
				j++;
			if (is(t, j, "[") && j > i + 1) {
				size_t e = skip_group(t, j) - 1;
				if (eval_range(t, j + 1, e, &k->c, &v) && v > 0 &&
				    v < k->block[0] * k->block[1] &&
				    k->dims == 1 && v >= 32 &&
				    by_thread(t, t->v[j - 1]))
					k->block[0] = v;
			}
		}
}

static int grid_at(struct kern *k, json_t *l, int d, char *out, size_t cap);

/* The block step of a global index: in v = blockIdx.x * C + t, or v =
 * b + t with the block-index local b = blockIdx.x * C, the constant C
 * (a block covers C elements of the index, whatever its threads); 0
 * when v's definition spells no such product at its top level (then
 * blockIdx.x * blockDim.x, the block's size, is taken). */
static long long
global_step(struct kern *k, const struct var *v, int depth)
{
	const struct toks *t = &k->t;
	struct var *w;
	size_t i;
	long long c;
	int paren = 0;

	for (i = v->a; i < v->b && i < t->n; i++) {
		if (is(t, i, "(") || is(t, i, "["))
			paren++;
		else if (is(t, i, ")") || is(t, i, "]"))
			paren--;
		if (paren != 0)
			continue;
		if (is(t, i, "blockIdx") && is(t, i + 1, ".")) {
			/* blockIdx.x * C or C * blockIdx.x, a term of
			 * the sum */
			if (is(t, i + 3, "*") && i + 4 < v->b &&
			    (i + 5 == v->b || is(t, i + 5, "+")) &&
			    (i == v->a || is(t, i - 1, "+")) &&
			    eval_range(t, i + 4, i + 5, &k->c, &c) && c > 0)
				return c;
			if (i >= v->a + 2 && is(t, i - 1, "*") &&
			    (i - 2 == v->a || is(t, i - 3, "+")) &&
			    (i + 3 == v->b || is(t, i + 3, "+")) &&
			    eval_range(t, i - 2, i - 1, &k->c, &c) && c > 0)
				return c;
			return 0;
		}
		if (depth < 2 && is_ident(t->v[i]) && !is(t, i - 1, ".") &&
		    (w = var_get(k, t->v[i])) != NULL && w != v &&
		    w->kind == V_BLOCK && w->dim == v->bdim &&
		    (i == v->a || is(t, i - 1, "+")) &&
		    (i + 1 == v->b || is(t, i + 1, "+")))
			return global_step(k, w, depth + 1);
	}
	return 0;
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
	k->say_caps = say;
	for (d = 0; d < 3; d++) {
		const char *dom = NULL;
		const struct var *dv = NULL;
		long long step;
		int kind = -1, td = d;
		/* the grid a launch site spells in the kernel's parameters,
		 * with the block it spells too, is the project's own */
		if (k->block_state == 2 && k->site != NULL &&
		    grid_at(k, k->site, d, k->grid[d], sizeof(k->grid[d])))
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
				dv = vv;
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
			/* a block covers step elements of the index: its
			 * own constant product, else the block's threads */
			char pd[MAX_EXPR];
			if ((step = global_step(k, dv, 0)) <= 0)
				step = k->block[td];
			paren(dom, pd, sizeof(pd));
			if (step == 1)
				copy(k->grid[d], sizeof(k->grid[d]), dom);
			else
				bprintf(k->grid[d], sizeof(k->grid[d]),
				    "(%s + %lld) / %lld", pd, step - 1, step);
		}
	}
	if (k->grid_state == 2 && strcmp(k->grid[0], "1") == 0 &&
	    strcmp(k->grid[1], "1") == 0) {
		int any = 0, own = 0, far = 0;
		size_t i;
		for (n = 0; n < k->nv; n++)
			any |= k->v[n].kind == V_GLOBAL ||
			    k->v[n].kind == V_BLOCK;
		/* blockIdx (or a cooperative group's group_index())
		 * spelled in the kernel's text, or only in the slice's
		 * functions (those the kernel calls) */
		for (i = 0; i < k->t.n && !own; i++)
			own = is(&k->t, i, "blockIdx") ||
			    is(&k->t, i, "group_index");
		for (i = 0; i < k->all.n && !own && !far; i++)
			far = is(&k->all, i, "blockIdx") ||
			    is(&k->all, i, "group_index");
		if (!any && say)
			guess(k, "%s", own ? "grid: one block (the kernel's "
			    "block index has no bound kwrap found)" : far ?
			    "grid: one block (a block index is used only in "
			    "functions the kernel calls, whose range kwrap "
			    "does not widen)" :
			    "grid: one block (no block index is used)");
	}
}

static int site_expr(struct kern *k, json_t *args, const struct toks *gt,
    size_t a, size_t e, char *out, size_t cap);

/* Whether the slice defines name (a struct, a class or a function) with
 * an extern __shared__ array in its body: SharedMemory<T>. */
static int
shared_helper(struct kern *k, const char *name)
{
	const struct toks *t = &k->all;
	size_t i, j, e;

	for (i = 0; i < t->n; i++) {
		if (!is(t, i, name) || is(t, i - 1, "::") || is(t, i - 1, "."))
			continue;
		for (j = i + 1; j < t->n && j < i + 64 && !is(t, j, ";") &&
		    !is(t, j, "{") && !is(t, j, "="); j++)
			;
		if (!is(t, j, "{"))
			continue;
		e = skip_group(t, j);
		for (; j + 1 < e; j++)
			if (is(t, j, "extern") && is(t, j + 1, "__shared__"))
				return 1;
	}
	return 0;
}

/* The local the kernel takes its dynamic shared memory through when it
 * declares no extern __shared__ array itself: T *s = SharedMemory<T>(),
 * or a cast of it.  Its name into name, its token into pos, and its
 * element type; NULL when
 * there is none or its type is not one kwrap knows. */
const struct k_dtype *
shared_local(struct kern *k, char *name, size_t cap, size_t *pos)
{
	const struct toks *t = &k->t;
	json_t *inst = json_object_get(json_object_get(k->rec, "slice"),
	    "instance");
	char ty[128];
	size_t i, j, c, s;

	for (i = k->body; i + 4 < t->n; i++) {
		if (!is(t, i, "*") || !is_ident(t->v[i + 1]) ||
		    !is(t, i + 2, "="))
			continue;
		j = i + 3;
		if (is(t, j, "(") && (c = skip_group(t, j)) < t->n &&
		    is_ident(t->v[c]))
			j = c;		/* (T *)SharedMemory<T>() */
		if (!is_ident(t->v[j]) || is_keyword(t->v[j]))
			continue;
		c = j + 1;
		if (is(t, c, "<")) {
			int depth = 0;
			for (; c < t->n; c++)
				if (is(t, c, "<"))
					depth++;
				else if (is(t, c, ">") && --depth == 0)
					break;
			c++;
		}
		if (!is(t, c, "(") || !is(t, c + 1, ")") ||
		    !is(t, c + 2, ";") || !shared_helper(k, t->v[j]))
			continue;
		for (s = i; s > k->body && !is(t, s - 1, ";") &&
		    !is(t, s - 1, "{") && !is(t, s - 1, "}"); s--)
			;
		join(t, s, i, ty, sizeof(ty));
		{
			char b[128];
			base_type(ty, inst, b, sizeof(b));
			copy(name, cap, t->v[i + 1]);
			*pos = i + 1;
			return k_dtype_c(b);
		}
	}
	return NULL;
}

/* sizeof(X) in a launcher's expression, X a scalar type or a template
 * parameter the instance binds to one (sizeof(U), U float): its bytes. */
static void
sizeof_subst(struct kern *k, struct toks *st)
{
	const struct k_dtype *dt;
	size_t j, x;

	for (j = 0; j + 3 < st->n; j++) {
		if (!is(st, j, "sizeof") || !is(st, j + 1, "(") ||
		    !is(st, j + 3, ")"))
			continue;
		if ((dt = bound_dtype(k, st->v[j + 2])) == NULL)
			continue;
		for (x = j; x < j + 4; x++)
			free(st->v[x]);
		st->v[j] = k_asprintf("%d", dt->size);
		memmove(&st->v[j + 1], &st->v[j + 4],
		    (st->n - j - 4) * sizeof(st->v[0]));
		st->n -= 3;
	}
}

/* Whether tokens t declare an extern __shared__ array anywhere. */
static int
has_extern_shared(const struct toks *t)
{
	size_t i;

	for (i = 0; i + 1 < t->n; i++)
		if (is(t, i, "extern") && is(t, i + 1, "__shared__"))
			return 1;
	return 0;
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
	const struct k_dtype *ldt = NULL;
	char lname[64];
	size_t lpos;
	long long v;
	size_t i;
	int far = 0;

	k->shared_state = 2;
	copy(k->shared, sizeof(k->shared), "0");
	for (i = 0; i + 3 < t->n; i++)
		if (is(t, i, "extern") && is(t, i + 1, "__shared__"))
			break;
	if (i + 3 >= t->n)
		ldt = shared_local(k, lname, sizeof(lname), &lpos);
	if (i + 3 >= t->n && ldt == NULL)
		/* the array is a helper's or a class's of the slice
		 * (SharedMemory<U> shared; shared.getPointer() in a device
		 * function the kernel calls): the launcher's bytes */
		far = has_extern_shared(&k->all);
	if (i + 3 < t->n || ldt != NULL || far) {
		char buf[MAX_EXPR] = "";
		struct toks st = { 0 };
		int ok = 0;
		const char *rs = resolved(k->site, "shared_mem");
		if (rs != NULL) {
			/* the launcher's bytes, in the kernel's parameters */
			tokenize(rs, &st);
			sizeof_subst(k, &st);
			join(&st, 0, st.n, buf, sizeof(buf));
			if (eval_str(buf, &k->c, &v) && v >= 0) {
				/* a constant: 4 > 1 ? 4 * 4 + 2 * 4 : 0 */
				snprintf(k->shared, sizeof(k->shared), "%lld", v);
				toks_free(&st);
				return;
			}
			if (site_expr(k, json_object_get(json_object_get(
			    k->site, "resolved"), "args"), &st, 0, st.n, buf,
			    sizeof(buf))) {
				if (eval_str(buf, &k->c, &v) && v >= 0)
					snprintf(k->shared, sizeof(k->shared),
					    "%lld", v);
				else
					copy(k->shared, sizeof(k->shared), buf);
				toks_free(&st);
				return;
			}
			toks_free(&st);
		}
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
			const struct k_dtype *dt = ldt != NULL ? ldt :
			    i + 3 < t->n ? k_dtype_c(t->v[i + 2]) : NULL;
			int sz = dt != NULL ? dt->size : 8;
			snprintf(k->shared, sizeof(k->shared), "%lld",
			    k->block[0] * k->block[1] * sz);
			k->shared_state = 1;
			snprintf(k->shared_guess, sizeof(k->shared_guess),
			    "shared_mem: one %s per thread of the block",
			    ldt != NULL ? dt->name : dt != NULL ? t->v[i + 2] :
			    "8-byte word");
		}
	}
}

/* Whether launch site l instantiates the kernel with the instance's
 * values: where both spell an integer in a position of the template
 * arguments (kernel<T, 4> for the instance <float, 4>), they agree. */
static int
site_agrees(json_t *l, json_t *inst, const struct consts *c)
{
	json_t *ta = json_object_get(l, "template_args"), *v;
	const char *key;
	long long a, b;
	size_t i = 0;

	json_object_foreach(inst, key, v) {
		const char *s = json_string_value(json_array_get(ta, i++));
		if (s != NULL && json_is_string(v) && eval_str(s, c, &a) &&
		    eval_str(json_string_value(v), c, &b) && a != b)
			return 0;
	}
	return 1;
}

/* The launch site that carries the arguments: scan.launches' entry at
 * slice.launch's "from" (file:line), else the one slice.launch is; a
 * site that instantiates other template values (one site per case of a
 * switch on them) gives way to the first that agrees with the
 * instance. */
json_t *
launch_site(json_t *rec, json_t *launch, const struct consts *c)
{
	json_t *all = json_object_get(json_object_get(rec, "scan"), "launches");
	json_t *inst = json_object_get(json_object_get(rec, "slice"),
	    "instance");
	const char *from = k_get_str(launch, "from");
	json_t *l, *site = NULL;
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
		if (strcmp(at, from) == 0) {
			site = l;
			break;
		}
	}
	if (site != NULL && !site_agrees(site, inst, c))
		json_array_foreach(all, i, l)
			if (site_agrees(l, inst, c) && json_is_array(
			    json_object_get(l, "args"))) {
				site = l;
				break;
			}
	return site;
}

/* Grid dimension d as launch site l spells it, its terms replaced by
 * the parameters their argument expressions are passed to: in
 * k<<<dim3(w, r), 256>>>(x, r) with k(float *x, int rows) grid.y is
 * rows.  A term that is no argument and no constant makes no grid. */
static int
is_num(const char *s)
{
	return isdigit((unsigned char)*s) && strspn(s, "0123456789") ==
	    strlen(s);
}

static int
is_addop(const struct toks *t, size_t i)
{
	return is(t, i, "+") || is(t, i, "-");
}

/* Whether the group opened at t[i] holds only a product at its top
 * level: names, numbers, calls and * / %, no other operator. */
static int
product_group(const struct toks *t, size_t i)
{
	size_t e = skip_group(t, i) - 1, j;
	int depth = 0, op = 0;

	if (e <= i + 1 || e >= t->n)
		return 0;
	for (j = i + 1; j < e; j++) {
		const char *s = t->v[j];
		if (strcmp(s, "(") == 0 || strcmp(s, "[") == 0)
			depth++;
		else if (strcmp(s, ")") == 0 || strcmp(s, "]") == 0)
			depth--;
		else if (depth == 0 && (strcmp(s, "*") == 0 ||
		    strcmp(s, "/") == 0 || strcmp(s, "%") == 0))
			op = 1;
		else if (depth == 0 && !is_ident(s) &&
		    !isdigit((unsigned char)*s) && strcmp(s, ".") != 0)
			return 0;
	}
	return op;
}

/* Folds "+ 256 - 1" in an expression to "+ 255", as a launcher's
 * (n + THREADS - 1) / THREADS reads once its macro is expanded: the
 * ceil-division that the index ranges are read against. */
static int
fold_sums(char *e, size_t cap)
{
	struct toks t = { 0 }, o = { 0 };
	size_t i;
	char num[32];
	int stripped = 0, changed;

	tokenize(e, &t);
	for (i = 0; i < t.n; i++) {
		/* ( n ) and ( ( a + b ) ): one pair of parentheses that no
		 * call needs is enough */
		if (!stripped && is(&t, i, "(") &&
		    (i == 0 || !is_ident(t.v[i - 1])) &&
		    i + 2 < t.n && ((is(&t, i + 2, ")") && !is(&t, i + 1, "(")) ||
		    (i == 0 && skip_group(&t, 0) == t.n) ||
		    (is(&t, i + 1, "(") && skip_group(&t, i + 1) ==
		    skip_group(&t, i) - 1))) {
			size_t c = skip_group(&t, i) - 1;
			free(t.v[c]);
			t.v[c] = k_strdup(" ");
			stripped = 1;
			continue;
		}
		/* a product in parentheses as a term of a sum: (a * b) + c
		 * is a * b + c, the form the index ranges are read in */
		if (!stripped && is(&t, i, "(") && (i == 0 ||
		    is(&t, i - 1, "(") || is_addop(&t, i - 1) ||
		    is(&t, i - 1, ",")) && product_group(&t, i)) {
			size_t c = skip_group(&t, i) - 1;
			if (c + 1 == t.n || is(&t, c + 1, ")") ||
			    is_addop(&t, c + 1) || is(&t, c + 1, ",")) {
				free(t.v[c]);
				t.v[c] = k_strdup(" ");
				stripped = 1;
				continue;
			}
		}
		if (is(&t, i, " "))
			continue;
		if (i > 0 && is_addop(&t, i) && i + 3 < t.n &&
		    is_num(t.v[i + 1]) && is_addop(&t, i + 2) &&
		    is_num(t.v[i + 3]) && strlen(t.v[i + 1]) < 12 &&
		    strlen(t.v[i + 3]) < 12 && !is(&t, i + 4, "*") &&
		    !is(&t, i + 4, "/") && !is(&t, i + 4, "%") &&
		    !is(&t, i - 1, "(") && !is_addop(&t, i - 1)) {
			long long v = (is(&t, i, "-") ? -1 : 1) *
			    atoll(t.v[i + 1]) + (is(&t, i + 2, "-") ? -1 : 1) *
			    atoll(t.v[i + 3]);
			if (v != 0) {
				tok_push(&o, v < 0 ? "-" : "+", 1);
				snprintf(num, sizeof(num), "%lld", v < 0 ? -v : v);
				tok_push(&o, num, strlen(num));
			}
			i += 3;
			continue;
		}
		tok_push(&o, t.v[i], strlen(t.v[i]));
	}
	changed = o.n < t.n;
	if (changed)
		join(&o, 0, o.n, e, cap);
	toks_free(&t);
	toks_free(&o);
	return changed;
}

/* t with every parenthesized group that is a constant replaced by its
 * value: ((W < 32) ? W : 32) with W a constexpr of the kernel is 16, a
 * term param_expr can read. */
static void
fold_groups(struct kern *k, struct toks *t)
{
	struct toks o = { 0 };
	size_t i, c;
	long long v;
	char num[32];

	for (i = 0; i < t->n; i++) {
		if (is(t, i, "(") && (i == 0 || !is_ident(t->v[i - 1])) &&
		    (c = skip_group(t, i) - 1) < t->n &&
		    eval_range(t, i + 1, c, &k->c, &v)) {
			snprintf(num, sizeof(num), "%lld", v);
			tok_push(&o, num, strlen(num));
			i = c;
			continue;
		}
		tok_push(&o, t->v[i], strlen(t->v[i]));
	}
	toks_free(t);
	*t = o;
}

/* A name of the launcher that is only a factor of a product passed as a
 * scalar argument: k<<<dim3(q / 16, h, b)>>>(..., b * h * q) with
 * k(..., int rows).  The launcher's values are taken where every factor
 * but the product's last is 1, the last is the parameter: grid (rows /
 * 16, 1, 1).  Its text into out; 0 when name is no such factor (or a
 * factor is an argument of its own, a * e with e passed too: a would
 * be a quotient the cases cannot keep at 1 or more). */
static int
factor_value(struct kern *k, json_t *args, const char *name, char *out,
    size_t cap)
{
	struct toks at = { 0 };
	int n, m, found = 0, free_only;
	size_t j;

	for (n = 0; n < k->np && !found; n++) {
		const char *s = json_string_value(json_array_get(args,
		    (size_t)n));
		int product = 1, mine = 0;
		if (s == NULL || k->p[n].ptr || k->p[n].is_struct)
			continue;
		tokenize(s, &at);
		for (j = 0; j < at.n; j++)
			if (j % 2 ? !is(&at, j, "*") : !is_ident(at.v[j]))
				product = 0;
		free_only = product && at.n >= 3 && at.n % 2 == 1;
		for (j = 0; free_only && j < at.n; j += 2) {
			for (m = 0; m < k->np; m++) {
				const char *o = json_string_value(
				    json_array_get(args, (size_t)m));
				if (m != n && o != NULL && strcmp(o,
				    at.v[j]) == 0)
					free_only = 0;
			}
			mine |= strcmp(at.v[j], name) == 0;
		}
		if (free_only && mine) {
			found = 1;
			copy(out, cap, strcmp(at.v[at.n - 1], name) == 0 ?
			    k->p[n].name : "1");
		}
		toks_free(&at);
	}
	return found;
}

/* Tokens gt[a..e) of a launch expression with every argument
 * expression replaced by the parameter it is passed to: in
 * k<<<(len + 255) / 256, 256>>>(p, len) with k(float *p, int n),
 * (len + 255) / 256 is (n + 255) / 256.  A term that is no argument and
 * no constant makes no expression. */
/* The kernel's own parameters, which a launch site passes arguments
 * for: the buffers of struct members (byvalue.c) come after them. */
static size_t
own_params(const struct kern *k)
{
	int n = 0, i;

	for (i = 0; i < k->np; i++)
		if (k->p[i].member_of < 0)
			n++;
	return (size_t)n;
}

/* Where gt[i..] reads tensor.size(d), d a whole number, and a launch
 * argument is tensor.packed_accessor..() for an accessor parameter of
 * rank above d: that parameter's index, d in *dim; else -1.  A launcher
 * sizes its grid by the tensor whose accessor it passes
 * (dim3 blocks(x.size(0))), and the case's value of that size is the
 * accessor's size field. */
static int
tensor_size(struct kern *k, json_t *args, const struct toks *gt, size_t i,
    size_t e, int *dim)
{
	struct toks at = { 0 };
	int n, d, found = -1;

	if (i + 5 >= e || !is_ident(gt->v[i]) || !is(gt, i + 1, ".") ||
	    !is(gt, i + 2, "size") || !is(gt, i + 3, "(") ||
	    !is_num(gt->v[i + 4]) || !is(gt, i + 5, ")"))
		return -1;
	d = atoi(gt->v[i + 4]);
	for (n = 0; n < k->np && found < 0; n++) {
		const char *s = json_string_value(json_array_get(args,
		    (size_t)n));
		if (s == NULL || k->p[n].accessor <= d)
			continue;
		tokenize(s, &at);
		if (at.n >= 3 && strcmp(at.v[0], gt->v[i]) == 0 &&
		    is(&at, 1, ".") && (strncmp(at.v[2], "packed_accessor",
		    15) == 0 || strcmp(at.v[2], "generic_packed_accessor") ==
		    0))
			found = n;
		toks_free(&at);
	}
	*dim = d;
	return found;
}

/* A launch argument's tokens: the size of a tensor the launcher has just
 * made, (torch::empty({rows, cols}, opts)).size(0) as kscan resolves
 * out.size(0), is the size it was made with, rows.  Factories that take
 * the sizes first: empty, zeros, ones, full, rand, randn, and a tensor's
 * new_empty, new_zeros, new_ones, new_full. */
static void
arg_toks(const char *s, struct toks *at)
{
	static const char *const ctor[] = { "empty", "zeros", "ones", "full",
	    "rand", "randn", "new_empty", "new_zeros", "new_ones", "new_full",
	    NULL };
	static const char *const comma[] = { ",", NULL };
	struct toks o = { 0 };
	size_t n, e, c, i, it;
	long long d;
	int j, neg = 0;

	tokenize(s, at);
	n = at->n;
	/* ... . size ( d ) at the end */
	if (n < 10 || !is(at, n - 1, ")"))
		return;
	if (is(at, n - 3, "-") && is(at, n - 4, "(")) {
		neg = 1;
		n--;
	}
	if (!is(at, n - 3, "(") || !is(at, n - 4, "size") ||
	    !is(at, n - 5, ".") || !is_num(at->v[n - 2 + neg]))
		return;
	d = atoll(at->v[n - 2 + neg]);
	e = n - 5;
	/* ( call ) . size: the parentheses kscan's text keeps */
	i = 0;
	if (is(at, 0, "(") && skip_group(at, 0) == e) {
		i = 1;
		e--;
	}
	/* name ( { items } , ... ): the call must end at e */
	for (c = i; c < e && !is(at, c, "("); c++)
		;
	if (c == i || c + 1 >= e || !is(at, c + 1, "{") ||
	    skip_group(at, c) != e)
		return;
	for (j = 0; ctor[j] != NULL && strcmp(ctor[j], at->v[c - 1]) != 0;
	    j++)
		;
	if (ctor[j] == NULL)
		return;
	/* the items of { ... } */
	{
		size_t close = skip_group(at, c + 1) - 1, a[16], b[16];
		size_t na = 0;
		for (it = c + 2; it < close && na < 16; it = b[na++] + 1) {
			a[na] = it;
			b[na] = expr_end(at, it, comma);
			if (b[na] > close)
				b[na] = close;
		}
		if (neg)
			d = (long long)na - d;
		if (d < 0 || (size_t)d >= na || a[d] >= b[d])
			return;
		for (it = a[d]; it < b[d]; it++)
			tok_push(&o, at->v[it], strlen(at->v[it]));
	}
	toks_free(at);
	*at = o;
}

static int
site_expr(struct kern *k, json_t *args, const struct toks *gt, size_t a,
    size_t e, char *out, size_t cap)
{
	struct toks at = { 0 }, mt = { 0 };
	size_t i, j;
	long long v;
	int ok = 1, n;

	if (!json_is_array(args) || json_array_size(args) != own_params(k))
		return 0;
	for (i = a; i < e && ok; ) {
		size_t best = 0;
		int bp = -1, dim, pass;
		char fd[32];
		if ((n = tensor_size(k, args, gt, i, e, &dim)) >= 0) {
			/* the accessor's size field, as param_expr reads a
			 * struct's */
			snprintf(fd, sizeof(fd), "size%d", dim);
			tok_push(&mt, k->p[n].name, strlen(k->p[n].name));
			tok_push(&mt, ".", 1);
			tok_push(&mt, fd, strlen(fd));
			i += 6;
			continue;
		}
		for (n = 0; n < k->np; n++) {
			const char *s = json_string_value(json_array_get(args,
			    (size_t)n));
			if (s == NULL || k->p[n].ptr || k->p[n].is_struct)
				continue;
			/* the argument as written, then as the size its
			 * tensor was made with */
			for (pass = 0; pass < 2; pass++) {
				if (pass == 0)
					tokenize(s, &at);
				else
					arg_toks(s, &at);
				for (j = 0; j < at.n && i + j < e &&
				    strcmp(at.v[j], gt->v[i + j]) == 0; j++)
					;
				if (j == at.n && j > best) {
					best = j;
					bp = n;
				}
				toks_free(&at);
			}
		}
		if (bp >= 0) {
			/* the argument, a term of its own */
			tok_push(&mt, k->p[bp].name, strlen(k->p[bp].name));
			i += best;
			continue;
		}
		if (is_ident(gt->v[i]) && !const_get(&k->c, gt->v[i], &v) &&
		    !(strcmp(gt->v[i], "sizeof") == 0 && is(gt, i + 1, "(")) &&
		    !(i > a && is(gt, i - 1, "(") && is(gt, i + 1, ")") &&
		    k_dtype_c(gt->v[i]) != NULL)) {
			char fv[MAX_EXPR];
			if (factor_value(k, args, gt->v[i], fv, sizeof(fv))) {
				tokenize(fv, &at);
				for (j = 0; j < at.n; j++)
					tok_push(&mt, at.v[j], strlen(at.v[j]));
				toks_free(&at);
			} else
				ok = 0;
		} else
			tok_push(&mt, gt->v[i], strlen(gt->v[i]));
		i++;
	}
	if (ok && mt.n > 0) {
		fold_groups(k, &mt);
		ok = param_expr(k, &mt, 0, mt.n, out, cap);
	}
	else
		ok = 0;
	while (ok && fold_sums(out, cap))
		;
	if (ok && eval_str(out, &k->c, &v) && v >= 0)
		snprintf(out, cap, "%lld", v);	/* 1 * 1 is 1 */
	toks_free(&mt);
	return ok;
}

/* The scalar parameter launch argument text e is (a side of one of the
 * launcher's conditions), by the site's arguments args; -1 when it is
 * none. */
int
site_param(struct kern *k, json_t *args, const char *e)
{
	struct toks t = { 0 };
	char out[MAX_EXPR];
	int i, ok;

	tokenize(e, &t);
	ok = t.n > 0 && site_expr(k, args, &t, 0, t.n, out, sizeof(out));
	toks_free(&t);
	for (i = 0; ok && i < k->np; i++)
		if (strcmp(k->p[i].name, out) == 0)
			return i;
	return -1;
}

/* min(X, C) and max(X, C) (std:: or not) with C a constant, read as X:
 * a launcher caps its grid at C blocks (GET_BLOCKS' 4096, 65535) where
 * the kernel loops over the rest, and a case's sizes stay far below it.
 * Returns the number of calls read so. */
static int
drop_caps(struct kern *k, struct toks *t)
{
	static const char *const comma[] = { ",", NULL };
	struct toks o = { 0 };
	size_t i, j, c, e, x0, x1;
	long long v;
	int n = 0;

	for (i = 0; i < t->n; i++) {
		if ((is(t, i, "min") || is(t, i, "max")) && is(t, i + 1, "(") &&
		    !is(t, i - 1, ".") && !is(t, i - 1, "->")) {
			e = skip_group(t, i + 1) - 1;
			c = expr_end(t, i + 2, comma);
			if (c < e && is(t, c, ",") && expr_end(t, c + 1,
			    comma) == e) {
				x0 = x1 = 0;
				if (eval_range(t, c + 1, e, &k->c, &v) && v > 0) {
					x0 = i + 2;
					x1 = c;
				} else if (eval_range(t, i + 2, c, &k->c, &v) &&
				    v > 0) {
					x0 = c + 1;
					x1 = e;
				}
				if (x1 > x0) {
					/* ns::min: drop the qualifier too */
					while (o.n >= 2 &&
					    strcmp(o.v[o.n - 1], "::") == 0) {
						free(o.v[--o.n]);
						free(o.v[--o.n]);
					}
					tok_push(&o, "(", 1);
					for (j = x0; j < x1; j++)
						tok_push(&o, t->v[j],
						    strlen(t->v[j]));
					tok_push(&o, ")", 1);
					i = e;
					n++;
					continue;
				}
			}
		}
		tok_push(&o, t->v[i], strlen(t->v[i]));
	}
	toks_free(t);
	*t = o;
	return n;
}

/* Grid dimension d as text g of a launch site with arguments args. */
static int
grid_of(struct kern *k, const char *g, json_t *args, int d, char *out,
    size_t cap)
{
	static const char *const comma[] = { ",", NULL };
	struct toks gt = { 0 }, dt = { 0 };
	size_t a = 0, e, i;
	int ok, dd, caps;

	if (g == NULL || !json_is_array(args) ||
	    json_array_size(args) != own_params(k))
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
	/* this dimension's term alone, its caps read as the capped value */
	for (i = a; i < e; i++)
		tok_push(&dt, gt.v[i], strlen(gt.v[i]));
	caps = drop_caps(k, &dt);
	ok = site_expr(k, args, &dt, 0, dt.n, out, cap);
	toks_free(&dt);
	if (ok)
		mark_size_str(k, out);
	if (ok && caps > 0 && k->say_caps)
		guess(k, "grid.%c: the launcher's cap on the grid "
		    "(min(blocks, constant)) left out: cases stay below it",
		    'x' + d);
	toks_free(&gt);
	return ok;
}

/* Grid dimension d as launch site l spells it, first as kscan resolved
 * it (dim3 locals, macros and helpers followed to the launcher's
 * parameters), else as spelled. */
static int
grid_at(struct kern *k, json_t *l, int d, char *out, size_t cap)
{
	json_t *rargs = json_object_get(json_object_get(l, "resolved"),
	    "args");

	if (resolved(l, "grid") != NULL &&
	    grid_of(k, resolved(l, "grid"), rargs, d, out, cap))
		return 1;
	return grid_of(k, k_get_str(l, "grid"), json_object_get(l, "args"), d,
	    out, cap);
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
