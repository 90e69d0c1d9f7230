/*
 * The mutation score: the mutants kbuild built (build.mutants, from
 * kwrap --mutants) run through the same harness and cases as a
 * candidate, each compared with the golden outputs in the same band.  A
 * mutant the tests tell from the reference is killed; one that passes
 * every case survives, and its diff says what the tests cannot see.
 * Equivalent mutants (the reference's own machine code) and stillborn
 * ones (no build) are never run and never counted.  A mutant that
 * crashes or hangs is killed: the reference ran the same cases clean,
 * or there would be no golden to score against, and a mutant's case may
 * take four times the reference's whole check run before it is out of
 * time.  Against a nondeterministic golden, a case whose values tell a
 * mutant apart only where the reference, run once more for the record,
 * is outside the band too does not kill it (mutation.raced): that is
 * the reference's own race, which the golden's runs missed.  A mutant
 * whose every compared element is right can still read or write
 * outside its buffers ("i < n" made "i <= n", a bound one too
 * far: the stray element lies past the buffer's end, where no output is
 * compared); a survivor is run once more under compute-sanitizer
 * memcheck and killed where memcheck finds errors on a case the
 * reference ran clean under it, then under racecheck, killed where it
 * finds shared-memory hazards the reference does not have.
 *
 * kwrap may have proved a mutant equivalent to the reference under the
 * spec's cases and launch (wrap.mutants.list[].equivalent).  Such a
 * mutant still runs: one that survives is "spec-equivalent", listed in
 * equivalents with kwrap's reason and left out of the score's
 * denominator; one that is killed contradicts the proof, counts as
 * killed, and is reported as a contradiction, loudly.  A fit that
 * overrides the launch or a scalar (fit.args --grid, --block, --set)
 * runs cases the proof did not cover: its proofs are not used.
 */
#include <string.h>

#include "kverify.h"

#define MC_CASES 8	/* cases a survivor runs under memcheck */
#define RC_CASES 3	/* and under racecheck */

/* How case k of a mutant's batch differs from the golden: NULL when it
 * passes, else what killed it. */
static const char *
killed_by(const struct run *g, const struct run *r)
{
	size_t i;

	if (!r->ok)
		return strcmp(r->fault, "timeout") == 0 ? "timeout" : "fault";
	for (i = 0; i < g->nout; i++) {
		const struct buf *want = &g->out[i];
		const struct buf *got = out_named(r, want->name);
		struct cmp m;
		if (got == NULL || got->len != want->len ||
		    strcmp(got->type, want->type) != 0)
			return "shape";
		compare(want, got, band_atol(want), opt.rtol, &m);
		if (m.mismatches > 0)
			return "mismatch";
	}
	/* an input-only buffer the mutant wrote to, as a candidate's */
	for (i = 0; i < r->nin; i++)
		if (input_written(r, i) == 1)
			return "modified-inputs";
	if (r->timed_match == 0 && !timed_in_band(g, r))
		return "timed";
	return NULL;
}

/*
 * The reference run once more (ref_rerun), on first use (*have: 0 not
 * yet, 1 run, -1 it could not be): where the golden is nondeterministic,
 * a mutant's values outside the band may be the reference's own race,
 * whose spread the golden's runs did not show.
 */
static struct run *
ref_again(struct ctx *c, const struct unit *h, int ncases, struct run *b,
    int *have)
{
	if (*have == 0)
		*have = ref_rerun(c, h, ncases, b) == 0 ? 1 : -1;
	return *have == 1 ? b : NULL;
}

/*
 * Whether every element where case k of a mutant's batch (r) is outside
 * golden g's band, in its first launch or its timed repetition, is one
 * where the reference's run again (a, the same case) is outside it too:
 * then what told the mutant apart is the reference's own race, not a
 * kill.  An output compared as a multiset, or one of another size, says
 * nothing element by element: no.
 */
