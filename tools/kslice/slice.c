/*
 * kslice: the per-record function: a kernel record in, one slice record
 * per instantiation out.
 */
#include <dirent.h>

#include "kslice.h"


static void
free_closure(struct closure *cl)
{
	size_t i;

	for (i = 0; i < cl->n; i++) {
		free(cl->v[i].name);
		free(cl->v[i].ns);
	}
	free(cl->v);
	k_strv_free(&cl->missing);
	memset(cl, 0, sizeof(*cl));
}

static void
slicer_free(struct slicer *s)
{
	free_closure(&s->cl);
	json_decref(s->deps);
	json_decref(s->stubs);
	json_decref(s->writes);
	json_decref(s->reads);
	json_decref(s->guessed);
	json_decref(s->resolved);
	json_decref(s->classes);
	json_decref(s->explicit);
	json_decref(s->features);
	k_strv_free(&s->includes);
	free(s->body);
	free(s->own);
	free(s->ns);
}

/* Standard headers a slice may need of its own: a name (after "std::"
 * where std is set, else bare) and the headers that declare it, the
 * first of which is the one to include; cuda: for CUDA slices alone. */
static const struct {
	const char *name;
	int std;
	const char *hdr[3];
	int cuda;
} std_names[] = {
	{ "int8_t", 0, { "<cstdint>", "<stdint.h>", "<inttypes.h>" }, 0 },
	{ "uint8_t", 0, { "<cstdint>", "<stdint.h>", "<inttypes.h>" }, 0 },
	{ "int16_t", 0, { "<cstdint>", "<stdint.h>", "<inttypes.h>" }, 0 },
	{ "uint16_t", 0, { "<cstdint>", "<stdint.h>", "<inttypes.h>" }, 0 },
	{ "int32_t", 0, { "<cstdint>", "<stdint.h>", "<inttypes.h>" }, 0 },
	{ "uint32_t", 0, { "<cstdint>", "<stdint.h>", "<inttypes.h>" }, 0 },
	{ "int64_t", 0, { "<cstdint>", "<stdint.h>", "<inttypes.h>" }, 0 },
	{ "uint64_t", 0, { "<cstdint>", "<stdint.h>", "<inttypes.h>" }, 0 },
	{ "intptr_t", 0, { "<cstdint>", "<stdint.h>", "<inttypes.h>" }, 0 },
	{ "uintptr_t", 0, { "<cstdint>", "<stdint.h>", "<inttypes.h>" }, 0 },
	{ "tuple", 1, { "<tuple>", NULL, NULL }, 0 },
	{ "make_tuple", 1, { "<tuple>", NULL, NULL }, 0 },
	{ "tie", 1, { "<tuple>", NULL, NULL }, 0 },
	{ "get", 1, { "<tuple>", "<utility>", "<array>" }, 0 },
	{ "pair", 1, { "<utility>", "<tuple>", NULL }, 0 },
	{ "make_pair", 1, { "<utility>", "<tuple>", NULL }, 0 },
	{ "array", 1, { "<array>", NULL, NULL }, 0 },
	{ "numeric_limits", 1, { "<limits>", NULL, NULL }, 0 },
	{ "is_same", 1, { "<type_traits>", NULL, NULL }, 0 },
	{ "conditional", 1, { "<type_traits>", NULL, NULL }, 0 },
	{ "enable_if", 1, { "<type_traits>", NULL, NULL }, 0 },
	{ "is_same_v", 1, { "<type_traits>", NULL, NULL }, 0 },
	{ "conditional_t", 1, { "<type_traits>", NULL, NULL }, 0 },
	{ "enable_if_t", 1, { "<type_traits>", NULL, NULL }, 0 },
	/* the parse's CUDA wrapper includes <cuda.h>, nvcc does not: a
	 * block that tests the version ("#if !defined(CUDA_VERSION)
	 * #include <cuda.h>") skipped its include in the parse */
	{ "CUDA_VERSION", 0, { "<cuda.h>", NULL, NULL }, 1 },
};
#define NSTD (sizeof(std_names) / sizeof(std_names[0]))

/* Mark in used[] the std_names that text [a, b) names. */
static void
std_used(const char *s, unsigned a, unsigned b, unsigned char *used)
{
	unsigned i = a, j, k;
	size_t n;
	int after_std;

	while (i < b) {
		if (!is_ident_char(s[i]) || isdigit((unsigned char)s[i])) {
			if (isdigit((unsigned char)s[i]))
				while (i < b && is_ident_char(s[i]))
					i++;
			else
				i++;
			continue;
		}
		for (j = i; j < b && is_ident_char(s[j]); j++)
			;
		/* "std ::" before the word */
		k = i;
		while (k > a && (s[k - 1] == ' ' || s[k - 1] == '\t'))
			k--;
		after_std = k >= a + 5 && s[k - 1] == ':' && s[k - 2] == ':';
		if (after_std) {
			k -= 2;
			while (k > a && (s[k - 1] == ' ' || s[k - 1] == '\t'))
				k--;
			after_std = k >= a + 3 && strncmp(s + k - 3, "std",
			    3) == 0 && (k == a + 3 || !is_ident_char(s[k - 4]));
		}
		for (n = 0; n < NSTD; n++)
			if ((!std_names[n].std || after_std) &&
			    strlen(std_names[n].name) == j - i &&
			    strncmp(s + i, std_names[n].name, j - i) == 0)
				used[n] = 1;
		i = j;
	}
}

