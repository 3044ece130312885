/*
 * tl: JSON text as the tools read it when it is not a trace file: jsmn
 * tokens of a text, its strings decoded to UTF-8, and times in us read
 * exactly as ns (the scanner of trace files is jscan.c).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__) && defined(__GNUC__)
#define TL_SSE2	1
#include <emmintrin.h>
#endif

/* jsmn's code, compiled once, here; json.h then sees only its types. */
#define JSMN_STATIC
#define JSMN_PARENT_LINKS
#include <jsmn.h>

#include "json.h"
#include "mem.h"

#define QDEPTH	64

/* The first byte in q[0..e) that ends a string's plain run, or e. */
static inline const unsigned char *
strrun(const unsigned char *q, const unsigned char *e)
{
#ifdef TL_SSE2
	const __m128i quote = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'),
	    sp = _mm_set1_epi8(0x20);
	__m128i b;
	int m;

	/* " \ and, compared as signed, controls and bytes >= 0x80 */
	for (; e - q >= 16; q += 16) {
		b = _mm_loadu_si128((const __m128i *)(const void *)q);
		m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(b, quote), _mm_cmpeq_epi8(b, bs)),
		    _mm_cmplt_epi8(b, sp)));
		if (m != 0)
			return q + __builtin_ctz((unsigned)m);
	}
#endif
	while (q < e && *q != '"' && *q != '\\' && *q >= 0x20 && *q < 0x80)
		q++;
	return q;
}

int
tl_json_quick(struct tl_jdoc *d, const char *js, size_t len, size_t *used,
    int *high)
{
	const unsigned char *p = (const unsigned char *)js, *e, *q, *s;
	jsmntok_t *tok = d->tok, *t;
	int ntok = 0, top = -1, par, obj, iskey, open[QDEPTH], key[QDEPTH];
	unsigned char c;

	e = p + (len < INT_MAX ? len : INT_MAX);
	q = p;
	for (;;) {
		/* A value at q. */
		if (q == e)
			return 0;
		if ((unsigned)ntok + 1 >= d->cap) {
			d->cap = d->cap ? 2 * d->cap : 64;
			tok = d->tok = xreallocarray(d->tok, d->cap,
			    sizeof *tok);
		}
		par = top < 0 ? -1 : key[top] >= 0 ? key[top] : open[top];
		if (par >= 0)
			tok[par].size++;
		t = &tok[ntok++];
		t->parent = par;
		t->size = 0;
		c = *q;
		if (c == '"') {
			t->type = JSMN_STRING;
			iskey = 0;
			s = ++q;
			goto string;
		}
		if (c == '{' || c == '[') {
			if (top + 1 == QDEPTH)
				return 0;
			t->type = c == '{' ? JSMN_OBJECT : JSMN_ARRAY;
			t->start = (int)(q - p);
			t->end = -1;
			open[++top] = ntok - 1;
			key[top] = -1;
			if (++q == e)
				return 0;
			if (*q == (c == '{' ? '}' : ']'))
				goto close;
			if (c == '{')
				goto key;
			continue;
		}
		/* A literal: most are integers. */
		s = q;
		q += *q == '-';
		if (q < e && *q == '0')
			q++;
		else
			while (q < e && *q >= '0' && *q <= '9')
				q++;
		if (q == e)
			return 0;
		if (q == s || q[-1] == '-' || tl_jlitbyte(*q)) {
			for (q = s; q < e && tl_jlitbyte(*q); q++)
				;
			if (q == e || !((q - s == 4 && (memcmp(s, "true", 4) ==
			    0 || memcmp(s, "null", 4) == 0)) || (q - s == 5 &&
			    memcmp(s, "false", 5) == 0) ||
			    tl_jnumber((const char *)s, (size_t)(q - s))))
				return 0;
		}
		t->type = JSMN_PRIMITIVE;
		t->start = (int)(s - p);
		t->end = (int)(q - p);
after:		/* After a value: ',' or the bracket that closes. */
		if (top < 0 || q == e)
			return 0;
		obj = tok[open[top]].type == JSMN_OBJECT;
		if (*q == ',') {
			q++;
			if (obj)
				goto key;
			continue;
		}
		if (*q != (obj ? '}' : ']'))
			return 0;
close:
		tok[open[top]].end = (int)(++q - p);
		if (--top >= 0)
			goto after;
		d->js = js;
		d->len = *used = (size_t)(q - p);
		d->ntok = ntok;
		return 1;
key:		/* A key, its ':', then its value. */
		if (q == e || *q != '"')
			return 0;
		if ((unsigned)ntok + 1 >= d->cap) {
			d->cap *= 2;
			tok = d->tok = xreallocarray(d->tok, d->cap,
			    sizeof *tok);
		}
		tok[open[top]].size++;
		key[top] = ntok;
		t = &tok[ntok++];
		t->type = JSMN_STRING;
		t->parent = open[top];
		t->size = 0;
		iskey = 1;
		s = ++q;
string:
		for (;;) {
			if ((q = strrun(q, e)) == e)
				return 0;
			if (*q == '"')
				break;
			if (*q >= 0x80)
				*high = 1;
			else if (*q != '\\' || e - q < 6)
				return 0;
			else if (q[1] == 'u') {
				for (c = 2; c < 6; c++)
					if (!tl_jhexdig(q[c]))
						return 0;
				q += 5;
			} else if (!strchr("\"/\\bfnrt", q[1]) || q[1] == '\0')
				return 0;
			else
				q++;
			q++;
		}
		t->start = (int)(s - p);
		t->end = (int)(q - p);
		q++;
		if (iskey) {
			if (q == e || *q != ':')
				return 0;
			q++;
			continue;
		}
		goto after;
	}
}


