/*
 * tl: the streaming scanner of trace files (json.h): the grammar of JSON
 * checked byte by byte, the tokens of each event made as jsmn would, and
 * three ways of reading a chunk (a fast path over the bytes of an event,
 * a path for the events left out unread, and the slow path byte by byte)
 * over one state. It is one file of more than 1,200 lines because the
 * three paths share that state and the grammar's steps, which are its
 * own; split, they would be the scanner's internals made public.
 */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#define TL_X86	1
#include <immintrin.h>
#endif

#include "err.h"
#include "json.h"
#include "limit.h"
#include "mem.h"
#include "tsv.h"

enum { M_WS, M_STR, M_ESC, M_UHEX, M_UTF8, M_PRIM };
enum {
	S_OBJ_FIRST, S_OBJ_KEY, S_OBJ_COLON, S_OBJ_VALUE, S_OBJ_NEXT,
	S_ARR_FIRST, S_ARR_VALUE, S_ARR_NEXT
};

struct tl_jscan {
	struct tl_src *src;
	char *chunk;
	size_t n, pos;
	uint64_t base;		/* offset of chunk[0] */
	struct tl_out out;	/* the item being built, in memory */
	int maxdepth;		/* tl_limit[TL_LIM_DEPTH] when made */
	uint64_t maxitem;	/* tl_limit[TL_LIM_VALUE], or none */
	unsigned char *st;	/* the state at each depth */
	int depth;
	int mode;
	int root;		/* 0, '{' or '[' */
	int rootdone;
	int capturing, capdepth, keycap, strkey;
	int evdepth, evnext;
	int kind;
	uint64_t itemoff, nevents, index;
	size_t keylen;
	/* Tokens of the event being captured, in jsmn's form. */
	jsmntok_t *tok;
	int ntok, tokcap, curtok, mk;
	int *tstack;		/* token of the container at each depth */
	int *keytok;		/* its last key, for objects */
	int uhex, u8need;
	unsigned char u8lo, u8hi;
	size_t u8start, pstart;
	unsigned badutf8, ctrl, badesc;
	int bslash;		/* the event's text has a '\\' */
	int ready, quietroot;
	int sawevents;		/* an array of events was entered */
	int stop;		/* tl_jscan_stopat: n is cut to the stop */
	size_t fulln;		/* the chunk's length before */
	int quiet;		/* tl_jscan_at with no source: no messages */
	int (*leave)(const char *, size_t, void *);	/* tl_jscan_leaveout */
	void *leavearg;
};

/* Bytes that end a fast run inside a string: " \ controls and non-ASCII. */
static unsigned char strstop[256];
/* Bytes of a primitive: number or literal. */
static unsigned char primch[256];

static void jscanpath(void);

