/*
 * kbuild: what in a HIP kernel depends on the wavefront width.  AMD GPUs
 * run 64 lanes in a wavefront (most of them), NVIDIA GPUs 32 in a warp; a
 * kernel that spells either number into its lane arithmetic, masks,
 * shuffles or block sizes can be right on one and wrong on the other, so
 * a verdict reached on one does not carry to the other.
 *
 * A token scan of the source (comments and literals skipped), not a
 * parse: it reports what it sees, with the line, and says which width the
 * code assumes where the spelling tells (32 or 64).
 *
 * Only what the kernel can reach is looked at: a slice carries helper
 * headers and stubs whole (a framework's "#define WARP_SIZE 32" among
 * them), and a width that only an unused helper spells says nothing about
 * the kernel.  The unit's namespace-scope declarations (functions, types,
 * variables, macros) are indexed by name; from the kernel's definition,
 * every name it spells brings in the declarations of that name, and so on
 * (overloads and same-named members alike: it errs on the side of
 * looking).  Where the kernel is not found, every __global__ function is a
 * start; where there is none, the whole unit is looked at.
 */
#include <ctype.h>

#include "kbuild.h"

#define TOK_MAX 200000		/* tokens looked at; the rest is not */
#define REASONS_MAX 32		/* reasons listed; the count goes on */

struct tok {
	const char *s;
	size_t len;
	int line;
	unsigned pp;		/* the preprocessor directive it is in
				 * (numbered from 1), or 0 */
};

/* A namespace-scope declaration: tokens [a, b), under its name. */
struct region {
	const char *name;
	size_t len;
	size_t a, b;
	int global;		/* declared __global__ */
	int reached;
};

struct scan {
	struct tok *t;
	size_t n, cap;
	const char *code;
	json_t *reasons;
	size_t more;		/* reasons found beyond REASONS_MAX */
	unsigned char *live;	/* tokens the kernel reaches; NULL: all */
	struct region *r;
	size_t nr, capr;
	const char *scope;	/* what was looked at */
};

static int
is_id(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static void
push(struct scan *sc, const char *s, size_t len, int line, unsigned pp)
{
	if (sc->n == sc->cap) {
		sc->cap = sc->cap != 0 ? sc->cap * 2 : 1024;
		sc->t = k_realloc(sc->t, sc->cap * sizeof(*sc->t));
	}
	sc->t[sc->n].s = s;
	sc->t[sc->n].len = len;
	sc->t[sc->n].line = line;
	sc->t[sc->n].pp = pp;
	sc->n++;
}

static void
tokenize(struct scan *sc)
{
	const char *p = sc->code, *q;
	int line = 1, bol = 1;
	unsigned pp = 0, npp = 0;
	static const char *const two[] = { ">>=", "<<=", ">>", "<<", "==",
	    "!=", "&=", "%=", "/=", "::", "->", NULL };

	while (*p != '\0' && sc->n < TOK_MAX) {
		size_t i;
		size_t n0 = sc->n;
		if (p[0] == '\\' && (p[1] == '\n' || (p[1] == '\r' &&
		    p[2] == '\n'))) {
			/* a continued line: a directive goes on */
			p += p[1] == '\n' ? 2 : 3;
			line++;
			continue;
		}
		if (*p == '\n') {
			line++;
			p++;
			bol = 1;
			pp = 0;
			continue;
		}
		if (bol && *p == '#')
			pp = ++npp;
		if (isspace((unsigned char)*p))
			p++;
		else if (p[0] == '/' && p[1] == '/') {
			while (*p != '\0' && *p != '\n')
				p++;
		} else if (p[0] == '/' && p[1] == '*') {
			for (p += 2; *p != '\0' && !(p[0] == '*' && p[1] == '/');
			    p++)
				if (*p == '\n')
					line++;
			if (*p != '\0')
				p += 2;
		} else if (*p == '"' || *p == '\'') {
			char end = *p++;
			while (*p != '\0' && *p != end && *p != '\n') {
				if (*p == '\\' && p[1] != '\0')
					p++;
				p++;
			}
			if (*p == end)
				p++;
		} else if (is_id(*p)) {
			for (q = p; is_id(*q) || (*q == '.' &&
			    isdigit((unsigned char)*p)); q++)
				;
			push(sc, p, (size_t)(q - p), line, pp);
			p = q;
		} else {
			size_t l = 1;
			for (i = 0; two[i] != NULL; i++)
				if (strncmp(p, two[i], strlen(two[i])) == 0) {
					l = strlen(two[i]);
					break;
				}
			push(sc, p, l, line, pp);
			p += l;
		}
		if (sc->n > n0)
			bol = 0;
	}
}

static int
is(const struct scan *sc, size_t i, const char *s)
{
	return i < sc->n && sc->t[i].len == strlen(s) &&
	    strncmp(sc->t[i].s, s, sc->t[i].len) == 0;
}

static int
starts(const struct scan *sc, size_t i, const char *s)
{
	return i < sc->n && sc->t[i].len >= strlen(s) &&
	    strncmp(sc->t[i].s, s, strlen(s)) == 0;
}

/* The value of an integer literal token (suffixes allowed), or -1. */
static long long
lit(const struct scan *sc, size_t i)
{
	char buf[40], *end;
	unsigned long long v;

	if (i >= sc->n || !isdigit((unsigned char)sc->t[i].s[0]) ||
	    sc->t[i].len >= sizeof(buf))
		return -1;
	memcpy(buf, sc->t[i].s, sc->t[i].len);
	buf[sc->t[i].len] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 0);
	if (errno != 0 || strspn(end, "uUlL") != strlen(end))
		return -2;	/* too big for 64 bits, or a float */
	return v > (unsigned long long)LLONG_MAX ? LLONG_MAX : (long long)v;
}

