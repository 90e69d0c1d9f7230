/* The tools' common main (see k_main.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k_exit.h"
#include "k_main.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_num.h"
#include "k_record.h"

void
k_usage(const struct k_tool *t)
{
	fputs(t->usage, stderr);
	exit(K_EXIT_USAGE);
}

/* The option getopt stopped at, as the user typed it. */
static const char *
typed(int argc, char *argv[], const char *shortopts, char buf[3])
{
	if (optopt > 0 && optopt < 128 && optopt != ':' &&
	    strchr(shortopts, optopt) != NULL && optind > 0 &&
	    optind <= argc && strncmp(argv[optind - 1], "--", 2) != 0) {
		buf[0] = '-';
		buf[1] = (char)optopt;
		buf[2] = '\0';
		return buf;
	}
	return optind > 0 && optind <= argc ? argv[optind - 1] : "?";
}

int
k_main(int argc, char *argv[], const struct k_tool *t, void *ctx)
{
	static const struct option common[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "version", no_argument, NULL, 'V' },
	};
	struct option *lo;
	char *so, opt[3];
	size_t n = 0, i;
	int ch, nop;

	k_msg_init(argv[0]);
	k_signals_init();
	while (t->longopts != NULL && t->longopts[n].name != NULL)
		n++;
	lo = k_calloc(n + 4, sizeof(*lo));
	memcpy(lo, common, sizeof(common));
	for (i = 0; i < n; i++)
		lo[3 + i] = t->longopts[i];
	/* a leading ':' tells a missing argument from an unknown option,
	 * and opterr = 0 keeps getopt's own messages off stderr: they go
	 * through the funnel like every other */
	so = k_asprintf(":hqV%s", t->shortopts != NULL ? t->shortopts : "");
	opterr = 0;
	while ((ch = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		switch (ch) {
		case 'h':
			fputs(t->usage, stdout);
			free(lo);
			free(so);
			exit(k_finish());
		case 'q':
			k_msg_quiet(1);
			break;
		case 'V':
			if (t->version != NULL)
				printf("%s (kforge) %s, %s\n", k_progname(),
				    K_VERSION, t->version());
			else
				printf("%s (kforge) %s\n", k_progname(),
				    K_VERSION);
			free(lo);
			free(so);
			exit(k_finish());
		case ':':
			k_warn(K_EXIT_USAGE, NULL, "missing argument: %s",
			    typed(argc, argv, so, opt));
			k_usage(t);
		case '?':
			k_warn(K_EXIT_USAGE, NULL, "unknown option: %s",
			    typed(argc, argv, so, opt));
			k_usage(t);
		default:
			t->option(ch, optarg, ctx);
		}
	}
	free(lo);
	free(so);
	nop = argc - optind;
	if (nop < t->min_operands) {
		k_warn(K_EXIT_USAGE, NULL, "missing operand");
		k_usage(t);
	}
	if (t->max_operands >= 0 && nop > t->max_operands) {
		k_warn(K_EXIT_USAGE, NULL, "unexpected operand: %s",
		    argv[optind + t->max_operands]);
		k_usage(t);
	}
	return optind;
}

long long
k_opt_ll(const char *name, const char *arg, long long min, long long max)
{
	long long v;

	if (k_num_ll(arg, 10, min, max, &v) != 0)
		k_fatal(K_EXIT_USAGE, NULL, "%s: not a number from %lld to %lld: "
		    "%s", name, min, max, arg);
	return v;
}

double
k_opt_double(const char *name, const char *arg, double min, double max,
    const char *what)
{
	double v;

	if (k_num_double(arg, min, max, &v) != 0)
		k_fatal(K_EXIT_USAGE, NULL, "%s: not %s: %s", name, what, arg);
	return v;
}
