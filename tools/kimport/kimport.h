/*
 * kimport's internal header: the options, a foreign row as kimport reads
 * it, and each unit's exported functions.  Nothing here is used outside
 * tools/kimport/ (and fuzz/fuzz_kimport.c).
 *
 * Ownership: a struct row borrows its strings from the row object it was
 * read from and owns nothing else; json_t * results are new references
 * unless a name ends in _borrowed.
 */
#ifndef KIMPORT_H
#define KIMPORT_H

#include <limits.h>

#include <jansson.h>

#define STAGE "kimport"

struct kimport_opt {
	const char *format;	/* -f: NULL detects each row's */
	const char *memory;	/* -m: the agent memory of standard input */
	int run_tests;		/* --run-tests */
	double timeout;		/* --timeout: a scan or a test run */
	long mem_mb;		/* --mem: a test run's data limit */
	char work[PATH_MAX];
	char kscan[PATH_MAX], kslice[PATH_MAX];
};
extern struct kimport_opt opt;

/* A foreign row, read: what it is, the code it proposes and the code it
 * holds as the reference, its own test. */
struct row {
	const char *format;	/* geak, tritonbench, computeeval, kernelbench */
	const char *task;	/* filename, task_id, problem id; never NULL */
	json_t *code;		/* the candidate: a string, or [{path, content}]
				 * (computeeval); NULL: none */
	json_t *label;		/* the row's own reference, same shapes */
	const char *filename;	/* what to call a one-file candidate */
	const char *test_code;	/* Python: geak, tritonbench */
	json_t *files;		/* computeeval: context_files + test_files */
	const char *build_command, *test_command;
	const char *model;
	char *extracted;	/* kernelbench: cuda_sources, malloc'd */
	char name[128];		/* a file name made from the task */
	char why[512];		/* when read_row fails */
};

/* rows.c: which format a row is and what it holds; 0, or -1 with the
 * error code returned and the reason in r->why */
const char *row_format(json_t *row);
int read_row(json_t *row, const char *format, struct row *r,
    const char **code);
void row_free(struct row *r);
/* kernelbench: the CUDA text a load_inline(cuda_sources=...) call in
 * Python source passes, malloc'd, or NULL with the reason in why */
char *cuda_sources(const char *py, char *why, size_t len);
/* a relative path that stays below its directory */
int safe_relpath(const char *p);

/* memory.c: GEAK-style agent memory, history per run and file */
void memory_load(const char *path, const char *run, long iter);
json_t *memory_history(const char *run, const char *filename);
/* the code a row of that iteration proposed, kept in its entry */
void memory_note_code(const char *run, const char *filename, long iter,
    json_t *code);
void memory_free(void);
/* "<dir>/<run>_mem_<iter>.json" for "<dir>/<run>_<iter>.jsonl", or NULL;
 * *run (malloc'd) and *iter set when the name has that shape */
char *memory_path_of(const char *path, char **run, long *iter);

/* scan.c: code through kscan and kslice, and the references */
json_t *scan_code(json_t *code, const char *filename, char *why,
    size_t len);
void refs_load(const char *path);
void refs_add(json_t *sliced);
json_t *refs_match_borrowed(json_t *cand, json_t *local);
void refs_free(void);

/* owntest.c: a row's own test, run in the sandbox when asked */
json_t *own_test(const struct row *r);

#endif
