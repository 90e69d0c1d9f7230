/*
 * The serving harness: one long-lived harness process (harness --serve)
 * per record and worker, that runs the record's reference, candidate,
 * mutant and timing runs one command at a time, so that process start,
 * driver initialisation and the context are paid once per record instead
 * of once per run.
 *
 * A command's result looks like a run of its own (struct k_proc): the
 * answer "done 0" is exit 0; a command that fails ends the process, and
 * its exit status, signal, timeout or flood is that command's, with the
 * log it wrote during that command as its tail.  The next command starts
 * a fresh process: a fault poisons one process and one command only.  A
 * harness built before --serve refuses it as bad usage (exit 2 before it
 * is ready): then every run of the record is a process of its own, as
 * before.  The process runs in the same sandbox (k_jail) as a run of its
 * own, with the record's scratch directory as the one it may write.
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
	int on;			/* serve_begin() for this record */
	int off;		/* the harness refused --serve */
	pid_t pid;		/* 0: none running */
	int slot;		/* k_child_track's */
	int fd;			/* our end of its standard input and output */
	int log;		/* its standard error */
	int gpu;
	char harness[PATH_MAX + 200];
	char scratch[PATH_MAX];
	char logpath[PATH_MAX + 32];
	char buf[256];		/* an answer so far */
	size_t len;
	int starts, commands;
	double start_seconds;	/* waiting for "ready", all starts */
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

/* Start harness --serve for worker w; 0, or -1 (errno). */
static int
start(const struct worker *w, char *const argv[])
{
	char *args[8], **v;
	int s[2];
	pid_t pid;

	args[0] = argv[0];	/* this program's child mode */
	args[1] = argv[1];
	args[2] = argv[2];
	args[3] = argv[3];
	args[4] = argv[4];	/* the harness */
	args[5] = "--serve";
	args[6] = NULL;
	snprintf(sv.logpath, sizeof(sv.logpath), "%s/serve-%d.log",
	    sv.scratch, sv.starts);
	if (sv.log >= 0)
		close(sv.log);
	if ((sv.log = open(sv.logpath, O_RDWR | O_CREAT | O_TRUNC |
	    O_CLOEXEC, 0644)) < 0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s) != 0) {
		close(sv.log);
		sv.log = -1;
		return -1;
	}
	{
		struct k_jail j;
		char *selfdir = k_dirname(opt.self);
		memset(&j, 0, sizeof(j));
		j.scratch = sv.scratch;
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
		close(sv.log);
		sv.log = -1;
		errno = err;
		return -1;
	}
	if (pid == 0) {
		/* only async-signal-safe calls between fork and exec */
		setpgid(0, 0);
		if (chdir(sv.scratch) != 0)
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
	snprintf(sv.harness, sizeof(sv.harness), "%s", argv[4]);
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

/* Whether the record's runs go to a serving harness (one that knows
 * --times-only too). */
int
serve_serving(void)
{
	return sv.on && !sv.off && sv.starts > 0;
}

void
serve_begin(const char *scratch)
{
	memset(&sv, 0, sizeof(sv));
	sv.log = -1;
	sv.on = opt.serve;
	snprintf(sv.scratch, sizeof(sv.scratch), "%s", scratch);
}

/* The process stopped (end of its input) and how many there were, into
 * the verify section v (verify.serve). */
void
serve_end(json_t *v)
{
	if (sv.pid != 0) {
		shutdown(sv.fd, SHUT_WR);
		reap(NULL, 0);
	}
	if (sv.log >= 0)
		close(sv.log);
	sv.log = -1;
	if (sv.on && v != NULL)
		json_object_set_new(v, "serve", json_pack("{s:b,s:i,s:i,s:f}",
		    "used", !sv.off && sv.starts > 0, "processes", sv.starts,
		    "commands", sv.commands, "start_seconds",
		    round(sv.start_seconds * 1000) / 1000));
	sv.on = 0;
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
	char line[8192], log[PATH_MAX + 16];
	size_t len = 0;
	double t0 = k_now();
	int i, rc;

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
	memset(p, 0, sizeof(*p));
	snprintf(log, sizeof(log), "%s.log", dir);
	if (sv.pid != 0 && (sv.gpu != w->gpu || strcmp(sv.harness, argv[4])
	    != 0)) {
		shutdown(sv.fd, SHUT_WR);
		reap(NULL, 0);
	}
	if (sv.pid == 0) {
		/*
		 * Start-up (process, driver, context: no code of the record's
		 * yet) has a limit of its own, and the run's --timeout counts
		 * from "ready": where many workers start harnesses at once,
		 * a start can take seconds, and counted against the first
		 * run it judged a good candidate faulty (benchmark 64).
		 */
		if (start(w, argv) != 0)
			return -1;
		rc = answer(t0, timeout > 0 && timeout < SERVE_START_LIMIT ?
		    SERVE_START_LIMIT : timeout, p);
		sv.start_seconds += k_now() - t0;
		if (rc < 0)
			return -1;
		if (rc == 0 || strcmp(sv.buf, "ready") != 0) {
			if (rc == 1)
				reap(p, 1);
			if (p->exited && p->status == 2 && !p->timed_out) {
				/* a harness from before --serve */
				sv.off = 1;
				return 1;
			}
			/* it could not start (no device, no driver): this
			 * run's failure, as a run of its own would have had */
			p->output = (size_t)log_size();
			log_since(log);
			p->seconds = k_now() - t0;
			sv.commands++;
			return 0;
		}
		consume();
		t0 = k_now();
	}
	sv.commands++;
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
