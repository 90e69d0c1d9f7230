/*
 * Kernels in preprocessor branches the parse did not take (#ifdef DEBUG,
 * #if defined(GPU) set only by a build system): the ranges libclang
 * skipped are searched for __global__, the macros their conditions test
 * are read, and the unit is parsed again with them defined.  Kernels found
 * only then record the macros assumed.
 */
#include "kscan.h"

#define MAX_RECALL_PARSES 8	/* extra parses per unit */
#define MAX_MACRO 128		/* a macro name longer is not assumed */

static int
is_ident(int c)
{
	return c == '_' || isalnum((unsigned char)c);
}

static int
reserved(const char *name)
{
	return name[0] == '_' && (name[1] == '_' ||
	    isupper((unsigned char)name[1]));
}

/*
 * The macros the condition text[a..e) of an #if, #ifdef or #elif line
 * tests, added to names, except those tested for being undefined
 * (!defined X), reserved names (the compiler's and the toolkit's own) and
 * those listed in defined.
 */
static void
condition_macros(const char *p, const char *e, const struct k_strv *defined,
    struct k_strv *names)
{
	char name[MAX_MACRO];
	const char *w;
	int negated = 0;
	size_t n;

	while (p < e && *p != '\n') {
		if (*p == '\\' && p + 1 < e && p[1] == '\n') {
			p += 2;
			continue;
		}
		if (*p == '/' && p + 1 < e && p[1] == '/')
			break;
		if (*p == '/' && p + 1 < e && p[1] == '*') {
			const char *c = p + 2;
			while (c + 1 < e && !(c[0] == '*' && c[1] == '/'))
				c++;
			p = c + 2;
			continue;
		}
		if (*p == '!') {
			negated = 1;
			p++;
			continue;
		}
		if (isdigit((unsigned char)*p)) {
			while (p < e && is_ident(*p))
				p++;
			negated = 0;
			continue;
		}
		if (!is_ident(*p)) {
			if (*p != ' ' && *p != '\t' && *p != '(')
				negated = 0;
			p++;
			continue;
		}
		for (w = p; p < e && is_ident(*p); p++)
			;
		n = (size_t)(p - w);
		if (n == 7 && strncmp(w, "defined", 7) == 0)
			continue;	/* the negation applies to its operand */
		if (n < sizeof(name) && !negated) {
			memcpy(name, w, n);
			name[n] = '\0';
			if (!reserved(name) && !k_strv_has(defined, name) &&
			    !k_strv_has(names, name))
				k_strv_push(names, name);
		}
		negated = 0;
	}
}

static int
strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A set of macro names as one string, sorted: "A B". */
static char *
set_string(struct k_strv *s)
{
	struct k_buf b = { 0 };
	size_t i;
	char *r;

	if (s->n > 1)
		qsort(s->v, s->n, sizeof(char *), strcmp_ptr);
	for (i = 0; i < s->n; i++) {
		if (i > 0)
			k_buf_add(&b, " ");
		k_buf_add(&b, s->v[i]);
	}
	r = strdup(k_buf_str(&b));
	k_buf_free(&b);
	if (r == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	return r;
}

/* Names of the macros the translation unit defines somewhere. */
static enum CXChildVisitResult
collect_defined(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_MacroDefinition) {
		char *name = k_take(clang_getCursorSpelling(c));
		k_strv_push(data, name);
		free(name);
	}
	return CXChildVisit_Continue;
}

/* A branch that holds __global__ and whose condition names macros is
 * parsed again with them, and with what this parse assumed. */
static void
add_set(struct unit *u, struct k_strv *names)
{
	size_t j;
	char *set;

	if (names->n == 0)
		return;
	/* a branch of a chain another parse already took alone */
	set = set_string(names);
	j = k_strv_has(&u->recall, set);
	free(set);
	if (j)
		return;
	for (j = 0; j < u->assume.n; j++)
		if (!k_strv_has(names, u->assume.v[j]))
			k_strv_push(names, u->assume.v[j]);
	set = set_string(names);
	if (!k_strv_has(&u->recall, set))
		k_strv_push(&u->recall, set);
	free(set);
}

/*
 * The branches of the conditional the skipped range text[a..b) starts
 * with: each #if, #ifdef or #elif at its level opens one, up to the next
 * directive at that level.  Nothing is assumed for #else, #ifndef and
 * #elifndef: no macro defined makes them taken.  A conditional nested in
 * a branch is found by the parse that takes the branch.
 */