static int
race_only(const struct run *g, const struct run *r, const struct run *a)
{
	size_t i, e, ne;
	int any = 0;

	if (!a->ok)
		return 0;
	for (i = 0; i < g->nout; i++) {
		const struct buf *want = &g->out[i];
		const struct buf *got = out_named(r, want->name);
		const struct buf *ra = out_named(a, want->name);
		unsigned char *bad, *moved;
		struct cmp m;
		long long nb;
		int ok = 1;

		if (want->spread == SPREAD_NONE)
			continue;	/* not compared (killed_by's band) */
		if (got == NULL || ra == NULL || got->len != want->len ||
		    ra->len != want->len || want->unordered)
			return 0;
		ne = elements(want);
		bad = k_calloc(ne > 0 ? ne : 1, 1);
		moved = k_calloc(ne > 0 ? ne : 1, 1);
		compare_at(want, got, band_atol(want), opt.rtol, &m, bad);
		nb = m.mismatches + timed_misses(want, r, bad);
		if (nb > 0) {
			compare_at(want, ra, band_atol(want), opt.rtol, &m,
			    moved);
			(void)timed_misses(want, a, moved);
			/* and the elements the golden's runs saw race */
			for (e = 0; e < ne && ok; e++)
				ok = !bad[e] || moved[e] || raced_at(want, e);
			any = 1;
		}
		free(bad);
		free(moved);
		if (!ok)
			return 0;
	}
	return any;
}

/* Errors a memcheck run (sanitize_case) found: -1 when it did not
 * finish (no count, a timeout). */
static long
mc_errors(json_t *o)
{
	json_t *e = json_object_get(o, "errors");

	if (!json_is_integer(e) || json_is_true(json_object_get(o,
	    "timed_out")))
		return -1;
	return (long)json_integer_value(e);
}

/* The index of the case named name in wrap.spec.cases, or -1. */
static int
case_named(json_t *rec, const char *name)
{
	json_t *cs;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(json_object_get(
	    rec, "wrap"), "spec"), "cases"), i, cs)
		if (k_get_str(cs, "name") != NULL &&
		    strcmp(k_get_str(cs, "name"), name) == 0)
			return (int)i;
	return -1;
}

/* The reference's run of case k under the sanitizer tool (its findings,
 * sanitize_case's), or NULL when the reference cannot be run. */
static json_t *
ref_sanitize(struct ctx *c, const struct unit *h, const char *tool, int k)
{
	char dir[PATH_MAX + 64], what[64];
	struct unit ref;
	int runnable;

	if (!unit_of(json_object_get(c->rec, "build"), "reference", &ref,
	    &runnable) || !runnable || ref.symbol == NULL)
		return NULL;
	snprintf(what, sizeof(what), "reference-%s", tool);
	dir_for(c, what, k, dir, sizeof(dir));
	return sanitize_case(c->w, tool, h->path, ref.path, ref.symbol, dir, k);
}

/* Whether a sanitizer's run o was clean: it exited 0 and the tool counts
 * no error. */
static int
ran_clean(json_t *o)
{
	return o != NULL && mc_errors(o) == 0 && json_is_integer(
	    json_object_get(o, "exit")) && json_integer_value(
	    json_object_get(o, "exit")) == 0;
}

/* Whether the reference runs case k clean under the sanitizer tool. */
static int
ref_clean(struct ctx *c, const struct unit *h, const char *tool, int k)
{
	json_t *o = ref_sanitize(c, h, tool, k);
	int clean = ran_clean(o);

	json_decref(o);
	return clean;
}

/* Case 0, then the cases of named[0..nn) the spec has, into cases; each
 * one's slot (0 for case 0, i + 1 for named[i]) into slot; how many. */
static int
named_cases(json_t *rec, const char *const *named, int nn, int *cases,
    int *slot)
{
	int n = 1, i, k;

	cases[0] = 0;
	slot[0] = 0;
	for (i = 0; i < nn; i++)
		if ((k = case_named(rec, named[i])) > 0) {
			slot[n] = i + 1;
			cases[n++] = k;
		}
	return n;
}

/* Mutant m's run of case k under the sanitizer tool. */
static json_t *
mutant_sanitize(struct ctx *c, const struct unit *h, const struct unit *m,
    const char *tool, int k)
{
	char dir[PATH_MAX + 64], what[64];

	snprintf(what, sizeof(what), "mutant-%s", tool);
	dir_for(c, what, k, dir, sizeof(dir));
	return sanitize_case(c->w, tool, h->path, m->path, m->symbol, dir, k);
}

/* What killed the mutant into one: the tool's first finding of run o, on
 * case k. */
static void
note_finding(json_t *one, const char *tool, json_t *o, int k)
{
	json_t *msg = json_array_get(json_object_get(o, "messages"), 0);

	if (json_is_string(msg))
		json_object_set(one, tool, msg);
	json_object_set_new(one, "case", json_integer(k));
}

