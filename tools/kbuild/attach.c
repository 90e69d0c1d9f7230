/*
 * --candidates: kernels kept as files, attached to their records before
 * the build.  A directory holds one file per task, named by the task
 * (task_name below) with .cu or .hip; a JSONL file holds {"id", "code"}
 * objects (optionally "dialect" and any other keys), joined by id.
 *
 * Ownership: the index (names to paths, or ids to objects) is built once
 * by attach_open and lives until attach_close.
 */
#include <dirent.h>

#include "kbuild.h"

static json_t *index_;		/* name or id -> path string or object */

/*
 * A task's file name: the id with every run of bytes outside
 * [A-Za-z0-9._-] turned into one '_', then .cu or .hip.
 * "examples/src/elementwise.cu::scale_kernel<float>" is
 * "examples_src_elementwise.cu_scale_kernel_float_".
 */
char *
task_name(const char *id)
{
	char *out = k_malloc(strlen(id) + 1);
	size_t i, n = 0;
	int run = 0;

	/* as jq's gsub("[^A-Za-z0-9._-]+"; "_") spells it */
	for (i = 0; id[i] != '\0'; i++) {
		unsigned char ch = (unsigned char)id[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' ||
		    ch == '_')) {
			if (run)
				continue;
			run = 1;
			ch = '_';
		} else
			run = 0;
		out[n++] = (char)ch;
	}
	out[n] = '\0';
	return out;
}

static int
ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a > b && strcmp(s + a - b, suf) == 0;
}

static void
open_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	size_t plen = strlen(path);

	/* "mine/" and "mine" name the same files */
	while (plen > 1 && path[plen - 1] == '/')
		plen--;
	if (d == NULL)
		k_fatal(K_EXIT_USAGE, path, "--candidates: %s",
		    strerror(errno));
	while ((e = readdir(d)) != NULL) {
		const char *ext = ends_with(e->d_name, ".cu") ? ".cu" :
		    ends_with(e->d_name, ".hip") ? ".hip" : NULL;
		char *name;
		if (ext == NULL || e->d_name[0] == '.')
			continue;
		name = k_strndup(e->d_name, strlen(e->d_name) - strlen(ext));
		json_object_set_new(index_, name, json_sprintf("%.*s/%s",
		    (int)plen, path, e->d_name));
		free(name);
	}
	closedir(d);
}

static void
open_jsonl(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;

	if (fp == NULL)
		k_fatal(K_EXIT_USAGE, path, "--candidates: %s",
		    strerror(errno));
	while (getline(&line, &cap, fp) > 0) {
		json_error_t err;
		json_t *o;
		const char *id;
		lineno++;
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		o = json_loads(line, JSON_REJECT_DUPLICATES, &err);
		id = k_get_str(o, "id");
		if (!json_is_object(o) || id == NULL ||
		    !json_is_string(json_object_get(o, "code"))) {
			json_decref(o);
			k_fatal(K_EXIT_USAGE, NULL, "--candidates: %s:%lu: "
			    "expected {\"id\": ..., \"code\": ...}%s%s", path,
			    lineno, o == NULL ? ": " : "",
			    o == NULL ? err.text : "");
		}
		if (json_object_get(index_, id) != NULL) {
			char twice[512];
			snprintf(twice, sizeof(twice), "%s", id);
			json_decref(o);
			k_fatal(K_EXIT_USAGE, NULL, "--candidates: %s:%lu: "
			    "id %s given twice", path, lineno, twice);
		}
		json_object_set_new(o, "source", json_sprintf("%s:%lu", path,
		    lineno));
		json_object_set(index_, id, o);
		json_decref(o);
	}
	free(line);
	fclose(fp);
}

void
attach_open(const char *path)
{
	struct stat st;

	index_ = json_object();
	if (stat(path, &st) != 0)
		k_fatal(K_EXIT_USAGE, path, "--candidates: %s",
		    strerror(errno));
	if (S_ISDIR(st.st_mode))
		open_dir(path);
	else
		open_jsonl(path);
}

/* rec's candidate from the index, when it has one there: it replaces the
 * record's own. */
void
attach(json_t *rec)
{
	const char *id = k_id_borrowed(rec);
	json_t *hit, *cand;
	char *name;

	if (index_ == NULL || id == NULL)
		return;
	if ((hit = json_object_get(index_, id)) != NULL) {
		cand = json_deep_copy(hit);
		json_object_del(cand, "id");
	} else {
		size_t len;
		char *text;
		const char *path;
		name = task_name(id);
		hit = json_object_get(index_, name);
		free(name);
		if ((path = json_string_value(hit)) == NULL)
			return;
		if ((text = k_file_read(path, (size_t)16 << 20, &len)) ==
		    NULL) {
			k_fail(rec, STAGE, "bad-candidate", "%s: candidate %s: "
			    "%s", k_id_text(rec), path, strerror(errno));
			return;
		}
		cand = json_pack("{s:s%,s:s,s:s}", "code", text, len,
		    "dialect", ends_with(path, ".hip") ? "hip" : "cuda",
		    "source", path);
		free(text);
	}
	json_object_set_new(rec, "candidate", cand);
}

void
attach_close(void)
{
	json_decref(index_);
	index_ = NULL;
}
