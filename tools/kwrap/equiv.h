/*
 * The interval evaluator of kwrap's equivalence proofs (equiv.c), in
 * equiv_eval.c: values of integer expressions in one case of the spec.
 */
#ifndef KWRAP_EQUIV_H
#define KWRAP_EQUIV_H

#include "kwrap.h"
#include "mtok.h"

#define EQ_DEPTH 16		/* nested definitions followed */
#define EQ_LEVELS 6		/* enclosing expressions tried */
#define EQ_R_SCALARS 1	/* a scalar's value in a case */
#define EQ_R_LAUNCH 2	/* threadIdx, blockIdx, blockDim, gridDim */
#define EQ_R_DATA 4	/* an input buffer's fill */
#define EQ_NAMES 4		/* names a reason shows */

struct val {
	int known;
	long long lo, hi;
	int uns;		/* unsigned in C: comparisons convert */
};

struct seen {
	char name[64];
	long long lo, hi;
};

/* One record: the code and spec, and the case being evaluated. */
struct eq {
	const char *code;
	struct mtoks t;		/* the whole code's tokens */
	size_t a, b;		/* the kernel's body */
	json_t *spec;		/* borrowed */
	struct consts c;	/* the slice's constants */
	struct consts bind;	/* the case's scalars */
	json_t *cs;		/* the case, borrowed */
	int have_launch;
	long long grid[3], block[3];
	struct seen names[EQ_NAMES];
	int nnames;
	int reads;		/* EQ_R_*: what the evaluations read */
	int tid_fixed;		/* threadIdx is tid, one thread's */
	long long tid[3];
	struct eq_name { size_t off, len; } *hazards;	/* eq_macros' */
	int nhazards;
};

/* One parse of a text: the span, lexed alone. */
struct px {
	struct eq *g;
	const char *s;
	struct mtoks t;
	size_t i;
	int ok;			/* the text parsed as one expression */
	int effects;		/* ++, an assignment, an unknown call */
	size_t use_a, use_b;	/* where in g->code the text stands */
	int depth;
	long long site;		/* the edited operator's offset in s, or -1 */
	const char *site_rep;	/* the mutant's operator there, or NULL */
	int site_seen;
	struct val site_l, site_r;
	struct val site_v, site_m;	/* the node's value, with site_rep */
	size_t node_a, node_b;	/* the node's text in s */
	int record;		/* note the names' values (the reference) */
};

static const struct val unknown = { 0, 0, 0, 0 };

/* Parse text s (at [use_a, use_b) of the code) as one expression, the
 * operator at offset site of s noted with its value under rep too (the
 * mutant's operator, or NULL); record: note the names' values.  0 when
 * it is not one expression free of effects. */
int eq_parse_text(struct eq *g, const char *s, size_t use_a, size_t use_b,
    long long site, const char *rep, int record, struct val *v,
    struct px *out);
/* equiv.c: s with each run of white space one blank, for a reason's
 * text (the caller frees it). */
char *eq_squeeze(const char *s);
/* Set g's case scalars and launch from case cs. */
void eq_case_start(struct eq *g, json_t *cs);
/* v is one value; v's truth (1, 0, or -1 when it may be either). */
int eq_single(struct val v);
int eq_truth(struct val v);
/* Whether tok k of s is an assignment operator. */
int eq_is_assign(const char *s, const struct mtok *k);

/* equiv_dead.c: token i of the code is w; tokens i and j are one name. */
int eq_tk(const struct eq *g, size_t i, const char *w);
int eq_same_name(const struct eq *g, size_t i, size_t j);
/* equiv_dead.c: the ";" that ends the statement at a, groups skipped,
 * or b when none comes before it. */
size_t eq_semi(const struct eq *g, size_t a, size_t b);
/* equiv_dead.c: token k lies in code of the body that runs in no case:
 * what an "if" runs whose condition is 0 in every case, the else of one
 * whose condition holds in every case, a section of a switch that no
 * case's value reaches; the reason appended to why (when not NULL). */
int eq_dead_at(struct eq *g, size_t k, struct k_buf *why);
/* equiv_dead.c: the definitions of the name of token f outside the
 * kernel, "struct F ... { ... }" and "F (...) ... { ... }", [s, e] pairs
 * into sp (at most max); how many, -1 when one does not fit. */
int eq_definitions(const struct eq *g, size_t f, size_t sp[][2], int max);
/* equiv_dead.c: token i starts a statement of a list, not the body of
 * an if or a loop (the body's start, or after ";", "{" or "}"). */
int eq_list_start(const struct eq *g, size_t i);
/* equiv_dead.c: token j starts "x[...] = ...;" as a statement of its
 * own, the "=" in *eq. */
int eq_plain_store(const struct eq *g, size_t j, size_t *eq);
/* equiv_dead.c: on-chip array x (a token naming it) is declared in the
 * body and its memory reached by that name alone. */
int eq_array_own(const struct eq *g, size_t x);
/* equiv_overwrite.c: the edit at off, len lies in a store "x[i] = v;" to
 * an on-chip array that the same thread stores to again at the same
 * index before anything can read it; the reason into why. */
int eq_overwritten(struct eq *g, size_t off, size_t len, struct k_buf *why);
/* The edit at off, len is the right-hand side of a store into an on-chip
 * array that no live code reads, nor any other name reaches; the reason
 * appended to why. */
int eq_dead_store(struct eq *g, size_t off, size_t len, struct k_buf *why);

/* equiv_barrier.c: note the slice's macros whose replacement assigns,
 * subscripts or calls (what they touch is out of the tokens), once a
 * record; free g->hazards.  eq_macro_hazard: token j names one. */
void eq_macros(struct eq *g);
/* The next "#define NAME" at a line's start of code c from p: the
 * replacement's start (returned) and end (*end, over continued lines),
 * the name; NULL when there is none. */
const char *eq_define(const char *c, const char *p, const char **name,
    size_t *nlen, const char **end);
int eq_macro_hazard(const struct eq *g, size_t j);
/* equiv_barrier.c: the "__syncthreads();" at off orders nothing: no
 * memory written on one side of it is touched on the other; the reason
 * appended to why. */
int eq_barrier_free(struct eq *g, size_t off, struct k_buf *why);
/* equiv_thread.c: the edit at off, len (rep in the mutant) lies in the
 * condition of an if on the thread's index whose body runs alike in any
 * thread, and some thread takes it in every case in both; the reason
 * into why. */
int eq_any_thread(struct eq *g, size_t off, size_t len, const char *rep,
    struct k_buf *why);
/* equiv_init.c: the edit at off, len lies in the initializer of a local
 * that no path reads before assigning it; the reason into why. */
int eq_dead_init(struct eq *g, size_t off, size_t len, struct k_buf *why);

#endif
