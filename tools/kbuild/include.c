/*
 * kbuild: the files a unit's code names for the preprocessor.  An
 * #include (#include_next, #import, #embed, __has_include) of an absolute
 * path outside the toolkit, or of a path with a ".." component, is refused
 * before any compiler starts: code from a record or a language model has
 * no business reading the host's files (/etc/passwd, /dev/zero).  The
 * sandbox stops what this textual look cannot see (a path a macro builds).
 */
#include "kbuild.h"

/* Whether path may be read: relative without "..", or absolute under one
 * of the toolkit roots, without "..". */
static int
path_ok(const char *path, size_t n, const char *const *roots)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		size_t start = i;
		while (i < n && path[i] != '/')
			i++;
		if (i - start == 2 && path[start] == '.' &&
		    path[start + 1] == '.')
			return 0;
	}
	if (n == 0 || path[0] != '/')
		return 1;
	for (k = 0; roots[k] != NULL; k++) {
		size_t rl = strlen(roots[k]);
		while (rl > 1 && roots[k][rl - 1] == '/')
			rl--;
		if (rl > 1 && n > rl && strncmp(path, roots[k], rl) == 0 &&
		    path[rl] == '/')
			return 1;
	}
	return 0;
}

/* The code with every backslash-newline removed, as translation phase 2
 * does; malloc'd. */
static char *
splice(const char *code)
{
	size_t n = strlen(code), i, o = 0;
	char *out = k_malloc(n + 1);

	for (i = 0; i < n; i++) {
		if (code[i] == '\\' && code[i + 1] == '\n') {
			i++;
			continue;
		}
		if (code[i] == '\\' && code[i + 1] == '\r' &&
		    code[i + 2] == '\n') {
			i += 2;
			continue;
		}
		out[o++] = code[i];
	}
	out[o] = '\0';
	return out;
}

/* Past spaces, tabs and comments (not newlines). */
static const char *
skip_blank(const char *p)
{
	for (;;) {
		if (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\v' ||
		    *p == '\r')
			p++;
		else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e != NULL ? e + 2 : p + strlen(p);
		} else
			return p;
	}
}

static int
ident_char(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/* The header name at p ("..." or <...>): 1 and its bounds, or 0. */
static int
header_name(const char *p, const char **b, size_t *n)
{
	char close;
	const char *e;

	if (*p != '"' && *p != '<')
		return 0;
	close = *p == '"' ? '"' : '>';
	for (e = p + 1; *e != '\0' && *e != '\n' && *e != close; e++)
		;
	if (*e != close)
		return 0;
	*b = p + 1;
	*n = (size_t)(e - p - 1);
	return 1;
}

/* Past a string or character literal starting at p (raw strings too). */
static const char *
skip_literal(const char *p, int raw)
{
	char q = *p;

	if (raw) {
		/* R"delim( ... )delim" */
		const char *open = strchr(p + 1, '(');
		char end[24];
		size_t dl;
		const char *e;
		if (open == NULL || (dl = (size_t)(open - p - 1)) > 16)
			return p + 1;
		snprintf(end, sizeof(end), ")%.*s\"", (int)dl, p + 1);
		e = strstr(open + 1, end);
		return e != NULL ? e + strlen(end) : p + strlen(p);
	}
	for (p++; *p != '\0' && *p != q && *p != '\n'; p++)
		if (*p == '\\' && p[1] != '\0')
			p++;
	return *p == q ? p + 1 : p;
}

int
include_check(const char *code, const char *const *roots, char *err,
    size_t len)
{
	static const char *const dirs[] = { "include", "include_next",
	    "import", "embed", NULL };
	char *text = splice(code);
	const char *p = text, *b;
	size_t n, line = 1, k;
	int bol = 1, bad = 0;

	while (*p != '\0' && !bad) {
		if (*p == '\n') {
			line++;
			bol = 1;
			p++;
			continue;
		}
		if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' ||
		    *p == '\v') {
			p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '/') {
			while (*p != '\0' && *p != '\n')
				p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			const char *stop = e != NULL ? e + 2 : p + strlen(p);
			for (; p < stop; p++)
				if (*p == '\n')
					line++;
			continue;
		}
		if (*p == '#' && bol) {
			const char *d = skip_blank(p + 1);
			bol = 0;
			for (k = 0; dirs[k] != NULL; k++) {
				size_t dl = strlen(dirs[k]);
				if (strncmp(d, dirs[k], dl) == 0 &&
				    !ident_char((unsigned char)d[dl]))
					break;
			}
			if (dirs[k] != NULL) {
				const char *h = skip_blank(d + strlen(dirs[k]));
				if (header_name(h, &b, &n) &&
				    !path_ok(b, n, roots)) {
					snprintf(err, len, "line %zu: #%s of "
					    "%.*s, a path outside the toolkit",
					    line, dirs[k], (int)(n > 200 ? 200 :
					    n), b);
					bad = 1;
				}
				p = h;
			} else
				p = d;
			continue;
		}
		bol = 0;
		if (*p == '"' || *p == '\'') {
			p = skip_literal(p, 0);
			continue;
		}
		if (ident_char((unsigned char)*p)) {
			const char *s = p;
			while (ident_char((unsigned char)*p))
				p++;
			/* R"(...)", u8R"(...)", LR"(...)" */
			if (*p == '"' && p[-1] == 'R' && (p - s == 1 ||
			    (p - s <= 3 && strchr("uUL8", s[0]) != NULL))) {
				p = skip_literal(p, 1);
				continue;
			}
			if ((p - s == 13 && strncmp(s, "__has_include", 13) == 0) ||
			    (p - s == 18 &&
			    strncmp(s, "__has_include_next", 18) == 0)) {
				const char *h = skip_blank(p);
				if (*h == '(' &&
				    header_name(skip_blank(h + 1), &b, &n) &&
				    !path_ok(b, n, roots)) {
					snprintf(err, len, "line %zu: "
					    "__has_include of %.*s, a path "
					    "outside the toolkit", line,
					    (int)(n > 200 ? 200 : n), b);
					bad = 1;
				}
			}
			continue;
		}
		p++;
	}
	free(text);
	return bad ? -1 : 0;
}
