/*
 * The candidate's runs, compared with the golden outputs.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "kverify.h"

/* got's timed repetition (the harness's NAME.timed.bin) as a buffer of
 * its own, into t. */
static void
timed_view(const struct buf *got, struct buf *t)
{
	*t = *got;
	t->data = got->timed;
	t->len = got->timed_len;
}

/* Whether got's timed repetition (if any) is within want's band. */
static int
timed_ok(const struct buf *want, const struct buf *got)
{
	struct buf t;
	struct cmp m;

	if (got->timed == NULL)
		return 1;
	if (got->timed_len != want->len)
		return 0;
	timed_view(got, &t);
	compare(want, &t, band_atol(want), opt.rtol, &m);
	return m.mismatches == 0;
}

/*
 * The candidate's timed repetitions differed from its first launch: they
 * pass when the one that differed most (the harness's NAME.timed.bin) is
 * still within the band of every golden output, as the first launch must
 * be.  A harness from before timed files names none: then only byte
 * equality passes, as it did.
 */
int
timed_in_band(const struct run *g, const struct run *r)
{
	size_t i;
	int named = 0;

	for (i = 0; i < r->nout; i++) {
		const struct buf *t = &r->out[i], *want = out_named(g, t->name);
		if (t->timed == NULL)
			continue;
		named = 1;
		if (want != NULL && want->spread == SPREAD_NONE)
			continue;	/* not judged: see candidate() */
		if (want == NULL || !timed_ok(want, t))
			return 0;
	}
	return named;
}

/*
 * Golden output want against run r's timed repetition of it (the
 * harness's NAME.timed.bin), element by element: the misses marked in
 * at (when not NULL), their count returned; 0 when r has none or it
 * cannot be compared so (another size, an unordered output).
 */
long long
timed_misses(const struct buf *want, const struct run *r, unsigned char *at)
{
	const struct buf *got = out_named(r, want->name);
	struct buf t;
	struct cmp m;

	if (got == NULL || got->timed == NULL || got->timed_len != want->len ||
	    want->unordered)
		return 0;
	timed_view(got, &t);
	compare_at(want, &t, band_atol(want), opt.rtol, &m, at);
	return m.mismatches;
}

/*
 * Whether element e of golden output want is one the golden's runs saw
 * race: an unstable element of a split output (kept apart from the
 * elements that reproduced exactly) whose case's band is over
 * SPREAD_RACE of its own value, a difference no rounding makes (a
 * winner among threads' values).  A miss there beyond the band is the
 * race's range, which the golden's few runs need not have spanned, not
 * the candidate's doing; a float sum's last bits stay held to the band.
 */
int
raced_at(const struct buf *want, size_t e)
{
	const struct k_dtype *d = k_dtype_named(want->type);

	if (!want->split || want->unstable == NULL || !want->unstable[e] ||
	    d == NULL || !d->is_float || d->size <= 0)
		return 0;
	return want->spread > SPREAD_RACE * fabs(load_float(want->data +
	    e * (size_t)d->size, d->size, d->name));
}

/* An output of a case where the candidate's values differ from the
 * golden's (its entry in verify.candidate.cases, borrowed). */
struct miss {
	int k;
	const struct buf *want;
	json_t *o;
	unsigned char *bad;	/* the elements the candidate missed */
	int passed;		/* recheck: every miss is where the
				 * reference moves too */
};

/*
 * The elements the candidate missed (bad) against those the reference,
 * run again, moves (moved; how many into *n): -1 when the elements not
 * compared then (those moved and those the golden masks) would be over
 * MASK_MAX of the output, 1 when every miss is one the reference moves
 * too, 0 when the candidate missed an element the reference holds.
 */
static int
misses_moved(const struct buf *want, const unsigned char *bad,
    const unsigned char *moved, long long *n)
{
	size_t e, ne = elements(want);
	long long off = 0;
	int all = 1;

	*n = 0;
	for (e = 0; e < ne; e++) {
		int masked = want->masked && want->unstable != NULL &&
		    want->unstable[e];
		int raced = raced_at(want, e);
		if (bad[e] && !moved[e] && !raced)
			all = 0;
		*n += moved[e] || (raced && bad[e]);
		off += moved[e] || masked || (raced && bad[e]);
	}
	if ((double)off > MASK_MAX * (double)ne)
		return -1;
	return all;
}

