/*
 * kslice: parsing a kernel's translation unit (parser arguments, the
 * files it reads, its macro expansions and definitions, a small cache of
 * parsed units) and finding the kernel in it.
 */
#include "kslice.h"

/* Parser arguments: the toolkit and the prelude, never the torch stand-in
 * (what a slice takes from PyTorch must come from stubs/, which nvcc reads
 * too); with BA_STUBS in how, the stub directories first, so that they
 * stand in for the headers they are named after, project copies
 * included; then extra (may be NULL), the unit's own flags, already
 * absolute.  Warnings are off (-w) unless how has BA_WARN. */
void
build_args(struct k_strv *a, const char *dialect, int device,
    const struct k_strv *extra, unsigned how)
{
	struct k_parse_conf c;
	struct k_strv inc = { 0 };
	size_t i;

	c.dialect = dialect;
	c.device = device;
	c.torch = 0;
	c.cuda_path = NULL;
	c.warnings = (how & BA_WARN) != 0;
	for (i = 0; (how & BA_STUBS) && i < opt.stubdirs.n; i++) {
		k_strv_push(&inc, "-I");
		k_strv_push(&inc, opt.stubdirs.v[i]);
	}
	k_build_args(a, &c, &inc, extra);
	k_strv_free(&inc);
}


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
		p->files = k_realloc(p->files, p->capfiles * sizeof(*p->files));
	}
	fi = k_calloc(1, sizeof(*fi));
	p->files[p->nfiles++] = fi;
	fi->file = f;
	name = k_take(clang_getFileName(f));
	fi->real = realpath(name, NULL);
	if (fi->real == NULL)
		fi->real = k_strdup(name);
	fi->cls = F_PROJECT;
	if (under(fi->real, k_prelude_dir()))
		fi->cls = F_SYSTEM;
	for (i = 0; fi->cls == F_PROJECT && i < opt.stubdirs.n; i++)
		if (under(fi->real, opt.stubdirs.v[i])) {
			fi->cls = F_STUB;
			fi->stubname = k_strdup(fi->real +
			    strlen(opt.stubdirs.v[i]) + 1);
		}
	if (fi->cls == F_PROJECT && clang_Location_isInSystemHeader(
	    clang_getLocationForOffset(p->tu, f, 0)))
		fi->cls = F_SYSTEM;
	if (under(fi->real, opt.root))
		fi->rel = k_strdup(fi->real + strlen(opt.root) + 1);
	else
		fi->rel = k_strdup(fi->real);
	fi->text = clang_getFileContents(p->tu, f, &fi->size);
	free(name);
	return fi;
}

struct fileinfo *
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
	fi->key = k_realloc(NULL, (depth + 1) * sizeof(*fi->key));
	for (i = 0; i < depth; i++) {
		clang_getExpansionLocation(stack[depth - 1 - i], NULL, NULL,
		    NULL, &off);
		fi->key[i] = off;
	}
}

/* An #include of a PyTorch header, as spelled: found or not (kslice
 * parses without the torch stand-in, and its stubs answer only some). */
