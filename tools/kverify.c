/*
 * kverify: run each record's reference kernel through the harness kbuild
 * built, keep its outputs as the golden ones (by hash, in the work
 * directory), run the candidate kernel through the same harness, compare,
 * time both, and flag faults, nondeterminism, degenerate tests and the
 * usual ways of cheating.
 *
 * kverify never loads CUDA itself: every launch happens in a harness child
 * process (its own process group, a wall-clock limit, optionally a data
 * size limit), so a crash, hang or illegal address fails one record only.
 */
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "k_exit.h"
#include "k_fs.h"
#include "k_hash.h"
#include "k_msg.h"
#include "k_proc.h"
#include "k_record.h"

#define STAGE "kverify"
#define MAX_CASES 1000		/* more cases than this is a broken harness */
#define MAX_GPUS 64
#define TAIL_MAX 2048		/* bytes of harness output kept in a fault */
#define SAN_MSGS 5		/* sanitizer messages kept per tool */
#define CHECK_REPS 3		/* repetitions every checking run replays */
#define ORACLE_RUN (-1)		/* run_harness reps: the CPU reference only */
#define ALL_CASES (-2)		/* run_harness case: every case, one process */
#define SENTINEL 0xA5		/* the byte harnesses pre-fill outputs with */
#define CHILD_FLAG "--kverify-child"

static const char usage_line[] =
    "usage: kverify [-hqV] [--atol x] [--gpus list] [--keep] [--mem mb]\n"
    "               [--no-time | --time reps] [--rtol x] [--sanitize]\n"
    "               [--suspicious x] [--threshold x] [--timeout seconds]\n"
    "               [--work dir]\n";

static struct {
	double timeout;
	int reps;		/* 0: --no-time */
	double atol, rtol;	/* < 0: per dtype defaults */
	double threshold, suspicious;
	int sanitize;
	int keep;
	long mem_mb;		/* 0: no data size limit */
	char work[PATH_MAX];
	char self[PATH_MAX];
	char *sanitizer;
	int gpus[MAX_GPUS];
	int ngpus;		/* 0: no --gpus, one worker, inherited env */
} opt;

static pthread_mutex_t io_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t msg_lock = PTHREAD_MUTEX_INITIALIZER;
static int no_device;		/* set once a harness says there is no GPU */
static char no_device_msg[512];

/* ------------------------------------------------------------ helpers */

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}




/* A whole file in a malloc'd buffer (NUL added, not counted); max bounds
 * it.  NULL when unreadable or larger than max. */
static unsigned char *
read_file(const char *path, size_t max, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, got;

	*len = 0;
	if (fp == NULL)
		return NULL;
	for (;;) {
		if (n == cap) {
			unsigned char *nb;
			if (cap > max)
				break;
			cap = cap ? cap * 2 : 65536;
			if ((nb = realloc(buf, cap + 1)) == NULL)
				break;
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(fp) || !feof(fp) || n > max) {
		fclose(fp);
		free(buf);
		return NULL;
	}
	fclose(fp);
	if (buf == NULL && (buf = malloc(1)) == NULL)
		return NULL;
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The last max bytes of a file, as a JSON string. */
static json_t *
tail_of(const char *path, size_t max)
{
	size_t len;
	unsigned char *b = read_file(path, 1UL << 26, &len);
	json_t *s;

	if (b == NULL)
		return json_string("");
	s = len > max ? k_string_lossy((char *)b + len - max, max) :
	    k_string_lossy((char *)b, len);
	free(b);
	return s;
}

/* A finite number, or null: JSON has no NaN or infinity. */
static json_t *
jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *
jround(double v, double unit)
{
	return isfinite(v) ? json_real(round(v / unit) * unit) : json_null();
}



/* FNV-1a 64, as the harness writes its checksums. */
static void
fnv_hex(const unsigned char *p, size_t n, char out[17])
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* Store bytes under their SHA-256 in the work directory; the hash goes
 * to hex.  Written to a temporary name and renamed, so a concurrent
 * kverify never reads half a blob. */
static int
store_blob(const unsigned char *p, size_t n, char hex[K_SHA256_HEX])
{
	char dir[PATH_MAX + 16], path[PATH_MAX + 96], tmp[PATH_MAX + 128];
	struct stat st;
	FILE *fp;
	int rc = 0;

	k_sha256_hex(p, n, hex);
	snprintf(dir, sizeof(dir), "%s/blobs/%.2s", opt.work, hex);
	snprintf(path, sizeof(path), "%s/%s", dir, hex);
	if (stat(path, &st) == 0 && (size_t)st.st_size == n)
		return 0;
	if (k_mkdirs(dir) != 0)
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld.%lx", path, (long)getpid(),
	    (unsigned long)pthread_self());
	if ((fp = fopen(tmp, "wb")) == NULL)
		return -1;
	if (n > 0 && fwrite(p, 1, n, fp) != n)
		rc = -1;
	if (fclose(fp) != 0)
		rc = -1;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc != 0)
		unlink(tmp);
	return rc;
}

