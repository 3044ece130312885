/*
 * tl-roofline: TraceLens's extension models of the inference kernels
 * (aiter, vLLM, SGLang, Primus): RMS norm with add, quantization or
 * padding, collectives, gated activations, group and MX quantization,
 * sampling, mHC, and MoE top-k. Each class is a row of xcls: where its
 * arguments are and which formula it uses; the formulas are below, one
 * case each. n is the product of the main tensor's dims, bpe its dtype's
 * size, M = n // C the rows of an RMS norm of C channels:
 *
 *	RMS = (n / C) (2 C + 2) + 2 n, bytes 2 n bpe + C bpe, plus
 *	    add: n FLOPs, 2 n bpe; dynamic quant: 2 n, n bpe less, n + 4 M;
 *	    group quant: the same with 4 M ceil(C / gs) scales; pad: n,
 *	    M n_out bpe + M C bpe
 *	all-reduce + RMS = n + (n // C)(2 C + 2) + 2 n, 4 n bpe + C bpe
 *	all-reduce: 0, 2 n bpe; gather, scatter: 0, (n_in + n_out) bpe
 *	gated activation: k n (silu 5, gelu 8, gelu tanh 10),
 *	    2 n bpe_in + n bpe_out
 *	MX quant: 2 n, n bpe + n / 2 + n // 32
 *	per-group quant: 2.59375 n_out, n_out bpe_out + n_in bpe_in + scales
 */
#include "ext.h"

#include "roof.h"

/* RMS variants (v of K_RMS). */
enum { R_PLAIN, R_ADD, R_DYNQ, R_QUANT, R_GQ, R_ADDGQ, R_PAD, R_MXFP4 };

