/*
 * Fuzz target: the record reader.  The input is a whole stdin; every line
 * is read with k_read (a short maximum so the over-long path is reached
 * too) and the record written back out as the tools write it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "k_msg.h"
#include "k_record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct k_reader r;
	FILE *fp;
	json_t *rec;
	int bad, rc;

	k_msg_quiet(1);
	if (size == 0)
		return 0;
	/* fmemopen wants a writable buffer in older C libraries */
	if ((fp = fmemopen((void *)data, size, "r")) == NULL)
		return 0;
	k_reader_init(&r, fp, "<fuzz>", "fuzz");
	r.max = 1024;
	while ((rc = k_read(&r, &rec, &bad)) == 1) {
		char *s = json_dumps(rec, JSON_COMPACT);
		json_t *back;
		/* what a tool writes, the next one must read */
		if (s == NULL || (back = json_loads(s, 0, NULL)) == NULL ||
		    !json_is_object(back))
			abort();
		json_decref(back);
		free(s);
		if (bad && !k_has_errors(rec))
			abort();
		/* an error entry always says what went wrong */
		if (bad && !json_is_string(json_object_get(json_array_get(
		    json_object_get(rec, "errors"), 0), "message")))
			abort();
		json_decref(rec);
	}
	k_reader_free(&r);
	fclose(fp);
	return 0;
}
