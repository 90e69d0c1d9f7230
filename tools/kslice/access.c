/*
 * kslice: which pointer parameters a kernel writes and reads, through its
 * callees.
 */
#include "kslice.h"

static enum CXChildVisitResult
collect_parm(CXCursor c, CXCursor parent, CXClientData data)
{
	struct parmlist *l = data;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_ParmDecl) {
		l->v = k_realloc(l->v, (l->n + 1) * sizeof(*l->v));
		l->v[l->n++] = c;
	}
	return CXChildVisit_Continue;
}

/* A function's or function template's parameters (clang gives a template's
 * only as children); free l->v. */
void
fn_params(CXCursor fn, struct parmlist *l)
{
	l->v = NULL;
	l->n = 0;
	clang_visitChildren(fn, collect_parm, l);
}


static char *
cursor_usr(CXCursor c)
{
	return k_take(clang_getCursorUSR(c));
}

/* Index of the parameter (or alias of one) c refers to, or -1. */
static int
param_index(struct pointers *pt, CXCursor ref)
{
	unsigned i;
	size_t j;
	char *usr;
	int r = -1;

	for (i = 0; i < pt->nparams; i++)
		if (clang_equalCursors(ref, pt->params[i]))
			return (int)i;
	if (clang_getCursorKind(ref) != CXCursor_VarDecl || pt->nalias == 0)
		return -1;
	usr = cursor_usr(ref);
	for (j = 0; j < pt->nalias; j++)
		if (strcmp(pt->alias[j], usr) == 0)
			r = (int)pt->alias_of[j];
	free(usr);
	return r;
}

struct firstref {
	struct pointers *pt;
	int found;
};

static enum CXChildVisitResult
find_param_ref(CXCursor c, CXCursor parent, CXClientData data)
{
	struct firstref *f = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k == CXCursor_DeclRefExpr) {
		int i = param_index(f->pt, clang_getCursorReferenced(c));
		CXType t = clang_getCanonicalType(clang_getCursorType(c));
		if (i >= 0 && (t.kind == CXType_Pointer ||
		    t.kind == CXType_IncompleteArray ||
		    t.kind == CXType_ConstantArray)) {
			f->found = i;
			return CXChildVisit_Break;
		}
	}
	/* an index is not the pointer being written through */
	if (k == CXCursor_ArraySubscriptExpr) {
		struct firstref g = { f->pt, -1 };
		clang_visitChildren(c, find_param_ref, &g);
		/* the first child is the base */
		f->found = g.found;
		return CXChildVisit_Break;
	}
	if (k == CXCursor_CallExpr)
		return CXChildVisit_Continue;
	return CXChildVisit_Recurse;
}

static int
base_param(struct pointers *pt, CXCursor e)
{
	struct firstref f = { pt, -1 };

	if (find_param_ref(e, clang_getNullCursor(), &f) == CXChildVisit_Break)
		return f.found;
	clang_visitChildren(e, find_param_ref, &f);
	return f.found;
}

struct kids {
	CXCursor v[8];
	unsigned n;
};

static enum CXChildVisitResult
kid(CXCursor c, CXCursor parent, CXClientData data)
{
	struct kids *k = data;

	(void)parent;
	if (k->n < 8)
		k->v[k->n++] = c;
	return CXChildVisit_Continue;
}

/* The operator spelled between a binary operator's operands (or before or
 * after a unary one's). */
/* The operator of a binary expression that a macro generates: libclang
 * places all its tokens at the macro's use, so they cannot tell it.  The
 * AST can tell an assignment: only there is the left side used as an
 * lvalue, with no implicit conversion (an UnexposedExpr) around it. */
static char *
op_from_ast(CXCursor c, struct kids *k)
{
	enum CXCursorKind lk = clang_getCursorKind(k->v[0]);
	if (clang_getCursorKind(c) != CXCursor_BinaryOperator ||
	    lk == CXCursor_UnexposedExpr || !clang_isExpression(lk) ||
	    (lk != CXCursor_ArraySubscriptExpr && lk != CXCursor_UnaryOperator &&
	    lk != CXCursor_ParenExpr && lk != CXCursor_MemberRefExpr &&
	    lk != CXCursor_DeclRefExpr))
		return NULL;
	return k_strdup("=");
}

static char *
op_spelling(struct parsed *p, CXCursor c, struct kids *k)
{
	CXToken *t = NULL;
	unsigned nt = 0, i, lhs_end;
	char *r = NULL;
	CXSourceRange e = clang_getCursorExtent(c);
	CXFile fa, fb;
	unsigned oa, ob;

	clang_getSpellingLocation(clang_getRangeEnd(clang_getCursorExtent(
	    k->v[0])), NULL, NULL, NULL, &lhs_end);
	/* inside a macro expansion the tokens are where they are spelled,
	 * in the macro's body */
	clang_getSpellingLocation(clang_getRangeStart(e), &fa, NULL, NULL, &oa);
	clang_getSpellingLocation(clang_getRangeEnd(e), &fb, NULL, NULL, &ob);
	if (fa != NULL && fb != NULL && clang_File_isEqual(fa, fb) && oa <= ob)
		e = clang_getRange(clang_getLocationForOffset(p->tu, fa, oa),
		    clang_getLocationForOffset(p->tu, fa, ob));
	clang_tokenize(p->tu, e, &t, &nt);
	for (i = 0; i < nt; i++) {
		CXTokenKind tk = clang_getTokenKind(t[i]);
		unsigned off;
		clang_getSpellingLocation(clang_getTokenLocation(p->tu, t[i]),
		    NULL, NULL, NULL, &off);
		if (tk != CXToken_Punctuation)
			continue;
		if (clang_getCursorKind(c) == CXCursor_UnaryOperator ||
		    off >= lhs_end) {
			char *s = k_take(clang_getTokenSpelling(p->tu, t[i]));
			/* in a macro body the left side's end is its last
			 * token, not the one after it: skip that bracket */
			if (clang_getCursorKind(c) != CXCursor_UnaryOperator &&
			    (strcmp(s, "]") == 0 || strcmp(s, ")") == 0)) {
				free(s);
				continue;
			}
			if (clang_getCursorKind(c) != CXCursor_UnaryOperator ||
			    strcmp(s, "++") == 0 || strcmp(s, "--") == 0) {
				r = s;
				break;
			}
			free(s);
		}
	}
	if (t != NULL)
		clang_disposeTokens(p->tu, t, nt);
	if (r == NULL)
		r = op_from_ast(c, k);
	return r;
}

