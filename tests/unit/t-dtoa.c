/*
 * tl: unit tests of the shortest digits of a double (common/dtoa.c),
 * against a reference made from libc: the shortest precision p, 0 to 16,
 * whose "%.*e" text strtod reads back as v; its digits, trailing zeros
 * cut, and its exponent. That is the correctly rounded shortest, which is
 * Ryu's closest shortest for every double but a power of two: there the
 * interval that reads back as v is half as wide below v as above, and Ryu
 * may find shorter digits, or differently rounded ones, than rounding v
 * does. So a power of two must only read back and be no longer than the
 * reference; any other double must give the reference's digits.
 *
 * The random values come from fixed seeds, on two threads. Under valgrind
 * (TL_VALGRIND set) they are cut to 20,000 per category; the output is
 * the same. Mismatches are counted per category, and the first few are
 * shown on stderr.
 */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/dtoa.h"
#include "unit.h"

struct dec {
	char dig[24];
	int n, e;
};

#define NTHREADS	2

/* count values from gen, which starts at seed, checked on a thread. */
struct job {
	double (*gen)(uint64_t *);
	uint64_t seed;
	unsigned count;
	unsigned nbad;
};

static _Atomic unsigned nshown;

/* xorshift64*: the same values on every run, for a fixed seed. */
static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

/* "%.*e" of v at precision p into d; whether strtod reads it back as v. */
static int
fmt(double v, int p, struct dec *d)
{
	char buf[48], *s;

	snprintf(buf, sizeof buf, "%.*e", p, v);
	d->n = 0;
	for (s = buf + (*buf == '-'); *s != 'e'; s++)
		if (*s != '.')
			d->dig[d->n++] = *s;
	d->e = atoi(s + 1);
	while (d->n > 1 && d->dig[d->n - 1] == '0')
		d->n--;
	/* 17 digits always read back: no strtod for nearly half the values. */
	return p == 16 || strtod(buf, NULL) == v;
}

/*
 * The reference, searched from precision p (0: the plain search, from 1
 * digit up). The text at p + 1 is at least as close to v as the one at p
 * (which it can write with a 0 more); so when the interval that reads back
 * as v is symmetric (v not a power of two), the precisions that read back
 * are all those from the shortest on, and the search can start anywhere.
 * From tl_dtoa's answer it takes 2 tries, not up to 17.
 */
static void
ref(double v, int p, struct dec *d)
{
	struct dec t;

	if (fmt(v, p, d)) {
		while (p > 0 && fmt(v, p - 1, &t)) {
			*d = t;
			p--;
		}
	} else {
		while (p < 16 && !fmt(v, ++p, d))
			;
	}
}

static void
show(double v, const char *dig, int n, int e, const struct dec *r)
{
	if (nshown++ >= 10)
		return;
	fprintf(stderr, "%a (%.17g): tl_dtoa %.*s e%d, reference %.*s e%d\n",
	    v, v, n, dig, e, r->n, r->dig, r->e);
}

/* 0 when tl_dtoa gives v as it should, else 1. */
static unsigned
bad(double v)
{
	struct dec r;
	char dig[24], buf[48];
	uint64_t bits;
	int n, e, ok;

	n = tl_dtoa(v, dig, &e);
	memcpy(&bits, &v, sizeof bits);
	if ((bits & ((UINT64_C(1) << 52) - 1)) != 0) {
		ref(v, n - 1, &r);
		ok = n == r.n && e == r.e && memcmp(dig, r.dig, n) == 0;
	} else {
		ref(v, 0, &r);
		snprintf(buf, sizeof buf, "%c%s%.*se%d", dig[0],
		    n > 1 ? "." : "", n - 1, dig + 1, e);
		ok = n >= 1 && n <= r.n && dig[n - 1] != '0' &&
		    strtod(buf, NULL) == fabs(v);
	}
	if (!ok)
		show(v, dig, n, e, &r);
	return !ok;
}

/* Random bit patterns: both signs, every exponent, subnormals. */
static double
random_double(uint64_t *s)
{
	uint64_t b;
	double v;

	do {
		b = rnd(s);
		memcpy(&v, &b, sizeof v);
	} while (!isfinite(v) || v == 0);
	return v;
}

/*
 * Ratios of integers scaled by powers of ten: the values a performance
 * tool prints (TFLOP/s, bytes per FLOP, microseconds).
 */
