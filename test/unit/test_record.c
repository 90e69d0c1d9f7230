/*
 * Unit tests for lib/k_record.c (the NDJSON reader and writer) and
 * lib/k_hash.c.  Input comes from fmemopen; anything that writes to stdout
 * runs in a child (unit.h).
 */
#include "unit.h"

#include <errno.h>

#include "k_exit.h"
#include "k_hash.h"
#include "k_msg.h"
#include "k_record.h"

#define NAME "<test>"
#define STAGE "test"

struct input {
	FILE *fp;
	struct k_reader r;
};

static void
input_open(struct input *in, const char *text, size_t len)
{
	/* "r" never writes through the pointer */
	in->fp = fmemopen((void *)text, len, "r");
	assert_non_null(in->fp);
	k_reader_init(&in->r, in->fp, NAME, STAGE);
}

/* a string literal, NUL bytes and all */
#define INPUT(in, lit) input_open((in), (lit), sizeof(lit) - 1)

static void
input_close(struct input *in)
{
	k_reader_free(&in->r);
	fclose(in->fp);
}

/* rec serialises and parses back to an equal value: it is valid JSON */
static void
assert_valid_json(json_t *rec)
{
	json_error_t err;
	json_t *back;
	char *s;

	s = json_dumps(rec, JSON_COMPACT);
	assert_non_null(s);
	back = json_loads(s, JSON_REJECT_DUPLICATES, &err);
	assert_non_null(back);
	assert_true(json_equal(rec, back));
	json_decref(back);
	free(s);
}

static void
assert_dump(json_t *rec, const char *want)
{
	char *s = json_dumps(rec, JSON_COMPACT);

	assert_non_null(s);
	assert_string_equal(s, want);
	free(s);
}

static void
assert_jstr(json_t *j, const char *want, size_t len)
{
	assert_true(json_is_string(j));
	assert_int_equal(json_string_length(j), len);
	assert_memory_equal(json_string_value(j), want, len);
}
#define ASSERT_JSTR(j, lit) assert_jstr((j), (lit), sizeof(lit) - 1)

/* The next line must be a good object; the caller decrefs it. */
static json_t *
read_good(struct input *in)
{
	json_t *rec = NULL;
	int bad = -1;

	assert_int_equal(k_read(&in->r, &rec, &bad), 1);
	assert_int_equal(bad, 0);
	assert_true(json_is_object(rec));
	return rec;
}

static void
read_good_id(struct input *in, const char *id)
{
	json_t *rec = read_good(in);

	assert_string_equal(k_id_borrowed(rec), id);
	json_decref(rec);
}

/*
 * The next line must become an error record: id "<test>:LINE", the raw text,
 * and one error entry {stage, code, message, line}.  The caller decrefs it.
 */
static json_t *
read_bad(struct input *in, const char *code, unsigned long line)
{
	json_t *rec = NULL, *errs, *e;
	int bad = -1;
	char id[64];

	assert_int_equal(k_read(&in->r, &rec, &bad), 1);
	assert_int_equal(bad, 1);
	assert_true(json_is_object(rec));
	snprintf(id, sizeof(id), NAME ":%lu", line);
	assert_string_equal(k_id_borrowed(rec), id);
	assert_true(json_is_string(json_object_get(rec, "raw")));
	errs = json_object_get(rec, "errors");
	assert_true(json_is_array(errs));
	assert_int_equal(json_array_size(errs), 1);
	e = json_array_get(errs, 0);
	assert_string_equal(k_get_str(e, "stage"), STAGE);
	assert_string_equal(k_get_str(e, "code"), code);
	assert_non_null(k_get_str(e, "message"));
	assert_int_equal(k_get_int(e, "line", 0), (json_int_t)line);
	assert_true(k_has_errors(rec));
	assert_int_equal(in->r.lineno, line);
	assert_valid_json(rec);
	return rec;
}

static void
read_bad_raw(struct input *in, const char *code, unsigned long line,
    const char *raw, size_t rawlen)
{
	json_t *rec = read_bad(in, code, line);

	assert_jstr(json_object_get(rec, "raw"), raw, rawlen);
	json_decref(rec);
}
#define READ_BAD_RAW(in, code, line, lit) \
	read_bad_raw((in), (code), (line), (lit), sizeof(lit) - 1)

