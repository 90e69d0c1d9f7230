/*
 * kwrap: the host harness generated from a spec.
 */
#include "kwrap.h"

extern const char kwrap_harness_text[];
/* A C++ literal for a JSON value stored as dtype. */
static void
literal(struct k_buf *b, json_t *v, const char *dtype)
{
	double d = 0;
	const char *s;

	if (json_is_string(v)) {
		s = json_string_value(v);
		d = strcmp(s, "inf") == 0 ? INFINITY : strcmp(s, "-inf") == 0 ?
		    -INFINITY : strcmp(s, "nan") == 0 ? NAN : atof(s);
	} else if (json_is_boolean(v))
		d = json_is_true(v);
	else
		d = json_number_value(v);
	if (strcmp(dtype, "float16") == 0 || strcmp(dtype, "bfloat16") == 0) {
		k_buf_printf(b, "%s((float)%s)", strcmp(dtype, "float16") == 0 ?
		    "kw_f2h" : "kw_f2bf", isinf(d) ? (d > 0 ? "INFINITY" :
		    "-INFINITY") : "0");
		if (!isinf(d)) {
			b->n -= 2;
			k_buf_printf(b, "(%.17g))", d);
		}
		return;
	}
	if (isnan(d))
		k_buf_printf(b, "(%s)NAN", host_type(dtype));
	else if (isinf(d))
		k_buf_printf(b, "(%s)%sINFINITY", host_type(dtype), d < 0 ? "-" : "");
	else if (json_is_integer(v))
		k_buf_printf(b, "(%s)%lldLL", host_type(dtype),
		    (long long)json_integer_value(v));
	else
		k_buf_printf(b, "(%s)%.17g", host_type(dtype), d);
}

static void
fill_struct(struct k_buf *b, json_t *fill, json_t *params)
{
	const char *kind = k_get_str(fill, "kind");
	int of = -1;
	double a = -1, hi = 1, rate = 0;
	json_t *prm;
	size_t j, nb = 0;

	if (json_object_get(fill, "lo"))
		a = json_number_value(json_object_get(fill, "lo"));
	if (json_object_get(fill, "hi"))
		hi = json_number_value(json_object_get(fill, "hi"));
	if (json_object_get(fill, "mean"))
		a = json_number_value(json_object_get(fill, "mean"));
	if (json_object_get(fill, "stddev"))
		hi = json_number_value(json_object_get(fill, "stddev"));
	if (kind != NULL && strcmp(kind, "constant") == 0)
		a = json_number_value(json_object_get(fill, "value"));
	if (kind != NULL && strcmp(kind, "indices") == 0)
		json_array_foreach(params, j, prm) {
			if (strcmp(k_get_str(prm, "role") ? k_get_str(prm, "role") :
			    "", "scalar") == 0)
				continue;
			if (k_get_str(fill, "of") != NULL && k_get_str(prm, "name") &&
			    strcmp(k_get_str(prm, "name"), k_get_str(fill, "of")) == 0)
				of = (int)nb;
			nb++;
		}
	if (kind != NULL && strcmp(kind, "nonfinite") == 0)
		rate = json_object_get(fill, "rate") != NULL ?
		    json_number_value(json_object_get(fill, "rate")) :
		    NONFINITE_RATE;
	k_buf_printf(b, "{%s, %.17g, %.17g, %d, %.17g}", vocab_harness(
	    fill_kinds, kind, "KW_UNIFORM"), a, hi, of, rate);
}

/* Append a C string literal holding s. */
static void
c_string(struct k_buf *b, const char *s)
{
	k_buf_add(b, "\"");
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			k_buf_add(b, "\\");
		if (*s == '\n')
			k_buf_add(b, "\\n");
		else {
			k_buf_addn(b, s, 1);
		}
	}
	k_buf_add(b, "\"");
}

/* The harness's code for expression e (a string or an integer) named
 * what: the value in checked 64-bit arithmetic, each scalar parameter (or
 * struct field) it names converted to kw_n first. */