static void
tables(void)
{
	static int done;
	int c;

	if (done)
		return;
	jscanpath();
	for (c = 0; c < 256; c++) {
		strstop[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x80;
		primch[c] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.';
	}
	done = 1;
}

struct tl_jscan *
tl_jscan_new(struct tl_src *src)
{
	struct tl_jscan *s = xcalloc(1, sizeof *s);

	tables();
	s->src = src;
	tl_out_init(&s->out, -1, NULL);
	s->maxdepth = (int)tl_limit[TL_LIM_DEPTH];
	s->maxitem = tl_limit[TL_LIM_VALUE];	/* at most INT32_MAX */
	s->st = xmalloc((size_t)s->maxdepth);
	s->tstack = xreallocarray(NULL, (size_t)s->maxdepth, sizeof (int));
	s->keytok = xreallocarray(NULL, (size_t)s->maxdepth, sizeof (int));
	return s;
}

void
tl_jscan_free(struct tl_jscan *s)
{
	if (s == NULL)
		return;
	free(s->out.buf);
	free(s->tok);
	free(s->st);
	free(s->tstack);
	free(s->keytok);
	free(s);
}

void
tl_jscan_quietroot(struct tl_jscan *s)
{
	s->quietroot = 1;
}

uint64_t
tl_jscan_offset(const struct tl_jscan *s)
{
	return s->base + s->pos;
}

int
tl_jscan_events(const struct tl_jscan *s)
{
	return s->sawevents;
}

int
tl_jscan_stopat(struct tl_jscan *s, uint64_t off)
{
	if (s->stop || off < s->base + s->pos || off > s->base + s->n)
		return 0;
	s->stop = 1;
	s->fulln = s->n;
	s->n = (size_t)(off - s->base);
	return 1;
}

void
tl_jscan_unstop(struct tl_jscan *s)
{
	if (!s->stop)
		return;
	s->stop = 0;
	s->n = s->fulln;
}

int
tl_jscan_grow(struct tl_jscan *s, const char *p, size_t n)
{
	size_t *end = s->stop ? &s->fulln : &s->n;

	if (s->chunk != p + s->base || n < s->base + *end)
		return 0;
	*end = (size_t)(n - s->base);
	return 1;
}

int
tl_jscan_atevent(const struct tl_jscan *s)
{
	return s->stop && s->pos == s->n && s->mode == M_WS &&
	    !s->capturing && s->evdepth != 0 && s->depth == s->evdepth &&
	    s->st[s->depth - 1] == S_ARR_VALUE;
}

uint64_t
tl_jscan_nevents(const struct tl_jscan *s)
{
	return s->nevents;
}

struct tl_jscan *
tl_jscan_at(const struct tl_jscan *s, struct tl_src *src, const char *p,
    size_t n, uint64_t at, int after, uint64_t index)
{
	struct tl_jscan *t;

	if (s->evdepth == 0 || s->depth < s->evdepth || at > n)
		return NULL;
	t = tl_jscan_new(src);
	t->quiet = src == NULL;
	t->chunk = (char *)p + at;	/* only read */
	t->n = n - (size_t)at;
	t->base = at;
	t->root = s->root;
	t->quietroot = s->quietroot;
	t->sawevents = 1;
	t->evdepth = t->depth = s->evdepth;
	memcpy(t->st, s->st, (size_t)s->evdepth);
	t->st[t->depth - 1] = after ? S_ARR_NEXT : S_ARR_VALUE;
	t->nevents = index;
	t->leave = s->leave;
	t->leavearg = s->leavearg;
	return t;
}

void
tl_jscan_leaveout(struct tl_jscan *s,
    int (*fn)(const char *, size_t, void *), void *arg)
{
	s->leave = fn;
	s->leavearg = arg;
}

static int
fail(struct tl_jscan *s, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
fail(struct tl_jscan *s, uint64_t off, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (s->quiet)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (s->capturing && s->kind == TL_JEVENT)
		tl_warnx("%s: event %" PRIu64 " (byte %" PRIu64 "): %s",
		    tl_in_name(s->src), s->index, off, msg);
	else
		tl_warnx("%s: byte %" PRIu64 ": %s", tl_in_name(s->src), off,
		    msg);
	return -1;
}

/* The value being read at off has grown past the limit. */
static int
toobig(struct tl_jscan *s, uint64_t off)
{
	char b[TL_LIMIT_STRMAX];

	return fail(s, off, "value larger than the limit (--limit %s)",
	    tl_limit_str(b, TL_LIM_VALUE));
}

static int
validprim(const char *p, size_t n)
{
	switch (p[0]) {
	case 't': return n == 4 && memcmp(p, "true", 4) == 0;
	case 'f': return n == 5 && memcmp(p, "false", 5) == 0;
	case 'n': return n == 4 && memcmp(p, "null", 4) == 0;
	case 'N': return n == 3 && memcmp(p, "NaN", 3) == 0;
	case 'I': return n == 8 && memcmp(p, "Infinity", 8) == 0;
	case '-':
		if (n == 9 && memcmp(p, "-Infinity", 9) == 0)
			return 1;
	}
	return tl_jnumber(p, n);
}

static inline int
incap(const struct tl_jscan *s)
{
	return s->capturing || s->keycap;
}

static void
growtok(struct tl_jscan *s)
{
	size_t cap = (size_t)s->tokcap;

	xgrow(&s->tok, &cap, (size_t)s->ntok + 1, sizeof *s->tok);
	if (cap > INT_MAX)
		tl_errx(tl_failstatus, "out of memory");
	s->tokcap = (int)cap;
}

/*
 * A token begins at buffer offset start: a key when key is set. Its parent
 * follows jsmn: an object for a key, the key for a member's value, an
 * array for an element, none for the event itself.
 */
static inline int
newtok(struct tl_jscan *s, jsmntype_t type, int start, int key)
{
	jsmntok_t *t;
	int c, d = s->depth - 1;

	if (s->ntok == s->tokcap)
		growtok(s);
	t = &s->tok[s->ntok];
	t->type = type;
	t->start = start;
	t->end = -1;
	t->size = 0;
	t->parent = -1;
	if (s->depth > s->capdepth) {
		c = s->tstack[d];
		if (key) {
			t->parent = c;
			s->keytok[d] = s->ntok;
		} else if (s->tok[c].type == JSMN_OBJECT)
			t->parent = s->keytok[d];
		else
			t->parent = c;
		s->tok[t->parent].size++;
	}
	return s->curtok = s->ntok++;
}

static jsmntype_t
toktype(int c)
{
	return c == '{' ? JSMN_OBJECT : c == '[' ? JSMN_ARRAY :
	    c == '"' ? JSMN_STRING : JSMN_PRIMITIVE;
}

/* The grammar's steps, for every way of reading. */

/* May a value begin in state t? */
static inline int
valok(int t)
{
	return t == S_OBJ_VALUE || t == S_ARR_FIRST || t == S_ARR_VALUE;
}

/* May a key begin in state t? */
static inline int
keyok(int t)
{
	return t == S_OBJ_FIRST || t == S_OBJ_KEY;
}

/* The state after a value read in state t. */
static inline unsigned char
valdone(int t)
{
	return t == S_OBJ_VALUE ? S_OBJ_NEXT : S_ARR_NEXT;
}

/* The state after a ',' in state t, or -1 if one cannot come there. */
static inline int
comma(int t)
{
	return t == S_OBJ_NEXT ? S_OBJ_KEY : t == S_ARR_NEXT ? S_ARR_VALUE :
	    -1;
}

/* May c close the container of state t? */
static inline int
closeok(int c, int t)
{
	return c == '}' ? t == S_OBJ_FIRST || t == S_OBJ_NEXT :
	    t == S_ARR_FIRST || t == S_ARR_NEXT;
}

/* A value begins with byte c at offset off. */
static inline int
valstart(struct tl_jscan *s, int c, uint64_t off)
{
	int st;

	if (s->depth == 0) {
		if (s->root)
			return fail(s, off, "trailing data after the JSON value");
		if (c != '{' && c != '[') {
			if (s->quietroot)
				return -2;
			return fail(s, off, "not a trace: the top level is "
			    "not an object or an array");
		}
		s->root = c;
		if (c == '[')
			s->evnext = 1;
		return 0;
	}
	st = s->st[s->depth - 1];
	if (!valok(st)) {
		if (c == '"' || c == '{' || c == '[')
			return fail(s, off, "expected %s, found '%c'",
			    st == S_OBJ_COLON ? "':'" :
			    st == S_OBJ_NEXT ? "',' or '}'" : "',' or ']'", c);
		return fail(s, off, "unexpected '%c'", c);
	}
	if (s->capturing) {
		if (s->mk)
			newtok(s, toktype(c), (int)s->out.n + (c == '"'), 0);
		return 0;
	}
	if (s->root == '{' && s->depth == 1) {
		if (s->keylen == sizeof "\"traceEvents\"" - 1 &&
		    memcmp(s->out.buf, "\"traceEvents\"", s->keylen) == 0 &&
		    c == '[') {
			s->evnext = 1;
			return 0;
		}
		s->capturing = 1;
		s->capdepth = s->depth;
		s->kind = TL_JKEY;
		s->mk = 0;
		s->itemoff = off;
		return 0;
	}
	if (s->depth == s->evdepth) {
		s->capturing = 1;
		s->capdepth = s->depth;
		s->kind = TL_JEVENT;
		s->itemoff = off;
		s->index = s->nevents++;
		s->out.n = 0;
		s->ntok = 0;
		s->mk = 1;
		newtok(s, toktype(c), c == '"', 0);
		s->badutf8 = s->ctrl = s->badesc = 0;
		s->bslash = 0;
	}
	return 0;
}

/* A value has ended; the enclosing container is at depth. */
static inline void
valend(struct tl_jscan *s)
{
	if (s->depth == 0) {
		s->rootdone = 1;
		return;
	}
	if (s->capturing && s->depth == s->capdepth) {
		s->capturing = 0;
		s->ready = 1;
	}
	s->st[s->depth - 1] = valdone(s->st[s->depth - 1]);
}

static inline int
endprim(struct tl_jscan *s, uint64_t off)
{
	char q[TL_QUOTE_MAX];

	if (!validprim(s->out.buf + s->pstart, s->out.n - s->pstart))
		return fail(s, off, "not a JSON value: \"%s\"",
		    tl_quote(q, sizeof q, s->out.buf + s->pstart,
		    s->out.n - s->pstart));
	if (s->mk)
		s->tok[s->curtok].end = (int)s->out.n;
	s->mode = M_WS;
	valend(s);
	return 0;
}

/* A string has ended. */
static inline void
endstr(struct tl_jscan *s)
{
	if (s->mk && s->capturing)
		s->tok[s->curtok].end = (int)s->out.n - 1;
	s->mode = M_WS;
	if (s->strkey) {
		s->strkey = 0;
		s->st[s->depth - 1] = S_OBJ_COLON;
		if (s->keycap) {
			s->keycap = 0;
			s->keylen = s->out.n;
		}
		return;
	}
	valend(s);
}

static int
fill(struct tl_jscan *s)
{
	int r;

	s->base += s->n;
	s->pos = s->n = 0;
	if (s->src == NULL)
		return 0;
	r = tl_in_chunk(s->src, &s->chunk, &s->n);
	if (r <= 0)
		s->n = 0;
	return r;
}

static int
atend(struct tl_jscan *s)
{
	uint64_t off = s->base;

	/*
	 * A number or literal that the end cuts ("tru", "1.") is not a bad
	 * value: it is reported as a cut file, below. A whole one ends here.
	 */
	if (s->mode == M_PRIM) {
		if (validprim(s->out.buf + s->pstart, s->out.n - s->pstart)) {
			if (endprim(s, off) < 0)
				return -1;
		} else
			s->mode = M_WS;
	}
	if (s->mode != M_WS)
		return fail(s, off, "unexpected end of input in a string");
	if (s->rootdone)
		return 0;
	if (s->root == 0 && s->quietroot)
		return -2;
	if (s->root == 0)
		return fail(s, off, off == 0 ? "empty input" :
		    "no JSON value");
	/* The JSON Array Format may end without its "]". */
	if (s->root == '[' && s->depth == 1 && !s->capturing)
		return 0;
	if (s->evdepth != 0 && !s->capturing && s->nevents > 0)
		return fail(s, off, "unexpected end of input after event %"
		    PRIu64 " (the file is cut)", s->nevents - 1);
	return fail(s, off, "unexpected end of input (the file is cut)");
}

/*
 * The two spans the scanner spends its time in, three ways: byte by byte
 * (any CPU), 16 bytes at a time (SSE2, which every x86-64 has) and 32
 * (AVX2, where the CPU has it). The way is chosen once (jscanpath), and
 * the fast paths are made once for each (FASTPATH), the spans inlined.
 */
enum { P_PORTABLE, P_SSE2, P_AVX2 };
static int jpath = -1;

/* Offset of the first byte at or after i in p[0..n) that strstop marks. */
static inline size_t
strspan1(const unsigned char *p, size_t i, size_t n)
{
	while (i < n && !strstop[p[i]])
		i++;
	return i;
}

static inline int
isblank1(int c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Offset of the first byte at or after i in p[0..n) that is not blank. */
static inline size_t
wsspan1(const unsigned char *p, size_t i, size_t n)
{
	while (i < n && isblank1(p[i]))
		i++;
	return i;
}

#ifdef TL_X86
/* Bytes >= 0x80 are negative, so "< 0x20" (signed) catches them. */
static inline size_t
strspan16(const unsigned char *p, size_t i, size_t n)
{
	const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');
	const __m128i sp = _mm_set1_epi8(0x20);
	__m128i v;
	unsigned m;

	for (; i + 16 <= n; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(p + i));
		m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, bs)),
		    _mm_cmplt_epi8(v, sp)));
		if (m != 0)
			return i + (size_t)__builtin_ctz(m);
	}
	return strspan1(p, i, n);
}

