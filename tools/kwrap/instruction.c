/*
 * kwrap: the instruction, in a detailed and a concise form.
 */
#include "kwrap.h"

/* Signature with template parameters replaced by their bindings. */
static void
bound_signature(const char *sig, json_t *instance, struct k_buf *out)
{
	const char *p = sig;

	while (*p != '\0') {
		if (isalpha((unsigned char)*p) || *p == '_') {
			const char *s = p;
			char id[128];
			json_t *b;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			snprintf(id, sizeof(id), "%.*s", (int)(p - s), s);
			b = json_is_object(instance) ? json_object_get(instance,
			    id) : NULL;
			k_buf_add(out, json_is_string(b) ? json_string_value(b) : id);
		} else {
			k_buf_addn(out, p++, 1);
		}
	}
	k_buf_str(out);
}

/* Whether buffer prm's count is in elements of its dtype and not of its
 * type as spelled (float2 *z counted in floats): the instruction says
 * which. */
static int
elements_of(json_t *prm)
{
	const struct k_dtype *dt = k_dtype_c(k_get_str(prm, "type"));
	const char *d = k_get_str(prm, "dtype");

	return k_get_str(prm, "count") != NULL && d != NULL &&
	    k_dtype_named(d) != NULL && (dt == NULL || strcmp(dt->name, d) != 0);
}

/* A buffer as the kernel names it: a struct's pointer member as p.x */
static const char *
shown_name(json_t *prm)
{
	return k_get_str(prm, "member") != NULL ? k_get_str(prm, "member") :
	    k_get_str(prm, "name");
}

