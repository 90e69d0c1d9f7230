/*
 * kwrap: give every sliced kernel a typed spec (parameter roles, element
 * types and counts, fills, launch configuration, test cases), a host
 * harness generated from that spec for CUDA or HIP, and an instruction in
 * a detailed and a concise form.  Deterministic: no language model.
 *
 * Inference reads the kernel's own tokens: guards such as "if (i < n)",
 * grid-stride loops and CUDA_1D_KERNEL_LOOP bound index variables, and
 * element counts come from symbolic bounds of every access (see
 * "bounds" below).  Whatever it cannot see is guessed and listed in
 * spec.confidence, so that a kernel it does not understand still gets a
 * spec, marked low.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "k_buf.h"
#include "k_exit.h"
#include "k_msg.h"
#include "k_record.h"
#include "kwrap_llm.h"

#define STAGE "kwrap"
#define MAX_TOKENS 65536	/* tokens of one kernel's analysed text */
#define MAX_PARAMS 64
#define MAX_FIELDS 32
#define MAX_VARS 256
#define MAX_CONSTS 512
#define MAX_EXPR 512		/* longest size or launch expression */
#define DEFAULT_BLOCK 256

static const char usage_line[] =
    "usage: kwrap [-hqV] [--dialect cuda | hip] [--spec file] [--llm tasks]\n"
    "             [--model name] [--url url] [-j jobs] [file ...]\n";

static struct {
	const char *dialect;	/* forced, or NULL for scan.dialect */
	json_t *user;		/* id -> user spec object */
} opt;

/* ------------------------------------------------------------ buffers */

static void bprintf(char *dst, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* snprintf for fixed buffers where a cut expression is acceptable: a
 * longer one fails to evaluate and is reported as a guess. */
static void
bprintf(char *dst, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, cap, fmt, ap);
	va_end(ap);
}

static void
copy(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src != NULL ? src : "");
}

/* ------------------------------------------------------------ tokens */

struct toks {
	char **v;
	size_t n, cap;
};

static void
tok_push(struct toks *t, const char *s, size_t len)
{
	if (t->n >= MAX_TOKENS)
		return;
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		if ((t->v = realloc(t->v, t->cap * sizeof(*t->v))) == NULL)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	}
	if ((t->v[t->n] = strndup(s, len)) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	t->n++;
}

static void
toks_free(struct toks *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static const char *const puncts[] = {
	"<<=", ">>=", "->", "::", "<=", ">=", "==", "!=", "&&", "||", "<<",
	">>", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "++", "--", "##",
	NULL
};

/* HIP's index spellings become CUDA's, so one analysis serves both. */
static int
hip_index(struct toks *t, const char *s, size_t len)
{
	static const char *const names[] = { "hipBlockIdx_", "hipThreadIdx_",
	    "hipBlockDim_", "hipGridDim_" };
	static const char *const cuda[] = { "blockIdx", "threadIdx",
	    "blockDim", "gridDim" };
	size_t i, l;

	for (i = 0; i < 4; i++) {
		l = strlen(names[i]);
		if (len == l + 1 && strncmp(s, names[i], l) == 0 &&
		    strchr("xyz", s[l]) != NULL) {
			tok_push(t, cuda[i], strlen(cuda[i]));
			tok_push(t, ".", 1);
			tok_push(t, s + l, 1);
			return 1;
		}
	}
	return 0;
}

/* Tokens of C source: comments, preprocessor lines and string literals
 * dropped, line continuations joined. */
static void
tokenize(const char *src, struct toks *t)
{
	const char *p = src;
	int bol = 1;
	size_t i, l;

	while (*p != '\0') {
		if (*p == '\\' && p[1] == '\n') {
			p += 2;
			continue;
		}
		if (*p == '\n') {
			bol = 1;
			p++;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (bol && *p == '#') {
			while (*p != '\0' && *p != '\n') {
				if (*p == '\\' && p[1] == '\n')
					p++;
				p++;
			}
			continue;
		}
		bol = 0;
		if (p[0] == '/' && p[1] == '/') {
			while (*p != '\0' && *p != '\n')
				p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e != NULL ? e + 2 : p + strlen(p);
			continue;
		}
		if (*p == '"' || *p == '\'') {
			char q = *p++;
			while (*p != '\0' && *p != q) {
				if (*p == '\\' && p[1] != '\0')
					p++;
				p++;
			}
			if (*p != '\0')
				p++;
			tok_push(t, q == '"' ? "\"\"" : "0", q == '"' ? 2 : 1);
			continue;
		}
		if (isalpha((unsigned char)*p) || *p == '_') {
			const char *s = p;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			if (!hip_index(t, s, (size_t)(p - s)))
				tok_push(t, s, (size_t)(p - s));
			continue;
		}
		if (isdigit((unsigned char)*p) ||
		    (*p == '.' && isdigit((unsigned char)p[1]))) {
			const char *s = p;
			while (isalnum((unsigned char)*p) || *p == '.' ||
			    ((*p == '+' || *p == '-') &&
			    (p[-1] == 'e' || p[-1] == 'E') &&
			    !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))))
				p++;
			tok_push(t, s, (size_t)(p - s));
			continue;
		}
		for (i = 0; puncts[i] != NULL; i++) {
			l = strlen(puncts[i]);
			if (strncmp(p, puncts[i], l) == 0)
				break;
		}
		l = puncts[i] != NULL ? strlen(puncts[i]) : 1;
		tok_push(t, p, l);
		p += l;
	}
}

static int
is(const struct toks *t, size_t i, const char *s)
{
	return i < t->n && strcmp(t->v[i], s) == 0;
}

static int
is_ident(const char *s)
{
	return isalpha((unsigned char)*s) || *s == '_';
}

/* Index just past the bracket matching the one at i (or t->n). */
static size_t
skip_group(const struct toks *t, size_t i)
{
	int depth = 0;

	for (; i < t->n; i++) {
		const char *s = t->v[i];
		if (strcmp(s, "(") == 0 || strcmp(s, "[") == 0 ||
		    strcmp(s, "{") == 0)
			depth++;
		else if (strcmp(s, ")") == 0 || strcmp(s, "]") == 0 ||
		    strcmp(s, "}") == 0) {
			if (--depth <= 0)
				return i + 1;
		}
	}
	return t->n;
}

/* End of an expression starting at i: the first token at depth 0 that is
 * one of the stop tokens, or an unmatched closing bracket. */
static size_t
expr_end(const struct toks *t, size_t i, const char *const *stop)
{
	int depth = 0;
	size_t k;

	for (; i < t->n; i++) {
		const char *s = t->v[i];
		if (strcmp(s, "(") == 0 || strcmp(s, "[") == 0 ||
		    strcmp(s, "{") == 0)
			depth++;
		else if (strcmp(s, ")") == 0 || strcmp(s, "]") == 0 ||
		    strcmp(s, "}") == 0) {
			if (depth-- == 0)
				return i;
		} else if (depth == 0) {
			for (k = 0; stop[k] != NULL; k++)
				if (strcmp(s, stop[k]) == 0)
					return i;
		}
	}
	return t->n;
}

/* Join tokens [a, b) as readable C. */
static void
join(const struct toks *t, size_t a, size_t b, char *out, size_t cap)
{
	struct k_buf sb = { 0 };
	size_t i;

	for (i = a; i < b; i++) {
		const char *s = t->v[i];
		const char *prev = i > a ? t->v[i - 1] : "";
		int space = i > a && strcmp(s, ")") != 0 &&
		    strcmp(s, "]") != 0 && strcmp(s, ",") != 0 &&
		    strcmp(s, ".") != 0 && strcmp(prev, ".") != 0 &&
		    strcmp(prev, "(") != 0 && strcmp(prev, "[") != 0 &&
		    strcmp(s, "[") != 0 && !(strcmp(s, "(") == 0 &&
		    is_ident(prev) && strcmp(prev, "return") != 0);
		if (space)
			k_buf_add(&sb, " ");
		k_buf_add(&sb, s);
	}
	copy(out, cap, sb.n ? k_buf_str(&sb) : "");
	k_buf_free(&sb);
}

/* ------------------------------------------------------------ constants */

/* Integer constants of the slice: object-like macros, constexpr and const
 * integer variables, enumerators. */
struct consts {
	char name[MAX_CONSTS][64];
	long long val[MAX_CONSTS];
	size_t n;
};

static int const_get(const struct consts *c, const char *name,
    long long *v)
{
	size_t i;

	for (i = c->n; i-- > 0;)
		if (strcmp(c->name[i], name) == 0) {
			*v = c->val[i];
			return 1;
		}
	return 0;
}

static void
const_set(struct consts *c, const char *name, long long v)
{
	if (c->n >= MAX_CONSTS || strlen(name) >= sizeof(c->name[0]))
		return;
	copy(c->name[c->n], sizeof(c->name[0]), name);
	c->val[c->n++] = v;
}

/* A small integer evaluator over tokens, in 64 bits; fails on anything it
 * does not know rather than guess, and on overflow rather than wrap.  The
 * optional bindings (a case's scalars, "p.n" for a struct's field) are
 * looked up before the constants. */
struct ev {
	const struct toks *t;
	size_t i, end;
	const struct consts *c;
	int ok;
	const struct consts *bind;
	int ovf;		/* failed by overflow or division by 0 */
};

static long long ev_expr(struct ev *e);

static int
ev_name(struct ev *e, const char *s, long long *v)
{
	char dotted[64];

	if (e->bind != NULL && e->i + 1 < e->end &&
	    strcmp(e->t->v[e->i], ".") == 0 && is_ident(e->t->v[e->i + 1])) {
		snprintf(dotted, sizeof(dotted), "%s.%s", s, e->t->v[e->i + 1]);
		if (const_get(e->bind, dotted, v)) {
			e->i += 2;
			return 1;
		}
	}
	return (e->bind != NULL && const_get(e->bind, s, v)) ||
	    const_get(e->c, s, v);
}

static long long
ev_prim(struct ev *e)
{
	const char *s;
	long long v;

	if (e->i >= e->end) {
		e->ok = 0;
		return 0;
	}
	s = e->t->v[e->i++];
	if (strcmp(s, "(") == 0) {
		/* a cast such as (int) or (size_t) */
		if (e->i + 1 < e->end && is_ident(e->t->v[e->i]) &&
		    strcmp(e->t->v[e->i + 1], ")") == 0 &&
		    !const_get(e->c, e->t->v[e->i], &v) &&
		    (e->bind == NULL || !const_get(e->bind, e->t->v[e->i], &v))) {
			e->i += 2;
			return ev_prim(e);
		}
		v = ev_expr(e);
		if (e->i < e->end && strcmp(e->t->v[e->i], ")") == 0)
			e->i++;
		else
			e->ok = 0;
		return v;
	}
	if (strcmp(s, "-") == 0) {
		v = ev_prim(e);
		if (v == LLONG_MIN)
			e->ok = 0, e->ovf = 1;
		return e->ok ? -v : 0;
	}
	if (strcmp(s, "+") == 0)
		return ev_prim(e);
	if (strcmp(s, "~") == 0)
		return ~ev_prim(e);
	if (isdigit((unsigned char)*s)) {
		char *end;
		errno = 0;
		v = strtoll(s, &end, 0);
		if (errno == ERANGE)
			e->ok = 0, e->ovf = 1;
		while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
			end++;
		if (*end != '\0')
			e->ok = 0;
		return v;
	}
	if (is_ident(s) && ev_name(e, s, &v))
		return v;
	e->ok = 0;
	return 0;
}

static long long
ev_mul(struct ev *e)
{
	long long v = ev_prim(e), r;

	while (e->ok && e->i < e->end) {
		const char *op = e->t->v[e->i];
		if (strcmp(op, "*") != 0 && strcmp(op, "/") != 0 &&
		    strcmp(op, "%") != 0)
			break;
		e->i++;
		r = ev_prim(e);
		if (!e->ok)
			break;
		if (*op == '*') {
			if (__builtin_mul_overflow(v, r, &v))
				e->ok = 0, e->ovf = 1;
		} else if (r == 0 || (v == LLONG_MIN && r == -1))
			e->ok = 0, e->ovf = 1;
		else
			v = *op == '/' ? v / r : v % r;
	}
	return e->ok ? v : 0;
}

static long long
ev_add(struct ev *e)
{
	long long v = ev_mul(e), r;

	while (e->ok && e->i < e->end) {
		const char *op = e->t->v[e->i];
		if (strcmp(op, "+") != 0 && strcmp(op, "-") != 0)
			break;
		e->i++;
		r = ev_mul(e);
		if (!e->ok)
			break;
		if (*op == '+' ? __builtin_add_overflow(v, r, &v) :
		    __builtin_sub_overflow(v, r, &v))
			e->ok = 0, e->ovf = 1;
	}
	return e->ok ? v : 0;
}

static long long
ev_expr(struct ev *e)
{
	long long v = ev_add(e), r;

	while (e->ok && e->i < e->end) {
		const char *op = e->t->v[e->i];
		if (strcmp(op, "<<") != 0 && strcmp(op, ">>") != 0)
			break;
		e->i++;
		r = ev_add(e);
		if (!e->ok)
			break;
		if (r < 0 || r > 62 || v < 0 ||
		    (op[0] == '<' && v > (LLONG_MAX >> r)))
			e->ok = 0, e->ovf = 1;
		else
			v = op[0] == '<' ? v << r : v >> r;
	}
	return e->ok ? v : 0;
}

/* Evaluate tokens [a, b); 1 and *v on success. */
static int
eval_range(const struct toks *t, size_t a, size_t b, const struct consts *c,
    long long *v)
{
	struct ev e = { t, a, b, c, 1, NULL, 0 };

	if (a >= b)
		return 0;
	*v = ev_expr(&e);
	return e.ok && e.i == b;
}

static int
eval_str(const char *s, const struct consts *c, long long *v)
{
	struct toks t = { 0 };
	int ok;

	tokenize(s, &t);
	ok = eval_range(&t, 0, t.n, c, v);
	toks_free(&t);
	return ok;
}

/* Collect the slice's integer constants from its tokens (macros come from
 * the raw text, since tokenize() drops preprocessor lines). */
static void
collect_consts(const char *code, const struct toks *t, struct consts *c)
{
	const char *p = code;
	size_t i, e;
	long long v, next;
	static const char *const semi[] = { ";", ",", NULL };
	static const char *const comma[] = { ",", "}", NULL };

	while ((p = strstr(p, "#define")) != NULL) {
		char name[64], line[512];
		const char *q = p + 7;
		size_t n = 0;
		while (*q == ' ' || *q == '\t')
			q++;
		while ((isalnum((unsigned char)q[n]) || q[n] == '_') &&
		    n < sizeof(name) - 1)
			n++;
		memcpy(name, q, n);
		name[n] = '\0';
		q += n;
		p = q;
		if (n == 0 || *q == '(')
			continue;
		n = strcspn(q, "\n");
		if (n >= sizeof(line) || (n > 0 && q[n - 1] == '\\'))
			continue;
		memcpy(line, q, n);
		line[n] = '\0';
		if (eval_str(line, c, &v))
			const_set(c, name, v);
	}
	for (i = 0; i + 3 < t->n; i++) {
		/* enum X { A = 1, B, ... } */
		if (is(t, i, "enum")) {
			size_t j = i + 1;
			if (is(t, j, "class") || is(t, j, "struct"))
				j++;
			while (j < t->n && !is(t, j, "{") && !is(t, j, ";"))
				j++;
			if (!is(t, j, "{"))
				continue;
			next = 0;
			for (j++; j < t->n && !is(t, j, "}");) {
				const char *name = t->v[j];
				if (!is_ident(name))
					break;
				if (is(t, j + 1, "=")) {
					e = expr_end(t, j + 2, comma);
					if (eval_range(t, j + 2, e, c, &v))
						next = v;
					j = e;
				} else
					j++;
				const_set(c, name, next++);
				if (is(t, j, ","))
					j++;
			}
			continue;
		}
		/* [static] const[expr] int NAME = expr; */
		if ((is(t, i, "constexpr") || is(t, i, "const")) &&
		    (is(t, i + 1, "int") || is(t, i + 1, "unsigned") ||
		    is(t, i + 1, "long") || is(t, i + 1, "size_t")) &&
		    is_ident(t->v[i + 2]) && is(t, i + 3, "=")) {
			e = expr_end(t, i + 4, semi);
			if (eval_range(t, i + 4, e, c, &v))
				const_set(c, t->v[i + 2], v);
		}
	}
}

/* ------------------------------------------------------------ types */

struct dtype {
	const char *c;		/* spellings, |-separated */
	const char *dtype;
	const char *host;	/* the harness's storage type */
	int size;
	int is_float, is_signed;
};

static const struct dtype dtypes[] = {
	{ "float", "float32", "float", 4, 1, 1 },
	{ "double", "float64", "double", 8, 1, 1 },
	{ "half|__half|at::Half|c10::Half", "float16", "uint16_t", 2, 1, 1 },
	{ "__nv_bfloat16|nv_bfloat16|hip_bfloat16|bfloat16|at::BFloat16|"
	  "c10::BFloat16", "bfloat16", "uint16_t", 2, 1, 1 },
	{ "signed char|int8_t", "int8", "int8_t", 1, 0, 1 },
	{ "char|unsigned char|uint8_t", "uint8", "uint8_t", 1, 0, 0 },
	{ "short|int16_t", "int16", "int16_t", 2, 0, 1 },
	{ "unsigned short|uint16_t", "uint16", "uint16_t", 2, 0, 0 },
	{ "int|int32_t|signed|signed int", "int32", "int32_t", 4, 0, 1 },
	{ "unsigned|unsigned int|uint32_t|uint", "uint32", "uint32_t", 4, 0,
	  0 },
	{ "long|long int|long long|long long int|int64_t|ptrdiff_t|"
	  "index_t|int64", "int64", "int64_t", 8, 0, 1 },
	{ "unsigned long|unsigned long long|uint64_t|size_t", "uint64",
	  "uint64_t", 8, 0, 0 },
	{ "bool", "bool", "bool", 1, 0, 0 },
	{ NULL, NULL, NULL, 0, 0, 0 }
};

static const struct dtype *
find_dtype(const char *type)
{
	size_t i, l = strlen(type);

	for (i = 0; dtypes[i].c != NULL; i++) {
		const char *p = dtypes[i].c;
		while (*p != '\0') {
			size_t n = strcspn(p, "|");
			if (n == l && strncmp(p, type, n) == 0)
				return &dtypes[i];
			p += n;
			if (*p == '|')
				p++;
		}
	}
	return NULL;
}

/* The base type of a spelled type: qualifiers, pointers and
 * __restrict__ dropped, template parameters replaced by their binding. */
static void
base_type(const char *spelled, json_t *instance, char *out, size_t cap)
{
	struct toks t = { 0 };
	struct k_buf sb = { 0 };
	size_t i;

	tokenize(spelled, &t);
	for (i = 0; i < t.n; i++) {
		const char *s = t.v[i];
		json_t *b;
		if (strcmp(s, "const") == 0 || strcmp(s, "volatile") == 0 ||
		    strcmp(s, "__restrict__") == 0 ||
		    strcmp(s, "__restrict") == 0 || strcmp(s, "restrict") == 0 ||
		    strcmp(s, "*") == 0 || strcmp(s, "&") == 0 ||
		    strcmp(s, "struct") == 0 || strcmp(s, "typename") == 0)
			continue;
		if (sb.n && strcmp(s, "::") != 0 &&
		    sb.s[sb.n - 1] != ':')
			k_buf_add(&sb, " ");
		b = json_is_object(instance) ? json_object_get(instance, s) :
		    NULL;
		k_buf_add(&sb, json_is_string(b) ? json_string_value(b) : s);
	}
	copy(out, cap, sb.n ? k_buf_str(&sb) : "");
	k_buf_free(&sb);
	toks_free(&t);
}

/* ------------------------------------------------------------ kernel */

enum role { R_IN, R_OUT, R_INOUT, R_SCALAR };
static const char *const role_names[] = { "in", "out", "inout", "scalar" };

struct field {
	char name[64];
	char type[64];
	const struct dtype *dt;
	int offset;
	int size_use;		/* appears in a size or launch expression */
};

struct param {
	char name[64];
	char spelled[256];	/* the declared type, as scan spells it */
	char type[128];		/* element type (pointers) or type, bound */
	int ptr, is_const, is_struct, is_enum;
	const struct dtype *dt;	/* NULL: unknown type */
	struct field f[MAX_FIELDS];
	int nf, ssize;
	int read, written;	/* from kslice, or found in the text */
	enum role role;
	char count[MAX_EXPR];
	int count_state;	/* 2 derived, 1 guessed */
	char index_of[64];	/* holds indices into this buffer */
	int vals;		/* its values index a buffer: 0..DATA_HI */
	int size_use;
};

enum vkind { V_LOCAL, V_GLOBAL, V_BLOCK, V_THREAD };

struct var {
	char name[64];
	enum vkind kind;
	int dim;
	char bound[MAX_EXPR];
	size_t a, b;		/* its first definition's tokens */
	int alias;		/* param index it points into, or -1 */
};

struct atoms;
struct fn;

struct kern {
	json_t *rec;		/* borrowed */
	const char *name;
	struct param p[MAX_PARAMS];
	int np;
	struct toks t;		/* the kernel's text */
	struct toks all;	/* the whole slice */
	struct consts c;
	struct var v[MAX_VARS];
	int nv;
	size_t body;		/* first token of the kernel's body */
	int dims;		/* 1 or 2 thread dimensions */
	long long block[3];
	char grid[3][MAX_EXPR];
	char shared[MAX_EXPR];
	int block_state, grid_state, shared_state;	/* 2 derived, 1 guess */
	int roles_low;
	json_t *guesses;	/* strings */
	const char *code;
	struct atoms *at;	/* the atoms of bounds */
	struct fn *kf;		/* the kernel, for bounds */
	int depth;		/* nested evaluations */
	int calls;		/* nested helpers evaluated for a value */
	char shared_guess[128];	/* said once shared memory stays a guess */
};

