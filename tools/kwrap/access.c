/*
 * kwrap: element counts from the bounds of every access of a buffer.
 */
#include "kwrap.h"

/* ---- accesses of a buffer */

struct acc {
	struct poly n;		/* the count so far: largest hi + 1 */
	struct poly ln;		/* the same with every quotient loosened */
	int any, unknown, below;
	int lost;		/* two counts neither bounds: n is ln */
	size_t at;		/* first access without a bound */
	const struct toks *t;	/* the text at is in */
};

static void
acc_unknown(struct acc *a, const struct fn *f, size_t pos)
{
	if (!a->unknown) {
		a->at = pos;
		a->t = f->t;
	}
	a->unknown = 1;
}

/* A count d * (P / d) + d, the end of a d-element vector at a multiple
 * of d, is d * ((P + d) / d): P + 1 rounded up to a multiple of d.  That
 * quotient stays through p_loosen, which would make it P + d, d - 1
 * elements past the last the kernel touches (a float4 store under
 * i < n then leaves elements unwritten). */
static void
round_up(struct atoms *at, struct poly *p)
{
	struct poly dd, np, q, sub;
	long long d, k = 0;
	int i, x = -1;

	for (i = 0; i < p->n; i++)
		if (p->t[i].na == 0)
			k = p->t[i].c;
	for (i = 0; i < p->n && x < 0; i++) {
		const struct term *u = &p->t[i];
		const struct atom *a;
		if (u->na != 1)
			continue;
		a = &at->a[u->a[0]];
		if (a->div > 1 && a->nonneg && a->num.n > 0 && u->c == a->div &&
		    k >= a->div)
			x = u->a[0];
	}
	if (x < 0)
		return;
	d = at->a[x].div;
	p_const(&dd, d);
	p_add(&np, &at->a[x].num, &dd, 1);
	p_div(at, &q, &np, &dd);
	if (q.inf || q.n != 1 || q.t[0].na != 1 || q.t[0].c != 1)
		return;
	at->a[q.t[0].a[0]].keep = 1;
	p_atom(&sub, x);
	p_scale(&sub, &sub, d);
	p_add(&sub, &sub, &dd, 1);
	p_add(p, p, &sub, -1);
	p_scale(&q, &q, d);
	p_add(p, p, &q, 1);
}

static void
acc_add(struct fn *f, struct acc *a, const struct iv *r, size_t pos)
{
	struct atoms *at = f->k->at;
	struct poly c, e, one;

	if (r->hi.inf) {
		acc_unknown(a, f, pos);
		return;
	}
	if (!p_nonneg(at, &r->lo))
		a->below = 1;
	p_const(&one, 1);
	p_add(&c, &r->hi, &one, 1);
	e = c;
	round_up(at, &e);
	p_loosen(at, &e);
	p_loosen(at, &c);
	if (!a->any) {
		a->n = e;
		a->ln = c;
	} else {
		p_max(at, &a->ln, &a->ln, &c);
		if (a->lost || p_ge(at, &a->n, &e))
			;
		else if (p_ge(at, &e, &a->n))
			a->n = e;
		else
			a->lost = 1;
	}
	if (a->lost)
		a->n = a->ln;
	a->any = 1;
	if (a->n.inf)
		acc_unknown(a, f, pos);
}

/* The size in bytes of scalar or vector type name (vector_dtype's
 * float4, __half2, ...), or 0. */
static int
type_size(const char *name)
{
	const struct k_dtype *dt;
	int lanes;

	if ((dt = k_dtype_c(name)) != NULL)
		return dt->size;
	if ((dt = vector_dtype(name, &lanes)) != NULL)
		return dt->size * lanes;
	return 0;
}

/* Elements of the buffer one pointee of type [a, b) spans, for a buffer
 * of esz-byte elements; 0 when it does not span whole elements.  A type
 * named through aliases (using IOType = typename Traits::Type) is
 * followed to what it stands for (resolve_type). */
