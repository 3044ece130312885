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

void
rl_pqkv(struct rl_res *r, const struct rl_qkv *s)
{
	static const int key[7] = { P_B, P_N_Q, P_H_Q, P_N_KV, P_H_KV,
	    P_D_H_QK, P_D_H_V };
	const double v[7] = { s->B, s->NQ, s->HQ, s->NKV, s->HKV, s->dqk,
	    s->dv };
	int i;

	for (i = 0; i < 7; i++)
		rl_pnum(r, key[i], v[i]);
}

double
rl_attn_fwdflop(const struct rl_qkv *s, int causal)
{
	double f = s->B * s->HQ * 2 * s->NQ * s->NKV * s->dqk +
	    s->B * s->HQ * 2 * s->NQ * s->NKV * s->dv;

	return causal ? f / 2 : f;
}

double
rl_attn_bwdflop(const struct rl_qkv *s, int causal, int flash)
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

/*
 * Where each class has its arguments: q is input q (1 in a backward op,
 * after dO, and in aiter's fmha v3 wrapper), k and v the next two; they are (B, H, N, d), or
 * (B, N, H, d) with bnhd, or (N, H, d) for varlen: then the dims of
 * inputs cu and cu + 1 are cu_seqlens_q and _k, and the concrete inputs
 * cu + 2 and cu + 3 max_seqlen_q and _k (cu is -1 when not varlen).
 * drop and causal: the concrete inputs dropout_p and is_causal (-1:
 * none); dflt: is_causal when it is absent. In the order of C_*.
 */
static const struct layout {
	signed char bwd, bnhd, flash, drop, causal, dflt, cu, q;
} lay[] = {
	/* bwd bnhd flash drop causal dflt cu q (q: see qat) */
	{ 0, 0, 1, 3, 4, 0, -1, 0 },	/* C_SDPA_FLASH */
	{ 0, 0, 0, 5, 6, 0, -1, 0 },	/* C_SDPA_EFF */
	{ 0, 0, 0, 5, 6, 0, -1, 0 },	/* C_SDPA_CUDNN */
	{ 0, 1, 1, 3, 5, 0, -1, 0 },	/* C_FA_FWD */
	{ 1, 1, 1, 8, 10, 1, -1, 1 },	/* C_FA_BWD */
	{ 0, 0, 1, 7, 9, 0, 3, 0 },	/* C_FA_VARLEN_FWD */
	{ 1, 0, 1, 13, 15, 0, 9, 1 },	/* C_FA_VARLEN_BWD */
	{ 0, 1, 1, 3, 5, 0, -1, 0 },	/* C_AITER_FWD */
	{ 1, 1, 1, 10, 12, 0, -1, 1 },	/* C_AITER_BWD */
	{ 1, 1, 1, 6, 8, 0, -1, 1 },	/* C_AITER_MHA_BWD */
	{ 0, 1, 1, 3, 5, 0, -1, 0 },	/* C_FMHA_V3_FWD */
	{ 1, 1, 1, 7, 9, 0, -1, 1 },	/* C_FMHA_V3_BWD */
	{ 0, 1, 1, -1, 24, 0, -1, 0 },	/* C_FA3_FWD */
	{ 0, 1, 1, 3, 5, 0, -1, 0 },	/* C_AITER_MHA_FWD */
	{ 0, 1, 1, 4, 6, 0, -1, 1 },	/* C_FMHA_V3_WRAP_FWD */
};
_Static_assert(sizeof lay / sizeof *lay ==
    C_FMHA_V3_WRAP_FWD - C_SDPA_FLASH + 1,
    "one layout per class");

/*
 * The input q is at. TraceLens's aiter::_flash_attn_backward reads q, k
 * and v where its forward has them, inputs 0 to 2 (dout, q and k, of
 * the same shapes when k is as long as q); without --tracelens they are
 * inputs 1 to 3, after dout.
 */
static int
qat(int cls, const struct layout *L)
{
	return cls == C_AITER_BWD && rl_tracelens ? 0 : L->q;
}

