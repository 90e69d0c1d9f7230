/*
 * kreport --export-dir: each verified task as a folder that works without
 * kforge: kernel.cu (the slice), task.json (what the record knows of it),
 * test.cu (the record's own harness with its driver layer through the
 * runtime API, the kernel included, the comparison with the expected
 * outputs) that builds with plain nvcc, expected/CASE/NAME.bin (the golden
 * outputs from the work directory's blobs; NAME.unstable.bin beside a
 * masked output, its elements not compared) and README.md.  One line per
 * input record on stdout says where its folder is or why it has none.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "k_buf.h"
#include "k_dtype.h"
#include "k_exit.h"
#include "k_fs.h"
#include "k_hash.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_record.h"
#include "kreport.h"

extern const char kreport_test_text[];

/* the sections of exporttest.in, between its "//@@ NAME" lines */
static char *part_driver, *part_compare, *part_main;

static void
split_parts(void)
{
	char *t = k_strdup(kreport_test_text), *p = t, *next;
	char **slot = NULL;

	while (p != NULL && *p != '\0') {
		next = strchr(p, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (strncmp(p, "//@@ ", 5) == 0) {
			slot = strcmp(p + 5, "driver") == 0 ? &part_driver :
			    strcmp(p + 5, "compare") == 0 ? &part_compare :
			    &part_main;
			*slot = k_strdup("");
		} else if (slot != NULL) {
			char *s = k_asprintf("%s%s\n", *slot, p);
			free(*slot);
			*slot = s;
		}
		p = next;
	}
	free(t);
}

/* A C string literal of s (quotes and escapes) into b. */
static void
c_str(struct k_buf *b, const char *s)
{
	k_buf_add(b, "\"");
	for (; *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			k_buf_printf(b, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			k_buf_printf(b, "\\%03o", ch);
		else
			k_buf_printf(b, "%c", ch);
	}
	k_buf_add(b, "\"");
}

/*
 * The harness with its CUDA driver-API block (from "#else" and
 * "#include <cuda.h>" to the "#endif" after it) replaced by the runtime
 * one, or NULL when the harness has no such block.
 */
static char *
runtime_harness(const char *h)
{
	const char *start = strstr(h, "\n#else\n#include <cuda.h>\n"), *end;

	if (start == NULL || (end = strstr(start + 1, "\n#endif\n")) == NULL)
		return NULL;
	return k_asprintf("%.*s\n#else\n%s#endif\n%s", (int)(start - h), h,
	    part_driver, end + 8);
}

static int
kind_of(const struct k_dtype *d)
{
	if (d == NULL || !d->is_float)
		return 0;
	if (d->size == 8)
		return 2;
	if (d->size == 4)
		return 1;
	return strcmp(d->name, "bfloat16") == 0 ? 4 : 3;
}

/* verify.tolerance's band of output name, or the dtype's; *unordered:
 * compared as a multiset; *masked: 1 compared where its map of unstable
 * elements holds 0, 2 (split) compared there in *stable, elsewhere in
 * *atol */
static void
band(json_t *verify, const char *name, const struct k_dtype *d,
    double *atol, double *rtol, int *unordered, int *masked, double *stable)
{
	json_t *o;
	size_t i;

	*atol = d != NULL ? d->atol : 0;
	*rtol = d != NULL ? d->rtol : 0;
	*unordered = *masked = 0;
	*stable = *atol;
	json_array_foreach(json_object_get(json_object_get(verify,
	    "tolerance"), "outputs"), i, o)
		if (strcmp(k_get_str(o, "name") != NULL ? k_get_str(o, "name") :
		    "", name) == 0) {
			if (json_is_number(json_object_get(o, "atol")))
				*atol = json_number_value(json_object_get(o,
				    "atol"));
			if (json_is_number(json_object_get(o, "rtol")))
				*rtol = json_number_value(json_object_get(o,
				    "rtol"));
			*unordered = json_is_true(json_object_get(o,
			    "unordered"));
			*masked = json_is_true(json_object_get(o, "masked")) ?
			    1 : json_is_true(json_object_get(o, "split")) ? 2 : 0;
			*stable = json_is_number(json_object_get(o,
			    "stable_atol")) ? json_number_value(
			    json_object_get(o, "stable_atol")) : *atol;
		}
}

/* One golden case: its outputs (borrowed) and, once checked, their bytes. */
struct gold {
	json_t *outs;
	size_t bytes;
};

static const char *
blob_path(const char *hash, char *buf, size_t len)
{
	snprintf(buf, len, "%s/blobs/%.2s/%s", k_work_name(NULL), hash, hash);
	return buf;
}

/* NULL when every blob of g is in the work directory with its size (their
 * sum to g->bytes), else what is wrong. */
static const char *
gold_check(struct gold *g)
{
	char path[4096];
	struct stat st;
	json_t *o;
	size_t i;

	g->bytes = 0;
	json_array_foreach(g->outs, i, o) {
		const char *h = k_get_str(o, "hash"), *name = k_get_str(o,
		    "name"), *type = k_get_str(o, "type");
		json_t *bytes = json_object_get(o, "bytes");
		if (h == NULL || strlen(h) != 64 || strspn(h,
		    "0123456789abcdef") != 64 || name == NULL ||
		    type == NULL || !json_is_integer(bytes))
			return "a golden output lacks its name, type, bytes "
			    "or hash";
		if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
		    "OPQRSTUVWXYZ0123456789_") != strlen(name))
			return "a golden output's name is not an identifier";
		if (stat(blob_path(h, path, sizeof(path)), &st) != 0 ||
		    st.st_size != json_integer_value(bytes))
			return "a golden output is not in the work directory's "
			    "blobs (KFORGE_WORK)";
		g->bytes += (size_t)st.st_size;
		/* a masked output's map */
		if ((h = k_get_str(o, "unstable_hash")) == NULL)
			continue;
		if (strlen(h) != 64 || strspn(h, "0123456789abcdef") != 64)
			return "a golden output's unstable_hash is not a "
			    "SHA-256";
		if (stat(blob_path(h, path, sizeof(path)), &st) != 0)
			return "a masked golden output's map is not in the "
			    "work directory's blobs (KFORGE_WORK)";
		g->bytes += (size_t)st.st_size;
	}
	return NULL;
}

