/*
 * Output: kernels of every unit, deduplicated, in (file, line) order, with
 * the launches matched to them.
 */
#include <ctype.h>

#include "kscan.h"

/* ------------------------------------------------------------ output */

static int
by_file_line(const void *pa, const void *pb)
{
	json_t *a = json_object_get(*(json_t *const *)pa, "scan");
	json_t *b = json_object_get(*(json_t *const *)pb, "scan");
	int c = strcmp(k_get_str(a, "file"), k_get_str(b, "file"));

	if (c != 0)
		return c;
	return (int)(k_get_int(a, "line", 0) - k_get_int(b, "line", 0));
}

static void
param_types(json_t *scan, char *buf, size_t len)
{
	json_t *p;
	size_t i;

	snprintf(buf, len, "(");
	json_array_foreach(json_object_get(scan, "params"), i, p) {
		if (i > 0)
			strncat(buf, ", ", len - strlen(buf) - 1);
		/* the source's spelling (T *), not clang's canonical one
		 * (type-parameter-0-0 *) */
		const char *t = k_get_str(p, "type");
		if (t == NULL || t[0] == '\0')
			t = k_get_str(p, "canonical_type");
		strncat(buf, t != NULL ? t : "?", len - strlen(buf) - 1);
	}
	strncat(buf, ")", len - strlen(buf) - 1);
}

/* The paths in scan.flags relative to the root where they lie under it
 * (the command line's are relative to the current directory), so that a
 * later stage finds them through scan.root wherever it runs. */
static void
root_flags(json_t *scan)
{
	static const char *with_path[] = { "-I", "-isystem", "-iquote",
	    "-include", NULL };
	json_t *flags = json_object_get(scan, "flags"), *f;
	size_t i;
	int next = 0, j;

	json_array_foreach(flags, i, f) {
		const char *v = json_string_value(f);
		if (v != NULL && next) {
			/* a path, not a flag: v is freed once replaced */
			char *rel = relpath(v);
			if (rel[0] != '/')
				json_array_set_new(flags, i, json_string(rel));
			free(rel);
			next = 0;
			continue;
		}
		next = 0;
		for (j = 0; v != NULL && with_path[j] != NULL; j++)
			if (strcmp(v, with_path[j]) == 0)
				next = 1;
	}
}

#define MAX_BINDINGS 16	/* a launcher's calls that bind its launches */

/* v appended to list unless an equal array is there or the bound is met. */
static void
add_distinct(json_t *list, json_t *v)
{
	json_t *e;
	size_t i;

	json_array_foreach(list, i, e)
		if (json_equal(e, v))
			return;
	if (json_array_size(list) < MAX_BINDINGS)
		json_array_append(list, v);
}

/* Whether array a holds anything but nulls. */
static int
any_set(json_t *a)
{
	json_t *v;
	size_t i;

	json_array_foreach(a, i, v)
		if (!json_is_null(v))
			return 1;
	return 0;
}

/* A call's template arguments under its template's USR, once each
 * ({"args": [...], "types": [...], "full": [...]}: the values, the types
 * apart (kslice's fallback), and both together for a type a launch
 * names inside a larger argument). */
static void
note_binding(json_t *calls, json_t *c)
{
	const char *usr = k_get_str(c, "usr");
	json_t *args = json_object_get(c, "args");
	json_t *types = json_object_get(c, "types"), *entry;

	if (usr == NULL || !json_is_array(args))
		return;
	if ((entry = json_object_get(calls, usr)) == NULL) {
		entry = json_pack("{s:[],s:[],s:[]}", "args", "types", "full");
		json_object_set_new(calls, usr, entry);
	}
	if (any_set(args))
		add_distinct(json_object_get(entry, "args"), args);
	if (json_is_array(types) && any_set(types)) {
		json_t *full = json_deep_copy(args), *ty;
		size_t i;
		add_distinct(json_object_get(entry, "types"), types);
		json_array_foreach(types, i, ty)
			if (json_is_string(ty))
				json_array_set(full, i, ty);
		add_distinct(json_object_get(entry, "full"), full);
		json_decref(full);
	}
}

/*
 * launches[].call_types: where a template argument of launch l is one of
 * its launcher's type parameters (T in k<T, 4> inside template <typename
 * T> void launch()), the types the calls of the launcher give it, in
 * order, once each; null for the other arguments; none when no argument
 * has any.
 */
