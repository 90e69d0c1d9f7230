/*
 * Parsing CUDA and HIP with libclang, shared by kscan and kslice.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <clang-c/Index.h>
#include <jansson.h>

#include "k_buf.h"
#include "k_exit.h"
#include "k_fs.h"
#include "k_hash.h"
#include "k_mem.h"
#include "k_msg.h"
#include "k_num.h"
#include "k_parse.h"
#include "k_record.h"

extern const char k_prelude_text[];
extern const char k_prelude_torch_text[];

static char prelude_dir[PATH_MAX];
static pid_t prelude_owner;	/* a forked worker leaves it alone */
static char prelude_file[PATH_MAX + 32];

void
k_strv_push(struct k_strv *s, const char *str)
{
	if (s->n + 1 >= s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->v = k_reallocarray(s->v, s->cap, sizeof(*s->v));
	}
	s->v[s->n++] = k_strdup(str);
	s->v[s->n] = NULL;
}

void
k_strv_free(struct k_strv *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

int
k_strv_has(const struct k_strv *s, const char *str)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i], str) == 0)
			return 1;
	return 0;
}

/* The one place CXStrings are freed, with k_take_json. */
char *
k_take(CXString s)
{
	const char *c = clang_getCString(s);
	char *r = k_strdup(c != NULL ? c : "");

	clang_disposeString(s);
	return r;
}

const char *
k_clang_version(void)
{
	static char buf[256];
	char *ver = k_take(clang_getClangVersion());

	snprintf(buf, sizeof(buf), "%s", ver);
	free(ver);
	return buf;
}

json_t *
k_take_json(CXString s)
{
	const char *c = clang_getCString(s);
	json_t *j = k_string_lossy(c != NULL ? c : "", c != NULL ? strlen(c) : 0);

	clang_disposeString(s);
	return j;
}

const char *
k_cx_error_text(enum CXErrorCode e)
{
	switch (e) {
	case CXError_Success:
		return "success";
	case CXError_Failure:
		return "libclang could not create a translation unit";
	case CXError_Crashed:
		return "libclang crashed";
	case CXError_InvalidArguments:
		return "invalid arguments";
	case CXError_ASTReadError:
		return "AST read error";
	}
	return "unknown libclang error";
}

/* Whether a note of d starts with pre and holds mid. */
static int
has_note(CXDiagnostic d, const char *pre, const char *mid)
{
	CXDiagnosticSet notes = clang_getChildDiagnostics(d);
	unsigned i, n = notes != NULL ? clang_getNumDiagnosticsInSet(notes) : 0;
	int hit = 0;

	for (i = 0; i < n && !hit; i++) {
		CXDiagnostic c = clang_getDiagnosticInSet(notes, i);
		char *cm = k_take(clang_getDiagnosticSpelling(c));
		hit = strncmp(cm, pre, strlen(pre)) == 0 &&
		    strstr(cm + strlen(pre), mid) != NULL;
		free(cm);
		clang_disposeDiagnostic(c);
	}
	return hit;
}

/*
 * Where clang 19's CUDA is stricter than nvcc, on code that nvcc compiles:
 * a __shared__ variable whose type's constructor or destructor is not
 * empty (libcu++'s barrier and pipeline state: clang's Sema makes it an
 * error; nvcc warns, static_var_with_dynamic_init, and the code base
 * usually suppresses that); a kernel template launching a kernel
 * (dynamic parallelism, nvcc -rdc), which clang's overload resolution
 * refuses as a call of a __global__ function from a __global__ function
 * (some candidate is refused for that reason: clang tests it after the
 * number of arguments and before their types; other candidates, such as a
 * stale declaration with fewer parameters, are refused by nvcc too); a
 * member template of a dependent class called without the `template`
 * keyword (A<T>::f<N>(...)), which nvcc's front end takes as the
 * template it names and clang, after this error, does too; a constexpr
 * variable initialized from a static member named through a reference
 * (constexpr float k = 1.f / ref.SCALE): before C++23's P2280 clang
 * refuses the reference as not a constant expression, nvcc reads the
 * static member; a function declared __host__ __device__ and defined with
 * no execution space (glm's members), which nvcc reads as the declared
 * one and clang as a host overload of it.
 * Matched by clang's wording: libclang gives no diagnostic IDs.
 */
