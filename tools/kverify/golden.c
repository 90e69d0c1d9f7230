/*
 * The reference's runs: golden outputs, their determinism and
 * degeneracy, and the CPU reference's check of them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kverify.h"

/* The entry of verify.golden for case k (cases left out have none). */
json_t *
gold_case(json_t *gold, int k)
{
	json_t *g;
	size_t i;

	json_array_foreach(gold, i, g)
		if (k_get_int(g, "case", -1) == k)
			return g;
	return NULL;
}

/*
 * Whether batch b of the reference stopped at a case that can be left out
 * of the task: not case 0, a fault of the kernel or of the case's sizes
 * (a crash, a timeout, a failed allocation, launch or run; not a broken
 * harness), and fewer than half of the cases left out so far.  The spec's
 * cases are kwrap's guesses at sizes and values: one that the reference
 * itself cannot run (a scalar at an extreme no caller passes, a size that
 * overruns) tests nothing.  Such a case goes into verify.left_out and
 * every later batch of the record skips it (harness --skip).
 */
static int
leave_out(struct ctx *c, const struct run *b, int ncases)
{
	static const char *const kinds[] = { "timeout", "crash", "alloc",
	    "launch", "runtime" };
	json_t *lo, *cs = json_object_get(json_object_get(json_object_get(
	    c->rec, "wrap"), "spec"), "cases");
	struct run r;
	size_t i;
	int k, fits = 0;

	for (k = 0; k < ncases; k++) {
		if (case_skipped(k))
			continue;
		batch_case(b, k, &r);
		if (!r.ok)
			break;
		run_free(&r);
	}
	if (k == ncases)
		return 0;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(r.fault, kinds[i]) == 0)
			fits = 1;
	if (k == 0 || !fits || says_no_device(&r) ||
	    2 * (case_skip_count() + 1) >= ncases ||
	    case_skip_add(k) != 0) {
		run_free(&r);
		return 0;
	}
	if ((lo = json_object_get(c->v, "left_out")) == NULL) {
		lo = json_array();
		json_object_set_new(c->v, "left_out", lo);
	}
	json_array_append_new(lo, json_pack("{s:i,s:O?,s:s,s:s}", "case", k,
	    "name", json_object_get(json_array_get(cs, (size_t)k), "name"),
	    "fault", r.fault, "message", r.msg));
	run_free(&r);
	return 1;
}

/* The first case not left out. */
static int
first_case(int ncases)
{
	int k;

	for (k = 0; k < ncases && case_skipped(k); k++)
		;
	return k < ncases ? k : 0;
}

/*
 * Output b of case k, output i, of the golden run (outputs pre-filled
 * with SENTINEL) against b2 of the repeat (pre-filled with SENTINEL2): an
 * element that holds each run's sentinel was never written, and one that
 * holds SENTINEL in both was written with a value whose bytes are the
 * sentinel's (a 16-bit half can be).  Sets the golden's "unwritten" to
 * the count of the first kind; returns a copy of b2 with those elements
 * taken from b (what is left to compare), NULL when there are none.
 */
static unsigned char *
unwritten_pair(json_t *gold, int k, size_t i, const struct buf *b,
    const struct buf *b2)
{
	const struct k_dtype *d = k_dtype_named(b->type);
	size_t sz = d != NULL && d->size > 0 ? (size_t)d->size : 1, e;
	json_t *o = json_array_get(json_object_get(gold_case(gold, k),
	    "outputs"), i);
	unsigned char *same = NULL;
	long long n = 0;

	for (e = 0; e + sz <= b->len; e += sz) {
		if (!all_bytes(b->data + e, sz, SENTINEL) ||
		    !all_bytes(b2->data + e, sz, SENTINEL2))
			continue;
		if (same == NULL) {
			same = k_malloc(b2->len);
			memcpy(same, b2->data, b2->len);
		}
		memcpy(same + e, b->data + e, sz);
		n++;
	}
	if (json_is_object(o))
		json_object_set_new(o, "unwritten", json_integer(n));
	return same;
}

/* The first element of b in hex (its repeated value, when it is one). */
static json_t *
element_hex(const struct buf *b)
{
	const struct k_dtype *d = k_dtype_named(b->type);
	size_t sz = d != NULL ? (size_t)d->size : 1, i;
	char hex[2 * 16 + 1];

	if (sz > 16)
		sz = 16;
	if (sz > b->len)
		sz = b->len;
	for (i = 0; i < sz; i++)
		snprintf(hex + 2 * i, 3, "%02x", b->data[i]);
	hex[2 * sz] = '\0';
	return json_string(sz > 0 ? hex : "00");
}

/*
 * Which elements of output b another run (got) leaves outside the
 * dtype's own tolerance (--atol, --rtol where given): they join b's
 * unstable map, and the largest |difference| of the others joins
 * b->stable_spread.  A run of another size cannot be told apart element
 * by element (b->nomask).
 */
static void
unstable_elements(struct buf *b, const unsigned char *got, size_t len)
{
	const struct k_dtype *d = k_dtype_named(b->type);
	size_t n = elements(b), e;
	struct buf g = *b;
	unsigned char *bad;
	struct cmp m;

	if (got == NULL || len != b->len) {
		b->nomask = 1;
		return;
	}
	bad = k_calloc(n > 0 ? n : 1, 1);
	g.data = (unsigned char *)got;
	g.masked = 0;
	compare_at(b, &g, opt.atol, opt.rtol, &m, bad);
	if (m.mismatches > 0 && b->unstable == NULL)
		b->unstable = k_calloc(n > 0 ? n : 1, 1);
	for (e = 0; e < n && m.mismatches > 0; e++)
		if (bad[e] && !b->unstable[e]) {
			b->unstable[e] = 1;
			b->nunstable++;
		}
	/* the stable elements' own spread: those compare_at let pass */
	if (d != NULL && d->is_float)
		for (e = 0; e < n; e++) {
			size_t sz = (size_t)d->size;
			double x = load_float(b->data + e * sz, d->size, d->name);
			double y = load_float(got + e * sz, d->size, d->name);
			if (bad[e] || !isfinite(x) || !isfinite(y))
				continue;
			if (fabs(x - y) > b->stable_spread)
				b->stable_spread = fabs(x - y);
		}
	free(bad);
}