static long long
cast_lanes(struct kern *k, const struct toks *t, size_t a, size_t b, int esz)
{
	json_t *inst = json_object_get(json_object_get(k->rec, "slice"),
	    "instance");
	char name[128] = "", to[128];
	size_t j;
	int size;

	for (j = a; j < b; j++) {
		const char *s = t->v[j];
		json_t *bnd;
		if (!is_ident(s) || strcmp(s, "const") == 0 ||
		    strcmp(s, "volatile") == 0 || strcmp(s, "__restrict__") == 0)
			continue;
		bnd = json_object_get(inst, s);
		append_word(name, sizeof(name), json_is_string(bnd) ?
		    json_string_value(bnd) : s);
	}
	if ((size = type_size(name)) == 0 && name[0] != '\0' &&
	    resolve_type(k, name, to, sizeof(to), 0))
		size = type_size(to);
	if (size == 0 || esz <= 0 || size % esz != 0)
		return 0;
	return size / esz;
}

static void buf_walk(struct fn *f, const char *name, size_t def,
    const struct iv *off, long long lanes, int esz, struct acc *a, int hd);

/* A vector access of lanes elements needs an offset that is a multiple
 * of lanes: a scalar that a side of the offset holds alone with a
 * coefficient that is not one (p + idx * K + c with idx in 0..3, rows *
 * K through (n - 1) * K) is a stride of it, and takes a multiple of lanes
 * in every case (least_values), so that the reference's own loads are
 * aligned. */
static void
vector_strides(struct kern *k, const struct iv *off, long long lanes)
{
	const struct poly *side[2] = { &off->lo, &off->hi };
	int s, j, pi;

	if (lanes < 2 || lanes > 16 || (lanes & (lanes - 1)) != 0)
		return;
	for (s = 0; s < 2; s++) {
		if (side[s]->inf)
			continue;
		for (j = 0; j < side[s]->n; j++) {
			const struct term *u = &side[s]->t[j];
			if (u->na != 1 || u->c % lanes == 0)
				continue;
			pi = param_index(k, k->at->a[u->a[0]].text);
			if (pi < 0 || k->p[pi].ptr || k->p[pi].is_struct ||
			    k->p[pi].dt == NULL || k->p[pi].dt->is_float ||
			    strcmp(k->p[pi].dt->name, "bool") == 0)
				continue;
			if (k->p[pi].align < lanes)
				k->p[pi].align = (int)lanes;
		}
	}
}

/* An access of lanes elements from off. */
static void
access_at(struct fn *f, struct acc *a, const struct iv *off, long long lanes,
    size_t pos)
{
	struct iv r = *off, w;

	vector_strides(f->k, off, lanes);
	p_const(&w.lo, 0);
	p_const(&w.hi, lanes - 1);
	iv_add(&r, &r, &w, 1);
	acc_add(f, a, &r, pos);
}

/* The text of tokens [a, b) of t without spaces, the kernel's template
 * names bound to the instance (input_t is c10::Half) when bind; -1 when
 * it is one name kwrap cannot bind, a parameter of a helper's own. */
static int
targ_text(struct kern *k, const struct toks *t, size_t a, size_t b,
    int bind, char *out, size_t cap)
{
	json_t *inst = json_object_get(json_object_get(k->rec, "slice"),
	    "instance"), *v;
	size_t j, l;

	*out = '\0';
	for (j = a; j < b; j++) {
		const char *s = t->v[j];
		if (bind && is_ident(s) && json_is_string(v =
		    json_object_get(inst, s)))
			s = json_string_value(v);
		else if (b == a + 1 && is_ident(s) && k_dtype_c(s) == NULL &&
		    !is(t, a - 1, "::"))
			return -1;
		l = strlen(out);
		bprintf(out + l, cap - l, "%s", s);
	}
	return 0;
}

/* Whether argument [ca, cb) of f's call and argument [xa, xb) of an
 * explicit specialization in the slice agree: the same integer, else the
 * same type; an argument kwrap cannot bind agrees with any. */
static int
targ_agrees(struct fn *f, size_t ca, size_t cb, size_t xa, size_t xb)
{
	struct kern *k = f->k;
	char a[256], b[256];
	struct iv v;
	long long c1, c2, x;

	eval_at(f, ca, cb, &v);
	if (p_isconst(&v.lo, &c1) && p_isconst(&v.hi, &c2) && c1 == c2)
		return eval_range(&k->all, xa, xb, &k->c, &x) && x == c1;
	if (targ_text(k, f->t, ca, cb, f->kernel, a, sizeof(a)) < 0)
		return 1;
	targ_text(k, &k->all, xa, xb, 0, b, sizeof(b));
	return strcmp(a, b) == 0;
}

