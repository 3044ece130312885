/*
 * tl-roofline: element-wise models (TraceLens's aten_unary_elementwise,
 * aten_replication_pad, aten_upsample_nearest, aten_binary_elementwise).
 *
 *	unary:	FLOPs = n, bytes = n bpe_in + n bpe_out
 *	pad, upsample: FLOPs = prod(out), bytes = prod(in) bpe + prod(out) bpe
 *	binary:	FLOPs = prod(broadcast(a, b)),
 *		bytes = n_a bpe_a + n_b bpe_b + n_out bpe_out
 */
#include <stdint.h>
#include <string.h>

#include "roof.h"

#define MAXRANK	16

int
rl_unary(int cls, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *in, *o;
	const char *ti, *to = NULL, *c;
	int64_t out[2 + MAXRANK], pad[2 * MAXRANK + 1];
	double n, nout;
	int bi, bo, i, k, nd, np = 0;

	if ((in = rl_needdim(a, r, 0, 0)) == NULL ||
	    (ti = rl_needtype(a, r, 0)) == NULL)
		return -1;
	if (in->n > MAXRANK)
		return rl_fail(r, "input has more than %d dims", MAXRANK);
	n = rl_prod(in);
	bi = rl_bpe(ti);
	r->prec = rl_prec(ti);
	if (cls == C_UNARY) {
		o = rl_dim(a, 1);
		if (rl_nonempty(o))
			to = rl_type(a, 1);
		rl_pshape(r, P_OP_SHAPE, in);
		rl_pstrs(r, P_DTYPE_IN_OUT, 2, ti, to);
		rl_pshape(r, P_STRIDE_INPUT, rl_stride(a, 0));
		rl_pshape(r, P_STRIDE_OUTPUT, rl_nonempty(o) ?
		    rl_stride(a, 1) : NULL);
		bo = to != NULL ? rl_bpe(to) : bi;
		r->flop = n;
		r->bytes = n * bi + n * bo;
		r->hasbytes = bi > 0 && bo > 0;
		return 0;
	}

	/* the output shape */
	if ((c = rl_needci(a, r, 1)) == NULL)
		return -1;
	nd = in->n;
	if (cls == C_UPSAMPLE) {
		/*
		 * TraceLens: the output is the input's first two dims and
		 * output_size, whatever its length; else output_size has a
		 * size for each spatial dim.
		 */
		if (in->n < (rl_tracelens ? 2 : 3))
			return rl_fail(r, "input has %d dims, upsample needs %d",
			    in->n, rl_tracelens ? 2 : 3);
		out[0] = in->v[0];
		out[1] = in->v[1];
		k = rl_intlist(c, out + 2, MAXRANK);
		if (k < 0 || (rl_tracelens ? k < 1 : k != in->n - 2))
			return rl_fail(r, "output_size \"%.40s\" does not fit "
			    "the input", c);
		nd = 2 + k;
		for (i = 2; i < nd; i++)
			if (out[i] < 0 || out[i] > (INT64_C(1) << 40))
				return rl_fail(r, "output_size \"%.40s\" is "
				    "out of range", c);
	} else {
		/*
		 * (left, right) pairs from the last dim on; TraceLens
		 * ignores an odd last value
		 */
		k = rl_intlist(c, pad, 2 * MAXRANK + 1);
		if (k < 2 || (k % 2 != 0 && !rl_tracelens) || k / 2 > in->n)
			return rl_fail(r, "padding \"%.40s\" does not fit "
			    "the input", c);
		np = k;
		k -= k % 2;
		memcpy(out, in->v, (size_t)in->n * sizeof *out);
		for (i = 0; i < k; i++)
			if (pad[i] < 0 || pad[i] > (INT64_C(1) << 40))
				return rl_fail(r, "padding \"%.40s\" is out "
				    "of range", c);
		for (i = 0; i < k / 2; i++)
			out[in->n - 1 - i] += pad[2 * i] + pad[2 * i + 1];
	}
	nout = 1;
	for (i = 0; i < nd; i++)
		nout *= (double)out[i];
	if (nout >= 9223372036854775807.0)
		return rl_fail(r, "the output has more than 2^63 elements");
	/* TraceLens's order: the shapes first (its unified perf_params) */
	rl_pshape(r, P_INPUT_SHAPE, in);
	rl_pints(r, P_OUTPUT_SHAPE, out, nd);
	if (cls == C_REPPAD)
		rl_pintlist(r, P_PADDING, pad, np);
	rl_pints(r, P_OP_SHAPE, out, nd);
	rl_pstrs(r, P_DTYPE_IN_OUT, 2, ti, ti);
	rl_pshape(r, P_STRIDE_INPUT, rl_stride(a, 0));
	rl_pstr(r, P_STRIDE_OUTPUT, NULL);
	r->flop = nout;
	r->bytes = n * bi + nout * bi;
	r->hasbytes = bi > 0;
	return 0;
}

int
rl_binary(int cls, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *s1, *s2, *so;
	const char *t1, *t2, *to = NULL;
	int b1, b2, bo, i, n;
	double n1, n2, nout;
	int64_t d1, d2;

	(void)cls;
	if ((s1 = rl_needdim(a, r, 0, 0)) == NULL ||
	    (s2 = rl_needdim(a, r, 1, 0)) == NULL ||
	    (t1 = rl_needtype(a, r, 0)) == NULL ||
	    (t2 = rl_needtype(a, r, 1)) == NULL)
		return -1;
	so = rl_dim(a, 2);
	if (rl_nonempty(so))
		to = rl_type(a, 2);
	else
		so = NULL;

	/* numpy broadcasting */
	n = s1->n > s2->n ? s1->n : s2->n;
	nout = 1;
	for (i = 0; i < n; i++) {
		d1 = i < s1->n ? s1->v[s1->n - 1 - i] : 1;
		d2 = i < s2->n ? s2->v[s2->n - 1 - i] : 1;
		if (d1 != d2 && d1 != 1 && d2 != 1)
			return rl_fail(r, "shapes do not broadcast");
		nout *= (double)(d1 == 1 ? d2 : d1);
	}
	rl_pshape(r, P_SHAPE_IN1, s1);
	rl_pshape(r, P_SHAPE_IN2, s2);
	rl_pstrs(r, P_DTYPE_IN1_IN2_OUT, 3, t1, t2, to);
	rl_pshape(r, P_STRIDE_INPUT1, rl_stride(a, 0));
	rl_pshape(r, P_STRIDE_INPUT2, rl_stride(a, 1));
	rl_pshape(r, P_STRIDE_OUTPUT, so != NULL ? rl_stride(a, 2) : NULL);

	b1 = rl_bpe(t1);
	b2 = rl_bpe(t2);
	if (to != NULL)
		bo = rl_bpe(to);
	else if (s1->n > 0 && s2->n > 0)
		bo = b1 > b2 ? b1 : b2;
	else
		bo = b1;
	n1 = rl_prod(s1);
	n2 = rl_prod(s2);
	r->flop = nout;
	r->bytes = n1 * b1 + n2 * b2 + nout * bo;
	r->hasbytes = b1 > 0 && b2 > 0 && bo > 0;
	r->prec = rl_prec(t1);
	return 0;
}
