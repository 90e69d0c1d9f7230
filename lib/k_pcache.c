#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "k_buf.h"
#include "k_exit.h"
#include "k_fs.h"
#include "k_hash.h"
#include "k_msg.h"
#include "k_pcache.h"

/* bumped when the layout of an entry changes */
#define PCACHE_FORMAT "kforge-pcache-1"

int
k_pcache_open(struct k_pcache *c, const char *work, const char *tool)
{
	char *dir;

	memset(c, 0, sizeof(*c));
	if (asprintf(&dir, "%s/pcache/%s", work, tool) < 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	if (k_mkdirs(dir) != 0) {
		int saved = errno;
		free(dir);
		errno = saved;
		return -1;
	}
	c->dir = dir;
	c->memo = json_object();
	return 0;
}

void
k_pcache_close(struct k_pcache *c)
{
	free(c->dir);
	json_decref(c->memo);
	memset(c, 0, sizeof(*c));
}

int
k_pcache_file_sha(struct k_pcache *c, const char *path,
    char out[K_SHA256_HEX])
{
	struct stat st;
	json_t *m;
	json_int_t mt;

	if (stat(path, &st) != 0)
		return -1;
	mt = (json_int_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	m = c->memo != NULL ? json_object_get(c->memo, path) : NULL;
	if (m != NULL &&
	    json_integer_value(json_array_get(m, 0)) == (json_int_t)st.st_size &&
	    json_integer_value(json_array_get(m, 1)) == mt &&
	    json_integer_value(json_array_get(m, 2)) == (json_int_t)st.st_ino) {
		snprintf(out, K_SHA256_HEX, "%s",
		    json_string_value(json_array_get(m, 3)));
		return 0;
	}
	if (k_sha256_file(path, out) != 0)
		return -1;
	if (c->memo != NULL)
		json_object_set_new(c->memo, path, json_pack("[I,I,I,s]",
		    (json_int_t)st.st_size, mt, (json_int_t)st.st_ino, out));
	return 0;
}

static char *
entry_path(const struct k_pcache *c, const char *key)
{
	char *p;

	if (asprintf(&p, "%s/%.2s/%s.json", c->dir, key, key) < 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	return p;
}

json_t *
k_pcache_get(struct k_pcache *c, const char *key)
{
	char *path, sha[K_SHA256_HEX];
	json_t *e, *deps, *d, *v = NULL;
	size_t i;

	if (c->dir == NULL)
		return NULL;
	path = entry_path(c, key);
	e = json_load_file(path, JSON_REJECT_DUPLICATES, NULL);
	free(path);
	deps = json_object_get(e, "deps");
	if (!json_is_object(e) || !json_is_array(deps) ||
	    json_object_get(e, "value") == NULL ||
	    strcmp(json_string_value(json_object_get(e, "format")) != NULL ?
	    json_string_value(json_object_get(e, "format")) : "",
	    PCACHE_FORMAT) != 0) {
		c->misses++;
		json_decref(e);
		return NULL;
	}
	json_array_foreach(deps, i, d) {
		const char *p = json_string_value(json_array_get(d, 0));
		const char *h = json_string_value(json_array_get(d, 1));
		if (p == NULL || h == NULL || k_pcache_file_sha(c, p, sha) != 0 ||
		    strcmp(sha, h) != 0) {
			c->stale++;
			json_decref(e);
			return NULL;
		}
	}
	c->hits++;
	v = json_incref(json_object_get(e, "value"));
	json_decref(e);
	return v;
}

json_t *
k_pcache_deps(struct k_pcache *c, json_t *paths)
{
	json_t *deps = json_array(), *p;
	char sha[K_SHA256_HEX];
	size_t i;

	json_array_foreach(paths, i, p) {
		if (!json_is_string(p) ||
		    k_pcache_file_sha(c, json_string_value(p), sha) != 0) {
			json_decref(deps);
			return NULL;
		}
		json_array_append_new(deps, json_pack("[O,s]", p, sha));
	}
	return deps;
}

int
k_pcache_put(struct k_pcache *c, const char *key, json_t *deps,
    json_t *value)
{
	char *path, *tmp, *dir;
	json_t *e;
	int rc = -1, saved;

	if (c->dir == NULL)
		return 0;
	path = entry_path(c, key);
	if (asprintf(&tmp, "%s.tmp.%ld.%lu", path, (long)getpid(),
	    c->seq++) < 0 || asprintf(&dir, "%s/%.2s", c->dir, key) < 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "out of memory");
	rc = k_mkdirs(dir);
	free(dir);
	if (rc != 0)
		goto out;
	rc = -1;
	e = json_pack("{s:s,s:s,s:O,s:O}", "format", PCACHE_FORMAT,
	    "key", key, "deps", deps, "value", value);
	if (e == NULL) {
		errno = EINVAL;
		goto out;
	}
	if (json_dump_file(e, tmp, JSON_COMPACT) == 0 &&
	    rename(tmp, path) == 0)
		rc = 0;
	json_decref(e);
out:
	saved = errno;
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	free(path);
	errno = saved;
	return rc;
}

/* ------------------------------------------------------------ keys */

void
k_pkey_addn(struct k_buf *k, const char *field, size_t n)
{
	k_buf_printf(k, "%zu:", n);
	k_buf_addn(k, field, n);
	k_buf_addn(k, "\n", 1);
}

void
k_pkey_add(struct k_buf *k, const char *field)
{
	k_pkey_addn(k, field, strlen(field));
}

void
k_pkey_self(struct k_buf *k, const char *tool)
{
	static char self[K_SHA256_HEX];

	if (self[0] == '\0' && k_sha256_file("/proc/self/exe", self) != 0)
		/* no way to name the build: no entry can match another
		 * run's */
		snprintf(self, sizeof(self), "pid-%ld", (long)getpid());
	k_pkey_add(k, PCACHE_FORMAT);
	k_pkey_add(k, tool);
	k_pkey_add(k, self);
}

void
k_pkey_end(struct k_buf *k, char out[K_SHA256_HEX])
{
	k_sha256_hex(k_buf_str(k), k->n, out);
	k_buf_free(k);
}
