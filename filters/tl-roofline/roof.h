/*
 * tl-roofline: what its private sources share. The models read an op's
 * arguments (struct rl_args) and fill a result (struct rl_res): the
 * model's parameters, written both as Python reprs (TraceLens's CSVs)
 * and as JSON (the stream), FLOPs, bytes and the compute spec.
 * These names have external linkage only because the program is split
 * over several files; nothing outside tl-roofline sees them.
 */
#ifndef RL_ROOF_H
#define RL_ROOF_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../common/tsv.h"

/*
 * The texts of the models and of a segment are memory tl_outs (tsv.h)
 * that start empty: RL_MEM. A text written on one as it is: rl_puts.
 */
#define RL_MEM	{ -1, "<memory>", NULL, 0, 0 }

static inline void
rl_puts(struct tl_out *o, const char *s)
{
	tl_out_raw(o, s, strlen(s));
}

/*
 * One entry of a JSON list argument: a flat list of integers (a shape or
 * a stride), or something else (a nested list, a number, ...).
 */
struct rl_shape {
	int n;			/* number of integers, if flat */
	int flat;		/* a list of integers only */
	int null;		/* JSON null (Python None) */
	int npair;		/* not flat: the pairs of ints in it, at v */
	int64_t *v;
};

/* The arguments of one op, from the JSON columns of its row. */
struct rl_args {
	int hasdims, hastypes, hasstrides, hasci;
	int ndims, ntypes, nstrides, nci;
	struct rl_shape *dims, *strides;
	const char **types;	/* NUL-terminated, unescaped */
	const char **ci;
	const unsigned char *cistr;	/* ci[i] was a JSON string */
	const char *name;
	const char *args;	/* the args column (JSON), or NULL */
	size_t argslen;
	int hasseq;		/* the seq column (Sequence number) */
	int64_t seq;
	const char *annot;	/* the user annotation around it, or NULL */
	const char *kernel;	/* its first kernel's name, or NULL */
};

/*
 * What a model reads besides the four argument lists (RL_NEED_*), so
 * that ops with the same lists but not the same of these do not share
 * a result.
 */
#define RL_NEED_ARGS	1
#define RL_NEED_SEQ	2
#define RL_NEED_ANNOT	4
#define RL_KEEP_FWD	8	/* a forward whose backward reads its args */
#define RL_NEED_FWD	16	/* a backward with its forward's args */
#define RL_NEED_KERNEL	32	/* the name of its first kernel */
/* The pair of forward and backward classes of an RL_KEEP_FWD or
 * RL_NEED_FWD class. */
int rl_fwdpair(int cls);
int rl_needs(int cls);
/* The value of key in the args column: a number into *v (1), true or
 * false as 1 or 0 (1), or none (0). */
int rl_argnum(const struct rl_args *, const char *key, double *v);
/* The same for a string value, into buf (cap bytes): its length, -1. */
int rl_argstr(const struct rl_args *, const char *key, char *buf,
    size_t cap);
/* The same for the first entry of a list of strings. */
int rl_argstr0(const struct rl_args *, const char *key, char *buf,
    size_t cap);
void rl_util_end(void);		/* free the scratch */

