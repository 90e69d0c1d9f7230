/*
 * kslice: checking a slice by parsing its text alone, and dropping the
 * macros it defines but never uses.
 */
#include "kslice.h"

struct mdefs {			/* #define lines of a slice */
	unsigned *a, *b;	/* the whole lines, continuations included */
	char **name;
	char *used;
	size_t n, cap;
};

/* Mark the macros named in s[a, b) used, but not the one whose own
 * #define line that is (self). */
static void
mark_names(struct mdefs *m, const char *s, size_t a, size_t b, size_t self)
{
	size_t i = a, j, d;

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
		for (d = 0; d < m->n; d++)
			if (d != self && strlen(m->name[d]) == j - i &&
			    strncmp(m->name[d], s + i, j - i) == 0)
				m->used[d] = 1;
		i = j;
	}
}

static unsigned
file_offset(CXSourceLocation l, CXFile main)
{
	CXFile f;
	unsigned off;

	clang_getSpellingLocation(l, &f, NULL, NULL, &off);
	return f != NULL && clang_File_isEqual(f, main) ? off : UINT_MAX;
}

static enum CXChildVisitResult
collect_uses(CXCursor c, CXCursor parent, CXClientData data)
{
	void **ctx = data;
	struct mdefs *m = ctx[0];
	const char *s = ctx[1];
	CXFile main = ctx[2];
	CXSourceRange r;
	unsigned a, b;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_MacroExpansion)
		return CXChildVisit_Continue;
	r = clang_getCursorExtent(c);
	a = file_offset(clang_getRangeStart(r), main);
	b = file_offset(clang_getRangeEnd(r), main);
	if (a != UINT_MAX && b != UINT_MAX && a <= b)
		mark_names(m, s, a, b + 1 > strlen(s) ? strlen(s) : b + 1,
		    SIZE_MAX);
	return CXChildVisit_Continue;
}

static void
free_mdefs(struct mdefs *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->name[i]);
	free(m->a);
	free(m->b);
	free(m->name);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

/* The #define lines of code nothing in the parsed slice uses: not an
 * expansion (its arguments included), not a directive or another
 * #define, not code the preprocessor skipped (the other side of
 * __CUDA_ARCH__).  Returns how many it cut from code; their names go to
 * dropped. */
static size_t
drop_unused(CXTranslationUnit tu, const char *path, struct k_buf *code,
    json_t *dropped)
{
	struct mdefs m = { 0 };
	const char *s = code->s;
	CXFile main = clang_getFile(tu, path);
	CXSourceRangeList *sk;
	struct k_buf out = KSLICE_BUF;
	size_t i = 0, j, d, cut = 0;
	unsigned k;
	void *ctx[3];

	if (main == NULL || s == NULL)
		return 0;
	/* the #define lines */
	while (s[i] != '\0') {
		size_t e = i, p = i;
		while (s[e] != '\0' && (s[e] != '\n' || (e > i &&
		    s[e - 1] == '\\')))
			e++;
		while (s[p] == ' ' || s[p] == '\t')
			p++;
		if (s[p] == '#') {
			p++;
			while (s[p] == ' ' || s[p] == '\t')
				p++;
			if (strncmp(s + p, "define", 6) == 0 &&
			    (s[p + 6] == ' ' || s[p + 6] == '\t')) {
				p += 6;
				while (s[p] == ' ' || s[p] == '\t')
					p++;
				for (j = p; is_ident_char(s[j]); j++)
					;
				if (m.n == m.cap) {
					m.cap = m.cap ? m.cap * 2 : 16;
					m.a = k_realloc(m.a, m.cap * sizeof(*m.a));
					m.b = k_realloc(m.b, m.cap * sizeof(*m.b));
					m.name = k_realloc(m.name,
					    m.cap * sizeof(*m.name));
				}
				m.a[m.n] = (unsigned)i;
				m.b[m.n] = (unsigned)(s[e] == '\n' ? e + 1 : e);
				m.name[m.n] = k_strndup(s + p, j - p);
				m.n++;
			}
		}
		i = s[e] == '\n' ? e + 1 : e;
	}
	if (m.n == 0)
		return 0;
	m.used = k_calloc(m.n, 1);
	/* directives, other #defines included */
	for (i = 0; s[i] != '\0';) {
		size_t e = i, p = i;
		while (s[e] != '\0' && (s[e] != '\n' || (e > i &&
		    s[e - 1] == '\\')))
			e++;
		while (s[p] == ' ' || s[p] == '\t')
			p++;
		if (s[p] == '#') {
			for (d = 0; d < m.n && m.a[d] != i; d++)
				;
			mark_names(&m, s, p, e, d);
		}
		i = s[e] == '\n' ? e + 1 : e;
	}
	ctx[0] = &m;
	ctx[1] = (void *)s;
	ctx[2] = main;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), collect_uses,
	    ctx);
	sk = clang_getSkippedRanges(tu, main);
	for (k = 0; sk != NULL && k < sk->count; k++) {
		unsigned a = file_offset(clang_getRangeStart(sk->ranges[k]),
		    main);
		unsigned b = file_offset(clang_getRangeEnd(sk->ranges[k]),
		    main);
		if (a != UINT_MAX && b != UINT_MAX && a <= b)
			mark_names(&m, s, a, b > strlen(s) ? strlen(s) : b,
			    SIZE_MAX);
	}
	clang_disposeSourceRangeList(sk);
	/* cut */
	for (i = 0, d = 0; d < m.n; d++) {
		if (m.used[d])
			continue;
		k_buf_addn(&out, s + i, m.a[d] - i);
		i = m.b[d];
		json_array_append_new(dropped, json_string(m.name[d]));
		cut++;
	}
	if (cut > 0) {
		k_buf_add(&out, s + i);
		free(code->s);
		*code = out;
	}
	free_mdefs(&m);
	return cut;
}