/* One observation of the reference against itself on output b of case
 * k (got: another run's bytes): b->spread and the case's "spread" grow to
 * it, and the elements it moves join b's unstable map. */
static void
observe(json_t *gold, int k, size_t i, struct buf *b, const unsigned char
    *got, size_t len)
{
	json_t *o = json_array_get(json_object_get(gold_case(gold, k),
	    "outputs"), i);
	double sc, s = spread(b, got, len, &sc);

	if (s != 0)
		unstable_elements(b, got, len);

	/* the same elements in another order: a float output permuted
	 * shows a spread as wide as its values, not rounding */
	if (s != 0 && b->order >= 0)
		b->order = same_multiset(b, got, len) ? 1 : -1;
	if (s == 0 || b->spread == SPREAD_NONE)
		return;
	if (s == SPREAD_NONE) {
		char x[64], y[64];
		long long e;
		const char *kind = first_difference(b, got, len, &e, x, y,
		    sizeof(x));
		json_t *d = json_object();
		json_object_set_new(d, "kind", json_string(kind != NULL ?
		    kind : "integer"));
		json_object_set_new(d, "element", json_integer(e));
		json_object_set_new(d, "golden", json_string(x));
		json_object_set_new(d, "other", json_string(y));
		json_object_set_new(o, "difference", d);
		b->spread = SPREAD_NONE;
	}
	else if (s > b->spread)
		b->spread = s;
	json_object_set_new(o, "spread", b->spread == SPREAD_NONE ?
	    json_string("incomparable") : jnum(b->spread));
}

/* The golden's entry of output name in case k, or NULL. */
static json_t *
gold_output(json_t *gold, int k, const char *name)
{
	json_t *o;
	size_t i;

	json_array_foreach(json_object_get(gold_case(gold, k), "outputs"), i,
	    o)
		if (k_get_str(o, "name") != NULL &&
		    strcmp(k_get_str(o, "name"), name) == 0)
			return o;
	return NULL;
}

/* The first case's record of where output name's runs differed beyond
 * a band (observe's "difference"), with the case, into o. */
static void
first_seen(json_t *gold, int ncases, const char *name, json_t *o)
{
	json_t *d;
	int k;

	for (k = 0; k < ncases; k++) {
		d = json_object_get(gold_output(gold, k, name), "difference");
		if (json_is_object(d)) {
			d = json_deep_copy(d);
			json_object_set_new(d, "case", json_integer(k));
			json_object_set_new(o, "difference", d);
			return;
		}
	}
}

/* Whether output name differed between the reference's runs only by
 * order: in every case that ran, each difference no band covers was the
 * same elements in another order, and at least one was. */
static int
permuted(struct run *gold, int ncases, const char *name)
{
	int k, any = 0;

	for (k = 0; k < ncases; k++) {
		struct buf *b = out_named(&gold[k], name);
		if (case_skipped(k))
			continue;
		if (b == NULL || b->order < 0)
			return 0;
		any |= b->order > 0;
	}
	return any;
}

/*
 * Whether output name, whose runs differed beyond any band, can still be
 * judged where they agree: in every case kept, each run had its size, and
 * at most MASK_MAX of its elements moved outside the dtype's tolerance
 * (a race that picks which thread's value lands in a few places, an
 * infinity reached by one order of a sum and not another), some did
 * somewhere.  Such an output is masked: the elements that moved are not
 * compared, the others are, in the spread the runs showed on them.  The
 * golden's case entries get the map (one byte an element, in the blob
 * store: unstable_hash), its count (unstable) and stable_spread; o, the
 * output's verify.tolerance entry, gets kind ("masked"), unstable and
 * elements.  The same map splits a banded output (kind "split") whose
 * other elements reproduced exactly: a race on a few elements whose
 * spread is small beside the largest magnitude of another case would
 * otherwise widen every element's band to it.
 * Returns 1 when masked, 0 when not, -1 when the map cannot be stored.
 */
static int
mask(struct ctx *c, struct run *gold, int ncases, const char *name,
    json_t *o, const char *kind)
{
	json_t *gj = json_object_get(c->v, "golden"), *e;
	long long moved = 0, all = 0;
	char hex[K_SHA256_HEX];
	int k;

	for (k = 0; k < ncases; k++) {
		struct buf *b = out_named(&gold[k], name);
		if (case_skipped(k))
			continue;
		if (b == NULL || b->nomask || (double)b->nunstable >
		    MASK_MAX * (double)elements(b))
			return 0;
		/* a split holds the rest to their own band only where they
		 * reproduced exactly: a float reduction whose every element
		 * rounds another way keeps the one band */
		if (strcmp(kind, "split") == 0 && b->stable_spread != 0)
			return 0;
		moved += b->nunstable;
		all += (long long)elements(b);
	}
	if (moved == 0)
		return 0;
	for (k = 0; k < ncases; k++) {
		struct buf *b = out_named(&gold[k], name);
		if (case_skipped(k) || (e = gold_output(gj, k, name)) == NULL)
			continue;
		json_object_set_new(e, "unstable", json_integer(b->nunstable));
		json_object_set_new(e, "stable_spread", jnum(b->stable_spread));
		if (b->unstable == NULL)
			continue;
		if (store_blob(b->unstable, elements(b), hex) != 0) {
			k_warn(K_EXIT_OK, k_id_borrowed(c->rec), "cannot store "
			    "the unstable elements of output %s in %s/blobs: "
			    "%s", name, opt.work, strerror(errno));
			return -1;
		}
		json_object_set_new(e, "unstable_hash", json_string(hex));
	}
	json_object_set_new(o, kind, json_true());
	json_object_set_new(o, "unstable", json_integer(moved));
	json_object_set_new(o, "elements", json_integer(all));
	return 1;
}

