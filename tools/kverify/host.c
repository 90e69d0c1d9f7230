/*
 * The host: kverify --kverify-host, a child process (in the harness's
 * sandbox and limits) that one worker keeps from record to record.  It
 * makes the device's context once, then loads each record's harness as a
 * shared object (harness.so, built by kbuild beside the program) and runs
 * its commands, so that process start, driver and context are paid once
 * per worker, not once per record: on a host with several GPUs those are
 * what many processes wait on each other for (benchmark 66: contexts are
 * made at about four a second per host, whatever the GPUs).
 *
 * The protocol is the serving harness's (kwrap(1), --serve), one line
 * each way: "ready" once the context is made; then a line "load PATH"
 * (tab-separated) loads PATH, unloading the harness before it, and any
 * other line is a harness command, its arguments separated by tabs; the
 * answer to either is "done 0".  A command that fails ends the process
 * with the status a run of its own would have had, as a serving harness
 * does: a fault poisons this process and the command that faulted, and
 * the next command starts a fresh host.  A harness that cannot be loaded
 * ends it with 127.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kverify.h"

#define HOST_ARGS 256		/* a command's arguments, at most */

typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_device_get_fn)(int *, int);
typedef int (*cu_retain_fn)(void **, int);
typedef int (*cu_set_fn)(void *);
typedef int (*command_fn)(int, char **);

/* The driver loaded for good and device 0's primary context retained
 * and current: every harness loaded later finds it made.  0, or -1 with
 * the reason on standard error. */
static int
context(void)
{
	void *cu = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
	cu_init_fn init;
	cu_device_get_fn get;
	cu_retain_fn retain;
	cu_set_fn set;
	void *ctx = NULL;
	int dev = 0, rc;

	if (cu == NULL) {
		fprintf(stderr, "kverify host: %s\n", dlerror());
		return -1;
	}
	init = (cu_init_fn)dlsym(cu, "cuInit");
	get = (cu_device_get_fn)dlsym(cu, "cuDeviceGet");
	retain = (cu_retain_fn)dlsym(cu, "cuDevicePrimaryCtxRetain");
	set = (cu_set_fn)dlsym(cu, "cuCtxSetCurrent");
	if (init == NULL || get == NULL || retain == NULL || set == NULL) {
		fprintf(stderr, "kverify host: libcuda.so.1 lacks the driver "
		    "API's entry points\n");
		return -1;
	}
	if ((rc = init(0)) != 0 || (rc = get(&dev, 0)) != 0 ||
	    (rc = retain(&ctx, dev)) != 0 || (rc = set(ctx)) != 0) {
		fprintf(stderr, "kverify host: no device context (CUDA "
		    "error %d)\n", rc);
		return -1;
	}
	return 0;
}

int
host_main(void)
{
	char *line = NULL, *av[HOST_ARGS + 2], *p, *t;
	void *lib = NULL;
	command_fn cmd = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *answer;
	int fd, ac, rc;

	/* answers on the first standard output; what harnesses print
	 * goes to standard error, the log */
	if ((fd = dup(1)) < 0 || (answer = fdopen(fd, "w")) == NULL ||
	    dup2(2, 1) < 0) {
		fprintf(stderr, "kverify host: %s\n", strerror(errno));
		return 1;
	}
	if (context() != 0)
		return 1;
	fprintf(answer, "ready\n");
	fflush(answer);
	while ((len = getline(&line, &cap, stdin)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (strncmp(line, "load\t", 5) == 0) {
			if (lib != NULL)
				dlclose(lib);
			cmd = NULL;
			if ((lib = dlopen(line + 5, RTLD_NOW | RTLD_LOCAL)) ==
			    NULL || (cmd = (command_fn)dlsym(lib,
			    "kw_host_command")) == NULL) {
				fprintf(stderr, "kverify host: %s: %s\n",
				    line + 5, lib == NULL ? dlerror() :
				    "no kw_host_command: not a kwrap harness");
				return 127;
			}
		} else {
			if (cmd == NULL) {
				fprintf(stderr, "kverify host: a command "
				    "before any harness was loaded\n");
				return 127;
			}
			ac = 0;
			av[ac++] = "harness";
			for (p = line; p != NULL && ac < HOST_ARGS; p = t) {
				if ((t = strchr(p, '\t')) != NULL)
					*t++ = '\0';
				av[ac++] = p;
			}
			av[ac] = NULL;
			if ((rc = cmd(ac, av)) != 0)
				return rc;
		}
		fflush(stdout);
		fflush(stderr);
		fprintf(answer, "done 0\n");
		if (fflush(answer) != 0)
			return 1;
	}
	free(line);
	return 0;
}
