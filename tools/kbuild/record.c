/* kbuild: the per-record function: which units a record asks for. */
#include "kbuild.h"


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

/* A unit that was not built: an error of the record, and of the run when
 * a resource (space, memory) ran out. */
static void
unit_failed(json_t *rec, const char *role, const struct unit_fail *uf)
{
	k_fail(rec, STAGE, uf->code, "%s: %s: %s", k_id_text(rec), role,
	    uf->msg);
	k_exit_raise(uf->status);
}

/* A candidate that compiled but does not define the task's kernel with
 * the task's signature (the reference's mangled name: a different name or
 * different parameter types mangle differently) fails pass_call, with the
 * reason, and names no symbol, so that kverify does not run it. */
static void
same_kernel(json_t *build, json_t *res, const char *kernel)
{
	json_t *ref = json_object_get(build, "reference");
	const char *want = k_get_str(ref, "symbol");
	const char *got = k_get_str(res, "symbol");

	if (want == NULL || !json_is_true(json_object_get(res, "ok")) ||
	    module_defines(res, want) != 0)
		return;
	json_object_set_new(res, "pass_call", json_false());
	json_object_set_new(res, "pass_call_reason", json_sprintf(
	    "the candidate does not define %s with the task's signature: "
	    "the task's kernel is %s, the candidate's module defines %s",
	    kernel, want, got != NULL ? got : "no kernel by that name"));
	json_object_set_new(res, "symbol", json_null());
}

/* Build what rec holds; returns rec with a build section (steals rec). */
json_t *
process(json_t *rec, void *ctx)
{
	json_t *scan = json_object_get(rec, "scan");
	json_t *slice = json_object_get(rec, "slice");
	json_t *cand = json_object_get(rec, "candidate");
	json_t *wrap = json_object_get(rec, "wrap");
	json_t *build, *res, *flags;
	struct unitspec u;
	char err[1024];
	struct unit_fail uf;
	const char *code, *kernel, *dialect;

	(void)ctx;
	attach(rec);
	cand = json_object_get(rec, "candidate");
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
	res = build_unit(&u, &uf);
	/* after the first HIP build, which settles the HIP targets */
	json_object_set_new(build, "arch", json_string(
	    strcmp(dialect, "hip") == 0 && opt.hip_platform == HIP_AMD ?
	    opt.hip_arch : opt.arch));
	if (res == NULL)
		unit_failed(rec, "reference", &uf);
	else {
		json_t *sym = json_object_get(res, "symbol");
		json_t *mi;
		/* a dependency the tree does not hold (a submodule the
		 * checkout lacks) leaves its names undefined in the slice */
		if (!json_is_true(json_object_get(res, "ok")) &&
		    (mi = k_missing_includes(scan, 8)) != NULL)
			json_object_set_new(res, "missing_includes", mi);
		json_object_set_new(build, "reference", res);
		if (json_is_true(json_object_get(res, "ok")))
			build_mutants(rec, build, &u, res);
		if (json_is_true(json_object_get(res, "ok")) &&
		    (strcmp(dialect, "cuda") == 0 ||
		    opt.hip_platform == HIP_NVIDIA) && json_is_null(sym))
			k_fail(rec, STAGE, "no-symbol", "%s: reference: no "
			    "function for kernel %s among the module's "
			    "symbols%s", k_id_text(rec), kernel,
			    opt.nm == NULL ? " (nm not found)" : "");
	}

	if (cand != NULL) {
		const char *cc = k_get_str(cand, "code");
		const char *cd = k_get_str(cand, "dialect");
		if (!json_is_object(cand)) {
			k_fail(rec, STAGE, "bad-candidate", "%s: candidate "
			    "is %s, not an object {\"code\": \"...\"} "
			    "(schemas/candidate.schema.json; kbuild "
			    "--candidates attaches files)", k_id_text(rec),
			    json_is_string(cand) ? "a string" : "not an object");
		} else if (cc == NULL) {
			k_fail(rec, STAGE, "bad-candidate", "%s: candidate "
			    "has no code (a string under candidate.code)",
			    k_id_text(rec));
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
			if ((res = build_unit(&u, &uf)) == NULL)
				unit_failed(rec, "candidate", &uf);
			else {
				same_kernel(build, res, kernel);
				json_object_set_new(build, "candidate", res);
			}
		}
	}

	if (!opt.check) {
		json_t *h = json_object_get(wrap, "harness");
		const char *hc = k_get_str(h, "code");
		const char *hd = k_get_str(h, "dialect");
		char *gen = NULL;
		const char *why = NULL;
		int differs = 0;

		u.what = HARNESS;
		u.dialect = hd != NULL && strcmp(hd, "hip") == 0 ? "hip" :
		    "cuda";
		u.role = "harness";
		u.code = hc;
		if (hc == NULL || *hc == '\0')
			u.code = NULL;
		else if (!opt.trust_records) {
			/* the harness runs on the host: build the one kwrap
			 * generates from the record's spec, never the
			 * record's own text */
			if (harness_regenerated(rec, &gen, &why) != 0) {
				k_fail(rec, STAGE, "foreign-harness", "%s: "
				    "harness: cannot generate it from "
				    "wrap.spec: %s; not built (kbuild "
				    "--trust-records builds the record's)",
				    k_id_text(rec), why);
				u.code = NULL;
			} else {
				differs = !harness_same(hc, gen);
				u.code = gen;
			}
		}
		if (differs)
			k_warn(K_EXIT_OK, NULL, "%s: harness: wrap.harness.code "
			    "is not what kwrap generates from wrap.spec; "
			    "building the generated one", k_id_text(rec));
		if (u.code == NULL)
			json_object_set_new(build, "harness", json_null());
		else if ((res = build_unit(&u, &uf)) == NULL)
			unit_failed(rec, "harness", &uf);
		else {
			json_object_set_new(res, "regenerated",
			    json_boolean(gen != NULL));
			json_object_set_new(res, "record_code_differs",
			    json_boolean(differs));
			json_object_set_new(build, "harness", res);
		}
		free(gen);
	}
	json_decref(flags);
	k_set_section(rec, "build", build);
	return rec;
}
