/*
 * The files of a translation unit and their text: positions, spelled
 * text, tokens with file offsets, qualified names.
 */
#include "kscan.h"

struct fileinfo *
file_info(struct ctx *x, CXFile f)
{
	size_t i;
	struct fileinfo *fi;
	char *name;

	for (i = 0; i < x->nfiles; i++)
		if (clang_File_isEqual(x->files[i]->file, f))
			return x->files[i];
	if (x->nfiles == x->capfiles) {
		x->capfiles = x->capfiles ? x->capfiles * 2 : 32;
		x->files = k_realloc(x->files, x->capfiles * sizeof(*x->files));
	}
	fi = k_calloc(1, sizeof(*fi));
	x->files[x->nfiles++] = fi;
	fi->file = f;
	name = k_take(clang_getFileName(f));
	fi->real = realpath(name, NULL);
	if (fi->real == NULL)
		fi->real = strdup(name);
	fi->rel = relpath(name);
	/* the toolkit's headers are system headers (--cuda-path): their
	 * __CUDA_ARCH__ tests do not make a unit need a device-side parse */
	fi->project = (strncmp(fi->real, k_prelude_dir(),
	    strlen(k_prelude_dir())) != 0 || k_prelude_dir()[0] == '\0') &&
	    !clang_Location_isInSystemHeader(clang_getLocationForOffset(x->tu,
	    f, 0));
	fi->text = clang_getFileContents(x->tu, f, &fi->size);
	free(name);
	return fi;
}

void
free_files(struct ctx *x)
{
	size_t i;

	for (i = 0; i < x->nfiles; i++) {
		free(x->files[i]->rel);
		free(x->files[i]->real);
		free(x->files[i]);
	}
	free(x->files);
	x->files = NULL;
	x->nfiles = x->capfiles = 0;
}

/* File position of a location: where a macro argument is written, else
 * where the macro that produced it is expanded. */
struct fileinfo *
where(struct ctx *x, CXSourceLocation loc, unsigned *line, unsigned *off)
{
	CXFile f;
	unsigned col;

	clang_getFileLocation(loc, &f, line, &col, off);
	if (f == NULL)
		return NULL;
	return file_info(x, f);
}

json_t *
text_json(struct fileinfo *fi, unsigned a, unsigned b)
{
	if (fi == NULL || fi->text == NULL || a > b || b > fi->size)
		return json_string("");
	return k_string_lossy(fi->text + a, b - a);
}

/* Source text of s[a..b) with runs of white space folded to one space. */
json_t *
folded_json(struct fileinfo *fi, unsigned a, unsigned b)
{
	char *buf;
	size_t i, n = 0;
	int sp = 0;
	json_t *j;

	if (fi == NULL || fi->text == NULL || a > b || b > fi->size)
		return json_string("");
	buf = k_malloc(b - a + 1);
	for (i = a; i < b; i++) {
		char ch = fi->text[i];
		if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
			sp = n > 0;
			continue;
		}
		if (sp)
			buf[n++] = ' ';
		sp = 0;
		buf[n++] = ch;
	}
	j = k_string_lossy(buf, n);
	free(buf);
	return j;
}

void
qualify(CXCursor c, char *buf, size_t len)
{
	CXCursor p = clang_getCursorSemanticParent(c);
	enum CXCursorKind k = clang_getCursorKind(p);
	char *name;

	buf[0] = '\0';
	if (!clang_Cursor_isNull(p) && k != CXCursor_TranslationUnit &&
	    !clang_isInvalid(k)) {
		qualify(p, buf, len);
		if (buf[0] != '\0')
			strncat(buf, "::", len - strlen(buf) - 1);
	}
	name = k_take(clang_getCursorSpelling(c));
	if (name[0] == '\0' && k != CXCursor_TranslationUnit &&
	    clang_getCursorKind(c) == CXCursor_Namespace)
		strncat(buf, "(anonymous namespace)", len - strlen(buf) - 1);
	else
		strncat(buf, name, len - strlen(buf) - 1);
	free(name);
}

