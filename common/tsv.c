/* tl: the stream format: reader and writer. */
#define _GNU_SOURCE		/* F_SETPIPE_SZ */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "dtoa.h"
#include "err.h"
#include "limit.h"
#include "mem.h"
#include "pyfmt.h"
#include "tsv.h"

#define OUTBUF	(64 * 1024)
#define PIPEBUF	(1024 * 1024)

/* Bytes that need an escape: \ TAB LF CR. */
static const unsigned char special[256] = {
	['\\'] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1
};

size_t
tl_tsv_escape(char *dst, const char *s, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '\\': dst[o++] = '\\'; dst[o++] = '\\'; break;
		case '\t': dst[o++] = '\\'; dst[o++] = 't'; break;
		case '\n': dst[o++] = '\\'; dst[o++] = 'n'; break;
		case '\r': dst[o++] = '\\'; dst[o++] = 'r'; break;
		default: dst[o++] = s[i];
		}
	}
	return o;
}

ptrdiff_t
tl_tsv_unescape(char *dst, const char *s, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		if (s[i] != '\\') {
			dst[o++] = s[i];
			continue;
		}
		if (++i == n)
			return -1;
		switch (s[i]) {
		case '\\': dst[o++] = '\\'; break;
		case 't': dst[o++] = '\t'; break;
		case 'n': dst[o++] = '\n'; break;
		case 'r': dst[o++] = '\r'; break;
		default: return -1;
		}
	}
	return (ptrdiff_t)o;
}

static struct tl_out *mainout;

/* Before a fatal error: write out what the main output holds. */
static void
flushmain(void)
{
	struct tl_out *o = mainout;

	mainout = NULL;
	if (o != NULL && o->buf != NULL && o->fd >= 0)
		tl_out_flush(o);
}

void
tl_out_init(struct tl_out *o, int fd, const char *name)
{
	struct stat st;

	/*
	 * A pipe of 1 MiB rather than 64 KiB: a stage and the next run side
	 * by side with sixteen times fewer switches between them.
	 */
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fd, F_SETPIPE_SZ, PIPEBUF);
	o->fd = fd;
	o->name = name;
	o->cap = OUTBUF;
	o->buf = xmalloc(o->cap);
	o->n = 0;
	if (fd == 1 && mainout == NULL) {
		mainout = o;
		tl_err_hook = flushmain;
	}
}

static void
writeall(struct tl_out *o, const char *p, size_t n)
{
	ssize_t k;

	while (n > 0) {
		k = write(o->fd, p, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			/* A closed pipe ends the program quietly (only seen
			 * here when the parent ignores SIGPIPE). */
			if (errno == EPIPE)
				exit(tl_failstatus);
			o->n = 0;	/* nothing more to flush on the way out */
			tl_err(tl_failstatus, "%s", o->name);
		}
		p += k;
		n -= (size_t)k;
	}
}

void
tl_out_flush(struct tl_out *o)
{
	if (o->fd < 0)		/* a memory buffer keeps its bytes */
		return;
	writeall(o, o->buf, o->n);
	o->n = 0;
}

void
tl_out_grow(struct tl_out *o, size_t need)
{
	if (o->fd < 0) {	/* a memory buffer: grow it */
		size_t cap = o->cap;

		xgrow(&o->buf, &cap, o->n + need, 1);
		o->cap = cap;
		return;
	}
	tl_out_flush(o);
	if (need > o->cap) {
		free(o->buf);
		o->cap = need;
		o->buf = xmalloc(o->cap);
	}
}

void
tl_out_rawmore(struct tl_out *o, const char *s, size_t n)
{
	if (o->fd >= 0 && n >= o->cap) {
		tl_out_flush(o);
		writeall(o, s, n);
		return;
	}
	tl_out_grow(o, n);
	memcpy(o->buf + o->n, s, n);
	o->n += n;
}

void
tl_out_close(struct tl_out *o)
{
	if (o->fd >= 0)
		tl_out_flush(o);
	if (mainout == o)
		mainout = NULL;
	free(o->buf);
	o->buf = NULL;
}

void
tl_out_field(struct tl_out *o, const char *s, size_t n)
{
	size_t i, run;

	for (;;) {
		for (i = 0; i < n && !special[(unsigned char)s[i]]; i++)
			;
		run = i;
		if (run > 0)
			tl_out_raw(o, s, run);
		if (run == n)
			return;
		tl_out_char(o, '\\');
		switch (s[run]) {
		case '\\': tl_out_char(o, '\\'); break;
		case '\t': tl_out_char(o, 't'); break;
		case '\n': tl_out_char(o, 'n'); break;
		default: tl_out_char(o, 'r'); break;
		}
		s += run + 1;
		n -= run + 1;
	}
}

