/*
 * tl-agg: small JSON helpers for the argument columns of the stream
 * (written by tl-parse): a key's value in an object, a string's text,
 * and Python's str() of a text cut to a number of characters.
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
json_string(struct tl_out *b, const char *v, size_t n)
{
	unsigned bad = 0;
	size_t k;

	if (n < 2 || v[0] != '"' || v[n - 1] != '"')
		return 0;
	if (b->cap - b->n < n)
		tl_out_grow(b, n);
	k = tl_junescape(b->buf + b->n, v + 1, n - 2, &bad);
	b->n += k;
	return 1;
}

int
json_get(const char *js, size_t n, const char *key, const char **v,
    size_t *vn)
{
	const char *p = ws(js, js + n), *end = js + n, *q, *r;
	size_t kl = strlen(key);
	struct tl_out t = MEMOUT;
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
		if (t.n == kl && memcmp(t.buf, key, kl) == 0) {
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
	free(t.buf);
	return found;
}
