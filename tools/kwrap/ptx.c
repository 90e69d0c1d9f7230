/*
 * kwrap: what inline PTX does to a pointer.  A kernel or its helper that
 * loads and stores through asm (asm volatile("st.global.v4.u32 [%0],
 * {%1, %2, %3, %4};" :: "l"(dst), ...)) names the pointer only as an
 * operand; the template says what is done to it: the operand addressed
 * ([%0], [%0+16]) by an ld or ldu is read, by an st written, by
 * an atom or red read and written, and by a cp (cp.async: the first
 * address is where it copies to, the second where from) written or read;
 * and how many bytes from the address: the instruction's vector and type
 * (ld.global.v4.u32: 16), or a cp's size operand (cp.async.ca.shared.global
 * [%0], [%1], 16).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kwrap.h"

static int
is_lit(const struct toks *t, size_t i)
{
	return i < t->n && t->v[i][0] == '"';
}

static int
is_asm(const char *s)
{
	return strcmp(s, "asm") == 0 || strcmp(s, "__asm__") == 0 ||
	    strcmp(s, "__asm") == 0;
}

/* The template's text: its literals joined, escapes \n and \t read. */
static void
template_text(const struct toks *t, size_t a, size_t b, char *out, size_t cap)
{
	size_t i, o = 0;
	const char *s;

	for (i = a; i < b && is_lit(t, i); i++)
		for (s = t->v[i] + 1; *s != '\0' && o + 1 < cap; s++) {
			if (*s == '"' && s[1] == '\0')
				break;
			if (*s == '\\' && s[1] != '\0') {
				s++;
				/* a line ends an instruction as ; does */
				out[o++] = *s == 'n' ? ';' :
				    *s == 't' ? ' ' : *s;
			} else
				out[o++] = *s;
		}
	out[o] = '\0';
}

/* The bytes an instruction's type suffixes move (.v4 and .u32: 16); 0
 * when it names no type kwrap knows. */
static int
type_bytes(const char *op, size_t len)
{
	static const struct {
		const char *sfx;
		int bytes;
	} ty[] = {
		{ ".b8", 1 }, { ".u8", 1 }, { ".s8", 1 },
		{ ".b16", 2 }, { ".u16", 2 }, { ".s16", 2 }, { ".f16", 2 },
		{ ".bf16", 2 }, { ".f16x2", 4 }, { ".bf16x2", 4 },
		{ ".b32", 4 }, { ".u32", 4 }, { ".s32", 4 }, { ".f32", 4 },
		{ ".b64", 8 }, { ".u64", 8 }, { ".s64", 8 }, { ".f64", 8 },
		{ ".b128", 16 },
	};
	const char *p = op, *e = op + len, *q;
	size_t k, l;
	int bytes = 0, vec = 1;

	while (p < e && (p = memchr(p, '.', (size_t)(e - p))) != NULL) {
		for (q = p + 1; q < e && *q != '.'; q++)
			;
		l = (size_t)(q - p);
		if (l >= 3 && p[1] == 'v' && isdigit((unsigned char)p[2]))
			vec = p[2] - '0';
		for (k = 0; k < sizeof(ty) / sizeof(ty[0]); k++)
			if (strlen(ty[k].sfx) == l &&
			    strncmp(ty[k].sfx, p, l) == 0)
				bytes = ty[k].bytes;
		p = q;
	}
	return bytes * vec;
}

/* What instruction ins (one, its predicate and braces taken off) does to
 * the operand it addresses as ref ("%0"): rd and wr set,
 * *bytes the most it moves from there (0: not known). */
