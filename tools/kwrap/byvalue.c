/*
 * kwrap: parameters passed by value whose type kwrap cannot build.
 *
 * A harness passes each by-value parameter from a host variable of the
 * parameter's size: a scalar of a known dtype, an enum (an int), or a
 * struct of plain scalar members laid out as the slice defines it
 * (model.c's parse_struct).  For any other type the harness has nothing
 * to build the value from, and a stand-in of another size would have the
 * driver copy the kernel's parameter from whatever lies beside it: the
 * kernel would read garbage pointers and sizes.  Such a record gets no
 * harness; its error names the parameter, its type and why.
 */
#include "kwrap.h"

/* The definition of struct or class name in t: the token of its {, or 0. */
static size_t
struct_def(const struct toks *t, const char *name)
{
	size_t i;

	for (i = 0; i + 2 < t->n; i++)
		if ((is(t, i, "struct") || is(t, i, "class")) &&
		    is(t, i + 1, name) && is(t, i + 2, "{"))
			return i + 2;
	return 0;
}

/* Why the members of the struct whose { is at open are not all plain
 * scalars: the first one that is not, into out. */
static void
member_why(struct kern *k, size_t open, char *out, size_t cap)
{
	const struct toks *t = &k->all;
	size_t e = skip_group(t, open), j, s;
	char decl[128];
	long long dummy;

	for (j = open + 1; j + 1 < e;) {
		size_t past = member_skip(t, j, e - 1);
		if (past > 0) {
			j = past;	/* a function, a static: no room */
			continue;
		}
		s = j;
		while (j + 1 < e && !is(t, j, ";"))
			j++;
		{
			struct toks sub = { t->v + s, j - s, 0 };
			join(&sub, 0, sub.n, decl, sizeof(decl));
		}
		if (strchr(decl, '(') != NULL) {
			bprintf(out, cap, "its definition has constructors or "
			    "member functions (%.60s), which kwrap's reading "
			    "of a struct does not pass over", decl);
			return;
		}
		{
			/* T *a, *b; and int h, w;: as the first declarator
			 * goes, the others do (model.c's parse_struct) */
			size_t c = s;
			char first[64], elem[64];
			while (c < j && !is(t, c, ","))
				c++;
			if (c < j && c > s + 1) {
				struct toks sub = { t->v + s, c - 1 - s, 0 };
				join(&sub, 0, sub.n, first, sizeof(first));
				if (byvalue_ptr_member(first, elem,
				    sizeof(elem)) || k_dtype_c(first) != NULL) {
					j++;
					continue;
				}
			}
		}
		if (j - s < 2 || !is_ident(t->v[j - 1])) {
			bprintf(out, cap, "its member %s is not a plain scalar "
			    "declaration", decl);
			return;
		}
		{
			char type[64];
			struct toks sub = { t->v + s, j - 1 - s, 0 };
			join(&sub, 0, sub.n, type, sizeof(type));
			char elem[64];
			if (byvalue_ptr_member(type, elem, sizeof(elem))) {
				j++;	/* a buffer (byvalue_members) */
				continue;
			}
			if (strchr(type, '*') != NULL) {
				bprintf(out, cap, "its member %s is a pointer "
				    "(%s)", t->v[j - 1], type);
				return;
			}
			if (k_dtype_c(type) == NULL &&
			    enum_dtype(&k->all, type) == NULL &&
			    !const_get(&k->c, type, &dummy)) {
				bprintf(out, cap, "its member %s has type %s, "
				    "not a plain scalar", t->v[j - 1], type);
				return;
			}
		}
		j++;
	}
	bprintf(out, cap, "its members cannot be laid out");
}

/* s without a leading const or typename */
static const char *
bare(const char *s)
{
	for (;;)
		if (strncmp(s, "const ", 6) == 0)
			s += 6;
		else if (strncmp(s, "typename ", 9) == 0)
			s += 9;
		else
			return s;
}

