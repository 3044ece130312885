/*
 * tl-agg: JSON text (the argument columns of the stream, written by
 * tl-parse) shown as Python shows the value after json.loads, with lists
 * made tuples as TraceLens does; strings as Python's repr writes them; and
 * small JSON helpers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/json.h"
#include "../../common/mem.h"
#include "agg.h"

static const char *
ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
	    *p == '\r'))
		p++;
	return p;
}

/* End of the JSON string that starts at p (the quote), or NULL. */
static const char *
strend(const char *p, const char *end)
{
	for (p++; p < end; p++) {
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

/* End of the JSON value at p, or NULL when it is malformed. */
static const char *
skip(const char *p, const char *end)
{
	int depth = 0;

	p = ws(p, end);
	if (p == end)
		return NULL;
	do {
		if (p == end)
			return NULL;
		switch (*p) {
		case '"':
			if ((p = strend(p, end)) == NULL)
				return NULL;
			break;
		case '[':
		case '{':
			depth++;
			p++;
			break;
		case ']':
		case '}':
			depth--;
			p++;
			break;
		default:
			if (depth == 0) {
				while (p < end && *p != ',' && *p != ']' &&
				    *p != '}' && *p != ' ')
					p++;
				return p;
			}
			p++;
		}
	} while (depth > 0);
	return p;
}

static size_t
utf8dec(const unsigned char *s, size_t n, unsigned *cp)
{
	if (s[0] < 0x80 || n < 2) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) {
		*cp = (unsigned)(s[0] & 0x1f) << 6 | (s[1] & 0x3f);
		return 2;
	}
	if ((s[0] & 0xf0) == 0xe0 && n >= 3) {
		*cp = (unsigned)(s[0] & 0x0f) << 12 |
		    (unsigned)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
		return 3;
	}
	if (n >= 4) {
		*cp = (unsigned)(s[0] & 0x07) << 18 |
		    (unsigned)(s[1] & 0x3f) << 12 |
		    (unsigned)(s[2] & 0x3f) << 6 | (s[3] & 0x3f);
		return 4;
	}
	*cp = s[0];
	return 1;
}

/* Python's str.isprintable, for the code points traces hold. */
static int
printable(unsigned c)
{
	if (c < 0x20 || (c >= 0x7f && c <= 0xa0) || c == 0xad)
		return 0;
	if ((c >= 0x2000 && c <= 0x200f) || (c >= 0x2028 && c <= 0x202f) ||
	    (c >= 0x205f && c <= 0x206f) || c == 0x3000 || c == 0xfeff ||
	    (c >= 0xd800 && c <= 0xf8ff) || (c >= 0xfff9 && c <= 0xfffb) ||
	    c == 0x1680 || c == 0x180e || c >= 0xf0000)
		return 0;
	return 1;
}

void
sb_pystr(struct sbuf *b, const char *s, size_t n)
{
	char q = '\'';
	size_t i, k;
	unsigned c;

	if (memchr(s, '\'', n) != NULL && memchr(s, '"', n) == NULL)
		q = '"';
	sb_char(b, q);
	for (i = 0; i < n; i += k) {
		/* A run of printable ASCII is written as it is. */
		for (k = 0; i + k < n && (unsigned char)s[i + k] >= 0x20 &&
		    (unsigned char)s[i + k] < 0x7f && s[i + k] != q &&
		    s[i + k] != '\\'; k++)
			;
		if (k > 0) {
			sb_add(b, s + i, k);
			continue;
		}
		k = utf8dec((const unsigned char *)s + i, n - i, &c);
		if (c == (unsigned char)q || c == '\\') {
			sb_char(b, '\\');
			sb_char(b, (char)c);
		} else if (c == '\t')
			sb_puts(b, "\\t");
		else if (c == '\n')
			sb_puts(b, "\\n");
		else if (c == '\r')
			sb_puts(b, "\\r");
		else if (c < 0x80 && c >= 0x20 && c != 0x7f)
			sb_char(b, (char)c);
		else if (c >= 0x80 && printable(c))
			sb_add(b, s + i, k);
		else if (c <= 0xff)
			sb_printf(b, "\\x%02x", c);
		else if (c <= 0xffff)
			sb_printf(b, "\\u%04x", c);
		else
			sb_printf(b, "\\U%08x", c);
	}
	sb_char(b, q);
}

void
sb_jsonstr(struct sbuf *b, const char *s, size_t n)
{
	size_t i, k;
	unsigned char c;

	sb_char(b, '"');
	for (i = 0; i < n; i++) {
		/* A run with nothing to escape is written as it is. */
		for (k = i; k < n && (unsigned char)s[k] >= 0x20 &&
		    s[k] != '"' && s[k] != '\\'; k++)
			;
		if (k > i) {
			sb_add(b, s + i, k - i);
			i = k - 1;
			continue;
		}
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			sb_char(b, '\\');
			sb_char(b, (char)c);
		} else if (c == '\n')
			sb_puts(b, "\\n");
		else if (c == '\t')
			sb_puts(b, "\\t");
		else if (c == '\r')
			sb_puts(b, "\\r");
		else if (c < 0x20)
			sb_printf(b, "\\u%04x", c);
		else
			sb_char(b, (char)c);
	}
	sb_char(b, '"');
}

