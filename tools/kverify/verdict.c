/*
 * The verdict on a record's golden outputs: verify.verified says whether
 * the record is a verified task, and if not the first check it failed, in
 * the order the funnel counts them: a golden at all, deterministic or
 * different between runs only within a tolerance band, no clock read
 * (a kernel that reads one can pass the repeat by chance), clean
 * under compute-sanitizer memcheck on case 0, every output element
 * written, no output degenerate in every case, the CPU reference (where
 * there is one) not disagreeing.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "kverify.h"

/* The message of this stage's last error on rec, without the id that
 * k_fail puts first (borrowed; "" when none). */
static const char *
last_error(json_t *rec, const char **code)
{
	json_t *errs = json_object_get(rec, "errors"), *e;
	const char *m = "", *id = k_id_text(rec);
	size_t i, l = strlen(id);

	*code = "no-golden";
	json_array_foreach(errs, i, e) {
		const char *st = k_get_str(e, "stage");
		if (st == NULL || strcmp(st, STAGE) != 0)
			continue;
		*code = k_get_str(e, "code") != NULL ? k_get_str(e, "code") :
		    "no-golden";
		m = k_get_str(e, "message") != NULL ? k_get_str(e,
		    "message") : "";
	}
	if (strncmp(m, id, l) == 0 && strncmp(m + l, ": ", 2) == 0)
		m += l + 2;
	return m;
}

/*
 * Whether the slice's code reads a clock: a call of clock() or clock64()
 * (__clock64 too), or %clock, %clock64 or %globaltimer named in inline
 * PTX; comments are skipped.  Such a kernel's outputs can follow when and
 * how fast it ran (an elapsed count, a spin until a time), whatever two
 * runs of the golden showed; what it read goes into why.
 */
static int
reads_clock(json_t *rec, char *why, size_t len)
{
	const char *s = k_get_str(json_object_get(rec, "slice"), "code"), *p;
	static const char *const regs[] = { "%clock64", "%clock",
	    "%globaltimer", NULL };
	int i;

	for (p = s; p != NULL && *p != '\0'; ) {
		if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
			continue;
		}
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e != NULL ? e + 2 : p + strlen(p);
			continue;
		}
		if (*p == '"') {
			/* a string: inline PTX's registers */
			const char *e = p + 1;
			while (*e != '\0' && *e != '"' && *e != '\n')
				e += *e == '\\' && e[1] != '\0' ? 2 : 1;
			for (i = 0; regs[i] != NULL; i++) {
				const char *r = p;
				size_t l = strlen(regs[i]);
				while ((r = strstr(r, regs[i])) != NULL && r < e) {
					if (!isalnum((unsigned char)r[l]) &&
					    r[l] != '_') {
						snprintf(why, len, "the kernel "
						    "reads %s in inline PTX: its "
						    "outputs can follow when and "
						    "how fast it ran", regs[i]);
						return 1;
					}
					r += l;
				}
			}
			p = *e == '"' ? e + 1 : e;
			continue;
		}
		if (isalpha((unsigned char)*p) || *p == '_') {
			const char *e = p, *q;
			size_t l;
			while (isalnum((unsigned char)*e) || *e == '_')
				e++;
			l = (size_t)(e - p);
			for (q = e; *q == ' ' || *q == '\t' || *q == '\n'; q++)
				;
			if (*q == '(' && ((l == 5 && strncmp(p, "clock", 5) ==
			    0) || (l == 7 && strncmp(p, "clock64", 7) == 0) ||
			    (l == 9 && strncmp(p, "__clock64", 9) == 0)) &&
			    (p == s || (p[-1] != '.' && p[-1] != '>' &&
			    p[-1] != ':'))) {
				snprintf(why, len, "the kernel calls %.*s(): its "
				    "outputs can follow when and how fast it "
				    "ran", (int)l, p);
				return 1;
			}
			p = e;
			continue;
		}
		p++;
	}
	return 0;
}

