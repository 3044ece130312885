/*
 * tl-roofline: attention models (TraceLens's SDPA family: the
 * aten::_scaled_dot_product_*_attention ops, flash_attn, aiter and
 * flash_attn_3 forward and backward, varlen).
 *
 *	fwd FLOPs = B H_Q (2 N_Q N_KV d_qk + 2 N_Q N_KV d_v), halved if causal
 *	fwd bytes = (q + k + v + out elements) * bpe
 *	bwd FLOPs = [2 B H_Q N_Q N_KV d_qk (flash: recompute)]
 *	    + 2 B H_Q N_KV N_Q d_v + B N_KV d_v (H_Q/H_KV - 1)	(dV)
 *	    + 2 B H_Q N_Q N_KV d_v				(dP)
 *	    + 2 B H_Q N_Q N_KV d_qk				(dQ)
 *	    + 2 B H_Q N_KV N_Q d_qk + B N_KV d_qk (H_Q/H_KV - 1)	(dK)
 *	    halved if causal
 *	bwd bytes = (q + k + v + dO + dq + dk + dv elements) * bpe
 *
 * TraceLens takes bpe as 2 whatever the dtype (except in the bytes of
 * flash_attn::_flash_attn_backward); without --tracelens each tensor
 * has its dtype's size.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "roof.h"

struct qkv {
	double B, NQ, HQ, NKV, HKV, dqk, dv;
};

static double
fwdflop(const struct qkv *s, int causal)
{
	double f = s->B * s->HQ * 2 * s->NQ * s->NKV * s->dqk +
	    s->B * s->HQ * 2 * s->NQ * s->NKV * s->dv;

	return causal ? f / 2 : f;
}

static double
bwdflop(const struct qkv *s, int causal, int flash)
{
	double f = 0, g = floor(s->HQ / s->HKV) - 1;

	if (flash)
		f += 2 * s->B * s->HQ * s->NQ * s->NKV * s->dqk;
	f += 2 * s->B * s->HQ * s->NKV * s->NQ * s->dv +
	    s->B * s->NKV * s->dv * g;
	f += 2 * s->B * s->HQ * s->NQ * s->NKV * s->dv;
	f += 2 * s->B * s->HQ * s->NQ * s->NKV * s->dqk;
	f += 2 * s->B * s->HQ * s->NKV * s->NQ * s->dqk +
	    s->B * s->NKV * s->dqk * g;
	return causal ? f / 2 : f;
}

/* Python's float() of a Concrete Inputs string; "" is 0. */
static int
pyfloat(const char *s, double *v)
{
	char *end;

	if (s == NULL || *s == '\0') {
		*v = 0;
		return 0;
	}
	*v = strtod(s, &end);
	return *end == '\0' ? 0 : -1;
}

static int
iscausal(const char *s, int dflt)
{
	if (s == NULL || *s == '\0')
		return dflt;
	return strcasecmp(s, "true") == 0;
}