/*
 * The standard headers a slice needs of its own: where it names
 * uint64_t, std::tuple or std::numeric_limits and no include it keeps
 * declares them, the unit had them through a header the slice does not
 * keep (a PyTorch header, a project header, the parser's own wrappers);
 * nvcc's <stdlib.h> declares int64_t but not uint64_t.  The text a
 * macro takes counts as much as a declaration's.  cuda selects whether
 * the toolkit's own headers may come too.
 */
static void
std_includes(struct closure *cl, struct k_strv *inc, int cuda)
{
	unsigned char used[NSTD];
	size_t i, n;
	int h, have;
	char line[64];

	memset(used, 0, sizeof(used));
	for (i = 0; i < cl->n; i++)
		if (cl->v[i].kind != I_STUB && cl->v[i].fi->text != NULL &&
		    cl->v[i].fi->cls == F_PROJECT)
			std_used(cl->v[i].fi->text, cl->v[i].a, cl->v[i].b,
			    used);
	for (n = 0; n < NSTD; n++) {
		if (!used[n] || (std_names[n].cuda && !cuda))
			continue;
		have = 0;
		for (h = 0; h < 3 && std_names[n].hdr[h] != NULL; h++)
			for (i = 0; i < inc->n; i++)
				have |= strstr(inc->v[i],
				    std_names[n].hdr[h]) != NULL;
		snprintf(line, sizeof(line), "#include %s",
		    std_names[n].hdr[0]);
		if (!have && !k_strv_has(inc, line))
			k_strv_push(inc, line);
	}
}

