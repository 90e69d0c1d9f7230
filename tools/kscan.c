/*
 * kscan: find every GPU kernel definition in CUDA and HIP sources through
 * libclang and write one record per kernel, with its launch sites.
 *
 * Launch sites are matched to kernels across translation units (a kernel
 * in a header is launched from the .cu files that include it), so records
 * are written once every file has been parsed, in (file, line) order.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>
#include <jansson.h>

#include "k_exit.h"
#include "k_hash.h"
#include "k_msg.h"
#include "k_parse.h"
#include "k_proc.h"
#include "k_record.h"

#define STAGE "kscan"
#define MAX_DIAG_MESSAGES 5
#define MAX_DEPTH 64		/* directory recursion */

static const char usage_line[] =
    "usage: kscan [-hqV] [-D macro[=value]] [-I dir] [-j jobs] [-p builddir]\n"
    "             [-x cuda | hip] [--mem mib] [--prelude auto | always | never]\n"
    "             [--root dir] [--timeout seconds] [--timing] [path ...]\n";

enum prelude_mode { PRELUDE_AUTO, PRELUDE_ALWAYS, PRELUDE_NEVER };

/* One translation unit to parse. */
struct unit {
	char *path;		/* as opened */
	char *dir;		/* working directory (compile_commands.json) */
	struct k_strv flags;	/* per-unit -I/-D/... flags */
	int header;		/* a header parsed on its own */
	json_t *kernels;	/* results, filled by a worker */
	json_t *launches;
	json_t *errors;		/* error records for this input */
	struct k_strv seen;	/* real paths of project files it included */
	double seconds;
};

static struct {
	char root[PATH_MAX];
	size_t rootlen;
	const char *lang;	/* forced dialect or NULL */
	struct k_strv flags;	/* -I and -D from the command line */
	enum prelude_mode prelude;
	int use_prelude[2];	/* decided per dialect: 0 cuda, 1 hip */
	char cuda_path[PATH_MAX];
	int jobs;
	int timing;
	double timeout;		/* per unit, seconds; 0: none */
} opt;

static struct unit *units;
static size_t nunits, capunits;

/* ---------------------------------------------------------------- utils */

/* Path relative to the root when under it; a new string. */
static char *
relpath(const char *path)
{
	char real[PATH_MAX];
	const char *p = path;

	if (realpath(path, real) != NULL)
		p = real;
	if (strncmp(p, opt.root, opt.rootlen) == 0 &&
	    (p[opt.rootlen] == '/' || p[opt.rootlen] == '\0')) {
		p += opt.rootlen;
		while (*p == '/')
			p++;
		if (*p == '\0')
			p = ".";
	}
	return strdup(p);
}

static int
has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

static int
is_header_name(const char *p)
{
	static const char *ext[] = { ".cuh", ".h", ".hpp", ".hh", ".hxx",
	    ".inl", ".inc", ".cuinc", NULL };
	int i;

	for (i = 0; ext[i] != NULL; i++)
		if (has_suffix(p, ext[i]))
			return 1;
	return 0;
}

static int
is_gpu_source_name(const char *p)
{
	return has_suffix(p, ".cu") || has_suffix(p, ".hip");
}

static int
is_cxx_source_name(const char *p)
{
	return has_suffix(p, ".cpp") || has_suffix(p, ".cc") ||
	    has_suffix(p, ".cxx") || has_suffix(p, ".c") ||
	    has_suffix(p, ".cu.cc") || has_suffix(p, ".cu.cpp");
}

/* Read a whole file (bounded); NULL with errno set on failure. */
static char *
slurp(const char *path, size_t *len)
{
	FILE *fp;
	char *buf = NULL;
	size_t cap = 0, n = 0, got;
	int saved;

	if ((fp = fopen(path, "rb")) == NULL)
		return NULL;
	for (;;) {
		if (n + 65536 + 1 > cap) {
			char *nb;
			cap = cap ? cap * 2 : 131072;
			if (cap > (size_t)256 << 20) {
				free(buf);
				fclose(fp);
				errno = EFBIG;
				return NULL;
			}
			if ((nb = realloc(buf, cap)) == NULL) {
				free(buf);
				fclose(fp);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 65536, fp);
		n += got;
		if (got < 65536)
			break;
	}
	saved = errno;
	if (ferror(fp)) {
		free(buf);
		fclose(fp);
		errno = saved ? saved : EIO;
		return NULL;
	}
	fclose(fp);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int
looks_binary(const char *buf, size_t n)
{
	return memchr(buf, '\0', n < 8192 ? n : 8192) != NULL;
}

/* Whether the text of a C++ source or header can hold GPU code at all: a
 * cheap filter deciding which non-.cu files are worth a parse; detection
 * itself is done on the AST. */
static int
mentions_gpu(const char *buf)
{
	return strstr(buf, "__global__") != NULL ||
	    strstr(buf, "<<<") != NULL ||
	    strstr(buf, "hipLaunchKernelGGL") != NULL ||
	    strstr(buf, "__launch_bounds__") != NULL;
}

static const char *
dialect_of(const char *path, const char *text)
{
	if (opt.lang != NULL)
		return opt.lang;
	if (has_suffix(path, ".hip"))
		return "hip";
	if (text != NULL && (strstr(text, "hip/hip_runtime") != NULL ||
	    strstr(text, "hipLaunchKernelGGL") != NULL))
		return "hip";
	return "cuda";
}

/* ------------------------------------------------------------ inputs */

static struct unit *
add_unit(const char *path, const char *dir, int header)
{
	struct unit *u;

	if (nunits == capunits) {
		capunits = capunits ? capunits * 2 : 64;
		units = realloc(units, capunits * sizeof(*units));
		if (units == NULL)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	}
	u = &units[nunits++];
	memset(u, 0, sizeof(*u));
	u->path = strdup(path);
	u->dir = dir != NULL ? strdup(dir) : NULL;
	u->header = header;
	u->kernels = json_array();
	u->launches = json_array();
	u->errors = json_array();
	return u;
}

/* An error record for an input that could not be scanned. */
static void
input_error(struct unit *u, const char *path, const char *code,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
input_error(struct unit *u, const char *path, const char *code,
    const char *fmt, ...)
{
	char msg[1024];
	char *rel = relpath(path);
	json_t *rec;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rec = json_object();
	json_object_set_new(rec, "id", json_string(rel));
	k_error(rec, STAGE, code, "%s: %s", rel, msg);
	json_array_append_new(u->errors, rec);
	free(rel);
}

static struct k_strv headers;	/* candidate headers found while walking */
static struct k_strv allfiles;	/* every file under a directory argument */

static int
strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
walk(const char *path, int depth, int explicit, size_t *found)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	struct k_strv names = { 0 };
	size_t i;

	if (stat(path, &st) != 0) {
		struct unit *u = add_unit(path, NULL, 0);
		input_error(u, path, "unreadable", "%s", strerror(errno));
		u->path[0] = '\0';	/* nothing to parse */
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		if (depth > MAX_DEPTH)
			return;
		if ((d = opendir(path)) == NULL) {
			struct unit *u = add_unit(path, NULL, 0);
			input_error(u, path, "unreadable", "%s",
			    strerror(errno));
			u->path[0] = '\0';
			return;
		}
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			k_strv_push(&names, de->d_name);
		}
		closedir(d);
		/* sorted, so that output order does not depend on the
		 * file system */
		if (names.n > 1)	/* an empty directory has no array */
			qsort(names.v, names.n, sizeof(char *), strcmp_ptr);
		for (i = 0; i < names.n; i++) {
			char *sub;
			if (asprintf(&sub, "%s%s%s", path,
			    has_suffix(path, "/") ? "" : "/", names.v[i]) < 0)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
			walk(sub, depth + 1, 0, found);
			free(sub);
		}
		k_strv_free(&names);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		if (explicit) {
			struct unit *u = add_unit(path, NULL, 0);
			input_error(u, path, "not-a-file",
			    "not a regular file");
			u->path[0] = '\0';
		}
		return;
	}
	if (!explicit)
		k_strv_push(&allfiles, path);
	if (explicit || is_gpu_source_name(path)) {
		add_unit(path, NULL, 0);
		(*found)++;
	} else if (is_header_name(path)) {
		k_strv_push(&headers, path);
		(*found)++;
	} else if (is_cxx_source_name(path)) {
		add_unit(path, NULL, 0)->header = -1;	/* filter by text */
		(*found)++;
	}
}

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
				if (asprintf(&abs, "%s/%s", dir, val) < 0)
					k_fatal(K_EXIT_SYSTEM, NULL,
					    "out of memory");
				val = abs;
			}
			k_strv_push(&u->flags, f);
			k_strv_push(&u->flags, val);
			free(abs);
		}
		free(a);
	}
}

