/*
 * kslice: names that only the text of a taken declaration shows, not its
 * syntax tree: the arguments of an attribute (__launch_bounds__(THREADS))
 * and code the preprocessor skipped on the side that was parsed (the
 * other branch of #if __CUDA_ARCH__).  Each identifier there that names a
 * declaration at namespace scope in a project file brings that
 * declaration, as a reference would.
 */
#include "kslice.h"

static int
named_cmp(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;

	return strcmp(a->name, b->name);
}

static void
add_named(struct parsed *p, CXCursor c, CXCursor as)
{
	struct fileinfo *fi;
	char *name;

	fi = where(p, clang_getCursorLocation(c), NULL, NULL);
	if (fi == NULL || fi->cls != F_PROJECT)
		return;
	name = k_take(clang_getCursorSpelling(c));
	if (name[0] == '\0' || !is_ident_char((unsigned char)name[0])) {
		free(name);
		return;
	}
	if (p->nnamed == p->capnamed) {
		p->capnamed = p->capnamed ? p->capnamed * 2 : 64;
		p->named = k_realloc(p->named, p->capnamed *
		    sizeof(*p->named));
	}
	p->named[p->nnamed].name = name;
	p->named[p->nnamed].c = as;
	p->nnamed++;
}

static enum CXChildVisitResult
collect_named(CXCursor c, CXCursor parent, CXClientData data)
{
	struct parsed *p = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	switch (k) {
	case CXCursor_Namespace:
	case CXCursor_LinkageSpec:
	case CXCursor_UnexposedDecl:
		return CXChildVisit_Recurse;
	case CXCursor_EnumDecl:
		add_named(p, c, c);
		/* an unscoped enum's constants are names of the scope */
		if (!clang_EnumDecl_isScoped(c))
			clang_visitChildren(c, collect_named, p);
		return CXChildVisit_Continue;
	case CXCursor_EnumConstantDecl:
		add_named(p, c, parent);
		return CXChildVisit_Continue;
	case CXCursor_FunctionDecl:
	case CXCursor_FunctionTemplate:
	case CXCursor_VarDecl:
	case CXCursor_StructDecl:
	case CXCursor_ClassDecl:
	case CXCursor_UnionDecl:
	case CXCursor_ClassTemplate:
	case CXCursor_TypedefDecl:
	case CXCursor_TypeAliasDecl:
	case CXCursor_TypeAliasTemplateDecl:
		add_named(p, c, c);
		return CXChildVisit_Continue;
	default:
		return CXChildVisit_Continue;
	}
}

/* The index of namespace-scope project names, built on first use. */
static void
index_names(struct parsed *p)
{
	if (p->named_done)
		return;
	clang_visitChildren(clang_getTranslationUnitCursor(p->tu),
	    collect_named, p);
	if (p->nnamed > 1)
		qsort(p->named, p->nnamed, sizeof(*p->named), named_cmp);
	p->named_done = 1;
}

/* The first entry of the (indexed) names not below name: the ones named
 * name, or starting with it, follow from there. */
