/*
 * Harness runs: one child process per run (or per batch of cases),
 * classified when it fails, and its manifest and buffers read back.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "k_jail.h"
#include "kverify.h"

void
run_free(struct run *r)
{
	size_t i;

	for (i = 0; i < r->nout; i++) {
		free(r->out[i].data);
		free(r->out[i].timed);
		free(r->out[i].unstable);
	}
	for (i = 0; i < r->nin; i++)
		free(r->in[i].data);
	free(r->out);
	free(r->in);
	free(r->times);
	json_decref(r->manifest);
	json_decref(r->tail);
	memset(r, 0, sizeof(*r));
}

/*
 * Is this the harness saying that there is no GPU?  Either the dynamic
 * loader cannot find the driver library (exit 127, "libcuda.so.1: cannot
 * open shared object file"), or the driver is there and kw_init() fails
 * (exit 1, the driver's error name after "kw_init()").
 */
int
says_no_device(const struct run *r)
{
	const char *t = json_string_value(r->tail);

	if (t == NULL || !r->p.exited)
		return 0;
	if (r->p.status == 127)
		return strstr(t, "error while loading shared libraries") !=
		    NULL && (strstr(t, "libcuda.so") != NULL ||
		    strstr(t, "libamdhip64.so") != NULL);
	return r->p.status == 1 && strstr(t, "kw_init()") != NULL;
}

static void
classify(struct run *r, double timeout)
{
	if (r->p.overflow) {
		snprintf(r->fault, sizeof(r->fault), "output");
		snprintf(r->msg, sizeof(r->msg), "killed after writing more "
		    "than %lu MiB to standard output and error",
		    (unsigned long)(K_RUN_OUTPUT_MAX >> 20));
	} else if (r->p.timed_out) {
		snprintf(r->fault, sizeof(r->fault), "timeout");
		snprintf(r->msg, sizeof(r->msg), "no result after %g s",
		    timeout);
	} else if (r->p.signal == SIGALRM) {
		/* the harness's --case-timeout */
		snprintf(r->fault, sizeof(r->fault), "timeout");
		snprintf(r->msg, sizeof(r->msg), "no result after %g s",
		    ceil(opt.timeout));
	} else if (r->p.signal != 0) {
		snprintf(r->fault, sizeof(r->fault), "crash");
		snprintf(r->msg, sizeof(r->msg), "killed by signal %d (%s)",
		    r->p.signal, strsignal(r->p.signal));
	} else if (!r->p.started) {
		snprintf(r->fault, sizeof(r->fault), "harness");
		snprintf(r->msg, sizeof(r->msg), "harness could not be run");
	} else {
		static const char *const kinds[] = { "ok", "harness",
		    "harness", "alloc", "launch", "runtime", "module" };
		/* man/kwrap.1's exit statuses of the harness */
		static const char *const what[] = { "", "", ": usage",
		    ": out of memory", ": launch failed", ": fault while "
		    "running", ": module not loaded" };
		int s = r->p.status;
		snprintf(r->fault, sizeof(r->fault), "%s",
		    s >= 1 && s <= 6 ? kinds[s] : "harness");
		snprintf(r->msg, sizeof(r->msg), "harness exited %d%s", s,
		    s >= 1 && s <= 6 ? what[s] : "");
	}
}

/* Read one manifest list (outputs or inputs) and its files. */
static int
load_bufs(struct run *r, const char *key, struct buf **out, size_t *n,
    int check)
{
	json_t *arr = json_object_get(r->manifest, key), *e;
	size_t i;
	char path[PATH_MAX + 160], sum[17];

	if (!json_is_array(arr))
		return -1;
	*n = 0;
	if ((*out = calloc(json_array_size(arr) + 1, sizeof(**out))) == NULL)
		return -1;
	json_array_foreach(arr, i, e) {
		struct buf *b = &(*out)[i];
		const char *name = k_get_str(e, "name");
		const char *file = k_get_str(e, "file");
		const char *type = k_get_str(e, "type");
		const char *cs = k_get_str(e, check ? "checksum" :
		    "checksum_before");
		if (name == NULL || file == NULL || strchr(file, '/') != NULL)
			return -1;
		snprintf(b->name, sizeof(b->name), "%s", name);
		snprintf(b->type, sizeof(b->type), "%s", type ? type : "");
		snprintf(b->checksum, sizeof(b->checksum), "%s", cs ? cs : "");
		b->count = k_get_int(e, "count", 0);
		snprintf(path, sizeof(path), "%s/%s", r->dir, file);
		if ((b->data = (unsigned char *)k_file_read(path, 1UL << 34,
		    &b->len)) == NULL)
			return -1;
		(*n)++;
		file = k_get_str(e, "timed_file");
		if (check && file != NULL) {
			/* a timed repetition that differed from the first */
			if (strchr(file, '/') != NULL)
				return -1;
			snprintf(path, sizeof(path), "%s/%s", r->dir, file);
			if ((b->timed = (unsigned char *)k_file_read(path,
			    1UL << 34, &b->timed_len)) == NULL)
				return -1;
		}
		if (check) {
			/* the harness's own checksum: a short or torn file
			 * is a harness failure, not a wrong answer */
			fnv_hex(b->data, b->len, sum);
			if (cs != NULL && strcmp(cs, sum) != 0)
				return -1;
		}
	}
	return 0;
}