/* Does the identifier, in lower case, contain any of the words? */
static int
name_has(const struct scan *sc, size_t i, const char *const *words)
{
	char low[128];
	size_t k;

	if (i >= sc->n || !is_id(sc->t[i].s[0]) ||
	    isdigit((unsigned char)sc->t[i].s[0]) || sc->t[i].len >= sizeof(low))
		return 0;
	for (k = 0; k < sc->t[i].len; k++)
		low[k] = (char)tolower((unsigned char)sc->t[i].s[k]);
	low[k] = '\0';
	for (k = 0; words[k] != NULL; k++)
		if (strstr(low, words[k]) != NULL)
			return 1;
	return 0;
}

static void
reason(struct scan *sc, const char *kind, int assumes, size_t at,
    const char *why)
{
	json_t *r, *e;
	size_t i;
	int line = at < sc->n ? sc->t[at].line : 0;
	const char *p = sc->code, *q;

	if (sc->live != NULL && (at >= sc->n || !sc->live[at]))
		return;	/* not what the kernel reaches */

	json_array_foreach(sc->reasons, i, e)
		if (strcmp(k_get_str(e, "kind"), kind) == 0 &&
		    k_get_int(e, "line", 0) == line)
			return;
	/* bounded: a hostile source with a reason on every line costs a
	 * count, not quadratic time */
	if (json_array_size(sc->reasons) >= REASONS_MAX) {
		sc->more++;
		return;
	}
	for (i = 1; i < (size_t)line && p != NULL; i++)
		if ((p = strchr(p, '\n')) != NULL)
			p++;
	if (p == NULL)
		p = "";
	while (*p == ' ' || *p == '\t')
		p++;
	q = strchr(p, '\n');
	r = json_object();
	json_object_set_new(r, "kind", json_string(kind));
	json_object_set_new(r, "assumes", assumes > 0 ?
	    json_integer(assumes) : json_null());
	json_object_set_new(r, "line", json_integer(line));
	json_object_set_new(r, "why", json_string(why));
	json_object_set_new(r, "text", k_string_lossy(p, q != NULL ?
	    (size_t)(q - p) > 160 ? 160 : (size_t)(q - p) :
	    strlen(p) > 160 ? 160 : strlen(p)));
	json_array_append_new(sc->reasons, r);
}

/* The first token of the statement that holds token i. */
static size_t
stmt_start(const struct scan *sc, size_t i)
{
	while (i > 0 && !is(sc, i - 1, ";") && !is(sc, i - 1, "{") &&
	    !is(sc, i - 1, "}"))
		i--;
	return i;
}

static int
stmt_has(const struct scan *sc, size_t i, const char *s)
{
	size_t k;

	for (k = stmt_start(sc, i); k < sc->n && !is(sc, k, ";") &&
	    !is(sc, k, "{"); k++)
		if (is(sc, k, s))
			return 1;
	return 0;
}

/* threadIdx.x (or HIP's hipThreadIdx_x) ending at token i, or a name
 * that says it is a thread or lane index: the start token, else -1 */
