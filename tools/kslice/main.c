/*
 * kslice: cut each kernel that kscan found out of its code base into one
 * translation unit that compiles on its own, one record per instantiation.
 *
 * The kernel's translation unit is parsed again with libclang; the
 * dependency closure is walked on the AST (declarations) and on the
 * preprocessing record (macros), and emitted as the original source text in
 * source order.  Framework headers resolve to stub headers (stubs/), whose
 * text is inlined where the slice needs them.
 */
#include <sys/stat.h>

#include "k_fs.h"
#include "k_main.h"
#include "kslice.h"

/*
 * Records are sliced in a forked worker that keeps its parse cache from
 * record to record: libclang can crash on a file in a way its crash
 * recovery does not catch, or never finish one, and either must cost that
 * record, not the run.  A worker that dies or runs past --timeout is
 * killed; the next record starts a new one.
 */
#define MAX_JOBS 256
static struct k_worker workers[MAX_JOBS];
static int jobs = 1;	/* -j: records sliced at once, each in its worker */

/* A request carries the record's input position under this key, so
 * that the worker's messages name it too; the worker takes it out. */
#define AT_KEY "#kslice-at"

/* The worker: records arrive one a line; each one's output records go
 * back, then an empty line. */
static void
serve(FILE *in, void *arg)
{
	struct k_reader r;
	json_t *rec, *out;
	int bad;

	(void)arg;
	opt.idx = clang_createIndex(0, 0);
	k_reader_init(&r, in, "<kslice>", STAGE);
	while (k_read(&r, &rec, &bad) == 1) {
		static char name[512];
		json_t *at = json_object_get(rec, AT_KEY);
		if (json_is_array(at)) {
			snprintf(name, sizeof(name), "%s",
			    json_string_value(json_array_get(at, 0)));
			k_msg_at(name, (unsigned long)json_integer_value(
			    json_array_get(at, 1)));
		} else
			k_msg_at(NULL, 0);
		json_object_del(rec, AT_KEY);
		out = bad ? rec : process(rec, NULL);
		if (k_write(out) != 0 || fputs("\n", stdout) == EOF ||
		    fflush(stdout) != 0)
			_exit(K_EXIT_IO);
		json_decref(out);
	}
	k_reader_free(&r);
	free_cache();
	clang_disposeIndex(opt.idx);
}

/* The worker's reply: every record but the last is written here, the last
 * returned; NULL when a line is not a record. */
static json_t *
take_reply(char *text, struct memo_pending *memo)
{
	json_t *out = NULL;
	char *line, *nl;

	for (line = text; *line != '\0'; line = nl + 1) {
		if ((nl = strchr(line, '\n')) == NULL)
			break;
		*nl = '\0';
		if (out != NULL) {
			if (k_has_errors(out))
				k_exit_raise(K_EXIT_RECORDS);
			memo_add(memo, out);
			if (k_write(out) != 0) {
				json_decref(out);
				k_fatal(K_EXIT_IO, NULL, "write error");
			}
			json_decref(out);
		}
		if ((out = json_loads(line, 0, NULL)) == NULL)
			return NULL;
	}
	return out;
}

/* Send rec to worker w (started if need be); it stays the caller's. */
static void
send_record(struct k_worker *wp, json_t *rec)
{
	const char *at;
	unsigned long at_line;
	char *line;
	size_t len;
	int tries;

	if ((at = k_msg_where(&at_line)) != NULL)
		json_object_set_new(rec, AT_KEY, json_pack("[s,I]", at,
		    (json_int_t)at_line));
	line = json_dumps(rec, JSON_COMPACT);
	json_object_del(rec, AT_KEY);
	if (line == NULL)
		k_oom();
	len = strlen(line);
	line[len] = '\n';	/* over the terminating NUL, not past it */
	for (tries = 0;; tries++) {
		if (wp->pid == 0 && k_worker_start(wp, serve, NULL) != 0)
			k_fatal(K_EXIT_SYSTEM, NULL,
			    "cannot start a slicing process: %s",
			    strerror(errno));
		if (k_worker_send(wp, line, len + 1) == 0)
			break;
		/* it died between records: once more with a new one */
		k_worker_stop(wp);
		if (tries > 0)
			k_fatal(K_EXIT_SYSTEM, NULL,
			    "cannot reach a slicing process: %s",
			    strerror(errno));
	}
	free(line);
}

