/*
 * tl-agg: TraceLens's op categories (categorize_torch_op), its test for
 * an op with a perf model (has_pm), and the classes of GPU events on the
 * GPU timeline (communication, memcpy, computation).
 *
 * The table is TraceLens's op table (PerfModel/torch_op_mapping.py and
 * tree_perf.py: 293 names, at TraceLens commit 171dd747), sorted by
 * name: the name,
 * its category, the category of its backward op (NULL for none), and
 * whether a perf model is registered for it. Among them, tl's own: the
 * custom-call targets of XLA's convolutions, GEMMs and Transformer
 * Engine's fused attention, which name the op rows of an XPlane profile
 * (tl-tsv(5)); the other XLA ops take their category from their kernel
 * and instruction names (xla_category).
 */
#define _GNU_SOURCE		/* memmem */
#include <stdlib.h>
#include <string.h>

#include "../../common/jaxpm.h"
#include "../../common/mem.h"
#include "agg.h"

static const struct opcat table[] = {
	{ "ConvBiasReLU_", "CONV_fwd", "CONV_bwd", 1 },
	{ "ConvBiasReLU_Backward", "CONV_bwd", "CONV_bwd", 1 },
	{ "ConvBias_", "CONV_fwd", "CONV_bwd", 1 },
	{ "ConvBias_Backward", "CONV_bwd", "CONV_bwd", 1 },
	{ "CrossEntropyFunction", "CrossEntropy_fwd", NULL, 1 },
	{ "CrossEntropyFunctionBackward", "CrossEntropy_bwd", NULL, 0 },
	{ "DaoAILab::_causal_conv1d_bwd_cpp", "SSM_bwd", NULL, 0 },
	{ "DaoAILab::_causal_conv1d_fwd_cpp", "SSM_fwd", NULL, 1 },
	{ "EvoformerAttention", "SDPA_fwd", "SDPA_bwd", 1 },
	{ "FlashAttnFunc", "SDPA_fwd", "SDPA_bwd", 1 },
	{ "FlashAttnFuncBackward", "SDPA_bwd", NULL, 0 },
	{ "FusedAttnFuncBackward", "SDPA_bwd", NULL, 0 },
	{ "FusedRoPEFunc", "RoPE_fwd", NULL, 1 },
	{ "FusedRoPEFuncBackward", "RoPE_bwd", NULL, 0 },
	{ "LigerSiLUMulFunction", "elementwise", NULL, 1 },
	{ "MambaSplitConv1dScanCombinedFn", "SSM_fwd", "SSM_bwd", 1 },
	{ "MambaSplitConv1dScanCombinedFnBackward", "SSM_bwd", NULL, 0 },
	{ "MoECombine", "MoE_comm_fwd", "MoE_comm_bwd", 1 },
	{ "MoECombineBackward", "MoE_comm_bwd", NULL, 0 },
	{ "MoEDispatch", "MoE_comm_fwd", "MoE_comm_bwd", 1 },
	{ "MoEDispatchBackward", "MoE_comm_bwd", NULL, 0 },
	{ "TokenPermuteMaskMap", "MoE_comm_fwd", NULL, 0 },
	{ "TokenPermuteMaskMapBackward", "MoE_comm_bwd", NULL, 0 },
	{ "_C::silu_and_mul", "elementwise", NULL, 1 },
	{ "_C_cache_ops::concat_and_cache_mla", "InferenceAttention", NULL, 0 },
	{ "_C_cache_ops::reshape_and_cache_flash",
	    "InferenceAttention", NULL, 0 },
	{ "_C_custom_ar::all_reduce", "CustomCollective", NULL, 1 },
	{ "_C_custom_ar::qr_all_reduce", "CustomCollective", NULL, 1 },
	{ "_LayerNormLinearBackward_wgrad_mm", "GEMM", NULL, 1 },
	{ "_LayerNormLinearBackward_xgrad_mm", "GEMM", NULL, 1 },
	{ "_LayerNormLinear_yfwd_mm", "GEMM", NULL, 1 },
	{ "_LinearBackward_wgrad_mm", "GEMM", NULL, 1 },
	{ "_LinearBackward_xgrad_mm", "GEMM", NULL, 1 },
	{ "_Linear_yfwd_mm", "GEMM", NULL, 1 },
	{ "_OperationFuserAutogradFunction", "MoE_comm_fwd", NULL, 0 },
	{ "_OperationFuserAutogradFunctionBackward", "MoE_comm_bwd", NULL, 0 },
	/* XLA's custom calls (the op rows of an XPlane profile): tl's */
	{ "__cublas$gemm", "GEMM", NULL, 1 },
	{ "__cublas$lt$matmul", "GEMM", NULL, 1 },
	{ "__cublas$lt$matmul$f8", "GEMM", NULL, 1 },
	{ "__cudnn$convBackwardFilter", "CONV_bwd", NULL, 1 },
	{ "__cudnn$convBackwardInput", "CONV_bwd", NULL, 1 },
	{ "__cudnn$convBiasActivationForward", "CONV_fwd", "CONV_bwd", 1 },
	{ "__cudnn$convForward", "CONV_fwd", "CONV_bwd", 1 },
	{ "_moe_C::moe_align_block_size", "MoE_aux", NULL, 0 },
	{ "aiter::_flash_attn_backward", "SDPA_bwd", "SDPA_bwd", 1 },
	{ "aiter::_flash_attn_forward", "SDPA_fwd", "SDPA_bwd", 1 },
	{ "aiter::_fuse_rmsnorm_fp4_quant", "RMSNorm", NULL, 1 },
	{ "aiter::_gemm_a16w16_asm", "GEMM", NULL, 1 },
	{ "aiter::_gemm_a4w4_asm", "GEMM", NULL, 1 },
	{ "aiter::_gemm_a8w8_blockscale_bpreshuffle_asm", "GEMM", NULL, 1 },
	{ "aiter::_groupnorm_run", "NORM_fwd", "NORM_bwd", 1 },
	{ "aiter::add_rmsnorm", "RMSNorm", NULL, 1 },
	{ "aiter::all_gather_reg", "CustomCollective", NULL, 1 },
	{ "aiter::allgather_lastdim<std::bfloat16_t, 2>(aiter::RankData*, a"
	    "iter::RankSignals, aiter::Signal*, std::bfloat16_t*, int, int, i"
	    "nt) (Synthetic Op)",
	    "CustomCollective", NULL, 0 },
	{ "aiter::allgather_lastdim<std::bfloat16_t, 4>(aiter::RankData*, a"
	    "iter::RankSignals, aiter::Signal*, std::bfloat16_t*, int, int, i"
	    "nt) (Synthetic Op)",
	    "CustomCollective", NULL, 0 },
	{ "aiter::batched_gemm_a16wfp4_", "GEMM", NULL, 1 },
	{ "aiter::biased_grouped_topk_hip", "MoE_aux", NULL, 1 },
	{ "aiter::ck_moe_stage1", "MoE_unfused", NULL, 1 },
	{ "aiter::ck_moe_stage2", "MoE_unfused", NULL, 1 },
	{ "aiter::dynamic_per_group_scaled_quant", "GroupQuant", NULL, 1 },
	{ "aiter::dynamic_per_group_scaled_quant_fp4", "GroupQuant", NULL, 1 },
	{ "aiter::dynamic_per_tensor_quant", "GroupQuant", NULL, 1 },
	{ "aiter::dynamic_per_token_scaled_quant", "GroupQuant", NULL, 1 },
	{ "aiter::flatmm_a8w8_blockscale_asm", "GEMM", NULL, 1 },
	{ "aiter::fmha_v3_fwd", "SDPA_fwd", "SDPA_bwd", 1 },
	{ "aiter::fmha_v3_varlen_fwd", "InferenceAttention", NULL, 1 },
	{ "aiter::fmoe_fp8_blockscale_g1u1", "MoE_fused", NULL, 1 },
	{ "aiter::fmoe_g1u1", "MoE_fused", NULL, 1 },
	{ "aiter::fused_add_rmsnorm_pad_", "RMSNorm", NULL, 1 },
	{ "aiter::fused_allreduce_rmsnorm", "CustomCollective", NULL, 1 },
	{ "aiter::fused_allreduce_rmsnorm_", "CustomCollective", NULL, 1 },
	{ "aiter::fused_dynamic_mx_quant_moe_sort_hip", "GroupQuant", NULL, 1 },
	{ "aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", "MoE_aux", NULL, 1 },
	{ "aiter::fused_moe_->_fused_dynamic_mxfp4_quant_moe_sort_kernel (S"
	    "ynthetic Op)",
	    "MoE_aux", NULL, 0 },
	{ "aiter::fused_qk_rope_cat_and_cache_mla", "RoPE_fwd", NULL, 1 },
	{ "aiter::fused_qk_rope_concat_and_cache_mla", "RoPE_fwd", NULL, 1 },
	{ "aiter::gelu_and_mul", "elementwise", NULL, 1 },
	{ "aiter::gelu_tanh_and_mul", "elementwise", NULL, 1 },
	{ "aiter::gemm_a16w16", "GEMM", NULL, 1 },
	{ "aiter::gemm_a16w16_atomic_", "GEMM", NULL, 1 },
	{ "aiter::gemm_a4w4", "GEMM", NULL, 1 },
	{ "aiter::gemm_a8w8_blockscale_bpreshuffle_ck", "GEMM", NULL, 1 },
	{ "aiter::gemm_a8w8_blockscale_bpreshuffle_cktile", "GEMM", NULL, 1 },
	{ "aiter::gemm_a8w8_blockscale_ck", "GEMM", NULL, 1 },
	{ "aiter::gemm_a8w8_blockscale_cktile", "GEMM", NULL, 1 },
	{ "aiter::gemm_a8w8_bpreshuffle", "GEMM", NULL, 1 },
	{ "aiter::gemm_a8w8_bpreshuffle_ck", "GEMM", NULL, 1 },
	{ "aiter::gemm_a8w8_ck", "GEMM", NULL, 1 },
	{ "aiter::gemm_afp4wfp4_", "GEMM", NULL, 1 },
	{ "aiter::get_mla_metadata_v1", "InferenceAttention", NULL, 0 },
	{ "aiter::gfx950_a8w8_blockscale_asm", "GEMM", NULL, 1 },
	{ "aiter::grouped_topk", "MoE_aux", NULL, 0 },
	{ "aiter::indexer_score_topk", "InferenceAttention", NULL, 0 },
	{ "aiter::linear_attention_with_output_base",
	    "InferenceAttention", NULL, 1 },
	{ "aiter::mha_batch_prefill", "InferenceAttention", NULL, 1 },
	{ "aiter::mha_bwd", "SDPA_bwd", "SDPA_bwd", 1 },
	{ "aiter::mha_fwd", "SDPA_fwd", "SDPA_bwd", 1 },
	{ "aiter::mha_varlen_fwd", "InferenceAttention", NULL, 1 },
	{ "aiter::mhc_fused_post_pre_gemm_sqrsum", "mHC", NULL, 1 },
	{ "aiter::mhc_post", "mHC", NULL, 1 },
	{ "aiter::mhc_pre_big_fuse_rmsnorm", "mHC", NULL, 1 },
	{ "aiter::mhc_pre_gemm_sqrsum", "mHC", NULL, 1 },
	{ "aiter::mixed_sample_outer_exponential", "elementwise", NULL, 1 },
	{ "aiter::moe_align_block_size", "MoE_aux", NULL, 0 },
	{ "aiter::moe_cktile2stages_gemm1_ck", "MoE_unfused", NULL, 1 },
	{ "aiter::moe_cktile2stages_gemm2_ck", "MoE_unfused", NULL, 1 },
	{ "aiter::moe_fused_gate", "MoE_aux", NULL, 0 },
	{ "aiter::moe_sorting_fwd", "MoE_aux", NULL, 1 },
	{ "aiter::moe_sorting_opus_fwd", "MoE_aux", NULL, 0 },
	{ "aiter::moe_sum", "MoE_aux", NULL, 0 },
	{ "aiter::mxfp4_moe_sort_hip", "MoE_aux", NULL, 1 },
	{ "aiter::pa_decode_gluon", "InferenceAttention", NULL, 1 },
	{ "aiter::pa_sparse_prefill_opus_fwd", "InferenceAttention", NULL, 1 },
	{ "aiter::reduce_scatter", "CustomCollective", NULL, 1 },
	{ "aiter::rms_norm", "RMSNorm", NULL, 1 },
	{ "aiter::rmsnorm", "RMSNorm", NULL, 1 },
	{ "aiter::rmsnorm2d_fwd_ck", "RMSNorm", NULL, 1 },
	{ "aiter::rmsnorm2d_fwd_with_add_ck", "RMSNorm", NULL, 1 },
	{ "aiter::rmsnorm2d_fwd_with_dynamicquant_ck", "RMSNorm", NULL, 1 },
	{ "aiter::rmsnorm_quant", "RMSNorm", NULL, 1 },
	{ "aiter::rope_cached_positions_2c_fwd_impl", "RoPE_fwd", NULL, 1 },
	{ "aiter::silu_and_mul", "elementwise", NULL, 1 },
	{ "aiter::topk_sigmoid", "MoE_aux", NULL, 0 },
	{ "aiter::topk_softmax", "MoE_aux", NULL, 0 },
	{ "aiter::topk_softmax_asm", "MoE_aux", NULL, 0 },
	{ "aiter::topk_softplus", "MoE_aux", NULL, 1 },
	{ "aiter::unified_attention_with_output_base->_fused_qk_rope_reshap"
	    "e_and_cache_kernel (Synthetic Op)",
	    "FusedRoPE", NULL, 0 },
	{ "aiter::v4_attention_with_output->_inverse_rope_gptj_kernel (Synt"
	    "hetic Op)",
	    "FusedRoPE", NULL, 0 },
	{ "aiter::v4_attention_with_output->_swa_write_kernel (Synthetic Op"
	    ")",
	    "InferenceAttention", NULL, 0 },
	{ "aiter::v4_attention_with_output->_update_compressor_states_kerne"
	    "l (Synthetic Op)",
	    "InferenceAttention", NULL, 0 },
	{ "aiter::v4_attention_with_output->fused_compress_attn_D128_RD64_R"
	    "4_OVL_SS8_KB32_Q_ue8m0_psh_rmsbf16_pf_flydsl (Synthetic Op)",
	    "InferenceAttention", NULL, 0 },
	{ "aiter::v4_attention_with_output->fused_compress_attn_D512_RD64_R"
	    "4_OVL_SS8_KB32_rmsbf16_pf_flydsl (Synthetic Op)",
	    "InferenceAttention", NULL, 0 },
	{ "aiter::v4_attention_with_output->hca_compress_forward_D512_R128_"
	    "NW4_SL256_S128_flydsl (Synthetic Op)",
	    "InferenceAttention", NULL, 0 },
	{ "aiter::v4_attention_with_output->hca_compress_forward_D512_R128_"
	    "NW8_SL128_S128_flydsl (Synthetic Op)",
	    "InferenceAttention", NULL, 0 },
	{ "aiter::v4_attention_with_output->hca_norm_rope_scatter_D512_RD64"
	    "_R128_KB1_rmsbf16_flydsl (Synthetic Op)",
	    "FusedRoPE", NULL, 0 },
	{ "aiter::v4_attention_with_output->qk_norm_rope_H32_D512_RD64_flyd"
	    "sl (Synthetic Op)",
	    "FusedRoPE", NULL, 0 },
	{ "aiter::v4_attention_with_output->qk_norm_rope_H64_D512_RD64_flyd"
	    "sl (Synthetic Op)",
	    "FusedRoPE", NULL, 0 },
	{ "aiter::wrapper_fmha_v3_bwd", "SDPA_bwd", "SDPA_bwd", 1 },
	{ "aiter::wrapper_fmha_v3_fwd", "SDPA_fwd", "SDPA_bwd", 1 },
	{ "aten::_efficient_attention_backward", "SDPA_bwd", NULL, 0 },
	{ "aten::_efficient_attention_forward", "SDPA_fwd", NULL, 0 },
	{ "aten::_fused_rms_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::_fused_rms_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::_scaled_dot_product_cudnn_attention",
	    "SDPA_fwd", "SDPA_bwd", 1 },
	{ "aten::_scaled_dot_product_cudnn_attention_backward",
	    "SDPA_bwd", NULL, 0 },
	{ "aten::_scaled_dot_product_efficient_attention",
	    "SDPA_fwd", "SDPA_bwd", 1 },
	{ "aten::_scaled_dot_product_efficient_attention_backward",
	    "SDPA_bwd", NULL, 0 },
	{ "aten::_scaled_dot_product_flash_attention",
	    "SDPA_fwd", "SDPA_bwd", 1 },
	{ "aten::_scaled_dot_product_flash_attention_backward",
	    "SDPA_bwd", NULL, 0 },
	{ "aten::_scaled_mm", "GEMM", NULL, 1 },
	{ "aten::add", "elementwise", NULL, 1 },
	{ "aten::add_", "elementwise", NULL, 1 },
	{ "aten::addmm", "GEMM", NULL, 1 },
	{ "aten::amax", "reduce", NULL, 1 },
	{ "aten::amin", "reduce", NULL, 1 },
	{ "aten::baddbmm", "GEMM", NULL, 1 },
	{ "aten::batch_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::batch_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::bmm", "GEMM", NULL, 1 },
	{ "aten::clamp_max", "elementwise", NULL, 1 },
	{ "aten::clamp_max_", "elementwise", NULL, 1 },
	{ "aten::clamp_min", "elementwise", NULL, 1 },
	{ "aten::clamp_min_", "elementwise", NULL, 1 },
	{ "aten::convolution", "CONV_fwd", "CONV_bwd", 1 },
	{ "aten::convolution_backward", "CONV_bwd", "CONV_bwd", 1 },
	{ "aten::copy", "elementwise", NULL, 1 },
	{ "aten::copy_", "elementwise", NULL, 1 },
	{ "aten::cudnn_batch_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::cudnn_batch_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::cudnn_convolution", "CONV_fwd", NULL, 0 },
	{ "aten::cudnn_group_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::cudnn_group_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::cudnn_instance_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::cudnn_instance_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::cudnn_layer_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::cudnn_layer_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::cudnn_rms_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::cumprod", "reduce", NULL, 1 },
	{ "aten::cumsum", "reduce", NULL, 1 },
	{ "aten::div", "elementwise", NULL, 1 },
	{ "aten::div_", "elementwise", NULL, 1 },
	{ "aten::group_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::group_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::instance_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::instance_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::layer_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::layer_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::linalg_norm", "reduce", NULL, 1 },
	{ "aten::logsumexp", "reduce", NULL, 1 },
	{ "aten::max", "reduce", NULL, 1 },
	{ "aten::mean", "reduce", NULL, 1 },
	{ "aten::min", "reduce", NULL, 1 },
	{ "aten::miopen_batch_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::miopen_batch_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::miopen_convolution", "CONV_fwd", NULL, 0 },
	{ "aten::miopen_group_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::miopen_group_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::miopen_instance_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::miopen_instance_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::miopen_layer_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::miopen_layer_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::miopen_rms_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::mm", "GEMM", NULL, 1 },
	{ "aten::mul", "elementwise", NULL, 1 },
	{ "aten::mul_", "elementwise", NULL, 1 },
	{ "aten::native_batch_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::native_batch_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::native_group_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::native_group_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::native_instance_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::native_instance_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::native_layer_norm", "NORM_fwd", "NORM_bwd", 1 },
	{ "aten::native_layer_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::native_rms_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::neg", "elementwise", NULL, 1 },
	{ "aten::norm", "reduce", NULL, 1 },
	{ "aten::pow", "elementwise", NULL, 1 },
	{ "aten::replication_pad1d", "elementwise", NULL, 1 },
	{ "aten::replication_pad2d", "elementwise", NULL, 1 },
	{ "aten::replication_pad3d", "elementwise", NULL, 1 },
	{ "aten::rms_norm_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "aten::rsqrt", "elementwise", NULL, 1 },
	{ "aten::sigmoid", "elementwise", NULL, 1 },
	{ "aten::sigmoid_backward", "elementwise", NULL, 1 },
	{ "aten::silu", "elementwise", NULL, 1 },
	{ "aten::std", "reduce", NULL, 1 },
	{ "aten::sum", "reduce", NULL, 1 },
	{ "aten::threshold_backward", "elementwise", NULL, 1 },
	{ "aten::upsample_nearest1d", "elementwise", NULL, 1 },
	{ "aten::upsample_nearest2d", "elementwise", NULL, 1 },
	{ "aten::upsample_nearest3d", "elementwise", NULL, 1 },
	{ "aten::var", "reduce", NULL, 1 },
	{ "bitsandbytes::int8_linear_matmul", "GEMM", NULL, 1 },
	{ "flash_attn::_flash_attn_backward", "SDPA_bwd", "SDPA_bwd", 1 },
	{ "flash_attn::_flash_attn_forward", "SDPA_fwd", "SDPA_bwd", 1 },
	{ "flash_attn::_flash_attn_varlen_backward",
	    "SDPA_bwd", "SDPA_bwd", 1 },
	{ "flash_attn::_flash_attn_varlen_forward", "SDPA_fwd", "SDPA_bwd", 1 },
	{ "flash_attn_3::fwd", "SDPA_fwd", "SDPA_bwd", 1 },
	{ "hipModuleLaunchKernel->kv_indices_generate_kernel (Synthetic Op)",
	    "InferenceAttention", NULL, 0 },
	{ "primus::fused_ln_modulate", "NORM_fwd", "NORM_bwd", 1 },
	{ "primus::fused_ln_modulate_backward", "NORM_bwd", "NORM_bwd", 1 },
	{ "primus::quantize_mxfp4_dual", "elementwise", NULL, 1 },
	{ "primus_turbo::grouped_gemm",
	    "GroupedGEMM_fwd", "GroupedGEMM_bwd", 1 },
	{ "primus_turbo::grouped_gemm_impl",
	    "GroupedGEMM_fwd", "GroupedGEMM_bwd", 1 },
	{ "primus_turbo::grouped_gemm_variable_k",
	    "GroupedGEMM_fwd", "GroupedGEMM_bwd", 1 },
	{ "primus_turbo::grouped_gemm_variable_k_impl",
	    "GroupedGEMM_fwd", "GroupedGEMM_bwd", 1 },
	{ "primus_turbo::hipblaslt_gemm_fp4", "GEMM", NULL, 1 },
	{ "primus_turbo::hipblaslt_gemm_fp8", "GEMM", NULL, 1 },
	{ "primus_turbo::quantize_fp8_tensorwise", "elementwise", NULL, 1 },
	{ "primus_turbo::quantize_mxfp4_dual", "elementwise", NULL, 1 },
	{ "primus_turbo_cpp_extension::ck_grouped_gemm",
	    "GroupedGEMM_fwd", "GroupedGEMM_bwd", 1 },
	{ "primus_turbo_cpp_extension::ck_grouped_gemm_variable_k",
	    "GroupedGEMM_fwd", "GroupedGEMM_bwd", 1 },
	{ "primus_turbo_cpp_extension::grouped_gemm",
	    "GroupedGEMM_fwd", "GroupedGEMM_bwd", 1 },
	{ "primus_turbo_cpp_extension::grouped_gemm_variable_k",
	    "GroupedGEMM_fwd", "GroupedGEMM_bwd", 1 },
	{ "primus_turbo_cpp_extension::hipblaslt_gemm_fp4", "GEMM", NULL, 1 },
	{ "primus_turbo_cpp_extension::hipblaslt_gemm_fp8", "GEMM", NULL, 1 },
	{ "primus_turbo_cpp_extension::quantize_fp8_tensorwise",
	    "elementwise", NULL, 1 },
	{ "primus_turbo_cpp_extension::quantize_mxfp4_dual",
	    "elementwise", NULL, 1 },
	{ "pseudo_mla_decode_fwd", "InferenceAttention", NULL, 1 },
	{ "pseudo_mla_prefill_fwd", "InferenceAttention", NULL, 1 },
	{ "pseudo_op::moe_aiter_fused_1stage", "MoE_fused", NULL, 1 },
	{ "pseudo_op::moe_flydsl_stage1", "MoE_unfused", NULL, 1 },
	{ "pseudo_op::moe_flydsl_stage2", "MoE_unfused", NULL, 1 },
	{ "pseudo_op::moe_gptq_awq_down", "MoE_unfused", NULL, 1 },
	{ "pseudo_op::moe_gptq_awq_up", "MoE_unfused", NULL, 1 },
	{ "pseudo_op::moe_triton_unfused_down", "MoE_unfused", NULL, 1 },
	{ "pseudo_op::moe_triton_unfused_up", "MoE_unfused", NULL, 1 },
	{ "pseudo_v4_paged_decode_csa", "InferenceAttention", NULL, 1 },
	{ "pseudo_v4_paged_decode_hca", "InferenceAttention", NULL, 1 },
	{ "pseudo_v4_paged_decode_swa", "InferenceAttention", NULL, 1 },
	{ "sgl_kernel::all_reduce_reg", "CustomCollective", NULL, 1 },
	{ "sgl_kernel::qr_all_reduce", "CustomCollective", NULL, 1 },
	{ "sgl_kernel::rotary_embedding", "RoPE_fwd", NULL, 1 },
	{ "sgl_kernel::silu_and_mul", "elementwise", NULL, 1 },
	{ "sglang::reg_all_gather_into_tensor", "CustomCollective", NULL, 1 },
	{ "sglang::store_cache", "InferenceAttention", NULL, 1 },
	{ "sglang_profiler::attention_paged_attention_ragged",
	    "InferenceAttention", NULL, 1 },
	{ "sglang_profiler::batched_gemm_a8w8_a_per_token_group_prequant_w_"
	    "per_batched_tensor_quant_batched_gemm_a8w8_a_per_token_group_pre"
	    "quant_w_per_batched_tensor_quant",
	    "GEMM", NULL, 1 },
	{ "sglang_profiler::fp8_utils_gemm_a8w8_blockscale", "GEMM", NULL, 1 },
	{ "sglang_profiler::fused_moe_triton_kernels_fused_append_shared_ex"
	    "perts",
	    "MoE_aux", NULL, 1 },
	{ "sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kerne"
	    "l",
	    "MoE_unfused", NULL, 1 },
	{ "sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant",
	    "GroupQuant", NULL, 1 },
	{ "sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant",
	    "RMSNorm", NULL, 1 },
	{ "sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale",
	    "GEMM", NULL, 1 },
	{ "sglang_profiler::gemm_kernels_flydsl_hgemm", "GEMM", NULL, 1 },
	{ "sglang_profiler::quant_dynamic_mxfp4_quant", "GroupQuant", NULL, 1 },
	{ "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
	    "InferenceAttention", NULL, 1 },
	{ "te_fused_attn_backward_ffi", "SDPA_bwd", NULL, 1 },
	{ "te_fused_attn_forward_ffi", "SDPA_fwd", "SDPA_bwd", 1 },
	{ "tex_ts::te_gemm_ts", "GEMM", NULL, 1 },
	{ "trtllm::cublas_scaled_mm", "GEMM", NULL, 1 },
	{ "vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm",
	    "GEMM", NULL, 1 },
	{ "vllm::gdn_attention_core", "InferenceAttention", NULL, 1 },
	{ "vllm::gemm_with_dynamic_quant", "GEMM", NULL, 1 },
	{ "vllm::rocm_aiter_rmsnorm_fp8_group_quant", "RMSNorm", NULL, 1 },
	{ "vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant",
	    "RMSNorm", NULL, 1 },
	{ "vllm::rocm_aiter_triton_add_rmsnorm_pad", "RMSNorm", NULL, 1 },
	{ "vllm::rocm_aiter_triton_gemm_a8w8_blockscale", "GEMM", NULL, 1 },
	{ "vllm::rocm_unquantized_gemm", "GEMM", NULL, 1 },
	{ "vllm::triton_per_token_group_quant_fp8", "GroupQuant", NULL, 1 },
	{ "vllm::unified_attention_with_output",
	    "InferenceAttention", NULL, 1 },
};

#define NTABLE	(sizeof table / sizeof *table)

const struct opcat *
opcat_find(const char *name, size_t n)
{
	size_t lo = 0, hi = NTABLE, mid, k;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		k = strlen(table[mid].name);
		c = memcmp(table[mid].name, name, k < n ? k : n);
		if (c == 0)
			c = (k > n) - (k < n);
		if (c < 0)
			lo = mid + 1;
		else if (c > 0)
			hi = mid;
		else
			return &table[mid];
	}
	return NULL;
}

