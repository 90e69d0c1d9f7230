/*
 * Unit tests for lib/k_pcache.c (the parse cache): keys, entries, and the
 * check of the files an entry depends on.  Every case works in a fresh
 * directory under $TMPDIR; nothing writes to the standard streams.
 */
#include "unit.h"

#include <sys/stat.h>

#include <jansson.h>

#include "k_buf.h"
#include "k_fs.h"
#include "k_hash.h"
#include "k_pcache.h"

/* A fresh work directory (a temporary file's name, made a directory). */
static char *
workdir(const char *tag)
{
	char *p = u_tmpname(tag);

	assert_int_equal(unlink(p), 0);
	assert_int_equal(k_mkdirs(p), 0);
	return p;
}

static void
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	assert_true(fputs(text, fp) >= 0);
	assert_int_equal(fclose(fp), 0);
}

static void
key_of(char out[K_SHA256_HEX], const char *a, const char *b)
{
	struct k_buf k = { 0 };

	k_pkey_add(&k, a);
	k_pkey_add(&k, b);
	k_pkey_end(&k, out);
}

static void
test_keys(void **state)
{
	char k1[K_SHA256_HEX], k2[K_SHA256_HEX], k3[K_SHA256_HEX];

	(void)state;
	key_of(k1, "ab", "c");
	key_of(k2, "ab", "c");
	key_of(k3, "a", "bc");
	assert_string_equal(k1, k2);
	/* fields keep their bounds: "ab"+"c" is not "a"+"bc" */
	assert_string_not_equal(k1, k3);
	assert_int_equal(strlen(k1), 64);
}

/* An entry that depends on one file, stored and read back. */
static void
test_put_get(void **state)
{
	struct k_pcache c;
	char *w = workdir("pc"), dep[4096], key[K_SHA256_HEX];
	json_t *paths, *deps, *v;

	(void)state;
	snprintf(dep, sizeof(dep), "%s/dep.h", w);
	write_file(dep, "int x;\n");
	assert_int_equal(k_pcache_open(&c, w, "t"), 0);
	key_of(key, "unit", "args");
	assert_null(k_pcache_get(&c, key));
	paths = json_pack("[s]", dep);
	deps = k_pcache_deps(&c, paths);
	assert_non_null(deps);
	v = json_pack("{s:i}", "kernels", 3);
	assert_int_equal(k_pcache_put(&c, key, deps, v), 0);
	json_decref(v);
	v = k_pcache_get(&c, key);
	assert_non_null(v);
	assert_int_equal(json_integer_value(json_object_get(v, "kernels")), 3);
	assert_int_equal(c.hits, 1);
	assert_int_equal(c.misses, 1);
	json_decref(v);
	json_decref(deps);
	json_decref(paths);
	k_pcache_close(&c);
}

/* A file the entry depends on changes: a miss, counted as stale, also in
 * a process that hashed the old contents (its memo sees the change). */
static void
test_dep_changes(void **state)
{
	struct k_pcache c;
	char *w = workdir("pc"), dep[4096], key[K_SHA256_HEX];
	json_t *paths, *deps, *v;

	(void)state;
	snprintf(dep, sizeof(dep), "%s/dep.h", w);
	write_file(dep, "int x;\n");
	assert_int_equal(k_pcache_open(&c, w, "t"), 0);
	key_of(key, "unit", "args");
	paths = json_pack("[s]", dep);
	deps = k_pcache_deps(&c, paths);
	v = json_true();
	assert_int_equal(k_pcache_put(&c, key, deps, v), 0);
	write_file(dep, "int x, y;\n");
	assert_null(k_pcache_get(&c, key));
	assert_int_equal(c.stale, 1);
	/* the same contents again: the entry is good again */
	write_file(dep, "int x;\n");
	v = k_pcache_get(&c, key);
	assert_true(json_is_true(v));
	json_decref(deps);
	json_decref(paths);
	k_pcache_close(&c);
}

/* A file that cannot be hashed gives no deps: nothing is kept that could
 * not be checked. */
static void
test_unreadable_dep(void **state)
{
	struct k_pcache c;
	char *w = workdir("pc"), dep[4096];
	json_t *paths;

	(void)state;
	snprintf(dep, sizeof(dep), "%s/missing.h", w);
	assert_int_equal(k_pcache_open(&c, w, "t"), 0);
	paths = json_pack("[s]", dep);
	assert_null(k_pcache_deps(&c, paths));
	json_decref(paths);
	k_pcache_close(&c);
}

/* A damaged entry is a miss, never an error. */
static void
test_damaged(void **state)
{
	struct k_pcache c;
	char *w = workdir("pc"), path[4096], key[K_SHA256_HEX];
	json_t *deps = json_array(), *v = json_true();

	(void)state;
	assert_int_equal(k_pcache_open(&c, w, "t"), 0);
	key_of(key, "unit", "args");
	assert_int_equal(k_pcache_put(&c, key, deps, v), 0);
	snprintf(path, sizeof(path), "%s/pcache/t/%.2s/%s.json", w, key, key);
	write_file(path, "{\"format\":");
	assert_null(k_pcache_get(&c, key));
	write_file(path, "[1,2]");
	assert_null(k_pcache_get(&c, key));
	json_decref(deps);
	k_pcache_close(&c);
}

/* A cache that could not be opened is off: get misses, put does nothing. */
static void
test_off(void **state)
{
	struct k_pcache c;
	char *f = u_tmpname("pcfile"), key[K_SHA256_HEX];
	json_t *deps = json_array(), *v = json_true();

	(void)state;
	assert_int_equal(k_pcache_open(&c, f, "t"), -1);	/* a file */
	key_of(key, "unit", "args");
	assert_int_equal(k_pcache_put(&c, key, deps, v), 0);
	assert_null(k_pcache_get(&c, key));
	json_decref(deps);
	k_pcache_close(&c);
}

static const struct u_child children[] = {
	{ NULL, NULL }
};

int
main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_put_get),
		cmocka_unit_test(test_dep_changes),
		cmocka_unit_test(test_unreadable_dep),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_off),
	};
	int rc;

	if ((rc = u_dispatch(children, argc, argv)) >= 0)
		return rc;
	return cmocka_run_group_tests_name("k_pcache", tests, NULL, NULL);
}
