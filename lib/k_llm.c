#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <curl/curl.h>

#include "k_exit.h"
#include "k_fs.h"
#include "k_hash.h"
#include "k_llm.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_num.h"
#include "k_proc.h"

#define REDACTED "[redacted]"

struct k_llm {
	struct k_llm_conf conf;
	char *endpoint;
	char *key;		/* API key, or NULL; never leaves this file */
	CURLM *multi;
};

enum { PENDING, RUNNING, DONE };

/* per-request transfer state, in req->priv */
struct xfer {
	int state;
	double due;		/* monotonic seconds: start no earlier */
	CURL *h;
	struct curl_slist *hdrs;
	char *post;
	char *buf;
	size_t len, cap, max;
	size_t margin;		/* bytes kept past max, so that a key the cut
				 * would split is redacted whole first */
	int over;
	double retry_after;	/* seconds, < 0 when absent */
	char errbuf[CURL_ERROR_SIZE];
};

static int
env_num(const char *name, double lo, double hi, double *v, char *err,
    size_t errcap)
{
	const char *s = getenv(name);

	if (s == NULL || *s == '\0')
		return 0;
	if (k_num_double(s, lo, hi, v) != 0) {
		snprintf(err, errcap, "%s: expected a number from %g to %g: %s",
		    name, lo, hi, s);
		return -1;
	}
	return 0;
}

int
k_llm_conf_env(struct k_llm_conf *c, char *err, size_t errcap)
{
	const char *s;
	double d;

	memset(c, 0, sizeof(*c));
	c->url = "http://127.0.0.1:8000/v1";
	c->temperature = 0;
	c->max_tokens = 4096;
	c->timeout_s = 300;
	c->retries = 4;
	c->backoff_s = 1;
	c->max_backoff_s = 60;
	c->max_response = 8UL * 1024 * 1024;
	c->jobs = 1;
	c->work = k_work_name(NULL);
	if ((s = getenv("KFORGE_LLM_URL")) != NULL && *s != '\0')
		c->url = s;
	if ((s = getenv("KFORGE_LLM_MODEL")) != NULL && *s != '\0')
		c->model = s;
	if (env_num("KFORGE_LLM_TEMPERATURE", 0, 2, &c->temperature, err,
	    errcap) != 0 ||
	    env_num("KFORGE_LLM_TIMEOUT", 0.001, 86400, &c->timeout_s, err,
	    errcap) != 0 ||
	    env_num("KFORGE_LLM_BACKOFF", 0, 3600, &c->backoff_s, err,
	    errcap) != 0 ||
	    env_num("KFORGE_LLM_MAX_BACKOFF", 0, 86400, &c->max_backoff_s, err,
	    errcap) != 0)
		return -1;
	d = (double)c->max_tokens;
	if (env_num("KFORGE_LLM_MAX_TOKENS", 1, 1e7, &d, err, errcap) != 0)
		return -1;
	c->max_tokens = (long)d;
	d = c->retries;
	if (env_num("KFORGE_LLM_RETRIES", 0, 100, &d, err, errcap) != 0)
		return -1;
	c->retries = (int)d;
	d = (double)c->max_response;
	if (env_num("KFORGE_LLM_MAX_RESPONSE", 1024, 1024.0 * 1024 * 1024, &d,
	    err, errcap) != 0)
		return -1;
	c->max_response = (size_t)d;
	d = c->jobs;
	if (env_num("KFORGE_LLM_JOBS", 1, 256, &d, err, errcap) != 0)
		return -1;
	c->jobs = (int)d;
	return 0;
}

