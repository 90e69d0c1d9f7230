#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "k_exit.h"
#include "k_fs.h"
#include "k_mem.h"
#include "k_msg.h"

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

/* The one reader: the whole file, or (cut not NULL) its first max bytes. */
static char *
read_file(const char *path, size_t max, size_t *len, int *cut)
{
	FILE *fp;
	char *buf = NULL;
	size_t cap = 0, n = 0, got;
	int saved;

	if (len != NULL)
		*len = 0;
	if (cut != NULL)
		*cut = 0;
	if ((fp = fopen(path, "rb")) == NULL)
		return NULL;
	for (;;) {
		if (n == cap) {
			/* one byte past max tells a file of max bytes from a
			 * longer one */
			if (cap > max)
				break;
			cap = cap ? cap * 2 : 65536;
			if (cap > max + 1)
				cap = max + 1;
			buf = k_realloc(buf, cap + 1);
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		saved = errno ? errno : EIO;
		free(buf);
		fclose(fp);
		errno = saved;
		return NULL;
	}
	fclose(fp);
	if (n > max) {
		if (cut == NULL) {
			free(buf);
			errno = EFBIG;
			return NULL;
		}
		*cut = 1;
		n = max;
	}
	if (buf == NULL)
		buf = k_malloc(1);
	buf[n] = '\0';
	if (len != NULL)
		*len = n;
	return buf;
}

char *
k_file_read(const char *path, size_t max, size_t *len)
{
	return read_file(path, max, len, NULL);
}

char *
k_file_head(const char *path, size_t max, size_t *len, int *cut)
{
	int c;

	return read_file(path, max, len, cut != NULL ? cut : &c);
}

int
k_file_write(const char *path, const void *p, size_t n)
{
	char *tmp;
	const char *c = p;
	ssize_t w;
	int fd, saved;

	tmp = k_asprintf("%s.tmp.XXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0) {
		free(tmp);
		return -1;
	}
	if (fchmod(fd, 0644) != 0)
		goto fail;
	while (n > 0) {
		if ((w = write(fd, c, n)) < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		c += w;
		n -= (size_t)w;
	}
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	return 0;
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	errno = saved;
	return -1;
}

const char *
k_work_name(const char *given)
{
	const char *env = getenv("KFORGE_WORK");

	if (given != NULL && *given != '\0')
		return given;
	return env != NULL && *env != '\0' ? env : ".kforge";
}

void
k_work_dir(const char *given, char out[])
{
	const char *work = k_work_name(given);

	/* out holds PATH_MAX bytes, as realpath wants */
	if (k_mkdirs(work) != 0 || realpath(work, out) == NULL)
		k_fatal(K_EXIT_IO, work, "cannot use as work directory: %s",
		    strerror(errno));
}

char *
k_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return k_strdup(".");
	if (slash == path)
		return k_strdup("/");
	return k_strndup(path, (size_t)(slash - path));
}

int
k_data_dirs(const char *env, const char *sub, char *dirs[2])
{
	const char *e = env != NULL ? getenv(env) : NULL;
	char exe[PATH_MAX], *dir;
	ssize_t n;

	if (e != NULL && *e != '\0') {
		dirs[0] = k_strdup(e);
		return 1;
	}
	if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) <= 0)
		return 0;
	exe[n] = '\0';
	dir = k_dirname(exe);
	dirs[0] = k_asprintf("%s/%s", dir, sub);
	dirs[1] = k_asprintf("%s/../share/kforge/%s", dir, sub);
	free(dir);
	return 2;
}
