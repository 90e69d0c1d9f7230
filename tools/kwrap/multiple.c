/*
 * kwrap: what an integer variable is a multiple of, read from the text
 * of what is assigned to it.  A vector kernel's index
 * i = (blockIdx.x * blockDim.x + threadIdx.x) * 4 steps by 4, so the
 * guard i < n bounds it by 4 * ((n - 1) / 4), not n - 1, and the float4
 * at i ends at the multiple of 4 at or above n.
 */
#include "kwrap.h"

#define MULT_CAP (1LL << 30)

static long long mult_range(struct fn *f, size_t a, size_t b, int depth);

/* A whole integer literal's value, or -1. */
static long long
literal(const char *s)
{
	char *end;
	long long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	return *end == '\0' && errno == 0 && v < MULT_CAP ? v : -1;
}

/* Operators that bind less tightly than + and leave no multiple. */
static int
loose_op(const char *s)
{
	static const char *const ops[] = { "?", ":", "||", "&&", "|", "^",
	    "&", "==", "!=", "<", ">", "<=", ">=", ">>", "=", ",", "/", "%",
	    NULL };
	int i;

	for (i = 0; ops[i] != NULL; i++)
		if (strcmp(s, ops[i]) == 0)
			return 1;
	return 0;
}

/* What tokens [a, b) of f, an integer expression, is a multiple of: 0
 * for zero (a multiple of anything), 1 when nothing better is known. */
static long long
mult_range(struct fn *f, size_t a, size_t b, int depth)
{
	const struct toks *t = f->t;
	size_t i, cut, parts[32], div = 0;
	int np = 0, add = 0, mul = 0, shl = 0;
	long long m, v;

	while (b > a + 1 && is(t, a, "(") && skip_group(t, a) == b) {
		a++;
		b--;
	}
	if (b <= a || depth > 8)
		return 1;
	if (b == a + 1) {
		const char *s = t->v[a];
		if ((v = literal(s)) >= 0)
			return v;
		if (is_ident(s) && const_get(&f->k->c, s, &v) && v >= -MULT_CAP &&
		    v <= MULT_CAP)
			return v < 0 ? -v : v;
		if (is_ident(s) && !is_keyword(s)) {
			/* a local constant: constexpr int w = 16 / sizeof(T) */
			struct iv r;
			long long hi;
			eval_at(f, a, b, &r);
			if (p_isconst(&r.lo, &v) && p_isconst(&r.hi, &hi) &&
			    v == hi && v >= -MULT_CAP && v <= MULT_CAP)
				return v < 0 ? -v : v;
			return var_multiple(f, s, decl_of(f, s, a), depth + 1);
		}
		return 1;
	}
	for (i = a, cut = a; i < b; ) {
		const char *s = t->v[i];
		if (is(t, i, "(") || is(t, i, "[")) {
			i = skip_group(t, i);
			continue;
		}
		if ((strcmp(s, "+") == 0 || strcmp(s, "-") == 0) && i > a &&
		    !unary_at(t, i)) {
			add = 1;
			if (np < 30)
				parts[np++] = i;
		} else if (strcmp(s, "*") == 0 && i > a && !unary_at(t, i))
			mul = 1;
		else if (strcmp(s, "/") == 0 && i > a) {
			/* a / b * 16: the quotient times what follows it
			 * (a sum's parts are taken one by one) */
			mul = 1;
			div = i;
		} else if (strcmp(s, "<<") == 0) {
			shl = 1;
			cut = i;
		} else if (loose_op(s))
			return 1;
		i++;
	}
	if (shl) {
		/* x << k: the multiple of x times 2^k */
		if (cut + 2 != b || (v = literal(t->v[cut + 1])) < 0 || v > 20)
			return 1;
		m = mult_range(f, a, cut, depth + 1);
		return m * (1LL << v) < MULT_CAP ? m * (1LL << v) : 1;
	}
	if (add) {
		size_t s = a;
		int j;
		if (np >= 30)
			return 1;
		m = 0;
		parts[np] = b;
		for (j = 0; j <= np && m != 1; j++) {
			m = gcd_ll(m, mult_range(f, s, parts[j], depth + 1));
			s = parts[j] + 1;
		}
		return m;
	}
	if (mul) {
		size_t s = a;
		/* after the last division: its divisor, then the factors
		 * that multiply the quotient (none: 1) */
		if (div > 0) {
			for (s = div + 1; s < b && !(is(t, s, "*") &&
			    !unary_at(t, s)); )
				s = is(t, s, "(") || is(t, s, "[") ?
				    skip_group(t, s) : s + 1;
			if (s >= b)
				return 1;
			s++;
		}
		m = 1;
		for (i = s; i <= b; ) {
			if (i < b && (is(t, i, "(") || is(t, i, "["))) {
				i = skip_group(t, i);
				continue;
			}
			if (i == b || (is(t, i, "*") && i > s && !unary_at(t, i))) {
				v = mult_range(f, s, i, depth + 1);
				if (v == 0)
					return 0;
				if (m > MULT_CAP / v)
					return 1;
				m *= v;
				s = i + 1;
			}
			i++;
		}
		return m;
	}
	/* -x, +x, (int)x, static_cast<int>(x) */
	if (is(t, a, "-") || is(t, a, "+"))
		return mult_range(f, a + 1, b, depth + 1);
	if (is(t, a, "(") && (i = skip_group(t, a)) < b && is_cast(f, a, i - 1))
		return mult_range(f, i, b, depth + 1);
	if (is(t, a, "static_cast") && is(t, a + 1, "<")) {
		for (i = a + 2; i < b && !is(t, i, ">"); i++)
			;
		if (i + 1 < b && is(t, i + 1, "(") && skip_group(t, i + 1) == b)
			return mult_range(f, i + 2, b - 1, depth + 1);
	}
	return 1;
}

long long
expr_multiple(struct fn *f, size_t a, size_t b)
{
	return mult_range(f, a, b, 0);
}

/* What variable name of declaration d is a multiple of, whatever path
 * reaches a use: the gcd of what every assignment to it (=, += and -=)
 * gives; 1 when one of them leaves nothing known (++, *=, &name). */
long long
var_multiple(struct fn *f, const char *name, int d, int depth)
{
	long long m = 0;
	int j, n = 0;

	if (d < 0 || depth > 8)
		return 1;
	for (j = 0; j < f->nas && m != 1; j++) {
		const struct asg *as = &f->as[j];
		if (strcmp(as->name, name) != 0 || as->d != d)
			continue;
		if ((as->kind != A_EQ && as->kind != A_INC &&
		    as->kind != A_DEC) || as->b <= as->a)
			return 1;
		m = gcd_ll(m, mult_range(f, as->a, as->b, depth + 1));
		n++;
	}
	return n > 0 && m > 1 ? m : 1;
}