static void
read_eof(struct input *in)
{
	json_t *rec = json_null();
	int bad = -1;

	assert_int_equal(k_read(&in->r, &rec, &bad), 0);
	assert_null(rec);
	/* end of input stays the end */
	assert_int_equal(k_read(&in->r, &rec, &bad), 0);
}

static void
test_read_objects(void **state)
{
	struct input in;
	json_t *rec;

	(void)state;
	INPUT(&in, "{\"id\":\"a\",\"n\":1}\n"
	    "{\"z\":1,\"id\":\"b\",\"x\":{\"y\":[1,2.5,null,true]}}\n"
	    "{\"id\":\"\xc3\xa9\"}\n");
	rec = read_good(&in);
	assert_string_equal(k_id_borrowed(rec), "a");
	assert_int_equal(k_get_int(rec, "n", 0), 1);
	json_decref(rec);
	/* key order is kept, so outputs diff cleanly against inputs */
	rec = read_good(&in);
	assert_dump(rec, "{\"z\":1,\"id\":\"b\",\"x\":{\"y\":[1,2.5,null,true]}}");
	json_decref(rec);
	read_good_id(&in, "\xc3\xa9");
	assert_int_equal(in.r.lineno, 3);
	read_eof(&in);
	input_close(&in);
}

static void
test_read_empty_input(void **state)
{
	struct input in;

	(void)state;
	input_open(&in, "", 0);
	read_eof(&in);
	assert_int_equal(in.r.lineno, 0);
	input_close(&in);
}

static void
test_read_blank_line(void **state)
{
	struct input in;

	(void)state;
	INPUT(&in, "{\"id\":\"a\"}\n\n{\"id\":\"b\"}\n\n");
	read_good_id(&in, "a");
	READ_BAD_RAW(&in, "empty-line", 2, "");
	read_good_id(&in, "b");
	READ_BAD_RAW(&in, "empty-line", 4, "");
	read_eof(&in);
	input_close(&in);
}

static void
test_read_invalid_json(void **state)
{
	struct input in;
	json_t *rec, *e;

	(void)state;
	INPUT(&in, "{\"id\":\"a\"}\n{\"id\": }\n{\"id\":\"b\"} x\n   \n"
	    "{\"id\":\"c\"}\n");
	read_good_id(&in, "a");
	rec = read_bad(&in, "invalid-json", 2);
	ASSERT_JSTR(json_object_get(rec, "raw"), "{\"id\": }");
	e = json_array_get(json_object_get(rec, "errors"), 0);
	assert_int_equal(strncmp(k_get_str(e, "message"), "invalid JSON: ",
	    14), 0);
	json_decref(rec);
	/* trailing garbage after a complete object */
	READ_BAD_RAW(&in, "invalid-json", 3, "{\"id\":\"b\"} x");
	/* white space only is not a blank line */
	READ_BAD_RAW(&in, "invalid-json", 4, "   ");
	read_good_id(&in, "c");
	read_eof(&in);
	input_close(&in);
}

static void
test_read_not_an_object(void **state)
{
	struct input in;

	(void)state;
	INPUT(&in, "[1,2]\n42\n\"s\"\nnull\ntrue\n{\"id\":\"a\"}\n");
	READ_BAD_RAW(&in, "not-an-object", 1, "[1,2]");
	READ_BAD_RAW(&in, "not-an-object", 2, "42");
	READ_BAD_RAW(&in, "not-an-object", 3, "\"s\"");
	READ_BAD_RAW(&in, "not-an-object", 4, "null");
	READ_BAD_RAW(&in, "not-an-object", 5, "true");
	read_good_id(&in, "a");
	read_eof(&in);
	input_close(&in);
}

static void
test_read_duplicate_keys(void **state)
{
	struct input in;
	json_t *rec, *e;

	(void)state;
	INPUT(&in, "{\"id\":\"a\",\"id\":\"b\"}\n"
	    "{\"id\":\"c\",\"s\":{\"k\":1,\"k\":2}}\n"
	    "{\"id\":\"d\",\"s\":[{\"k\":1},{\"k\":2}]}\n");
	rec = read_bad(&in, "invalid-json", 1);
	ASSERT_JSTR(json_object_get(rec, "raw"), "{\"id\":\"a\",\"id\":\"b\"}");
	e = json_array_get(json_object_get(rec, "errors"), 0);
	assert_non_null(strstr(k_get_str(e, "message"), "duplicate"));
	json_decref(rec);
	READ_BAD_RAW(&in, "invalid-json", 2,
	    "{\"id\":\"c\",\"s\":{\"k\":1,\"k\":2}}");
	/* the same key in sibling objects is fine */
	read_good_id(&in, "d");
	read_eof(&in);
	input_close(&in);
}