/* The slice of a kernel, without its instantiation; 0 or -1 with *why. */
static int
slice_kernel(struct slicer *s, json_t *scan, char **why)
{
	struct closure *cl = &s->cl;
	struct parsed *p;
	struct fileinfo *kfi;
	struct k_buf b = KSLICE_BUF, own = KSLICE_BUF;
	const char *tu = k_get_str(scan, "tu"), *usr = k_get_str(scan, "usr");
	const char *dialect = k_get_str(scan, "dialect");
	json_t *flags = json_object_get(scan, "flags"), *own_flags = NULL;
	unsigned ka, kb, kline;
	const char *cur = "";
	size_t i, f;
	int device;

	if (dialect[0] == '\0')
		dialect = "cuda";
	if (tu[0] == '\0' || usr[0] == '\0') {
		*why = k_strdup("scan section lacks tu or usr");
		return -1;
	}
	/* a kernel only the device side sees is looked for there */
	for (device = 0; device < 2; device++) {
		p = get_parsed(tu, flags, dialect, device, why);
		if (p == NULL) {
			json_decref(own_flags);
			return -1;
		}
		/* a compile command says which macros the build defines;
		 * without one, those that stand for features of the
		 * toolkit are defined, and the unit parsed again */
		if (s->features == NULL) {
			s->features = json_is_array(json_object_get(scan,
			    "build_flags")) ? json_array() :
			    feature_macros(p, flags, dialect);
			if (json_array_size(s->features) > 0) {
				own_flags = json_is_array(flags) ?
				    json_deep_copy(flags) : json_array();
				json_array_extend(own_flags, s->features);
				flags = own_flags;
				p = get_parsed(tu, flags, dialect, device,
				    why);
				if (p == NULL) {
					json_decref(own_flags);
					return -1;
				}
			}
		}
		s->kernel = find_kernel(p, scan);
		if (!clang_Cursor_isNull(s->kernel))
			break;
	}
	json_decref(own_flags);
	if (clang_Cursor_isNull(s->kernel)) {
		*why = k_asprintf("kernel %s not found in %s",
		    k_get_str(scan, "qualified_name"), tu);
		return -1;
	}
	s->p = p;
	cl->p = p;
	cl->kernel = s->kernel;

	/* the kernel as an item of its own, emitted last */
	kfi = where(p, clang_getRangeStart(clang_getCursorExtent(s->kernel)),
	    &kline, &ka);
	if (kfi == NULL || kfi->text == NULL) {
		*why = k_strdup("kernel has no source text");
		return -1;
	}
	kb = extent_end(p, kfi, clang_getCursorExtent(s->kernel));
	{
		struct item *it = new_item(cl);
		it->kind = I_DECL;
		it->fi = kfi;
		it->a = ka;
		it->b = kb;
		it->line = kline;
		it->c = s->kernel;
		it->name = k_take(clang_getCursorSpelling(s->kernel));
		it->what = "kernel";
		it->ns = ns_chain(s->kernel);
	}
	/* an explicit specialization (template <> __global__ void
	 * k<float>(...)) needs its primary template declared before it */
	add_decl(cl, clang_getSpecializedCursorTemplate(s->kernel));
	close_over(cl);
	/* the classes the resolved launches bind come with the instance */
	s->resolved = resolved_launches(p, cl, scan);
	s->classes = json_array_size(s->resolved) == 0 ?
	    launch_classes(cl, scan) : json_object();
	s->explicit = explicit_instances(p, s->kernel);
	explicit_classes(cl, s->explicit);
	close_over(cl);
	clang_visitChildren(clang_getTranslationUnitCursor(p->tu), find_alias,
	    cl);
	close_over(cl);
	add_usings(cl);
	close_over(cl);

	/* includes of system and toolkit headers, from every project file */
	for (f = 0; f < p->nfiles; f++)
		if (p->files[f]->cls == F_PROJECT)
			for (i = 0; i < p->files[f]->sysinc.n; i++)
				if (!k_strv_has(&s->includes,
				    p->files[f]->sysinc.v[i]))
					k_strv_push(&s->includes,
					    p->files[f]->sysinc.v[i]);
	std_includes(cl, &s->includes, strcmp(dialect, "cuda") == 0);

	/* the kernel stays first in the array: sort the rest */
	if (cl->n > 2)
		qsort(cl->v + 1, cl->n - 1, sizeof(*cl->v), item_cmp);
	s->deps = json_array();
	s->stubs = json_array();
	k_buf_printf(&b, "// kslice: %s:%u, %s\n", kfi->rel, kline,
	    k_get_str(scan, "qualified_name"));
	for (i = 0; i < s->includes.n; i++)
		k_buf_printf(&b, "%s\n", s->includes.v[i]);
	for (i = 1; i <= cl->n; i++) {
		/* the kernel last */
		struct item *it = &cl->v[i == cl->n ? 0 : i];
		if (inside_other(cl, it))
			continue;
		if (it->kind != I_DECL || strcmp(it->ns, cur) != 0) {
			const char *to = it->kind == I_DECL ? it->ns : "";
			switch_ns(&b, cur, to);
			cur = to;
		}
		k_buf_add(&b, "\n");
		if (it->kind == I_STUB) {
			emit_stub(&b, it);
			json_array_append_new(s->stubs, json_string(it->name));
			continue;
		}
		if (i != cl->n) {
			json_t *d = json_object();
			char *origin;
			origin = k_asprintf("%s:%u", it->fi->rel, it->line);
			json_object_set_new(d, "name", json_string(it->name));
			json_object_set_new(d, "kind", json_string(it->what));
			json_object_set_new(d, "origin", json_string(origin));
			json_array_append_new(s->deps, d);
			free(origin);
		}
		k_buf_addn(&b, it->fi->text + it->a, it->b - it->a);
		k_buf_add(&b, it->semi ? ";\n" : "\n");
		if (it->fi->cls != F_STUB) {
			k_buf_addn(&own, it->fi->text + it->a, it->b - it->a);
			k_buf_add(&own, "\n");
		}
	}
	s->ns = k_strdup(cur);
	s->own = own.s != NULL ? own.s : k_strdup("");
	if (k_buf_full(&b)) {
		free(b.s);
		free(s->own);
		s->own = NULL;
		*why = k_strdup("slice longer than 16 MiB");
		return -1;
	}
	s->body = b.s;

	/* writes and reads through pointer parameters */
	{
		struct pointers pt;
		struct parmlist pl;
		unsigned a;
		CXCursor fn = s->kernel;
		memset(&pt, 0, sizeof(pt));
		fn_params(fn, &pl);
		pt.p = p;
		pt.params = pl.v;
		pt.nparams = pl.n;
		pt.wrote = k_calloc(pl.n + 1, 1);
		pt.read = k_calloc(pl.n + 1, 1);
		analyse_fn(&pt, fn);
		s->writes = json_array();
		s->reads = json_array();
		for (a = 0; a < pt.nparams; a++) {
			char *n = k_take(clang_getCursorSpelling(pt.params[a]));
			if (pt.wrote[a])
				json_array_append_new(s->writes,
				    json_string(n));
			if (pt.read[a])
				json_array_append_new(s->reads, json_string(n));
			free(n);
		}
		for (a = 0; a < pt.nalias; a++)
			free(pt.alias[a]);
		free(pt.alias);
		free(pt.alias_of);
		free(pt.params);
		free(pt.wrote);
		free(pt.read);
	}
	return 0;
}

/* Parameter types of the kernel as spelled by clang, template parameters
 * replaced by their bindings, for the explicit instantiation. */
