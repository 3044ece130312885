/*
 * tl: resource limits. Every tool takes --limit NAME=SIZE, so that a
 * hostile input ends in a clear error instead of unbounded memory or
 * time; the names, defaults and messages are in tl(7), Limits.
 */
#ifndef TL_LIMIT_H
#define TL_LIMIT_H

#include <stddef.h>
#include <stdint.h>

enum {
	TL_LIM_LINE,		/* bytes of one line of a stream */
	TL_LIM_VALUE,		/* bytes of one JSON event or top-level value */
	TL_LIM_DEPTH,		/* nesting of JSON arrays and objects */
	TL_LIM_RATIO,		/* decompressed bytes per compressed byte */
	TL_LIM_LEVELS,		/* nesting of host events on one thread */
	TL_LIM_EVENTS,		/* events of one trace a program holds */
	TL_LIM_STRING,		/* bytes of the longest string kept */
	TL_LIM_KEPT,		/* bytes of the strings one table keeps */
	TL_NLIM
};

/* The value of each limit; 0 for none (not for value, depth, levels). */
extern uint64_t tl_limit[TL_NLIM];

/*
 * Set limits from NAME=SIZE[,NAME=SIZE...]: SIZE a whole number with an
 * optional k, M, G or T (powers of 1024), or "none". Exits 1 with a
 * message on a bad argument.
 */
void tl_limit_set(const char *arg);

/* "NAME=SIZE" of a limit as it is now, for messages, in buf. */
#define TL_LIMIT_STRMAX	48
const char *tl_limit_str(char *buf, int lim);

#endif