/* Whether helper h is the one the call's template arguments [ca, cb)
 * name: 1 an explicit specialization whose arguments all agree, 2 the
 * primary template (its value parameters bound in h->tc from the call),
 * 0 neither. */
static int
helper_kind(struct fn *f, struct fn *h, size_t ca, size_t cb)
{
	const struct toks *t = f->t, *ht = h->t;
	size_t ce[16], xe[16], cs, xs;
	int nc, nx, i, mixed;

	if (h->sb <= h->sa) {
		size_t te[16], ts, j, last;
		int nt;
		if (h->tb <= h->ta || cb <= ca)
			return 2;
		nt = split_top(ht, h->ta, h->tb, ",", te, 16, &mixed);
		nc = split_top(t, ca, cb, ",", ce, 16, &mixed);
		for (i = 0, ts = h->ta, cs = ca; i < nt && i < nc;
		    ts = te[i] + 1, cs = ce[i] + 1, i++) {
			struct iv v;
			long long c1, c2;
			if (is(ht, ts, "typename") || is(ht, ts, "class"))
				continue;
			for (j = last = ts; j < te[i] && !is(ht, j, "="); j++)
				if (is_ident(ht->v[j]))
					last = j;
			eval_at(f, cs, ce[i], &v);
			if (is_ident(ht->v[last]) && p_isconst(&v.lo, &c1) &&
			    p_isconst(&v.hi, &c2) && c1 == c2)
				const_set(&h->tc, ht->v[last], c1);
		}
		return 2;
	}
	if (cb <= ca)
		return 0;
	nc = split_top(t, ca, cb, ",", ce, 16, &mixed);
	nx = split_top(ht, h->sa, h->sb, ",", xe, 16, &mixed);
	if (nc != nx)
		return 0;
	for (i = 0, cs = ca, xs = h->sa; i < nc; cs = ce[i] + 1,
	    xs = xe[i] + 1, i++)
		if (!targ_agrees(f, cs, ce[i], xs, xe[i]))
			return 0;
	return 1;
}

/* Elements of an esz-byte buffer an asynchronous or plain copy moves
 * from or to argument argi of the call at open (memcpy_async(dst, src,
 * sizeof(float4), bar), cg's memcpy_async(group, dst, src, bytes),
 * __pipeline_memcpy_async(dst, src, bytes)): its size is the argument
 * one or two after the pointer, sizeof(T) or a constant number of
 * bytes; 0 when none is. */
static long long
copy_lanes(struct fn *f, size_t open, int argi, int esz)
{
	const struct toks *t = f->t;
	size_t *ends, a, e;
	long long bytes = 0, l = 0;
	int n, j;

	if (esz <= 0)
		return 0;
	ends = args_of(f, open, &n);
	for (j = argi + 1; j <= argi + 2 && j < n && l == 0; j++) {
		a = ends[j - 1] + 1;
		e = ends[j];
		if (is(t, a, "sizeof") && is(t, a + 1, "(") &&
		    skip_group(t, a + 1) == e)
			l = cast_lanes(f->k, t, a + 2, e - 1, esz);
		else if (eval_range(t, a, e, &f->k->c, &bytes) && bytes > 0 &&
		    bytes % esz == 0)
			l = bytes / esz;
	}
	free(ends);
	return l;
}

/* The buffer handed to argument argi of the call whose ( is at open:
 * accessed where the helper accesses its parameter, from off.  The
 * helper is the explicit specialization the call's template arguments
 * name (copy<float, 4>(d, s + i) with a copy<float, 4> of its own), else
 * the primary template with its value parameters bound, or the
 * overloads whose pointer there is of the buffer's element size, else
 * every definition of the name and arity: the largest access. */
