/*
 * kreport: the one walk over the summary that Markdown and HTML share.
 * It decides what a report says and in which order; a backend (md.c,
 * html.c) decides only how each heading, table, list and chart looks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "k_mem.h"
#include "k_record.h"
#include "k_buf.h"
#include "kreport.h"

double
num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

long
inum(json_t *o, const char *key)
{
	return (long)json_integer_value(json_object_get(o, key));
}

const char *
pct(double x, char *buf, size_t len)
{
	snprintf(buf, len, "%.1f%%", 100 * x);
	return buf;
}

/* "3 (75.0%)", or "-" when there is nothing to divide by. */
const char *
count_pct(long n, long of, char *buf, size_t len)
{
	if (of > 0)
		snprintf(buf, len, "%ld (%.1f%%)", n, 100.0 * (double)n /
		    (double)of);
	else
		snprintf(buf, len, "-");
	return buf;
}

const char *
speed(json_t *v, char *buf, size_t len)
{
	if (json_is_number(v))
		snprintf(buf, len, "%.2fx", json_number_value(v));
	else
		snprintf(buf, len, "-");
	return buf;
}

#define TXT(x) { 0, (x), NULL }
#define CODE(x) { 1, (x), NULL }

static void
stages(json_t *s, const struct backend *b)
{
	static const struct col cols[] = { { "stage", 'l' },
	    { "records with section", 'r' }, { "ok", 'r' },
	    { "ok of all records", 'r' } };
	char n1[32], n2[32], p[32];
	json_t *r;
	size_t i;

	b->heading(2, "Stages");
	if (b->charts)
		b->chart_stages(s);
	b->table(cols, 4);
	json_array_foreach(json_object_get(s, "stages"), i, r) {
		struct span row[] = { TXT(k_get_str(r, "stage")), TXT(n1),
		    TXT(n2), TXT(pct(num(r, "rate"), p, sizeof(p))) };
		snprintf(n1, sizeof(n1), "%ld", inum(r, "records"));
		snprintf(n2, sizeof(n2), "%ld", inum(r, "ok"));
		b->row(row, 4);
	}
	b->table_end();
}

const char *
plural(long n)
{
	return n == 1 ? "" : "s";
}

const char *
never_ran(json_t *s, char *buf, size_t len)
{
	static const char *const tools[] = { "kscan", "kslice", "kwrap",
	    "kbuild", "kverify" };
	json_t *st = json_object_get(s, "stages"), *e;
	long nodev = 0, verified = 0;
	size_t i, k;

	buf[0] = '\0';
	verified = inum(json_array_get(st, 4), "records");
	json_array_foreach(json_object_get(s, "errors"), i, e)
		if (strcmp(k_get_str(e, "stage") ? k_get_str(e, "stage") : "",
		    "kverify") == 0 && strcmp(k_get_str(e, "code") ?
		    k_get_str(e, "code") : "", "no-device") == 0)
			nodev = inum(e, "records");
	if (nodev > 0 && nodev >= verified) {
		snprintf(buf, len, "Verification never ran: kverify found no "
		    "GPU (%ld record%s say%s no-device), so no record is "
		    "verified and no candidate judged; run kverify on a "
		    "machine with one.", nodev, plural(nodev),
		    nodev == 1 ? "s" : "");
		return buf;
	}
	for (k = 1; k < 5 && k < json_array_size(st); k++) {
		json_t *prev = json_array_get(st, k - 1);
		json_t *cur = json_array_get(st, k);
		if (inum(cur, "records") == 0 && inum(prev, "ok") > 0) {
			snprintf(buf, len, "%s never ran on these records: no "
			    "record has a %s section, so nothing after %s is "
			    "known.", tools[k], k_get_str(cur, "stage"),
			    k_get_str(prev, "stage"));
			return buf;
		}
	}
	return buf[0] != '\0' ? buf : NULL;
}

