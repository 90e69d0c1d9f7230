/*
 * verify.hip: which platform judged a HIP kernel, and whether the verdict
 * carries to the other wavefront width.  kbuild says what each unit was
 * built for (build.<role>.platform) and what in a HIP kernel depends on
 * the width (build.<role>.wavefront); a kernel that depends on it can be
 * right on 64-lane AMD wavefronts and wrong on 32-lane NVIDIA warps, or
 * the reverse, so its verdict here is marked not transferable.
 */
#include <string.h>

#include "kverify.h"

/* The platform of a HIP unit, or NULL for a CUDA one (borrowed). */
static const char *
hip_platform(json_t *unit)
{
	const char *p = k_get_str(unit, "platform");
	const char *f = k_get_str(unit, "file");

	if (p != NULL)
		return strcmp(p, "nvidia") == 0 ? NULL : p;
	/* built before kbuild said: an AMD code object is HIP */
	return f != NULL && strcmp(f, "module.hsaco") == 0 ? "amd" : NULL;
}

/* Add verify.hip to v when the record's reference or candidate is HIP. */
void
hip_section(json_t *rec, json_t *v)
{
	static const char *const roles[] = { "reference", "candidate" };
	json_t *build = json_object_get(rec, "build"), *hip, *reasons;
	const char *platform = NULL;
	int sensitive = 0;
	size_t i, j;

	reasons = json_array();
	for (i = 0; i < 2; i++) {
		json_t *unit = json_object_get(build, roles[i]), *w, *r;
		const char *p = hip_platform(unit);
		if (p == NULL)
			continue;
		if (platform == NULL)
			platform = p;
		w = json_object_get(unit, "wavefront");
		if (json_is_true(json_object_get(w, "sensitive")))
			sensitive = 1;
		json_array_foreach(json_object_get(w, "reasons"), j, r) {
			json_t *c = json_deep_copy(r);
			if (!json_is_object(c)) {
				json_decref(c);
				continue;
			}
			json_object_set_new(c, "role", json_string(roles[i]));
			json_array_append_new(reasons, c);
		}
	}
	if (platform == NULL) {
		json_decref(reasons);
		return;
	}
	hip = json_object();
	json_object_set_new(hip, "platform", json_string(platform));
	json_object_set_new(hip, "judged", json_boolean(
	    !json_is_string(json_object_get(v, "skipped"))));
	json_object_set_new(hip, "wavefront_sensitive", json_boolean(sensitive));
	json_object_set_new(hip, "reasons", reasons);
	json_object_set_new(hip, "transferable", json_boolean(!sensitive));
	json_object_set_new(v, "hip", hip);
}