const struct xcls xcls[] = {
	[C_X_AITER_RMS_NORM - C_X0] = { "aiter_rms_norm", K_RMS, 0, 1,
	    R_PLAIN, -1, 1 },
	[C_X_AITER_RMSNORM - C_X0] = { "aiter_rmsnorm", K_RMS, 1, 2, R_PLAIN,
	    -1, 1 },
	[C_X_AITER_RMSNORM_ADD - C_X0] = { "aiter_rmsnorm2d_fwd_with_add_ck",
	    K_RMS, 1, 4, R_ADD, -1, 1 },
	[C_X_AITER_RMSNORM_DYNQ - C_X0] = {
	    "aiter_rmsnorm2d_fwd_with_dynamicquant_ck", K_RMS, 1, 3, R_DYNQ,
	    -1, 1 },
	[C_X_AITER_RMSNORM_QUANT - C_X0] = { "aiter_rmsnorm_quant", K_RMS, 1,
	    3, R_QUANT, 5, 1 },
	[C_X_VLLM_RMSNORM_GQ - C_X0] = {
	    "vllm_rocm_aiter_rmsnorm_fp8_group_quant", K_RMS, 0, 1, R_GQ, 3,
	    1 },
	[C_X_VLLM_RMSNORM_ADD_GQ - C_X0] = {
	    "vllm_rocm_aiter_rmsnorm_with_add_fp8_group_quant", K_RMS, 0, 2,
	    R_ADDGQ, 4, 1 },
	[C_X_VLLM_ADD_RMSNORM_PAD - C_X0] = {
	    "vllm_rocm_aiter_triton_add_rmsnorm_pad", K_RMS, 0, 1, R_PAD, 4,
	    1 },
	[C_X_FUSED_RMS_MXFP4 - C_X0] = { "fused_rms_mxfp4_quant", K_RMS, 0, 1,
	    R_MXFP4, -1, 1 },
	[C_X_AR_RMSNORM - C_X0] = { "aiter_fused_allreduce_rmsnorm", K_ARRMS,
	    2, 6, 0, -1, 1 },
	[C_X_AR_RMSNORM_ - C_X0] = { "aiter_fused_allreduce_rmsnorm_",
	    K_ARRMS, 0, 2, 0, -1, 1 },
	[C_X_CUSTOM_AR - C_X0] = { "custom_ar_all_reduce", K_AR, 1, -1, 0, -1,
	    1 },
	[C_X_CUSTOM_AR_QR - C_X0] = { "custom_ar_qr_all_reduce", K_AR, 1, -1,
	    0, -1, 1 },
	[C_X_SGL_AR_REG - C_X0] = { "sgl_kernel_all_reduce_reg", K_AR, 1, -1,
	    0, -1, 1 },
	[C_X_SGL_QR_AR - C_X0] = { "sgl_kernel_qr_all_reduce", K_AR, 1, -1, 0,
	    -1, 1 },
	[C_X_REDUCE_SCATTER - C_X0] = { "aiter_reduce_scatter", K_GATHER, 1,
	    2, 0, -1, 1 },
	[C_X_ALL_GATHER_REG - C_X0] = { "aiter_all_gather_reg", K_GATHER, 1,
	    2, 0, -1, 1 },
	[C_X_SGL_REG_ALL_GATHER - C_X0] = {
	    "sgl_kernel_reg_all_gather_into_tensor", K_REGGATHER, 1, 0, 0, -1,
	    0 },
	[C_X_SILU_AND_MUL - C_X0] = { "aiter_silu_and_mul", K_GATED, 0, -1, 5,
	    -1, 1 },
	[C_X_SGL_SILU_AND_MUL - C_X0] = { "sgl_kernel_silu_and_mul", K_GATED,
	    0, -1, 5, -1, 1 },
	[C_X_GELU_AND_MUL - C_X0] = { "aiter_gelu_and_mul", K_GATED, 0, -1, 8,
	    -1, 1 },
	[C_X_GELU_TANH_AND_MUL - C_X0] = { "aiter_gelu_tanh_and_mul", K_GATED,
	    0, -1, 10, -1, 1 },
	[C_X_FLATTEN_MXFP4 - C_X0] = { "fused_flatten_mxfp4_quant", K_MXQ, 0,
	    -1, 0, -1, 1 },
	[C_X_MX_QUANT_MOE_SORT - C_X0] = {
	    "fused_dynamic_mx_quant_moe_sort_hip", K_MXQ, 2, -1, 0, -1, 1 },
	[C_X_SGL_MXFP4_QUANT - C_X0] = { "sglang_quant_dynamic_mxfp4_quant",
	    K_MXQ, 0, -1, 0, -1, 0 },
	[C_X_MXFP4_QUANT_MOE_SORT - C_X0] = {
	    "aiter_fused_dynamic_mxfp4_quant_moe_sort_hip", K_MXQ, 2, -1, 0,
	    -1, 0 },
	[C_X_PER_GROUP_FP4 - C_X0] = {
	    "aiter_dynamic_per_group_scaled_quant_fp4", K_MXQ, 1, -1, 0, -1,
	    0 },
	[C_X_PER_GROUP_QUANT - C_X0] = { "per_group_quant", K_PGQ, 0, -1, 0,
	    -1, 1 },
	[C_X_TRITON_GQ_FP8 - C_X0] = { "vllm_triton_per_token_group_quant_fp8",
	    K_TPGQ, 0, -1, 0, 1, 0 },
	[C_X_QUANT_FP8 - C_X0] = { "primus_turbo_quantize_fp8", K_QFP8, 0, -1,
	    0, -1, 0 },
	[C_X_QUANT_MXFP4_DUAL - C_X0] = { "primus_turbo_quantize_mxfp4_dual",
	    K_QMXDUAL, 0, -1, 0, -1, 0 },
	[C_X_MIXED_SAMPLE - C_X0] = { "mixed_sample_outer_exponential",
	    K_SAMPLE, 1, -1, 0, -1, 0 },
	[C_X_LIGER_SILU_MUL - C_X0] = { "liger_silu_mul_function", K_LIGER, 0,
	    -1, 0, -1, 1 },
	[C_X_MHC_POST - C_X0] = { "mhc_post", K_MHC, 1, -1, 0, -1, 0 },
	[C_X_MHC_PRE_GEMM - C_X0] = { "mhc_pre_gemm_sqrsum", K_MHC, 2, -1, 1,
	    -1, 0 },
	[C_X_MHC_PRE_BIG - C_X0] = { "mhc_pre_big_fuse_rmsnorm", K_MHC, 2, -1,
	    2, -1, 0 },
	[C_X_MHC_FUSED - C_X0] = { "mhc_fused_post_pre_gemm_sqrsum", K_MHC, 3,
	    -1, 3, -1, 0 },
	[C_X_TOPK_SOFTPLUS - C_X0] = { "topk_softplus", K_TOPK, 2, -1, 0, -1,
	    0 },
	[C_X_GEMM_A8W8_BLOCKSCALE - C_X0] = { "gemm_a8w8_blockscale", K_GEMM,
	    0, 1, G_BLOCKSCALE, -1, 0 },
	[C_X_VLLM_UNQUANT_GEMM - C_X0] = { "vllm_rocm_unquantized_gemm", K_GEMM,
	    0, 1, G_UNQUANT, -1, 0 },
	[C_X_BATCHED_A16WFP4 - C_X0] = { "batched_gemm_a16wfp4", K_GEMM, 0, 1,
	    G_B16WFP4, -1, 0 },
	[C_X_BATCHED_A8W8 - C_X0] = { "batched_gemm_a8w8", K_GEMM, 0, 1,
	    G_BA8W8, -1, 0 },
	[C_X_GEMM_A16W16_ATOMIC - C_X0] = { "gemm_a16w16_atomic_", K_GEMM, 0,
	    1, G_ATOMIC, -1, 0 },
	[C_X_GEMM_A16W16 - C_X0] = { "gemm_a16w16", K_GEMM, 0, 1, G_A16W16,
	    -1, 0 },
	[C_X_GEMM_A16W16_ASM - C_X0] = { "gemm_a16w16_asm", K_GEMM, 0, 1,
	    G_ASM, -1, 0 },
	[C_X_GEMM_AFP4WFP4 - C_X0] = { "gemm_afp4wfp4", K_GEMM, 0, 1, G_AFP4,
	    -1, 0 },
	[C_X_HIPBLASLT_FP8 - C_X0] = { "hipblaslt_gemm_fp8", K_GEMM, 0, 2,
	    G_HIPFP8, -1, 0 },
	[C_X_HIPBLASLT_FP4 - C_X0] = { "hipblaslt_gemm_fp4", K_GEMM, 0, 2,
	    G_HIPFP4, -1, 0 },
	[C_X_AITER_GEMM_A4W4 - C_X0] = { "aiter_gemm_a4w4", K_GEMM, 0, 1,
	    G_A4W4, -1, 0 },
	[C_X_MOE_FUSED1 - C_X0] = { "moe_aiter_fused_1stage", K_MOE, 0, 0,
	    MOE_FUSED1, -1, 0 },
	[C_X_MOE_BLOCKSCALE - C_X0] = { "moe_aiter_fused_blockscale", K_MOE,
	    0, 0, MOE_BLOCKSCALE, -1, 0 },
	[C_X_MOE_AUP - C_X0] = { "moe_aiter_unfused_up", K_MOE, 0, 0, MOE_AUP,
	    -1, 0 },
	[C_X_MOE_ADOWN - C_X0] = { "moe_aiter_unfused_down", K_MOE, 0, 0,
	    MOE_ADOWN, -1, 0 },
	[C_X_MOE_CK1 - C_X0] = { "moe_aiter_ck_stage1", K_MOE, 0, 0, MOE_CK1,
	    -1, 0 },
	[C_X_MOE_CK2 - C_X0] = { "moe_aiter_ck_stage2", K_MOE, 0, 0, MOE_CK2,
	    -1, 0 },
	[C_X_MOE_FLY1 - C_X0] = { "moe_flydsl_stage1", K_MOE, 0, 0, MOE_FLY1,
	    -1, 0 },
	[C_X_MOE_FLY2 - C_X0] = { "moe_flydsl_stage2", K_MOE, 0, 0, MOE_FLY2,
	    -1, 0 },
	[C_X_MOE_GPTQ_UP - C_X0] = { "moe_gptq_awq_up", K_MOE, 0, 0,
	    MOE_GPTQ_UP, -1, 0, RL_NEED_ARGS },
	[C_X_MOE_GPTQ_DOWN - C_X0] = { "moe_gptq_awq_down", K_MOE, 0, 0,
	    MOE_GPTQ_DOWN, -1, 0, RL_NEED_ARGS },
	[C_X_MOE_INVOKE - C_X0] = { "moe_triton_invoke_grouped_gemm", K_MOE, 0,
	    0, MOE_INVOKE, -1, 0 },
	[C_X_MOE_TOPK - C_X0] = { "BiasedGroupedTopk", K_MOE, 0, 0, MOE_TOPK,
	    -1, 0 },
	[C_X_MOE_SORT - C_X0] = { "MoeSortScatterGather", K_MOE, 0, 0,
	    MOE_SORT, -1, 0 },
	[C_X_MOE_APPEND - C_X0] = { "sglang_fused_append_shared_experts",
	    K_MOE, 0, 0, MOE_APPEND, -1, 0 },
	[C_X_MOE_DISPATCH - C_X0] = { "moe_dispatch", K_MOE, 0, 0,
	    MOE_DISPATCH, -1, 0 },
	[C_X_MOE_COMBINE - C_X0] = { "moe_combine", K_MOE, 0, 0, MOE_DISPATCH,
	    -1, 0 },
	[C_X_ROPE_CACHED - C_X0] = { "aiter_rope_cached_positions_2c_fwd_impl",
	    K_ROPE, 2, 3, 0, -1, 0 },
	[C_X_SGL_ROTARY - C_X0] = { "sgl_kernel_rotary_embedding", K_ROPE, 1,
	    2, 1, 3, 0 },
	[C_X_QK_ROPE_CAT - C_X0] = { "aiter_fused_qk_rope_cat_and_cache_mla",
	    K_ROPE, 0, 2, 2, -1, 0 },
	[C_X_QK_ROPE_CONCAT - C_X0] = { "fused_qk_rope_concat_and_cache_mla",
	    K_ROPE, 0, -1, 3, -1, 0 },
	[C_X_STORE_CACHE - C_X0] = { "sglang_store_cache", K_ROPE, 0, -1, 4,
	    -1, 0 },
	[C_X_LN_MODULATE - C_X0] = { "FusedLnModulate", K_LNMOD, 0, -1, 0, -1,
	    0 },
	[C_X_LN_MODULATE_BWD - C_X0] = { "FusedLnModulateBackward", K_LNMOD, 0,
	    -1, 1, -1, 0 },
	[C_X_MAMBA - C_X0] = { "mamba_ssd_fwd", K_MAMBA, 0, -1, 0, -1, 0 },
	[C_X_EVOFORMER - C_X0] = { "evoformer_attention", K_EVO, 0, -1, 0, -1,
	    0 },
	[C_X_VLLM_UNIFIED - C_X0] = { "vllm_unified_attention_with_output",
	    K_ATTN, 0, 0, ATT_BASE, -1, 0, RL_NEED_ANNOT },
	[C_X_MHA_VARLEN - C_X0] = { "mha_varlen_fwd", K_ATTN, 0, 0, ATT_BASE,
	    -1, 0, RL_NEED_ANNOT },
	[C_X_FMHA_V3_VARLEN - C_X0] = { "aiter_fmha_v3_varlen_fwd", K_ATTN, 0,
	    0, ATT_VDIM, -1, 0, RL_NEED_ANNOT },
	[C_X_MHA_BATCH_PREFILL - C_X0] = { "aiter_mha_batch_prefill", K_ATTN,
	    0, 0, ATT_VDIM, -1, 0, RL_NEED_ANNOT },
	[C_X_MLA_DECODE - C_X0] = { "mla_decode_fwd", K_ATTN, 0, 0, ATT_BASE,
	    -1, 0, RL_NEED_ANNOT },
	[C_X_MLA_PREFILL - C_X0] = { "pseudo_mla_prefill_fwd", K_ATTN, 0, 0,
	    ATT_VDIM, -1, 0, RL_NEED_ANNOT },
	[C_X_TILELANG - C_X0] = { "mla_tilelang_sparse_fwd", K_ATTN, 0, 0,
	    ATT_TILELANG, -1, 0, RL_NEED_ANNOT },
	[C_X_PA_RAGGED - C_X0] = { "aiter_paged_attention_ragged", K_ATTN, 0,
	    0, ATT_RAGGED, -1, 0, RL_NEED_ANNOT },
	[C_X_PA_GLUON - C_X0] = { "pa_decode_gluon", K_ATTN, 0, 0, ATT_GLUON,
	    -1, 0, RL_NEED_ANNOT },
	[C_X_PA_SPARSE - C_X0] = { "pa_sparse_prefill_opus_fwd", K_ATTN, 0, 0,
	    ATT_SPARSE, -1, 0 },
	[C_X_GDN - C_X0] = { "gdn_attention_core", K_ATTN, 0, 0, ATT_GDN, -1,
	    0, RL_NEED_ANNOT },
	[C_X_V4_SWA - C_X0] = { "pseudo_v4_paged_decode_swa", K_ATTN, 0, 0,
	    ATT_V4_SWA, -1, 0, RL_NEED_ANNOT | RL_NEED_ARGS },
	[C_X_V4_CSA - C_X0] = { "pseudo_v4_paged_decode_csa", K_ATTN, 0, 0,
	    ATT_V4_CSA, -1, 0, RL_NEED_ANNOT | RL_NEED_ARGS },
	[C_X_V4_HCA - C_X0] = { "pseudo_v4_paged_decode_hca", K_ATTN, 0, 0,
	    ATT_V4_HCA, -1, 0, RL_NEED_ANNOT | RL_NEED_ARGS },
	[C_X_GROUPED_GEMM - C_X0] = { "primus_turbo_grouped_gemm", K_GGEMM, 0,
	    1, 0, -1, 0 },
	[C_X_GROUPED_GEMM_VK - C_X0] = { "primus_turbo_grouped_gemm_variable_k",
	    K_GGEMM, 0, 1, 1, -1, 0 },
	[C_X_CONVBIAS - C_X0] = { "ConvBias_", K_CONVBIAS, 0, 0, 0, 0, 0,
	    RL_KEEP_FWD },
	[C_X_CONVBIASRELU - C_X0] = { "ConvBiasReLU_", K_CONVBIAS, 0, 0, 1, 0,
	    0, RL_KEEP_FWD },
	[C_X_CONVBIAS_BWD - C_X0] = { "ConvBias_Backward", K_CONVBIAS, 0, 0, 0,
	    1, 0, RL_NEED_FWD },
	[C_X_CONVBIASRELU_BWD - C_X0] = { "ConvBiasReLU_Backward", K_CONVBIAS,
	    0, 0, 1, 1, 0, RL_NEED_FWD },
	[C_X_MOE_TRITON_UP - C_X0] = { "moe_triton_unfused_up", K_MOE, 0, 0,
	    MOE_TRITON_UP, -1, 0, RL_NEED_ARGS | RL_NEED_KERNEL },
	[C_X_MOE_TRITON_DOWN - C_X0] = { "moe_triton_unfused_down", K_MOE, 0, 0,
	    MOE_TRITON_DOWN, -1, 0, RL_NEED_ARGS | RL_NEED_KERNEL },
};
_Static_assert(sizeof xcls / sizeof *xcls == C_X1 - C_X0,
    "a row per extension class");