static int
torch_include(CXCursor c)
{
	static const char *const dirs[] = { "torch/", "ATen/", "c10/",
	    "THC/", NULL };
	char *name = k_take(clang_getCursorSpelling(c));
	int i, r = 0;

	for (i = 0; dirs[i] != NULL; i++)
		if (strncmp(name, dirs[i], strlen(dirs[i])) == 0)
			r = 1;
	free(name);
	return r;
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
			p->exps = k_realloc(p->exps,
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
			p->defs = k_realloc(p->defs,
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
		if (fi->cls == F_PROJECT && torch_include(c))
			p->torch_incl = 1;
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
			fi->incl = k_realloc(fi->incl,
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
	free_named(p);
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
	free(p->members);
	free(p->key);
	free(p->first_error);
	if (p->tu != NULL)
		clang_disposeTranslationUnit(p->tu);
	free(p);
}

/* Error count of a parse and the first few messages, "file:line: msg";
 * errors nvcc accepts (k_nvcc_accepts) apart, as kscan counts them. */
unsigned
count_errors(CXTranslationUnit tu, char **first, unsigned want)
{
	unsigned i, n = clang_getNumDiagnostics(tu), errors = 0;
	struct k_buf b = KSLICE_BUF;

	for (i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error &&
		    !k_nvcc_accepts(d)) {
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
				k_buf_printf(&b, "%s%s:%u: %s", errors ? "; " :
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
		*first = b.s != NULL ? b.s : k_strdup("");
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
			abs = k_asprintf("%s/%s", opt.root, s);
			s = abs;
		} else if (!pathnext && strncmp(s, "-I", 2) == 0 &&
		    s[2] != '\0' && s[2] != '/') {
			abs = k_asprintf("-I%s/%s", opt.root, s + 2);
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

/* Whether path, once links and ".." are resolved, lies under --root;
 * a path that does not resolve is left to the open that follows. */
static int
under_root(const char *path)
{
	char real[PATH_MAX];
	size_t rl = strlen(opt.root);

	if (realpath(path, real) == NULL)
		return 1;
	if (rl == 1 && opt.root[0] == '/')
		return 1;
	return strncmp(real, opt.root, rl) == 0 &&
	    (real[rl] == '/' || real[rl] == '\0');
}

/* The parsed unit for tu + flags + side, from the cache or parsed now;
 * NULL with *why set when it cannot be parsed. */
struct parsed *
get_parsed(const char *tu, json_t *flags, const char *dialect, int device,
    char **why)
{
	struct k_strv extra = { 0 }, args = { 0 };
	struct parsed *p;
	char *key, *fl, path[PATH_MAX * 2];
	size_t i, victim = 0;
	int e;

	fl = json_dumps(flags, JSON_COMPACT);
	key = k_asprintf("%s\n%s\n%s\n%s\n%d", opt.root, tu,
	    fl != NULL ? fl : "", dialect, device);
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
	if (!under_root(path)) {
		/* a record names what kslice reads: nothing outside the
		 * code base (/etc/passwd's lines would become macros of a
		 * slice) */
		*why = k_asprintf("%s: outside the root %s, not read", tu,
		    opt.root);
		free(key);
		return NULL;
	}
	if (access(path, R_OK) != 0) {
		*why = opt.root_given || opt.root_recorded ? k_asprintf(
		    "%s: %s (looked under %s, %s; --root names where the "
		    "tree is now)", tu, strerror(errno), opt.root,
		    opt.root_given ? "the --root given" : "the root kscan "
		    "recorded in scan.root") : k_asprintf("%s: %s (looked "
		    "under the current directory: the record has no "
		    "scan.root; --root names the tree)", tu, strerror(errno));
		free(key);
		return NULL;
	}
	p = k_calloc(1, sizeof(*p));
	p->key = key;
	abs_flags(flags, &extra);
	build_args(&args, dialect, device, &extra, BA_STUBS);
	e = k_parse_pch(opt.idx, &opt.pch, path, NULL, 0, &args, &p->tu,
	    NULL);
	k_strv_free(&args);
	k_strv_free(&extra);
	if (e != 0 || p->tu == NULL) {
		*why = k_asprintf("%s: parse failed: %s", tu,
		    k_cx_error_text((enum CXErrorCode)e));
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

CXCursor
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

/* Every parsed unit of the cache disposed of (the worker's end). */
void
free_cache(void)
{
	size_t i;

	for (i = 0; i < MAX_CACHE; i++) {
		free_parsed(cache[i]);
		cache[i] = NULL;
	}
}

/* Whether text[0, n) holds "#define name" on a line of its own. */
static int
defines(const char *text, size_t n, const char *name)
{
	size_t l = strlen(name), i = 0;
	const char *s;

	while (i < n) {
		s = memmem(text + i, n - i, name, l);
		if (s == NULL)
			return 0;
		i = (size_t)(s - text) + l;
		if (i < n && is_ident_char(text[i]))
			continue;
		/* back over blanks to "define", then "#" */
		while (s > text && (s[-1] == ' ' || s[-1] == '\t'))
			s--;
		if (s - text >= 6 && strncmp(s - 6, "define", 6) == 0) {
			s -= 6;
			while (s > text && (s[-1] == ' ' || s[-1] == '\t'))
				s--;
			if (s > text && s[-1] == '#')
				return 1;
		}
	}
	return 0;
}

/* The macro a line "#ifdef M" or "#if defined(M)" tests, into name
 * (NULL: another line). */
static const char *
ifdef_name(const char *s, const char *e, char *name, size_t cap)
{
	size_t k = 0;
	int paren = 0;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if (s == e || *s++ != '#')
		return NULL;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if (e - s > 6 && strncmp(s, "ifdef", 5) == 0 && !is_ident_char(s[5]))
		s += 5;
	else if (e - s > 10 && strncmp(s, "if", 2) == 0 &&
	    (s[2] == ' ' || s[2] == '\t')) {
		s += 2;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		if (e - s < 8 || strncmp(s, "defined", 7) != 0)
			return NULL;
		s += 7;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		if (s < e && *s == '(') {
			paren = 1;
			s++;
		}
	} else
		return NULL;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (s < e && is_ident_char(*s) && k + 1 < cap)
		name[k++] = *s++;
	name[k] = '\0';
	if (paren) {
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		if (s == e || *s++ != ')')
			return NULL;
	}
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	/* the condition alone: "#if defined(A) && B" is another test */
	if (k == 0 || (s < e && !(s[0] == '/' && s + 1 < e &&
	    (s[1] == '/' || s[1] == '*'))))
		return NULL;
	/* the implementation's own (__CUDA_ARCH__, _WIN32) */
	if (name[0] == '_' && (name[1] == '_' ||
	    isupper((unsigned char)name[1])))
		return NULL;
	return name;
}

/* The header a line "#include <h>" or "#include "h"" names, into h. */
static int
include_name(const char *s, const char *e, char *h, size_t cap)
{
	size_t k = 0;
	char close;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if (s == e || *s++ != '#')
		return 0;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if (e - s < 9 || strncmp(s, "include", 7) != 0)
		return 0;
	s += 7;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if (s == e || (*s != '<' && *s != '"'))
		return 0;
	close = *s++ == '<' ? '>' : '"';
	while (s < e && *s != close && k + 1 < cap)
		h[k++] = *s++;
	h[k] = '\0';
	return s < e && *s == close && k > 0 && strstr(h, "..") == NULL;
}

/*
 * Macros the project's build defines when the toolkit has a feature: a
 * block "#ifdef M" (or "#if defined(M)") of a project file whose first
 * line includes a header the toolkit has (<cuda_bf16.h>, <cuda_fp8.h>),
 * where nothing in the project's files nor the unit's flags defines (or
 * undefines) M.
 * Code under "#ifndef M" is then a fallback for older toolkits (a type
 * the toolkit lacked, spelled as another), which clashes with the real
 * one where a toolkit header brings it on its own.  Each as "-DM"; an
 * empty array where there are none.
 */
json_t *
feature_macros(struct parsed *p, json_t *flags, const char *dialect)
{
	static const char *inc;
	json_t *out = json_array(), *f;
	char name[128], h[256], *path, *def;
	size_t i, j, n;
	int have;

	if (strcmp(dialect, "cuda") != 0)
		return out;
	if (inc == NULL)
		inc = k_find_cuda(NULL);
	for (i = 0; i < p->nfiles; i++) {
		struct fileinfo *fi = p->files[i];
		const char *s, *e, *t, *nl, *end;
		if (fi->cls != F_PROJECT || fi->text == NULL)
			continue;
		end = fi->text + fi->size;
		for (s = fi->text; s < end; s = nl + 1) {
			nl = memchr(s, '\n', (size_t)(end - s));
			if (nl == NULL)
				nl = end;
			if (ifdef_name(s, nl, name, sizeof(name)) == NULL)
				continue;
			/* the block's first line that is not blank */
			for (t = nl + 1; t < end; t = e + 1) {
				e = memchr(t, '\n', (size_t)(end - t));
				if (e == NULL)
					e = end;
				while (t < e && (*t == ' ' || *t == '\t' ||
				    *t == '\r'))
					t++;
				if (t < e)
					break;
			}
			if (t >= end || !include_name(t, e, h, sizeof(h)))
				continue;
			path = k_asprintf("%s/include/%s", inc, h);
			have = access(path, R_OK) == 0;
			free(path);
			if (!have)
				continue;
			def = k_asprintf("-D%s", name);
			n = strlen(def);
			json_array_foreach(flags, j, f) {
				const char *v = json_string_value(f);
				/* -DM, -DM=v, or -UM */
				if (v != NULL && strncmp(v + 2, def + 2,
				    n - 2) == 0 && strlen(v) >= n &&
				    strncmp(v, "-", 1) == 0 && (v[1] == 'D' ||
				    v[1] == 'U') && (v[n] == '\0' ||
				    v[n] == '='))
					have = 0;
			}
			json_array_foreach(out, j, f)
				if (strcmp(json_string_value(f), def) == 0)
					have = 0;
			for (j = 0; have && j < p->nfiles; j++)
				if (p->files[j]->cls == F_PROJECT &&
				    p->files[j]->text != NULL &&
				    defines(p->files[j]->text,
				    p->files[j]->size, name))
					have = 0;
			if (have)
				json_array_append_new(out, json_string(def));
			free(def);
		}
	}
	return out;
}
