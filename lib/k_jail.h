/*
 * Running untrusted work (a compiler over a candidate's code, a harness a
 * record carries) in a sandbox: bubblewrap (bwrap(1), Debian's
 * "bubblewrap") gives the child new user, mount, network, IPC, PID and
 * UTS namespaces, a read-only view of /usr (the system's compilers and
 * libraries), the toolkit and the directories named read-only, no home, no
 * /etc beyond what the dynamic linker needs, no network, and one writable
 * scratch directory (its working directory) plus a private /tmp.  Memory,
 * file size and time limits are setrlimit's and k_run's, and hold with or
 * without the sandbox.
 *
 * KFORGE_BWRAP names the bwrap program ("none": no sandbox).  Where there
 * is none, or it cannot make namespaces here, the work runs with the limits
 * only, after one warning a run, its TMPDIR still the scratch directory.
 */
#ifndef K_JAIL_H
#define K_JAIL_H

#include "k_proc.h"

#define K_JAIL_RO_MAX 8

struct k_jail {
	const char *scratch;	/* the one writable directory, the cwd */
	const char *ro[K_JAIL_RO_MAX];	/* read-only views; NULL-ended */
	struct k_limits lim;
	int gpu;		/* the device nodes and /sys, for a GPU run */
	const char *why;	/* for the warning: "compilers", "harness runs" */
};

/*
 * k_run of argv in the jail: argv[0] is a path visible inside it (under
 * /usr, or a read-only view).  The child's environment is PATH, the locale
 * and the toolkit's variables only, HOME is the scratch directory.
 */
int k_jail_run(char *const argv[], const struct k_jail *j,
    const char *out_path, double timeout_s, struct k_proc *r);

/* The sandbox in use: "bwrap", or NULL after warning (once a run) that
 * there is none. */
const char *k_jail_kind(const char *why);

/* The command line of argv in jail j, for a caller that starts it itself
 * (a long-lived process with pipes): allocated, NULL-ended. */
char **k_jail_argv(char *const argv[], const struct k_jail *j);
void k_jail_argv_free(char **v);

#endif
