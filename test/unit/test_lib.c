/*
 * Unit tests for the mechanics every tool shares: numbers (k_num), the
 * file reader and writer and data directories (k_fs), the bounded buffer
 * (k_buf), allocation (k_mem), the dtype table (k_dtype), the tools' main
 * skeleton (k_main), the input position of messages (k_msg_at) and a
 * worker's time limit (k_worker).  What
 * exits or prints runs in a child (unit.h).
 */
#include "unit.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <pthread.h>
#include <sys/stat.h>

#include "k_buf.h"
#include "k_dtype.h"
#include "k_exit.h"
#include "k_fs.h"
#include "k_main.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_num.h"
#include "k_proc.h"

/* ------------------------------------------------------------ k_num */

static void
test_num_ll(void **state)
{
	long long v = 7;

	(void)state;
	assert_int_equal(k_num_ll("42", 10, 1, 256, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(k_num_ll("-3", 10, -5, 5, &v), 0);
	assert_int_equal(v, -3);
	/* the bounds are inclusive */
	assert_int_equal(k_num_ll("256", 10, 1, 256, &v), 0);
	assert_int_equal(k_num_ll("1", 10, 1, 256, &v), 0);
	assert_int_equal(v, 1);
	/* base 0 reads C's prefixes */
	assert_int_equal(k_num_ll("0x10", 0, 0, 100, &v), 0);
	assert_int_equal(v, 16);
	/* failures leave *out alone */
	v = 7;
	errno = 0;
	assert_int_equal(k_num_ll("257", 10, 1, 256, &v), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(k_num_ll("0", 10, 1, 256, &v), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(k_num_ll("99999999999999999999", 10, 0, LLONG_MAX,
	    &v), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(k_num_ll("12x", 10, 0, 100, &v), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(k_num_ll("", 10, 0, 100, &v), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(k_num_ll(" 5", 10, 0, 100, &v), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(k_num_ll("0x10", 10, 0, 100, &v), -1);
	assert_int_equal(k_num_ll(NULL, 10, 0, 100, &v), -1);
	assert_int_equal(v, 7);
}

static void
test_num_double(void **state)
{
	double v = 7;

	(void)state;
	assert_int_equal(k_num_double("2.5", 0, 10, &v), 0);
	assert_true(v == 2.5);
	assert_int_equal(k_num_double("1e3", 0, 86400, &v), 0);
	assert_true(v == 1000);
	v = 7;
	assert_int_equal(k_num_double("nan", -1e9, 1e9, &v), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(k_num_double("inf", -DBL_MAX, DBL_MAX, &v), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(k_num_double("86401", DBL_MIN, 86400, &v), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(k_num_double("0", DBL_MIN, 86400, &v), -1);
	assert_int_equal(k_num_double("1s", 0, 10, &v), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(k_num_double("", 0, 10, &v), -1);
	assert_true(v == 7);
}

/* ------------------------------------------------------------- k_fs */

static void
test_file_roundtrip(void **state)
{
	const char *path = u_tmpname("file");
	char *got;
	size_t len = 99;
	struct stat st;

	(void)state;
	assert_int_equal(k_file_write(path, "a\0b\n", 4), 0);
	got = k_file_read(path, 4, &len);
	assert_non_null(got);
	assert_int_equal(len, 4);
	assert_memory_equal(got, "a\0b\n", 5);	/* NUL added */
	free(got);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);

	/* one byte over the maximum is an error, not a cut */
	errno = 0;
	assert_null(k_file_read(path, 3, &len));
	assert_int_equal(errno, EFBIG);
	assert_int_equal(len, 0);

	/* the head of it, saying that there was more */
	{
		int cut = 7;
		got = k_file_head(path, 2, &len, &cut);
		assert_non_null(got);
		assert_int_equal(len, 2);
		assert_memory_equal(got, "a\0", 3);
		assert_int_equal(cut, 1);
		free(got);
		got = k_file_head(path, 4, &len, &cut);
		assert_int_equal(len, 4);
		assert_int_equal(cut, 0);
		free(got);
		got = k_file_head(path, 0, &len, NULL);
		assert_string_equal(got, "");
		free(got);
	}

	/* an empty file is an empty string */
	assert_int_equal(k_file_write(path, "", 0), 0);
	got = k_file_read(path, 10, NULL);
	assert_non_null(got);
	assert_string_equal(got, "");
	free(got);
	unlink(path);
}

static void
test_file_read_large(void **state)
{
	const char *path = u_tmpname("large");
	size_t n = 300000, len, i;
	char *big = k_malloc(n), *got;

	(void)state;
	for (i = 0; i < n; i++)
		big[i] = (char)('a' + i % 26);
	assert_int_equal(k_file_write(path, big, n), 0);
	got = k_file_read(path, n, &len);
	assert_non_null(got);
	assert_int_equal(len, n);
	assert_memory_equal(got, big, n);
	free(got);
	assert_null(k_file_read(path, n - 1, &len));
	assert_int_equal(errno, EFBIG);
	free(big);
	unlink(path);
}

static void
test_file_errors(void **state)
{
	const char *dir = u_tmpname("dir");
	(void)state;
	errno = 0;
	assert_null(k_file_read("/nonexistent/kforge/x", 10, NULL));
	assert_int_equal(errno, ENOENT);
	/* a directory cannot be read as a file */
	assert_null(k_file_read("/", 10, NULL));
	assert_int_not_equal(errno, 0);
	errno = 0;
	assert_int_equal(k_file_write("/nonexistent/kforge/x", "a", 1), -1);
	assert_int_equal(errno, ENOENT);
	/* a failed rename (a directory stands at path) fails the write
	 * and leaves no temporary file behind */
	unlink(dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(k_file_write(dir, "a", 1), -1);
	assert_int_equal(rmdir(dir), 0);
}

static void
test_dirname(void **state)
{
	char *d;

	(void)state;
	d = k_dirname("a/b/c");
	assert_string_equal(d, "a/b");
	free(d);
	d = k_dirname("c");
	assert_string_equal(d, ".");
	free(d);
	d = k_dirname("/c");
	assert_string_equal(d, "/");
	free(d);
}

static int
child_data_dirs(const char *arg)
{
	char *dirs[2];
	int n;

	(void)arg;
	setenv("KFORGE_TEST_DIR", "/some/where", 1);
	if (k_data_dirs("KFORGE_TEST_DIR", "stubs", dirs) != 1 ||
	    strcmp(dirs[0], "/some/where") != 0)
		return 10;
	free(dirs[0]);
	/* empty is unset */
	setenv("KFORGE_TEST_DIR", "", 1);
	n = k_data_dirs("KFORGE_TEST_DIR", "stubs", dirs);
	if (n != 2)
		return 11;
	/* next to this program, then the installed share directory */
	if (strstr(dirs[0], "test/unit/stubs") == NULL ||
	    strstr(dirs[1], "test/unit/../share/kforge/stubs") == NULL)
		return 12;
	free(dirs[0]);
	free(dirs[1]);
	return 0;
}

static int
child_work(const char *arg)
{
	(void)arg;
	unsetenv("KFORGE_WORK");
	if (strcmp(k_work_name(NULL), ".kforge") != 0)
		return 10;
	setenv("KFORGE_WORK", "", 1);
	if (strcmp(k_work_name(""), ".kforge") != 0 ||
	    strcmp(k_work_name(NULL), ".kforge") != 0)
		return 11;
	setenv("KFORGE_WORK", "/w/env", 1);
	if (strcmp(k_work_name(NULL), "/w/env") != 0 ||
	    strcmp(k_work_name(""), "/w/env") != 0)
		return 12;
	/* --work wins over the environment */
	if (strcmp(k_work_name("given"), "given") != 0)
		return 13;
	return 0;
}

static void
test_work_name(void **state)
{
	(void)state;
	assert_int_equal(u_child("work", NULL, NULL, NULL, NULL), 0);
}

static void
test_data_dirs(void **state)
{
	(void)state;
	assert_int_equal(u_child("data_dirs", NULL, NULL, NULL, NULL), 0);
}

/* ------------------------------------------------------------ k_buf */

static void
test_buf_grows(void **state)
{
	struct k_buf b = { 0 };
	char *s;
	int i;

	(void)state;
	assert_string_equal(k_buf_str(&b), "");
	for (i = 0; i < 1000; i++)
		assert_int_equal(k_buf_printf(&b, "%d,", i), 0);
	assert_int_equal(b.n, strlen(k_buf_str(&b)));
	assert_memory_equal(k_buf_str(&b), "0,1,2,", 6);
	assert_false(k_buf_full(&b));
	s = k_buf_take(&b);
	assert_null(b.s);
	assert_int_equal(b.n, 0);
	assert_memory_equal(s, "0,1,2,", 6);
	free(s);
	s = k_buf_take(&b);
	assert_string_equal(s, "");
	free(s);
	k_buf_free(&b);
}

static void
test_buf_bounded(void **state)
{
	struct k_buf b = { 0 };

	(void)state;
	b.max = 8;
	assert_int_equal(k_buf_add(&b, "12345"), 0);
	assert_int_equal(k_buf_add(&b, "678"), 0);	/* exactly max */
	assert_string_equal(k_buf_str(&b), "12345678");
	/* one byte more is refused whole, never cut */
	assert_int_equal(k_buf_add(&b, "9"), -1);
	assert_true(k_buf_full(&b));
	assert_string_equal(k_buf_str(&b), "12345678");
	/* and everything after that too, even what would fit */
	k_buf_reset(&b);
	assert_int_equal(b.n, 0);
	assert_false(k_buf_full(&b));
	assert_int_equal(k_buf_printf(&b, "%s", "123456789"), -1);
	assert_string_equal(k_buf_str(&b), "");
	assert_true(k_buf_full(&b));
	assert_int_equal(k_buf_add(&b, ""), -1);
	assert_int_equal(b.max, 8);
	k_buf_free(&b);
	assert_int_equal(b.max, 0);
}

/* ------------------------------------------------------------ k_mem */

static void
test_mem(void **state)
{
	char *s;
	int *v;

	(void)state;
	s = k_strndup("abcdef", 3);
	assert_string_equal(s, "abc");
	free(s);
	s = k_strndup("ab", 10);
	assert_string_equal(s, "ab");
	free(s);
	s = k_asprintf("%s-%d", "x", 3);
	assert_string_equal(s, "x-3");
	free(s);
	v = k_calloc(4, sizeof(*v));
	assert_int_equal(v[3], 0);
	v = k_reallocarray(v, 8, sizeof(*v));
	v[7] = 1;
	free(v);
	/* zero bytes is still a pointer that can be freed */
	s = k_malloc(0);
	assert_non_null(s);
	free(s);
}

static int
child_oom(const char *arg)
{
	(void)arg;
	/* an overflowing size is out of memory, not a short block */
	k_msg_init("ktest");
	k_reallocarray(NULL, SIZE_MAX / 2, 4);
	return 10;
}

static void
test_mem_overflow(void **state)
{
	const char *err = u_tmpname("err");
	char *got;

	(void)state;
	assert_int_equal(u_child("oom", NULL, NULL, NULL, err),
	    K_EXIT_SYSTEM);
	got = u_slurp(err);
	assert_string_equal(got, "ktest: out of memory\n");
	free(got);
}

/* ---------------------------------------------------------- k_dtype */

static void
test_dtype(void **state)
{
	const struct k_dtype *d;

	(void)state;
	d = k_dtype_named("float32");
	assert_non_null(d);
	assert_int_equal(d->size, 4);
	assert_true(d->is_float);
	/* kverify's names and the C spellings reach the same entry */
	assert_ptr_equal(k_dtype_named("float"), d);
	assert_ptr_equal(k_dtype_c("float"), d);
	assert_ptr_equal(k_dtype_named("half"), k_dtype_named("float16"));
	assert_ptr_equal(k_dtype_c("at::Half"), k_dtype_named("float16"));
	assert_ptr_equal(k_dtype_named("int"), k_dtype_named("int32"));
	assert_ptr_equal(k_dtype_c("unsigned int"), k_dtype_named("uint32"));
	assert_ptr_equal(k_dtype_c("size_t"), k_dtype_named("uint64"));
	assert_string_equal(k_dtype_c("__nv_bfloat16")->host, "uint16_t");
	/* a spelling is not a name, and a part of a spelling is nothing */
	assert_null(k_dtype_named("unsigned int"));
	assert_null(k_dtype_c("unsigned"  " long long int"));
	assert_null(k_dtype_c("long long in"));
	assert_null(k_dtype_named(""));
	assert_null(k_dtype_named(NULL));
	assert_null(k_dtype_named("float128"));
	/* integers compare exactly, floats with a tolerance */
	assert_true(k_dtype_named("int64")->atol == 0);
	assert_true(k_dtype_named("float16")->rtol > k_dtype_named("float32")->rtol);
	for (d = k_dtypes(); d->name != NULL; d++)
		assert_ptr_equal(k_dtype_named(d->name), d);
}

/* ----------------------------------------------------------- k_main */

static int seen_j;
static const char *seen_w;

static void
opt_cb(int ch, const char *arg, void *ctx)
{
	(void)ctx;
	switch (ch) {
	case 'j':
		seen_j = (int)k_opt_ll("-j", arg, 1, 256);
		break;
	case 'w':
		seen_w = arg;
		break;
	}
}

static const char *
opt_version(void)
{
	return "extra 1";
}

static int
child_main(const char *arg)
{
	static const struct option lo[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "work", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	static const struct k_tool t = {
		"usage: ktest [-hqV] [-j jobs] [--work dir] [file]\n",
		"j:", lo, opt_cb, opt_version, 0, 1
	};
	char *argv[8], *copy = k_strdup(arg), *tok, *save = NULL;
	int argc = 0, first;

	argv[argc++] = "/bin/ktest";
	for (tok = strtok_r(copy, " ", &save); tok != NULL && argc < 7;
	    tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	first = k_main(argc, argv, &t, NULL);
	printf("j=%d w=%s operands=%d\n", seen_j, seen_w ? seen_w : "-",
	    argc - first);
	free(copy);	/* seen_w pointed into it */
	return k_finish();
}

/* Run ktest with args; its status, stdout and stderr. */
static int
main_run(const char *args, char **out, char **err)
{
	const char *o = u_tmpname("out"), *e = u_tmpname("err");
	int st = u_child("main", args, NULL, o, e);

	*out = u_slurp(o);
	*err = u_slurp(e);
	return st;
}

static void
test_main(void **state)
{
	char *out, *err;
	const char *usage =
	    "usage: ktest [-hqV] [-j jobs] [--work dir] [file]\n";

	(void)state;
	assert_int_equal(main_run("-j 3 --work w f", &out, &err), 0);
	assert_string_equal(out, "j=3 w=w operands=1\n");
	assert_string_equal(err, "");
	free(out), free(err);

	assert_int_equal(main_run("--jobs=4", &out, &err), 0);
	assert_string_equal(out, "j=4 w=- operands=0\n");
	free(out), free(err);

	assert_int_equal(main_run("-h", &out, &err), 0);
	assert_string_equal(out, usage);
	assert_string_equal(err, "");
	free(out), free(err);

	assert_int_equal(main_run("--version", &out, &err), 0);
	assert_string_equal(out, "ktest (kforge) " K_VERSION ", extra 1\n");
	free(out), free(err);

	/* getopt's complaints go through the funnel, then the usage */
	assert_int_equal(main_run("--bogus", &out, &err), K_EXIT_USAGE);
	assert_string_equal(out, "");
	assert_string_equal(err, "ktest: unknown option: --bogus\n"
	    "usage: ktest [-hqV] [-j jobs] [--work dir] [file]\n");
	free(out), free(err);

	assert_int_equal(main_run("-x", &out, &err), K_EXIT_USAGE);
	assert_string_equal(err, "ktest: unknown option: -x\n"
	    "usage: ktest [-hqV] [-j jobs] [--work dir] [file]\n");
	free(out), free(err);

	assert_int_equal(main_run("-j", &out, &err), K_EXIT_USAGE);
	assert_string_equal(err, "ktest: missing argument: -j\n"
	    "usage: ktest [-hqV] [-j jobs] [--work dir] [file]\n");
	free(out), free(err);

	assert_int_equal(main_run("--work", &out, &err), K_EXIT_USAGE);
	assert_string_equal(err, "ktest: missing argument: --work\n"
	    "usage: ktest [-hqV] [-j jobs] [--work dir] [file]\n");
	free(out), free(err);

	assert_int_equal(main_run("-j 0", &out, &err), K_EXIT_USAGE);
	assert_string_equal(err, "ktest: -j: not a number from 1 to 256: 0\n");
	free(out), free(err);

	assert_int_equal(main_run("a b", &out, &err), K_EXIT_USAGE);
	assert_string_equal(err, "ktest: unexpected operand: b\n"
	    "usage: ktest [-hqV] [-j jobs] [--work dir] [file]\n");
	free(out), free(err);
}

/* ---------------------------------------------------- k_msg_at */

static void *
other_thread(void *arg)
{
	(void)arg;
	/* a position is per thread: this one has none */
	k_warn(K_EXIT_RECORDS, NULL, "from another thread");
	return NULL;
}

static int
child_at(const char *arg)
{
	pthread_t th;

	(void)arg;
	k_msg_init("ktest");
	k_warn(K_EXIT_RECORDS, NULL, "before");
	k_msg_at("<stdin>", 3);
	k_warn(K_EXIT_RECORDS, NULL, "bad record");
	/* a message with its own place keeps it, after the position */
	k_warn(K_EXIT_RECORDS, "x.cu", "own place");
	/* "" is a message about the run, not the record */
	k_warn(K_EXIT_RECORDS, "", "no place");
	if (pthread_create(&th, NULL, other_thread, NULL) != 0 ||
	    pthread_join(th, NULL) != 0)
		return 10;
	k_msg_at(NULL, 0);
	k_warn(K_EXIT_RECORDS, NULL, "after");
	return 0;
}

static void
test_msg_at(void **state)
{
	const char *err = u_tmpname("err");
	char *got;

	(void)state;
	assert_int_equal(u_child("at", NULL, NULL, NULL, err), 0);
	got = u_slurp(err);
	assert_string_equal(got,
	    "ktest: before\n"
	    "ktest: <stdin>:3: bad record\n"
	    "ktest: <stdin>:3: x.cu: own place\n"
	    "ktest: no place\n"
	    "ktest: from another thread\n"
	    "ktest: after\n");
	free(got);
}

/* ------------------------------------------------------------ k_now */

static void
test_now(void **state)
{
	double a, b;

	(void)state;
	a = k_now();
	b = k_now();
	assert_true(a > 0);
	assert_true(b >= a);
}

static const struct u_child children[] = {
	{ "data_dirs", child_data_dirs },
	{ "work", child_work },
	{ "oom", child_oom },
	{ "main", child_main },
	{ "at", child_at },
	{ NULL, NULL }
};

/* ------------------------------------------------------------ k_worker */

/* A worker that, for each request line, sleeps ("sleep N": N tenths of
 * a second, using no CPU) or spins ("spin": for ever), then replies. */
static void
timing_serve(FILE *in, void *arg)
{
	char line[64];
	int n;

	(void)arg;
	while (fgets(line, sizeof(line), in) != NULL) {
		if (strncmp(line, "spin", 4) == 0)
			for (volatile unsigned long i = 0;; i = i + 1)
				;
		if (sscanf(line, "sleep %d", &n) == 1) {
			struct timespec ts = { n / 10, (n % 10) * 100000000L };
			nanosleep(&ts, NULL);
		}
		printf("done\n\n");
		fflush(stdout);
	}
}

/* What k_worker_wait says of request req with a limit of timeout s, and
 * how long it took to say it. */
static enum k_worker_event
worker_event(const char *req, double timeout, double *took)
{
	struct k_worker w;
	enum k_worker_event ev = K_WORKER_DIED;
	double t0;

	memset(&w, 0, sizeof(w));
	assert_int_equal(k_worker_start(&w, timing_serve, NULL), 0);
	t0 = k_now();
	assert_int_equal(k_worker_send(&w, req, strlen(req)), 0);
	assert_true(k_worker_wait(&w, 1, timeout, &ev) == 0);
	*took = k_now() - t0;
	k_worker_stop(&w);
	return ev;
}

static void
test_worker_cpu_timeout(void **state)
{
	double took;

	(void)state;
	/* waiting, not working: 1.5 s of wall time is within a limit of
	 * 1 s of CPU time (a loaded machine's parse is not cut short) */
	assert_int_equal(worker_event("sleep 15\n", 1, &took),
	    K_WORKER_REPLY);
	/* working for ever: out of CPU time */
	assert_int_equal(worker_event("spin\n", 1, &took),
	    K_WORKER_TIMEOUT);
	/* waiting for ever: the wall clock's backstop, K_WORKER_WALL times
	 * the limit, and not before it */
	assert_int_equal(worker_event("sleep 600\n", 1, &took),
	    K_WORKER_TIMEOUT);
	assert_true(took >= K_WORKER_WALL * 1 - 0.05);
}

int
main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_num_ll),
		cmocka_unit_test(test_num_double),
		cmocka_unit_test(test_file_roundtrip),
		cmocka_unit_test(test_file_read_large),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_dirname),
		cmocka_unit_test(test_data_dirs),
		cmocka_unit_test(test_work_name),
		cmocka_unit_test(test_buf_grows),
		cmocka_unit_test(test_buf_bounded),
		cmocka_unit_test(test_mem),
		cmocka_unit_test(test_mem_overflow),
		cmocka_unit_test(test_dtype),
		cmocka_unit_test(test_main),
		cmocka_unit_test(test_msg_at),
		cmocka_unit_test(test_now),
		cmocka_unit_test(test_worker_cpu_timeout),
	};
	int rc;

	if ((rc = u_dispatch(children, argc, argv)) >= 0)
		return rc;
	return cmocka_run_group_tests_name("lib", tests, NULL, NULL);
}
