/*
 * Replay a corpus through a fuzz target without libFuzzer: every file
 * named, and every file in every directory named, is one input to
 * LLVMFuzzerTestOneInput.  Linked with one fuzz_*.c into the program
 * test/fuzz.t runs, so a crash the fuzzer once found stays found.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long ninputs;

static int
one(const char *path)
{
	FILE *fp;
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if ((fp = fopen(path, "rb")) == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (n + 4096 > cap) {
			char *nb = realloc(buf, cap = n + 65536);
			if (nb == NULL) {
				fprintf(stderr, "replay: out of memory\n");
				exit(4);
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
	} while (got > 0);
	if (ferror(fp)) {
		fprintf(stderr, "replay: %s: read error\n", path);
		fclose(fp);
		free(buf);
		return -1;
	}
	fclose(fp);
	/* the fuzzer never passes a pointer past the data: neither do we */
	LLVMFuzzerTestOneInput((const uint8_t *)buf, n);
	free(buf);
	ninputs++;
	return 0;
}

int
main(int argc, char *argv[])
{
	struct stat st;
	int i, bad = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: replay file|dir ...\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		DIR *d;
		struct dirent *e;

		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i],
			    strerror(errno));
			bad = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= one(argv[i]) != 0;
			continue;
		}
		if ((d = opendir(argv[i])) == NULL) {
			fprintf(stderr, "replay: %s: %s\n", argv[i],
			    strerror(errno));
			bad = 1;
			continue;
		}
		while ((e = readdir(d)) != NULL) {
			char path[4096];
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i],
			    e->d_name);
			bad |= one(path) != 0;
		}
		closedir(d);
	}
	printf("replay: %ld inputs\n", ninputs);
	return bad ? 1 : 0;
}
