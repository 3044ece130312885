/*
 * tl-agg: small JSON helpers for the argument columns of the stream
 * (written by tl-parse): a key's value in an object, a string's text,
 * and Python's str() of a text cut to a number of characters.
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/json.h"
#include "agg.h"

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
json_parse(const char *js, size_t n)
{
	return tl_json_parse(&A->jd, js, n) == 0 &&
	    A->jd.tok[0].type == JSMN_OBJECT;
}

int
json_get(const char *key, const char **v, size_t *vn)
{
	const struct tl_jdoc *d = &A->jd;
	const jsmntok_t *k, *t;
	size_t kl = strlen(key), n;
	char buf[64];
	unsigned bad = 0;
	int i, end;

	end = tl_jskip(d, 0);
	for (i = 1; i + 1 < end; i = tl_jskip(d, i + 1)) {
		k = &d->tok[i];
		t = &d->tok[i + 1];
		/* the key decoded: it may hold escapes */
		n = (size_t)(k->end - k->start);
		if (n > sizeof buf || tl_junescape(buf, d->js + k->start, n,
		    &bad) != kl || memcmp(buf, key, kl) != 0)
			continue;
		if (t->type == JSMN_PRIMITIVE && d->js[t->start] == 'n')
			return 0;	/* null */
		/* a string with its quotes */
		*v = d->js + t->start - (t->type == JSMN_STRING);
		*vn = (size_t)(t->end - t->start) + 2 * (t->type == JSMN_STRING);
		return 1;
	}
	return 0;
}
