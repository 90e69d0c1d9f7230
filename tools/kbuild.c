/*
 * kbuild: compile each record's reference kernel (slice.code), candidate
 * kernel (candidate.code) and host harness (wrap.harness) with nvcc or
 * hipcc, into a content-addressed cache in the work directory.
 *
 * Kernels are built to loadable device code only (a cubin, or an AMD code
 * object); the harness loads them through the driver API, so no
 * candidate's host code ever runs inside the judge.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "k_exit.h"
#include "k_flags.h"
#include "k_fs.h"
#include "k_hash.h"
#include "k_main.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_proc.h"
#include "k_record.h"

#define STAGE "kbuild"
#define LOG_MAX 16384		/* bytes of compiler output kept inline */
#define DIAG_MAX 50		/* diagnostics kept per build */
#define CACHE_VERSION "kbuild-1"
#define FLAGS_MAX 64		/* slice.flags and --flag together */

struct compiler {
	const char *name;
	char *path;		/* NULL: not installed */
	char *version;		/* last line of --version */
};

static struct {
	int jobs;
	char arch[32];
	char hip_arch[128];
	int check;
	double timeout;
	char work[PATH_MAX];
	struct compiler nvcc, hipcc;
	char *nm;
	char cuda_root[PATH_MAX];
	json_t *flags;		/* --flag, in order */
} opt;

/* ------------------------------------------------------------ helpers */


/* Write text to path (k_file_write: checked, atomic). */
static int
write_text(const char *path, const char *text)
{
	return k_file_write(path, text, strlen(text));
}

/* mkdir -p of the directory path is in. */
static int
mkdirs_of(const char *path)
{
	char *dir = k_dirname(path);
	int rc = k_mkdirs(dir);

	free(dir);
	return rc;
}

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
static void
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
static void
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

/* ------------------------------------------------------- diagnostics */

/*
 * nvcc's front end says "file(12): error: message", gcc and clang say
 * "file:12:3: error: message"; both become {file, line, severity,
 * message}.
 */
static json_t *
parse_diagnostics(const char *log)
{
	json_t *arr = json_array();
	const char *p = log, *nl;
	char line[2048], file[512], sev[32];
	int ln, col;

	while (p != NULL && *p != '\0' && json_array_size(arr) < DIAG_MAX) {
		size_t len;
		char *m = NULL;
		nl = strchr(p, '\n');
		len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		p = nl != NULL ? nl + 1 : NULL;
		sev[0] = '\0';
		if (sscanf(line, "%511[^(:](%d): %31[a-z ]:", file, &ln,
		    sev) == 3 && (m = strstr(line, "): ")) != NULL) {
			m = strchr(m + 3, ':');
		} else if (sscanf(line, "%511[^:]:%d:%d: %31[a-z ]:", file, &ln,
		    &col, sev) == 4) {
			m = strstr(line, sev);
			m = m != NULL ? strchr(m, ':') : NULL;
		} else if (strncmp(line, "error: ", 7) == 0) {
			/* a back end's own, with no file: NVVM's "error:
			 * Broken module found, compilation aborted!" */
			snprintf(file, sizeof(file), "%s", "");
			snprintf(sev, sizeof(sev), "error");
			ln = 0;
			m = line + 5;
		} else if (sscanf(line, "%511[^: ]: %31[a-z ]:", file, sev) == 2) {
			/* the driver itself: "clang: error: ..." */
			ln = 0;
			m = strstr(line, sev);
			m = m != NULL ? strchr(m, ':') : NULL;
		} else
			continue;
		if (m == NULL || (strncmp(sev, "error", 5) != 0 &&
		    strncmp(sev, "warning", 7) != 0 &&
		    strncmp(sev, "fatal error", 11) != 0 &&
		    strcmp(sev, "note") != 0))
			continue;
		{
			json_t *d = json_object();
			m++;
			while (*m == ' ')
				m++;
			json_object_set_new(d, "file", json_string(file));
			json_object_set_new(d, "line", json_integer(ln));
			json_object_set_new(d, "severity", json_string(
			    strncmp(sev, "fatal", 5) == 0 ? "error" : sev));
			json_object_set_new(d, "message",
			    k_string_lossy(m, strlen(m)));
			json_array_append_new(arr, d);
		}
	}
	return arr;
}

/*
 * The default AMD targets are the ones kforge users run on, but an older
 * hipcc may not know the newest: keep those the installed compiler
 * accepts, once per run, and say which were dropped.
 */
static int hip_arch_given;

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

/* ------------------------------------------------------------ builds */

enum what { DEVICE, HARNESS };

