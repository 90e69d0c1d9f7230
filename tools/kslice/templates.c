/*
 * kslice: template instances of a kernel, the concrete types (--types)
 * and values bound to its template parameters.
 */
#include "kslice.h"

const char *
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

	/* (Enum)3: an enumeration's value as the compiler gave it at a call
	 * of the launcher (kscan's launches bound from calls) */
	if (*p == '(') {
		for (q = p + 1; is_ident_char(*q) || *q == ':'; q++)
			;
		if (q > p + 1 && *q == ')') {
			q++;
			if (*q == '-')
				q++;
			if (isdigit((unsigned char)*q)) {
				while (isdigit((unsigned char)*q))
					q++;
				if (*q == '\0')
					return 1;
			}
		}
	}
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

/* Every argument of args (one per template parameter) is concrete. */
static int
all_concrete(json_t *args, size_t ntp, json_t *classes)
{
	size_t i;
	const char *a;

	if (json_array_size(args) != ntp)
		return 0;
	for (i = 0; i < ntp; i++) {
		a = json_string_value(json_array_get(args, i));
		if (a == NULL || (!concrete_arg(a) &&
		    json_object_get(classes, a) == NULL))
			return 0;
	}
	return 1;
}

/* Whether the type arguments of args are each one of --types. */
static int
of_types(json_t *tps, json_t *args)
{
	size_t i, t;
	int ok;

	for (i = 0; i < json_array_size(tps); i++) {
		if (strcmp(k_get_str(json_array_get(tps, i), "kind"),
		    "type") != 0)
			continue;
		ok = 0;
		for (t = 0; t < opt.types.n; t++)
			ok |= strcmp(json_string_value(json_array_get(args, i)),
			    cxx_type(opt.types.v[t])) == 0;
		if (!ok)
			return 0;
	}
	return 1;
}

#define MAX_EXPLICIT 4		/* explicit instances taken a kernel */
#define MAX_INSTANCES 32	/* instances a kernel gives, at most */

/* How many of instance inst's (parameter, value) pairs covered lacks;
 * with mark, they are added to it. */
static size_t
uncovered(json_t *inst, json_t *covered, int mark)
{
	const char *name;
	json_t *v;
	size_t fresh = 0;

	json_object_foreach(inst, name, v) {
		char *pair = k_asprintf("%s=%s", name, json_string_value(v));
		fresh += json_object_get(covered, pair) == NULL;
		if (mark)
			json_object_set_new(covered, pair, json_true());
		free(pair);
	}
	return fresh;
}

/*
 * At most MAX_INSTANCES of the instances in all, chosen to cover every
 * value each parameter takes as far as the bound allows: each pick is the
 * instance, first in launch order among equals, that brings the most
 * (parameter, value) pairs not yet covered.  A macro that writes the
 * launchers of a whole matrix of instances (traits x block sizes x
 * channel counts, hundreds) would otherwise give a slice, a build and a
 * GPU run each for near copies of one kernel, and a slice's fan-out
 * would outlast its time limit.
 */
static json_t *
spread(json_t *all)
{
	size_t n = json_array_size(all), i, k, fresh;
	json_t *out = json_array(), *covered = json_object();
	char *taken = k_calloc(n, 1);

	for (k = 0; k < MAX_INSTANCES && k < n; k++) {
		size_t best = n, bestnew = 0;
		for (i = 0; i < n; i++) {
			if (taken[i])
				continue;
			fresh = uncovered(json_array_get(all, i), covered, 0);
			if (best == n || fresh > bestnew) {
				best = i;
				bestnew = fresh;
			}
		}
		uncovered(json_array_get(all, best), covered, 1);
		taken[best] = 1;
	}
	/* in launch order */
	for (i = 0; i < n; i++)
		if (taken[i])
			json_array_append(out, json_array_get(all, i));
	free(taken);
	json_decref(covered);
	json_decref(all);
	return out;
}

/* Template argument i of launch l: as spelled where that is concrete,
 * else as kscan resolved a local of the launcher that it names
 * (resolved.template_args: const int ILP = 4; using label_t = int64_t)
 * where that is; else as spelled (NULL when there is none). */
static const char *
launch_arg(json_t *l, size_t i, json_t *classes)
{
	const char *a = json_string_value(json_array_get(
	    json_object_get(l, "template_args"), i));
	const char *r = json_string_value(json_array_get(json_object_get(
	    json_object_get(l, "resolved"), "template_args"), i));

	if (a == NULL || concrete_arg(a) || json_object_get(classes, a) != NULL)
		return a;
	if (r != NULL && (concrete_arg(r) || json_object_get(classes, r) !=
	    NULL))
		return r;
	return a;
}

/*
 * The launches whose arguments bind the instances: where the unit
 * instantiates the kernel explicitly and no launch binds every parameter
 * concretely (a launcher's own parameters, a dispatch macro), the explicit
 * instantiations stand for the launches: those of --types, else the
 * first; without them the launches the parse resolved (resolved_launches).
 * Otherwise the launches as kscan saw them.
 */
static json_t *
binding_launches(json_t *scan, json_t *explicit, json_t *resolved,
    json_t *classes)
{
	json_t *tps = json_object_get(scan, "template_params");
	json_t *launches = json_object_get(scan, "launches"), *out, *l, *e;
	size_t ntp = json_array_size(tps), i, n = 0;

	json_array_foreach(launches, i, l) {
		json_t *eff = json_array(), *a;
		size_t j;
		int yes;
		json_array_foreach(json_object_get(l, "template_args"), j, a)
			json_array_append_new(eff, json_string(launch_arg(l, j,
			    classes)));
		yes = all_concrete(eff, ntp, classes);
		json_decref(eff);
		if (yes)
			return json_incref(launches);
	}
	/* an explicit instantiation's arguments are concrete where it
	 * stands (an enumerator, a constant of the project) */
	out = json_array();
	json_array_foreach(explicit, i, e)
		if (n < MAX_EXPLICIT && json_array_size(e) == ntp &&
		    of_types(tps, e)) {
			json_array_append_new(out, json_pack("{sOsb}",
			    "template_args", e, "explicit", 1));
			n++;
		}
	json_array_foreach(explicit, i, e)
		if (n == 0 && json_array_size(e) == ntp) {
			json_array_append_new(out, json_pack("{sOsb}",
			    "template_args", e, "explicit", 1));
			n++;
		}
	if (n > 0)
		return out;
	json_decref(out);
	if (json_array_size(resolved) > 0)
		return json_incref(resolved);
	return json_incref(launches != NULL ? launches : json_null());
}

