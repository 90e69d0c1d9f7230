/*
 * kwrap: the dtype table: C spellings, dtype names, host types, sizes,
 * and the names of roles.
 */
#include "kwrap.h"

const char *const role_names[] = { "in", "out", "inout", "scalar" };

static const struct dtype dtypes[] = {
	{ "float", "float32", "float", 4, 1, 1 },
	{ "double", "float64", "double", 8, 1, 1 },
	{ "half|__half|at::Half|c10::Half", "float16", "uint16_t", 2, 1, 1 },
	{ "__nv_bfloat16|nv_bfloat16|hip_bfloat16|bfloat16|at::BFloat16|"
	  "c10::BFloat16", "bfloat16", "uint16_t", 2, 1, 1 },
	{ "signed char|int8_t", "int8", "int8_t", 1, 0, 1 },
	{ "char|unsigned char|uint8_t", "uint8", "uint8_t", 1, 0, 0 },
	{ "short|int16_t", "int16", "int16_t", 2, 0, 1 },
	{ "unsigned short|uint16_t", "uint16", "uint16_t", 2, 0, 0 },
	{ "int|int32_t|signed|signed int", "int32", "int32_t", 4, 0, 1 },
	{ "unsigned|unsigned int|uint32_t|uint", "uint32", "uint32_t", 4, 0,
	  0 },
	{ "long|long int|long long|long long int|int64_t|ptrdiff_t|"
	  "index_t|int64", "int64", "int64_t", 8, 0, 1 },
	{ "unsigned long|unsigned long long|uint64_t|size_t", "uint64",
	  "uint64_t", 8, 0, 0 },
	{ "bool", "bool", "bool", 1, 0, 0 },
	{ NULL, NULL, NULL, 0, 0, 0 }
};

const struct dtype *
find_dtype(const char *type)
{
	size_t i, l = strlen(type);

	for (i = 0; dtypes[i].c != NULL; i++) {
		const char *p = dtypes[i].c;
		while (*p != '\0') {
			size_t n = strcspn(p, "|");
			if (n == l && strncmp(p, type, n) == 0)
				return &dtypes[i];
			p += n;
			if (*p == '|')
				p++;
		}
	}
	return NULL;
}

/* The base type of a spelled type: qualifiers, pointers and
 * __restrict__ dropped, template parameters replaced by their binding. */
void
base_type(const char *spelled, json_t *instance, char *out, size_t cap)
{
	struct toks t = { 0 };
	struct k_buf sb = { 0 };
	size_t i;

	tokenize(spelled, &t);
	for (i = 0; i < t.n; i++) {
		const char *s = t.v[i];
		json_t *b;
		if (strcmp(s, "const") == 0 || strcmp(s, "volatile") == 0 ||
		    strcmp(s, "__restrict__") == 0 ||
		    strcmp(s, "__restrict") == 0 || strcmp(s, "restrict") == 0 ||
		    strcmp(s, "*") == 0 || strcmp(s, "&") == 0 ||
		    strcmp(s, "struct") == 0 || strcmp(s, "typename") == 0)
			continue;
		if (sb.n && strcmp(s, "::") != 0 &&
		    sb.s[sb.n - 1] != ':')
			k_buf_add(&sb, " ");
		b = json_is_object(instance) ? json_object_get(instance, s) :
		    NULL;
		k_buf_add(&sb, json_is_string(b) ? json_string_value(b) : s);
	}
	copy(out, cap, sb.n ? k_buf_str(&sb) : "");
	k_buf_free(&sb);
	toks_free(&t);
}


const char *
host_type(const char *dtype)
{
	size_t i;

	for (i = 0; dtypes[i].c != NULL; i++)
		if (strcmp(dtypes[i].dtype, dtype) == 0)
			return dtypes[i].host;
	return "int32_t";
}

int
dtype_size(const char *dtype)
{
	size_t i;

	for (i = 0; dtypes[i].c != NULL; i++)
		if (strcmp(dtypes[i].dtype, dtype) == 0)
			return dtypes[i].size;
	return 1;
}

const char *
dtype_enum(const char *dtype)
{
	static const char *const map[][2] = { { "float32", "KW_F32" },
	    { "float64", "KW_F64" }, { "float16", "KW_F16" },
	    { "bfloat16", "KW_BF16" }, { "int8", "KW_I8" }, { "uint8", "KW_U8" },
	    { "int16", "KW_I16" }, { "uint16", "KW_U16" },
	    { "int32", "KW_I32" }, { "uint32", "KW_U32" },
	    { "int64", "KW_I64" }, { "uint64", "KW_U64" },
	    { "bool", "KW_BOOL" } };
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(map[i][0], dtype) == 0)
			return map[i][1];
	return "KW_U8";
}
