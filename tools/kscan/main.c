/*
 * kscan: find every GPU kernel definition in CUDA and HIP sources through
 * libclang and write one record per kernel, with its launch sites.
 *
 * Launch sites are matched to kernels across translation units (a kernel
 * in a header is launched from the .cu files that include it), so records
 * are written once every file has been parsed, in (file, line) order.
 */
#include "kscan.h"

struct options opt;
struct unit *units;
size_t nunits, capunits;

/* ------------------------------------------------------------ main */

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

static const char *builddir, *root, *cuda;

/* The directory a path names (itself, or the one holding a file), or the
 * top of the git work tree that holds it; NULL when it does not exist. */
static char *
tree_of(const char *path)
{
	char *real = realpath(path, NULL), *d;
	struct stat st;

	if (real == NULL)
		return NULL;
	if (stat(real, &st) == 0 && !S_ISDIR(st.st_mode)) {
		d = k_dirname(real);
		free(real);
		real = d;
	}
	for (d = k_strdup(real);;) {
		char *git = k_asprintf("%s/.git", d), *up;
		int found = access(git, F_OK) == 0;
		free(git);
		if (found) {
			free(real);
			return d;
		}
		if (strcmp(d, "/") == 0)
			break;
		up = k_dirname(d);
		free(d);
		d = up;
	}
	free(d);
	return real;
}

/* The directory both a and b lie in; a is changed in place. */
static void
common_dir(char *a, const char *b)
{
	size_t i, cut = 0;

	for (i = 0; a[i] != '\0' && a[i] == b[i]; i++)
		if (a[i] == '/')
			cut = i;
	if ((a[i] == '\0' && (b[i] == '/' || b[i] == '\0')) ||
	    (a[i] == '/' && b[i] == '\0'))
		cut = i;
	a[cut == 0 ? 1 : cut] = '\0';
}

/* The default root: the trees of the operands (or of the files a
 * compile_commands.json lists), their common directory when they differ,
 * or the current directory when nothing names one. */
static void
default_root(const struct k_strv *ops)
{
	char *r = NULL;
	size_t i, n = ops->n > 0 ? ops->n : nunits;

	for (i = 0; i < n; i++) {
		char *t = tree_of(ops->n > 0 ? ops->v[i] : units[i].path);
		if (t == NULL)
			continue;
		if (r == NULL)
			r = t;
		else {
			common_dir(r, t);
			free(t);
		}
	}
	if (r == NULL && getcwd(opt.root, sizeof(opt.root)) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "cannot tell the current "
		    "directory: %s", strerror(errno));
	if (r != NULL) {
		snprintf(opt.root, sizeof(opt.root), "%s", r);
		free(r);
	}
}

static void
option(int ch, const char *arg, void *ctx)
{
	(void)ctx;
	switch (ch) {
	case 'D':
		k_strv_push(&opt.flags, "-D");
		k_strv_push(&opt.flags, arg);
		break;
	case 'I':
		k_strv_push(&opt.flags, "-I");
		k_strv_push(&opt.flags, arg);
		break;
	case 'j':
		opt.jobs = (int)k_opt_ll("-j", arg, 1, 256);
		break;
	case 'p':
		builddir = arg;
		break;
	case 'C':
		cuda = arg;
		break;
	case 'R':
		root = arg;
		break;
	case 't':
		opt.timeout = k_seconds_arg("--timeout", arg);
		break;
	case 'M':
		k_worker_mem(k_mib_arg("--mem", arg));
		break;
	case 'T':
		opt.timing = 1;
		break;
	case 'N':
		opt.no_cache = 1;
		break;
	case 'O':
		opt.no_chain = 1;
		break;
	case 'w':
		opt.work = arg;
		break;
	case 'x':
		if (strcmp(arg, "cuda") != 0 && strcmp(arg, "hip") != 0)
			k_fatal(K_EXIT_USAGE, NULL, "-x: expected cuda or hip: "
			    "%s", arg);
		opt.lang = arg;
		break;
	}
}

static const struct option longopts[] = {
	{ "cuda-path", required_argument, NULL, 'C' },
	{ "mem", required_argument, NULL, 'M' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "no-cache", no_argument, NULL, 'N' },
	{ "no-chain", no_argument, NULL, 'O' },
	{ "root", required_argument, NULL, 'R' },
	{ "timeout", required_argument, NULL, 't' },
	{ "timing", no_argument, NULL, 'T' },
	{ "work", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 }
};

