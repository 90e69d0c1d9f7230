/*
 * kwrap: case sizes fitted to the memory budget of a case.
 */
#include "kwrap.h"

/*
 * Case sizes as the counts see them: a case binds seq like a length, but a
 * buffer of seq * seq elements grows as its square.  So each case's counts,
 * grid and block are evaluated (64 bits, overflow is a failure) and its
 * size scalars scaled down together until every buffer fits the case's
 * budget and the dynamic shared memory a block's limit, then raised until
 * every grid dimension is at least 1.
 */
#define CAP_ELEMS KW_CASE_ELEMS	/* per buffer, every case but large */
#define CAP_BYTES (64LL << 20)		/* all buffers of one case */
#define LARGE_ELEMS (1LL << 24)
#define LARGE_BYTES (512LL << 20)
struct fit {
	struct toks *e;			/* buffer counts, grid, block,
					   shared memory */
	int ne, nb;			/* expressions; the first nb are counts */
	int *esz;			/* element size of each buffer */
	const struct consts *c;
	struct consts *bind;
	/* the case's integer scalars, nk of them (room for ck) */
	char **key;
	long long *base, *val;
	int *sized;			/* 0: a value, bound as it is */
	const struct param **prm;	/* each key's parameter, or NULL */
	int *lay;			/* a stride: its buffer's count + 1,
					   else 0 (strides.c) */
	int *rank;			/* its parameter's index */
	struct toks *pitch;		/* each parameter's row width, when
					   it is a row pitch (strides.c) */
	int nk, ck;
	long long cap_elems, cap_bytes;
	int one_block;
};

enum { FIT_OK = 0, FIT_BIG = 1, FIT_ZERO = 2 };	/* bits */

/* Evaluate expression e for the current values: 1 and *v, 0 when it
 * names what is not known, -1 when it overflows. */
static int
fit_eval_toks(struct fit *f, const struct toks *e, long long *v)
{
	int i;

	consts_clear(f->bind);
	for (i = 0; i < f->nk; i++)
		const_set(f->bind, f->key[i], f->val[i]);
	return eval_bound(e, f->c, f->bind, v);
}

/* The same for expression n of the case (a count, the launch). */
static int
fit_eval(struct fit *f, int n, long long *v)
{
	return fit_eval_toks(f, &f->e[n], v);
}

/*
 * The strides of a layout from the other values (strides.c): each
 * stride, innermost (last parameter) first, the count of its buffer with
 * it and the strides outside it at 0, those inside as set: the span of
 * every element inside it, so that no two index tuples meet.
 */
static void
fit_layout(struct fit *f)
{
	long long v;
	int i, next, done = 0;

	for (i = 0; i < f->nk; i++)
		if (f->lay[i])
			f->val[i] = 0;
	for (;;) {
		next = -1;
		for (i = 0; i < f->nk; i++)
			if (f->lay[i] && f->val[i] == 0 && (next < 0 ||
			    f->rank[i] > f->rank[next]))
				next = i;
		if (next < 0 || done++ > f->nk)
			return;
		f->val[next] = fit_eval(f, f->lay[next] - 1, &v) > 0 &&
		    v > 1 ? v : 1;
	}
}

/* Each row pitch raised to its row's width where the sizes make the row
 * wider (strides.c): rows that overlap would race. */
static void
fit_pitch(struct fit *f)
{
	long long v;
	int i;

	for (i = 0; i < f->nk; i++) {
		if (f->prm[i] == NULL || f->pitch[f->rank[i]].n == 0)
			continue;
		if (fit_eval_toks(f, &f->pitch[f->rank[i]], &v) > 0 &&
		    v > f->val[i])
			f->val[i] = v;
	}
}

/* Whether the current values fit, the strides of a layout set from the
 * others first: FIT_BIG when a buffer or the grid is over its limit (or
 * one_block and the grid is more than one block), or FIT_ZERO when a grid
 * or block dimension is below 1, or both. */
