/*
 * kimport: code through kscan and kslice, and the references candidates
 * are matched with.  Each piece of code (a candidate, a row's own
 * reference) is written into a directory of its own under the work
 * directory, named by a hash of its files, and scanned and sliced there
 * by the kscan and kslice next to kimport: one scan per directory, so the
 * launch sites of one candidate are never matched to another's kernels.
 * What came out is kept beside the files (sliced.ndjson) with the hash of
 * the two programs that made it, so a rerun with the same tools scans
 * nothing again.
 *
 * Ownership: the reference index belongs to this unit until refs_free;
 * refs_match_borrowed returns a record it holds (or one of local's).
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "k_buf.h"
#include "k_exit.h"
#include "k_fs.h"
#include "k_hash.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_proc.h"
#include "k_record.h"
#include "kimport.h"

#define SLICED_MAX (512UL * 1024 * 1024)

static json_t *index_;		/* key -> record, from refs_load */
static char stamp[K_SHA256_HEX];	/* of kscan and kslice */

static int
ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a > b && strcmp(s + a - b, suf) == 0;
}

static int
is_hip(const char *code)
{
	return strstr(code, "hip/hip_runtime") != NULL ||
	    strstr(code, "hipLaunchKernelGGL") != NULL;
}

/* the tools' hash: what they make depends on nothing else kimport sees */
static const char *
tools_stamp(void)
{
	char a[K_SHA256_HEX], b[K_SHA256_HEX], both[2 * K_SHA256_HEX];

	if (stamp[0] != '\0')
		return stamp;
	if (k_sha256_file(opt.kscan, a) != 0 ||
	    k_sha256_file(opt.kslice, b) != 0)
		k_fatal(K_EXIT_SYSTEM, opt.kscan, "cannot read kscan or "
		    "kslice: %s", strerror(errno));
	snprintf(both, sizeof(both), "%s%s", a, b);
	k_sha256_hex(both, strlen(both), stamp);
	return stamp;
}

/* The files code stands for, with a one-file candidate named after the
 * row's file (given a .cu or .hip kscan reads when it has neither). */
static json_t *
files_of(json_t *code, const char *filename)
{
	json_t *out, *f;
	const char *text;
	char name[320];

	if (json_is_array(code))
		return json_incref(code);
	text = json_string_value(code);
	if (filename == NULL)
		filename = "predict";
	snprintf(name, sizeof(name), "%s%s", filename,
	    ends_with(filename, ".cu") || ends_with(filename, ".cuh") ||
	    ends_with(filename, ".hip") ? "" : is_hip(text) ||
	    ends_with(filename, ".cpp") ? ".hip" : ".cu");
	out = json_array();
	f = json_object();
	json_object_set_new(f, "path", json_string(name));
	json_object_set(f, "content", code);
	json_array_append_new(out, f);
	return out;
}

static int
write_files(const char *dir, json_t *files)
{
	json_t *f;
	size_t i;
	char path[PATH_MAX + 300];

	json_array_foreach(files, i, f) {
		const char *p = k_get_str(f, "path");
		const char *c = k_get_str(f, "content");
		char *d;
		snprintf(path, sizeof(path), "%s/%s", dir, p);
		d = k_dirname(path);
		if (k_mkdirs(d) != 0 || k_file_write(path, c, strlen(c)) != 0) {
			free(d);
			return -1;
		}
		free(d);
	}
	return 0;
}

/* the last line of a log, for a reason */
static void
log_tail(const char *path, char *why, size_t len)
{
	size_t n;
	char *t = k_file_read(path, 1UL << 20, &n), *e;

	while (t != NULL && n > 0 && t[n - 1] == '\n')
		t[--n] = '\0';
	if (t == NULL || n == 0) {
		snprintf(why, len, "no output");
		free(t);
		return;
	}
	e = strrchr(t, '\n');
	snprintf(why, len, "%.300s", e != NULL ? e + 1 : t);
	free(t);
}