struct k_llm *
k_llm_new(const struct k_llm_conf *conf, char *err, size_t errcap)
{
	static int global_done;
	struct k_llm *llm;
	const char *key, *u = conf->url;
	size_t n;

	if (u == NULL || (strncmp(u, "http://", 7) != 0 &&
	    strncmp(u, "https://", 8) != 0)) {
		snprintf(err, errcap, "LLM URL must start with http:// or "
		    "https://: %s", u != NULL ? u : "(none)");
		return NULL;
	}
	if (conf->model == NULL || *conf->model == '\0') {
		snprintf(err, errcap, "no model: give --model or set "
		    "KFORGE_LLM_MODEL");
		return NULL;
	}
	if (!global_done) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
			snprintf(err, errcap, "libcurl failed to initialize");
			return NULL;
		}
		global_done = 1;
	}
	llm = k_calloc(1, sizeof(*llm));
	llm->conf = *conf;
	if (llm->conf.jobs < 1)
		llm->conf.jobs = 1;
	n = strlen(u);
	while (n > 0 && u[n - 1] == '/')
		n--;
	if (n >= 17 && strncmp(u + n - 17, "/chat/completions", 17) == 0)
		llm->endpoint = k_strndup(u, n);
	else
		llm->endpoint = k_asprintf("%.*s/chat/completions", (int)n, u);
	key = getenv("KFORGE_LLM_API_KEY");
	if (key == NULL || *key == '\0')
		key = getenv("OPENAI_API_KEY");
	if (key != NULL && *key != '\0')
		llm->key = k_strdup(key);
	if ((llm->multi = curl_multi_init()) == NULL) {
		snprintf(err, errcap, "libcurl: cannot create a multi handle");
		k_llm_free(llm);
		return NULL;
	}
	return llm;
}

void
k_llm_free(struct k_llm *llm)
{
	if (llm == NULL)
		return;
	if (llm->multi != NULL)
		curl_multi_cleanup(llm->multi);
	if (llm->key != NULL) {
		memset(llm->key, 0, strlen(llm->key));
		free(llm->key);
	}
	free(llm->endpoint);
	free(llm);
}

const char *
k_llm_endpoint(const struct k_llm *llm)
{
	return llm->endpoint;
}

void
k_llm_req_clear(struct k_llm_req *req)
{
	free(req->content);
	free(req->raw);
	req->content = req->raw = NULL;
}

