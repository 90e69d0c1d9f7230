/*
 * The nvcc flags a project builds a kernel with, as far as they change
 * what its device code means: macros, the language standard, the
 * --expt-* relaxations and the floating-point modes.  Include paths,
 * outputs, targets and host-compiler options are left out: a slice is
 * self-contained and kbuild picks the target.  These are what travels in
 * slice.flags and what kbuild accepts from a record.
 *
 * Ownership: the functions returning json_t * return new references.
 */
#ifndef K_FLAGS_H
#define K_FLAGS_H

#include <jansson.h>

/* The flags of one compile command (argv[0], the compiler, skipped),
 * kept as single tokens ("-D X" becomes "-DX"); response files named by
 * --options-file / -optf are read, relative to dir when not absolute.
 * Returns an array of strings, never NULL (out of memory aside). */
json_t *k_nvcc_flags(int argc, const char *const *argv, const char *dir);

/* argv with every --options-file / -optf FILE (or --options-file=FILE)
 * replaced by FILE's words (quotes group, backslash escapes; FILE relative
 * to dir when not absolute, unreadable ones dropped), nested up to a few
 * levels.  Returns a malloc'd vector of malloc'd strings, *n of them;
 * free with k_words_free. */
char **k_expand_options_files(int argc, const char *const *argv,
    const char *dir, int *n);
void k_words_free(char **w, int n);

/* Whether one token is a flag kbuild passes on from slice.flags. */
int k_nvcc_flag_ok(const char *flag);

/* PyTorch's extension builds (torch.utils.cpp_extension): the flags every
 * source that includes the torch headers is compiled with. */
json_t *k_torch_flags(void);

#endif