int
rl_sdpa(int cls, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *q, *k, *v, *cq, *ck;
	const char *dq = NULL, *dk = NULL, *sdrop = NULL, *scausal = NULL;
	char *end;
	const struct layout *L = &lay[cls - C_SDPA_FLASH];
	int iq = qat(cls, L), varlen = L->cu >= 0, causal, bq, bk, bv, aiter, noci;
	double drop, nseq = 1, nseqk = 1, mq = 0, mk = 0, b1, b2, whole;
	struct rl_qkv s, t;

	if ((q = rl_needdim(a, r, iq, varlen ? 3 : 4)) == NULL ||
	    (k = rl_needdim(a, r, iq + 1, varlen ? 3 : 4)) == NULL ||
	    (v = rl_needdim(a, r, iq + 2, varlen ? 3 : 4)) == NULL)
		return -1;
	/* TraceLens's aiter models read no dtype: no precision either */
	aiter = cls >= C_AITER_FWD && cls != C_FA_VARLEN_FWD &&
	    cls != C_FA_VARLEN_BWD;
	if (aiter && rl_tracelens)
		dq = dk = NULL;
	else if ((dq = rl_needtype(a, r, iq)) == NULL ||
	    (dk = rl_needtype(a, r, iq + 1)) == NULL)
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
		if ((cq = rl_needdim(a, r, L->cu, 1)) == NULL ||
		    (ck = rl_needdim(a, r, L->cu + 1, 1)) == NULL)
			return -1;
		nseq = (double)cq->v[0] - 1;
		nseqk = (double)ck->v[0] - 1;
		if (nseq < 1 || nseqk < 1)
			return rl_fail(r, "cu_seqlens hold no sequence");
		if (rl_needci(a, r, L->cu + 2) == NULL ||
		    rl_needci(a, r, L->cu + 3) == NULL)
			return -1;
		if (rl_cinum(a, r, L->cu + 2, &mq) < 0 ||
		    rl_cinum(a, r, L->cu + 3, &mk) < 0)
			return -1;
	} else {
		int ib = L->bnhd ? 2 : 1, in = L->bnhd ? 1 : 2;

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
	/* TraceLens takes the defaults when there are no concrete inputs */
	noci = rl_tracelens && !a->hasci;
	if (L->drop >= 0 && !noci &&
	    (sdrop = rl_needci(a, r, L->drop)) == NULL)
		return -1;
	drop = 0;	/* Python's float() of the string; "" is 0 */
	if (sdrop != NULL && *sdrop != '\0') {
		drop = strtod(sdrop, &end);
		if (!isfinite(drop))
			return rl_fail(r, "dropout is not a finite number: "
			    "\"%.40s\"", sdrop);
		if (*end != '\0' && rl_tracelens)
			drop = 0;	/* TraceLens's default */
		else if (*end != '\0')
			return rl_fail(r, "dropout is not a number: "
			    "\"%.40s\"", sdrop);
	}
	if ((scausal = rl_ci(a, L->causal)) == NULL && !L->dflt && !noci)
		return rl_needci(a, r, L->causal) == NULL ? -1 : 0;
	causal = scausal == NULL || *scausal == '\0' ? L->dflt :
	    strcasecmp(scausal, "true") == 0;
	if (causal && !varlen && s.NQ != s.NKV)
		return rl_fail(r, "causal with N_Q != N_KV");

	rl_pqkv(r, &s);
	if (rl_tracelens && cls >= C_FA_FWD && cls <= C_FA_VARLEN_BWD &&
	    a->hasstrides) {
		/* TraceLens's flash_attn models print q, k and v's strides */
		rl_pshape(r, P_Q_STRIDE, rl_stride(a, iq));
		rl_pshape(r, P_K_STRIDE, rl_stride(a, iq + 1));
		rl_pshape(r, P_V_STRIDE, rl_stride(a, iq + 2));
	}
	rl_pfloat(r, P_DROPOUT, drop);
	rl_pbool(r, P_CAUSAL, causal);
	rl_pbool(r, P_FLASH_IMPL, L->flash);
	if (!aiter || !rl_tracelens)
		rl_pstrs(r, P_DTYPE_A_B, 2, dq, dk);
	if (varlen) {
		rl_pnum(r, P_NUM_SEQS_Q, nseq);
		rl_pnum(r, P_NUM_SEQS_KV, nseqk);
		rl_pfloat(r, P_MAX_SEQLEN_Q, mq);
		rl_pfloat(r, P_MAX_SEQLEN_KV, mk);
	}

	/* FLOPs; TraceLens's backward of a varlen op takes it as one
	 * sequence */
	if (varlen) {
		t = s;
		t.NQ = mq, t.NKV = mk;
		r->flop = rl_attn_fwdflop(&t, causal);
		r->flop_bwd = rl_attn_bwdflop(&t, causal, L->flash);
		if (nseq > 1) {
			t.NQ = floor((s.NQ - mq) / (nseq - 1));
			t.NKV = nseqk > 1 ?
			    floor((s.NKV - mk) / (nseqk - 1)) : 0;
			r->flop += (nseq - 1) * rl_attn_fwdflop(&t, causal);
			r->flop_bwd += (nseq - 1) *
			    rl_attn_bwdflop(&t, causal, L->flash);
		}
	} else {
		r->flop = rl_attn_fwdflop(&s, causal);
		r->flop_bwd = rl_attn_bwdflop(&s, causal, L->flash);
	}
	whole = varlen && rl_tracelens ? rl_attn_bwdflop(&s, causal, L->flash) :
	    r->flop_bwd;

	/* bytes */
	bq = bk = bv = 2;
	if (!rl_tracelens) {
		bq = rl_bpe(dq);
		bk = rl_bpe(dk);
		bv = rl_type(a, iq + 2) != NULL ? rl_bpe(rl_type(a, iq + 2)) :
		    bk;
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
	if (L->bwd) {
		r->isbwd = 1;
		r->flop = r->flop_bwd;
		r->bytes = r->bytes_bwd;
		r->hasbytes = r->hasbytes_bwd;
	}
	r->flop_bwd = whole;
	r->hasbwd = 1;
	r->prec = aiter && rl_tracelens ? NULL : rl_prec(rl_type(a, 0));
	r->matrix = 1;
	return 0;
}