int
tl_json_parse(struct tl_jdoc *d, const char *js, size_t len)
{
	jsmn_parser p;
	size_t n;
	int r, high = 0;

	d->js = js;
	d->len = len;
	if (len > INT_MAX)
		return -1;
	if (d->cap == 0) {
		d->cap = 64;
		d->tok = xreallocarray(NULL, d->cap, sizeof *d->tok);
	}
	if (tl_json_quick(d, js, len, &n, &high) && n == len)
		return 0;
	for (;;) {
		jsmn_init(&p);
		r = jsmn_parse(&p, js, len, d->tok, d->cap);
		if (r != JSMN_ERROR_NOMEM)
			break;
		d->cap *= 2;
		d->tok = xreallocarray(d->tok, d->cap, sizeof *d->tok);
	}
	if (r < 1)
		return -1;
	d->ntok = r;
	return 0;
}

void
tl_json_free(struct tl_jdoc *d)
{
	free(d->tok);
	d->tok = NULL;
	d->cap = 0;
}

int
tl_jeq(const struct tl_jdoc *d, int i, const char *s)
{
	const jsmntok_t *t = &d->tok[i];
	size_t n = strlen(s);

	return t->type == JSMN_STRING && (size_t)(t->end - t->start) == n &&
	    memcmp(d->js + t->start, s, n) == 0;
}

long
tl_hex4(const char *s)
{
	long v = 0;
	int i, d;

	for (i = 0; i < 4; i++) {
		d = s[i];
		if (d >= '0' && d <= '9')
			d -= '0';
		else if ((d | 0x20) >= 'a' && (d | 0x20) <= 'f')
			d = (d | 0x20) - 'a' + 10;
		else
			return -1;
		v = v << 4 | d;
	}
	return v;
}

