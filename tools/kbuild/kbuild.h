/*
 * kbuild's internal header: the options, the compiler and build-unit
 * structures the units share, and each unit's exported functions.
 * Nothing here is used outside tools/kbuild/ (and fuzz/fuzz_kbuild.c).
 */
#ifndef KBUILD_H
#define KBUILD_H

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "k_exit.h"
#include "k_flags.h"
#include "k_fs.h"
#include "k_hash.h"
#include "k_main.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_proc.h"
#include "k_record.h"

#define STAGE "kbuild"
#define LOG_MAX 16384		/* bytes of compiler output kept inline */
#define DIAG_MAX 50		/* diagnostics kept per build */
#define CACHE_VERSION "kbuild-1"
#define FLAGS_MAX 64		/* slice.flags and --flag together */
#define MEM_MB_DEFAULT 4096	/* --mem */
#define FSIZE_MB 1024		/* the largest file a compiler may write */

struct compiler {
	const char *name;
	char *path;		/* NULL: not installed */
	char *version;		/* last line of --version */
};

enum hip_platform { HIP_AUTO, HIP_AMD, HIP_NVIDIA };

struct kbuild_opt {
	int jobs;
	char arch[32];
	char hip_arch[128];
	int check;
	double timeout;
	char work[PATH_MAX];
	struct compiler nvcc, hipcc;
	char *nm;
	char cuda_root[PATH_MAX];
	char hip_root[PATH_MAX];	/* <root>/bin/hipcc; "" for /usr */
	long mem_mb;		/* --mem: each compiler's data limit */
	int trust_records;	/* --trust-records: build any harness */
	json_t *flags;		/* --flag, in order */
	enum hip_platform hip_platform;	/* settled before the first build */
};
extern struct kbuild_opt opt;

enum what { DEVICE, HARNESS };

struct unitspec {
	enum what what;
	const char *dialect;	/* cuda or hip */
	const char *role;	/* reference, candidate, harness */
	const char *code;
	const char *kernel;	/* name to look for in the module */
	json_t *flags;		/* device builds: the record's and --flag's */
};

/* util.c */
int write_text(const char *path, const char *text);
int mkdirs_of(const char *path);

/* compiler.c: the installed compilers, their versions and targets */
extern int hip_arch_given;
void version_of(struct compiler *c);
void default_arch(void);
void hip_targets(void);
void check_targets(int arch_given);

/* hip.c: the platform HIP code is built for, the mapping onto CUDA */
const char *hipnv_key(void);
int hipnv_write(const char *dir);
int amd_gpu_here(void);
void hip_platform_settle(void);
const char *hip_platform_name(void);
json_t *find_symbol_bytes(const char *path, const char *kernel);

/* wavefront.c: what in HIP code that the kernel reaches depends on the
 * wavefront width */
json_t *wavefront_scan(const char *code, const char *kernel);

/* diag.c */
json_t *parse_diagnostics(const char *log);

/* build.c: one unit, or NULL and why not: the error code for the
 * record, the exit status it raises (1, or 3 and 4 for want of space or
 * memory) and the message */
struct unit_fail {
	const char *code;
	int status;
	char msg[1024];
};
json_t *build_unit(const struct unitspec *u, struct unit_fail *fail);

/* include.c: 0 when code names no file outside roots (NULL-ended) for
 * the preprocessor; -1 and why in err otherwise */
int include_check(const char *code, const char *const *roots, char *err,
    size_t len);

/* trust.c: the harness kwrap generates for rec's wrap.spec: 0 and a
 * malloc'd *code, or -1 and why */
int harness_regenerated(json_t *rec, char **code, const char **why);
/* ... and whether a record's harness is it, the comment naming the
 * record's id aside */
int harness_same(const char *record, const char *generated);

int module_defines(json_t *res, const char *symbol);

/* attach.c: --candidates */
char *task_name(const char *id);
void attach_open(const char *path);
void attach(json_t *rec);
void attach_close(void);

/* mutants.c: build.mutants, wrap.mutants built as ref is (ref_res: the
 * reference's build, for equivalence) */
void build_mutants(json_t *rec, json_t *build, const struct unitspec *ref,
    json_t *ref_res);

/* record.c */
json_t *process(json_t *rec, void *ctx);

#endif