static void
harness_expr(struct k_buf *b, json_t *e, json_t *params, const char *what)
{
	struct toks t = { 0 }, out = { 0 };
	struct k_buf cell = { 0 };
	char num[32];
	const char *src = "1";
	size_t i, j;
	json_t *prm;

	if (json_is_string(e))
		src = json_string_value(e);
	else if (json_is_integer(e)) {
		snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(e));
		src = num;
	}
	tokenize(src, &t);
	for (i = 0; i < t.n; i++) {
		int scalar = 0, fields = 0;
		/* casts go: kw_n converts to no integer type */
		if (is(&t, i, "(") && i + 2 < t.n && k_dtype_c(t.v[i + 1]) &&
		    is(&t, i + 2, ")")) {
			i += 2;
			continue;
		}
		if (is(&t, i, "(") && i + 3 < t.n && k_dtype_c(t.v[i + 1]) &&
		    k_dtype_c(t.v[i + 2]) && is(&t, i + 3, ")")) {
			i += 3;
			continue;
		}
		if (is_ident(t.v[i]) && !is(&t, i - 1, ".") && !is(&t, i - 1, "->"))
			json_array_foreach(params, j, prm)
				if (k_get_str(prm, "name") != NULL &&
				    strcmp(k_get_str(prm, "name"), t.v[i]) == 0 &&
				    k_get_str(prm, "role") != NULL &&
				    strcmp(k_get_str(prm, "role"), "scalar") == 0) {
					scalar = 1;
					fields = json_object_get(prm, "fields") != NULL;
				}
		k_buf_reset(&cell);
		if (scalar && fields && is(&t, i + 1, ".") && i + 2 < t.n) {
			k_buf_printf(&cell, "kw_n(%s.%s)", t.v[i], t.v[i + 2]);
			i += 2;
		} else if (scalar && !fields)
			k_buf_printf(&cell, "kw_n(%s)", t.v[i]);
		else
			k_buf_add(&cell, t.v[i]);
		tok_push(&out, k_buf_str(&cell), cell.n);
	}
	k_buf_add(b, "kw_value(kw_n(");
	if (out.n)
		join_buf(&out, 0, out.n, b);
	else
		k_buf_add(b, "1");
	k_buf_add(b, "), ");
	c_string(b, what);
	k_buf_add(b, ", ");
	c_string(b, src);
	k_buf_add(b, ")");
	k_buf_free(&cell);
	toks_free(&out);
	toks_free(&t);
}

/* Whether C source code defines a function fn: its name, then a
 * parenthesised parameter list, then a body. */
static int
defines_function(const char *code, const char *fn)
{
	struct toks t = { 0 };
	size_t i, e;
	int found = 0;

	tokenize(code, &t);
	for (i = 0; i + 1 < t.n && !found; i++) {
		if (!is(&t, i, fn) || !is(&t, i + 1, "(") ||
		    (i > 0 && (is(&t, i - 1, ".") || is(&t, i - 1, "->"))))
			continue;
		e = skip_group(&t, i + 1);
		found = e < t.n && is(&t, e, "{");
	}
	toks_free(&t);
	return found;
}

/* Why spec's kernel cannot be given a CPU reference in its harness, or
 * NULL when it can: the reference is C, which has no half types, and its
 * signature cannot name kwrap's struct stand-ins. */
const char *
oracle_unsupported(json_t *spec)
{
	json_t *params = json_object_get(spec, "params"), *prm;
	size_t i;

	if (!json_is_array(params))
		return "the spec has no parameters";
	if (json_array_size(json_object_get(spec, "globals")) > 0)
		return "the kernel reads __constant__ memory, which the CPU "
		    "reference is not handed";
	json_array_foreach(params, i, prm) {
		const char *dt = k_get_str(prm, "dtype");
		if (json_object_get(prm, "fields") != NULL)
			return "a parameter is a struct passed by value";
		if (json_object_get(prm, "texture") != NULL)
			return "a parameter is a texture object, which C code "
			    "cannot fetch from";
		if (dt == NULL)
			return "a parameter has no known element type";
		if (strcmp(dt, "float16") == 0 || strcmp(dt, "bfloat16") == 0)
			return "a parameter is float16 or bfloat16, which C "
			    "has no type for";
	}
	return NULL;
}

/* The call of the CPU reference fn inside the generated main: buffers as
 * pointers into their host copies, scalars by value. */
