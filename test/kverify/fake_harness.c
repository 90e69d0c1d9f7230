/*
 * A stand-in for a kwrap harness, for test/kverify.t: the same command
 * line, manifest and exit statuses, no GPU.  The "module" file holds one
 * word that says how to behave (see the switch in main).
 *
 * Input x (float32, 16) is filled per case; outputs y (float32) = 2x + 1
 * (case 1 also has a NaN and an infinity) and k (int32) = i + case.
 * Timed repetitions take 2 ms (+0..2%), 1 ms for "good", 1.96 for "near",
 * 2 x (case + 1) for "ramp", 0.6 x (case + 1) for "rampmid", 0.3 x
 * (case + 1) for "ramplow"; "modes3" and "modes2" take 1.2 ms in three
 * (two) of every five runs and 1 ms in the others.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define N 16

/* the byte pure outputs start as (--sentinel; FAKE_NOSENT: a harness
 * from before the option, which refuses it) */
static int sentinel = 0xA5;

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
	if ((fp = fopen(path, "wb")) == NULL || fwrite(p, 1, n, fp) != n ||
	    fclose(fp) != 0)
		exit(1);
}

static int one_case(char *argv[], const char *dir, int kcase, int reps,
    int oracle);

static int command(int argc, char *argv[]);

/* One command's line in $FAKE_PIDS: "PID MODULE", "times-only" when it
 * has --times-only, "all" when it has --all. */
static void
log_pid(int ac, char *av[])
{
	const char *pids = getenv("FAKE_PIDS");
	FILE *fp;
	int k, t = 0, all = 0;

	if (pids == NULL || ac < 2 || (fp = fopen(pids, "a")) == NULL)
		return;
	for (k = 1; k < ac; k++) {
		t |= strcmp(av[k], "--times-only") == 0;
		all |= strcmp(av[k], "--all") == 0;
	}
	fprintf(fp, "%ld %s%s%s\n", (long)getpid(), av[1],
	    t ? " times-only" : "", all ? " all" : "");
	fclose(fp);
}

/*
 * The entry kverify's host calls when this file is built as harness.so
 * (cc -shared -fPIC): one command, as a line of --serve runs it.
 */
int
kw_host_command(int argc, char *argv[])
{
	int rc;

	log_pid(argc, argv);
	rc = command(argc, argv);
	alarm(0);
	fflush(stdout);
	fflush(stderr);
	return rc;
}

/*
 * --serve, as the kwrap harness speaks it: "ready", then one command per
 * line (tab-separated arguments), "done 0" after each that went well; a
 * failed command ends the process with its status.  FAKE_NOSERVE: a
 * harness from before --serve.  FAKE_PIDS: a file that gets "PID MODULE"
 * per command (and "times-only" after it when the command has
 * --times-only, "all" when it has --all), to count the processes.
 * FAKE_READY_DELAY: seconds before "ready".
 */
static int
serve(void)
{
	char line[8192], *av[64], *p, *t;
	FILE *answer;
	int fd, ac, rc;

	if (getenv("FAKE_NOSERVE") != NULL)
		return 2;
	if ((fd = dup(1)) < 0 || (answer = fdopen(fd, "w")) == NULL ||
	    dup2(2, 1) < 0)
		return 1;
	/* FAKE_READY_DELAY: seconds a start takes (driver and context on a
	 * busy host) */
	if ((p = getenv("FAKE_READY_DELAY")) != NULL)
		usleep((useconds_t)(atof(p) * 1e6));
	fprintf(answer, "ready\n");
	fflush(answer);
	while (fgets(line, sizeof(line), stdin) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		ac = 0;
		av[ac++] = "fake";
		for (p = line; p != NULL && ac < 63; p = t) {
			if ((t = strchr(p, '\t')) != NULL)
				*t++ = '\0';
			av[ac++] = p;
		}
		av[ac] = NULL;
		log_pid(ac, av);
		rc = command(ac, av);
		alarm(0);
		fflush(stdout);
		fflush(stderr);
		if (rc != 0)
			return rc;
		fprintf(answer, "done 0\n");
		fflush(answer);
	}
	return 0;
}

/* A counter next to module: the runs before this one (this one counted). */
static int
bump(const char *module)
{
	char cp[4200];
	int cnt = 0;
	FILE *fp;

	snprintf(cp, sizeof(cp), "%s.n", module);
	if ((fp = fopen(cp, "r")) != NULL) {
		if (fscanf(fp, "%d", &cnt) != 1)
			cnt = 0;
		fclose(fp);
	}
	if ((fp = fopen(cp, "w")) != NULL) {
		fprintf(fp, "%d\n", cnt + 1);
		fclose(fp);
	}
	return cnt;
}

