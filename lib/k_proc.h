/*
 * Running a child program with a wall-clock limit, its output captured in
 * a file.  The child leads its own process group, so a timeout kills
 * everything it started.
 */
#ifndef K_PROC_H
#define K_PROC_H

#include <stdio.h>

struct k_proc {
	int started;		/* exec succeeded (127 otherwise) */
	int exited;		/* exit status valid */
	int status;		/* exit status */
	int signal;		/* terminating signal, 0 if none */
	int timed_out;
	int overflow;		/* killed for writing over K_RUN_OUTPUT_MAX */
	size_t output;		/* bytes it wrote to stdout and stderr */
	int log_error;		/* errno of a failed write of the log, or 0:
				 * then the log lacks what followed */
	double seconds;
};

/* A child's output: what the log file keeps of it (the first and the last
 * bytes, the middle left out), and how much it may write before it is
 * killed. */
#define K_RUN_LOG_HEAD (1024UL * 1024)
#define K_RUN_LOG_TAIL (1024UL * 1024)
#define K_RUN_OUTPUT_MAX (64UL * 1024 * 1024)

/*
 * Run argv[0] (a path) with argv, in directory cwd (NULL: unchanged), with
 * stdin from /dev/null and stdout and stderr through a pipe into out_path
 * (truncated), bounded as above.  timeout_s <= 0 waits forever.  Returns 0 when the child ran (whatever its
 * status), -1 when it could not be started (errno set).
 */
int k_run(char *const argv[], const char *cwd, const char *out_path,
    double timeout_s, struct k_proc *r);

/* Limits of a child: MiB of data (RLIMIT_DATA: heap and private
 * mappings) and of any one file it writes (RLIMIT_FSIZE); 0: none.  No
 * core files either way. */
struct k_limits {
	long mem_mb;
	long fsize_mb;
	const char *tmpdir;	/* the child's TMPDIR; NULL: as the caller's */
};

/* k_run with lim set in the child before it starts (NULL: none). */
int k_run_limited(char *const argv[], const char *cwd, const char *out_path,
    double timeout_s, const struct k_limits *lim, struct k_proc *r);

/* Seconds on the monotonic clock: for durations and deadlines, never for
 * dates. */
double k_now(void);

/* The full path of an executable found on PATH, or NULL; malloc'd. */
char *k_which(const char *name);

/*
 * Workers: forked copies of this process that serve requests one at a
 * time, so that a library that crashes or never returns (libclang on a
 * pathological file) takes down one request, not the run.  The parent
 * sends a request and waits for the reply; a reply is any number of lines
 * ended by an empty line, which JSON written compactly never contains.
 * A worker that dies or runs past the limit is killed and must be started
 * again.  The parent must not have other threads running when it starts
 * one.
 */
struct k_worker {
	int pid;		/* 0: not running */
	int fd;			/* the parent's end of the socket */
	int busy;		/* a request is out */
	double since;		/* when it was sent */
	double cpu0;		/* its CPU seconds then; -1: unknown */
	char *buf;		/* the reply so far; owned */
	size_t len, cap;
	struct k_proc end;	/* how it ended, after it died or timed out */
};

enum k_worker_event { K_WORKER_REPLY, K_WORKER_DIED, K_WORKER_TIMEOUT };

/* A worker's wall-clock limit, in multiples of its CPU-time limit. */
#define K_WORKER_WALL 4.0

/* The longest reply accepted; a worker that writes more is killed. */
#define K_WORKER_MAX_REPLY (1024UL * 1024 * 1024)

/*
 * Fork a worker running serve(in, arg): requests arrive on in, replies go
 * to stdout (flushed, then an empty line).  serve returns at the end of in.
 * The child never returns from here; it leaves with _exit, so the
 * parent's atexit handlers and buffers stay the parent's.  w is zeroed
 * before its first start; after a worker ended, starting it again keeps
 * its buffer.  Returns 0, or -1 with errno set.
 */
int k_worker_start(struct k_worker *w, void (*serve)(FILE *in, void *arg),
    void *arg);
/* Send a request to an idle worker; -1 when it is gone. */
int k_worker_send(struct k_worker *w, const char *req, size_t len);
/*
 * Wait until one of the n busy workers of w has replied (the reply in its
 * buf, len bytes, the final empty line removed), has died, or has been
 * busy longer than timeout_s (<= 0: no limit).  Busy is the CPU time the
 * worker spent on the request where the system says it (Linux's
 * /proc/PID/stat), so that a loaded machine does not time out a request
 * that would finish, with K_WORKER_WALL times timeout_s of wall time as
 * the backstop for a worker that waits without working; the wall time
 * elsewhere.  A worker that died or timed
 * out is reaped, its end filled in and pid set to 0.  Returns its index
 * and sets *ev, or -1 when none is busy.
 */
long k_worker_wait(struct k_worker *w, size_t n, double timeout_s,
    enum k_worker_event *ev);
/* Stop a worker and free its buffer: an idle one is told there is no more
 * work and waited for, a busy one killed. */
void k_worker_stop(struct k_worker *w);
/* "killed by signal 11 (Segmentation fault)" or "exited with status 4"
 * for a worker that ended, naming the memory limit when there is one and
 * the worker aborted or gave up; a static buffer. */
const char *k_worker_how(const struct k_worker *w);
/* Limit the data size (RLIMIT_DATA) of workers started from now on to mb
 * MiB; 0: no limit.  A worker past it fails to allocate and dies.  Not in
 * AddressSanitizer builds, whose shadow memory counts as data. */
void k_worker_mem(long mb);

#endif
