/*
 * tl-diff: declarations shared by the private sources of tl-diff(1).
 * Everything here is prefixed td_; nothing leaves the program.
 */
#ifndef TD_H
#define TD_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/intern.h"
#include "../../common/trace.h"
#include "../../common/tsv.h"

#define NONE	UINT32_MAX

/* Node flags. */
enum {
	N_DISPATCH = 1 << 0,	/* runtime/driver, not a graph launch */
	N_CPUANC = 1 << 1,	/* a cpu_op above it */
	N_SEEN = 1 << 2		/* reached from a top (load.c) */
};

/* A node of one tree: a host event in the tree or a linked GPU event. */
struct node {
	int64_t uid, ts, dur;		/* ns */
	int64_t sub;			/* subtree_kernel_time_ns, or -1 */
	uint32_t name;			/* raw name, or the uid when empty */
	uint32_t norm;			/* normalized name */
	uint32_t norms;			/* ... with strip_details; NONE: later */
	uint32_t parent;		/* node index; NONE for a root */
	uint32_t up;			/* the parent as read (never rewritten) */
	uint32_t kid, nkid;		/* children: kids[kid .. kid + nkid) */
	uint32_t ngpu;			/* GPU events in the subtree */
	uint32_t module;		/* nn_module, NONE when empty */
	uint32_t args;			/* index in args, NONE: no args */
	uint8_t kind, flags;		/* TL_K_*, N_* */
};

/* The four argument columns of a cpu_op, interned JSON text or NONE. */
struct args {
	uint32_t a[4];			/* dims, strides, types, concrete */
};

struct side {
	const char *path;		/* the operand */
	char *label;			/* the trace_file row, or the operand */
	struct node *n;
	size_t nn;
	uint32_t *kids;
	struct args *args;
	size_t nargs, capargs;
	uint32_t *roots;		/* top-level roots, in order */
	uint32_t *top;			/* while loading: each node's top */
	size_t nroots;
	uint32_t maxdepth;		/* of the deepest node, a root's 0 */
	uint64_t nevents, ngpuev, nunlinked, npython;
};

/* Options and shared state (tl-diff.c). */
extern int td_tracelens;		/* --tracelens */
extern struct tl_intern *td_in;	/* every string, both sides */
extern struct side td_s[2];

/* load.c */
void td_load(const char *baseline, const char *variant);
void td_free(struct side *);
/* The string of an interned id. */
const char *td_str(uint32_t id, size_t *n);
/* Two interned strings by their bytes; NONE before any string. */
int td_strcmp(uint32_t a, uint32_t b);
uint32_t td_norm(struct side *, uint32_t i, int strip);

/* A growing array of uint32_t. */
struct vec {
	uint32_t *v;
	size_t n, cap;
};
void td_push(struct vec *, uint32_t);
void td_vfree(struct vec *);

/* A map from an interned id to a value + 1 (0: none). */
struct idarr {
	uint32_t *v;
	size_t cap;
};
static inline uint32_t
td_idget(const struct idarr *a, uint32_t id)
{
	return id < a->cap ? a->v[id] : 0;
}
void td_idset(struct idarr *, uint32_t id, uint32_t v);

/* Alignment operations. */
enum { OP_MATCH, OP_DEL, OP_INS };
struct op {
	uint32_t i, j;			/* indexes in the two lists */
	uint8_t t;
};
struct ops {
	struct op *v;
	size_t n, cap;
};
void td_opush(struct ops *, int t, uint32_t i, uint32_t j);
/* qsort comparators: of uint32_t, and of ops by (i, j). */
int td_cmpu32(const void *, const void *);
int td_cmpop(const void *, const void *);

/* align.c: align two lists of node indexes (side 0, side 1). */
void td_align(const uint32_t *a, size_t na, const uint32_t *b, size_t nb,
    int strip, struct ops *out);
extern uint64_t td_nlost;	/* nodes the same-name step lost */

/* The merged tree (merge.c). */
enum { M_BOTH, M_ONE, M_TWO };
struct mnode {
	uint32_t u[2];			/* node indexes, NONE when absent */
	uint32_t kid, nkid;		/* children: td_mkids[kid ..] */
	uint8_t type;
};
extern struct mnode *td_m;
extern size_t td_nm;
extern uint32_t *td_mkids;
extern uint32_t *td_mroots;
extern size_t td_nmroots;
/* The uid map: (side, node) -> node of the other side, or NONE. */
struct umap {
	uint32_t u, other;
	uint8_t side;
};
extern struct umap *td_umap;
extern size_t td_numap;
void td_merge(void);
void td_merge_free(void);
int td_ongpu(const struct side *, uint32_t i);
int td_iskernel(const struct node *);
/* The GPU events under node i (its own list as TraceLens keeps it). */
void td_gpuevents(const struct side *, uint32_t i, struct vec *);

/* The diff rows (lca.c). */
struct row {
	uint32_t gpu;			/* GPU node */
	uint32_t cpu;			/* its nearest cpu_op, NONE */
	uint32_t grp;			/* index in td_grp */
	uint8_t side;
};
/* A lowest common node and the GPU events under it on each side. */
struct grp {
	uint32_t lca;			/* merged id; NONE: a root on one side */
	uint32_t name;			/* interned LCA name, NONE */
	uint32_t u[2];			/* its nodes, NONE */
	uint32_t nk[2];			/* GPU events */
	int64_t busy[2];		/* ns */
	double busyd[2];		/* us, added as TraceLens does */
	uint32_t op;			/* interned op name */
	uint32_t opnode;		/* the op's node, NONE */
	uint8_t opside;
};
extern struct row *td_rows;
extern size_t td_nrows;
extern struct grp *td_grp;
extern size_t td_ngrp;
extern uint64_t td_nskipped;
void td_lca(void);
void td_lca_free(void);

/* tracelens.c */
int td_tracelens_write(const char *dir);
void td_tracelens_tree(struct tl_out *);

/* tables.c */
int td_table(struct tl_out *, const char *name);
int td_tables_dir(const char *dir);
int td_same(int64_t eps);
int td_known_table(const char *name);

#endif