json_t *
gen_instruction(json_t *rec, json_t *spec, const char *dialect)
{
	json_t *scan = json_object_get(rec, "scan");
	json_t *slice = json_object_get(rec, "slice");
	json_t *params = json_object_get(spec, "params");
	json_t *launch = json_object_get(spec, "launch");
	json_t *tags = json_object_get(slice, "tags"), *prm, *r;
	struct k_buf d = { 0 }, c = { 0 }, sig = { 0 }, ins = { 0 }, outs = { 0 };
	const char *lang = strcmp(dialect, "hip") == 0 ? "HIP" : "CUDA";
	const char *sym = k_get_str(spec, "kernel");
	size_t i;
	static const char *const tagnames[][2] = {
	    { "shared_static", "static shared memory" },
	    { "shared_dynamic", "dynamic shared memory" },
	    { "atomics", "atomic operations" },
	    { "warp_intrinsics", "warp intrinsics" },
	    { "syncthreads", "block barriers (__syncthreads)" } };

	bound_signature(k_get_str(scan, "signature") ? k_get_str(scan,
	    "signature") : "", json_object_get(slice, "instance"), &sig);
	json_array_foreach(params, i, prm) {
		const char *role = k_get_str(prm, "role");
		struct k_buf *l = role == NULL ? NULL : strcmp(role, "in") == 0 ?
		    &ins : strcmp(role, "scalar") == 0 ? NULL : &outs;
		if (l == NULL)
			continue;
		k_buf_printf(l, "%s%s (%s, %s elements%s%s)", l->n ? ", " :
		    "", shown_name(prm), k_get_str(prm, "type"),
		    k_get_str(prm, "count"), elements_of(prm) ? " of " : "",
		    elements_of(prm) ? k_get_str(prm, "dtype") : "");
	}
	k_buf_printf(&d, "Kernel: %s, a %s kernel from %s:%lld.\n\n", sym, lang,
	    k_get_str(scan, "file") ? k_get_str(scan, "file") : "?",
	    (long long)k_get_int(scan, "line", 0));
	k_buf_printf(&d, "Role: it reads %s and writes %s.\n\n",
	    ins.n ? k_buf_str(&ins) : "no buffer", outs.n ? k_buf_str(&outs) :
	    "no buffer");
	k_buf_printf(&d, "Signature:\n\n    %s\n\n", k_buf_str(&sig));
	k_buf_add(&d, "Parameters:\n\n| name | role | type | size |\n"
	    "|------|------|------|------|\n");
	json_array_foreach(params, i, prm) {
		const char *use = k_get_str(prm, "use");
		json_t *tex = json_object_get(prm, "texture"), *e;
		size_t j;
		if (json_is_object(tex)) {
			/* what the harness makes: the kernel's view of it */
			k_buf_printf(&d, "| %s | %s | %s | a %s texture of ",
			    shown_name(prm), k_get_str(prm, "role"),
			    k_get_str(prm, "type"), k_get_str(tex, "kind"));
			json_array_foreach(json_object_get(tex, "extent"), j, e)
				k_buf_printf(&d, "%s%lld", j ? " x " : "",
				    (long long)json_integer_value(e));
			k_buf_printf(&d, " texels, %lld channels of %s, %s "
			    "coordinates, clamped, point sampled |\n",
			    (long long)k_get_int(tex, "channels", 1),
			    k_get_str(prm, "dtype"), json_is_true(
			    json_object_get(tex, "normalized")) ? "normalized" :
			    "texel");
			continue;
		}
		k_buf_printf(&d, "| %s | %s | %s | %s%s%s |\n",
		    shown_name(prm), k_get_str(prm, "role"),
		    k_get_str(prm, "type"),
		    k_get_str(prm, "count") ? k_get_str(prm, "count") :
		    use != NULL && strcmp(use, "size") == 0 ? "size parameter" :
		    json_object_get(prm, "fields") ? "struct by value" :
		    "value parameter", elements_of(prm) ? " of " : "",
		    elements_of(prm) ? k_get_str(prm, "dtype") : "");
	}
	k_buf_add(&d, "\nComputation: ");
	/* kwrap --llm spec's account: a candidate sees nothing else */
	if (k_get_str(spec, "description") != NULL)
		k_buf_printf(&d, "%s ", k_get_str(spec, "description"));
	{
		int any = 0;
		for (i = 0; i < sizeof(tagnames) / sizeof(tagnames[0]); i++)
			if (json_is_true(json_object_get(tags, tagnames[i][0]))) {
				k_buf_printf(&d, "%s%s", any ? ", " : "uses ",
				    tagnames[i][1]);
				any = 1;
			}
		k_buf_add(&d, any ? ". " : "");
	}
	k_buf_add(&d, "Each output element is what the reference source assigns to it; "
	    "every output element within its size must be written.\n\n");
	{
		json_t *g = json_object_get(launch, "grid");
		json_t *b = json_object_get(launch, "block");
		char bb[3][32];
		for (i = 0; i < 3; i++)
			snprintf(bb[i], sizeof(bb[i]), "%lld",
			    (long long)json_integer_value(json_array_get(b, i)));
		k_buf_printf(&d, "Launch: grid (%s, %s, %s), block (%s, %s, %s), "
		    "%s bytes of dynamic shared memory.\n\n",
		    k_get_str(g, "0") ? "" : json_string_value(json_array_get(g, 0)),
		    json_string_value(json_array_get(g, 1)),
		    json_string_value(json_array_get(g, 2)), bb[0], bb[1], bb[2],
		    k_get_str(launch, "shared_mem"));
	}
	k_buf_add(&d, "Constraints: size parameters are at least 1; buffers hold "
	    "exactly the sizes above; the kernel must not write input "
	    "buffers nor outside the output sizes");
	r = json_object_get(json_object_get(spec, "confidence"), "overall");
	if (json_is_string(r) && strcmp(json_string_value(r), "low") == 0)
		k_buf_add(&d, "; the sizes above are partly guessed");
	if (json_array_size(json_object_get(spec, "globals")) > 0) {
		json_t *gl;
		k_buf_add(&d, "; it reads the file-scope __constant__ ");
		json_array_foreach(json_object_get(spec, "globals"), i, gl)
			k_buf_printf(&d, "%s%s %s[%s]", i ? ", " : "",
			    k_get_str(gl, "type"), k_get_str(gl, "name"),
			    k_get_str(gl, "count"));
		k_buf_add(&d, ", which the harness fills before the launch: a "
		    "candidate declares the same, by the same names");
	}
	k_buf_add(&d, ".\n");

	/* concise: the Role, Signature, Launch and Constraints lines of
	 * detailed, as one paragraph */
	k_buf_printf(&c, "Write the %s kernel %s with the signature `%s`: it reads "
	    "%s and writes %s. ", lang, sym, k_buf_str(&sig),
	    ins.n ? k_buf_str(&ins) : "no buffer", outs.n ? k_buf_str(&outs) :
	    "no buffer");
	{
		const char *l = strstr(k_buf_str(&d), "Launch: ");
		const char *e = l != NULL ? strchr(l, '\n') : NULL;
		if (l != NULL && e != NULL)
			k_buf_printf(&c, "%.*s ", (int)(e - l), l);
		l = strstr(k_buf_str(&d), "Constraints: ");
		e = l != NULL ? strchr(l, '\n') : NULL;
		if (l != NULL && e != NULL)
			k_buf_printf(&c, "%.*s", (int)(e - l), l);
	}
	r = json_pack("{s:s,s:s}", "detailed", k_buf_str(&d), "concise", k_buf_str(&c));
	k_buf_free(&d);
	k_buf_free(&c);
	k_buf_free(&sig);
	k_buf_free(&ins);
	k_buf_free(&outs);
	return r;
}
