/*
 * tl-roofline: which op has which model: a row of models for each op
 * name, its family (its sheets) and its model class. The names and
 * model classes are TraceLens's (PerfModel/torch_op_mapping.py and the
 * extensions' tables).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/intern.h"
#include "../../common/tsv.h"
#include "roof.h"
#include "seg.h"

static const struct rl_model models[] = {
	{ "ConvBiasReLU_", F_CONV, C_X_CONVBIASRELU },
	{ "ConvBiasReLU_Backward", F_CONV, C_X_CONVBIASRELU_BWD },
	{ "ConvBias_", F_CONV, C_X_CONVBIAS },
	{ "ConvBias_Backward", F_CONV, C_X_CONVBIAS_BWD },
	{ "CrossEntropyFunction", F_CE, C_CE },
	{ "DaoAILab::_causal_conv1d_fwd_cpp", F_SSM, C_CAUSALCONV1D },
	{ "EvoformerAttention", F_SDPA, C_X_EVOFORMER },
	{ "FlashAttnFunc", F_SDPA, C_FA_FWD },
	{ "FusedRoPEFunc", F_ROPE, C_ROPE },
	{ "LigerSiLUMulFunction", F_BINARY, C_X_LIGER_SILU_MUL },
	{ "MambaSplitConv1dScanCombinedFn", F_SSM, C_X_MAMBA },
	{ "MoECombine", F_MOE_COMM, C_X_MOE_COMBINE },
	{ "MoEDispatch", F_MOE_COMM, C_X_MOE_DISPATCH },
	{ "_C::silu_and_mul", F_UNARY, C_X_SILU_AND_MUL },
	{ "_C_custom_ar::all_reduce", F_COLL, C_X_CUSTOM_AR },
	{ "_C_custom_ar::qr_all_reduce", F_COLL, C_X_CUSTOM_AR_QR },
	{ "_LayerNormLinearBackward_wgrad_mm", F_GEMM, C_TEV2 },
	{ "_LayerNormLinearBackward_xgrad_mm", F_GEMM, C_TEV2 },
	{ "_LayerNormLinear_yfwd_mm", F_GEMM, C_TEV2 },
	{ "_LinearBackward_wgrad_mm", F_GEMM, C_TEV2 },
	{ "_LinearBackward_xgrad_mm", F_GEMM, C_TEV2 },
	{ "_Linear_yfwd_mm", F_GEMM, C_TEV2 },
	/* XLA's custom calls: the op rows of an XPlane profile */
	{ "__cublas$gemm", F_GEMM, C_JAX_GEMM },
	{ "__cublas$lt$matmul", F_GEMM, C_JAX_GEMM },
	{ "__cublas$lt$matmul$f8", F_GEMM, C_JAX_GEMM },
	{ "__cudnn$convBackwardFilter", F_CONV, C_JAX_CONV_BWD },
	{ "__cudnn$convBackwardInput", F_CONV, C_JAX_CONV_BWD },
	{ "__cudnn$convBiasActivationForward", F_CONV, C_JAX_CONV },
	{ "__cudnn$convForward", F_CONV, C_JAX_CONV },
	{ "aiter::_flash_attn_backward", F_SDPA, C_AITER_BWD },
	{ "aiter::_flash_attn_forward", F_SDPA, C_AITER_FWD },
	{ "aiter::_fuse_rmsnorm_fp4_quant", F_RMSNORM, C_X_FUSED_RMS_MXFP4 },
	{ "aiter::_gemm_a16w16_asm", F_GEMM, C_X_GEMM_A16W16_ASM },
	{ "aiter::_gemm_a4w4_asm", F_GEMM, C_X_AITER_GEMM_A4W4 },
	{ "aiter::_gemm_a8w8_blockscale_bpreshuffle_asm",
	    F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "aiter::_groupnorm_run", F_NORM, C_GN },
	{ "aiter::add_rmsnorm", F_RMSNORM, C_X_AITER_RMSNORM_ADD },
	{ "aiter::all_gather_reg", F_COLL, C_X_ALL_GATHER_REG },
	{ "aiter::batched_gemm_a16wfp4_", F_GEMM, C_X_BATCHED_A16WFP4 },
	{ "aiter::biased_grouped_topk_hip", F_MOE_AUX, C_X_MOE_TOPK },
	{ "aiter::ck_moe_stage1", F_MOE_UNFUSED, C_X_MOE_CK1 },
	{ "aiter::ck_moe_stage2", F_MOE_UNFUSED, C_X_MOE_CK2 },
	{ "aiter::dynamic_per_group_scaled_quant",
	    F_BINARY, C_X_PER_GROUP_QUANT },
	{ "aiter::dynamic_per_group_scaled_quant_fp4",
	    F_GQUANT, C_X_PER_GROUP_FP4 },
	{ "aiter::dynamic_per_tensor_quant", F_BINARY, C_X_PER_GROUP_QUANT },
	{ "aiter::dynamic_per_token_scaled_quant",
	    F_BINARY, C_X_PER_GROUP_QUANT },
	{ "aiter::flatmm_a8w8_blockscale_asm",
	    F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "aiter::fmha_v3_fwd", F_SDPA, C_FMHA_V3_FWD },
	{ "aiter::fmha_v3_varlen_fwd", F_IATTN, C_X_FMHA_V3_VARLEN },
	{ "aiter::fmoe_fp8_blockscale_g1u1", F_MOE_FUSED, C_X_MOE_BLOCKSCALE },
	{ "aiter::fmoe_g1u1", F_MOE_FUSED, C_X_MOE_BLOCKSCALE },
	{ "aiter::fused_add_rmsnorm_pad_",
	    F_RMSNORM, C_X_VLLM_ADD_RMSNORM_PAD },
	{ "aiter::fused_allreduce_rmsnorm", F_COLL, C_X_AR_RMSNORM },
	{ "aiter::fused_allreduce_rmsnorm_", F_COLL, C_X_AR_RMSNORM_ },
	{ "aiter::fused_dynamic_mx_quant_moe_sort_hip",
	    F_GQUANT, C_X_MX_QUANT_MOE_SORT },
	{ "aiter::fused_dynamic_mxfp4_quant_moe_sort_hip",
	    F_GQUANT, C_X_MXFP4_QUANT_MOE_SORT },
	{ "aiter::fused_qk_rope_cat_and_cache_mla", F_FROPE, C_X_QK_ROPE_CAT },
	{ "aiter::fused_qk_rope_concat_and_cache_mla",
	    F_FROPE, C_X_QK_ROPE_CONCAT },
	{ "aiter::gelu_and_mul", F_UNARY, C_X_GELU_AND_MUL },
	{ "aiter::gelu_tanh_and_mul", F_UNARY, C_X_GELU_TANH_AND_MUL },
	{ "aiter::gemm_a16w16", F_GEMM, C_X_GEMM_A16W16 },
	{ "aiter::gemm_a16w16_atomic_", F_GEMM, C_X_GEMM_A16W16_ATOMIC },
	{ "aiter::gemm_a4w4", F_GEMM, C_X_AITER_GEMM_A4W4 },
	{ "aiter::gemm_a8w8_blockscale_bpreshuffle_ck",
	    F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "aiter::gemm_a8w8_blockscale_bpreshuffle_cktile",
	    F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "aiter::gemm_a8w8_blockscale_ck", F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "aiter::gemm_a8w8_blockscale_cktile",
	    F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "aiter::gemm_a8w8_bpreshuffle", F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "aiter::gemm_a8w8_bpreshuffle_ck", F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "aiter::gemm_a8w8_ck", F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "aiter::gemm_afp4wfp4_", F_GEMM, C_X_GEMM_AFP4WFP4 },
	{ "aiter::gfx950_a8w8_blockscale_asm",
	    F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "aiter::linear_attention_with_output_base", F_IATTN, C_X_GDN },
	{ "aiter::mha_batch_prefill", F_IATTN, C_X_MHA_BATCH_PREFILL },
	{ "aiter::mha_bwd", F_SDPA, C_AITER_MHA_BWD },
	{ "aiter::mha_fwd", F_SDPA, C_AITER_MHA_FWD },
	{ "aiter::mha_varlen_fwd", F_IATTN, C_X_MHA_VARLEN },
	{ "aiter::mhc_fused_post_pre_gemm_sqrsum", F_MHC, C_X_MHC_FUSED },
	{ "aiter::mhc_post", F_MHC, C_X_MHC_POST },
	{ "aiter::mhc_pre_big_fuse_rmsnorm", F_MHC, C_X_MHC_PRE_BIG },
	{ "aiter::mhc_pre_gemm_sqrsum", F_MHC, C_X_MHC_PRE_GEMM },
	{ "aiter::mixed_sample_outer_exponential", F_ELEM, C_X_MIXED_SAMPLE },
	{ "aiter::moe_cktile2stages_gemm1_ck", F_MOE_UNFUSED, C_X_MOE_AUP },
	{ "aiter::moe_cktile2stages_gemm2_ck", F_MOE_UNFUSED, C_X_MOE_ADOWN },
	{ "aiter::moe_sorting_fwd", F_MOE_AUX, C_X_MOE_SORT },
	{ "aiter::mxfp4_moe_sort_hip", F_MOE_AUX, C_X_MOE_SORT },
	{ "aiter::pa_decode_gluon", F_IATTN, C_X_PA_GLUON },
	{ "aiter::pa_sparse_prefill_opus_fwd", F_IATTN, C_X_PA_SPARSE },
	{ "aiter::reduce_scatter", F_COLL, C_X_REDUCE_SCATTER },
	{ "aiter::rms_norm", F_RMSNORM, C_X_AITER_RMS_NORM },
	{ "aiter::rmsnorm", F_RMSNORM, C_X_AITER_RMSNORM },
	{ "aiter::rmsnorm2d_fwd_ck", F_RMSNORM, C_X_AITER_RMS_NORM },
	{ "aiter::rmsnorm2d_fwd_with_add_ck",
	    F_RMSNORM, C_X_AITER_RMSNORM_ADD },
	{ "aiter::rmsnorm2d_fwd_with_dynamicquant_ck",
	    F_RMSNORM, C_X_AITER_RMSNORM_DYNQ },
	{ "aiter::rmsnorm_quant", F_RMSNORM, C_X_AITER_RMSNORM_QUANT },
	{ "aiter::rope_cached_positions_2c_fwd_impl", F_ROPE, C_X_ROPE_CACHED },
	{ "aiter::silu_and_mul", F_UNARY, C_X_SILU_AND_MUL },
	{ "aiter::topk_softplus", F_MOE_AUX, C_X_TOPK_SOFTPLUS },
	{ "aiter::wrapper_fmha_v3_bwd", F_SDPA, C_FMHA_V3_BWD },
	{ "aiter::wrapper_fmha_v3_fwd", F_SDPA, C_FMHA_V3_WRAP_FWD },
	{ "aten::_fused_rms_norm", F_NORM, C_RMS },
	{ "aten::_fused_rms_norm_backward", F_NORM, C_RMS_BWD },
	{ "aten::_scaled_dot_product_cudnn_attention", F_SDPA, C_SDPA_CUDNN },
	{ "aten::_scaled_dot_product_efficient_attention", F_SDPA, C_SDPA_EFF },
	{ "aten::_scaled_dot_product_flash_attention", F_SDPA, C_SDPA_FLASH },
	{ "aten::_scaled_mm", F_GEMM, C_SCALED_MM },
	{ "aten::add", F_BINARY, C_BINARY },
	{ "aten::add_", F_BINARY, C_BINARY },
	{ "aten::addmm", F_GEMM, C_ADDMM },
	{ "aten::amax", F_REDUCE, C_REDUCE },
	{ "aten::amin", F_REDUCE, C_REDUCE },
	{ "aten::baddbmm", F_GEMM, C_BADDBMM },
	{ "aten::batch_norm", F_NORM, C_BN },
	{ "aten::batch_norm_backward", F_NORM, C_BN_BWD },
	{ "aten::bmm", F_GEMM, C_BMM },
	{ "aten::clamp_max", F_UNARY, C_UNARY },
	{ "aten::clamp_max_", F_UNARY, C_UNARY },
	{ "aten::clamp_min", F_UNARY, C_UNARY },
	{ "aten::clamp_min_", F_UNARY, C_UNARY },
	{ "aten::convolution", F_CONV, C_CONV },
	{ "aten::convolution_backward", F_CONV, C_CONV_BWD },
	{ "aten::copy", F_UNARY, C_UNARY },
	{ "aten::copy_", F_UNARY, C_UNARY },
	{ "aten::cudnn_batch_norm", F_NORM, C_BN },
	{ "aten::cudnn_batch_norm_backward", F_NORM, C_BN_BWD },
	{ "aten::cudnn_group_norm", F_NORM, C_GN },
	{ "aten::cudnn_group_norm_backward", F_NORM, C_GN_BWD },
	{ "aten::cudnn_instance_norm", F_NORM, C_IN },
	{ "aten::cudnn_instance_norm_backward", F_NORM, C_IN_BWD },
	{ "aten::cudnn_layer_norm", F_NORM, C_LN },
	{ "aten::cudnn_layer_norm_backward", F_NORM, C_LN_BWD },
	{ "aten::cudnn_rms_norm_backward", F_NORM, C_RMS_BWD },
	{ "aten::cumprod", F_REDUCE, C_REDUCE },
	{ "aten::cumsum", F_REDUCE, C_REDUCE },
	{ "aten::div", F_BINARY, C_BINARY },
	{ "aten::div_", F_BINARY, C_BINARY },
	{ "aten::group_norm", F_NORM, C_GN },
	{ "aten::group_norm_backward", F_NORM, C_GN_BWD },
	{ "aten::instance_norm", F_NORM, C_IN },
	{ "aten::instance_norm_backward", F_NORM, C_IN_BWD },
	{ "aten::layer_norm", F_NORM, C_LN },
	{ "aten::layer_norm_backward", F_NORM, C_LN_BWD },
	{ "aten::linalg_norm", F_REDUCE, C_REDUCE },
	{ "aten::logsumexp", F_REDUCE, C_REDUCE },
	{ "aten::max", F_REDUCE, C_REDUCE },
	{ "aten::mean", F_REDUCE, C_REDUCE },
	{ "aten::min", F_REDUCE, C_REDUCE },
	{ "aten::miopen_batch_norm", F_NORM, C_BN },
	{ "aten::miopen_batch_norm_backward", F_NORM, C_BN_BWD },
	{ "aten::miopen_group_norm", F_NORM, C_GN },
	{ "aten::miopen_group_norm_backward", F_NORM, C_GN_BWD },
	{ "aten::miopen_instance_norm", F_NORM, C_IN },
	{ "aten::miopen_instance_norm_backward", F_NORM, C_IN_BWD },
	{ "aten::miopen_layer_norm", F_NORM, C_LN },
	{ "aten::miopen_layer_norm_backward", F_NORM, C_LN_BWD },
	{ "aten::miopen_rms_norm_backward", F_NORM, C_RMS_BWD },
	{ "aten::mm", F_GEMM, C_MM },
	{ "aten::mul", F_BINARY, C_BINARY },
	{ "aten::mul_", F_BINARY, C_BINARY },
	{ "aten::native_batch_norm", F_NORM, C_BN },
	{ "aten::native_batch_norm_backward", F_NORM, C_BN_BWD },
	{ "aten::native_group_norm", F_NORM, C_GN },
	{ "aten::native_group_norm_backward", F_NORM, C_GN_BWD },
	{ "aten::native_instance_norm", F_NORM, C_IN },
	{ "aten::native_instance_norm_backward", F_NORM, C_IN_BWD },
	{ "aten::native_layer_norm", F_NORM, C_LN },
	{ "aten::native_layer_norm_backward", F_NORM, C_LN_BWD },
	{ "aten::native_rms_norm_backward", F_NORM, C_RMS_BWD },
	{ "aten::neg", F_UNARY, C_UNARY },
	{ "aten::norm", F_REDUCE, C_REDUCE },
	{ "aten::pow", F_UNARY, C_UNARY },
	{ "aten::replication_pad1d", F_UNARY, C_REPPAD },
	{ "aten::replication_pad2d", F_UNARY, C_REPPAD },
	{ "aten::replication_pad3d", F_UNARY, C_REPPAD },
	{ "aten::rms_norm_backward", F_NORM, C_RMS_BWD },
	{ "aten::rsqrt", F_UNARY, C_UNARY },
	{ "aten::sigmoid", F_UNARY, C_UNARY },
	{ "aten::sigmoid_backward", F_BINARY, C_BINARY },
	{ "aten::silu", F_UNARY, C_UNARY },
	{ "aten::std", F_REDUCE, C_REDUCE },
	{ "aten::sum", F_REDUCE, C_REDUCE },
	{ "aten::threshold_backward", F_BINARY, C_BINARY },
	{ "aten::upsample_nearest1d", F_UNARY, C_UPSAMPLE },
	{ "aten::upsample_nearest2d", F_UNARY, C_UPSAMPLE },
	{ "aten::upsample_nearest3d", F_UNARY, C_UPSAMPLE },
	{ "aten::var", F_REDUCE, C_REDUCE },
	{ "bitsandbytes::int8_linear_matmul", F_GEMM, C_SCALED_MM },
	{ "flash_attn::_flash_attn_backward", F_SDPA, C_FA_BWD },
	{ "flash_attn::_flash_attn_forward", F_SDPA, C_FA_FWD },
	{ "flash_attn::_flash_attn_varlen_backward", F_SDPA, C_FA_VARLEN_BWD },
	{ "flash_attn::_flash_attn_varlen_forward", F_SDPA, C_FA_VARLEN_FWD },
	{ "flash_attn_3::fwd", F_SDPA, C_FA3_FWD },
	{ "primus::fused_ln_modulate", F_NORM, C_X_LN_MODULATE },
	{ "primus::fused_ln_modulate_backward", F_NORM, C_X_LN_MODULATE_BWD },
	{ "primus::quantize_mxfp4_dual", F_UNARY, C_X_QUANT_MXFP4_DUAL },
	{ "primus_turbo::grouped_gemm", F_GGEMM, C_X_GROUPED_GEMM },
	{ "primus_turbo::grouped_gemm_impl", F_GGEMM, C_X_GROUPED_GEMM },
	{ "primus_turbo::grouped_gemm_variable_k",
	    F_GGEMM, C_X_GROUPED_GEMM_VK },
	{ "primus_turbo::grouped_gemm_variable_k_impl",
	    F_GGEMM, C_X_GROUPED_GEMM_VK },
	{ "primus_turbo::hipblaslt_gemm_fp4", F_GEMM, C_X_HIPBLASLT_FP4 },
	{ "primus_turbo::hipblaslt_gemm_fp8", F_GEMM, C_X_HIPBLASLT_FP8 },
	{ "primus_turbo::quantize_fp8_tensorwise", F_UNARY, C_X_QUANT_FP8 },
	{ "primus_turbo::quantize_mxfp4_dual", F_UNARY, C_X_QUANT_MXFP4_DUAL },
	{ "primus_turbo_cpp_extension::ck_grouped_gemm",
	    F_GGEMM, C_X_GROUPED_GEMM },
	{ "primus_turbo_cpp_extension::ck_grouped_gemm_variable_k",
	    F_GGEMM, C_X_GROUPED_GEMM_VK },
	{ "primus_turbo_cpp_extension::grouped_gemm",
	    F_GGEMM, C_X_GROUPED_GEMM },
	{ "primus_turbo_cpp_extension::grouped_gemm_variable_k",
	    F_GGEMM, C_X_GROUPED_GEMM_VK },
	{ "primus_turbo_cpp_extension::hipblaslt_gemm_fp4",
	    F_GEMM, C_X_HIPBLASLT_FP4 },
	{ "primus_turbo_cpp_extension::hipblaslt_gemm_fp8",
	    F_GEMM, C_X_HIPBLASLT_FP8 },
	{ "primus_turbo_cpp_extension::quantize_fp8_tensorwise",
	    F_UNARY, C_X_QUANT_FP8 },
	{ "primus_turbo_cpp_extension::quantize_mxfp4_dual",
	    F_UNARY, C_X_QUANT_MXFP4_DUAL },
	{ "pseudo_mla_decode_fwd", F_IATTN, C_X_MLA_DECODE },
	{ "pseudo_mla_prefill_fwd", F_IATTN, C_X_MLA_PREFILL },
	{ "pseudo_op::moe_aiter_fused_1stage", F_MOE_FUSED, C_X_MOE_FUSED1 },
	{ "pseudo_op::moe_flydsl_stage1", F_MOE_UNFUSED, C_X_MOE_FLY1 },
	{ "pseudo_op::moe_flydsl_stage2", F_MOE_UNFUSED, C_X_MOE_FLY2 },
	{ "pseudo_op::moe_gptq_awq_down", F_MOE_UNFUSED, C_X_MOE_GPTQ_DOWN },
	{ "pseudo_op::moe_gptq_awq_up", F_MOE_UNFUSED, C_X_MOE_GPTQ_UP },
	{ "pseudo_op::moe_triton_unfused_down",
	    F_MOE_UNFUSED, C_X_MOE_TRITON_DOWN },
	{ "pseudo_op::moe_triton_unfused_up",
	    F_MOE_UNFUSED, C_X_MOE_TRITON_UP },
	{ "pseudo_v4_paged_decode_csa", F_IATTN, C_X_V4_CSA },
	{ "pseudo_v4_paged_decode_hca", F_IATTN, C_X_V4_HCA },
	{ "pseudo_v4_paged_decode_swa", F_IATTN, C_X_V4_SWA },
	{ "sgl_kernel::all_reduce_reg", F_COLL, C_X_SGL_AR_REG },
	{ "sgl_kernel::qr_all_reduce", F_COLL, C_X_SGL_QR_AR },
	{ "sgl_kernel::rotary_embedding", F_ROPE, C_X_SGL_ROTARY },
	{ "sgl_kernel::silu_and_mul", F_UNARY, C_X_SGL_SILU_AND_MUL },
	{ "sglang::reg_all_gather_into_tensor",
	    F_COLL, C_X_SGL_REG_ALL_GATHER },
	{ "sglang::store_cache", F_IATTN, C_X_STORE_CACHE },
	{ "sglang_profiler::attention_paged_attention_ragged",
	    F_IATTN, C_X_PA_RAGGED },
	{ "sglang_profiler::batched_gemm_a8w8_a_per_token_group_prequant_w_"
	    "per_batched_tensor_quant_batched_gemm_a8w8_a_per_token_group_"
	    "prequant_w_per_batched_tensor_quant",
	    F_GEMM, C_X_BATCHED_A8W8 },
	{ "sglang_profiler::fp8_utils_gemm_a8w8_blockscale",
	    F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "sglang_profiler::fused_moe_triton_kernels_fused_append_share"
	    "d_experts",
	    F_MOE_AUX, C_X_MOE_APPEND },
	{ "sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel",
	    F_MOE_UNFUSED, C_X_MOE_INVOKE },
	{ "sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant",
	    F_GQUANT, C_X_FLATTEN_MXFP4 },
	{ "sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant",
	    F_RMSNORM, C_X_FUSED_RMS_MXFP4 },
	{ "sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale",
	    F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "sglang_profiler::gemm_kernels_flydsl_hgemm",
	    F_GEMM, C_X_GEMM_A16W16_ATOMIC },
	{ "sglang_profiler::quant_dynamic_mxfp4_quant",
	    F_GQUANT, C_X_SGL_MXFP4_QUANT },
	{ "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
	    F_IATTN, C_X_TILELANG },
	{ "te_fused_attn_backward_ffi", F_SDPA, C_JAX_TE_BWD },
	{ "te_fused_attn_forward_ffi", F_SDPA, C_JAX_TE },
	{ "tex_ts::te_gemm_ts", F_GEMM, C_TE_GEMM_TS },
	{ "trtllm::cublas_scaled_mm", F_GEMM, C_SCALED_MM },
	{ "vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm",
	    F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "vllm::gdn_attention_core", F_IATTN, C_X_GDN },
	{ "vllm::gemm_with_dynamic_quant", F_GEMM, C_VLLM_DQ },
	{ "vllm::rocm_aiter_rmsnorm_fp8_group_quant",
	    F_RMSNORM, C_X_VLLM_RMSNORM_GQ },
	{ "vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant",
	    F_RMSNORM, C_X_VLLM_RMSNORM_ADD_GQ },
	{ "vllm::rocm_aiter_triton_add_rmsnorm_pad",
	    F_RMSNORM, C_X_VLLM_ADD_RMSNORM_PAD },
	{ "vllm::rocm_aiter_triton_gemm_a8w8_blockscale",
	    F_GEMM, C_X_GEMM_A8W8_BLOCKSCALE },
	{ "vllm::rocm_unquantized_gemm", F_GEMM, C_X_VLLM_UNQUANT_GEMM },
	{ "vllm::triton_per_token_group_quant_fp8",
	    F_BINARY, C_X_TRITON_GQ_FP8 },
	{ "vllm::unified_attention_with_output", F_IATTN, C_X_VLLM_UNIFIED },
};

