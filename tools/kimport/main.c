/*
 * kimport: rows of other benchmarks' formats (GEAK-style agent runs,
 * TritonBench outputs, ComputeEval problems and solutions, KernelBench
 * load_inline candidates) in, kforge records out.
 *
 * A tool in front of the pipeline rather than a mode of a stage: its
 * input is not records, and what it does to a row (find the C++ in it,
 * scan and slice that, find the reference it is judged against, attach
 * the agent's memory) spans kscan and kslice, which it runs as they are
 * (next to it) on each candidate's files in a directory of their own.
 * Its output is what kwrap, kbuild and kverify already take: records
 * with scan and slice (the reference's) and a candidate.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "k_exit.h"
#include "k_fs.h"
#include "k_main.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_proc.h"
#include "k_record.h"
#include "kimport.h"

struct kimport_opt opt;

static const char *work, *reference;

static const struct option longopts[] = {
	{ "memory", required_argument, NULL, 'm' },
	{ "mem", required_argument, NULL, 'M' },
	{ "reference", required_argument, NULL, 'r' },
	{ "run-tests", no_argument, NULL, 'T' },
	{ "timeout", required_argument, NULL, 't' },
	{ "work", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 }
};

static void
option(int ch, const char *arg, void *ctx)
{
	(void)ctx;
	switch (ch) {
	case 'f':
		if (strcmp(arg, "geak") != 0 && strcmp(arg, "tritonbench") != 0 &&
		    strcmp(arg, "computeeval") != 0 &&
		    strcmp(arg, "kernelbench") != 0)
			k_fatal(K_EXIT_USAGE, NULL, "-f: not geak, tritonbench, "
			    "computeeval or kernelbench: %s", arg);
		opt.format = arg;
		break;
	case 'm':
		opt.memory = arg;
		break;
	case 'M':
		opt.mem_mb = (long)k_opt_ll("--mem", arg, 0, 1L << 30);
		break;
	case 'r':
		reference = arg;
		break;
	case 'T':
		opt.run_tests = 1;
		break;
	case 't':
		opt.timeout = k_opt_double("--timeout", arg, 1, 86400,
		    "a number of seconds");
		break;
	case 'w':
		work = arg;
		break;
	}
}

static const struct k_tool tool = {
	.usage =
	    "usage: kimport [-hqV] [-f format] [-m memory] [--mem mib] [--reference file]\n"
	    "               [--run-tests] [--timeout seconds] [--work dir] [file ...]\n",
	.shortopts = "f:m:",
	.longopts = longopts,
	.option = option,
	.min_operands = 0,
	.max_operands = -1,
};

/* kscan and kslice: next to kimport, else on PATH */
static void
find_tool(const char *name, char out[])
{
	char exe[PATH_MAX], *dir, *p;
	ssize_t n;

	if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) > 0) {
		exe[n] = '\0';
		dir = k_dirname(exe);
		snprintf(out, PATH_MAX, "%s/%s", dir, name);
		free(dir);
		if (access(out, X_OK) == 0)
			return;
	}
	if ((p = k_which(name)) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "%s: not next to kimport nor on "
		    "PATH", name);
	snprintf(out, PATH_MAX, "%s", p);
	free(p);
}

/* where the row was read, and what it was read as */
struct at {
	const char *file;
	unsigned long line;
	const char *run;
	long iter;
};

static json_t *
import_section(const struct row *r, const struct at *at)
{
	json_t *imp = json_object();

	json_object_set_new(imp, "format", json_string(r->format != NULL ?
	    r->format : "unknown"));
	json_object_set_new(imp, "row", json_sprintf("%s:%lu", at->file,
	    at->line));
	if (r->task != NULL)
		json_object_set_new(imp, "task", json_string(r->task));
	if (at->run != NULL) {
		json_object_set_new(imp, "run", json_string(at->run));
		json_object_set_new(imp, "iter", json_integer(at->iter));
	}
	return imp;
}