/*
 * Every case of the reference once more, as a check run (its timed
 * repetitions too), into b, logged as runs[] mode "recheck": what the
 * golden's runs may not have shown (a race they ordered alike, a read of
 * memory nothing wrote).  -1 when the reference cannot run.
 */
int
ref_rerun(struct ctx *c, const struct unit *h, int ncases, struct run *b)
{
	char dir[PATH_MAX + 64];
	struct unit ref;
	int runnable;

	if (!unit_of(json_object_get(c->rec, "build"), "reference", &ref,
	    &runnable) || !runnable || ref.symbol == NULL)
		return -1;
	dir_for(c, "ref-again", -1, dir, sizeof(dir));
	if (run_batch(c->w, h->path, ref.path, ref.symbol, dir, ncases,
	    CHECK_REPS, b) != 0)
		return -1;
	log_run(c->runs, "reference", -1, "recheck", b);
	return 0;
}

/*
 * Run the reference once more and mark the misses where it does not
 * reproduce the golden either (a race, a read of memory nothing wrote,
 * whose spread the golden's runs did not show).  Where each element the
 * candidate missed is one the reference moves too, and those leave most
 * of the output to compare, the output matched where the reference
 * holds still (passed, match true, with a note); otherwise it holds no
 * value a candidate could be held to there (match null, with a note).
 * Returns how many it marked, -1 when the reference could not run.
 */
static int
recheck(struct ctx *c, const struct unit *h, int ncases, struct miss *ms,
    size_t n)
{
	struct run batch;
	int marked = 0;
	size_t i;

	if (ref_rerun(c, h, ncases, &batch) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct run r;
		const struct buf *got;
		struct cmp m;

		batch_case(&batch, ms[i].k, &r);
		got = r.ok ? out_named(&r, ms[i].want->name) : NULL;
		if (got != NULL && got->len == ms[i].want->len) {
			size_t ne = elements(ms[i].want);
			unsigned char *moved = k_calloc(ne > 0 ? ne : 1, 1);
			long long nm;
			int mv = -1;
			compare_at(ms[i].want, got, band_atol(ms[i].want),
			    opt.rtol, &m, moved);
			/* and its timed repetitions, where a race shows as
			 * often as in the candidate's */
			m.mismatches += timed_misses(ms[i].want, &r, moved);
			/* element by element, where elements have places: an
			 * unordered output's misses are in sorted order */
			if ((m.mismatches > 0 || ms[i].want->split) &&
			    ms[i].bad != NULL && !ms[i].want->unordered)
				mv = misses_moved(ms[i].want, ms[i].bad, moved,
				    &nm);
			if (mv == 0) {
				/* a miss where the reference holds still */
				json_object_set_new(ms[i].o, "note",
				    json_sprintf("the reference, run again, "
				    "moves %lld element%s of this output, not "
				    "every one the candidate missed", nm,
				    nm == 1 ? "" : "s"));
				m.mismatches = 0;
			}
			if (mv == 1) {
				long long cm = k_get_int(ms[i].o, "mismatches",
				    0);
				json_object_set_new(ms[i].o, "match",
				    json_true());
				json_object_set_new(ms[i].o, "not_compared",
				    json_integer(nm + (ms[i].want->masked ?
				    ms[i].want->nunstable : 0)));
				json_object_set_new(ms[i].o, "note",
				    json_sprintf("matched where the reference "
				    "reproduces its golden: the %lld "
				    "element%s it missed the reference, run "
				    "again, moves too", cm, cm == 1 ? "" :
				    "s"));
				ms[i].o = NULL;
				ms[i].passed = 1;
				marked++;
				m.mismatches = 0;
			}
			free(moved);
			if (m.mismatches > 0) {
				json_object_set_new(ms[i].o, "match",
				    json_null());
				json_object_set_new(ms[i].o, "note",
				    json_string("not compared: the "
				    "reference, run again, does not reproduce "
				    "the golden here"));
				ms[i].o = NULL;
				marked++;
			}
		}
		run_free(&r);
	}
	run_free(&batch);
	return marked;
}

