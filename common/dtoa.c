/*
 * tl: the shortest decimal digits of a double. The Ryu algorithm (Ulf
 * Adams, "Ryu: fast float-to-string conversion", PLDI 2018), after its
 * reference implementation (Apache-2.0 or BSL-1.0): d2s with the small
 * tables, only the digit generation (d2d) and the writing of the digits
 * two at a time, ported to C from the Rust translation (ryu 1.0.2), with
 * the 128-bit products in unsigned __int128.
 *
 * Copyright 2018 Ulf Adams
 *
 * The contents of this file may be used under the terms of the Apache
 * License, Version 2.0 (http://www.apache.org/licenses/LICENSE-2.0), or,
 * alternatively, under the terms of the Boost Software License, Version
 * 1.0 (https://www.boost.org/LICENSE_1_0.txt). Unless required by
 * applicable law or agreed to in writing, this software is distributed on
 * an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either
 * express or implied.
 *
 * How: the values that read back as v form an interval around it, of
 * half an ulp each way (a quarter below a power of two), its bounds
 * included when v's mantissa is even (round half to even). Its bounds and
 * v, times 4 to keep them integers, are scaled by a power of ten whose
 * 128-bit fixed-point value is exact enough that the products keep every
 * digit that matters. Then digits are dropped as long as the bounds still
 * differ in what is left: what remains is as short as can be, and the last
 * digit dropped from v rounds it.
 */
#include <stdint.h>
#include <string.h>

#include "dtoa.h"

__extension__ typedef unsigned __int128 u128;

#define MANT_BITS	52
#define BIAS		1023
#define POW5_INV_BITS	122	/* bits of the 1/5^i values */
#define POW5_BITS	121	/* bits of the 5^i values */

/*
 * The reference's small tables: 5^i and 1/5^i for every 26th i as
 * 128-bit fixed point (low, high), and 5^0 to 5^25 to reach the others.
 * The products are sometimes 1 (2 or 3 for the inverses) below the
 * correctly rounded value; the offsets tables, a bit (2 bits) per i,
 * hold those corrections.
 */
static const uint64_t pow5_table[26] = {
	UINT64_C(1), UINT64_C(5), UINT64_C(25), UINT64_C(125),
	UINT64_C(625), UINT64_C(3125), UINT64_C(15625), UINT64_C(78125),
	UINT64_C(390625), UINT64_C(1953125), UINT64_C(9765625),
	UINT64_C(48828125), UINT64_C(244140625), UINT64_C(1220703125),
	UINT64_C(6103515625), UINT64_C(30517578125),
	UINT64_C(152587890625), UINT64_C(762939453125),
	UINT64_C(3814697265625), UINT64_C(19073486328125),
	UINT64_C(95367431640625), UINT64_C(476837158203125),
	UINT64_C(2384185791015625), UINT64_C(11920928955078125),
	UINT64_C(59604644775390625), UINT64_C(298023223876953125),
};

static const uint64_t pow5_split2[13][2] = {
	{ UINT64_C(0), UINT64_C(72057594037927936) },
	{ UINT64_C(10376293541461622784), UINT64_C(93132257461547851) },
	{ UINT64_C(15052517733678820785), UINT64_C(120370621524202240) },
	{ UINT64_C(6258995034005762182), UINT64_C(77787690973264271) },
	{ UINT64_C(14893927168346708332), UINT64_C(100538234169297439) },
	{ UINT64_C(4272820386026678563), UINT64_C(129942622070561240) },
	{ UINT64_C(7330497575943398595), UINT64_C(83973451344588609) },
	{ UINT64_C(18377130505971182927), UINT64_C(108533142064701048) },
	{ UINT64_C(10038208235822497557), UINT64_C(140275798336537794) },
	{ UINT64_C(7017903361312433648), UINT64_C(90651109995611182) },
	{ UINT64_C(6366496589810271835), UINT64_C(117163813585596168) },
	{ UINT64_C(9264989777501460624), UINT64_C(75715339914673581) },
	{ UINT64_C(17074144231291089770), UINT64_C(97859783203563123) },
};

static const uint32_t pow5_offsets[13] = {
	0x00000000, 0x00000000, 0x00000000, 0x033c55be, 0x03db77d8,
	0x0265ffb2, 0x00000800, 0x01a8ff56, 0x00000000, 0x0037a200,
	0x00004000, 0x03fffffc, 0x00003ffe,
};