/* Copy a blob to dir/name, checking its hash on the way. */
static const char *
copy_blob(const char *hash, const char *dir, const char *name)
{
	char path[4096], hex[K_SHA256_HEX];
	size_t len;
	char *data = k_file_read(blob_path(hash, path, sizeof(path)),
	    (size_t)1 << 34, &len);
	const char *why = NULL;
	char *to;

	if (data == NULL)
		return "a golden blob cannot be read";
	k_sha256_hex(data, len, hex);
	to = k_asprintf("%s/%s", dir, name);
	if (strcmp(hex, hash) != 0)
		why = "a golden blob does not match its hash";
	else if (k_file_write(to, data, len) != 0)
		why = "cannot write an expected output";
	free(to);
	free(data);
	return why;
}

static void
put_text(const char *dir, const char *name, const char *text)
{
	char *path = k_asprintf("%s/%s", dir, name);

	if (k_file_write(path, text, strlen(text)) != 0)
		k_warn(K_EXIT_IO, path, "cannot write: %s", strerror(errno));
	free(path);
}

static json_t *
copy_or_null(json_t *v)
{
	return v != NULL ? json_deep_copy(v) : json_null();
}

static json_t *
tri(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

/* A double as C source: the shortest of %.15g and %.17g that reads back
 * as the same value. */
static const char *
c_double(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, len, "%.17g", v);
	return buf;
}

/*
 * slice.flags split in two: -D and -U (with their value attached or
 * next) as #define and #undef lines for the top of test.cu (defs), the
 * others after "nvcc" in the build command of README.md and task.json.
 */
