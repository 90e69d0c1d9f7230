/*
 * Fuzz target: kverify's per-record function, up to the point where it
 * would start a harness: the run is marked as having no GPU, so a record
 * that gets that far fails with no-device and nothing is executed.
 * kverify's units are included so that their static functions are
 * reachable, main() renamed.
 */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int kverify_main(int argc, char *argv[]);

#define main kverify_main
#include "../tools/kverify/util.c"
#include "../tools/kverify/blob.c"
#include "../tools/kverify/dtype.c"
#include "../tools/kverify/gate.c"
#include "../tools/kverify/run.c"
#include "../tools/kverify/serve.c"
#include "../tools/kverify/host.c"
#include "../tools/kverify/compare.c"
#include "../tools/kverify/timing.c"
#include "../tools/kverify/sanitize.c"
#include "../tools/kverify/golden.c"
#include "../tools/kverify/verdict.c"
#include "../tools/kverify/candidate.c"
#include "../tools/kverify/hip.c"
#include "../tools/kverify/mutation.c"
#include "../tools/kverify/reuse.c"
#include "../tools/kverify/record.c"
#include "../tools/kverify/main.c"
#include "../tools/kverify/sanreport.c"
#include "../tools/kverify/fitmath.c"
#include "../tools/kverify/fit.c"
#undef main

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct worker w = { .gpu = -1 };
	json_error_t err;
	json_t *rec;

	k_msg_quiet(1);
	snprintf(opt.work, sizeof(opt.work), "/nonexistent/kforge-fuzz");
	no_device = 1;
	snprintf(no_device_msg, sizeof(no_device_msg), "fuzzing");
	rec = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    &err);
	if (json_is_object(rec)) {
		char *s;
		rec = process(rec, &w);
		if ((s = json_dumps(rec, JSON_COMPACT)) == NULL)
			abort();
		free(s);
	}
	json_decref(rec);
	return 0;
}
