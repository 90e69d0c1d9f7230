/*
 * Fuzz target: kimport's reading of a foreign row, everything before
 * kscan and kslice run: the format by its keys, the candidate and
 * reference code, the files a ComputeEval row names and the Python
 * string literal load_inline(cuda_sources=...) passes.  Linked with
 * tools/kimport/rows.c.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "k_msg.h"
#include "kimport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = { NULL, "geak", "tritonbench",
	    "computeeval", "kernelbench" };
	json_error_t err;
	json_t *row, *v;
	struct row r;
	const char *code, *key;
	char why[256], *src;
	size_t i;

	k_msg_quiet(1);
	row = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    &err);
	if (!json_is_object(row)) {
		json_decref(row);
		return 0;
	}
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		code = NULL;
		(void)read_row(row, formats[i], &r, &code);
		row_free(&r);
	}
	(void)row_format(row);
	json_object_foreach(row, key, v)
		if (json_is_string(v)) {
			src = cuda_sources(json_string_value(v), why,
			    sizeof(why));
			free(src);
			(void)safe_relpath(json_string_value(v));
		}
	json_decref(row);
	return 0;
}