int
k_nvcc_accepts(CXDiagnostic d)
{
	static const char rdc[] =
	    "call to __global__ function from __global__ function";
	char *m;
	int r = 0;

	if (clang_getDiagnosticSeverity(d) < CXDiagnostic_Error)
		return 0;
	m = k_take(clang_getDiagnosticSpelling(d));
	if (strcmp(m, "initialization is not supported for __shared__ "
	    "variables") == 0)
		r = 1;
	else if (strncmp(m, "missing 'template' keyword prior to dependent "
	    "template name ", 60) == 0)
		r = 1;
	else if (strncmp(m, "__host__ function '", 19) == 0 &&
	    strstr(m, "' cannot overload __host__ __device__ function '") !=
	    NULL)
		r = 1;
	else if (strncmp(m, "constexpr variable '", 20) == 0 &&
	    strstr(m, "' must be initialized by a constant expression") !=
	    NULL)
		r = has_note(d, "initializer of '", "' is not a constant "
		    "expression");
	else if (strncmp(m, "no matching function for call to ", 33) == 0)
		r = has_note(d, "candidate", rdc);
	free(m);
	return r;
}

int
k_write_file(const char *path, const char *text)
{
	char dir[PATH_MAX], *slash;

	/* make every missing parent directory */
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + 1, '/'); slash != NULL;
	    slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0700);
		*slash = '/';
	}
	return k_file_write(path, text, strlen(text));
}

/* ------------------------------------------------------------ prelude */

/* PyTorch headers answered by the torch stand-in when nothing else on the
 * include path has them */
static const char *torch_stubs[] = {
	"ATen/ATen.h", "ATen/Tensor.h", "ATen/core/TensorAccessor.h",
	"ATen/cuda/CUDAContext.h",
	"ATen/cuda/CUDAApplyUtils.cuh", "ATen/cuda/Atomic.cuh",
	"ATen/cuda/CUDAEvent.h", "ATen/AccumulateType.h", "ATen/OpMathType.h",
	"ATen/cuda/detail/IndexUtils.cuh", "ATen/native/cuda/KernelUtils.cuh",
	"ATen/cuda/detail/KernelUtils.h", "ATen/Dispatch.h",
	"ATen/cuda/CUDAGeneratorImpl.h", "ATen/cuda/CUDAGraphsUtils.cuh",
	"ATen/cuda/PhiloxUtils.cuh",
	"c10/cuda/CUDAGuard.h", "c10/cuda/CUDAStream.h", "c10/macros/Macros.h",
	"c10/util/Half.h", "c10/util/BFloat16.h", "THC/THC.h",
	"THC/THCAtomics.cuh", "THC/THCDeviceUtils.cuh", "torch/extension.h",
	"torch/types.h", "torch/script.h", "torch/torch.h",
	"torch/serialize/tensor.h", NULL
};

int
k_torch_stub(const char *name)
{
	int i;

	for (i = 0; torch_stubs[i] != NULL; i++)
		if (strcmp(name, torch_stubs[i]) == 0)
			return 1;
	return 0;
}

static void
remove_prelude(void)
{
	char cmd[PATH_MAX + 16];

	if (prelude_dir[0] == '\0' || getpid() != prelude_owner)
		return;
	/* a fixed, known-shaped path made by mkdtemp below */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", prelude_dir);
	if (system(cmd) != 0)
		k_warn(K_EXIT_OK, prelude_dir, "could not remove");
}

