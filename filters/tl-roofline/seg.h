/*
 * tl-roofline: one trace read from the tree stream (a segment), as the
 * main program builds it and the sheet writers read it.
 */
#ifndef RL_SEG_H
#define RL_SEG_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/intern.h"
#include "../../common/trace.h"
#include "../../common/tsv.h"
#include "roof.h"

#define RL_NONE	UINT32_MAX

/* The sheets, in TraceLens's names. */
enum {
	S_GEMM, S_SDPA_FWD, S_SDPA_BWD, S_CONV_FWD, S_CONV_BWD, S_UNARY,
	S_BINARY, S_NORM, S_REDUCE_FWD, S_REDUCE_BWD, S_SSM_FWD, S_SSM_BWD,
	S_ROPE_FWD, S_ROPE_BWD, S_CE_FWD, S_CE_BWD,
	/* the extension models' */
	S_RMSNORM, S_COLL, S_GQUANT, S_ELEM, S_MHC, S_MOE_AUX, S_MOE_FUSED,
	S_MOE_UNFUSED, S_MOE_COMM_FWD, S_MOE_COMM_BWD, S_GGEMM_FWD,
	S_GGEMM_BWD, S_IATTN, S_FROPE, NSHEET
};
extern const char *const rl_sheetname[NSHEET];

struct rl_gpu {
	int64_t uid, ts, dur;
	uint32_t name;		/* interned, unescaped */
	uint32_t stream;	/* interned, unescaped; RL_NONE if absent */
};

struct rl_op {
	int64_t uid;
	const struct rl_model *m;
	uint32_t node;
	uint32_t pid, tid;	/* interned, as the stream writes them */
	size_t line;		/* the raw row, in rl_lines */
	size_t linelen;
	double flop, bytes, flop_bwd, bytes_bwd;
	const char *prec;
	uint32_t par0;		/* params in rl_params */
	uint8_t npar, hasbytes, hasbwd, hasbytes_bwd, isbwd, matrix;
	uint8_t bwdlinked;	/* the row has bwd_uids */
	uint8_t fam;		/* F_*: the model's, or the one it chose */
	uint8_t pending;	/* computed at the end (rl_pending) */
	uint8_t dead;		/* that found no row: not an op */
	int8_t transa, transb;	/* GEMM transpose from kernel names; -1 */
	uint32_t lastg;		/* GPU event added last (+ 1) */
};

/* A row of a sheet: an op, with the kernels of one pass. */
struct rl_inst {
	uint32_t op;
	uint8_t sheet;
	uint8_t bwd;		/* the backward formula */
	uint8_t linked;		/* kernels of the linked backward */
	uint8_t moved;		/* TraceLens moved it from _fwd to _bwd */
	uint32_t k0, nk;	/* kernels: rl_kv[k0 .. k0 + nk) */
	int64_t busy_ns;	/* exact union, ns */
	double busy_us;		/* TraceLens's double arithmetic, us */
	uint32_t group;
};

/* A host or linked GPU event of the tree (one a row: kept small). */
struct rl_node {
	int64_t uid;
	union {
		int64_t puid;		/* as read; INT64_MIN: none */
		uint32_t parent;	/* once linked: node, or RL_NONE */
	};
	uint32_t op;		/* op + 1, or 0 */
	uint32_t gpu;		/* GPU event + 1, or 0 */
};

/* The forward nodes a node is the backward event of: fwdv[fwd0 ..). */
struct rl_fwd {
	uint32_t fwd0, n;
};

/* A backward uid and the node of its forward event. */
struct rl_bwd {
	int64_t uid;
	uint32_t fwd;
};

/* A kernel of an op's pass. */
struct rl_kp {
	uint32_t op, gpu;
	uint8_t bwd;
};

/* Metadata: process_name (kind 0), process_labels (1), thread_name (2). */
struct rl_meta {
	uint32_t pid, tid, val;
	uint8_t kind;
};

/* A user annotation: its span and name (interned in in). */
struct rl_ann {
	int64_t ts, end;
	uint32_t name;
};

/* A model's result for a key of arguments: its op, or why it has none. */
struct rl_memo {
	int64_t op;		/* in ops, or -1: no result */
	size_t why;		/* in memowhy */
};

/*
 * One trace (a segment of the stream): everything read of it and built
 * from it, made by rl_seg_new and freed by rl_seg_free as one.
 */
