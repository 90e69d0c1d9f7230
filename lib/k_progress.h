/*
 * Progress on a terminal: one stderr line that updates while a stage
 * runs (what is done, of how many when known, the rate, the time left)
 * and stays, final, when the run ends.  Nothing is drawn when stderr is
 * not a terminal, with -q, or in a forked worker; lib/k_msg.c owns the
 * line, so warnings print above it.
 *
 * By default the records k_write writes are counted (the records k_read
 * reads while none is written yet, for a stage that reads everything
 * first), and the share of a regular input file read so far gives the
 * time left.  A stage whose work is in other units (kscan's files) names
 * them and counts them itself.
 */
#ifndef K_PROGRESS_H
#define K_PROGRESS_H

#include <stdio.h>

/* Count units of this name ("files") through k_progress_add only. */
void k_progress_unit(const char *name);
/* n more units to do. */
void k_progress_more(unsigned long n);
/* n more units done. */
void k_progress_add(unsigned long n);
/* From k_read and k_write: a record read, a record written. */
void k_progress_read(void);
void k_progress_written(void);
/* From k_reader_init: the input, whose size and position give the share
 * read when it is a regular file. */
void k_progress_input(FILE *fp);
/* The final line, once (k_finish). */
void k_progress_end(void);

#endif