/* Why by-value parameter p (index i) cannot be built, into out. */
static void
param_why(struct kern *k, int i, char *out, size_t cap)
{
	const struct param *p = &k->p[i];
	json_t *prm = json_array_get(json_object_get(json_object_get(k->rec,
	    "scan"), "params"), (size_t)i);
	const char *canon = k_get_str(prm, "canonical_type");
	size_t open;
	int lanes;

	if (strstr(p->type, "TensorAccessor") != NULL)
		bprintf(out, cap, "a tensor accessor (a data pointer with "
		    "sizes and strides) that kwrap does not lay out");
	else if (strstr(p->type, "TextureObject") != NULL)
		bprintf(out, cap, "a texture object whose fetches do not say "
		    "what it holds (none of tex1Dfetch<T>, tex2D<T>, ... reads "
		    "it, two read it differently, or T is no type a texture "
		    "holds)");
	else if (strstr(p->type, "SurfaceObject") != NULL)
		bprintf(out, cap, "a handle of a surface object, which the "
		    "harness does not create");
	else if (strstr(p->type, "...") != NULL)
		bprintf(out, cap, "a parameter pack");
	else if (canon != NULL && strncmp(bare(canon), "type-parameter",
	    14) == 0)
		bprintf(out, cap, "a template type parameter that the "
		    "instance does not bind to a type kwrap knows");
	else if (vector_dtype(p->type, &lanes) != NULL)
		bprintf(out, cap, "a CUDA vector type, which kwrap does not "
		    "pass by value");
	else if ((open = struct_def(&k->all, p->type)) != 0)
		member_why(k, open, out, cap);
	else if (strchr(p->type, '<') != NULL)
		bprintf(out, cap, "a class template instance with no "
		    "definition kwrap can lay out");
	else
		bprintf(out, cap, "no definition of it in the slice as a "
		    "struct of plain scalar members");
}

