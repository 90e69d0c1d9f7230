/*
 * The serving harness: one long-lived harness process per worker, so that
 * process start, driver initialisation and the context are paid once per
 * worker (the host) or once per record (a serving harness), not once per
 * run.
 *
 * With --host, where kbuild built the record's harness as a shared object
 * too (build.harness.shared), the runs go to the worker's host (host.c,
 * kverify --kverify-host), which outlives the record: it loads each
 * record's harness.so in turn and runs its commands in one process and
 * one context.  Else (no --host, a harness built before harness.so, one
 * the host cannot load) they go to one "harness --serve" process per
 * record and worker.
 *
 * A command's result looks like a run of its own (struct k_proc): the
 * answer "done 0" is exit 0; a command that fails ends the process, and
 * its exit status, signal, timeout or flood is that command's, with the
 * log it wrote during that command as its tail.  The next command starts
 * a fresh process: a fault poisons one process and one command only.  A
 * harness built before --serve refuses it as bad usage (exit 2 before it
 * is ready): then every run of the record is a process of its own, as
 * before.  The process runs in the same sandbox (k_jail) as a run of its
 * own, with the record's scratch directory as the one it may write (the
 * host: the directory of every record's scratch, work/verify).
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "k_jail.h"
#include "kverify.h"

struct server {
	/* the record's */
	int inited;		/* log is -1 until a process opens it */
	int on;			/* serve_begin() for this record */
	int off;		/* the harness refused --serve */
	int nohost;		/* the host could not load its harness */
	int served;		/* a command went to a serving process */
	int hosted;		/* ... to the host */
	int starts, commands;
	double start_seconds;	/* waiting for "ready", all starts */
	char scratch[PATH_MAX];
	/* the process's, which a host keeps from record to record */
	pid_t pid;		/* 0: none running */
	int host;		/* it is the host, not a serving harness */
	int slot;		/* k_child_track's */
	int fd;			/* our end of its standard input and output */
	int log;		/* its standard error */
	int gpu;
	char harness[PATH_MAX + 200];	/* a serving harness's program */
	char loaded[PATH_MAX + 200];	/* the host's harness.so */
	char logpath[PATH_MAX + 32];
	char buf[256];		/* an answer so far */
	size_t len;
};

static _Thread_local struct server sv;

/* The end of the running process, into p (exited/status or signal). */
static void
reap(struct k_proc *p, int kill_it)
{
	int st = 0;
	double t0 = k_now();
	pid_t w;

	if (kill_it) {
		kill(-sv.pid, SIGKILL);
		kill(sv.pid, SIGKILL);
	}
	for (;;) {
		w = waitpid(sv.pid, &st, WNOHANG);
		if (w == sv.pid || (w < 0 && errno != EINTR))
			break;
		if (k_now() - t0 > 2) {
			/* it closed its answers but lingers */
			kill(-sv.pid, SIGKILL);
			kill(sv.pid, SIGKILL);
		}
		usleep(1000);
	}
	/* whatever it left behind in its group goes too */
	kill(-sv.pid, SIGKILL);
	k_child_untrack(sv.slot);
	if (p != NULL && w == sv.pid) {
		if (WIFEXITED(st)) {
			p->exited = 1;
			p->status = WEXITSTATUS(st);
			p->started = p->status != 127;
		} else if (WIFSIGNALED(st)) {
			p->signal = WTERMSIG(st);
			p->started = 1;
		}
	}
	close(sv.fd);
	sv.pid = 0;
	sv.len = 0;
}

/* The log of the process before, closed; a host's, which lies outside
 * any record's scratch, removed too. */
static void
log_close(void)
{
	if (sv.log < 0)
		return;
	close(sv.log);
	sv.log = -1;
	if (sv.host)
		unlink(sv.logpath);
}

/* Start the host (host) or harness --serve for worker w; 0, or -1
 * (errno). */