/*
 * The tolerance band of every output (verify.tolerance), from the spread
 * its golden showed over every case and every repeated run.  Rounding in
 * float atomics grows with the values summed, so one absolute band for
 * all cases, sized by the case of the largest values (large magnitudes:
 * a spread of 1e23 on values of 1e30), would let anything pass on values
 * near 1.  Each case's band is its own: the largest of its own spread
 * and the output's relative spread (the largest spread over magnitude of
 * any case) times that case's magnitude, so that a case whose runs
 * happened to agree still gets a band in proportion.  A spread over
 * SPREAD_RACE of the output's largest magnitude is a race, no band.
 * Set on every case's golden buffer for the comparisons to come;
 * verify.tolerance reports the largest spread, the relative one and
 * case 0's atol.
 * Returns whether every output that differed can be judged in a band.
 */
static int
tolerance(struct ctx *c, struct run *gold, int ncases)
{
	json_t *t = json_object(), *outs = json_array();
	struct run *g0 = &gold[0];
	size_t i;
	int k, banded_all = 1;

	json_object_set_new(t, "k", jnum(opt.spread_k));
	json_object_set_new(t, "outputs", outs);
	json_object_set_new(c->v, "tolerance", t);
	for (i = 0; i < g0->nout; i++) {
		const struct k_dtype *d = k_dtype_named(g0->out[i].type);
		double sp = 0, rel = 0, sc = 0, rtol = opt.rtol >= 0 ? opt.rtol :
		    d != NULL ? d->rtol : 0;
		json_t *o = json_object();
		const char *why = NULL;
		int unordered = 0, masked = 0, split = 0;
		for (k = 0; k < ncases; k++) {
			struct buf *b = out_named(&gold[k], g0->out[i].name);
			double m;
			/* a case left out has no golden, and no spread */
			if (case_skipped(k))
				continue;
			if (b == NULL || b->spread == SPREAD_NONE) {
				sp = SPREAD_NONE;
				continue;
			}
			if (b->spread == 0)
				continue;
			if (sp != SPREAD_NONE && b->spread > sp)
				sp = b->spread;
			/* a case whose values cancel to near zero is judged
			 * in its own spread only */
			m = magnitude(b);
			if (m > sc)
				sc = m;
			if (m > 0 && b->spread <= SPREAD_RACE * m &&
			    b->spread / m > rel)
				rel = b->spread / m;
		}
		if (sp != 0 && (unordered = permuted(gold, ncases,
		    g0->out[i].name)))
			sp = 0;
		else if (sp == SPREAD_NONE) {
			why = "incomparable";
			first_seen(json_object_get(c->v, "golden"), ncases,
			    g0->out[i].name, o);
		}
		else if (sp > 0 && sp > SPREAD_RACE * sc)
			why = "too-large";
		if (why != NULL && (masked = mask(c, gold, ncases,
		    g0->out[i].name, o, "masked")) > 0) {
			/* judged where the runs agree, in their spread */
			why = NULL;
			json_object_del(o, "difference");
			sp = rel = 0;
		} else if (why == NULL && !unordered && sp > 0)
			/* banded: the elements that held still in their own
			 * band, where few moved */
			split = mask(c, gold, ncases, g0->out[i].name, o,
			    "split") > 0;
		for (k = 0; k < ncases; k++) {
			struct buf *b = out_named(&gold[k], g0->out[i].name);
			double band;
			if (b == NULL)
				continue;
			band = b->spread > 0 ? b->spread : 0;
			if (sp > 0 && rel * magnitude(b) > band)
				band = rel * magnitude(b);
			if (masked > 0 && !case_skipped(k)) {
				band = b->stable_spread;
				b->masked = 1;
				if (band > sp)
					sp = band;
			}
			b->spread = why != NULL ? SPREAD_NONE : unordered ? 0 :
			    band;
			b->unordered = unordered;
			b->split = split && !case_skipped(k);
		}
		json_object_set_new(o, "name", json_string(g0->out[i].name));
		json_object_set_new(o, "spread", sp == SPREAD_NONE ?
		    json_null() : jnum(sp));
		json_object_set_new(o, "relative", sp == SPREAD_NONE ?
		    json_null() : jnum(rel));
		json_object_set_new(o, "atol", jnum(band_atol(&g0->out[i])));
		json_object_set_new(o, "rtol", jnum(rtol));
		json_object_set_new(o, "banded", json_boolean(sp > 0 &&
		    why == NULL));
		if (split)
			json_object_set_new(o, "stable_atol",
			    jnum(stable_atol(&g0->out[i])));
		if (unordered)
			json_object_set_new(o, "unordered", json_true());
		if (why != NULL) {
			json_object_set_new(o, "unbanded", json_string(why));
			banded_all = 0;
		}
		json_array_append_new(outs, o);
	}
	return banded_all;
}

static int confirmed(struct ctx *, const struct unit *, const struct unit *,
    struct run *, int);

/* Why output b of case k cannot be judged in a band, or NULL: its runs
 * differed where no band applies, or by over SPREAD_RACE of its values,
 * and not only in the order of its elements.  The reason into why. */
static const char *
unreproducible(json_t *gold, int k, const struct buf *b, char *why,
    size_t len)
{
	json_t *d;
	double m;

	if (b->order > 0 || b->spread == 0)
		return NULL;
	if (b->spread == SPREAD_NONE) {
		d = json_object_get(gold_output(gold, k, b->name),
		    "difference");
		snprintf(why, len, "output %s differs between the reference's "
		    "runs where no tolerance band applies", b->name);
		if (json_is_object(d) && k_get_int(d, "element", -1) >= 0)
			snprintf(why, len, "output %s differs between the "
			    "reference's runs where no tolerance band applies "
			    "(%s): element %lld is %s in one run and %s in "
			    "another", b->name, k_get_str(d, "kind"),
			    (long long)k_get_int(d, "element", -1),
			    k_get_str(d, "golden"), k_get_str(d, "other"));
		return why;
	}
	m = magnitude(b);
	if (b->spread <= SPREAD_RACE * m)
		return NULL;
	snprintf(why, len, "output %s differs between the reference's runs "
	    "by %g, over %g%% of its largest magnitude (%g)", b->name,
	    b->spread, 100 * SPREAD_RACE, m);
	return why;
}

