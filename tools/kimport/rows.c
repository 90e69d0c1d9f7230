/*
 * kimport: what a foreign row is and what it holds.  Each format is named
 * by the keys its rows carry, not by a file name, so rows of several
 * formats may share one file:
 *   computeeval  task_id with baseline_solution, build_command,
 *                test_command or context_files (NVIDIA's ComputeEval)
 *   kernelbench  a Python candidate calling load_inline(cuda_sources=...)
 *   geak         predict with filename or test_code (GEAK-style agents,
 *                one <run>_<iter>.jsonl per iteration)
 *   tritonbench  predict with instruction or label
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k_hash.h"
#include "k_mem.h"
#include "k_record.h"
#include "kimport.h"

/* where a KernelBench row keeps its Python candidate, in that order */
static const char *const py_keys[] = { "kernel", "custom_kernel", "code",
	"generation", "predict", NULL };

static const char *
py_source(json_t *row)
{
	int i;

	for (i = 0; py_keys[i] != NULL; i++) {
		const char *s = k_get_str(row, py_keys[i]);
		if (s != NULL && strstr(s, "load_inline") != NULL &&
		    strstr(s, "cuda_sources") != NULL)
			return s;
	}
	return NULL;
}

const char *
row_format(json_t *row)
{
	if (json_object_get(row, "task_id") != NULL &&
	    (json_object_get(row, "baseline_solution") != NULL ||
	    json_object_get(row, "build_command") != NULL ||
	    json_object_get(row, "test_command") != NULL ||
	    json_object_get(row, "context_files") != NULL))
		return "computeeval";
	if (py_source(row) != NULL)
		return "kernelbench";
	if (json_object_get(row, "predict") != NULL &&
	    (json_object_get(row, "filename") != NULL ||
	    json_object_get(row, "test_code") != NULL))
		return "geak";
	if (json_object_get(row, "predict") != NULL &&
	    (json_object_get(row, "instruction") != NULL ||
	    json_object_get(row, "label") != NULL))
		return "tritonbench";
	return NULL;
}

int
safe_relpath(const char *p)
{
	const char *s;

	if (p == NULL || *p == '\0' || *p == '/' || strlen(p) > 255)
		return 0;
	for (s = p; *s != '\0'; s++)
		if (*s == '\\' || (unsigned char)*s < ' ')
			return 0;
	for (s = p; s != NULL; s = strchr(s, '/')) {
		if (*s == '/')
			s++;
		if (strncmp(s, "..", 2) == 0 && (s[2] == '/' || s[2] == '\0'))
			return 0;
	}
	return 1;
}

/*
 * Source files as a row gives them: one string, an array of
 * {path, content}, or an object holding such an array under "files".
 * Borrowed; NULL when v is none of these.
 */
static json_t *
files_borrowed(json_t *v)
{
	size_t i;
	json_t *f;

	if (json_is_object(v))
		v = json_object_get(v, "files");
	if (json_is_string(v))
		return json_string_length(v) > 0 ? v : NULL;
	if (!json_is_array(v) || json_array_size(v) == 0)
		return NULL;
	json_array_foreach(v, i, f)
		if (!safe_relpath(k_get_str(f, "path")) ||
		    k_get_str(f, "content") == NULL)
			return NULL;
	return v;
}

/* the code holds a CUDA or HIP kernel definition (Python, Triton and
 * prose do not) */
static int
has_kernel(json_t *code)
{
	size_t i;
	json_t *f;

	if (json_is_string(code))
		return strstr(json_string_value(code), "__global__") != NULL;
	json_array_foreach(code, i, f)
		if (strstr(k_get_str(f, "content"), "__global__") != NULL)
			return 1;
	return 0;
}

/* Python string literal at *p (prefixes r, u, b, f; single or triple
 * quotes): its text, escapes of non-raw literals undone, malloc'd; *p
 * moves past it.  NULL when none starts there. */