/* Tokens of a cursor's extent, with file offsets; *fip set to their file. */
struct tok *
tokens(struct ctx *x, CXSourceRange r, unsigned *n, struct fileinfo **fip)
{
	CXToken *t = NULL;
	unsigned i, nt = 0, line, a, b;
	struct tok *out;
	struct fileinfo *sf;

	/* a range that starts or ends inside a macro expansion (__global__
	 * is a macro) tokenizes to nothing: map both ends to the file */
	sf = where(x, clang_getRangeStart(r), &line, &a);
	if (sf != NULL && where(x, clang_getRangeEnd(r), &line, &b) == sf &&
	    a <= b)
		r = clang_getRange(clang_getLocationForOffset(x->tu, sf->file, a),
		    clang_getLocationForOffset(x->tu, sf->file, b));
	clang_tokenize(x->tu, r, &t, &nt);
	out = k_calloc(nt + 1, sizeof(*out));
	*fip = NULL;
	for (i = 0; i < nt; i++) {
		CXSourceRange e = clang_getTokenExtent(x->tu, t[i]);
		struct fileinfo *fi;
		out[i].s = k_take(clang_getTokenSpelling(x->tu, t[i]));
		fi = where(x, clang_getRangeStart(e), &line, &out[i].a);
		where(x, clang_getRangeEnd(e), &line, &out[i].b);
		if (*fip == NULL)
			*fip = fi;
	}
	if (t != NULL)
		clang_disposeTokens(x->tu, t, nt);
	*n = nt;
	return out;
}

void
free_tokens(struct tok *t, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		free(t[i].s);
	free(t);
}

static int
opens(const char *s)
{
	return strcmp(s, "(") == 0 || strcmp(s, "[") == 0 ||
	    strcmp(s, "{") == 0 || strcmp(s, "<<<") == 0;
}

static int
closes(const char *s)
{
	return strcmp(s, ")") == 0 || strcmp(s, "]") == 0 ||
	    strcmp(s, "}") == 0 || strcmp(s, ">>>") == 0;
}

/* t[i], a "<" after a member or qualified name, opens a template argument
 * list within [i, b) ("x.packed_accessor32<float, 2, RestrictPtrTraits>()",
 * "ns::make<T, 4>()"): its matching ">" is followed by "(", "::" or "{",
 * and nothing between is an operator that a comparison's operands would
 * hold.  Returns that ">", or i when it is read as a comparison: a plain
 * name before it ("n < m, m > (n)" is two comparisons as written, and
 * only a declaration could say otherwise). */
static unsigned
template_list(struct tok *t, unsigned i, unsigned b)
{
	static const char *const no[] = { "&&", "||", "?", ";", "==", "!=",
	    "<=", ">=", "+", "-", "/", "%", "|", "^", "!", "=", NULL };
	unsigned j, k;
	size_t m;

	if (i < 2 || !(isalnum((unsigned char)t[i - 1].s[0]) ||
	    t[i - 1].s[0] == '_') || !(strcmp(t[i - 2].s, ".") == 0 ||
	    strcmp(t[i - 2].s, "->") == 0 || strcmp(t[i - 2].s, "::") == 0))
		return i;
	if ((j = matching_angle(t, i, b)) == i || j + 1 >= b ||
	    !(strcmp(t[j + 1].s, "(") == 0 || strcmp(t[j + 1].s, "::") == 0 ||
	    strcmp(t[j + 1].s, "{") == 0))
		return i;
	for (k = i + 1; k < j; k++)
		for (m = 0; no[m] != NULL; m++)
			if (strcmp(t[k].s, no[m]) == 0)
				return i;
	return j;
}

/* The comma-separated items of t[a..b), brackets nested and the commas
 * of a template argument list not separators: the ranges of the first
 * max in as, ae; the number of items, which may exceed max. */
unsigned
split_items(struct tok *t, unsigned a, unsigned b, unsigned *as,
    unsigned *ae, unsigned max)
{
	unsigned i, start = a, n = 0;
	int depth = 0;

	if (a >= b)
		return 0;
	for (i = a; i <= b; i++) {
		if (i == b || (depth == 0 && strcmp(t[i].s, ",") == 0)) {
			if (n < max) {
				as[n] = start;
				ae[n] = i;
			}
			n++;
			start = i + 1;
			continue;
		}
		if (strcmp(t[i].s, "<") == 0 && i > a)
			i = template_list(t, i, b);
		else if (opens(t[i].s))
			depth++;
		else if (closes(t[i].s))
			depth--;
	}
	return n;
}

