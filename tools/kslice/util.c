/*
 * kslice: identifier substitution.
 */
#include "kslice.h"

struct kslice_opt opt;

int
is_ident_char(int c)
{
	return c == '_' || isalnum((unsigned char)c);
}

/* s with every identifier that names a key of map replaced by its value. */
char *
subst_idents(const char *s, json_t *map)
{
	struct k_buf b = KSLICE_BUF;
	const char *p = s, *q;

	k_buf_add(&b, "");
	while (*p != '\0') {
		if (is_ident_char(*p) && !isdigit((unsigned char)*p)) {
			char name[256];
			json_t *v;
			for (q = p; is_ident_char(*q); q++)
				;
			snprintf(name, sizeof(name), "%.*s", (int)(q - p), p);
			v = (size_t)(q - p) < sizeof(name) ?
			    json_object_get(map, name) : NULL;
			if (json_is_string(v))
				k_buf_add(&b, json_string_value(v));
			else
				k_buf_addn(&b, p, q - p);
			p = q;
		} else if (isdigit((unsigned char)*p)) {
			for (q = p; is_ident_char(*q) || *q == '.'; q++)
				;
			k_buf_addn(&b, p, q - p);
			p = q;
		} else if (*p == '"' || *p == '\'') {
			char quote = *p;
			for (q = p + 1; *q != '\0' && *q != quote; q++)
				if (*q == '\\' && q[1] != '\0')
					q++;
			if (*q != '\0')
				q++;
			k_buf_addn(&b, p, q - p);
			p = q;
		} else
			k_buf_addn(&b, p++, 1);
	}
	return b.s;
}