static void
oracle_call(struct k_buf *b, json_t *params, const char *fn)
{
	json_t *prm;
	size_t i, nb = 0;

	k_buf_printf(b, "\tstd::function<void(kw_buf *)> kw_oracle_fn = "
	    "[&](kw_buf *kb) {\n\t\t(void)kb;\n\t\t%s(", fn);
	json_array_foreach(params, i, prm) {
		const char *role = k_get_str(prm, "role");
		if (i > 0)
			k_buf_add(b, ", ");
		if (role != NULL && strcmp(role, "scalar") != 0)
			k_buf_printf(b, "kw_anyptr{kb[%zu].host.data()}", nb++);
		else
			k_buf_add(b, k_get_str(prm, "name"));
	}
	k_buf_add(b, ");\n\t};\n");
}

/* What spec lacks for a harness, in words (static): with no cases left,
 * which were dropped and why, from confidence.guesses. */
static const char *
spec_lack(json_t *spec)
{
	static __thread char why[1024];
	json_t *g, *guesses = json_object_get(json_object_get(spec,
	    "confidence"), "guesses");
	size_t i;

	if (!json_is_array(json_object_get(spec, "params")))
		return "spec lacks params";
	if (!json_is_object(json_object_get(spec, "launch")))
		return "spec lacks launch";
	snprintf(why, sizeof(why), "spec has no cases");
	json_array_foreach(guesses, i, g) {
		const char *t = json_string_value(g);
		if (t == NULL || strstr(t, " dropped") == NULL)
			continue;
		strncat(why, strchr(why, ':') == NULL ? ": " : "; ",
		    sizeof(why) - strlen(why) - 1);
		strncat(why, t, sizeof(why) - strlen(why) - 1);
	}
	return why;
}

/* The texture of a buffer (spec texture, validated): its kind, channels,
 * extent and coordinates for kw_tex_make. */
static void
texture_fields(struct k_buf *b, json_t *tex)
{
	const char *kind = k_get_str(tex, "kind");
	json_t *e;
	size_t d;
	int kd;

	if (!json_is_object(tex) || (kd = tex_kind(kind)) == TEX_NONE)
		return;
	k_buf_printf(b, ";\n\tkw_b[kw_nb].tex = %d; kw_b[kw_nb].tex_ch = "
	    "%lld; kw_b[kw_nb].tex_norm = %d", kd, (long long)k_get_int(tex,
	    "channels", 1), json_is_true(json_object_get(tex, "normalized")));
	json_array_foreach(json_object_get(tex, "extent"), d, e)
		if (d < 3)
			k_buf_printf(b, "; kw_b[kw_nb].tex_ext[%zu] = %lldLL", d,
			    (long long)json_integer_value(e));
}

/* A struct field that is a pointer member: a buffer of its own, or
 * (use null) a null pointer the memset leaves. */
static int
field_buffer(json_t *f)
{
	const char *use = k_get_str(f, "use");

	return use != NULL && (strcmp(use, "buffer") == 0 ||
	    strcmp(use, "null") == 0);
}

/* A struct field the harness computes from its expr (an accessor's
 * stride), after the scalars. */
static int
field_derived(json_t *f)
{
	const char *use = k_get_str(f, "use");

	return use != NULL && strcmp(use, "derived") == 0;
}

/* Generate the harness for spec, in dialect; returns a malloc'd string,
 * NULL with *why set when the spec cannot give one.  oracle: C source of
 * a CPU reference named oracle_fn, compiled in for --oracle, or NULL. */