static void
test_read_invalid_utf8(void **state)
{
	struct input in;

	(void)state;
	INPUT(&in, "{\"id\":\"\xff\"}\n{\"id\":\"x\xc3\"}\n\xc0\xaf\n"
	    "{\"id\":\"ok\"}\n");
	/* the raw text is kept with each bad byte as U+FFFD */
	READ_BAD_RAW(&in, "invalid-json", 1, "{\"id\":\"\xef\xbf\xbd\"}");
	READ_BAD_RAW(&in, "invalid-json", 2, "{\"id\":\"x\xef\xbf\xbd\"}");
	READ_BAD_RAW(&in, "invalid-json", 3, "\xef\xbf\xbd\xef\xbf\xbd");
	read_good_id(&in, "ok");
	read_eof(&in);
	input_close(&in);
}

static void
test_read_line_too_long(void **state)
{
	struct input in;

	(void)state;
	assert_int_equal(setenv("KFORGE_MAX_LINE", "10", 1), 0);
	INPUT(&in, "{\"id\":\"aaaaaaaaaaaa\"}\n"	/* 21 bytes */
	    "{\"id\":\"b\"}\n"			/* exactly 10: fits */
	    "{\"id\":\"cc\"}\n"			/* 11 */
	    "{\"id\":\"d\"}\n"
	    "[\"this one has no newline\"]");
	unsetenv("KFORGE_MAX_LINE");
	assert_int_equal(in.r.max, 10);
	/* raw keeps the start of the line, up to the limit */
	READ_BAD_RAW(&in, "line-too-long", 1, "{\"id\":\"aaa");
	read_good_id(&in, "b");
	READ_BAD_RAW(&in, "line-too-long", 3, "{\"id\":\"cc\"");
	read_good_id(&in, "d");
	READ_BAD_RAW(&in, "line-too-long", 5, "[\"this one");
	read_eof(&in);
	input_close(&in);
}

static void
test_max_line_env(void **state)
{
	static const char *ignored[] = { "", "0", "-5", "12x", "abc",
	    "99999999999999999999", "67108865" };
	struct k_reader r;
	size_t i;

	(void)state;
	unsetenv("KFORGE_MAX_LINE");
	k_reader_init(&r, stdin, NAME, STAGE);
	assert_int_equal(r.max, K_MAX_LINE_DEFAULT);
	k_reader_free(&r);
	/* a value that is not a positive number within the hard limit is
	 * ignored rather than lifting the limit */
	for (i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++) {
		setenv("KFORGE_MAX_LINE", ignored[i], 1);
		k_reader_init(&r, stdin, NAME, STAGE);
		assert_int_equal(r.max, K_MAX_LINE_DEFAULT);
		k_reader_free(&r);
	}
	setenv("KFORGE_MAX_LINE", "67108864", 1);
	k_reader_init(&r, stdin, NAME, STAGE);
	assert_int_equal(r.max, 67108864);
	k_reader_free(&r);
	unsetenv("KFORGE_MAX_LINE");
}

static void
test_read_crlf(void **state)
{
	struct input in;
	json_t *rec;

	(void)state;
	INPUT(&in, "{\"id\":\"a\"}\r\n{\"id\":\"b\",\"s\":\"x\\r\"}\r\n\r\n"
	    "{\"id\": }\r\n{\"id\":\"c\"}\r");
	read_good_id(&in, "a");
	rec = read_good(&in);
	assert_string_equal(k_get_str(rec, "s"), "x\r");
	json_decref(rec);
	READ_BAD_RAW(&in, "empty-line", 3, "");
	/* the CR is not part of the raw text */
	READ_BAD_RAW(&in, "invalid-json", 4, "{\"id\": }");
	read_good_id(&in, "c");
	read_eof(&in);
	input_close(&in);
}

