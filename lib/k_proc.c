#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "k_exit.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_proc.h"
#include "k_record.h"

double
k_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The child's output, bounded: the first K_RUN_LOG_HEAD bytes go to the
 * file as they come, the last K_RUN_LOG_TAIL bytes wait in a ring and
 * follow a line that says how much was left out between them.
 */
struct capture {
	int fd;			/* the log file */
	size_t total;		/* bytes the child wrote */
	size_t head;		/* bytes written to the file so far */
	char *ring;		/* K_RUN_LOG_TAIL bytes, or NULL */
	size_t rlen, rpos;	/* bytes in the ring; where the next goes */
	int werr;		/* errno of a failed write to the file */
};

static void
put_all(struct capture *c, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0 && c->werr == 0) {
		w = write(c->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			c->werr = w < 0 ? errno : EIO;
			break;
		}
		p += w;
		n -= (size_t)w;
	}
}

static void
capture_add(struct capture *c, const char *p, size_t n)
{
	size_t k;

	c->total += n;
	if (c->head < K_RUN_LOG_HEAD) {
		k = n < K_RUN_LOG_HEAD - c->head ? n : K_RUN_LOG_HEAD - c->head;
		put_all(c, p, k);
		c->head += k;
		p += k;
		n -= k;
	}
	if (n == 0 || c->ring == NULL)
		return;
	if (n > K_RUN_LOG_TAIL) {
		p += n - K_RUN_LOG_TAIL;
		n = K_RUN_LOG_TAIL;
	}
	while (n > 0) {
		k = K_RUN_LOG_TAIL - c->rpos;
		if (k > n)
			k = n;
		memcpy(c->ring + c->rpos, p, k);
		c->rpos = (c->rpos + k) % K_RUN_LOG_TAIL;
		c->rlen = c->rlen + k > K_RUN_LOG_TAIL ? K_RUN_LOG_TAIL :
		    c->rlen + k;
		p += k;
		n -= k;
	}
}

static void
capture_end(struct capture *c)
{
	char note[128];
	size_t skipped = c->total - c->head - c->rlen;

	if (c->rlen == 0)
		return;
	if (skipped > 0) {
		snprintf(note, sizeof(note), "\n[%zu bytes of output left "
		    "out]\n", skipped);
		put_all(c, note, strlen(note));
	}
	if (c->rlen == K_RUN_LOG_TAIL)
		put_all(c, c->ring + c->rpos, K_RUN_LOG_TAIL - c->rpos);
	put_all(c, c->ring, c->rlen == K_RUN_LOG_TAIL ? c->rpos : c->rlen);
}

/* Read what the child has written, a bounded amount so that a flood
 * does not keep the caller from its clock; 0 at end of file or on an
 * error. */
