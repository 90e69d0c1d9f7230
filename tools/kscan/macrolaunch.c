/*
 * Launches spelled inside a project's macro: a dispatch macro such as
 *
 *	#define LAUNCH(N, A) kernel<T, N, A><<<grid, block>>>(x, n)
 *	#define FOR_A(A) if (w == 4) LAUNCH(4, A); else LAUNCH(8, A);
 *
 * expanded in a launcher.  libclang gives each such launch the extent
 * of the outermost invocation (FOR_A(2)), whose tokens hold no <<<, and
 * nothing that tells two launches of one invocation apart; kscan used to
 * drop them, and the kernel's template values were then guessed.  Here
 * the invocation is expanded with the project's macro definitions (as
 * the preprocessor does: arguments expanded before they are substituted
 * except next to # and ##, the result rescanned with the macro's own
 * name hidden) and every <<<...>>> launch of the kernel in the expansion
 * becomes a launch of its own, with the template arguments, grid, block
 * and arguments the expansion spells.  Macros of the toolkit and system
 * headers are left as spelled, as launches[].resolved leaves them.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k_mem.h"
#include "kscan.h"

#define EXP_DEPTH 16		/* nested expansions */
#define EXP_MAX 200000		/* tokens of one expansion */
#define EXP_LAUNCHES 256	/* launches of one kernel in one invocation */

struct sv {
	char **s;
	unsigned n, cap;
	int over;		/* past EXP_MAX: the expansion is dropped */
};

static void
sv_push(struct sv *v, const char *s)
{
	if (v->n >= EXP_MAX) {
		v->over = 1;
		return;
	}
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 64;
		v->s = k_realloc(v->s, v->cap * sizeof(*v->s));
	}
	v->s[v->n++] = k_strdup(s);
}

static void
sv_free(struct sv *v)
{
	unsigned i;

	for (i = 0; i < v->n; i++)
		free(v->s[i]);
	free(v->s);
	memset(v, 0, sizeof(*v));
}

static int
is_ident(const char *s)
{
	return isalpha((unsigned char)s[0]) || s[0] == '_';
}

