/*
 * One record: the built units it names, its scratch directory, the
 * stages run in order, and its verify section.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kverify.h"

/* The artifact of build.<role> when it was built ok: 1, else 0. */
int
unit_of(json_t *build, const char *role, struct unit *u, int *runnable)
{
	json_t *b = json_object_get(build, role);
	const char *key = k_get_str(b, "artifact");
	const char *file = k_get_str(b, "file");

	*runnable = json_is_true(json_object_get(b, "runnable"));
	u->symbol = k_get_str(b, "symbol");
	/* the record names a work-directory entry: only kbuild's shapes
	 * (a sha256 key and one of its file names), so that no record can
	 * point kverify at a path of its choosing */
	if (!json_is_true(json_object_get(b, "ok")) || key == NULL ||
	    file == NULL || strlen(key) != 64 ||
	    strspn(key, "0123456789abcdef") != 64 ||
	    (strcmp(file, "module.cubin") != 0 &&
	    strcmp(file, "module.hsaco") != 0 &&
	    strcmp(file, "harness") != 0))
		return 0;
	snprintf(u->path, sizeof(u->path), "%s/build/%.2s/%s/%s", opt.work,
	    key, key, file);
	return 1;
}

void
dir_for(struct ctx *c, const char *what, int kcase, char *out, size_t len)
{
	snprintf(out, len, "%s/%02d-%s-%d", c->tmp, c->seq++, what, kcase);
}

int
mark_no_device(struct ctx *c, const struct run *r)
{
	const char *t = json_string_value(r->tail);

	pthread_mutex_lock(&msg_lock);
	if (!no_device) {
		const char *p = NULL;
		no_device = 1;
		/* from the reason on: no machine's paths in records */
		if (t != NULL && (p = strstr(t, "error while loading")) == NULL)
			p = strstr(t, "kw_init()");
		snprintf(no_device_msg, sizeof(no_device_msg), "%s",
		    p != NULL ? p : t != NULL ? t : "");
		no_device_msg[strcspn(no_device_msg, "\n")] = '\0';
	}
	pthread_mutex_unlock(&msg_lock);
	c->nodev = 1;
	k_fail(c->rec, STAGE, "no-device", "%s: no GPU: %s", k_id_text(c->rec),
	    no_device_msg);
	return -1;
}

/* A built unit whose file is not in the work directory: an error that
 * says where it was looked for and how to name another; 1 then. */
static int
missing_artifact(json_t *rec, const struct unit *u)
{
	if (access(u->path, F_OK) == 0)
		return 0;
	if (!k_has_errors(rec))
		k_fail(rec, STAGE, "no-artifact", "%s: %s: %s (the work "
		    "directory %s, from %s, is not the one kbuild wrote to? "
		    "name that one with --work or KFORGE_WORK)",
		    k_id_text(rec), u->path, strerror(errno), opt.work,
		    opt.work_from);
	return 1;
}

/* The clock of one stage of the record (verify.stages). */
void
stage_begin(struct ctx *c)
{
	c->stage_t0 = k_now();
	c->wait0 = gpu_waited();
}

/* The stage begun last took this long, of which it waited for its GPU
 * (-j: a timing waits for the runs under way to end, a run for a timing)
 * this long; a stage that runs twice adds up. */
void
stage_end(struct ctx *c, const char *name)
{
	json_t *o = json_object_get(c->stages, name);
	double secs = k_now() - c->stage_t0, wait = gpu_waited() - c->wait0;

	if (o == NULL) {
		o = json_pack("{s:f,s:f}", "seconds", 0.0, "gpu_wait", 0.0);
		json_object_set_new(c->stages, name, o);
	}
	secs += json_number_value(json_object_get(o, "seconds"));
	wait += json_number_value(json_object_get(o, "gpu_wait"));
	json_object_set_new(o, "seconds", jround(secs, 1e-3));
	json_object_set_new(o, "gpu_wait", jround(wait, 1e-3));
}

