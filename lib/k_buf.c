/* The growable text buffer the tools build harnesses, prompts and reports
 * in (see k_buf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k_buf.h"
#include "k_exit.h"
#include "k_msg.h"

/* Room for add more bytes and the NUL. */
static void
grow(struct k_buf *b, size_t add)
{
	if (b->n + add + 1 <= b->cap)
		return;
	while (b->n + add + 1 > b->cap)
		b->cap = b->cap ? b->cap * 2 : 1024;
	if ((b->s = realloc(b->s, b->cap)) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
}

void
k_buf_addn(struct k_buf *b, const char *s, size_t n)
{
	grow(b, n);
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

void
k_buf_add(struct k_buf *b, const char *s)
{
	k_buf_addn(b, s, strlen(s));
}

void
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
		return;
	grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
}

const char *
k_buf_str(struct k_buf *b)
{
	grow(b, 0);
	b->s[b->n] = '\0';
	return b->s;
}

void
k_buf_free(struct k_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}
