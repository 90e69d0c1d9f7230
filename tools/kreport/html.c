/*
 * kreport's HTML: one self-contained page (inline CSS and SVG charts, no
 * scripts, nothing fetched), every text escaped.
 */
#include <stdio.h>

#include <jansson.h>

#include "k_record.h"
#include "kreport.h"

static void
h(const char *s)
{
	for (; s != NULL && *s != '\0'; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", stdout);
			break;
		case '>':
			fputs("&gt;", stdout);
			break;
		case '&':
			fputs("&amp;", stdout);
			break;
		case '"':
			fputs("&quot;", stdout);
			break;
		default:
			putchar(*s);
		}
	}
}

/* A horizontal bar chart: one labelled bar per row, value text at its
 * end; values are fractions of max. */
static void
svg_hbars(const char *title, const char **labels, const double *values,
    const char **texts, size_t n, double max, const char *color)
{
	const int lw = 260, bw = 520, rh = 24, top = 30;
	int height = top + (int)n * rh + 10;
	size_t i;

	printf("<figure><svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">"
	    "\n<title>", lw + bw + 140, height, lw + bw + 140, height);
	h(title);
	printf("</title>\n<text x=\"0\" y=\"18\" class=\"t\">");
	h(title);
	printf("</text>\n");
	for (i = 0; i < n; i++) {
		int y = top + (int)i * rh;
		int w = max > 0 ? (int)(values[i] / max * bw + 0.5) : 0;
		printf("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", lw - 8,
		    y + 16);
		h(labels[i]);
		printf("</text><rect x=\"%d\" y=\"%d\" width=\"%d\" "
		    "height=\"%d\" fill=\"%s\"/><rect x=\"%d\" y=\"%d\" "
		    "width=\"%d\" height=\"%d\" fill=\"none\" "
		    "stroke=\"#ccc\"/><text x=\"%d\" y=\"%d\">", lw, y + 3, w,
		    rh - 6, color, lw, y + 3, bw, rh - 6, lw + bw + 6, y + 16);
		h(texts[i]);
		printf("</text>\n");
	}
	printf("</svg></figure>\n");
}

static void
svg_hist(json_t *hist)
{
	const int bw = 90, ch = 200, top = 30, left = 40;
	size_t i, n = json_array_size(hist);
	long max = 1;
	json_t *r;

	json_array_foreach(hist, i, r)
		if (inum(r, "n") > max)
			max = inum(r, "n");
	printf("<figure><svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">"
	    "\n<title>speedup of correct candidates</title>\n"
	    "<text x=\"0\" y=\"18\" class=\"t\">speedup of correct "
	    "candidates (reference time / candidate time)</text>\n",
	    left + (int)n * bw + 20, top + ch + 50, left + (int)n * bw + 20,
	    top + ch + 50);
	printf("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
	    "stroke=\"#444\"/>\n", left, top + ch, left + (int)n * bw,
	    top + ch);
	json_array_foreach(hist, i, r) {
		long v = inum(r, "n");
		int bh = (int)((double)v / (double)max * (ch - 20) + 0.5);
		int x = left + (int)i * bw;
		double lo = num(r, "lo");
		const char *col = lo >= 1.1 ? "#2a9d8f" : lo >= 0.9 ?
		    "#8d99ae" : "#e76f51";
		printf("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		    "fill=\"%s\"/><text x=\"%d\" y=\"%d\" "
		    "text-anchor=\"middle\">%ld</text><text x=\"%d\" y=\"%d\" "
		    "text-anchor=\"middle\">", x + 6, top + ch - bh, bw - 12,
		    bh, col, x + bw / 2, top + ch - bh - 4, v, x + bw / 2,
		    top + ch + 18);
		h(k_get_str(r, "bin"));
		printf("</text>\n");
	}
	printf("</svg></figure>\n");
}

static const struct col *cur;	/* the open table's columns */
static size_t ncur;

static void
begin(void)
{
	printf("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>kforge report</title>\n"
	    "<style>\n"
	    "body { font: 14px/1.4 sans-serif; margin: 2em; color: #222; "
	    "background: #fff; max-width: 1200px; }\n"
	    "table { border-collapse: collapse; margin: 0.5em 0 1.5em; }\n"
	    "th, td { border: 1px solid #ccc; padding: 3px 8px; "
	    "text-align: right; }\n"
	    "th:first-child, td:first-child { text-align: left; }\n"
	    "th { background: #f0f0f0; }\n"
	    "figure { margin: 1em 0; }\n"
	    "svg text { font: 12px sans-serif; fill: #222; }\n"
	    "svg text.t { font-weight: bold; font-size: 14px; }\n"
	    ".cards { display: flex; gap: 1em; flex-wrap: wrap; }\n"
	    ".card { border: 1px solid #ccc; border-radius: 6px; "
	    "padding: 0.6em 1.2em; }\n"
	    ".card b { display: block; font-size: 22px; }\n"
	    /* readable at 1,280 px: long ids wrap, wide tables scroll
	     * inside themselves, never the page */
	    "code { overflow-wrap: anywhere; word-break: break-word; }\n"
	    ".scroll { overflow-x: auto; max-width: 100%%; }\n"
	    "td { vertical-align: top; }\n"
	    "td:first-child { max-width: 40em; }\n"
	    "li { margin: 0.2em 0; overflow-wrap: anywhere; }\n"
	    ".banner { border: 2px solid #e76f51; background: #fdf0ec; "
	    "padding: 0.6em 1em; margin: 1em 0; font-weight: bold; }\n"
	    "</style>\n</head>\n<body>\n");
}

