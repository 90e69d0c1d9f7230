/*
 * Comparison of an output with the golden one, and the tests of a
 * golden output for degeneracy.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kverify.h"

static int
cmp_elem(const void *a, const void *b, void *sz)
{
	return memcmp(a, b, *(const size_t *)sz);
}

/* A copy of n bytes of elements of size sz, sorted by their bytes. */
static unsigned char *
sorted_copy(const unsigned char *p, size_t n, size_t sz)
{
	unsigned char *s = k_malloc(n > 0 ? n : 1);

	memcpy(s, p, n);
	qsort_r(s, n / sz, sz, cmp_elem, &sz);
	return s;
}

/* A sum of a hash of each element of size sz in p[0, n): the same for
 * the same elements in any order. */
static uint64_t
unordered_sum(const unsigned char *p, size_t n, size_t sz)
{
	uint64_t sum = 0, h;
	size_t i, j;

	for (i = 0; i + sz <= n; i += sz) {
		h = 1469598103934665603ULL;
		for (j = 0; j < sz; j++)
			h = (h ^ p[i + j]) * 1099511628211ULL;
		sum += h ^ (h >> 29);
	}
	return sum;
}

/*
 * An unordered output (a kernel that places its results through an
 * atomic counter): both sides sorted by their elements' bytes, then
 * element by element, exactly; first is an index in that order.
 */
static void
compare_unordered(const struct buf *want, const struct buf *got, size_t sz,
    struct cmp *c)
{
	unsigned char *a = sorted_copy(want->data, want->len, sz);
	unsigned char *b = sorted_copy(got->data, want->len, sz);
	size_t i;

	for (i = 0; i + sz <= want->len; i += sz)
		if (memcmp(a + i, b + i, sz) != 0) {
			if (c->first < 0)
				c->first = (long long)(i / sz);
			c->mismatches++;
		}
	free(a);
	free(b);
}

/* Whether got holds the elements of want, each as often, in any order
 * (the sums of their hashes first: most outputs that differ otherwise,
 * a float sum's rounding, are told apart without a sort). */
int
same_multiset(const struct buf *want, const unsigned char *got, size_t len)
{
	const struct k_dtype *d = k_dtype_named(want->type);
	size_t sz = d != NULL && d->size > 0 ? (size_t)d->size : 1;
	struct buf g = *want;
	struct cmp c;

	if (got == NULL || len != want->len || len % sz != 0 ||
	    unordered_sum(want->data, len, sz) != unordered_sum(got, len, sz))
		return 0;
	g.data = (unsigned char *)got;
	memset(&c, 0, sizeof(c));
	c.first = -1;
	compare_unordered(want, &g, sz, &c);
	return c.mismatches == 0;
}

/* The number of elements of b (bytes for a type lib/k_dtype does not
 * know). */
size_t
elements(const struct buf *b)
{
	const struct k_dtype *d = k_dtype_named(b->type);
	size_t sz = d != NULL && d->size > 0 ? (size_t)d->size : 1;

	return b->len / sz;
}

void
compare(const struct buf *want, const struct buf *got, double atol_o,
    double rtol_o, struct cmp *c)
{
	compare_at(want, got, atol_o, rtol_o, c, NULL);
}

/*
 * got against want, element by element, into c; with bad (one byte an
 * element of want) each element that differs is set to 1 there.  A
 * masked golden output (golden.c's tolerance()) is judged on its stable
 * elements alone: those its unstable map leaves at 0.  A split one judges
 * its stable elements in their own band (stable_atol) and the others in
 * atol_o, the output's.
 */