static long
lane_operand(const struct scan *sc, size_t i)
{
	static const char *const words[] = { "tid", "lane", "thread", NULL };

	if (i >= 2 && is(sc, i - 1, ".") && (is(sc, i - 2, "threadIdx")))
		return (long)i - 2;
	if (starts(sc, i, "hipThreadIdx_") || (name_has(sc, i, words) &&
	    !starts(sc, i, "__")))
		return (long)i;
	return -1;
}

static int
is_shfl(const struct scan *sc, size_t i)
{
	return starts(sc, i, "__shfl");
}

/* ---- what the kernel reaches ---- */

static int
is_name(const struct scan *sc, size_t i)
{
	return i < sc->n && (isalpha((unsigned char)sc->t[i].s[0]) ||
	    sc->t[i].s[0] == '_');
}

/* The token that closes the bracket opened at i (or n). */
static size_t
closing(const struct scan *sc, size_t i)
{
	const char *open = is(sc, i, "{") ? "{" : is(sc, i, "(") ? "(" : "[";
	const char *close = open[0] == '{' ? "}" : open[0] == '(' ? ")" : "]";
	size_t depth = 0;

	for (; i < sc->n; i++)
		if (is(sc, i, open))
			depth++;
		else if (is(sc, i, close) && --depth == 0)
			return i;
	return sc->n;
}

static void
add_region(struct scan *sc, size_t name, size_t a, size_t b, int global)
{
	struct region *r;

	if (name >= sc->n || !is_name(sc, name))
		return;
	if (sc->nr == sc->capr) {
		sc->capr = sc->capr != 0 ? sc->capr * 2 : 64;
		sc->r = k_realloc(sc->r, sc->capr * sizeof(*sc->r));
	}
	r = &sc->r[sc->nr++];
	r->name = sc->t[name].s;
	r->len = sc->t[name].len;
	r->a = a;
	r->b = b;
	r->global = global;
	r->reached = 0;
}

/* Names that are followed by '(' in a declaration without being what it
 * declares: attributes, specifiers, operators on types. */
static int
not_declared(const struct scan *sc, size_t i)
{
	static const char *const words[] = { "alignas", "decltype", "sizeof",
	    "alignof", "noexcept", "requires", "throw", "static_assert",
	    NULL };
	size_t k;

	if (sc->t[i].len >= 4 && strncmp(sc->t[i].s, "__", 2) == 0 &&
	    strncmp(sc->t[i].s + sc->t[i].len - 2, "__", 2) == 0)
		return 1;	/* __launch_bounds__, __attribute__, __align__ */
	for (k = 0; words[k] != NULL; k++)
		if (is(sc, i, words[k]))
			return 1;
	return 0;
}

/* What the declaration [a, b) (b its ';') declares: the name before its
 * '=', else before its first '(' or '[', else its last name. */
static size_t
declared(const struct scan *sc, size_t a, size_t b)
{
	size_t k, last = sc->n;
	int depth = 0;

	for (k = a; k < b; k++) {
		if (depth == 0 && (is(sc, k, "=") || is(sc, k, "(") ||
		    is(sc, k, "[")) && k > a && is_name(sc, k - 1) &&
		    !not_declared(sc, k - 1))
			return k - 1;
		if (is(sc, k, "(") || is(sc, k, "["))
			depth++;
		else if ((is(sc, k, ")") || is(sc, k, "]")) && depth > 0)
			depth--;
		else if (depth == 0 && is_name(sc, k))
			last = k;
	}
	return last;
}

/* Index the declarations of tokens [i, end), entering namespaces and
 * extern blocks. */
