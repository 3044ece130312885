/*
 * tl-parse: the XPlane reader (JAX / XLA profiles, *.xplane.pb), which
 * writes the same event stream as the JSON reader.
 */
#ifndef TL_PARSE_XPLANE_H
#define TL_PARSE_XPLANE_H

#include <stddef.h>

struct tl_out;
struct tl_src;

/* Whether p[0..n) starts like a serialized XSpace. */
int xp_sniff(const unsigned char *p, size_t n);

/*
 * Whether the current stream of src is an XSpace: by content when the
 * stream is held whole, else by the name (".pb" before any compression
 * suffix).
 */
int xp_is(struct tl_src *src);

/*
 * Read the XSpace of the current stream of src and write its rows to o,
 * each ended by endrow() (which writes the trace and rank columns when
 * they are on, and the LF); an event whose cat left() says is left out
 * (when left is not NULL) is not written, its uid kept. 0; -1 after a
 * located message when the input is malformed (the rows before it stay
 * written).
 */
int xp_parse(struct tl_src *src, struct tl_out *o, void (*endrow)(void),
    int (*left)(const char *, size_t, void *));

/* The same on p[0..n), named name (for the fuzz target and the tests). */
int xp_parse_mem(const char *name, const unsigned char *p, size_t n,
    struct tl_out *o, void (*endrow)(void));

#endif