static char *
gen_harness(json_t *spec, const char *dialect, const char *id,
    const char *oracle, const char *oracle_fn, const char **why)
{
	struct k_buf b = { 0 };
	json_t *params = json_object_get(spec, "params");
	json_t *cases = json_object_get(spec, "cases");
	json_t *launch = json_object_get(spec, "launch");
	json_t *globals = json_object_get(spec, "globals");
	json_t *prm, *cs, *v;
	size_t i, j, c, nb = 0, na = 0, nc = json_array_size(cases);
	const char *key;

	if (!json_is_array(params) || !json_is_object(launch) || nc == 0) {
		*why = spec_lack(spec);
		return NULL;
	}
	k_buf_printf(&b, "// kwrap harness for %s\n#define KW_HIP %d\n", id,
	    strcmp(dialect, "hip") == 0);
	k_buf_add(&b, kwrap_harness_text);
	if (oracle != NULL) {
		/* C compiled as C++: restrict is spelled differently there */
		k_buf_add(&b, "\n// the CPU reference (wrap.reference_cpu)\n"
		    "#define restrict __restrict__\n");
		k_buf_add(&b, oracle);
		k_buf_add(&b, "\n#undef restrict\n");
	}
	k_buf_printf(&b, "\n#define KW_HAS_ORACLE %d\n", oracle != NULL);
	k_buf_printf(&b, "static const int kw_ncases = %zu;\n", nc);
	k_buf_add(&b, "static const unsigned long long kw_seeds[] = {");
	json_array_foreach(cases, c, cs)
		k_buf_printf(&b, "%s%lluULL", c ? ", " : " ", (unsigned long long)
		    json_integer_value(json_object_get(cs, "seed")));
	k_buf_add(&b, " };\nstatic const char *const kw_scalars_json[] = {\n");
	json_array_foreach(cases, c, cs) {
		char *js = json_dumps(json_object_get(cs, "scalars"),
		    JSON_COMPACT | JSON_ENSURE_ASCII);
		const char *p;
		k_buf_add(&b, "\t\"");
		for (p = js != NULL ? js : "{}"; *p != '\0'; p++) {
			if (*p == '"' || *p == '\\')
				k_buf_add(&b, "\\");
			k_buf_addn(&b, p, 1);
		}
		k_buf_add(&b, "\",\n");
		free(js);
	}
	k_buf_add(&b, "};\n");
	json_array_foreach(params, i, prm)
		if (strcmp(k_get_str(prm, "role") ? k_get_str(prm, "role") : "",
		    "scalar") != 0)
			nb++;
	nb += json_array_size(globals);
	k_buf_printf(&b, "#define KW_NB %zu\n", nb ? nb : 1);
	k_buf_add(&b, "static const kw_fill kw_fills[][KW_NB] = {\n");
	json_array_foreach(cases, c, cs) {
		json_t *fills = json_object_get(cs, "fills");
		k_buf_add(&b, "\t{ ");
		json_array_foreach(params, i, prm) {
			const char *name = k_get_str(prm, "name");
			json_t *f;
			if (strcmp(k_get_str(prm, "role") ? k_get_str(prm, "role") :
			    "", "scalar") == 0)
				continue;
			f = name != NULL ? json_object_get(fills, name) : NULL;
			fill_struct(&b, f != NULL ? f : json_object_get(prm, "fill"),
			    params);
			k_buf_add(&b, ", ");
		}
		json_array_foreach(globals, i, prm) {
			const char *name = k_get_str(prm, "name");
			json_t *f = name != NULL ? json_object_get(fills, name) :
			    NULL;
			fill_struct(&b, f != NULL ? f : json_object_get(prm, "fill"),
			    params);
			k_buf_add(&b, ", ");
		}
		if (nb == 0)
			k_buf_add(&b, "{KW_UNIFORM, 0, 0, -1}");
		k_buf_add(&b, "},\n");
	}
	k_buf_add(&b, "};\n\n");
	k_buf_add(&b,
	    "// one case: its scalars, buffers and launch, then kw_run\n"
	    "static int kw_case_main(const char **kw_pos, int kw_case)\n{\n"
	    "\tkw_overflow = 0;\n\tkw_scalar_refs.clear();\n");
	/* scalars */
	json_array_foreach(params, i, prm) {
		const char *name = k_get_str(prm, "name");
		const char *dt = k_get_str(prm, "dtype");
		json_t *fields = json_object_get(prm, "fields");
		if (name == NULL || strcmp(k_get_str(prm, "role") ?
		    k_get_str(prm, "role") : "", "scalar") != 0)
			continue;
		if (json_is_array(fields)) {
			/* at the spec's offsets: padding where a field lies
			 * past its natural place (a 16-byte aligned int4) */
			long long off = 0, want, size, al = 1;
			int npad = 0;
			k_buf_printf(&b, "\tstruct kw_struct_%s {", name);
			json_array_foreach(fields, j, v) {
				const char *fdt = k_get_str(v, "dtype");
				long long fsz = field_buffer(v) ? 8 :
				    dtype_size(fdt ? fdt : "");
				off = (off + fsz - 1) / fsz * fsz;
				want = json_is_integer(json_object_get(v,
				    "offset")) ? json_integer_value(
				    json_object_get(v, "offset")) : off;
				if (want > off)
					k_buf_printf(&b, " unsigned char "
					    "kw_pad%d[%lld];", npad++, want - off);
				if (want > off)
					off = want;
				k_buf_printf(&b, " %s %s;", field_buffer(v) ?
				    "void *" : host_type(fdt ? fdt : ""),
				    k_get_str(v, "name"));
				off += fsz;
				if (fsz > al)
					al = fsz;
			}
			size = json_integer_value(json_object_get(prm, "size"));
			if (size > (off + al - 1) / al * al)
				k_buf_printf(&b, " unsigned char kw_pad%d[%lld];",
				    npad, size - off);
			k_buf_printf(&b, " } %s;\n\tmemset(&%s, 0, sizeof(%s));\n",
			    name, name, name);
			/* the kernel's parameter has the spec's size */
			if (json_is_integer(json_object_get(prm, "size")))
				k_buf_printf(&b, "\tstatic_assert(sizeof(%s) == "
				    "%lld, \"%s: the struct's size\");\n", name,
				    (long long)json_integer_value(
				    json_object_get(prm, "size")), name);
		} else
			k_buf_printf(&b, "\t%s %s = 0;\n", host_type(dt ? dt : ""),
			    name);
	}
	k_buf_add(&b, "\tswitch (kw_case) {\n");
	json_array_foreach(cases, c, cs) {
		json_t *sc = json_object_get(cs, "scalars");
		k_buf_printf(&b, "\tcase %zu:\n", c);
		json_object_foreach(sc, key, v) {
			const char *dt = "int32";
			char base[128];
			copy(base, sizeof(base), key);
			if (strchr(base, '.') != NULL)
				*strchr(base, '.') = '\0';
			json_array_foreach(params, i, prm) {
				json_t *fields = json_object_get(prm, "fields");
				if (k_get_str(prm, "name") == NULL ||
				    strcmp(k_get_str(prm, "name"), base) != 0)
					continue;
				if (json_is_array(fields)) {
					json_t *fv;
					json_array_foreach(fields, j, fv)
						if (strcmp(k_get_str(fv, "name"),
						    key + strlen(base) + 1) == 0)
							dt = k_get_str(fv, "dtype");
				} else if (k_get_str(prm, "dtype") != NULL)
					dt = k_get_str(prm, "dtype");
			}
			k_buf_printf(&b, "\t\t%s = ", key);
			literal(&b, v, dt);
			k_buf_add(&b, ";\n");
		}
		k_buf_add(&b, "\t\tbreak;\n");
	}
	k_buf_add(&b, "\t}\n");
	/* each scalar by name: --set applies, override expressions name it */
	json_array_foreach(params, i, prm) {
		const char *name = k_get_str(prm, "name");
		const char *dt = k_get_str(prm, "dtype");
		json_t *fields = json_object_get(prm, "fields");
		if (name == NULL || strcmp(k_get_str(prm, "role") ?
		    k_get_str(prm, "role") : "", "scalar") != 0)
			continue;
		if (json_is_array(fields))
			json_array_foreach(fields, j, v) {
				const char *fn = k_get_str(v, "name");
				const char *fdt = k_get_str(v, "dtype");
				if (fn != NULL && !field_buffer(v) &&
				    !field_derived(v))
					k_buf_printf(&b, "\tkw_scalar(\"%s.%s\", "
					    "&%s.%s, %s);\n", name, fn, name, fn,
					    dtype_enum(fdt ? fdt : ""));
			}
		else
			k_buf_printf(&b, "\tkw_scalar(\"%s\", &%s, %s);\n", name,
			    name, dtype_enum(dt ? dt : ""));
	}
	k_buf_add(&b, "\tkw_scalars_done();\n");
	/* derived fields, from the scalars as --set left them */
	json_array_foreach(params, i, prm)
		json_array_foreach(json_object_get(prm, "fields"), j, v) {
			char what[160];
			if (!field_derived(v) || k_get_str(prm, "name") == NULL ||
			    k_get_str(v, "name") == NULL)
				continue;
			snprintf(what, sizeof(what), "%s.%s", k_get_str(prm,
			    "name"), k_get_str(v, "name"));
			k_buf_printf(&b, "\t%s = (%s)", what, host_type(
			    k_get_str(v, "dtype") ? k_get_str(v, "dtype") : ""));
			harness_expr(&b, json_object_get(v, "expr"), params,
			    what);
			k_buf_add(&b, ";\n");
		}
	k_buf_add(&b, "\n\tkw_buf kw_b[KW_NB]{};\n\tint kw_nb = 0;\n");
	json_array_foreach(params, i, prm) {
		const char *role = k_get_str(prm, "role");
		const char *dt = k_get_str(prm, "dtype");
		char what[160];
		if (role == NULL || strcmp(role, "scalar") == 0)
			continue;
		if (dt == NULL)
			dt = "bytes";
		k_buf_printf(&b, "\tkw_b[kw_nb].name = \"%s\"; kw_b[kw_nb].type = "
		    "\"%s\"; kw_b[kw_nb].role = %s; kw_b[kw_nb].dtype = %s; "
		    "kw_b[kw_nb].size = %d;\n\tkw_b[kw_nb].count = ",
		    k_get_str(prm, "name"), dt, vocab_harness(roles, role,
		    "KW_INOUT"), dtype_enum(dt), dtype_size(dt));
		snprintf(what, sizeof(what), "count of %s", k_get_str(prm,
		    "name"));
		harness_expr(&b, json_object_get(prm, "count"), params, what);
		/* a struct's pointer member: the struct gets its address */
		if (k_get_str(prm, "member") != NULL)
			k_buf_printf(&b, ";\n\tkw_b[kw_nb].member = &%s",
			    k_get_str(prm, "member"));
		texture_fields(&b, json_object_get(prm, "texture"));
		k_buf_add(&b, "; kw_nb++;\n");
	}
	json_array_foreach(globals, i, prm) {
		const char *dt = k_get_str(prm, "dtype");
		const char *name = k_get_str(prm, "name");
		char what[160];
		if (dt == NULL || name == NULL ||
		    !is_ident(name)) {
			*why = "a global lacks a name or a known dtype";
			k_buf_free(&b);
			return NULL;
		}
		k_buf_printf(&b, "\tkw_b[kw_nb].name = \"%s\"; kw_b[kw_nb].type = "
		    "\"%s\"; kw_b[kw_nb].role = 0; kw_b[kw_nb].global = 1; "
		    "kw_b[kw_nb].dtype = %s; kw_b[kw_nb].size = %d;\n"
		    "\tkw_b[kw_nb].count = ", name, dt, dtype_enum(dt),
		    dtype_size(dt));
		snprintf(what, sizeof(what), "count of %s", name);
		harness_expr(&b, json_object_get(prm, "count"), params, what);
		k_buf_add(&b, "; kw_nb++;\n");
	}
	{
		json_t *g = json_object_get(launch, "grid");
		json_t *bl = json_object_get(launch, "block");
		char what[16];
		k_buf_add(&b, "\tlong long kw_g[3], kw_bl[3];\n");
		for (i = 0; i < 3; i++) {
			snprintf(what, sizeof(what), "grid.%c", (int)('x' + i));
			k_buf_printf(&b, "\tkw_g[%zu] = ", i);
			harness_expr(&b, json_array_get(g, i), params, what);
			k_buf_add(&b, ";\n");
		}
		for (i = 0; i < 3; i++) {
			snprintf(what, sizeof(what), "block.%c", (int)('x' + i));
			k_buf_printf(&b, "\tkw_bl[%zu] = ", i);
			harness_expr(&b, json_array_get(bl, i), params, what);
			k_buf_add(&b, ";\n");
		}
		k_buf_add(&b, "\tlong long kw_sh = ");
		harness_expr(&b, json_object_get(launch, "shared_mem"), params,
		    "shared_mem");
		k_buf_add(&b, ";\n");
	}
	k_buf_add(&b, "\tvoid *kw_args[] = {");
	nb = 0;
	json_array_foreach(params, i, prm) {
		const char *role = k_get_str(prm, "role");
		if (k_get_str(prm, "member") != NULL)
			nb++;	/* inside its struct, not an argument */
		else if (json_object_get(prm, "texture") != NULL)
			k_buf_printf(&b, "%s(void *)&kw_b[%zu].tex_obj", na++ ?
			    ", " : " ", nb++);
		else if (role != NULL && strcmp(role, "scalar") != 0)
			k_buf_printf(&b, "%s(void *)&kw_b[%zu].dev", na++ ?
			    ", " : " ", nb++);
		else
			k_buf_printf(&b, "%s(void *)&%s", na++ ? ", " : " ",
			    k_get_str(prm, "name"));
	}
	if (na == 0)
		k_buf_add(&b, " 0");
	k_buf_add(&b, " };\n");
	if (oracle != NULL)
		oracle_call(&b, params, oracle_fn);
	k_buf_add(&b, "\treturn kw_run(kw_pos, kw_case, kw_reps, kw_b, kw_nb, kw_g, "
	    "kw_bl, kw_sh, kw_args, kw_scalars_json[kw_case], kw_seeds[kw_case], "
	    "kw_fills[kw_case], ");
	k_buf_add(&b, oracle != NULL ? "kw_oracle ? &kw_oracle_fn : NULL" : "NULL");
	k_buf_add(&b, ");\n}\n\n");
	k_buf_add(&b, "int main(int kw_argc, char **kw_argv)\n{\n"
	    "\treturn kw_main(kw_argc, kw_argv, kw_ncases, KW_HAS_ORACLE, "
	    "kw_case_main);\n}\n\n"
	    "// the entry of harness.so, built from this same file\n"
	    "extern \"C\" __attribute__((visibility(\"default\"))) int "
	    "kw_host_command(int kw_argc, char **kw_argv)\n{\n"
	    "\treturn kw_hosted(kw_argc, kw_argv, kw_ncases, KW_HAS_ORACLE, "
	    "kw_case_main);\n}\n");
	*why = NULL;
	return b.s;
}