void
compare_at(const struct buf *want, const struct buf *got, double atol_o,
    double rtol_o, struct cmp *c, unsigned char *bad_at)
{
	const struct k_dtype *d = k_dtype_named(want->type);
	size_t i, n, sz = d != NULL && d->size > 0 ? (size_t)d->size : 1;
	double atol = atol_o >= 0 ? atol_o : d != NULL ? d->atol : 0;
	double rtol = rtol_o >= 0 ? rtol_o : d != NULL ? d->rtol : 0;
	const unsigned char *skip = want->masked ? want->unstable : NULL;
	double atol_s = want->split ? stable_atol(want) : atol;

	memset(c, 0, sizeof(*c));
	c->first = -1;
	if (want->unordered && got->len >= want->len) {
		compare_unordered(want, got, sz, c);
		return;
	}
	n = want->len / sz;
	for (i = 0; i < n; i++) {
		const unsigned char *a = want->data + i * sz;
		const unsigned char *b = got->data + i * sz;
		int bad = 0;
		if (skip != NULL && skip[i])
			continue;
		if (d == NULL || !d->is_float) {
			bad = memcmp(a, b, sz) != 0;
		} else {
			double x = load_float(a, d->size, d->name);
			double y = load_float(b, d->size, d->name);
			if (isnan(x) || isnan(y)) {
				/* NaN matches NaN only, in the same place */
				if (isnan(x) != isnan(y)) {
					bad = 1;
					c->nan_mismatches++;
				}
			} else if (isinf(x) || isinf(y)) {
				bad = x != y;
			} else {
				double e = fabs(x - y);
				if (e > c->max_abs)
					c->max_abs = e;
				if (x != 0 && e / fabs(x) > c->max_rel)
					c->max_rel = e / fabs(x);
				double at = want->split && (want->unstable ==
				    NULL || !want->unstable[i]) ? atol_s : atol;
				bad = !(e <= at + rtol * fabs(x));
			}
		}
		if (bad) {
			if (c->first < 0)
				c->first = (long long)i;
			c->mismatches++;
			if (bad_at != NULL)
				bad_at[i] = 1;
		}
	}
}

/*
 * How far another run of the reference (got) is from its golden (want):
 * the largest |difference| of two float elements.  SPREAD_NONE when they
 * differ where no tolerance band can cover them: another size, integer or
 * byte elements, a NaN or an infinity in one and not the other.  scale:
 * the largest finite |want| element, to tell rounding from a race.
 */
double
spread(const struct buf *want, const unsigned char *got, size_t len,
    double *scale)
{
	const struct k_dtype *d = k_dtype_named(want->type);
	size_t i, sz = d != NULL ? (size_t)d->size : 1;
	double m = 0;

	*scale = 0;
	if (got == NULL || len != want->len)
		return SPREAD_NONE;
	if (memcmp(want->data, got, len) == 0)
		return 0;
	if (d == NULL || !d->is_float)
		return SPREAD_NONE;
	for (i = 0; i + sz <= len; i += sz) {
		double x = load_float(want->data + i, d->size, d->name);
		double y = load_float(got + i, d->size, d->name);
		if (isnan(x) || isnan(y)) {
			if (isnan(x) != isnan(y))
				return SPREAD_NONE;
			continue;
		}
		if (isinf(x) || isinf(y)) {
			if (x != y)
				return SPREAD_NONE;
			continue;
		}
		if (fabs(x) > *scale)
			*scale = fabs(x);
		if (fabs(x - y) > m)
			m = fabs(x - y);
	}
	return m;
}

/* Element p of type d as text: a float's value, an integer's value, or
 * the bytes in hex. */
static void
element_text(const struct k_dtype *d, const unsigned char *p, size_t sz,
    char *out, size_t n)
{
	long long v = 0;
	unsigned long long u = 0;
	size_t i;

	if (d != NULL && d->is_float) {
		snprintf(out, n, "%.9g", load_float(p, d->size, d->name));
		return;
	}
	if (d != NULL && (sz == 1 || sz == 2 || sz == 4 || sz == 8)) {
		for (i = sz; i-- > 0; )
			u = u << 8 | p[i];
		if (d->is_signed && sz < 8 && (u >> (8 * sz - 1)) & 1)
			u |= ~0ULL << (8 * sz);
		v = (long long)u;
		if (d->is_signed)
			snprintf(out, n, "%lld", v);
		else
			snprintf(out, n, "%llu", u);
		return;
	}
	out[0] = '\0';
	for (i = 0; i < sz && 2 * i + 3 <= n; i++)
		snprintf(out + 2 * i, 3, "%02x", p[i]);
}

/*
 * Where another run (got) first differs from want in a way no band
 * covers, for the record: the element's index and both values as text.
 * Returns the kind: "size", "integer" (or bytes), "nan" (a NaN in one run
 * only), "infinity" (an infinity in one run only); NULL when every
 * difference is a finite one a band can measure.
 */
