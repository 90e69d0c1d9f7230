/*
 * kwrap --llm TASK[,TASK...]: the tasks, their prompts (files with
 * {{name}} placeholders), validation of the answers with one retry that
 * shows the model its error, and where each result goes in the record.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "k_buf.h"
#include "k_exit.h"
#include "k_fs.h"
#include "k_hash.h"
#include "k_llm.h"
#include "k_main.h"
#include "k_msg.h"
#include "k_proc.h"
#include "k_record.h"
#include "kwrap.h"

#define STAGE "kwrap"
#define MAX_STRATEGY 2000
#define MAX_ERROR_TEXT 6000

enum task { T_SPEC, T_REFERENCE, T_TESTS, T_CANDIDATE, T_TRANSLATE,
    T_REPAIR, T_RETRY, T_SYSTEM, NTASKS };

static const char *const task_names[NTASKS] = { "spec", "reference",
    "tests", "candidate", "translate", "repair", "retry", "system" };

struct prompt {
	char *text;
	char sha[K_SHA256_HEX];
	char *path;
};

static struct {
	unsigned tasks;		/* 1 << enum task */
	const char *cand_dialect;
	int rounds;
	int nocache;
	int have_conf;
	struct k_llm_conf conf;
	struct k_llm *llm;
	struct prompt p[NTASKS];
	kw_rewrap_fn rewrap;
} L;

/* ------------------------------------------------------------ options */

static void
conf_once(void)
{
	char err[256];

	if (L.have_conf)
		return;
	if (k_llm_conf_env(&L.conf, err, sizeof(err)) != 0)
		k_fatal(K_EXIT_USAGE, NULL, "%s", err);
	L.have_conf = 1;
	L.rounds = 3;
}

static void
parse_tasks(const char *arg)
{
	char buf[256], *s, *save = NULL;
	int t;

	if (strlen(arg) >= sizeof(buf))
		k_fatal(K_EXIT_USAGE, NULL, "--llm: list too long");
	strcpy(buf, arg);
	for (s = strtok_r(buf, ",", &save); s != NULL;
	    s = strtok_r(NULL, ",", &save)) {
		for (t = 0; t < T_RETRY; t++)
			if (strcmp(s, task_names[t]) == 0)
				break;
		if (t == T_RETRY)
			k_fatal(K_EXIT_USAGE, NULL, "--llm: unknown task: %s "
			    "(spec, reference, tests, candidate, translate, "
			    "repair)", s);
		L.tasks |= 1U << t;
	}
	if (L.tasks == 0)
		k_fatal(K_EXIT_USAGE, NULL, "--llm: no task given");
}

int
kw_llm_option(int ch, const char *arg)
{
	if (ch != 'j' && (ch < OPT_LLM || ch >= OPT_LLM_END))
		return 0;
	conf_once();
	switch (ch) {
	case OPT_LLM:
		parse_tasks(arg);
		break;
	case OPT_MODEL:
		L.conf.model = arg;
		break;
	case OPT_URL:
		L.conf.url = arg;
		break;
	case OPT_TEMPERATURE:
		L.conf.temperature = k_opt_double("--temperature", arg, 0, 2,
		    "a number from 0 to 2");
		break;
	case OPT_MAX_TOKENS:
		L.conf.max_tokens = (long)k_opt_ll("--max-tokens", arg, 1, 10000000);
		break;
	case OPT_TIMEOUT:
		L.conf.timeout_s = k_opt_double("--timeout", arg, 0.001, 86400,
		    "a number of seconds from 0.001 to 86400");
		break;
	case OPT_RETRIES:
		L.conf.retries = (int)k_opt_ll("--retries", arg, 0, 100);
		break;
	case OPT_CANDIDATE_DIALECT:
		if (strcmp(arg, "cuda") != 0 && strcmp(arg, "hip") != 0)
			k_fatal(K_EXIT_USAGE, NULL, "--candidate-dialect: "
			    "expected cuda or hip: %s", arg);
		L.cand_dialect = arg;
		break;
	case OPT_ROUNDS:
		L.rounds = (int)k_opt_ll("--rounds", arg, 1, 100);
		break;
	case OPT_MAX_RESPONSE:
		L.conf.max_response = (size_t)k_opt_ll("--max-response", arg,
		    1024, 1024LL * 1024 * 1024);
		break;
	case OPT_NO_CACHE:
		L.nocache = 1;
		break;
	case 'j':
		L.conf.jobs = (int)k_opt_ll("-j", arg, 1, 256);
		break;
	default:
		return 0;
	}
	return 1;
}

int
kw_llm_enabled(void)
{
	return L.tasks != 0;
}

/* ------------------------------------------------------------ prompts */

#define MAX_PROMPT (1024 * 1024)	/* bytes of one prompt template */

static int
load_prompt(struct prompt *p, const char *dir, const char *name)
{
	char *path = k_asprintf("%s/%s.md", dir, name);
	size_t n;

	if ((p->text = k_file_read(path, MAX_PROMPT, &n)) == NULL) {
		if (errno != ENOENT)
			k_fatal(K_EXIT_SYSTEM, path, "cannot read prompt: %s",
			    strerror(errno));
		free(path);
		return -1;
	}
	k_sha256_hex(p->text, n, p->sha);
	p->path = path;
	return 0;
}

