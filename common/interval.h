/*
 * tl: busy time, the length of the union of [start, end) intervals, as
 * TraceLens measures every kernel time (never a sum of durations).
 */
#ifndef TL_INTERVAL_H
#define TL_INTERVAL_H

#include <stddef.h>
#include <stdint.h>

struct tl_iv {
	int64_t start, end;
};

/*
 * Sort a[0..n) by start, stably: a natural merge sort, linear on input
 * that is already sorted, O(n log r) for r sorted runs. tmp holds n.
 */
void tl_iv_sort(struct tl_iv *a, size_t n, struct tl_iv *tmp);
/*
 * Length of the union of a[0..n), which is sorted by start (end >= start),
 * capped at INT64_MAX.
 */
int64_t tl_iv_union(const struct tl_iv *a, size_t n);
/* Sort a[0..n) (tmp holds n) and return tl_iv_union of it. */
int64_t tl_iv_busy(struct tl_iv *a, size_t n, struct tl_iv *tmp);

#endif
