/*
 * Unit tests of kwrap's pure parts: the bound algebra (poly.c), the exact
 * evaluator (eval.c), the tokenizer (tok.c) and the vocabulary the spec
 * shares with the harness template (vocab.c).
 */
#include "unit.h"

#include <limits.h>

#include "kwrap.h"

/* p as kwrap prints it */
static const char *
show(const struct atoms *at, const struct poly *p)
{
	static char buf[4][MAX_EXPR];
	static int next;
	char *s = buf[next++ % 4];

	p_print(at, p, s, MAX_EXPR);
	return s;
}

/* the atom called name, a size (at least 1) when size */
static void
atom(struct atoms *at, struct poly *p, const char *name, int size)
{
	int a = atom_get(at, name);

	assert_true(a >= 0);
	at->a[a].ge1 = size;
	p_atom(p, a);
}

static void
test_poly_const(void **state)
{
	struct poly p, q, r;
	long long c;

	(void)state;
	p_const(&p, 7);
	assert_true(p_isconst(&p, &c));
	assert_int_equal(c, 7);
	p_const(&q, -7);
	p_add(&r, &p, &q, 1);
	assert_true(p_isconst(&r, &c));
	assert_int_equal(c, 0);
	p_inf(&r);
	assert_false(p_isconst(&r, &c));
	/* infinity absorbs */
	p_add(&r, &r, &p, 1);
	assert_true(r.inf);
}

static void
test_poly_overflow(void **state)
{
	struct poly p, one, r;

	(void)state;
	p_const(&p, LLONG_MAX);
	p_const(&one, 1);
	p_add(&r, &p, &one, 1);
	assert_true(r.inf);
	p_mul(&r, &p, &p);
	assert_true(r.inf);
	p_const(&p, LLONG_MIN);
	p_add(&r, &p, &one, -1);
	assert_true(r.inf);
}

static void
test_poly_mul_print(void **state)
{
	struct atoms *at = calloc(1, sizeof(*at));
	struct poly n, m, one, a, b, r;

	(void)state;
	assert_non_null(at);
	atom(at, &n, "n", 1);
	atom(at, &m, "m", 1);
	p_const(&one, 1);
	p_add(&a, &n, &one, 1);		/* n + 1 */
	p_add(&b, &n, &one, -1);	/* n - 1 */
	p_mul(&r, &a, &b);
	assert_string_equal(show(at, &r), "n * n - 1");
	p_mul(&r, &n, &m);
	p_scale(&r, &r, 3);
	assert_string_equal(show(at, &r), "3 * n * m");
	p_add(&r, &r, &n, -1);
	assert_string_equal(show(at, &r), "3 * n * m - n");
	free(at);
}

static void
test_poly_nonneg(void **state)
{
	struct atoms *at = calloc(1, sizeof(*at));
	struct poly n, m, x, r, one;

	(void)state;
	assert_non_null(at);
	atom(at, &n, "n", 1);
	atom(at, &m, "m", 1);
	atom(at, &x, "x", 0);		/* of either sign */
	p_const(&one, 1);
	/* n * m - n >= 0 since m >= 1 */
	p_mul(&r, &n, &m);
	p_add(&r, &r, &n, -1);
	assert_true(p_nonneg(at, &r));
	/* n - 1 >= 0, n - 2 is not known to be */
	p_add(&r, &n, &one, -1);
	assert_true(p_nonneg(at, &r));
	p_add(&r, &r, &one, -1);
	assert_false(p_nonneg(at, &r));
	/* n - m may be negative */
	p_add(&r, &n, &m, -1);
	assert_false(p_nonneg(at, &r));
	/* a signed atom proves nothing */
	assert_false(p_nonneg(at, &x));
	assert_true(p_ge(at, &n, &one));
	assert_false(p_ge(at, &one, &n));
	free(at);
}

