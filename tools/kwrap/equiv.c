/*
 * kwrap --mutants: mutants proven equivalent to the reference under the
 * spec's cases and launch (man kwrap, "Mutants").  A mutant is marked
 * when, in EVERY case of the spec, one of these holds:
 *
 *	same-value	the smallest expression around the edit that kwrap
 *			can read (a condition, an argument, a subscript, a
 *			right-hand side, or one of their enclosing groups)
 *			takes one and the same value in the reference and in
 *			the mutant: kn >= N0 and kn > N0 are both 0 when kn
 *			lies in [0, N0 - 1];
 *	identity	a * swapped with / (or back) whose right operand is 1,
 *			a + with - whose right operand is 0 and whose left is
 *			an integer kwrap bounds;
 *	assert-holds	a dropped assert whose condition holds;
 *	dead-code	the edit lies in what an "if" runs, its condition 0
 *			in every case (template value parameters at the
 *			instance's values: "if (blockSize >= 512)" in
 *			kernel<256>), in the else of one whose condition
 *			holds in every case, or in a section of a switch
 *			that no case reaches, in equiv_dead.c;
 *	dead-store	a store-plus-one into an on-chip array that no live
 *			code reads, in equiv_dead.c;
 *	barrier-orders-nothing	a dropped __syncthreads() where no memory
 *			written on one side of it (back to the previous
 *			barrier, on to the next) is touched on the other, in
 *			equiv_barrier.c;
 *	dead-init	an edit in the initializer of a local that every
 *			path assigns before reading (or never reads), in
 *			equiv_init.c: it holds for any input;
 *	any-thread	an edit in the condition of an if on the thread's
 *			index whose body runs alike in any thread, some
 *			thread of the block taking it in every case in the
 *			reference and in the mutant, in equiv_thread.c.
 *
 * The values are integer intervals per case: scalars at the case's value,
 * threadIdx, blockIdx, blockDim and gridDim from the case's launch,
 * elements read from an input-only buffer within the case's fill (kinds
 * int and constant), locals with one definition that nothing changes,
 * the slice's integer constants.  Anything else is unknown, and an
 * unknown value proves nothing: an expression with side effects (++,
 * an assignment, a call kwrap does not know to be pure), a float, an
 * overflow of 32 bits, a name declared twice, a name passed bare to a
 * call or macro (which may change it).  Equivalence holds under the
 * spec's cases and launch only, not for every input the kernel could be
 * given: kverify still runs these mutants, and one it kills contradicts
 * the proof.
 */
#include "equiv.h"

/* ------------------------------------------------------------ spans */
/* The innermost group ("(" or "[") that holds token k, or g->a - 1 when
 * it is the statement; the group's opener at *open. */
static int
enclosing(const struct eq *g, size_t k, size_t *open)
{
	size_t i;
	int d = 0;

	for (i = k; i-- > g->a;) {
		if (mt_is(g->code, &g->t, i, ")") || mt_is(g->code, &g->t, i,
		    "]"))
			d++;
		else if (mt_is(g->code, &g->t, i, "(") || mt_is(g->code, &g->t,
		    i, "[")) {
			if (d-- == 0) {
				*open = i;
				return 1;
			}
		} else if (mt_is(g->code, &g->t, i, "{") ||
		    mt_is(g->code, &g->t, i, "}")) {
			if (d == 0)
				break;
		}
	}
	*open = i;	/* the statement's start - 1 */
	return 0;
}

/* The span [*sa, *sb) of tokens around k one level out: its piece of the
 * enclosing group or statement, cut at assignments and keywords. */