/*
 * What the names (interned) are, found once per name and trace: the
 * sheets ask about the same few hundred names tens of thousands of
 * times. As an op: 0 not looked up yet, the entry's index + 2, or one
 * of OC_*; as a kernel: 0 not looked up yet, or its class (KC_*).
 */
enum {
	OC_NONE = 1,		/* not in the table, nor one of these: */
	OC_TRITONK = 0xfffd,	/* a Triton kernel op: triton_poi_, ... */
	OC_TRITON = 0xfffe,	/* another name starting with "triton" */
	OC_RECORD = 0xffff	/* record_param_comms... */
};
enum { KC_OTHER = 1, KC_ELEMENTWISE, KC_REDUCE, KC_MULTI };
struct namecache {
	uint16_t op;
	uint8_t kernel;
	uint8_t xla;		/* the name of an XLA op row */
};

static int prefix(const char *, size_t, const char *);

static struct namecache *
namecache(uint32_t id)
{
	xgrowz(&A->ncache, &A->capncache, (size_t)id + 1, sizeof *A->ncache);
	return &A->ncache[id];
}

static unsigned
ocode(uint32_t id)
{
	struct namecache *c = namecache(id);
	const struct opcat *o;
	const char *s;
	size_t n;

	if (c->op == 0) {
		s = agg_str(id, &n);
		if ((o = opcat_find(s, n)) != NULL)
			c->op = (uint16_t)(o - table + 2);
		else if (prefix(s, n, "triton_poi_") ||
		    prefix(s, n, "triton_red_") ||
		    prefix(s, n, "triton_per_"))
			c->op = OC_TRITONK;
		else if (prefix(s, n, "triton"))
			c->op = OC_TRITON;
		else if (prefix(s, n, "record_param_comms"))
			c->op = OC_RECORD;
		else
			c->op = OC_NONE;
	}
	return c->op;
}