/* The reply of worker w to rec (steals rec): the records it made, all
 * but the last written here; rec with an error when w failed it. */
static json_t *
take_result(struct k_worker *wp, json_t *rec, struct memo_pending *memo)
{
	enum k_worker_event ev;
	json_t *out;

	if (k_worker_wait(wp, 1, opt.timeout, &ev) < 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "waiting for the slicing "
		    "process: %s", strerror(errno));
	if (ev == K_WORKER_REPLY && (out = take_reply(wp->buf,
	    memo)) != NULL) {
		json_decref(rec);
		return out;
	}
	if (ev == K_WORKER_REPLY) {
		k_worker_stop(wp);
		k_fail(rec, STAGE, "slice-crashed", "%s: unreadable reply "
		    "from the slicing process", k_id_text(rec));
	} else if (ev == K_WORKER_TIMEOUT)
		k_fail(rec, STAGE, "slice-timeout", "%s: parse failed: no "
		    "result after %g s (--timeout)", k_id_text(rec),
		    opt.timeout);
	else
		k_fail(rec, STAGE, "slice-crashed", "%s: parse failed: the "
		    "slicing process was %s", k_id_text(rec),
		    k_worker_how(wp));
	return rec;
}

static json_t *
process_isolated(json_t *rec, void *ctx)
{
	struct memo_pending memo;
	json_t *out;

	(void)ctx;
	if ((out = memo_replay(rec)) != NULL)
		return memo_write_all_but_last(out);
	memo_begin(&memo, rec);
	send_record(&workers[0], rec);
	out = take_result(&workers[0], rec, &memo);
	memo_end(&memo, out);
	return out;
}

/* -j: up to jobs records at once, one a worker, written in input order
 * (each record's instantiations together, as with one). */
static void
filter_jobs(FILE *fp, const char *name)
{
	struct {
		json_t *rec;
		json_t *outs;	/* the memo's records for it */
		int bad;
		unsigned long line;
		struct memo_pending memo;
	} win[MAX_JOBS];
	struct k_reader r;
	int n, j, rc = 1, stop = 0;

	k_reader_init(&r, fp, name, STAGE);
	while (rc == 1 && !stop) {
		for (n = 0; n < jobs && (rc = k_read(&r, &win[n].rec,
		    &win[n].bad)) == 1; n++) {
			win[n].line = r.lineno;
			win[n].outs = NULL;
			win[n].memo.in = NULL;
			if (win[n].bad)
				continue;
			k_msg_at(name, win[n].line);
			if ((win[n].outs = memo_replay(win[n].rec)) == NULL) {
				memo_begin(&win[n].memo, win[n].rec);
				send_record(&workers[n], win[n].rec);
			}
			k_msg_at(NULL, 0);
		}
		for (j = 0; j < n; j++) {
			json_t *out = win[j].rec;
			if (win[j].outs != NULL) {
				size_t x;
				json_array_foreach(win[j].outs, x, out) {
					if (!stop && k_has_errors(out))
						k_exit_raise(K_EXIT_RECORDS);
					if (!stop && k_write(out) != 0)
						stop = 1;
				}
				json_decref(win[j].outs);
				continue;
			}
			if (!win[j].bad && !stop) {
				k_msg_at(name, win[j].line);
				out = take_result(&workers[j], out,
				    &win[j].memo);
				memo_end(&win[j].memo, out);
				k_msg_at(NULL, 0);
			} else if (!win[j].bad) {
				/* a write failed: the rest is not waited for */
				k_worker_stop(&workers[j]);
				memo_drop(&win[j].memo);
			}
			if (!stop && k_has_errors(out))
				k_exit_raise(K_EXIT_RECORDS);
			if (!stop && k_write(out) != 0)
				stop = 1;
			json_decref(out);
		}
	}
	k_reader_free(&r);
}

/* One input: through the worker, or -j workers. */
static void
filter(FILE *fp, const char *name)
{
	if (jobs > 1)
		filter_jobs(fp, name);
	else
		k_filter(fp, name, STAGE, process_isolated, NULL);
}