struct unitspec {
	enum what what;
	const char *dialect;	/* cuda or hip */
	const char *role;	/* reference, candidate, harness */
	const char *code;
	const char *kernel;	/* name to look for in the module */
	json_t *flags;		/* device builds: the record's and --flag's */
};

/* The command for a build, with SRC and OUT standing for the files. */
static int
command(const struct unitspec *u, struct compiler **cc, char **argv,
    char *store, size_t storelen, const char **src, const char **out)
{
	int hip = strcmp(u->dialect, "hip") == 0, n = 0;
	size_t used = 0;

#define ARG(s) do { \
	size_t l_ = strlen(s) + 1; \
	if (used + l_ > storelen) return -1; \
	memcpy(store + used, (s), l_); argv[n++] = store + used; \
	used += l_; } while (0)

	*cc = hip ? &opt.hipcc : &opt.nvcc;
	if ((*cc)->path == NULL)
		return -1;
	if (hip)
		pthread_once(&hip_once, probe_hip_arch);
	ARG((*cc)->path);
	if (u->what == DEVICE) {
		json_t *f;
		size_t i;
		int std = 0;
		/* the project's flags; its -std replaces ours */
		json_array_foreach(u->flags, i, f)
			if (strncmp(json_string_value(f), "-std=", 5) == 0)
				std = 1;
		if (!std)
			ARG("-std=c++17");
		json_array_foreach(u->flags, i, f) {
			const char *s = json_string_value(f);
			/* hipcc (clang) shares macros and -std only */
			if (!hip || s[1] == 'D' || s[1] == 'U' ||
			    strncmp(s, "-std=", 5) == 0)
				ARG(s);
		}
	} else
		ARG("-std=c++17");
	if (u->what == DEVICE) {
		*src = hip ? "kernel.hip" : "kernel.cu";
		if (hip) {
			char a[160];
			char *p, *save = NULL, list[128];
			ARG("--genco");
			snprintf(list, sizeof(list), "%s", opt.hip_arch);
			for (p = strtok_r(list, ",", &save); p != NULL;
			    p = strtok_r(NULL, ",", &save)) {
				snprintf(a, sizeof(a), "--offload-arch=%s", p);
				ARG(a);
			}
			*out = "module.hsaco";
		} else {
			char a[64];
			ARG("-cubin");
			snprintf(a, sizeof(a), "-arch=%s", opt.arch);
			ARG(a);
			*out = "module.cubin";
		}
	} else {
		*src = hip ? "harness.hip" : "harness.cu";
		*out = "harness";
		ARG("-O2");
		if (!hip) {
			char a[PATH_MAX + 32];
			/* host code only: plain C++ against the driver
			 * API, without the runtime nvcc links by default */
			ARG("-x");
			ARG("c++");
			ARG("-cudart");
			ARG("none");
			snprintf(a, sizeof(a), "-L%s/lib64/stubs",
			    opt.cuda_root);
			ARG(a);
		}
	}
	ARG("-o");
	ARG(*out);
	ARG(*src);
	if (u->what == HARNESS)
		ARG(hip ? "-lamdhip64" : "-lcuda");
	argv[n] = NULL;
#undef ARG
	return n;
}

/* The kernel's mangled name among the module's defined functions, global
 * or local; the only function when the name is not found in any. */
static json_t *
find_symbol(const char *dir, const char *module, const char *kernel)
{
	char path[PATH_MAX + 64], out[PATH_MAX + 64], *text, *line;
	char *save = NULL, want[300], *argv[4];
	json_t *found = json_null(), *first = NULL, *local = NULL;
	struct k_proc r;
	int count = 0;

	if (opt.nm == NULL)
		return found;
	snprintf(path, sizeof(path), "%s/%s", dir, module);
	snprintf(out, sizeof(out), "%s/nm.txt", dir);
	argv[0] = opt.nm;
	argv[1] = "--defined-only";
	argv[2] = path;
	argv[3] = NULL;
	if (k_run(argv, NULL, out, 60, &r) != 0 || !r.exited || r.status != 0)
		return found;
	if ((text = k_file_head(out, 1 << 20, NULL, NULL)) == NULL)
		return found;
	/* Itanium mangling spells a name as its length and its letters */
	snprintf(want, sizeof(want), "%zu%s", strlen(kernel), kernel);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char type, name[1024];
		int match;
		/* T: global; t: a static __global__ kernel, local to its
		 * translation unit but launchable by name all the same.
		 * Names starting with '$' are the compiler's own clones and
		 * helpers, which may spell the kernel's name inside theirs */
		if (sscanf(line, "%*s %c %1023s", &type, name) != 2 ||
		    (type != 'T' && type != 't') || name[0] == '$')
			continue;
		match = strcmp(name, kernel) == 0 || strstr(name, want) != NULL;
		if (type == 'T') {
			count++;
			if (first == NULL)
				first = json_string(name);
			if (match) {
				json_decref(found);
				found = json_string(name);
				break;
			}
		} else if (match && local == NULL)
			local = json_string(name);
	}
	/* a global match first, then a local one, then the only global */
	if (json_is_null(found) && local != NULL) {
		json_decref(found);
		found = json_incref(local);
	} else if (json_is_null(found) && count == 1 && first != NULL) {
		json_decref(found);
		found = json_incref(first);
	}
	json_decref(local);
	json_decref(first);
	free(text);
	unlink(out);
	return found;
}