static void
pass_to(struct fn *f, size_t open, int argi, const struct iv *off,
    long long lanes, int esz, struct acc *a, int hd)
{
	static const char *const loads[] = { "__ldg", "__ldcg", "__ldca",
	    "__ldcs", "__ldlu", "__ldcv", "__stcg", "__stcs", "__stwb",
	    "__stwt", NULL };
	const struct toks *t = f->t;
	const char *name;
	struct fn *h;
	size_t *ends, ca, cb, from;
	int n, i, kind, want, walked = 0;

	name = call_name_args(t, open, &ca, &cb);
	if (name == NULL)
		name = "";
	for (i = 0; loads[i] != NULL; i++)
		if (strcmp(name, loads[i]) == 0)
			break;
	if (loads[i] != NULL || strncmp(name, "atomic", 6) == 0) {
		access_at(f, a, off, lanes, open);
		return;
	}
	if (strcmp(name, "memcpy_async") == 0 ||
	    strcmp(name, "__pipeline_memcpy_async") == 0 ||
	    strcmp(name, "memcpy") == 0) {
		long long l = copy_lanes(f, open, argi, esz);
		if (l > 0)
			access_at(f, a, off, l, open);
		else
			acc_unknown(a, f, open);
		return;
	}
	ends = args_of(f, open, &n);
	if (hd >= MAX_HELPER || !is_ident(name)) {
		acc_unknown(a, f, open);
		free(ends);
		return;
	}
	for (want = 1; want <= 3 && !walked; want++) {
		from = 1;
		while ((h = next_helper(f->k, name, n, &from, 1)) != NULL) {
			kind = helper_kind(f, h, ca, cb);
			/* an overload for another element type (gpuAtomicAdd
			 * of a double * for a float buffer) is not called */
			if (kind == 2 && argi < h->np && h->psz[argi] > 0 &&
			    h->psz[argi] != esz)
				kind = 0;
			if (want < 3 && kind != want) {
				fn_free(h);
				continue;
			}
			helper_bind(f, h, open, ends, n);
			if (argi < h->np && h->pptr[argi])
				buf_walk(h, h->pn[argi], (size_t)-1, off, lanes,
				    esz, a, hd + 1);
			else
				acc_unknown(a, f, open);
			fn_free(h);
			walked++;
			if (want == 1)
				break;	/* the one the call names */
		}
	}
	if (!walked)
		acc_unknown(a, f, open);
	free(ends);
}

/* Whether a C cast to a type of whole elements ends just before token
 * i: (const float4 *)&p[j] takes the address, it does not mask.  A type
 * kwrap cannot size is left as the access p[j]. */
static int
cast_before(struct fn *f, size_t i, int esz)
{
	const struct toks *t = f->t;
	size_t j;
	int depth = 0;

	if (i < 2 || !is(t, i - 1, ")"))
		return 0;
	for (j = i - 1; j > 0; j--) {
		if (is(t, j, ")"))
			depth++;
		else if (is(t, j, "(") && --depth == 0)
			break;
	}
	return depth == 0 && is_cast(f, j, i - 1) &&
	    cast_lanes(f->k, t, j + 1, i - 1, esz) > 0;
}

/* Whether the name at token i is a pointer's declarator: T *name, T
 * *const name, T *__restrict__ name, auto name (lo: the first token
 * this may look at). */
static int
ptr_declarator(const struct toks *t, size_t lo, size_t i)
{
	size_t j = i;

	while (j > lo + 1 && (is(t, j - 1, "const") || is(t, j - 1,
	    "volatile") || is(t, j - 1, "__restrict__") || is(t, j - 1,
	    "__restrict") || is(t, j - 1, "restrict")))
		j--;
	if (j <= lo)
		return 0;
	if (is(t, j - 1, "*"))
		return 1;
	return j == i && is(t, j - 1, "auto");
}

/* Whether name is declared a pointer in f before token pos: T *name;,
 * T *a, *name;, T *const name = ... */
static int
ptr_local(struct fn *f, const char *name, size_t pos)
{
	const struct toks *t = f->t;
	size_t i;

	for (i = f->a + 1; i < pos; i++)
		if (is(t, i, name) && ptr_declarator(t, f->a, i) &&
		    !is(t, i - 1, "auto") && (is(t, i + 1, ";") ||
		    is(t, i + 1, ",") || is(t, i + 1, "=")))
			return 1;
	return 0;
}

