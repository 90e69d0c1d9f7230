/*
 * kreport's Markdown: blocks (headings, paragraphs, tables, lists)
 * separated by one blank line; names and messages as inline code.
 */
#include <stdio.h>

#include <jansson.h>

#include "kreport.h"

static int blocks;

/* A new block: a blank line after the one before. */
static void
block(void)
{
	if (blocks++ > 0)
		putchar('\n');
}

/* Inline code in a table cell: backticks and pipes would end it. */
static void
code(const char *s)
{
	putchar('`');
	for (; s != NULL && *s != '\0'; s++) {
		if (*s == '`')
			putchar('\'');
		else if (*s == '|')
			fputs("\\|", stdout);
		else if (*s == '\n' || *s == '\r')
			putchar(' ');
		else
			putchar(*s);
	}
	putchar('`');
}

static void
spans(const struct span *p, size_t n, const char *sep)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			fputs(sep, stdout);
		if (p[i].code)
			code(p[i].s);
		else
			fputs(p[i].s != NULL ? p[i].s : "", stdout);
	}
}

static void
begin(void)
{
	blocks = 0;
}

static void
heading(int level, const char *text)
{
	block();
	printf("%.*s %s\n", level, "######", text);
}

static void
overview(json_t *s)
{
	json_t *c = json_object_get(s, "candidates");
	char banner[512];

	if (never_ran(s, banner, sizeof(banner)) != NULL) {
		block();
		printf("> **%s**\n", banner);
	}
	block();
	printf("%ld record%s (%ld bad input line%s), %ld candidate%s for "
	    "%ld task%s.\n", inum(s, "records"), plural(inum(s, "records")),
	    inum(s, "bad_lines"), plural(inum(s, "bad_lines")),
	    inum(c, "records"), plural(inum(c, "records")),
	    inum(c, "tasks"), plural(inum(c, "tasks")));
}

static void
para(const char *text)
{
	block();
	printf("%s\n", text);
}

static void
table(const struct col *cols, size_t n)
{
	size_t i;

	block();
	for (i = 0; i < n; i++)
		printf("| %s ", cols[i].name);
	printf("|\n");
	for (i = 0; i < n; i++)
		printf("|%s", cols[i].align == 'r' ? "--:" : "---");
	printf("|\n");
}

static void
row(const struct span *cells, size_t n)
{
	fputs("| ", stdout);
	spans(cells, n, " | ");
	fputs(" |\n", stdout);
}

static void
nothing(void)
{
}

static void
item(const struct span *parts, size_t n)
{
	fputs("- ", stdout);
	spans(parts, n, "");
	putchar('\n');
}

const struct backend md_backend = {
	.charts = 0,
	.begin = begin,
	.heading = heading,
	.overview = overview,
	.para = para,
	.table = table,
	.row = row,
	.table_end = nothing,
	.list = block,
	.item = item,
	.list_end = nothing,
	.end = nothing,
};
