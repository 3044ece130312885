/*
 * tl: unit tests of common/sort.c: tl_key_sort gives what the stable
 * radix sort gives, on keys in order, in a few ordered runs, in many,
 * and at random, ties included; tl_key_find gives the first index of
 * a key, or n, as a linear search does.
 */
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/sort.h"
#include "unit.h"

static uint64_t x = 0x9e3779b97f4a7c15u;

static uint64_t
rnd(void)
{
	x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
	return x * 0x2545f4914f6cdd1du;
}

/* n keys in nrun ordered runs (0: at random), few distinct with ties. */
static size_t
same(size_t n, size_t nrun, int ties)
{
	struct tl_sortkey *a = malloc((n + 1) * sizeof *a);
	struct tl_sortkey *b = malloc((n + 1) * sizeof *b);
	size_t i, len = nrun > 0 ? n / nrun + 1 : 1, bad;
	uint64_t k = 0;

	for (i = 0; i < n; i++) {
		if (nrun == 0 || i % len == 0)
			k = rnd() >> (ties ? 60 : 1);
		else
			k += rnd() % (ties ? 2 : 1000);
		a[i].k = k;
		a[i].i = (uint32_t)i;
	}
	memcpy(b, a, n * sizeof *a);
	tl_key_sort(a, n);
	tl_radix_sort(b, n);
	bad = n > 0 && memcmp(a, b, n * sizeof *a) != 0;
	free(a);
	free(b);
	return bad;
}

/* Keys 0, 2, 4, ... each nrep times; every key k < 2 n looked for. */
static size_t
find(size_t n, size_t nrep)
{
	struct tl_sortkey *a = malloc((n * nrep + 1) * sizeof *a);
	size_t i, j, bad = 0;
	uint64_t k;

	for (i = 0; i < n * nrep; i++) {
		a[i].k = 2 * (i / nrep);
		a[i].i = (uint32_t)i;
	}
	for (k = 0; k < 2 * n + 1; k++) {
		for (j = 0; j < n * nrep && a[j].k != k; j++)
			;
		bad += tl_key_find(a, n * nrep, k) != j;
	}
	free(a);
	return bad;
}

int
main(int argc, char *argv[])
{
	static const size_t runs[] = { 0, 1, 2, 3, 15, 16, 17, 100 };
	size_t n, r, bad = 0;
	int ties;

	(void)argc;
	tl_setprogname(argv[0]);
	for (n = 0; n < 3000; n = n * 3 + 1)
		for (r = 0; r < sizeof runs / sizeof runs[0]; r++)
			for (ties = 0; ties < 2; ties++)
				bad += same(n, runs[r], ties);
	CHECK_I64(bad, 0);
	bad = 0;
	for (n = 0; n < 100; n++)
		for (r = 1; r < 4; r++)
			bad += find(n, r);
	CHECK_I64(bad, 0);
	return unit_done();
}
