/*
 * The one vocabulary of element types: the name a spec and a golden
 * buffer carry ("float32"), the C/C++ spellings that mean it, the type the
 * harness stores it in, its size, and the tolerances kverify compares it
 * with.  The table is static; lookups return borrowed pointers into it.
 */
#ifndef K_DTYPE_H
#define K_DTYPE_H

enum k_dtype_kind { K_DT_FLOAT, K_DT_INT };

struct k_dtype {
	const char *name;	/* the spec's name: float32, int64, ... */
	const char *aliases;	/* other accepted names, |-separated */
	const char *c;		/* C/C++ spellings, |-separated */
	const char *host;	/* the harness's storage type */
	int size;		/* bytes */
	int is_float, is_signed;
	/* an element passes when |got - want| <= atol + rtol * |want|
	 * (numpy's allclose): rtol is a few units in the last place times
	 * the growth of a reordered reduction; atol covers results that
	 * cancel to about zero */
	double atol, rtol;
};

/* The dtype called name (its name or an alias: "float", "half", "int"),
 * or NULL. */
const struct k_dtype *k_dtype_named(const char *name);
/* The dtype a C/C++ type spelling ("unsigned int", "at::Half") stands
 * for, or NULL. */
const struct k_dtype *k_dtype_c(const char *spelling);
/* The table, ended by an entry whose name is NULL. */
const struct k_dtype *k_dtypes(void);

#endif
