/*
 * kwrap: PyTorch's packed tensor accessors passed by value.
 *
 * at::PackedTensorAccessor32/64<T, N, PtrTraits>, PackedTensorAccessor
 * and GenericPackedTensorAccessor<T, N, PtrTraits, index_t> hold, as
 * ATen/core/TensorAccessor.h lays them out (GenericPackedTensorAccessorBase)
 * and the stand-in stubs/kforge_torch.h copies:
 *
 *	PtrType data_; index_t sizes_[N]; index_t strides_[N];
 *
 * kwrap builds such a parameter as a struct of its own: a pointer member
 * data (a buffer of T, byvalue.c), N size members size0.. (scalars of the
 * cases) and N stride members stride0.. that the harness derives from the
 * sizes (contiguous: the innermost 1), so that the struct's bytes are the
 * accessor's.  In the kernel's text a.size(d) becomes the field a.sized,
 * a.data() the buffer, and a[i][j] an access a.data[(i) * a.stride0 +
 * (j) * a.stride1], so that roles come from reads and writes as for a
 * pointer.  The buffer's count is the product of the sizes.  Every size
 * of every accessor takes the same value in a case (an index bounded by
 * one accessor's size stays within another's), except a dimension the
 * kernel subscripts with a constant (p[i][2]: x, y, z), which keeps the
 * least size that holds it in every case.
 */
#include "kwrap.h"

/* The accessor templates by name: the index type, or NULL when the
 * template's fourth argument names it (int64_t by default). */
static const struct {
	const char *name, *index;
} templates[] = {
	{ "PackedTensorAccessor32", "int32_t" },
	{ "PackedTensorAccessor64", "int64_t" },
	{ "PackedTensorAccessor", NULL },
	{ "GenericPackedTensorAccessor", NULL },
};

#define MAX_RANK 8		/* dimensions of an accessor kwrap builds */

/* Split the template arguments of the < at open in t: the ends of up to
 * max arguments into ends; their number, or -1 when unbalanced. */
static int
template_args(const struct toks *t, size_t open, size_t *ends, int max)
{
	size_t i;
	int depth = 0, n = 0;

	for (i = open + 1; i < t->n; i++) {
		const char *s = t->v[i];
		if (is(t, i, "<") || is(t, i, "(") || is(t, i, "["))
			depth++;
		else if (is(t, i, ">>") && depth >= 1) {
			/* closes a nested argument and the list */
			if (depth == 1 && n < max)
				ends[n++] = i;
			return depth == 1 ? n : -1;
		} else if (is(t, i, ">") || is(t, i, ")") || is(t, i, "]")) {
			if (depth-- == 0) {
				if (n < max)
					ends[n++] = i;
				return n;
			}
		} else if (strcmp(s, ",") == 0 && depth == 0 && n < max)
			ends[n++] = i;
	}
	return -1;
}

int
accessor_parse(struct kern *k, struct param *p)
{
	struct toks t = { 0 };
	size_t i, open = 0, ends[4] = { 0 };
	const char *index = NULL;
	char elem[64], idx[64];
	const struct k_dtype *dt, *it;
	long long n = 0;
	int na, d, off, isz;

	tokenize(p->type, &t);
	for (i = 0; i + 1 < t.n && open == 0; i++) {
		size_t m;
		for (m = 0; m < sizeof(templates) / sizeof(templates[0]); m++)
			if (is(&t, i, templates[m].name) && is(&t, i + 1, "<")) {
				open = i + 1;
				index = templates[m].index;
			}
	}
	na = open != 0 ? template_args(&t, open, ends, 4) : -1;
	if (na < 2) {
		toks_free(&t);
		return 0;
	}
	join(&t, open + 1, ends[0], elem, sizeof(elem));
	if (index != NULL)
		copy(idx, sizeof(idx), index);
	else if (na >= 4)
		join(&t, ends[2] + 1, ends[3], idx, sizeof(idx));
	else
		copy(idx, sizeof(idx), "int64_t");	/* the default */
	dt = k_dtype_c(elem);
	it = k_dtype_c(idx);
	if (!eval_range(&t, ends[0] + 1, ends[1], &k->c, &n))
		n = 0;
	toks_free(&t);
	if (dt == NULL || it == NULL || it->is_float || (it->size != 4 &&
	    it->size != 8) || n < 1 || n > MAX_RANK)
		return 0;
	isz = it->size;
	p->accessor = (int)n;
	p->nf = 0;
	for (d = 0; d < 1 + 2 * (int)n; d++) {
		struct field *f;
		p->f = grow(p->f, &p->cf, p->nf, sizeof(*p->f));
		f = &p->f[p->nf++];
		memset(f, 0, sizeof(*f));
		f->buf = -1;
		if (d == 0) {
			copy(f->name, sizeof(f->name), "data");
			/* a const accessor's operator[] gives const T & */
			bprintf(f->type, sizeof(f->type), "%s%s *",
			    p->is_const ? "const " : "", elem);
			f->dt = dt;
			f->ptr = 1;
			f->offset = 0;
			continue;
		}
		copy(f->type, sizeof(f->type), isz == 4 ? "int32_t" : "int64_t");
		f->dt = it;
		f->offset = 8 + (d - 1) * isz;
		if (d <= n) {
			bprintf(f->name, sizeof(f->name), "size%d", d - 1);
			f->size_use = 1;
		} else {
			/* stride e: the product of the sizes inside it */
			int e = d - 1 - (int)n, j;
			bprintf(f->name, sizeof(f->name), "stride%d", e);
			if (e == n - 1)
				copy(f->expr, sizeof(f->expr), "1");
			for (j = e + 1; j < n; j++) {
				char s[160];
				bprintf(s, sizeof(s), "%s%s.size%d", j > e + 1 ?
				    " * " : "", p->name, j);
				strncat(f->expr, s, sizeof(f->expr) -
				    strlen(f->expr) - 1);
			}
		}
	}
	off = 8 + 2 * (int)n * isz;
	p->ssize = (off + 7) / 8 * 8;
	return 1;
}

