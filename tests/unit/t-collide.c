/*
 * tl: names that collide in tl_hash (common/intern.c), made as an
 * attacker with the source in hand would make them: for a 24-byte name
 * the hash is fixed by the state after its third word, and each step of
 * the word loop can be inverted, so for any first two words there is
 * one third word that reaches a chosen state. Such names collide only
 * under the seed they were made for; the seed of a run is its own.
 *
 *	t-collide make N	N names, one a line, of one hash under the
 *				seed (TL_HASH_SEED), in ASCII a JSON
 *				string holds without escapes
 *	t-collide count		how many distinct hashes the names on the
 *				standard input have under the seed
 *	t-collide intern	intern the names on the standard input: how
 *				many, and whether the table took a key of
 *				its own
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/intern.h"

#define K	0xff51afd7ed558ccdull

/* The inverse of an odd multiplier mod 2^64, by Newton's method. */
static uint64_t
inverse(uint64_t a)
{
	uint64_t x = a;
	int i;

	for (i = 0; i < 6; i++)
		x *= 2 - a * x;
	return x;
}

/* The loop's step, and its inverse in x: h = f(h ^ w). */
static uint64_t
step(uint64_t x)
{
	x *= K;
	return x ^ (x >> 32);
}

static uint64_t
unstep(uint64_t h, uint64_t kinv)
{
	return (h ^ (h >> 32)) * kinv;
}

static int
ok(uint64_t w)
{
	int i;
	unsigned c;

	for (i = 0; i < 8; i++) {
		c = (unsigned)(w >> (8 * i)) & 0xff;
		if (c < 0x20 || c > 0x7e || c == '"' || c == '\\')
			return 0;
	}
	return 1;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t
printable(void)
{
	uint64_t w = 0;
	int i;

	for (i = 0; i < 8; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		w |= (uint64_t)('a' + rng % 26) << (8 * i);
	}
	return w;
}

int
main(int argc, char *argv[])
{
	uint64_t kinv = inverse(K), h0, target, w[3], seed;
	char line[256], name[25];
	unsigned long n, made = 0;
	const char *e = getenv("TL_HASH_SEED");

	tl_setprogname(argv[0]);
	if (argc == 3 && strcmp(argv[1], "make") == 0 && e != NULL) {
		n = strtoul(argv[2], NULL, 10);
		seed = strtoull(e, NULL, 0);
		/* The hash's start for 24 bytes; a state to reach. */
		h0 = 0x9e3779b97f4a7c15ull ^ seed ^ 24;
		target = 0x0123456789abcdefull;
		while (made < n) {
			w[0] = printable();
			w[1] = printable();
			w[2] = unstep(target, kinv) ^ step(step(h0 ^ w[0]) ^
			    w[1]);
			if (!ok(w[2]))
				continue;
			memcpy(name, w, 24);
			name[24] = '\0';
			puts(name);
			made++;
		}
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "count") == 0) {
		uint64_t *h = NULL;
		size_t nh = 0, cap = 0, i, d;

		while (fgets(line, sizeof line, stdin) != NULL) {
			size_t l = strcspn(line, "\n");

			if (nh == cap) {
				cap = cap ? 2 * cap : 1024;
				h = realloc(h, cap * sizeof *h);
				if (h == NULL)
					return 2;
			}
			h[nh++] = tl_hash(line, l);
		}
		for (i = 0, d = 0; i < nh; i++) {
			size_t j;

			for (j = 0; j < i && h[j] != h[i]; j++)
				;
			d += j == i;
		}
		printf("%zu names, %zu hashes\n", nh, d);
		free(h);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "intern") == 0) {
		struct tl_intern *t = tl_intern_new();

		while (fgets(line, sizeof line, stdin) != NULL)
			tl_intern(t, line, strcspn(line, "\n"));
		printf("%u names interned, %s\n", tl_intern_count(t),
		    tl_intern_rekeys(t) > 0 ? "a key of its own" :
		    "the seed's key");
		tl_intern_free(t);
		return 0;
	}
	fprintf(stderr, "usage: t-collide make N | count | intern\n");
	return 2;
}
