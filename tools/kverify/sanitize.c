/*
 * compute-sanitizer runs of the reference and the findings kept from
 * their logs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kverify.h"

/* --------------------------------------------------------- sanitizer */

json_t *
sanitize_one(const struct worker *w, const char *tool, const char *harness,
    const char *module, const char *symbol, const char *dir)
{
	return sanitize_case(w, tool, harness, module, symbol, dir, 0);
}

/* The count the digits at p spell into *n (left as it is without one). */
static void
count_at(const char *p, long *n)
{
	char num[24];
	long long v;

	snprintf(num, sizeof(num), "%.*s", (int)strspn(p, "0123456789"), p);
	if (k_num_ll(num, 10, 0, LONG_MAX, &v) == 0)
		*n = (long)v;
}

/* As sanitize_one, on case kcase (ALL_CASES: every case, one process). */
json_t *
sanitize_case(const struct worker *w, const char *tool, const char *harness,
    const char *module, const char *symbol, const char *dir, int kcase)
{
	struct run r;
	char log[PATH_MAX + 96], *line, *save = NULL, *p;
	json_t *o = json_object(), *msgs = json_array();
	unsigned char *text;
	size_t len;
	long errors = -1, warnings = -1;

	if (run_harness(w, harness, module, symbol, dir, kcase, 0, tool,
	    opt.timeout * 10, &r) != 0) {
		json_object_set_new(o, "errors", json_null());
		json_object_set_new(o, "messages", msgs);
		json_object_set_new(o, "note", json_string(
		    "could not run compute-sanitizer"));
		return o;
	}
	snprintf(log, sizeof(log), "%s.log", dir);
	if ((text = (unsigned char *)k_file_read(log, 1UL << 26,
	    &len)) != NULL) {
		for (line = strtok_r((char *)text, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, "========= ", 10) != 0)
				continue;
			/* "ERROR SUMMARY: 3 errors"; racecheck prints
			 * none but "RACECHECK SUMMARY: 2 hazards displayed
			 * (1 error, 1 warning)", whose errors count, its
			 * warnings kept apart */
			if ((p = strstr(line, "RACECHECK SUMMARY: ")) !=
			    NULL && (p = strstr(p, "(")) != NULL) {
				count_at(p + 1, &errors);
				if ((p = strstr(p, ", ")) != NULL) {
					warnings = 0;
					count_at(p + 2, &warnings);
				}
				continue;
			}
			if ((p = strstr(line, "ERROR SUMMARY: ")) != NULL) {
				count_at(p + 15, &errors);
				continue;
			}
			p = line + 10;
			/* the first line of each finding; frames and
			 * addresses are indented below it */
			if (*p == ' ' || *p == '\0' ||
			    json_array_size(msgs) >= SAN_MSGS ||
			    strncmp(p, "COMPUTE-SANITIZER", 17) == 0)
				continue;
			json_array_append_new(msgs, k_string_lossy(p,
			    strlen(p)));
		}
		free(text);
	}
	json_object_set_new(o, "errors", errors >= 0 ?
	    json_integer(errors) : json_null());
	if (warnings >= 0)
		json_object_set_new(o, "warnings", json_integer(warnings));
	json_object_set_new(o, "messages", msgs);
	json_object_set_new(o, "exit", r.p.exited ? json_integer(r.p.status) :
	    json_null());
	json_object_set_new(o, "timed_out", json_boolean(r.p.timed_out));
	run_free(&r);
	return o;
}
