/*
 * Fuzz target: kwrap's per-record function, process, with --mutants 20
 * (mutants and their proofs of equivalence) and without --llm (no
 * network), and its text-level engines on the raw input: the tokenizer,
 * the exact evaluator and the collection of a slice's constants.  kwrap.c
 * is included so process is reachable; its main is renamed, and the rest
 * of tools/kwrap/ is linked beside it.
 */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int kwrap_main(int argc, char *argv[]);

#define main kwrap_main
#include "../tools/kwrap/kwrap.c"
#undef main

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct toks t = { 0 };
	struct consts *c;
	json_error_t err;
	json_t *rec;
	char *text;
	long long v;

	k_msg_quiet(1);
	text = k_malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	c = k_calloc(1, sizeof(*c));
	tokenize(text, &t);
	collect_consts(text, &t, c);
	(void)eval_str(text, c, &v);
	toks_free(&t);
	consts_free(c);
	free(c);
	free(text);

	rec = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
	    &err);
	if (json_is_object(rec)) {
		char *s;
		/* mutants and their proofs of equivalence (equiv.c) too */
		opt.mutants = 20;
		rec = process(rec, NULL);
		if ((s = json_dumps(rec, JSON_COMPACT)) == NULL)
			abort();
		free(s);
	}
	json_decref(rec);
	return 0;
}
