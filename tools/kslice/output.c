/*
 * kslice: what a slice record says besides its code: namespaces and
 * stubs in the emitted text, tags, the launch configuration.
 */
#include "kslice.h"

void
switch_ns(struct k_buf *b, const char *from, const char *to)
{
	size_t common = 0, i;
	const char *p;

	if (strcmp(from, to) == 0)
		return;
	/* length of the common prefix, in whole names */
	for (i = 0;; i++) {
		if ((from[i] == '\0' || (from[i] == ':' && from[i + 1] == ':')) &&
		    (to[i] == '\0' || (to[i] == ':' && to[i + 1] == ':')))
			common = i;
		if (from[i] == '\0' || to[i] == '\0' || from[i] != to[i])
			break;
	}
	/* one brace per name left in from */
	p = from + common;
	while (*p == ':')
		p++;
	if (*p != '\0')
		k_buf_add(b, "}\n");
	for (; *p != '\0'; p++)
		if (*p == ':' && p[1] == ':') {
			k_buf_add(b, "}\n");
			p++;
		}
	p = to + common;
	while (*p == ':')
		p++;
	while (*p != '\0') {
		const char *e = strstr(p, "::");
		size_t n = e != NULL ? (size_t)(e - p) : strlen(p);
		if (n == 11 && strncmp(p, "(anonymous)", 11) == 0)
			k_buf_add(b, "namespace {\n");
		else
			k_buf_printf(b, "namespace %.*s {\n", (int)n, p);
		p += n;
		while (*p == ':')
			p++;
	}
}

/* A stub's text without its #include "..." lines: the project headers it
 * names are sliced, the stubs it names are inlined on their own. */
void
emit_stub(struct k_buf *b, struct item *it)
{
	const char *s = it->fi->text, *e = s + it->fi->size, *nl;

	k_buf_printf(b, "/* stub: %s */\n", it->name);
	while (s < e) {
		const char *t = s;
		nl = memchr(s, '\n', e - s);
		nl = nl != NULL ? nl + 1 : e;
		while (t < nl && (*t == ' ' || *t == '\t'))
			t++;
		if (t < nl && *t == '#') {
			t++;
			while (t < nl && (*t == ' ' || *t == '\t'))
				t++;
			if (nl - t > 7 && strncmp(t, "include", 7) == 0) {
				t += 7;
				while (t < nl && (*t == ' ' || *t == '\t'))
					t++;
				if (*t == '"') {
					s = nl;
					continue;
				}
			}
		}
		k_buf_addn(b, s, nl - s);
		s = nl;
	}
	if (it->fi->size > 0 && it->fi->text[it->fi->size - 1] != '\n')
		k_buf_add(b, "\n");
}

static int
has_word(const char *code, const char *w)
{
	const char *p = code;
	size_t n = strlen(w);

	while ((p = strstr(p, w)) != NULL) {
		if ((p == code || !is_ident_char(p[-1])) &&
		    !is_ident_char(p[n]))
			return 1;
		p += n;
	}
	return 0;
}

static int
has_prefix_word(const char *code, const char *w)
{
	const char *p = code;
	size_t n = strlen(w);

	while ((p = strstr(p, w)) != NULL) {
		if (p == code || !is_ident_char(p[-1]))
			return 1;
		p += n;
	}
	return 0;
}

