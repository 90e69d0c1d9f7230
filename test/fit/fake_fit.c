/*
 * A stand-in for a kwrap harness whose spec's counts are wrong, for
 * test/fit.t: the harness's command line (--case, --all, --time, --plan,
 * --layout, --count with expressions over n), its manifest and exit
 * statuses, and, when run under test/fit.t's compute-sanitizer stand-in
 * (FAKE_SAN=1), memcheck's report of the accesses past a buffer, in the
 * report's own shape.  No GPU.
 *
 * The "kernel" reads x[0 .. 2n+1) and writes y[0 .. n-3), y[i] = x[i] +
 * x[i+n] + i; the spec says x and y hold n elements each.  Cases: n = 100,
 * 37, 100, 64, and with FAKE_LARGE a fifth, n = 300000.  FAKE_PRINT caps
 * the findings printed (default 20000);
 * FAKE_SPEC=right makes the spec's counts 2n + 1 and n - 3; FAKE_YFULL
 * makes the kernel write all of y[0 .. n) (case 0 then runs clean and
 * leaves nothing unwritten: only memcheck sees the reads past x).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const long long ns[] = { 100, 37, 100, 64, 300000 };
static int NCASES = 4;
static const unsigned long long DEVX = 0x7f0000000000ULL;
static const unsigned long long DEVY = 0x7f0010000000ULL;

static void
fnv(const void *p, size_t n, char out[17])
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

static void
put(const char *dir, const char *name, const void *p, size_t n)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fp = fopen(path, "wb")) == NULL || (n > 0 && fwrite(p, 1, n,
	    fp) != n) || fclose(fp) != 0)
		exit(1);
}

/* a tiny evaluator: integers, n, + - * / and parentheses */
static const char *ep;
static long long n_val;
static long long e_add(void);

static void
ws(void)
{
	while (*ep == ' ')
		ep++;
}

static long long
e_prim(void)
{
	long long v;

	ws();
	if (*ep == '(') {
		ep++;
		v = e_add();
		ws();
		if (*ep++ != ')')
			exit(2);
		return v;
	}
	if (*ep == '-') {
		ep++;
		return -e_prim();
	}
	if (*ep == 'n') {
		ep++;
		return n_val;
	}
	if (*ep >= '0' && *ep <= '9')
		return strtoll(ep, (char **)&ep, 10);
	exit(2);
}

static long long
e_mul(void)
{
	long long v = e_prim(), r;
	char c;

	for (;;) {
		ws();
		c = *ep;
		if (c != '*' && c != '/')
			return v;
		ep++;
		r = e_prim();
		if (c == '/' && r == 0)
			exit(4);
		v = c == '*' ? v * r : v / r;
	}
}

static long long
e_add(void)
{
	long long v = e_mul();
	char c;

	for (;;) {
		ws();
		c = *ep;
		if (c != '+' && c != '-')
			return v;
		ep++;
		v = c == '+' ? v + e_mul() : v - e_mul();
	}
}

static const char *cx_expr, *cy_expr;
static int plan, layout, reps;

static long long
count(const char *expr, long long n, long long spec)
{
	long long v;

	if (expr == NULL)
		return spec;
	n_val = n;
	ep = expr;
	v = e_add();
	ws();
	if (*ep != '\0')
		exit(2);
	return v;
}

