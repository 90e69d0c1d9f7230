/*
 * Unit tests of kverify's comparison (compare.c): the tolerance band
 * widened by the spread the reference shows against itself.
 */
#include "unit.h"

#include <math.h>

#include "kverify.h"

struct kv_opt opt;

static struct buf
fbuf(float *v, size_t n)
{
	struct buf b;

	memset(&b, 0, sizeof(b));
	snprintf(b.type, sizeof(b.type), "float32");
	b.data = (unsigned char *)v;
	b.len = n * sizeof(float);
	b.count = (long long)n;
	return b;
}

static void
test_spread(void **state)
{
	float a[4] = { 1, -2, 3, NAN }, b[4] = { 1, -2.003f, 3.001f, NAN };
	float c[4] = { 1, -2, 3, 0 };
	int32_t i[2] = { 1, 2 }, j[2] = { 1, 3 };
	struct buf w = fbuf(a, 4), iw;
	double sc, s;

	(void)state;
	s = spread(&w, (unsigned char *)a, sizeof(a), &sc);
	assert_true(s == 0);
	s = spread(&w, (unsigned char *)b, sizeof(b), &sc);
	assert_true(fabs(s - 0.003) < 1e-6);
	assert_true(sc == 3);
	/* a NaN that moves, another size: no band */
	assert_true(spread(&w, (unsigned char *)c, sizeof(c), &sc) ==
	    SPREAD_NONE);
	assert_true(spread(&w, (unsigned char *)b, 8, &sc) == SPREAD_NONE);
	assert_true(spread(&w, NULL, 0, &sc) == SPREAD_NONE);
	/* integers differ or not, never within a band */
	iw = w;
	snprintf(iw.type, sizeof(iw.type), "int32");
	iw.data = (unsigned char *)i;
	iw.len = sizeof(i);
	assert_true(spread(&iw, (unsigned char *)j, sizeof(j), &sc) ==
	    SPREAD_NONE);
	assert_true(spread(&iw, (unsigned char *)i, sizeof(i), &sc) == 0);
}

static void
test_band(void **state)
{
	float want[3] = { 10, 20, 30 }, got[3] = { 10.01f, 20, 30 };
	struct buf w = fbuf(want, 3), g = fbuf(got, 3);
	struct cmp m;

	(void)state;
	opt.atol = opt.rtol = -1;
	opt.spread_k = 4;
	/* deterministic: the dtype's atol 1e-5 + rtol 1e-4 x 10 = 1e-3 */
	w.spread = 0;
	assert_true(band_atol(&w) == 1e-5);
	compare(&w, &g, band_atol(&w), opt.rtol, &m);
	assert_int_equal(m.mismatches, 1);
	assert_int_equal(m.first, 0);
	/* a spread of 0.002: band 0.008 + 1e-3, still too tight for 0.01 */
	w.spread = 0.002;
	assert_true(fabs(band_atol(&w) - 0.008) < 1e-12);
	compare(&w, &g, band_atol(&w), opt.rtol, &m);
	assert_int_equal(m.mismatches, 1);
	/* 0.003: band 0.012 covers it */
	w.spread = 0.003;
	compare(&w, &g, band_atol(&w), opt.rtol, &m);
	assert_int_equal(m.mismatches, 0);
	/* k is the knob */
	opt.spread_k = 1;
	compare(&w, &g, band_atol(&w), opt.rtol, &m);
	assert_int_equal(m.mismatches, 1);
	/* --atol larger than k x spread wins; an unbanded output keeps it */
	opt.atol = 0.5;
	assert_true(band_atol(&w) == 0.5);
	w.spread = SPREAD_NONE;
	opt.atol = -1;
	assert_true(band_atol(&w) == 1e-5);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_band),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
