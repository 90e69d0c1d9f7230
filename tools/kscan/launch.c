/*
 * Launch sites: chevron, hipLaunchKernelGGL and cudaLaunchKernel calls
 * and the kernel each names.
 */
#include "kscan.h"

static enum CXChildVisitResult
find_global(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CUDAGlobalAttr) {
		*(int *)data = 1;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

int
has_global(CXCursor c)
{
	int found = 0;

	if (clang_Cursor_isNull(c))
		return 0;
	clang_visitChildren(c, find_global, &found);
	return found;
}

static int
is_kernel_ref(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);

	if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
		return 0;
	return has_global(c) || has_global(clang_getSpecializedCursorTemplate(c));
}

/* Template arguments spelled in <...> right after the kernel's name in
 * text (a launch's kernel expression), if any. */
json_t *
template_args_of(const char *text, const char *name)
{
	const char *lt = NULL, *gt, *p, *start;
	json_t *arr = json_array();
	size_t nl = strlen(name);
	int depth = 0;

	for (p = text; nl > 0 && (p = strstr(p, name)) != NULL; p += nl) {
		const char *q = p + nl;
		if (p > text && (p[-1] == '_' || isalnum((unsigned char)p[-1])))
			continue;
		while (*q == ' ')
			q++;
		if (*q == '<') {
			lt = q;
			break;
		}
	}
	if (lt == NULL)
		return arr;
	/* the matching '>' */
	for (gt = lt + 1, depth = 0; *gt != '\0'; gt++) {
		if (*gt == '<' || *gt == '(')
			depth++;
		else if (*gt == ')' || (*gt == '>' && depth > 0))
			depth--;
		else if (*gt == '>')
			break;
	}
	if (*gt != '>')
		return arr;
	depth = 0;
	for (p = start = lt + 1; p <= gt; p++) {
		if (p == gt || (depth == 0 && *p == ',')) {
			const char *e = p;
			while (start < e && *start == ' ')
				start++;
			while (e > start && e[-1] == ' ')
				e--;
			if (e > start)
				json_array_append_new(arr,
				    json_stringn(start, e - start));
			start = p + 1;
			continue;
		}
		if (*p == '<' || *p == '(')
			depth++;
		else if (*p == '>' || *p == ')')
			depth--;
	}
	return arr;
}

struct findref {
	CXCursor found;
};