/* The code point of the \\uXXXX escape at s (6 bytes), or -1. */
static long
hex4(const char *s, size_t n)
{
	long v = 0;
	size_t i;

	if (n < 6 || s[0] != '\\' || s[1] != 'u')
		return -1;
	for (i = 2; i < 6; i++) {
		int c = (unsigned char)s[i], d = c >= '0' && c <= '9' ? c - '0' :
		    c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ?
		    c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/*
 * A malloc'd copy of s[0..n) with the API key replaced wherever it shows,
 * in the bytes as they are or after JSON string escapes are decoded
 * (\\u0073k-... is the key too, once a reader decodes it); a text that
 * ends in the key's first 4 or more bytes loses them too (a body cut short
 * mid-key).  A server or a proxy that echoes the request must not leak the
 * key into a record, the cache or a message.
 */
static char *
redact(const struct k_llm *llm, const char *s, size_t n)
{
	size_t kl = llm->key != NULL ? strlen(llm->key) : 0, i, o, m, dn = 0;
	unsigned char *d;
	size_t *from, *to;
	char *mark, *out;

	if (kl < 4) {
		out = k_malloc(n + 1);
		memcpy(out, s, n);
		out[n] = '\0';
		return out;
	}
	/* the decoded view: each byte with the span of s it came from */
	d = k_malloc(n + 1);
	from = k_malloc((n + 1) * sizeof(*from));
	to = k_malloc((n + 1) * sizeof(*to));
	for (i = 0; i < n; ) {
		long cp = hex4(s + i, n - i);
		size_t span = 6;
		unsigned char u[4];
		int ul = 0, k;
		if (cp >= 0xD800 && cp <= 0xDBFF) {
			long lo = hex4(s + i + 6, n - i - 6);
			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				cp = 0x10000 + ((cp - 0xD800) << 10) +
				    (lo - 0xDC00);
				span = 12;
			}
		}
		if (cp >= 0 && cp < 0x80)
			u[ul++] = (unsigned char)cp;
		else if (cp >= 0x80 && cp < 0x800) {
			u[ul++] = (unsigned char)(0xC0 | (cp >> 6));
			u[ul++] = (unsigned char)(0x80 | (cp & 0x3F));
		} else if (cp >= 0x800 && cp < 0x10000) {
			u[ul++] = (unsigned char)(0xE0 | (cp >> 12));
			u[ul++] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
			u[ul++] = (unsigned char)(0x80 | (cp & 0x3F));
		} else if (cp >= 0x10000) {
			u[ul++] = (unsigned char)(0xF0 | (cp >> 18));
			u[ul++] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
			u[ul++] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
			u[ul++] = (unsigned char)(0x80 | (cp & 0x3F));
		}
		if (ul == 0 && s[i] == '\\' && i + 1 < n &&
		    strchr("\"\\/bfnrt", s[i + 1]) != NULL && s[i + 1] != '\0') {
			static const char esc[] = "\"\\/bfnrt";
			static const char val[] = "\"\\/\b\f\n\r\t";
			u[ul++] = (unsigned char)val[strchr(esc, s[i + 1]) - esc];
			span = 2;
		}
		if (ul == 0) {
			u[ul++] = (unsigned char)s[i];
			span = 1;
		}
		/* a mid-sequence byte maps to its whole escape */
		for (k = 0; k < ul; k++) {
			d[dn] = u[k];
			from[dn] = i;
			to[dn] = i + span;
			dn++;
		}
		i += span;
	}
	mark = calloc(n + 1, 1);
	if (mark == NULL)
		k_oom();
	for (i = 0; i + kl <= dn; i++)
		if (memcmp(d + i, llm->key, kl) == 0)
			for (m = from[i]; m < to[i + kl - 1]; m++)
				mark[m] = 1;
	/* a key cut short at the end of the text */
	for (m = kl - 1; m >= 4; m--)
		if (dn >= m && memcmp(d + dn - m, llm->key, m) == 0) {
			for (i = from[dn - m]; i < n; i++)
				mark[i] = 1;
			break;
		}
	out = k_malloc(n + (n / kl + 2) * sizeof(REDACTED) + 1);
	for (i = o = 0; i < n; ) {
		if (mark[i]) {
			memcpy(out + o, REDACTED, sizeof(REDACTED) - 1);
			o += sizeof(REDACTED) - 1;
			while (i < n && mark[i])
				i++;
		} else
			out[o++] = s[i++];
	}
	out[o] = '\0';
	free(mark);
	free(d);
	free(from);
	free(to);
	return out;
}

/* ------------------------------------------------------------ cache */

static void
cache_key(const struct k_llm *llm, struct k_llm_req *req,
    char prompt_hash[K_SHA256_HEX])
{
	char *buf;
	size_t ls = req->system != NULL ? strlen(req->system) : 0;
	size_t lu = strlen(req->user);

	/* system and user with a separator that cannot occur in either */
	buf = k_malloc(ls + lu + 2);
	memcpy(buf, req->system != NULL ? req->system : "", ls);
	buf[ls] = '\0';
	memcpy(buf + ls + 1, req->user, lu);
	k_sha256_hex(buf, ls + lu + 1, prompt_hash);
	free(buf);
	buf = k_asprintf("kforge-llm-1\n%s\n%s\n%s\n%s\n%.17g\n%ld\n",
	    llm->endpoint, llm->conf.model, req->task, prompt_hash,
	    llm->conf.temperature, llm->conf.max_tokens);
	k_sha256_hex(buf, strlen(buf), req->key);
	free(buf);
}


static char *
cache_path(const struct k_llm *llm, const char *key, int make_dir)
{
	char *p = k_asprintf("%s/llm/%.2s", llm->conf.work, key);

	if (make_dir && k_mkdirs(p) != 0) {
		k_warn(K_EXIT_OK, p, "cannot create cache directory: %s",
		    strerror(errno));
		free(p);
		return NULL;
	}
	free(p);
	return k_asprintf("%s/llm/%.2s/%s.json", llm->conf.work, key, key);
}

static int
cache_get(const struct k_llm *llm, struct k_llm_req *req)
{
	char *path;
	json_t *j;
	const char *c, *raw;

	if (llm->conf.work == NULL)
		return 0;
	path = cache_path(llm, req->key, 0);
	j = json_load_file(path, JSON_REJECT_DUPLICATES, NULL);
	free(path);
	if ((c = json_string_value(json_object_get(j, "content"))) == NULL) {
		json_decref(j);
		return 0;
	}
	raw = json_string_value(json_object_get(j, "raw"));
	req->content = k_strdup(c);
	req->raw = raw != NULL ? k_strdup(raw) : NULL;
	req->http_status = (long)json_integer_value(json_object_get(j,
	    "http_status"));
	req->ok = req->cached = 1;
	json_decref(j);
	return 1;
}

/* Atomic (k_file_write): a reader never sees half a file. */
static void
cache_put(struct k_llm *llm, struct k_llm_req *req, const char *prompt_hash)
{
	char *path, *text;
	json_t *j;

	if (llm->conf.work == NULL || (path = cache_path(llm, req->key, 1)) ==
	    NULL)
		return;
	j = json_pack("{s:s,s:s,s:s,s:s,s:f,s:I,s:I,s:s,s:s?}",
	    "endpoint", llm->endpoint, "model", llm->conf.model,
	    "task", req->task, "prompt_sha256", prompt_hash,
	    "temperature", llm->conf.temperature,
	    "max_tokens", (json_int_t)llm->conf.max_tokens,
	    "http_status", (json_int_t)req->http_status,
	    "content", req->content, "raw", req->raw);
	/* content that is not UTF-8 (no j): not worth caching */
	if (j != NULL && (text = json_dumps(j, JSON_COMPACT)) != NULL) {
		if (k_file_write(path, text, strlen(text)) != 0)
			k_warn(K_EXIT_OK, path, "cannot write cache entry: %s",
			    strerror(errno));
		free(text);
	}
	json_decref(j);
	free(path);
}

/* ------------------------------------------------------------ transfer */

static size_t
on_body(char *p, size_t size, size_t nmemb, void *ud)
{
	struct xfer *x = ud;
	size_t n = size * nmemb;

	size_t limit = x->max + x->margin;
	int over = 0;

	if (n > x->max - x->len) {
		/* keep up to the margin past the limit: the cut is made
		 * after redaction (finish) */
		x->over = over = 1;
		n = limit - x->len < n ? limit - x->len : n;
	}
	if (x->len + n + 1 > x->cap) {
		size_t cap = x->cap ? x->cap : 16384;
		while (cap < x->len + n + 1)
			cap *= 2;
		if (cap > limit + 1)
			cap = limit + 1;
		x->buf = k_realloc(x->buf, cap);
		x->cap = cap;
	}
	memcpy(x->buf + x->len, p, n);
	x->len += n;
	x->buf[x->len] = '\0';
	return over ? 0 : n;	/* 0 aborts the transfer */
}

static size_t
on_header(char *p, size_t size, size_t nmemb, void *ud)
{
	struct xfer *x = ud;
	size_t n = size * nmemb;
	char v[128];
	size_t i = 12, k = 0;
	double d;
	time_t t;

	if (n < 12 || strncasecmp(p, "retry-after:", 12) != 0)
		return n;
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	while (i < n && k + 1 < sizeof(v) && p[i] != '\r' && p[i] != '\n')
		v[k++] = p[i++];
	v[k] = '\0';
	if (k_num_double(v, 0, DBL_MAX, &d) == 0)
		x->retry_after = d;
	else if ((t = curl_getdate(v, NULL)) != -1)
		x->retry_after = difftime(t, time(NULL)) > 0 ?
		    difftime(t, time(NULL)) : 0;
	return n;
}

static char *
request_body(const struct k_llm *llm, const struct k_llm_req *req)
{
	json_t *msgs = json_array(), *j;
	char *s;

	if (req->system != NULL)
		json_array_append_new(msgs, json_pack("{s:s,s:s}", "role",
		    "system", "content", req->system));
	json_array_append_new(msgs, json_pack("{s:s,s:s}", "role", "user",
	    "content", req->user));
	j = json_pack("{s:s,s:o,s:f,s:I,s:b}", "model", llm->conf.model,
	    "messages", msgs, "temperature", llm->conf.temperature,
	    "max_tokens", (json_int_t)llm->conf.max_tokens, "stream", 0);
	s = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	return s;
}

static int
start(struct k_llm *llm, struct k_llm_req *req)
{
	struct xfer *x = req->priv;
	CURL *h;
	long tmo = (long)(llm->conf.timeout_s * 1000);

	if (tmo < 1)
		tmo = 1;
	x->len = 0;
	x->over = 0;
	x->retry_after = -1;
	x->errbuf[0] = '\0';
	if ((h = curl_easy_init()) == NULL)
		return -1;
	x->h = h;
	curl_easy_setopt(h, CURLOPT_URL, llm->endpoint);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_POST, 1L);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, x->post);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
	    (curl_off_t)strlen(x->post));
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, x->hdrs);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, x);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, x->errbuf);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, tmo);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, tmo < 30000 ? tmo :
	    30000L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE,
	    (curl_off_t)x->max);
	/* a redirect would carry the Authorization header elsewhere */
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "kforge/0.1");
	curl_easy_setopt(h, CURLOPT_PRIVATE, req);
	if (curl_multi_add_handle(llm->multi, h) != CURLM_OK) {
		curl_easy_cleanup(h);
		x->h = NULL;
		return -1;
	}
	x->state = RUNNING;
	req->attempts++;
	return 0;
}

