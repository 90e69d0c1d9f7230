/*
 * kverify's internal header: the options, the shapes of a harness run, a
 * comparison and a record in progress, and the functions its units share.
 * Units: main (options, workers, child mode), record (one record through
 * the stages), golden (the reference's runs), verdict (verify.verified),
 * candidate, mutation (the mutants' score), timing, sanitize
 * (compute-sanitizer), run (harness processes
 * and manifests), compare, dtype, blob (the work directory's blob store),
 * hip (verify.hip: the platform and the wavefront width), gate (a GPU's
 * runs, shared and alone), util.
 *
 * Ownership: a struct run owns its buffers, manifest and tail until
 * run_free(); json_t values returned by functions here are new references.
 */
#ifndef KVERIFY_H
#define KVERIFY_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>

#include <jansson.h>

#include "k_exit.h"
#include "k_fs.h"
#include "k_dtype.h"
#include "k_hash.h"
#include "k_main.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_num.h"
#include "k_proc.h"
#include "k_record.h"

#define STAGE "kverify"
#define MAX_CASES 1000		/* more cases than this is a broken harness */
#define MAX_GPUS 64
#define MAX_WORKERS 256		/* --gpus times -j */
#define TAIL_MAX 2048		/* bytes of harness output kept in a fault */
#define SAN_MSGS 5		/* sanitizer messages kept per tool */
/* memcheck's guard after every allocation (--padding): an access past a
 * buffer that would land in the next one (the driver packs small
 * allocations 512 bytes apart) is reported instead of passing */
#define SAN_PADDING "4194304"
#define SERVE_START_LIMIT 120	/* seconds a serving harness may take to
				 * be ready (process, driver, context) */
#define CHECK_REPS 3		/* repetitions every checking run replays */
#define ORACLE_RUN (-1)		/* run_harness reps: the CPU reference only */
#define ALL_CASES (-2)		/* run_harness case: every case, one process */
#define SENTINEL 0xA5		/* the byte harnesses pre-fill outputs with */
#define SENTINEL2 0x5A		/* the golden's repeat pre-fills with this
				 * one (harness --sentinel): an element
				 * unwritten in both runs holds each */
#define CHILD_FLAG "--kverify-child"
#define HOST_FLAG "--kverify-host"	/* host.c */
#define SPREAD_K 4		/* default --spread-k: band = k x spread */
#define SPREAD_RACE 0.01	/* a spread over this fraction of the
				 * output's largest magnitude is a race, not
				 * rounding */

struct kv_opt {
	double timeout;
	int reps;		/* 0: --no-time */
	double atol, rtol;	/* < 0: per dtype defaults */
	double spread_k;	/* the band: max(atol, spread_k x spread) */
	int mutants;		/* 0: --no-mutants */
	double mutant_timeout;	/* seconds per case of a mutant's run */
	double threshold, suspicious;
	int sanitize;
	int memcheck;		/* 0: --no-memcheck */
	int fit;		/* --fit: the GPU sizes the spec first */
	int keep;
	long mem_mb;		/* 0: no data size limit */
	char work[PATH_MAX];	/* absolute; it may not exist */
	const char *work_from;	/* what named it, for messages */
	char self[PATH_MAX];
	char *sanitizer;
	int san_padding;	/* compute-sanitizer takes --padding */
	int gpus[MAX_GPUS];
	int ngpus;		/* 0: no --gpus, one worker, inherited env */
	int jobs;		/* -j: workers per GPU (or in all, without
				 * --gpus) */
	int serve;		/* 0: --no-serve, one process per run */
	int host;		/* --host: the worker's host runs records
				 * whose harness has harness.so */
	int reuse;		/* 0: --no-reuse, every golden computed */
	double noise_floor;	/* --noise-floor: the least relative
				 * uncertainty a speedup is given */
};

extern struct kv_opt opt;
extern pthread_mutex_t msg_lock;
extern int no_device;		/* set once a harness says there is no GPU */
extern char no_device_msg[512];

/* util.c */
json_t *tail_of(const char *path, size_t max);
json_t *jnum(double v);
json_t *jround(double v, double unit);
void fnv_hex(const unsigned char *p, size_t n, char out[17]);

/* blob.c */
int store_blob(const unsigned char *p, size_t n, char hex[K_SHA256_HEX]);

/* dtype.c */
/* Element types are lib/k_dtype's; a type it does not know is compared
 * as bytes. */
double load_float(const unsigned char *p, int size, const char *name);

/* run.c */
struct worker {
	int gpu;		/* -1: environment inherited */
	int slot;		/* its GPU's place in --gpus (0 without) */
	int index;
};

