/*
 * tl-roofline: what the two files of TraceLens's extension models share:
 * the table of classes and its formula kinds (ext.c, with the norms,
 * collectives, activations, quantization, sampling and mHC), and the
 * argument helpers that the GEMM, RoPE, DiT, Mamba, evoformer and
 * grouped-GEMM models (extmm.c) use too.
 */
#ifndef TL_ROOFLINE_EXT_H
#define TL_ROOFLINE_EXT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../common/mem.h"
#include "../../common/tsv.h"
#include "roof.h"

/* Formulas. */
enum {
	K_RMS, K_ARRMS, K_AR, K_GATHER, K_REGGATHER, K_GATED, K_MXQ,
	K_PGQ, K_TPGQ, K_QFP8, K_QMXDUAL, K_SAMPLE, K_LIGER, K_MHC, K_TOPK,
	K_GEMM, K_MOE, K_ROPE, K_LNMOD, K_MAMBA, K_EVO, K_ATTN, K_GGEMM,
	K_CONVBIAS
};

/* GEMM variants (v of K_GEMM). */
enum {
	G_BLOCKSCALE, G_UNQUANT, G_B16WFP4, G_BA8W8, G_ATOMIC, G_A16W16, G_ASM,
	G_AFP4, G_HIPFP8, G_HIPFP4, G_A4W4
};

/*
 * A class: its formula, x the main input, c the input whose dim 0 is
 * the channels (K_RMS, K_ARRMS) or the output (K_GATHER), v the variant
 * or the FLOPs per element, q the concrete input of a group size or pad
 * (-1: none), s: x's stride is required (1), not read (0); need:
 * RL_NEED_* what else it reads.
 */
struct xcls {
	const char *name;
	signed char kind, x, c, v, q, s, need;
};

extern const struct xcls xcls[];
int needstride(const struct rl_args *a, struct rl_res *r, int i, const struct rl_shape **s);
int needbpe(struct rl_res *r, const char *t, double *bpe);
int ciint(const struct rl_args *a, int i, int64_t *v);
const char *typeor(const struct rl_args *a, int i, const char *dflt);
int rms(const struct xcls *X, const struct rl_args *a, struct rl_res *r);
int coll(const struct xcls *X, const struct rl_args *a, struct rl_res *r);
int unary(const struct xcls *X, const struct rl_args *a, struct rl_res *r);
int pgq(const struct rl_args *a, struct rl_res *r);
int tpgq(const struct xcls *X, const struct rl_args *a, struct rl_res *r);
int sample(const struct rl_args *a, struct rl_res *r);
int mhc(const struct xcls *X, const struct rl_args *a, struct rl_res *r);
int pybool(const char *s);
double dbpe(const char *t);

#endif
