/* tl: files written into a directory under a temporary name (file.h). */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "file.h"
#include "mem.h"

static struct tl_file *open_files;

int
tl_mkdirs(const char *dir)
{
	struct stat st;
	char *p, *s, c;
	int r = 0;

	if (stat(dir, &st) == 0 || *dir == '\0') {
		if (*dir != '\0' && S_ISDIR(st.st_mode))
			return 0;
		errno = *dir != '\0' ? ENOTDIR : ENOENT;
		return -1;
	}
	/* Each prefix that ends before a '/' (not one of a run), then all. */
	s = xstrdup(dir);
	for (p = s + 1; r == 0; p++) {
		if ((*p != '/' && *p != '\0') || (*p == '/' && p[-1] == '/'))
			continue;
		c = *p;
		*p = '\0';
		if (mkdir(s, 0777) < 0 && (errno != EEXIST || stat(s, &st) < 0 ||
		    !S_ISDIR(st.st_mode))) {
			if (errno == EEXIST)
				errno = ENOTDIR;
			r = -1;
		}
		if ((*p = c) == '\0')
			break;
	}
	free(s);
	return r;
}

char *
tl_path(const char *dir, const char *name)
{
	size_t d, n = strlen(name);
	char *p;

	if (dir == NULL || *dir == '\0')
		return xstrdup(name);
	d = strlen(dir);
	p = xmalloc(d + n + 2);
	memcpy(p, dir, d);
	p[d] = '/';
	memcpy(p + d + 1, name, n + 1);
	return p;
}

char *
tl_tmppath(const char *name)
{
	const char *dir = getenv("TMPDIR");

	return tl_tmpin(dir != NULL && *dir != '\0' ? dir : "/tmp", name);
}

char *
tl_tmpin(const char *dir, const char *name)
{
	char *p, *q;
	size_t n;

	p = tl_path(dir, name);
	n = strlen(p);
	q = xmalloc(n + sizeof ".XXXXXX");
	memcpy(q, p, n);
	memcpy(q + n, ".XXXXXX", sizeof ".XXXXXX");
	free(p);
	return q;
}

FILE *
tl_tmpfile(const char *name)
{
	char *path = tl_tmppath(name);
	FILE *f = NULL;
	int fd;

	if ((fd = mkstemp(path)) < 0 || unlink(path) < 0 ||
	    (f = fdopen(fd, "w+")) == NULL) {
		tl_warn("%s", path);
		if (fd >= 0)
			close(fd);
	}
	free(path);
	return f;
}

/* Leave no temporary file behind a program that exits before its close. */
static void
removeall(void)
{
	struct tl_file *f;

	for (f = open_files; f != NULL; f = f->next)
		(void)unlink(f->tmp);
}

static void
forget(struct tl_file *f)
{
	struct tl_file **pp;

	for (pp = &open_files; *pp != NULL; pp = &(*pp)->next)
		if (*pp == f) {
			*pp = f->next;
			break;
		}
}

static void
done(struct tl_file *f)
{
	forget(f);
	free(f->path);
	free(f->tmp);
	f->path = f->tmp = NULL;
}

int
tl_file_open(struct tl_file *f, const char *dir, const char *name)
{
	static int registered;
	mode_t mask;
	int fd;

	if (!registered) {
		registered = 1;
		atexit(removeall);
	}
	f->path = tl_path(dir, name);
	/*
	 * A name no one can guess, made with O_EXCL (mkstemp): nothing
	 * planted in the directory is written through; the rename then
	 * replaces whatever is at the final name, a link included, without
	 * following it.
	 */
	f->tmp = tl_path(dir, ".tl.XXXXXX");
	mask = umask(0);
	umask(mask);
	if ((fd = mkstemp(f->tmp)) < 0 || fchmod(fd, 0666 & ~mask) < 0) {
		int e = errno;

		if (fd >= 0) {
			close(fd);
			unlink(f->tmp);
		}
		errno = e;
		tl_warn("%s", f->path);
		free(f->path);
		free(f->tmp);
		f->path = f->tmp = NULL;
		return -1;
	}
	tl_out_init(&f->out, fd, f->path);
	f->next = open_files;
	open_files = f;
	return 0;
}

int
tl_file_close(struct tl_file *f)
{
	int fd = f->out.fd, r = 0;

	tl_out_close(&f->out);
	if (close(fd) < 0 || rename(f->tmp, f->path) < 0) {
		tl_warn("%s", f->path);
		(void)unlink(f->tmp);
		r = -1;
	}
	done(f);
	return r;
}
