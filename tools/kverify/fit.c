/*
 * kverify --fit: where static inference could not decide a buffer's
 * count, the GPU decides.  The reference runs under compute-sanitizer
 * memcheck with trial counts (the harness's --count, no rebuild); each
 * out-of-bounds access the report names is mapped through the harness's
 * --layout to the buffer it ran past, that buffer grows to hold it, and
 * the run repeats until memcheck is clean, each count searched between
 * the largest that faulted and the smallest that was clean until the two
 * meet.  A pure output the kernel leaves with a sentinel tail shrinks to
 * what it writes.  Across several scalar settings (the spec's cases with
 * distinct sizes) each changed count is fitted as a formula over the
 * scalars (fitmath.c), or the spec's own count is confirmed.  The record
 * gets a "fit" section with the evidence (rounds, findings, samples,
 * formulas) and the harness arguments every later run of the record uses
 * (fit_args), so the verdict that follows is the fitted spec's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kverify.h"

#define FIT_ROUNDS 12		/* sanitizer runs per sample, at most */
#define FIT_MAX_SAMPLES 6	/* scalar settings sampled, at most */
#define FIT_POOL 32		/* distinct settings looked at */
#define FIT_BUFS 64
#define FIT_FINDINGS 20000	/* findings read from one report: more
				 * than two MiB of log hold */
#define FIT_EVIDENCE 3		/* findings kept per round in the record */
#define FIT_BYTES_MAX (16LL << 30)	/* all buffers of a trial together */
#define FIT_SHARED_MAX (48 * 1024)	/* dynamic shared memory, no opt-in */
#define UNKNOWN_HI LLONG_MAX

/* the harness arguments of the record being verified, per worker thread */
static _Thread_local json_t *cur_args;

struct fbuf {
	char name[128];
	char role[8];
	char spec_expr[512];
	int size, global;
	long long spec[FIT_MAX_SAMPLES];	/* the spec's count per sample */
	long long y[FIT_MAX_SAMPLES];		/* the count the GPU gave */
	const char *src[FIT_MAX_SAMPLES];	/* memcheck, written, spec */
	int exact[FIT_MAX_SAMPLES];
	long long lo[FIT_MAX_SAMPLES];		/* the largest that faulted */
	int touched;				/* grown or shrunk somewhere */
	unsigned long long dev;			/* this round's address */
	long long bytes;
};

struct fctx {
	struct ctx *c;
	const struct unit *h, *ref;
	json_t *spec, *sec, *rounds;
	struct fbuf b[FIT_BUFS];
	size_t nb;
	long long device_bytes;
	long long shared_need;			/* -1: none */
	long long plan_sh[FIT_MAX_SAMPLES];	/* the spec's shared memory */
	int ncases, nrounds, nodev;
	double deadline;		/* k_now() after which no trial starts */
	char why[512];
};

/* ------------------------------------------------------------ running */

/*
 * One harness run of case k through kverify's child mode: under memcheck
 * when san, with the trial counts in cnt (-1: the spec's) and the shared
 * memory sh (-1: the spec's), plus one of "--plan" / "--layout" / NULL.
 * The log is dir.log; the run's outcome goes to *p.
 */
static int
fexec(struct fctx *f, const char *dir, int k, const long long *cnt,
    long long sh, const char *mode, int san, struct k_proc *p)
{
	char *argv[32 + 2 * FIT_BUFS], mem[32], gpu[16], cs[16], log[PATH_MAX + 16];
	char *own[FIT_BUFS + 1];
	size_t i, no = 0;
	int n = 0, rc;

	if (k_mkdirs(dir) != 0)
		return -1;
	snprintf(mem, sizeof(mem), "%ld", opt.mem_mb);
	snprintf(gpu, sizeof(gpu), "%d", f->c->w->gpu);
	snprintf(cs, sizeof(cs), "%d", k);
	snprintf(log, sizeof(log), "%s.log", dir);
	argv[n++] = opt.self;
	argv[n++] = CHILD_FLAG;
	argv[n++] = mem;
	argv[n++] = gpu;
	if (san) {
		argv[n++] = opt.sanitizer;
		argv[n++] = "--tool";
		argv[n++] = "memcheck";
		/* many findings: the log keeps the first and the last MiB,
		 * and the last ones printed reach furthest */
		argv[n++] = "--print-limit";
		argv[n++] = "100000";
		argv[n++] = "--show-backtrace";
		argv[n++] = "no";
		if (opt.san_padding) {
			argv[n++] = "--padding";
			argv[n++] = SAN_PADDING;
		}
	}
	argv[n++] = (char *)f->h->path;
	argv[n++] = (char *)f->ref->path;
	argv[n++] = (char *)f->ref->symbol;
	argv[n++] = (char *)dir;
	argv[n++] = "--case";
	argv[n++] = cs;
	if (mode != NULL)
		argv[n++] = (char *)mode;
	for (i = 0; cnt != NULL && i < f->nb; i++) {
		if (cnt[i] < 0 || f->b[i].global)
			continue;
		if (asprintf(&own[no], "%s=%lld", f->b[i].name, cnt[i]) < 0)
			return -1;
		argv[n++] = "--count";
		argv[n++] = own[no++];
	}
	if (sh >= 0) {
		if (asprintf(&own[no], "%lld", sh) < 0)
			return -1;
		argv[n++] = "--shared-mem";
		argv[n++] = own[no++];
	}
	argv[n] = NULL;
	rc = k_run(argv, dir, log, san ? opt.timeout * 10 : opt.timeout, p);
	for (i = 0; i < no; i++)
		free(own[i]);
	return rc;
}

