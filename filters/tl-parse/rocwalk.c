/*
 * tl-parse: the rocprofv3 JSON reader's walk through the file (rocwalk.h):
 * byte by byte through its structure, taking out whole only the small
 * values the reader needs, which are then tokenized and checked as strict
 * JSON; every other value is passed over.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/intern.h"
#include "../../common/mem.h"
#include "rocwalk.h"

struct rw RW;

size_t
rw_uget(const struct umap *m, uint64_t k)
{
	size_t i;

	if (m->cap == 0)
		return 0;
	for (i = tl_hash64(k) & (m->cap - 1); m->v[i];
	    i = (i + 1) & (m->cap - 1))
		if (m->k[i] == k)
			return m->v[i];
	return 0;
}

void
rw_uput(struct umap *m, uint64_t k, size_t v)
{
	uint64_t *ok = m->k;
	size_t *ov = m->v, oc = m->cap, i, j;

	for (i = m->cap ? tl_hash64(k) & (m->cap - 1) : 0; m->cap && m->v[i];
	    i = (i + 1) & (m->cap - 1))
		if (m->k[i] == k) {
			m->v[i] = v;
			return;
		}
	if (2 * (m->n + 1) > m->cap) {
		m->cap = m->cap ? 2 * m->cap : 1024;
		m->k = xcalloc(m->cap, sizeof *m->k);
		m->v = xcalloc(m->cap, sizeof *m->v);
		for (j = 0; j < oc; j++)
			if (ov[j]) {
				for (i = tl_hash64(ok[j]) & (m->cap - 1);
				    m->v[i]; i = (i + 1) & (m->cap - 1))
					;
				m->k[i] = ok[j];
				m->v[i] = ov[j];
			}
		free(ok);
		free(ov);
	}
	for (i = tl_hash64(k) & (m->cap - 1); m->v[i];
	    i = (i + 1) & (m->cap - 1))
		;
	m->k[i] = k;
	m->v[i] = v;
	m->n++;
}

void
rw_ufree(struct umap *m)
{
	free(m->k);
	free(m->v);
	memset(m, 0, sizeof *m);
}

void
rw_warnat(uint64_t off, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	RW.nwarn++;
	tl_warns(&RW.warns, "%s:%" PRIu64 ": %s", RW.x->name, off, msg);
}

/* An error that ends the reading: located, reported once. */
int
rw_fail(const char *what)
{
	tl_warnx("%s:%" PRIu64 ": %s", RW.x->name, RW.base + RW.pos, what);
	return -1;
}

/* The byte at the cursor, reading on as needed; -1 at the end. */
int
rw_cur(void)
{
	if (RW.pos < RW.n)
		return (unsigned char)RW.p[RW.pos];
	if (RW.capturing && RW.n > RW.mark)
		tl_out_raw(&RW.cap, RW.p + RW.mark, RW.n - RW.mark);
	RW.mark = 0;	/* also at the end, where n and pos become 0 */
	RW.base += RW.n;
	if (!tl_in_more(RW.src, &RW.p, &RW.n, &RW.pos, &RW.eof))
		return -1;
	return (unsigned char)RW.p[RW.pos];
}

int
rw_skipws(void)
{
	int c;

	while ((c = rw_cur()) == ' ' || c == '\t' || c == '\n' || c == '\r')
		RW.pos++;
	return c;
}

/* Byte classes: in a string, the bytes that end the plain run. */
static unsigned char strstop[256], litbyte[256];

