/*
 * kslice: cut each kernel that kscan found out of its code base into one
 * translation unit that compiles on its own, one record per instantiation.
 *
 * The kernel's translation unit is parsed again with libclang; the
 * dependency closure is walked on the AST (declarations) and on the
 * preprocessing record (macros), and emitted as the original source text in
 * source order.  Framework headers resolve to stub headers (stubs/), whose
 * text is inlined where the slice needs them.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <clang-c/Index.h>
#include <jansson.h>

#include "k_exit.h"
#include "k_msg.h"
#include "k_parse.h"
#include "k_proc.h"
#include "k_record.h"

#define STAGE "kslice"
#define MAX_CACHE 4		/* parsed translation units kept */
#define MAX_DIAG 3		/* diagnostics quoted in an error */
#define MAX_TEXT ((size_t)16 << 20)	/* longest slice */
#define MAX_CALL_DEPTH 8	/* write analysis through callees */
/* the record's id for messages; a record may lack one */

static const char usage_line[] =
    "usage: kslice [-hqV] [--mem mib] [--root dir] [--stubs dir]\n"
    "              [--timeout seconds] [--types list] [file ...]\n";

static void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n)) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	return p;
}

static char *
xstrdup(const char *s)
{
	char *r = strdup(s);

	if (r == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	return r;
}

/* A growable text buffer with a maximum size. */
struct buf {
	char *s;
	size_t n, cap;
	int full;
};

static void
buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->full || b->n + n + 1 > MAX_TEXT) {
		b->full = 1;
		return;
	}
	if (b->n + n + 1 > b->cap) {
		while (b->n + n + 1 > b->cap)
			b->cap = b->cap ? b->cap * 2 : 4096;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void
buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

static void buf_printf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	buf_add(b, s, (size_t)n);
	free(s);
}

static struct {
	char root[PATH_MAX];
	struct k_strv stubdirs;	/* user stubs first, then ours */
	struct k_strv types;	/* --types, spelled as C++ types */
	struct k_strv typenames;	/* --types, as given */
	double timeout;		/* per record, seconds; 0: none */
	CXIndex idx;		/* the worker's */
} opt;

/* ---------------------------------------------------------------- utils */

static int
is_ident_char(int c)
{
	return c == '_' || isalnum((unsigned char)c);
}

/* s with every identifier that names a key of map replaced by its value. */
static char *
subst_idents(const char *s, json_t *map)
{
	struct buf b = { 0 };
	const char *p = s, *q;

	buf_puts(&b, "");
	while (*p != '\0') {
		if (is_ident_char(*p) && !isdigit((unsigned char)*p)) {
			char name[256];
			json_t *v;
			for (q = p; is_ident_char(*q); q++)
				;
			snprintf(name, sizeof(name), "%.*s", (int)(q - p), p);
			v = (size_t)(q - p) < sizeof(name) ?
			    json_object_get(map, name) : NULL;
			if (json_is_string(v))
				buf_puts(&b, json_string_value(v));
			else
				buf_add(&b, p, q - p);
			p = q;
		} else if (isdigit((unsigned char)*p)) {
			for (q = p; is_ident_char(*q) || *q == '.'; q++)
				;
			buf_add(&b, p, q - p);
			p = q;
		} else if (*p == '"' || *p == '\'') {
			char quote = *p;
			for (q = p + 1; *q != '\0' && *q != quote; q++)
				if (*q == '\\' && q[1] != '\0')
					q++;
			if (*q != '\0')
				q++;
			buf_add(&b, p, q - p);
			p = q;
		} else
			buf_add(&b, p++, 1);
	}
	return b.s;
}

/* Parser arguments: always the prelude, never the torch stand-in (what a
 * slice takes from PyTorch must come from stubs/, which nvcc reads too);
 * the stub directories first, so that they stand in for the headers they
 * are named after, project copies included; then extra (may be NULL), the
 * unit's own flags, already absolute. */
static void
build_args(struct k_strv *a, const char *dialect, int device,
    const struct k_strv *extra, int with_stubs)
{
	struct k_parse_conf c;
	struct k_strv inc = { 0 };
	size_t i;

	c.dialect = dialect;
	c.device = device;
	c.prelude = 1;
	c.torch = 0;
	c.cuda_path = NULL;
	for (i = 0; with_stubs && i < opt.stubdirs.n; i++) {
		k_strv_push(&inc, "-I");
		k_strv_push(&inc, opt.stubdirs.v[i]);
	}
	k_build_args(a, &c, &inc, extra);
	k_strv_free(&inc);
}

/* ----------------------------------------------------- parsed units */

enum fclass { F_PROJECT, F_STUB, F_SYSTEM };

struct fileinfo {
	CXFile file;
	char *real;
	char *rel;		/* root-relative, for origins */
	char *stubname;		/* path under its stub directory */
	enum fclass cls;
	const char *text;	/* owned by the translation unit */
	size_t size;
	unsigned *key;		/* offsets of the #include chain, root first */
	unsigned nkey;
	int keyed;
	struct k_strv sysinc;	/* #include lines of non-project headers */
	struct fileinfo **incl;	/* project and stub files it includes */
	size_t nincl;
};

struct mexp {			/* a macro expansion in a project file */
	struct fileinfo *fi;
	unsigned a, b;
	CXCursor def;
};

struct mdef {			/* a macro definition */
	char *name;
	CXCursor c;
	struct fileinfo *fi;
	unsigned off;
};

struct spec {			/* a specialization of a class template */
	CXCursor tmpl;		/* canonical cursor of the primary */
	CXCursor c;
};

struct parsed {
	char *key;		/* tu, flags and side */
	CXTranslationUnit tu;
	struct fileinfo **files;
	size_t nfiles, capfiles;
	struct mexp *exps;
	size_t nexps, capexps;
	struct mdef *defs;
	size_t ndefs, capdefs;
	unsigned errors;	/* parse errors */
	char *first_error;
	unsigned long stamp;
	struct spec *specs;	/* explicit and partial class specializations */
	size_t nspecs, capspecs;
	int specs_done;
};

static struct parsed *cache[MAX_CACHE];
static unsigned long stamp;

static int
under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return n > 0 && strncmp(path, dir, n) == 0 && path[n] == '/';
}

static struct fileinfo *
file_info(struct parsed *p, CXFile f)
{
	struct fileinfo *fi;
	char *name;
	size_t i;

	for (i = 0; i < p->nfiles; i++)
		if (clang_File_isEqual(p->files[i]->file, f))
			return p->files[i];
	if (p->nfiles == p->capfiles) {
		p->capfiles = p->capfiles ? p->capfiles * 2 : 32;
		p->files = xrealloc(p->files, p->capfiles * sizeof(*p->files));
	}
	if ((fi = calloc(1, sizeof(*fi))) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	p->files[p->nfiles++] = fi;
	fi->file = f;
	name = k_take(clang_getFileName(f));
	fi->real = realpath(name, NULL);
	if (fi->real == NULL)
		fi->real = xstrdup(name);
	fi->cls = F_PROJECT;
	if (under(fi->real, k_prelude_dir()))
		fi->cls = F_SYSTEM;
	for (i = 0; fi->cls == F_PROJECT && i < opt.stubdirs.n; i++)
		if (under(fi->real, opt.stubdirs.v[i])) {
			fi->cls = F_STUB;
			fi->stubname = xstrdup(fi->real +
			    strlen(opt.stubdirs.v[i]) + 1);
		}
	if (fi->cls == F_PROJECT && clang_Location_isInSystemHeader(
	    clang_getLocationForOffset(p->tu, f, 0)))
		fi->cls = F_SYSTEM;
	if (under(fi->real, opt.root))
		fi->rel = xstrdup(fi->real + strlen(opt.root) + 1);
	else
		fi->rel = xstrdup(fi->real);
	fi->text = clang_getFileContents(p->tu, f, &fi->size);
	free(name);
	return fi;
}

static struct fileinfo *
where(struct parsed *p, CXSourceLocation loc, unsigned *line, unsigned *off)
{
	CXFile f;
	unsigned col, l, o;

	clang_getExpansionLocation(loc, &f, &l, &col, &o);
	if (line != NULL)
		*line = l;
	if (off != NULL)
		*off = o;
	if (f == NULL)
		return NULL;
	return file_info(p, f);
}

static void
note_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth,
    CXClientData data)
{
	struct parsed *p = data;
	struct fileinfo *fi = file_info(p, f);
	unsigned i, off;

	if (fi->keyed)
		return;
	fi->keyed = 1;
	fi->nkey = depth;
	fi->key = xrealloc(NULL, (depth + 1) * sizeof(*fi->key));
	for (i = 0; i < depth; i++) {
		clang_getExpansionLocation(stack[depth - 1 - i], NULL, NULL,
		    NULL, &off);
		fi->key[i] = off;
	}
}

