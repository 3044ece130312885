/*
 * tl-roofline: the models of an XPlane profile's XLA ops (the op rows
 * tl-parse writes, named by their custom call's target): TraceLens's
 * jax_conv, jax_conv_bwd, jax_gemm, jax_te_fused_attn and
 * jax_te_fused_attn_bwd, with the formulas of common/jaxpm.c that
 * tl-jax uses. The operands are input_dims and input_types; the output,
 * the backend config and the target are in args (hlo_output,
 * hlo_backend_config, hlo_custom_call_target).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/jaxpm.h"
#include "roof.h"

#define MAXOP	8

/* The operands as XLA shapes: their count, or -1. */
static int
operands(const struct rl_args *a, struct rl_res *r, struct tl_xshape *op)
{
	int i, j, n = 0;

	if (!a->hasdims || !a->hastypes)
		return rl_fail(r, "no input_dims or input_types");
	for (i = 0; i < a->ndims && n < MAXOP; i++) {
		const struct rl_shape *s = &a->dims[i];
		const char *t = rl_type(a, i);

		if (!s->flat || s->n > TL_XMAXD || t == NULL ||
		    strlen(t) >= sizeof op[n].type)
			return rl_fail(r, "input %d is not an array shape", i);
		memset(&op[n], 0, sizeof op[n]);
		for (j = 0; j < s->n; j++)
			op[n].d[j] = s->v[j];
		op[n].nd = s->n;
		strcpy(op[n].type, t);
		n++;
	}
	return n;
}

static int
output(const struct rl_args *a, struct rl_res *r, struct tl_xshape *out)
{
	char buf[512];
	int n = rl_argstr(a, "hlo_output", buf, sizeof buf);

	if (n < 0 || tl_xshape_parse(buf, (size_t)n, out) < 0)
		return rl_fail(r, "no array in args hlo_output");
	return 0;
}

/* The compute spec's precision of an XLA dtype, or NULL. */
static const char *
xprec(const char *t)
{
	if (strcmp(t, "bf16") == 0)
		return "bf16";
	if (strcmp(t, "f16") == 0)
		return "fp16";
	if (strcmp(t, "f32") == 0)
		return "fp32";
	if (strcmp(t, "f64") == 0)
		return "fp64";
	if (strncmp(t, "f8", 2) == 0)
		return "fp8";
	if (strcmp(t, "s8") == 0)
		return "int8";
	return NULL;
}

int
rl_jax(int cls, const struct rl_args *a, struct rl_res *r)
{
	struct tl_xshape op[MAXOP], out;
	int nop, bwd = cls == C_JAX_CONV_BWD || cls == C_JAX_TE_BWD;
	char name[16];

	if ((nop = operands(a, r, op)) < 0)
		return -1;
	r->prec = nop > 0 ? xprec(op[0].type) : NULL;
	r->matrix = 1;
	r->isbwd = bwd;
	if (cls == C_JAX_CONV || cls == C_JAX_CONV_BWD) {
		struct tl_jaxconv c;

		if (output(a, r, &out) < 0)
			return -1;
		if (tl_jax_conv(op, nop, &out, bwd, rl_tracelens, &c) < 0)
			return rl_fail(r, "not a 1, 2 or 3-d convolution of "
			    "an input and a filter");
		snprintf(name, sizeof name, "conv%dd", c.nx > 2 && c.nx < 6 ?
		    c.nx - 2 : 0);
		rl_pstr(r, P_CONVND, name);
		rl_pints(r, P_INPUT_SHAPE, op[0].d, op[0].nd);
		rl_pints(r, P_FILTER_SHAPE, c.w, c.nw);
		rl_pints(r, P_OUTPUT_SHAPE, out.d, out.nd);
		rl_pbool(r, P_BIAS, c.bias);
		if (c.bpe > 0)
			rl_pint(r, P_BYTES_PER_ELEMENT, c.bpe);
		else
			rl_pstr(r, P_BYTES_PER_ELEMENT, NULL);
		rl_pbool(r, P_TRANSPOSED_CONV, 0);
		r->flop = c.flops;
		r->bytes = c.bpe > 0 ? c.bytes : 0;
		r->hasbytes = c.bpe > 0;
		return 0;
	}
	if (cls == C_JAX_TE || cls == C_JAX_TE_BWD) {
		struct tl_jaxte t;
		struct rl_qkv q;

		if (tl_jax_te(op, nop, bwd, rl_tracelens, &t) < 0)
			return rl_fail(r, "q, k and v are not 4-d BSHD shapes "
			    "that fit");
		q.B = t.B;
		q.NQ = t.NQ;
		q.HQ = t.HQ;
		q.NKV = t.NKV;
		q.HKV = t.HKV;
		q.dqk = t.dqk;
		q.dv = t.dv;
		rl_pqkv(r, &q);
		rl_pbool(r, P_BIAS, nop > 3);
		rl_pstrs(r, P_DTYPE_A_B, 2, op[0].type, op[1].type);
		rl_pbool(r, P_CAUSAL, 0);
		rl_pbool(r, P_FLASH_IMPL, 1);
		rl_pbool(r, P_FUSED, 1);
		rl_pint(r, P_BYTES_PER_ELEMENT, t.bpe);
		r->flop = t.flops;
		r->bytes = t.bytes;
		r->hasbytes = 1;
		return 0;
	}
	/* C_JAX_GEMM */
	{
		struct tl_jaxgemm g;
		static char cfg[1 << 16];
		char tgt[256];
		int n;

		if (output(a, r, &out) < 0)
			return -1;
		if ((n = rl_argstr(a, "hlo_backend_config", cfg,
		    sizeof cfg)) < 0)
			cfg[0] = '\0';
		if (tl_jax_gemm(op, nop, &out, cfg, &g) < 0)
			return rl_fail(r, "not a GEMM of 2-d or 3-d shapes");
		rl_pnum(r, P_B, g.B);
		rl_pnum(r, P_M, g.M);
		rl_pnum(r, P_N, g.N);
		rl_pnum(r, P_K, g.K);
		rl_pbool(r, P_BIAS, g.beta != 0);
		rl_pstrs(r, P_DTYPE_A_B, 2, op[0].type, op[1].type);
		n = rl_argstr(a, "hlo_custom_call_target", tgt, sizeof tgt);
		rl_pstr(r, P_SIMULATION_DTYPE, n > 0 && strstr(tgt, "f8") ?
		    "fp8" : op[0].type);
		r->flop = g.flops;
		r->bytes = g.bpe > 0 ? g.bytes : 0;
		r->hasbytes = g.bpe > 0;
		return 0;
	}
}
