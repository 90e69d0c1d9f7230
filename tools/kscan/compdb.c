/*
 * Units and their flags from a build's compile_commands.json.
 */
#include "kscan.h"

/* ------------------------------------------- compile_commands.json */

/* Keep the flags that change what the parser sees (include paths, macros,
 * forced includes, the language standard) and drop the rest: nvcc's own
 * options mean nothing to clang.  Response files (CMake passes include
 * paths and macros in --options-file includes_CUDA.rsp) are read.  The
 * flags that change what nvcc makes of the device code go to
 * u->build_flags, for slice.flags. */
static void
keep_flags(struct unit *u, CXCompileCommand cmd, const char *dir)
{
	unsigned i, n0 = clang_CompileCommand_getNumArgs(cmd);
	static const char *with_value[] = { "-I", "-isystem", "-iquote",
	    "-include", "-D", "-U", "--include-path", "--define-macro",
	    "--system-include", NULL };
	char **raw, **av;
	int n;

	if ((raw = calloc(n0 + 1, sizeof(*raw))) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	for (i = 0; i < n0; i++)
		raw[i] = k_take(clang_CompileCommand_getArg(cmd, i));
	json_decref(u->build_flags);
	u->build_flags = k_nvcc_flags((int)n0, (const char *const *)raw, dir);
	av = k_expand_options_files((int)n0 - 1, (const char *const *)raw + 1,
	    dir, &n);
	k_words_free(raw, (int)n0);
	for (i = 0; i < (unsigned)n; i++) {
		char *a = av[i];
		const char *val = NULL, *flag = NULL;
		int j;

		for (j = 0; with_value[j] != NULL; j++) {
			size_t l = strlen(with_value[j]);
			if (strcmp(a, with_value[j]) == 0 &&
			    i + 1 < (unsigned)n) {
				flag = with_value[j];
				val = av[++i];
				break;
			}
			if (strncmp(a, with_value[j], l) == 0 &&
			    a[l] != '\0' && with_value[j][1] != '-') {
				flag = with_value[j];
				val = a + l + (a[l] == '=');
				break;
			}
			if (strncmp(a, with_value[j], l) == 0 && a[l] == '=') {
				flag = with_value[j];
				val = a + l + 1;
				break;
			}
		}
		if (flag == NULL && strncmp(a, "-std=", 5) == 0) {
			k_strv_push(&u->flags, a);
		} else if (flag != NULL) {
			const char *f = strcmp(flag, "--include-path") == 0 ?
			    "-I" : strcmp(flag, "--define-macro") == 0 ?
			    "-D" : strcmp(flag, "--system-include") == 0 ?
			    "-isystem" : flag;
			char *abs = NULL;
			int path = f[1] != 'D' && f[1] != 'U';
			if (path && val[0] != '/' && dir != NULL) {
				abs = k_asprintf("%s/%s", dir, val);
				val = abs;
			}
			k_strv_push(&u->flags, f);
			k_strv_push(&u->flags, val);
			free(abs);
		}
	}
	k_words_free(av, n);
}

/* Why builddir's compile_commands.json cannot be read (static text), or
 * NULL when it can be opened. */
const char *
compdb_why(const char *builddir)
{
	static char why[PATH_MAX + 128];
	char *path = k_asprintf("%s/compile_commands.json", builddir);
	struct stat st;
	FILE *fp;

	if (stat(builddir, &st) != 0)
		snprintf(why, sizeof(why), "%s: %s", builddir,
		    strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		snprintf(why, sizeof(why), "%s: not a directory (-p names "
		    "the build directory that holds compile_commands.json)",
		    builddir);
	else if ((fp = fopen(path, "r")) == NULL)
		snprintf(why, sizeof(why), "%s: %s (CMake writes it with "
		    "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON, Bear with "
		    "\"bear -- make\", Meson and ninja builds by themselves)",
		    path, strerror(errno));
	else {
		fclose(fp);
		free(path);
		return NULL;
	}
	free(path);
	return why;
}

int
read_compdb(const char *builddir)
{
	CXCompilationDatabase_Error err;
	CXCompilationDatabase db;
	CXCompileCommands cmds;
	unsigned i, n;

	/* libclang prints its own message on stderr for a missing file:
	 * look first, so the run says it in one error record */
	if (compdb_why(builddir) != NULL)
		return -1;
	db = clang_CompilationDatabase_fromDirectory(builddir, &err);
	if (err != CXCompilationDatabase_NoError || db == NULL) {
		if (db != NULL)
			clang_CompilationDatabase_dispose(db);
		return -1;
	}
	cmds = clang_CompilationDatabase_getAllCompileCommands(db);
	n = cmds != NULL ? clang_CompileCommands_getSize(cmds) : 0;
	for (i = 0; i < n; i++) {
		CXCompileCommand c = clang_CompileCommands_getCommand(cmds, i);
		char *dir = k_take(clang_CompileCommand_getDirectory(c));
		char *file = k_take(clang_CompileCommand_getFilename(c));
		char *full = NULL;
		struct unit *u;

		if (file[0] != '/') {
			full = k_asprintf("%s/%s", dir, file);
		}
		u = add_unit(full != NULL ? full : file, dir, 0);
		if (!is_gpu_source_name(u->path))
			u->header = -1;
		keep_flags(u, c, dir);
		free(full);
		free(file);
		free(dir);
	}
	if (cmds != NULL)
		clang_CompileCommands_dispose(cmds);
	clang_CompilationDatabase_dispose(db);
	if (n == 0)
		k_warn(K_EXIT_RECORDS, builddir,
		    "compile_commands.json lists no files");
	return (int)n;
}
