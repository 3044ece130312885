/*
 * tl: the JSON layer. A streaming scanner walks a trace file (an object
 * with a "traceEvents" array, or a bare array of events) and hands out one
 * event, or one other top-level key, at a time as compact JSON text that it
 * has checked against the JSON grammar. For an event, the scanner also
 * gives the tokens of that text exactly as jsmn would make them, so the
 * bytes are read once; jsmn tokenizes every other JSON text (top-level
 * values, JSON columns of a stream). Memory is bounded by the largest
 * single event.
 */
#ifndef TL_JSON_H
#define TL_JSON_H

#include <stddef.h>
#include <stdint.h>

#define JSMN_HEADER
#define JSMN_PARENT_LINKS
#include <jsmn.h>

#include "input.h"

/* A JSON text and its jsmn tokens. */
struct tl_jdoc {
	const char *js;
	size_t len;
	jsmntok_t *tok;
	int ntok;
	unsigned cap;
};

/*
 * Tokenize js[0..len): 0, or -1 when jsmn rejects it. jsmn is lenient
 * ({a:b} passes): give it JSON that a tl tool wrote, such as the JSON
 * columns of a stream, which tl-parse checked.
 */
int tl_json_parse(struct tl_jdoc *, const char *js, size_t len);
/*
 * The quick way to the tokens jsmn makes of a plain JSON value at
 * js[0..len): an object or an array, strict JSON without blanks or raw
 * control bytes, no deeper than 64. 1 and *used its length (it may end
 * before len), *high set when a string holds a byte >= 0x80; 0 for
 * anything else (the tokens undefined), which jsmn must read.
 * tl_json_parse tries it first.
 */
int tl_json_quick(struct tl_jdoc *, const char *js, size_t len,
    size_t *used, int *high);
void tl_json_free(struct tl_jdoc *);
/* A byte of a JSON literal (a number, true, false, null) as jsmn and
 * tl_json_quick read them; a hex digit of a \u escape. */
static inline int
tl_jlitbyte(unsigned c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z') || c == '.' || c == '+' || c == '-';
}
static inline int
tl_jhexdig(unsigned c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}
/* Index of the token after token i and everything inside it. */
static inline int
tl_jskip(const struct tl_jdoc *d, int i)
{
	int end = d->tok[i].end;

	for (i++; i < d->ntok && d->tok[i].start < end; i++)
		;
	return i;
}
/* Token i is a string whose raw text equals s. */
int tl_jeq(const struct tl_jdoc *, int i, const char *s);

/*
 * Decode the body of a JSON string (no quotes) into dst, which holds at
 * least n bytes; return the length. A lone surrogate, \u0000 or a \u
 * without 4 hex digits becomes U+FFFD and counts in *bad.
 */
size_t tl_junescape(char *dst, const char *s, size_t n, unsigned *bad);

/* The 4 hex digits at s (either case) as a number, or -1. */
long tl_hex4(const char *s);

/* Whether p[0..n) is a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?
 * ([eE][-+]?[0-9]+)? */
int tl_jnumber(const char *p, size_t n);

/*
 * Length of the valid UTF-8 sequence at s (n bytes left): 1 to 4, or 0
 * for an invalid or cut sequence, an overlong form, a surrogate or NUL.
 */
size_t tl_utf8len(const unsigned char *s, size_t n);
/* Code point c (below 0x110000) as UTF-8 in d[0..4), a surrogate as its
 * three bytes; return the length. */
size_t tl_utf8put(char *d, unsigned long c);

/*
 * Convert the decimal text of a JSON number (or of a string holding one)
 * in microseconds to integer nanoseconds, exactly, rounding half away from
 * zero below 1 ns. 0, or -1 if not a number, -2 if out of int64 range.
 */
int tl_us_to_ns(const char *s, size_t n, int64_t *ns);

/* The streaming scanner. */
enum { TL_JEVENT = 1, TL_JKEY, TL_JLEFT };

