/*
 * Shared helpers for the cmocka unit tests.  Code that touches the process's
 * standard streams or the library's per-process state (exit status, quiet
 * mode, program name) runs in a child (u_child), a fresh exec of the test
 * program, so that it can neither garble cmocka's TAP on stdout nor see or
 * leak state from other tests.  A child does not use cmocka's assertions;
 * it returns a status that the parent checks.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* A fresh file name under $TMPDIR (test/unit.t points it into test/tmp). */
static inline char *
u_tmpname(const char *tag)
{
	static char path[8][4096];
	static int next;
	const char *dir = getenv("TMPDIR");
	char *p = path[next++ % 8];
	int fd;

	snprintf(p, sizeof(path[0]), "%s/kforge-%s-XXXXXX",
	    dir != NULL && *dir != '\0' ? dir : "/tmp", tag);
	fd = mkstemp(p);
	assert_true(fd >= 0);
	close(fd);
	return p;
}

/* The whole file as a NUL-terminated string the caller frees. */
static inline char *
u_slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n >= 0);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static inline void
u_redirect(int fd, const char *path, int flags)
{
	int f = open(path, flags, 0600);

	if (f < 0 || dup2(f, fd) < 0)
		_exit(98);
	close(f);
}

/*
 * Code run in a child: fn(arg) returns the child's exit status (or the
 * child exits on its own).  Each test program lists its children in a table
 * ending with a NULL name, and main starts with u_dispatch.
 */
struct u_child {
	const char *name;
	int (*fn)(const char *arg);
};

/*
 * When argv asks for a child ("--child NAME ARG"), run it and return its
 * status; else return -1 and main runs the tests.
 */
static inline int
u_dispatch(const struct u_child *t, int argc, char **argv)
{
	if (argc != 4 || strcmp(argv[1], "--child") != 0)
		return -1;
	for (; t->name != NULL; t++)
		if (strcmp(t->name, argv[2]) == 0)
			return t->fn(argv[3]);
	fprintf(stderr, "%s: no child named %s\n", argv[0], argv[2]);
	return 97;
}

/*
 * Run the child called name with arg in a fresh copy of this program (so
 * that it starts from the library's initial state, not from what earlier
 * tests left behind), its stdin, stdout and stderr on the named files (NULL
 * leaves a stream alone); return its exit status.
 */
static inline int
u_child(const char *name, const char *arg, const char *in, const char *out,
    const char *err)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (in != NULL)
			u_redirect(0, in, O_RDONLY);
		if (out != NULL)
			u_redirect(1, out, O_WRONLY | O_CREAT | O_TRUNC);
		if (err != NULL)
			u_redirect(2, err, O_WRONLY | O_CREAT | O_TRUNC);
		execl("/proc/self/exe", "unit-child", "--child", name,
		    arg != NULL ? arg : "", (char *)NULL);
		_exit(96);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

#endif
