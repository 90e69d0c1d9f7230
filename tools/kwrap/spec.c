/*
 * kwrap: the spec as JSON: parameters, fills, values, test cases, globals.
 */
#include "kwrap.h"

static const char *const case_names[] = { "typical", "smallest",
	"one_block", "one_warp", "non_multiple", "large", "zeros", "negatives",
	"large_magnitude" };
#define NCASES 9

static json_t *
fill_json(const struct kern *k, const struct param *p, int c)
{
	const struct k_dtype *dt = p->tex ? p->tex_dt : p->dt;
	int fl = dt == NULL || dt->is_float;
	double big;

	if (p->zeroed)
		return json_pack("{s:s,s:i}", "kind", "constant", "value", 0);
	/* offsets that never decrease, in the range indices read from a
	 * buffer take (see the counts), in every case */
	if (p->offsets)
		return json_pack("{s:s,s:i,s:i}", "kind", "offsets", "lo",
		    k->data_lo, "hi", k->data_lo + DATA_HI);
	/* a scatter index: each of lo .. lo + count - 1 once, in every
	 * case */
	if (p->distinct)
		return json_pack("{s:s,s:i}", "kind", "distinct", "lo",
		    k->data_lo);
	if (p->vals)
		return fl ? json_pack("{s:s,s:f,s:f}", "kind", "uniform", "lo",
		    (double)k->data_lo, "hi", (double)(k->data_lo + DATA_HI)) :
		    json_pack("{s:s,s:i,s:i}", "kind", "int", "lo", k->data_lo,
		    "hi", k->data_lo + DATA_HI);
	if (p->index_of[0] != '\0')
		return json_pack("{s:s,s:s}", "kind", "indices", "of",
		    p->index_of);
	if (dt != NULL && strcmp(dt->name, "bool") == 0)
		return c == 6 ? json_pack("{s:s,s:i}", "kind", "constant",
		    "value", 0) : json_pack("{s:s,s:i,s:i}", "kind", "int",
		    "lo", 0, "hi", 1);
	switch (c) {
	case 6:
		return json_pack("{s:s,s:i}", "kind", "constant", "value", 0);
	case 7:
		if (dt != NULL && !dt->is_signed)
			break;
		return fl ? json_pack("{s:s,s:f,s:f}", "kind", "uniform", "lo",
		    -100.0, "hi", -1.0) : json_pack("{s:s,s:i,s:i}", "kind",
		    "int", "lo", -100, "hi", -1);
	case 8:
		if (!fl)
			return json_pack("{s:s,s:I,s:I}", "kind", "int", "lo",
			    dt->is_signed ? -((json_int_t)1 << (dt->size * 8 - 2)) :
			    0, "hi", ((json_int_t)1 << (dt->size * 8 - 2)) - 1);
		big = dt == NULL ? 1e30 : strcmp(dt->name, "float64") == 0 ?
		    1e300 : dt->size == 2 ? (strcmp(dt->name, "float16") == 0 ?
		    6e4 : 1e30) : 1e30;
		return json_pack("{s:s,s:f,s:f}", "kind", "uniform", "lo", -big,
		    "hi", big);
	default:
		break;
	}
	return fl ? json_pack("{s:s,s:f,s:f}", "kind", "uniform", "lo", -1.0,
	    "hi", 1.0) : json_pack("{s:s,s:i,s:i}", "kind", "int", "lo", 0,
	    "hi", 100);
}

/* Values of enumerators of enum type, in order. */
static int
enum_values(struct kern *k, const char *type, long long *out, int max)
{
	struct toks *t = &k->all;
	size_t i, j;
	int n = 0;
	long long v;

	if ((i = enum_open(t, type)) == 0)
		return 0;
	for (j = i + 1; j < t->n && !is(t, j, "}") && n < max; j++)
		if (is_ident(t->v[j]) && (is(t, j + 1, ",") || is(t, j + 1, "}") ||
		    is(t, j + 1, "=")) && const_get(&k->c, t->v[j], &v))
			out[n++] = v;
	return n;
}

/* Whether the integer scalar name only selects one of several modes:
 * every use of it in the kernel's body tests it with == against a number,
 * and two numbers at least ("if (pool_mode == 0) ... else if (pool_mode
 * == 1)"); the first such number in *v.  Any other value would run none
 * of the branches it selects, so that case 0 (the one memcheck runs)
 * would test nothing.  A flag tested once (mode == 1, flip != 0) keeps
 * its value: one side of it runs either way, and the switch cases give
 * the other. */