static void guess(struct kern *k, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
guess(struct kern *k, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_array_append_new(k->guesses, json_string(buf));
}

static int
param_index(const struct kern *k, const char *name)
{
	int i;

	for (i = 0; i < k->np; i++)
		if (strcmp(k->p[i].name, name) == 0)
			return i;
	return -1;
}

static struct var *
var_get(struct kern *k, const char *name)
{
	int i;

	for (i = 0; i < k->nv; i++)
		if (strcmp(k->v[i].name, name) == 0)
			return &k->v[i];
	return NULL;
}

static void
paren(const char *s, char *out, size_t cap)
{
	int simple = 1;
	const char *p;

	for (p = s; *p != '\0'; p++)
		if (*p == ' ' && (p[1] == '+' || p[1] == '-' || p[1] == '?' ||
		    p[1] == '<' || p[1] == '>' || p[1] == '&' || p[1] == '|'))
			simple = 0;
	if (simple)
		copy(out, cap, s);
	else
		snprintf(out, cap, "(%s)", s);
}

/* Mark scalar params (and struct fields) named in tokens [a, b) as sizes. */
static void
mark_size_use(struct kern *k, const struct toks *t, size_t a, size_t b)
{
	size_t i;
	int j, f;

	for (i = a; i < b; i++) {
		if (!is_ident(t->v[i]) || (i > a && is(t, i - 1, ".")))
			continue;
		if ((j = param_index(k, t->v[i])) < 0 || k->p[j].ptr)
			continue;
		if (k->p[j].is_struct && is(t, i + 1, ".") && i + 2 < b) {
			for (f = 0; f < k->p[j].nf; f++)
				if (strcmp(k->p[j].f[f].name, t->v[i + 2]) == 0)
					k->p[j].f[f].size_use = 1;
		} else
			k->p[j].size_use = 1;
	}
}

static void mark_size_str(struct kern *k, const char *s)
{
	struct toks t = { 0 };

	tokenize(s, &t);
	mark_size_use(k, &t, 0, t.n);
	toks_free(&t);
}

/* Tokens [a, b) as an expression over scalar parameters, fields of struct
 * parameters and constants (replaced by their values); casts dropped.
 * blockDim.x and gridDim.x become the launch's values when known.
 * 0 when something else is named. */
static int
param_expr(struct kern *k, const struct toks *t, size_t a, size_t b,
    char *out, size_t cap)
{
	static int depth;
	struct k_buf sb = { 0 };
	struct var *w;
	size_t i;
	long long v;
	int ok = 1, j;
	char tmp[160];

	if (a >= b)
		return 0;
	for (i = a; i < b && ok; i++) {
		const char *s = t->v[i];
		const char *prev = i > a ? t->v[i - 1] : "";
		if (strcmp(s, "(") == 0 && i + 2 < b && is_ident(t->v[i + 1]) &&
		    find_dtype(t->v[i + 1]) != NULL && is(t, i + 2, ")")) {
			i += 2;
			continue;
		}
		if (strcmp(s, "(") == 0 && i + 3 < b &&
		    find_dtype(t->v[i + 1]) != NULL &&
		    find_dtype(t->v[i + 2]) != NULL && is(t, i + 3, ")")) {
			i += 3;
			continue;
		}
		if (sb.n && strcmp(s, ")") != 0 && strcmp(prev, "(") != 0)
			k_buf_add(&sb, " ");
		if (isdigit((unsigned char)*s)) {
			k_buf_add(&sb, s);
		} else if (strchr("+-*/%()", *s) != NULL && s[1] == '\0') {
			k_buf_add(&sb, s);
		} else if (strcmp(s, "sizeof") == 0 && is(t, i + 1, "(") &&
		    i + 3 < b && is(t, i + 3, ")") &&
		    find_dtype(t->v[i + 2]) != NULL) {
			k_buf_printf(&sb, "%d", find_dtype(t->v[i + 2])->size);
			i += 3;
		} else if ((strcmp(s, "blockDim") == 0 ||
		    strcmp(s, "gridDim") == 0) && is(t, i + 1, ".") && i + 2 < b) {
			int d = t->v[i + 2][0] - 'x';
			if (d < 0 || d > 2)
				ok = 0;
			else if (*s == 'b' && k->block[d] > 0)
				k_buf_printf(&sb, "%lld", k->block[d]);
			else if (*s == 'g' && k->grid[d][0] != '\0') {
				char pg[MAX_EXPR];
				paren(k->grid[d], pg, sizeof(pg));
				k_buf_add(&sb, pg);
			} else
				ok = 0;
			i += 2;
		} else if (is_ident(s) && (j = param_index(k, s)) >= 0 &&
		    !k->p[j].ptr) {
			if (k->p[j].is_struct) {
				if (!is(t, i + 1, ".") || i + 2 >= b)
					ok = 0;
				else {
					snprintf(tmp, sizeof(tmp), "%s.%s", s,
					    t->v[i + 2]);
					k_buf_add(&sb, tmp);
					i += 2;
				}
			} else
				k_buf_add(&sb, s);
		} else if (is_ident(s) && const_get(&k->c, s, &v)) {
			k_buf_printf(&sb, "%lld", v);
		} else if (is_ident(s) && (w = var_get(k, s)) != NULL &&
		    w->kind == V_LOCAL && w->alias < 0 && depth < 4) {
			char sub[MAX_EXPR], ps[MAX_EXPR];
			depth++;
			ok = param_expr(k, &k->t, w->a, w->b, sub, sizeof(sub));
			depth--;
			if (ok) {
				paren(sub, ps, sizeof(ps));
				k_buf_add(&sb, ps);
			}
		} else
			ok = 0;
	}
	if (ok)
		copy(out, cap, k_buf_str(&sb));
	k_buf_free(&sb);
	return ok;
}

static int
dim_of(const struct toks *t, size_t i)
{
	if (i + 2 < t->n && is(t, i + 1, ".") && t->v[i + 2][1] == '\0' &&
	    strchr("xyz", t->v[i + 2][0]) != NULL)
		return t->v[i + 2][0] - 'x';
	return -1;
}

/* Variables, their kinds (global, block or thread index) and aliases. */
static void
find_vars(struct kern *k)
{
	struct toks *t = &k->t;
	static const char *const stop[] = { ";", ",", NULL };
	size_t i, j, e;
	int bi, ti, dim, pi;

	for (i = 1; i + 1 < t->n && k->nv < MAX_VARS; i++) {
		int loop;
		if (!is_ident(t->v[i]) || !is(t, i + 1, "=") ||
		    is(t, i - 1, ".") || is(t, i - 1, "->") ||
		    param_index(k, t->v[i]) >= 0 || var_get(k, t->v[i]) != NULL)
			continue;
		loop = 0;
		if (is(t, i - 1, "(") && i >= 2 &&
		    (is(t, i - 2, "CUDA_1D_KERNEL_LOOP") ||
		    is(t, i - 2, "CUDA_KERNEL_LOOP")))
			loop = 1;
		e = expr_end(t, i + 2, stop);
		struct var *v = &k->v[k->nv++];
		memset(v, 0, sizeof(*v));
		copy(v->name, sizeof(v->name), t->v[i]);
		v->a = i + 2;
		v->b = e;
		v->alias = -1;
		v->kind = V_LOCAL;
		bi = ti = -1;
		dim = 0;
		for (j = i + 2; j < e; j++) {
			if (is(t, j, "blockIdx") && (dim = dim_of(t, j)) >= 0)
				bi = dim;
			if (is(t, j, "threadIdx") && (dim = dim_of(t, j)) >= 0)
				ti = dim;
			if (is_ident(t->v[j]) && !is(t, j - 1, ".")) {
				struct var *w = var_get(k, t->v[j]);
				if (w != NULL && w != v && (w->kind == V_THREAD ||
				    w->kind == V_GLOBAL))
					ti = w->dim;
				if (w != NULL && w != v && (w->kind == V_BLOCK ||
				    w->kind == V_GLOBAL))
					bi = w->dim;
			}
		}
		if (bi >= 0 && ti >= 0) {
			v->kind = V_GLOBAL;
			v->dim = ti;
		} else if (bi >= 0) {
			v->kind = V_BLOCK;
			v->dim = bi;
		} else if (ti >= 0) {
			v->kind = V_THREAD;
			v->dim = ti;
		}
		(void)loop;
		if (i + 2 < e && (pi = param_index(k, t->v[i + 2])) >= 0 &&
		    k->p[pi].ptr && (i + 3 == e || is(t, i + 3, "+")))
			v->alias = pi;
	}
	/* CUDA_1D_KERNEL_LOOP(i, n) declares i as a grid-stride index */
	for (i = 0; i + 5 < t->n && k->nv < MAX_VARS; i++) {
		if (!(is(t, i, "CUDA_1D_KERNEL_LOOP") ||
		    is(t, i, "CUDA_KERNEL_LOOP") ||
		    is(t, i, "HIP_1D_KERNEL_LOOP")) || !is(t, i + 1, "(") ||
		    !is_ident(t->v[i + 2]) || !is(t, i + 3, ","))
			continue;
		struct var *v = var_get(k, t->v[i + 2]);
		if (v == NULL) {
			v = &k->v[k->nv++];
			memset(v, 0, sizeof(*v));
			copy(v->name, sizeof(v->name), t->v[i + 2]);
			v->alias = -1;
		}
		v->kind = V_GLOBAL;
		v->dim = 0;
		e = expr_end(t, i + 4, stop);
		if (!param_expr(k, t, i + 4, e, v->bound, sizeof(v->bound)))
			v->bound[0] = '\0';
		else
			mark_size_use(k, t, i + 4, e);
	}
}

/* Whether [a, e) is a whole disjunct of if (... || ... ) return;: the
 * condition's other parts joined to it by || only. */
static int
returns_if(const struct toks *t, size_t a, size_t e)
{
	size_t j = a, c;

	while (j > 1 && is(t, j - 1, "||")) {
		/* back over the disjunct before */
		int depth = 0;
		for (j -= 2; j > 0; j--) {
			if (is(t, j, ")") || is(t, j, "]"))
				depth++;
			else if (is(t, j, "(") || is(t, j, "[")) {
				if (depth-- == 0)
					break;
			} else if (depth == 0 && (is(t, j, "||") ||
			    is(t, j, "&&") || is(t, j, "?") || is(t, j, ",") ||
			    is(t, j, ";") || is(t, j, "{")))
				break;
		}
		if (!is(t, j, "||") && !is(t, j, "("))
			return 0;
		j++;
	}
	if (j < 2 || !is(t, j - 1, "(") || !is(t, j - 2, "if"))
		return 0;
	c = skip_group(t, j - 1) - 1;
	for (j = e; j < c; j++) {
		if (is(t, j, "(") || is(t, j, "[")) {
			j = skip_group(t, j) - 1;
			continue;
		}
		if (is(t, j, "&&") || is(t, j, "?") || is(t, j, ","))
			return 0;
	}
	return is(t, c, ")") && (is(t, c + 1, "return") ||
	    (is(t, c + 1, "{") && is(t, c + 2, "return")));
}

/* Upper bounds of variables from guards: v < E, v <= E, if (v >= E ||
 * ...) return, and min/clamp definitions ending in E - 1. */
static void
find_bounds(struct kern *k)
{
	struct toks *t = &k->t;
	static const char *const stop[] = { "&&", "||", ";", "?", ",", NULL };
	char buf[MAX_EXPR], pb[MAX_EXPR];
	size_t i, e;
	int n;

	for (i = 0; i + 2 < t->n; i++) {
		struct var *v;
		if (!is_ident(t->v[i]) || (v = var_get(k, t->v[i])) == NULL ||
		    v->bound[0] != '\0' || is(t, i - 1, "."))
			continue;
		if (is(t, i + 1, "<") || is(t, i + 1, "<=")) {
			e = expr_end(t, i + 2, stop);
			if (param_expr(k, t, i + 2, e, buf, sizeof(buf))) {
				if (is(t, i + 1, "<="))
					bprintf(v->bound, sizeof(v->bound),
					    "%s + 1", buf);
				else
					copy(v->bound, sizeof(v->bound), buf);
				mark_size_use(k, t, i + 2, e);
			}
		} else if (is(t, i + 1, ">=") && i > 1 && (is(t, i - 1, "(") ||
		    is(t, i - 1, "||"))) {
			e = expr_end(t, i + 2, stop);
			if (returns_if(t, i, e) &&
			    param_expr(k, t, i + 2, e, buf, sizeof(buf))) {
				copy(v->bound, sizeof(v->bound), buf);
				mark_size_use(k, t, i + 2, e);
			}
		}
	}
	/* b = clamp(x, 0, E - 1) or min(x, E - 1) */
	for (n = 0; n < k->nv; n++) {
		struct var *v = &k->v[n];
		if (v->bound[0] != '\0' || v->b < 3 || !is(t, v->b - 1, ")"))
			continue;
		for (i = v->b - 1; i > v->a; i--)
			if (is(t, i, ","))
				break;
		if (i <= v->a || !is(t, v->b - 2, "1") || !is(t, v->b - 3, "-"))
			continue;
		if (param_expr(k, t, i + 1, v->b - 3, buf, sizeof(buf))) {
			copy(v->bound, sizeof(v->bound), buf);
			mark_size_use(k, t, i + 1, v->b - 3);
		}
	}
	(void)pb;
}

/* Fields of a struct passed by value, from its definition in the slice:
 * plain members of known scalar types only. */
static int
parse_struct(struct kern *k, struct param *p)
{
	struct toks *t = &k->all;
	size_t i, j, e;
	int off = 0, align = 1;

	for (i = 0; i + 2 < t->n; i++)
		if ((is(t, i, "struct") || is(t, i, "class")) &&
		    is(t, i + 1, p->type) && is(t, i + 2, "{"))
			break;
	if (i + 2 >= t->n)
		return 0;
	e = skip_group(t, i + 2);
	for (j = i + 3; j + 1 < e && p->nf < MAX_FIELDS;) {
		size_t s = j;
		char type[64] = "";
		const struct dtype *dt;
		while (j < e && !is(t, j, ";"))
			j++;
		if (j - s < 2 || !is_ident(t->v[j - 1]))
			return 0;
		{
			struct toks sub = { t->v + s, j - 1 - s, 0 };
			join(&sub, 0, sub.n, type, sizeof(type));
		}
		if ((dt = find_dtype(type)) == NULL) {
			long long dummy;
			if (!const_get(&k->c, type, &dummy))
				return 0;
			dt = find_dtype("int");	/* an enum */
		}
		struct field *f = &p->f[p->nf++];
		copy(f->name, sizeof(f->name), t->v[j - 1]);
		copy(f->type, sizeof(f->type), type);
		f->dt = dt;
		off = (off + dt->size - 1) / dt->size * dt->size;
		f->offset = off;
		off += dt->size;
		if (dt->size > align)
			align = dt->size;
		j++;
	}
	p->ssize = (off + align - 1) / align * align;
	return p->nf > 0;
}

static int
type_is_enum(struct kern *k, const char *type)
{
	struct toks *t = &k->all;
	size_t i;

	for (i = 0; i + 1 < t->n; i++)
		if (is(t, i, "enum") && (is(t, i + 1, type) ||
		    (is(t, i + 1, "class") && is(t, i + 2, type))))
			return 1;
	return 0;
}

static int
in_list(json_t *arr, const char *name)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), name) == 0)
			return 1;
	return 0;
}

/* Reads and writes of buffer p found in the text (through aliases too). */
static void
text_access(struct kern *k, int pi, int *rd, int *wr)
{
	struct toks *t = &k->t;
	size_t i;
	int j;

	*rd = *wr = 0;
	for (i = k->body; i < t->n; i++) {
		struct var *v;
		int hit = is(t, i, k->p[pi].name);
		if (!hit && (v = var_get(k, t->v[i])) != NULL && v->alias == pi)
			hit = 1;
		if (!hit || is(t, i - 1, ".") || is(t, i + 1, "="))
			continue;
		/* the definition of an alias: T *y = out + ... */
		if (is(t, i - 1, "=") && i >= 2 && (v = var_get(k, t->v[i - 2])) !=
		    NULL && v->alias == pi)
			continue;
		if (i >= 2 && is(t, i - 1, "&") && is(t, i - 2, "(") &&
		    i >= 3 && strncmp(t->v[i - 3], "atomic", 6) == 0) {
			*rd = *wr = 1;
			continue;
		}
		if (i >= 2 && is(t, i - 1, "(") &&
		    strncmp(t->v[i - 2], "atomic", 6) == 0) {
			*rd = *wr = 1;
			continue;
		}
		if (is(t, i + 1, "[")) {
			size_t e = skip_group(t, i + 1);
			const char *n = e < t->n ? t->v[e] : "";
			if (strcmp(n, "=") == 0 || strcmp(n, "++") == 0 ||
			    strcmp(n, "--") == 0)
				*wr = 1;
			else if (strlen(n) == 2 && n[1] == '=' &&
			    strchr("+-*/%&|^", n[0]) != NULL)
				*rd = *wr = 1;
			else
				*rd = 1;
			(void)j;
			continue;
		}
		if (is(t, i - 1, "*") && is(t, i + 1, "="))
			*wr = 1;
		else
			*rd = 1;
	}
}

/* One subscript's element count, from the bounds of what it adds up.
 * Returns 2 when derived, 0 when it cannot say. */
static int
index_count(struct kern *k, const struct toks *t, size_t a, size_t b,
    char *out, size_t cap)
{
	char vars[4][MAX_EXPR], coefs[4][MAX_EXPR];
	int nt = 0, i;
	size_t s, e, m;
	static const char *const plus[] = { "+", "-", NULL };
	static const char *const star[] = { "*", "%", NULL };

	for (s = a; s < b; s = e + 1) {
		char coef[MAX_EXPR] = "", bound[MAX_EXPR] = "", buf[MAX_EXPR];
		int hasvar = 0;
		e = expr_end(t, s, plus);
		if (e > b)
			e = b;
		if (e < b && is(t, e, "-"))
			return 0;
		if (nt >= 4)
			return 0;
		for (m = s; m < e;) {
			size_t f = expr_end(t, m, star), fs = m;
			struct var *v;
			if (f > e)
				f = e;
			/* drop casts in front of the factor */
			while (fs + 2 < f && is(t, fs, "(") &&
			    find_dtype(t->v[fs + 1]) != NULL && is(t, fs + 2, ")"))
				fs += 3;
			if (fs + 1 == f && (v = var_get(k, t->v[fs])) != NULL &&
			    (v->bound[0] != '\0' || v->kind != V_LOCAL)) {
				if (hasvar || v->bound[0] == '\0')
					return 0;
				copy(bound, sizeof(bound), v->bound);
				hasvar = 1;
			} else if (fs + 3 == f && (is(t, fs, "blockIdx") ||
			    is(t, fs, "threadIdx")) && dim_of(t, fs) >= 0) {
				int d = dim_of(t, fs);
				if (hasvar)
					return 0;
				if (is(t, fs, "blockIdx"))
					copy(bound, sizeof(bound), k->grid[d]);
				else
					snprintf(bound, sizeof(bound), "%lld",
					    k->block[d]);
				hasvar = 1;
			} else if (param_expr(k, t, fs, f, buf, sizeof(buf))) {
				char pb[MAX_EXPR];
				paren(buf, pb, sizeof(pb));
				if (m > s && is(t, m - 1, "%")) {
					/* x % E: below E whatever x is */
					copy(bound, sizeof(bound), buf);
					coef[0] = '\0';
					hasvar = 1;
				} else if (coef[0] == '\0')
					copy(coef, sizeof(coef), pb);
				else {
					char both[MAX_EXPR];
					bprintf(both, sizeof(both), "%s * %s",
					    coef, pb);
					copy(coef, sizeof(coef), both);
				}
			} else
				return 0;
			m = f + 1;
		}
		if (!hasvar) {
			long long v;
			if (eval_str(coef, &k->c, &v) && v == 0)
				continue;
			copy(bound, sizeof(bound), "1");
		}
		copy(vars[nt], sizeof(vars[0]), bound);
		copy(coefs[nt], sizeof(coefs[0]), coef);
		nt++;
	}
	if (nt == 0) {
		copy(out, cap, "1");
		return 2;
	}
	/* v * E + w with w < E: v's bound times E */
	if (nt == 2) {
		for (i = 0; i < 2; i++) {
			char pv[MAX_EXPR], pe[MAX_EXPR];
			if (coefs[1 - i][0] != '\0' ||
			    (strcmp(vars[1 - i], coefs[i]) != 0 &&
			    !(coefs[i][0] == '(' &&
			    strncmp(coefs[i] + 1, vars[1 - i],
			    strlen(vars[1 - i])) == 0)))
				continue;
			paren(vars[i], pv, sizeof(pv));
			paren(coefs[i], pe, sizeof(pe));
			bprintf(out, cap, "%s * %s", pv, pe);
			return 2;
		}
	}
	{
		struct k_buf sb = { 0 };
		for (i = 0; i < nt; i++) {
			char pv[MAX_EXPR];
			paren(vars[i], pv, sizeof(pv));
			if (i > 0)
				k_buf_add(&sb, " + ");
			if (coefs[i][0] != '\0')
				k_buf_printf(&sb, "%s * %s", pv, coefs[i]);
			else
				k_buf_add(&sb, nt > 1 ? pv : vars[i]);
		}
		copy(out, cap, k_buf_str(&sb));
		k_buf_free(&sb);
	}
	return 2;
}

/* Element count of buffer pi: the subscript whose count has the most
 * factors wins (x[0] and x[c] over one row: the row's). */
static void
buffer_count(struct kern *k, int pi, const char *domain)
{
	struct toks *t = &k->t;
	struct param *p = &k->p[pi];
	size_t i;
	int unknown = 0, any = 0, bare = 0, best = -1;

	for (i = k->body; i < t->n; i++) {
		struct var *v = NULL;
		struct toks idx = { 0 };
		char cnt[MAX_EXPR];
		int hit = is(t, i, p->name);
		if (is(t, i - 1, ".") || is(t, i - 1, "->"))
			continue;
		if (!hit && (v = var_get(k, t->v[i])) != NULL && v->alias == pi)
			hit = 1;
		else
			v = NULL;
		if (!hit)
			continue;
		if (v == NULL && i + 1 < t->n && is(t, i + 1, "=") &&
		    is(t, i - 1, "*"))
			continue;
		if (!is(t, i + 1, "[")) {
			if (is(t, i - 1, "(") && i >= 2 &&
			    strncmp(t->v[i - 2], "atomic", 6) == 0)
				bare = 1;
			else if (is(t, i - 1, "*"))
				bare = 1;
			else if (!(is(t, i - 1, "=") && v == NULL &&
			    i >= 2 && var_get(k, t->v[i - 2]) != NULL &&
			    var_get(k, t->v[i - 2])->alias == pi))
				unknown = 1;
			continue;
		}
		{
			size_t e = skip_group(t, i + 1) - 1, j;
			/* alias offset tokens, then " + ", then the index */
			idx.v = calloc(t->n + 4, sizeof(char *));
			if (idx.v == NULL)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
			if (v != NULL) {
				for (j = v->a + 2; j < v->b; j++)
					idx.v[idx.n++] = t->v[j];
				if (idx.n)
					idx.v[idx.n++] = (char *)"+";
			}
			for (j = i + 2; j < e; j++)
				idx.v[idx.n++] = t->v[j];
			any = 1;
			if (index_count(k, &idx, 0, idx.n, cnt, sizeof(cnt))) {
				int stars = 0;
				const char *q;
				for (q = cnt; *q != '\0'; q++)
					stars += *q == '*' || *q == ' ';
				if (stars > best) {
					best = stars;
					copy(p->count, sizeof(p->count), cnt);
				}
			} else
				unknown = 1;
			free(idx.v);
		}
	}
	if (best >= 0 && !unknown) {
		p->count_state = 2;
	} else if (best >= 0) {
		p->count_state = 1;
		guess(k, "%s: count %s from some subscripts only", p->name,
		    p->count);
	} else if (bare && !any && !unknown) {
		copy(p->count, sizeof(p->count), "1");
		p->count_state = 2;
	} else if (domain != NULL) {
		copy(p->count, sizeof(p->count), domain);
		p->count_state = 1;
		guess(k, "%s: count taken to be the index range %s", p->name,
		    domain);
	} else {
		copy(p->count, sizeof(p->count), "1048576");
		p->count_state = 1;
		guess(k, "%s: count unknown, 1048576 assumed", p->name);
	}
	mark_size_str(k, p->count);
}

/* The launch: block from the launch site when its expression is a
 * constant, else __launch_bounds__, else a default; grid from the index
 * ranges; dynamic shared memory from the launch site or the kernel's
 * extern __shared__ array. */
static void
infer_launch(struct kern *k, json_t *launch)
{
	struct toks *t = &k->t, bt = { 0 };
	const char *bexpr = k_get_str(launch, "block");
	const char *sexpr = k_get_str(launch, "shared_mem");
	long long v;
	size_t i;
	int d, n;

	k->block[0] = k->block[1] = k->block[2] = 1;
	k->dims = 1;
	for (i = 0; i < t->n; i++)
		if ((is(t, i, "threadIdx") || is(t, i, "blockDim")) &&
		    dim_of(t, i) >= 1)
			k->dims = 2;
	k->block_state = 2;
	if (bexpr != NULL) {
		size_t a = 0, e;
		static const char *const comma[] = { ",", NULL };
		tokenize(bexpr, &bt);
		if (is(&bt, 0, "dim3") && is(&bt, 1, "("))
			a = 2;
		for (d = 0; d < 3 && a < bt.n; d++) {
			e = expr_end(&bt, a, comma);
			if (!eval_range(&bt, a, e, &k->c, &v) || v <= 0 ||
			    v > 1024) {
				k->block[0] = 0;
				break;
			}
			k->block[d] = v;
			a = e + 1;
		}
	} else
		k->block[0] = 0;
	if (k->block[0] == 0) {
		k->block[0] = k->block[1] = k->block[2] = 1;
		for (i = 0; i + 2 < k->all.n; i++)
			if (is(&k->all, i, "__launch_bounds__") &&
			    is(&k->all, i + 1, "(")) {
				size_t e = skip_group(&k->all, i + 1) - 1, c;
				for (c = i + 2; c < e && !is(&k->all, c, ","); c++)
					;
				if (eval_range(&k->all, i + 2, c, &k->c, &v))
					k->block[0] = v;
			}
		if (k->block[0] <= 1) {
			k->block[0] = k->dims == 2 ? 16 : DEFAULT_BLOCK;
			if (k->dims == 2)
				k->block[1] = 16;
			guess(k, "block size %lld x %lld: not a constant at the "
			    "launch site", k->block[0], k->block[1]);
			k->block_state = 1;
		}
	}
	toks_free(&bt);
	/* a shared array sized N and indexed by thread caps the block */
	for (i = 0; i + 4 < t->n; i++)
		if (is(t, i, "__shared__") && !is(t, i - 1, "extern")) {
			size_t j = i + 1;
			while (j < t->n && !is(t, j, "[") && !is(t, j, ";"))
				j++;
			if (is(t, j, "[")) {
				size_t e = skip_group(t, j) - 1;
				if (eval_range(t, j + 1, e, &k->c, &v) && v > 0 &&
				    v < k->block[0] * k->block[1] &&
				    k->dims == 1 && v >= 32) {
					k->block[0] = v;
				}
			}
		}

	/* grid: per dimension, the range of a global or block index */
	k->grid_state = 2;
	for (d = 0; d < 3; d++) {
		const char *dom = NULL;
		int kind = -1;
		for (n = 0; n < k->nv; n++) {
			struct var *vv = &k->v[n];
			if (vv->dim != d || vv->bound[0] == '\0' ||
			    (vv->kind != V_GLOBAL && vv->kind != V_BLOCK))
				continue;
			if (dom == NULL || (kind == V_BLOCK &&
			    vv->kind == V_GLOBAL)) {
				dom = vv->bound;
				kind = (int)vv->kind;
			}
		}
		if (dom == NULL) {
			int used = 0;
			for (n = 0; n < k->nv; n++)
				if ((k->v[n].kind == V_GLOBAL ||
				    k->v[n].kind == V_BLOCK) && k->v[n].dim == d)
					used = 1;
			copy(k->grid[d], sizeof(k->grid[d]), "1");
			if (used) {
				k->grid_state = 1;
				guess(k, "grid.%c: no bound found for its "
				    "index, 1 assumed", 'x' + d);
			}
		} else if (kind == V_BLOCK) {
			copy(k->grid[d], sizeof(k->grid[d]), dom);
		} else {
			char pd[MAX_EXPR];
			paren(dom, pd, sizeof(pd));
			if (k->block[d] == 1)
				copy(k->grid[d], sizeof(k->grid[d]), dom);
			else
				bprintf(k->grid[d], sizeof(k->grid[d]),
				    "(%s + %lld) / %lld", pd, k->block[d] - 1,
				    k->block[d]);
		}
	}
	if (k->grid_state == 2 && strcmp(k->grid[0], "1") == 0 &&
	    strcmp(k->grid[1], "1") == 0) {
		int any = 0;
		for (n = 0; n < k->nv; n++)
			any |= k->v[n].kind == V_GLOBAL ||
			    k->v[n].kind == V_BLOCK;
		if (!any)
			guess(k, "grid: one block (no block index is used)");
	}

	/* dynamic shared memory */
	k->shared_state = 2;
	copy(k->shared, sizeof(k->shared), "0");
	for (i = 0; i + 3 < t->n; i++)
		if (is(t, i, "extern") && is(t, i + 1, "__shared__"))
			break;
	if (i + 3 < t->n) {
		char buf[MAX_EXPR] = "";
		struct toks st = { 0 };
		int ok = 0;
		if (sexpr != NULL && bexpr != NULL) {
			/* the launcher's block variable is our block */
			size_t j;
			tokenize(sexpr, &st);
			for (j = 0; j < st.n; j++)
				if (is_ident(st.v[j]) && strcmp(st.v[j], bexpr) == 0) {
					free(st.v[j]);
					st.v[j] = malloc(24);
					if (st.v[j] == NULL)
						k_fatal(K_EXIT_SYSTEM, NULL,
						    "out of memory");
					snprintf(st.v[j], 24, "%lld", k->block[0]);
				}
			ok = param_expr(k, &st, 0, st.n, buf, sizeof(buf)) &&
			    eval_str(buf, &k->c, &v) && v > 0;
			toks_free(&st);
		}
		if (ok)
			snprintf(k->shared, sizeof(k->shared), "%lld", v);
		else {
			const struct dtype *dt = find_dtype(t->v[i + 2]);
			int sz = dt != NULL ? dt->size : 8;
			snprintf(k->shared, sizeof(k->shared), "%lld",
			    k->block[0] * k->block[1] * sz);
			k->shared_state = 1;
			snprintf(k->shared_guess, sizeof(k->shared_guess),
			    "shared_mem: one %s per thread of the block",
			    dt != NULL ? t->v[i + 2] : "8-byte word");
		}
	}
}