/*
 * Run one harness: HARNESS MODULE SYMBOL DIR [--case c] [--time reps],
 * through this program's child mode so that the GPU and the data limit
 * are set in the child only.  sanitizer: run it under compute-sanitizer
 * with that tool instead (then no manifest is read).
 */
/* run_batch_limit's limit per case, for the run_harness it calls (0:
 * --timeout) */
static _Thread_local double case_limit;
_Thread_local int run_times_only;
_Thread_local int run_fresh;
_Thread_local int run_sentinel;
static _Thread_local int skip_case[SKIP_MAX];
static _Thread_local char skip_text[SKIP_MAX][16];
static _Thread_local int nskip;

void
case_skip_clear(void)
{
	nskip = 0;
}

/* Leave case k out of every later batch; -1 when SKIP_MAX are. */
int
case_skip_add(int k)
{
	if (nskip == SKIP_MAX)
		return -1;
	skip_case[nskip] = k;
	snprintf(skip_text[nskip], sizeof(skip_text[nskip]), "%d", k);
	nskip++;
	return 0;
}

int
case_skipped(int k)
{
	int i;

	for (i = 0; i < nskip; i++)
		if (skip_case[i] == k)
			return 1;
	return 0;
}

int
case_skip_count(void)
{
	return nskip;
}

/* Forget the cases left out after the first n (case_skip_count's). */
void
case_skip_keep(int n)
{
	if (n >= 0 && n < nskip)
		nskip = n;
}

/*
 * -j: the workers of one GPU (struct worker's slot) share it for every run
 * but a timed one, which has it alone (gate.c: the timings gathered so
 * that the GPU drains once for several).  Other processes on the GPU are
 * not covered.
 */
static struct gate gpu_gate[MAX_GPUS];
static int gpu_locking;

/* A drain once for half the workers of a GPU, or once the first timing has
 * waited about as long as a record's check (benchmark 74). */
#define GATE_DELAY 1.0

void
run_locks_init(int jobs)
{
	int i;

	for (i = 0; i < MAX_GPUS; i++)
		gate_init(&gpu_gate[i], (jobs + 1) / 2, GATE_DELAY);
	gpu_locking = 1;
}

/* this thread holds its GPU alone across several runs (gpu_hold) */
static _Thread_local int gpu_held;
/* seconds this thread has waited for its GPU's lock, in all */
static _Thread_local double gpu_wait;

double
gpu_waited(void)
{
	return gpu_wait;
}

/* Enter the gate for a run (shared) or a timing (alone), counting the
 * wait. */
static void
gpu_lock_take(struct gate *g, int alone)
{
	double t0 = k_now();

	gate_enter(g, alone);
	gpu_wait += k_now() - t0;
}

/*
 * The GPU alone for every run until gpu_release: a record's timing rounds
 * wait for the GPU to drain once, not once per round (a drain waits for
 * the longest run under way, a whole check of large cases or a
 * sanitizer's run).
 */
void
gpu_hold(const struct worker *w)
{
	if (!gpu_locking || gpu_held)
		return;
	gpu_lock_take(&gpu_gate[w->slot], 1);
	gpu_held = 1;
}

void
gpu_release(const struct worker *w)
{
	if (!gpu_held)
		return;
	gate_leave(&gpu_gate[w->slot], 1);
	gpu_held = 0;
}

static int run_harness_unlocked(const struct worker *, const char *,
    const char *, const char *, const char *, int, int, const char *,
    double, struct run *);

