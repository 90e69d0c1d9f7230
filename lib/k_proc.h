/*
 * Running a child program with a wall-clock limit, its output captured in
 * a file.  The child leads its own process group, so a timeout kills
 * everything it started.
 */
#ifndef K_PROC_H
#define K_PROC_H

struct k_proc {
	int started;		/* exec succeeded (127 otherwise) */
	int exited;		/* exit status valid */
	int status;		/* exit status */
	int signal;		/* terminating signal, 0 if none */
	int timed_out;
	double seconds;
};

/*
 * Run argv[0] (a path) with argv, in directory cwd (NULL: unchanged), with
 * stdin from /dev/null and stdout and stderr into out_path (truncated).
 * timeout_s <= 0 waits forever.  Returns 0 when the child ran (whatever its
 * status), -1 when it could not be started (errno set).
 */
int k_run(char *const argv[], const char *cwd, const char *out_path,
    double timeout_s, struct k_proc *r);

/* The full path of an executable found on PATH, or NULL; malloc'd. */
char *k_which(const char *name);

#endif
