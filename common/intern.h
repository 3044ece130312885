/*
 * tl: string interning. Each distinct byte string gets a small integer id,
 * 0, 1, 2, ... in first-seen order; the bytes live once, in an arena.
 */
#ifndef TL_INTERN_H
#define TL_INTERN_H

#include <stddef.h>
#include <stdint.h>

struct tl_intern;

struct tl_intern *tl_intern_new(void);
void tl_intern_free(struct tl_intern *);
/* The id of s[0..n), adding it if it is new. */
uint32_t tl_intern(struct tl_intern *, const char *s, size_t n);
/* The id of s[0..n), or UINT32_MAX if it was never added. */
uint32_t tl_intern_find(const struct tl_intern *, const char *s, size_t n);
/* The NUL-terminated string of an id, and its length. */
const char *tl_intern_str(const struct tl_intern *, uint32_t id, size_t *n);
/*
 * For a field whose values repeat from row to row (pid, tid, stream):
 * the last two ids it got, checked before the string is hashed. Start
 * it as TL_INTERN_LAST; it may outlive the table (a stale id is only
 * taken where its string is the same).
 */
struct tl_intern_last {
	uint32_t id[2];		/* the latest first */
};
#define TL_INTERN_LAST	{ { UINT32_MAX, UINT32_MAX } }
uint32_t tl_intern_last(struct tl_intern *, struct tl_intern_last *,
    const char *s, size_t n);
/* How many distinct strings there are. */
uint32_t tl_intern_count(const struct tl_intern *);
/*
 * How many times the table took a key of its own: a string that probed
 * too long (names made to collide under the process's seed) makes it
 * take a random one and place every string again; ids stay as they are.
 */
unsigned tl_intern_rekeys(const struct tl_intern *);

/*
 * The comparator of interned strings, for qsort and for sorting rows by
 * a string column: by the bytes as unsigned (memcmp, and so by code
 * point, as Python compares str), a string before any longer one it
 * starts; the empty string (an absent field of the stream) and the id
 * UINT32_MAX (no value) after every other, as pandas sorts a missing
 * value last, equal to each other. <0, 0, >0 as strcmp.
 */
int tl_intern_cmp(const struct tl_intern *, uint32_t a, uint32_t b);

/*
 * The hash of s[0..n), and of a 64-bit key (splitmix64's finaliser: a
 * bijection, so different keys never share a hash). Both are seeded once
 * per process, from the environment variable TL_HASH_SEED when it is set
 * (its value as strtoull(3) reads it, base 0), else at random, so that an
 * input cannot choose keys that all fall in one run of slots. Nothing a
 * tool writes may depend on the seed: the tests run two.
 */
uint64_t tl_hash(const char *s, size_t n);
uint64_t tl_hash64(uint64_t x);

#endif