/* The log of dir's run, NUL-terminated; NULL when unreadable. */
static char *
log_of(const char *dir)
{
	char path[PATH_MAX + 16];
	size_t len;

	if (snprintf(path, sizeof(path), "%s.log", dir) >= (int)sizeof(path))
		return NULL;
	return k_file_read(path, K_RUN_OUTPUT_MAX + (1UL << 20), &len);
}

/* The first line of text starting with prefix, its JSON after it (a
 * prefix "{" is the JSON's own first character). */
static json_t *
json_line(const char *text, const char *prefix)
{
	const char *p = text;
	size_t n = strlen(prefix);
	json_error_t e;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, prefix, n) == 0) {
			const char *nl = strchr(p, '\n');
			if (strcmp(prefix, "{") == 0)
				n = 0;
			return json_loadb(p + n, nl != NULL ? (size_t)(nl - p -
			    n) : strlen(p + n), 0, &e);
		}
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return NULL;
}

/* ------------------------------------------------------------- the spec */

/* Buffers of the case as the harness plans them; 0 when they match the
 * earlier samples' (names and order are the spec's, so they do). */
static int
take_plan(struct fctx *f, json_t *plan, int s)
{
	json_t *bufs = json_object_get(plan, "buffers"), *e, *prm;
	size_t i, j;

	if (!json_is_array(bufs) || json_array_size(bufs) > FIT_BUFS)
		return -1;
	if (s == 0)
		f->nb = json_array_size(bufs);
	else if (f->nb != json_array_size(bufs))
		return -1;
	json_array_foreach(bufs, i, e) {
		struct fbuf *b = &f->b[i];
		const char *name = k_get_str(e, "name");
		if (name == NULL)
			return -1;
		if (s == 0) {
			snprintf(b->name, sizeof(b->name), "%s", name);
			snprintf(b->role, sizeof(b->role), "%s",
			    k_get_str(e, "role") ? k_get_str(e, "role") : "");
			b->size = (int)k_get_int(e, "size", 1);
			b->global = json_is_true(json_object_get(e, "global"));
			snprintf(b->spec_expr, sizeof(b->spec_expr), "%lld",
			    (long long)k_get_int(e, "spec_count", 0));
			json_array_foreach(json_object_get(f->spec, "params"),
			    j, prm) {
				json_t *cnt = json_object_get(prm, "count");
				if (k_get_str(prm, "name") == NULL ||
				    strcmp(k_get_str(prm, "name"), name) != 0)
					continue;
				if (json_is_string(cnt))
					snprintf(b->spec_expr,
					    sizeof(b->spec_expr), "%s",
					    json_string_value(cnt));
			}
		} else if (strcmp(f->b[i].name, name) != 0)
			return -1;
		b->spec[s] = k_get_int(e, "spec_count", 0);
		b->y[s] = b->spec[s];
		b->src[s] = "spec";
		b->exact[s] = 0;
		b->lo[s] = -1;
	}
	return 0;
}

/*
 * A sample memcheck did not bisect to the element (out of rounds) bounds
 * the count from both sides: more than the largest count that faulted,
 * at most the smallest clean one.  Fit over the exact samples alone; when
 * that formula is exact there and falls inside every other sample's
 * bounds, it is the answer (r replaced, true returned).
 */
static int
within_bounds(const struct fbuf *b, const struct fit_term *t, size_t nt,
    size_t m, struct fit_result *r)
{
	static _Thread_local struct fit_term te[64];
	long long ye[FIT_SAMPLES];
	struct fit_result re;
	size_t s, e = 0, j;
	int k;

	for (s = 0; s < m; s++) {
		if (!b->exact[s])
			continue;
		ye[e] = b->y[s];
		for (j = 0; j < nt && j < 64; j++) {
			if (e == 0)
				te[j] = t[j];
			te[j].v[e] = t[j].v[s];
		}
		e++;
	}
	if (e < 2 || fit_formula(te, nt, ye, e, 0, &re) != 0 ||
	    (strcmp(re.how, "exact") != 0 && strcmp(re.how, "static") != 0))
		return 0;
	for (s = 0; s < m; s++) {
		long long v = 0;
		if (b->exact[s])
			continue;
		for (k = 0; k < re.nterms; k++)
			v += re.coef[k] * t[re.idx[k]].v[s];
		if (b->lo[s] < 0 || v <= b->lo[s] || v > b->y[s])
			return 0;
	}
	*r = re;
	return 1;
}

