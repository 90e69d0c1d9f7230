/* kbuild: one build unit: its command, the compiler run, the cache. */
#include <signal.h>

#include "kbuild.h"
#include "k_buf.h"
#include "k_jail.h"


/* s quoted for sh, appended to b */
static void
shq(struct k_buf *b, const char *s)
{
	if (s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789_-+=.,/:@%")] == '\0' && *s != '\0') {
		k_buf_add(b, s);
		return;
	}
	k_buf_add(b, "'");
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			k_buf_add(b, "'\\''");
		else
			k_buf_printf(b, "%c", *s);
	}
	k_buf_add(b, "'");
}

/*
 * The harness's build as one sh script: argv[1..n) are the compiler's
 * options (the library directory among them, "-L..."), cc the compiler
 * as the script names it.  The host code is compiled once, position
 * independent, and linked twice: "harness", the program, and
 * "harness.so", the shared object kverify's host loads (one process and
 * one context for many records).  Allocated.
 */
static char *
harness_script(char *const argv[], int n, const char *cc, const char *src)
{
	struct k_buf b = { 0 }, lib = { 0 };
	int i;

	k_buf_add(&b, "set -e; ");
	shq(&b, cc);
	for (i = 1; i < n; i++) {
		if (strncmp(argv[i], "-L", 2) == 0) {
			k_buf_add(&lib, " ");
			shq(&lib, argv[i]);
			continue;
		}
		k_buf_add(&b, " ");
		shq(&b, argv[i]);
	}
	/* no STB_GNU_UNIQUE symbols (std::to_string's tables): they would
	 * keep harness.so loaded after dlclose, its statics with it */
	k_buf_printf(&b, " -Xcompiler -fPIC -Xcompiler -fno-gnu-unique -c "
	    "-o harness.o %s; ", src);
	shq(&b, cc);
	k_buf_printf(&b, " -cudart none -o harness harness.o%s -lcuda; ",
	    k_buf_str(&lib));
	shq(&b, cc);
	k_buf_printf(&b, " -cudart none -shared -o harness.so harness.o%s "
	    "-lcuda; rm -f harness.o", k_buf_str(&lib));
	k_buf_free(&lib);
	return k_buf_take(&b);
}