/* Write the prelude's files under dir; 0, or -1 with errno set. */
static int
put_prelude(const char *dir)
{
	char path[PATH_MAX + 64];
	int i;

	snprintf(path, sizeof(path), "%s/kforge_prelude.h", dir);
	if (k_write_file(path, k_prelude_text) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s/torch/kforge_torch.h", dir);
	if (k_write_file(path, k_prelude_torch_text) != 0)
		return -1;
	for (i = 0; torch_stubs[i] != NULL; i++) {
		snprintf(path, sizeof(path), "%s/torch/%s", dir,
		    torch_stubs[i]);
		if (k_write_file(path,
		    "#pragma once\n#include <kforge_torch.h>\n") != 0)
			return -1;
	}
	return 0;
}

void
k_make_prelude(const char *prog)
{
	const char *tmp = getenv("TMPDIR");
	char path[PATH_MAX + 64];

	snprintf(prelude_dir, sizeof(prelude_dir), "%s/%s.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp", prog);
	if (mkdtemp(prelude_dir) == NULL) {
		int err = errno;

		snprintf(path, sizeof(path), "%s", prelude_dir);
		prelude_dir[0] = '\0';
		k_fatal(K_EXIT_SYSTEM, path, "cannot create directory: %s",
		    strerror(err));
	}
	prelude_owner = getpid();
	atexit(remove_prelude);
	snprintf(prelude_file, sizeof(prelude_file), "%s/kforge_prelude.h",
	    prelude_dir);
	if (put_prelude(prelude_dir) != 0)
		k_fatal(K_EXIT_SYSTEM, prelude_dir, "cannot write: %s",
		    strerror(errno));
}

int
k_prelude_keep(const char *dir)
{
	struct k_buf b = { 0 };
	char sha[K_SHA256_HEX], target[PATH_MAX], tmp[PATH_MAX + 32];
	int i;

	if (dir == NULL || prelude_dir[0] == '\0')
		return -1;
	if (prelude_owner == 0)
		return 0;	/* kept already */
	/* named after what it holds: a new build with another prelude
	 * gets a directory of its own */
	k_buf_add(&b, k_prelude_text);
	k_buf_addn(&b, "", 1);
	k_buf_add(&b, k_prelude_torch_text);
	for (i = 0; torch_stubs[i] != NULL; i++) {
		k_buf_addn(&b, "", 1);
		k_buf_add(&b, torch_stubs[i]);
	}
	if (k_buf_full(&b)) {
		k_buf_free(&b);
		return -1;
	}
	k_sha256_hex(k_buf_str(&b), b.n, sha);
	k_buf_free(&b);
	snprintf(target, sizeof(target), "%s/prelude-%.32s", dir, sha);
	if (access(target, F_OK) != 0) {
		/* made whole beside it, then renamed: a directory of that
		 * name is complete */
		snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", target,
		    (long)getpid());
		k_remove_tree(tmp);
		if (put_prelude(tmp) != 0 || (rename(tmp, target) != 0 &&
		    access(target, F_OK) != 0)) {
			k_remove_tree(tmp);
			return -1;
		}
		k_remove_tree(tmp);	/* another process was first */
	}
	remove_prelude();
	prelude_owner = 0;
	snprintf(prelude_dir, sizeof(prelude_dir), "%s", target);
	snprintf(prelude_file, sizeof(prelude_file), "%s/kforge_prelude.h",
	    prelude_dir);
	return 0;
}

int
k_prelude_kept(void)
{
	return prelude_dir[0] != '\0' && prelude_owner == 0;
}

const char *
k_prelude_dir(void)
{
	return prelude_dir;
}

/* ------------------------------------------------------------ toolkit */

static char cuda_path[PATH_MAX];

/* dir holds a CUDA toolkit's headers: include/cuda_runtime.h and bin/,
 * which clang needs to take a directory for a toolkit */
static int
is_toolkit(const char *dir)
{
	char path[PATH_MAX + 32];
	struct stat st;

	snprintf(path, sizeof(path), "%s/include/cuda_runtime.h", dir);
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	snprintf(path, sizeof(path), "%s/bin", dir);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
take_toolkit(const char *dir)
{
	char real[PATH_MAX];

	if (realpath(dir, real) == NULL || !is_toolkit(real))
		return 0;
	snprintf(cuda_path, sizeof(cuda_path), "%s", real);
	return 1;
}

const char *
k_find_cuda(const char *arg)
{
	const char *env = getenv(K_CUDA_PATH_ENV);
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (arg != NULL) {
		if (!take_toolkit(arg))
			k_fatal(K_EXIT_USAGE, NULL, "--cuda-path: %s: not a "
			    "CUDA toolkit (no include/cuda_runtime.h and bin/)",
			    arg);
		return cuda_path;
	}
	if (env != NULL && *env != '\0') {
		if (!take_toolkit(env))
			k_fatal(K_EXIT_USAGE, NULL, "%s: %s: not a CUDA "
			    "toolkit (no include/cuda_runtime.h and bin/)",
			    K_CUDA_PATH_ENV, env);
		return cuda_path;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 32);
	if (n > 0) {
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			strcpy(slash + 1, "deps/" K_CUDA_TREE);
			if (take_toolkit(exe))
				return cuda_path;
			strcpy(slash + 1, "../share/kforge/" K_CUDA_TREE);
			if (take_toolkit(exe))
				return cuda_path;
		}
	}
	k_fatal(K_EXIT_SYSTEM, NULL, "no CUDA headers to parse with: run "
	    "\"make deps\", or name a CUDA 12.x toolkit with --cuda-path or "
	    "%s", K_CUDA_PATH_ENV);
	return NULL;
}

