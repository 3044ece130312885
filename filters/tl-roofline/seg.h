/*
 * tl-roofline: one trace read from the tree stream (a segment), as the
 * main program builds it and the sheet writers read it.
 */
#ifndef RL_SEG_H
#define RL_SEG_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/intern.h"
#include "../../common/tsv.h"
#include "roof.h"

#define RL_NONE	UINT32_MAX

/* The sheets, in TraceLens's names. */
enum {
	S_GEMM, S_SDPA_FWD, S_SDPA_BWD, S_CONV_FWD, S_CONV_BWD, S_UNARY,
	S_BINARY, S_NORM, S_REDUCE_FWD, S_REDUCE_BWD, S_SSM_FWD, S_SSM_BWD,
	S_ROPE_FWD, S_ROPE_BWD, S_CE_FWD, S_CE_BWD, NSHEET
};
extern const char *const rl_sheetname[NSHEET];

struct rl_gpu {
	int64_t uid, ts, dur;
	uint32_t name;		/* interned, unescaped */
	uint32_t stream;	/* interned, unescaped; RL_NONE if absent */
};

struct rl_sparam {
	uint8_t key, tuple, none;
	uint32_t py, pyn, js, jsn;	/* in rl_text */
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

/* The segment. */
extern struct rl_op *rl_ops;
extern size_t rl_nops;
extern struct rl_inst *rl_insts;
extern size_t rl_ninsts;
extern struct rl_gpu *rl_gpus;
extern uint32_t *rl_kv;			/* GPU event indexes */
extern struct rl_sparam *rl_params;
extern struct rl_str rl_text;		/* param texts */
extern struct rl_str rl_lines;		/* raw op rows */
extern struct tl_intern *rl_in;		/* names, pids, streams */
extern const struct rl_arch *rl_segarch;
extern const char *rl_segname;

/* Columns of the input, by name. */
extern int rl_c_dims, rl_c_types, rl_c_strides, rl_c_ci;
extern size_t rl_ncol;

/* process_name, process_labels, thread_name of an op ("Unknown"). */
const char *rl_procname(const struct rl_op *);
const char *rl_proclabel(const struct rl_op *);
const char *rl_threadname(const struct rl_op *);
/* The name of an op, unescaped. */
const char *rl_opname(const struct rl_op *);
/* Field c of an op's raw row, unescaped into buf; NULL when empty. */
const char *rl_opfield(const struct rl_op *, int c, struct rl_str *buf);
/* Params of an op, with the GEMM transpose appended: count, into p. */
int rl_opparams(const struct rl_op *, struct rl_sparam *p, int max);
/* The compute spec ("matrix_bf16"), or NULL. */
const char *rl_spec(const struct rl_op *, char *buf, size_t cap);

/* Metrics of an instance, TraceLens's way (us, GFLOPS, MiB ...). */
struct rl_tlm {
	double gflops, mb, fpb, tbps, tflops, t;
	double roof_us, pct;
	int bound;		/* 0 none, 1 compute, 2 memory */
};
void rl_tlmetrics(const struct rl_inst *, struct rl_tlm *);

/* Summaries. */
int rl_sheet_byname(const char *);
/* Write one sheet as a tl table. */
void rl_write_sheet(struct tl_out *, int sheet);
/* Make the directory for -c, or check that it is one; exit if not. */
void rl_csvdir(const char *dir);
/* Write every sheet with rows as DIR/NAME.csv, TraceLens's format. */
void rl_write_csv(const char *dir);

#endif
