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
	fprintf(stderr, "%s\n", buf);
}

void
k_vwarn(int code, const char *where, const char *fmt, va_list ap)
{
	k_exit_raise(code);
	pthread_mutex_lock(&lock);
	if (!quiet)
		emit(where, fmt, ap);
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

	bad = fflush(stdout) != 0 || ferror(stdout);
	if (fclose(stdout) != 0)
		bad = 1;
	if (bad)
		/* errno from the failing write or close is the useful part */
		k_write_error(errno);
	return worst;
}
