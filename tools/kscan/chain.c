/*
 * The operator chain: who calls a kernel's launcher, up to the name a user
 * calls it by.  Each parse notes, in the project's files, the functions it
 * defines and the names their bodies mention, the bindings that give a
 * function a name outside C++ (pybind11's m.def("op", &fn), TORCH_LIBRARY's
 * m.def/m.impl) and the registrations of a dispatcher (a REGISTER_* macro
 * naming a key and the function it dispatches to).  Once every file is
 * parsed, each kernel's chain is found by walking up from its launchers:
 * kernel -> launcher -> callers and dispatchers -> binding, shortest first.
 *
 * Names are matched by spelling across translation units (a binding file
 * declares what another file defines), and bodies are read as tokens, so
 * a call written in a macro argument (DISPATCH_DEVICE_IMPL(key, ...)) or
 * in a branch the preprocessor skipped still counts.
 */
#include "kscan.h"

#define CHAIN_DEPTH 12		/* links above the launcher */
#define CHAIN_VISIT 4096	/* functions looked at for one kernel */

struct ctok {
	char *s;
	CXTokenKind kind;
	unsigned line;
};

static struct ctok *
ctokens(CXTranslationUnit tu, CXSourceRange r, unsigned *n)
{
	CXToken *t = NULL;
	struct ctok *v;
	unsigned i;

	clang_tokenize(tu, r, &t, n);
	v = k_calloc(*n + 1, sizeof(*v));
	for (i = 0; i < *n; i++) {
		v[i].s = k_take(clang_getTokenSpelling(tu, t[i]));
		v[i].kind = clang_getTokenKind(t[i]);
		clang_getSpellingLocation(clang_getTokenLocation(tu, t[i]),
		    NULL, &v[i].line, NULL, NULL);
	}
	if (t != NULL)
		clang_disposeTokens(tu, t, *n);
	return v;
}

static void
free_ctokens(struct ctok *v, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		free(v[i].s);
	free(v);
}

static int
is(const struct ctok *t, const char *s)
{
	return strcmp(t->s, s) == 0;
}

/* ------------------------------------------------------- per parse */

struct walk {
	struct ctx *x;
	json_t *defs;
};

/* The identifiers a function's text mentions, once each, in order. */
static json_t *
mentions(struct ctx *x, CXCursor c)
{
	json_t *seen = json_object(), *out = json_array();
	struct ctok *t;
	unsigned n, i;

	t = ctokens(x->tu, clang_getCursorExtent(c), &n);
	for (i = 0; i < n; i++) {
		if (t[i].kind != CXToken_Identifier ||
		    json_object_get(seen, t[i].s) != NULL)
			continue;
		json_object_set_new(seen, t[i].s, json_true());
		json_array_append_new(out, json_string(t[i].s));
	}
	free_ctokens(t, n);
	json_decref(seen);
	return out;
}

static enum CXChildVisitResult
visit_defs(CXCursor c, CXCursor parent, CXClientData data)
{
	struct walk *w = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXSourceLocation loc = clang_getCursorLocation(c);
	CXFile sf, ef;
	unsigned line, so, eo;
	struct fileinfo *fi;
	char qname[1024];
	json_t *d;

	(void)parent;
	/* the toolkit's, the stand-ins' and the system's declarations hold
	 * no project function: not walked (most of a unit's cursors) */
	if (clang_Location_isInSystemHeader(loc))
		return CXChildVisit_Continue;
	clang_getExpansionLocation(loc, &ef, NULL, NULL, NULL);
	if (ef != NULL && !file_info(w->x, ef)->project)
		return CXChildVisit_Continue;
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec ||
	    k == CXCursor_ClassDecl || k == CXCursor_StructDecl ||
	    k == CXCursor_ClassTemplate ||
	    k == CXCursor_ClassTemplatePartialSpecialization ||
	    k == CXCursor_UnexposedDecl)
		return CXChildVisit_Recurse;
	if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod &&
	    k != CXCursor_FunctionTemplate)
		return CXChildVisit_Continue;
	if (!clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	/* a function a macro wrote (a registrar's constructor) is the
	 * registration, not a caller */
	clang_getSpellingLocation(loc, &sf, NULL, NULL, &so);
	clang_getExpansionLocation(loc, &ef, &line, NULL, &eo);
	if (sf == NULL || !clang_File_isEqual(sf, ef) || so != eo)
		return CXChildVisit_Continue;
	if ((fi = file_info(w->x, sf)) == NULL || !fi->project)
		return CXChildVisit_Continue;
	qualify(c, qname, sizeof(qname));
	d = json_array();
	json_array_append_new(d, json_string(qname));
	json_array_append_new(d, k_take_json(clang_getCursorSpelling(c)));
	json_array_append_new(d, json_string(fi->rel));
	json_array_append_new(d, json_integer(line));
	json_array_append_new(d, mentions(w->x, c));
	json_array_append_new(w->defs, d);
	return CXChildVisit_Continue;
}