static void
candidates(json_t *s, const struct backend *b)
{
	static const char *const v[] = { "pass_call", "pass_exe",
	    "pass_perf" };
	static const struct col vcols[] = { { "verdict", 'l' },
	    { "passed", 'r' }, { "rate", 'r' } };
	static const struct col kcols[] = { { "k", 'r' }, { "tasks", 'r' },
	    { "pass@k", 'r' } };
	static const struct col fcols[] = { { "p", 'r' }, { "fast_p", 'r' } };
	static const struct col hcols[] = { { "speedup", 'l' },
	    { "candidates", 'r' } };
	json_t *c = json_object_get(s, "candidates"), *r, *arr, *sp;
	long nc = inum(c, "records");
	char t1[64], t2[64], t3[64], t4[64], line[512];
	size_t i;
	int k;

	b->heading(2, "Candidates");
	if (!b->charts) {
		/* a format with charts shows these as its overview */
		b->table(vcols, 3);
		for (k = 0; k < 3; k++) {
			struct span row[] = { TXT(v[k]), TXT(t1), TXT(t2) };
			r = json_object_get(c, v[k]);
			snprintf(t1, sizeof(t1), "%ld of %ld", inum(r, "n"), nc);
			pct(num(r, "rate"), t2, sizeof(t2));
			b->row(row, 3);
		}
		b->table_end();
	}
	arr = json_object_get(s, "pass_at_k");
	if (json_array_size(arr) > 0) {
		if (!b->charts)
			b->heading(3, "pass@k");
		b->table(kcols, 3);
		json_array_foreach(arr, i, r) {
			struct span row[] = { TXT(t1), TXT(t2), TXT(t3) };
			snprintf(t1, sizeof(t1), "%ld", inum(r, "k"));
			snprintf(t2, sizeof(t2), "%ld", inum(r, "tasks"));
			/* none: no candidate of k or more was judged */
			if (json_is_number(json_object_get(r, "value")))
				snprintf(t3, sizeof(t3), "%.4f", num(r,
				    "value"));
			else
				snprintf(t3, sizeof(t3), "none");
			b->row(row, 3);
		}
		b->table_end();
	}
	sp = json_object_get(s, "speedup");
	if (b->charts)
		b->chart_speedups(json_object_get(sp, "histogram"));
	else
		b->heading(3, "Speedup");
	snprintf(line, sizeof(line), "%ld correct candidates timed; "
	    "geometric mean %s, median %s, min %s, max %s.", inum(sp, "n"),
	    speed(json_object_get(sp, "geomean"), t1, sizeof(t1)),
	    speed(json_object_get(sp, "median"), t2, sizeof(t2)),
	    speed(json_object_get(sp, "min"), t3, sizeof(t3)),
	    speed(json_object_get(sp, "max"), t4, sizeof(t4)));
	b->para(line);
	b->table(fcols, 2);
	json_array_foreach(json_object_get(s, "fast_p"), i, r) {
		struct span row[] = { TXT(t1), TXT(t2) };
		snprintf(t1, sizeof(t1), "%g", num(r, "p"));
		if (json_is_number(json_object_get(r, "value")))
			snprintf(t2, sizeof(t2), "%.4f", num(r, "value"));
		else
			snprintf(t2, sizeof(t2), "none");
		b->row(row, 2);
	}
	b->table_end();
	if (!b->charts) {
		b->table(hcols, 2);
		json_array_foreach(json_object_get(sp, "histogram"), i, r) {
			struct span row[] = { TXT(k_get_str(r, "bin")),
			    TXT(t1) };
			snprintf(t1, sizeof(t1), "%ld", inum(r, "n"));
			b->row(row, 2);
		}
		b->table_end();
	}
}

