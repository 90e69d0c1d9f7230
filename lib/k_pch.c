#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <clang-c/Index.h>
#include <jansson.h>

#include "k_buf.h"
#include "k_exit.h"
#include "k_fs.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_parse.h"
#include "k_pch.h"
#include "k_pcache.h"

/* options that name a file or directory: they stay out of the PCH */
static const char *path_opts[] = { "-I", "-isystem", "-iquote",
    "-idirafter", "-include", "-imacros", "-iprefix", "-iwithprefix",
    "-cxx-isystem", "--include-directory", "-F", NULL };

/* this process's verdicts: key -> PCH path, or null for none */
static json_t *known;

static int
is_path_opt(const char *a, int *takes_next)
{
	size_t i, l;

	for (i = 0; path_opts[i] != NULL; i++) {
		l = strlen(path_opts[i]);
		if (strcmp(a, path_opts[i]) == 0) {
			*takes_next = 1;
			return 1;
		}
		/* -Idir, -isystemdir, --include-directory=dir */
		if (strncmp(a, path_opts[i], l) == 0 && (l == 2 ||
		    a[l] == '=' || path_opts[i][1] == 'i')) {
			*takes_next = 0;
			return 1;
		}
	}
	return 0;
}

/* The arguments of the empty unit the PCH is made from: args without the
 * options that name files; -1 when one left names the private prelude
 * directory, which changes from run to run. */
static int
pch_args(const struct k_strv *args, struct k_strv *out)
{
	const char *pd = k_prelude_dir();
	size_t i;
	int next;

	for (i = 0; i < args->n; i++) {
		const char *a = args->v[i];
		if (is_path_opt(a, &next)) {
			i += (size_t)next;
			continue;
		}
		if (strcmp(a, "-include-pch") == 0 ||
		    (pd[0] != '\0' && strstr(a, pd) != NULL)) {
			k_strv_free(out);
			return -1;
		}
		k_strv_push(out, a);
	}
	return 0;
}

static void
note_file(CXFile f, CXSourceLocation *stack, unsigned depth,
    CXClientData data)
{
	char *name = k_take(clang_getFileName(f)), *real;

	(void)stack;
	(void)depth;
	real = realpath(name, NULL);
	free(name);
	if (real == NULL)
		return;		/* the empty unit itself */
	if (json_array_append_new(data, json_string(real)) != 0)
		json_array_append_new(data, json_integer(0));	/* unusable */
	free(real);
}

/* Parse the empty unit with a and save its PCH as c->dir/xx/KEY.pch;
 * the entry's value is {"pch": path}, or {"pch": null} when the empty
 * unit does not parse cleanly. */
static json_t *
make_pch(CXIndex idx, struct k_pcache *c, const char *key,
    const struct k_strv *a, const char *text)
{
	char src[PATH_MAX], *pch, *tmp;
	struct CXUnsavedFile uf;
	CXTranslationUnit tu = NULL;
	json_t *files = json_array(), *deps = NULL, *v;
	unsigned i, errors = 0;
	int e;

	snprintf(src, sizeof(src), "%s/kforge-pch-%s.cu", c->dir, key);
	uf.Filename = src;
	uf.Contents = text;
	uf.Length = strlen(text);
	e = clang_parseTranslationUnit2(idx, src, (const char *const *)a->v,
	    (int)a->n, &uf, 1, CXTranslationUnit_ForSerialization |
	    CXTranslationUnit_Incomplete, &tu);
	if (e != CXError_Success || tu == NULL) {
		json_decref(files);
		return json_pack("{s:n}", "pch");
	}
	for (i = 0; i < clang_getNumDiagnostics(tu); i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error)
			errors++;
		clang_disposeDiagnostic(d);
	}
	clang_getInclusions(tu, note_file, files);
	if (asprintf(&pch, "%s/%.2s/%s.pch", c->dir, key, key) < 0 ||
	    asprintf(&tmp, "%s.tmp.%ld", pch, (long)getpid()) < 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	v = NULL;
	if (errors == 0 && json_array_size(files) > 0 &&
	    (deps = k_pcache_deps(c, files)) != NULL) {
		char *slash = strrchr(tmp, '/'), keep = *slash;
		*slash = '\0';
		if (k_mkdirs(tmp) == 0) {
			*slash = keep;
			if (clang_saveTranslationUnit(tu, tmp,
			    clang_defaultSaveOptions(tu)) == CXSaveError_None &&
			    rename(tmp, pch) == 0)
				v = json_pack("{s:s,s:O}", "pch", pch,
				    "files", files);
		}
		*slash = keep;
		unlink(tmp);
	}
	clang_disposeTranslationUnit(tu);
	if (v == NULL)
		v = json_pack("{s:n}", "pch");
	if (deps == NULL)
		deps = json_array();
	/* a failure to keep it costs the next run a parse, nothing more */
	(void)k_pcache_put(c, key, deps, v);
	json_decref(deps);
	json_decref(files);
	free(pch);
	free(tmp);
	return v;
}