static int
mode_value(struct kern *k, const char *name, long long *v)
{
	const struct toks *t = &k->t;
	size_t i;
	int n = 0, other = 0;

	for (i = k->body; i < t->n; i++) {
		const char *num = NULL;
		char *end;
		long long x;
		if (!is(t, i, name) || is(t, i - 1, ".") || is(t, i - 1, "->"))
			continue;
		if (is(t, i + 1, "==") && i + 2 < t->n)
			num = t->v[i + 2];
		else if (is(t, i - 1, "==") && i >= 2)
			num = t->v[i - 2];
		if (num == NULL || !isdigit((unsigned char)num[0]))
			return 0;
		x = strtoll(num, &end, 0);
		if (*end != '\0' && strspn(end, "uUlL") != strlen(end))
			return 0;
		if (n++ == 0)
			*v = x;
		else if (x != *v)
			other = 1;
	}
	return other;
}

static json_t *
value_json(struct kern *k, const char *name, const char *type,
    const struct k_dtype *dt, int is_enum, int nth, int c)
{
	static const double typical[] = { 1.5, -0.75, 2.25, 0.5 };
	long long ev[64], mv = 0;
	int n;

	if (is_enum && (n = enum_values(k, type, ev, 64)) > 0)
		return json_integer(ev[c % n]);
	if (dt == NULL)
		return json_integer(c == 6 ? 0 : 1);
	if (strcmp(dt->name, "bool") == 0)
		return json_boolean(c != 6);
	if (dt->is_float) {
		double v = typical[nth % 4];
		/* a bound inside the data's [-1, 1], so that data falls on
		 * both sides of it; lower and upper differ in magnitude, so
		 * that their squares (radii) differ too */
		if (strstr(name, "lo") == name || strstr(name, "min") == name)
			v = -0.5;
		else if (strstr(name, "hi") == name ||
		    strstr(name, "max") == name)
			v = 0.75;
		if (c == 6)
			v = 0;
		else if (c == 7)
			v = -fabs(v) - 1.0;
		else if (c == 8)
			v = v < 0 ? -1e30 : 1e30;
		return json_real(v);
	}
	if (c != 6 && c != 7 && mode_value(k, name, &mv))
		return json_integer(mv);
	if (c == 6)
		return json_integer(0);
	if (c == 7 && dt->is_signed)
		return json_integer(-3 - nth);
	if (c == 8)
		return json_integer(dt->size >= 4 ? 1000000 : 100);
	return json_integer(3 + nth);
}

/* The value every launch site passes literally for parameter pi (a
 * number, INFINITY or NAN, true or false, with a sign), as JSON: "inf",
 * "-inf" and "nan" as strings; NULL when the sites pass anything else. */
static json_t *
launch_literal(struct kern *k, int pi)
{
	json_t *launches = json_object_get(json_object_get(k->rec, "scan"),
	    "launches"), *l;
	const char *text = NULL, *a, *p;
	const struct k_dtype *dt = k->p[pi].dt;
	char *end;
	double d;
	int neg;
	size_t i;

	if (dt == NULL || k->p[pi].is_enum || json_array_size(launches) == 0)
		return NULL;
	json_array_foreach(launches, i, l) {
		json_t *args = json_object_get(l, "args");
		if (json_array_size(args) != (size_t)k->np ||
		    (a = json_string_value(json_array_get(args, pi))) == NULL)
			return NULL;
		if (text != NULL && strcmp(text, a) != 0)
			return NULL;
		text = a;
	}
	p = text;
	while (isspace((unsigned char)*p))
		p++;
	if (strcmp(dt->name, "bool") == 0)
		return strcmp(p, "true") == 0 ? json_true() :
		    strcmp(p, "false") == 0 ? json_false() : NULL;
	neg = *p == '-';
	if (*p == '-' || *p == '+')
		p++;
	if (dt->is_float && (strcmp(p, "INFINITY") == 0 ||
	    strcmp(p, "HUGE_VALF") == 0 || strcmp(p, "HUGE_VAL") == 0))
		return json_string(neg ? "-inf" : "inf");
	if (dt->is_float && strcmp(p, "NAN") == 0)
		return json_string("nan");
	if (!isdigit((unsigned char)*p) && *p != '.')
		return NULL;
	if (dt->is_float) {
		d = strtod(p, &end);
		if (*end == 'f' || *end == 'F' || *end == 'l' || *end == 'L')
			end++;
		return *end == '\0' && end != p ? json_real(neg ? -d : d) : NULL;
	}
	errno = 0;
	{
		long long v = strtoll(p, &end, 0);
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
			end++;
		return *end == '\0' && end != p && errno == 0 ?
		    json_integer(neg ? -v : v) : NULL;
	}
}

