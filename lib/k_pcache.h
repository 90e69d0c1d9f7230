/*
 * The parse cache, shared by kscan and kslice: what the parse of one unit
 * yielded, kept in the work directory so that a unit whose text, included
 * files and parser arguments are unchanged is not parsed again.
 *
 * An entry is addressed by a key the caller builds before parsing (the
 * tool's own build, the unit's path and text, the parser arguments: see
 * k_pkey_*); it holds the files the parse included, each with the SHA-256
 * of its contents, and the value.  k_pcache_get re-hashes those files and
 * treats any change as a miss.  Entries live in WORK/pcache/TOOL/xx/KEY.json;
 * they are written to a temporary file and renamed into place, so runs
 * that share a work directory never read a half-written entry, and an
 * unreadable or damaged entry is a miss, never an error.
 *
 * Ownership: k_pcache_get returns a new reference; k_pcache_put borrows
 * its arguments.  A cache that could not be opened is off: get misses and
 * put does nothing.
 */
#ifndef K_PCACHE_H
#define K_PCACHE_H

#include <stddef.h>

#include <jansson.h>

#include "k_buf.h"
#include "k_hash.h"

struct k_pcache {
	char *dir;		/* WORK/pcache/TOOL; NULL: off */
	json_t *memo;		/* path -> [size, mtime, ino, sha256] */
	unsigned long seq;	/* temporary file names */
	unsigned long hits, misses, stale;
};

/* Open (making it) the cache of tool under work; -1 with errno set and
 * the cache off when the directory cannot be made. */
int k_pcache_open(struct k_pcache *c, const char *work, const char *tool);
void k_pcache_close(struct k_pcache *c);

/* SHA-256 of a file's contents, remembered per path for as long as its
 * size, modification time and inode stay the same; -1 when unreadable. */
int k_pcache_file_sha(struct k_pcache *c, const char *path,
    char out[K_SHA256_HEX]);

/* The value stored under key when every file it depends on still hashes
 * the same; NULL otherwise. */
json_t *k_pcache_get(struct k_pcache *c, const char *key);

/* Store value under key with deps, an array of [path, sha256] pairs (see
 * k_pcache_deps); 0 or -1 with errno set. */
int k_pcache_put(struct k_pcache *c, const char *key, json_t *deps,
    json_t *value);

/* The [path, sha256] pairs of the paths in the array paths (strings),
 * hashed now; NULL when one cannot be read, since an entry that cannot be
 * checked must not be kept. */
json_t *k_pcache_deps(struct k_pcache *c, json_t *paths);

/*
 * A key: the fields added, each with its length, hashed together.  Start
 * with k_pkey_self, which adds what names the running program's own build
 * (the SHA-256 of /proc/self/exe), so that a rebuilt tool never reads
 * another build's entries.
 */
void k_pkey_self(struct k_buf *k, const char *tool);
void k_pkey_add(struct k_buf *k, const char *field);
void k_pkey_addn(struct k_buf *k, const char *field, size_t n);
void k_pkey_end(struct k_buf *k, char out[K_SHA256_HEX]);

#endif