/* ------------------------------------------------------- dtypes */

enum kind { K_BYTES, K_FLOAT, K_INT };

struct dtype {
	const char *name;
	int size;
	enum kind kind;
	double atol, rtol;
};

/*
 * Default tolerances: an element passes when |got - want| <= atol + rtol *
 * |want| (numpy's allclose).  rtol is a few units in the last place of
 * each format times the growth of a reordered reduction; atol covers
 * results that cancel to about zero.
 */
static const struct dtype dtypes[] = {
	{ "float32", 4, K_FLOAT, 1e-5, 1e-4 },
	{ "float", 4, K_FLOAT, 1e-5, 1e-4 },
	{ "float64", 8, K_FLOAT, 1e-10, 1e-9 },
	{ "double", 8, K_FLOAT, 1e-10, 1e-9 },
	{ "float16", 2, K_FLOAT, 1e-3, 1e-2 },
	{ "half", 2, K_FLOAT, 1e-3, 1e-2 },
	{ "bfloat16", 2, K_FLOAT, 1e-2, 2e-2 },
	{ "int8", 1, K_INT, 0, 0 }, { "uint8", 1, K_INT, 0, 0 },
	{ "int16", 2, K_INT, 0, 0 }, { "uint16", 2, K_INT, 0, 0 },
	{ "int32", 4, K_INT, 0, 0 }, { "uint32", 4, K_INT, 0, 0 },
	{ "int", 4, K_INT, 0, 0 },
	{ "int64", 8, K_INT, 0, 0 }, { "uint64", 8, K_INT, 0, 0 },
	{ "bool", 1, K_INT, 0, 0 },
	{ NULL, 1, K_BYTES, 0, 0 }
};

static const struct dtype *
dtype_of(const char *name)
{
	const struct dtype *d;

	for (d = dtypes; d->name != NULL; d++)
		if (name != NULL && strcmp(d->name, name) == 0)
			return d;
	return d;
}