static void
instruction(const char *ins, const char *ref, int *rd, int *wr, int *bytes)
{
	const char *p = ins, *q, *c;
	size_t rl = strlen(ref), ol;
	int nth = 0, b;

	while (*p == ' ' || *p == '{' || *p == '}')
		p++;
	if (*p == '@')
		while (*p != '\0' && *p != ' ')
			p++;
	while (*p == ' ')
		p++;
	ol = strcspn(p, " ");
	for (q = p; (q = strchr(q, '[')) != NULL; q++, nth++) {
		const char *r = q + 1;
		while (*r == ' ')
			r++;
		if (strncmp(r, ref, rl) != 0 || isdigit((unsigned char)r[rl]))
			continue;
		b = type_bytes(p, ol);
		if (strncmp(p, "ld.", 3) == 0 || strncmp(p, "ldu.", 4) == 0)
			*rd = 1;
		else if (strncmp(p, "st.", 3) == 0)
			*wr = 1;
		else if (strncmp(p, "atom.", 5) == 0 ||
		    strncmp(p, "red.", 4) == 0)
			*rd = *wr = 1;
		else if (strncmp(p, "cp.", 3) == 0) {
			if (nth == 0)
				*wr = 1;
			else
				*rd = 1;
			/* cp.async ... [dst], [src], size */
			b = 0;
			if ((c = strchr(q, ']')) != NULL &&
			    (c = strchr(c, ',')) != NULL && nth == 0)
				c = strchr(c + 1, ',');
			if (c != NULL) {
				c++;
				while (*c == ' ')
					c++;
				if (isdigit((unsigned char)*c))
					b = atoi(c);
			}
		} else
			continue;
		if (b > *bytes)
			*bytes = b;
	}
}

/*
 * Token i lies in an operand of an asm statement ("l"(p + j)): 1 and *rd,
 * *wr from the instructions that address that operand, when one does;
 * else 0 (a pointer moved into a register and used there cannot be
 * followed).  lo: the first token that may belong to the statement.
 */
int
asm_access(const struct toks *t, size_t lo, size_t i, int *rd, int *wr)
{
	int bytes = 0;

	return asm_operand(t, lo, i, rd, wr, &bytes);
}

/* As asm_access, with the bytes the instructions move from the operand's
 * address into *bytes (0: not known). */
int
asm_operand(const struct toks *t, size_t lo, size_t i, int *rd, int *wr,
    int *bytes)
{
	char text[4096], ref[16], *ins, *save;
	size_t j, o = 0, op = 0, c;
	int depth = 0, sect = 0, n = 0, found = -1, r = 0, w = 0;

	/* the operand's parentheses: a ( after its constraint literal */
	for (j = i; j > lo; j--) {
		if (is(t, j - 1, ")"))
			depth++;
		else if (is(t, j - 1, "(") && depth > 0)
			depth--;
		else if (is(t, j - 1, "(") && is_lit(t, j - 2)) {
			o = j - 1;
			break;
		} else if (is(t, j - 1, ";") || is(t, j - 1, "{") ||
		    is(t, j - 1, "}"))
			return 0;
	}
	if (o == 0)
		return 0;
	/* the statement: asm [volatile] ( */
	for (j = o, depth = 0; j > lo; j--) {
		if (is(t, j - 1, ")"))
			depth++;
		else if (is(t, j - 1, "(") && depth-- == 0) {
			op = j - 1;
			break;
		} else if (is(t, j - 1, ";") || is(t, j - 1, "{") ||
		    is(t, j - 1, "}"))
			return 0;
	}
	if (op == 0 || !(is_asm(t->v[op - 1]) || (op >= 2 &&
	    (is(t, op - 1, "volatile") || is(t, op - 1, "__volatile__")) &&
	    is_asm(t->v[op - 2]))))
		return 0;
	c = skip_group(t, op) - 1;
	template_text(t, op + 1, c, text, sizeof(text));
	/* number the operands: outputs, then inputs */
	for (j = op + 1; j < c && is_lit(t, j); j++)
		;
	for (; j < c && sect < 3; j++) {
		if (is(t, j, ":")) {
			sect++;
			continue;
		}
		if (is(t, j, "::")) {
			sect += 2;
			continue;
		}
		if (sect == 0 || sect > 2)
			continue;
		/* "c" (expr) */
		if (is_lit(t, j) && is(t, j + 1, "(")) {
			if (j + 1 == o) {
				found = n;
				break;
			}
			n++;
			j = skip_group(t, j + 1) - 1;
		}
	}
	if (found < 0)
		return 0;
	snprintf(ref, sizeof(ref), "%%%d", found);
	for (ins = strtok_r(text, ";", &save); ins != NULL;
	    ins = strtok_r(NULL, ";", &save))
		instruction(ins, ref, &r, &w, bytes);
	if (!r && !w)
		return 0;
	*rd |= r;
	*wr |= w;
	return 1;
}
