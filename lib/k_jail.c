/* The sandbox of untrusted work (see k_jail.h). */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "k_exit.h"
#include "k_jail.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_proc.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char *bwrap;		/* NULL: no sandbox */
static const char *first_why = "untrusted work";
static pthread_mutex_t why_lock = PTHREAD_MUTEX_INITIALIZER;

/* The variables a compiler or a harness may see: the rest of the
 * environment (keys, tokens, the user's settings) stays outside. */
static const char *const pass_env[] = {
	"PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ",
	"CUDA_PATH", "CUDA_HOME", "CUDA_VISIBLE_DEVICES",
	"HIP_PATH", "ROCM_PATH", "HIP_PLATFORM", "HIP_CLANG_PATH",
	"HIP_DEVICE_LIB_PATH", "HIP_VISIBLE_DEVICES", "HSA_PATH",
	"ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "LD_LIBRARY_PATH",
	NULL
};

struct args {
	char **v;
	size_t n, cap;
};

static void add(struct args *a, const char *s);
static void top(struct args *a, const char *dir);

/* bwrap, and whether it makes namespaces on this machine: a child that
 * runs /usr/bin/true inside the narrowest jail. */
static void
probe(void)
{
	const char *env = getenv("KFORGE_BWRAP"), *why = NULL;
	struct args a = { 0 };
	struct k_proc r;
	char *path;
	size_t i;

	if (env != NULL && (*env == '\0' || strcmp(env, "none") == 0))
		why = "KFORGE_BWRAP=none";
	else if ((path = k_which(env != NULL ? env : "bwrap")) == NULL)
		why = env != NULL ? "KFORGE_BWRAP names no program" :
		    "bwrap not found (install bubblewrap)";
	else {
		add(&a, path);
		add(&a, "--unshare-all");
		add(&a, "--die-with-parent");
		add(&a, "--ro-bind");
		add(&a, "/usr");
		add(&a, "/usr");
		top(&a, "/bin");
		top(&a, "/lib");
		top(&a, "/lib64");
		add(&a, "/usr/bin/true");
		if (access("/usr/bin/true", X_OK) != 0 ||
		    k_run(a.v, NULL, "/dev/null", 30, &r) != 0 ||
		    !r.exited || r.status != 0) {
			why = "bwrap cannot make namespaces here (user "
			    "namespaces off?)";
			free(path);
		} else
			bwrap = path;
		for (i = 0; i < a.n; i++)
			free(a.v[i]);
		free(a.v);
	}
	if (why != NULL) {
		pthread_mutex_lock(&why_lock);
		k_warn(K_EXIT_OK, NULL, "no sandbox for %s: %s; they run "
		    "with memory, file-size and time limits only", first_why,
		    why);
		pthread_mutex_unlock(&why_lock);
	}
}

const char *
k_jail_kind(const char *why)
{
	pthread_mutex_lock(&why_lock);
	if (why != NULL)
		first_why = why;
	pthread_mutex_unlock(&why_lock);
	pthread_once(&once, probe);
	return bwrap != NULL ? "bwrap" : NULL;
}


static void
add(struct args *a, const char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? a->cap * 2 : 64;
		a->v = k_realloc(a->v, a->cap * sizeof(*a->v));
	}
	a->v[a->n++] = k_strdup(s);
	a->v[a->n] = NULL;
}

static void
add3(struct args *a, const char *x, const char *y, const char *z)
{
	add(a, x);
	add(a, y);
	if (z != NULL)
		add(a, z);
}

/* A top-level directory of the host: on a merged-/usr system a link into
 * /usr (made the same inside), else a read-only view of it. */
static void
top(struct args *a, const char *dir)
{
	char link[PATH_MAX];
	ssize_t n = readlink(dir, link, sizeof(link) - 1);

	if (n > 0) {
		link[n] = '\0';
		add3(a, "--symlink", link, dir);
	} else
		add3(a, "--ro-bind-try", dir, dir);
}