static int
one_case(const char *kernel, const char *dir, int k)
{
	int right = getenv("FAKE_SPEC") != NULL;
	long long n = ns[k], sx_spec = right ? 2 * n + 1 : n;
	long long sy_spec = right ? n - 3 : n;
	long long cx = count(cx_expr, n, sx_spec), cy = count(cy_expr, n, sy_spec);
	long long i, bad = 0, printed = 0, limit = 20000;
	long long yend = getenv("FAKE_YFULL") != NULL ? n : n - 3;
	char sx[17], sy[17], path[4096];
	float *x, *y;
	FILE *fp;

	if (getenv("FAKE_PRINT") != NULL)
		limit = atoll(getenv("FAKE_PRINT"));
	if (plan) {
		printf("{\"case\":%d,\"grid\":[%lld,1,1],\"block\":[32,1,1],"
		    "\"shared_mem\":0,\"scalars\":{\"n\":%lld},\"buffers\":["
		    "{\"name\":\"x\",\"role\":\"in\",\"type\":\"float32\","
		    "\"size\":4,\"count\":%lld,\"spec_count\":%lld,\"bytes\":%lld},"
		    "{\"name\":\"y\",\"role\":\"out\",\"type\":\"float32\","
		    "\"size\":4,\"count\":%lld,\"spec_count\":%lld,\"bytes\":%lld}"
		    "]}\n", k, (n + 31) / 32, n, cx, sx_spec, cx * 4, cy, sy_spec,
		    cy * 4);
		return 0;
	}
	if (cx < 0 || cy < 0)
		return 4;
	if (layout)
		fprintf(stderr, "harness: layout {\"case\":%d,\"device_bytes\":"
		    "85899345920,\"grid\":[%lld,1,1],\"block\":[32,1,1],"
		    "\"shared_mem\":0,\"scalars\":{\"n\":%lld},\"buffers\":["
		    "{\"name\":\"x\",\"role\":\"in\",\"type\":\"float32\","
		    "\"size\":4,\"count\":%lld,\"spec_count\":%lld,\"bytes\":%lld,"
		    "\"dev\":\"0x%llx\"},{\"name\":\"y\",\"role\":\"out\",\"type\":"
		    "\"float32\",\"size\":4,\"count\":%lld,\"spec_count\":%lld,"
		    "\"bytes\":%lld,\"dev\":\"0x%llx\"}]}\n", k, (n + 31) / 32,
		    n, cx, sx_spec, cx * 4, DEVX, cy, sy_spec, cy * 4, DEVY);
	x = calloc((size_t)(cx + 1), 4);
	y = calloc((size_t)(cy + 1), 4);
	if (x == NULL || y == NULL)
		return 3;
	for (i = 0; i < cx; i++)
		x[i] = (float)((i * 7 + k) % 13) * 0.25f;
	memset(y, 0xA5, (size_t)cy * 4);
	put(dir, "x.in.bin", x, (size_t)cx * 4);
	fnv(x, (size_t)cx * 4, sx);
	/* the reads past x, then the writes past y, as memcheck sees them */
	for (i = 0; i < 2 * n + 1; i++) {
		if (i < cx)
			continue;
		bad++;
		if (getenv("FAKE_SAN") != NULL && printed < limit) {
			unsigned long long a = DEVX + (unsigned long long)i * 4;
			printed++;
			printf("========= Invalid __global__ read of size 4 bytes\n"
			    "=========     at void fake_kernel(const float *, float *, int)+0x70\n"
			    "=========     by thread (%lld,0,0) in block (0,0,0)\n"
			    "=========     Access to 0x%llx is out of bounds\n"
			    "=========     and is %lld bytes after the nearest "
			    "allocation at 0x%llx of size %lld bytes\n=========\n",
			    i % 32, a, (long long)(a - DEVX) - cx * 4 + 1, DEVX,
			    cx * 4);
		}
	}
	for (i = 0; i < yend; i++) {
		float a = i < cx ? x[i] : 1.0f, b = i + n < cx ? x[i + n] : 1.0f;
		if (i >= cy) {
			bad++;
			continue;
		}
		y[i] = a + b + (float)i;
	}
	if (getenv("FAKE_SAN") != NULL) {
		if (bad > 0) {
			fprintf(stderr, "harness: kw_sync(): CUDA_ERROR_LAUNCH_FAILED\n");
			printf("========= Target application returned an error\n");
		}
		printf("========= ERROR SUMMARY: %lld error%s\n", bad,
		    bad == 1 ? "" : "s");
		if (bad > printed)
			printf("========= ERROR SUMMARY: %lld errors were not "
			    "printed. Use --print-limit option to adjust the "
			    "number of printed errors\n", bad - printed);
		if (bad > 0)
			return 5;
	}
	put(dir, "y.bin", y, (size_t)cy * 4);
	fnv(y, (size_t)cy * 4, sy);
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	if ((fp = fopen(path, "w")) == NULL)
		return 1;
	fprintf(fp, "{\"kernel\":\"%s\",\"case\":%d,\"scalars\":{\"n\":%lld},"
	    "\"grid\":[1,1,1],\"block\":[32,1,1],\"shared_mem\":0,"
	    "\"outputs\":[{\"name\":\"y\",\"type\":\"float32\",\"count\":%lld,"
	    "\"bytes\":%lld,\"file\":\"y.bin\",\"checksum\":\"%s\"}],"
	    "\"inputs\":[{\"name\":\"x\",\"type\":\"float32\",\"count\":%lld,"
	    "\"file\":\"x.in.bin\",\"checksum_before\":\"%s\","
	    "\"checksum_after\":\"%s\"}],\"times_ms\":[", kernel, k, n, cy,
	    cy * 4, sy, cx, sx, sx);
	for (i = 0; i < reps; i++)
		fprintf(fp, "%s1", i ? "," : "");
	fprintf(fp, "]%s}\n", reps > 0 ? ",\"timed_outputs_match\":true" : "");
	free(x);
	free(y);
	return fclose(fp) != 0;
}

int
main(int argc, char *argv[])
{
	char dir[4096];
	int i, k = 0, all = 0, rc;

	if (getenv("FAKE_LARGE") != NULL)
		NCASES = 5;
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--cases") == 0) {
			printf("%d\n", NCASES);
			return 0;
		}
	if (argc < 4)
		return 2;
	for (i = 4; i < argc; i++) {
		if (strcmp(argv[i], "--all") == 0)
			all = 1;
		else if (strcmp(argv[i], "--plan") == 0)
			plan = 1;
		else if (strcmp(argv[i], "--layout") == 0)
			layout = 1;
		else if (i + 1 >= argc)
			return 2;
		else if (strcmp(argv[i], "--case") == 0)
			k = atoi(argv[++i]);
		else if (strcmp(argv[i], "--time") == 0)
			reps = atoi(argv[++i]);
		else if (strcmp(argv[i], "--case-timeout") == 0)
			i++;
		else if (strcmp(argv[i], "--count") == 0) {
			const char *a = argv[++i];
			if (strncmp(a, "x=", 2) == 0)
				cx_expr = a + 2;
			else if (strncmp(a, "y=", 2) == 0)
				cy_expr = a + 2;
			else
				return 2;
		} else
			return 2;
	}
	if (k < 0 || k >= NCASES)
		return 2;
	if (!all)
		return one_case(argv[2], argv[3], k);
	for (k = 0; k < NCASES; k++) {
		snprintf(dir, sizeof(dir), "%s/%d", argv[3], k);
		if (mkdir(dir, 0777) != 0)
			return 1;
		if ((rc = one_case(argv[2], dir, k)) != 0)
			return rc;
	}
	return 0;
}
