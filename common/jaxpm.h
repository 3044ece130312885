/*
 * The perf models of JAX's XLA ops (jax-xplane spec 8): a convolution,
 * a GEMM and Transformer Engine's fused attention, from the shapes of
 * the HLO instruction. One set of formulas for tl-jax's op_ sheets and
 * tl-roofline's rows of an XPlane profile's XLA ops; and the JAX kernel
 * categories, for tl-jax's sheets and tl-agg's XLA ops.
 */
#ifndef TL_JAXPM_H
#define TL_JAXPM_H

#include <stddef.h>
#include <stdint.h>

#define TL_XMAXD	8

/* An XLA array shape, "dtype[d0,d1,...]{minor_to_major}". */
struct tl_xshape {
	char type[24];
	int64_t d[TL_XMAXD], lay[TL_XMAXD];
	int nd, nl;
};

/*
 * The JAX kernel category of a kernel's or an instruction's name s[0..n),
 * by the first keyword it holds (jax-xplane spec 5.4): TL_JAX_GEMM, FA
 * backward, FA forward, FA v3, convolution, Transformer Engine,
 * communication; -1 for none.
 */
enum { TL_JAX_GEMM, TL_JAX_FABWD, TL_JAX_FAFWD, TL_JAX_FAV3, TL_JAX_CONV,
	TL_JAX_TE, TL_JAX_COMM, TL_JAX_NCAT };
int tl_jax_kcat(const char *s, size_t n);

/* The first array shape in s[0..n) (a tuple's first member): 0, -1. */
int tl_xshape_parse(const char *s, size_t n, struct tl_xshape *);
/* Bytes per element of a dtype as TraceLens's JAX models know it:
 * f32 4, f16 and bf16 2, f8* and fp8* 1, else 0. */
int tl_xbpe(const char *type);

/*
 * A convolution (__cudnn$conv*): x = op[0], the filter op[1] (forward)
 * or the output (backward), a bias when there are 3 operands. With
 * tracelens, the filter is its spatial dims only, as TraceLens has it
 * (its FLOPs leave out the input channels and the first spatial dim);
 * else the whole filter. w[0..nw) is the filter shape the formulas use.
 */
struct tl_jaxconv {
	int nx, nw, bias, bpe;
	int64_t w[TL_XMAXD];
	double flops, bytes;	/* bytes NaN: a dtype of unknown size */
};
int tl_jax_conv(const struct tl_xshape *op, int nop,
    const struct tl_xshape *out, int bwd, int tracelens,
    struct tl_jaxconv *);

/* Fused attention: q, k, v = op[0..3) in BSHD order. bpe 2 with
 * tracelens (TraceLens's default), else the dtype's. */
struct tl_jaxte {
	double B, NQ, HQ, NKV, HKV, dqk, dv;
	int bpe;
	double flops, bytes;
};
int tl_jax_te(const struct tl_xshape *op, int nop, int bwd, int tracelens,
    struct tl_jaxte *);

/* A GEMM custom call: op[0] the lhs, out the output (its first array),
 * cfg the backend config's text (beta, lhs_contracting_dimensions). */
struct tl_jaxgemm {
	double B, M, N, K, beta;
	int bpe;
	double flops, bytes;	/* bytes NaN: a dtype of unknown size */
};
int tl_jax_gemm(const struct tl_xshape *op, int nop,
    const struct tl_xshape *out, const char *cfg, struct tl_jaxgemm *);

#endif
