/*
 * kslice: the dependency closure of a kernel, walked on the AST
 * (declarations, specializations, using-declarations and aliases) and on
 * the preprocessing record (macros).
 */
#include "kslice.h"


static const char *
kind_name(enum CXCursorKind k)
{
	switch (k) {
	case CXCursor_FunctionDecl:
		return "function";
	case CXCursor_FunctionTemplate:
		return "function-template";
	case CXCursor_StructDecl:
	case CXCursor_ClassDecl:
	case CXCursor_UnionDecl:
		return "type";
	case CXCursor_ClassTemplate:
	case CXCursor_ClassTemplatePartialSpecialization:
		return "type-template";
	case CXCursor_TypedefDecl:
	case CXCursor_TypeAliasDecl:
	case CXCursor_TypeAliasTemplateDecl:
		return "typedef";
	case CXCursor_EnumDecl:
		return "enum";
	case CXCursor_VarDecl:
		return "variable";
	case CXCursor_UsingDeclaration:
	case CXCursor_UsingDirective:
	case CXCursor_NamespaceAlias:
		return "using";
	default:
		return "declaration";
	}
}

char *
ns_chain(CXCursor c)
{
	CXCursor p = clang_getCursorSemanticParent(c);
	enum CXCursorKind k = clang_getCursorKind(p);
	char *outer, *name, *r;

	if (clang_Cursor_isNull(p) || k != CXCursor_Namespace)
		return k_strdup("");
	outer = ns_chain(p);
	name = k_take(clang_getCursorSpelling(p));
	r = k_asprintf("%s%s%s", outer, outer[0] != '\0' ? "::" : "",
	    name[0] != '\0' ? name : "(anonymous)");
	free(outer);
	free(name);
	return r;
}

char *
qualified_name(CXCursor c)
{
	char *q = ns_chain(c), *n = k_take(clang_getCursorSpelling(c)), *r;

	if (q[0] == '\0') {
		free(q);
		return n;
	}
	r = k_asprintf("%s::%s", q, n);
	free(q);
	free(n);
	return r;
}

/* The namespace a declaration is written in: a member defined outside
 * its class stands in the namespace around the definition. */
static char *
member_ns(CXCursor c)
{
	CXCursor lp = clang_getCursorLexicalParent(c);
	enum CXCursorKind sk = clang_getCursorKind(
	    clang_getCursorSemanticParent(c));
	char *outer, *name, *r;

	if (sk == CXCursor_Namespace || sk == CXCursor_TranslationUnit ||
	    clang_getCursorKind(lp) != CXCursor_Namespace)
		return ns_chain(c);
	outer = ns_chain(lp);
	name = k_take(clang_getCursorSpelling(lp));
	r = k_asprintf("%s%s%s", outer, outer[0] != '\0' ? "::" : "",
	    name[0] != '\0' ? name : "(anonymous)");
	free(outer);
	free(name);
	return r;
}

static struct item *
find_item(struct closure *cl, struct fileinfo *fi, unsigned a)
{
	size_t i;

	for (i = 0; i < cl->n; i++)
		if (cl->v[i].fi == fi && cl->v[i].a == a)
			return &cl->v[i];
	return NULL;
}

struct item *
new_item(struct closure *cl)
{
	struct item *it;

	if (cl->n == cl->cap) {
		cl->cap = cl->cap ? cl->cap * 2 : 32;
		cl->v = k_realloc(cl->v, cl->cap * sizeof(*cl->v));
	}
	it = &cl->v[cl->n++];
	memset(it, 0, sizeof(*it));
	return it;
}

static void
add_stub(struct closure *cl, struct fileinfo *fi)
{
	struct item *it;
	size_t i;

	if (find_item(cl, fi, 0) != NULL)
		return;
	it = new_item(cl);
	it->kind = I_STUB;
	it->fi = fi;
	it->a = 0;
	it->b = (unsigned)fi->size;
	it->line = 1;
	it->name = k_strdup(fi->stubname);
	it->what = "stub";
	it->ns = k_strdup("");
	it->c = clang_getNullCursor();
	/* the stubs it includes come with it */
	for (i = 0; i < fi->nincl; i++)
		if (fi->incl[i]->cls == F_STUB)
			add_stub(cl, fi->incl[i]);
}

static int directive(const char *s, size_t i, size_t end);

/* Whether the line s[i, e) may stand in a block of configuration: blank,
 * a comment, a directive other than an #include of a project header, or
 * the continuation of the line before it. */
static int
config_line(const char *s, size_t i, size_t e)
{
	size_t p = i;

	if (i > 1 && s[i - 1] == '\n' && s[i - 2] == '\\')
		return 1;	/* a continuation */
	while (p < e && (s[p] == ' ' || s[p] == '\t' || s[p] == '\r'))
		p++;
	if (p == e || (e - p >= 2 && s[p] == '/' && (s[p + 1] == '/' ||
	    s[p + 1] == '*')) || s[p] == '*')
		return 1;
	if (s[p] != '#')
		return 0;
	for (p++; p < e && (s[p] == ' ' || s[p] == '\t'); p++)
		;
	if (e - p >= 7 && strncmp(s + p, "include", 7) == 0) {
		for (p += 7; p < e && (s[p] == ' ' || s[p] == '\t'); p++)
			;
		return p < e && s[p] == '<';
	}
	return 1;
}