static int
drain(int fd, struct capture *c)
{
	char buf[65536];
	ssize_t n;
	int i;

	for (i = 0; i < 16; i++) {
		n = read(fd, buf, sizeof(buf));
		if (n > 0) {
			capture_add(c, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 && errno == EAGAIN;
	}
	return 1;
}

int
k_run(char *const argv[], const char *cwd, const char *out_path,
    double timeout_s, struct k_proc *r)
{
	return k_run_limited(argv, cwd, out_path, timeout_s, NULL, r);
}

/* In the child, between fork and exec: setrlimit only. */
static void
set_limits(const struct k_limits *lim)
{
	struct rlimit rl;

	if (lim == NULL)
		return;
	if (lim->mem_mb > 0) {
		/* RLIMIT_DATA: the heap and private writable mappings,
		 * not the address space a GPU driver maps */
		rl.rlim_cur = rl.rlim_max = (rlim_t)lim->mem_mb << 20;
		setrlimit(RLIMIT_DATA, &rl);
	}
	if (lim->fsize_mb > 0) {
		rl.rlim_cur = rl.rlim_max = (rlim_t)lim->fsize_mb << 20;
		setrlimit(RLIMIT_FSIZE, &rl);
	}
	rl.rlim_cur = rl.rlim_max = 0;
	setrlimit(RLIMIT_CORE, &rl);
}

/* The child's environment where lim names its TMPDIR (the caller's
 * with that one changed; NULL-ended, made before the fork), else NULL:
 * the caller's as it is.  Free with free_env. */
static char **
child_env(const struct k_limits *lim)
{
	extern char **environ;
	char **e;
	size_t i, n = 0;

	if (lim == NULL || lim->tmpdir == NULL)
		return NULL;
	while (environ != NULL && environ[n] != NULL)
		n++;
	e = k_calloc(n + 2, sizeof(*e));
	for (i = 0, n = 0; environ != NULL && environ[i] != NULL; i++)
		if (strncmp(environ[i], "TMPDIR=", 7) != 0)
			e[n++] = k_strdup(environ[i]);
	e[n] = k_asprintf("TMPDIR=%s", lim->tmpdir);
	return e;
}

static void
free_env(char **e)
{
	size_t i;

	for (i = 0; e != NULL && e[i] != NULL; i++)
		free(e[i]);
	free(e);
}

int
k_run_limited(char *const argv[], const char *cwd, const char *out_path,
    double timeout_s, const struct k_limits *lim, struct k_proc *r)
{
	struct capture c;
	struct pollfd pf;
	pid_t pid, w;
	int st, fd, in, p[2], open_pipe = 1, err, slot;
	double t0 = k_now();
	int nap = 2;		/* ms between looks at the child */
	char **envp;

	memset(r, 0, sizeof(*r));
	memset(&c, 0, sizeof(c));
	if ((fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) < 0)
		return -1;
	if ((in = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
		close(fd);
		return -1;
	}
	if (pipe2(p, O_CLOEXEC) != 0) {
		err = errno;
		close(fd);
		close(in);
		errno = err;
		return -1;
	}
	c.fd = fd;
	c.ring = malloc(K_RUN_LOG_TAIL);
	envp = child_env(lim);
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(fd);
		close(in);
		close(p[0]);
		close(p[1]);
		free(c.ring);
		free_env(envp);
		errno = err;
		return -1;
	}
	if (pid == 0) {
		/* only async-signal-safe calls between fork and exec */
		setpgid(0, 0);
		set_limits(lim);
		if (cwd != NULL && chdir(cwd) != 0)
			_exit(126);
		if (dup2(in, 0) < 0 || dup2(p[1], 1) < 0 || dup2(p[1], 2) < 0)
			_exit(126);
		if (envp != NULL)
			execve(argv[0], argv, envp);
		else
			execv(argv[0], argv);
		_exit(127);
	}
	free_env(envp);
	setpgid(pid, pid);
	slot = k_child_track(pid);
	close(in);
	close(p[1]);
	fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
	for (;;) {
		if (open_pipe) {
			pf.fd = p[0];
			pf.events = POLLIN;
			pf.revents = 0;
			if (poll(&pf, 1, nap) > 0)
				open_pipe = drain(p[0], &c);
		} else {
			struct timespec ts = { 0, nap * 1000000L };
			nanosleep(&ts, NULL);
		}
		if (c.total > K_RUN_OUTPUT_MAX && !r->overflow) {
			/* a flood would fill the disk or never end */
			r->overflow = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			err = errno;
			k_child_untrack(slot);
			close(p[0]);
			close(fd);
			free(c.ring);
			errno = err;
			return -1;
		}
		if (timeout_s > 0 && k_now() - t0 > timeout_s && !r->timed_out) {
			r->timed_out = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		if (nap < 50)
			nap += 2;
	}
	/* whatever it left behind in its group goes too */
	kill(-pid, SIGKILL);
	k_child_untrack(slot);
	if (open_pipe)
		drain(p[0], &c);
	close(p[0]);
	r->seconds = k_now() - t0;
	r->output = c.total;
	capture_end(&c);
	free(c.ring);
	if (close(fd) != 0 && c.werr == 0)
		c.werr = errno;
	r->log_error = c.werr;
	if (WIFEXITED(st)) {
		r->exited = 1;
		r->status = WEXITSTATUS(st);
		r->started = r->status != 127;
	} else if (WIFSIGNALED(st)) {
		r->signal = WTERMSIG(st);
		r->started = 1;
	}
	return 0;
}

char *
k_which(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *full;
	struct stat st;

	if (strchr(name, '/') != NULL)
		return access(name, X_OK) == 0 ? k_strdup(name) : NULL;
	if (path == NULL)
		path = "/usr/bin:/bin";
	copy = k_strdup(path);
	for (dir = strtok_r(copy, ":", &save); dir != NULL;
	    dir = strtok_r(NULL, ":", &save)) {
		full = k_asprintf("%s/%s", *dir ? dir : ".", name);
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(full, X_OK) == 0) {
			free(copy);
			return full;
		}
		free(full);
	}
	free(copy);
	return NULL;
}

/* ------------------------------------------------------------ workers */

static long worker_mb;		/* k_worker_mem; 0: no limit */

int
k_worker_start(struct k_worker *w, void (*serve)(FILE *in, void *arg),
    void *arg)
{
	struct rlimit mem = { (rlim_t)worker_mb << 20, (rlim_t)worker_mb << 20 };
	struct rlimit nocore = { 0, 0 };
	int sv[2];
	pid_t pid, parent;
	FILE *in;
	char *buf = w->buf;
	size_t cap = w->cap;

	/* a worker started again after one that died keeps its buffer */
	memset(w, 0, sizeof(*w));
	w->buf = buf;
	w->cap = cap;
	w->fd = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return -1;
	/* what the parent has buffered is written once, by the parent */
	parent = getpid();
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) < 0) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		close(sv[0]);
#ifdef __linux__
		/* a parent killed outright takes its workers along, also
		 * one stuck in a parse that would never end */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(K_EXIT_SYSTEM);
#endif
		k_msg_child();
		/* a crash is reported by the parent; a core per crashing
		 * file would fill the disk */
		setrlimit(RLIMIT_CORE, &nocore);
		/* a file that makes the parser eat memory dies alone */
		if (worker_mb > 0 && setrlimit(RLIMIT_DATA, &mem) != 0)
			_exit(K_EXIT_SYSTEM);
		/* nothing of the parent's but stdin and stderr: a sibling
		 * holding another worker's socket would keep that worker
		 * from seeing the end of its requests */
		if (dup2(sv[1], STDOUT_FILENO) < 0)
			_exit(K_EXIT_SYSTEM);
		closefrom(STDERR_FILENO + 1);
		if ((in = fdopen(dup(STDOUT_FILENO), "r")) == NULL)
			_exit(K_EXIT_SYSTEM);
		serve(in, arg);
		fflush(stdout);
		_exit(0);
	}
	close(sv[1]);
	w->pid = pid;
	w->fd = sv[0];
	return 0;
}