#define MAX_CALL_TYPES 4	/* a launcher's call types tried a kernel */

/*
 * Instance inst with each type parameter bound, where a launch spells it
 * as its launcher's own (k<T, 4> in template <typename T> void launch())
 * and the launcher's calls give that a concrete type (kscan's
 * launches[].call_types), to the k-th of those types (the last, where
 * fewer); NULL when k is past every list or nothing would change.  A
 * kernel written for half precision only (__habs on its element type)
 * does not build with --types' float: its launcher's callers say which
 * types it does.
 */
json_t *
call_type_instance(json_t *scan, json_t *inst, size_t k)
{
	json_t *tps = json_object_get(scan, "template_params"), *out, *l;
	size_t i, li;
	int changed = 0, within = 0;

	if (k >= MAX_CALL_TYPES)
		return NULL;
	out = json_deep_copy(inst);
	for (i = 0; i < json_array_size(tps); i++) {
		json_t *tp = json_array_get(tps, i);
		const char *name = k_get_str(tp, "name"), *pick = NULL;
		if (strcmp(k_get_str(tp, "kind"), "type") != 0)
			continue;
		json_array_foreach(json_object_get(scan, "launches"), li, l) {
			json_t *ts = json_array_get(json_object_get(l,
			    "call_types"), i);
			size_t n = json_array_size(ts);
			const char *t;
			if (n == 0 || pick != NULL)
				continue;
			within |= k < n;
			t = json_string_value(json_array_get(ts, k < n ? k :
			    n - 1));
			if (t != NULL && concrete_arg(t))
				pick = t;
		}
		if (pick != NULL && strcmp(k_get_str(out, name) != NULL ?
		    k_get_str(out, name) : "", pick) != 0) {
			json_object_set_new(out, name, json_string(pick));
			changed = 1;
		}
	}
	if (!changed || !within) {
		json_decref(out);
		return NULL;
	}
	return out;
}

/* The guessed parameters of instance inst: those of guessed but the
 * ones it holds at the value a launch's resolved.template_args gave
 * (guessed in another instance, one of a type not float). */
json_t *
instance_guesses(json_t *scan, json_t *guessed, json_t *inst)
{
	json_t *tps = json_object_get(scan, "template_params"), *out, *g, *l;
	size_t i, j, li;

	out = json_array();
	json_array_foreach(guessed, i, g) {
		const char *name = json_string_value(g), *v;
		int from_parse = 0;
		if (name == NULL || (v = k_get_str(inst, name)) == NULL) {
			json_array_append(out, g);
			continue;
		}
		json_array_foreach(tps, j, l)
			if (strcmp(k_get_str(l, "name"), name) == 0)
				break;
		json_array_foreach(json_object_get(scan, "launches"), li, l) {
			const char *r = json_string_value(json_array_get(
			    json_object_get(json_object_get(l, "resolved"),
			    "template_args"), j));
			const char *a = json_string_value(json_array_get(
			    json_object_get(l, "template_args"), j));
			if (r != NULL && a != NULL && strcmp(r, a) != 0 &&
			    strcmp(r, v) == 0)
				from_parse = 1;
		}
		if (!from_parse)
			json_array_append(out, g);
	}
	return out;
}

/* An instance whose --types parameters are not all float drops what
 * kscan resolved from the launcher's locals (parsed): the parse bound a
 * dispatch macro's type to float, and a local computed from it (ILP =
 * 16 / sizeof(scalar_t)) is float's.  A value parameter takes the guess
 * it took before (1, true), a type parameter the instance's first
 * non-float type. */
static void
parse_binding_only_float(json_t *tps, json_t *inst, json_t *parsed,
    json_t *typed, json_t *guessed)
{
	const char *key, *other = NULL, *v;
	json_t *x, *tp;
	size_t i;

	if (json_object_size(parsed) == 0)
		return;
	json_object_foreach(typed, key, x)
		if ((v = k_get_str(inst, key)) != NULL &&
		    strcmp(v, "float") != 0) {
			other = v;
			break;
		}
	if (other == NULL)
		return;
	json_array_foreach(tps, i, tp) {
		const char *name = k_get_str(tp, "name");
		if (json_object_get(parsed, name) == NULL)
			continue;
		if (strcmp(k_get_str(tp, "kind"), "type") == 0)
			json_object_set_new(inst, name, json_string(other));
		else {
			const char *ty = k_get_str(tp, "type");
			json_object_set_new(inst, name, json_string(ty != NULL &&
			    strcmp(ty, "bool") == 0 ? "true" : "1"));
			note_guess(guessed, name);
		}
	}
}

