#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "k_exit.h"
#include "k_mem.h"
#include "k_num.h"
#include "k_msg.h"
#include "k_progress.h"
#include "k_record.h"

/* Whether s[0..n) is a run of digits too large for json_int_t (neg:
 * the literal had a minus sign). */
static int
past_int64(const char *s, size_t n, int neg)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	while (n > 1 && *s == '0')
		s++, n--;
	if (n != 19)
		return n > 19;
	return memcmp(s, neg ? "9223372036854775808" :
	    "9223372036854775807", 19) > 0;
}

/*
 * Integer literals past json_int_t's range as reals.  JSON has one kind
 * of number, and jq 1.6 writes a large real that is a whole number (a
 * float spread of 7.25e24, say) as its digits; jansson refuses those as
 * "too big integer".  Returns a copy of text[0..n) with ".0" after every
 * such literal outside strings, or NULL when there is none.
 */

static char *
big_ints_real(const char *text, size_t n)
{
	char *out = NULL;
	size_t i = 0, o = 0, cap = 0, b, e;
	int fixed = 0;

	while (i < n) {
		if (text[i] == '"') {
			for (b = i++; i < n && text[i] != '"'; i++)
				if (text[i] == '\\' && i + 1 < n)
					i++;
			if (i < n)
				i++;
			e = i;
		} else if (text[i] == '-' || (text[i] >= '0' && text[i] <= '9')) {
			for (b = i++; i < n && ((text[i] >= '0' && text[i] <= '9') ||
			    strchr(".eE+-", text[i]) != NULL); i++)
				;
			e = i;
		} else {
			b = i++;
			e = i;
		}
		if (o + (e - b) + 3 > cap) {
			cap = (o + (e - b) + 3) * 2;
			out = k_realloc(out, cap);
		}
		memcpy(out + o, text + b, e - b);
		o += e - b;
		if ((text[b] == '-' || (text[b] >= '0' && text[b] <= '9')) &&
		    past_int64(text + b + (text[b] == '-'),
		    e - b - (text[b] == '-'), text[b] == '-')) {
			memcpy(out + o, ".0", 2);
			o += 2;
			fixed = 1;
		}
	}
	if (!fixed) {
		free(out);
		return NULL;
	}
	out[o] = '\0';
	return out;
}

json_t *
k_json_loadb(const char *text, size_t n, size_t flags, json_error_t *err)
{
	json_error_t e2;
	json_t *j;
	char *fix;

	if ((j = json_loadb(text, n, flags, err)) != NULL || err == NULL ||
	    strstr(err->text, "too big") == NULL ||
	    (fix = big_ints_real(text, n)) == NULL)
		return j;
	j = json_loadb(fix, strlen(fix), flags, &e2);
	free(fix);
	return j;
}

void
k_reader_init(struct k_reader *r, FILE *fp, const char *name,
    const char *stage)
{
	const char *env;
	long long v;

	memset(r, 0, sizeof(*r));
	r->fp = fp;
	r->name = name;
	r->stage = stage;
	r->max = K_MAX_LINE_DEFAULT;
	if ((env = getenv("KFORGE_MAX_LINE")) != NULL &&
	    k_num_ll(env, 10, 1, (long long)K_MAX_LINE_DEFAULT, &v) == 0)
		r->max = (size_t)v;
	k_progress_input(fp);
}

void
k_reader_free(struct k_reader *r)
{
	free(r->buf);
	r->buf = NULL;
	r->cap = 0;
	k_progress_input(NULL);
}

json_t *
k_string_lossy(const char *s, size_t n)
{
	char *out;
	size_t i, o, len;
	json_t *j;
	unsigned char c;

	/* jansson keeps a NUL in a string and writes it as \u0000, but
	 * reads that back only with JSON_ALLOW_NUL: replace it like a bad
	 * byte, so that what one stage writes the next one reads */
	if (memchr(s, '\0', n) == NULL && (j = json_stringn(s, n)) != NULL)
		return j;
	/* worst case every byte becomes a 3-byte replacement character */
	out = k_malloc(n * 3 + 1);
	for (i = o = 0; i < n; ) {
		c = (unsigned char)s[i];
		len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 :
		    (c >> 3) == 30 ? 4 : 0;
		if (c == 0)
			len = 0;
		if (len > 0 && i + len <= n) {
			/* the continuation bytes look right; jansson decides
			 * about overlong forms and surrogates */
			size_t k;
			for (k = 1; k < len; k++)
				if (((unsigned char)s[i + k] >> 6) != 2)
					break;
			if (k == len) {
				json_t *t = json_stringn(s + i, len);
				if (t != NULL) {
					json_decref(t);
					memcpy(out + o, s + i, len);
					o += len;
					i += len;
					continue;
				}
			}
		}
		memcpy(out + o, "\xef\xbf\xbd", 3);
		o += 3;
		i++;
	}
	j = json_stringn(out, o);
	free(out);
	return j;
}