int
run_harness(const struct worker *w, const char *harness, const char *module,
    const char *symbol, const char *dir, int kcase, int reps,
    const char *san_tool, double timeout, struct run *r)
{
	struct gate *g = gpu_locking && !gpu_held ? &gpu_gate[w->slot] : NULL;
	int rc;

	if (g != NULL)
		gpu_lock_take(g, run_times_only);
	rc = run_harness_unlocked(w, harness, module, symbol, dir, kcase,
	    reps, san_tool, timeout, r);
	if (g != NULL)
		gate_leave(g, run_times_only);
	return rc;
}

static int
run_harness_unlocked(const struct worker *w, const char *harness,
    const char *module, const char *symbol, const char *dir, int kcase,
    int reps, const char *san_tool, double timeout, struct run *r)
{
	char *argv[28 + FIT_ARGS_MAX + 2 * SKIP_MAX], mem[32], gpu[16], cs[16], rs[16];
	char log[PATH_MAX + 16];
	char ct[32], sn[16];
	int n = 0, i;

	memset(r, 0, sizeof(*r));
	r->timed_match = -1;
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	if (k_mkdirs(dir) != 0)
		return -1;
	snprintf(mem, sizeof(mem), "%ld", opt.mem_mb);
	snprintf(gpu, sizeof(gpu), "%d", w->gpu);
	snprintf(cs, sizeof(cs), "%d", kcase);
	snprintf(rs, sizeof(rs), "%d", reps);
	snprintf(log, sizeof(log), "%s.log", dir);
	argv[n++] = opt.self;
	argv[n++] = CHILD_FLAG;
	argv[n++] = mem;
	argv[n++] = gpu;
	if (san_tool != NULL) {
		argv[n++] = opt.sanitizer;
		argv[n++] = "--tool";
		argv[n++] = (char *)san_tool;
		argv[n++] = "--print-limit";
		argv[n++] = "20";
		if (opt.san_padding && strcmp(san_tool, "memcheck") == 0) {
			argv[n++] = "--padding";
			argv[n++] = SAN_PADDING;
		}
	}
	argv[n++] = (char *)harness;
	if (module != NULL) {
		argv[n++] = (char *)module;
		argv[n++] = (char *)symbol;
		argv[n++] = (char *)dir;
		if (kcase == ALL_CASES) {
			/* each case under its own limit, kept by the harness
			 * (SIGALRM); timeout covers the whole batch */
			snprintf(ct, sizeof(ct), "%.0f", ceil(case_limit > 0 ?
			    case_limit : opt.timeout));
			argv[n++] = "--all";
			argv[n++] = "--case-timeout";
			argv[n++] = ct;
			for (i = 0; i < nskip; i++) {
				argv[n++] = "--skip";
				argv[n++] = skip_text[i];
			}
		} else {
			argv[n++] = "--case";
			argv[n++] = cs;
		}
		if (run_sentinel > 0) {
			snprintf(sn, sizeof(sn), "%d", run_sentinel);
			argv[n++] = "--sentinel";
			argv[n++] = sn;
		}
		if (reps == ORACLE_RUN)
			argv[n++] = "--oracle";
		else if (reps > 0) {
			argv[n++] = "--time";
			argv[n++] = rs;
			/* no buffer files: a serving harness knows it */
			if (run_times_only && serve_serving())
				argv[n++] = "--times-only";
		}
		/* the counts the GPU fitted (kverify --fit), if any */
		fit_args_append(argv, &n, 27 + FIT_ARGS_MAX + 2 * SKIP_MAX);
	} else
		argv[n++] = "--cases";
	argv[n] = NULL;
	if (san_tool == NULL && module != NULL && !run_fresh) {
		/* the record's serving harness, when it has one */
		int rc = serve_run(w, argv, dir, timeout, &r->p);
		if (rc < 0)
			return -1;
		if (rc == 0)
			goto ran;
	}
	{
		/* the harness is a program a record carried: in the sandbox
		 * (k_jail), with the GPU, this program and the work
		 * directory read-only, its run directory the one it writes */
		struct k_jail j;
		char *selfdir = k_dirname(opt.self);
		int rc;
		memset(&j, 0, sizeof(j));
		j.scratch = dir;
		j.ro[0] = opt.work;
		j.ro[1] = selfdir;
		j.gpu = 1;
		j.why = "harness runs";
		rc = k_jail_run(argv, &j, log, timeout, &r->p);
		free(selfdir);
		if (rc != 0)
			return -1;
	}
ran:
	r->ran = 1;
	r->tail = tail_of(log, TAIL_MAX);
	if (!r->p.exited || r->p.status != 0 || r->p.timed_out) {
		classify(r, timeout);
		return 0;
	}
	if (module == NULL || san_tool != NULL) {
		r->ok = 1;
		return 0;
	}
	if (kcase == ALL_CASES) {
		/* the cases' manifests are read by batch_case() */
		r->ok = 1;
		return 0;
	}
	return read_manifest(r);
}