void
tl_out_json(struct tl_out *o, const char *s, size_t n)
{
	const char *bs;
	size_t k;

	while ((bs = memchr(s, '\\', n)) != NULL) {
		k = (size_t)(bs - s) + 1;
		tl_out_raw(o, s, k);
		tl_out_char(o, '\\');
		s += k;
		n -= k;
	}
	tl_out_raw(o, s, n);
}

void
tl_out_cstr(struct tl_out *o, const char *s)
{
	tl_out_field(o, s, strlen(s));
}

static const char digit2[200] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* The 8 digits of r < 10^8 ending at p. */
static inline void
digits8(char *p, uint32_t r)
{
	uint32_t hi = r / 10000, lo = r % 10000;

	memcpy(p - 2, digit2 + 2 * (lo % 100), 2);
	memcpy(p - 4, digit2 + 2 * (lo / 100), 2);
	memcpy(p - 6, digit2 + 2 * (hi % 100), 2);
	memcpy(p - 8, digit2 + 2 * (hi / 100), 2);
}

/* Its length first (from its bit length), then its digits written back
 * from the end, eight at a time in 32-bit arithmetic, then two at a
 * time. */
size_t
tl_fmt_i64(char *buf, int64_t v)
{
	static const uint64_t pow10[20] = { 1, 10, 100, 1000, 10000,
		100000, 1000000, 10000000, 100000000, 1000000000, 10000000000,
		100000000000, 1000000000000, 10000000000000, 100000000000000,
		1000000000000000, 10000000000000000, 100000000000000000,
		1000000000000000000, 10000000000000000000u };
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	size_t n, neg = v < 0, t;
	uint32_t w;
	char *p;

	/* floor(log10(u)) from its bit length, one off at most */
	t = (size_t)(64 - __builtin_clzll(u | 1)) * 1233 >> 12;
	n = t + 1 - (u < pow10[t]);
	n += n == 0;		/* 0 */
	if (neg)
		*buf = '-';
	p = buf + neg + n;
	while (u >= 100000000) {
		digits8(p, (uint32_t)(u % 100000000));
		p -= 8;
		u /= 100000000;
	}
	w = (uint32_t)u;
	while (w >= 100) {
		p -= 2;
		memcpy(p, digit2 + 2 * (w % 100), 2);
		w /= 100;
	}
	if (w >= 10) {
		p -= 2;
		memcpy(p, digit2 + 2 * w, 2);
	} else
		*--p = (char)('0' + w);
	return n + neg;
}

void
tl_out_i64(struct tl_out *o, int64_t v)
{
	if (o->cap - o->n < TL_I64_MAX)
		tl_out_grow(o, TL_I64_MAX);
	o->n += tl_fmt_i64(o->buf + o->n, v);
}

void
tl_out_count(struct tl_out *o, struct tl_count *c, uint64_t v)
{
	size_t i;

	if (c->n > 0 && v == c->v + 1 && v <= INT64_MAX) {
		for (i = c->n; i > 0 && c->d[i - 1] == '9'; i--)
			c->d[i - 1] = '0';
		if (i > 0)
			c->d[i - 1]++;
		else {		/* 99 to 100 */
			memmove(c->d + 1, c->d, c->n++);
			c->d[0] = '1';
		}
	} else
		c->n = tl_fmt_i64(c->d, (int64_t)v);
	c->v = v;
	tl_out_raw(o, c->d, c->n);
}