/*
 * The value of a size parameter in case c.  The main size (the one the
 * grid's x names) covers the launch; the others take one value a case,
 * but in non_multiple each takes its own, by ord: its rank among them,
 * or for an accessor's size its dimension, so that tensors passed
 * together still agree dimension by dimension.  A size read where
 * another belongs (an accessor's size(0) for its size(1), a row length
 * for a column count) then reads another number there, and a quotient
 * that takes the main index apart ("b = index / C / L") leaves 0, since
 * the first two sizes' product is below the main size's value.  The
 * first stays above a warp and off its multiples, as all of them did.
 */
static long long
size_value(const struct kern *k, int main, int c, int nsize, int blockgrid,
    int ord)
{
	static const long long odd[] = { 67, 5, 7, 11, 13, 3 };
	long long b = k->block[0];

	if (nsize == 1 && !blockgrid) {
		static const long long one[] = { 100000, 1, 0, 32, 0, 1 << 24 };
		if (c == 2)
			return b;
		if (c == 4)
			return 3 * b + 17;
		return c < 6 ? one[c] : one[0];
	}
	if (main) {
		static const long long m[] = { 300, 1, 0, 32, 0, 2048 };
		if (c == 2)
			return blockgrid ? 1 : b;
		if (c == 3 && blockgrid)
			return 1;
		if (c == 4)
			return blockgrid ? 7 : 3 * b + 5;
		return c < 6 ? m[c] : m[0];
	} else {
		/* non_multiple (4): odd[], by rank */
		static const long long s[] = { 64, 1, 64, 32, 0, 256 };
		if (c == 4)
			return odd[ord % 6];
		return c < 6 ? s[c] : s[0];
	}
}

/* Whether name is among tokens [a, b). */
static int
names_in(const struct toks *t, size_t a, size_t b, const char *name)
{
	for (; a < b && a < t->n; a++)
		if (strcmp(t->v[a], name) == 0 && (a == 0 ||
		    !is(t, a - 1, ".")))
			return 1;
	return 0;
}

/* Whether the bound of a for loop's condition (the side of < or <= after
 * the index) names p, itself or through a local whose definition names
 * it ("t_i < num_pixels" with "num_pixels = H * W * K"). */
static int
bounds_a_loop(const struct kern *k, const struct param *p)
{
	static const char *const stop[] = { ";", "&&", "||", NULL };
	const struct toks *t = &k->t;
	size_t i, j, e;
	struct var *v;

	for (i = k->body; i + 1 < t->n; i++) {
		if (!is(t, i, "for") || !is(t, i + 1, "("))
			continue;
		for (j = i + 2; j < t->n && !is(t, j, ";") && !is(t, j, ")");
		    j++)
			;	/* past the initialization */
		for (j++; j < t->n && !is(t, j, ";") && !is(t, j, ")"); j++) {
			if (!is(t, j, "<") && !is(t, j, "<="))
				continue;
			e = expr_end(t, j + 1, stop);
			if (names_in(t, j + 1, e, p->name))
				return 1;
			for (; j + 1 < e; j++)
				if (is_ident(t->v[j + 1]) &&
				    (v = var_get((struct kern *)k,
				    t->v[j + 1])) != NULL && v->b > v->a &&
				    names_in(t, v->a, v->b, p->name))
					return 1;
		}
	}
	return 0;
}

/*
 * Whether scalar name must stay positive in every case: it steps a loop
 * of the kernel ("iy += scale_factor)": zero never ends the loop, a
 * negative step runs it until the index wraps, and the reference hangs
 * in the zeros and negatives cases), or, an integer, it divides ("c /
 * group_size", "i % n", "/ (float)group_size", "t / (W * K)"): zero or a
 * negative value makes an index out of nothing.  Such a scalar keeps its
 * typical value in those cases.  In the negatives case (neg), so does an
 * integer that bounds a loop ("t < H * W * K", through a local or not):
 * two negative factors make a positive count of negative indices, read
 * and written outside every buffer (zero runs the loop no times, a case
 * of its own).
 */
