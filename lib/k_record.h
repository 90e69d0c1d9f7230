/*
 * Records: one JSON object per line (NDJSON) on jansson.
 *
 * Ownership: every json_t * these functions return is a new reference the
 * caller must json_decref, except where a name ends in _borrowed; functions
 * taking a json_t * argument named "steal" take over that reference.
 */
#ifndef K_RECORD_H
#define K_RECORD_H

#include <stdio.h>
#include <jansson.h>

/* Default and hard limit on one input line, in bytes (KFORGE_MAX_LINE). */
#define K_MAX_LINE_DEFAULT (64UL * 1024 * 1024)

struct k_reader {
	FILE *fp;
	const char *name;	/* for messages: a path or "<stdin>" */
	const char *stage;	/* stage name put in error entries */
	unsigned long lineno;
	size_t max;		/* longest accepted line, newline excluded */
	char *buf;
	size_t cap;
};

void k_reader_init(struct k_reader *r, FILE *fp, const char *name,
    const char *stage);
void k_reader_free(struct k_reader *r);
/*
 * Read the next line into *rec.  Returns 1 and a record (a bad line becomes
 * an error record carrying the raw text), 0 at end of input, -1 on a read
 * error (already reported).  *bad is set when the line was not a record.
 */
int k_read(struct k_reader *r, json_t **rec, int *bad);

/* Write rec compactly plus a newline and flush; -1 on a write error.
 * A stop signal (k_signals_init) that arrives meanwhile takes effect
 * once the line is whole. */
int k_write(json_t *rec);
/*
 * SIGTERM, SIGINT and SIGHUP: the run stops at once, or, during k_write,
 * once the line is written, killing the children k_run started; the
 * process then ends by the signal.  k_main calls it.
 */
void k_signals_init(void);
/* Children to kill on a stop signal (their process groups): a slot for
 * k_child_untrack, or -1 when every slot is taken. */
#define K_CHILDREN_MAX 512
int k_child_track(long pid);
void k_child_untrack(int slot);

/* The record's "id", or NULL (borrowed). */
const char *k_id_borrowed(json_t *rec);
/* Append {"stage","code","message"} to rec's "errors" array. */
void k_error(json_t *rec, const char *stage, const char *code,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* rec's id for messages: the id, or "record" when it has none
 * (borrowed). */
const char *k_id_text(json_t *rec);
/* k_error, and the same message on stderr as a warning (status 1). */
void k_fail(json_t *rec, const char *stage, const char *code,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Non-zero when rec carries at least one error. */
int k_has_errors(json_t *rec);
/* Set section name of rec to steal (replacing an earlier run's). */
void k_set_section(json_t *rec, const char *name, json_t *steal);

/*
 * json_loadb, but a whole-number literal too large for json_int_t (as
 * jq 1.6 writes a large real) is read as the real it is, not refused.
 */
json_t *k_json_loadb(const char *text, size_t n, size_t flags,
    json_error_t *err);

/* A JSON string of s[0..n), invalid UTF-8 bytes replaced by U+FFFD. */
json_t *k_string_lossy(const char *s, size_t n);

/* JSON helpers that never fail silently on NULL values: borrowed getters. */
const char *k_get_str(json_t *obj, const char *key);
/* The headers a record's source includes that kscan's parse did not find
 * (scan.diagnostics' "'NAME' file not found"), at most max, each once; a
 * new array, NULL when there are none. */
json_t *k_missing_includes(json_t *scan, size_t max);
json_int_t k_get_int(json_t *obj, const char *key, json_int_t dflt);

/*
 * The filter loop that every stage but kscan uses: read records from fp,
 * hand each object record to fn (which steals rec and returns the record to
 * write, usually rec itself after adding its section), pass bad lines
 * through as error records.  Returns the run's exit status so far.
 */
typedef json_t *(*k_record_fn)(json_t *rec, void *ctx);
int k_filter(FILE *fp, const char *name, const char *stage, k_record_fn fn,
    void *ctx);

#endif