const char *
rl_xname(int cls)
{
	return xcls[cls - C_X0].name;
}

int
rl_needs(int cls)
{
	/* a reduction's output dtype is in args */
	return cls >= C_X0 ? xcls[cls - C_X0].need :
	    cls == C_REDUCE || (cls >= C_JAX_CONV && cls <= C_JAX_TE_BWD) ?
	    RL_NEED_ARGS : 0;
}

int
rl_fwdpair(int cls)
{
	return xcls[cls - C_X0].v;
}

/*
 * Input i's stride into *s (NULL when it is not a list of integers).
 * TraceLens requires it: with --tracelens, fail when the op has none;
 * without, the FLOPs and bytes do not need it and *s is NULL.
 */
int
needstride(const struct rl_args *a, struct rl_res *r, int i,
    const struct rl_shape **s)
{
	*s = NULL;
	if (!rl_tracelens)
		*s = rl_stride(a, i);
	else if (!a->hasstrides)
		return rl_fail(r, "no input_strides");
	else if (i >= a->nstrides)
		return rl_fail(r, "input_strides has %d entries, the model "
		    "reads %d", a->nstrides, i + 1);
	else
		*s = rl_stride(a, i);
	return 0;
}

/* The size of dtype t, or fail: TraceLens multiplies None. */
int
needbpe(struct rl_res *r, const char *t, double *bpe)
{
	int b = rl_bpe(t);

	if (b <= 0)
		return rl_fail(r, "dtype \"%.40s\" has no size", t);
	*bpe = b;
	return 0;
}