/* Whether scalar name is a size in the spec (its use, or a field's). */
static int
size_scalar(json_t *spec, const char *name)
{
	json_t *prm, *fl;
	size_t i, j;
	const char *dot = strchr(name, '.');

	json_array_foreach(json_object_get(spec, "params"), i, prm) {
		const char *pn = k_get_str(prm, "name");
		if (pn == NULL)
			continue;
		if (dot == NULL && strcmp(pn, name) == 0)
			return k_get_str(prm, "use") != NULL &&
			    strcmp(k_get_str(prm, "use"), "size") == 0;
		if (dot != NULL && strlen(pn) == (size_t)(dot - name) &&
		    strncmp(pn, name, (size_t)(dot - name)) == 0)
			json_array_foreach(json_object_get(prm, "fields"), j,
			    fl)
				if (k_get_str(fl, "name") != NULL &&
				    strcmp(k_get_str(fl, "name"), dot + 1) == 0)
					return k_get_str(fl, "use") != NULL &&
					    strcmp(k_get_str(fl, "use"),
					    "size") == 0;
	}
	return 0;
}

/* The size scalars of a plan as a key: cases with the same key are the
 * same sample. */
static void
size_key(json_t *spec, json_t *plan, char *out, size_t len)
{
	json_t *sc = json_object_get(plan, "scalars"), *v;
	const char *key;
	size_t n = 0;

	out[0] = '\0';
	json_object_foreach(sc, key, v) {
		int w;
		if (!size_scalar(spec, key) || !json_is_number(v))
			continue;
		w = snprintf(out + n, len - n, "%s=%.17g;", key,
		    json_number_value(v));
		if (w < 0 || (size_t)w >= len - n)
			break;
		n += (size_t)w;
	}
	/* the launch too: a kernel without size scalars may differ in it */
	v = json_object_get(plan, "grid");
	if (n < len)
		snprintf(out + n, len - n, "g=%lld,%lld,%lld",
		    (long long)json_integer_value(json_array_get(v, 0)),
		    (long long)json_integer_value(json_array_get(v, 1)),
		    (long long)json_integer_value(json_array_get(v, 2)));
}

/* ------------------------------------------------------------ a sample */

/* The buffer an out-of-bounds address ran past: the one starting
 * highest at or below it; -1 when the address precedes every buffer. */
static int
owner(struct fctx *f, unsigned long long addr)
{
	size_t i;
	int best = -1;

	for (i = 0; i < f->nb; i++)
		if (!f->b[i].global && f->b[i].dev != 0 && f->b[i].dev <= addr &&
		    (best < 0 || f->b[i].dev > f->b[best].dev))
			best = (int)i;
	return best;
}

static json_t *
counts_json(struct fctx *f, const long long *cnt)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < f->nb; i++)
		if (cnt[i] >= 0)
			json_object_set_new(o, f->b[i].name,
			    json_integer(cnt[i]));
	return o;
}

/* The highest element a pure output's run wrote, plus one (0: none);
 * -1 when the run's files cannot be read. */
static long long
written(struct fctx *f, const char *dir, size_t bi)
{
	struct run r;
	struct buf *o;
	long long e;
	int sz = f->b[bi].size > 0 ? f->b[bi].size : 1;

	memset(&r, 0, sizeof(r));
	if (snprintf(r.dir, sizeof(r.dir), "%s", dir) >= (int)sizeof(r.dir))
		return -1;
	if (read_manifest(&r) != 0 || !r.ok ||
	    (o = out_named(&r, f->b[bi].name)) == NULL) {
		run_free(&r);
		return -1;
	}
	for (e = (long long)(o->len / (size_t)sz); e > 0; e--)
		if (!all_bytes(o->data + (size_t)(e - 1) * (size_t)sz,
		    (size_t)sz, SENTINEL))
			break;
	run_free(&r);
	return e;
}

/*
 * Sample s, case k: memcheck rounds until clean, each faulting buffer's
 * count searched between lo (the largest known to fault) and hi (the
 * smallest known clean), then the written extent of pure outputs.
 * Returns 0, or -1 with f->why set.
 */