int
utf8_cut(const char *s, size_t len, size_t n, size_t *cut)
{
	size_t i = 0, k = 0;

	while (i < len && k < n) {
		unsigned char c = (unsigned char)s[i];

		i += c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 :
		    c >= 0xc0 ? 2 : 1;
		k++;
	}
	if (i > len)
		i = len;
	*cut = i;
	return i < len;
}

int
json_string(struct sbuf *b, const char *v, size_t n)
{
	unsigned bad = 0;
	size_t k;

	if (n < 2 || v[0] != '"' || v[n - 1] != '"')
		return 0;
	xgrow(&b->p, &b->cap, b->n + n + 1, 1);
	k = tl_junescape(b->p + b->n, v + 1, n - 2, &bad);
	b->n += k;
	b->p[b->n] = '\0';
	return 1;
}

static int
pyval(struct sbuf *b, const char **pp, const char *end, int tuples)
{
	const char *p = ws(*pp, end), *q;
	struct sbuf t = { NULL, 0, 0 };
	int k;
	char *e;
	double d;

	if (p == end)
		return -1;
	switch (*p) {
	case '[':
	case '{': {
		int obj = *p == '{';
		char close = obj ? '}' : ']';

		sb_char(b, obj ? '{' : tuples ? '(' : '[');
		p = ws(p + 1, end);
		for (k = 0; p < end && *p != close; k++) {
			if (k > 0) {
				if (*p != ',')
					return -1;
				sb_puts(b, ", ");
				p = ws(p + 1, end);
			}
			if (obj) {
				if (pyval(b, &p, end, tuples) < 0)
					return -1;
				p = ws(p, end);
				if (p == end || *p != ':')
					return -1;
				sb_puts(b, ": ");
				p++;
			}
			if (pyval(b, &p, end, tuples) < 0)
				return -1;
			p = ws(p, end);
		}
		if (p == end)
			return -1;
		if (!obj && tuples && k == 1)
			sb_char(b, ',');
		sb_char(b, obj ? '}' : tuples ? ')' : ']');
		*pp = p + 1;
		return 0;
	}
	case '"':
		if ((q = strend(p, end)) == NULL)
			return -1;
		json_string(&t, p, (size_t)(q - p));
		sb_pystr(b, t.p != NULL ? t.p : "", t.n);
		free(t.p);
		*pp = q;
		return 0;
	}
	if ((q = skip(p, end)) == NULL)
		return -1;
	*pp = q;
	if (q - p == 4 && memcmp(p, "true", 4) == 0)
		sb_puts(b, "True");
	else if (q - p == 5 && memcmp(p, "false", 5) == 0)
		sb_puts(b, "False");
	else if (q - p == 4 && memcmp(p, "null", 4) == 0)
		sb_puts(b, "None");
	else if (q - p == 3 && memcmp(p, "NaN", 3) == 0)
		sb_puts(b, "nan");
	else if (q - p == 8 && memcmp(p, "Infinity", 8) == 0)
		sb_puts(b, "inf");
	else if (q - p == 9 && memcmp(p, "-Infinity", 9) == 0)
		sb_puts(b, "-inf");
	else if (memchr(p, '.', (size_t)(q - p)) == NULL &&
	    memchr(p, 'e', (size_t)(q - p)) == NULL &&
	    memchr(p, 'E', (size_t)(q - p)) == NULL) {
		if (q - p == 2 && memcmp(p, "-0", 2) == 0)
			p++;
		for (e = (char *)p; e < q; e++)
			if (!(*e >= '0' && *e <= '9') && !(e == p && *e == '-'))
				return -1;
		sb_add(b, p, (size_t)(q - p));
	} else {
		char buf[64];

		if (q - p >= (long)sizeof buf)
			return -1;
		memcpy(buf, p, (size_t)(q - p));
		buf[q - p] = '\0';
		d = strtod(buf, &e);
		if (*e != '\0')
			return -1;
		sb_pyfloat(b, d);
	}
	return 0;
}

int
sb_pyjson(struct sbuf *b, const char *js, size_t n, int tuples)
{
	const char *p = js, *end = js + n;
	size_t had = b->n;

	if (pyval(b, &p, end, tuples) < 0 || ws(p, end) != end) {
		b->n = had;
		if (b->p != NULL)
			b->p[had] = '\0';
		return -1;
	}
	return 0;
}

int
json_get(const char *js, size_t n, const char *key, const char **v,
    size_t *vn)
{
	const char *p = ws(js, js + n), *end = js + n, *q, *r;
	size_t kl = strlen(key);
	struct sbuf t = { NULL, 0, 0 };
	int found = 0;

	if (p == end || *p != '{')
		return 0;
	p = ws(p + 1, end);
	while (p < end && *p == '"') {
		if ((q = strend(p, end)) == NULL)
			break;
		t.n = 0;
		json_string(&t, p, (size_t)(q - p));
		p = ws(q, end);
		if (p == end || *p != ':')
			break;
		p = ws(p + 1, end);
		if ((r = skip(p, end)) == NULL)
			break;
		if (t.n == kl && memcmp(t.p, key, kl) == 0) {
			if (r - p == 4 && memcmp(p, "null", 4) == 0)
				break;
			*v = p;
			*vn = (size_t)(r - p);
			found = 1;
			break;
		}
		p = ws(r, end);
		if (p < end && *p == ',')
			p = ws(p + 1, end);
	}
	free(t.p);
	return found;
}
