/*
 * kwrap: the kernel model: parameters, variables and their kinds, the
 * text analysed, reads and writes, roles.
 */
#include "kwrap.h"

void
guess(struct kern *k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	json_array_append_new(k->guesses, json_vsprintf(fmt, ap));
	va_end(ap);
}

void
guess_drop(struct kern *k, const char *text)
{
	size_t g;

	for (g = json_array_size(k->guesses); g-- > 0; ) {
		const char *s = json_string_value(json_array_get(k->guesses,
		    g));
		if (s != NULL && strcmp(s, text) == 0)
			json_array_remove(k->guesses, g);
	}
}

int
param_index(const struct kern *k, const char *name)
{
	int i;

	for (i = 0; i < k->np; i++)
		if (strcmp(k->p[i].name, name) == 0)
			return i;
	return -1;
}

struct var *
var_get(struct kern *k, const char *name)
{
	int i;

	for (i = 0; i < k->nv; i++)
		if (strcmp(k->v[i].name, name) == 0)
			return &k->v[i];
	return NULL;
}

void
paren(const char *s, char *out, size_t cap)
{
	int simple = 1;
	const char *p;

	for (p = s; *p != '\0'; p++)
		if (*p == ' ' && (p[1] == '+' || p[1] == '-' || p[1] == '?' ||
		    p[1] == '<' || p[1] == '>' || p[1] == '&' || p[1] == '|'))
			simple = 0;
	if (simple)
		copy(out, cap, s);
	else
		bprintf(out, cap, "(%s)", s);
}

/* Mark scalar params (and struct fields) named in tokens [a, b) as sizes. */
void
mark_size_use(struct kern *k, const struct toks *t, size_t a, size_t b)
{
	size_t i;
	int j, f;

	for (i = a; i < b; i++) {
		if (!is_ident(t->v[i]) || (i > a && is(t, i - 1, ".")))
			continue;
		if ((j = param_index(k, t->v[i])) < 0 || k->p[j].ptr)
			continue;
		if (k->p[j].is_struct && is(t, i + 1, ".") && i + 2 < b) {
			for (f = 0; f < k->p[j].nf; f++)
				if (strcmp(k->p[j].f[f].name, t->v[i + 2]) == 0)
					k->p[j].f[f].size_use = 1;
		} else
			k->p[j].size_use = 1;
	}
}

void mark_size_str(struct kern *k, const char *s)
{
	struct toks t = { 0 };

	tokenize(s, &t);
	mark_size_use(k, &t, 0, t.n);
	toks_free(&t);
}

/* Tokens [a, b) as an expression over scalar parameters, fields of struct
 * parameters and constants (replaced by their values); casts dropped.
 * blockDim.x and gridDim.x become the launch's values when known.
 * 0 when something else is named. */
int
param_expr(struct kern *k, const struct toks *t, size_t a, size_t b,
    char *out, size_t cap)
{
	static int depth;
	struct k_buf sb = { 0 };
	struct var *w;
	size_t i;
	long long v;
	int ok = 1, j;
	char tmp[160];

	if (a >= b)
		return 0;
	for (i = a; i < b && ok; i++) {
		const char *s = t->v[i];
		const char *prev = i > a ? t->v[i - 1] : "";
		if (strcmp(s, "(") == 0 && i + 2 < b && is_ident(t->v[i + 1]) &&
		    k_dtype_c(t->v[i + 1]) != NULL && is(t, i + 2, ")")) {
			i += 2;
			continue;
		}
		if (strcmp(s, "(") == 0 && i + 3 < b &&
		    k_dtype_c(t->v[i + 1]) != NULL &&
		    k_dtype_c(t->v[i + 2]) != NULL && is(t, i + 3, ")")) {
			i += 3;
			continue;
		}
		if (sb.n && strcmp(s, ")") != 0 && strcmp(prev, "(") != 0)
			k_buf_add(&sb, " ");
		if (isdigit((unsigned char)*s)) {
			k_buf_add(&sb, s);
		} else if (strchr("+-*/%()", *s) != NULL && s[1] == '\0') {
			k_buf_add(&sb, s);
		} else if (strcmp(s, "sizeof") == 0 && is(t, i + 1, "(") &&
		    i + 3 < b && is(t, i + 3, ")") &&
		    k_dtype_c(t->v[i + 2]) != NULL) {
			k_buf_printf(&sb, "%d", k_dtype_c(t->v[i + 2])->size);
			i += 3;
		} else if ((strcmp(s, "blockDim") == 0 ||
		    strcmp(s, "gridDim") == 0) && is(t, i + 1, ".") && i + 2 < b) {
			int d = t->v[i + 2][0] - 'x';
			if (d < 0 || d > 2)
				ok = 0;
			else if (*s == 'b' && k->block[d] > 0)
				k_buf_printf(&sb, "%lld", k->block[d]);
			else if (*s == 'g' && k->grid[d][0] != '\0') {
				char pg[MAX_EXPR];
				paren(k->grid[d], pg, sizeof(pg));
				k_buf_add(&sb, pg);
			} else
				ok = 0;
			i += 2;
		} else if (is_ident(s) && (j = param_index(k, s)) >= 0 &&
		    !k->p[j].ptr) {
			if (k->p[j].is_struct) {
				if (!is(t, i + 1, ".") || i + 2 >= b)
					ok = 0;
				else {
					bprintf(tmp, sizeof(tmp), "%s.%s", s,
					    t->v[i + 2]);
					k_buf_add(&sb, tmp);
					i += 2;
				}
			} else
				k_buf_add(&sb, s);
		} else if (is_ident(s) && const_get(&k->c, s, &v)) {
			k_buf_printf(&sb, "%lld", v);
		} else if (is_ident(s) && (w = var_get(k, s)) != NULL &&
		    w->kind == V_LOCAL && w->alias < 0 && depth < 4) {
			char sub[MAX_EXPR], ps[MAX_EXPR];
			depth++;
			ok = param_expr(k, &k->t, w->a, w->b, sub, sizeof(sub));
			depth--;
			if (ok) {
				paren(sub, ps, sizeof(ps));
				k_buf_add(&sb, ps);
			}
		} else
			ok = 0;
	}
	if (ok)
		copy(out, cap, k_buf_str(&sb));
	k_buf_free(&sb);
	return ok;
}