static char *
build_command(json_t *slice, struct k_buf *defs)
{
	struct k_buf b = { 0 };
	json_t *flags = json_object_get(slice, "flags");
	size_t i, n = json_array_size(flags);

	k_buf_add(&b, "nvcc");
	for (i = 0; i < n; i++) {
		const char *f = json_string_value(json_array_get(flags, i));
		const char *v = NULL, *eq;
		int def;
		if (f == NULL)
			continue;
		def = f[0] == '-' && (f[1] == 'D' || f[1] == 'U');
		if (def)
			v = f[2] != '\0' ? f + 2 : i + 1 < n ?
			    json_string_value(json_array_get(flags, ++i)) : NULL;
		if (!def || v == NULL || *v == '\0') {
			k_buf_printf(&b, " %s", f);
			continue;
		}
		if (f[1] == 'U')
			k_buf_printf(defs, "#undef %s\n", v);
		else if ((eq = strchr(v, '=')) != NULL)
			k_buf_printf(defs, "#define %.*s %s\n", (int)(eq - v), v,
			    eq + 1);
		else
			k_buf_printf(defs, "#define %s 1\n", v);
	}
	k_buf_add(&b, " -o test test.cu");
	return k_buf_take(&b);
}

/*
 * The harness arguments kverify passed to every run of rec (fit.args), by
 * its own rule: a fit whose status is fitted or bound, its arguments
 * pairs of an override option and a value; else NULL (borrowed).
 */
static json_t *
fit_args(json_t *rec)
{
	json_t *fit = json_object_get(rec, "fit");
	json_t *a = json_object_get(fit, "args"), *v;
	const char *st = k_get_str(fit, "status");
	size_t i;

	if (!json_is_array(a) || json_array_size(a) == 0 ||
	    json_array_size(a) % 2 != 0 || st == NULL ||
	    (strcmp(st, "fitted") != 0 && strcmp(st, "bound") != 0))
		return NULL;
	json_array_foreach(a, i, v) {
		const char *x = json_string_value(v);
		if (x == NULL)
			return NULL;
		if (i % 2 == 0 && strcmp(x, "--count") != 0 &&
		    strcmp(x, "--shared-mem") != 0 && strcmp(x, "--set") != 0 &&
		    strcmp(x, "--grid") != 0 && strcmp(x, "--block") != 0)
			return NULL;
	}
	return a;
}

static json_t *
task_json(struct info *in, json_t *cases, const char *build)
{
	json_t *rec = in->rec, *scan = json_object_get(rec, "scan");
	json_t *slice = json_object_get(rec, "slice");
	json_t *wrap = json_object_get(rec, "wrap");
	json_t *verify = json_object_get(rec, "verify");
	json_t *mv = json_object_get(verify, "mutation"), *t, *v;

	t = json_object();
	json_object_set_new(t, "id", json_string(in->id));
	json_object_set_new(t, "op", copy_or_null(json_object_get(scan,
	    "op")));
	if (json_object_get(scan, "chain") != NULL)
		json_object_set_new(t, "chain", json_deep_copy(
		    json_object_get(scan, "chain")));
	json_object_set_new(t, "project", json_string(in->project));
	json_object_set_new(t, "dialect", json_string(in->dialect));
	json_object_set_new(t, "source", json_pack("{s o s o s o}", "file",
	    copy_or_null(json_object_get(scan, "file")), "line",
	    copy_or_null(json_object_get(scan, "line")), "end_line",
	    copy_or_null(json_object_get(scan, "end_line"))));
	json_object_set_new(t, "kernel", copy_or_null(json_object_get(slice,
	    "symbol")));
	json_object_set_new(t, "signature", copy_or_null(json_object_get(
	    scan, "signature")));
	json_object_set_new(t, "instance", copy_or_null(json_object_get(
	    slice, "instance")));
	json_object_set_new(t, "instruction", copy_or_null(json_object_get(
	    wrap, "instruction")));
	json_object_set_new(t, "tags", copy_or_null(json_object_get(slice,
	    "tags")));
	json_object_set_new(t, "spec", copy_or_null(json_object_get(wrap,
	    "spec")));
	v = json_object();
	json_object_set_new(v, "verified", copy_or_null(json_object_get(
	    verify, "verified")));
	json_object_set_new(v, "deterministic", copy_or_null(
	    json_object_get(verify, "deterministic")));
	json_object_set_new(v, "tolerance", copy_or_null(json_object_get(
	    verify, "tolerance")));
	json_object_set_new(v, "left_out", copy_or_null(json_object_get(
	    verify, "left_out")));
	json_object_set_new(v, "mutation", json_is_object(mv) ? json_pack(
	    "{sO sO sO sO sI sI}", "score", json_object_get(mv, "score"),
	    "tried", json_object_get(mv, "tried"), "killed",
	    json_object_get(mv, "killed"), "survived", json_object_get(mv,
	    "survived"), "spec_equivalent", k_get_int(mv, "spec_equivalent",
	    0), "contradictions", k_get_int(mv, "contradictions", 0)) :
	    json_null());
	json_object_set_new(v, "pass_call", tri(in->call));
	json_object_set_new(v, "pass_exe", tri(in->exe));
	json_object_set_new(v, "pass_perf", tri(in->perf));
	json_object_set_new(t, "verdicts", v);
	json_object_set_new(t, "fit_args", copy_or_null(fit_args(rec)));
	json_object_set_new(t, "cases", json_incref(cases));
	json_object_set_new(t, "build", json_string(build));
	json_object_set_new(t, "run", json_string("./test"));
	return t;
}

