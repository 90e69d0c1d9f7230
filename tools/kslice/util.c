/*
 * kslice: allocation, the bounded text buffer, identifier substitution.
 */
#include "kslice.h"

struct kslice_opt opt;

void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n)) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	return p;
}

char *
xstrdup(const char *s)
{
	char *r = strdup(s);

	if (r == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	return r;
}


void
buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->full || b->n + n + 1 > MAX_TEXT) {
		b->full = 1;
		return;
	}
	if (b->n + n + 1 > b->cap) {
		while (b->n + n + 1 > b->cap)
			b->cap = b->cap ? b->cap * 2 : 4096;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

void
buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	buf_add(b, s, (size_t)n);
	free(s);
}


int
is_ident_char(int c)
{
	return c == '_' || isalnum((unsigned char)c);
}

/* s with every identifier that names a key of map replaced by its value. */
char *
subst_idents(const char *s, json_t *map)
{
	struct buf b = { 0 };
	const char *p = s, *q;

	buf_puts(&b, "");
	while (*p != '\0') {
		if (is_ident_char(*p) && !isdigit((unsigned char)*p)) {
			char name[256];
			json_t *v;
			for (q = p; is_ident_char(*q); q++)
				;
			snprintf(name, sizeof(name), "%.*s", (int)(q - p), p);
			v = (size_t)(q - p) < sizeof(name) ?
			    json_object_get(map, name) : NULL;
			if (json_is_string(v))
				buf_puts(&b, json_string_value(v));
			else
				buf_add(&b, p, q - p);
			p = q;
		} else if (isdigit((unsigned char)*p)) {
			for (q = p; is_ident_char(*q) || *q == '.'; q++)
				;
			buf_add(&b, p, q - p);
			p = q;
		} else if (*p == '"' || *p == '\'') {
			char quote = *p;
			for (q = p + 1; *q != '\0' && *q != quote; q++)
				if (*q == '\\' && q[1] != '\0')
					q++;
			if (*q != '\0')
				q++;
			buf_add(&b, p, q - p);
			p = q;
		} else
			buf_add(&b, p++, 1);
	}
	return b.s;
}
