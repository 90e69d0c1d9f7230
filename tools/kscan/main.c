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

static const char usage_line[] =
    "usage: kscan [-hqV] [-D macro[=value]] [-I dir] [-j jobs] [-p builddir]\n"
    "             [-x cuda | hip] [--cuda-path dir] [--mem mib] [--no-cache]\n"
    "             [--root dir] [--timeout seconds] [--timing] [--work dir]\n"
    "             [path ...]\n";

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
		{ "cuda-path", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ "mem", required_argument, NULL, 'M' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "root", required_argument, NULL, 'R' },
		{ "timeout", required_argument, NULL, 't' },
		{ "timing", no_argument, NULL, 'T' },
		{ "version", no_argument, NULL, 'V' },
		{ "work", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	const char *builddir = NULL, *root = ".", *cuda = NULL;
	size_t i, first_header;
	int ch;
	char *end;
	long v;

	k_msg_init(argv[0]);
	opt.jobs = 1;
	opt.timeout = K_PARSE_TIMEOUT;
	k_worker_mem(K_PARSE_MEM_MB);
	while ((ch = getopt_long(argc, argv, "D:hI:j:p:qVx:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'C':
			cuda = optarg;
			break;
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
		case 'N':
			opt.no_cache = 1;
			break;
		case 'w':
			opt.work = optarg;
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
	k_find_cuda(cuda);
	k_make_prelude("kscan");
	if (!opt.no_cache && (k_pcache_open(&opt.cache, k_work_dir(opt.work),
	    "kscan") != 0 || k_pcache_open(&opt.pch, k_work_dir(opt.work),
	    "pch") != 0)) {
		k_warn(K_EXIT_OK, k_work_dir(opt.work),
		    "cannot use as work directory, parsing without the cache: "
		    "%s", strerror(errno));
		k_pcache_close(&opt.cache);
	}

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
	if (opt.timing)
		cache_report();

	for (i = 0; i < nunits; i++) {
		free(units[i].path);
		free(units[i].dir);
		k_strv_free(&units[i].flags);
		k_strv_free(&units[i].seen);
		k_strv_free(&units[i].deps);
		k_strv_free(&units[i].recall);
		k_strv_free(&units[i].skipped);
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