static void
test_poly_div_loosen(void **state)
{
	struct atoms *at = calloc(1, sizeof(*at));
	struct poly n, two, four, r, s;
	long long c;

	(void)state;
	assert_non_null(at);
	atom(at, &n, "n", 1);
	p_const(&two, 2);
	p_const(&four, 4);
	/* exact where every term divides */
	p_scale(&r, &n, 2);
	p_div(at, &s, &r, &two);
	assert_string_equal(show(at, &s), "n");
	p_const(&r, 9);
	p_div(at, &s, &r, &two);
	assert_true(p_isconst(&s, &c));
	assert_int_equal(c, 4);
	/* else a quotient atom, which 4 * (n / 4) <= n undoes */
	p_div(at, &s, &n, &four);
	assert_string_equal(show(at, &s), "n / 4");
	p_scale(&r, &s, 4);
	p_loosen(at, &r);
	assert_string_equal(show(at, &r), "n");
	/* the same quotient twice is the same atom */
	p_div(at, &r, &n, &four);
	assert_int_equal(r.t[0].a[0], s.t[0].a[0]);
	free(at);
}

static void
test_poly_max_min(void **state)
{
	struct atoms *at = calloc(1, sizeof(*at));
	struct poly n, m, one, r;

	(void)state;
	assert_non_null(at);
	atom(at, &n, "n", 1);
	atom(at, &m, "m", 1);
	p_const(&one, 1);
	p_max(at, &r, &n, &one);
	assert_string_equal(show(at, &r), "n");
	p_min(at, &r, &n, &one);
	assert_string_equal(show(at, &r), "1");
	/* neither larger: their sum bounds both */
	p_max(at, &r, &n, &m);
	assert_string_equal(show(at, &r), "n + m");
	p_min(at, &r, &n, &m);
	assert_string_equal(show(at, &r), "0");
	/* two upper bounds: the smaller holds */
	p_meet_hi(at, &r, &n, &one);
	assert_string_equal(show(at, &r), "1");
	free(at);
}

static void
test_poly_max_termwise(void **state)
{
	struct atoms *at = calloc(1, sizeof(*at));
	struct poly n, q, c, a, b, r;

	(void)state;
	assert_non_null(at);
	atom(at, &n, "n", 1);
	/* q is 0 or more, not a size: n * q - n + 7 is not provably 0 or
	 * more, and neither bound is provably the larger */
	atom(at, &q, "q", 0);
	at->a[q.t[0].a[0]].nonneg = 1;
	p_mul(&a, &n, &q);
	p_add(&a, &a, &n, -1);
	p_const(&c, 7);
	p_add(&a, &a, &c, 1);
	p_mul(&b, &n, &q);
	p_const(&c, 3);
	p_add(&b, &b, &c, 1);
	assert_false(p_nonneg(at, &a));
	/* the larger coefficient of each monomial bounds both */
	p_max(at, &r, &a, &b);
	assert_string_equal(show(at, &r), "n * q + 7");
	free(at);
}

static void
test_poly_div_product(void **state)
{
	struct atoms *at = calloc(1, sizeof(*at));
	struct poly x, y, z, m, a, c, r;
	long long v;

	(void)state;
	assert_non_null(at);
	atom(at, &x, "x", 1);
	atom(at, &y, "y", 1);
	atom(at, &z, "z", 1);
	/* (x * y * z - 1) / (x * y): a grid of x * y * z blocks split by
	 * x * y, at most z - 1 */
	p_mul(&m, &x, &y);
	p_mul(&a, &m, &z);
	p_const(&c, 1);
	p_add(&a, &a, &c, -1);
	p_div(at, &r, &a, &m);
	assert_string_equal(show(at, &r), "z - 1");
	/* (16 * x * z - 16) / (16 * x) is z - 1; 15 / (16 * x) is 0 */
	p_scale(&m, &x, 16);
	p_mul(&a, &m, &z);
	p_const(&c, 16);
	p_add(&a, &a, &c, -1);
	p_div(at, &r, &a, &m);
	assert_string_equal(show(at, &r), "z - 1");
	p_const(&c, 15);
	p_div(at, &r, &c, &m);
	assert_true(p_isconst(&r, &v));
	assert_int_equal(v, 0);
	/* 17 / (16 * x) is not known */
	p_const(&c, 17);
	p_div(at, &r, &c, &m);
	assert_false(p_isconst(&r, &v));
	free(at);
}