static void
failures(json_t *s, const struct backend *b)
{
	static const struct col fcols[] = { { "class", 'l' },
	    { "records", 'r' }, { "first", 'l' } };
	static const struct col ecols[] = { { "stage", 'l' }, { "code", 'l' },
	    { "records", 'r' }, { "first", 'l' }, { "message", 'L' } };
	json_t *arr = json_object_get(s, "failures"), *r;
	char n[32];
	size_t i;

	b->heading(2, "Failures");
	if (json_array_size(arr) == 0)
		b->para("None.");
	else {
		if (b->charts)
			b->chart_failures(arr);
		b->table(fcols, 3);
		json_array_foreach(arr, i, r) {
			struct span row[] = { CODE(k_get_str(r, "class")),
			    TXT(n), CODE(k_get_str(r, "example")) };
			snprintf(n, sizeof(n), "%ld", inum(r, "records"));
			b->row(row, 3);
		}
		b->table_end();
	}
	arr = json_object_get(s, "errors");
	if (json_array_size(arr) == 0)
		return;
	b->heading(3, "Errors");
	b->table(ecols, 5);
	json_array_foreach(arr, i, r) {
		struct span row[] = { TXT(k_get_str(r, "stage")),
		    CODE(k_get_str(r, "code")), TXT(n),
		    CODE(k_get_str(r, "example")),
		    CODE(k_get_str(r, "message")) };
		snprintf(n, sizeof(n), "%ld", inum(r, "records"));
		b->row(row, 5);
	}
	b->table_end();
}

static void
breakdown(json_t *rows, const char *title, const struct backend *b)
{
	struct col cols[] = { { title, 'l' }, { "records", 'r' },
	    { "built", 'r' }, { "candidates", 'r' }, { "pass_call", 'r' },
	    { "pass_exe", 'r' }, { "pass_perf", 'r' },
	    { "geomean speedup", 'r' } };
	char head[64], n[32], nc[32], b1[64], b2[64], b3[64], b4[64], b5[64];
	json_t *r;
	size_t i;

	if (json_array_size(rows) == 0)
		return;
	snprintf(head, sizeof(head), "By %s", title);
	b->heading(3, head);
	b->table(cols, 8);
	json_array_foreach(rows, i, r) {
		long c = inum(r, "candidates");
		struct span row[] = { CODE(k_get_str(r, "key")), TXT(n),
		    TXT(count_pct(inum(r, "built"), inum(r, "records"), b1,
		    sizeof(b1))), TXT(nc),
		    TXT(count_pct(inum(r, "pass_call"), c, b2, sizeof(b2))),
		    TXT(count_pct(inum(r, "pass_exe"), c, b3, sizeof(b3))),
		    TXT(count_pct(inum(r, "pass_perf"), c, b4, sizeof(b4))),
		    TXT(speed(json_object_get(r, "geomean_speedup"), b5,
		    sizeof(b5))) };
		snprintf(n, sizeof(n), "%ld", inum(r, "records"));
		snprintf(nc, sizeof(nc), "%ld", c);
		b->row(row, 8);
	}
	b->table_end();
}

/* The mutation score: overall, then per task, lowest first. */
static void
mutants(json_t *s, const struct backend *b)
{
	static const struct col cols[] = { { "task", 'l' }, { "tried", 'r' },
	    { "killed", 'r' }, { "survived", 'r' }, { "equivalent", 'r' },
	    { "under spec", 'r' }, { "score", 'r' }, { "survivors", 'l' } };
	json_t *m = json_object_get(s, "mutation"), *r, *x;
	char para[512], n[6][32], sc[32];
	size_t i, j;

	if (!json_is_object(m))
		return;
	b->heading(2, "Mutation score");
	snprintf(para, sizeof(para), "%ld of %ld mutants killed (%s) over "
	    "%ld tasks: killed over tried (%ld) less the %ld survivors kwrap "
	    "proved equivalent under the spec's cases and launch (not in "
	    "general); %ld equivalent (the reference's machine code) and %ld "
	    "stillborn not counted.", inum(m, "killed"), inum(m, "tried") -
	    inum(m, "spec_equivalent"), pct(num(m, "score"), sc, sizeof(sc)),
	    inum(m, "tasks"), inum(m, "tried"), inum(m, "spec_equivalent"),
	    inum(m, "equivalent"), inum(m, "stillborn"));
	b->para(para);
	if (inum(m, "contradictions") > 0) {
		snprintf(para, sizeof(para), "Contradictions: %ld killed "
		    "mutants had been proved equivalent under the spec; the "
		    "proofs are wrong (counted as killed).",
		    inum(m, "contradictions"));
		b->para(para);
	}
	b->table(cols, 8);
	json_array_foreach(json_object_get(m, "per_task"), i, r) {
		struct k_buf sv = { 0 };
		if (i == FAILED_SHOWN)
			break;
		json_array_foreach(json_object_get(r, "survivors"), j, x)
			k_buf_printf(&sv, "%s%s", j ? " " : "",
			    json_string_value(x));
		{
			struct span row[] = { CODE(k_get_str(r, "task")),
			    TXT(n[0]), TXT(n[1]), TXT(n[2]), TXT(n[3]),
			    TXT(n[5]), TXT(n[4]), TXT(k_buf_str(&sv)) };
			snprintf(n[0], sizeof(n[0]), "%ld", inum(r, "tried"));
			snprintf(n[1], sizeof(n[1]), "%ld", inum(r, "killed"));
			snprintf(n[2], sizeof(n[2]), "%ld", inum(r,
			    "survived"));
			snprintf(n[3], sizeof(n[3]), "%ld", inum(r,
			    "equivalent"));
			snprintf(n[5], sizeof(n[5]), "%ld%s", inum(r,
			    "spec_equivalent"), inum(r, "contradictions") > 0 ?
			    " (contradicted)" : "");
			if (json_is_number(json_object_get(r, "score")))
				pct(num(r, "score"), n[4], sizeof(n[4]));
			else
				snprintf(n[4], sizeof(n[4]), "-");
			b->row(row, 8);
		}
		k_buf_free(&sv);
	}
	b->table_end();
}

