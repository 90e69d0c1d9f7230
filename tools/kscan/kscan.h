/*
 * kscan's internal interface, shared by the units of tools/kscan/ and by
 * nothing else.
 *
 * Ownership: the unit table (units, nunits) and the option block (opt)
 * belong to main.c and live for the whole run; a unit owns its strings,
 * string vectors and JSON arrays.  A struct ctx lives for one parse: its
 * file table is freed by free_files(), and the text a fileinfo points to
 * belongs to the translation unit.
 */
#ifndef KSCAN_H
#define KSCAN_H

#include <sys/stat.h>
#include <sys/types.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>
#include <jansson.h>

#include "k_exit.h"
#include "k_fs.h"
#include "k_flags.h"
#include "k_hash.h"
#include "k_main.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_num.h"
#include "k_parse.h"
#include "k_pcache.h"
#include "k_pch.h"
#include "k_proc.h"
#include "k_progress.h"
#include "k_record.h"

#define STAGE "kscan"
#define MAX_DIAG_MESSAGES 5
#define MAX_DEPTH 64		/* directory recursion */

/* One translation unit to parse. */
struct unit {
	char *path;		/* as opened */
	char *dir;		/* working directory (compile_commands.json) */
	struct k_strv flags;	/* per-unit -I/-D/... flags */
	json_t *build_flags;	/* nvcc's, from compile_commands.json, or NULL */
	int header;		/* a header parsed on its own */
	json_t *kernels;	/* results, filled by a worker */
	json_t *launches;
	json_t *errors;		/* error records for this input */
	json_t *chain;		/* chain.c's facts from its parse, or NULL */
	struct k_strv seen;	/* real paths of project files it included */
	struct k_strv deps;	/* real paths of every file either side read */
	int missing;		/* an include was not found: the result
				 * depends on the files under the scanned
				 * directories */
	struct k_strv recall;	/* macro sets ("A B") to parse again with */
	struct k_strv assume;	/* the macros the current parse defines */
	struct k_strv skipped;	/* "real:offset" of skipped ranges seen */
	char key[K_SHA256_HEX];	/* its parse cache entry; "": none */
	int done;		/* its reply came from the cache */
	int resolved;		/* its quoted includes were resolved */
	size_t weight;		/* bytes of project text its parse reads */
	int prepared;		/* its precompiled headers were made */
	struct k_strv rewrite_paths;	/* files the parse reads from */
	struct k_strv rewrite_texts;	/* these texts (k_alignas_first) */
	const char *dialect;	/* as cache_lookup found it, static */
	double seconds;
};

struct options {
	char root[PATH_MAX];	/* real path: ids are relative to it */
	size_t rootlen;
	const char *root_given;	/* --root as given, or NULL: scan.root */
	const char *lang;	/* forced dialect or NULL */
	struct k_strv flags;	/* -I and -D from the command line */
	int jobs;
	int timing;
	double timeout;		/* per unit, seconds; 0: none */
	int no_cache;
	int no_chain;		/* --no-chain: no files read for the chain */
	const char *work;	/* --work */
	struct k_pcache cache;	/* off when no_cache */
	struct k_pcache pch;	/* precompiled toolkit headers, the same */
	char tree[K_SHA256_HEX];	/* the files under directory arguments */
};

extern struct options opt;
extern struct unit *units;
extern size_t nunits, capunits;
extern struct k_strv headers;	/* candidate headers found while walking */
extern struct k_strv allfiles;	/* every file under a directory argument */

/* A file of the translation unit being walked. */
struct fileinfo {
	CXFile file;
	char *rel;		/* project-relative path */
	char *real;
	int project;		/* not a system header, not the prelude */
	const char *text;	/* owned by the translation unit */
	size_t size;
};

/* A parse's macro definitions (macro_def) and the macro invocations
 * whose launches are out (macrolaunch.c): one per parse, shared by every
 * function's walk through the pointer in ctx. */
struct macros {
	CXCursor *def;
	size_t n, cap;
	json_t *index;		/* name -> place in def of its last one;
				 * NULL until read */
	json_t *expanded;
};

/* The walk of one parse. */
struct ctx {
	struct unit *u;
	CXTranslationUnit tu;
	const char *dialect;
	int device;
	CXCursor func;		/* enclosing function, for launch sites */
	int in_func;
	struct fileinfo **files;	/* stable pointers: callers keep them */
	size_t nfiles, capfiles;
	json_t *diagnostics;	/* summary for kernels of this parse */
	json_t *keys;		/* kernels already found in this unit */
	struct macros *mac;
};

