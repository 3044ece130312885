/*
 * tl-parse: a rocprofv3 JSON (*_results.json[.gz]) read as a stream. The
 * file is one object, {"rocprofiler-sdk-tool": [ {tool record}, ... ]};
 * only element 0 is read. A walker goes through its structure byte by
 * byte and takes out whole only the small values it needs (metadata,
 * agents, the kind/operation string table, each kernel symbol, each
 * marker message, each buffer record), which jsmn then tokenizes; every
 * other value is passed over. So memory is bounded by the name tables and
 * the largest single record, whatever the number of records. Each buffer
 * record becomes one row; metadata and agents become trace_key rows.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/intern.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "amd.h"

#define KEYMAX	64		/* longer keys match nothing read here */
#define DEPTHMAX 4096

struct str {
	char *s;
	size_t n;
};

/* u64 -> index + 1, open addressing (kernel ids, marker ids). */
struct umap {
	uint64_t *k;
	size_t *v;
	size_t cap, n;
};

static size_t
uget(const struct umap *m, uint64_t k)
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

static void
uput(struct umap *m, uint64_t k, size_t v)
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

static void
ufree(struct umap *m)
{
	free(m->k);
	free(m->v);
	memset(m, 0, sizeof *m);
}

struct sym {
	struct str name;	/* the report's name (A.4) */
	struct str demangled;
	int64_t sgpr, vgpr, accum;
	int hasregs;
	int plain;		/* name has no byte a TSV field escapes */
};

struct agent {
	uint64_t handle;
	int64_t type, index, node;
};

struct kind {
	struct str name;
	struct str *op;
	size_t nop;
};

struct rec {
	char *text;
	size_t len;
	uint64_t off;
	int arr, high;
};

/* The walker's input and what it takes out. */
static struct {
	const struct tlp_ctx *x;
	struct tl_src *src;
	char *p;
	size_t n, pos;
	int eof;
	uint64_t base;		/* offset of p[0] */
	int capturing;
	int json;		/* the value taken out is JSON */
	int ws, high;		/* the value taken has blanks, bytes >= 0x80
				 * or control bytes in strings */
	size_t mark;
	struct tl_out cap;	/* the value being taken out */
	char key[KEYMAX + 1];
	size_t keylen;

	struct tl_jdoc d;
	struct sym *sym;
	size_t nsym, capsym;
	struct umap symix;
	struct agent *agent;
	size_t nagent;
	struct kind *kind;
	size_t nkind;
	struct str *marker;
	size_t nmarker, capmarker;
	struct umap markix;
	int havesym, havestr, haveagent;
	int64_t pid;
	int haspid;
	struct rec *defer;	/* records read before the names */
	size_t ndefer, capdefer;
	char **arrname;		/* names of the buffer_records arrays */
	size_t narr;
	uint64_t nrec, nrow, nbad, nwarn;	/* nrow: uids */
	struct tl_warns warns;
	struct tl_out j;	/* args JSON */
	char *ubuf, *ubuf2;
	size_t ucap, ucap2;
} W;

static void
warnat(uint64_t off, const char *fmt, ...) __attribute__((format(printf, 2,
    3)));

static void
warnat(uint64_t off, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	W.nwarn++;
	tl_warns(&W.warns, "%s:%" PRIu64 ": %s", W.x->name, off, msg);
}

/* An error that ends the reading: located, reported once. */
static int
fail(const char *what)
{
	tl_warnx("%s:%" PRIu64 ": %s", W.x->name, W.base + W.pos, what);
	return -1;
}

/* The byte at the cursor, reading on as needed; -1 at the end. */
static int
cur(void)
{
	if (W.pos < W.n)
		return (unsigned char)W.p[W.pos];
	if (W.capturing && W.n > W.mark)
		tl_out_raw(&W.cap, W.p + W.mark, W.n - W.mark);
	W.mark = 0;	/* also at the end, where n and pos become 0 */
	W.base += W.n;
	if (!tl_in_more(W.src, &W.p, &W.n, &W.pos, &W.eof))
		return -1;
	return (unsigned char)W.p[W.pos];
}

static int
skipws(void)
{
	int c;

	while ((c = cur()) == ' ' || c == '\t' || c == '\n' || c == '\r')
		W.pos++;
	return c;
}

/* Byte classes: in a string, the bytes that end the plain run. */
static unsigned char strstop[256], litbyte[256];