/*
 * A #define inside a conditional that holds only configuration
 * (directives and comments, no code): the whole conditional, [*pa, *pb),
 * every branch, so that the compiler of the slice picks its own branch
 * where the parse took another ("#if defined(__NVCC__) / #define HD
 * __host__ __device__ / #else / #define HD inline / #endif").  Unchanged
 * when the #define is in no conditional or the conditional holds code.
 */
static void
whole_conditional(const struct fileinfo *fi, unsigned *pa, unsigned *pb)
{
	const char *s = fi->text;
	size_t a = *pa, b = *pb, ls, e, open, close;
	int depth = 0, d, lines = 0;

	if (s == NULL || a == 0)
		return;
	/* back to the #if that opens the conditional around a */
	for (ls = a;;) {
		if (ls == 0 || ++lines > 400)
			return;
		e = ls - 1;	/* the '\n' ending the line before */
		for (ls = e; ls > 0 && s[ls - 1] != '\n'; ls--)
			;
		d = directive(s, ls, e);
		if (d == -1)
			depth++;
		else if (d == 1 && depth == 0)
			break;
		else if (d == 1)
			depth--;
	}
	open = ls;
	/* on to its #endif, every line configuration */
	for (ls = open, depth = 0, lines = 0; ls < fi->size; ls = e + 1) {
		for (e = ls; e < fi->size && s[e] != '\n'; e++)
			;
		if (++lines > 400 || !config_line(s, ls, e))
			return;
		d = directive(s, ls, e);
		if (d == 1)
			depth++;
		else if (d == -1 && --depth == 0)
			break;
	}
	if (ls >= fi->size || e < b)
		return;
	close = e;
	*pa = (unsigned)open;
	*pb = (unsigned)close;
}

static void
add_macro(struct closure *cl, CXCursor def)
{
	struct parsed *p = cl->p;
	struct fileinfo *fi;
	unsigned a, b, line;
	struct item *it;
	const char *s;

	fi = where(p, clang_getCursorLocation(def), &line, &a);
	if (fi == NULL || fi->cls == F_SYSTEM)
		return;
	if (fi->cls == F_STUB) {
		add_stub(cl, fi);
		return;
	}
	if (fi->text == NULL || a >= fi->size)
		return;
	/* back to the '#' that starts the directive */
	s = fi->text;
	while (a > 0 && s[a - 1] != '\n')
		a--;
	/* to the end of the logical line */
	for (b = a; b < fi->size; b++) {
		if (s[b] == '\\' && b + 1 < fi->size && s[b + 1] == '\n')
			b++;
		else if (s[b] == '\\' && b + 2 < fi->size &&
		    s[b + 1] == '\r' && s[b + 2] == '\n')
			b += 2;
		else if (s[b] == '\n')
			break;
	}
	whole_conditional(fi, &a, &b);
	if (find_item(cl, fi, a) != NULL)
		return;
	it = new_item(cl);
	it->kind = I_MACRO;
	it->fi = fi;
	it->a = a;
	it->b = b;
	it->line = line;
	it->c = def;
	it->name = k_take(clang_getCursorSpelling(def));
	it->what = "macro";
	it->ns = k_strdup("");
}

/* End of an extent in file offsets, past a macro invocation the end lies
 * in (a declaration generated by a macro ends where the call does). */
unsigned
extent_end(struct parsed *p, struct fileinfo *fi, CXSourceRange r)
{
	unsigned b;
	CXCursor m;
	CXSourceLocation loc = clang_getRangeEnd(r);
	CXFile sf;

	where(p, loc, NULL, &b);
	clang_getSpellingLocation(loc, &sf, NULL, NULL, NULL);
	if (sf != NULL && clang_File_isEqual(sf, fi->file))
		return b;
	/* the end is inside a macro expansion: find that expansion */
	m = clang_getCursor(p->tu, clang_getLocationForOffset(p->tu, fi->file,
	    b));
	if (clang_getCursorKind(m) == CXCursor_MacroExpansion) {
		unsigned mb;
		where(p, clang_getRangeEnd(clang_getCursorExtent(m)), NULL,
		    &mb);
		if (mb > b)
			b = mb;
	} else {
		size_t i;
		for (i = 0; i < p->nexps; i++)
			if (p->exps[i].fi == fi && p->exps[i].a == b) {
				b = p->exps[i].b;
				break;
			}
	}
	return b;
}