static int
emit(json_t *rec)
{
	int rc;

	if (k_has_errors(rec))
		k_exit_raise(K_EXIT_RECORDS);
	rc = k_write(rec);
	json_decref(rec);
	return rc;
}

/* a row that yields no kernel record: one error record that keeps it */
static int
emit_error(json_t *row, const struct row *r, const struct at *at,
    const char *code, const char *why)
{
	json_t *rec = json_object(), *imp = import_section(r, at);

	/* the task when the row names one, else where the row is (which
	 * every message starts with already) */
	json_object_set(imp, "raw", row);
	if (r->task != NULL && r->format != NULL &&
	    strcmp(r->task, r->format) != 0) {
		json_object_set_new(rec, "id", json_sprintf("%s:%s", r->format,
		    r->task));
		json_object_set_new(rec, "import", imp);
		k_fail(rec, STAGE, code, "%s: %s", k_id_text(rec), why);
	} else {
		json_object_set_new(rec, "id", json_sprintf("%s:%lu", at->file,
		    at->line));
		json_object_set_new(rec, "import", imp);
		k_fail(rec, STAGE, code, "%s", why);
	}
	return emit(rec);
}

static json_t *
candidate_of(json_t *c, const struct row *r, const struct at *at)
{
	json_t *cand = json_object(), *scan = json_object_get(c, "scan"), *h;
	const char *code = k_get_str(json_object_get(c, "slice"), "code");
	const char *d = k_get_str(scan, "dialect");
	json_t *k;

	/* the kernel and what it needs, cut from the row's file: the
	 * host wrapper and the Python binding are not the candidate's to
	 * run inside the judge */
	if (code != NULL)
		json_object_set_new(cand, "code", json_string(code));
	else if (json_is_string(r->code))
		json_object_set(cand, "code", r->code);
	else {
		/* not sliced: the file of the candidate's that holds it */
		json_t *f;
		size_t i;
		const char *file = k_get_str(scan, "file");
		json_array_foreach(r->code, i, f)
			if (file != NULL && strcmp(file, k_get_str(f,
			    "path")) == 0)
				json_object_set(cand, "code",
				    json_object_get(f, "content"));
	}
	json_object_set_new(cand, "dialect", json_string(d != NULL &&
	    strcmp(d, "hip") == 0 ? "hip" : "cuda"));
	json_object_set_new(cand, "source", json_sprintf("%s:%lu", at->file,
	    at->line));
	if (r->model != NULL)
		json_object_set_new(cand, "model", json_string(r->model));
	k = json_object();
	json_object_set(k, "id", json_object_get(c, "id"));
	json_object_set(k, "line", json_object_get(scan, "line"));
	json_object_set(k, "launches", json_object_get(scan, "launches"));
	json_object_set_new(cand, "kernel", k);
	if ((h = memory_history(at->run, r->filename)) != NULL)
		json_object_set_new(cand, "history", h);
	return cand;
}

/* Turn one foreign row into records: one per kernel its candidate
 * defines (one per instantiation after kslice), or per kernel of its
 * reference when it has no candidate; one error record when none. */
