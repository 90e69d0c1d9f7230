/*
 * Project build flags for slices: see k_flags.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "k_flags.h"
#include "k_fs.h"

#define RSP_MAX (1 << 20)	/* bytes of one response file */
#define RSP_DEPTH 4		/* response files naming response files */

/* Flags with a value kept as one token: the prefix, and what it becomes. */
static const struct {
	const char *flag;	/* as spelled, value separate or attached */
	const char *as;		/* the single-token spelling */
} valued[] = {
	{ "-D", "-D" }, { "--define-macro", "-D" },
	{ "-U", "-U" }, { "--undefine-macro", "-U" },
	{ NULL, NULL }
};

/* Exact flags kept as they are. */
static const char *const plain[] = {
	"--expt-relaxed-constexpr", "-expt-relaxed-constexpr",
	"--expt-extended-lambda", "-expt-extended-lambda",
	"--extended-lambda", "-extended-lambda",
	"--use_fast_math", "-use_fast_math",
	NULL
};

/* name=value flags kept, value checked against a small vocabulary. */
static const char *const settings[] = {
	"-std=", "--std=", "-ftz=", "--ftz=", "-prec-div=", "--prec-div=",
	"-prec-sqrt=", "--prec-sqrt=", "-fmad=", "--fmad=", NULL
};

/* Flags whose value is the next argument when not attached, dropped with
 * it: outputs, targets, host compiler, include paths, dependencies. */
static const char *const skip_value[] = {
	"-o", "--output-file", "-x", "--x", "-arch", "--gpu-architecture",
	"-code", "--gpu-code", "-gencode", "--generate-code", "-ccbin",
	"--compiler-bindir", "-Xcompiler", "--compiler-options", "-Xptxas",
	"--ptxas-options", "-Xlinker", "--linker-options", "-Xnvlink",
	"--nvlink-options", "-I", "--include-path", "-isystem",
	"--system-include", "-include", "--pre-include", "-L",
	"--library-path", "-l", "--library", "-MF", "--dependency-output",
	"-MT", "--dependency-target-name", "-odir", "--output-directory",
	"-maxrregcount", "--maxrregcount", "-t", "--threads", "-Werror",
	"--Werror", "-diag-suppress", "--diag-suppress", "-Xcudafe",
	"--cudafe-options", NULL
};