/*
 * What the PCH holds beyond the toolkit (clang's wrapper headers, which the
 * driver force-includes): the prelude, when it is kept where the PCH can
 * name it from run to run, and for a unit that includes the PyTorch
 * stand-in, the stand-in (ATen's and c10's headers are the largest part of
 * such a unit that is not its own code); then the toolkit headers the
 * unit includes that can be included first (see walk_includes: cub,
 * thrust, cuda_bf16.h; the bulk of a unit that uses them).  A unit's parse
 * then reads them again only as far as their include guards.
 */
static char *
pch_text(int torch, const struct k_strv *hoist)
{
	const char *pd = k_prelude_dir();
	struct k_buf b = { 0 };
	size_t i;

	if (!k_prelude_kept())
		return k_strdup("\n");
	k_buf_printf(&b, "#include \"%s/kforge_prelude.h\"\n", pd);
	if (torch)
		k_buf_printf(&b, "#include \"%s/torch/kforge_torch.h\"\n", pd);
	for (i = 0; hoist != NULL && i < hoist->n; i++)
		k_buf_printf(&b, "#include <%s>\n", hoist->v[i]);
	return k_buf_take(&b);
}

/* The cache's entry for the PCH of args with what pch_text puts in it
 * ({"pch": path, "files": [...]}, or {"pch": null}), made when missing; a
 * new reference, or NULL when args cannot have one. */
static json_t *
pch_value(CXIndex idx, struct k_pcache *c, const struct k_strv *args,
    int torch, const struct k_strv *hoist)
{
	struct k_strv a = { 0 };
	struct k_buf k = { 0 };
	char key[K_SHA256_HEX], *ver, *text;
	json_t *v;
	size_t i;

	if (c == NULL || c->dir == NULL || pch_args(args, &a) != 0)
		return NULL;
	text = pch_text(torch, hoist);
	k_pkey_add(&k, "kforge-pch-2");
	ver = k_take(clang_getClangVersion());
	k_pkey_add(&k, ver);
	free(ver);
	k_pkey_add(&k, text);
	for (i = 0; i < a.n; i++)
		k_pkey_add(&k, a.v[i]);
	k_pkey_end(&k, key);
	if (known == NULL)
		known = json_object();
	if ((v = json_object_get(known, key)) != NULL)
		json_incref(v);
	else {
		if ((v = k_pcache_get(c, key)) == NULL || (json_string_value(
		    json_object_get(v, "pch")) != NULL && access(
		    json_string_value(json_object_get(v, "pch")), R_OK) != 0)) {
			json_decref(v);
			v = make_pch(idx, c, key, &a, text);
		}
		json_object_set(known, key, v);
	}
	free(text);
	k_strv_free(&a);
	return v;
}

/* Whether the PCH of entry v was made from a file whose path ends with
 * /name. */
static int
holds(json_t *v, const char *name)
{
	json_t *d;
	size_t i, l = strlen(name), fl;

	json_array_foreach(json_object_get(v, "files"), i, d) {
		const char *f = json_string_value(d);
		if (f != NULL && (fl = strlen(f)) > l &&
		    strcmp(f + fl - l, name) == 0 && f[fl - l - 1] == '/')
			return 1;
	}
	return 0;
}

static int
pch_args_for(CXIndex idx, struct k_pcache *c, struct k_strv *args,
    struct k_strv *deps, int torch, const struct k_strv *hoist)
{
	struct k_strv left = { 0 };
	const char *path;
	json_t *v = NULL, *base, *d;
	size_t i;