/* TraceLens's class names, by C_* (the extensions' are in ext.c). */
static const char *const classname[C_X0] = {
	"aten_mm", "aten_addmm", "aten_bmm", "aten_baddbmm", "aten_scaled_mm",
	"tev2_pseudo_gemm", "tex_ts_te_gemm_ts", "vllm_gemm_with_dynamic_quant",
	"aten__scaled_dot_product_flash_attention",
	"aten__scaled_dot_product_efficient_attention",
	"aten__scaled_dot_product_cudnn_attention", "flash_attention",
	"flash_attention_backward", "flash_attention_varlen_forward",
	"flash_attention_varlen_backward", "aiter__flash_attn_forward",
	"aiter__flash_attn_backward", "aiter__mha_bwd", "aiter__fmha_v3_fwd",
	"aiter__fmha_v3_backward", "flash_attn_v3_forward", "aiter__mha_fwd",
	"aiter__fmha_v3_forward",
	"aten_conv", "aten_conv_bwd",
	"aten_unary_elementwise", "aten_replication_pad",
	"aten_upsample_nearest", "aten_binary_elementwise",
	"LayerNorm", "BatchNorm", "GroupNorm", "InstanceNorm", "RMSNorm",
	"LayerNormBwd", "BatchNormBwd", "GroupNormBwd", "InstanceNormBwd",
	"RMSNormBwd",
	"aten_reduce",
	"causal_conv1d_fwd", "fused_rope_fwd", "cross_entropy_fwd",
	"jax_conv", "jax_conv_bwd", "jax_gemm", "jax_te_fused_attn",
	"jax_te_fused_attn_bwd"
};