static enum CXChildVisitResult
collect_spec(CXCursor c, CXCursor parent, CXClientData data)
{
	struct parsed *p = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor t;

	(void)parent;
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec ||
	    k == CXCursor_UnexposedDecl)
		return CXChildVisit_Recurse;
	if (k != CXCursor_StructDecl && k != CXCursor_ClassDecl &&
	    k != CXCursor_UnionDecl &&
	    k != CXCursor_ClassTemplatePartialSpecialization &&
	    k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod)
		return CXChildVisit_Continue;
	t = clang_getSpecializedCursorTemplate(c);
	if (clang_Cursor_isNull(t) || clang_equalLocations(
	    clang_getCursorLocation(t), clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	if (p->nspecs == p->capspecs) {
		p->capspecs = p->capspecs ? p->capspecs * 2 : 16;
		p->specs = k_realloc(p->specs, p->capspecs * sizeof(*p->specs));
	}
	p->specs[p->nspecs].tmpl = clang_getCanonicalCursor(t);
	p->specs[p->nspecs].c = c;
	p->nspecs++;
	return CXChildVisit_Continue;
}

static void add_decl_at(struct closure *cl, CXCursor c);

static enum CXChildVisitResult
has_device_attr(CXCursor c, CXCursor parent, CXClientData data)
{
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k == CXCursor_CUDADeviceAttr || k == CXCursor_CUDAGlobalAttr) {
		*(int *)data = 1;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

struct declared {
	const char *name;
	int nargs;
	int device;
};

static enum CXChildVisitResult
device_decl(CXCursor c, CXCursor parent, CXClientData data)
{
	struct declared *u = data;
	char *name;

	(void)parent;
	name = k_take(clang_getCursorSpelling(c));
	if (strcmp(name, u->name) == 0 &&
	    clang_Cursor_getNumArguments(c) == u->nargs)
		clang_visitChildren(c, has_device_attr, &u->device);
	free(name);
	return u->device ? CXChildVisit_Break : CXChildVisit_Continue;
}

/*
 * Whether class cls declares the member that c defines outside it (the
 * same name and number of parameters) as device code: nvcc gives a
 * definition that leaves out the execution space its declaration's
 * (glm's GLM_FUNC_DECL in the class, nothing on the definition), where
 * clang sees a host function beside the declared one, with a USR of its
 * own.
 */
static int
declared_device(CXCursor cls, CXCursor c)
{
	struct declared u;
	char *name = k_take(clang_getCursorSpelling(c));

	u.name = name;
	u.nargs = clang_Cursor_getNumArguments(c);
	u.device = 0;
	if (name[0] != '\0')
		clang_visitChildren(cls, device_decl, &u);
	free(name);
	return u.device;
}

/* Member c defined outside class cls, kept under cls. */
static void
push_member(struct parsed *p, CXCursor cls, CXCursor c)
{
	if (p->nmembers == p->capmembers) {
		p->capmembers = p->capmembers ? p->capmembers * 2 : 16;
		p->members = k_realloc(p->members, p->capmembers *
		    sizeof(*p->members));
	}
	p->members[p->nmembers].tmpl = clang_getCanonicalCursor(cls);
	p->members[p->nmembers].c = c;
	p->nmembers++;
}

/* A project member function defined outside its class
 * (template <class K> __device__ void Table<K>::view::insert(K k) {...}),
 * that device code can call. */
static enum CXChildVisitResult
collect_member(CXCursor c, CXCursor parent, CXClientData data)
{
	struct parsed *p = data;
	enum CXCursorKind k = clang_getCursorKind(c), pk;
	struct fileinfo *fi;
	CXCursor cls, up;
	int device = 0;

	(void)parent;
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec ||
	    k == CXCursor_UnexposedDecl)
		return CXChildVisit_Recurse;
	if (k != CXCursor_CXXMethod && k != CXCursor_FunctionTemplate &&
	    k != CXCursor_Constructor && k != CXCursor_Destructor &&
	    k != CXCursor_ConversionFunction)
		return CXChildVisit_Continue;
	cls = clang_getCursorSemanticParent(c);
	pk = clang_getCursorKind(cls);
	if (pk != CXCursor_StructDecl && pk != CXCursor_ClassDecl &&
	    pk != CXCursor_UnionDecl && pk != CXCursor_ClassTemplate &&
	    pk != CXCursor_ClassTemplatePartialSpecialization)
		return CXChildVisit_Continue;
	if (!clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	fi = where(p, clang_getCursorLocation(c), NULL, NULL);
	if (fi == NULL || fi->cls != F_PROJECT)
		return CXChildVisit_Continue;
	clang_visitChildren(c, has_device_attr, &device);
	if (!device && !declared_device(cls, c))
		return CXChildVisit_Continue;
	/* the class at namespace scope that holds it */
	for (up = clang_getCursorSemanticParent(cls); ; cls = up,
	    up = clang_getCursorSemanticParent(up)) {
		pk = clang_getCursorKind(up);
		if (clang_Cursor_isNull(up) || pk == CXCursor_TranslationUnit ||
		    pk == CXCursor_Namespace || pk == CXCursor_LinkageSpec ||
		    pk == CXCursor_UnexposedDecl || clang_isInvalid(pk))
			break;
	}
	push_member(p, cls, c);
	/* a member of a specialization of a class template
	 * (template <> template <class T> R Get<0>::of(const T &)) comes
	 * with the template, whose uses name the specialization */
	up = clang_getSpecializedCursorTemplate(cls);
	if (!clang_Cursor_isNull(up))
		push_member(p, up, c);
	return CXChildVisit_Continue;
}

/*
 * A class brings the device member functions defined outside it: a
 * kernel that calls view.insert() through a template parameter, or a
 * method whose declaration alone the class holds, needs the definition,
 * and no reference in the kernel names it (NVVM's "Broken module found",
 * ptxas' "Unresolved extern function" otherwise).
 */
static void
add_members(struct closure *cl, CXCursor c)
{
	struct parsed *p = cl->p;
	CXCursor canon = clang_getCanonicalCursor(c);
	size_t i;

	if (!p->members_done) {
		clang_visitChildren(clang_getTranslationUnitCursor(p->tu),
		    collect_member, p);
		p->members_done = 1;
	}
	for (i = 0; i < p->nmembers; i++)
		if (clang_equalCursors(p->members[i].tmpl, canon))
			add_decl_at(cl, p->members[i].c);
}

/*
 * A template brings its explicit specializations: a kernel that names
 * InternalType<T> needs InternalType<float> for T = float, and a call of
 * to_acc<T>() whose primary template is only declared needs the
 * specialization to_acc<float>() that defines it; no reference in the
 * template's body says so.  A class brings those of its member templates
 * that are specialized outside it.
 */
static void
add_specs(struct closure *cl, CXCursor c)
{
	struct parsed *p = cl->p;
	CXCursor canon = clang_getCanonicalCursor(c);
	size_t i;

	if (!p->specs_done) {
		clang_visitChildren(clang_getTranslationUnitCursor(p->tu),
		    collect_spec, p);
		p->specs_done = 1;
	}
	for (i = 0; i < p->nspecs; i++)
		if (clang_equalCursors(p->specs[i].tmpl, canon) ||
		    clang_equalCursors(clang_getCanonicalCursor(
		    clang_getCursorSemanticParent(p->specs[i].tmpl)), canon))
			add_decl_at(cl, p->specs[i].c);
}

/* The directive on the line at s[i], if any: 1 opens a conditional,
 * -1 closes one, 2 is #else or #elif, 0 anything else. */
static int
directive(const char *s, size_t i, size_t end)
{
	while (i < end && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i >= end || s[i] != '#')
		return 0;
	for (i++; i < end && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	if (end - i >= 5 && strncmp(s + i, "endif", 5) == 0)
		return -1;
	if (end - i >= 2 && strncmp(s + i, "if", 2) == 0)
		return 1;
	if (end - i >= 4 && (strncmp(s + i, "else", 4) == 0 ||
	    strncmp(s + i, "elif", 4) == 0))
		return 2;
	return 0;
}

/* Widen [a, b) of fi to whole conditionals when it holds part of one:
 * "#ifdef __CUDACC__ / __host__ __device__ / #endif" before a function
 * whose extent starts at __host__. */
static void
balance_ifs(struct fileinfo *fi, unsigned *pa, unsigned *pb)
{
	const char *s = fi->text;
	size_t a = *pa, b = *pb, i, open = 0, need = 0, e;
	int d, pending = 0;

	if (s == NULL || b > fi->size)
		return;
	for (i = a; i < b; i = e + 1) {
		for (e = i; e < b && s[e] != '\n'; e++)
			;
		if ((i == a && i > 0 && s[i - 1] != '\n'))
			continue;	/* not a line start */
		d = directive(s, i, e);
		if (d == 1)
			open++;
		else if (d == -1 && open > 0)
			open--;
		else if (d == -1) {
			need++;
			pending = 0;
		} else if (d == 2 && open == 0)
			pending = 1;	/* #else of a conditional open before */
		if (e >= b)
			break;
	}
	if (pending) {
		need++;
		open++;
	}
	/* back to the #if that each unmatched #endif closes */
	while (need > 0 && a > 0) {
		size_t ls = a - 1;
		if (ls > 0)
			ls--;
		while (ls > 0 && s[ls - 1] != '\n')
			ls--;
		for (e = ls; e < fi->size && s[e] != '\n'; e++)
			;
		d = directive(s, ls, e);
		a = ls;
		if (d == -1)
			need++;
		else if (d == 1)
			need--;
	}
	/* on to the #endif of each conditional left open */
	while (open > 0 && b < fi->size) {
		size_t ls = b;
		while (ls < fi->size && s[ls] != '\n')
			ls++;
		if (ls < fi->size)
			ls++;
		for (e = ls; e < fi->size && s[e] != '\n'; e++)
			;
		d = directive(s, ls, e);
		b = e;
		if (ls >= fi->size)
			break;
		if (d == 1)
			open++;
		else if (d == -1)
			open--;
	}
	if (need == 0)
		*pa = (unsigned)a;
	if (open == 0)
		*pb = (unsigned)b;
}

/*
 * A member template of a class template defined outside its class has
 * two template headers,
 *
 *	template <int N, typename T>
 *	template <typename U>
 *	vec<N, T>::vec(const vec<N, U> &o) { ... }
 *
 * and its extent starts at the last, its own: the class's parameters,
 * which the definition names, would be left behind.  The offset where
 * the headers just before a start (only white space between them), else
 * a.
 */
static unsigned
outer_templates(const struct fileinfo *fi, unsigned a)
{
	const char *s = fi->text;
	size_t i, j;
	int depth;

	if (s == NULL || a > fi->size)
		return a;
	for (;;) {
		i = a;
		while (i > 0 && isspace((unsigned char)s[i - 1]))
			i--;
		if (i == 0 || s[i - 1] != '>')
			return a;
		/* back to the '<' that opens the list */
		depth = 0;
		for (j = i; j > 0; j--) {
			if (s[j - 1] == '>')
				depth++;
			else if (s[j - 1] == '<' && --depth == 0)
				break;
			else if (s[j - 1] == ';' || s[j - 1] == '{' ||
			    s[j - 1] == '}')
				return a;
		}
		if (j == 0)
			return a;
		j--;
		while (j > 0 && isspace((unsigned char)s[j - 1]))
			j--;
		if (j < 8 || strncmp(s + j - 8, "template", 8) != 0 ||
		    (j > 8 && is_ident_char(s[j - 9])))
			return a;
		a = (unsigned)(j - 8);
	}
}

/*
 * A declaration under a one-line linkage specification, extern "C" T x;:
 * its extent starts after the specification, and the text without it is
 * a definition where the source has a declaration (a second one where the
 * file defines x as well).  The offset where the specification starts,
 * else a.
 */
static unsigned
linkage_start(const struct fileinfo *fi, unsigned a)
{
	const char *s = fi->text;
	size_t i = a;

	if (s == NULL || a > fi->size)
		return a;
	while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t' ||
	    s[i - 1] == '\n' || s[i - 1] == '\r'))
		i--;
	if (i >= 3 && strncmp(s + i - 3, "\"C\"", 3) == 0)
		i -= 3;
	else if (i >= 5 && strncmp(s + i - 5, "\"C++\"", 5) == 0)
		i -= 5;
	else
		return a;
	while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'))
		i--;
	if (i < 6 || strncmp(s + i - 6, "extern", 6) != 0 ||
	    (i > 6 && is_ident_char(s[i - 7])))
		return a;
	return (unsigned)(i - 6);
}

static void
add_decl_at(struct closure *cl, CXCursor c)
{
	struct parsed *p = cl->p;
	CXSourceRange r = clang_getCursorExtent(c);
	struct fileinfo *fi;
	struct item *it;
	unsigned a, b, line, nl, noff;
	enum CXCursorKind k = clang_getCursorKind(c);
	size_t i;

	fi = where(p, clang_getRangeStart(r), &line, &a);
	if (fi == NULL || fi->cls == F_SYSTEM)
		return;
	if (fi->cls == F_STUB) {
		add_stub(cl, fi);
		return;
	}
	if (clang_equalCursors(c, cl->kernel))
		return;
	b = extent_end(p, fi, r);
	if (b < a)
		b = a;
	a = outer_templates(fi, a);
	a = linkage_start(fi, a);
	balance_ifs(fi, &a, &b);
	if (find_item(cl, fi, a) != NULL)
		return;
	/* a declaration inside another one already taken (a macro that
	 * generates several) */
	for (i = 0; i < cl->n; i++)
		if (cl->v[i].fi == fi && cl->v[i].kind == I_DECL &&
		    cl->v[i].a <= a && b <= cl->v[i].b)
			return;
	where(p, clang_getCursorLocation(c), &nl, &noff);
	it = new_item(cl);
	it->kind = I_DECL;
	it->fi = fi;
	it->a = a;
	it->b = b;
	it->line = nl;
	it->c = c;
	it->name = k_take(clang_getCursorSpelling(c));
	it->what = kind_name(k);
	it->ns = member_ns(c);
	/* skip white space to see whether a ';' ends the declaration */
	while (b < fi->size && (fi->text[b] == ' ' || fi->text[b] == '\t' ||
	    fi->text[b] == '\n' || fi->text[b] == '\r'))
		b++;
	if (b < fi->size && fi->text[b] == ';')
		it->b = b + 1;
	else if (it->b > it->a && fi->text[it->b - 1] != '}')
		it->semi = 1;
	else if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate &&
	    k != CXCursor_CXXMethod)
		it->semi = 1;
	if (k == CXCursor_ClassTemplate || k == CXCursor_FunctionTemplate ||
	    k == CXCursor_StructDecl || k == CXCursor_ClassDecl)
		add_specs(cl, c);
	if (k == CXCursor_ClassTemplate || k == CXCursor_StructDecl ||
	    k == CXCursor_ClassDecl || k == CXCursor_UnionDecl ||
	    k == CXCursor_ClassTemplatePartialSpecialization)
		add_members(cl, c);
	if (k == CXCursor_ClassTemplate || k == CXCursor_StructDecl ||
	    k == CXCursor_ClassDecl || k == CXCursor_UnionDecl)
		add_operators(cl, c);
}

