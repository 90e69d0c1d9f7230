/*
 * kwrap: tokens of C source (comments, strings and preprocessor lines
 * dropped) and the helpers that walk them.
 */
#include "kwrap.h"

/*
 * Text that did not fit where it was put: expressions live in fixed
 * MAX_EXPR buffers, and a cut expression would be a wrong one.  bprintf
 * and copy never cut silently: they count what did not fit, and process
 * turns a count above 0 into an error of the record.  One count per
 * thread, reset per record.
 */
static _Thread_local int cuts;
static _Thread_local int over;	/* tokens past MAX_TOKENS */

int
text_cuts(int reset)
{
	int n = cuts;

	if (reset)
		cuts = 0;
	return n;
}

/* Tokens dropped at MAX_TOKENS since the last reset (some of text_cuts'). */
int
token_cuts(int reset)
{
	int n = over;

	if (reset)
		over = 0;
	return n;
}

void
bprintf(char *dst, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(dst, cap, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= cap)
		cuts++;
}

void
copy(char *dst, size_t cap, const char *src)
{
	bprintf(dst, cap, "%s", src != NULL ? src : "");
}

/* Append src to the text in dst, after a space when dst is not empty. */
void
append_word(char *dst, size_t cap, const char *src)
{
	size_t l = strlen(dst);

	if (l >= cap) {
		cuts++;
		return;
	}
	bprintf(dst + l, cap - l, "%s%s", l > 0 ? " " : "", src);
}


/* p with room for element n of size sz: *cap doubles as needed. */
void *
grow(void *p, int *cap, int n, size_t sz)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	p = k_reallocarray(p, (size_t)*cap, sz);
	return p;
}

void
tok_push(struct toks *t, const char *s, size_t len)
{
	if (t->n >= MAX_TOKENS) {
		cuts++;
		over++;
		return;
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->v = k_reallocarray(t->v, t->cap, sizeof(*t->v));
	}
	t->v[t->n] = k_strndup(s, len);
	t->n++;
}

void
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
void
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
			/* a string keeps its text (an asm template is read:
			 * ptx.c); a character is the number 0 */
			const char *s = p;
			char q = *p++;
			while (*p != '\0' && *p != q) {
				if (*p == '\\' && p[1] != '\0')
					p++;
				p++;
			}
			if (*p != '\0')
				p++;
			if (q == '"')
				tok_push(t, s, (size_t)(p - s));
			else
				tok_push(t, "0", 1);
			continue;
		}
		if (isalpha((unsigned char)*p) || *p == '_') {
			const char *s = p;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			/* if constexpr (c) is read as if (c): which branch
			 * runs is the instance's (flow.c's dead code) */
			if ((size_t)(p - s) == 9 &&
			    strncmp(s, "constexpr", 9) == 0 && t->n > 0 &&
			    strcmp(t->v[t->n - 1], "if") == 0)
				continue;
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

int
names_has(const struct names *s, const char *x)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i], x) == 0)
			return 1;
	return 0;
}

int
names_add(struct names *s, const char *x)
{
	if (names_has(s, x) || strlen(x) >= sizeof(s->v[0]))
		return 0;
	s->v = grow(s->v, &s->cap, s->n, sizeof(*s->v));
	copy(s->v[s->n++], sizeof(s->v[0]), x);
	return 1;
}

int
is(const struct toks *t, size_t i, const char *s)
{
	return i < t->n && strcmp(t->v[i], s) == 0;
}

/* Whether token i is <, <=, > or >=. */
int
relational(const struct toks *t, size_t i)
{
	return is(t, i, "<") || is(t, i, "<=") || is(t, i, ">") ||
	    is(t, i, ">=");
}

/* Whether word w (not empty) is an identifier in text, not part of a
 * longer one. */
int
kw_names(const char *text, const char *w)
{
	size_t l = strlen(w);
	const char *x;

	for (x = text; (x = strstr(x, w)) != NULL; x += l)
		if ((x == text || (!isalnum((unsigned char)x[-1]) &&
		    x[-1] != '_')) && !isalnum((unsigned char)x[l]) &&
		    x[l] != '_')
			return 1;
	return 0;
}

int
is_ident(const char *s)
{
	return isalpha((unsigned char)*s) || *s == '_';
}

/* 1 for an opening bracket token, -1 for a closing one, else 0. */
static int
bracket(const char *s)
{
	if (s[0] == '\0' || s[1] != '\0')
		return 0;
	return strchr("([{", s[0]) != NULL ? 1 : strchr(")]}", s[0]) != NULL ?
	    -1 : 0;
}

/* Index just past the bracket matching the one at i (or t->n). */
size_t
skip_group(const struct toks *t, size_t i)
{
	int depth = 0, b;

	for (; i < t->n; i++)
		if ((b = bracket(t->v[i])) > 0)
			depth++;
		else if (b < 0 && --depth <= 0)
			return i + 1;
	return t->n;
}

/* End of an expression starting at i: the first token at depth 0 that is
 * one of the stop tokens, or an unmatched closing bracket. */
size_t
expr_end(const struct toks *t, size_t i, const char *const *stop)
{
	int depth = 0, b;
	size_t k;

	for (; i < t->n; i++) {
		const char *s = t->v[i];
		if ((b = bracket(s)) > 0)
			depth++;
		else if (b < 0) {
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
void
join(const struct toks *t, size_t a, size_t b, char *out, size_t cap)
{
	struct k_buf sb = { 0 };

	join_buf(t, a, b, &sb);
	copy(out, cap, k_buf_str(&sb));
	k_buf_free(&sb);
}

/* A quote of tokens [a, b) for a message: cut where it must be, and
 * then visibly, with "...". */
void
quote(const struct toks *t, size_t a, size_t b, char *out, size_t cap)
{
	struct k_buf sb = { 0 };

	join_buf(t, a, b, &sb);
	if (sb.n < cap)
		copy(out, cap, k_buf_str(&sb));
	else if (cap > 4)
		snprintf(out, cap, "%.*s...", (int)(cap - 4), k_buf_str(&sb));
	else if (cap > 0)
		*out = '\0';
	k_buf_free(&sb);
}

/* Append tokens [a, b) to sb as readable C. */
void
join_buf(const struct toks *t, size_t a, size_t b, struct k_buf *sb)
{
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
			k_buf_add(sb, " ");
		k_buf_add(sb, s);
	}
}
