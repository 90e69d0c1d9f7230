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

struct compiler {
	const char *name;
	char *path;		/* NULL: not installed */
	char *version;		/* last line of --version */
};

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
	json_t *flags;		/* --flag, in order */
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

/* diag.c */
json_t *parse_diagnostics(const char *log);

/* build.c */
json_t *build_unit(const struct unitspec *u, char *sys_error, size_t errlen);

/* mutants.c: build.mutants, wrap.mutants built as ref is (ref_res: the
 * reference's build, for equivalence) */
void build_mutants(json_t *rec, json_t *build, const struct unitspec *ref,
    json_t *ref_res);

/* record.c */
json_t *process(json_t *rec, void *ctx);

#endif