	if ((base = pch_value(idx, c, args, torch, NULL)) == NULL)
		return 0;
	/* a header the PCH holds already (the stand-in includes it) would
	 * only make another PCH */
	for (i = 0; hoist != NULL && i < hoist->n; i++)
		if (!holds(base, hoist->v[i]))
			k_strv_push(&left, hoist->v[i]);
	/* headers that do not parse first: the PCH without them */
	if (left.n > 0 && (v = pch_value(idx, c, args, torch, &left)) !=
	    NULL && json_string_value(json_object_get(v, "pch")) == NULL) {
		json_decref(v);
		v = NULL;
	}
	k_strv_free(&left);
	if (v == NULL)
		v = base;
	else
		json_decref(base);
	path = json_string_value(json_object_get(v, "pch"));
	if (path == NULL) {
		json_decref(v);
		return 0;
	}
	k_strv_push(args, "-include-pch");
	k_strv_push(args, path);
	/* what the PCH was made from, the unit depends on */
	json_array_foreach(json_object_get(v, "files"), i, d)
		if (deps != NULL && json_is_string(d) &&
		    !k_strv_has(deps, json_string_value(d)))
			k_strv_push(deps, json_string_value(d));
	json_decref(v);
	return 1;
}

int
k_pch_args(CXIndex idx, struct k_pcache *c, struct k_strv *args,
    struct k_strv *deps)
{
	return pch_args_for(idx, c, args, deps, 0, NULL);
}

/* A directory args name with -I, -isystem, -iquote or -idirafter, from
 * index *i on; NULL after the last.  The prelude's own are left out. */
static const char *
next_dir(const struct k_strv *args, size_t *i)
{
	const char *pd = k_prelude_dir();
	static const char *opts[] = { "-I", "-isystem", "-iquote",
	    "-idirafter", NULL };
	const char *a, *d;
	size_t j, l;

	for (; *i < args->n; (*i)++) {
		a = args->v[*i];
		for (j = 0; opts[j] != NULL; j++) {
			l = strlen(opts[j]);
			if (strncmp(a, opts[j], l) != 0)
				continue;
			if (a[l] != '\0')
				d = a + l;
			else if (*i + 1 < args->n)
				d = args->v[++*i];
			else
				return NULL;
			if (pd[0] != '\0' && strncmp(d, pd, strlen(pd)) == 0)
				break;
			(*i)++;
			return d;
		}
	}
	return NULL;
}

/* name found in dir (may be NULL) or in a directory args names; a new
 * string, or NULL */
static char *
find_include(const char *dir, const char *name, const struct k_strv *args)
{
	const char *d;
	char *p;
	size_t i = 0;

	if (name[0] == '/')
		return access(name, R_OK) == 0 ? k_strdup(name) : NULL;
	for (d = dir; d != NULL; d = next_dir(args, &i)) {
		if (asprintf(&p, "%s/%s", d, name) < 0)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		if (access(p, R_OK) == 0)
			return p;
		free(p);
	}
	return NULL;
}

struct walk {
	const struct k_strv *args;
	char *toolkit;		/* the toolkit's include directory, or NULL */
	struct k_strv visited;
	struct k_strv hoist;	/* toolkit headers that can come first */
	int torch;		/* a PyTorch header the stand-in answers */
	int stop;		/* a macro defined: nothing more comes first */
};

/* The toolkit's include directory, from the --cuda-path= in args; a new
 * string or NULL (HIP, no toolkit named). */
static char *
toolkit_include(const struct k_strv *args)
{
	char *p;
	size_t i;

	for (i = 0; i < args->n; i++)
		if (strncmp(args->v[i], "--cuda-path=", 12) == 0) {
			if (asprintf(&p, "%s/include", args->v[i] + 12) < 0)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
			return p;
		}
	return NULL;
}

/* Whether line is the directive name (if, ifdef, define, include, ...;
 * prefix: any that starts so); *rest is what follows it, blanks skipped. */
static int
directive(const char *line, const char *name, int prefix, char **rest)
{
	const char *p = line;
	size_t l = strlen(name);

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '#')
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, name, l) != 0)
		return 0;
	for (p += l; prefix && *p >= 'a' && *p <= 'z'; p++)
		;
	if (*p != ' ' && *p != '\t' && *p != '\0' && *p != '<' &&
	    *p != '"' && *p != '(' && *p != '!')
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	*rest = (char *)p;
	return 1;
}