/* One use of the buffer's pointer at token i. */
static void
ptr_use(struct fn *f, size_t i, const struct iv *base, long long lanes,
    int esz, struct acc *a, int hd)
{
	const struct toks *t = f->t;
	struct atoms *at = f->k->at;
	static const char *const addstop[] = { "+", "-", ",", ";", ")", "]",
	    "?", ":", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "=", "+=",
	    "-=", NULL };
	struct iv off = *base, idx, sc;
	size_t s = i, e = i + 1, c;

	if (s > 0 && is(t, s - 1, "&") && (unary_at(t, s - 1) ||
	    cast_before(f, s - 1, esz)) && is(t, e, "[")) {
		c = skip_group(t, e) - 1;
		eval_at(f, e + 1, c, &idx);
		iv_const(&sc, lanes);
		iv_mul(at, &idx, &idx, &sc);
		iv_add(&off, &off, &idx, 1);
		s--;
		e = c + 1;
	} else if (s > 1 && is(t, s - 1, "(") && is(t, s - 2, "&") &&
	    unary_at(t, s - 2) && is(t, e, "[") &&
	    is(t, (c = skip_group(t, e)), ")")) {
		/* &(p[j]): the address, as &p[j] (handed to a call, what
		 * the callee reaches from it) */
		eval_at(f, e + 1, c - 1, &idx);
		iv_const(&sc, lanes);
		iv_mul(at, &idx, &idx, &sc);
		iv_add(&off, &off, &idx, 1);
		s -= 2;
		e = c + 1;
	}
	for (;;) {
		while (is(t, e, "+") || is(t, e, "-")) {
			int sign = is(t, e, "+") ? 1 : -1;
			size_t q = expr_end(t, e + 1, addstop);
			eval_at(f, e + 1, q, &idx);
			iv_const(&sc, lanes);
			iv_mul(at, &idx, &idx, &sc);
			iv_add(&off, &off, &idx, sign);
			e = q;
		}
		if (is(t, e, "[")) {
			c = skip_group(t, e) - 1;
			eval_at(f, e + 1, c, &idx);
			iv_const(&sc, lanes);
			iv_mul(at, &idx, &idx, &sc);
			iv_add(&off, &off, &idx, 1);
			access_at(f, a, &off, lanes, i);
			return;
		}
		if (s >= 2 && is(t, s - 1, "(") && is(t, e, ")")) {
			const char *fn = t->v[s - 2];
			if (is(t, s - 2, ">")) {
				/* reinterpret_cast<T *>(p) */
				size_t j = s - 2;
				while (j > 0 && !is(t, j, "<"))
					j--;
				if (j > 0 && is_ident(t->v[j - 1]) &&
				    strstr(t->v[j - 1], "_cast") == NULL &&
				    call_name(t, s - 1) != NULL) {
					/* f<T, 4>(p) */
					pass_to(f, s - 1, 0, &off, lanes, esz,
					    a, hd);
					return;
				}
				if (j == 0 || !is_ident(t->v[j - 1]) ||
				    strstr(t->v[j - 1], "_cast") == NULL)
					break;
				lanes = cast_lanes(f->k, t, j + 1, s - 2, esz);
				if (lanes == 0)
					break;
				s = j - 1;
				e++;
				continue;
			}
			if (is_ident(fn) && !is_keyword(fn)) {
				pass_to(f, s - 1, 0, &off, lanes, esz, a, hd);
				return;
			}
			if (is(t, s - 2, "if") || is(t, s - 2, "while"))
				return;
			if (t->v[s - 2][0] == '"') {
				/* an operand of inline PTX, "l"(p + j): the
				 * bytes its instruction moves from there */
				int rd = 0, wr = 0, bytes = 0;
				if (esz > 0 && asm_operand(t, f->a, i, &rd, &wr,
				    &bytes) && bytes > 0) {
					access_at(f, a, &off,
					    (bytes + esz - 1) / esz, i);
					return;
				}
				break;
			}
			s--;
			e++;
			continue;
		}
		if (s >= 2 && is(t, s - 1, ")")) {
			/* (T *)p */
			size_t j = s - 1;
			int depth = 0, star = 0;
			while (j > 0) {
				if (is(t, j, ")"))
					depth++;
				else if (is(t, j, "(") && --depth == 0)
					break;
				star |= is(t, j, "*");
				j--;
			}
			if (!star || !is_cast(f, j, s - 1) ||
			    (lanes = cast_lanes(f->k, t, j + 1, s - 1, esz)) == 0)
				break;
			s = j;
			continue;
		}
		if ((is(t, s - 1, "(") || is(t, s - 1, ",")) &&
		    (is(t, e, ",") || is(t, e, ")"))) {
			int argi;
			size_t j = call_open(t, f->a, s, &argi);
			if (j > 0) {
				pass_to(f, j, argi, &off, lanes, esz, a, hd);
				return;
			}
			break;
		}
		if ((is(t, s - 1, "*") && unary_at(t, s - 1)) ||
		    (s == i && is(t, e, "->"))) {
			/* *p, and p->x (&p->x to an atomic): element 0 */
			access_at(f, a, &off, lanes, i);
			return;
		}
		if (is(t, s - 1, "=") && s >= 3 && is_ident(t->v[s - 2]) &&
		    ptr_declarator(t, f->a, s - 2) &&
		    (is(t, e, ";") || is(t, e, ","))) {
			/* T *q = p + off, T *const q = ...: q is the buffer
			 * from off */
			buf_walk(f, t->v[s - 2], s - 2, &off, lanes, esz, a, hd);
			return;
		}
		if (s == i && is(t, s - 1, "*") && !unary_at(t, s - 1) &&
		    (is(t, e, ";") || is(t, e, ",")) && e == i + 1)
			return;		/* T *q; declares q */
		if (is(t, s - 1, "=") && s >= 3 && is_ident(t->v[s - 2]) &&
		    (is(t, s - 3, ";") || is(t, s - 3, "{") ||
		    is(t, s - 3, "}") || is(t, s - 3, ")") ||
		    is(t, s - 3, "else")) &&
		    (is(t, e, ";") || is(t, e, ",")) &&
		    ptr_local(f, t->v[s - 2], s - 2)) {
			/* T *q; ... q = p + off: q is the buffer from off */
			buf_walk(f, t->v[s - 2], s - 2, &off, lanes, esz, a, hd);
			return;
		}
		if (is(t, e, "==") || is(t, e, "!=") || is(t, s - 1, "==") ||
		    is(t, s - 1, "!=") || is(t, s - 1, "!"))
			return;
		break;
	}
	acc_unknown(a, f, i);
}

