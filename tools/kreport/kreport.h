/*
 * kreport's internal header: the units of tools/kreport/ and what they
 * share.  Records are read once (main.c) and digested into per-record
 * facts and count tables (digest.c); summary.c turns those into the one
 * JSON summary every report format is made from; render.c walks that
 * summary once and hands its headings, tables and lists to a backend
 * (md.c, html.c); debug.c writes per-failure folders and export.c dataset
 * rows.  No unit includes another's header but this one.
 *
 * Ownership: struct info owns its strings and classes and holds a
 * reference to its record; the tables own their keys and examples.
 */
#ifndef KREPORT_H
#define KREPORT_H

#include <stddef.h>

#include <jansson.h>

#define STAGE "kreport"
#define NAME_MAX_KEPT 80	/* bytes of sanitized id in a folder name */
#define FAILED_SHOWN 200	/* failed records listed in md and html */
#define FAIL_BARS 20		/* failure classes drawn in the chart */

enum { F_MD, F_HTML, F_JSON };
enum { X_NONE, X_KFORGE, X_TRITON };

struct kreport_opts {
	int format;
	int export;
	const char *debug_dir;
	int depth;
	const char *export_dir;	/* --export-dir: tasks as folders */
	size_t max_bytes;	/* --export-max-bytes: expected outputs */
	int mutants;		/* --export-mutants: killed mutants kept */
};
extern struct kreport_opts opt;

/* "s" unless n is 1: "1 task", "2 tasks" (render.c) */
const char *plural(long n);
/* The stages that never ran on these records, in words, or NULL: a
 * stage whose section no record has while the one before ran, and
 * verification where every record that reached it says no-device.
 * buf holds the text (render.c). */
const char *never_ran(json_t *s, char *buf, size_t len);

/* ------------------------------------------------------ digest.c */

/* One row of a count table: a failure class, a project, a task. */
struct agg {
	char *key;
	char *example;		/* the first record's id */
	char *message;		/* the first error's message */
	long records, built, cands, call, exe, perf, sp_n;
	double sp_log;
	long fast[4];		/* candidates correct and faster than p */
	long judged;		/* candidates with a pass_exe verdict */
};

struct table {
	struct agg *v;
	size_t n, cap;
};

/* What kreport knows of one input record. */
struct info {
	json_t *rec;
	const char *id;		/* borrowed from rec */
	char *task, *project, *dialect;
	int bad, cand;
	int call, exe, perf;	/* 1, 0, or -1: not reached */
	int has_sp;
	double sp;
	int banded;		/* a nondeterministic reference judged in a
				 * tolerance band (verify.tolerance) */
	json_t *classes;	/* failure classes, strings, deduplicated */
	char *dir;		/* debug folder name */
};

struct totals {
	long records, bad;
	long present[5], ok[5];
	long cands, call, exe, perf;
};

extern struct info *recs;
extern size_t nrecs;
extern struct totals tot;
extern const char *const sections[5];
extern const double fast_ps[4];
extern struct table t_fail, t_err, t_proj, t_dial, t_tag, t_task;
extern double *speedups;
extern size_t nsp;

/* The row of t for key, made empty when new (borrowed). */
struct agg *agg_get(struct table *t, const char *key);
void table_free(struct table *t);
/* qsort orders: by key; most records first, then by key. */
int by_key(const void *a, const void *b);
int by_count(const void *a, const void *b);
/* Read rec's facts into in and count them in the tables. */
void digest(struct info *in);
/* Add rec (stolen; bad: a line that was not a record) to recs. */
void add_record(json_t *rec, int bad);
/* Release recs and the tables. */
void records_free(void);

/* --------------------------------------------------------- ops.c */

/* Records by op (scan.op); "(none)" for a record without one. */
extern struct table t_op;
const char *op_key(struct info *in);
/* Whether any record names an op: the breakdown is shown then. */
int op_any(void);

/* ----------------------------------------------------- summary.c */

/* The summary of everything digested: a new reference. */
json_t *summary(void);

/* ------------------------------------------------------ render.c */

/* A table column: its heading and alignment: 'l' left, 'r' right, 'L'
 * left even where a format aligns its columns right by default. */
struct col {
	const char *name;
	char align;
};

/* A piece of a table cell or list item: plain text or code, a link to
 * href where a format has links (NULL: none). */
struct span {
	int code;
	const char *s;
	const char *href;
};

/*
 * A report format.  render() walks the summary once, in order, and calls
 * these; a format with charts draws them where one without them shows
 * the same numbers as further tables.
 */
struct backend {
	int charts;
	void (*begin)(void);
	void (*heading)(int level, const char *text);
	/* the run in one look: records, candidates, pass rates */
	void (*overview)(json_t *s);
	void (*para)(const char *text);
	void (*table)(const struct col *cols, size_t n);
	void (*row)(const struct span *cells, size_t n);
	void (*table_end)(void);
	void (*list)(void);
	void (*item)(const struct span *parts, size_t n);
	void (*list_end)(void);
	/* charts, where charts is set */
	void (*chart_stages)(json_t *s);
	void (*chart_speedups)(json_t *hist);
	void (*chart_failures)(json_t *failures);
	void (*end)(void);
};

extern const struct backend md_backend, html_backend;

void render(json_t *s, const struct backend *b);

double num(json_t *o, const char *key);
long inum(json_t *o, const char *key);
const char *pct(double x, char *buf, size_t len);
const char *count_pct(long n, long of, char *buf, size_t len);
const char *speed(json_t *v, char *buf, size_t len);

/* ------------------------------------------- debug.c, export.c */

/* A folder or file name for id: safe bytes, then "-" and 8 hex digits of
 * its hash; malloc'd. */
char *dir_name(const char *id);
char *unique_dir_name(json_t **used, const char *id);
void write_debug(struct info *in);
/* Forget the folder names write_debug gave this run. */
void debug_names_free(void);
void export_row(struct info *in);

/* ------------------------------------------------------- files.c */

/* The record's folder under opt.export_dir, or why it has none: one
 * line on stdout either way. */
void export_files(struct info *in);
/* Release what export_files kept between records. */
void export_files_end(void);

#endif