static int
start(const struct worker *w, char *const argv[], int host)
{
	char *args[8], **v, dir[PATH_MAX + 16];
	const char *scratch = sv.scratch;
	int s[2];
	pid_t pid;

	log_close();
	args[0] = argv[0];	/* this program's child mode */
	args[1] = argv[1];
	args[2] = argv[2];
	args[3] = argv[3];
	if (host) {
		args[4] = opt.self;
		args[5] = HOST_FLAG;
		snprintf(dir, sizeof(dir), "%s/verify", opt.work);
		scratch = dir;
		snprintf(sv.logpath, sizeof(sv.logpath), "%s/host.XXXXXX",
		    dir);
		sv.log = mkstemp(sv.logpath);
		if (sv.log >= 0)
			fcntl(sv.log, F_SETFD, FD_CLOEXEC);
	} else {
		args[4] = argv[4];	/* the harness */
		args[5] = "--serve";
		snprintf(sv.logpath, sizeof(sv.logpath), "%s/serve-%d.log",
		    sv.scratch, sv.starts);
		sv.log = open(sv.logpath, O_RDWR | O_CREAT | O_TRUNC |
		    O_CLOEXEC, 0644);
	}
	args[6] = NULL;
	sv.host = host;
	if (sv.log < 0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s) != 0) {
		log_close();
		return -1;
	}
	{
		struct k_jail j;
		char *selfdir = k_dirname(opt.self);
		memset(&j, 0, sizeof(j));
		j.scratch = scratch;
		j.ro[0] = opt.work;
		j.ro[1] = selfdir;
		j.gpu = 1;
		j.why = "harness runs";
		v = k_jail_argv(args, &j);
		free(selfdir);
	}
	pid = fork();
	if (pid < 0) {
		int err = errno;
		k_jail_argv_free(v);
		close(s[0]);
		close(s[1]);
		log_close();
		errno = err;
		return -1;
	}
	if (pid == 0) {
		/* only async-signal-safe calls between fork and exec */
		setpgid(0, 0);
		if (chdir(scratch) != 0)
			_exit(126);
		if (dup2(s[1], 0) < 0 || dup2(s[1], 1) < 0 ||
		    dup2(sv.log, 2) < 0)
			_exit(126);
		execv(v[0], v);
		_exit(127);
	}
	setpgid(pid, pid);
	k_jail_argv_free(v);
	close(s[1]);
	sv.pid = pid;
	sv.slot = k_child_track(pid);
	sv.fd = s[0];
	sv.len = 0;
	sv.gpu = w->gpu;
	sv.loaded[0] = '\0';
	snprintf(sv.harness, sizeof(sv.harness), "%s", host ? "" : argv[4]);
	sv.starts++;
	return 0;
}

/* Log size, for the flood limit */
static off_t
log_size(void)
{
	struct stat st;

	return fstat(sv.log, &st) == 0 ? st.st_size : 0;
}

/*
 * Wait for one answer line until timeout seconds from t0: 1 with the
 * line in sv.buf (its newline dropped), 0 when the process ended (or was
 * killed for a timeout or a flood: p says so), -1 on a system error.
 */
static int
answer(double t0, double timeout, struct k_proc *p)
{
	char *nl;
	ssize_t n;

	for (;;) {
		struct pollfd pf = { sv.fd, POLLIN, 0 };
		if ((nl = memchr(sv.buf, '\n', sv.len)) != NULL) {
			*nl = '\0';
			return 1;
		}
		if (sv.len == sizeof(sv.buf) - 1) {
			/* no harness answers that much: not ours */
			reap(p, 1);
			return 0;
		}
		if (poll(&pf, 1, 20) < 0 && errno != EINTR)
			return -1;
		if (pf.revents != 0) {
			n = read(sv.fd, sv.buf + sv.len, sizeof(sv.buf) - 1 -
			    sv.len);
			if (n == 0 || (n < 0 && errno != EINTR &&
			    errno != EAGAIN)) {
				reap(p, 0);
				return 0;
			}
			if (n > 0)
				sv.len += (size_t)n;
			continue;
		}
		if ((unsigned long)log_size() > K_RUN_OUTPUT_MAX) {
			/* a flood would fill the disk or never end */
			p->overflow = 1;
			reap(p, 1);
			return 0;
		}
		if (timeout > 0 && k_now() - t0 > timeout) {
			p->timed_out = 1;
			reap(p, 1);
			return 0;
		}
	}
}

/* The answer line consumed from sv.buf. */
static void
consume(void)
{
	size_t used = strlen(sv.buf) + 1;

	memmove(sv.buf, sv.buf + used, sv.len - used);
	sv.len -= used;
}

/*
 * What the process wrote to its log since the command began, into path,
 * kept as a run of its own keeps it (the first K_RUN_LOG_HEAD and last
 * K_RUN_LOG_TAIL bytes, a note of what was left out between); the log is
 * emptied for the next command (the process shares its file offset).
 */