static int
span_of(const struct eq *g, size_t k, size_t *sa, size_t *sb)
{
	const struct mtoks *t = &g->t;
	size_t open, close, i, a, b;
	int grp = enclosing(g, k, &open), d;

	if (grp)
		close = mt_close(g->code, t, open);
	else {
		for (close = k; close < g->b; close++) {
			if (mt_is(g->code, t, close, "(") || mt_is(g->code, t,
			    close, "[")) {
				close = mt_close(g->code, t, close);
				continue;
			}
			if (mt_is(g->code, t, close, ";") || mt_is(g->code, t,
			    close, "{") || mt_is(g->code, t, close, "}"))
				break;
		}
	}
	if (close > g->b)
		return 0;
	/* the piece between , ; at depth 0 of the group */
	a = open + 1;
	b = close;
	for (i = open + 1, d = 0; i < close; i++) {
		if (mt_is(g->code, t, i, "(") || mt_is(g->code, t, i, "[") ||
		    mt_is(g->code, t, i, "{"))
			d++;
		else if (mt_is(g->code, t, i, ")") || mt_is(g->code, t, i,
		    "]") || mt_is(g->code, t, i, "}"))
			d--;
		else if (d == 0 && (mt_is(g->code, t, i, ",") ||
		    mt_is(g->code, t, i, ";") || eq_is_assign(g->code,
		    &t->v[i]) || mt_is(g->code, t, i, "return") ||
		    mt_is(g->code, t, i, "else") || mt_is(g->code, t, i,
		    "case"))) {
			if (i < k)
				a = i + 1;
			else if (i > k) {
				b = i;
				break;
			} else
				return 0;	/* the edit is the separator */
		} else if (d == 0 && !grp && mt_is(g->code, t, i, ")") &&
		    i < k)
			a = i + 1;
	}
	/* if (c) x: the statement after a header */
	for (i = a; !grp && i < k; i++)
		if (mt_is(g->code, t, i, "(") && i > a && (mt_is(g->code, t,
		    i - 1, "if") || mt_is(g->code, t, i - 1, "while") ||
		    mt_is(g->code, t, i - 1, "for") || mt_is(g->code, t, i - 1,
		    "switch"))) {
			i = mt_close(g->code, t, i);
			if (i < k)
				a = i + 1;
		}
	if (a >= b)
		return 0;
	/* a comma may part a template's arguments (f<a, b>), not
	 * expressions: a piece cut at one that holds < or > is not one */
	if ((mt_is(g->code, t, a - 1, ",") || mt_is(g->code, t, b, ",")))
		for (i = a; i < b; i++)
			if (mt_is(g->code, t, i, "<") || mt_is(g->code, t, i, ">"))
				return 0;
	*sa = a;
	*sb = b;
	return 1;
}

/* ------------------------------------------------------------ cases */

enum { R_NONE, R_SAME, R_IDENTITY, R_ASSERT, R_DEAD_CODE, R_DEAD_STORE,
	R_BARRIER, R_DEAD_INIT, R_OVERWRITTEN, R_ANY_THREAD };

static const char *const rules[] = { NULL, "same-value", "identity",
	"assert-holds", "dead-code", "dead-store", "barrier-orders-nothing",
	"dead-init", "overwritten", "any-thread" };

/* The token of g->t at offset off, or t.n. */
static size_t
tok_at(const struct eq *g, size_t off)
{
	size_t i;

	for (i = g->a; i < g->b; i++)
		if (g->t.v[i].off == off)
			return i;
	return g->t.n;
}

static char *
slice_of(const char *s, size_t a, size_t b)
{
	return k_asprintf("%.*s", (int)(b - a), s + a);
}

char *
eq_squeeze(const char *s)
{
	char *r = k_strdup(s), *o = r;

	for (; *s != '\0'; s++)
		if (!isspace((unsigned char)*s))
			*o++ = *s;
		else if (o > r && o[-1] != ' ')
			*o++ = ' ';
	*o = '\0';
	return r;
}