static int
process_row(json_t *row, const struct at *at)
{
	struct row r;
	const char *code = NULL;
	char why[512];
	json_t *local = NULL, *cands = NULL, *c, *test = NULL;
	size_t i, n;
	int rc = 0, nref;

	if (read_row(row, opt.format, &r, &code) != 0) {
		rc = emit_error(row, &r, at, code, r.why);
		row_free(&r);
		return rc;
	}
	if (r.label != NULL && (local = scan_code(r.label, r.filename, why,
	    sizeof(why))) == NULL && r.code == NULL) {
		rc = emit_error(row, &r, at, "scan-failed", why);
		goto out;
	}
	if (r.code != NULL && (cands = scan_code(r.code, r.filename, why,
	    sizeof(why))) == NULL) {
		rc = emit_error(row, &r, at, "no-kernel", why);
		goto out;
	}
	memory_note_code(at->run, r.filename, at->iter, r.code);
	if (opt.run_tests)
		test = own_test(&r);
	if (cands == NULL) {
		/* a problem without a solution: its baseline is the task */
		json_array_foreach(local, i, c) {
			json_t *rec = json_deep_copy(c), *imp;
			imp = import_section(&r, at);
			json_object_set_new(imp, "reference",
			    json_string("row"));
			json_object_set_new(imp, "kernels",
			    json_integer((json_int_t)json_array_size(local)));
			json_object_set_new(rec, "import", imp);
			if ((rc = emit(rec)) != 0)
				goto out;
		}
		goto out;
	}
	n = json_array_size(cands);
	nref = (int)json_array_size(local);
	json_array_foreach(cands, i, c) {
		json_t *ref = refs_match_borrowed(c, local), *rec, *imp;
		const char *how = "none";
		int from_row = 0;
		size_t j;
		json_t *l;

		json_array_foreach(local, j, l)
			if (l == ref)
				from_row = 1;
		if (ref == NULL && nref == 1 && n == 1 &&
		    json_is_object(json_object_get(c, "slice"))) {
			/* one kernel each side under other names or
			 * signatures: kbuild's pass_call says so */
			ref = json_array_get(local, 0);
			from_row = 1;
		}
		if (ref != NULL && json_is_object(json_object_get(ref,
		    "slice"))) {
			rec = json_deep_copy(ref);
			how = from_row ? "row" : "records";
		} else
			rec = json_deep_copy(c);
		json_object_set_new(rec, "candidate", candidate_of(c, &r, at));
		imp = import_section(&r, at);
		json_object_set_new(imp, "reference", json_string(how));
		json_object_set_new(imp, "kernels", json_integer((json_int_t)n));
		if (test != NULL)
			json_object_set(imp, "test", test);
		json_object_set_new(rec, "import", imp);
		if ((rc = emit(rec)) != 0)
			break;
	}
out:
	json_decref(test);
	json_decref(local);
	json_decref(cands);
	row_free(&r);
	return rc;
}

int
main(int argc, char *argv[])
{
	struct k_reader rd;
	int i, first, bad, rc, failed = 0;
	json_t *rec;

	opt.timeout = 300;
	opt.mem_mb = 8192;
	first = k_main(argc, argv, &tool, NULL);
	argc -= first;
	argv += first;
	k_signals_init();
	k_work_dir(work, opt.work);
	find_tool("kscan", opt.kscan);
	find_tool("kslice", opt.kslice);
	if (reference != NULL)
		refs_load(reference);

	for (i = 0; !failed && i < (argc > 0 ? argc : 1); i++) {
		const char *name = argc > 0 ? argv[i] : "-";
		FILE *fp = stdin;
		struct at at;
		char *mem = NULL, *run = NULL;

		memset(&at, 0, sizeof(at));
		if (strcmp(name, "-") != 0 &&
		    (fp = fopen(name, "r")) == NULL) {
			k_warn(K_EXIT_IO, name, "%s", strerror(errno));
			continue;
		}
		at.file = fp == stdin ? "<stdin>" : name;
		if (fp == stdin && opt.memory != NULL)
			mem = k_strdup(opt.memory);
		else if (fp != stdin)
			mem = memory_path_of(name, &run, &at.iter);
		if (mem != NULL && (access(mem, R_OK) == 0 ||
		    opt.memory != NULL)) {
			at.run = run != NULL ? run : "-";
			memory_load(mem, at.run, at.iter);
		}
		k_reader_init(&rd, fp, at.file, STAGE);
		while ((rc = k_read(&rd, &rec, &bad)) == 1) {
			k_msg_at(at.file, rd.lineno);
			at.line = rd.lineno;
			if (bad)
				failed = emit(rec) != 0;
			else {
				failed = process_row(rec, &at) != 0;
				json_decref(rec);
			}
			k_msg_at(NULL, 0);
			if (failed)
				break;
		}
		k_reader_free(&rd);
		if (fp != stdin)
			fclose(fp);
		free(mem);
		free(run);
	}
	memory_free();
	refs_free();
	return k_finish();
}