/* KFORGE_PROMPTS, else prompts/ next to the binary (a build tree), else
 * share/kforge/prompts beside its bin/ (an installed kforge). */
static void
load_prompts(void)
{
	char *dirs[2] = { NULL, NULL };
	int nd = k_data_dirs("KFORGE_PROMPTS", "prompts", dirs), t, d;

	for (t = 0; t < NTASKS; t++) {
		if (t < T_RETRY && !(L.tasks & (1U << t)))
			continue;
		for (d = 0; d < nd; d++)
			if (load_prompt(&L.p[t], dirs[d], task_names[t]) == 0)
				break;
		if (d == nd)
			k_fatal(K_EXIT_USAGE, NULL, "prompt %s.md not found in "
			    "%s (set KFORGE_PROMPTS)", task_names[t],
			    nd > 0 ? dirs[0] : "prompts");
	}
	for (d = 0; d < nd; d++)
		free(dirs[d]);
}

/* The template with each {{key}} replaced by its value; unknown
 * placeholders stay as they are.  malloc'd. */
static char *
fill(const char *tmpl, const char *const *kv)
{
	size_t cap = strlen(tmpl) + 1, o = 0, i;
	const char *p = tmpl;
	char *out;

	for (i = 0; kv[i] != NULL; i += 2) {
		const char *q = tmpl;
		while ((q = strstr(q, "{{")) != NULL) {
			cap += strlen(kv[i + 1]);
			q += 2;
		}
	}
	out = k_malloc(cap);
	while (*p != '\0') {
		if (p[0] == '{' && p[1] == '{') {
			for (i = 0; kv[i] != NULL; i += 2) {
				size_t kl = strlen(kv[i]);
				if (strncmp(p + 2, kv[i], kl) == 0 &&
				    strncmp(p + 2 + kl, "}}", 2) == 0)
					break;
			}
			if (kv[i] != NULL) {
				size_t vl = strlen(kv[i + 1]);
				memcpy(out + o, kv[i + 1], vl);
				o += vl;
				p += 4 + strlen(kv[i]);
				continue;
			}
		}
		out[o++] = *p++;
	}
	out[o] = '\0';
	return out;
}

void
kw_llm_start(void)
{
	char err[512];

	if (!kw_llm_enabled()) {
		if (L.have_conf)
			k_fatal(K_EXIT_USAGE, NULL, "LLM options need --llm "
			    "TASK[,TASK...]");
		return;
	}
	if ((L.tasks & (1U << T_CANDIDATE)) && (L.tasks & (1U << T_TRANSLATE)))
		k_fatal(K_EXIT_USAGE, NULL, "--llm: candidate and translate "
		    "both write the candidate: choose one");
	if ((L.tasks & (1U << T_REPAIR)) && (L.tasks &
	    ((1U << T_CANDIDATE) | (1U << T_TRANSLATE))))
		k_fatal(K_EXIT_USAGE, NULL, "--llm: repair works on an "
		    "existing candidate: run it apart from candidate and "
		    "translate");
	if (L.nocache)
		L.conf.work = NULL;
	load_prompts();
	if ((L.llm = k_llm_new(&L.conf, err, sizeof(err))) == NULL)
		k_fatal(K_EXIT_USAGE, NULL, "%s", err);
}

void
kw_llm_end(void)
{
	int t;

	k_llm_free(L.llm);
	L.llm = NULL;
	for (t = 0; t < NTASKS; t++) {
		free(L.p[t].text);
		free(L.p[t].path);
	}
}

/* ------------------------------------------------------------ jobs */

struct job {
	json_t *rec;		/* borrowed from the batch */
	enum task task;
	int retried;
	int attempts;		/* HTTP requests, both rounds */
	int cached;
	char *prompt;		/* the first user message */
	char *user;		/* what is sent now */
	struct k_llm_req req;
	json_t *value;		/* a valid JSON answer */
	char *code;		/* a valid code answer */
	char *strategy;		/* repair: the model's stated strategy */
	char *error;		/* repair: what went wrong */
	char verr[512];
};

static void
job_free(struct job *j)
{
	free(j->prompt);
	if (j->user != j->prompt)
		free(j->user);
	k_llm_req_clear(&j->req);
	json_decref(j->value);
	free(j->code);
	free(j->strategy);
	free(j->error);
}

static const char *
target_dialect(json_t *rec, enum task t)
{
	const char *d = k_get_str(json_object_get(rec, "scan"), "dialect");

	if (t == T_TRANSLATE)
		return "hip";
	if (t == T_CANDIDATE && L.cand_dialect != NULL)
		return L.cand_dialect;
	if (t == T_REPAIR) {
		d = k_get_str(json_object_get(rec, "candidate"), "dialect");
		return d != NULL && strcmp(d, "hip") == 0 ? "hip" : "cuda";
	}
	return d != NULL && strcmp(d, "hip") == 0 ? "hip" : "cuda";
}

