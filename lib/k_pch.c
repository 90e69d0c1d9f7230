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
    const struct k_strv *a)
{
	char src[PATH_MAX], *pch, *tmp;
	struct CXUnsavedFile uf;
	CXTranslationUnit tu = NULL;
	json_t *files = json_array(), *deps = NULL, *v;
	unsigned i, errors = 0;
	int e;

	snprintf(src, sizeof(src), "%s/kforge-pch-%s.cu", c->dir, key);
	uf.Filename = src;
	uf.Contents = "\n";
	uf.Length = 1;
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

int
k_pch_args(CXIndex idx, struct k_pcache *c, struct k_strv *args,
    struct k_strv *deps)
{
	struct k_strv a = { 0 };
	struct k_buf k = { 0 };
	char key[K_SHA256_HEX], *ver;
	const char *path;
	json_t *v, *d;
	size_t i;

	if (c == NULL || c->dir == NULL || pch_args(args, &a) != 0)
		return 0;
	k_pkey_add(&k, "kforge-pch-1");
	ver = k_take(clang_getClangVersion());
	k_pkey_add(&k, ver);
	free(ver);
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
			v = make_pch(idx, c, key, &a);
		}
		json_object_set(known, key, v);
	}
	k_strv_free(&a);
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
k_parse_pch(CXIndex idx, struct k_pcache *c, const char *path,
    const char *text, size_t len, const struct k_strv *args,
    CXTranslationUnit *tu, struct k_strv *deps)
{
	struct k_strv a = { 0 };
	size_t i;
	int e;

	for (i = 0; i < args->n; i++)
		k_strv_push(&a, args->v[i]);
	if (!k_pch_args(idx, c, &a, deps)) {
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