json_t *
tags_json(const char *code, size_t lines, size_t ndeps)
{
	json_t *t = json_object();
	const char *ext = strstr(code, "extern __shared__");

	json_object_set_new(t, "lines", json_integer((json_int_t)lines));
	json_object_set_new(t, "deps", json_integer((json_int_t)ndeps));
	json_object_set_new(t, "shared_static", json_boolean(
	    has_word(code, "__shared__") && (ext == NULL ||
	    strstr(code, "__shared__") != ext + 7 ||
	    strstr(ext + 1, "__shared__") != NULL)));
	json_object_set_new(t, "shared_dynamic", json_boolean(ext != NULL));
	json_object_set_new(t, "atomics", json_boolean(
	    has_prefix_word(code, "atomic") ||
	    has_prefix_word(code, "gpuAtomic")));
	json_object_set_new(t, "warp_intrinsics", json_boolean(
	    has_prefix_word(code, "__shfl") ||
	    has_prefix_word(code, "__ballot") ||
	    has_word(code, "__any_sync") || has_word(code, "__all_sync") ||
	    has_word(code, "__activemask") ||
	    has_prefix_word(code, "__reduce_")));
	json_object_set_new(t, "syncthreads", json_boolean(
	    has_prefix_word(code, "__syncthreads") ||
	    has_word(code, "__syncwarp")));
	json_object_set_new(t, "textures", json_boolean(
	    has_prefix_word(code, "tex1D") || has_prefix_word(code, "tex2D") ||
	    has_prefix_word(code, "tex3D") ||
	    has_word(code, "cudaTextureObject_t") ||
	    has_word(code, "texture")));
	json_object_set_new(t, "surfaces", json_boolean(
	    has_prefix_word(code, "surf1D") ||
	    has_prefix_word(code, "surf2D") ||
	    has_word(code, "cudaSurfaceObject_t")));
	json_object_set_new(t, "cooperative_groups", json_boolean(
	    has_word(code, "cooperative_groups")));
	json_object_set_new(t, "dynamic_parallelism", json_boolean(
	    strstr(code, "<<<") != NULL));
	json_object_set_new(t, "printf", json_boolean(has_word(code,
	    "printf")));
	json_object_set_new(t, "launch_bounds", json_boolean(
	    has_word(code, "__launch_bounds__")));
	return t;
}

/* The launch configuration over the kernel's parameters: launcher names
 * passed as arguments become the parameters they are passed as. */
json_t *
launch_json(json_t *scan, json_t *inst)
{
	json_t *launches = json_object_get(scan, "launches"), *l, *use = NULL;
	json_t *params = json_object_get(scan, "params"), *map, *o, *a;
	static const char *fields[] = { "grid", "block", "shared_mem",
	    "stream", NULL };
	size_t i;
	int f;

	/* the first launch that binds this instance, else the first */
	json_array_foreach(launches, i, l) {
		json_t *ta = json_object_get(l, "template_args"), *tp;
		size_t j;
		int match = 1;
		json_array_foreach(json_object_get(scan, "template_params"), j,
		    tp) {
			const char *v = k_get_str(inst, k_get_str(tp, "name"));
			const char *s = json_string_value(json_array_get(ta, j));
			if (s == NULL || v == NULL || strcmp(s, v) != 0)
				match = 0;
		}
		if (match) {
			use = l;
			break;
		}
	}
	if (use == NULL)
		use = json_array_get(launches, 0);
	if (use == NULL)
		return json_null();
	map = json_object();
	json_array_foreach(json_object_get(use, "args"), i, a) {
		const char *s = json_string_value(a);
		const char *pn = k_get_str(json_array_get(params, i), "name");
		const char *q;
		int ident = s != NULL && s[0] != '\0' &&
		    !isdigit((unsigned char)s[0]);
		for (q = s; ident && *q != '\0'; q++)
			if (!is_ident_char(*q))
				ident = 0;
		if (ident && pn != NULL && pn[0] != '\0' &&
		    json_object_get(map, s) == NULL)
			json_object_set_new(map, s, json_string(pn));
	}
	o = json_object();
	for (f = 0; fields[f] != NULL; f++) {
		const char *s = json_string_value(json_object_get(use,
		    fields[f]));
		char *r;
		if (s == NULL) {
			json_object_set_new(o, fields[f], json_null());
			continue;
		}
		r = subst_idents(s, map);
		json_object_set_new(o, fields[f], json_string(r));
		free(r);
	}
	{
		char *from;
		const char *file = k_get_str(use, "file");
		from = k_asprintf("%s:%lld", file != NULL ? file : "?",
		    (long long)k_get_int(use, "line", 0));
		json_object_set_new(o, "from", json_string(from));
		free(from);
	}
	json_decref(map);
	return o;
}