/* Run the candidate on every case and compare; returns pass_exe: 1 it
 * matched, 0 it failed, -1 it matched on every output the golden can
 * judge but one or more it cannot: an output whose reference runs
 * differed beyond any band (verify.tolerance's unbanded) holds no value
 * a candidate could be held to, so a correct candidate is not failed
 * on it, nor passed. */
int
candidate(struct ctx *c, const struct unit *h, const struct unit *cand,
    struct run *gold, int ncases)
{
	json_t *cv = json_object(), *cases = json_array();
	json_t *reasons = json_array(), *unjudged = json_array();
	char dir[PATH_MAX + 64];
	struct run batch;
	struct miss *ms = NULL;
	json_t *v;
	int k, pass = 1, hard = 0, marked, timed_soft, timed_hard, timed_seen;
	int nondet = json_is_false(json_object_get(c->v, "deterministic"));
	size_t i, j, nms = 0;
	unsigned char *bad;
	long long tm;

	json_object_set_new(c->v, "candidate", cv);
	json_object_set_new(cv, "cases", cases);
	json_object_set_new(cv, "reasons", reasons);
	/* a fresh directory: nothing of the golden run is there */
	dir_for(c, "cand", -1, dir, sizeof(dir));
	if (run_batch(c->w, h->path, cand->path, cand->symbol, dir, ncases,
	    CHECK_REPS, &batch) != 0) {
		k_fail(c->rec, STAGE, "harness", "%s: cannot run harness: %s",
		    k_id_text(c->rec), strerror(errno));
		json_decref(unjudged);
		return 0;
	}
	log_run(c->runs, "candidate", -1, "check", &batch);
	for (k = 0; k < ncases; k++) {
		struct run r;
		json_t *cc, *outs;
		struct run *g = &gold[k];

		if (case_skipped(k))
			continue;
		cc = json_object();
		outs = json_array();
		json_object_set_new(cc, "case", json_integer(k));
		json_object_set_new(cc, "outputs", outs);
		json_array_append_new(cases, cc);
		batch_case(&batch, k, &r);
		if (!r.ok) {
			json_object_set_new(c->v, "fault",
			    fault_json("candidate", k, &r));
			json_object_set_new(cc, "pass", json_false());
			add_reason(reasons, "fault");
			run_free(&r);
			run_free(&batch);
			json_decref(unjudged);
			for (i = 0; i < nms; i++)
				free(ms[i].bad);
			free(ms);
			return 0;
		}
		json_object_set_new(cc, "pass", json_true());
		/* against a nondeterministic golden, timed repetitions out
		 * of band are misses as the first launch's are, element by
		 * element, for the reference run again to account for */
		timed_soft = timed_hard = timed_seen = 0;
		if (r.timed_match == 0 && !timed_in_band(g, &r)) {
			if (nondet)
				timed_soft = 1;
			else {
				add_reason(reasons, "timed-outputs-differ");
				json_object_set_new(cc, "pass", json_false());
				pass = 0;
				hard = 1;
			}
		}
		/* inputs: the same as the reference saw, and untouched */
		for (j = 0; j < r.nin; j++) {
			if (input_written(&r, j) != 0) {
				add_reason(reasons, "modified-inputs");
				json_object_set_new(cc, "pass", json_false());
				pass = 0;
				hard = 1;
			}
			/* a golden taken from an earlier run (reuse.c) has
			 * the inputs' checksums, not their bytes */
			if (j >= g->nin || g->in[j].len != r.in[j].len ||
			    strcmp(g->in[j].name, r.in[j].name) != 0 ||
			    (g->in[j].data == NULL ?
			    strcmp(g->in[j].checksum, r.in[j].checksum) != 0 :
			    memcmp(g->in[j].data, r.in[j].data,
			    r.in[j].len) != 0)) {
				add_reason(reasons, "inputs-differ");
				json_object_set_new(cc, "pass", json_false());
				pass = 0;
				hard = 1;
			}
		}
		for (i = 0; i < g->nout; i++) {
			struct buf *want = &g->out[i], *got = out_named(&r,
			    want->name);
			json_t *o = json_object();
			struct cmp m;
			json_object_set_new(o, "name", json_string(want->name));
			json_array_append_new(outs, o);
			if (got == NULL || got->len != want->len ||
			    strcmp(got->type, want->type) != 0) {
				json_object_set_new(o, "match", json_false());
				json_object_set_new(o, "note", json_string(
				    got == NULL ? "missing" :
				    "size or type differs"));
				add_reason(reasons, "shape");
				json_object_set_new(cc, "pass", json_false());
				pass = 0;
				hard = 1;
				continue;
			}
			if (want->spread == SPREAD_NONE) {
				json_object_set_new(o, "match", json_null());
				json_object_set_new(o, "note", json_string(
				    "not compared: the reference's own runs "
				    "differ beyond any band"));
				add_reason(unjudged, want->name);	/* once */
				continue;
			}
			bad = k_calloc(elements(want) > 0 ? elements(want) :
			    1, 1);
			compare_at(want, got, band_atol(want), opt.rtol, &m,
			    bad);
			tm = timed_soft ? timed_misses(want, &r, bad) : 0;
			timed_seen |= tm > 0;
			if (timed_soft && tm == 0 && !timed_ok(want, got))
				timed_hard = 1;	/* not element by element */
			json_object_set_new(o, "match",
			    json_boolean(m.mismatches == 0 && tm == 0));
			if (want->masked)
				json_object_set_new(o, "not_compared",
				    json_integer(want->nunstable));
			json_object_set_new(o, "max_abs_err", jnum(m.max_abs));
			json_object_set_new(o, "max_rel_err", jnum(m.max_rel));
			json_object_set_new(o, "mismatches",
			    json_integer(m.mismatches));
			json_object_set_new(o, "nan_mismatches",
			    json_integer(m.nan_mismatches));
			json_object_set_new(o, "first_mismatch", m.first < 0 ?
			    json_null() : json_integer(m.first));
			if (tm > 0)
				json_object_set_new(o, "timed_mismatches",
				    json_integer(tm));
			if (m.mismatches == 0 && tm == 0) {
				free(bad);
				continue;
			}
			json_object_set_new(cc, "pass", json_false());
			pass = 0;
			ms = k_realloc(ms, (nms + 1) * sizeof(*ms));
			ms[nms].k = k;
			ms[nms].want = want;
			ms[nms].bad = bad;
			ms[nms].passed = 0;
			ms[nms++].o = o;
			if (tm > 0)
				add_reason(reasons, "timed-outputs-differ");
			if (m.mismatches == 0)
				continue;
			if (all_bytes(got->data, got->len, SENTINEL) &&
			    !all_bytes(want->data, want->len, SENTINEL))
				add_reason(reasons, "sentinel-left");
			else if (m.nan_mismatches > 0)
				add_reason(reasons, "nan-mismatch");
			else
				add_reason(reasons, "mismatch");
		}
		/* repetitions out of band that no element accounts for */
		if (timed_soft && (timed_hard || !timed_seen)) {
			add_reason(reasons, "timed-outputs-differ");
			json_object_set_new(cc, "pass", json_false());
			pass = 0;
			hard = 1;
		}
		run_free(&r);
	}
	run_free(&batch);
	/* values that differ, and nothing else: is it the golden? */
	if (!pass && !hard && nms > 0 &&
	    (marked = recheck(c, h, ncases, ms, nms)) > 0) {
		for (i = 0; i < nms; i++)
			if (ms[i].o == NULL && !ms[i].passed)
				add_reason(unjudged, ms[i].want->name);
		if ((size_t)marked == nms) {
			/* every miss is the golden's: no reason left */
			json_array_clear(reasons);
			json_array_foreach(cases, i, v)
				json_object_set_new(v, "pass", json_true());
			pass = 1;
		}
	}
	for (i = 0; i < nms; i++)
		free(ms[i].bad);
	free(ms);
	if (json_array_size(unjudged) == 0) {
		json_decref(unjudged);
		return pass;
	}
	json_object_set_new(cv, "unjudged", unjudged);
	return pass ? -1 : 0;
}