static const char *
kernel_name(json_t *rec)
{
	const char *n = k_get_str(json_object_get(rec, "scan"), "name");

	return n != NULL ? n : "kernel";
}

/* What went wrong with rec's candidate, from kbuild and kverify; NULL when
 * nothing did (or nothing judged it yet).  malloc'd. */
static char *
failure_summary(json_t *rec)
{
	json_t *bc = json_object_get(json_object_get(rec, "build"),
	    "candidate");
	json_t *vc = json_object_get(json_object_get(rec, "verify"),
	    "candidate");
	json_t *v, *c, *o;
	struct k_buf b = { 0 };
	size_t i, k, m;

	if (json_is_object(bc) && json_is_false(json_object_get(bc, "ok"))) {
		k_buf_printf(&b, "It failed to compile.\n");
		json_array_foreach(json_object_get(bc, "diagnostics"), i, v) {
			if (i >= 20)
				break;
			k_buf_printf(&b, "%s:%d: %s: %s\n", k_get_str(v, "file") ?
			    k_get_str(v, "file") : "?", (int)k_get_int(v,
			    "line", 0), k_get_str(v, "severity") ?
			    k_get_str(v, "severity") : "error",
			    k_get_str(v, "message") ? k_get_str(v, "message") :
			    "");
		}
		if (i == 0 && k_get_str(bc, "log") != NULL)
			k_buf_printf(&b, "%.*s\n", MAX_ERROR_TEXT,
			    k_get_str(bc, "log"));
	} else if (json_is_object(vc) && json_array_size(json_object_get(vc,
	    "reasons")) > 0) {
		k_buf_printf(&b, "It compiled but failed verification:");
		json_array_foreach(json_object_get(vc, "reasons"), i, v)
			k_buf_printf(&b, " %s", json_string_value(v) ?
			    json_string_value(v) : "?");
		k_buf_printf(&b, ".\n");
		m = 0;
		json_array_foreach(json_object_get(vc, "cases"), i, c) {
			if (json_is_true(json_object_get(c, "pass")))
				continue;
			json_array_foreach(json_object_get(c, "outputs"), k, o) {
				if (json_is_true(json_object_get(o, "match")) ||
				    m++ >= 8)
					continue;
				k_buf_printf(&b, "case %d, output %s: %d "
				    "mismatches, max abs error %g, first "
				    "mismatch at %d%s%s\n",
				    (int)k_get_int(c, "case", 0),
				    k_get_str(o, "name") ? k_get_str(o,
				    "name") : "?", (int)k_get_int(o,
				    "mismatches", 0), json_number_value(
				    json_object_get(o, "max_abs_err")),
				    (int)k_get_int(o, "first_mismatch", -1),
				    k_get_str(o, "note") ? ": " : "",
				    k_get_str(o, "note") ? k_get_str(o,
				    "note") : "");
			}
		}
	}
	if (b.n > MAX_ERROR_TEXT)
		b.s[MAX_ERROR_TEXT] = '\0';
	return b.s;
}

static char *
dumps_pretty(json_t *j)
{
	char *s = j != NULL ? json_dumps(j, JSON_INDENT(2) |
	    JSON_PRESERVE_ORDER) : NULL;

	return s != NULL ? s : k_strdup("{}");
}

/* Build job's first prompt; 0 when the task does not apply to rec. */
static json_t *llm_section(json_t *);

static int
job_prompt(struct job *j)
{
	json_t *rec = j->rec, *wrap = json_object_get(rec, "wrap");
	json_t *cand = json_object_get(rec, "candidate");
	const char *code = k_get_str(json_object_get(rec, "slice"), "code");
	const char *instr = k_get_str(json_object_get(wrap, "instruction"),
	    "detailed");
	char *spec, rounds[32];
	const char *no;
	struct k_buf hist = { 0 };
	json_t *h, *e;
	size_t i;

	if (!json_is_object(json_object_get(wrap, "spec")))
		return 0;
	if (j->task == T_REFERENCE && (no = oracle_unsupported(
	    json_object_get(wrap, "spec"))) != NULL) {
		/* nothing to compile it into: not worth a request */
		json_object_set_new(llm_section(rec), task_names[j->task],
		    json_pack("{s:b,s:s}", "ok", 0, "skipped", no));
		k_warn(K_EXIT_RECORDS, k_id_borrowed(rec), "--llm reference: "
		    "skipped: %s", no);
		return 0;
	}
	/* a candidate is written from the instruction alone */
	if ((j->task == T_CANDIDATE || j->task == T_REPAIR) && instr == NULL)
		return 0;
	if (j->task == T_REPAIR) {
		h = json_object_get(cand, "history");
		if (k_get_str(cand, "code") == NULL ||
		    (j->error = failure_summary(rec)) == NULL)
			return 0;
		if ((int)json_array_size(h) >= L.rounds) {
			free(j->error);
			j->error = NULL;
			return 0;
		}
		json_array_foreach(h, i, e)
			k_buf_printf(&hist, "round %d: %s\nstrategy: %s\n\n",
			    (int)k_get_int(e, "round", (json_int_t)i),
			    k_get_str(e, "error") ? k_get_str(e, "error") :
			    "?", k_get_str(e, "strategy") ? k_get_str(e,
			    "strategy") : "(none stated)");
		code = k_get_str(cand, "code");
	}
	if (hist.s == NULL)
		k_buf_printf(&hist, "(none)");
	snprintf(rounds, sizeof(rounds), "%d", L.rounds);
	spec = dumps_pretty(json_object_get(wrap, "spec"));
	{
		const char *kv[] = {
			"kernel", kernel_name(rec),
			"id", k_id_borrowed(rec) ? k_id_borrowed(rec) : "",
			"dialect", target_dialect(rec, j->task),
			"code", code != NULL ? code : "",
			"instruction", instr != NULL ? instr : "",
			"spec", spec,
			"error", j->error != NULL ? j->error : "",
			"history", hist.s,
			"rounds", rounds,
			NULL
		};
		j->prompt = fill(L.p[j->task].text, kv);
	}
	free(spec);
	free(hist.s);
	j->user = j->prompt;
	return 1;
}

