/*
 * Unit tests for lib/k_flags.c: which of a compile command's arguments
 * travel in slice.flags (response files read), which tokens kbuild
 * accepts from a record, and PyTorch's extension defaults.
 */
#include "unit.h"

#include <jansson.h>

#include "k_flags.h"

/* The kept flags, joined by single spaces. */
static char *
joined(json_t *a)
{
	static char buf[4096];
	json_t *v;
	size_t i;

	buf[0] = '\0';
	json_array_foreach(a, i, v) {
		if (i > 0)
			strcat(buf, " ");
		strcat(buf, json_string_value(v));
	}
	json_decref(a);
	return buf;
}

static void
test_command(void **state)
{
	static const char *const argv[] = { "/usr/local/cuda/bin/nvcc",
	    "-DWITH_CUDA", "-D", "TORCH_EXTENSION_NAME=ops", "-I/src/include",
	    "-I", "/other", "-isystem", "/sys", "-O3", "-std", "c++14",
	    "--expt-relaxed-constexpr", "-gencode",
	    "arch=compute_80,code=sm_80", "-Xcompiler", "-fPIC", "-x", "cu",
	    "-c", "/src/a.cu", "-o", "a.o", "--use_fast_math", "-UNDEBUG",
	    "--define-macro=LEVEL=2", "--ftz=true", "-lineinfo", "-G",
	    "-DWITH_CUDA" };

	(void)state;
	assert_string_equal(joined(k_nvcc_flags(30, argv, "/build")),
	    "-DWITH_CUDA -DTORCH_EXTENSION_NAME=ops -std=c++14 "
	    "--expt-relaxed-constexpr --use_fast_math -UNDEBUG -DLEVEL=2 "
	    "-ftz=true");
}

/* CMake's CUDA rules put defines and includes in a response file. */
static void
test_options_file(void **state)
{
	char *rsp = u_tmpname("rsp"), *dir, *base;
	FILE *fp = fopen(rsp, "w");
	const char *argv[] = { "nvcc", "--options-file", NULL, "-c",
	    "x.cu" };
	const char *argv2[] = { "nvcc", NULL, "-c", "x.cu" };
	char opt2[4200];

	(void)state;
	assert_non_null(fp);
	fputs("-DUSE_A \"-DNAME=\\\"two words\\\"\"\n"
	    "-I/inc --expt-extended-lambda\n", fp);
	fclose(fp);
	/* relative to the command's directory */
	dir = strdup(rsp);
	base = strrchr(dir, '/');
	*base++ = '\0';
	argv[2] = base;
	assert_string_equal(joined(k_nvcc_flags(5, argv, dir)),
	    "-DUSE_A -DNAME=\"two words\" --expt-extended-lambda");
	snprintf(opt2, sizeof(opt2), "--options-file=%s", rsp);
	argv2[1] = opt2;
	assert_string_equal(joined(k_nvcc_flags(4, argv2, "/elsewhere")),
	    "-DUSE_A -DNAME=\"two words\" --expt-extended-lambda");
	/* a missing response file contributes nothing */
	argv[2] = "no-such.rsp";
	assert_string_equal(joined(k_nvcc_flags(5, argv, dir)), "");
	free(dir);
	unlink(rsp);
}

static void
test_flag_ok(void **state)
{
	(void)state;
	assert_true(k_nvcc_flag_ok("-DX"));
	assert_true(k_nvcc_flag_ok("-DX=a b"));
	assert_true(k_nvcc_flag_ok("-UX"));
	assert_true(k_nvcc_flag_ok("-std=c++17"));
	assert_true(k_nvcc_flag_ok("--expt-relaxed-constexpr"));
	assert_true(k_nvcc_flag_ok("-fmad=false"));
	assert_false(k_nvcc_flag_ok("-UX=1"));
	assert_false(k_nvcc_flag_ok("-D1X"));
	assert_false(k_nvcc_flag_ok("-D"));
	assert_false(k_nvcc_flag_ok("-DX=a\nb"));
	assert_false(k_nvcc_flag_ok("-o/tmp/x"));
	assert_false(k_nvcc_flag_ok("-I/etc"));
	assert_false(k_nvcc_flag_ok("-std=c++17;rm"));
	assert_false(k_nvcc_flag_ok("--options-file"));
	assert_false(k_nvcc_flag_ok("-Xcompiler=-fplugin=x.so"));
	assert_false(k_nvcc_flag_ok(NULL));
}

static void
test_torch(void **state)
{
	json_t *t = k_torch_flags(), *v;
	size_t i;

	(void)state;
	json_array_foreach(t, i, v)
		assert_true(k_nvcc_flag_ok(json_string_value(v)));
	assert_string_equal(joined(t), "-D__CUDA_NO_HALF_OPERATORS__ "
	    "-D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__ "
	    "-D__CUDA_NO_HALF2_OPERATORS__ --expt-relaxed-constexpr "
	    "-std=c++17");
}

static const struct u_child children[] = {
	{ NULL, NULL }
};

int
main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_options_file),
		cmocka_unit_test(test_flag_ok),
		cmocka_unit_test(test_torch),
	};
	int rc;

	if ((rc = u_dispatch(children, argc, argv)) >= 0)
		return rc;
	return cmocka_run_group_tests_name("k_flags", tests, NULL, NULL);
}