/* The declaration a reference stands for, as something a slice can hold:
 * a declaration at namespace scope, templates rather than their implicit
 * instantiations. */
/*
 * A builtin function clang declares itself where it is first called
 * (__syncthreads and the like, which a real toolkit's headers leave to
 * the compiler): its extent is the name at that call, no declaration
 * the slice could copy.
 */
static int
implicit_builtin(CXCursor r)
{
	CXSourceRange e = clang_getCursorExtent(r);
	CXFile f1, f2;
	unsigned a, b, at;
	char *name;
	size_t n;

	if (clang_getCursorKind(r) != CXCursor_FunctionDecl)
		return 0;
	clang_getSpellingLocation(clang_getRangeStart(e), &f1, NULL, NULL,
	    &a);
	clang_getSpellingLocation(clang_getRangeEnd(e), &f2, NULL, NULL, &b);
	clang_getSpellingLocation(clang_getCursorLocation(r), NULL, NULL,
	    NULL, &at);
	name = k_take(clang_getCursorSpelling(r));
	n = strlen(name);
	free(name);
	return f1 != NULL && clang_File_isEqual(f1, f2) && a == at &&
	    b == a + n;
}

void
add_decl(struct closure *cl, CXCursor r)
{
	CXCursor t, par, def;
	enum CXCursorKind k;
	int guard;

	for (guard = 0; guard < 32; guard++) {
		if (clang_Cursor_isNull(r) || clang_isInvalid(
		    clang_getCursorKind(r)))
			return;
		t = clang_getSpecializedCursorTemplate(r);
		if (!clang_Cursor_isNull(t)) {
			if (clang_equalLocations(clang_getCursorLocation(t),
			    clang_getCursorLocation(r)))
				r = t;	/* an implicit instantiation */
			else
				add_decl(cl, t);	/* explicit one */
		}
		par = clang_getCursorSemanticParent(r);
		k = clang_getCursorKind(par);
		/* extern "C" { }, which libclang may call UnexposedDecl */
		if (clang_Cursor_isNull(par) || k == CXCursor_TranslationUnit ||
		    k == CXCursor_Namespace || k == CXCursor_LinkageSpec ||
		    k == CXCursor_UnexposedDecl || clang_isInvalid(k))
			break;
		r = par;
	}
	k = clang_getCursorKind(r);
	if (k == CXCursor_Namespace || k == CXCursor_TranslationUnit ||
	    k == CXCursor_NamespaceAlias || k == CXCursor_UsingDirective ||
	    k == CXCursor_TemplateTypeParameter ||
	    k == CXCursor_NonTypeTemplateParameter ||
	    k == CXCursor_ParmDecl || !clang_isDeclaration(k) ||
	    implicit_builtin(r))
		return;
	def = clang_getCursorDefinition(r);
	if (!clang_Cursor_isNull(def) && !clang_equalCursors(def, r))
		add_decl_at(cl, def);
	add_decl_at(cl, r);
}