static void
test_iv(void **state)
{
	struct atoms *at = calloc(1, sizeof(*at));
	struct iv a, b, r;
	struct poly n;

	(void)state;
	assert_non_null(at);
	atom(at, &n, "n", 1);
	/* [0, n - 1] * -2 is [-2n + 2, 0] */
	p_const(&a.lo, 0);
	p_const(&b.lo, 1);
	p_add(&a.hi, &n, &b.lo, -1);
	iv_const(&b, -2);
	iv_mul(at, &r, &a, &b);
	assert_string_equal(show(at, &r.lo), "-2 * n + 2");
	assert_string_equal(show(at, &r.hi), "0");
	assert_false(iv_nonneg(at, &r));
	/* [0, n - 1] + [0, n - 1] */
	iv_add(&r, &a, &a, 1);
	assert_string_equal(show(at, &r.hi), "2 * n - 2");
	iv_hull(at, &r, &a, &b);
	assert_string_equal(show(at, &r.lo), "-2");
	assert_string_equal(show(at, &r.hi), "n - 1");
	iv_top(&r);
	assert_true(r.lo.inf && r.hi.inf);
	free(at);
}

static void
test_eval(void **state)
{
	struct consts *c = calloc(1, sizeof(*c)), *bind = calloc(1,
	    sizeof(*bind));
	struct toks t = { 0 };
	long long v;

	(void)state;
	assert_non_null(c);
	assert_non_null(bind);
	assert_true(eval_str("1 << 62", c, &v));
	assert_int_equal(v, 1LL << 62);
	assert_false(eval_str("(1 << 62) * 4", c, &v));
	assert_false(eval_str("7 / 0", c, &v));
	assert_false(eval_str("n + 1", c, &v));
	assert_true(eval_str("(int)5 + 2u * 3", c, &v));
	assert_int_equal(v, 11);
	const_set(c, "N", 3);
	assert_true(eval_str("N * -2", c, &v));
	assert_int_equal(v, -6);
	/* bindings before constants; a struct's field by its dotted name */
	tokenize("p.n * N + N", &t);
	assert_int_equal(eval_bound(&t, c, bind, &v), 0);
	const_set(bind, "p.n", 10);
	const_set(bind, "N", 1);
	assert_int_equal(eval_bound(&t, c, bind, &v), 1);
	assert_int_equal(v, 11);
	toks_free(&t);
	tokenize("9223372036854775807 + 1", &t);
	assert_int_equal(eval_bound(&t, c, bind, &v), -1);
	toks_free(&t);
	/* comparisons, logic and ?: (the operand not taken is not
	 * evaluated: an unknown name or a division by 0 there is no
	 * failure) */
	assert_true(eval_str("(N < 32) ? N : 32", c, &v));
	assert_int_equal(v, 3);
	assert_true(eval_str("N >= 4 ? n / 0 : 1", c, &v));
	assert_int_equal(v, 1);
	assert_false(eval_str("N < 4 ? n : 1", c, &v));
	assert_true(eval_str("N == 3 && (N != 2 || n) && !0", c, &v));
	assert_int_equal(v, 1);
	assert_true(eval_str("0 && n", c, &v) && v == 0);
	assert_true(eval_str("(6 & 3) | 8 ^ 1", c, &v) && v == 11);
	assert_true(eval_str("std::min(N, 2) + max(N, 5)", c, &v) && v == 7);
	assert_true(eval_str("static_cast<int>(N) * int(2)", c, &v) &&
	    v == 6);
	assert_false(eval_str("N ? 1", c, &v));
	consts_free(c);
	free(c);
	consts_free(bind);
	free(bind);
}

