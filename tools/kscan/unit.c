/*
 * One unit: its parser arguments, the parse of each side (host, device),
 * the diagnostics.
 */
#include "kscan.h"

/* ------------------------------------------------------- per unit */

/* "file:line:col: message" of a diagnostic, as a JSON string */
static json_t *
message_json(struct ctx *x, CXDiagnostic d)
{
	CXFile f;
	unsigned line, col;
	char *m = k_take(clang_getDiagnosticSpelling(d));
	char *buf;
	json_t *j;

	clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line,
	    &col, NULL);
	buf = k_asprintf("%s:%u:%u: %s", f != NULL ? file_info(x, f)->rel :
	    "<command line>", line, col, m);
	j = k_string_lossy(buf, strlen(buf));
	free(buf);
	free(m);
	return j;
}

/* The unit's errors; those nvcc accepts (k_nvcc_accepts) apart. */
static json_t *
diagnostics_json(struct ctx *x)
{
	unsigned i, n = clang_getNumDiagnostics(x->tu), errors = 0;
	json_t *o = json_object(), *msgs = json_array();
	json_t *acc = json_array();

	for (i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(x->tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Error && k_nvcc_accepts(d)) {
			if (json_array_size(acc) < MAX_DIAG_MESSAGES)
				json_array_append_new(acc,
				    message_json(x, d));
		} else if (sev >= CXDiagnostic_Error) {
			errors++;
			if (json_array_size(msgs) < MAX_DIAG_MESSAGES)
				json_array_append_new(msgs,
				    message_json(x, d));
		}
		clang_disposeDiagnostic(d);
	}
	json_object_set_new(o, "errors", json_integer(errors));
	json_object_set_new(o, "messages", msgs);
	if (json_array_size(acc) > 0)
		json_object_set_new(o, "nvcc_accepts", acc);
	else
		json_decref(acc);
	return o;
}

void
build_args(struct k_strv *a, const char *dialect, int device,
    const struct unit *u)
{
	struct k_parse_conf c;

	c.dialect = dialect;
	c.device = device;
	c.torch = 1;
	c.cuda_path = NULL;
	c.warnings = 0;
	k_build_args(a, &c, &opt.flags, &u->flags);
}

struct incl {
	struct unit *u;
	int device;		/* the side walked */
};

static void
note_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth,
    CXClientData data)
{
	struct incl *in = data;
	char *name, *real;

	(void)stack;
	(void)depth;
	name = k_take(clang_getFileName(f));
	real = realpath(name, NULL);
	free(name);
	if (real == NULL)
		return;
	if (k_prelude_dir()[0] != '\0' &&
	    strncmp(real, k_prelude_dir(), strlen(k_prelude_dir())) == 0) {
		free(real);
		return;
	}
	if (!in->device)
		k_strv_push(&in->u->seen, real);
	/* what the parse cache entry depends on: both sides' files */
	if (!k_strv_has(&in->u->deps, real))
		k_strv_push(&in->u->deps, real);
	free(real);
}

/*
 * A project include that is not found is usually one the build names with
 * -I: look for a file under the scanned directories whose path ends with
 * the spelled name and add the directory that makes it resolve.  Returns
 * the number of directories added.
 */
static int
recover_includes(CXTranslationUnit tu, struct unit *u)
{
	unsigned i, n = clang_getNumDiagnostics(tu);
	int added = 0;
	size_t j, k;

	for (i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		char *m = k_take(clang_getDiagnosticSpelling(d));
		char *q, *end;
		size_t ml;

		clang_disposeDiagnostic(d);
		ml = strlen(m);
		if (ml < 18 || strcmp(m + ml - 16, "' file not found") != 0 ||
		    m[0] != '\'') {
			free(m);
			continue;
		}
		u->missing = 1;
		q = m + 1;
		end = m + ml - 16;
		*end = '\0';
		for (j = 0; j < allfiles.n; j++) {
			const char *f = allfiles.v[j];
			size_t fl = strlen(f), ql = strlen(q);
			char *dir;
			int dup = 0;
			if (fl <= ql || strcmp(f + fl - ql, q) != 0 ||
			    f[fl - ql - 1] != '/')
				continue;
			dir = k_strndup(f, fl - ql - 1);
			for (k = 0; k + 1 < u->flags.n; k++)
				if (strcmp(u->flags.v[k], "-I") == 0 &&
				    strcmp(u->flags.v[k + 1], dir) == 0)
					dup = 1;
			if (!dup) {
				k_strv_push(&u->flags, "-I");
				k_strv_push(&u->flags, dir);
				added++;
			}
			free(dir);
			break;
		}
		free(m);
	}
	return added;
}

/* The parser's arguments for one side of a unit, with the macros it
 * assumes. */
static void
side_args(struct k_strv *args, struct unit *u, const char *dialect,
    int device)
{
	size_t i;

	build_args(args, dialect, device, u);
	for (i = 0; i < u->assume.n; i++) {
		k_strv_push(args, "-D");
		k_strv_push(args, u->assume.v[i]);
	}
}