void
rw_classes(void)
{
	int c;

	if (litbyte['0'])
		return;
	for (c = 0; c < 256; c++) {
		strstop[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x80;
		litbyte[c] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') || c == '.' || c == '+' || c == '-';
	}
}

/*
 * Pass over one value (the cursor on its first byte): a state machine
 * over the bytes of each chunk, brackets matched, strings and literals
 * passed over in tight loops.
 */
int
rw_skipval(void)
{
	static char stk[DEPTHMAX];
	const unsigned char *p;
	size_t i, n;
	int depth = 0, st = 0;	/* 0 between, 1 string, 2 escape, 3 literal */
	unsigned char c;

	for (;;) {
		if (RW.pos >= RW.n && rw_cur() < 0) {
			if (st == 3 && depth == 0)
				return 0;
			return rw_fail(st == 1 || st == 2 ? "truncated: the file "
			    "ends inside a string" : "truncated: the file ends "
			    "inside a value");
		}
		p = (const unsigned char *)RW.p;
		n = RW.n;
		i = RW.pos;
		while (i < n) {
			switch (st) {
			case 1:
				while (i < n && !strstop[p[i]])
					i++;
				if (i == n)
					continue;
				c = p[i++];
				if (c == '"') {
					st = 0;
					if (depth == 0) {
						RW.pos = i;
						return 0;
					}
				} else if (c == '\\')
					st = 2;
				else
					RW.high = 1;
				continue;
			case 2:
				i++;
				st = 1;
				continue;
			case 3:
				while (i < n && litbyte[p[i]])
					i++;
				if (i == n)
					continue;
				st = 0;
				if (depth == 0) {
					RW.pos = i;
					return 0;
				}
				continue;
			}
			c = p[i];
			switch (c) {
			case '"':
				st = 1;
				i++;
				break;
			case '{':
			case '[':
				if (depth == DEPTHMAX) {
					RW.pos = i;
					return rw_fail("values nested too deep");
				}
				stk[depth++] = (char)(c == '{' ? '}' : ']');
				i++;
				break;
			case '}':
			case ']':
				if (depth == 0 || stk[depth - 1] != c) {
					RW.pos = i;
					return rw_fail("unmatched bracket");
				}
				i++;
				if (--depth == 0) {
					RW.pos = i;
					return 0;
				}
				break;
			case ' ': case '\t': case '\n': case '\r':
				RW.ws = 1;
				/* FALLTHROUGH */
			case ',': case ':':
				if (depth == 0) {
					RW.pos = i;
					return rw_fail("a value expected");
				}
				i++;
				break;
			default:
				if (!((c >= '0' && c <= '9') || c == '-' ||
				    (c >= 'a' && c <= 'z'))) {
					RW.pos = i;
					return rw_fail("not JSON");
				}
				st = 3;
			}
		}
		RW.pos = i;
	}
}

/*
 * Take out one value whole, its offset in *off: a plain value in the
 * chunk the quick way, its tokens made as it is read (RW.json set, RW.d its
 * tokens over the chunk's bytes); any other is passed over into RW.cap
 * (cleared first), compacted: no blanks outside strings, raw control
 * bytes in strings made blanks; rw_doc() then splits it. RW.d.js, RW.d.len:
 * the value either way.
 */
int
rw_takeval(uint64_t *off)
{
	size_t i, m;
	int in = 0, esc = 0;
	char *b;
	unsigned char c;

	*off = RW.base + RW.pos;
	RW.ws = RW.high = 0;
	if ((RW.json = tl_json_quick(&RW.d, RW.p + RW.pos, RW.n - RW.pos, &i,
	    &RW.high)) != 0) {
		RW.pos += i;
		return 0;
	}
	RW.high = 0;
	RW.cap.n = 0;
	RW.capturing = 1;
	RW.mark = RW.pos;
	if (rw_skipval() < 0) {
		RW.capturing = 0;
		return -1;
	}
	tl_out_raw(&RW.cap, RW.p + RW.mark, RW.pos - RW.mark);
	RW.capturing = 0;
	RW.d.js = RW.cap.buf;
	RW.d.len = RW.cap.n;
	if (!RW.ws && !RW.high)
		return 0;
	/* Compact in place; control bytes in strings become blanks. */
	b = RW.cap.buf;
	for (i = m = 0; i < RW.cap.n; i++) {
		c = (unsigned char)b[i];
		if (in) {
			if (c < 0x20)
				c = ' ';	/* rare: keep the row one line */
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				in = 0;
			b[m++] = (char)c;
		} else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			in = c == '"';
			b[m++] = (char)c;
		}
	}
	RW.cap.n = RW.d.len = m;
	return 0;
}

/* Read a key (at its '"') and the ':' after it; RW.key, cut at KEYMAX. */
int
rw_readkey(void)
{
	int c;

	RW.keylen = 0;
	RW.pos++;
	for (;;) {
		if ((c = rw_cur()) < 0)
			return rw_fail("truncated: the file ends inside a key");
		RW.pos++;
		if (c == '"')
			break;
		if (c == '\\') {
			if (rw_cur() < 0)
				return rw_fail("truncated: the file ends inside "
				    "a key");
			RW.pos++;
			c = '\\';	/* an escaped key matches nothing */
		}
		if (RW.keylen < KEYMAX)
			RW.key[RW.keylen] = (char)c;
		RW.keylen++;
	}
	if (RW.keylen > KEYMAX)
		RW.keylen = KEYMAX + 1;
	RW.key[RW.keylen <= KEYMAX ? RW.keylen : KEYMAX] = '\0';
	if (rw_skipws() != ':')
		return rw_fail("':' expected after a key");
	RW.pos++;
	rw_skipws();
	return 0;
}