/* Split tokens [a, b) at top-level commas (split_items) into an array of
 * spelled expressions, empty items left out. */
json_t *
split_args(struct fileinfo *fi, struct tok *t, unsigned a, unsigned b)
{
	json_t *arr = json_array();
	unsigned n = split_items(t, a, b, NULL, NULL, 0), i;
	unsigned *as = k_calloc(n + 1, sizeof(*as));
	unsigned *ae = k_calloc(n + 1, sizeof(*ae));

	split_items(t, a, b, as, ae, n);
	for (i = 0; i < n; i++)
		if (ae[i] > as[i])
			json_array_append_new(arr, folded_json(fi,
			    t[as[i]].a, t[ae[i] - 1].b));
	free(as);
	free(ae);
	return arr;
}

/* Index of the token closing the bracket opened at t[i], or n. */
unsigned
matching(struct tok *t, unsigned i, unsigned n)
{
	int depth = 0;

	for (; i < n; i++) {
		if (opens(t[i].s))
			depth++;
		else if (closes(t[i].s) && --depth == 0)
			return i;
	}
	return n;
}

/* The first token from t[i] on, at the depth of t[i] (brackets
 * skipped), that is one of stop, or n. */
unsigned
next_top(struct tok *t, unsigned i, unsigned n, const char *const *stop)
{
	int k;

	for (; i < n; i++) {
		if (strcmp(t[i].s, "(") == 0 || strcmp(t[i].s, "[") == 0 ||
		    strcmp(t[i].s, "{") == 0) {
			i = matching(t, i, n);
			continue;
		}
		for (k = 0; stop[k] != NULL; k++)
			if (strcmp(t[i].s, stop[k]) == 0)
				return i;
	}
	return n;
}

/* Index of the '>' closing the '<' at t[i] ('>>' closes two), or i. */
unsigned
matching_angle(struct tok *t, unsigned i, unsigned n)
{
	int depth = 0;
	unsigned j;

	for (j = i; j < n; j++) {
		if (strcmp(t[j].s, "<") == 0)
			depth++;
		else if (strcmp(t[j].s, ">") == 0)
			depth--;
		else if (strcmp(t[j].s, ">>") == 0)
			depth -= 2;
		else if (strcmp(t[j].s, "(") == 0)
			j = matching(t, j, n);
		if (depth <= 0)
			return j < n ? j : i;
	}
	return i;
}

static enum CXChildVisitResult
collect_macro(CXCursor c, CXCursor parent, CXClientData data)
{
	struct macros *m = data;
	char *name;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_MacroDefinition) {
		if (m->n == m->cap) {
			m->cap = m->cap ? 2 * m->cap : 256;
			m->def = k_realloc(m->def, m->cap * sizeof(*m->def));
		}
		m->def[m->n] = c;
		/* a later definition of a name replaces an earlier one */
		name = k_take(clang_getCursorSpelling(c));
		json_object_set_new(m->index, name,
		    json_integer((json_int_t)m->n));
		free(name);
		m->n++;
	}
	return CXChildVisit_Continue;
}

/* The definition of macro name in this parse, its last one, or a null
 * cursor; the table is read on first need. */
CXCursor
macro_def(struct ctx *x, const char *name)
{
	struct macros *m = x->mac;
	json_t *at;

	if (m->index == NULL) {
		/* by name, so that an expansion of many tokens looks each
		 * up at once */
		m->index = json_object();
		clang_visitChildren(clang_getTranslationUnitCursor(x->tu),
		    collect_macro, m);
	}
	if ((at = json_object_get(m->index, name)) == NULL)
		return clang_getNullCursor();
	return m->def[json_integer_value(at)];
}

void
macros_free(struct macros *m)
{
	free(m->def);
	json_decref(m->index);
	json_decref(m->expanded);
	memset(m, 0, sizeof(*m));
}