static int
wordy(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Whether no space goes between tokens p and s of an expansion's text:
 * brackets, member access, scope and template brackets glue, as the
 * source is usually spelled. */
static int
glued(const char *p, const char *s)
{
	static const char *const after[] = { "(", "[", ".", "->", "::", "~",
	    "<", "!", NULL };
	static const char *const before[] = { ")", "]", ",", ".", "->", "::",
	    ";", "<", ">", ">>", NULL };
	int i;

	for (i = 0; after[i] != NULL; i++)
		if (strcmp(p, after[i]) == 0)
			return 1;
	for (i = 0; before[i] != NULL; i++)
		if (strcmp(s, before[i]) == 0)
			return 1;
	return strcmp(s, "(") == 0 && (wordy(p[strlen(p) - 1]) ||
	    strcmp(p, ">") == 0);
}

/* s[a..b) as text. */
static char *
join(char **s, unsigned a, unsigned b)
{
	size_t len = 1;
	unsigned i;
	char *out, *p;

	for (i = a; i < b; i++)
		len += strlen(s[i]) + 1;
	p = out = k_malloc(len);
	for (i = a; i < b; i++) {
		if (i > a && !glued(s[i - 1], s[i]))
			*p++ = ' ';
		strcpy(p, s[i]);
		p += strlen(s[i]);
	}
	*p = '\0';
	return out;
}

/* A project macro's definition: its parameters and body as strings. */
struct mdef {
	int fn;			/* function-like */
	int variadic;
	char *par[32];
	unsigned np;
	struct sv body;
};

static int
read_def(struct ctx *x, const char *name, struct mdef *d)
{
	CXCursor def = macro_def(x, name);
	struct fileinfo *fi;
	struct tok *t;
	unsigned n, i, line, off, body = 1;

	memset(d, 0, sizeof(*d));
	if (clang_Cursor_isNull(def))
		return 0;
	fi = where(x, clang_getCursorLocation(def), &line, &off);
	if (fi == NULL || !fi->project)
		return 0;
	t = tokens(x, clang_getCursorExtent(def), &n, &fi);
	if (n == 0 || strcmp(t[0].s, name) != 0) {
		free_tokens(t, n);
		return 0;
	}
	if (clang_Cursor_isMacroFunctionLike(def)) {
		d->fn = 1;
		for (i = 2; i < n && strcmp(t[i].s, ")") != 0; i++) {
			if (strcmp(t[i].s, "...") == 0)
				d->variadic = 1;
			else if (is_ident(t[i].s) && d->np < 32)
				d->par[d->np++] = k_strdup(t[i].s);
		}
		body = i + 1;
	}
	for (i = body; i < n; i++)
		sv_push(&d->body, t[i].s);
	free_tokens(t, n);
	return 1;
}

static void
free_def(struct mdef *d)
{
	unsigned i;

	for (i = 0; i < d->np; i++)
		free(d->par[i]);
	sv_free(&d->body);
}

static int
hidden(const struct sv *hide, const char *s)
{
	unsigned i;

	for (i = 0; i < hide->n; i++)
		if (strcmp(hide->s[i], s) == 0)
			return 1;
	return 0;
}

static void expand(struct ctx *x, char **in, unsigned n, struct sv *out,
    struct sv *hide, int depth);

/* Index of the parameter named s of d, -1 for __VA_ARGS__, -2: none. */
static int
param(const struct mdef *d, const char *s)
{
	unsigned i;

	if (d->variadic && strcmp(s, "__VA_ARGS__") == 0)
		return -1;
	for (i = 0; i < d->np; i++)
		if (strcmp(d->par[i], s) == 0)
			return (int)i;
	return -2;
}

/* The tokens of argument k (k == -1: the variadic ones, commas kept). */
static void
arg_tokens(char **in, const unsigned *as, const unsigned *ae, unsigned na,
    const struct mdef *d, int k, struct sv *out)
{
	unsigned i, j, from = k < 0 ? d->np : (unsigned)k;
	unsigned to = k < 0 ? na : (unsigned)k + 1;

	for (i = from; i < to && i < na; i++) {
		if (i > from)
			sv_push(out, ",");
		for (j = as[i]; j < ae[i]; j++)
			sv_push(out, in[j]);
	}
}

/* The body of d with the arguments bound, before the rescan. */
static void
substitute(struct ctx *x, const struct mdef *d, char **in,
    const unsigned *as, const unsigned *ae, unsigned na, struct sv *hide,
    int depth, struct sv *out)
{
	char **b = d->body.s;
	unsigned i, n = d->body.n;

	for (i = 0; i < n; i++) {
		int k = param(d, b[i]);
		int pasted = (i > 0 && strcmp(b[i - 1], "##") == 0) ||
		    (i + 1 < n && strcmp(b[i + 1], "##") == 0);
		if (strcmp(b[i], "#") == 0 && i + 1 < n &&
		    param(d, b[i + 1]) != -2) {
			struct sv raw = { 0 };
			char *txt, *q;
			arg_tokens(in, as, ae, na, d, param(d, b[i + 1]), &raw);
			txt = join(raw.s, 0, raw.n);
			q = k_malloc(strlen(txt) + 3);
			sprintf(q, "\"%s\"", txt);
			sv_push(out, q);
			free(q);
			free(txt);
			sv_free(&raw);
			i++;
		} else if (k != -2) {
			struct sv raw = { 0 };
			arg_tokens(in, as, ae, na, d, k, &raw);
			if (pasted) {
				unsigned j;
				for (j = 0; j < raw.n; j++)
					sv_push(out, raw.s[j]);
			} else
				expand(x, raw.s, raw.n, out, hide, depth + 1);
			sv_free(&raw);
		} else
			sv_push(out, b[i]);
	}
	/* a ## b: one token */
	for (i = 1; i + 1 < out->n; i++) {
		if (strcmp(out->s[i], "##") == 0) {
			char *m = k_malloc(strlen(out->s[i - 1]) +
			    strlen(out->s[i + 1]) + 1);
			unsigned j;
			strcpy(m, out->s[i - 1]);
			strcat(m, out->s[i + 1]);
			free(out->s[i - 1]);
			free(out->s[i]);
			free(out->s[i + 1]);
			out->s[i - 1] = m;
			for (j = i; j + 2 < out->n; j++)
				out->s[j] = out->s[j + 2];
			out->n -= 2;
			i--;
		}
	}
}

/* in[0..n) with the project's macros expanded, onto out. */
static void
expand(struct ctx *x, char **in, unsigned n, struct sv *out,
    struct sv *hide, int depth)
{
	unsigned i = 0;

	while (i < n && !out->over) {
		struct mdef d;
		if (depth >= EXP_DEPTH || !is_ident(in[i]) ||
		    hidden(hide, in[i]) || !read_def(x, in[i], &d)) {
			sv_push(out, in[i++]);
			continue;
		}
		if (d.fn && (i + 1 >= n || strcmp(in[i + 1], "(") != 0)) {
			free_def(&d);
			sv_push(out, in[i++]);
			continue;
		}
		{
			unsigned as[64], ae[64], na = 0, j = i + 2, start;
			int lvl = 0;
			struct sv sub = { 0 };
			if (d.fn) {
				/* the arguments: top-level commas of ( ... ) */
				for (start = j; j < n; j++) {
					const char *s = in[j];
					if (strcmp(s, "(") == 0 ||
					    strcmp(s, "[") == 0 ||
					    strcmp(s, "{") == 0)
						lvl++;
					else if ((strcmp(s, ")") == 0 ||
					    strcmp(s, "]") == 0 ||
					    strcmp(s, "}") == 0) && lvl > 0)
						lvl--;
					else if (strcmp(s, ")") == 0 ||
					    (strcmp(s, ",") == 0 && lvl == 0)) {
						if (na < 64 && (j > start ||
						    strcmp(s, ",") == 0 ||
						    na > 0)) {
							as[na] = start;
							ae[na++] = j;
						}
						start = j + 1;
						if (strcmp(s, ")") == 0)
							break;
					}
				}
				if (j >= n) {	/* unbalanced: as spelled */
					free_def(&d);
					sv_push(out, in[i++]);
					continue;
				}
			} else
				j = i;
			sv_push(hide, in[i]);
			substitute(x, &d, in, as, ae, na, hide, depth, &sub);
			expand(x, sub.s, sub.n, out, hide, depth + 1);
			free(hide->s[--hide->n]);
			sv_free(&sub);
			free_def(&d);
			i = j + 1;
		}
	}
}

/* The index of the '<' that opens the template list closed at s[j]. */
static int
open_angle(char **s, int j)
{
	int lvl = 0;

	for (; j >= 0; j--) {
		if (strcmp(s[j], ">") == 0 || strcmp(s[j], ")") == 0)
			lvl++;
		else if (strcmp(s[j], ">>") == 0)
			lvl += 2;
		else if (strcmp(s[j], "<") == 0 || strcmp(s[j], "(") == 0) {
			if (--lvl == 0)
				return j;
		}
	}
	return -1;
}

/* Split s[a..b) at commas outside brackets; the texts into arr. */
static json_t *
split(char **s, unsigned a, unsigned b)
{
	json_t *arr = json_array();
	unsigned i, start = a;
	int lvl = 0;

	for (i = a; i <= b; i++) {
		if (i == b || (lvl == 0 && strcmp(s[i], ",") == 0)) {
			if (i > start) {
				char *t = join(s, start, i);
				json_array_append_new(arr, json_string(t));
				free(t);
			}
			start = i + 1;
			continue;
		}
		if (strcmp(s[i], "(") == 0 || strcmp(s[i], "[") == 0 ||
		    strcmp(s[i], "{") == 0)
			lvl++;
		else if (strcmp(s[i], ")") == 0 || strcmp(s[i], "]") == 0 ||
		    strcmp(s[i], "}") == 0)
			lvl--;
	}
	return arr;
}

static json_t *
nth(json_t *arr, size_t i)
{
	json_t *v = json_array_get(arr, i);

	return v != NULL ? json_incref(v) : json_null();
}

/*
 * The launches of kernel kname in the macro invocation t[0..n) (the
 * call's extent, at offset off of fi), each a copy of proto completed:
 * appended to the unit's launches once per invocation and kernel.
 * Returns how many, 0 when the invocation holds none.
 */
int
macro_launches(struct ctx *x, const char *kname, struct tok *t, unsigned n,
    struct fileinfo *fi, unsigned off, json_t *proto)
{
	struct sv in = { 0 }, out = { 0 }, hide = { 0 };
	char key[PATH_MAX + 160];
	unsigned i, found = 0;

	if (n == 0 || !is_ident(t[0].s))
		return 0;
	snprintf(key, sizeof(key), "%s:%u:%s", fi->real, off, kname);
	if (x->mac->expanded == NULL)
		x->mac->expanded = json_object();
	if (json_object_get(x->mac->expanded, key) != NULL)
		return 1;	/* its launches are out already */
	json_object_set_new(x->mac->expanded, key, json_true());
	for (i = 0; i < n; i++)
		sv_push(&in, t[i].s);
	expand(x, in.s, in.n, &out, &hide, 0);
	for (i = 0; i < out.n && !out.over && found < EXP_LAUNCHES; i++) {
		unsigned c = i, e, close, j;
		int k = (int)c - 1, name;
		char *text;
		json_t *l, *cfg, *args;
		if (strcmp(out.s[c], "<<<") != 0 || c == 0)
			continue;
		if (strcmp(out.s[k], ">") == 0 || strcmp(out.s[k], ">>") == 0)
			k = open_angle(out.s, k) - 1;
		if (k < 0 || !is_ident(out.s[k]) ||
		    strcmp(out.s[k], kname) != 0)
			continue;
		name = k;
		while (name >= 2 && strcmp(out.s[name - 1], "::") == 0 &&
		    is_ident(out.s[name - 2]))
			name -= 2;
		for (e = c + 1; e < out.n && strcmp(out.s[e], ">>>") != 0; e++)
			;
		if (e >= out.n)
			continue;
		close = e + 1;
		args = NULL;
		if (close < out.n && strcmp(out.s[close], "(") == 0) {
			int lvl = 0;
			for (j = close; j < out.n; j++) {
				if (strcmp(out.s[j], "(") == 0)
					lvl++;
				else if (strcmp(out.s[j], ")") == 0 &&
				    --lvl == 0)
					break;
			}
			if (j < out.n)
				args = split(out.s, close + 1, j);
		}
		if (args == NULL)
			continue;
		cfg = split(out.s, c + 1, e);
		l = json_deep_copy(proto);
		text = join(out.s, (unsigned)name, c);
		json_object_set_new(l, "kernel", json_string(text));
		free(text);
		json_object_set_new(l, "template_args",
		    template_args_of(json_string_value(json_object_get(l,
		    "kernel")), kname));
		json_object_set_new(l, "grid", nth(cfg, 0));
		json_object_set_new(l, "block", nth(cfg, 1));
		json_object_set_new(l, "shared_mem", nth(cfg, 2));
		json_object_set_new(l, "stream", nth(cfg, 3));
		json_object_set_new(l, "args", json_deep_copy(args));
		/* as spelled by the expansion: nothing followed further */
		json_object_set_new(l, "resolved", json_pack("{s:o,s:o,s:o,s:o}",
		    "grid", nth(cfg, 0), "block", nth(cfg, 1),
		    "shared_mem", nth(cfg, 2), "args", args));
		json_decref(cfg);
		snprintf(key, sizeof(key), "%s:%u:%s#%u", fi->real, off, kname,
		    found);
		json_object_set_new(l, "_key", json_string(key));
		launcher_params(x, l);
		json_array_append_new(x->u->launches, l);
		found++;
	}
	sv_free(&in);
	sv_free(&out);
	sv_free(&hide);
	return (int)found;
}