static char *
readme(struct info *in, const char *build, json_t *task, size_t ncases,
    size_t left_out)
{
	struct k_buf b = { 0 };
	json_t *ins = json_object_get(task, "instruction");
	const char *concise = k_get_str(ins, "concise");

	k_buf_printf(&b, "# %s\n\n", in->id);
	if (concise != NULL)
		k_buf_printf(&b, "%s\n\n", concise);
	k_buf_printf(&b, "A GPU kernel task exported by kforge (kreport "
	    "--export-dir): `kernel.cu` is the kernel, `task.json` what is "
	    "known of it (source, signature, spec, instruction, tags, "
	    "verdicts), `test.cu` its test, `expected/` the outputs it "
	    "must produce.\n\n"
	    "Build and run the test in this folder (CUDA and an NVIDIA "
	    "GPU):\n\n"
	    "    %s\n"
	    "    ./test\n\n"
	    "`test.cu` includes `kernel.cu`, generates each case's inputs "
	    "from its seed, launches the kernel, writes the outputs under "
	    "`out/` and compares them with `expected/`. It prints one line, "
	    "`PASS` or `FAIL`, and exits 0 only on `PASS`; each output that "
	    "differs gets a `mismatch:` line first. To test another "
	    "implementation, replace `kernel.cu` with one that defines the "
	    "same kernel (name, template arguments and parameters) and "
	    "build again.  A kernel that needs a newer GPU than nvcc's "
	    "default architecture builds with `-arch=native` (or "
	    "`-arch=sm_90`, ...) added.\n", build);
	if (left_out > 0)
		k_buf_printf(&b, "\n%zu of the task's %zu test cases are left "
		    "out: their expected outputs were over the export's size "
		    "limit (task.json's `cases` says which).\n", left_out,
		    ncases + left_out);
	return k_buf_take(&b);
}

/*
 * The parameter types of an overloaded kernel, or NULL: kscan tells the
 * overloads of a name apart by their canonical parameter types in the id
 * ("a.cu::k(int, const float *)"), and &k alone is then ambiguous (so is
 * the name of a template with an explicit specialization).  Not for a
 * symbol with template arguments, which names one function already, nor
 * for types that are a template's own parameters.
 */