/* Pretty-printed traces: a newline, then a run of indentation. */
static inline size_t
wsspan16(const unsigned char *p, size_t i, size_t n)
{
	const __m128i sp = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n');
	const __m128i tab = _mm_set1_epi8('\t'), cr = _mm_set1_epi8('\r');
	__m128i v;
	unsigned m;

	if (i < n && !isblank1(p[i]))	/* one blank, as after ':' */
		return i;
	for (; i + 16 <= n; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(p + i));
		m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, nl)),
		    _mm_or_si128(_mm_cmpeq_epi8(v, tab),
		    _mm_cmpeq_epi8(v, cr)))) ^ 0xffff;
		if (m != 0)
			return i + (size_t)__builtin_ctz(m);
	}
	return wsspan1(p, i, n);
}

__attribute__((target("avx2"))) static inline size_t
strspan32(const unsigned char *p, size_t i, size_t n)
{
	const __m256i q = _mm256_set1_epi8('"'), bs = _mm256_set1_epi8('\\');
	const __m256i sp = _mm256_set1_epi8(0x20);
	__m256i v;
	unsigned m;

	for (; i + 32 <= n; i += 32) {
		v = _mm256_loadu_si256((const __m256i *)(p + i));
		m = (unsigned)_mm256_movemask_epi8(_mm256_or_si256(
		    _mm256_or_si256(_mm256_cmpeq_epi8(v, q),
		    _mm256_cmpeq_epi8(v, bs)), _mm256_cmpgt_epi8(sp, v)));
		if (m != 0)
			return i + (size_t)__builtin_ctz(m);
	}
	return strspan16(p, i, n);
}