/* Case k's entries out of the golden. */
static void
golden_drop(json_t *gold, int k)
{
	size_t j;

	for (j = json_array_size(gold); j-- > 0; )
		if (k_get_int(json_array_get(gold, j), "case", -1) == k)
			json_array_remove(gold, j);
}

/* Every case with a reason whys[k] added to the cases skipped; when one
 * cannot be, the skips as they were and -1. */
static int
skip_listed(char (*whys)[512], int ncases)
{
	int k, before = case_skip_count();

	for (k = 0; k < ncases; k++)
		if (whys[k][0] != '\0' && case_skip_add(k) != 0) {
			case_skip_keep(before);
			return -1;
		}
	return 0;
}

/* The cases k with a reason whys[k] into verify.left_out with fault,
 * their golden entries dropped (they are skipped already). */
static void
record_left_out(struct ctx *c, int ncases, char (*whys)[512],
    const char *fault)
{
	json_t *gj = json_object_get(c->v, "golden"), *lo;
	json_t *cs = json_object_get(json_object_get(json_object_get(c->rec,
	    "wrap"), "spec"), "cases");
	int k;

	if ((lo = json_object_get(c->v, "left_out")) == NULL) {
		lo = json_array();
		json_object_set_new(c->v, "left_out", lo);
	}
	for (k = 0; k < ncases; k++) {
		if (whys[k][0] == '\0')
			continue;
		json_array_append_new(lo, json_pack("{s:i,s:O?,s:s,s:s}",
		    "case", k, "name", json_object_get(json_array_get(cs,
		    (size_t)k), "name"), "fault", fault, "message", whys[k]));
		golden_drop(gj, k);
	}
}

/*
 * A golden whose runs differ beyond any band only on some cases: those
 * cases, when case 0 is not one of them and fewer than half of the cases
 * are then left out, go into verify.left_out (fault "nondeterministic",
 * the first output that differed) and their golden entries are dropped,
 * as leave_out() does for a case the reference faults on.  A case whose
 * values reach an infinity or a NaN through a reordered sum, or a race
 * the other sizes never meet, tests nothing the others do not.  Returns
 * whether the cases left are deterministic.
 */
static int
drop_unreproducible(struct ctx *c, const struct unit *h,
    const struct unit *ref, struct run *gold, int ncases)
{
	json_t *gj = json_object_get(c->v, "golden");
	char why[512], (*whys)[512] = k_calloc((size_t)ncases + 1,
	    sizeof(*whys));
	int k, nbad = 0, det = 1, before;
	size_t i;

	for (k = 0; k < ncases; k++) {
		if (case_skipped(k))
			continue;
		for (i = 0; i < gold[k].nout; i++)
			if (unreproducible(gj, k, &gold[k].out[i], why,
			    sizeof(why)) != NULL) {
				snprintf(whys[k], sizeof(whys[k]), "%s", why);
				nbad++;
				break;
			}
	}
	if (nbad == 0 || whys[0][0] != '\0' ||
	    2 * (case_skip_count() + nbad) >= ncases) {
		free(whys);
		return 0;
	}
	before = case_skip_count();
	if (skip_listed(whys, ncases) != 0) {
		free(whys);
		return 0;
	}
	/* the cases kept */
	for (k = 0; k < ncases; k++)
		for (i = 0; !case_skipped(k) && i < gold[k].nout; i++)
			if (gold[k].out[i].spread != 0 ||
			    gold[k].out[i].order != 0)
				det = 0;
	/* cases that agreed by chance (a kernel that writes a clock)
	 * would not again: the kept ones must give the golden's outputs
	 * once more, in a process of their own */
	if (det && !confirmed(c, h, ref, gold, ncases)) {
		case_skip_keep(before);
		free(whys);
		return 0;
	}
	record_left_out(c, ncases, whys, "nondeterministic");
	free(whys);
	return det;
}

/* The cases with a reason in whys (nbad of them) left out with fault,
 * unless there are none, the first case kept is one, or half of the cases
 * or more would then be left out; frees whys. */
static void
leave_out_listed(struct ctx *c, int ncases, char (*whys)[512], int nbad,
    const char *fault)
{
	if (nbad > 0 && whys[first_case(ncases)][0] == '\0' &&
	    2 * (case_skip_count() + nbad) < ncases &&
	    skip_listed(whys, ncases) == 0)
		record_left_out(c, ncases, whys, fault);
	free(whys);
}

/*
 * Cases on which the reference leaves elements of a pure output unwritten
 * while the first case writes every one: those cases, when fewer than
 * half of the cases are then left out, go into verify.left_out (fault
 * "unwritten", the first such output) and their golden entries are
 * dropped, as leave_out() does for a case the reference faults on.  A
 * kernel's precondition that one generated case misses (a length that is
 * a multiple of its vector width) leaves part of the output undefined,
 * and such a case tests that part of nothing.  An output unwritten in
 * the first case, or in half of the cases, stays a verdict of its own.
 */
static void
drop_unwritten(struct ctx *c, int ncases)
{
	json_t *gj = json_object_get(c->v, "golden"), *g, *o;
	char (*whys)[512] = k_calloc((size_t)ncases + 1, sizeof(*whys));
	int k, nbad = 0;
	size_t i;

	for (k = 0; k < ncases; k++) {
		if (case_skipped(k) || (g = gold_case(gj, k)) == NULL)
			continue;
		json_array_foreach(json_object_get(g, "outputs"), i, o)
			if (k_get_int(o, "unwritten", 0) > 0) {
				snprintf(whys[k], sizeof(whys[k]), "output %s: "
				    "%lld of %lld elements never written",
				    k_get_str(o, "name") ? k_get_str(o, "name") :
				    "?", (long long)k_get_int(o, "unwritten", 0),
				    (long long)k_get_int(o, "count", 0));
				nbad++;
				break;
			}
	}
	leave_out_listed(c, ncases, whys, nbad, "unwritten");
}

