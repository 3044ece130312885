/*
 * tl: pandas's descending sort of a float64 column, ties and all, for
 * the tools that write TraceLens's CSV files row for row: numpy's
 * argsort (introsort, "quicksort") as pandas's nargsort calls it.
 */
#ifndef TL_NPSORT_H
#define TL_NPSORT_H

#include <stddef.h>

/*
 * sort_values(ascending=False, na_position="last"): perm[0..n) gets the
 * indexes of key[] in that order; NaN values last, in order.
 */
void tl_nargsort_desc(const double *key, size_t n, size_t *perm);

/*
 * numpy's argsort (kind "quicksort", an introsort whose order of ties is
 * not stable; NaN last): perm[0..n) the indexes of v[] in that order.
 */
void tl_argsort(const double *v, size_t n, size_t *perm);

#endif
