/*
 * kwrap: a spec checked before a harness is made from it.  A spec comes
 * from kwrap's inference, a user's --spec file or a language model, and
 * the harness compiles its names and expressions into host code, so:
 * names are C identifiers, types and dtypes are kforge's, expressions are
 * arithmetic over the spec's own names (no calls, assignments, strings),
 * and in every case the counts, the grid, the block and the shared memory
 * are within the limits of the GPUs kforge runs on (sm_90: H100, H200).
 * Each error names the field.  kbuild checks a record's spec the same way
 * before it regenerates the harness from it.
 */
#include "kwrap.h"

/* The GPUs kforge runs on (compute capability 9.0) */
#define GRID_X_MAX 2147483647LL
#define GRID_YZ_MAX 65535LL
#define BLOCK_XY_MAX 1024LL
#define BLOCK_Z_MAX 64LL
#define BLOCK_THREADS_MAX 1024LL
/* every buffer of a case together: the 80 GB of the smallest, less room
 * for the golden copies and the context */
#define BYTES_MAX (64LL << 30)
#define CASES_MAX 256
#define PARAMS_MAX 256

struct vctx {
	char *why;
	size_t len;
	json_t *params;
	json_t *globals;
};

static int
bad(struct vctx *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
bad(struct vctx *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->why, v->len, fmt, ap);
	va_end(ap);
	return -1;
}

static int
ident_ok(const char *s)
{
	size_t i;

	if (s == NULL || !(isalpha((unsigned char)s[0]) || s[0] == '_') ||
	    strlen(s) > 128)
		return 0;
	for (i = 1; s[i] != '\0'; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return 1;
}

/* A C++ type's spelling as the harness quotes it: no quote, backslash,
 * or character that would end the string or the line. */
static int
type_ok(const char *s)
{
	if (s == NULL)
		return 1;
	if (strlen(s) > 256)
		return 0;
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && strchr(" _:*&<>,.()[]",
		    *s) == NULL)
			return 0;
	return 1;
}

/* Whether name is a parameter or a global of the spec. */
static int
known_name(struct vctx *v, const char *name)
{
	json_t *p;
	size_t i;

	json_array_foreach(v->params, i, p)
		if (k_get_str(p, "name") != NULL &&
		    strcmp(k_get_str(p, "name"), name) == 0)
			return 1;
	json_array_foreach(v->globals, i, p)
		if (k_get_str(p, "name") != NULL &&
		    strcmp(k_get_str(p, "name"), name) == 0)
			return 1;
	return 0;
}

/* An expression (a string or an integer) the harness compiles: numbers,
 * the spec's names and their fields, casts to C types, and arithmetic,
 * comparison and conditional operators. */
static int
expr_ok(struct vctx *v, json_t *e, const char *field)
{
	static const char *const ops[] = { "+", "-", "*", "/", "%", "(", ")",
	    "<<", ">>", "&", "|", "^", "~", "!", "<", ">", "<=", ">=", "==",
	    "!=", "&&", "||", "?", ":", ".", NULL };
	struct toks t = { 0 };
	size_t i, k;
	int rc = 0;

	if (json_is_integer(e))
		return 0;
	if (!json_is_string(e))
		return bad(v, "%s: not an expression (a string or an integer)",
		    field);
	/* one too long is kwrap's too-long error, or was cut: its tokens
	 * are checked all the same */
	if (strchr(json_string_value(e), '#') != NULL)
		return bad(v, "%s: a preprocessor line in an expression",
		    field);
	tokenize(json_string_value(e), &t);
	for (i = 0; i < t.n && rc == 0; i++) {
		const char *s = t.v[i];
		if (isdigit((unsigned char)s[0]) || (s[0] == '.' &&
		    isdigit((unsigned char)s[1])))
			continue;
		if (is_ident(s)) {
			if (i + 1 < t.n && strcmp(t.v[i + 1], "(") == 0)
				rc = bad(v, "%s: %s(...): no calls in an "
				    "expression", field, s);
			else if (!(i > 0 && strcmp(t.v[i - 1], ".") == 0) &&
			    !known_name(v, s) && k_dtype_c(s) == NULL &&
			    strcmp(s, "unsigned") != 0 &&
			    strcmp(s, "signed") != 0 &&
			    strcmp(s, "long") != 0)
				rc = bad(v, "%s: %s is not a name of the spec",
				    field, s);
			continue;
		}
		for (k = 0; ops[k] != NULL; k++)
			if (strcmp(s, ops[k]) == 0)
				break;
		if (ops[k] == NULL)
			rc = bad(v, "%s: %s is not an operator an expression "
			    "may use", field, strcmp(s, "\"\"") == 0 ?
			    "a string" : s);
	}
	toks_free(&t);
	return rc;
}