/* Whether pos is in a loop that may run more than once per thread. */
static int
in_loop(const struct fn *f, size_t pos)
{
	int i;

	for (i = 0; i < f->nl; i++)
		if (pos >= f->l[i].s && pos < f->l[i].e && !f->l[i].once)
			return 1;
	return 0;
}

/* Every access of the buffer that name points to in f, from off. */
static void
buf_walk(struct fn *f, const char *name, size_t def, const struct iv *off,
    long long lanes, int esz, struct acc *a, int hd)
{
	const struct toks *t = f->t;
	struct atoms *at = f->k->at;
	struct iv tot = *off, v, sc;
	struct poly z;
	size_t i;
	int j, x, d0;

	if (f->k->depth > MAX_DEPTH) {
		a->unknown = 1;
		return;
	}
	f->k->depth++;
	/* a local's namesake declared in another scope is another
	 * variable: two loops each with their own int *q = p + ... */
	d0 = def != (size_t)-1 ? decl_of(f, name, def) : -1;
	/* p += off moves the buffer: every later access may be after it */
	p_const(&z, 0);
	for (j = 0; j < f->nas; j++) {
		struct asg *as = &f->as[j];
		if (strcmp(as->name, name) != 0 || as->pos == def ||
		    fn_dead(f, as->pos) || (d0 >= 0 && as->d != d0))
			continue;
		/* if (c) q = p + x; else q = p + y;: walked from one, the
		 * other never ran */
		if (as->kind == A_EQ && !is(t, as->a, name) &&
		    fn_exclusive(f, def, as->pos))
			continue;
		if (as->kind == A_EQ && as->b > as->a + 2 &&
		    is(t, as->a, name) && is(t, as->a + 1, "+"))
			eval_at(f, as->a + 2, as->b, &v);
		else if (as->kind == A_INC && as->b > as->a)
			eval_at(f, as->a, as->b, &v);
		else if (as->kind == A_INC)
			iv_const(&v, 1);
		else {
			iv_top(&v);
			acc_unknown(a, f, as->pos);
		}
		if (in_loop(f, as->pos)) {
			/* p += step in a loop of bounded trips */
			struct iv times;
			if (as->kind == A_INC && step_times(f, name, as->pos,
			    def, &times.hi)) {
				p_const(&times.lo, 0);
				iv_mul(at, &v, &v, &times);
			} else
				acc_unknown(a, f, as->pos);
		}
		p_min(at, &v.lo, &v.lo, &z);
		p_max(at, &v.hi, &v.hi, &z);
		iv_const(&sc, lanes);
		iv_mul(at, &v, &v, &sc);
		iv_add(&tot, &tot, &v, 1);
	}
	for (i = f->a; i < f->b; i++) {
		int self = 0;
		if (!is(t, i, name) || is(t, i - 1, ".") || is(t, i - 1, "->") ||
		    is(t, i - 1, "::") || (is(t, i + 1, "[") && is(t, i + 2, "]")) ||
		    fn_dead(f, i) || (d0 >= 0 && decl_of(f, name, i) != d0))
			continue;
		for (x = 0; x < f->nas; x++)
			if (strcmp(f->as[x].name, name) == 0 &&
			    (f->as[x].pos == i || (f->as[x].kind == A_EQ &&
			    i == f->as[x].a)))
				self = 1;
		if (!self)
			ptr_use(f, i, &tot, lanes, esz, a, hd);
	}
	f->k->depth--;
}

