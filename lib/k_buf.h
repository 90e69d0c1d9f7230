/*
 * A growable, NUL-terminated text buffer.  Zero-initialize one, append,
 * take the text with k_buf_str, release with k_buf_free.  Running out of
 * memory is fatal (K_EXIT_SYSTEM), as everywhere in kforge.
 */
#ifndef K_BUF_H
#define K_BUF_H

#include <stddef.h>

struct k_buf {
	char *s;		/* NULL until something is added */
	size_t n, cap;		/* length, allocated size */
};

void k_buf_addn(struct k_buf *b, const char *s, size_t n);
void k_buf_add(struct k_buf *b, const char *s);
void k_buf_printf(struct k_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The text so far; "" for an empty buffer, never NULL. */
const char *k_buf_str(struct k_buf *b);
void k_buf_free(struct k_buf *b);

#endif
