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

/* numpy's pairwise sum of a float64 array (np.sum, pandas's sum). */
double tl_np_sum(const double *a, size_t n);

#endif
