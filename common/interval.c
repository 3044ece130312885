/* tl: busy time as the length of a union of intervals. */
#include <string.h>

#include "interval.h"

/* End of the sorted run that starts at a[lo]. */
static size_t
runend(const struct tl_iv *a, size_t lo, size_t n)
{
	size_t i;

	for (i = lo + 1; i < n && a[i - 1].start <= a[i].start; i++)
		;
	return i;
}

/* Merge the sorted runs a[lo..mid) and a[mid..hi) into d[lo..hi). */
static void
merge(const struct tl_iv *a, size_t lo, size_t mid, size_t hi,
    struct tl_iv *d)
{
	size_t i = lo, j = mid, o = lo;

	while (i < mid && j < hi)
		d[o++] = a[j].start < a[i].start ? a[j++] : a[i++];
	memcpy(d + o, a + i, (mid - i) * sizeof *a);
	o += mid - i;
	memcpy(d + o, a + j, (hi - j) * sizeof *a);
}

/*
 * Sort a[0..n) by start, stably: a natural merge sort, linear on input
 * that is already sorted, O(n log r) for r sorted runs.
 */
static void
ivsort(struct tl_iv *a, size_t n, struct tl_iv *tmp)
{
	struct tl_iv *src = a, *dst = tmp, *t;
	size_t lo, mid, hi, nrun;

	if (runend(a, 0, n) >= n)
		return;
	do {
		for (nrun = 0, lo = 0; lo < n; nrun++, lo = hi) {
			mid = runend(src, lo, n);
			hi = mid < n ? runend(src, mid, n) : n;
			merge(src, lo, mid, hi, dst);
		}
		t = src;
		src = dst;
		dst = t;
	} while (nrun > 1);
	if (src != a)
		memcpy(a, src, n * sizeof *a);
}

/* The length of the union of a[0..n), sorted by start, capped. */
static int64_t
ivunion(const struct tl_iv *a, size_t n)
{
	/* Unsigned: disjoint parts of the int64 range add up to less than
	 * 2^64, so the sum is exact; then capped. */
	uint64_t total = 0;
	int64_t s, e;
	size_t i;

	if (n == 0)
		return 0;
	s = a[0].start;
	e = a[0].end;
	for (i = 1; i < n; i++) {
		if (a[i].start <= e) {
			if (a[i].end > e)
				e = a[i].end;
			continue;
		}
		total += (uint64_t)e - (uint64_t)s;
		s = a[i].start;
		e = a[i].end;
	}
	total += (uint64_t)e - (uint64_t)s;
	return total > INT64_MAX ? INT64_MAX : (int64_t)total;
}

int64_t
tl_iv_busy(struct tl_iv *a, size_t n, struct tl_iv *tmp)
{
	ivsort(a, n, tmp);
	return ivunion(a, n);
}
