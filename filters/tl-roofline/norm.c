/*
 * tl-roofline: normalization models (TraceLens's LayerNorm, BatchNorm,
 * GroupNorm, InstanceNorm, RMSNorm and their backward classes). With n
 * the elements, C the channels (the normalized size), e = n / C:
 *
 *	fwd FLOPs = 3C + (3n if training) + 3C + 2n
 *	fwd bytes = n (bpe_in + bpe_out) + W C bpe_in,
 *	    W = 2 + (1 if affine) + (1 if affine and bias) + (2 if training)
 *	RMS FLOPs = (n / C)(2C + 2) + n (2 if affine else 1)
 *	RMS bytes = n (bpe_in + bpe_out) + (C bpe if affine)
 *	bwd FLOPs = C ((3 if not training) + 4e
 *	    + (5e if mask[0] and training, 2e if not mask[0]))
 *	bwd bytes = n bpe_out + n bpe_in (2 if mask[0] and training else 1)
 *	    + (C bpe if training) + (C bpe if affine)
 *	    + (C bpe (2 if bias else 1) if affine and training)
 *	RMS bwd FLOPs = (n if affine) + n + (6n if mask[0])
 *	    + (n + (n if e > 1) if mask[1] and affine)
 *	RMS bwd bytes = 3 n bpe + (2 C bpe if affine)
 *
 * TraceLens takes a weight or bias as there when the input exists at
 * all, so layer norm is always affine with a bias, and takes batch
 * norm's training flag as true for any non-empty string, "False" too.
 * Without --tracelens an empty input is absent and "False" is false.
 * TraceLens's layer norm backward is affine and has a bias when the
 * output mask asks for those grads; its batch norm backward has the
 * mask [True] and, for miopen and cudnn, is never training; its group
 * norm backward has C = channels / groups (a float). Without
 * --tracelens: the weight decides, the mask is output_mask, the cudnn
 * and miopen backward are training (they use the saved statistics),
 * and C is the channels, the size of the weight.
 */
#include <string.h>
#include <strings.h>

#include "../../common/tsv.h"

#include "roof.h"

/* Input i is a weight or bias that is there. */
static int
present(const struct rl_args *a, int i)
{
	if (rl_tracelens)
		return i < a->ndims;
	return rl_nonempty(rl_dim(a, i));
}

/*
 * Where each class has its arguments: x is input 0, or 1 in a backward
 * op (after the gradient); with ns the channels are the product of the
 * concrete input after x, normalized_shape, else dim 1 of x; w and b the
 * inputs weight and bias, tr and mask the concrete inputs training and
 * output_mask (-1: none). With --tracelens batch, instance and group
 * norm read both weight and bias at input 2; aten::native_group_norm
 * has them at 1 and 2. In the order of C_*.
 */
static const struct layout {
	signed char bwd, ns, w, b, tr, mask;
} lay[] = {
	/* bwd ns w b tr mask */
	{ 0, 1, 2, 3, -1, -1 },		/* C_LN */
	{ 0, 0, 1, 2, 5, -1 },		/* C_BN */
	{ 0, 0, 2, 3, -1, -1 },		/* C_GN */
	{ 0, 0, 1, 2, 5, -1 },		/* C_IN */
	{ 0, 1, 2, -1, -1, -1 },	/* C_RMS */
	{ 1, 1, 5, 6, -1, 7 },		/* C_LN_BWD */
	{ 1, 0, 2, -1, 7, 9 },		/* C_BN_BWD */
	{ 1, 0, 4, -1, -1, 9 },		/* C_GN_BWD */
	{ 1, 0, -1, -1, -1, -1 },	/* C_IN_BWD: no model */
	{ 1, 1, 4, -1, -1, 5 },		/* C_RMS_BWD */
};
_Static_assert(sizeof lay / sizeof *lay == C_RMS_BWD - C_LN + 1,
    "one layout per class");

void
rl_pnormparams(struct rl_res *r, const struct rl_shape *x, const char *t,
    const struct rl_shape *stride, double C, int bias, int affine,
    int training)
{
	rl_pshape(r, P_OP_SHAPE, x);
	rl_pstrs(r, P_DTYPE_IN_OUT, 2, t, (char *)NULL);
	rl_pshape(r, P_STRIDE_INPUT, stride);
	rl_pstr(r, P_STRIDE_OUTPUT, NULL);
	if (C < 0)
		rl_pfloat(r, P_NUM_CHANNELS, -C);	/* a float */
	else
		rl_pnum(r, P_NUM_CHANNELS, C);
	rl_pbool(r, P_HAS_BIAS, bias);
	rl_pbool(r, P_IS_AFFINE, affine);
	rl_pbool(r, P_IS_TRAINING, training);
}

