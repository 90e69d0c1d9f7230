/*
 * The gate of one GPU (-j: the workers that share it).  Runs that check
 * outputs share the GPU; a timing has it alone, so it waits for the runs
 * under way to end (the drain), and no shared run starts until it has
 * ended.
 *
 * A drain costs the GPU: while it lasts, fewer and fewer runs are under
 * way, and none starts.  A lock that drains for every timing as soon as
 * it is asked for (a writer-preferring read-write lock, kverify before
 * benchmark 74) drains once a record; on mmcv's records the workers of a
 * GPU then spent 70% of their time waiting, and the GPU ran 1.2 checks
 * at a time on average of the 8 it could.  So the gate gathers timings:
 * a timing that finds runs under way waits, while shared runs go on
 * starting, until `batch` timings wait or the first has waited `delay`
 * seconds; then the gate drains once and the waiting timings go one after
 * the other, each alone, before shared runs start again.  A timing that
 * finds the GPU idle goes at once.  Each timing still has the GPU alone
 * from its first timed run to its last (timing.c: gpu_hold).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "kverify.h"

void
gate_init(struct gate *g, int batch, double delay)
{
	pthread_condattr_t a;

	memset(g, 0, sizeof(*g));
	if (pthread_mutex_init(&g->m, NULL) != 0 ||
	    pthread_condattr_init(&a) != 0 ||
	    pthread_condattr_setclock(&a, CLOCK_MONOTONIC) != 0 ||
	    pthread_cond_init(&g->shared_cv, &a) != 0 ||
	    pthread_cond_init(&g->alone_cv, &a) != 0)
		k_fatal(K_EXIT_SYSTEM, NULL, "cannot make a lock");
	pthread_condattr_destroy(&a);
	g->batch = batch < 1 ? 1 : batch;
	g->delay = delay < 0 ? 0 : delay;
}

void
gate_enter(struct gate *g, int alone)
{
	struct timespec until;
	double t;

	pthread_mutex_lock(&g->m);
	if (!alone) {
		while (g->alone || g->draining)
			pthread_cond_wait(&g->shared_cv, &g->m);
		g->shared++;
		pthread_mutex_unlock(&g->m);
		return;
	}
	if (++g->waiting >= g->batch)
		g->draining = 1;
	/* k_now's clock is the condition's (gate_init) */
	t = k_now() + g->delay;
	until.tv_sec = (time_t)t;
	until.tv_nsec = (long)((t - floor(t)) * 1e9);
	while (g->alone || g->shared > 0) {
		if (g->draining)
			pthread_cond_wait(&g->alone_cv, &g->m);
		else if (pthread_cond_timedwait(&g->alone_cv, &g->m,
		    &until) == ETIMEDOUT)
			g->draining = 1;
	}
	g->waiting--;
	g->alone = 1;
	pthread_mutex_unlock(&g->m);
}

void
gate_leave(struct gate *g, int alone)
{
	pthread_mutex_lock(&g->m);
	if (alone) {
		g->alone = 0;
		/* the batch served, shared runs again; timings that have
		 * not yet drained wait on, shared runs starting beside them */
		if (g->waiting == 0)
			g->draining = 0;
		else
			pthread_cond_broadcast(&g->alone_cv);
		if (!g->draining)
			pthread_cond_broadcast(&g->shared_cv);
	} else if (--g->shared == 0 && g->waiting > 0)
		pthread_cond_broadcast(&g->alone_cv);
	pthread_mutex_unlock(&g->m);
}
