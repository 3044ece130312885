/*
 * tl: the regression driver of the fuzz targets, as zstd's
 * regression_driver: linked with one tests/fuzz/fuzz-NAME.c into
 * tests/fuzz/replay-NAME by the normal compiler, it runs the target's
 * LLVMFuzzerTestOneInput once on every file named, or on every file of
 * every directory named (in name order), and prints "DIR: N inputs" per
 * operand. A crash, a sanitizer report or a failed check in the target
 * ends it with that signal or status; an unreadable file exits 2.
 *
 *	tests/fuzz/replay-NAME corpus-dir|file ...
 */
#include <sys/stat.h>

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
one(const char *path)
{
	FILE *f;
	char *buf = NULL;
	size_t n = 0, cap = 0, k;

	if ((f = fopen(path, "rb")) == NULL) {
		perror(path);
		exit(2);
	}
	for (;;) {
		if (cap - n < 65536) {
			cap = cap * 2 + 65536;
			if ((buf = realloc(buf, cap)) == NULL) {
				perror("realloc");
				exit(2);
			}
		}
		k = fread(buf + n, 1, cap - n, f);
		n += k;
		if (k == 0)
			break;
	}
	if (ferror(f)) {
		perror(path);
		exit(2);
	}
	fclose(f);
	/* An exact copy, so that reads past the end are out of bounds. */
	{
		uint8_t *in = malloc(n > 0 ? n : 1);

		if (in == NULL) {
			perror("malloc");
			exit(2);
		}
		memcpy(in, buf, n);
		free(buf);
		LLVMFuzzerTestOneInput(in, n);
		free(in);
	}
	return 1;
}

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(int argc, char *argv[])
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	char **names, path[4096];
	size_t nn, cap, i;
	unsigned long count;
	int a;

	for (a = 1; a < argc; a++) {
		if (stat(argv[a], &st) != 0) {
			perror(argv[a]);
			return 2;
		}
		count = 0;
		if (!S_ISDIR(st.st_mode))
			count += (unsigned long)one(argv[a]);
		else {
			if ((d = opendir(argv[a])) == NULL) {
				perror(argv[a]);
				return 2;
			}
			names = NULL;
			nn = cap = 0;
			while ((e = readdir(d)) != NULL) {
				if (e->d_name[0] == '.')
					continue;
				if (nn == cap) {
					cap = cap * 2 + 16;
					names = realloc(names,
					    cap * sizeof *names);
					if (names == NULL)
						return 2;
				}
				if ((names[nn++] = strdup(e->d_name)) == NULL)
					return 2;
			}
			closedir(d);
			qsort(names, nn, sizeof *names, cmp);
			for (i = 0; i < nn; i++) {
				snprintf(path, sizeof path, "%s/%s", argv[a],
				    names[i]);
				if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
					count += (unsigned long)one(path);
				free(names[i]);
			}
			free(names);
		}
		printf("%s: %lu inputs\n", argv[a], count);
		fflush(stdout);
	}
	return 0;
}