static void
classes(void)
{
	int c;

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
static int
skipval(void)
{
	static char stk[DEPTHMAX];
	const unsigned char *p;
	size_t i, n;
	int depth = 0, st = 0;	/* 0 between, 1 string, 2 escape, 3 literal */
	unsigned char c;

	for (;;) {
		if (W.pos >= W.n && cur() < 0) {
			if (st == 3 && depth == 0)
				return 0;
			return fail(st == 1 || st == 2 ? "truncated: the file "
			    "ends inside a string" : "truncated: the file ends "
			    "inside a value");
		}
		p = (const unsigned char *)W.p;
		n = W.n;
		i = W.pos;
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
						W.pos = i;
						return 0;
					}
				} else if (c == '\\')
					st = 2;
				else
					W.high = 1;
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
					W.pos = i;
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
					W.pos = i;
					return fail("values nested too deep");
				}
				stk[depth++] = (char)(c == '{' ? '}' : ']');
				i++;
				break;
			case '}':
			case ']':
				if (depth == 0 || stk[depth - 1] != c) {
					W.pos = i;
					return fail("unmatched bracket");
				}
				i++;
				if (--depth == 0) {
					W.pos = i;
					return 0;
				}
				break;
			case ' ': case '\t': case '\n': case '\r':
				W.ws = 1;
				/* FALLTHROUGH */
			case ',': case ':':
				if (depth == 0) {
					W.pos = i;
					return fail("a value expected");
				}
				i++;
				break;
			default:
				if (!((c >= '0' && c <= '9') || c == '-' ||
				    (c >= 'a' && c <= 'z'))) {
					W.pos = i;
					return fail("not JSON");
				}
				st = 3;
			}
		}
		W.pos = i;
	}
}

/*
 * Take out one value whole, its offset in *off: a plain value in the
 * chunk the quick way, its tokens made as it is read (W.json set, W.d its
 * tokens over the chunk's bytes); any other is passed over into W.cap
 * (cleared first), compacted: no blanks outside strings, raw control
 * bytes in strings made blanks; doc() then splits it. W.d.js, W.d.len:
 * the value either way.
 */
