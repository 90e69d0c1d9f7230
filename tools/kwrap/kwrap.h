/*
 * kwrap's internal header: the units of tools/kwrap/ and what they share.
 * Each unit answers one question; the list below is in the order a
 * record goes through them (see the README's Hacking section):
 *
 *	tok.c		tokens of C source, fixed-buffer text helpers
 *	eval.c		integer constants of the slice, exact evaluation
 *	vocab.c		the dtype table and the names of roles and dtypes
 *	infer.c		inference, once per record, in its order
 *	model.c		the kernel model: params, variables, roles
 *	offsets.c	buffers of offsets: segment bounds, bisected tables
 *	strides.c	scalars that are strides of a buffer's layout
 *	textual.c	index ranges read from guard patterns
 *	launch.c	block, grid and shared memory of the launch
 *	poly.c		bound algebra: polynomials and intervals (pure)
 *	flow.c		flow facts of a function: assignments, guards, loops
 *	interval.c	interval evaluation of expressions
 *	onchip.c	the values stored in on-chip arrays
 *	access.c	element counts from the bounds of every access
 *	byvalue.c	by-value parameters kwrap cannot build
 *	texture.c	texture objects: what the harness makes for them
 *	accessor.c	PyTorch tensor accessors passed by value
 *	guarded.c	outputs that start zeroed: conditional stores, atomics
 *	nonfinite.c	a case with NaN and Inf for data tested for them
 *	spec.c		the spec as JSON: params, cases, globals
 *	fit.c		case sizes fitted to the memory budget
 *	harness.c	the host harness generated from a spec
 *	instruction.c	the instruction text
 *	llm.c		kwrap --llm: the language model's tasks
 *	mutate.c	--mutants: one-point mutants of the kernel
 *	equiv.c		mutants proven equivalent under the spec's cases
 *	equiv_eval.c	their interval evaluator (equiv.h)
 *	kwrap.c		main and process: infer, spec, wrap
 *
 * Ownership: a struct kern borrows its record; the json_t values the
 * builders return are new references that the caller owns.
 */
#ifndef KWRAP_H
#define KWRAP_H

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "k_buf.h"
#include "k_dtype.h"
#include "k_exit.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_record.h"

#define STAGE "kwrap"
#define KW_CASE_ELEMS (1LL << 20)	/* a buffer of a case but large */
#define MAX_TOKENS (1 << 20)	/* tokens of one kernel's analysed text */
#define MAX_EXPR 512		/* longest size or launch expression */
#define DEFAULT_BLOCK 256
#define NONFINITE_RATE 0.25	/* a nonfinite fill's default share of
				   NaN, +Inf and -Inf (man kwrap) */
/* ------------------------------------------------------------ tokens */

struct toks {
	char **v;
	size_t n, cap;
};

/* ------------------------------------------------------------ constants */

/* Integer constants of the slice: object-like macros, constexpr and const
 * integer variables, enumerators; and its constexpr functions whose body
 * returns one expression (tokens [a, b) of t, borrowed), which the
 * evaluator calls. */
struct consts {
	struct cst {
		char *name;
		long long val;
	} *v;
	int n, cap;
	struct cfn {
		char *name;
		char **pn;
		int np;
		const struct toks *t;
		size_t a, b;
	} *fn;
	int nfn, cfn;
};

/* ------------------------------------------------------------ types */

/* element types: lib/k_dtype.h's one table (k_dtype_c, k_dtype_named) */

/* ------------------------------------------------------------ kernel */

enum role { R_IN, R_OUT, R_INOUT, R_SCALAR };

/* A word of the spec's vocabulary and harness.in's constant for it. */
struct vocab {
	const char *name;	/* as the spec spells it */
	const char *harness;	/* harness.in's constant, or NULL */
};

extern const struct vocab roles[];	/* by enum role */
extern const struct vocab fill_kinds[];
extern const struct vocab dtype_names[];

const struct vocab *
vocab_find(const struct vocab *v, const char *name);
const char *
vocab_harness(const struct vocab *v, const char *name, const char *dflt);

struct field {
	char name[64];
	char type[64];
	const struct k_dtype *dt;
	int offset;
	int size_use;		/* appears in a size or launch expression */
	int ptr;		/* a pointer member: a buffer (byvalue.c) */
	int buf;		/* its buffer's param index, or -1 */
	char expr[MAX_EXPR];	/* derived: the harness computes it from
				   this expression (an accessor's stride) */
	int fixed;		/* a size every case gives this value */
	int least;		/* a size every case gives at least this */
	int null;		/* a void * member the kernel never reaches:
				   passed as a null pointer, no buffer */
	char vec[64];		/* a component of this vector member (p.v.x
				   is the field v_x), or empty */
};