/* A run's manifest.json and buffer files, from r->dir; 0 even when they
 * are bad (then r->ok is 0 and r->fault says why). */
int
read_manifest(struct run *r)
{
	char path[PATH_MAX + 32];
	size_t len;
	unsigned char *text;
	json_error_t jerr;
	json_t *t;

	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	text = (unsigned char *)k_file_read(path, 1UL << 24, &len);
	if (text == NULL || (r->manifest = json_loadb((char *)text, len,
	    JSON_REJECT_DUPLICATES, &jerr)) == NULL ||
	    !json_is_object(r->manifest)) {
		free(text);
		snprintf(r->fault, sizeof(r->fault), "harness");
		snprintf(r->msg, sizeof(r->msg), "harness exited 0 without "
		    "a readable manifest.json");
		return 0;
	}
	free(text);
	if (load_bufs(r, "outputs", &r->out, &r->nout, 1) != 0 ||
	    load_bufs(r, "inputs", &r->in, &r->nin, 0) != 0) {
		snprintf(r->fault, sizeof(r->fault), "harness");
		snprintf(r->msg, sizeof(r->msg), "manifest.json names a "
		    "buffer file that is missing or does not match its "
		    "checksum");
		return 0;
	}
	if ((t = json_object_get(r->manifest, "times_ms")) != NULL &&
	    json_is_array(t)) {
		size_t i;
		json_t *v;
		r->times = calloc(json_array_size(t) + 1, sizeof(double));
		json_array_foreach(t, i, v)
			if (r->times != NULL && json_is_number(v))
				r->times[r->ntimes++] = json_number_value(v);
	}
	t = json_object_get(r->manifest, "timed_outputs_match");
	if (json_is_boolean(t))
		r->timed_match = json_is_true(t);
	r->ok = 1;
	return 0;
}

/*
 * Every case of a harness in one process (--all), under a limit of
 * --timeout per case: process start-up and the CUDA context are paid once
 * per batch instead of once per case.  Returns run_harness's value.
 */
int
run_batch(const struct worker *w, const char *harness, const char *module,
    const char *symbol, const char *dir, int ncases, int reps,
    struct run *b)
{
	return run_batch_limit(w, harness, module, symbol, dir, ncases, reps,
	    opt.timeout, b);
}

/*
 * Whether this thread's batches go case by case: with -j and timing on,
 * a timing waits for the runs under way on its GPU to end (the drain),
 * and a batch of every case is one run; case by case, each a command of
 * the record's serving harness, a timing waits for one case at most, and
 * the GPU is not left to the tail of a few long batches meanwhile.  Not
 * for a run of its own (run_fresh: a process per case would pay its
 * start each time) nor without the serving harness.
 */
static int
case_by_case(void)
{
	return gpu_locking && opt.reps > 0 && opt.serve && !run_fresh &&
	    !gpu_held;
}

/* run_batch with limit seconds per case instead of --timeout's. */
int
run_batch_limit(const struct worker *w, const char *harness,
    const char *module, const char *symbol, const char *dir, int ncases,
    int reps, double limit, struct run *b)
{
	char sub[PATH_MAX + 32], path[PATH_MAX + 64];
	struct run r;
	int k, rc;

	double secs = 0;

	if (!case_by_case()) {
		case_limit = limit;
		rc = run_harness(w, harness, module, symbol, dir, ALL_CASES,
		    reps, NULL, limit * ncases + 10, b);
		case_limit = 0;
		if (rc != 0)
			return -1;
		snprintf(path, sizeof(path), "%s/0/manifest.json", dir);
		if (!(b->p.exited && b->p.status == 2) ||
		    access(path, F_OK) == 0)
			return 0;
		/* a harness built before --all refuses it as bad usage:
		 * one process per case then, into the same directories */
		run_free(b);
	}
	memset(b, 0, sizeof(*b));
	b->timed_match = -1;
	for (k = 0; k < ncases; k++) {
		if (case_skipped(k))
			continue;
		snprintf(sub, sizeof(sub), "%s/%d", dir, k);
		if (run_harness(w, harness, module, symbol, sub, k, reps, NULL,
		    limit, &r) != 0)
			return -1;
		secs += r.p.seconds;
		run_free(b);
		*b = r;
		snprintf(b->dir, sizeof(b->dir), "%s", dir);
		if (!r.ok)
			break;
	}
	/* the batch's time is every case's */
	b->p.seconds = secs;
	return 0;
}

