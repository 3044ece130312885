/*
 * tl-roofline: which op has which model. The names and categories are
 * TraceLens's (PerfModel/torch_op_mapping.py).
 */
#include <stdint.h>
#include <string.h>

#include "roof.h"

static const struct rl_model models[] = {
	{ "CrossEntropyFunction", F_CE, C_CE, "CrossEntropy_fwd" },
	{ "DaoAILab::_causal_conv1d_fwd_cpp",
	    F_SSM, C_CAUSALCONV1D, "SSM_fwd" },
	{ "FlashAttnFunc", F_SDPA, C_FA_FWD, "SDPA_fwd" },
	{ "FusedRoPEFunc", F_ROPE, C_ROPE, "RoPE_fwd" },
	{ "_LayerNormLinearBackward_wgrad_mm", F_GEMM, C_TEV2, "GEMM" },
	{ "_LayerNormLinearBackward_xgrad_mm", F_GEMM, C_TEV2, "GEMM" },
	{ "_LayerNormLinear_yfwd_mm", F_GEMM, C_TEV2, "GEMM" },
	{ "_LinearBackward_wgrad_mm", F_GEMM, C_TEV2, "GEMM" },
	{ "_LinearBackward_xgrad_mm", F_GEMM, C_TEV2, "GEMM" },
	{ "_Linear_yfwd_mm", F_GEMM, C_TEV2, "GEMM" },
	{ "aiter::_flash_attn_backward", F_SDPA, C_AITER_BWD, "SDPA_bwd" },
	{ "aiter::_flash_attn_forward", F_SDPA, C_AITER_FWD, "SDPA_fwd" },
	{ "aiter::_groupnorm_run", F_NORM, C_GN, "NORM_fwd" },
	{ "aiter::fmha_v3_fwd", F_SDPA, C_FMHA_V3_FWD, "SDPA_fwd" },
	{ "aiter::mha_bwd", F_SDPA, C_AITER_MHA_BWD, "SDPA_bwd" },
	{ "aiter::mha_fwd", F_SDPA, C_AITER_FWD, "SDPA_fwd" },
	{ "aiter::wrapper_fmha_v3_bwd", F_SDPA, C_FMHA_V3_BWD, "SDPA_bwd" },
	{ "aiter::wrapper_fmha_v3_fwd", F_SDPA, C_FMHA_V3_FWD, "SDPA_fwd" },
	{ "aten::_fused_rms_norm", F_NORM, C_RMS, "NORM_fwd" },
	{ "aten::_fused_rms_norm_backward", F_NORM, C_RMS_BWD, "NORM_bwd" },
	{ "aten::_scaled_dot_product_cudnn_attention",
	    F_SDPA, C_SDPA_CUDNN, "SDPA_fwd" },
	{ "aten::_scaled_dot_product_efficient_attention",
	    F_SDPA, C_SDPA_EFF, "SDPA_fwd" },
	{ "aten::_scaled_dot_product_flash_attention",
	    F_SDPA, C_SDPA_FLASH, "SDPA_fwd" },
	{ "aten::_scaled_mm", F_GEMM, C_SCALED_MM, "GEMM" },
	{ "aten::add", F_BINARY, C_BINARY, "elementwise" },
	{ "aten::add_", F_BINARY, C_BINARY, "elementwise" },
	{ "aten::addmm", F_GEMM, C_ADDMM, "GEMM" },
	{ "aten::amax", F_REDUCE, C_REDUCE, "reduce" },
	{ "aten::amin", F_REDUCE, C_REDUCE, "reduce" },
	{ "aten::baddbmm", F_GEMM, C_BADDBMM, "GEMM" },
	{ "aten::batch_norm", F_NORM, C_BN, "NORM_fwd" },
	{ "aten::batch_norm_backward", F_NORM, C_BN_BWD, "NORM_bwd" },
	{ "aten::bmm", F_GEMM, C_BMM, "GEMM" },
	{ "aten::clamp_max", F_UNARY, C_UNARY, "elementwise" },
	{ "aten::clamp_max_", F_UNARY, C_UNARY, "elementwise" },
	{ "aten::clamp_min", F_UNARY, C_UNARY, "elementwise" },
	{ "aten::clamp_min_", F_UNARY, C_UNARY, "elementwise" },
	{ "aten::convolution", F_CONV, C_CONV, "CONV_fwd" },
	{ "aten::convolution_backward", F_CONV, C_CONV_BWD, "CONV_bwd" },
	{ "aten::copy", F_UNARY, C_UNARY, "elementwise" },
	{ "aten::copy_", F_UNARY, C_UNARY, "elementwise" },
	{ "aten::cudnn_batch_norm", F_NORM, C_BN, "NORM_fwd" },
	{ "aten::cudnn_batch_norm_backward", F_NORM, C_BN_BWD, "NORM_bwd" },
	{ "aten::cudnn_group_norm", F_NORM, C_GN, "NORM_fwd" },
	{ "aten::cudnn_group_norm_backward", F_NORM, C_GN_BWD, "NORM_bwd" },
	{ "aten::cudnn_instance_norm", F_NORM, C_IN, "NORM_fwd" },
	{ "aten::cudnn_instance_norm_backward", F_NORM, C_IN_BWD, "NORM_bwd" },
	{ "aten::cudnn_layer_norm", F_NORM, C_LN, "NORM_fwd" },
	{ "aten::cudnn_layer_norm_backward", F_NORM, C_LN_BWD, "NORM_bwd" },
	{ "aten::cudnn_rms_norm_backward", F_NORM, C_RMS_BWD, "NORM_bwd" },
	{ "aten::cumprod", F_REDUCE, C_REDUCE, "reduce" },
	{ "aten::cumsum", F_REDUCE, C_REDUCE, "reduce" },
	{ "aten::div", F_BINARY, C_BINARY, "elementwise" },
	{ "aten::div_", F_BINARY, C_BINARY, "elementwise" },
	{ "aten::group_norm", F_NORM, C_GN, "NORM_fwd" },
	{ "aten::group_norm_backward", F_NORM, C_GN_BWD, "NORM_bwd" },
	{ "aten::instance_norm", F_NORM, C_IN, "NORM_fwd" },
	{ "aten::instance_norm_backward", F_NORM, C_IN_BWD, "NORM_bwd" },
	{ "aten::layer_norm", F_NORM, C_LN, "NORM_fwd" },
	{ "aten::layer_norm_backward", F_NORM, C_LN_BWD, "NORM_bwd" },
	{ "aten::linalg_norm", F_REDUCE, C_REDUCE, "reduce" },
	{ "aten::logsumexp", F_REDUCE, C_REDUCE, "reduce" },
	{ "aten::max", F_REDUCE, C_REDUCE, "reduce" },
	{ "aten::mean", F_REDUCE, C_REDUCE, "reduce" },
	{ "aten::min", F_REDUCE, C_REDUCE, "reduce" },
	{ "aten::miopen_batch_norm", F_NORM, C_BN, "NORM_fwd" },
	{ "aten::miopen_batch_norm_backward", F_NORM, C_BN_BWD, "NORM_bwd" },
	{ "aten::miopen_group_norm", F_NORM, C_GN, "NORM_fwd" },
	{ "aten::miopen_group_norm_backward", F_NORM, C_GN_BWD, "NORM_bwd" },
	{ "aten::miopen_instance_norm", F_NORM, C_IN, "NORM_fwd" },
	{ "aten::miopen_instance_norm_backward", F_NORM, C_IN_BWD, "NORM_bwd" },
	{ "aten::miopen_layer_norm", F_NORM, C_LN, "NORM_fwd" },
	{ "aten::miopen_layer_norm_backward", F_NORM, C_LN_BWD, "NORM_bwd" },
	{ "aten::miopen_rms_norm_backward", F_NORM, C_RMS_BWD, "NORM_bwd" },
	{ "aten::mm", F_GEMM, C_MM, "GEMM" },
	{ "aten::mul", F_BINARY, C_BINARY, "elementwise" },
	{ "aten::mul_", F_BINARY, C_BINARY, "elementwise" },
	{ "aten::native_batch_norm", F_NORM, C_BN, "NORM_fwd" },
	{ "aten::native_batch_norm_backward", F_NORM, C_BN_BWD, "NORM_bwd" },
	{ "aten::native_group_norm", F_NORM, C_GN, "NORM_fwd" },
	{ "aten::native_group_norm_backward", F_NORM, C_GN_BWD, "NORM_bwd" },
	{ "aten::native_instance_norm", F_NORM, C_IN, "NORM_fwd" },
	{ "aten::native_instance_norm_backward", F_NORM, C_IN_BWD, "NORM_bwd" },
	{ "aten::native_layer_norm", F_NORM, C_LN, "NORM_fwd" },
	{ "aten::native_layer_norm_backward", F_NORM, C_LN_BWD, "NORM_bwd" },
	{ "aten::native_rms_norm_backward", F_NORM, C_RMS_BWD, "NORM_bwd" },
	{ "aten::neg", F_UNARY, C_UNARY, "elementwise" },
	{ "aten::norm", F_REDUCE, C_REDUCE, "reduce" },
	{ "aten::pow", F_UNARY, C_UNARY, "elementwise" },
	{ "aten::replication_pad1d", F_UNARY, C_REPPAD, "elementwise" },
	{ "aten::replication_pad2d", F_UNARY, C_REPPAD, "elementwise" },
	{ "aten::replication_pad3d", F_UNARY, C_REPPAD, "elementwise" },
	{ "aten::rms_norm_backward", F_NORM, C_RMS_BWD, "NORM_bwd" },
	{ "aten::rsqrt", F_UNARY, C_UNARY, "elementwise" },
	{ "aten::sigmoid", F_UNARY, C_UNARY, "elementwise" },
	{ "aten::sigmoid_backward", F_BINARY, C_BINARY, "elementwise" },
	{ "aten::silu", F_UNARY, C_UNARY, "elementwise" },
	{ "aten::std", F_REDUCE, C_REDUCE, "reduce" },
	{ "aten::sum", F_REDUCE, C_REDUCE, "reduce" },
	{ "aten::threshold_backward", F_BINARY, C_BINARY, "elementwise" },
	{ "aten::upsample_nearest1d", F_UNARY, C_UPSAMPLE, "elementwise" },
	{ "aten::upsample_nearest2d", F_UNARY, C_UPSAMPLE, "elementwise" },
	{ "aten::upsample_nearest3d", F_UNARY, C_UPSAMPLE, "elementwise" },
	{ "aten::var", F_REDUCE, C_REDUCE, "reduce" },
	{ "bitsandbytes::int8_linear_matmul", F_GEMM, C_SCALED_MM, "GEMM" },
	{ "flash_attn::_flash_attn_backward", F_SDPA, C_FA_BWD, "SDPA_bwd" },
	{ "flash_attn::_flash_attn_forward", F_SDPA, C_FA_FWD, "SDPA_fwd" },
	{ "flash_attn::_flash_attn_varlen_backward",
	    F_SDPA, C_FA_VARLEN_BWD, "SDPA_bwd" },
	{ "flash_attn::_flash_attn_varlen_forward",
	    F_SDPA, C_FA_VARLEN_FWD, "SDPA_fwd" },
	{ "flash_attn_3::fwd", F_SDPA, C_FA3_FWD, "SDPA_fwd" },
	{ "tex_ts::te_gemm_ts", F_GEMM, C_TE_GEMM_TS, "GEMM" },
	{ "trtllm::cublas_scaled_mm", F_GEMM, C_SCALED_MM, "GEMM" },
	{ "vllm::gemm_with_dynamic_quant", F_GEMM, C_VLLM_DQ, "GEMM" },
};