static void
failed(json_t *s, const struct backend *b)
{
	json_t *arr = json_object_get(s, "failed"), *r, *cl, *classes;
	struct span *parts;
	char more[64], *href = NULL;
	size_t i, j, n;

	if (json_array_size(arr) == 0)
		return;
	b->heading(2, "Failed records");
	b->list();
	json_array_foreach(arr, i, r) {
		if (i == FAILED_SHOWN) {
			struct span m[] = { TXT(more) };
			snprintf(more, sizeof(more), "... and %zu more",
			    json_array_size(arr) - i);
			b->item(m, 1);
			break;
		}
		/* `id`: `class`, `class` (`debug`) */
		classes = json_object_get(r, "classes");
		parts = k_calloc(2 * json_array_size(classes) + 5,
		    sizeof(*parts));
		n = 0;
		parts[n++] = (struct span)CODE(k_get_str(r, "id"));
		parts[n++] = (struct span)TXT(":");
		json_array_foreach(classes, j, cl) {
			parts[n++] = (struct span)TXT(j ? ", " : " ");
			parts[n++] = (struct span)CODE(json_string_value(cl));
		}
		if (k_get_str(r, "debug") != NULL) {
			parts[n++] = (struct span)TXT(" (");
			/* the folder, where the page is read from the
			 * directory kreport ran in (or anywhere, when
			 * --debug-dir is absolute) */
			href = opt.debug_dir != NULL ? k_asprintf("%s%s/%s/",
			    opt.debug_dir[0] == '/' ? "file://" : "",
			    opt.debug_dir, k_get_str(r, "debug")) : NULL;
			parts[n++] = (struct span){ 1, k_get_str(r, "debug"),
			    href };
			parts[n++] = (struct span)TXT(")");
		}
		b->item(parts, n);
		free(href);
		href = NULL;
		free(parts);
	}
	b->list_end();
}

void
render(json_t *s, const struct backend *b)
{
	json_t *r;

	b->begin();
	b->heading(1, "kforge report");
	b->overview(s);
	stages(s, b);
	if (inum(json_object_get(s, "candidates"), "records") > 0)
		candidates(s, b);
	failures(s, b);
	mutants(s, b);
	b->heading(2, "Breakdown");
	r = json_object_get(s, "breakdown");
	breakdown(json_object_get(r, "op"), "op", b);
	breakdown(json_object_get(r, "project"), "project", b);
	breakdown(json_object_get(r, "dialect"), "dialect", b);
	breakdown(json_object_get(r, "tag"), "tag", b);
	failed(s, b);
	b->end();
}
