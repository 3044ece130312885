/*
 * tl: the stream format (tl-tsv(5)). A reader that checks the header and
 * the field count of every record and hands out fields as views, and a
 * buffered writer that escapes \ TAB LF CR as \\ \t \n \r.
 */
#ifndef TL_TSV_H
#define TL_TSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>
#include <string.h>

#include "input.h"

/* Escape s[0..n) into dst, which holds at least 2n bytes; return length. */
size_t tl_tsv_escape(char *dst, const char *s, size_t n);
/* Unescape s[0..n) into dst (dst may be s); -1 on a bad escape. */
ptrdiff_t tl_tsv_unescape(char *dst, const char *s, size_t n);

/* Writer. */
struct tl_out {
	int fd;
	const char *name;
	char *buf;
	size_t n, cap;
};

/*
 * A writer on fd; with fd -1, a memory buffer that grows (read o->buf,
 * o->n). The first writer on fd 1 is flushed before a fatal error exits.
 */
void tl_out_init(struct tl_out *, int fd, const char *name);
void tl_out_flush(struct tl_out *);
/* Flush and close; exit 1 with a message if any write failed. */
void tl_out_close(struct tl_out *);
void tl_out_grow(struct tl_out *, size_t need);
/* tl_out_raw's way when s[0..n) does not fit: a writer on fd writes bytes
 * that do not fit its buffer at all straight through, never held twice. */
void tl_out_rawmore(struct tl_out *, const char *s, size_t n);
void tl_out_field(struct tl_out *, const char *s, size_t n);	/* escaped */
void tl_out_cstr(struct tl_out *, const char *s);		/* escaped */
/* Escaped, for text known to hold no TAB, LF or CR (such as JSON text). */
void tl_out_json(struct tl_out *, const char *s, size_t n);
void tl_out_i64(struct tl_out *, int64_t);
void tl_out_double(struct tl_out *, double);			/* round trip */

static inline void
tl_out_raw(struct tl_out *o, const char *s, size_t n)
{
	if (n == 0)		/* s may be NULL then */
		return;
	if (o->cap - o->n < n) {
		tl_out_rawmore(o, s, n);
		return;
	}
	memcpy(o->buf + o->n, s, n);
	o->n += n;
}

static inline void
tl_out_char(struct tl_out *o, char c)
{
	if (o->n == o->cap)
		tl_out_grow(o, 1);
	o->buf[o->n++] = c;
}

/* Write a header from a NULL-terminated list of names. */
void tl_out_header(struct tl_out *, const char *const *names);

/* Decimal text of an integer in buf[TL_I64_MAX], no NUL; its length. */
#define TL_I64_MAX	21
size_t tl_fmt_i64(char *buf, int64_t);
/*
 * A count written as it goes (such as a row's uid): the text of the last
 * number written, which the next, when one more, is made from by carrying
 * a digit rather than formatted anew. Zeroed, it holds none.
 */
struct tl_count {
	uint64_t v;
	size_t n;
	char d[TL_I64_MAX];
};
void tl_out_count(struct tl_out *, struct tl_count *, uint64_t v);
/*
 * The integer that decimal text s[0..n) is (an optional '-', digits
 * only): 0; -1 if it is not one, -2 if it is out of int64's range.
 */
int tl_parse_i64(const char *s, size_t n, int64_t *v);

/* Shortest text that reads back as the same double, NUL-terminated;
 * returns its length. */
int tl_fmt_double(char *buf, size_t cap, double);

/* Reader. */
struct tl_tsv {
	struct tl_src *src;
	const char *name;
	uint64_t lineno;
	size_t ncol;
	char **col;		/* header names */
	char **f;		/* current record: field views */
	size_t *fl;		/* their lengths */
	unsigned char *fu;	/* field already unescaped (when esc) */
	int esc;		/* the current line has a backslash */
	const char *end;	/* the end of the current line's buffer */
	char *chunk;
	size_t nchunk, pos;
	int eof;
	char *carry;
	size_t ncarry, carrycap;
};