static size_t
named_first(const struct parsed *p, const char *name)
{
	struct named key;
	size_t lo = 0, hi = p->nnamed, m;

	key.name = (char *)name;	/* only read */
	while (lo < hi) {
		m = (lo + hi) / 2;
		if (named_cmp(&p->named[m], &key) < 0)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* The ranges of fi the preprocessor skipped, fetched once. */
static void
skipped_of(struct parsed *p, struct fileinfo *fi)
{
	CXSourceRangeList *l;
	unsigned i;

	if (fi->skipped_done)
		return;
	fi->skipped_done = 1;
	l = clang_getSkippedRanges(p->tu, fi->file);
	if (l == NULL)
		return;
	if (l->count > 0) {
		fi->skipped = k_calloc(l->count, 2 * sizeof(unsigned));
		for (i = 0; i < l->count; i++) {
			clang_getSpellingLocation(clang_getRangeStart(
			    l->ranges[i]), NULL, NULL, NULL,
			    &fi->skipped[2 * i]);
			clang_getSpellingLocation(clang_getRangeEnd(
			    l->ranges[i]), NULL, NULL, NULL,
			    &fi->skipped[2 * i + 1]);
		}
		fi->nskipped = l->count;
	}
	clang_disposeSourceRangeList(l);
}

/* Where the body of a function (or the members of a class) begins: the
 * text before it is the head, with the attributes. */
static enum CXChildVisitResult
find_body(CXCursor c, CXCursor parent, CXClientData data)
{
	CXCursor *body = data;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CompoundStmt) {
		*body = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* Every identifier in s[a, b) that names a project declaration at
 * namespace scope: add it. */
static void
names_in(struct closure *cl, struct item *it, unsigned a, unsigned b)
{
	struct parsed *p = cl->p;
	const char *s = it->fi->text;
	unsigned i = a, j;
	char buf[256];
	size_t lo, m;

	while (i < b) {
		if (!is_ident_char(s[i]) || isdigit((unsigned char)s[i])) {
			if (isdigit((unsigned char)s[i]))
				while (i < b && is_ident_char(s[i]))
					i++;
			else
				i++;
			continue;
		}
		for (j = i; j < b && is_ident_char(s[j]); j++)
			;
		/* not a member: a.x, p->x */
		if (j - i < sizeof(buf) && !(i > 0 && (s[i - 1] == '.' ||
		    (i > 1 && s[i - 1] == '>' && s[i - 2] == '-')))) {
			memcpy(buf, s + i, j - i);
			buf[j - i] = '\0';
			lo = named_first(p, buf);
			/* not the declaration's own name (a forward
			 * declaration of it, its other overloads) */
			for (m = lo; m < p->nnamed && strcmp(buf,
			    it->name) != 0 &&
			    strcmp(p->named[m].name, buf) == 0; m++)
				add_decl(cl, p->named[m].c);
		}
		i = j;
	}
}

void
follow_hidden_names(struct closure *cl, struct item *it)
{
	struct parsed *p = cl->p;
	struct fileinfo *fi = it->fi;
	CXCursor body = clang_getNullCursor();
	unsigned head, i, a, b;

	if (it->kind != I_DECL || fi->text == NULL)
		return;
	index_names(p);
	if (p->nnamed == 0)
		return;
	skipped_of(p, fi);
	/* the head, up to the body of a function */
	head = it->a;
	clang_visitChildren(it->c, find_body, &body);
	if (!clang_Cursor_isNull(body)) {
		where(p, clang_getRangeStart(clang_getCursorExtent(body)),
		    NULL, &head);
		if (head < it->a || head > it->b)
			head = it->a;
	}
	if (head > it->a)
		names_in(cl, it, it->a, head);
	for (i = 0; i < fi->nskipped; i++) {
		/* a range inside the declaration: one that holds all of it
		 * is a second inclusion of the file, skipped by its guard */
		a = fi->skipped[2 * i];
		b = fi->skipped[2 * i + 1];
		if (a >= it->a && b <= it->b && a < b && b <= fi->size)
			names_in(cl, it, a, b);
	}
}

/* The record a parameter's type names, through references, pointers and
 * a template's specialization, canonical; a null cursor when none. */
static CXCursor
param_record(CXType t)
{
	CXCursor d, tm;
	int guard;

	for (guard = 0; guard < 8 && (t.kind == CXType_LValueReference ||
	    t.kind == CXType_RValueReference || t.kind == CXType_Pointer);
	    guard++)
		t = clang_getPointeeType(t);
	d = clang_getTypeDeclaration(t);
	if (clang_Cursor_isNull(d) || clang_isInvalid(clang_getCursorKind(d)))
		return clang_getNullCursor();
	tm = clang_getSpecializedCursorTemplate(d);
	if (!clang_Cursor_isNull(tm))
		d = tm;
	return clang_getCanonicalCursor(d);
}

struct opscan {
	CXCursor rec;		/* canonical */
	int hit;
};

static enum CXChildVisitResult
param_of(CXCursor c, CXCursor parent, CXClientData data)
{
	struct opscan *o = data;
	CXCursor r;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_ParmDecl)
		return CXChildVisit_Continue;
	r = param_record(clang_getCursorType(c));
	if (!clang_Cursor_isNull(r) && clang_equalCursors(r, o->rec)) {
		o->hit = 1;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/*
 * A free operator declared for a project type is called by no name: a
 * template helper's "a < b" on its type parameter finds it by
 * argument-dependent lookup only when it is instantiated, where the
 * syntax tree of the helper shows no reference.  A record that comes into
 * the slice brings the namespace-scope operators one of whose parameters
 * is that record (by value, reference or pointer).
 */
void
add_operators(struct closure *cl, CXCursor rec)
{
	struct parsed *p = cl->p;
	struct opscan o;
	size_t m;
	const char *n;

	index_names(p);
	o.rec = clang_getCanonicalCursor(rec);
	for (m = named_first(p, "operator"); m < p->nnamed; m++) {
		n = p->named[m].name;
		if (strncmp(n, "operator", 8) != 0)
			break;
		if (is_ident_char((unsigned char)n[8]))
			continue;	/* operator_like, a plain name */
		o.hit = 0;
		clang_visitChildren(p->named[m].c, param_of, &o);
		if (o.hit)
			add_decl(cl, p->named[m].c);
	}
}

void
free_named(struct parsed *p)
{
	size_t i;

	for (i = 0; i < p->nnamed; i++)
		free(p->named[i].name);
	free(p->named);
	for (i = 0; i < p->nfiles; i++)
		free(p->files[i]->skipped);
}

/* Argument spelling s, when it names (or ends in the name of) a class,
 * union, enumeration, type alias or class template (the argument of a
 * template template parameter) at namespace scope in a project file:
 * its declaration comes with the slice, and out gets {s: true}. */
static void
class_named(struct closure *cl, const char *s, json_t *out)
{
	struct parsed *p = cl->p;
	const char *last, *q;
	char *name;
	size_t m;
	int found = 0, targs;

	if (s == NULL || json_object_get(out, s) != NULL)
		return;
	for (q = s, last = s; *q != '\0'; q++)
		if (q[0] == ':' && q[1] == ':') {
			last = q + 2;
			q++;
		} else if (!is_ident_char(*q))
			break;
	/* a class template's specialization, its arguments bound from the
	 * launcher's calls (traits<float, 768, 4>): the template comes */
	targs = *q == '<' && s[strlen(s) - 1] == '>';
	if ((*q != '\0' && !targs) || *last == '\0' ||
	    isdigit((unsigned char)*last))
		return;
	name = k_strndup(last, (size_t)(q - last));
	index_names(p);
	for (m = named_first(p, name); m < p->nnamed &&
	    strcmp(p->named[m].name, name) == 0; m++) {
		if (targs && clang_getCursorKind(p->named[m].c) !=
		    CXCursor_ClassTemplate)
			continue;
		switch (clang_getCursorKind(p->named[m].c)) {
		case CXCursor_StructDecl:
		case CXCursor_ClassDecl:
		case CXCursor_UnionDecl:
		case CXCursor_EnumDecl:
		case CXCursor_TypedefDecl:
		case CXCursor_TypeAliasDecl:
		case CXCursor_ClassTemplate:	/* a template template argument */
		case CXCursor_TypeAliasTemplateDecl:
			add_decl(cl, p->named[m].c);
			found = 1;
			break;
		default:
			break;
		}
	}
	free(name);
	if (found)
		json_object_set_new(out, s, json_true());
}

/*
 * The project classes a launch names as template arguments where the parse
 * could not resolve the launch (kernel<scalar_t, RowOffset> inside a
 * dispatch macro's lambda, whose tensors the stand-ins cannot type): each
 * argument that is a name, or the last part of a qualified one, of a
 * class, union, enumeration or type alias at namespace scope in a project
 * file comes with the slice; the result, {spelling: true}, tells the
 * instances that it binds its parameter as written.
 */
json_t *
launch_classes(struct closure *cl, json_t *scan)
{
	json_t *out = json_object(), *l, *a;
	size_t i, j;

	json_array_foreach(json_object_get(scan, "launches"), i, l)
		json_array_foreach(json_object_get(l, "template_args"), j, a)
			class_named(cl, json_string_value(a), out);
	return out;
}

/*
 * The project classes the kernel's explicit instantiations name as
 * template arguments (template __global__ void k<io_traits>(...);):
 * they come with the slice, whose instance binds them, as a launch's do.
 */
void
explicit_classes(struct closure *cl, json_t *explicit)
{
	json_t *seen = json_object(), *e, *a;
	size_t i, j;

	json_array_foreach(explicit, i, e)
		json_array_foreach(e, j, a)
			class_named(cl, json_string_value(a), seen);
	json_decref(seen);
}