/* The field named name of accessor p, or NULL. */
static struct field *
field_of(struct param *p, const char *name)
{
	int f;

	for (f = 0; f < p->nf; f++)
		if (strcmp(p->f[f].name, name) == 0)
			return &p->f[f];
	return NULL;
}

/* Push the tokens of s (several words) onto out. */
static void
push_text(struct toks *out, const char *s)
{
	struct toks t = { 0 };
	size_t i;

	tokenize(s, &t);
	for (i = 0; i < t.n; i++)
		tok_push(out, t.v[i], strlen(t.v[i]));
	toks_free(&t);
}

/* Rewrite the uses of accessor p (index pi) at token j of k->t onto out;
 * returns the next token to read. */
static size_t
rewrite_use(struct kern *k, struct param *p, size_t j, struct toks *out)
{
	const struct toks *t = &k->t;
	const char *a = p->name;
	char s[192];
	long long d;
	size_t g, e, subs[MAX_RANK][2];
	int n = 0, r;

	/* a.size(d), a.stride(d) with a constant d: the field */
	if (is(t, j + 1, ".") && (is(t, j + 2, "size") || is(t, j + 2,
	    "stride")) && is(t, j + 3, "(") && (e = skip_group(t, j + 3)) <=
	    t->n && e > j + 5 && eval_range(t, j + 4, e - 1, &k->c, &d) &&
	    d >= 0 && d < p->accessor) {
		bprintf(s, sizeof(s), "%s . %s%lld", a, t->v[j + 2], d);
		push_text(out, s);
		return e;
	}
	/* a.data(): the buffer */
	if (is(t, j + 1, ".") && is(t, j + 2, "data") && is(t, j + 3, "(") &&
	    is(t, j + 4, ")")) {
		bprintf(s, sizeof(s), "%s . data", a);
		push_text(out, s);
		return j + 5;
	}
	if (!is(t, j + 1, "[")) {
		tok_push(out, t->v[j], strlen(t->v[j]));
		return j + 1;
	}
	/* a[i][j]...: up to the accessor's rank of subscripts */
	for (g = j + 1; n < p->accessor && is(t, g, "["); g = e) {
		e = skip_group(t, g);
		if (e > t->n || e < g + 3)
			break;
		subs[n][0] = g + 1;
		subs[n][1] = e - 1;
		n++;
	}
	if (n == 0) {
		tok_push(out, t->v[j], strlen(t->v[j]));
		return j + 1;
	}
	bprintf(s, sizeof(s), n == p->accessor ? "%s . data [" :
	    "( %s . data +", a);
	push_text(out, s);
	for (r = 0; r < n; r++) {
		size_t x;
		char *end;
		long long lit;
		struct field *sz;
		bprintf(s, sizeof(s), "size%d", r);
		sz = field_of(p, s);
		/* a constant subscript: the dimension holds it in every case */
		errno = 0;
		lit = strtoll(t->v[subs[r][0]], &end, 0);
		if (sz != NULL && subs[r][1] == subs[r][0] + 1 && *end == '\0' &&
		    errno == 0 && lit >= 0 && lit < 1 << 20 && lit + 1 > sz->fixed)
			sz->fixed = (int)lit + 1;
		if (r > 0)
			tok_push(out, "+", 1);
		tok_push(out, "(", 1);
		for (x = subs[r][0]; x < subs[r][1]; x++)
			tok_push(out, t->v[x], strlen(t->v[x]));
		bprintf(s, sizeof(s), ") * %s . stride%d", a, r);
		push_text(out, s);
	}
	tok_push(out, n == p->accessor ? "]" : ")", 1);
	return subs[n - 1][1] + 1;
}