/* "namespace cg = cooperative_groups;" at namespace scope: the alias is a
 * declaration the slice needs (add_decl takes no namespaces); the
 * namespace it names comes with the declarations used through it, or with
 * the include that declares it.  The alias's own NamespaceRef brings the
 * alias it names, if any, when the closure visits it. */
static void
add_alias(struct closure *cl, CXCursor a)
{
	enum CXCursorKind pk;

	if (clang_Cursor_isNull(a) ||
	    clang_getCursorKind(a) != CXCursor_NamespaceAlias)
		return;
	pk = clang_getCursorKind(clang_getCursorSemanticParent(a));
	if (pk != CXCursor_TranslationUnit && pk != CXCursor_Namespace &&
	    pk != CXCursor_LinkageSpec)
		return;	/* local to a function: comes with its body */
	add_decl_at(cl, a);
}

static enum CXChildVisitResult
follow_refs(CXCursor c, CXCursor parent, CXClientData data)
{
	struct closure *cl = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	unsigned i, n;

	(void)parent;
	switch (k) {
	case CXCursor_OverloadedDeclRef:
		n = clang_getNumOverloadedDecls(c);
		for (i = 0; i < n; i++)
			add_decl(cl, clang_getOverloadedDecl(c, i));
		break;
	case CXCursor_NamespaceRef:
		add_alias(cl, clang_getCursorReferenced(c));
		break;
	case CXCursor_TypeRef:
	case CXCursor_TemplateRef:
	case CXCursor_DeclRefExpr:
	case CXCursor_MemberRefExpr:
	case CXCursor_MemberRef:
	case CXCursor_VariableRef:
	case CXCursor_CallExpr:
		add_decl(cl, clang_getCursorReferenced(c));
		break;
	default:
		break;
	}
	if (clang_isExpression(k) || clang_isDeclaration(k)) {
		/* a type spelled through a typedef shows in no TypeRef when
		 * it comes from a macro: follow the declared type too */
		CXType ty = clang_getCursorType(c);
		CXCursor td = clang_getTypeDeclaration(ty);
		if (!clang_Cursor_isNull(td) &&
		    clang_getCursorKind(td) != CXCursor_NoDeclFound)
			add_decl(cl, td);
	}
	return CXChildVisit_Recurse;
}