/* Concrete input i as a positive integer (a group size, a pad): 1, 0
 * when it is not one (the caller decides), -1 when absent and required. */
int
ciint(const struct rl_args *a, int i, int64_t *v)
{
	const char *c = rl_ci(a, i);

	if (c == NULL)
		return 0;
	while (*c == ' ')
		c++;
	return tl_parse_i64(c, strlen(c), v) == 0;
}

/* The type of input i, or dflt when the op has fewer. */
const char *
typeor(const struct rl_args *a, int i, const char *dflt)
{
	const char *t = rl_type(a, i);

	return t != NULL ? t : dflt;
}

int
rms(const struct xcls *X, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *x, *st, *x2, *r1;
	const char *t;
	double n, C, M, bpe = 0, f, rmsf, b, n2 = 0, gs, nout;
	int64_t v;

	if ((x = rl_needdim(a, r, X->x, 0)) == NULL ||
	    (t = rl_needtype(a, r, X->x)) == NULL ||
	    needstride(a, r, X->x, &st) < 0 || rl_dimat(a, r, X->c, 0, &C) < 0)
		return -1;
	if (C <= 0)
		return rl_fail(r, "no channels");
	if (needbpe(r, t, &bpe) < 0)
		return -1;
	n = rl_prod(x);
	M = floor(n / C);
	f = rmsf = (n / C) * (2 * C + 2) + 2 * n;
	b = 2 * n * bpe + C * bpe;
	gs = C;
	if (X->q >= 0) {
		if (ciint(a, X->q, &v) && (v > 0 || X->v == R_PAD))
			gs = v > 0 ? (double)v : C;
		else if (X->v != R_QUANT)
			return rl_fail(r, "concrete_inputs[%d] is not a "
			    "positive integer", X->q);
	}
	switch (X->v) {
	case R_ADD:
		f += n;
		b += 2 * n * bpe;
		break;
	case R_DYNQ:
		f += 2 * n;
		b = n * bpe + C * bpe + n + 4 * M;
		break;
	case R_QUANT:
	case R_GQ:
		f += 2 * n;
		b = n * bpe + C * bpe + n + 4 * M * ceil(C / gs);
		break;
	case R_ADDGQ:
		f += 3 * n;
		b += n + n * bpe + 4 * M * ceil(C / gs);
		break;
	case R_PAD:
		f += n;
		nout = ceil(C / gs) * gs;
		b += M * nout * bpe + M * C * bpe;
		break;
	case R_MXFP4:
		x2 = rl_dim(a, 3);
		r1 = rl_dim(a, 6);
		b = n * bpe + C * bpe + 0.5 * n + floor(n / 32);
		if (r1 != NULL && r1->n == 2) {
			f += M * C;
			b += 2 * n * bpe;
		}
		if (x2 != NULL && x2->n == 2) {
			n2 = (double)x2->v[1];
			f += trunc(rmsf * (M * n2) / (n > 1 ? n : 1));
			b += 2 * M * n2 * bpe + n2 * bpe;
		}
		f += 2 * n;
		break;
	}
	rl_pnormparams(r, x, t, st, C, 0, 1, 0);
	r->flop = f;
	r->bytes = b;
	r->hasbytes = 1;
	r->prec = rl_prec(t);
	return 0;
}

