/* tl: sorting many records by a 64-bit key. */
#ifndef TL_SORT_H
#define TL_SORT_H

#include <stddef.h>
#include <stdint.h>

/* A key and the index of the record it belongs to. */
struct tl_sortkey {
	uint64_t k;
	uint32_t i;
};

/*
 * Stable LSD radix sort of a[0..n) by k, 8 bits a pass; passes where
 * every key has the same byte are skipped. Linear in n.
 */
void tl_radix_sort(struct tl_sortkey *a, size_t n);
/*
 * Stable sort of a[0..n) by k, quick on keys mostly in order, as events
 * come (by uid, by start), or in a few ordered runs (tl-roofline -p
 * moves rows to the end): nothing to do when in order, a merge of up to
 * 16 ordered runs, tl_radix_sort else.
 */
void tl_key_sort(struct tl_sortkey *a, size_t n);
/* The first index of key k in a[0..n), sorted by k: n when it is not there. */
size_t tl_key_find(const struct tl_sortkey *a, size_t n, uint64_t k);

#endif
