/*
 * Kernel definitions: one record per __global__ function, found by a
 * walk of the translation unit.
 */
#include "kscan.h"

/* --------------------------------------------------------- kernels */

struct childlist {
	CXCursor *v;
	unsigned n, cap;
	enum CXCursorKind want[4];
};

static enum CXChildVisitResult
collect_kind(CXCursor c, CXCursor parent, CXClientData data)
{
	struct childlist *l = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	int i;

	(void)parent;
	for (i = 0; i < 4; i++) {
		if (l->want[i] != k)
			continue;
		if (l->n == l->cap) {
			l->cap = l->cap ? l->cap * 2 : 8;
			l->v = k_realloc(l->v, l->cap * sizeof(*l->v));
		}
		l->v[l->n++] = c;
		break;
	}
	return CXChildVisit_Continue;
}

static void
children(CXCursor c, struct childlist *l, enum CXCursorKind a,
    enum CXCursorKind b, enum CXCursorKind d)
{
	memset(l, 0, sizeof(*l));
	l->want[0] = a;
	l->want[1] = b;
	l->want[2] = d;
	l->want[3] = a;
	clang_visitChildren(c, collect_kind, l);
}

static json_t *
param_json(struct ctx *x, CXCursor p)
{
	CXType t = clang_getCursorType(p), pt = t, first;
	json_t *o = json_object();
	char *canon = k_take(clang_getTypeSpelling(clang_getCanonicalType(t)));
	unsigned depth = 0, a, b, line;
	struct fileinfo *fi;
	CXSourceRange r = clang_getCursorExtent(p);
	int invalid = clang_isInvalidDeclaration(p);

	first = t;
	while (pt.kind == CXType_Pointer || pt.kind == CXType_IncompleteArray ||
	    pt.kind == CXType_ConstantArray) {
		pt = pt.kind == CXType_Pointer ? clang_getPointeeType(pt) :
		    clang_getArrayElementType(pt);
		if (depth++ == 0)
			first = pt;
	}
	fi = where(x, clang_getRangeStart(r), &line, &a);
	where(x, clang_getRangeEnd(r), &line, &b);
	json_object_set_new(o, "name", k_take_json(clang_getCursorSpelling(p)));
	json_object_set_new(o, "type", k_take_json(clang_getTypeSpelling(t)));
	json_object_set_new(o, "canonical_type", k_string_lossy(canon,
	    strlen(canon)));
	json_object_set_new(o, "spelled", folded_json(fi, a, b));
	json_object_set_new(o, "pointer_depth", json_integer(depth));
	json_object_set_new(o, "pointee_type", depth > 0 ?
	    k_take_json(clang_getTypeSpelling(pt)) : json_null());
	json_object_set_new(o, "const", json_boolean(
	    clang_isConstQualifiedType(depth > 0 ? first : t)));
	json_object_set_new(o, "restrict", json_boolean(
	    clang_isRestrictQualifiedType(t)));
	json_object_set_new(o, "reference", json_boolean(
	    t.kind == CXType_LValueReference || t.kind == CXType_RValueReference));
	json_object_set_new(o, "template_dependent", json_boolean(
	    strstr(canon, "type-parameter-") != NULL));
	if (invalid)
		/* clang replaced an unknown type by int: say so, and keep
		 * the spelling as the only trustworthy type */
		json_object_set_new(o, "invalid", json_true());
	free(canon);
	return o;
}

static json_t *
template_params_json(struct ctx *x, CXCursor c)
{
	struct childlist l;
	json_t *arr = json_array();
	unsigned i, a, b, line;

	children(c, &l, CXCursor_TemplateTypeParameter,
	    CXCursor_NonTypeTemplateParameter,
	    CXCursor_TemplateTemplateParameter);
	for (i = 0; i < l.n; i++) {
		json_t *o = json_object();
		enum CXCursorKind k = clang_getCursorKind(l.v[i]);
		CXSourceRange r = clang_getCursorExtent(l.v[i]);
		struct fileinfo *fi = where(x, clang_getRangeStart(r), &line,
		    &a);
		where(x, clang_getRangeEnd(r), &line, &b);
		json_object_set_new(o, "name",
		    k_take_json(clang_getCursorSpelling(l.v[i])));
		json_object_set_new(o, "kind", json_string(
		    k == CXCursor_TemplateTypeParameter ? "type" :
		    k == CXCursor_NonTypeTemplateParameter ? "value" :
		    "template"));
		json_object_set_new(o, "type",
		    k == CXCursor_NonTypeTemplateParameter ?
		    k_take_json(clang_getTypeSpelling(
		    clang_getCursorType(l.v[i]))) : json_null());
		json_object_set_new(o, "spelled", folded_json(fi, a, b));
		json_array_append_new(arr, o);
	}
	free(l.v);
	return arr;
}

/* Attributes in the declaration head: launch bounds and register limits,
 * with their argument expressions as spelled. */