/* The collectives: all-reduce with RMS norm, all-reduce, gathers. */
int
coll(const struct xcls *X, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *x, *o = NULL, *st = NULL;
	const char *t;
	double n, C = 0, bpe = 0;

	if ((x = rl_needdim(a, r, X->x, 0)) == NULL ||
	    (t = rl_needtype(a, r, X->kind == K_REGGATHER ? 0 : X->x)) ==
	    NULL || (X->s && needstride(a, r, X->x, &st) < 0) ||
	    (X->kind == K_ARRMS && rl_dimat(a, r, X->c, 0, &C) < 0) ||
	    ((X->kind == K_GATHER || X->kind == K_REGGATHER) &&
	    (o = rl_needdim(a, r, X->c, 0)) == NULL))
		return -1;
	if (X->kind == K_ARRMS && C <= 0)
		return rl_fail(r, "no channels");
	if (needbpe(r, t, &bpe) < 0)
		return -1;
	n = rl_prod(x);
	if (X->kind == K_REGGATHER)
		rl_pshape(r, P_OUT_SHAPE, o);
	rl_pshape(r, P_OP_SHAPE, x);
	if (X->kind == K_GATHER)
		rl_pshape(r, P_OUT_SHAPE, o);
	rl_pstr(r, P_DTYPE_IN, t);
	if (X->kind != K_REGGATHER)
		rl_pshape(r, P_STRIDE_INPUT, st);
	r->hasbytes = 1;
	switch (X->kind) {
	case K_ARRMS:
		rl_pnum(r, P_NUM_CHANNELS, C);
		r->flop = n + floor(n / C) * (2 * C + 2) + 2 * n;
		r->bytes = 4 * n * bpe + C * bpe;
		break;
	case K_AR:
		r->bytes = 2 * n * bpe;
		break;
	default:
		r->bytes = (n + rl_prod(o)) * bpe;
		break;
	}
	return 0;
}