int
main(int argc, char *argv[])
{
	if (argc == 2 && strcmp(argv[1], "--serve") == 0)
		return serve();
	return command(argc, argv);
}

static int
command(int argc, char *argv[])
{
	char dir[4096];
	int i, kcase = 0, reps = 0, oracle = 0, all = 0, tmo = 0, rc;
	unsigned skip = 0;

	sentinel = 0xA5;
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--cases") == 0) {
			puts("3");
			return 0;
		}
	if (argc < 4)
		return 2;
	for (i = 4; i < argc; i += 2) {
		/* FAKE_OLD: a harness from before --all and --case-timeout */
		if (getenv("FAKE_OLD") != NULL && (strcmp(argv[i], "--all") ==
		    0 || strcmp(argv[i], "--case-timeout") == 0))
			return 2;
		if (strcmp(argv[i], "--times-only") == 0)
			i--;	/* buffer files are written all the same */
		else if (strcmp(argv[i], "--oracle") == 0 ||
		    strcmp(argv[i], "--all") == 0) {
			*(argv[i][2] == 'o' ? &oracle : &all) = 1;
			i--;
		} else if (i + 1 >= argc)
			return 2;
		else if (strcmp(argv[i], "--case") == 0)
			kcase = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--time") == 0)
			reps = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--case-timeout") == 0)
			tmo = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--set") == 0 ||
		    strcmp(argv[i], "--grid") == 0)
			;	/* a fit's override: the fake's outputs stay */
		else if (strcmp(argv[i], "--skip") == 0)
			skip |= 1u << (atoi(argv[i + 1]) & 31);
		else if (strcmp(argv[i], "--sentinel") == 0) {
			if (getenv("FAKE_NOSENT") != NULL)
				return 2;
			sentinel = atoi(argv[i + 1]) & 255;
		}
		else
			return 2;
	}
	if (!all) {
		if (tmo > 0)
			alarm((unsigned)tmo);
		return one_case(argv, argv[3], kcase, reps, oracle);
	}
	/* --all: like the kwrap harness, case c into outdir/c, the first
	 * failure ends the run */
	for (kcase = 0; kcase < 3; kcase++) {
		if (skip & (1u << kcase))
			continue;
		snprintf(dir, sizeof(dir), "%s/%d", argv[3], kcase);
		if (mkdir(dir, 0777) != 0 && errno != EEXIST)
			return 1;
		if (tmo > 0)
			alarm((unsigned)tmo);
		if ((rc = one_case(argv, dir, kcase, reps, oracle)) != 0)
			return rc;
	}
	return 0;
}

