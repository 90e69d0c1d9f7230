/*
 * A client for OpenAI-compatible chat-completions endpoints (vLLM,
 * llama.cpp's server, Ollama, hosted APIs) on libcurl, with a per-request
 * timeout, retries with exponential backoff, a response size limit,
 * concurrent requests and a disk cache of every successful exchange under
 * $KFORGE_WORK/llm/; and helpers that pull JSON or code out of an answer.
 *
 * Ownership: the strings in struct k_llm_conf and the inputs of a
 * struct k_llm_req are borrowed and must outlive the calls that use them;
 * the outputs of a request (content, raw) are malloc'd and freed by
 * k_llm_req_clear.  The API key is read from the environment by
 * k_llm_new and kept only in the client: nothing here prints it, logs it
 * or writes it to a file, and a response that echoes it has it redacted,
 * as it came or JSON-escaped, before any cut.
 *
 * This code links libcurl; it lives in lib/libkllm.a so that the tools
 * that never talk to a model do not.
 */
#ifndef K_LLM_H
#define K_LLM_H

#include <stddef.h>
#include <jansson.h>

#include "k_hash.h"

struct k_llm_conf {
	const char *url;	/* base URL (.../v1) or a .../chat/completions */
	const char *model;
	double temperature;
	long max_tokens;
	double timeout_s;	/* whole request, per attempt */
	int retries;		/* attempts after the first */
	double backoff_s;	/* first backoff; doubles per retry */
	double max_backoff_s;	/* cap on a backoff and on Retry-After */
	size_t max_response;	/* bytes of response body */
	int jobs;		/* requests in flight at once */
	const char *work;	/* work directory; NULL: no cache */
};

/* Defaults, then KFORGE_LLM_* environment variables over them; returns -1
 * and a message in err when a variable does not parse. */
int k_llm_conf_env(struct k_llm_conf *c, char *err, size_t errcap);

struct k_llm;

/* A client for conf (borrowed); NULL and a message in err on failure. */
struct k_llm *k_llm_new(const struct k_llm_conf *conf, char *err,
    size_t errcap);
void k_llm_free(struct k_llm *llm);
/* The chat-completions URL the client posts to (borrowed). */
const char *k_llm_endpoint(const struct k_llm *llm);

struct k_llm_req {
	/* in, borrowed */
	const char *task;	/* part of the cache key */
	const char *system;	/* NULL: no system message */
	const char *user;
	/* out */
	int ok;			/* content holds the model's answer */
	char *content;		/* the assistant message */
	char *raw;		/* the last response body, or NULL */
	long http_status;	/* of the last attempt; 0 when none */
	int attempts;		/* HTTP requests made (0 on a cache hit) */
	int cached;		/* answered from the cache */
	char key[K_SHA256_HEX];	/* cache key */
	char error[512];	/* why not ok */
	/* private to k_llm.c */
	void *priv;
};

/* Run n requests, at most conf->jobs at a time; every request ends ok or
 * with an error.  Returns the number that failed. */
size_t k_llm_run(struct k_llm *llm, struct k_llm_req *reqs, size_t n);
void k_llm_req_clear(struct k_llm_req *req);

/*
 * Answers.  k_llm_extract_json finds a JSON object in text: the whole
 * text, a fenced block, or the first balanced object in prose; NULL and a
 * message in err when none parses (new reference).
 * k_llm_extract_code returns the fenced block that contains want (any
 * block when want is NULL; the longest when several qualify), or the whole
 * text when it has no fence but contains want; NULL when nothing fits;
 * malloc'd.  k_llm_extract_prose returns the text outside fenced blocks,
 * trimmed, at most max bytes (malloc'd).
 */
json_t *k_llm_extract_json(const char *text, char *err, size_t errcap);
char *k_llm_extract_code(const char *text, const char *want);
char *k_llm_extract_prose(const char *text, size_t max);

#endif