static json_t *
harness_json(const char *dialect, const char *code, int oracle)
{
	return json_pack("{s:s,s:s,s:s,s:b}", "dialect", dialect, "code", code,
	    "build", strcmp(dialect, "hip") == 0 ?
	    "hipcc -std=c++17 -O2 harness.hip -o harness" :
	    "nvcc -std=c++17 -O2 -x c++ -cudart none harness.cu -o harness "
	    "-L$CUDA/lib64/stubs -lcuda", "oracle", oracle);
}

/*
 * Put spec's harness, and the instruction, into wrap.  A CPU reference in
 * wrap.reference_cpu (from --llm reference, or put there by hand) is
 * compiled into the harness when C can express the kernel's types;
 * reference_cpu.oracle says whether it was, and why not.  Returns -1
 * with *why set when the spec gives no harness.
 */
int
wrap_harness(json_t *rec, json_t *wrap, json_t *spec, const char *dialect,
    const char **why)
{
	json_t *ref = json_object_get(wrap, "reference_cpu");
	const char *code = k_get_str(ref, "code"), *no = NULL;
	const char *id = k_id_borrowed(rec);
	const char *name = k_get_str(json_object_get(rec, "scan"), "name");
	char fn[160];
	char *harness;

	if (json_is_object(ref)) {
		if (code == NULL || *code == '\0')
			no = "reference_cpu has no code";
		else if (name == NULL || !is_ident(name))
			no = "the kernel has no plain name to call the "
			    "reference by";
		else
			no = oracle_unsupported(spec);
		snprintf(fn, sizeof(fn), "%s_cpu", name != NULL ? name : "");
		if (no == NULL && !defines_function(code, fn))
			no = "reference_cpu does not define the function "
			    "KERNEL_cpu";
	}
	harness = gen_harness(spec, dialect, id != NULL ? id : "?",
	    ref != NULL && no == NULL ? code : NULL, fn, why);
	if (harness == NULL)
		return -1;
	if (json_is_object(ref)) {
		json_object_set_new(ref, "oracle", json_boolean(no == NULL));
		if (no != NULL)
			json_object_set_new(ref, "why", json_string(no));
		else
			json_object_del(ref, "why");
	}
	json_object_set_new(wrap, "harness", harness_json(dialect, harness,
	    ref != NULL && no == NULL));
	free(harness);
	json_object_set_new(wrap, "instruction", gen_instruction(rec, spec,
	    dialect));
	return 0;
}
