/*
 * tl-roofline: GEMM models (TraceLens's aten_mm, aten_addmm, aten_bmm,
 * aten_baddbmm, aten_scaled_mm, tev2_pseudo_gemm, tex_ts_te_gemm_ts,
 * vllm_gemm_with_dynamic_quant).
 *
 *	FLOPs = (2 M N K + (M N if bias)) * B
 *	bytes = (M K + K N + M N) * bpe * B + (N * bpe if bias)
 *
 * B multiplies only for bmm and baddbmm. TraceLens sizes every tensor
 * with A's dtype and the bias as N elements; without --tracelens each
 * tensor has its own dtype and the bias its real size.
 */
#include <string.h>
#include <strings.h>

#include "roof.h"

int
rl_gemm(int cls, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *A, *B, *C = NULL;
	const char *ta, *tb, *tc = NULL;
	int ia = 0, ib = 1, bias = 0, batched = 0, i, transa = 0, transb = 0;
	double M, N, K, nb = 1, flop, bytes;
	int bpa, bpb, bpo, bpc = -1, k;

	switch (cls) {
	case C_ADDMM:
		ia = 1, ib = 2, bias = 1;
		break;
	case C_BMM:
		batched = 1;
		break;
	case C_BADDBMM:
		ia = 1, ib = 2, bias = 1, batched = 1;
		break;
	case C_TE_GEMM_TS:
		ib = 5;
		break;
	case C_VLLM_DQ:
		/* the first two 2-D shapes */
		for (i = 0, k = 0; i < a->ndims && k < 2; i++) {
			if (!a->dims[i].flat || a->dims[i].n != 2)
				continue;
			if (k++ == 0)
				ia = i;
			else
				ib = i;
		}
		if (!a->hasdims || k < 2)
			return rl_fail(r, "input_dims has no two 2-D shapes");
		break;
	}
	if ((A = rl_needdim(a, r, ia, batched ? 3 : 2)) == NULL ||
	    (B = rl_needdim(a, r, ib, batched ? 3 : 2)) == NULL)
		return -1;
	if ((ta = rl_needtype(a, r, ia)) == NULL ||
	    (tb = rl_needtype(a, r, ib)) == NULL)
		return -1;
	if (batched) {
		nb = (double)A->v[0];
		M = (double)A->v[1];
		K = (double)A->v[2];
		N = (double)B->v[2];
	} else if (cls == C_TE_GEMM_TS) {
		const char *c4 = rl_needci(a, r, 4), *c9, *c14;

		if (c4 == NULL || (c9 = rl_needci(a, r, 9)) == NULL ||
		    (c14 = rl_needci(a, r, 14)) == NULL)
			return -1;
		transa = strcmp(c4, "1") == 0;
		transb = strcmp(c9, "1") == 0;
		M = (double)(transa ? A->v[0] : A->v[1]);
		K = (double)(transa ? A->v[1] : A->v[0]);
		N = (double)(transb ? B->v[1] : B->v[0]);
		if (rl_tracelens)
			bias = *c14 != '\0';
		else if ((C = rl_dim(a, 14)) != NULL && C->n > 0) {
			bias = 1;
			tc = rl_type(a, 14);
		}
	} else if (cls == C_VLLM_DQ) {
		M = (double)A->v[0];
		K = (double)A->v[1];
		N = (double)B->v[0];
	} else {
		M = (double)A->v[0];
		K = (double)A->v[1];
		N = (double)B->v[1];
	}
	if (cls == C_SCALED_MM) {
		/*
		 * TraceLens: bias when there are 3 inputs, which
		 * aten::_scaled_mm never has: its bias is input 4.
		 */
		if (rl_tracelens || strcmp(a->name, "aten::_scaled_mm") != 0)
			bias = a->ndims == 3;
		else if ((C = rl_dim(a, 4)) != NULL && C->n > 0) {
			bias = 1;
			tc = rl_type(a, 4);
		}
	}
	if (bias && (cls == C_ADDMM || cls == C_BADDBMM)) {
		C = rl_dim(a, 0);
		tc = rl_type(a, 0);
	}

	/* parameters, in TraceLens's order */
	if (batched)
		rl_pnum(r, P_B, nb);
	rl_pnum(r, P_M, M);
	rl_pnum(r, P_N, N);
	rl_pnum(r, P_K, K);
	rl_pbool(r, P_BIAS, bias);
	rl_pshape(r, P_STRIDE_A, rl_stride(a, ia));
	rl_pshape(r, P_STRIDE_B, rl_stride(a, ib));
	if (cls != C_TE_GEMM_TS)
		rl_pstrs(r, P_DTYPE_A_B, 2, ta, tb);
	else if (rl_tracelens && (rl_needtype(a, r, 10) == NULL ||
	    rl_needtype(a, r, 18) == NULL))
		return -1;
	else	/* A, B, and inputs 10 and 18, as TraceLens has them */
		rl_pstrs(r, P_DTYPE_A_B, 4, ta, tb, rl_type(a, 10),
		    rl_type(a, 18));
	if (!batched)
		rl_pint(r, P_B, 1);

	flop = 2 * M * N * K + (bias ? M * N : 0);
	bpa = rl_bpe(ta);
	bpb = rl_tracelens ? bpa : rl_bpe(tb);
	bpo = bpa;
	if (cls == C_SCALED_MM)
		bpo = bpa == 1 ? 2 : bpa == 2 || bpa == 4 ? bpa : -1;
	else if (cls == C_TEV2)
		bpo = 2;
	if (rl_tracelens) {
		/* the bias at A's size; a pseudo GEMM of two dtypes raises */
		if (cls == C_TEV2 && strcasecmp(ta, tb) != 0)
			return rl_fail(r, "A and B dtypes differ");
		bytes = (M * K + K * N) * bpa + M * N * bpo +
		    (bias ? N * bpa : 0);
		r->hasbytes = bpa > 0 && bpo > 0;
	} else {
		bytes = M * K * bpa + K * N * bpb + M * N * bpo;
		r->hasbytes = bpa > 0 && bpb > 0 && bpo > 0;
		if (bias) {
			bpc = tc != NULL ? rl_bpe(tc) : bpo;
			if (C != NULL && C->n > 0)
				bytes += rl_prod(C) * bpc / nb;
			else
				bytes += N * bpc;
			if (bpc <= 0)
				r->hasbytes = 0;
		}
	}
	r->flop = flop * nb;
	r->bytes = bytes * nb;
	r->prec = rl_prec(ta);
	r->matrix = 1;
	return 0;
}
