/*
 * kreport --export: one dataset row per record, kforge's own shape or the
 * fields TritonBench-style datasets use.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "k_record.h"
#include "kreport.h"

/* ------------------------------------------------------------ export */

static json_t *
verdict(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *
copy_or_null(json_t *v)
{
	return v != NULL ? json_deep_copy(v) : json_null();
}

/* A file name for the TritonBench row: the kernel's name, safe bytes. */
static json_t *
filename_of(struct info *in)
{
	json_t *scan = json_object_get(in->rec, "scan");
	const char *name = k_get_str(scan, "name"), *dia;
	char *d = dir_name(name != NULL ? name : in->id), *dash;
	json_t *r;

	/* the hash keeps folder names apart; here the id does */
	if ((dash = strrchr(d, '-')) != NULL)
		*dash = '\0';
	dia = k_get_str(json_object_get(in->rec, "candidate"), "dialect");
	if (dia == NULL)
		dia = k_get_str(scan, "dialect");
	r = json_sprintf("%s.%s", d, dia != NULL && strcmp(dia, "hip") ==
	    0 ? "hip" : "cu");
	free(d);
	return r;
}

void
export_row(struct info *in)
{
	json_t *rec = in->rec, *slice = json_object_get(rec, "slice");
	json_t *wrap = json_object_get(rec, "wrap");
	json_t *ins = json_object_get(wrap, "instruction");
	json_t *cand = json_object_get(rec, "candidate");
	json_t *verify = json_object_get(rec, "verify"), *row;
	json_t *harness = json_object_get(wrap, "harness");

	if (!json_is_string(json_object_get(slice, "code")))
		return;
	row = json_object();
	if (opt.export == X_TRITON) {
		json_object_set_new(row, "instruction", copy_or_null(
		    json_object_get(ins, "detailed")));
		json_object_set_new(row, "label", copy_or_null(
		    json_object_get(slice, "code")));
		json_object_set_new(row, "predict", copy_or_null(
		    json_object_get(cand, "code")));
		json_object_set_new(row, "test_code", copy_or_null(
		    json_object_get(harness, "code")));
		json_object_set_new(row, "filename", filename_of(in));
		json_object_set_new(row, "pass_call", verdict(in->call));
		json_object_set_new(row, "pass_exe", verdict(in->exe));
		json_object_set_new(row, "pass_perf", verdict(in->perf));
		json_object_set_new(row, "id", json_string(in->id));
	} else {
		json_t *v = json_object();
		json_object_set_new(row, "id", json_string(in->id));
		json_object_set_new(row, "task", json_string(in->task));
		json_object_set_new(row, "project", json_string(in->project));
		json_object_set_new(row, "dialect", json_string(in->dialect));
		json_object_set_new(row, "kernel", copy_or_null(
		    json_object_get(slice, "symbol")));
		json_object_set_new(row, "instruction", copy_or_null(ins));
		json_object_set_new(row, "code", json_deep_copy(
		    json_object_get(slice, "code")));
		json_object_set_new(row, "tags", copy_or_null(
		    json_object_get(slice, "tags")));
		json_object_set_new(row, "spec", copy_or_null(
		    json_object_get(wrap, "spec")));
		json_object_set_new(row, "harness", copy_or_null(harness));
		if (json_is_object(cand))
			json_object_set_new(row, "candidate", json_pack(
			    "{so so}", "code", copy_or_null(
			    json_object_get(cand, "code")), "dialect",
			    copy_or_null(json_object_get(cand, "dialect"))));
		else
			json_object_set_new(row, "candidate", json_null());
		json_object_set_new(v, "built", json_is_object(
		    json_object_get(rec, "build")) ? json_boolean(json_is_true(
		    json_object_get(json_object_get(json_object_get(rec,
		    "build"), "reference"), "ok"))) : json_null());
		json_object_set_new(v, "deterministic", copy_or_null(
		    json_object_get(verify, "deterministic")));
		{
			json_t *mv = json_object_get(verify, "mutation");
			json_object_set_new(v, "mutation", json_is_object(mv) ?
			    json_pack("{sO sO sO sO sO sI sI}", "score",
			    json_object_get(mv, "score"), "tried",
			    json_object_get(mv, "tried"), "killed",
			    json_object_get(mv, "killed"), "survived",
			    json_object_get(mv, "survived"), "equivalent",
			    json_object_get(mv, "equivalent"),
			    "spec_equivalent", k_get_int(mv, "spec_equivalent",
			    0), "contradictions", k_get_int(mv,
			    "contradictions", 0)) : json_null());
		}
		json_object_set_new(v, "tolerance", copy_or_null(
		    json_object_get(verify, "tolerance")));
		json_object_set_new(v, "degenerate", json_is_object(verify) ?
		    json_boolean(json_array_size(json_object_get(verify,
		    "degenerate")) > 0) : json_null());
		json_object_set_new(v, "pass_call", verdict(in->call));
		json_object_set_new(v, "pass_exe", verdict(in->exe));
		json_object_set_new(v, "pass_perf", verdict(in->perf));
		json_object_set_new(v, "speedup", in->has_sp ?
		    json_real(in->sp) : json_null());
		json_object_set_new(row, "verdicts", v);
		json_object_set_new(row, "failures", json_deep_copy(
		    in->classes));
	}
	k_write(row);
	json_decref(row);
}