static int
fit_check(struct fit *f, int one_block)
{
	long long v, bytes = 0, threads = 1;
	int n, r, zero = 0, big = 0;

	fit_layout(f);
	fit_pitch(f);
	for (n = 0; n < f->ne; n++) {
		if ((r = fit_eval(f, n, &v)) < 0)
			big = 1;
		if (r <= 0)
			continue;
		if (n < f->nb) {
			if (v > f->cap_elems)
				big = 1;
			else if (v > 0)
				bytes += v * f->esz[n];
			if (bytes > f->cap_bytes)
				big = 1;
		} else if (n < f->nb + 3) {
			if (v < 1)
				zero = 1;
			else if (v > (n == f->nb ? 2147483647LL : 65535) ||
			    (one_block && v > 1))
				big = 1;
		} else if (n < f->nb + 6) {
			if (v < 1)
				zero = 1;
			else
				threads *= v > 1024 ? 1025 : v;
		} else if (v > SHARED_MAX)
			big = 1;	/* the dynamic shared memory */
	}
	return (big || threads > 1024 ? FIT_BIG : 0) | (zero ? FIT_ZERO : 0);
}

/* Size value i kept at the least value and the multiple the launch
 * keeps it at (param_keep): a count of K / 16 is no count for K below
 * 16. */
static void
fit_keep(struct fit *f, int i)
{
	if (f->prm[i] != NULL)
		f->val[i] = param_keep(f->prm[i], f->val[i]);
}

/* Size values scaled by num / den, at least 1 each. */
static void
fit_scale(struct fit *f, long long num, long long den)
{
	int i;

	for (i = 0; i < f->nk; i++) {
		if (!f->sized[i])
			continue;
		f->val[i] = (long long)floor((double)f->base[i] * (double)num /
		    (double)den);
		if (f->val[i] < 1)
			f->val[i] = 1;
		fit_keep(f, i);
	}
}

/* Size values raised to at least t each. */
static void
fit_raise(struct fit *f, const long long *from, long long t)
{
	int i;

	for (i = 0; i < f->nk; i++) {
		f->val[i] = from[i] > t || !f->sized[i] ? from[i] : t;
		if (f->sized[i])
			fit_keep(f, i);
	}
}

/* The largest num in [1, den] whose scaled sizes are not FIT_BIG; 0 when
 * even num = 1 is. */
static long long
fit_down(struct fit *f, long long den, int one_block)
{
	long long lo = 1, hi = den, mid;

	fit_scale(f, den, den);
	if (!(fit_check(f, one_block) & FIT_BIG))
		return den;
	fit_scale(f, 1, den);
	if (fit_check(f, one_block) & FIT_BIG)
		return 0;
	while (lo < hi) {	/* lo fits, hi does not */
		mid = lo + (hi - lo + 1) / 2;
		fit_scale(f, mid, den);
		if (fit_check(f, one_block) & FIT_BIG)
			hi = mid - 1;
		else
			lo = mid;
	}
	return lo;
}

/* Fit one case; returns 0 when no sizes give a legal launch. */
static int
fit_case(struct fit *f, const char *name, json_t *guesses)
{
	long long den = 1, num, *from, lo, hi, mid;
	int i, r;

	for (i = 0; i < f->nk; i++)
		if (f->sized[i] && f->base[i] > den)
			den = f->base[i];
	num = f->one_block ? fit_down(f, den, 1) : 0;
	if (num == 0 && (num = fit_down(f, den, 0)) == 0) {
		num = 1;
		if (guesses != NULL)
			json_array_append_new(guesses, json_sprintf("case %s: a "
			    "buffer or the grid is over its limit even with "
			    "sizes of 1", name));
	}
	fit_scale(f, num, den);
	if (!((r = fit_check(f, 0)) & FIT_ZERO))
		return 1;
	/* raise the sizes minimally: the least t with every size at least
	 * t that gives every grid dimension a block */
	from = k_calloc((size_t)(f->nk ? f->nk : 1), sizeof(*from));
	memcpy(from, f->val, (size_t)f->nk * sizeof(*from));
	for (hi = 2; hi <= (1LL << 31); hi *= 2) {
		fit_raise(f, from, hi);
		if (!((r = fit_check(f, 0)) & FIT_ZERO))
			break;
	}
	if (r & FIT_ZERO) {
		free(from);
		return 0;
	}
	lo = hi / 2;		/* lo gives a zero, hi does not */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		fit_raise(f, from, mid);
		if (fit_check(f, 0) & FIT_ZERO)
			lo = mid;
		else
			hi = mid;
	}
	fit_raise(f, from, hi);
	free(from);
	if (fit_check(f, 0) != FIT_OK && guesses != NULL)
		json_array_append_new(guesses, json_sprintf("case %s: sizes "
		    "that give every grid dimension a block are over the limits",
		    name));
	return 1;
}