/* The proof for mutant m (its edit at off, len, rep), or NULL. */
static json_t *
prove(struct eq *g, const char *op, size_t off, size_t len, const char *rep)
{
	json_t *cases = json_object_get(g->spec, "cases"), *cs, *r;
	size_t k = tok_at(g, off), sa = 0, sb = 0, from, i, ci;
	int rule = R_NONE, level;
	size_t na = 0, nb = 0;
	struct k_buf why = { 0 };
	char *os = NULL, *ms = NULL;
	struct val v0 = unknown;
	int same0 = 1;		/* the value is case 0's in every case */

	if (k >= g->t.n || json_array_size(cases) == 0)
		return NULL;
	g->nnames = 0;
	g->reads = 0;
	{
		/* code that never runs; a store nothing reads */
		if (eq_dead_at(g, k, &why)) {
			rule = R_DEAD_CODE;
			goto done;
		}
		g->nnames = 0;
		g->reads = 0;
		if (strcmp(op, "drop-syncthreads") != 0 && eq_overwritten(g,
		    off, len, &why)) {
			rule = R_OVERWRITTEN;
			goto done;
		}
		if (strcmp(op, "store-plus-one") == 0) {
			if (eq_dead_store(g, off, len, &why))
				rule = R_DEAD_STORE;
			goto done;
		}
		if (strcmp(op, "drop-syncthreads") == 0) {
			if (eq_barrier_free(g, off, &why))
				rule = R_BARRIER;
			goto done;
		}
		if ((strcmp(op, "constant") == 0 || strncmp(op, "swap-", 5) ==
		    0) && eq_dead_init(g, off, len, &why)) {
			rule = R_DEAD_INIT;
			goto done;
		}
		g->nnames = 0;
		g->reads = 0;
		if ((strcmp(op, "constant") == 0 || strncmp(op, "swap-", 5) ==
		    0) && eq_any_thread(g, off, len, rep, &why)) {
			rule = R_ANY_THREAD;
			goto done;
		}
	}
	if (strcmp(op, "drop-statement") == 0) {
		/* assert(c); dropped: c holds in every case */
		size_t c;
		if (!mt_is(g->code, &g->t, k, "assert") || !mt_is(g->code,
		    &g->t, k + 1, "("))
			return NULL;
		c = mt_close(g->code, &g->t, k + 1);
		if (c <= k + 2 || c + 1 >= g->t.n || !mt_is(g->code, &g->t,
		    c + 1, ";") || g->t.v[c + 1].off + 1 != off + len)
			return NULL;
		os = slice_of(g->code, g->t.v[k + 2].off, g->t.v[c].off);
		json_array_foreach(cases, ci, cs) {
			struct val v;
			eq_case_start(g, cs);
			if (!eq_parse_text(g, os, g->t.v[k].off, g->t.v[c].off, -1,
			    NULL, 1, &v, NULL) || eq_truth(v) != 1)
				break;
		}
		if (ci == json_array_size(cases)) {
			rule = R_ASSERT;
			char *a = eq_squeeze(os);
			k_buf_printf(&why, "assert(%s) holds in every case",
			    a);
			free(a);
		}
		goto done;
	}
	if (strcmp(op, "swap-arith") != 0 && strcmp(op, "swap-relational") != 0 &&
	    strcmp(op, "swap-logical") != 0 && strcmp(op, "constant") != 0)
		return NULL;
	for (level = 0, from = k; level < EQ_LEVELS && rule == R_NONE;
	    level++) {
		size_t so, eo;
		int node = 1, ident = 1, span = 1;
		if (!span_of(g, from, &sa, &sb) || sa > k || sb <= k)
			break;
		so = g->t.v[sa].off;
		eo = g->t.v[sb - 1].off + g->t.v[sb - 1].len;
		free(os);
		free(ms);
		os = slice_of(g->code, so, eo);
		ms = k_asprintf("%.*s%s%.*s", (int)(off - so), g->code + so, rep,
		    (int)(eo - off - len), g->code + off + len);
		g->nnames = 0;
		g->reads = 0;
		json_array_foreach(cases, ci, cs) {
			struct val a, b;
			struct px pa;
			eq_case_start(g, cs);
			/* a logical swap's node too, where the mutant,
			 * parsed with the other operator's precedence, still
			 * groups the same operands under it (pb): "a && b &&
			 * c" made "a || b && c" regroups, and its first
			 * node's values prove nothing */
			struct px pb;
			int logical = strcmp(op, "swap-logical") == 0;
			if (!eq_parse_text(g, os, so, eo, (long long)(off - so),
			    level == 0 && (strcmp(op, "swap-arith") == 0 ||
			    strcmp(op, "swap-relational") == 0 || logical) ?
			    rep : NULL, 1, &a, &pa) || !eq_parse_text(g, ms, so,
			    eo, logical ? (long long)(off - so) : -1, NULL, 0, &b,
			    logical ? &pb : NULL))
				break;
			/* the operator's own node: its operands are the
			 * mutant's, only the operator differs */
			node = node && pa.site_seen && eq_single(pa.site_v) &&
			    eq_single(pa.site_m) && pa.site_v.lo == pa.site_m.lo &&
			    (!logical || (strlen(rep) == len && pb.site_seen &&
			    pb.node_a == pa.node_a && pb.node_b == pa.node_b));
			/* x * 1 and x / 1; x + 0 and x - 0, x an integer */
			ident = ident && pa.site_seen && strcmp(op,
			    "swap-arith") == 0 && eq_single(pa.site_r) &&
			    ((strchr("*/", g->code[off]) != NULL &&
			    pa.site_r.lo == 1) || (strchr("+-", g->code[off]) !=
			    NULL && pa.site_r.lo == 0 && pa.site_l.known));
			span = span && eq_single(a) && eq_single(b) && a.lo == b.lo;
			if (ci > 0 && (node ? pa.site_v : a).lo != v0.lo)
				same0 = 0;
			if (ci == 0) {
				v0 = node ? pa.site_v : a;
				na = pa.node_a;
				nb = pa.node_b;
			}
			if (!node && !ident && !span)
				break;
		}
		if (ci == json_array_size(cases) && (node || span)) {
			rule = R_SAME;
			if (node && nb > na && off - so >= na &&
			    off - so + len <= nb) {
				/* the operator's node, in both */
				char *x = slice_of(os, na, nb);
				free(ms);
				ms = k_asprintf("%.*s%s%s", (int)(off - so - na),
				    x, rep, x + (off - so - na) + len);
				free(os);
				os = x;
				/* the names the node reads, alone */
				g->nnames = 0;
				json_array_foreach(cases, ci, cs) {
					struct val v;
					eq_case_start(g, cs);
					(void)eq_parse_text(g, os, so, eo, -1, NULL, 1,
					    &v, NULL);
				}
			}
		} else if (ci == json_array_size(cases) && ident)
			rule = R_IDENTITY;
		from = sa;
		if (rule == R_NONE && sa > g->a) {
			/* one level out: from the group's opener */
			size_t open;
			if (enclosing(g, sa, &open) && open >= g->a)
				from = open;
			else
				break;
		}
	}
	if (rule == R_SAME) {
		char *a = eq_squeeze(os), *b = eq_squeeze(ms);
		if (same0)
			k_buf_printf(&why, "%s and %s are both %lld in every "
			    "case", a, b, v0.lo);
		else
			k_buf_printf(&why, "%s and %s take one and the same "
			    "value in each case (%lld in case 0)", a, b, v0.lo);
		free(a);
		free(b);
	} else if (rule == R_IDENTITY)
		k_buf_printf(&why, "the right operand of %.*s is %s in every "
		    "case", (int)len, g->code + off,
		    strchr("*/", g->code[off]) != NULL ? "1" : "0");
done:
	r = NULL;
	if (rule != R_NONE) {
		for (i = 0; i < (size_t)g->nnames; i++)
			k_buf_printf(&why, "%s%s in [%lld, %lld]", i ?
			    ", " : " (over the cases: ", g->names[i].name,
			    g->names[i].lo, g->names[i].hi);
		if (g->nnames > 0)
			k_buf_add(&why, ")");
		json_t *rd = json_array();
		if (g->reads & EQ_R_SCALARS)
			json_array_append_new(rd, json_string("scalars"));
		if (g->reads & EQ_R_LAUNCH)
			json_array_append_new(rd, json_string("launch"));
		if (g->reads & EQ_R_DATA)
			json_array_append_new(rd, json_string("data"));
		r = json_pack("{s:s,s:s,s:I,s:o,s:s}", "under", "spec", "rule",
		    rules[rule], "cases", (json_int_t)json_array_size(cases),
		    "reads", rd, "reason", k_buf_str(&why));
	}
	k_buf_free(&why);
	free(os);
	free(ms);
	return r;
}