static int
sample(struct fctx *f, int s, int k)
{
	long long cur[FIT_BUFS], lo[FIT_BUFS], hi[FIT_BUFS], sh = -1;
	long long sh_lo = -1, sh_hi = UNKNOWN_HI;
	char dir[PATH_MAX + 64];
	struct k_proc p;
	struct san_finding *fs = k_calloc(FIT_FINDINGS, sizeof(*fs));
	size_t i, n, r;
	int clean = 0, rc = -1;
	long errors;

	for (i = 0; i < f->nb; i++) {
		cur[i] = -1;
		lo[i] = -1;
		hi[i] = UNKNOWN_HI;
	}
	for (r = 0; r < FIT_ROUNDS && !clean; r++) {
		json_t *ev = json_object(), *fj = json_array(), *layout;
		long long total = 0, need;
		int fixable = 0, unfixable = 0, changed = 0;
		char *text;

		for (i = 0; i < f->nb; i++) {
			long long c = cur[i] >= 0 ? cur[i] : f->b[i].spec[s];
			if (c > 0 && f->b[i].size > 0 && c > FIT_BYTES_MAX /
			    f->b[i].size)
				total = FIT_BYTES_MAX + 1;
			else
				total += c * f->b[i].size;
		}
		if (total > FIT_BYTES_MAX || (f->device_bytes > 0 &&
		    total > f->device_bytes / 2)) {
			snprintf(f->why, sizeof(f->why), "case %d: the counts "
			    "memcheck asks for (%lld bytes in all) pass the "
			    "limit of %lld bytes", k, total, f->device_bytes >
			    0 && f->device_bytes / 2 < FIT_BYTES_MAX ?
			    f->device_bytes / 2 : FIT_BYTES_MAX);
			json_decref(ev);
			json_decref(fj);
			goto out;
		}
		if (k_now() > f->deadline) {
			snprintf(f->why, sizeof(f->why), "case %d: out of time "
			    "after %d memcheck runs", k, f->nrounds);
			json_decref(ev);
			json_decref(fj);
			goto out;
		}
		dir_for(f->c, "fit", k, dir, sizeof(dir));
		if (fexec(f, dir, k, cur, sh, "--layout", 1, &p) != 0) {
			snprintf(f->why, sizeof(f->why), "cannot run "
			    "compute-sanitizer: %s", strerror(errno));
			json_decref(ev);
			json_decref(fj);
			goto out;
		}
		f->nrounds++;
		text = log_of(dir);
		layout = text != NULL ? json_line(text, "harness: layout ") :
		    NULL;
		n = 0;
		errors = -1;
		if (text != NULL)
			san_parse(text, fs, FIT_FINDINGS, &n, &errors);
		for (i = 0; i < f->nb; i++)
			f->b[i].dev = 0;
		if (layout != NULL) {
			json_t *e;
			size_t j;
			f->device_bytes = k_get_int(layout, "device_bytes", 0);
			json_array_foreach(json_object_get(layout, "buffers"),
			    j, e) {
				const char *d = k_get_str(e, "dev");
				if (j < f->nb && d != NULL)
					f->b[j].dev = strtoull(d, NULL, 16);
				if (j < f->nb)
					f->b[j].bytes = k_get_int(e, "bytes",
					    0);
			}
		}
		json_object_set_new(ev, "case", json_integer(k));
		json_object_set_new(ev, "counts", counts_json(f, cur));
		if (sh >= 0)
			json_object_set_new(ev, "shared_mem", json_integer(sh));
		json_object_set_new(ev, "exit", p.exited ?
		    json_integer(p.status) : json_null());
		json_object_set_new(ev, "errors", errors >= 0 ?
		    json_integer(errors) : json_null());
		json_object_set_new(ev, "findings", fj);
		json_array_append_new(f->rounds, ev);
		for (i = 0; i < n; i++) {
			struct san_finding *x = &fs[i];
			const char *what = NULL;
			int bi = -1;
			need = -1;
			if (strcmp(x->space, "global") == 0 && x->out_of_bounds &&
			    x->have_addr && layout != NULL &&
			    (bi = owner(f, x->addr)) >= 0 &&
			    x->addr >= f->b[bi].dev + (unsigned long long)
			    f->b[bi].bytes &&
			    (need = san_need(x, f->b[bi].dev)) > 0) {
				long long el = (need + f->b[bi].size - 1) /
				    (f->b[bi].size > 0 ? f->b[bi].size : 1);
				if (el - 1 > lo[bi])
					lo[bi] = el - 1;
				fixable++;
			} else if (strcmp(x->space, "shared") == 0 &&
			    f->plan_sh[s] > 0 &&
			    x->out_of_bounds && x->have_addr && x->size > 0 &&
			    x->addr < (unsigned long long)FIT_SHARED_MAX) {
				need = (long long)x->addr + x->size;
				if (need - 1 > sh_lo)
					sh_lo = need - 1;
				what = "shared memory";
				fixable++;
			} else {
				bi = -1;
				unfixable++;
			}
			if (json_array_size(fj) < FIT_EVIDENCE) {
				json_t *o = json_object();
				json_object_set_new(o, "text",
				    k_string_lossy(x->text, strlen(x->text)));
				if (x->have_addr)
					json_object_set_new(o, "address",
					    json_sprintf("0x%llx", x->addr));
				json_object_set_new(o, "buffer", bi >= 0 ?
				    json_string(f->b[bi].name) : what != NULL ?
				    json_string(what) : json_null());
				if (need > 0)
					json_object_set_new(o, "need_bytes",
					    json_integer(need));
				json_array_append_new(fj, o);
			}
		}
		json_object_set_new(ev, "fixable", json_integer(fixable));
		json_object_set_new(ev, "unfixable", json_integer(unfixable));
		if (text != NULL && strstr(text, "harness: layout ") == NULL &&
		    n == 0 && (strstr(text, "kw_init()") != NULL ||
		    strstr(text, "error while loading shared libraries") !=
		    NULL)) {
			snprintf(f->why, sizeof(f->why), "no GPU");
			f->nodev = 1;
			free(text);
			json_decref(layout);
			goto out;
		}
		if (text != NULL && strstr(text, "harness: layout ") == NULL &&
		    n == 0) {
			/* the harness stopped before its launch */
			snprintf(f->why, sizeof(f->why), "case %d: the "
			    "harness did not reach its launch (exit %d)", k,
			    p.exited ? p.status : -1);
			free(text);
			json_decref(layout);
			goto out;
		}
		free(text);
		json_decref(layout);
		if (fixable == 0 && unfixable > 0) {
			snprintf(f->why, sizeof(f->why), "case %d: memcheck "
			    "finds what no count fixes: %s", k, fs[0].text);
			goto out;
		}
		if (n == 0 && p.exited && p.status == 0 && errors <= 0)
			clean = 1;
		else if (n == 0) {
			snprintf(f->why, sizeof(f->why), "case %d: the harness "
			    "failed (%s %d) with nothing memcheck names",
			    k, p.exited ? "exit" : p.timed_out ? "timeout" :
			    "signal", p.exited ? p.status : p.signal);
			goto out;
		}
		if (clean) {
			for (i = 0; i < f->nb; i++) {
				long long c = cur[i] >= 0 ? cur[i] :
				    f->b[i].spec[s];
				if (c < hi[i])
					hi[i] = c;
			}
			if (sh >= 0 && sh < sh_hi)
				sh_hi = sh;
		}
		/* the next trial: grow past every fault, or bisect down
		 * between the largest that faulted and the smallest clean */
		for (i = 0; i < f->nb; i++) {
			long long c = cur[i] >= 0 ? cur[i] : f->b[i].spec[s];
			long long next = c;
			if (lo[i] < 0 || hi[i] == lo[i] + 1)
				continue;
			if (hi[i] == UNKNOWN_HI) {
				next = lo[i] + 1;
				/* more faults than were printed: the true
				 * need may lie beyond; each unprinted fault
				 * may be one more element, so overshoot by
				 * that many (bisected back later) */
				if (errors > (long)n) {
					long long step = lo[i] + 1 - c;
					if (errors - (long)n > step)
						step = errors - (long)n;
					next = lo[i] + 1 + step;
				}
			} else
				next = lo[i] + 1 + (hi[i] - lo[i] - 1) / 2;
			if (next != c) {
				cur[i] = next;
				changed = 1;
			}
		}
		if (sh_lo >= 0 && sh_hi != sh_lo + 1) {
			long long next = sh_hi == UNKNOWN_HI ? sh_lo + 1 :
			    sh_lo + 1 + (sh_hi - sh_lo - 1) / 2;
			if (next > FIT_SHARED_MAX) {
				snprintf(f->why, sizeof(f->why), "case %d: "
				    "the kernel needs more than %d bytes of "
				    "shared memory", k, FIT_SHARED_MAX);
				goto out;
			}
			if (next != sh) {
				sh = next;
				changed = 1;
			}
		}
		if (clean && changed)
			clean = 0;	/* a smaller trial to check */
	}
	if (!clean) {
		/* out of rounds: a clean trial is still an answer */
		for (i = 0; i < f->nb; i++)
			if (lo[i] >= 0 && hi[i] == UNKNOWN_HI)
				break;
		if (i < f->nb || (sh_lo >= 0 && sh_hi == UNKNOWN_HI)) {
			snprintf(f->why, sizeof(f->why), "case %d: still "
			    "faulting after %d memcheck rounds", k, FIT_ROUNDS);
			goto out;
		}
	}
	for (i = 0; i < f->nb; i++) {
		if (lo[i] < 0)
			continue;
		f->b[i].y[s] = hi[i];
		f->b[i].src[s] = "memcheck";
		f->b[i].exact[s] = hi[i] == lo[i] + 1;
		f->b[i].lo[s] = lo[i];
		f->b[i].touched = 1;
		cur[i] = hi[i];
	}
	if (sh_lo >= 0) {
		if (sh_hi > f->shared_need)
			f->shared_need = sh_hi;
		sh = sh_hi;
	}
	/* a plain run: how far each pure output is written */
	dir_for(f->c, "fit-written", k, dir, sizeof(dir));
	if (fexec(f, dir, k, cur, sh, NULL, 0, &p) != 0 || !p.exited ||
	    p.status != 0) {
		snprintf(f->why, sizeof(f->why), "case %d: the reference "
		    "fails without memcheck (%s) at the counts memcheck "
		    "accepts", k, p.exited ? "exit" : "killed");
		goto out;
	}
	for (i = 0; i < f->nb; i++) {
		long long w, c = cur[i] >= 0 ? cur[i] : f->b[i].spec[s];
		if (strcmp(f->b[i].role, "out") != 0 || f->b[i].global)
			continue;
		w = written(f, dir, i);
		if (w >= 0 && w < c) {
			f->b[i].y[s] = w;
			f->b[i].src[s] = "written";
			f->b[i].exact[s] = 1;
			f->b[i].touched = 1;
		}
	}
	rc = 0;
out:
	free(fs);
	return rc;
}