struct param {
	char name[64];
	char spelled[256];	/* the declared type, as scan spells it */
	char type[128];		/* element type (pointers) or type, bound */
	int ptr, is_const, is_struct, is_enum;
	const struct k_dtype *dt;	/* NULL: unknown type */
	int lanes;		/* a vector type's elements of dt (float2: 2) */
	struct field *f;	/* a struct's fields */
	int nf, cf, ssize;
	int read, written;	/* from kslice, or found in the text */
	int text_written;	/* written where kslice saw no write */
	enum role role;
	char count[MAX_EXPR];
	int count_state;	/* 2 derived, 1 guessed */
	char index_of[64];	/* holds indices into this buffer */
	int vals;		/* its values index a buffer: 0..DATA_HI */
	int scatter;		/* they pick where a plain store lands
				   (scatter.c) */
	int distinct;		/* so filled with distinct values, as
				   many as its count, dcount */
	char dcount[MAX_EXPR];
	long long vmin;		/* a scalar: its least value in every case */
	int align;		/* a scalar: a multiple of this in every case
				   (the stride of a vector access), or 0 */
	long long vmax;		/* a scalar: its largest value, or 0 */
	long long divides;	/* a scalar: divides this in every case, or 0 */
	int has_eq;		/* a scalar the launch runs with at eq only */
	double eq;
	int size_use;
	int member_of;		/* a struct's pointer member: the struct's
				   param index (byvalue.c); else -1 */
	char member[128];	/* and its name, p.field */
	int zeroed;		/* starts zeroed: an inout filled with 0 */
	int offsets;		/* segment offsets: read at [e] and [e + 1] */
	int layout;		/* a scalar: a stride of buffer layout - 1's
				   layout (strides.c), or 0 */
	int accessor;		/* a tensor accessor's rank (accessor.c) */
	char pitch[MAX_EXPR];	/* a scalar: a row pitch, at least this
				   row width in every case (strides.c) */
	int tex;		/* a texture object: TEX_* (texture.c) */
	const struct k_dtype *tex_dt;	/* its element type, */
	int tex_ch, tex_norm;	/* channels, normalized coordinates */
};
enum { TEX_NONE, TEX_LINEAR, TEX_1D, TEX_2D, TEX_3D, TEX_1D_LAYERED,
	TEX_2D_LAYERED };

enum vkind { V_LOCAL, V_GLOBAL, V_BLOCK, V_THREAD };

struct var {
	char name[64];
	enum vkind kind;
	int dim;		/* its thread dimension, or its block's */
	int bdim;		/* a global index: its block dimension */
	char bound[MAX_EXPR];
	size_t a, b;		/* its first definition's tokens */
	int alias;		/* param index it points into, or -1 */
};

struct atoms;
struct fn;

struct kern {
	json_t *rec;		/* borrowed */
	int in_multiple;	/* multiple.c reads a value: no multiple_hi */
	const char *name;
	struct param *p;
	int np, cp;
	struct toks t;		/* the kernel's text */
	struct toks all;	/* the whole slice */
	struct consts c;
	struct var *v;
	int nv, cv;
	size_t body;		/* first token of the kernel's body */
	int dims;		/* 1 or 2 thread dimensions */
	long long block[3];
	char grid[3][MAX_EXPR];
	char shared[MAX_EXPR];
	int block_state, grid_state, shared_state;	/* 2 derived, 1 guess */
	int roles_low;
	json_t *guesses;	/* strings */
	const char *code;
	struct atoms *at;	/* the atoms of bounds */
	struct fn *kf;		/* the kernel, for bounds */
	int depth;		/* nested evaluations */
	int calls;		/* nested helpers evaluated for a value */
	char shared_guess[128];	/* said once shared memory stays a guess */
	int say_caps;		/* the last grid round: say a cap left out */
	json_t *site;		/* the launch site with its arguments, borrowed */
	int data_lo;		/* values read as indices: data_lo..+DATA_HI */
	int below;		/* counts guessed for an access below 0 */
	int rounds;		/* induction rounds run, MAX_ROUNDS at most */
	int pend;		/* reads of values still being evaluated */
};

/* ------------------------------------------------------------ bounds */

