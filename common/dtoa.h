/*
 * tl: the shortest decimal digits of a double, by the Ryu algorithm:
 * exact, and many times faster than looking for them with snprintf and
 * strtod.
 */
#ifndef TL_DTOA_H
#define TL_DTOA_H

/*
 * The shortest decimal digits that read back as |v| (v finite, not 0),
 * and among those the closest to |v| (Ryu). Writes the digits (no sign,
 * no point, no NUL; at most 17) into dig and the decimal exponent of the
 * first into *exp10, so |v| = d1.d2d3... x 10^exp10; returns how many.
 */
int tl_dtoa(double v, char *dig, int *exp10);

#endif