/* The count of buffer pi from its accesses: 2 when every access is
 * bounded (out), 1 when only some are, 0 when none. */
static int
bound_count(struct kern *k, const char *name, size_t def, int esz, char *out,
    size_t cap, char *why, size_t wcap)
{
	struct acc a;
	struct iv z;

	memset(&a, 0, sizeof(a));
	iv_const(&z, 0);
	*why = '\0';
	if (k->kf == NULL)
		return 0;
	buf_walk(k->kf, name, def, &z, 1, esz, &a, 0);
	if (!a.any && !a.unknown)
		return 0;
	if (a.any)
		p_print(k->at, &a.n, out, cap);
	else
		copy(out, cap, "inf");
	if (strlen(out) + 1 >= cap)
		return 0;
	if (a.unknown) {
		char ctx[96];
		size_t s = a.at, e = a.at;
		const struct toks *t = a.t != NULL ? a.t : &k->t;
		while (s > 0 && s + 4 > a.at && !is(t, s - 1, ";") &&
		    !is(t, s - 1, "{") && !is(t, s - 1, "}"))
			s--;
		while (e < t->n && e < a.at + 8 && !is(t, e, ";"))
			e++;
		if (a.at < t->n) {
			quote(t, s, e, ctx, sizeof(ctx));
			snprintf(why, wcap, "no bound for the access in \"%s\"",
			    ctx);
		} else
			snprintf(why, wcap, "an access without a bound");
		return 1;
	}
	if (a.below) {
		k->below++;
		snprintf(why, wcap, "an access may fall below element 0");
		return 1;
	}
	return 2;
}

/* Buffer pi's count, the one engine of element counts: derived from the
 * bounds of every access where they all have one; else a guess, the
 * largest of the accesses that have one, or the index range, or 2^20. */
void
count_of(struct kern *k, int pi, const char *domain)
{
	struct param *p = &k->p[pi];
	char cnt[MAX_EXPR], why[256], pc[MAX_EXPR];
	int r, lanes = p->lanes > 1 ? p->lanes : 1;

	r = bound_count(k, p->name, (size_t)-1, p->dt != NULL ?
	    p->dt->size * lanes : 1, cnt, sizeof(cnt), why, sizeof(why));
	if (r == 2 && p->dt == NULL) {
		/* elements of a size kwrap does not know: bytes would be short */
		copy(p->count, sizeof(p->count), cnt);
		p->count_state = 1;
		guess(k, "%s: count %s in elements of unknown size", p->name, cnt);
	} else if (r == 2) {
		copy(p->count, sizeof(p->count), cnt);
		p->count_state = 2;
	} else if (r == 1 && strcmp(cnt, "inf") != 0) {
		/* the largest of the accesses that have a bound */
		copy(p->count, sizeof(p->count), cnt);
		p->count_state = 1;
		guess(k, "%s: count %s: %s", p->name, p->count, why[0] != '\0' ?
		    why : "an access without a bound");
	} else if (domain != NULL) {
		copy(p->count, sizeof(p->count), domain);
		p->count_state = 1;
		guess(k, "%s: count taken to be the index range %s", p->name,
		    domain);
	} else {
		copy(p->count, sizeof(p->count), "1048576");
		p->count_state = 1;
		guess(k, "%s: count unknown, 1048576 assumed", p->name);
	}
	if (lanes > 1) {
		/* float2 *p: p[i] is two floats, the buffer's elements */
		paren(p->count, pc, sizeof(pc));
		bprintf(p->count, sizeof(p->count), "%d * %s", lanes, pc);
	}
	mark_size_str(k, p->count);
}