/*
 * Cases on which the reference writes into a buffer that is an input only
 * (its checksum after the run is not the one before) while the first case
 * does not: those cases, when fewer than half of the cases are then left
 * out, go into verify.left_out (fault "modifies-inputs", the first such
 * input) and their golden entries are dropped, as leave_out() does for a
 * case the reference faults on.  A size one generated case gets wrong
 * (negative, past a bound the kernel assumes) sends stores past an output
 * into the input beside it: such a case tests nothing the others do not,
 * and a candidate held to it would fail for the reference's own fault.
 * Where the first case, or half of the cases, do it, the spec is wrong
 * about the kernel (an output smaller than the stores that reach it, or a
 * buffer it writes called an input): the outputs follow what the stores
 * did to the inputs they then read, and no golden is taken, as for a
 * reference that faults on the first case (reference-fault, fault kind
 * "modifies-inputs", the first such case and input).  Returns -1 then,
 * else 0.
 */
static int
drop_input_writes(struct ctx *c, const struct run *gold, int ncases)
{
	char (*whys)[512] = k_calloc((size_t)ncases + 1, sizeof(*whys));
	char msg[640];
	int k, nbad = 0, first = -1, left;
	size_t j;
	json_t *f;

	for (k = 0; k < ncases; k++) {
		if (case_skipped(k))
			continue;
		for (j = 0; j < gold[k].nin; j++)
			if (input_written(&gold[k], j) == 1) {
				snprintf(whys[k], sizeof(whys[k]), "input %s: "
				    "the reference wrote into it",
				    gold[k].in[j].name);
				if (first < 0)
					first = k;
				nbad++;
				break;
			}
	}
	if (nbad == 0) {
		free(whys);
		return 0;
	}
	snprintf(msg, sizeof(msg), "%s (the spec calls it an input; case %d%s)",
	    whys[first], first, nbad > 1 ? " and others" : "");
	left = case_skip_count();
	leave_out_listed(c, ncases, whys, nbad, "modifies-inputs");
	if (case_skip_count() > left)
		return 0;
	f = json_object();
	json_object_set_new(f, "kind", json_string("modifies-inputs"));
	json_object_set_new(f, "role", json_string("reference"));
	json_object_set_new(f, "case", json_integer(first));
	json_object_set_new(f, "exit", json_integer(0));
	json_object_set_new(f, "signal", json_null());
	json_object_set_new(f, "message", json_string(msg));
	json_object_set_new(f, "tail", json_string(""));
	json_object_set_new(c->v, "fault", f);
	json_array_clear(json_object_get(c->v, "golden"));
	k_fail(c->rec, STAGE, "reference-fault", "%s: reference, case %d: "
	    "modifies-inputs: %s: the outputs follow what it did to the inputs, "
	    "and no golden is taken", k_id_text(c->rec), first, msg);
	return -1;
}

/* Every case of the reference in a process of its own, its run directory
 * named tag, pure outputs pre-filled with sentinel (0: the harness's own
 * byte), into b; run_batch's return. */
static int
fresh_batch(struct ctx *c, const struct unit *h, const struct unit *ref,
    const char *tag, int sentinel, int ncases, struct run *b)
{
	char dir[PATH_MAX + 64];
	int rc;

	dir_for(c, tag, -1, dir, sizeof(dir));
	run_fresh = 1;
	run_sentinel = sentinel;
	rc = run_batch(c->w, h->path, ref->path, ref->symbol, dir, ncases, 0,
	    b);
	run_sentinel = 0;
	run_fresh = 0;
	return rc;
}

/* Whether batch b's outputs on every case are, byte for byte, those of
 * want (a run per case, or with wantb a batch). */
static int
same_outputs(struct run *b, const struct run *want, struct run *wantb,
    int ncases)
{
	struct run r, w;
	size_t i;
	int k, same = 1;

	for (k = 0; k < ncases && same; k++) {
		const struct run *x = &w;
		if (case_skipped(k))
			continue;
		memset(&w, 0, sizeof(w));
		if (wantb != NULL)
			batch_case(wantb, k, &w);
		else
			x = &want[k];
		batch_case(b, k, &r);
		same = r.ok && x->ok && r.nout == x->nout;
		for (i = 0; same && i < x->nout; i++) {
			const struct buf *o = out_named(&r, x->out[i].name);
			same = o != NULL && o->len == x->out[i].len &&
			    memcmp(o->data, x->out[i].data, o->len) == 0;
		}
		run_free(&r);
		if (wantb != NULL)
			run_free(&w);
	}
	return same;
}

/*
 * Every case not left out once more in a process of its own, tag its run
 * directory, pure outputs pre-filled with sentinel, logged with mode:
 * whether it gives the outputs of want (a run per case) or of wantb (a
 * batch) byte for byte.
 */
static int
again_same(struct ctx *c, const struct unit *h, const struct unit *ref,
    const char *tag, int sentinel, const char *mode, const struct run *want,
    struct run *wantb, int ncases)
{
	struct run b;
	int same;

	if (fresh_batch(c, h, ref, tag, sentinel, ncases, &b) != 0)
		return 0;
	log_run(c->runs, "reference", -1, mode, &b);
	same = same_outputs(&b, want, wantb, ncases);
	run_free(&b);
	return same;
}

/* The cases kept, once more with the golden's sentinel (runs mode
 * "confirm"): whether they give the golden's outputs.  The elements that
 * move in it join the golden's unstable maps. */
static int
confirmed(struct ctx *c, const struct unit *h, const struct unit *ref,
    struct run *gold, int ncases)
{
	struct run b, r;
	size_t i;
	int k, same;

	if (fresh_batch(c, h, ref, "ref5", 0, ncases, &b) != 0)
		return 0;
	log_run(c->runs, "reference", -1, "confirm", &b);
	same = same_outputs(&b, gold, NULL, ncases);
	for (k = 0; k < ncases && !same; k++) {
		if (case_skipped(k))
			continue;
		if (!batch_case(&b, k, &r) || !r.ok) {
			run_free(&r);
			continue;
		}
		for (i = 0; i < gold[k].nout; i++) {
			const struct buf *o = out_named(&r,
			    gold[k].out[i].name);
			if (o != NULL && o->len == gold[k].out[i].len &&
			    memcmp(o->data, gold[k].out[i].data, o->len) != 0)
				unstable_elements(&gold[k].out[i], o->data,
				    o->len);
		}
		run_free(&r);
	}
	run_free(&b);
	return same;
}