/* ---------------------------------------------- nvcc's specifier order */

static int
is_ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/* the specifiers nvcc lets stand before alignas; the first four are
 * CUDA's memory spaces */
static const char *before_alignas[] = { "__shared__", "__device__",
    "__constant__", "__managed__", "static", "extern", "const", "volatile",
    "inline", "constexpr", "thread_local", NULL };

/* which of before_alignas the word text[from, to) is; -1: none */
static int
specifier(const char *text, size_t from, size_t to)
{
	int i;

	for (i = 0; before_alignas[i] != NULL; i++)
		if (strlen(before_alignas[i]) == to - from &&
		    memcmp(text + from, before_alignas[i], to - from) == 0)
			return i;
	return -1;
}

char *
k_alignas_first(const char *text, size_t len)
{
	char *out = NULL;
	size_t a, e, s, w, p;
	int depth, space;

	for (a = 0; a + 7 <= len; a++) {
		if (memcmp(text + a, "alignas", 7) != 0 || (a > 0 &&
		    is_ident(text[a - 1])) || (a + 7 < len &&
		    is_ident(text[a + 7])))
			continue;
		/* alignas ( ... ), balanced */
		for (e = a + 7; e < len && (text[e] == ' ' || text[e] == '\t');
		    e++)
			;
		if (e >= len || text[e] != '(')
			continue;
		for (depth = 0; e < len; e++) {
			if (text[e] == '(')
				depth++;
			else if (text[e] == ')' && --depth == 0)
				break;
		}
		if (e >= len)
			break;
		e++;
		/* the specifiers before it, back to the first */
		s = a;
		space = 0;
		for (p = a; p > 0;) {
			size_t q = p;
			while (q > 0 && (text[q - 1] == ' ' ||
			    text[q - 1] == '\t' || text[q - 1] == '\n' ||
			    text[q - 1] == '\r'))
				q--;
			if (q == p)
				break;
			for (w = q; w > 0 && is_ident(text[w - 1]); w--)
				;
			if (w == q || specifier(text, w, q) < 0)
				break;
			if (specifier(text, w, q) < 4)
				space = 1;
			s = p = w;
		}
		if (!space || s == a)
			continue;
		/* text[s, a) is "__shared__ " and the like, ending in white
		 * space: alignas(...) moves before it, the same length, the
		 * same lines */
		if (out == NULL) {
			out = k_malloc(len + 1);
			memcpy(out, text, len);
			out[len] = '\0';
		}
		{
			size_t pl = a - s, al = e - a;
			char *tmp = k_malloc(pl + al);
			memcpy(tmp, text + a, al);
			tmp[al] = text[a - 1];
			memcpy(tmp + al + 1, text + s, pl - 1);
			memcpy(out + s, tmp, pl + al);
			free(tmp);
		}
		a = e - 1;
	}
	return out;
}

/* ---------------------------------------------------- unsaved files */

/* the longest unit k_parse reads to put alignas in clang's order */
#define K_PARSE_MAX_TEXT (64UL << 20)

static const struct k_strv *unsaved_paths, *unsaved_texts;

void
k_parse_unsaved(const struct k_strv *paths, const struct k_strv *texts)
{
	unsaved_paths = paths;
	unsaved_texts = texts;
}

/* ------------------------------------------------------------ parsing */

static int
sets_std(const struct k_strv *f)
{
	size_t i;

	for (i = 0; f != NULL && i < f->n; i++)
		if (strncmp(f->v[i], "-std=", 5) == 0)
			return 1;
	return 0;
}

