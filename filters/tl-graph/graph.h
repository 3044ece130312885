/*
 * tl-graph: what its files share. A tree (the replay trace's, or a
 * capture trace's) is held as compact records, one per event row, with a
 * uid index and the children of each event; a capture tree also keeps
 * its rows (as the stream has them, escaped) to copy them into the
 * output, while the replay trace's rows wait in a spool file.
 */
#ifndef TL_GRAPH_H
#define TL_GRAPH_H

#include <stdint.h>
#include <stdio.h>

#include "../../common/intern.h"
#include "../../common/trace.h"

#define NONE	UINT32_MAX

struct ev {
	int64_t uid, ts, dur;
	uint32_t parent;	/* index of the parent, or NONE */
	uint32_t launcher;	/* GPU event: index of its launcher, or NONE */
	uint32_t root;		/* index of the root, or NONE */
	int32_t depth;		/* -1: not in the tree */
	uint32_t name;		/* interned, unescaped */
	uint32_t kernel;	/* launch: args.kernel interned, or NONE */
	uint32_t stream;	/* GPU event: the stream column, or NONE */
	uint32_t module;	/* nn_module as written (escaped), or NONE */
	uint32_t fwd;		/* fwd_uid as an index, or NONE */
	uint32_t pid, tid;	/* as written (escaped), interned */
	uint8_t kind;		/* TL_K_* */
	uint8_t flags;
};
#define F_MODULE	1	/* a python frame named "nn.Module: ..." */
#define F_MOVED		2	/* GPU event given to a captured launch */
#define F_MERGED	4	/* graph launch already merged */
#define F_TOUCHED	8	/* launcher whose kernel time changes */

struct tree {
	char *name;		/* the trace's, for messages */
	struct ev *ev;
	size_t n, cap;
	/* uid -> index: a table for the small uids (a stream's are mostly
	 * 0, 1, ... with gaps), open addressing for the others */
	uint32_t *dense;
	size_t ndense, capdense;
	int64_t *hk;
	uint32_t *hv;
	size_t hcap;
	/* children: kids[kid0[i] .. kid0[i + 1]), by (ts, uid) */
	uint32_t *kid0, *kids;
	/* a capture's rows, escaped, one per event, NUL-terminated, one
	 * after the other in one block: event i's at rows + rowat[i] */
	char *rows;
	size_t *rowat, nrows, caprows;
	/* its header */
	char **col;
	size_t ncol;
};

extern struct tl_intern *in;
extern uint32_t nm_execute;	/* "execute" */

/* load.c */
/* Called with each row (escaped fields joined by TABs) as it is read,
 * and its record (NULL for a row about the trace), when set. */
extern void (*rowhook)(char *row, size_t len, const struct ev *e);
/* 1: keep records of GPU events and graph launches only (rowhook set) */
extern int tload_sparse;
/* For rowhook: the parent uid of the event row, when it has one. */
extern int64_t tload_puid;
extern int tload_hasparent;
uint32_t tfind(const struct tree *, int64_t uid);
void tkids(struct tree *);
void tload(struct tree *, struct tl_trace *, FILE *spool, int keeprows);
/* tl-tree -c's count of the events named name (before the first event
 * row), or -1 when the stream gives none. */
int64_t tload_count(const char *name);
void tload_free(void);	/* the counts forgotten */
void tfree(struct tree *);
int has(uint32_t name, const char *sub);
int hasi(uint32_t name, const char *sub);

/* annot.c */
int iter_tier(const char *s, size_t n);
int iter_bs(const char *s, size_t n, long long *bs);
void iter_init(void);

#endif