size_t
tl_utf8put(char *d, unsigned long c)
{
	if (c < 0x80) {
		d[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		d[0] = (char)(0xc0 | c >> 6);
		d[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		d[0] = (char)(0xe0 | c >> 12);
		d[1] = (char)(0x80 | (c >> 6 & 0x3f));
		d[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	d[0] = (char)(0xf0 | c >> 18);
	d[1] = (char)(0x80 | (c >> 12 & 0x3f));
	d[2] = (char)(0x80 | (c >> 6 & 0x3f));
	d[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

size_t
tl_utf8len(const unsigned char *s, size_t n)
{
	size_t k, i;
	unsigned long cp;
	unsigned c = s[0];

	if (c < 0x80)
		return c == 0 ? 0 : 1;
	if (c >= 0xc2 && c <= 0xdf)
		k = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		k = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		k = 4, cp = c & 0x07;
	else
		return 0;
	if (n < k)
		return 0;
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return k;
}

size_t
tl_junescape(char *dst, const char *s, size_t n, unsigned *bad)
{
	size_t i = 0, o = 0;
	long c, lo;
	const char *bs;

	while (i < n) {
		bs = memchr(s + i, '\\', n - i);
		if (bs == NULL) {
			memmove(dst + o, s + i, n - i);
			return o + (n - i);
		}
		memmove(dst + o, s + i, (size_t)(bs - (s + i)));
		o += (size_t)(bs - (s + i));
		i = (size_t)(bs - s) + 1;
		if (i >= n)
			break;
		switch (s[i++]) {
		case 'b': dst[o++] = '\b'; break;
		case 'f': dst[o++] = '\f'; break;
		case 'n': dst[o++] = '\n'; break;
		case 'r': dst[o++] = '\r'; break;
		case 't': dst[o++] = '\t'; break;
		case 'u':
			if (i + 4 > n)
				return o;
			c = tl_hex4(s + i);
			i += 4;
			if (c >= 0xd800 && c < 0xdc00 && i + 6 <= n &&
			    s[i] == '\\' && s[i + 1] == 'u' &&
			    (lo = tl_hex4(s + i + 2)) >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) +
				    (lo - 0xdc00);
				i += 6;
			} else if ((c >= 0xd800 && c < 0xe000) || c <= 0) {
				c = 0xfffd;
				if (bad != NULL)
					(*bad)++;
			}
			o += tl_utf8put(dst + o, (unsigned long)c);
			break;
		default:	/* " \ / and, leniently, anything else */
			dst[o++] = s[i - 1];
		}
	}
	return o;
}

int
tl_us_to_ns(const char *s, size_t n, int64_t *ns)
{
	char dig[24];		/* significant digits, enough for int64 */
	size_t i = 0, nd = 0;
	long point = 0, exp = 0, k;
	int neg = 0, seen = 0, esign = 1;
	uint64_t u = 0, lim;
	unsigned d;

	/*
	 * The common case first: up to 15 integer digits and up to 3 after
	 * the point (a trace's microseconds to the nanosecond), exact in a
	 * uint64_t; anything else takes the general way below.
	 */
	for (; i < n && i < 15 && (d = (unsigned)s[i] - '0') <= 9; i++)
		u = u * 10 + d;
	if (i > 0 && (i == n || (s[i] == '.' && n - i - 1 <= 3 &&
	    n - i - 1 > 0))) {
		size_t j = i + 1, f = 0;

		if (i == n) {
			*ns = (int64_t)(u * 1000);
			return 0;
		}
		for (; j < n && (d = (unsigned)s[j] - '0') <= 9; j++, f++)
			u = u * 10 + d;
		if (j == n) {
			for (; f < 3; f++)
				u *= 10;
			*ns = (int64_t)u;
			return 0;
		}
	}
	i = 0;
	u = 0;

	if (i < n && s[i] == '-')
		neg = 1, i++;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, seen = 1) {
		if (nd == 0 && s[i] == '0')
			continue;
		if (nd < sizeof dig)
			dig[nd++] = s[i];
		point++;
	}
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, seen = 1) {
			if (nd == 0 && s[i] == '0')
				point--;
			else if (nd < sizeof dig)
				dig[nd++] = s[i];
		}
	if (!seen)
		return -1;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			esign = s[i++] == '-' ? -1 : 1;
		if (i == n || s[i] < '0' || s[i] > '9')
			return -1;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (exp < 100000)
				exp = exp * 10 + (s[i] - '0');
	}
	if (i != n)
		return -1;
	/* The value is 0.DIG x 10^point us, that is 0.DIG x 10^(point+3) ns. */
	point += esign * exp + 3;
	if (nd == 0 || point < 0) {
		*ns = 0;
		return 0;
	}
	if (point > 19)
		return -2;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (k = 0; k < point; k++) {
		d = k < (long)nd ? (unsigned)(dig[k] - '0') : 0;
		if (u > (lim - d) / 10)
			return -2;
		u = u * 10 + d;
	}
	/* Round half away from zero on the first digit below 1 ns. */
	if (point < (long)nd && dig[point] >= '5') {
		if (u == lim)
			return -2;
		u++;
	}
	*ns = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}