static double
half_to_double(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v;

	if (e == 0)
		v = ldexp(m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexp(m | 0x400, e - 25);
	return (h & 0x8000) ? -v : v;
}

static double
load_float(const unsigned char *p, int size, const char *name)
{
	float f;
	double d;
	uint16_t h;
	uint32_t u;

	switch (size) {
	case 8:
		memcpy(&d, p, 8);
		return d;
	case 4:
		memcpy(&f, p, 4);
		return f;
	default:
		memcpy(&h, p, 2);
		if (strcmp(name, "bfloat16") == 0) {
			u = (uint32_t)h << 16;
			memcpy(&f, &u, 4);
			return f;
		}
		return half_to_double(h);
	}
}

/* ------------------------------------------------------ harness runs */

struct worker {
	int gpu;		/* -1: environment inherited */
	int index;
};

struct buf {
	char name[128];
	char type[32];
	long long count;
	unsigned char *data;
	size_t len;
	char checksum[40];
};

struct run {
	struct k_proc p;
	int ran;		/* k_run started the child */
	int ok;			/* exit 0 and a readable manifest */
	char fault[16];		/* kind when !ok */
	char msg[512];
	json_t *tail;
	json_t *manifest;
	struct buf *out, *in;
	size_t nout, nin;
	double *times;
	size_t ntimes;
	int timed_match;	/* -1 absent */
	char dir[PATH_MAX];
};

static void
run_free(struct run *r)
{
	size_t i;

	for (i = 0; i < r->nout; i++)
		free(r->out[i].data);
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
static int
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
		if ((b->data = read_file(path, 1UL << 34, &b->len)) == NULL)
			return -1;
		(*n)++;
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

static int read_manifest(struct run *);

/*
 * Run one harness: HARNESS MODULE SYMBOL DIR [--case c] [--time reps],
 * through this program's child mode so that the GPU and the data limit
 * are set in the child only.  sanitizer: run it under compute-sanitizer
 * with that tool instead (then no manifest is read).
 */
static int
run_harness(const struct worker *w, const char *harness, const char *module,
    const char *symbol, const char *dir, int kcase, int reps,
    const char *san_tool, double timeout, struct run *r)
{
	char *argv[24], mem[32], gpu[16], cs[16], rs[16], log[PATH_MAX + 16];
	char ct[32];
	int n = 0;

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
	}
	argv[n++] = (char *)harness;
	if (module != NULL) {
		argv[n++] = (char *)module;
		argv[n++] = (char *)symbol;
		argv[n++] = (char *)dir;
		if (kcase == ALL_CASES) {
			/* each case under its own limit, kept by the harness
			 * (SIGALRM); timeout covers the whole batch */
			snprintf(ct, sizeof(ct), "%.0f", ceil(opt.timeout));
			argv[n++] = "--all";
			argv[n++] = "--case-timeout";
			argv[n++] = ct;
		} else {
			argv[n++] = "--case";
			argv[n++] = cs;
		}
		if (reps == ORACLE_RUN)
			argv[n++] = "--oracle";
		else if (reps > 0) {
			argv[n++] = "--time";
			argv[n++] = rs;
		}
	} else
		argv[n++] = "--cases";
	argv[n] = NULL;
	if (k_run(argv, dir, log, timeout, &r->p) != 0)
		return -1;
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
static int
read_manifest(struct run *r)
{
	char path[PATH_MAX + 32];
	size_t len;
	unsigned char *text;
	json_error_t jerr;
	json_t *t;

	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	text = read_file(path, 1UL << 24, &len);
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
static int
run_batch(const struct worker *w, const char *harness, const char *module,
    const char *symbol, const char *dir, int ncases, int reps,
    struct run *b)
{
	char sub[PATH_MAX + 32], path[PATH_MAX + 64];
	struct run r;
	int k;

	if (run_harness(w, harness, module, symbol, dir, ALL_CASES, reps,
	    NULL, opt.timeout * ncases + 10, b) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s/0/manifest.json", dir);
	if (!(b->p.exited && b->p.status == 2) || access(path, F_OK) == 0)
		return 0;
	/* a harness built before --all refuses it as bad usage: one
	 * process per case then, into the same directories */
	for (k = 0; k < ncases; k++) {
		snprintf(sub, sizeof(sub), "%s/%d", dir, k);
		if (run_harness(w, harness, module, symbol, sub, k, reps, NULL,
		    opt.timeout, &r) != 0)
			return -1;
		run_free(b);
		*b = r;
		snprintf(b->dir, sizeof(b->dir), "%s", dir);
		if (!r.ok)
			break;
	}
	return 0;
}

/*
 * Case k of batch b as a run of its own: its manifest and buffers when the
 * harness finished it.  The first case without a manifest is where a
 * failed batch stopped: it gets the batch's fault (exit, signal, tail).
 * Returns 0 for a case the batch never reached.
 */
static int
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

/* The output buffer of r called name, or NULL. */
static struct buf *
out_named(const struct run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nout; i++)
		if (strcmp(r->out[i].name, name) == 0)
			return &r->out[i];
	return NULL;
}

/* {role, case, mode, exit, signal, timed_out, seconds} for verify.runs */
static void
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

static json_t *
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

/* ------------------------------------------------------- comparison */

struct cmp {
	double max_abs, max_rel;
	long long mismatches;
	long long first;	/* -1: none */
	long long nan_mismatches;
};

static void
compare(const struct buf *want, const struct buf *got, double atol_o,
    double rtol_o, struct cmp *c)
{
	const struct dtype *d = dtype_of(want->type);
	size_t i, n, sz = (size_t)d->size;
	double atol = atol_o >= 0 ? atol_o : d->atol;
	double rtol = rtol_o >= 0 ? rtol_o : d->rtol;

	memset(c, 0, sizeof(*c));
	c->first = -1;
	if (d->kind == K_BYTES)
		sz = 1;
	n = want->len / sz;
	for (i = 0; i < n; i++) {
		const unsigned char *a = want->data + i * sz;
		const unsigned char *b = got->data + i * sz;
		int bad = 0;
		if (d->kind != K_FLOAT) {
			bad = memcmp(a, b, sz) != 0;
		} else {
			double x = load_float(a, d->size, d->name);
			double y = load_float(b, d->size, d->name);
			if (isnan(x) || isnan(y)) {
				/* NaN matches NaN only, in the same place */
				if (isnan(x) != isnan(y)) {
					bad = 1;
					c->nan_mismatches++;
				}
			} else if (isinf(x) || isinf(y)) {
				bad = x != y;
			} else {
				double e = fabs(x - y);
				if (e > c->max_abs)
					c->max_abs = e;
				if (x != 0 && e / fabs(x) > c->max_rel)
					c->max_rel = e / fabs(x);
				bad = !(e <= atol + rtol * fabs(x));
			}
		}
		if (bad) {
			if (c->first < 0)
				c->first = (long long)i;
			c->mismatches++;
		}
	}
}

static int
all_bytes(const unsigned char *p, size_t n, int v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return n > 0;
}

static int
constant(const struct buf *b)
{
	const struct dtype *d = dtype_of(b->type);
	size_t sz = d->kind == K_BYTES ? 1 : (size_t)d->size, i;

	if (b->len < 2 * sz)
		return 0;
	for (i = sz; i + sz <= b->len; i += sz)
		if (memcmp(b->data, b->data + i, sz) != 0)
			return 0;
	return 1;
}

static void
add_reason(json_t *arr, const char *reason)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (strcmp(json_string_value(v), reason) == 0)
			return;
	json_array_append_new(arr, json_string(reason));
}

/* ----------------------------------------------------------- timing */

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct samples {
	double *v;
	size_t n, cap;
};

static void
samples_add(struct samples *s, const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s->n == s->cap) {
			double *nv;
			s->cap = s->cap ? s->cap * 2 : 64;
			if ((nv = realloc(s->v, s->cap * sizeof(double))) ==
			    NULL)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
			s->v = nv;
		}
		if (isfinite(v[i]))
			s->v[s->n++] = v[i];
	}
}

