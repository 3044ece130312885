/*
 * tl-diff: Python's text for values, as TraceLens's CSV and JSON files
 * show them: repr() of floats (common/pyfmt.c), of strings and of the
 * argument lists (JSON arrays turned into tuples), and JSON as
 * json.dumps(indent=2, ensure_ascii=False) writes it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/mem.h"
#include "../../common/pyfmt.h"
#include "../../common/tsv.h"
#include "td.h"

void
td_out_pyfloat(struct tl_out *o, double v)
{
	char buf[48];

	tl_out_raw(o, buf, (size_t)tl_py_float(buf, sizeof buf, v));
}

/* Decode one UTF-8 sequence at s (n bytes left); its length in *len. */
static unsigned long
utf8(const unsigned char *s, size_t n, size_t *len)
{
	unsigned long c = s[0];
	size_t k, i;

	if (c < 0x80) {
		*len = 1;
		return c;
	}
	k = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
	if (k == 1 || k > n) {
		*len = 1;
		return c;
	}
	c &= 0x3f >> (k - 1);
	for (i = 1; i < k; i++)
		c = c << 6 | (s[i] & 0x3f);
	*len = k;
	return c;
}

/* Python's str.isprintable(), for the characters that matter here. */
static int
printable(unsigned long c)
{
	if (c < 0x20 || (c >= 0x7f && c <= 0xa0) || c == 0xad)
		return 0;
	if (c == 0x1680 || c == 0x180e || (c >= 0x2000 && c <= 0x200f) ||
	    (c >= 0x2028 && c <= 0x202f) || (c >= 0x205f && c <= 0x206f) ||
	    c == 0x3000 || (c >= 0xd800 && c <= 0xf8ff) || c == 0xfeff ||
	    (c >= 0xfff9 && c <= 0xfffb) || c == 0xfffe || c == 0xffff ||
	    c >= 0xf0000)
		return 0;
	return 1;
}

/* repr(str) of s[0..n), UTF-8. */
void
td_pystr(struct tl_out *o, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	char q = '\'', tmp[24];
	unsigned long c;
	size_t i, k;

	if (memchr(s, '\'', n) != NULL && memchr(s, '"', n) == NULL)
		q = '"';
	tl_out_char(o, q);
	for (i = 0; i < n; i += k) {
		c = utf8(u + i, n - i, &k);
		if (c == (unsigned char)q || c == '\\') {
			tl_out_char(o, '\\');
			tl_out_char(o, (char)c);
		} else if (c == '\t')
			tl_out_raw(o, "\\t", 2);
		else if (c == '\n')
			tl_out_raw(o, "\\n", 2);
		else if (c == '\r')
			tl_out_raw(o, "\\r", 2);
		else if (printable(c))
			tl_out_raw(o, s + i, k);
		else {
			if (c < 0x100)
				snprintf(tmp, sizeof tmp, "\\x%02lx", c);
			else if (c < 0x10000)
				snprintf(tmp, sizeof tmp, "\\u%04lx", c);
			else
				snprintf(tmp, sizeof tmp, "\\U%08lx", c);
			tl_out_raw(o, tmp, strlen(tmp));
		}
	}
	tl_out_char(o, q);
}