int
dim_of(const struct toks *t, size_t i)
{
	if (i + 2 < t->n && is(t, i + 1, ".") && t->v[i + 2][1] == '\0' &&
	    strchr("xyz", t->v[i + 2][0]) != NULL)
		return t->v[i + 2][0] - 'x';
	return -1;
}

/*
 * The pointer an initializer [q, e) points into, past one cast: q = p +
 * off, q = reinterpret_cast<T *>(p) + off, q = (T *)p (its token; q when
 * there is no cast to pass).
 */
static size_t
alias_base(const struct toks *t, size_t q, size_t e)
{
	if (q + 1 < e && strstr(t->v[q], "_cast") != NULL &&
	    is(t, q + 1, "<")) {
		for (q += 2; q < e && !is(t, q, ">"); q++)
			;
		if (is(t, q + 1, "(") && is(t, q + 3, ")") &&
		    (q + 4 == e || is(t, q + 4, "+")))
			q += 2;
	} else if (is(t, q, "(") && q + 3 < e) {
		size_t c = skip_group(t, q) - 1;
		if (c + 1 < e && is(t, c - 1, "*") &&
		    (c + 2 == e || is(t, c + 2, "+")))
			q = c + 1;
	}
	return q;
}

/* Variables, their kinds (global, block or thread index) and aliases. */
void
find_vars(struct kern *k)
{
	struct toks *t = &k->t;
	static const char *const stop[] = { ";", ",", NULL };
	size_t i, j, e;
	int bi, ti, dim, pi;

	for (i = 1; i + 1 < t->n; i++) {
		int loop;
		if (!is_ident(t->v[i]) || !is(t, i + 1, "=") ||
		    is(t, i - 1, ".") || is(t, i - 1, "->") ||
		    param_index(k, t->v[i]) >= 0 || var_get(k, t->v[i]) != NULL)
			continue;
		loop = 0;
		if (is(t, i - 1, "(") && i >= 2 &&
		    (is(t, i - 2, "CUDA_1D_KERNEL_LOOP") ||
		    is(t, i - 2, "CUDA_KERNEL_LOOP")))
			loop = 1;
		e = expr_end(t, i + 2, stop);
		k->v = grow(k->v, &k->cv, k->nv, sizeof(*k->v));
		struct var *v = &k->v[k->nv++];
		memset(v, 0, sizeof(*v));
		copy(v->name, sizeof(v->name), t->v[i]);
		v->a = i + 2;
		v->b = e;
		v->alias = -1;
		v->kind = V_LOCAL;
		bi = ti = -1;
		dim = 0;
		for (j = i + 2; j < e; j++) {
			if (is(t, j, "blockIdx") && (dim = dim_of(t, j)) >= 0)
				bi = dim;
			if (is(t, j, "threadIdx") && (dim = dim_of(t, j)) >= 0)
				ti = dim;
			if (is_ident(t->v[j]) && !is(t, j - 1, ".")) {
				struct var *w = var_get(k, t->v[j]);
				if (w != NULL && w != v && (w->kind == V_THREAD ||
				    w->kind == V_GLOBAL))
					ti = w->dim;
				if (w != NULL && w != v && (w->kind == V_BLOCK ||
				    w->kind == V_GLOBAL))
					bi = w->kind == V_GLOBAL ? w->bdim : w->dim;
			}
		}
		if (bi >= 0 && ti >= 0) {
			/* row = blockIdx.x * blockDim.y + threadIdx.y: thread
			 * dimension y, block dimension x */
			v->kind = V_GLOBAL;
			v->dim = ti;
			v->bdim = bi;
		} else if (bi >= 0) {
			v->kind = V_BLOCK;
			v->dim = v->bdim = bi;
		} else if (ti >= 0) {
			v->kind = V_THREAD;
			v->dim = ti;
		}
		(void)loop;
		{
			size_t q = alias_base(t, i + 2, e);
			/* r = q + off with q itself such a local: r
			 * points into p too */
			pi = -1;
			if (q < e && (pi = param_index(k, t->v[q])) < 0) {
				struct var *w = var_get(k, t->v[q]);
				pi = w != NULL && w != v ? w->alias : -1;
			}
			if (q < e && pi >= 0 &&
			    k->p[pi].ptr && (q + 1 == e || is(t, q + 1, "+") ||
			    (is(t, q + 1, ")") && q > i + 2)))
				v->alias = pi;
		}
	}
	/* CUDA_1D_KERNEL_LOOP(i, n) declares i as a grid-stride index */
	for (i = 0; i + 5 < t->n; i++) {
		if (!(is(t, i, "CUDA_1D_KERNEL_LOOP") ||
		    is(t, i, "CUDA_KERNEL_LOOP") ||
		    is(t, i, "HIP_1D_KERNEL_LOOP")) || !is(t, i + 1, "(") ||
		    !is_ident(t->v[i + 2]) || !is(t, i + 3, ","))
			continue;
		struct var *v = var_get(k, t->v[i + 2]);
		if (v == NULL) {
			k->v = grow(k->v, &k->cv, k->nv, sizeof(*k->v));
			v = &k->v[k->nv++];
			memset(v, 0, sizeof(*v));
			copy(v->name, sizeof(v->name), t->v[i + 2]);
			v->alias = -1;
		}
		v->kind = V_GLOBAL;
		v->dim = v->bdim = 0;
		e = expr_end(t, i + 4, stop);
		if (!param_expr(k, t, i + 4, e, v->bound, sizeof(v->bound)))
			v->bound[0] = '\0';
		else
			mark_size_use(k, t, i + 4, e);
	}
}

