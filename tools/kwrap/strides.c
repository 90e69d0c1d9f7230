/*
 * kwrap: scalars that are strides of a buffer's layout.  A kernel that
 * takes a tensor's strides as integers (offset = s * stride_s + h *
 * stride_h + d * stride_d) reaches one element from several index tuples
 * when each case gives the strides a value of its own: rows overlap and
 * writes race.  Such a scalar marks its buffer here (p->layout), and
 * fit.c sets it in every case from the sizes inside it: innermost (last
 * in parameter order) first, each the span of what lies inside it, a
 * layout in which no two index tuples meet.  Only a buffer whose count
 * kwrap derived gets one (a guessed count may hold less than the strides
 * reach); an output written through one is a view whose gaps the kernel
 * must leave as they were, an inout.
 */
#include "kwrap.h"

static int
compares(const struct toks *t, size_t i)
{
	return relational(t, i) || is(t, i, "==") || is(t, i, "!=");
}

/* Whether name is an operand of a comparison anywhere in t. */
static int
compared(const struct toks *t, const char *name)
{
	size_t i;

	for (i = 1; i + 1 < t->n; i++)
		if (is(t, i, name) && !is(t, i - 1, ".") &&
		    !is(t, i - 1, "->") && (compares(t, i - 1) ||
		    compares(t, i + 1)))
			return 1;
	return 0;
}

/*
 * Whether scalar name is used as a stride in t: it multiplies (x * name,
 * name * x) and is never compared, divided by, a divisor, a step (i +=
 * name) or called; nor is a local computed from it, a few assignments on,
 * compared (an input row h_in = h * stride_h - pad, then h_in < height, is
 * a convolution's step, not a layout's).
 */
static int
stride_like(const struct toks *t, const char *name)
{
	char set[TAINTED][64];
	int product = 0, nt, j;
	size_t i;

	for (i = 1; i + 1 < t->n; i++) {
		if (!is(t, i, name) || is(t, i - 1, ".") || is(t, i - 1, "->") ||
		    is(t, i - 1, "::"))
			continue;
		if (compares(t, i - 1) || compares(t, i + 1) ||
		    is(t, i - 1, "/") || is(t, i - 1, "%") ||
		    is(t, i + 1, "/") || is(t, i + 1, "%") ||
		    is(t, i - 1, "+=") || is(t, i - 1, "-=") ||
		    is(t, i + 1, "(") || is(t, i + 1, "[") ||
		    is(t, i + 1, "=") || is(t, i + 1, "+=") ||
		    is(t, i + 1, "-="))
			return 0;
		if (is(t, i - 1, "*") || is(t, i + 1, "*"))
			product = 1;
		nt = locals_from(t, 0, i, set);
		for (j = 0; j < nt; j++)
			if (strcmp(set[j], name) != 0 && compared(t, set[j]))
				return 0;
	}
	return product;
}

/*
 * Whether the strides of buffer b (the scalars marked with its layout)
 * make a layout: two or more, and no term of its count multiplies two of
 * them.  One scalar alone (a row length that only multiplies, n in
 * x[b * c * n + i * n + j]) and products of them (P * D, the sizes of a
 * row-major tensor spelled out) are sizes, which the cases vary.
 */
static int
is_layout(struct kern *k, int b)
{
	struct toks t;
	size_t i;
	int depth = 0, in_term = 0, n = 0, j, ok = 1;

	for (j = 0; j < k->np; j++)
		n += k->p[j].layout == b + 1;
	if (n < 2)
		return 0;
	memset(&t, 0, sizeof(t));
	tokenize(k->p[b].count, &t);
	for (i = 0; i < t.n && ok; i++) {
		if (is(&t, i, "(") || is(&t, i, "["))
			depth++;
		else if (is(&t, i, ")") || is(&t, i, "]"))
			depth--;
		else if (depth == 0 && (is(&t, i, "+") || is(&t, i, "-")))
			in_term = 0;
		else if ((j = param_index(k, t.v[i])) >= 0 &&
		    k->p[j].layout == b + 1) {
			if (in_term)
				ok = 0;
			in_term = 1;
		}
	}
	toks_free(&t);
	return ok;
}

/*
 * A row pitch: out[y * pitch + x] with x bounded by a width of its own
 * (x < w, or the launch's threads) and pitch a size that only
 * multiplies.  Cases that give pitch less than the width make rows
 * overlap: two threads store to one element and the outputs differ from
 * run to run.  The count of such a buffer, y's bound times pitch plus
 * x's, is linear in pitch: its terms without pitch are the row's width,
 * and every case keeps pitch at least that (fit.c), as an allocation
 * with a pitch does; the elements past a row's end are not the kernel's
 * to write, so a pure output becomes an inout.  Sets p->pitch to that
 * width when buffer b, written by the kernel with a derived count, has
 * one for p.
 */
