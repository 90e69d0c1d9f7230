/*
 * kwrap: parameters passed by value whose type kwrap cannot build.
 *
 * A harness passes each by-value parameter from a host variable of the
 * parameter's size: a scalar of a known dtype, an enum (an int), or a
 * struct of plain scalar members laid out as the slice defines it
 * (model.c's parse_struct).  For any other type the harness has nothing
 * to build the value from, and a stand-in of another size would have the
 * driver copy the kernel's parameter from whatever lies beside it: the
 * kernel would read garbage pointers and sizes.  Such a record gets no
 * harness; its error names the parameter, its type and why.
 */
#include "kwrap.h"

/* The definition of struct or class name in t: the token of its {, or 0. */
static size_t
struct_def(const struct toks *t, const char *name)
{
	size_t i;

	for (i = 0; i + 2 < t->n; i++)
		if ((is(t, i, "struct") || is(t, i, "class")) &&
		    is(t, i + 1, name) && is(t, i + 2, "{"))
			return i + 2;
	return 0;
}

/* Why the members of the struct whose { is at open are not all plain
 * scalars: the first one that is not, into out. */
static void
member_why(struct kern *k, size_t open, char *out, size_t cap)
{
	const struct toks *t = &k->all;
	size_t e = skip_group(t, open), j, s;
	char decl[128];
	long long dummy;

	for (j = open + 1; j + 1 < e;) {
		s = j;
		while (j + 1 < e && !is(t, j, ";"))
			j++;
		{
			struct toks sub = { t->v + s, j - s, 0 };
			join(&sub, 0, sub.n, decl, sizeof(decl));
		}
		if (strchr(decl, '(') != NULL) {
			bprintf(out, cap, "its definition has constructors or "
			    "member functions (%.60s), which kwrap's reading "
			    "of a struct does not pass over", decl);
			return;
		}
		if (j - s < 2 || !is_ident(t->v[j - 1])) {
			bprintf(out, cap, "its member %s is not a plain scalar "
			    "declaration", decl);
			return;
		}
		{
			char type[64];
			struct toks sub = { t->v + s, j - 1 - s, 0 };
			join(&sub, 0, sub.n, type, sizeof(type));
			if (strchr(type, '*') != NULL) {
				bprintf(out, cap, "its member %s is a pointer "
				    "(%s)", t->v[j - 1], type);
				return;
			}
			if (k_dtype_c(type) == NULL &&
			    !const_get(&k->c, type, &dummy)) {
				bprintf(out, cap, "its member %s has type %s, "
				    "not a plain scalar", t->v[j - 1], type);
				return;
			}
		}
		j++;
	}
	bprintf(out, cap, "its members cannot be laid out");
}

/* s without a leading const or typename */
static const char *
bare(const char *s)
{
	for (;;)
		if (strncmp(s, "const ", 6) == 0)
			s += 6;
		else if (strncmp(s, "typename ", 9) == 0)
			s += 9;
		else
			return s;
}

/* Why by-value parameter p (index i) cannot be built, into out. */
static void
param_why(struct kern *k, int i, char *out, size_t cap)
{
	const struct param *p = &k->p[i];
	json_t *prm = json_array_get(json_object_get(json_object_get(k->rec,
	    "scan"), "params"), (size_t)i);
	const char *canon = k_get_str(prm, "canonical_type");
	size_t open;
	int lanes;

	if (strstr(p->type, "TensorAccessor") != NULL)
		bprintf(out, cap, "a tensor accessor (a data pointer with "
		    "sizes and strides) that kwrap does not lay out");
	else if (strstr(p->type, "TextureObject") != NULL ||
	    strstr(p->type, "SurfaceObject") != NULL)
		bprintf(out, cap, "a handle of a texture or surface object that "
		    "the harness does not create");
	else if (strstr(p->type, "...") != NULL)
		bprintf(out, cap, "a parameter pack");
	else if (canon != NULL && strncmp(bare(canon), "type-parameter",
	    14) == 0)
		bprintf(out, cap, "a template type parameter that the "
		    "instance does not bind to a type kwrap knows");
	else if (vector_dtype(p->type, &lanes) != NULL)
		bprintf(out, cap, "a CUDA vector type, which kwrap does not "
		    "pass by value");
	else if ((open = struct_def(&k->all, p->type)) != 0)
		member_why(k, open, out, cap);
	else if (strchr(p->type, '<') != NULL)
		bprintf(out, cap, "a class template instance with no "
		    "definition kwrap can lay out");
	else
		bprintf(out, cap, "no definition of it in the slice as a "
		    "struct of plain scalar members");
}

int
byvalue_unbuilt(struct kern *k, char *why, size_t cap)
{
	char reason[256];
	int i;

	for (i = 0; i < k->np; i++) {
		const struct param *p = &k->p[i];
		if (p->ptr || p->dt != NULL || p->is_struct || p->is_enum)
			continue;
		param_why(k, i, reason, sizeof(reason));
		bprintf(why, cap, "parameter %s (%s) is passed by value and "
		    "kwrap cannot build it: %s; no harness, which would pass "
		    "the kernel a value of the wrong size", p->name,
		    p->spelled[0] != '\0' ? p->spelled : p->type, reason);
		return -1;
	}
	return 0;
}