static enum CXChildVisitResult
find_kernel_ref(CXCursor c, CXCursor parent, CXClientData data)
{
	struct findref *f = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k == CXCursor_DeclRefExpr || k == CXCursor_OverloadedDeclRef) {
		CXCursor r = clang_getCursorReferenced(c);
		if (k == CXCursor_OverloadedDeclRef &&
		    clang_getNumOverloadedDecls(c) > 0)
			r = clang_getOverloadedDecl(c, 0);
		if (is_kernel_ref(r)) {
			f->found = r;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult
find_var_ref(CXCursor c, CXCursor parent, CXClientData data)
{
	struct findref *f = data;
	CXCursor r;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
		r = clang_getCursorReferenced(c);
		if (clang_getCursorKind(r) == CXCursor_VarDecl) {
			f->found = r;
			return CXChildVisit_Break;
		}
	}
	return CXChildVisit_Recurse;
}

/* The variable an expression names ("(void *)k", "k"), or a null
 * cursor. */
static CXCursor
var_in(CXCursor e)
{
	struct findref f;

	f.found = clang_getNullCursor();
	if (find_var_ref(e, clang_getNullCursor(), &f) == CXChildVisit_Break)
		return f.found;
	clang_visitChildren(e, find_var_ref, &f);
	return f.found;
}

/* The kernel an expression names, itself or below it, or a null cursor. */
static CXCursor
kernel_in(CXCursor e)
{
	struct findref f;

	f.found = clang_getNullCursor();
	if (find_kernel_ref(e, clang_getNullCursor(), &f) ==
	    CXChildVisit_Break)
		return f.found;
	clang_visitChildren(e, find_kernel_ref, &f);
	return f.found;
}

static enum CXChildVisitResult
first_child(CXCursor c, CXCursor parent, CXClientData data)
{
	struct findref *f = data;

	(void)parent;
	f->found = c;
	return CXChildVisit_Break;
}

/*
 * Tokens of a macro invocation NAME(...) that starts where the call's
 * extent does: HIP's own headers make hipLaunchKernelGGL a macro around a
 * <<<...>>> launch, whose tokens are the macro's, not the file's.
 */
static struct tok *
invocation_tokens(struct ctx *x, CXCursor call, unsigned *n,
    struct fileinfo **fip)
{
	CXSourceRange r = clang_getCursorExtent(call);
	struct fileinfo *fi;
	unsigned line, a, b;
	int depth = 0;
	char quote = 0;

	fi = where(x, clang_getRangeStart(r), &line, &a);
	if (fi == NULL || fi->text == NULL)
		return tokens(x, r, n, fip);
	for (b = a; b < fi->size; b++) {
		char c = fi->text[b];
		if (quote != 0) {
			if (c == '\\')
				b++;
			else if (c == quote)
				quote = 0;
		} else if (c == '"' || c == '\'')
			quote = c;
		else if (c == '(')
			depth++;
		else if (c == ')' && --depth == 0) {
			b++;
			break;
		}
	}
	if (b > fi->size)
		b = (unsigned)fi->size;
	r = clang_getRange(clang_getLocationForOffset(x->tu, fi->file, a),
	    clang_getLocationForOffset(x->tu, fi->file, b));
	return tokens(x, r, n, fip);
}

#define MAX_LAUNCH_ITEMS 128

static json_t *spec_args(CXCursor kernel);

/* The local constants and type aliases of a function spelled in one
 * file, names as keys: those the launcher wrote itself (not one a macro
 * of the prelude declared, a dispatch stand-in's scalar_t). */
struct locals {
	CXFile file;
	json_t *names;
};

/* Whether s is one plain name (ILP, label_t), not an expression. */
static int
plain_name(const char *s)
{
	const char *p;

	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (p = s; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return 1;
}

static enum CXChildVisitResult
local_names(CXCursor c, CXCursor parent, CXClientData data)
{
	struct locals *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXFile f;
	char *s;

	(void)parent;
	if (k != CXCursor_VarDecl && k != CXCursor_TypedefDecl &&
	    k != CXCursor_TypeAliasDecl)
		return CXChildVisit_Recurse;
	clang_getSpellingLocation(clang_getCursorLocation(c), &f, NULL, NULL,
	    NULL);
	if (f != NULL && clang_File_isEqual(f, w->file)) {
		s = k_take(clang_getCursorSpelling(c));
		json_object_set_new(w->names, s, json_true());
		free(s);
	}
	return CXChildVisit_Continue;
}

/*
 * launches[].resolved.template_args: where a template argument of the
 * launch is a local of the launcher (const int ILP = sizeof(vec_t) /
 * sizeof(scalar_t); using label_t = int64_t;), the value or type clang
 * gives it in the parse, the others as spelled; none when no argument is
 * such a local.  Under a dispatch macro the parse binds its type to
 * float (the stand-in's), so a local computed from it is float's.
 */
static void
resolved_targs(struct ctx *x, CXCursor call, CXCursor kernel, json_t *l,
    json_t *res)
{
	json_t *ta = json_object_get(l, "template_args"), *sa, *out, *a;
	struct locals w;
	size_t i;
	int any = 0;

	if (!x->in_func || json_array_size(ta) == 0 ||
	    (sa = spec_args(kernel)) == NULL)
		return;
	if (json_array_size(sa) != json_array_size(ta)) {
		json_decref(sa);
		return;
	}
	clang_getSpellingLocation(clang_getCursorLocation(call), &w.file,
	    NULL, NULL, NULL);
	w.names = json_object();
	if (w.file != NULL)
		clang_visitChildren(x->func, local_names, &w);
	out = json_array();
	json_array_foreach(ta, i, a) {
		const char *s = json_string_value(a);
		const char *v = json_string_value(json_array_get(sa, i));
		if (s != NULL && plain_name(s) &&
		    json_object_get(w.names, s) != NULL && strcmp(s, v) != 0) {
			json_array_append_new(out, json_string(v));
			any = 1;
		} else
			json_array_append(out, a);
	}
	if (any)
		json_object_set_new(res, "template_args", out);
	else
		json_decref(out);
	json_decref(w.names);
	json_decref(sa);
}

/*
 * The launch names its kernel through variable v: the kernel's text is
 * the variable's initializer where it is in the same project file
 * ("auto k = kernel<T, 256>;": its template arguments), else the
 * argument as spelled stays.
 */
static void
via_text(struct ctx *x, CXCursor v, struct fileinfo *fi, json_t *l)
{
	struct fileinfo *vf;
	struct tok *t;
	unsigned n, i;

	t = tokens(x, clang_getCursorExtent(v), &n, &vf);
	for (i = 0; i < n && strcmp(t[i].s, "=") != 0; i++)
		;
	if (vf == fi && vf != NULL && vf->project && i + 1 < n)
		json_object_set_new(l, "kernel", folded_json(fi, t[i + 1].a,
		    t[n - 1].b));
	free_tokens(t, n);
}

/* The launch's kernel text: expression e as written (a variable: its
 * initializer), in the launch's file, a leading & dropped. */
static void
over_text(struct ctx *x, CXCursor e, struct fileinfo *fi, json_t *l)
{
	struct fileinfo *ef;
	struct tok *t;
	unsigned n, i = 0;

	t = tokens(x, clang_getCursorExtent(e), &n, &ef);
	if (clang_getCursorKind(e) == CXCursor_VarDecl) {
		/* its initializer: "auto k = &kernel<T, 256>" */
		while (i < n && strcmp(t[i].s, "=") != 0)
			i++;
		i++;
	}
	if (i < n && strcmp(t[i].s, "&") == 0)
		i++;
	if (ef == fi && ef != NULL && ef->project && i < n)
		json_object_set_new(l, "kernel", folded_json(fi, t[i].a,
		    t[n - 1].b));
	free_tokens(t, n);
}

static void launch_one(struct ctx *x, CXCursor call, CXCursor ref,
    CXCursor over);

#define MAX_SETTINGS 16	/* kernels one function-pointer variable holds */

/* The kernels a function-pointer variable is set from in a function: its
 * initializer and each assignment "v = &k<...>;", with the expression
 * that names each. */
struct settings {
	CXCursor var;
	CXCursor kernel[MAX_SETTINGS], expr[MAX_SETTINGS];
	unsigned n;
};

static void
add_setting(struct settings *st, CXCursor e)
{
	CXCursor k = kernel_in(e);
	unsigned i;

	if (clang_Cursor_isNull(k) || st->n == MAX_SETTINGS)
		return;
	for (i = 0; i < st->n; i++)
		if (clang_equalCursors(st->kernel[i], k))
			return;
	st->kernel[st->n] = k;
	st->expr[st->n++] = e;
}

struct assign_walk {
	CXCursor lhs, rhs;
	int nchild;
};

static enum CXChildVisitResult
two_children(CXCursor c, CXCursor parent, CXClientData data)
{
	struct assign_walk *w = data;

	(void)parent;
	if (w->nchild == 0)
		w->lhs = c;
	else if (w->nchild == 1)
		w->rhs = c;
	w->nchild++;
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult
find_settings(CXCursor c, CXCursor parent, CXClientData data)
{
	struct settings *st = data;
	struct assign_walk w;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_BinaryOperator &&
	    clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign) {
		memset(&w, 0, sizeof(w));
		clang_visitChildren(c, two_children, &w);
		if (w.nchild == 2 && clang_equalCursors(var_in(w.lhs),
		    st->var))
			add_setting(st, w.rhs);
	}
	return CXChildVisit_Recurse;
}

/*
 * A launch site: a chevron call of a kernel, a hipLaunchKernelGGL,
 * cudaLaunchKernel or cudaLaunchKernelEx call, or a chevron call through a
 * function-pointer variable of the launcher ("kernel<<<g, b>>>(...)"
 * after "kernel = &k<T, 4>;" in each branch of a switch): one launch per
 * kernel the variable is set from, its kernel text the setting's.
 */
void
check_launch(struct ctx *x, CXCursor call)
{
	CXCursor ref = clang_getCursorReferenced(call);
	struct settings st;
	unsigned i;

	if (x->in_func && !clang_Cursor_isNull(ref) &&
	    clang_getCursorKind(ref) == CXCursor_VarDecl) {
		memset(&st, 0, sizeof(st));
		st.var = ref;
		add_setting(&st, ref);	/* its initializer */
		clang_visitChildren(x->func, find_settings, &st);
		for (i = 0; i < st.n; i++)
			launch_one(x, call, st.kernel[i], st.expr[i]);
		if (st.n > 0)
			return;
	}
	launch_one(x, call, ref, clang_getNullCursor());
}

/* One launch of call, whose callee is ref; over (not null): an
 * expression whose text names the kernel in place of the call's own (a
 * function-pointer variable's setting). */
static void
launch_one(struct ctx *x, CXCursor call, CXCursor ref, CXCursor over)
{
	CXCursor kernel, tmpl;
	struct findref fr;
	struct fileinfo *fi;
	struct tok *t;
	unsigned n, i, line, off, chev = 0, close;
	const char *kind;
	char *name, fname[1024];
	json_t *l, *args = NULL, *cfg = NULL, *res;
	char key[PATH_MAX + 1024];
	CXCursor via = clang_getNullCursor();
	unsigned cs[MAX_LAUNCH_ITEMS], ce[MAX_LAUNCH_ITEMS], nc = 0;
	unsigned as[MAX_LAUNCH_ITEMS], ae[MAX_LAUNCH_ITEMS], na = 0;

	fr.found = clang_getNullCursor();
	if (clang_Cursor_isNull(ref)) {
		/* a call in a template whose callee depends on a template
		 * parameter (kernel<T><<<...>>>) resolves to nothing: the
		 * callee's lookup set names the kernel template */
		clang_visitChildren(call, first_child, &fr);
		if (clang_Cursor_isNull(fr.found))
			return;
		ref = kernel_in(fr.found);
		if (clang_Cursor_isNull(ref))
			return;
		fr.found = clang_getNullCursor();
	}
	name = k_take(clang_getCursorSpelling(ref));
	if (strcmp(name, "hipLaunchKernelGGL") == 0)
		kind = "hipLaunchKernelGGL";
	else if (strcmp(name, "cudaLaunchKernel") == 0 ||
	    strcmp(name, "cudaLaunchCooperativeKernel") == 0)
		kind = "cudaLaunchKernel";
	else if (strcmp(name, "cudaLaunchKernelEx") == 0)
		kind = "cudaLaunchKernelEx";
	else if (is_kernel_ref(ref))
		kind = "chevron";
	else {
		free(name);
		return;
	}
	free(name);
	if (strcmp(kind, "chevron") == 0)
		kernel = ref;
	else {
		/* cudaLaunchKernelEx(&config, kernel, args...) */
		int ka = strcmp(kind, "cudaLaunchKernelEx") == 0;
		if (clang_Cursor_getNumArguments(call) < ka + 1)
			return;
		kernel = kernel_in(clang_Cursor_getArgument(call, (unsigned)ka));
		if (clang_Cursor_isNull(kernel)) {
			/* a variable set from the kernel where it is
			 * declared: "auto k = kernel<T, 256>;" */
			via = var_in(clang_Cursor_getArgument(call,
			    (unsigned)ka));
			if (!clang_Cursor_isNull(via))
				kernel = kernel_in(via);
		}
		if (clang_Cursor_isNull(kernel))
			return;
	}

	t = tokens(x, clang_getCursorExtent(call), &n, &fi);
	if (strcmp(kind, "chevron") == 0 && n > 0 &&
	    strcmp(t[0].s, "hipLaunchKernelGGL") == 0) {
		free_tokens(t, n);
		t = invocation_tokens(x, call, &n, &fi);
		kind = "hipLaunchKernelGGL";
	}
	if (fi == NULL || !fi->project) {
		free_tokens(t, n);
		return;
	}
	where(x, clang_getCursorLocation(call), &line, &off);
	l = json_object();
	json_object_set_new(l, "file", json_string(fi->rel));
	json_object_set_new(l, "line", json_integer(line));
	if (x->in_func)
		qualify(x->func, fname, sizeof(fname));
	json_object_set_new(l, "function", x->in_func ?
	    json_string(fname) : json_null());
	json_object_set_new(l, "kind", json_string(kind));
	if (strcmp(kind, "chevron") == 0) {
		for (chev = 0; chev < n && strcmp(t[chev].s, "<<<") != 0; chev++)
			;
		if (chev == n && n > 0) {
			/* no <<< in the file's tokens: a launch inside a
			 * project macro (macrolaunch.c) */
			name = k_take(clang_getCursorSpelling(kernel));
			tmpl = clang_getSpecializedCursorTemplate(kernel);
			json_object_set_new(l, "_usr",
			    k_take_json(clang_getCursorUSR(kernel)));
			json_object_set_new(l, "_tusr", clang_Cursor_isNull(tmpl) ?
			    json_string("") : k_take_json(clang_getCursorUSR(tmpl)));
			macro_launches(x, name, t, n, fi, off, l);
			free(name);
		}
		if (chev == n || chev == 0) {
			json_decref(l);
			free_tokens(t, n);
			return;
		}
		json_object_set_new(l, "kernel",
		    folded_json(fi, t[0].a, t[chev - 1].b));
		if (!clang_Cursor_isNull(over))
			over_text(x, over, fi, l);
		close = matching(t, chev, n);
		cfg = split_args(fi, t, chev + 1, close);
		nc = split_ranges(t, chev + 1, close, cs, ce, 3);
		if (close + 1 < n && strcmp(t[close + 1].s, "(") == 0) {
			args = split_args(fi, t, close + 2,
			    matching(t, close + 1, n));
			na = split_ranges(t, close + 2, matching(t, close + 1,
			    n), as, ae, MAX_LAUNCH_ITEMS);
		}
	} else {
		json_t *all;
		unsigned ra[MAX_LAUNCH_ITEMS], re[MAX_LAUNCH_ITEMS], nr;
		for (i = 0; i < n && strcmp(t[i].s, "(") != 0; i++)
			;
		all = split_args(fi, t, i + 1, matching(t, i, n));
		nr = split_ranges(t, i + 1, matching(t, i, n), ra, re,
		    MAX_LAUNCH_ITEMS);
		if (strcmp(kind, "hipLaunchKernelGGL") == 0) {
			/* kernel, grid, block, shmem, stream, args... */
			for (i = 1; i < nr; i++) {
				if (i <= 3) {
					cs[nc] = ra[i];
					ce[nc++] = re[i];
				} else if (i > 4) {
					as[na] = ra[i];
					ae[na++] = re[i];
				}
			}
		} else if (strcmp(kind, "cudaLaunchKernelEx") == 0) {
			/* config, kernel, args...: the launch is in the
			 * config, not in the call */
			for (i = 2; i < nr; i++) {
				as[na] = ra[i];
				ae[na++] = re[i];
			}
		} else {
			/* kernel, grid, block, args, shmem, stream */
			static const unsigned ord[] = { 1, 2, 4 };
			for (i = 0; i < 3 && ord[i] < nr; i++) {
				cs[nc] = ra[ord[i]];
				ce[nc++] = re[ord[i]];
			}
		}
		i = strcmp(kind, "cudaLaunchKernelEx") == 0;
		json_object_set_new(l, "kernel", json_array_size(all) > i ?
		    json_incref(json_array_get(all, i)) : json_string(""));
		if (!clang_Cursor_isNull(via))
			via_text(x, via, fi, l);
		cfg = json_array();
		args = json_array();
		if (strcmp(kind, "hipLaunchKernelGGL") == 0) {
			/* kernel, grid, block, shmem, stream, args... */
			for (i = 1; i < json_array_size(all); i++)
				json_array_append(i <= 4 ? cfg : args,
				    json_array_get(all, i));
		} else if (strcmp(kind, "cudaLaunchKernelEx") == 0) {
			for (i = 2; i < json_array_size(all); i++)
				json_array_append(args, json_array_get(all, i));
		} else {
			/* kernel, grid, block, args, shmem, stream */
			static const int order[] = { 1, 2, 4, 5 };
			for (i = 0; i < 4; i++)
				if ((size_t)order[i] < json_array_size(all))
					json_array_append(cfg, json_array_get(
					    all, order[i]));
			if (json_array_size(all) > 3)
				json_array_append(args, json_array_get(all, 3));
		}
		json_decref(all);
	}
	name = k_take(clang_getCursorSpelling(kernel));
	json_object_set_new(l, "template_args", template_args_of(
	    json_string_value(json_object_get(l, "kernel")), name));
	if (strcmp(kind, "chevron") != 0 && n > 0 &&
	    strncmp(t[0].s, "cudaLaunch", 10) != 0 &&
	    strcmp(t[0].s, "hipLaunchKernelGGL") != 0 &&
	    strcmp(t[0].s, "::") != 0) {
		/* the call lies in a macro's expansion: the tokens are the
		 * invocation's, and the kernel is the specialization the
		 * AST names, with its template arguments */
		json_t *sa = spec_args(kernel), *a;
		struct k_buf kb = { 0 };
		size_t j;
		k_buf_add(&kb, name);
		if (sa != NULL) {
			json_object_set_new(l, "template_args", sa);
			json_array_foreach(sa, j, a)
				k_buf_printf(&kb, "%s%s", j ? ", " : "<",
				    json_string_value(a));
			if (json_array_size(sa) > 0)
				k_buf_add(&kb, ">");
		}
		json_object_set_new(l, "kernel", json_string(k_buf_str(&kb)));
		k_buf_free(&kb);
	}
	free(name);
	json_object_set_new(l, "grid", json_array_size(cfg) > 0 ?
	    json_incref(json_array_get(cfg, 0)) : json_null());
	json_object_set_new(l, "block", json_array_size(cfg) > 1 ?
	    json_incref(json_array_get(cfg, 1)) : json_null());
	json_object_set_new(l, "shared_mem", json_array_size(cfg) > 2 ?
	    json_incref(json_array_get(cfg, 2)) : json_null());
	json_object_set_new(l, "stream", json_array_size(cfg) > 3 ?
	    json_incref(json_array_get(cfg, 3)) : json_null());
	json_object_set_new(l, "args", args != NULL ? args : json_array());
	json_decref(cfg);
	res = resolved_json(x, fi, t, cs, ce, nc, as, ae, na, l);
	if (strcmp(kind, "chevron") == 0)
		resolved_targs(x, call, kernel, l, res);
	json_object_set_new(l, "resolved", res);

	/* matching keys, removed before output */
	json_object_set_new(l, "_usr", k_take_json(clang_getCursorUSR(kernel)));
	tmpl = clang_getSpecializedCursorTemplate(kernel);
	json_object_set_new(l, "_tusr", clang_Cursor_isNull(tmpl) ?
	    json_string("") : k_take_json(clang_getCursorUSR(tmpl)));
	/* the place in the file and the kernel: launches that one macro
	 * invocation writes share its place (a macro that defines the
	 * launchers of several kernels), and each is a launch of its own;
	 * the same launch seen from several units stays one */
	snprintf(key, sizeof(key), "%s:%u:%s", fi->real, off,
	    k_get_str(l, "_usr"));
	json_object_set_new(l, "_key", json_string(key));
	launcher_params(x, l);
	json_array_append_new(x->u->launches, l);
	free_tokens(t, n);
}

/* Whether c is one of a template's parameters. */
static int
is_tparam(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);

	return k == CXCursor_TemplateTypeParameter ||
	    k == CXCursor_NonTypeTemplateParameter ||
	    k == CXCursor_TemplateTemplateParameter;
}

static enum CXChildVisitResult
tparam_name(CXCursor c, CXCursor parent, CXClientData data)
{
	json_t *names = json_array_get(data, 0), *types = json_array_get(data,
	    1);

	(void)parent;
	if (is_tparam(c)) {
		json_array_append_new(names, k_take_json(
		    clang_getCursorSpelling(c)));
		json_array_append_new(types, json_boolean(clang_getCursorKind(c)
		    == CXCursor_TemplateTypeParameter));
	}
	return CXChildVisit_Continue;
}

/* The launcher's local type aliases that a launch's template arguments
 * name, by name: the aliased type as written (using traits_t =
 * traits<T, N>; gives "traits<T, N>"). */
struct aliases {
	struct ctx *x;
	json_t *want;		/* the launch's template_args */
	json_t *out;
};

static enum CXChildVisitResult
alias_text(CXCursor c, CXCursor parent, CXClientData data)
{
	struct aliases *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	struct fileinfo *fi;
	struct tok *t;
	unsigned n, i;
	json_t *a;
	size_t j;
	char *name;

	(void)parent;
	if (k != CXCursor_TypeAliasDecl)
		return CXChildVisit_Recurse;
	name = k_take(clang_getCursorSpelling(c));
	json_array_foreach(w->want, j, a)
		if (json_is_string(a) && strcmp(json_string_value(a),
		    name) == 0)
			break;
	if (j < json_array_size(w->want)) {
		struct k_buf b = { 0 };
		t = tokens(w->x, clang_getCursorExtent(c), &n, &fi);
		for (i = 0; i < n && strcmp(t[i].s, "=") != 0; i++)
			;
		/* its tokens (no comment), a space only between two words
		 * and after a comma */
		for (i++; i < n && strcmp(t[i].s, ";") != 0; i++) {
			if (strncmp(t[i].s, "//", 2) == 0 ||
			    strncmp(t[i].s, "/*", 2) == 0)
				continue;
			if (b.n > 0 && (b.s[b.n - 1] == ',' ||
			    ((isalnum((unsigned char)b.s[b.n - 1]) ||
			    b.s[b.n - 1] == '_') &&
			    (isalnum((unsigned char)t[i].s[0]) ||
			    t[i].s[0] == '_'))))
				k_buf_add(&b, " ");
			k_buf_add(&b, t[i].s);
		}
		if (fi != NULL && fi->project && b.n > 0)
			json_object_set_new(w->out, name,
			    json_string(k_buf_str(&b)));
		k_buf_free(&b);
		free_tokens(t, n);
	}
	free(name);
	return CXChildVisit_Continue;
}

/*
 * A launch in a function template (the launcher's own template
 * parameters in its template arguments, numBits in k<numBits, 4>): the
 * launcher, its parameters (and which are types), and the local type
 * aliases the launch's template arguments name, so that emit.c can bind
 * them from the calls that name the launcher's arguments
 * (launch<4>(...)).
 */
void
launcher_params(struct ctx *x, json_t *l)
{
	json_t *names, *pair;
	struct aliases al;

	if (!x->in_func ||
	    clang_getCursorKind(x->func) != CXCursor_FunctionTemplate)
		return;
	pair = json_pack("[[],[]]");
	clang_visitChildren(x->func, tparam_name, pair);
	names = json_array_get(pair, 0);
	if (json_array_size(names) == 0) {
		json_decref(pair);
		return;
	}
	json_object_set_new(l, "_fusr", k_take_json(clang_getCursorUSR(
	    x->func)));
	json_object_set(l, "_fparams", names);
	json_object_set(l, "_ftypes", json_array_get(pair, 1));
	json_decref(pair);
	al.x = x;
	al.want = json_object_get(l, "template_args");
	al.out = json_object();
	clang_visitChildren(x->func, alias_text, &al);
	if (json_object_size(al.out) > 0)
		json_object_set_new(l, "_aliases", al.out);
	else
		json_decref(al.out);
}

struct nth_param {
	int want, at;
	CXType type;
};

static enum CXChildVisitResult
nth_param_type(CXCursor c, CXCursor parent, CXClientData data)
{
	struct nth_param *p = data;

	(void)parent;
	if (!is_tparam(c))
		return CXChildVisit_Continue;
	if (p->at++ == p->want) {
		p->type = clang_getCanonicalType(clang_getCursorType(c));
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* The canonical type of template tmpl's parameter i (invalid: none). */
static CXType
param_type(CXCursor tmpl, int i)
{
	struct nth_param p;

	memset(&p, 0, sizeof(p));
	p.want = i;
	p.type.kind = CXType_Invalid;
	clang_visitChildren(tmpl, nth_param_type, &p);
	return p.type;
}

/* Specialization spec's integral template argument i (tmpl's parameter
 * i), as a launch spells it: its value, cast to the parameter's
 * enumeration, or true or false for a bool. */
static void
integral_arg(CXCursor spec, CXCursor tmpl, int i, char *buf, size_t len)
{
	CXType pt = param_type(tmpl, i);
	long long v = clang_Cursor_getTemplateArgumentValue(spec, (unsigned)i);

	if (pt.kind == CXType_Enum) {
		char *ts = k_take(clang_getTypeSpelling(pt));
		snprintf(buf, len, "(%s)%lld", ts, v);
		free(ts);
	} else if (pt.kind == CXType_Bool)
		snprintf(buf, len, "%s", v ? "true" : "false");
	else
		snprintf(buf, len, "%lld", v);
}

/*
 * A kernel specialization's template arguments as a launch spells them:
 * an integral one as its value (a cast to the parameter's enumeration,
 * true or false for a bool), a type one as its canonical spelling; NULL
 * when the kernel is no specialization or an argument is of another
 * kind.
 */
static json_t *
spec_args(CXCursor kernel)
{
	CXCursor tmpl = clang_getSpecializedCursorTemplate(kernel);
	json_t *args;
	int i, n;

	if (clang_Cursor_isNull(tmpl) ||
	    (n = clang_Cursor_getNumTemplateArguments(kernel)) <= 0 || n > 32)
		return NULL;
	args = json_array();
	for (i = 0; i < n; i++) {
		enum CXTemplateArgumentKind k =
		    clang_Cursor_getTemplateArgumentKind(kernel, (unsigned)i);
		char buf[128];
		if (k == CXTemplateArgumentKind_Type) {
			CXType ty = clang_getCanonicalType(
			    clang_Cursor_getTemplateArgumentType(kernel,
			    (unsigned)i));
			json_array_append_new(args, k_take_json(
			    clang_getTypeSpelling(ty)));
		} else if (k == CXTemplateArgumentKind_Integral) {
			integral_arg(kernel, tmpl, i, buf, sizeof(buf));
			json_array_append_new(args, json_string(buf));
		} else {
			json_decref(args);
			return NULL;
		}
	}
	return args;
}

/*
 * Template argument i of the call as its text spells it, where that is a
 * name (SumEpilogue, ops::Max): a template template argument, which the
 * C API gives no accessor for.  NULL when the call is written by a macro
 * or spells it otherwise.
 */
static char *
spelled_template_arg(struct ctx *x, CXCursor call, CXCursor ref, int i)
{
	CXSourceRange r = clang_getCursorExtent(call);
	struct fileinfo *fi, *fe;
	unsigned line, a, b;
	char *name, *text, *out = NULL;
	const char *s;
	json_t *args;

	fi = where(x, clang_getRangeStart(r), &line, &a);
	fe = where(x, clang_getRangeEnd(r), &line, &b);
	if (fi == NULL || fi != fe || fi->text == NULL || a >= b ||
	    b > fi->size)
		return NULL;
	text = k_strndup(fi->text + a, b - a);
	name = k_take(clang_getCursorSpelling(ref));
	args = template_args_of(text, name);
	s = json_string_value(json_array_get(args, (size_t)i));
	if (s != NULL && (isalpha((unsigned char)s[0]) || s[0] == '_' ||
	    s[0] == ':')) {
		const char *p = s;
		while (isalnum((unsigned char)*p) || *p == '_' || *p == ':')
			p++;
		if (*p == '\0')
			out = k_strdup(s);
	}
	json_decref(args);
	free(name);
	free(text);
	return out;
}

/*
 * A call of a function template's specialization with its template
 * arguments known (launch_impl<4, Type::A>(...) in a plain function, or
 * the explicit instantiation it resolves to): kept among the unit's
 * launches as {"_call": {usr, args}} (emit.c takes them out), so that
 * the launches in that template can be bound.  Integral arguments are
 * spelled as their value, cast to an enumeration's type where the
 * parameter has one; a template template argument (an epilogue, a
 * reduction policy) as the call spells its name; type arguments are left
 * out (null): a task's element types are kslice --types' choice.  The
 * types the call gives (canonical spellings, "types", null for the other
 * arguments) go with them: kslice falls back on them for a kernel that
 * does not build with --types (one written for half precision only).
 */
void
note_call(struct ctx *x, CXCursor call)
{
	CXCursor ref = clang_getCursorReferenced(call), tmpl;
	json_t *args, *types, *o;
	char *name;
	int i, n;

	if (clang_Cursor_isNull(ref) ||
	    clang_getCursorKind(ref) != CXCursor_FunctionDecl)
		return;
	tmpl = clang_getSpecializedCursorTemplate(ref);
	if (clang_Cursor_isNull(tmpl) || has_global(ref) ||
	    (n = clang_Cursor_getNumTemplateArguments(ref)) <= 0 || n > 16)
		return;
	args = json_array();
	types = json_array();
	for (i = 0; i < n; i++) {
		enum CXTemplateArgumentKind k =
		    clang_Cursor_getTemplateArgumentKind(ref, (unsigned)i);
		char buf[128];
		json_array_append_new(types, json_null());
		if (k == CXTemplateArgumentKind_Type) {
			/* types follow kslice --types, not the calls; the
			 * call's own is kept for a kernel that does not
			 * build with those */
			char *ts = k_take(clang_getTypeSpelling(
			    clang_getCanonicalType(
			    clang_Cursor_getTemplateArgumentType(ref,
			    (unsigned)i))));
			json_array_append_new(args, json_null());
			if (ts[0] != '\0' && strpbrk(ts, "()<>[]*&") == NULL)
				json_array_set_new(types, (size_t)i,
				    json_string(ts));
			free(ts);
		} else if (k == CXTemplateArgumentKind_Integral) {
			integral_arg(ref, tmpl, i, buf, sizeof(buf));
			json_array_append_new(args, json_string(buf));
		} else if (k == CXTemplateArgumentKind_Template &&
		    (name = spelled_template_arg(x, call, ref, i)) != NULL) {
			json_array_append_new(args, json_string(name));
			free(name);
		} else {
			json_decref(args);
			json_decref(types);
			return;
		}
	}
	for (i = 0; i < n && json_is_null(json_array_get(args, (size_t)i)) &&
	    json_is_null(json_array_get(types, (size_t)i)); i++)
		;
	if (i == n) {
		json_decref(args);
		json_decref(types);
		return;
	}
	o = json_object();
	json_object_set_new(o, "_call", json_pack("{s:o,s:o,s:o}", "usr",
	    k_take_json(clang_getCursorUSR(tmpl)), "args", args, "types",
	    types));
	json_array_append_new(x->u->launches, o);
}
