/*
 * kwrap: the conditions the launcher launches the kernel under (kscan's
 * launches[].conditions).  A launcher that dispatches on its sizes,
 *
 *	if (cols % 4 == 0 && rows >= 8) vec4_kernel<<<...>>>(x, rows, cols);
 *
 * never runs vec4_kernel with cols 6 or rows 2: a kernel that reads a
 * float4 at a time, or divides by cols / 4, faults or misreads there.  A
 * scalar parameter a condition holds a multiple of is one in every case
 * (the cases round it up, as they round a vector access's stride), one
 * it bounds below is at least that bound, one it bounds above (if (cols
 * <= 1024) over a kernel that keeps a row in shared memory) at most that
 * bound, one it holds a divisor of a constant (1024 % len == 0) is a
 * divisor of it, and one it holds equal to a constant (if (groups == 1),
 * smoothing == 0.0f) takes that value.  The other conditions
 * (alternatives joined by ||, conditions on no parameter) are left.
 */
#include "kwrap.h"

#define LEAST_CAP (1LL << 16)
#define ALIGN_CAP 4096

/* The scalar parameter tokens t[a..b) are by the launch's arguments, or
 * -1; floating-point ones only where fp. */
static int
any_param(struct kern *k, json_t *args, const struct toks *t, size_t a,
    size_t b, int fp)
{
	char text[MAX_EXPR];
	int i;

	join(t, a, b, text, sizeof(text));
	i = site_param(k, args, text);
	if (i < 0 || k->p[i].ptr || k->p[i].is_struct || k->p[i].is_enum ||
	    k->p[i].dt == NULL || (k->p[i].dt->is_float && !fp))
		return -1;
	return i;
}

static int
cond_param(struct kern *k, json_t *args, const struct toks *t, size_t a,
    size_t b)
{
	return any_param(k, args, t, a, b, 0);
}

/* The constant t[a..b) spells, an integer expression or one
 * floating-point literal (0.0f, -1.5), into *v. */
static int
const_value(struct kern *k, const struct toks *t, size_t a, size_t b,
    double *v)
{
	long long c;
	char *end;
	int neg = 0;

	if (eval_range(t, a, b, &k->c, &c)) {
		*v = (double)c;
		return 1;
	}
	if (a + 1 < b && is(t, a, "-")) {
		neg = 1;
		a++;
	}
	if (a + 1 != b || !isdigit((unsigned char)t->v[a][0]))
		return 0;
	*v = strtod(t->v[a], &end);
	if (*end == 'f' || *end == 'F')
		end++;
	if (*end != '\0')
		return 0;
	if (neg)
		*v = -*v;
	return 1;
}

/* X == C or C == X: the parameter X takes C. */
static void
equality(struct kern *k, json_t *args, const struct toks *t, size_t a,
    size_t q, size_t b)
{
	double v;
	int i;

	if (const_value(k, t, q + 1, b, &v))
		i = any_param(k, args, t, a, q, 1);
	else if (const_value(k, t, a, q, &v))
		i = any_param(k, args, t, q + 1, b, 1);
	else
		return;
	if (i < 0 || (!k->p[i].dt->is_float && (v != (double)(long long)v ||
	    v < 0 || v > LEAST_CAP)))
		return;
	k->p[i].has_eq = 1;
	k->p[i].eq = v;
}

static void
set_align(struct kern *k, int i, long long c)
{
	long long a = k->p[i].align > 1 ? k->p[i].align : 1;
	long long l = a / gcd_ll(a, c) * c;

	if (c > 1 && l <= ALIGN_CAP)
		k->p[i].align = (int)l;
}

static void
set_least(struct kern *k, int i, long long c)
{
	if (c > 0 && c <= LEAST_CAP && k->p[i].vmin < c)
		k->p[i].vmin = c;
}

static void
set_most(struct kern *k, int i, long long c)
{
	if (c > 0 && (k->p[i].vmax == 0 || c < k->p[i].vmax))
		k->p[i].vmax = c;
}