const char *
first_difference(const struct buf *want, const unsigned char *got,
    size_t len, long long *elem, char *a, char *b, size_t n)
{
	const struct k_dtype *d = k_dtype_named(want->type);
	size_t i, sz = d != NULL && d->size > 0 ? (size_t)d->size : 1;

	*elem = -1;
	a[0] = b[0] = '\0';
	if (got == NULL || len != want->len) {
		snprintf(a, n, "%zu bytes", want->len);
		snprintf(b, n, "%zu bytes", got == NULL ? 0 : len);
		return "size";
	}
	for (i = 0; i + sz <= len; i += sz) {
		const char *kind = NULL;
		if (memcmp(want->data + i, got + i, sz) == 0)
			continue;
		if (d == NULL || !d->is_float)
			kind = "integer";
		else {
			double x = load_float(want->data + i, d->size, d->name);
			double y = load_float(got + i, d->size, d->name);
			if (isnan(x) != isnan(y))
				kind = "nan";
			else if (!isnan(x) && (isinf(x) || isinf(y)) && x != y)
				kind = "infinity";
		}
		if (kind == NULL)
			continue;
		*elem = (long long)(i / sz);
		element_text(d, want->data + i, sz, a, n);
		element_text(d, got + i, sz, b, n);
		return kind;
	}
	return NULL;
}

/* The largest finite |element| of a float output; 0 for other types. */
double
magnitude(const struct buf *b)
{
	const struct k_dtype *d = k_dtype_named(b->type);
	size_t i, sz = d != NULL ? (size_t)d->size : 1;
	double m = 0, x;

	if (d == NULL || !d->is_float)
		return 0;
	for (i = 0; i + sz <= b->len; i += sz) {
		x = fabs(load_float(b->data + i, d->size, d->name));
		if (isfinite(x) && x > m)
			m = x;
	}
	return m;
}

/*
 * The absolute tolerance a run is compared with want under: --atol or the
 * dtype's, widened to --spread-k times the spread the reference showed
 * against itself on that output (max(atol, k x spread)).
 */
double
band_atol(const struct buf *want)
{
	const struct k_dtype *d = k_dtype_named(want->type);
	double atol = opt.atol >= 0 ? opt.atol : d != NULL ? d->atol : 0;

	if (want->spread > 0 && opt.spread_k * want->spread > atol)
		atol = opt.spread_k * want->spread;
	return atol;
}

/* The band of a split output's stable elements: the dtype's atol (or
 * --atol), or k x the spread the reference's runs showed on them. */
double
stable_atol(const struct buf *want)
{
	const struct k_dtype *d = k_dtype_named(want->type);
	double atol = opt.atol >= 0 ? opt.atol : d != NULL ? d->atol : 0;

	if (want->stable_spread > 0 && opt.spread_k * want->stable_spread >
	    atol)
		atol = opt.spread_k * want->stable_spread;
	return atol;
}

int
all_bytes(const unsigned char *p, size_t n, int v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return n > 0;
}

int
constant(const struct buf *b)
{
	const struct k_dtype *d = k_dtype_named(b->type);
	size_t sz = d != NULL ? (size_t)d->size : 1, i;

	if (b->len < 2 * sz)
		return 0;
	for (i = sz; i + sz <= b->len; i += sz)
		if (memcmp(b->data, b->data + i, sz) != 0)
			return 0;
	return 1;
}

/*
 * Elements of an output that still hold the harness's sentinel: an
 * element of two or more bytes that is 0xA5 in every byte was never
 * written (as a float it is -2.9e-16, as an int -1515870811).  A byte
 * 0xA5 can be a real value, so one-byte elements count only when the
 * whole buffer is the sentinel.
 */
long long
unwritten(const struct buf *b)
{
	const struct k_dtype *d = k_dtype_named(b->type);
	size_t sz = d != NULL ? (size_t)d->size : 1, i;
	long long n = 0;

	if (sz < 2)
		return all_bytes(b->data, b->len, SENTINEL) ?
		    (long long)b->len : 0;
	for (i = 0; i + sz <= b->len; i += sz)
		if (all_bytes(b->data + i, sz, SENTINEL))
			n++;
	return n;
}

void
add_reason(json_t *arr, const char *reason)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (strcmp(json_string_value(v), reason) == 0)
			return;
	json_array_append_new(arr, json_string(reason));
}
