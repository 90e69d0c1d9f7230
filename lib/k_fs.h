/* Small file-system helpers the tools share. */
#ifndef K_FS_H
#define K_FS_H

/* mkdir -p: make path and every missing parent (mode 0755); -1 with errno
 * set on failure. */
int k_mkdirs(const char *path);
/* rm -rf without following symbolic links; errors are ignored. */
void k_remove_tree(const char *path);

#endif
