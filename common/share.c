/* tl: the share directory ($TL_SHARE, or <exe dir>/../share/tl). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "mem.h"
#include "share.h"

static char *dir;

static void
freedir(void)
{
	free(dir);
	dir = NULL;
}

const char *
tl_sharedir(void)
{
	const char *e = getenv("TL_SHARE");
	char buf[PATH_MAX], *p;
	ssize_t n;
	size_t len;

	if (dir != NULL)
		return dir;
	atexit(freedir);
	if (e != NULL && *e != '\0')
		return dir = xstrdup(e);
	n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		return dir = xstrdup("/usr/local/share/tl");
	buf[n] = '\0';
	if ((p = strrchr(buf, '/')) != NULL)
		*p = '\0';
	len = strlen(buf) + sizeof "/../share/tl";
	dir = xmalloc(len);
	snprintf(dir, len, "%s/../share/tl", buf);
	if ((p = realpath(dir, NULL)) != NULL) {
		free(dir);
		dir = p;
	}
	return dir;
}

char *
tl_sharepath(const char *name)
{
	return tl_path(tl_sharedir(), name);
}