/* Whether member (a buffer's spec.member) names a pointer member of a
 * struct parameter of params: P.F, F a field of use buffer. */
static int
member_ok(json_t *params, const char *member)
{
	char p[64], f[64];
	const char *dot = strchr(member, '.');
	json_t *prm, *fd;
	size_t i, j;

	if (dot == NULL || (size_t)(dot - member) >= sizeof(p) ||
	    strlen(dot + 1) >= sizeof(f))
		return 0;
	memcpy(p, member, (size_t)(dot - member));
	p[dot - member] = '\0';
	copy(f, sizeof(f), dot + 1);
	if (!is_ident(p) || !is_ident(f))
		return 0;
	json_array_foreach(params, i, prm) {
		if (k_get_str(prm, "name") == NULL ||
		    strcmp(k_get_str(prm, "name"), p) != 0)
			continue;
		json_array_foreach(json_object_get(prm, "fields"), j, fd)
			if (k_get_str(fd, "name") != NULL &&
			    strcmp(k_get_str(fd, "name"), f) == 0 &&
			    k_get_str(fd, "use") != NULL &&
			    strcmp(k_get_str(fd, "use"), "buffer") == 0)
				return 1;
	}
	return 0;
}

/* The names, types and expressions of params (or globals), before any
 * case is looked at. */
/*
 * A texture parameter's texture: a kind of texture.c's, an extent of
 * that many integers (each 1 to 65536; 2^27 for linear memory, as CUDA
 * allows), 1, 2 or 4 channels of a dtype a
 * texture holds (8, 16 and 32-bit integers, float16, float32), an input,
 * and a count that is the extent's texels' channels, as the harness
 * fills it.
 */
static int
texture_ok(struct vctx *v, json_t *p, const char *what, size_t i)
{
	static const char *const held[] = { "int8", "uint8", "int16",
		"uint16", "int32", "uint32", "float16", "float32", NULL };
	json_t *t = json_object_get(p, "texture"), *ext, *e;
	const char *kind = k_get_str(t, "kind"), *dt = k_get_str(p, "dtype");
	const char *role = k_get_str(p, "role"), *cnt = k_get_str(p, "count");
	long long want, ch = k_get_int(t, "channels", 0);
	size_t j, n;
	int kd;

	if (!json_is_object(t) || (kd = tex_kind(kind)) == TEX_NONE)
		return bad(v, "%s[%zu].texture.kind: not linear, 1d, 2d, 3d, "
		    "1d_layered or 2d_layered", what, i);
	if (strcmp(what, "params") != 0 || role == NULL ||
	    strcmp(role, "in") != 0)
		return bad(v, "%s[%zu].texture: a texture is a parameter whose "
		    "role is in", what, i);
	for (j = 0; held[j] != NULL && (dt == NULL || strcmp(held[j], dt) !=
	    0); j++)
		;
	if (held[j] == NULL)
		return bad(v, "%s[%zu].dtype: a texture holds 8, 16 or 32-bit "
		    "integers, float16 or float32", what, i);
	if (ch != 1 && ch != 2 && ch != 4)
		return bad(v, "%s[%zu].texture.channels: not 1, 2 or 4", what,
		    i);
	ext = json_object_get(t, "extent");
	n = json_array_size(ext);
	if (!json_is_array(ext) || n != (size_t)tex_dims[kd])
		return bad(v, "%s[%zu].texture.extent: a %s texture has %d",
		    what, i, kind, tex_dims[kd]);
	want = ch;
	json_array_foreach(ext, j, e) {
		if (!json_is_integer(e) || json_integer_value(e) < 1 ||
		    json_integer_value(e) > (kd == TEX_LINEAR ? 1 << 27 :
		    65536))
			return bad(v, "%s[%zu].texture.extent[%zu]: not an "
			    "integer from 1 to %d", what, i, j, kd ==
			    TEX_LINEAR ? 1 << 27 : 65536);
		want *= json_integer_value(e);
	}
	if (want > (1LL << 28))
		return bad(v, "%s[%zu].texture.extent: more than 2^28 "
		    "elements", what, i);
	if (cnt == NULL || strspn(cnt, "0123456789") != strlen(cnt) ||
	    strtoll(cnt, NULL, 10) != want)
		return bad(v, "%s[%zu].count: a texture's count is its "
		    "extent's texels times its channels, %lld", what, i, want);
	return 0;
}