static const uint64_t pow5_inv_split2[13][2] = {
	{ UINT64_C(1), UINT64_C(288230376151711744) },
	{ UINT64_C(7661987648932456967), UINT64_C(223007451985306231) },
	{ UINT64_C(12652048002903177473), UINT64_C(172543658669764094) },
	{ UINT64_C(5522544058086115566), UINT64_C(266998379490113760) },
	{ UINT64_C(3181575136763469022), UINT64_C(206579990246952687) },
	{ UINT64_C(4551508647133041040), UINT64_C(159833525776178802) },
	{ UINT64_C(1116074521063664381), UINT64_C(247330401473104534) },
	{ UINT64_C(17400360011128145022), UINT64_C(191362629322552438) },
	{ UINT64_C(9297997190148906106), UINT64_C(148059663038321393) },
	{ UINT64_C(11720143854957885429), UINT64_C(229111231347799689) },
	{ UINT64_C(15401709288678291155), UINT64_C(177266229209635622) },
	{ UINT64_C(3003071137298187333), UINT64_C(274306203439684434) },
	{ UINT64_C(17516772882021341108), UINT64_C(212234145163966538) },
};

static const uint32_t pow5_inv_offsets[20] = {
	0x51505404, 0x55054514, 0x45555545, 0x05511411, 0x00505010,
	0x00000004, 0x00000000, 0x00000000, 0x55555040, 0x00505051,
	0x00050040, 0x55554000, 0x51659559, 0x00001000, 0x15000010,
	0x55455555, 0x41404051, 0x00001010, 0x00000014, 0x00000000,
};

/* The interval, scaled: v, its upper and lower bounds, times 10^-e10. */
struct ival {
	uint64_t vr, vp, vm;
	int32_t e10;
	int vr_tz;	/* vr is exact: all that was cut off is 0s */
	int vm_tz;	/* the same for vm */
};

/* e == 0 ? 1 : ceil(log2(5^e)), for 0 <= e <= 3528. */
static inline int32_t
pow5bits(int32_t e)
{
	return (int32_t)(((uint32_t)e * 1217359) >> 19) + 1;
}

/* floor(log10(2^e)), for 0 <= e <= 1650. */
static inline uint32_t
log10_pow2(int32_t e)
{
	return ((uint32_t)e * 78913) >> 18;
}

/* floor(log10(5^e)), for 0 <= e <= 2620. */
static inline uint32_t
log10_pow5(int32_t e)
{
	return ((uint32_t)e * 732923) >> 20;
}

/* Whether 5^p divides v (v != 0). */
static inline int
multiple_of_pow5(uint64_t v, uint32_t p)
{
	uint32_t n = 0;

	for (; v % 5 == 0; v /= 5)
		n++;
	return n >= p;
}

/* Whether 2^p divides v (p < 64). */
static inline int
multiple_of_pow2(uint64_t v, uint32_t p)
{
	return (v & ((UINT64_C(1) << p) - 1)) == 0;
}

/* 5^i, for i <= 337, from the entry for the multiple of 26 below it. */
static inline void
pow5(uint32_t i, uint64_t r[2])
{
	uint32_t base = i / 26, base2 = base * 26, off = i - base2;
	const uint64_t *mul = pow5_split2[base];
	uint64_t m = pow5_table[off];
	int32_t delta;
	u128 b0, b2, sum;

	if (off == 0) {
		r[0] = mul[0];
		r[1] = mul[1];
		return;
	}
	b0 = (u128)m * mul[0];
	b2 = (u128)m * mul[1];
	delta = pow5bits((int32_t)i) - pow5bits((int32_t)base2);
	sum = (b0 >> delta) + (b2 << (64 - delta)) +
	    ((pow5_offsets[base] >> off) & 1);
	r[0] = (uint64_t)sum;
	r[1] = (uint64_t)(sum >> 64);
}

/* 1/5^i, for i <= 312, from the entry for the multiple of 26 above it. */
static inline void
pow5_inv(uint32_t i, uint64_t r[2])
{
	uint32_t base = (i + 25) / 26, base2 = base * 26, off = base2 - i;
	const uint64_t *mul = pow5_inv_split2[base];
	uint64_t m = pow5_table[off];
	int32_t delta;
	u128 b0, b2, sum;

	if (off == 0) {
		r[0] = mul[0];
		r[1] = mul[1];
		return;
	}
	/* The entry was rounded up: take the 1 back, add it after. */
	b0 = (u128)m * (mul[0] - 1);
	b2 = (u128)m * mul[1];
	delta = pow5bits((int32_t)base2) - pow5bits((int32_t)i);
	sum = (b0 >> delta) + (b2 << (64 - delta)) + 1 +
	    ((pow5_inv_offsets[i / 16] >> ((i % 16) << 1)) & 3);
	r[0] = (uint64_t)sum;
	r[1] = (uint64_t)(sum >> 64);
}

