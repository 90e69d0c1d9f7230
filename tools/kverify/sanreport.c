/*
 * compute-sanitizer memcheck's report, read into findings: what was
 * accessed (read, write, atomic; global, shared, local), how many bytes,
 * at which address, and where that lies against the nearest allocation.
 * No GPU and no state: the sizing step (fit.c) maps the findings to the
 * harness's buffers, and test/unit/test_fit.c feeds it real report text.
 *
 * The shapes read (the prefix "========= " and the indentation of the
 * detail lines are memcheck's):
 *
 *	Invalid __global__ read of size 4 bytes
 *	    at kernel(float *, int)+0x70     (or: at 0x70 in file.cu:12:kernel)
 *	    by thread (32,0,0) in block (3,0,0)
 *	    Address 0x7f2a00000400 is out of bounds
 *	    and is 1,024 bytes after the nearest allocation at 0x7f2a00000000 of size 1,024 bytes
 *	    Address 0x7f2a00000402 is misaligned
 *	    Access at 0x... / Access to 0x... (other tool versions)
 *	Program hit CUDA_ERROR_... / Warp Illegal Address / ... (not an access)
 *	ERROR SUMMARY: 51,913 errors
 *	ERROR SUMMARY: 51,909 errors were not printed. Use --print-limit ...
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kverify.h"

/* A decimal number that may carry thousands separators ("5,110,037,472");
 * *end after it.  Returns -1 when there is none or it does not fit. */
static long long
grouped(const char *s, const char **end)
{
	unsigned long long v = 0;
	int digits = 0;

	while (isdigit((unsigned char)*s) || (*s == ',' && digits > 0 &&
	    isdigit((unsigned char)s[1]))) {
		if (*s != ',') {
			if (v > (unsigned long long)(LLONG_MAX - 9) / 10)
				return -1;
			v = v * 10 + (unsigned long long)(*s - '0');
			digits++;
		}
		s++;
	}
	if (end != NULL)
		*end = s;
	return digits > 0 ? (long long)v : -1;
}

/* The first 0x... after s, into *v; 0 when there is none. */
static int
hex_after(const char *s, unsigned long long *v)
{
	const char *p = strstr(s, "0x");
	char *e;

	if (p == NULL || !isxdigit((unsigned char)p[2]))
		return 0;
	*v = strtoull(p + 2, &e, 16);
	return 1;
}

static void
san_begin(struct san_finding *f, const char *line)
{
	size_t n = strlen(line);

	memset(f, 0, sizeof(*f));
	f->size = -1;
	if (n >= sizeof(f->text))
		n = sizeof(f->text) - 1;
	memcpy(f->text, line, n);
	f->text[n] = '\0';
}

/* "Invalid __global__ read of size 4 bytes" into f; 0 when the line is
 * some other finding. */
static int
access_line(struct san_finding *f, const char *p)
{
	const char *q, *e;
	size_t n;

	if (strncmp(p, "Invalid __", 10) != 0)
		return 0;
	q = p + 10;
	n = strcspn(q, "_ ");
	if (strncmp(q + n, "__ ", 3) != 0 || n == 0 || n >= sizeof(f->space))
		return 0;
	memcpy(f->space, q, n);
	f->space[n] = '\0';
	q += n + 3;
	n = strcspn(q, " ");
	if (n == 0 || n >= sizeof(f->kind))
		return 0;
	memcpy(f->kind, q, n);
	f->kind[n] = '\0';
	if ((q = strstr(q, " of size ")) != NULL)
		f->size = grouped(q + 9, &e);
	return 1;
}

