/*
 * kimport --run-tests: a row's own test, for candidates only it can
 * judge (no reference kernel to compare with, or a verdict the row's
 * benchmark defines).  The test is untrusted code like the candidate, so
 * it runs in the sandbox kbuild's compilers and kverify's harnesses run
 * in (lib/k_jail: no network, no home, one writable directory, the GPU's
 * device nodes), in a fresh directory holding the candidate's files:
 *   geak, tritonbench  predict as filename, test_code as test_kforge.py,
 *                      run as python3 test_kforge.py
 *   computeeval        context_files, test_files and the solution's
 *                      files (one string: solution.cu), then sh -c
 *                      build_command and sh -c test_command
 * The verdict is the exit status: 0 passes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "k_exit.h"
#include "k_fs.h"
#include "k_hash.h"
#include "k_jail.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_proc.h"
#include "k_record.h"
#include "kimport.h"

#define TEST_LOG_KEPT 4096	/* bytes of a test's output kept inline */

static int
put(const char *dir, const char *path, const char *text)
{
	char p[PATH_MAX + 300], *d;
	int rc;

	snprintf(p, sizeof(p), "%s/%s", dir, path);
	d = k_dirname(p);
	rc = k_mkdirs(d) == 0 && k_file_write(p, text, strlen(text)) == 0 ?
	    0 : -1;
	free(d);
	return rc;
}

static int
put_files(const char *dir, json_t *files, const char *one)
{
	json_t *f;
	size_t i;

	if (json_is_string(files))
		return put(dir, one, json_string_value(files));
	json_array_foreach(files, i, f)
		if (put(dir, k_get_str(f, "path"), k_get_str(f, "content")) != 0)
			return -1;
	return 0;
}

/* the last TEST_LOG_KEPT bytes of the log */
static json_t *
log_json(const char *path)
{
	size_t n;
	char *t = k_file_read(path, 64UL << 20, &n);
	json_t *j;

	if (t == NULL)
		return json_string("");
	j = n > TEST_LOG_KEPT ? k_string_lossy(t + n - TEST_LOG_KEPT,
	    TEST_LOG_KEPT) : k_string_lossy(t, n);
	free(t);
	return j;
}

static json_t *
not_run(const char *why)
{
	json_t *t = json_object();

	json_object_set_new(t, "ran", json_false());
	json_object_set_new(t, "reason", json_string(why));
	return t;
}

json_t *
own_test(const struct row *r)
{
	struct k_jail j;
	struct k_proc pr;
	json_t *t, *all;
	char hash[K_SHA256_HEX], dir[PATH_MAX + 128], log[PATH_MAX + 256];
	char *text, *script;
	const char *cmd;
	char *argv[] = { "/bin/sh", "-c", NULL, NULL };

	if (r->code == NULL)
		return not_run("no candidate");
	if (r->test_code != NULL) {
		size_t n = strlen(r->test_code);
		script = k_malloc(n + 64);
		snprintf(script, n + 64, "python3 test_kforge.py");
	} else if (r->test_command != NULL) {
		size_t n = strlen(r->test_command) + (r->build_command != NULL ?
		    strlen(r->build_command) : 0) + 64;
		script = k_malloc(n);
		if (r->build_command != NULL)
			snprintf(script, n, "%s\n[ $? -eq 0 ] || exit 125\n%s",
			    r->build_command, r->test_command);
		else
			snprintf(script, n, "%s", r->test_command);
	} else
		return not_run("the row has no test of its own (test_code, "
		    "test_command)");

	all = json_pack("{s:O,s:O?,s:s?,s:s,s:s?}", "code", r->code,
	    "files", r->files, "test_code", r->test_code, "script", script,
	    "filename", r->filename);
	text = json_dumps(all, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(all);
	k_sha256_hex(text, strlen(text), hash);
	free(text);
	snprintf(dir, sizeof(dir), "%s/import/test-%s", opt.work, hash);
	k_remove_tree(dir);
	snprintf(log, sizeof(log), "%s.log", dir);
	if (k_mkdirs(dir) != 0 ||
	    (r->files != NULL && put_files(dir, r->files, NULL) != 0) ||
	    put_files(dir, r->code, r->filename != NULL ? r->filename :
	    "predict.cu") != 0 ||
	    (r->test_code != NULL && put(dir, "test_kforge.py",
	    r->test_code) != 0))
		k_fatal(K_EXIT_IO, dir, "%s", strerror(errno));

	memset(&j, 0, sizeof(j));
	j.scratch = dir;
	j.why = "own tests";
	j.gpu = 1;
	j.lim.mem_mb = opt.mem_mb;
	j.lim.fsize_mb = 1024;
	argv[2] = script;
	cmd = r->test_code != NULL ? "python3 test_kforge.py" :
	    r->test_command;
	if (k_jail_run(argv, &j, log, opt.timeout, &pr) != 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "cannot run /bin/sh: %s",
		    strerror(errno));
	t = json_object();
	json_object_set_new(t, "ran", json_true());
	if (r->build_command != NULL && r->test_code == NULL)
		json_object_set_new(t, "build_command",
		    json_string(r->build_command));
	json_object_set_new(t, "command", json_string(cmd));
	json_object_set_new(t, "pass", json_boolean(pr.exited &&
	    pr.status == 0 && !pr.timed_out));
	if (pr.exited)
		json_object_set_new(t, "status", json_integer(pr.status));
	if (pr.signal != 0)
		json_object_set_new(t, "signal", json_integer(pr.signal));
	json_object_set_new(t, "timed_out", json_boolean(pr.timed_out));
	json_object_set_new(t, "build_failed", json_boolean(
	    r->build_command != NULL && pr.exited && pr.status == 125));
	json_object_set_new(t, "seconds", json_real(pr.seconds));
	json_object_set_new(t, "sandbox", json_string(
	    k_jail_kind("own tests") != NULL ? "bwrap" : "none"));
	json_object_set_new(t, "log", log_json(log));
	k_remove_tree(dir);
	unlink(log);
	free(script);
	return t;
}
