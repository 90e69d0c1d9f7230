// The comparison of an exported test.cu (the "compare" part of
// tools/kreport/exporttest.in, included as compare.inc) on the CPU: each
// line of stdout is one comparison's result and its mismatch line.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <sys/stat.h>
#include <unistd.h>

static const char kx_id[] = "t::k";
#include "compare.inc"

static void put(const char *path, const void *p, size_t n)
{
	FILE *fp = fopen(path, "wb");
	if (fp == NULL || fwrite(p, 1, n, fp) != n || fclose(fp) != 0) exit(9);
}

// expected and got as files of case 0, output o, then the comparison
static void check_m(const char *what, int kind, int size, double atol, double rtol,
    const void *want, size_t wn, const void *got, size_t gn, int unordered, int masked)
{
	put("expected/0/o.bin", want, wn);
	put("out/0/o.bin", got, gn);
	kx_out o = { 0, "o", kind, size, atol, rtol, wn, unordered, masked, 1e-3 };
	printf("%s: ", what);
	fflush(stdout);
	printf("%d\n", kx_compare(o, "typical"));
}

static void check_u(const char *what, int kind, int size, double atol, double rtol,
    const void *want, size_t wn, const void *got, size_t gn, int unordered)
{
	check_m(what, kind, size, atol, rtol, want, wn, got, gn, unordered, 0);
}

static void check(const char *what, int kind, int size, double atol, double rtol,
    const void *want, size_t wn, const void *got, size_t gn)
{
	check_u(what, kind, size, atol, rtol, want, wn, got, gn, 0);
}

int main(void)
{
	mkdir("expected", 0777); mkdir("expected/0", 0777);
	mkdir("out", 0777); mkdir("out/0", 0777);
	float a[4] = { 1, 2, 3, 4 }, b[4] = { 1, 2, 3.0005f, 4 }, c[4] = { 1, 2, 1.5f, 4 };
	check("f32 equal", KX_F32, 4, 1e-3, 0, a, 16, a, 16);
	check("f32 in atol", KX_F32, 4, 1e-3, 0, a, 16, b, 16);
	check("f32 outside", KX_F32, 4, 1e-3, 0, a, 16, c, 16);
	check("f32 in rtol", KX_F32, 4, 0, 0.6, a, 16, c, 16);
	float n1[2] = { NAN, 1 }, n2[2] = { NAN, 1 }, n3[2] = { 1, 1 }, i1[2] = { INFINITY, 1 };
	check("nan where nan", KX_F32, 4, 0, 0, n1, 8, n2, 8);
	check("a number for nan", KX_F32, 4, 1, 1, n1, 8, n3, 8);
	check("inf for a number", KX_F32, 4, 1e30, 0, n3, 8, i1, 8);
	double d1[1] = { 1.0 }, d2[1] = { 1.0 + 1e-12 };
	check("f64 in atol", KX_F64, 8, 1e-10, 0, d1, 8, d2, 8);
	uint16_t h1[1] = { 0x3c00 }, h2[1] = { 0x3c01 }, h3[1] = { 0x3c04 };
	check("f16 one ulp", KX_F16, 2, 1e-3, 0, h1, 2, h2, 2);
	check("f16 four ulps", KX_F16, 2, 1e-3, 0, h1, 2, h3, 2);
	uint16_t g1[1] = { 0x3f80 }, g2[1] = { 0x3f81 };
	check("bf16 one ulp outside", KX_BF16, 2, 1e-3, 0, g1, 2, g2, 2);
	int32_t k1[3] = { 1, 2, 3 }, k2[3] = { 1, 2, 4 };
	check("int32 equal", KX_BYTES, 4, 0, 0, k1, 12, k1, 12);
	check("int32 differs", KX_BYTES, 4, 0, 0, k1, 12, k2, 12);
	check("size", KX_BYTES, 4, 0, 0, k1, 12, k1, 8);
	// unordered: the same elements in another order pass, exactly
	int32_t k3[3] = { 3, 1, 2 }, k4[3] = { 3, 1, 1 };
	float p1[3] = { 0.5f, -1, 2 }, p2[3] = { 2, 0.5f, -1 }, p3[3] = { 2, 0.5f, -1.0001f };
	check_u("int32 unordered permuted", KX_BYTES, 4, 0, 0, k1, 12, k3, 12, 1);
	check_u("int32 unordered another element", KX_BYTES, 4, 0, 0, k1, 12, k4, 12, 1);
	check_u("f32 unordered permuted", KX_F32, 4, 1e-3, 0, p1, 12, p2, 12, 1);
	check_u("f32 unordered off in atol", KX_F32, 4, 1e-3, 0, p1, 12, p3, 12, 1);
	// masked: the elements the map marks are not compared, the others are
	unsigned char m1[3] = { 0, 0, 1 }, m2[2] = { 0, 1 };
	put("expected/0/o.unstable.bin", m1, 3);
	check_m("int32 masked, off where masked", KX_BYTES, 4, 0, 0, k1, 12, k2, 12, 0, 1);
	check_m("int32 masked, off where not", KX_BYTES, 4, 0, 0, k1, 12, k4, 12, 0, 1);
	check_m("int32 map present, output not masked", KX_BYTES, 4, 0, 0, k1, 12, k2, 12, 0, 0);
	float q1[3] = { 1, 2, 3 }, q2[3] = { 1, 2, INFINITY }, q3[3] = { 1, 2.5f, INFINITY };
	check_m("f32 masked, an infinity where masked", KX_F32, 4, 1e-3, 0, q1, 12, q2, 12, 0, 1);
	check_m("f32 masked, off where not", KX_F32, 4, 1e-3, 0, q1, 12, q3, 12, 0, 1);
	// split: where the map holds 1 in atol (here 1), elsewhere in the
	// stable elements' band (1e-3)
	float r1[3] = { 1, 2, 3 }, r2[3] = { 1, 2, 3.5f }, r3[3] = { 1, 2.5f, 3 };
	check_m("f32 split, in the band where unstable", KX_F32, 4, 1, 0, r1, 12, r2, 12, 0, 2);
	check_m("f32 split, the same off where stable", KX_F32, 4, 1, 0, r1, 12, r3, 12, 0, 2);
	put("expected/0/o.unstable.bin", m2, 2);
	check_m("masked, a map of another length", KX_BYTES, 4, 0, 0, k1, 12, k2, 12, 0, 1);
	unlink("expected/0/o.unstable.bin");
	check_m("masked, no map for this case", KX_BYTES, 4, 0, 0, k1, 12, k2, 12, 0, 1);
	unlink("expected/0/o.bin");
	kx_out o = { 0, "o", KX_BYTES, 4, 0, 0, 12, 0, 0, 0 };
	printf("missing: %d\n", kx_compare(o, "typical"));
	atexit(kx_stopped);
	return 0;
}