/* Gated activations, MX quantization, quantize fp8 and mxfp4 dual. */
int
unary(const struct xcls *X, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *x, *si = NULL, *so = NULL;
	const char *ti, *to;
	double n, bi = 0, bo = 0, M, N;
	int gated = X->kind == K_GATED;

	if ((x = rl_needdim(a, r, X->x, X->kind == K_QMXDUAL ? 2 : 0)) ==
	    NULL || (ti = rl_needtype(a, r, gated ? 1 : X->x)) == NULL)
		return -1;
	if (X->kind == K_QMXDUAL && x->n != 2)
		return rl_fail(r, "input_dims[0] has %d dims, not 2", x->n);
	if (gated) {
		if ((to = rl_needtype(a, r, 0)) == NULL ||
		    needstride(a, r, 1, &si) < 0 ||
		    needstride(a, r, 0, &so) < 0 || needbpe(r, ti, &bi) < 0 ||
		    needbpe(r, to, &bo) < 0)
			return -1;
	} else {
		to = X->kind == K_QFP8 ? "c10::Float8_e4m3fnuz" :
		    X->kind == K_QMXDUAL ? "c10::Float4_e2m1fn_x2" : ti;
		if (X->s && needstride(a, r, X->x, &si) < 0)
			return -1;
		if (X->kind == K_QFP8 || X->kind == K_QMXDUAL)
			si = rl_stride(a, X->x);
		bi = rl_bpe(ti);
	}
	n = rl_prod(x);
	rl_pshape(r, P_OP_SHAPE, x);
	rl_pstrs(r, P_DTYPE_IN_OUT, 2, ti, to);
	rl_pshape(r, P_STRIDE_INPUT, si);
	rl_pshape(r, P_STRIDE_OUTPUT, so);
	r->prec = rl_prec(ti);
	r->hasbytes = bi > 0;
	switch (X->kind) {
	case K_GATED:
		r->flop = X->v * n;
		r->bytes = 2 * n * bi + n * bo;
		break;
	case K_MXQ:
		r->flop = 2 * n;
		r->bytes = n * bi + 0.5 * n + floor(n / 32);
		break;
	case K_QFP8:
		r->flop = n;
		r->bytes = n * bi + n;
		break;
	default:
		M = (double)x->v[0];
		N = (double)x->v[1];
		r->flop = M * N;
		r->bytes = M * N * bi + 2 * floor((M * N + 1) / 2) +
		    M * ceil(N / 32) + N * ceil(M / 32);
		break;
	}
	return 0;
}