json_t *
instances(json_t *scan, json_t *explicit, json_t *resolved, json_t *classes,
    json_t *bound, json_t *guessed, char **why, size_t *all)
{
	json_t *tps = json_object_get(scan, "template_params");
	json_t *out = json_array(), *l, *seen = json_object();
	json_t *parsed = json_object(), *typed = json_object();
	size_t ntp = json_array_size(tps), i, li, t;
	json_t *launches = binding_launches(scan, explicit, resolved,
	    classes);
	size_t nl = json_array_size(launches);

	*all = 0;
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
		partial = k_realloc(NULL, sizeof(*partial));
		partial[0] = json_object();
		json_object_clear(parsed);
		json_object_clear(typed);
		for (i = 0; i < ntp; i++) {
			json_t *tp = json_array_get(tps, i);
			const char *name = k_get_str(tp, "name");
			const char *kind = k_get_str(tp, "kind");
			const char *a0 = args != NULL ? json_string_value(
			    json_array_get(args, i)) : NULL;
			const char *a = l != NULL ? launch_arg(l, i, classes) :
			    NULL;
			const char *spelled = k_get_str(tp, "spelled");
			const char *eq = strchr(spelled, '=');
			struct k_strv choices = { 0 };
			int deflt = 0;

			if (a != NULL && (concrete_arg(a) || json_is_true(
			    json_object_get(l, "explicit")) ||
			    json_object_get(classes, a) != NULL)) {
				k_strv_push(&choices, a);
				if (a != a0)
					json_object_set_new(parsed, name,
					    json_true());
			}
			else if (eq != NULL) {
				/* a default argument */
				eq++;
				while (*eq == ' ')
					eq++;
				k_strv_push(&choices, eq);
				deflt = 1;
			} else if (strcmp(kind, "type") == 0 &&
			    json_array_size(json_object_get(bound, name)) > 0) {
				/* the types the called templates exist for:
				 * those of --types, else the first */
				json_t *bt = json_object_get(bound, name);
				size_t u;
				json_object_set_new(typed, name, json_true());
				for (t = 0; t < opt.types.n; t++)
					for (u = 0; u < json_array_size(bt); u++)
						if (strcmp(json_string_value(
						    json_array_get(bt, u)),
						    cxx_type(opt.types.v[t])) == 0)
							k_strv_push(&choices,
							    cxx_type(
							    opt.types.v[t]));
				if (choices.n == 0)
					k_strv_push(&choices, json_string_value(
					    json_array_get(bt, 0)));
			} else if (strcmp(kind, "type") == 0 &&
			    index_like(name, scan)) {
				k_strv_push(&choices, "int");
				note_guess(guessed, name);
			} else if (strcmp(kind, "type") == 0) {
				json_object_set_new(typed, name, json_true());
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
			} else if (strcmp(kind, "value") == 0 &&
			    json_array_size(json_object_get(bound, name)) > 0) {
				/* an enumeration's: its first enumerator */
				k_strv_push(&choices, json_string_value(
				    json_array_get(json_object_get(bound, name),
				    0)));
				note_guess(guessed, name);
			} else {
				if (*why == NULL)
					*why = k_asprintf("template parameter "
					    "%s: no launch binds it and it has "
					    "no default", name);
				k_strv_free(&choices);
				for (j = 0; j < npartial; j++)
					json_decref(partial[j]);
				npartial = 0;
				break;
			}
			/* cartesian product */
			{
				json_t **np = k_realloc(NULL, (npartial *
				    choices.n + 1) * sizeof(*np));
				size_t m = 0, c;
				for (j = 0; j < npartial; j++) {
					for (c = 0; c < choices.n; c++) {
						json_t *o = json_deep_copy(
						    partial[j]);
						/* a default that names the
						 * parameters before it
						 * (typename V = T) takes
						 * their values */
						char *v = deflt ? subst_idents(
						    choices.v[c], partial[j]) :
						    k_strdup(choices.v[c]);
						json_object_set_new(o, name,
						    json_string(v));
						free(v);
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
		for (j = 0; j < npartial; j++)
			parse_binding_only_float(tps, partial[j], parsed, typed,
			    guessed);
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
	*all = json_array_size(out);
	if (json_array_size(out) > MAX_INSTANCES)
		out = spread(out);
done:
	json_decref(seen);
	json_decref(parsed);
	json_decref(typed);
	json_decref(launches);
	return out;
}

/* "<float, 4>" from an instance. */
char *
instance_args(json_t *scan, json_t *inst)
{
	struct k_buf b = KSLICE_BUF;
	json_t *tp;
	size_t i;

	k_buf_add(&b, "<");
	json_array_foreach(json_object_get(scan, "template_params"), i, tp) {
		const char *v = k_get_str(inst, k_get_str(tp, "name"));
		k_buf_printf(&b, "%s%s", i > 0 ? ", " : "", cxx_type(v));
	}
	k_buf_add(&b, ">");
	return b.s;
}

void
set_types(const char *list)
{
	char *copy = k_strdup(list), *tok, *save = NULL;

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

/* A token of a text: a word (identifier or number), "::", or one other
 * character; bol when it is the first of its logical line. */
struct tok {
	unsigned a, n;
	int bol;
};

struct toks {
	struct tok *v;
	size_t n, cap;
};

/* The tokens of s[0, n), comments and literals skipped. */
static void
tokenize(const char *s, size_t n, struct toks *t)
{
	size_t i = 0, j;
	int bol = 1;

	t->n = 0;
	while (i < n) {
		char c = s[i];
		if (c == '\n') {
			if (!(i > 0 && s[i - 1] == '\\'))
				bol = 1;
			i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\\') {
			i++;
			continue;
		}
		if (c == '/' && i + 1 < n && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		if (c == '/' && i + 1 < n && s[i + 1] == '*') {
			for (i += 2; i + 1 < n && !(s[i] == '*' &&
			    s[i + 1] == '/'); i++)
				;
			i += 2;
			continue;
		}
		j = i + 1;
		if (c == '"' || c == '\'') {
			while (j < n && s[j] != c && s[j] != '\n')
				j += s[j] == '\\' ? 2 : 1;
			j++;
		} else if (is_ident_char(c))
			while (j < n && is_ident_char(s[j]))
				j++;
		else if (c == ':' && j < n && s[j] == ':')
			j++;
		if (j > n)
			j = n;
		if (t->n == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 1024;
			t->v = k_realloc(t->v, t->cap * sizeof(*t->v));
		}
		t->v[t->n].a = (unsigned)i;
		t->v[t->n].n = (unsigned)(j - i);
		t->v[t->n].bol = bol;
		t->n++;
		bol = 0;
		i = j;
	}
}

static int
tok_is(const char *s, const struct tok *t, const char *w)
{
	return t->n == strlen(w) && strncmp(s + t->a, w, t->n) == 0;
}

/* The arguments between the '<' at v[i] and its '>', each its tokens
 * joined, words apart; a token equal to one of params is replaced by
 * the matching vals.  NULL when there is no closing '>' before end. */
static json_t *
targs_at(const char *s, const struct tok *v, size_t i, size_t end,
    json_t *params, json_t *vals)
{
	json_t *out = json_array();
	struct k_buf b = KSLICE_BUF;
	int depth = 0, prev_word = 0;
	size_t k, x;

	for (k = i + 1; k < end; k++) {
		const struct tok *t = &v[k];
		char c = s[t->a];
		const char *word = NULL;
		int w;

		if (depth == 0 && t->n == 1 && (c == ',' || c == '>')) {
			json_array_append_new(out, json_string(k_buf_str(&b)));
			k_buf_reset(&b);
			prev_word = 0;
			if (c == '>')
				return out;
			continue;
		}
		if (t->n == 1 && (c == '<' || c == '('))
			depth++;
		else if (t->n == 1 && (c == '>' || c == ')'))
			depth--;
		for (x = 0; x < json_array_size(params); x++)
			if (tok_is(s, t, json_string_value(json_array_get(
			    params, x))))
				word = json_string_value(json_array_get(vals,
				    x));
		w = is_ident_char(c);
		if (w && prev_word)
			k_buf_add(&b, " ");
		if (word != NULL)
			k_buf_add(&b, word);
		else
			k_buf_addn(&b, s + t->a, t->n);
		prev_word = w;
	}
	free(b.s);
	json_decref(out);
	return NULL;
}

/* In v[i, end): "template" not followed by '<', then within the
 * declaration the kernel's name and '<': the arguments, or NULL. */
static json_t *
instantiation_at(const char *s, const struct tok *v, size_t i, size_t end,
    const char *name, json_t *params, json_t *vals)
{
	size_t k;

	if (!tok_is(s, &v[i], "template") || i + 1 >= end ||
	    tok_is(s, &v[i + 1], "<"))
		return NULL;
	for (k = i + 1; k + 1 < end && k < i + 64; k++) {
		if (tok_is(s, &v[k], ";") || tok_is(s, &v[k], "{") ||
		    tok_is(s, &v[k], "("))
			return NULL;
		if (tok_is(s, &v[k], name) && tok_is(s, &v[k + 1], "<"))
			return targs_at(s, v, k + 1, end, params, vals);
	}
	return NULL;
}

/* The arguments of a macro invocation s[a, b): NAME ( x , y ). */
static json_t *
macro_args(const char *s, unsigned a, unsigned b)
{
	struct toks t = { 0 };
	json_t *out = json_array();
	struct k_buf v = KSLICE_BUF;
	int depth = 0, prev_word = 0;
	size_t k;

	tokenize(s + a, b - a, &t);
	for (k = 1; k < t.n && !tok_is(s + a, &t.v[k], "("); k++)
		;
	for (k++; k < t.n; k++) {
		char c = s[a + t.v[k].a];
		int w = is_ident_char(c);
		if (depth == 0 && t.v[k].n == 1 && (c == ',' || c == ')')) {
			json_array_append_new(out, json_string(k_buf_str(&v)));
			k_buf_reset(&v);
			prev_word = 0;
			if (c == ')')
				break;
			continue;
		}
		if (t.v[k].n == 1 && (c == '(' || c == '<' || c == '['))
			depth++;
		else if (t.v[k].n == 1 && (c == ')' || c == '>' || c == ']'))
			depth--;
		if (w && prev_word)
			k_buf_add(&v, " ");
		k_buf_addn(&v, s + a + t.v[k].a, t.v[k].n);
		prev_word = w;
	}
	free(v.s);
	free(t.v);
	return out;
}

/* The explicit instantiations in the body of the #define at v[i] ("#"),
 * taken through each expansion of it in the unit, appended to out. */
static void
through_macro(struct parsed *p, const char *s, const struct tok *v,
    size_t i, size_t end, const char *name, json_t *out)
{
	json_t *params = json_array(), *none = json_array(), *pat, *vals;
	struct k_buf mname = KSLICE_BUF;
	size_t k, e, x, body;

	/* # define NAME ( params ) body */
	k = i + 2;
	if (k >= end)
		goto done;
	k_buf_addn(&mname, s + v[k].a, v[k].n);
	k++;
	if (k < end && tok_is(s, &v[k], "(") && v[k].a == v[k - 1].a +
	    v[k - 1].n) {
		for (k++; k < end && !tok_is(s, &v[k], ")"); k++)
			if (is_ident_char(s[v[k].a]))
				json_array_append_new(params,
				    json_stringn(s + v[k].a, v[k].n));
		k++;
	}
	body = k;
	for (k = body; k < end; k++) {
		pat = instantiation_at(s, v, k, end, name, none, none);
		if (pat == NULL)
			continue;
		json_decref(pat);
		/* each expansion of the macro in a project file */
		for (e = 0; e < p->nexps; e++) {
			char *dn;
			if (clang_Cursor_isNull(p->exps[e].def) ||
			    p->exps[e].fi->text == NULL ||
			    p->exps[e].b > p->exps[e].fi->size)
				continue;
			dn = k_take(clang_getCursorSpelling(p->exps[e].def));
			if (strcmp(dn, mname.s) == 0) {
				vals = macro_args(p->exps[e].fi->text,
				    p->exps[e].a, p->exps[e].b);
				if (json_array_size(vals) ==
				    json_array_size(params) &&
				    (pat = instantiation_at(s, v, k, end,
				    name, params, vals)) != NULL)
					json_array_append_new(out, pat);
				json_decref(vals);
			}
			free(dn);
		}
		break;
	}
	(void)x;
done:
	free(mname.s);
	json_decref(params);
	json_decref(none);
}

/* An argument that names an object-like project macro
 * (template void k<ISONDEVICE>(...) after #define ISONDEVICE true): the
 * macro's body, which the slice need not carry. */
static void
expand_args(struct parsed *p, json_t *args)
{
	size_t i, d, n, e;
	json_t *a;

	json_array_foreach(args, i, a) {
		const char *v = json_string_value(a), *t;
		n = strlen(v);
		if (n == 0 || !is_ident_char(v[0]) || isdigit((unsigned char)
		    v[0]) || strspn(v, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != n)
			continue;
		for (d = p->ndefs; d-- > 0;) {
			struct fileinfo *fi = p->defs[d].fi;
			if (strcmp(p->defs[d].name, v) != 0 || fi->text == NULL ||
			    p->defs[d].off + n > fi->size)
				continue;
			t = fi->text + p->defs[d].off + n;
			if (*t == '(')
				break;	/* function-like */
			while (*t == ' ' || *t == '\t')
				t++;
			for (e = 0; t[e] != '\0' && t[e] != '\n' &&
			    t[e] != '\\' && t[e] != '/'; e++)
				;
			while (e > 0 && (t[e - 1] == ' ' || t[e - 1] == '\t' ||
			    t[e - 1] == '\r'))
				e--;
			if (e > 0)
				json_array_set_new(args, i, json_stringn(t, e));
			break;
		}
	}
}

/*
 * The template arguments of the kernel's explicit instantiations and
 * explicit specializations in the unit's project files ("template
 * __global__ void k<float, 256>(...);", or such a line in the body of a
 * #define, taken through each expansion of the macro), as arrays of
 * spellings in parameter order.  libclang shows no cursor for an
 * explicit instantiation, so they are read from the text.
 */
json_t *
explicit_instances(struct parsed *p, CXCursor kernel)
{
	json_t *out = json_array(), *none = json_array(), *a;
	struct toks t = { 0 };
	char *name;
	size_t f, i, e;

	if (clang_getCursorKind(kernel) != CXCursor_FunctionTemplate)
		goto done;
	name = k_take(clang_getCursorSpelling(kernel));
	for (f = 0; f < p->nfiles; f++) {
		struct fileinfo *fi = p->files[f];
		const char *s = fi->text;
		if (fi->cls != F_PROJECT || s == NULL ||
		    memmem(s, fi->size, name, strlen(name)) == NULL)
			continue;
		tokenize(s, fi->size, &t);
		for (i = 0; i < t.n; i++) {
			if (t.v[i].bol && tok_is(s, &t.v[i], "#")) {
				/* a directive: to the end of its line */
				for (e = i + 1; e < t.n && !t.v[e].bol; e++)
					;
				if (i + 1 < e && tok_is(s, &t.v[i + 1],
				    "define"))
					through_macro(p, s, t.v, i, e, name,
					    out);
				i = e - 1;
				continue;
			}
			a = instantiation_at(s, t.v, i, t.n, name, none,
			    none);
			if (a != NULL)
				json_array_append_new(out, a);
		}
	}
	free(name);
	free(t.v);
	json_array_foreach(out, i, a)
		expand_args(p, a);
done:
	json_decref(none);
	return out;
}

/*
 * Type parameters bound by the specializations that define what the
 * kernel calls: a function template whose primary is only declared
 * exists for the types of its explicit specializations alone, so a call
 * copy_vector<input_t, 4>(...) in the kernel binds input_t to one of
 * them.  Returns {param: [types, in source order]}, the sets of several
 * calls intersected.
 */
json_t *
spec_bound(struct parsed *p, struct closure *cl, json_t *scan)
{
	json_t *out = json_object(), *tps = json_object_get(scan,
	    "template_params"), *none = json_array();
	const struct item *k = &cl->v[0];
	struct toks t = { 0 };
	size_t i, j, s, x;

	if (json_array_size(tps) == 0 || k->fi->text == NULL)
		goto done;
	tokenize(k->fi->text + k->a, k->b - k->a, &t);
	for (i = 1; i < cl->n; i++) {
		const struct item *it = &cl->v[i];
		CXCursor canon;
		char *name;
		json_t *sets = json_array();	/* per argument: types */

		if (it->kind != I_DECL || clang_getCursorKind(it->c) !=
		    CXCursor_FunctionTemplate || !clang_Cursor_isNull(
		    clang_getCursorDefinition(it->c)))
			continue;
		canon = clang_getCanonicalCursor(it->c);
		for (s = 0; s < p->nspecs; s++) {
			CXCursor c = p->specs[s].c;
			int n, a;
			if (!clang_equalCursors(p->specs[s].tmpl, canon))
				continue;
			n = clang_Cursor_getNumTemplateArguments(c);
			for (a = 0; a < n; a++) {
				json_t *set;
				char *ty;
				while (json_array_size(sets) <= (size_t)a)
					json_array_append_new(sets,
					    json_array());
				if (clang_Cursor_getTemplateArgumentKind(c,
				    (unsigned)a) != CXTemplateArgumentKind_Type)
					continue;
				ty = k_take(clang_getTypeSpelling(
				    clang_Cursor_getTemplateArgumentType(c,
				    (unsigned)a)));
				set = json_array_get(sets, (size_t)a);
				json_array_append_new(set, json_string(ty));
				free(ty);
			}
		}
		name = k_take(clang_getCursorSpelling(it->c));
		/* calls name<P, ...> in the kernel, P a type parameter */
		for (j = 0; j + 1 < t.n && json_array_size(sets) > 0; j++) {
			json_t *args;
			if (!tok_is(k->fi->text + k->a, &t.v[j], name) ||
			    !tok_is(k->fi->text + k->a, &t.v[j + 1], "<"))
				continue;
			args = targs_at(k->fi->text + k->a, t.v, j + 1, t.n,
			    none, none);
			for (x = 0; args != NULL && x < json_array_size(args) &&
			    x < json_array_size(sets); x++) {
				const char *a = json_string_value(
				    json_array_get(args, x));
				json_t *set = json_array_get(sets, x), *old;
				size_t q, r;
				if (json_array_size(set) == 0)
					continue;
				for (q = 0; q < json_array_size(tps); q++) {
					json_t *tp = json_array_get(tps, q);
					if (strcmp(k_get_str(tp, "kind"),
					    "type") != 0 || strcmp(k_get_str(tp,
					    "name"), a) != 0)
						continue;
					old = json_object_get(out, a);
					if (old == NULL) {
						json_object_set(out, a, set);
						continue;
					}
					/* intersect */
					for (r = json_array_size(old); r-- > 0;) {
						size_t u;
						int in = 0;
						for (u = 0; u < json_array_size(set);
						    u++)
							in |= json_equal(
							    json_array_get(old,
							    r), json_array_get(
							    set, u));
						if (!in)
							json_array_remove(old,
							    r);
					}
				}
			}
			json_decref(args);
		}
		free(name);
		json_decref(sets);
	}
done:
	free(t.v);
	json_decref(none);
	return out;
}

/*
 * Launches resolved by the parse: a call of the kernel in code that is no
 * template itself names one specialization, whose arguments clang knows
 * whether the launch spells them or deduces them from its arguments
 * (kernel<<<g, b>>>(table.view(), n) binds view_t to the view's class).
 * A type argument that is a class of the project (a traits class, a
 * device view) comes into the slice with the instance.
 */
struct resolving {
	struct parsed *p;
	CXCursor kernel;	/* canonical */
	json_t *tps;
	json_t *out;		/* arrays of spellings, distinct */
	json_t *seen;
	CXCursor *decls;	/* per entry of out: its classes */
	size_t *ndecls;
	size_t cap;
};

#define MAX_RESOLVED 64		/* specializations looked at a kernel */
#define MAX_ARG_DECLS 8		/* classes one instance brings */

/* The project's and stubs' classes a type names (itself, what it points
 * to, its template arguments), appended to v; 0 when one of them has no name a
 * slice could spell (a lambda, a class of an anonymous namespace or local
 * to a function). */
static int
type_decls(struct parsed *p, CXType t, CXCursor *v, size_t *n, int depth)
{
	CXCursor d, par;
	struct fileinfo *fi;
	int i, na;

	t = clang_getCanonicalType(t);
	while (t.kind == CXType_Pointer || t.kind == CXType_LValueReference ||
	    t.kind == CXType_RValueReference)
		t = clang_getCanonicalType(clang_getPointeeType(t));
	if (t.kind != CXType_Record && t.kind != CXType_Enum)
		return 1;
	if (depth > 4)
		return 0;
	d = clang_getTypeDeclaration(t);
	if (clang_Cursor_isNull(d) || clang_Cursor_isAnonymous(d))
		return 0;
	for (par = clang_getCursorSemanticParent(d); !clang_Cursor_isNull(par)
	    && clang_getCursorKind(par) != CXCursor_TranslationUnit;
	    par = clang_getCursorSemanticParent(par)) {
		enum CXCursorKind k = clang_getCursorKind(par);
		if (clang_isInvalid(k) || k == CXCursor_FunctionDecl ||
		    k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
		    (k == CXCursor_Namespace && clang_Cursor_isAnonymous(par)))
			return 0;
	}
	/* a stub's class (c10::Half) brings the stub */
	fi = where(p, clang_getCursorLocation(d), NULL, NULL);
	if (fi != NULL && fi->cls != F_SYSTEM && *n < MAX_ARG_DECLS)
		v[(*n)++] = d;
	na = clang_Type_getNumTemplateArguments(t);
	for (i = 0; i < na; i++)
		if (!type_decls(p, clang_Type_getTemplateArgumentAsType(t,
		    (unsigned)i), v, n, depth + 1))
			return 0;
	return 1;
}

/* Type argument t spelled for the slice (canonical), the project's
 * classes it names into decls; NULL when it cannot be. */
static char *
type_arg(struct parsed *p, CXType t, CXCursor *decls, size_t *nd)
{
	char *s;

	if (t.kind == CXType_Invalid || !type_decls(p, t, decls, nd, 0))
		return NULL;
	s = k_take(clang_getTypeSpelling(clang_getCanonicalType(t)));
	if (s[0] == '\0' || strchr(s, '(') != NULL) {
		free(s);
		return NULL;
	}
	return s;
}

/* The arguments of the specialization fn in template parameter order,
 * spelled for the slice; NULL when one cannot be. */
static json_t *
spec_args(struct resolving *r, CXCursor fn, CXCursor *decls, size_t *nd)
{
	int n = clang_Cursor_getNumTemplateArguments(fn), i;
	json_t *args = json_array();

	*nd = 0;
	if (n < 0 || (size_t)n != json_array_size(r->tps))
		goto bad;
	for (i = 0; i < n; i++) {
		const char *pt = k_get_str(json_array_get(r->tps, i), "type");
		enum CXTemplateArgumentKind k =
		    clang_Cursor_getTemplateArgumentKind(fn, (unsigned)i);
		char *s;

		if (k == CXTemplateArgumentKind_Type) {
			if ((s = type_arg(r->p, clang_Cursor_getTemplateArgumentType(
			    fn, (unsigned)i), decls, nd)) == NULL)
				goto bad;
		} else if (k == CXTemplateArgumentKind_Integral) {
			long long v = clang_Cursor_getTemplateArgumentValue(fn,
			    (unsigned)i);
			if (pt != NULL && strcmp(pt, "bool") == 0)
				s = k_strdup(v ? "true" : "false");
			else if (pt != NULL && (strncmp(pt, "unsigned", 8) == 0
			    || strcmp(pt, "size_t") == 0 ||
			    strncmp(pt, "uint", 4) == 0))
				s = k_asprintf("%lluu",
				    clang_Cursor_getTemplateArgumentUnsignedValue(
				    fn, (unsigned)i));
			else
				s = k_asprintf("%lld", v);
		} else
			goto bad;
		json_array_append_new(args, json_string(s));
		free(s);
	}
	return args;
bad:
	json_decref(args);
	return NULL;
}

/* One instance's arguments args (a key of r->seen) and the classes they
 * bring, into r->out unless there already. */
static void
keep(struct resolving *r, json_t *args, CXCursor *decls, size_t nd)
{
	char *key = json_dumps(args, JSON_COMPACT);
	size_t i = json_array_size(r->out);

	if (key == NULL || json_object_get(r->seen, key) != NULL) {
		free(key);
		return;
	}
	json_object_set_new(r->seen, key, json_true());
	free(key);
	if (i == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 8;
		r->decls = k_realloc(r->decls, r->cap * MAX_ARG_DECLS *
		    sizeof(*r->decls));
		r->ndecls = k_realloc(r->ndecls, r->cap * sizeof(*r->ndecls));
	}
	memcpy(r->decls + i * MAX_ARG_DECLS, decls, nd * sizeof(*decls));
	r->ndecls[i] = nd;
	json_array_append(r->out, args);
}

static enum CXChildVisitResult
find_calls(CXCursor c, CXCursor parent, CXClientData data)
{
	struct resolving *r = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	struct fileinfo *fi;
	CXCursor fn, t, decls[MAX_ARG_DECLS];
	json_t *args;
	size_t nd;

	(void)parent;
	if (json_array_size(r->out) >= MAX_RESOLVED)
		return CXChildVisit_Break;
	if (clang_isDeclaration(k)) {
		/* the project's code alone, and no template's pattern: its
		 * calls are dependent */
		fi = where(r->p, clang_getCursorLocation(c), NULL, NULL);
		if (fi == NULL || fi->cls != F_PROJECT ||
		    k == CXCursor_FunctionTemplate ||
		    k == CXCursor_ClassTemplate ||
		    k == CXCursor_ClassTemplatePartialSpecialization)
			return CXChildVisit_Continue;
		return CXChildVisit_Recurse;
	}
	if (k != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	fn = clang_getCursorReferenced(c);
	k = clang_getCursorKind(fn);
	if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod)
		return CXChildVisit_Recurse;
	t = clang_getSpecializedCursorTemplate(fn);
	if (clang_Cursor_isNull(t) || !clang_equalCursors(
	    clang_getCanonicalCursor(t), r->kernel))
		return CXChildVisit_Recurse;
	if ((args = spec_args(r, fn, decls, &nd)) == NULL)
		return CXChildVisit_Recurse;
	keep(r, args, decls, nd);
	json_decref(args);
	return CXChildVisit_Recurse;
}

/*
 * A kernel launched only from a member function of a class template
 * (a launch "k<<<...>>>(make_view(this->data()), ...)" whose template
 * arguments are deduced from the class's own types) is instantiated by
 * the class's explicit instantiation definitions ("template class
 * C<X>;"): where each template parameter of the kernel has the name of
 * one of the class's type parameters, the class's arguments in those
 * definitions are the kernel's, an instance each.
 */
struct classbind {
	struct resolving *r;
	CXCursor cls;		/* the class template, canonical */
	int pos[16];		/* per kernel parameter: the class's */
};

static enum CXChildVisitResult
find_class_insts(CXCursor c, CXCursor parent, CXClientData data)
{
	struct classbind *b = data;
	struct resolving *r = b->r;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor t, decls[MAX_ARG_DECLS];
	CXType ty;
	CXToken *tok = NULL;
	unsigned ntok = 0;
	json_t *args;
	size_t nd = 0, i, ntp = json_array_size(r->tps);
	int expl = 0;

	(void)parent;
	if (json_array_size(r->out) >= MAX_RESOLVED)
		return CXChildVisit_Break;
	if (k == CXCursor_Namespace)
		return CXChildVisit_Recurse;
	if (k != CXCursor_ClassDecl && k != CXCursor_StructDecl)
		return CXChildVisit_Continue;
	t = clang_getSpecializedCursorTemplate(c);
	if (clang_Cursor_isNull(t) || !clang_equalCursors(
	    clang_getCanonicalCursor(t), b->cls))
		return CXChildVisit_Continue;
	/* "template class C<...>;", not "template <> class C<...> {...}" */
	clang_tokenize(r->p->tu, clang_getCursorExtent(c), &tok, &ntok);
	if (ntok >= 2) {
		char *a = k_take(clang_getTokenSpelling(r->p->tu, tok[0]));
		char *d = k_take(clang_getTokenSpelling(r->p->tu, tok[1]));
		expl = strcmp(a, "template") == 0 && (strcmp(d, "class") == 0 ||
		    strcmp(d, "struct") == 0);
		free(a);
		free(d);
	}
	if (tok != NULL)
		clang_disposeTokens(r->p->tu, tok, ntok);
	if (!expl)
		return CXChildVisit_Continue;
	ty = clang_getCursorType(c);
	args = json_array();
	for (i = 0; i < ntp; i++) {
		char *sp = type_arg(r->p, clang_Type_getTemplateArgumentAsType(
		    ty, (unsigned)b->pos[i]), decls, &nd);
		if (sp == NULL)
			break;
		json_array_append_new(args, json_string(sp));
		free(sp);
	}
	if (i == ntp)
		keep(r, args, decls, nd);
	json_decref(args);
	return CXChildVisit_Continue;
}

struct findcls {
	const char *qname;	/* the launcher's class, qualified */
	CXCursor found;
};

static enum CXChildVisitResult
find_class_template(CXCursor c, CXCursor parent, CXClientData data)
{
	struct findcls *f = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	char *q;

	(void)parent;
	if (k == CXCursor_Namespace)
		return CXChildVisit_Recurse;
	if (k != CXCursor_ClassTemplate)
		return CXChildVisit_Continue;
	q = qualified_name(c);
	if (strcmp(q, f->qname) == 0 && clang_Cursor_isNull(f->found))
		f->found = clang_getCanonicalCursor(c);
	free(q);
	return CXChildVisit_Continue;
}

/* The class template's parameters, in order: a type parameter's name,
 * null for the others. */
static enum CXChildVisitResult
class_tparams(CXCursor c, CXCursor parent, CXClientData data)
{
	json_t *names = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k == CXCursor_TemplateTypeParameter)
		json_array_append_new(names, k_take_json(
		    clang_getCursorSpelling(c)));
	else if (k == CXCursor_NonTypeTemplateParameter ||
	    k == CXCursor_TemplateTemplateParameter)
		json_array_append_new(names, json_null());
	return CXChildVisit_Continue;
}

/* The launches' classes' explicit instantiations into r->out (see
 * struct classbind). */
static void
class_instances(struct resolving *r, json_t *scan)
{
	json_t *l, *names = json_array(), *tp;
	size_t i, j, ntp = json_array_size(r->tps);
	struct classbind b;
	struct findcls f;
	char *cls = NULL;

	if (ntp == 0 || ntp > 16)
		goto done;
	/* one launching class, every launch from a member of it */
	json_array_foreach(json_object_get(scan, "launches"), i, l) {
		const char *fn = k_get_str(l, "function"), *c;
		char *here;
		if (fn == NULL || (c = strrchr(fn, ':')) == NULL || c == fn ||
		    c[-1] != ':')
			goto done;
		here = k_asprintf("%.*s", (int)(c - 1 - fn), fn);
		if (cls != NULL && strcmp(cls, here) != 0) {
			free(here);
			goto done;
		}
		free(cls);
		cls = here;
	}
	if (cls == NULL)
		goto done;
	f.qname = cls;
	f.found = clang_getNullCursor();
	clang_visitChildren(clang_getTranslationUnitCursor(r->p->tu),
	    find_class_template, &f);
	if (clang_Cursor_isNull(f.found))
		goto done;
	clang_visitChildren(f.found, class_tparams, names);
	json_array_foreach(r->tps, i, tp) {
		const char *n = k_get_str(tp, "name");
		const char *kind = k_get_str(tp, "kind");
		if (n == NULL || kind == NULL || strcmp(kind, "type") != 0)
			goto done;
		for (j = 0; j < json_array_size(names); j++)
			if (json_is_string(json_array_get(names, j)) &&
			    strcmp(json_string_value(json_array_get(names, j)),
			    n) == 0)
				break;
		if (j == json_array_size(names))
			goto done;
		b.pos[i] = (int)j;
	}
	b.r = r;
	b.cls = f.found;
	clang_visitChildren(clang_getTranslationUnitCursor(r->p->tu),
	    find_class_insts, &b);
done:
	free(cls);
	json_decref(names);
}

json_t *
resolved_launches(struct parsed *p, struct closure *cl, json_t *scan)
{
	struct resolving r;
	json_t *out = json_array(), *a;
	size_t i, j, n = 0;
	int pass;

	memset(&r, 0, sizeof(r));
	r.p = p;
	r.kernel = clang_getCanonicalCursor(cl->kernel);
	r.tps = json_object_get(scan, "template_params");
	if (json_array_size(r.tps) == 0 ||
	    clang_getCursorKind(cl->kernel) != CXCursor_FunctionTemplate)
		return out;
	r.out = json_array();
	r.seen = json_object();
	clang_visitChildren(clang_getTranslationUnitCursor(p->tu),
	    find_calls, &r);
	if (json_array_size(r.out) == 0)
		class_instances(&r, scan);
	/* those of --types (at most MAX_EXPLICIT), else the first */
	for (pass = 0; pass < 2 && n == 0; pass++)
		json_array_foreach(r.out, i, a) {
			if (n >= (pass == 0 ? MAX_EXPLICIT : 1) ||
			    (pass == 0 && !of_types(r.tps, a)))
				continue;
			json_array_append_new(out, json_pack("{sOsb}",
			    "template_args", a, "explicit", 1));
			for (j = 0; j < r.ndecls[i]; j++)
				add_decl(cl, r.decls[i * MAX_ARG_DECLS + j]);
			n++;
		}
	json_decref(r.out);
	json_decref(r.seen);
	free(r.decls);
	free(r.ndecls);
	return out;
}

static enum CXChildVisitResult
first_enumerator(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_EnumConstantDecl)
		return CXChildVisit_Continue;
	*(CXCursor *)data = c;
	return CXChildVisit_Break;
}

/* A value template parameter of an enumeration type: bound[its name] =
 * [the enumeration's first enumerator, qualified]. */
static enum CXChildVisitResult
enum_param(CXCursor c, CXCursor parent, CXClientData data)
{
	json_t *bound = data;
	CXCursor d, e = clang_getNullCursor();
	CXType t;
	char *ty, *en, *name;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_NonTypeTemplateParameter)
		return CXChildVisit_Continue;
	t = clang_getCanonicalType(clang_getCursorType(c));
	if (t.kind != CXType_Enum)
		return CXChildVisit_Continue;
	d = clang_getTypeDeclaration(t);
	clang_visitChildren(d, first_enumerator, &e);
	if (clang_Cursor_isNull(e))
		return CXChildVisit_Continue;
	ty = k_take(clang_getTypeSpelling(t));
	name = k_take(clang_getCursorSpelling(c));
	if (strchr(ty, '(') == NULL && json_object_get(bound, name) == NULL) {
		en = k_take(clang_getCursorSpelling(e));
		json_object_set_new(bound, name, json_pack("[s+++]", ty, "::",
		    en, ""));
		free(en);
	}
	free(name);
	free(ty);
	return CXChildVisit_Continue;
}

/*
 * Value parameters of an enumeration type (template <quantize::Type
 * qtype>) take the first enumerator, spelled through the enumeration's
 * qualified name, where nothing binds them (a guess: slice.guessed):
 * added to bound as {param: [spelling]}.
 */
void
enum_bound(CXCursor kernel, json_t *bound)
{
	if (clang_getCursorKind(kernel) == CXCursor_FunctionTemplate)
		clang_visitChildren(kernel, enum_param, bound);
}