static void
call_types(json_t *l, json_t *names, json_t *typelists)
{
	json_t *out = json_array(), *a, *nm, *tl;
	size_t j, m, t;
	int any = 0;

	json_array_foreach(json_object_get(l, "template_args"), j, a) {
		json_t *seen = json_array();
		json_array_foreach(names, m, nm)
			if (json_is_string(a) && strcmp(json_string_value(a),
			    json_string_value(nm)) == 0)
				break;
		json_array_foreach(typelists, t, tl) {
			json_t *ty = json_array_get(tl, m);
			if (m < json_array_size(names) && json_is_string(ty))
				add_distinct(seen, ty);
		}
		if (json_array_size(seen) > 0) {
			json_array_append_new(out, seen);
			any = 1;
		} else {
			json_decref(seen);
			json_array_append_new(out, json_null());
		}
	}
	if (any)
		json_object_set_new(l, "call_types", out);
	else
		json_decref(out);
}

/* s with each identifier that names a parameter in names replaced by the
 * value at its place in vals; NULL when nothing was replaced. */
static char *
bind_text(const char *s, json_t *names, json_t *vals)
{
	struct k_buf b = { 0 };
	const char *p = s;
	int hit = 0;

	while (*p != '\0') {
		const char *q = p;
		size_t i;
		json_t *nm;
		if (!(isalpha((unsigned char)*p) || *p == '_')) {
			k_buf_addn(&b, p, 1);
			p++;
			continue;
		}
		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		json_array_foreach(names, i, nm) {
			const char *v = json_string_value(json_array_get(vals,
			    i));
			if (v != NULL && strlen(json_string_value(nm)) ==
			    (size_t)(q - p) && strncmp(json_string_value(nm),
			    p, (size_t)(q - p)) == 0 && !(p >= s + 2 &&
			    p[-1] == ':' && p[-2] == ':') &&
			    !(p > s && p[-1] == '.')) {
				k_buf_add(&b, v);
				hit = 1;
				break;
			}
		}
		if (i == json_array_size(names))
			k_buf_addn(&b, p, (size_t)(q - p));
		p = q;
	}
	if (!hit) {
		k_buf_free(&b);
		return NULL;
	}
	{
		char *out = k_strdup(k_buf_str(&b));
		k_buf_free(&b);
		return out;
	}
}

/* Whether s is, whole, one of the launcher's type parameters. */
static int
is_type_param(json_t *l, json_t *names, const char *s)
{
	json_t *nm;
	size_t j;

	json_array_foreach(names, j, nm)
		if (strcmp(s, json_string_value(nm)) == 0)
			return json_is_true(json_array_get(json_object_get(l,
			    "_ftypes"), j));
	return 0;
}

/*
 * The launch's template arguments with each that names a local type alias
 * of the launcher (_aliases) replaced by the aliased type as written;
 * *nested set when a launcher type parameter is named inside a larger
 * argument (traits<T, N>, not T alone): the calls then bind it as they
 * bind a value, since --types chooses only a kernel's own type
 * parameters.
 */
static json_t *
expanded_args(json_t *l, json_t *names, int *nested)
{
	json_t *al = json_object_get(l, "_aliases"), *out = json_array(), *a;
	json_t *types = json_object_get(l, "_ftypes"), *marks = json_array();
	size_t m;

	/* a mark for each type parameter: bind_text finds them as words */
	for (m = 0; m < json_array_size(names); m++)
		json_array_append_new(marks, json_is_true(json_array_get(types,
		    m)) ? json_string("@") : json_null());
	*nested = 0;
	json_array_foreach(json_object_get(l, "template_args"), m, a) {
		json_t *x = json_object_get(al, json_string_value(a));
		const char *s = json_string_value(x != NULL ? x : a);
		char *t;
		json_array_append_new(out, json_string(s));
		if (is_type_param(l, names, s))
			continue;	/* T alone: --types */
		t = bind_text(s, names, marks);
		*nested |= t != NULL;
		free(t);
	}
	json_decref(marks);
	return out;
}

/*
 * A launch whose template arguments name its launcher's own template
 * parameters (k<numBits, 4> in template <int numBits> void launch())
 * becomes one launch per call that gives the launcher its arguments
 * (launch<8>(...), from any unit), those parameters replaced in its
 * template_args (its kernel text stays as spelled); the others stay as
 * they are.  Returns the new array (launches is consumed).
 */
static json_t *
bind_launchers(json_t *launches, json_t *calls)
{
	json_t *out = json_array(), *l, *b;
	size_t i, k;

	json_array_foreach(launches, i, l) {
		json_t *entry = json_object_get(calls, k_get_str(l, "_fusr") ?
		    k_get_str(l, "_fusr") : "");
		json_t *names = json_object_get(l, "_fparams");
		json_t *list, *targs;
		int any = 0, nested;

		if (entry != NULL && names != NULL)
			call_types(l, names, json_object_get(entry, "types"));
		targs = expanded_args(l, names, &nested);
		list = json_object_get(entry, nested ? "full" : "args");
		json_array_foreach(list, k, b) {
			json_t *c = json_deep_copy(l), *ta = json_array(), *a;
			size_t m;
			int hit = 0;
			char key[PATH_MAX + 64];
			json_array_foreach(targs, m, a) {
				/* a kernel's own type parameter: --types */
				char *t = nested && is_type_param(l, names,
				    json_string_value(a)) ? NULL :
				    bind_text(json_string_value(a), names, b);
				hit |= t != NULL;
				json_array_append_new(ta, json_string(t != NULL ?
				    t : json_string_value(a)));
				free(t);
			}
			if (!hit) {
				json_decref(ta);
				json_decref(c);
				break;
			}
			json_object_set_new(c, "template_args", ta);
			snprintf(key, sizeof(key), "%s@%zu",
			    k_get_str(l, "_key"), k);
			json_object_set_new(c, "_key", json_string(key));
			json_array_append_new(out, c);
			any = 1;
		}
		if (!any)
			json_array_append(out, l);
		json_decref(targs);
	}
	json_decref(launches);
	return out;
}