/* aiter's per-token / per-group quantization: (out, input, scales). */
int
pgq(const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *s[3], *st[3];
	const char *t[3];
	double bpe[3];
	int i;

	for (i = 0; i < 3; i++)
		if ((s[i] = rl_needdim(a, r, i, 0)) == NULL ||
		    (t[i] = rl_needtype(a, r, i)) == NULL ||
		    needstride(a, r, i, &st[i]) < 0)
			return -1;
	for (i = 0; i < 3; i++)
		if (needbpe(r, t[i], &bpe[i]) < 0)
			return -1;
	rl_pshape(r, P_SHAPE_IN1, s[1]);
	rl_pshape(r, P_SHAPE_IN2, s[2]);
	rl_pshape(r, P_SHAPE_OUT, s[0]);
	rl_pstrs(r, P_DTYPE_IN1_IN2_OUT, 3, t[1], t[2], t[0]);
	rl_pshape(r, P_STRIDE_INPUT1, st[1]);
	rl_pshape(r, P_STRIDE_INPUT2, st[2]);
	rl_pshape(r, P_STRIDE_OUTPUT, st[0]);
	r->flop = rl_prod(s[0]) * 2.59375;
	r->bytes = rl_prod(s[0]) * bpe[0] + rl_prod(s[1]) * bpe[1] +
	    rl_prod(s[2]) * bpe[2];
	r->hasbytes = 1;
	r->prec = rl_prec(t[1]);
	return 0;
}

/* vLLM's Triton per-token-group fp8 quantization. */
int
tpgq(const struct xcls *X, const struct rl_args *a, struct rl_res *r)
{
	static const struct rl_shape none = { .flat = 1 };
	const struct rl_shape *x = rl_dim(a, 0);
	const char *t = typeor(a, 0, "");
	double M = 1, N = 1, gs = 128, ng;
	int64_t v;
	int bpe;

	if (a->ndims > 0 && x == NULL)
		return rl_fail(r, "input_dims[0] is not a list of integers");
	if (x == NULL)
		x = &none;
	if (x->n >= 2)
		M = (double)x->v[0], N = (double)x->v[1];
	else if (x->n == 1)
		N = (double)x->v[0];
	if (ciint(a, X->q, &v) && v > 0)
		gs = (double)v;
	ng = ceil(N / gs);
	if (ng < 1)
		ng = 1;
	rl_pnum(r, P_M, M);
	rl_pnum(r, P_N, N);
	rl_pnum(r, P_GROUP_SIZE, gs);
	rl_pnum(r, P_NUM_GROUPS, ng);
	rl_pshape(r, P_SHAPE_X, x);
	rl_pstr(r, P_DTYPE_X, t);
	rl_pshape(r, P_SHAPE_IN1, x);
	rl_pboollist(r, P_SHAPE_IN2, 0, NULL);	/* [] */
	rl_pshape(r, P_SHAPE_OUT, x);
	rl_pstrs(r, P_DTYPE_IN1_IN2_OUT, 3, t, (char *)NULL,
	    "c10::float8_e4m3fn");
	rl_pstr(r, P_STRIDE_INPUT1, NULL);
	rl_pstr(r, P_STRIDE_INPUT2, NULL);
	rl_pstr(r, P_STRIDE_OUTPUT, NULL);
	bpe = rl_bpe(t);
	r->flop = 6 * M * N;
	r->bytes = M * N * bpe + M * N + 4 * M * ng;
	r->hasbytes = bpe > 0;
	r->prec = rl_prec(t);
	return 0;
}

/* aiter's mixed_sample_outer_exponential: (out, logits, noise). */
int
sample(const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *l = rl_dim(a, 1);
	const char *tl = a->ntypes > 1 ? a->types[1] : "c10::bfloat16";
	const char *tn = typeor(a, 2, "float");
	double T, V;
	int bl, bn;

	if (l == NULL)
		return rl_fail(r, "input_dims[1] is not a list of integers");
	T = l->n > 0 ? (double)l->v[0] : 1;
	V = l->n > 1 ? (double)l->v[1] : 1;
	rl_pnum(r, P_T, T);
	rl_pnum(r, P_V, V);
	rl_pstr(r, P_DTYPE_LOGITS, tl);
	rl_pstr(r, P_DTYPE_NOISE, tn);
	bl = rl_bpe(tl);
	bn = rl_bpe(tn);
	r->flop = 2 * T * V;
	r->bytes = T * V * bl + T * V * bn + 4 * T;
	r->hasbytes = bl > 0 && bn > 0;
	r->prec = rl_prec(tl);
	return 0;
}

/*
 * aiter's mHC kernels (v 0 post, 1 pre gemm sqrsum, 2 pre big fuse
 * rmsnorm, 3 fused post pre gemm sqrsum) and topk_softplus.
 */
