/* tl: string interning (open addressing over an arena). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "intern.h"
#include "limit.h"
#include "mem.h"

#define ARENA	(1024 * 1024)
/*
 * The longest probe a string may take. At the load kept (at most one
 * half) random hashes stay far below it (10^7 names probe at most a
 * few dozen slots); names made to collide, for a seed that is known
 * (TL_HASH_SEED) or guessed, pass it, and the table takes a key of its
 * own that nobody knows, from getrandom(2), and places every string
 * again: the crafted names then spread as any others do, and the cost
 * stays linear.
 */
#define PROBEMAX	128

struct str {
	const char *s;
	uint32_t n;
};

struct tl_intern {
	uint32_t *slot;		/* id + 1, 0 when empty */
	uint32_t *hash;		/* low 32 bits of each id's hash */
	size_t nslot;		/* a power of two */
	uint64_t key;		/* of the hash: the seed, until a rekey */
	uint64_t kept;		/* bytes of the strings, for --limit kept */
	unsigned nrekey;
	struct str *str;
	size_t nstr, capstr;
	char *arena;		/* current block */
	size_t used, size;
	char **blocks;
	size_t nblocks, capblocks;
};

static uint64_t seed;

/* The seed, before main: from TL_HASH_SEED, or the time, the pid and
 * where the stack and the code are (each run's own under ASLR). */
__attribute__((constructor)) static void
setseed(void)
{
	const char *e = getenv("TL_HASH_SEED");
	uint64_t x;

	if (e != NULL && *e != '\0') {
		seed = strtoull(e, NULL, 0);
		return;
	}
	x = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32 ^
	    (uint64_t)(uintptr_t)&x ^ (uint64_t)(uintptr_t)setseed << 16;
	seed = tl_hash64(x);
}