/* ------------------------------------------------------------ bounds */

/*
 * Element counts from symbolic bounds.  Every integer expression that a
 * subscript or a pointer offset is built from gets inclusive bounds
 * [lo, hi], each a polynomial with integer coefficients over atoms: the
 * integer scalar parameters and struct fields (sizes, at least 1 in every
 * case kwrap writes) and quotients a polynomial cannot hold, such as
 * (n + 255) / 256.  A side that cannot be bounded is infinite.  A buffer's
 * count is the largest hi of its accesses, plus one; it is derived only
 * when every access has a finite hi and a lo of at least 0, so a derived
 * count is an upper bound, never a guess.  The analysis is flow-insensitive
 * (a variable's value is the hull of everything assigned to it) except for
 * guards, which narrow a variable inside the code they dominate.
 */
#define MAX_ATOMS 96
#define MAX_TERMS 16
#define MAX_MONO 6
#define MAX_DEPTH 24		/* nested evaluations (variables, helpers) */
#define MAX_HELPER 4		/* helper functions deep */
#define DATA_HI 3		/* largest value of a buffer read as an index */

struct term {
	long long c;
	int na;
	unsigned char a[MAX_MONO];	/* atom indices, ascending */
};

struct poly {
	int inf;		/* no bound on this side */
	int n;
	struct term t[MAX_TERMS];
};

struct iv {
	struct poly lo, hi;
};

struct atom {
	char text[MAX_EXPR];
	int ge1;		/* a size: at least 1 */
	int nonneg;		/* a quotient of nonnegatives */
	long long div;		/* constant divisor, or 0 */
	int datom;		/* the divisor's atom, or -1 */
	struct poly num;	/* the dividend */
};

struct atoms {
	struct atom a[MAX_ATOMS];
	int n;
};

static void
p_const(struct poly *p, long long c)
{
	p->inf = 0;
	p->n = 0;
	if (c != 0) {
		p->n = 1;
		p->t[0].c = c;
		p->t[0].na = 0;
	}
}

static void
p_inf(struct poly *p)
{
	p->inf = 1;
	p->n = 0;
}

static int
p_isconst(const struct poly *p, long long *c)
{
	if (p->inf || p->n > 1 || (p->n == 1 && p->t[0].na > 0))
		return 0;
	*c = p->n ? p->t[0].c : 0;
	return 1;
}

/* Monomial order: higher degree first, then by atoms. */
static int
mono_cmp(const struct term *x, const struct term *y)
{
	int i;

	if (x->na != y->na)
		return y->na - x->na;
	for (i = 0; i < x->na; i++)
		if (x->a[i] != y->a[i])
			return (int)x->a[i] - (int)y->a[i];
	return 0;
}

static void
p_addterm(struct poly *p, const struct term *t)
{
	int i, j;

	if (p->inf || t->c == 0)
		return;
	for (i = 0; i < p->n; i++) {
		int r = mono_cmp(t, &p->t[i]);
		if (r == 0) {
			if (__builtin_add_overflow(p->t[i].c, t->c, &p->t[i].c))
				p_inf(p);
			else if (p->t[i].c == 0) {
				for (j = i; j + 1 < p->n; j++)
					p->t[j] = p->t[j + 1];
				p->n--;
			}
			return;
		}
		if (r < 0)
			break;
	}
	if (p->n >= MAX_TERMS) {
		p_inf(p);
		return;
	}
	for (j = p->n; j > i; j--)
		p->t[j] = p->t[j - 1];
	p->t[i] = *t;
	p->n++;
}

/* r = a + sign * b */
static void
p_add(struct poly *r, const struct poly *a, const struct poly *b, int sign)
{
	struct poly s = *a;
	int i;

	if (a->inf || b->inf) {
		p_inf(r);
		return;
	}
	for (i = 0; i < b->n && !s.inf; i++) {
		struct term t = b->t[i];
		if (sign < 0 && __builtin_mul_overflow(t.c, -1LL, &t.c)) {
			p_inf(&s);
			break;
		}
		p_addterm(&s, &t);
	}
	*r = s;
}

static void
p_mul(struct poly *r, const struct poly *a, const struct poly *b)
{
	struct poly s;
	int i, j, x, y, n;

	if (a->inf || b->inf) {
		p_inf(r);
		return;
	}
	p_const(&s, 0);
	for (i = 0; i < a->n && !s.inf; i++)
		for (j = 0; j < b->n && !s.inf; j++) {
			const struct term *u = &a->t[i], *v = &b->t[j];
			struct term t;
			if (u->na + v->na > MAX_MONO ||
			    __builtin_mul_overflow(u->c, v->c, &t.c)) {
				p_inf(&s);
				break;
			}
			/* merge two ascending atom lists */
			for (x = y = n = 0; x < u->na || y < v->na;)
				t.a[n++] = y >= v->na || (x < u->na &&
				    u->a[x] <= v->a[y]) ? u->a[x++] : v->a[y++];
			t.na = n;
			p_addterm(&s, &t);
		}
	*r = s;
}

static void
p_scale(struct poly *r, const struct poly *a, long long c)
{
	struct poly k;

	p_const(&k, c);
	p_mul(r, a, &k);
}

static int
atom_signed(const struct atoms *at, int i)
{
	return !at->a[i].ge1 && !at->a[i].nonneg;
}

/* Whether p >= 0 for every value of its atoms: each negative term is
 * paid for by positive terms over the same atoms and more sizes (n * m - n
 * >= 0, since m >= 1), or by the constant when it is constant itself. */
static int
p_nonneg(const struct atoms *at, const struct poly *p)
{
	long long w[MAX_TERMS];
	int i, j, x, y;

	if (p->inf)
		return 0;
	for (i = 0; i < p->n; i++) {
		w[i] = p->t[i].c;
		for (x = 0; x < p->t[i].na; x++)
			if (atom_signed(at, p->t[i].a[x]))
				return 0;
	}
	for (i = 0; i < p->n; i++) {
		const struct term *u = &p->t[i];
		long long need = -w[i];
		if (need <= 0)
			continue;
		for (j = 0; j < p->n && need > 0; j++) {
			const struct term *v = &p->t[j];
			long long take;
			if (w[j] <= 0 || v->na < u->na)
				continue;
			/* u's atoms a sub-multiset of v's, the rest sizes */
			for (x = y = 0; y < v->na; y++) {
				if (x < u->na && u->a[x] == v->a[y])
					x++;
				else if (!at->a[v->a[y]].ge1)
					break;
			}
			if (x < u->na || y < v->na)
				continue;
			take = w[j] < need ? w[j] : need;
			w[j] -= take;
			need -= take;
		}
		if (need > 0)
			return 0;
	}
	return 1;
}

static int
p_ge(const struct atoms *at, const struct poly *a, const struct poly *b)
{
	struct poly d;

	if (a->inf && !b->inf)
		return 0;
	p_add(&d, a, b, -1);
	return p_nonneg(at, &d);
}

static void p_print(const struct atoms *at, const struct poly *p, char *out,
    size_t cap);

static int
atom_get(struct atoms *at, const char *text)
{
	int i;

	for (i = 0; i < at->n; i++)
		if (strcmp(at->a[i].text, text) == 0)
			return i;
	if (at->n >= MAX_ATOMS || strlen(text) >= sizeof(at->a[0].text))
		return -1;
	memset(&at->a[at->n], 0, sizeof(at->a[0]));
	copy(at->a[at->n].text, sizeof(at->a[0].text), text);
	at->a[at->n].datom = -1;
	return at->n++;
}

static void
p_atom(struct poly *p, int a)
{
	if (a < 0) {
		p_inf(p);
		return;
	}
	p_const(p, 1);
	p->t[0].na = 1;
	p->t[0].a[0] = (unsigned char)a;
}

/* a / b in C's truncating division, for b >= 1: exact where every term
 * divides, else a new atom. */
static void
p_div(struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b)
{
	char ta[MAX_EXPR], tb[MAX_EXPR], text[MAX_EXPR * 2 + 8];
	long long c, d;
	int i, simple_a, simple_b, x;

	if (a->inf || b->inf) {
		p_inf(r);
		return;
	}
	if (p_isconst(b, &d) && d >= 1) {
		if (d == 1) {
			*r = *a;
			return;
		}
		if (p_isconst(a, &c)) {
			p_const(r, c / d);
			return;
		}
		for (i = 0; i < a->n && a->t[i].c % d == 0; i++)
			;
		if (i == a->n) {
			*r = *a;
			for (i = 0; i < r->n; i++)
				r->t[i].c /= d;
			return;
		}
	}
	p_print(at, a, ta, sizeof(ta));
	p_print(at, b, tb, sizeof(tb));
	simple_a = a->n == 1 && a->t[0].c == 1 && a->t[0].na == 1;
	simple_b = p_isconst(b, &d) || (b->n == 1 && b->t[0].c == 1 &&
	    b->t[0].na == 1 && strchr(at->a[b->t[0].a[0]].text, ' ') == NULL);
	snprintf(text, sizeof(text), "%s%s%s / %s%s%s", simple_a ? "" : "(",
	    ta, simple_a ? "" : ")", simple_b ? "" : "(", tb,
	    simple_b ? "" : ")");
	if (strlen(text) >= MAX_EXPR || (x = atom_get(at, text)) < 0) {
		p_inf(r);
		return;
	}
	if (!at->a[x].num.n && !at->a[x].div && at->a[x].datom < 0) {
		at->a[x].num = *a;
		at->a[x].nonneg = p_nonneg(at, a);
		if (p_isconst(b, &d))
			at->a[x].div = d;
		else if (b->n == 1 && b->t[0].c == 1 && b->t[0].na == 1)
			at->a[x].datom = b->t[0].a[0];
	}
	p_atom(r, x);
}

/* An upper bound loosened where that removes a quotient: c * (P / c) <=
 * P and m * (P / m) <= P for P >= 0. */
static void
p_loosen(struct atoms *at, struct poly *p)
{
	int i, x, y, changed = 1, rounds = 0;

	while (changed && !p->inf && rounds++ < 8) {
		changed = 0;
		for (i = 0; i < p->n && !changed; i++) {
			struct term u = p->t[i];
			for (x = 0; x < u.na && !changed; x++) {
				const struct atom *q = &at->a[u.a[x]];
				struct poly rest, np, out;
				int drop = -1;
				if (!q->nonneg || u.c <= 0)
					continue;
				if (q->div > 1 && u.c % q->div == 0)
					;
				else if (q->datom >= 0) {
					for (y = 0; y < u.na; y++)
						if (y != x && u.a[y] == q->datom)
							drop = y;
					if (drop < 0)
						continue;
				} else
					continue;
				/* the term without the quotient (and divisor) */
				p_const(&rest, q->div > 1 ? u.c / q->div : u.c);
				rest.t[0].na = 0;
				for (y = 0; y < u.na; y++)
					if (y != x && y != drop)
						rest.t[0].a[rest.t[0].na++] = u.a[y];
				p_mul(&np, &rest, &q->num);
				p->t[i].c = 0;
				{
					struct poly keep = *p, z;
					int j;
					p_const(&z, 0);
					for (j = 0; j < keep.n; j++)
						if (j != i)
							p_addterm(&z, &keep.t[j]);
					p_add(&out, &z, &np, 1);
				}
				*p = out;
				changed = 1;
			}
		}
	}
}

static void
p_print(const struct atoms *at, const struct poly *p, char *out, size_t cap)
{
	struct k_buf sb = { 0 };
	int i, x;

	if (p->inf) {
		copy(out, cap, "inf");
		return;
	}
	for (i = 0; i < p->n; i++) {
		const struct term *u = &p->t[i];
		long long c = u->c;
		if (i > 0)
			k_buf_add(&sb, c < 0 ? " - " : " + ");
		else if (c < 0)
			k_buf_add(&sb, "-");
		if (c < 0)
			c = -c;
		if (u->na == 0 || c != 1)
			k_buf_printf(&sb, "%lld", c);
		for (x = 0; x < u->na; x++) {
			const char *s = at->a[u->a[x]].text;
			int bare = strchr(s, ' ') == NULL ||
			    (u->na == 1 && c == 1);
			if (x > 0 || c != 1)
				k_buf_add(&sb, " * ");
			k_buf_printf(&sb, bare ? "%s" : "(%s)", s);
		}
	}
	copy(out, cap, sb.n ? k_buf_str(&sb) : "0");
	k_buf_free(&sb);
}

/* ---- intervals */

static void
iv_top(struct iv *r)
{
	p_inf(&r->lo);
	p_inf(&r->hi);
}

static void
iv_const(struct iv *r, long long c)
{
	p_const(&r->lo, c);
	p_const(&r->hi, c);
}

static int
iv_nonneg(const struct atoms *at, const struct iv *a)
{
	return p_nonneg(at, &a->lo);
}

/* The larger of two upper bounds: one that is provably larger, else
 * their sum where both are at least 0 (a + b >= max(a, b)). */
static void
p_max(const struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b)
{
	if (a->inf || b->inf)
		p_inf(r);
	else if (p_ge(at, a, b))
		*r = *a;
	else if (p_ge(at, b, a))
		*r = *b;
	else if (p_nonneg(at, a) && p_nonneg(at, b))
		p_add(r, a, b, 1);
	else
		p_inf(r);
}

/* The smaller of two lower bounds: one that is provably smaller, else 0
 * where both are at least 0. */
static void
p_min(const struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b)
{
	if (a->inf || b->inf)
		p_inf(r);
	else if (p_ge(at, b, a))
		*r = *a;
	else if (p_ge(at, a, b))
		*r = *b;
	else if (p_nonneg(at, a) && p_nonneg(at, b))
		p_const(r, 0);
	else
		p_inf(r);
}

/* Two upper bounds that both hold: the provably smaller, else the
 * finite one, else the first. */
static void
p_meet_hi(const struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b)
{
	if (a->inf)
		*r = *b;
	else if (b->inf || p_ge(at, b, a))
		*r = *a;
	else if (p_ge(at, a, b))
		*r = *b;
	else
		*r = *a;
}

static void
p_meet_lo(const struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b)
{
	if (a->inf)
		*r = *b;
	else if (b->inf || p_ge(at, a, b))
		*r = *a;
	else if (p_ge(at, b, a))
		*r = *b;
	else if (p_nonneg(at, b) && !p_nonneg(at, a))
		*r = *b;
	else
		*r = *a;
}

static void
iv_hull(const struct atoms *at, struct iv *r, const struct iv *a,
    const struct iv *b)
{
	struct iv s;

	p_min(at, &s.lo, &a->lo, &b->lo);
	p_max(at, &s.hi, &a->hi, &b->hi);
	*r = s;
}

static void
iv_add(struct iv *r, const struct iv *a, const struct iv *b, int sign)
{
	struct iv s;

	if (sign > 0) {
		p_add(&s.lo, &a->lo, &b->lo, 1);
		p_add(&s.hi, &a->hi, &b->hi, 1);
	} else {
		p_add(&s.lo, &a->lo, &b->hi, -1);
		p_add(&s.hi, &a->hi, &b->lo, -1);
	}
	*r = s;
}

static void
iv_mul(struct atoms *at, struct iv *r, const struct iv *a, const struct iv *b)
{
	struct iv s;
	long long c;
	const struct iv *x = a, *y = b;

	if (p_isconst(&a->lo, &c) && p_isconst(&a->hi, &c) && c < 0) {
		x = b;
		y = a;
	}
	if (p_isconst(&y->lo, &c) && p_isconst(&y->hi, &c)) {
		/* times a constant: a negative one swaps the sides */
		if (c >= 0) {
			p_scale(&s.lo, &x->lo, c);
			p_scale(&s.hi, &x->hi, c);
		} else {
			p_scale(&s.lo, &x->hi, c);
			p_scale(&s.hi, &x->lo, c);
		}
		if (c == 0)
			iv_const(&s, 0);
	} else if (iv_nonneg(at, a) && iv_nonneg(at, b)) {
		p_mul(&s.lo, &a->lo, &b->lo);
		p_mul(&s.hi, &a->hi, &b->hi);
	} else {
		if (!iv_nonneg(at, a)) {
			x = b;
			y = a;
		}
		if (!iv_nonneg(at, x)) {
			iv_top(r);
			return;
		}
		/* x >= 0, y of either sign */
		struct poly l1, l2;
		if (p_nonneg(at, &y->hi))
			p_mul(&s.hi, &x->hi, &y->hi);
		else
			p_inf(&s.hi);
		p_mul(&l1, &x->hi, &y->lo);
		p_mul(&l2, &x->lo, &y->lo);
		p_min(at, &s.lo, &l1, &l2);
	}
	*r = s;
}

/* ---- the code a bound is read from: the kernel or a helper */

enum { A_EQ, A_INC, A_DEC, A_DIV, A_UNK, A_LOOP0 };

struct asg {
	char name[64];
	int kind;
	size_t pos;		/* the name's token */
	size_t a, b;		/* the right-hand side */
	size_t ca, cb;		/* an increment capped by a break: the cap */
	int d;			/* the declaration it assigns, or -1 */
};

/* A local declaration and where it is seen: for (int j = ...) in two
 * loops declares two variables. */
struct decl {
	char name[64];
	size_t s, e;
};

struct guard {
	char name[64];
	int hi;			/* an upper bound, else a lower one */
	int strict;		/* < or > on an integer */
	size_t a, b;		/* the bound */
	size_t ra, rb;		/* a clamp: or the value assigned */
	size_t s, e;		/* where it holds */
	int state;		/* 0, 1 being evaluated, 2 done */
	struct iv v;
};

struct memo {
	char name[64];
	int d;
	int state;
	struct iv v;
};

struct loop {
	size_t s, e;
	int once;		/* one trip per thread under kwrap's launch */
};

struct fn {
	struct kern *k;
	const struct toks *t;
	size_t a, b;		/* the body, inside its braces */
	int kernel;
	char pn[MAX_PARAMS][64];
	int pptr[MAX_PARAMS], pint[MAX_PARAMS];
	int np;
	struct iv *bind;	/* a helper's arguments */
	struct asg *as;
	struct guard *g;
	struct memo *m;
	struct loop *l;
	struct decl *dc;
	int nas, ng, nm, nl, cas, cg, cm, cl, nd, cd;
};

static void *
grow(void *p, int *cap, int n, size_t sz)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	if ((p = realloc(p, (size_t)*cap * sz)) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	return p;
}

static void
fn_free(struct fn *f)
{
	free(f->as);
	free(f->g);
	free(f->m);
	free(f->l);
	free(f->dc);
	free(f->bind);
	free(f);
}

static int
fn_param(const struct fn *f, const char *name)
{
	int i;

	for (i = 0; i < f->np; i++)
		if (strcmp(f->pn[i], name) == 0)
			return i;
	return -1;
}

static int
is_keyword(const char *s)
{
	static const char *const kw[] = { "if", "for", "while", "do", "switch",
	    "return", "else", "case", "sizeof", "new", "delete", NULL };
	int i;

	for (i = 0; kw[i] != NULL; i++)
		if (strcmp(s, kw[i]) == 0)
			return 1;
	return 0;
}

/* Whether the operator at j is unary (what is before it ends no operand). */
static int
unary_at(const struct toks *t, size_t j)
{
	const char *s;

	if (j == 0)
		return 1;
	s = t->v[j - 1];
	return !(is_ident(s) && !is_keyword(s)) && !isdigit((unsigned char)*s) &&
	    strcmp(s, ")") != 0 && strcmp(s, "]") != 0;
}

/* End (exclusive) of the statement at i. */
static size_t
stmt_end(const struct toks *t, size_t i, size_t lim)
{
	static const char *const semi[] = { ";", NULL };
	size_t j;

	if (i >= lim)
		return lim;
	if (is(t, i, "{"))
		return skip_group(t, i);
	if (is(t, i, "if") && is(t, i + 1, "(")) {
		j = stmt_end(t, skip_group(t, i + 1), lim);
		if (is(t, j, "else"))
			j = stmt_end(t, j + 1, lim);
		return j;
	}
	if ((is(t, i, "for") || is(t, i, "while") || is(t, i, "switch") ||
	    is(t, i, "CUDA_1D_KERNEL_LOOP") || is(t, i, "CUDA_KERNEL_LOOP") ||
	    is(t, i, "HIP_1D_KERNEL_LOOP") || is(t, i, "CUDA_2D_KERNEL_LOOP")) &&
	    is(t, i + 1, "("))
		return stmt_end(t, skip_group(t, i + 1), lim);
	if (is(t, i, "do")) {
		j = stmt_end(t, i + 1, lim);
		if (is(t, j, "while") && is(t, j + 1, "("))
			j = skip_group(t, j + 1);
		return is(t, j, ";") ? j + 1 : j;
	}
	j = expr_end(t, i, semi);
	return j < lim ? j + 1 : lim;
}

/* Whether statement [s, e) always leaves the code after it. */
static int
stmt_exits(const struct toks *t, size_t s, size_t e)
{
	size_t j, last = s;

	if (is(t, s, "{")) {
		if (e < s + 2)
			return 0;
		for (j = s + 1; j < e - 1; j = stmt_end(t, j, e - 1))
			last = j;
		if (last == s)
			return 0;
		s = last;
	}
	return is(t, s, "return") || is(t, s, "continue") || is(t, s, "break");
}

/* The closing brace of the block holding pos. */
static size_t
block_end(const struct fn *f, size_t pos)
{
	const struct toks *t = f->t;
	size_t j;
	int depth = 0;

	for (j = pos; j-- > f->a;) {
		if (is(t, j, "}"))
			depth++;
		else if (is(t, j, "{") && depth-- == 0)
			return skip_group(t, j) - 1;
	}
	return f->b;
}

/* Whether name is declared with an integer type in f (for strictness:
 * i < n gives i <= n - 1 only when i is an integer). */
static int
int_var(const struct fn *f, const char *name)
{
	const struct toks *t = f->t;
	const struct dtype *dt;
	size_t i;
	int p;

	if ((p = fn_param(f, name)) >= 0)
		return f->pint[p];
	for (i = f->a; i < f->b; i++)
		if (is(t, i, name) && i > 0 && is_ident(t->v[i - 1]) &&
		    (dt = find_dtype(t->v[i - 1])) != NULL && !dt->is_float &&
		    (is(t, i + 1, "=") || is(t, i + 1, ";") || is(t, i + 1, ",")))
			return 1;
	return 0;
}

static void
add_guard(struct fn *f, const char *name, int hi, int strict, size_t a,
    size_t b, size_t s, size_t e)
{
	struct guard *g;

	if (s >= e || b <= a || strlen(name) >= sizeof(g->name))
		return;
	f->g = grow(f->g, &f->cg, f->ng, sizeof(*f->g));
	g = &f->g[f->ng++];
	memset(g, 0, sizeof(*g));
	copy(g->name, sizeof(g->name), name);
	g->hi = hi;
	g->strict = strict && int_var(f, name);
	g->a = a;
	g->b = b;
	g->s = s;
	g->e = e;
}

/* One comparison [a, b) as guards over [s, e); negated when neg.  A
 * clamp [ra, rb) is what the code assigned where the comparison failed. */