/* Read and check the header of the current stream of src; exit on error. */
struct tl_tsv *tl_tsv_open(struct tl_src *src);
void tl_tsv_close(struct tl_tsv *);
/* Index of a column by name, or -1. */
int tl_tsv_col(const struct tl_tsv *, const char *name);
/* Index of a column that must be there; exit with a located error if not. */
int tl_tsv_need(const struct tl_tsv *, const char *name);
/* Next record: 1, or 0 at the end; exit on a malformed record. */
int tl_tsv_next(struct tl_tsv *);
/* Field i unescaped (in place); NULL when empty (absent). Inline for
 * a line without a backslash, which has nothing to unescape. */
const char *tl_tsv_unesc_(struct tl_tsv *, int i, size_t *len);
static inline const char *
tl_tsv_str(struct tl_tsv *t, int i, size_t *len)
{
	if (t->esc && t->fl[i] != 0)
		return tl_tsv_unesc_(t, i, len);
	if (len != NULL)
		*len = t->fl[i];
	return t->fl[i] != 0 ? t->f[i] : NULL;
}
/*
 * Eight digit characters in w, the first in its lowest byte: 1 and
 * their value in *v, or 0 if any byte of w is not a digit.
 */
static inline int
tl_digits8(uint64_t w, uint64_t *v)
{
	if (((w & 0xf0f0f0f0f0f0f0f0u) | ((w + 0x0606060606060606u) &
	    0xf0f0f0f0f0f0f0f0u) >> 4) != 0x3333333333333333u)
		return 0;
	w -= 0x3030303030303030u;
	w = w * 10 + (w >> 8);
	*v = (uint32_t)(((w & 0x000000ff000000ffu) * 0x000f424000000064u +
	    (w >> 16 & 0x000000ff000000ffu) * 0x0000271000000001u) >> 32);
	return 1;
}

/* Field i as an integer: 1 set, 0 absent; exit if not an integer.
 * Inline: tools read several of every row, most of them short, whose
 * eight bytes from the field's first are read at once when the line's
 * buffer holds them. */
noreturn void tl_tsv_badi64(const struct tl_tsv *, int i, int why);
static inline int
tl_tsv_i64(struct tl_tsv *t, int i, int64_t *v)
{
	const char *s = t->f[i];
	size_t n = t->fl[i];
	int r;

	if (n == 0)
		return 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (n <= 8 && (size_t)(t->end - s) >= 8) {
		uint64_t w, u;
		unsigned sh = 8 * (8 - (unsigned)n);

		memcpy(&w, s, 8);
		/* the digits last, after '0's */
		w = w << sh | (0x3030303030303030u & (((uint64_t)1 << sh) - 1));
		if (tl_digits8(w, &u)) {
			*v = (int64_t)u;
			return 1;
		}
	}
#endif
	if ((r = tl_parse_i64(s, n, v)) != 0)
		tl_tsv_badi64(t, i, r);
	return 1;
}
/* Field i as a double: 1 set, 0 absent; exit if not a number. */
int tl_tsv_double(struct tl_tsv *, int i, double *v);
/*
 * Several streams read as one: the first stream's header is kept, and
 * every later one must be the same. tl_hdr_same returns 1 for the first
 * (now kept in h), 0 for a later one that matches, and exits with
 * "NAME:1: header differs from FIRST" otherwise.
 */
struct tl_hdr {
	char **col;
	size_t n;
	char *name;
};
int tl_hdr_same(struct tl_hdr *h, const struct tl_tsv *);
void tl_hdr_free(struct tl_hdr *h);

/* Exit 1 with "PROG: NAME:LINE: message". */
/*
 * Column i of a header, read as raw[0..n) and kept as col[i]: an error at
 * name:line if it is empty, has a NUL byte or repeats one of col[0..i).
 */
void tl_tsv_checkcol(const char *name, uint64_t line, char *const *col,
    size_t i, const char *raw, size_t n);
noreturn void tl_tsv_errx(const struct tl_tsv *, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
