/* kbuild: the options and small file helpers the units share. */
#include "kbuild.h"

struct kbuild_opt opt;

/* Write text to path (k_file_write: checked, atomic). */
int
write_text(const char *path, const char *text)
{
	return k_file_write(path, text, strlen(text));
}

/* mkdir -p of the directory path is in. */
int
mkdirs_of(const char *path)
{
	char *dir = k_dirname(path);
	int rc = k_mkdirs(dir);

	free(dir);
	return rc;
}
