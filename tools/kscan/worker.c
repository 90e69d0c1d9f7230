/*
 * Units are parsed in forked workers; their replies come back as JSON.
 */
#include "kscan.h"

/* ------------------------------------------------------------ workers */

/*
 * Units are scanned in forked workers, -j at a time: libclang can crash on
 * a file in a way its crash recovery does not catch (a stack overflow), or
 * run for ever on one (exponential template instantiation), and either
 * must cost that file, not the run.
 */

static json_t *
strv_json(const struct k_strv *s)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < s->n; i++)
		json_array_append_new(a, k_string_lossy(s->v[i],
		    strlen(s->v[i])));
	return a;
}

static void
strv_from_json(struct k_strv *s, json_t *a)
{
	json_t *v;
	size_t i;

	k_strv_free(s);
	json_array_foreach(a, i, v)
		if (json_is_string(v))
			k_strv_push(s, json_string_value(v));
}

/* The worker: scan the units whose indexes arrive on in; reply with what
 * scan_unit found, as one line. */
static void
serve(FILE *in, void *arg)
{
	CXIndex idx = clang_createIndex(0, 0);
	char line[64];
	json_t *r;
	size_t i;

	(void)arg;
	while (fgets(line, sizeof(line), in) != NULL) {
		struct unit *u;
		long long v;

		line[strcspn(line, "\n")] = '\0';
		if (nunits == 0 || k_num_ll(line, 10, 0, (long long)nunits - 1,
		    &v) != 0)
			break;
		i = (size_t)v;
		u = &units[i];
		scan_unit(idx, u);
		r = json_object();
		json_object_set(r, "kernels", u->kernels);
		json_object_set(r, "launches", u->launches);
		json_object_set(r, "errors", u->errors);
		if (u->chain != NULL)
			json_object_set(r, "chain", u->chain);
		json_object_set_new(r, "seen", strv_json(&u->seen));
		json_object_set_new(r, "flags", strv_json(&u->flags));
		cache_store(u, r);
		if (json_dumpf(r, stdout, JSON_COMPACT) != 0 ||
		    fputs("\n\n", stdout) == EOF || fflush(stdout) != 0)
			_exit(K_EXIT_IO);
		json_decref(r);
		/* the parent keeps the results */
		json_array_clear(u->kernels);
		json_array_clear(u->launches);
	}
	clang_disposeIndex(idx);
}

/* A worker's reply, or a cached one, into its unit; r is borrowed. */
static void
take_reply(struct unit *u, json_t *r)
{
	json_t *k = json_object_get(r, "kernels");
	json_t *l = json_object_get(r, "launches");
	json_t *e = json_object_get(r, "errors");

	if (!json_is_array(k) || !json_is_array(l) || !json_is_array(e)) {
		input_error(u, u->path, "parse-failed",
		    "parse failed: unreadable reply from the parsing process");
		return;
	}
	json_array_extend(u->kernels, k);
	json_array_extend(u->launches, l);
	json_array_extend(u->errors, e);
	strv_from_json(&u->seen, json_object_get(r, "seen"));
	strv_from_json(&u->flags, json_object_get(r, "flags"));
	if (json_is_object(json_object_get(r, "chain"))) {
		json_decref(u->chain);
		u->chain = json_incref(json_object_get(r, "chain"));
	}
}

/* Largest first (ties in the order the units came), so that the last unit
 * a worker takes is a small one and the others do not wait for it. */
static int
by_weight(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (units[i].weight != units[j].weight)
		return units[i].weight > units[j].weight ? -1 : 1;
	return i < j ? -1 : i > j;
}

void
run_units(size_t from)
{
	struct k_worker *w;
	size_t *job, *order, i, n = (size_t)opt.jobs, norder = 0, next = 0;
	enum k_worker_event ev;
	struct unit *u;
	char req[32];
	long k;

	w = k_calloc(n, sizeof(*w));
	job = k_calloc(n, sizeof(*job));
	order = k_calloc(nunits - from + 1, sizeof(*order));
	/* the progress line counts files, not the records written at the end */
	k_progress_unit("files");
	for (i = from; i < nunits; i++)
		if (units[i].path[0] != '\0')
			k_progress_more(1);
	/* before any worker forks: the workers keep the units' keys and the
	 * include directories resolving their quoted includes adds */
	for (i = from; i < nunits; i++) {
		json_t *r = cache_lookup(&units[i]);
		if (r != NULL) {
			take_reply(&units[i], r);
			units[i].done = 1;
			json_decref(r);
			k_progress_add(1);
		} else if (units[i].path[0] != '\0') {
			units[i].weight = unit_weight(&units[i]);
			order[norder++] = i;
		}
	}
	qsort(order, norder, sizeof(*order), by_weight);
	for (;;) {
		/* every idle worker takes the next unit, its precompiled
		 * headers made first (here, so that no two workers make the
		 * same ones) */
		for (i = 0; i < n; i++) {
			if (w[i].busy || next >= norder)
				continue;
			u = &units[order[next]];
			if (u->key[0] != '\0')
				prepare_pch(u, u->dialect);
			if (w[i].pid == 0 && k_worker_start(&w[i], serve,
			    NULL) != 0)
				k_fatal(K_EXIT_SYSTEM, NULL,
				    "cannot start a parsing process: %s",
				    strerror(errno));
			snprintf(req, sizeof(req), "%zu\n", order[next]);
			if (k_worker_send(&w[i], req, strlen(req)) != 0)
				k_fatal(K_EXIT_SYSTEM, NULL,
				    "cannot reach a parsing process: %s",
				    strerror(errno));
			job[i] = order[next++];
		}
		/* the next unit's while the workers parse */
		if (next < norder && units[order[next]].key[0] != '\0')
			prepare_pch(&units[order[next]],
			    units[order[next]].dialect);
		if ((k = k_worker_wait(w, n, opt.timeout, &ev)) < 0) {
			for (i = 0; i < n; i++)
				if (w[i].busy)
					k_fatal(K_EXIT_SYSTEM, NULL, "waiting "
					    "for a parsing process: %s",
					    strerror(errno));
			break;
		}
		u = &units[job[k]];
		if (ev == K_WORKER_REPLY) {
			json_t *r = json_loads(w[k].buf, 0, NULL);
			take_reply(u, r);
			json_decref(r);
		} else if (ev == K_WORKER_TIMEOUT)
			input_error(u, u->path, "parse-timeout",
			    "parse failed: no result after %g s (--timeout)",
			    opt.timeout);
		else
			input_error(u, u->path, "parse-crashed",
			    "parse failed: the parsing process was %s",
			    k_worker_how(&w[k]));
		k_progress_add(1);
	}
	for (i = 0; i < n; i++)
		k_worker_stop(&w[i]);
	free(w);
	free(job);
	free(order);
}