/*
 * memcheck on case 0 is part of the verdict; the other tools run with
 * --sanitize (verify.sanitize).
 */
static void
sanitize_stage(struct ctx *c, const struct unit *h, const struct unit *ref)
{
	static const char *const tools[] = { "memcheck", "racecheck",
	    "initcheck", "synccheck" };
	json_t *san = json_object();
	char dir[PATH_MAX + 64];
	size_t i, n = opt.sanitize ? 4 : 1;

	json_object_set_new(c->v, "sanitize", san);
	stage_begin(c);
	for (i = 0; i < n; i++) {
		if (opt.sanitizer == NULL) {
			static int said;
			pthread_mutex_lock(&msg_lock);
			if (!said++)
				k_warn(K_EXIT_OK, NULL, "compute-sanitizer "
				    "not found ($CUDA_PATH/bin, "
				    "/usr/local/cuda/bin, PATH): no record "
				    "can be verified without memcheck "
				    "(--no-memcheck)");
			pthread_mutex_unlock(&msg_lock);
			json_object_set_new(san, "note", json_string(
			    "compute-sanitizer not found"));
			break;
		}
		dir_for(c, tools[i], 0, dir, sizeof(dir));
		json_object_set_new(san, tools[i], sanitize_one(c->w,
		    tools[i], h->path, ref->path, ref->symbol, dir));
	}
	stage_end(c, "sanitize");
}

/*
 * --fit, where the fit found nothing to do (case 0 ran clean and wrote
 * every element) but the verdict's memcheck run saw case 0 reach past its
 * buffers: the spec's counts are too small for what the kernel reads, and
 * a golden taken on them holds whatever lay beyond (a nondeterministic
 * one, often).  Sets c->fit_memcheck for fit_record.
 */
static int
refit_wanted(struct ctx *c)
{
	json_t *fit = json_object_get(c->rec, "fit");
	json_t *mc = json_object_get(json_object_get(c->v, "sanitize"),
	    "memcheck");
	json_int_t n = json_integer_value(json_object_get(mc, "errors"));
	const char *st = k_get_str(fit, "status");

	if (st == NULL || strcmp(st, "not-needed") != 0 || n <= 0)
		return 0;
	c->fit_memcheck = n > INT_MAX ? INT_MAX : (int)n;
	return 1;
}

/* The fit set harness arguments: the golden is taken again with them. */
static int
fit_changed(json_t *rec)
{
	json_t *fit = json_object_get(rec, "fit");
	const char *st = k_get_str(fit, "status");

	return st != NULL && (strcmp(st, "fitted") == 0 ||
	    strcmp(st, "bound") == 0) &&
	    json_array_size(json_object_get(fit, "args")) > 0;
}

/* Free what golden() allocated, also when it failed midway. */
static void
golden_free(struct ctx *c, struct run **gold)
{
	int k;

	if (*gold == NULL)
		return;
	for (k = 0; k < c->ngold; k++)
		run_free(&(*gold)[k]);
	free(*gold);
	*gold = NULL;
	c->ngold = 0;
}

