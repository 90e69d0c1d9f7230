/*
 * kwrap: loop macros.  A project that writes its grid-stride loops
 * through a macro of its own (#define GRID_LOOP(i, n) for (int i = ...;
 * i < (n); i += blockDim.x * gridDim.x)) hides the loop's index, bound
 * and stride from an analysis of the kernel's tokens: the bound of every
 * access inside is unknown, and each buffer's count a guess.  Where the
 * slice holds the macro's definition and its replacement is a loop
 * header (it begins with "for (" or "while ("), each use in the kernel
 * is replaced by the replacement with the arguments put in for the
 * parameters, as the preprocessor would, and the loop reads as one
 * written out.  So is a macro whose replacement is a use of such a macro
 * (#define KERNEL_LOOP(i, n) GRID_LOOP(i, n)).
 *
 * Left as they are: the spellings the analysis knows by name
 * (CUDA_1D_KERNEL_LOOP and its kin, which it also reads where their
 * definition lies outside the slice), macros that stringize or paste
 * (# and ##), variadic ones, and uses whose argument count differs from
 * the definition's.  A replacement that names another loop macro is
 * expanded again, a few levels deep at most.
 */
#include <ctype.h>

#include "kwrap.h"

#define LOOP_MACROS 64		/* function-like macros read, at most */
#define LOOP_PARAMS 8		/* parameters of one, at most */
#define LOOP_DEPTH 4		/* expansions of expansions, at most */

struct loopmac {
	char *name;
	char *param[LOOP_PARAMS];
	int nparam;
	struct toks body;
};

/* The spellings flow.c, model.c and guarded.c read by name. */
int
loop_macro_known(const char *s)
{
	static const char *const known[] = { "CUDA_1D_KERNEL_LOOP",
	    "CUDA_KERNEL_LOOP", "HIP_1D_KERNEL_LOOP", "CUDA_2D_KERNEL_LOOP",
	    NULL };
	int i;

	for (i = 0; known[i] != NULL; i++)
		if (strcmp(s, known[i]) == 0)
			return 1;
	return 0;
}

/* m's strings and tokens freed, m zeroed. */
static void
mac_free(struct loopmac *m)
{
	int p;

	free(m->name);
	for (p = 0; p < m->nparam; p++)
		free(m->param[p]);
	toks_free(&m->body);
	memset(m, 0, sizeof(*m));
}

/* The logical line from p (continuations joined) into sb; returns the
 * character after it. */
static const char *
logical_line(const char *p, struct k_buf *sb)
{
	while (*p != '\0' && *p != '\n') {
		if (*p == '\\' && p[1] == '\n') {
			k_buf_add(sb, " ");
			p += 2;
			continue;
		}
		k_buf_addn(sb, p++, 1);
	}
	return p;
}

/* One definition at p (just after "define"), into m: 1 when it is a
 * function-like macro whose replacement is a loop header. */
static int
definition(const char *p, struct loopmac *m)
{
	struct k_buf sb = { 0 };
	const char *s, *e;

	memset(m, 0, sizeof(*m));
	while (*p == ' ' || *p == '\t')
		p++;
	for (s = p; isalnum((unsigned char)*p) || *p == '_'; p++)
		;
	if (p == s || *p != '(' || isdigit((unsigned char)*s))
		return 0;
	m->name = k_strndup(s, (size_t)(p - s));
	if (loop_macro_known(m->name))
		goto no;
	for (p++;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		for (s = p; isalnum((unsigned char)*p) || *p == '_'; p++)
			;
		if (p == s || m->nparam == LOOP_PARAMS)
			goto no;	/* empty, variadic or too many */
		m->param[m->nparam++] = k_strndup(s, (size_t)(p - s));
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == ')')
			break;
		if (*p != ',')
			goto no;
		p++;
	}
	logical_line(p + 1, &sb);
	e = k_buf_str(&sb);
	if (strchr(e, '#') != NULL) {
		k_buf_free(&sb);
		goto no;
	}
	tokenize(e, &m->body);
	k_buf_free(&sb);
	/* a loop header, or (decided once all are read) another macro */
	if (m->body.n < 2 || !is(&m->body, 1, "(") ||
	    !is_ident(m->body.v[0]))
		goto no;
	return 1;
no:
	mac_free(m);
	return 0;
}