/* --------------------------------------------------------- the formula */

/* Terms a count may be made of, with their values in the m samples. */
static size_t
terms(struct fctx *f, json_t **plans, size_t m, size_t bi,
    struct fit_term *t, size_t max)
{
	json_t *launch = json_object_get(f->spec, "launch");
	json_t *sc = json_object_get(plans[0], "scalars"), *v;
	const char *names[32], *key;
	size_t nt = 0, ns = 0, i, j, s;

	memset(t, 0, max * sizeof(*t));
	/* 0: the spec's own count; 1: a constant */
	snprintf(t[nt].expr, sizeof(t[nt].expr), "%s", f->b[bi].spec_expr);
	for (s = 0; s < m; s++)
		t[nt].v[s] = f->b[bi].spec[s];
	nt++;
	snprintf(t[nt].expr, sizeof(t[nt].expr), "1");
	for (s = 0; s < m; s++)
		t[nt].v[s] = 1;
	nt++;
	json_object_foreach(sc, key, v)
		if (ns < 32 && size_scalar(f->spec, key))
			names[ns++] = key;
	for (i = 0; i < ns && nt < max; i++) {
		snprintf(t[nt].expr, sizeof(t[nt].expr), "%s", names[i]);
		for (s = 0; s < m; s++)
			t[nt].v[s] = (long long)json_number_value(
			    json_object_get(json_object_get(plans[s],
			    "scalars"), names[i]));
		nt++;
	}
	for (i = 0; i < ns; i++)
		for (j = i; j < ns && nt < max; j++) {
			snprintf(t[nt].expr, sizeof(t[nt].expr), "%s * %s",
			    names[i], names[j]);
			for (s = 0; s < m; s++)
				t[nt].v[s] = t[2 + i].v[s] * t[2 + j].v[s];
			nt++;
		}
	/* the launch: threads and blocks, as the spec writes them */
	if (nt + 2 <= max) {
		json_t *g = json_object_get(launch, "grid");
		json_t *bl = json_object_get(launch, "block");
		char ge[3][160], be[3][160];
		for (i = 0; i < 3; i++) {
			json_t *x = json_array_get(g, i), *y = json_array_get(bl,
			    i);
			if (json_is_string(x))
				snprintf(ge[i], sizeof(ge[i]), "%s",
				    json_string_value(x));
			else
				snprintf(ge[i], sizeof(ge[i]), "%lld",
				    (long long)json_integer_value(x));
			if (json_is_string(y))
				snprintf(be[i], sizeof(be[i]), "%s",
				    json_string_value(y));
			else
				snprintf(be[i], sizeof(be[i]), "%lld",
				    (long long)json_integer_value(y));
		}
		if (snprintf(t[nt].expr, sizeof(t[nt].expr),
		    "(%s) * (%s) * (%s)", ge[0], ge[1], ge[2]) >=
		    (int)sizeof(t[nt].expr) ||
		    snprintf(t[nt + 1].expr, sizeof(t[nt + 1].expr),
		    "(%s) * (%s) * (%s) * (%s) * (%s) * (%s)", ge[0], ge[1],
		    ge[2], be[0], be[1], be[2]) >= (int)sizeof(t[nt].expr))
			goto checked;	/* too long to be a term */
		for (s = 0; s < m; s++) {
			json_t *pg = json_object_get(plans[s], "grid");
			json_t *pb = json_object_get(plans[s], "block");
			long long blocks = 1, threads = 1;
			for (i = 0; i < 3; i++) {
				blocks *= json_integer_value(json_array_get(pg,
				    i));
				threads *= json_integer_value(json_array_get(pb,
				    i));
			}
			t[nt].v[s] = blocks;
			t[nt + 1].v[s] = blocks * threads;
		}
		nt += 2;
	}
	/* another buffer's count (a buffer sized like another) */
	for (i = 0; i < f->nb && nt < max; i++) {
		if (i == bi || f->b[i].global)
			continue;
		snprintf(t[nt].expr, sizeof(t[nt].expr), "%s",
		    f->b[i].spec_expr);
		for (s = 0; s < m; s++)
			t[nt].v[s] = f->b[i].spec[s];
		nt++;
	}
checked:
	for (i = 0; i < nt; i++)
		t[i].unusable = !fit_expr_ok(t[i].expr);
	return nt;
}