/* The category a first kernel gives an op (categorize_torch_op). */
static unsigned
kcode(uint32_t id)
{
	struct namecache *c = namecache(id);
	const char *s;
	size_t n;

	if (c->kernel == 0) {
		s = agg_str(id, &n);
		c->kernel = KC_OTHER;
		if (prefix(s, n, "void at::native")) {
			if (has(s, n, "elementwise"))
				c->kernel = KC_ELEMENTWISE;
			else if (has(s, n, "reduce"))
				c->kernel = KC_REDUCE;
			else if (has(s, n, "multi_tensor_apply"))
				c->kernel = KC_MULTI;
		}
	}
	return c->kernel;
}

const struct opcat *
opcat_id(uint32_t id)
{
	unsigned c = ocode(id);

	return c < 2 || c >= OC_TRITONK ? NULL : &table[c - 2];
}

static int
prefix(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);

	return n >= k && memcmp(s, p, k) == 0;
}

int
hasci(const char *s, size_t n, const char *w)
{
	size_t i, j, k = strlen(w);

	for (i = 0; i + k <= n; i++) {
		for (j = 0; j < k; j++)
			if ((s[i + j] >= 'A' && s[i + j] <= 'Z' ?
			    s[i + j] | 0x20 : s[i + j]) != w[j])
				break;
		if (j == k)
			return 1;
	}
	return 0;
}