static char *
overload_params(const char *id, const char *sym)
{
	const char *file_end = strstr(id, "::"), *p = NULL, *open;
	size_t n = strlen(sym);
	int depth;

	if (file_end == NULL || (n > 0 && sym[n - 1] == '>'))
		return NULL;
	/* the group that ends the name: "(anonymous namespace)::" is not */
	for (open = strchr(file_end, '('); open != NULL;
	    open = strchr(p, '(')) {
		depth = 0;
		for (p = open; *p != '\0'; p++) {
			if (*p == '(')
				depth++;
			else if (*p == ')' && --depth == 0)
				break;
		}
		if (*p != ')')
			return NULL;
		if (p[1] == '\0' || p[1] == '<' || p[1] == '#')
			break;
	}
	if (open == NULL || p == open + 1)
		return NULL;
	if (memmem(open, (size_t)(p - open), "type-parameter", 14) != NULL)
		return NULL;
	return k_asprintf("%.*s", (int)(p - open - 1), open + 1);
}

/* test.cu for the record: NULL and *why set where it cannot be made. */
static char *
test_cu(struct info *in, const char *harness, json_t *gold, json_t *keep,
    const char *defs)
{
	json_t *rec = in->rec, *slice = json_object_get(rec, "slice");
	json_t *spec = json_object_get(json_object_get(rec, "wrap"), "spec");
	json_t *verify = json_object_get(rec, "verify"), *g, *o, *x, *args;
	const char *sym = k_get_str(slice, "symbol");
	char *params;
	char *h = runtime_harness(harness);
	struct k_buf b = { 0 };
	size_t i, j;

	if (h == NULL)
		return NULL;
	k_buf_printf(&b, "// kforge task %s\n// Build and run in this "
	    "folder with the two commands of README.md.\n", in->id);
	if (*defs != '\0')
		k_buf_printf(&b, "// the slice's -D and -U flags\n%s", defs);
	k_buf_add(&b, "// The harness kwrap generated for the task, its "
	    "kernel included below.\n#define main kx_harness_main\n");
	k_buf_add(&b, h);
	free(h);
	k_buf_add(&b, "#undef main\n\nstatic const char kx_id[] = ");
	c_str(&b, in->id);
	k_buf_add(&b, ";\nstatic const char kx_name[] = ");
	c_str(&b, sym);
	k_buf_add(&b, ";\n");
	k_buf_add(&b, part_compare);
	k_buf_add(&b, "\nstatic const char *const kx_case_names[] = {");
	json_array_foreach(json_object_get(spec, "cases"), i, o) {
		k_buf_add(&b, i > 0 ? ", " : " ");
		c_str(&b, k_get_str(o, "name") != NULL ? k_get_str(o,
		    "name") : "");
	}
	k_buf_add(&b, " };\nstatic const int kx_cases[] = {");
	/* keep holds positions in verify.golden, which has no entry for
	 * a case kverify left out */
	json_array_foreach(keep, i, x)
		k_buf_printf(&b, "%s%lld", i > 0 ? ", " : " ",
		    (long long)k_get_int(json_array_get(gold,
		    (size_t)json_integer_value(x)), "case", 0));
	/* kverify --fit's harness arguments, as the harness's own option
	 * parser takes them (a harness from before they existed has none) */
	k_buf_add(&b, " };\n\n// the harness arguments of kverify --fit\n"
	    "static void kx_fit_args(void)\n{\n");
	args = fit_args(rec);
	for (i = 0; i + 1 < json_array_size(args); i += 2) {
		const char *opt_ = json_string_value(json_array_get(args, i));
		const char *val = json_string_value(json_array_get(args, i + 1));
		const char *call = opt_ == NULL || val == NULL ? NULL :
		    strcmp(opt_, "--count") == 0 ? "kw_add_override(kw_counts, " :
		    strcmp(opt_, "--set") == 0 ? "kw_add_override(kw_sets, " :
		    strcmp(opt_, "--grid") == 0 ? "kw_add_dim3(kw_ov_launch, " :
		    strcmp(opt_, "--block") == 0 ?
		    "kw_add_dim3(kw_ov_launch + 3, " :
		    strcmp(opt_, "--shared-mem") == 0 ? "" : NULL;
		if (call == NULL)
			continue;
		if (*call == '\0') {
			k_buf_add(&b, "\tkw_ov_launch[6] = ");
			c_str(&b, val);
			k_buf_add(&b, ";\n");
			continue;
		}
		k_buf_printf(&b, "\t%s", call);
		c_str(&b, opt_);
		k_buf_add(&b, ", ");
		c_str(&b, val);
		k_buf_add(&b, ");\n");
	}
	k_buf_add(&b, "}\n\nstatic const kx_out kx_outs[] = {\n");
	json_array_foreach(keep, i, x) {
		g = json_array_get(gold, (size_t)json_integer_value(x));
		json_array_foreach(json_object_get(g, "outputs"), j, o) {
			const struct k_dtype *d = k_dtype_named(k_get_str(o,
			    "type"));
			double atol, rtol;
			char a[40], r[40];
			double stable;
			char st[40];
			int unordered, masked;
			band(verify, k_get_str(o, "name"), d, &atol, &rtol,
			    &unordered, &masked, &stable);
			k_buf_printf(&b, "\t{ %lld, \"%s\", %d, %d, %s, %s, "
			    "%lluULL, %d, %d, %s },\n", (long long)json_integer_value(
			    json_object_get(g, "case")), k_get_str(o, "name"),
			    kind_of(d), d != NULL ? d->size : 1, c_double(atol,
			    a, sizeof(a)), c_double(rtol, r, sizeof(r)),
			    (unsigned long long)json_integer_value(
			    json_object_get(o, "bytes")), unordered, masked,
			    c_double(stable, st, sizeof(st)));
		}
	}
	k_buf_add(&b, "};\n\n");
	k_buf_add(&b, part_main);
	/* the kernel last: its macros reach none of the code above */
	params = overload_params(in->id, sym);
	k_buf_add(&b, "\n// ------------------------------------------"
	    "-------------------- kernel\n#include \"kernel.cu\"\n\n");
	if (params != NULL)
		k_buf_printf(&b, "static const void *kx_kernel(void) { return "
		    "(const void *)static_cast<void (*)(%s)>(&%s); }\n",
		    params, sym);
	else
		k_buf_printf(&b, "static const void *kx_kernel(void) { return "
		    "(const void *)&%s; }\n", sym);
	free(params);
	k_buf_add(&b, "\nstatic const void *kx_symbol(const char *name)\n{\n");
	json_array_foreach(json_object_get(spec, "globals"), i, o) {
		const char *n = k_get_str(o, "name");
		if (n == NULL)
			continue;
		k_buf_add(&b, "\tif (strcmp(name, ");
		c_str(&b, n);
		k_buf_printf(&b, ") == 0) return (const void *)&%s;\n", n);
	}
	k_buf_add(&b, "\t(void)name;\n\treturn NULL;\n}\n");
	return k_buf_take(&b);
}