/* ----------------------------------------------------------- the record */

/*
 * Whether case 0, run once with the spec's counts and no sanitizer, exits
 * clean and leaves no sentinel element in a pure output: then the spec's
 * counts hold what the kernel writes and nothing faulted, and the fit,
 * many memcheck runs over several cases, is not run (the verdict's own
 * memcheck run on case 0 still judges the reads).  0 with why set when
 * the fit is needed.
 */
static int
case0_clean(struct fctx *f)
{
	char dir[PATH_MAX + 64];
	struct k_proc p;
	struct run r;
	size_t i;
	int clean = 1;

	dir_for(f->c, "fit-gate", 0, dir, sizeof(dir));
	if (fexec(f, dir, 0, NULL, -1, NULL, 0, &p) != 0)
		return 0;
	if (!p.exited || p.status != 0 || p.timed_out) {
		snprintf(f->why, sizeof(f->why), "case 0 %s with the spec's "
		    "counts", p.timed_out ? "ran out of time" : "failed");
		return 0;
	}
	memset(&r, 0, sizeof(r));
	if (snprintf(r.dir, sizeof(r.dir), "%s", dir) >= (int)sizeof(r.dir) ||
	    read_manifest(&r) != 0 || !r.ok) {
		run_free(&r);
		return 0;
	}
	for (i = 0; i < r.nout && clean; i++) {
		if (pure_output(&r, i) && unwritten(&r.out[i]) > 0) {
			snprintf(f->why, sizeof(f->why), "case 0 left %lld "
			    "elements of %s unwritten", unwritten(&r.out[i]),
			    r.out[i].name);
			clean = 0;
		}
	}
	run_free(&r);
	return clean;
}

/*
 * Fit rec's counts on the GPU and put the "fit" section into it; sets the
 * harness arguments later runs of the record use.  Returns 0, or -1 when
 * the record is done (no device).
 */