static void
set_divides(struct kern *k, int i, long long c)
{
	if (c < 1 || c > LEAST_CAP)
		return;
	k->p[i].divides = k->p[i].divides > 0 ?
	    gcd_ll(k->p[i].divides, c) : c;
}

/* The top-level operator op in t[a..b), or b. */
static size_t
top_op(const struct toks *t, size_t a, size_t b, const char *op)
{
	const char *const stop[] = { op, NULL };
	size_t e = expr_end(t, a, stop);

	return e < b ? e : b;
}

/* X % C over t[a..b): the parameter X is, C in *c, *div 0; C % X: X,
 * C in *c, *div 1; else -1. */
static int
remainder_of(struct kern *k, json_t *args, const struct toks *t, size_t a,
    size_t b, long long *c, int *div)
{
	size_t m;

	while (a < b && is(t, a, "(") && skip_group(t, a) == b) {
		a++;
		b--;
	}
	m = top_op(t, a, b, "%");
	if (m >= b)
		return -1;
	*div = 0;
	if (eval_range(t, m + 1, b, &k->c, c))
		return *c < 2 ? -1 : cond_param(k, args, t, a, m);
	*div = 1;
	if (eval_range(t, a, m, &k->c, c))
		return *c < 1 ? -1 : cond_param(k, args, t, m + 1, b);
	return -1;
}

/* The remainder t[a..b) is zero. */
static void
no_remainder(struct kern *k, json_t *args, const struct toks *t, size_t a,
    size_t b)
{
	long long c;
	int i, div;

	if ((i = remainder_of(k, args, t, a, b, &c, &div)) < 0)
		return;
	if (div)
		set_divides(k, i, c);
	else
		set_align(k, i, c);
}

/* One conjunct, t[a..b). */
static void
conjunct(struct kern *k, json_t *args, const struct toks *t, size_t a,
    size_t b)
{
	static const char *const cmp[] = { "==", ">=", ">", "<=", "<", NULL };
	long long c, z;
	size_t q = b;
	int i, j;

	while (a < b && is(t, a, "(") && skip_group(t, a) == b) {
		a++;
		b--;
	}
	/* !(X % C) */
	if (is(t, a, "!") && a + 1 < b && is(t, a + 1, "(") &&
	    skip_group(t, a + 1) == b) {
		no_remainder(k, args, t, a + 2, b - 1);
		return;
	}
	/* alternatives say nothing of each other */
	if (top_op(t, a, b, "||") < b || top_op(t, a, b, "or") < b)
		return;
	for (j = 0; cmp[j] != NULL; j++)
		if ((q = top_op(t, a, b, cmp[j])) < b)
			break;
	if (cmp[j] == NULL || q == a || q + 1 >= b)
		return;
	if (j == 0) {
		/* X % C == 0, C % X == 0, 0 == X % C; else X == C */
		if (eval_range(t, q + 1, b, &k->c, &z) && z == 0 &&
		    top_op(t, a, q, "%") < q)
			no_remainder(k, args, t, a, q);
		else if (eval_range(t, a, q, &k->c, &z) && z == 0 &&
		    top_op(t, q + 1, b, "%") < b)
			no_remainder(k, args, t, q + 1, b);
		else
			equality(k, args, t, a, q, b);
		return;
	}
	/* X >= C, X > C, C <= X, C < X; X <= C, X < C, C >= X, C > X */
	if (eval_range(t, q + 1, b, &k->c, &c) &&
	    (i = cond_param(k, args, t, a, q)) >= 0) {
		if (j <= 2)
			set_least(k, i, j == 1 ? c : c + 1);
		else
			set_most(k, i, j == 3 ? c : c - 1);
	} else if (eval_range(t, a, q, &k->c, &c) &&
	    (i = cond_param(k, args, t, q + 1, b)) >= 0) {
		if (j >= 3)
			set_least(k, i, j == 3 ? c : c + 1);
		else
			set_most(k, i, j == 1 ? c : c - 1);
	}
}