static int
keeps_positive(const struct kern *k, const struct param *p, int neg)
{
	const struct toks *t = &k->t;
	int integer = p->dt != NULL && !p->dt->is_float;
	size_t i;

	if (neg && integer && bounds_a_loop(k, p))
		return 1;
	for (i = k->body; i + 1 < t->n; i++) {
		/* a divisor in parentheses: "t / (W * K)" */
		if (integer && (is(t, i, "/") || is(t, i, "%")) &&
		    is(t, i + 1, "(") &&
		    names_in(t, i + 2, skip_group(t, i + 1), p->name))
			return 1;
		if (!is(t, i + 1, p->name))
			continue;
		if ((is(t, i, "+=") || is(t, i, "-=")) && is(t, i + 2, ")"))
			return 1;
		if (integer && (is(t, i, "/") || is(t, i, "%") ||
		    is(t, i, "/=") || is(t, i, "%=")))
			return 1;
		/* a divisor through a cast: "/ (float)group_size" */
		if (is(t, i, ")") && i >= k->body + 3 && is(t, i - 2, "(") &&
		    (is(t, i - 3, "/") || is(t, i - 3, "%")))
			return 1;
	}
	return 0;
}

/* Value v of scalar p at its least value and rounded up to its multiple
 * (a positive one: the stride of a vector access, a size a launch's
 * condition holds a multiple of). */
long long
param_keep(const struct param *p, long long v)
{
	if (p->vmin > 0 && v < p->vmin)
		v = p->vmin;
	if (p->align > 1 && v > 0 && v % p->align != 0)
		v += p->align - v % p->align;
	if (p->vmax > 0 && v > p->vmax) {
		v = p->vmax;
		if (p->align > 1 && v >= p->align)
			v -= v % p->align;
	}
	if (p->divides > 0) {
		/* the largest divisor at or below v */
		if (v < 1)
			v = 1;
		if (v > p->divides)
			v = p->divides;
		while (p->divides % v != 0)
			v--;
	}
	return v;
}

/* Scalars with a least value (index_limits, the launch's conditions)
 * keep it in every case, the fitted ones included, strides of vector
 * accesses (access.c) and sizes a condition holds a multiple of are
 * multiples of them, ones a condition bounds above or holds a divisor of
 * a constant stay at or below the bound and divide the constant, and a
 * scalar a condition holds equal to a constant is that constant. */
void
least_values(struct kern *k, json_t *spec)
{
	json_t *cs, *v;
	size_t c;
	int i, f;

	json_array_foreach(json_object_get(spec, "cases"), c, cs)
		for (i = 0; i < k->np; i++) {
			v = json_object_get(json_object_get(cs, "scalars"),
			    k->p[i].name);
			if (json_is_integer(v))
				json_integer_set(v, param_keep(&k->p[i],
				    json_integer_value(v)));
			/* the one value the launcher launches with (a
			 * floating-point one as a real, whatever the case had:
			 * 2, "inf") */
			if (k->p[i].has_eq && v != NULL && k->p[i].dt != NULL &&
			    k->p[i].dt->is_float)
				json_object_set_new(json_object_get(cs, "scalars"),
				    k->p[i].name, json_real(k->p[i].eq));
			else if (k->p[i].has_eq && json_is_integer(v))
				json_integer_set(v, (json_int_t)k->p[i].eq);
			/* a struct's size field that holds indices read
			 * from data (accessor_indices) */
			for (f = 0; k->p[i].is_struct && f < k->p[i].nf; f++) {
				char key[160];
				if (k->p[i].f[f].least <= 0)
					continue;
				bprintf(key, sizeof(key), "%s.%s", k->p[i].name,
				    k->p[i].f[f].name);
				v = json_object_get(json_object_get(cs,
				    "scalars"), key);
				if (json_is_integer(v) && json_integer_value(v) <
				    k->p[i].f[f].least)
					json_integer_set(v, k->p[i].f[f].least);
			}
		}
}