/*
 * Element counts from symbolic bounds.  Every integer expression that a
 * subscript or a pointer offset is built from gets inclusive bounds
 * [lo, hi], each a polynomial with integer coefficients over atoms: the
 * integer scalar parameters and struct fields (sizes, at least 1 in every
 * case kwrap writes) and quotients a polynomial cannot hold, such as
 * (n + 255) / 256.  A side that cannot be bounded is infinite.  A buffer's
 * count is the largest hi of its accesses, plus one; it is derived only
 * when every access has a finite hi and a lo of at least 0, so a derived
 * count is an upper bound, never a guess.  The analysis is flow-insensitive
 * (a variable's value is the hull of everything assigned to it) except for
 * guards, which narrow a variable inside the code they dominate.
 */
#define MAX_ATOMS 96
#define MAX_TERMS 16
#define MAX_MONO 6
#define MAX_DEPTH 24		/* nested evaluations (variables, helpers) */
#define MAX_HELPER 4		/* helper functions deep */
#define SHARED_MAX 232448LL	/* dynamic shared memory of a block: 227
				   KiB, with the opt-in (validate.c, fit.c) */
#define DATA_HI 3		/* values of a buffer read as an index: 0..3,
				   or 1..4 (kern_infer) */

struct term {
	long long c;
	int na;
	unsigned char a[MAX_MONO];	/* atom indices, ascending */
};

struct poly {
	int inf;		/* no bound on this side */
	int n;
	struct term t[MAX_TERMS];
};

struct iv {
	struct poly lo, hi;
};

struct atom {
	char text[MAX_EXPR];
	int ge1;		/* a size: at least 1 */
	int nonneg;		/* a quotient of nonnegatives */
	long long div;		/* constant divisor, or 0 */
	int datom;		/* the divisor's atom, or -1 */
	struct poly num;	/* the dividend */
	int keep;		/* a rounding p_loosen leaves: d * ((P + d) / d) */
	long long mult;		/* a size every case keeps a multiple of
				   this (precond.c, access.c), or 0 */
};

struct atoms {
	struct atom a[MAX_ATOMS];
	int n;
};

/* ---- the code a bound is read from: the kernel or a helper */

enum { A_EQ, A_INC, A_DEC, A_DIV, A_UNK, A_LOOP0 };

struct asg {
	char name[64];
	int kind;
	size_t pos;		/* the name's token */
	size_t a, b;		/* the right-hand side */
	size_t ca, cb;		/* an increment capped by a break: the cap */
	int d;			/* the declaration it assigns, or -1 */
};

/* A local declaration and where it is seen: for (int j = ...) in two
 * loops declares two variables. */
struct decl {
	char name[64];
	size_t s, e;
};

struct guard {
	char name[64];
	int hi;			/* an upper bound, else a lower one */
	int strict;		/* < or > on an integer */
	size_t a, b;		/* the bound */
	size_t ra, rb;		/* a clamp: or the value assigned */
	size_t s, e;		/* where it holds */
	long long scale;	/* c * name < bound, for c > 1; else 0 */
	size_t xa, xb;		/* an expression's tokens, not a name (name "") */
	int state;		/* 0, 1 being evaluated, 2 done */
	struct iv v;
};

struct memo {
	char name[64];
	int d;
	int state;		/* 1 being evaluated, 2 done, 3 induction */
	int cyc;		/* reads while it was being evaluated */
	struct iv v;
};

struct loop {
	size_t s, e;
	int once;		/* one trip per thread under kwrap's launch */
};

struct fn {
	struct kern *k;
	const struct toks *t;
	size_t a, b;		/* the body, inside its braces */
	int kernel;
	const char **pn;	/* parameter names, borrowed from k or t */
	int *pptr, *pint;
	int *psz;		/* a pointer parameter's element size, or 0 */
	int np, cp;
	struct iv *bind;	/* a helper's arguments */
	struct consts tc;	/* a helper's template values, as called */
	size_t sa, sb;		/* an explicit specialization's arguments */
	size_t ta, tb;		/* its template parameters */
	struct asg *as;
	struct guard *g;
	struct memo *m;
	struct loop *l;
	struct decl *dc;
	int nas, ng, nm, nl, cas, cg, cm, cl, nd, cd;
	struct onchip *oc;	/* its on-chip arrays' values (onchip.c) */
	int noc, coc;
	struct fn *oc_up;	/* parameter oc_param is oc_up's array */
	int oc_param, oc_d;	/* oc_name, declared at oc_d there */
	char oc_name[64];
	size_t *dead;		/* [s, e) pairs: what an if runs whose
				 * condition is 0 for the instance */
	int ndead, cdead;
	size_t *ifs;		/* 6 per if: its condition [c0, c1), what
				 * it runs [s0, s1), its else [e0, e1)
				 * (empty where it has none) */
	int nifs, cifs;
};


