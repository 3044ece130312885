/*
 * tl: unit tests of the input layer (common/input.c): plain files, stdin,
 * gzip (one and several members, large, truncated, corrupt), and archives
 * (zip, tar, tar.gz, and single compressed files) with their member names.
 * The files are made in the current (scratch) directory with gzip(1),
 * tar(1) and python3; the layer's diagnostics go to stderr, which the case
 * compares verbatim.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "unit.h"

static char *got;
static size_t ngot, capgot;

static void
sh(const char *cmd)
{
	if (system(cmd) != 0) {
		fprintf(stderr, "command failed: %s\n", cmd);
		exit(2);
	}
}

/* Read the current stream of src into got; the last tl_in_chunk value. */
static int
readall(struct tl_src *src)
{
	char *p;
	size_t n;
	int r;

	ngot = 0;
	while ((r = tl_in_chunk(src, &p, &n)) == 1) {
		if (n == 0)
			return 99;	/* a chunk is never empty */
		if (ngot + n > capgot) {
			capgot = 2 * (ngot + n);
			got = realloc(got, capgot);
			if (got == NULL)
				exit(2);
		}
		memcpy(got + ngot, p, n);
		ngot += n;
	}
	return r;
}

/*
 * Open path and check its streams: each has the name in names[] and the
 * content in texts[] (NUL-terminated), then the end.
 */
static void
streams(const char *path, int container, const char *const *names,
    const char *const *texts)
{
	struct tl_src *src;
	int i, r;
	char what[256], *p;
	const char *want;
	size_t n;

	src = tl_src_open(path);
	snprintf(what, sizeof what, "%s: opens", path);
	if (!unit_check(src != NULL, what, __FILE__, __LINE__))
		return;
	snprintf(what, sizeof what, "%s: name", path);
	want = strcmp(path, "-") == 0 ? "<stdin>" : path;
	unit_check_mem(tl_src_name(src), strlen(tl_src_name(src)), want,
	    strlen(want), what, __FILE__, __LINE__);
	for (i = 0; names[i] != NULL; i++) {
		snprintf(what, sizeof what, "%s: stream %d", path, i);
		r = tl_src_next(src);
		if (!unit_check(r == 1, what, __FILE__, __LINE__))
			break;
		snprintf(what, sizeof what, "%s: stream %d: named %s", path,
		    i, names[i]);
		unit_check_mem(tl_in_name(src), strlen(tl_in_name(src)),
		    names[i], strlen(names[i]), what, __FILE__, __LINE__);
		r = readall(src);
		snprintf(what, sizeof what, "%s: stream %d: content", path, i);
		if (r == 0)
			unit_check_mem(got, ngot, texts[i], strlen(texts[i]),
			    what, __FILE__, __LINE__);
		else
			unit_check(0, what, __FILE__, __LINE__);
		/* After the end, the end again. */
		snprintf(what, sizeof what, "%s: stream %d: end again", path,
		    i);
		unit_check(tl_in_chunk(src, &p, &n) == 0, what, __FILE__,
		    __LINE__);
		snprintf(what, sizeof what, "%s: container", path);
		unit_check(tl_src_container(src) == container, what, __FILE__,
		    __LINE__);
	}
	snprintf(what, sizeof what, "%s: end", path);
	unit_check(tl_src_next(src) == 0 && tl_src_next(src) == 0, what,
	    __FILE__, __LINE__);
	tl_src_close(src);
}

#define STREAMS(path, container, ...) do {				\
	const char *const v_[] = { __VA_ARGS__, NULL };		\
	const char *n_[sizeof v_ / sizeof v_[0] / 2 + 1];	\
	const char *t_[sizeof v_ / sizeof v_[0] / 2 + 1];	\
	size_t i_;							\
	for (i_ = 0; v_[2 * i_] != NULL; i_++) {			\
		n_[i_] = v_[2 * i_];					\
		t_[i_] = v_[2 * i_ + 1];				\
	}								\
	n_[i_] = NULL;							\
	streams(path, container, n_, t_);				\
} while (0)

/* Open path: its first stream fails while reading (-1, reported). */
static void
readfails(const char *path)
{
	struct tl_src *src;
	char what[256];
	int r = -9;

	src = tl_src_open(path);
	if (src != NULL && tl_src_next(src) == 1)
		r = readall(src);
	snprintf(what, sizeof what, "%s: read fails", path);
	unit_check(r == -1, what, __FILE__, __LINE__);
	tl_src_close(src);
}

