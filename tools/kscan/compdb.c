/*
 * Units and their flags from a build's compile_commands.json.
 */
#include "kscan.h"

/* ------------------------------------------- compile_commands.json */

/* Keep the flags that change what the parser sees (include paths, macros,
 * forced includes, the language standard) and drop the rest: nvcc's own
 * options mean nothing to clang. */
static void
keep_flags(struct unit *u, CXCompileCommand cmd, const char *dir)
{
	unsigned i, n = clang_CompileCommand_getNumArgs(cmd);
	static const char *with_value[] = { "-I", "-isystem", "-iquote",
	    "-include", "-D", "-U", "--include-path", "--define-macro",
	    "--system-include", NULL };

	for (i = 1; i < n; i++) {
		char *a = k_take(clang_CompileCommand_getArg(cmd, i));
		const char *val = NULL, *flag = NULL;
		int j;

		for (j = 0; with_value[j] != NULL; j++) {
			size_t l = strlen(with_value[j]);
			if (strcmp(a, with_value[j]) == 0 && i + 1 < n) {
				flag = with_value[j];
				free(a);
				a = k_take(clang_CompileCommand_getArg(cmd, ++i));
				val = a;
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
		free(a);
	}
}

int
read_compdb(const char *builddir)
{
	CXCompilationDatabase_Error err;
	CXCompilationDatabase db;
	CXCompileCommands cmds;
	unsigned i, n;

	db = clang_CompilationDatabase_fromDirectory(builddir, &err);
	if (err != CXCompilationDatabase_NoError || db == NULL) {
		k_warn(K_EXIT_RECORDS, builddir,
		    "cannot read compile_commands.json");
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
