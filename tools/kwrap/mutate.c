/*
 * kwrap --mutants: one-point mutants of the reference kernel, for the
 * mutation score kverify measures (man kwrap, "Mutants").  Each is one
 * edit of slice.code inside the kernel's body, kept as an offset, a
 * length and the replacement text, with the changed line as a diff;
 * kbuild applies the edit and compiles the mutant like a candidate.
 *
 * The sites come from the body's tokens, not from a libclang AST: kwrap
 * reads no headers and runs without the toolkit, and every operator here
 * is a local rewrite of one token or one statement.  A site the token
 * view gets wrong (a "*" of a declaration, a template's "<") gives a
 * mutant that does not compile: kbuild reports it stillborn and it is
 * never counted.  Mutants that compile to the reference's own machine
 * code are equivalent, found by kbuild, never counted either.
 */
#include "kwrap.h"
#include "mtok.h"

struct site {
	const char *op;
	size_t off, len;
	char *text;		/* the replacement, malloc'd */
};

struct sites {
	struct site *v;
	size_t n, cap;
};

static const char *const puncts[] = {
	"<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
	"&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::",
	NULL
};

/* The operators in the order a budget takes them round-robin. */
static const char *const ops[] = {
	"swap-arith", "swap-relational", "swap-logical", "constant",
	"drop-statement", "drop-syncthreads", "store-plus-one", NULL
};

/* p with room for element n: cap doubles as needed. */
static void *
more(void *p, size_t n, size_t *cap, size_t sz)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 64;
	return k_reallocarray(p, *cap, sz);
}

