/*
 * kverify: run each record's reference kernel through the harness kbuild
 * built, keep its outputs as the golden ones (by hash, in the work
 * directory), run the candidate kernel through the same harness, compare,
 * time both, and flag faults, nondeterminism, degenerate tests and the
 * usual ways of cheating.
 *
 * kverify never loads CUDA itself: every launch happens in a child process
 * (its own process group, a wall-clock limit, optionally a data size
 * limit): a harness, or the worker's host (host.c), which loads harnesses
 * built as shared objects; a crash, hang or illegal address fails one run
 * only.
 *
 * This unit: options, the worker threads and the child mode.
 */
#include <sys/resource.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kverify.h"

struct kv_opt opt;
pthread_mutex_t msg_lock = PTHREAD_MUTEX_INITIALIZER;
int no_device;
char no_device_msg[512];
static pthread_mutex_t io_lock = PTHREAD_MUTEX_INITIALIZER;

static struct k_reader reader;
static int read_done;
static char **inputs;		/* file operands; none: standard input */
static int ninputs, next_input;

/* Open the next input into reader: 0, or -1 when none is left.  A file
 * that cannot be opened is reported and skipped.  Under io_lock. */
static int
open_next(void)
{
	if (reader.fp != NULL) {
		if (reader.fp != stdin)
			fclose(reader.fp);
		k_reader_free(&reader);
		memset(&reader, 0, sizeof(reader));
	}
	while (next_input < (ninputs > 0 ? ninputs : 1)) {
		const char *name = ninputs > 0 ? inputs[next_input] : "-";
		FILE *fp = stdin;
		next_input++;
		if (strcmp(name, "-") != 0 &&
		    (fp = fopen(name, "r")) == NULL) {
			k_warn(K_EXIT_IO, name, "%s", strerror(errno));
			continue;
		}
		k_reader_init(&reader, fp, fp == stdin ? "<stdin>" : name,
		    STAGE);
		return 0;
	}
	return -1;
}

static void *
worker_main(void *arg)
{
	const struct worker *w = arg;
	json_t *rec;
	int rc, bad;

	unsigned long line;
	const char *name;

	for (;;) {
		pthread_mutex_lock(&io_lock);
		rc = 0;
		while (!read_done && (rc = k_read(&reader, &rec, &bad)) == 0 &&
		    open_next() == 0)
			;
		if (rc != 1)
			read_done = 1;
		line = reader.lineno;
		name = reader.name;
		pthread_mutex_unlock(&io_lock);
		if (rc != 1) {
			serve_close();
			return NULL;
		}
		if (!bad) {
			/* a name that lives as long as the run: an operand */
			k_msg_at(name, line);
			rec = process(rec, w);
			k_msg_at(NULL, 0);
		}
		pthread_mutex_lock(&io_lock);
		if (k_has_errors(rec))
			k_exit_raise(K_EXIT_RECORDS);
		if (k_write(rec) != 0)
			read_done = 1;
		pthread_mutex_unlock(&io_lock);
		json_decref(rec);
	}
}

/* The child mode: kverify --kverify-child MB GPU PROGRAM ARGS... sets the
 * limits of one harness run and becomes it. */
static int
child_main(int argc, char *argv[])
{
	long long mb, gpu;

	if (argc < 5 || k_num_ll(argv[2], 10, 0, 1 << 24, &mb) != 0 ||
	    k_num_ll(argv[3], 10, -1, 1023, &gpu) != 0)
		return 127;
	if (mb > 0) {
		/* RLIMIT_AS would count the GPU's mapped address space
		 * and break CUDA; RLIMIT_DATA counts the heap and private
		 * writable mappings only */
		struct rlimit rl;
		rl.rlim_cur = rl.rlim_max = (rlim_t)mb * 1024 * 1024;
		if (setrlimit(RLIMIT_DATA, &rl) != 0)
			return 126;
	}
	if (gpu >= 0) {
		char v[24];
		snprintf(v, sizeof(v), "%lld", gpu);
		setenv("CUDA_VISIBLE_DEVICES", v, 1);
		setenv("HIP_VISIBLE_DEVICES", v, 1);
	}
	execv(argv[4], argv + 4);
	fprintf(stderr, "kverify: %s: cannot run: %s\n", argv[4],
	    strerror(errno));
	return 127;
}

static char *
find_sanitizer(void)
{
	const char *cp = getenv("CUDA_PATH");
	char path[PATH_MAX + 64];

	if (cp != NULL && *cp != '\0') {
		snprintf(path, sizeof(path), "%s/bin/compute-sanitizer", cp);
		if (access(path, X_OK) == 0)
			return k_strdup(path);
	}
	if (access("/usr/local/cuda/bin/compute-sanitizer", X_OK) == 0)
		return k_strdup("/usr/local/cuda/bin/compute-sanitizer");
	return k_which("compute-sanitizer");
}