static void
cmp_guard(struct fn *f, size_t a, size_t b, int neg, size_t s, size_t e,
    size_t ra, size_t rb, const char *only)
{
	const struct toks *t = f->t;
	size_t i, op = 0;
	int n = 0, depth = 0, lt, eq;
	const char *o;

	while (b - a >= 2 && is(t, a, "(") && skip_group(t, a) == b) {
		a++;
		b--;
	}
	if (b > a && is(t, a, "!") && is(t, a + 1, "(") &&
	    skip_group(t, a + 1) == b) {
		a += 2;
		b--;
		neg = !neg;
	}
	for (i = a; i < b; i++) {
		o = t->v[i];
		if (*o == '(' || *o == '[')
			depth++;
		else if (*o == ')' || *o == ']')
			depth--;
		else if (depth == 0 && (strcmp(o, "<") == 0 ||
		    strcmp(o, "<=") == 0 || strcmp(o, ">") == 0 ||
		    strcmp(o, ">=") == 0 || strcmp(o, "==") == 0)) {
			op = i;
			n++;
		} else if (depth == 0 && (strcmp(o, "&&") == 0 ||
		    strcmp(o, "||") == 0 || strcmp(o, "?") == 0))
			return;
	}
	if (n != 1 || op == a || op + 1 >= b)
		return;
	o = t->v[op];
	eq = strcmp(o, "==") == 0;
	if (eq && neg)
		return;
	lt = *o == '<';		/* left below right */
	if (neg && !eq) {
		lt = !lt;	/* !(l < r) is l >= r */
		o = strchr(o, '=') != NULL ? "strict" : "";
	} else
		o = strchr(o, '=') != NULL ? "" : "strict";
	if (op == a + 1 && is_ident(t->v[a]) && (only == NULL ||
	    strcmp(only, t->v[a]) == 0)) {
		if (eq || lt)
			add_guard(f, t->v[a], 1, *o != '\0' && !eq, op + 1, b, s, e);
		if (eq || !lt)
			add_guard(f, t->v[a], 0, *o != '\0' && !eq, op + 1, b, s, e);
		if (ra < rb && f->ng > 0 &&
		    strcmp(f->g[f->ng - 1].name, t->v[a]) == 0) {
			f->g[f->ng - 1].ra = ra;
			f->g[f->ng - 1].rb = rb;
		}
	}
	if (b == op + 2 && is_ident(t->v[op + 1]) && only == NULL) {
		if (eq || !lt)
			add_guard(f, t->v[op + 1], 1, *o != '\0' && !eq, a, op, s, e);
		if (eq || lt)
			add_guard(f, t->v[op + 1], 0, *o != '\0' && !eq, a, op, s, e);
	}
}

/* Split [a, b) at top-level sep; the parts' ends in ends[]. */
static int
split_top(const struct toks *t, size_t a, size_t b, const char *sep,
    size_t *ends, int max, int *mixed)
{
	size_t i;
	int depth = 0, n = 0;
	const char *other = strcmp(sep, "&&") == 0 ? "||" : "&&";

	*mixed = 0;
	for (i = a; i < b; i++) {
		const char *s = t->v[i];
		if (*s == '(' || *s == '[')
			depth++;
		else if (*s == ')' || *s == ']')
			depth--;
		else if (depth == 0 && strcmp(s, sep) == 0) {
			if (n < max - 1)
				ends[n++] = i;
		} else if (depth == 0 && (strcmp(s, other) == 0 ||
		    strcmp(s, "?") == 0))
			*mixed = 1;
	}
	ends[n++] = b;
	return n;
}

/* Guards of condition [a, b): its conjuncts hold from their end to e;
 * its negation (each disjunct failed) over [ns, ne). */
static void
cond_guards(struct fn *f, size_t a, size_t b, size_t e, size_t ns,
    size_t ne)
{
	size_t ends[16], s;
	int n, i, mixed;

	n = split_top(f->t, a, b, "&&", ends, 16, &mixed);
	if (!mixed)
		for (i = 0, s = a; i < n; s = ends[i++] + 1)
			cmp_guard(f, s, ends[i], 0, ends[i], e, 0, 0, NULL);
	if (ns >= ne)
		return;
	n = split_top(f->t, a, b, "||", ends, 16, &mixed);
	if (!mixed)
		for (i = 0, s = a; i < n; s = ends[i++] + 1)
			cmp_guard(f, s, ends[i], 1, ns, ne, 0, 0, NULL);
}

/* The innermost declaration of name seen at pos, or -1. */
static int
decl_of(const struct fn *f, const char *name, size_t pos)
{
	int i, best = -1;

	for (i = 0; i < f->nd; i++)
		if (pos >= f->dc[i].s && pos < f->dc[i].e &&
		    strcmp(f->dc[i].name, name) == 0 &&
		    (best < 0 || f->dc[i].s >= f->dc[best].s))
			best = i;
	return best;
}

/* Whether the name at i is declared there (int j =, const T *p =). */
static void
note_decl(struct fn *f, size_t i)
{
	const struct toks *t = f->t;
	const char *p = t->v[i - 1];
	struct decl *d;
	size_t j;

	if (!(is(t, i + 1, "=") || is(t, i + 1, ";") || is(t, i + 1, ",") ||
	    is(t, i + 1, "[")))
		return;
	if (strcmp(p, "*") == 0 || strcmp(p, "&") == 0) {
		if (i < 2 || !(is_ident(t->v[i - 2]) || is(t, i - 2, ">")))
			return;
	} else if (!is_ident(p) || is_keyword(p) || strcmp(p, "goto") == 0)
		return;
	if (strlen(t->v[i]) >= sizeof(d->name))
		return;
	/* the type starts a statement or a for's first clause (a * b; is
	 * no declaration inside x += a * b;) */
	for (j = i - 1; j >= f->a && (is_ident(t->v[j]) || is(t, j, "*") ||
	    is(t, j, "&") || is(t, j, "::")) && !is_keyword(t->v[j]); j--)
		;
	if (!(j < f->a || is(t, j, ";") || is(t, j, "{") || is(t, j, "}") ||
	    (is(t, j, "(") && j > 0 && is(t, j - 1, "for"))))
		return;
	f->dc = grow(f->dc, &f->cd, f->nd, sizeof(*f->dc));
	d = &f->dc[f->nd++];
	copy(d->name, sizeof(d->name), t->v[i]);
	d->s = i;
	d->e = block_end(f, i);
	if (j >= f->a && is(t, j, "("))
		d->e = stmt_end(t, j - 1, f->b);
}

static void
add_asg(struct fn *f, const char *name, int kind, size_t pos, size_t a,
    size_t b)
{
	struct asg *x;

	if (strlen(name) >= sizeof(x->name))
		return;
	f->as = grow(f->as, &f->cas, f->nas, sizeof(*f->as));
	x = &f->as[f->nas++];
	memset(x, 0, sizeof(*x));
	copy(x->name, sizeof(x->name), name);
	x->kind = kind;
	x->pos = pos;
	x->a = a;
	x->b = b;
	x->d = decl_of(f, name, pos);
}

/* if (C) S without an exit: where S assigns a variable of C's negation
 * at its top level, after the if that variable satisfies the negation or
 * holds what S assigned (if (y <= 0) y = 0; clamps y to 0 and above). */
static void
clamp_guards(struct fn *f, size_t c0, size_t c1, size_t s0, size_t s1,
    size_t after)
{
	const struct toks *t = f->t;
	size_t j, je, ends[16], s, lim = s1;
	int x, n, i, mixed;

	n = split_top(t, c0, c1, "||", ends, 16, &mixed);
	if (mixed)
		return;
	if (is(t, s0, "{")) {
		j = s0 + 1;
		lim = s1 - 1;
	} else
		j = s0;
	for (; j < lim; j = je) {
		je = stmt_end(t, j, lim);
		if (!is_ident(t->v[j]) || is_keyword(t->v[j]))
			continue;
		for (x = 0; x < f->nas; x++) {
			struct asg *as = &f->as[x];
			if (as->kind != A_EQ || as->pos < j || as->pos >= je)
				continue;
			for (i = 0, s = c0; i < n; s = ends[i++] + 1)
				cmp_guard(f, s, ends[i], 1, after,
				    block_end(f, after), as->a, as->b, as->name);
		}
	}
}

/* Whether the grid-stride loop over v runs once per thread: kwrap's
 * grid covers v's range, as infer_launch derived it. */
static int
loop_once(struct kern *k, const char *v)
{
	struct var *w = var_get(k, v);
	char pd[MAX_EXPR], g[MAX_EXPR];

	if (w == NULL || w->kind != V_GLOBAL || w->dim != 0 ||
	    w->bound[0] == '\0' || k->grid_state < 2)
		return 0;
	paren(w->bound, pd, sizeof(pd));
	if (k->block[0] == 1)
		copy(g, sizeof(g), w->bound);
	else
		bprintf(g, sizeof(g), "(%s + %lld) / %lld", pd, k->block[0] - 1,
		    k->block[0]);
	return strcmp(g, k->grid[0]) == 0;
}

/* Assignments, guards and loops of f. */
static void
fn_scan(struct fn *f)
{
	const struct toks *t = f->t;
	static const char *const rhs[] = { ";", ",", NULL };
	size_t i, e, c0, c1, s0, s1, e0, e1;

	for (i = f->a; i < f->b; i++) {
		const char *s = t->v[i];
		if (is_ident(s) && !is_keyword(s) && !is(t, i - 1, ".") &&
		    !is(t, i - 1, "->") && !is(t, i - 1, "::")) {
			const char *n = i + 1 < t->n ? t->v[i + 1] : "";
			note_decl(f, i);
			int kind = -1;
			if (strcmp(n, "=") == 0)
				kind = A_EQ;
			else if (strcmp(n, "+=") == 0)
				kind = A_INC;
			else if (strcmp(n, "-=") == 0)
				kind = A_DEC;
			else if (strcmp(n, "/=") == 0 || strcmp(n, ">>=") == 0)
				kind = A_DIV;
			else if (strcmp(n, "*=") == 0 || strcmp(n, "%=") == 0 ||
			    strcmp(n, "<<=") == 0 || strcmp(n, "&=") == 0 ||
			    strcmp(n, "|=") == 0 || strcmp(n, "^=") == 0)
				kind = A_UNK;
			if (kind >= 0) {
				e = expr_end(t, i + 2, rhs);
				add_asg(f, s, kind, i, i + 2, e);
			} else if (strcmp(n, "++") == 0 || is(t, i - 1, "++"))
				add_asg(f, s, A_INC, i, 0, 0);
			else if (strcmp(n, "--") == 0 || is(t, i - 1, "--"))
				add_asg(f, s, A_DEC, i, 0, 0);
			else if (is(t, i - 1, "&") && unary_at(t, i - 1) &&
			    !is(t, i + 1, "["))
				add_asg(f, s, A_UNK, i, 0, 0);
			if (f->nas > 0 && f->as[f->nas - 1].pos == i &&
			    f->as[f->nas - 1].kind == A_INC) {
				/* ++c; if (c >= E) break; keeps c <= E */
				struct asg *as = &f->as[f->nas - 1];
				size_t j = stmt_end(t, i, f->b);
				if ((as->b == as->a || (as->b == as->a + 1 &&
				    is(t, as->a, "1"))) && is(t, j, "if") &&
				    is(t, j + 1, "(") && is(t, j + 2, s) &&
				    (is(t, j + 3, ">=") || is(t, j + 3, "==")) &&
				    (e = skip_group(t, j + 1)) > j + 5 &&
				    (is(t, e, "break") || is(t, e, "return"))) {
					as->ca = j + 4;
					as->cb = e - 1;
				}
			}
		}
		if (is(t, i, "if") && is(t, i + 1, "(")) {
			c0 = i + 2;
			c1 = skip_group(t, i + 1) - 1;
			s0 = c1 + 1;
			s1 = stmt_end(t, s0, f->b);
			e0 = e1 = s1;
			if (is(t, s1, "else")) {
				e0 = s1 + 1;
				e1 = stmt_end(t, e0, f->b);
			}
			cond_guards(f, c0, c1, s1, e0, e1);
			if (stmt_exits(t, s0, s1))
				cond_guards(f, c0, c1, c0, e1, block_end(f, i));
		} else if ((is(t, i, "for") || is(t, i, "while")) &&
		    is(t, i + 1, "(")) {
			size_t ends[3];
			int mixed, n;
			c1 = skip_group(t, i + 1) - 1;
			s1 = stmt_end(t, c1 + 1, f->b);
			n = split_top(t, i + 2, c1, ";", ends, 3, &mixed);
			if (is(t, i, "while"))
				cond_guards(f, i + 2, c1, s1, 0, 0);
			else if (n == 3)
				cond_guards(f, ends[0] + 1, ends[1], s1, 0, 0);
			f->l = grow(f->l, &f->cl, f->nl, sizeof(*f->l));
			f->l[f->nl].s = c1 + 1;
			f->l[f->nl].e = s1;
			f->l[f->nl++].once = 0;
		} else if (is(t, i, "do")) {
			f->l = grow(f->l, &f->cl, f->nl, sizeof(*f->l));
			f->l[f->nl].s = i + 1;
			f->l[f->nl].e = stmt_end(t, i + 1, f->b);
			f->l[f->nl++].once = 0;
		} else if ((is(t, i, "CUDA_1D_KERNEL_LOOP") ||
		    is(t, i, "CUDA_KERNEL_LOOP") ||
		    is(t, i, "HIP_1D_KERNEL_LOOP")) && is(t, i + 1, "(") &&
		    is_ident(t->v[i + 2]) && is(t, i + 3, ",")) {
			/* for (i = global index; i < n; i += grid's threads) */
			c1 = skip_group(t, i + 1) - 1;
			s1 = stmt_end(t, c1 + 1, f->b);
			add_asg(f, t->v[i + 2], A_LOOP0, i + 2, 0, 0);
			add_guard(f, t->v[i + 2], 1, 1, i + 4, c1, c1 + 1, s1);
			f->g[f->ng - 1].strict = 1;
			f->l = grow(f->l, &f->cl, f->nl, sizeof(*f->l));
			f->l[f->nl].s = c1 + 1;
			f->l[f->nl].e = s1;
			f->l[f->nl++].once = f->kernel &&
			    loop_once(f->k, t->v[i + 2]);
		} else if (is(t, i, "CUDA_2D_KERNEL_LOOP") && is(t, i + 1, "(") &&
		    is_ident(t->v[i + 2]) && is(t, i + 3, ",")) {
			/* two nested grid-stride loops: (i, n, j, m) */
			size_t ends[4];
			int mixed;
			c1 = skip_group(t, i + 1) - 1;
			s1 = stmt_end(t, c1 + 1, f->b);
			if (split_top(t, i + 2, c1, ",", ends, 4, &mixed) != 4 ||
			    !is_ident(t->v[ends[1] + 1]) ||
			    ends[2] != ends[1] + 2)
				continue;
			add_asg(f, t->v[i + 2], A_LOOP0, i + 2, 0, 0);
			add_guard(f, t->v[i + 2], 1, 1, ends[0] + 1, ends[1],
			    c1 + 1, s1);
			f->g[f->ng - 1].strict = 1;
			add_asg(f, t->v[ends[1] + 1], A_LOOP0, ends[1] + 1, 0, 0);
			add_guard(f, t->v[ends[1] + 1], 1, 1, ends[2] + 1, c1,
			    c1 + 1, s1);
			f->g[f->ng - 1].strict = 1;
			f->l = grow(f->l, &f->cl, f->nl, sizeof(*f->l));
			f->l[f->nl].s = c1 + 1;
			f->l[f->nl].e = s1;
			f->l[f->nl++].once = 0;
		} else if (is(t, i, "?")) {
			/* C ? T : F */
			static const char *const fstop[] = { ";", ",", ":",
			    NULL };
			size_t j = i, q;
			int depth = 0, nest = 0;
			while (j-- > f->a) {
				const char *s2 = t->v[j];
				if (*s2 == ')' || *s2 == ']')
					depth++;
				else if (*s2 == '(' || *s2 == '[') {
					if (depth-- == 0)
						break;
				} else if (depth == 0 && (strcmp(s2, "=") == 0 ||
				    strcmp(s2, "return") == 0 ||
				    strcmp(s2, ",") == 0 || strcmp(s2, ";") == 0 ||
				    strcmp(s2, "{") == 0 || strcmp(s2, "}") == 0 ||
				    strcmp(s2, "?") == 0 || strcmp(s2, ":") == 0))
					break;
			}
			for (q = i + 1, depth = 0; q < f->b; q++) {
				const char *s2 = t->v[q];
				if (*s2 == '(' || *s2 == '[' || *s2 == '{')
					depth++;
				else if (*s2 == ')' || *s2 == ']' || *s2 == '}') {
					if (depth-- == 0)
						break;
				} else if (depth == 0 && *s2 == '?')
					nest++;
				else if (depth == 0 && *s2 == ':' && nest-- == 0)
					break;
			}
			if (!is(t, q, ":"))
				continue;
			e1 = expr_end(t, q + 1, fstop);
			cond_guards(f, j + 1, i, q, q + 1, e1);
		}
	}
}

/* Clamps, once every assignment is known. */
static void
fn_clamps(struct fn *f)
{
	const struct toks *t = f->t;
	size_t i, c1, s1, e1;

	for (i = f->a; i < f->b; i++) {
		if (!is(t, i, "if") || !is(t, i + 1, "("))
			continue;
		c1 = skip_group(t, i + 1) - 1;
		s1 = stmt_end(t, c1 + 1, f->b);
		e1 = is(t, s1, "else") ? stmt_end(t, s1 + 1, f->b) : s1;
		if (!stmt_exits(t, c1 + 1, s1))
			clamp_guards(f, i + 2, c1, c1 + 1, s1, e1);
	}
}

