/* tl: allocators that fail with "out of memory" and exit 1. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "mem.h"

static void
oom(void)
{
	tl_errx(tl_failstatus, "out of memory");
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		oom();
	return p;
}

void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		oom();
	return xrealloc(p, nmemb * size);
}

char *
xstrdup(const char *s)
{
	return xmemdup(s, strlen(s));
}

char *
xmemdup(const void *p, size_t n)
{
	char *s = xmalloc(n + 1);

	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

void
xgrow(void *pp, size_t *cap, size_t need, size_t sz)
{
	void **p = pp;
	size_t c = *cap ? *cap : 16;

	if (need <= *cap)
		return;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			oom();
		c *= 2;
	}
	*p = xreallocarray(*p, c, sz);
	*cap = c;
}

void
xfreev(char **v, size_t n)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