static void
test_read_no_final_newline(void **state)
{
	struct input in;

	(void)state;
	INPUT(&in, "{\"id\":\"a\"}\n{\"id\":\"b\"}");
	read_good_id(&in, "a");
	read_good_id(&in, "b");
	read_eof(&in);
	input_close(&in);

	INPUT(&in, "{\"id\":\"a\"}\n{\"id\"");
	read_good_id(&in, "a");
	READ_BAD_RAW(&in, "invalid-json", 2, "{\"id\"");
	read_eof(&in);
	input_close(&in);
}

static void
test_string_lossy(void **state)
{
	json_t *j;

	(void)state;
	j = k_string_lossy("plain", 5);
	ASSERT_JSTR(j, "plain");
	json_decref(j);
	j = k_string_lossy("", 0);
	ASSERT_JSTR(j, "");
	json_decref(j);
	/* only n bytes are read */
	j = k_string_lossy("abcdef", 3);
	ASSERT_JSTR(j, "abc");
	json_decref(j);
	/* valid multibyte text is kept as it is */
	j = k_string_lossy("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9);
	ASSERT_JSTR(j, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	json_decref(j);
	/* every bad byte becomes U+FFFD, good neighbours survive */
	j = k_string_lossy("a\xff" "b", 3);
	ASSERT_JSTR(j, "a\xef\xbf\xbd" "b");
	json_decref(j);
	/* a sequence cut short at the end */
	j = k_string_lossy("x\xe2\x82", 3);
	ASSERT_JSTR(j, "x\xef\xbf\xbd\xef\xbf\xbd");
	json_decref(j);
	/* overlong encoding of '/' */
	j = k_string_lossy("\xc0\xaf", 2);
	ASSERT_JSTR(j, "\xef\xbf\xbd\xef\xbf\xbd");
	json_decref(j);
	/* a UTF-16 surrogate encoded in UTF-8 */
	j = k_string_lossy("\xed\xa0\x80", 3);
	ASSERT_JSTR(j, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	json_decref(j);
	/* the result always serialises */
	j = json_pack("{s:o}", "raw", k_string_lossy("\x80\x81\xfe\xff", 4));
	assert_non_null(j);
	assert_valid_json(j);
	json_decref(j);
}

static void
test_error_append(void **state)
{
	json_t *rec, *errs, *e;
	json_error_t err;

	(void)state;
	rec = json_loads("{\"id\":\"k\",\"errors\":[{\"stage\":\"kscan\","
	    "\"code\":\"c0\",\"message\":\"m0\"}]}", 0, &err);
	assert_non_null(rec);
	k_error(rec, "kslice", "no-body", "kernel %s has %d bodies", "k", 0);
	k_error(rec, "kwrap", "bad-\xff", "message with \xff byte");
	errs = json_object_get(rec, "errors");
	assert_int_equal(json_array_size(errs), 3);
	/* the earlier stage's entry is untouched and stays first */
	assert_dump(json_array_get(errs, 0),
	    "{\"stage\":\"kscan\",\"code\":\"c0\",\"message\":\"m0\"}");
	assert_dump(json_array_get(errs, 1), "{\"stage\":\"kslice\","
	    "\"code\":\"no-body\",\"message\":\"kernel k has 0 bodies\"}");
	e = json_array_get(errs, 2);
	assert_string_equal(k_get_str(e, "stage"), "kwrap");
	assert_string_equal(k_get_str(e, "message"),
	    "message with \xef\xbf\xbd byte");
	assert_valid_json(rec);
	json_decref(rec);

	/* a record without errors gets the array */
	rec = json_pack("{s:s}", "id", "k");
	assert_false(k_has_errors(rec));
	k_error(rec, "kbuild", "nvcc-failed", "exit %d", 2);
	assert_true(k_has_errors(rec));
	assert_dump(rec, "{\"id\":\"k\",\"errors\":[{\"stage\":\"kbuild\","
	    "\"code\":\"nvcc-failed\",\"message\":\"exit 2\"}]}");
	json_decref(rec);

	/* an empty array is no error */
	rec = json_pack("{s:s,s:[]}", "id", "k", "errors");
	assert_false(k_has_errors(rec));
	json_decref(rec);
}

static void
test_accessors(void **state)
{
	json_t *rec;
	json_error_t err;

	(void)state;
	rec = json_loads("{\"id\":7,\"s\":\"x\",\"i\":3,\"f\":1.5,"
	    "\"scan\":{\"old\":1},\"z\":0}", 0, &err);
	assert_non_null(rec);
	assert_null(k_id_borrowed(rec));
	assert_string_equal(k_get_str(rec, "s"), "x");
	assert_null(k_get_str(rec, "i"));
	assert_null(k_get_str(rec, "missing"));
	assert_int_equal(k_get_int(rec, "i", -1), 3);
	assert_int_equal(k_get_int(rec, "f", -1), -1);
	assert_int_equal(k_get_int(rec, "s", -1), -1);
	assert_int_equal(k_get_int(rec, "missing", -1), -1);
	/* a rerun replaces its own section in place and keeps the order */
	k_set_section(rec, "scan", json_pack("{s:i}", "new", 2));
	k_set_section(rec, "slice", json_object());
	assert_dump(rec, "{\"id\":7,\"s\":\"x\",\"i\":3,\"f\":1.5,"
	    "\"scan\":{\"new\":2},\"z\":0,\"slice\":{}}");
	json_decref(rec);
}

static void
test_sha256(void **state)
{
	char hex[K_SHA256_HEX], *path;
	FILE *fp;

	(void)state;
	k_sha256_hex("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad");
	k_sha256_hex("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb924"
	    "27ae41e4649b934ca495991b7852b855");

	path = u_tmpname("sha");
	fp = fopen(path, "wb");
	assert_non_null(fp);
	fputs("abc", fp);
	fclose(fp);
	memset(hex, 0, sizeof(hex));
	assert_int_equal(k_sha256_file(path, hex), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad");
	unlink(path);
	errno = 0;
	assert_int_equal(k_sha256_file(path, hex), -1);
	assert_int_equal(errno, ENOENT);
}

static int
child_write(const char *arg)
{
	json_t *a, *b;
	int rc = 0;

	(void)arg;
	a = json_pack("{s:s,s:[i,i]}", "id", "a", "b", 1, 2);
	b = json_pack("{s:s,s:s}", "z", "\xc3\xa9", "id", "b");
	if (k_write(a) != 0 || k_write(b) != 0)
		rc = 10;
	json_decref(a);
	json_decref(b);
	return rc ? rc : k_finish();
}

static void
test_write(void **state)
{
	char *out = u_tmpname("out"), *err = u_tmpname("err"), *s;

	(void)state;
	assert_int_equal(u_child("write", NULL, NULL, out, err), 0);
	s = u_slurp(out);
	assert_string_equal(s, "{\"id\":\"a\",\"b\":[1,2]}\n"
	    "{\"z\":\"\xc3\xa9\",\"id\":\"b\"}\n");
	free(s);
	s = u_slurp(err);
	assert_string_equal(s, "");
	free(s);
	unlink(out);
	unlink(err);
}

static int
child_write_full(const char *arg)
{
	json_t *a = json_pack("{s:s}", "id", "a");
	int rc;

	(void)arg;
	k_msg_init("ktest");
	/* a per-record flush means the first write already fails */
	if (k_write(a) != -1)
		return 10;
	if (k_exit_status() != K_EXIT_IO)
		return 11;
	json_decref(a);
	rc = k_finish();
	return rc;
}

static void
test_write_full(void **state)
{
	char *err = u_tmpname("err"), *s;

	(void)state;
	if (access("/dev/full", W_OK) != 0)
		skip();
	assert_int_equal(u_child("write_full", NULL, NULL, "/dev/full",
	    err), K_EXIT_IO);
	s = u_slurp(err);
	assert_non_null(strstr(s, "ktest: write error on standard output: "));
	free(s);
	unlink(err);
}

static json_t *
add_section(json_t *rec, void *ctx)
{
	int *calls = ctx;

	++*calls;
	if (strcmp(k_id_borrowed(rec), "e") == 0)
		k_error(rec, STAGE, "boom", "record %s failed", "e");
	k_set_section(rec, "slice", json_pack("{s:i}", "n", *calls));
	return rec;
}

static int
child_filter(const char *arg)
{
	static const char text[] = "{\"id\":\"a\",\"keep\":[1]}\n"
	    "\n"
	    "not json\n"
	    "{\"id\":\"e\"}\n"
	    "{\"id\":\"b\"}";
	int calls = 0, rc;
	FILE *fp;

	(void)arg;
	k_msg_init("ktest");
	k_msg_quiet(1);
	fp = fmemopen((void *)text, sizeof(text) - 1, "r");
	rc = k_filter(fp, NAME, STAGE, add_section, &calls);
	fclose(fp);
	/* fn sees the objects only, never the bad lines */
	if (calls != 3)
		return 20 + calls;
	return rc == k_finish() ? rc : 30;
}

static void
test_filter(void **state)
{
	char *out = u_tmpname("out"), *err = u_tmpname("err"), *s;

	(void)state;
	/* records with errors make the run's status 1 */
	assert_int_equal(u_child("filter", NULL, NULL, out, err),
	    K_EXIT_RECORDS);
	s = u_slurp(out);
	/* lines in = lines out, in order */
	assert_string_equal(s,
	    "{\"id\":\"a\",\"keep\":[1],\"slice\":{\"n\":1}}\n"
	    "{\"id\":\"<test>:2\",\"raw\":\"\",\"errors\":[{\"stage\":\"test\","
	    "\"code\":\"empty-line\",\"message\":\"empty line\",\"line\":2}]}\n"
	    "{\"id\":\"<test>:3\",\"raw\":\"not json\",\"errors\":[{\"stage\":"
	    "\"test\",\"code\":\"invalid-json\",\"message\":\"invalid JSON: "
	    "invalid token near 'not' at column 3\",\"line\":3}]}\n"
	    "{\"id\":\"e\",\"errors\":[{\"stage\":\"test\",\"code\":\"boom\","
	    "\"message\":\"record e failed\"}],\"slice\":{\"n\":2}}\n"
	    "{\"id\":\"b\",\"slice\":{\"n\":3}}\n");
	free(s);
	s = u_slurp(err);
	assert_string_equal(s, "");
	free(s);
	unlink(out);
	unlink(err);
}

static int
child_warn_format(const char *arg)
{
	static const char text[] = "{\"id\":\"a\"}\n{\"id\" 1}\n";
	struct k_reader r;
	json_t *rec;
	int bad;
	FILE *fp;

	(void)arg;
	k_msg_init("/usr/local/bin/kslice");
	fp = fmemopen((void *)text, sizeof(text) - 1, "r");
	k_reader_init(&r, fp, "<stdin>", "kslice");
	while (k_read(&r, &rec, &bad) == 1)
		json_decref(rec);
	k_reader_free(&r);
	fclose(fp);
	return k_exit_status();
}

static void
test_warn_format(void **state)
{
	char *err = u_tmpname("err"), *s;

	(void)state;
	assert_int_equal(u_child("warn_format", NULL, NULL, NULL, err),
	    K_EXIT_RECORDS);
	s = u_slurp(err);
	assert_string_equal(s, "kslice: <stdin>:2: invalid JSON: "
	    "':' expected near '1' at column 7\n");
	free(s);
	unlink(err);
}

static const struct u_child children[] = {
	{ "write", child_write },
	{ "write_full", child_write_full },
	{ "filter", child_filter },
	{ "warn_format", child_warn_format },
	{ NULL, NULL }
};

int
main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_objects),
		cmocka_unit_test(test_read_empty_input),
		cmocka_unit_test(test_read_blank_line),
		cmocka_unit_test(test_read_invalid_json),
		cmocka_unit_test(test_read_not_an_object),
		cmocka_unit_test(test_read_duplicate_keys),
		cmocka_unit_test(test_read_invalid_utf8),
		cmocka_unit_test(test_read_line_too_long),
		cmocka_unit_test(test_max_line_env),
		cmocka_unit_test(test_read_crlf),
		cmocka_unit_test(test_read_no_final_newline),
		cmocka_unit_test(test_string_lossy),
		cmocka_unit_test(test_error_append),
		cmocka_unit_test(test_accessors),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_write_full),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_warn_format),
	};

	int rc;

	if ((rc = u_dispatch(children, argc, argv)) >= 0)
		return rc;
	/* the reader warns on every bad line; that is tested in a child */
	k_msg_quiet(1);
	return cmocka_run_group_tests_name("k_record", tests, NULL, NULL);
}
