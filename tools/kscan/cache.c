/*
 * The parse cache for kscan: a unit's reply (its kernels, launches, the
 * files it included, its final flags) is kept in the work directory under
 * a key that hashes everything the parse read before it began; the files
 * it included are checked by lib/k_pcache.c.
 */
#include "kscan.h"

/* The files under the directory arguments, as one hash: a unit that had
 * a missing include may resolve it differently when they change. */
static const char *
tree_sha(void)
{
	struct k_buf b = { 0 };
	size_t i;

	if (opt.tree[0] != '\0')
		return opt.tree;
	for (i = 0; i < allfiles.n; i++)
		k_pkey_add(&b, allfiles.v[i]);
	k_pkey_end(&b, opt.tree);
	return opt.tree;
}

/* An argument with the private prelude directory, which changes from run
 * to run, spelled as a fixed name (the prelude itself is in the build). */
static void
add_arg(struct k_buf *k, const char *a)
{
	const char *pd = k_prelude_dir(), *p;
	size_t pl = strlen(pd);
	struct k_buf b = { 0 };

	if (pl == 0 || (p = strstr(a, pd)) == NULL) {
		k_pkey_add(k, a);
		return;
	}
	k_buf_addn(&b, a, (size_t)(p - a));
	k_buf_add(&b, "<prelude>");
	k_buf_add(&b, p + pl);
	k_pkey_add(k, k_buf_str(&b));
	k_buf_free(&b);
}

/* What every key starts with: the build of kscan and of libclang, and the
 * environment the clang driver reads. */
static void
key_start(struct k_buf *k, const char *what)
{
	static const char *env[] = { "CPATH", "C_INCLUDE_PATH",
	    "CPLUS_INCLUDE_PATH", NULL };
	char *ver;
	size_t i;

	k_pkey_self(k, "kscan");
	k_pkey_add(k, what);
	ver = k_take(clang_getClangVersion());
	k_pkey_add(k, ver);
	free(ver);
	for (i = 0; env[i] != NULL; i++)
		k_pkey_add(k, getenv(env[i]) != NULL ? getenv(env[i]) : "");
}

/* The key of a unit: the build of kscan and libclang, where the unit is
 * and what it holds, and both sides' parser arguments. */
static int
unit_key(struct unit *u, char out[K_SHA256_HEX])
{
	struct k_buf k = { 0 };
	struct k_strv args = { 0 };
	char *text, *real, sha[K_SHA256_HEX];
	const char *dialect;
	size_t len, i;
	int side;

	if (opt.no_cache || opt.cache.dir == NULL ||
	    (text = k_file_read(u->path, MAX_SOURCE, &len)) == NULL)
		return -1;
	if (looks_binary(text, len) || (u->header == -1 && !mentions_gpu(text) &&
	    !chain_mentions(text))) {
		/* nothing to parse: nothing worth keeping */
		free(text);
		return -1;
	}
	k_sha256_hex(text, len, sha);
	dialect = u->dialect = dialect_of(u->path, text);
	free(text);
	if ((real = realpath(u->path, NULL)) == NULL)
		return -1;
	key_start(&k, "unit");
	k_pkey_add(&k, opt.root);
	k_pkey_add(&k, real);
	k_pkey_add(&k, sha);
	k_pkey_add(&k, u->header ? "header" : "unit");
	k_pkey_add(&k, dialect);
	for (side = 0; side < 2; side++) {
		build_args(&args, dialect, side, u);
		k_pkey_add(&k, side ? "device" : "host");
		for (i = 0; i < args.n; i++)
			add_arg(&k, args.v[i]);
		k_strv_free(&args);
	}
	free(real);
	k_pkey_end(&k, out);
	return 0;
}

json_t *
cache_lookup(struct unit *u)
{
	json_t *v, *tree;

	u->key[0] = '\0';
	if (u->path[0] == '\0' || unit_key(u, u->key) != 0) {
		u->key[0] = '\0';
		return NULL;
	}
	if ((v = k_pcache_get(&opt.cache, u->key)) == NULL)
		return NULL;
	tree = json_object_get(v, "tree");
	if (tree != NULL && strcmp(json_string_value(tree) != NULL ?
	    json_string_value(tree) : "", tree_sha()) != 0) {
		opt.cache.hits--;
		opt.cache.stale++;
		json_decref(v);
		return NULL;
	}
	return v;
}

void
cache_store(struct unit *u, json_t *reply)
{
	json_t *paths, *deps;
	size_t i;

	/* an input error may not happen again: not kept */
	if (u->key[0] == '\0' || json_array_size(u->errors) > 0)
		return;
	if (u->missing)
		json_object_set_new(reply, "tree", json_string(tree_sha()));
	paths = json_array();
	for (i = 0; i < u->deps.n; i++)
		/* a name that is not UTF-8 cannot be checked later */
		if (json_array_append_new(paths,
		    json_string(u->deps.v[i])) != 0)
			break;
	deps = i == u->deps.n ? k_pcache_deps(&opt.cache, paths) : NULL;
	if (deps != NULL && k_pcache_put(&opt.cache, u->key, deps, reply) != 0)
		k_warn(K_EXIT_OK, opt.cache.dir, "cannot keep a parse: %s",
		    strerror(errno));
	json_object_del(reply, "tree");
	json_decref(paths);
	json_decref(deps);
}

void
cache_report(void)
{
	if (opt.cache.dir == NULL)
		return;
	fprintf(stderr, "%s: parse cache %s: %lu reused, %lu parsed, "
	    "%lu changed\n", k_progname(), opt.cache.dir, opt.cache.hits,
	    opt.cache.misses, opt.cache.stale);
}
