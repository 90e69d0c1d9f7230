/*
 * Fuzz target: kbuild's per-record function and its compiler-diagnostics
 * parser, with no compiler installed as far as kbuild knows (so nothing
 * is ever run or written): the input is the diagnostics text and, when it
 * parses, the record.  Linked with tools/kbuild/'s units but main.c.
 */
#include <stddef.h>
#include <stdint.h>

#include "kbuild.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t err;
	json_t *rec;
	char *text;

	k_msg_quiet(1);
	opt.jobs = 1;
	opt.timeout = 1;
	snprintf(opt.arch, sizeof(opt.arch), "sm_90");
	snprintf(opt.hip_arch, sizeof(opt.hip_arch), "gfx90a");
	snprintf(opt.work, sizeof(opt.work), "/nonexistent/kforge-fuzz");
	/* dry: no compiler, so build_unit stops before any file or process */
	opt.nvcc.path = opt.hipcc.path = NULL;

	if ((text = malloc(size + 1)) == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	json_decref(parse_diagnostics(text));
	free(text);

	rec = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    &err);
	if (json_is_object(rec)) {
		char *s;
		rec = process(rec, NULL);
		if ((s = json_dumps(rec, JSON_COMPACT)) == NULL)
			abort();
		free(s);
	}
	json_decref(rec);
	return 0;
}
