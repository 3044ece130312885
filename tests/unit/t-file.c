/*
 * tl: unit tests of the file helper (common/file.c), in the current
 * directory (the test's scratch directory): mkdir -p, and a file that
 * is there only once it is whole.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/err.h"
#include "../../common/file.h"
#include "unit.h"

/* How many entries dir has, . and .. aside. */
static int
entries(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static int
isdir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static size_t
readall(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (f == NULL)
		return 0;
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

int
main(int argc, char *argv[])
{
	struct tl_file f;
	char buf[64], *p;
	size_t n;
	pid_t pid;
	int st;

	(void)argc;
	tl_setprogname(argv[0]);

	/* mkdir -p. */
	CHECK(tl_mkdirs("a/b/c") == 0 && isdir("a/b/c"));
	CHECK(tl_mkdirs("a/b/c") == 0);
	CHECK(tl_mkdirs("a//b/d/") == 0 && isdir("a/b/d"));
	CHECK(tl_mkdirs(".") == 0);
	CHECK(tl_mkdirs("") == -1 && errno == ENOENT);
	writefile("plain", "x", 1);
	CHECK(tl_mkdirs("plain") == -1 && errno == ENOTDIR);
	CHECK(tl_mkdirs("plain/sub") == -1 && errno == ENOTDIR);

	p = tl_path("a/b", "x.csv");
	CHECK(strcmp(p, "a/b/x.csv") == 0);
	free(p);
	p = tl_path("", "x.csv");
	CHECK(strcmp(p, "x.csv") == 0);
	free(p);
	p = tl_path(NULL, "x.csv");
	CHECK(strcmp(p, "x.csv") == 0);
	free(p);

	/* Written whole: there under its name, nothing else. */
	CHECK(tl_file_open(&f, "a/b/c", "one.csv") == 0);
	tl_out_raw(&f.out, "a,b\n", 4);
	CHECK(entries("a/b/c") == 1 && access("a/b/c/one.csv", F_OK) < 0);
	CHECK(tl_file_close(&f) == 0);
	n = readall("a/b/c/one.csv", buf, sizeof buf);
	CHECK_STR(buf, n, "a,b\n");
	CHECK(entries("a/b/c") == 1);

	/* Written again: the old file stays until the new one is whole. */
	CHECK(tl_file_open(&f, "a/b/c", "one.csv") == 0);
	tl_out_raw(&f.out, "new\n", 4);
	tl_out_flush(&f.out);
	n = readall("a/b/c/one.csv", buf, sizeof buf);
	CHECK_STR(buf, n, "a,b\n");
	CHECK(tl_file_close(&f) == 0);
	n = readall("a/b/c/one.csv", buf, sizeof buf);
	CHECK_STR(buf, n, "new\n");

	/* Two open at once, names alike but for their ends. */
	{
		struct tl_file g;

		CHECK(tl_file_open(&f, "a", "kernel_launchers_summary_by_cat_one"
		    ".csv") == 0 && tl_file_open(&g, "a",
		    "kernel_launchers_summary_by_cat_two.csv") == 0);
		tl_out_raw(&f.out, "1", 1);
		tl_out_raw(&g.out, "2", 1);
		CHECK(tl_file_close(&g) == 0 && tl_file_close(&f) == 0);
		n = readall("a/kernel_launchers_summary_by_cat_one.csv", buf,
		    sizeof buf);
		CHECK_STR(buf, n, "1");
		n = readall("a/kernel_launchers_summary_by_cat_two.csv", buf,
		    sizeof buf);
		CHECK_STR(buf, n, "2");
		CHECK(entries("a") == 3);
	}

	/* No directory: an error, nothing made. */
	CHECK(tl_file_open(&f, "nodir", "x.csv") == -1);
	CHECK(access("nodir", F_OK) < 0);

	/* The name taken by a directory: the rename fails, nothing left. */
	CHECK(tl_mkdirs("a/b/d/taken") == 0);
	CHECK(tl_file_open(&f, "a/b/d", "taken") == 0);
	tl_out_raw(&f.out, "x", 1);
	CHECK(tl_file_close(&f) == -1);
	CHECK(entries("a/b/d") == 1 && isdir("a/b/d/taken"));

	/* A fatal error while a file is open: its temporary file goes. */
	fflush(stdout);
	if ((pid = fork()) == 0) {
		if (tl_file_open(&f, "a/b/d", "dies.csv") == 0) {
			tl_out_raw(&f.out, "x\n", 2);
			tl_out_flush(&f.out);
			tl_errx(1, "the expected error");
		}
		_exit(3);
	}
	CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 1);
	CHECK(entries("a/b/d") == 1);
	return unit_done();
}