void
kw_equivalent(const char *code, const char *kernel, json_t *instance,
    json_t *spec, json_t *mutants)
{
	struct eq g = { 0 };
	struct toks all = { 0 };
	json_t *m, *e;
	size_t i;
	int n = 0;

	if (code == NULL || kernel == NULL || !json_is_object(spec) ||
	    !json_is_array(json_object_get(mutants, "list")))
		return;
	g.code = code;
	g.spec = spec;
	mt_lex(code, &g.t);
	if (!mt_body(code, &g.t, kernel, &g.a, &g.b)) {
		free(g.t.v);
		return;
	}
	tokenize(code, &all);
	collect_consts(code, &all, &g.c);
	eq_macros(&g);
	{
		/* template value parameters of the instance, last: they
		 * win over namesakes of the slice (as kern_infer's) */
		json_t *v;
		const char *key;
		long long x;
		json_object_foreach(instance, key, v)
			if (json_is_string(v) && eval_str(json_string_value(v),
			    &g.c, &x))
				const_set(&g.c, key, x);
	}
	json_array_foreach(json_object_get(mutants, "list"), i, m) {
		const char *op = k_get_str(m, "op");
		const char *rep = k_get_str(m, "replacement");
		json_int_t off = k_get_int(m, "offset", -1);
		json_int_t len = k_get_int(m, "length", -1);
		if (op == NULL || rep == NULL || off < 0 || len < 0 ||
		    (size_t)(off + len) > strlen(code))
			continue;
		if ((e = prove(&g, op, (size_t)off, (size_t)len, rep)) != NULL) {
			json_object_set_new(m, "equivalent", e);
			n++;
		}
	}
	json_object_set_new(mutants, "equivalent", json_integer(n));
	consts_free(&g.c);
	consts_free(&g.bind);
	toks_free(&all);
	free(g.hazards);
	free(g.t.v);
}
