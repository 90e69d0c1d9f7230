/*
 * Grouping by op: the name a user calls a kernel by (scan.op, found by
 * kscan's operator chain), as one more breakdown beside project, dialect
 * and tag.  A run where no record names an op has no such breakdown.
 */
#include <string.h>

#include <jansson.h>

#include "k_record.h"
#include "kreport.h"

struct table t_op;

const char *
op_key(struct info *in)
{
	const char *op = k_get_str(json_object_get(in->rec, "scan"), "op");

	return op != NULL && *op != '\0' ? op : "(none)";
}

int
op_any(void)
{
	size_t i;

	for (i = 0; i < t_op.n; i++)
		if (strcmp(t_op.v[i].key, "(none)") != 0)
			return 1;
	return 0;
}