/* Room for n scalars of a case, the keys of the last one freed. */
static void
fit_keys(struct fit *f, int n)
{
	int i;

	for (i = 0; i < f->nk; i++)
		free(f->key[i]);
	f->nk = 0;
	if (n <= f->ck)
		return;
	f->key = k_reallocarray(f->key, (size_t)n, sizeof(*f->key));
	f->base = k_reallocarray(f->base, (size_t)n, sizeof(*f->base));
	f->val = k_reallocarray(f->val, (size_t)n, sizeof(*f->val));
	f->sized = k_reallocarray(f->sized, (size_t)n, sizeof(*f->sized));
	f->prm = k_reallocarray(f->prm, (size_t)n, sizeof(*f->prm));
	f->lay = k_reallocarray(f->lay, (size_t)n, sizeof(*f->lay));
	f->rank = k_reallocarray(f->rank, (size_t)n, sizeof(*f->rank));
	f->ck = n;
}

/* The tokens of a spec expression e, a string or an integer; absent's
 * where it is neither. */
static void
expr_toks(const json_t *e, const char *absent, struct toks *t)
{
	char text[32];

	if (json_is_integer(e)) {
		snprintf(text, sizeof(text), "%lld",
		    (long long)json_integer_value(e));
		tokenize(text, t);
	} else
		tokenize(json_is_string(e) ? json_string_value(e) : absent, t);
}

/* The count expression of buffer name, + 1; 0 when it has none. */
static int
layout_count(const struct fit *f, const char **counted, const char *name)
{
	int n;

	for (n = 0; n < f->nb; n++)
		if (counted[n] != NULL && strcmp(counted[n], name) == 0)
			return n + 1;
	return 0;
}

/* Fit every case of spec to its budget: typical and the others up to
 * CAP_ELEMS elements a buffer and CAP_BYTES in all, large up to
 * LARGE_ELEMS and LARGE_BYTES, one_block to one block where the sizes
 * allow; a case no sizes make launchable is dropped and said so. */