static char *
py_literal(const char **p)
{
	const char *s = *p, *end;
	int raw = 0;
	char q[4] = "";
	size_t ql, n = 0;
	char *out;

	while (*s != '\0' && strchr("rRuUbBfF", *s) != NULL && s - *p < 2) {
		if (*s == 'r' || *s == 'R')
			raw = 1;
		s++;
	}
	if (*s != '"' && *s != '\'')
		return NULL;
	q[0] = *s;
	if (s[1] == *s && s[2] == *s) {
		q[1] = q[2] = *s;
		ql = 3;
	} else
		ql = 1;
	s += ql;
	for (end = s; *end != '\0'; end++) {
		if (*end == '\\' && end[1] != '\0') {
			end++;
			continue;
		}
		if (strncmp(end, q, ql) == 0)
			break;
		if (ql == 1 && *end == '\n')
			return NULL;
	}
	if (*end == '\0')
		return NULL;
	out = k_malloc((size_t)(end - s) + 1);
	for (; s < end; s++) {
		if (!raw && *s == '\\' && s + 1 < end) {
			s++;
			switch (*s) {
			case 'n': out[n++] = '\n'; break;
			case 't': out[n++] = '\t'; break;
			case '\n': break;
			default:
				if (strchr("\\'\"", *s) == NULL)
					out[n++] = '\\';
				out[n++] = *s;
			}
			continue;
		}
		out[n++] = *s;
	}
	out[n] = '\0';
	*p = end + ql;
	return out;
}

/* The literal assigned to name at the start of a line ("name = ..."). */
static char *
py_assigned(const char *py, const char *name, size_t nlen)
{
	const char *s;

	for (s = py; (s = strchr(s, *name)) != NULL; s++) {
		const char *v = s + nlen;
		char *lit;
		if ((s != py && s[-1] != '\n') || strncmp(s, name, nlen) != 0)
			continue;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v != '=' || v[1] == '=')
			continue;
		v++;
		while (*v == ' ' || *v == '\t' || *v == '(')
			v++;
		if ((lit = py_literal(&v)) != NULL)
			return lit;
	}
	return NULL;
}

char *
cuda_sources(const char *py, char *why, size_t len)
{
	const char *s, *v;
	char *lit;

	for (s = py; (s = strstr(s, "cuda_sources")) != NULL; s += 12) {
		v = s + 12;
		while (isspace((unsigned char)*v))
			v++;
		if (*v != '=')
			continue;
		v++;
		while (isspace((unsigned char)*v) || *v == '[')
			v++;
		if ((lit = py_literal(&v)) != NULL)
			return lit;
		if (isalpha((unsigned char)*v) || *v == '_') {
			const char *e = v;
			while (isalnum((unsigned char)*e) || *e == '_')
				e++;
			if ((lit = py_assigned(py, v, (size_t)(e - v))) !=
			    NULL)
				return lit;
			snprintf(why, len, "cuda_sources names %.*s, which is "
			    "not assigned a string literal at the start of a "
			    "line", (int)(e - v > 64 ? 64 : e - v), v);
			return NULL;
		}
	}
	snprintf(why, len, "no load_inline(cuda_sources=...) whose value is a "
	    "string literal or a name assigned one");
	return NULL;
}

/* task with every run of bytes outside [A-Za-z0-9._-] one '_', as kbuild
 * names a task's file, then ext */
static void
file_name(char *out, size_t len, const char *task, const char *ext)
{
	size_t n = 0, e = strlen(ext);
	int run = 0;

	for (; task != NULL && *task != '\0' && n + e + 1 < len; task++) {
		unsigned char ch = (unsigned char)*task;
		if (isalnum(ch) || ch == '.' || ch == '-' || ch == '_') {
			out[n++] = (char)ch;
			run = 0;
		} else if (!run) {
			out[n++] = '_';
			run = 1;
		}
	}
	if (n == 0)
		out[n++] = 'k';
	else if (out[0] == '.')
		out[0] = '_';
	snprintf(out + n, len - n, "%s", ext);
}

static const char *
str_or_null(json_t *row, const char *key)
{
	const char *s = k_get_str(row, key);

	return s != NULL && *s != '\0' ? s : NULL;
}