static json_t *
build_cases(struct kern *k)
{
	json_t *cases = json_array();
	int c, i, f, nsize = 0, mainp = -1, mainf = -1, nth, blockgrid, ord;
	int has_signed = 0, has_float = 0;

	/* the main size: the first one the grid's x expression names */
	for (i = 0; i < k->np; i++) {
		struct param *p = &k->p[i];
		if (p->tex) {
			has_signed |= p->tex_dt->is_signed;
			has_float |= p->tex_dt->is_float;
			continue;
		}
		if (p->ptr) {
			if (p->role != R_OUT && !p->zeroed && p->dt != NULL) {
				has_signed |= p->dt->is_signed;
				has_float |= p->dt->is_float;
			}
			continue;
		}
		if (p->is_struct) {
			for (f = 0; f < p->nf; f++)
				if (p->f[f].ptr || p->f[f].expr[0] != '\0' ||
				    p->f[f].fixed > 0)
					continue;	/* a buffer, derived, fixed */
				else if (p->f[f].size_use) {
					nsize++;
					/* an accessor's sizes: one value */
					if (mainp < 0 && !p->accessor) {
						mainp = i;
						mainf = f;
					}
				} else {
					has_signed |= p->f[f].dt->is_signed;
					has_float |= p->f[f].dt->is_float;
				}
		} else if (p->size_use) {
			nsize++;
			if (mainp < 0 || (strstr(k->grid[0], p->name) != NULL &&
			    strstr(k->grid[0], k->p[mainp].name) == NULL)) {
				mainp = i;
				mainf = -1;
			}
		} else if (p->dt != NULL) {
			has_signed |= p->dt->is_signed;
			has_float |= p->dt->is_float;
		}
	}
	blockgrid = mainp >= 0 && mainf < 0 &&
	    strcmp(k->grid[0], k->p[mainp].name) == 0;
	for (c = 0; c < NCASES; c++) {
		json_t *sc, *fills, *cs, *lit;
		if (c == 7 && !has_signed)
			continue;
		if (c == 8 && !has_float && !has_signed)
			continue;
		sc = json_object();
		fills = json_object();
		nth = 0;
		ord = 0;	/* the rank of a size other than the main one */
		for (i = 0; i < k->np; i++) {
			struct param *p = &k->p[i];
			char key[160];
			int m;
			if (p->ptr || p->tex) {
				if (p->role != R_OUT && c >= 6)
					json_object_set_new(fills, p->name,
					    fill_json(k, p, c));
				continue;
			}
			if (p->is_struct) {
				for (f = 0; f < p->nf; f++) {
					if (p->f[f].ptr ||
					    p->f[f].expr[0] != '\0')
						continue;	/* a buffer, derived */
					bprintf(key, sizeof(key), "%s.%s",
					    p->name, p->f[f].name);
					m = i == mainp && f == mainf;
					json_object_set_new(sc, key,
					    p->f[f].fixed > 0 ?
					    json_integer(p->f[f].fixed) :
					    p->f[f].size_use ?
					    json_integer(size_value(k, m, c, nsize,
					    0, m ? 0 : p->accessor ?
					    atoi(p->f[f].name + 4) : ord++)) :
					    value_json(k, p->f[f].name,
					    p->f[f].type, p->f[f].dt,
					    enum_open(&k->all, p->f[f].type) != 0,
					    nth++, c));
				}
				continue;
			}
			if (!p->size_use && c == 0 &&
			    (lit = launch_literal(k, i)) != NULL) {
				json_object_set_new(sc, p->name, lit);
				nth++;
				continue;
			}
			m = i == mainp;
			json_object_set_new(sc, p->name, p->size_use ?
			    json_integer(size_value(k, m, c, nsize,
			    blockgrid && m, m ? 0 : ord++)) :
			    value_json(k, p->name, p->type, p->dt, p->is_enum,
			    nth++, (c == 6 || c == 7) && !p->is_enum &&
			    keeps_positive(k, p, c == 7) ? 0 : c));
		}
		cs = json_pack("{s:s,s:I,s:o}", "name", case_names[c], "seed",
		    (json_int_t)(0x6b770000 + c), "scalars", sc);
		if (json_object_size(fills) > 0)
			json_object_set_new(cs, "fills", fills);
		else
			json_decref(fills);
		json_array_append_new(cases, cs);
	}
	if (nsize == 0)
		guess(k, "no scalar parameter bounds the work: the sizes do "
		    "not vary between cases");
	return cases;
}

