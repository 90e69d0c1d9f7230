/*
 * kwrap --llm: ask a language model for what inference cannot know (spec
 * gaps, a CPU reference, more tests, candidates, repairs).  kwrap.c owns
 * the options loop and the deterministic wrap; this part owns the tasks,
 * the prompts and the batching of records for concurrent requests.
 *
 * Ownership: kw_llm_filter takes each record it reads and writes it out;
 * the rewrap callback borrows rec and spec and does not keep them.
 */
#ifndef KWRAP_LLM_H
#define KWRAP_LLM_H

#include <stdio.h>
#include <jansson.h>

#include "k_record.h"

#define KW_LLM_SHORTOPTS "j:"
#define KW_LLM_LONGOPTS \
	{ "llm", required_argument, NULL, 1000 }, \
	{ "model", required_argument, NULL, 1001 }, \
	{ "url", required_argument, NULL, 1002 }, \
	{ "temperature", required_argument, NULL, 1003 }, \
	{ "max-tokens", required_argument, NULL, 1004 }, \
	{ "timeout", required_argument, NULL, 1005 }, \
	{ "retries", required_argument, NULL, 1006 }, \
	{ "candidate-dialect", required_argument, NULL, 1007 }, \
	{ "rounds", required_argument, NULL, 1008 }, \
	{ "max-response", required_argument, NULL, 1009 }, \
	{ "no-cache", no_argument, NULL, 1010 }, \
	{ "jobs", required_argument, NULL, 'j' }

/* Handle one of the options above: 1 when it was one (usage errors are
 * fatal), 0 when it is not. */
int kw_llm_option(int ch, const char *arg);
/* After the options: check them, load the prompts, start the client. */
void kw_llm_start(void);
int kw_llm_enabled(void);

/* Replace rec's wrap.spec with spec (borrowed) and regenerate the harness
 * and the instruction from it; -1 with a reason when it cannot. */
typedef int (*kw_rewrap_fn)(json_t *rec, json_t *spec, char *why,
    size_t cap);

/* k_filter's loop in batches of -j records: each through process, then
 * the LLM tasks for the whole batch at once. */
int kw_llm_filter(FILE *fp, const char *name, k_record_fn process,
    kw_rewrap_fn rewrap);
void kw_llm_end(void);

/* kwrap.c: why spec's kernel cannot have a CPU reference compiled into its
 * harness, or NULL when it can. */
const char *kw_oracle_unsupported(json_t *spec);

#endif
