/*
 * tl-hta: the memory-timeline reader (memtl.h). Numbers are integers
 * (times in ns, bytes); anything but the array of 4-number arrays, white
 * space and commas is an error located by its byte offset. Sizes add up
 * with wrap-around checked: a sum beyond 64 bits is an error. A time
 * below 0 becomes the smallest above 0, or the first time when none is.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "memtl.h"

void
memtl_read(struct memtl *m, struct tl_src *src, const char *name)
{
	char *p;
	size_t n, i, cap = 0, k;
	int depth = 0, nf = 0, neg = 0, innum = 0, done = 0;
	int64_t f[4] = { 0 }, v = 0, tmin = 0, first = 0;
	uint64_t off = 0;

	m->t = NULL;
	m->sz = NULL;
	m->n = 0;
	while (tl_in_chunk(src, &p, &n) == 1) {
		for (i = 0; i < n; i++, off++) {
			char ch = p[i];

			if (ch >= '0' && ch <= '9' && depth == 2) {
				if (!innum)
					v = 0;
				innum = 1;
				if (v > (INT64_MAX - 9) / 10)
					tl_errx(1, "%s:%" PRIu64 ": number out "
					    "of range", name, off);
				v = v * 10 + (ch - '0');
				continue;
			}
			if (innum) {
				if (nf == 4)
					tl_errx(1, "%s:%" PRIu64 ": not a record "
					    "of four numbers", name, off);
				f[nf++] = neg ? -v : v;
				innum = neg = 0;
			} else if (neg)
				tl_errx(1, "%s:%" PRIu64 ": not a number",
				    name, off);
			if (ch == ' ' || ch == '\n' || ch == '\t' ||
			    ch == '\r' || (ch == ',' && !done))
				continue;
			if (ch == '-' && depth == 2) {
				neg = 1;
				continue;
			}
			if (ch == '[' && depth < 2 && !done) {
				depth++;
				nf = 0;
				continue;
			}
			if (ch == ']' && depth == 2 && nf == 4) {
				depth--;
				if (f[3] < 0 || f[3] > 7)
					tl_errx(1, "%s:%" PRIu64 ": category %"
					    PRId64 " is not 0 to 7", name, off,
					    f[3]);
				if (m->n == 0)
					first = f[0];
				if (f[0] > 0 && (tmin == 0 || f[0] < tmin))
					tmin = f[0];
				if (m->n == 0 || m->t[m->n - 1] != f[0]) {
					if (m->n == cap) {
						cap = cap ? 2 * cap : 1024;
						m->t = xreallocarray(m->t, cap,
						    sizeof *m->t);
						m->sz = xreallocarray(m->sz, cap,
						    sizeof *m->sz);
					}
					m->t[m->n] = f[0];
					for (k = 0; k < 8; k++)
						m->sz[m->n][k] = m->n > 0 ?
						    m->sz[m->n - 1][k] : 0;
					m->n++;
				}
				if (__builtin_add_overflow(m->sz[m->n - 1][f[3]],
				    f[2], &m->sz[m->n - 1][f[3]]))
					tl_errx(1, "%s:%" PRIu64 ": bytes beyond "
					    "64 bits", name, off);
				continue;
			}
			if (ch == ']' && depth == 1) {
				depth = 0;
				done = 1;
				continue;
			}
			if (ch == ']' && depth == 2)
				tl_errx(1, "%s:%" PRIu64 ": not a record of "
				    "four numbers", name, off);
			tl_errx(1, "%s:%" PRIu64 ": not the memory timeline "
			    "([[t, action, bytes, category], ...])", name, off);
		}
	}
	if (!done)
		tl_errx(1, "%s:%" PRIu64 ": the memory timeline is cut short",
		    name, off);
	if (tmin == 0)		/* no time above 0: the first */
		tmin = first;
	for (i = 0; i < m->n; i++)
		if (m->t[i] < 0)
			m->t[i] = tmin;
}

void
memtl_free(struct memtl *m)
{
	free(m->t);
	free(m->sz);
	m->t = NULL;
	m->sz = NULL;
	m->n = 0;
}
