/*
 * tl-hta: the reader of PyTorch's raw memory-timeline export, the gzipped
 * JSON array [[t, action, numbytes, category], ...] that HTA's
 * MemoryAnalysis draws (spec 16), streamed a number at a time.
 */
#ifndef TL_HTA_MEMTL_H
#define TL_HTA_MEMTL_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/input.h"

/*
 * One row per run of records with the same t, in order: t (a t below 0
 * replaced by the smallest t above 0), and the bytes of each of the 8
 * categories after the run, carried over from the row before.
 */
struct memtl {
	int64_t *t;
	int64_t (*sz)[8];
	size_t n;
};

/* Read the current stream of src (name for messages); exit on bad input
 * with "PROG: NAME:OFFSET: what". */
void memtl_read(struct memtl *, struct tl_src *, const char *name);
void memtl_free(struct memtl *);

#endif