/* Whether kverify left case k out of the task (verify.left_out). */
static int
left_out(json_t *verify, json_int_t k)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(verify, "left_out"), i, e)
		if (json_integer_value(json_object_get(e, "case")) == k)
			return 1;
	return 0;
}

/* Why rec has no folder, or NULL when it may have one. */
static const char *
refuse(struct info *in)
{
	json_t *rec = in->rec, *verify = json_object_get(rec, "verify");
	json_t *harness = json_object_get(json_object_get(rec, "wrap"),
	    "harness"), *gold = json_object_get(verify, "golden"), *g;
	const char *sym = k_get_str(json_object_get(rec, "slice"), "symbol");
	json_int_t next = 0;
	size_t i;

	if (in->bad)
		return "not a record";
	if (!json_is_string(json_object_get(json_object_get(rec, "slice"),
	    "code")) || sym == NULL)
		return "no slice";
	if (!json_is_string(json_object_get(harness, "code")))
		return "no harness";
	if (!json_is_true(json_object_get(json_object_get(verify,
	    "verified"), "value")))
		return "not verified";
	if (strcmp(k_get_str(harness, "dialect") != NULL ? k_get_str(
	    harness, "dialect") : "cuda", "cuda") != 0)
		return "not CUDA: test.cu is built with nvcc";
	if (json_array_size(gold) == 0)
		return "no golden outputs";
	/* one per case, in order, but for the cases kverify left out */
	json_array_foreach(gold, i, g) {
		json_int_t k = json_integer_value(json_object_get(g, "case"));
		if (k < next || json_array_size(json_object_get(g,
		    "outputs")) == 0)
			return "the golden outputs are not one per case, in "
			    "order";
		for (; next < k; next++)
			if (!left_out(verify, next))
				return "the golden outputs are not one per "
				    "case, in order";
		next = k + 1;
	}
	for (; next < (json_int_t)json_array_size(json_object_get(
	    json_object_get(json_object_get(rec, "wrap"), "spec"), "cases"));
	    next++)
		if (!left_out(verify, next))
			break;
	if ((size_t)next != json_array_size(json_object_get(json_object_get(
	    json_object_get(rec, "wrap"), "spec"), "cases")))
		return "the golden outputs and the spec's cases differ in "
		    "number";
	return NULL;
}