static void
test_consts(void **state)
{
	const char *code = "#define BLOCK (2 * 128)\n#define F(x) x\n"
	    "enum E { A, B = 5, C };\nconstexpr int K = BLOCK / 4;\n"
	    "__host__ __device__ constexpr int up(int a, int b = 2) "
	    "{ return (a + b - 1) / b; }\n"
	    "constexpr int lg(int v) { return v <= 1 ? 0 : 1 + lg(v / 2); }\n"
	    "constexpr int loop(int v) { return loop(v); }\n"
	    "static constexpr unsigned int U = up(K, 8) << 1;\n"
	    "constexpr bool WIDE = lg(BLOCK) > 7;\n"
	    "constexpr int R = loop(1);\n";
	struct consts *c = calloc(1, sizeof(*c));
	struct toks t = { 0 };
	long long v;

	(void)state;
	assert_non_null(c);
	tokenize(code, &t);
	collect_consts(code, &t, c);
	assert_true(const_get(c, "BLOCK", &v) && v == 256);
	assert_true(const_get(c, "C", &v) && v == 6);
	assert_true(const_get(c, "K", &v) && v == 64);
	assert_false(const_get(c, "F", &v));
	/* constexpr functions of one return, called (recursion too) */
	assert_true(const_get(c, "U", &v) && v == 16);
	assert_true(const_get(c, "WIDE", &v) && v == 1);
	assert_true(eval_str("lg(1 << 10) + up(7, 2)", c, &v) && v == 14);
	assert_false(const_get(c, "R", &v));
	toks_free(&t);
	consts_free(c);
	free(c);
}

static void
test_tokens(void **state)
{
	struct toks t = { 0 };
	char out[64];

	(void)state;
	tokenize("a /* x */ += \"s\\\"t\" // y\n#define Z 1\nb->c[hipThreadIdx_x]",
	    &t);
	assert_int_equal(t.n, 11);
	assert_string_equal(t.v[1], "+=");
	/* a string keeps its text, escapes and all (an asm template) */
	assert_string_equal(t.v[2], "\"s\\\"t\"");
	assert_string_equal(t.v[4], "->");
	assert_string_equal(t.v[7], "threadIdx");
	assert_int_equal(skip_group(&t, 6), 11);
	join(&t, 3, 11, out, sizeof(out));
	assert_string_equal(out, "b -> c[threadIdx.x]");
	toks_free(&t);
}

/* Whether harness.in declares name as an enumerator: the whole word,
 * followed by a comma or the enum's closing brace. */
static int
declared(const char *name)
{
	const char *p = kwrap_harness_text;
	size_t l = strlen(name);

	while ((p = strstr(p, name)) != NULL) {
		const char *e = p + l;
		if ((p == kwrap_harness_text || p[-1] == ' ' || p[-1] == '\t') &&
		    (*e == ',' || strncmp(e, " }", 2) == 0))
			return 1;
		p = e;
	}
	return 0;
}

/* Every constant the vocabulary writes into a harness is one harness.in
 * declares, and every dtype of lib's table has one. */
static void
test_vocab(void **state)
{
	const struct vocab *const lists[] = { roles, fill_kinds, dtype_names };
	const struct k_dtype *d;
	const struct vocab *v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		for (v = lists[i]; v->name != NULL; v++) {
			if (v->harness != NULL && !declared(v->harness))
				fail_msg("%s: not declared in harness.in",
				    v->harness);
		}
	for (d = k_dtypes(); d->name != NULL; d++)
		assert_non_null(vocab_find(dtype_names, d->name));
	assert_string_equal(vocab_harness(roles, "out", "?"), "KW_OUT");
	assert_string_equal(vocab_harness(roles, "scalar", "?"), "?");
	assert_string_equal(vocab_harness(fill_kinds, "bogus", "KW_UNIFORM"),
	    "KW_UNIFORM");
	assert_string_equal(roles[R_INOUT].name, "inout");
}

int
main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_poly_const),
		cmocka_unit_test(test_poly_overflow),
		cmocka_unit_test(test_poly_mul_print),
		cmocka_unit_test(test_poly_nonneg),
		cmocka_unit_test(test_poly_div_loosen),
		cmocka_unit_test(test_poly_max_min),
		cmocka_unit_test(test_poly_max_termwise),
		cmocka_unit_test(test_poly_div_product),
		cmocka_unit_test(test_iv),
		cmocka_unit_test(test_eval),
		cmocka_unit_test(test_consts),
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_vocab),
	};

	return cmocka_run_group_tests_name("kwrap", tests, NULL, NULL);
}