static json_t *
read_sliced(const char *path)
{
	json_t *out = json_array(), *rec;
	size_t len;
	char *t = k_file_read(path, SLICED_MAX, &len), *line, *nl;

	if (t == NULL) {
		json_decref(out);
		return NULL;
	}
	for (line = t; *line != '\0'; line = nl + 1) {
		if ((nl = strchr(line, '\n')) == NULL)
			nl = line + strlen(line) - 1;
		rec = json_loadb(line, (size_t)(nl - line + 1),
		    JSON_REJECT_DUPLICATES, NULL);
		if (json_is_object(rec))
			json_array_append_new(out, rec);
		else
			json_decref(rec);
		if (nl[1] == '\0')
			break;
	}
	free(t);
	return out;
}

json_t *
scan_code(json_t *code, const char *filename, char *why, size_t len)
{
	json_t *files = files_of(code, filename), *recs;
	char *text = json_dumps(files, JSON_COMPACT | JSON_SORT_KEYS);
	char hash[K_SHA256_HEX], dir[PATH_MAX + 128], out[PATH_MAX + 256],
	    tmp[PATH_MAX + 256], log[PATH_MAX + 256], st[PATH_MAX + 256],
	    src[PATH_MAX + 256];
	char *have;
	size_t n;
	struct k_proc pr;
	char *argv[] = { "/bin/sh", "-c",
		"\"$0\" -q --root \"$1\" --work \"$2\" --timeout \"$5\" \"$1\" "
		"2> \"$3\" | \"$4\" -q --work \"$2\" --timeout \"$5\" 2>> \"$3\"",
		opt.kscan, src, opt.work, log, opt.kslice, NULL, NULL };
	char secs[32];

	k_sha256_hex(text, strlen(text), hash);
	free(text);
	snprintf(dir, sizeof(dir), "%s/import/%s", opt.work, hash);
	snprintf(out, sizeof(out), "%s/sliced.ndjson", dir);
	snprintf(st, sizeof(st), "%s/stamp", dir);
	have = k_file_read(st, 256, &n);
	if (have != NULL && strcmp(have, tools_stamp()) == 0 &&
	    (recs = read_sliced(out)) != NULL) {
		free(have);
		json_decref(files);
		return recs;
	}
	free(have);
	k_remove_tree(dir);
	snprintf(src, sizeof(src), "%s/src", dir);
	snprintf(log, sizeof(log), "%s/scan.log", dir);
	if (k_mkdirs(src) != 0 || write_files(src, files) != 0)
		k_fatal(K_EXIT_IO, dir, "%s", strerror(errno));
	json_decref(files);
	snprintf(secs, sizeof(secs), "%g", opt.timeout);
	argv[8] = secs;
	snprintf(tmp, sizeof(tmp), "%s/sliced.tmp", dir);
	if (k_run(argv, NULL, tmp, 2 * opt.timeout, &pr) != 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "cannot run /bin/sh: %s",
		    strerror(errno));
	if (pr.timed_out || (recs = read_sliced(tmp)) == NULL ||
	    json_array_size(recs) == 0) {
		if (pr.timed_out)
			snprintf(why, len, "kscan and kslice ran past %g "
			    "seconds", 2 * opt.timeout);
		else {
			char t[320];
			log_tail(log, t, sizeof(t));
			snprintf(why, len, "kscan found no kernel: %s", t);
		}
		if (!pr.timed_out)
			json_decref(recs);
		return NULL;
	}
	if (rename(tmp, out) == 0)
		k_file_write(st, tools_stamp(), strlen(tools_stamp()));
	return recs;
}

/*
 * A parameter's type as its function's signature (and mangled name) has
 * it: top-level qualifiers dropped ("const float *__restrict" is
 * "const float *", "const int" is "int"), spaces as one.
 */
