/*
 * The one parser of numbers from text (options, environment variables,
 * lines other programs print): the whole string must be the number, and it
 * must lie within [min, max].  Returns 0 and sets *out, or -1 with errno
 * EINVAL (not a number: empty, trailing text, NaN) or ERANGE (outside the
 * bounds or the type); *out is left alone on failure.
 */
#ifndef K_NUM_H
#define K_NUM_H

/* An integer in base (10; 0 for C's 0x and 0 prefixes). */
int k_num_ll(const char *s, int base, long long min, long long max,
    long long *out);
/* A finite floating-point number. */
int k_num_double(const char *s, double min, double max, double *out);

#endif