/* Whether this compute-sanitizer takes --padding (its --help says so). */
static int
sanitizer_pads(const char *san)
{
	char dir[PATH_MAX + 16], log[PATH_MAX + 64], *text;
	char *argv[] = { (char *)san, "--help", NULL };
	struct k_proc p;
	size_t n;
	int yes;

	snprintf(dir, sizeof(dir), "%s/verify", opt.work);
	snprintf(log, sizeof(log), "%s/sanitizer-help.%ld", dir,
	    (long)getpid());
	if (k_mkdirs(dir) != 0)
		return 0;
	if (k_run(argv, NULL, log, 30, &p) != 0) {
		unlink(log);
		return 0;
	}
	text = k_file_read(log, 1UL << 20, &n);
	yes = text != NULL && strstr(text, "--padding") != NULL;
	free(text);
	unlink(log);
	return yes;
}

static double
number(const char *flag, const char *s, double lo, double hi)
{
	char what[128];

	snprintf(what, sizeof(what), "a number from %g to %g", lo, hi);
	return k_opt_double(flag, s, lo, hi, what);
}

static void
parse_gpus(const char *s)
{
	char buf[512], *p, *save = NULL;
	long long v;
	int i;

	if (strlen(s) >= sizeof(buf) || *s == '\0')
		k_fatal(K_EXIT_USAGE, NULL, "--gpus: expected a list such as "
		    "0,1: %s", s);
	snprintf(buf, sizeof(buf), "%s", s);
	for (p = strtok_r(buf, ",", &save); p != NULL;
	    p = strtok_r(NULL, ",", &save)) {
		if (k_num_ll(p, 10, 0, 1023, &v) != 0 ||
		    opt.ngpus == MAX_GPUS)
			k_fatal(K_EXIT_USAGE, NULL, "--gpus: expected a list "
			    "such as 0,1: %s", s);
		for (i = 0; i < opt.ngpus; i++)
			if (opt.gpus[i] == v)
				k_fatal(K_EXIT_USAGE, NULL, "--gpus: %lld "
				    "given twice", v);
		opt.gpus[opt.ngpus++] = (int)v;
	}
}

static const char *work;
static int time_given, no_time;

static void
option(int ch, const char *arg, void *ctx)
{
	(void)ctx;
	switch (ch) {
	case 'a':
		opt.atol = number("--atol", arg, 0, 1e300);
		break;
	case 'F':
		opt.fit = 1;
		break;
	case 'g':
		parse_gpus(arg);
		break;
	case 'j':
		opt.jobs = (int)k_opt_ll("-j", arg, 1, MAX_WORKERS);
		break;
	case 'k':
		opt.keep = 1;
		break;
	case 'm':
		opt.mem_mb = (long)number("--mem", arg, 1, 1 << 24);
		break;
	case 'M':
		opt.memcheck = 0;
		break;
	case 'N':
		no_time = 1;
		break;
	case 'P':
		opt.serve = 0;
		break;
	case 'H':
		opt.host = 1;
		break;
	case 'O':
		opt.host = 0;
		break;
	case 'G':
		opt.reuse = 0;
		break;
	case 'n':
		opt.noise_floor = number("--noise-floor", arg, 0, 1);
		break;
	case 'X':
		opt.mutants = 0;
		break;
	case 'U':
		opt.mutant_timeout = number("--mutant-timeout", arg, 0.001,
		    86400);
		break;
	case 'r':
		opt.rtol = number("--rtol", arg, 0, 1e300);
		break;
	case 's':
		opt.sanitize = 1;
		break;
	case 'K':
		opt.spread_k = number("--spread-k", arg, 1, 1e6);
		break;
	case 'S':
		opt.suspicious = number("--suspicious", arg, 0, 1e300);
		break;
	case 'T':
		opt.threshold = number("--threshold", arg, 0, 1e300);
		break;
	case 'R':
		opt.reps = (int)number("--time", arg, 1, 100000);
		time_given = 1;
		break;
	case 't':
		opt.timeout = number("--timeout", arg, 0.001, 86400);
		break;
	case 'w':
		work = arg;
		break;
	}
}

static const struct option longopts[] = {
	{ "atol", required_argument, NULL, 'a' },
	{ "fit", no_argument, NULL, 'F' },
	{ "gpus", required_argument, NULL, 'g' },
	{ "host", no_argument, NULL, 'H' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "keep", no_argument, NULL, 'k' },
	{ "mem", required_argument, NULL, 'm' },
	{ "mutant-timeout", required_argument, NULL, 'U' },
	{ "no-host", no_argument, NULL, 'O' },
	{ "no-memcheck", no_argument, NULL, 'M' },
	{ "no-mutants", no_argument, NULL, 'X' },
	{ "no-reuse", no_argument, NULL, 'G' },
	{ "no-serve", no_argument, NULL, 'P' },
	{ "no-time", no_argument, NULL, 'N' },
	{ "noise-floor", required_argument, NULL, 'n' },
	{ "rtol", required_argument, NULL, 'r' },
	{ "sanitize", no_argument, NULL, 's' },
	{ "spread-k", required_argument, NULL, 'K' },
	{ "suspicious", required_argument, NULL, 'S' },
	{ "threshold", required_argument, NULL, 'T' },
	{ "time", required_argument, NULL, 'R' },
	{ "timeout", required_argument, NULL, 't' },
	{ "work", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 }
};

