/*
 * xplane-gen: make a large XPlane profile from a small one, for make
 * bench: every line of every plane is written COPIES times, each copy a
 * line of its own (its id moved on by 1000003 per copy, its events 0.1 s
 * later per copy), the rest of each plane (name, maps, stats, the HLO
 * modules) once. So the events are the profile's own, many times over,
 * in lines as long as the profile's.
 *
 *	xplane-gen SRC.xplane.pb MEGABYTES >big.xplane.pb
 *
 * Built by scripts/bench with the library (common/pb.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/pb.h"

static size_t
vlen(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static void
putv(uint64_t v)
{
	while (v >= 0x80) {
		putchar((int)(v & 0x7f) | 0x80);
		v >>= 7;
	}
	putchar((int)v);
}

static void
die(const char *what)
{
	fprintf(stderr, "xplane-gen: %s\n", what);
	exit(1);
}

/* A line's fields: id and timestamp_ns apart, the rest as they are. */
struct line {
	int64_t id, ts;
	const unsigned char *rest[64];
	size_t nrest[64], nr;
};

static void
readline(const unsigned char *p, size_t n, struct line *l)
{
	struct tl_pb m;
	struct tl_pbf f;
	const unsigned char *at = p;
	int r;

	memset(l, 0, sizeof *l);
	tl_pb_init(&m, p, n, 0);
	while ((r = tl_pb_next(&m, &f)) == 1) {
		if (f.num == 1 && f.wire == TL_PB_VARINT)
			l->id = (int64_t)f.v;
		else if (f.num == 3 && f.wire == TL_PB_VARINT)
			l->ts = (int64_t)f.v;
		else if (l->nr > 0 && l->rest[l->nr - 1] +
		    l->nrest[l->nr - 1] == at)	/* the run goes on */
			l->nrest[l->nr - 1] += (size_t)(m.p - at);
		else if (l->nr < 64) {
			l->rest[l->nr] = at;
			l->nrest[l->nr++] = (size_t)(m.p - at);
		} else
			die("a line with more than 64 runs of fields");
		at = m.p;
	}
	if (r < 0)
		die("the source does not parse");
}

static size_t
linesize(const struct line *l, uint64_t c)
{
	size_t n = 1 + vlen((uint64_t)(l->id + (int64_t)c * 1000003)) + 1 +
	    vlen((uint64_t)(l->ts + (int64_t)c * 100000000)), i;

	for (i = 0; i < l->nr; i++)
		n += l->nrest[i];
	return n;
}

static void
putline(const struct line *l, uint64_t c)
{
	size_t i, n = linesize(l, c);

	putchar(3 << 3 | 2);
	putv(n);
	putchar(1 << 3);
	putv((uint64_t)(l->id + (int64_t)c * 1000003));
	putchar(3 << 3);
	putv((uint64_t)(l->ts + (int64_t)c * 100000000));
	for (i = 0; i < l->nr; i++)
		fwrite(l->rest[i], 1, l->nrest[i], stdout);
}

int
main(int argc, char *argv[])
{
	FILE *fp;
	unsigned char *src;
	long sz;
	struct tl_pb m, pm;
	struct tl_pbf f, g;
	struct line *L = NULL;
	size_t nl, i, linebytes = 0, other = 0;
	uint64_t copies, c, psize;
	int r;

	if (argc != 3)
		die("usage: xplane-gen SRC.xplane.pb MEGABYTES");
	if ((fp = fopen(argv[1], "rb")) == NULL || fseek(fp, 0, SEEK_END) ||
	    (sz = ftell(fp)) <= 0 || fseek(fp, 0, SEEK_SET))
		die("cannot read the source");
	src = malloc((size_t)sz);
	if (src == NULL || fread(src, 1, (size_t)sz, fp) != (size_t)sz)
		die("cannot read the source");
	fclose(fp);
	/* How many copies: the lines' bytes to the size asked for. */
	tl_pb_init(&m, src, (size_t)sz, 0);
	while ((r = tl_pb_next(&m, &f)) == 1)
		if (f.num == 1 && tl_pb_sub(&pm, &f) == 0)
			while (tl_pb_next(&pm, &g) == 1)
				if (g.num == 3)
					linebytes += g.len + 4;
	other = (size_t)sz;
	if (linebytes == 0)
		die("the source has no lines");
	copies = (uint64_t)(strtod(argv[2], NULL) * 1e6 / (double)linebytes);
	if (copies < 1)
		copies = 1;
	tl_pb_init(&m, src, (size_t)sz, 0);
	while ((r = tl_pb_next(&m, &f)) == 1) {
		const unsigned char *at;

		if (f.num != 1) {	/* hostnames, ...: as they are */
			putchar((int)(f.num << 3 | f.wire));
			if (f.wire == TL_PB_LEN) {
				putv(f.len);
				fwrite(f.data, 1, f.len, stdout);
			} else
				putv(f.v);
			continue;
		}
		/* A plane: its lines' copies, then its other fields. */
		nl = 0;
		psize = 0;
		if (tl_pb_sub(&pm, &f) < 0)
			die("the source does not parse");
		while (tl_pb_next(&pm, &g) == 1)
			if (g.num == 3) {
				L = realloc(L, (nl + 1) * sizeof *L);
				if (L == NULL)
					die("out of memory");
				readline(g.data, g.len, &L[nl++]);
			}
		for (i = 0; i < nl; i++)
			for (c = 0; c < copies; c++) {
				size_t n = linesize(&L[i], c);

				psize += 1 + vlen(n) + n;
			}
		tl_pb_sub(&pm, &f);
		at = pm.p;
		while (tl_pb_next(&pm, &g) == 1) {
			if (g.num != 3)
				psize += (size_t)(pm.p - at);
			at = pm.p;
		}
		putchar(1 << 3 | 2);
		putv(psize);
		/* id and name first, as a writer puts them */
		tl_pb_sub(&pm, &f);
		at = pm.p;
		while (tl_pb_next(&pm, &g) == 1) {
			if (g.num == 1 || g.num == 2)
				fwrite(at, 1, (size_t)(pm.p - at), stdout);
			at = pm.p;
		}
		for (i = 0; i < nl; i++)
			for (c = 0; c < copies; c++)
				putline(&L[i], c);
		tl_pb_sub(&pm, &f);
		at = pm.p;
		while (tl_pb_next(&pm, &g) == 1) {
			if (g.num != 1 && g.num != 2 && g.num != 3)
				fwrite(at, 1, (size_t)(pm.p - at), stdout);
			at = pm.p;
		}
	}
	(void)other;
	free(L);
	free(src);
	if (fflush(stdout) != 0)
		die("write error");
	return 0;
}