int
fit_record(struct ctx *c, const struct unit *h, const struct unit *ref)
{
	struct fctx *f = k_calloc(1, sizeof(*f));
	json_t *plans[FIT_MAX_SAMPLES], *samples = json_array();
	json_t *bufs = json_array(), *args = json_array(), *counts;
	int cases[FIT_MAX_SAMPLES], m = 0, k, ncases, npool = 0, j;
	struct pooled {
		json_t *plan;
		int k;
		long long bytes;
		char key[512];
	} *pool = k_calloc(FIT_POOL, sizeof(*pool));
	char key[512], dir[PATH_MAX + 64];
	const char *status = "confirmed";
	double t0 = k_now();
	struct k_proc p;
	size_t i, s;

	f->c = c;
	f->h = h;
	f->ref = ref;
	f->shared_need = -1;
	/* the whole fit: as long as thirty cases may take */
	f->deadline = t0 + 10 * opt.timeout;
	f->spec = json_object_get(json_object_get(c->rec, "wrap"), "spec");
	f->sec = json_object();
	f->rounds = json_array();
	counts = json_object();
	k_set_section(c->rec, "fit", f->sec);
	fit_args_set(NULL);
	if (!json_is_object(f->spec)) {
		status = "skipped";
		snprintf(f->why, sizeof(f->why), "the record has no wrap.spec");
		goto done;
	}
	if (c->fit_memcheck > 0)
		/* the verdict's memcheck run saw case 0 reach past its
		 * buffers though it ran clean and wrote every element */
		json_object_set_new(f->sec, "trigger", json_pack("{s:s,s:i}",
		    "tool", "memcheck", "errors", c->fit_memcheck));
	else if (case0_clean(f)) {
		status = "not-needed";
		snprintf(f->why, sizeof(f->why), "case 0 ran clean with the "
		    "spec's counts and wrote every element of its outputs");
		goto done;
	}
	if (opt.sanitizer == NULL) {
		status = "skipped";
		snprintf(f->why, sizeof(f->why), "compute-sanitizer not found");
		goto done;
	}
	/* each case's plan (no GPU): its sizes, counts and launch */
	ncases = (int)json_array_size(json_object_get(f->spec, "cases"));
	for (k = 0; k < ncases && k < MAX_CASES; k++) {
		json_t *plan, *e;
		char *text;
		int same = 0;
		dir_for(c, "fit-plan", k, dir, sizeof(dir));
		if (fexec(f, dir, k, NULL, -1, "--plan", 0, &p) != 0 ||
		    !p.exited || p.status != 0 || (text = log_of(dir)) == NULL) {
			text = log_of(dir);
			if (k == 0 && text != NULL && strstr(text, "error while "
			    "loading shared libraries") != NULL) {
				/* the harness cannot even start: no driver */
				free(text);
				status = "skipped";
				snprintf(f->why, sizeof(f->why), "no GPU");
				goto done;
			}
			free(text);
			if (k == 0) {
				status = "failed";
				snprintf(f->why, sizeof(f->why), "the harness "
				    "does not take --plan (exit %d): built "
				    "before runtime overrides; run kwrap and "
				    "kbuild again", p.exited ? p.status : -1);
				goto done;
			}
			continue;
		}
		plan = json_line(text, "{");
		free(text);
		if (!json_is_object(plan)) {
			json_decref(plan);
			continue;
		}
		size_key(f->spec, plan, key, sizeof(key));
		for (j = 0; j < npool; j++)
			if (strcmp(pool[j].key, key) == 0)
				same = 1;
		if (same || npool == FIT_POOL) {
			json_decref(plan);
			continue;
		}
		snprintf(pool[npool].key, sizeof(pool[npool].key), "%s", key);
		pool[npool].plan = plan;
		pool[npool].k = k;
		pool[npool].bytes = 0;
		json_array_foreach(json_object_get(plan, "buffers"), i, e)
			pool[npool].bytes += k_get_int(e, "bytes", 0);
		npool++;
	}
	/* case 0 (when it planned), then the cheapest other sizes: memcheck
	 * is slow on large cases, and small ones fit the same formula */
	for (j = 1; j < npool; j++) {
		struct pooled x = pool[j];
		int q = j;
		if (pool[0].k == 0 && j == 1)
			continue;
		while (q > (pool[0].k == 0 ? 1 : 0) && pool[q - 1].bytes >
		    x.bytes) {
			pool[q] = pool[q - 1];
			q--;
		}
		pool[q] = x;
	}
	for (j = 0; j < npool; j++) {
		if (m < FIT_MAX_SAMPLES && take_plan(f, pool[j].plan, m) == 0) {
			f->plan_sh[m] = k_get_int(pool[j].plan, "shared_mem", 0);
			plans[m] = pool[j].plan;
			cases[m++] = pool[j].k;
		} else
			json_decref(pool[j].plan);
	}
	if (m == 0) {
		status = "failed";
		snprintf(f->why, sizeof(f->why), "no case of the harness "
		    "could be planned");
		goto done;
	}
	f->ncases = ncases;
	/* case 0 first; the others only when case 0 changed something */
	for (s = 0; s < (size_t)m; s++) {
		int any = 0;
		if (sample(f, (int)s, cases[s]) != 0) {
			if (s == 0) {
				status = f->nodev ? "skipped" : "failed";
				for (i = 0; i < (size_t)m; i++)
					json_decref(plans[i]);
				goto done;
			}
			/* a later sample that fails: fit on those before */
			for (i = s; i < (size_t)m; i++)
				json_decref(plans[i]);
			m = (int)s;
			break;
		}
		json_array_append_new(samples, json_pack("{s:i,s:O}", "case",
		    cases[s], "scalars", json_object_get(plans[s],
		    "scalars")));
		for (i = 0; i < f->nb; i++)
			any |= f->b[i].touched;
		if (s == 0 && !any && f->shared_need < 0) {
			for (i = 1; i < (size_t)m; i++)
				json_decref(plans[i]);
			m = 1;
			break;
		}
	}
	f->why[0] = '\0';
	for (i = 0; i < f->nb; i++) {
		struct fit_term t[64];
		struct fit_result r;
		long long y[FIT_SAMPLES];
		json_t *bj, *sj = json_array();
		size_t nt;
		int exact = 1;
		if (!f->b[i].touched)
			continue;
		for (s = 0; s < (size_t)m; s++) {
			y[s] = f->b[i].y[s];
			exact &= f->b[i].exact[s];
			json_array_append_new(sj, json_pack("{s:i,s:I,s:I,s:s,"
			    "s:b}", "case", cases[s], "spec_count",
			    (json_int_t)f->b[i].spec[s], "count",
			    (json_int_t)y[s], "from", f->b[i].src[s], "exact",
			    f->b[i].exact[s]));
		}
		nt = terms(f, plans, (size_t)m, i, t, 64);
		if (fit_formula(t, nt, y, (size_t)m, 0, &r) != 0) {
			json_decref(sj);
			continue;
		}
		if (!exact && within_bounds(&f->b[i], t, nt, (size_t)m, &r))
			exact = 1;
		if (strcmp(r.how, "bound") == 0 || !exact)
			status = "bound";
		else if (strcmp(status, "confirmed") == 0 &&
		    strcmp(r.how, "static") != 0)
			status = "fitted";
		bj = json_pack("{s:s,s:s,s:s,s:s,s:o}", "name", f->b[i].name,
		    "spec", f->b[i].spec_expr, "formula", r.formula, "how",
		    !exact && strcmp(r.how, "static") != 0 ? "bound" : r.how,
		    "samples", sj);
		json_array_append_new(bufs, bj);
		if (strcmp(r.how, "static") != 0) {
			json_object_set_new(counts, f->b[i].name,
			    json_string(r.formula));
			json_array_append_new(args, json_string("--count"));
			json_array_append_new(args, json_sprintf("%s=%s",
			    f->b[i].name, r.formula));
		}
	}
	if (f->shared_need >= 0) {
		json_object_set_new(f->sec, "shared_mem",
		    json_integer(f->shared_need));
		json_array_append_new(args, json_string("--shared-mem"));
		json_array_append_new(args, json_sprintf("%lld",
		    f->shared_need));
		if (strcmp(status, "confirmed") == 0)
			status = "bound";
	}
	for (s = 0; s < (size_t)m; s++)
		json_decref(plans[s]);
done:
	json_object_set_new(f->sec, "status", json_string(status));
	if (f->why[0] != '\0')
		json_object_set_new(f->sec, "why", json_string(f->why));
	json_object_set_new(f->sec, "counts", counts);
	json_object_set_new(f->sec, "args", args);
	json_object_set_new(f->sec, "buffers", bufs);
	json_object_set_new(f->sec, "samples", samples);
	json_object_set_new(f->sec, "rounds", f->rounds);
	json_object_set_new(f->sec, "memcheck_runs", json_integer(f->nrounds));
	json_object_set_new(f->sec, "seconds", jround(k_now() - t0, 1e-3));
	fit_args_from(c->rec);
	free(pool);
	free(f);
	return 0;
}