static void
fail(struct k_llm_req *req, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
fail(struct k_llm_req *req, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(req->error, sizeof(req->error), fmt, ap);
	va_end(ap);
	req->ok = 0;
	((struct xfer *)req->priv)->state = DONE;
}

static void
parse_answer(struct k_llm *llm, struct k_llm_req *req,
    const char *prompt_hash)
{
	json_t *j, *choice;
	json_error_t err;
	const char *c;

	j = json_loads(req->raw, 0, &err);
	choice = json_array_get(json_object_get(j, "choices"), 0);
	c = json_string_value(json_object_get(json_object_get(choice,
	    "message"), "content"));
	if (c == NULL)
		c = json_string_value(json_object_get(choice, "text"));
	if (j == NULL) {
		/* not err.text: jansson quotes the server's text near the
		 * error, which may be a piece of an echoed key */
		fail(req, "response is not JSON (line %d, column %d)",
		    err.line, err.column);
	} else if (c == NULL)
		fail(req, "response has no choices[0].message.content");
	else {
		req->content = redact(llm, c, strlen(c));
		req->ok = 1;
		((struct xfer *)req->priv)->state = DONE;
		cache_put(llm, req, prompt_hash);
	}
	json_decref(j);
}

static void
finish(struct k_llm *llm, struct k_llm_req *req, CURLcode rc,
    const char *prompt_hash)
{
	struct xfer *x = req->priv;
	long status = 0;
	int transient;
	double delay;

	curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &status);
	curl_multi_remove_handle(llm->multi, x->h);
	curl_easy_cleanup(x->h);
	x->h = NULL;
	req->http_status = status;
	free(req->raw);
	/* redacted first, then cut to the limit */
	req->raw = redact(llm, x->buf != NULL ? x->buf : "", x->len);
	if (x->over && strlen(req->raw) > x->max)
		req->raw[x->max] = '\0';
	if (x->over || rc == CURLE_FILESIZE_EXCEEDED) {
		fail(req, "response larger than %zu bytes "
		    "(KFORGE_LLM_MAX_RESPONSE)", x->max);
		return;
	}
	transient = rc == CURLE_OPERATION_TIMEDOUT ||
	    rc == CURLE_COULDNT_CONNECT || rc == CURLE_GOT_NOTHING ||
	    rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR ||
	    rc == CURLE_PARTIAL_FILE ||
	    (rc == CURLE_OK && (status == 429 || status >= 500));
	if (transient && req->attempts <= llm->conf.retries) {
		delay = llm->conf.backoff_s * pow(2, req->attempts - 1);
		if (x->retry_after >= 0 && x->retry_after > delay)
			delay = x->retry_after;
		if (delay > llm->conf.max_backoff_s)
			delay = llm->conf.max_backoff_s;
		k_warn(K_EXIT_OK, NULL, "llm: %s: %s, retrying in %.1f s "
		    "(attempt %d of %d)", req->task, rc != CURLE_OK ?
		    (x->errbuf[0] ? x->errbuf : curl_easy_strerror(rc)) :
		    status == 429 ? "HTTP 429 (rate limited)" : "server error",
		    delay, req->attempts + 1, llm->conf.retries + 1);
		x->state = PENDING;
		x->due = k_now() + delay;
		return;
	}
	if (rc != CURLE_OK) {
		fail(req, "%s%s (%d attempt%s)",
		    rc == CURLE_OPERATION_TIMEDOUT ? "timed out: " : "",
		    x->errbuf[0] ? x->errbuf : curl_easy_strerror(rc),
		    req->attempts, req->attempts == 1 ? "" : "s");
		return;
	}
	if (status < 200 || status > 299) {
		fail(req, "HTTP %ld (%d attempt%s): %.200s", status,
		    req->attempts, req->attempts == 1 ? "" : "s", req->raw);
		return;
	}
	parse_answer(llm, req, prompt_hash);
}