void
mt_lex(const char *s, struct mtoks *t)
{
	const char *p = s;
	int bol = 1;
	size_t i;

	while (*p != '\0') {
		struct mtok k;
		if (*p == '\n') {
			bol = 1;
			p++;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (bol && *p == '#') {
			/* preprocessor lines are not the kernel's code */
			while (*p != '\0' && *p != '\n') {
				if (*p == '\\' && p[1] == '\n')
					p++;
				p++;
			}
			continue;
		}
		bol = 0;
		if (p[0] == '/' && p[1] == '/') {
			while (*p != '\0' && *p != '\n')
				p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e != NULL ? e + 2 : p + strlen(p);
			continue;
		}
		k.off = (size_t)(p - s);
		if (*p == '"' || *p == '\'') {
			char q = *p++;
			while (*p != '\0' && *p != q) {
				if (*p == '\\' && p[1] != '\0')
					p++;
				p++;
			}
			if (*p != '\0')
				p++;
			k.kind = M_PUNCT;	/* never a site */
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			k.kind = M_ID;
		} else if (isdigit((unsigned char)*p) || (*p == '.' &&
		    isdigit((unsigned char)p[1]))) {
			while (isalnum((unsigned char)*p) || *p == '.' ||
			    ((*p == '+' || *p == '-') && (p[-1] == 'e' ||
			    p[-1] == 'E') && !(p[-2] == '0' && (p[-1] == 'x' ||
			    p[-1] == 'X'))))
				p++;
			k.kind = M_NUM;
		} else {
			size_t l = 1;
			for (i = 0; puncts[i] != NULL; i++)
				if (strncmp(p, puncts[i], strlen(puncts[i])) ==
				    0) {
					l = strlen(puncts[i]);
					break;
				}
			p += l;
			k.kind = M_PUNCT;
		}
		k.len = (size_t)(p - s) - k.off;
		t->v = more(t->v, t->n, &t->cap, sizeof(*t->v));
		t->v[t->n++] = k;
	}
}

int
mt_is(const char *s, const struct mtoks *t, size_t i, const char *w)
{
	return i < t->n && t->v[i].len == strlen(w) &&
	    strncmp(s + t->v[i].off, w, t->v[i].len) == 0;
}

int
mt_is_cmp(const char *s, const struct mtoks *t, size_t i)
{
	return mt_is(s, t, i, "==") || mt_is(s, t, i, "!=") ||
	    mt_is(s, t, i, "<") || mt_is(s, t, i, "<=") ||
	    mt_is(s, t, i, ">") || mt_is(s, t, i, ">=");
}

/* The token after the group opened at i ("(", "[" or "{"). */
size_t
mt_close(const char *s, const struct mtoks *t, size_t i)
{
	int d = 0;

	for (; i < t->n; i++) {
		if (mt_is(s, t, i, "(") || mt_is(s, t, i, "[") || mt_is(s, t, i, "{"))
			d++;
		else if (mt_is(s, t, i, ")") || mt_is(s, t, i, "]") ||
		    mt_is(s, t, i, "}"))
			if (--d == 0)
				return i;
	}
	return t->n;
}

static int
keyword(const char *s, const struct mtoks *t, size_t i)
{
	static const char *const kw[] = {
		"return", "case", "if", "else", "for", "while", "do", "switch",
		"goto", "break", "continue", "sizeof", "const", "constexpr",
		"static", "auto", "void", "bool", "char", "short", "int", "long",
		"unsigned", "signed", "float", "double", "half", "size_t",
		"template", "typename", "struct", "volatile", "register",
		"__shared__", "extern", "using", "typedef", "static_cast",
		"reinterpret_cast", "const_cast", "dynamic_cast", "new",
		"delete", "throw", "operator", NULL
	};
	size_t k;

	if (i >= t->n || t->v[i].kind != M_ID)
		return 0;
	for (k = 0; kw[k] != NULL; k++)
		if (mt_is(s, t, i, kw[k]))
			return 1;
	/* int32_t, scalar_t, ... */
	return t->v[i].len > 2 && strncmp(s + t->v[i].off + t->v[i].len - 2,
	    "_t", 2) == 0;
}

/* Token i ends an operand: a binary operator may follow. */
static int
operand_end(const char *s, const struct mtoks *t, size_t i)
{
	return (t->v[i].kind == M_ID && !keyword(s, t, i)) ||
	    t->v[i].kind == M_NUM || mt_is(s, t, i, ")") || mt_is(s, t, i, "]");
}

/* Token i ends a statement or opens a block: what comes next starts
 * one. */
static int
stmt_boundary(const char *s, const struct mtoks *t, size_t i)
{
	return mt_is(s, t, i, "{") || mt_is(s, t, i, "}") ||
	    mt_is(s, t, i, ";");
}

/* A qualifier that may precede a declaration's type. */
static int
decl_qualifier(const char *s, const struct mtoks *t, size_t i)
{
	static const char *const q[] = { "const", "volatile", "static",
	    "constexpr", "register", "extern", "__shared__", NULL };
	size_t k;

	for (k = 0; q[k] != NULL; k++)
		if (mt_is(s, t, i, q[k]))
			return 1;
	return 0;
}

/*
 * Token i, a "*" or "&" after an identifier, declares a pointer or a
 * reference rather than multiplying: "T *p = ...", "T &r = ...",
 * "const T *p;" at the start of a statement (or a for's first clause),
 * the declared name followed by "=", ";", "," or "[".  Swapped or
 * dropped, it would not compile (a stillborn mutant, a build spent).
 */
static int
decl_star(const char *s, const struct mtoks *t, size_t a, size_t i)
{
	size_t j = i, k = i;

	if (i <= a || t->v[i - 1].kind != M_ID)
		return 0;
	j = i - 1;
	while (k < t->n && (mt_is(s, t, k, "*") || mt_is(s, t, k, "&")))
		k++;
	if (k + 1 >= t->n || t->v[k].kind != M_ID || keyword(s, t, k) ||
	    !(mt_is(s, t, k + 1, "=") || mt_is(s, t, k + 1, ";") ||
	    mt_is(s, t, k + 1, ",") || mt_is(s, t, k + 1, "[")))
		return 0;
	return j == a || stmt_boundary(s, t, j - 1) ||
	    decl_qualifier(s, t, j - 1) || (mt_is(s, t, j - 1, "(") &&
	    mt_is(s, t, k + 1, "=") && j >= 2 && mt_is(s, t, j - 2, "for"));
}

/*
 * Template argument lists in [a, b): a "<" after a name whose tokens up
 * to the matching ">" are names, numbers, "::", ",", "*" and "&" only,
 * followed by "(", "::" or "{" ("SharedMemory<T>()", "static_cast<T>(x)",
 * "ns::f<float, 4>::v"), or by a declared name at a statement's start
 * ("Vec<T, 4> v;").  Their angle brackets, "*", "&" and "," are marked
 * in tmpl[i - a]: not relational or arithmetic operators.
 */
static void
template_args(const char *s, const struct mtoks *t, size_t a, size_t b,
    unsigned char *tmpl)
{
	size_t i, j;

	for (i = a + 1; i < b; i++) {
		int d = 1;
		if (!mt_is(s, t, i, "<") || t->v[i - 1].kind != M_ID)
			continue;
		for (j = i + 1; j < b && d > 0; j++) {
			if (mt_is(s, t, j, "<"))
				d++;
			else if (mt_is(s, t, j, ">"))
				d--;
			else if (mt_is(s, t, j, ">>"))
				d -= 2;
			else if (!(t->v[j].kind == M_ID ||
			    t->v[j].kind == M_NUM || mt_is(s, t, j, "::") ||
			    mt_is(s, t, j, ",") || mt_is(s, t, j, "*") ||
			    mt_is(s, t, j, "&")))
				break;
			if (d <= 0)
				break;
		}
		if (j >= b || d > 0 || d < 0)
			continue;
		/* j: the closing ">" */
		if (!(mt_is(s, t, j + 1, "(") || mt_is(s, t, j + 1, "::") ||
		    mt_is(s, t, j + 1, "{") || (j + 1 < b &&
		    t->v[j + 1].kind == M_ID && (i - 1 == a ||
		    stmt_boundary(s, t, i - 2) || decl_qualifier(s, t, i - 2)))))
			continue;
		for (; i <= j; i++)
			if (t->v[i].kind != M_NUM)
				tmpl[i - a] = 1;
		i = j;
	}
}

static void
add(struct sites *ss, const char *op, size_t off, size_t len,
    const char *text)
{
	ss->v = more(ss->v, ss->n, &ss->cap, sizeof(*ss->v));
	ss->v[ss->n].op = op;
	ss->v[ss->n].off = off;
	ss->v[ss->n].len = len;
	ss->v[ss->n].text = k_strdup(text);
	ss->n++;
}

/* The token sites of [a, b): operators and constants. */
static void
token_sites(const char *s, const struct mtoks *t, size_t a, size_t b,
    struct sites *ss)
{
	static const char *const swaps[][3] = {
		{ "+", "-", "swap-arith" }, { "-", "+", "swap-arith" },
		{ "*", "/", "swap-arith" }, { "/", "*", "swap-arith" },
		{ "<", "<=", "swap-relational" },
		{ "<=", "<", "swap-relational" },
		{ ">", ">=", "swap-relational" },
		{ ">=", ">", "swap-relational" },
		{ "==", "!=", "swap-relational" },
		{ "!=", "==", "swap-relational" },
		{ "&&", "||", "swap-logical" }, { "||", "&&", "swap-logical" },
	};
	unsigned char *tmpl = k_calloc(b - a + 1, 1);
	size_t i, k;

	template_args(s, t, a, b, tmpl);
	for (i = a; i < b; i++) {
		const struct mtok *x = &t->v[i];
		if (x->kind == M_NUM) {
			/* a decimal integer, one more (an off-by-one bound
			 * or constant) */
			char num[32], rep[48];
			size_t l = strspn(s + x->off, "0123456789");
			long long v;
			if (l == 0 || l > 18 || (l > 1 && s[x->off] == '0') ||
			    strspn(s + x->off + l, "uUlL") != x->len - l)
				continue;
			/* an array's declared size ("float buf[256]") is
			 * room, not behaviour */
			if (i >= a + 3 && mt_is(s, t, i - 1, "[") &&
			    t->v[i - 2].kind == M_ID && keyword(s, t, i - 3))
				continue;
			memcpy(num, s + x->off, l);
			num[l] = '\0';
			v = strtoll(num, NULL, 10);
			snprintf(rep, sizeof(rep), "%lld%.*s", v + 1,
			    (int)(x->len - l), s + x->off + l);
			add(ss, "constant", x->off, x->len, rep);
			continue;
		}
		if (x->kind != M_PUNCT || i == a || !operand_end(s, t, i - 1) ||
		    tmpl[i - a] || decl_star(s, t, a, i))
			continue;
		if (i > 1 && (mt_is(s, t, i, "<") || mt_is(s, t, i, ">")) &&
		    keyword(s, t, i - 1))
			continue;
		for (k = 0; k < sizeof(swaps) / sizeof(swaps[0]); k++)
			if (mt_is(s, t, i, swaps[k][0])) {
				add(ss, swaps[k][2], x->off, x->len,
				    swaps[k][1]);
				break;
			}
	}
	free(tmpl);
}

/* Statement sites of the body [a, b): dropped statements and
 * __syncthreads, and + 1 on a value stored through a pointer. */
static void
statement_sites(const char *s, const struct mtoks *t, size_t a, size_t b,
    struct sites *ss)
{
	size_t i = a, e, j;
	int start = 1;

	for (; i < b; i++) {
		int assign = 0, store = 0, calls = 0;
		size_t eq = 0;
		if (mt_is(s, t, i, "{") || mt_is(s, t, i, "}") ||
		    mt_is(s, t, i, ";") || mt_is(s, t, i, "else") ||
		    mt_is(s, t, i, "do") || mt_is(s, t, i, ":")) {
			start = 1;
			continue;
		}
		if ((mt_is(s, t, i, "if") || mt_is(s, t, i, "for") ||
		    mt_is(s, t, i, "while") || mt_is(s, t, i, "switch")) &&
		    mt_is(s, t, i + 1, "(")) {
			i = mt_close(s, t, i + 1);
			start = 1;
			continue;
		}
		if (!start)
			continue;
		start = 0;
		/* a declaration ("T x", "T *p = ...", "Vec<T> v") is no
		 * statement to drop: the name would go with it */
		if (t->v[i].kind != M_ID || keyword(s, t, i) ||
		    t->v[i + 1 < b ? i + 1 : i].kind == M_ID ||
		    mt_is(s, t, i + 1, "<") || mt_is(s, t, i + 1, ":") ||
		    mt_is(s, t, i + 1, "::") || ((mt_is(s, t, i + 1, "*") ||
		    mt_is(s, t, i + 1, "&")) && decl_star(s, t, a, i + 1)))
			continue;
		/* the statement's end, at depth 0 within the body */
		for (e = i; e < b && !mt_is(s, t, e, ";"); e++) {
			if (mt_is(s, t, e, "{") || mt_is(s, t, e, "}"))
				break;
			if (mt_is(s, t, e, "(") || mt_is(s, t, e, "[")) {
				if (mt_is(s, t, e, "("))
					calls = 1;
				e = mt_close(s, t, e);
				continue;
			}
			if (mt_is(s, t, e, "=") && !assign)
				eq = e;
			if (mt_is(s, t, e, "=") || mt_is(s, t, e, "+=") ||
			    mt_is(s, t, e, "-=") || mt_is(s, t, e, "*=") ||
			    mt_is(s, t, e, "/=") || mt_is(s, t, e, "|=") ||
			    mt_is(s, t, e, "&=") || mt_is(s, t, e, "^=") ||
			    mt_is(s, t, e, "++") || mt_is(s, t, e, "--"))
				assign = 1;
		}
		if (e >= b || !mt_is(s, t, e, ";"))
			continue;
		if (mt_is(s, t, i, "__syncthreads")) {
			add(ss, "drop-syncthreads", t->v[i].off,
			    t->v[e].off + 1 - t->v[i].off, ";");
			i = e;
			start = 1;
			continue;
		}
		if (assign || calls)
			add(ss, "drop-statement", t->v[i].off,
			    t->v[e].off + 1 - t->v[i].off, ";");
		/* a store: a[...] = v or *p = v */
		for (j = i; eq > 0 && j < eq; j++)
			if (mt_is(s, t, j, "["))
				store = 1;
		if (eq > 0 && eq + 1 < e && (store || mt_is(s, t, i, "*"))) {
			struct k_buf r = { 0 };
			size_t vo = t->v[eq + 1].off;
			k_buf_printf(&r, "(%.*s) + 1", (int)(t->v[e].off - vo),
			    s + vo);
			add(ss, "store-plus-one", vo, t->v[e].off - vo,
			    k_buf_str(&r));
			k_buf_free(&r);
		}
		i = e;
		start = 1;
	}
}

/* The kernel's body: the tokens of its outermost braces, [*a, *b). */
int
mt_body(const char *s, const struct mtoks *t, const char *name, size_t *a,
    size_t *b)
{
	size_t i, j;

	for (i = 0; i + 1 < t->n; i++) {
		if (!mt_is(s, t, i, name) || !mt_is(s, t, i + 1, "("))
			continue;
		j = mt_close(s, t, i + 1);
		/* a definition: a body after the parameters (and any
		 * trailing qualifiers), not a call or a declaration */
		while (j + 1 < t->n && !mt_is(s, t, j + 1, "{") &&
		    !mt_is(s, t, j + 1, ";") && !mt_is(s, t, j + 1, ",") &&
		    !mt_is(s, t, j + 1, ")") && t->v[j + 1].kind == M_ID)
			j++;
		if (j + 1 >= t->n || !mt_is(s, t, j + 1, "{"))
			continue;
		*a = j + 2;
		*b = mt_close(s, t, j + 1);
		return *b < t->n;
	}
	return 0;
}

/* "-line\n+line\n" for the lines the edit touches, numbered. */
static json_t *
diff_of(const char *s, const struct site *x, int *line)
{
	const char *ls = s + x->off, *le = s + x->off + x->len, *p;
	struct k_buf d = { 0 };
	json_t *r;

	while (ls > s && ls[-1] != '\n')
		ls--;
	le += strcspn(le, "\n");
	*line = 1;
	for (p = s; p < ls; p++)
		*line += *p == '\n';
	k_buf_printf(&d, "@@ line %d @@\n-", *line);
	for (p = ls; p < le; p++)
		k_buf_printf(&d, *p == '\n' ? "\n-" : "%c", *p);
	k_buf_add(&d, "\n+");
	k_buf_addn(&d, ls, (size_t)(s + x->off - ls));
	for (p = x->text; *p != '\0'; p++)
		k_buf_printf(&d, *p == '\n' ? "\n+" : "%c", *p);
	k_buf_addn(&d, s + x->off + x->len, (size_t)(le - (s + x->off +
	    x->len)));
	k_buf_add(&d, "\n");
	r = k_string_lossy(k_buf_str(&d), d.n);
	k_buf_free(&d);
	return r;
}

static int
by_off(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return strcmp(x->op, y->op);
}

json_t *
kw_mutants(const char *code, const char *kernel, int budget)
{
	struct mtoks t = { 0 };
	struct sites ss = { 0 }, pick = { 0 };
	json_t *m = json_object(), *list = json_array();
	size_t a, b, i, k, *next;
	int any = 1;

	json_object_set_new(m, "budget", json_integer(budget));
	mt_lex(code, &t);
	if (kernel == NULL || !mt_body(code, &t, kernel, &a, &b)) {
		json_object_set_new(m, "sites", json_integer(0));
		json_object_set_new(m, "note", json_string("the kernel's "
		    "definition was not found in slice.code"));
		json_object_set_new(m, "list", list);
		free(t.v);
		return m;
	}
	token_sites(code, &t, a, b, &ss);
	statement_sites(code, &t, a, b, &ss);
	json_object_set_new(m, "sites", json_integer((json_int_t)ss.n));
	/* round-robin over the operators, each in source order, so that a
	 * small budget still tries every kind the kernel has */
	next = k_calloc(sizeof(ops) / sizeof(ops[0]), sizeof(*next));
	while ((int)pick.n < budget && any) {
		any = 0;
		for (k = 0; ops[k] != NULL && (int)pick.n < budget; k++) {
			for (i = next[k]; i < ss.n; i++)
				if (strcmp(ss.v[i].op, ops[k]) == 0)
					break;
			next[k] = i + 1;
			if (i >= ss.n)
				continue;
			any = 1;
			pick.v = more(pick.v, pick.n, &pick.cap,
			    sizeof(*pick.v));
			pick.v[pick.n++] = ss.v[i];
		}
	}
	free(next);
	if (pick.n > 0)
		qsort(pick.v, pick.n, sizeof(*pick.v), by_off);
	for (i = 0; i < pick.n; i++) {
		const struct site *x = &pick.v[i];
		int line;
		json_t *d = diff_of(code, x, &line);
		json_t *o = json_object();
		json_object_set_new(o, "id", json_sprintf("m%zu", i + 1));
		json_object_set_new(o, "op", json_string(x->op));
		json_object_set_new(o, "offset", json_integer(
		    (json_int_t)x->off));
		json_object_set_new(o, "length", json_integer(
		    (json_int_t)x->len));
		json_object_set_new(o, "replacement", k_string_lossy(x->text,
		    strlen(x->text)));
		json_object_set_new(o, "line", json_integer(line));
		json_object_set_new(o, "diff", d);
		json_array_append_new(list, o);
	}
	json_object_set_new(m, "list", list);
	for (i = 0; i < ss.n; i++)
		free(ss.v[i].text);
	free(ss.v);
	free(pick.v);
	free(t.v);
	return m;
}
