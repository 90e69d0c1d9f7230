/*
 * A golden computed by an earlier kverify run, taken again: a record
 * that comes back with a new candidate (kbuild --candidates over
 * kverify's output) keeps its verify section through kbuild, and the
 * reference's runs (golden, repeat, memcheck, CPU reference, mutants)
 * are not paid again when nothing they depend on changed: the reference
 * module, the harness, the fitted arguments and the options that decide
 * a golden (verify.golden_key).  The golden buffers come back from the
 * work directory's blob store, checked against their SHA-256; anything
 * missing or different and the golden is computed afresh.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kverify.h"

/* What decides a golden, as one SHA-256: the reference module and the
 * harness (kbuild's content keys), the fit's arguments, and the options
 * that change which cases run or what the verdict includes. */
void
golden_key(json_t *rec, char hex[K_SHA256_HEX])
{
	json_t *build = json_object_get(rec, "build");
	const char *ref = k_get_str(json_object_get(build, "reference"),
	    "artifact");
	const char *har = k_get_str(json_object_get(build, "harness"),
	    "artifact");
	json_t *args = json_object_get(json_object_get(rec, "fit"), "args");
	char *a = args != NULL ? json_dumps(args, JSON_COMPACT) : NULL;
	char *text;

	text = k_asprintf("kverify golden 1\nreference %s\nharness %s\n"
	    "fit %s\nmemcheck %d\nsanitize %d\ntimeout %.17g\n",
	    ref != NULL ? ref : "-", har != NULL ? har : "-",
	    a != NULL ? a : "-", opt.memcheck, opt.sanitize,
	    opt.timeout);
	k_sha256_hex(text, strlen(text), hex);
	free(text);
	free(a);
}

/* The blob named hash, of len bytes, out of the store (*out, NULL on
 * error); 0 when it is there, that long, and hashes to its name. */
static int
blob_read(const char *hash, size_t len, unsigned char **out)
{
	char path[PATH_MAX + 96], hex[K_SHA256_HEX];
	size_t n;

	*out = NULL;
	if (hash == NULL || strlen(hash) != 64 ||
	    strspn(hash, "0123456789abcdef") != 64)
		return -1;
	snprintf(path, sizeof(path), "%s/blobs/%.2s/%s", opt.work, hash, hash);
	if ((*out = (unsigned char *)k_file_read(path, 1UL << 34, &n)) ==
	    NULL)
		return -1;
	k_sha256_hex(*out, n, hex);
	return n == len && strcmp(hex, hash) == 0 ? 0 : -1;
}

/* Output buffer o of a golden case entry, read back from the blob store;
 * 0 when its bytes are there and hash to its name. */
static int
load_output(json_t *o, struct buf *b)
{
	const char *name = k_get_str(o, "name"), *type = k_get_str(o, "type");
	json_int_t bytes = k_get_int(o, "bytes", -1);

	if (name == NULL || type == NULL || bytes < 0)
		return -1;
	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->type, sizeof(b->type), "%s", type);
	b->count = k_get_int(o, "count", 0);
	b->len = (size_t)bytes;
	return blob_read(k_get_str(o, "hash"), (size_t)bytes, &b->data);
}

/* The band of output b in its case, as golden.c's tolerance() left it
 * (t: its verify.tolerance.outputs entry; own: the case's spread). */
static void
band_of(struct buf *b, json_t *t, json_t *own)
{
	double sp = json_number_value(json_object_get(t, "spread"));
	double rel = json_number_value(json_object_get(t, "relative"));
	double band = json_is_number(own) ? json_number_value(own) : 0;

	b->unordered = json_is_true(json_object_get(t, "unordered"));
	b->split = json_is_true(json_object_get(t, "split"));
	if (json_is_true(json_object_get(t, "masked"))) {
		b->masked = 1;
		b->spread = band;
		return;
	}
	if (b->unordered) {
		b->spread = 0;
		return;
	}
	if (json_object_get(t, "unbanded") != NULL || json_is_string(own)) {
		b->spread = SPREAD_NONE;
		return;
	}
	if (band < 0)
		band = 0;
	if (sp > 0 && rel * magnitude(b) > band)
		band = rel * magnitude(b);
	b->spread = band;
}

/* The unstable map of masked or split output b, from its golden case
 * entry o (golden.c's mask()); 0 when it is there and right, or not
 * needed. */
