/* tl: unit tests of string interning (common/intern.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/intern.h"
#include "unit.h"

#define NMANY	100000
/* splitmix64's finaliser of 0 ^ 1 and 5 ^ 1, as python3 computed it. */
#define HASH64_0	0x5692161d100b05e5ull
#define HASH64_5	0xb7a4712c74562914ull

int
main(int argc, char *argv[])
{
	struct tl_intern *t;
	const char *s;
	char buf[64], *big;
	size_t n;
	uint32_t id, i, bad;

	(void)argc;
	tl_setprogname(argv[0]);
	t = tl_intern_new();
	CHECK(tl_intern_count(t) == 0);
	CHECK(tl_intern_find(t, "a", 1) == UINT32_MAX);

	/* Ids in first-seen order; the same string, the same id. */
	CHECK(tl_intern(t, "aten::mm", 8) == 0);
	CHECK(tl_intern(t, "aten::add", 9) == 1);
	CHECK(tl_intern(t, "aten::mm", 8) == 0);
	CHECK(tl_intern(t, "", 0) == 2);
	CHECK(tl_intern(t, "", 0) == 2);
	CHECK(tl_intern(t, "aten::m", 7) == 3);	/* a prefix is another */
	CHECK(tl_intern(t, "aten::mm ", 9) == 4);
	CHECK(tl_intern_count(t) == 5);
	s = tl_intern_str(t, 1, &n);
	CHECK_STR(s, n, "aten::add");
	CHECK(s[n] == '\0');
	s = tl_intern_str(t, 2, &n);
	CHECK(n == 0 && s[0] == '\0');
	CHECK(tl_intern_str(t, 0, NULL)[8] == '\0');

	/* Binary strings: NUL inside, NUL only, high bytes. */
	CHECK(tl_intern(t, "a\0b", 3) == 5);
	CHECK(tl_intern(t, "a\0c", 3) == 6);
	CHECK(tl_intern(t, "a", 1) == 7);
	CHECK(tl_intern(t, "\0", 1) == 8);
	CHECK(tl_intern(t, "\0\0", 2) == 9);
	CHECK(tl_intern(t, "\xff\xfe", 2) == 10);
	CHECK(tl_intern(t, "a\0b", 3) == 5);
	CHECK(tl_intern(t, "\0", 1) == 8);
	s = tl_intern_str(t, 6, &n);
	CHECK_MEM(s, n, "a\0c", 3);
	CHECK(tl_intern_find(t, "a\0b", 3) == 5);
	CHECK(tl_intern_find(t, "a\0", 2) == UINT32_MAX);
	CHECK(tl_intern_find(t, "aten::mm", 8) == 0);
	CHECK(tl_intern_find(t, "aten::mmm", 9) == UINT32_MAX);
	CHECK(tl_intern_count(t) == 11);

	/* Many strings: they survive every rehash and arena block. */
	for (i = 0; i < NMANY; i++) {
		n = (size_t)snprintf(buf, sizeof buf, "k%u", i);
		if (i % 7 == 0)	/* and some with a NUL inside */
			buf[0] = '\0';
		tl_intern(t, buf, n);
	}
	CHECK(tl_intern_count(t) == 11 + NMANY);
	bad = 0;
	for (i = 0; i < NMANY; i++) {
		n = (size_t)snprintf(buf, sizeof buf, "k%u", i);
		if (i % 7 == 0)
			buf[0] = '\0';
		id = tl_intern_find(t, buf, n);
		s = tl_intern_str(t, 11 + i, &n);
		if (id != 11 + i || tl_intern(t, buf, n) != id ||
		    memcmp(s, buf, n) != 0 || s[n] != '\0')
			bad++;
	}
	CHECK(bad == 0);
	CHECK(tl_intern_count(t) == 11 + NMANY);
	CHECK(tl_intern_find(t, "aten::add", 9) == 1);
	s = tl_intern_str(t, 5, &n);
	CHECK_MEM(s, n, "a\0b", 3);

	/* A string larger than an arena block. */
	n = 3 * 1024 * 1024;
	big = malloc(n);
	memset(big, 'x', n);
	id = tl_intern(t, big, n);
	CHECK(id == 11 + NMANY);
	big[n - 1] = 'y';
	CHECK(tl_intern(t, big, n) == id + 1);
	CHECK(tl_intern(t, "after", 5) == id + 2);
	s = tl_intern_str(t, id + 1, &n);
	CHECK(n == 3 * 1024 * 1024 && s[n - 1] == 'y' && s[0] == 'x');
	CHECK(tl_intern_find(t, big, n) == id + 1);
	free(big);

	/* The hash: deterministic, and depends on every byte and the length. */
	CHECK(tl_hash("abc", 3) == tl_hash("abc", 3));
	CHECK(tl_hash("abc", 3) != tl_hash("abd", 3));
	CHECK(tl_hash("", 0) != tl_hash("\0", 1));
	CHECK(tl_hash("0123456789abcdef", 16) !=
	    tl_hash("0123456789abcdeF", 16));

	/* The last two ids of a field, and a stale one from another table. */
	{
		struct tl_intern_last l = TL_INTERN_LAST;
		struct tl_intern *u = tl_intern_new();

		CHECK(tl_intern_last(t, &l, "aten::add", 9) == 1);
		CHECK(tl_intern_last(t, &l, "after", 5) == id + 2);
		CHECK(tl_intern_last(t, &l, "aten::add", 9) == 1);
		CHECK(tl_intern_last(t, &l, "new one", 7) ==
		    tl_intern_find(t, "new one", 7));
		CHECK(tl_intern_last(u, &l, "x", 1) == 0);
		CHECK(tl_intern_last(u, &l, "aten::add", 9) == 1);
		CHECK(tl_intern_count(u) == 2);
		tl_intern_free(u);
	}

	/* The comparator: byte order, a prefix first, empty and none last. */
	{
		struct tl_intern *u = tl_intern_new();
		uint32_t a = tl_intern(u, "b", 1), b = tl_intern(u, "ab", 2);
		uint32_t e = tl_intern(u, "", 0), p = tl_intern(u, "a", 1);
		uint32_t h = tl_intern(u, "\xc3\xa9", 2);
		uint32_t z = tl_intern(u, "a\0", 2);

		CHECK(tl_intern_cmp(u, a, a) == 0);
		CHECK(tl_intern_cmp(u, b, a) < 0 && tl_intern_cmp(u, a, b) > 0);
		CHECK(tl_intern_cmp(u, p, b) < 0 && tl_intern_cmp(u, b, p) > 0);
		CHECK(tl_intern_cmp(u, a, h) < 0);	/* unsigned bytes */
		CHECK(tl_intern_cmp(u, p, z) < 0);	/* a NUL in a string */
		CHECK(tl_intern_cmp(u, e, h) > 0 && tl_intern_cmp(u, h, e) < 0);
		CHECK(tl_intern_cmp(u, e, UINT32_MAX) == 0);
		CHECK(tl_intern_cmp(u, UINT32_MAX, p) > 0);
		CHECK(tl_intern_cmp(u, p, UINT32_MAX) < 0);
		tl_intern_free(u);
	}

	/* The hashes: the seed of TL_HASH_SEED (intern.sh sets it to 1). */
	CHECK(tl_hash64(1) != tl_hash64(2));
	CHECK(tl_hash("ab", 2) != tl_hash("ba", 2));
	CHECK(tl_hash("", 0) != tl_hash("\0", 1));
	CHECK(tl_hash64(0) == HASH64_0);
	CHECK(tl_hash64(5) == HASH64_5);

	tl_intern_free(t);
	tl_intern_free(NULL);
	return unit_done();
}
