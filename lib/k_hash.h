/* SHA-256 through libcrypto, as lower-case hex (65 bytes with the NUL). */
#ifndef K_HASH_H
#define K_HASH_H

#include <stddef.h>

#define K_SHA256_HEX 65

void k_sha256_hex(const void *data, size_t len, char out[K_SHA256_HEX]);
/* Hash a file's bytes; -1 (errno set) when it cannot be read. */
int k_sha256_file(const char *path, char out[K_SHA256_HEX]);

#endif
