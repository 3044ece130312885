/*
 * tl: the protobuf wire format, read without a schema compiler or runtime.
 * A message in memory is walked field by field with a cursor (tl_pb_next);
 * a length-delimited field is entered with tl_pb_sub. A stream too large to
 * hold (a Perfetto trace, an XSpace) is read with struct tl_pbin: tags,
 * varints and lengths straight from a source, and one field's bytes at a
 * time into a buffer that grows to the largest field read, or skipped.
 * Every length is checked against what is left; a malformed message gives
 * -1 and a reason (tl_pb_why) with the byte offset it was found at, never
 * a read past the end.
 */
#ifndef TL_PB_H
#define TL_PB_H

#include <stddef.h>
#include <stdint.h>

struct tl_src;

enum tl_pbwire {
	TL_PB_VARINT = 0,
	TL_PB_I64 = 1,
	TL_PB_LEN = 2,
	TL_PB_SGROUP = 3,	/* groups: deprecated; skipped as a whole */
	TL_PB_EGROUP = 4,
	TL_PB_I32 = 5
};

/* A message being read: p[0..end), off the offset of p in the input. */
struct tl_pb {
	const unsigned char *p, *end;
	uint64_t off;
};

/* One field: its number and wire type, and its value by type. */
struct tl_pbf {
	uint32_t num;
	enum tl_pbwire wire;
	uint64_t v;			/* VARINT, I64, I32: the raw bits */
	const unsigned char *data;	/* LEN: the bytes */
	size_t len;
	uint64_t off;			/* input offset of the field's tag */
};

void tl_pb_init(struct tl_pb *, const void *p, size_t n, uint64_t off);

/*
 * The next field of the message: 1 and *f set; 0 at the end of the
 * message; -1 when it is malformed (truncated varint or value, a length
 * past the end, an unknown wire type, field number 0, an unmatched group
 * end), with tl_pb_why() and tl_pb_at() saying what and where.
 */
int tl_pb_next_slow(struct tl_pb *, struct tl_pbf *f);

/*
 * The common case inline: a tag of one byte (field 1 to 15) with a
 * varint or a length that is whole before the end. Anything else,
 * malformed input included, is tl_pb_next_slow's.
 */
static inline int
tl_pb_next(struct tl_pb *m, struct tl_pbf *f)
{
	const unsigned char *p = m->p, *end = m->end;
	unsigned t, w;
	uint64_t v = 0;
	unsigned shift = 0;
	size_t k;

	if (end - p < 2 || (t = p[0]) >= 0x80 || t < 8 ||
	    ((w = t & 7) != TL_PB_VARINT && w != TL_PB_LEN))
		return tl_pb_next_slow(m, f);
	for (k = 1; k < 11 && p + k < end; k++) {
		v |= (uint64_t)(p[k] & 0x7f) << shift;
		shift += 7;
		if (!(p[k] & 0x80))
			break;
	}
	if (k == 11 || p + k == end || k == 10)
		return tl_pb_next_slow(m, f);
	k++;			/* past the varint's last byte */
	f->num = t >> 3;
	f->wire = (enum tl_pbwire)w;
	f->off = m->off;
	if (w == TL_PB_VARINT) {
		f->v = v;
		f->data = NULL;
		f->len = 0;
	} else {
		if (v > (uint64_t)(end - p - k))
			return tl_pb_next_slow(m, f);
		f->v = 0;
		f->data = p + k;
		f->len = (size_t)v;
		k += (size_t)v;
	}
	m->p = p + k;
	m->off += k;
	return 1;
}

/*
 * Enter a LEN field as a message of its own: 0, or -1 when the field is
 * not of wire type LEN (a wire type that does not match the schema).
 */
int tl_pb_sub(struct tl_pb *sub, const struct tl_pbf *f);

/*
 * A packed repeated varint field (or a single varint): each value in
 * turn. Start with *pos = 0; 1 and *v set, 0 at the end, -1 malformed.
 */
int tl_pb_packed(const struct tl_pbf *f, size_t *pos, uint64_t *v);

/* Decode one varint at *p (< end): 0 and *p advanced, -1 truncated. */
int tl_pb_varint(const unsigned char **p, const unsigned char *end,
    uint64_t *v);

static inline int64_t
tl_pb_zigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

double tl_pb_double(uint64_t bits);
float tl_pb_float(uint64_t bits);

/* The reason and input offset of the last -1 (of this thread). */
const char *tl_pb_why(void);
uint64_t tl_pb_at(void);

/*
 * A protobuf stream read from a source (its current stream), without
 * holding it: off counts the bytes consumed. Fields are read with
 * tl_pbin_field; a LEN field's bytes are then taken with tl_pbin_take
 * (into buf, valid until the next tl_pbin_field or take) or passed over
 * with tl_pbin_skip.
 * A reader that descends into a large LEN field without taking it reads
 * that field's own fields with tl_pbin_field and stops at its end offset.
 */
struct tl_pbin {
	struct tl_src *src;
	char *chunk;
	size_t n, pos;
	int eof;
	uint64_t off;
	unsigned char *buf;
	size_t cap;
};

void tl_pbin_init(struct tl_pbin *, struct tl_src *);
void tl_pbin_free(struct tl_pbin *);

/*
 * The next field's tag, and its value when it is not LEN; for LEN its
 * length in f->len and f->data NULL (the bytes not yet read). 1 with *f
 * set; 0 at a clean end of the stream; -1 malformed or truncated (then
 * tl_pb_why / tl_pb_at; groups are refused). A read error of the source
 * is reported by the input layer and exits.
 */
int tl_pbin_field(struct tl_pbin *, struct tl_pbf *f);

/* Read the n bytes of a LEN field: 0 and *p set, -1 truncated. */
int tl_pbin_take(struct tl_pbin *, size_t n, const unsigned char **p);

/* Pass over n bytes: 0, -1 truncated. */
int tl_pbin_skip(struct tl_pbin *, uint64_t n);

#endif
