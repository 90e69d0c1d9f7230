/*
 * kwrap: the vocabulary a spec and the harness share: role names, the
 * host types and sizes of dtypes (lib/k_dtype.c's table), and what the
 * harness calls them.
 */
#include "kwrap.h"

/*
 * The names a spec uses for roles, fills and dtypes, each beside the
 * constant harness.in gives it, so that a spec's word and the harness's
 * number are never matched up by position in two lists.
 */
/* texture kinds (texture.c) in the order of TEX_*, and the extents of
 * each: its coordinates, then its layers */
const char *const tex_kinds[] = { "", "linear", "1d", "2d", "3d",
	"1d_layered", "2d_layered", NULL };
const int tex_dims[] = { 0, 1, 1, 2, 3, 2, 3 };

int
tex_kind(const char *name)
{
	int k;

	for (k = 1; name != NULL && tex_kinds[k] != NULL; k++)
		if (strcmp(tex_kinds[k], name) == 0)
			return k;
	return TEX_NONE;
}

const struct vocab roles[] = {		/* in the order of enum role */
	{ "in", "KW_IN" }, { "out", "KW_OUT" }, { "inout", "KW_INOUT" },
	{ "scalar", NULL }, { NULL, NULL }
};

const struct vocab fill_kinds[] = {
	{ "uniform", "KW_UNIFORM" }, { "normal", "KW_NORMAL" },
	{ "int", "KW_INT" }, { "constant", "KW_CONSTANT" },
	{ "sorted", "KW_SORTED" }, { "indices", "KW_INDICES" },
	{ "sentinel", "KW_SENTINEL" }, { "offsets", "KW_OFFSETS" },
	{ "nonfinite", "KW_NONFINITE" }, { "distinct", "KW_DISTINCT" },
	{ NULL, NULL }
};

const struct vocab dtype_names[] = {
	{ "float32", "KW_F32" }, { "float64", "KW_F64" },
	{ "float16", "KW_F16" }, { "bfloat16", "KW_BF16" },
	{ "int8", "KW_I8" }, { "uint8", "KW_U8" }, { "int16", "KW_I16" },
	{ "uint16", "KW_U16" }, { "int32", "KW_I32" }, { "uint32", "KW_U32" },
	{ "int64", "KW_I64" }, { "uint64", "KW_U64" }, { "bool", "KW_BOOL" },
	{ NULL, NULL }
};

/* The entry of v named name, or NULL. */
const struct vocab *
vocab_find(const struct vocab *v, const char *name)
{
	for (; name != NULL && v->name != NULL; v++)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}

/* The harness's constant for name in v, or dflt for a name v lacks. */
const char *
vocab_harness(const struct vocab *v, const char *name, const char *dflt)
{
	const struct vocab *e = vocab_find(v, name);

	return e != NULL && e->harness != NULL ? e->harness : dflt;
}

/* The element type of a CUDA vector type (float2, int4, __half2,
 * uchar4, ...) and its lanes; NULL when name is none. */
const struct k_dtype *
vector_dtype(const char *name, int *lanes)
{
	static const struct { const char *base, *c; } v[] = {
		{ "float", "float" }, { "double", "double" }, { "int", "int" },
		{ "uint", "unsigned int" }, { "char", "signed char" },
		{ "uchar", "unsigned char" }, { "short", "short" },
		{ "ushort", "unsigned short" }, { "long", "long" },
		{ "ulong", "unsigned long" }, { "longlong", "long long" },
		{ "ulonglong", "unsigned long long" }, { "half", "half" },
		{ "__half", "half" }, { "__nv_bfloat16", "__nv_bfloat16" },
		{ NULL, NULL }
	};
	size_t l = strlen(name);
	int i;

	if (l < 2 || name[l - 1] < '1' || name[l - 1] > '4')
		return NULL;
	for (i = 0; v[i].base != NULL; i++)
		if (strlen(v[i].base) == l - 1 &&
		    strncmp(v[i].base, name, l - 1) == 0) {
			*lanes = name[l - 1] - '0';
			return k_dtype_c(v[i].c);
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


/* The entry of the dtype named exactly name (no alias), or NULL. */
static const struct k_dtype *
dtype_exact(const char *name)
{
	const struct k_dtype *d;

	for (d = k_dtypes(); d->name != NULL; d++)
		if (strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

const char *
host_type(const char *dtype)
{
	const struct k_dtype *d = dtype_exact(dtype);

	return d != NULL ? d->host : "int32_t";
}

int
dtype_size(const char *dtype)
{
	const struct k_dtype *d = dtype_exact(dtype);

	return d != NULL ? d->size : 1;
}

const char *
dtype_enum(const char *dtype)
{
	return vocab_harness(dtype_names, dtype, "KW_U8");
}