/* A member of a CUDA vector type (int2 up;): a field per component
 * (up_x, up_y), the first at the vector's alignment (2 or 4 lanes: their
 * size, at most 16; 3 lanes: an element's).  0 when type is none. */
static int
vector_member(struct param *p, const char *type, const char *name,
    int *off, int *align)
{
	static const char *const comp[] = { "x", "y", "z", "w" };
	const struct k_dtype *dt;
	int lanes = 0, va, l;

	if ((dt = vector_dtype(type, &lanes)) == NULL || lanes < 1 ||
	    lanes > 4)
		return 0;
	va = lanes == 3 ? dt->size : lanes * dt->size;
	if (va > 16)
		va = 16;
	*off = (*off + va - 1) / va * va;
	for (l = 0; l < lanes; l++) {
		struct field *f;
		p->f = grow(p->f, &p->cf, p->nf, sizeof(*p->f));
		f = &p->f[p->nf++];
		memset(f, 0, sizeof(*f));
		bprintf(f->name, sizeof(f->name), "%s_%s", name, comp[l]);
		bprintf(f->type, sizeof(f->type), "%.*s",
		    (int)strcspn(dt->c, "|"), dt->c);
		f->dt = dt;
		f->buf = -1;
		f->offset = *off + l * dt->size;
		bprintf(f->vec, sizeof(f->vec), "%s", name);
	}
	*off += lanes * dt->size;
	if (va > *align)
		*align = va;
	return 1;
}

/* Member name of type (spelled) appended to struct p at *off: 0 when
 * its type is neither a known scalar, an enumerator's type nor a pointer
 * (a buffer of its own, byvalue.c, 8 bytes here). */
static int
add_member(struct kern *k, struct param *p, const char *type,
    const char *name, int *off, int *align)
{
	char elem[64];
	const struct k_dtype *dt;
	struct field *f;
	int fsz = 0, fptr = 0;

	if (byvalue_ptr_member(type, elem, sizeof(elem))) {
		int lanes;
		dt = k_dtype_c(elem);
		if (dt == NULL)
			dt = vector_dtype(elem, &lanes);
		fsz = 8;
		fptr = 1;
	} else if (k_dtype_c(type) == NULL && vector_member(p, type, name, off,
	    align))
		return 1;
	else if ((dt = k_dtype_c(type)) == NULL &&
	    (dt = enum_dtype(&k->all, type)) == NULL) {
		long long dummy;
		if (!const_get(&k->c, type, &dummy))
			return 0;
		dt = k_dtype_c("int");	/* an enum */
	}
	if (!fptr)
		fsz = dt->size;
	p->f = grow(p->f, &p->cf, p->nf, sizeof(*p->f));
	f = &p->f[p->nf++];
	memset(f, 0, sizeof(*f));
	copy(f->name, sizeof(f->name), name);
	copy(f->type, sizeof(f->type), type);
	f->dt = dt;
	f->ptr = fptr;
	f->buf = -1;
	*off = (*off + fsz - 1) / fsz * fsz;
	f->offset = *off;
	*off += fsz;
	if (fsz > *align)
		*align = fsz;
	return 1;
}