__attribute__((target("avx2"))) static inline size_t
wsspan32(const unsigned char *p, size_t i, size_t n)
{
	const __m256i sp = _mm256_set1_epi8(' '), nl = _mm256_set1_epi8('\n');
	const __m256i tab = _mm256_set1_epi8('\t');
	const __m256i cr = _mm256_set1_epi8('\r');
	__m256i v;
	unsigned m;

	if (i < n && !isblank1(p[i]))
		return i;
	for (; i + 32 <= n; i += 32) {
		v = _mm256_loadu_si256((const __m256i *)(p + i));
		m = ~(unsigned)_mm256_movemask_epi8(_mm256_or_si256(
		    _mm256_or_si256(_mm256_cmpeq_epi8(v, sp),
		    _mm256_cmpeq_epi8(v, nl)), _mm256_or_si256(
		    _mm256_cmpeq_epi8(v, tab), _mm256_cmpeq_epi8(v, cr))));
		if (m != 0)
			return i + (size_t)__builtin_ctz(m);
	}
	return wsspan16(p, i, n);
}
#endif

/* strspan1 the way chosen, for the general loop. */
static size_t
strspan(const unsigned char *p, size_t i, size_t n)
{
#ifdef TL_X86
	if (jpath == P_AVX2)
		return strspan32(p, i, n);
	if (jpath == P_SSE2)
		return strspan16(p, i, n);
#endif
	return strspan1(p, i, n);
}

int
tl_jscan_path(const char *name)
{
	if (strcmp(name, "portable") == 0)
		jpath = P_PORTABLE;
#ifdef TL_X86
	else if (strcmp(name, "sse2") == 0)
		jpath = P_SSE2;
	else if (strcmp(name, "avx2") == 0 && __builtin_cpu_supports("avx2"))
		jpath = P_AVX2;
#endif
	else
		return 0;
	return 1;
}

/* The way to scan when none was set: TL_JSCAN's, else the fastest. */
static void
jscanpath(void)
{
	const char *e = getenv("TL_JSCAN");

	if (jpath >= 0)
		return;
	if (e != NULL && *e != '\0') {
		if (!tl_jscan_path(e))
			tl_errx(1, "TL_JSCAN: not a way this CPU can scan: "
			    "\"%s\" (portable, sse2, avx2)", e);
		return;
	}
#ifdef TL_X86
	jpath = __builtin_cpu_supports("avx2") ? P_AVX2 : P_SSE2;
#else
	jpath = P_PORTABLE;
#endif
}

static inline int
isdig(int c)
{
	return (unsigned)(c - '0') < 10;
}

/*
 * Offset of the first byte at or after i in p[0..n) that is not a digit,
 * 8 bytes at a time (the digits of a trace's times are 13 and more). A
 * byte b is a digit when b and b + 6 both have 3 for their high half; a
 * carry out of a byte comes only from one that is not a digit, so the
 * first such byte is found right.
 */
static inline size_t
digspan(const unsigned char *p, size_t i, size_t n)
{
	const uint64_t hi = 0xf0f0f0f0f0f0f0f0u, three = 0x3030303030303030u;
	const uint64_t six = 0x0606060606060606u, low = 0x7f7f7f7f7f7f7f7fu;
	uint64_t w, m;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		m = ((w & hi) ^ three) | (((w + six) & hi) ^ three);
		if (m != 0) {
			m = (((m & low) + low) | m) & ~low;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			return i + (size_t)(__builtin_clzll(m) >> 3);
#else
			return i + (size_t)(__builtin_ctzll(m) >> 3);
#endif
		}
	}
	while (i < n && isdig(p[i]))
		i++;
	return i;
}

/*
 * The end of the JSON number that begins at p[i] in p[0..n), the bytes
 * after it not looked at; 0 when none begins there.
 */
static inline size_t
numend(const unsigned char *p, size_t i, size_t n)
{
	size_t k;

	if (p[i] == '-')
		i++;
	if (i < n && p[i] == '0')
		i++;
	else if (i < n && isdig(p[i]))
		i = digspan(p, i + 1, n);
	else
		return 0;
	if (i < n && p[i] == '.') {
		k = ++i;
		if ((i = digspan(p, i, n)) == k)
			return 0;
	}
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		if (++i < n && (p[i] == '+' || p[i] == '-'))
			i++;
		k = i;
		if ((i = digspan(p, i, n)) == k)
			return 0;
	}
	return i;
}

int
tl_jnumber(const char *p, size_t n)
{
	return n > 0 && numend((const unsigned char *)p, 0, n) == n;
}

/*
 * The end of the JSON number at p[i] in p[0..n), checked as it is read,
 * when it is one and a byte that cannot continue a primitive follows it
 * within the chunk; 0 otherwise (a literal, something to report, or the
 * chunk's end), for the slower way.
 */
static inline size_t
numspan(const unsigned char *p, size_t i, size_t n)
{
	i = numend(p, i, n);
	return i > 0 && i < n && !primch[p[i]] ? i : 0;
}

/*
 * The end of the number or literal at p[i] in p[0..n), checked, when a
 * byte that cannot continue it follows within p; 0 otherwise.
 */