static void
heading(int level, const char *text)
{
	printf("<h%d>", level);
	h(text);
	printf("</h%d>\n", level);
}

static const char *const verdicts[] = { "pass_call", "pass_exe",
    "pass_perf" };

static void
overview(json_t *s)
{
	json_t *c = json_object_get(s, "candidates");
	long nc = inum(c, "records");
	char b1[64], banner[512];
	int k;

	if (never_ran(s, banner, sizeof(banner)) != NULL) {
		printf("<p class=\"banner\" role=\"alert\">");
		h(banner);
		printf("</p>\n");
	}

	printf("<div class=\"cards\">\n"
	    "<div class=\"card\"><b>%ld</b>record%s</div>\n"
	    "<div class=\"card\"><b>%ld</b>bad input line%s</div>\n"
	    "<div class=\"card\"><b>%ld</b>candidate%s</div>\n"
	    "<div class=\"card\"><b>%ld</b>task%s</div>\n",
	    inum(s, "records"), plural(inum(s, "records")),
	    inum(s, "bad_lines"), plural(inum(s, "bad_lines")), nc,
	    plural(nc), inum(c, "tasks"), plural(inum(c, "tasks")));
	for (k = 0; k < 3; k++)
		printf("<div class=\"card\"><b>%s</b>%s</div>\n",
		    nc > 0 ? pct(num(json_object_get(c, verdicts[k]), "rate"),
		    b1, sizeof(b1)) : "-", verdicts[k]);
	printf("<div class=\"card\"><b>%s</b>geomean speedup</div>\n"
	    "</div>\n", speed(json_object_get(json_object_get(s, "speedup"),
	    "geomean"), b1, sizeof(b1)));
}

static void
para(const char *text)
{
	printf("<p>");
	h(text);
	printf("</p>\n");
}

static void
table(const struct col *cols, size_t n)
{
	size_t i;

	cur = cols;
	ncur = n;
	printf("<div class=\"scroll\"><table><tr>");
	for (i = 0; i < n; i++) {
		printf("<th>");
		h(cols[i].name);
		printf("</th>");
	}
	printf("</tr>\n");
}

static void
spans(const struct span *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i].href != NULL) {
			printf("<a href=\"");
			h(p[i].href);
			printf("\">");
		}
		if (p[i].code)
			printf("<code>");
		h(p[i].s);
		if (p[i].code)
			printf("</code>");
		if (p[i].href != NULL)
			printf("</a>");
	}
}

static void
row(const struct span *cells, size_t n)
{
	size_t i;

	printf("<tr>");
	for (i = 0; i < n; i++) {
		printf(i < ncur && cur[i].align == 'L' ?
		    "<td style=\"text-align:left\">" : "<td>");
		spans(&cells[i], 1);
		printf("</td>");
	}
	printf("</tr>\n");
}

static void
table_end(void)
{
	printf("</table></div>\n");
}

static void
list(void)
{
	printf("<ul>\n");
}

static void
item(const struct span *parts, size_t n)
{
	printf("<li>");
	spans(parts, n);
	printf("</li>\n");
}

static void
list_end(void)
{
	printf("</ul>\n");
}

/* pass rates per stage, then the candidates' verdicts */
static void
chart_stages(json_t *s)
{
	json_t *c = json_object_get(s, "candidates"), *r;
	long nc = inum(c, "records");
	const char *labels[16], *texts[16];
	char tbuf[16][64];
	double values[16];
	size_t i, n = 0;
	int k;

	json_array_foreach(json_object_get(s, "stages"), i, r) {
		if (n == 13)
			break;
		labels[n] = k_get_str(r, "stage");
		values[n] = num(r, "rate");
		snprintf(tbuf[n], sizeof(tbuf[n]), "%ld (%.1f%%)",
		    inum(r, "ok"), 100 * values[n]);
		texts[n] = tbuf[n];
		n++;
	}
	if (nc > 0)
		for (k = 0; k < 3; k++) {
			r = json_object_get(c, verdicts[k]);
			labels[n] = verdicts[k];
			values[n] = num(r, "rate");
			snprintf(tbuf[n], sizeof(tbuf[n]), "%ld of %ld "
			    "(%.1f%%)", inum(r, "n"), nc, 100 * values[n]);
			texts[n] = tbuf[n];
			n++;
		}
	svg_hbars("pass rate per stage (stages: of all records; verdicts: "
	    "of candidates)", labels, values, texts, n, 1.0, "#457b9d");
}

static void
chart_failures(json_t *arr)
{
	const char *fl[FAIL_BARS], *ft[FAIL_BARS];
	double fv[FAIL_BARS], max = 1;
	char fb[FAIL_BARS][32];
	size_t i, m = 0;
	json_t *r;

	json_array_foreach(arr, i, r) {
		if (m == FAIL_BARS)
			break;
		fl[m] = k_get_str(r, "class");
		fv[m] = (double)inum(r, "records");
		if (fv[m] > max)
			max = fv[m];
		snprintf(fb[m], sizeof(fb[m]), "%ld", inum(r, "records"));
		ft[m] = fb[m];
		m++;
	}
	svg_hbars("failure classes (records)", fl, fv, ft, m, max, "#e76f51");
}

static void
end(void)
{
	printf("</body>\n</html>\n");
}

const struct backend html_backend = {
	.charts = 1,
	.begin = begin,
	.heading = heading,
	.overview = overview,
	.para = para,
	.table = table,
	.row = row,
	.table_end = table_end,
	.list = list,
	.item = item,
	.list_end = list_end,
	.chart_stages = chart_stages,
	.chart_speedups = svg_hist,
	.chart_failures = chart_failures,
	.end = end,
};
