/*
 * kimport: a GEAK-style agent's memory.  Each iteration <iter> of a run
 * writes its rows to <run>_<iter>.jsonl and its memory to
 * <run>_mem_<iter>.json: an object keyed by the row's filename holding
 * what the agent saw and thought (call_err_msg, exe_err_msg, reflection,
 * perf_strategy, temp_strategy, pass_call, pass_exe, pass_perf, ...).
 * A candidate's history is that file's entries from every iteration of
 * its run read so far, its own iteration last, in the shape of kwrap's
 * repair rounds (round, error, strategy, code) with the agent's
 * reflection and verdicts beside them.
 *
 * Ownership: the histories (run -> filename -> array) belong to this
 * unit until memory_free; memory_history returns a new copy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k_exit.h"
#include "k_fs.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_record.h"
#include "kimport.h"

#define MEMORY_MAX (256UL * 1024 * 1024)

static json_t *runs;		/* run -> {filename -> [entry]} */

/* the memory's names, then the history's */
static const char *const str_keys[][2] = {
	{ "call_err_msg", "call_error" },
	{ "exe_err_msg", "exe_error" },
	{ "reflection", "reflection" },
	{ "perf_strategy", "strategy" },
	{ "temp_strategy", "strategy" },
	{ "oneshot", "oneshot" },
	{ NULL, NULL }
};
static const char *const bool_keys[] = { "pass_call", "pass_exe",
	"pass_perf", NULL };

/* one history entry from one file's memory, NULL when it says nothing */
static json_t *
entry_of(json_t *m, long iter, const char *source)
{
	json_t *e = json_object(), *v;
	int i, said = 0;

	json_object_set_new(e, "round", json_integer(iter));
	for (i = 0; bool_keys[i] != NULL; i++)
		if (json_is_boolean(v = json_object_get(m, bool_keys[i]))) {
			json_object_set(e, bool_keys[i], v);
			said = 1;
		}
	for (i = 0; str_keys[i][0] != NULL; i++) {
		const char *s = k_get_str(m, str_keys[i][0]);
		/* a strategy the agent gave for performance wins over the
		 * one it was trying */
		if (s == NULL || *s == '\0' ||
		    json_object_get(e, str_keys[i][1]) != NULL)
			continue;
		json_object_set_new(e, str_keys[i][1], json_string(s));
		said = 1;
	}
	if (!said) {
		json_decref(e);
		return NULL;
	}
	/* the error the agent was shown, as kwrap's rounds give it */
	if (k_get_str(e, "call_error") != NULL ||
	    k_get_str(e, "exe_error") != NULL)
		json_object_set_new(e, "error", json_sprintf("%s%s%s",
		    k_get_str(e, "call_error") != NULL ? k_get_str(e,
		    "call_error") : "", k_get_str(e, "call_error") != NULL &&
		    k_get_str(e, "exe_error") != NULL ? "\n" : "",
		    k_get_str(e, "exe_error") != NULL ? k_get_str(e,
		    "exe_error") : ""));
	json_object_set_new(e, "memory", json_string(source));
	return e;
}

void
memory_load(const char *path, const char *run, long iter)
{
	json_error_t err;
	json_t *mem, *m, *files, *h;
	const char *fn;
	char *text;
	size_t len;

	if ((text = k_file_read(path, MEMORY_MAX, &len)) == NULL) {
		k_warn(K_EXIT_IO, path, "%s", strerror(errno));
		return;
	}
	mem = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
	free(text);
	if (!json_is_object(mem)) {
		k_warn(K_EXIT_RECORDS, path, "agent memory: %s", mem == NULL ?
		    err.text : "not an object keyed by filename");
		json_decref(mem);
		return;
	}
	if (runs == NULL)
		runs = json_object();
	if ((files = json_object_get(runs, run)) == NULL) {
		files = json_object();
		json_object_set_new(runs, run, files);
	}
	json_object_foreach(mem, fn, m) {
		json_t *e = json_is_object(m) ? entry_of(m, iter, path) : NULL;
		if (e == NULL)
			continue;
		if ((h = json_object_get(files, fn)) == NULL) {
			h = json_array();
			json_object_set_new(files, fn, h);
		}
		json_array_append_new(h, e);
	}
	json_decref(mem);
}

json_t *
memory_history(const char *run, const char *filename)
{
	json_t *h;

	if (run == NULL || filename == NULL)
		return NULL;
	h = json_object_get(json_object_get(runs, run), filename);
	return h != NULL ? json_deep_copy(h) : NULL;
}

void
memory_note_code(const char *run, const char *filename, long iter,
    json_t *code)
{
	json_t *h, *e;
	size_t i;

	if (run == NULL || filename == NULL || !json_is_string(code))
		return;
	h = json_object_get(json_object_get(runs, run), filename);
	json_array_foreach(h, i, e)
		if (k_get_int(e, "round", -1) == iter &&
		    json_object_get(e, "code") == NULL)
			json_object_set(e, "code", code);
}

void
memory_free(void)
{
	json_decref(runs);
	runs = NULL;
}

char *
memory_path_of(const char *path, char **run, long *iter)
{
	const char *base = strrchr(path, '/'), *us, *d;
	size_t blen, dlen;
	char *end, *out;
	long n;

	base = base != NULL ? base + 1 : path;
	blen = strlen(base);
	*run = NULL;
	if (blen < 8 || strcmp(base + blen - 6, ".jsonl") != 0)
		return NULL;
	for (us = base + blen - 6; us > base && us[-1] != '_'; us--)
		;
	if (us == base + 1 || us == base || us == base + blen - 6)
		return NULL;
	for (d = us; d < base + blen - 6; d++)
		if (*d < '0' || *d > '9')
			return NULL;
	n = strtol(us, &end, 10);
	*iter = n;
	*run = k_strndup(base, (size_t)(us - 1 - base));
	dlen = (size_t)(base - path);
	out = k_malloc(dlen + strlen(*run) + 32);
	sprintf(out, "%.*s%s_mem_%ld.json", (int)dlen, path, *run, n);
	return out;
}