/* The last identifier of tokens [a, b) that names a thing rather than
 * qualifying one or being called: &ns::fn, TORCH_FN(fn) and fn give fn;
 * a lambda gives NULL. */
static const char *
named(struct ctok *t, unsigned a, unsigned b)
{
	const char *last = NULL;
	unsigned i;

	if (a < b && is(&t[a], "["))
		return NULL;
	for (i = a; i < b; i++) {
		if (t[i].kind != CXToken_Identifier)
			continue;
		if (i + 1 < b && (is(&t[i + 1], "::") || is(&t[i + 1], "(")))
			continue;
		last = t[i].s;
	}
	return last;
}

/* The end of the argument that starts at i, inside a call whose
 * parentheses close before n: the top-level ',' or ')'. */
static unsigned
arg_end(struct ctok *t, unsigned i, unsigned n)
{
	int depth = 0;

	for (; i < n; i++) {
		if (is(&t[i], "(") || is(&t[i], "[") || is(&t[i], "{"))
			depth++;
		else if (is(&t[i], ")") || is(&t[i], "]") || is(&t[i], "}")) {
			if (depth-- == 0)
				return i;
		} else if (depth == 0 && is(&t[i], ","))
			return i;
	}
	return n;
}

static json_t *
fact(const char *a, const char *b, const char *c, const char *file,
    unsigned line)
{
	json_t *f = json_array();

	json_array_append_new(f, json_string(a));
	json_array_append_new(f, json_string(b));
	json_array_append_new(f, json_string(c));
	json_array_append_new(f, json_string(file));
	json_array_append_new(f, json_integer(line));
	return f;
}

/*
 * Bindings and registrations in the unit's own file, from its tokens: the
 * file need not parse (pybind11's and torch's headers may be missing), and
 * a macro such as PYBIND11_MODULE is only a name here.
 */
static void
scan_tokens(struct ctx *x, json_t *binds, json_t *regs)
{
	CXFile f = clang_getFile(x->tu, x->u->path);
	struct fileinfo *fi;
	struct ctok *t;
	unsigned n, i, j, e;
	const char *kind = "binding";
	char op[512];

	if (f == NULL || (fi = file_info(x, f)) == NULL || fi->size == 0)
		return;
	t = ctokens(x->tu, clang_getRange(clang_getLocationForOffset(x->tu,
	    f, 0), clang_getLocationForOffset(x->tu, f, (unsigned)fi->size)),
	    &n);
	for (i = 0; i + 3 < n; i++) {
		if (is(&t[i], "PYBIND11_MODULE"))
			kind = "pybind11";
		else if (strncmp(t[i].s, "TORCH_LIBRARY", 13) == 0)
			kind = "torch_library";
		/* m.def("op", &fn, ...), m.impl("op", TORCH_FN(fn)) */
		if ((is(&t[i], ".") || is(&t[i], "->")) &&
		    (is(&t[i + 1], "def") || is(&t[i + 1], "impl") ||
		    is(&t[i + 1], "def_static")) && is(&t[i + 2], "(") &&
		    t[i + 3].kind == CXToken_Literal && t[i + 3].s[0] == '"') {
			const char *fn = NULL;
			size_t len;
			snprintf(op, sizeof(op), "%s", t[i + 3].s + 1);
			/* a schema's name: "ns::op(Tensor x) -> Tensor" */
			op[strcspn(op, "(\"")] = '\0';
			len = strlen(op);
			for (j = i + 4; fn == NULL && j < n && is(&t[j], ",");
			    j = e) {
				e = arg_end(t, j + 1, n);
				if (t[j + 1].kind != CXToken_Literal)
					fn = named(t, j + 1, e);
			}
			if (fn != NULL && len > 0)
				json_array_append_new(binds, fact(op, fn, kind,
				    fi->rel, t[i].line));
			continue;
		}
		/* REGISTER_DEVICE_IMPL(key, CUDA, fn), REGISTER_DISPATCH(stub,
		 * &fn): a dispatcher's key and what it dispatches to; not the
		 * macro's own #define */
		if (t[i].kind == CXToken_Identifier &&
		    strstr(t[i].s, "REGISTER") != NULL && is(&t[i + 1], "(") &&
		    (i == 0 || !is(&t[i - 1], "define"))) {
			const char *key, *fn = NULL;
			e = arg_end(t, i + 2, n);
			key = named(t, i + 2, e);
			while (e < n && is(&t[e], ",")) {
				j = e + 1;
				e = arg_end(t, j, n);
				fn = named(t, j, e);
			}
			if (key != NULL && fn != NULL && strcmp(key, fn) != 0)
				json_array_append_new(regs, fact(key, fn,
				    t[i].s, fi->rel, t[i].line));
		}
	}
	free_ctokens(t, n);
}

