/*
 * Unit tests of kverify --fit's pure parts: the reader of compute-sanitizer
 * memcheck's report (sanreport.c), on excerpts of real reports (CUDA 13.0,
 * an H200, references of the development corpora faulting on their own
 * test cases; only the tool's lines, frames cut), and the formula fit
 * (fitmath.c).
 */
#include "unit.h"

#include <limits.h>

#include "kverify.h"

/* an input read far past a 1,200-byte buffer: thousands separators */
static const char far_after[] =
    "# a record case 8\n"
    "========= COMPUTE-SANITIZER\n"
    "========= Invalid __global__ read of size 1 bytes\n"
    "=========     at void kgemm_4bit_inference_naive<float, (int)128, (int)1>(int, int, int, T1 *, unsigned char *, float *, const float *, T1 *, int, int, int, int)+0x420\n"
    "=========     by thread (1,0,0) in block (1,0,0)\n"
    "=========     Access to 0x7f2f76dd0d10 is out of bounds\n"
    "=========     and is 3,996,257 bytes after the nearest allocation at 0x7f2f76a00e00 of size 1,200 bytes\n"
    "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
    "=========         Host Frame: cuLaunchKernel [0x39fb94] in libcuda.so.1\n"
    "=========         Host Frame: kw_case_main(char const**, int) [0x42a9] in harness\n"
    "=========         Host Frame: main [0x2b26] in harness\n"
    "========= \n"
    "========= Invalid __global__ read of size 4 bytes\n"
    "=========     at simple_wmma_gemm_imma(const unsigned char *, const unsigned char *, const int *, int *, int, int, int, int, int)+0xda0\n"
    "=========     by thread (2,0,0) in block (0,0,0)\n"
    "=========     Access to 0x7f8010800008 is out of bounds\n"
    "=========     and is 8 bytes after the nearest allocation at 0x7f8010800000 of size 1 bytes\n"
    "========= \n"
    "harness: kw_sync(): CUDA_ERROR_LAUNCH_FAILED\n"
    "========= Target application returned an error\n"
    "========= ERROR SUMMARY: 51,913 errors\n"
    "========= ERROR SUMMARY: 51,911 errors were not printed. Use --print-limit option to adjust the number of printed errors\n"
    "# exit 5\n";

/* the other shapes: misaligned inside, before, shared, local, atomic, an
 * API error */
static const char shapes[] =
    "========= COMPUTE-SANITIZER\n"
    "========= Invalid __global__ read of size 16 bytes\n"
    "=========     at void focal_loss_backward_cuda_kernel<(int)1, float, float, float>(T2 *, const T4 *, const float *, unsigned long)+0x110\n"
    "=========     by thread (1,0,0) in block (8,0,0)\n"
    "=========     Access to 0x7efdfc802004 is misaligned\n"
    "=========     and is inside the nearest allocation at 0x7efdfc800000 of size 400,000 bytes\n"
    "========= \n"
    "========= Invalid __global__ read of size 16 bytes\n"
    "=========     by thread (0,1,0) in block (0,0,0)\n"
    "=========     Access to 0x7fb9d3a94400 is out of bounds\n"
    "=========     and is 7,698,037,760 bytes before the nearest allocation at 0x7fbb9e800000 of size 4,194,304 bytes\n"
    "========= \n"
    "========= Invalid __shared__ write of size 4 bytes\n"
    "=========     by thread (64,0,0) in block (0,0,0)\n"
    "=========     Access to 0x500 is out of bounds\n"
    "========= \n"
    "========= Invalid __local__ write of size 16 bytes\n"
    "=========     by thread (0,0,0) in block (0,0,0)\n"
    "=========     Access to 0xfffab0 is out of bounds\n"
    "========= \n"
    "========= Invalid __global__ atomic of size 4 bytes\n"
    "=========     by thread (12,12,0) in block (34950,0,0)\n"
    "=========     Access to 0x7f2890000364 is out of bounds\n"
    "=========     and is 869 bytes after the nearest allocation at 0x7f288c000000 of size 67,108,864 bytes\n"
    "========= \n"
    "========= Program hit CUDA_ERROR_INVALID_VALUE (error 1) due to \"invalid argument\" on CUDA API call to cuLaunchKernel.\n"
    "=========     Saved host backtrace up to driver entry point at error\n"
    "========= ERROR SUMMARY: 6 errors\n";