static int
load_mask(json_t *o, struct buf *b)
{
	size_t e, n = elements(b);

	b->stable_spread = json_number_value(json_object_get(o,
	    "stable_spread"));
	if (b->masked)
		b->spread = b->stable_spread;
	b->nunstable = k_get_int(o, "unstable", 0);
	if (b->nunstable == 0)
		return 0;
	if (blob_read(k_get_str(o, "unstable_hash"), n, &b->unstable) != 0)
		return -1;
	for (e = 0; e < n; e++)
		if (b->unstable[e] > 1)
			return -1;
	return 0;
}

static json_t *
tolerance_of(json_t *tol, const char *name)
{
	json_t *o;
	size_t i;

	json_array_foreach(json_object_get(tol, "outputs"), i, o)
		if (k_get_str(o, "name") != NULL &&
		    strcmp(k_get_str(o, "name"), name) == 0)
			return o;
	return NULL;
}

static const char *const kept[] = { "cases", "golden", "degenerate",
    "deterministic", "reads_unwritten", "tolerance", "left_out", "sanitize",
    "oracle", "verified", "mutation" };

/*
 * Take the golden of rec's verify section when its key is this run's:
 * the golden runs and every field about them go into c->v as they were,
 * case_skip gets the cases left out.  Returns the number of cases, or 0
 * when there is none to take (then nothing was set).
 */
int
golden_reuse(struct ctx *c, struct run **gold_out)
{
	json_t *old = json_object_get(c->rec, "verify"), *gold, *tol, *e, *o;
	char key[K_SHA256_HEX];
	const char *was = k_get_str(old, "golden_key");
	struct run *g;
	int ncases, k;
	size_t i, j;

	gold = json_object_get(old, "golden");
	tol = json_object_get(old, "tolerance");
	ncases = (int)k_get_int(old, "cases", 0);
	if (was == NULL || !json_is_array(gold) || json_array_size(gold) == 0 ||
	    ncases < 1 || ncases > MAX_CASES)
		return 0;
	golden_key(c->rec, key);
	if (strcmp(key, was) != 0)
		return 0;
	g = k_calloc((size_t)ncases, sizeof(*g));
	case_skip_clear();
	json_array_foreach(json_object_get(old, "left_out"), i, e) {
		k = (int)k_get_int(e, "case", -1);
		if (k <= 0 || k >= ncases || case_skip_add(k) != 0)
			goto fail;
	}
	json_array_foreach(gold, i, e) {
		json_t *outs = json_object_get(e, "outputs");
		json_t *ins = json_object_get(e, "inputs");
		struct run *r;
		k = (int)k_get_int(e, "case", -1);
		if (k < 0 || k >= ncases || case_skipped(k) ||
		    !json_is_array(outs) || !json_is_array(ins) ||
		    g[k].out != NULL)
			goto fail;
		r = &g[k];
		r->ok = 1;
		r->out = k_calloc(json_array_size(outs) + 1, sizeof(*r->out));
		r->in = k_calloc(json_array_size(ins) + 1, sizeof(*r->in));
		json_array_foreach(outs, j, o) {
			if (load_output(o, &r->out[j]) != 0) {
				r->nout = j + 1;
				goto fail;
			}
			r->nout = j + 1;
			band_of(&r->out[j], tolerance_of(tol, r->out[j].name),
			    json_object_get(o, "spread"));
			if ((r->out[j].masked || r->out[j].split) &&
			    load_mask(o, &r->out[j]) != 0)
				goto fail;
		}
		/* inputs by the harness's checksum: a candidate's run must
		 * see the very inputs the reference saw */
		json_array_foreach(ins, j, o) {
			const char *n = k_get_str(o, "name");
			const char *s = k_get_str(o, "checksum");
			if (n == NULL || s == NULL)
				goto fail;
			snprintf(r->in[j].name, sizeof(r->in[j].name), "%s", n);
			snprintf(r->in[j].checksum, sizeof(r->in[j].checksum),
			    "%s", s);
			r->in[j].len = (size_t)k_get_int(o, "bytes", 0);
			r->nin = j + 1;
		}
		if (json_is_number(json_object_get(e, "ms"))) {
			r->times = k_malloc(sizeof(*r->times));
			r->times[0] = json_number_value(json_object_get(e, "ms"));
			r->ntimes = 1;
		}
	}
	for (k = 0; k < ncases; k++)
		if (!case_skipped(k) && g[k].out == NULL)
			goto fail;
	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		if ((e = json_object_get(old, kept[i])) != NULL)
			json_object_set(c->v, kept[i], e);
	json_object_set_new(c->v, "golden_key", json_string(key));
	json_object_set_new(c->v, "golden_reused", json_true());
	c->ngold = ncases;
	*gold_out = g;
	return ncases;
fail:
	for (k = 0; k < ncases; k++)
		run_free(&g[k]);
	free(g);
	case_skip_clear();
	return 0;
}
