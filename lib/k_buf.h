/*
 * A growable, NUL-terminated text buffer with a maximum size.  Zero-
 * initialize one (or set max first), append, take the text with k_buf_str,
 * release with k_buf_free.  An append that would pass the maximum adds
 * nothing and marks the buffer full: from then on every append is refused,
 * so the text is never silently cut in the middle; the caller asks
 * k_buf_full and reports the error.  Running out of memory is fatal
 * (K_EXIT_SYSTEM), as everywhere in kforge.
 */
#ifndef K_BUF_H
#define K_BUF_H

#include <stddef.h>

/* The maximum of a buffer whose max is 0. */
#define K_BUF_MAX_DEFAULT (256UL * 1024 * 1024)

struct k_buf {
	char *s;		/* NULL until something is added */
	size_t n, cap;		/* length, allocated size */
	size_t max;		/* longest text; 0: K_BUF_MAX_DEFAULT */
	int full;		/* an append was refused */
};

/* Appends return 0, or -1 when the buffer is (now) full. */
int k_buf_addn(struct k_buf *b, const char *s, size_t n);
int k_buf_add(struct k_buf *b, const char *s);
int k_buf_printf(struct k_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Non-zero when an append was refused for the maximum. */
int k_buf_full(const struct k_buf *b);
/* The text so far; "" for an empty buffer, never NULL. */
const char *k_buf_str(struct k_buf *b);
/* The text in memory the caller frees (never NULL); b is left empty. */
char *k_buf_take(struct k_buf *b);
/* Forget the text but keep the memory, the maximum and nothing else. */
void k_buf_reset(struct k_buf *b);
void k_buf_free(struct k_buf *b);

#endif
