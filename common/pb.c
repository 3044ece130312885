/* tl: the protobuf wire format (see pb.h). */
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "mem.h"
#include "pb.h"

static _Thread_local const char *why = "";
static _Thread_local uint64_t at;

const char *
tl_pb_why(void)
{
	return why;
}

uint64_t
tl_pb_at(void)
{
	return at;
}

static int
bad(const char *what, uint64_t off)
{
	why = what;
	at = off;
	return -1;
}

void
tl_pb_init(struct tl_pb *m, const void *p, size_t n, uint64_t off)
{
	m->p = p;
	m->end = m->p + n;
	m->off = off;
}

int
tl_pb_varint(const unsigned char **pp, const unsigned char *end,
    uint64_t *v)
{
	const unsigned char *p = *pp;
	uint64_t x = 0;
	unsigned shift;

	for (shift = 0; shift < 64 && p < end; shift += 7) {
		x |= (uint64_t)(*p & 0x7f) << shift;
		if (!(*p++ & 0x80)) {
			*v = x;
			*pp = p;
			return 0;
		}
	}
	return -1;	/* truncated, or more than ten bytes */
}

double
tl_pb_double(uint64_t bits)
{
	double d;

	memcpy(&d, &bits, sizeof d);
	return d;
}

float
tl_pb_float(uint64_t bits)
{
	uint32_t b = (uint32_t)bits;
	float f;

	memcpy(&f, &b, sizeof f);
	return f;
}

static uint64_t
le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

/*
 * Split a tag into an empty field; -1 for field number 0 or a wire type
 * that does not exist.
 */
static int
tag(uint64_t t, struct tl_pbf *f, uint64_t off)
{
	if ((t & 7) > 5)
		return bad("unknown wire type", off);
	if (t >> 3 == 0 || t >> 3 > 0x1fffffff)
		return bad("field number out of range", off);
	f->num = (uint32_t)(t >> 3);
	f->wire = (enum tl_pbwire)(t & 7);
	f->off = off;
	f->v = 0;
	f->data = NULL;
	f->len = 0;
	return 0;
}

/* A varint at *p (< end), one byte the common case. */
static inline int
varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	if (*p < end && **p < 0x80) {
		*v = *(*p)++;
		return 0;
	}
	return tl_pb_varint(p, end, v);
}

static int next(struct tl_pb *, struct tl_pbf *, int);

/* Skip a group, m->p after its start, to its end, nested ones too. */
static int __attribute__((noinline))
group(struct tl_pb *m, const struct tl_pbf *f, int depth,
    const unsigned char *start, uint64_t off)
{
	struct tl_pbf g;
	int r;

	if (depth > 64)
		return bad("groups nested too deep", off);
	for (;;) {
		m->off = off + (uint64_t)(m->p - start);
		r = next(m, &g, depth + 1);
		if (r <= 0)
			return r < 0 ? -1 : bad("unterminated group", off);
		if (g.wire == TL_PB_EGROUP) {
			if (g.num != f->num)
				return bad("mismatched group end", g.off);
			return 0;
		}
	}
}

static int
next(struct tl_pb *m, struct tl_pbf *f, int depth)
{
	const unsigned char *start = m->p, *p = m->p, *end = m->end;
	uint64_t off = m->off, t, n;

	if (p == end)
		return 0;
	if (varint(&p, end, &t) < 0)
		return bad("truncated tag", off);
	if (tag(t, f, off) < 0)
		return -1;
	switch (f->wire) {
	case TL_PB_VARINT:
		if (varint(&p, end, &f->v) < 0)
			return bad("truncated varint", off);
		break;
	case TL_PB_I64:
	case TL_PB_I32:
		n = f->wire == TL_PB_I64 ? 8 : 4;
		if ((uint64_t)(end - p) < n)
			return bad("truncated fixed-width value", off);
		f->v = le(p, (int)n);
		p += n;
		break;
	case TL_PB_LEN:
		if (varint(&p, end, &n) < 0)
			return bad("truncated length", off);
		if (n > (uint64_t)(end - p))
			return bad("length past the end", off);
		f->data = p;
		f->len = (size_t)n;
		p += n;
		break;
	case TL_PB_SGROUP:
		m->p = p;
		if (group(m, f, depth, start, off) < 0)
			return -1;
		p = m->p;
		break;
	case TL_PB_EGROUP:
		if (depth == 0)
			return bad("group end without a start", off);
		break;
	}
	m->p = p;
	m->off = off + (uint64_t)(p - start);
	return 1;
}

int
tl_pb_next_slow(struct tl_pb *m, struct tl_pbf *f)
{
	return next(m, f, 0);
}