/* Whether memcheck ran clean; else why not, in why. */
static int
memcheck_clean(json_t *v, char *why, size_t len)
{
	json_t *san = json_object_get(v, "sanitize");
	json_t *mc = json_object_get(san, "memcheck");
	json_t *errors = json_object_get(mc, "errors");
	json_t *exit_ = json_object_get(mc, "exit");

	if (!json_is_object(mc)) {
		const char *note = k_get_str(san, "note");
		snprintf(why, len, "not run: %s", note != NULL ? note :
		    "compute-sanitizer not found");
		return 0;
	}
	if (json_is_integer(errors) && json_integer_value(errors) > 0) {
		const char *first = json_string_value(json_array_get(
		    json_object_get(mc, "messages"), 0));
		snprintf(why, len, "%lld error%s on case 0%s%s",
		    (long long)json_integer_value(errors),
		    json_integer_value(errors) == 1 ? "" : "s",
		    first != NULL ? ": " : "", first != NULL ? first : "");
		return 0;
	}
	if (json_is_true(json_object_get(mc, "timed_out"))) {
		snprintf(why, len, "case 0 did not finish under memcheck");
		return 0;
	}
	if (!json_is_integer(errors)) {
		const char *note = k_get_str(mc, "note");
		snprintf(why, len, "no error summary from compute-sanitizer%s%s",
		    note != NULL ? ": " : "", note != NULL ? note : "");
		return 0;
	}
	if (!json_is_integer(exit_) || json_integer_value(exit_) != 0) {
		if (json_is_integer(exit_))
			snprintf(why, len, "case 0 under memcheck: harness "
			    "exited %lld", (long long)json_integer_value(exit_));
		else
			snprintf(why, len, "case 0 under memcheck: harness "
			    "killed by a signal");
		return 0;
	}
	return 1;
}

/* Whether case 0's golden has an output at all: a harness without one
 * (a kernel that writes nothing the spec names, a parameter the spec
 * could not model) observes nothing, and any candidate would match it. */
static int
has_outputs(json_t *v, char *why, size_t len)
{
	json_t *g0 = json_array_get(json_object_get(v, "golden"), 0);

	if (json_array_size(json_object_get(g0, "outputs")) > 0)
		return 1;
	snprintf(why, len, "the harness has no output buffer: nothing the "
	    "kernel computes is observed, so any candidate would match");
	return 0;
}

/* The first output with elements never written; 0 when none. */
static int
all_written(json_t *v, char *why, size_t len)
{
	json_t *gc, *o;
	size_t i, j;

	json_array_foreach(json_object_get(v, "golden"), i, gc) {
		json_array_foreach(json_object_get(gc, "outputs"), j, o) {
			json_int_t n = k_get_int(o, "unwritten", 0);
			if (n <= 0)
				continue;
			snprintf(why, len, "output %s, case %lld: %lld of %lld "
			    "elements still hold the sentinel",
			    k_get_str(o, "name"),
			    (long long)k_get_int(gc, "case", 0), (long long)n,
			    (long long)k_get_int(o, "count", 0));
			return 0;
		}
	}
	return 1;
}

/* An output that is degenerate in every case proves nothing: a candidate
 * that matches it need not compute it.  One that is a repeated value in
 * every case (a fill) still tests the kernel when the value differs
 * between cases: it depends on the inputs.  A case where the output has
 * 0 elements ("empty": a size of 0) is neither: it shows nothing about
 * the output, so the output is judged on the cases where it has
 * elements, and is degenerate when it has none in any case. */
static int
not_degenerate(json_t *v, int ncases, char *why, size_t len)
{
	json_t *dg = json_object_get(v, "degenerate");
	json_t *outs = json_object_get(json_array_get(json_object_get(v,
	    "golden"), 0), "outputs"), *o, *d;
	size_t i, j;

	json_array_foreach(outs, i, o) {
		const char *name = k_get_str(o, "name"), *reason = NULL;
		const char *value = NULL;
		json_int_t last = -1;
		int n = 0, fixed = 0, varies = 0, empty = 0;
		json_array_foreach(dg, j, d) {
			const char *dn = k_get_str(d, "output");
			const char *dv = k_get_str(d, "value");
			json_int_t k = k_get_int(d, "case", -1);
			if (name == NULL || dn == NULL || strcmp(dn, name) != 0)
				continue;
			if (k_get_str(d, "reason") != NULL &&
			    strcmp(k_get_str(d, "reason"), "empty") == 0) {
				empty += k != last;
				last = k;
				continue;
			}
			if (k != last)
				n++;
			last = k;
			if (reason == NULL)
				reason = k_get_str(d, "reason");
			/* a sentinel or a copied input is degenerate
			 * whatever its value */
			if (dv == NULL)
				fixed = 1;
			else if (value == NULL)
				value = dv;
			else if (strcmp(value, dv) != 0)
				varies = 1;
		}
		if (n + empty >= ncases && n > 0 && !fixed && varies)
			continue;
		if (n + empty >= ncases) {
			snprintf(why, len, "output %s is degenerate in every "
			    "case (%s)", name, reason != NULL ? reason : n == 0 ?
			    "empty" : "?");
			return 0;
		}
	}
	return 1;
}

/*
 * A reference whose outputs differ between runs is still a task when
 * every output that differed did so within a band (verify.tolerance):
 * rounding of a reordered float reduction; only in the order of its
 * elements (unordered); or on at most MASK_MAX of its elements, the
 * others judged (masked).  An integer output that differs otherwise, a
 * NaN that moves, or a spread too large for rounding is not.
 */