struct tok {
	char *s;
	unsigned a, b;		/* expansion offsets */
};

/* The largest source file kscan reads. */
#define MAX_SOURCE ((size_t)256 << 20)

/* input.c: which files are units */
char *relpath(const char *path);
int is_gpu_source_name(const char *p);
int looks_binary(const char *buf, size_t n);
int mentions_gpu(const char *buf);
const char *dialect_of(const char *path, const char *text);
struct unit *add_unit(const char *path, const char *dir, int header);
void input_error(struct unit *u, const char *path, const char *code,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void walk(const char *path, int depth, int explicit, size_t *found);

/* compdb.c */
int read_compdb(const char *builddir);
const char *compdb_why(const char *builddir);

/* source.c: files, text and tokens of a translation unit */
struct fileinfo *file_info(struct ctx *x, CXFile f);
void free_files(struct ctx *x);
struct fileinfo *where(struct ctx *x, CXSourceLocation loc, unsigned *line,
    unsigned *off);
json_t *text_json(struct fileinfo *fi, unsigned a, unsigned b);
json_t *folded_json(struct fileinfo *fi, unsigned a, unsigned b);
void qualify(CXCursor c, char *buf, size_t len);
struct tok *tokens(struct ctx *x, CXSourceRange r, unsigned *n,
    struct fileinfo **fip);
void free_tokens(struct tok *t, unsigned n);
unsigned split_items(struct tok *t, unsigned a, unsigned b, unsigned *as,
    unsigned *ae, unsigned max);
json_t *split_args(struct fileinfo *fi, struct tok *t, unsigned a,
    unsigned b);
unsigned matching(struct tok *t, unsigned i, unsigned n);
unsigned matching_angle(struct tok *t, unsigned i, unsigned n);
unsigned next_top(struct tok *t, unsigned i, unsigned n,
    const char *const *stop);

/* resolve.c: launch values followed back to the launcher's parameters */
unsigned split_ranges(struct tok *t, unsigned a, unsigned b, unsigned *as,
    unsigned *ae, unsigned max);
json_t *resolved_json(struct ctx *x, struct fileinfo *fi, struct tok *t,
    const unsigned *cs, const unsigned *ce, unsigned nc,
    const unsigned *as, const unsigned *ae, unsigned na, json_t *l);

/* conds.c: the conditions a launch at offset off runs under */
unsigned launch_conditions(struct tok *ft, unsigned fn, unsigned off,
    unsigned *cs, unsigned *ce, unsigned max);
CXCursor macro_def(struct ctx *x, const char *name);
void macros_free(struct macros *m);

/* launch.c */
int has_global(CXCursor c);
void check_launch(struct ctx *x, CXCursor call);
json_t *template_args_of(const char *text, const char *name);
void launcher_params(struct ctx *x, json_t *l);
void note_call(struct ctx *x, CXCursor call);

/* macrolaunch.c: launches spelled inside the project's macros */
int macro_launches(struct ctx *x, const char *kname, struct tok *t,
    unsigned n, struct fileinfo *fi, unsigned off, json_t *proto);

/* kernel.c */
enum CXChildVisitResult visit(CXCursor c, CXCursor parent,
    CXClientData data);

/* unit.c */
void scan_unit(CXIndex idx, struct unit *u);
int scan_side(CXIndex idx, struct unit *u, const char *dialect, int device,
    int *arch);
void build_args(struct k_strv *a, const char *dialect, int device,
    const struct unit *u);
void prepare_pch(struct unit *u, const char *dialect);
size_t unit_weight(struct unit *u);

/* recall.c: kernels in branches the preprocessor skipped */
void note_skipped(struct ctx *x);
int skipped_holds_gpu(struct ctx *x);
void recall(CXIndex idx, struct unit *u, const char *dialect);

/* worker.c */
void run_units(size_t from);

/* cache.c: units whose parse is already in the work directory.
 * cache_lookup runs in the parent before any worker forks: it sets the
 * unit's key (and dialect), which the workers keep. */
json_t *cache_lookup(struct unit *u);
void cache_store(struct unit *u, json_t *reply);
void cache_report(void);


/* chain.c: the operator chain (kernel -> launcher -> ... -> binding) */
void chain_collect(struct ctx *x);
int chain_mentions(const char *text);
void chain_link(json_t *scan);
void chain_free(void);
size_t chain_more(void);

/* emit.c */
void emit(void);

#endif