/*
 * A golden whose repeat differs from it, while neither differed within
 * its own timed launches: two more runs, each in a process of its own,
 * one with the golden's sentinel and one with the repeat's.  When the
 * first gives the golden's outputs and the second the repeat's, the
 * outputs follow the byte the harness fills memory with before each
 * launch (pure outputs, shared memory): the kernel reads memory it did
 * not write, or its spec calls a buffer it reads an output.  Not a race,
 * and not a golden either.
 */
static int
follows_sentinel(struct ctx *c, const struct unit *h, const struct unit *ref,
    const struct run *gold_runs, struct run *repeat, int ncases)
{
	return again_same(c, h, ref, "ref3", 0, "sentinel", gold_runs, NULL,
	    ncases) && again_same(c, h, ref, "ref4", SENTINEL2, "sentinel",
	    NULL, repeat, ncases);
}

/*
 * An output masked on the elements two or three runs moved holds still
 * elsewhere only if further runs move nothing new: a kernel that reads
 * memory nothing wrote, or races over more places than a few runs show,
 * moves other elements every time, and a correct candidate would fail
 * on them.  Where some output moved elements (a mask to come), the
 * reference runs MASK_RUNS more times, each in a process of its own
 * (runs mode "mask"); an output one of them moves at an element its map
 * does not hold is not masked (nomask), in any case.
 */
/* Whether some output of a case kept moved elements and may still be
 * masked. */
static int
unsettled(const struct run *gold, int ncases)
{
	size_t i;
	int k;

	for (k = 0; k < ncases; k++)
		for (i = 0; !case_skipped(k) && i < gold[k].nout; i++)
			if (gold[k].out[i].nunstable > 0 &&
			    !gold[k].out[i].nomask)
				return 1;
	return 0;
}

static void
mask_settled(struct ctx *c, const struct unit *h, const struct unit *ref,
    struct run *gold, int ncases)
{
	struct run b, r;
	size_t i;
	int k, n;

	for (n = 0; n < MASK_RUNS && unsettled(gold, ncases); n++) {
		if (fresh_batch(c, h, ref, "ref6", 0, ncases, &b) != 0)
			return;
		log_run(c->runs, "reference", -1, "mask", &b);
		for (k = 0; k < ncases; k++) {
			if (case_skipped(k))
				continue;
			if (!batch_case(&b, k, &r) || !r.ok) {
				/* a run that fails proves nothing settled */
				for (i = 0; i < gold[k].nout; i++)
					gold[k].out[i].nomask = 1;
				run_free(&r);
				continue;
			}
			for (i = 0; i < gold[k].nout; i++) {
				struct buf *g = &gold[k].out[i];
				const struct buf *o = out_named(&r, g->name);
				long long before = g->nunstable;
				if (o == NULL || o->len != g->len) {
					g->nomask = 1;
					continue;
				}
				if (memcmp(o->data, g->data, o->len) == 0)
					continue;
				unstable_elements(g, o->data, o->len);
				if (g->nunstable > before)
					g->nomask = 1;
			}
			run_free(&r);
		}
		run_free(&b);
	}
}

/* The golden runs; returns the number of cases, -1 when the record is done
 * (an error or fault is recorded). */
int
golden(struct ctx *c, const struct unit *h, const struct unit *ref,
    struct run **gold_out)
{
	struct run r, r2, batch, batch2;
	char dir[PATH_MAX + 64];
	json_t *gold = json_array(), *degen = json_array();
	int ncases, k, det = 1, rc, sent2, within = 1;
	size_t i, j;
	struct run *gold_runs;

