/*
 * kwrap: texture objects.  A cudaTextureObject_t (hipTextureObject_t)
 * parameter is a handle the runtime makes: the harness builds what it
 * names, a read-only input kwrap describes in the spec (param.texture):
 * an array of the element type the kernel fetches, or linear memory for
 * tex1Dfetch, filled like any input buffer, read through clamped
 * addresses, point sampling and the element type (no conversion).
 *
 * What it needs comes from the fetches: tex1Dfetch<T>(t, i),
 * tex1D<T>(t, x), tex2D<T>(t, x, y) and their Lod and Grad forms,
 * tex3D<T>(t, x, y, z), tex1DLayered and tex2DLayered; tex2Dgather
 * names a two-dimensional texture but not its element type.  T, a
 * scalar or a CUDA vector type of 1, 2 or 4 lanes (through aliases and
 * the instance), gives the format and channels.  A texture the kernel
 * hands to a helper is followed into it.  The coordinates are
 * normalized (0 to 1 across the texture) when the value on the way to
 * one is divided by something that is not a constant (u /= (float)w) or
 * scaled by a constant under 1 (p.x * 0.5f + 0.5f), through the locals
 * it is computed from; otherwise they count texels.  A texture fetched
 * in two ways, with a type kwrap cannot tell, or never fetched keeps
 * byvalue.c's refusal.
 */
#include "kwrap.h"

static const struct {
	const char *fn;
	int kind;
	int typed;	/* T is the texture's element type */
} fetches[] = {
	{ "tex1Dfetch", TEX_LINEAR, 1 },
	{ "tex1D", TEX_1D, 1 }, { "tex1DLod", TEX_1D, 1 },
	{ "tex1DGrad", TEX_1D, 1 },
	{ "tex2D", TEX_2D, 1 }, { "tex2DLod", TEX_2D, 1 },
	{ "tex2DGrad", TEX_2D, 1 }, { "tex2Dgather", TEX_2D, 0 },
	{ "tex3D", TEX_3D, 1 }, { "tex3DLod", TEX_3D, 1 },
	{ "tex3DGrad", TEX_3D, 1 },
	{ "tex1DLayered", TEX_1D_LAYERED, 1 },
	{ "tex1DLayeredLod", TEX_1D_LAYERED, 1 },
	{ "tex1DLayeredGrad", TEX_1D_LAYERED, 1 },
	{ "tex2DLayered", TEX_2D_LAYERED, 1 },
	{ "tex2DLayeredLod", TEX_2D_LAYERED, 1 },
	{ "tex2DLayeredGrad", TEX_2D_LAYERED, 1 },
	{ NULL, 0, 0 }
};

/* the coordinates that address texels (not layers) */
static const int tex_coords[] = { 0, 1, 1, 2, 3, 1, 2 };

#define TEX_DEPTH 4	/* helpers deep, and locals followed */

struct seen {
	int kind;		/* TEX_*, or -1 when two fetches disagree */
	char type[128];		/* T, or "" */
	int typeless;		/* a fetch whose T is no element type */
	int norm;
	struct kern *k;
};

static int
fetch_of(const char *s, int *typed)
{
	int i;

	for (i = 0; fetches[i].fn != NULL; i++)
		if (strcmp(fetches[i].fn, s) == 0) {
			*typed = fetches[i].typed;
			return fetches[i].kind;
		}
	return 0;
}

/* The token after a run of casts and opening parentheses from i. */
static size_t
skip_casts(const struct toks *t, size_t i, size_t e)
{
	size_t j;

	while (i < e && is(t, i, "(")) {
		/* (float) or (unsigned int): a cast */
		for (j = i + 1; j < e && is_ident(t->v[j]) &&
		    (k_dtype_c(t->v[j]) != NULL || is_keyword(t->v[j])); j++)
			;
		i = j > i + 1 && is(t, j, ")") ? j + 1 : i + 1;
	}
	return i;
}

static int
is_number(const char *s)
{
	return (*s >= '0' && *s <= '9') || (*s == '.' && s[1] >= '0' &&
	    s[1] <= '9');
}

/* A float literal strictly between 0 and 1 (0.5f, .25). */
static int
fraction(const char *s)
{
	double v;

	if (!is_number(s) || strpbrk(s, ".eE") == NULL || strchr(s, 'x'))
		return 0;
	v = strtod(s, NULL);
	return v > 0 && v < 1;
}

static int norm_expr(const struct toks *t, size_t a, size_t b, size_t s,
    size_t e, int depth, const char **names, int *nn);

/* Whether what local name holds in the body [a, b) is scaled to a
 * normalized coordinate: its assignments' right sides. */
static int
norm_local(const struct toks *t, size_t a, size_t b, const char *name,
    int depth, const char **names, int *nn)
{
	static const char *const stop[] = { ";", ",", NULL };
	size_t i, j, e;
	int n;

	for (n = 0; n < *nn; n++)
		if (strcmp(names[n], name) == 0)
			return 0;
	if (*nn >= 16 || depth > TEX_DEPTH)
		return 0;
	names[(*nn)++] = name;
	for (i = a; i + 1 < b; i++) {
		if (!is(t, i, name) || is(t, i - 1, ".") || is(t, i - 1, "->"))
			continue;
		j = i + 1;
		/* p.x = ...: a member of the local */
		if (is(t, j, ".") && j + 2 < b && is_ident(t->v[j + 1]))
			j += 2;
		if (!(is(t, j, "=") || is(t, j, "/=") || is(t, j, "*=") ||
		    is(t, j, "+=") || is(t, j, "-=")))
			continue;
		e = expr_end(t, j + 1, stop);
		if (e > b)
			e = b;
		if (is(t, j, "/=")) {
			size_t x = skip_casts(t, j + 1, e);
			if (x < e && !is_number(t->v[x]))
				return 1;
		}
		if (is(t, j, "*=") && j + 1 < e && fraction(t->v[j + 1]))
			return 1;
		if (norm_expr(t, a, b, j + 1, e, depth + 1, names, nn))
			return 1;
	}
	return 0;
}