static json_t *
attributes_json(struct fileinfo *fi, struct tok *t, unsigned n)
{
	json_t *arr = json_array();
	unsigned i;

	for (i = 0; i + 1 < n; i++) {
		const char *name = NULL;
		if (strcmp(t[i].s, "__launch_bounds__") == 0 ||
		    strcmp(t[i].s, "launch_bounds") == 0)
			name = "launch_bounds";
		else if (strcmp(t[i].s, "__maxnreg__") == 0 ||
		    strcmp(t[i].s, "maxnreg") == 0)
			name = "maxnreg";
		if (name != NULL && strcmp(t[i + 1].s, "(") == 0) {
			json_t *o = json_object();
			unsigned close = matching(t, i + 1, n);
			json_object_set_new(o, "name", json_string(name));
			json_object_set_new(o, "args",
			    split_args(fi, t, i + 2, close));
			json_array_append_new(arr, o);
			i = close;
		}
	}
	return arr;
}

static void
add_kernel(struct ctx *x, CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXSourceLocation nameloc = clang_getCursorLocation(c);
	CXCursor body = clang_getNullCursor(), tmpl, mc;
	struct childlist l;
	struct fileinfo *fi, *nfi, *tfi;
	unsigned a, b, la, lb, noff, nline, i, n, head;
	char qname[2048], key[PATH_MAX + 300];
	char *name = k_take(clang_getCursorSpelling(c));
	char sha[K_SHA256_HEX];
	json_t *k, *s, *params, *macro = NULL;
	struct tok *t;
	int is_macro;

	nfi = where(x, nameloc, &nline, &noff);
	if (nfi == NULL || !nfi->project) {
		free(name);
		return;
	}
	/* a kernel whose name is not spelled where it expands came out of
	 * a macro invocation */
	is_macro = nfi->text == NULL || noff + strlen(name) > nfi->size ||
	    strncmp(nfi->text + noff, name, strlen(name)) != 0;
	fi = where(x, clang_getRangeStart(r), &la, &a);
	where(x, clang_getRangeEnd(r), &lb, &b);
	if (b <= a)
		/* the definition's ends come out of a macro body */
		is_macro = 1;
	if (is_macro) {
		mc = clang_getCursor(x->tu, clang_getLocationForOffset(x->tu,
		    nfi->file, noff));
		macro = json_object();
		if (clang_getCursorKind(mc) == CXCursor_MacroExpansion) {
			CXCursor def = clang_getCursorReferenced(mc);
			CXSourceRange mr = clang_getCursorExtent(mc);
			unsigned dl, doff;
			struct fileinfo *dfi;
			fi = where(x, clang_getRangeStart(mr), &la, &a);
			where(x, clang_getRangeEnd(mr), &lb, &b);
			json_object_set_new(macro, "name",
			    k_take_json(clang_getCursorSpelling(mc)));
			if (!clang_Cursor_isNull(def) &&
			    (dfi = where(x, clang_getCursorLocation(def), &dl,
			    &doff)) != NULL) {
				json_object_set_new(macro, "file",
				    json_string(dfi->rel));
				json_object_set_new(macro, "line",
				    json_integer(dl));
			}
		} else {
			fi = nfi;
			la = lb = nline;
			a = noff;
			b = noff;
		}
	}
	snprintf(key, sizeof(key), "%s:%u:%s", nfi->real, noff, name);
	for (i = 0; i < json_array_size(x->keys); i++)
		if (strcmp(json_string_value(json_array_get(x->keys, i)),
		    key) == 0) {
			free(name);
			json_decref(macro);
			return;
		}
	json_array_append_new(x->keys, json_string(key));

	k = json_object();
	s = json_object();
	json_object_set_new(k, "scan", s);
	qualify(c, qname, sizeof(qname));
	tmpl = clang_getCursorKind(c) == CXCursor_FunctionDecl ?
	    clang_getSpecializedCursorTemplate(c) : clang_getNullCursor();

	/* the declaration head: everything before the body */
	children(c, &l, CXCursor_CompoundStmt, CXCursor_CompoundStmt,
	    CXCursor_CompoundStmt);
	if (l.n > 0)
		body = l.v[l.n - 1];
	free(l.v);
	t = tokens(x, r, &n, &tfi);
	head = n;
	if (!clang_Cursor_isNull(body)) {
		unsigned bline, boff;
		where(x, clang_getCursorLocation(body), &bline, &boff);
		for (head = 0; head < n && t[head].a < boff; head++)
			;
	}
	if (!clang_Cursor_isNull(tmpl)) {
		/* an explicit specialization: its arguments belong to the
		 * name, so that it does not collide with the template */
		for (i = 0; i < head; i++)
			if (strcmp(t[i].s, name) == 0 && i + 1 < head &&
			    strcmp(t[i + 1].s, "<") == 0) {
				json_t *ta = folded_json(fi, t[i + 1].a,
				    t[matching_angle(t, i + 1, head)].b);
				strncat(qname, json_string_value(ta),
				    sizeof(qname) - strlen(qname) - 1);
				json_decref(ta);
				break;
			}
	}

	json_object_set_new(s, "file", json_string(nfi->rel));
	json_object_set_new(s, "line", json_integer(la));
	json_object_set_new(s, "end_line", json_integer(lb));
	if (k_sha256_file(nfi->real, sha) == 0)
		json_object_set_new(s, "sha256", json_string(sha));
	else
		json_object_set_new(s, "sha256", json_null());
	json_object_set_new(s, "name", json_string(name));
	json_object_set_new(s, "qualified_name", json_string(qname));
	json_object_set_new(s, "usr", k_take_json(clang_getCursorUSR(c)));
	json_object_set_new(s, "dialect", json_string(x->dialect));
	if (is_macro) {
		char *rt = k_take(clang_getTypeSpelling(
		    clang_getCursorResultType(c)));
		char *dn = k_take(clang_getCursorDisplayName(c));
		char *sig;
		sig = k_asprintf("__global__ %s %s", rt, dn);
		json_object_set_new(s, "signature", json_string(sig));
		free(sig);
		free(rt);
		free(dn);
	} else {
		/* skip a template header: the signature is the function's */
		unsigned from = 0;
		if (n > 0 && strcmp(t[0].s, "template") == 0 && n > 1)
			from = matching_angle(t, 1, head) + 1;
		json_object_set_new(s, "signature", from < head ?
		    folded_json(fi, t[from].a, t[head - 1].b) :
		    json_string(""));
	}
	params = json_array();
	children(c, &l, CXCursor_ParmDecl, CXCursor_ParmDecl,
	    CXCursor_ParmDecl);
	for (i = 0; i < l.n; i++)
		json_array_append_new(params, param_json(x, l.v[i]));
	free(l.v);
	json_object_set_new(s, "params", params);
	json_object_set_new(s, "template_params", template_params_json(x, c));
	json_object_set_new(s, "attributes", attributes_json(fi, t, head));
	if (!clang_Cursor_isNull(tmpl))
		json_object_set_new(s, "specialization_of",
		    k_take_json(clang_getCursorUSR(tmpl)));
	json_object_set_new(s, "text", text_json(fi, a, b));
	if (macro != NULL)
		json_object_set_new(s, "macro", macro);
	json_object_set_new(s, "device_only", json_boolean(x->device));
	{
		char *tu = relpath(x->u->path);
		json_t *fl = json_array();
		size_t j;
		json_object_set_new(s, "tu", json_string(tu));
		free(tu);
		for (j = 0; j < opt.flags.n; j++)
			json_array_append_new(fl, json_string(opt.flags.v[j]));
		for (j = 0; j < x->u->flags.n; j++)
			json_array_append_new(fl,
			    json_string(x->u->flags.v[j]));
		for (j = 0; j < x->u->assume.n; j++) {
			json_array_append_new(fl, json_string("-D"));
			json_array_append_new(fl,
			    json_string(x->u->assume.v[j]));
		}
		json_object_set_new(s, "flags", fl);
		if (x->u->assume.n > 0) {
			/* found only in a branch the build's own flags may
			 * not take */
			json_t *am = json_array();
			for (j = 0; j < x->u->assume.n; j++)
				json_array_append_new(am,
				    json_string(x->u->assume.v[j]));
			json_object_set_new(s, "assumed_macros", am);
		}
		if (x->u->build_flags != NULL)
			json_object_set(s, "build_flags", x->u->build_flags);
	}
	json_object_set_new(s, "launches", json_array());
	json_object_set_new(s, "diagnostics", json_incref(x->diagnostics));
	json_object_set_new(k, "_key", json_string(key));
	json_array_append_new(x->u->kernels, k);
	free_tokens(t, n);
	free(name);
}

