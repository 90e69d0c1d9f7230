/*
 * kslice's internal header: the options, the parsed-unit, closure and
 * slicer structures the units share, and each unit's exported functions.
 * Nothing here is used outside tools/kslice/.
 */
#ifndef KSLICE_H
#define KSLICE_H

#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <clang-c/Index.h>
#include <jansson.h>

#include "k_buf.h"
#include "k_exit.h"
#include "k_mem.h"
#include "k_flags.h"
#include "k_fs.h"
#include "k_msg.h"
#include "k_parse.h"
#include "k_pcache.h"
#include "k_pch.h"
#include "k_proc.h"
#include "k_record.h"

#define STAGE "kslice"
#define MAX_CACHE 4		/* parsed translation units kept */
#define MAX_DIAG 3		/* diagnostics quoted in an error */
#define MAX_TEXT ((size_t)16 << 20)	/* longest slice */
#define MAX_CALL_DEPTH 8	/* write analysis through callees */

struct kslice_opt {
	char root[PATH_MAX];	/* this record's: --root, else scan.root */
	int root_given;		/* --root: it wins over scan.root */
	char cwd[PATH_MAX];	/* where a relative scan.root resolves */
	int root_recorded;	/* this record's root is its scan.root */
	struct k_strv stubdirs;	/* user stubs first, then ours */
	struct k_strv types;	/* --types, spelled as C++ types */
	struct k_strv typenames;	/* --types, as given */
	double timeout;		/* per record, seconds; 0: none */
	CXIndex idx;		/* the worker's */
	int no_cache;		/* --no-cache */
	const char *work;	/* --work */
	struct k_pcache pch;	/* precompiled toolkit headers; off when
				 * no_cache */
};
extern struct kslice_opt opt;

/* Every text kslice builds is a k_buf no longer than a slice may be. */
#define KSLICE_BUF { .max = MAX_TEXT }

enum fclass { F_PROJECT, F_STUB, F_SYSTEM };

struct fileinfo {
	CXFile file;
	char *real;
	char *rel;		/* root-relative, for origins */
	char *stubname;		/* path under its stub directory */
	enum fclass cls;
	const char *text;	/* owned by the translation unit */
	size_t size;
	unsigned *key;		/* offsets of the #include chain, root first */
	unsigned nkey;
	int keyed;
	struct k_strv sysinc;	/* #include lines of non-project headers */
	struct fileinfo **incl;	/* project and stub files it includes */
	size_t nincl;
	unsigned *skipped;	/* [start, end) pairs the preprocessor skipped */
	unsigned nskipped;
	int skipped_done;
};

struct mexp {			/* a macro expansion in a project file */
	struct fileinfo *fi;
	unsigned a, b;
	CXCursor def;
};

struct mdef {			/* a macro definition */
	char *name;
	CXCursor c;
	struct fileinfo *fi;
	unsigned off;
};

struct named {			/* a namespace-scope project declaration */
	char *name;
	CXCursor c;
};

struct spec {			/* a specialization of a class template */
	CXCursor tmpl;		/* canonical cursor of the primary */
	CXCursor c;
};

struct parsed {
	char *key;		/* tu, flags and side */
	CXTranslationUnit tu;
	struct fileinfo **files;
	size_t nfiles, capfiles;
	struct mexp *exps;
	size_t nexps, capexps;
	struct mdef *defs;
	size_t ndefs, capdefs;
	unsigned errors;	/* parse errors */
	char *first_error;
	unsigned long stamp;
	struct spec *specs;	/* explicit and partial class specializations */
	size_t nspecs, capspecs;
	int specs_done;
	struct spec *members;	/* device members defined outside their
				 * class; tmpl: the class at namespace scope */
	size_t nmembers, capmembers;
	int members_done;
	int torch_incl;		/* a project file includes a torch header */
	struct named *named;	/* sorted by name, built on first use */
	size_t nnamed, capnamed;
	int named_done;
};

enum ikind { I_DECL, I_MACRO, I_STUB };

struct item {
	enum ikind kind;
	struct fileinfo *fi;
	unsigned a, b;		/* text [a, b) in fi */
	unsigned line;
	CXCursor c;
	char *name;
	const char *what;	/* dependency kind */
	char *ns;		/* "a::b" namespace chain, "" for global */
	int semi;		/* needs a ';' after the text */
};

struct closure {
	struct parsed *p;
	struct item *v;
	size_t n, cap;
	size_t done;		/* items whose references were followed */
	CXCursor kernel;
	struct k_strv missing;	/* references that could not be resolved */
};

struct parmlist {
	CXCursor *v;
	unsigned n;
};

struct pointers {
	struct parsed *p;
	CXCursor *params;	/* the function's parameters */
	unsigned nparams;
	char **alias;		/* USR of a local pointer -> param index */
	unsigned *alias_of;
	size_t nalias;
	unsigned char *wrote, *read;
	int depth;
};