static int
in_list(const char *const *list, const char *s)
{
	for (; *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}

/* A std or mode value: letters, digits, '+' only (c++17, true, 0). */
static int
plain_value(const char *v)
{
	return *v != '\0' && strspn(v, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+") == strlen(v);
}

/* A macro definition: NAME or NAME=VALUE, NAME an identifier, VALUE
 * without control characters. */
static int
macro_ok(const char *m)
{
	size_t n = strspn(m, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRST"
	    "UVWXYZ0123456789_");
	const char *p;

	if (n == 0 || (*m >= '0' && *m <= '9'))
		return 0;
	if (m[n] == '\0')
		return 1;
	if (m[n] != '=')
		return 0;
	for (p = m + n + 1; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

int
k_nvcc_flag_ok(const char *f)
{
	size_t i;

	if (f == NULL)
		return 0;
	if (in_list(plain, f))
		return 1;
	if ((strncmp(f, "-D", 2) == 0 || strncmp(f, "-U", 2) == 0))
		return macro_ok(f + 2) && (f[1] == 'D' ||
		    strchr(f, '=') == NULL);
	for (i = 0; settings[i] != NULL; i++) {
		size_t l = strlen(settings[i]);
		if (strncmp(f, settings[i], l) == 0)
			return plain_value(f + l);
	}
	return 0;
}

/* Push one kept token, normalized to a single-dash spelling where nvcc
 * has one, once. */
static void
keep(json_t *out, const char *tok)
{
	json_t *v;
	size_t i;
	char buf[64];

	if (strncmp(tok, "--std=", 6) == 0 || strncmp(tok, "--ftz=", 6) == 0 ||
	    strncmp(tok, "--fmad=", 7) == 0 ||
	    strncmp(tok, "--prec-", 7) == 0) {
		snprintf(buf, sizeof(buf), "%s", tok + 1);
		if (strlen(tok + 1) < sizeof(buf))
			tok = buf;
	}
	json_array_foreach(out, i, v)
		if (strcmp(json_string_value(v), tok) == 0)
			return;
	json_array_append_new(out, json_string(tok));
}

/* Split a response file into words: blanks separate, quotes group,
 * backslash escapes.  Returns a malloc'd vector of malloc'd strings. */
static char **
split_words(const char *text, int *n)
{
	char **v = NULL, *w;
	size_t len = strlen(text), wl;
	int cap = 0;
	const char *p = text;

	*n = 0;
	if ((w = malloc(len + 1)) == NULL)
		return NULL;
	for (;;) {
		char q = 0;
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (*p == '\0')
			break;
		wl = 0;
		while (*p != '\0' && (q != 0 || (*p != ' ' && *p != '\t' &&
		    *p != '\n' && *p != '\r'))) {
			if (q == 0 && (*p == '"' || *p == '\'')) {
				q = *p++;
				continue;
			}
			if (q != 0 && *p == q) {
				q = 0;
				p++;
				continue;
			}
			if (*p == '\\' && p[1] != '\0' && q != '\'')
				p++;
			w[wl++] = *p++;
		}
		w[wl] = '\0';
		if (*n == cap) {
			char **nv;
			cap = cap ? cap * 2 : 16;
			if ((nv = realloc(v, (size_t)cap * sizeof(*v))) == NULL)
				break;
			v = nv;
		}
		if ((v[*n] = strdup(w)) == NULL)
			break;
		(*n)++;
	}
	free(w);
	return v;
}

/* Append argv's words to the vector, response files expanded. */
static void
expand(char ***v, int *n, int *cap, int argc, const char *const *argv,
    const char *dir, int depth)
{
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--options-file") == 0 || strcmp(a, "-optf") == 0 ||
		    strncmp(a, "--options-file=", 15) == 0) {
			const char *f = strchr(a, '=') != NULL ?
			    strchr(a, '=') + 1 : i + 1 < argc ? argv[++i] :
			    NULL;
			char path[4096], *text, **w;
			int wn;
			if (f == NULL || depth >= RSP_DEPTH)
				continue;
			if (f[0] == '/' || dir == NULL)
				snprintf(path, sizeof(path), "%s", f);
			else
				snprintf(path, sizeof(path), "%s/%s", dir, f);
			if ((text = k_file_read(path, RSP_MAX, NULL)) == NULL)
				continue;
			w = split_words(text, &wn);
			free(text);
			expand(v, n, cap, wn, (const char *const *)w, dir,
			    depth + 1);
			k_words_free(w, wn);
			continue;
		}
		if (*n == *cap) {
			char **nv;
			*cap = *cap ? *cap * 2 : 32;
			if ((nv = realloc(*v, (size_t)*cap * sizeof(**v))) ==
			    NULL)
				return;
			*v = nv;
		}
		if (((*v)[*n] = strdup(a)) != NULL)
			(*n)++;
	}
}

char **
k_expand_options_files(int argc, const char *const *argv, const char *dir,
    int *n)
{
	char **v = NULL;
	int cap = 0;

	*n = 0;
	expand(&v, n, &cap, argc, argv, dir, 0);
	return v;
}

void
k_words_free(char **w, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

static void
walk(json_t *out, int argc, const char *const *argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		size_t j;
		int done = 0;

		for (j = 0; valued[j].flag != NULL; j++) {
			const char *fl = valued[j].flag, *val = NULL;
			size_t l = strlen(fl);
			char tok[4096];
			if (strcmp(a, fl) == 0)
				val = i + 1 < argc ? argv[++i] : NULL;
			else if (strncmp(a, fl, l) == 0 && a[l] == '=' &&
			    fl[1] == '-')
				val = a + l + 1;
			else if (strncmp(a, fl, l) == 0 && fl[1] != '-' &&
			    a[l] != '\0')
				val = a + l;
			else
				continue;
			done = 1;
			if (val == NULL)
				break;
			snprintf(tok, sizeof(tok), "%s%s", valued[j].as, val);
			if (k_nvcc_flag_ok(tok))
				keep(out, tok);
			break;
		}
		if (done)
			continue;
		if (strcmp(a, "-std") == 0 || strcmp(a, "--std") == 0) {
			char tok[128];
			if (i + 1 < argc) {
				snprintf(tok, sizeof(tok), "-std=%s", argv[++i]);
				if (k_nvcc_flag_ok(tok))
					keep(out, tok);
			}
			continue;
		}
		if (in_list(skip_value, a)) {
			i++;
			continue;
		}
		if (k_nvcc_flag_ok(a))
			keep(out, a);
	}
}

json_t *
k_nvcc_flags(int argc, const char *const *argv, const char *dir)
{
	json_t *out = json_array();
	char **v;
	int n;

	if (argc > 1) {
		v = k_expand_options_files(argc - 1, argv + 1, dir, &n);
		walk(out, n, (const char *const *)v);
		k_words_free(v, n);
	}
	return out;
}
json_t *
k_torch_flags(void)
{
	/* torch/utils/cpp_extension.py: COMMON_NVCC_FLAGS, and the C++
	 * standard its builds ask for */
	static const char *const f[] = {
		"-D__CUDA_NO_HALF_OPERATORS__",
		"-D__CUDA_NO_HALF_CONVERSIONS__",
		"-D__CUDA_NO_BFLOAT16_CONVERSIONS__",
		"-D__CUDA_NO_HALF2_OPERATORS__",
		"--expt-relaxed-constexpr",
		"-std=c++17",
		NULL
	};
	json_t *out = json_array();
	int i;

	for (i = 0; f[i] != NULL; i++)
		json_array_append_new(out, json_string(f[i]));
	return out;
}
