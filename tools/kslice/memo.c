/*
 * kslice: a record identical in what slicing reads to an earlier one in
 * the same run is sliced once.
 *
 * A stream often carries one kernel many times (a dataset's repeats, a
 * rerun's lines appended to a saved file, crafted input), and each slice
 * costs a libclang parse.  What kslice writes for a record depends on its
 * scan section and its id (instance ids, parent and messages carry it),
 * nothing else: every other field passes through.  So the first record
 * with a given (scan, id) goes to the slicer; what the slicer changed in
 * each record it wrote (fields set, fields taken out) is kept under a hash
 * of the two; a later record with the same hash gets those changes made to
 * a copy of itself, so its own other fields stay its own.  Failures are
 * kept as well: a record that crashed the slicer or ran past --timeout
 * would again, and a stream of them must not cost one timeout each.
 * Records that carry errors are not sliced at all and are not kept.
 *
 * The memo lives for one run (the files under the root are taken not to
 * change during it) and is bounded: when what it holds would pass
 * MEMO_MAX_BYTES it starts over.
 */
#include "k_hash.h"
#include "kslice.h"

#define MEMO_BUCKETS 4096
#define MEMO_MAX_BYTES ((size_t)256 << 20)

struct memo_entry {
	struct memo_entry *next;
	char key[K_SHA256_HEX];
	json_t *changes;	/* one {"set":{...},"del":[...]} per record
				 * written, in output order */
	char *where;		/* the first record's input position */
	size_t bytes;
};

static struct memo_entry *buckets[MEMO_BUCKETS];
static size_t memo_bytes;

void
memo_clear(void)
{
	size_t i;

	for (i = 0; i < MEMO_BUCKETS; i++)
		while (buckets[i] != NULL) {
			struct memo_entry *e = buckets[i];
			buckets[i] = e->next;
			json_decref(e->changes);
			free(e->where);
			free(e);
		}
	memo_bytes = 0;
}

/* rec's memo key; 0 when rec is one the slicer would slice. */
static int
memo_key(json_t *rec, char key[K_SHA256_HEX])
{
	json_t *scan = json_object_get(rec, "scan"), *id;
	char *a, *b, *both;
	int rc = -1;

	if (!json_is_object(scan) || k_has_errors(rec))
		return -1;
	id = json_object_get(rec, "id");
	a = json_dumps(scan, JSON_COMPACT | JSON_SORT_KEYS);
	b = id != NULL ? json_dumps(id, JSON_COMPACT | JSON_ENCODE_ANY) :
	    k_strdup("");
	if (a != NULL && b != NULL) {
		/* the id's JSON text has no newline: the two cannot run
		 * into each other */
		both = k_asprintf("%s\n%s", b, a);
		k_sha256_hex(both, strlen(both), key);
		free(both);
		rc = 0;
	}
	free(a);
	free(b);
	return rc;
}

static size_t
bucket_of(const char *key)
{
	return (size_t)strtoul((char[]){ key[0], key[1], key[2], '\0' },
	    NULL, 16) % MEMO_BUCKETS;
}

static struct memo_entry *
memo_find(const char *key)
{
	struct memo_entry *e;

	for (e = buckets[bucket_of(key)]; e != NULL; e = e->next)
		if (strcmp(e->key, key) == 0)
			return e;
	return NULL;
}

/* A copy of rec with the changes made (a new reference). */
static json_t *
apply(json_t *rec, json_t *ch)
{
	json_t *out = json_deep_copy(rec), *v;
	const char *k;
	size_t i;

	if (out == NULL)
		k_oom();
	json_object_foreach(json_object_get(ch, "set"), k, v)
		json_object_set_new(out, k, json_deep_copy(v));
	json_array_foreach(json_object_get(ch, "del"), i, v)
		json_object_del(out, json_string_value(v));
	return out;
}

json_t *
memo_replay(json_t *rec)
{
	char key[K_SHA256_HEX];
	struct memo_entry *e;
	json_t *outs, *ch, *o;
	size_t i;

	if (memo_key(rec, key) != 0 || (e = memo_find(key)) == NULL)
		return NULL;
	outs = json_array();
	json_array_foreach(e->changes, i, ch) {
		o = apply(rec, ch);
		/* the slicer said so on stderr the first time: so do we,
		 * each time, so that every record's failure is named */
		if (k_has_errors(o))
			k_warn(K_EXIT_RECORDS, k_id_text(o), "%s (the same "
			    "scan and id as %s)", k_get_str(json_array_get(
			    json_object_get(o, "errors"), json_array_size(
			    json_object_get(o, "errors")) - 1), "code"),
			    e->where);
		json_array_append_new(outs, o);
	}
	json_decref(rec);
	return outs;
}

json_t *
memo_write_all_but_last(json_t *outs)
{
	size_t i, n = json_array_size(outs);
	json_t *o, *last;

	for (i = 0; i + 1 < n; i++) {
		o = json_array_get(outs, i);
		if (k_has_errors(o))
			k_exit_raise(K_EXIT_RECORDS);
		if (k_write(o) != 0) {
			json_decref(outs);
			k_fatal(K_EXIT_IO, NULL, "write error");
		}
	}
	last = json_incref(json_array_get(outs, n - 1));
	json_decref(outs);
	return last;
}

void
memo_begin(struct memo_pending *p, json_t *rec)
{
	const char *at;
	unsigned long line;

	memset(p, 0, sizeof(*p));
	if (memo_key(rec, p->key) != 0)
		return;
	if ((p->in = json_deep_copy(rec)) == NULL)
		k_oom();
	p->changes = json_array();
	at = k_msg_where(&line);
	p->where = at != NULL ? k_asprintf("%s:%lu", at, line) :
	    k_strdup("an earlier record");
}

void
memo_add(struct memo_pending *p, json_t *out)
{
	json_t *set, *del, *v;
	const char *k;

	if (p->in == NULL)
		return;
	set = json_object();
	del = json_array();
	/* the sections kslice owns are set even where the input had them
	 * as they are now: a later record's own old slice is replaced */
	json_object_foreach(out, k, v)
		if (strcmp(k, "slice") == 0 || strcmp(k, "parent") == 0 ||
		    !json_equal(json_object_get(p->in, k), v))
			json_object_set(set, k, v);
	json_object_foreach(p->in, k, v)
		if (json_object_get(out, k) == NULL)
			json_array_append_new(del, json_string(k));
	json_array_append_new(p->changes, json_pack("{s:o,s:o}", "set", set,
	    "del", del));
}

void
memo_drop(struct memo_pending *p)
{
	if (p->in == NULL)
		return;
	json_decref(p->in);
	json_decref(p->changes);
	free(p->where);
	p->in = NULL;
}

void
memo_end(struct memo_pending *p, json_t *last)
{
	struct memo_entry *e;
	size_t bytes, b;

	if (p->in == NULL)
		return;
	memo_add(p, last);
	json_decref(p->in);
	bytes = json_dumpb(p->changes, NULL, 0, JSON_COMPACT) +
	    sizeof(*e) + strlen(p->where);
	if (memo_find(p->key) != NULL || bytes > MEMO_MAX_BYTES) {
		json_decref(p->changes);
		free(p->where);
		return;
	}
	if (memo_bytes + bytes > MEMO_MAX_BYTES)
		memo_clear();
	e = k_calloc(1, sizeof(*e));
	memcpy(e->key, p->key, sizeof(e->key));
	e->changes = p->changes;
	e->where = p->where;
	e->bytes = bytes;
	b = bucket_of(e->key);
	e->next = buckets[b];
	buckets[b] = e;
	memo_bytes += bytes;
}