static char *
instantiation(struct slicer *s, json_t *scan, json_t *inst, int *ok)
{
	struct k_buf b = KSLICE_BUF;
	char *targs = instance_args(scan, inst), *name;
	json_t *map = json_object(), *tp;
	struct parmlist pl;
	unsigned i;
	size_t j;

	*ok = 1;
	json_array_foreach(json_object_get(scan, "template_params"), j, tp)
		json_object_set_new(map, k_get_str(tp, "name"), json_string(
		    cxx_type(k_get_str(inst, k_get_str(tp, "name")))));
	name = k_take(clang_getCursorSpelling(s->kernel));
	k_buf_printf(&b, "template __global__ void %s%s(", name, targs);
	fn_params(s->kernel, &pl);
	for (i = 0; i < pl.n; i++) {
		CXCursor a = pl.v[i];
		char *ty = k_take(clang_getTypeSpelling(clang_getCursorType(a)));
		char *sub = subst_idents(ty, map);
		if (clang_isInvalidDeclaration(a))
			*ok = 0;
		k_buf_printf(&b, "%s%s", i > 0 ? ", " : "", sub);
		free(sub);
		free(ty);
	}
	free(pl.v);
	k_buf_add(&b, ");\n");
	free(name);
	free(targs);
	json_decref(map);
	return b.s;
}

/* PyTorch's include directories, as an #include names them. */
static const char *const torch_dirs[] = { "torch/", "ATen/", "c10/", "THC/",
    NULL };

/* A PyTorch header: the stand-in's, or the real one's directories. */
static int
torch_header(const struct fileinfo *fi)
{
	static const char *const real[] = { "/torch/csrc/", "/ATen/", "/c10/",
	    "/THC/", "/torch/extension.h", NULL };
	int i;

	if (fi->cls == F_STUB && fi->stubname != NULL) {
		if (strcmp(fi->stubname, "kforge_torch.h") == 0)
			return 1;
		for (i = 0; torch_dirs[i] != NULL; i++)
			if (strncmp(fi->stubname, torch_dirs[i],
			    strlen(torch_dirs[i])) == 0)
				return 1;
		return 0;
	}
	for (i = 0; real[i] != NULL; i++)
		if (fi->real != NULL && strstr(fi->real, real[i]) != NULL)
			return 1;
	return 0;
}

/* Whether text includes a PyTorch header (#include <torch/...>, "ATen/..."). */
static int
includes_torch(const char *text)
{
	const char *p = text, *q;
	int i;

	while ((p = strstr(p, "#include")) != NULL) {
		for (q = p + 8; *q == ' ' || *q == '\t'; q++)
			;
		p = q;
		if (*q != '<' && *q != '"')
			continue;
		for (i = 0; torch_dirs[i] != NULL; i++)
			if (strncmp(q + 1, torch_dirs[i],
			    strlen(torch_dirs[i])) == 0)
				return 1;
	}
	return 0;
}

/*
 * Whether a C++ source beside the unit (.cpp, .cc or .cxx of its
 * directory) includes a PyTorch header: the unit is then one source of a
 * PyTorch extension (setuptools' CUDAExtension builds every .cu of it
 * with the same defaults) whose binding file includes torch while the
 * unit, kernels and launchers alone, includes none.  A .cu that includes
 * torch beside one that does not says nothing of the other's build.
 * Remembered for the last directory asked.
 */
static int
torch_sibling(const char *tu)
{
	static char *last;
	static int answer;
	const char *slash = strrchr(tu, '/');
	struct dirent *e;
	char *dir;
	DIR *d;

	dir = k_asprintf("%s/%.*s", opt.root, slash != NULL ?
	    (int)(slash - tu) : 0, tu);
	if (last != NULL && strcmp(dir, last) == 0) {
		free(dir);
		return answer;
	}
	free(last);
	last = dir;
	answer = 0;
	if ((d = opendir(dir)) == NULL)
		return 0;
	while (!answer && (e = readdir(d)) != NULL) {
		const char *dot = strrchr(e->d_name, '.');
		char *path, *text;
		if (dot == NULL || (strcmp(dot, ".cpp") != 0 &&
		    strcmp(dot, ".cc") != 0 && strcmp(dot, ".cxx") != 0))
			continue;
		path = k_asprintf("%s/%s", dir, e->d_name);
		text = k_file_head(path, 1 << 16, NULL, NULL);
		free(path);
		if (text == NULL)
			continue;
		answer = includes_torch(text);
		free(text);
	}
	closedir(d);
	return answer;
}

/*
 * slice.flags, the flags the project builds the kernel with: those of its
 * compile command when kscan read one (scan.build_flags), else PyTorch's
 * extension defaults when its translation unit includes the torch headers
 * (every extension is built with them; an #include of one counts whether
 * a stub answers it or not) or a source beside it does (torch_sibling),
 * else none.
 */
static json_t *
slice_flags(const struct parsed *p, json_t *scan)
{
	json_t *bf = json_object_get(scan, "build_flags"), *out, *f;
	size_t i;

	if (json_is_array(bf)) {
		out = json_array();
		json_array_foreach(bf, i, f)
			if (k_nvcc_flag_ok(json_string_value(f)))
				json_array_append(out, f);
		return out;
	}
	if (p != NULL && p->torch_incl)
		return k_torch_flags();
	for (i = 0; p != NULL && i < p->nfiles; i++)
		if (torch_header(p->files[i]))
			return k_torch_flags();
	if (k_get_str(scan, "tu")[0] != '\0' &&
	    torch_sibling(k_get_str(scan, "tu")))
		return k_torch_flags();
	return json_array();
}