/*
 * Whether memcheck kills mutant m: errors on a case the reference ran
 * clean under memcheck.  Case 0 first, which the verdict already ran the
 * reference clean on; then the case whose size is not a multiple of the
 * block ("non_multiple"), where a bound one too far reaches past a
 * buffer, the one whose sizes are 1 ("smallest"), where a guard one off
 * ("g >= n" made "g > n") lets a thread read the element past a buffer
 * of one, kwrap's size-guard cases ("size_edge", "size_edge_2"),
 * where a size is the constant an early-exit guard compares it with and
 * a mutant of the guard writes into a buffer of 0 elements, and its
 * loop-entry cases ("loop_entry", "loop_entry_2"), the only ones that run
 * a loop whose bound a mutant may push past a buffer, and its
 * multi-block case ("multi_block"), the only one where a block past the
 * first runs; each once
 * the reference is clean on it too (ref_ok[i]: -1 until checked, once
 * per record).  The large cases are left out: memcheck is slow there,
 * and they add no edge the small ones lack.  The case and the finding's
 * first line go into one.
 */
static int
memcheck_kills(struct ctx *c, const struct unit *h, const struct unit *m,
    int ref_ok[MC_CASES], json_t *one)
{
	static const char *const named[MC_CASES - 1] = { "non_multiple",
		"smallest", "size_edge", "size_edge_2", "loop_entry",
		"loop_entry_2", "multi_block" };
	int cases[MC_CASES], slot[MC_CASES], n, i;
	json_t *o;
	long e = 0;

	if (opt.sanitizer == NULL || !opt.memcheck)
		return 0;
	n = named_cases(c->rec, named, MC_CASES - 1, cases, slot);
	for (i = 0; i < n && e <= 0; i++) {
		int *ok = &ref_ok[slot[i]];
		if (cases[i] != 0 && *ok < 0)
			*ok = ref_clean(c, h, "memcheck", cases[i]);
		if (cases[i] != 0 && *ok != 1)
			continue;
		o = mutant_sanitize(c, h, m, "memcheck", cases[i]);
		if ((e = mc_errors(o)) > 0)
			note_finding(one, "memcheck", o, cases[i]);
		json_decref(o);
	}
	return e > 0;
}

/* racecheck's hazards of warning severity in o (0 without the count). */
static long
rc_warnings(json_t *o)
{
	json_t *w = json_object_get(o, "warnings");

	return json_is_integer(w) ? (long)json_integer_value(w) : 0;
}

/*
 * Whether racecheck kills mutant m: shared-memory hazards beyond the
 * reference's, on case 0 and then on kwrap's loop-entry cases
 * ("loop_entry", "loop_entry_2": a barrier inside a loop that no other
 * case runs is dropped there only), each where the reference has no
 * hazard of error severity (ref_rc[i]: -1 until checked, once per
 * record, then -2 when the reference races or did not run clean, else
 * its hazards of warning severity; the verdict's own racecheck is case
 * 0's where --sanitize ran it).  A barrier dropped between a shared
 * store and the loads of other threads (drop-syncthreads), or a bound
 * moved so that threads read what others are still writing, often
 * leaves the outputs right on a given GPU and launch: the schedule
 * happened to order them.  racecheck sees the unordered accesses
 * whatever the schedule did; a hazard it rates a warning (the value
 * written was already there, say) is one all the same, so a mutant with
 * more hazards of either severity than the reference is killed.  The
 * case and the hazard's first line go into one; case 0's reference run
 * into mv's racecheck_reference.
 */