int
tl_pb_sub(struct tl_pb *sub, const struct tl_pbf *f)
{
	uint64_t off = f->off, t = (uint64_t)f->num << 3 | TL_PB_LEN,
	    l = f->len;

	if (f->wire != TL_PB_LEN)
		return bad("wire type does not match the field", f->off);
	/* The payload starts after the tag's and the length's varints. */
	do off++; while (t >>= 7);
	do off++; while (l >>= 7);
	tl_pb_init(sub, f->data, f->len, off);
	return 0;
}

int
tl_pb_packed(const struct tl_pbf *f, size_t *pos, uint64_t *v)
{
	const unsigned char *p;

	if (f->wire == TL_PB_VARINT) {
		if (*pos)
			return 0;
		*v = f->v;
		*pos = 1;
		return 1;
	}
	if (f->wire != TL_PB_LEN)
		return bad("wire type does not match the field", f->off);
	if (*pos >= f->len)
		return 0;
	p = f->data + *pos;
	if (tl_pb_varint(&p, f->data + f->len, v) < 0)
		return bad("truncated packed varint", f->off);
	*pos = (size_t)(p - f->data);
	return 1;
}

/* The stream reader. */

void
tl_pbin_init(struct tl_pbin *r, struct tl_src *src)
{
	memset(r, 0, sizeof *r);
	r->src = src;
}

void
tl_pbin_free(struct tl_pbin *r)
{
	free(r->buf);
	r->buf = NULL;
	r->cap = 0;
}

/* The next byte, or -1 at the end of the stream. */
static int
getbyte(struct tl_pbin *r)
{
	if (!tl_in_more(r->src, &r->chunk, &r->n, &r->pos, &r->eof))
		return -1;
	r->off++;
	return (unsigned char)r->chunk[r->pos++];
}

static int
invarint(struct tl_pbin *r, uint64_t *v, int *none)
{
	uint64_t x = 0;
	unsigned shift;
	int c;

	for (shift = 0; shift < 64; shift += 7) {
		if ((c = getbyte(r)) < 0) {
			if (none)
				*none = shift == 0;
			return -1;
		}
		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = x;
			return 0;
		}
	}
	if (none)
		*none = 0;
	return -1;
}

int
tl_pbin_take(struct tl_pbin *r, size_t n, const unsigned char **p)
{
	size_t got = 0, k;

	if (n > r->cap) {
		free(r->buf);
		r->cap = n < 4096 ? 4096 : n;
		r->buf = xmalloc(r->cap);
	}
	while (got < n) {
		if (!tl_in_more(r->src, &r->chunk, &r->n, &r->pos, &r->eof))
			return bad("truncated field", r->off);
		k = r->n - r->pos;
		if (k > n - got)
			k = n - got;
		memcpy(r->buf + got, r->chunk + r->pos, k);
		r->pos += k;
		r->off += k;
		got += k;
	}
	*p = r->buf;
	return 0;
}

int
tl_pbin_skip(struct tl_pbin *r, uint64_t n)
{
	size_t k;

	while (n > 0) {
		if (!tl_in_more(r->src, &r->chunk, &r->n, &r->pos, &r->eof))
			return bad("truncated field", r->off);
		k = r->n - r->pos;
		if (k > n)
			k = (size_t)n;
		r->pos += k;
		r->off += k;
		n -= k;
	}
	return 0;
}

int
tl_pbin_field(struct tl_pbin *r, struct tl_pbf *f)
{
	uint64_t off = r->off, t;
	int none = 0;
	const unsigned char *p;

	if (invarint(r, &t, &none) < 0)
		return none ? 0 : bad("truncated tag", off);
	if (tag(t, f, off) < 0)
		return -1;
	switch (f->wire) {
	case TL_PB_VARINT:
		if (invarint(r, &f->v, NULL) < 0)
			return bad("truncated varint", off);
		break;
	case TL_PB_I64:
	case TL_PB_I32:
		if (tl_pbin_take(r, f->wire == TL_PB_I64 ? 8 : 4, &p) < 0)
			return bad("truncated fixed-width value", off);
		f->v = le(p, f->wire == TL_PB_I64 ? 8 : 4);
		break;
	case TL_PB_LEN:
		if (invarint(r, &t, NULL) < 0)
			return bad("truncated length", off);
		if (t > SIZE_MAX / 2)
			return bad("length past the end", off);
		f->len = (size_t)t;
		break;
	case TL_PB_SGROUP:
	case TL_PB_EGROUP:
		/* proto2 groups: no message of a format tl streams has any. */
		return bad("group in a streamed message", off);
	}
	return 1;
}