void
chain_collect(struct ctx *x)
{
	struct walk w;
	json_t *c = json_object();

	w.x = x;
	w.defs = json_array();
	clang_visitChildren(clang_getTranslationUnitCursor(x->tu), visit_defs,
	    &w);
	json_object_set_new(c, "defs", w.defs);
	json_object_set_new(c, "binds", json_array());
	json_object_set_new(c, "regs", json_array());
	scan_tokens(x, json_object_get(c, "binds"), json_object_get(c, "regs"));
	json_decref(x->u->chain);
	x->u->chain = c;
}

/* Whether a C++ file that holds no GPU code is worth a parse for the
 * chain: it binds, registers or dispatches. */
int
chain_mentions(const char *text)
{
	if (opt.no_chain)
		return 0;
	return strstr(text, "PYBIND11_MODULE") != NULL ||
	    strstr(text, "TORCH_LIBRARY") != NULL ||
	    strstr(text, "REGISTER_") != NULL ||
	    strstr(text, "DISPATCH_") != NULL;
}

/* ------------------------------------------------------- the links */

/* Every parse's facts, deduplicated: defs, binds and regs as arrays of
 * the facts above; by_name: simple name -> def indexes; by_mention: name
 * -> indexes of defs that mention it; bound: function -> bind indexes;
 * reg_of: function -> reg indexes. */
static struct {
	int built;
	json_t *defs, *binds, *regs;
	json_t *by_name, *by_mention, *bound, *reg_of;
} g;

static void
index_add(json_t *idx, const char *key, size_t i)
{
	json_t *a = json_object_get(idx, key);

	if (a == NULL) {
		a = json_array();
		json_object_set_new(idx, key, a);
	}
	json_array_append_new(a, json_integer((json_int_t)i));
}

static void
merge(json_t *to, json_t *from, json_t *seen, int keylen)
{
	json_t *f;
	size_t i;
	char key[4096];

	json_array_foreach(from, i, f) {
		int k;
		key[0] = '\0';
		for (k = 0; k < keylen; k++) {
			json_t *v = json_array_get(f, k);
			char part[1100];
			if (json_is_string(v))
				snprintf(part, sizeof(part), "%s\t",
				    json_string_value(v));
			else
				snprintf(part, sizeof(part), "%lld\t",
				    (long long)json_integer_value(v));
			strncat(key, part, sizeof(key) - strlen(key) - 1);
		}
		if (json_object_get(seen, key) != NULL)
			continue;
		json_object_set_new(seen, key, json_true());
		json_array_append(to, f);
	}
}