/*
 * Up to opt.mutants of the mutants kverify's tests killed by a mismatch
 * (verify.mutation.mutants, their edits in wrap.mutants.list) as
 * dir/mutants/ID.cu: kernels that test.cu must fail, for whoever wants
 * to see it do so.  Returns how many were written.
 */
static int
write_mutants(json_t *rec, const char *dir)
{
	json_t *m, *e, *list = json_object_get(json_object_get(json_object_get(
	    rec, "wrap"), "mutants"), "list");
	const char *code = k_get_str(json_object_get(rec, "slice"), "code");
	size_t i, j, len = code != NULL ? strlen(code) : 0;
	int n = 0;

	json_array_foreach(json_object_get(json_object_get(json_object_get(rec,
	    "verify"), "mutation"), "mutants"), i, m) {
		const char *id = k_get_str(m, "id"), *st = k_get_str(m,
		    "status"), *by = k_get_str(m, "by");
		if (n >= opt.mutants || id == NULL || st == NULL || by == NULL ||
		    strcmp(st, "killed") != 0 || strcmp(by, "mismatch") != 0)
			continue;
		json_array_foreach(list, j, e) {
			json_int_t off = json_integer_value(json_object_get(e,
			    "offset"));
			json_int_t l = json_integer_value(json_object_get(e,
			    "length"));
			const char *rep = k_get_str(e, "replacement"), *eid =
			    k_get_str(e, "id");
			char *sub, *text, *name;
			if (eid == NULL || strcmp(eid, id) != 0 || rep == NULL ||
			    off < 0 || l < 0 || (size_t)off > len ||
			    (size_t)l > len - (size_t)off ||
			    strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789") !=
			    strlen(id))
				continue;
			sub = k_asprintf("%s/mutants", dir);
			if (k_mkdirs(sub) != 0) {
				free(sub);
				return n;
			}
			text = k_asprintf("%.*s%s%s", (int)off, code, rep,
			    code + off + l);
			name = k_asprintf("%s.cu", id);
			put_text(sub, name, text);
			free(name);
			free(text);
			free(sub);
			n++;
			break;
		}
	}
	return n;
}

/* the --export-dir folders' names */
static json_t *names_used;

static void
say(struct info *in, const char *dir, const char *why)
{
	json_t *row = json_pack("{s s}", "id", in->id != NULL ? in->id : "");

	if (dir != NULL)
		json_object_set_new(row, "dir", json_string(dir));
	else
		json_object_set_new(row, "skipped", json_string(why));
	k_write(row);
	json_decref(row);
}

