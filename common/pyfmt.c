/*
 * tl: Python's repr of a float, of a str and of JSON values, and
 * json.dumps of a str (pyfmt.h), for the tools that write TraceLens's
 * CSV and JSON files byte for byte.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtoa.h"
#include "json.h"
#include "limit.h"
#include "pyfmt.h"
#include "tsv.h"

/*
 * The fast way for a value that is a whole number of thousandths (times
 * in us from ns): its decimals, as long as the doubles near it are closer
 * together than 0.0005, so that no shorter text reads back as it. 0 when
 * it does not apply.
 */
int
tl_fmt_milli(char *buf, double v)
{
	double a = v < 0 ? -v : v, r;
	long long k, ip, fp;
	int o = 0, d;
	char f[4];

	if (!(a >= 1e-4 && a < 1e12))
		return 0;
	r = a * 1000.0;
	k = (long long)(r + 0.5);
	if ((double)k / 1000.0 != a)
		return 0;
	if (v < 0)
		buf[o++] = '-';
	ip = k / 1000;
	fp = k % 1000;
	o += (int)tl_fmt_i64(buf + o, ip);
	buf[o++] = '.';
	f[0] = (char)('0' + fp / 100);
	f[1] = (char)('0' + fp / 10 % 10);
	f[2] = (char)('0' + fp % 10);
	for (d = 3; d > 1 && f[d - 1] == '0'; d--)
		;
	memcpy(buf + o, f, (size_t)d);
	o += d;
	buf[o] = '\0';
	return o;
}

int
tl_fmt_digits(char *buf, int neg, const char *dig, int nd, int e, int sci,
    int point0)
{
	int o = 0, i, a;

	if (neg)
		buf[o++] = '-';
	if (e < -4 || e >= sci) {
		buf[o++] = dig[0];
		if (nd > 1) {
			buf[o++] = '.';
			memcpy(buf + o, dig + 1, (size_t)nd - 1);
			o += nd - 1;
		}
		buf[o++] = 'e';
		buf[o++] = e < 0 ? '-' : '+';
		a = e < 0 ? -e : e;
		if (a >= 100)
			buf[o++] = (char)('0' + a / 100);
		buf[o++] = (char)('0' + a / 10 % 10);
		buf[o++] = (char)('0' + a % 10);
	} else if (e < 0) {
		buf[o++] = '0';
		buf[o++] = '.';
		for (i = 0; i < -e - 1; i++)
			buf[o++] = '0';
		memcpy(buf + o, dig, (size_t)nd);
		o += nd;
	} else {
		for (i = 0; i <= e; i++)
			buf[o++] = i < nd ? dig[i] : '0';
		if (nd > e + 1) {
			buf[o++] = '.';
			memcpy(buf + o, dig + e + 1, (size_t)(nd - e - 1));
			o += nd - e - 1;
		} else if (point0) {
			buf[o++] = '.';
			buf[o++] = '0';
		}
	}
	buf[o] = '\0';
	return o;
}

int
tl_py_float(char *buf, size_t cap, double v)
{
	char dig[24];
	int nd, e, o;

	if (cap < TL_PY_FLOATMAX)
		return -1;
	if (isnan(v))
		return snprintf(buf, cap, "nan");
	if (isinf(v))
		return snprintf(buf, cap, v < 0 ? "-inf" : "inf");
	if (v == 0)
		return snprintf(buf, cap, signbit(v) ? "-0.0" : "0.0");
	if ((o = tl_fmt_milli(buf, v)) > 0)
		return o;
	nd = tl_dtoa(v, dig, &e);
	return tl_fmt_digits(buf, v < 0, dig, nd, e, 16, 1);
}

void
tl_out_pyfloat(struct tl_out *o, double v)
{
	char buf[TL_PY_FLOATMAX];

	tl_out_raw(o, buf, (size_t)tl_py_float(buf, sizeof buf, v));
}