static json_t *
bad_line(struct k_reader *r, const char *code, const char *raw, size_t n,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static json_t *
bad_line(struct k_reader *r, const char *code, const char *raw, size_t n,
    const char *fmt, ...)
{
	json_t *rec, *e;
	char where[512], msg[1024];
	va_list ap;

	snprintf(where, sizeof(where), "%s:%lu", r->name, r->lineno);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	k_warn(K_EXIT_RECORDS, where, "%s", msg);

	rec = json_object();
	json_object_set_new(rec, "id", k_string_lossy(where, strlen(where)));
	json_object_set_new(rec, "raw", k_string_lossy(raw, n));
	e = json_object();
	json_object_set_new(e, "stage", json_string(r->stage));
	json_object_set_new(e, "code", json_string(code));
	json_object_set_new(e, "message", k_string_lossy(msg, strlen(msg)));
	json_object_set_new(e, "line", json_integer((json_int_t)r->lineno));
	json_object_set_new(rec, "errors", json_array());
	json_array_append_new(json_object_get(rec, "errors"), e);
	return rec;
}

/* k_read's "a record": counted for the progress line */
static int
counted(int rc)
{
	k_progress_read();
	return rc;
}

int
k_read(struct k_reader *r, json_t **rec, int *bad)
{
	size_t n = 0;
	int c, over = 0;
	json_t *j;
	json_error_t err;

	*rec = NULL;
	*bad = 0;
	/* read byte-wise into a bounded buffer: getline would grow without
	 * limit on a line that never ends */
	for (;;) {
		c = getc(r->fp);
		if (c == EOF)
			break;
		if (c == '\n')
			break;
		if (n >= r->max) {
			over = 1;
			continue;
		}
		if (n + 1 >= r->cap) {
			size_t ncap = r->cap ? r->cap * 2 : 4096;
			if (ncap > r->max + 1)
				ncap = r->max + 1;
			r->buf = k_realloc(r->buf, ncap);
			r->cap = ncap;
		}
		r->buf[n++] = (char)c;
	}
	if (c == EOF && ferror(r->fp)) {
		k_warn(K_EXIT_IO, r->name, "read error: %s", strerror(errno));
		return -1;
	}
	if (c == EOF && n == 0 && !over)
		return 0;
	r->lineno++;
	*bad = 1;
	if (over) {
		*rec = bad_line(r, "line-too-long", r->buf, n > 256 ? 256 : n,
		    "line longer than %zu bytes (KFORGE_MAX_LINE)", r->max);
		return counted(1);
	}
	if (n > 0 && r->buf[n - 1] == '\r')
		n--;
	if (n == 0) {
		*rec = bad_line(r, "empty-line", "", 0, "empty line");
		return counted(1);
	}
	/* any value, so that 42 or "x" is "not-an-object", not invalid JSON */
	j = k_json_loadb(r->buf, n, JSON_REJECT_DUPLICATES |
	    JSON_DECODE_ANY, &err);
	if (j == NULL) {
		*rec = bad_line(r, "invalid-json", r->buf, n,
		    "invalid JSON: %s at column %d", err.text, err.column);
		return counted(1);
	}
	if (!json_is_object(j)) {
		json_decref(j);
		*rec = bad_line(r, "not-an-object", r->buf, n,
		    "JSON value is not an object");
		return counted(1);
	}
	*bad = 0;
	*rec = j;
	return counted(1);
}

/*
 * Stopping on a signal.  SIGTERM, SIGINT and SIGHUP end the run at once,
 * unless a record is being written: then its line is finished first, and
 * the signal takes effect when it is.  Either way a line on stdout is
 * never left half written by a signal that can be caught, and the process
 * ends by the signal, as its parent expects.  Children started by k_run
 * (in process groups of their own, which a terminal's signals do not
 * reach) are killed first.
 */
static volatile sig_atomic_t writing, stop_sig;
static volatile sig_atomic_t children[K_CHILDREN_MAX];

static void
kill_children(void)
{
	size_t i;

	for (i = 0; i < K_CHILDREN_MAX; i++)
		if (children[i] > 0)
			kill(-(pid_t)children[i], SIGKILL);
}

static void
die_by(int sig)
{
	kill_children();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
on_stop(int sig)
{
	if (writing) {
		stop_sig = sig;
		return;
	}
	/* delivered when the handler returns */
	die_by(sig);
}

void
k_signals_init(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;
		/* a signal the caller ignores (nohup, a background job of a
		 * shell without job control) stays ignored */
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

int
k_child_track(long pid)
{
	size_t i;

	for (i = 0; i < K_CHILDREN_MAX; i++)
		if (__sync_bool_compare_and_swap(&children[i], 0,
		    (sig_atomic_t)pid))
			return (int)i;
	return -1;
}

void
k_child_untrack(int slot)
{
	if (slot >= 0 && slot < K_CHILDREN_MAX)
		children[slot] = 0;
}

/* All of p[0..n) to fd, through interruptions and short writes. */
static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int
k_write(json_t *rec)
{
	char *text;
	size_t n;
	int rc, err;

	/* what stdio holds goes first, so lines keep their order */
	if (fflush(stdout) != 0) {
		k_write_error(errno);
		return -1;
	}
	if ((text = json_dumps(rec, JSON_COMPACT)) == NULL)
		k_oom();
	n = strlen(text);
	text[n] = '\n';	/* over the NUL: one write, one line */
	writing = 1;
	rc = write_all(fileno(stdout), text, n + 1);
	err = errno;
	writing = 0;
	free(text);
	if (stop_sig != 0)
		die_by(stop_sig);
	if (rc != 0) {
		k_write_error(err);
		return -1;
	}
	k_progress_written();
	return 0;
}

const char *
k_id_borrowed(json_t *rec)
{
	return json_string_value(json_object_get(rec, "id"));
}

const char *
k_get_str(json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

json_int_t
k_get_int(json_t *obj, const char *key, json_int_t dflt)
{
	json_t *v = json_object_get(obj, key);

	return json_is_integer(v) ? json_integer_value(v) : dflt;
}

void
k_error(json_t *rec, const char *stage, const char *code, const char *fmt,
    ...)
{
	json_t *errs, *e;
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	errs = json_object_get(rec, "errors");
	if (!json_is_array(errs)) {
		errs = json_array();
		json_object_set_new(rec, "errors", errs);
	}
	e = json_object();
	json_object_set_new(e, "stage", json_string(stage));
	json_object_set_new(e, "code", json_string(code));
	json_object_set_new(e, "message", k_string_lossy(msg, strlen(msg)));
	json_array_append_new(errs, e);
}

const char *
k_id_text(json_t *rec)
{
	const char *id = k_id_borrowed(rec);

	return id != NULL ? id : "record";
}

void
k_fail(json_t *rec, const char *stage, const char *code, const char *fmt,
    ...)
{
	char msg[1536];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	k_error(rec, stage, code, "%s", msg);
	k_warn(K_EXIT_RECORDS, NULL, "%s", msg);
}

int
k_has_errors(json_t *rec)
{
	json_t *errs = json_object_get(rec, "errors");

	return json_is_array(errs) && json_array_size(errs) > 0;
}

void
k_set_section(json_t *rec, const char *name, json_t *steal)
{
	json_object_set_new(rec, name, steal);
}

int
k_filter(FILE *fp, const char *name, const char *stage, k_record_fn fn,
    void *ctx)
{
	struct k_reader r;
	json_t *rec, *out;
	int bad, rc;

	k_reader_init(&r, fp, name, stage);
	while ((rc = k_read(&r, &rec, &bad)) == 1) {
		k_msg_at(name, r.lineno);
		out = bad ? rec : fn(rec, ctx);
		k_msg_at(NULL, 0);
		if (out == NULL)
			k_oom();
		if (k_has_errors(out))
			k_exit_raise(K_EXIT_RECORDS);
		if (k_write(out) != 0) {
			json_decref(out);
			break;
		}
		json_decref(out);
	}
	k_reader_free(&r);
	return k_exit_status();
}

json_t *
k_missing_includes(json_t *scan, size_t max)
{
	json_t *msgs = json_object_get(json_object_get(scan, "diagnostics"),
	    "messages"), *m, *x, *out = json_array();
	size_t i, j;

	json_array_foreach(msgs, i, m) {
		const char *t = json_string_value(m), *q, *e;
		int seen = 0;
		if (t == NULL || (e = strstr(t, "' file not found")) == NULL)
			continue;
		for (q = e; q > t && q[-1] != '\''; q--)
			;
		if (q == t || q == e || json_array_size(out) >= max)
			continue;
		json_array_foreach(out, j, x)
			seen |= strlen(json_string_value(x)) == (size_t)(e - q) &&
			    strncmp(json_string_value(x), q, (size_t)(e - q)) == 0;
		if (!seen)
			json_array_append_new(out, json_stringn(q,
			    (size_t)(e - q)));
	}
	if (json_array_size(out) > 0)
		return out;
	json_decref(out);
	return NULL;
}