int
tl_fmt_double(char *buf, size_t cap, double v)
{
	char dig[20];
	int prec, n = 0, nd, e;

	if (isnan(v))
		return snprintf(buf, cap, "nan");
	if (isinf(v))
		return snprintf(buf, cap, v < 0 ? "-inf" : "inf");
	/* A whole number below 1e15 is its digits, as %.15g writes it. */
	if (fabs(v) < 1e15 && v == (double)(int64_t)v && cap >= TL_I64_MAX &&
	    (v != 0 || !signbit(v))) {
		n = (int)tl_fmt_i64(buf, (int64_t)v);
		buf[n] = '\0';
		return n;
	}
	/* Not whole, so the milli text has a nonzero fraction: %g's form. */
	if (cap >= TL_PY_FLOATMAX && (n = tl_fmt_milli(buf, v)) > 0)
		return n;
	/*
	 * The shortest digits that read back (the closest of them), laid
	 * out as %.Pg, P the larger of 15 and their count: %.15g's text when
	 * 15 digits or fewer read back, else %.16g's or %.17g's; but just
	 * above a power of two, where the doubles below are closer together,
	 * 16 digits may read back where %.16g's rounding does not. Not for
	 * -0 and subnormals, which have fewer digits than %.15g writes.
	 */
	if (cap >= TL_PY_FLOATMAX && fabs(v) >= DBL_MIN) {
		nd = tl_dtoa(v, dig, &e);
		return tl_fmt_digits(buf, v < 0, dig, nd, e, nd > 15 ? nd : 15,
		    0);
	}
	for (prec = 15; prec <= 17; prec++) {
		n = snprintf(buf, cap, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return n;
}

void
tl_out_double(struct tl_out *o, double v)
{
	char tmp[40];
	int n = tl_fmt_double(tmp, sizeof tmp, v);

	tl_out_raw(o, tmp, (size_t)n);
}

void
tl_out_header(struct tl_out *o, const char *const *names)
{
	size_t i;

	for (i = 0; names[i] != NULL; i++) {
		if (i > 0)
			tl_out_char(o, '\t');
		tl_out_raw(o, names[i], strlen(names[i]));
	}
	tl_out_char(o, '\n');
	tl_out_flush(o);	/* early, so a pipeline sees it at once */
}

void
tl_tsv_errx(const struct tl_tsv *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tl_verrx_at(t->name, t->lineno, fmt, ap);
}

/* The line being read has n bytes so far: an error past the limit. */
static inline void
checklen(struct tl_tsv *t, size_t n)
{
	uint64_t l = tl_limit[TL_LIM_LINE];
	char b[TL_LIMIT_STRMAX];

	if (l == 0 || n <= l)
		return;
	t->lineno++;
	tl_tsv_errx(t, "line longer than the limit (--limit %s)",
	    tl_limit_str(b, TL_LIM_LINE));
}

/* A line buffer grown past this is given back once its line is done. */
#define CARRYKEEP	((size_t)16 << 20)

/*
 * The next line, without its LF, as a view; NULL at the end. A line
 * longer than tl_limit[TL_LIM_LINE] is an error.
 */
static char *
getline_(struct tl_tsv *t, size_t *len)
{
	char *nl;
	size_t n;

	t->ncarry = 0;
	if (t->carrycap > CARRYKEEP) {	/* held for one long line only */
		free(t->carry);
		t->carry = NULL;
		t->carrycap = 0;
	}
	for (;;) {
		if (t->pos == t->nchunk && !tl_in_more(t->src, &t->chunk,
		    &t->nchunk, &t->pos, &t->eof))
			break;
		n = t->nchunk - t->pos;
		nl = memchr(t->chunk + t->pos, '\n', n);
		if (nl != NULL)
			n = (size_t)(nl - (t->chunk + t->pos));
		if (nl != NULL && t->ncarry == 0) {
			char *line = t->chunk + t->pos;

			checklen(t, n);
			t->end = t->chunk + t->nchunk;
			t->pos += n + 1;
			*len = n;
			t->lineno++;
			return line;
		}
		checklen(t, t->ncarry + n);
		xgrow(&t->carry, &t->carrycap, t->ncarry + n + 1, 1);
		memcpy(t->carry + t->ncarry, t->chunk + t->pos, n);
		t->ncarry += n;
		t->pos += n + (nl != NULL);
		if (nl != NULL) {
			t->end = t->carry + t->carrycap;
			*len = t->ncarry;
			t->lineno++;
			return t->carry;
		}
	}
	if (t->ncarry > 0) {
		t->lineno++;
		tl_tsv_errx(t, "last line does not end in a newline");
	}
	return NULL;
}

/*
 * Split a line into fields; return the count (at most max fields stored,
 * then the count goes on). f and fl hold max + SPLITPAD: a block of 16
 * bytes begun with at most max fields stored adds at most 16, so a block
 * stores without a check of its own. *esc: 1 when the line has a \.
 */
#define SPLITPAD	17

static size_t
split(char *line, size_t len, char **f, size_t *fl, size_t max, int *esc)
{
	char *s = line, *e;
	size_t k = 0, i = 0;
	int bs = 0;

#define FIELD(end) do {							\
		e = (end);						\
		f[k] = s;						\
		fl[k] = (size_t)(e - s);				\
		k++;							\
		s = e + 1;						\
	} while (0)
#ifdef __SSE2__
	/*
	 * Fields are short: find the TABs (and any \) of 16 bytes at a
	 * time; the last bytes of a line of 16 or more, in the 16 that end
	 * it. A block begun with at most max fields stored stores all its
	 * own; past max, they are only counted.
	 */
	const __m128i tab = _mm_set1_epi8('\t'), bsl = _mm_set1_epi8('\\');
	__m128i v;
	uint64_t m;
	unsigned b = 0;
	char *base;

#define BLOCK(p, drop) do {						\
		base = (p);						\
		v = _mm_loadu_si128((const __m128i *)(void *)base);	\
		m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, tab)) \
		    >> (drop) << (drop);				\
		b |= (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, bsl)); \
		if (k > max)						\
			k += (size_t)__builtin_popcountll(m);		\
		else							\
			for (; m != 0; m &= m - 1)			\
				FIELD(base + __builtin_ctzll(m));	\
	} while (0)
	if (len >= 16) {
		for (; i + 16 <= len; i += 16)
			BLOCK(line + i, 0);
		if (i < len)
			BLOCK(line + len - 16, i + 16 - len);
		i = len;
	}
	bs = b != 0;