/* TraceLens's class names, by C_*. */
static const char *const classname[NCLASS] = {
	"aten_mm", "aten_addmm", "aten_bmm", "aten_baddbmm", "aten_scaled_mm",
	"tev2_pseudo_gemm", "tex_ts_te_gemm_ts", "vllm_gemm_with_dynamic_quant",
	"aten__scaled_dot_product_flash_attention",
	"aten__scaled_dot_product_efficient_attention",
	"aten__scaled_dot_product_cudnn_attention", "flash_attention",
	"flash_attention_backward", "flash_attention_varlen_forward",
	"flash_attention_varlen_backward", "aiter__flash_attn_forward",
	"aiter__flash_attn_backward", "aiter__mha_bwd", "aiter__fmha_v3_fwd",
	"aiter__fmha_v3_backward", "flash_attn_v3_forward",
	"aten_conv", "aten_conv_bwd",
	"aten_unary_elementwise", "aten_replication_pad",
	"aten_upsample_nearest", "aten_binary_elementwise",
	"LayerNorm", "BatchNorm", "GroupNorm", "InstanceNorm", "RMSNorm",
	"LayerNormBwd", "BatchNormBwd", "GroupNormBwd", "InstanceNormBwd",
	"RMSNormBwd",
	"aten_reduce",
	"causal_conv1d_fwd", "fused_rope_fwd", "cross_entropy_fwd"
};