/* The loop macros defined in code, into m; their number. */
static int
definitions(const char *code, struct loopmac *m)
{
	const char *p = code;
	int n = 0;

	while (p != NULL && *p != '\0' && n < LOOP_MACROS) {
		const char *q = p;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '#') {
			q++;
			while (*q == ' ' || *q == '\t')
				q++;
			if (strncmp(q, "define", 6) == 0 &&
			    (q[6] == ' ' || q[6] == '\t') &&
			    definition(q + 6, &m[n]))
				n++;
		}
		/* the next logical line */
		while (*p != '\0' && *p != '\n') {
			if (*p == '\\' && p[1] == '\n')
				p++;
			p++;
		}
		if (*p == '\n')
			p++;
	}
	return n;
}

/* Whether macro d's replacement is a loop header, or a use of a macro of
 * m that is one (a loop macro written through another), LOOP_DEPTH deep
 * at most. */
static int
is_loop(const struct loopmac *m, int n, const struct loopmac *d, int depth)
{
	int i;

	if (is(&d->body, 0, "for") || is(&d->body, 0, "while"))
		return 1;
	if (depth == LOOP_DEPTH)
		return 0;
	if (loop_macro_known(d->body.v[0]))
		return 1;
	for (i = 0; i < n; i++)
		if (&m[i] != d && strcmp(m[i].name, d->body.v[0]) == 0)
			return is_loop(m, n, &m[i], depth + 1);
	return 0;
}

/* The macro named s, or NULL. */
static const struct loopmac *
find(const struct loopmac *m, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(m[i].name, s) == 0)
			return &m[i];
	return NULL;
}

/*
 * One pass over t: each use of a macro of m replaced by its expansion,
 * into out.  Returns how many were.
 */
static int
expand_once(const struct toks *t, const struct loopmac *m, int nm,
    struct toks *out)
{
	size_t i = 0, j, k, close, ends[LOOP_PARAMS + 1];
	int done = 0, na, mixed, p;

	while (i < t->n) {
		const struct loopmac *d = find(m, nm, t->v[i]);
		/* the arguments: [i + 2, ends[0]), then between the commas
		 * at ends[0], ends[1], ... and the ) at the last end; more
		 * than LOOP_PARAMS run into the last, a count no definition
		 * has */
		na = 0;
		if (d != NULL && is(t, i + 1, "(")) {
			close = skip_group(t, i + 1) - 1;
			if (close < t->n && is(t, close, ")"))
				na = split_top(t, i + 2, close, ",", ends,
				    LOOP_PARAMS + 1, &mixed);
		}
		if (d == NULL || na != d->nparam) {
			tok_push(out, t->v[i], strlen(t->v[i]));
			i++;
			continue;
		}
		for (j = 0; j < d->body.n; j++) {
			const char *s = d->body.v[j];
			for (p = 0; p < d->nparam; p++)
				if (strcmp(s, d->param[p]) == 0)
					break;
			if (p == d->nparam) {
				tok_push(out, s, strlen(s));
				continue;
			}
			for (k = p > 0 ? ends[p - 1] + 1 : i + 2; k < ends[p];
			    k++)
				tok_push(out, t->v[k], strlen(t->v[k]));
		}
		done++;
		i = ends[na - 1] + 1;
	}
	return done;
}

int
expand_loop_macros(const char *code, struct toks *t)
{
	struct loopmac m[LOOP_MACROS];
	int loop[LOOP_MACROS];
	int n, i, pass, loops, total = 0;

	if (code == NULL || t->n == 0 || (n = definitions(code, m)) == 0)
		return 0;
	/* keep the loop macros only: the others stay as written */
	for (i = 0, loops = 0; i < n; i++)
		loop[i] = is_loop(m, n, &m[i], 0);
	for (i = 0; i < n; i++)
		if (loop[i])
			m[loops++] = m[i];
		else
			mac_free(&m[i]);
	n = loops;
	for (pass = 0; pass < LOOP_DEPTH; pass++) {
		struct toks out = { 0 };
		int done = expand_once(t, m, n, &out);
		if (done == 0) {
			toks_free(&out);
			break;
		}
		toks_free(t);
		*t = out;
		total += done;
	}
	for (i = 0; i < n; i++)
		mac_free(&m[i]);
	return total;
}