/*
 * Build one unit, from the cache when the same source was built with the
 * same compiler, version and flags before.  Returns the section to put
 * under build.<role>; sets *sys_error when the build could not even be
 * attempted (no compiler, no work directory).
 */
static json_t *
build_unit(const struct unitspec *u, char *sys_error, size_t errlen)
{
	struct compiler *cc = NULL;
	char *argv[32 + FLAGS_MAX], store[16384], key_in[20480];
	char key[K_SHA256_HEX];
	char dir[PATH_MAX + 96], tmp[PATH_MAX + 32], path[PATH_MAX + 160];
	const char *src = NULL, *out = NULL;
	char cmdline[16384];
	json_t *res = NULL, *meta;
	json_error_t jerr;
	struct k_proc r;
	int n, i, truncated;
	char *log, *keytext;

	sys_error[0] = '\0';
	n = command(u, &cc, argv, store, sizeof(store), &src, &out);
	if (n < 0) {
		snprintf(sys_error, errlen, "%s not found (PATH, or $%s)",
		    cc != NULL ? cc->name : "compiler",
		    cc == &opt.hipcc ? "HIPCC" : "NVCC");
		return NULL;
	}
	/* the command as recorded: the compiler by name, not by path */
	snprintf(cmdline, sizeof(cmdline), "%s", cc->name);
	for (i = 1; i < n; i++) {
		strncat(cmdline, " ", sizeof(cmdline) - strlen(cmdline) - 1);
		strncat(cmdline, argv[i], sizeof(cmdline) - strlen(cmdline) - 1);
	}
	snprintf(key_in, sizeof(key_in), "%s\n%s\n%s\n%s\n", CACHE_VERSION,
	    cc->path, cc->version, cmdline);
	keytext = k_asprintf("%s%s", key_in, u->code);
	k_sha256_hex(keytext, strlen(keytext), key);
	free(keytext);
	snprintf(dir, sizeof(dir), "%s/build/%.2s/%s", opt.work, key, key);

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	if ((meta = json_load_file(path, 0, &jerr)) != NULL &&
	    json_is_object(meta)) {
		json_object_set_new(meta, "cached", json_true());
		return meta;
	}
	json_decref(meta);

	/* build in a private directory, then rename it into place: two
	 * kbuild processes sharing a work directory never see a half
	 * written entry */
	snprintf(tmp, sizeof(tmp), "%s/build/tmp.XXXXXX", opt.work);
	if (mkdirs_of(tmp) != 0 ||
	    mkdtemp(tmp) == NULL) {
		snprintf(sys_error, errlen, "%.900s: cannot create: %s", tmp,
		    strerror(errno));
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", tmp, src);
	if (write_text(path, u->code) != 0) {
		snprintf(sys_error, errlen, "%.900s: cannot write: %s", path,
		    strerror(errno));
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/log.txt", tmp);
	if (k_run(argv, tmp, path, opt.timeout, &r) != 0) {
		snprintf(sys_error, errlen, "cannot run %s: %s", cc->name,
		    strerror(errno));
		return NULL;
	}
	log = k_file_head(path, LOG_MAX, NULL, &truncated);
	res = json_object();
	json_object_set_new(res, "ok", json_boolean(r.exited &&
	    r.status == 0 && !r.timed_out));
	json_object_set_new(res, "compiler", json_string(cc->name));
	json_object_set_new(res, "version", json_string(cc->version));
	json_object_set_new(res, "command", json_string(cmdline));
	json_object_set_new(res, "seconds", json_real(
	    (double)(long)(r.seconds * 1000) / 1000));
	json_object_set_new(res, "cached", json_false());
	json_object_set_new(res, "artifact", json_string(key));
	json_object_set_new(res, "file", json_string(out));
	if (u->what == DEVICE && strcmp(u->dialect, "cuda") == 0 &&
	    json_is_true(json_object_get(res, "ok")))
		json_object_set_new(res, "symbol", find_symbol(tmp, out,
		    u->kernel));
	else
		json_object_set_new(res, "symbol", json_null());
	if (strcmp(u->dialect, "hip") == 0) {
		json_object_set_new(res, "runnable", json_false());
		json_object_set_new(res, "note", json_string(
		    "compile-checked only: AMD targets cannot run here"));
	} else
		json_object_set_new(res, "runnable", json_boolean(
		    json_is_true(json_object_get(res, "ok"))));
	{
		json_t *d = parse_diagnostics(log != NULL ? log : "");
		if (r.timed_out) {
			json_t *t = json_object();
			json_object_set_new(t, "file", json_string(src));
			json_object_set_new(t, "line", json_integer(0));
			json_object_set_new(t, "severity", json_string("error"));
			json_object_set_new(t, "message", json_sprintf(
			    "%s timed out after %g s", cc->name, opt.timeout));
			json_array_insert_new(d, 0, t);
		} else if (r.signal != 0) {
			json_t *t = json_object();
			json_object_set_new(t, "file", json_string(src));
			json_object_set_new(t, "line", json_integer(0));
			json_object_set_new(t, "severity", json_string("error"));
			json_object_set_new(t, "message", r.overflow ?
			    json_sprintf("%s killed after writing more than "
			    "%lu MiB of messages", cc->name,
			    (unsigned long)(K_RUN_OUTPUT_MAX >> 20)) :
			    json_sprintf("%s killed by signal %d", cc->name,
			    r.signal));
			json_array_insert_new(d, 0, t);
		}
		json_object_set_new(res, "diagnostics", d);
	}
	json_object_set_new(res, "log", k_string_lossy(log != NULL ? log : "",
	    log != NULL ? strlen(log) : 0));
	json_object_set_new(res, "log_truncated", json_boolean(truncated));
	json_object_set_new(res, "pass_call",
	    json_incref(json_object_get(res, "ok")));
	free(log);

	/* a timeout or a crash may not happen again: not cached */
	if (!r.timed_out && r.signal == 0) {
		snprintf(path, sizeof(path), "%s/meta.json", tmp);
		if (json_dump_file(res, path, JSON_COMPACT) == 0 &&
		    mkdirs_of(dir) == 0 &&
		    rename(tmp, dir) == 0)
			return res;
	}
	/* someone else put the same entry in place first, or we keep
	 * nothing: either way the temporary directory goes */
	k_remove_tree(tmp);
	return res;
}

/* ------------------------------------------------------- per record */

static int
looks_like_code(const char *s)
{
	return strstr(s, "__global__") != NULL ||
	    strstr(s, "__launch_bounds__") != NULL;
}



/*
 * The flags of the device builds: slice.flags (the project's, checked
 * against k_nvcc_flag_ok: a record names no output, target or path), then
 * --flag's; a later -std replaces an earlier one.  NULL, with the reason
 * in err, when slice.flags is not acceptable.
 */
static json_t *
device_flags(json_t *slice, char *err, size_t len)
{
	json_t *sf = json_object_get(slice, "flags"), *out = json_array(), *f;
	size_t i, j;

	if (sf != NULL && !json_is_array(sf)) {
		snprintf(err, len, "slice.flags is not an array");
		json_decref(out);
		return NULL;
	}
	json_array_foreach(sf, i, f) {
		const char *s = json_string_value(f);
		if (s == NULL || strlen(s) > 256 || !k_nvcc_flag_ok(s)) {
			snprintf(err, len, "slice.flags[%zu]: not a flag kbuild "
			    "passes on (macros, -std, --expt-*, floating-point "
			    "modes): %.200s", i, s != NULL ? s : "(not a string)");
			json_decref(out);
			return NULL;
		}
		json_array_append(out, f);
	}
	json_array_foreach(opt.flags, i, f)
		json_array_append(out, f);
	for (i = json_array_size(out); i-- > 0;) {
		const char *s = json_string_value(json_array_get(out, i));
		if (strncmp(s, "-std=", 5) != 0)
			continue;
		for (j = i; j-- > 0;)
			if (strncmp(json_string_value(json_array_get(out, j)),
			    "-std=", 5) == 0) {
				json_array_remove(out, j);
				i--;
			}
		break;
	}
	if (json_array_size(out) > FLAGS_MAX) {
		snprintf(err, len, "more than %d flags (slice.flags and "
		    "--flag)", FLAGS_MAX);
		json_decref(out);
		return NULL;
	}
	return out;
}

/* Build what rec holds; returns rec with a build section (steals rec). */
static json_t *
process(json_t *rec, void *ctx)
{
	json_t *scan = json_object_get(rec, "scan");
	json_t *slice = json_object_get(rec, "slice");
	json_t *cand = json_object_get(rec, "candidate");
	json_t *wrap = json_object_get(rec, "wrap");
	json_t *build, *res, *flags;
	struct unitspec u;
	char err[1024];
	const char *code, *kernel, *dialect;

	(void)ctx;
	if (!json_is_object(slice)) {
		/* an upstream failure is already recorded: pass it on */
		if (!k_has_errors(rec))
			k_fail(rec, STAGE, "no-slice", "%s: no slice section to build "
			    "(run kslice first)", k_id_text(rec));
		return rec;
	}
	code = k_get_str(slice, "code");
	kernel = k_get_str(scan, "name");
	dialect = k_get_str(scan, "dialect");
	if (code == NULL || *code == '\0') {
		k_fail(rec, STAGE, "no-slice", "%s: slice.code is missing or "
		    "empty", k_id_text(rec));
		return rec;
	}
	if (dialect == NULL || (strcmp(dialect, "cuda") != 0 &&
	    strcmp(dialect, "hip") != 0))
		dialect = "cuda";
	if (kernel == NULL)
		kernel = "";

	if ((flags = device_flags(slice, err, sizeof(err))) == NULL) {
		k_fail(rec, STAGE, "bad-flags", "%s: %s", k_id_text(rec), err);
		return rec;
	}
	build = json_object();
	json_object_set(build, "flags", flags);
	memset(&u, 0, sizeof(u));
	u.what = DEVICE;
	u.dialect = dialect;
	u.role = "reference";
	u.code = code;
	u.kernel = kernel;
	u.flags = flags;
	res = build_unit(&u, err, sizeof(err));
	/* after the first HIP build, which settles the HIP targets */
	json_object_set_new(build, "arch", json_string(
	    strcmp(dialect, "hip") == 0 ? opt.hip_arch : opt.arch));
	if (res == NULL)
		k_fail(rec, STAGE, "compiler-missing", "%s: reference: %s",
		    k_id_text(rec), err);
	else {
		json_t *sym = json_object_get(res, "symbol");
		json_object_set_new(build, "reference", res);
		if (json_is_true(json_object_get(res, "ok")) &&
		    strcmp(dialect, "cuda") == 0 && json_is_null(sym))
			k_fail(rec, STAGE, "no-symbol", "%s: reference: no "
			    "function for kernel %s among the module's "
			    "symbols%s", k_id_text(rec), kernel,
			    opt.nm == NULL ? " (nm not found)" : "");
	}

	if (cand != NULL) {
		const char *cc = k_get_str(cand, "code");
		const char *cd = k_get_str(cand, "dialect");
		if (!json_is_object(cand) || cc == NULL) {
			k_fail(rec, STAGE, "bad-candidate", "%s: candidate "
			    "has no code", k_id_text(rec));
		} else if (strspn(cc, " \t\r\n") == strlen(cc)) {
			k_fail(rec, STAGE, "bad-candidate", "%s: candidate "
			    "code is empty", k_id_text(rec));
		} else if (!looks_like_code(cc)) {
			k_fail(rec, STAGE, "bad-candidate", "%s: candidate "
			    "defines no __global__ kernel", k_id_text(rec));
		} else {
			u.dialect = cd != NULL && strcmp(cd, "hip") == 0 ?
			    "hip" : "cuda";
			u.role = "candidate";
			u.code = cc;
			if ((res = build_unit(&u, err, sizeof(err))) == NULL)
				k_fail(rec, STAGE, "compiler-missing",
				    "%s: candidate: %s", k_id_text(rec), err);
			else
				json_object_set_new(build, "candidate", res);
		}
	}

	if (!opt.check) {
		json_t *h = json_object_get(wrap, "harness");
		const char *hc = k_get_str(h, "code");
		if (hc != NULL && *hc != '\0') {
			const char *hd = k_get_str(h, "dialect");
			u.what = HARNESS;
			u.dialect = hd != NULL && strcmp(hd, "hip") == 0 ?
			    "hip" : "cuda";
			u.role = "harness";
			u.code = hc;
			if ((res = build_unit(&u, err, sizeof(err))) == NULL)
				k_fail(rec, STAGE, "compiler-missing",
				    "%s: harness: %s", k_id_text(rec), err);
			else
				json_object_set_new(build, "harness", res);
		} else
			json_object_set_new(build, "harness", json_null());
	}
	json_decref(flags);
	k_set_section(rec, "build", build);
	return rec;
}

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