static int
params_ok(struct vctx *v, json_t *arr, const char *what)
{
	json_t *p, *f;
	size_t i, j;
	char field[96];

	if (arr == NULL && strcmp(what, "globals") == 0)
		return 0;
	if (!json_is_array(arr))
		return bad(v, "%s: not an array", what);
	if (json_array_size(arr) > PARAMS_MAX)
		return bad(v, "%s: more than %d", what, PARAMS_MAX);
	json_array_foreach(arr, i, p) {
		const char *role = k_get_str(p, "role");
		const char *dt = k_get_str(p, "dtype");
		json_t *cnt = json_object_get(p, "count");
		if (!json_is_object(p))
			return bad(v, "%s[%zu]: not an object", what, i);
		if (!ident_ok(k_get_str(p, "name")))
			return bad(v, "%s[%zu].name: not a C identifier", what,
			    i);
		if (role != NULL && vocab_harness(roles, role, NULL) == NULL &&
		    strcmp(role, "scalar") != 0)
			return bad(v, "%s[%zu].role: %.40s is not in, out, "
			    "inout or scalar", what, i, role);
		/* "struct" and "bytes" (an element kwrap cannot type, one
		 * byte each) are the spec's own words beside the dtypes */
		if (dt != NULL && strcmp(dt, "struct") != 0 &&
		    strcmp(dt, "bytes") != 0 && k_dtype_named(dt) == NULL)
			return bad(v, "%s[%zu].dtype: %.40s is not a dtype "
			    "kforge knows", what, i, dt);
		if (!type_ok(k_get_str(p, "type")))
			return bad(v, "%s[%zu].type: not a C++ type's spelling",
			    what, i);
		if (k_get_str(p, "member") != NULL && (strcmp(what,
		    "params") != 0 || role == NULL || strcmp(role, "scalar") ==
		    0 || !member_ok(arr, k_get_str(p, "member"))))
			return bad(v, "%s[%zu].member: not P.F for a pointer "
			    "member F of a struct parameter P", what, i);
		/* a value of bytes has no size the harness could pass */
		if (dt != NULL && strcmp(dt, "bytes") == 0 && role != NULL &&
		    strcmp(role, "scalar") == 0)
			return bad(v, "%s[%zu].dtype: bytes for a scalar (%.60s "
			    "passed by value): the harness cannot build a value "
			    "of a type it does not know", what, i,
			    k_get_str(p, "type") ? k_get_str(p, "type") : "?");
		json_array_foreach(json_object_get(p, "fields"), j, f) {
			const char *fd = k_get_str(f, "dtype");
			if (!ident_ok(k_get_str(f, "name")))
				return bad(v, "%s[%zu].fields[%zu].name: not a "
				    "C identifier", what, i, j);
			if (fd != NULL && k_dtype_named(fd) == NULL)
				return bad(v, "%s[%zu].fields[%zu].dtype: "
				    "%.40s is not a dtype kforge knows", what,
				    i, j, fd);
			if (!type_ok(k_get_str(f, "type")))
				return bad(v, "%s[%zu].fields[%zu].type: not a "
				    "C++ type's spelling", what, i, j);
			/* a derived field: the harness computes its expr */
			if (k_get_str(f, "use") != NULL &&
			    strcmp(k_get_str(f, "use"), "derived") == 0) {
				snprintf(field, sizeof(field),
				    "%s[%zu].fields[%zu].expr", what, i, j);
				if (json_object_get(f, "expr") == NULL)
					return bad(v, "%s: missing for a derived "
					    "field", field);
				if (expr_ok(v, json_object_get(f, "expr"),
				    field) != 0)
					return -1;
			}
		}
		if (cnt != NULL) {
			snprintf(field, sizeof(field), "%s[%zu].count", what, i);
			if (expr_ok(v, cnt, field) != 0)
				return -1;
		}
		if (json_object_get(p, "texture") != NULL &&
		    texture_ok(v, p, what, i) != 0)
			return -1;
	}
	return 0;
}

/* Fill f of the buffer named name (field names it): a kind of the
 * vocabulary; a nonfinite one only for a float buffer (an integer has no
 * NaN or Inf) and with a rate, where it gives one, in (0, 1]. */
