/* Allocation that never returns NULL (see k_mem.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k_exit.h"
#include "k_mem.h"
#include "k_msg.h"

void
k_oom(void)
{
	k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
}

void *
k_malloc(size_t n)
{
	void *p;

	/* malloc(0) may return NULL: ask for one byte so NULL means failure */
	if ((p = malloc(n ? n : 1)) == NULL)
		k_oom();
	return p;
}

void *
k_calloc(size_t n, size_t size)
{
	void *p;

	if (n == 0 || size == 0)
		n = size = 1;
	if ((p = calloc(n, size)) == NULL)
		k_oom();
	return p;
}

void *
k_realloc(void *p, size_t n)
{
	if ((p = realloc(p, n ? n : 1)) == NULL)
		k_oom();
	return p;
}

void *
k_reallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		k_oom();
	return k_realloc(p, n * size);
}

char *
k_strdup(const char *s)
{
	return k_strndup(s, strlen(s));
}

char *
k_strndup(const char *s, size_t n)
{
	char *r;

	n = strnlen(s, n);
	r = k_malloc(n + 1);
	memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

char *
k_asprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		k_oom();
	return s;
}
