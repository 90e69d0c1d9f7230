/*
 * The one funnel for diagnostics: every message a tool prints goes through
 * here, as "prog: where: message" (where is "path:line", "path" or absent).
 * Messages are lower case with no final period.
 */
#ifndef K_MSG_H
#define K_MSG_H

#include <stdarg.h>

/* Set the program name used as prefix (basename of argv0). */
void k_msg_init(const char *argv0);
const char *k_progname(void);

/* Warning: print and carry on; raises the exit status to code. */
void k_warn(int code, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void k_vwarn(int code, const char *where, const char *fmt, va_list ap);
/* Fatal: print and exit with code. */
void k_fatal(int code, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
/* In a forked worker: fatal errors leave with _exit, so that the parent's
 * atexit handlers and stdio buffers are not run twice. */
void k_msg_child(void);
/*
 * The input position of the record this thread works on ("<stdin>", 3):
 * every message is then printed as "prog: <stdin>:3: message", or with
 * its own place after the position ("prog: <stdin>:3: id: message"), so
 * a per-record error says where in the input it happened; a message
 * about the run, not the record, passes "" as its place.  name NULL
 * clears it.  name is borrowed: it must outlive the position.
 */
void k_msg_at(const char *name, unsigned long line);
/* This thread's position: its name (NULL when none) and line. */
const char *k_msg_where(unsigned long *line);
/* Quiet mode drops warnings (not fatal errors) from stderr.  On a
 * terminal, a warning like one already printed (the same text once its
 * first field, a record id or a path, and its digits are set aside) is
 * counted instead, and k_finish prints one line per such warning with
 * the count. */
void k_msg_quiet(int on);

/*
 * The status line at the bottom of a terminal (k_progress.c's): drawn
 * when stderr is a terminal and stdout is not, without -q, in the main
 * process only;
 * messages print above it.  final: the line stays, ended.  Then the run
 * is done with it.
 */
void k_msg_status(const char *line, int final);
/* Whether a status line would be drawn. */
int k_msg_status_on(void);
/* Called once by k_finish, before the summary of collapsed warnings. */
void k_msg_on_finish(void (*fn)(void));

/* Report a failed write to stdout (once per run) and raise the status. */
void k_write_error(int err);

/* Flush and close stdout, reporting a write error; return the final exit
 * status of the run (the worst seen). */
int k_finish(void);

#endif