void
k_build_args(struct k_strv *a, const struct k_parse_conf *c,
    const struct k_strv *first, const struct k_strv *second)
{
	int hip = strcmp(c->dialect, "hip") == 0;
	char path[PATH_MAX + 32];
	size_t i;

#ifdef K_CLANG_RESOURCE_DIR
	/* without it libclang's driver looks for its resource directory
	 * next to a program path it does not have, and misses clang's
	 * CUDA and HIP wrapper headers (device-side <new>, <cmath>,
	 * <complex>, <algorithm>) */
	if (access(K_CLANG_RESOURCE_DIR, F_OK) == 0) {
		k_strv_push(a, "-resource-dir");
		k_strv_push(a, K_CLANG_RESOURCE_DIR);
	}
#endif
	k_strv_push(a, "-x");
	k_strv_push(a, hip ? "hip" : "cuda");
	if (!sets_std(first) && !sets_std(second))
		k_strv_push(a, "-std=c++17");
	if (hip)
		/* the HIP headers on the system include path (Debian's
		 * hipcc: /usr/include/hip); no device library is read */
		k_strv_push(a, "-nogpulib");
	else {
		snprintf(path, sizeof(path), "--cuda-path=%s",
		    c->cuda_path != NULL ? c->cuda_path : cuda_path);
		k_strv_push(a, path);
		k_strv_push(a, "-nocudalib");
	}
	if (prelude_dir[0] != '\0') {
		k_strv_push(a, "-include");
		k_strv_push(a, prelude_file);
	}
	if (c->device) {
		k_strv_push(a, "--cuda-device-only");
		k_strv_push(a, hip ? "--offload-arch=gfx90a" :
		    "--cuda-gpu-arch=sm_90");
	} else
		k_strv_push(a, "--cuda-host-only");
	/* searched last: a real PyTorch on the include path wins */
	if (prelude_dir[0] != '\0' && c->torch) {
		snprintf(path, sizeof(path), "%s/torch", prelude_dir);
		k_strv_push(a, "-idirafter");
		k_strv_push(a, path);
	}
	k_strv_push(a, "-Wno-unknown-cuda-version");
	if (!c->warnings)
		k_strv_push(a, "-w");
	k_strv_push(a, "-ferror-limit=0");
	for (i = 0; first != NULL && i < first->n; i++)
		k_strv_push(a, first->v[i]);
	for (i = 0; second != NULL && i < second->n; i++)
		k_strv_push(a, second->v[i]);
}

int
k_parse(CXIndex idx, const char *path, const char *text, size_t len,
    const struct k_strv *args, CXTranslationUnit *tu)
{
	struct CXUnsavedFile *uf;
	size_t i, n = 0, extra = unsaved_paths != NULL ? unsaved_paths->n : 0;
	char *own = NULL, *moved = NULL;
	int e;

	/* the unit itself in clang's order, whoever parses it */
	if (unsaved_paths == NULL || !k_strv_has(unsaved_paths, path)) {
		if (text == NULL && (own = k_file_read(path, K_PARSE_MAX_TEXT,
		    &len)) != NULL && (moved = k_alignas_first(own, len)) != NULL)
			text = moved;
		else if (text != NULL && (moved = k_alignas_first(text,
		    len)) != NULL)
			text = moved;
	}
	uf = k_calloc(extra + 1, sizeof(*uf));
	if (text != NULL) {
		uf[n].Filename = path;
		uf[n].Contents = text;
		uf[n++].Length = len;
	}
	for (i = 0; i < extra; i++) {
		if (text != NULL && strcmp(unsaved_paths->v[i], path) == 0)
			continue;	/* the caller's text wins */
		uf[n].Filename = unsaved_paths->v[i];
		uf[n].Contents = unsaved_texts->v[i];
		uf[n++].Length = strlen(unsaved_texts->v[i]);
	}
	e = (int)clang_parseTranslationUnit2(idx, path,
	    (const char *const *)args->v, (int)args->n, n > 0 ? uf : NULL,
	    (unsigned)n, CXTranslationUnit_DetailedPreprocessingRecord |
	    CXTranslationUnit_KeepGoing, tu);
	free(uf);
	free(moved);
	free(own);
	return e;
}

double
k_seconds_arg(const char *flag, const char *s)
{
	double v;

	if (k_num_double(s, 0, 86400, &v) != 0)
		k_fatal(K_EXIT_USAGE, NULL,
		    "%s: not a number of seconds from 0 to 86400: %s", flag, s);
	return v;
}

long
k_mib_arg(const char *flag, const char *s)
{
	long long v;

	if (k_num_ll(s, 10, 0, 1LL << 30, &v) != 0)
		k_fatal(K_EXIT_USAGE, NULL,
		    "%s: not a number of MiB from 0 to 1073741824: %s", flag, s);
	return (long)v;
}
