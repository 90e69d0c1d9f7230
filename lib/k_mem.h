/*
 * Allocation that never returns NULL: running out of memory is fatal
 * (K_EXIT_SYSTEM, "out of memory") everywhere in kforge, so callers need
 * no check of their own.  What these return is owned by the caller and
 * released with free.
 */
#ifndef K_MEM_H
#define K_MEM_H

#include <stddef.h>

void *k_malloc(size_t n);
/* Zeroed n * size bytes; an overflowing product is out of memory too. */
void *k_calloc(size_t n, size_t size);
void *k_realloc(void *p, size_t n);
/* p resized to n * size bytes, the product checked for overflow. */
void *k_reallocarray(void *p, size_t n, size_t size);
char *k_strdup(const char *s);
/* At most n bytes of s, NUL-terminated. */
char *k_strndup(const char *s, size_t n);
/* A formatted string. */
char *k_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Report running out of memory and exit (K_EXIT_SYSTEM). */
void k_oom(void) __attribute__((noreturn));

#endif