static int
banded(json_t *v, char *why, size_t len)
{
	json_t *o;
	size_t i;
	int any = 0;

	json_array_foreach(json_object_get(json_object_get(v, "tolerance"),
	    "outputs"), i, o) {
		const char *u = k_get_str(o, "unbanded");
		any |= json_is_true(json_object_get(o, "banded")) ||
		    json_is_true(json_object_get(o, "unordered")) ||
		    json_is_true(json_object_get(o, "masked"));
		if (u == NULL)
			continue;
		if (strcmp(u, "too-large") == 0)
			snprintf(why, len, "output %s differs between the "
			    "reference's runs by %g, more than rounding (over "
			    "%g%% of its largest magnitude)",
			    k_get_str(o, "name"), json_number_value(
			    json_object_get(o, "spread")), 100 * SPREAD_RACE);
		else if (json_is_object(json_object_get(o, "difference"))) {
			json_t *d = json_object_get(o, "difference");
			const char *kind = k_get_str(d, "kind");
			char where[64];
			if (strcmp(kind, "size") == 0)
				snprintf(where, sizeof(where), "case %lld",
				    (long long)k_get_int(d, "case", -1));
			else
				snprintf(where, sizeof(where), "element %lld "
				    "of case %lld", (long long)k_get_int(d,
				    "element", -1), (long long)k_get_int(d,
				    "case", -1));
			snprintf(why, len, "output %s differs between the "
			    "reference's runs where no tolerance band applies "
			    "(%s): in %s it is %s in one run and %s in another",
			    k_get_str(o, "name"),
			    strcmp(kind, "size") == 0 ? "its size" :
			    strcmp(kind, "nan") == 0 ? "a NaN that moves" :
			    strcmp(kind, "infinity") == 0 ?
			    "an infinity that moves" : "integer elements",
			    where, k_get_str(d, "golden"), k_get_str(d, "other"));
		} else
			snprintf(why, len, "output %s differs between the "
			    "reference's runs where no tolerance band applies "
			    "(integer elements, a NaN or infinity that moves, "
			    "or its size)", k_get_str(o, "name"));
		return 0;
	}
	if (!any)
		/* told apart by a byte compare, not measured in a band */
		snprintf(why, len, "the reference's outputs differ between "
		    "runs");
	return any;
}

void
verdict(struct ctx *c, int ncases)
{
	json_t *ver = json_object();
	char why[768];
	const char *reason = NULL, *code;

	why[0] = '\0';
	if (ncases <= 0) {
		const char *m = last_error(c->rec, &code);
		reason = code;
		snprintf(why, sizeof(why), "%s", m);
	} else if (json_is_true(json_object_get(c->v, "reads_unwritten"))) {
		reason = "reads-unwritten";
		snprintf(why, sizeof(why), "the outputs follow the byte the "
		    "harness fills pure outputs and shared memory with before "
		    "a launch (the same again with the golden's, the repeat's "
		    "with the repeat's): the kernel reads memory it did not "
		    "write, or a buffer it reads is specified as a pure output");
	} else if (!json_is_true(json_object_get(c->v, "deterministic")) &&
	    !banded(c->v, why, sizeof(why)))
		reason = "nondeterministic";
	else if (reads_clock(c->rec, why, sizeof(why)))
		reason = "clock";
	else if (opt.memcheck && !memcheck_clean(c->v, why, sizeof(why)))
		reason = "memcheck";
	else if (!has_outputs(c->v, why, sizeof(why)))
		reason = "no-outputs";
	else if (!all_written(c->v, why, sizeof(why)))
		reason = "unwritten";
	else if (!not_degenerate(c->v, ncases - case_skip_count(), why,
	    sizeof(why)))
		reason = "degenerate";
	else if (strcmp(k_get_str(json_object_get(c->v, "oracle"), "status") ?
	    k_get_str(json_object_get(c->v, "oracle"), "status") : "agree",
	    "disagree") == 0) {
		reason = "oracle";
		snprintf(why, sizeof(why), "the CPU reference disagrees with "
		    "the reference kernel");
	}
	json_object_set_new(ver, "value", json_boolean(reason == NULL));
	json_object_set_new(ver, "reason", reason != NULL ?
	    json_string(reason) : json_null());
	json_object_set_new(ver, "detail", reason != NULL ?
	    k_string_lossy(why, strlen(why)) : json_null());
	json_object_set_new(ver, "memcheck", json_boolean(opt.memcheck));
	json_object_set_new(c->v, "verified", ver);
}
