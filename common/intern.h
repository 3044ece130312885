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

uint64_t tl_hash(const char *s, size_t n);

#endif
