/*
 * tl: the files the comparison programs write into their -o directory
 * (diffout.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diffout.h"
#include "err.h"
#include "mem.h"

void
tl_diff_mkdir(const char *dir)
{
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		tl_err(tl_failstatus, "%s", dir);
}

void
tl_diff_open(struct tl_out *o, const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *path = xmalloc(n);
	int fd;

	snprintf(path, n, "%s/%s", dir, name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
		tl_err(tl_failstatus, "%s", path);
	tl_out_init(o, fd, path);
}

void
tl_diff_close(struct tl_out *o)
{
	char *path = (char *)o->name;
	int fd = o->fd;

	tl_out_flush(o);
	tl_out_close(o);
	if (close(fd) < 0)
		tl_err(tl_failstatus, "%s", path);
	free(path);
}