void
accessor_text(struct kern *k)
{
	struct toks out = { 0 };
	size_t j;
	int i, any = 0;

	for (i = 0; i < k->np; i++)
		any |= k->p[i].accessor > 0;
	if (!any || k->body >= k->t.n)
		return;
	for (j = 0; j <= k->body; j++)
		tok_push(&out, k->t.v[j], strlen(k->t.v[j]));
	while (j < k->t.n) {
		i = param_index(k, k->t.v[j]);
		if (i >= 0 && k->p[i].accessor > 0 && !is(&k->t, j - 1, ".") &&
		    !is(&k->t, j - 1, "->") && !is(&k->t, j - 1, "::"))
			j = rewrite_use(k, &k->p[i], j, &out);
		else {
			tok_push(&out, k->t.v[j], strlen(k->t.v[j]));
			j++;
		}
	}
	toks_free(&k->t);
	k->t = out;
	/* a dimension subscripted by a constant is no size of the cases */
	for (i = 0; i < k->np; i++) {
		int f;
		for (f = 0; f < k->p[i].nf; f++)
			if (k->p[i].f[f].fixed > 0)
				k->p[i].f[f].size_use = 0;
	}
}

int
accessor_buffer(const struct kern *k, int pi)
{
	const struct param *p = &k->p[pi];

	return p->member_of >= 0 && k->p[p->member_of].accessor > 0;
}

void
accessor_counts(struct kern *k)
{
	int i, d;

	for (i = 0; i < k->np; i++) {
		struct param *q = &k->p[i], *a;
		char s[160];
		if (!accessor_buffer(k, i))
			continue;
		a = &k->p[q->member_of];
		q->count[0] = '\0';
		for (d = 0; d < a->accessor; d++) {
			bprintf(s, sizeof(s), "%s%s.size%d", d > 0 ? " * " : "",
			    a->name, d);
			strncat(q->count, s, sizeof(q->count) -
			    strlen(q->count) - 1);
		}
		q->count_state = 1;
		guess(k, "%s: the elements of accessor %s, the product of its "
		    "sizes, which the kernel's indices are taken to stay "
		    "within", q->name, a->name);
	}
}

/* An input accessor of integers whose element the kernel reads into an
 * integer local that is then, alone, a subscript of another accessor:
 * n = idx[b][k][i]; ... f[c][n] (in the text byvalue_members leaves,
 * n = idx_data[...]; ... features_data[... + (n) * features.stride1]),
 * n an integer to int_var.  Its values are indices into that dimension:
 * the buffer is filled with data_lo..data_lo + DATA_HI (as a pointer's
 * read as an index, interval.c), and the dimension holds them in every
 * case. */
void
accessor_indices(struct kern *k)
{
	const struct toks *t = &k->t;
	struct field *f;
	char sz[16];
	size_t j, e, u;
	int i, b, d;

	for (i = 0; i < k->np; i++) {
		struct param *q = &k->p[i];
		if (!accessor_buffer(k, i) || q->dt == NULL ||
		    q->dt->is_float || strcmp(q->dt->name, "bool") == 0 ||
		    (q->role != R_IN && (q->role != R_INOUT || q->written)))
			continue;
		for (j = k->body + 1; j + 2 < t->n && k->kf != NULL; j++) {
			if (!is(t, j, "=") || !is_ident(t->v[j - 1]) ||
			    !is(t, j + 1, q->name) || !is(t, j + 2, "[") ||
			    !int_var(k->kf, t->v[j - 1]))
				continue;
			e = skip_group(t, j + 2);
			if (e >= t->n || !(is(t, e, ";") || is(t, e, ",")))
				continue;
			for (u = e; u + 5 < t->n; u++) {
				/* ( n ) * B . strideD, as rewrite_use
				 * spells B[...][n] */
				if (!is(t, u, t->v[j - 1]) || !is(t, u - 1, "(") ||
				    !is(t, u + 1, ")") || !is(t, u + 2, "*") ||
				    !is(t, u + 4, ".") ||
				    strncmp(t->v[u + 5], "stride", 6) != 0)
					continue;
				b = param_index(k, t->v[u + 3]);
				d = atoi(t->v[u + 5] + 6);
				bprintf(sz, sizeof(sz), "size%d", d);
				if (b < 0 || b == q->member_of ||
				    k->p[b].accessor <= d ||
				    (f = field_of(&k->p[b], sz)) == NULL)
					continue;
				if (f->least < k->data_lo + DATA_HI + 1)
					f->least = k->data_lo + DATA_HI + 1;
				q->vals = 1;
			}
		}
	}
}

json_t *
accessor_field_json(const struct field *f)
{
	json_t *o = json_pack("{s:s,s:s,s:s,s:i}", "name", f->name, "type",
	    f->type, "dtype", f->dt->name, "offset", f->offset);

	if (f->expr[0] != '\0') {
		json_object_set_new(o, "use", json_string("derived"));
		json_object_set_new(o, "expr", json_string(f->expr));
	} else
		json_object_set_new(o, "use", json_string(f->size_use &&
		    f->fixed == 0 ? "size" : "value"));
	return o;
}