static void
add_stubdir(const char *dir, int user)
{
	char real[PATH_MAX];
	struct stat st;

	if (realpath(dir, real) == NULL || stat(real, &st) != 0 ||
	    !S_ISDIR(st.st_mode)) {
		if (user)
			k_fatal(K_EXIT_USAGE, NULL, "--stubs: %s: %s", dir,
			    strerror(errno ? errno : ENOTDIR));
		return;
	}
	if (!k_strv_has(&opt.stubdirs, real))
		k_strv_push(&opt.stubdirs, real);
}

/* Our own stubs: $KFORGE_STUBS, else stubs/ next to the program, else the
 * installed share directory. */
static void
default_stubs(void)
{
	char *dirs[2];
	int i, n = k_data_dirs("KFORGE_STUBS", "stubs", dirs);

	for (i = 0; i < n; i++) {
		add_stubdir(dirs[i], 0);
		free(dirs[i]);
	}
}

static const char *root, *cuda;

static void
option(int ch, const char *arg, void *ctx)
{
	(void)ctx;
	switch (ch) {
	case 'C':
		cuda = arg;
		break;
	case 'j':
		jobs = (int)k_opt_ll("-j", arg, 1, MAX_JOBS);
		break;
	case 'R':
		root = arg;
		break;
	case 'S':
		add_stubdir(arg, 1);
		break;
	case 't':
		set_types(arg);
		break;
	case 'T':
		opt.timeout = k_seconds_arg("--timeout", arg);
		break;
	case 'M':
		k_worker_mem(k_mib_arg("--mem", arg));
		break;
	case 'N':
		opt.no_cache = 1;
		break;
	case 'w':
		opt.work = arg;
		break;
	}
}

static const struct option longopts[] = {
	{ "cuda-path", required_argument, NULL, 'C' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "mem", required_argument, NULL, 'M' },
	{ "no-cache", no_argument, NULL, 'N' },
	{ "root", required_argument, NULL, 'R' },
	{ "stubs", required_argument, NULL, 'S' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "types", required_argument, NULL, 't' },
	{ "work", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 }
};

static const struct k_tool tool = {
	.usage =
	    "usage: kslice [-hqV] [-j jobs] [--cuda-path dir] [--mem mib] [--no-cache]\n"
	    "              [--root dir] [--stubs dir] [--timeout seconds] [--types list]\n"
	    "              [--work dir] [file ...]\n",
	.shortopts = "j:",
	.longopts = longopts,
	.option = option,
	.version = k_clang_version,
	.min_operands = 0,
	.max_operands = -1,
};

int
main(int argc, char *argv[])
{
	int i;

	set_types("float");
	opt.timeout = K_PARSE_TIMEOUT;
	k_worker_mem(K_PARSE_MEM_MB);
	i = k_main(argc, argv, &tool, NULL);
	argc -= i;
	argv += i;
	opt.root_given = root != NULL;
	if (getcwd(opt.cwd, sizeof(opt.cwd)) == NULL)
		k_fatal(K_EXIT_SYSTEM, NULL, "cannot tell the current "
		    "directory: %s", strerror(errno));
	if (realpath(root != NULL ? root : ".", opt.root) == NULL)
		k_fatal(K_EXIT_USAGE, NULL, "--root: %s: %s", root,
		    strerror(errno));
	default_stubs();
	k_find_cuda(cuda);
	k_make_prelude("kslice");
	if (!opt.no_cache && k_pcache_open(&opt.pch, k_work_name(opt.work),
	    "pch") != 0)
		k_warn(K_EXIT_OK, k_work_name(opt.work), "cannot use as work "
		    "directory, parsing without precompiled headers: %s",
		    strerror(errno));

	if (argc == 0)
		filter(stdin, "<stdin>");
	for (i = 0; i < argc; i++) {
		FILE *fp;
		if (strcmp(argv[i], "-") == 0) {
			filter(stdin, "<stdin>");
			continue;
		}
		if ((fp = fopen(argv[i], "r")) == NULL) {
			k_warn(K_EXIT_IO, argv[i], "%s", strerror(errno));
			continue;
		}
		filter(fp, argv[i]);
		fclose(fp);
	}
	for (i = 0; i < jobs; i++)
		k_worker_stop(&workers[i]);
	memo_clear();
	k_strv_free(&opt.stubdirs);
	k_strv_free(&opt.types);
	k_strv_free(&opt.typenames);
	k_pcache_close(&opt.pch);
	return k_finish();
}