/* The CPU seconds (user and system) process pid has used, from
 * /proc/PID/stat; -1 where that cannot be read. */
static double
proc_cpu(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	long hz = sysconf(_SC_CLK_TCK);
	ssize_t n;
	int fd, f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (pid <= 0 || hz <= 0 || (fd = open(path, O_RDONLY)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* fields after the command's closing parenthesis: state is the
	 * third, utime the fourteenth and stime the fifteenth */
	if ((p = strrchr(buf, ')')) == NULL)
		return -1;
	for (f = 2; f < 14 && p != NULL; f++)
		p = strchr(p + 1, ' ');
	if (p == NULL || sscanf(p, " %llu %llu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)hz;
}

int
k_worker_send(struct k_worker *w, const char *req, size_t len)
{
	ssize_t n;

	if (w->pid == 0)
		return -1;
	while (len > 0) {
		n = send(w->fd, req, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		req += n;
		len -= (size_t)n;
	}
	w->busy = 1;
	w->len = 0;
	w->since = k_now();
	w->cpu0 = proc_cpu(w->pid);
	return 0;
}

/* Kill and reap w, filling in how it ended. */
static void
worker_end(struct k_worker *w, int timed_out)
{
	int st;

	memset(&w->end, 0, sizeof(w->end));
	if (w->pid > 0) {
		kill(w->pid, SIGKILL);
		while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
			;
		if (WIFEXITED(st)) {
			w->end.exited = 1;
			w->end.status = WEXITSTATUS(st);
		} else if (WIFSIGNALED(st))
			w->end.signal = WTERMSIG(st);
	}
	w->end.started = 1;
	w->end.timed_out = timed_out;
	w->end.seconds = k_now() - w->since;
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	w->pid = 0;
	w->busy = 0;
}

/* Read what w has written; 1 when its reply is complete, -1 when it is
 * gone (end of file, an error, or a reply past the limit), else 0. */
static int
worker_read(struct k_worker *w)
{
	ssize_t n;

	if (w->cap - w->len < 65536) {
		if (w->cap >= K_WORKER_MAX_REPLY)
			return -1;
		w->cap = w->cap ? w->cap * 2 : 262144;
		w->buf = k_realloc(w->buf, w->cap + 1);
	}
	n = read(w->fd, w->buf + w->len, w->cap - w->len);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (n == 0)
		return -1;
	w->len += (size_t)n;
	w->buf[w->len] = '\0';
	if ((w->len == 1 && w->buf[0] == '\n') || (w->len >= 2 &&
	    w->buf[w->len - 1] == '\n' && w->buf[w->len - 2] == '\n')) {
		w->buf[--w->len] = '\0';
		w->busy = 0;
		return 1;
	}
	return 0;
}

long
k_worker_wait(struct k_worker *w, size_t n, double timeout_s,
    enum k_worker_event *ev)
{
	struct pollfd *pf;
	size_t i, *idx, np;
	double t, left, soonest;
	long r = -1;
	int rc, ms;

	pf = k_calloc(n + 1, sizeof(*pf));
	idx = k_calloc(n + 1, sizeof(*idx));
	for (;;) {
		np = 0;
		soonest = -1;
		t = k_now();
		for (i = 0; i < n; i++) {
			if (!w[i].busy || w[i].pid == 0)
				continue;
			left = timeout_s - (t - w[i].since);
			if (timeout_s > 0 && w[i].cpu0 >= 0) {
				/* CPU time, with wall time as the backstop;
				 * look again within a second, as CPU time
				 * may run ahead of the wall clock's */
				double c = proc_cpu(w[i].pid), wl;
				wl = K_WORKER_WALL * timeout_s - (t - w[i].since);
				left = c >= 0 ? timeout_s - (c - w[i].cpu0) : left;
				if (wl < left)
					left = wl;
				if (left > 1)
					left = 1;
			}
			if (timeout_s > 0 && left <= 0) {
				worker_end(&w[i], 1);
				*ev = K_WORKER_TIMEOUT;
				r = (long)i;
				goto out;
			}
			if (timeout_s > 0 && (soonest < 0 || left < soonest))
				soonest = left;
			pf[np].fd = w[i].fd;
			pf[np].events = POLLIN;
			pf[np].revents = 0;
			idx[np++] = i;
		}
		if (np == 0)
			goto out;
		ms = soonest < 0 ? -1 : (int)(soonest * 1000) + 1;
		rc = poll(pf, np, ms);
		if (rc < 0 && errno != EINTR)
			goto out;
		for (i = 0; rc > 0 && i < np; i++) {
			if (pf[i].revents == 0)
				continue;
			switch (worker_read(&w[idx[i]])) {
			case 1:
				*ev = K_WORKER_REPLY;
				r = (long)idx[i];
				goto out;
			case -1:
				worker_end(&w[idx[i]], 0);
				*ev = K_WORKER_DIED;
				r = (long)idx[i];
				goto out;
			}
		}
	}
out:
	free(pf);
	free(idx);
	return r;
}

void
k_worker_stop(struct k_worker *w)
{
	int st;

	if (w->pid > 0 && !w->busy) {
		/* an idle worker leaves at the end of its requests, freeing
		 * what it holds (which keeps valgrind's count honest) */
		shutdown(w->fd, SHUT_WR);
		close(w->fd);
		while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
			;
		w->fd = -1;
		w->pid = 0;
	}
	if (w->pid > 0)
		worker_end(w, 0);
	free(w->buf);
	w->buf = NULL;
	w->len = w->cap = 0;
}

const char *
k_worker_how(const struct k_worker *w)
{
	static char how[192];
	char lim[64] = "";

	/* an allocation past the limit aborts (std::bad_alloc, LLVM's
	 * out-of-memory handler) or makes the worker give up; a SIGSEGV is
	 * libclang's own (a stack overflow) */
	if (worker_mb > 0 && (w->end.signal == SIGABRT ||
	    (w->end.signal == 0 && w->end.status != 0)))
		snprintf(lim, sizeof(lim), " (its memory limit: %ld MiB, --mem)",
		    worker_mb);
	if (w->end.signal != 0)
		snprintf(how, sizeof(how), "killed by signal %d (%s)%s",
		    w->end.signal, strsignal(w->end.signal), lim);
	else
		snprintf(how, sizeof(how), "exited with status %d%s",
		    w->end.status, lim);
	return how;
}

void
k_worker_mem(long mb)
{
#if defined(__SANITIZE_ADDRESS__)
	(void)mb;
#else
	worker_mb = mb > 0 ? mb : 0;
#endif
}