static void
range_sets(struct unit *u, const char *text, size_t a, size_t b,
    const struct k_strv *defined)
{
	const char *p = text + a, *e = text + b, *w, *nl;
	struct k_strv names = { 0 };
	int depth = 0, open = 0, global = 0;
	size_t n;

	for (; p < e; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			nl = e;
		for (w = p; w < nl && (*w == ' ' || *w == '\t'); w++)
			;
		if (w == nl || *w != '#') {
			if (memmem(p, (size_t)(nl - p), "__global__", 10) != NULL)
				global = 1;
			continue;
		}
		for (w++; w < nl && (*w == ' ' || *w == '\t'); w++)
			;
		for (p = w; w < nl && is_ident(*w); w++)
			;
		n = (size_t)(w - p);
		if (depth > 0 || (open && n >= 2 && strncmp(p, "if", 2) == 0)) {
			/* a conditional nested in the branch */
			if (n >= 2 && strncmp(p, "if", 2) == 0)
				depth++;
			else if (n == 5 && strncmp(p, "endif", 5) == 0)
				depth--;
			continue;
		}
		if (!(n >= 2 && (strncmp(p, "if", 2) == 0 ||
		    strncmp(p, "el", 2) == 0 || strncmp(p, "endif", 5) == 0)))
			continue;	/* #define, #include, ... */
		if (global)
			add_set(u, &names);
		k_strv_free(&names);
		global = 0;
		open = 1;
		if ((n == 2 && strncmp(p, "if", 2) == 0) ||
		    (n == 5 && strncmp(p, "ifdef", 5) == 0) ||
		    (n == 4 && strncmp(p, "elif", 4) == 0) ||
		    (n == 7 && strncmp(p, "elifdef", 7) == 0))
			condition_macros(w, e, defined, &names);
		else if (n == 5 && strncmp(p, "endif", 5) == 0)
			break;
	}
	if (global)
		add_set(u, &names);
	k_strv_free(&names);
}

void
note_skipped(struct ctx *x)
{
	CXSourceRangeList *rl = clang_getAllSkippedRanges(x->tu);
	struct k_strv defined = { 0 };
	int have_defined = 0;
	unsigned i;

	if (rl == NULL)
		return;
	for (i = 0; i < rl->count; i++) {
		struct fileinfo *fi;
		unsigned la, lb, a, b;
		char *id;

		fi = where(x, clang_getRangeStart(rl->ranges[i]), &la, &a);
		if (fi == NULL || !fi->project || fi->text == NULL ||
		    where(x, clang_getRangeEnd(rl->ranges[i]), &lb, &b) != fi ||
		    b > fi->size || a >= b ||
		    memmem(fi->text + a, b - a, "__global__", 10) == NULL)
			continue;
		/* a range an earlier parse skipped too was dealt with then */
		if (asprintf(&id, "%s:%u", fi->real, a) < 0)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		if (k_strv_has(&x->u->skipped, id)) {
			free(id);
			continue;
		}
		k_strv_push(&x->u->skipped, id);
		free(id);
		if (!have_defined) {
			clang_visitChildren(clang_getTranslationUnitCursor(
			    x->tu), collect_defined, &defined);
			have_defined = 1;
		}
		range_sets(x->u, fi->text, a, b, &defined);
	}
	clang_disposeSourceRangeList(rl);
	k_strv_free(&defined);
}

void
recall(CXIndex idx, struct unit *u, const char *dialect)
{
	size_t next;
	int arch = 0;

	/* u->recall grows as parses find branches nested in branches */
	for (next = 0; next < u->recall.n && next < MAX_RECALL_PARSES;
	    next++) {
		char *set = strdup(u->recall.v[next]), *tok, *save = NULL;
		if (set == NULL)
			k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
		k_strv_free(&u->assume);
		for (tok = strtok_r(set, " ", &save); tok != NULL;
		    tok = strtok_r(NULL, " ", &save))
			k_strv_push(&u->assume, tok);
		free(set);
		scan_side(idx, u, dialect, 0, &arch);
	}
	k_strv_free(&u->assume);
}

/* Whether a range the preprocessor skipped in a project file holds a
 * kernel or a launch: only then can another side's parse find one. */
int
skipped_holds_gpu(struct ctx *x)
{
	static const char *words[] = { "__global__", "<<<",
	    "hipLaunchKernelGGL", "cudaLaunchKernel", NULL };
	CXSourceRangeList *rl = clang_getAllSkippedRanges(x->tu);
	unsigned i, la, lb, a, b;
	int found = 0, w;

	if (rl == NULL)
		return 0;
	for (i = 0; i < rl->count && !found; i++) {
		struct fileinfo *fi = where(x,
		    clang_getRangeStart(rl->ranges[i]), &la, &a);
		if (fi == NULL || !fi->project || fi->text == NULL ||
		    where(x, clang_getRangeEnd(rl->ranges[i]), &lb, &b) != fi ||
		    b > fi->size || a >= b)
			continue;
		for (w = 0; words[w] != NULL && !found; w++)
			found = memmem(fi->text + a, b - a, words[w],
			    strlen(words[w])) != NULL;
	}
	clang_disposeSourceRangeList(rl);
	return found;
}
