/*
 * tl-roofline: the smaller models (TraceLens's causal_conv1d_fwd,
 * fused_rope_fwd, cross_entropy_fwd).
 *
 *	causal conv1d, x (B, C, L), w (C, k):
 *		FLOPs = 2 B C L k, bytes = (2 B C L + C k + (C if bias)) bpe
 *	fused RoPE: FLOPs = 3 n, bytes = 2 n bpe
 *	cross entropy, logits (..., V) with B rows:
 *		FLOPs = 5 B V, bytes = B V bpe + 8 B + 4 B
 */
#include "roof.h"

int
rl_other(int cls, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *x, *w;
	const char *t;
	double B, C, L, k, n, V;
	int bpe, bias;

	if ((x = rl_needdim(a, r, 0, cls == C_CAUSALCONV1D ? 3 :
	    cls == C_CE ? 1 : 0)) == NULL || (t = rl_needtype(a, r, 0)) == NULL)
		return -1;
	bpe = rl_bpe(t);
	r->hasbytes = bpe > 0;
	r->prec = rl_prec(t);
	switch (cls) {
	case C_CAUSALCONV1D:
		if ((w = rl_needdim(a, r, 1, 2)) == NULL)
			return -1;
		B = (double)x->v[0], C = (double)x->v[1], L = (double)x->v[2];
		k = (double)w->v[1];
		bias = rl_nonempty(rl_dim(a, 2));
		rl_pnum(r, P_BATCH, B);
		rl_pnum(r, P_CHANNELS, C);
		rl_pnum(r, P_SEQ_LEN, L);
		rl_pnum(r, P_KERNEL_SIZE, k);
		rl_pbool(r, P_HAS_BIAS, bias);
		r->flop = 2 * B * C * L * k;
		r->bytes = (2 * B * C * L + C * k + (bias ? C : 0)) * bpe;
		r->matrix = 1;
		return 0;
	case C_ROPE:
		n = rl_prod(x);
		if (x->n == 4) {	/* (seq, batch, heads, head dim) */
			rl_pint(r, P_SEQ_LEN, x->v[0]);
			rl_pint(r, P_BATCH, x->v[1]);
			rl_pint(r, P_HEADS, x->v[2]);
			rl_pint(r, P_HEAD_DIM, x->v[3]);
			rl_pnum(r, P_NUM_ELEMENTS, n);
		} else {
			rl_pshape(r, P_SHAPE, x);
			rl_pstr(r, P_DTYPE, t);
		}
		r->flop = 3 * n;
		r->bytes = 2 * n * bpe;
		return 0;
	default:
		V = (double)x->v[x->n - 1];
		if (V <= 0)
			return rl_fail(r, "logits have no classes");
		B = rl_prod(x) / V;
		rl_pnum(r, P_BATCH, B);
		rl_pnum(r, P_VOCAB, V);
		rl_pintlist(r, P_LOGITS_SHAPE, x->v, x->n);
		r->flop = 5 * B * V;
		r->bytes = B * V * bpe + 8 * B + 4 * B;
		return 0;
	}
}
