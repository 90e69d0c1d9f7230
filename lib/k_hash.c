#include <errno.h>
#include <stdio.h>

#include <openssl/evp.h>

#include "k_hash.h"

static void
hex(const unsigned char *md, unsigned int n, char out[K_SHA256_HEX])
{
	static const char digits[] = "0123456789abcdef";
	unsigned int i;

	for (i = 0; i < n && i < 32; i++) {
		out[2 * i] = digits[md[i] >> 4];
		out[2 * i + 1] = digits[md[i] & 15];
	}
	out[2 * i] = '\0';
}

void
k_sha256_hex(const void *data, size_t len, char out[K_SHA256_HEX])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	EVP_Digest(data, len, md, &n, EVP_sha256(), NULL);
	hex(md, n, out);
}

int
k_sha256_file(const char *path, char out[K_SHA256_HEX])
{
	unsigned char buf[65536], md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	size_t got;
	EVP_MD_CTX *ctx;
	FILE *fp;
	int rc = 0, saved;

	if ((fp = fopen(path, "rb")) == NULL)
		return -1;
	if ((ctx = EVP_MD_CTX_new()) == NULL) {
		fclose(fp);
		errno = ENOMEM;
		return -1;
	}
	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	while ((got = fread(buf, 1, sizeof(buf), fp)) > 0)
		EVP_DigestUpdate(ctx, buf, got);
	if (ferror(fp))
		rc = -1;
	saved = errno;
	EVP_DigestFinal_ex(ctx, md, &n);
	EVP_MD_CTX_free(ctx);
	fclose(fp);
	if (rc == 0)
		hex(md, n, out);
	errno = saved;
	return rc;
}
