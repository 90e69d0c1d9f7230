/*
 * kbuild: the harness a record carries must be the one kforge generates.
 * A record's wrap.harness.code is input like any other (records travel:
 * shared datasets, other people's intermediates), and the harness is the
 * one program of a task that runs on the host, so kbuild builds it only
 * when kwrap's generator, given the record's own wrap.spec, gives the same
 * text.  This unit links kwrap's generator (tools/kwrap/harness.c and what
 * it uses); it includes kwrap's header, not kbuild's.
 */
#include "kwrap.h"

int harness_regenerated(json_t *rec, char **code, const char **why);
int harness_same(const char *record, const char *generated);

#define HEAD "// kwrap harness for "

/* Past the generator's first line, a comment that names the record's id
 * (which a renamed record no longer has): NULL when the line is not that
 * comment, or holds a backslash, which could continue it onto the next. */
static const char *
past_head(const char *code)
{
	const char *nl;

	if (strncmp(code, HEAD, strlen(HEAD)) != 0 ||
	    (nl = strchr(code, '\n')) == NULL ||
	    memchr(code, '\\', (size_t)(nl - code)) != NULL ||
	    memchr(code, '\r', (size_t)(nl - code)) != NULL)
		return NULL;
	return nl + 1;
}

/* Whether the record's harness is the generated one, the comment naming
 * the id aside. */
int
harness_same(const char *record, const char *generated)
{
	const char *a = past_head(record), *b = past_head(generated);

	if (a == NULL || b == NULL)
		return strcmp(record, generated) == 0;
	return strcmp(a, b) == 0;
}

/*
 * The harness kwrap generates for rec's wrap.spec, in the dialect of the
 * record's harness: 0 and a malloc'd *code, or -1 and why.
 */
int
harness_regenerated(json_t *rec, char **code, const char **why)
{
	json_t *copy, *wrap, *spec;
	const char *dialect;
	int rc = -1;

	*code = NULL;
	wrap = json_object_get(rec, "wrap");
	spec = json_object_get(wrap, "spec");
	if (!json_is_object(spec)) {
		*why = "the record has no wrap.spec to generate it from";
		return -1;
	}
	/* the generator compiles the spec's names and expressions into
	 * host code: they must be kwrap's kind first */
	{
		static _Thread_local char verr[512];
		if (spec_validate(spec, verr, sizeof(verr)) != 0) {
			*why = verr;
			return -1;
		}
	}
	dialect = k_get_str(json_object_get(wrap, "harness"), "dialect");
	if (dialect == NULL || strcmp(dialect, "hip") != 0)
		dialect = "cuda";
	/* the generator writes into the record: a copy takes it */
	if ((copy = json_deep_copy(rec)) == NULL)
		k_oom();
	wrap = json_object_get(copy, "wrap");
	spec = json_object_get(wrap, "spec");
	if (wrap_harness(copy, wrap, spec, dialect, why) == 0) {
		const char *c = k_get_str(json_object_get(wrap, "harness"),
		    "code");
		if (c != NULL) {
			*code = k_strdup(c);
			rc = 0;
		} else
			*why = "the generator gave no code";
	}
	json_decref(copy);
	return rc;
}