/*
 * PyTorch's defaults turn off the implicit conversions and operators of
 * the toolkit's half types (-D__CUDA_NO_HALF_CONVERSIONS__ and the like);
 * a project whose kernels convert halves implicitly undoes them in its
 * build (-U__CUDA_NO_HALF_CONVERSIONS__).  Where no compile command says
 * which (the defaults are a guess) and the slice parses without those
 * defines but not with them, slice.flags leaves them out.
 */
static void
undo_half_defaults(const struct slicer *s, json_t *scan,
    const struct k_buf *code, const char *dialect, json_t *flags)
{
	static const char pre[] = "-D__CUDA_NO_";
	json_t *v;
	size_t i;
	int any = 0;

	if (json_is_array(json_object_get(scan, "build_flags")) ||
	    s->own == NULL || (strstr(s->own, "half") == NULL &&
	    strstr(s->own, "bfloat16") == NULL))
		return;
	json_array_foreach(flags, i, v)
		any |= strncmp(json_string_value(v), pre, sizeof(pre) - 1) == 0;
	if (!any || check_flags(code, dialect[0] != '\0' ? dialect : "cuda",
	    flags) == 0)
		return;
	for (i = json_array_size(flags); i-- > 0;)
		if (strncmp(json_string_value(json_array_get(flags, i)), pre,
		    sizeof(pre) - 1) == 0)
			json_array_remove(flags, i);
}

/*
 * The defaults (PyTorch's -std=c++17, or kbuild's when there are none)
 * are a guess; code that uses C++20 comes from a project that builds with
 * a newer standard.  Where no compile command says which, slice.flags asks
 * for C++20 when the check parse saw the slice use it (newer: clang's
 * -Wc++20-... warnings, code clang takes in C++17 and nvcc does not), or
 * when the slice does not parse as C++17 (errors) but does as C++20 and
 * names a requires clause or a concept.  Returns 1 when it asks for C++20
 * and the slice parses so (the errors are gone), else 0.
 */
static int
newer_std(const struct slicer *s, json_t *scan, const struct k_buf *code,
    const char *dialect, json_t *flags, unsigned errors, int newer)
{
	json_t *v;
	size_t i;
	int clean, had;

	if (json_is_array(json_object_get(scan, "build_flags")) ||
	    s->own == NULL)
		return 0;
	if (!newer && (errors == 0 || (strstr(s->own, "requires") == NULL &&
	    strstr(s->own, "concept") == NULL)))
		return 0;
	json_array_foreach(flags, i, v)
		if (strncmp(json_string_value(v), "-std=", 5) == 0)
			break;
	if (i < json_array_size(flags) &&
	    strcmp(json_string_value(json_array_get(flags, i)),
	    "-std=c++17") != 0)
		return 0;	/* a standard someone chose */
	had = i < json_array_size(flags);
	if (had)
		json_array_set_new(flags, i, json_string("-std=c++20"));
	else
		json_array_append_new(flags, json_string("-std=c++20"));
	if (errors == 0)
		return 0;	/* newer: C++20, and no error to clear */
	clean = check_flags(code, dialect[0] != '\0' ? dialect : "cuda",
	    flags) == 0;
	if (clean || newer)
		return clean;
	if (had)
		json_array_set_new(flags, i, json_string("-std=c++17"));
	else
		json_array_remove(flags, i);
	return 0;
}

/* The record of one instance; quiet: NULL, no message, when the slice
 * does not parse. */