int
has(const char *s, size_t n, const char *w)
{
	return memmem(s, n, w, strlen(w)) != NULL;
}

/*
 * The perf-model test of TraceLens: a registered model, or a Triton
 * kernel op (triton_poi_, triton_red_, triton_per_) whose arguments
 * carry dims, types and concrete inputs, one of them an integer.
 */
int
has_model(uint32_t i)
{
	const struct ev *e = &A->e[i];
	const struct opcat *c;
	const char *s, *p;
	size_t n, k;

	if ((c = opcat_id(e->name)) != NULL)
		return c->model;
	if (ocode(e->name) != OC_TRITONK)
		return 0;
	if (ev_arg(e, 0) == NONE || ev_arg(e, 1) == NONE ||
	    ev_arg(e, 3) == NONE)
		return 0;
	/* A string of digits among the concrete inputs. */
	s = agg_str(ev_arg(e, 3), &n);
	for (p = s; (p = memchr(p, '"', (size_t)(s + n - p))) != NULL;) {
		p++;
		k = 0;
		if (p < s + n && *p == '-')
			p++;
		while (p + k < s + n && p[k] >= '0' && p[k] <= '9')
			k++;
		if (k > 0 && p + k < s + n && p[k] == '"')
			return 1;
		p = memchr(p, '"', (size_t)(s + n - p));
		if (p == NULL)
			break;
		p++;
	}
	return 0;
}

