/*
 * kwrap: give every sliced kernel a typed spec (parameter roles, element
 * types and counts, fills, launch configuration, test cases), a host
 * harness generated from that spec for CUDA or HIP, and an instruction in
 * a detailed and a concise form.  Deterministic: no language model.
 *
 * Inference reads the kernel's own tokens: guards such as "if (i < n)",
 * grid-stride loops and CUDA_1D_KERNEL_LOOP bound index variables, and
 * element counts come from symbolic bounds of every access (see
 * access.c).  Whatever it cannot see is guessed and listed in
 * spec.confidence, so that a kernel it does not understand still gets a
 * spec, marked low.
 */
#include "kwrap.h"
#include "k_main.h"
#include "k_num.h"

static const char usage_line[] =
    "usage: kwrap [-hqV] [--dialect cuda | hip] [--spec file] [--llm tasks]\n"
    "             [--model name] [--url url] [--mutants n] [--switch-cases n]\n"
    "             [--survivor-cases n] [-j jobs] [--candidate-dialect cuda | hip]\n"
    "             [--rounds n] [--temperature t] [--max-tokens n]\n"
    "             [--timeout seconds] [--retries n] [--max-response bytes]\n"
    "             [--no-cache] [file ...]\n";

static struct {
	const char *dialect;	/* forced, or NULL for scan.dialect */
	json_t *user;		/* id -> user spec object */
	int mutants;		/* --mutants: at most this many, 0 none */
	int switches;		/* --switch-cases: cases added, at most */
	int survivors;		/* --survivor-cases: the same */
} opt = { .switches = 8 };

/* One record: infer the kernel model, make the spec (a user's overlaid),
 * wrap it in a harness and an instruction. */
static json_t *
process(json_t *rec, void *ctx)
{
	json_t *scan = json_object_get(rec, "scan");
	json_t *slice = json_object_get(rec, "slice");
	json_t *spec, *user = NULL, *wrap, *ref;
	struct kern *k;
	const char *dialect, *why, *id = k_id_borrowed(rec);
	char verr[512];

	(void)ctx;
	if (!json_is_object(scan) || !json_is_object(slice) ||
	    !json_is_array(json_object_get(scan, "params"))) {
		k_fail(rec, STAGE, "no-slice", "%s: record has no scan.params "
		    "and slice to wrap", k_id_text(rec));
		return rec;
	}
	if (opt.user != NULL && id != NULL)
		user = json_object_get(opt.user, id);
	(void)text_cuts(1);
	(void)token_cuts(1);
	k = kern_infer(rec);
	spec = spec_of(k, user);
	if (user == NULL) {
		kw_switch_cases(k_get_str(slice, "code"), k_get_str(scan,
		    "name"), spec, opt.switches);
		kw_boundary_cases(k_get_str(slice, "code"), k_get_str(scan,
		    "name"), spec, opt.switches);
		kw_size_guard_cases(k_get_str(slice, "code"), k_get_str(scan,
		    "name"), spec, opt.switches);
		kw_loop_entry_cases(k_get_str(slice, "code"),
		    k_get_str(scan, "name"), spec, opt.switches);
		kw_grid_cases(k_get_str(slice, "code"), k_get_str(scan,
		    "name"), spec, opt.switches);
		kw_nonfinite_cases(k_get_str(slice, "code"), k_get_str(scan,
		    "name"), spec, opt.switches);
		kw_survivor_cases(rec, spec, opt.survivors);
		/* the cases added keep what the launch keeps */
		launch_cases(k, spec);
	}
	dialect = opt.dialect != NULL ? opt.dialect : k_get_str(scan, "dialect");
	if (dialect == NULL || strcmp(dialect, "hip") != 0)
		dialect = "cuda";
	wrap = json_pack("{s:o}", "spec", spec);
	/* a CPU reference from an earlier run, or a user, stays */
	if ((ref = json_object_get(json_object_get(rec, "wrap"),
	    "reference_cpu")) != NULL)
		json_object_set(wrap, "reference_cpu", ref);
	/* a spec with a cut expression is the too-long error below */
	if (user == NULL && byvalue_unbuilt(k, verr, sizeof(verr)) != 0)
		k_fail(rec, STAGE, "bad-spec", "%s: %s", k_id_text(rec), verr);
	else if (text_cuts(0) == 0 &&
	    spec_validate(spec, verr, sizeof(verr)) != 0)
		k_fail(rec, STAGE, "bad-spec", "%s: %s", k_id_text(rec), verr);
	else if (wrap_harness(rec, wrap, spec, dialect, &why) != 0)
		k_fail(rec, STAGE, "bad-spec", "%s: %s", k_id_text(rec), why);
	if (text_cuts(1) > 0) {
		/* a cut expression would be a wrong one: no wrap at all */
		if (token_cuts(1) > 0)
			k_fail(rec, STAGE, "too-long", "%s: the slice has more "
			    "than %d tokens", k_id_text(rec), MAX_TOKENS);
		else
			k_fail(rec, STAGE, "too-long", "%s: an expression is "
			    "longer than %d bytes", k_id_text(rec),
			    MAX_EXPR - 1);
		json_decref(wrap);
	} else {
		if (opt.mutants > 0 && k_get_str(slice, "code") != NULL) {
			json_t *m = kw_mutants(k_get_str(slice, "code"),
			    k_get_str(scan, "name"), opt.mutants);
			kw_equivalent(k_get_str(slice, "code"), k_get_str(scan,
			    "name"), json_object_get(slice, "instance"),
			    json_object_get(wrap, "spec"), m);
			json_object_set_new(wrap, "mutants", m);
		}
		k_set_section(rec, "wrap", wrap);
	}
	kern_free(k);
	return rec;
}

