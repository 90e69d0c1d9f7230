/*
 * Unit tests of kverify's comparison (compare.c): the tolerance band
 * widened by the spread the reference shows against itself; and of a
 * GPU's gate (gate.c), with threads in place of workers.
 */
#include "unit.h"

#include <math.h>
#include <pthread.h>
#include <time.h>

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

/* A worker's request at the gate, in a thread of its own: entered is set
 * once it is in; it leaves when told to. */
struct req {
	struct gate *g;
	int alone;
	volatile int entered, leave;
	pthread_t th;
};

static void
nap(double s)
{
	struct timespec t = { 0, (long)(s * 1e9) };

	nanosleep(&t, NULL);
}

static void *
req_main(void *arg)
{
	struct req *r = arg;

	gate_enter(r->g, r->alone);
	r->entered = 1;
	while (!r->leave)
		nap(0.001);
	gate_leave(r->g, r->alone);
	return NULL;
}

static void
req_start(struct req *r, struct gate *g, int alone)
{
	memset(r, 0, sizeof(*r));
	r->g = g;
	r->alone = alone;
	assert_int_equal(pthread_create(&r->th, NULL, req_main, r), 0);
}

/* true once r is in, within s seconds */
static int
req_in(struct req *r, double s)
{
	double t;

	for (t = 0; t < s && !r->entered; t += 0.005)
		nap(0.005);
	return r->entered;
}

static void
req_end(struct req *r)
{
	r->leave = 1;
	pthread_join(r->th, NULL);
}

static void
test_gate_idle(void **state)
{
	struct gate g;
	struct req t;

	(void)state;
	gate_init(&g, 4, 60);
	/* a timing that finds the GPU idle goes at once, whatever the
	 * batch and the delay */
	req_start(&t, &g, 1);
	assert_true(req_in(&t, 5));
	req_end(&t);
}

static void
test_gate_gathers(void **state)
{
	struct gate g;
	struct req a, t1, b, t2, c, d, *first, *second;

	(void)state;
	gate_init(&g, 2, 60);
	req_start(&a, &g, 0);
	assert_true(req_in(&a, 5));
	/* one timing waits for the check under way ... */
	req_start(&t1, &g, 1);
	assert_false(req_in(&t1, 0.1));
	/* ... and other checks still start beside it */
	req_start(&b, &g, 0);
	assert_true(req_in(&b, 5));
	/* a second timing makes the batch: no check starts now */
	req_start(&t2, &g, 1);
	nap(0.05);
	req_start(&c, &g, 0);
	assert_false(req_in(&c, 0.1));
	/* the checks under way end: the timings go, one at a time,
	 * before the check that waited */
	req_end(&a);
	req_end(&b);
	nap(0.1);
	assert_int_equal(t1.entered + t2.entered, 1);
	assert_false(c.entered);
	first = t1.entered ? &t1 : &t2;
	second = first == &t1 ? &t2 : &t1;
	req_end(first);
	assert_true(req_in(second, 5));
	assert_false(c.entered);
	req_end(second);
	/* then checks again, side by side */
	assert_true(req_in(&c, 5));
	req_start(&d, &g, 0);
	assert_true(req_in(&d, 5));
	req_end(&c);
	req_end(&d);
}

static void
test_gate_delay(void **state)
{
	struct gate g;
	struct req a, t, c;

	(void)state;
	gate_init(&g, 8, 0.05);
	req_start(&a, &g, 0);
	assert_true(req_in(&a, 5));
	req_start(&t, &g, 1);
	/* alone below the batch, the timing drains once it has waited
	 * the delay: a check asked for after that waits for it */
	nap(0.3);
	req_start(&c, &g, 0);
	assert_false(req_in(&c, 0.1));
	assert_false(t.entered);
	req_end(&a);
	assert_true(req_in(&t, 5));
	assert_false(c.entered);
	req_end(&t);
	assert_true(req_in(&c, 5));
	req_end(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_band),
		cmocka_unit_test(test_gate_idle),
		cmocka_unit_test(test_gate_gathers),
		cmocka_unit_test(test_gate_delay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
