/*
 * The blob store: golden outputs in the work directory by SHA-256.
 */
#include <sys/stat.h>
#include <stdio.h>

#include "kverify.h"

/* Store bytes under their SHA-256 in the work directory; the hash goes
 * to hex.  k_file_write writes a temporary file and renames it, so a
 * concurrent kverify never reads half a blob. */
int
store_blob(const unsigned char *p, size_t n, char hex[K_SHA256_HEX])
{
	char dir[PATH_MAX + 16], path[PATH_MAX + 96];
	struct stat st;

	k_sha256_hex(p, n, hex);
	snprintf(dir, sizeof(dir), "%s/blobs/%.2s", opt.work, hex);
	snprintf(path, sizeof(path), "%s/%s", dir, hex);
	if (stat(path, &st) == 0 && (size_t)st.st_size == n)
		return 0;
	if (k_mkdirs(dir) != 0)
		return -1;
	return k_file_write(path, p, n);
}