/* the identifier rest starts with, a new string */
static char *
ident(const char *rest)
{
	const char *e = rest;

	while (*e == '_' || (*e >= 'a' && *e <= 'z') ||
	    (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9'))
		e++;
	return k_strndup(rest, (size_t)(e - rest));
}

/*
 * The includes of the unit at path (text, when not NULL, its contents),
 * read as text, following its own headers (found in its directory or
 * those args name) in the order the preprocessor meets them: whether one
 * is a PyTorch header the torch stand-in answers (in any branch: at worst
 * the stand-in is declared early), and which toolkit headers (<...>, found
 * in the toolkit's include directory and in none that args name) can be
 * parsed before the unit without changing what it means: those outside
 * every #if (an include guard aside), in a file reached outside every
 * #if, before the first macro the unit's files define or undefine (it
 * could be one a toolkit header tests).
 */
static void
walk_includes(struct walk *w, const char *path, const char *text,
    size_t len, int depth, int cond)
{
	char *own = NULL, *line, *next, *dir, *slash, *buf, *guard = NULL;
	int level = 0, first = 1;

	if (depth > 16 || k_strv_has(&w->visited, path))
		return;
	k_strv_push(&w->visited, path);
	if (text == NULL && (text = own = k_file_read(path, 1 << 24,
	    &len)) == NULL)
		return;
	buf = k_strndup(text, len);
	free(own);
	dir = k_strdup(path);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	else
		strcpy(dir, ".");
	for (line = buf; line != NULL && *line != '\0'; line = next) {
		char *p, *q, *f, *id, close;
		int was_first = first;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (directive(line, "", 1, &p))
			first = 0;
		else
			continue;
		if (directive(line, "if", 1, &p)) {
			/* #ifndef GUARD first in the file: the guard */
			if (was_first && directive(line, "ifndef", 0, &p))
				guard = ident(p);
			else
				level++;
			continue;
		}
		if (directive(line, "endif", 0, &p)) {
			if (level > 0)
				level--;
			continue;
		}
		if (directive(line, "define", 0, &p) ||
		    directive(line, "undef", 0, &p)) {
			id = ident(p);
			if (guard == NULL || strcmp(id, guard) != 0)
				w->stop = 1;
			free(id);
			continue;
		}
		if (!directive(line, "include", 0, &p) ||
		    (*p != '"' && *p != '<'))
			continue;
		close = *p == '"' ? '"' : '>';
		if ((q = strchr(++p, close)) == NULL || q == p)
			continue;
		*q = '\0';
		f = find_include(close == '"' ? dir : NULL, p, w->args);
		if (f == NULL && k_torch_stub(p))
			w->torch = 1;
		else if (f == NULL && close == '>' && !w->stop && !cond &&
		    level == 0 && w->toolkit != NULL &&
		    !k_strv_has(&w->hoist, p)) {
			char *t;
			if (asprintf(&t, "%s/%s", w->toolkit, p) < 0)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
			if (access(t, R_OK) == 0)
				k_strv_push(&w->hoist, p);
			free(t);
		} else if (f != NULL)
			walk_includes(w, f, NULL, 0, depth + 1,
			    cond || level > 0);
		free(f);
	}
	free(guard);
	free(dir);
	free(buf);
}

/* The PCH arguments of the unit at path; its toolkit headers go into the
 * PCH when hoist is set. */
static int
unit_args(CXIndex idx, struct k_pcache *c, const char *path,
    const char *text, size_t len, struct k_strv *args, struct k_strv *deps,
    int hoist)
{
	struct walk w;
	int r;

	if (c == NULL || c->dir == NULL)
		return 0;
	memset(&w, 0, sizeof(w));
	w.args = args;
	if (hoist)
		w.toolkit = toolkit_include(args);
	if (k_prelude_kept())
		walk_includes(&w, path, text, len, 0, 0);
	r = pch_args_for(idx, c, args, deps, w.torch, &w.hoist);
	k_strv_free(&w.visited);
	k_strv_free(&w.hoist);
	free(w.toolkit);
	return r;
}

static int hoisting;

void
k_pch_hoist(int on)
{
	hoisting = on;
}

int
k_pch_unit_args(CXIndex idx, struct k_pcache *c, const char *path,
    const char *text, size_t len, struct k_strv *args, struct k_strv *deps)
{
	return unit_args(idx, c, path, text, len, args, deps, 0);
}

int
k_parse_pch(CXIndex idx, struct k_pcache *c, const char *path,
    const char *text, size_t len, const struct k_strv *args,
    CXTranslationUnit *tu, struct k_strv *deps)
{
	struct k_strv a = { 0 };
	size_t i;
	int e;

	for (i = 0; i < args->n; i++)
		k_strv_push(&a, args->v[i]);
	if (!unit_args(idx, c, path, text, len, &a, deps, hoisting)) {
		k_strv_free(&a);
		return k_parse(idx, path, text, len, args, tu);
	}
	e = k_parse(idx, path, text, len, &a, tu);
	k_strv_free(&a);
	if (e != 0 || *tu == NULL)
		/* a PCH libclang will not load: without it */
		e = k_parse(idx, path, text, len, args, tu);
	return e;
}
