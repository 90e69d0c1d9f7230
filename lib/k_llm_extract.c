#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k_llm.h"
#include "k_mem.h"

/* A fenced block of a Markdown answer: body [b, e) and info string. */
struct fence {
	const char *b, *e;
	char info[32];
};

static int
is_fence(const char *p)
{
	int sp = 0;

	while (*p == ' ' && sp < 3) {
		p++;
		sp++;
	}
	return strncmp(p, "```", 3) == 0 || strncmp(p, "~~~", 3) == 0;
}

/* Up to max fences of text; an unterminated one runs to the end, as in a
 * truncated answer. */
static int
fences(const char *text, struct fence *f, int max)
{
	const char *p = text, *nl;
	int n = 0;

	while (*p != '\0' && n < max) {
		nl = strchr(p, '\n');
		if (is_fence(p)) {
			const char *i = p + strspn(p, " ") + 3;
			size_t k = 0;
			i += strspn(i, "`~ ");
			while (i[k] != '\0' && i[k] != '\n' && i[k] != ' ' &&
			    k + 1 < sizeof(f[n].info)) {
				f[n].info[k] = i[k];
				k++;
			}
			f[n].info[k] = '\0';
			f[n].b = nl != NULL ? nl + 1 : p + strlen(p);
			p = f[n].b;
			for (;;) {
				nl = strchr(p, '\n');
				if (*p == '\0' || is_fence(p)) {
					f[n].e = p;
					break;
				}
				p = nl != NULL ? nl + 1 : p + strlen(p);
			}
			n++;
			nl = strchr(p, '\n');
		}
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	return n;
}

json_t *
k_llm_extract_json(const char *text, char *err, size_t errcap)
{
	struct fence f[16];
	json_error_t je;
	json_t *j;
	size_t len = strlen(text), i, tries = 0;
	int n, k;

	snprintf(err, errcap, "no JSON object in the answer");
	j = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (json_is_object(j))
		return j;
	json_decref(j);
	n = fences(text, f, 16);
	for (k = 0; k < n; k++) {
		j = json_loadb(f[k].b, (size_t)(f[k].e - f[k].b),
		    JSON_REJECT_DUPLICATES, &je);
		if (json_is_object(j))
			return j;
		if (j == NULL && k == 0)
			snprintf(err, errcap, "invalid JSON in fenced block: "
			    "%s (line %d, column %d)", je.text, je.line,
			    je.column);
		json_decref(j);
	}
	/* prose around an object: the first '{' that starts one that parses */
	for (i = 0; i < len && tries < 256; i++) {
		if (text[i] != '{')
			continue;
		tries++;
		j = json_loadb(text + i, len - i, JSON_REJECT_DUPLICATES |
		    JSON_DISABLE_EOF_CHECK, &je);
		if (json_is_object(j))
			return j;
		if (j == NULL && tries == 1 && n == 0)
			snprintf(err, errcap, "invalid JSON: %s (line %d, "
			    "column %d)", je.text, je.line, je.column);
		json_decref(j);
	}
	return NULL;
}

char *
k_llm_extract_code(const char *text, const char *want)
{
	struct fence f[32];
	int n, k, best = -1;
	size_t bl = 0;

	n = fences(text, f, 32);
	for (k = 0; k < n; k++) {
		size_t l = (size_t)(f[k].e - f[k].b);
		if (want != NULL && memmem(f[k].b, l, want, strlen(want)) ==
		    NULL)
			continue;
		if (best < 0 || l > bl) {
			best = k;
			bl = l;
		}
	}
	if (best >= 0)
		return k_strndup(f[best].b, bl);
	if (n == 0 && (want == NULL || strstr(text, want) != NULL))
		return k_strdup(text);
	return NULL;
}

char *
k_llm_extract_prose(const char *text, size_t max)
{
	struct fence f[32];
	char *out;
	size_t o = 0, len = strlen(text);
	const char *p = text;
	int n, k;

	if ((out = malloc(len + 1)) == NULL)
		return NULL;
	n = fences(text, f, 32);
	for (k = 0; k <= n; k++) {
		/* from p to the fence line that opens block k */
		const char *end = k < n ? f[k].b : text + len;
		if (k < n) {
			while (end > p && end[-1] == '\n')
				end--;
			while (end > p && end[-1] != '\n')
				end--;
		}
		if (end > p) {
			memcpy(out + o, p, (size_t)(end - p));
			o += (size_t)(end - p);
		}
		if (k < n) {
			p = f[k].e;
			p += strcspn(p, "\n");
			if (*p == '\n')
				p++;
		}
	}
	out[o] = '\0';
	while (o > 0 && strchr(" \t\r\n", out[o - 1]) != NULL)
		out[--o] = '\0';
	k = (int)strspn(out, " \t\r\n");
	memmove(out, out + k, o - (size_t)k + 1);
	if (strlen(out) > max) {
		/* cut at a UTF-8 character boundary */
		size_t m = max;
		while (m > 0 && ((unsigned char)out[m] & 0xC0) == 0x80)
			m--;
		out[m] = '\0';
	}
	return out;
}