/* Parameter names: the order of this list is not the column order. */
enum {
	P_M, P_N, P_K, P_BIAS, P_STRIDE_A, P_STRIDE_B, P_DTYPE_A_B, P_B,
	P_TRANSPOSE,
	P_N_Q, P_H_Q, P_N_KV, P_H_KV, P_D_H_QK, P_D_H_V, P_DROPOUT, P_CAUSAL,
	P_FLASH_IMPL,
	P_CONVND, P_INPUT_SHAPE, P_FILTER_SHAPE, P_DTYPE_INPUT_WEIGHT,
	P_INPUT_STRIDE, P_WEIGHT_STRIDE, P_STRIDE, P_PADDING, P_DILATION,
	P_TRANSPOSED_CONV, P_OUTPUT_PADDING, P_GROUPS, P_OUTPUT_MASK,
	P_OP_SHAPE, P_DTYPE_IN_OUT, P_STRIDE_INPUT, P_STRIDE_OUTPUT,
	P_OUTPUT_SHAPE,
	P_SHAPE_IN1, P_SHAPE_IN2, P_DTYPE_IN1_IN2_OUT, P_STRIDE_INPUT1,
	P_STRIDE_INPUT2,
	P_NUM_CHANNELS, P_HAS_BIAS, P_IS_AFFINE, P_IS_TRAINING,
	P_NUM_INPUT_ELEMS, P_NUM_OUTPUT_ELEMS, P_REDUCE_TYPE,
	P_C, P_L, P_KERNEL_SIZE, P_DTYPE, P_SHAPE, P_NUM_ROWS, P_VOCAB,
	P_NUM_SEQS_Q, P_NUM_SEQS_KV, P_MAX_SEQLEN_Q, P_MAX_SEQLEN_KV,
	/* the extension models' */
	P_DTYPE_IN, P_OUT_SHAPE, P_QUANT_SCHEME, P_QUANT_GRANULARITY,
	P_BLOCK_K, P_BLOCK_N, P_SCALE_DTYPE, P_OUTPUT_DTYPE, P_DTYPE_SCALEA,
	P_DTYPE_SCALEB, P_G, P_BPE_IN, P_BPE_OUT, P_GROUP_PAIRS,
	P_NUM_TOKENS, P_HIDDEN_DIM, P_INTER_DIM, P_NUM_EXPERTS, P_TOPK,
	P_GATED, P_INPUT_DTYPE, P_WEIGHT_DTYPE, P_M_WORK, P_OPERANDS, P_BPE,
	P_H_V, P_H_K, P_C_SQ, P_C_SK, P_C_SQSQ, P_C_SQSK, P_G_SQ, P_G_SK,
	P_G_SQSQ, P_G_SQSK, P_DTYPE_Q, P_DTYPE_KV, P_SLIDING_WINDOW,
	P_PREFILL_PAIRS, P_NELEMS, P_T, P_QH, P_KH, P_D_LORA, P_D_PE,
	P_DTYPE_KV2, P_DTYPE_OUT, P_X_SHAPE, P_Y_SHAPE, P_NUM_ELEMENTS, P_V,
	P_DTYPE_LOGITS, P_DTYPE_NOISE, P_GROUP_SIZE, P_NUM_GROUPS, P_SHAPE_X,
	P_DTYPE_X, P_SHAPE_OUT, P_LN, P_HC3, P_SPLIT_K, P_E, P_H, P_P,
	P_D_INNER, P_D_CONV, P_CONV_CHANNELS, P_COMBINED_DIM, P_BATCH,
	P_CHANNELS, P_SEQ_LEN, P_HEADS, P_HEAD_DIM, P_LOGITS_SHAPE,
	P_Q_STRIDE, P_K_STRIDE, P_V_STRIDE,
	/* the JAX models' */
	P_BYTES_PER_ELEMENT, P_FUSED, P_SIMULATION_DTYPE,
	NPARAMNAME
};
extern const char *const rl_paramname[NPARAMNAME];

#define RL_MAXP	24

/*
 * A parameter's value, as Python's repr at py (pyn bytes) and as JSON at
 * js (jsn bytes) of a text: a segment's. In an rl_res, the offsets are
 * into its py and js, and a value runs to the next one's (pyn and jsn
 * are 0).
 */
struct rl_param {
	uint8_t key;
	uint8_t tuple;		/* the value is a tuple (CSV: str() it) */
	uint8_t none;		/* the value is None */
	uint32_t py, pyn;
	uint32_t js, jsn;
};

