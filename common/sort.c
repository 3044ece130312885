/* tl: sorting many records by a 64-bit key. */
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "sort.h"

/* The result of the passes, in a, into k; the other array freed. */
static void
endpasses(struct tl_sortkey *k, struct tl_sortkey *a, struct tl_sortkey *b,
    size_t n)
{
	if (a != k) {
		memcpy(k, a, n * sizeof *k);
		b = a;
	}
	free(b);
}

void
tl_radix_sort(struct tl_sortkey *a, size_t n)
{
	struct tl_sortkey *orig = a, *b, *t;
	size_t cnt[256], i, sum, c;
	unsigned sh;

	b = xmalloc((n ? n : 1) * sizeof *b);
	for (sh = 0; sh < 64; sh += 8) {
		memset(cnt, 0, sizeof cnt);
		for (i = 0; i < n; i++)
			cnt[(a[i].k >> sh) & 0xff]++;
		if (n == 0 || cnt[(a[0].k >> sh) & 0xff] == n)
			continue;
		for (sum = 0, i = 0; i < 256; i++) {
			c = cnt[i];
			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[cnt[(a[i].k >> sh) & 0xff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	endpasses(orig, a, b, n);
}

#define MAXRUN	16	/* ordered runs merged, at most */

void
tl_key_sort(struct tl_sortkey *k, size_t n)
{
	struct tl_sortkey *a = k, *b, *t;
	size_t run[MAXRUN + 1], nrun = 1, i, j, o, r, e;

	run[0] = 0;
	for (i = 1; i < n; i++)
		if (k[i].k < k[i - 1].k) {
			if (nrun == MAXRUN) {
				tl_radix_sort(k, n);
				return;
			}
			run[nrun++] = i;
		}
	if (nrun == 1)
		return;
	run[nrun] = n;
	b = xreallocarray(NULL, n, sizeof *b);
	while (nrun > 1) {
		/* runs 2r and 2r+1 into one, ties from the first */
		for (r = 0; r < nrun; r += 2) {
			i = o = run[r];
			e = run[r + 1];
			if (r + 1 == nrun) {
				memcpy(b + o, a + o, (e - o) * sizeof *b);
				continue;
			}
			j = e;
			while (i < e && j < run[r + 2])
				b[o++] = a[j].k < a[i].k ? a[j++] : a[i++];
			memcpy(b + o, a + i, (e - i) * sizeof *b);
			o += e - i;
			memcpy(b + o, a + j, (run[r + 2] - j) * sizeof *b);
		}
		for (r = 0; 2 * r < nrun; r++)
			run[r] = run[2 * r];
		nrun = (nrun + 1) / 2;
		run[nrun] = n;
		t = a;
		a = b;
		b = t;
	}
	endpasses(k, a, b, n);
}

size_t
tl_key_find(const struct tl_sortkey *a, size_t n, uint64_t k)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (a[mid].k < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && a[lo].k == k ? lo : n;
}