/* The conditions of list conds, each split at its top-level &&. */
static void
read_conditions(struct kern *k, json_t *conds, json_t *args)
{
	static const char *const and[] = { "&&", "and", NULL };
	json_t *v;
	size_t n, a, e;
	struct toks t = { 0 };

	json_array_foreach(conds, n, v) {
		if (!json_is_string(v))
			continue;
		tokenize(json_string_value(v), &t);
		for (a = 0; a < t.n; a = e + 1) {
			e = expr_end(&t, a, and);
			conjunct(k, args, &t, a, e);
		}
		toks_free(&t);
	}
}

void
site_conditions(struct kern *k)
{
	json_t *l = k->site, *r;

	if (!json_is_object(l))
		return;
	r = json_object_get(l, "resolved");
	read_conditions(k, json_object_get(r, "conditions"),
	    json_object_get(r, "args"));
	read_conditions(k, json_object_get(l, "conditions"),
	    json_object_get(l, "args"));
}

/*
 * A grid the launcher divides down, dim3 grid(wB / 16, hA / 16), launches
 * whole tiles only: a kernel that stores without a guard leaves the
 * remainder's elements unwritten, or one that reads a tile of every row
 * reads past them.  The parameter divided (wB) is a multiple of the
 * divisor in every case: a product's first operand divided by a constant
 * (wB / 16 * h), and a group in it alike (rows * (cols / 32)).  A
 * rounded-up grid, (n + 255) / 256 or n / 256 + 1, is no such grid, nor
 * is (K * taps) / 32, which holds K * taps a multiple, not K.
 */
static void
divided_down(struct kern *k, const struct toks *t, size_t a, size_t b,
    int depth)
{
	static const char *const muldiv[] = { "*", "/", NULL };
	long long c;
	size_t e, q;
	int i;

	while (a < b && is(t, a, "(") && skip_group(t, a) == b) {
		a++;
		b--;
	}
	if (depth > 4 || a >= b || top_op(t, a, b, "+") < b ||
	    top_op(t, a, b, "-") < b || top_op(t, a, b, "?") < b)
		return;
	for (q = a; q < b; q = e + 1) {
		e = expr_end(t, q, muldiv);
		if (e > b)
			e = b;
		if (is(t, q, "(") && skip_group(t, q) == e)
			divided_down(k, t, q, e, depth + 1);
		/* the chain's first operand, a parameter, then / C */
		if (q != a || e != a + 1 || e >= b || !is(t, e, "/"))
			continue;
		{
			size_t f = expr_end(t, e + 1, muldiv);
			if (f > b)
				f = b;
			if (!eval_range(t, e + 1, f, &k->c, &c) || c < 2)
				continue;
		}
		if ((i = param_index(k, t->v[a])) >= 0 && !k->p[i].ptr &&
		    !k->p[i].is_struct && k->p[i].dt != NULL &&
		    !k->p[i].dt->is_float)
			set_align(k, i, c);
	}
}

void
grid_divisions(struct kern *k)
{
	struct toks t = { 0 };
	int d;

	for (d = 0; d < 3; d++) {
		tokenize(k->grid[d], &t);
		divided_down(k, &t, 0, t.n, 0);
		toks_free(&t);
	}
}

/* The cases kwrap.c adds after the spec (switches, boundaries, size
 * guards, non-finite values, survivors) keep what the launch keeps too;
 * a switch case on a parameter the launch holds at one value would run
 * a mode the launcher never does, and goes. */
void
launch_cases(struct kern *k, json_t *spec)
{
	json_t *cases = json_object_get(spec, "cases");
	size_t c;
	int i;

	for (c = json_array_size(cases); c-- > 1;) {
		const char *name = k_get_str(json_array_get(cases, c), "name");
		for (i = 0; name != NULL && i < k->np; i++) {
			size_t l = strlen(k->p[i].name);
			if (k->p[i].has_eq && strncmp(name, "switch_", 7) == 0 &&
			    strncmp(name + 7, k->p[i].name, l) == 0 &&
			    name[7 + l] == '_') {
				json_array_remove(cases, c);
				break;
			}
		}
	}
	least_values(k, spec);
}