/* Parse one side of a unit, loading the toolkit's precompiled headers
 * when there are some (lib/k_pch), else or when libclang will not load
 * them, without; a CXErrorCode. */
static int
parse_side(CXIndex idx, struct unit *u, const char *dialect, int device,
    CXTranslationUnit *tu)
{
	struct k_strv args = { 0 };
	int e;

	side_args(&args, u, dialect, device);
	e = k_parse_pch(idx, opt.cache.dir != NULL ? &opt.pch : NULL, u->path,
	    NULL, 0, &args, tu, &u->deps);
	k_strv_free(&args);
	return e;
}

static void resolve_quoted(struct unit *u);

/* Make, before the workers fork, the precompiled headers a unit's host
 * side will load, so that they do not all make them at once; its quoted
 * includes are resolved first, as its parse will find them (the workers
 * inherit the flags that adds). */
void
prepare_pch(struct unit *u, const char *dialect)
{
	static CXIndex idx;
	struct k_strv args = { 0 };

	if (opt.cache.dir == NULL || u->prepared)
		return;
	u->prepared = 1;
	if (idx == NULL)
		idx = clang_createIndex(0, 0);
	resolve_quoted(u);
	side_args(&args, u, dialect, 0);
	k_pch_unit_args(idx, &opt.pch, u->path, NULL, 0, &args, NULL);
	k_strv_free(&args);
}

/* The directory under the scanned ones that makes name resolve, by the
 * rule recover_includes follows (the first file whose path ends with
 * /name), added to the unit's -I flags unless there; its path, or NULL. */
static char *
add_include_dir(struct unit *u, const char *name)
{
	size_t j, k, ql = strlen(name);

	for (j = 0; j < allfiles.n; j++) {
		const char *f = allfiles.v[j];
		size_t fl = strlen(f);
		char *dir, *full;
		int dup = 0;
		if (fl <= ql || strcmp(f + fl - ql, name) != 0 ||
		    f[fl - ql - 1] != '/')
			continue;
		if ((dir = strndup(f, fl - ql - 1)) == NULL ||
		    (full = strdup(f)) == NULL)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		for (k = 0; k + 1 < u->flags.n; k++)
			if (strcmp(u->flags.v[k], "-I") == 0 &&
			    strcmp(u->flags.v[k + 1], dir) == 0)
				dup = 1;
		if (!dup) {
			k_strv_push(&u->flags, "-I");
			k_strv_push(&u->flags, dir);
		}
		free(dir);
		return full;
	}
	return NULL;
}

/* name found relative to dir, or in a directory that flags names with -I
 * or -iquote; a new string, or NULL. */
static char *
find_quoted(const char *dir, const char *name, const struct k_strv *flags)
{
	char *p;
	size_t i;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	if (access(p, R_OK) == 0)
		return p;
	free(p);
	for (i = 0; i + 1 < flags->n; i++) {
		if (strcmp(flags->v[i], "-I") != 0 &&
		    strcmp(flags->v[i], "-iquote") != 0)
			continue;
		if (asprintf(&p, "%s/%s", flags->v[i + 1], name) < 0)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		if (access(p, R_OK) == 0)
			return p;
		free(p);
	}
	return NULL;
}

/*
 * Quoted includes that would not be found, resolved before the first
 * parse by the rule that recovers them after it (recover_includes), in
 * the order the preprocessor meets them: a tree whose sources include
 * their headers by a path the build gives with -I is then parsed once,
 * not once per missing directory.  Includes the text holds in branches
 * the preprocessor skips are resolved too; what the parse still misses
 * is recovered as before.  A file whose text puts alignas after CUDA's
 * memory-space keywords is handed to the parse in clang's order
 * (k_alignas_first).
 */
static void
pre_resolve(struct unit *u, const char *path, int depth,
    struct k_strv *visited)
{
	char *text, *line, *next, *dir, *slash, *moved;
	size_t len;

	if (depth > 16 || k_strv_has(visited, path))
		return;
	k_strv_push(visited, path);
	if ((text = k_file_read(path, MAX_SOURCE, &len)) == NULL)
		return;
	u->weight += len;
	if ((moved = k_alignas_first(text, len)) != NULL) {
		/* the parse reads it with nvcc's order made clang's */
		k_strv_push(&u->rewrite_paths, path);
		k_strv_push(&u->rewrite_texts, moved);
		free(moved);
	}
	dir = k_strdup(path);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	else
		strcpy(dir, ".");
	for (line = text; line != NULL && *line != '\0'; line = next) {
		char *p = line, *q, *found;
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p++ != '#')
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, "include", 7) != 0)
			continue;
		for (p += 7; *p == ' ' || *p == '\t'; p++)
			;
		if (*p++ != '"' || (q = strchr(p, '"')) == NULL || q == p)
			continue;
		*q = '\0';
		if ((found = find_quoted(dir, p, &opt.flags)) == NULL &&
		    (found = find_quoted(dir, p, &u->flags)) == NULL &&
		    (found = add_include_dir(u, p)) != NULL)
			u->missing = 1;
		if (found != NULL)
			pre_resolve(u, found, depth + 1, visited);
		free(found);
	}
	free(dir);
	free(text);
}

