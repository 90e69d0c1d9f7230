/*
 * The blob store: golden outputs in the work directory by SHA-256.
 */
#include <sys/stat.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "kverify.h"

/* Store bytes under their SHA-256 in the work directory; the hash goes
 * to hex.  Written to a temporary name and renamed, so a concurrent
 * kverify never reads half a blob. */
int
store_blob(const unsigned char *p, size_t n, char hex[K_SHA256_HEX])
{
	char dir[PATH_MAX + 16], path[PATH_MAX + 96], tmp[PATH_MAX + 128];
	struct stat st;
	FILE *fp;
	int rc = 0;

	k_sha256_hex(p, n, hex);
	snprintf(dir, sizeof(dir), "%s/blobs/%.2s", opt.work, hex);
	snprintf(path, sizeof(path), "%s/%s", dir, hex);
	if (stat(path, &st) == 0 && (size_t)st.st_size == n)
		return 0;
	if (k_mkdirs(dir) != 0)
		return -1;
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld.%lx", path, (long)getpid(),
	    (unsigned long)pthread_self());
	if ((fp = fopen(tmp, "wb")) == NULL)
		return -1;
	if (n > 0 && fwrite(p, 1, n, fp) != n)
		rc = -1;
	if (fclose(fp) != 0)
		rc = -1;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc != 0)
		unlink(tmp);
	return rc;
}
