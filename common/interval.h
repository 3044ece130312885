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
 * Sort a[0..n) by start (tmp holds n) and return the length of the union
 * of its intervals (end >= start), capped at INT64_MAX.
 */
int64_t tl_iv_busy(struct tl_iv *a, size_t n, struct tl_iv *tmp);

#endif