static int
racecheck_kills(struct ctx *c, const struct unit *h, const struct unit *m,
    int ref_rc[RC_CASES], json_t *one, json_t *mv)
{
	static const char *const named[RC_CASES - 1] = { "loop_entry",
		"loop_entry_2" };
	int cases[RC_CASES], slot[RC_CASES], n, i;
	json_t *o;
	long e, w;

	if (opt.sanitizer == NULL || !opt.memcheck)
		return 0;
	n = named_cases(c->rec, named, RC_CASES - 1, cases, slot);
	for (i = 0; i < n; i++) {
		int *ref = &ref_rc[slot[i]];
		if (*ref == -1) {
			o = cases[i] == 0 ? json_object_get(json_object_get(
			    c->v, "sanitize"), "racecheck") : NULL;
			if (o != NULL)
				json_incref(o);
			else
				o = ref_sanitize(c, h, "racecheck", cases[i]);
			*ref = ran_clean(o) ? (int)rc_warnings(o) : -2;
			/* what the survivors' racecheck is measured
			 * against */
			if (cases[i] == 0)
				json_object_set_new(mv, "racecheck_reference",
				    o == NULL ? json_null() : json_pack(
				    "{s:O,s:I}", "errors", json_object_get(o,
				    "errors"), "warnings",
				    (json_int_t)rc_warnings(o)));
			json_decref(o);
		}
		if (*ref < 0)
			continue;
		o = mutant_sanitize(c, h, m, "racecheck", cases[i]);
		e = mc_errors(o);
		w = rc_warnings(o);
		if (e > 0 || (e == 0 && w > *ref)) {
			note_finding(one, "racecheck", o, cases[i]);
			json_decref(o);
			return 1;
		}
		json_decref(o);
	}
	return 0;
}

/* Why the record's proofs of equivalence do not cover its runs, or
 * NULL when they do: a fit's override of the launch or a scalar. */
static const char *
proofs_void(json_t *rec)
{
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(rec, "fit"),
	    "args"), i, v) {
		const char *s = json_string_value(v);
		if (s != NULL && (strcmp(s, "--grid") == 0 ||
		    strcmp(s, "--block") == 0 || strcmp(s, "--set") == 0))
			return "fit.args override the launch or a scalar the "
			    "proofs assumed";
	}
	return NULL;
}

/* wrap.mutants' entry for id (borrowed), or NULL. */
static json_t *
listed(json_t *rec, const char *id)
{
	json_t *m;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(json_object_get(
	    rec, "wrap"), "mutants"), "list"), i, m)
		if (id != NULL && strcmp(k_get_str(m, "id") ? k_get_str(m,
		    "id") : "", id) == 0)
			return m;
	return NULL;
}