static int
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
			if (asprintf(&full, "%s/%s", dir, file) < 0)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
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

/* ------------------------------------------------------------ prelude */

/* ------------------------------------------------------------ parsing */

struct fileinfo {
	CXFile file;
	char *rel;		/* project-relative path */
	char *real;
	int project;		/* not a system header, not the prelude */
	const char *text;	/* owned by the translation unit */
	size_t size;
};

struct ctx {
	struct unit *u;
	CXTranslationUnit tu;
	const char *dialect;
	int device;
	CXCursor func;		/* enclosing function, for launch sites */
	int in_func;
	struct fileinfo **files;	/* stable pointers: callers keep them */
	size_t nfiles, capfiles;
	json_t *diagnostics;	/* summary for kernels of this parse */
	json_t *keys;		/* kernels already found in this unit */
};

static struct fileinfo *
file_info(struct ctx *x, CXFile f)
{
	size_t i;
	struct fileinfo *fi;
	char *name;

	for (i = 0; i < x->nfiles; i++)
		if (clang_File_isEqual(x->files[i]->file, f))
			return x->files[i];
	if (x->nfiles == x->capfiles) {
		x->capfiles = x->capfiles ? x->capfiles * 2 : 32;
		x->files = realloc(x->files, x->capfiles * sizeof(*x->files));
		if (x->files == NULL)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	}
	if ((fi = calloc(1, sizeof(*fi))) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	x->files[x->nfiles++] = fi;
	fi->file = f;
	name = k_take(clang_getFileName(f));
	fi->real = realpath(name, NULL);
	if (fi->real == NULL)
		fi->real = strdup(name);
	fi->rel = relpath(name);
	fi->project = strncmp(fi->real, k_prelude_dir(),
	    strlen(k_prelude_dir())) != 0 || k_prelude_dir()[0] == '\0';
	fi->text = clang_getFileContents(x->tu, f, &fi->size);
	free(name);
	return fi;
}

static void
free_files(struct ctx *x)
{
	size_t i;

	for (i = 0; i < x->nfiles; i++) {
		free(x->files[i]->rel);
		free(x->files[i]->real);
		free(x->files[i]);
	}
	free(x->files);
	x->files = NULL;
	x->nfiles = x->capfiles = 0;
}

/* File position of a location: where a macro argument is written, else
 * where the macro that produced it is expanded. */
static struct fileinfo *
where(struct ctx *x, CXSourceLocation loc, unsigned *line, unsigned *off)
{
	CXFile f;
	unsigned col;

	clang_getFileLocation(loc, &f, line, &col, off);
	if (f == NULL)
		return NULL;
	return file_info(x, f);
}

static json_t *
text_json(struct fileinfo *fi, unsigned a, unsigned b)
{
	if (fi == NULL || fi->text == NULL || a > b || b > fi->size)
		return json_string("");
	return k_string_lossy(fi->text + a, b - a);
}

/* Source text of s[a..b) with runs of white space folded to one space. */
static json_t *
folded_json(struct fileinfo *fi, unsigned a, unsigned b)
{
	char *buf;
	size_t i, n = 0;
	int sp = 0;
	json_t *j;

	if (fi == NULL || fi->text == NULL || a > b || b > fi->size)
		return json_string("");
	if ((buf = malloc(b - a + 1)) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	for (i = a; i < b; i++) {
		char ch = fi->text[i];
		if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
			sp = n > 0;
			continue;
		}
		if (sp)
			buf[n++] = ' ';
		sp = 0;
		buf[n++] = ch;
	}
	j = k_string_lossy(buf, n);
	free(buf);
	return j;
}

static enum CXChildVisitResult
find_global(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CUDAGlobalAttr) {
		*(int *)data = 1;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

static int
has_global(CXCursor c)
{
	int found = 0;

	if (clang_Cursor_isNull(c))
		return 0;
	clang_visitChildren(c, find_global, &found);
	return found;
}

static int
is_kernel_ref(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);

	if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
		return 0;
	return has_global(c) || has_global(clang_getSpecializedCursorTemplate(c));
}

static void
qualify(CXCursor c, char *buf, size_t len)
{
	CXCursor p = clang_getCursorSemanticParent(c);
	enum CXCursorKind k = clang_getCursorKind(p);
	char *name;

	buf[0] = '\0';
	if (!clang_Cursor_isNull(p) && k != CXCursor_TranslationUnit &&
	    !clang_isInvalid(k)) {
		qualify(p, buf, len);
		if (buf[0] != '\0')
			strncat(buf, "::", len - strlen(buf) - 1);
	}
	name = k_take(clang_getCursorSpelling(c));
	if (name[0] == '\0' && k != CXCursor_TranslationUnit &&
	    clang_getCursorKind(c) == CXCursor_Namespace)
		strncat(buf, "(anonymous namespace)", len - strlen(buf) - 1);
	else
		strncat(buf, name, len - strlen(buf) - 1);
	free(name);
}

struct tok {
	char *s;
	unsigned a, b;		/* expansion offsets */
};

/* Tokens of a cursor's extent, with file offsets; *fip set to their file. */
static struct tok *
tokens(struct ctx *x, CXSourceRange r, unsigned *n, struct fileinfo **fip)
{
	CXToken *t = NULL;
	unsigned i, nt = 0, line, a, b;
	struct tok *out;
	struct fileinfo *sf;

	/* a range that starts or ends inside a macro expansion (__global__
	 * is a macro) tokenizes to nothing: map both ends to the file */
	sf = where(x, clang_getRangeStart(r), &line, &a);
	if (sf != NULL && where(x, clang_getRangeEnd(r), &line, &b) == sf &&
	    a <= b)
		r = clang_getRange(clang_getLocationForOffset(x->tu, sf->file, a),
		    clang_getLocationForOffset(x->tu, sf->file, b));
	clang_tokenize(x->tu, r, &t, &nt);
	out = calloc(nt + 1, sizeof(*out));
	if (out == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	*fip = NULL;
	for (i = 0; i < nt; i++) {
		CXSourceRange e = clang_getTokenExtent(x->tu, t[i]);
		struct fileinfo *fi;
		out[i].s = k_take(clang_getTokenSpelling(x->tu, t[i]));
		fi = where(x, clang_getRangeStart(e), &line, &out[i].a);
		where(x, clang_getRangeEnd(e), &line, &out[i].b);
		if (*fip == NULL)
			*fip = fi;
	}
	if (t != NULL)
		clang_disposeTokens(x->tu, t, nt);
	*n = nt;
	return out;
}

static void
free_tokens(struct tok *t, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		free(t[i].s);
	free(t);
}

static int
opens(const char *s)
{
	return strcmp(s, "(") == 0 || strcmp(s, "[") == 0 ||
	    strcmp(s, "{") == 0 || strcmp(s, "<<<") == 0;
}

static int
closes(const char *s)
{
	return strcmp(s, ")") == 0 || strcmp(s, "]") == 0 ||
	    strcmp(s, "}") == 0 || strcmp(s, ">>>") == 0;
}

/* Split tokens [a, b) at top-level commas into an array of spelled
 * expressions. */
static json_t *
split_args(struct fileinfo *fi, struct tok *t, unsigned a, unsigned b)
{
	json_t *arr = json_array();
	unsigned i, start = a;
	int depth = 0;

	if (a >= b)
		return arr;
	for (i = a; i <= b; i++) {
		if (i == b || (depth == 0 && strcmp(t[i].s, ",") == 0)) {
			if (i > start)
				json_array_append_new(arr, folded_json(fi,
				    t[start].a, t[i - 1].b));
			start = i + 1;
			continue;
		}
		if (opens(t[i].s))
			depth++;
		else if (closes(t[i].s))
			depth--;
	}
	return arr;
}

/* Index of the token closing the bracket opened at t[i], or n. */
static unsigned
matching(struct tok *t, unsigned i, unsigned n)
{
	int depth = 0;

	for (; i < n; i++) {
		if (opens(t[i].s))
			depth++;
		else if (closes(t[i].s) && --depth == 0)
			return i;
	}
	return n;
}

/* Index of the '>' closing the '<' at t[i] ('>>' closes two), or i. */
static unsigned
matching_angle(struct tok *t, unsigned i, unsigned n)
{
	int depth = 0;
	unsigned j;

	for (j = i; j < n; j++) {
		if (strcmp(t[j].s, "<") == 0)
			depth++;
		else if (strcmp(t[j].s, ">") == 0)
			depth--;
		else if (strcmp(t[j].s, ">>") == 0)
			depth -= 2;
		else if (strcmp(t[j].s, "(") == 0)
			j = matching(t, j, n);
		if (depth <= 0)
			return j < n ? j : i;
	}
	return i;
}

/* Template arguments spelled in <...> right after the kernel's name in
 * text (a launch's kernel expression), if any. */
static json_t *
template_args_of(const char *text, const char *name)
{
	const char *lt = NULL, *gt, *p, *start;
	json_t *arr = json_array();
	size_t nl = strlen(name);
	int depth = 0;

	for (p = text; nl > 0 && (p = strstr(p, name)) != NULL; p += nl) {
		const char *q = p + nl;
		if (p > text && (p[-1] == '_' || isalnum((unsigned char)p[-1])))
			continue;
		while (*q == ' ')
			q++;
		if (*q == '<') {
			lt = q;
			break;
		}
	}
	if (lt == NULL)
		return arr;
	/* the matching '>' */
	for (gt = lt + 1, depth = 0; *gt != '\0'; gt++) {
		if (*gt == '<' || *gt == '(')
			depth++;
		else if (*gt == ')' || (*gt == '>' && depth > 0))
			depth--;
		else if (*gt == '>')
			break;
	}
	if (*gt != '>')
		return arr;
	depth = 0;
	for (p = start = lt + 1; p <= gt; p++) {
		if (p == gt || (depth == 0 && *p == ',')) {
			const char *e = p;
			while (start < e && *start == ' ')
				start++;
			while (e > start && e[-1] == ' ')
				e--;
			if (e > start)
				json_array_append_new(arr,
				    json_stringn(start, e - start));
			start = p + 1;
			continue;
		}
		if (*p == '<' || *p == '(')
			depth++;
		else if (*p == '>' || *p == ')')
			depth--;
	}
	return arr;
}

struct findref {
	CXCursor found;
};

static enum CXChildVisitResult
find_kernel_ref(CXCursor c, CXCursor parent, CXClientData data)
{
	struct findref *f = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k == CXCursor_DeclRefExpr || k == CXCursor_OverloadedDeclRef) {
		CXCursor r = clang_getCursorReferenced(c);
		if (k == CXCursor_OverloadedDeclRef &&
		    clang_getNumOverloadedDecls(c) > 0)
			r = clang_getOverloadedDecl(c, 0);
		if (is_kernel_ref(r)) {
			f->found = r;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* The kernel an expression names, itself or below it, or a null cursor. */
static CXCursor
kernel_in(CXCursor e)
{
	struct findref f;

	f.found = clang_getNullCursor();
	if (find_kernel_ref(e, clang_getNullCursor(), &f) ==
	    CXChildVisit_Break)
		return f.found;
	clang_visitChildren(e, find_kernel_ref, &f);
	return f.found;
}

static enum CXChildVisitResult
first_child(CXCursor c, CXCursor parent, CXClientData data)
{
	struct findref *f = data;

	(void)parent;
	f->found = c;
	return CXChildVisit_Break;
}

static void
check_launch(struct ctx *x, CXCursor call)
{
	CXCursor ref = clang_getCursorReferenced(call), kernel, tmpl;
	struct findref fr;
	struct fileinfo *fi;
	struct tok *t;
	unsigned n, i, line, off, chev = 0, close;
	const char *kind;
	char *name, fname[1024];
	json_t *l, *args = NULL, *cfg = NULL;
	char key[PATH_MAX + 64];

	fr.found = clang_getNullCursor();
	if (clang_Cursor_isNull(ref)) {
		/* a call in a template whose callee depends on a template
		 * parameter (kernel<T><<<...>>>) resolves to nothing: the
		 * callee's lookup set names the kernel template */
		clang_visitChildren(call, first_child, &fr);
		if (clang_Cursor_isNull(fr.found))
			return;
		ref = kernel_in(fr.found);
		if (clang_Cursor_isNull(ref))
			return;
		fr.found = clang_getNullCursor();
	}
	name = k_take(clang_getCursorSpelling(ref));
	if (strcmp(name, "hipLaunchKernelGGL") == 0)
		kind = "hipLaunchKernelGGL";
	else if (strcmp(name, "cudaLaunchKernel") == 0 ||
	    strcmp(name, "cudaLaunchCooperativeKernel") == 0)
		kind = "cudaLaunchKernel";
	else if (is_kernel_ref(ref))
		kind = "chevron";
	else {
		free(name);
		return;
	}
	free(name);
	if (strcmp(kind, "chevron") == 0)
		kernel = ref;
	else {
		if (clang_Cursor_getNumArguments(call) < 1)
			return;
		kernel = kernel_in(clang_Cursor_getArgument(call, 0));
		if (clang_Cursor_isNull(kernel))
			return;
	}

	t = tokens(x, clang_getCursorExtent(call), &n, &fi);
	if (fi == NULL || !fi->project) {
		free_tokens(t, n);
		return;
	}
	where(x, clang_getCursorLocation(call), &line, &off);
	l = json_object();
	json_object_set_new(l, "file", json_string(fi->rel));
	json_object_set_new(l, "line", json_integer(line));
	if (x->in_func)
		qualify(x->func, fname, sizeof(fname));
	json_object_set_new(l, "function", x->in_func ?
	    json_string(fname) : json_null());
	json_object_set_new(l, "kind", json_string(kind));
	if (strcmp(kind, "chevron") == 0) {
		for (chev = 0; chev < n && strcmp(t[chev].s, "<<<") != 0; chev++)
			;
		if (chev == n || chev == 0) {
			json_decref(l);
			free_tokens(t, n);
			return;
		}
		json_object_set_new(l, "kernel",
		    folded_json(fi, t[0].a, t[chev - 1].b));
		close = matching(t, chev, n);
		cfg = split_args(fi, t, chev + 1, close);
		if (close + 1 < n && strcmp(t[close + 1].s, "(") == 0)
			args = split_args(fi, t, close + 2,
			    matching(t, close + 1, n));
	} else {
		json_t *all;
		for (i = 0; i < n && strcmp(t[i].s, "(") != 0; i++)
			;
		all = split_args(fi, t, i + 1, matching(t, i, n));
		json_object_set_new(l, "kernel", json_array_size(all) > 0 ?
		    json_incref(json_array_get(all, 0)) : json_string(""));
		cfg = json_array();
		args = json_array();
		if (strcmp(kind, "hipLaunchKernelGGL") == 0) {
			/* kernel, grid, block, shmem, stream, args... */
			for (i = 1; i < json_array_size(all); i++)
				json_array_append(i <= 4 ? cfg : args,
				    json_array_get(all, i));
		} else {
			/* kernel, grid, block, args, shmem, stream */
			static const int order[] = { 1, 2, 4, 5 };
			for (i = 0; i < 4; i++)
				if ((size_t)order[i] < json_array_size(all))
					json_array_append(cfg, json_array_get(
					    all, order[i]));
			if (json_array_size(all) > 3)
				json_array_append(args, json_array_get(all, 3));
		}
		json_decref(all);
	}
	name = k_take(clang_getCursorSpelling(kernel));
	json_object_set_new(l, "template_args", template_args_of(
	    json_string_value(json_object_get(l, "kernel")), name));
	free(name);
	json_object_set_new(l, "grid", json_array_size(cfg) > 0 ?
	    json_incref(json_array_get(cfg, 0)) : json_null());
	json_object_set_new(l, "block", json_array_size(cfg) > 1 ?
	    json_incref(json_array_get(cfg, 1)) : json_null());
	json_object_set_new(l, "shared_mem", json_array_size(cfg) > 2 ?
	    json_incref(json_array_get(cfg, 2)) : json_null());
	json_object_set_new(l, "stream", json_array_size(cfg) > 3 ?
	    json_incref(json_array_get(cfg, 3)) : json_null());
	json_object_set_new(l, "args", args != NULL ? args : json_array());
	json_decref(cfg);

	/* matching keys, removed before output */
	json_object_set_new(l, "_usr", k_take_json(clang_getCursorUSR(kernel)));
	tmpl = clang_getSpecializedCursorTemplate(kernel);
	json_object_set_new(l, "_tusr", clang_Cursor_isNull(tmpl) ?
	    json_string("") : k_take_json(clang_getCursorUSR(tmpl)));
	snprintf(key, sizeof(key), "%s:%u", fi->real, off);
	json_object_set_new(l, "_key", json_string(key));
	json_array_append_new(x->u->launches, l);
	free_tokens(t, n);
}

/* --------------------------------------------------------- kernels */

struct childlist {
	CXCursor *v;
	unsigned n, cap;
	enum CXCursorKind want[4];
};

static enum CXChildVisitResult
collect_kind(CXCursor c, CXCursor parent, CXClientData data)
{
	struct childlist *l = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	int i;

	(void)parent;
	for (i = 0; i < 4; i++) {
		if (l->want[i] != k)
			continue;
		if (l->n == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 8;
			l->v = realloc(l->v, l->cap * sizeof(*l->v));
			if (l->v == NULL)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		}
		l->v[l->n++] = c;
		break;
	}
	return CXChildVisit_Continue;
}

static void
children(CXCursor c, struct childlist *l, enum CXCursorKind a,
    enum CXCursorKind b, enum CXCursorKind d)
{
	memset(l, 0, sizeof(*l));
	l->want[0] = a;
	l->want[1] = b;
	l->want[2] = d;
	l->want[3] = a;
	clang_visitChildren(c, collect_kind, l);
}

static json_t *
param_json(struct ctx *x, CXCursor p)
{
	CXType t = clang_getCursorType(p), pt = t, first;
	json_t *o = json_object();
	char *canon = k_take(clang_getTypeSpelling(clang_getCanonicalType(t)));
	unsigned depth = 0, a, b, line;
	struct fileinfo *fi;
	CXSourceRange r = clang_getCursorExtent(p);
	int invalid = clang_isInvalidDeclaration(p);

	first = t;
	while (pt.kind == CXType_Pointer || pt.kind == CXType_IncompleteArray ||
	    pt.kind == CXType_ConstantArray) {
		pt = pt.kind == CXType_Pointer ? clang_getPointeeType(pt) :
		    clang_getArrayElementType(pt);
		if (depth++ == 0)
			first = pt;
	}
	fi = where(x, clang_getRangeStart(r), &line, &a);
	where(x, clang_getRangeEnd(r), &line, &b);
	json_object_set_new(o, "name", k_take_json(clang_getCursorSpelling(p)));
	json_object_set_new(o, "type", k_take_json(clang_getTypeSpelling(t)));
	json_object_set_new(o, "canonical_type", k_string_lossy(canon,
	    strlen(canon)));
	json_object_set_new(o, "spelled", folded_json(fi, a, b));
	json_object_set_new(o, "pointer_depth", json_integer(depth));
	json_object_set_new(o, "pointee_type", depth > 0 ?
	    k_take_json(clang_getTypeSpelling(pt)) : json_null());
	json_object_set_new(o, "const", json_boolean(
	    clang_isConstQualifiedType(depth > 0 ? first : t)));
	json_object_set_new(o, "restrict", json_boolean(
	    clang_isRestrictQualifiedType(t)));
	json_object_set_new(o, "reference", json_boolean(
	    t.kind == CXType_LValueReference || t.kind == CXType_RValueReference));
	json_object_set_new(o, "template_dependent", json_boolean(
	    strstr(canon, "type-parameter-") != NULL));
	if (invalid)
		/* clang replaced an unknown type by int: say so, and keep
		 * the spelling as the only trustworthy type */
		json_object_set_new(o, "invalid", json_true());
	free(canon);
	return o;
}

static json_t *
template_params_json(struct ctx *x, CXCursor c)
{
	struct childlist l;
	json_t *arr = json_array();
	unsigned i, a, b, line;

	children(c, &l, CXCursor_TemplateTypeParameter,
	    CXCursor_NonTypeTemplateParameter,
	    CXCursor_TemplateTemplateParameter);
	for (i = 0; i < l.n; i++) {
		json_t *o = json_object();
		enum CXCursorKind k = clang_getCursorKind(l.v[i]);
		CXSourceRange r = clang_getCursorExtent(l.v[i]);
		struct fileinfo *fi = where(x, clang_getRangeStart(r), &line,
		    &a);
		where(x, clang_getRangeEnd(r), &line, &b);
		json_object_set_new(o, "name",
		    k_take_json(clang_getCursorSpelling(l.v[i])));
		json_object_set_new(o, "kind", json_string(
		    k == CXCursor_TemplateTypeParameter ? "type" :
		    k == CXCursor_NonTypeTemplateParameter ? "value" :
		    "template"));
		json_object_set_new(o, "type",
		    k == CXCursor_NonTypeTemplateParameter ?
		    k_take_json(clang_getTypeSpelling(
		    clang_getCursorType(l.v[i]))) : json_null());
		json_object_set_new(o, "spelled", folded_json(fi, a, b));
		json_array_append_new(arr, o);
	}
	free(l.v);
	return arr;
}

/* Attributes in the declaration head: launch bounds and register limits,
 * with their argument expressions as spelled. */
static json_t *
attributes_json(struct fileinfo *fi, struct tok *t, unsigned n)
{
	json_t *arr = json_array();
	unsigned i;

	for (i = 0; i + 1 < n; i++) {
		const char *name = NULL;
		if (strcmp(t[i].s, "__launch_bounds__") == 0 ||
		    strcmp(t[i].s, "launch_bounds") == 0)
			name = "launch_bounds";
		else if (strcmp(t[i].s, "__maxnreg__") == 0 ||
		    strcmp(t[i].s, "maxnreg") == 0)
			name = "maxnreg";
		if (name != NULL && strcmp(t[i + 1].s, "(") == 0) {
			json_t *o = json_object();
			unsigned close = matching(t, i + 1, n);
			json_object_set_new(o, "name", json_string(name));
			json_object_set_new(o, "args",
			    split_args(fi, t, i + 2, close));
			json_array_append_new(arr, o);
			i = close;
		}
	}
	return arr;
}

static void
add_kernel(struct ctx *x, CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXSourceLocation nameloc = clang_getCursorLocation(c);
	CXCursor body = clang_getNullCursor(), tmpl, mc;
	struct childlist l;
	struct fileinfo *fi, *nfi, *tfi;
	unsigned a, b, la, lb, noff, nline, i, n, head;
	char qname[2048], key[PATH_MAX + 300];
	char *name = k_take(clang_getCursorSpelling(c));
	char sha[K_SHA256_HEX];
	json_t *k, *s, *params, *macro = NULL;
	struct tok *t;
	int is_macro;

	nfi = where(x, nameloc, &nline, &noff);
	if (nfi == NULL || !nfi->project) {
		free(name);
		return;
	}
	/* a kernel whose name is not spelled where it expands came out of
	 * a macro invocation */
	is_macro = nfi->text == NULL || noff + strlen(name) > nfi->size ||
	    strncmp(nfi->text + noff, name, strlen(name)) != 0;
	fi = where(x, clang_getRangeStart(r), &la, &a);
	where(x, clang_getRangeEnd(r), &lb, &b);
	if (b <= a)
		/* the definition's ends come out of a macro body */
		is_macro = 1;
	if (is_macro) {
		mc = clang_getCursor(x->tu, clang_getLocationForOffset(x->tu,
		    nfi->file, noff));
		macro = json_object();
		if (clang_getCursorKind(mc) == CXCursor_MacroExpansion) {
			CXCursor def = clang_getCursorReferenced(mc);
			CXSourceRange mr = clang_getCursorExtent(mc);
			unsigned dl, doff;
			struct fileinfo *dfi;
			fi = where(x, clang_getRangeStart(mr), &la, &a);
			where(x, clang_getRangeEnd(mr), &lb, &b);
			json_object_set_new(macro, "name",
			    k_take_json(clang_getCursorSpelling(mc)));
			if (!clang_Cursor_isNull(def) &&
			    (dfi = where(x, clang_getCursorLocation(def), &dl,
			    &doff)) != NULL) {
				json_object_set_new(macro, "file",
				    json_string(dfi->rel));
				json_object_set_new(macro, "line",
				    json_integer(dl));
			}
		} else {
			fi = nfi;
			la = lb = nline;
			a = noff;
			b = noff;
		}
	}
	snprintf(key, sizeof(key), "%s:%u:%s", nfi->real, noff, name);
	for (i = 0; i < json_array_size(x->keys); i++)
		if (strcmp(json_string_value(json_array_get(x->keys, i)),
		    key) == 0) {
			free(name);
			json_decref(macro);
			return;
		}
	json_array_append_new(x->keys, json_string(key));

	k = json_object();
	s = json_object();
	json_object_set_new(k, "scan", s);
	qualify(c, qname, sizeof(qname));
	tmpl = clang_getCursorKind(c) == CXCursor_FunctionDecl ?
	    clang_getSpecializedCursorTemplate(c) : clang_getNullCursor();

	/* the declaration head: everything before the body */
	children(c, &l, CXCursor_CompoundStmt, CXCursor_CompoundStmt,
	    CXCursor_CompoundStmt);
	if (l.n > 0)
		body = l.v[l.n - 1];
	free(l.v);
	t = tokens(x, r, &n, &tfi);
	head = n;
	if (!clang_Cursor_isNull(body)) {
		unsigned bline, boff;
		where(x, clang_getCursorLocation(body), &bline, &boff);
		for (head = 0; head < n && t[head].a < boff; head++)
			;
	}
	if (!clang_Cursor_isNull(tmpl)) {
		/* an explicit specialization: its arguments belong to the
		 * name, so that it does not collide with the template */
		for (i = 0; i < head; i++)
			if (strcmp(t[i].s, name) == 0 && i + 1 < head &&
			    strcmp(t[i + 1].s, "<") == 0) {
				json_t *ta = folded_json(fi, t[i + 1].a,
				    t[matching_angle(t, i + 1, head)].b);
				strncat(qname, json_string_value(ta),
				    sizeof(qname) - strlen(qname) - 1);
				json_decref(ta);
				break;
			}
	}

	json_object_set_new(s, "file", json_string(nfi->rel));
	json_object_set_new(s, "line", json_integer(la));
	json_object_set_new(s, "end_line", json_integer(lb));
	if (k_sha256_file(nfi->real, sha) == 0)
		json_object_set_new(s, "sha256", json_string(sha));
	else
		json_object_set_new(s, "sha256", json_null());
	json_object_set_new(s, "name", json_string(name));
	json_object_set_new(s, "qualified_name", json_string(qname));
	json_object_set_new(s, "usr", k_take_json(clang_getCursorUSR(c)));
	json_object_set_new(s, "dialect", json_string(x->dialect));
	if (is_macro) {
		char *rt = k_take(clang_getTypeSpelling(
		    clang_getCursorResultType(c)));
		char *dn = k_take(clang_getCursorDisplayName(c));
		char *sig;
		if (asprintf(&sig, "__global__ %s %s", rt, dn) < 0)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		json_object_set_new(s, "signature", json_string(sig));
		free(sig);
		free(rt);
		free(dn);
	} else {
		/* skip a template header: the signature is the function's */
		unsigned from = 0;
		if (n > 0 && strcmp(t[0].s, "template") == 0 && n > 1)
			from = matching_angle(t, 1, head) + 1;
		json_object_set_new(s, "signature", from < head ?
		    folded_json(fi, t[from].a, t[head - 1].b) :
		    json_string(""));
	}
	params = json_array();
	children(c, &l, CXCursor_ParmDecl, CXCursor_ParmDecl,
	    CXCursor_ParmDecl);
	for (i = 0; i < l.n; i++)
		json_array_append_new(params, param_json(x, l.v[i]));
	free(l.v);
	json_object_set_new(s, "params", params);
	json_object_set_new(s, "template_params", template_params_json(x, c));
	json_object_set_new(s, "attributes", attributes_json(fi, t, head));
	if (!clang_Cursor_isNull(tmpl))
		json_object_set_new(s, "specialization_of",
		    k_take_json(clang_getCursorUSR(tmpl)));
	json_object_set_new(s, "text", text_json(fi, a, b));
	if (macro != NULL)
		json_object_set_new(s, "macro", macro);
	json_object_set_new(s, "device_only", json_boolean(x->device));
	{
		char *tu = relpath(x->u->path);
		json_t *fl = json_array();
		size_t j;
		json_object_set_new(s, "tu", json_string(tu));
		free(tu);
		for (j = 0; j < opt.flags.n; j++)
			json_array_append_new(fl, json_string(opt.flags.v[j]));
		for (j = 0; j < x->u->flags.n; j++)
			json_array_append_new(fl,
			    json_string(x->u->flags.v[j]));
		json_object_set_new(s, "flags", fl);
	}
	json_object_set_new(s, "launches", json_array());
	json_object_set_new(s, "diagnostics", json_incref(x->diagnostics));
	json_object_set_new(k, "_key", json_string(key));
	json_array_append_new(x->u->kernels, k);
	free_tokens(t, n);
	free(name);
}

static int
is_function_like(enum CXCursorKind k)
{
	return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate ||
	    k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
	    k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

static enum CXChildVisitResult
visit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct ctx *x = data, sub;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXSourceLocation loc;
	CXFile f;

	(void)parent;
	if (clang_isPreprocessing(k) || clang_isAttribute(k))
		return CXChildVisit_Continue;
	loc = clang_getCursorLocation(c);
	if (!x->in_func) {
		if (clang_Location_isInSystemHeader(loc))
			return CXChildVisit_Continue;
		clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
		if (f != NULL && !file_info(x, f)->project)
			return CXChildVisit_Continue;
	}
	if (is_function_like(k)) {
		if ((k == CXCursor_FunctionDecl ||
		    k == CXCursor_FunctionTemplate) &&
		    clang_isCursorDefinition(c) && has_global(c))
			add_kernel(x, c);
		if (!clang_isCursorDefinition(c))
			return CXChildVisit_Continue;
		sub = *x;
		sub.func = c;
		sub.in_func = 1;
		clang_visitChildren(c, visit, &sub);
		/* the file table may have grown in the child walk */
		x->files = sub.files;
		x->nfiles = sub.nfiles;
		x->capfiles = sub.capfiles;
		return CXChildVisit_Continue;
	}
	if (k == CXCursor_CallExpr && x->in_func)
		check_launch(x, c);
	return CXChildVisit_Recurse;
}

/* ------------------------------------------------------- per unit */

static json_t *
diagnostics_json(struct ctx *x)
{
	unsigned i, n = clang_getNumDiagnostics(x->tu), errors = 0;
	json_t *o = json_object(), *msgs = json_array();

	for (i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(x->tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Error) {
			errors++;
			if (json_array_size(msgs) < MAX_DIAG_MESSAGES) {
				CXFile f;
				unsigned line, col;
				char *m = k_take(clang_getDiagnosticSpelling(d));
				char *buf;
				clang_getExpansionLocation(
				    clang_getDiagnosticLocation(d), &f, &line,
				    &col, NULL);
				if (asprintf(&buf, "%s:%u:%u: %s", f != NULL ?
				    file_info(x, f)->rel : "<command line>",
				    line, col, m) < 0)
					k_fatal(K_EXIT_SYSTEM, NULL,
					    "out of memory");
				json_array_append_new(msgs,
				    k_string_lossy(buf, strlen(buf)));
				free(buf);
				free(m);
			}
		}
		clang_disposeDiagnostic(d);
	}
	json_object_set_new(o, "errors", json_integer(errors));
	json_object_set_new(o, "messages", msgs);
	return o;
}

/* Parser arguments for one side of a unit: the prelude or the toolkit as
 * decided for the dialect, the torch stand-in last, then the command
 * line's flags and the unit's. */
static void
build_args(struct k_strv *a, const char *dialect, int device,
    const struct unit *u)
{
	struct k_parse_conf c;

	c.dialect = dialect;
	c.device = device;
	c.prelude = opt.use_prelude[strcmp(dialect, "hip") == 0];
	c.torch = 1;
	c.cuda_path = opt.cuda_path;
	k_build_args(a, &c, &opt.flags, &u->flags);
}

struct incl {
	struct unit *u;
	int arch;		/* some project file mentions __CUDA_ARCH__ */
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
	k_strv_push(&in->u->seen, real);
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
			if ((dir = strndup(f, fl - ql - 1)) == NULL)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
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

/* Parse one side (host or device) of a unit and walk it. */
static int
scan_side(CXIndex idx, struct unit *u, const char *dialect, int device,
    int *arch)
{
	struct k_strv args = { 0 };
	CXTranslationUnit tu = NULL;
	struct ctx x;
	struct incl in;
	int e, round;
	size_t i;

	for (round = 0; round < 3; round++) {
		build_args(&args, dialect, device, u);
		e = k_parse(idx, u->path, NULL, 0, &args, &tu);
		k_strv_free(&args);
		if (e != 0 || tu == NULL) {
			input_error(u, u->path, "parse-failed",
			    "parse failed: %s",
			    k_cx_error_text((enum CXErrorCode)e));
			return -1;
		}
		if (device || recover_includes(tu, u) == 0)
			break;
		clang_disposeTranslationUnit(tu);
		tu = NULL;
	}
	memset(&x, 0, sizeof(x));
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
	if (!device) {
		in.u = u;
		in.arch = 0;
		clang_getInclusions(tu, note_inclusion, &in);
		/* a side only the device compiler sees exists when a project
		 * file tests __CUDA_ARCH__ */
		for (i = 0; i < x.nfiles; i++)
			if (x.files[i]->project && x.files[i]->text != NULL &&
			    memmem(x.files[i]->text, x.files[i]->size,
			    "__CUDA_ARCH__", 13) != NULL)
				*arch = 1;
	}
	json_decref(x.keys);
	json_decref(x.diagnostics);
	free_files(&x);
	clang_disposeTranslationUnit(tu);
	return 0;
}

static void
scan_unit(CXIndex idx, struct unit *u)
{
	char *text;
	size_t len;
	const char *dialect;
	int arch = 0;
	struct timespec t0, t1;

	if (u->path[0] == '\0')
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((text = slurp(u->path, &len)) == NULL) {
		input_error(u, u->path, "unreadable", "%s", strerror(errno));
		return;
	}
	if (looks_binary(text, len)) {
		input_error(u, u->path, "binary", "binary file, not scanned");
		free(text);
		return;
	}
	if (u->header == -1 && !mentions_gpu(text)) {
		free(text);
		return;
	}
	dialect = dialect_of(u->path, text);
	free(text);
	if (scan_side(idx, u, dialect, 0, &arch) == 0 && arch)
		scan_side(idx, u, dialect, 1, &arch);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	u->seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (opt.timing)
		/* a measurement, not a warning: -q does not hide it */
		fprintf(stderr, "%s: %s: parsed in %.3f s%s\n", k_progname(),
		    u->path, u->seconds, arch ? " (host and device)" : "");
}

/* ------------------------------------------------------------ workers */

/*
 * Units are scanned in forked workers, -j at a time: libclang can crash on
 * a file in a way its crash recovery does not catch (a stack overflow), or
 * run for ever on one (exponential template instantiation), and either
 * must cost that file, not the run.
 */

static json_t *
strv_json(const struct k_strv *s)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < s->n; i++)
		json_array_append_new(a, k_string_lossy(s->v[i],
		    strlen(s->v[i])));
	return a;
}

static void
strv_from_json(struct k_strv *s, json_t *a)
{
	json_t *v;
	size_t i;

	k_strv_free(s);
	json_array_foreach(a, i, v)
		if (json_is_string(v))
			k_strv_push(s, json_string_value(v));
}

/* The worker: scan the units whose indexes arrive on in; reply with what
 * scan_unit found, as one line. */
static void
serve(FILE *in, void *arg)
{
	CXIndex idx = clang_createIndex(0, 0);
	char line[64];
	json_t *r;
	size_t i;

	(void)arg;
	while (fgets(line, sizeof(line), in) != NULL) {
		struct unit *u;

		if ((i = strtoul(line, NULL, 10)) >= nunits)
			break;
		u = &units[i];
		scan_unit(idx, u);
		r = json_object();
		json_object_set(r, "kernels", u->kernels);
		json_object_set(r, "launches", u->launches);
		json_object_set(r, "errors", u->errors);
		json_object_set_new(r, "seen", strv_json(&u->seen));
		json_object_set_new(r, "flags", strv_json(&u->flags));
		if (json_dumpf(r, stdout, JSON_COMPACT) != 0 ||
		    fputs("\n\n", stdout) == EOF || fflush(stdout) != 0)
			_exit(K_EXIT_IO);
		json_decref(r);
		/* the parent keeps the results */
		json_array_clear(u->kernels);
		json_array_clear(u->launches);
	}
	clang_disposeIndex(idx);
}

/* A worker's reply into its unit. */
static void
take_reply(struct unit *u, const char *text)
{
	json_error_t err;
	json_t *r = json_loads(text, 0, &err);
	json_t *k = json_object_get(r, "kernels");
	json_t *l = json_object_get(r, "launches");
	json_t *e = json_object_get(r, "errors");

	if (!json_is_array(k) || !json_is_array(l) || !json_is_array(e)) {
		input_error(u, u->path, "parse-failed",
		    "parse failed: unreadable reply from the parsing process");
		json_decref(r);
		return;
	}
	json_array_extend(u->kernels, k);
	json_array_extend(u->launches, l);
	json_array_extend(u->errors, e);
	strv_from_json(&u->seen, json_object_get(r, "seen"));
	strv_from_json(&u->flags, json_object_get(r, "flags"));
	json_decref(r);
}

static void
run_units(size_t from)
{
	struct k_worker *w;
	size_t *job, i, n = (size_t)opt.jobs, next = from;
	enum k_worker_event ev;
	struct unit *u;
	char req[32];
	long k;

	if ((w = calloc(n, sizeof(*w))) == NULL ||
	    (job = calloc(n, sizeof(*job))) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	for (;;) {
		/* every idle worker takes the next unit, in order */
		for (i = 0; i < n; i++) {
			while (next < nunits && units[next].path[0] == '\0')
				next++;
			if (w[i].busy || next >= nunits)
				continue;
			if (w[i].pid == 0 && k_worker_start(&w[i], serve,
			    NULL) != 0)
				k_fatal(K_EXIT_SYSTEM, NULL,
				    "cannot start a parsing process: %s",
				    strerror(errno));
			snprintf(req, sizeof(req), "%zu\n", next);
			if (k_worker_send(&w[i], req, strlen(req)) != 0)
				k_fatal(K_EXIT_SYSTEM, NULL,
				    "cannot reach a parsing process: %s",
				    strerror(errno));
			job[i] = next++;
		}
		if ((k = k_worker_wait(w, n, opt.timeout, &ev)) < 0) {
			for (i = 0; i < n; i++)
				if (w[i].busy)
					k_fatal(K_EXIT_SYSTEM, NULL, "waiting "
					    "for a parsing process: %s",
					    strerror(errno));
			break;
		}
		u = &units[job[k]];
		if (ev == K_WORKER_REPLY)
			take_reply(u, w[k].buf);
		else if (ev == K_WORKER_TIMEOUT)
			input_error(u, u->path, "parse-timeout",
			    "parse failed: no result after %g s (--timeout)",
			    opt.timeout);
		else
			input_error(u, u->path, "parse-crashed",
			    "parse failed: the parsing process was %s",
			    k_worker_how(&w[k]));
	}
	for (i = 0; i < n; i++)
		k_worker_stop(&w[i]);
	free(w);
	free(job);
}

/* ------------------------------------------------------------ probe */

/* Whether the toolkit's own headers parse under this libclang; when they
 * do not (clang's CUDA support lags behind new toolkits), the prelude
 * stands in for them. */
static int
toolkit_parses(const char *dialect)
{
	static const char cuda_src[] =
	    "#include <cuda_runtime.h>\n"
	    "__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
	    "void h(float *x) { k<<<1, 1>>>(x); }\n";
	static const char hip_src[] =
	    "#include <hip/hip_runtime.h>\n"
	    "__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
	    "void h(float *x) { hipLaunchKernelGGL(k, 1, 1, 0, 0, x); }\n";
	int hip = strcmp(dialect, "hip") == 0;
	struct unit u;
	struct k_strv args = { 0 };
	CXIndex idx = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	unsigned i, errors = 0;
	int e, save = opt.use_prelude[hip];

	memset(&u, 0, sizeof(u));
	opt.use_prelude[hip] = 0;
	build_args(&args, dialect, 0, &u);
	opt.use_prelude[hip] = save;
	e = k_parse(idx, hip ? "/kscan-probe.hip" : "/kscan-probe.cu",
	    hip ? hip_src : cuda_src, strlen(hip ? hip_src : cuda_src),
	    &args, &tu);
	k_strv_free(&args);
	if (e == 0 && tu != NULL) {
		for (i = 0; i < clang_getNumDiagnostics(tu); i++) {
			CXDiagnostic d = clang_getDiagnostic(tu, i);
			if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error)
				errors++;
			clang_disposeDiagnostic(d);
		}
		clang_disposeTranslationUnit(tu);
	}
	clang_disposeIndex(idx);
	return e == 0 && tu != NULL && errors == 0;
}

/* ------------------------------------------------------------ output */

static int
by_file_line(const void *pa, const void *pb)
{
	json_t *a = json_object_get(*(json_t *const *)pa, "scan");
	json_t *b = json_object_get(*(json_t *const *)pb, "scan");
	int c = strcmp(k_get_str(a, "file"), k_get_str(b, "file"));

	if (c != 0)
		return c;
	return (int)(k_get_int(a, "line", 0) - k_get_int(b, "line", 0));
}

static void
param_types(json_t *scan, char *buf, size_t len)
{
	json_t *p;
	size_t i;

	snprintf(buf, len, "(");
	json_array_foreach(json_object_get(scan, "params"), i, p) {
		if (i > 0)
			strncat(buf, ", ", len - strlen(buf) - 1);
		strncat(buf, k_get_str(p, "canonical_type"),
		    len - strlen(buf) - 1);
	}
	strncat(buf, ")", len - strlen(buf) - 1);
}

static void
emit(void)
{
	json_t **all = NULL, *seen = json_object(), *lseen = json_object();
	json_t *ids = json_object(), *launches = json_array();
	size_t i, j, n = 0, cap = 0;
	char id[4096], types[2048];

	for (i = 0; i < nunits; i++) {
		json_t *e;
		json_array_foreach(units[i].errors, j, e) {
			k_warn(K_EXIT_RECORDS, NULL, "%s", k_get_str(
			    json_array_get(json_object_get(e, "errors"), 0),
			    "message"));
			if (k_write(e) != 0)
				return;
		}
		json_array_foreach(units[i].kernels, j, e) {
			const char *key = k_get_str(e, "_key");
			if (json_object_get(seen, key) != NULL)
				continue;
			json_object_set_new(seen, key, json_true());
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				all = realloc(all, cap * sizeof(*all));
				if (all == NULL)
					k_fatal(K_EXIT_SYSTEM, NULL,
					    "out of memory");
			}
			all[n++] = e;
		}
		json_array_foreach(units[i].launches, j, e) {
			const char *key = k_get_str(e, "_key");
			if (json_object_get(lseen, key) != NULL)
				continue;
			json_object_set_new(lseen, key, json_true());
			json_array_append(launches, e);
		}
	}
	if (n > 0)
		qsort(all, n, sizeof(*all), by_file_line);

	/* ids: path and qualified name; overloads add their parameter
	 * types */
	for (i = 0; i < n; i++) {
		json_t *s = json_object_get(all[i], "scan");
		snprintf(id, sizeof(id), "%s::%s", k_get_str(s, "file"),
		    k_get_str(s, "qualified_name"));
		json_object_set_new(ids, id, json_integer(
		    k_get_int(ids, id, 0) + 1));
	}
	for (i = 0; i < n; i++) {
		json_t *s = json_object_get(all[i], "scan"), *rec, *l;
		const char *usr = k_get_str(s, "usr");
		snprintf(id, sizeof(id), "%s::%s", k_get_str(s, "file"),
		    k_get_str(s, "qualified_name"));
		if (k_get_int(ids, id, 0) > 1) {
			param_types(s, types, sizeof(types));
			strncat(id, types, sizeof(id) - strlen(id) - 1);
		}
		/* a launch belongs to the kernel it names, else to the
		 * template it instantiates */
		json_array_foreach(launches, j, l) {
			int mine = strcmp(k_get_str(l, "_usr"), usr) == 0;
			if (!mine && strcmp(k_get_str(l, "_tusr"), usr) == 0) {
				size_t m;
				mine = 1;
				for (m = 0; m < n; m++)
					if (strcmp(k_get_str(json_object_get(
					    all[m], "scan"), "usr"),
					    k_get_str(l, "_usr")) == 0)
						mine = 0;
			}
			if (mine) {
				json_t *c = json_deep_copy(l);
				json_object_del(c, "_usr");
				json_object_del(c, "_tusr");
				json_object_del(c, "_key");
				json_array_append_new(json_object_get(s,
				    "launches"), c);
			}
		}
		rec = json_object();
		json_object_set_new(rec, "id", json_string(id));
		json_object_set(rec, "scan", s);
		if (k_write(rec) != 0) {
			json_decref(rec);
			break;
		}
		json_decref(rec);
	}
	free(all);
	json_decref(seen);
	json_decref(lseen);
	json_decref(ids);
	json_decref(launches);
}

/* ------------------------------------------------------------ main */

static void
usage(void)
{
	fputs(usage_line, stderr);
	exit(K_EXIT_USAGE);
}

static int
header_seen(const char *path)
{
	char *real = realpath(path, NULL);
	size_t i, j;
	int found = 0;

	if (real == NULL)
		return 0;
	for (i = 0; i < nunits && !found; i++)
		for (j = 0; j < units[i].seen.n; j++)
			if (strcmp(units[i].seen.v[j], real) == 0) {
				found = 1;
				break;
			}
	free(real);
	return found;
}

static void
add_path(const char *path)
{
	size_t before = nunits, hbefore = headers.n, found = 0;
	struct stat st;

	/* projects include their headers relative to the source root */
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		k_strv_push(&opt.flags, "-I");
		k_strv_push(&opt.flags, path);
	}
	walk(path, 0, 1, &found);
	if (found == 0 && nunits == before && headers.n == hbefore) {
		struct unit *u = add_unit(path, NULL, 0);
		input_error(u, path, "no-sources",
		    "no CUDA or HIP sources found");
		u->path[0] = '\0';
	}
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "mem", required_argument, NULL, 'M' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "prelude", required_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "root", required_argument, NULL, 'R' },
		{ "timeout", required_argument, NULL, 't' },
		{ "timing", no_argument, NULL, 'T' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *builddir = NULL, *root = ".", *cp;
	size_t i, first_header;
	int ch, hip;
	char *end;
	long v;

	k_msg_init(argv[0]);
	opt.jobs = 1;
	opt.timeout = K_PARSE_TIMEOUT;
	k_worker_mem(K_PARSE_MEM_MB);
	while ((ch = getopt_long(argc, argv, "D:hI:j:p:qVx:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'D':
			k_strv_push(&opt.flags, "-D");
			k_strv_push(&opt.flags, optarg);
			break;
		case 'I':
			k_strv_push(&opt.flags, "-I");
			k_strv_push(&opt.flags, optarg);
			break;
		case 'j':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || v < 1 || v > 256)
				k_fatal(K_EXIT_USAGE, NULL,
				    "-j: not a number from 1 to 256: %s",
				    optarg);
			opt.jobs = (int)v;
			break;
		case 'p':
			builddir = optarg;
			break;
		case 'P':
			if (strcmp(optarg, "auto") == 0)
				opt.prelude = PRELUDE_AUTO;
			else if (strcmp(optarg, "always") == 0)
				opt.prelude = PRELUDE_ALWAYS;
			else if (strcmp(optarg, "never") == 0)
				opt.prelude = PRELUDE_NEVER;
			else
				k_fatal(K_EXIT_USAGE, NULL, "--prelude: "
				    "expected auto, always or never: %s",
				    optarg);
			break;
		case 'q':
			k_msg_quiet(1);
			break;
		case 'R':
			root = optarg;
			break;
		case 't':
			opt.timeout = k_seconds_arg("--timeout", optarg);
			break;
		case 'M':
			k_worker_mem(k_mib_arg("--mem", optarg));
			break;
		case 'T':
			opt.timing = 1;
			break;
		case 'V': {
			char *ver = k_take(clang_getClangVersion());
			printf("kscan (kforge) 0.1, %s\n", ver);
			free(ver);
			return k_finish();
		}
		case 'x':
			if (strcmp(optarg, "cuda") != 0 &&
			    strcmp(optarg, "hip") != 0)
				k_fatal(K_EXIT_USAGE, NULL,
				    "-x: expected cuda or hip: %s", optarg);
			opt.lang = optarg;
			break;
		case 'h':
			fputs(usage_line, stdout);
			return k_finish();
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (realpath(root, opt.root) == NULL)
		k_fatal(K_EXIT_USAGE, NULL, "--root: %s: %s", root,
		    strerror(errno));
	opt.rootlen = strlen(opt.root);
	if (opt.rootlen == 1)
		opt.rootlen = 0;	/* "/" */
	if ((cp = getenv("CUDA_PATH")) == NULL &&
	    (cp = getenv("CUDA_HOME")) == NULL)
		cp = "/usr/local/cuda";
	snprintf(opt.cuda_path, sizeof(opt.cuda_path), "%s", cp);

	k_make_prelude("kscan");
	for (hip = 0; hip < 2; hip++)
		opt.use_prelude[hip] = opt.prelude == PRELUDE_ALWAYS ||
		    (opt.prelude == PRELUDE_AUTO &&
		    !toolkit_parses(hip ? "hip" : "cuda"));

	if (builddir != NULL)
		read_compdb(builddir);
	if (argc > 0) {
		for (i = 0; i < (size_t)argc; i++)
			add_path(argv[i]);
	} else if (builddir == NULL) {
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;
		while ((len = getline(&line, &cap, stdin)) > 0) {
			while (len > 0 && (line[len - 1] == '\n' ||
			    line[len - 1] == '\r'))
				line[--len] = '\0';
			if (len > 0)
				add_path(line);
		}
		free(line);
	}

	run_units(0);
	/* headers that no parsed file includes are parsed on their own, so
	 * kernels in files that are only ever #included are found too */
	first_header = nunits;
	for (i = 0; i < headers.n; i++) {
		char *text;
		size_t len;
		if (header_seen(headers.v[i]))
			continue;
		if ((text = slurp(headers.v[i], &len)) == NULL)
			continue;
		if (!looks_binary(text, len) && mentions_gpu(text))
			add_unit(headers.v[i], NULL, 1);
		free(text);
	}
	run_units(first_header);
	emit();

	for (i = 0; i < nunits; i++) {
		free(units[i].path);
		free(units[i].dir);
		k_strv_free(&units[i].flags);
		k_strv_free(&units[i].seen);
		json_decref(units[i].kernels);
		json_decref(units[i].launches);
		json_decref(units[i].errors);
	}
	free(units);
	k_strv_free(&headers);
	k_strv_free(&allfiles);
	k_strv_free(&opt.flags);
	return k_finish();
}