int
rw_iskey(const char *k)
{
	return RW.keylen == strlen(k) && memcmp(RW.key, k, RW.keylen) == 0;
}

/*
 * The members of an object (cursor on '{'): fn(arg) for each, with the
 * key in RW.key and the cursor on the value, which fn must read whole.
 */
int
rw_members(int (*fn)(void *), void *arg)
{
	int c;

	RW.pos++;
	if (rw_skipws() == '}') {
		RW.pos++;
		return 0;
	}
	for (;;) {
		if (rw_cur() != '"')
			return rw_fail(rw_cur() < 0 ? "truncated: the file ends "
			    "inside an object" : "a key expected");
		if (rw_readkey() < 0 || fn(arg) < 0)
			return -1;
		c = rw_skipws();
		RW.pos++;
		if (c == '}')
			return 0;
		if (c != ',') {
			RW.pos--;
			return rw_fail(c < 0 ? "truncated: the file ends inside "
			    "an object" : "',' or '}' expected");
		}
		rw_skipws();
	}
}

/* Each element of an array (cursor on '['), taken out whole. */
int
rw_elements(int (*fn)(uint64_t, void *), void *arg)
{
	uint64_t off;
	int c;

	if (rw_cur() != '[') {
		rw_warnat(RW.base + RW.pos, "\"%s\" is not an array (passed over)",
		    RW.key);
		return rw_skipval();
	}
	RW.pos++;
	if (rw_skipws() == ']') {
		RW.pos++;
		return 0;
	}
	for (;;) {
		if (rw_takeval(&off) < 0 || fn(off, arg) < 0)
			return -1;
		c = rw_skipws();
		RW.pos++;
		if (c == ']')
			return 0;
		if (c != ',') {
			RW.pos--;
			return rw_fail(c < 0 ? "truncated: the file ends inside "
			    "an array" : "',' or ']' expected");
		}
		rw_skipws();
	}
}

/*
 * The value at token *i and everything in it, checked as strict JSON
 * (jsmn is lenient: {"a"} passes): 0 and *i past it, or -1.
 */
static int
strict(int *i, int depth)
{
	const jsmntok_t *t;
	const char *s;
	int k, n;

	if (*i >= RW.d.ntok || depth > 512)
		return -1;
	t = &RW.d.tok[(*i)++];
	switch (t->type) {
	case JSMN_OBJECT:
		for (k = 0; k < t->size; k++) {
			if (*i >= RW.d.ntok || RW.d.tok[*i].type != JSMN_STRING ||
			    RW.d.tok[*i].size != 1)
				return -1;
			(*i)++;
			if (strict(i, depth + 1) < 0)
				return -1;
		}
		return 0;
	case JSMN_ARRAY:
		for (k = 0; k < t->size; k++)
			if (strict(i, depth + 1) < 0)
				return -1;
		return 0;
	case JSMN_STRING:
		return t->size == 0 ? 0 : -1;
	default:
		s = RW.d.js + t->start;
		n = t->end - t->start;
		if ((n == 4 && (memcmp(s, "true", 4) == 0 ||
		    memcmp(s, "null", 4) == 0)) ||
		    (n == 5 && memcmp(s, "false", 5) == 0))
			return 0;
		return t->size == 0 && tl_jnumber(s, (size_t)n) ? 0 : -1;
	}
}

/* RW.d's value as JSON, its tokens in RW.d: 0, or -1 (warned). */
int
rw_doc(uint64_t off, const char *what)
{
	int i = 0;

	if (RW.json)
		return 0;	/* the quick way made and checked them */
	if (tl_json_parse(&RW.d, RW.cap.buf, RW.cap.n) < 0 ||
	    RW.d.ntok < 1 || strict(&i, 0) < 0 || i != RW.d.ntok) {
		RW.nbad++;
		rw_warnat(off, "%s: not valid JSON (skipped)", what);
		return -1;
	}
	return 0;
}

