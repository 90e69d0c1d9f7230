/* The growable text buffer the tools build harnesses, prompts, slices and
 * reports in (see k_buf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k_buf.h"
#include "k_mem.h"

static size_t
limit(const struct k_buf *b)
{
	return b->max ? b->max : K_BUF_MAX_DEFAULT;
}

/* Room for add more bytes and the NUL; -1 (and full) past the maximum. */
static int
grow(struct k_buf *b, size_t add)
{
	size_t cap;

	if (b->full || add > limit(b) - b->n) {
		b->full = 1;
		return -1;
	}
	if (b->n + add + 1 <= b->cap)
		return 0;
	for (cap = b->cap ? b->cap : 1024; b->n + add + 1 > cap; cap *= 2)
		;
	if (cap > limit(b) + 1)
		cap = limit(b) + 1;
	b->s = k_realloc(b->s, cap);
	b->cap = cap;
	return 0;
}

int
k_buf_addn(struct k_buf *b, const char *s, size_t n)
{
	if (grow(b, n) != 0)
		return -1;
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
	return 0;
}

int
k_buf_add(struct k_buf *b, const char *s)
{
	return k_buf_addn(b, s, strlen(s));
}

int
k_buf_printf(struct k_buf *b, const char *fmt, ...)
{
	va_list ap;
	char probe[1];
	int n;

	/* a one-byte buffer, not NULL: gcc's -Wformat-truncation under the
	 * sanitizers takes a NULL destination for an error */
	va_start(ap, fmt);
	n = vsnprintf(probe, sizeof(probe), fmt, ap);
	va_end(ap);
	if (n < 0)
		k_oom();
	if (grow(b, (size_t)n) != 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
	return 0;
}

int
k_buf_full(const struct k_buf *b)
{
	return b->full;
}

const char *
k_buf_str(struct k_buf *b)
{
	if (b->s == NULL)
		return "";
	/* a caller that shortened n by hand gets the shorter text */
	b->s[b->n] = '\0';
	return b->s;
}

char *
k_buf_take(struct k_buf *b)
{
	char *s = b->s != NULL ? b->s : k_strdup("");
	size_t max = b->max;

	memset(b, 0, sizeof(*b));
	b->max = max;
	return s;
}

void
k_buf_reset(struct k_buf *b)
{
	b->n = 0;
	b->full = 0;
	if (b->s != NULL)
		b->s[0] = '\0';
}

void
k_buf_free(struct k_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}