/* The command for a build, with SRC and OUT standing for the files. */
static int
command(const struct unitspec *u, struct compiler **cc, char **argv,
    char *store, size_t storelen, const char **src, const char **out,
    char **shown)
{
	int hip = strcmp(u->dialect, "hip") == 0, n = 0;
	int mapped = hip && opt.hip_platform == HIP_NVIDIA;
	size_t used = 0;

#define ARG(s) do { \
	size_t l_ = strlen(s) + 1; \
	if (used + l_ > storelen) return -1; \
	memcpy(store + used, (s), l_); argv[n++] = store + used; \
	used += l_; } while (0)

	*cc = hip && !mapped ? &opt.hipcc : &opt.nvcc;
	if ((*cc)->path == NULL)
		return -1;
	if (hip && !mapped)
		hip_targets();
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
			if (!hip || mapped || s[1] == 'D' || s[1] == 'U' ||
			    strncmp(s, "-std=", 5) == 0)
				ARG(s);
		}
	} else
		ARG("-std=c++17");
	if (u->what == DEVICE) {
		*src = hip ? "kernel.hip" : "kernel.cu";
		if (mapped) {
			/* HIP as CUDA, through the mapping's headers, which
			 * hipcc's own implicit include stands for */
			ARG("-x");
			ARG("cu");
		}
		if (hip && !mapped) {
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
			if (mapped) {
				ARG("-Ihipnv");
				ARG("-include");
				ARG("hip/hip_runtime.h");
			}
		}
	} else {
		*src = hip ? "harness.hip" : "harness.cu";
		*out = "harness";
		ARG("-O2");
		if (mapped)
			ARG("-Ihipnv");
		if (!hip || mapped) {
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
	if (u->what == HARNESS && (!hip || mapped)) {
		/* one compile, then two links of the same object: the
		 * program, and harness.so for kverify's host */
		char *script = harness_script(argv, n, (*cc)->path, *src);
		/* as recorded: the compiler by name */
		*shown = harness_script(argv, n, (*cc)->name, *src);
		n = 0;
		ARG("/bin/sh");
		ARG("-c");
		ARG(script);
		free(script);
		argv[n] = NULL;
		return n;
	}
	ARG("-o");
	ARG(*out);
	ARG(*src);
	if (u->what == HARNESS)
		ARG(hip && !mapped ? "-lamdhip64" : "-lcuda");
	argv[n] = NULL;
#undef ARG
	return n;
}

/* Run argv in the sandbox (k_jail) with dir as its scratch directory,
 * the toolkits read-only, under --mem and the file-size limit. */
static int
jail_run(char *const argv[], const char *dir, const char *log,
    double timeout, struct k_proc *r)
{
	struct k_jail j;
	int n = 0;

	memset(&j, 0, sizeof(j));
	j.scratch = dir;
	j.why = "compilers";
	if (opt.cuda_root[0] != '\0')
		j.ro[n++] = opt.cuda_root;
	if (opt.hip_root[0] != '\0')
		j.ro[n++] = opt.hip_root;
	j.lim.mem_mb = opt.mem_mb;
	j.lim.fsize_mb = FSIZE_MB;
	return k_jail_run(argv, &j, log, timeout, r);
}

/*
 * Whether a compiler run ended for want of a resource rather than with a
 * verdict on the code: *code and the message say which; 0 when it ran to
 * a verdict (success, compile errors, a timeout).
 */
static int
resource_failure(const struct k_proc *r, const char *log, int *status,
    char *msg, size_t len)
{
	static const char *const oom[] = { "out of memory",
	    "virtual memory exhausted", "memory exhausted", "std::bad_alloc",
	    "Cannot allocate memory", "cannot allocate memory", NULL };
	size_t i;

	if (r->log_error == ENOSPC || (log != NULL &&
	    strstr(log, "No space left on device") != NULL)) {
		*status = K_EXIT_IO;
		snprintf(msg, len, "no space left on device");
		return 1;
	}
	if (r->log_error != 0) {
		/* the messages are lost: no verdict can be told */
		*status = K_EXIT_IO;
		snprintf(msg, len, "cannot write its log: %s",
		    strerror(r->log_error));
		return 1;
	}
	if (r->timed_out || r->overflow)
		return 0;
	if (r->signal == SIGXFSZ) {
		*status = K_EXIT_SYSTEM;
		snprintf(msg, len, "a file over the %d MiB limit", FSIZE_MB);
		return 1;
	}
	for (i = 0; log != NULL && oom[i] != NULL; i++)
		if (strstr(log, oom[i]) != NULL) {
			*status = K_EXIT_SYSTEM;
			snprintf(msg, len, "out of memory (--mem %ld MiB)",
			    opt.mem_mb);
			return 1;
		}
	if (r->signal == SIGKILL || r->signal == SIGSEGV ||
	    r->signal == SIGABRT || r->signal == SIGBUS) {
		/* killed from outside (the OOM killer), or a compiler that
		 * crashed on a failed allocation */
		*status = K_EXIT_SYSTEM;
		snprintf(msg, len, "the compiler was killed by signal %d "
		    "(memory? --mem %ld MiB)", r->signal, opt.mem_mb);
		return 1;
	}
	return 0;
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
	if (jail_run(argv, dir, out, 60, &r) != 0 || !r.exited ||
	    r.status != 0)
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

/* Does the module of a built unit (build.<role>) define symbol, global or
 * local?  1 yes, 0 no, -1 when it cannot tell (no nm, no module). */
int
module_defines(json_t *res, const char *symbol)
{
	const char *key = k_get_str(res, "artifact");
	const char *file = k_get_str(res, "file");
	char path[PATH_MAX + 160], out[PATH_MAX + 32], *text, *line;
	char *save = NULL, *argv[4];
	struct k_proc r;
	int fd, found = 0;

	if (opt.nm == NULL || key == NULL || file == NULL ||
	    strlen(key) < 2)
		return -1;
	snprintf(path, sizeof(path), "%s/build/%.2s/%s/%s", opt.work, key,
	    key, file);
	snprintf(out, sizeof(out), "%s/build/nm.XXXXXX", opt.work);
	if ((fd = mkstemp(out)) < 0)
		return -1;
	close(fd);
	argv[0] = opt.nm;
	argv[1] = "--defined-only";
	argv[2] = path;
	argv[3] = NULL;
	if (k_run(argv, NULL, out, 60, &r) != 0 || !r.exited ||
	    r.status != 0 || (text = k_file_head(out, 1 << 20, NULL,
	    NULL)) == NULL) {
		unlink(out);
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line != NULL && !found;
	    line = strtok_r(NULL, "\n", &save)) {
		char type, name[1024];
		if (sscanf(line, "%*s %c %1023s", &type, name) == 2 &&
		    (type == 'T' || type == 't') && strcmp(name, symbol) == 0)
			found = 1;
	}
	free(text);
	unlink(out);
	return found;
}

/*
 * The fields that depend on this machine and this run, not on the build:
 * set on a fresh and a cached result alike.
 */
static void
finish_unit(json_t *res, const struct unitspec *u, int mapped)
{
	int ok = json_is_true(json_object_get(res, "ok"));
	int hip = strcmp(u->dialect, "hip") == 0;

	json_object_set_new(res, "platform", json_string(!hip ? "nvidia" :
	    hip_platform_name()));
	if (hip && !mapped) {
		int here = amd_gpu_here();
		json_object_set_new(res, "runnable", json_boolean(ok && here &&
		    (u->what == HARNESS || !json_is_null(json_object_get(res,
		    "symbol")))));
		if (!here)
			json_object_set_new(res, "note", json_string(
			    "compile-checked only: AMD targets cannot run here"));
	} else
		json_object_set_new(res, "runnable", json_boolean(ok));
	if (hip && u->what == DEVICE)
		json_object_set_new(res, "wavefront", wavefront_scan(u->code,
		    u->kernel));
}

/*
 * Build one unit, from the cache when the same source was built with the
 * same compiler, version and flags before.  Returns the section to put
 * under build.<role>; sets *sys_error when the build could not even be
 * attempted (no compiler, no work directory).
 */
json_t *
build_unit(const struct unitspec *u, struct unit_fail *fail)
{
	char *sys_error = fail->msg;
	size_t errlen = sizeof(fail->msg);
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
	int mapped = strcmp(u->dialect, "hip") == 0 &&
	    opt.hip_platform == HIP_NVIDIA;
	char *log, *keytext, *shown = NULL;

	sys_error[0] = '\0';
	fail->code = "compiler-missing";
	fail->status = K_EXIT_RECORDS;
	n = command(u, &cc, argv, store, sizeof(store), &src, &out, &shown);
	if (n < 0) {
		free(shown);
		snprintf(sys_error, errlen, "%s not found (PATH, or $%s)",
		    cc != NULL ? cc->name : "compiler",
		    cc == &opt.hipcc ? "HIPCC" : "NVCC");
		return NULL;
	}
	{
		const char *roots[] = { opt.cuda_root, opt.hip_root, NULL };
		char why[512];
		if (include_check(u->code, roots, why, sizeof(why)) != 0) {
			fail->code = "bad-include";
			snprintf(sys_error, errlen, "%s (refused, nothing "
			    "compiled)", why);
			free(shown);
			return NULL;
		}
	}
	/* the command as recorded: the compiler by name, not by path */
	if (shown != NULL) {
		snprintf(cmdline, sizeof(cmdline), "%s", shown);
		free(shown);
	} else {
		snprintf(cmdline, sizeof(cmdline), "%s", cc->name);
		for (i = 1; i < n; i++) {
			strncat(cmdline, " ", sizeof(cmdline) - strlen(cmdline)
			    - 1);
			strncat(cmdline, argv[i], sizeof(cmdline) -
			    strlen(cmdline) - 1);
		}
	}
	snprintf(key_in, sizeof(key_in), "%s\n%s\n%s\n%s\n%s\n", CACHE_VERSION,
	    cc->path, cc->version, cmdline, mapped ? hipnv_key() : "");
	keytext = k_asprintf("%s%s", key_in, u->code);
	k_sha256_hex(keytext, strlen(keytext), key);
	free(keytext);
	snprintf(dir, sizeof(dir), "%s/build/%.2s/%s", opt.work, key, key);

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	if ((meta = json_load_file(path, 0, &jerr)) != NULL &&
	    json_is_object(meta)) {
		json_object_set_new(meta, "cached", json_true());
		finish_unit(meta, u, mapped);
		return meta;
	}
	json_decref(meta);

	/* build in a private directory, then rename it into place: two
	 * kbuild processes sharing a work directory never see a half
	 * written entry */
	snprintf(tmp, sizeof(tmp), "%s/build/tmp.XXXXXX", opt.work);
	if (mkdirs_of(tmp) != 0 ||
	    mkdtemp(tmp) == NULL) {
		fail->code = "system";
		fail->status = K_EXIT_IO;
		snprintf(sys_error, errlen, "%.900s: cannot create: %s", tmp,
		    strerror(errno));
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", tmp, src);
	if ((mapped && hipnv_write(tmp) != 0) || write_text(path, u->code) != 0) {
		fail->code = errno == ENOSPC ? "no-space" : "system";
		fail->status = K_EXIT_IO;
		snprintf(sys_error, errlen, "%.900s: cannot write: %s", path,
		    strerror(errno));
		k_remove_tree(tmp);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/log.txt", tmp);
	if (jail_run(argv, tmp, path, opt.timeout, &r) != 0) {
		fail->code = errno == ENOSPC ? "no-space" : "system";
		fail->status = errno == ENOSPC ? K_EXIT_IO : K_EXIT_SYSTEM;
		snprintf(sys_error, errlen, "cannot run %s: %s", cc->name,
		    strerror(errno));
		k_remove_tree(tmp);
		return NULL;
	}
	log = k_file_head(path, LOG_MAX, NULL, &truncated);
	{
		/* no verdict on the code: an error of the run, never
		 * cached */
		char why[256];
		int st;
		if (resource_failure(&r, log, &st, why, sizeof(why))) {
			fail->code = st == K_EXIT_IO ? "no-space" : "resource";
			fail->status = st;
			snprintf(sys_error, errlen, "%s: %s", cc->name, why);
			free(log);
			k_remove_tree(tmp);
			return NULL;
		}
	}
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
	snprintf(path, sizeof(path), "%s/harness.so", tmp);
	if (u->what == HARNESS && json_is_true(json_object_get(res, "ok")) &&
	    access(path, R_OK) == 0)
		json_object_set_new(res, "shared", json_string("harness.so"));
	if (u->what == DEVICE && (strcmp(u->dialect, "cuda") == 0 || mapped) &&
	    json_is_true(json_object_get(res, "ok")))
		json_object_set_new(res, "symbol", find_symbol(tmp, out,
		    u->kernel));
	else if (u->what == DEVICE && json_is_true(json_object_get(res, "ok"))) {
		/* an AMD code object: the harness loads it through HIP
		 * itself where an AMD GPU is */
		snprintf(path, sizeof(path), "%s/%s", tmp, out);
		json_object_set_new(res, "symbol", find_symbol_bytes(path,
		    u->kernel));
	} else
		json_object_set_new(res, "symbol", json_null());
	finish_unit(res, u, mapped);
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
		if (errno == ENOSPC) {
			/* the verdict stands, the cache just lacks it; the
			 * run says so by its status */
			k_warn(K_EXIT_IO, NULL, "%.900s: cannot cache: %s",
			    dir, strerror(errno));
		}
	}
	/* someone else put the same entry in place first, or we keep
	 * nothing: either way the temporary directory goes */
	k_remove_tree(tmp);
	return res;
}