static enum CXChildVisitResult
collect_pp(CXCursor c, CXCursor parent, CXClientData data)
{
	struct parsed *p = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	struct fileinfo *fi;
	CXSourceRange r;
	unsigned a, b;

	(void)parent;
	if (k != CXCursor_MacroExpansion && k != CXCursor_MacroDefinition &&
	    k != CXCursor_InclusionDirective)
		return CXChildVisit_Continue;
	r = clang_getCursorExtent(c);
	fi = where(p, clang_getRangeStart(r), NULL, &a);
	if (fi == NULL || fi->cls == F_SYSTEM)
		return CXChildVisit_Continue;
	where(p, clang_getRangeEnd(r), NULL, &b);
	if (k == CXCursor_MacroExpansion && fi->cls == F_PROJECT) {
		if (p->nexps == p->capexps) {
			p->capexps = p->capexps ? p->capexps * 2 : 256;
			p->exps = xrealloc(p->exps,
			    p->capexps * sizeof(*p->exps));
		}
		p->exps[p->nexps].fi = fi;
		p->exps[p->nexps].a = a;
		p->exps[p->nexps].b = b;
		p->exps[p->nexps].def = clang_getCursorReferenced(c);
		p->nexps++;
	} else if (k == CXCursor_MacroDefinition) {
		if (p->ndefs == p->capdefs) {
			p->capdefs = p->capdefs ? p->capdefs * 2 : 256;
			p->defs = xrealloc(p->defs,
			    p->capdefs * sizeof(*p->defs));
		}
		p->defs[p->ndefs].name = k_take(clang_getCursorSpelling(c));
		p->defs[p->ndefs].c = c;
		p->defs[p->ndefs].fi = fi;
		p->defs[p->ndefs].off = a;
		p->ndefs++;
	} else if (k == CXCursor_InclusionDirective) {
		CXFile inc = clang_getIncludedFile(c);
		struct fileinfo *ifi;
		if (inc == NULL)
			return CXChildVisit_Continue;
		ifi = file_info(p, inc);
		if (ifi->cls == F_SYSTEM && fi->cls == F_PROJECT) {
			char line[PATH_MAX + 32];
			if (fi->text != NULL && a < fi->size && b <= fi->size &&
			    b > a) {
				/* as spelled: the directive's own text */
				const char *s = fi->text + a;
				size_t n = b - a;
				const char *inc_kw = memmem(s, n, "include", 7);
				if (inc_kw != NULL) {
					size_t rest = n - (inc_kw - s) - 7;
					const char *t = inc_kw + 7;
					while (rest > 0 && (*t == ' ' ||
					    *t == '\t')) {
						t++;
						rest--;
					}
					snprintf(line, sizeof(line),
					    "#include %.*s", (int)rest, t);
					k_strv_push(&fi->sysinc, line);
				}
			}
		} else if (ifi->cls != F_SYSTEM) {
			fi->incl = xrealloc(fi->incl,
			    (fi->nincl + 1) * sizeof(*fi->incl));
			fi->incl[fi->nincl++] = ifi;
		}
	}
	return CXChildVisit_Continue;
}

static void
free_parsed(struct parsed *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nfiles; i++) {
		free(p->files[i]->real);
		free(p->files[i]->rel);
		free(p->files[i]->stubname);
		free(p->files[i]->key);
		free(p->files[i]->incl);
		k_strv_free(&p->files[i]->sysinc);
		free(p->files[i]);
	}
	for (i = 0; i < p->ndefs; i++)
		free(p->defs[i].name);
	free(p->files);
	free(p->exps);
	free(p->defs);
	free(p->specs);
	free(p->key);
	free(p->first_error);
	if (p->tu != NULL)
		clang_disposeTranslationUnit(p->tu);
	free(p);
}

/* Error count of a parse and the first few messages, "file:line: msg". */
static unsigned
count_errors(CXTranslationUnit tu, char **first, unsigned want)
{
	unsigned i, n = clang_getNumDiagnostics(tu), errors = 0;
	struct buf b = { 0 };

	for (i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			if (errors < want) {
				CXFile f;
				unsigned line, col;
				char *m = k_take(clang_getDiagnosticSpelling(d));
				char *fn = NULL;
				clang_getExpansionLocation(
				    clang_getDiagnosticLocation(d), &f, &line,
				    &col, NULL);
				if (f != NULL) {
					char *slash;
					fn = k_take(clang_getFileName(f));
					slash = strrchr(fn, '/');
					if (slash != NULL)
						memmove(fn, slash + 1,
						    strlen(slash));
				}
				buf_printf(&b, "%s%s:%u: %s", errors ? "; " :
				    "", fn != NULL ? fn : "<command line>",
				    line, m);
				free(fn);
				free(m);
			}
			errors++;
		}
		clang_disposeDiagnostic(d);
	}
	if (first != NULL)
		*first = b.s != NULL ? b.s : xstrdup("");
	else
		free(b.s);
	return errors;
}

/* A unit's flags with relative paths made absolute under the root. */
static void
abs_flags(json_t *flags, struct k_strv *out)
{
	static const char *with_path[] = { "-I", "-isystem", "-iquote",
	    "-include", NULL };
	size_t i;
	json_t *f;
	int pathnext = 0, j;

	json_array_foreach(flags, i, f) {
		const char *s = json_string_value(f);
		char *abs = NULL;
		if (s == NULL)
			continue;
		if (pathnext && s[0] != '/') {
			if (asprintf(&abs, "%s/%s", opt.root, s) < 0)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
			s = abs;
		} else if (!pathnext && strncmp(s, "-I", 2) == 0 &&
		    s[2] != '\0' && s[2] != '/') {
			if (asprintf(&abs, "-I%s/%s", opt.root, s + 2) < 0)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
			s = abs;
		}
		k_strv_push(out, s);
		free(abs);
		pathnext = 0;
		for (j = 0; with_path[j] != NULL; j++)
			if (strcmp(json_string_value(f), with_path[j]) == 0)
				pathnext = 1;
	}
}

/* The parsed unit for tu + flags + side, from the cache or parsed now;
 * NULL with *why set when it cannot be parsed. */