static void
index_scope(struct scan *sc, size_t i, size_t end, int level)
{
	while (i < end) {
		size_t k, close, name, kw;
		int depth = 0, global = 0;

		if (sc->t[i].pp != 0) {
			unsigned pp = sc->t[i].pp;
			for (k = i; k < end && sc->t[k].pp == pp; k++)
				;
			if (is(sc, i + 1, "define") && i + 2 < k)
				add_region(sc, i + 2, i, k, 0);
			i = k;
			continue;
		}
		if (is(sc, i, ";") || is(sc, i, "}")) {
			i++;
			continue;
		}
		if ((is(sc, i, "namespace") || is(sc, i, "extern")) &&
		    level < 64) {
			for (k = i + 1; k < end && k < i + 8 && !is(sc, k, "{") &&
			    !is(sc, k, ";"); k++)
				;
			if (k < end && is(sc, k, "{")) {
				close = closing(sc, k);
				index_scope(sc, k + 1, close < end ? close : end,
				    level + 1);
				i = close + 1;
				continue;
			}
		}
		/* one declaration: up to its ';', or the '{' of a body */
		kw = sc->n;
		for (k = i; k < end; k++) {
			if (sc->t[k].pp != 0)
				continue;
			if (is(sc, k, "(") || is(sc, k, "["))
				depth++;
			else if ((is(sc, k, ")") || is(sc, k, "]")) && depth > 0)
				depth--;
			else if (depth == 0 && (is(sc, k, ";") ||
			    is(sc, k, "{")))
				break;
			else if (is(sc, k, "__global__"))
				global = 1;
			else if (depth == 0 && kw == sc->n && (is(sc, k,
			    "struct") || is(sc, k, "class") || is(sc, k,
			    "union") || is(sc, k, "enum")))
				kw = k;
		}
		if (k >= end)
			break;
		if (is(sc, k, ";")) {
			add_region(sc, declared(sc, i, k), i, k + 1, 0);
			i = k + 1;
			continue;
		}
		close = closing(sc, k);
		if (close >= end)
			close = end - 1;
		name = sc->n;
		if (kw < k && !is(sc, k - 1, ")")) {
			/* a type: its name after the keyword (attributes
			 * aside), else the typedef's after the body */
			size_t e;
			for (name = kw + 1; name < k && (!is_name(sc, name) ||
			    not_declared(sc, name) || is(sc, name, "class") ||
			    is(sc, name, "struct")); name++)
				if (is(sc, name, "("))
					name = closing(sc, name);
			for (e = close + 1; e < end && !is(sc, e, ";") &&
			    !is(sc, e, "{") && !is(sc, e, "}"); e++)
				;
			if (name >= k && e > close + 1 && is_name(sc, e - 1))
				name = e - 1;
			add_region(sc, name, i, e < end ? e + 1 : end, 0);
			if (is(sc, kw, "enum")) {
				/* enumerators are its names too */
				size_t x;
				for (x = k + 1; x < close; x++)
					if (is_name(sc, x) && (is(sc, x - 1, "{") ||
					    is(sc, x - 1, ",")))
						add_region(sc, x, i, close + 1, 0);
			}
			i = e < end ? e + 1 : end;
			continue;
		}
		/* a function (its name before its first '('), or a variable
		 * with a braced initializer */
		depth = 0;
		for (name = i; name < k; name++)
			if (is(sc, name, "(") && name > i &&
			    is_name(sc, name - 1) && !not_declared(sc, name - 1)) {
				name--;
				break;
			} else if (is(sc, name, "=") || is(sc, name, "["))
				break;
		if (name >= k || !is_name(sc, name))
			name = declared(sc, i, k);
		add_region(sc, name, i, close + 1, global);
		i = close + 1;
	}
}

static int
region_cmp(const void *pa, const void *pb)
{
	const struct region *a = pa, *b = pb;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, n);

	if (c != 0)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

static void
reach_region(struct scan *sc, struct region *r, size_t *queue, size_t *nq)
{
	if (r->reached)
		return;
	r->reached = 1;
	queue[(*nq)++] = (size_t)(r - sc->r);
}

/* Mark what the kernel (its name without namespace or template
 * arguments) reaches; sc->live stays NULL when the whole unit is to be
 * looked at. */
static void
reach(struct scan *sc, const char *kernel)
{
	size_t *queue, nq = 0, qi, i, klen;
	const char *k = kernel != NULL ? kernel : "", *p, *end;

	sc->scope = "unit";
	index_scope(sc, 0, sc->n, 0);
	if (sc->nr == 0)
		return;
	qsort(sc->r, sc->nr, sizeof(*sc->r), region_cmp);
	end = strchr(k, '<') != NULL ? strchr(k, '<') : k + strlen(k);
	for (p = k; p < end; p++)
		if (p[0] == ':' && p[1] == ':')
			k = p + 2;
	klen = (size_t)(end - k);
	queue = k_calloc(sc->nr, sizeof(*queue));
	for (i = 0; i < sc->nr; i++)
		if (sc->r[i].global && klen > 0 && sc->r[i].len == klen &&
		    memcmp(sc->r[i].name, k, klen) == 0)
			reach_region(sc, &sc->r[i], queue, &nq);
	sc->scope = "kernel";
	if (nq == 0) {
		for (i = 0; i < sc->nr; i++)
			if (sc->r[i].global)
				reach_region(sc, &sc->r[i], queue, &nq);
		sc->scope = "kernels";
	}
	if (nq == 0) {
		sc->scope = "unit";
		free(queue);
		return;
	}
	sc->live = k_calloc(sc->n, 1);
	for (qi = 0; qi < nq; qi++) {
		struct region *r = &sc->r[queue[qi]];
		for (i = r->a; i < r->b && i < sc->n; i++) {
			struct region key, *f;
			sc->live[i] = 1;
			if (!is_name(sc, i))
				continue;
			key.name = sc->t[i].s;
			key.len = sc->t[i].len;
			f = bsearch(&key, sc->r, sc->nr, sizeof(*sc->r),
			    region_cmp);
			if (f == NULL)
				continue;
			/* every declaration of the name: back to the first */
			while (f > sc->r && region_cmp(f - 1, &key) == 0)
				f--;
			for (; f < sc->r + sc->nr && region_cmp(f, &key) == 0;
			    f++)
				reach_region(sc, f, queue, &nq);
		}
	}
	free(queue);
}