static json_t *
slice_record(json_t *rec, json_t *scan, struct slicer *s, json_t *inst,
    size_t ninst, int quiet)
{
	json_t *out = ninst > 0 ? json_deep_copy(rec) : json_incref(rec);
	json_t *sl = json_object();
	struct k_buf code = KSLICE_BUF;
	const char *dialect = k_get_str(scan, "dialect");
	char *msg = NULL, *targs = NULL;
	size_t lines = 0, i;
	unsigned errors;
	int newer = 0;
	json_t *dropped = json_array(), *flags;

	k_buf_add(&code, s->body);
	if (inst != NULL) {
		int ok;
		char *ex = instantiation(s, scan, inst, &ok), *id;
		const char *cur = s->ns;
		targs = instance_args(scan, inst);
		k_buf_add(&code, "\n");
		k_buf_add(&code, ex);
		free(ex);
		(void)cur;
		id = k_asprintf("%s%s", k_id_text(rec), targs);
		json_object_set_new(out, "parent", json_string(
		    k_id_borrowed(rec)));
		json_object_set_new(out, "id", json_string(id));
		free(id);
	}
	/* close the kernel's namespaces */
	switch_ns(&code, s->ns, "");
	if (k_buf_full(&code)) {
		errors = 1;
		msg = k_strdup("slice longer than 16 MiB");
	} else
		errors = check_slice(&code, dialect[0] != '\0' ? dialect :
		    "cuda", &msg, dropped, &newer);
	for (i = 0; i < code.n; i++)
		if (code.s[i] == '\n')
			lines++;
	flags = slice_flags(s->p, scan);
	json_array_extend(flags, s->features);
	if (newer_std(s, scan, &code, dialect, flags, errors, newer) &&
	    errors > 0) {
		errors = 0;
		free(msg);
		msg = NULL;
	}
	if (errors == 0)
		undo_half_defaults(s, scan, &code, dialect, flags);
	json_object_set_new(sl, "instance", inst != NULL ? json_incref(inst) :
	    json_object());
	{
		json_t *g = instance_guesses(scan, s->guessed, inst);
		if (json_array_size(g) > 0)
			json_object_set(sl, "guessed", g);
		json_decref(g);
	}
	{
		char *sym;
		sym = k_asprintf("%s%s", k_get_str(scan, "qualified_name"),
		    targs != NULL && strchr(k_get_str(scan,
		    "qualified_name"), '<') == NULL ? targs : "");
		json_object_set_new(sl, "symbol", json_string(sym));
		free(sym);
	}
	json_object_set_new(sl, "dialect", json_string(dialect[0] != '\0' ?
	    dialect : "cuda"));
	{
		/* launch_json borrows the instance: a non-template kernel's
		 * empty one is ours to free */
		json_t *none = inst != NULL ? NULL : json_object();
		json_object_set_new(sl, "launch", launch_json(scan,
		    inst != NULL ? inst : none));
		json_decref(none);
	}
	if (json_array_size(dropped) == 0)
		json_object_set(sl, "deps", s->deps);
	else {
		/* the dependencies less the macros the slice lost */
		json_t *deps = json_array(), *dep, *n;
		size_t x, y;
		json_array_foreach(s->deps, x, dep) {
			int gone = 0;
			if (strcmp(k_get_str(dep, "kind"), "macro") == 0)
				json_array_foreach(dropped, y, n)
					gone |= strcmp(json_string_value(n),
					    k_get_str(dep, "name")) == 0;
			if (!gone)
				json_array_append(deps, dep);
		}
		json_object_set_new(sl, "deps", deps);
	}
	json_object_set_new(sl, "flags", flags);
	json_object_set(sl, "stubs", s->stubs);
	/* tags from the kernel's own code and its project dependencies:
	 * a stub (an atomic helper kforge supplies) is not the kernel's */
	json_object_set_new(sl, "tags", tags_json(s->own, lines,
	    json_array_size(s->deps)));
	json_object_set(sl, "writes", s->writes);
	json_object_set(sl, "reads", s->reads);
	json_object_set_new(sl, "lines", json_integer((json_int_t)lines));
	json_object_set_new(sl, "code", k_string_lossy(code.s, code.n));
	k_set_section(out, "slice", sl);
	if (errors > 0 && quiet) {
		json_decref(out);
		out = NULL;
	} else if (errors > 0) {
		/* includes the source's parse did not find: a dependency
		 * outside the tree, which kscan's -I names */
		json_t *mi = k_missing_includes(json_object_get(out, "scan"), 3);
		char *hint = NULL, *h;
		size_t mj;
		json_t *x;
		json_array_foreach(mi, mj, x) {
			h = k_asprintf("%s%s%s", hint != NULL ? hint : "",
			    mj > 0 ? ", " : "", json_string_value(x));
			free(hint);
			hint = h;
		}
		k_error(out, STAGE, "slice-does-not-parse",
		    "%s: slice does not parse: %u error%s: %s%s%s%s",
		    k_id_text(out), errors, errors == 1 ? "" : "s", msg,
		    hint != NULL ? " (the source includes what kscan did not "
		    "find: " : "", hint != NULL ? hint : "", hint != NULL ?
		    "; kscan -I names where it is)" : "");
		free(hint);
		json_decref(mi);
	}
	if (out != NULL && k_has_errors(out))
		k_warn(K_EXIT_RECORDS, k_id_borrowed(out), "%s",
		    errors > 0 ? "slice does not parse" : "error");
	free(msg);
	free(targs);
	free(code.s);
	json_decref(dropped);
	return out;
}

/* Each key in keys (NULL-terminated) of obj is a string. */
static int
strings_in(json_t *obj, const char *const *keys)
{
	for (; *keys != NULL; keys++)
		if (!json_is_string(json_object_get(obj, *keys)))
			return 0;
	return 1;
}

/* arr is absent or an array whose items are objects with string keys. */
static int
objects_in(json_t *arr, const char *const *keys)
{
	json_t *v;
	size_t i;

	if (arr == NULL)
		return 1;
	if (!json_is_array(arr))
		return 0;
	json_array_foreach(arr, i, v)
		if (!json_is_object(v) || !strings_in(v, keys))
			return 0;
	return 1;
}

/*
 * What is wrong with a scan section that kslice would dereference, or NULL:
 * a hand-edited or foreign record must fail its own line, not crash the run.
 */