/*
 * The command line that runs argv in the jail j: bwrap's options, then
 * argv; argv itself (copied) when there is no sandbox.  NULL-ended,
 * allocated; k_jail_argv_free() frees it.
 */
char **
k_jail_argv(char *const argv[], const struct k_jail *j)
{
	static const char *const etc[] = { "/etc/alternatives",
	    "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
	    NULL };
	struct args a = { 0 };
	size_t i;

	if (k_jail_kind(j->why) == NULL) {
		for (i = 0; argv[i] != NULL; i++)
			add(&a, argv[i]);
		return a.v;
	}
	add(&a, bwrap);
	add(&a, "--unshare-all");
	add(&a, "--die-with-parent");
	add(&a, "--new-session");
	add3(&a, "--ro-bind", "/usr", "/usr");
	top(&a, "/bin");
	top(&a, "/sbin");
	top(&a, "/lib");
	top(&a, "/lib64");
	top(&a, "/lib32");
	for (i = 0; etc[i] != NULL; i++)
		add3(&a, "--ro-bind-try", etc[i], etc[i]);
	/* ROCm and other toolkits outside /usr */
	add3(&a, "--ro-bind-try", "/opt", "/opt");
	add3(&a, "--proc", "/proc", NULL);
	if (j->gpu) {
		/* the driver's device nodes and what it reads of /sys */
		add3(&a, "--dev-bind", "/dev", "/dev");
		add3(&a, "--ro-bind", "/sys", "/sys");
	} else
		add3(&a, "--dev", "/dev", NULL);
	add3(&a, "--tmpfs", "/tmp", NULL);
	for (i = 0; i < K_JAIL_RO_MAX && j->ro[i] != NULL; i++)
		add3(&a, "--ro-bind-try", j->ro[i], j->ro[i]);
	if (getenv("LD_LIBRARY_PATH") != NULL) {
		/* a packed tool's libraries (bench/funnel-pack.sh) */
		char *copy = k_strdup(getenv("LD_LIBRARY_PATH")), *p, *save;
		for (p = strtok_r(copy, ":", &save); p != NULL;
		    p = strtok_r(NULL, ":", &save))
			if (p[0] == '/')
				add3(&a, "--ro-bind-try", p, p);
		free(copy);
	}
	add3(&a, "--bind", j->scratch, j->scratch);
	add3(&a, "--chdir", j->scratch, NULL);
	add(&a, "--clearenv");
	for (i = 0; pass_env[i] != NULL; i++)
		if (getenv(pass_env[i]) != NULL)
			add3(&a, "--setenv", pass_env[i], getenv(pass_env[i]));
	add3(&a, "--setenv", "HOME", j->scratch);
	add3(&a, "--setenv", "TMPDIR", j->scratch);
	add(&a, "--");
	for (i = 0; argv[i] != NULL; i++)
		add(&a, argv[i]);
	return a.v;
}

void
k_jail_argv_free(char **v)
{
	size_t i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

int
k_jail_run(char *const argv[], const struct k_jail *j,
    const char *out_path, double timeout_s, struct k_proc *r)
{
	char **v;
	int rc, err;

	if (k_jail_kind(j->why) == NULL) {
		/* a compiler's temporary files in the scratch directory, as
		 * in the jail (hipcc leaves directories in /tmp) */
		struct k_limits lim = j->lim;
		char *abs = j->scratch[0] == '/' ? NULL :
		    realpath(j->scratch, NULL);
		lim.tmpdir = abs != NULL ? abs : j->scratch;
		rc = k_run_limited(argv, j->scratch, out_path, timeout_s,
		    &lim, r);
		err = errno;
		free(abs);
		errno = err;
		return rc;
	}
	v = k_jail_argv(argv, j);
	rc = k_run_limited(v, j->scratch, out_path, timeout_s, &j->lim, r);
	err = errno;
	k_jail_argv_free(v);
	errno = err;
	return rc;
}