static inline size_t
primend(const unsigned char *p, size_t i, size_t n)
{
	size_t j;

	if ((j = numspan(p, i, n)) == 0) {
		for (j = i + 1; j < n && primch[p[j]]; j++)
			;
		if (j == n || !validprim((const char *)p + i, j - i))
			return 0;
	}
	return j;
}

/*
 * The fast path, inside an event: plain ASCII strings, numbers and
 * structure, all within the current chunk. It stops before any byte it
 * does not handle (chunk end, escapes, non-ASCII, errors), which the
 * general loop then takes. 1 when an item is complete.
 */
typedef size_t spanfn(const unsigned char *, size_t, size_t);

/*
 * Copy k bytes of a token, of which avail may be read: a short one as 32
 * bytes, a fixed size (a move or two, not a call); the bytes past k are
 * written over next.
 */
static inline void
copy(char *to, const unsigned char *from, size_t k, size_t avail)
{
	if (k <= 32 && avail >= 32)
		memcpy(to, from, 32);
	else
		memcpy(to, from, k);
}

#define FASTWIN	(64 << 10)	/* the fast path's bytes at a time */

/*
 * The fast path's step after a value, whose state is now t (S_OBJ_NEXT or
 * S_ARR_NEXT): a ',' right after it is taken here, with the blank after
 * it, rather than by another turn of the loop.
 */
#define FASTNEXT(t) do {						\
	if (i < n && p[i] == ',') {					\
		*cs = (t) == S_OBJ_NEXT ? S_OBJ_KEY : S_ARR_VALUE;	\
		*bp++ = ',';						\
		if (++i < n && p[i] == ' ')				\
			i++;						\
	} else								\
		*cs = (t);						\
} while (0)

/*
 * The fast path's newtok: token nt of type ty at [from, to) of the buffer
 * (to -1 while a container is open), its parent par counted. Inside an
 * event every token has a parent, and the state tells which.
 */
#define FASTTOK(ty, from, to, par) do {					\
	jsmntok_t *t_;							\
									\
	if (nt == tokcap) {						\
		s->ntok = nt;						\
		growtok(s);						\
		tk = s->tok;						\
		tokcap = s->tokcap;					\
	}								\
	t_ = &tk[nt];							\
	t_->type = (ty);						\
	t_->start = (int)(from);					\
	t_->end = (int)(to);						\
	t_->size = 0;							\
	t_->parent = (par);						\
	tk[t_->parent].size++;						\
} while (0)

/*
 * The state, the tokens and the buffer are held in locals that nothing
 * else writes (restrict): a store of a byte of the copy or of a state
 * would otherwise make the compiler load every field of s again. The
 * state, the container's token and its last key of the current depth
 * are pointers (cs, ts, ks), and the copy's end one (bp), so that the
 * loop's values fit the registers. It is made twice, making tokens (mk,
 * for an event) and not.
 */
static inline __attribute__((always_inline)) int
fastscan_(struct tl_jscan *s, spanfn *strsp, spanfn *wssp, const int mk)
{
	const unsigned char *restrict p = (const unsigned char *)s->chunk;
	size_t i = s->pos, n = s->n, j;
	unsigned char *restrict cs = s->st + s->depth - 1;
	unsigned char *const capst = s->st + s->capdepth - 1;
	unsigned char *const maxst = s->st + s->maxdepth - 1;
	jsmntok_t *tk = s->tok;
	int *restrict ts = s->tstack + s->depth - 1;
	int *restrict ks = s->keytok + s->depth - 1;
	int c, t, nt = s->ntok, nt0 = nt, tokcap = s->tokcap, par;
	char *restrict bp, *b0;

	/* A window, so that what it may copy (of a chunk that is a whole
	 * mapped file) stays small; the general loop takes the byte at its
	 * end, as at a chunk's. */
	if (n - i > FASTWIN)
		n = i + FASTWIN;
	/* Room for all, and for a short copy's 32 bytes past the end. */
	if (s->out.cap - s->out.n < n - i + 48)
		tl_out_grow(&s->out, n - i + 48);
	b0 = s->out.buf;
	bp = b0 + s->out.n;
	while (i < n) {
		c = p[i];
		t = *cs;
		switch (c) {
		case ' ': case '\n': case '\r': case '\t':
			i = wssp(p, i + 1, n);
			continue;
		case '"':
			j = strsp(p, i + 1, n);
			if (j == n || p[j] != '"')
				goto out;
			if (keyok(t)) {
				if (mk) {
					FASTTOK(JSMN_STRING, bp - b0 + 1,
					    bp - b0 + (j - i), *ts);
					*ks = nt++;
				}
				copy(bp, p + i, j + 1 - i, n - i);
				bp += j + 1 - i;
				i = j + 1;
				/* The ':' and the blank after it. */
				if (i < n && p[i] == ':') {
					*cs = S_OBJ_VALUE;
					*bp++ = ':';
					if (++i < n && p[i] == ' ')
						i++;
				} else
					*cs = S_OBJ_COLON;
				continue;
			}
			if (!valok(t))
				goto out;
			if (mk) {
				FASTTOK(JSMN_STRING, bp - b0 + 1,
				    bp - b0 + (j - i),
				    t == S_OBJ_VALUE ? *ks : *ts);
				nt++;
			}
			copy(bp, p + i, j + 1 - i, n - i);
			bp += j + 1 - i;
			i = j + 1;
			FASTNEXT(valdone(t));
			continue;
		case ':':
			if (t != S_OBJ_COLON)
				goto out;
			*cs = S_OBJ_VALUE;
			break;
		case ',':
			if ((par = comma(t)) < 0)
				goto out;
			*cs = (unsigned char)par;
			break;
		case '{':
		case '[':
			if (!valok(t) || cs == maxst)
				goto out;
			if (mk) {
				FASTTOK(c == '{' ? JSMN_OBJECT : JSMN_ARRAY,
				    bp - b0, -1, t == S_OBJ_VALUE ? *ks : *ts);
				ts[1] = nt++;
			}
			ts++;
			ks++;
			*++cs = c == '{' ? S_OBJ_FIRST : S_ARR_FIRST;
			break;
		case '}':
			if (!closeok('}', t))
				goto out;
			goto close;
		case ']':
			if (!closeok(']', t))
				goto out;
close:
			*bp++ = (char)c;
			i++;
			if (mk)
				tk[*ts].end = (int)(bp - b0);
			ts--;
			ks--;
			if (--cs == capst) {
				*cs = valdone(*cs);
				s->capturing = 0;
				s->ready = 1;
				goto out;
			}
			FASTNEXT(valdone(*cs));
			continue;
		default:
			if (!primch[c] || !valok(t) ||
			    (j = primend(p, i, n)) == 0)
				goto out;
			if (mk) {
				FASTTOK(JSMN_PRIMITIVE, bp - b0,
				    bp - b0 + (j - i),
				    t == S_OBJ_VALUE ? *ks : *ts);
				nt++;
			}
			copy(bp, p + i, j - i, n - i);
			bp += j - i;
			i = j;
			FASTNEXT(valdone(t));
			continue;
		}
		*bp++ = (char)c;
		if (++i < n && p[i] == ' ')	/* ", " and ": " */
			i++;
	}
out:
	s->pos = i;
	s->out.n = (size_t)(bp - b0);
	s->depth = (int)(cs - s->st) + 1;
	s->ntok = nt;
	if (nt != nt0)
		s->curtok = nt - 1;
	return s->ready;
}