static const struct k_tool tool = {
	.usage =
	    "usage: kverify [-hqV] [-j jobs] [--atol x] [--fit] [--gpus list] [--host]\n"
	    "               [--keep] [--mem mb] [--mutant-timeout seconds] [--no-host]\n"
	    "               [--no-memcheck] [--no-mutants] [--no-reuse] [--no-serve]\n"
	    "               [--no-time | --time reps] [--noise-floor x] [--rtol x]\n"
	    "               [--sanitize] [--spread-k k] [--suspicious x]\n"
	    "               [--threshold x] [--timeout seconds] [--work dir] [file ...]\n",
	.shortopts = "j:",
	.longopts = longopts,
	.option = option,
	.min_operands = 0,
	.max_operands = -1,
};

int
main(int argc, char *argv[])
{
	struct worker *workers;
	pthread_t *th;
	int i, n;

	if (argc > 1 && strcmp(argv[1], CHILD_FLAG) == 0)
		return child_main(argc, argv);
	if (argc == 2 && strcmp(argv[1], HOST_FLAG) == 0)
		return host_main();
	opt.timeout = 60;
	opt.memcheck = 1;
	opt.reps = 100;
	opt.serve = 1;
	opt.host = 1;
	opt.reuse = 1;
	opt.noise_floor = 0.03;
	opt.atol = opt.rtol = -1;
	opt.threshold = 1.0;
	opt.suspicious = 10.0;
	opt.spread_k = SPREAD_K;
	opt.mutants = 1;
	opt.mutant_timeout = 5;
	opt.jobs = 1;
	i = k_main(argc, argv, &tool, NULL);
	inputs = argv + i;
	ninputs = argc - i;
	if (no_time && time_given)
		k_fatal(K_EXIT_USAGE, NULL, "--time and --no-time exclude "
		    "each other");
	if (no_time)
		opt.reps = 0;
	/* found, never made: kbuild makes it; a missing one is said per
	 * record, with where it was looked for */
	if (realpath(k_work_name(work), opt.work) == NULL) {
		char cwd[PATH_MAX];
		if (errno != ENOENT)
			k_fatal(K_EXIT_IO, k_work_name(work), "cannot use as "
			    "work directory: %s", strerror(errno));
		if (k_work_name(work)[0] == '/' ||
		    getcwd(cwd, sizeof(cwd)) == NULL)
			snprintf(opt.work, sizeof(opt.work), "%s",
			    k_work_name(work));
		else
			snprintf(opt.work, sizeof(opt.work), "%.2000s/%.2000s", cwd,
			    k_work_name(work));
	}
	opt.work_from = work != NULL ? "--work" : getenv("KFORGE_WORK") !=
	    NULL && *getenv("KFORGE_WORK") != '\0' ? "KFORGE_WORK" :
	    "the default .kforge in the current directory";
	if (realpath("/proc/self/exe", opt.self) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "cannot find this program's own "
		    "path: %s", strerror(errno));
	/* said when a record first needs it (record.c) */
	if (opt.sanitize || opt.memcheck || opt.fit)
		opt.sanitizer = find_sanitizer();
	if (opt.sanitizer != NULL)
		opt.san_padding = sanitizer_pads(opt.sanitizer);

	/* jobs workers per GPU, GPU by GPU in turn: the first records
	 * spread over every GPU */
	n = (opt.ngpus > 0 ? opt.ngpus : 1) * opt.jobs;
	/* each worker may have two children at once (its serving harness
	 * and a run), and every child is tracked to be killed on a signal */
	if (n > MAX_WORKERS)
		k_fatal(K_EXIT_USAGE, NULL, "-j %d over %d GPUs: %d workers, "
		    "at most %d", opt.jobs, opt.ngpus > 0 ? opt.ngpus : 1, n,
		    MAX_WORKERS);
	if (opt.jobs > 1)
		run_locks_init(opt.jobs);
	workers = k_calloc((size_t)n, sizeof(*workers));
	th = k_calloc((size_t)n, sizeof(*th));
	for (i = 0; i < n; i++) {
		workers[i].slot = opt.ngpus > 0 ? i % opt.ngpus : 0;
		workers[i].gpu = opt.ngpus > 0 ? opt.gpus[workers[i].slot] : -1;
		workers[i].index = i;
	}
	if (open_next() != 0)
		read_done = 1;
	if (n == 1)
		worker_main(&workers[0]);
	else {
		for (i = 0; i < n; i++)
			if (pthread_create(&th[i], NULL, worker_main,
			    &workers[i]) != 0)
				k_fatal(K_EXIT_SYSTEM, NULL,
				    "cannot start a thread");
		for (i = 0; i < n; i++)
			pthread_join(th[i], NULL);
	}
	free(workers);
	free(th);
	if (reader.fp != NULL && reader.fp != stdin)
		fclose(reader.fp);
	k_reader_free(&reader);
	free(opt.sanitizer);
	return k_finish();
}