int
read_row(json_t *row, const char *format, struct row *r, const char **code)
{
	const char *py;
	json_t *v;

	memset(r, 0, sizeof(*r));
	if (format == NULL && (format = row_format(row)) == NULL) {
		*code = "unknown-format";
		snprintf(r->why, sizeof(r->why), "not a row of a format kimport "
		    "reads (GEAK: predict, filename; TritonBench: instruction, "
		    "predict, label; ComputeEval: task_id, baseline_solution; "
		    "KernelBench: load_inline(cuda_sources=...))");
		return -1;
	}
	r->format = format;
	r->model = str_or_null(row, "model");
	if (strcmp(format, "computeeval") == 0) {
		r->task = str_or_null(row, "task_id");
		/* a problem alone is a task; a solution makes a candidate */
		v = json_object_get(row, "completion");
		if (v == NULL)
			v = json_object_get(row, "solution");
		if (v == NULL)
			v = json_object_get(row, "predict");
		r->code = files_borrowed(v);
		if (v != NULL && r->code == NULL) {
			*code = "bad-files";
			snprintf(r->why, sizeof(r->why), "the solution is "
			    "neither a string nor files {path, content} with "
			    "relative paths inside the task");
			return -1;
		}
		v = json_object_get(row, "baseline_solution");
		r->label = files_borrowed(v);
		if (v != NULL && r->label == NULL) {
			*code = "bad-files";
			snprintf(r->why, sizeof(r->why), "baseline_solution "
			    "is neither a string nor files {path, content} "
			    "with relative paths inside the task");
			return -1;
		}
		r->files = json_array();
		json_array_extend(r->files, json_is_array(v =
		    files_borrowed(json_object_get(row, "context_files"))) ?
		    v : NULL);
		json_array_extend(r->files, json_is_array(v =
		    files_borrowed(json_object_get(row, "test_files"))) ?
		    v : NULL);
		r->build_command = str_or_null(row, "build_command");
		r->test_command = str_or_null(row, "test_command");
		r->filename = "solution.cu";
		if (r->code == NULL && r->label == NULL) {
			*code = "no-code";
			snprintf(r->why, sizeof(r->why), "neither a solution "
			    "(completion) nor baseline_solution");
			return -1;
		}
	} else if (strcmp(format, "kernelbench") == 0) {
		r->task = str_or_null(row, "problem_id");
		if (r->task == NULL)
			r->task = str_or_null(row, "problem_name");
		if ((py = py_source(row)) == NULL) {
			*code = "no-code";
			snprintf(r->why, sizeof(r->why), "no Python source "
			    "calling load_inline(cuda_sources=...) under "
			    "kernel, custom_kernel, code, generation or predict");
			return -1;
		}
		if ((r->extracted = cuda_sources(py, r->why,
		    sizeof(r->why))) == NULL) {
			*code = "no-cuda-sources";
			return -1;
		}
		r->code = json_string(r->extracted);
		/* problems' kernels share names (relu_kernel): each its own
		 * file, so that their ids differ */
		file_name(r->name, sizeof(r->name), r->task, ".cu");
		r->filename = r->name;
	} else if (strcmp(format, "geak") == 0 ||
	    strcmp(format, "tritonbench") == 0) {
		r->filename = str_or_null(row, "filename");
		r->task = r->filename;
		r->test_code = str_or_null(row, "test_code");
		r->code = files_borrowed(json_object_get(row, "predict"));
		if (r->code == NULL || !json_is_string(r->code)) {
			*code = "no-code";
			snprintf(r->why, sizeof(r->why), "predict is missing, "
			    "empty or not a string");
			r->code = NULL;
			return -1;
		}
		v = json_object_get(row, "label");
		if (json_is_string(v) && has_kernel(v))
			r->label = v;
		if (r->filename == NULL) {
			/* no name: the task's, from what defines it (the
			 * label, else the instruction), so that tasks whose
			 * kernels share a name get ids of their own */
			const char *t = r->label != NULL ?
			    json_string_value(r->label) :
			    str_or_null(row, "instruction");
			char h[K_SHA256_HEX];
			if (t == NULL)
				t = json_string_value(r->code);
			k_sha256_hex(t, strlen(t), h);
			snprintf(r->name, sizeof(r->name), "task-%.12s", h);
			r->filename = r->name;
			r->task = r->name;
		}
	} else {
		*code = "unknown-format";
		snprintf(r->why, sizeof(r->why), "-f %s: not a format kimport "
		    "reads", format);
		return -1;
	}
	if (r->code != NULL && !has_kernel(r->code)) {
		*code = "not-cuda";
		snprintf(r->why, sizeof(r->why), "the candidate defines no "
		    "__global__ kernel (Python or Triton code is judged by its "
		    "own test only)");
		return -1;
	}
	if (r->task == NULL)
		r->task = r->format;
	if (r->filename != NULL && !safe_relpath(r->filename)) {
		*code = "bad-files";
		snprintf(r->why, sizeof(r->why), "filename is not a relative "
		    "path inside the task: %.200s", r->filename);
		return -1;
	}
	return 0;
}

void
row_free(struct row *r)
{
	if (r->extracted != NULL)
		json_decref(r->code);
	free(r->extracted);
	json_decref(r->files);
	memset(r, 0, sizeof(*r));
}
