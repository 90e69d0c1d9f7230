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

json_t *
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
		partial = k_realloc(NULL, sizeof(*partial));
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