const char *
scan_problem(json_t *scan)
{
	static const char *const top[] = { "tu", "usr", "name",
	    "qualified_name", "file", "dialect", NULL };
	static const char *const param[] = { "name", "type", NULL };
	static const char *const tparam[] = { "name", "kind", "spelled",
	    NULL };
	static const char *const none[] = { NULL };
	json_t *v, *l;
	size_t i;

	if (!strings_in(scan, top))
		return "scan lacks one of the strings tu, usr, name, "
		    "qualified_name, file, dialect";
	v = json_object_get(scan, "flags");
	if (v != NULL && !json_is_array(v))
		return "scan.flags is not an array";
	if (!objects_in(json_object_get(scan, "params"), param))
		return "scan.params is not an array of {name, type}";
	if (!objects_in(json_object_get(scan, "template_params"), tparam))
		return "scan.template_params is not an array of "
		    "{name, kind, spelled}";
	json_array_foreach(json_object_get(scan, "template_params"), i, v) {
		json_t *t = json_object_get(v, "type");
		if (t != NULL && !json_is_string(t) && !json_is_null(t))
			return "scan.template_params[].type is not a string";
	}
	v = json_object_get(scan, "launches");
	if (!objects_in(v, none))
		return "scan.launches is not an array of objects";
	json_array_foreach(v, i, l) {
		json_t *ta = json_object_get(l, "template_args");
		json_t *a = json_object_get(l, "args");
		if ((ta != NULL && !json_is_array(ta)) ||
		    (a != NULL && !json_is_array(a)))
			return "scan.launches[] args or template_args is not "
			    "an array";
	}
	return NULL;
}

/* The record's root: --root where given, else the scan.root kscan
 * recorded (a relative one from where kslice runs), else the current
 * directory. */
static void
use_root(json_t *scan)
{
	const char *r = k_get_str(scan, "root");
	char *path;

	if (opt.root_given)
		return;
	if (r == NULL)
		r = "";
	opt.root_recorded = r[0] != '\0';
	if (r[0] == '\0' || r[0] == '/')
		path = k_strdup(r[0] == '\0' ? opt.cwd : r);
	else
		path = k_asprintf("%s/%s", opt.cwd, r);
	/* a root that is gone stays as recorded: the error names it */
	if (realpath(path, opt.root) == NULL)
		snprintf(opt.root, sizeof(opt.root), "%s", path);
	free(path);
}

/* The largest literal that text divides name by ("THREADS / 32",
 * "N >> 2" counts as 4), 0 if none. */
static long
divisor_of(const char *text, const char *name)
{
	size_t n = strlen(name);
	const char *p = text, *q;
	long best = 0, v;
	char *end;
	int shift;

	while (text != NULL && (p = strstr(p, name)) != NULL) {
		q = p + n;
		if ((p > text && is_ident_char(p[-1])) || is_ident_char(*q)) {
			p = q;
			continue;
		}
		while (*q == ' ' || *q == '\t')
			q++;
		shift = q[0] == '>' && q[1] == '>';
		if (*q == '/' || shift) {
			q += shift ? 2 : 1;
			while (*q == ' ' || *q == '\t')
				q++;
			v = strtol(q, &end, 10);
			if (end != q && v > 0 && v <= 1024 && !shift)
				best = v > best ? v : best;
			else if (end != q && v > 0 && v <= 10 && shift)
				best = (1L << v) > best ? 1L << v : best;
		}
		p = q;
	}
	return best;
}

/*
 * An instance whose value parameters no launch binds takes 1 for them
 * (slice.guessed).  Where the kernel divides one by a constant (an array
 * of THREADS / 32 elements: zero-sized for 1, which nvcc refuses in
 * device code and the check parse does not see), the largest such
 * constant is tried first; where a slice does not parse (a static_assert
 * on the block size), other values a kernel is commonly built for are
 * tried in turn (powers of two: warps, vectors, blocks, tiles), the
 * same for every guessed parameter, and the first that parses is kept.
 */
static json_t *
value_record(json_t *rec, json_t *scan, struct slicer *s, json_t *inst,
    size_t ninst, int quiet)
{
	const char *alt[] = { NULL, "32", "4", "128", "256", "16", "8", "64",
	    NULL };
	json_t *tps = json_object_get(scan, "template_params"), *tp, *o, *try;
	char first[24];
	size_t i;
	int a, any = 0;
	long div = 0, d;

	json_array_foreach(tps, i, tp) {
		const char *name = k_get_str(tp, "name");
		size_t g;
		if (strcmp(k_get_str(tp, "kind"), "value") != 0 ||
		    strcmp(k_get_str(inst, name), "1") != 0)
			continue;
		for (g = 0; g < json_array_size(s->guessed); g++)
			if (strcmp(json_string_value(json_array_get(
			    s->guessed, g)), name) == 0) {
				any = 1;
				d = divisor_of(s->own, name);
				div = d > div ? d : div;
			}
	}
	if (!any)
		return slice_record(rec, scan, s, inst, ninst, quiet);
	if (div > 1) {
		snprintf(first, sizeof(first), "%ld", div);
		alt[0] = first;
	} else if ((o = slice_record(rec, scan, s, inst, ninst, 1)) != NULL)
		return o;
	for (a = alt[0] != NULL ? 0 : 1; alt[a] != NULL; a++) {
		if (a > 0 && alt[0] != NULL && strcmp(alt[a], alt[0]) == 0)
			continue;
		try = json_deep_copy(inst);
		json_array_foreach(tps, i, tp) {
			const char *name = k_get_str(tp, "name");
			size_t g;
			if (strcmp(k_get_str(tp, "kind"), "value") != 0 ||
			    strcmp(k_get_str(inst, name), "1") != 0)
				continue;
			for (g = 0; g < json_array_size(s->guessed); g++)
				if (strcmp(json_string_value(json_array_get(
				    s->guessed, g)), name) == 0)
					json_object_set_new(try, name,
					    json_string(alt[a]));
		}
		o = slice_record(rec, scan, s, try, ninst, 1);
		json_decref(try);
		if (o != NULL)
			return o;
	}
	return slice_record(rec, scan, s, inst, ninst, quiet);
}