/* The token after token i and all in it. */
int
rw_after(int i)
{
	return RW.d.tok[i].type == JSMN_PRIMITIVE ||
	    RW.d.tok[i].type == JSMN_STRING ? i + 1 : tl_jskip(&RW.d, i);
}

/* Token i is the string key[0..n). */
int
rw_keyis(int i, const char *key, size_t n)
{
	const jsmntok_t *t = &RW.d.tok[i];

	return (size_t)(t->end - t->start) == n && t->type == JSMN_STRING &&
	    memcmp(RW.d.js + t->start, key, n) == 0;
}

/* Member key of object token o in RW.d, or -1. */
int
rw_mem(int o, const char *key)
{
	size_t n = strlen(key);
	int i, k;

	if (o < 0 || RW.d.tok[o].type != JSMN_OBJECT)
		return -1;
	for (i = o + 1, k = 0; k < RW.d.tok[o].size; k++) {
		if (rw_keyis(i, key, n))
			return i + 1;
		i = rw_after(i + 1);
	}
	return -1;
}

void
rw_keysinit(struct keyset *ks, const char *const *key)
{
	unsigned h;
	int k;

	ks->key = key;
	for (k = 0; key[k]; k++) {
		ks->len[k] = strlen(key[k]);
		h = KHASH(ks->len[k], key[k][0]);
		ks->linear |= ks->at[h] != 0;
		ks->at[h] = (unsigned char)(k + 1);
	}
}

/*
 * The members of object o named in ks, found in one pass: v[k] the value
 * token of key k, or -1. The last of a repeated key.
 */
void
rw_slots(int o, const struct keyset *ks, int *v)
{
	const jsmntok_t *t;
	const char *s;
	int i, k, m;
	size_t n;

	for (k = 0; ks->key[k]; k++)
		v[k] = -1;
	if (o < 0 || RW.d.tok[o].type != JSMN_OBJECT)
		return;
	for (i = o + 1, m = 0; m < RW.d.tok[o].size; m++, i = rw_after(i + 1)) {
		t = &RW.d.tok[i];
		n = (size_t)(t->end - t->start);
		s = RW.d.js + t->start;
		if (!ks->linear) {
			k = ks->at[KHASH(n, s[0])] - 1;
			if (k >= 0 && ks->len[k] == n &&
			    memcmp(ks->key[k], s, n) == 0)
				v[k] = i + 1;
			continue;
		}
		for (k = 0; ks->key[k]; k++)
			if (ks->len[k] == n && memcmp(ks->key[k], s, n) == 0) {
				v[k] = i + 1;
				break;
			}
	}
}

/* An integer token: 1 and *v; 0 when it is not one. */
int
rw_tint(int t, int64_t *v)
{
	const jsmntok_t *k;
	const char *s;
	size_t n, i;
	uint64_t u = 0;

	if (t < 0)
		return 0;
	k = &RW.d.tok[t];
	if (k->type != JSMN_PRIMITIVE)
		return 0;
	s = RW.d.js + k->start;
	n = (size_t)(k->end - k->start);
	if (tl_parse_i64(s, n, v) == 0)
		return 1;
	/* Handles and addresses above 2^63: their bits. */
	if (n == 0 || n > 20)
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		if (u > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return 0;
		u = u * 10 + (uint64_t)(s[i] - '0');
	}
	*v = (int64_t)u;
	return 1;
}

int64_t
rw_intor(int t, int64_t def)
{
	int64_t v;

	return rw_tint(t, &v) ? v : def;
}

/* A string token decoded (escapes) and checked (UTF-8) into *d. */
int
rw_tstr(int t, struct str *d)
{
	const jsmntok_t *k;
	size_t n;

	if (t < 0 || RW.d.tok[t].type != JSMN_STRING)
		return 0;
	k = &RW.d.tok[t];
	xgrow(&RW.ubuf2, &RW.ucap2, (size_t)(k->end - k->start) + 1, 1);
	n = tl_junescape(RW.ubuf2, RW.d.js + k->start,
	    (size_t)(k->end - k->start), NULL);
	n = tlp_utf8(&RW.ubuf, &RW.ucap, RW.ubuf2, n, NULL);
	d->s = xmemdup(RW.ubuf, n);
	d->n = n;
	return 1;
}

/* The handle of {"handle": N} at token t. */
int64_t
rw_handle(int t, int64_t def)
{
	return rw_intor(rw_mem(t, "handle"), def);
}