int
byvalue_unbuilt(struct kern *k, char *why, size_t cap)
{
	char reason[256];
	int i;

	for (i = 0; i < k->np; i++) {
		const struct param *p = &k->p[i];
		int f;
		for (f = 0; p->is_struct && f < p->nf; f++)
			if (p->f[f].ptr && p->f[f].dt == NULL &&
			    !p->f[f].null) {
				bprintf(why, cap, "parameter %s (%s) is passed by "
				    "value and kwrap cannot build it: its member "
				    "%s (%s) points to elements of a type kwrap "
				    "cannot tell (a void * that the kernel never "
				    "casts to a pointer of a known type); no "
				    "harness", p->name, p->spelled[0] != '\0' ?
				    p->spelled : p->type, p->f[f].name,
				    p->f[f].type);
				return -1;
			}
		if (p->ptr || p->dt != NULL || p->is_struct || p->is_enum ||
		    p->tex)
			continue;
		param_why(k, i, reason, sizeof(reason));
		bprintf(why, cap, "parameter %s (%s) is passed by value and "
		    "kwrap cannot build it: %s; no harness, which would pass "
		    "the kernel a value of the wrong size", p->name,
		    p->spelled[0] != '\0' ? p->spelled : p->type, reason);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ vectors */

/* A new scalar field of p: name, dtype dt, at offset; its type the
 * caller's to spell. */
static struct field *
scalar_field(struct param *p, const char *name, const struct k_dtype *dt,
    int offset)
{
	struct field *fd;

	p->f = grow(p->f, &p->cf, p->nf, sizeof(*p->f));
	fd = &p->f[p->nf++];
	memset(fd, 0, sizeof(*fd));
	copy(fd->name, sizeof(fd->name), name);
	fd->dt = dt;
	fd->buf = -1;
	fd->offset = offset;
	return fd;
}

int
byvalue_vector(struct param *p)
{
	static const char *const comp[] = { "x", "y", "z", "w" };
	const struct k_dtype *dt;
	int lanes = 0, f;

	if ((dt = vector_dtype(p->type, &lanes)) == NULL || lanes < 1 ||
	    lanes > 4)
		return 0;
	p->nf = 0;
	for (f = 0; f < lanes; f++) {
		struct field *fd = scalar_field(p, comp[f], dt, f * dt->size);
		/* the dtype's first C spelling */
		bprintf(fd->type, sizeof(fd->type), "%.*s",
		    (int)strcspn(dt->c, "|"), dt->c);
	}
	p->lanes = lanes;
	p->ssize = lanes * dt->size;
	return 1;
}

/* ------------------------------------------------------------ pairs */

/* The scalar type of s[0..n) with spaces trimmed, into out: its dtype. */
static const struct k_dtype *
pair_member(const char *s, size_t n, char *out, size_t cap)
{
	while (n > 0 && isspace((unsigned char)*s))
		s++, n--;
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	bprintf(out, cap, "%.*s", (int)n, s);
	return k_dtype_c(out);
}

/*
 * std::pair<A, B> of two scalar types passed by value (a seed and an
 * offset for a random number generator, as in dropout kernels): the
 * standard gives pair the members first and second, in that order, so
 * it is laid out as a struct of the two.
 */
int
byvalue_pair(struct param *p)
{
	static const char *const name[] = { "first", "second" };
	const char *s = bare(p->type), *lt, *comma, *gt;
	char type[2][64];
	const struct k_dtype *dt[2];
	int f, off = 0, align = 1;

	if (strncmp(s, "::", 2) == 0)
		s += 2;
	if (strncmp(s, "std::", 5) == 0)
		s += 5;
	if (strncmp(s, "pair", 4) != 0)
		return 0;
	for (lt = s + 4; isspace((unsigned char)*lt); lt++)
		;
	if (*lt != '<' || (comma = strchr(lt, ',')) == NULL ||
	    (gt = strrchr(lt, '>')) == NULL || gt < comma ||
	    strchr(comma + 1, ',') != NULL || strchr(lt + 1, '<') != NULL)
		return 0;
	dt[0] = pair_member(lt + 1, (size_t)(comma - lt - 1), type[0],
	    sizeof(type[0]));
	dt[1] = pair_member(comma + 1, (size_t)(gt - comma - 1), type[1],
	    sizeof(type[1]));
	if (dt[0] == NULL || dt[1] == NULL || dt[0]->size < 1 ||
	    dt[1]->size < 1)
		return 0;
	p->nf = 0;
	for (f = 0; f < 2; f++) {
		off = (off + dt[f]->size - 1) / dt[f]->size * dt[f]->size;
		copy(scalar_field(p, name[f], dt[f], off)->type,
		    sizeof(p->f[0].type), type[f]);
		off += dt[f]->size;
		if (dt[f]->size > align)
			align = dt[f]->size;
	}
	p->ssize = (off + align - 1) / align * align;
	return 1;
}

/* ------------------------------------------------------------ members */

static int
qualifier(const char *s)
{
	return strcmp(s, "const") == 0 || strcmp(s, "volatile") == 0 ||
	    strcmp(s, "__restrict__") == 0 || strcmp(s, "__restrict") == 0 ||
	    strcmp(s, "restrict") == 0 || strcmp(s, "struct") == 0;
}

int
byvalue_ptr_member(const char *type, char *elem, size_t cap)
{
	struct toks t = { 0 };
	size_t i, star = 0;
	int n = 0, ok = 1;

	tokenize(type, &t);
	for (i = 0; i < t.n; i++)
		if (is(&t, i, "*")) {
			n++;
			star = i;
		}
	if (n != 1 || star == 0)
		ok = 0;
	for (i = star + 1; ok && i < t.n; i++)
		if (!qualifier(t.v[i]))
			ok = 0;
	if (ok) {
		*elem = '\0';
		for (i = 0; i < star; i++)
			if (!qualifier(t.v[i]))
				append_word(elem, cap, t.v[i]);
		ok = *elem != '\0';
	}
	toks_free(&t);
	return ok;
}

static int
param_named(const struct kern *k, const char *name)
{
	int i;

	for (i = 0; i < k->np; i++)
		if (strcmp(k->p[i].name, name) == 0)
			return 1;
	return 0;
}

/* The type alias name declares in tokens [a, b) of t (using name = X;
 * or typedef X name;): X into out.  Only at the brace depth of a when
 * members is set (a class's own members), anywhere otherwise. */
static int
alias_in(const struct toks *t, size_t a, size_t b, const char *name,
    int members, char *out, size_t cap)
{
	size_t i, j;
	int depth = 0;

	for (i = a; i < b; i++) {
		if (is(t, i, "{"))
			depth++;
		else if (is(t, i, "}"))
			depth--;
		if (members && depth != 0)
			continue;
		if (is(t, i, "using") && is(t, i + 1, name) &&
		    is(t, i + 2, "=")) {
			for (j = i + 3; j < b && !is(t, j, ";"); j++)
				;
			join(t, i + 3, j, out, cap);
			return j > i + 3;
		}
		if (is(t, i, "typedef")) {
			for (j = i + 1; j < b && !is(t, j, ";"); j++)
				;
			if (j < b && j > i + 2 && is(t, j - 1, name)) {
				join(t, i + 1, j - 1, out, cap);
				return 1;
			}
		}
	}
	return 0;
}

/*
 * A type the kernel names through aliases, followed to what it stands
 * for: a local alias (using N = X; typedef X N;), a template parameter
 * the instance binds, and a member alias of a class of the slice (C::N,
 * declared between C's braces), up to 8 steps.  Traits-class code spells
 * its element types so: with Traits bound to class C, "using IOType =
 * typename Traits::IOTraits::Type;" is C's IOTraits' Type.  The name
 * reached goes into out; returns whether it is a dtype or a vector type
 * kwrap knows.
 */
int
resolve_type(struct kern *k, const char *spelled, char *out, size_t cap,
    int depth)
{
	json_t *inst = json_object_get(json_object_get(k->rec, "slice"),
	    "instance");
	char s[160], x[160], cls[160];
	const char *sep, *p;
	size_t open;
	int lanes;

	base_type(spelled, inst, s, sizeof(s));
	copy(out, cap, s);
	if (k_dtype_c(s) != NULL || vector_dtype(s, &lanes) != NULL)
		return 1;
	if (depth >= 8 || s[0] == '\0')
		return 0;
	for (sep = NULL, p = s; (p = strstr(p, "::")) != NULL; p += 2)
		sep = p;
	if (sep == NULL) {
		if (alias_in(&k->t, 0, k->t.n, s, 0, x, sizeof(x)) ||
		    alias_in(&k->all, 0, k->all.n, s, 0, x, sizeof(x)))
			return resolve_type(k, x, out, cap, depth + 1);
		return 0;
	}
	bprintf(x, sizeof(x), "%.*s", (int)(sep - s), s);
	resolve_type(k, x, cls, sizeof(cls), depth + 1);
	if ((open = struct_def(&k->all, cls)) == 0 ||
	    !alias_in(&k->all, open + 1, skip_group(&k->all, open) - 1,
	    sep + 2, 1, x, sizeof(x)))
		return 0;
	return resolve_type(k, x, out, cap, depth + 1);
}

/* Whether any member access in the slice names member (x.member,
 * x->member). */
static int
member_named(struct kern *k, const char *member)
{
	size_t i;

	for (i = 1; i < k->all.n; i++)
		if (is(&k->all, i, member) && (is(&k->all, i - 1, ".") ||
		    is(&k->all, i - 1, "->")))
			return 1;
	return 0;
}

/*
 * Whether the kernel's body can reach member of struct parameter p: it
 * names buffer name (what its p.member became), or it uses p whole (p
 * not followed by a member: passed to a helper, its address taken) and
 * some member access of the slice names member.  A kernel that only
 * reads p's members one by one reaches no other: a .y elsewhere (a
 * float2's) is not p's.
 */
static int
member_reached(struct kern *k, const struct param *p, const char *member,
    const char *name)
{
	const struct toks *t = &k->t;
	size_t j;
	int whole = 0;

	for (j = k->body + 1; j < t->n; j++) {
		if (is(t, j, name))
			return 1;
		if (is(t, j, p->name) && !is(t, j - 1, ".") &&
		    !is(t, j - 1, "->") && !is(t, j + 1, "."))
			whole = 1;
	}
	return whole && member_named(k, member);
}

/* A void * member's element type from the kernel's casts of it, name
 * being the member's token once rewritten: ((const T *)name)[i],
 * reinterpret_cast<const T *>(name), static_cast<T *>(name). */
static const struct k_dtype *
cast_type(struct kern *k, size_t from, const char *name, char *type,
    size_t cap, int *lanes)
{
	const struct toks *t = &k->t;
	const struct k_dtype *dt;
	size_t i, j;
	char elem[64];

	for (i = from + 1; i < t->n; i++) {
		if (!is(t, i, name))
			continue;
		/* ( ... * ) name */
		if (is(t, i - 1, ")") && is(t, i - 2, "*")) {
			for (j = i - 2; j > from && !is(t, j, "("); j--)
				;
		} else if (is(t, i - 1, "(") && is(t, i - 2, ">") &&
		    is(t, i - 3, "*")) {
			for (j = i - 3; j > from && !is(t, j, "<"); j--)
				;
			if (j <= from || strstr(t->v[j - 1], "_cast") == NULL)
				continue;
		} else
			continue;
		{
			struct toks sub = { t->v + j + 1, 0, 0 };
			size_t e = j + 1;
			char spelled[96];
			while (e < i && !is(t, e, "*"))
				e++;
			sub.n = e + 1 - (j + 1);
			join(&sub, 0, sub.n, spelled, sizeof(spelled));
			if (!byvalue_ptr_member(spelled, elem, sizeof(elem)))
				continue;
		}
		*lanes = 1;
		{
			/* (const T *)p.x with T bound by the instance */
			char bound[64];
			base_type(elem, json_object_get(json_object_get(k->rec,
			    "slice"), "instance"), bound, sizeof(bound));
			copy(elem, sizeof(elem), bound);
		}
		if (k_dtype_c(elem) == NULL && vector_dtype(elem, lanes) ==
		    NULL) {
			/* an alias, maybe through a traits class */
			char to[64];
			if (resolve_type(k, elem, to, sizeof(to), 0))
				copy(elem, sizeof(elem), to);
		}
		if ((dt = k_dtype_c(elem)) == NULL)
			dt = vector_dtype(elem, lanes);
		if (dt != NULL) {
			copy(type, cap, elem);
			return dt;
		}
	}
	return NULL;
}

/* p.v.x in the kernel's text, v a vector member: the field p.v_x */
static void
vector_fields(struct kern *k)
{
	struct toks *t = &k->t;
	size_t j;
	int i, f;

	for (j = k->body + 1; j + 4 < t->n; j++) {
		char name[64];
		if ((i = param_index(k, t->v[j])) < 0 || !k->p[i].is_struct ||
		    !is(t, j + 1, ".") || !is(t, j + 3, ".") ||
		    is(t, j - 1, ".") || is(t, j - 1, "->"))
			continue;
		bprintf(name, sizeof(name), "%s_%s", t->v[j + 2], t->v[j + 4]);
		for (f = 0; f < k->p[i].nf; f++)
			if (strcmp(k->p[i].f[f].vec, t->v[j + 2]) == 0 &&
			    strcmp(k->p[i].f[f].name, name) == 0)
				break;
		if (f == k->p[i].nf)
			continue;
		free(t->v[j + 2]);
		free(t->v[j + 3]);
		free(t->v[j + 4]);
		t->v[j + 2] = k_strdup(name);
		memmove(t->v + j + 3, t->v + j + 5, (t->n - j - 5) *
		    sizeof(*t->v));
		t->n -= 2;
	}
}

void
byvalue_members(struct kern *k)
{
	int i, f, n = k->np;
	size_t j;

	vector_fields(k);

	for (i = 0; i < n; i++) {
		for (f = 0; f < k->p[i].nf; f++) {
			struct param *p = &k->p[i], *q;
			struct field *fd = &p->f[f];
			char name[64], elem[64];
			const char *ws;
			if (!fd->ptr)
				continue;
			bprintf(name, sizeof(name), "%s_%s", p->name, fd->name);
			while (param_named(k, name) && strlen(name) + 1 <
			    sizeof(name))
				strcat(name, "_");
			if (!byvalue_ptr_member(fd->type, elem, sizeof(elem)))
				continue;
			k->p = grow(k->p, &k->cp, k->np, sizeof(*k->p));
			p = &k->p[i];
			fd = &p->f[f];
			q = &k->p[k->np];
			memset(q, 0, sizeof(*q));
			copy(q->name, sizeof(q->name), name);
			copy(q->spelled, sizeof(q->spelled), fd->type);
			copy(q->type, sizeof(q->type), elem);
			ws = strchr(fd->type, '*');
			q->is_const = strstr(fd->type, "const") != NULL &&
			    strstr(fd->type, "const") < ws;
			q->ptr = 1;
			q->lanes = 1;
			q->dt = fd->dt;
			if (q->dt != NULL)
				(void)vector_dtype(elem, &q->lanes);
			q->role = R_SCALAR;
			q->member_of = i;
			bprintf(q->member, sizeof(q->member), "%s.%s", p->name,
			    fd->name);
			fd->buf = k->np++;
			/* p.field in the kernel's text: the buffer's name */
			for (j = k->body + 1; j + 2 < k->t.n; j++)
				if (is(&k->t, j, p->name) && is(&k->t, j + 1,
				    ".") && is(&k->t, j + 2, fd->name) &&
				    !is(&k->t, j - 1, ".") &&
				    !is(&k->t, j - 1, "->")) {
					free(k->t.v[j]);
					free(k->t.v[j + 1]);
					free(k->t.v[j + 2]);
					k->t.v[j] = k_strdup(name);
					memmove(k->t.v + j + 1, k->t.v + j + 3,
					    (k->t.n - j - 3) * sizeof(*k->t.v));
					k->t.n -= 2;
				}
			if (q->dt == NULL && (q->dt = cast_type(k, k->body,
			    name, q->type, sizeof(q->type), &q->lanes)) != NULL) {
				fd->dt = q->dt;
				guess(k, "%s: element type %s from the kernel's "
				    "cast of %s", q->name, q->type, q->member);
			}
			if (q->dt == NULL && !member_reached(k, p, fd->name,
			    name)) {
				/* a struct shared by several kernels: this one
				 * never touches the member, which gets no
				 * buffer and stays a null pointer */
				guess(k, "%s.%s: a void * the kernel never "
				    "reaches, passed as a null pointer", p->name,
				    fd->name);
				k->np--;
				fd->buf = -1;
				fd->null = 1;
			}
		}
	}
}

/*
 * A void * parameter the kernel casts to a pointer of a known type
 * (reinterpret_cast<const T *>(x)[i], ((T *)x)[i], T spelled through
 * aliases or a traits class) holds elements of that type, as a struct's
 * void * member does: its count is then in those elements, not in bytes
 * of a buffer of unknown elements.  The first such cast decides.
 */
void
byvalue_void_params(struct kern *k)
{
	const struct k_dtype *dt;
	char type[sizeof(k->p[0].type)];
	int i, lanes;

	for (i = 0; i < k->np; i++) {
		struct param *p = &k->p[i];
		if (!p->ptr || p->dt != NULL || p->member_of >= 0 ||
		    strcmp(p->type, "void") != 0)
			continue;
		if ((dt = cast_type(k, k->body, p->name, type, sizeof(type),
		    &lanes)) == NULL)
			continue;
		copy(p->type, sizeof(p->type), type);
		p->dt = dt;
		p->lanes = lanes;
		guess(k, "%s: element type %s from the kernel's cast of it",
		    p->name, type);
	}
}

json_t *
byvalue_field_json(struct kern *k, const struct field *f)
{
	if (f->null)
		return json_pack("{s:s,s:s,s:s,s:i,s:s}", "name", f->name,
		    "type", f->type, "dtype", "uint64", "offset", f->offset,
		    "use", "null");
	return json_pack("{s:s,s:s,s:s,s:i,s:s,s:s}", "name", f->name, "type",
	    f->type, "dtype", f->dt != NULL ? f->dt->name : "bytes", "offset",
	    f->offset, "use", "buffer", "buffer", f->buf >= 0 ?
	    k->p[f->buf].name : "");
}