static int
one_case(char *argv[], const char *dir, int kcase, int reps, int oracle)
{
	char mode[64] = "", cx[17], cx2[17], cy[17], ck[17], path[4096];
	char ckin[17], kin[256] = "";
	float x[N], y[N];
	int32_t k[N];
	int i, match = 1;
	size_t nk;	/* k's elements: 0 in a case of an empty size */
	double tms = 2.0;
	int slow5 = -1;	/* modes3, modes2: slow runs of every five */
	float ty = 0, mag = 1.0f;
	int kt = 0;	/* inttimed: k's timed repetitions differ */
	int yt = 0;	/* racelatec: y's timed repetitions differ */
	const char *log = getenv("FAKE_LOG"), *busy;
	FILE *fp;

	if ((fp = fopen(argv[1], "r")) == NULL ||
	    fscanf(fp, "%63s", mode) != 1) {
		fprintf(stderr, "harness: %s: CUDA_ERROR_FILE_NOT_FOUND\n",
		    argv[1]);
		return 6;
	}
	fclose(fp);
	if (log != NULL && (fp = fopen(log, "a")) != NULL) {
		const char *g = getenv("CUDA_VISIBLE_DEVICES");
		fprintf(fp, "%s %s %d %s\n", mode, g ? g : "-", kcase,
		    argv[2]);
		fclose(fp);
	}
	/* FAKE_BUSY=dir: how many runs are inside a case at once, each
	 * present there for 0.2 s as a file of its own, the count seen
	 * appended to dir/seen after the run's --time reps */
	if ((busy = getenv("FAKE_BUSY")) != NULL) {
		char me[4096 + 32];
		DIR *d;
		struct dirent *e;
		int seen = 0;

		snprintf(me, sizeof(me), "%s/run.%ld", busy, (long)getpid());
		if ((fp = fopen(me, "w")) != NULL)
			fclose(fp);
		usleep(200000);
		if ((d = opendir(busy)) != NULL) {
			while ((e = readdir(d)) != NULL)
				seen += strncmp(e->d_name, "run.", 4) == 0;
			closedir(d);
		}
		unlink(me);
		snprintf(me, sizeof(me), "%s/seen", busy);
		if ((fp = fopen(me, "a")) != NULL) {
			fprintf(fp, "%d %d\n", reps, seen);
			fclose(fp);
		}
	}
	/* --oracle: the CPU reference gives the right answer, whatever the
	 * module says, unless the environment makes it fail */
	if (oracle) {
		const char *how = getenv("FAKE_ORACLE");
		if (how != NULL && strcmp(how, "crash") == 0)
			raise(SIGSEGV);
		if (how != NULL && strcmp(how, "hang") == 0)
			sleep(100);
		snprintf(mode, sizeof(mode), "%s", "good");
	}
	nk = (strcmp(mode, "emptyfill") == 0 || strcmp(mode, "emptyconst") ==
	    0) && kcase == 2 ? 0 : N;
	if (strcmp(mode, "nodev") == 0) {
		fprintf(stderr, "harness: kw_init(): CUDA_ERROR_NO_DEVICE\n");
		return 1;
	}
	if (strcmp(mode, "hang") == 0)
		sleep(100);
	/* jitcrash: jitter, and a crash on case 1 */
	if ((strcmp(mode, "crash") == 0 || strcmp(mode, "jitcrash") == 0) &&
	    kcase == 1)
		raise(SIGSEGV);
	if (strcmp(mode, "crash12") == 0 && kcase > 0)
		raise(SIGSEGV);
	/* crash2r: a crash on case 2 in the repeat alone (its sentinel) */
	if (strcmp(mode, "crash2r") == 0 && kcase == 2 && sentinel != 0xA5)
		raise(SIGSEGV);
	if (strcmp(mode, "oom") == 0) {
		/* what the real harness says when cuMemAlloc fails */
		fprintf(stderr, "harness: kw_alloc(&b[i].dev, b[i].bytes ? "
		    "b[i].bytes : 1): CUDA_ERROR_OUT_OF_MEMORY\n");
		return 3;
	}
	if (strcmp(mode, "flood") == 0 || strcmp(mode, "drip") == 0) {
		/* a kernel that printf's in a loop: flood as fast as the
		 * pipe takes it, drip slowly enough never to be cut off */
		for (i = 0;; i++) {
			fprintf(i % 2 ? stderr : stdout, "thread %d says "
			    "hello again\n", i);
			if (mode[0] == 'd') {
				fflush(stdout);
				usleep(1000);
			}
		}
	}
	if (strcmp(mode, "fault") == 0) {
		fprintf(stderr, "harness: kw_sync(): "
		    "CUDA_ERROR_ILLEGAL_ADDRESS\n");
		return 5;
	}
	for (i = 0; i < N; i++) {
		/* shifted: other inputs than the reference's */
		x[i] = (float)(i - 5) * 0.5f + (float)kcase +
		    (strcmp(mode, "shifted") == 0 ? 100.0f : 0.0f);
		y[i] = 2 * x[i] + 1;
		k[i] = i + kcase;
	}
	if (kcase == 1) {
		y[3] = NAN;
		y[5] = INFINITY;
	}
	fnv(x, sizeof(x), cx);
	put(dir, "x.in.bin", x, sizeof(x));
	if (strcmp(mode, "close") == 0)
		for (i = 0; i < N; i++)
			y[i] += 1e-6f * fabsf(y[i]) + 1e-7f;
	else if (strcmp(mode, "far") == 0)
		y[7] += 0.01f;
	else if (strcmp(mode, "far2") == 0) {
		y[2] += 0.01f;
		y[7] += 0.01f;
	}
	else if (strcmp(mode, "nan") == 0) {
		y[2] = NAN;
		y[3] = 1.0f;
	} else if (strcmp(mode, "intoff") == 0)
		k[4]++;
	else if (strcmp(mode, "intoff2") == 0)
		k[2]++;
	else if (strcmp(mode, "sentinel") == 0)
		memset(y, sentinel, sizeof(y));
	else if (strcmp(mode, "readsout") == 0)
		/* reads its output before writing it: the sentinel added */
		y[1] = 2 * x[1] + 1 + (float)sentinel;
	else if (strcmp(mode, "holes") == 0 ||
	    (strcmp(mode, "holes2") == 0 && kcase == 2))
		memset(y + N - 3, sentinel, 3 * sizeof(float));
	else if (strcmp(mode, "looks") == 0)
		/* written, with a value whose bytes are the default sentinel */
		memset(y + 2, 0xA5, sizeof(float));
	else if (strcmp(mode, "zero") == 0) {
		memset(y, 0, sizeof(y));
		for (i = 0; i < N; i++)
			k[i] = 7;
	} else if (strcmp(mode, "fill") == 0) {
		/* a fill: one value per case, another in each case */
		for (i = 0; i < N; i++) {
			y[i] = 3.0f + (float)kcase;
			k[i] = 7 + kcase;
		}
	} else if (strcmp(mode, "emptyfill") == 0 ||
	    strcmp(mode, "emptyconst") == 0) {
		/* k: one value per case (emptyfill: another in each), and
		 * 0 elements in case 2, a size of 0 (see nk below) */
		for (i = 0; i < N; i++)
			k[i] = 7 + (strcmp(mode, "emptyfill") == 0 ? kcase : 0);
	} else if (strcmp(mode, "copy") == 0)
		memcpy(y, x, sizeof(y));
	else if (strcmp(mode, "drift") == 0 || strcmp(mode, "drift2") == 0) {
		/* the golden's runs agree (check and repeat, three cases
		 * each, memcheck's case 0); from the eighth case run on,
		 * y[7] is off as "far"'s (drift2: y[8] too) */
		if (bump(argv[1]) >= 7) {
			y[7] += 0.01f;
			if (mode[5] == '2')
				y[8] += 0.01f;
		}
	} else if (strcmp(mode, "nondet") == 0) {
		/* another value at every run, in every element */
		float r = 1000.0f * (float)(bump(argv[1]) + 1);
		for (i = 0; i < N; i++)
			y[i] = r + (float)i;
	}
	else if (strcmp(mode, "fast") == 0)
		tms = 0.01;
	else if (strcmp(mode, "good") == 0)
		tms = 1.0;
	else if (strcmp(mode, "near") == 0)
		tms = 1.96;	/* 2% faster than the reference */
	else if (strcmp(mode, "ramp") == 0)
		tms = 2.0 * (1 + kcase);	/* the last case is the longest */
	else if (strcmp(mode, "rampmid") == 0)
		tms = 0.6 * (1 + kcase);	/* 0.6, 1.2, 1.8 ms */
	else if (strcmp(mode, "ramplow") == 0 ||
	    strcmp(mode, "ramplowbig") == 0)
		tms = 0.3 * (1 + kcase);	/* none 1 ms */
	/* two modes, 1 and 1.2 ms: three of every five runs slow
	 * (median 1.2) or two (median 1); the fastest alike */
	else if (strcmp(mode, "modes3") == 0)
		slow5 = 3;
	else if (strcmp(mode, "modes2") == 0)
		slow5 = 2;
	if (reps > 0 && strcmp(mode, "flaky") == 0)
		match = 0;
	/* float atomics: the first launch of a timed run gives y, its
	 * repetitions y[0] + 0.004 (the harness's y.timed.bin), a fresh
	 * process without --time y[0] + 0.002; jitint moves an integer,
	 * race y[0] by 5, timedfar's repetitions are wrong by 1 */
	/* jitbig: jitter whose case 2 has values and spread a million
	 * times larger; jitbigfar is also 0.05 off in case 0 */
	if (strncmp(mode, "jitbig", 6) == 0) {
		mag = kcase == 2 ? 1e6f : 1.0f;
		for (i = 0; i < N; i++)
			y[i] *= mag;
		if (mode[6] == 'f' && kcase == 0)
			y[7] += 0.05f;
	}
	/* racebig: jitbig's magnitudes, y[0] 5 more in the repeat (a race
	 * on one element, small beside case 2's values); bigoff: the same
	 * magnitudes, y[3] 10 off */
	/* racejit: racebig, and every other element rounded another way in
	 * the repeat, within the dtype's tolerance */
	/* racefar: the same magnitudes, y[0] 50 off (the raced element
	 * landing past the band its spread of 5 gave) */
	/* racelate: racebig, and y[1] 2 more where the reference is run
	 * again after a miss (kverify's ref-again directory): a race the
	 * golden's runs never showed; racelatec: racebig's values, y[1] 2
	 * more in its timed repetitions (a candidate or a mutant that is
	 * the same kernel, whose repetitions meet that race) */
	if (strcmp(mode, "racebig") == 0 || strcmp(mode, "bigoff") == 0 ||
	    strcmp(mode, "racejit") == 0 || strcmp(mode, "racefar") == 0 ||
	    strcmp(mode, "racelate") == 0 || strcmp(mode, "racelatec") == 0) {
		mag = kcase == 2 ? 1e6f : 1.0f;
		for (i = 0; i < N; i++)
			y[i] *= mag;
		if (mode[0] == 'b')
			y[3] += 10.0f;
		else if (mode[4] == 'f')
			y[0] += 50.0f;
		else if (strcmp(mode, "racelatec") == 0) {
			if (reps > 0) {
				float t[N];
				memcpy(t, y, sizeof(t));
				t[1] += 2.0f;
				put(dir, "y.timed.bin", t, sizeof(t));
				match = 0;
				yt = 1;
			}
		} else if (reps == 0) {
			y[0] += 5.0f;
			for (i = 1; mode[4] == 'j' && i < N; i++)
				y[i] += 2e-6f * fabsf(y[i]) + 1e-6f;
		}
		if (strcmp(mode, "racelate") == 0 &&
		    strstr(dir, "ref-again") != NULL)
			y[1] += 2.0f;
	}
	if (strcmp(mode, "jitcrash") == 0)
		snprintf(mode, sizeof(mode), "%s", "jitter");
	if (reps > 0 && (strcmp(mode, "jitter") == 0 ||
	    strncmp(mode, "jitbig", 6) == 0 ||
	    strcmp(mode, "timedfar") == 0)) {
		ty = (mode[0] == 'j' ? 0.004f : 1.0f) * mag;
		match = 0;
	}
	if (reps == 0 && (strcmp(mode, "jitter") == 0 ||
	    strncmp(mode, "jitbig", 6) == 0))
		y[0] += 0.002f * mag;
	else if (reps == 0 && strcmp(mode, "jitint") == 0)
		k[4]++;
	else if (reps == 0 && kcase == 2 && strcmp(mode, "jitint2") == 0)
		k[4]++;		/* case 2 only */
	else if (reps == 0 && strcmp(mode, "introam") == 0)
		/* a race that lands somewhere else at every run */
		k[bump(argv[1]) % N]++;
	else if (reps == 0 && (strcmp(mode, "inthalf") == 0 ||
	    strcmp(mode, "inthalf9") == 0 || strcmp(mode, "intwide") == 0))
		/* a race in 8 of k's 16 elements (half), 9, or all */
		for (i = 0; i < (mode[3] == 'w' ? N : mode[7] == '9' ? 9 : 8);
		    i++)
			k[i]++;
	else if (reps == 0 && strcmp(mode, "clock") == 0 && (kcase == 2 ||
	    sentinel == 0xA5))
		/* a clock's reading: case 2 in the repeat, every case in a
		 * later fresh run with the golden's sentinel */
		k[4]++;
	else if (reps == 0 && strcmp(mode, "jitperm") == 0) {
		/* results placed through an atomic counter: the same
		 * elements, k[0] and k[4] swapped, and y[0] and y[4] */
		int32_t t = k[0];
		float u = y[0];
		k[0] = k[4];
		k[4] = t;
		y[0] = y[4];
		y[4] = u;
	}
	else if (reps == 0 && strcmp(mode, "race") == 0)
		y[0] += 5;
	else if (strcmp(mode, "jitfar") == 0)
		y[0] += 0.05f;
	if (ty != 0) {
		float t[N];
		memcpy(t, y, sizeof(t));
		t[0] += ty;
		put(dir, "y.timed.bin", t, sizeof(t));
	}
	/* inttimed: k[4] one more in the timed repetitions (an integer
	 * output that moves between launches, as jitint's does between
	 * runs) */
	if (reps > 0 && nk > 4 && strcmp(mode, "inttimed") == 0) {
		int32_t t[N];
		memcpy(t, k, sizeof(t));
		t[4]++;
		put(dir, "k.timed.bin", t, nk * sizeof(k[0]));
		match = 0;
		kt = 1;
	}
	/* inout: k is also an input, whose element 1 holds the sentinel's
	 * bytes before the launch and after it (never written, not unwritten) */
	if (strcmp(mode, "inout") == 0) {
		memset(k + 1, 0xA5, sizeof(k[1]));
		fnv(k, sizeof(k), ckin);
		put(dir, "k.in.bin", k, sizeof(k));
		snprintf(kin, sizeof(kin), ",{\"name\":\"k\",\"type\":"
		    "\"int32\",\"count\":%d,\"file\":\"k.in.bin\","
		    "\"checksum_before\":\"%s\"}", N, ckin);
	}
	/* ramplowbig: case 2, the longest, also reads 17 MiB of zeros */
	if (strcmp(mode, "ramplowbig") == 0 && kcase == 2) {
		size_t big = (size_t)17 << 20;
		unsigned char *z = calloc(1, big);
		char cz[17];
		if (z == NULL)
			return 1;
		fnv(z, big, cz);
		put(dir, "pad.in.bin", z, big);
		free(z);
		snprintf(kin, sizeof(kin), ",{\"name\":\"pad\",\"type\":"
		    "\"float32\",\"count\":%zu,\"file\":\"pad.in.bin\","
		    "\"checksum_before\":\"%s\"}", big / 4, cz);
	}
	fnv(y, sizeof(y), cy);
	fnv(k, sizeof(k), ck);
	memcpy(cx2, cx, sizeof(cx));
	/* modify: writes into its input x; modify2: on case 2 alone */
	if (strcmp(mode, "modify") == 0 ||
	    (strcmp(mode, "modify2") == 0 && kcase == 2))
		cx2[0] = cx2[0] == '0' ? '1' : '0';
	put(dir, "y.bin", y, sizeof(y));
	if (nk == 0)
		fnv(k, 0, ck);
	put(dir, "k.bin", k, nk * sizeof(k[0]));
	if (strcmp(mode, "torn") == 0)
		put(dir, "k.bin", k, sizeof(k) - 4);
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	if (strcmp(mode, "nomanifest") == 0)
		return 0;
	if ((fp = fopen(path, "w")) == NULL)
		return 1;
	/* noout: a harness whose spec names no output buffer */
	if (strcmp(mode, "noout") == 0) {
		fprintf(fp, "{\"kernel\":\"%s\",\"case\":%d,\"scalars\":{},"
		    "\"grid\":[1,1,1],\"block\":[16,1,1],\"shared_mem\":0,"
		    "\"outputs\":[],\"inputs\":[{\"name\":\"x\",\"type\":"
		    "\"float32\",\"count\":%d,\"file\":\"x.in.bin\","
		    "\"checksum_before\":\"%s\",\"checksum_after\":\"%s\"}],"
		    "\"times_ms\":[", argv[2], kcase, N, cx, cx);
		for (i = 0; i < reps; i++)
			fprintf(fp, "%s%g", i ? "," : "", tms);
		fprintf(fp, "]%s}\n", reps > 0 ?
		    ",\"timed_outputs_match\":true" : "");
		return fclose(fp) != 0;
	}
	fprintf(fp, "{\"kernel\":\"%s\",\"case\":%d,\"scalars\":{},"
	    "\"grid\":[1,1,1],\"block\":[16,1,1],\"shared_mem\":0,"
	    "\"outputs\":[{\"name\":\"y\",\"type\":\"float32\",\"count\":%d,"
	    "\"bytes\":%zu,\"file\":\"y.bin\",\"checksum\":\"%s\"%s},"
	    "{\"name\":\"k\",\"type\":\"int32\",\"count\":%d,\"bytes\":%zu,"
	    "\"file\":\"k.bin\",\"checksum\":\"%s\"%s}],"
	    "\"inputs\":[{\"name\":\"x\",\"type\":\"float32\",\"count\":%d,"
	    "\"file\":\"x.in.bin\",\"checksum_before\":\"%s\","
	    "\"checksum_after\":\"%s\"}%s],\"times_ms\":[",
	    argv[2], kcase, N, sizeof(y), cy, ty != 0 || yt ?
	    ",\"timed_file\":\"y.timed.bin\"" : "", (int)nk, nk * sizeof(k[0]), ck,
	    kt ? ",\"timed_file\":\"k.timed.bin\"" : "", N, cx, cx2, kin);
	for (i = 0; i < reps; i++)
		fprintf(fp, "%s%g", i ? "," : "", slow5 >= 0 ? (i % 5 < slow5 ?
		    1.2 : 1.0) : tms * (1 + 0.01 * (i % 3)));
	fprintf(fp, "]%s}\n", reps > 0 ? (match ?
	    ",\"timed_outputs_match\":true" :
	    ",\"timed_outputs_match\":false") : "");
	return fclose(fp) != 0;
}
