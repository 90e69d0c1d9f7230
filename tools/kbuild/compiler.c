/* kbuild: the installed compilers: versions, the default GPU, the HIP
 * targets the installed hipcc accepts. */
#include "kbuild.h"


/*
 * A small file in the work directory that remembers a fact about an
 * installed compiler, keyed by what identifies it on disk, so that a warm
 * run does not start the compiler at all.  Returns a malloc'd string or
 * NULL.
 */
static char *
memo_path(const char *what, const struct compiler *c, const char *extra)
{
	struct stat st;
	char real[PATH_MAX], in[PATH_MAX + 256], key[K_SHA256_HEX], *p;

	if (realpath(c->path, real) == NULL || stat(real, &st) != 0)
		return NULL;
	snprintf(in, sizeof(in), "%s\n%s\n%lld\n%lld\n%llu\n%s", what, real,
	    (long long)st.st_mtime, (long long)st.st_size,
	    (unsigned long long)st.st_ino, extra != NULL ? extra : "");
	k_sha256_hex(in, strlen(in), key);
	if (asprintf(&p, "%s/compilers/%s-%.16s", opt.work, what, key) < 0)
		return NULL;
	return p;
}

static char *
memo_get(const char *path)
{
	char *text, *nl;

	if (path == NULL || (text = k_file_read(path, 4096, NULL)) == NULL)
		return NULL;
	if ((nl = strchr(text, '\n')) != NULL)
		*nl = '\0';
	return text;
}

static void
memo_put(const char *path, const char *value)
{
	char dir[PATH_MAX + 16];

	if (path == NULL)
		return;
	/* a memo is a convenience: one that cannot be written is not */
	snprintf(dir, sizeof(dir), "%s/compilers", opt.work);
	if (k_mkdirs(dir) == 0)
		(void)write_text(path, value);
}

/* The compiler's identity for the cache key and the record: the lines of
 * its --version output that name a version, a release or a build. */
void
version_of(struct compiler *c)
{
	char out[PATH_MAX + 32], *text, *line, *save = NULL, v[512] = "";
	char *argv[3], *memo;
	struct k_proc r;

	if (c->path == NULL)
		return;
	memo = memo_path("version", c, NULL);
	if ((c->version = memo_get(memo)) != NULL) {
		free(memo);
		return;
	}
	snprintf(out, sizeof(out), "%s/version.%s.%d", opt.work, c->name,
	    (int)getpid());
	argv[0] = c->path;
	argv[1] = "--version";
	argv[2] = NULL;
	if (k_run(argv, NULL, out, 60, &r) == 0 &&
	    (text = k_file_head(out, 16384, NULL, NULL)) != NULL) {
		for (line = strtok_r(text, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			if (strstr(line, "version") == NULL &&
			    strstr(line, "release") == NULL &&
			    strncmp(line, "Build ", 6) != 0)
				continue;
			if (v[0] != '\0')
				strncat(v, "; ", sizeof(v) - strlen(v) - 1);
			strncat(v, line, sizeof(v) - strlen(v) - 1);
		}
		free(text);
	}
	unlink(out);
	c->version = k_strdup(v[0] != '\0' ? v : "unknown");
	if (v[0] != '\0')
		memo_put(memo, v);
	free(memo);
}

/* The GPU that nvidia-smi reports, as sm_NN; sm_90 without one. */
void
default_arch(void)
{
	char *smi = k_which("nvidia-smi"), out[PATH_MAX + 32], *text;
	char *argv[] = { smi, "--query-gpu=compute_cap",
	    "--format=csv,noheader", NULL };
	struct k_proc r;
	int major, minor;

	snprintf(opt.arch, sizeof(opt.arch), "sm_90");
	if (smi == NULL)
		return;
	snprintf(out, sizeof(out), "%s/smi.%d", opt.work, (int)getpid());
	if (k_run(argv, NULL, out, 30, &r) == 0 && r.exited &&
	    r.status == 0 && (text = k_file_head(out, 256, NULL, NULL)) != NULL) {
		if (sscanf(text, "%d.%d", &major, &minor) == 2)
			snprintf(opt.arch, sizeof(opt.arch), "sm_%d%d", major,
			    minor);
		free(text);
	}
	unlink(out);
	free(smi);
}


/*
 * The default AMD targets are the ones kforge users run on, but an older
 * hipcc may not know the newest: keep those the installed compiler
 * accepts, once per run, and say which were dropped.
 */
int hip_arch_given;

/* Warn about each requested HIP target that is not in kept. */
static void
report_dropped(const char *kept)
{
	char list[128], *p, *save = NULL, k[130];

	snprintf(list, sizeof(list), "%s", opt.hip_arch);
	snprintf(k, sizeof(k), ",%s,", kept);
	for (p = strtok_r(list, ",", &save); p != NULL;
	    p = strtok_r(NULL, ",", &save)) {
		char want[140];
		snprintf(want, sizeof(want), ",%s,", p);
		if (strstr(k, want) == NULL)
			k_warn(K_EXIT_OK, "", "hipcc does not build for %s "
			    "(%s); leaving it out of the HIP targets", p,
			    opt.hipcc.version);
	}
}
static pthread_once_t hip_once = PTHREAD_ONCE_INIT;

static void
probe_hip_arch(void)
{
	char list[128], kept[128] = "", *p, *save = NULL;
	char dir[PATH_MAX + 32], src[PATH_MAX + 64], out[PATH_MAX + 64];
	char log[PATH_MAX + 64], arg[160], *memo, *cached;
	struct k_proc r;

	if (hip_arch_given || opt.hipcc.path == NULL)
		return;
	memo = memo_path("hip-targets", &opt.hipcc, opt.hip_arch);
	if ((cached = memo_get(memo)) != NULL) {
		report_dropped(cached);
		if (cached[0] != '\0')
			snprintf(opt.hip_arch, sizeof(opt.hip_arch), "%s",
			    cached);
		free(cached);
		free(memo);
		return;
	}
	snprintf(dir, sizeof(dir), "%s/build/probe.XXXXXX", opt.work);
	if (k_mkdirs(opt.work) != 0 || mkdtemp(dir) == NULL) {
		free(memo);
		return;
	}
	snprintf(src, sizeof(src), "%s/p.hip", dir);
	snprintf(out, sizeof(out), "%s/p.hsaco", dir);
	snprintf(log, sizeof(log), "%s/log", dir);
	if (write_text(src, "__attribute__((global)) void k(void) {}\n") != 0) {
		k_remove_tree(dir);
		free(memo);
		return;
	}
	snprintf(list, sizeof(list), "%s", opt.hip_arch);
	for (p = strtok_r(list, ",", &save); p != NULL;
	    p = strtok_r(NULL, ",", &save)) {
		char *argv[] = { opt.hipcc.path, "--genco", arg, "-o", out,
		    src, NULL };
		snprintf(arg, sizeof(arg), "--offload-arch=%s", p);
		if (k_run(argv, NULL, log, 120, &r) == 0 && r.exited &&
		    r.status == 0) {
			if (kept[0] != '\0')
				strncat(kept, ",", sizeof(kept) - strlen(kept) - 1);
			strncat(kept, p, sizeof(kept) - strlen(kept) - 1);
		}
	}
	k_remove_tree(dir);
	if (kept[0] != '\0') {
		report_dropped(kept);
		snprintf(opt.hip_arch, sizeof(opt.hip_arch), "%s", kept);
		memo_put(memo, kept);
	}
	free(memo);
}

/* Settle the HIP targets, once per run (before the first HIP build). */
void
hip_targets(void)
{
	pthread_once(&hip_once, probe_hip_arch);
}