#undef BLOCK
#endif
	for (; i < len; i++) {
		if (line[i] == '\t') {
			if (k < max)
				FIELD(line + i);
			else
				k++;
		}
		bs |= line[i] == '\\';
	}
	if (k < max)
		FIELD(line + len);
	else
		k++;
#undef FIELD
	*esc = bs;
	return k;
}

void
tl_tsv_checkcol(const char *name, uint64_t line, char *const *col, size_t i,
    const char *raw, size_t n)
{
	size_t j;

	if (n == 0)
		tl_errx_at(name, line, "column %zu has an empty name", i + 1);
	if (memchr(raw, '\0', n) != NULL)	/* names are strings */
		tl_errx_at(name, line, "column %zu has a NUL byte in its name",
		    i + 1);
	for (j = 0; j < i; j++)
		if (strcmp(col[j], col[i]) == 0)
			tl_errx_at(name, line, "duplicate column \"%s\"",
			    col[i]);
}

struct tl_tsv *
tl_tsv_open(struct tl_src *src)
{
	struct tl_tsv *t;
	char *line, **f;
	size_t len, n, i, *fl;

	t = xcalloc(1, sizeof *t);
	t->src = src;
	t->name = tl_in_name(src);
	line = getline_(t, &len);
	if (line == NULL) {
		t->lineno = 1;
		tl_tsv_errx(t, "empty input: no header");
	}
	if (len > 0 && line[len - 1] == '\r')
		tl_tsv_errx(t, "line ends in CR (convert with dos2unix)");
	for (n = 1, i = 0; i < len; i++)
		n += line[i] == '\t';
	f = xcalloc(n + SPLITPAD, sizeof *f);
	fl = xcalloc(n + SPLITPAD, sizeof *fl);
	split(line, len, f, fl, n, &t->esc);
	t->ncol = n;
	t->col = xcalloc(n, sizeof *t->col);
	for (i = 0; i < n; i++) {
		t->col[i] = xmemdup(f[i], fl[i]);
		tl_tsv_checkcol(t->name, t->lineno, t->col, i, f[i], fl[i]);
	}
	t->f = (char **)f;
	t->fl = fl;
	t->fu = xcalloc(n, 1);
	return t;
}

void
tl_tsv_close(struct tl_tsv *t)
{
	if (t == NULL)
		return;
	xfreev(t->col, t->ncol);
	free(t->f);
	free(t->fl);
	free(t->fu);
	free(t->carry);
	free(t);
}

int
tl_hdr_same(struct tl_hdr *h, const struct tl_tsv *t)
{
	size_t i;

	if (h->col == NULL) {
		h->n = t->ncol;
		h->col = xcalloc(h->n, sizeof *h->col);
		for (i = 0; i < h->n; i++)
			h->col[i] = xstrdup(t->col[i]);
		h->name = xstrdup(t->name);
		return 1;
	}
	if (t->ncol != h->n)
		goto differ;
	for (i = 0; i < h->n; i++)
		if (strcmp(t->col[i], h->col[i]) != 0)
			goto differ;
	return 0;
differ:
	tl_errx(tl_failstatus, "%s:1: header differs from %s", t->name,
	    h->name);
}