static void
sig_type(struct k_buf *b, const char *t)
{
	static const char *const drop[] = { "__restrict__", "__restrict",
		"restrict", NULL };
	char buf[512], *w;
	size_t n, i;
	int sp = 0;

	snprintf(buf, sizeof(buf), "%s", t);
	for (i = 0; drop[i] != NULL; i++)
		while ((w = strstr(buf, drop[i])) != NULL) {
			n = strlen(drop[i]);
			memmove(w, w + n, strlen(w + n) + 1);
		}
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
	if (n >= 5 && strcmp(buf + n - 5, "const") == 0 &&
	    strchr(buf, '*') != NULL)
		buf[n -= 5] = '\0';
	w = buf;
	if (strchr(buf, '*') == NULL && strchr(buf, '&') == NULL &&
	    strncmp(buf, "const ", 6) == 0)
		w += 6;
	for (; *w != '\0'; w++) {
		if (*w == ' ') {
			sp = 1;
			continue;
		}
		if (sp && b->n > 0 && b->s[b->n - 1] != '(' &&
		    b->s[b->n - 1] != ',')
			k_buf_addn(b, " ", 1);
		sp = 0;
		k_buf_addn(b, w, 1);
	}
}

/* A kernel's name and signature, and its instantiation after kslice:
 * what a candidate must match to be judged against a reference. */
static char *
key_of(json_t *rec)
{
	json_t *scan = json_object_get(rec, "scan"), *p;
	json_t *inst = json_object_get(json_object_get(rec, "slice"),
	    "instance");
	const char *q = k_get_str(scan, "qualified_name");
	struct k_buf b;
	char *is;
	size_t i;

	if (q == NULL || !json_is_object(json_object_get(rec, "slice")))
		return NULL;
	memset(&b, 0, sizeof(b));
	b.max = 1UL << 20;
	k_buf_printf(&b, "%s(", q);
	json_array_foreach(json_object_get(scan, "params"), i, p) {
		const char *t = k_get_str(p, "canonical_type");
		if (t == NULL)
			t = k_get_str(p, "type");
		if (i > 0)
			k_buf_add(&b, ",");
		sig_type(&b, t != NULL ? t : "?");
	}
	is = inst != NULL ? json_dumps(inst, JSON_COMPACT | JSON_SORT_KEYS) :
	    NULL;
	k_buf_printf(&b, ")%s", is != NULL ? is : "{}");
	free(is);
	return k_buf_take(&b);
}

void
refs_add(json_t *rec)
{
	char *k = key_of(rec);

	if (index_ == NULL)
		index_ = json_object();
	if (k != NULL && json_object_get(index_, k) == NULL)
		json_object_set(index_, k, rec);
	free(k);
}

void
refs_load(const char *path)
{
	FILE *fp = fopen(path, "r");
	struct k_reader r;
	json_t *rec;
	int bad, rc;

	if (fp == NULL)
		k_fatal(K_EXIT_USAGE, path, "--reference: %s", strerror(errno));
	k_reader_init(&r, fp, path, STAGE);
	while ((rc = k_read(&r, &rec, &bad)) == 1) {
		if (!bad)
			refs_add(rec);
		json_decref(rec);
	}
	k_reader_free(&r);
	fclose(fp);
	if (rc < 0)
		k_exit_raise(K_EXIT_IO);
}

json_t *
refs_match_borrowed(json_t *cand, json_t *local)
{
	char *k = key_of(cand), *lk;
	json_t *r;
	size_t i;

	if (k == NULL)
		return NULL;
	json_array_foreach(local, i, r) {
		lk = key_of(r);
		if (lk != NULL && strcmp(lk, k) == 0) {
			free(lk);
			free(k);
			return r;
		}
		free(lk);
	}
	r = json_object_get(index_, k);
	free(k);
	return r;
}

void
refs_free(void)
{
	json_decref(index_);
	index_ = NULL;
}