int
mhc(const struct xcls *X, const struct rl_args *a, struct rl_res *r)
{
	/* where M (and C or n, C), n, hc3 and K, split_k, dtype are */
	static const signed char at[4][5] = {
		{ 1, 0, -1, -1, 1 }, { 2, -1, 3, 0, 2 }, { 2, 0, 6, 3, 7 },
		{ 3, 2, 7, 0, 3 }
	};
	const signed char *p = at[X->v];
	const struct rl_shape *s, *h = NULL, *k;
	const char *t;
	double M, n, C, hc3 = 0, K = 0, sk = 0, E, topk, bpe;
	int b;

	if (X->kind == K_TOPK) {
		if ((s = rl_needdim(a, r, 2, 2)) == NULL ||
		    (k = rl_needdim(a, r, 0, 2)) == NULL)
			return -1;
		t = typeor(a, 2, "c10::BFloat16");
		M = (double)s->v[0], E = (double)s->v[1];
		topk = (double)k->v[1];
		rl_pnum(r, P_M, M);
		rl_pint(r, P_LN, 1);
		rl_pnum(r, P_C, E);
		rl_pnum(r, P_E, E);
		rl_pnum(r, P_TOPK, topk);
		rl_pstr(r, P_DTYPE_IN, t);
		b = rl_bpe(t);
		r->flop = 6 * M * E;
		r->bytes = M * E * b + 4 * E + 8 * M * topk;
		r->hasbytes = b > 0;
		r->prec = rl_prec(t);
		return 0;
	}
	if ((s = rl_needdim(a, r, p[0], p[1] < 0 ? 3 : 2)) == NULL)
		return -1;
	if (p[1] < 0)
		M = (double)s->v[0], n = (double)s->v[1], C = (double)s->v[2];
	else {
		M = (double)s->v[0], C = (double)s->v[1];
		if ((k = rl_needdim(a, r, p[1], 2)) == NULL)
			return -1;
		n = (double)k->v[1];
	}
	if (p[2] >= 0 && (h = rl_needdim(a, r, p[2], X->v == 2 ? 1 : 2)) ==
	    NULL)
		return -1;
	if (h != NULL) {
		hc3 = (double)h->v[0];
		K = X->v == 2 ? 0 : (double)h->v[1];
	}
	if (p[3] >= 0 && X->v > 0 && rl_dimat(a, r, p[3], 0, &sk) < 0)
		return -1;
	t = typeor(a, p[4], "c10::BFloat16");
	rl_pnum(r, P_M, M);
	rl_pnum(r, P_LN, n);
	rl_pnum(r, P_C, C);
	if (h != NULL)
		rl_pnum(r, P_HC3, hc3);
	else
		rl_pstr(r, P_HC3, NULL);
	if (X->v == 1 || X->v == 3)
		rl_pnum(r, P_K, K);
	if (X->v > 0)
		rl_pnum(r, P_SPLIT_K, sk);
	rl_pstr(r, P_DTYPE_IN, t);
	b = rl_bpe(t);
	bpe = b;
	r->hasbytes = b > 0;
	r->prec = rl_prec(t);
	r->matrix = X->v == 1 || X->v == 3;
	switch (X->v) {
	case 0:
		r->flop = 2 * M * n * C * (n + 1);
		r->bytes = M * C * bpe + 2 * M * n * C * bpe + 4 * M * n +
		    4 * M * n * n;
		break;
	case 1:
		r->flop = 2 * M * hc3 * K;
		r->bytes = M * n * C * bpe + 4 * hc3 * K + 4 * sk * M * hc3 +
		    4 * sk * M;
		break;
	case 2:
		r->flop = 2 * M * C * n + 5 * M * C;
		r->bytes = M * n * C * bpe + 4 * sk * M * hc3 + C * bpe +
		    M * C * bpe + 4 * M * n + 4 * M * n * n;
		break;
	default:
		r->flop = 2 * M * n * C * (n + 1) + 2 * M * hc3 * K;
		r->bytes = M * C * bpe + 3 * M * n * C * bpe + 4 * M * n +
		    4 * M * n * n + 4 * hc3 * K + 4 * sk * M * hc3 + 4 * sk * M;
		break;
	}
	return 0;
}

/*
 * Python's bool of a trace string as TraceLens's parse_bool takes it:
 * "true" and "1" are true, "false", "0" and "" false, and with
 * --tracelens any other string is true; without, false.
 */
int
pybool(const char *s)
{
	while (s != NULL && *s == ' ')
		s++;
	if (s == NULL || *s == '\0' || strcasecmp(s, "false") == 0 ||
	    strcmp(s, "0") == 0)
		return 0;
	return rl_tracelens || rl_truthy(s);
}

/* The size of a dtype in bytes as a double, 0.5 for fp4; -1 unknown. */
double
dbpe(const char *t)
{
	return t == NULL ? -1 : rl_bpe(t);
}