static void
test_plain(void)
{
	struct tl_src *src;
	char *p;
	size_t n;
	int fd;

	writefile("a.json", "{\"traceEvents\":[]}\n", 19);
	STREAMS("a.json", 0, "a.json", "{\"traceEvents\":[]}\n");
	writefile("empty", "", 0);
	STREAMS("empty", 0, "empty", "");
	writefile("one", "x", 1);
	STREAMS("one", 0, "one", "x");

	/* Before tl_src_next there is no stream. */
	src = tl_src_open("a.json");
	CHECK(src != NULL && tl_in_chunk(src, &p, &n) == 0);
	tl_src_close(src);

	/* Standard input, as "-" and as NULL. */
	fd = open("a.json", O_RDONLY);
	CHECK(fd >= 0 && dup2(fd, 0) == 0);
	close(fd);
	STREAMS("-", 0, "<stdin>", "{\"traceEvents\":[]}\n");
	fd = open("one", O_RDONLY);
	CHECK(fd >= 0 && dup2(fd, 0) == 0);
	close(fd);
	src = tl_src_open(NULL);
	CHECK(src != NULL && strcmp(tl_src_name(src), "<stdin>") == 0);
	CHECK(tl_src_next(src) == 1 && readall(src) == 0 && ngot == 1);
	tl_src_close(src);

	/* Errors. */
	CHECK(tl_src_open("no-such-file") == NULL);
	sh("mkdir -p adir");
	CHECK(tl_src_open("adir") == NULL);
}

static void
test_gzip(void)
{
	char *big;
	size_t i, n = 3 * 1024 * 1024 + 17;
	unsigned x = 1;

	writefile("a.txt", "hello\n", 6);
	writefile("b.txt", "world\n", 6);
	sh("gzip -c a.txt >a.txt.gz && gzip -c b.txt >b.txt.gz && "
	    "cat a.txt.gz b.txt.gz >ab.gz && gzip -c </dev/null >e.gz");
	STREAMS("a.txt.gz", 0, "a.txt.gz", "hello\n");
	STREAMS("ab.gz", 0, "ab.gz", "hello\nworld\n");	/* two members */
	STREAMS("e.gz", 0, "e.gz", "");

	/* Larger than a few decoding slots; not very compressible. */
	big = malloc(n + 1);
	for (i = 0; i < n; i++) {
		x = x * 1103515245 + 12345;
		big[i] = (char)(' ' + (x >> 16) % 64);
		if (i % 100 == 99)
			big[i] = '\n';
	}
	big[n] = '\0';
	writefile("big.txt", big, n);
	sh("gzip -c big.txt >big.txt.gz && cat big.txt.gz a.txt.gz >biga.gz");
	STREAMS("big.txt.gz", 0, "big.txt.gz", big);
	big = realloc(big, n + 7);
	memcpy(big + n, "hello\n", 7);
	STREAMS("biga.gz", 0, "biga.gz", big);
	free(big);

	/* Truncated, with trailing garbage, with a bad CRC. */
	sh("head -c 20 a.txt.gz >cut.gz && head -c 100000 big.txt.gz "
	    ">bigcut.gz && cat a.txt.gz a.txt >trail.gz");
	sh("python3 -c 'import sys; d = bytearray(open(\"big.txt.gz\", "
	    "\"rb\").read()); d[-8] ^= 0xff; "
	    "open(\"bad.gz\", \"wb\").write(d)'");
	readfails("cut.gz");
	readfails("bigcut.gz");
	readfails("trail.gz");
	readfails("bad.gz");
}

static void
test_archive(void)
{
	writefile("x.json", "[{\"a\":1}]\n", 10);
	sh("mkdir -p dir && printf '[]' >dir/y.json && gzip -c x.json "
	    ">x.json.gz");
	sh("python3 -c 'import zipfile; "
	    "z = zipfile.ZipFile(\"a.zip\", \"w\", zipfile.ZIP_DEFLATED); "
	    "z.write(\"x.json\"); z.write(\"dir\"); z.write(\"dir/y.json\"); "
	    "z.write(\"x.json.gz\"); z.close()'");
	STREAMS("a.zip", 1,
	    "a.zip(x.json)", "[{\"a\":1}]\n",
	    "a.zip(dir/y.json)", "[]",
	    "a.zip(x.json.gz)", "[{\"a\":1}]\n");	/* inflated too */
	sh("python3 -c 'import zipfile; "
	    "z = zipfile.ZipFile(\"s.zip\", \"w\"); "
	    "z.write(\"x.json\"); z.close()'");
	/* Stored, not deflated. */
	STREAMS("s.zip", 1, "s.zip(x.json)", "[{\"a\":1}]\n");
	sh("tar cf t.tar x.json dir && tar czf t.tar.gz x.json dir");
	STREAMS("t.tar", 1, "t.tar(x.json)", "[{\"a\":1}]\n",
	    "t.tar(dir/y.json)", "[]");
	STREAMS("t.tar.gz", 1, "t.tar.gz(x.json)", "[{\"a\":1}]\n",
	    "t.tar.gz(dir/y.json)", "[]");
	/* A single compressed file is one stream named as the file. */
	sh("python3 -c 'import lzma, bz2; "
	    "open(\"x.json.xz\", \"wb\").write(lzma.compress(b\"[1]\")); "
	    "open(\"x.json.bz2\", \"wb\").write(bz2.compress(b\"[2]\"))'");
	STREAMS("x.json.xz", 0, "x.json.xz", "[1]");
	STREAMS("x.json.bz2", 0, "x.json.bz2", "[2]");
}

int
main(int argc, char *argv[])
{
	(void)argc;
	tl_setprogname(argv[0]);
	test_plain();
	test_gzip();
	test_archive();
	free(got);
	return unit_done();
}
