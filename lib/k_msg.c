#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "k_exit.h"
#include "k_msg.h"

static const char *progname = "kforge";
static int worst = K_EXIT_OK;
static int quiet;
static int child;
/* stages run records on several threads: one message and one status
 * update at a time */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* per thread: records may be worked on by several at once */
static _Thread_local const char *at_name;
static _Thread_local unsigned long at_line;
/* the status line: -1 not yet asked whether stderr is a terminal */
static int tty = -1, out_tty;
static pid_t owner;
static char status[256];
static int shown;
static void (*on_finish)(void);
/* warnings counted instead of printed on a terminal: the first of each
 * kind, its key and how many more came */
#define COLLAPSE_MAX 256
static struct seen {
	char *key, *first;
	unsigned long more;
} seen[COLLAPSE_MAX];
static size_t nseen;

int
k_exit_raise(int code)
{
	int w;

	pthread_mutex_lock(&lock);
	if (code > worst)
		worst = code;
	w = worst;
	pthread_mutex_unlock(&lock);
	return w;
}

int
k_exit_status(void)
{
	return worst;
}

void
k_msg_init(const char *argv0)
{
	const char *p;

	if (argv0 == NULL || *argv0 == '\0')
		return;
	p = strrchr(argv0, '/');
	progname = p != NULL ? p + 1 : argv0;
	owner = getpid();
}

const char *
k_progname(void)
{
	return progname;
}

void
k_msg_child(void)
{
	child = 1;
}

void
k_msg_at(const char *name, unsigned long line)
{
	at_name = name;
	at_line = line;
}

const char *
k_msg_where(unsigned long *line)
{
	*line = at_line;
	return at_name;
}

void
k_msg_quiet(int on)
{
	quiet = on;
}

static void
emit(const char *where, const char *fmt, va_list ap)
{
	/* one buffered write per message so parallel writers do not interleave */
	char buf[4096], at[512];
	int n;

	/* the record's input position first, then the message's own place
	 * (a record id, a file); "" is the run's, with neither */
	at[0] = '\0';
	if (at_name != NULL && (where == NULL || *where != '\0'))
		snprintf(at, sizeof(at), "%s:%lu", at_name, at_line);
	if (at[0] != '\0' && where != NULL && *where != '\0')
		n = snprintf(buf, sizeof(buf), "%s: %s: %s: ", progname, at,
		    where);
	else if (at[0] != '\0')
		n = snprintf(buf, sizeof(buf), "%s: %s: ", progname, at);
	else if (where != NULL && *where != '\0')
		n = snprintf(buf, sizeof(buf), "%s: %s: ", progname, where);
	else
		n = snprintf(buf, sizeof(buf), "%s: ", progname);
	if (n < 0 || (size_t)n >= sizeof(buf))
		/* where alone fills the buffer: keep the name and the message */
		n = snprintf(buf, sizeof(buf), "%s: ", progname);
	if (n < 0 || (size_t)n >= sizeof(buf))
		n = 0;
	vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	if (shown)
		fprintf(stderr, "\r\033[K%s\n%s\033[K", buf, status);
	else
		fprintf(stderr, "%s\n", buf);
}

static void
fork_prepare(void)
{
	pthread_mutex_lock(&lock);
}

static void
fork_done(void)
{
	pthread_mutex_unlock(&lock);
}

/* Whether messages go to a terminal, in the main process, without -q. */
static int
on_terminal(void)
{
	if (tty < 0) {
		tty = isatty(STDERR_FILENO);
		out_tty = isatty(STDOUT_FILENO);
		/* a status line means a ticker thread: a fork must not copy
		 * this lock held */
		if (tty)
			pthread_atfork(fork_prepare, fork_done, fork_done);
	}
	return tty && !quiet && !child && getpid() == owner;
}

int
k_msg_status_on(void)
{
	/* records or a report written to the same terminal would run into
	 * the line */
	return on_terminal() && !out_tty;
}