/*
 * An instance whose slice does not parse where its type parameters come
 * from --types, while its launcher's calls give them other types
 * (call_type_instance): those are tried in turn, and the first that
 * parses is kept.
 */
static json_t *
instance_record(json_t *rec, json_t *scan, struct slicer *s, json_t *inst,
    size_t ninst)
{
	json_t *o, *alt = call_type_instance(scan, inst, 0);
	size_t k = 0;

	if (alt == NULL)
		return value_record(rec, scan, s, inst, ninst, 0);
	if ((o = value_record(rec, scan, s, inst, ninst, 1)) != NULL) {
		json_decref(alt);
		return o;
	}
	for (; alt != NULL; alt = call_type_instance(scan, inst, ++k)) {
		o = value_record(rec, scan, s, alt, ninst, 1);
		json_decref(alt);
		if (o != NULL)
			return o;
	}
	return value_record(rec, scan, s, inst, ninst, 0);
}

json_t *
process(json_t *rec, void *ctx)
{
	json_t *scan = json_object_get(rec, "scan"), *insts, *out = NULL;
	json_t *guessed = NULL, *bound;
	struct slicer s;
	char *why = NULL;
	const char *bad;
	size_t i, n, all = 0;

	(void)ctx;
	if (!json_is_object(scan) || k_has_errors(rec)) {
		if (!json_is_object(scan) && !k_has_errors(rec)) {
			k_error(rec, STAGE, "no-scan",
			    "%s: record has no scan section",
			    k_id_text(rec));
			k_warn(K_EXIT_RECORDS, k_id_borrowed(rec),
			    "record has no scan section");
		}
		return rec;
	}
	if ((bad = scan_problem(scan)) != NULL) {
		k_error(rec, STAGE, "bad-scan", "%s: %s",
		    k_id_text(rec), bad);
		k_warn(K_EXIT_RECORDS, k_id_borrowed(rec), "%s", bad);
		return rec;
	}
	memset(&s, 0, sizeof(s));
	use_root(scan);
	if (slice_kernel(&s, scan, &why) != 0) {
		k_error(rec, STAGE, "cannot-slice", "%s: %s",
		    k_id_text(rec), why);
		k_warn(K_EXIT_RECORDS, k_id_borrowed(rec), "%s", why);
		free(why);
		slicer_free(&s);
		return rec;
	}
	guessed = json_array();
	bound = spec_bound(s.p, &s.cl, scan);
	enum_bound(s.kernel, bound);
	insts = instances(scan, s.explicit, s.resolved, s.classes, bound,
	    guessed, &why, &all);
	json_decref(bound);
	s.guessed = guessed;
	n = json_array_size(insts);
	if (all > n)
		k_warn(0, k_id_borrowed(rec), "%zu instances from its "
		    "launches; %zu kept, those that cover every value of each "
		    "template parameter first", all, n);
	if (json_array_size(json_object_get(scan, "template_params")) == 0) {
		out = slice_record(rec, scan, &s, NULL, 0, 0);
	} else if (n == 0) {
		k_error(rec, STAGE, "no-instance", "%s: %s",
		    k_id_text(rec), why != NULL ? why : "no instance");
		k_warn(K_EXIT_RECORDS, k_id_borrowed(rec), "%s",
		    why != NULL ? why : "no instance");
		out = json_incref(rec);
	} else {
		for (i = 0; i < n; i++) {
			json_t *o = instance_record(rec, scan, &s,
			    json_array_get(insts, i), n);
			if (i + 1 == n) {
				out = o;
				break;
			}
			/* every instance but the last is written here; the
			 * filter loop writes the last */
			if (k_has_errors(o))
				k_exit_raise(K_EXIT_RECORDS);
			if (k_write(o) != 0) {
				json_decref(o);
				k_fatal(K_EXIT_IO, NULL, "write error");
			}
			json_decref(o);
		}
	}
	free(why);
	json_decref(insts);
	slicer_free(&s);
	json_decref(rec);
	return out;
}
