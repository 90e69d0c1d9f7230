/*
 * kscan: launch values resolved to the launcher's parameters and
 * constants (launches[].resolved), and the conditions a launch runs
 * under (launches[].conditions, conds.c reads them).
 */
#include "kscan.h"

/*
 * Launch values resolved to the launcher's parameters and constants: a
 * local (dim3 grid(...), int threads = ...) is replaced by its one
 * initializer or its one later assignment, a macro by its body (its
 * arguments substituted), a constant by its value, a call of a helper
 * whose body is one return statement by that expression; what cannot be
 * followed stays as spelled.  The text is the record's
 * launches[].resolved.
 */
#define RES_DEPTH 8
#define RES_MAX 2048

struct res {
	struct ctx *x;
	struct k_buf out;
	struct tok *ft;		/* the enclosing function's tokens */
	unsigned fn;
	char *sw_name, *sw_val;	/* switch (sw_name) { case sw_val: <launch> */
};

struct subst {
	char **name, **val;
	unsigned n;
};

static void res_range(struct res *r, struct fileinfo *fi, struct tok *t,
    unsigned a, unsigned b, int in_macro, const struct subst *sb, int depth);

static int
is_ident_s(const char *s)
{
	return s != NULL && (isalpha((unsigned char)s[0]) || s[0] == '_');
}

static void
res_emit(struct res *r, const char *s)
{
	const char *prev = r->out.n > 0 ? r->out.s + r->out.n - 1 : NULL;
	int two = r->out.n > 1;
	int glue = prev == NULL || *prev == '(' || *prev == '[' ||
	    *prev == '.' || (*prev == ':' && two && prev[-1] == ':') ||
	    (*prev == '>' && two && prev[-1] == '-') || *prev == '~';

	if (strcmp(s, ")") == 0 || strcmp(s, "]") == 0 ||
	    strcmp(s, ",") == 0 || strcmp(s, ".") == 0 ||
	    strcmp(s, "->") == 0 || strcmp(s, "::") == 0 ||
	    (strcmp(s, "(") == 0 && prev != NULL &&
	    (isalnum((unsigned char)*prev) || *prev == '_' || *prev == '>')))
		glue = 1;
	if (strcmp(s, "::") == 0 || strcmp(s, ".") == 0)
		glue = 1;
	if (!glue)
		k_buf_add(&r->out, " ");
	k_buf_add(&r->out, s);
}

/* The definition of macro name, the unit's last one, or a null cursor. */
static CXCursor
macro_named(struct res *r, const char *name)
{
	return macro_def(r->x, name);
}

/* The first max items of t[a..b); how many were stored. */
unsigned
split_ranges(struct tok *t, unsigned a, unsigned b, unsigned *as,
    unsigned *ae, unsigned max)
{
	unsigned n = split_items(t, a, b, as, ae, max);

	return n < max ? n : max;
}

/* The argument ranges of the call whose '(' is t[open]: starts and ends
 * in as, ae (at most max); the count, or -1 with no closing ')' or more
 * than max arguments. */
static int
call_args(struct tok *t, unsigned open, unsigned n, unsigned *as,
    unsigned *ae, int max, unsigned *close)
{
	unsigned na;

	*close = matching(t, open, n);
	if (*close >= n)
		return -1;
	na = split_items(t, open + 1, *close, as, ae, (unsigned)max);
	return na > (unsigned)max ? -1 : (int)na;
}

/* Each argument of the call at t[open] resolved on its own. */
static int
resolved_args(struct res *r, struct fileinfo *fi, struct tok *t,
    unsigned open, unsigned n, int in_macro, const struct subst *sb,
    int depth, char **val, int max, unsigned *close)
{
	unsigned as[16], ae[16];
	int na = call_args(t, open, n, as, ae, max < 16 ? max : 16, close), i;
	struct k_buf save;

	for (i = 0; i < na; i++) {
		save = r->out;
		memset(&r->out, 0, sizeof(r->out));
		r->out.max = RES_MAX;
		res_range(r, fi, t, as[i], ae[i], in_macro, sb, depth + 1);
		val[i] = k_buf_take(&r->out);
		k_buf_free(&r->out);
		r->out = save;
	}
	return na;
}