static void
build(void)
{
	json_t *seen = json_object(), *f, *m;
	size_t i, j;

	g.built = 1;
	g.defs = json_array();
	g.binds = json_array();
	g.regs = json_array();
	g.by_name = json_object();
	g.by_mention = json_object();
	g.bound = json_object();
	g.reg_of = json_object();
	for (i = 0; i < nunits; i++) {
		json_t *c = units[i].chain;
		if (c == NULL)
			continue;
		/* a header's function is defined once, however many parses
		 * saw it: its name, file and line */
		merge(g.defs, json_object_get(c, "defs"), seen, 4);
		merge(g.binds, json_object_get(c, "binds"), seen, 5);
		merge(g.regs, json_object_get(c, "regs"), seen, 5);
	}
	json_decref(seen);
	json_array_foreach(g.defs, i, f) {
		index_add(g.by_name, json_string_value(json_array_get(f, 1)), i);
		json_array_foreach(json_array_get(f, 4), j, m)
			index_add(g.by_mention, json_string_value(m), i);
	}
	json_array_foreach(g.binds, i, f)
		index_add(g.bound, json_string_value(json_array_get(f, 1)), i);
	json_array_foreach(g.regs, i, f)
		index_add(g.reg_of, json_string_value(json_array_get(f, 1)), i);
}

void
chain_free(void)
{
	json_decref(g.defs);
	json_decref(g.binds);
	json_decref(g.regs);
	json_decref(g.by_name);
	json_decref(g.by_mention);
	json_decref(g.bound);
	json_decref(g.reg_of);
	memset(&g, 0, sizeof(g));
}

static json_t *
link_json(const char *role, const char *name, const char *file,
    json_int_t line)
{
	json_t *l = json_object();

	json_object_set_new(l, "role", json_string(role));
	json_object_set_new(l, "name", json_string(name));
	json_object_set_new(l, "file", json_string(file));
	json_object_set_new(l, "line", json_integer(line));
	return l;
}

static json_t *
def_link(const char *role, size_t d)
{
	json_t *f = json_array_get(g.defs, d);

	return link_json(role, json_string_value(json_array_get(f, 0)),
	    json_string_value(json_array_get(f, 2)),
	    json_integer_value(json_array_get(f, 3)));
}

/* One step of the walk: def d reached from def from (or from the
 * launches when from is -1), through registration reg (-1: a call). */
struct step {
	long from, reg;
};

static const char *
def_str(size_t d, int k)
{
	return json_string_value(json_array_get(json_array_get(g.defs, d), k));
}

/*
 * The name a caller writes to call a function of qualified name q: its
 * own, or for a function object's operator() its class's (a launcher in
 * a functor is called through an object of that type).
 */
static void
call_name(const char *q, char *buf, size_t len)
{
	size_t n = q != NULL ? strlen(q) : 0, op = strlen("::operator()");
	const char *b;

	if (n > op && strcmp(q + n - op, "::operator()") == 0) {
		for (b = q + n - op; b > q && b[-1] != ':'; b--)
			;
		snprintf(buf, len, "%.*s", (int)(q + n - op - b), b);
		return;
	}
	b = q != NULL ? strrchr(q, ':') : NULL;
	snprintf(buf, len, "%s", b != NULL ? b + 1 : q != NULL ? q : "");
}

/* Whether def e is a caller of def d that counts: not d under another
 * name (an overload), not another member of d's class. */
static int
other(size_t e, size_t d, const char *name)
{
	char en[512];
	const char *dq = def_str(d, 0), *eq = def_str(e, 0);
	size_t n = strlen(dq);

	call_name(eq, en, sizeof(en));
	if (e == d || strcmp(en, name) == 0)
		return 0;
	/* "ns::C::operator()": the members of ns::C */
	if (n > 10 && strcmp(dq + n - 10, "operator()") == 0 &&
	    strncmp(eq, dq, n - 10) == 0)
		return 0;
	return 1;
}

/* Visit def d from step s, once. */
static void
reach(json_t *queue, struct step *steps, size_t d, long from, long reg)
{
	if (steps[d].from != -2 || json_array_size(queue) >= CHAIN_VISIT)
		return;
	steps[d].from = from;
	steps[d].reg = reg;
	json_array_append_new(queue, json_integer((json_int_t)d));
}

/* The functions that stand for a registration's key: those of its name,
 * else (a dispatch stub is a variable) those that mention it. */
static json_t *
dispatchers(const char *key)
{
	json_t *a = json_object_get(g.by_name, key);

	return a != NULL ? a : json_object_get(g.by_mention, key);
}