static int
is_function_like(enum CXCursorKind k)
{
	return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate ||
	    k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
	    k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

enum CXChildVisitResult
visit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct ctx *x = data, sub;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXSourceLocation loc;
	CXFile f;

	(void)parent;
	if (clang_isPreprocessing(k) || clang_isAttribute(k))
		return CXChildVisit_Continue;
	loc = clang_getCursorLocation(c);
	if (!x->in_func) {
		if (clang_Location_isInSystemHeader(loc))
			return CXChildVisit_Continue;
		clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
		if (f != NULL && !file_info(x, f)->project)
			return CXChildVisit_Continue;
	}
	if (is_function_like(k)) {
		if ((k == CXCursor_FunctionDecl ||
		    k == CXCursor_FunctionTemplate) &&
		    clang_isCursorDefinition(c) && has_global(c))
			add_kernel(x, c);
		if (!clang_isCursorDefinition(c))
			return CXChildVisit_Continue;
		sub = *x;
		sub.func = c;
		sub.in_func = 1;
		clang_visitChildren(c, visit, &sub);
		/* the file table may have grown in the child walk */
		x->files = sub.files;
		x->nfiles = sub.nfiles;
		x->capfiles = sub.capfiles;
		return CXChildVisit_Continue;
	}
	if (k == CXCursor_CallExpr && x->in_func) {
		check_launch(x, c);
		note_call(x, c);
	}
	return CXChildVisit_Recurse;
}