static int
fill_ok(struct vctx *v, json_t *f, const char *name, const char *field)
{
	const char *kind = k_get_str(f, "kind"), *dt = NULL;
	const struct k_dtype *d;
	json_t *p, *r;
	size_t i;

	if (f == NULL)
		return 0;
	if (!json_is_object(f) || vocab_find(fill_kinds, kind) == NULL)
		return bad(v, "%s: a fill needs a kind of the spec's "
		    "vocabulary", field);
	if (strcmp(kind, "nonfinite") != 0)
		return 0;
	json_array_foreach(v->params, i, p)
		if (name != NULL && k_get_str(p, "name") != NULL &&
		    strcmp(k_get_str(p, "name"), name) == 0)
			dt = k_get_str(p, "dtype");
	json_array_foreach(v->globals, i, p)
		if (name != NULL && k_get_str(p, "name") != NULL &&
		    strcmp(k_get_str(p, "name"), name) == 0)
			dt = k_get_str(p, "dtype");
	if ((d = k_dtype_named(dt)) == NULL || !d->is_float)
		return bad(v, "%s: nonfinite for %.60s, which is not a float "
		    "buffer", field, name != NULL ? name : "?");
	r = json_object_get(f, "rate");
	if (r != NULL && (!json_is_number(r) || !(json_number_value(r) > 0 &&
	    json_number_value(r) <= 1)))
		return bad(v, "%s.rate: not a number in (0, 1]", field);
	return 0;
}

/* The fills of spec: each parameter's and each case's. */
static int
fills_ok(struct vctx *v, json_t *cases)
{
	json_t *p, *cs, *f;
	size_t i, j;
	const char *key;
	char field[160];

	json_array_foreach(v->params, i, p) {
		snprintf(field, sizeof(field), "params[%zu].fill", i);
		if (fill_ok(v, json_object_get(p, "fill"), k_get_str(p, "name"),
		    field) != 0)
			return -1;
	}
	json_array_foreach(v->globals, i, p) {
		snprintf(field, sizeof(field), "globals[%zu].fill", i);
		if (fill_ok(v, json_object_get(p, "fill"), k_get_str(p, "name"),
		    field) != 0)
			return -1;
	}
	json_array_foreach(cases, j, cs)
		json_object_foreach(json_object_get(cs, "fills"), key, f) {
			snprintf(field, sizeof(field), "cases[%zu].fills.%.64s",
			    j, key);
			if (fill_ok(v, f, key, field) != 0)
				return -1;
		}
	return 0;
}

/* The value of expression e in a case, or 0 when it cannot be told here
 * (a float scalar, a name the case does not set). */
static int
value(json_t *e, const struct consts *c, long long *out)
{
	if (json_is_integer(e)) {
		*out = (long long)json_integer_value(e);
		return 1;
	}
	return json_is_string(e) && eval_str(json_string_value(e), c, out);
}

static int
range(struct vctx *v, json_t *e, const struct consts *c, long long lo,
    long long hi, const char *field, const char *cname, long long *out)
{
	long long x;

	*out = lo;
	if (e == NULL || !value(e, c, &x))
		return 0;
	*out = x;
	if (x < lo || x > hi)
		return bad(v, "%s: %lld in case %s, outside %lld to %lld",
		    field, x, cname, lo, hi);
	return 0;
}

/* One case: its scalars are numbers under C names, and what the spec's
 * expressions give for them is within the device's limits. */
