/*
 * The skeleton of every tool's main: program name, options, -h, -V, -q,
 * and the operand count, with every complaint (getopt's own included)
 * through the one message funnel.  A tool's main calls k_main, does its
 * work, and returns k_finish().
 */
#ifndef K_MAIN_H
#define K_MAIN_H

#include <getopt.h>

#define K_VERSION "0.1"

struct k_tool {
	/* the usage lines, as -h prints them on stdout and a usage error
	 * on stderr; they match the man page's SYNOPSIS (test/man.t) */
	const char *usage;
	/* the tool's own options, beyond -h, -q and -V (and --help,
	 * --quiet, --version, which k_main adds); longopts may be NULL */
	const char *shortopts;
	const struct option *longopts;
	/* called for each of the tool's own options, in order; a bad value
	 * is the tool's to reject with k_fatal(K_EXIT_USAGE, ...) */
	void (*option)(int ch, const char *arg, void *ctx);
	/* text after "name (kforge) 0.1, " in -V, e.g. the clang version;
	 * NULL: none */
	const char *(*version)(void);
	/* how many operands it takes; max < 0: any number */
	int min_operands, max_operands;
};

/*
 * Start the program: k_msg_init(argv[0]), then the options.  -h prints
 * the usage on stdout and exits (0, or 3 when stdout fails), -V the
 * version; -q quiets warnings.  An unknown option, a missing argument or
 * the wrong number of operands is reported, followed by the usage on
 * stderr, and exits 2.  Returns the index of the first operand.
 */
int k_main(int argc, char *argv[], const struct k_tool *t, void *ctx);
/* Print the usage on stderr and exit 2. */
void k_usage(const struct k_tool *t) __attribute__((noreturn));

/*
 * An option's numeric value within [min, max], else a usage error
 * ("name: not a number from min to max: arg").
 */
long long k_opt_ll(const char *name, const char *arg, long long min,
    long long max);
/* The same for a finite floating-point value; what says what it counts
 * ("a number of seconds"). */
double k_opt_double(const char *name, const char *arg, double min,
    double max, const char *what);

#endif