static int
fastscan1(struct tl_jscan *s)
{
	return s->mk ? fastscan_(s, strspan1, wsspan1, 1) :
	    fastscan_(s, strspan1, wsspan1, 0);
}

#ifdef TL_X86
static int
fastscan16(struct tl_jscan *s)
{
	return s->mk ? fastscan_(s, strspan16, wsspan16, 1) :
	    fastscan_(s, strspan16, wsspan16, 0);
}

__attribute__((target("avx2"))) static int
fastscan32(struct tl_jscan *s)
{
	return s->mk ? fastscan_(s, strspan32, wsspan32, 1) :
	    fastscan_(s, strspan32, wsspan32, 0);
}
#endif

static int
fastscan(struct tl_jscan *s)
{
#ifdef TL_X86
	if (jpath == P_AVX2)
		return fastscan32(s);
	if (jpath == P_SSE2)
		return fastscan16(s);
#endif
	return fastscan1(s);
}

#define LEAVEDEPTH	64

/*
 * The event at p[i] ('{'), when it is plain and its "cat" is one to leave
 * out (tl_jscan_leaveout): the offset just past it, checked as fastscan
 * checks; 0 where fastscan would stop, or when it is not one to leave out,
 * for the usual way.
 */
static inline __attribute__((always_inline)) size_t
leftout_(struct tl_jscan *s, const unsigned char *p, size_t i, size_t n,
    spanfn *strsp, spanfn *wssp)
{
	unsigned char st[LEAVEDEPTH];
	size_t start = i, j;
	int depth = 0, c, t, key = 0, nph = 0, ncat = 0;

	if (s->depth + 1 >= s->maxdepth)
		return 0;
	st[depth++] = S_OBJ_FIRST;
	i++;
	while (i < n) {
		c = p[i];
		t = st[depth - 1];
		switch (c) {
		case ' ': case '\n': case '\r': case '\t':
			i = wssp(p, i + 1, n);
			continue;
		case '"':
			j = strsp(p, i + 1, n);
			if (j == n || p[j] != '"')
				return 0;
			if (keyok(t)) {
				if (depth == 1) {
					key = j - i == 3 &&
					    memcmp(p + i, "\"ph", 3) == 0 ?
					    'p' : j - i == 4 &&
					    memcmp(p + i, "\"cat", 4) == 0 ?
					    'c' : 0;
					nph += key == 'p';
					if (key == 'c' && ncat++ > 0)
						return 0;
				}
				/* The ':' and the blank after it, as
				 * fastscan takes them. */
				i = j + 1;
				if (i < n && p[i] == ':') {
					st[depth - 1] = S_OBJ_VALUE;
					if (++i < n && p[i] == ' ')
						i++;
				} else
					st[depth - 1] = S_OBJ_COLON;
				continue;
			}
			if (!valok(t))
				return 0;
			if (depth == 1 && key == 'c' &&
			    !s->leave((const char *)p + i + 1, j - i - 1,
			    s->leavearg))
				return 0;
			i = j + 1;
			t = valdone(t);
			goto next;
		case ':':
			if (t != S_OBJ_COLON)
				return 0;
			st[depth - 1] = S_OBJ_VALUE;
			break;
		case ',':
			if ((c = comma(t)) < 0)
				return 0;
			st[depth - 1] = (unsigned char)c;
			break;
		case '{':
		case '[':
			if (!valok(t) || (depth == 1 && key != 0) ||
			    depth == LEAVEDEPTH ||
			    s->depth + depth >= s->maxdepth)
				return 0;
			st[depth++] = c == '{' ? S_OBJ_FIRST : S_ARR_FIRST;
			break;
		case '}':
			if (!closeok('}', t))
				return 0;
			goto close;
		case ']':
			if (!closeok(']', t))
				return 0;
close:
			i++;
			if (--depth == 0)
				return nph > 0 && ncat == 1 &&
				    i - start <= s->maxitem ? i : 0;
			t = valdone(st[depth - 1]);
			goto next;
		default:
			if (!primch[c] || !valok(t) || (depth == 1 && key != 0) ||
			    (j = primend(p, i, n)) == 0)
				return 0;
			i = j;
			t = valdone(t);
			goto next;
		}
		if (++i < n && p[i] == ' ')	/* ", " and ": " */
			i++;
		continue;
next:
		/* After a value, now in state t: a ',' and its blank. */
		if (i < n && p[i] == ',') {
			st[depth - 1] = t == S_OBJ_NEXT ? S_OBJ_KEY :
			    S_ARR_VALUE;
			if (++i < n && p[i] == ' ')
				i++;
		} else
			st[depth - 1] = (unsigned char)t;
	}
	return 0;
}