/* Verify what rec holds; returns rec with a verify section (steals). */
json_t *
process(json_t *rec, const struct worker *w)
{
	json_t *build = json_object_get(rec, "build");
	struct unit h, ref, cand;
	struct run *gold = NULL;
	struct ctx c;
	int runnable, cand_ok = 0, has_cand, ncases, pass_exe = -1;
	int reused;
	double t0 = k_now();

	memset(&c, 0, sizeof(c));
	c.w = w;
	c.rec = rec;
	if (!json_is_object(build)) {
		if (!k_has_errors(rec))
			k_fail(rec, STAGE, "not-built", "%s: no build section "
			    "(run kbuild first)", k_id_text(rec));
		return rec;
	}
	if (!unit_of(build, "harness", &h, &runnable) ||
	    !unit_of(build, "reference", &ref, &runnable)) {
		if (!k_has_errors(rec))
			k_fail(rec, STAGE, "not-built", "%s: reference or harness was "
			    "not built", k_id_text(rec));
		return rec;
	}
	/* what runs must be there; a unit that does not run here (an AMD
	 * code object) is only reported on */
	if (runnable && (missing_artifact(rec, &h) ||
	    missing_artifact(rec, &ref)))
		return rec;
	if (runnable && ref.symbol == NULL) {
		/* kbuild says so too; a record built before it did */
		if (!k_has_errors(rec))
			k_fail(rec, STAGE, "no-symbol", "%s: build.reference "
			    "names no kernel symbol: kbuild found none in the "
			    "module", k_id_text(rec));
		return rec;
	}
	c.v = json_object();
	if (!runnable) {
		/* HIP code objects are compile-checked only here */
		json_object_set_new(c.v, "skipped", json_string(
		    "reference is not runnable on this machine"));
		json_object_set_new(c.v, "pass_exe", json_null());
		json_object_set_new(c.v, "pass_perf", json_null());
		json_object_set_new(c.v, "verified", json_pack(
		    "{s:b,s:s,s:s,s:b}", "value", 0, "reason", "not-runnable",
		    "detail", "reference is not runnable on this machine",
		    "memcheck", opt.memcheck));
		hip_section(rec, c.v);
		k_set_section(rec, "verify", c.v);
		return rec;
	}
	if (no_device) {
		json_decref(c.v);
		k_fail(rec, STAGE, "no-device", "%s: no GPU: %s", k_id_text(rec),
		    no_device_msg);
		return rec;
	}
	snprintf(c.tmp, sizeof(c.tmp), "%.4000s/verify/tmp.XXXXXX", opt.work);
	{
		char parent[PATH_MAX + 16];
		snprintf(parent, sizeof(parent), "%s/verify", opt.work);
		if (k_mkdirs(parent) != 0 || mkdtemp(c.tmp) == NULL) {
			json_decref(c.v);
			k_fail(rec, STAGE, "work-dir", "%s: cannot create a directory "
			    "in %s: %s", k_id_text(rec), parent, strerror(errno));
			return rec;
		}
	}
	c.runs = json_array();
	c.stages = json_object();
	/* one harness process for every run of the record (--serve) */
	serve_begin(c.tmp);
	if (w->gpu >= 0)
		json_object_set_new(c.v, "gpu", json_integer(w->gpu));

	has_cand = json_object_get(build, "candidate") != NULL;
	if (has_cand)
		cand_ok = unit_of(build, "candidate", &cand, &runnable) &&
		    runnable && cand.symbol != NULL;

	/* the GPU sizes the spec first (--fit), or an earlier fit's
	 * counts apply: every harness run below takes them */
	case_skip_clear();
	fit_args_from(rec);
	/* a golden an earlier run computed for the same reference,
	 * harness, fit and options is taken again (reuse.c): only the
	 * candidate's runs and the timing are new */
	stage_begin(&c);
	reused = opt.reuse && (ncases = golden_reuse(&c, &gold)) > 0;
	if (reused)
		stage_end(&c, "reuse");
	if (!reused) {
		if (opt.fit) {
			stage_begin(&c);
			fit_record(&c, &h, &ref);
			stage_end(&c, "fit");
		}
		stage_begin(&c);
		ncases = golden(&c, &h, &ref, &gold);
		stage_end(&c, "golden");
	}
	if (!reused && ncases > 0 && json_is_true(json_object_get(
	    json_object_get(json_object_get(rec, "wrap"), "harness"),
	    "oracle"))) {
		stage_begin(&c);
		oracle(&c, &h, &ref, gold, ncases);
		stage_end(&c, "oracle");
	}
	if (!reused && ncases > 0 && (opt.sanitize || opt.memcheck))
		sanitize_stage(&c, &h, &ref);
	if (!reused && ncases > 0 && opt.fit && refit_wanted(&c)) {
		/* memcheck's evidence: fit the counts and take the golden
		 * again with them */
		stage_begin(&c);
		fit_record(&c, &h, &ref);
		stage_end(&c, "fit");
		c.fit_memcheck = 0;
		if (fit_changed(rec)) {
			golden_free(&c, &gold);
			case_skip_clear();
			json_object_del(c.v, "left_out");
			json_object_del(c.v, "fault");
			stage_begin(&c);
			ncases = golden(&c, &h, &ref, &gold);
			stage_end(&c, "golden");
			if (ncases > 0 && (opt.sanitize || opt.memcheck))
				sanitize_stage(&c, &h, &ref);
		}
	}
	if (!reused) {
		stage_begin(&c);
		verdict(&c, ncases);
		stage_end(&c, "verdict");
	}
	if (ncases > 0 && has_cand) {
		if (!cand_ok) {
			json_t *cv = json_object(), *rs = json_array();
			json_t *bc = json_object_get(build, "candidate");
			const char *why = k_get_str(bc, "pass_call_reason");
			/* built, but not the task's kernel: kbuild says why */
			json_array_append_new(rs, json_string(why != NULL ?
			    "wrong-kernel" : "not-built"));
			json_object_set_new(cv, "reasons", rs);
			if (why != NULL)
				json_object_set_new(cv, "detail",
				    json_string(why));
			json_object_set_new(c.v, "candidate", cv);
			pass_exe = 0;
		} else {
			stage_begin(&c);
			pass_exe = candidate(&c, &h, &cand, gold, ncases);
			stage_end(&c, "candidate");
		}
	}
	if (!reused && ncases > 0 && json_is_true(json_object_get(
	    json_object_get(c.v, "verified"), "value"))) {
		stage_begin(&c);
		mutation(&c, &h, gold, ncases);
		stage_end(&c, "mutation");
	}
	if (ncases > 0 && opt.reps > 0) {
		stage_begin(&c);
		timing(&c, &h, &ref, pass_exe == 1 ? &cand : NULL,
		    timed_case(gold, ncases));
		stage_end(&c, "timing");
	}
	golden_free(&c, &gold);

	json_object_set_new(c.v, "pass_exe", pass_exe < 0 ? json_null() :
	    json_boolean(pass_exe));
	{
		json_t *t = json_object_get(c.v, "timing");
		json_t *sp = json_object_get(t, "speedup");
		json_t *pp = json_null();
		if (pass_exe == 0)
			pp = json_false();
		else if (pass_exe == 1 && json_is_number(sp))
			/* faster than the threshold by more than the
			 * noise (timing.c: speedup_low) */
			pp = json_boolean(json_number_value(json_object_get(t,
			    "speedup_low")) > opt.threshold);
		else if (pass_exe == 1 && opt.reps > 0)
			pp = json_false();
		json_object_set_new(c.v, "pass_perf", pp);
	}
	json_object_set_new(c.v, "runs", c.runs);
	json_object_set_new(c.v, "stages", c.stages);
	{
		double secs = k_now() - t0;
		json_object_set_new(c.v, "seconds", jround(secs, 1e-3));
		json_object_set_new(c.v, "kernel_seconds",
		    jround(c.kernel_ms / 1000, 1e-6));
		json_object_set_new(c.v, "overhead_seconds",
		    jround(secs - c.kernel_ms / 1000, 1e-3));
	}
	fit_args_set(NULL);
	case_skip_clear();
	serve_end(c.v);
	if (!opt.keep)
		k_remove_tree(c.tmp);
	if (c.nodev) {
		/* nothing ran: no section, only the error */
		json_decref(c.v);
		return rec;
	}
	hip_section(rec, c.v);
	k_set_section(rec, "verify", c.v);
	return rec;
}