static void
free_vals(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
}

/* Whether cursor c is declared in a file of the project (not the
 * toolkit, the prelude or a system header): only those are followed,
 * so that the text is the same with and without the precompiled
 * toolkit headers, whose macros have no preprocessing record. */
static int
in_project(struct res *r, CXCursor c)
{
	unsigned line, off;
	struct fileinfo *fi = where(r->x, clang_getCursorLocation(c), &line,
	    &off);

	return fi != NULL && fi->project;
}

/* A macro's body with its parameters bound; t[*i] is its name. */
static int
expand_macro(struct res *r, CXCursor def, struct fileinfo *fi,
    struct tok *t, unsigned *i, unsigned n, int in_macro,
    const struct subst *sb, int depth)
{
	struct fileinfo *dfi;
	struct tok *dt;
	unsigned dn, j, body = 1, close = *i;
	char *pn[16], *pv[16];
	int np = 0, na = 0, ok = 0;
	struct subst s = { pn, pv, 0 };

	if (clang_Cursor_isNull(def) || depth >= RES_DEPTH ||
	    !in_project(r, def))
		return 0;
	if (clang_Cursor_isMacroFunctionLike(def) &&
	    (*i + 1 >= n || strcmp(t[*i + 1].s, "(") != 0))
		return 0;
	dt = tokens(r->x, clang_getCursorExtent(def), &dn, &dfi);
	if (dn == 0 || dn > 64) {
		free_tokens(dt, dn);
		return 0;
	}
	if (clang_Cursor_isMacroFunctionLike(def)) {
		for (j = 2; j < dn && strcmp(dt[j].s, ")") != 0; j++)
			if (is_ident_s(dt[j].s) && np < 16)
				pn[np++] = dt[j].s;
		body = j + 1;
		na = resolved_args(r, fi, t, *i + 1, n, in_macro, sb, depth,
		    pv, 16, &close);
		if (na != np && !(np == 0 && na <= 0)) {
			free_vals(pv, na > 0 ? na : 0);
			free_tokens(dt, dn);
			return 0;
		}
		s.n = (unsigned)np;
	}
	for (j = body; j < dn; j++)
		if (strcmp(dt[j].s, ";") == 0 || strcmp(dt[j].s, "{") == 0 ||
		    strcmp(dt[j].s, "#") == 0 || strcmp(dt[j].s, "##") == 0)
			break;
	if (j == dn && body < dn) {
		int wrap = dn - body > 1;
		if (wrap)
			res_emit(r, "(");
		res_range(r, dfi, dt, body, dn, 1, &s, depth + 1);
		if (wrap)
			res_emit(r, ")");
		ok = 1;
		*i = close;
	}
	free_vals(pv, na > 0 ? na : 0);
	free_tokens(dt, dn);
	return ok;
}

#define MAX_BODY 8

struct body {
	CXCursor st[MAX_BODY];
	int n;			/* statements; -1 before the body */
};

static enum CXChildVisitResult
body_of(CXCursor c, CXCursor parent, CXClientData data)
{
	struct body *s = data;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CompoundStmt && s->n < 0) {
		s->n = 0;
		return CXChildVisit_Recurse;
	}
	if (s->n >= 0) {
		if (s->n == MAX_BODY)
			return CXChildVisit_Break;
		s->st[s->n++] = c;
	}
	return CXChildVisit_Continue;
}

struct params {
	CXCursor c[16];
	int n;
};