uint64_t
tl_hash64(uint64_t x)
{
	/* splitmix64's finaliser: a bijection, so equal hashes mean equal
	 * 64-bit keys. */
	x ^= seed;
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/*
 * The n < 8 bytes of s as memcpy puts them in a zeroed uint64_t, without
 * a call of memcpy: from two loads that overlap (the bytes both hold
 * are the same), or from three bytes.
 */
static inline uint64_t
tail(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t lo, hi;
	uint64_t w = 0;

	if (n >= 4) {
		memcpy(&lo, s, 4);
		memcpy(&hi, s + n - 4, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		return (uint64_t)lo | (uint64_t)hi << (8 * (n - 4));
#endif
	} else if (n > 0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		return (uint64_t)u[0] | (uint64_t)u[n / 2] << (8 * (n / 2)) |
		    (uint64_t)u[n - 1] << (8 * (n - 1));
#endif
	} else
		return 0;
	memcpy(&w, s, n);
	return w;
}

/* a[0..n) and b[0..n) the same: a short string without a call of
 * memcmp, eight bytes at a time (the last eight overlapping). */
static inline int
same(const char *a, const char *b, size_t n)
{
	uint64_t x, y;

	if (n < 8)
		return tail(a, n) == tail(b, n);
	if (n > 64)
		return memcmp(a, b, n) == 0;
	for (; n > 8; a += 8, b += 8, n -= 8) {
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return 0;
	}
	memcpy(&x, a + n - 8, 8);
	memcpy(&y, b + n - 8, 8);
	return x == y;
}

static uint64_t
hashk(uint64_t key, const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ key ^ n, w;

	while (n >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
		s += 8;
		n -= 8;
	}
	w = tail(s, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

uint64_t
tl_hash(const char *s, size_t n)
{
	return hashk(seed, s, n);
}

struct tl_intern *
tl_intern_new(void)
{
	struct tl_intern *t = xcalloc(1, sizeof *t);

	t->nslot = 1024;
	t->key = seed;
	t->slot = xcalloc(t->nslot, sizeof *t->slot);
	return t;
}

void
tl_intern_free(struct tl_intern *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nblocks; i++)
		free(t->blocks[i]);
	free(t->blocks);
	free(t->slot);
	free(t->hash);
	free(t->str);
	free(t);
}

static const char *
store(struct tl_intern *t, const char *s, size_t n)
{
	char *p;

	if (t->size - t->used < n + 1) {
		t->size = n + 1 > ARENA ? n + 1 : ARENA;
		t->arena = xmalloc(t->size);
		t->used = 0;
		xgrow(&t->blocks, &t->capblocks, t->nblocks + 1,
		    sizeof *t->blocks);
		t->blocks[t->nblocks++] = t->arena;
	}
	p = t->arena + t->used;
	memcpy(p, s, n);
	p[n] = '\0';
	t->used += n + 1;
	return p;
}

/* The slot of s[0..n) or the empty one where it goes; *probes, the
 * slots passed over. */
static size_t
lookup(const struct tl_intern *t, const char *s, size_t n, uint64_t h,
    size_t *probes)
{
	size_t mask = t->nslot - 1, i = (uint32_t)h & mask, k;
	uint32_t id;

	for (k = 0;; i = (i + 1) & mask, k++) {
		if (t->slot[i] == 0)
			break;
		id = t->slot[i] - 1;
		if (t->hash[id] == (uint32_t)h && t->str[id].n == n &&
		    same(t->str[id].s, s, n))
			break;
	}
	*probes = k;
	return i;
}

/* Place every string in nslot slots; the longest probe. */
static size_t
place(struct tl_intern *t, size_t nslot)
{
	size_t j, k, mask, most = 0;
	uint32_t id;

	free(t->slot);
	t->nslot = nslot;
	t->slot = xcalloc(t->nslot, sizeof *t->slot);
	mask = t->nslot - 1;
	for (id = 0; id < t->nstr; id++) {
		for (j = t->hash[id] & mask, k = 0; t->slot[j] != 0;
		    j = (j + 1) & mask)
			k++;
		t->slot[j] = id + 1;
		if (k > most)
			most = k;
	}
	return most;
}

/*
 * A new key nobody knows, every hash again, every string placed again;
 * until the probes are short (the first new key does it but for odds
 * of about none), the table twice as large after every second try.
 */
static void
rekey(struct tl_intern *t)
{
	uint64_t r;
	size_t nslot = t->nslot;
	uint32_t id;
	unsigned try;

	for (try = 0; try < 8; try++) {
		if (getrandom(&r, sizeof r, GRND_NONBLOCK) != sizeof r)
			r = (uint64_t)time(NULL) ^ (uint64_t)clock() << 20;
		t->key = tl_hash64(r ^ t->key ^ ++t->nrekey);
		for (id = 0; id < t->nstr; id++)
			t->hash[id] = (uint32_t)hashk(t->key, t->str[id].s,
			    t->str[id].n);
		if (try % 2 == 1 && nslot < (size_t)1 << 32)
			nslot *= 2;
		if (place(t, nslot) <= PROBEMAX)
			return;
	}
}

/* --limit string and kept (tl(7)), before a new string is kept. */
static void
limits(struct tl_intern *t, size_t n)
{
	uint64_t ls = tl_limit[TL_LIM_STRING], lk = tl_limit[TL_LIM_KEPT];
	char b[TL_LIMIT_STRMAX];

	if (ls != 0 && n > ls)
		tl_errx(tl_failstatus, "a string of %zu bytes to keep: longer "
		    "than %" PRIu64 " (--limit %s)", n, ls,
		    tl_limit_str(b, TL_LIM_STRING));
	t->kept += n + 1;
	if (lk != 0 && t->kept > lk)
		tl_errx(tl_failstatus, "more than %" PRIu64 " bytes of "
		    "distinct strings to keep (--limit %s)", lk,
		    tl_limit_str(b, TL_LIM_KEPT));
}

uint32_t
tl_intern(struct tl_intern *t, const char *s, size_t n)
{
	uint64_t h = hashk(t->key, s, n);
	size_t probes, i = lookup(t, s, n, h, &probes), cap;
	uint32_t id;

	if (t->slot[i] != 0)
		return t->slot[i] - 1;
	if (t->nstr >= UINT32_MAX - 1 || n > UINT32_MAX)
		tl_errx(tl_failstatus, "too many distinct strings");
	limits(t, n);
	id = (uint32_t)t->nstr;
	cap = t->capstr;
	xgrow(&t->str, &t->capstr, t->nstr + 1, sizeof *t->str);
	if (t->capstr != cap)
		t->hash = xreallocarray(t->hash, t->capstr, sizeof *t->hash);
	t->str[id].s = store(t, s, n);
	t->str[id].n = (uint32_t)n;
	t->hash[id] = (uint32_t)h;
	t->nstr++;
	t->slot[i] = id + 1;
	if (probes > PROBEMAX ||
	    (t->nstr * 2 > t->nslot && place(t, 2 * t->nslot) > PROBEMAX))
		rekey(t);
	return id;
}

uint32_t
tl_intern_find(const struct tl_intern *t, const char *s, size_t n)
{
	size_t probes, i = lookup(t, s, n, hashk(t->key, s, n), &probes);

	return t->slot[i] != 0 ? t->slot[i] - 1 : UINT32_MAX;
}

uint32_t
tl_intern_last(struct tl_intern *t, struct tl_intern_last *l,
    const char *s, size_t n)
{
	uint32_t id = l->id[0];

	if (id < t->nstr && t->str[id].n == n && same(t->str[id].s, s, n))
		return id;
	id = l->id[1];
	if (!(id < t->nstr && t->str[id].n == n && same(t->str[id].s, s, n)))
		id = tl_intern(t, s, n);
	l->id[1] = l->id[0];
	l->id[0] = id;
	return id;
}

const char *
tl_intern_str(const struct tl_intern *t, uint32_t id, size_t *n)
{
	if (n != NULL)
		*n = t->str[id].n;
	return t->str[id].s;
}

unsigned
tl_intern_rekeys(const struct tl_intern *t)
{
	return t->nrekey;
}

uint32_t
tl_intern_count(const struct tl_intern *t)
{
	return (uint32_t)t->nstr;
}

int
tl_intern_cmp(const struct tl_intern *t, uint32_t a, uint32_t b)
{
	size_t na = a == UINT32_MAX ? 0 : t->str[a].n;
	size_t nb = b == UINT32_MAX ? 0 : t->str[b].n;
	int c;

	if (na == 0 || nb == 0)
		return (na == 0) - (nb == 0);
	c = memcmp(t->str[a].s, t->str[b].s, na < nb ? na : nb);
	return c != 0 ? c : (na > nb) - (na < nb);
}