static int
case_ok(struct vctx *v, json_t *spec, json_t *cs, size_t ci)
{
	json_t *sc = json_object_get(cs, "scalars"), *x, *p;
	json_t *launch = json_object_get(spec, "launch");
	struct consts c = { 0 };
	const char *key, *cname = k_get_str(cs, "name");
	char field[96], cbuf[32];
	long long g[3], b[3], n, total = 0;
	size_t i;
	int rc = 0;

	if (cname == NULL) {
		snprintf(cbuf, sizeof(cbuf), "%zu", ci);
		cname = cbuf;
	}
	if (!json_is_object(cs))
		return bad(v, "cases[%zu]: not an object", ci);
	if (sc != NULL && !json_is_object(sc))
		return bad(v, "cases[%zu].scalars: not an object", ci);
	json_object_foreach(sc, key, x) {
		/* a name, or a struct's name and field */
		const char *dot = strchr(key, '.');
		char base[130];
		if (strlen(key) > 257)
			return bad(v, "cases[%zu].scalars: a name of more than "
			    "257 bytes", ci);
		snprintf(base, sizeof(base), "%.*s", dot != NULL ?
		    (int)(dot - key) : 129, key);
		if (!ident_ok(base) || (dot != NULL && !ident_ok(dot + 1)))
			return bad(v, "cases[%zu].scalars.%.60s: not a C name",
			    ci, key);
		if (!json_is_number(x) && !json_is_boolean(x) &&
		    !(json_is_string(x) && (strcmp(json_string_value(x),
		    "inf") == 0 || strcmp(json_string_value(x), "-inf") == 0 ||
		    strcmp(json_string_value(x), "nan") == 0)))
			return bad(v, "cases[%zu].scalars.%s: not a number", ci,
			    key);
		if (json_is_integer(x))
			const_set(&c, key, (long long)json_integer_value(x));
	}
	for (i = 0; i < 3 && rc == 0; i++) {
		snprintf(field, sizeof(field), "launch.grid[%zu]", i);
		rc = range(v, json_array_get(json_object_get(launch, "grid"), i),
		    &c, 1, i == 0 ? GRID_X_MAX : GRID_YZ_MAX, field, cname,
		    &g[i]);
	}
	for (i = 0; i < 3 && rc == 0; i++) {
		snprintf(field, sizeof(field), "launch.block[%zu]", i);
		rc = range(v, json_array_get(json_object_get(launch, "block"),
		    i), &c, 1, i < 2 ? BLOCK_XY_MAX : BLOCK_Z_MAX, field, cname,
		    &b[i]);
	}
	if (rc == 0 && b[0] * b[1] * b[2] > BLOCK_THREADS_MAX)
		rc = bad(v, "launch.block: %lld threads in case %s, more than "
		    "%lld", b[0] * b[1] * b[2], cname, BLOCK_THREADS_MAX);
	if (rc == 0)
		rc = range(v, json_object_get(launch, "shared_mem"), &c, 0,
		    SHARED_MAX, "launch.shared_mem", cname, &n);
	json_array_foreach(v->params, i, p) {
		json_t *cnt = json_object_get(p, "count");
		long long es = k_get_int(p, "element_size", 1);
		if (rc != 0 || cnt == NULL)
			continue;
		snprintf(field, sizeof(field), "params[%zu].count", i);
		if ((rc = range(v, cnt, &c, 0, BYTES_MAX, field, cname,
		    &n)) != 0)
			break;
		if (es < 1 || es > 4096)
			es = 1;
		total += n * es;
		if (total > BYTES_MAX)
			rc = bad(v, "params[%zu].count: the buffers of case %s "
			    "take more than %lld GiB", i, cname,
			    BYTES_MAX >> 30);
	}
	consts_free(&c);
	return rc;
}

int
spec_validate(json_t *spec, char *why, size_t len)
{
	struct vctx v;
	json_t *launch, *cases, *cs;
	size_t i;
	char field[64];

	memset(&v, 0, sizeof(v));
	v.why = why;
	v.len = len;
	if (!json_is_object(spec))
		return bad(&v, "spec: not an object");
	v.params = json_object_get(spec, "params");
	v.globals = json_object_get(spec, "globals");
	if (params_ok(&v, v.params, "params") != 0 ||
	    params_ok(&v, v.globals, "globals") != 0)
		return -1;
	launch = json_object_get(spec, "launch");
	if (!json_is_object(launch))
		return bad(&v, "launch: not an object");
	for (i = 0; i < 3; i++) {
		json_t *gv = json_array_get(json_object_get(launch, "grid"), i);
		json_t *bv = json_array_get(json_object_get(launch, "block"), i);
		snprintf(field, sizeof(field), "launch.grid[%zu]", i);
		if (gv != NULL && expr_ok(&v, gv, field) != 0)
			return -1;
		snprintf(field, sizeof(field), "launch.block[%zu]", i);
		if (bv != NULL && expr_ok(&v, bv, field) != 0)
			return -1;
	}
	if (json_object_get(launch, "shared_mem") != NULL &&
	    expr_ok(&v, json_object_get(launch, "shared_mem"),
	    "launch.shared_mem") != 0)
		return -1;
	cases = json_object_get(spec, "cases");
	if (!json_is_array(cases))
		return bad(&v, "cases: not an array");
	if (json_array_size(cases) > CASES_MAX)
		return bad(&v, "cases: more than %d", CASES_MAX);
	{
		/* what is constant holds in any case, even with none */
		json_t *any = json_pack("{s:s}", "name", "any");
		int rc = case_ok(&v, spec, any, 0);
		json_decref(any);
		if (rc != 0)
			return -1;
	}
	json_array_foreach(cases, i, cs)
		if (case_ok(&v, spec, cs, i) != 0)
			return -1;
	return fills_ok(&v, cases);
}