static void
log_since(const char *path)
{
	off_t end = log_size();
	size_t keep[2][2] = { { 0, 0 }, { 0, 0 } }, n;
	char *b, note[128];
	int fd, i;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) < 0)
		return;
	if ((size_t)end > K_RUN_LOG_HEAD + K_RUN_LOG_TAIL) {
		keep[0][1] = K_RUN_LOG_HEAD;
		keep[1][0] = (size_t)end - K_RUN_LOG_TAIL;
		keep[1][1] = K_RUN_LOG_TAIL;
	} else
		keep[0][1] = (size_t)end;
	for (i = 0; i < 2; i++) {
		if (keep[i][1] == 0)
			continue;
		if (i == 1) {
			snprintf(note, sizeof(note), "\n[%zu bytes of output "
			    "left out]\n", keep[1][0] - keep[0][1]);
			if (write(fd, note, strlen(note)) < 0)
				break;
		}
		n = keep[i][1];
		if ((b = malloc(n)) != NULL) {
			ssize_t got = pread(sv.log, b, n, (off_t)keep[i][0]);
			if (got > 0 && write(fd, b, (size_t)got) != got)
				got = 0;
			free(b);
		}
	}
	close(fd);
	if (ftruncate(sv.log, 0) == 0)
		lseek(sv.log, 0, SEEK_SET);
}

/* Whether the record's runs go to a serving process (one that knows
 * --times-only too). */
int
serve_serving(void)
{
	return sv.on && !sv.off && sv.served;
}

/* Stop the process (end of its input) and forget its log. */
static void
stop(void)
{
	if (sv.pid != 0) {
		shutdown(sv.fd, SHUT_WR);
		reap(NULL, 0);
	}
	log_close();
}

void
serve_begin(const char *scratch)
{
	if (!sv.inited) {
		sv.log = -1;
		sv.inited = 1;
	}
	/* a host stays; a serving harness ended with its record */
	sv.on = opt.serve;
	sv.off = sv.nohost = sv.served = sv.hosted = 0;
	sv.starts = sv.commands = 0;
	sv.start_seconds = 0;
	snprintf(sv.scratch, sizeof(sv.scratch), "%s", scratch);
}

/* The record's serving process stopped, unless it is the host, and how
 * many there were, into the verify section v (verify.serve). */
void
serve_end(json_t *v)
{
	if (!sv.host)
		stop();
	if (sv.on && v != NULL)
		json_object_set_new(v, "serve", json_pack("{s:b,s:b,s:i,s:i,"
		    "s:f}", "used", !sv.off && sv.served, "hosted", sv.hosted,
		    "processes", sv.starts, "commands", sv.commands,
		    "start_seconds", round(sv.start_seconds * 1000) / 1000));
	sv.on = 0;
}

/* The worker's last record is done: its host stops. */
void
serve_close(void)
{
	if (!sv.inited)
		return;
	stop();
	sv.host = 0;
}

/* The shared object kbuild built beside harness (harness.so), into so;
 * 0 when there is none to use. */
static int
shared_of(const char *harness, char *so, size_t len)
{
	const char *slash = strrchr(harness, '/');
	int n;

	if (!opt.host || sv.nohost || slash == NULL)
		return 0;
	n = snprintf(so, len, "%.*s/harness.so", (int)(slash - harness),
	    harness);
	return n > 0 && (size_t)n < len && strchr(so, '\t') == NULL &&
	    strchr(so, '\n') == NULL && access(so, R_OK) == 0;
}

/*
 * Start a process for worker w and wait for its "ready": 0 when it is,
 * 1 when it could not start (p says how; a harness from before --serve
 * sets sv.off), -1 on a system error.  Start-up (process, driver,
 * context: no code of the record's yet) has a limit of its own, and the
 * run's --timeout counts from "ready": where many workers start processes
 * at once, a start can take seconds, and counted against the first run it
 * judged a good candidate faulty (benchmark 64).
 */