struct buf {
	char name[128];
	char type[32];
	long long count;
	unsigned char *data;
	size_t len;
	char checksum[40];
	/* the harness's NAME.timed.bin: the timed repetition that differs
	 * most from the first launch; NULL when all matched */
	unsigned char *timed;
	size_t timed_len;
	/* golden buffers: the largest |difference| seen between the
	 * reference's runs, over every case (0: none; SPREAD_NONE: a
	 * difference no band covers) */
	double spread;
	/* golden buffers: every difference between the reference's runs
	 * was the same elements in another order (0: none seen; -1: one
	 * was not), and so the output is compared as a multiset
	 * (unordered) */
	int order;
	int unordered;
	/* golden buffers: one byte an element, 1 where another run of the
	 * reference left the element outside the dtype's tolerance (NULL:
	 * none seen), their count, whether some run could not be compared
	 * element by element (another size), and the largest |difference|
	 * of the elements that stayed within it */
	unsigned char *unstable;
	long long nunstable;
	int nomask;
	double stable_spread;
	/* the output is judged on its stable elements alone (golden.c's
	 * tolerance(): masked); or, banded, its stable elements in their own
	 * band and the others in the output's (split) */
	int masked;
	int split;
};

#define SPREAD_NONE (-1.0)
#define MASK_MAX 0.5		/* an output whose runs differ on more than
				 * this fraction of its elements in a case is
				 * not judged on the rest */
#define MASK_RUNS 2		/* runs more that must move no element a
				 * mask does not hold */

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

/* gate.c: one GPU's runs, shared (checks) and alone (timings) */
struct gate {
	pthread_mutex_t m;
	pthread_cond_t shared_cv, alone_cv;
	int shared;		/* shared runs under way */
	int alone;		/* a timing has the GPU */
	int waiting;		/* timings waiting for it */
	int draining;		/* no shared run starts until they are served */
	int batch;		/* this many waiting start the drain */
	double delay;		/* or the first having waited this long */
};

void gate_init(struct gate *g, int batch, double delay);
void gate_enter(struct gate *g, int alone);
void gate_leave(struct gate *g, int alone);

void run_free(struct run *r);
int says_no_device(const struct run *r);
void run_locks_init(int jobs);
void gpu_hold(const struct worker *w);
void gpu_release(const struct worker *w);
double gpu_waited(void);
int run_harness(const struct worker *w, const char *harness,
    const char *module, const char *symbol, const char *dir, int kcase,
    int reps, const char *san_tool, double timeout, struct run *r);
int read_manifest(struct run *r);
int run_batch(const struct worker *w, const char *harness,
    const char *module, const char *symbol, const char *dir, int ncases,
    int reps, struct run *b);
int run_batch_limit(const struct worker *w, const char *harness,
    const char *module, const char *symbol, const char *dir, int ncases,
    int reps, double limit, struct run *b);
int batch_case(const struct run *b, int k, struct run *r);
json_t *gold_case(json_t *gold, int k);
/* the cases golden() left out for the record this thread verifies: every
 * later batch passes them to the harness as --skip */
#define SKIP_MAX 32
void case_skip_clear(void);
int case_skip_add(int k);
int case_skipped(int k);
void case_skip_keep(int n);
int case_skip_count(void);
struct buf *out_named(const struct run *r, const char *name);
int input_written(const struct run *r, size_t j);
int pure_output(const struct run *r, size_t i);
void log_run(json_t *runs, const char *role, int kcase, const char *mode,
    const struct run *r);
json_t *fault_json(const char *role, int kcase, const struct run *r);

/* serve.c: the record's long-lived harness (harness --serve) */
void serve_begin(const char *scratch);
void serve_end(json_t *v);
void serve_close(void);
int host_main(void);
int serve_serving(void);
extern _Thread_local int run_times_only;	/* timing.c: a run for its times */
extern _Thread_local int run_sentinel;	/* run_harness: --sentinel, 0: none */
extern _Thread_local int run_fresh;	/* a run in a process of its own */
int serve_run(const struct worker *w, char *const argv[], const char *dir,
    double timeout, struct k_proc *p);

/* compare.c */
struct cmp {
	double max_abs, max_rel;
	long long mismatches;
	long long first;	/* -1: none */
	long long nan_mismatches;
};

void compare(const struct buf *want, const struct buf *got, double atol_o,
    double rtol_o, struct cmp *c);
void compare_at(const struct buf *want, const struct buf *got,
    double atol_o, double rtol_o, struct cmp *c, unsigned char *bad);
size_t elements(const struct buf *b);
double spread(const struct buf *want, const unsigned char *got,
    size_t len, double *scale);
int same_multiset(const struct buf *want, const unsigned char *got,
    size_t len);
const char *first_difference(const struct buf *want, const unsigned char *got,
    size_t len, long long *elem, char *a, char *b, size_t n);
double band_atol(const struct buf *want);
double stable_atol(const struct buf *want);
double magnitude(const struct buf *b);
int all_bytes(const unsigned char *p, size_t n, int v);
int constant(const struct buf *b);
long long unwritten(const struct buf *b);
void add_reason(json_t *arr, const char *reason);

/* timing.c */
struct samples {
	double *v;
	size_t n, cap;
};

void samples_add(struct samples *s, const double *v, size_t n);
double median_of(double *v, size_t n);
json_t *stats(struct samples *s, double *median);