static const struct k_tool tool = {
	.usage =
	    "usage: kscan [-hqV] [-D macro[=value]] [-I dir] [-j jobs] [-p builddir]\n"
	    "             [-x cuda | hip] [--cuda-path dir] [--mem mib]\n"
	    "             [--no-cache] [--no-chain] [--root dir] [--timeout seconds]\n"
	    "             [--timing] [--work dir] [path ...]\n",
	.shortopts = "D:I:j:p:x:",
	.longopts = longopts,
	.option = option,
	.version = k_clang_version,
	.min_operands = 0,
	.max_operands = -1,
};

int
main(int argc, char *argv[])
{
	struct k_strv ops = { 0 };
	size_t i, first_header;
	int first, compdb_ok = 1, round;

	opt.jobs = 1;
	opt.timeout = K_PARSE_TIMEOUT;
	k_worker_mem(K_PARSE_MEM_MB);
	first = k_main(argc, argv, &tool, NULL);
	argc -= first;
	argv += first;

	if (builddir != NULL)
		compdb_ok = read_compdb(builddir) >= 0;
	if (argc > 0) {
		for (i = 0; i < (size_t)argc; i++)
			k_strv_push(&ops, argv[i]);
	} else if (builddir == NULL) {
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;
		if (isatty(STDIN_FILENO))
			k_warn(K_EXIT_OK, NULL, "reading paths from standard "
			    "input (one a line; end with ^D)");
		while ((len = getline(&line, &cap, stdin)) > 0) {
			while (len > 0 && (line[len - 1] == '\n' ||
			    line[len - 1] == '\r'))
				line[--len] = '\0';
			if (len > 0)
				k_strv_push(&ops, line);
		}
		free(line);
	}
	if (root != NULL) {
		if (realpath(root, opt.root) == NULL)
			k_fatal(K_EXIT_USAGE, NULL, "--root: %s: %s", root,
			    strerror(errno));
		opt.root_given = root;
	} else
		default_root(&ops);
	opt.rootlen = strlen(opt.root);
	if (opt.rootlen == 1)
		opt.rootlen = 0;	/* "/" */
	k_find_cuda(cuda);
	k_make_prelude("kscan");
	if (!opt.no_cache && (k_pcache_open(&opt.cache, k_work_name(opt.work),
	    "kscan") != 0 || k_pcache_open(&opt.pch, k_work_name(opt.work),
	    "pch") != 0)) {
		k_warn(K_EXIT_OK, k_work_name(opt.work),
		    "cannot use as work directory, parsing without the cache: "
		    "%s", strerror(errno));
		k_pcache_close(&opt.cache);
	} else if (!opt.no_cache) {
		/* where precompiled headers can hold it */
		(void)k_prelude_keep(opt.pch.dir);
		/* units that include the same toolkit headers share them */
		k_pch_hoist(1);
	}
	if (!compdb_ok) {
		struct unit *u = add_unit(builddir, NULL, 0);
		const char *why = compdb_why(builddir);
		input_error(u, builddir, "no-compdb", "-p: %s", why != NULL ?
		    why : "compile_commands.json is not a compilation "
		    "database libclang can read");
		u->path[0] = '\0';
	}
	for (i = 0; i < ops.n; i++)
		add_path(ops.v[i]);
	k_strv_free(&ops);

	run_units(0);
	/* headers that no parsed file includes are parsed on their own, so
	 * kernels in files that are only ever #included are found too */
	first_header = nunits;
	for (i = 0; i < headers.n; i++) {
		char *text;
		size_t len;
		if (header_seen(headers.v[i]))
			continue;
		if ((text = k_file_read(headers.v[i], MAX_SOURCE, &len)) == NULL)
			continue;
		if (!looks_binary(text, len) && mentions_gpu(text))
			add_unit(headers.v[i], NULL, 1);
		free(text);
	}
	run_units(first_header);
	/* C++ files that call the launchers, and their callers' callers */
	for (round = 0; round < 4; round++) {
		size_t from = nunits;
		if (chain_more() == 0)
			break;
		run_units(from);
	}
	emit();
	if (opt.timing)
		cache_report();

	for (i = 0; i < nunits; i++) {
		free(units[i].path);
		free(units[i].dir);
		k_strv_free(&units[i].flags);
		json_decref(units[i].build_flags);
		k_strv_free(&units[i].seen);
		k_strv_free(&units[i].deps);
		k_strv_free(&units[i].recall);
		k_strv_free(&units[i].skipped);
		k_strv_free(&units[i].rewrite_paths);
		k_strv_free(&units[i].rewrite_texts);
		json_decref(units[i].kernels);
		json_decref(units[i].launches);
		json_decref(units[i].errors);
		json_decref(units[i].chain);
	}
	chain_free();
	free(units);
	k_strv_free(&headers);
	k_strv_free(&allfiles);
	k_strv_free(&opt.flags);
	k_pcache_close(&opt.cache);
	k_pcache_close(&opt.pch);
	return k_finish();
}