/*
 * Where the member of a struct that starts at token s (of the body
 * whose } is at e) ends, past it, when it takes no room in a
 * value of the struct: a constructor, destructor or non-virtual member
 * function, declared or defined (with its initializer list and body), a
 * static member, an access label.  0 for a data member and for a virtual
 * function, whose table pointer the layout would need.
 */
size_t
member_skip(const struct toks *t, size_t s, size_t e)
{
	size_t j;
	int init;

	if ((is(t, s, "public") || is(t, s, "private") ||
	    is(t, s, "protected")) && is(t, s + 1, ":"))
		return s + 2;
	if (is(t, s, "static") || is(t, s, "using") || is(t, s, "typedef")) {
		for (j = s; j < e && !is(t, j, ";"); j++)
			if (is(t, j, "{"))
				j = skip_group(t, j) - 1;
		return j < e ? j + 1 : 0;
	}
	for (j = s; j < e && !is(t, j, ";") && !is(t, j, "("); j++)
		if (is(t, j, "virtual") || is(t, j, "{"))
			return 0;
	if (j >= e || !is(t, j, "(") || is(t, j + 1, "*") || j == s)
		return 0;	/* data, or a pointer to a function */
	j = skip_group(t, j);	/* past the parameters */
	/* qualifiers, an initializer list (its members' braces, a{0},
	 * too), = default: up to the body or the ; that ends a
	 * declaration */
	for (init = 0; j < e && !is(t, j, ";"); ) {
		if (is(t, j, "{") && !(init && is_ident(t->v[j - 1])))
			break;
		init |= is(t, j, ":");
		if (is(t, j, "(") || is(t, j, "{"))
			j = skip_group(t, j);
		else
			j++;
	}
	if (j >= e)
		return 0;
	if (is(t, j, ";"))
		return j + 1;
	j = skip_group(t, j);
	return is(t, j, ";") ? j + 1 : j;
}

/* Fields of a struct passed by value, from its definition in the slice:
 * plain members of known scalar types and pointers only; a declaration
 * of several (uint16_t *a, *b;) gives each its base type and stars. */
static int
parse_struct(struct kern *k, struct param *p)
{
	struct toks *t = &k->all;
	size_t i, j, e, past;
	int off = 0, align = 1;

	for (i = 0; i + 2 < t->n; i++)
		if ((is(t, i, "struct") || is(t, i, "class")) &&
		    is(t, i + 1, p->type) && is(t, i + 2, "{"))
			break;
	if (i + 2 >= t->n)
		return 0;
	e = skip_group(t, i + 2);
	for (j = i + 3; j + 1 < e;) {
		size_t s = j, c, a, base;
		char type[64] = "", decl[96];
		if ((past = member_skip(t, j, e - 1)) > 0) {
			j = past;
			continue;
		}
		while (j < e && !is(t, j, ";"))
			j++;
		if (j - s < 2 || !is_ident(t->v[j - 1]))
			return 0;
		/* the base type: up to the first declarator's stars */
		for (c = s; c < j && !is(t, c, ","); c++)
			;
		for (base = c - 1; base > s && is(t, base - 1, "*"); base--)
			;
		if (base <= s)
			return 0;
		{
			struct toks sub = { t->v + s, base - s, 0 };
			join(&sub, 0, sub.n, type, sizeof(type));
		}
		for (a = base; a < j; a = c + 1) {
			size_t x;
			for (c = a; c < j && !is(t, c, ","); c++)
				;
			if (c == a || !is_ident(t->v[c - 1]))
				return 0;
			copy(decl, sizeof(decl), type);
			for (x = a; x + 1 < c; x++) {
				if (!is(t, x, "*") && !is(t, x, "const") &&
				    !is(t, x, "__restrict__") &&
				    !is(t, x, "__restrict"))
					return 0;
				append_word(decl, sizeof(decl), t->v[x]);
			}
			if (!add_member(k, p, decl, t->v[c - 1], &off, &align))
				return 0;
		}
		j++;
	}
	p->ssize = (off + align - 1) / align * align;
	return p->nf > 0;
}

size_t
enum_open(const struct toks *t, const char *type)
{
	size_t i, o, e;

	for (i = 0; i + 2 < t->n; i++) {
		if (is(t, i, "enum") && (is(t, i + 1, type) ||
		    (is(t, i + 1, "class") && is(t, i + 2, type)))) {
			for (o = i + 1; o < t->n && o < i + 6 &&
			    !is(t, o, "{") && !is(t, o, ";"); o++)
				;
			if (o < t->n && is(t, o, "{"))
				return o;
			continue;	/* declared here, defined later */
		}
		/* typedef enum [tag] { ... } type; */
		if (!is(t, i, "typedef") || !is(t, i + 1, "enum"))
			continue;
		for (o = i + 2; o < t->n && o < i + 5 && !is(t, o, "{"); o++)
			;
		if (o < t->n && is(t, o, "{") && (e = skip_group(t, o)) <
		    t->n && is(t, e, type))
			return o;
	}
	return 0;
}