static void
test_report_after(void **state)
{
	struct san_finding f[8];
	size_t n;
	long errors;

	(void)state;
	san_parse(far_after, f, 8, &n, &errors);
	assert_int_equal(n, 2);
	assert_int_equal(errors, 51913);
	assert_string_equal(f[0].space, "global");
	assert_string_equal(f[0].kind, "read");
	assert_int_equal(f[0].size, 1);
	assert_true(f[0].have_addr && f[0].out_of_bounds && !f[0].misaligned);
	assert_true(f[0].addr == 0x7f2f76dd0d10ULL);
	assert_int_equal(f[0].rel, 1);
	assert_int_equal(f[0].dist, 3996257);
	assert_true(f[0].have_alloc && f[0].alloc == 0x7f2f76a00e00ULL);
	assert_int_equal(f[0].alloc_size, 1200);
	assert_string_equal(f[0].where, "thread (1,0,0) in block (1,0,0)");
	assert_string_equal(f[0].text, "Invalid __global__ read of size 1 bytes");
	/* what the buffer must hold: up to the end of the access */
	assert_int_equal(san_need(&f[0], f[0].alloc), 0x3cff10 + 1);
	assert_int_equal(f[1].size, 4);
	assert_int_equal(san_need(&f[1], f[1].alloc), 12);
	/* an access before the base says nothing of the size */
	assert_int_equal(san_need(&f[1], f[1].addr + 1), -1);
	/* room for one finding: the rest are counted by the summary only */
	san_parse(far_after, f, 1, &n, &errors);
	assert_int_equal(n, 1);
	assert_int_equal(errors, 51913);
}

static void
test_report_shapes(void **state)
{
	struct san_finding f[8];
	size_t n;
	long errors;

	(void)state;
	san_parse(shapes, f, 8, &n, &errors);
	assert_int_equal(n, 6);
	assert_int_equal(errors, 6);
	assert_true(f[0].misaligned && !f[0].out_of_bounds);
	assert_int_equal(f[0].rel, 0);
	assert_true(f[0].have_alloc && f[0].alloc_size == 400000);
	assert_int_equal(f[1].rel, -1);
	assert_int_equal(f[1].dist, 7698037760LL);
	assert_int_equal(f[1].alloc_size, 4194304);
	assert_string_equal(f[2].space, "shared");
	assert_string_equal(f[2].kind, "write");
	assert_true(f[2].have_addr && f[2].addr == 0x500 && !f[2].have_alloc);
	assert_string_equal(f[3].space, "local");
	assert_string_equal(f[4].kind, "atomic");
	assert_int_equal(f[4].alloc_size, 67108864);
	assert_string_equal(f[5].kind, "other");
	assert_string_equal(f[5].space, "");
	assert_false(f[5].have_addr);
}

static void
test_report_odd(void **state)
{
	struct san_finding f[4];
	size_t n;
	long errors;

	(void)state;
	/* cut before its summary (a timeout), other prefixes, nothing */
	san_parse("========= COMPUTE-SANITIZER\n"
	    "========= Invalid __global__ write of size 8 bytes\n"
	    "=========     Access to 0x10 is out of", f, 4, &n, &errors);
	assert_int_equal(n, 1);
	assert_int_equal(errors, -1);
	assert_int_equal(f[0].size, 8);
	assert_true(f[0].have_addr && f[0].addr == 0x10);
	assert_false(f[0].out_of_bounds);
	san_parse("no report here\n  Invalid __global__ read\n", f, 4, &n,
	    &errors);
	assert_int_equal(n, 0);
	san_parse("", f, 4, &n, &errors);
	assert_int_equal(n, 0);
	/* an older tool's wording */
	san_parse("========= Invalid __global__ read of size 4 bytes\r\n"
	    "=========     Address 0x1004 is out of bounds\r\n"
	    "========= ERROR SUMMARY: 1 error\r\n", f, 4, &n, &errors);
	assert_int_equal(n, 1);
	assert_int_equal(errors, 1);
	assert_true(f[0].out_of_bounds && f[0].addr == 0x1004);
	assert_int_equal(san_need(&f[0], 0x1000), 8);
	/* a finding line with no size */
	san_parse("========= Invalid __global__ read\n", f, 4, &n, &errors);
	assert_int_equal(n, 1);
	assert_int_equal(f[0].size, -1);
	assert_int_equal(san_need(&f[0], 0), -1);
}

/* term i of t: expr with values v[0..m) */
static void
term(struct fit_term *t, const char *expr, const long long *v, size_t m)
{
	size_t s;

	memset(t, 0, sizeof(*t));
	snprintf(t->expr, sizeof(t->expr), "%s", expr);
	for (s = 0; s < m; s++)
		t->v[s] = v[s];
}

