/*
 * Tokens with their offsets in the source, for the units that rewrite or
 * read the kernel's body by position: mutate.c (mutants) and switches.c
 * (cases for switch-like scalars).  kwrap's own tokens (tok.c) drop the
 * offsets these need.
 */
#ifndef KWRAP_MTOK_H
#define KWRAP_MTOK_H

#include <stddef.h>

enum { M_ID, M_NUM, M_PUNCT };

struct mtok {
	size_t off, len;
	int kind;
};

struct mtoks {
	struct mtok *v;
	size_t n, cap;
};

/* The tokens of s (comments and preprocessor lines dropped; a string or
 * character literal is one M_PUNCT token); free t->v. */
void mt_lex(const char *s, struct mtoks *t);
/* Token i of s is w. */
int mt_is(const char *s, const struct mtoks *t, size_t i, const char *w);
/* Token i of s is a comparison: == != < <= > >=. */
int mt_is_cmp(const char *s, const struct mtoks *t, size_t i);
/* The token that closes the group opened at i, or t->n. */
size_t mt_close(const char *s, const struct mtoks *t, size_t i);
/* The body of kernel's definition: the tokens inside its outermost
 * braces, [*a, *b); 0 when there is none. */
int mt_body(const char *s, const struct mtoks *t, const char *kernel,
    size_t *a, size_t *b);

#endif