void
tl_hdr_free(struct tl_hdr *h)
{
	xfreev(h->col, h->n);
	free(h->name);
	memset(h, 0, sizeof *h);
}

int
tl_tsv_col(const struct tl_tsv *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncol; i++)
		if (strcmp(t->col[i], name) == 0)
			return (int)i;
	return -1;
}

int
tl_tsv_need(const struct tl_tsv *t, const char *name)
{
	int i = tl_tsv_col(t, name);

	if (i < 0)
		tl_errx(tl_failstatus, "%s:1: missing required column \"%s\"", t->name,
		    name);
	return i;
}

int
tl_tsv_next(struct tl_tsv *t)
{
	char *line;
	size_t len, k;

	line = getline_(t, &len);
	if (line == NULL)
		return 0;
	if (len > 0 && line[len - 1] == '\r')
		tl_tsv_errx(t, "line ends in CR (convert with dos2unix)");
	k = split(line, len, t->f, t->fl, t->ncol, &t->esc);
	if (k != t->ncol)
		tl_tsv_errx(t, "expected %zu fields, found %zu", t->ncol, k);
	if (t->esc)	/* else no field has an escape to undo */
		memset(t->fu, 0, t->ncol);
	return 1;
}

/* tl_tsv_str of a nonempty field of a line with a backslash. */
const char *
tl_tsv_unesc_(struct tl_tsv *t, int i, size_t *len)
{
	ptrdiff_t n;
	char q[TL_QUOTE_MAX];

	if (!t->fu[i]) {
		if (memchr(t->f[i], '\\', t->fl[i]) != NULL) {
			n = tl_tsv_unescape(t->f[i], t->f[i], t->fl[i]);
			if (n < 0)
				tl_tsv_errx(t, "column \"%s\": bad escape: "
				    "\"%s\"", t->col[i], tl_quote(q, sizeof q,
				    t->f[i], t->fl[i]));
			t->fl[i] = (size_t)n;
		}
		t->fu[i] = 1;
	}
	if (len != NULL)
		*len = t->fl[i];
	return t->f[i];
}

int
tl_parse_i64(const char *s, size_t n, int64_t *v)
{
	uint64_t u = 0, lim = INT64_MAX;
	size_t k = 0;
	unsigned d;

	if (n > 0 && s[0] == '-') {
		k = 1;
		lim = (uint64_t)INT64_MAX + 1;
	}
	if (k == n)
		return -1;
	if (n - k <= 19) {	/* < 10^19: cannot overflow a uint64_t */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* Eight digits at a time (a time in ns has 16 to 19). */
		for (; n - k >= 8; k += 8) {
			uint64_t w;

			memcpy(&w, s + k, 8);
			if (!tl_digits8(w, &w))
				return -1;
			u = u * 100000000 + w;
		}
#endif
		for (; k < n; k++) {
			if ((d = (unsigned char)s[k] - '0') > 9)
				return -1;
			u = u * 10 + d;
		}
		if (u > lim)
			return -2;
	}
	for (; k < n; k++) {
		if ((d = (unsigned char)s[k] - '0') > 9)
			return -1;
		if (u > (lim - d) / 10)
			return -2;
		u = u * 10 + d;
	}
	*v = s[0] == '-' ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

void
tl_tsv_badi64(const struct tl_tsv *t, int i, int why)
{
	char q[TL_QUOTE_MAX];

	tl_tsv_errx(t, "column \"%s\": %s: \"%s\"", t->col[i], why == -2 ?
	    "integer out of range" : "not an integer",
	    tl_quote(q, sizeof q, t->f[i], t->fl[i]));
}

int
tl_tsv_double(struct tl_tsv *t, int i, double *v)
{
	char tmp[64], *end, q[TL_QUOTE_MAX];
	size_t n = t->fl[i];

	if (n == 0)
		return 0;
	if (n >= sizeof tmp)
		goto bad;
	memcpy(tmp, t->f[i], n);
	tmp[n] = '\0';
	errno = 0;
	*v = strtod(tmp, &end);
	if (end != tmp + n || tmp[0] == ' ' || tmp[0] == '\t')
		goto bad;
	return 1;
bad:
	tl_tsv_errx(t, "column \"%s\": not a number: \"%s\"", t->col[i],
	    tl_quote(q, sizeof q, t->f[i], n));
}
