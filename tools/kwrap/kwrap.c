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
#include <getopt.h>

#include "kwrap.h"

static const char usage_line[] =
    "usage: kwrap [-hqV] [--dialect cuda | hip] [--spec file] [--llm tasks]\n"
    "             [--model name] [--url url] [-j jobs] [file ...]\n";

static struct {
	const char *dialect;	/* forced, or NULL for scan.dialect */
	json_t *user;		/* id -> user spec object */
} opt;

/* Overlay user onto spec: objects merge key by key, "params" by name,
 * anything else is replaced. */
static void
merge(json_t *spec, json_t *user)
{
	const char *key;
	json_t *v;

	json_object_foreach(user, key, v) {
		json_t *old = json_object_get(spec, key);
		if ((strcmp(key, "params") == 0 ||
		    strcmp(key, "globals") == 0) && json_is_array(v) &&
		    json_is_array(old)) {
			size_t i, j;
			json_t *up, *op;
			json_array_foreach(v, i, up) {
				int found = 0;
				json_array_foreach(old, j, op)
					if (k_get_str(up, "name") && k_get_str(op,
					    "name") && strcmp(k_get_str(up, "name"),
					    k_get_str(op, "name")) == 0) {
						merge(op, up);
						found = 1;
					}
				if (!found)
					json_array_append(old, up);
			}
		} else if (json_is_object(v) && json_is_object(old))
			merge(old, v);
		else
			json_object_set(spec, key, v);
	}
}

static json_t *
harness_json(const char *dialect, const char *code, int oracle)
{
	return json_pack("{s:s,s:s,s:s,s:b}", "dialect", dialect, "code", code,
	    "build", strcmp(dialect, "hip") == 0 ?
	    "hipcc -std=c++17 -O2 harness.hip -o harness" :
	    "nvcc -std=c++17 -O2 -x c++ -cudart none harness.cu -o harness "
	    "-L$CUDA/lib64/stubs -lcuda", "oracle", oracle);
}

/*
 * Put spec's harness, and the instruction, into wrap.  A CPU reference in
 * wrap.reference_cpu (from --llm reference, or put there by hand) is
 * compiled into the harness when C can express the kernel's types;
 * reference_cpu.oracle says whether it was, and why not.  Returns -1
 * with *why set when the spec gives no harness.
 */
static int
wrap_harness(json_t *rec, json_t *wrap, json_t *spec, const char *dialect,
    const char **why)
{
	json_t *ref = json_object_get(wrap, "reference_cpu");
	const char *code = k_get_str(ref, "code"), *no = NULL;
	const char *id = k_id_borrowed(rec);
	const char *name = k_get_str(json_object_get(rec, "scan"), "name");
	char fn[160];
	char *harness;

	if (json_is_object(ref)) {
		if (code == NULL || *code == '\0')
			no = "reference_cpu has no code";
		else if (name == NULL || !is_ident(name))
			no = "the kernel has no plain name to call the "
			    "reference by";
		else
			no = kw_oracle_unsupported(spec);
		snprintf(fn, sizeof(fn), "%s_cpu", name != NULL ? name : "");
		if (no == NULL && !defines_function(code, fn))
			no = "reference_cpu does not define the function "
			    "KERNEL_cpu";
	}
	harness = gen_harness(spec, dialect, id != NULL ? id : "?",
	    ref != NULL && no == NULL ? code : NULL, fn, why);
	if (harness == NULL)
		return -1;
	if (json_is_object(ref)) {
		json_object_set_new(ref, "oracle", json_boolean(no == NULL));
		if (no != NULL)
			json_object_set_new(ref, "why", json_string(no));
		else
			json_object_del(ref, "why");
	}
	json_object_set_new(wrap, "harness", harness_json(dialect, harness,
	    ref != NULL && no == NULL));
	free(harness);
	json_object_set_new(wrap, "instruction", gen_instruction(rec, spec,
	    dialect));
	return 0;
}