/* Macros expanded inside [a, b) of fi, and the macros their bodies name. */
static void
follow_macros(struct closure *cl, struct fileinfo *fi, unsigned a,
    unsigned b)
{
	struct parsed *p = cl->p;
	size_t i;

	for (i = 0; i < p->nexps; i++)
		if (p->exps[i].fi == fi && p->exps[i].a >= a &&
		    p->exps[i].a < b && !clang_Cursor_isNull(p->exps[i].def))
			add_macro(cl, p->exps[i].def);
}

/* Project macros named in the text [a, b) of fi: a macro body, or code
 * in a branch of #if that this parse did not take (__CUDA_ARCH__). */
static void
follow_macro_names(struct closure *cl, struct fileinfo *fi, unsigned a,
    unsigned b, int skip)
{
	struct parsed *p = cl->p;
	const char *s = fi->text;
	unsigned i = a, j;
	size_t d;

	if (s == NULL)
		return;
	/* skip "#define NAME" */
	while (skip && i < b && s[i] != '#')
		i++;
	for (j = 0; skip && j < 2 && i < b; j++) {
		while (i < b && !is_ident_char(s[i]))
			i++;
		while (i < b && is_ident_char(s[i]))
			i++;
	}
	while (i < b) {
		if (!is_ident_char(s[i]) || isdigit((unsigned char)s[i])) {
			if (isdigit((unsigned char)s[i]))
				while (i < b && is_ident_char(s[i]))
					i++;
			else
				i++;
			continue;
		}
		j = i;
		while (j < b && is_ident_char(s[j]))
			j++;
		for (d = p->ndefs; d-- > 0;)
			if (strlen(p->defs[d].name) == j - i &&
			    strncmp(p->defs[d].name, s + i, j - i) == 0 &&
			    p->defs[d].fi->cls != F_SYSTEM) {
				add_macro(cl, p->defs[d].c);
				break;
			}
		i = j;
	}
}

