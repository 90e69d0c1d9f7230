/*
 * Unit tests for lib/k_msg.c: the message funnel, the worst-status-wins
 * exit code, and the checked close of stdout.  Each case runs in a child
 * (unit.h) because the funnel's state is per process.
 */
#include "unit.h"

#include "k_exit.h"
#include "k_msg.h"

static int
child_progname(const char *arg)
{
	(void)arg;
	if (strcmp(k_progname(), "kforge") != 0)
		return 10;
	k_msg_init("/usr/local/bin/kslice");
	if (strcmp(k_progname(), "kslice") != 0)
		return 11;
	k_msg_init("kwrap");
	if (strcmp(k_progname(), "kwrap") != 0)
		return 12;
	/* nothing usable: keep the last name */
	k_msg_init("");
	k_msg_init(NULL);
	if (strcmp(k_progname(), "kwrap") != 0)
		return 13;
	return 0;
}

static void
test_progname(void **state)
{
	(void)state;
	assert_int_equal(u_child("progname", NULL, NULL, NULL, NULL), 0);
}

static int
child_worst_wins(const char *arg)
{
	(void)arg;
	if (k_exit_status() != K_EXIT_OK)
		return 10;
	if (k_exit_raise(K_EXIT_RECORDS) != K_EXIT_RECORDS)
		return 11;
	if (k_exit_raise(K_EXIT_OK) != K_EXIT_RECORDS)
		return 12;
	if (k_exit_raise(K_EXIT_IO) != K_EXIT_IO)
		return 13;
	if (k_exit_raise(K_EXIT_USAGE) != K_EXIT_IO)
		return 14;
	if (k_exit_status() != K_EXIT_IO)
		return 15;
	return 0;
}

static void
test_worst_wins(void **state)
{
	(void)state;
	assert_int_equal(u_child("worst_wins", NULL, NULL, NULL, NULL), 0);
}

static int
child_warn(const char *arg)
{
	(void)arg;
	k_msg_init("kslice");
	k_warn(K_EXIT_RECORDS, "<stdin>:12", "invalid JSON: %s", "oops");
	k_warn(K_EXIT_OK, NULL, "no place");
	k_warn(K_EXIT_OK, "", "empty place");
	return k_exit_status();
}

static void
test_warn(void **state)
{
	char *err = u_tmpname("err"), *s;

	(void)state;
	assert_int_equal(u_child("warn", NULL, NULL, NULL, err),
	    K_EXIT_RECORDS);
	s = u_slurp(err);
	assert_string_equal(s, "kslice: <stdin>:12: invalid JSON: oops\n"
	    "kslice: no place\n"
	    "kslice: empty place\n");
	free(s);
	unlink(err);
}

static int
child_long_warn(const char *arg)
{
	char big[10000];

	(void)arg;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	k_msg_init("kwrap");
	k_warn(K_EXIT_RECORDS, "f", "%s", big);
	k_warn(K_EXIT_RECORDS, big, "after");
	return 0;
}

static void
test_long_warn(void **state)
{
	char *err = u_tmpname("err"), *s, *nl;

	(void)state;
	assert_int_equal(u_child("long_warn", NULL, NULL, NULL, err), 0);
	s = u_slurp(err);
	/* cut to a bounded line, still one line per message */
	assert_int_equal(strncmp(s, "kwrap: f: xxx", 13), 0);
	nl = strchr(s, '\n');
	assert_non_null(nl);
	assert_true(nl - s < 4096);
	/* a where too long to print still leaves the name and the message */
	assert_string_equal(nl + 1, "kwrap: after\n");
	free(s);
	unlink(err);
}

static int
child_quiet(const char *arg)
{
	(void)arg;
	k_msg_init("kverify");
	k_msg_quiet(1);
	k_warn(K_EXIT_RECORDS, "x", "hidden");
	if (k_exit_status() != K_EXIT_RECORDS)
		return 10;
	/* quiet never hides a fatal error */
	k_fatal(K_EXIT_SYSTEM, "x", "out of %s", "memory");
	return 11;
}

static void
test_quiet_and_fatal(void **state)
{
	char *err = u_tmpname("err"), *s;

	(void)state;
	assert_int_equal(u_child("quiet", NULL, NULL, NULL, err),
	    K_EXIT_SYSTEM);
	s = u_slurp(err);
	assert_string_equal(s, "kverify: x: out of memory\n");
	free(s);
	unlink(err);
}

static int
child_finish(const char *arg)
{
	k_msg_init("kscan");
	k_exit_raise(atoi(arg));
	fputs("{\"id\":\"a\"}\n", stdout);
	return k_finish();
}

static void
test_finish_ok(void **state)
{
	char *out = u_tmpname("out"), *err = u_tmpname("err"), *s;
	(void)state;
	assert_int_equal(u_child("finish", "1", NULL, out, err),
	    K_EXIT_RECORDS);
	s = u_slurp(out);
	assert_string_equal(s, "{\"id\":\"a\"}\n");
	free(s);
	s = u_slurp(err);
	assert_string_equal(s, "");
	free(s);
	unlink(out);
	unlink(err);
}

static void
test_finish_full(void **state)
{
	char *err = u_tmpname("err"), *s;

	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	assert_int_equal(u_child("finish", "0", NULL, "/dev/full", err),
	    K_EXIT_IO);
	s = u_slurp(err);
	assert_string_equal(s, "kscan: write error on standard output: "
	    "No space left on device\n");
	free(s);
	/* a worse status seen earlier still wins */
	assert_int_equal(u_child("finish", "4", NULL, "/dev/full", err),
	    K_EXIT_SYSTEM);
	unlink(err);
}

static const struct u_child children[] = {
	{ "progname", child_progname },
	{ "worst_wins", child_worst_wins },
	{ "warn", child_warn },
	{ "long_warn", child_long_warn },
	{ "quiet", child_quiet },
	{ "finish", child_finish },
	{ NULL, NULL }
};

int
main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_progname),
		cmocka_unit_test(test_worst_wins),
		cmocka_unit_test(test_warn),
		cmocka_unit_test(test_long_warn),
		cmocka_unit_test(test_quiet_and_fatal),
		cmocka_unit_test(test_finish_ok),
		cmocka_unit_test(test_finish_full),
	};

	int rc;

	if ((rc = u_dispatch(children, argc, argv)) >= 0)
		return rc;
	return cmocka_run_group_tests_name("k_msg", tests, NULL, NULL);
}