void
agg_xlaop(uint32_t name)
{
	namecache(name)->xla = 1;
}

/*
 * The JAX kernel categories (TraceLens's, jax-xplane spec 5.4): by the
 * kernel's name, else by the instruction's (but an attention kernel
 * keeps its own), as tl-agg names them.
 */
static const char *
xla_category(uint32_t name, uint32_t firstkernel)
{
	static const char *const cat[TL_JAX_NCAT] = { "GEMM", "SDPA_bwd",
		"SDPA_fwd", "SDPA_fwd", "CONV_fwd", "TE", "communication" };
	const char *s;
	size_t n;
	int k = -1, h;

	if (firstkernel != NONE) {
		s = agg_str(A->e[firstkernel].name, &n);
		k = tl_jax_kcat(s, n);
	}
	if (k < 1 || k > 3) {
		s = agg_str(name, &n);
		if ((h = tl_jax_kcat(s, n)) >= 0)
			k = h;
	}
	return k >= 0 ? cat[k] : "other";
}

const char *
categorize(uint32_t name, uint32_t firstkernel)
{
	const struct opcat *c;

	if ((c = opcat_id(name)) != NULL)
		return c->cat;
	if (namecache(name)->xla)
		return xla_category(name, firstkernel);
	switch (ocode(name)) {
	case OC_TRITONK:
	case OC_TRITON:
		return "triton";
	case OC_RECORD:
		return "record_param_comms";
	}
	if (firstkernel != NONE)
		switch (kcode(A->e[firstkernel].name)) {
		case KC_ELEMENTWISE:
			return "elementwise";
		case KC_REDUCE:
			return "reduce";
		case KC_MULTI:
			return "multi_tensor_apply";
		}
	return "other";
}