/* The kernel, or the helper called name with nargs arguments. */
static struct fn *
fn_new(struct kern *k, const struct toks *t, size_t open, size_t plist,
    int kernel)
{
	struct fn *f = calloc(1, sizeof(*f));
	size_t i, s, close;
	int depth = 0;

	if (f == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	f->k = k;
	f->t = t;
	f->a = open + 1;
	f->b = skip_group(t, open) - 1;
	f->kernel = kernel;
	if (kernel) {
		for (i = 0; i < (size_t)k->np; i++) {
			copy(f->pn[i], sizeof(f->pn[0]), k->p[i].name);
			f->pptr[i] = k->p[i].ptr;
			f->pint[i] = !k->p[i].ptr && k->p[i].dt != NULL &&
			    !k->p[i].dt->is_float && !k->p[i].is_enum;
		}
		f->np = k->np;
	} else if (is(t, plist, "(")) {
		close = skip_group(t, plist) - 1;
		for (i = s = plist + 1; i <= close && f->np < MAX_PARAMS; i++) {
			const char *x = t->v[i];
			size_t j, last = 0;
			if (*x == '(' || *x == '[' || *x == '<')
				depth++;
			else if ((*x == ')' || *x == ']' || *x == '>') &&
			    i < close)
				depth--;
			if (!(i == close || (depth == 0 && *x == ',')))
				continue;
			for (j = s; j < i && !is(t, j, "="); j++) {
				const struct dtype *dt;
				if (is_ident(t->v[j]))
					last = j;
				if (is(t, j, "*") || is(t, j, "&") ||
				    is(t, j, "["))
					f->pptr[f->np] = 1;
				if ((dt = find_dtype(t->v[j])) != NULL &&
				    !dt->is_float)
					f->pint[f->np] = 1;
			}
			if (last > 0)
				copy(f->pn[f->np], sizeof(f->pn[0]), t->v[last]);
			if (f->pptr[f->np])
				f->pint[f->np] = 0;
			f->np++;
			s = i + 1;
		}
		if (f->np == 1 && close == plist + 1)
			f->np = 0;
	}
	fn_scan(f);
	fn_clamps(f);
	return f;
}

/* A helper defined in the slice with nargs parameters. */
static struct fn *
find_helper(struct kern *k, const char *name, int nargs)
{
	const struct toks *t = &k->all;
	size_t i, close;

	for (i = 1; i + 1 < t->n; i++) {
		int n = 1, depth = 0;
		size_t j;
		if (!is(t, i, name) || !is(t, i + 1, "(") || is(t, i - 1, ".") ||
		    is(t, i - 1, "->") || is(t, i - 1, "=") ||
		    !(is_ident(t->v[i - 1]) || is(t, i - 1, "*") ||
		    is(t, i - 1, ">") || is(t, i - 1, "&") || is(t, i - 1, "::")))
			continue;
		close = skip_group(t, i + 1) - 1;
		if (!is(t, close + 1, "{"))
			continue;
		for (j = i + 2; j < close; j++) {
			const char *x = t->v[j];
			if (*x == '(' || *x == '[' || *x == '<')
				depth++;
			else if (*x == ')' || *x == ']' || *x == '>')
				depth--;
			else if (depth == 0 && *x == ',')
				n++;
		}
		if (close == i + 2 || (close == i + 3 && is(t, i + 2, "void")))
			n = 0;
		if (n == nargs)
			return fn_new(k, t, close + 1, i + 1, 0);
	}
	return NULL;
}

/* ---- evaluation */

struct ex {
	struct fn *f;
	size_t i, end;
	int bad;
};

static void x_cond(struct ex *x, struct iv *r);
static void x_unary(struct ex *x, struct iv *r);

static void
eval_at(struct fn *f, size_t a, size_t b, struct iv *r)
{
	struct ex x = { f, a, b, 0 };

	if (a >= b || f->k->depth > MAX_DEPTH) {
		iv_top(r);
		return;
	}
	f->k->depth++;
	x_cond(&x, r);
	f->k->depth--;
	if (x.bad || x.i != b)
		iv_top(r);
}

static void var_value(struct fn *f, const char *name, size_t pos,
    struct iv *r);

/* What a parameter or variable starts as: 1 and *r when it has a
 * binding. */
static int
initial(struct fn *f, const char *name, struct iv *r)
{
	struct kern *k = f->k;
	int p = fn_param(f, name);

	if (p < 0)
		return 0;
	if (!f->kernel) {
		if (f->bind != NULL)
			*r = f->bind[p];
		else
			iv_top(r);
		return 1;
	}
	if (k->p[p].ptr || k->p[p].is_struct || k->p[p].dt == NULL ||
	    k->p[p].is_enum || k->p[p].dt->is_float)
		iv_top(r);
	else if (strcmp(k->p[p].dt->dtype, "bool") == 0) {
		p_const(&r->lo, 0);
		p_const(&r->hi, 1);
	} else {
		int a = atom_get(k->at, name);
		if (a >= 0)
			k->at->a[a].ge1 = 1;
		p_atom(&r->lo, a);
		p_atom(&r->hi, a);
	}
	return 1;
}

/* A variable's value anywhere: the hull of what is assigned to it. */
static void
var_hull(struct fn *f, const char *name, int d, struct iv *r)
{
	struct atoms *at = f->k->at;
	struct memo *m = NULL;
	struct iv v;
	int i, have;

	for (i = 0; i < f->nm; i++)
		if (strcmp(f->m[i].name, name) == 0 && f->m[i].d == d) {
			m = &f->m[i];
			break;
		}
	if (m != NULL && m->state == 2) {
		*r = m->v;
		return;
	}
	if (m != NULL || strlen(name) >= sizeof(m->name)) {
		iv_top(r);	/* a cycle: x = f(x) */
		return;
	}
	f->m = grow(f->m, &f->cm, f->nm, sizeof(*f->m));
	i = f->nm++;
	memset(&f->m[i], 0, sizeof(f->m[i]));
	copy(f->m[i].name, sizeof(f->m[i].name), name);
	f->m[i].d = d;
	f->m[i].state = 1;
	have = d < 0 && initial(f, name, r);
	for (int j = 0; j < f->nas; j++) {
		struct asg *as = &f->as[j];
		if (strcmp(as->name, name) != 0 || as->d != d)
			continue;
		if (as->kind == A_EQ)
			eval_at(f, as->a, as->b, &v);
		else if (as->kind == A_LOOP0) {
			p_const(&v.lo, 0);
			p_inf(&v.hi);
		} else
			continue;
		if (have)
			iv_hull(at, r, r, &v);
		else
			*r = v;
		have = 1;
	}
	if (!have)
		iv_top(r);
	for (int j = 0; j < f->nas && have; j++) {
		struct asg *as = &f->as[j];
		if (strcmp(as->name, name) != 0 || as->d != d)
			continue;
		if (as->kind == A_INC || as->kind == A_DEC) {
			int up = as->kind == A_INC;
			if (as->b > as->a)
				eval_at(f, as->a, as->b, &v);
			else
				iv_const(&v, 1);
			if (!iv_nonneg(at, &v))
				iv_top(r);
			else if (up && as->cb > as->ca) {
				eval_at(f, as->ca, as->cb, &v);
				p_max(at, &r->hi, &r->hi, &v.hi);
			} else if (up)
				p_inf(&r->hi);
			else
				p_inf(&r->lo);
		} else if (as->kind == A_DIV) {
			if (iv_nonneg(at, r))
				p_const(&r->lo, 0);
			else
				iv_top(r);
		} else if (as->kind == A_UNK)
			iv_top(r);
	}
	f->m[i].state = 2;
	f->m[i].v = *r;
}

/* The assignment x = E that alone reaches pos, or -1: the last one
 * before pos, a statement of its own in a block that holds pos, with no
 * assignment of x after pos in a loop around pos that does not hold it
 * (whose next trip would bring that value back). */
static int
sole_def(struct fn *f, const char *name, int d, size_t pos)
{
	const struct toks *t = f->t;
	int j, last = -1;
	size_t st, pa;

	for (j = 0; j < f->nas; j++) {
		struct asg *as = &f->as[j];
		if (strcmp(as->name, name) != 0 || as->d != d ||
		    as->pos >= pos || (pos >= as->a && pos < as->b))
			continue;
		if (last < 0 || as->pos > f->as[last].pos)
			last = j;
	}
	if (last < 0 || f->as[last].kind != A_EQ)
		return -1;
	pa = f->as[last].pos;
	for (st = pa; st > f->a && (is_ident(t->v[st - 1]) ||
	    is(t, st - 1, "*") || is(t, st - 1, "&") || is(t, st - 1, "::")) &&
	    !is_keyword(t->v[st - 1]); st--)
		;
	if (st > f->a && !is(t, st - 1, ";") && !is(t, st - 1, "{") &&
	    !is(t, st - 1, "}"))
		return -1;
	if (block_end(f, pa) < pos)
		return -1;
	for (j = 0; j < f->nl; j++) {
		struct loop *l = &f->l[j];
		int k2;
		if (pos < l->s || pos >= l->e || (pa >= l->s && pa < l->e))
			continue;
		for (k2 = 0; k2 < f->nas; k2++)
			if (strcmp(f->as[k2].name, name) == 0 &&
			    f->as[k2].d == d && f->as[k2].pos >= pos &&
			    f->as[k2].pos < l->e)
				return -1;
	}
	return last;
}

/* A variable's value at pos: what the one assignment that reaches it
 * gives, else its hull, narrowed by the guards there. */
static void
var_value(struct fn *f, const char *name, size_t pos, struct iv *r)
{
	struct atoms *at = f->k->at;
	struct poly one, b;
	size_t after = 0;
	int i, d = decl_of(f, name, pos), j;

	if ((j = sole_def(f, name, d, pos)) >= 0) {
		eval_at(f, f->as[j].a, f->as[j].b, r);
		after = f->as[j].b;
	} else
		var_hull(f, name, d, r);
	p_const(&one, 1);
	for (i = 0; i < f->ng; i++) {
		struct guard *g = &f->g[i];
		struct iv rv;
		if (pos < g->s || pos >= g->e || strcmp(g->name, name) != 0 ||
		    g->state == 1 || g->s < after)
			continue;
		if (g->state == 0) {
			g->state = 1;
			eval_at(f, g->a, g->b, &g->v);
			g->state = 2;
		}
		if (g->hi) {
			b = g->v.hi;
			if (g->strict)
				p_add(&b, &b, &one, -1);
			if (g->rb > g->ra) {
				eval_at(f, g->ra, g->rb, &rv);
				p_max(at, &b, &b, &rv.hi);
			}
			p_meet_hi(at, &r->hi, &b, &r->hi);
		} else {
			b = g->v.lo;
			if (g->strict)
				p_add(&b, &b, &one, 1);
			if (g->rb > g->ra) {
				eval_at(f, g->ra, g->rb, &rv);
				p_min(at, &b, &b, &rv.lo);
			}
			p_meet_lo(at, &r->lo, &b, &r->lo);
		}
	}
}

static void
number(const char *s, struct iv *r)
{
	char *end;
	long long v;
	double d;

	errno = 0;
	v = strtoll(s, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	if (*end == '\0' && errno == 0) {
		iv_const(r, v);
		return;
	}
	d = strtod(s, &end);
	if ((*end == 'f' || *end == 'F' || *end == '\0') && fabs(d) < 1e15) {
		p_const(&r->lo, (long long)floor(d));
		p_const(&r->hi, (long long)ceil(d));
	} else
		iv_top(r);
}

/* Whether ( ... ) at i..close is a cast, not a parenthesized value. */
static int
is_cast(struct fn *f, size_t i, size_t close)
{
	const struct toks *t = f->t;
	size_t j;
	long long v;

	if (close <= i + 1 || close + 1 >= f->t->n)
		return 0;
	for (j = i + 1; j < close; j++) {
		const char *s = t->v[j];
		if (!is_ident(s) && strcmp(s, "*") != 0 && strcmp(s, "::") != 0 &&
		    strcmp(s, "&") != 0)
			return 0;
		if (is_ident(s) && (fn_param(f, s) >= 0 ||
		    const_get(&f->k->c, s, &v)))
			return 0;
		if (is_ident(s) && find_dtype(s) == NULL && j + 1 == close) {
			int x;
			for (x = 0; x < f->nas; x++)
				if (strcmp(f->as[x].name, s) == 0)
					return 0;
		}
	}
	j = close + 1;
	return is_ident(t->v[j]) || isdigit((unsigned char)*t->v[j]) ||
	    is(t, j, "(") || is(t, j, "-") || is(t, j, "+") || is(t, j, "!") ||
	    is(t, j, "~") || is(t, j, "*") || is(t, j, "&") || is(t, j, ".");
}

static void
args_of(struct fn *f, size_t open, size_t *ends, int max, int *n)
{
	int mixed;

	*n = split_top(f->t, open + 1, skip_group(f->t, open) - 1, ",", ends,
	    max, &mixed);
	if (skip_group(f->t, open) == open + 2)
		*n = 0;
}

/* A call's value: min, max, rounding, abs; anything else unbounded. */
static void
x_call(struct ex *x, const char *name, size_t open, struct iv *r)
{
	static const char *const mins[] = { "min", "fminf", "fmin", "umin",
	    "llmin", "__min", "MIN", "imin", NULL };
	static const char *const maxs[] = { "max", "fmaxf", "fmax", "umax",
	    "llmax", "__max", "MAX", "imax", NULL };
	static const char *const same[] = { "floor", "floorf", "ceil", "ceilf",
	    "round", "roundf", "rint", "rintf", "trunc", "truncf", "lrintf",
	    "__float2int_rd", "__float2int_rn", "__float2int_ru",
	    "__float2int_rz", "__double2int_rd", "__double2int_rn",
	    "__double2int_ru", "__double2int_rz", "__float2uint_rd",
	    "__float2ll_rd", "int", "long", "unsigned", "size_t", "int64_t",
	    "float", "double", "static_cast", "T", NULL };
	struct fn *f = x->f;
	struct atoms *at = f->k->at;
	size_t ends[8];
	struct iv a, b;
	struct fn *h;
	int n, i, kind = 0;

	args_of(f, open, ends, 8, &n);
	for (i = 0; mins[i] != NULL; i++)
		if (strcmp(name, mins[i]) == 0)
			kind = 1;
	for (i = 0; maxs[i] != NULL; i++)
		if (strcmp(name, maxs[i]) == 0)
			kind = 2;
	for (i = 0; same[i] != NULL; i++)
		if (strcmp(name, same[i]) == 0)
			kind = 3;
	if (strcmp(name, "abs") == 0 || strcmp(name, "fabsf") == 0 ||
	    strcmp(name, "fabs") == 0 || strcmp(name, "llabs") == 0)
		kind = 4;
	if ((kind == 1 || kind == 2) && n == 2) {
		eval_at(f, open + 1, ends[0], &a);
		eval_at(f, ends[0] + 1, ends[1], &b);
		if (kind == 1) {
			p_min(at, &r->lo, &a.lo, &b.lo);
			p_meet_hi(at, &r->hi, &a.hi, &b.hi);
		} else {
			p_meet_lo(at, &r->lo, &a.lo, &b.lo);
			p_max(at, &r->hi, &a.hi, &b.hi);
		}
	} else if (kind >= 3 && n == 1) {
		eval_at(f, open + 1, ends[0], r);
		if (kind == 4 && !iv_nonneg(at, r)) {
			struct poly z, neg;
			p_const(&z, 0);
			p_add(&neg, &z, &r->lo, -1);
			p_max(at, &r->hi, &r->hi, &neg);
			p_const(&r->lo, 0);
		}
	} else if (kind == 0 && f->k->calls < MAX_HELPER &&
	    (h = find_helper(f->k, name, n)) != NULL) {
		/* a helper of the slice: the hull of what it returns */
		size_t j;
		int have = 0;
		if ((h->bind = calloc((size_t)(n ? n : 1), sizeof(*h->bind))) ==
		    NULL)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		for (i = 0; i < n; i++)
			eval_at(f, i ? ends[i - 1] + 1 : open + 1, ends[i],
			    &h->bind[i]);
		f->k->calls++;
		for (j = h->a; j < h->b; j++) {
			static const char *const semi[] = { ";", NULL };
			size_t e;
			if (!is(h->t, j, "return"))
				continue;
			e = expr_end(h->t, j + 1, semi);
			eval_at(h, j + 1, e, &a);
			if (have)
				iv_hull(at, r, r, &a);
			else
				*r = a;
			have = 1;
		}
		f->k->calls--;
		if (!have)
			iv_top(r);
		fn_free(h);
	} else
		iv_top(r);
}

/* The kernel parameter that pointer name points into at pos: the
 * parameter itself, or a local every assignment of which is p, p + off or
 * p - off, or moves it (q += off); -1 when it is neither. */
static int
buffer_of(struct fn *f, const char *name, size_t pos)
{
	const struct toks *t = f->t;
	int p = fn_param(f, name), j, q, eq = 0;

	(void)pos;
	if (p >= 0)
		return f->k->p[p].ptr ? p : -1;
	p = -1;
	for (j = 0; j < f->nas; j++) {
		struct asg *as = &f->as[j];
		if (strcmp(as->name, name) != 0)
			continue;
		if (as->kind == A_INC || as->kind == A_DEC)
			continue;
		if (as->kind != A_EQ || as->b <= as->a ||
		    (q = fn_param(f, t->v[as->a])) < 0 || !f->k->p[q].ptr ||
		    (p >= 0 && q != p) || !(as->a + 1 == as->b ||
		    is(t, as->a + 1, "+") || is(t, as->a + 1, "-")))
			return -1;
		p = q;
		eq = 1;
	}
	return eq ? p : -1;
}

/* Whether tokens [i, e), a read of element type integer or one converted
 * to an integer there: (int)b[j], static_cast<int>(b[j]), int v = b[j]; */
static int
int_read(struct fn *f, size_t i, size_t e, const struct dtype *dt)
{
	const struct toks *t = f->t;
	const struct dtype *c;

	if (!dt->is_float)
		return 1;
	if (i >= 3 && is(t, i - 1, ")") && is(t, i - 3, "(") &&
	    (c = find_dtype(t->v[i - 2])) != NULL && !c->is_float)
		return 1;
	if (i >= 5 && is(t, i - 1, "(") && is(t, i - 2, ">") &&
	    is(t, i - 4, "<") && is(t, i - 5, "static_cast") &&
	    (c = find_dtype(t->v[i - 3])) != NULL && !c->is_float &&
	    is(t, e, ")"))
		return 1;
	return i >= 2 && is(t, i - 1, "=") && is_ident(t->v[i - 2]) &&
	    int_var(f, t->v[i - 2]) && (is(t, e, ";") || is(t, e, ","));
}

/* Whether the read name[...] at [i, e) is of an input buffer whose values
 * kwrap bounds: the kernel's, read-only, of integers or converted to an
 * integer at once.  The buffer is then filled with 0..DATA_HI in every
 * case (fill_json), so the read is in [0, DATA_HI]. */
static int
data_read(struct fn *f, const char *name, size_t i, size_t e)
{
	struct param *p;
	int pi;

	if (!f->kernel || (pi = buffer_of(f, name, i)) < 0)
		return 0;
	p = &f->k->p[pi];
	if (p->role != R_IN || p->dt == NULL ||
	    strcmp(p->dt->dtype, "bool") == 0 || !int_read(f, i, e, p->dt) ||
	    is(f->t, e, ".") || is(f->t, e, "->"))
		return 0;
	p->vals = 1;
	return 1;
}

static void
x_primary(struct ex *x, struct iv *r)
{
	struct fn *f = x->f;
	struct kern *k = f->k;
	const struct toks *t = f->t;
	const char *s;
	size_t i = x->i, close;
	long long v;
	int d, p;

	if (i >= x->end) {
		x->bad = 1;
		iv_top(r);
		return;
	}
	s = t->v[i];
	if (isdigit((unsigned char)*s) || (*s == '.' &&
	    isdigit((unsigned char)s[1]))) {
		number(s, r);
		x->i++;
		return;
	}
	if (strcmp(s, "(") == 0) {
		close = skip_group(t, i) - 1;
		if (close >= x->end) {
			x->bad = 1;
			iv_top(r);
			return;
		}
		if (is_cast(f, i, close)) {
			int ptr = 0;
			size_t j;
			for (j = i + 1; j < close; j++)
				ptr |= is(t, j, "*");
			x->i = close + 1;
			x_unary(x, r);
			if (ptr)
				iv_top(r);
			return;
		}
		eval_at(f, i + 1, close, r);
		x->i = close + 1;
		return;
	}
	if (!is_ident(s)) {
		x->bad = 1;
		iv_top(r);
		return;
	}
	if (is(t, i + 1, "::") && i + 2 < x->end && is_ident(t->v[i + 2]) &&
	    (strcmp(s, "std") == 0 || strcmp(s, "cuda") == 0)) {
		x->i = i + 2;
		x_primary(x, r);
		return;
	}
	x->i = i + 1;
	if ((strcmp(s, "blockIdx") == 0 || strcmp(s, "threadIdx") == 0 ||
	    strcmp(s, "blockDim") == 0 || strcmp(s, "gridDim") == 0) &&
	    (d = dim_of(t, i)) >= 0) {
		x->i = i + 3;
		if (*s == 't') {
			p_const(&r->lo, 0);
			p_const(&r->hi, k->block[d] - 1);
		} else if (strcmp(s, "blockDim") == 0)
			iv_const(r, k->block[d]);
		else {
			struct fn g = k->kf != NULL ? *k->kf : *f;
			struct toks gt = { 0 };
			struct iv gv;
			struct poly one;
			tokenize(k->grid[d], &gt);
			g.t = &gt;
			g.a = 0;
			g.b = gt.n;
			g.nas = g.ng = 0;
			g.nm = 0;
			g.m = NULL;
			g.cm = 0;
			eval_at(&g, 0, gt.n, &gv);
			free(g.m);
			toks_free(&gt);
			if (*s == 'g')
				*r = gv;
			else {
				p_const(&r->lo, 0);
				p_const(&one, 1);
				p_add(&r->hi, &gv.hi, &one, -1);
			}
		}
		return;
	}
	if ((strcmp(s, "static_cast") == 0 || strcmp(s, "reinterpret_cast") == 0) &&
	    is(t, i + 1, "<")) {
		size_t j = i + 1, close2;
		int ptr = 0;
		while (j < x->end && !is(t, j, ">"))
			ptr |= is(t, j++, "*");
		if (!is(t, j + 1, "(")) {
			x->bad = 1;
			iv_top(r);
			return;
		}
		close2 = skip_group(t, j + 1) - 1;
		eval_at(f, j + 2, close2, r);
		if (ptr || *s == 'r')
			iv_top(r);
		x->i = close2 + 1;
		return;
	}
	if (strcmp(s, "sizeof") == 0 && is(t, i + 1, "(")) {
		const struct dtype *dt = find_dtype(t->v[i + 2]);
		close = skip_group(t, i + 1) - 1;
		x->i = close + 1;
		if (dt != NULL && close == i + 3)
			iv_const(r, dt->size);
		else
			iv_top(r);
		return;
	}
	if (is(t, i + 1, "(")) {
		close = skip_group(t, i + 1) - 1;
		x_call(x, s, i + 1, r);
		x->i = close + 1;
		return;
	}
	if (is(t, i + 1, "[")) {
		/* a value read from memory */
		x->i = skip_group(t, i + 1);
		if (!is(t, x->i, "[") && data_read(f, s, i, x->i)) {
			p_const(&r->lo, 0);
			p_const(&r->hi, DATA_HI);
			return;
		}
		while (is(t, x->i, "["))
			x->i = skip_group(t, x->i);
		iv_top(r);
		return;
	}
	if (is(t, i + 1, ".") || is(t, i + 1, "->")) {
		p = f->kernel ? fn_param(f, s) : -1;
		x->i = i + 3;
		if (p >= 0 && k->p[p].is_struct && is_ident(t->v[i + 2])) {
			char fld[160];
			int fi, a;
			for (fi = 0; fi < k->p[p].nf; fi++)
				if (strcmp(k->p[p].f[fi].name, t->v[i + 2]) == 0 &&
				    !k->p[p].f[fi].dt->is_float)
					break;
			if (fi < k->p[p].nf) {
				snprintf(fld, sizeof(fld), "%s.%s", s, t->v[i + 2]);
				a = atom_get(k->at, fld);
				if (a >= 0)
					k->at->a[a].ge1 = 1;
				p_atom(&r->lo, a);
				p_atom(&r->hi, a);
				return;
			}
		}
		iv_top(r);
		return;
	}
	if (fn_param(f, s) < 0 && const_get(&k->c, s, &v)) {
		iv_const(r, v);
		return;
	}
	if (strcmp(s, "warpSize") == 0) {
		iv_const(r, 32);
		return;
	}
	if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0) {
		iv_const(r, *s == 't');
		return;
	}
	var_value(f, s, i, r);
}

static void
x_postfix(struct ex *x, struct iv *r)
{
	x_primary(x, r);
	while (x->i < x->end && (is(x->f->t, x->i, "++") ||
	    is(x->f->t, x->i, "--")))
		x->i++;
}

static void
x_unary(struct ex *x, struct iv *r)
{
	const struct toks *t = x->f->t;
	struct iv z;

	if (x->i >= x->end) {
		x->bad = 1;
		iv_top(r);
		return;
	}
	if (is(t, x->i, "-") || is(t, x->i, "+")) {
		int neg = is(t, x->i, "-");
		x->i++;
		x_unary(x, r);
		if (neg) {
			iv_const(&z, 0);
			iv_add(r, &z, r, -1);
		}
		return;
	}
	if (is(t, x->i, "!")) {
		x->i++;
		x_unary(x, r);
		p_const(&r->lo, 0);
		p_const(&r->hi, 1);
		return;
	}
	if (is(t, x->i, "~") || is(t, x->i, "*") || is(t, x->i, "&")) {
		x->i++;
		x_unary(x, r);
		iv_top(r);
		return;
	}
	if (is(t, x->i, "++") || is(t, x->i, "--")) {
		x->i++;
		x_unary(x, r);
		iv_top(r);
		return;
	}
	x_postfix(x, r);
}

static void
x_mul(struct ex *x, struct iv *r)
{
	struct atoms *at = x->f->k->at;
	const struct toks *t = x->f->t;
	struct iv b;
	struct poly one, z;
	long long c;

	x_unary(x, r);
	p_const(&one, 1);
	p_const(&z, 0);
	while (x->i < x->end && (is(t, x->i, "*") || is(t, x->i, "/") ||
	    is(t, x->i, "%"))) {
		char op = *t->v[x->i++];
		x_unary(x, &b);
		if (op == '*')
			iv_mul(at, r, r, &b);
		else if (!p_ge(at, &b.lo, &one)) {
			/* a divisor that may be 0 or negative */
			iv_top(r);
		} else if (op == '/') {
			struct iv s;
			if (p_isconst(&b.lo, &c) && p_isconst(&b.hi, &c)) {
				p_div(at, &s.lo, &r->lo, &b.lo);
				p_div(at, &s.hi, &r->hi, &b.lo);
			} else if (iv_nonneg(at, r)) {
				p_const(&s.lo, 0);
				p_div(at, &s.hi, &r->hi, &b.lo);
			} else
				iv_top(&s);
			*r = s;
		} else {
			/* x % m is below m, and 0 or more for x >= 0 */
			struct poly h;
			p_add(&h, &b.hi, &one, -1);
			if (iv_nonneg(at, r)) {
				p_meet_hi(at, &r->hi, &h, &r->hi);
				p_const(&r->lo, 0);
			} else {
				r->hi = h;
				p_add(&r->lo, &z, &h, -1);
			}
		}
	}
}

static void
x_add(struct ex *x, struct iv *r)
{
	const struct toks *t = x->f->t;
	struct iv b;

	x_mul(x, r);
	while (x->i < x->end && (is(t, x->i, "+") || is(t, x->i, "-"))) {
		int sign = is(t, x->i, "+") ? 1 : -1;
		x->i++;
		x_mul(x, &b);
		iv_add(r, r, &b, sign);
	}
}

static void
x_shift(struct ex *x, struct iv *r)
{
	struct atoms *at = x->f->k->at;
	const struct toks *t = x->f->t;
	struct iv b, m;
	long long c;

	x_add(x, r);
	while (x->i < x->end && (is(t, x->i, "<<") || is(t, x->i, ">>"))) {
		int left = is(t, x->i, "<<");
		x->i++;
		x_add(x, &b);
		if (!p_isconst(&b.lo, &c) || !p_isconst(&b.hi, &c) || c < 0 ||
		    c > 40) {
			iv_top(r);
			continue;
		}
		iv_const(&m, 1LL << c);
		if (left)
			iv_mul(at, r, r, &m);
		else if (iv_nonneg(at, r)) {
			p_div(at, &r->lo, &r->lo, &m.lo);
			p_div(at, &r->hi, &r->hi, &m.lo);
		} else
			iv_top(r);
	}
}

/* Comparisons and logic give 0 or 1; & with a mask m >= 0 gives [0, m];
 * | and ^ of nonnegatives stay below their sum. */
static void
x_bits(struct ex *x, struct iv *r)
{
	struct atoms *at = x->f->k->at;
	const struct toks *t = x->f->t;
	static const char *const ops[] = { "<", ">", "<=", ">=", "==", "!=",
	    "&&", "||", "&", "|", "^", NULL };
	struct iv b;
	int k;

	x_shift(x, r);
	while (x->i < x->end) {
		for (k = 0; ops[k] != NULL; k++)
			if (is(t, x->i, ops[k]))
				break;
		if (ops[k] == NULL)
			break;
		x->i++;
		x_shift(x, &b);
		if (k < 8) {
			p_const(&r->lo, 0);
			p_const(&r->hi, 1);
		} else if (k == 8 && (iv_nonneg(at, r) || iv_nonneg(at, &b))) {
			if (iv_nonneg(at, r) && iv_nonneg(at, &b))
				p_meet_hi(at, &r->hi, &r->hi, &b.hi);
			else if (iv_nonneg(at, &b))
				r->hi = b.hi;
			p_const(&r->lo, 0);
		} else if (iv_nonneg(at, r) && iv_nonneg(at, &b)) {
			p_add(&r->hi, &r->hi, &b.hi, 1);
			p_const(&r->lo, 0);
		} else
			iv_top(r);
	}
}

static void
x_cond(struct ex *x, struct iv *r)
{
	struct atoms *at = x->f->k->at;
	const struct toks *t = x->f->t;
	struct iv b;

	/* a = b = E: the value of E */
	if (x->i + 1 < x->end && is_ident(t->v[x->i]) && is(t, x->i + 1, "=")) {
		x->i += 2;
		x_cond(x, r);
		return;
	}
	x_bits(x, r);
	if (x->i < x->end && is(t, x->i, "?")) {
		x->i++;
		x_cond(x, r);
		if (!is(t, x->i, ":")) {
			x->bad = 1;
			return;
		}
		x->i++;
		x_cond(x, &b);
		iv_hull(at, r, r, &b);
	}
}

/* ---- accesses of a buffer */

struct acc {
	struct poly n;		/* the count so far: largest hi + 1 */
	int any, unknown, below;
	size_t at;		/* first access without a bound */
	const struct toks *t;	/* the text at is in */
};

static void
acc_unknown(struct acc *a, const struct fn *f, size_t pos)
{
	if (!a->unknown) {
		a->at = pos;
		a->t = f->t;
	}
	a->unknown = 1;
}

static void
acc_add(struct fn *f, struct acc *a, const struct iv *r, size_t pos)
{
	struct atoms *at = f->k->at;
	struct poly c, one;

	if (r->hi.inf) {
		acc_unknown(a, f, pos);
		return;
	}
	if (!p_nonneg(at, &r->lo))
		a->below = 1;
	p_const(&one, 1);
	p_add(&c, &r->hi, &one, 1);
	p_loosen(at, &c);
	if (a->any)
		p_max(at, &a->n, &a->n, &c);
	else
		a->n = c;
	a->any = 1;
	if (a->n.inf)
		acc_unknown(a, f, pos);
}

/* Elements of the buffer one pointee of type [a, b) spans, for a buffer
 * of esz-byte elements; 0 when it does not span whole elements. */
static long long
cast_lanes(struct kern *k, const struct toks *t, size_t a, size_t b, int esz)
{
	static const struct { const char *name; int size; } vec[] = {
		{ "char", 1 }, { "uchar", 1 }, { "short", 2 }, { "ushort", 2 },
		{ "int", 4 }, { "uint", 4 }, { "float", 4 }, { "long", 8 },
		{ "ulong", 8 }, { "longlong", 8 }, { "ulonglong", 8 },
		{ "double", 8 }, { "half", 2 }, { "__half", 2 },
		{ "__nv_bfloat16", 2 }, { NULL, 0 }
	};
	json_t *inst = json_object_get(json_object_get(k->rec, "slice"),
	    "instance");
	char name[128] = "";
	const struct dtype *dt;
	size_t j;
	int size = 0, i;

	for (j = a; j < b; j++) {
		const char *s = t->v[j];
		json_t *bnd;
		if (!is_ident(s) || strcmp(s, "const") == 0 ||
		    strcmp(s, "volatile") == 0 || strcmp(s, "__restrict__") == 0)
			continue;
		bnd = json_object_get(inst, s);
		if (name[0] != '\0')
			strncat(name, " ", sizeof(name) - strlen(name) - 1);
		strncat(name, json_is_string(bnd) ? json_string_value(bnd) : s,
		    sizeof(name) - strlen(name) - 1);
	}
	if ((dt = find_dtype(name)) != NULL)
		size = dt->size;
	else {
		size_t l = strlen(name);
		if (l > 1 && isdigit((unsigned char)name[l - 1]))
			for (i = 0; vec[i].name != NULL; i++)
				if (strlen(vec[i].name) == l - 1 &&
				    strncmp(vec[i].name, name, l - 1) == 0)
					size = vec[i].size * (name[l - 1] - '0');
		if (strcmp(name, "half2") == 0 || strcmp(name, "__half2") == 0 ||
		    strcmp(name, "__nv_bfloat162") == 0)
			size = 4;
	}
	if (size == 0 || esz <= 0 || size % esz != 0)
		return 0;
	return size / esz;
}

static void buf_walk(struct fn *f, const char *name, size_t def,
    const struct iv *off, long long lanes, int esz, struct acc *a, int hd);

/* An access of lanes elements from off. */
static void
access_at(struct fn *f, struct acc *a, const struct iv *off, long long lanes,
    size_t pos)
{
	struct iv r = *off, w;

	p_const(&w.lo, 0);
	p_const(&w.hi, lanes - 1);
	iv_add(&r, &r, &w, 1);
	acc_add(f, a, &r, pos);
}

/* The buffer handed to argument argi of the call whose ( is at open. */
static void
pass_to(struct fn *f, size_t open, int argi, const struct iv *off,
    long long lanes, int esz, struct acc *a, int hd)
{
	static const char *const loads[] = { "__ldg", "__ldcg", "__ldca",
	    "__ldcs", "__ldlu", "__ldcv", "__stcg", "__stcs", "__stwb",
	    "__stwt", NULL };
	const struct toks *t = f->t;
	const char *name = open > 0 ? t->v[open - 1] : "";
	struct fn *h;
	size_t ends[MAX_PARAMS];
	int n, i;

	for (i = 0; loads[i] != NULL; i++)
		if (strcmp(name, loads[i]) == 0)
			break;
	if (loads[i] != NULL || strncmp(name, "atomic", 6) == 0) {
		access_at(f, a, off, lanes, open);
		return;
	}
	args_of(f, open, ends, MAX_PARAMS, &n);
	if (hd >= MAX_HELPER || lanes != 1 || !is_ident(name) ||
	    (h = find_helper(f->k, name, n)) == NULL) {
		acc_unknown(a, f, open);
		return;
	}
	if ((h->bind = calloc((size_t)(n ? n : 1), sizeof(*h->bind))) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	for (i = 0; i < n; i++)
		if (h->pptr[i])
			iv_top(&h->bind[i]);
		else
			eval_at(f, i ? ends[i - 1] + 1 : open + 1, ends[i],
			    &h->bind[i]);
	if (argi < h->np && h->pptr[argi])
		buf_walk(h, h->pn[argi], (size_t)-1, off, 1, esz, a, hd + 1);
	else {
		acc_unknown(a, f, open);
	}
	fn_free(h);
}

/* One use of the buffer's pointer at token i. */
static void
ptr_use(struct fn *f, size_t i, const struct iv *base, long long lanes,
    int esz, struct acc *a, int hd)
{
	const struct toks *t = f->t;
	struct atoms *at = f->k->at;
	static const char *const addstop[] = { "+", "-", ",", ";", ")", "]",
	    "?", ":", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "=", "+=",
	    "-=", NULL };
	struct iv off = *base, idx, sc;
	size_t s = i, e = i + 1, c;

	if (s > 0 && is(t, s - 1, "&") && unary_at(t, s - 1) && is(t, e, "[")) {
		c = skip_group(t, e) - 1;
		eval_at(f, e + 1, c, &idx);
		iv_const(&sc, lanes);
		iv_mul(at, &idx, &idx, &sc);
		iv_add(&off, &off, &idx, 1);
		s--;
		e = c + 1;
	}
	for (;;) {
		while (is(t, e, "+") || is(t, e, "-")) {
			int sign = is(t, e, "+") ? 1 : -1;
			size_t q = expr_end(t, e + 1, addstop);
			eval_at(f, e + 1, q, &idx);
			iv_const(&sc, lanes);
			iv_mul(at, &idx, &idx, &sc);
			iv_add(&off, &off, &idx, sign);
			e = q;
		}
		if (is(t, e, "[")) {
			c = skip_group(t, e) - 1;
			eval_at(f, e + 1, c, &idx);
			iv_const(&sc, lanes);
			iv_mul(at, &idx, &idx, &sc);
			iv_add(&off, &off, &idx, 1);
			access_at(f, a, &off, lanes, i);
			return;
		}
		if (s >= 2 && is(t, s - 1, "(") && is(t, e, ")")) {
			const char *fn = t->v[s - 2];
			if (is(t, s - 2, ">")) {
				/* reinterpret_cast<T *>(p) */
				size_t j = s - 2;
				while (j > 0 && !is(t, j, "<"))
					j--;
				if (j == 0 || !is_ident(t->v[j - 1]) ||
				    strstr(t->v[j - 1], "_cast") == NULL)
					break;
				lanes = cast_lanes(f->k, t, j + 1, s - 2, esz);
				if (lanes == 0)
					break;
				s = j - 1;
				e++;
				continue;
			}
			if (is_ident(fn) && !is_keyword(fn)) {
				pass_to(f, s - 1, 0, &off, lanes, esz, a, hd);
				return;
			}
			if (is(t, s - 2, "if") || is(t, s - 2, "while"))
				return;
			s--;
			e++;
			continue;
		}
		if (s >= 2 && is(t, s - 1, ")")) {
			/* (T *)p */
			size_t j = s - 1;
			int depth = 0, star = 0;
			while (j > 0) {
				if (is(t, j, ")"))
					depth++;
				else if (is(t, j, "(") && --depth == 0)
					break;
				star |= is(t, j, "*");
				j--;
			}
			if (!star || !is_cast(f, j, s - 1) ||
			    (lanes = cast_lanes(f->k, t, j + 1, s - 1, esz)) == 0)
				break;
			s = j;
			continue;
		}
		if ((is(t, s - 1, "(") || is(t, s - 1, ",")) &&
		    (is(t, e, ",") || is(t, e, ")"))) {
			size_t j = s - 1;
			int depth = 0, argi = 0;
			for (;; j--) {
				if (is(t, j, ")") || is(t, j, "]"))
					depth++;
				else if (is(t, j, "(") || is(t, j, "[")) {
					if (depth-- == 0)
						break;
				} else if (depth == 0 && is(t, j, ","))
					argi++;
				if (j <= f->a)
					break;
			}
			if (is(t, j, "(") && j > 0 && is_ident(t->v[j - 1])) {
				pass_to(f, j, argi, &off, lanes, esz, a, hd);
				return;
			}
			break;
		}
		if (is(t, s - 1, "*") && unary_at(t, s - 1)) {
			access_at(f, a, &off, lanes, i);
			return;
		}
		if (is(t, s - 1, "=") && s >= 3 && is_ident(t->v[s - 2]) &&
		    (is(t, s - 3, "*") || is(t, s - 3, "auto") ||
		    (is(t, s - 3, "__restrict__") && is(t, s - 4, "*"))) &&
		    (is(t, e, ";") || is(t, e, ","))) {
			/* T *q = p + off: q is the buffer from off */
			buf_walk(f, t->v[s - 2], s - 2, &off, lanes, esz, a, hd);
			return;
		}
		if (is(t, e, "==") || is(t, e, "!=") || is(t, s - 1, "==") ||
		    is(t, s - 1, "!=") || is(t, s - 1, "!"))
			return;
		break;
	}
	acc_unknown(a, f, i);
}

/* Whether pos is in a loop that may run more than once per thread. */
static int
in_loop(const struct fn *f, size_t pos)
{
	int i;

	for (i = 0; i < f->nl; i++)
		if (pos >= f->l[i].s && pos < f->l[i].e && !f->l[i].once)
			return 1;
	return 0;
}

/* Every access of the buffer that name points to in f, from off. */
static void
buf_walk(struct fn *f, const char *name, size_t def, const struct iv *off,
    long long lanes, int esz, struct acc *a, int hd)
{
	const struct toks *t = f->t;
	struct atoms *at = f->k->at;
	struct iv tot = *off, v, sc;
	struct poly z;
	size_t i;
	int j, x;

	if (f->k->depth > MAX_DEPTH) {
		a->unknown = 1;
		return;
	}
	f->k->depth++;
	/* p += off moves the buffer: every later access may be after it */
	p_const(&z, 0);
	for (j = 0; j < f->nas; j++) {
		struct asg *as = &f->as[j];
		if (strcmp(as->name, name) != 0 || as->pos == def)
			continue;
		if (as->kind == A_EQ && as->b > as->a + 2 &&
		    is(t, as->a, name) && is(t, as->a + 1, "+"))
			eval_at(f, as->a + 2, as->b, &v);
		else if (as->kind == A_INC && as->b > as->a)
			eval_at(f, as->a, as->b, &v);
		else if (as->kind == A_INC)
			iv_const(&v, 1);
		else {
			iv_top(&v);
			acc_unknown(a, f, as->pos);
		}
		if (in_loop(f, as->pos)) {
			acc_unknown(a, f, as->pos);
		}
		p_min(at, &v.lo, &v.lo, &z);
		p_max(at, &v.hi, &v.hi, &z);
		iv_const(&sc, lanes);
		iv_mul(at, &v, &v, &sc);
		iv_add(&tot, &tot, &v, 1);
	}
	for (i = f->a; i < f->b; i++) {
		int self = 0;
		if (!is(t, i, name) || is(t, i - 1, ".") || is(t, i - 1, "->") ||
		    is(t, i - 1, "::") || (is(t, i + 1, "[") && is(t, i + 2, "]")))
			continue;
		for (x = 0; x < f->nas; x++)
			if (strcmp(f->as[x].name, name) == 0 &&
			    (f->as[x].pos == i || (f->as[x].kind == A_EQ &&
			    i == f->as[x].a)))
				self = 1;
		if (!self)
			ptr_use(f, i, &tot, lanes, esz, a, hd);
	}
	f->k->depth--;
}

/* The count of buffer pi from its accesses: 2 when every access is
 * bounded (out), 1 when only some are, 0 when none. */
static int
bound_count(struct kern *k, const char *name, int esz, char *out, size_t cap,
    char *why, size_t wcap)
{
	struct acc a;
	struct iv z;

	memset(&a, 0, sizeof(a));
	iv_const(&z, 0);
	*why = '\0';
	if (k->kf == NULL)
		return 0;
	buf_walk(k->kf, name, (size_t)-1, &z, 1, esz, &a, 0);
	if (!a.any && !a.unknown)
		return 0;
	if (a.any)
		p_print(k->at, &a.n, out, cap);
	else
		copy(out, cap, "inf");
	if (strlen(out) + 1 >= cap)
		return 0;
	if (a.unknown) {
		char ctx[96];
		size_t s = a.at, e = a.at;
		const struct toks *t = a.t != NULL ? a.t : &k->t;
		while (s > 0 && s + 4 > a.at && !is(t, s - 1, ";") &&
		    !is(t, s - 1, "{") && !is(t, s - 1, "}"))
			s--;
		while (e < t->n && e < a.at + 8 && !is(t, e, ";"))
			e++;
		if (a.at < t->n) {
			join(t, s, e, ctx, sizeof(ctx));
			snprintf(why, wcap, "no bound for the access in \"%s\"",
			    ctx);
		} else
			snprintf(why, wcap, "an access without a bound");
		return 1;
	}
	if (a.below) {
		snprintf(why, wcap, "an access may fall below element 0");
		return 1;
	}
	return 2;
}

/* Buffer pi's count: from the bounds of every access where they all have
 * one, else the textual guess of buffer_count. */
static void
count_of(struct kern *k, int pi, const char *domain)
{
	struct param *p = &k->p[pi];
	char cnt[MAX_EXPR], why[256];
	int r;

	r = bound_count(k, p->name, p->dt != NULL ? p->dt->size : 1, cnt,
	    sizeof(cnt), why, sizeof(why));
	if (r == 2 && p->dt == NULL) {
		/* elements of a size kwrap does not know: bytes would be short */
		copy(p->count, sizeof(p->count), cnt);
		p->count_state = 1;
		mark_size_str(k, p->count);
		guess(k, "%s: count %s in elements of unknown size", p->name, cnt);
		return;
	}
	if (r == 2) {
		copy(p->count, sizeof(p->count), cnt);
		p->count_state = 2;
		mark_size_str(k, p->count);
		return;
	}
	buffer_count(k, pi, domain);
	if (p->count_state == 2) {
		/* the pattern matched but not every access has a bound */
		p->count_state = 1;
		guess(k, "%s: count %s: %s", p->name, p->count, why[0] != '\0' ?
		    why : "an access without a bound");
	}
}

/* Dynamic shared memory that the launch site does not give: the bytes
 * the kernel's accesses of its extern __shared__ array reach. */
static void
shared_of(struct kern *k)
{
	const struct toks *t = &k->t;
	char cnt[MAX_EXPR], why[256];
	const struct dtype *dt = NULL;
	size_t i, j;
	int r;

	if (k->shared_state == 2)
		goto out;
	for (i = 0; i + 3 < t->n; i++)
		if (is(t, i, "extern") && is(t, i + 1, "__shared__"))
			break;
	for (j = i + 2; j < t->n && !is(t, j, ";") && !is(t, j, "["); j++)
		if (find_dtype(t->v[j]) != NULL)
			dt = find_dtype(t->v[j]);
	if (j >= t->n || !is(t, j, "[") || !is_ident(t->v[j - 1]) || dt == NULL)
		goto out;
	r = bound_count(k, t->v[j - 1], dt->size, cnt, sizeof(cnt), why,
	    sizeof(why));
	if (r == 2) {
		char pc[MAX_EXPR];
		long long v;
		paren(cnt, pc, sizeof(pc));
		if (eval_str(cnt, &k->c, &v))
			snprintf(k->shared, sizeof(k->shared), "%lld",
			    v * dt->size);
		else
			bprintf(k->shared, sizeof(k->shared), "%s * %d", pc,
			    dt->size);
		mark_size_str(k, cnt);
		k->shared_state = 2;
		return;
	}
out:
	if (k->shared_state < 2)
		guess(k, "%s", k->shared_guess);
}

/* The text to analyse: the kernel's own, or for a kernel a macro defines,
 * the macro's body. */
static void
kernel_text(struct kern *k, const char *text)
{
	struct toks tt = { 0 };
	const char *p;

	if (text != NULL && strstr(text, "__global__") != NULL) {
		tokenize(text, &k->t);
		return;
	}
	tokenize(text != NULL ? text : "", &tt);
	if (tt.n > 0 && is_ident(tt.v[0]) && k->code != NULL) {
		char pat[128];
		snprintf(pat, sizeof(pat), "#define %s(", tt.v[0]);
		if ((p = strstr(k->code, pat)) != NULL) {
			struct k_buf sb = { 0 };
			const char *q = p + strlen(pat);
			while (*q != '\0' && *q != ')')
				q++;
			if (*q != '\0')
				q++;
			while (*q != '\0' && *q != '\n') {
				if (*q == '\\' && q[1] == '\n') {
					k_buf_add(&sb, "\n");
					q += 2;
					continue;
				}
				k_buf_addn(&sb, q++, 1);
			}
			tokenize(k_buf_str(&sb), &k->t);
			k_buf_free(&sb);
			guess(k, "kernel defined by macro %s: its body analysed",
			    tt.v[0]);
		}
	}
	toks_free(&tt);
}

static void
load_params(struct kern *k, json_t *scan, json_t *slice)
{
	json_t *params = json_object_get(scan, "params");
	json_t *instance = json_object_get(slice, "instance");
	json_t *writes = json_object_get(slice, "writes");
	json_t *reads = json_object_get(slice, "reads");
	json_t *prm;
	size_t i;

	json_array_foreach(params, i, prm) {
		struct param *p;
		const char *name = k_get_str(prm, "name");
		const char *type = k_get_str(prm, "type");
		const char *pointee = k_get_str(prm, "pointee_type");
		if (k->np >= MAX_PARAMS)
			break;
		p = &k->p[k->np++];
		memset(p, 0, sizeof(*p));
		if (name == NULL || *name == '\0')
			snprintf(p->name, sizeof(p->name), "arg%zu", i);
		else
			copy(p->name, sizeof(p->name), name);
		copy(p->spelled, sizeof(p->spelled), type);
		p->ptr = k_get_int(prm, "pointer_depth", 0) > 0;
		p->is_const = json_is_true(json_object_get(prm, "const"));
		base_type(p->ptr && pointee != NULL ? pointee :
		    type != NULL ? type : "int", instance, p->type,
		    sizeof(p->type));
		p->dt = find_dtype(p->type);
		if (p->ptr) {
			p->read = in_list(reads, p->name);
			p->written = in_list(writes, p->name);
		} else if (p->dt == NULL) {
			if (type_is_enum(k, p->type)) {
				p->is_enum = 1;
				p->dt = find_dtype("int");
			} else if (parse_struct(k, p)) {
				p->is_struct = 1;
			}
		}
		p->role = R_SCALAR;
	}
}

static void
infer_roles(struct kern *k, json_t *slice)
{
	int i, rd, wr;
	int have = json_is_array(json_object_get(slice, "writes"));

	for (i = 0; i < k->np; i++) {
		struct param *p = &k->p[i];
		if (!p->ptr)
			continue;
		if (p->dt == NULL) {
			guess(k, "%s: element type %s unknown, bytes assumed",
			    p->name, p->type);
			k->roles_low = 1;
		}
		text_access(k, i, &rd, &wr);
		if (!have || (!p->written && wr)) {
			p->written = wr;
			p->read = p->read || rd;
		}
		if (p->is_const && !p->written)
			p->role = R_IN;
		else if (p->written && (p->read || rd))
			p->role = rd || !have ? R_INOUT : R_OUT;
		else if (p->written)
			p->role = R_OUT;
		else if (p->read) {
			p->role = R_INOUT;
			k->roles_low = 1;
			guess(k, "%s: not const and never seen written, taken "
			    "as inout", p->name);
		} else {
			p->role = R_INOUT;
			k->roles_low = 1;
			guess(k, "%s: no access seen, taken as inout", p->name);
		}
		/* x[idx[i]]: idx holds indices into x */
	}
	for (i = 0; i < k->np; i++) {
		size_t j;
		if (!k->p[i].ptr)
			continue;
		for (j = 0; j + 2 < k->t.n; j++)
			if (is(&k->t, j + 1, "[") && is(&k->t, j + 2, k->p[i].name) &&
			    param_index(k, k->t.v[j]) >= 0 &&
			    k->p[i].dt != NULL && !k->p[i].dt->is_float)
				copy(k->p[i].index_of, sizeof(k->p[i].index_of),
				    k->t.v[j]);
	}
}

/* ------------------------------------------------------------ spec */

static const char *const case_names[] = { "typical", "smallest",
	"one_block", "one_warp", "non_multiple", "large", "zeros", "negatives",
	"large_magnitude" };
#define NCASES 9

static json_t *
fill_json(const struct kern *k, const struct param *p, int c)
{
	const struct dtype *dt = p->dt;
	int fl = dt == NULL || dt->is_float;
	double big;

	if (p->vals)
		return fl ? json_pack("{s:s,s:f,s:f}", "kind", "uniform", "lo",
		    0.0, "hi", (double)DATA_HI) : json_pack("{s:s,s:i,s:i}",
		    "kind", "int", "lo", 0, "hi", DATA_HI);
	if (p->index_of[0] != '\0')
		return json_pack("{s:s,s:s}", "kind", "indices", "of",
		    p->index_of);
	(void)k;
	if (dt != NULL && strcmp(dt->dtype, "bool") == 0)
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
		big = dt == NULL ? 1e30 : strcmp(dt->dtype, "float64") == 0 ?
		    1e300 : dt->size == 2 ? (strcmp(dt->dtype, "float16") == 0 ?
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

	for (i = 0; i + 2 < t->n; i++)
		if (is(t, i, "enum") && (is(t, i + 1, type) ||
		    is(t, i + 2, type)))
			break;
	for (j = i; j < t->n && !is(t, j, "{"); j++)
		;
	for (j++; j < t->n && !is(t, j, "}") && n < max; j++)
		if (is_ident(t->v[j]) && (is(t, j + 1, ",") || is(t, j + 1, "}") ||
		    is(t, j + 1, "=")) && const_get(&k->c, t->v[j], &v))
			out[n++] = v;
	return n;
}

static json_t *
value_json(struct kern *k, const char *name, const char *type,
    const struct dtype *dt, int is_enum, int nth, int c)
{
	static const double typical[] = { 1.5, -0.75, 2.25, 0.5 };
	long long ev[64];
	int n;

	if (is_enum && (n = enum_values(k, type, ev, 64)) > 0)
		return json_integer(ev[c % n]);
	if (dt == NULL)
		return json_integer(c == 6 ? 0 : 1);
	if (strcmp(dt->dtype, "bool") == 0)
		return json_boolean(c != 6);
	if (dt->is_float) {
		double v = typical[nth % 4];
		if (strstr(name, "lo") == name || strstr(name, "min") == name)
			v = -1.0;
		else if (strstr(name, "hi") == name ||
		    strstr(name, "max") == name)
			v = 1.0;
		if (c == 6)
			v = 0;
		else if (c == 7)
			v = -fabs(v) - 1.0;
		else if (c == 8)
			v = v < 0 ? -1e30 : 1e30;
		return json_real(v);
	}
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
	const struct dtype *dt = k->p[pi].dt;
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
	if (strcmp(dt->dtype, "bool") == 0)
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

static long long
size_value(const struct kern *k, int main, int c, int nsize, int blockgrid)
{
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
		static const long long s[] = { 64, 1, 64, 32, 67, 256 };
		return c < 6 ? s[c] : s[0];
	}
}

static json_t *
build_cases(struct kern *k)
{
	json_t *cases = json_array();
	int c, i, f, nsize = 0, mainp = -1, mainf = -1, nth, blockgrid;
	int has_signed = 0, has_float = 0;

	/* the main size: the first one the grid's x expression names */
	for (i = 0; i < k->np; i++) {
		struct param *p = &k->p[i];
		if (p->ptr) {
			if (p->role != R_OUT && p->dt != NULL) {
				has_signed |= p->dt->is_signed;
				has_float |= p->dt->is_float;
			}
			continue;
		}
		if (p->is_struct) {
			for (f = 0; f < p->nf; f++)
				if (p->f[f].size_use) {
					nsize++;
					if (mainp < 0) {
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
		json_t *sc = json_object(), *fills = json_object(), *cs, *lit;
		if (c == 7 && !has_signed)
			continue;
		if (c == 8 && !has_float && !has_signed)
			continue;
		nth = 0;
		for (i = 0; i < k->np; i++) {
			struct param *p = &k->p[i];
			char key[160];
			if (p->ptr) {
				if (p->role != R_OUT && c >= 6)
					json_object_set_new(fills, p->name,
					    fill_json(k, p, c));
				continue;
			}
			if (p->is_struct) {
				for (f = 0; f < p->nf; f++) {
					snprintf(key, sizeof(key), "%s.%s",
					    p->name, p->f[f].name);
					json_object_set_new(sc, key,
					    p->f[f].size_use ?
					    json_integer(size_value(k, i == mainp &&
					    f == mainf, c, nsize, 0)) :
					    value_json(k, p->f[f].name,
					    p->f[f].type, p->f[f].dt, 0, nth++, c));
				}
				continue;
			}
			if (!p->size_use && c == 0 &&
			    (lit = launch_literal(k, i)) != NULL) {
				json_object_set_new(sc, p->name, lit);
				nth++;
				continue;
			}
			json_object_set_new(sc, p->name, p->size_use ?
			    json_integer(size_value(k, i == mainp, c, nsize,
			    blockgrid && i == mainp)) :
			    value_json(k, p->name, p->type, p->dt, p->is_enum,
			    nth++, c));
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

static json_t *
build_spec(struct kern *k, const char *symbol)
{
	json_t *params = json_array(), *spec, *conf;
	int i, f, counts_low = 0, cases_low = 0;

	for (i = 0; i < k->np; i++) {
		struct param *p = &k->p[i];
		json_t *o = json_pack("{s:s,s:s}", "name", p->name, "role",
		    role_names[p->role]);
		json_object_set_new(o, "type", json_string(p->type));
		json_object_set_new(o, "dtype", json_string(p->dt != NULL ?
		    p->dt->dtype : p->is_struct ? "struct" : "bytes"));
		if (p->ptr) {
			json_object_set_new(o, "element_size",
			    json_integer(p->dt != NULL ? p->dt->size : 1));
			json_object_set_new(o, "count", json_string(p->count));
			json_object_set_new(o, "fill", p->role == R_OUT ?
			    json_pack("{s:s}", "kind", "sentinel") :
			    fill_json(k, p, 0));
			if (p->count_state < 2)
				counts_low = 1;
		} else if (p->is_struct) {
			json_t *fs = json_array();
			for (f = 0; f < p->nf; f++)
				json_array_append_new(fs, json_pack(
				    "{s:s,s:s,s:s,s:i,s:s}", "name", p->f[f].name,
				    "type", p->f[f].type, "dtype",
				    p->f[f].dt->dtype, "offset", p->f[f].offset,
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
	{
		int launch_low = k->grid_state < 2 || k->shared_state < 2;
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

/* ------------------------------------------------------------ case sizes */

/*
 * Case sizes as the counts see them: a case binds seq like a length, but a
 * buffer of seq * seq elements grows as its square.  So each case's counts,
 * grid and block are evaluated (64 bits, overflow is a failure) and its
 * size scalars scaled down together until every buffer fits the case's
 * budget, then raised until every grid dimension is at least 1.
 */
#define CAP_ELEMS (1LL << 20)		/* per buffer, every case but large */
#define CAP_BYTES (64LL << 20)		/* all buffers of one case */
#define LARGE_ELEMS (1LL << 24)
#define LARGE_BYTES (512LL << 20)
#define MAX_SIZES (MAX_PARAMS + MAX_FIELDS)
#define NFIT (MAX_PARAMS + 6)		/* buffer counts, grid, block */

struct fit {
	struct toks e[NFIT];
	int ne, nb;			/* expressions; the first nb are counts */
	int esz[MAX_PARAMS];		/* element size of each buffer */
	const struct consts *c;
	struct consts *bind;
	char key[MAX_SIZES][160];	/* the case's size scalars */
	long long base[MAX_SIZES], val[MAX_SIZES];
	int sized[MAX_SIZES];		/* 0: a value, bound as it is */
	int nk;
	long long cap_elems, cap_bytes;
	int one_block;
};

enum { FIT_OK = 0, FIT_BIG = 1, FIT_ZERO = 2 };	/* bits */

/* Evaluate expression n for the current values: 1 and *v, 0 when it
 * names what is not known, -1 when it overflows. */
static int
fit_eval(struct fit *f, int n, long long *v)
{
	struct ev e = { &f->e[n], 0, f->e[n].n, f->c, 1, f->bind, 0 };
	int i;

	f->bind->n = 0;
	for (i = 0; i < f->nk; i++)
		const_set(f->bind, f->key[i], f->val[i]);
	if (f->e[n].n == 0)
		return 0;
	*v = ev_expr(&e);
	if (e.ok && e.i == e.end)
		return 1;
	return e.ovf ? -1 : 0;
}

/* Whether the current values fit: FIT_BIG when a buffer or the grid is
 * over its limit (or one_block and the grid is more than one block), or
 * FIT_ZERO when a grid or block dimension is below 1, or both. */
static int
fit_check(struct fit *f, int one_block)
{
	long long v, bytes = 0, threads = 1;
	int n, r, zero = 0, big = 0;

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
		} else {
			if (v < 1)
				zero = 1;
			else
				threads *= v > 1024 ? 1025 : v;
		}
	}
	return (big || threads > 1024 ? FIT_BIG : 0) | (zero ? FIT_ZERO : 0);
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
	}
}

/* Size values raised to at least t each. */
static void
fit_raise(struct fit *f, const long long *from, long long t)
{
	int i;

	for (i = 0; i < f->nk; i++)
		f->val[i] = from[i] > t || !f->sized[i] ? from[i] : t;
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
	long long den = 1, num, from[MAX_SIZES], lo, hi, mid;
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
	memcpy(from, f->val, sizeof(from));
	for (hi = 2; hi <= (1LL << 31); hi *= 2) {
		fit_raise(f, from, hi);
		if (!((r = fit_check(f, 0)) & FIT_ZERO))
			break;
	}
	if (r & FIT_ZERO)
		return 0;
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
	if (fit_check(f, 0) != FIT_OK && guesses != NULL)
		json_array_append_new(guesses, json_sprintf("case %s: sizes "
		    "that give every grid dimension a block are over the limits",
		    name));
	return 1;
}

/* Fit every case of spec to its budget: typical and the others up to
 * CAP_ELEMS elements a buffer and CAP_BYTES in all, large up to
 * LARGE_ELEMS and LARGE_BYTES, one_block to one block where the sizes
 * allow; a case no sizes make launchable is dropped and said so. */
static void
fit_cases(json_t *spec, const struct consts *c)
{
	json_t *params = json_object_get(spec, "params");
	json_t *launch = json_object_get(spec, "launch");
	json_t *cases = json_object_get(spec, "cases");
	json_t *guesses = json_object_get(json_object_get(spec, "confidence"),
	    "guesses");
	json_t *prm, *cs, *fv, *dims[2];
	struct fit *f;
	size_t i, j, d, ci;
	int n;
	char text[64];

	if (!json_is_array(params) || !json_is_array(cases))
		return;
	if ((f = calloc(1, sizeof(*f))) == NULL ||
	    (f->bind = calloc(1, sizeof(*f->bind))) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	if (!json_is_array(guesses))
		guesses = NULL;
	f->c = c;
	json_array_foreach(params, i, prm) {
		json_t *cnt = json_object_get(prm, "count");
		const char *role = k_get_str(prm, "role");
		if (role == NULL || strcmp(role, "scalar") == 0 ||
		    f->nb >= MAX_PARAMS)
			continue;
		if (json_is_integer(cnt))
			snprintf(text, sizeof(text), "%lld",
			    (long long)json_integer_value(cnt));
		tokenize(json_is_string(cnt) ? json_string_value(cnt) :
		    json_is_integer(cnt) ? text : "1", &f->e[f->nb]);
		f->esz[f->nb++] = (int)k_get_int(prm, "element_size", 1);
	}
	f->ne = f->nb;
	dims[0] = json_object_get(launch, "grid");
	dims[1] = json_object_get(launch, "block");
	for (n = 0; n < 2; n++)
		for (d = 0; d < 3; d++) {
			json_t *e = json_array_get(dims[n], d);
			if (json_is_integer(e))
				snprintf(text, sizeof(text), "%lld",
				    (long long)json_integer_value(e));
			tokenize(json_is_string(e) ? json_string_value(e) :
			    json_is_integer(e) ? text : "1", &f->e[f->ne++]);
		}
	for (ci = 0; ci < json_array_size(cases);) {
		const char *name = k_get_str(cs = json_array_get(cases, ci),
		    "name");
		json_t *sc = json_object_get(cs, "scalars");
		const char *key;
		json_t *v;
		if (name == NULL)
			name = "?";
		f->nk = 0;
		/* the size scalars: size parameters and fields of the case;
		 * the other integer scalars are bound as they are */
		json_object_foreach(sc, key, v) {
			int size = 0;
			if (!json_is_integer(v) || f->nk >= MAX_SIZES)
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
			copy(f->key[f->nk], sizeof(f->key[0]), key);
			f->base[f->nk] = f->val[f->nk] = json_integer_value(v);
			if (size && f->base[f->nk] < 1)
				f->base[f->nk] = 1;
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
			continue;
		}
		for (n = 0; n < f->nk; n++)
			if (f->sized[n] && f->val[n] !=
			    json_integer_value(json_object_get(sc, f->key[n])))
				json_object_set_new(sc, f->key[n],
				    json_integer(f->val[n]));
		ci++;
	}
	for (n = 0; n < f->ne; n++)
		toks_free(&f->e[n]);
	free(f->bind);
	free(f);
}

/* ------------------------------------------------------------ harness */

extern const char kwrap_harness_text[];

static const char *
host_type(const char *dtype)
{
	size_t i;

	for (i = 0; dtypes[i].c != NULL; i++)
		if (strcmp(dtypes[i].dtype, dtype) == 0)
			return dtypes[i].host;
	return "int32_t";
}

static int
dtype_size(const char *dtype)
{
	size_t i;

	for (i = 0; dtypes[i].c != NULL; i++)
		if (strcmp(dtypes[i].dtype, dtype) == 0)
			return dtypes[i].size;
	return 1;
}

static const char *
dtype_enum(const char *dtype)
{
	static const char *const map[][2] = { { "float32", "KW_F32" },
	    { "float64", "KW_F64" }, { "float16", "KW_F16" },
	    { "bfloat16", "KW_BF16" }, { "int8", "KW_I8" }, { "uint8", "KW_U8" },
	    { "int16", "KW_I16" }, { "uint16", "KW_U16" },
	    { "int32", "KW_I32" }, { "uint32", "KW_U32" },
	    { "int64", "KW_I64" }, { "uint64", "KW_U64" },
	    { "bool", "KW_BOOL" } };
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(map[i][0], dtype) == 0)
			return map[i][1];
	return "KW_U8";
}

/* A C++ literal for a JSON value stored as dtype. */
static void
literal(struct k_buf *b, json_t *v, const char *dtype)
{
	double d = 0;
	const char *s;

	if (json_is_string(v)) {
		s = json_string_value(v);
		d = strcmp(s, "inf") == 0 ? INFINITY : strcmp(s, "-inf") == 0 ?
		    -INFINITY : strcmp(s, "nan") == 0 ? NAN : atof(s);
	} else if (json_is_boolean(v))
		d = json_is_true(v);
	else
		d = json_number_value(v);
	if (strcmp(dtype, "float16") == 0 || strcmp(dtype, "bfloat16") == 0) {
		k_buf_printf(b, "%s((float)%s)", strcmp(dtype, "float16") == 0 ?
		    "kw_f2h" : "kw_f2bf", isinf(d) ? (d > 0 ? "INFINITY" :
		    "-INFINITY") : "0");
		if (!isinf(d)) {
			b->n -= 2;
			k_buf_printf(b, "(%.17g))", d);
		}
		return;
	}
	if (isnan(d))
		k_buf_printf(b, "(%s)NAN", host_type(dtype));
	else if (isinf(d))
		k_buf_printf(b, "(%s)%sINFINITY", host_type(dtype), d < 0 ? "-" : "");
	else if (json_is_integer(v))
		k_buf_printf(b, "(%s)%lldLL", host_type(dtype),
		    (long long)json_integer_value(v));
	else
		k_buf_printf(b, "(%s)%.17g", host_type(dtype), d);
}

static void
fill_struct(struct k_buf *b, json_t *fill, json_t *params)
{
	const char *kind = k_get_str(fill, "kind");
	static const char *const kinds[] = { "uniform", "normal", "int",
	    "constant", "sorted", "indices" };
	int k = 0, of = -1, i;
	double a = -1, hi = 1;
	json_t *prm;
	size_t j, nb = 0;

	for (i = 0; kind != NULL && i < 6; i++)
		if (strcmp(kind, kinds[i]) == 0)
			k = i;
	if (json_object_get(fill, "lo"))
		a = json_number_value(json_object_get(fill, "lo"));
	if (json_object_get(fill, "hi"))
		hi = json_number_value(json_object_get(fill, "hi"));
	if (json_object_get(fill, "mean"))
		a = json_number_value(json_object_get(fill, "mean"));
	if (json_object_get(fill, "stddev"))
		hi = json_number_value(json_object_get(fill, "stddev"));
	if (k == 3)
		a = json_number_value(json_object_get(fill, "value"));
	if (k == 5)
		json_array_foreach(params, j, prm) {
			if (strcmp(k_get_str(prm, "role") ? k_get_str(prm, "role") :
			    "", "scalar") == 0)
				continue;
			if (k_get_str(fill, "of") != NULL && k_get_str(prm, "name") &&
			    strcmp(k_get_str(prm, "name"), k_get_str(fill, "of")) == 0)
				of = (int)nb;
			nb++;
		}
	k_buf_printf(b, "{%d, %.17g, %.17g, %d}", k, a, hi, of);
}

/* Append a C string literal holding s. */
static void
c_string(struct k_buf *b, const char *s)
{
	k_buf_add(b, "\"");
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			k_buf_add(b, "\\");
		if (*s == '\n')
			k_buf_add(b, "\\n");
		else {
			k_buf_addn(b, s, 1);
		}
	}
	k_buf_add(b, "\"");
}

/* The harness's code for expression e (a string or an integer) named
 * what: the value in checked 64-bit arithmetic, each scalar parameter (or
 * struct field) it names converted to kw_n first. */
static void
harness_expr(struct k_buf *b, json_t *e, json_t *params, const char *what)
{
	struct toks t = { 0 }, out = { 0 };
	char num[32], cell[160], text[MAX_EXPR];
	const char *src = "1";
	size_t i, j;
	json_t *prm;

	if (json_is_string(e))
		src = json_string_value(e);
	else if (json_is_integer(e)) {
		snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(e));
		src = num;
	}
	tokenize(src, &t);
	for (i = 0; i < t.n; i++) {
		int scalar = 0, fields = 0;
		/* casts go: kw_n converts to no integer type */
		if (is(&t, i, "(") && i + 2 < t.n && find_dtype(t.v[i + 1]) &&
		    is(&t, i + 2, ")")) {
			i += 2;
			continue;
		}
		if (is(&t, i, "(") && i + 3 < t.n && find_dtype(t.v[i + 1]) &&
		    find_dtype(t.v[i + 2]) && is(&t, i + 3, ")")) {
			i += 3;
			continue;
		}
		if (is_ident(t.v[i]) && !is(&t, i - 1, ".") && !is(&t, i - 1, "->"))
			json_array_foreach(params, j, prm)
				if (k_get_str(prm, "name") != NULL &&
				    strcmp(k_get_str(prm, "name"), t.v[i]) == 0 &&
				    k_get_str(prm, "role") != NULL &&
				    strcmp(k_get_str(prm, "role"), "scalar") == 0) {
					scalar = 1;
					fields = json_object_get(prm, "fields") != NULL;
				}
		if (scalar && fields && is(&t, i + 1, ".") && i + 2 < t.n) {
			snprintf(cell, sizeof(cell), "kw_n(%s.%s)", t.v[i],
			    t.v[i + 2]);
			i += 2;
		} else if (scalar && !fields)
			snprintf(cell, sizeof(cell), "kw_n(%s)", t.v[i]);
		else
			copy(cell, sizeof(cell), t.v[i]);
		tok_push(&out, cell, strlen(cell));
	}
	join(&out, 0, out.n, text, sizeof(text));
	k_buf_printf(b, "kw_value(kw_n(%s), ", out.n ? text : "1");
	c_string(b, what);
	k_buf_add(b, ", ");
	c_string(b, src);
	k_buf_add(b, ")");
	toks_free(&out);
	toks_free(&t);
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
		const struct dtype *dt;
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
			if (type[0] != '\0')
				strncat(type, " ", sizeof(type) - strlen(type) - 1);
			strncat(type, t->v[j], sizeof(type) - strlen(type) - 1);
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
		if ((dt = find_dtype(type)) == NULL || !ok) {
			guess(k, "__constant__ %s %s: %s, not filled", type,
			    t->v[nm], dt == NULL ? "a type kwrap cannot fill" :
			    "dimensions not constant");
			continue;
		}
		snprintf(cnt, sizeof(cnt), "%lld", total);
		json_array_append_new(out, json_pack(
		    "{s:s,s:s,s:s,s:i,s:s,s:o}", "name", t->v[nm], "type", type,
		    "dtype", dt->dtype, "element_size", dt->size, "count", cnt,
		    "fill", dt->is_float ? json_pack("{s:s,s:f,s:f}", "kind",
		    "uniform", "lo", -1.0, "hi", 1.0) : json_pack(
		    "{s:s,s:i,s:i}", "kind", "int", "lo", 0, "hi", 100)));
	}
	return out;
}

/* Whether C source code defines a function fn: its name, then a
 * parenthesised parameter list, then a body. */
static int
defines_function(const char *code, const char *fn)
{
	struct toks t = { 0 };
	size_t i, e;
	int found = 0;

	tokenize(code, &t);
	for (i = 0; i + 1 < t.n && !found; i++) {
		if (!is(&t, i, fn) || !is(&t, i + 1, "(") ||
		    (i > 0 && (is(&t, i - 1, ".") || is(&t, i - 1, "->"))))
			continue;
		e = skip_group(&t, i + 1);
		found = e < t.n && is(&t, e, "{");
	}
	toks_free(&t);
	return found;
}

/* Why spec's kernel cannot be given a CPU reference in its harness, or
 * NULL when it can: the reference is C, which has no half types, and its
 * signature cannot name kwrap's struct stand-ins. */
const char *
kw_oracle_unsupported(json_t *spec)
{
	json_t *params = json_object_get(spec, "params"), *prm;
	size_t i;

	if (!json_is_array(params))
		return "the spec has no parameters";
	if (json_array_size(json_object_get(spec, "globals")) > 0)
		return "the kernel reads __constant__ memory, which the CPU "
		    "reference is not handed";
	json_array_foreach(params, i, prm) {
		const char *dt = k_get_str(prm, "dtype");
		if (json_object_get(prm, "fields") != NULL)
			return "a parameter is a struct passed by value";
		if (dt == NULL)
			return "a parameter has no known element type";
		if (strcmp(dt, "float16") == 0 || strcmp(dt, "bfloat16") == 0)
			return "a parameter is float16 or bfloat16, which C "
			    "has no type for";
	}
	return NULL;
}

/* The call of the CPU reference fn inside the generated main: buffers as
 * pointers into their host copies, scalars by value. */
static void
oracle_call(struct k_buf *b, json_t *params, const char *fn)
{
	json_t *prm;
	size_t i, nb = 0;

	k_buf_printf(b, "\tstd::function<void(kw_buf *)> kw_oracle_fn = "
	    "[&](kw_buf *kb) {\n\t\t(void)kb;\n\t\t%s(", fn);
	json_array_foreach(params, i, prm) {
		const char *role = k_get_str(prm, "role");
		if (i > 0)
			k_buf_add(b, ", ");
		if (role != NULL && strcmp(role, "scalar") != 0)
			k_buf_printf(b, "kw_anyptr{kb[%zu].host.data()}", nb++);
		else
			k_buf_add(b, k_get_str(prm, "name"));
	}
	k_buf_add(b, ");\n\t};\n");
}

/* Generate the harness for spec, in dialect; returns a malloc'd string,
 * NULL with *why set when the spec cannot give one.  oracle: C source of
 * a CPU reference named oracle_fn, compiled in for --oracle, or NULL. */
static char *
gen_harness(json_t *spec, const char *dialect, const char *id,
    const char *oracle, const char *oracle_fn, const char **why)
{
	struct k_buf b = { 0 };
	json_t *params = json_object_get(spec, "params");
	json_t *cases = json_object_get(spec, "cases");
	json_t *launch = json_object_get(spec, "launch");
	json_t *globals = json_object_get(spec, "globals");
	json_t *prm, *cs, *v;
	size_t i, j, c, nb = 0, nc = json_array_size(cases);
	const char *key;

	if (!json_is_array(params) || !json_is_object(launch) || nc == 0) {
		*why = "spec lacks params, launch or cases";
		return NULL;
	}
	k_buf_printf(&b, "// kwrap harness for %s\n#define KW_HIP %d\n", id,
	    strcmp(dialect, "hip") == 0);
	k_buf_add(&b, kwrap_harness_text);
	if (oracle != NULL) {
		/* C compiled as C++: restrict is spelled differently there */
		k_buf_add(&b, "\n// the CPU reference (wrap.reference_cpu)\n"
		    "#define restrict __restrict__\n");
		k_buf_add(&b, oracle);
		k_buf_add(&b, "\n#undef restrict\n");
	}
	k_buf_printf(&b, "\n#define KW_HAS_ORACLE %d\n", oracle != NULL);
	k_buf_printf(&b, "static const int kw_ncases = %zu;\n", nc);
	k_buf_add(&b, "static const unsigned long long kw_seeds[] = {");
	json_array_foreach(cases, c, cs)
		k_buf_printf(&b, "%s%lluULL", c ? ", " : " ", (unsigned long long)
		    json_integer_value(json_object_get(cs, "seed")));
	k_buf_add(&b, " };\nstatic const char *const kw_scalars_json[] = {\n");
	json_array_foreach(cases, c, cs) {
		char *js = json_dumps(json_object_get(cs, "scalars"),
		    JSON_COMPACT | JSON_ENSURE_ASCII);
		const char *p;
		k_buf_add(&b, "\t\"");
		for (p = js != NULL ? js : "{}"; *p != '\0'; p++) {
			if (*p == '"' || *p == '\\')
				k_buf_add(&b, "\\");
			k_buf_addn(&b, p, 1);
		}
		k_buf_add(&b, "\",\n");
		free(js);
	}
	k_buf_add(&b, "};\n");
	json_array_foreach(params, i, prm)
		if (strcmp(k_get_str(prm, "role") ? k_get_str(prm, "role") : "",
		    "scalar") != 0)
			nb++;
	nb += json_array_size(globals);
	k_buf_printf(&b, "#define KW_NB %zu\n", nb ? nb : 1);
	k_buf_add(&b, "static const kw_fill kw_fills[][KW_NB] = {\n");
	json_array_foreach(cases, c, cs) {
		json_t *fills = json_object_get(cs, "fills");
		k_buf_add(&b, "\t{ ");
		json_array_foreach(params, i, prm) {
			const char *name = k_get_str(prm, "name");
			json_t *f;
			if (strcmp(k_get_str(prm, "role") ? k_get_str(prm, "role") :
			    "", "scalar") == 0)
				continue;
			f = name != NULL ? json_object_get(fills, name) : NULL;
			fill_struct(&b, f != NULL ? f : json_object_get(prm, "fill"),
			    params);
			k_buf_add(&b, ", ");
		}
		json_array_foreach(globals, i, prm) {
			const char *name = k_get_str(prm, "name");
			json_t *f = name != NULL ? json_object_get(fills, name) :
			    NULL;
			fill_struct(&b, f != NULL ? f : json_object_get(prm, "fill"),
			    params);
			k_buf_add(&b, ", ");
		}
		if (nb == 0)
			k_buf_add(&b, "{0, 0, 0, -1}");
		k_buf_add(&b, "},\n");
	}
	k_buf_add(&b, "};\n\n");
	k_buf_add(&b,
	    "static int kw_reps = 0, kw_oracle = 0;\n\n"
	    "// one case: its scalars, buffers and launch, then kw_run\n"
	    "static int kw_case_main(const char **kw_pos, int kw_case)\n{\n"
	    "\tkw_overflow = 0;\n");
	/* scalars */
	json_array_foreach(params, i, prm) {
		const char *name = k_get_str(prm, "name");
		const char *dt = k_get_str(prm, "dtype");
		json_t *fields = json_object_get(prm, "fields");
		if (name == NULL || strcmp(k_get_str(prm, "role") ?
		    k_get_str(prm, "role") : "", "scalar") != 0)
			continue;
		if (json_is_array(fields)) {
			k_buf_printf(&b, "\tstruct kw_struct_%s {", name);
			json_array_foreach(fields, j, v)
				k_buf_printf(&b, " %s %s;", host_type(k_get_str(v,
				    "dtype") ? k_get_str(v, "dtype") : ""),
				    k_get_str(v, "name"));
			k_buf_printf(&b, " } %s;\n\tmemset(&%s, 0, sizeof(%s));\n",
			    name, name, name);
		} else
			k_buf_printf(&b, "\t%s %s = 0;\n", host_type(dt ? dt : ""),
			    name);
	}
	k_buf_add(&b, "\tswitch (kw_case) {\n");
	json_array_foreach(cases, c, cs) {
		json_t *sc = json_object_get(cs, "scalars");
		k_buf_printf(&b, "\tcase %zu:\n", c);
		json_object_foreach(sc, key, v) {
			const char *dt = "int32";
			char base[128];
			copy(base, sizeof(base), key);
			if (strchr(base, '.') != NULL)
				*strchr(base, '.') = '\0';
			json_array_foreach(params, i, prm) {
				json_t *fields = json_object_get(prm, "fields");
				if (k_get_str(prm, "name") == NULL ||
				    strcmp(k_get_str(prm, "name"), base) != 0)
					continue;
				if (json_is_array(fields)) {
					json_t *fv;
					json_array_foreach(fields, j, fv)
						if (strcmp(k_get_str(fv, "name"),
						    key + strlen(base) + 1) == 0)
							dt = k_get_str(fv, "dtype");
				} else if (k_get_str(prm, "dtype") != NULL)
					dt = k_get_str(prm, "dtype");
			}
			k_buf_printf(&b, "\t\t%s = ", key);
			literal(&b, v, dt);
			k_buf_add(&b, ";\n");
		}
		k_buf_add(&b, "\t\tbreak;\n");
	}
	k_buf_add(&b, "\t}\n\n\tkw_buf kw_b[KW_NB]{};\n\tint kw_nb = 0;\n");
	json_array_foreach(params, i, prm) {
		const char *role = k_get_str(prm, "role");
		const char *dt = k_get_str(prm, "dtype");
		char what[160];
		if (role == NULL || strcmp(role, "scalar") == 0)
			continue;
		if (dt == NULL)
			dt = "bytes";
		k_buf_printf(&b, "\tkw_b[kw_nb].name = \"%s\"; kw_b[kw_nb].type = "
		    "\"%s\"; kw_b[kw_nb].role = %d; kw_b[kw_nb].dtype = %s; "
		    "kw_b[kw_nb].size = %d;\n\tkw_b[kw_nb].count = ",
		    k_get_str(prm, "name"), dt,
		    strcmp(role, "in") == 0 ? 0 : strcmp(role, "out") == 0 ? 1 :
		    2, dtype_enum(dt), dtype_size(dt));
		snprintf(what, sizeof(what), "count of %s", k_get_str(prm,
		    "name"));
		harness_expr(&b, json_object_get(prm, "count"), params, what);
		k_buf_add(&b, "; kw_nb++;\n");
	}
	json_array_foreach(globals, i, prm) {
		const char *dt = k_get_str(prm, "dtype");
		const char *name = k_get_str(prm, "name");
		char what[160];
		if (dt == NULL || name == NULL ||
		    !is_ident(name)) {
			*why = "a global lacks a name or a known dtype";
			k_buf_free(&b);
			return NULL;
		}
		k_buf_printf(&b, "\tkw_b[kw_nb].name = \"%s\"; kw_b[kw_nb].type = "
		    "\"%s\"; kw_b[kw_nb].role = 0; kw_b[kw_nb].global = 1; "
		    "kw_b[kw_nb].dtype = %s; kw_b[kw_nb].size = %d;\n"
		    "\tkw_b[kw_nb].count = ", name, dt, dtype_enum(dt),
		    dtype_size(dt));
		snprintf(what, sizeof(what), "count of %s", name);
		harness_expr(&b, json_object_get(prm, "count"), params, what);
		k_buf_add(&b, "; kw_nb++;\n");
	}
	{
		json_t *g = json_object_get(launch, "grid");
		json_t *bl = json_object_get(launch, "block");
		char what[16];
		k_buf_add(&b, "\tlong long kw_g[3], kw_bl[3];\n");
		for (i = 0; i < 3; i++) {
			snprintf(what, sizeof(what), "grid.%c", (int)('x' + i));
			k_buf_printf(&b, "\tkw_g[%zu] = ", i);
			harness_expr(&b, json_array_get(g, i), params, what);
			k_buf_add(&b, ";\n");
		}
		for (i = 0; i < 3; i++) {
			snprintf(what, sizeof(what), "block.%c", (int)('x' + i));
			k_buf_printf(&b, "\tkw_bl[%zu] = ", i);
			harness_expr(&b, json_array_get(bl, i), params, what);
			k_buf_add(&b, ";\n");
		}
		k_buf_add(&b, "\tlong long kw_sh = ");
		harness_expr(&b, json_object_get(launch, "shared_mem"), params,
		    "shared_mem");
		k_buf_add(&b, ";\n");
	}
	k_buf_add(&b, "\tvoid *kw_args[] = {");
	nb = 0;
	json_array_foreach(params, i, prm) {
		const char *role = k_get_str(prm, "role");
		if (role != NULL && strcmp(role, "scalar") != 0)
			k_buf_printf(&b, "%s(void *)&kw_b[%zu].dev", i ? ", " : " ",
			    nb++);
		else
			k_buf_printf(&b, "%s(void *)&%s", i ? ", " : " ",
			    k_get_str(prm, "name"));
	}
	if (json_array_size(params) == 0)
		k_buf_add(&b, " 0");
	k_buf_add(&b, " };\n");
	if (oracle != NULL)
		oracle_call(&b, params, oracle_fn);
	k_buf_add(&b, "\treturn kw_run(kw_pos, kw_case, kw_reps, kw_b, kw_nb, kw_g, "
	    "kw_bl, kw_sh, kw_args, kw_scalars_json[kw_case], kw_seeds[kw_case], "
	    "kw_fills[kw_case], ");
	k_buf_add(&b, oracle != NULL ? "kw_oracle ? &kw_oracle_fn : NULL" : "NULL");
	k_buf_add(&b, ");\n}\n\n");
	k_buf_add(&b,
	    "int main(int kw_argc, char **kw_argv)\n{\n"
	    "\tint kw_case = 0, kw_list = 0, kw_npos = 0, kw_every = 0, "
	    "kw_one = 0, kw_tmo = 0;\n"
	    "\tconst char *kw_pos[3] = { 0, 0, 0 };\n"
	    "\tfor (int i = 1; i < kw_argc; i++) {\n"
	    "\t\tchar *e;\n"
	    "\t\tif (strcmp(kw_argv[i], \"--cases\") == 0) kw_list = 1;\n"
	    "\t\telse if (strcmp(kw_argv[i], \"--all\") == 0) kw_every = 1;\n"
	    "\t\telse if (strcmp(kw_argv[i], \"--case\") == 0 && i + 1 < kw_argc) {\n"
	    "\t\t\tlong v = strtol(kw_argv[++i], &e, 10);\n"
	    "\t\t\tif (*e != '\\0' || v < 0 || v >= kw_ncases) kw_usage();\n"
	    "\t\t\tkw_case = (int)v;\n"
	    "\t\t\tkw_one = 1;\n"
	    "\t\t} else if (strcmp(kw_argv[i], \"--case-timeout\") == 0 && i + 1 < kw_argc) {\n"
	    "\t\t\tlong v = strtol(kw_argv[++i], &e, 10);\n"
	    "\t\t\tif (*e != '\\0' || v < 1 || v > 86400) kw_usage();\n"
	    "\t\t\tkw_tmo = (int)v;\n"
	    "\t\t} else if (strcmp(kw_argv[i], \"--time\") == 0 && i + 1 < kw_argc) {\n"
	    "\t\t\tlong v = strtol(kw_argv[++i], &e, 10);\n"
	    "\t\t\tif (*e != '\\0' || v < 1 || v > 100000) kw_usage();\n"
	    "\t\t\tkw_reps = (int)v;\n"
	    "\t\t} else if (strcmp(kw_argv[i], \"--oracle\") == 0) {\n"
	    "\t\t\tif (!KW_HAS_ORACLE) {\n"
	    "\t\t\t\tfprintf(stderr, \"harness: --oracle: no CPU reference "
	    "was compiled in\\n\");\n"
	    "\t\t\t\treturn KW_EXIT_USAGE;\n"
	    "\t\t\t}\n"
	    "\t\t\tkw_oracle = 1;\n"
	    "\t\t} else if (kw_argv[i][0] == '-' && kw_argv[i][1] != '\\0') kw_usage();\n"
	    "\t\telse if (kw_npos < 3) kw_pos[kw_npos++] = kw_argv[i];\n"
	    "\t\telse kw_usage();\n"
	    "\t}\n"
	    "\tif (kw_list) { printf(\"%d\\n\", kw_ncases); return 0; }\n"
	    "\tif (kw_npos != 3 || (kw_oracle && kw_reps > 0) || (kw_every && kw_one))\n"
	    "\t\tkw_usage();\n"
	    "\tif (kw_every)\n"
	    "\t\treturn kw_all(kw_pos, kw_ncases, kw_tmo, kw_case_main);\n"
	    "\tif (kw_tmo > 0) alarm((unsigned)kw_tmo);\n"
	    "\treturn kw_case_main(kw_pos, kw_case);\n}\n");
	*why = NULL;
	return b.s;
}

/* ------------------------------------------------------------ instruction */

/* Signature with template parameters replaced by their bindings. */
static void
bound_signature(const char *sig, json_t *instance, struct k_buf *out)
{
	const char *p = sig;

	while (*p != '\0') {
		if (isalpha((unsigned char)*p) || *p == '_') {
			const char *s = p;
			char id[128];
			json_t *b;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			snprintf(id, sizeof(id), "%.*s", (int)(p - s), s);
			b = json_is_object(instance) ? json_object_get(instance,
			    id) : NULL;
			k_buf_add(out, json_is_string(b) ? json_string_value(b) : id);
		} else {
			k_buf_addn(out, p++, 1);
		}
	}
	k_buf_str(out);
}

static json_t *
gen_instruction(json_t *rec, json_t *spec, const char *dialect)
{
	json_t *scan = json_object_get(rec, "scan");
	json_t *slice = json_object_get(rec, "slice");
	json_t *params = json_object_get(spec, "params");
	json_t *launch = json_object_get(spec, "launch");
	json_t *tags = json_object_get(slice, "tags"), *prm, *r;
	struct k_buf d = { 0 }, c = { 0 }, sig = { 0 }, ins = { 0 }, outs = { 0 };
	const char *lang = strcmp(dialect, "hip") == 0 ? "HIP" : "CUDA";
	const char *sym = k_get_str(spec, "kernel");
	size_t i;
	static const char *const tagnames[][2] = {
	    { "shared_static", "static shared memory" },
	    { "shared_dynamic", "dynamic shared memory" },
	    { "atomics", "atomic operations" },
	    { "warp_intrinsics", "warp intrinsics" },
	    { "syncthreads", "block barriers (__syncthreads)" } };

	bound_signature(k_get_str(scan, "signature") ? k_get_str(scan,
	    "signature") : "", json_object_get(slice, "instance"), &sig);
	json_array_foreach(params, i, prm) {
		const char *role = k_get_str(prm, "role");
		struct k_buf *l = role == NULL ? NULL : strcmp(role, "in") == 0 ?
		    &ins : strcmp(role, "scalar") == 0 ? NULL : &outs;
		if (l == NULL)
			continue;
		k_buf_printf(l, "%s%s (%s, %s elements)", l->n ? ", " : "",
		    k_get_str(prm, "name"), k_get_str(prm, "type"),
		    k_get_str(prm, "count"));
	}
	k_buf_printf(&d, "Kernel: %s, a %s kernel from %s:%lld.\n\n", sym, lang,
	    k_get_str(scan, "file") ? k_get_str(scan, "file") : "?",
	    (long long)k_get_int(scan, "line", 0));
	k_buf_printf(&d, "Role: it reads %s and writes %s.\n\n",
	    ins.n ? k_buf_str(&ins) : "no buffer", outs.n ? k_buf_str(&outs) :
	    "no buffer");
	k_buf_printf(&d, "Signature:\n\n    %s\n\n", k_buf_str(&sig));
	k_buf_add(&d, "Parameters:\n\n| name | role | type | size |\n"
	    "|------|------|------|------|\n");
	json_array_foreach(params, i, prm) {
		const char *use = k_get_str(prm, "use");
		k_buf_printf(&d, "| %s | %s | %s | %s |\n", k_get_str(prm, "name"),
		    k_get_str(prm, "role"), k_get_str(prm, "type"),
		    k_get_str(prm, "count") ? k_get_str(prm, "count") :
		    use != NULL && strcmp(use, "size") == 0 ? "size parameter" :
		    json_object_get(prm, "fields") ? "struct by value" :
		    "value parameter");
	}
	k_buf_add(&d, "\nComputation: ");
	/* kwrap --llm spec's account: a candidate sees nothing else */
	if (k_get_str(spec, "description") != NULL)
		k_buf_printf(&d, "%s ", k_get_str(spec, "description"));
	{
		int any = 0;
		for (i = 0; i < sizeof(tagnames) / sizeof(tagnames[0]); i++)
			if (json_is_true(json_object_get(tags, tagnames[i][0]))) {
				k_buf_printf(&d, "%s%s", any ? ", " : "uses ",
				    tagnames[i][1]);
				any = 1;
			}
		k_buf_add(&d, any ? ". " : "");
	}
	k_buf_add(&d, "Each output element is what the reference source assigns to it; "
	    "every output element within its size must be written.\n\n");
	{
		json_t *g = json_object_get(launch, "grid");
		json_t *b = json_object_get(launch, "block");
		char bb[3][32];
		for (i = 0; i < 3; i++)
			snprintf(bb[i], sizeof(bb[i]), "%lld",
			    (long long)json_integer_value(json_array_get(b, i)));
		k_buf_printf(&d, "Launch: grid (%s, %s, %s), block (%s, %s, %s), "
		    "%s bytes of dynamic shared memory.\n\n",
		    k_get_str(g, "0") ? "" : json_string_value(json_array_get(g, 0)),
		    json_string_value(json_array_get(g, 1)),
		    json_string_value(json_array_get(g, 2)), bb[0], bb[1], bb[2],
		    k_get_str(launch, "shared_mem"));
	}
	k_buf_add(&d, "Constraints: size parameters are at least 1; buffers hold "
	    "exactly the sizes above; the kernel must not write input "
	    "buffers nor outside the output sizes");
	r = json_object_get(json_object_get(spec, "confidence"), "overall");
	if (json_is_string(r) && strcmp(json_string_value(r), "low") == 0)
		k_buf_add(&d, "; the sizes above are partly guessed");
	if (json_array_size(json_object_get(spec, "globals")) > 0) {
		json_t *gl;
		k_buf_add(&d, "; it reads the file-scope __constant__ ");
		json_array_foreach(json_object_get(spec, "globals"), i, gl)
			k_buf_printf(&d, "%s%s %s[%s]", i ? ", " : "",
			    k_get_str(gl, "type"), k_get_str(gl, "name"),
			    k_get_str(gl, "count"));
		k_buf_add(&d, ", which the harness fills before the launch: a "
		    "candidate declares the same, by the same names");
	}
	k_buf_add(&d, ".\n");

	/* concise: the Role, Signature, Launch and Constraints lines of
	 * detailed, as one paragraph */
	k_buf_printf(&c, "Write the %s kernel %s with the signature `%s`: it reads "
	    "%s and writes %s. ", lang, sym, k_buf_str(&sig),
	    ins.n ? k_buf_str(&ins) : "no buffer", outs.n ? k_buf_str(&outs) :
	    "no buffer");
	{
		const char *l = strstr(k_buf_str(&d), "Launch: ");
		const char *e = l != NULL ? strchr(l, '\n') : NULL;
		if (l != NULL && e != NULL)
			k_buf_printf(&c, "%.*s ", (int)(e - l), l);
		l = strstr(k_buf_str(&d), "Constraints: ");
		e = l != NULL ? strchr(l, '\n') : NULL;
		if (l != NULL && e != NULL)
			k_buf_printf(&c, "%.*s", (int)(e - l), l);
	}
	r = json_pack("{s:s,s:s}", "detailed", k_buf_str(&d), "concise", k_buf_str(&c));
	k_buf_free(&d);
	k_buf_free(&c);
	k_buf_free(&sig);
	k_buf_free(&ins);
	k_buf_free(&outs);
	return r;
}

/* ------------------------------------------------------------ record */

/* Overlay user onto spec: objects merge key by key, "params" by name,
 * anything else is replaced. */
static void
merge(json_t *spec, json_t *user)
{
	const char *key;
	json_t *v;

	json_object_foreach(user, key, v) {
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
						merge(op, up);
						found = 1;
					}
				if (!found)
					json_array_append(old, up);
			}
		} else if (json_is_object(v) && json_is_object(old))
			merge(old, v);
		else
			json_object_set(spec, key, v);
	}
}

static json_t *
harness_json(const char *dialect, const char *code, int oracle)
{
	return json_pack("{s:s,s:s,s:s,s:b}", "dialect", dialect, "code", code,
	    "build", strcmp(dialect, "hip") == 0 ?
	    "hipcc -std=c++17 -O2 harness.hip -o harness" :
	    "nvcc -std=c++17 -O2 -x c++ -cudart none harness.cu -o harness "
	    "-L$CUDA/lib64/stubs -lcuda", "oracle", oracle);
}

/*
 * Put spec's harness, and the instruction, into wrap.  A CPU reference in
 * wrap.reference_cpu (from --llm reference, or put there by hand) is
 * compiled into the harness when C can express the kernel's types;
 * reference_cpu.oracle says whether it was, and why not.  Returns -1
 * with *why set when the spec gives no harness.
 */
static int
wrap_harness(json_t *rec, json_t *wrap, json_t *spec, const char *dialect,
    const char **why)
{
	json_t *ref = json_object_get(wrap, "reference_cpu");
	const char *code = k_get_str(ref, "code"), *no = NULL;
	const char *id = k_id_borrowed(rec);
	const char *name = k_get_str(json_object_get(rec, "scan"), "name");
	char fn[160];
	char *harness;

	if (json_is_object(ref)) {
		if (code == NULL || *code == '\0')
			no = "reference_cpu has no code";
		else if (name == NULL || !is_ident(name))
			no = "the kernel has no plain name to call the "
			    "reference by";
		else
			no = kw_oracle_unsupported(spec);
		snprintf(fn, sizeof(fn), "%s_cpu", name != NULL ? name : "");
		if (no == NULL && !defines_function(code, fn))
			no = "reference_cpu does not define the function "
			    "KERNEL_cpu";
	}
	harness = gen_harness(spec, dialect, id != NULL ? id : "?",
	    ref != NULL && no == NULL ? code : NULL, fn, why);
	if (harness == NULL)
		return -1;
	if (json_is_object(ref)) {
		json_object_set_new(ref, "oracle", json_boolean(no == NULL));
		if (no != NULL)
			json_object_set_new(ref, "why", json_string(no));
		else
			json_object_del(ref, "why");
	}
	json_object_set_new(wrap, "harness", harness_json(dialect, harness,
	    ref != NULL && no == NULL));
	free(harness);
	json_object_set_new(wrap, "instruction", gen_instruction(rec, spec,
	    dialect));
	return 0;
}

static json_t *
process(json_t *rec, void *ctx)
{
	json_t *scan = json_object_get(rec, "scan");
	json_t *slice = json_object_get(rec, "slice");
	json_t *launch, *spec, *user, *wrap, *ref;
	struct kern *k;
	const char *dialect, *why, *id = k_id_borrowed(rec);
	int i;

	(void)ctx;
	if (!json_is_object(scan) || !json_is_object(slice) ||
	    !json_is_array(json_object_get(scan, "params"))) {
		k_fail(rec, STAGE, "no-slice", "%s: record has no scan.params "
		    "and slice to wrap", k_id_text(rec));
		return rec;
	}
	if ((k = calloc(1, sizeof(*k))) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	k->rec = rec;
	k->guesses = json_array();
	k->code = k_get_str(slice, "code");
	tokenize(k->code != NULL ? k->code : "", &k->all);
	collect_consts(k->code != NULL ? k->code : "", &k->all, &k->c);
	{
		/* template value parameters of the instance are constants */
		json_t *inst = json_object_get(slice, "instance"), *v;
		const char *key;
		long long n;
		json_object_foreach(inst, key, v)
			if (json_is_string(v) &&
			    eval_str(json_string_value(v), &k->c, &n))
				const_set(&k->c, key, n);
	}
	load_params(k, scan, slice);
	kernel_text(k, k_get_str(scan, "text"));
	for (k->body = 0; k->body < k->t.n && !is(&k->t, k->body, "{");
	    k->body++)
		;
	if (k->body == k->t.n)
		k->body = 0;
	find_vars(k);
	infer_roles(k, slice);
	launch = json_object_get(slice, "launch");
	if (!json_is_object(launch))
		launch = json_array_get(json_object_get(scan, "launches"), 0);
	if (!json_is_object(launch))
		guess(k, "no launch site: block size guessed");
	infer_launch(k, launch);
	find_bounds(k);
	infer_launch(k, launch);	/* again, now that bounds are known */
	json_array_clear(k->guesses);
	if (k->t.n == 0)
		guess(k, "kernel text not found");
	infer_roles(k, slice);
	find_bounds(k);
	infer_launch(k, launch);
	if ((k->at = calloc(1, sizeof(*k->at))) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	if (is(&k->t, k->body, "{"))
		k->kf = fn_new(k, &k->t, k->body, 0, 1);
	{
		const char *dom = NULL;
		int n;
		for (n = 0; n < k->nv; n++)
			if (k->v[n].kind == V_GLOBAL && k->v[n].bound[0] != '\0') {
				dom = k->v[n].bound;
				break;
			}
		for (i = 0; i < k->np; i++)
			if (k->p[i].ptr)
				count_of(k, i, dom);
		shared_of(k);
	}
	spec = build_spec(k, k_get_str(slice, "symbol") ? k_get_str(slice,
	    "symbol") : k_get_str(scan, "name") ? k_get_str(scan, "name") : "?");
	{
		json_t *g = find_globals(k);
		if (json_array_size(g) > 0)
			json_object_set_new(spec, "globals", g);
		else
			json_decref(g);
	}
	if (opt.user != NULL && id != NULL &&
	    (user = json_object_get(opt.user, id)) != NULL) {
		merge(spec, user);
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
	user = opt.user != NULL && id != NULL ? json_object_get(opt.user, id) :
	    NULL;
	if (user == NULL || json_object_get(user, "cases") == NULL)
		fit_cases(spec, &k->c);
	dialect = opt.dialect != NULL ? opt.dialect : k_get_str(scan, "dialect");
	if (dialect == NULL || strcmp(dialect, "hip") != 0)
		dialect = "cuda";
	wrap = json_pack("{s:o}", "spec", spec);
	/* a CPU reference from an earlier run, or a user, stays */
	if ((ref = json_object_get(json_object_get(rec, "wrap"),
	    "reference_cpu")) != NULL)
		json_object_set(wrap, "reference_cpu", ref);
	if (wrap_harness(rec, wrap, spec, dialect, &why) != 0)
		k_fail(rec, STAGE, "bad-spec", "%s: %s", k_id_text(rec), why);
	k_set_section(rec, "wrap", wrap);
	toks_free(&k->t);
	toks_free(&k->all);
	json_decref(k->guesses);
	if (k->kf != NULL)
		fn_free(k->kf);
	free(k->at);
	free(k);
	return rec;
}

/* kwrap_llm.c's hook: wrap rec again from a spec the model completed. */
static int
rewrap(json_t *rec, json_t *spec, char *why, size_t cap)
{
	json_t *wrap = json_object_get(rec, "wrap");
	const char *dialect, *w = "?";

	dialect = opt.dialect != NULL ? opt.dialect :
	    k_get_str(json_object_get(rec, "scan"), "dialect");
	if (dialect == NULL || strcmp(dialect, "hip") != 0)
		dialect = "cuda";
	/* wrap_harness changes wrap only when the spec gives a harness */
	if (wrap_harness(rec, wrap, spec, dialect, &w) != 0) {
		snprintf(why, cap, "%s", w);
		return -1;
	}
	json_object_set(wrap, "spec", spec);
	return 0;
}

static void
filter(FILE *fp, const char *name)
{
	if (kw_llm_enabled())
		kw_llm_filter(fp, name, process, rewrap);
	else
		k_filter(fp, name, STAGE, process, NULL);
}

/* ------------------------------------------------------------ main */

static void
usage(void)
{
	fputs(usage_line, stderr);
	exit(K_EXIT_USAGE);
}

/* --spec FILE: NDJSON, each line {"id": ..., "spec": {...}} (or the
 * record's own wrap.spec); later lines win. */
static void
load_user(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;

	if (fp == NULL)
		k_fatal(K_EXIT_USAGE, path, "%s", strerror(errno));
	opt.user = json_object();
	while ((n = getline(&line, &cap, fp)) > 0) {
		json_error_t err;
		json_t *o, *s;
		char where[4200];
		lineno++;
		snprintf(where, sizeof(where), "%s:%lu", path, lineno);
		if (strspn(line, " \t\r\n") == (size_t)n)
			continue;
		o = json_loadb(line, (size_t)n, JSON_REJECT_DUPLICATES, &err);
		if (!json_is_object(o))
			k_fatal(K_EXIT_USAGE, where, "invalid JSON: %s",
			    o == NULL ? err.text : "not an object");
		s = json_object_get(o, "spec");
		if (s == NULL)
			s = json_object_get(json_object_get(o, "wrap"), "spec");
		if (k_get_str(o, "id") == NULL || !json_is_object(s))
			k_fatal(K_EXIT_USAGE, where, "expected \"id\" and "
			    "\"spec\"");
		json_object_set(opt.user, k_get_str(o, "id"), s);
		json_decref(o);
	}
	free(line);
	fclose(fp);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "dialect", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "spec", required_argument, NULL, 's' },
		{ "version", no_argument, NULL, 'V' },
		KW_LLM_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	int ch, i;

	k_msg_init(argv[0]);
	while ((ch = getopt_long(argc, argv, "hqV" KW_LLM_SHORTOPTS, longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'q':
			k_msg_quiet(1);
			break;
		case 'x':
			if (strcmp(optarg, "cuda") != 0 && strcmp(optarg, "hip") != 0)
				k_fatal(K_EXIT_USAGE, NULL, "--dialect: expected "
				    "cuda or hip: %s", optarg);
			opt.dialect = optarg;
			break;
		case 's':
			load_user(optarg);
			break;
		case 'V':
			printf("kwrap (kforge) 0.1\n");
			return k_finish();
		case 'h':
			fputs(usage_line, stdout);
			return k_finish();
		default:
			if (!kw_llm_option(ch, optarg))
				usage();
		}
	}
	argc -= optind;
	argv += optind;
	kw_llm_start();
	if (argc == 0)
		filter(stdin, "<stdin>");
	for (i = 0; i < argc; i++) {
		FILE *fp;
		if (strcmp(argv[i], "-") == 0) {
			filter(stdin, "<stdin>");
			continue;
		}
		if ((fp = fopen(argv[i], "r")) == NULL) {
			k_warn(K_EXIT_IO, argv[i], "%s", strerror(errno));
			continue;
		}
		filter(fp, argv[i]);
		fclose(fp);
	}
	json_decref(opt.user);
	kw_llm_end();
	return k_finish();
}