/*
 * Each texture's extent: texel coordinates as large as the largest size
 * any case gives a size parameter (a power of two, 16 at least, capped
 * per kind), normalized ones at a fixed resolution, 8 layers; halved
 * until the elements (texels times channels) are within what fit.c
 * allows a buffer of every case; the count is those elements.
 * Reads outside a texture are clamped, never a fault, so the extent
 * decides how much of the data the kernel sees, not whether it runs.
 */
#define TEX_ELEMS KW_CASE_ELEMS

static void
texture_extents(struct kern *k, json_t *spec)
{
	static const long long cap[] = { 0, 1 << 20, 1 << 14, 1024, 128,
		1 << 14, 1024 };
	static const long long fixed[] = { 0, 4096, 4096, 256, 64, 4096,
		256 };
	json_t *params = json_object_get(spec, "params"), *cs, *v, *o;
	long long most = 0, e, count;
	const char *key;
	size_t c;
	int i, d, f;

	json_array_foreach(json_object_get(spec, "cases"), c, cs)
		json_object_foreach(json_object_get(cs, "scalars"), key, v) {
			char base[128];
			const char *dot = strchr(key, '.');
			bprintf(base, sizeof(base), "%.*s", dot != NULL ?
			    (int)(dot - key) : (int)strlen(key), key);
			for (i = 0; i < k->np; i++) {
				const struct param *p = &k->p[i];
				int size = 0;
				if (strcmp(p->name, base) != 0)
					continue;
				if (dot == NULL)
					size = p->size_use;
				for (f = 0; dot != NULL && f < p->nf; f++)
					if (strcmp(p->f[f].name, dot + 1) == 0)
						size = p->f[f].size_use;
				if (size && json_is_integer(v) &&
				    json_integer_value(v) > most)
					most = json_integer_value(v);
			}
		}
	for (i = 0; i < k->np; i++) {
		const struct param *p = &k->p[i];
		int layered = p->tex == TEX_1D_LAYERED ||
		    p->tex == TEX_2D_LAYERED;
		json_t *ext;
		if (!p->tex || (o = json_array_get(params, (size_t)i)) == NULL)
			continue;
		for (e = 16; e < most && e < cap[p->tex]; e *= 2)
			;
		if (p->tex_norm)
			e = fixed[p->tex];
		/* within a buffer's budget in every case (fit.c) */
		for (;;) {
			count = p->tex_ch;
			for (d = 0; d < tex_dims[p->tex]; d++)
				count *= layered && d + 1 == tex_dims[p->tex] ?
				    8 : e;
			if (count <= TEX_ELEMS || e == 1)
				break;
			e /= 2;
		}
		ext = json_array();
		count = p->tex_ch;
		for (d = 0; d < tex_dims[p->tex]; d++) {
			long long x = layered && d + 1 == tex_dims[p->tex] ?
			    8 : e;
			json_array_append_new(ext, json_integer(x));
			count *= x;
		}
		json_object_set_new(json_object_get(o, "texture"), "extent",
		    ext);
		{
			char n[32];
			snprintf(n, sizeof(n), "%lld", count);
			json_object_set_new(o, "count", json_string(n));
		}
	}
}

