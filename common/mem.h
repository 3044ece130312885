/* tl: allocators that fail with "out of memory" and exit 1. */
#ifndef TL_MEM_H
#define TL_MEM_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xmemdup(const void *p, size_t n);	/* NUL-terminated copy */

/* Free v[0..n) and v; nothing when v is NULL. */
void xfreev(char **v, size_t n);

/* Grow *p (of *cap elements of size sz) to hold at least need elements. */
void xgrow(void *pp, size_t *cap, size_t need, size_t sz);

#endif
