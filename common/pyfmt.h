/*
 * tl: numbers as Python and numpy compute and print them, for the tools
 * that write TraceLens's files value for value: Python's repr of a float
 * and numpy's pairwise sum.
 */
#ifndef TL_PYFMT_H
#define TL_PYFMT_H

#include <stddef.h>

/* Room enough for any tl_py_float text and its NUL. */
#define TL_PY_FLOATMAX	40

/*
 * Python's repr of a float (numpy >= 2 prints float64 the same way): the
 * shortest digits that read back as v, positional for exponents -4 to 15
 * with at least one digit after the point ("1.0", "0.0001"), otherwise
 * d.ddde+XX ("1e-05", "1e+16"); "nan", "inf", "-inf", "-0.0". Writes
 * buf, NUL-terminated, and returns the length; -1 when cap is below
 * TL_PY_FLOATMAX.
 */
int tl_py_float(char *buf, size_t cap, double v);

/*
 * A value of magnitude 0.001 to 1e12 that is a whole number of thousandths
 * (a time in us from ns), as its decimals with the point and at least one
 * digit after it ("12.0", "-0.125"): then both Python's repr and the
 * shortest %.15g to %.17g text, which need no more digits. Writes buf
 * (TL_PY_FLOATMAX bytes), NUL-terminated, and returns the length; 0 when
 * v is not such a number.
 */
int tl_fmt_milli(char *buf, double v);

/*
 * Lay out the decimal digits dig[0..nd) of a number whose first digit has
 * the exponent e (d.ddd x 10^e): "d.ddde+XX" (at least two exponent
 * digits) when e < -4 or e >= sci, else positional, with ".0" after a
 * whole number when point0 is set. With sci 16 and point0, Python's repr
 * of a float; with sci P and not point0, printf's %.Pg when the digits
 * are those of %.Pg with the trailing zeros cut. A '-' first when neg.
 * Writes buf (TL_PY_FLOATMAX bytes), NUL-terminated; returns the length.
 */
int tl_fmt_digits(char *buf, int neg, const char *dig, int nd, int e, int sci,
    int point0);

/* numpy's pairwise sum of a float64 array (np.sum, pandas's sum). */
double tl_np_sum(const double *a, size_t n);

#endif