struct slicer {
	struct parsed *p;
	CXCursor kernel;
	struct closure cl;
	json_t *deps;
	json_t *stubs;
	struct k_strv includes;
	char *body;		/* everything but the instantiation */
	char *own;		/* the kernel's and its project dependencies'
				 * text, no stub: what the tags look at */
	char *ns;		/* the kernel's namespace */
	json_t *writes, *reads;
	json_t *guessed;	/* value parameters bound by a guess */
	json_t *resolved;	/* launches the parse resolved */
	json_t *classes;	/* project classes launches name */
	json_t *explicit;	/* explicit instances' template arguments */
	json_t *features;	/* -DM of the toolkit's features */
};

/* util.c */
int is_ident_char(int c);
char *subst_idents(const char *s, json_t *map);

/* parse.c */
#define BA_STUBS	1	/* the stub directories on the path */
#define BA_WARN		2	/* clang's default warnings, not -w */
void build_args(struct k_strv *a, const char *dialect, int device,
    const struct k_strv *extra, unsigned how);
struct fileinfo *where(struct parsed *p, CXSourceLocation loc, unsigned *line,
    unsigned *off);
unsigned count_errors(CXTranslationUnit tu, char **first, unsigned want);
json_t *feature_macros(struct parsed *p, json_t *flags,
    const char *dialect);
struct parsed *get_parsed(const char *tu, json_t *flags, const char *dialect,
    int device, char **why);
CXCursor find_kernel(struct parsed *p, json_t *scan);
void free_cache(void);

/* closure.c */
char *ns_chain(CXCursor c);
/* closure.c: c's name after its namespaces ("ns::inner::name"). */
char *qualified_name(CXCursor c);
struct item *new_item(struct closure *cl);
unsigned extent_end(struct parsed *p, struct fileinfo *fi,
    CXSourceRange r);
enum CXChildVisitResult find_alias(CXCursor c, CXCursor parent,
    CXClientData data);
void add_usings(struct closure *cl);
void close_over(struct closure *cl);
void add_decl(struct closure *cl, CXCursor r);
int inside_other(struct closure *cl, struct item *it);
int item_cmp(const void *pa, const void *pb);

/* hidden.c */
void follow_hidden_names(struct closure *cl, struct item *it);
void add_operators(struct closure *cl, CXCursor rec);
void free_named(struct parsed *p);
json_t *launch_classes(struct closure *cl, json_t *scan);
void explicit_classes(struct closure *cl, json_t *explicit);

/* output.c */
void switch_ns(struct k_buf *b, const char *from, const char *to);
void emit_stub(struct k_buf *b, struct item *it);
json_t *tags_json(const char *code, size_t lines, size_t ndeps);
json_t *launch_json(json_t *scan, json_t *inst);

/* templates.c */
const char *cxx_type(const char *name);
/* the kernel's instances, at most 32 (*all: how many before that bound) */
json_t *instances(json_t *scan, json_t *explicit, json_t *resolved,
    json_t *classes, json_t *bound, json_t *guessed, char **why,
    size_t *all);
/* the guessed parameters of one instance */
json_t *instance_guesses(json_t *scan, json_t *guessed, json_t *inst);
json_t *call_type_instance(json_t *scan, json_t *inst, size_t k);
json_t *resolved_launches(struct parsed *p, struct closure *cl,
    json_t *scan);
json_t *spec_bound(struct parsed *p, struct closure *cl, json_t *scan);
json_t *explicit_instances(struct parsed *p, CXCursor kernel);
void enum_bound(CXCursor kernel, json_t *bound);
char *instance_args(json_t *scan, json_t *inst);
void set_types(const char *list);

/* memo.c: a record slicing would give the same output for is sliced once
 * (memo_begin before sending it, memo_add per record written but the last,
 * memo_end with the last) */
struct memo_pending {
	char key[65];
	json_t *in;		/* the record as it came */
	json_t *changes;
	char *where;
};
/* The records an earlier identical one gave, as an array (steals rec),
 * or NULL */
json_t *memo_replay(json_t *rec);
/* Write all of outs but the last, which is returned (steals outs) */
json_t *memo_write_all_but_last(json_t *outs);
void memo_begin(struct memo_pending *p, json_t *rec);
void memo_add(struct memo_pending *p, json_t *out);
void memo_end(struct memo_pending *p, json_t *last);
void memo_drop(struct memo_pending *p);	/* no result after all */
void memo_clear(void);

/* access.c */
void fn_params(CXCursor fn, struct parmlist *l);
void analyse_fn(struct pointers *pt, CXCursor fn);

/* prune.c */
unsigned check_slice(struct k_buf *code, const char *dialect, char **msg,
    json_t *dropped, int *newer);
unsigned check_flags(const struct k_buf *code, const char *dialect,
    json_t *flags);

/* slice.c */
const char *scan_problem(json_t *scan);
json_t *process(json_t *rec, void *ctx);
#endif