const struct k_dtype *
enum_dtype(const struct toks *t, const char *type)
{
	size_t o = enum_open(t, type), i;
	char under[64];

	if (o == 0)
		return NULL;
	/* enum [class] E : uint8_t { */
	for (i = o; i > 0 && o - i < 6 && !is(t, i - 1, ":") &&
	    !is(t, i - 1, "enum"); i--)
		;
	if (i > 0 && is(t, i - 1, ":")) {
		join(t, i, o, under, sizeof(under));
		if (k_dtype_c(under) != NULL)
			return k_dtype_c(under);
	}
	return k_dtype_c("int");
}

static int
type_is_enum(struct kern *k, const char *type)
{
	struct toks *t = &k->all;
	size_t i;

	for (i = 0; i + 1 < t->n; i++)
		if (is(t, i, "enum") && (is(t, i + 1, type) ||
		    (is(t, i + 1, "class") && is(t, i + 2, type))))
			return 1;
	return enum_open(t, type) != 0;
}

static int
in_list(json_t *arr, const char *name)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), name) == 0)
			return 1;
	return 0;
}

/* The argument index of the token at i when it is a whole argument of a
 * call or an offset from it (f(p + j)), with the call's name and number
 * of arguments; -1 otherwise. */
int
call_arg(const struct toks *t, size_t lo, size_t i, const char **fn, int *nargs)
{
	size_t j, c;
	int depth, argi, n = 1;

	/* p, or p + off: the buffer from off */
	if (!(is(t, i - 1, "(") || is(t, i - 1, ",")) ||
	    !(is(t, i + 1, ",") || is(t, i + 1, ")") || is(t, i + 1, "+") ||
	    is(t, i + 1, "-")))
		return -1;
	if ((j = call_open(t, lo, i, &argi)) == 0)
		return -1;
	c = skip_group(t, j) - 1;
	for (i = j + 1, depth = 0; i < c; i++)
		if (is(t, i, "(") || is(t, i, "[") || is(t, i, "{"))
			depth++;
		else if (is(t, i, ")") || is(t, i, "]") || is(t, i, "}"))
			depth--;
		else if (depth == 0 && is(t, i, ","))
			n++;
	if ((*fn = call_name(t, j)) == NULL)
		return -1;
	*nargs = n;
	return argi;
}

/* What is done to the pointer at token i once the casts and parentheses
 * around it are left: *((float2 *)p) = v and
 * reinterpret_cast<float4 *>(p)[0] = v store.  The token after the
 * expression into *e; 1 when a unary * dereferences it (*s the token
 * of the *), else 0. */
static int
deref_of(const struct toks *t, size_t lo, size_t i, size_t *s, size_t *e)
{
	size_t a = i, b = i + 1, j;
	int depth;

	for (;;) {
		if (a > lo + 1 && is(t, a - 1, ")")) {
			/* (T *)p */
			for (j = a - 1, depth = 0; j > lo; j--)
				if (is(t, j, ")"))
					depth++;
				else if (is(t, j, "(") && --depth == 0)
					break;
			if (j <= lo || !is(t, a - 2, "*"))
				break;
			a = j;
			continue;
		}
		if (a > lo + 1 && is(t, a - 1, "(") && is(t, b, ")")) {
			if (is(t, a - 2, ">")) {
				/* reinterpret_cast<T *>(p) */
				for (j = a - 2; j > lo && !is(t, j, "<"); j--)
					;
				if (j <= lo + 1 || !is_ident(t->v[j - 1]) ||
				    strstr(t->v[j - 1], "_cast") == NULL)
					break;
				a = j - 1;
			} else if (is_ident(t->v[a - 2]))
				break;		/* f(p): a call */
			else
				a--;
			b++;
			continue;
		}
		break;
	}
	if (is(t, b, "["))
		b = skip_group(t, b);
	*s = a;
	*e = b;
	return a > lo && is(t, a - 1, "*") && unary_at(t, a - 1) &&
	    !is(t, i + 1, "[");
}

#define HELPER_ALIASES 8

/* what ends an initializer */
static const char *const init_stop[] = { ";", ",", NULL };

/*
 * Pointer locals of a helper's body [a, b) that point into name, as a
 * kernel's locals into its parameters (alias_base), and so on from those.  Their tokens (the declared name's) into al; how
 * many.
 */
static int
helper_aliases(const struct toks *t, size_t a, size_t b, const char *name,
    size_t *al, int cap)
{
	size_t i, j, e;
	int n = 0, k, base;

	for (i = a + 3; i + 1 < b && n < cap; i++) {
		/* a declaration T *q = (not a store *q = v) */
		if (!is(t, i, "=") || !is_ident(t->v[i - 1]) ||
		    !is(t, i - 2, "*") || unary_at(t, i - 2) ||
		    !(is_ident(t->v[i - 3]) || is(t, i - 3, ">")) ||
		    is_keyword(t->v[i - 3]))
			continue;
		if ((e = expr_end(t, i + 1, init_stop)) > b)
			e = b;
		j = alias_base(t, i + 1, e);
		if (j >= e || !is_ident(t->v[j]))
			continue;
		base = is(t, j, name);
		for (k = 0; k < n && !base; k++)
			base = strcmp(t->v[al[k]], t->v[j]) == 0;
		if (base && (j + 1 == e || is(t, j + 1, ")") ||
		    is(t, j + 1, "+") || is(t, j + 1, "-")))
			al[n++] = i - 1;
	}
	return n;
}