/* s is p, optionally followed by ".kd". */
static int
kd(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);

	if (n == k + 3 && memcmp(s + k, ".kd", 3) == 0)
		n = k;
	return n == k && memcmp(s, p, k) == 0;
}

int
gpu_class(const char *s, size_t n, int kind)
{
	if (kind == TL_K_MEMCPY)
		return G_MEMCPY;
	if (kind == TL_K_KERNEL) {
		if (kd(s, n, "MEMORY_COPY_HOST_TO_DEVICE") ||
		    kd(s, n, "MEMORY_COPY_DEVICE_TO_HOST") ||
		    kd(s, n, "MEMORY_COPY_DEVICE_TO_DEVICE") ||
		    kd(s, n, "__amd_rocclr_copyBuffer") ||
		    kd(s, n, "__amd_rocclr_copyBufferAligned") ||
		    kd(s, n, "__amd_rocclr_copyBufferRect") ||
		    kd(s, n, "__amd_rocclr_copyBufferRectAligned"))
			return G_MEMCPY;
		if (kd(s, n, "__amd_rocclr_fillBuffer") ||
		    kd(s, n, "__amd_rocclr_fillBufferAligned"))
			return G_COMP;
	}
	if (hasci(s, n, "nccl") || hasci(s, n, "rccl") ||
	    hasci(s, n, "cross_device_reduce"))
		return G_COMM;
	return G_COMP;
}