/* The top bits of m times the 128-bit mul, from bit j on (j >= 64). */
static inline uint64_t
mulshift(uint64_t m, const uint64_t mul[2], int32_t j)
{
	u128 b0 = (u128)m * mul[0], b2 = (u128)m * mul[1];

	return (uint64_t)(((b0 >> 64) + b2) >> (j - 64));
}

/* 4 x m2 and its bounds, mp and mm, times mul and 2^-j. */
static inline void
mulshift_all(struct ival *s, uint64_t m2, const uint64_t mul[2],
    int32_t j, uint32_t mmshift)
{
	s->vp = mulshift(4 * m2 + 2, mul, j);
	s->vm = mulshift(4 * m2 - 1 - mmshift, mul, j);
	s->vr = mulshift(4 * m2, mul, j);
}

/*
 * v = m2 x 2^e2 with e2 >= 0: divide by 5^q (and 2^q, a shift). For small
 * q the scaled values can be exact, with nothing cut off; then they must
 * be known as such, for the rounding of ties and the inclusive bounds.
 */
static inline void
scale_up(struct ival *s, uint64_t m2, int32_t e2, uint32_t mmshift,
    int accept)
{
	uint32_t q = log10_pow2(e2) - (e2 > 3);
	int32_t k = POW5_INV_BITS + pow5bits((int32_t)q) - 1;
	int32_t i = -e2 + (int32_t)q + k;
	uint64_t mul[2], mv = 4 * m2;

	s->e10 = (int32_t)q;
	pow5_inv(q, mul);
	mulshift_all(s, m2, mul, i, mmshift);
	if (q > 21)
		return;
	/* At most one of mv, mp, mm is a multiple of 5. */
	if (mv % 5 == 0)
		s->vr_tz = multiple_of_pow5(mv, q);
	else if (accept)
		s->vm_tz = multiple_of_pow5(mv - 1 - mmshift, q);
	else
		s->vp -= (uint64_t)multiple_of_pow5(mv + 2, q);
}

/* v = m2 x 2^e2 with e2 < 0: multiply by 5^-e2-q (and divide by 2^q). */
static inline void
scale_down(struct ival *s, uint64_t m2, int32_t e2, uint32_t mmshift,
    int accept)
{
	uint32_t q = log10_pow5(-e2) - (-e2 > 1);
	int32_t i = -e2 - (int32_t)q;
	int32_t k = pow5bits(i) - POW5_BITS;
	int32_t j = (int32_t)q - k;
	uint64_t mul[2], mv = 4 * m2;

	s->e10 = (int32_t)q + e2;
	pow5((uint32_t)i, mul);
	mulshift_all(s, m2, mul, j, mmshift);
	if (q <= 1) {
		/*
		 * The division by 2^q is exact: mv = 4 x m2 has two trailing
		 * 0 bits, mp = mv + 2 one, mm = mv - 1 - mmshift one iff
		 * mmshift. An excluded mp then takes the number below it.
		 */
		s->vr_tz = 1;
		if (accept)
			s->vm_tz = mmshift == 1;
		else
			s->vp--;
	} else if (q < 63) {
		/* vr = mv x 5^i / 2^q, with 5^i odd: exact iff 2^q | mv. */
		s->vr_tz = multiple_of_pow2(mv, q);
	}
}

/*
 * The rare case (under 1%) that something is exact: keep track of whether
 * the digits dropped are all 0, for an inclusive lower bound and for ties,
 * which round to even.
 */
static inline uint64_t
shortest_exact(struct ival *s, int accept, int32_t *removed)
{
	unsigned last = 0;

	while (s->vp / 10 > s->vm / 10) {
		s->vm_tz &= s->vm % 10 == 0;
		s->vr_tz &= last == 0;
		last = (unsigned)(s->vr % 10);
		s->vr /= 10;
		s->vp /= 10;
		s->vm /= 10;
		(*removed)++;
	}
	if (s->vm_tz) {
		/* The lower bound is exact and in: cut its 0s too. */
		while (s->vm % 10 == 0) {
			s->vr_tz &= last == 0;
			last = (unsigned)(s->vr % 10);
			s->vr /= 10;
			s->vp /= 10;
			s->vm /= 10;
			(*removed)++;
		}
	}
	if (s->vr_tz && last == 5 && s->vr % 2 == 0)
		last = 4;	/* exactly ...50...0: to even */
	return s->vr + ((s->vr == s->vm && (!accept || !s->vm_tz)) ||
	    last >= 5);
}