/* Token i names one of the n aliases al. */
static int
named_in(const struct toks *t, size_t i, const size_t *al, int n)
{
	int k;

	for (k = 0; k < n; k++)
		if (strcmp(t->v[i], t->v[al[k]]) == 0)
			return 1;
	return 0;
}

/* Token i declares one of the aliases al or lies in its initializer (it
 * is not an access but the alias's definition). */
static int
alias_def(const struct toks *t, size_t i, const size_t *al, int n)
{
	int k;

	for (k = 0; k < n; k++)
		if (i == al[k] || (i > al[k] + 1 &&
		    i < expr_end(t, al[k] + 2, init_stop)))
			return 1;
	return 0;
}

/* Reads and writes of a helper's pointer parameter argi in its body, and
 * in the helpers it passes the pointer on to: every definition of the
 * name and arity, explicit specializations (copy<float, 4>) too. */
static void
helper_access(struct kern *k, const char *fn, int nargs, int argi, int *rd,
    int *wr, int depth)
{
	struct fn *h;
	const struct toks *t;
	const char *name, *cf;
	size_t i, from = 1, ds, de, al[HELPER_ALIASES];
	int n, ca, nal;

	if (depth > 3)
		return;
	while ((h = next_helper(k, fn, nargs, &from, 1)) != NULL) {
		if (argi >= h->np || !h->pptr[argi]) {
			fn_free(h);
			continue;
		}
		t = h->t;
		name = h->pn[argi];
		nal = helper_aliases(t, h->a, h->b, name, al, HELPER_ALIASES);
		for (i = h->a; i < h->b; i++) {
			if (!(is(t, i, name) || named_in(t, i, al, nal)) ||
			    is(t, i - 1, ".") || is(t, i - 1, "->") ||
			    alias_def(t, i, al, nal))
				continue;
			if (asm_access(t, h->a, i, rd, wr))
				continue;
			if (deref_of(t, h->a, i, &ds, &de) ||
			    is(t, i + 1, "[") || (de > i + 1 && de < t->n &&
			    is(t, de - 1, "]"))) {
				const char *x = de < t->n ? t->v[de] : "";
				if (strcmp(x, "=") == 0)
					*wr = 1;
				else if (strlen(x) == 2 && x[1] == '=' &&
				    strchr("+-*/%&|^", x[0]) != NULL)
					*rd = *wr = 1;
				else
					*rd = 1;
			} else if ((ca = call_arg(t, h->a, i, &cf, &n)) >= 0 &&
			    strncmp(cf, "atomic", 6) == 0)
				*rd = *wr = 1;
			else if (ca >= 0)
				helper_access(k, cf, n, ca, rd, wr, depth + 1);
			else if (!is(t, i + 1, "+=") && !is(t, i + 1, "-=") &&
			    !is(t, i + 1, "="))
				*rd = 1;
		}
		fn_free(h);
	}
}