static json_t *
process(json_t *rec, void *ctx)
{
	json_t *scan = json_object_get(rec, "scan");
	json_t *slice = json_object_get(rec, "slice");
	json_t *launch, *spec, *user, *wrap, *ref;
	struct kern *k;
	const char *dialect, *why, *id = k_id_borrowed(rec);
	int i;

	(void)ctx;
	if (!json_is_object(scan) || !json_is_object(slice) ||
	    !json_is_array(json_object_get(scan, "params"))) {
		k_fail(rec, STAGE, "no-slice", "%s: record has no scan.params "
		    "and slice to wrap", k_id_text(rec));
		return rec;
	}
	if ((k = calloc(1, sizeof(*k))) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	k->rec = rec;
	k->guesses = json_array();
	k->code = k_get_str(slice, "code");
	tokenize(k->code != NULL ? k->code : "", &k->all);
	collect_consts(k->code != NULL ? k->code : "", &k->all, &k->c);
	{
		/* template value parameters of the instance are constants */
		json_t *inst = json_object_get(slice, "instance"), *v;
		const char *key;
		long long n;
		json_object_foreach(inst, key, v)
			if (json_is_string(v) &&
			    eval_str(json_string_value(v), &k->c, &n))
				const_set(&k->c, key, n);
	}
	load_params(k, scan, slice);
	kernel_text(k, k_get_str(scan, "text"));
	for (k->body = 0; k->body < k->t.n && !is(&k->t, k->body, "{");
	    k->body++)
		;
	if (k->body == k->t.n)
		k->body = 0;
	find_vars(k);
	if (k->t.n == 0)
		guess(k, "kernel text not found");
	infer_roles(k, slice);
	launch = json_object_get(slice, "launch");
	if (!json_is_object(launch))
		launch = json_array_get(json_object_get(scan, "launches"), 0);
	infer_block(k, launch);
	/* a guard's bound may name gridDim, and the grid is the bounds'
	 * range: rounds until no new bound comes */
	for (i = 0; i < 8; i++) {
		infer_grid(k, 0);
		if (find_bounds(k) == 0)
			break;
	}
	infer_grid(k, 1);
	infer_shared(k, launch);
	if ((k->at = calloc(1, sizeof(*k->at))) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	if (is(&k->t, k->body, "{"))
		k->kf = fn_new(k, &k->t, k->body, 0, 1);
	{
		const char *dom = NULL;
		int n;
		for (n = 0; n < k->nv; n++)
			if (k->v[n].kind == V_GLOBAL && k->v[n].bound[0] != '\0') {
				dom = k->v[n].bound;
				break;
			}
		for (i = 0; i < k->np; i++)
			if (k->p[i].ptr)
				count_of(k, i, dom);
		shared_of(k);
	}
	spec = build_spec(k, k_get_str(slice, "symbol") ? k_get_str(slice,
	    "symbol") : k_get_str(scan, "name") ? k_get_str(scan, "name") : "?");
	{
		json_t *g = find_globals(k);
		if (json_array_size(g) > 0)
			json_object_set_new(spec, "globals", g);
		else
			json_decref(g);
	}
	if (opt.user != NULL && id != NULL &&
	    (user = json_object_get(opt.user, id)) != NULL) {
		merge(spec, user);
		json_object_set_new(spec, "source", json_string("user"));
		if (json_object_get(user, "confidence") == NULL) {
			json_t *conf = json_object_get(spec, "confidence");
			const char *parts[] = { "roles", "counts", "launch", "cases" };
			const char *ukeys[] = { "params", "params", "launch", "cases" };
			int low = 0;
			for (i = 0; i < 4; i++) {
				if (json_object_get(user, ukeys[i]) != NULL)
					json_object_set_new(conf, parts[i],
					    json_string("high"));
				low |= strcmp(k_get_str(conf, parts[i]) ?
				    k_get_str(conf, parts[i]) : "low", "high") != 0;
			}
			json_object_set_new(conf, "overall", json_string(low ?
			    "low" : "high"));
		}
	}
	user = opt.user != NULL && id != NULL ? json_object_get(opt.user, id) :
	    NULL;
	if (user == NULL || json_object_get(user, "cases") == NULL)
		fit_cases(spec, &k->c);
	dialect = opt.dialect != NULL ? opt.dialect : k_get_str(scan, "dialect");
	if (dialect == NULL || strcmp(dialect, "hip") != 0)
		dialect = "cuda";
	wrap = json_pack("{s:o}", "spec", spec);
	/* a CPU reference from an earlier run, or a user, stays */
	if ((ref = json_object_get(json_object_get(rec, "wrap"),
	    "reference_cpu")) != NULL)
		json_object_set(wrap, "reference_cpu", ref);
	if (wrap_harness(rec, wrap, spec, dialect, &why) != 0)
		k_fail(rec, STAGE, "bad-spec", "%s: %s", k_id_text(rec), why);
	k_set_section(rec, "wrap", wrap);
	toks_free(&k->t);
	toks_free(&k->all);
	json_decref(k->guesses);
	if (k->kf != NULL)
		fn_free(k->kf);
	free(k->at);
	free(k);
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

static void
usage(void)
{
	fputs(usage_line, stderr);
	exit(K_EXIT_USAGE);
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

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "dialect", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "spec", required_argument, NULL, 's' },
		{ "version", no_argument, NULL, 'V' },
		KW_LLM_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	int ch, i;

	k_msg_init(argv[0]);
	while ((ch = getopt_long(argc, argv, "hqV" KW_LLM_SHORTOPTS, longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'q':
			k_msg_quiet(1);
			break;
		case 'x':
			if (strcmp(optarg, "cuda") != 0 && strcmp(optarg, "hip") != 0)
				k_fatal(K_EXIT_USAGE, NULL, "--dialect: expected "
				    "cuda or hip: %s", optarg);
			opt.dialect = optarg;
			break;
		case 's':
			load_user(optarg);
			break;
		case 'V':
			printf("kwrap (kforge) 0.1\n");
			return k_finish();
		case 'h':
			fputs(usage_line, stdout);
			return k_finish();
		default:
			if (!kw_llm_option(ch, optarg))
				usage();
		}
	}
	argc -= optind;
	argv += optind;
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