void
fit_cases(json_t *spec, const struct consts *c, const struct kern *k)
{
	json_t *params = json_object_get(spec, "params");
	json_t *launch = json_object_get(spec, "launch");
	json_t *cases = json_object_get(spec, "cases");
	json_t *guesses = json_object_get(json_object_get(spec, "confidence"),
	    "guesses");
	json_t *prm, *cs, *fv, *dims[2];
	struct fit *f;
	size_t i, j, d, ci;
	int n, dropped = 0;
	const char **counted;	/* the buffer of each count expression */

	if (!json_is_array(params) || !json_is_array(cases))
		return;
	f = k_calloc(1, sizeof(*f));
	f->bind = k_calloc(1, sizeof(*f->bind));
	if (!json_is_array(guesses))
		guesses = NULL;
	f->c = c;
	f->e = k_calloc(json_array_size(params) + 7, sizeof(*f->e));
	f->esz = k_calloc(json_array_size(params) + 1, sizeof(*f->esz));
	f->pitch = k_calloc(k != NULL && k->np > 0 ? (size_t)k->np : 1,
	    sizeof(*f->pitch));
	for (n = 0; k != NULL && n < k->np; n++)
		if (k->p[n].pitch[0] != '\0')
			tokenize(k->p[n].pitch, &f->pitch[n]);
	counted = k_calloc(json_array_size(params) + 1, sizeof(*counted));
	json_array_foreach(params, i, prm) {
		json_t *cnt = json_object_get(prm, "count");
		const char *role = k_get_str(prm, "role");
		if (role == NULL || strcmp(role, "scalar") == 0)
			continue;
		counted[f->nb] = k_get_str(prm, "name");
		expr_toks(cnt, "1", &f->e[f->nb]);
		f->esz[f->nb++] = (int)k_get_int(prm, "element_size", 1);
	}
	f->ne = f->nb;
	dims[0] = json_object_get(launch, "grid");
	dims[1] = json_object_get(launch, "block");
	for (n = 0; n < 2; n++)
		for (d = 0; d < 3; d++) {
			expr_toks(json_array_get(dims[n], d), "1",
			    &f->e[f->ne++]);
		}
	expr_toks(json_object_get(launch, "shared_mem"), "0", &f->e[f->ne++]);
	for (ci = 0; ci < json_array_size(cases);) {
		const char *name = k_get_str(cs = json_array_get(cases, ci),
		    "name");
		json_t *sc = json_object_get(cs, "scalars");
		const char *key;
		json_t *v;
		if (name == NULL)
			name = "?";
		fit_keys(f, (int)json_object_size(sc));
		/* the size scalars: size parameters and fields of the case;
		 * the other integer scalars are bound as they are */
		json_object_foreach(sc, key, v) {
			int size = 0;
			if (!json_is_integer(v))
				continue;
			json_array_foreach(params, j, prm) {
				const char *pn = k_get_str(prm, "name");
				size_t l = pn != NULL ? strlen(pn) : 0;
				json_t *fs = json_object_get(prm, "fields");
				size_t m;
				if (pn == NULL || strncmp(key, pn, l) != 0)
					continue;
				if (key[l] == '\0')
					size = k_get_str(prm, "use") != NULL &&
					    strcmp(k_get_str(prm, "use"), "size") == 0;
				else if (key[l] == '.')
					json_array_foreach(fs, m, fv)
						if (k_get_str(fv, "name") != NULL &&
						    strcmp(k_get_str(fv, "name"),
						    key + l + 1) == 0 &&
						    k_get_str(fv, "use") != NULL &&
						    strcmp(k_get_str(fv, "use"),
						    "size") == 0)
							size = 1;
			}
			f->key[f->nk] = k_strdup(key);
			f->base[f->nk] = f->val[f->nk] = json_integer_value(v);
			if (size && f->base[f->nk] < 1)
				f->base[f->nk] = 1;
			f->prm[f->nk] = NULL;
			f->lay[f->nk] = 0;
			f->rank[f->nk] = 0;
			for (n = 0; k != NULL && n < k->np; n++)
				if (strcmp(k->p[n].name, key) == 0) {
					f->prm[f->nk] = &k->p[n];
					f->rank[f->nk] = n;
					if (k->p[n].layout > 0)
						f->lay[f->nk] = layout_count(f,
						    counted, k->p[k->p[n].layout
						    - 1].name);
				}
			/* a stride follows the sizes; it scales nothing */
			if (f->lay[f->nk])
				size = 0;
			f->sized[f->nk++] = size;
		}
		f->one_block = strcmp(name, "one_block") == 0;
		f->cap_elems = strcmp(name, "large") == 0 ? LARGE_ELEMS :
		    CAP_ELEMS;
		f->cap_bytes = strcmp(name, "large") == 0 ? LARGE_BYTES :
		    CAP_BYTES;
		if (!fit_case(f, name, guesses)) {
			if (guesses != NULL)
				json_array_append_new(guesses, json_sprintf(
				    "case %s dropped: no sizes give every grid "
				    "dimension a block", name));
			json_array_remove(cases, ci);
			dropped++;
			continue;
		}
		/* fit_case's last fit_check laid the strides out */
		for (n = 0; n < f->nk; n++)
			if ((f->sized[n] || f->lay[n]) && f->val[n] !=
			    json_integer_value(json_object_get(sc, f->key[n])))
				json_object_set_new(sc, f->key[n],
				    json_integer(f->val[n]));
		ci++;
	}
	if (dropped > 0) {
		/* confidence never says high about what was dropped */
		json_t *conf = json_object_get(spec, "confidence");
		if (json_is_object(conf)) {
			json_object_set_new(conf, "cases", json_string("low"));
			json_object_set_new(conf, "overall", json_string("low"));
		}
	}
	for (n = 0; n < f->ne; n++)
		toks_free(&f->e[n]);
	fit_keys(f, 0);
	free(f->key);
	free(f->base);
	free(f->val);
	free(f->prm);
	free(f->lay);
	free(f->rank);
	free(counted);
	free(f->sized);
	free(f->e);
	free(f->esz);
	for (n = 0; k != NULL && n < k->np; n++)
		toks_free(&f->pitch[n]);
	free(f->pitch);
	consts_free(f->bind);
	free(f->bind);
	free(f);
}
