/* The one parser of numbers from text (see k_num.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "k_num.h"

int
k_num_ll(const char *s, int base, long long min, long long max,
    long long *out)
{
	char *end;
	long long v;

	/* strtoll skips leading blanks: a value with them was not typed as
	 * a number */
	if (s == NULL || *s == '\0' || isspace((unsigned char)*s)) {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoll(s, &end, base);
	if (*end != '\0') {
		errno = EINVAL;
		return -1;
	}
	if (errno == ERANGE || v < min || v > max) {
		errno = ERANGE;
		return -1;
	}
	*out = v;
	return 0;
}

int
k_num_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (s == NULL || *s == '\0' || isspace((unsigned char)*s)) {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtod(s, &end);
	if (*end != '\0' || isnan(v)) {
		errno = EINVAL;
		return -1;
	}
	if (errno == ERANGE || !isfinite(v) || v < min || v > max) {
		errno = ERANGE;
		return -1;
	}
	*out = v;
	return 0;
}
