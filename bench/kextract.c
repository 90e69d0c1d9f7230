/*
 * kextract: the baseline of bench/kscan-throughput.sh, a plain
 * one-file-at-a-time libclang extractor.  Each file is parsed once, host
 * side, with the parser arguments kscan gives it (lib/k_parse's
 * k_build_args: the prelude or the toolkit, the torch stand-in, then the
 * -I and -D options given here), and every __global__ FunctionDecl or
 * FunctionTemplate outside system headers is printed as
 *
 *	name<TAB>file:line:col-line:col
 *
 * usage: kextract [-D macro] [-I dir] file ...
 *
 * The toolkit is the one kscan finds (k_find_cuda: $KFORGE_CUDA_PATH, else
 * deps/cuda-12.4 next to the program's directory).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <clang-c/Index.h>

#include "k_exit.h"
#include "k_msg.h"
#include "k_parse.h"

static enum CXChildVisitResult
is_global(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CUDAGlobalAttr) {
		*(int *)data = 1;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult
visit(CXCursor c, CXCursor parent, CXClientData data)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	int global = 0;

	(void)parent;
	(void)data;
	if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	if (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate) {
		clang_visitChildren(c, is_global, &global);
		if (global && clang_isCursorDefinition(c)) {
			CXSourceRange r = clang_getCursorExtent(c);
			CXFile f;
			unsigned l1, c1, l2, c2;
			char *name = k_take(clang_getCursorSpelling(c));
			char *file;
			clang_getExpansionLocation(clang_getRangeStart(r), &f,
			    &l1, &c1, NULL);
			file = f != NULL ? k_take(clang_getFileName(f)) :
			    strdup("");
			clang_getExpansionLocation(clang_getRangeEnd(r), NULL,
			    &l2, &c2, NULL);
			printf("%s\t%s:%u:%u-%u:%u\n", name, file, l1, c1, l2,
			    c2);
			free(name);
			free(file);
		}
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Recurse;
}

int
main(int argc, char *argv[])
{
	struct k_strv flags = { 0 }, args = { 0 };
	struct k_parse_conf conf;
	CXIndex idx;
	int ch, i, rc = 0;

	k_msg_init(argv[0]);
	while ((ch = getopt(argc, argv, "D:I:")) != -1) {
		switch (ch) {
		case 'D':
		case 'I':
			k_strv_push(&flags, ch == 'D' ? "-D" : "-I");
			k_strv_push(&flags, optarg);
			break;
		default:
			fputs("usage: kextract [-D macro] [-I dir] file ...\n",
			    stderr);
			return K_EXIT_USAGE;
		}
	}
	k_find_cuda(NULL);
	k_make_prelude("kextract");
	idx = clang_createIndex(0, 0);
	for (i = optind; i < argc; i++) {
		CXTranslationUnit tu = NULL;
		enum CXErrorCode e;

		memset(&conf, 0, sizeof(conf));
		conf.dialect = strstr(argv[i], ".hip") != NULL ? "hip" : "cuda";
		conf.device = 0;
		conf.torch = 1;
		conf.cuda_path = NULL;
		conf.warnings = 0;
		k_build_args(&args, &conf, &flags, NULL);
		e = clang_parseTranslationUnit2(idx, argv[i],
		    (const char *const *)args.v, (int)args.n, NULL, 0,
		    CXTranslationUnit_KeepGoing, &tu);
		k_strv_free(&args);
		if (e != CXError_Success || tu == NULL) {
			k_warn(K_EXIT_RECORDS, argv[i], "parse failed: %s",
			    k_cx_error_text(e));
			rc = K_EXIT_RECORDS;
			continue;
		}
		clang_visitChildren(clang_getTranslationUnitCursor(tu), visit,
		    NULL);
		clang_disposeTranslationUnit(tu);
		fflush(stdout);
	}
	clang_disposeIndex(idx);
	k_strv_free(&flags);
	return rc != 0 ? rc : k_finish();
}