static void
check(struct scan *sc)
{
	static const char *const warpish[] = { "warp", "wave", NULL };
	int has_ballot = 0;
	size_t i, k;

	for (i = 0; i < sc->n; i++)
		if ((is(sc, i, "__ballot") || is(sc, i, "__ballot_sync")) &&
		    (sc->live == NULL || sc->live[i]))
			has_ballot = 1;
	for (i = 0; i < sc->n; i++) {
		long long v = lit(sc, i), w;

		if (starts(sc, i, "__lane_id") || starts(sc, i, "__lanemask_"))
			reason(sc, "lane-id", 0, i, "the lane index and lane "
			    "masks range over the wavefront's width");

		/* warpSize where only a constant will do */
		if (is(sc, i, "warpSize")) {
			if ((is(sc, i + 1, "==") || is(sc, i + 1, "!=")) &&
			    ((w = lit(sc, i + 2)) == 32 || w == 64))
				reason(sc, "warpsize-constant", (int)w, i,
				    "warpSize compared with a fixed width");
			else if (stmt_has(sc, i, "__shared__") ||
			    stmt_has(sc, i, "constexpr") ||
			    stmt_has(sc, i, "static_assert"))
				reason(sc, "warpsize-constant", 0, i,
				    "warpSize used where a compile-time "
				    "constant is needed (array size, "
				    "constexpr)");
		}
		/* a width named and fixed: #define WARP_SIZE 32, constexpr
		 * int kWaveSize = 64 */
		if ((v == 32 || v == 64) && i >= 1 &&
		    name_has(sc, i - 1, warpish) && i >= 2 &&
		    is(sc, i - 2, "define"))
			reason(sc, "warpsize-constant", (int)v, i,
			    "the width defined as a fixed number");
		if ((v == 32 || v == 64) && i >= 2 && is(sc, i - 1, "=") &&
		    name_has(sc, i - 2, warpish) && !is_shfl(sc, i + 1))
			reason(sc, "warpsize-constant", (int)v, i,
			    "the width defined as a fixed number");

		/* lane masks: 64-bit ones, and CUDA's 32-bit full mask */
		if (i < sc->n && sc->t[i].len >= 18 &&
		    strncasecmp(sc->t[i].s, "0xffffffffffffffff", 18) == 0)
			reason(sc, "lane-mask", 64, i, "a 64-lane mask");
		else if (v == 0xffffffffLL && sc->t[i].len >= 10 &&
		    (stmt_has(sc, i, "__ballot") || stmt_has(sc, i,
		    "__activemask") || (i >= 2 && is(sc, i - 1, "(") &&
		    sc->t[i - 2].len > 5 && strncmp(sc->t[i - 2].s +
		    sc->t[i - 2].len - 5, "_sync", 5) == 0)))
			reason(sc, "lane-mask", 32, i, "a 32-lane full mask");
		if (has_ballot && (is(sc, i, "__popcll") || is(sc, i,
		    "__ffsll") || is(sc, i, "__clzll")))
			reason(sc, "lane-mask", 64, i, "a ballot's mask used "
			    "as 64 bits");

		/* shuffles with a literal offset of 32 (a 64-lane
		 * reduction's first step) or a width of 64 */
		if (is_shfl(sc, i) && is(sc, i + 1, "(")) {
			int depth = 0, arg = 0, sync = sc->t[i].len > 5 &&
			    strncmp(sc->t[i].s + sc->t[i].len - 5, "_sync", 5) == 0;
			for (k = i + 1; k < sc->n; k++) {
				if (is(sc, k, "(") || is(sc, k, "["))
					depth++;
				else if ((is(sc, k, ")") || is(sc, k, "]")) &&
				    --depth == 0)
					break;
				else if (depth == 1 && is(sc, k, ",")) {
					arg++;
					w = lit(sc, k + 1);
					if (!is(sc, k + 2, ")") && !is(sc, k + 2, ","))
						continue;
					if (w == 64)
						reason(sc, "shuffle-width", 64, i,
						    "a shuffle over 64 lanes");
					else if (w == 32 && arg == 1 + sync &&
					    !is(sc, i, "__shfl") &&
					    !is(sc, i, "__shfl_sync"))
						reason(sc, "shuffle-width", 64, i,
						    "a shuffle offset of 32 lanes");
				}
			}
		}
		/* a shuffle reduction whose first offset is half a width:
		 * for (int o = 16; o > 0; o >>= 1) ... __shfl_down(v, o) */
		if (is(sc, i, "for") && is(sc, i + 1, "(")) {
			long long first = -1;
			size_t end = i + 2, body;
			int depth = 1;
			for (; end < sc->n && depth > 0; end++) {
				if (is(sc, end, "("))
					depth++;
				else if (is(sc, end, ")"))
					depth--;
				else if (first < 0 && is(sc, end, "=") &&
				    ((w = lit(sc, end + 1)) == 16 || w == 32) &&
				    (is(sc, end + 2, ";") || is(sc, end + 2, ",")))
					first = w;
			}
			for (body = end; first > 0 && body < end + 60 &&
			    body < sc->n; body++)
				if (is_shfl(sc, body)) {
					reason(sc, "shuffle-width", (int)first * 2,
					    i, "a shuffle reduction starting at "
					    "half of a fixed width");
					break;
				}
		}

		/* lane and warp arithmetic on a thread index */
		if ((is(sc, i, "%") || is(sc, i, "&") || is(sc, i, "/") ||
		    is(sc, i, ">>")) && i >= 1 && lane_operand(sc, i - 1) >= 0) {
			w = lit(sc, i + 1);
			if ((is(sc, i, "%") || is(sc, i, "/")) && (w == 32 || w == 64))
				reason(sc, "lane-arithmetic", (int)w, i,
				    "a thread index split by a fixed width");
			else if (is(sc, i, "&") && (w == 31 || w == 63))
				reason(sc, "lane-arithmetic", (int)w + 1, i,
				    "a thread index masked by a fixed width");
			else if (is(sc, i, ">>") && (w == 5 || w == 6))
				reason(sc, "lane-arithmetic", w == 5 ? 32 : 64, i,
				    "a thread index shifted by a fixed width");
		}

		/* block sizes of one warp or wavefront */
		if (is(sc, i, "__launch_bounds__") && is(sc, i + 1, "(") &&
		    ((w = lit(sc, i + 2)) == 32 || w == 64))
			reason(sc, "block-size", (int)w, i, "a block of exactly "
			    "one warp or wavefront");
		if (is(sc, i, "blockDim") && is(sc, i + 1, ".") &&
		    (is(sc, i + 3, "==") || is(sc, i + 3, "!=")) &&
		    ((w = lit(sc, i + 4)) == 32 || w == 64))
			reason(sc, "block-size", (int)w, i, "a block size "
			    "compared with a fixed width");
	}
}

/*
 * The wavefront section of a HIP unit: {"sensitive": bool, "reasons":
 * [{"kind", "assumes", "line", "why", "text"}]}.  New reference.
 */
json_t *
wavefront_scan(const char *code, const char *kernel)
{
	struct scan sc;
	json_t *w = json_object();

	memset(&sc, 0, sizeof(sc));
	sc.code = code != NULL ? code : "";
	sc.reasons = json_array();
	tokenize(&sc);
	reach(&sc, kernel);
	check(&sc);
	free(sc.t);
	free(sc.r);
	free(sc.live);
	json_object_set_new(w, "sensitive", json_boolean(
	    json_array_size(sc.reasons) > 0));
	json_object_set_new(w, "reasons", sc.reasons);
	json_object_set_new(w, "scope", json_string(sc.scope));
	if (sc.n >= TOK_MAX || sc.more > 0)
		json_object_set_new(w, "note", sc.more > 0 ? json_sprintf(
		    "%zu more reasons not listed%s", sc.more, sc.n >= TOK_MAX ?
		    "; only the first 200000 tokens were looked at" : "") :
		    json_string("only the first 200000 tokens were looked at"));
	return w;
}