/*
 * scan.op and scan.chain of one kernel record's scan section, from its
 * launches: the shortest way up to a binding, or, with none, the launcher
 * and its callers while each has one; no chain when that is the launcher
 * alone.
 */
void
chain_link(json_t *scan)
{
	json_t *queue, *chain, *l, *a, *v;
	struct step *steps;
	char cn[512];
	size_t i, j, qi, nd;
	long found = -1, bind = -1, d;
	int depth;

	if (opt.no_chain)
		return;
	if (!g.built)
		build();
	queue = json_array();
	nd = json_array_size(g.defs);
	steps = k_calloc(nd + 1, sizeof(*steps));
	for (i = 0; i < nd; i++)
		steps[i].from = -2;
	json_array_foreach(json_object_get(scan, "launches"), i, l) {
		const char *fn = k_get_str(l, "function");
		json_array_foreach(json_object_get(g.by_name, fn != NULL &&
		    strrchr(fn, ':') != NULL ? strrchr(fn, ':') + 1 : fn ?
		    fn : ""), j, v)
			if (fn != NULL && strcmp(def_str(
			    (size_t)json_integer_value(v), 0), fn) == 0)
				reach(queue, steps, (size_t)json_integer_value(
				    v), -1, -1);
	}
	for (qi = 0; qi < json_array_size(queue) && found < 0; qi++) {
		size_t dd = (size_t)json_integer_value(json_array_get(queue,
		    qi));
		const char *s = def_str(dd, 1);
		if ((a = json_object_get(g.bound, s)) != NULL) {
			found = (long)dd;
			bind = (long)json_integer_value(json_array_get(a, 0));
			break;
		}
		json_array_foreach(json_object_get(g.reg_of, s), j, v) {
			size_t r = (size_t)json_integer_value(v), k;
			json_t *dv;
			json_array_foreach(dispatchers(json_string_value(
			    json_array_get(json_array_get(g.regs, r), 0))), k,
			    dv)
				reach(queue, steps, (size_t)json_integer_value(
				    dv), (long)dd, (long)r);
		}
		call_name(def_str(dd, 0), cn, sizeof(cn));
		json_array_foreach(json_object_get(g.by_mention, cn), j, v)
			if (other((size_t)json_integer_value(v), dd, cn))
				reach(queue, steps, (size_t)json_integer_value(
				    v), (long)dd, -1);
	}
	if (json_array_size(queue) == 0) {
		free(steps);
		json_decref(queue);
		return;
	}
	chain = json_array();
	json_array_append_new(chain, link_json("kernel", k_get_str(scan,
	    "qualified_name"), k_get_str(scan, "file"), k_get_int(scan, "line",
	    0)));
	if (found < 0) {
		/* no binding: the first launcher and its callers while there
		 * is one caller */
		d = (long)json_integer_value(json_array_get(queue, 0));
		for (depth = 0; d >= 0 && depth <= CHAIN_DEPTH; depth++) {
			json_t *up, *uv;
			long next = -1;
			int n = 0;
			call_name(def_str((size_t)d, 0), cn, sizeof(cn));
			up = json_object_get(g.by_mention, cn);
			json_array_append_new(chain, def_link(depth == 0 ?
			    "launcher" : "function", (size_t)d));
			json_array_foreach(up, j, uv)
				if (other((size_t)json_integer_value(uv),
				    (size_t)d, cn)) {
					next = (long)json_integer_value(uv);
					n++;
				}
			d = n == 1 ? next : -1;
		}
	} else {
		/* the path from the launcher up to the bound function */
		long path[CHAIN_DEPTH + 2];
		int n = 0, k;
		for (d = found; d >= 0 && n < CHAIN_DEPTH + 2;
		    d = steps[d].from)
			path[n++] = d;
		for (k = n - 1; k >= 0; k--) {
			long r = steps[path[k]].reg;
			json_t *link = def_link(k == n - 1 ? "launcher" : r >= 0
			    ? "dispatcher" : "function", (size_t)path[k]);
			if (r >= 0) {
				json_t *f = json_array_get(g.regs, (size_t)r);
				json_t *reg = json_object();
				json_object_set_new(reg, "macro", json_copy(
				    json_array_get(f, 2)));
				json_object_set_new(reg, "key", json_copy(
				    json_array_get(f, 0)));
				json_object_set_new(reg, "file", json_copy(
				    json_array_get(f, 3)));
				json_object_set_new(reg, "line", json_copy(
				    json_array_get(f, 4)));
				json_object_set_new(link, "registration", reg);
			}
			json_array_append_new(chain, link);
		}
		{
			json_t *f = json_array_get(g.binds, (size_t)bind);
			json_t *b = link_json("binding", json_string_value(
			    json_array_get(f, 1)), json_string_value(
			    json_array_get(f, 3)), json_integer_value(
			    json_array_get(f, 4)));
			json_object_set_new(b, "kind", json_copy(
			    json_array_get(f, 2)));
			json_object_set_new(b, "op", json_copy(
			    json_array_get(f, 0)));
			json_array_append_new(chain, b);
			json_object_set_new(scan, "op", json_copy(
			    json_array_get(f, 0)));
		}
	}
	/* the launcher alone is in scan.launches already */
	if (json_array_size(chain) > 2)
		json_object_set_new(scan, "chain", chain);
	else
		json_decref(chain);
	free(steps);
	json_decref(queue);
}

