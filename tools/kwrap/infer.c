/*
 * kwrap: inference, once per record: the kernel model from the record's
 * scan and slice, then its roles, launch, bounds and element counts.
 */
#include "kwrap.h"

/* The kernel model of rec with values read as indices from data_lo; the
 * scatter indices of from (scatter.c), when given, filled with distinct
 * values as many as the counts from found. */
static struct kern *
infer_at(json_t *rec, int data_lo, const struct kern *from)
{
	json_t *scan = json_object_get(rec, "scan");
	json_t *slice = json_object_get(rec, "slice");
	json_t *launch;
	struct kern *k;
	int i;

	k = k_calloc(1, sizeof(*k));
	k->rec = rec;
	k->data_lo = data_lo;
	k->guesses = json_array();
	k->code = k_get_str(slice, "code");
	tokenize(k->code != NULL ? k->code : "", &k->all);
	collect_consts(k->code != NULL ? k->code : "", &k->all, &k->c);
	{
		/* template value parameters of the instance are constants */
		json_t *inst = json_object_get(slice, "instance"), *v;
		const char *key;
		long long n;
		json_object_foreach(inst, key, v)
			if (json_is_string(v) &&
			    eval_str(json_string_value(v), &k->c, &n))
				const_set(&k->c, key, n);
	}
	load_params(k, scan, slice);
	for (i = 0; from != NULL && i < k->np && i < from->np; i++)
		if (from->p[i].scatter) {
			k->p[i].distinct = 1;
			copy(k->p[i].dcount, sizeof(k->p[i].dcount),
			    from->p[i].count);
		}
	kernel_text(k, k_get_str(scan, "text"));
	expand_loop_macros(k->code, &k->t);
	for (k->body = 0; k->body < k->t.n && !is(&k->t, k->body, "{");
	    k->body++)
		;
	if (k->body == k->t.n)
		k->body = 0;
	accessor_text(k);
	byvalue_members(k);
	byvalue_void_params(k);
	/* the kernel's own constants once its template arguments are
	 * known: constexpr int W = 1 << LOG2; set last, they win over
	 * namesakes elsewhere in the slice */
	collect_range(&k->t, k->body, k->t.n, &k->c);
	find_vars(k);
	if (k->t.n == 0)
		guess(k, "kernel text not found");
	infer_roles(k, slice);
	texture_params(k);
	launch = json_object_get(slice, "launch");
	if (!json_is_object(launch))
		launch = json_array_get(json_object_get(scan, "launches"), 0);
	k->site = launch_site(rec, launch, &k->c);
	site_conditions(k);
	infer_block(k, launch);
	/* a guard's bound may name gridDim, and the grid is the bounds'
	 * range: rounds until no new bound comes */
	for (i = 0; i < 8; i++) {
		infer_grid(k, 0);
		if (find_bounds(k) == 0)
			break;
	}
	infer_grid(k, 1);
	grid_divisions(k);
	infer_shared(k, launch);
	k->at = k_calloc(1, sizeof(*k->at));
	if (is(&k->t, k->body, "{"))
		k->kf = fn_new(k, &k->t, k->body, 0, 1);
	{
		const char *dom = NULL;
		int n;
		for (n = 0; n < k->nv; n++)
			if (k->v[n].kind == V_GLOBAL && k->v[n].bound[0] != '\0') {
				dom = k->v[n].bound;
				break;
			}
		for (i = 0; i < k->np; i++)
			if (k->p[i].ptr && !accessor_buffer(k, i))
				count_of(k, i, dom);
		accessor_counts(k);
		accessor_indices(k);
		shared_of(k);
		index_limits(k);
	}
	zeroed_outputs(k);
	/* after: an output that starts zeroed keeps its fill of 0 */
	text_outputs(k);
	find_strides(k);
	return k;
}

/* The kernel model of rec (borrowed, and kept borrowed by the model).
 * Values read from a buffer and used as indices are taken to be 0..3;
 * where that lets an access fall below element 0 (x[v - 1]: indices
 * from 1), 1..4 when it keeps more accesses above it; where they pick
 * where a plain store lands, distinct (scatter.c). */
struct kern *
kern_infer(json_t *rec)
{
	struct kern *k = infer_at(rec, 0, NULL), *k1;
	int i, vals = 0;

	for (i = 0; i < k->np; i++)
		vals |= k->p[i].vals;
	if (k->below > 0 && vals) {
		k1 = infer_at(rec, 1, NULL);
		if (k1->below >= k->below)
			kern_free(k1);
		else {
			kern_free(k);
			k = k1;
		}
	}
	/* once more where an index buffer picks where plain stores land:
	 * its values distinct, bounded by its count */
	if (scatter_indices(k) > 0) {
		k1 = infer_at(rec, k->data_lo, k);
		kern_free(k);
		k = k1;
	}
	return k;
}

void
kern_free(struct kern *k)
{
	int i;

	if (k == NULL)
		return;
	for (i = 0; i < k->np; i++)
		free(k->p[i].f);
	free(k->p);
	free(k->v);
	consts_free(&k->c);
	toks_free(&k->t);
	toks_free(&k->all);
	json_decref(k->guesses);
	if (k->kf != NULL)
		fn_free(k->kf);
	free(k->at);
	free(k);
}
