/*
 * Which files are units: walking the paths given, reading them, naming
 * them relative to the root.
 */
#include "kscan.h"

/* ---------------------------------------------------------------- utils */

/* Path relative to the root when under it; a new string. */
char *
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

int
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

int
looks_binary(const char *buf, size_t n)
{
	return memchr(buf, '\0', n < 8192 ? n : 8192) != NULL;
}

/* Whether the text of a C++ source or header can hold GPU code at all: a
 * cheap filter deciding which non-.cu files are worth a parse; detection
 * itself is done on the AST. */
int
mentions_gpu(const char *buf)
{
	return strstr(buf, "__global__") != NULL ||
	    strstr(buf, "<<<") != NULL ||
	    strstr(buf, "hipLaunchKernelGGL") != NULL ||
	    strstr(buf, "__launch_bounds__") != NULL;
}

const char *
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

struct unit *
add_unit(const char *path, const char *dir, int header)
{
	struct unit *u;

	if (nunits == capunits) {
		capunits = capunits ? capunits * 2 : 64;
		units = k_realloc(units, capunits * sizeof(*units));
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
void
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

struct k_strv headers;	/* candidate headers found while walking */
struct k_strv allfiles;	/* every file under a directory argument */

static int
strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
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
			sub = k_asprintf("%s%s%s", path,
			    has_suffix(path, "/") ? "" : "/", names.v[i]);
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