/* An indented detail line of the finding f. */
static void
san_detail(struct san_finding *f, const char *p)
{
	const char *q, *e;
	long long v;

	if ((strncmp(p, "Address 0x", 10) == 0 || strncmp(p, "Access at 0x",
	    12) == 0 || strncmp(p, "Access to 0x", 12) == 0) &&
	    !f->have_addr) {
		f->have_addr = hex_after(p, &f->addr);
		if (strstr(p, "misaligned") != NULL)
			f->misaligned = 1;
		if (strstr(p, "out of bounds") != NULL)
			f->out_of_bounds = 1;
	} else if (strncmp(p, "and is ", 7) == 0 &&
	    strstr(p, "nearest allocation at 0x") != NULL) {
		/* "and is N bytes after|before the nearest allocation at
		 * 0x... of size M bytes", or "and is inside the nearest
		 * allocation at ..." */
		if (strncmp(p + 7, "inside ", 7) != 0) {
			v = grouped(p + 7, &e);
			if (v < 0 || strncmp(e, " bytes ", 7) != 0)
				return;
			f->dist = v;
			f->rel = strncmp(e + 7, "after", 5) == 0 ? 1 :
			    strncmp(e + 7, "before", 6) == 0 ? -1 : 0;
		}
		q = strstr(p, "nearest allocation at 0x");
		f->have_alloc = hex_after(q, &f->alloc);
		if ((q = strstr(q, " of size ")) != NULL)
			f->alloc_size = grouped(q + 9, &e);
	} else if (strncmp(p, "by thread (", 11) == 0)
		snprintf(f->where, sizeof(f->where), "%s", p + 3);
}

/*
 * Read memcheck's report in text (a log that may hold the harness's own
 * lines too) into at most max findings; *n gets how many were read (more
 * findings than max are counted in *errors only), *errors the count of
 * "ERROR SUMMARY" (-1 when the report has none: the tool did not finish).
 */
void
san_parse(const char *text, struct san_finding *out, size_t max, size_t *n,
    long *errors)
{
	const char *line = text, *nl, *p;
	char buf[1024];
	struct san_finding *cur = NULL;
	size_t len;

	*n = 0;
	*errors = -1;
	while (line != NULL && *line != '\0') {
		nl = strchr(line, '\n');
		len = nl != NULL ? (size_t)(nl - line) : strlen(line);
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, line, len);
		buf[len] = '\0';
		if (len > 0 && buf[len - 1] == '\r')
			buf[--len] = '\0';
		line = nl != NULL ? nl + 1 : NULL;
		if (strncmp(buf, "========= ", 10) != 0)
			continue;
		p = buf + 10;
		if (*p == ' ') {
			/* a detail line: "=========     Address ..." */
			while (*p == ' ')
				p++;
			if (cur != NULL)
				san_detail(cur, p);
			continue;
		}
		cur = NULL;
		/* the tool's own status lines are not findings */
		if (*p == '\0' || strncmp(p, "COMPUTE-SANITIZER", 17) == 0 ||
		    strncmp(p, "LEAK SUMMARY", 12) == 0 ||
		    strncmp(p, "Target application", 18) == 0 ||
		    strncmp(p, "Error: ", 7) == 0)
			continue;
		if (strncmp(p, "ERROR SUMMARY: ", 15) == 0) {
			/* the count, not the line after it that says how
			 * many of them "were not printed" */
			long long v = grouped(p + 15, NULL);
			if (v >= 0 && strstr(p, "not printed") == NULL)
				*errors = v > LONG_MAX ? LONG_MAX : (long)v;
			continue;
		}
		if (*n >= max)
			continue;
		cur = &out[(*n)++];
		san_begin(cur, p);
		if (!access_line(cur, p))
			snprintf(cur->kind, sizeof(cur->kind), "other");
	}
}

/*
 * The bytes from the start of the allocation f names (or base, the start
 * of a buffer the caller mapped it to) to the end of the access: what
 * that buffer must hold.  -1 when the finding gives no such extent (no
 * address, an access before the buffer, no size).
 */
long long
san_need(const struct san_finding *f, unsigned long long base)
{
	if (!f->have_addr || f->size < 0 || f->addr < base)
		return -1;
	if (f->addr - base > (unsigned long long)LLONG_MAX - (unsigned long long)f->size)
		return -1;
	return (long long)(f->addr - base) + f->size;
}