/* Whether the text of an item the slice holds spells name unqualified:
 * not after "::", ".", "->", not part of a longer identifier. */
static int
spelled_unqualified(struct closure *cl, const char *name)
{
	size_t i, n = strlen(name), o;
	const char *t, *q;
	unsigned a;

	for (i = 0; i < cl->n && n > 0; i++) {
		const struct item *it = &cl->v[i];

		if (it->kind != I_DECL || (t = it->fi->text) == NULL)
			continue;
		for (a = it->a; a < it->b && (q = memmem(t + a, it->b - a,
		    name, n)) != NULL; a = (unsigned)(o + 1)) {
			o = (size_t)(q - t);
			if (o + n > it->b || (o + n < it->fi->size &&
			    is_ident_char(t[o + n])))
				continue;
			if (o > 0 && (is_ident_char(t[o - 1]) ||
			    t[o - 1] == '.' || (o > 1 && ((t[o - 1] == ':' &&
			    t[o - 2] == ':') || (t[o - 1] == '>' &&
			    t[o - 2] == '-')))))
				continue;
			return 1;
		}
	}
	return 0;
}

/*
 * "using ns::Name;" at namespace scope in a file the slice takes from,
 * where the slice spells Name unqualified (a template argument, a
 * parameter's type): the closure reached the declaration Name stands for,
 * not the using-declaration that makes the short name visible.  Keep it
 * with what it names.
 */
static void
using_decl(struct closure *cl, CXCursor c)
{
	char *name;
	unsigned i, n;
	struct fileinfo *tfi;
	CXCursor t;

	name = k_take(clang_getCursorSpelling(c));
	if (!spelled_unqualified(cl, name)) {
		free(name);
		return;
	}
	free(name);
	n = clang_getNumOverloadedDecls(c);
	for (i = 0; i < n; i++) {
		t = clang_getOverloadedDecl(c, i);
		tfi = where(cl->p, clang_getCursorLocation(t), NULL, NULL);
		if (tfi != NULL && tfi->cls == F_STUB)
			add_stub(cl, tfi);
		else if (tfi != NULL && tfi->cls == F_PROJECT)
			add_decl(cl, t);
	}
	add_decl_at(cl, c);
}

/* Follow every item's references until nothing new comes in. */
static enum CXChildVisitResult
find_using(CXCursor c, CXCursor parent, CXClientData data)
{
	struct closure *cl = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	struct fileinfo *fi, *nfi;
	CXCursor ns;
	char *name;
	size_t i, n;
	int used = 0, mine = 0;

	(void)parent;
	if (k == CXCursor_Namespace)
		return CXChildVisit_Recurse;
	if (k != CXCursor_UsingDirective && k != CXCursor_UsingDeclaration)
		return CXChildVisit_Continue;
	fi = where(cl->p, clang_getCursorLocation(c), NULL, NULL);
	if (fi == NULL || fi->cls != F_PROJECT)
		return CXChildVisit_Continue;
	for (i = 0; i < cl->n && !mine; i++)
		mine = cl->v[i].fi == fi;
	if (k == CXCursor_UsingDeclaration) {
		if (mine)
			using_decl(cl, c);
		return CXChildVisit_Continue;
	}
	ns = clang_getCursorReferenced(c);
	if (!mine || clang_Cursor_isNull(ns))
		return CXChildVisit_Continue;
	nfi = where(cl->p, clang_getCursorLocation(ns), NULL, NULL);
	if (nfi == NULL)
		return CXChildVisit_Continue;
	if (nfi->cls == F_STUB) {
		add_stub(cl, nfi);
		used = 1;
	} else if (nfi->cls == F_SYSTEM)
		used = 1;
	else {
		/* a project namespace: only when the slice declares
		 * something in it */
		name = qualified_name(ns);
		n = strlen(name);
		for (i = 0; i < cl->n && !used; i++)
			used = cl->v[i].kind == I_DECL &&
			    strncmp(cl->v[i].ns, name, n) == 0 &&
			    (cl->v[i].ns[n] == '\0' || cl->v[i].ns[n] == ':');
		free(name);
	}
	if (used)
		add_decl_at(cl, c);
	return CXChildVisit_Continue;
}