int
rl_norm(int cls, const struct rl_args *a, struct rl_res *r)
{
	const struct layout *L = &lay[cls - C_LN];
	const struct rl_shape *x;
	const char *ti, *c;
	int ix = L->bwd, affine = 0, bias = 0, training = 1, bpe, i, k;
	int mask[3] = { 1, 1, 1 }, iw = L->w, ib = L->b, nmask = 3;
	int miocudnn = 0;
	int64_t ns[16], g;
	double n, C = 0, e, W;

	if (cls == C_IN_BWD)
		return rl_fail(r, "TraceLens has no instance norm backward "
		    "model");
	if (cls == C_BN_BWD && (strncmp(a->name, "aten::miopen_", 13) == 0 ||
	    strncmp(a->name, "aten::cudnn_", 12) == 0))
		ix = 0, miocudnn = 1;	/* (input, grad_output, weight, ...) */
	if ((x = rl_needdim(a, r, ix, 0)) == NULL ||
	    (ti = rl_needtype(a, r, ix)) == NULL)
		return -1;
	n = rl_prod(x);
	if (L->ns) {
		if ((c = rl_needci(a, r, ix + 1)) == NULL)
			return -1;
		if ((k = rl_intlist(c, ns, 16)) < 1)
			return rl_fail(r, "normalized_shape is not a list of "
			    "integers: \"%.40s\"", c);
		for (C = 1, i = 0; i < k; i++)
			C *= (double)ns[i];
	} else {
		if (x->n < 2)
			return rl_fail(r, "input has %d dims, the model reads "
			    "the channels, dim 1", x->n);
		C = (double)x->v[1];
	}
	if (C <= 0)
		return rl_fail(r, "no channels");
	if (rl_tracelens && (cls == C_BN || cls == C_IN || cls == C_GN))
		iw = ib = 2;
	else if (cls == C_GN && strncmp(a->name, "aten::native_", 13) == 0)
		iw = 1, ib = 2;
	if (iw >= 0)
		affine = present(a, iw);
	if (ib >= 0)
		bias = present(a, ib);
	else if (rl_tracelens && cls != C_RMS && cls != C_RMS_BWD)
		bias = affine;
	if (L->tr >= 0 && !miocudnn) {
		if ((c = rl_needci(a, r, L->tr)) == NULL)
			return -1;
		training = rl_tracelens ? *c != '\0' : rl_truthy(c);
	} else if (miocudnn && rl_tracelens)
		training = 0;
	if (cls == C_RMS || cls == C_RMS_BWD)
		training = 0;
	if (cls == C_BN_BWD && rl_tracelens) {
		nmask = 1;	/* [ID[0] is not None] */
		mask[0] = a->ndims > 0 && !a->dims[0].null;
	}
	else if (L->mask >= 0 && !miocudnn) {
		if ((c = rl_needci(a, r, L->mask)) == NULL)
			return -1;
		if ((nmask = rl_outmask(c, mask)) < (cls == C_RMS_BWD ? 2 :
		    rl_tracelens ? 1 : 3))
			return rl_fail(r, "output_mask is not %s booleans: "
			    "\"%.40s\"", cls == C_RMS_BWD ? "2" : "3", c);
	}
	if (cls == C_LN_BWD && rl_tracelens) {
		affine = nmask > 1 && mask[1];
		bias = nmask > 2 && mask[2];
	}
	if (cls == C_GN_BWD && rl_tracelens) {
		/* channels / groups */
		if ((c = rl_needci(a, r, 8)) == NULL)
			return -1;
		if (tl_parse_i64(c, strlen(c), &g) != 0 || g < 1)
			return rl_fail(r, "group count is not a positive "
			    "integer: \"%.40s\"", c);
		C /= (double)g;
	}

	rl_pnormparams(r, x, ti, rl_stride(a, ix), cls == C_GN_BWD &&
	    rl_tracelens ? -C : C, bias, affine, training);
	if (L->bwd && cls != C_IN_BWD)
		rl_pboollist(r, P_OUTPUT_MASK, nmask, mask);

	bpe = rl_bpe(ti);
	r->hasbytes = bpe > 0;
	r->prec = rl_prec(ti);
	e = n / C;
	if (cls == C_RMS) {
		r->flop = (n / C) * (2 * C + 2) + n * (affine ? 2 : 1);
		r->bytes = n * (bpe + bpe) + (affine ? C * bpe : 0);
		return 0;
	}
	if (cls == C_RMS_BWD) {
		r->isbwd = 1;
		r->flop = (affine ? n : 0) + n + (mask[0] ? 6 * n : 0) +
		    (mask[1] && affine ? n + (e > 1 ? n : 0) : 0);
		r->bytes = 3 * n * bpe + (affine ? 2 * C * bpe : 0);
		return 0;
	}
	if (!L->bwd) {
		r->flop = 3 * C + (training ? 3 * n : 0) + 3 * C + 2 * n;
		W = 2 + (affine ? 1 : 0) + (affine && bias ? 1 : 0) +
		    (training ? 2 : 0);
		r->bytes = n * (bpe + bpe) + W * C * bpe;
		return 0;
	}
	r->isbwd = 1;
	r->flop = C * ((training ? 0 : 3) + 4 * e +
	    (mask[0] && training ? 5 * e : !mask[0] ? 2 * e : 0));
	r->bytes = n * bpe + n * bpe * (mask[0] && training ? 2 : 1) +
	    (training ? C * bpe : 0) + (affine ? C * bpe : 0) +
	    (affine && training ? C * bpe * (bias ? 2 : 1) : 0);
	return 0;
}