void
mutation(struct ctx *c, const struct unit *h, struct run *gold, int ncases)
{
	json_t *bm = json_object_get(json_object_get(c->rec, "build"),
	    "mutants"), *e, *mv, *all, *surv, *by, *eqs;
	long tried = 0, killed = 0, equiv = 0, still = 0, speq = 0, contra = 0;
	long raced = 0;
	const char *nov = proofs_void(c->rec);
	int nondet = json_is_false(json_object_get(c->v, "deterministic"));
	int have_again = 0;
	struct run again_b, *again;
	int ref_mc[MC_CASES] = { -1, -1, -1, -1, -1, -1, -1 };
	int ref_rc[RC_CASES] = { -1, -1, -1 };
	size_t i;
	/* a case of a mutant gets four times what the reference took for
	 * all of them, at least --mutant-timeout: a mutant out of time is
	 * slower than the reference, not a case the reference is slow on */
	double limit = 4 * c->ref_seconds > opt.mutant_timeout ?
	    4 * c->ref_seconds : opt.mutant_timeout;

	if (!opt.mutants || !json_is_array(json_object_get(bm, "list")))
		return;
	mv = json_object();
	all = json_array();
	surv = json_array();
	eqs = json_array();
	by = json_object();
	json_array_foreach(json_object_get(bm, "list"), i, e) {
		const char *id = k_get_str(e, "id"), *why = NULL;
		json_t *one = json_object(), *wrapper, *lm = listed(c->rec, id);
		char dir[PATH_MAX + 64];
		struct unit u;
		struct run batch;
		json_t *proof;
		int runnable, k;

		json_object_set_new(one, "id", json_string(id != NULL ? id :
		    "?"));
		json_array_append_new(all, one);
		if (json_is_true(json_object_get(e, "equivalent"))) {
			json_object_set_new(one, "status", json_string(
			    "equivalent"));
			equiv++;
			continue;
		}
		wrapper = json_pack("{s:O}", "m", e);
		if (!unit_of(wrapper, "m", &u, &runnable) || !runnable ||
		    u.symbol == NULL) {
			json_decref(wrapper);
			json_object_set_new(one, "status", json_string(
			    "stillborn"));
			still++;
			continue;
		}
		dir_for(c, "mutant", -1, dir, sizeof(dir));
		if (run_batch_limit(c->w, h->path, u.path, u.symbol, dir,
		    ncases, CHECK_REPS, limit, &batch) != 0) {
			json_decref(wrapper);
			json_object_set_new(one, "status", json_string(
			    "not-run"));
			continue;
		}
		log_run(c->runs, "mutant", -1, "check", &batch);
		tried++;
		for (k = 0; k < ncases && why == NULL; k++) {
			struct run r;
			if (case_skipped(k))
				continue;
			batch_case(&batch, k, &r);
			why = killed_by(&gold[k], &r);
			/* a nondeterministic golden: values outside the band
			 * only where the reference, run again, moves too are
			 * its race, not the mutant's doing */
			if (why != NULL && nondet && (strcmp(why,
			    "mismatch") == 0 || strcmp(why, "timed") == 0) &&
			    (again = ref_again(c, h, ncases, &again_b,
			    &have_again)) != NULL) {
				struct run ra;
				batch_case(again, k, &ra);
				if (race_only(&gold[k], &r, &ra)) {
					why = NULL;
					if (json_object_get(one, "raced") ==
					    NULL) {
						json_object_set_new(one,
						    "raced", json_integer(k));
						raced++;
					}
				}
				run_free(&ra);
			}
			if (why != NULL)
				json_object_set_new(one, "case",
				    json_integer(k));
			run_free(&r);
		}
		run_free(&batch);
		if (why == NULL && memcheck_kills(c, h, &u, ref_mc, one))
			why = "memcheck";
		if (why == NULL && racecheck_kills(c, h, &u, ref_rc, one,
		    mv))
			why = "racecheck";
		json_decref(wrapper);
		proof = nov == NULL ? json_object_get(lm, "equivalent") : NULL;
		if (!json_is_object(proof))
			proof = NULL;
		json_object_set_new(one, "status", json_string(why != NULL ?
		    "killed" : proof != NULL ? "spec-equivalent" :
		    "survived"));
		if (why != NULL) {
			killed++;
			json_object_set_new(one, "by", json_string(why));
			json_object_set_new(by, why, json_integer(
			    k_get_int(by, why, 0) + 1));
			if (proof != NULL) {
				/* a wrong proof: a case the spec has tells
				 * them apart */
				contra++;
				json_object_set_new(one, "contradiction",
				    json_true());
				k_warn(K_EXIT_OK, k_id_borrowed(c->rec),
				    "mutant %s: killed (%s), but kwrap proved it "
				    "equivalent under the spec: %s", id != NULL ?
				    id : "?", why, k_get_str(proof, "reason") ?
				    k_get_str(proof, "reason") : "?");
			}
		} else if (proof != NULL) {
			speq++;
			json_array_append_new(eqs, json_pack("{s:s,s:O,s:O,s:O,"
			    "s:O,s:O}", "id", id, "op", json_object_get(lm,
			    "op"), "line", json_object_get(lm, "line"), "diff",
			    json_object_get(lm, "diff"), "rule",
			    json_object_get(proof, "rule"), "reason",
			    json_object_get(proof, "reason")));
		} else
			json_array_append_new(surv, json_pack("{s:s,s:O,s:O,"
			    "s:O}", "id", id, "op", lm != NULL ?
			    json_object_get(lm, "op") : json_null(), "line",
			    lm != NULL ? json_object_get(lm, "line") :
			    json_null(), "diff", lm != NULL ?
			    json_object_get(lm, "diff") : json_null()));
	}
	json_object_set_new(mv, "tried", json_integer(tried));
	json_object_set_new(mv, "killed", json_integer(killed));
	json_object_set_new(mv, "survived", json_integer(tried - killed -
	    speq));
	json_object_set_new(mv, "equivalent", json_integer(equiv));
	json_object_set_new(mv, "spec_equivalent", json_integer(speq));
	json_object_set_new(mv, "contradictions", json_integer(contra));
	if (nondet)
		json_object_set_new(mv, "raced", json_integer(raced));
	if (have_again == 1)
		run_free(&again_b);
	json_object_set_new(mv, "stillborn", json_integer(still));
	json_object_set_new(mv, "score", tried - speq > 0 ?
	    jround((double)killed / (double)(tried - speq), 1e-4) :
	    json_null());
	json_object_set_new(mv, "killed_by", by);
	json_object_set_new(mv, "survivors", surv);
	json_object_set_new(mv, "equivalents", eqs);
	if (nov != NULL)
		json_object_set_new(mv, "proofs_unused", json_string(nov));
	json_object_set_new(mv, "mutants", all);
	json_object_set_new(c->v, "mutation", mv);
}