int
rl_sdpa(int cls, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *q, *k, *v, *cq, *ck;
	const char *dq = NULL, *dk = NULL, *sdrop = NULL, *scausal = NULL;
	int iq = 0, bnhd = 0, varlen = 0, bwd = 0, flash = 1, causal;
	int cidrop = -1, cicausal = -1, dfltcausal = 0, bq, bk, bv;
	int cimq = -1, cimk = -1, icu = -1;
	double drop, nseq = 1, nseqk = 1, mq = 0, mk = 0, b1, b2;
	struct qkv s, t;

	switch (cls) {
	case C_SDPA_FLASH:
		cidrop = 3, cicausal = 4;
		break;
	case C_SDPA_EFF:
	case C_SDPA_CUDNN:
		cidrop = 5, cicausal = 6, flash = 0;
		break;
	case C_FA_FWD:
	case C_AITER_FWD:
		bnhd = 1, cidrop = 3, cicausal = 5;
		break;
	case C_FMHA_V3_FWD:
		bnhd = 1, cidrop = 4, cicausal = 6;
		break;
	case C_FA3_FWD:
		bnhd = 1, cicausal = 24;
		break;
	case C_FA_BWD:
		iq = 1, bnhd = 1, bwd = 1, cidrop = 8, cicausal = 10;
		dfltcausal = 1;
		break;
	case C_AITER_BWD:
		iq = 1, bnhd = 1, bwd = 1, cidrop = 10, cicausal = 12;
		break;
	case C_AITER_MHA_BWD:
		iq = 1, bnhd = 1, bwd = 1, cidrop = 6, cicausal = 8;
		break;
	case C_FMHA_V3_BWD:
		iq = 1, bnhd = 1, bwd = 1, cidrop = 7, cicausal = 9;
		break;
	case C_FA_VARLEN_FWD:
		varlen = 1, icu = 3, cimq = 5, cimk = 6, cidrop = 7;
		cicausal = 9;
		break;
	case C_FA_VARLEN_BWD:
		iq = 1, varlen = 1, bwd = 1, icu = 9, cimq = 11, cimk = 12;
		cidrop = 13, cicausal = 15;
		break;
	}
	if ((q = rl_needdim(a, r, iq, varlen ? 3 : 4)) == NULL ||
	    (k = rl_needdim(a, r, iq + 1, varlen ? 3 : 4)) == NULL ||
	    (v = rl_needdim(a, r, iq + 2, varlen ? 3 : 4)) == NULL)
		return -1;
	if ((dq = rl_needtype(a, r, iq)) == NULL ||
	    (dk = rl_needtype(a, r, iq + 1)) == NULL ||
	    rl_needtype(a, r, iq + 2) == NULL)
		return -1;
	if (varlen) {
		s.B = 1;
		s.NQ = (double)q->v[0], s.HQ = (double)q->v[1];
		s.dqk = (double)q->v[2];
		s.NKV = (double)k->v[0], s.HKV = (double)k->v[1];
		s.dv = (double)v->v[2];
		if (k->v[0] != v->v[0] || k->v[1] != v->v[1])
			return rl_fail(r, "k and v differ in length or heads");
		if (k->v[2] != q->v[2])
			return rl_fail(r, "q and k differ in head dim");
		if ((cq = rl_needdim(a, r, icu, 1)) == NULL ||
		    (ck = rl_needdim(a, r, icu + 1, 1)) == NULL)
			return -1;
		nseq = (double)cq->v[0] - 1;
		nseqk = (double)ck->v[0] - 1;
		if (nseq < 1 || nseqk < 1)
			return rl_fail(r, "cu_seqlens hold no sequence");
		if (rl_needci(a, r, cimq) == NULL ||
		    rl_needci(a, r, cimk) == NULL)
			return -1;
		mq = atof(rl_ci(a, cimq));
		mk = atof(rl_ci(a, cimk));
	} else {
		int ib = bnhd ? 2 : 1, in = bnhd ? 1 : 2;

		s.B = (double)q->v[0];
		s.HQ = (double)q->v[ib], s.NQ = (double)q->v[in];
		s.dqk = (double)q->v[3];
		s.HKV = (double)k->v[ib], s.NKV = (double)k->v[in];
		s.dv = (double)v->v[3];
		if (q->v[0] != k->v[0] || q->v[0] != v->v[0])
			return rl_fail(r, "q, k and v differ in batch size");
		if (k->v[ib] != v->v[ib])
			return rl_fail(r, "k and v differ in heads");
		if (k->v[in] != v->v[in])
			return rl_fail(r, "k and v differ in length");
		if (q->v[3] != k->v[3])
			return rl_fail(r, "q and k differ in head dim");
	}
	if (cidrop >= 0 && (sdrop = rl_needci(a, r, cidrop)) == NULL)
		return -1;
	if (pyfloat(sdrop, &drop) < 0)
		return rl_fail(r, "dropout is not a number: \"%.40s\"",
		    sdrop);
	if ((scausal = rl_ci(a, cicausal)) == NULL && !dfltcausal)
		return rl_needci(a, r, cicausal) == NULL ? -1 : 0;
	causal = iscausal(scausal, dfltcausal);
	if (causal && !varlen && s.NQ != s.NKV)
		return rl_fail(r, "causal with N_Q != N_KV");

	rl_pnum(r, P_B, s.B);
	rl_pnum(r, P_N_Q, s.NQ);
	rl_pnum(r, P_H_Q, s.HQ);
	rl_pnum(r, P_N_KV, s.NKV);
	rl_pnum(r, P_H_KV, s.HKV);
	rl_pnum(r, P_D_H_QK, s.dqk);
	rl_pnum(r, P_D_H_V, s.dv);
	rl_pfloat(r, P_DROPOUT, drop);
	rl_pbool(r, P_CAUSAL, causal);
	rl_pbool(r, P_FLASH_IMPL, flash);
	rl_pstrs(r, P_DTYPE_A_B, 2, dq, dk);
	if (varlen) {
		rl_pnum(r, P_NUM_SEQS, nseq);
		rl_pnum(r, P_MAX_SEQLEN_Q, mq);
		rl_pnum(r, P_MAX_SEQLEN_KV, mk);
	}

	/* FLOPs */
	if (varlen) {
		t = s;
		t.NQ = mq, t.NKV = mk;
		r->flop = fwdflop(&t, causal);
		r->flop_bwd = bwdflop(&t, causal, flash);
		if (nseq > 1) {
			t.NQ = floor((s.NQ - mq) / (nseq - 1));
			t.NKV = nseqk > 1 ?
			    floor((s.NKV - mk) / (nseqk - 1)) : 0;
			r->flop += (nseq - 1) * fwdflop(&t, causal);
			r->flop_bwd += (nseq - 1) * bwdflop(&t, causal, flash);
		}
	} else {
		r->flop = fwdflop(&s, causal);
		r->flop_bwd = bwdflop(&s, causal, flash);
	}

	/* bytes */
	bq = bk = bv = 2;
	if (!rl_tracelens) {
		bq = rl_bpe(dq);
		bk = rl_bpe(dk);
		bv = rl_bpe(rl_type(a, iq + 2));
	} else if (cls == C_FA_BWD)
		bq = bk = bv = rl_bpe(dq);
	b1 = s.B * s.NQ * s.HQ * s.dqk * bq + s.B * s.NKV * s.HKV * s.dqk * bk +
	    s.B * s.NKV * s.HKV * s.dv * bv + s.B * s.NQ * s.HQ * s.dv * bq;
	b2 = b1 + s.B * s.NQ * s.HQ * s.dqk * bq +
	    s.B * s.NKV * s.HKV * s.dqk * bk + s.B * s.NKV * s.HKV * s.dv * bv;
	r->hasbytes = bq > 0 && bk > 0 && bv > 0;
	r->bytes = b1;
	r->bytes_bwd = b2;
	r->hasbytes_bwd = r->hasbytes;
	if (bwd) {
		r->isbwd = 1;
		r->flop = r->flop_bwd;
		r->bytes = r->bytes_bwd;
	} else
		r->hasbwd = 1;
	r->prec = rl_prec(rl_type(a, 0));
	r->matrix = 1;
	return 0;
}