/* Reads and writes of buffer p found in the text (through aliases too). */
static void
text_access(struct kern *k, int pi, int *rd, int *wr)
{
	struct toks *t = &k->t;
	size_t i;
	int j;

	*rd = *wr = 0;
	for (i = k->body; i < t->n; i++) {
		struct var *v;
		int hit = is(t, i, k->p[pi].name);
		if (!hit && (v = var_get(k, t->v[i])) != NULL && v->alias == pi)
			hit = 1;
		if (!hit || is(t, i - 1, ".") || is(t, i + 1, "="))
			continue;
		/* the definition of an alias: T *y = out + ...,
		 * T4 *y = reinterpret_cast<T4 *>(out) */
		if (is(t, i - 1, "=") && i >= 2 && (v = var_get(k, t->v[i - 2])) !=
		    NULL && v->alias == pi)
			continue;
		for (j = 0; j < k->nv; j++)
			if (k->v[j].alias == pi && i >= k->v[j].a &&
			    i < k->v[j].b)
				break;
		if (j < k->nv)
			continue;
		if (asm_access(t, k->body, i, rd, wr))
			continue;
		if (i >= 2 && is(t, i - 1, "&") && is(t, i - 2, "(") &&
		    i >= 3 && strncmp(t->v[i - 3], "atomic", 6) == 0) {
			*rd = *wr = 1;
			continue;
		}
		if (i >= 2 && is(t, i - 1, "(") &&
		    strncmp(t->v[i - 2], "atomic", 6) == 0) {
			*rd = *wr = 1;
			continue;
		}
		/* reinterpret_cast<float4 *>(p + j)[i] = v and
		 * *reinterpret_cast<float4 *>(&p[j]) = v: what follows the
		 * cast's parentheses is what is done to p */
		{
			size_t o = i, c;
			int depth = 0;
			while (o > k->body) {
				o--;
				if (is(t, o, ")") || is(t, o, "]"))
					depth++;
				else if ((is(t, o, "(") || is(t, o, "[")) &&
				    depth-- == 0)
					break;
			}
			if (is(t, o, "(") && o > 0 && is(t, o - 1, ">") &&
			    call_name(t, o) != NULL &&
			    strstr(call_name(t, o), "_cast") != NULL &&
			    (c = skip_group(t, o)) < t->n) {
				const char *n = t->v[c];
				if (strcmp(n, "[") == 0)
					n = skip_group(t, c) < t->n ?
					    t->v[skip_group(t, c)] : "";
				else {
					size_t q = o - 1;
					while (q > k->body && !is(t, q, "<"))
						q--;
					if (!(q >= 2 && is(t, q - 2, "*") &&
					    unary_at(t, q - 2)))
						n = "";
				}
				if (strcmp(n, "=") == 0)
					*wr = 1;
				else if (strlen(n) == 2 && n[1] == '=' &&
				    strchr("+-*/%&|^", n[0]) != NULL)
					*rd = *wr = 1;
				else
					*rd = 1;
				continue;
			}
		}
		/* ((float4 *)p)[i] = v */
		if (is(t, i + 1, ")") && is(t, i + 2, "[") && i >= 2 &&
		    is(t, i - 1, ")") && is(t, i - 2, "*"))
			i++;
		if (is(t, i + 1, "[")) {
			size_t e = skip_group(t, i + 1);
			const char *n = e < t->n ? t->v[e] : "";
			if (strcmp(n, "=") == 0 || strcmp(n, "++") == 0 ||
			    strcmp(n, "--") == 0)
				*wr = 1;
			else if (strlen(n) == 2 && n[1] == '=' &&
			    strchr("+-*/%&|^", n[0]) != NULL)
				*rd = *wr = 1;
			else
				*rd = 1;
			continue;
		}
		if (is(t, i - 1, "*") && is(t, i + 1, "="))
			*wr = 1;
		else {
			/* passed to a helper of the slice: what it does */
			const char *fn;
			int n, hr = 0, hw = 0, ca;
			if ((ca = call_arg(t, k->body, i, &fn, &n)) >= 0 &&
			    !is_keyword(fn))
				helper_access(k, fn, n, ca, &hr, &hw, 0);
			if (hr || hw) {
				*rd |= hr;
				*wr |= hw;
			} else
				*rd = 1;
		}
	}
}


/* The text to analyse: the kernel's own, or for a kernel a macro defines,
 * the macro's body. */
void
kernel_text(struct kern *k, const char *text)
{
	struct toks tt = { 0 };
	const char *p;

	if (text != NULL && strstr(text, "__global__") != NULL) {
		tokenize(text, &k->t);
		return;
	}
	tokenize(text != NULL ? text : "", &tt);
	if (tt.n > 0 && is_ident(tt.v[0]) && k->code != NULL) {
		char pat[128];
		bprintf(pat, sizeof(pat), "#define %s(", tt.v[0]);
		if ((p = strstr(k->code, pat)) != NULL) {
			struct k_buf sb = { 0 };
			const char *q = p + strlen(pat);
			while (*q != '\0' && *q != ')')
				q++;
			if (*q != '\0')
				q++;
			while (*q != '\0' && *q != '\n') {
				if (*q == '\\' && q[1] == '\n') {
					k_buf_add(&sb, "\n");
					q += 2;
					continue;
				}
				k_buf_addn(&sb, q++, 1);
			}
			tokenize(k_buf_str(&sb), &k->t);
			k_buf_free(&sb);
			guess(k, "kernel defined by macro %s: its body analysed",
			    tt.v[0]);
		}
	}
	toks_free(&tt);
}