/* pre_resolve, once a unit */
static void
resolve_quoted(struct unit *u)
{
	struct k_strv visited = { 0 };

	if (u->resolved)
		return;
	u->resolved = 1;
	pre_resolve(u, u->path, 0, &visited);
	k_strv_free(&visited);
}

/* How much project text a unit's parse reads: the unit and the files its
 * quoted includes reach, resolved as its parse will resolve them; 0 for a
 * unit scan_unit does not parse.  Units are parsed largest first. */
size_t
unit_weight(struct unit *u)
{
	char *text;
	size_t len;
	int skip;

	if (u->path[0] == '\0' || (text = k_file_read(u->path, MAX_SOURCE,
	    &len)) == NULL)
		return 0;
	skip = looks_binary(text, len) || (u->header == -1 &&
	    !mentions_gpu(text) && !chain_mentions(text));
	free(text);
	if (skip)
		return 0;
	resolve_quoted(u);
	return u->weight;
}

/* Parse one side (host or device) of a unit, with the macros it assumes,
 * and walk it. */
int
scan_side(CXIndex idx, struct unit *u, const char *dialect, int device,
    int *arch)
{
	CXTranslationUnit tu = NULL;
	struct ctx x;
	struct macros mac = { 0 };
	struct incl in;
	int e, round;
	size_t i;

	for (round = 0; round < 3; round++) {
		e = parse_side(idx, u, dialect, device, &tu);
		if (e != 0 || tu == NULL) {
			input_error(u, u->path, "parse-failed",
			    "parse failed: %s",
			    k_cx_error_text((enum CXErrorCode)e));
			return -1;
		}
		/* the last round's parse is walked whatever it misses */
		if (device || round == 2 || recover_includes(tu, u) == 0)
			break;
		clang_disposeTranslationUnit(tu);
		tu = NULL;
	}
	memset(&x, 0, sizeof(x));
	x.mac = &mac;
	x.u = u;
	x.tu = tu;
	x.dialect = dialect;
	x.device = device;
	x.keys = json_array();
	/* kernels found on the host side are not reported again */
	for (i = 0; i < json_array_size(u->kernels); i++)
		json_array_append(x.keys, json_object_get(
		    json_array_get(u->kernels, i), "_key"));
	x.diagnostics = diagnostics_json(&x);
	clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &x);
	in.u = u;
	in.device = device;
	clang_getInclusions(tu, note_inclusion, &in);
	if (!device) {
		chain_collect(&x);
		note_skipped(&x);
		/* a side only the device compiler sees exists when a project
		 * file tests __CUDA_ARCH__; it can hold a kernel or a launch
		 * the host side lacks only in what the host side skipped */
		for (i = 0; i < x.nfiles; i++)
			if (x.files[i]->project && x.files[i]->text != NULL &&
			    memmem(x.files[i]->text, x.files[i]->size,
			    "__CUDA_ARCH__", 13) != NULL)
				*arch = 1;
		if (*arch)
			*arch = skipped_holds_gpu(&x);
	}
	json_decref(x.keys);
	json_decref(x.diagnostics);
	macros_free(&mac);
	free_files(&x);
	clang_disposeTranslationUnit(tu);
	return 0;
}

void
scan_unit(CXIndex idx, struct unit *u)
{
	char *text;
	size_t len;
	const char *dialect;
	int arch = 0;
	double t0;

	if (u->path[0] == '\0')
		return;
	t0 = k_now();
	if ((text = k_file_read(u->path, MAX_SOURCE, &len)) == NULL) {
		input_error(u, u->path, "unreadable", "%s", strerror(errno));
		return;
	}
	if (looks_binary(text, len)) {
		input_error(u, u->path, "binary", "binary file, not scanned");
		free(text);
		return;
	}
	if (u->header == -1 && !mentions_gpu(text) && !chain_mentions(text)) {
		free(text);
		return;
	}
	dialect = dialect_of(u->path, text);
	free(text);
	resolve_quoted(u);
	k_parse_unsaved(&u->rewrite_paths, &u->rewrite_texts);
	if (scan_side(idx, u, dialect, 0, &arch) == 0) {
		if (arch)
			scan_side(idx, u, dialect, 1, &arch);
		recall(idx, u, dialect);
	}
	k_parse_unsaved(NULL, NULL);
	u->seconds = k_now() - t0;
	if (opt.timing)
		/* a measurement, not a warning: -q does not hide it */
		fprintf(stderr, "%s: %s: parsed in %.3f s%s\n", k_progname(),
		    u->path, u->seconds, arch ? " (host and device)" : "");
}
