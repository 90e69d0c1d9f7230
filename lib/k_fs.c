#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>

#include "k_fs.h"

int
k_mkdirs(const char *path)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (p = buf + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0755) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path);
}

void
k_remove_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
