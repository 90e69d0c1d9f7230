/*
 * Element types: sizes, kinds and default tolerances, and reading
 * half, bfloat16, float and double elements as doubles.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "kverify.h"

/*
 * Default tolerances: an element passes when |got - want| <= atol + rtol *
 * |want| (numpy's allclose).  rtol is a few units in the last place of
 * each format times the growth of a reordered reduction; atol covers
 * results that cancel to about zero.
 */
static const struct dtype dtypes[] = {
	{ "float32", 4, K_FLOAT, 1e-5, 1e-4 },
	{ "float", 4, K_FLOAT, 1e-5, 1e-4 },
	{ "float64", 8, K_FLOAT, 1e-10, 1e-9 },
	{ "double", 8, K_FLOAT, 1e-10, 1e-9 },
	{ "float16", 2, K_FLOAT, 1e-3, 1e-2 },
	{ "half", 2, K_FLOAT, 1e-3, 1e-2 },
	{ "bfloat16", 2, K_FLOAT, 1e-2, 2e-2 },
	{ "int8", 1, K_INT, 0, 0 }, { "uint8", 1, K_INT, 0, 0 },
	{ "int16", 2, K_INT, 0, 0 }, { "uint16", 2, K_INT, 0, 0 },
	{ "int32", 4, K_INT, 0, 0 }, { "uint32", 4, K_INT, 0, 0 },
	{ "int", 4, K_INT, 0, 0 },
	{ "int64", 8, K_INT, 0, 0 }, { "uint64", 8, K_INT, 0, 0 },
	{ "bool", 1, K_INT, 0, 0 },
	{ NULL, 1, K_BYTES, 0, 0 }
};

const struct dtype *
dtype_of(const char *name)
{
	const struct dtype *d;

	for (d = dtypes; d->name != NULL; d++)
		if (name != NULL && strcmp(d->name, name) == 0)
			return d;
	return d;
}

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
