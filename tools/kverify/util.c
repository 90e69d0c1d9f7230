/*
 * kverify's small helpers: the clock, whole files and their tails,
 * JSON numbers and the harness's checksum.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kverify.h"

double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A whole file in a malloc'd buffer (NUL added, not counted); max bounds
 * it.  NULL when unreadable or larger than max. */
unsigned char *
read_file(const char *path, size_t max, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, got;

	*len = 0;
	if (fp == NULL)
		return NULL;
	for (;;) {
		if (n == cap) {
			unsigned char *nb;
			if (cap > max)
				break;
			cap = cap ? cap * 2 : 65536;
			if ((nb = realloc(buf, cap + 1)) == NULL)
				break;
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(fp) || !feof(fp) || n > max) {
		fclose(fp);
		free(buf);
		return NULL;
	}
	fclose(fp);
	if (buf == NULL && (buf = malloc(1)) == NULL)
		return NULL;
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The last max bytes of a file, as a JSON string. */
json_t *
tail_of(const char *path, size_t max)
{
	size_t len;
	unsigned char *b = read_file(path, 1UL << 26, &len);
	json_t *s;

	if (b == NULL)
		return json_string("");
	s = len > max ? k_string_lossy((char *)b + len - max, max) :
	    k_string_lossy((char *)b, len);
	free(b);
	return s;
}

/* A finite number, or null: JSON has no NaN or infinity. */
json_t *
jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *
jround(double v, double unit)
{
	return isfinite(v) ? json_real(round(v / unit) * unit) : json_null();
}

/* FNV-1a 64, as the harness writes its checksums. */
void
fnv_hex(const unsigned char *p, size_t n, char out[17])
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}
