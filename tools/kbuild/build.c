/* kbuild: one build unit: its command, the compiler run, the cache. */
#include "kbuild.h"


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
json_t *
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
