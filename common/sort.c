/* tl: sorting many records by a 64-bit key. */
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "sort.h"

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
	/* An odd number of passes leaves the result in the other array. */
	if (a != orig) {
		memcpy(orig, a, n * sizeof *a);
		b = a;
	}
	free(b);
}