/*
 * Whether clang, parsing tu as C++17, took code of path's that a newer
 * standard gives (a requires clause, a dependent type named without
 * typename, a designated initializer): its -Wc++20-... warnings there.
 * clang takes much of C++20 in C++17 as an extension; nvcc does not.
 */
static int
uses_newer(CXTranslationUnit tu, const char *path)
{
	unsigned i, n = clang_getNumDiagnostics(tu);
	int hit = 0;

	for (i = 0; i < n && !hit; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		CXString name = clang_getDiagnosticOption(d, NULL);
		const char *o = clang_getCString(name);
		CXFile f;

		if (clang_getDiagnosticSeverity(d) == CXDiagnostic_Warning &&
		    o != NULL && (strncmp(o, "-Wc++20-", 8) == 0 ||
		    strncmp(o, "-Wc++2a-", 8) == 0)) {
			clang_getExpansionLocation(clang_getDiagnosticLocation(
			    d), &f, NULL, NULL, NULL);
			if (f != NULL) {
				char *fn = k_take(clang_getFileName(f));
				hit = strcmp(fn, path) == 0;
				free(fn);
			}
		}
		clang_disposeString(name);
		clang_disposeDiagnostic(d);
	}
	return hit;
}

/* Parse the slice; drop the #defines nothing uses and parse again, until
 * nothing changes.  Returns the errors of the last parse, *msg the first
 * few, and *newer whether the slice uses a newer standard than the C++17 it
 * is parsed as (see uses_newer). */
unsigned
check_slice(struct k_buf *code, const char *dialect, char **msg,
    json_t *dropped, int *newer)
{
	struct k_strv args = { 0 }, nvcc = { 0 };
	CXTranslationUnit tu = NULL;
	int hip = strcmp(dialect, "hip") == 0;
	const char *path = hip ? "/kslice/slice.hip" : "/kslice/slice.cu";
	unsigned errors;
	int e, round;

	*newer = 0;
	/* as nvcc reads it: code that chooses its branch by __NVCC__ */
	if (!hip)
		k_strv_push(&nvcc, "-D__NVCC__");
	build_args(&args, dialect, 0, &nvcc, BA_WARN);
	k_strv_free(&nvcc);
	for (round = 0;; round++) {
		e = k_parse_pch(opt.idx, &opt.pch, path, code->s, code->n,
		    &args, &tu, NULL);
		if (e != 0 || tu == NULL) {
			k_strv_free(&args);
			*msg = k_asprintf("parse failed: %s",
			    k_cx_error_text((enum CXErrorCode)e));
			return 1;
		}
		errors = count_errors(tu, NULL, 0);
		/* a slice that does not parse keeps what it has: the
		 * parse may have missed uses */
		if (errors > 0 || round >= 8 ||
		    drop_unused(tu, path, code, dropped) == 0)
			break;
		clang_disposeTranslationUnit(tu);
		tu = NULL;
	}
	k_strv_free(&args);
	errors = count_errors(tu, msg, MAX_DIAG);
	*newer = uses_newer(tu, path);
	clang_disposeTranslationUnit(tu);
	return errors;
}

/* The errors of code parsed as the slice's check parse does, with the
 * macro definitions (-DNAME, -UNAME) and the language standard (-std=)
 * of flags on top. */
unsigned
check_flags(const struct k_buf *code, const char *dialect, json_t *flags)
{
	struct k_strv args = { 0 }, extra = { 0 };
	CXTranslationUnit tu = NULL;
	int hip = strcmp(dialect, "hip") == 0;
	const char *f;
	unsigned errors;
	size_t i;
	json_t *v;

	if (!hip)
		k_strv_push(&extra, "-D__NVCC__");
	json_array_foreach(flags, i, v)
		if ((f = json_string_value(v)) != NULL && f[0] == '-' &&
		    (((f[1] == 'D' || f[1] == 'U') && f[2] != '\0') ||
		    strncmp(f, "-std=", 5) == 0))
			k_strv_push(&extra, f);
	build_args(&args, dialect, 0, &extra, 0);
	k_strv_free(&extra);
	if (k_parse_pch(opt.idx, &opt.pch, hip ? "/kslice/slice.hip" :
	    "/kslice/slice.cu", code->s, code->n, &args, &tu, NULL) != 0 ||
	    tu == NULL) {
		k_strv_free(&args);
		return 1;
	}
	k_strv_free(&args);
	errors = count_errors(tu, NULL, 0);
	clang_disposeTranslationUnit(tu);
	return errors;
}