static int
start_ready(const struct worker *w, char *const argv[], int host,
    double timeout, struct k_proc *p)
{
	double t0 = k_now();
	int rc;

	if (start(w, argv, host) != 0)
		return -1;
	rc = answer(t0, timeout > 0 && timeout < SERVE_START_LIMIT ?
	    SERVE_START_LIMIT : timeout, p);
	sv.start_seconds += k_now() - t0;
	if (rc < 0)
		return -1;
	if (rc == 1 && strcmp(sv.buf, "ready") == 0) {
		consume();
		return 0;
	}
	if (rc == 1)
		reap(p, 1);
	if (!host && p->exited && p->status == 2 && !p->timed_out)
		sv.off = 1;	/* a harness from before --serve */
	return 1;
}

/* Load the shared object so into the host: 0, or 1 when the host could
 * not (it ended), -1 on a system error. */
static int
load(const char *so, struct k_proc *p)
{
	char line[PATH_MAX + 232];
	int n = snprintf(line, sizeof(line), "load\t%s\n", so), rc;

	if (send(sv.fd, line, (size_t)n, MSG_NOSIGNAL) != n) {
		reap(p, 1);
		return 1;
	}
	if ((rc = answer(k_now(), SERVE_START_LIMIT, p)) < 0)
		return -1;
	if (rc == 1 && strcmp(sv.buf, "done 0") == 0) {
		consume();
		snprintf(sv.loaded, sizeof(sv.loaded), "%s", so);
		return 0;
	}
	if (rc == 1)
		reap(p, 1);
	return 1;
}

/*
 * One harness run through the serving process: argv is run_harness's
 * (this program's child mode, its limits, the harness, then the run's
 * arguments).  0 with p (and the run's log dir.log) filled as a run of
 * its own fills them; 1 when this run is not for serving (then the caller
 * runs it as a process of its own); -1 on a system error.
 */
int
serve_run(const struct worker *w, char *const argv[], const char *dir,
    double timeout, struct k_proc *p)
{
	char line[8192], log[PATH_MAX + 16], so[PATH_MAX + 200];
	size_t len = 0;
	double t0;
	int i, rc, host;

	if (!sv.on || sv.off)
		return 1;
	for (i = 5; argv[i] != NULL; i++) {
		int n = snprintf(line + len, sizeof(line) - len, "%s%s",
		    i > 5 ? "\t" : "", argv[i]);
		if (strpbrk(argv[i], "\t\n") != NULL || n < 0 ||
		    (size_t)n >= sizeof(line) - len - 1)
			return 1;
		len += (size_t)n;
	}
	line[len++] = '\n';
	snprintf(log, sizeof(log), "%s.log", dir);
again:
	memset(p, 0, sizeof(*p));
	t0 = k_now();
	host = shared_of(argv[4], so, sizeof(so));
	if (sv.pid != 0 && (sv.gpu != w->gpu || sv.host != host ||
	    (!host && strcmp(sv.harness, argv[4]) != 0)))
		stop();
	if (sv.pid == 0) {
		if ((rc = start_ready(w, argv, host, timeout, p)) < 0)
			return -1;
		if (rc == 1 && host) {
			/* the per-record harness says why, or runs */
			sv.nohost = 1;
			goto again;
		}
		if (rc == 1) {
			if (sv.off)
				return 1;
			/* it could not start (no device, no driver): this
			 * run's failure, as a run of its own would have had */
			p->output = (size_t)log_size();
			log_since(log);
			p->seconds = k_now() - t0;
			sv.commands++;
			return 0;
		}
	}
	if (host && strcmp(sv.loaded, so) != 0) {
		double l0 = k_now();
		rc = load(so, p);
		sv.start_seconds += k_now() - l0;
		if (rc < 0)
			return -1;
		if (rc == 1) {
			sv.nohost = 1;
			goto again;
		}
	}
	t0 = k_now();
	sv.commands++;
	sv.served = 1;
	sv.hosted |= host;
	if (send(sv.fd, line, len, MSG_NOSIGNAL) != (ssize_t)len) {
		/* it died between two commands */
		reap(p, 1);
	} else if ((rc = answer(t0, timeout, p)) < 0)
		return -1;
	else if (rc == 1) {
		if (strcmp(sv.buf, "done 0") == 0) {
			p->exited = 1;
			p->status = 0;
			p->started = 1;
			consume();
		} else {
			/* not an answer of the protocol */
			reap(p, 1);
			p->exited = 1;
			p->status = 1;
			p->signal = 0;
			p->started = 1;
		}
	}
	p->output = (size_t)log_size();
	log_since(log);
	p->seconds = k_now() - t0;
	return 0;
}
