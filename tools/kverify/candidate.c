/*
 * The candidate's runs, compared with the golden outputs.
 */
#include <errno.h>
#include <string.h>

#include "kverify.h"

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
		const struct buf *t = &r->out[i];
		struct buf *want = out_named(g, t->name), got;
		struct cmp m;
		if (t->timed == NULL)
			continue;
		named = 1;
		if (want != NULL && want->spread == SPREAD_NONE)
			continue;	/* not judged: see candidate() */
		if (want == NULL || t->timed_len != want->len)
			return 0;
		got = *t;
		got.data = t->timed;
		got.len = t->timed_len;
		compare(want, &got, band_atol(want), opt.rtol, &m);
		if (m.mismatches > 0)
			return 0;
	}
	return named;
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
	int k, pass = 1;
	size_t i, j;

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
			return 0;
		}
		json_object_set_new(cc, "pass", json_true());
		if (r.timed_match == 0 && !timed_in_band(g, &r)) {
			add_reason(reasons, "timed-outputs-differ");
			json_object_set_new(cc, "pass", json_false());
			pass = 0;
		}
		/* inputs: the same as the reference saw, and untouched */
		for (j = 0; j < r.nin; j++) {
			json_t *ie = json_array_get(json_object_get(r.manifest,
			    "inputs"), j);
			const char *after = k_get_str(ie, "checksum_after");
			int is_out = out_named(&r, r.in[j].name) != NULL;
			if (!is_out && (after == NULL ||
			    strcmp(after, r.in[j].checksum) != 0)) {
				add_reason(reasons, "modified-inputs");
				json_object_set_new(cc, "pass", json_false());
				pass = 0;
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
			compare(want, got, band_atol(want), opt.rtol, &m);
			json_object_set_new(o, "match",
			    json_boolean(m.mismatches == 0));
			json_object_set_new(o, "max_abs_err", jnum(m.max_abs));
			json_object_set_new(o, "max_rel_err", jnum(m.max_rel));
			json_object_set_new(o, "mismatches",
			    json_integer(m.mismatches));
			json_object_set_new(o, "nan_mismatches",
			    json_integer(m.nan_mismatches));
			json_object_set_new(o, "first_mismatch", m.first < 0 ?
			    json_null() : json_integer(m.first));
			if (m.mismatches == 0)
				continue;
			json_object_set_new(cc, "pass", json_false());
			pass = 0;
			if (all_bytes(got->data, got->len, SENTINEL) &&
			    !all_bytes(want->data, want->len, SENTINEL))
				add_reason(reasons, "sentinel-left");
			else if (m.nan_mismatches > 0)
				add_reason(reasons, "nan-mismatch");
			else
				add_reason(reasons, "mismatch");
		}
		run_free(&r);
	}
	run_free(&batch);
	if (json_array_size(unjudged) == 0) {
		json_decref(unjudged);
		return pass;
	}
	json_object_set_new(cv, "unjudged", unjudged);
	return pass ? -1 : 0;
}