	json_object_set_new(c->v, "golden", gold);
	json_object_set_new(c->v, "degenerate", degen);
	dir_for(c, "cases", 0, dir, sizeof(dir));
	if (run_harness(c->w, h->path, NULL, NULL, dir, 0, 0, NULL,
	    opt.timeout, &r) != 0) {
		k_fail(c->rec, STAGE, "harness", "%s: cannot run harness: %s",
		    k_id_text(c->rec), strerror(errno));
		return -1;
	}
	log_run(c->runs, "harness", -1, "cases", &r);
	if (!r.ok && says_no_device(&r)) {
		mark_no_device(c, &r);
		run_free(&r);
		return -1;
	}
	ncases = -1;
	if (r.ok) {
		/* the harness prints the count alone on a line */
		char text[32];
		long long v;
		snprintf(text, sizeof(text), "%s", json_string_value(r.tail));
		text[strcspn(text, "\r\n")] = '\0';
		if (k_num_ll(text, 10, 1, MAX_CASES, &v) == 0)
			ncases = (int)v;
	}
	if (!r.ok || ncases < 1 || ncases > MAX_CASES) {
		json_object_set_new(c->v, "fault", fault_json("harness", -1,
		    &r));
		k_fail(c->rec, STAGE, "harness", "%s: harness --cases failed: %s",
		    k_id_text(c->rec), r.ok ? "not a case count" : r.msg);
		run_free(&r);
		return -1;
	}
	run_free(&r);
	json_object_set_new(c->v, "cases", json_integer(ncases));
	gold_runs = k_calloc((size_t)ncases, sizeof(*gold_runs));
	c->ngold = ncases;
	*gold_out = gold_runs;
	/* every case in one process; a case other than case 0 that the
	 * reference faults on is left out, and the batch runs again */
	for (;;) {
		dir_for(c, "ref", -1, dir, sizeof(dir));
		if (run_batch(c->w, h->path, ref->path, ref->symbol, dir,
		    ncases, CHECK_REPS, &batch) != 0) {
			k_fail(c->rec, STAGE, "harness", "%s: cannot run "
			    "harness: %s", k_id_text(c->rec), strerror(errno));
			return -1;
		}
		log_run(c->runs, "reference", -1, "check", &batch);
		if (!leave_out(c, &batch, ncases))
			break;
		run_free(&batch);
	}
	c->ref_seconds = batch.p.seconds;
	for (k = 0; k < ncases; k++) {
		struct run *g = &gold_runs[k];
		json_t *gc, *outs;

		if (case_skipped(k))
			continue;
		batch_case(&batch, k, g);
		if (!g->ok) {
			if (says_no_device(g)) {
				run_free(&batch);
				return mark_no_device(c, g);
			}
			json_object_set_new(c->v, "fault",
			    fault_json("reference", k, g));
			k_fail(c->rec, STAGE, "reference-fault", "%s: reference, case "
			    "%d: %s: %s", k_id_text(c->rec), k, g->fault, g->msg);
			run_free(&batch);
			return -1;
		}
		if (g->timed_match == 0)
			det = within = 0;
		gc = json_object();
		outs = json_array();
		json_object_set_new(gc, "case", json_integer(k));
		json_object_set_new(gc, "outputs", outs);
		json_array_append_new(gold, gc);
		/* what a later run needs to take this golden again
		 * (reuse.c): the inputs' checksums, the case's time */
		{
			json_t *ins = json_array();
			for (j = 0; j < g->nin; j++)
				json_array_append_new(ins, json_pack(
				    "{s:s,s:I,s:s}", "name", g->in[j].name,
				    "bytes", (json_int_t)g->in[j].len,
				    "checksum", g->in[j].checksum));
			json_object_set_new(gc, "inputs", ins);
			if (g->ntimes > 0) {
				struct samples one = { NULL, 0, 0 };
				double m;
				samples_add(&one, g->times, g->ntimes);
				m = median_of(one.v, one.n);
				free(one.v);
				if (isfinite(m))
					json_object_set_new(gc, "ms",
					    jround(m, 1e-6));
			}
		}
		for (i = 0; i < g->nout; i++) {
			struct buf *b = &g->out[i];
			char hex[K_SHA256_HEX];
			json_t *o = json_object();
			const char *why = NULL;
			if (store_blob(b->data, b->len, hex) != 0) {
				json_decref(o);
				k_fail(c->rec, STAGE, "work-dir", "%s: cannot store a "
				    "golden output in %s/blobs: %s",
				    k_id_text(c->rec), opt.work, strerror(errno));
				run_free(&batch);
				return -1;
			}
			json_object_set_new(o, "name", json_string(b->name));
			json_object_set_new(o, "type", json_string(b->type));
			json_object_set_new(o, "count", json_integer(b->count));
			json_object_set_new(o, "bytes",
			    json_integer((json_int_t)b->len));
			json_object_set_new(o, "hash", json_string(hex));
			/* a pure output starts as the sentinel; an inout
			 * buffer starts as its input */
			json_object_set_new(o, "unwritten", json_integer(
			    pure_output(g, i) ? unwritten(b) : 0));
			json_array_append_new(outs, o);
			b->spread = 0;
			b->order = b->unordered = 0;
			if (b->timed != NULL && i < gold_runs[0].nout) {
				det = within = 0;
				observe(gold, k, i, b, b->timed, b->timed_len);
			}

			/* an output of 0 elements in this case (a size of
			 * 0, kwrap's size_edge) holds nothing to judge:
			 * the other cases carry the data */
			if (b->len == 0)
				why = "empty";
			else if (all_bytes(b->data, b->len, SENTINEL))
				why = "sentinel";
			else if (all_bytes(b->data, b->len, 0))
				why = "all-zero";
			else if (constant(b))
				why = "constant";
			if (why != NULL) {
				json_t *d = json_object();
				json_object_set_new(d, "case", json_integer(k));
				json_object_set_new(d, "output",
				    json_string(b->name));
				json_object_set_new(d, "reason",
				    json_string(why));
				if (strcmp(why, "sentinel") != 0 &&
				    strcmp(why, "empty") != 0)
					json_object_set_new(d, "value",
					    element_hex(b));
				json_array_append_new(degen, d);
			}
			for (j = 0; j < g->nin; j++) {
				json_t *d;
				if (strcmp(g->in[j].name, b->name) == 0 ||
				    g->in[j].len != b->len || b->len == 0 ||
				    memcmp(g->in[j].data, b->data, b->len) != 0)
					continue;
				d = json_object();
				json_object_set_new(d, "case", json_integer(k));
				json_object_set_new(d, "output",
				    json_string(b->name));
				json_object_set_new(d, "reason", json_sprintf(
				    "equals-input:%s", g->in[j].name));
				json_array_append_new(degen, d);
			}
		}
	}
	run_free(&batch);