struct tl_jitem {
	int kind;
	uint64_t index;		/* TL_JEVENT, TL_JLEFT: index in traceEvents */
	uint64_t offset;	/* byte offset where the value starts */
	const char *key;	/* TL_JKEY: the key, still JSON-escaped */
	size_t keylen;
	char *text;		/* the value as compact JSON */
	size_t len;
	jsmntok_t *tok;		/* TL_JEVENT: the tokens of text, as jsmn */
	int ntok;		/* would make them (with parent links) */
	unsigned badutf8;	/* invalid UTF-8 sequences, now U+FFFD */
	unsigned ctrl;		/* raw control bytes in strings, now \u00XX */
	unsigned badesc;	/* bad escapes in strings, now literal */
	int bslash;		/* TL_JEVENT: 0 when text holds no '\\' */
};

struct tl_jscan;

struct tl_jscan *tl_jscan_new(struct tl_src *);
/*
 * The way scanners read from now on: "portable" (byte by byte), "sse2"
 * (16 bytes at a time) or "avx2" (32); 0 when the name is none of them or
 * the CPU cannot. Without a call, the way TL_JSCAN names when it is set
 * (tl-parse(1)), else the fastest the CPU has. For tests: every way reads
 * the same.
 */
int tl_jscan_path(const char *name);
/*
 * After this, input that does not begin with '{' or '[' makes the first
 * tl_jscan_next return -2 with nothing reported.
 */
void tl_jscan_quietroot(struct tl_jscan *);
/* 1 with the next item, 0 at the end, -1 on an error (reported). */
int tl_jscan_next(struct tl_jscan *, struct tl_jitem *);
/* Byte offset reached so far. */
uint64_t tl_jscan_offset(const struct tl_jscan *);
/*
 * Nonzero once an array of events was entered: the bare top-level array
 * or the "traceEvents" array of the top-level object.
 */
int tl_jscan_events(const struct tl_jscan *);
void tl_jscan_free(struct tl_jscan *);

/*
 * Events to leave out, known by their "cat": an event for which
 * fn(cat, len, arg) returns 1 may come as a TL_JLEFT item, its index and
 * offset only, checked as JSON but neither copied nor split into tokens.
 * Only a plain event is: an object within the chunk, its strings ASCII
 * without escapes, no deeper than 64, with "ph" (string values only) and
 * one "cat", a string; fn is called with that string, and only for such
 * events. Any other event comes as a TL_JEVENT, as without fn.
 */
void tl_jscan_leaveout(struct tl_jscan *,
    int (*fn)(const char *cat, size_t len, void *arg), void *arg);

/*
 * Reading one stream in two parts at once, when it is held in one buffer
 * (tl_in_whole) that is the scanner's chunk. tl_jscan_stopat makes
 * tl_jscan_next return TL_JSTOPPED, reporting nothing, on reaching byte
 * off of that chunk (1; 0, and nothing happens, if off is outside it or
 * behind the scan);
 * tl_jscan_atevent then tells whether the scan stands in the array of
 * events, before an event's first byte; tl_jscan_unstop goes on past the
 * stop. tl_jscan_nevents is the index the next event gets.
 *
 * tl_jscan_at makes a scanner of p[at..n), a buffer of the stream that s
 * reads, that begins in s's array of events, before an event (after 0)
 * or just after one (after 1), the next event getting index. Past n it
 * asks src for more bytes; with src NULL that is the end, and it writes
 * no messages: errors only return -1. s must stand in its array (NULL
 * otherwise). Scanners share nothing: each may run in a thread of its own.
 * tl_jscan_grow says that the buffer p it reads has grown to n bytes: 1
 * when it reads on in it (0 when it has gone on to src's chunks).
 */
#define TL_JSTOPPED	(-3)
int tl_jscan_stopat(struct tl_jscan *, uint64_t off);
int tl_jscan_atevent(const struct tl_jscan *);
int tl_jscan_grow(struct tl_jscan *, const char *p, size_t n);
void tl_jscan_unstop(struct tl_jscan *);
uint64_t tl_jscan_nevents(const struct tl_jscan *);
struct tl_jscan *tl_jscan_at(const struct tl_jscan *s, struct tl_src *src,
    const char *p, size_t n, uint64_t at, int after, uint64_t index);

#endif
