/* The one table of element types (see k_dtype.h). */
#include <string.h>

#include "k_dtype.h"

static const struct k_dtype table[] = {
	{ "float32", "float", "float", "float", 4, 1, 1, 1e-5, 1e-4 },
	{ "float64", "double", "double", "double", 8, 1, 1, 1e-10, 1e-9 },
	{ "float16", "half", "half|__half|at::Half|c10::Half", "uint16_t", 2,
	  1, 1, 1e-3, 1e-2 },
	{ "bfloat16", "", "__nv_bfloat16|nv_bfloat16|hip_bfloat16|bfloat16|"
	  "at::BFloat16|c10::BFloat16", "uint16_t", 2, 1, 1, 1e-2, 2e-2 },
	{ "int8", "", "signed char|int8_t", "int8_t", 1, 0, 1, 0, 0 },
	{ "uint8", "", "char|unsigned char|uint8_t", "uint8_t", 1, 0, 0, 0,
	  0 },
	{ "int16", "", "short|int16_t", "int16_t", 2, 0, 1, 0, 0 },
	{ "uint16", "", "unsigned short|uint16_t", "uint16_t", 2, 0, 0, 0,
	  0 },
	{ "int32", "int", "int|int32_t|signed|signed int", "int32_t", 4, 0, 1,
	  0, 0 },
	{ "uint32", "", "unsigned|unsigned int|uint32_t|uint", "uint32_t", 4,
	  0, 0, 0, 0 },
	{ "int64", "", "long|long int|long long|long long int|int64_t|"
	  "ptrdiff_t|index_t|int64", "int64_t", 8, 0, 1, 0, 0 },
	{ "uint64", "", "unsigned long|unsigned long long|uint64_t|size_t",
	  "uint64_t", 8, 0, 0, 0, 0 },
	{ "bool", "", "bool", "bool", 1, 0, 0, 0, 0 },
	{ NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0 }
};

/* Whether word is one of the |-separated words of list. */
static int
in_list(const char *list, const char *word)
{
	size_t l = strlen(word), n;

	while (*list != '\0') {
		n = strcspn(list, "|");
		if (n == l && strncmp(list, word, n) == 0)
			return 1;
		list += n;
		if (*list == '|')
			list++;
	}
	return 0;
}

const struct k_dtype *
k_dtype_named(const char *name)
{
	const struct k_dtype *d;

	if (name == NULL)
		return NULL;
	for (d = table; d->name != NULL; d++)
		if (strcmp(d->name, name) == 0 || in_list(d->aliases, name))
			return d;
	return NULL;
}

const struct k_dtype *
k_dtype_c(const char *spelling)
{
	const struct k_dtype *d;

	if (spelling == NULL)
		return NULL;
	for (d = table; d->name != NULL; d++)
		if (in_list(d->c, spelling))
			return d;
	return NULL;
}

const struct k_dtype *
k_dtypes(void)
{
	return table;
}
