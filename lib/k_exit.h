/*
 * Exit statuses shared by every kforge tool.  The worst status seen during
 * a run wins; each man page's EXIT STATUS section lists these.
 */
#ifndef K_EXIT_H
#define K_EXIT_H

enum k_exit {
	K_EXIT_OK = 0,		/* every record went through cleanly */
	K_EXIT_RECORDS = 1,	/* some records carry errors; run went on */
	K_EXIT_USAGE = 2,	/* bad options or arguments */
	K_EXIT_IO = 3,		/* reading input or writing output failed */
	K_EXIT_SYSTEM = 4	/* out of memory, a library or process failure */
};

/* Raise the run's status to code if code is worse; return the new value. */
int k_exit_raise(int code);
/* The worst status raised so far. */
int k_exit_status(void);

#endif