#define NMODELS	(sizeof models / sizeof *models)

/*
 * Every name of the table, interned: the id of a name is its index in
 * models. Built at the first look-up, kept to the exit.
 */
static struct tl_intern *names;
/*
 * The names' lengths and first and last bytes, hashed to a bit: most
 * rows are not ops of the table, and this tells most of them without
 * hashing the whole name.
 */
static uint64_t maybe[256];
#define MAYBE(s, n)	(((n) * 131 + (unsigned char)(s)[0] * 31 + \
	(unsigned char)(s)[(n) - 1]) % (64 * 256))

const struct rl_model *
rl_find(const char *name, size_t n, const char **un)
{
	uint32_t id;
	size_t i, h, k;

	if (names == NULL) {
		names = tl_intern_new();
		for (i = 0; i < NMODELS; i++) {
			k = strlen(models[i].name);
			tl_intern(names, models[i].name, k);
			h = MAYBE(models[i].name, k);
			maybe[h / 64] |= (uint64_t)1 << h % 64;
		}
		if (tl_intern_count(names) != NMODELS)
			abort();	/* a name twice */
	}
	*un = NULL;
	if (n > 11 && name[0] == 't' && (memcmp(name, "triton_poi_", 11) == 0 ||
	    memcmp(name, "triton_red_", 11) == 0 ||
	    memcmp(name, "triton_per_", 11) == 0)) {
		*un = "TraceLens's TritonCompiledPerfModel has no sheet: "
		    "the kernel has a row with -p";
		return NULL;
	}
	if (n == 0)
		return NULL;
	h = MAYBE(name, n);
	if (!(maybe[h / 64] >> h % 64 & 1))
		return NULL;
	if ((id = tl_intern_find(names, name, n)) < NMODELS)
		return &models[id];
	return NULL;
}

