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

static const char *builddir, *root = ".", *cuda;

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
	{ "root", required_argument, NULL, 'R' },
	{ "timeout", required_argument, NULL, 't' },
	{ "timing", no_argument, NULL, 'T' },
	{ "work", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 }
};

static const struct k_tool tool = {
	.usage =
	    "usage: kscan [-hqV] [-D macro[=value]] [-I dir] [-j jobs] [-p builddir]\n"
	    "             [-x cuda | hip] [--cuda-path dir] [--mem mib] [--no-cache]\n"
	    "             [--root dir] [--timeout seconds] [--timing] [--work dir]\n"
	    "             [path ...]\n",
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
	size_t i, first_header;
	int first;

	opt.jobs = 1;
	opt.timeout = K_PARSE_TIMEOUT;
	k_worker_mem(K_PARSE_MEM_MB);
	first = k_main(argc, argv, &tool, NULL);
	argc -= first;
	argv += first;

	if (realpath(root, opt.root) == NULL)
		k_fatal(K_EXIT_USAGE, NULL, "--root: %s: %s", root,
		    strerror(errno));
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
	} else if (!opt.no_cache)
		/* where precompiled headers can hold it */
		(void)k_prelude_keep(opt.pch.dir);

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
		if ((text = k_file_read(headers.v[i], MAX_SOURCE, &len)) == NULL)
			continue;
		if (!looks_binary(text, len) && mentions_gpu(text))
			add_unit(headers.v[i], NULL, 1);
		free(text);
	}
	run_units(first_header);
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
	}
	free(units);
	k_strv_free(&headers);
	k_strv_free(&allfiles);
	k_strv_free(&opt.flags);
	k_pcache_close(&opt.cache);
	k_pcache_close(&opt.pch);
	return k_finish();
}
