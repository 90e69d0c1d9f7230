/* Progress on a terminal (see k_progress.h). */
#include <sys/stat.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "k_msg.h"
#include "k_progress.h"

/* redraws at most this often, in seconds: a terminal is not a log */
#define REDRAW 0.2

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	const char *unit;	/* NULL: records */
	unsigned long done, total, read, written;
	FILE *in;		/* a regular file, or NULL */
	double size;
	double start, drawn;
	int ended;
} p;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "1:05", "1:02:03" */
static void
duration(char *buf, size_t len, double s)
{
	unsigned long t = s < 0 ? 0 : (unsigned long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60,
		    t % 60);
	else
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
}

/* The line, under the lock; final: the run is over. */
static void
draw(int final)
{
	char line[256], t[32], left[64];
	unsigned long done = p.unit != NULL ? p.done : p.written > 0 ?
	    p.written : p.read;
	const char *unit = p.unit != NULL ? p.unit : "records";
	double el = now() - p.start, rate = el > 0 ? done / el : 0, share = -1;
	int n;

	if (p.total > 0)
		share = (double)done / p.total;
	else if (p.in != NULL && p.size > 0) {
		long pos = ftell(p.in);
		if (pos >= 0)
			share = pos / p.size;
	}
	if (share > 1)
		share = 1;
	if (p.total > 0)
		n = snprintf(line, sizeof(line), "%lu/%lu %s", done, p.total,
		    unit);
	else if (share >= 0 && !final)
		n = snprintf(line, sizeof(line), "%lu %s (%.0f%% of the input)",
		    done, unit, share * 100);
	else
		n = snprintf(line, sizeof(line), "%lu %s", done, unit);
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	duration(t, sizeof(t), el);
	if (final)
		snprintf(left, sizeof(left), " in %s", t);
	else
		left[0] = '\0';
	snprintf(line + n, sizeof(line) - n, "%s, %.*f/s", left,
	    rate < 10 ? 2 : 0, rate);
	n = (int)strlen(line);
	if (!final && share > 0 && share < 1 && el >= 1) {
		duration(t, sizeof(t), el * (1 - share) / share);
		snprintf(line + n, sizeof(line) - n, ", %s left", t);
	}
	k_msg_status(line, final);
	p.drawn = now();
}

/* A fork while the ticker holds the lock must not leave the child's lock
 * held: the fork waits for it. */
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

/* Redraws the line every second, so that time moves on the terminal while
 * one record takes minutes (a compile, a kernel). */
static void *
ticker(void *arg)
{
	struct timespec ts = { 1, 0 };

	(void)arg;
	for (;;) {
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&lock);
		if (p.ended) {
			pthread_mutex_unlock(&lock);
			return NULL;
		}
		draw(0);
		pthread_mutex_unlock(&lock);
	}
}

/* The first count: the clock starts, the line is drawn from now on;
 * the caller holds the lock. */
static void
start(void)
{
	pthread_t th;
	pthread_attr_t a;

	if (p.start != 0)
		return;
	p.start = now();
	k_msg_on_finish(k_progress_end);
	if (!k_msg_status_on())
		return;
	pthread_atfork(fork_prepare, fork_done, fork_done);
	if (pthread_attr_init(&a) == 0) {
		pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
		(void)pthread_create(&th, &a, ticker, NULL);
		pthread_attr_destroy(&a);
	}
}

/* Redraw when it is time; the caller holds the lock. */
static void
tick(void)
{
	double t;

	if (!k_msg_status_on() || p.ended)
		return;
	t = now();
	if (t - p.drawn >= REDRAW)
		draw(0);
}

void
k_progress_unit(const char *name)
{
	pthread_mutex_lock(&lock);
	p.unit = name;
	start();
	pthread_mutex_unlock(&lock);
}

void
k_progress_more(unsigned long n)
{
	pthread_mutex_lock(&lock);
	start();
	p.total += n;
	pthread_mutex_unlock(&lock);
}

void
k_progress_add(unsigned long n)
{
	pthread_mutex_lock(&lock);
	start();
	p.done += n;
	tick();
	pthread_mutex_unlock(&lock);
}

void
k_progress_read(void)
{
	pthread_mutex_lock(&lock);
	start();
	p.read++;
	if (p.unit == NULL && p.written == 0)
		tick();
	pthread_mutex_unlock(&lock);
}

void
k_progress_written(void)
{
	pthread_mutex_lock(&lock);
	start();
	p.written++;
	if (p.unit == NULL)
		tick();
	pthread_mutex_unlock(&lock);
}

void
k_progress_input(FILE *fp)
{
	struct stat st;

	pthread_mutex_lock(&lock);
	start();
	if (fp != NULL && fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > 0) {
		p.in = fp;
		p.size = (double)st.st_size;
	} else
		p.in = NULL;
	pthread_mutex_unlock(&lock);
}

void
k_progress_end(void)
{
	pthread_mutex_lock(&lock);
	/* the input may be closed by now: its share is not asked again */
	p.in = NULL;
	if (!p.ended && k_msg_status_on() && (p.unit != NULL ? p.done + p.total :
	    p.read + p.written) > 0)
		draw(1);
	p.ended = 1;
	pthread_mutex_unlock(&lock);
}
