/*
 * Fuzz target: the JSON side of kslice's per-record function, everything
 * that reads the scan section without parsing source: the checks on it,
 * the template instances, their names and the launch configuration.
 * (The parse itself reads the files a record names; it is tested on the
 * examples, not fuzzed.)  Linked with every unit of tools/kslice/ but
 * main.c.
 */
#include <stddef.h>
#include <stdint.h>

#include "kslice.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	json_error_t err;
	json_t *rec, *scan, *insts, *guessed, *inst;
	char *why = NULL;
	size_t i, all;

	if (!ready) {
		k_msg_quiet(1);
		/* the default, one type: the product of choices stays small */
		set_types("float");
		snprintf(opt.root, sizeof(opt.root), "/nonexistent");
		ready = 1;
	}
	rec = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    &err);
	scan = json_object_get(rec, "scan");
	if (json_is_object(scan) && scan_problem(scan) == NULL) {
		guessed = json_array();
		insts = instances(scan, NULL, NULL, NULL, NULL, guessed,
		    &why, &all);
		json_array_foreach(insts, i, inst) {
			free(instance_args(scan, inst));
			json_decref(launch_json(scan, inst));
		}
		if (json_array_size(insts) == 0) {
			json_t *none = json_object();
			json_decref(launch_json(scan, none));
			json_decref(none);
		}
		free(why);
		json_decref(insts);
		json_decref(guessed);
	}
	json_decref(rec);
	return 0;
}