/* ------------------------------------------------- the harness arguments */

/* Use args (a JSON array of strings, borrowed; NULL: none) for every
 * harness run of the record this thread verifies. */
void
fit_args_set(json_t *args)
{
	json_decref(cur_args);
	cur_args = args != NULL ? json_incref(args) : NULL;
}

/* The arguments rec's fit section gives (kept from an earlier run too). */
void
fit_args_from(json_t *rec)
{
	json_t *fit = json_object_get(rec, "fit");
	json_t *a = json_object_get(fit, "args");
	const char *st = k_get_str(fit, "status");
	size_t i;
	json_t *v;

	fit_args_set(NULL);
	if (!json_is_array(a) || json_array_size(a) == 0 ||
	    json_array_size(a) > 2 * FIT_BUFS + 2 || st == NULL ||
	    (strcmp(st, "fitted") != 0 && strcmp(st, "bound") != 0))
		return;
	/* only the harness's override options, each with its value */
	json_array_foreach(a, i, v) {
		const char *s = json_string_value(v);
		if (s == NULL)
			return;
		if (i % 2 == 0 && strcmp(s, "--count") != 0 &&
		    strcmp(s, "--shared-mem") != 0 && strcmp(s, "--set") != 0 &&
		    strcmp(s, "--grid") != 0 && strcmp(s, "--block") != 0)
			return;
	}
	if (json_array_size(a) % 2 != 0)
		return;
	fit_args_set(a);
}

/* Append this thread's harness arguments to argv at *n (room: max). */
void
fit_args_append(char **argv, int *n, int max)
{
	size_t i;
	json_t *v;

	json_array_foreach(cur_args, i, v)
		if (*n < max)
			argv[(*n)++] = (char *)json_string_value(v);
}