size_t
k_llm_run(struct k_llm *llm, struct k_llm_req *reqs, size_t n)
{
	struct xfer *xs;
	char (*hashes)[K_SHA256_HEX];
	struct curl_slist *hdrs = NULL;
	size_t i, failed = 0, left = 0;
	int running = 0, still;
	char *auth = NULL;

	if (n == 0)
		return 0;
	xs = k_calloc(n, sizeof(*xs));
	hashes = k_calloc(n, sizeof(*hashes));
	hdrs = curl_slist_append(hdrs, "Content-Type: application/json");
	hdrs = curl_slist_append(hdrs, "Expect:");
	if (llm->key != NULL) {
		auth = k_asprintf("Authorization: Bearer %s", llm->key);
		hdrs = curl_slist_append(hdrs, auth);
		memset(auth, 0, strlen(auth));
		free(auth);
	}
	if (hdrs == NULL)
		k_oom();
	for (i = 0; i < n; i++) {
		struct k_llm_req *r = &reqs[i];
		r->ok = r->cached = r->attempts = 0;
		r->http_status = 0;
		r->error[0] = '\0';
		r->content = r->raw = NULL;
		r->priv = &xs[i];
		xs[i].hdrs = hdrs;
		xs[i].max = llm->conf.max_response;
		/* an escaped key is 6 bytes a character */
		xs[i].margin = (llm->key != NULL ? 6 * strlen(llm->key) : 0) +
		    16;
		cache_key(llm, r, hashes[i]);
		if (cache_get(llm, r)) {
			xs[i].state = DONE;
			continue;
		}
		if ((xs[i].post = request_body(llm, r)) == NULL) {
			fail(r, "prompt is not valid UTF-8");
			continue;
		}
		xs[i].state = PENDING;
		left++;
	}
	while (left > 0) {
		double t = k_now(), next = -1;
		CURLMsg *msg;
		int q;

		for (i = 0; i < n && running < llm->conf.jobs; i++)
			if (xs[i].state == PENDING && xs[i].due <= t) {
				if (start(llm, &reqs[i]) == 0)
					running++;
				else {
					fail(&reqs[i], "libcurl: cannot start "
					    "a transfer");
					left--;
				}
			}
		curl_multi_perform(llm->multi, &still);
		while ((msg = curl_multi_info_read(llm->multi, &q)) != NULL) {
			struct k_llm_req *r;
			char *p;
			if (msg->msg != CURLMSG_DONE)
				continue;
			curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE,
			    &p);
			r = (struct k_llm_req *)(void *)p;
			running--;
			finish(llm, r, msg->data.result,
			    hashes[r - reqs]);
			if (((struct xfer *)r->priv)->state == DONE)
				left--;
		}
		if (left == 0)
			break;
		t = k_now();
		for (i = 0; i < n; i++)
			if (xs[i].state == PENDING && (next < 0 ||
			    xs[i].due < next))
				next = xs[i].due;
		if (running > 0) {
			int ms = 1000;
			if (next >= 0 && running < llm->conf.jobs)
				ms = next <= t ? 0 : (int)((next - t) * 1000) + 1;
			if (ms > 1000)
				ms = 1000;
			curl_multi_poll(llm->multi, NULL, 0, ms, NULL);
		} else if (next > t) {
			struct timespec ts;
			double d = next - t;
			ts.tv_sec = (time_t)d;
			ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
		}
	}
	for (i = 0; i < n; i++) {
		free(xs[i].post);
		free(xs[i].buf);
		reqs[i].priv = NULL;
		if (!reqs[i].ok)
			failed++;
	}
	curl_slist_free_all(hdrs);
	free(xs);
	free(hashes);
	return failed;
}