static json_t *
stats(struct samples *s, double *median)
{
	json_t *o = json_object();
	double sum = 0, sq = 0, mean, med;
	size_t i;

	*median = NAN;
	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	if (s->n == 0)
		return o;
	qsort(s->v, s->n, sizeof(double), cmp_double);
	med = s->n % 2 ? s->v[s->n / 2] :
	    (s->v[s->n / 2 - 1] + s->v[s->n / 2]) / 2;
	for (i = 0; i < s->n; i++)
		sum += s->v[i];
	mean = sum / s->n;
	for (i = 0; i < s->n; i++)
		sq += (s->v[i] - mean) * (s->v[i] - mean);
	*median = med;
	json_object_set_new(o, "median_ms", jnum(med));
	json_object_set_new(o, "min_ms", jnum(s->v[0]));
	json_object_set_new(o, "max_ms", jnum(s->v[s->n - 1]));
	json_object_set_new(o, "mean_ms", jnum(mean));
	json_object_set_new(o, "stddev_ms", jnum(sqrt(sq / s->n)));
	return o;
}

/* --------------------------------------------------------- sanitizer */

static json_t *
sanitize_one(const struct worker *w, const char *tool, const char *harness,
    const char *module, const char *symbol, const char *dir)
{
	struct run r;
	char log[PATH_MAX + 96], *line, *save = NULL, *p;
	json_t *o = json_object(), *msgs = json_array();
	unsigned char *text;
	size_t len;
	long errors = -1;

	if (run_harness(w, harness, module, symbol, dir, 0, 0, tool,
	    opt.timeout * 10, &r) != 0) {
		json_object_set_new(o, "errors", json_null());
		json_object_set_new(o, "messages", msgs);
		json_object_set_new(o, "note", json_string(
		    "could not run compute-sanitizer"));
		return o;
	}
	snprintf(log, sizeof(log), "%s.log", dir);
	if ((text = read_file(log, 1UL << 26, &len)) != NULL) {
		for (line = strtok_r((char *)text, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, "========= ", 10) != 0)
				continue;
			if ((p = strstr(line, "ERROR SUMMARY: ")) != NULL) {
				errors = strtol(p + 15, NULL, 10);
				continue;
			}
			p = line + 10;
			/* the first line of each finding; frames and
			 * addresses are indented below it */
			if (*p == ' ' || *p == '\0' ||
			    json_array_size(msgs) >= SAN_MSGS ||
			    strncmp(p, "COMPUTE-SANITIZER", 17) == 0)
				continue;
			json_array_append_new(msgs, k_string_lossy(p,
			    strlen(p)));
		}
		free(text);
	}
	json_object_set_new(o, "errors", errors >= 0 ?
	    json_integer(errors) : json_null());
	json_object_set_new(o, "messages", msgs);
	json_object_set_new(o, "exit", r.p.exited ? json_integer(r.p.status) :
	    json_null());
	json_object_set_new(o, "timed_out", json_boolean(r.p.timed_out));
	run_free(&r);
	return o;
}

/* ---------------------------------------------------- per record */

struct unit {
	char path[PATH_MAX + 200];
	const char *symbol;
};

/* The artifact of build.<role> when it was built ok: 1, else 0. */
static int
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

struct ctx {
	const struct worker *w;
	json_t *rec, *v, *runs;
	char tmp[PATH_MAX];
	int seq;
	int nodev;		/* this record found no GPU */
	int ngold;		/* golden runs allocated, to free on any path */
	double kernel_ms;
};

