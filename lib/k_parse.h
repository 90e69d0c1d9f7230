/*
 * Parsing CUDA and HIP with libclang, shared by kscan and kslice: string
 * vectors, the one CXString funnel, the CUDA toolkit tree the parser reads,
 * the prelude directory (the little a real toolkit does not declare, and
 * cuRAND and PyTorch stand-ins searched last), the parser arguments and
 * the parse itself.
 *
 * Ownership: a k_strv owns its strings; k_take returns a malloc'd string
 * the caller frees; the prelude directory belongs to this module and is
 * removed at exit.  Needs libclang: this object lives in libkparse.a, which
 * only the tools that link libclang use.
 */
#ifndef K_PARSE_H
#define K_PARSE_H

#include <stddef.h>

#include <clang-c/Index.h>
#include <jansson.h>

/* growable NULL-terminated array of strings; owns them */
struct k_strv {
	char **v;
	size_t n, cap;
};

void k_strv_push(struct k_strv *s, const char *str);
void k_strv_free(struct k_strv *s);
int k_strv_has(const struct k_strv *s, const char *str);

/* A CXString as a malloc'd C string, or as a new JSON string (invalid
 * UTF-8 replaced); the CXString is disposed either way. */
char *k_take(CXString s);
json_t *k_take_json(CXString s);
/* libclang's version, for -V (a static buffer). */
const char *k_clang_version(void);

const char *k_cx_error_text(enum CXErrorCode e);
/*
 * An error of clang's CUDA dialect on code nvcc compiles, with a warning
 * at most (k_parse.c lists which): 1, else 0.  The AST still holds the
 * declaration or call it names.
 */
int k_nvcc_accepts(CXDiagnostic d);

/* Write text to path, making missing parent directories; 0 or -1. */
int k_write_file(const char *path, const char *text);

/*
 * Make the private prelude directory, named after prog, removed at exit:
 * the prelude header (force-included) and the PyTorch stand-in with its
 * headers under torch/ (searched after every other include directory).  Fatal on failure.
 * k_prelude_dir() is "" before.
 */
void k_make_prelude(const char *prog);
const char *k_prelude_dir(void);
/*
 * Move the prelude to dir/prelude-SHA (SHA: of what it holds), made once
 * and kept from run to run, so that precompiled headers can hold it; 0, or
 * -1 (the private directory stays).  k_prelude_kept() says it moved.
 */
int k_prelude_keep(const char *dir);
int k_prelude_kept(void);
/* name (as an #include spells it) is a PyTorch header the torch stand-in
 * answers */
int k_torch_stub(const char *name);

/* The CUDA header tree "make deps" lays out, by its directory name. */
#define K_CUDA_TREE "cuda-12.4"
/* The environment variable naming a user's own CUDA 12.x toolkit. */
#define K_CUDA_PATH_ENV "KFORGE_CUDA_PATH"

/*
 * The CUDA toolkit the parser reads (a directory with include/ and bin/),
 * the first of: arg (--cuda-path, may be NULL), $KFORGE_CUDA_PATH,
 * deps/cuda-12.4 next to the program, ../share/kforge/cuda-12.4 next to
 * it.  A usage error when arg or the variable names no toolkit, fatal when
 * none is found.  The path is kept for k_build_args.
 */
const char *k_find_cuda(const char *arg);

struct k_parse_conf {
	const char *dialect;	/* "cuda" or "hip" */
	int device;		/* device side, else host side */
	int torch;		/* the torch stand-in, searched last */
	const char *cuda_path;	/* NULL: the one k_find_cuda found */
	int warnings;		/* clang's default warnings, else none (-w) */
};

/* Parser arguments for c, then the flags of first and second (either may
 * be NULL), in that order; -std=c++17 unless one of them sets -std=. */
void k_build_args(struct k_strv *a, const struct k_parse_conf *c,
    const struct k_strv *first, const struct k_strv *second);

/*
 * nvcc takes alignas after CUDA's memory-space keywords (__shared__
 * alignas(16) float a[N]; static __device__ alignas(8) T v), clang only
 * before every specifier: text with each such alignas(...) moved in front
 * of the specifiers it follows (the same length, the same lines, what lies
 * outside those declarations unmoved), a new string; NULL when nothing
 * moves.
 */
char *k_alignas_first(const char *text, size_t len);

/* Files every later k_parse reads from texts (NUL-terminated) instead of
 * from paths, until called again (NULL, NULL: none); both are borrowed. */
void k_parse_unsaved(const struct k_strv *paths, const struct k_strv *texts);

/* Parse path (or text, when not NULL, as its contents) with args, the
 * unit read in clang's order (k_alignas_first); returns a CXErrorCode. */
int k_parse(CXIndex idx, const char *path, const char *text, size_t len,
    const struct k_strv *args, CXTranslationUnit *tu);

/* How long one unit (kscan) or one record (kslice) may take, in seconds,
 * before its parsing process is killed; --timeout overrides it. */
#define K_PARSE_TIMEOUT 300.0

/* A --timeout argument: seconds from 0 (no limit) to a day; a usage error
 * otherwise. */
double k_seconds_arg(const char *flag, const char *s);

/* The data size a parsing process may reach, in MiB (mmcv's largest unit
 * needs under 200); --mem overrides it, 0 lifts it. */
#define K_PARSE_MEM_MB 8192L

/* A --mem argument: MiB from 0 (no limit) to 2^30; a usage error
 * otherwise. */
long k_mib_arg(const char *flag, const char *s);

#endif