static size_t
leftout1(struct tl_jscan *s, const unsigned char *p, size_t i, size_t n)
{
	return leftout_(s, p, i, n, strspan1, wsspan1);
}

#ifdef TL_X86
static size_t
leftout16(struct tl_jscan *s, const unsigned char *p, size_t i, size_t n)
{
	return leftout_(s, p, i, n, strspan16, wsspan16);
}

__attribute__((target("avx2"))) static size_t
leftout32(struct tl_jscan *s, const unsigned char *p, size_t i, size_t n)
{
	return leftout_(s, p, i, n, strspan32, wsspan32);
}
#endif

static size_t
leftout(struct tl_jscan *s, const unsigned char *p, size_t i, size_t n)
{
#ifdef TL_X86
	if (jpath == P_AVX2)
		return leftout32(s, p, i, n);
	if (jpath == P_SSE2)
		return leftout16(s, p, i, n);
#endif
	return leftout1(s, p, i, n);
}

static int
scan(struct tl_jscan *s)
{
	const unsigned char *p;
	size_t i, j, n;
	uint64_t off;
	int c, st, r;
	char lb[TL_LIMIT_STRMAX];

	for (;;) {
		if (s->pos == s->n) {
			if (s->stop)
				return TL_JSTOPPED;
			r = fill(s);
			if (r < 0)
				return -1;
			/* The end may complete an item: a bare array's last
			 * element, a number, which has no closing byte. */
			if (r == 0)
				return (r = atend(s)) < 0 ? r : s->ready;
			if (s->base == 0 && s->n >= 3 &&
			    memcmp(s->chunk, "\xef\xbb\xbf", 3) == 0)
				s->pos = 3;	/* UTF-8 byte order mark */
		}
		if (s->mode == M_WS && s->capturing &&
		    s->depth > s->capdepth) {
			if (fastscan(s))
				return 1;
			if (s->pos == s->n)
				continue;
		}
		p = (const unsigned char *)s->chunk;
		n = s->n;
		i = s->pos;
		switch (s->mode) {
		case M_WS:
			while (i < n) {
				c = p[i];
				if (c == ' ' || c == '\n' || c == '\r' ||
				    c == '\t') {
					i++;
					continue;
				}
				off = s->base + i;
				if (s->root == 0 && s->quietroot && c != '{' &&
				    c != '[')
					return -2;
				if (s->rootdone) {
					s->pos = i;
					return fail(s, off, "trailing data "
					    "after the JSON value");
				}
				st = s->depth > 0 ? s->st[s->depth - 1] : -1;
				switch (c) {
				case '"':
					if (st == S_OBJ_FIRST ||
					    st == S_OBJ_KEY) {
						s->strkey = 1;
						if (s->capturing) {
							if (s->mk)
								newtok(s,
								    JSMN_STRING,
								    (int)s->out.n
								    + 1, 1);
						} else if (s->depth == 1) {
							s->keycap = 1;
							s->out.n = 0;
							s->badutf8 = 0;
							s->ctrl = 0;
							s->badesc = 0;
						}
					} else if ((r = valstart(s, c, off)) < 0)
						return r;
					if (incap(s))
						tl_out_char(&s->out, '"');
					s->mode = M_STR;
					i++;
					goto next;
				case '{':
				case '[':
					if ((r = valstart(s, c, off)) < 0)
						return r;
					if (s->leave != NULL && c == '{' &&
					    s->capturing &&
					    s->kind == TL_JEVENT &&
					    s->depth == s->capdepth &&
					    (j = leftout(s, p, i, n)) != 0) {
						s->capturing = 0;
						s->kind = TL_JLEFT;
						s->st[s->depth - 1] = S_ARR_NEXT;
						s->pos = j;
						return 1;
					}
					if (s->depth == s->maxdepth)
						return fail(s, off,
						    "nested deeper than the "
						    "limit (--limit %s)",
						    tl_limit_str(lb,
						    TL_LIM_DEPTH));
					if (s->capturing)
						tl_out_char(&s->out, (char)c);
					s->tstack[s->depth] = s->curtok;
					s->st[s->depth++] = c == '{' ?
					    S_OBJ_FIRST : S_ARR_FIRST;
					if (s->evnext) {
						s->evnext = 0;
						s->evdepth = s->depth;
						s->sawevents = 1;
					}
					i++;
					if (s->capturing)
						goto next;
					break;
				case '}':
				case ']':
					if (!closeok(c, st)) {
						s->pos = i;
						return fail(s, off,
						    "unexpected '%c'", c);
					}
					if (s->capturing) {
						tl_out_char(&s->out, (char)c);
						if (s->mk)
							s->tok[s->tstack[
							    s->depth - 1]].end =
							    (int)s->out.n;
					}
					if (s->depth == s->evdepth)
						s->evdepth = 0;
					s->depth--;
					valend(s);
					i++;
					if (s->ready) {
						s->pos = i;
						return 1;
					}
					break;
				case ':':
					if (st != S_OBJ_COLON)
						return fail(s, off,
						    "unexpected ':'");
					s->st[s->depth - 1] = S_OBJ_VALUE;
					if (s->capturing)
						tl_out_char(&s->out, ':');
					i++;
					break;
				case ',':
					if ((st = comma(st)) < 0)
						return fail(s, off,
						    "unexpected ','");
					s->st[s->depth - 1] =
					    (unsigned char)st;
					if (s->capturing)
						tl_out_char(&s->out, ',');
					i++;
					break;
				default:
					if (!primch[c]) {
						if (c >= 0x21 && c < 0x7f)
							return fail(s, off,
							    "unexpected '%c'",
							    c);
						return fail(s, off,
						    "unexpected byte 0x%02x",
						    (unsigned)c);
					}
					if ((r = valstart(s, c, off)) < 0)
						return r;
					if (!s->capturing)
						return fail(s, off, "not a "
						    "trace: the top level is "
						    "not an object or an "
						    "array");
					s->pstart = s->out.n;
					for (j = i; j < n && primch[p[j]]; j++)
						;
					tl_out_raw(&s->out, (const char *)p + i, j - i);
					i = j;
					if (i == n) {
						s->mode = M_PRIM;
						goto next;
					}
					if (endprim(s, s->base + i) < 0)
						return -1;
					if (s->ready) {
						s->pos = i;
						return 1;
					}
					break;
				}
			}
			break;
		case M_STR:
			for (;;) {
				j = strspan(p, i, n);
				if (j > i && incap(s))
					tl_out_raw(&s->out, (const char *)p + i, j - i);
				i = j;
				if (i == n)
					break;
				c = p[i++];
				if (c == '"') {
					if (incap(s))
						tl_out_char(&s->out, '"');
					endstr(s);
					if (s->ready) {
						s->pos = i;
						return 1;
					}
					goto next;
				}
				if (c == '\\') {
					if (incap(s))
						tl_out_char(&s->out, '\\');
					s->bslash = 1;
					s->mode = M_ESC;
					goto next;
				}
				if (c < 0x20) {
					char u[7];

					snprintf(u, sizeof u, "\\u%04x",
					    (unsigned)c);
					if (incap(s))
						tl_out_raw(&s->out, u, 6);
					s->ctrl++;
					continue;
				}
				/* A UTF-8 lead byte. */
				s->u8start = s->out.n;
				if (c >= 0xc2 && c <= 0xdf) {
					s->u8need = 1;
					s->u8lo = 0x80, s->u8hi = 0xbf;
				} else if (c >= 0xe0 && c <= 0xef) {
					s->u8need = 2;
					s->u8lo = c == 0xe0 ? 0xa0 : 0x80;
					s->u8hi = c == 0xed ? 0x9f : 0xbf;
				} else if (c >= 0xf0 && c <= 0xf4) {
					s->u8need = 3;
					s->u8lo = c == 0xf0 ? 0x90 : 0x80;
					s->u8hi = c == 0xf4 ? 0x8f : 0xbf;
				} else {
					if (incap(s))
						tl_out_raw(&s->out, "\xef\xbf\xbd", 3);
					s->badutf8++;
					continue;
				}
				if (incap(s))
					tl_out_char(&s->out, (char)c);
				s->mode = M_UTF8;
				goto next;
			}
			break;
		case M_UTF8:
			c = p[i];
			if (c >= s->u8lo && c <= s->u8hi) {
				if (incap(s))
					tl_out_char(&s->out, (char)c);
				i++;
				s->u8lo = 0x80, s->u8hi = 0xbf;
				if (--s->u8need == 0)
					s->mode = M_STR;
			} else {
				/* Replace the broken sequence; reread c. */
				if (incap(s)) {
					s->out.n = s->u8start;
					tl_out_raw(&s->out, "\xef\xbf\xbd", 3);
				}
				s->badutf8++;
				s->mode = M_STR;
			}
			break;
		case M_ESC:
			c = p[i];
			if (c == '"' || c == '\\' || c == '/' || c == 'b' ||
			    c == 'f' || c == 'n' || c == 'r' || c == 't') {
				if (incap(s))
					tl_out_char(&s->out, (char)c);
				i++;
				s->mode = M_STR;
			} else if (c == 'u') {
				if (incap(s))
					tl_out_char(&s->out, 'u');
				i++;
				s->uhex = 0;
				s->mode = M_UHEX;
			} else {
				/* Keep the backslash as a character. */
				if (incap(s))
					tl_out_char(&s->out, '\\');
				s->badesc++;
				s->mode = M_STR;
			}
			break;
		case M_UHEX:
			c = p[i];
			if (!isxdigit(c))
				return fail(s, s->base + i,
				    "bad \\u escape in a string");
			if (incap(s))
				tl_out_char(&s->out, (char)c);
			i++;
			if (++s->uhex == 4)
				s->mode = M_STR;
			break;
		case M_PRIM:
			for (j = i; j < n && primch[p[j]]; j++)
				;
			tl_out_raw(&s->out, (const char *)p + i, j - i);
			i = j;
			if (i < n) {
				if (endprim(s, s->base + i) < 0)
					return -1;
				if (s->ready) {
					s->pos = i;
					return 1;
				}
			}
			break;
		}
next:
		s->pos = i;
		if (s->out.n > s->maxitem)
			return toobig(s, s->base + i);
	}
}