void
k_msg_status(const char *line, int final)
{
	pthread_mutex_lock(&lock);
	if (k_msg_status_on()) {
		snprintf(status, sizeof(status), "%s: %s", progname, line);
		fprintf(stderr, "\r%s\033[K%s", status, final ? "\n" : "");
		fflush(stderr);
		shown = !final;
	}
	pthread_mutex_unlock(&lock);
}

void
k_msg_on_finish(void (*fn)(void))
{
	on_finish = fn;
}

/*
 * The kind of a warning: its text with the first field set aside when
 * that names a record or a file (one word, or a path or a qualified name:
 * "id: no device" is the same warning for every record) and every run of
 * digits read as one "#".
 */
static char *
kind_of(const char *msg)
{
	const char *p = strstr(msg, ": "), *s;
	char *k, *o;

	if (p != NULL && (memchr(msg, ' ', (size_t)(p - msg)) == NULL ||
	    memmem(msg, (size_t)(p - msg), "::", 2) != NULL ||
	    memchr(msg, '/', (size_t)(p - msg)) != NULL))
		msg = p + 2;
	if ((k = malloc(strlen(msg) + 1)) == NULL)
		return NULL;
	for (s = msg, o = k; *s != '\0'; s++) {
		if (*s >= '0' && *s <= '9') {
			if (o == k || o[-1] != '#')
				*o++ = '#';
			continue;
		}
		*o++ = *s;
	}
	*o = '\0';
	return k;
}

/* On a terminal: whether this warning is counted, not printed; the
 * caller holds the lock. */
static int
collapsed(const char *fmt, va_list ap)
{
	char msg[4096], *k;
	size_t i;

	if (!on_terminal())
		return 0;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if ((k = kind_of(msg)) == NULL)
		return 0;
	for (i = 0; i < nseen; i++)
		if (strcmp(seen[i].key, k) == 0) {
			seen[i].more++;
			free(k);
			return 1;
		}
	if (nseen < COLLAPSE_MAX && (seen[nseen].first = strdup(msg)) != NULL)
		seen[nseen++].key = k;
	else
		free(k);
	return 0;
}

/* One line for each warning counted instead of printed. */
static void
collapse_report(void)
{
	size_t i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < nseen; i++) {
		if (seen[i].more > 0)
			fprintf(stderr, "%s: %lu more like: %s\n", progname,
			    seen[i].more, seen[i].first);
		free(seen[i].key);
		free(seen[i].first);
	}
	nseen = 0;
	pthread_mutex_unlock(&lock);
}

void
k_vwarn(int code, const char *where, const char *fmt, va_list ap)
{
	va_list cp;

	k_exit_raise(code);
	pthread_mutex_lock(&lock);
	va_copy(cp, ap);
	if (!quiet && !collapsed(fmt, cp))
		emit(where, fmt, ap);
	va_end(cp);
	pthread_mutex_unlock(&lock);
}

void
k_warn(int code, const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	k_vwarn(code, where, fmt, ap);
	va_end(ap);
}

void
k_fatal(int code, const char *where, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(where, fmt, ap);
	va_end(ap);
	if (child) {
		fflush(stdout);
		_exit(code);
	}
	exit(code);
}

void
k_write_error(int err)
{
	static int reported;

	k_exit_raise(K_EXIT_IO);
	if (reported++)
		return;
	fprintf(stderr, "%s: write error on standard output: %s\n",
	    progname, strerror(err ? err : EIO));
}

int
k_finish(void)
{
	int bad;

	if (on_finish != NULL) {
		void (*fn)(void) = on_finish;
		on_finish = NULL;
		fn();
	}
	collapse_report();
	bad = fflush(stdout) != 0 || ferror(stdout);
	if (fclose(stdout) != 0)
		bad = 1;
	if (bad)
		/* errno from the failing write or close is the useful part */
		k_write_error(errno);
	return worst;
}