struct rl_seg {
	const char *name;	/* the trace's, once read whole */
	char *device;		/* deviceProperties: the first device's name */
	const struct rl_arch *arch;	/* the roofline's, or NULL */
	struct rl_arch *autoarch;	/* the one found for the device */
	const int *col;		/* the stream's columns (tl_trace) */
	struct tl_intern *in;	/* names, pids, streams */
	struct rl_op *ops;
	size_t nops, capops;
	struct rl_inst *insts;
	size_t ninsts, capinsts;
	struct rl_gpu *gpus;
	size_t ngpus, capgpus;
	uint32_t *kv;		/* GPU event indexes of the instances */
	struct rl_param *params;	/* shared by the ops of a memo */
	size_t nparams, capparams;
	/* the GEMM transpose params, by transa * 2 + transb: an op's
	 * kernels tell it, the op's other params do not */
	struct rl_param tpar[4];
	uint8_t hastpar[4];
	struct tl_out text;	/* param texts */
	struct tl_out lines;	/* raw op rows */
	struct rl_node *nodes;
	size_t nnodes, capnodes;
	struct rl_bwd *bp;
	size_t nbp, capbp;
	uint32_t *fwdv;
	struct rl_fwd *fwdof;	/* by node; NULL without backward events */
	struct rl_kp *kps;
	size_t nkps, capkps;
	uint32_t *htab;		/* uid -> node + 1 */
	size_t hmask;
	struct rl_meta *metas;
	size_t nmetas, capmetas;
	struct rl_ann *anns;
	size_t nanns, capanns;
	struct tl_intern *fwdin;	/* (pair, seq) of a kept forward */
	size_t *fwdtext;		/* its argument texts, in fwdtexts */
	size_t capfwd;
	struct tl_out fwdtexts;
	struct tl_intern *whyin;	/* ops without a perf row: name NUL why */
	uint64_t *whyn;
	size_t capwhy;
	struct tl_intern *memoin;	/* model and argument texts */
	struct rl_memo *memo;
	size_t nmemo, capmemo;
	struct tl_out memowhy;
};

struct rl_seg *rl_seg_new(const int *col);
void rl_seg_free(struct rl_seg *);

/* read.c: a row read into the segment. */
uint32_t rl_newnode(struct rl_seg *, struct tl_trace *, int64_t puid);
/* A GPU event under node nd. */
void rl_addgpu(struct rl_seg *, struct tl_trace *, uint32_t nd);
/* The uids of a bwd_uids field, backward events of node nd. */
void rl_addbwd(struct rl_seg *, struct tl_trace *, uint32_t nd);
/* An op with model m at node nd (its row line[0..n)): 1 when it has a
 * perf row, 0 when not (counted, with why). */
int rl_newop(struct rl_seg *, struct tl_trace *, const struct rl_model *m,
    uint32_t nd, const char *line, size_t n);
/* Param i of r into p, its texts appended to the segment's. */
void rl_saveparam(struct rl_seg *, struct rl_param *p,
    const struct rl_res *r, int i);
/* Count an op without a perf row, by name and reason. */
void rl_why(struct rl_seg *, const char *name, size_t n, const char *why);
void rl_metarow(struct rl_seg *, struct tl_trace *);
/* A user_annotation row. */
void rl_addann(struct rl_seg *, struct tl_trace *);
/* Compute the ops whose model needs their annotation or kernels
 * (RL_NEED_ANNOT, RL_NEED_KERNEL), once the tree is linked; those
 * without a row are dead. */
void rl_pending(struct rl_seg *);
void rl_devprops(struct rl_seg *, struct tl_trace *);
void rl_read_end(void);		/* free the scratch */
/* The args of the row into a; NULL, or why they do not parse. */
const char *rl_readargs(struct tl_trace *, const char *name,
    struct rl_args *a);

/* An op's process_name (kind 0), process_labels (1) or thread_name
 * (2), or "Unknown". */
const char *rl_meta(const struct rl_seg *, const struct rl_op *, int kind);
/* The name of an op, unescaped. */
const char *rl_opname(const struct rl_op *);
/* Field c (TL_C_*) of an op's raw row, unescaped into buf; NULL when
 * empty. */
const char *rl_opfield(const struct rl_seg *, const struct rl_op *, int c,
    struct tl_out *buf);
/* Params of an op, with the GEMM transpose appended: count, into p. */
int rl_opparams(const struct rl_seg *, const struct rl_op *,
    struct rl_param *p, int max);
/* The compute spec ("matrix_bf16"), or NULL. */
const char *rl_spec(const struct rl_op *, char *buf, size_t cap);

/*
 * The roofline of an instance: its FLOPs and bytes (the backward pass's
 * for the backward instance of a forward op), its compute spec, and with
 * the arch the roofline time in ns and the bound; roof NaN and bound NULL
 * when there is none.
 */
struct rl_roof {
	double flop, bytes, roof;
	int hasbytes;
	const char *spec, *bound;
	char specbuf[32];
};
void rl_roof(const struct rl_seg *, const struct rl_inst *, struct rl_roof *);

/* link.c: each GPU event to the ops above it, the instances, their
 * busy times. */
void rl_link(struct rl_seg *);
void rl_link_end(void);	/* free the scratch */
extern const int rl_famsheet[NFAMILY][2];

/* Summaries. */
/* Write one sheet as a tl table. */
void rl_write_sheet(struct tl_out *, const struct rl_seg *, int sheet);
/* Write every sheet with rows as DIR/NAME.csv, TraceLens's format. */
void rl_write_csv(const struct rl_seg *, const char *dir);

#endif