/*
 * Case k of batch b as a run of its own: its manifest and buffers when the
 * harness finished it.  The first case without a manifest is where a
 * failed batch stopped: it gets the batch's fault (exit, signal, tail).
 * Returns 0 for a case the batch never reached.
 */
int
batch_case(const struct run *b, int k, struct run *r)
{
	char path[PATH_MAX + 48];
	int j;

	memset(r, 0, sizeof(*r));
	r->timed_match = -1;
	if (snprintf(r->dir, sizeof(r->dir), "%s/%d", b->dir, k) >=
	    (int)sizeof(r->dir))
		r->dir[0] = '\0';	/* no such manifest: the case fails */
	r->p = b->p;
	r->ran = 1;
	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	if (access(path, F_OK) == 0)
		return read_manifest(r) == 0;
	/* an earlier case without a manifest: the batch stopped there */
	for (j = 0; j < k; j++) {
		if (case_skipped(j))
			continue;
		snprintf(path, sizeof(path), "%s/%d/manifest.json", b->dir, j);
		if (access(path, F_OK) != 0)
			return 0;
	}
	if (b->ok) {
		snprintf(r->fault, sizeof(r->fault), "harness");
		snprintf(r->msg, sizeof(r->msg), "harness exited 0 without "
		    "a manifest.json for case %d", k);
	} else {
		snprintf(r->fault, sizeof(r->fault), "%s", b->fault);
		snprintf(r->msg, sizeof(r->msg), "%s", b->msg);
	}
	r->tail = b->tail != NULL ? json_incref(b->tail) : NULL;
	return 1;
}

/* Whether output i of run r is a pure output (no input of that name):
 * it starts as the sentinel, where an inout buffer starts as its input. */
int
pure_output(const struct run *r, size_t i)
{
	size_t j;

	for (j = 0; j < r->nin; j++)
		if (strcmp(r->in[j].name, r->out[i].name) == 0)
			return 0;
	return 1;
}

/* The output buffer of r called name, or NULL. */
struct buf *
out_named(const struct run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nout; i++)
		if (strcmp(r->out[i].name, name) == 0)
			return &r->out[i];
	return NULL;
}

/* Whether run r wrote into input j, a buffer that is an input only: 1
 * its checksum after the run is not the one before, 0 it is the same or
 * the buffer is an output too, -1 the manifest gives none after. */
int
input_written(const struct run *r, size_t j)
{
	const char *after;

	if (out_named(r, r->in[j].name) != NULL)
		return 0;
	after = k_get_str(json_array_get(json_object_get(r->manifest,
	    "inputs"), j), "checksum_after");
	if (after == NULL)
		return -1;
	return strcmp(after, r->in[j].checksum) != 0;
}

/* {role, case, mode, exit, signal, timed_out, seconds} for verify.runs */
void
log_run(json_t *runs, const char *role, int kcase, const char *mode,
    const struct run *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "role", json_string(role));
	json_object_set_new(o, "case", kcase < 0 ? json_null() :
	    json_integer(kcase));
	json_object_set_new(o, "mode", json_string(mode));
	json_object_set_new(o, "exit", r->p.exited ?
	    json_integer(r->p.status) : json_null());
	json_object_set_new(o, "signal", r->p.signal ?
	    json_integer(r->p.signal) : json_null());
	json_object_set_new(o, "timed_out", json_boolean(r->p.timed_out));
	json_object_set_new(o, "seconds", jround(r->p.seconds, 1e-3));
	json_array_append_new(runs, o);
}

json_t *
fault_json(const char *role, int kcase, const struct run *r)
{
	json_t *f = json_object();

	json_object_set_new(f, "kind", json_string(r->fault));
	json_object_set_new(f, "role", json_string(role));
	json_object_set_new(f, "case", kcase < 0 ? json_null() :
	    json_integer(kcase));
	json_object_set_new(f, "exit", r->p.exited ?
	    json_integer(r->p.status) : json_null());
	json_object_set_new(f, "signal", r->p.signal ?
	    json_integer(r->p.signal) : json_null());
	json_object_set_new(f, "message", json_string(r->msg));
	json_object_set_new(f, "tail", r->tail != NULL ?
	    json_incref(r->tail) : json_string(""));
	return f;
}