void
emit(void)
{
	json_t **all = NULL, *seen = json_object(), *lseen = json_object();
	json_t *ids = json_object(), *launches = json_array();
	json_t *calls = json_object();
	size_t i, j, n = 0, cap = 0;
	char id[4096], types[2048];

	for (i = 0; i < nunits; i++) {
		json_t *e;
		json_array_foreach(units[i].errors, j, e) {
			k_warn(K_EXIT_RECORDS, NULL, "%s", k_get_str(
			    json_array_get(json_object_get(e, "errors"), 0),
			    "message"));
			if (k_write(e) != 0)
				return;
		}
		json_array_foreach(units[i].kernels, j, e) {
			const char *key = k_get_str(e, "_key");
			if (json_object_get(seen, key) != NULL)
				continue;
			json_object_set_new(seen, key, json_true());
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				all = k_realloc(all, cap * sizeof(*all));
			}
			all[n++] = e;
		}
		json_array_foreach(units[i].launches, j, e) {
			const char *key = k_get_str(e, "_key");
			if (json_object_get(e, "_call") != NULL) {
				note_binding(calls, json_object_get(e, "_call"));
				continue;
			}
			if (key == NULL || json_object_get(lseen, key) != NULL)
				continue;
			json_object_set_new(lseen, key, json_true());
			json_array_append(launches, e);
		}
	}
	if (n > 0)
		qsort(all, n, sizeof(*all), by_file_line);
	launches = bind_launchers(launches, calls);
	json_decref(calls);

	/* ids: path and qualified name; overloads add their parameter
	 * types */
	for (i = 0; i < n; i++) {
		json_t *s = json_object_get(all[i], "scan");
		snprintf(id, sizeof(id), "%s::%s", k_get_str(s, "file"),
		    k_get_str(s, "qualified_name"));
		json_object_set_new(ids, id, json_integer(
		    k_get_int(ids, id, 0) + 1));
	}
	for (i = 0; i < n; i++) {
		json_t *s = json_object_get(all[i], "scan"), *rec, *l;
		const char *usr = k_get_str(s, "usr");
		snprintf(id, sizeof(id), "%s::%s", k_get_str(s, "file"),
		    k_get_str(s, "qualified_name"));
		if (k_get_int(ids, id, 0) > 1) {
			param_types(s, types, sizeof(types));
			strncat(id, types, sizeof(id) - strlen(id) - 1);
		}
		/* a launch belongs to the kernel it names, else to the
		 * template it instantiates */
		json_array_foreach(launches, j, l) {
			int mine = strcmp(k_get_str(l, "_usr"), usr) == 0;
			if (!mine && strcmp(k_get_str(l, "_tusr"), usr) == 0) {
				size_t m;
				mine = 1;
				for (m = 0; m < n; m++)
					if (strcmp(k_get_str(json_object_get(
					    all[m], "scan"), "usr"),
					    k_get_str(l, "_usr")) == 0)
						mine = 0;
			}
			if (mine) {
				json_t *c = json_deep_copy(l);
				json_object_del(c, "_usr");
				json_object_del(c, "_tusr");
				json_object_del(c, "_key");
				json_object_del(c, "_fusr");
				json_object_del(c, "_fparams");
				json_object_del(c, "_ftypes");
				json_object_del(c, "_aliases");
				json_array_append_new(json_object_get(s,
				    "launches"), c);
			}
		}
		chain_link(s);
		root_flags(s);
		/* where the ids and paths are relative to: --root as given
		 * (a relative one resolves where a later stage runs), else
		 * the directory kscan chose */
		json_object_set_new(s, "root", json_string(opt.root_given !=
		    NULL ? opt.root_given : opt.root));
		rec = json_object();
		json_object_set_new(rec, "id", json_string(id));
		json_object_set(rec, "scan", s);
		if (k_write(rec) != 0) {
			json_decref(rec);
			break;
		}
		json_decref(rec);
	}
	free(all);
	json_decref(seen);
	json_decref(lseen);
	json_decref(ids);
	json_decref(launches);
}