static struct parsed *
get_parsed(const char *tu, json_t *flags, const char *dialect, int device,
    char **why)
{
	struct k_strv extra = { 0 }, args = { 0 };
	struct parsed *p;
	char *key, *fl, path[PATH_MAX * 2];
	size_t i, victim = 0;
	int e;

	fl = json_dumps(flags, JSON_COMPACT);
	if (asprintf(&key, "%s\n%s\n%s\n%d", tu, fl != NULL ? fl : "",
	    dialect, device) < 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	free(fl);
	for (i = 0; i < MAX_CACHE; i++)
		if (cache[i] != NULL && strcmp(cache[i]->key, key) == 0) {
			cache[i]->stamp = ++stamp;
			free(key);
			return cache[i];
		}
	if (tu[0] == '/')
		snprintf(path, sizeof(path), "%s", tu);
	else
		snprintf(path, sizeof(path), "%s/%s", opt.root, tu);
	if (access(path, R_OK) != 0) {
		if (asprintf(why, "%s: %s", tu, strerror(errno)) < 0)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		free(key);
		return NULL;
	}
	if ((p = calloc(1, sizeof(*p))) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	p->key = key;
	abs_flags(flags, &extra);
	build_args(&args, dialect, device, &extra, 1);
	e = k_parse(opt.idx, path, NULL, 0, &args, &p->tu);
	k_strv_free(&args);
	k_strv_free(&extra);
	if (e != 0 || p->tu == NULL) {
		if (asprintf(why, "%s: parse failed: %s", tu,
		    k_cx_error_text((enum CXErrorCode)e)) < 0)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		p->tu = NULL;
		free_parsed(p);
		return NULL;
	}
	p->errors = count_errors(p->tu, &p->first_error, MAX_DIAG);
	clang_getInclusions(p->tu, note_inclusion, p);
	clang_visitChildren(clang_getTranslationUnitCursor(p->tu), collect_pp,
	    p);
	for (i = 0; i < MAX_CACHE; i++) {
		if (cache[i] == NULL) {
			victim = i;
			break;
		}
		if (cache[i]->stamp < cache[victim]->stamp)
			victim = i;
	}
	free_parsed(cache[victim]);
	cache[victim] = p;
	p->stamp = ++stamp;
	return p;
}

/* ------------------------------------------------------ the kernel */

struct findk {
	const char *usr;
	CXCursor found;
	/* a USR spells parameter types, which a stub may define where
	 * kscan's parse had none: name and place identify the kernel then */
	struct parsed *p;
	const char *name, *file;
	unsigned line;
	CXCursor near;
};

static enum CXChildVisitResult
find_usr(CXCursor c, CXCursor parent, CXClientData data)
{
	struct findk *f = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	char *usr;

	(void)parent;
	if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec ||
	    k == CXCursor_UnexposedDecl)
		return CXChildVisit_Recurse;
	if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate)
		return CXChildVisit_Continue;
	if (!clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	usr = k_take(clang_getCursorUSR(c));
	if (strcmp(usr, f->usr) == 0) {
		free(usr);
		f->found = c;
		return CXChildVisit_Break;
	}
	free(usr);
	if (clang_Cursor_isNull(f->near)) {
		CXSourceRange r = clang_getCursorExtent(c);
		struct fileinfo *fi;
		unsigned a, b;
		char *name;

		fi = where(f->p, clang_getRangeStart(r), &a, NULL);
		where(f->p, clang_getRangeEnd(r), &b, NULL);
		if (fi != NULL && fi->rel != NULL &&
		    strcmp(fi->rel, f->file) == 0 && a <= f->line &&
		    f->line <= b) {
			name = k_take(clang_getCursorSpelling(c));
			if (strcmp(name, f->name) == 0)
				f->near = c;
			free(name);
		}
	}
	return CXChildVisit_Continue;
}

static CXCursor
find_kernel(struct parsed *p, json_t *scan)
{
	struct findk f;

	f.usr = k_get_str(scan, "usr");
	f.found = clang_getNullCursor();
	f.p = p;
	f.name = k_get_str(scan, "name");
	f.file = k_get_str(scan, "file");
	f.line = (unsigned)json_integer_value(json_object_get(scan, "line"));
	f.near = clang_getNullCursor();
	clang_visitChildren(clang_getTranslationUnitCursor(p->tu), find_usr,
	    &f);
	return clang_Cursor_isNull(f.found) ? f.near : f.found;
}

/* ------------------------------------------------------ the closure */

enum ikind { I_DECL, I_MACRO, I_STUB };

struct item {
	enum ikind kind;
	struct fileinfo *fi;
	unsigned a, b;		/* text [a, b) in fi */
	unsigned line;
	CXCursor c;
	char *name;
	const char *what;	/* dependency kind */
	char *ns;		/* "a::b" namespace chain, "" for global */
	int semi;		/* needs a ';' after the text */
};

struct closure {
	struct parsed *p;
	struct item *v;
	size_t n, cap;
	size_t done;		/* items whose references were followed */
	CXCursor kernel;
	struct k_strv missing;	/* references that could not be resolved */
};

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

static char *
ns_chain(CXCursor c)
{
	CXCursor p = clang_getCursorSemanticParent(c);
	enum CXCursorKind k = clang_getCursorKind(p);
	char *outer, *name, *r;

	if (clang_Cursor_isNull(p) || k != CXCursor_Namespace)
		return xstrdup("");
	outer = ns_chain(p);
	name = k_take(clang_getCursorSpelling(p));
	if (asprintf(&r, "%s%s%s", outer, outer[0] != '\0' ? "::" : "",
	    name[0] != '\0' ? name : "(anonymous)") < 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
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

static struct item *
new_item(struct closure *cl)
{
	struct item *it;

	if (cl->n == cl->cap) {
		cl->cap = cl->cap ? cl->cap * 2 : 32;
		cl->v = xrealloc(cl->v, cl->cap * sizeof(*cl->v));
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
	it->name = xstrdup(fi->stubname);
	it->what = "stub";
	it->ns = xstrdup("");
	it->c = clang_getNullCursor();
	/* the stubs it includes come with it */
	for (i = 0; i < fi->nincl; i++)
		if (fi->incl[i]->cls == F_STUB)
			add_stub(cl, fi->incl[i]);
}

static void
add_macro(struct closure *cl, CXCursor def)
{
	struct parsed *p = cl->p;
	struct fileinfo *fi;
	unsigned a, line;
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
	if (find_item(cl, fi, a) != NULL)
		return;
	it = new_item(cl);
	it->kind = I_MACRO;
	it->fi = fi;
	it->a = a;
	it->line = line;
	/* to the end of the logical line */
	for (it->b = a; it->b < fi->size; it->b++) {
		if (s[it->b] == '\\' && it->b + 1 < fi->size &&
		    s[it->b + 1] == '\n')
			it->b++;
		else if (s[it->b] == '\\' && it->b + 2 < fi->size &&
		    s[it->b + 1] == '\r' && s[it->b + 2] == '\n')
			it->b += 2;
		else if (s[it->b] == '\n')
			break;
	}
	it->c = def;
	it->name = k_take(clang_getCursorSpelling(def));
	it->what = "macro";
	it->ns = xstrdup("");
}

/* End of an extent in file offsets, past a macro invocation the end lies
 * in (a declaration generated by a macro ends where the call does). */
static unsigned
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

static void add_decl(struct closure *cl, CXCursor c);

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
	    k != CXCursor_ClassTemplatePartialSpecialization)
		return CXChildVisit_Continue;
	t = clang_getSpecializedCursorTemplate(c);
	if (clang_Cursor_isNull(t) || clang_equalLocations(
	    clang_getCursorLocation(t), clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	if (p->nspecs == p->capspecs) {
		p->capspecs = p->capspecs ? p->capspecs * 2 : 16;
		p->specs = xrealloc(p->specs, p->capspecs * sizeof(*p->specs));
	}
	p->specs[p->nspecs].tmpl = clang_getCanonicalCursor(t);
	p->specs[p->nspecs].c = c;
	p->nspecs++;
	return CXChildVisit_Continue;
}

static void add_decl_at(struct closure *cl, CXCursor c);

/* A class template brings its specializations: a kernel that names
 * InternalType<T> needs InternalType<float> for T = float, and no
 * reference in the template's body says so. */
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
		if (clang_equalCursors(p->specs[i].tmpl, canon))
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
	it->ns = ns_chain(c);
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
	if (k == CXCursor_ClassTemplate)
		add_specs(cl, c);
}

/* The declaration a reference stands for, as something a slice can hold:
 * a declaration at namespace scope, templates rather than their implicit
 * instantiations. */
static void
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
	    k == CXCursor_ParmDecl || !clang_isDeclaration(k))
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

/* Follow every item's references until nothing new comes in. */
static enum CXChildVisitResult
find_using(CXCursor c, CXCursor parent, CXClientData data)
{
	struct closure *cl = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	struct fileinfo *fi, *nfi;
	CXCursor ns;
	char *qual, *name;
	size_t i, n;
	int used = 0, mine = 0;

	(void)parent;
	if (k == CXCursor_Namespace)
		return CXChildVisit_Recurse;
	if (k != CXCursor_UsingDirective)
		return CXChildVisit_Continue;
	fi = where(cl->p, clang_getCursorLocation(c), NULL, NULL);
	if (fi == NULL || fi->cls != F_PROJECT)
		return CXChildVisit_Continue;
	for (i = 0; i < cl->n && !mine; i++)
		mine = cl->v[i].fi == fi;
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
		qual = ns_chain(ns);
		name = k_take(clang_getCursorSpelling(ns));
		if (qual[0] != '\0') {
			char *q;
			if (asprintf(&q, "%s::%s", qual, name) < 0)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
			free(name);
			name = q;
		}
		n = strlen(name);
		for (i = 0; i < cl->n && !used; i++)
			used = cl->v[i].kind == I_DECL &&
			    strncmp(cl->v[i].ns, name, n) == 0 &&
			    (cl->v[i].ns[n] == '\0' || cl->v[i].ns[n] == ':');
		free(qual);
		free(name);
	}
	if (used)
		add_decl_at(cl, c);
	return CXChildVisit_Continue;
}

/* Namespace aliases named as "alias::" in the text of an item, where no
 * NamespaceRef shows them: code the parse skipped (#if __CUDA_ARCH__). */
static enum CXChildVisitResult
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

/* Names the slice's code reaches through "using namespace" directives of
 * the files it comes from: keep those directives (a closure follows
 * declarations, and a directive declares nothing). */
static void
add_usings(struct closure *cl)
{
	clang_visitChildren(clang_getTranslationUnitCursor(cl->p->tu),
	    find_using, cl);
}

static void
close_over(struct closure *cl)
{
	size_t i;

	while (cl->done < cl->n) {
		struct item it = cl->v[cl->done++];
		size_t f;

		if (it.kind == I_DECL) {
			clang_visitChildren(it.c, follow_refs, cl);
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
static int
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

static int
item_cmp(const void *pa, const void *pb)
{
	return key_cmp(pa, pb);
}

/* ------------------------------------------------------ emitting */

static void
switch_ns(struct buf *b, const char *from, const char *to)
{
	size_t common = 0, i;
	const char *p;

	if (strcmp(from, to) == 0)
		return;
	/* length of the common prefix, in whole names */
	for (i = 0;; i++) {
		if ((from[i] == '\0' || (from[i] == ':' && from[i + 1] == ':')) &&
		    (to[i] == '\0' || (to[i] == ':' && to[i + 1] == ':')))
			common = i;
		if (from[i] == '\0' || to[i] == '\0' || from[i] != to[i])
			break;
	}
	/* one brace per name left in from */
	p = from + common;
	while (*p == ':')
		p++;
	if (*p != '\0')
		buf_puts(b, "}\n");
	for (; *p != '\0'; p++)
		if (*p == ':' && p[1] == ':') {
			buf_puts(b, "}\n");
			p++;
		}
	p = to + common;
	while (*p == ':')
		p++;
	while (*p != '\0') {
		const char *e = strstr(p, "::");
		size_t n = e != NULL ? (size_t)(e - p) : strlen(p);
		if (n == 11 && strncmp(p, "(anonymous)", 11) == 0)
			buf_puts(b, "namespace {\n");
		else
			buf_printf(b, "namespace %.*s {\n", (int)n, p);
		p += n;
		while (*p == ':')
			p++;
	}
}

/* A stub's text without its #include "..." lines: the project headers it
 * names are sliced, the stubs it names are inlined on their own. */
static void
emit_stub(struct buf *b, struct item *it)
{
	const char *s = it->fi->text, *e = s + it->fi->size, *nl;

	buf_printf(b, "/* stub: %s */\n", it->name);
	while (s < e) {
		const char *t = s;
		nl = memchr(s, '\n', e - s);
		nl = nl != NULL ? nl + 1 : e;
		while (t < nl && (*t == ' ' || *t == '\t'))
			t++;
		if (t < nl && *t == '#') {
			t++;
			while (t < nl && (*t == ' ' || *t == '\t'))
				t++;
			if (nl - t > 7 && strncmp(t, "include", 7) == 0) {
				t += 7;
				while (t < nl && (*t == ' ' || *t == '\t'))
					t++;
				if (*t == '"') {
					s = nl;
					continue;
				}
			}
		}
		buf_add(b, s, nl - s);
		s = nl;
	}
	if (it->fi->size > 0 && it->fi->text[it->fi->size - 1] != '\n')
		buf_puts(b, "\n");
}

/* ------------------------------------------------------ templates */

static const char *
cxx_type(const char *name)
{
	if (strcmp(name, "half") == 0)
		return "__half";
	if (strcmp(name, "bfloat16") == 0)
		return "__nv_bfloat16";
	return name;
}

/* Whether a template argument spelled at a launch site means something in
 * the slice: a builtin type or a literal, not the launcher's own template
 * parameter (scalar_t under a dispatch macro). */
static int
concrete_arg(const char *s)
{
	static const char *words[] = { "float", "double", "int", "unsigned",
	    "long", "short", "char", "bool", "signed", "const", "true",
	    "false", "half", "__half", "__nv_bfloat16", "int8_t", "uint8_t",
	    "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t",
	    "uint64_t", "size_t", "float2", "float4", "double2", "int2",
	    "int4", "at::Half", "c10::Half", "at::BFloat16",
	    "c10::BFloat16", NULL };
	const char *p = s, *q;
	int i, ok;

	while (*p != '\0') {
		if (!is_ident_char(*p) || isdigit((unsigned char)*p)) {
			if (isdigit((unsigned char)*p))
				while (is_ident_char(*p))
					p++;
			else
				p++;
			continue;
		}
		for (q = p; is_ident_char(*q) || (q[0] == ':' && q[1] == ':');
		    q++)
			if (*q == ':')
				q++;
		ok = 0;
		for (i = 0; words[i] != NULL; i++)
			if (strlen(words[i]) == (size_t)(q - p) &&
			    strncmp(words[i], p, q - p) == 0)
				ok = 1;
		if (!ok)
			return 0;
		p = q;
	}
	return s[0] != '\0';
}

/* Instances of a kernel: each an object {param: binding} in template
 * parameter order; an empty array for a template parameter that cannot be
 * bound sets *why. */
static int
integral(const char *type)
{
	static const char *t[] = { "int", "unsigned int", "long", "unsigned long",
	    "long long", "unsigned long long", "short", "unsigned short",
	    "bool", "char", "unsigned char", "size_t", "int64_t", "int32_t",
	    "uint32_t", "uint64_t", "unsigned", NULL };
	int i;

	if (type == NULL)
		return 0;
	for (i = 0; t[i] != NULL; i++)
		if (strcmp(type, t[i]) == 0)
			return 1;
	return 0;
}

/* Name a parameter in slice.guessed, once. */
static void
note_guess(json_t *guessed, const char *name)
{
	size_t j;

	for (j = 0; j < json_array_size(guessed); j++)
		if (strcmp(json_string_value(json_array_get(guessed, j)),
		    name) == 0)
			return;
	json_array_append_new(guessed, json_string(name));
}

/*
 * A type parameter that stands for an integer: named like one (Index,
 * IndexGrid, index_t, IdxT, int_t, IntType) or the element type of a
 * pointer parameter named like an index array (indices, idx, inds).
 * Binding float to it would make subscripts ill formed.
 */
static int
index_like(const char *name, json_t *scan)
{
	json_t *params = json_object_get(scan, "params");
	char low[128];
	size_t i, n = strlen(name);

	if (n >= sizeof(low))
		return 0;
	for (i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	if (strstr(low, "index") != NULL || strstr(low, "idx") != NULL ||
	    strncmp(low, "int", 3) == 0 || (n >= 5 &&
	    strcmp(low + n - 5, "int_t") == 0))
		return 1;
	for (i = 0; i < json_array_size(params); i++) {
		json_t *pm = json_array_get(params, i);
		const char *pn = k_get_str(pm, "name");
		const char *ty = k_get_str(pm, "type");
		const char *at = strstr(ty, name);
		size_t k;

		if (at == NULL || (at > ty && is_ident_char(at[-1])) ||
		    is_ident_char(at[n]) || strchr(at, '*') == NULL)
			continue;
		for (k = 0; pn[k] != '\0' && k + 1 < sizeof(low); k++)
			low[k] = (char)tolower((unsigned char)pn[k]);
		low[k] = '\0';
		if (strncmp(low, "ind", 3) == 0 || strstr(low, "idx") != NULL ||
		    strstr(low, "index") != NULL)
			return 1;
	}
	return 0;
}

static json_t *
instances(json_t *scan, json_t *guessed, char **why)
{
	json_t *tps = json_object_get(scan, "template_params");
	json_t *out = json_array(), *l, *seen = json_object();
	size_t ntp = json_array_size(tps), i, li, t;
	json_t *launches = json_object_get(scan, "launches");
	size_t nl = json_array_size(launches);

	if (ntp == 0)
		goto done;
	/* one pass per launch, then one for a kernel launched nowhere with
	 * a concrete binding */
	for (li = 0; li <= nl; li++) {
		json_t *args;
		json_t **partial;
		size_t npartial = 1, j;

		if (li == nl && json_array_size(out) > 0)
			break;
		l = li < nl ? json_array_get(launches, li) : NULL;
		args = l != NULL ? json_object_get(l, "template_args") : NULL;
		partial = xrealloc(NULL, sizeof(*partial));
		partial[0] = json_object();
		for (i = 0; i < ntp; i++) {
			json_t *tp = json_array_get(tps, i);
			const char *name = k_get_str(tp, "name");
			const char *kind = k_get_str(tp, "kind");
			const char *a = args != NULL ? json_string_value(
			    json_array_get(args, i)) : NULL;
			const char *spelled = k_get_str(tp, "spelled");
			const char *eq = strchr(spelled, '=');
			struct k_strv choices = { 0 };

			if (a != NULL && concrete_arg(a))
				k_strv_push(&choices, a);
			else if (eq != NULL) {
				/* a default argument */
				eq++;
				while (*eq == ' ')
					eq++;
				k_strv_push(&choices, eq);
			} else if (strcmp(kind, "type") == 0 &&
			    index_like(name, scan)) {
				k_strv_push(&choices, "int");
				note_guess(guessed, name);
			} else if (strcmp(kind, "type") == 0) {
				for (t = 0; t < opt.types.n; t++)
					k_strv_push(&choices, opt.types.v[t]);
			} else if (strcmp(kind, "value") == 0 &&
			    integral(k_get_str(tp, "type"))) {
				/* bound nowhere: the smallest value that
				 * still makes arrays and loops well formed;
				 * slice.guessed names it */
				k_strv_push(&choices, strcmp(k_get_str(tp,
				    "type"), "bool") == 0 ? "true" : "1");
				note_guess(guessed, name);
			} else {
				if (*why == NULL && asprintf(why,
				    "template parameter %s: no launch binds it "
				    "and it has no default", name) < 0)
					k_fatal(K_EXIT_SYSTEM, NULL,
					    "out of memory");
				k_strv_free(&choices);
				for (j = 0; j < npartial; j++)
					json_decref(partial[j]);
				npartial = 0;
				break;
			}
			/* cartesian product */
			{
				json_t **np = xrealloc(NULL, (npartial *
				    choices.n + 1) * sizeof(*np));
				size_t m = 0, c;
				for (j = 0; j < npartial; j++) {
					for (c = 0; c < choices.n; c++) {
						json_t *o = json_deep_copy(
						    partial[j]);
						json_object_set_new(o, name,
						    json_string(choices.v[c]));
						np[m++] = o;
					}
					json_decref(partial[j]);
				}
				free(partial);
				partial = np;
				npartial = m;
			}
			k_strv_free(&choices);
		}
		for (j = 0; j < npartial; j++) {
			char *k = json_dumps(partial[j], JSON_COMPACT |
			    JSON_SORT_KEYS);
			if (k != NULL && json_object_get(seen, k) == NULL) {
				json_object_set_new(seen, k, json_true());
				json_array_append(out, partial[j]);
			}
			free(k);
			json_decref(partial[j]);
		}
		free(partial);
	}
	if (json_array_size(out) > 0 && *why != NULL) {
		free(*why);
		*why = NULL;
	}
done:
	json_decref(seen);
	return out;
}

/* "<float, 4>" from an instance. */
static char *
instance_args(json_t *scan, json_t *inst)
{
	struct buf b = { 0 };
	json_t *tp;
	size_t i;

	buf_puts(&b, "<");
	json_array_foreach(json_object_get(scan, "template_params"), i, tp) {
		const char *v = k_get_str(inst, k_get_str(tp, "name"));
		buf_printf(&b, "%s%s", i > 0 ? ", " : "", cxx_type(v));
	}
	buf_puts(&b, ">");
	return b.s;
}

struct parmlist {
	CXCursor *v;
	unsigned n;
};

static enum CXChildVisitResult
collect_parm(CXCursor c, CXCursor parent, CXClientData data)
{
	struct parmlist *l = data;

	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_ParmDecl) {
		l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
		l->v[l->n++] = c;
	}
	return CXChildVisit_Continue;
}

/* A function's or function template's parameters (clang gives a template's
 * only as children); free l->v. */
static void
fn_params(CXCursor fn, struct parmlist *l)
{
	l->v = NULL;
	l->n = 0;
	clang_visitChildren(fn, collect_parm, l);
}

/* ------------------------------------------------- writes and reads */

struct pointers {
	struct parsed *p;
	CXCursor *params;	/* the function's parameters */
	unsigned nparams;
	char **alias;		/* USR of a local pointer -> param index */
	unsigned *alias_of;
	size_t nalias;
	unsigned char *wrote, *read;
	int depth;
};

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
	return xstrdup("=");
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

static void analyse_fn(struct pointers *pt, CXCursor fn);

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
			pt->alias = xrealloc(pt->alias, (pt->nalias + 1) *
			    sizeof(*pt->alias));
			pt->alias_of = xrealloc(pt->alias_of,
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
				sub.wrote = calloc(sub.nparams + 1, 1);
				sub.read = calloc(sub.nparams + 1, 1);
				if (sub.wrote == NULL || sub.read == NULL)
					k_fatal(K_EXIT_SYSTEM, NULL,
					    "out of memory");
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

static void
analyse_fn(struct pointers *pt, CXCursor fn)
{
	clang_visitChildren(fn, rw_visit, pt);
}

/* ------------------------------------------------------ tags */

static int
has_word(const char *code, const char *w)
{
	const char *p = code;
	size_t n = strlen(w);

	while ((p = strstr(p, w)) != NULL) {
		if ((p == code || !is_ident_char(p[-1])) &&
		    !is_ident_char(p[n]))
			return 1;
		p += n;
	}
	return 0;
}

static int
has_prefix_word(const char *code, const char *w)
{
	const char *p = code;
	size_t n = strlen(w);

	while ((p = strstr(p, w)) != NULL) {
		if (p == code || !is_ident_char(p[-1]))
			return 1;
		p += n;
	}
	return 0;
}

static json_t *
tags_json(const char *code, size_t lines, size_t ndeps)
{
	json_t *t = json_object();
	const char *ext = strstr(code, "extern __shared__");

	json_object_set_new(t, "lines", json_integer((json_int_t)lines));
	json_object_set_new(t, "deps", json_integer((json_int_t)ndeps));
	json_object_set_new(t, "shared_static", json_boolean(
	    has_word(code, "__shared__") && (ext == NULL ||
	    strstr(code, "__shared__") != ext + 7 ||
	    strstr(ext + 1, "__shared__") != NULL)));
	json_object_set_new(t, "shared_dynamic", json_boolean(ext != NULL));
	json_object_set_new(t, "atomics", json_boolean(
	    has_prefix_word(code, "atomic") ||
	    has_prefix_word(code, "gpuAtomic")));
	json_object_set_new(t, "warp_intrinsics", json_boolean(
	    has_prefix_word(code, "__shfl") ||
	    has_prefix_word(code, "__ballot") ||
	    has_word(code, "__any_sync") || has_word(code, "__all_sync") ||
	    has_word(code, "__activemask") ||
	    has_prefix_word(code, "__reduce_")));
	json_object_set_new(t, "syncthreads", json_boolean(
	    has_prefix_word(code, "__syncthreads") ||
	    has_word(code, "__syncwarp")));
	json_object_set_new(t, "textures", json_boolean(
	    has_prefix_word(code, "tex1D") || has_prefix_word(code, "tex2D") ||
	    has_prefix_word(code, "tex3D") ||
	    has_word(code, "cudaTextureObject_t") ||
	    has_word(code, "texture")));
	json_object_set_new(t, "surfaces", json_boolean(
	    has_prefix_word(code, "surf1D") ||
	    has_prefix_word(code, "surf2D") ||
	    has_word(code, "cudaSurfaceObject_t")));
	json_object_set_new(t, "cooperative_groups", json_boolean(
	    has_word(code, "cooperative_groups")));
	json_object_set_new(t, "dynamic_parallelism", json_boolean(
	    strstr(code, "<<<") != NULL));
	json_object_set_new(t, "printf", json_boolean(has_word(code,
	    "printf")));
	json_object_set_new(t, "launch_bounds", json_boolean(
	    has_word(code, "__launch_bounds__")));
	return t;
}

/* ------------------------------------------------------ launch */

/* The launch configuration over the kernel's parameters: launcher names
 * passed as arguments become the parameters they are passed as. */
static json_t *
launch_json(json_t *scan, json_t *inst)
{
	json_t *launches = json_object_get(scan, "launches"), *l, *use = NULL;
	json_t *params = json_object_get(scan, "params"), *map, *o, *a;
	static const char *fields[] = { "grid", "block", "shared_mem",
	    "stream", NULL };
	size_t i;
	int f;

	/* the first launch that binds this instance, else the first */
	json_array_foreach(launches, i, l) {
		json_t *ta = json_object_get(l, "template_args"), *tp;
		size_t j;
		int match = 1;
		json_array_foreach(json_object_get(scan, "template_params"), j,
		    tp) {
			const char *v = k_get_str(inst, k_get_str(tp, "name"));
			const char *s = json_string_value(json_array_get(ta, j));
			if (s == NULL || v == NULL || strcmp(s, v) != 0)
				match = 0;
		}
		if (match) {
			use = l;
			break;
		}
	}
	if (use == NULL)
		use = json_array_get(launches, 0);
	if (use == NULL)
		return json_null();
	map = json_object();
	json_array_foreach(json_object_get(use, "args"), i, a) {
		const char *s = json_string_value(a);
		const char *pn = k_get_str(json_array_get(params, i), "name");
		const char *q;
		int ident = s != NULL && s[0] != '\0' &&
		    !isdigit((unsigned char)s[0]);
		for (q = s; ident && *q != '\0'; q++)
			if (!is_ident_char(*q))
				ident = 0;
		if (ident && pn != NULL && pn[0] != '\0' &&
		    json_object_get(map, s) == NULL)
			json_object_set_new(map, s, json_string(pn));
	}
	o = json_object();
	for (f = 0; fields[f] != NULL; f++) {
		const char *s = json_string_value(json_object_get(use,
		    fields[f]));
		char *r;
		if (s == NULL) {
			json_object_set_new(o, fields[f], json_null());
			continue;
		}
		r = subst_idents(s, map);
		json_object_set_new(o, fields[f], json_string(r));
		free(r);
	}
	{
		char *from;
		const char *file = k_get_str(use, "file");
		if (asprintf(&from, "%s:%lld", file != NULL ? file : "?",
		    (long long)k_get_int(use, "line", 0)) < 0)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		json_object_set_new(o, "from", json_string(from));
		free(from);
	}
	json_decref(map);
	return o;
}

/* ------------------------------------------------------ checking */

/* Errors of a prelude-based parse of the slice text; *msg the first few. */
/* ------------------------------------------------- unused macros */

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
drop_unused(CXTranslationUnit tu, const char *path, struct buf *code,
    json_t *dropped)
{
	struct mdefs m = { 0 };
	const char *s = code->s;
	CXFile main = clang_getFile(tu, path);
	CXSourceRangeList *sk;
	struct buf out = { 0 };
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
					m.a = xrealloc(m.a, m.cap * sizeof(*m.a));
					m.b = xrealloc(m.b, m.cap * sizeof(*m.b));
					m.name = xrealloc(m.name,
					    m.cap * sizeof(*m.name));
				}
				m.a[m.n] = (unsigned)i;
				m.b[m.n] = (unsigned)(s[e] == '\n' ? e + 1 : e);
				m.name[m.n] = strndup(s + p, j - p);
				if (m.name[m.n] == NULL)
					k_fatal(K_EXIT_SYSTEM, NULL,
					    "out of memory");
				m.n++;
			}
		}
		i = s[e] == '\n' ? e + 1 : e;
	}
	if (m.n == 0)
		return 0;
	m.used = calloc(m.n, 1);
	if (m.used == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
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
		buf_add(&out, s + i, m.a[d] - i);
		i = m.b[d];
		json_array_append_new(dropped, json_string(m.name[d]));
		cut++;
	}
	if (cut > 0) {
		buf_puts(&out, s + i);
		free(code->s);
		*code = out;
	}
	free_mdefs(&m);
	return cut;
}

/* Parse the slice; drop the #defines nothing uses and parse again, until
 * nothing changes.  Returns the errors of the last parse. */
static unsigned
check_slice(struct buf *code, const char *dialect, char **msg,
    json_t *dropped)
{
	struct k_strv args = { 0 };
	CXTranslationUnit tu = NULL;
	int hip = strcmp(dialect, "hip") == 0;
	const char *path = hip ? "/kslice/slice.hip" : "/kslice/slice.cu";
	unsigned errors;
	int e, round;

	build_args(&args, dialect, 0, NULL, 0);
	for (round = 0;; round++) {
		e = k_parse(opt.idx, path, code->s, code->n, &args, &tu);
		if (e != 0 || tu == NULL) {
			k_strv_free(&args);
			if (asprintf(msg, "parse failed: %s",
			    k_cx_error_text((enum CXErrorCode)e)) < 0)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
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
	clang_disposeTranslationUnit(tu);
	return errors;
}

/* ------------------------------------------------------ per record */

struct slicer {
	struct parsed *p;
	CXCursor kernel;
	struct closure cl;
	json_t *deps;
	json_t *stubs;
	struct k_strv includes;
	char *body;		/* everything but the instantiation */
	char *ns;		/* the kernel's namespace */
	json_t *writes, *reads;
	json_t *guessed;	/* value parameters bound by a guess */
};

static void
free_closure(struct closure *cl)
{
	size_t i;

	for (i = 0; i < cl->n; i++) {
		free(cl->v[i].name);
		free(cl->v[i].ns);
	}
	free(cl->v);
	k_strv_free(&cl->missing);
	memset(cl, 0, sizeof(*cl));
}

static void
slicer_free(struct slicer *s)
{
	free_closure(&s->cl);
	json_decref(s->deps);
	json_decref(s->stubs);
	json_decref(s->writes);
	json_decref(s->reads);
	json_decref(s->guessed);
	k_strv_free(&s->includes);
	free(s->body);
	free(s->ns);
}

/* The slice of a kernel, without its instantiation; 0 or -1 with *why. */
static int
slice_kernel(struct slicer *s, json_t *scan, char **why)
{
	struct closure *cl = &s->cl;
	struct parsed *p;
	struct fileinfo *kfi;
	struct buf b = { 0 };
	const char *tu = k_get_str(scan, "tu"), *usr = k_get_str(scan, "usr");
	const char *dialect = k_get_str(scan, "dialect");
	json_t *flags = json_object_get(scan, "flags");
	unsigned ka, kb, kline;
	const char *cur = "";
	size_t i, f;
	int device;

	if (dialect[0] == '\0')
		dialect = "cuda";
	if (tu[0] == '\0' || usr[0] == '\0') {
		*why = xstrdup("scan section lacks tu or usr");
		return -1;
	}
	/* a kernel only the device side sees is looked for there */
	for (device = 0; device < 2; device++) {
		p = get_parsed(tu, flags, dialect, device, why);
		if (p == NULL)
			return -1;
		s->kernel = find_kernel(p, scan);
		if (!clang_Cursor_isNull(s->kernel))
			break;
	}
	if (clang_Cursor_isNull(s->kernel)) {
		if (asprintf(why, "kernel %s not found in %s",
		    k_get_str(scan, "qualified_name"), tu) < 0)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		return -1;
	}
	s->p = p;
	cl->p = p;
	cl->kernel = s->kernel;

	/* the kernel as an item of its own, emitted last */
	kfi = where(p, clang_getRangeStart(clang_getCursorExtent(s->kernel)),
	    &kline, &ka);
	if (kfi == NULL || kfi->text == NULL) {
		*why = xstrdup("kernel has no source text");
		return -1;
	}
	kb = extent_end(p, kfi, clang_getCursorExtent(s->kernel));
	{
		struct item *it = new_item(cl);
		it->kind = I_DECL;
		it->fi = kfi;
		it->a = ka;
		it->b = kb;
		it->line = kline;
		it->c = s->kernel;
		it->name = k_take(clang_getCursorSpelling(s->kernel));
		it->what = "kernel";
		it->ns = ns_chain(s->kernel);
	}
	close_over(cl);
	clang_visitChildren(clang_getTranslationUnitCursor(p->tu), find_alias,
	    cl);
	close_over(cl);
	add_usings(cl);
	close_over(cl);

	/* includes of system and toolkit headers, from every project file */
	for (f = 0; f < p->nfiles; f++)
		if (p->files[f]->cls == F_PROJECT)
			for (i = 0; i < p->files[f]->sysinc.n; i++)
				if (!k_strv_has(&s->includes,
				    p->files[f]->sysinc.v[i]))
					k_strv_push(&s->includes,
					    p->files[f]->sysinc.v[i]);

	/* the kernel stays first in the array: sort the rest */
	if (cl->n > 2)
		qsort(cl->v + 1, cl->n - 1, sizeof(*cl->v), item_cmp);
	s->deps = json_array();
	s->stubs = json_array();
	buf_printf(&b, "// kslice: %s:%u, %s\n", kfi->rel, kline,
	    k_get_str(scan, "qualified_name"));
	for (i = 0; i < s->includes.n; i++)
		buf_printf(&b, "%s\n", s->includes.v[i]);
	for (i = 1; i <= cl->n; i++) {
		/* the kernel last */
		struct item *it = &cl->v[i == cl->n ? 0 : i];
		if (inside_other(cl, it))
			continue;
		if (it->kind != I_DECL || strcmp(it->ns, cur) != 0) {
			const char *to = it->kind == I_DECL ? it->ns : "";
			switch_ns(&b, cur, to);
			cur = to;
		}
		buf_puts(&b, "\n");
		if (it->kind == I_STUB) {
			emit_stub(&b, it);
			json_array_append_new(s->stubs, json_string(it->name));
			continue;
		}
		if (i != cl->n) {
			json_t *d = json_object();
			char *origin;
			if (asprintf(&origin, "%s:%u", it->fi->rel, it->line) <
			    0)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
			json_object_set_new(d, "name", json_string(it->name));
			json_object_set_new(d, "kind", json_string(it->what));
			json_object_set_new(d, "origin", json_string(origin));
			json_array_append_new(s->deps, d);
			free(origin);
		}
		buf_add(&b, it->fi->text + it->a, it->b - it->a);
		buf_puts(&b, it->semi ? ";\n" : "\n");
	}
	s->ns = xstrdup(cur);
	if (b.full) {
		free(b.s);
		*why = xstrdup("slice longer than 16 MiB");
		return -1;
	}
	s->body = b.s;

	/* writes and reads through pointer parameters */
	{
		struct pointers pt;
		struct parmlist pl;
		unsigned a;
		CXCursor fn = s->kernel;
		memset(&pt, 0, sizeof(pt));
		fn_params(fn, &pl);
		pt.p = p;
		pt.params = pl.v;
		pt.nparams = pl.n;
		pt.wrote = calloc(pl.n + 1, 1);
		pt.read = calloc(pl.n + 1, 1);
		if (pt.wrote == NULL || pt.read == NULL)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		analyse_fn(&pt, fn);
		s->writes = json_array();
		s->reads = json_array();
		for (a = 0; a < pt.nparams; a++) {
			char *n = k_take(clang_getCursorSpelling(pt.params[a]));
			if (pt.wrote[a])
				json_array_append_new(s->writes,
				    json_string(n));
			if (pt.read[a])
				json_array_append_new(s->reads, json_string(n));
			free(n);
		}
		for (a = 0; a < pt.nalias; a++)
			free(pt.alias[a]);
		free(pt.alias);
		free(pt.alias_of);
		free(pt.params);
		free(pt.wrote);
		free(pt.read);
	}
	return 0;
}

/* Parameter types of the kernel as spelled by clang, template parameters
 * replaced by their bindings, for the explicit instantiation. */
static char *
instantiation(struct slicer *s, json_t *scan, json_t *inst, int *ok)
{
	struct buf b = { 0 };
	char *targs = instance_args(scan, inst), *name;
	json_t *map = json_object(), *tp;
	struct parmlist pl;
	unsigned i;
	size_t j;

	*ok = 1;
	json_array_foreach(json_object_get(scan, "template_params"), j, tp)
		json_object_set_new(map, k_get_str(tp, "name"), json_string(
		    cxx_type(k_get_str(inst, k_get_str(tp, "name")))));
	name = k_take(clang_getCursorSpelling(s->kernel));
	buf_printf(&b, "template __global__ void %s%s(", name, targs);
	fn_params(s->kernel, &pl);
	for (i = 0; i < pl.n; i++) {
		CXCursor a = pl.v[i];
		char *ty = k_take(clang_getTypeSpelling(clang_getCursorType(a)));
		char *sub = subst_idents(ty, map);
		if (clang_isInvalidDeclaration(a))
			*ok = 0;
		buf_printf(&b, "%s%s", i > 0 ? ", " : "", sub);
		free(sub);
		free(ty);
	}
	free(pl.v);
	buf_puts(&b, ");\n");
	free(name);
	free(targs);
	json_decref(map);
	return b.s;
}

static json_t *
slice_record(json_t *rec, json_t *scan, struct slicer *s, json_t *inst,
    size_t ninst)
{
	json_t *out = ninst > 0 ? json_deep_copy(rec) : json_incref(rec);
	json_t *sl = json_object();
	struct buf code = { 0 };
	const char *dialect = k_get_str(scan, "dialect");
	char *msg = NULL, *targs = NULL;
	size_t lines = 0, i;
	unsigned errors;
	json_t *dropped = json_array();

	buf_puts(&code, s->body);
	if (inst != NULL) {
		int ok;
		char *ex = instantiation(s, scan, inst, &ok), *id;
		const char *cur = s->ns;
		targs = instance_args(scan, inst);
		buf_puts(&code, "\n");
		buf_puts(&code, ex);
		free(ex);
		(void)cur;
		if (asprintf(&id, "%s%s", k_id_text(rec), targs) < 0)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		json_object_set_new(out, "parent", json_string(
		    k_id_borrowed(rec)));
		json_object_set_new(out, "id", json_string(id));
		free(id);
	}
	/* close the kernel's namespaces */
	switch_ns(&code, s->ns, "");
	if (code.full) {
		errors = 1;
		msg = xstrdup("slice longer than 16 MiB");
	} else
		errors = check_slice(&code, dialect[0] != '\0' ? dialect :
		    "cuda", &msg, dropped);
	for (i = 0; i < code.n; i++)
		if (code.s[i] == '\n')
			lines++;
	json_object_set_new(sl, "instance", inst != NULL ? json_incref(inst) :
	    json_object());
	if (json_array_size(s->guessed) > 0)
		json_object_set(sl, "guessed", s->guessed);
	{
		char *sym;
		if (asprintf(&sym, "%s%s", k_get_str(scan, "qualified_name"),
		    targs != NULL && strchr(k_get_str(scan,
		    "qualified_name"), '<') == NULL ? targs : "") < 0)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		json_object_set_new(sl, "symbol", json_string(sym));
		free(sym);
	}
	json_object_set_new(sl, "dialect", json_string(dialect[0] != '\0' ?
	    dialect : "cuda"));
	{
		/* launch_json borrows the instance: a non-template kernel's
		 * empty one is ours to free */
		json_t *none = inst != NULL ? NULL : json_object();
		json_object_set_new(sl, "launch", launch_json(scan,
		    inst != NULL ? inst : none));
		json_decref(none);
	}
	if (json_array_size(dropped) == 0)
		json_object_set(sl, "deps", s->deps);
	else {
		/* the dependencies less the macros the slice lost */
		json_t *deps = json_array(), *dep, *n;
		size_t x, y;
		json_array_foreach(s->deps, x, dep) {
			int gone = 0;
			if (strcmp(k_get_str(dep, "kind"), "macro") == 0)
				json_array_foreach(dropped, y, n)
					gone |= strcmp(json_string_value(n),
					    k_get_str(dep, "name")) == 0;
			if (!gone)
				json_array_append(deps, dep);
		}
		json_object_set_new(sl, "deps", deps);
	}
	json_object_set(sl, "stubs", s->stubs);
	json_object_set_new(sl, "tags", tags_json(code.s, lines,
	    json_array_size(s->deps)));
	json_object_set(sl, "writes", s->writes);
	json_object_set(sl, "reads", s->reads);
	json_object_set_new(sl, "lines", json_integer((json_int_t)lines));
	json_object_set_new(sl, "code", k_string_lossy(code.s, code.n));
	k_set_section(out, "slice", sl);
	if (errors > 0)
		k_error(out, STAGE, "slice-does-not-parse",
		    "%s: slice does not parse: %u error%s: %s",
		    k_id_text(out), errors, errors == 1 ? "" : "s", msg);
	if (k_has_errors(out))
		k_warn(K_EXIT_RECORDS, k_id_borrowed(out), "%s",
		    errors > 0 ? "slice does not parse" : "error");
	free(msg);
	free(targs);
	free(code.s);
	json_decref(dropped);
	return out;
}

/* Each key in keys (NULL-terminated) of obj is a string. */
static int
strings_in(json_t *obj, const char *const *keys)
{
	for (; *keys != NULL; keys++)
		if (!json_is_string(json_object_get(obj, *keys)))
			return 0;
	return 1;
}

/* arr is absent or an array whose items are objects with string keys. */
static int
objects_in(json_t *arr, const char *const *keys)
{
	json_t *v;
	size_t i;

	if (arr == NULL)
		return 1;
	if (!json_is_array(arr))
		return 0;
	json_array_foreach(arr, i, v)
		if (!json_is_object(v) || !strings_in(v, keys))
			return 0;
	return 1;
}

/*
 * What is wrong with a scan section that kslice would dereference, or NULL:
 * a hand-edited or foreign record must fail its own line, not crash the run.
 */
static const char *
scan_problem(json_t *scan)
{
	static const char *const top[] = { "tu", "usr", "name",
	    "qualified_name", "file", "dialect", NULL };
	static const char *const param[] = { "name", "type", NULL };
	static const char *const tparam[] = { "name", "kind", "spelled",
	    NULL };
	static const char *const none[] = { NULL };
	json_t *v, *l;
	size_t i;

	if (!strings_in(scan, top))
		return "scan lacks one of the strings tu, usr, name, "
		    "qualified_name, file, dialect";
	v = json_object_get(scan, "flags");
	if (v != NULL && !json_is_array(v))
		return "scan.flags is not an array";
	if (!objects_in(json_object_get(scan, "params"), param))
		return "scan.params is not an array of {name, type}";
	if (!objects_in(json_object_get(scan, "template_params"), tparam))
		return "scan.template_params is not an array of "
		    "{name, kind, spelled}";
	json_array_foreach(json_object_get(scan, "template_params"), i, v) {
		json_t *t = json_object_get(v, "type");
		if (t != NULL && !json_is_string(t) && !json_is_null(t))
			return "scan.template_params[].type is not a string";
	}
	v = json_object_get(scan, "launches");
	if (!objects_in(v, none))
		return "scan.launches is not an array of objects";
	json_array_foreach(v, i, l) {
		json_t *ta = json_object_get(l, "template_args");
		json_t *a = json_object_get(l, "args");
		if ((ta != NULL && !json_is_array(ta)) ||
		    (a != NULL && !json_is_array(a)))
			return "scan.launches[] args or template_args is not "
			    "an array";
	}
	return NULL;
}

static json_t *
process(json_t *rec, void *ctx)
{
	json_t *scan = json_object_get(rec, "scan"), *insts, *out = NULL;
	json_t *guessed = NULL;
	struct slicer s;
	char *why = NULL;
	const char *bad;
	size_t i, n;

	(void)ctx;
	if (!json_is_object(scan) || k_has_errors(rec)) {
		if (!json_is_object(scan) && !k_has_errors(rec)) {
			k_error(rec, STAGE, "no-scan",
			    "%s: record has no scan section",
			    k_id_text(rec));
			k_warn(K_EXIT_RECORDS, k_id_borrowed(rec),
			    "record has no scan section");
		}
		return rec;
	}
	if ((bad = scan_problem(scan)) != NULL) {
		k_error(rec, STAGE, "bad-scan", "%s: %s",
		    k_id_text(rec), bad);
		k_warn(K_EXIT_RECORDS, k_id_borrowed(rec), "%s", bad);
		return rec;
	}
	memset(&s, 0, sizeof(s));
	if (slice_kernel(&s, scan, &why) != 0) {
		k_error(rec, STAGE, "cannot-slice", "%s: %s",
		    k_id_text(rec), why);
		k_warn(K_EXIT_RECORDS, k_id_borrowed(rec), "%s", why);
		free(why);
		slicer_free(&s);
		return rec;
	}
	guessed = json_array();
	insts = instances(scan, guessed, &why);
	s.guessed = guessed;
	n = json_array_size(insts);
	if (json_array_size(json_object_get(scan, "template_params")) == 0) {
		out = slice_record(rec, scan, &s, NULL, 0);
	} else if (n == 0) {
		k_error(rec, STAGE, "no-instance", "%s: %s",
		    k_id_text(rec), why != NULL ? why : "no instance");
		k_warn(K_EXIT_RECORDS, k_id_borrowed(rec), "%s",
		    why != NULL ? why : "no instance");
		out = json_incref(rec);
	} else {
		for (i = 0; i < n; i++) {
			json_t *o = slice_record(rec, scan, &s,
			    json_array_get(insts, i), n);
			if (i + 1 == n) {
				out = o;
				break;
			}
			/* every instance but the last is written here; the
			 * filter loop writes the last */
			if (k_has_errors(o))
				k_exit_raise(K_EXIT_RECORDS);
			if (k_write(o) != 0) {
				json_decref(o);
				k_fatal(K_EXIT_IO, NULL, "write error");
			}
			json_decref(o);
		}
	}
	free(why);
	json_decref(insts);
	slicer_free(&s);
	json_decref(rec);
	return out;
}

/* ------------------------------------------------------------ worker */

/*
 * Records are sliced in a forked worker that keeps its parse cache from
 * record to record: libclang can crash on a file in a way its crash
 * recovery does not catch, or never finish one, and either must cost that
 * record, not the run.  A worker that dies or runs past --timeout is
 * killed; the next record starts a new one.
 */
static struct k_worker worker;

/* The worker: records arrive one a line; each one's output records go
 * back, then an empty line. */
static void
serve(FILE *in, void *arg)
{
	struct k_reader r;
	json_t *rec, *out;
	int bad;
	size_t i;

	(void)arg;
	opt.idx = clang_createIndex(0, 0);
	k_reader_init(&r, in, "<kslice>", STAGE);
	while (k_read(&r, &rec, &bad) == 1) {
		out = bad ? rec : process(rec, NULL);
		if (k_write(out) != 0 || fputs("\n", stdout) == EOF ||
		    fflush(stdout) != 0)
			_exit(K_EXIT_IO);
		json_decref(out);
	}
	k_reader_free(&r);
	for (i = 0; i < MAX_CACHE; i++) {
		free_parsed(cache[i]);
		cache[i] = NULL;
	}
	clang_disposeIndex(opt.idx);
}

/* The worker's reply: every record but the last is written here, the last
 * returned; NULL when a line is not a record. */
static json_t *
take_reply(char *text)
{
	json_t *out = NULL;
	char *line, *nl;

	for (line = text; *line != '\0'; line = nl + 1) {
		if ((nl = strchr(line, '\n')) == NULL)
			break;
		*nl = '\0';
		if (out != NULL) {
			if (k_has_errors(out))
				k_exit_raise(K_EXIT_RECORDS);
			if (k_write(out) != 0) {
				json_decref(out);
				k_fatal(K_EXIT_IO, NULL, "write error");
			}
			json_decref(out);
		}
		if ((out = json_loads(line, 0, NULL)) == NULL)
			return NULL;
	}
	return out;
}

static json_t *
process_isolated(json_t *rec, void *ctx)
{
	enum k_worker_event ev;
	json_t *out;
	char *line;
	size_t len;
	int tries;

	(void)ctx;
	if ((line = json_dumps(rec, JSON_COMPACT)) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	len = strlen(line);
	line[len] = '\n';	/* over the terminating NUL, not past it */
	for (tries = 0;; tries++) {
		if (worker.pid == 0 && k_worker_start(&worker, serve,
		    NULL) != 0)
			k_fatal(K_EXIT_SYSTEM, NULL,
			    "cannot start a slicing process: %s",
			    strerror(errno));
		if (k_worker_send(&worker, line, len + 1) == 0)
			break;
		/* it died between records: once more with a new one */
		k_worker_stop(&worker);
		if (tries > 0)
			k_fatal(K_EXIT_SYSTEM, NULL,
			    "cannot reach a slicing process: %s",
			    strerror(errno));
	}
	free(line);
	if (k_worker_wait(&worker, 1, opt.timeout, &ev) < 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "waiting for the slicing "
		    "process: %s", strerror(errno));
	if (ev == K_WORKER_REPLY && (out = take_reply(worker.buf)) != NULL) {
		json_decref(rec);
		return out;
	}
	if (ev == K_WORKER_REPLY) {
		k_worker_stop(&worker);
		k_fail(rec, STAGE, "slice-crashed", "%s: unreadable reply "
		    "from the slicing process", k_id_text(rec));
	} else if (ev == K_WORKER_TIMEOUT)
		k_fail(rec, STAGE, "slice-timeout", "%s: parse failed: no "
		    "result after %g s (--timeout)", k_id_text(rec),
		    opt.timeout);
	else
		k_fail(rec, STAGE, "slice-crashed", "%s: parse failed: the "
		    "slicing process was %s", k_id_text(rec),
		    k_worker_how(&worker));
	return rec;
}

/* ------------------------------------------------------------ main */

static void
usage(void)
{
	fputs(usage_line, stderr);
	exit(K_EXIT_USAGE);
}

static void
add_stubdir(const char *dir, int user)
{
	char real[PATH_MAX];
	struct stat st;

	if (realpath(dir, real) == NULL || stat(real, &st) != 0 ||
	    !S_ISDIR(st.st_mode)) {
		if (user)
			k_fatal(K_EXIT_USAGE, NULL, "--stubs: %s: %s", dir,
			    strerror(errno ? errno : ENOTDIR));
		return;
	}
	if (!k_strv_has(&opt.stubdirs, real))
		k_strv_push(&opt.stubdirs, real);
}

/* Our own stubs: $KFORGE_STUBS, else stubs/ next to the program, else the
 * installed share directory. */
static void
default_stubs(void)
{
	char exe[PATH_MAX], *slash;
	ssize_t n;
	const char *env = getenv("KFORGE_STUBS");

	if (env != NULL && *env != '\0') {
		add_stubdir(env, 0);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 8);
	if (n > 0) {
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			strcpy(slash + 1, "stubs");
			add_stubdir(exe, 0);
			strcpy(slash + 1, "../share/kforge/stubs");
			add_stubdir(exe, 0);
		}
	}
}

static void
set_types(const char *list)
{
	char *copy = xstrdup(list), *tok, *save = NULL;

	k_strv_free(&opt.types);
	k_strv_free(&opt.typenames);
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "float") != 0 && strcmp(tok, "double") != 0 &&
		    strcmp(tok, "half") != 0 && strcmp(tok, "bfloat16") != 0 &&
		    strcmp(tok, "int") != 0)
			k_fatal(K_EXIT_USAGE, NULL, "--types: expected float, "
			    "double, half, bfloat16 or int: %s", tok);
		if (!k_strv_has(&opt.types, tok)) {
			k_strv_push(&opt.types, tok);
			k_strv_push(&opt.typenames, tok);
		}
	}
	free(copy);
	if (opt.types.n == 0)
		k_fatal(K_EXIT_USAGE, NULL, "--types: empty list");
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "mem", required_argument, NULL, 'M' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "root", required_argument, NULL, 'R' },
		{ "stubs", required_argument, NULL, 'S' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "types", required_argument, NULL, 't' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *root = ".";
	int ch, i;

	k_msg_init(argv[0]);
	set_types("float");
	opt.timeout = K_PARSE_TIMEOUT;
	k_worker_mem(K_PARSE_MEM_MB);
	while ((ch = getopt_long(argc, argv, "hqV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'q':
			k_msg_quiet(1);
			break;
		case 'R':
			root = optarg;
			break;
		case 'S':
			add_stubdir(optarg, 1);
			break;
		case 't':
			set_types(optarg);
			break;
		case 'T':
			opt.timeout = k_seconds_arg("--timeout", optarg);
			break;
		case 'M':
			k_worker_mem(k_mib_arg("--mem", optarg));
			break;
		case 'V': {
			char *ver = k_take(clang_getClangVersion());
			printf("kslice (kforge) 0.1, %s\n", ver);
			free(ver);
			return k_finish();
		}
		case 'h':
			fputs(usage_line, stdout);
			return k_finish();
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (realpath(root, opt.root) == NULL)
		k_fatal(K_EXIT_USAGE, NULL, "--root: %s: %s", root,
		    strerror(errno));
	default_stubs();
	k_make_prelude("kslice");

	if (argc == 0)
		k_filter(stdin, "<stdin>", STAGE, process_isolated, NULL);
	for (i = 0; i < argc; i++) {
		FILE *fp;
		if (strcmp(argv[i], "-") == 0) {
			k_filter(stdin, "<stdin>", STAGE, process_isolated,
			    NULL);
			continue;
		}
		if ((fp = fopen(argv[i], "r")) == NULL) {
			k_warn(K_EXIT_IO, argv[i], "%s", strerror(errno));
			continue;
		}
		k_filter(fp, argv[i], STAGE, process_isolated, NULL);
		fclose(fp);
	}
	k_worker_stop(&worker);
	k_strv_free(&opt.stubdirs);
	k_strv_free(&opt.types);
	k_strv_free(&opt.typenames);
	return k_finish();
}