/* sanitize.c */
json_t *sanitize_one(const struct worker *w, const char *tool,
    const char *harness, const char *module, const char *symbol,
    const char *dir);
json_t *sanitize_case(const struct worker *w, const char *tool,
    const char *harness, const char *module, const char *symbol,
    const char *dir, int kcase);

/* sanreport.c: compute-sanitizer memcheck's findings */
struct san_finding {
	char space[16];		/* "global", "shared", "local"; "" if none */
	char kind[16];		/* "read", "write", "atomic"...; "other" */
	long long size;		/* bytes accessed; -1 unknown */
	unsigned long long addr, alloc;
	int have_addr, have_alloc, out_of_bounds, misaligned;
	int rel;		/* 1: after the allocation, -1: before, 0 */
	long long dist, alloc_size;
	char where[96];		/* "thread (x,y,z) in block (a,b,c)" */
	char text[160];		/* the finding's first line */
};

void san_parse(const char *text, struct san_finding *out, size_t max,
    size_t *n, long *errors);
long long san_need(const struct san_finding *f, unsigned long long base);

/* fitmath.c: a count as a formula over the samples */
#define FIT_SAMPLES 16		/* scalar settings a fit can use */
#define FIT_UNKNOWNS 3		/* terms in a fitted formula, at most */
#define FIT_VALUE_MAX 1000000000000LL
struct fit_term {
	char expr[256];		/* a harness expression */
	long long v[FIT_SAMPLES];	/* its value in each sample */
	int unusable;		/* not in the harness's override grammar */
};

struct fit_result {
	const char *how;	/* static, exact, single, bound */
	int nterms;
	int idx[FIT_UNKNOWNS];
	long long coef[FIT_UNKNOWNS];
	char formula[1024];
};

int fit_formula(const struct fit_term *t, size_t nt, const long long *y,
    size_t m, int stat, struct fit_result *r);
int fit_expr_ok(const char *e);

/* fit.c: kverify --fit, and the harness arguments a fit gives */
#define FIT_ARGS_MAX 160	/* harness arguments a fit may add */
struct ctx;
struct unit;
int fit_record(struct ctx *c, const struct unit *h, const struct unit *ref);
void fit_args_set(json_t *args);
void fit_args_from(json_t *rec);
void fit_args_append(char **argv, int *n, int max);

/* record.c */
struct unit {
	char path[PATH_MAX + 200];
	const char *symbol;
};

struct ctx {
	const struct worker *w;
	json_t *rec, *v, *runs;
	char tmp[PATH_MAX];
	int seq;
	int nodev;		/* this record found no GPU */
	int ngold;		/* golden runs allocated, to free on any path */
	double kernel_ms;
	double ref_seconds;	/* the reference's check run, every case */
	json_t *stages;		/* verify.stages */
	int fit_memcheck;	/* fit again: memcheck's errors on case 0 */
	double stage_t0, wait0;	/* stage_begin's clock and gpu_waited() */
};

int unit_of(json_t *build, const char *role, struct unit *u, int *runnable);
void dir_for(struct ctx *c, const char *what, int kcase, char *out,
    size_t len);
int mark_no_device(struct ctx *c, const struct run *r);
void stage_begin(struct ctx *c);
void stage_end(struct ctx *c, const char *name);
json_t *process(json_t *rec, const struct worker *w);

/* verdict.c */
void verdict(struct ctx *c, int ncases);

/* golden.c */
int golden(struct ctx *c, const struct unit *h, const struct unit *ref,
    struct run **gold_out);
void oracle(struct ctx *c, const struct unit *h, const struct unit *ref,
    struct run *gold, int ncases);

/* mutation.c */
void mutation(struct ctx *c, const struct unit *h, struct run *gold,
    int ncases);

/* candidate.c */
int timed_in_band(const struct run *g, const struct run *r);
long long timed_misses(const struct buf *want, const struct run *r,
    unsigned char *at);
int raced_at(const struct buf *want, size_t e);
int ref_rerun(struct ctx *c, const struct unit *h, int ncases, struct run *b);
int candidate(struct ctx *c, const struct unit *h, const struct unit *cand,
    struct run *gold, int ncases);

/* timing.c */
#define TIME_ROUNDS 4		/* timing rounds of each kernel, ABBA, at most */
#define TIME_ROUNDS_MIN 2	/* and at least: one ABBA pair */
#define TIMED_MIN_MS 1.0	/* a timed case runs at least this long */
#define TIMED_MAX_BYTES (16.0 * 1024 * 1024)	/* else, at most this much data */
double speedup_noise(double rse_ref, double rse_cand, const double *round_sp,
    int nrounds, double floor);
int timed_case(const struct run *gold, int ncases);
void timing(struct ctx *c, const struct unit *h, const struct unit *ref,
    const struct unit *cand, int kcase);

/* reuse.c: a golden of an earlier run taken again */
void golden_key(json_t *rec, char hex[K_SHA256_HEX]);
int golden_reuse(struct ctx *c, struct run **gold_out);

/* hip.c */
void hip_section(json_t *rec, json_t *v);

#endif