/* kwrap_llm.c's hook: wrap rec again from a spec the model completed. */
static int
rewrap(json_t *rec, json_t *spec, char *why, size_t cap)
{
	json_t *wrap = json_object_get(rec, "wrap");
	const char *dialect, *w = "?";

	dialect = opt.dialect != NULL ? opt.dialect :
	    k_get_str(json_object_get(rec, "scan"), "dialect");
	if (dialect == NULL || strcmp(dialect, "hip") != 0)
		dialect = "cuda";
	if (spec_validate(spec, why, cap) != 0)
		return -1;
	/* wrap_harness changes wrap only when the spec gives a harness */
	if (wrap_harness(rec, wrap, spec, dialect, &w) != 0) {
		snprintf(why, cap, "%s", w);
		return -1;
	}
	json_object_set(wrap, "spec", spec);
	return 0;
}

static void
filter(FILE *fp, const char *name)
{
	if (kw_llm_enabled())
		kw_llm_filter(fp, name, process, rewrap);
	else
		k_filter(fp, name, STAGE, process, NULL);
}

/* --spec FILE: NDJSON, each line {"id": ..., "spec": {...}} (or the
 * record's own wrap.spec); later lines win. */
static void
load_user(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;

	if (fp == NULL)
		k_fatal(K_EXIT_USAGE, path, "%s", strerror(errno));
	opt.user = json_object();
	while ((n = getline(&line, &cap, fp)) > 0) {
		json_error_t err;
		json_t *o, *s;
		char where[4200];
		lineno++;
		snprintf(where, sizeof(where), "%s:%lu", path, lineno);
		if (strspn(line, " \t\r\n") == (size_t)n)
			continue;
		o = json_loadb(line, (size_t)n, JSON_REJECT_DUPLICATES, &err);
		if (!json_is_object(o))
			k_fatal(K_EXIT_USAGE, where, "invalid JSON: %s",
			    o == NULL ? err.text : "not an object");
		s = json_object_get(o, "spec");
		if (s == NULL)
			s = json_object_get(json_object_get(o, "wrap"), "spec");
		if (k_get_str(o, "id") == NULL || !json_is_object(s))
			k_fatal(K_EXIT_USAGE, where, "expected \"id\" and "
			    "\"spec\"");
		json_object_set(opt.user, k_get_str(o, "id"), s);
		json_decref(o);
	}
	free(line);
	fclose(fp);
}

static void
option(int ch, const char *arg, void *ctx)
{
	(void)ctx;
	switch (ch) {
	case 'x':
		if (strcmp(arg, "cuda") != 0 && strcmp(arg, "hip") != 0)
			k_fatal(K_EXIT_USAGE, NULL, "--dialect: expected cuda or "
			    "hip: %s", arg);
		opt.dialect = arg;
		break;
	case 's':
		load_user(arg);
		break;
	case 'M':
	case 'C':
	case 'S': {
		long long v;
		if (k_num_ll(arg, 10, 0, 10000, &v) != 0)
			k_fatal(K_EXIT_USAGE, NULL, "--%s: expected 0 to 10000: "
			    "%s", ch == 'M' ? "mutants" : ch == 'C' ?
			    "switch-cases" : "survivor-cases", arg);
		*(ch == 'M' ? &opt.mutants : ch == 'C' ? &opt.switches :
		    &opt.survivors) = (int)v;
		break;
	}
	default:
		if (!kw_llm_option(ch, arg))
			k_fatal(K_EXIT_USAGE, NULL, "unknown option");
	}
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "dialect", required_argument, NULL, 'x' },
		{ "spec", required_argument, NULL, 's' },
		{ "mutants", required_argument, NULL, 'M' },
		{ "switch-cases", required_argument, NULL, 'C' },
		{ "survivor-cases", required_argument, NULL, 'S' },
		KW_LLM_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	static const struct k_tool tool = { usage_line, KW_LLM_SHORTOPTS,
	    longopts, option, NULL, 0, -1 };
	int i;

	i = k_main(argc, argv, &tool, NULL);
	argc -= i;
	argv += i;
	kw_llm_start();
	if (argc == 0)
		filter(stdin, "<stdin>");
	for (i = 0; i < argc; i++) {
		FILE *fp;
		if (strcmp(argv[i], "-") == 0) {
			filter(stdin, "<stdin>");
			continue;
		}
		if ((fp = fopen(argv[i], "r")) == NULL) {
			k_warn(K_EXIT_IO, argv[i], "%s", strerror(errno));
			continue;
		}
		filter(fp, argv[i]);
		fclose(fp);
	}
	json_decref(opt.user);
	kw_llm_end();
	return k_finish();
}
