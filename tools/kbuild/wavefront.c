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
 */
#include <ctype.h>

#include "kbuild.h"

#define TOK_MAX 200000		/* tokens looked at; the rest is not */
#define REASONS_MAX 32		/* reasons listed; the count goes on */

struct tok {
	const char *s;
	size_t len;
	int line;
};

struct scan {
	struct tok *t;
	size_t n, cap;
	const char *code;
	json_t *reasons;
	size_t more;		/* reasons found beyond REASONS_MAX */
};

static int
is_id(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static void
push(struct scan *sc, const char *s, size_t len, int line)
{
	if (sc->n == sc->cap) {
		sc->cap = sc->cap != 0 ? sc->cap * 2 : 1024;
		sc->t = k_realloc(sc->t, sc->cap * sizeof(*sc->t));
	}
	sc->t[sc->n].s = s;
	sc->t[sc->n].len = len;
	sc->t[sc->n].line = line;
	sc->n++;
}

static void
tokenize(struct scan *sc)
{
	const char *p = sc->code, *q;
	int line = 1;
	static const char *const two[] = { ">>=", "<<=", ">>", "<<", "==",
	    "!=", "&=", "%=", "/=", "::", "->", NULL };

	while (*p != '\0' && sc->n < TOK_MAX) {
		size_t i;
		if (*p == '\n') {
			line++;
			p++;
		} else if (isspace((unsigned char)*p))
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
			push(sc, p, (size_t)(q - p), line);
			p = q;
		} else {
			size_t l = 1;
			for (i = 0; two[i] != NULL; i++)
				if (strncmp(p, two[i], strlen(two[i])) == 0) {
					l = strlen(two[i]);
					break;
				}
			push(sc, p, l, line);
			p += l;
		}
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

static void
check(struct scan *sc)
{
	static const char *const warpish[] = { "warp", "wave", NULL };
	int has_ballot = 0;
	size_t i, k;

	for (i = 0; i < sc->n; i++)
		if (is(sc, i, "__ballot") || is(sc, i, "__ballot_sync"))
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
wavefront_scan(const char *code)
{
	struct scan sc;
	json_t *w = json_object();

	memset(&sc, 0, sizeof(sc));
	sc.code = code != NULL ? code : "";
	sc.reasons = json_array();
	tokenize(&sc);
	check(&sc);
	free(sc.t);
	json_object_set_new(w, "sensitive", json_boolean(
	    json_array_size(sc.reasons) > 0));
	json_object_set_new(w, "reasons", sc.reasons);
	if (sc.n >= TOK_MAX || sc.more > 0)
		json_object_set_new(w, "note", sc.more > 0 ? json_sprintf(
		    "%zu more reasons not listed%s", sc.more, sc.n >= TOK_MAX ?
		    "; only the first 200000 tokens were looked at" : "") :
		    json_string("only the first 200000 tokens were looked at"));
	return w;
}