/* Families: each is a TraceLens sheet, or a pair of _fwd/_bwd sheets. */
enum {
	F_GEMM, F_SDPA, F_CONV, F_UNARY, F_BINARY, F_NORM, F_REDUCE, F_SSM,
	F_ROPE, F_CE,
	/* the extension models' */
	F_RMSNORM, F_COLL, F_GQUANT, F_ELEM, F_MHC, F_MOE_AUX, F_MOE_FUSED,
	F_MOE_UNFUSED, F_MOE_COMM, F_GGEMM, F_IATTN, F_FROPE,
	NFAMILY
};

/* What a model computes for one op. */
struct rl_res {
	int np;
	struct rl_param p[RL_MAXP];
	struct tl_out py, js;
	double flop, bytes;
	int hasbytes;		/* bytes known (every dtype has a size) */
	double flop_bwd, bytes_bwd;
	int hasbwd, hasbytes_bwd;
	const char *prec;	/* "bf16", ... or NULL */
	int matrix;		/* compute spec matrix_, else vector_ */
	int isbwd;		/* the op itself is a backward op */
	int family;		/* F_*: not the op's family, or -1 */
	const char *why;	/* why the args do not fit, when they don't */
	char whybuf[112];
};

/* Set r->why (printf-style) and return -1. */
int rl_fail(struct rl_res *, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The models. */
struct rl_model {
	const char *name;	/* op name */
	int family;
	int cls;		/* index into the model functions */
};

/* Options the models look at. */
extern int rl_tracelens;
/* -c: a param a row lacks, or that is None, is an empty cell (as in
 * TraceLens's inference report), not nan or None. */
extern int rl_emptyparams;
/* -c: the groups of a sheet are by kernel count too, in a column
 * num_kernels (the inference report's --group_by_num_kernels). */
extern int rl_bykernels;

/*
 * Look an op name up: its model, or NULL; *un is TraceLens's model
 * class for an op that TraceLens models only with -p (an Inductor
 * Triton kernel; valid until the next call), else NULL.
 */
const struct rl_model *rl_find(const char *name, size_t n, const char **un);
/* Compute: 0, or -1 with r->why set. */
int rl_compute(const struct rl_model *, const struct rl_args *,
    struct rl_res *);
/* Write every modelled op name, its model and sheets, as a table. */
void rl_list(struct tl_out *);
/* Model class name, as TraceLens calls it (aten_mm, ...). */
const char *rl_classname(const struct rl_model *);

/* Parameters. */
void rl_reset(struct rl_res *);
void rl_pint(struct rl_res *, int key, int64_t v);
void rl_pnum(struct rl_res *, int key, double v);	/* int if integral */
void rl_pbool(struct rl_res *, int key, int v);
void rl_pfloat(struct rl_res *, int key, double v);
void rl_pstr(struct rl_res *, int key, const char *s);	/* NULL: None */
/* A tuple of integers; NULL or not flat: None. */
void rl_pshape(struct rl_res *, int key, const struct rl_shape *s);
void rl_pints(struct rl_res *, int key, const int64_t *v, int n);
/* A tuple of the n strings that follow (NULL members are None). */
void rl_pstrs(struct rl_res *, int key, int n, ...);
void rl_pbools(struct rl_res *, int key, int n, const int *v);
/* The same as a Python list, "[True, False]" (n 0: "[]"). */
void rl_pboollist(struct rl_res *, int key, int n, const int *v);
/* MoE operands: a list of [shape, dtype] (dtype NULL: None). */
void rl_poperands(struct rl_res *, int key, int n,
    const struct rl_shape *const *s, const char *const *t);
/* Grouped GEMM pairs: a list of [[M, K], [K, N]], v 4 ints each. */
void rl_pgroups(struct rl_res *, int key, int n, const double *v);
/* A list of integers, "[1, 2]". */
void rl_pintlist(struct rl_res *, int key, const int64_t *v, int n);

/* dtypes */
int rl_bpe(const char *dtype);		/* bytes per element, or -1 */
const char *rl_prec(const char *dtype);	/* "bf16", ..., or NULL */

/*
 * Inductor's Triton kernels, for -p (triton.c): FLOPs, bytes, the
 * parameters' JSON object in r->js and TraceLens's dtype name in r->prec
 * (or NULL). 0, -1 with why set, or 1 when the name is not such a kernel.
 */
int rl_triton(const char *name, size_t n, const struct rl_args *,
    struct rl_res *r);
/* Is it the name of such a kernel? */
int rl_istriton(const char *name, size_t n);

/* Helpers for the models. */
double rl_prod(const struct rl_shape *);
const struct rl_shape *rl_dim(const struct rl_args *, int i);
const struct rl_shape *rl_stride(const struct rl_args *, int i);
const char *rl_type(const struct rl_args *, int i);
const char *rl_ci(const struct rl_args *, int i);
/* Parse "[1, 2]", "(1, 2)", "3" or "" into up to max ints: count, -1. */
int rl_intlist(const char *s, int64_t *v, int max);
int rl_truthy(const char *s);		/* "True", "true", "1" */
/* An output_mask, "[True, False, True]" (1 to 3 booleans), into mask:
 * the count, or -1 (mask untouched) when s is not one. */
int rl_outmask(const char *s, int *mask);
int rl_nonempty(const struct rl_shape *);
/* Entry i of input_dims, a shape of at least minn dims, or fail. */
const struct rl_shape *rl_needdim(const struct rl_args *, struct rl_res *,
    int i, int minn);
/* Dim j of input i (j < 0: from the end), or fail: 0, -1. */
int rl_dimat(const struct rl_args *, struct rl_res *, int i, int j,
    double *v);
/* Entry i of input_types, or fail. */
const char *rl_needtype(const struct rl_args *, struct rl_res *, int i);
/* Entry i of concrete_inputs, or fail. */
const char *rl_needci(const struct rl_args *, struct rl_res *, int i);
/* Entry i of concrete_inputs as a finite number, or fail: 0, -1. */
int rl_cinum(const struct rl_args *, struct rl_res *, int i, double *v);

/* Token i of d as text, a string unescaped, into dst (room for the
 * token and a NUL): its length. */
struct tl_jdoc;
size_t rl_jtext(const struct tl_jdoc *, int i, char *dst);

/* The families of models. */
int rl_gemm(int cls, const struct rl_args *, struct rl_res *);
int rl_sdpa(int cls, const struct rl_args *, struct rl_res *);
int rl_conv(int cls, const struct rl_args *, struct rl_res *);
/* The fused convolution with bias, forward or backward (conv.c). */
int rl_convbias(int bwd, const struct rl_args *, struct rl_res *);
int rl_unary(int cls, const struct rl_args *, struct rl_res *);
int rl_binary(int cls, const struct rl_args *, struct rl_res *);
int rl_norm(int cls, const struct rl_args *, struct rl_res *);
int rl_reduce(int cls, const struct rl_args *, struct rl_res *);
int rl_other(int cls, const struct rl_args *, struct rl_res *);
int rl_ext(int cls, const struct rl_args *, struct rl_res *);
int rl_jax(int cls, const struct rl_args *, struct rl_res *);
/* The SDPA FLOPs (sdpa.c). */
struct rl_qkv {
	double B, NQ, HQ, NKV, HKV, dqk, dv;
};
double rl_attn_fwdflop(const struct rl_qkv *, int causal);
double rl_attn_bwdflop(const struct rl_qkv *, int causal, int flash);
/* Its parameters B, N_Q, H_Q, N_KV, H_KV, d_h_qk, d_h_v. */
void rl_pqkv(struct rl_res *, const struct rl_qkv *);
/* The MoE models (moe.c), by variant. */
enum {
	MOE_FUSED1, MOE_BLOCKSCALE, MOE_AUP, MOE_ADOWN, MOE_CK1, MOE_CK2,
	MOE_FLY1, MOE_FLY2, MOE_GPTQ_UP, MOE_GPTQ_DOWN, MOE_INVOKE, MOE_TOPK,
	MOE_SORT, MOE_APPEND, MOE_DISPATCH, MOE_TRITON_UP, MOE_TRITON_DOWN
};
int rl_moe(int v, const struct rl_args *, struct rl_res *);
/* The inference attention models (attn.c), by variant. */
enum {
	ATT_BASE, ATT_VDIM, ATT_TILELANG, ATT_RAGGED, ATT_GLUON, ATT_SPARSE,
	ATT_GDN, ATT_V4_SWA, ATT_V4_CSA, ATT_V4_HCA
};
int rl_attn(int v, const struct rl_args *, struct rl_res *);
/* An extension class's TraceLens name. */
const char *rl_xname(int cls);
/* The parameters of a normalization: op_shape, dtype_in_out ([t,
 * None]), stride_input, stride_output (None), num_channels (C < 0:
 * -C as a float), has_bias, is_affine, is_training. */
void rl_pnormparams(struct rl_res *, const struct rl_shape *x,
    const char *t, const struct rl_shape *stride, double C, int bias,
    int affine, int training);

/* Model classes. */
enum {
	/* GEMM */
	C_MM, C_ADDMM, C_BMM, C_BADDBMM, C_SCALED_MM, C_TEV2, C_TE_GEMM_TS,
	C_VLLM_DQ,
	/* SDPA */
	C_SDPA_FLASH, C_SDPA_EFF, C_SDPA_CUDNN, C_FA_FWD, C_FA_BWD,
	C_FA_VARLEN_FWD, C_FA_VARLEN_BWD, C_AITER_FWD, C_AITER_BWD,
	C_AITER_MHA_BWD, C_FMHA_V3_FWD, C_FMHA_V3_BWD, C_FA3_FWD,
	C_AITER_MHA_FWD, C_FMHA_V3_WRAP_FWD,
	/* CONV */
	C_CONV, C_CONV_BWD,
	/* elementwise */
	C_UNARY, C_REPPAD, C_UPSAMPLE, C_BINARY,
	/* normalization */
	C_LN, C_BN, C_GN, C_IN, C_RMS, C_LN_BWD, C_BN_BWD, C_GN_BWD,
	C_IN_BWD, C_RMS_BWD,
	/* reduce */
	C_REDUCE,
	/* others */
	C_CAUSALCONV1D, C_ROPE, C_CE,
	/* XLA's ops (jax.c) */
	C_JAX_CONV, C_JAX_CONV_BWD, C_JAX_GEMM, C_JAX_TE, C_JAX_TE_BWD,
	/* the extension models of ext.c, in the order of its xcls */
	C_X0,
	C_X_AITER_RMS_NORM = C_X0, C_X_AITER_RMSNORM, C_X_AITER_RMSNORM_ADD,
	C_X_AITER_RMSNORM_DYNQ, C_X_AITER_RMSNORM_QUANT, C_X_VLLM_RMSNORM_GQ,
	C_X_VLLM_RMSNORM_ADD_GQ, C_X_VLLM_ADD_RMSNORM_PAD,
	C_X_FUSED_RMS_MXFP4, C_X_AR_RMSNORM, C_X_AR_RMSNORM_, C_X_CUSTOM_AR,
	C_X_CUSTOM_AR_QR, C_X_SGL_AR_REG, C_X_SGL_QR_AR, C_X_REDUCE_SCATTER,
	C_X_ALL_GATHER_REG, C_X_SGL_REG_ALL_GATHER, C_X_SILU_AND_MUL,
	C_X_SGL_SILU_AND_MUL, C_X_GELU_AND_MUL, C_X_GELU_TANH_AND_MUL,
	C_X_FLATTEN_MXFP4, C_X_MX_QUANT_MOE_SORT, C_X_SGL_MXFP4_QUANT,
	C_X_MXFP4_QUANT_MOE_SORT, C_X_PER_GROUP_FP4, C_X_PER_GROUP_QUANT,
	C_X_TRITON_GQ_FP8, C_X_QUANT_FP8, C_X_QUANT_MXFP4_DUAL,
	C_X_MIXED_SAMPLE, C_X_LIGER_SILU_MUL, C_X_MHC_POST, C_X_MHC_PRE_GEMM,
	C_X_MHC_PRE_BIG, C_X_MHC_FUSED, C_X_TOPK_SOFTPLUS,
	C_X_GEMM_A8W8_BLOCKSCALE, C_X_VLLM_UNQUANT_GEMM, C_X_BATCHED_A16WFP4,
	C_X_BATCHED_A8W8, C_X_GEMM_A16W16_ATOMIC, C_X_GEMM_A16W16,
	C_X_GEMM_A16W16_ASM, C_X_GEMM_AFP4WFP4, C_X_HIPBLASLT_FP8,
	C_X_HIPBLASLT_FP4, C_X_AITER_GEMM_A4W4,
	C_X_MOE_FUSED1, C_X_MOE_BLOCKSCALE, C_X_MOE_AUP, C_X_MOE_ADOWN,
	C_X_MOE_CK1, C_X_MOE_CK2, C_X_MOE_FLY1, C_X_MOE_FLY2, C_X_MOE_GPTQ_UP,
	C_X_MOE_GPTQ_DOWN, C_X_MOE_INVOKE, C_X_MOE_TOPK, C_X_MOE_SORT,
	C_X_MOE_APPEND, C_X_MOE_DISPATCH, C_X_MOE_COMBINE,
	C_X_ROPE_CACHED, C_X_SGL_ROTARY, C_X_QK_ROPE_CAT, C_X_QK_ROPE_CONCAT,
	C_X_STORE_CACHE, C_X_LN_MODULATE, C_X_LN_MODULATE_BWD, C_X_MAMBA,
	C_X_EVOFORMER, C_X_VLLM_UNIFIED, C_X_MHA_VARLEN, C_X_FMHA_V3_VARLEN,
	C_X_MHA_BATCH_PREFILL, C_X_MLA_DECODE, C_X_MLA_PREFILL, C_X_TILELANG,
	C_X_PA_RAGGED, C_X_PA_GLUON, C_X_PA_SPARSE, C_X_GDN, C_X_V4_SWA,
	C_X_V4_CSA, C_X_V4_HCA, C_X_GROUPED_GEMM, C_X_GROUPED_GEMM_VK,
	C_X_CONVBIAS, C_X_CONVBIASRELU, C_X_CONVBIAS_BWD, C_X_CONVBIASRELU_BWD,
	C_X_MOE_TRITON_UP, C_X_MOE_TRITON_DOWN,
	C_X1,
	NCLASS = C_X1
};

/* GPU architectures. */
#define RL_MAXSPEC 32
struct rl_arch {
	char *name;
	char *path;
	double mem_bw_gbps;		/* 0: unknown */
	int nspec;
	char *spec[RL_MAXSPEC];	/* "matrix_bf16", ... */
	double tflops[RL_MAXSPEC];
	int nmatch;
	char *match[8];
	int json;		/* read from TraceLens's JSON */
};

/* Load an arch file (tl-tsv(5) key/value/source, or TraceLens JSON). */
struct rl_arch *rl_arch_load(const char *path);
/* Find an arch by name in the share directory: NULL if there is none. */
struct rl_arch *rl_arch_byname(const char *name);
/* The arch whose match string is in the device name: NULL if none. */
struct rl_arch *rl_arch_bydevice(const char *device);
void rl_arch_free(struct rl_arch *);
/* The peak of a compute spec, or 0. */
double rl_arch_peak(const struct rl_arch *, const char *spec);
/* Write every arch file of the share directory as one table, or the
 * rows of arch a only: 0 or 1. */
int rl_arch_list(struct tl_out *, const struct rl_arch *a);

#endif