/* Dynamic shared memory that the launch site does not give: the bytes
 * the kernel's accesses of its extern __shared__ array reach. */
void
shared_of(struct kern *k)
{
	const struct toks *t = &k->t;
	char cnt[MAX_EXPR], why[256], name[64];
	const struct k_dtype *dt = NULL;
	size_t i, j, def = (size_t)-1;
	int r;

	if (k->shared_state == 2)
		goto out;
	for (i = 0; i + 3 < t->n; i++)
		if (is(t, i, "extern") && is(t, i + 1, "__shared__"))
			break;
	for (j = i + 2; j < t->n && !is(t, j, ";") && !is(t, j, "["); j++)
		if (k_dtype_c(t->v[j]) != NULL)
			dt = k_dtype_c(t->v[j]);
	if (i + 3 >= t->n && (dt = shared_local(k, name, sizeof(name),
	    &def)) != NULL)
		;	/* T *s = SharedMemory<T>(): s is the array */
	else if (j >= t->n || !is(t, j, "[") || !is_ident(t->v[j - 1]) ||
	    dt == NULL)
		goto out;
	else
		copy(name, sizeof(name), t->v[j - 1]);
	r = bound_count(k, name, def, dt->size, cnt, sizeof(cnt), why,
	    sizeof(why));
	if (r == 2) {
		char pc[MAX_EXPR];
		long long v;
		paren(cnt, pc, sizeof(pc));
		if (eval_str(cnt, &k->c, &v))
			snprintf(k->shared, sizeof(k->shared), "%lld",
			    v * dt->size);
		else
			bprintf(k->shared, sizeof(k->shared), "%s * %d", pc,
			    dt->size);
		mark_size_str(k, cnt);
		k->shared_state = 2;
		return;
	}
out:
	if (k->shared_state < 2)
		guess(k, "%s", k->shared_guess);
}

/* Whether token i of t ends an operand on its right (v < n) or starts
 * one on its left (n > v). */
static int
operand_edge(const struct toks *t, size_t i)
{
	static const char *const e[] = { "(", ")", "||", "&&", ";", ",", "!",
	    "?", ":", NULL };
	int j;

	for (j = 0; e[j] != NULL; j++)
		if (is(t, i, e[j]))
			return 1;
	return 0;
}

/*
 * Scalars that an index read from a buffer is compared with: int kn =
 * idx[i]; if (kn >= n0) return; or assert(kn < n0).  The buffer holds
 * data_lo..data_lo + DATA_HI in every case, so such a scalar is at least
 * one more in every case: a guard then skips nothing and an assert never
 * fires on the values the harness draws.
 */
void
index_limits(struct kern *k)
{
	struct fn *f = k->kf;
	const struct toks *t;
	size_t x, y;
	int j, pi, hit;

	if (f == NULL)
		return;
	t = f->t;
	for (j = 0; j < f->nas; j++) {
		struct asg *as = &f->as[j];
		if (as->kind != A_EQ)
			continue;
		for (hit = 0, x = as->a; x < as->b && !hit; x++)
			hit = (pi = fn_param(f, t->v[x])) >= 0 && k->p[pi].vals;
		if (!hit)
			continue;
		for (x = f->a + 1; x + 3 < f->b; x++) {
			const char *op = t->v[x + 1];
			int lt = strcmp(op, "<") == 0 || strcmp(op, "<=") == 0 ||
			    strcmp(op, ">=") == 0 || strcmp(op, ">") == 0;
			if (!lt)
				continue;
			pi = -1;
			if (is(t, x, as->name) && operand_edge(t, x - 1) &&
			    operand_edge(t, x + 3))
				pi = fn_param(f, t->v[x + 2]);
			else if (is(t, x + 2, as->name) &&
			    operand_edge(t, x - 1) && operand_edge(t, x + 3))
				pi = fn_param(f, t->v[x]);
			if (pi < 0 || k->p[pi].ptr || k->p[pi].dt == NULL ||
			    k->p[pi].dt->is_float)
				continue;
			y = (size_t)(k->data_lo + DATA_HI + 1);
			if (k->p[pi].vmin < (long long)y)
				k->p[pi].vmin = (long long)y;
		}
	}
}
