/*
 * kbuild: compile each record's reference kernel (slice.code), candidate
 * kernel (candidate.code) and host harness (wrap.harness) with nvcc or
 * hipcc, into a content-addressed cache in the work directory.
 *
 * Kernels are built to loadable device code only (a cubin, or an AMD code
 * object); the harness loads them through the driver API, so no
 * candidate's host code ever runs inside the judge.
 */
#include "kbuild.h"

/* ------------------------------------------------------------ driver */

/*
 * Records are built in windows of 4 * jobs, in parallel inside a window
 * and written in input order, so output order never depends on -j.
 */
struct slot {
	json_t *rec;
	int bad;
	unsigned long line;	/* in the input, for messages */
};

static struct slot *window;
static size_t wn, wnext;
static pthread_mutex_t wlock = PTHREAD_MUTEX_INITIALIZER;

static void *
worker(void *arg)
{
	size_t i;

	(void)arg;
	for (;;) {
		pthread_mutex_lock(&wlock);
		i = wnext < wn ? wnext++ : (size_t)-1;
		pthread_mutex_unlock(&wlock);
		if (i == (size_t)-1)
			return NULL;
		if (window[i].bad)
			continue;
		k_msg_at("<stdin>", window[i].line);
		window[i].rec = process(window[i].rec, NULL);
		k_msg_at(NULL, 0);
	}
}

static int
run_window(void)
{
	pthread_t th[256];
	int i, n = opt.jobs;
	size_t j;

	wnext = 0;
	if (n > (int)wn)
		n = (int)wn;
	if (n <= 1)
		worker(NULL);
	else {
		for (i = 0; i < n; i++)
			if (pthread_create(&th[i], NULL, worker, NULL) != 0)
				k_fatal(K_EXIT_SYSTEM, NULL,
				    "cannot start a thread");
		for (i = 0; i < n; i++)
			pthread_join(th[i], NULL);
	}
	for (j = 0; j < wn; j++) {
		json_t *rec = window[j].rec;
		if (k_has_errors(rec))
			k_exit_raise(K_EXIT_RECORDS);
		if (k_write(rec) != 0) {
			for (; j < wn; j++)
				json_decref(window[j].rec);
			return -1;
		}
		json_decref(rec);
	}
	wn = 0;
	return 0;
}

static const char *work, *arch;

static void
option(int ch, const char *arg, void *ctx)
{
	(void)ctx;
	switch (ch) {
	case 'a':
		if (strncmp(arg, "sm_", 3) != 0 || strlen(arg) > 10 ||
		    strspn(arg + 3, "0123456789af") != strlen(arg + 3) ||
		    arg[3] == '\0')
			k_fatal(K_EXIT_USAGE, NULL, "--arch: expected sm_NN: %s",
			    arg);
		arch = arg;
		break;
	case 'c':
		opt.check = 1;
		break;
	case 'f':
		/* the user's own: any nvcc option, one token */
		if (arg[0] != '-' || strlen(arg) > 256)
			k_fatal(K_EXIT_USAGE, NULL, "--flag: expected one nvcc "
			    "option such as -DNDEBUG: %s", arg);
		json_array_append_new(opt.flags, json_string(arg));
		break;
	case 'H':
		if (*arg == '\0' || strlen(arg) >= sizeof(opt.hip_arch) ||
		    strspn(arg, "gfx0123456789abcdef,:+-") != strlen(arg))
			k_fatal(K_EXIT_USAGE, NULL,
			    "--hip-arch: expected gfxNNN[,gfxNNN...]: %s", arg);
		snprintf(opt.hip_arch, sizeof(opt.hip_arch), "%s", arg);
		hip_arch_given = 1;
		break;
	case 'j':
		opt.jobs = (int)k_opt_ll("-j", arg, 1, 256);
		break;
	case 't':
		opt.timeout = k_opt_double("--timeout", arg, DBL_MIN, 86400,
		    "a number of seconds");
		break;
	case 'w':
		work = arg;
		break;
	}
}

static const struct option longopts[] = {
	{ "arch", required_argument, NULL, 'a' },
	{ "check", no_argument, NULL, 'c' },
	{ "flag", required_argument, NULL, 'f' },
	{ "hip-arch", required_argument, NULL, 'H' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "timeout", required_argument, NULL, 't' },
	{ "work", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 }
};

static const struct k_tool tool = {
	.usage =
	    "usage: kbuild [-hqV] [-j jobs] [--arch sm_NN] [--check] [--flag flag]\n"
	    "              [--hip-arch gfxNNN[,gfxNNN ...]] [--timeout seconds]\n"
	    "              [--work dir]\n",
	.shortopts = "j:",
	.longopts = longopts,
	.option = option,
	.min_operands = 0,
	.max_operands = 0,
};

int
main(int argc, char *argv[])
{
	struct k_reader r;
	size_t cap;
	int rc, bad;
	json_t *rec;

	opt.flags = json_array();
	opt.jobs = 1;
	opt.timeout = 300;
	snprintf(opt.hip_arch, sizeof(opt.hip_arch), "gfx90a,gfx942");
	k_main(argc, argv, &tool, NULL);
	k_work_dir(work, opt.work);

	opt.nvcc.name = "nvcc";
	opt.hipcc.name = "hipcc";
	/* NVCC and HIPCC name the compilers, as make(1) users expect */
	opt.nvcc.path = k_which(getenv("NVCC") != NULL ? getenv("NVCC") :
	    "nvcc");
	if (opt.nvcc.path == NULL && getenv("NVCC") == NULL &&
	    access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
		opt.nvcc.path = k_strdup("/usr/local/cuda/bin/nvcc");
	opt.hipcc.path = k_which(getenv("HIPCC") != NULL ? getenv("HIPCC") :
	    "hipcc");
	opt.nm = k_which("nm");
	version_of(&opt.nvcc);
	version_of(&opt.hipcc);
	if (opt.nvcc.path != NULL) {
		char real[PATH_MAX], *bin, *root;
		/* <root>/bin/nvcc: the stubs of libcuda live under <root> */
		if (realpath(opt.nvcc.path, real) == NULL)
			snprintf(real, sizeof(real), "%s", opt.nvcc.path);
		bin = k_dirname(real);
		root = k_dirname(bin);
		snprintf(opt.cuda_root, sizeof(opt.cuda_root), "%s", root);
		free(bin);
		free(root);
	}
	if (arch != NULL)
		snprintf(opt.arch, sizeof(opt.arch), "%s", arch);
	else
		default_arch();

	cap = (size_t)opt.jobs * 4;
	window = k_calloc(cap, sizeof(*window));
	k_reader_init(&r, stdin, "<stdin>", STAGE);
	rc = 0;
	while ((rc = k_read(&r, &rec, &bad)) == 1) {
		window[wn].rec = rec;
		window[wn].bad = bad;
		window[wn].line = r.lineno;
		if (++wn == cap && run_window() != 0)
			break;
	}
	if (rc != -1 && wn > 0)
		run_window();
	k_reader_free(&r);
	free(window);
	free(opt.nvcc.path);
	free(opt.nvcc.version);
	free(opt.hipcc.path);
	free(opt.hipcc.version);
	free(opt.nm);
	json_decref(opt.flags);
	return k_finish();
}