/*
 * The code points str.isprintable() is false for, by category (Cc, Cf,
 * Cs, Co, Zl, Zp, Zs but the space), from Python 3.11's Unicode 14 data:
 * first and last of each run. Unassigned code points (Cn), which change
 * from one Unicode version to the next, are taken as printable, but for
 * the noncharacters, never assigned (tl_pyprint).
 */
static const uint32_t unprintable[][2] = {
	{ 0x0, 0x1f }, { 0x7f, 0xa0 }, { 0xad, 0xad }, { 0x600, 0x605 },
	{ 0x61c, 0x61c }, { 0x6dd, 0x6dd }, { 0x70f, 0x70f },
	{ 0x890, 0x891 }, { 0x8e2, 0x8e2 }, { 0x1680, 0x1680 },
	{ 0x180e, 0x180e }, { 0x2000, 0x200f }, { 0x2028, 0x202f },
	{ 0x205f, 0x2064 }, { 0x2066, 0x206f }, { 0x3000, 0x3000 },
	{ 0xd800, 0xf8ff }, { 0xfeff, 0xfeff }, { 0xfff9, 0xfffb },
	{ 0x110bd, 0x110bd }, { 0x110cd, 0x110cd }, { 0x13430, 0x13438 },
	{ 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a }, { 0xe0001, 0xe0001 },
	{ 0xe0020, 0xe007f }, { 0xf0000, 0xffffd }, { 0x100000, 0x10fffd }
};

int
tl_pyprint(unsigned long c)
{
	size_t lo = 0, hi = sizeof unprintable / sizeof unprintable[0], m;

	if (c >= 0x20 && c < 0x7f)
		return 1;
	if ((c & 0xfffe) == 0xfffe || (c >= 0xfdd0 && c <= 0xfdef) ||
	    c > 0x10ffff)
		return 0;
	while (lo < hi) {
		m = (lo + hi) / 2;
		if (c < unprintable[m][0])
			hi = m;
		else if (c > unprintable[m][1])
			lo = m + 1;
		else
			return 0;
	}
	return 1;
}

/*
 * The code point of the UTF-8 sequence at s (n > 0 bytes), its length in
 * *len; a surrogate's three bytes are one. A byte that starts no whole
 * sequence is itself, with the length 1, and *len -1 says so.
 */
static unsigned long
utf8(const unsigned char *s, size_t n, int *len)
{
	unsigned long c = s[0];
	int k, i;

	k = c >= 0xf8 ? 0 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
	if (k == 0 || (size_t)k > n) {
		*len = c < 0x80 ? 1 : -1;
		return c;
	}
	c &= 0x3fu >> (k - 1);
	for (i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*len = -1;
			return s[0];
		}
		c = c << 6 | (s[i] & 0x3fu);
	}
	*len = k;
	return c;
}

void
tl_out_pystr(struct tl_out *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	char q = '\'', e[10];
	unsigned long c;
	size_t i, r;
	int k, d, w;

	if (memchr(s, '\'', n) != NULL && memchr(s, '"', n) == NULL)
		q = '"';
	tl_out_char(o, q);
	for (i = 0; i < n; i += (size_t)k) {
		/* A run of printable ASCII as it is. */
		for (r = i; r < n && u[r] >= 0x20 && u[r] < 0x7f && u[r] != q &&
		    u[r] != '\\'; r++)
			;
		if (r > i) {
			tl_out_raw(o, s + i, r - i);
			k = (int)(r - i);
			continue;
		}
		c = utf8(u + i, n - i, &k);
		if (k > 0 && (c == (unsigned char)q || c == '\\')) {
			tl_out_char(o, '\\');
			tl_out_char(o, (char)c);
		} else if (c == '\t' || c == '\n' || c == '\r') {
			tl_out_char(o, '\\');
			tl_out_char(o, c == '\t' ? 't' : c == '\n' ? 'n' : 'r');
		} else if (k > 0 && tl_pyprint(c))
			tl_out_raw(o, s + i, (size_t)k);
		else {
			w = c < 0x100 ? 2 : c < 0x10000 ? 4 : 8;
			e[0] = '\\';
			e[1] = w == 2 ? 'x' : w == 4 ? 'u' : 'U';
			for (d = 0; d < w; d++)
				e[2 + d] = hex[c >> 4 * (w - 1 - d) & 0xf];
			tl_out_raw(o, e, (size_t)w + 2);
		}
		if (k < 0)
			k = 1;
	}
	tl_out_char(o, q);
}

