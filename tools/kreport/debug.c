/*
 * kreport --debug-dir: one folder per failed record with what it takes to
 * look into the failure without the pipeline: the record, the sources,
 * the logs and what went wrong, case by case.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "k_buf.h"
#include "k_exit.h"
#include "k_fs.h"
#include "k_hash.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_record.h"
#include "kreport.h"

/* -------------------------------------------------------- debug dirs */

/*
 * A folder name from an id: safe bytes kept, the rest '_', cut to
 * NAME_MAX_KEPT, and the id's hash appended so that ids that sanitize alike
 * stay apart and a rerun finds the same folder.
 */
char *
dir_name(const char *id)
{
	char hex[K_SHA256_HEX], buf[NAME_MAX_KEPT + 16];
	const char *src = id, *colons = strstr(id, "::"), *base;
	char *cut = NULL;
	size_t i, n = 0;

	k_sha256_hex(id, strlen(id), hex);
	/* a long id keeps the kernel's name: the file's directories go
	 * first, then the file name */
	if (strlen(id) > NAME_MAX_KEPT && colons != NULL) {
		for (base = colons; base > id && base[-1] != '/'; base--)
			;
		src = cut = k_strdup(base);
		if (strlen(src) > NAME_MAX_KEPT)
			src = cut + (colons - base) + 2;
	}
	for (i = 0; src[i] != '\0' && n < NAME_MAX_KEPT; i++) {
		unsigned char ch = (unsigned char)src[i];
		int safe = (ch >= 'a' && ch <= 'z') || (ch >= 'A' &&
		    ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
		    ch == '-' || ch == '_';
		if (!safe) {
			if (n > 0 && buf[n - 1] == '_')
				continue;
			ch = '_';
		}
		if (n == 0 && ch == '.')
			ch = '_';
		buf[n++] = (char)ch;
	}
	snprintf(buf + n, sizeof(buf) - n, "-%.8s", hex);
	free(cut);
	return k_strdup(buf);
}

/*
 * The folder of this run's next record with id: dir_name(id), and when an
 * earlier record of the run (the same id repeated, or none) took that
 * name in *used (one set per output directory), the name with -2, -3, ...
 * appended, so that no record's folder overwrites another's; the order of
 * the input keeps a rerun's names.
 */
char *
unique_dir_name(json_t **used, const char *id)
{
	char *base = dir_name(id), *name = k_strdup(base);
	unsigned long n = 1;

	if (*used == NULL)
		*used = json_object();
	while (json_object_get(*used, name) != NULL) {
		free(name);
		name = k_asprintf("%s-%lu", base, ++n);
	}
	json_object_set_new(*used, name, json_true());
	free(base);
	return name;
}

/* the --debug-dir folders' names */
static json_t *names_used;

void
debug_names_free(void)
{
	json_decref(names_used);
	names_used = NULL;
}

/* dir/name holds text, with a final newline where it lacks one. */
static void
put_file(const char *dir, const char *name, const char *text)
{
	char *path, *full = NULL;
	size_t n;

	if (text == NULL)
		return;
	path = k_asprintf("%s/%s", dir, name);
	n = strlen(text);
	if (n > 0 && text[n - 1] != '\n') {
		full = k_asprintf("%s\n", text);
		text = full;
		n++;
	}
	if (k_file_write(path, text, n) != 0)
		k_warn(K_EXIT_IO, path, "cannot write: %s", strerror(errno));
	free(full);
	free(path);
}

static void
bjson(struct k_buf *b, json_t *v)
{
	char *t = json_dumps(v, JSON_INDENT(2) | JSON_ENCODE_ANY |
	    JSON_REAL_PRECISION(6));

	k_buf_printf(b, "%s\n", t != NULL ? t : "null");
	free(t);
}

static const char *
tri_text(int v)
{
	return v < 0 ? "not reached" : v ? "true" : "false";
}

void
write_debug(struct info *in)
{
	json_t *rec = in->rec, *wrap = json_object_get(rec, "wrap");
	json_t *build = json_object_get(rec, "build");
	json_t *verify = json_object_get(rec, "verify");
	json_t *cand = json_object_get(rec, "candidate");
	json_t *ins = json_object_get(wrap, "instruction"), *x, *y;
	json_t *hist = json_object_get(cand, "history");
	static const char *const roles[3] = { "reference", "candidate",
	    "harness" };
	char dir[PATH_MAX], name[64];
	struct k_buf b = { 0 };
	size_t i, j;
	char *line;
	int k;

	in->dir = unique_dir_name(&names_used, in->id);
	snprintf(dir, sizeof(dir), "%s/%s", opt.debug_dir, in->dir);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		k_warn(K_EXIT_IO, dir, "cannot create: %s", strerror(errno));
		return;
	}

	/* the record itself, one line, to feed back into a stage */
	line = json_dumps(rec, JSON_COMPACT | JSON_REAL_PRECISION(17));
	put_file(dir, "record.ndjson", line);
	free(line);

	if (json_is_object(ins)) {
		k_buf_printf(&b, "# %s\n\n## Instruction\n\n%s\n\n## Concise\n\n"
		    "%s\n", in->id, k_get_str(ins, "detailed") ?
		    k_get_str(ins, "detailed") : "", k_get_str(ins,
		    "concise") ? k_get_str(ins, "concise") : "");
		put_file(dir, "instruction.md", k_buf_str(&b));
		k_buf_reset(&b);
	}
	put_file(dir, "reference.cu", k_get_str(json_object_get(rec, "slice"),
	    "code"));
	put_file(dir, "candidate.cu", k_get_str(cand, "code"));
	put_file(dir, "harness.cu", k_get_str(json_object_get(wrap,
	    "harness"), "code"));

	if (json_is_object(build)) {
		for (k = 0; k < 3; k++) {
			x = json_object_get(build, roles[k]);
			if (!json_is_object(x))
				continue;
			k_buf_printf(&b, "== %s: %s (%s)\n$ %s\n", roles[k],
			    json_is_true(json_object_get(x, "ok")) ? "ok" :
			    "FAILED", k_get_str(x, "compiler") ?
			    k_get_str(x, "compiler") : "?",
			    k_get_str(x, "command") ? k_get_str(x, "command") :
			    "");
			k_buf_printf(&b, "%s%s\n", k_get_str(x, "log") ?
			    k_get_str(x, "log") : "", json_is_true(
			    json_object_get(x, "log_truncated")) ?
			    "\n[log truncated]" : "");
		}
		put_file(dir, "build.log", k_buf_str(&b));
		k_buf_reset(&b);
	}
	if (json_is_object(verify)) {
		bjson(&b, verify);
		put_file(dir, "verify.log", k_buf_str(&b));
		k_buf_reset(&b);
	}

	/* what went wrong, in one page */
	k_buf_printf(&b, "id: %s\nclasses:", in->id);
	json_array_foreach(in->classes, i, x)
		k_buf_printf(&b, " %s", json_string_value(x));
	k_buf_printf(&b, "\n");
	if (in->cand) {
		k_buf_printf(&b, "pass_call: %s\npass_exe: %s\npass_perf: %s\n",
		    tri_text(in->call), tri_text(in->exe), tri_text(in->perf));
		if (in->has_sp)
			k_buf_printf(&b, "speedup: %.3f\n", in->sp);
		if (k_get_str(json_object_get(build, "candidate"),
		    "pass_call_reason") != NULL)
			k_buf_printf(&b, "pass_call_reason: %s\n", k_get_str(
			    json_object_get(build, "candidate"),
			    "pass_call_reason"));
	}
	json_array_foreach(json_object_get(rec, "errors"), i, x)
		k_buf_printf(&b, "error: %s/%s: %s\n", k_get_str(x, "stage") ?
		    k_get_str(x, "stage") : "?", k_get_str(x, "code") ?
		    k_get_str(x, "code") : "?", k_get_str(x, "message") ?
		    k_get_str(x, "message") : "");
	for (k = 0; k < 3; k++) {
		x = json_object_get(build, roles[k]);
		if (!json_is_object(x) || json_is_true(json_object_get(x,
		    "ok")))
			continue;
		json_array_foreach(json_object_get(x, "diagnostics"), i, y)
			if (k_get_str(y, "severity") != NULL &&
			    strcmp(k_get_str(y, "severity"), "error") == 0)
				k_buf_printf(&b, "compile %s: %s:%ld: %s\n",
				    roles[k], k_get_str(y, "file") ?
				    k_get_str(y, "file") : "?",
				    (long)k_get_int(y, "line", 0),
				    k_get_str(y, "message") ?
				    k_get_str(y, "message") : "");
	}
	if (json_is_object(verify)) {
		json_t *vc = json_object_get(verify, "candidate");
		x = json_object_get(verify, "fault");
		if (json_is_object(x))
			k_buf_printf(&b, "fault: %s %s, case %ld, exit %ld, signal "
			    "%ld: %s\n%s\n", k_get_str(x, "role") ?
			    k_get_str(x, "role") : "?", k_get_str(x, "kind") ?
			    k_get_str(x, "kind") : "?",
			    (long)k_get_int(x, "case", -1),
			    (long)k_get_int(x, "exit", -1),
			    (long)k_get_int(x, "signal", 0),
			    k_get_str(x, "message") ? k_get_str(x, "message") :
			    "", k_get_str(x, "tail") ? k_get_str(x, "tail") :
			    "");
		if (json_is_false(json_object_get(verify, "deterministic")))
			k_buf_printf(&b, "golden: the reference is not "
			    "deterministic\n");
		json_array_foreach(json_object_get(verify, "degenerate"), i, x)
			k_buf_printf(&b, "golden: case %ld output %s is degenerate: "
			    "%s\n", (long)k_get_int(x, "case", -1),
			    k_get_str(x, "output") ? k_get_str(x, "output") :
			    "?", k_get_str(x, "reason") ?
			    k_get_str(x, "reason") : "?");
		x = json_object_get(verify, "oracle");
		if (k_get_str(x, "status") != NULL &&
		    strcmp(k_get_str(x, "status"), "agree") != 0)
			k_buf_printf(&b, "golden: the CPU reference %s%s%s\n",
			    strcmp(k_get_str(x, "status"), "error") == 0 ?
			    "failed" : "disagrees with the reference kernel",
			    k_get_str(x, "message") ? ": " : "",
			    k_get_str(x, "message") ? k_get_str(x, "message") :
			    "");
		json_array_foreach(json_object_get(x, "mismatches"), i, y)
			k_buf_printf(&b, "oracle: case %ld output %s: %s, %ld "
			    "elements, first at %ld\n", (long)k_get_int(y,
			    "case", -1), k_get_str(y, "output") ? k_get_str(y,
			    "output") : "?", k_get_str(y, "reason") ?
			    k_get_str(y, "reason") : "?", (long)k_get_int(y,
			    "mismatches", 0), (long)k_get_int(y, "first", -1));
		if (json_array_size(json_object_get(vc, "reasons")) > 0) {
			k_buf_printf(&b, "reasons:");
			json_array_foreach(json_object_get(vc, "reasons"), i,
			    x)
				k_buf_printf(&b, " %s", json_string_value(x) ?
				    json_string_value(x) : "?");
			k_buf_printf(&b, "\n");
		}
		json_array_foreach(json_object_get(vc, "cases"), i, x) {
			json_t *o;
			if (json_is_true(json_object_get(x, "pass")))
				continue;
			k_buf_printf(&b, "case %ld: FAIL\n",
			    (long)k_get_int(x, "case", -1));
			json_array_foreach(json_object_get(x, "outputs"), j,
			    o) {
				json_t *ae = json_object_get(o, "max_abs_err");
				json_t *re = json_object_get(o, "max_rel_err");
				if (json_is_true(json_object_get(o, "match")))
					continue;
				k_buf_printf(&b, "  %s: %ld mismatches, %ld NaN "
				    "mismatches, first at %ld, max abs err "
				    "%g, max rel err %g%s%s\n",
				    k_get_str(o, "name") ? k_get_str(o, "name") :
				    "?", (long)k_get_int(o, "mismatches", 0),
				    (long)k_get_int(o, "nan_mismatches", 0),
				    (long)k_get_int(o, "first_mismatch", -1),
				    json_is_number(ae) ? json_number_value(ae) :
				    NAN, json_is_number(re) ?
				    json_number_value(re) : NAN,
				    k_get_str(o, "note") ? "; " : "",
				    k_get_str(o, "note") ? k_get_str(o, "note") :
				    "");
			}
		}
	}
	/* the rounds before this candidate, an agent's reflections
	 * included (kimport takes them from the agent's memory) */
	json_array_foreach(hist, i, x) {
		json_t *v;
		int t;
		static const char *const pass[3] = { "pass_call", "pass_exe",
		    "pass_perf" };
		k_buf_printf(&b, "%sround %lld:", i == 0 ? "history:\n" : "",
		    (long long)k_get_int(x, "round", (json_int_t)i + 1));
		for (t = 0; t < 3; t++)
			if (json_is_boolean(v = json_object_get(x, pass[t])))
				k_buf_printf(&b, " %s %s", pass[t],
				    json_is_true(v) ? "yes" : "no");
		k_buf_printf(&b, "\n");
		if (k_get_str(x, "error") != NULL)
			k_buf_printf(&b, "  error: %s\n", k_get_str(x, "error"));
		if (k_get_str(x, "reflection") != NULL)
			k_buf_printf(&b, "  reflection: %s\n", k_get_str(x,
			    "reflection"));
		if (k_get_str(x, "strategy") != NULL)
			k_buf_printf(&b, "  strategy: %s\n", k_get_str(x,
			    "strategy"));
	}
	put_file(dir, "mismatch.txt", k_buf_str(&b));
	k_buf_reset(&b);

	/* kwrap's repair rounds, or an agent's iterations */
	json_array_foreach(hist, i, x) {
		json_int_t rn = k_get_int(x, "round", (json_int_t)i + 1);
		y = json_object_get(x, "error");
		snprintf(name, sizeof(name), "round-%lld.error", (long long)rn);
		if (json_is_string(y))
			put_file(dir, name, json_string_value(y));
		else if (y != NULL && !json_is_null(y)) {
			bjson(&b, y);
			put_file(dir, name, k_buf_str(&b));
			k_buf_reset(&b);
		}
		snprintf(name, sizeof(name), "round-%lld.strategy",
		    (long long)rn);
		put_file(dir, name, k_get_str(x, "strategy"));
		snprintf(name, sizeof(name), "round-%lld.reflection",
		    (long long)rn);
		put_file(dir, name, k_get_str(x, "reflection"));
		snprintf(name, sizeof(name), "round-%lld.code", (long long)rn);
		put_file(dir, name, k_get_str(x, "code"));
	}

	k_buf_printf(&b, "# %s\n\nFailed: ", in->id);
	json_array_foreach(in->classes, i, x)
		k_buf_printf(&b, "%s%s", i ? ", " : "", json_string_value(x));
	k_buf_printf(&b, "\n\nWhat went wrong is in mismatch.txt; the compiler's "
	    "output in build.log,\nthe verifier's findings in verify.log.\n\n"
	    "Compare the reference with the candidate:\n\n"
	    "    diff -u reference.cu candidate.cu\n\n"
	    "Rebuild and rerun this record alone (record.ndjson is the "
	    "input line):\n\n"
	    "    kbuild < record.ndjson > built.ndjson\n"
	    "    kverify < built.ndjson > verified.ndjson\n"
	    "    kreport < verified.ndjson\n\n"
	    "After editing candidate.cu, put it back into the record:\n\n"
	    "    jq -c --rawfile c candidate.cu '.candidate.code = $c' "
	    "record.ndjson |\n"
	    "        kbuild | kverify | kreport\n");
	for (k = 0; k < 3; k++) {
		x = json_object_get(build, roles[k]);
		if (!json_is_object(x) || k_get_str(x, "command") == NULL)
			continue;
		if (k == 0)
			k_buf_printf(&b, "\nThe compiler commands kbuild ran, in its "
			    "cache entry $KFORGE_WORK/build/XX/HASH/:\n\n");
		k_buf_printf(&b, "    # %s\n    %s\n", roles[k],
		    k_get_str(x, "command"));
	}
	if (json_array_size(hist) > 0)
		k_buf_printf(&b, "\nThe earlier rounds (listed in "
		    "mismatch.txt) are round-N.error, round-N.strategy,\n"
		    "round-N.reflection and round-N.code:\n\n"
		    "    diff -u round-%lld.code candidate.cu\n",
		    (long long)k_get_int(json_array_get(hist, 0), "round", 1));
	put_file(dir, "README", k_buf_str(&b));
	k_buf_free(&b);
}

