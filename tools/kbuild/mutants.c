/*
 * kbuild: the mutants kwrap listed (wrap.mutants), each the reference's
 * slice.code with one edit, built exactly as the reference is.  A mutant
 * whose module is byte-equal to the reference's (but for the unit hashes
 * in nvcc's names of internal entities) compiles to the same machine
 * code: it is equivalent, proven so, and kverify never runs it.
 * One that does not compile is stillborn.  Neither counts in a score.
 */
#include <ctype.h>

#include "kbuild.h"

/*
 * The digits of nvcc's names for a translation unit's internal
 * entities, made 0: an anonymous namespace's
 * "_GLOBAL__N__H1_9_kernel_cu_H2_N" and "_INTERNAL_H1_9_kernel_cu_H2_N"
 * (H1 and H2 eight hex digits each, 9 the length of the file's name as
 * it follows, N a number; the digits after H2 are zeroed to the next
 * letter, the mangled length of the name that follows included) differ
 * from one unit to another, H1 a hash of its text: a slice whose headers
 * hold such entities (CCCL's customization points, a namespace {
 * __device__ ... } table) gives every mutant a module that differs from
 * the reference's in those names alone (nvcc 13.0 on an H200 host wrote
 * "_INTERNAL_ed8fd31a_9_kernel_cu_3482f297_510" for the reference,
 * "..._c62c8494_9_kernel_cu_823ba51e_675" for a mutant).  The layout
 * keeps its length.
 */
static void
unname(char *b, size_t n)
{
	static const char *const pre[] = { "_INTERNAL_", "_GLOBAL__N__" };
	size_t i, j, k, len;
	int p;

	for (i = 0; i < n; i++)
		for (p = 0; p < 2; p++) {
			size_t l = strlen(pre[p]);
			if (n - i < l + 8 || memcmp(b + i, pre[p], l) != 0)
				continue;
			j = i + l;
			for (k = 0; k < 8 && isxdigit((unsigned char)b[j + k]); k++)
				;
			if (k < 8 || j + 8 >= n || b[j + 8] != '_')
				continue;
			memset(b + j, '0', 8);
			/* _LEN_NAME_H2 */
			for (k = j + 9, len = 0; k < n && isdigit((unsigned char)
			    b[k]) && len < 4096; k++)
				len = len * 10 + (size_t)(b[k] - '0');
			if (k == j + 9 || k >= n || b[k] != '_' || len > n - k ||
			    n - k - len < 10 || b[k + 1 + len] != '_')
				continue;
			k += 2 + len;
			for (j = 0; j < 8 && isxdigit((unsigned char)b[k + j]); j++)
				;
			if (j < 8)
				continue;
			memset(b + k, '0', 8);
			/* a number of the unit's after it ("_510"), then the
			 * next name's length: digits all */
			if (k + 8 < n && b[k + 8] == '_')
				for (k += 9; k < n && isdigit((unsigned char)b[k]);
				    k++)
					b[k] = '0';
		}
}

/* The sha256 of a built unit's module file, its internal names' unit
 * hashes made 0 (unname); -1 when there is none. */
static int
module_hash(json_t *res, char out[K_SHA256_HEX])
{
	const char *key = k_get_str(res, "artifact");
	const char *file = k_get_str(res, "file");
	char path[PATH_MAX + 200], *b;
	size_t n;

	if (!json_is_true(json_object_get(res, "ok")) || key == NULL ||
	    file == NULL || strlen(key) < 2 || strchr(file, '/') != NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/build/%.2s/%s/%s", opt.work, key, key,
	    file);
	if ((b = k_file_read(path, (size_t)1 << 30, &n)) == NULL)
		return -1;
	unname(b, n);
	k_sha256_hex(b, n, out);
	free(b);
	return 0;
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