/* ------------------------------------------------------------ validation */


static int
one_of(const char *s, const char *const *set)
{
	for (; s != NULL && *set != NULL; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

static int
bad(char *err, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
bad(char *err, size_t cap, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, cap, fmt, ap);
	va_end(ap);
	return -1;
}

static int
check_expr(json_t *v, const char *what, char *err, size_t cap)
{
	if (!json_is_string(v) && !json_is_integer(v))
		return bad(err, cap, "%s: expected a C expression (a string) "
		    "or an integer", what);
	return 0;
}

static int
check_fill(json_t *f, const char *what, char *err, size_t cap)
{
	const char *key;
	json_t *v;

	if (!json_is_object(f) ||
	    vocab_find(fill_kinds, k_get_str(f, "kind")) == NULL)
		return bad(err, cap, "%s: a fill needs \"kind\", one of "
		    "uniform, normal, int, constant, sorted, indices, "
		    "sentinel, offsets, nonfinite", what);
	json_object_foreach(f, key, v)
		if (strcmp(key, "kind") != 0 && strcmp(key, "of") != 0 &&
		    !json_is_number(v))
			return bad(err, cap, "%s: fill \"%s\" must be a number",
			    what, key);
	return 0;
}

/* The shape of wrap.schema.json's spec.cases[] items, and a value for
 * every scalar parameter of spec. */
static int
check_cases(json_t *cases, json_t *spec, char *err, size_t cap)
{
	json_t *c, *p, *v;
	size_t i, k;
	const char *key;
	char what[64];

	if (!json_is_array(cases) || json_array_size(cases) == 0)
		return bad(err, cap, "\"cases\" must be a non-empty array");
	json_array_foreach(cases, i, c) {
		snprintf(what, sizeof(what), "cases[%zu]", i);
		if (!json_is_object(c) || k_get_str(c, "name") == NULL ||
		    *k_get_str(c, "name") == '\0')
			return bad(err, cap, "%s: needs a \"name\"", what);
		v = json_object_get(c, "seed");
		if (v != NULL && (!json_is_integer(v) ||
		    json_integer_value(v) < 0))
			return bad(err, cap, "%s: \"seed\" must be a "
			    "non-negative integer", what);
		if (!json_is_object(json_object_get(c, "scalars")))
			return bad(err, cap, "%s: needs \"scalars\", an "
			    "object", what);
		json_object_foreach(json_object_get(c, "scalars"), key, v)
			if (!json_is_number(v) && !json_is_boolean(v) &&
			    !json_is_string(v))
				return bad(err, cap, "%s: scalar %s must be a "
				    "number, boolean or string", what, key);
		json_array_foreach(json_object_get(spec, "params"), k, p) {
			const char *n = k_get_str(p, "name");
			json_t *f;
			size_t m;
			if (n == NULL)
				continue;
			if (json_object_get(p, "fields") != NULL) {
				json_array_foreach(json_object_get(p,
				    "fields"), m, f) {
					char full[300];
					const char *use = k_get_str(f, "use");
					/* buffers and derived fields are
					 * no scalars of a case */
					if (use != NULL && (strcmp(use,
					    "buffer") == 0 || strcmp(use,
					    "derived") == 0 || strcmp(use,
					    "null") == 0))
						continue;
					snprintf(full, sizeof(full), "%s.%s", n,
					    k_get_str(f, "name") ?
					    k_get_str(f, "name") : "");
					if (json_object_get(json_object_get(c,
					    "scalars"), full) == NULL)
						return bad(err, cap, "%s: no "
						    "value for scalar %s",
						    what, full);
				}
			} else if (strcmp(k_get_str(p, "role") ?
			    k_get_str(p, "role") : "", "scalar") == 0 &&
			    json_object_get(json_object_get(c, "scalars"),
			    n) == NULL)
				return bad(err, cap, "%s: no value for scalar "
				    "%s", what, n);
		}
		json_object_foreach(json_object_get(c, "fills"), key, v) {
			char fw[400];
			snprintf(fw, sizeof(fw), "%s.fills.%s", what, key);
			if (check_fill(v, fw, err, cap) != 0)
				return -1;
		}
	}
	return 0;
}

static json_t *
param_named(json_t *spec, const char *name)
{
	json_t *p;
	size_t i;

	json_array_foreach(json_object_get(spec, "params"), i, p)
		if (k_get_str(p, "name") != NULL &&
		    strcmp(k_get_str(p, "name"), name) == 0)
			return p;
	return NULL;
}

/* Overlay part (stolen) on spec under key through spec_merge. */
static void
merge_part(json_t *spec, const char *key, json_t *part)
{
	json_t *o = json_object();

	json_object_set_new(o, key, part);
	spec_merge(spec, o);
	json_decref(o);
}

/* Check the model's answer and overlay what it may change on spec
 * (spec_merge: params by name, launch key by key, cases replaced); keys
 * it may not change are left out. */
static int
merge_spec(json_t *spec, json_t *ans, char *err, size_t cap)
{
	json_t *v, *p, *old, *kl;
	const char *key;
	size_t i;
	char what[300];

	json_object_foreach(ans, key, v) {
		if (strcmp(key, "description") == 0) {
			if (!json_is_string(v))
				return bad(err, cap, "\"description\" must be "
				    "a string");
			merge_part(spec, key, json_incref(v));
		} else if (strcmp(key, "params") == 0) {
			if (!json_is_array(v))
				return bad(err, cap, "\"params\" must be an "
				    "array");
			json_array_foreach(v, i, p) {
				const char *n = k_get_str(p, "name");
				const char *pk;
				json_t *pv;
				snprintf(what, sizeof(what), "params[%zu]", i);
				if (!json_is_object(p) || n == NULL)
					return bad(err, cap, "%s: needs a "
					    "\"name\"", what);
				if ((old = param_named(spec, n)) == NULL)
					return bad(err, cap, "%s: the kernel "
					    "has no parameter %s", what, n);
				json_object_foreach(p, pk, pv) {
					if (strcmp(pk, "role") == 0 &&
					    vocab_find(roles,
					    json_string_value(pv)) == NULL)
						return bad(err, cap, "%s: role "
						    "must be in, out, inout "
						    "or scalar", what);
					if (strcmp(pk, "count") == 0 &&
					    check_expr(pv, what, err, cap))
						return -1;
					if (strcmp(pk, "fill") == 0 &&
					    check_fill(pv, what, err, cap))
						return -1;
					if ((strcmp(pk, "type") == 0 ||
					    strcmp(pk, "dtype") == 0) &&
					    !json_is_string(pv))
						return bad(err, cap, "%s: %s "
						    "must be a string", what,
						    pk);
					if (strcmp(pk, "use") == 0 &&
					    !one_of(json_string_value(pv),
					    (const char *const[]){ "size",
					    "value", NULL }))
						return bad(err, cap, "%s: use "
						    "must be size or value",
						    what);
				}
			}
			merge_part(spec, key, json_incref(v));
		} else if (strcmp(key, "launch") == 0) {
			const char *lk;
			json_t *lv, *e;
			if (!json_is_object(v))
				return bad(err, cap, "\"launch\" must be an "
				    "object");
			json_object_foreach(v, lk, lv) {
				if (strcmp(lk, "grid") == 0 ||
				    strcmp(lk, "block") == 0) {
					if (!json_is_array(lv) ||
					    json_array_size(lv) != 3)
						return bad(err, cap, "launch."
						    "%s must be an array of 3 "
						    "expressions", lk);
					json_array_foreach(lv, i, e)
						if (check_expr(e, "launch",
						    err, cap))
							return -1;
				} else if (strcmp(lk, "shared_mem") == 0 &&
				    check_expr(lv, "launch.shared_mem", err,
				    cap))
					return -1;
			}
			kl = json_object();
			json_object_foreach(v, lk, lv)
				if (strcmp(lk, "grid") == 0 ||
				    strcmp(lk, "block") == 0 ||
				    strcmp(lk, "shared_mem") == 0)
					json_object_set(kl, lk, lv);
			merge_part(spec, key, kl);
		} else if (strcmp(key, "cases") == 0) {
			if (check_cases(v, spec, err, cap) != 0)
				return -1;
			merge_part(spec, key, json_incref(v));
		}
	}
	return 0;
}

/* Give cases without a seed one past the spec's largest. */
static void
seed_cases(json_t *cases, json_t *spec)
{
	json_int_t top = 0;
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(spec, "cases"), i, c)
		if (k_get_int(c, "seed", 0) > top)
			top = k_get_int(c, "seed", 0);
	json_array_foreach(cases, i, c)
		if (json_object_get(c, "seed") == NULL)
			json_object_set_new(c, "seed", json_integer(++top));
}

static int
check_kernel_code(struct job *j, const char *content)
{
	const char *name = kernel_name(j->rec);

	if ((j->code = k_llm_extract_code(content, "__global__")) == NULL)
		return bad(j->verr, sizeof(j->verr), "no code defining a "
		    "__global__ kernel in the answer");
	if (strstr(j->code, name) == NULL)
		return bad(j->verr, sizeof(j->verr), "the code does not "
		    "define the kernel %s", name);
	if (strstr(j->code, "int main") != NULL)
		return bad(j->verr, sizeof(j->verr), "the code has a main "
		    "function: give the kernel only");
	return 0;
}

/* The C reference must compile as C11, as asked, and as C++17, the way
 * the harness compiles it in (restrict spelled __restrict__ there). */
static int
check_c(const char *code, char *err, size_t cap)
{
	static char *cc, *cxx;
	static int looked;
	const char *tmp = getenv("TMPDIR");
	char src[PATH_MAX], log[PATH_MAX], buf[1500];
	struct k_proc r;
	FILE *fp;
	size_t n;
	int fd, rc = 0, pass;

	if (!looked) {
		cc = k_which("cc");
		cxx = k_which("c++");
		looked = 1;
	}
	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	snprintf(src, sizeof(src), "%s/kwrap-ref-XXXXXX.c", tmp);
	snprintf(log, sizeof(log), "%s/kwrap-ref-XXXXXX.log", tmp);
	if ((fd = mkstemps(src, 2)) < 0)
		return 0;
	if ((fp = fdopen(fd, "w")) == NULL) {
		close(fd);
		unlink(src);
		return 0;
	}
	fputs(code, fp);
	if (fclose(fp) != 0 || (fd = mkstemps(log, 4)) < 0) {
		unlink(src);
		return 0;
	}
	close(fd);
	for (pass = 0; pass < 2 && rc == 0; pass++) {
		char *c_argv[] = { cc, "-std=c11", "-fsyntax-only", "-w",
		    "-include", "math.h", "-include", "stdint.h", "-include",
		    "stddef.h", "-include", "stdbool.h", src, NULL };
		char *cxx_argv[] = { cxx, "-std=c++17", "-fsyntax-only", "-w",
		    "-Drestrict=__restrict__", "-include", "cmath", "-include",
		    "cstdint", "-include", "cstddef", "-include", "cstdlib",
		    "-include", "cstring", "-x", "c++", src, NULL };
		char **argv = pass == 0 ? c_argv : cxx_argv;
		if (argv[0] == NULL)
			continue;
		if (k_run(argv, NULL, log, 60, &r) == 0 && (!r.exited ||
		    r.status != 0)) {
			n = 0;
			if ((fp = fopen(log, "r")) != NULL) {
				n = fread(buf, 1, sizeof(buf) - 1, fp);
				fclose(fp);
			}
			buf[n] = '\0';
			rc = bad(err, cap, "the C reference does not compile "
			    "as %s: %s", pass == 0 ? "C11" : "C++17 (as the "
			    "harness builds it)", buf);
		}
	}
	unlink(src);
	unlink(log);
	return rc;
}

/* Check an answer and keep what it gives in j; -1 with j->verr when it is
 * not usable. */
static int
validate(struct job *j)
{
	const char *content = j->req.content;
	json_t *wrap = json_object_get(j->rec, "wrap");
	json_t *spec = json_object_get(wrap, "spec"), *copy, *cases;
	char why[512];

	free(j->code);
	j->code = NULL;
	json_decref(j->value);
	j->value = NULL;
	switch (j->task) {
	case T_SPEC:
	case T_TESTS:
		if ((j->value = k_llm_extract_json(content, j->verr,
		    sizeof(j->verr))) == NULL)
			return -1;
		copy = json_deep_copy(spec);
		if (j->task == T_TESTS) {
			cases = json_object_get(j->value, "cases");
			if (check_cases(cases, spec, j->verr,
			    sizeof(j->verr)) != 0) {
				json_decref(copy);
				return -1;
			}
			seed_cases(cases, spec);
			json_array_extend(json_object_get(copy, "cases"),
			    cases);
		} else if (merge_spec(copy, j->value, j->verr,
		    sizeof(j->verr)) != 0) {
			json_decref(copy);
			return -1;
		}
		if (j->task == T_SPEC)
			json_object_set_new(copy, "source", json_string("llm"));
		/* the harness generator is the last judge of a spec */
		if (L.rewrap(j->rec, copy, why, sizeof(why)) != 0) {
			json_decref(copy);
			return bad(j->verr, sizeof(j->verr), "no harness can "
			    "be generated from the spec: %s", why);
		}
		json_decref(copy);
		return 0;
	case T_REFERENCE:
		if ((j->code = k_llm_extract_code(content, "(")) == NULL ||
		    strchr(j->code, '{') == NULL)
			return bad(j->verr, sizeof(j->verr), "no C function in "
			    "the answer");
		if (strstr(j->code, "__global__") != NULL)
			return bad(j->verr, sizeof(j->verr), "the reference "
			    "must be plain C host code, not a kernel");
		{
			char fn[300];
			snprintf(fn, sizeof(fn), "%s_cpu", kernel_name(j->rec));
			if (strstr(j->code, fn) == NULL)
				return bad(j->verr, sizeof(j->verr), "the code "
				    "does not define the function %s", fn);
		}
		return check_c(j->code, j->verr, sizeof(j->verr));
	case T_REPAIR:
		free(j->strategy);
		j->strategy = k_llm_extract_prose(content, MAX_STRATEGY);
		/* FALLTHROUGH */
	case T_CANDIDATE:
	case T_TRANSLATE:
		return check_kernel_code(j, content);
	default:
		return bad(j->verr, sizeof(j->verr), "no such task");
	}
}

/* ------------------------------------------------------------ results */

static json_t *
prompt_json(enum task t)
{
	return json_pack("{s:s,s:s}", "name", task_names[t], "sha256",
	    L.p[t].sha);
}

static json_t *
llm_section(json_t *rec)
{
	json_t *wrap = json_object_get(rec, "wrap"), *l;

	l = json_object_get(wrap, "llm");
	if (!json_is_object(l)) {
		l = json_pack("{s:s,s:s,s:s,s:o}", "endpoint",
		    k_llm_endpoint(L.llm), "model", L.conf.model,
		    "system_prompt", L.p[T_SYSTEM].sha,
		    "tasks", json_object());
		json_object_set_new(wrap, "llm", l);
	}
	return json_object_get(l, "tasks");
}

static void
record_task(struct job *j, int ok)
{
	json_object_set_new(llm_section(j->rec), task_names[j->task],
	    json_pack("{s:b,s:s,s:o,s:i,s:b,s:b}", "ok", ok, "model",
	    L.conf.model, "prompt", prompt_json(j->task), "requests",
	    j->attempts, "cached", j->cached, "retried", j->retried));
}

static void
error_raw(json_t *rec, const char *code, const char *raw, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

/* An error entry that keeps the model's raw answer for whoever debugs. */
static void
error_raw(json_t *rec, const char *code, const char *raw, const char *fmt,
    ...)
{
	char msg[1024];
	va_list ap;
	json_t *errs;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	k_error(rec, STAGE, code, "%s", msg);
	k_warn(K_EXIT_RECORDS, k_id_borrowed(rec), "%s", msg);
	errs = json_object_get(rec, "errors");
	if (raw != NULL)
		json_object_set_new(json_array_get(errs, json_array_size(errs) -
		    1), "raw", k_string_lossy(raw, strlen(raw)));
}

/* The inferred spec's bad-spec error, from this run's process(), is moot
 * once the model's spec gives a harness. */
static void
drop_bad_spec(json_t *rec)
{
	json_t *errs = json_object_get(rec, "errors"), *e;
	size_t i;

	for (i = json_array_size(errs); i-- > 0; ) {
		e = json_array_get(errs, i);
		if (strcmp(k_get_str(e, "stage") ? k_get_str(e, "stage") : "",
		    STAGE) == 0 && strcmp(k_get_str(e, "code") ?
		    k_get_str(e, "code") : "", "bad-spec") == 0)
			json_array_remove(errs, i);
	}
	if (errs != NULL && json_array_size(errs) == 0)
		json_object_del(rec, "errors");
}

static void
apply(struct job *j)
{
	json_t *rec = j->rec, *wrap = json_object_get(rec, "wrap");
	json_t *cand, *old, *hist, *spec;
	char why[512];

	switch (j->task) {
	case T_SPEC:
	case T_TESTS:
		/* validate() has rewrapped rec with the new spec */
		spec = json_object_get(wrap, "spec");
		if (j->task == T_SPEC)
			drop_bad_spec(rec);
		json_array_append_new(json_object_get(json_object_get(spec,
		    "confidence"), "guesses"), json_sprintf("%s by %s "
		    "(prompt %s %.12s)", j->task == T_SPEC ? "spec completed" :
		    "cases added", L.conf.model, task_names[j->task],
		    L.p[j->task].sha));
		break;
	case T_REFERENCE:
		json_object_set_new(wrap, "reference_cpu", json_pack(
		    "{s:s,s:s,s:s,s:o}", "code", j->code, "language", "c",
		    "model", L.conf.model, "prompt", prompt_json(j->task)));
		/* the harness again, now with the reference compiled in */
		spec = json_object_get(wrap, "spec");
		if (L.rewrap(rec, spec, why, sizeof(why)) != 0) {
			error_raw(rec, "llm-reference", NULL, "%s: --llm "
			    "reference: no harness: %s", k_id_text(rec), why);
			record_task(j, 0);
			return;
		}
		break;
	case T_CANDIDATE:
	case T_TRANSLATE:
		json_object_set_new(rec, "candidate", json_pack(
		    "{s:s,s:s,s:s,s:s,s:s,s:o}", "code", j->code, "dialect",
		    target_dialect(rec, j->task), "source", "llm", "task",
		    task_names[j->task], "model", L.conf.model, "prompt",
		    prompt_json(j->task)));
		break;
	case T_REPAIR:
		old = json_object_get(rec, "candidate");
		hist = json_object_get(old, "history");
		hist = json_is_array(hist) ? json_incref(hist) : json_array();
		json_array_append_new(hist, json_pack("{s:I,s:s,s:s?,s:s}",
		    "round", (json_int_t)json_array_size(hist), "code",
		    k_get_str(old, "code"), "strategy", k_get_str(old,
		    "strategy"), "error", j->error));
		cand = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:s,s:I,s:o}",
		    "code", j->code, "dialect", target_dialect(rec, j->task),
		    "source", "llm", "task", "repair", "model", L.conf.model,
		    "prompt", prompt_json(j->task), "strategy",
		    j->strategy != NULL ? j->strategy : "",
		    "round", (json_int_t)json_array_size(hist), "history",
		    hist);
		json_object_set_new(rec, "candidate", cand);
		break;
	default:
		break;
	}
	record_task(j, 1);
}