void
load_params(struct kern *k, json_t *scan, json_t *slice)
{
	json_t *params = json_object_get(scan, "params");
	json_t *instance = json_object_get(slice, "instance");
	json_t *writes = json_object_get(slice, "writes");
	json_t *reads = json_object_get(slice, "reads");
	json_t *prm;
	size_t i;

	json_array_foreach(params, i, prm) {
		struct param *p;
		const char *name = k_get_str(prm, "name");
		const char *type = k_get_str(prm, "type");
		const char *pointee = k_get_str(prm, "pointee_type");
		k->p = grow(k->p, &k->cp, k->np, sizeof(*k->p));
		p = &k->p[k->np++];
		memset(p, 0, sizeof(*p));
		if (name == NULL || *name == '\0')
			snprintf(p->name, sizeof(p->name), "arg%zu", i);
		else
			copy(p->name, sizeof(p->name), name);
		copy(p->spelled, sizeof(p->spelled), type);
		p->ptr = k_get_int(prm, "pointer_depth", 0) > 0;
		p->is_const = json_is_true(json_object_get(prm, "const"));
		base_type(p->ptr && pointee != NULL ? pointee :
		    type != NULL ? type : "int", instance, p->type,
		    sizeof(p->type));
		p->dt = k_dtype_c(p->type);
		p->lanes = 1;
		if (p->dt == NULL && p->ptr) {
			/* an alias (using phalf = at::Half) as clang resolved
			 * it, or a vector type counted in its elements */
			const char *canon = k_get_str(prm, "canonical_type");
			char ct[128];
			if (canon != NULL && strstr(canon, "type-parameter") ==
			    NULL) {
				base_type(canon, instance, ct, sizeof(ct));
				if ((p->dt = k_dtype_c(ct)) == NULL)
					p->dt = vector_dtype(ct, &p->lanes);
			}
			if (p->dt == NULL)
				p->dt = vector_dtype(p->type, &p->lanes);
		}
		if (p->ptr) {
			p->read = in_list(reads, p->name);
			p->written = in_list(writes, p->name);
		} else if (p->dt == NULL) {
			/* a typedef of a scalar (clock_t) as clang resolved
			 * it; not a handle (cudaTextureObject_t), whose
			 * value only the runtime makes */
			const char *canon = k_get_str(prm, "canonical_type");
			char ct[128];
			if (canon != NULL && strstr(canon, "type-parameter") ==
			    NULL && strstr(p->type, "Object") == NULL) {
				base_type(canon, instance, ct, sizeof(ct));
				p->dt = k_dtype_c(ct);
			}
		}
		if (!p->ptr && p->dt == NULL) {
			if (type_is_enum(k, p->type)) {
				p->is_enum = 1;
				p->dt = enum_dtype(&k->all, p->type);
				if (p->dt == NULL)
					p->dt = k_dtype_c("int");
			} else if (parse_struct(k, p) ||
			    accessor_parse(k, p) || byvalue_vector(p) ||
			    byvalue_pair(p)) {
				p->is_struct = 1;
			}
		}
		p->role = R_SCALAR;
		p->member_of = -1;
	}
}

void
infer_roles(struct kern *k, json_t *slice)
{
	int i, rd, wr;
	int have = json_is_array(json_object_get(slice, "writes"));

	for (i = 0; i < k->np; i++) {
		struct param *p = &k->p[i];
		if (!p->ptr)
			continue;
		if (p->dt == NULL) {
			guess(k, "%s: element type %s unknown, bytes assumed",
			    p->name, p->type);
			k->roles_low = 1;
		}
		text_access(k, i, &rd, &wr);
		/* kslice's reads and writes name no struct member */
		if (!have || p->member_of >= 0 || (!p->written && wr)) {
			p->text_written = have && p->member_of < 0 &&
			    !p->written && wr;
			p->written = wr;
			p->read = p->read || rd;
		}
		/* a read kslice did not see (through inline PTX) */
		if (rd && !p->read && !p->written)
			p->read = 1;
		if (p->is_const && !p->written)
			p->role = R_IN;
		else if (p->written && (p->read || rd))
			p->role = rd || !have ? R_INOUT : R_OUT;
		else if (p->written)
			p->role = R_OUT;
		else if (p->read) {
			p->role = R_INOUT;
			k->roles_low = 1;
			guess(k, "%s: not const and never seen written, taken "
			    "as inout", p->name);
		} else {
			p->role = R_INOUT;
			k->roles_low = 1;
			guess(k, "%s: no access seen, taken as inout", p->name);
		}
		/* x[idx[i]]: idx holds indices into x */
	}
	for (i = 0; i < k->np; i++)
		if (k->p[i].ptr && k->p[i].role == R_IN && k->p[i].dt != NULL &&
		    !k->p[i].dt->is_float)
			k->p[i].offsets = segment_offsets(k, k->p[i].name);
	for (i = 0; i < k->np; i++) {
		size_t j;
		if (!k->p[i].ptr)
			continue;
		for (j = 0; j + 2 < k->t.n; j++)
			if (is(&k->t, j + 1, "[") && is(&k->t, j + 2, k->p[i].name) &&
			    param_index(k, k->t.v[j]) >= 0 &&
			    k->p[i].dt != NULL && !k->p[i].dt->is_float)
				copy(k->p[i].index_of, sizeof(k->p[i].index_of),
				    k->t.v[j]);
	}
}

/*
 * An output only the text shows written (kslice saw no write: a store
 * through inline PTX or through a chain of pointer locals) whose count
 * is a guess: the harness cannot tell which elements the kernel writes,
 * so it is an inout (given data, compared whole) rather than an out
 * whose every element must be written.
 */
void
text_outputs(struct kern *k)
{
	int i;

	for (i = 0; i < k->np; i++) {
		struct param *p = &k->p[i];
		if (!p->ptr || !p->text_written || p->role != R_OUT ||
		    p->count_state == 2)
			continue;
		p->role = R_INOUT;
		k->roles_low = 1;
		guess(k, "%s: written where kslice saw no write, its count "
		    "not derived: taken as inout", p->name);
	}
}