void
tl_out_jsonstr(struct tl_out *o, const char *s, size_t n)
{
	static const char esc[] = "btn\0fr";	/* for \b to \r */
	char e[6] = "\\u00";
	size_t i, r;
	unsigned char c;

	tl_out_char(o, '"');
	for (i = 0; i < n; i = r + 1) {
		/* A run with nothing to escape as it is. */
		for (r = i; r < n && (unsigned char)s[r] >= 0x20 &&
		    s[r] != '"' && s[r] != '\\'; r++)
			;
		tl_out_raw(o, s + i, r - i);
		if (r == n)
			break;
		c = (unsigned char)s[r];
		tl_out_char(o, '\\');
		if (c == '"' || c == '\\')
			tl_out_char(o, (char)c);
		else if (c >= '\b' && c <= '\r' && c != '\v')
			tl_out_char(o, esc[c - '\b']);
		else {
			e[4] = "0123456789abcdef"[c >> 4];
			e[5] = "0123456789abcdef"[c & 0xf];
			tl_out_raw(o, e + 1, 5);
		}
	}
	tl_out_char(o, '"');
}

/* JSON text read as Python's values, for tl_out_pyjson. */
struct pj {
	const char *s, *e;
	struct tl_out str;	/* a string's decoded bytes */
	int flags;
	uint64_t depth;
};

static int pjvalue(struct pj *, struct tl_out *, int tup);

