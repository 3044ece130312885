/*
 * tl: values as Python prints them, for the tools that write TraceLens's
 * files byte for byte: repr() of a float, of a str and of what json.loads
 * makes of JSON text, and json.dumps(ensure_ascii=False) of a str; on a
 * tl_out (tsv.h), a file's or one in memory.
 */
#ifndef TL_PYFMT_H
#define TL_PYFMT_H

#include <stddef.h>

#include "stats.h"	/* tl_np_sum, which was here */
#include "tsv.h"

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

/* tl_py_float's text of v. */
void tl_out_pyfloat(struct tl_out *, double v);

/*
 * repr() of the str whose UTF-8 is s[0..n): in single quotes, or double
 * quotes when it holds ' and no "; \\ and the quote escaped; \t \n \r;
 * every other character that str.isprintable() calls not printable
 * (categories Cc, Cf, Cs, Co, Cn, Zl, Zp, and Zs but the space) as \xXX
 * below U+0100, \uXXXX below U+10000, else \UXXXXXXXX; the rest as it
 * is. So U+00AD is \xad, U+2028 \u2028, U+00E9 stays as it is. The
 * Unicode data is that of Python 3 (tl_pyprint). A surrogate code point
 * (U+D800 as the bytes ED A0 80, as tl_out_pyjson decodes a lone \ud800
 * escape) is \ud800, as in Python; a byte that starts no UTF-8 sequence
 * (tl's streams hold none: tl-parse writes U+FFFD) is \xXX.
 */
void tl_out_pystr(struct tl_out *, const char *s, size_t n);

/* Whether str.isprintable() holds for code point c. */
int tl_pyprint(unsigned long c);

/*
 * json.dumps(ensure_ascii=False) of the str s[0..n): in double quotes;
 * \" \\ \n \r \t \b \f; the other bytes below 0x20 as \u00XX; every
 * other byte as it is (DEL and non-ASCII too).
 */
void tl_out_jsonstr(struct tl_out *, const char *s, size_t n);

/*
 * repr() of what json.loads makes of the JSON text js[0..n) (an
 * argument column of the stream): objects as dicts {'k': v, ...},
 * arrays as lists [a, b], strings by tl_out_pystr (a \uXXXX escape of a
 * lone surrogate kept as that surrogate), true/false/null as True,
 * False, None, NaN/Infinity/-Infinity as nan, inf, -inf; a number with
 * '.', 'e' or 'E' as a float (tl_py_float), any other as its digits, an
 * int ("-0" is 0). With TL_PY_TUPLES arrays are tuples, (a, b) and
 * (a,), as TraceLens's list_to_tuple makes them: not inside a dict, but
 * there too with TL_PY_TUPLES_ALL. Returns 0; -1, with nothing written,
 * when js is not one JSON value (white space around it allowed).
 */
enum {
	TL_PY_TUPLES = 1 << 0,
	TL_PY_TUPLES_ALL = 1 << 1
};
int tl_out_pyjson(struct tl_out *, const char *js, size_t n, int flags);

#endif