/* The common case: nothing exact; two digits at a time first. */
static inline uint64_t
shortest(struct ival *s, int32_t *removed)
{
	int up = 0;

	if (s->vp / 100 > s->vm / 100) {
		up = s->vr % 100 >= 50;
		s->vr /= 100;
		s->vp /= 100;
		s->vm /= 100;
		*removed += 2;
	}
	while (s->vp / 10 > s->vm / 10) {
		up = s->vr % 10 >= 5;
		s->vr /= 10;
		s->vp /= 10;
		s->vm /= 10;
		(*removed)++;
	}
	return s->vr + (s->vr == s->vm || up);
}

/* The shortest, closest decimal m x 10^*exp for v's mantissa and exponent. */
static uint64_t
d2d(uint64_t ieee_m, uint32_t ieee_e, int32_t *exp)
{
	struct ival s = { 0, 0, 0, 0, 0, 0 };
	int32_t e2, removed = 0;
	uint64_t m2, out;
	uint32_t mmshift;
	int accept;

	/* 2 more bits, for the bounds at half an ulp and a quarter. */
	if (ieee_e == 0) {
		e2 = 1 - BIAS - MANT_BITS - 2;
		m2 = ieee_m;
	} else {
		e2 = (int32_t)ieee_e - BIAS - MANT_BITS - 2;
		m2 = UINT64_C(1) << MANT_BITS | ieee_m;
	}
	accept = (m2 & 1) == 0;
	/* The lower bound is half as far below a power of two. */
	mmshift = ieee_m != 0 || ieee_e <= 1;
	if (e2 >= 0)
		scale_up(&s, m2, e2, mmshift, accept);
	else
		scale_down(&s, m2, e2, mmshift, accept);
	if (s.vm_tz || s.vr_tz)
		out = shortest_exact(&s, accept, &removed);
	else
		out = shortest(&s, &removed);
	*exp = s.e10 + removed;
	return out;
}

/* The number of digits of v < 10^17, tested from the most likely. */
static inline int
declen17(uint64_t v)
{
	static const uint64_t p10[16] = {
		UINT64_C(10000000000000000), UINT64_C(1000000000000000),
		UINT64_C(100000000000000), UINT64_C(10000000000000),
		UINT64_C(1000000000000), UINT64_C(100000000000),
		UINT64_C(10000000000), UINT64_C(1000000000),
		UINT64_C(100000000), UINT64_C(10000000), UINT64_C(1000000),
		UINT64_C(100000), UINT64_C(10000), UINT64_C(1000),
		UINT64_C(100), UINT64_C(10),
	};
	int i;

	for (i = 0; i < 16; i++)
		if (v >= p10[i])
			return 17 - i;
	return 1;
}

/* "00" to "99": the digits are written two at a time. */
static const char pairs[] =
    "0001020304050607080910111213141516171819"
    "2021222324252627282930313233343536373839"
    "4041424344454647484950515253545556575859"
    "6061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/*
 * The digits of out, backwards from end: the low 8 first when it needs
 * 64 bits, so that the rest is done in 32, 4 digits to each division.
 */
static inline void
write_digits(uint64_t out, char *end)
{
	uint32_t o, c;

	if (out >> 32 != 0) {
		o = (uint32_t)(out % 100000000);
		out /= 100000000;
		c = o % 10000;
		o /= 10000;
		memcpy(end - 2, pairs + c % 100 * 2, 2);
		memcpy(end - 4, pairs + c / 100 * 2, 2);
		memcpy(end - 6, pairs + o % 100 * 2, 2);
		memcpy(end - 8, pairs + o / 100 * 2, 2);
		end -= 8;
	}
	o = (uint32_t)out;
	while (o >= 10000) {
		c = o % 10000;
		o /= 10000;
		memcpy(end - 2, pairs + c % 100 * 2, 2);
		memcpy(end - 4, pairs + c / 100 * 2, 2);
		end -= 4;
	}
	if (o >= 100) {
		memcpy(end - 2, pairs + o % 100 * 2, 2);
		o /= 100;
		end -= 2;
	}
	if (o >= 10)
		memcpy(end - 2, pairs + o * 2, 2);
	else
		end[-1] = (char)('0' + o);
}

int
tl_dtoa(double v, char *dig, int *exp10)
{
	uint64_t bits, out;
	int32_t e;
	int n;

	memcpy(&bits, &v, sizeof bits);
	out = d2d(bits & ((UINT64_C(1) << MANT_BITS) - 1),
	    (uint32_t)(bits >> MANT_BITS) & 0x7ff, &e);
	n = declen17(out);
	write_digits(out, dig + n);
	*exp10 = e + n - 1;
	return n;
}