static json_t *
build_spec(struct kern *k, const char *symbol)
{
	json_t *params = json_array(), *spec, *conf;
	int i, f, counts_low = 0, cases_low = 0;

	for (i = 0; i < k->np; i++) {
		struct param *p = &k->p[i];
		json_t *o = json_pack("{s:s,s:s}", "name", p->name, "role",
		    roles[p->role].name);
		json_object_set_new(o, "type", json_string(p->type));
		json_object_set_new(o, "dtype", json_string(p->dt != NULL ?
		    p->dt->name : p->is_struct ? "struct" : "bytes"));
		if (p->tex) {
			json_object_set_new(o, "dtype", json_string(
			    p->tex_dt->name));
			json_object_set_new(o, "element_size",
			    json_integer(p->tex_dt->size));
			/* the count and extent follow the cases */
			json_object_set_new(o, "fill", fill_json(k, p, 0));
			json_object_set_new(o, "texture", json_pack(
			    "{s:s,s:i,s:b}", "kind", tex_kinds[p->tex],
			    "channels", p->tex_ch, "normalized", p->tex_norm));
		} else if (p->ptr) {
			json_object_set_new(o, "element_size",
			    json_integer(p->dt != NULL ? p->dt->size : 1));
			json_object_set_new(o, "count", json_string(p->count));
			json_object_set_new(o, "fill", p->role == R_OUT ?
			    json_pack("{s:s}", "kind", "sentinel") :
			    fill_json(k, p, 0));
			if (p->count_state < 2)
				counts_low = 1;
			if (p->member_of >= 0)
				json_object_set_new(o, "member",
				    json_string(p->member));
		} else if (p->is_struct) {
			json_t *fs = json_array();
			for (f = 0; f < p->nf; f++)
				json_array_append_new(fs, p->f[f].ptr ?
				    byvalue_field_json(k, &p->f[f]) :
				    p->accessor ? accessor_field_json(&p->f[f]) :
				    json_pack(
				    "{s:s,s:s,s:s,s:i,s:s}", "name", p->f[f].name,
				    "type", p->f[f].type, "dtype",
				    p->f[f].dt->name, "offset", p->f[f].offset,
				    "use", p->f[f].size_use ? "size" : "value"));
			json_object_set_new(o, "fields", fs);
			json_object_set_new(o, "size", json_integer(p->ssize));
		} else {
			json_object_set_new(o, "use", json_string(p->size_use ?
			    "size" : "value"));
			if (p->dt == NULL) {
				cases_low = 1;
				guess(k, "%s: type %s unknown, its value cannot "
				    "be bound", p->name, p->type);
			}
		}
		json_array_append_new(params, o);
	}
	spec = json_pack("{s:s,s:s,s:o}", "source", "inferred", "kernel",
	    symbol, "params", params);
	json_object_set_new(spec, "launch", json_pack("{s:[s,s,s],s:[I,I,I],s:s}",
	    "grid", k->grid[0], k->grid[1], k->grid[2], "block",
	    (json_int_t)k->block[0], (json_int_t)k->block[1],
	    (json_int_t)k->block[2], "shared_mem", k->shared));
	json_object_set_new(spec, "cases", build_cases(k));
	texture_extents(k, spec);
	{
		int launch_low = k->grid_state < 2 || k->shared_state < 2 ||
		    k->block_state < 2;
		int low = counts_low || launch_low || k->roles_low || cases_low;
		conf = json_pack("{s:s,s:s,s:s,s:s,s:s,s:O}",
		    "overall", low ? "low" : "high",
		    "roles", k->roles_low ? "low" : "high",
		    "counts", counts_low ? "low" : "high",
		    "launch", launch_low ? "low" : "high",
		    "cases", cases_low ? "low" : "high",
		    "guesses", k->guesses);
	}
	json_object_set_new(spec, "confidence", conf);
	return spec;
}

/*
 * The __constant__ variables at file scope of the slice that the code
 * reads, without an initializer (one with values is data, not input):
 * spec.globals, filled by the harness through the module before launch.
 * Count from the declared dimensions.  A type kwrap cannot fill, or a
 * dimension it cannot evaluate, is left alone and said in the guesses.
 */