static double
random_ratio(uint64_t *s)
{
	static const double p10[13] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
		1e11, 1e12,
	};
	double a, b;
	int k;

	a = (double)(rnd(s) % 1000000000 + 1);
	b = (double)(rnd(s) % 1000000000 + 1);
	k = (int)(rnd(s) % 22) - 9;
	return k < 0 ? a / b / p10[-k] : a / b * p10[k];
}

static void *
run(void *arg)
{
	struct job *j = arg;
	unsigned i;

	for (i = 0; i < j->count; i++)
		j->nbad += bad(j->gen(&j->seed));
	return NULL;
}

/*
 * count values from gen, seeded with seed, on NTHREADS threads: libc's
 * reference is slow, and tl_dtoa is to be called from several at once.
 */
static void
many(const char *what, double (*gen)(uint64_t *), unsigned count,
    uint64_t seed)
{
	struct job job[NTHREADS];
	pthread_t t[NTHREADS];
	unsigned nbad = 0;
	int k;

	for (k = 0; k < NTHREADS; k++) {
		job[k].gen = gen;
		job[k].seed = seed ^ UINT64_C(0x9e3779b97f4a7c15) * (unsigned)k;
		job[k].count = count / NTHREADS;
		job[k].nbad = 0;
		if (pthread_create(&t[k], NULL, run, &job[k]) != 0) {
			fprintf(stderr, "t-dtoa: cannot create a thread\n");
			exit(2);
		}
	}
	for (k = 0; k < NTHREADS; k++) {
		pthread_join(t[k], NULL);
		nbad += job[k].nbad;
	}
	if (!unit_check(nbad == 0, what, __FILE__, __LINE__))
		printf("#   %u bad\n", nbad);
}

static void
test_pow2(void)
{
	unsigned nbad = 0;
	int k;

	for (k = -1074; k <= 1023; k++)
		nbad += bad(ldexp(1, k));
	unit_check(nbad == 0, "powers of two 2^-1074 to 2^1023", __FILE__,
	    __LINE__);
}

static void
test_edges(void)
{
	const double two53 = 9007199254740992.0;
	const double v[] = {
		5e-324, DBL_MIN, nextafter(DBL_MIN, 0), nextafter(DBL_MIN, 1),
		DBL_MAX, 1.0, nextafter(1.0, 0), nextafter(1.0, 2), 0.1, 0.3,
		1.0 / 3, 2.0 / 3, 1e15, 1e16, 1e17, 1e22, 1e23, two53,
		nextafter(two53, 0), nextafter(two53, 1e300),
		nextafter(nextafter(two53, 1e300), 1e300),
		nextafter(nextafter(two53, 0), 0), 9007199254740993.0,
		123456789012345680.0, -0.1, -DBL_MAX, -5e-324,
	};
	unsigned nbad = 0, i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		nbad += bad(v[i]);
	unit_check(nbad == 0, "edge values", __FILE__, __LINE__);
	nbad = 0;
	for (i = 1; i <= 100000; i++)
		nbad += bad(i);
	unit_check(nbad == 0, "integers 1 to 100000", __FILE__, __LINE__);
}

/* tl_dtoa(v) gives the digits want and the exponent e. */
static void
ex(const char *what, double v, const char *want, int e)
{
	char dig[24];
	int n, got;

	n = tl_dtoa(v, dig, &got);
	if (!unit_check(n == (int)strlen(want) && memcmp(dig, want, n) == 0 &&
	    got == e, what, __FILE__, __LINE__))
		printf("#   got %.*s e%d, want %s e%d\n", n, dig, got, want, e);
}

static void
test_examples(void)
{
	ex("0.1", 0.1, "1", -1);
	ex("-1234.5", -1234.5, "12345", 3);
	ex("1e23", 1e23, "1", 23);
	ex("DBL_MAX", DBL_MAX, "17976931348623157", 308);
	ex("5e-324", 5e-324, "5", -324);
	/*
	 * A power of two, 5.9604644775390625e-08 exactly, where rounding to
	 * 16 digits does not read back but Ryu's 16 do (as Python's repr).
	 */
	ex("2^-24", ldexp(1, -24), "5960464477539063", -8);
}

int
main(void)
{
	unsigned count = getenv("TL_VALGRIND") != NULL ? 20000 : 1000000;

	test_examples();
	many("random finite doubles", random_double, count,
	    UINT64_C(0x2545f4914f6cdd1d));
	many("ratios times 1e-9 to 1e12", random_ratio, count,
	    UINT64_C(0x6a09e667f3bcc909));
	test_pow2();
	test_edges();
	return unit_done();
}