int
tl_jscan_next(struct tl_jscan *s, struct tl_jitem *it)
{
	int r;

	s->ready = 0;
	r = scan(s);
	if (r <= 0)
		return r;
	/* The fast path checks no size: a value it read whole, here. */
	if (s->out.n > s->maxitem) {
		s->capturing = 1;	/* for fail's "event N" */
		return toobig(s, s->itemoff);
	}
	memset(it, 0, sizeof *it);
	it->kind = s->kind;
	it->offset = s->itemoff;
	if (s->kind == TL_JLEFT) {
		it->index = s->index;
		it->text = s->out.buf;
		return 1;
	}
	it->tok = s->tok;
	it->ntok = s->kind == TL_JEVENT ? s->ntok : 0;
	it->badutf8 = s->badutf8;
	it->ctrl = s->ctrl;
	it->badesc = s->badesc;
	/* A raw control byte became "\\u00XX". */
	it->bslash = s->bslash || s->ctrl > 0;
	if (s->kind == TL_JEVENT) {
		it->index = s->index;
		it->text = s->out.buf;
		it->len = s->out.n;
	} else {
		it->key = s->out.buf + 1;
		it->keylen = s->keylen - 2;
		it->text = s->out.buf + s->keylen;
		it->len = s->out.n - s->keylen;
	}
	return 1;
}