/* Namespace aliases named as "alias::" in the text of an item, where no
 * NamespaceRef shows them: code the parse skipped (#if __CUDA_ARCH__). */
enum CXChildVisitResult
find_alias(CXCursor c, CXCursor parent, CXClientData data)
{
	struct closure *cl = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	struct fileinfo *fi;
	char *name;
	size_t i, n;
	int used = 0;

	(void)parent;
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec ||
	    k == CXCursor_UnexposedDecl)
		return CXChildVisit_Recurse;
	if (k != CXCursor_NamespaceAlias)
		return CXChildVisit_Continue;
	fi = where(cl->p, clang_getCursorLocation(c), NULL, NULL);
	if (fi == NULL || fi->cls != F_PROJECT)
		return CXChildVisit_Continue;
	name = k_take(clang_getCursorSpelling(c));
	n = strlen(name);
	for (i = 0; i < cl->n && !used && n > 0; i++) {
		const struct item *it = &cl->v[i];
		const char *t = it->fi->text, *q;
		unsigned a = it->a;

		if (it->kind != I_DECL || t == NULL)
			continue;
		while (!used && a < it->b && (q = memmem(t + a, it->b - a,
		    name, n)) != NULL) {
			size_t o = (size_t)(q - t);
			used = (o == 0 || !is_ident_char(t[o - 1])) &&
			    o + n + 1 < it->b && t[o + n] == ':' &&
			    t[o + n + 1] == ':';
			a = (unsigned)(o + 1);
		}
	}
	free(name);
	if (used)
		add_alias(cl, c);
	return CXChildVisit_Continue;
}

/* Names the slice's code reaches through "using namespace" directives and
 * "using ns::name" declarations of the files it comes from: keep them (a
 * closure follows declarations, and a directive declares nothing). */
void
add_usings(struct closure *cl)
{
	clang_visitChildren(clang_getTranslationUnitCursor(cl->p->tu),
	    find_using, cl);
}

void
close_over(struct closure *cl)
{
	size_t i;

	while (cl->done < cl->n) {
		struct item it = cl->v[cl->done++];
		size_t f;

		if (it.kind == I_DECL) {
			clang_visitChildren(it.c, follow_refs, cl);
			follow_hidden_names(cl, &cl->v[cl->done - 1]);
			follow_macros(cl, it.fi, it.a, it.b);
			follow_macro_names(cl, it.fi, it.a, it.b, 0);
		} else if (it.kind == I_MACRO)
			follow_macro_names(cl, it.fi, it.a, it.b, 1);
		/* stubs the file the item comes from includes */
		if (it.kind != I_STUB)
			for (f = 0; f < it.fi->nincl; f++)
				if (it.fi->incl[f]->cls == F_STUB)
					add_stub(cl, it.fi->incl[f]);
	}
	(void)i;
}

/* A declaration whose text lies inside another one's, taken before it
 * was: the anonymous struct of "typedef struct { } name;". */
int
inside_other(struct closure *cl, struct item *it)
{
	size_t j;

	if (it->kind != I_DECL)
		return 0;
	for (j = 0; j < cl->n; j++) {
		struct item *o = &cl->v[j];
		if (o != it && o->kind == I_DECL && o->fi == it->fi &&
		    o->a <= it->a && it->b <= o->b &&
		    (o->a != it->a || o->b != it->b))
			return 1;
	}
	return 0;
}

static int
key_cmp(const struct item *x, const struct item *y)
{
	unsigned i, ax, bx;

	for (i = 0;; i++) {
		ax = i < x->fi->nkey ? x->fi->key[i] : x->a;
		bx = i < y->fi->nkey ? y->fi->key[i] : y->a;
		if (x->kind == I_STUB && i == x->fi->nkey)
			ax = x->b;
		if (y->kind == I_STUB && i == y->fi->nkey)
			bx = y->b;
		if (ax != bx)
			return ax < bx ? -1 : 1;
		if (i >= x->fi->nkey || i >= y->fi->nkey)
			break;
	}
	if (x->fi->nkey != y->fi->nkey)
		return x->fi->nkey < y->fi->nkey ? -1 : 1;
	return 0;
}

int
item_cmp(const void *pa, const void *pb)
{
	return key_cmp(pa, pb);
}
