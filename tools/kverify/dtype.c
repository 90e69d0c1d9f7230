/*
 * Reading half, bfloat16, float and double elements as doubles (the
 * types themselves are lib/k_dtype's).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kverify.h"

static double
half_to_double(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v;

	if (e == 0)
		v = ldexp(m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexp(m | 0x400, e - 25);
	return (h & 0x8000) ? -v : v;
}

double
load_float(const unsigned char *p, int size, const char *name)
{
	float f;
	double d;
	uint16_t h;
	uint32_t u;

	switch (size) {
	case 8:
		memcpy(&d, p, 8);
		return d;
	case 4:
		memcpy(&f, p, 4);
		return f;
	default:
		memcpy(&h, p, 2);
		if (strcmp(name, "bfloat16") == 0) {
			u = (uint32_t)h << 16;
			memcpy(&f, &u, 4);
			return f;
		}
		return half_to_double(h);
	}
}
