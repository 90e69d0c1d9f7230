/*
 * Multi-block cases (man kwrap, "Multi-block cases").  Where the grid
 * grows with a size ("(c + 255) / 256") and every case's size is small,
 * every case runs one block: blockIdx.x is 0 throughout, and a mutant of
 * what the kernel does with it ("blockIdx.x * per_block" made
 * "blockIdx.x / per_block", "+ blockIdx.x" made "- blockIdx.x") computes
 * the same in every case and survives.
 *
 * For each dimension whose blockIdx (or gridDim) the kernel's body
 * names, where the spec's grid in that dimension is an expression of
 * integer scalars and no case gives a grid of two blocks or more there, one
 * case is added, cloned from the first: the first integer scalar of the
 * grid's expression (a field of a struct too, "p.c") that case 0 gives
 * a value of 1 or more is multiplied by the
 * least factor (2 to 64) that makes the grid two blocks or more (and
 * every scalar that takes its value in every case with it: the same
 * dimension of two tensors, x.size0 and y.size0), where
 * the case fits (the launch at least 1 everywhere, every buffer within
 * kwrap's bound).  At most one case a dimension, named multi_block,
 * multi_block_y and multi_block_z; kverify runs the mutants' memcheck on
 * them too.  A case whose size the reference cannot run (another scalar
 * was tied to the one scaled) is left out by kverify, as any case the
 * reference fails.
 */
#include "kwrap.h"
#include "mtok.h"

#define MAX_FACTOR 64

static int
tk(const char *c, const struct mtoks *t, size_t i, const char *w)
{
	return i < t->n && mt_is(c, t, i, w);
}

/* Whether the body [a, b) names blockIdx.<m> or gridDim.<m>. */
static int
names_dim(const char *c, const struct mtoks *t, size_t a, size_t b,
    const char *m)
{
	size_t i;

	for (i = a; i + 2 < b; i++)
		if ((tk(c, t, i, "blockIdx") || tk(c, t, i, "gridDim")) &&
		    tk(c, t, i + 1, ".") && tk(c, t, i + 2, m))
			return 1;
	return 0;
}

/* Whether expression s names n as a whole name (not a member's tail,
 * not the head of a longer one). */
static int
names(const char *s, const char *n)
{
	size_t l = strlen(n);
	const char *p;

	for (p = s; (p = strstr(p, n)) != NULL; p++) {
		char before = p == s ? ' ' : p[-1], after = p[l];
		if (!isalnum((unsigned char)before) && before != '_' &&
		    before != '.' && !isalnum((unsigned char)after) &&
		    after != '_' && after != '.')
			return 1;
	}
	return 0;
}

/* Whether scalar a and scalar b take one value in every case. */
static int
tied(json_t *cases, const char *a, const char *b)
{
	json_t *cs, *x, *y;
	size_t i;

	json_array_foreach(cases, i, cs) {
		x = json_object_get(json_object_get(cs, "scalars"), a);
		y = json_object_get(json_object_get(cs, "scalars"), b);
		if (!json_is_integer(x) || !json_is_integer(y) ||
		    json_integer_value(x) != json_integer_value(y))
			return 0;
	}
	return 1;
}

/* Case c1's scalar n at v, and every scalar tied to n (one value with
 * it in every case: the same dimension of two tensors) with it. */
static void
scale(json_t *cases, json_t *c1, const char *n, long long v)
{
	json_t *sc = json_object_get(c1, "scalars"), *x;
	const char *key;
	void *tmp;

	json_object_foreach_safe(sc, tmp, key, x)
		if (strcmp(key, n) != 0 && tied(cases, key, n))
			json_object_set_new(sc, key, json_integer(v));
	json_object_set_new(sc, n, json_integer(v));
}

void
kw_grid_cases(const char *code, const char *kernel, json_t *spec, int budget)
{
	static const char *const dims[] = { "x", "y", "z" };
	static const char *const names_of[] = { "multi_block", "multi_block_y",
		"multi_block_z" };
	json_t *cases = json_object_get(spec, "cases"), *base, *cs, *x;
	json_t *grid = json_object_get(json_object_get(spec, "launch"), "grid");
	struct mtoks t = { 0 };
	struct toks all = { 0 };
	struct consts slice = { 0 };
	size_t a, b, i, d;
	json_int_t seed;
	const char *n;
	int added = 0;

	if (!json_is_array(grid) || !kw_case_start(code, kernel, cases, budget,
	    &t, &a, &b, &base, &seed))
		return;
	tokenize(code, &all);
	collect_consts(code, &all, &slice);
	for (d = 0; d < 3 && d < json_array_size(grid) && added < budget; d++) {
		json_t *gd = json_array_get(grid, d);
		const char *expr = json_string_value(gd);
		int many = 0;
		if (expr == NULL || !names_dim(code, &t, a, b, dims[d]))
			continue;
		json_array_foreach(cases, i, cs) {
			struct consts bound = { 0 };
			long long v;
			kw_case_bind(&bound, &slice, cs);
			if (!kw_case_value(gd, &bound, &v) || v >= 2)
				many = 1;	/* or unknown: leave it */
			consts_free(&bound);
			if (many)
				break;
		}
		if (many)
			continue;
		json_object_foreach(json_object_get(base, "scalars"), n, x) {
			long long v0, f, v;
			int done = 0;
			if (!json_is_integer(x) || !names(expr, n) ||
			    (v0 = json_integer_value(x)) < 1)
				continue;
			for (f = 2; f <= MAX_FACTOR && !done; f++) {
				struct consts bound = { 0 };
				json_t *c1 = json_deep_copy(base);
				scale(cases, c1, n, v0 * f);
				kw_case_bind(&bound, &slice, c1);
				if (kw_case_value(gd, &bound, &v) && v >= 2 &&
				    kw_case_fits(spec, &bound, 0)) {
					json_object_set_new(c1, "name",
					    json_string(names_of[d]));
					json_object_set_new(c1, "seed",
					    json_integer(seed++));
					json_array_append(cases, c1);
					added++;
					done = 1;
				}
				json_decref(c1);
				consts_free(&bound);
			}
			if (done)
				break;
		}
	}
	consts_free(&slice);
	toks_free(&all);
	free(t.v);
}
