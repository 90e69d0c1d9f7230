#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "k_proc.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
k_run(char *const argv[], const char *cwd, const char *out_path,
    double timeout_s, struct k_proc *r)
{
	pid_t pid, w;
	int st, fd, in;
	double t0 = now();
	struct timespec nap = { 0, 2000000 };

	memset(r, 0, sizeof(*r));
	if ((fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) < 0)
		return -1;
	if ((in = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
		close(fd);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		close(fd);
		close(in);
		return -1;
	}
	if (pid == 0) {
		/* only async-signal-safe calls between fork and exec */
		setpgid(0, 0);
		if (cwd != NULL && chdir(cwd) != 0)
			_exit(126);
		if (dup2(in, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	close(fd);
	close(in);
	for (;;) {
		w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -1;
		if (timeout_s > 0 && now() - t0 > timeout_s && !r->timed_out) {
			r->timed_out = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 50000000)
			nap.tv_nsec += 2000000;
	}
	/* whatever it left behind in its group goes too */
	kill(-pid, SIGKILL);
	r->seconds = now() - t0;
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
		return access(name, X_OK) == 0 ? strdup(name) : NULL;
	if (path == NULL)
		path = "/usr/bin:/bin";
	if ((copy = strdup(path)) == NULL)
		return NULL;
	for (dir = strtok_r(copy, ":", &save); dir != NULL;
	    dir = strtok_r(NULL, ":", &save)) {
		if (asprintf(&full, "%s/%s", *dir ? dir : ".", name) < 0)
			break;
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