	/* every case again, in a fresh process even where the record has a
	 * serving harness: outputs that depend on what a process left behind
	 * (device memory read before it is written, state of an earlier
	 * run) differ across processes, and a repeat in the first run's
	 * process would hide it or fault on it */
	rc = fresh_batch(c, h, ref, "ref2", SENTINEL2, ncases, &batch2);
	sent2 = 1;
	if (rc == 0 && batch2.p.exited && batch2.p.status == 2) {
		/* bad usage: a harness from before --sentinel, when its
		 * first case did not run; then with the one sentinel */
		memset(&r2, 0, sizeof(r2));
		if (batch_case(&batch2, first_case(ncases), &r2) && !r2.ok) {
			run_free(&batch2);
			sent2 = 0;
			rc = fresh_batch(c, h, ref, "ref2", 0, ncases,
			    &batch2);
		}
		run_free(&r2);
	}
	if (rc != 0) {
		k_fail(c->rec, STAGE, "harness", "%s: cannot run harness: %s",
		    k_id_text(c->rec), strerror(errno));
		return -1;
	}
	/* a case other than case 0 that faults in the repeat alone (a
	 * fault that follows what memory held) is left out as one that
	 * faults in the first run is: its golden entry goes, and the
	 * repeat runs again without it */
	while (leave_out(c, &batch2, ncases)) {
		json_t *lo = json_object_get(c->v, "left_out");
		int lk = (int)k_get_int(json_array_get(lo,
		    json_array_size(lo) - 1), "case", -1);
		golden_drop(gold, lk);
		log_run(c->runs, "reference", -1, "repeat", &batch2);
		run_free(&batch2);
		if (fresh_batch(c, h, ref, "ref2", sent2 ? SENTINEL2 : 0,
		    ncases, &batch2) != 0) {
			k_fail(c->rec, STAGE, "harness", "%s: cannot run "
			    "harness: %s", k_id_text(c->rec), strerror(errno));
			return -1;
		}
	}
	log_run(c->runs, "reference", -1, "repeat", &batch2);
	for (k = 0; k < ncases; k++) {
		struct run *g = &gold_runs[k];

		if (case_skipped(k))
			continue;
		batch_case(&batch2, k, &r2);
		if (!r2.ok) {
			json_object_set_new(c->v, "fault",
			    fault_json("reference", k, &r2));
			k_fail(c->rec, STAGE, "reference-fault", "%s: reference, case "
			    "%d, second run: %s: %s", k_id_text(c->rec), k,
			    r2.fault, r2.msg);
			run_free(&r2);
			run_free(&batch2);
			return -1;
		}
		for (i = 0; i < g->nout; i++) {
			struct buf *b2 = out_named(&r2, g->out[i].name);
			unsigned char *same = NULL;
			if (b2 != NULL && b2->len == g->out[i].len && sent2 &&
			    pure_output(g, i))
				same = unwritten_pair(gold, k, i, &g->out[i], b2);
			if (b2 != NULL && b2->len == g->out[i].len &&
			    memcmp(same != NULL ? same : b2->data,
			    g->out[i].data, b2->len) == 0) {
				free(same);
				continue;
			}
			det = 0;
			if (i < gold_runs[0].nout)
				observe(gold, k, i, &g->out[i], b2 != NULL ?
				    (same != NULL ? same : b2->data) : NULL,
				    b2 != NULL ? b2->len : 0);
			free(same);
		}
		run_free(&r2);
	}
	/* outputs that differ only between the two sentinels' runs, never
	 * within one: are they the sentinel's doing? */
	if (!det && within && sent2)
		json_object_set_new(c->v, "reads_unwritten", json_boolean(
		    follows_sentinel(c, h, ref, gold_runs, &batch2, ncases)));
	run_free(&batch2);
	if (!det && !json_is_true(json_object_get(c->v, "reads_unwritten")))
		det = drop_unreproducible(c, h, ref, gold_runs, ncases);
	if (sent2)
		drop_unwritten(c, ncases);
	if (drop_input_writes(c, gold_runs, ncases) != 0)
		return -1;
	json_object_set_new(c->v, "deterministic", json_boolean(det));
	if (!det && !json_is_true(json_object_get(c->v, "reads_unwritten")))
		mask_settled(c, h, ref, gold_runs, ncases);
	tolerance(c, gold_runs, ncases);
	{
		char key[K_SHA256_HEX];
		golden_key(c->rec, key);
		json_object_set_new(c->v, "golden_key", json_string(key));
		json_object_set_new(c->v, "golden_reused", json_false());
	}
	return ncases;
}

/*
 * The CPU reference compiled into the harness (wrap.harness.oracle), run
 * on every case's inputs and compared with the reference kernel's golden
 * outputs: an independent check of the task itself.  Sets verify.oracle;
 * a disagreement does not fail the record (either side may be wrong) but
 * is reported, and kreport stops counting the golden as trusted.
 */
void
oracle(struct ctx *c, const struct unit *h, const struct unit *ref,
    struct run *gold, int ncases)
{
	json_t *o = json_object(), *bad = json_array();
	char dir[PATH_MAX + 64];
	const char *status = "agree";
	struct run r, batch;
	size_t i;
	int k, checked = 0;

	json_object_set_new(c->v, "oracle", o);
	dir_for(c, "oracle", -1, dir, sizeof(dir));
	if (run_batch(c->w, h->path, ref->path, ref->symbol, dir, ncases,
	    ORACLE_RUN, &batch) != 0) {
		json_object_set_new(o, "message", json_sprintf("cannot "
		    "run harness: %s", strerror(errno)));
		status = "error";
		ncases = 0;
	} else
		log_run(c->runs, "oracle", -1, "oracle", &batch);
	for (k = 0; k < ncases && strcmp(status, "error") != 0; k++) {
		if (case_skipped(k))
			continue;
		batch_case(&batch, k, &r);
		if (!r.ok) {
			json_object_set_new(o, "message", json_sprintf("case "
			    "%d: %s: %s", k, r.fault, r.msg));
			json_object_set_new(o, "fault", fault_json("oracle", k,
			    &r));
			status = "error";
			run_free(&r);
			break;
		}
		checked++;
		for (i = 0; i < gold[k].nout; i++) {
			const struct buf *g = &gold[k].out[i];
			const struct buf *w = out_named(&r, g->name);
			struct cmp m;
			if (w == NULL || w->len != g->len) {
				json_array_append_new(bad, json_pack(
				    "{s:i,s:s,s:s}", "case", k, "output",
				    g->name, "reason", w == NULL ? "missing" :
				    "size"));
				status = "disagree";
				continue;
			}
			compare(w, g, band_atol(g), opt.rtol, &m);
			if (m.mismatches == 0)
				continue;
			status = "disagree";
			json_array_append_new(bad, json_pack(
			    "{s:i,s:s,s:s,s:I,s:I,s:o}", "case", k, "output",
			    g->name, "reason", "values", "mismatches",
			    (json_int_t)m.mismatches, "first",
			    (json_int_t)m.first, "max_abs_err",
			    jnum(m.max_abs)));
		}
		run_free(&r);
	}
	if (ncases > 0)
		run_free(&batch);
	json_object_set_new(o, "status", json_string(status));
	json_object_set_new(o, "cases", json_integer(checked));
	json_object_set_new(o, "mismatches", bad);
	if (strcmp(status, "agree") != 0)
		k_warn(K_EXIT_OK, k_id_borrowed(c->rec), "the CPU reference %s",
		    strcmp(status, "error") == 0 ? "failed to run" :
		    "disagrees with the reference kernel");
}
