/*
 * kreport: read records from any stage and say what happened: records per
 * stage, pass rates, pass@k, speedups, failure classes and breakdowns, as
 * Markdown, a self-contained HTML page or JSON; or write per-failure debug
 * folders; or export dataset rows (kforge or TritonBench shaped).
 *
 * Every report is rendered from one JSON summary, so the three formats
 * cannot disagree (see kreport.h for the units).
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "k_exit.h"
#include "k_main.h"
#include "k_msg.h"
#include "k_record.h"
#include "kreport.h"

struct kreport_opts opt;

static void
option(int ch, const char *arg, void *ctx)
{
	(void)ctx;
	switch (ch) {
	case 'd':
		if (*arg == '\0')
			k_fatal(K_EXIT_USAGE, NULL, "--debug-dir: empty path");
		opt.debug_dir = arg;
		break;
	case 'e':
		if (strcmp(arg, "kforge") == 0)
			opt.export = X_KFORGE;
		else if (strcmp(arg, "tritonbench") == 0)
			opt.export = X_TRITON;
		else
			k_fatal(K_EXIT_USAGE, NULL, "--export: expected "
			    "kforge or tritonbench: %s", arg);
		break;
	case 'x':
		if (*arg == '\0')
			k_fatal(K_EXIT_USAGE, NULL, "--export-dir: empty path");
		opt.export_dir = arg;
		break;
	case 'm':
		opt.max_bytes = (size_t)k_opt_ll("--export-max-bytes", arg, 1,
		    (long long)1 << 40);
		break;
	case 'M':
		opt.mutants = (int)k_opt_ll("--export-mutants", arg, 0, 1000);
		break;
	case 'f':
		if (strcmp(arg, "md") == 0)
			opt.format = F_MD;
		else if (strcmp(arg, "html") == 0)
			opt.format = F_HTML;
		else if (strcmp(arg, "json") == 0)
			opt.format = F_JSON;
		else
			k_fatal(K_EXIT_USAGE, NULL, "--format: expected "
			    "md, html or json: %s", arg);
		break;
	case 'p':
		opt.depth = (int)k_opt_ll("--project-depth", arg, 1, 64);
		break;
	}
}

static const struct option longopts[] = {
	{ "debug-dir", required_argument, NULL, 'd' },
	{ "export", required_argument, NULL, 'e' },
	{ "export-dir", required_argument, NULL, 'x' },
	{ "export-max-bytes", required_argument, NULL, 'm' },
	{ "export-mutants", required_argument, NULL, 'M' },
	{ "format", required_argument, NULL, 'f' },
	{ "project-depth", required_argument, NULL, 'p' },
	{ NULL, 0, NULL, 0 }
};

static const struct k_tool tool = {
	.usage =
	    "usage: kreport [-hqV] [--debug-dir dir] [--export kforge | tritonbench]\n"
	    "               [--export-dir dir [--export-max-bytes n] [--export-mutants n]]\n"
	    "               [--format md | html | json] [--project-depth n]\n"
	    "               [file ...]\n",
	.longopts = longopts,
	.option = option,
	.min_operands = 0,
	.max_operands = -1,
};

static void
read_all(FILE *fp, const char *name)
{
	struct k_reader r;
	json_t *rec;
	int bad;

	k_reader_init(&r, fp, name, STAGE);
	while (k_read(&r, &rec, &bad) == 1)
		add_record(rec, bad);
	k_reader_free(&r);
}

int
main(int argc, char *argv[])
{
	json_t *s;
	size_t i;
	int first, opened = 0;

	opt.depth = 1;
	opt.max_bytes = (size_t)64 << 20;
	first = k_main(argc, argv, &tool, NULL);
	if (opt.debug_dir != NULL && mkdir(opt.debug_dir, 0755) != 0 &&
	    errno != EEXIST)
		k_fatal(K_EXIT_IO, opt.debug_dir, "cannot create: %s",
		    strerror(errno));
	if (opt.export_dir != NULL && opt.export != X_NONE)
		k_fatal(K_EXIT_USAGE, NULL, "--export-dir and --export: "
		    "one export at a time");
	if (opt.export_dir != NULL && mkdir(opt.export_dir, 0755) != 0 &&
	    errno != EEXIST)
		k_fatal(K_EXIT_IO, opt.export_dir, "cannot create: %s",
		    strerror(errno));

	if (first == argc) {
		read_all(stdin, "<stdin>");
		opened++;
	}
	for (; first < argc; first++) {
		FILE *fp;
		if (strcmp(argv[first], "-") == 0) {
			read_all(stdin, "<stdin>");
			opened++;
			continue;
		}
		if ((fp = fopen(argv[first], "r")) == NULL) {
			k_warn(K_EXIT_IO, argv[first], "cannot open: %s",
			    strerror(errno));
			continue;
		}
		read_all(fp, argv[first]);
		opened++;
		fclose(fp);
	}
	/* no input could be read: no report of nothing */
	if (opened == 0) {
		records_free();
		return k_finish();
	}

	if (opt.debug_dir != NULL)
		for (i = 0; i < nrecs; i++)
			if (json_array_size(recs[i].classes) > 0)
				write_debug(&recs[i]);
	debug_names_free();
	if (opt.export_dir != NULL) {
		for (i = 0; i < nrecs; i++)
			export_files(&recs[i]);
		export_files_end();
	} else if (opt.export != X_NONE) {
		for (i = 0; i < nrecs; i++)
			export_row(&recs[i]);
	} else {
		s = summary();
		if (opt.format == F_JSON) {
			if (json_dumpf(s, stdout, JSON_INDENT(2) |
			    JSON_REAL_PRECISION(6)) == 0)
				putchar('\n');
		} else
			render(s, opt.format == F_HTML ? &html_backend :
			    &md_backend);
		json_decref(s);
	}
	records_free();
	return k_finish();
}