/* flow.c: token pos lies in code that never runs for the instance. */
int fn_dead(const struct fn *f, size_t pos);
/* flow.c: tokens p and q lie in the two branches of one if and else. */
int fn_exclusive(const struct fn *f, size_t p, size_t q);

/* A set of names (locals a value flows into: guarded.c, scatter.c). */
struct names {
	char (*v)[64];
	int n, cap;
};

/* tok.c */
int
names_has(const struct names *s, const char *x);
/* Add x (1), or not where it is there or too long (0). */
int
names_add(struct names *s, const char *x);
void
append_word(char *dst, size_t cap, const char *src);
/* How many texts did not fit their buffer since the last reset. */
int
text_cuts(int reset);
int
token_cuts(int reset);
void
join_buf(const struct toks *t, size_t a, size_t b, struct k_buf *sb);
void
quote(const struct toks *t, size_t a, size_t b, char *out, size_t cap);
void bprintf(char *dst, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void
copy(char *dst, size_t cap, const char *src);
void
tok_push(struct toks *t, const char *s, size_t len);
void
toks_free(struct toks *t);
void
tokenize(const char *src, struct toks *t);
int
is(const struct toks *t, size_t i, const char *s);
int
relational(const struct toks *t, size_t i);
int
is_ident(const char *s);
/* Whether word w (not empty) is an identifier in text. */
int
kw_names(const char *text, const char *w);
size_t
skip_group(const struct toks *t, size_t i);
size_t
expr_end(const struct toks *t, size_t i, const char *const *stop);
void
join(const struct toks *t, size_t a, size_t b, char *out, size_t cap);

/* eval.c */
int
const_get(const struct consts *c, const char *name, long long *v);
void
consts_clear(struct consts *c);
void
consts_free(struct consts *c);
void
const_set(struct consts *c, const char *name, long long v);
int eval_bound(const struct toks *t, const struct consts *c,
    const struct consts *bind, long long *v);
int
eval_range(const struct toks *t, size_t a, size_t b, const struct consts *c,
    long long *v);
int
eval_str(const char *s, const struct consts *c, long long *v);
void
collect_consts(const char *code, const struct toks *t, struct consts *c);
void
collect_range(const struct toks *t, size_t a, size_t b, struct consts *c);

/* vocab.c */
void
base_type(const char *spelled, json_t *instance, char *out, size_t cap);
const char *
host_type(const char *dtype);
const struct k_dtype *
vector_dtype(const char *name, int *lanes);
int
dtype_size(const char *dtype);
const char *
dtype_enum(const char *dtype);

/* model.c */
void guess(struct kern *k, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Withdraw a guess made before, spelled exactly as text. */
void guess_drop(struct kern *k, const char *text);
struct var *
var_get(struct kern *k, const char *name);
int
param_index(const struct kern *k, const char *name);
size_t
member_skip(const struct toks *t, size_t s, size_t e);
void
paren(const char *s, char *out, size_t cap);
void
mark_size_use(struct kern *k, const struct toks *t, size_t a, size_t b);
void mark_size_str(struct kern *k, const char *s);
int
param_expr(struct kern *k, const struct toks *t, size_t a, size_t b,
    char *out, size_t cap);
int
dim_of(const struct toks *t, size_t i);
void
find_vars(struct kern *k);
void
kernel_text(struct kern *k, const char *text);
/* loopmacro.c: a project's loop macros expanded in the kernel's tokens */
int
loop_macro_known(const char *s);
int
expand_loop_macros(const char *code, struct toks *t);
void
load_params(struct kern *k, json_t *scan, json_t *slice);
/* The { of enum type's definition in t (enum E {, enum class E {,
 * typedef enum { ... } E;), or 0. */
size_t
enum_open(const struct toks *t, const char *type);
/* The dtype of enum type defined in t: its underlying type (enum E :
 * uint8_t), else int; NULL when t defines no such enum. */
const struct k_dtype *
enum_dtype(const struct toks *t, const char *type);
void
infer_roles(struct kern *k, json_t *slice);
void
text_outputs(struct kern *k);
/* The argument index of the token at i when it is a whole argument of a
 * call or an offset from it (f(p + j)), with the call's name and number
 * of arguments; -1 otherwise. */
int
call_arg(const struct toks *t, size_t lo, size_t i, const char **fn,
    int *nargs);

/* offsets.c: whether integer buffer name holds offsets that must not
 * decrease (segment bounds, a bisected table) */
int
segment_offsets(struct kern *k, const char *name);
#define TAINTED 16		/* locals followed from one statement */
int
locals_from(const struct toks *t, size_t lo, size_t i, char (*set)[64]);

/* scatter.c: index buffers whose values pick where a plain store lands
 * (p->scatter); how many */
int
scatter_indices(struct kern *k);

/* strides.c: scalars that are strides of a buffer's layout (p->layout) */
void
find_strides(struct kern *k);

/* textual.c */
int
find_bounds(struct kern *k);

/* launch.c */
void
infer_block(struct kern *k, json_t *launch);
void
infer_grid(struct kern *k, int say);
json_t *
launch_site(json_t *rec, json_t *launch, const struct consts *c);
int
site_grid(struct kern *k, int d, char *out, size_t cap);
int
site_param(struct kern *k, json_t *args, const char *e);

/* precond.c */
void
site_conditions(struct kern *k);
void
grid_divisions(struct kern *k);
void
launch_cases(struct kern *k, json_t *spec);
/* spec.c: every case at the least values, multiples and values the
 * launch keeps (again after the cases kwrap.c adds) */
void
least_values(struct kern *k, json_t *spec);
long long
param_keep(const struct param *p, long long v);
void
infer_shared(struct kern *k, json_t *launch);
const struct k_dtype *
shared_local(struct kern *k, char *name, size_t cap, size_t *pos);

/* poly.c */
long long
gcd_ll(long long a, long long b);
void
p_mul(struct poly *r, const struct poly *a, const struct poly *b);
void
p_scale(struct poly *r, const struct poly *a, long long c);
void
p_const(struct poly *p, long long c);
void
p_inf(struct poly *p);
int
p_isconst(const struct poly *p, long long *c);
void
p_add(struct poly *r, const struct poly *a, const struct poly *b, int sign);
int
p_nonneg(const struct atoms *at, const struct poly *p);
int
p_ge(const struct atoms *at, const struct poly *a, const struct poly *b);
int
atom_get(struct atoms *at, const char *text);
void
p_atom(struct poly *p, int a);
void
p_div(struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b);
void
p_loosen(struct atoms *at, struct poly *p);
void
p_print(const struct atoms *at, const struct poly *p, char *out, size_t cap);
void
iv_top(struct iv *r);
void
iv_const(struct iv *r, long long c);
int
iv_nonneg(const struct atoms *at, const struct iv *a);
void
p_max(const struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b);
void
p_min(const struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b);
void
p_meet_hi(const struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b);
void
p_meet_lo(const struct atoms *at, struct poly *r, const struct poly *a,
    const struct poly *b);
void
iv_hull(const struct atoms *at, struct iv *r, const struct iv *a,
    const struct iv *b);
void
iv_add(struct iv *r, const struct iv *a, const struct iv *b, int sign);
void
iv_mul(struct atoms *at, struct iv *r, const struct iv *a, const struct iv *b);

/* flow.c */
void *
grow(void *p, int *cap, int n, size_t sz);
void
fn_free(struct fn *f);
int
fn_param(const struct fn *f, const char *name);
int
is_keyword(const char *s);
int
unary_at(const struct toks *t, size_t j);
size_t
call_open(const struct toks *t, size_t lo, size_t s, int *argi);
/* ptx.c: what the inline PTX whose operand holds token i does to it */
int
asm_access(const struct toks *t, size_t lo, size_t i, int *rd, int *wr);
int
asm_operand(const struct toks *t, size_t lo, size_t i, int *rd, int *wr,
    int *bytes);
const char *
call_name_args(const struct toks *t, size_t open, size_t *ta, size_t *tb);
const char *
call_name(const struct toks *t, size_t open);
size_t
block_end(const struct fn *f, size_t pos);
size_t
stmt_end(const struct toks *t, size_t i, size_t lim);
int
stmt_exits(const struct toks *t, size_t s, size_t e);
int
int_var(const struct fn *f, const char *name);
int
split_top(const struct toks *t, size_t a, size_t b, const char *sep,
    size_t *ends, int max, int *mixed);
/* The top-level terms of the sum [a, b) (a + or - that is not unary
 * parts them): each term's tokens [s[i], e[i]) without its sign, the
 * sign (1 or -1) in sg[i]; how many, or -1 for more than max or for an
 * empty term. */
int
sum_terms(const struct toks *t, size_t a, size_t b, size_t *s, size_t *e,
    int *sg, int max);
int
decl_of(const struct fn *f, const char *name, size_t pos);
struct fn *
fn_new(struct kern *k, const struct toks *t, size_t open, size_t plist,
    int kernel);
struct fn *
find_helper(struct kern *k, const char *name, int nargs);
struct fn *
next_helper(struct kern *k, const char *name, int nargs, size_t *from,
    int spec);
size_t
angle_end(const struct toks *t, size_t i);
int
loop_trips(struct fn *f, size_t s, struct poly *r);
int
step_times(struct fn *f, const char *name, size_t pos, size_t def,
    struct poly *r);
int
in_for_header(const struct fn *f, size_t pos);

/* interval.c */
void
eval_at(struct fn *f, size_t a, size_t b, struct iv *r);
int
is_cast(struct fn *f, size_t i, size_t close);
const struct k_dtype *
bound_dtype(struct kern *k, const char *name);
/* multiple.c */
long long
var_multiple(struct fn *f, const char *name, int d, int depth);
/* What tokens [a, b) of f, an integer expression, are a multiple of: 0
 * for zero, 1 when nothing better is known. */
long long
expr_multiple(struct fn *f, size_t a, size_t b);
/* The ends of the arguments of the call whose ( is at open, in memory
 * the caller frees; *n of them. */
size_t *
args_of(struct fn *f, size_t open, int *n);
/* The helper of the slice called at open (its name before it), its
 * arguments bound in f: pointers unbounded, values evaluated; NULL when
 * the slice has no helper of that name and arity. */
struct fn *
helper_call(struct fn *f, size_t open);
/* Bind h's parameters to the n arguments of the call at open in f
 * (ends: args_of's). */
void
helper_bind(struct fn *f, struct fn *h, size_t open, const size_t *ends,
    int n);

/* onchip.c: 1 and the values stored in it when name[...] at pos reads
 * an on-chip array of f (a __shared__ or local array, or a helper's
 * parameter bound to one); 0 when it is no such read */
int
onchip_read(struct fn *f, const char *name, size_t pos, struct iv *r);
/* What evaluations leave in f's caches from fn_mark on, undone by
 * fn_undo: values that may rest on an induction's guess. */
struct fn_mark {
	int nm, noc;
	unsigned char *g;	/* guards not yet evaluated */
};
void
fn_mark(struct fn *f, struct fn_mark *s);
void
fn_undo(struct fn *f, struct fn_mark *s);
/* Forget mark s, keeping what was cached since. */
void
fn_keep(struct fn_mark *s);
/* Whether the values in is lie in out. */
int
iv_within(const struct atoms *at, const struct iv *in, const struct iv *out);
#define INDUCTION_ROUNDS 3	/* guesses of an induction, each wider */
#define MAX_ROUNDS 512		/* induction rounds of one record */

/* access.c */
void
count_of(struct kern *k, int pi, const char *domain);
void
shared_of(struct kern *k);
void
index_limits(struct kern *k);

/* infer.c */
struct kern *
kern_infer(json_t *rec);
void
kern_free(struct kern *k);

/* byvalue.c: -1 and why, naming the parameter and its type, when a
 * parameter passed by value has a type kwrap cannot build (a harness
 * would pass the kernel a value of the wrong size); else 0 */
int
byvalue_unbuilt(struct kern *k, char *why, size_t cap);
/* The type spelled followed through aliases, the instance and member
 * aliases of the slice's classes into out: 1 when it is a dtype or a
 * vector type kwrap knows. */
int
resolve_type(struct kern *k, const char *spelled, char *out, size_t cap,
    int depth);
/* texture.c: each texture object parameter's kind, element type,
 * channels and coordinates, from the kernel's fetches; an input */
void
texture_params(struct kern *k);
/* TEX_* by name ("linear", "2d", ...; NULL ends) and extents of each */
extern const char *const tex_kinds[];
extern const int tex_dims[];
/* TEX_* of a kind's name, TEX_NONE for none */
int
tex_kind(const char *name);
/* 1 and the element type into elem when a struct member's type is a
 * pointer (const float *, void * __restrict__) */
int
byvalue_ptr_member(const char *type, char *elem, size_t cap);
/* Each pointer member of a struct parameter becomes a buffer parameter
 * of its own, appended to k->p, and p.member in the kernel's text its
 * name, so that roles and counts are inferred as for a pointer
 * parameter. */
void
byvalue_members(struct kern *k);
/* A void * parameter's element type from the kernel's casts of it. */
void
byvalue_void_params(struct kern *k);
/* 1 when by-value p's type is a CUDA vector type (float2, int4, ...):
 * p becomes a struct of its components x, y, z, w */
int
byvalue_vector(struct param *p);
/* 1 when by-value p's type is std::pair of two scalar types: p becomes a
 * struct of its members first and second */
int
byvalue_pair(struct param *p);
/* spec.fields' entry of pointer member f: its buffer named */
json_t *
byvalue_field_json(struct kern *k, const struct field *f);

/* accessor.c: 1 when p's type is a packed tensor accessor kwrap lays
 * out (T and N known): p becomes a struct of a data member, N sizes and
 * N derived strides */
int
accessor_parse(struct kern *k, struct param *p);
/* The kernel's text with each accessor's uses as struct fields and
 * subscripts of its data member (before byvalue_members). */
void
accessor_text(struct kern *k);
/* Whether param pi is an accessor's data buffer. */
int
accessor_buffer(const struct kern *k, int pi);
/* Each accessor buffer's count: the product of its sizes. */
void
accessor_counts(struct kern *k);
void
accessor_indices(struct kern *k);
/* spec.fields' entry of an accessor's size or stride */
json_t *
accessor_field_json(const struct field *f);

/* spec.c */
void
spec_merge(json_t *spec, json_t *over);
json_t *
spec_of(struct kern *k, json_t *user);

/* fit.c */
void
fit_cases(json_t *spec, const struct consts *c, const struct kern *k);

/* harness.c */
int
wrap_harness(json_t *rec, json_t *wrap, json_t *spec, const char *dialect,
    const char **why);
/* Why spec's kernel cannot have a CPU reference compiled into its
 * harness, or NULL when it can. */
const char *
oracle_unsupported(json_t *spec);

/* validate.c: 0 when spec's names, expressions and per-case sizes are
 * fit for a harness; -1 and why, naming the field, otherwise */
int
spec_validate(json_t *spec, char *why, size_t len);

/* instruction.c */
json_t *
gen_instruction(json_t *rec, json_t *spec, const char *dialect);

/* mutate.c: up to budget one-point mutants of kernel's body in code,
 * wrap.mutants (a new reference) */
json_t *kw_mutants(const char *code, const char *kernel, int budget);
/* equiv.c: mark the mutants of wrap.mutants (list entries) proven
 * equivalent to the reference under spec's cases and launch, each with
 * "equivalent": {under, rule, cases, reason}; mutants.equivalent counts
 * them (instance: slice.instance, the template arguments) */
void kw_equivalent(const char *code, const char *kernel, json_t *instance,
    json_t *spec, json_t *mutants);

/* guarded.c: outputs whose stores all depend on data or a mode, and
 * buffers only accumulated into by atomics, become inout and zeroed */
void
zeroed_outputs(struct kern *k);

/* switches.c: cases that give each switch-like scalar each value the
 * kernel compares it with (spec.cases grows, at most budget) */
void kw_switch_cases(const char *code, const char *kernel, json_t *spec,
    int budget);
/* What adding cases starts from: kernel's body in code, [*a, *b) of *t
 * (the caller frees t->v), case 0 and the first seed no case has; 0 when
 * there is nothing to add to (no budget, no body, no cases). */
struct mtoks;
int kw_case_start(const char *code, const char *kernel, json_t *cases,
    int budget, struct mtoks *t, size_t *a, size_t *b, json_t **base,
    json_int_t *seed);
/* cases aimed at rec's surviving mutants (verify.mutation.survivors) */
void kw_survivor_cases(json_t *rec, json_t *spec, int budget);
/* hit.c: a value of integer scalar name (the first case's: base; at
 * least 1 when positive) where the reference's line ref and the
 * mutant's mut part, under the constants k; 0 when none. */
int kw_hit_value(const char *ref, const char *mut, const char *name,
    const struct consts *k, long long base, int positive, long long *out);
/* boundary.c: the boundary cases (at most two, at most budget) */
void kw_boundary_cases(const char *code, const char *kernel, json_t *spec,
    int budget);
/* sizeguard.c: cases at the constant a size scalar is compared with in
 * an early-exit guard ("if (m <= 0) return;": m = 0), where they cannot
 * fail the reference (at most two, at most budget) */
void kw_size_guard_cases(const char *code, const char *kernel, json_t *spec,
    int budget);
/* sizeguard.c: the last token of the statement that starts at token i
 * of [i, b) (a block's closing brace), or b */
size_t kw_stmt_end(const char *c, const struct mtoks *t, size_t i, size_t b);
/* sizeguard.c: case cs's scalars as constants, over the slice's, into k */
void kw_case_bind(struct consts *k, const struct consts *slice, json_t *cs);
/* sizeguard.c: the value of x (a JSON number, or a string expression of
 * the scalars and constants k, a struct's fields "p.c" too) in *v; 0
 * when it does not evaluate */
int kw_case_value(json_t *x, const struct consts *k, long long *v);
/* sizeguard.c: whether a case whose scalars are k can run: the launch at
 * least 1 everywhere, every buffer at most KW_CASE_ELEMS elements and,
 * where fires, every pure output empty */
int kw_case_fits(json_t *spec, const struct consts *k, int fires);
/* loopentry.c: a case that runs each loop of the kernel's body that no
 * case runs, where the scalars decide its first trip (at most two, at
 * most budget) */
void kw_loop_entry_cases(const char *code, const char *kernel, json_t *spec,
    int budget);
/* gridcase.c: a case of two blocks or more in each dimension whose
 * blockIdx the kernel names and that every case runs as one block (at
 * most three, at most budget) */
void kw_grid_cases(const char *code, const char *kernel, json_t *spec,
    int budget);
/* nonfinite.c: a case whose fill mixes NaN and Inf into each float input
 * whose data the kernel tests for finiteness (one case, within budget) */
void kw_nonfinite_cases(const char *code, const char *kernel, json_t *spec,
    int budget);

/* harness_text.c, generated from harness.in */
extern const char kwrap_harness_text[];

/* ------------------------------------------------------------ llm.c */

/* kwrap --llm's long options: values past any character, named once
 * here, used by kwrap.c's option table and by kw_llm_option. */
enum {
	OPT_LLM = 1000, OPT_MODEL, OPT_URL, OPT_TEMPERATURE, OPT_MAX_TOKENS,
	OPT_TIMEOUT, OPT_RETRIES, OPT_CANDIDATE_DIALECT, OPT_ROUNDS,
	OPT_MAX_RESPONSE, OPT_NO_CACHE, OPT_LLM_END
};

#define KW_LLM_SHORTOPTS "j:"
#define KW_LLM_LONGOPTS \
	{ "llm", required_argument, NULL, OPT_LLM }, \
	{ "model", required_argument, NULL, OPT_MODEL }, \
	{ "url", required_argument, NULL, OPT_URL }, \
	{ "temperature", required_argument, NULL, OPT_TEMPERATURE }, \
	{ "max-tokens", required_argument, NULL, OPT_MAX_TOKENS }, \
	{ "timeout", required_argument, NULL, OPT_TIMEOUT }, \
	{ "retries", required_argument, NULL, OPT_RETRIES }, \
	{ "candidate-dialect", required_argument, NULL, \
	    OPT_CANDIDATE_DIALECT }, \
	{ "rounds", required_argument, NULL, OPT_ROUNDS }, \
	{ "max-response", required_argument, NULL, OPT_MAX_RESPONSE }, \
	{ "no-cache", no_argument, NULL, OPT_NO_CACHE }, \
	{ "jobs", required_argument, NULL, 'j' }

/* Handle one of the options above: 1 when it was one (usage errors are
 * fatal), 0 when it is not. */
int kw_llm_option(int ch, const char *arg);
/* After the options: check them, load the prompts, start the client. */
void kw_llm_start(void);
int kw_llm_enabled(void);

/* Replace rec's wrap.spec with spec (borrowed) and regenerate the harness
 * and the instruction from it; -1 with a reason when it cannot. */
typedef int (*kw_rewrap_fn)(json_t *rec, json_t *spec, char *why,
    size_t cap);

/* k_filter's loop in batches of -j records: each through process, then
 * the LLM tasks for the whole batch at once. */
int kw_llm_filter(FILE *fp, const char *name, k_record_fn process,
    kw_rewrap_fn rewrap);
void kw_llm_end(void);

#endif