static void
dir_for(struct ctx *c, const char *what, int kcase, char *out, size_t len)
{
	snprintf(out, len, "%s/%02d-%s-%d", c->tmp, c->seq++, what, kcase);
}

static int
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

/* The golden runs; returns the number of cases, -1 when the record is done
 * (an error or fault is recorded). */
static int
golden(struct ctx *c, const struct unit *h, const struct unit *ref,
    struct run **gold_out)
{
	struct run r, r2, batch, batch2;
	char dir[PATH_MAX + 64];
	json_t *gold = json_array(), *degen = json_array();
	int ncases, k, det = 1;
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
	ncases = r.ok ? atoi(json_string_value(r.tail)) : -1;
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
	if ((gold_runs = calloc((size_t)ncases, sizeof(*gold_runs))) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	c->ngold = ncases;
	*gold_out = gold_runs;
	/* every case in one process */
	dir_for(c, "ref", -1, dir, sizeof(dir));
	if (run_batch(c->w, h->path, ref->path, ref->symbol, dir, ncases,
	    CHECK_REPS, &batch) != 0) {
		k_fail(c->rec, STAGE, "harness", "%s: cannot run harness: %s",
		    k_id_text(c->rec), strerror(errno));
		return -1;
	}
	log_run(c->runs, "reference", -1, "check", &batch);
	for (k = 0; k < ncases; k++) {
		struct run *g = &gold_runs[k];
		json_t *gc, *outs;

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
			det = 0;
		gc = json_object();
		outs = json_array();
		json_object_set_new(gc, "case", json_integer(k));
		json_object_set_new(gc, "outputs", outs);
		json_array_append_new(gold, gc);
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
			json_array_append_new(outs, o);

			if (all_bytes(b->data, b->len, SENTINEL))
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

	/* every case again, in a fresh process */
	dir_for(c, "ref2", -1, dir, sizeof(dir));
	if (run_batch(c->w, h->path, ref->path, ref->symbol, dir, ncases, 0,
	    &batch2) != 0) {
		k_fail(c->rec, STAGE, "harness", "%s: cannot run harness: %s",
		    k_id_text(c->rec), strerror(errno));
		return -1;
	}
	log_run(c->runs, "reference", -1, "repeat", &batch2);
	for (k = 0; k < ncases; k++) {
		struct run *g = &gold_runs[k];

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
		if (r2.nout != g->nout)
			det = 0;
		for (i = 0; i < g->nout && i < r2.nout; i++)
			if (r2.out[i].len != g->out[i].len ||
			    memcmp(r2.out[i].data, g->out[i].data,
			    g->out[i].len) != 0)
				det = 0;
		run_free(&r2);
	}
	run_free(&batch2);
	json_object_set_new(c->v, "deterministic", json_boolean(det));
	return ncases;
}

/*
 * The CPU reference compiled into the harness (wrap.harness.oracle), run
 * on every case's inputs and compared with the reference kernel's golden
 * outputs: an independent check of the task itself.  Sets verify.oracle;
 * a disagreement does not fail the record (either side may be wrong) but
 * is reported, and kreport stops counting the golden as trusted.
 */
static void
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
			compare(w, g, opt.atol, opt.rtol, &m);
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

/* Run the candidate on every case and compare; returns pass_exe. */
static int
candidate(struct ctx *c, const struct unit *h, const struct unit *cand,
    struct run *gold, int ncases)
{
	json_t *cv = json_object(), *cases = json_array();
	json_t *reasons = json_array();
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
		return 0;
	}
	log_run(c->runs, "candidate", -1, "check", &batch);
	for (k = 0; k < ncases; k++) {
		struct run r;
		json_t *cc = json_object(), *outs = json_array();
		struct run *g = &gold[k];

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
			return 0;
		}
		json_object_set_new(cc, "pass", json_true());
		if (r.timed_match == 0) {
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
			if (j >= g->nin || g->in[j].len != r.in[j].len ||
			    memcmp(g->in[j].data, r.in[j].data,
			    r.in[j].len) != 0) {
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
			compare(want, got, opt.atol, opt.rtol, &m);
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
	return pass;
}

/* Reference and candidate timed in the same run, alternating: round 0
 * runs ref then cand, round 1 cand then ref. */
static void
timing(struct ctx *c, const struct unit *h, const struct unit *ref,
    const struct unit *cand)
{
	struct samples s[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
	const struct unit *who[2] = { ref, cand };
	static const char *const role[2] = { "reference", "candidate" };
	json_t *t = json_object();
	char dir[PATH_MAX + 64];
	double med[2] = { NAN, NAN };
	int round, k, n = cand != NULL ? 2 : 1;

	json_object_set_new(c->v, "timing", t);
	json_object_set_new(t, "case", json_integer(0));
	json_object_set_new(t, "reps", json_integer(opt.reps));
	json_object_set_new(t, "rounds", json_integer(2));
	for (round = 0; round < 2; round++) {
		for (k = 0; k < n; k++) {
			int i = round % 2 == 0 ? k : n - 1 - k;
			struct run r;
			dir_for(c, "time", 0, dir, sizeof(dir));
			if (run_harness(c->w, h->path, who[i]->path,
			    who[i]->symbol, dir, 0, opt.reps, NULL,
			    opt.timeout, &r) != 0)
				continue;
			log_run(c->runs, role[i], 0, "time", &r);
			if (r.ok) {
				size_t j;
				samples_add(&s[i], r.times, r.ntimes);
				for (j = 0; j < r.ntimes; j++)
					if (isfinite(r.times[j]))
						c->kernel_ms += r.times[j];
				if (i == 1 && r.timed_match == 0)
					json_object_set_new(t,
					    "candidate_outputs_differ",
					    json_true());
			} else if (i == 1 &&
			    json_object_get(c->v, "fault") == NULL)
				json_object_set_new(c->v, "fault",
				    fault_json("candidate", 0, &r));
			run_free(&r);
		}
	}
	json_object_set_new(t, "reference", stats(&s[0], &med[0]));
	if (cand != NULL) {
		double sp;
		json_object_set_new(t, "candidate", stats(&s[1], &med[1]));
		sp = med[0] / med[1];
		json_object_set_new(t, "speedup", jround(sp, 1e-4));
		json_object_set_new(t, "suspicious", json_boolean(
		    isfinite(sp) && sp > opt.suspicious));
	}
	free(s[0].v);
	free(s[1].v);
}

/* Verify what rec holds; returns rec with a verify section (steals). */
static json_t *
process(json_t *rec, const struct worker *w)
{
	json_t *build = json_object_get(rec, "build");
	struct unit h, ref, cand;
	struct run *gold = NULL;
	struct ctx c;
	int runnable, cand_ok = 0, has_cand, ncases, pass_exe = -1, k;
	double t0 = now();

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
	c.v = json_object();
	if (!runnable || ref.symbol == NULL) {
		/* HIP code objects are compile-checked only here */
		json_object_set_new(c.v, "skipped", json_string(
		    "reference is not runnable on this machine"));
		json_object_set_new(c.v, "pass_exe", json_null());
		json_object_set_new(c.v, "pass_perf", json_null());
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
	if (w->gpu >= 0)
		json_object_set_new(c.v, "gpu", json_integer(w->gpu));

	has_cand = json_object_get(build, "candidate") != NULL;
	if (has_cand)
		cand_ok = unit_of(build, "candidate", &cand, &runnable) &&
		    runnable && cand.symbol != NULL;

	ncases = golden(&c, &h, &ref, &gold);
	if (ncases > 0 && json_is_true(json_object_get(json_object_get(
	    json_object_get(rec, "wrap"), "harness"), "oracle")))
		oracle(&c, &h, &ref, gold, ncases);
	if (ncases > 0 && opt.sanitize) {
		static const char *const tools[] = { "memcheck", "racecheck",
		    "initcheck", "synccheck" };
		json_t *san = json_object();
		char dir[PATH_MAX + 64];
		size_t i;
		json_object_set_new(c.v, "sanitize", san);
		for (i = 0; i < 4; i++) {
			if (opt.sanitizer == NULL) {
				json_object_set_new(san, "note", json_string(
				    "compute-sanitizer not found"));
				break;
			}
			dir_for(&c, tools[i], 0, dir, sizeof(dir));
			json_object_set_new(san, tools[i], sanitize_one(w,
			    tools[i], h.path, ref.path, ref.symbol, dir));
		}
	}
	if (ncases > 0 && has_cand) {
		if (!cand_ok) {
			json_t *cv = json_object(), *rs = json_array();
			json_array_append_new(rs, json_string("not-built"));
			json_object_set_new(cv, "reasons", rs);
			json_object_set_new(c.v, "candidate", cv);
			pass_exe = 0;
		} else
			pass_exe = candidate(&c, &h, &cand, gold, ncases);
	}
	if (ncases > 0 && opt.reps > 0)
		timing(&c, &h, &ref, pass_exe == 1 ? &cand : NULL);
	if (gold != NULL) {
		/* all that golden() allocated, also when it failed midway */
		for (k = 0; k < c.ngold; k++)
			run_free(&gold[k]);
		free(gold);
	}

	json_object_set_new(c.v, "pass_exe", pass_exe < 0 ? json_null() :
	    json_boolean(pass_exe));
	{
		json_t *t = json_object_get(c.v, "timing");
		json_t *sp = json_object_get(t, "speedup");
		json_t *pp = json_null();
		if (pass_exe == 0)
			pp = json_false();
		else if (pass_exe == 1 && json_is_number(sp))
			pp = json_boolean(json_number_value(sp) >=
			    opt.threshold);
		else if (pass_exe == 1 && opt.reps > 0)
			pp = json_false();
		json_object_set_new(c.v, "pass_perf", pp);
	}
	json_object_set_new(c.v, "runs", c.runs);
	{
		double secs = now() - t0;
		json_object_set_new(c.v, "seconds", jround(secs, 1e-3));
		json_object_set_new(c.v, "kernel_seconds",
		    jround(c.kernel_ms / 1000, 1e-6));
		json_object_set_new(c.v, "overhead_seconds",
		    jround(secs - c.kernel_ms / 1000, 1e-3));
	}
	if (!opt.keep)
		k_remove_tree(c.tmp);
	if (c.nodev) {
		/* nothing ran: no section, only the error */
		json_decref(c.v);
		return rec;
	}
	k_set_section(rec, "verify", c.v);
	return rec;
}

/* ------------------------------------------------------------ driver */

static struct k_reader reader;
static int read_done;

static void *
worker_main(void *arg)
{
	const struct worker *w = arg;
	json_t *rec;
	int rc, bad;

	for (;;) {
		pthread_mutex_lock(&io_lock);
		rc = read_done ? 0 : k_read(&reader, &rec, &bad);
		if (rc != 1)
			read_done = 1;
		pthread_mutex_unlock(&io_lock);
		if (rc != 1)
			return NULL;
		if (!bad)
			rec = process(rec, w);
		pthread_mutex_lock(&io_lock);
		if (k_has_errors(rec))
			k_exit_raise(K_EXIT_RECORDS);
		if (k_write(rec) != 0)
			read_done = 1;
		pthread_mutex_unlock(&io_lock);
		json_decref(rec);
	}
}

/* The child mode: kverify --kverify-child MB GPU PROGRAM ARGS... sets the
 * limits of one harness run and becomes it. */
static int
child_main(int argc, char *argv[])
{
	long mb;
	int gpu;

	if (argc < 5)
		return 127;
	mb = strtol(argv[2], NULL, 10);
	gpu = atoi(argv[3]);
	if (mb > 0) {
		/* RLIMIT_AS would count the GPU's mapped address space
		 * and break CUDA; RLIMIT_DATA counts the heap and private
		 * writable mappings only */
		struct rlimit rl;
		rl.rlim_cur = rl.rlim_max = (rlim_t)mb * 1024 * 1024;
		if (setrlimit(RLIMIT_DATA, &rl) != 0)
			return 126;
	}
	if (gpu >= 0) {
		char v[16];
		snprintf(v, sizeof(v), "%d", gpu);
		setenv("CUDA_VISIBLE_DEVICES", v, 1);
		setenv("HIP_VISIBLE_DEVICES", v, 1);
	}
	execv(argv[4], argv + 4);
	fprintf(stderr, "kverify: %s: cannot run: %s\n", argv[4],
	    strerror(errno));
	return 127;
}

static char *
find_sanitizer(void)
{
	const char *cp = getenv("CUDA_PATH");
	char path[PATH_MAX + 64];

	if (cp != NULL && *cp != '\0') {
		snprintf(path, sizeof(path), "%s/bin/compute-sanitizer", cp);
		if (access(path, X_OK) == 0)
			return strdup(path);
	}
	if (access("/usr/local/cuda/bin/compute-sanitizer", X_OK) == 0)
		return strdup("/usr/local/cuda/bin/compute-sanitizer");
	return k_which("compute-sanitizer");
}

static void
usage(void)
{
	fputs(usage_line, stderr);
	exit(K_EXIT_USAGE);
}

static double
number(const char *flag, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || end == s || !(v >= lo) ||
	    !(v <= hi))
		k_fatal(K_EXIT_USAGE, NULL, "%s: not a number from %g to %g: "
		    "%s", flag, lo, hi, s);
	return v;
}

static void
parse_gpus(const char *s)
{
	char buf[512], *p, *save = NULL, *end;
	long v;
	int i;

	if (strlen(s) >= sizeof(buf) || *s == '\0')
		k_fatal(K_EXIT_USAGE, NULL, "--gpus: expected a list such as "
		    "0,1: %s", s);
	snprintf(buf, sizeof(buf), "%s", s);
	for (p = strtok_r(buf, ",", &save); p != NULL;
	    p = strtok_r(NULL, ",", &save)) {
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno != 0 || *end != '\0' || end == p || v < 0 ||
		    v > 1023 || opt.ngpus == MAX_GPUS)
			k_fatal(K_EXIT_USAGE, NULL, "--gpus: expected a list "
			    "such as 0,1: %s", s);
		for (i = 0; i < opt.ngpus; i++)
			if (opt.gpus[i] == v)
				k_fatal(K_EXIT_USAGE, NULL, "--gpus: %ld "
				    "given twice", v);
		opt.gpus[opt.ngpus++] = (int)v;
	}
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "atol", required_argument, NULL, 'a' },
		{ "gpus", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ "keep", no_argument, NULL, 'k' },
		{ "mem", required_argument, NULL, 'm' },
		{ "no-time", no_argument, NULL, 'N' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "rtol", required_argument, NULL, 'r' },
		{ "sanitize", no_argument, NULL, 's' },
		{ "suspicious", required_argument, NULL, 'S' },
		{ "threshold", required_argument, NULL, 'T' },
		{ "time", required_argument, NULL, 'R' },
		{ "timeout", required_argument, NULL, 't' },
		{ "version", no_argument, NULL, 'V' },
		{ "work", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	struct worker workers[MAX_GPUS];
	pthread_t th[MAX_GPUS];
	const char *work = getenv("KFORGE_WORK");
	int ch, i, n, time_given = 0, no_time = 0;

	if (argc > 1 && strcmp(argv[1], CHILD_FLAG) == 0)
		return child_main(argc, argv);
	k_msg_init(argv[0]);
	opt.timeout = 60;
	opt.reps = 20;
	opt.atol = opt.rtol = -1;
	opt.threshold = 1.0;
	opt.suspicious = 10.0;
	while ((ch = getopt_long(argc, argv, "hqV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'a':
			opt.atol = number("--atol", optarg, 0, 1e300);
			break;
		case 'g':
			parse_gpus(optarg);
			break;
		case 'k':
			opt.keep = 1;
			break;
		case 'm':
			opt.mem_mb = (long)number("--mem", optarg, 1, 1 << 24);
			break;
		case 'N':
			no_time = 1;
			break;
		case 'q':
			k_msg_quiet(1);
			break;
		case 'r':
			opt.rtol = number("--rtol", optarg, 0, 1e300);
			break;
		case 's':
			opt.sanitize = 1;
			break;
		case 'S':
			opt.suspicious = number("--suspicious", optarg, 0,
			    1e300);
			break;
		case 'T':
			opt.threshold = number("--threshold", optarg, 0,
			    1e300);
			break;
		case 'R':
			opt.reps = (int)number("--time", optarg, 1, 100000);
			time_given = 1;
			break;
		case 't':
			opt.timeout = number("--timeout", optarg, 0.001,
			    86400);
			break;
		case 'V':
			puts("kverify (kforge) 0.1");
			return k_finish();
		case 'w':
			work = optarg;
			break;
		case 'h':
			fputs(usage_line, stdout);
			return k_finish();
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	if (no_time && time_given)
		k_fatal(K_EXIT_USAGE, NULL, "--time and --no-time exclude "
		    "each other");
	if (no_time)
		opt.reps = 0;
	if (work == NULL || *work == '\0')
		work = ".kforge";
	if (k_mkdirs(work) != 0 || realpath(work, opt.work) == NULL)
		k_fatal(K_EXIT_IO, work, "cannot use as work directory: %s",
		    strerror(errno));
	if (realpath("/proc/self/exe", opt.self) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "cannot find this program's own "
		    "path: %s", strerror(errno));
	if (opt.sanitize && (opt.sanitizer = find_sanitizer()) == NULL)
		k_warn(K_EXIT_OK, NULL, "--sanitize: compute-sanitizer not "
		    "found ($CUDA_PATH/bin, /usr/local/cuda/bin, PATH)");

	n = opt.ngpus > 0 ? opt.ngpus : 1;
	for (i = 0; i < n; i++) {
		workers[i].gpu = opt.ngpus > 0 ? opt.gpus[i] : -1;
		workers[i].index = i;
	}
	k_reader_init(&reader, stdin, "<stdin>", STAGE);
	if (n == 1)
		worker_main(&workers[0]);
	else {
		for (i = 0; i < n; i++)
			if (pthread_create(&th[i], NULL, worker_main,
			    &workers[i]) != 0)
				k_fatal(K_EXIT_SYSTEM, NULL,
				    "cannot start a thread");
		for (i = 0; i < n; i++)
			pthread_join(th[i], NULL);
	}
	k_reader_free(&reader);
	free(opt.sanitizer);
	return k_finish();
}