/* Send the jobs' current prompts; each that fails validation for the first
 * time gets the retry prompt and goes again. */
static void
run_jobs(struct job *jobs, size_t n)
{
	struct k_llm_req *reqs;
	size_t i, m, round;
	size_t *idx;

	if (n == 0)
		return;
	reqs = k_calloc(n, sizeof(*reqs));
	idx = k_calloc(n, sizeof(*idx));
	for (i = 0; i < n; i++)
		idx[i] = i;
	m = n;
	for (round = 0; round < 2 && m > 0; round++) {
		size_t next = 0;
		for (i = 0; i < m; i++) {
			struct job *j = &jobs[idx[i]];
			memset(&reqs[i], 0, sizeof(reqs[i]));
			reqs[i].task = task_names[j->task];
			reqs[i].system = L.p[T_SYSTEM].text;
			reqs[i].user = j->user;
		}
		k_llm_run(L.llm, reqs, m);
		for (i = 0; i < m; i++) {
			struct job *j = &jobs[idx[i]];
			k_llm_req_clear(&j->req);
			j->req = reqs[i];
			j->attempts += reqs[i].attempts;
			j->cached = j->cached || reqs[i].cached;
			if (!j->req.ok) {
				error_raw(j->rec, "llm-request", j->req.raw,
				    "llm %s: %s", task_names[j->task],
				    j->req.error);
				record_task(j, 0);
				continue;
			}
			if (validate(j) == 0) {
				apply(j);
				continue;
			}
			if (round == 0) {
				const char *kv[] = { "prompt", j->prompt,
				    "error", j->verr, "answer", j->req.content,
				    NULL };
				j->user = fill(L.p[T_RETRY].text, kv);
				j->retried = 1;
				idx[next++] = idx[i];
				continue;
			}
			error_raw(j->rec, "llm-invalid", j->req.content,
			    "llm %s: invalid answer after a retry: %s",
			    task_names[j->task], j->verr);
			record_task(j, 0);
		}
		m = next;
	}
	free(reqs);
	free(idx);
}