#define PITCH_TERMS 64	/* terms of a count row_pitch reads */

static void
row_pitch(struct kern *k, struct param *p, const struct param *b)
{
	struct toks t;
	struct k_buf w = { 0 };
	size_t i, j, s[PITCH_TERMS], e[PITCH_TERMS];
	int sg[PITCH_TERMS], n, m, with = 0, other = 0, bad = 0;

	memset(&t, 0, sizeof(t));
	tokenize(b->count, &t);
	/* each term: with p as a factor, or without p */
	n = sum_terms(&t, 0, t.n, s, e, sg, PITCH_TERMS);
	for (m = 0; m < n && !bad; m++) {
		int has = 0;
		for (j = s[m]; j < e[m]; j++)
			if (is(&t, j, p->name)) {
				/* p, R * p or p * R with R one name or
				 * number: p's rows counted by R alone, in
				 * elements as the width is */
				has = 1;
				if (!(e[m] == s[m] + 1 || (e[m] == s[m] + 3 &&
				    is(&t, s[m] + 1, "*") && (j == s[m] ||
				    j == s[m] + 2))))
					bad = 1;
			}
		if (has)
			with = 1;
		else {
			if (w.n > 0)
				k_buf_add(&w, sg[m] < 0 ? " - " : " + ");
			else if (sg[m] < 0)
				k_buf_add(&w, "- ");
			join_buf(&t, s[m], e[m], &w);
			other = 1;
		}
	}
	/* a width that names a parameter: x's bound, not a constant */
	if (!bad && with && other && w.n < MAX_EXPR) {
		struct toks q;
		memset(&q, 0, sizeof(q));
		tokenize(k_buf_str(&w), &q);
		for (i = 0; i < q.n; i++)
			if (param_index(k, q.v[i]) >= 0 &&
			    strcmp(q.v[i], p->name) != 0)
				break;
		if (i < q.n)
			copy(p->pitch, sizeof(p->pitch), k_buf_str(&w));
		toks_free(&q);
	}
	k_buf_free(&w);
	toks_free(&t);
}

void
find_strides(struct kern *k)
{
	int i, b, d;

	for (i = 0; i < k->np; i++) {
		struct param *p = &k->p[i];
		int launch = 0;
		if (p->ptr || p->is_struct || p->is_enum || p->dt == NULL ||
		    p->dt->is_float || strcmp(p->dt->name, "bool") == 0 ||
		    p->member_of >= 0)
			continue;
		for (d = 0; d < 3; d++)
			launch |= kw_names(k->grid[d], p->name);
		if (launch || kw_names(k->shared, p->name))
			continue;
		for (b = 0; b < k->np; b++)
			if (k->p[b].ptr && k->p[b].count_state == 2 &&
			    kw_names(k->p[b].count, p->name))
				break;
		/* the text walked only for a scalar some count names */
		if (b < k->np && stride_like(&k->all, p->name))
			p->layout = b + 1;
	}
	/* one stride alone: a row pitch of the buffers written */
	for (i = 0; i < k->np; i++) {
		struct param *p = &k->p[i];
		if (p->layout == 0 || is_layout(k, p->layout - 1))
			continue;
		for (b = 0; b < k->np && p->pitch[0] == '\0'; b++)
			if (k->p[b].ptr && k->p[b].count_state == 2 &&
			    k->p[b].written && kw_names(k->p[b].count,
			    p->name)) {
				row_pitch(k, p, &k->p[b]);
				/* what lies past a row's end is not the
				 * kernel's to write */
				if (p->pitch[0] != '\0' &&
				    k->p[b].role == R_OUT && !k->p[b].zeroed) {
					k->p[b].role = R_INOUT;
					guess(k, "%s: rows %s apart, the elements "
					    "past each row's end kept, as inout",
					    k->p[b].name, p->name);
				}
			}
	}
	for (b = 0; b < k->np; b++) {
		if (!k->p[b].ptr)
			continue;
		if (!is_layout(k, b)) {
			for (i = 0; i < k->np; i++)
				if (k->p[i].layout == b + 1)
					k->p[i].layout = 0;
			continue;
		}
		/* a view into a larger tensor: what lies between its
		 * elements is not the kernel's to write, and must stay */
		if (k->p[b].role == R_OUT && !k->p[b].zeroed) {
			k->p[b].role = R_INOUT;
			guess(k, "%s: written through the strides of a layout: "
			    "the elements between kept, as inout",
			    k->p[b].name);
		}
	}
}