/* ------------------------------------------- C++ files that call */

/* Whether text calls a name in names: an identifier followed by "(". */
static int
calls_any(const char *text, json_t *names)
{
	const char *p = text, *b;
	char name[256];

	while (*p != '\0') {
		if (!(isalpha((unsigned char)*p) || *p == '_')) {
			p++;
			continue;
		}
		for (b = p; isalnum((unsigned char)*p) || *p == '_'; p++)
			;
		if ((size_t)(p - b) >= sizeof(name))
			continue;
		memcpy(name, b, (size_t)(p - b));
		name[p - b] = '\0';
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == '(' && json_object_get(names, name) != NULL)
			return 1;
	}
	return 0;
}

/*
 * The C++ files that hold no kernel and neither bind nor register but call
 * a launcher, or a function that calls one, however far up (a plain C++
 * API over the launchers): new units for them, parsed next.  Returns how
 * many; call again after they are parsed, for their callers.
 */
size_t
chain_more(void)
{
	json_t *names, *e, *f, *m;
	size_t i, j, k, added = 0, n = nunits;
	int grew = 1;

	if (opt.no_chain)
		return 0;
	names = json_object();
	for (i = 0; i < n; i++)
		json_array_foreach(units[i].launches, j, e)
			if (k_get_str(e, "function") != NULL) {
				char cn[512];
				call_name(k_get_str(e, "function"), cn,
				    sizeof(cn));
				json_object_set_new(names, cn, json_true());
			}
	/* the functions above them in every parsed file */
	while (grew) {
		grew = 0;
		for (i = 0; i < n; i++)
			json_array_foreach(json_object_get(units[i].chain,
			    "defs"), j, f) {
				char s[512];
				call_name(json_string_value(json_array_get(f,
				    0)), s, sizeof(s));
				if (s[0] == '\0' || json_object_get(names, s))
					continue;
				json_array_foreach(json_array_get(f, 4), k, m)
					if (json_object_get(names,
					    json_string_value(m)) != NULL) {
						json_object_set_new(names, s,
						    json_true());
						grew = 1;
						break;
					}
			}
	}
	for (i = 0; i < n && json_object_size(names) > 0; i++) {
		struct unit *u = &units[i], *nu;
		char *text;
		size_t len;
		if (u->header != -1 || u->path[0] == '\0' || u->chain != NULL)
			continue;
		if ((text = k_file_read(u->path, MAX_SOURCE, &len)) == NULL)
			continue;
		/* a file the text filter let through was parsed already */
		if (!looks_binary(text, len) && !mentions_gpu(text) &&
		    !chain_mentions(text) && calls_any(text, names)) {
			/* parsed as a named file is: whatever it mentions */
			nu = add_unit(units[i].path, units[i].dir, 0);
			u = &units[i];	/* add_unit may move the table */
			for (j = 0; j < u->flags.n; j++)
				k_strv_push(&nu->flags, u->flags.v[j]);
			nu->build_flags = json_incref(u->build_flags);
			/* this one is done with */
			u->header = -2;
			added++;
		}
		free(text);
	}
	json_decref(names);
	return added;
}
