/*
 * kbuild: the mutants kwrap listed (wrap.mutants), each the reference's
 * slice.code with one edit, built exactly as the reference is.  A mutant
 * whose module is byte-equal to the reference's compiles to the same
 * machine code: it is equivalent, proven so, and kverify never runs it.
 * One that does not compile is stillborn.  Neither counts in a score.
 */
#include "kbuild.h"

/* The sha256 of a built unit's module file; -1 when there is none. */
static int
module_hash(json_t *res, char out[K_SHA256_HEX])
{
	const char *key = k_get_str(res, "artifact");
	const char *file = k_get_str(res, "file");
	char path[PATH_MAX + 200];

	if (!json_is_true(json_object_get(res, "ok")) || key == NULL ||
	    file == NULL || strlen(key) < 2 || strchr(file, '/') != NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/build/%.2s/%s/%s", opt.work, key, key,
	    file);
	return k_sha256_file(path, out);
}

/* The first error diagnostic of a failed build, else its log's start. */
static json_t *
first_error(json_t *res)
{
	json_t *d;
	size_t i;
	const char *log = k_get_str(res, "log");

	json_array_foreach(json_object_get(res, "diagnostics"), i, d) {
		const char *sev = k_get_str(d, "severity");
		if (sev != NULL && strcmp(sev, "error") == 0 &&
		    k_get_str(d, "message") != NULL)
			return json_string(k_get_str(d, "message"));
	}
	return k_string_lossy(log != NULL ? log : "", log != NULL &&
	    strlen(log) > 200 ? 200 : log != NULL ? strlen(log) : 0);
}

void
build_mutants(json_t *rec, json_t *build, const struct unitspec *ref,
    json_t *ref_res)
{
	json_t *list = json_object_get(json_object_get(json_object_get(rec,
	    "wrap"), "mutants"), "list"), *m, *out, *arr;
	const char *code = k_get_str(json_object_get(rec, "slice"), "code");
	char rh[K_SHA256_HEX], mh[K_SHA256_HEX];
	struct unit_fail uf;
	size_t i, len;
	long built = 0, still = 0, equiv = 0;

	if (!json_is_array(list) || code == NULL)
		return;
	len = strlen(code);
	out = json_object();
	arr = json_array();
	if (module_hash(ref_res, rh) != 0)
		rh[0] = '\0';
	json_array_foreach(list, i, m) {
		json_int_t off = k_get_int(m, "offset", -1);
		json_int_t l = k_get_int(m, "length", -1);
		const char *rep = k_get_str(m, "replacement");
		const char *id = k_get_str(m, "id");
		json_t *e = json_object(), *res;
		struct unitspec u = *ref;
		char *mc;

		json_object_set_new(e, "id", json_string(id != NULL ? id :
		    "?"));
		json_array_append_new(arr, e);
		if (id == NULL || rep == NULL || off < 0 || l < 0 ||
		    (size_t)off > len || (size_t)l > len - (size_t)off) {
			json_object_set_new(e, "ok", json_false());
			json_object_set_new(e, "error", json_string("the edit "
			    "does not fit slice.code"));
			still++;
			continue;
		}
		mc = k_asprintf("%.*s%s%s", (int)off, code, rep, code + off + l);
		u.role = "mutant";
		u.code = mc;
		res = build_unit(&u, &uf);
		free(mc);
		if (res == NULL) {
			/* not built: a resource that ran out is the run's too */
			json_object_set_new(e, "ok", json_false());
			json_object_set_new(e, "error", json_string(uf.msg));
			k_exit_raise(uf.status);
			still++;
			continue;
		}
		json_object_set_new(e, "ok", json_boolean(json_is_true(
		    json_object_get(res, "ok"))));
		if (!json_is_true(json_object_get(res, "ok"))) {
			json_object_set_new(e, "error", first_error(res));
			json_decref(res);
			still++;
			continue;
		}
		built++;
		json_object_set(e, "artifact", json_object_get(res, "artifact"));
		json_object_set(e, "file", json_object_get(res, "file"));
		json_object_set(e, "symbol", json_object_get(res, "symbol"));
		json_object_set(e, "runnable", json_object_get(res, "runnable"));
		json_object_set_new(e, "equivalent", json_boolean(rh[0] != '\0' &&
		    module_hash(res, mh) == 0 && strcmp(rh, mh) == 0));
		if (json_is_true(json_object_get(e, "equivalent")))
			equiv++;
		json_decref(res);
	}
	json_object_set_new(out, "built", json_integer(built));
	json_object_set_new(out, "stillborn", json_integer(still));
	json_object_set_new(out, "equivalent", json_integer(equiv));
	json_object_set_new(out, "list", arr);
	json_object_set_new(build, "mutants", out);
}