/* Whether the coordinate [s, e) of the body [a, b) is normalized. */
static int
norm_expr(const struct toks *t, size_t a, size_t b, size_t s, size_t e,
    int depth, const char **names, int *nn)
{
	size_t i, x;

	for (i = s; i < e; i++) {
		if (is(t, i, "/")) {
			x = skip_casts(t, i + 1, e);
			if (x < e && !is_number(t->v[x]))
				return 1;
		}
		if (is(t, i, "*") && ((i + 1 < e && fraction(t->v[i + 1])) ||
		    (i > s && fraction(t->v[i - 1]))))
			return 1;
		if ((is(t, i, "__fdividef") || is(t, i, "__frcp_rn") ||
		    is(t, i, "__fdiv_rn")) && is(t, i + 1, "("))
			return 1;
		if (is_ident(t->v[i]) && !is_keyword(t->v[i]) &&
		    !is(t, i - 1, ".") && !is(t, i - 1, "->") &&
		    !is(t, i + 1, "(") &&
		    norm_local(t, a, b, t->v[i], depth, names, nn))
			return 1;
	}
	return 0;
}

static void fetches_in(struct seen *sn, const struct toks *t, size_t a,
    size_t b, const char *name, int depth);

/* One fetch at i (its name) of texture name: kind and type noted. */
static void
one_fetch(struct seen *sn, const struct toks *t, size_t a, size_t b,
    size_t i, int kind, int typed)
{
	size_t close, open, ends[8];
	char type[128];
	const char *names[16];
	int n, c, nn = 0, mixed;

	close = angle_end(t, i + 1);
	open = close;
	join(t, i + 2, close - 1, type, sizeof(type));
	if (sn->kind != 0 && sn->kind != kind)
		sn->kind = -1;
	else if (sn->kind == 0)
		sn->kind = kind;
	if (!typed)
		sn->typeless = 1;
	else if (sn->type[0] == '\0')
		copy(sn->type, sizeof(sn->type), type);
	else if (strcmp(sn->type, type) != 0)
		sn->kind = -1;
	/* the coordinates after the texture: f(t, x, y, ...) */
	n = split_top(t, open + 1, skip_group(t, open) - 1, ",", ends, 8,
	    &mixed);
	if (kind == TEX_LINEAR)
		return;
	for (c = 1; c <= tex_coords[kind] && c < n; c++)
		if (norm_expr(t, a, b, ends[c - 1] + 1, ends[c], 0, names,
		    &nn))
			sn->norm = 1;
}

/* The fetches of texture name in the body [a, b) of t, and in the
 * helpers it is handed to. */
static void
fetches_in(struct seen *sn, const struct toks *t, size_t a, size_t b,
    const char *name, int depth)
{
	size_t i, from;
	const char *cf;
	struct fn *h;
	int kind, typed, ca, n;

	for (i = a; i + 3 < b; i++) {
		if ((kind = fetch_of(t->v[i], &typed)) != 0) {
			size_t close;
			if (!is(t, i + 1, "<") || (close = angle_end(t,
			    i + 1)) == 0 || !is(t, close, "(") ||
			    !is(t, close + 1, name) ||
			    !is(t, close + 2, ","))
				continue;
			one_fetch(sn, t, a, b, i, kind, typed);
			continue;
		}
		if (!is(t, i, name) || depth >= TEX_DEPTH ||
		    (ca = call_arg(t, a, i, &cf, &n)) < 0 ||
		    fetch_of(cf, &typed) != 0)
			continue;
		from = 1;
		while ((h = next_helper(sn->k, cf, n, &from, 1)) != NULL) {
			if (ca < h->np && h->pn[ca] != NULL)
				fetches_in(sn, h->t, h->a, h->b, h->pn[ca],
				    depth + 1);
			fn_free(h);
		}
	}
}

/* Texture parameters of k: what each needs, from its fetches. */
void
texture_params(struct kern *k)
{
	int i, lanes;

	for (i = 0; i < k->np; i++) {
		struct param *p = &k->p[i];
		struct seen sn;
		char ty[128];
		const struct k_dtype *dt;

		if (p->ptr || p->dt != NULL || p->is_struct ||
		    (strstr(p->type, "cudaTextureObject_t") == NULL &&
		    strstr(p->type, "hipTextureObject_t") == NULL))
			continue;
		memset(&sn, 0, sizeof(sn));
		sn.k = k;
		fetches_in(&sn, &k->t, k->body, k->t.n, p->name, 0);
		if (sn.kind <= 0 || sn.type[0] == '\0')
			continue;
		resolve_type(k, sn.type, ty, sizeof(ty), 0);
		lanes = 1;
		if ((dt = k_dtype_c(ty)) == NULL)
			dt = vector_dtype(ty, &lanes);
		/* the formats a texture has: 8, 16 and 32-bit integers,
		 * half and float; 1, 2 or 4 channels */
		if (dt == NULL || lanes == 3 || dt->size > 4 ||
		    strcmp(dt->name, "bfloat16") == 0 ||
		    strcmp(dt->name, "bool") == 0)
			continue;
		p->tex = sn.kind;
		p->tex_dt = dt;
		p->tex_ch = lanes;
		p->tex_norm = sn.norm;
		p->role = R_IN;
	}
}