/* Every name of the two tables, in one hash table. */
#define HSIZE	1024

struct hent {
	const char *name;
	size_t len;
	const struct rl_model *m;
	const char *un;
};

static struct hent ht[HSIZE];
static int htdone;

static uint32_t
fnv(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void
put(const char *name, const struct rl_model *m, const char *un)
{
	size_t n = strlen(name);
	uint32_t i = fnv(name, n) & (HSIZE - 1);

	while (ht[i].name != NULL)
		i = (i + 1) & (HSIZE - 1);
	ht[i].name = name;
	ht[i].len = n;
	ht[i].m = m;
	ht[i].un = un;
}

static void
build(void)
{
	size_t i;

	for (i = 0; i < sizeof models / sizeof *models; i++)
		put(models[i].name, &models[i], NULL);
	for (i = 0; i < rl_nunmodelled; i++)
		put(rl_unmodelled_tab[i][0], NULL, rl_unmodelled_tab[i][1]);
	htdone = 1;
}

const struct rl_model *
rl_find(const char *name, size_t n, const char **un)
{
	uint32_t i;

	*un = NULL;
	if (!htdone)
		build();
	if (n > 11 && name[0] == 't' && (memcmp(name, "triton_poi_", 11) == 0 ||
	    memcmp(name, "triton_red_", 11) == 0 ||
	    memcmp(name, "triton_per_", 11) == 0)) {
		*un = "TritonCompiledPerfModel (but with -p)";
		return NULL;
	}
	for (i = fnv(name, n) & (HSIZE - 1); ht[i].name != NULL;
	    i = (i + 1) & (HSIZE - 1))
		if (ht[i].len == n && memcmp(ht[i].name, name, n) == 0) {
			*un = ht[i].un;
			return ht[i].m;
		}
	return NULL;
}

const char *
rl_classname(const struct rl_model *m)
{
	return classname[m->cls];
}

int
rl_compute(const struct rl_model *m, const struct rl_args *a,
    struct rl_res *r)
{
	rl_reset(r);
	switch (m->family) {
	case F_GEMM:
		return rl_gemm(m->cls, a, r);
	case F_SDPA:
		return rl_sdpa(m->cls, a, r);
	case F_CONV:
		return rl_conv(m->cls, a, r);
	case F_UNARY:
		return rl_unary(m->cls, a, r);
	case F_BINARY:
		return rl_binary(m->cls, a, r);
	case F_NORM:
		return rl_norm(m->cls, a, r);
	case F_REDUCE:
		return rl_reduce(m->cls, a, r);
	default:
		return rl_other(m->cls, a, r);
	}
}
