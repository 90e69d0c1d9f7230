/*
 * kverify's small helpers: the tails of files,
 * JSON numbers and the harness's checksum.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kverify.h"

/* The last max bytes of a file, as a JSON string. */
json_t *
tail_of(const char *path, size_t max)
{
	size_t len;
	unsigned char *b = (unsigned char *)k_file_read(path, 1UL << 26,
	    &len);
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