void
export_files(struct info *in)
{
	json_t *rec = in->rec, *verify = json_object_get(rec, "verify");
	json_t *gold = json_object_get(verify, "golden"), *g, *o;
	json_t *spec = json_object_get(json_object_get(rec, "wrap"), "spec");
	json_t *keep = json_array(), *cases = json_array(), *task;
	struct k_buf defs = { 0 };
	const char *why = refuse(in);
	char *name = NULL, *dir = NULL, *test = NULL, *build = NULL, *text;
	size_t i, j, total = 0, left = 0;

	if (part_main == NULL)
		split_parts();
	if (why != NULL)
		goto out;
	/* the cases whose expected outputs fit --export-max-bytes, in order */
	json_array_foreach(gold, i, g) {
		struct gold gd = { 0 };
		json_int_t kc = k_get_int(g, "case", (json_int_t)i);
		int in_ = 0;
		gd.outs = json_object_get(g, "outputs");
		if ((why = gold_check(&gd)) != NULL)
			goto out;
		if (total + gd.bytes <= opt.max_bytes) {
			total += gd.bytes;
			json_array_append_new(keep, json_integer((json_int_t)i));
			in_ = 1;
		} else
			left++;
		json_array_append_new(cases, json_pack("{s I s o s b s I}",
		    "case", kc, "name", copy_or_null(json_object_get(
		    json_array_get(json_object_get(spec, "cases"), (size_t)kc),
		    "name")), "included", in_, "expected_bytes",
		    (json_int_t)gd.bytes));
	}
	if (json_array_size(keep) == 0) {
		why = "every case's expected outputs are over "
		    "--export-max-bytes";
		goto out;
	}
	build = build_command(json_object_get(rec, "slice"), &defs);
	test = test_cu(in, k_get_str(json_object_get(json_object_get(rec,
	    "wrap"), "harness"), "code"), gold, keep, defs.s != NULL ?
	    defs.s : "");
	if (test == NULL) {
		why = "the harness has no CUDA driver-API block to replace";
		goto out;
	}
	name = unique_dir_name(&names_used, in->id);
	dir = k_asprintf("%s/%s", opt.export_dir, name);
	k_remove_tree(dir);
	if (k_mkdirs(dir) != 0) {
		k_warn(K_EXIT_IO, dir, "cannot create: %s", strerror(errno));
		why = "cannot create its folder";
		goto out;
	}
	json_array_foreach(keep, i, g) {
		json_t *gc = json_array_get(gold, (size_t)json_integer_value(g));
		char *cd = k_asprintf("%s/expected/%lld", dir,
		    (long long)k_get_int(gc, "case", 0));
		if (k_mkdirs(cd) != 0)
			why = "cannot create its expected/ folder";
		json_array_foreach(json_object_get(gc, "outputs"), j, o) {
			char *fn = k_asprintf("%s.bin", k_get_str(o, "name"));
			if (why == NULL)
				why = copy_blob(k_get_str(o, "hash"), cd, fn);
			free(fn);
			/* a masked output's map of the elements not compared */
			if (why == NULL && k_get_str(o, "unstable_hash") != NULL) {
				fn = k_asprintf("%s.unstable.bin", k_get_str(o,
				    "name"));
				why = copy_blob(k_get_str(o, "unstable_hash"),
				    cd, fn);
				free(fn);
			}
		}
		free(cd);
		if (why != NULL) {
			k_remove_tree(dir);
			goto out;
		}
	}
	put_text(dir, "kernel.cu", k_get_str(json_object_get(rec, "slice"),
	    "code"));
	put_text(dir, "test.cu", test);
	task = task_json(in, cases, build);
	if (opt.mutants > 0 && write_mutants(rec, dir) > 0)
		json_object_set_new(task, "mutants", json_string("mutants/: "
		    "kernels with one edit each that the tests caught; copied "
		    "over kernel.cu, ./test fails"));
	text = json_dumps(task, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	if (text != NULL) {
		char *t2 = k_asprintf("%s\n", text);
		put_text(dir, "task.json", t2);
		free(t2);
	}
	free(text);
	text = readme(in, build, task, json_array_size(keep), left);
	put_text(dir, "README.md", text);
	free(text);
	json_decref(task);
out:
	say(in, why == NULL ? dir : NULL, why);
	json_decref(keep);
	json_decref(cases);
	free(test);
	free(build);
	free(name);
	free(dir);
	k_buf_free(&defs);
}

void
export_files_end(void)
{
	json_decref(names_used);
	names_used = NULL;
	free(part_driver);
	free(part_compare);
	free(part_main);
	part_driver = part_compare = part_main = NULL;
}