static int
takeval(uint64_t *off)
{
	size_t i, m;
	int in = 0, esc = 0;
	char *b;
	unsigned char c;

	*off = W.base + W.pos;
	W.ws = W.high = 0;
	if ((W.json = tl_json_quick(&W.d, W.p + W.pos, W.n - W.pos, &i,
	    &W.high)) != 0) {
		W.pos += i;
		return 0;
	}
	W.high = 0;
	W.cap.n = 0;
	W.capturing = 1;
	W.mark = W.pos;
	if (skipval() < 0) {
		W.capturing = 0;
		return -1;
	}
	tl_out_raw(&W.cap, W.p + W.mark, W.pos - W.mark);
	W.capturing = 0;
	W.d.js = W.cap.buf;
	W.d.len = W.cap.n;
	if (!W.ws && !W.high)
		return 0;
	/* Compact in place; control bytes in strings become blanks. */
	b = W.cap.buf;
	for (i = m = 0; i < W.cap.n; i++) {
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
	W.cap.n = W.d.len = m;
	return 0;
}

/* Read a key (at its '"') and the ':' after it; W.key, cut at KEYMAX. */
static int
readkey(void)
{
	int c;

	W.keylen = 0;
	W.pos++;
	for (;;) {
		if ((c = cur()) < 0)
			return fail("truncated: the file ends inside a key");
		W.pos++;
		if (c == '"')
			break;
		if (c == '\\') {
			if (cur() < 0)
				return fail("truncated: the file ends inside "
				    "a key");
			W.pos++;
			c = '\\';	/* an escaped key matches nothing */
		}
		if (W.keylen < KEYMAX)
			W.key[W.keylen] = (char)c;
		W.keylen++;
	}
	if (W.keylen > KEYMAX)
		W.keylen = KEYMAX + 1;
	W.key[W.keylen <= KEYMAX ? W.keylen : KEYMAX] = '\0';
	if (skipws() != ':')
		return fail("':' expected after a key");
	W.pos++;
	skipws();
	return 0;
}

static int
iskey(const char *k)
{
	return W.keylen == strlen(k) && memcmp(W.key, k, W.keylen) == 0;
}

/*
 * The members of an object (cursor on '{'): fn(arg) for each, with the
 * key in W.key and the cursor on the value, which fn must read whole.
 */
static int
members(int (*fn)(void *), void *arg)
{
	int c;

	W.pos++;
	if (skipws() == '}') {
		W.pos++;
		return 0;
	}
	for (;;) {
		if (cur() != '"')
			return fail(cur() < 0 ? "truncated: the file ends "
			    "inside an object" : "a key expected");
		if (readkey() < 0 || fn(arg) < 0)
			return -1;
		c = skipws();
		W.pos++;
		if (c == '}')
			return 0;
		if (c != ',') {
			W.pos--;
			return fail(c < 0 ? "truncated: the file ends inside "
			    "an object" : "',' or '}' expected");
		}
		skipws();
	}
}

/* Each element of an array (cursor on '['), taken out whole. */
static int
elements(int (*fn)(uint64_t, void *), void *arg)
{
	uint64_t off;
	int c;

	if (cur() != '[') {
		warnat(W.base + W.pos, "\"%s\" is not an array (passed over)",
		    W.key);
		return skipval();
	}
	W.pos++;
	if (skipws() == ']') {
		W.pos++;
		return 0;
	}
	for (;;) {
		if (takeval(&off) < 0 || fn(off, arg) < 0)
			return -1;
		c = skipws();
		W.pos++;
		if (c == ']')
			return 0;
		if (c != ',') {
			W.pos--;
			return fail(c < 0 ? "truncated: the file ends inside "
			    "an array" : "',' or ']' expected");
		}
		skipws();
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

	if (*i >= W.d.ntok || depth > 512)
		return -1;
	t = &W.d.tok[(*i)++];
	switch (t->type) {
	case JSMN_OBJECT:
		for (k = 0; k < t->size; k++) {
			if (*i >= W.d.ntok || W.d.tok[*i].type != JSMN_STRING ||
			    W.d.tok[*i].size != 1)
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
		s = W.d.js + t->start;
		n = t->end - t->start;
		if ((n == 4 && (memcmp(s, "true", 4) == 0 ||
		    memcmp(s, "null", 4) == 0)) ||
		    (n == 5 && memcmp(s, "false", 5) == 0))
			return 0;
		return t->size == 0 && tl_jnumber(s, (size_t)n) ? 0 : -1;
	}
}

/* W.d's value as JSON, its tokens in W.d: 0, or -1 (warned). */
static int
doc(uint64_t off, const char *what)
{
	int i = 0;

	if (W.json)
		return 0;	/* the quick way made and checked them */
	if (tl_json_parse(&W.d, W.cap.buf, W.cap.n) < 0 ||
	    W.d.ntok < 1 || strict(&i, 0) < 0 || i != W.d.ntok) {
		W.nbad++;
		warnat(off, "%s: not valid JSON (skipped)", what);
		return -1;
	}
	return 0;
}

/* The token after token i and all in it. */
static int
after(int i)
{
	return W.d.tok[i].type == JSMN_PRIMITIVE ||
	    W.d.tok[i].type == JSMN_STRING ? i + 1 : tl_jskip(&W.d, i);
}

/* Token i is the string key[0..n). */
static int
keyis(int i, const char *key, size_t n)
{
	const jsmntok_t *t = &W.d.tok[i];

	return (size_t)(t->end - t->start) == n && t->type == JSMN_STRING &&
	    memcmp(W.d.js + t->start, key, n) == 0;
}

/* Member key of object token o in W.d, or -1. */
static int
mem(int o, const char *key)
{
	size_t n = strlen(key);
	int i, k;

	if (o < 0 || W.d.tok[o].type != JSMN_OBJECT)
		return -1;
	for (i = o + 1, k = 0; k < W.d.tok[o].size; k++) {
		if (keyis(i, key, n))
			return i + 1;
		i = after(i + 1);
	}
	return -1;
}

/* Keys looked up by their length and first byte. */
struct keyset {
	const char *const *key;	/* NULL-terminated */
	size_t len[16];
	unsigned char at[64];	/* 1 + the key of each hash, or 0 */
	int linear;		/* two keys have one hash: each is tried */
};
#define KHASH(n, c)	(((n) * 3 + (unsigned char)(c)) & 63)

static void
keysinit(struct keyset *ks, const char *const *key)
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
static void
slots(int o, const struct keyset *ks, int *v)
{
	const jsmntok_t *t;
	const char *s;
	int i, k, m;
	size_t n;

	for (k = 0; ks->key[k]; k++)
		v[k] = -1;
	if (o < 0 || W.d.tok[o].type != JSMN_OBJECT)
		return;
	for (i = o + 1, m = 0; m < W.d.tok[o].size; m++, i = after(i + 1)) {
		t = &W.d.tok[i];
		n = (size_t)(t->end - t->start);
		s = W.d.js + t->start;
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
static int
tint(int t, int64_t *v)
{
	const jsmntok_t *k;
	const char *s;
	size_t n, i;
	uint64_t u = 0;

	if (t < 0)
		return 0;
	k = &W.d.tok[t];
	if (k->type != JSMN_PRIMITIVE)
		return 0;
	s = W.d.js + k->start;
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

static int64_t
intor(int t, int64_t def)
{
	int64_t v;

	return tint(t, &v) ? v : def;
}

/* A string token decoded (escapes) and checked (UTF-8) into *d. */
static int
tstr(int t, struct str *d)
{
	const jsmntok_t *k;
	size_t n;

	if (t < 0 || W.d.tok[t].type != JSMN_STRING)
		return 0;
	k = &W.d.tok[t];
	xgrow(&W.ubuf2, &W.ucap2, (size_t)(k->end - k->start) + 1, 1);
	n = tl_junescape(W.ubuf2, W.d.js + k->start,
	    (size_t)(k->end - k->start), NULL);
	n = tlp_utf8(&W.ubuf, &W.ucap, W.ubuf2, n, NULL);
	d->s = xmemdup(W.ubuf, n);
	d->n = n;
	return 1;
}

/* The handle of {"handle": N} at token t. */
static int64_t
handle(int t, int64_t def)
{
	return intor(mem(t, "handle"), def);
}

static int
symbol(uint64_t off, void *arg)
{
	struct sym s;
	struct str nm;
	int64_t id;
	char b[64];
	size_t i;

	(void)arg;
	if (doc(off, "kernel symbol") < 0)
		return 0;
	memset(&s, 0, sizeof s);
	if (!tint(mem(0, "kernel_id"), &id)) {
		warnat(off, "kernel symbol without a kernel_id (skipped)");
		return 0;
	}
	/* First non-empty of truncated, formatted, then kernel_name. */
	if (!tstr(mem(0, "truncated_kernel_name"), &s.name) ||
	    s.name.n == 0) {
		free(s.name.s);
		s.name.s = NULL;
		if (!tstr(mem(0, "formatted_kernel_name"), &s.name) ||
		    s.name.n == 0) {
			free(s.name.s);
			s.name.s = NULL;
			if (!tstr(mem(0, "kernel_name"), &s.name)) {
				snprintf(b, sizeof b, "unknown_kernel_%" PRId64,
				    id);
				s.name.s = xstrdup(b);
				s.name.n = strlen(b);
			}
		}
	}
	if (tstr(mem(0, "demangled_kernel_name"), &nm)) {
		/* Kept as JSON text, as every row of the kernel writes it. */
		W.j.n = 0;
		tlp_jstr(&W.j, nm.s, nm.n, NULL);
		s.demangled.s = xmemdup(W.j.buf, W.j.n);
		s.demangled.n = W.j.n;
		free(nm.s);
	}
	s.plain = strcspn(s.name.s, "\\\t\n\r") == s.name.n;
	s.hasregs = tint(mem(0, "sgpr_count"), &s.sgpr);
	s.vgpr = intor(mem(0, "arch_vgpr_count"), 0);
	s.accum = intor(mem(0, "accum_vgpr_count"), 0);
	if ((i = uget(&W.symix, (uint64_t)id)) != 0) {
		free(W.sym[i - 1].name.s);
		free(W.sym[i - 1].demangled.s);
		W.sym[i - 1] = s;
		return 0;
	}
	xgrow(&W.sym, &W.capsym, W.nsym + 1, sizeof *W.sym);
	W.sym[W.nsym++] = s;
	uput(&W.symix, (uint64_t)id, W.nsym);
	return 0;
}

static int
marker(uint64_t off, void *arg)
{
	int64_t id;
	struct str s;

	(void)arg;
	if (doc(off, "marker message") < 0)
		return 0;
	if (!tint(mem(0, "key"), &id) || !tstr(mem(0, "value"), &s)) {
		warnat(off, "marker message without an integer key and a "
		    "string value (skipped)");
		return 0;
	}
	xgrow(&W.marker, &W.capmarker, W.nmarker + 1, sizeof *W.marker);
	W.marker[W.nmarker++] = s;
	uput(&W.markix, (uint64_t)id, W.nmarker);
	return 0;
}

/* strings.buffer_records: [{kind, operations: [...]}, ...] by kind. */
static void
kinds(uint64_t off)
{
	int i, k, o, n, e;

	if (doc(off, "strings.buffer_records") < 0)
		return;
	if (W.d.tok[0].type != JSMN_ARRAY) {
		warnat(off, "strings.buffer_records is not an array");
		return;
	}
	W.nkind = (size_t)W.d.tok[0].size;
	W.kind = xcalloc(W.nkind + 1, sizeof *W.kind);
	for (i = 1, k = 0; k < W.d.tok[0].size; k++) {
		tstr(mem(i, "kind"), &W.kind[k].name);
		if ((o = mem(i, "operations")) >= 0 &&
		    W.d.tok[o].type == JSMN_ARRAY) {
			n = W.d.tok[o].size;
			W.kind[k].op = xcalloc((size_t)n + 1,
			    sizeof *W.kind[k].op);
			W.kind[k].nop = (size_t)n;
			for (e = o + 1, n = 0; n < W.d.tok[o].size; n++) {
				tstr(e, &W.kind[k].op[n]);
				e = tl_jskip(&W.d, e);
			}
		}
		i = tl_jskip(&W.d, i);
	}
}

static int
stringsmember(void *arg)
{
	uint64_t off;

	(void)arg;
	if (iskey("buffer_records")) {
		if (takeval(&off) < 0)
			return -1;
		kinds(off);
		return 0;
	}
	if (iskey("marker_api"))
		return elements(marker, NULL);
	return skipval();
}

static void
agents(uint64_t off)
{
	int i, k;

	if (doc(off, "agents") < 0)
		return;
	if (W.d.tok[0].type != JSMN_ARRAY)
		return;
	W.agent = xcalloc((size_t)W.d.tok[0].size + 1, sizeof *W.agent);
	for (i = 1, k = 0; k < W.d.tok[0].size; k++) {
		W.agent[k].handle = (uint64_t)handle(mem(i, "id"), -1);
		W.agent[k].type = intor(mem(i, "type"), 0);
		W.agent[k].index = intor(mem(i, "logical_node_type_id"), -1);
		W.agent[k].node = intor(mem(i, "logical_node_id"), -1);
		i = tl_jskip(&W.d, i);
	}
	W.nagent = (size_t)W.d.tok[0].size;
	W.haveagent = 1;
}

static const struct agent *
findagent(int64_t h)
{
	size_t i;

	for (i = 0; i < W.nagent; i++)
		if (W.agent[i].handle == (uint64_t)h)
			return &W.agent[i];
	return NULL;
}

/* A trace_key row: the key and its value, W.d, as JSON. */
static void
keyrow(const char *key)
{
	struct tlp_row r;
	size_t n;

	n = tlp_utf8(&W.ubuf, &W.ucap, W.d.js, W.d.len, NULL);
	tlp_row_clear(&r);
	tlp_row_str(&r, TLP_CAT, "trace_key", sizeof "trace_key" - 1);
	tlp_row_str(&r, TLP_NAME, key, strlen(key));
	tlp_row_json(&r, TLP_ARGS, W.ubuf, n);
	tlp_row_put(W.x, &r);
}

/* The args JSON's next key, k: "k": (the quotes and colon in k, n
 * bytes). jkey("k") and the others take a string constant. */
#define jkey(k)		jkeyn("\"" k "\":", sizeof k + 2)
#define jint(k, v)	(jkey(k), jnum(v))
#define juint(k, v)	(jkey(k), junum(v))
#define jstrv(k, v)	(jkey(k), tlp_jstr(&W.j, (v)->s, (v)->n, NULL))
#define jxyz(k, t)	(jkey(k), jtriple(t))

static void
jkeyn(const char *k, size_t n)
{
	if (W.j.n > 1)
		tl_out_char(&W.j, ',');
	tl_out_raw(&W.j, k, n);
}

static void
jnum(int64_t v)
{
	char b[TL_I64_MAX];

	tl_out_raw(&W.j, b, tl_fmt_i64(b, v));
}

static void
junum(int64_t v)
{
	struct tlp_row r;

	tlp_row_u64(&r, 0, (uint64_t)v);
	tl_out_raw(&W.j, r.s[0], r.n[0]);
}

/* [x,y,z] of {"x": X, "y": Y, "z": Z} at token t, 1 for what is not an
 * integer or not there (the first of a repeated key). */
static void
jtriple(int t)
{
	int64_t v[3] = { 1, 1, 1 };
	int got[3] = { 0, 0, 0 }, i, k, c;

	if (t >= 0 && W.d.tok[t].type == JSMN_OBJECT)
		for (i = t + 1, k = 0; k < W.d.tok[t].size; k++) {
			c = W.d.js[W.d.tok[i].start] - 'x';
			if (c >= 0 && c < 3 && !got[c] &&
			    keyis(i, "xyz" + c, 1)) {
				got[c] = 1;
				v[c] = intor(i + 1, 1);
			}
			i = after(i + 1);
		}
	tl_out_char(&W.j, '[');
	jnum(v[0]);
	tl_out_char(&W.j, ',');
	jnum(v[1]);
	tl_out_char(&W.j, ',');
	jnum(v[2]);
	tl_out_char(&W.j, ']');
}

/* The name of kind k and operation op: NULL when the table lacks it. */
static const struct str *
opname(int64_t k, int64_t op, const struct str **kname)
{
	*kname = NULL;
	if (k < 0 || (size_t)k >= W.nkind)
		return NULL;
	*kname = W.kind[k].name.s ? &W.kind[k].name : NULL;
	if (op < 0 || (size_t)op >= W.kind[k].nop || !W.kind[k].op[op].s)
		return NULL;
	return &W.kind[k].op[op];
}

static const char *const rkey[] = { "kind", "operation", "start_timestamp",
	"end_timestamp", "correlation_id", "stream_id", "dispatch_info",
	"thread_id", "src_agent_id", "dst_agent_id", NULL };
enum { R_KIND, R_OP, R_START, R_END, R_CORR, R_STREAM, R_DI, R_TID, R_SRC,
	R_DST, NR };
static const char *const dkey[] = { "kernel_id", "agent_id", "queue_id",
	"dispatch_id", "grid_size", "workgroup_size", "group_segment_size",
	"private_segment_size", NULL };
enum { D_KID, D_AGENT, D_QUEUE, D_DISP, D_GRID, D_WG, D_LDS, D_SCR, ND };
static struct keyset rkeys, dkeys;

/* One buffer record, in W.d, of the array arr. */
static void
record(uint64_t off, int arr)
{
	static const struct str empty = { "", 0 };
	const char *cat = W.arrname[arr];
	struct tlp_row r;
	const struct str *name = &empty, *kname, *on;
	const struct sym *s = NULL;
	const struct agent *ag = NULL, *dst = NULL, *src = NULL;
	struct str nm;
	int64_t kind, op, start, end, v, kid = 0, tid, in = -1;
	int di, corr, sid, i, k, kd, hasstart, hasend, hasin, rv[NR], dv[ND];
	size_t ix, nn;
	char b[64];

	if (doc(off, cat) < 0)
		return;
	if (W.d.tok[0].type != JSMN_OBJECT) {
		W.nbad++;
		warnat(off, "%s record is not an object (skipped)", cat);
		return;
	}
	kd = strcmp(cat, "kernel_dispatch") == 0;
	slots(0, &rkeys, rv);
	kind = intor(rv[R_KIND], -1);
	op = intor(rv[R_OP], -1);
	hasstart = tint(rv[R_START], &start);
	hasend = tint(rv[R_END], &end);
	corr = rv[R_CORR];
	hasin = tint(mem(corr, "internal"), &in);
	sid = rv[R_STREAM];
	di = rv[R_DI];
	tid = intor(rv[R_TID], 0);
	slots(di, &dkeys, dv);
	on = opname(kind, op, &kname);
	nm.s = NULL;
	tlp_row_clear(&r);
	W.j.n = 0;
	tl_out_char(&W.j, '{');
	if (kname)
		jstrv("kind", kname);
	else
		jint("kind", kind);
	if (kd) {
		kid = intor(dv[D_KID], 0);
		if ((ix = uget(&W.symix, (uint64_t)kid)) != 0) {
			s = &W.sym[ix - 1];
			name = &s->name;
		} else {
			snprintf(b, sizeof b, "unknown_kernel_%" PRId64, kid);
			nm.s = b;
			nm.n = strlen(b);
			name = &nm;
			warnat(off, "kernel_id %" PRId64 " not in "
			    "kernel_symbols", kid);
		}
		v = handle(dv[D_AGENT], 0);
		ag = findagent(v);
		if (ag != NULL && ag->type == 2 && ag->index >= 0)
			tlp_row_i64(&r, TLP_PID, ag->index);
		else
			tlp_row_i64(&r, TLP_PID, v);
		if (sid >= 0)
			tlp_row_i64(&r, TLP_TID, handle(sid, 0));
		else
			tlp_row_i64(&r, TLP_TID, handle(dv[D_QUEUE],
			    0));
		juint("agent", v);
		if (ag != NULL && ag->type == 2)
			jint("device", ag->index);
		juint("queue", handle(dv[D_QUEUE], 0));
		jint("kernel_id", kid);
		jint("dispatch_id", intor(dv[D_DISP], 0));
		jint("thread_id", tid);
		jxyz("grid", dv[D_GRID]);
		jxyz("block", dv[D_WG]);
		jint("lds", intor(dv[D_LDS], 0));
		jint("scratch", intor(dv[D_SCR], 0));
		if (s != NULL && s->hasregs) {
			jint("sgpr", s->sgpr);
			jint("vgpr", s->vgpr);
			jint("accum_vgpr", s->accum);
		}
		if (s != NULL && s->demangled.s != NULL) {
			jkey("demangled_name");
			tl_out_raw(&W.j, s->demangled.s, s->demangled.n);
		}
	} else {
		if (strcmp(cat, "marker_api") == 0 && corr >= 0 &&
		    (ix = uget(&W.markix, (uint64_t)in)) != 0)
			name = &W.marker[ix - 1];
		else if (on != NULL)
			name = on;
		else {
			warnat(off, "%s record: kind %" PRId64 ", operation %"
			    PRId64 " not in strings.buffer_records (no name)",
			    cat, kind, op);
		}
		if (strcmp(cat, "memory_copy") == 0) {
			src = findagent(handle(rv[R_SRC], -1));
			dst = findagent(handle(rv[R_DST], -1));
			ag = dst != NULL && dst->type == 2 ? dst : src;
			if (ag != NULL && ag->type == 2)
				tlp_row_i64(&r, TLP_PID, ag->index);
			else if (W.haspid)
				tlp_row_i64(&r, TLP_PID, W.pid);
			if (sid >= 0)
				tlp_row_i64(&r, TLP_TID, handle(sid, 0));
			else
				tlp_row_i64(&r, TLP_TID, tid);
		} else {
			if (W.haspid)
				tlp_row_i64(&r, TLP_PID, W.pid);
			tlp_row_i64(&r, TLP_TID, tid);
		}
		if (on != NULL)
			jstrv("operation", on);
		else
			jint("operation", op);
		jint("thread_id", tid);
		/* The record's other members as they are. */
		for (i = 1, k = 0; k < W.d.tok[0].size; k++) {
			const jsmntok_t *kt = &W.d.tok[i], *vt = &W.d.tok[i + 1];
			static const char *const col[] = { "size", "kind",
			    "operation", "thread_id", "correlation_id",
			    "start_timestamp", "end_timestamp", "stream_id",
			    NULL };
			int c, skip = 0;

			for (c = 0; col[c]; c++)
				if (keyis(i, col[c], strlen(col[c])))
					skip = 1;
			if (!skip) {
				if (W.j.n > 1)
					tl_out_char(&W.j, ',');
				nn = (size_t)(vt->end - kt->start + 1 +
				    (vt->type == JSMN_STRING));
				tl_out_raw(&W.j, W.d.js + kt->start - 1, nn);
			}
			i = after(i + 1);
		}
		if (src != NULL && src->type == 2)
			jint("src_device", src->index);
		if (dst != NULL && dst->type == 2)
			jint("dst_device", dst->index);
	}
	tl_out_char(&W.j, '}');
	tlp_row_u64(&r, TLP_UID, W.nrow++);
	W.nrec++;
	tlp_row_str(&r, TLP_PH, "X", 1);
	tlp_row_str(&r, TLP_CAT, cat, strlen(cat));
	tlp_row_str(&r, TLP_NAME, name->s, name->n);
	if (s != NULL && s->plain)
		r.raw[TLP_NAME] = 1;	/* written as it is */
	if (hasstart) {
		tlp_row_i64(&r, TLP_TS, start);
		if (hasend && end >= start)
			tlp_row_i64(&r, TLP_DUR, end - start);
		else if (hasend)
			warnat(off, "%s record ends before it starts (%" PRId64
			    " < %" PRId64 "): no duration", cat, end, start);
	}
	if (sid >= 0)
		tlp_row_i64(&r, TLP_STREAM, handle(sid, 0));
	if (corr >= 0) {
		if (hasin)
			tlp_row_i64(&r, TLP_CORR, in);
		if (tint(mem(corr, "external"), &v) && v != 0)
			tlp_row_i64(&r, TLP_EXTID, v);
	}
	/* Members copied as they are may hold bad UTF-8. */
	if (W.high) {
		nn = tlp_utf8(&W.ubuf, &W.ucap, W.j.buf, W.j.n, NULL);
		tlp_row_json(&r, TLP_ARGS, W.ubuf, nn);
	} else
		tlp_row_json(&r, TLP_ARGS, W.j.buf, W.j.n);
	tlp_row_put(W.x, &r);
	if (hasin && (kd || strcmp(cat, "memory_copy") == 0)) {
		tlp_flows(W.x, &r, W.nrow, in);
		W.nrow += 2;
	}
}

static int
recordel(uint64_t off, void *arg)
{
	int arr = (int)(intptr_t)arg;
	struct rec *d;

	if (!W.havesym || !W.havestr) {
		xgrow(&W.defer, &W.capdefer, W.ndefer + 1, sizeof *W.defer);
		d = &W.defer[W.ndefer++];
		d->text = xmemdup(W.d.js, W.d.len);
		d->len = W.d.len;
		d->off = off;
		d->arr = arr;
		d->high = W.high;
		return 0;
	}
	record(off, arr);
	return 0;
}

static int
bufmember(void *arg)
{
	(void)arg;
	W.arrname = xreallocarray(W.arrname, W.narr + 1, sizeof *W.arrname);
	W.arrname[W.narr++] = xstrdup(W.key);
	return elements(recordel, (void *)(intptr_t)(W.narr - 1));
}

static int
toolmember(void *arg)
{
	uint64_t off;
	int64_t v;

	(void)arg;
	/* A value that is not valid JSON is no row (warned by doc). */
	if (iskey("metadata")) {
		if (takeval(&off) < 0)
			return -1;
		if (doc(off, "metadata") < 0)
			return 0;
		keyrow("metadata");
		if (tint(mem(0, "pid"), &v)) {
			W.pid = v;
			W.haspid = 1;
		}
		return 0;
	}
	if (iskey("agents")) {
		if (takeval(&off) < 0)
			return -1;
		if (doc(off, "agents") < 0)
			return 0;
		keyrow("agents");
		agents(off);
		return 0;
	}
	if (iskey("strings")) {
		W.havestr = 1;
		if (cur() != '{')
			return skipval();
		return members(stringsmember, NULL);
	}
	if (iskey("kernel_symbols")) {
		W.havesym = 1;
		return elements(symbol, NULL);
	}
	if (iskey("buffer_records")) {
		if (cur() != '{') {
			warnat(W.base + W.pos, "buffer_records is not an "
			    "object (passed over)");
			return skipval();
		}
		return members(bufmember, NULL);
	}
	return skipval();
}

static int
rootmember(void *arg)
{
	int c, i;

	*(int *)arg = 1;
	if (!iskey("rocprofiler-sdk-tool"))
		return skipval();
	if (cur() != '[')
		return fail("\"rocprofiler-sdk-tool\" is not an array");
	W.pos++;
	for (i = 0;; i++) {
		if ((c = skipws()) == ']' && i == 0) {
			W.pos++;
			return 0;
		}
		if (i == 0 && c == '{') {
			if (members(toolmember, NULL) < 0)
				return -1;
		} else if (skipval() < 0)
			return -1;
		c = skipws();
		W.pos++;
		if (c == ']')
			return 0;
		if (c != ',') {
			W.pos--;
			return fail(c < 0 ? "truncated: the file ends inside "
			    "an array" : "',' or ']' expected");
		}
	}
}

int
tlp_rocprof(struct tl_src *src, const struct tlp_ctx *x)
{
	int status = 0, seen = 0;
	size_t i, k;

	memset(&W, 0, sizeof W);
	W.x = x;
	if (!litbyte['0']) {
		classes();
		keysinit(&rkeys, rkey);
		keysinit(&dkeys, dkey);
	}
	W.src = src;
	tl_out_init(&W.cap, -1, "(value)");
	tl_out_init(&W.j, -1, "(args)");
	tlp_trace_file(x);
	if (skipws() != '{' || members(rootmember, &seen) < 0)
		status = -1;
	else if (skipws() >= 0) {
		fail("data after the JSON object");
		status = -1;
	}
	(void)seen;
	/* Records read before the name tables. */
	for (i = 0; i < W.ndefer; i++) {
		W.cap.n = 0;
		tl_out_raw(&W.cap, W.defer[i].text, W.defer[i].len);
		W.high = W.defer[i].high;
		W.json = 0;
		W.d.js = W.cap.buf;
		W.d.len = W.cap.n;
		record(W.defer[i].off, W.defer[i].arr);
		free(W.defer[i].text);
	}
	tl_warns_end(&W.warns, x->name);
	if (W.nbad + W.nwarn > 0 || x->verbose)
		tl_warnx("%s: %" PRIu64 " records, %" PRIu64 " skipped, %" PRIu64
		    " warnings", x->name, W.nrec, W.nbad, W.nwarn);
	if (x->strict && W.nwarn + W.nbad > 0)
		status = -1;
	tl_json_free(&W.d);
	for (i = 0; i < W.nsym; i++) {
		free(W.sym[i].name.s);
		free(W.sym[i].demangled.s);
	}
	free(W.sym);
	ufree(&W.symix);
	ufree(&W.markix);
	for (i = 0; i < W.nmarker; i++)
		free(W.marker[i].s);
	free(W.marker);
	for (i = 0; i < W.nkind; i++) {
		free(W.kind[i].name.s);
		for (k = 0; k < W.kind[i].nop; k++)
			free(W.kind[i].op[k].s);
		free(W.kind[i].op);
	}
	free(W.kind);
	free(W.agent);
	free(W.defer);
	for (i = 0; i < W.narr; i++)
		free(W.arrname[i]);
	free(W.arrname);
	free(W.ubuf);
	free(W.ubuf2);
	tl_out_close(&W.cap);
	tl_out_close(&W.j);
	return status;
}
