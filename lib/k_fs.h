/*
 * Files and directories, with every error checked: the one whole-file
 * reader and the one file writer of kforge, and where its data lives.
 * Functions returning -1 (or NULL) set errno and print nothing, so that
 * the caller reports the failure in its own words through the funnel.
 */
#ifndef K_FS_H
#define K_FS_H

#include <stddef.h>

/* mkdir -p: make path and every missing parent (mode 0755); -1 with errno
 * set on failure. */
int k_mkdirs(const char *path);
/* rm -rf without following symbolic links; errors are ignored. */
void k_remove_tree(const char *path);

/*
 * A whole file, NUL-terminated (the NUL not counted in *len), in memory
 * the caller frees.  NULL with errno set when it cannot be opened or read,
 * or EFBIG when it holds more than max bytes.  len may be NULL.
 */
char *k_file_read(const char *path, size_t max, size_t *len);
/* The same for at most the first max bytes (a log, a program's output):
 * *cut (may be NULL) says whether the file held more. */
char *k_file_head(const char *path, size_t max, size_t *len, int *cut);
/*
 * Write n bytes to path, replacing it: written to a temporary file in the
 * same directory and renamed, so a reader (another kforge process
 * included) sees the old file or the whole new one, never half of it.
 * Mode 0644.  Returns 0, or -1 with errno set (nothing left behind).
 */
int k_file_write(const char *path, const void *p, size_t n);

/*
 * Where kforge's data directory sub ("stubs", "prompts") may be, in the
 * order to try: $env alone when that is set and not empty, else sub next
 * to the running program (a build tree) and ../share/kforge/sub beside
 * its bin/ (an installation).  Fills dirs with malloc'd paths the caller
 * frees and returns how many (0 when the program's path is unknown).
 */
int k_data_dirs(const char *env, const char *sub, char *dirs[2]);

/* The work directory's name: given (--work) when not NULL or empty, else
 * $KFORGE_WORK when set and not empty, else .kforge (borrowed). */
const char *k_work_name(const char *given);
/* That directory made (with its parents) and resolved into out; a
 * directory that cannot be used is fatal (K_EXIT_IO). */
void k_work_dir(const char *given, char out[]);

/* The directory part of path ("." when it has none, "/" for "/x"), in
 * malloc'd memory. */
char *k_dirname(const char *path);

#endif