static int
derefs(CXCursor lhs)
{
	enum CXCursorKind k = clang_getCursorKind(lhs);
	CXType t = clang_getCanonicalType(clang_getCursorType(lhs));

	/* writing the pointer variable itself is not a write through it */
	if (k == CXCursor_DeclRefExpr && t.kind == CXType_Pointer)
		return 0;
	return 1;
}

static enum CXChildVisitResult
rw_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct pointers *pt = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	struct kids kd = { .n = 0 };
	int i;

	(void)parent;
	switch (k) {
	case CXCursor_VarDecl: {
		/* T *alias = param + offset; */
		CXType t = clang_getCanonicalType(clang_getCursorType(c));
		if (t.kind == CXType_Pointer && (i = base_param(pt, c)) >= 0) {
			pt->alias = k_realloc(pt->alias, (pt->nalias + 1) *
			    sizeof(*pt->alias));
			pt->alias_of = k_realloc(pt->alias_of,
			    (pt->nalias + 1) * sizeof(*pt->alias_of));
			pt->alias[pt->nalias] = cursor_usr(c);
			pt->alias_of[pt->nalias++] = (unsigned)i;
		}
		break;
	}
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator: {
		char *op;
		clang_visitChildren(c, kid, &kd);
		if (kd.n < 2)
			break;
		op = op_spelling(pt->p, c, &kd);
		if (op != NULL && (k == CXCursor_CompoundAssignOperator ||
		    strcmp(op, "=") == 0) && derefs(kd.v[0]) &&
		    (i = base_param(pt, kd.v[0])) >= 0) {
			pt->wrote[i] = 1;
			if (k == CXCursor_CompoundAssignOperator)
				pt->read[i] = 1;
			free(op);
			/* the right side is read as usual */
			clang_visitChildren(kd.v[1], rw_visit, pt);
			rw_visit(kd.v[1], c, pt);
			return CXChildVisit_Continue;
		}
		free(op);
		break;
	}
	case CXCursor_UnaryOperator: {
		char *op;
		clang_visitChildren(c, kid, &kd);
		if (kd.n < 1)
			break;
		op = op_spelling(pt->p, c, &kd);
		if (op != NULL && derefs(kd.v[0]) &&
		    (i = base_param(pt, kd.v[0])) >= 0) {
			pt->wrote[i] = 1;
			pt->read[i] = 1;
		}
		free(op);
		break;
	}
	case CXCursor_ArraySubscriptExpr:
		if ((i = base_param(pt, c)) >= 0)
			pt->read[i] = 1;
		break;
	case CXCursor_CallExpr: {
		CXCursor callee = clang_getCursorReferenced(c);
		char *name = k_take(clang_getCursorSpelling(c));
		int na = clang_Cursor_getNumArguments(c), a;
		if (strncmp(name, "atomic", 6) == 0 ||
		    strncmp(name, "gpuAtomic", 9) == 0) {
			if (na > 0 && (i = base_param(pt,
			    clang_Cursor_getArgument(c, 0))) >= 0) {
				pt->wrote[i] = 1;
				pt->read[i] = 1;
			}
		} else if (!clang_Cursor_isNull(callee) &&
		    pt->depth < MAX_CALL_DEPTH) {
			CXCursor def = clang_getCursorDefinition(callee);
			if (!clang_Cursor_isNull(def)) {
				struct pointers sub;
				struct parmlist pl;
				memset(&sub, 0, sizeof(sub));
				fn_params(def, &pl);
				sub.p = pt->p;
				sub.depth = pt->depth + 1;
				sub.nparams = pl.n;
				sub.params = pl.v;
				sub.wrote = k_calloc(sub.nparams + 1, 1);
				sub.read = k_calloc(sub.nparams + 1, 1);
				analyse_fn(&sub, def);
				for (a = 0; a < na && a < (int)sub.nparams;
				    a++) {
					i = base_param(pt,
					    clang_Cursor_getArgument(c, a));
					if (i < 0)
						continue;
					pt->wrote[i] |= sub.wrote[a];
					pt->read[i] |= sub.read[a];
				}
				for (a = 0; (size_t)a < sub.nalias; a++)
					free(sub.alias[a]);
				free(sub.alias);
				free(sub.alias_of);
				free(sub.params);
				free(sub.wrote);
				free(sub.read);
			}
		}
		free(name);
		break;
	}
	default:
		break;
	}
	return CXChildVisit_Recurse;
}

void
analyse_fn(struct pointers *pt, CXCursor fn)
{
	clang_visitChildren(fn, rw_visit, pt);
}