static void
pjws(struct pj *p)
{
	while (p->s < p->e && (*p->s == ' ' || *p->s == '\t' ||
	    *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

/* The JSON string at p->s as repr(str). */
static int
pjstring(struct pj *p, struct tl_out *o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	struct tl_out *t = &p->str;
	const char *r, *x;
	char u8[4];
	long c, d;

	if (p->s >= p->e || *p->s != '"')
		return -1;
	p->s++;
	t->n = 0;
	for (;;) {
		for (r = p->s; r < p->e && *r != '"' && *r != '\\'; r++)
			;
		tl_out_raw(t, p->s, (size_t)(r - p->s));
		p->s = r;
		if (r < p->e && *r == '"')
			break;
		if (r + 1 >= p->e)
			return -1;
		p->s += 2;
		if (r[1] != 'u') {
			if (r[1] == '\0' || (x = strchr(from, r[1])) == NULL)
				return -1;
			tl_out_char(t, to[x - from]);
			continue;
		}
		if (p->e - p->s < 4 || (c = tl_hex4(p->s)) < 0)
			return -1;
		p->s += 4;
		/* A pair is one code point; a lone surrogate stays itself. */
		if (c >= 0xd800 && c < 0xdc00 && p->e - p->s >= 6 &&
		    p->s[0] == '\\' && p->s[1] == 'u' &&
		    (d = tl_hex4(p->s + 2)) >= 0xdc00 && d < 0xe000) {
			c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
			p->s += 6;
		}
		tl_out_raw(t, u8, tl_utf8put(u8, (unsigned long)c));
	}
	p->s++;
	tl_out_pystr(o, t->buf, t->n);
	return 0;
}

/* A number: an int's digits ("-0" is 0), or a float's repr. */
static int
pjnumber(struct pj *p, struct tl_out *o)
{
	const char *b = p->s;
	size_t n;

	while (p->s < p->e && ((*p->s >= '0' && *p->s <= '9') ||
	    memchr("+-.eE", *p->s, 5) != NULL))
		p->s++;
	n = (size_t)(p->s - b);
	if (!tl_jnumber(b, n))
		return -1;
	if (memchr(b, '.', n) == NULL && memchr(b, 'e', n) == NULL &&
	    memchr(b, 'E', n) == NULL) {
		if (n == 2 && b[0] == '-')
			b++, n--;
		tl_out_raw(o, b, n);
		return 0;
	}
	p->str.n = 0;
	tl_out_raw(&p->str, b, n);
	tl_out_char(&p->str, '\0');
	tl_out_pyfloat(o, strtod(p->str.buf, NULL));
	return 0;
}

/* An array or object: its members, then close. */
static int
pjlist(struct pj *p, struct tl_out *o, int tup)
{
	int obj = *p->s == '{', k;
	char close = obj ? '}' : ']';

	if (++p->depth > tl_limit[TL_LIM_DEPTH])
		return -1;
	p->s++;
	tl_out_char(o, obj ? '{' : tup ? '(' : '[');
	pjws(p);
	for (k = 0; p->s < p->e && *p->s != close; k++) {
		if (k > 0) {
			if (*p->s != ',')
				return -1;
			p->s++;
			tl_out_raw(o, ", ", 2);
		}
		if (obj) {
			pjws(p);
			if (pjstring(p, o) < 0)
				return -1;
			pjws(p);
			if (p->s >= p->e || *p->s++ != ':')
				return -1;
			tl_out_raw(o, ": ", 2);
		}
		if (pjvalue(p, o, obj ? p->flags & TL_PY_TUPLES_ALL : tup) < 0)
			return -1;
		pjws(p);
	}
	if (p->s >= p->e)
		return -1;
	p->s++;
	p->depth--;
	if (!obj && tup && k == 1)
		tl_out_char(o, ',');
	tl_out_char(o, obj ? '}' : tup ? ')' : ']');
	return 0;
}

static int
pjvalue(struct pj *p, struct tl_out *o, int tup)
{
	static const char *const lit[][2] = {
		{ "true", "True" }, { "false", "False" }, { "null", "None" },
		{ "NaN", "nan" }, { "Infinity", "inf" }, { "-Infinity", "-inf" }
	};
	size_t i, n;

	pjws(p);
	if (p->s >= p->e)
		return -1;
	if (*p->s == '"')
		return pjstring(p, o);
	if (*p->s == '[' || *p->s == '{')
		return pjlist(p, o, tup);
	for (i = 0; i < sizeof lit / sizeof lit[0]; i++) {
		n = strlen(lit[i][0]);
		if ((size_t)(p->e - p->s) >= n && memcmp(p->s, lit[i][0], n) ==
		    0) {
			p->s += n;
			tl_out_raw(o, lit[i][1], strlen(lit[i][1]));
			return 0;
		}
	}
	return pjnumber(p, o);
}

int
tl_out_pyjson(struct tl_out *o, const char *js, size_t n, int flags)
{
	static struct tl_out str, tmp;
	struct tl_out *w = o->fd < 0 ? o : &tmp;
	struct pj p = { js, js + n, { 0, NULL, NULL, 0, 0 }, flags, 0 };
	size_t had = w->n;
	int r;

	if (str.buf == NULL) {
		tl_out_init(&str, -1, "");
		tl_out_init(&tmp, -1, "");
	}
	p.str = str;
	r = pjvalue(&p, w, flags & (TL_PY_TUPLES | TL_PY_TUPLES_ALL));
	str = p.str;
	pjws(&p);
	if (r < 0 || p.s != p.e) {
		w->n = had;
		return -1;
	}
	if (w == &tmp) {
		tl_out_raw(o, tmp.buf, tmp.n);
		tmp.n = 0;
	}
	return 0;
}