/* Append code point c as UTF-8. */
static void
pututf8(struct tl_out *o, unsigned long c)
{
	if (c < 0x80)
		tl_out_char(o, (char)c);
	else if (c < 0x800) {
		tl_out_char(o, (char)(0xc0 | c >> 6));
		tl_out_char(o, (char)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		tl_out_char(o, (char)(0xe0 | c >> 12));
		tl_out_char(o, (char)(0x80 | (c >> 6 & 0x3f)));
		tl_out_char(o, (char)(0x80 | (c & 0x3f)));
	} else {
		tl_out_char(o, (char)(0xf0 | c >> 18));
		tl_out_char(o, (char)(0x80 | (c >> 12 & 0x3f)));
		tl_out_char(o, (char)(0x80 | (c >> 6 & 0x3f)));
		tl_out_char(o, (char)(0x80 | (c & 0x3f)));
	}
}

static int
hexval(const char *s)
{
	int i, v = 0, d;

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

struct jp {
	const char *s, *e;
	struct tl_out tmp;
};

static int value(struct jp *, struct tl_out *, int);

static void
ws(struct jp *p)
{
	while (p->s < p->e && (*p->s == ' ' || *p->s == '\t' ||
	    *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

/* A JSON string at p->s, decoded and written as repr(str). */
static int
string(struct jp *p, struct tl_out *o)
{
	struct tl_out *t = &p->tmp;
	long c, d;

	if (p->s >= p->e || *p->s != '"')
		return -1;
	p->s++;
	t->n = 0;
	while (p->s < p->e && *p->s != '"') {
		if (*p->s != '\\') {
			tl_out_char(t, *p->s++);
			continue;
		}
		if (++p->s >= p->e)
			return -1;
		switch (*p->s++) {
		case '"': tl_out_char(t, '"'); break;
		case '\\': tl_out_char(t, '\\'); break;
		case '/': tl_out_char(t, '/'); break;
		case 'b': tl_out_char(t, '\b'); break;
		case 'f': tl_out_char(t, '\f'); break;
		case 'n': tl_out_char(t, '\n'); break;
		case 'r': tl_out_char(t, '\r'); break;
		case 't': tl_out_char(t, '\t'); break;
		case 'u':
			if (p->e - p->s < 4 || (c = hexval(p->s)) < 0)
				return -1;
			p->s += 4;
			if (c >= 0xd800 && c < 0xdc00 && p->e - p->s >= 6 &&
			    p->s[0] == '\\' && p->s[1] == 'u' &&
			    (d = hexval(p->s + 2)) >= 0xdc00 && d < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
				p->s += 6;
			}
			pututf8(t, (unsigned long)c);
			break;
		default:
			return -1;
		}
	}
	if (p->s >= p->e)
		return -1;
	p->s++;
	td_pystr(o, t->buf, t->n);
	return 0;
}

static int
number(struct jp *p, struct tl_out *o)
{
	const char *b = p->s;
	char tmp[64];
	int isfloat = 0;
	size_t n;

	while (p->s < p->e && (strchr("+-0123456789.eE", *p->s) != NULL)) {
		if (*p->s == '.' || *p->s == 'e' || *p->s == 'E')
			isfloat = 1;
		p->s++;
	}
	n = (size_t)(p->s - b);
	if (n == 0)
		return -1;
	if (!isfloat) {
		if (n == 2 && b[0] == '-' && b[1] == '0')
			tl_out_char(o, '0');
		else
			tl_out_raw(o, b, n);
		return 0;
	}
	if (n >= sizeof tmp)
		return -1;
	memcpy(tmp, b, n);
	tmp[n] = '\0';
	td_out_pyfloat(o, strtod(tmp, NULL));
	return 0;
}

static int
lit(struct jp *p, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(p->e - p->s) < n || memcmp(p->s, w, n) != 0)
		return 0;
	p->s += n;
	return 1;
}

/* One JSON value as Python shows it; arrays as tuples when tup. */
static int
value(struct jp *p, struct tl_out *o, int tup)
{
	int k;

	ws(p);
	if (p->s >= p->e)
		return -1;
	switch (*p->s) {
	case '"':
		return string(p, o);
	case '[':
		p->s++;
		tl_out_char(o, tup ? '(' : '[');
		ws(p);
		if (p->s < p->e && *p->s == ']') {
			p->s++;
			tl_out_char(o, tup ? ')' : ']');
			return 0;
		}
		for (k = 0;; k++) {
			if (k > 0)
				tl_out_raw(o, ", ", 2);
			if (value(p, o, tup) < 0)
				return -1;
			ws(p);
			if (p->s < p->e && *p->s == ',') {
				p->s++;
				continue;
			}
			if (p->s < p->e && *p->s == ']') {
				p->s++;
				break;
			}
			return -1;
		}
		if (tup && k == 0)
			tl_out_char(o, ',');
		tl_out_char(o, tup ? ')' : ']');
		return 0;
	case '{':
		p->s++;
		tl_out_char(o, '{');
		ws(p);
		if (p->s < p->e && *p->s == '}') {
			p->s++;
			tl_out_char(o, '}');
			return 0;
		}
		for (k = 0;; k++) {
			if (k > 0)
				tl_out_raw(o, ", ", 2);
			ws(p);
			if (string(p, o) < 0)
				return -1;
			ws(p);
			if (p->s >= p->e || *p->s++ != ':')
				return -1;
			tl_out_raw(o, ": ", 2);
			/* list_to_tuple does not go into dicts */
			if (value(p, o, 0) < 0)
				return -1;
			ws(p);
			if (p->s < p->e && *p->s == ',') {
				p->s++;
				continue;
			}
			if (p->s < p->e && *p->s == '}') {
				p->s++;
				break;
			}
			return -1;
		}
		tl_out_char(o, '}');
		return 0;
	}
	if (lit(p, "true")) {
		tl_out_raw(o, "True", 4);
		return 0;
	}
	if (lit(p, "false")) {
		tl_out_raw(o, "False", 5);
		return 0;
	}
	if (lit(p, "null")) {
		tl_out_raw(o, "None", 4);
		return 0;
	}
	if (lit(p, "NaN")) {
		tl_out_raw(o, "nan", 3);
		return 0;
	}
	if (lit(p, "Infinity")) {
		tl_out_raw(o, "inf", 3);
		return 0;
	}
	if (lit(p, "-Infinity")) {
		tl_out_raw(o, "-inf", 4);
		return 0;
	}
	return number(p, o);
}

/*
 * The Python text of an argument column: its JSON with arrays as tuples;
 * text that is not JSON is a string. A JSON null shows as empty.
 */
void
td_pyargs(struct tl_out *o, const char *s, size_t n)
{
	struct jp p;
	size_t start = o->n;

	p.s = s;
	p.e = s + n;
	tl_out_init(&p.tmp, -1, "");
	if (value(&p, o, 1) == 0) {
		ws(&p);
		if (p.s == p.e) {
			if (o->n - start == 4 && memcmp(o->buf + start, "None",
			    4) == 0)
				o->n = start;
			tl_out_close(&p.tmp);
			return;
		}
	}
	o->n = start;
	td_pystr(o, s, n);
	tl_out_close(&p.tmp);
}

/* A JSON string, as json.dumps(ensure_ascii=False) writes it. */
void
td_jsonstr(struct tl_out *o, const char *s, size_t n)
{
	char tmp[8];
	size_t i;
	unsigned char c;

	tl_out_char(o, '"');
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		switch (c) {
		case '"': tl_out_raw(o, "\\\"", 2); break;
		case '\\': tl_out_raw(o, "\\\\", 2); break;
		case '\n': tl_out_raw(o, "\\n", 2); break;
		case '\r': tl_out_raw(o, "\\r", 2); break;
		case '\t': tl_out_raw(o, "\\t", 2); break;
		case '\b': tl_out_raw(o, "\\b", 2); break;
		case '\f': tl_out_raw(o, "\\f", 2); break;
		default:
			if (c < 0x20) {
				snprintf(tmp, sizeof tmp, "\\u%04x", c);
				tl_out_raw(o, tmp, 6);
			} else
				tl_out_char(o, (char)c);
		}
	}
	tl_out_char(o, '"');
}

/*
 * A CSV field as Python's csv module writes it (QUOTE_MINIMAL); s is
 * NUL-terminated (an interned string) and holds no NUL.
 */
void
td_csv(struct tl_out *o, const char *s, size_t n)
{
	size_t i;

	if (strcspn(s, ",\"\n\r") >= n) {
		tl_out_raw(o, s, n);
		return;
	}
	tl_out_char(o, '"');
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			tl_out_char(o, '"');
		tl_out_char(o, s[i]);
	}
	tl_out_char(o, '"');
}