static enum CXChildVisitResult
param_of(CXCursor c, CXCursor parent, CXClientData data)
{
	struct params *p = data;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_ParmDecl) {
		if (p->n == 16 || p->n < 0) {
			p->n = -1;
			return CXChildVisit_Break;
		}
		p->c[p->n++] = c;
	}
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult
first_var(CXCursor c, CXCursor parent, CXClientData data)
{
	CXCursor *v = data;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_VarDecl) {
		*v = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* The text of what follows the first '=' of declaration d (a default
 * argument, a local's initializer), resolved with sb bound; NULL when
 * there is none. */
static char *
init_text(struct res *r, CXCursor d, const struct subst *sb, int depth)
{
	struct fileinfo *dfi;
	struct tok *dt;
	unsigned dn, i, e;
	struct k_buf save = r->out;
	char *v = NULL;

	dt = tokens(r->x, clang_getCursorExtent(d), &dn, &dfi);
	for (i = 0; i < dn && strcmp(dt[i].s, "=") != 0; i++)
		;
	e = dn;
	if (e > 0 && strcmp(dt[e - 1].s, ";") == 0)
		e--;
	if (i + 1 < e && e - i <= 64) {
		memset(&r->out, 0, sizeof(r->out));
		r->out.max = RES_MAX;
		res_range(r, dfi, dt, i + 1, e, 0, sb, depth + 1);
		v = k_buf_full(&r->out) ? NULL : k_buf_take(&r->out);
		k_buf_free(&r->out);
		r->out = save;
	}
	free_tokens(dt, dn);
	return v;
}

/* A call of a helper whose body is locals with initializers, then one
 * return statement: that expression, the locals substituted, the
 * parameters bound to the call's arguments or their defaults. */
static int
inline_call(struct res *r, CXCursor fn, struct fileinfo *fi, struct tok *t,
    unsigned *i, unsigned n, int in_macro, const struct subst *sb, int depth)
{
	CXCursor def = clang_getCursorDefinition(fn), ret;
	struct body s;
	struct params ps;
	struct fileinfo *bfi;
	struct tok *bt;
	unsigned bn, close, nv = 0, k;
	char *pn[16 + MAX_BODY] = { 0 }, *pv[16 + MAX_BODY] = { 0 };
	int na, ok = 0;
	struct subst sub = { pn, pv, 0 };

	if (clang_Cursor_isNull(def) || depth >= RES_DEPTH ||
	    clang_Location_isInSystemHeader(clang_getCursorLocation(def)))
		return 0;	/* std::min stays min: kwrap reads it */
	s.n = -1;
	clang_visitChildren(def, body_of, &s);
	if (s.n < 1 || s.n > MAX_BODY ||
	    clang_getCursorKind(s.st[s.n - 1]) != CXCursor_ReturnStmt)
		return 0;
	for (k = 0; k + 1 < (unsigned)s.n; k++)
		if (clang_getCursorKind(s.st[k]) != CXCursor_DeclStmt)
			return 0;
	ps.n = 0;
	clang_visitChildren(def, param_of, &ps);
	if (ps.n < 0)
		return 0;
	na = resolved_args(r, fi, t, *i + 1, n, in_macro, sb, depth, pv, 16,
	    &close);
	if (na < 0 || na > ps.n) {
		free_vals(pv, na > 0 ? na : 0);
		return 0;
	}
	for (k = 0; k < (unsigned)ps.n; k++) {
		pn[k] = k_take(clang_getCursorSpelling(ps.c[k]));
		if ((int)k >= na && (pv[k] = init_text(r, ps.c[k], NULL,
		    depth)) == NULL)
			goto out;
	}
	nv = (unsigned)ps.n;
	sub.n = nv;
	for (k = 0; k + 1 < (unsigned)s.n; k++) {
		CXCursor v = clang_getNullCursor();
		clang_visitChildren(s.st[k], first_var, &v);
		if (clang_Cursor_isNull(v))
			goto out;
		pn[nv] = k_take(clang_getCursorSpelling(v));
		pv[nv] = init_text(r, v, &sub, depth);
		nv++;
		if (pv[nv - 1] == NULL)
			goto out;
		sub.n = nv;
	}
	ret = s.st[s.n - 1];
	bt = tokens(r->x, clang_getCursorExtent(ret), &bn, &bfi);
	if (bn > 1 && bn <= 64 && strcmp(bt[0].s, "return") == 0) {
		unsigned e = bn;
		if (strcmp(bt[e - 1].s, ";") == 0)
			e--;
		res_emit(r, "(");
		res_range(r, bfi, bt, 1, e, 0, &sub, depth + 1);
		res_emit(r, ")");
		*i = close;
		ok = 1;
	}
	free_tokens(bt, bn);
out:
	free_vals(pv, 16 + MAX_BODY);
	free_vals(pn, 16 + MAX_BODY);
	return ok;
}

static int
is_dim(const char *s)
{
	return strcmp(s, "x") == 0 || strcmp(s, "y") == 0 ||
	    strcmp(s, "z") == 0;
}

/* Whether the one later assignment of name, ft[at] = ft[pa..pe), is a
 * cap: if (name > X) name = X; (or >=), which makes the value min(its
 * initializer, X). */
static int
capped(struct res *r, const char *name, unsigned at, unsigned pa,
    unsigned pe)
{
	unsigned close, open, j;
	int depth = 0;

	if (at < 5 || strcmp(r->ft[at - 1].s, ")") != 0)
		return 0;
	close = at - 1;
	for (open = close; ; open--) {
		if (strcmp(r->ft[open].s, ")") == 0)
			depth++;
		else if (strcmp(r->ft[open].s, "(") == 0 && --depth == 0)
			break;
		if (open == 0)
			return 0;
	}
	if (open < 1 || strcmp(r->ft[open - 1].s, "if") != 0 ||
	    strcmp(r->ft[open + 1].s, name) != 0 ||
	    (strcmp(r->ft[open + 2].s, ">") != 0 &&
	    strcmp(r->ft[open + 2].s, ">=") != 0) ||
	    close - (open + 3) != pe - pa)
		return 0;
	for (j = 0; j < pe - pa; j++)
		if (strcmp(r->ft[open + 3 + j].s, r->ft[pa + j].s) != 0)
			return 0;
	return 1;
}

/* A local's value: its initializer when nothing assigns it later, else
 * its one later plain assignment when it has no initializer; a dim3's
 * .x/.y/.z assigned once each replace its initializer's terms. */
static int
expand_local(struct res *r, CXCursor var, int comp, int depth)
{
	char *name = k_take(clang_getCursorSpelling(var));
	CXType ty = clang_getCanonicalType(clang_getCursorType(var));
	char *tyname = k_take(clang_getTypeSpelling(ty));
	int is_dim3 = strstr(tyname, "dim3") != NULL;
	unsigned line, voff, i, dn, as[3] = { 0 }, ae[3] = { 0 };
	unsigned ma[3] = { 0 }, me[3] = { 0 };
	unsigned pa = 0, pe = 0, at = 0, nplain = 0, other = 0;
	int mset[3] = { 0 }, ok = 0, d, nc = 0, cap = 0, own = 1;
	struct fileinfo *vfi, *dfi;
	struct tok *dt;

	vfi = where(r->x, clang_getCursorLocation(var), &line, &voff);
	for (i = 0; vfi != NULL && i < r->fn; i++) {
		const char *p = i > 0 ? r->ft[i - 1].s : "";
		const char *nx = i + 1 < r->fn ? r->ft[i + 1].s : "";
		/* another variable of the name declared elsewhere in the
		 * function (int n = ..., dim3 g(...)) is no assignment */
		if (strcmp(r->ft[i].s, name) != 0 || r->ft[i].a == voff ||
		    strcmp(p, ".") == 0 || strcmp(p, "->") == 0 ||
		    strcmp(p, "::") == 0 || (is_ident_s(p) &&
		    strcmp(p, "return") != 0))
			continue;
		if (strcmp(nx, "=") == 0) {
			static const char *const end[] = { ";", ",", ")",
			    NULL };
			unsigned j = next_top(r->ft, i + 2, r->fn, end);
			nplain++;
			pa = i + 2;
			pe = j;
			at = i;
		} else if (strcmp(nx, ".") == 0 && i + 3 < r->fn &&
		    is_dim(r->ft[i + 2].s) && strcmp(r->ft[i + 3].s, "=") == 0) {
			unsigned j = i + 4;
			d = r->ft[i + 2].s[0] - 'x';
			while (j < r->fn && strcmp(r->ft[j].s, ";") != 0)
				j++;
			if (mset[d]++ == 0) {
				ma[d] = i + 4;
				me[d] = j;
			}
		} else if ((strlen(nx) == 2 && nx[1] == '=' && nx[0] != '=') ||
		    strcmp(nx, "++") == 0 || strcmp(nx, "--") == 0 ||
		    strcmp(p, "++") == 0 || strcmp(p, "--") == 0 ||
		    strcmp(p, "&") == 0)
			other++;
	}
	for (d = 0; d < 3; d++)
		if (mset[d] > 1)
			other++;
	if (other > 0 || nplain > 1 || (comp >= 0 && !is_dim3))
		goto out;
	if (nplain == 1)
		cap = capped(r, name, at, pa, pe);
	if (nplain == 1 && !cap && !mset[0] && !mset[1] && !mset[2] &&
	    comp < 0) {
		/* the one later assignment, if the declaration has no
		 * initializer of its own */
		dt = tokens(r->x, clang_getCursorExtent(var), &dn, &dfi);
		for (i = 0; i < dn && dt[i].a != voff; i++)
			;
		if (i + 1 >= dn || (strcmp(dt[i + 1].s, "=") != 0 &&
		    strcmp(dt[i + 1].s, "(") != 0 &&
		    strcmp(dt[i + 1].s, "{") != 0)) {
			res_emit(r, "(");
			res_range(r, r->ft == NULL ? NULL : vfi, r->ft, pa, pe,
			    0, NULL, depth + 1);
			res_emit(r, ")");
			ok = 1;
		}
		free_tokens(dt, dn);
		goto out;
	}
	if (nplain == 1 && !cap)
		goto out;
	/* the initializer, read from the function's own tokens (a
	 * declaration whose initializer did not parse has an extent that
	 * stops at its name), else from the declaration's */
	for (i = 0; i < r->fn && (r->ft[i].a != voff || vfi == NULL); i++)
		;
	if (i < r->fn) {
		dt = r->ft;
		dn = r->fn;
		dfi = vfi;
		own = 0;
	} else {
		dt = tokens(r->x, clang_getCursorExtent(var), &dn, &dfi);
		for (i = 0; i < dn && dt[i].a != voff; i++)
			;
	}
	if (i + 1 < dn && (strcmp(dt[i + 1].s, "(") == 0 ||
	    strcmp(dt[i + 1].s, "{") == 0)) {
		unsigned close;
		nc = call_args(dt, i + 1, dn, as, ae, 3, &close);
	} else if (i + 1 < dn && strcmp(dt[i + 1].s, "=") == 0) {
		unsigned j = i + 2;
		if (j + 1 < dn && strcmp(dt[j].s, "dim3") == 0 &&
		    strcmp(dt[j + 1].s, "(") == 0) {
			unsigned close;
			nc = call_args(dt, j + 1, dn, as, ae, 3, &close);
		} else if (!is_dim3) {
			static const char *const end[] = { ";", ",", NULL };
			j = next_top(dt, j, dn, end);
			if (j > i + 2) {
				res_emit(r, cap ? "min(" : "(");
				res_range(r, dfi, dt, i + 2, j, 0, NULL,
				    depth + 1);
				if (cap) {
					res_emit(r, ",");
					res_range(r, vfi, r->ft, pa, pe, 0, NULL,
					    depth + 1);
				}
				res_emit(r, ")");
				ok = 1;
			}
		}
	} else if (is_dim3 && i + 1 < dn && (strcmp(dt[i + 1].s, ";") == 0 ||
	    strcmp(dt[i + 1].s, ",") == 0))
		nc = 0;		/* dim3 g; : 1, 1, 1 until assigned */
	else {
		if (own)
			free_tokens(dt, dn);
		goto out;
	}
	if (!ok && nc >= 0 && (is_dim3 || nc == 1) && (comp < 0 || is_dim3)) {
		if (is_dim3 && comp < 0)
			res_emit(r, "dim3(");
		else
			res_emit(r, "(");
		for (d = 0; d < (is_dim3 ? 3 : 1); d++) {
			if (comp >= 0 && d != comp)
				continue;
			if (d > 0 && comp < 0)
				res_emit(r, ",");
			if (mset[d])
				res_range(r, vfi, r->ft, ma[d], me[d], 0, NULL,
				    depth + 1);
			else if (d < nc)
				res_range(r, dfi, dt, as[d], ae[d], 0, NULL,
				    depth + 1);
			else
				res_emit(r, "1");
		}
		res_emit(r, ")");
		ok = 1;
	}
	if (own)
		free_tokens(dt, dn);
out:
	free(name);
	free(tyname);
	return ok;
}

static int
is_local(CXCursor var)
{
	CXCursor p = clang_getCursorSemanticParent(var);
	enum CXCursorKind k = clang_getCursorKind(p);

	return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod ||
	    k == CXCursor_FunctionTemplate || k == CXCursor_Constructor ||
	    k == CXCursor_LambdaExpr;
}

/* A constant's value, or 0. */
static int
constant_of(CXCursor c, long long *v)
{
	CXEvalResult e;
	int ok = 0;

	if (clang_getCursorKind(c) == CXCursor_EnumConstantDecl) {
		*v = clang_getEnumConstantDeclValue(c);
		return 1;
	}
	e = clang_Cursor_Evaluate(c);
	if (e == NULL)
		return 0;
	if (clang_EvalResult_getKind(e) == CXEval_Int) {
		*v = clang_EvalResult_getAsLongLong(e);
		ok = 1;
	}
	clang_EvalResult_dispose(e);
	return ok;
}

/* The name t[*i] replaced by what it stands for: a bound parameter, a
 * macro's body, a local's value, a constant, a helper's expression; 1
 * when something was written (*i then past what was consumed), 0 when
 * nothing was. */
static int
res_ident(struct res *r, struct fileinfo *fi, struct tok *t, unsigned *i,
    unsigned b, int in_macro, const struct subst *sb, int depth)
{
	const char *s = t[*i].s;
	CXCursor c, ref;
	long long v;
	char num[32];
	unsigned k;
	int comp;

	for (k = 0; sb != NULL && k < sb->n; k++)
		if (strcmp(sb->name[k], s) == 0) {
			res_emit(r, "(");
			res_emit(r, sb->val[k]);
			res_emit(r, ")");
			return 1;
		}
	if (r->sw_name != NULL && strcmp(r->sw_name, s) == 0 && !in_macro &&
	    sb == NULL) {
		/* the launch is under case sw_val of a switch on this name */
		res_emit(r, r->sw_val);
		return 1;
	}
	if (in_macro || fi == NULL)
		return expand_macro(r, macro_named(r, s), fi, t, i, b, in_macro,
		    sb, depth);
	c = clang_getCursor(r->x->tu, clang_getLocationForOffset(r->x->tu,
	    fi->file, t[*i].a));
	if (clang_getCursorKind(c) == CXCursor_MacroExpansion)
		return expand_macro(r, clang_getCursorReferenced(c), fi, t, i,
		    b, in_macro, sb, depth);
	ref = clang_getCursorReferenced(c);
	switch (clang_getCursorKind(ref)) {
	case CXCursor_EnumConstantDecl:
		if (!constant_of(ref, &v))
			return 0;
		break;
	case CXCursor_VarDecl:
		if (is_local(ref)) {
			comp = *i + 2 < b && strcmp(t[*i + 1].s, ".") == 0 &&
			    is_dim(t[*i + 2].s) ? t[*i + 2].s[0] - 'x' : -1;
			if (!expand_local(r, ref, comp, depth))
				return 0;
			if (comp >= 0)
				*i += 2;
			return 1;
		}
		if (!clang_isConstQualifiedType(clang_getCursorType(ref)) ||
		    !constant_of(ref, &v))
			return 0;
		break;
	case CXCursor_FunctionDecl:
	case CXCursor_FunctionTemplate:
	case CXCursor_CXXMethod:
		return *i + 1 < b && strcmp(t[*i + 1].s, "(") == 0 &&
		    inline_call(r, ref, fi, t, i, b, in_macro, sb, depth);
	default:
		return 0;
	}
	snprintf(num, sizeof(num), "%lld", v);
	res_emit(r, num);
	return 1;
}

static void
res_range(struct res *r, struct fileinfo *fi, struct tok *t, unsigned a,
    unsigned b, int in_macro, const struct subst *sb, int depth)
{
	unsigned i, j, k;

	for (i = a; i < b; i++) {
		const char *s = t[i].s, *p = i > a ? t[i - 1].s : "";

		if (!is_ident_s(s) || strcmp(p, ".") == 0 ||
		    strcmp(p, "->") == 0 || strcmp(p, "::") == 0 ||
		    depth >= RES_DEPTH) {
			res_emit(r, s);
			continue;
		}
		/* a qualified name (ns::f, ns::kConst) is its last part's */
		for (j = i; j + 2 < b && strcmp(t[j + 1].s, "::") == 0 &&
		    is_ident_s(t[j + 2].s); j += 2)
			;
		k = j;
		if (res_ident(r, fi, t, &k, b, in_macro, sb, depth)) {
			i = k;
			continue;
		}
		for (k = i; k <= j; k++)
			res_emit(r, t[k].s);
		i = j;
	}
}

/* Drops the parentheses around a single name or number that no call or
 * cast needs: ((32)) is 32, f(n) stays. */
static void
drop_parens(char *s)
{
	int changed = 1;

	while (changed) {
		char *p;
		changed = 0;
		for (p = s; (p = strchr(p, '(')) != NULL; p++) {
			char *q = p + 1;
			if (p > s && (isalnum((unsigned char)p[-1]) ||
			    p[-1] == '_' || p[-1] == '>' || p[-1] == ']'))
				continue;
			while (isalnum((unsigned char)*q) || *q == '_' ||
			    *q == '.')
				q++;
			if (q == p + 1 || *q != ')')
				continue;
			/* (float)x is a cast: its parentheses stay */
			if (isalnum((unsigned char)q[1]) || q[1] == '_' ||
			    q[1] == '(' || (q[1] == ' ' &&
			    (isalnum((unsigned char)q[2]) || q[2] == '_' ||
			    q[2] == '(')))
				continue;
			memmove(q, q + 1, strlen(q + 1) + 1);
			memmove(p, p + 1, strlen(p + 1) + 1);
			changed = 1;
			break;
		}
	}
}

/* Drops parentheses that hold the whole text. */
static void
strip_outer(char *s)
{
	size_t n = strlen(s), i;
	int depth;

	while (n > 2 && s[0] == '(' && s[n - 1] == ')') {
		for (i = 0, depth = 0; i < n; i++) {
			if (s[i] == '(')
				depth++;
			else if (s[i] == ')' && --depth == 0)
				break;
		}
		if (i != n - 1)
			return;
		memmove(s, s + 1, n - 2);
		s[n - 2] = '\0';
		n -= 2;
	}
}

/* The resolved text of t[a..b), or JSON null for an empty range or
 * one whose text grew past RES_MAX. */
static json_t *
resolve(struct res *r, struct fileinfo *fi, struct tok *t, unsigned a,
    unsigned b)
{
	json_t *j;
	char *text;

	if (a >= b)
		return json_null();
	k_buf_reset(&r->out);
	r->out.full = 0;
	r->out.max = RES_MAX;
	res_range(r, fi, t, a, b, 0, NULL, 0);
	if (k_buf_full(&r->out))
		return json_null();
	text = k_buf_take(&r->out);
	drop_parens(text);
	strip_outer(text);
	j = json_string(text);
	free(text);
	return j;
}

#define MAX_SWITCH 8
#define MAX_CONDITIONS 16

/* The innermost switch on a plain name whose case label, a number or a
 * name, the launch at offset off sits under: switch (threads) { case
 * 512: k<512><<<g, threads>>>(...); } launches 512 threads.  Sets
 * r->sw_name and r->sw_val, or leaves them NULL. */
static void
switch_context(struct res *r, unsigned off)
{
	const char *name[MAX_SWITCH], *val[MAX_SWITCH];
	int body[MAX_SWITCH], ns = 0, depth = 0;
	unsigned i;

	for (i = 0; i < r->fn && r->ft[i].a < off; i++) {
		const char *s = r->ft[i].s;
		if (strcmp(s, "{") == 0)
			depth++;
		else if (strcmp(s, "}") == 0) {
			if (ns > 0 && depth == body[ns - 1])
				ns--;
			depth--;
		} else if (strcmp(s, "switch") == 0 && i + 4 < r->fn &&
		    strcmp(r->ft[i + 1].s, "(") == 0 && ns < MAX_SWITCH) {
			/* switch ( name ) { */
			int plain = is_ident_s(r->ft[i + 2].s) &&
			    strcmp(r->ft[i + 3].s, ")") == 0 &&
			    strcmp(r->ft[i + 4].s, "{") == 0;
			name[ns] = plain ? r->ft[i + 2].s : NULL;
			val[ns] = NULL;
			body[ns++] = depth + 1;
		} else if (strcmp(s, "case") == 0 && ns > 0 &&
		    depth == body[ns - 1] && i + 2 < r->fn &&
		    strcmp(r->ft[i + 2].s, ":") == 0)
			val[ns - 1] = r->ft[i + 1].s;
		else if (strcmp(s, "default") == 0 && ns > 0 &&
		    depth == body[ns - 1])
			val[ns - 1] = NULL;
	}
	while (ns > 0 && (name[ns - 1] == NULL || val[ns - 1] == NULL))
		ns--;
	if (ns > 0) {
		r->sw_name = k_strdup(name[ns - 1]);
		r->sw_val = k_strdup(val[ns - 1]);
	}
}

/* launches[].resolved: grid, block and shared memory from cfg's ranges,
 * the kernel's arguments from args' (cudaLaunchKernel's array stays as
 * spelled: it is no list of arguments). */
json_t *
resolved_json(struct ctx *x, struct fileinfo *fi, struct tok *t,
    const unsigned *cs, const unsigned *ce, unsigned nc,
    const unsigned *as, const unsigned *ae, unsigned na, json_t *l)
{
	struct res r;
	int ffi_same = 0;
	json_t *o = json_object(), *args = json_array();
	static const char *const key[] = { "grid", "block", "shared_mem" };
	unsigned i;

	memset(&r, 0, sizeof(r));
	r.x = x;
	r.out.max = RES_MAX;
	if (x->in_func) {
		struct fileinfo *ffi;
		r.ft = tokens(x, clang_getCursorExtent(x->func), &r.fn, &ffi);
		if (ffi == fi && nc + na > 0)
			switch_context(&r, t[0].a);
		ffi_same = ffi == fi;
	}
	for (i = 0; i < 3; i++)
		json_object_set_new(o, key[i], i < nc ?
		    resolve(&r, fi, t, cs[i], ce[i]) : json_null());
	if (r.ft != NULL && ffi_same) {
		/* the conditions the launch runs under, as spelled on the
		 * launch and resolved here */
		unsigned qs[MAX_CONDITIONS], qe[MAX_CONDITIONS], nq;
		json_t *sp = json_array(), *rs = json_array();
		nq = launch_conditions(r.ft, r.fn, t[0].a, qs, qe,
		    MAX_CONDITIONS);
		for (i = 0; i < nq; i++) {
			json_t *v = resolve(&r, fi, r.ft, qs[i], qe[i]);
			json_t *f = folded_json(fi, r.ft[qs[i]].a,
			    r.ft[qe[i] - 1].b);
			json_array_append(rs, json_is_null(v) ? f : v);
			json_array_append_new(sp, f);
			json_decref(v);
		}
		json_object_set_new(l, "conditions", sp);
		json_object_set_new(o, "conditions", rs);
	}
	for (i = 0; i < na; i++) {
		json_t *v = resolve(&r, fi, t, as[i], ae[i]);
		json_array_append_new(args, json_is_null(v) ?
		    folded_json(fi, t[as[i]].a, t[ae[i] - 1].b) : v);
		if (json_is_null(v))
			json_decref(v);
	}
	json_object_set_new(o, "args", args);
	free(r.sw_name);
	free(r.sw_val);
	k_buf_free(&r.out);
	if (r.ft != NULL)
		free_tokens(r.ft, r.fn);
	return o;
}