static json_t *
find_globals(struct kern *k)
{
	struct toks *t = &k->all;
	json_t *out = json_array();
	size_t i, j, e, nm;
	int depth = 0;

	for (i = 0; i < t->n; i++) {
		const struct k_dtype *dt;
		char type[128] = "", cnt[MAX_EXPR];
		long long total = 1, v;
		int used = 0, ok = 1;
		if (is(t, i, "{"))
			depth++;
		else if (is(t, i, "}"))
			depth--;
		if (depth != 0 || !is(t, i, "__constant__"))
			continue;
		for (e = i; e < t->n && !is(t, e, ";") && !is(t, e, "=") &&
		    !is(t, e, "{"); e++)
			;
		if (e >= t->n || !is(t, e, ";"))
			continue;	/* initialized: the module's own data */
		/* the name: the last identifier before the dimensions */
		for (j = i + 1; j < e && !is(t, j, "["); j++)
			;
		nm = j - 1;
		if (nm <= i || !is_ident(t->v[nm]))
			continue;
		for (j = i + 1; j < nm; j++) {
			if (is(t, j, "const") || is(t, j, "static") ||
			    is(t, j, "__device__") || is(t, j, "volatile"))
				continue;
			append_word(type, sizeof(type), t->v[j]);
		}
		for (j = 0; j < k->all.n && !used; j++)
			used = j != nm && is(t, j, t->v[nm]) &&
			    !is(t, j - 1, ".") && !is(t, j - 1, "->");
		if (!used)
			continue;
		for (j = nm + 1; j < e && ok; j = skip_group(t, j)) {
			size_t c = skip_group(t, j) - 1;
			if (!is(t, j, "[") || !eval_range(t, j + 1, c, &k->c, &v) ||
			    v < 1 || __builtin_mul_overflow(total, v, &total))
				ok = 0;
		}
		if ((dt = k_dtype_c(type)) == NULL || !ok) {
			guess(k, "__constant__ %s %s: %s, not filled", type,
			    t->v[nm], dt == NULL ? "a type kwrap cannot fill" :
			    "dimensions not constant");
			continue;
		}
		snprintf(cnt, sizeof(cnt), "%lld", total);
		json_array_append_new(out, json_pack(
		    "{s:s,s:s,s:s,s:i,s:s,s:o}", "name", t->v[nm], "type", type,
		    "dtype", dt->name, "element_size", dt->size, "count", cnt,
		    "fill", dt->is_float ? json_pack("{s:s,s:f,s:f}", "kind",
		    "uniform", "lo", -1.0, "hi", 1.0) : json_pack(
		    "{s:s,s:i,s:i}", "kind", "int", "lo", 0, "hi", 100)));
	}
	return out;
}

/* Overlay over onto spec: "params" and "globals" by name (a name spec
 * lacks is added), a fill replaced whole (its keys belong to its kind),
 * other objects key by key, anything else replaced.  The one merger of
 * specs: --spec's user specs and --llm spec's answers. */
void
spec_merge(json_t *spec, json_t *over)
{
	const char *key;
	json_t *v;

	json_object_foreach(over, key, v) {
		json_t *old = json_object_get(spec, key);
		if ((strcmp(key, "params") == 0 ||
		    strcmp(key, "globals") == 0) && json_is_array(v) &&
		    json_is_array(old)) {
			size_t i, j;
			json_t *up, *op;
			json_array_foreach(v, i, up) {
				int found = 0;
				json_array_foreach(old, j, op)
					if (k_get_str(up, "name") && k_get_str(op,
					    "name") && strcmp(k_get_str(up, "name"),
					    k_get_str(op, "name")) == 0) {
						spec_merge(op, up);
						found = 1;
					}
				if (!found)
					json_array_append(old, up);
			}
		} else if (json_is_object(v) && json_is_object(old) &&
		    strcmp(key, "fill") != 0)
			spec_merge(old, v);
		else
			json_object_set(spec, key, v);
	}
}

/* The spec of k: inferred, globals added, user's spec (borrowed, may be
 * NULL) overlaid, cases fitted unless the user gives them.  A new
 * reference. */
json_t *
spec_of(struct kern *k, json_t *user)
{
	json_t *scan = json_object_get(k->rec, "scan");
	json_t *slice = json_object_get(k->rec, "slice");
	json_t *spec;
	int i;

	spec = build_spec(k, k_get_str(slice, "symbol") ? k_get_str(slice,
	    "symbol") : k_get_str(scan, "name") ? k_get_str(scan, "name") : "?");
	{
		json_t *g = find_globals(k);
		if (json_array_size(g) > 0)
			json_object_set_new(spec, "globals", g);
		else
			json_decref(g);
	}
	if (user != NULL) {
		spec_merge(spec, user);
		json_object_set_new(spec, "source", json_string("user"));
		if (json_object_get(user, "confidence") == NULL) {
			json_t *conf = json_object_get(spec, "confidence");
			const char *parts[] = { "roles", "counts", "launch", "cases" };
			const char *ukeys[] = { "params", "params", "launch", "cases" };
			int low = 0;
			for (i = 0; i < 4; i++) {
				if (json_object_get(user, ukeys[i]) != NULL)
					json_object_set_new(conf, parts[i],
					    json_string("high"));
				low |= strcmp(k_get_str(conf, parts[i]) ?
				    k_get_str(conf, parts[i]) : "low", "high") != 0;
			}
			json_object_set_new(conf, "overall", json_string(low ?
			    "low" : "high"));
		}
	}
	if (user == NULL || json_object_get(user, "cases") == NULL) {
		fit_cases(spec, &k->c, k);
		least_values(k, spec);
	}
	return spec;
}
