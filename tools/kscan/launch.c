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
static json_t *
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

void
check_launch(struct ctx *x, CXCursor call)
{
	CXCursor ref = clang_getCursorReferenced(call), kernel, tmpl;
	struct findref fr;
	struct fileinfo *fi;
	struct tok *t;
	unsigned n, i, line, off, chev = 0, close;
	const char *kind;
	char *name, fname[1024];
	json_t *l, *args = NULL, *cfg = NULL;
	char key[PATH_MAX + 64];

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
		if (clang_Cursor_getNumArguments(call) < 1)
			return;
		kernel = kernel_in(clang_Cursor_getArgument(call, 0));
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
		if (chev == n || chev == 0) {
			json_decref(l);
			free_tokens(t, n);
			return;
		}
		json_object_set_new(l, "kernel",
		    folded_json(fi, t[0].a, t[chev - 1].b));
		close = matching(t, chev, n);
		cfg = split_args(fi, t, chev + 1, close);
		if (close + 1 < n && strcmp(t[close + 1].s, "(") == 0)
			args = split_args(fi, t, close + 2,
			    matching(t, close + 1, n));
	} else {
		json_t *all;
		for (i = 0; i < n && strcmp(t[i].s, "(") != 0; i++)
			;
		all = split_args(fi, t, i + 1, matching(t, i, n));
		json_object_set_new(l, "kernel", json_array_size(all) > 0 ?
		    json_incref(json_array_get(all, 0)) : json_string(""));
		cfg = json_array();
		args = json_array();
		if (strcmp(kind, "hipLaunchKernelGGL") == 0) {
			/* kernel, grid, block, shmem, stream, args... */
			for (i = 1; i < json_array_size(all); i++)
				json_array_append(i <= 4 ? cfg : args,
				    json_array_get(all, i));
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

	/* matching keys, removed before output */
	json_object_set_new(l, "_usr", k_take_json(clang_getCursorUSR(kernel)));
	tmpl = clang_getSpecializedCursorTemplate(kernel);
	json_object_set_new(l, "_tusr", clang_Cursor_isNull(tmpl) ?
	    json_string("") : k_take_json(clang_getCursorUSR(tmpl)));
	snprintf(key, sizeof(key), "%s:%u", fi->real, off);
	json_object_set_new(l, "_key", json_string(key));
	json_array_append_new(x->u->launches, l);
	free_tokens(t, n);
}
