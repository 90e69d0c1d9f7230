/*
 * Output: kernels of every unit, deduplicated, in (file, line) order, with
 * the launches matched to them.
 */
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

void
emit(void)
{
	json_t **all = NULL, *seen = json_object(), *lseen = json_object();
	json_t *ids = json_object(), *launches = json_array();
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
			if (json_object_get(lseen, key) != NULL)
				continue;
			json_object_set_new(lseen, key, json_true());
			json_array_append(launches, e);
		}
	}
	if (n > 0)
		qsort(all, n, sizeof(*all), by_file_line);

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
