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
#include "k_progress.h"

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
static const char *wname = "<stdin>";	/* the input the window is from */
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
		if (!window[i].bad) {
			k_msg_at(wname, window[i].line);
			window[i].rec = process(window[i].rec, NULL);
			k_msg_at(NULL, 0);
		}
		/* counted as built, not as written a window later */
		k_progress_add(1);
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
			/* the window is spent either way: nothing in it may be
			 * built or written again */
			for (; j < wn; j++)
				json_decref(window[j].rec);
			wn = 0;
			return -1;
		}
		json_decref(rec);
	}
	wn = 0;
	return 0;
}

static const char *work, *arch, *candidates;

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
	case 'C':
		candidates = arg;
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
	case 'P':
		if (strcmp(arg, "amd") == 0)
			opt.hip_platform = HIP_AMD;
		else if (strcmp(arg, "nvidia") == 0)
			opt.hip_platform = HIP_NVIDIA;
		else if (strcmp(arg, "auto") == 0)
			opt.hip_platform = HIP_AUTO;
		else
			k_fatal(K_EXIT_USAGE, NULL, "--hip-platform: expected "
			    "amd, nvidia or auto: %s", arg);
		break;
	case 'j':
		opt.jobs = (int)k_opt_ll("-j", arg, 1, 256);
		break;
	case 'm':
		opt.mem_mb = (long)k_opt_ll("--mem", arg, 64, 1 << 24);
		break;
	case 't':
		opt.timeout = k_opt_double("--timeout", arg, DBL_MIN, 86400,
		    "a number of seconds");
		break;
	case 'T':
		opt.trust_records = 1;
		break;
	case 'w':
		work = arg;
		break;
	}
}

static const struct option longopts[] = {
	{ "arch", required_argument, NULL, 'a' },
	{ "candidates", required_argument, NULL, 'C' },
	{ "check", no_argument, NULL, 'c' },
	{ "flag", required_argument, NULL, 'f' },
	{ "hip-arch", required_argument, NULL, 'H' },
	{ "hip-platform", required_argument, NULL, 'P' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "mem", required_argument, NULL, 'm' },
	{ "timeout", required_argument, NULL, 't' },
	{ "trust-records", no_argument, NULL, 'T' },
	{ "work", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 }
};

static const struct k_tool tool = {
	.usage =
	    "usage: kbuild [-hqV] [-j jobs] [--arch sm_NN] [--candidates dir | file]\n"
	    "              [--check] [--flag flag] [--hip-arch gfxNNN[,gfxNNN ...]]\n"
	    "              [--hip-platform amd | nvidia | auto] [--mem mb]\n"
	    "              [--timeout seconds] [--trust-records] [--work dir] [file ...]\n",
	.shortopts = "j:",
	.longopts = longopts,
	.option = option,
	.min_operands = 0,
	.max_operands = -1,
};

int
main(int argc, char *argv[])
{
	struct k_reader r;
	size_t cap;
	int rc, bad, i, first, failed;
	json_t *rec;

	opt.flags = json_array();
	opt.jobs = 1;
	opt.timeout = 300;
	opt.mem_mb = MEM_MB_DEFAULT;
	snprintf(opt.hip_arch, sizeof(opt.hip_arch), "gfx90a,gfx942");
	first = k_main(argc, argv, &tool, NULL);
	argc -= first;
	argv += first;
	k_work_dir(work, opt.work);
	if (candidates != NULL)
		attach_open(candidates);

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
	if (opt.hipcc.path != NULL) {
		char real[PATH_MAX], *bin, *root;
		if (realpath(opt.hipcc.path, real) == NULL)
			snprintf(real, sizeof(real), "%s", opt.hipcc.path);
		bin = k_dirname(real);
		root = k_dirname(bin);
		snprintf(opt.hip_root, sizeof(opt.hip_root), "%s", root);
		free(bin);
		free(root);
	}
	if (arch != NULL)
		snprintf(opt.arch, sizeof(opt.arch), "%s", arch);
	else
		default_arch();
	hip_platform_settle();
	check_targets(arch != NULL);

	k_progress_unit("records");
	cap = (size_t)opt.jobs * 4;
	window = k_calloc(cap, sizeof(*window));
	/* file operands in order, "-" or none: standard input */
	for (i = 0, failed = 0; !failed && i < (argc > 0 ? argc : 1); i++) {
		const char *name = argc > 0 ? argv[i] : "-";
		FILE *fp = stdin;
		if (strcmp(name, "-") != 0 &&
		    (fp = fopen(name, "r")) == NULL) {
			k_warn(K_EXIT_IO, name, "%s", strerror(errno));
			continue;
		}
		wname = fp == stdin ? "<stdin>" : name;
		k_reader_init(&r, fp, wname, STAGE);
		while ((rc = k_read(&r, &rec, &bad)) == 1) {
			window[wn].rec = rec;
			window[wn].bad = bad;
			window[wn].line = r.lineno;
			if (++wn == cap && (failed = run_window()) != 0)
				break;
		}
		/* a window holds one file's records, named by wname */
		if (!failed && rc != -1 && wn > 0)
			failed = run_window();
		k_reader_free(&r);
		if (fp != stdin)
			fclose(fp);
	}
	free(window);
	free(opt.nvcc.path);
	free(opt.nvcc.version);
	free(opt.hipcc.path);
	free(opt.hipcc.version);
	free(opt.nm);
	json_decref(opt.flags);
	attach_close();
	return k_finish();
}