const char *
rl_classname(const struct rl_model *m)
{
	return m->cls >= C_X0 ? rl_xname(m->cls) : classname[m->cls];
}

/* The model functions, by family. */
static int (*const compute[NFAMILY])(int, const struct rl_args *,
    struct rl_res *) = {
	[F_GEMM] = rl_gemm, [F_SDPA] = rl_sdpa, [F_CONV] = rl_conv,
	[F_UNARY] = rl_unary, [F_BINARY] = rl_binary, [F_NORM] = rl_norm,
	[F_REDUCE] = rl_reduce, [F_SSM] = rl_other, [F_ROPE] = rl_other,
	[F_CE] = rl_other
};

int
rl_compute(const struct rl_model *m, const struct rl_args *a,
    struct rl_res *r)
{
	int k;

	rl_reset(r);
	if (m->cls >= C_X0)
		k = rl_ext(m->cls, a, r);
	else if (m->cls >= C_JAX_CONV && m->cls <= C_JAX_TE_BWD)
		k = rl_jax(m->cls, a, r);
	else
		k = compute[m->family](m->cls, a, r);
	if (k == 0 && r->isbwd && !r->hasbwd) {
		/* a backward op's backward formula is its own */
		r->flop_bwd = r->flop;
		r->bytes_bwd = r->bytes;
		r->hasbytes_bwd = r->hasbytes;
		r->hasbwd = 1;
	}
	if (k == 0 && (!isfinite(r->flop) || !isfinite(r->bytes) ||
	    !isfinite(r->flop_bwd) || !isfinite(r->bytes_bwd)))
		return rl_fail(r, "the FLOPs or bytes overflow");
	return k;
}

/* The names in byte order, for rl_list. */
static int
cmpname(const void *a, const void *b)
{
	const struct rl_model *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

void
rl_list(struct tl_out *o)
{
	const struct rl_model *v[NMODELS];
	const int *fs;
	size_t i;

	for (i = 0; i < NMODELS; i++)
		v[i] = &models[i];
	qsort(v, NMODELS, sizeof *v, cmpname);
	rl_puts(o, "name\tmodel\tsheet\tsheet_bwd\n");
	for (i = 0; i < NMODELS; i++) {
		fs = rl_famsheet[v[i]->family];
		tl_out_field(o, v[i]->name, strlen(v[i]->name));
		tl_out_char(o, '\t');
		rl_puts(o, rl_classname(v[i]));
		tl_out_char(o, '\t');
		rl_puts(o, rl_sheetname[fs[0]]);
		tl_out_char(o, '\t');
		if (fs[1] >= 0)
			rl_puts(o, rl_sheetname[fs[1]]);
		tl_out_char(o, '\n');
	}
}