static void
test_fit_formula(void **state)
{
	static const long long n[] = { 100, 37, 64 }, rows[] = { 4, 9, 2 };
	long long spec[3], one[3] = { 1, 1, 1 }, rc[3], y[3];
	struct fit_term t[6];
	struct fit_result r;
	int s;

	(void)state;
	for (s = 0; s < 3; s++) {
		spec[s] = n[s];
		rc[s] = rows[s] * n[s];
	}
	term(&t[0], "n", spec, 3);
	term(&t[1], "1", one, 3);
	term(&t[2], "rows", rows, 3);
	term(&t[3], "rows * n", rc, 3);
	/* the spec confirmed */
	assert_int_equal(fit_formula(t, 4, spec, 3, 0, &r), 0);
	assert_string_equal(r.how, "static");
	assert_string_equal(r.formula, "n");
	/* affine in the spec's count */
	for (s = 0; s < 3; s++)
		y[s] = 2 * n[s] + 1;
	assert_int_equal(fit_formula(t, 4, y, 3, 0, &r), 0);
	assert_string_equal(r.how, "exact");
	assert_string_equal(r.formula, "2 * n + 1");
	for (s = 0; s < 3; s++)
		y[s] = n[s] - 3;
	fit_formula(t, 4, y, 3, 0, &r);
	assert_string_equal(r.formula, "n - 3");
	/* a row kernel's count: rows times the spec's */
	fit_formula(t, 4, rc, 3, 0, &r);
	assert_string_equal(r.how, "exact");
	assert_string_equal(r.formula, "rows * n");
	/* a constant */
	for (s = 0; s < 3; s++)
		y[s] = 4096;
	fit_formula(t, 4, y, 3, 0, &r);
	assert_string_equal(r.formula, "4096");
	/* three unknowns need a fourth sample: with three, no exact fit,
	 * an upper bound instead */
	for (s = 0; s < 3; s++)
		y[s] = rows[s] * n[s] + 2 * n[s] - 5 + (s == 2);
	fit_formula(t, 4, y, 3, 0, &r);
	assert_string_equal(r.how, "bound");
	assert_string_equal(r.formula, "11 * n");
	for (s = 0; s < 3; s++)
		assert_true(11 * n[s] >= y[s]);
	/* one sample: the measured count */
	y[0] = 777;
	fit_formula(t, 4, y, 1, 0, &r);
	assert_string_equal(r.how, "single");
	assert_string_equal(r.formula, "777");
	/* no samples */
	assert_int_equal(fit_formula(t, 4, y, 0, 0, &r), -1);
}

static void
test_fit_terms(void **state)
{
	static const long long g[] = { 391, 145, 250 };
	long long th[3], y[3], big[3];
	struct fit_term t[3];
	struct fit_result r;
	int s;

	(void)state;
	/* a kernel with no bounds check: every launched thread reads one */
	for (s = 0; s < 3; s++) {
		th[s] = g[s] * 256;
		y[s] = th[s];
		big[s] = FIT_VALUE_MAX + s;
	}
	term(&t[0], "(n + 255) / 256", g, 3);
	term(&t[1], "((n + 255) / 256) * (1) * (1) * (256) * (1) * (1)", th, 3);
	term(&t[2], "huge", big, 3);
	fit_formula(t, 3, y, 3, -1, &r);
	assert_string_equal(r.how, "exact");
	assert_string_equal(r.formula, "256 * ((n + 255) / 256)");
	fit_formula(t + 1, 2, y, 3, -1, &r);
	assert_string_equal(r.formula,
	    "((n + 255) / 256) * (1) * (1) * (256) * (1) * (1)");
	/* a compound term keeps its parentheses under a coefficient */
	for (s = 0; s < 3; s++)
		y[s] = 3 * g[s];
	fit_formula(t, 3, y, 3, -1, &r);
	assert_string_equal(r.formula, "3 * ((n + 255) / 256)");
	/* values past FIT_VALUE_MAX are left out, not overflowed */
	for (s = 0; s < 3; s++)
		y[s] = big[s];
	fit_formula(t, 3, y, 3, -1, &r);
	assert_string_equal(r.how, "bound");
}

static void
test_fit_grammar(void **state)
{
	static const long long n[] = { 10, 20, 30 };
	long long y[3];
	struct fit_term t[2];
	struct fit_result r;
	int s;

	(void)state;
	assert_true(fit_expr_ok("n"));
	assert_true(fit_expr_ok("2 * (p.rows + 1) - -3 % 7 << 2"));
	assert_true(fit_expr_ok("1024ULL * (n >> 1)"));
	assert_false(fit_expr_ok("(long long)n * 2"));
	assert_false(fit_expr_ok("n > 0 ? n : 1"));
	assert_false(fit_expr_ok("max(n, 4)"));
	assert_false(fit_expr_ok("n *"));
	assert_false(fit_expr_ok("(n + 1"));
	assert_false(fit_expr_ok("n n"));
	assert_false(fit_expr_ok(""));
	/* a term outside the grammar never reaches a formula */
	for (s = 0; s < 3; s++)
		y[s] = 2 * n[s];
	term(&t[0], "(int)n", n, 3);
	t[0].unusable = 1;
	term(&t[1], "m", n, 3);
	fit_formula(t, 2, y, 3, 0, &r);
	assert_string_equal(r.how, "exact");
	assert_string_equal(r.formula, "2 * m");
	/* but it is still confirmed as the spec's own count */
	fit_formula(t, 2, n, 3, 0, &r);
	assert_string_equal(r.how, "static");
}

int
main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_after),
		cmocka_unit_test(test_report_shapes),
		cmocka_unit_test(test_report_odd),
		cmocka_unit_test(test_fit_formula),
		cmocka_unit_test(test_fit_terms),
		cmocka_unit_test(test_fit_grammar),
	};

	return cmocka_run_group_tests_name("fit", tests, NULL, NULL);
}