/* The tasks for a batch of processed records: the spec first, since the
 * others read the instruction and spec it changes. */
static void
llm_batch(json_t **recs, size_t n)
{
	static const enum task later[] = { T_REFERENCE, T_TESTS, T_CANDIDATE,
	    T_TRANSLATE, T_REPAIR };
	struct job *jobs;
	size_t i, k, nj, cap = n * 5 + 1;
	int phase;

	jobs = k_calloc(cap, sizeof(*jobs));
	for (phase = 0; phase < 2; phase++) {
		nj = 0;
		for (i = 0; i < n; i++) {
			if (recs[i] == NULL)
				continue;
			for (k = 0; k < (phase == 0 ? 1 : 5); k++) {
				enum task t = phase == 0 ? T_SPEC : later[k];
				if (!(L.tasks & (1U << t)))
					continue;
				memset(&jobs[nj], 0, sizeof(jobs[nj]));
				jobs[nj].rec = recs[i];
				jobs[nj].task = t;
				if (job_prompt(&jobs[nj]))
					nj++;
				else
					job_free(&jobs[nj]);
			}
		}
		run_jobs(jobs, nj);
		for (i = 0; i < nj; i++)
			job_free(&jobs[i]);
	}
	free(jobs);
}

int
kw_llm_filter(FILE *fp, const char *name, k_record_fn process,
    kw_rewrap_fn rewrap)
{
	struct k_reader r;
	json_t **recs, **todo;
	size_t n, i, batch = (size_t)(L.conf.jobs > 0 ? L.conf.jobs : 1);
	int bad, rc = 1, stop = 0;

	L.rewrap = rewrap;
	recs = k_calloc(batch, sizeof(*recs));
	todo = k_calloc(batch, sizeof(*todo));
	k_reader_init(&r, fp, name, STAGE);
	while (!stop && rc == 1) {
		for (n = 0; n < batch && (rc = k_read(&r, &recs[n], &bad)) ==
		    1; n++) {
			if (!bad && (recs[n] = process(recs[n], NULL)) == NULL)
				k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
			/* bad lines and records kwrap could not wrap pass */
			todo[n] = !bad && json_is_object(json_object_get(
			    recs[n], "wrap")) ? recs[n] : NULL;
		}
		llm_batch(todo, n);
		for (i = 0; i < n; i++) {
			if (k_has_errors(recs[i]))
				k_exit_raise(K_EXIT_RECORDS);
			if (!stop && k_write(recs[i]) != 0)
				stop = 1;
			json_decref(recs[i]);
		}
	}
	k_reader_free(&r);
	free(recs);
	free(todo);
	return k_exit_status();
}
