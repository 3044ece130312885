/*
 * tl-roofline: convolution models (TraceLens's aten_conv and
 * aten_conv_bwd).
 *
 *	out = floor((in + 2 p - d (k - 1) - 1) / s) + 1
 *	    (transposed: (in - 1) s - 2 p + d (k - 1) + op + 1)
 *	fwd FLOPs = 2 prod(w[1:]) prod(out) + (prod(out) if bias)
 *	    (transposed: prod(x) for prod(out))
 *	fwd bytes = (prod(x) + prod(w) + (C_out if bias) + prod(out)) bpe
 *
 * TraceLens's bias is len(input_dims) == 3, never true for the 9 inputs
 * of aten::convolution; without --tracelens it is input 2 being there.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/tsv.h"
#include "roof.h"

#define MAXND	3

static int
spatial(struct rl_res *r, const char *s, int nd, int64_t dflt, int64_t *v,
    const char *what)
{
	int n, i;

	if (s == NULL || *s == '\0') {
		for (i = 0; i < nd; i++)
			v[i] = dflt;
		return 0;
	}
	n = rl_intlist(s, v, MAXND);
	if (n == 1)
		for (i = 1; i < nd; i++)
			v[i] = v[0];
	else if (n != nd)
		return rl_fail(r, "%s \"%.40s\" does not fit %dd", what, s, nd);
	for (i = 0; i < nd; i++)
		if (v[i] < (dflt == 1 ? 1 : 0) || v[i] > (1 << 20))
			return rl_fail(r, "%s \"%.40s\" is out of range", what,
			    s);
	return 0;
}

static double
cflop(double pw1, double pin, double pout, int transposed)
{
	return 2 * pw1 * (transposed ? pin : pout);
}

int
rl_conv(int cls, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *x, *w;
	const char *tx, *tw, *c;
	int bwd = cls == C_CONV_BWD, o = bwd ? 1 : 0, nd, i, bias, t, bpe;
	int mask[3] = { 1, 1, 1 };
	int64_t st[MAXND], pad[MAXND], dil[MAXND], opad[MAXND], g, ker;
	int64_t out[2 + MAXND];
	double px, pw, pw1, pout, cout, f_in, f_w;
	char name[8];

	if ((x = rl_needdim(a, r, o, 3)) == NULL ||
	    (w = rl_needdim(a, r, o + 1, 3)) == NULL)
		return -1;
	nd = x->n - 2;
	if (nd < 1 || nd > MAXND)
		return rl_fail(r, "input has %d dims: not a 1, 2 or 3-d "
		    "convolution", x->n);
	if (w->n != x->n)
		return rl_fail(r, "input and weight differ in rank");
	if ((tx = rl_needtype(a, r, o)) == NULL ||
	    (tw = rl_needtype(a, r, o + 1)) == NULL)
		return -1;
	if (strcmp(tx, tw) != 0)
		return rl_fail(r, "input and weight dtypes differ");
	for (i = 3; i <= 8; i++)
		if (rl_needci(a, r, o + i) == NULL)
			return -1;
	if (spatial(r, rl_ci(a, o + 3), nd, 1, st, "stride") < 0 ||
	    spatial(r, rl_ci(a, o + 4), nd, 0, pad, "padding") < 0 ||
	    spatial(r, rl_ci(a, o + 5), nd, 1, dil, "dilation") < 0 ||
	    spatial(r, rl_ci(a, o + 7), nd, 0, opad, "output_padding") < 0)
		return -1;
	t = rl_truthy(rl_ci(a, o + 6));
	c = rl_ci(a, o + 8);
	if (tl_parse_i64(c, strlen(c), &g) != 0 || g < 1 || g > (1 << 20))
		return rl_fail(r, "groups is not a positive integer: "
		    "\"%.40s\"", c);

	if (!bwd) {
		if (rl_tracelens)
			bias = a->ndims == 3;
		else
			bias = rl_nonempty(rl_dim(a, 2));
	} else {
		bias = rl_nonempty(rl_dim(a, 3));
		if (!rl_tracelens) {
			/* output_mask: which grads */
			if (rl_outmask(rl_ci(a, 10), mask) == 3)
				bias = mask[2];
			else {
				int64_t bs[4];

				bias = bias ||
				    rl_intlist(rl_ci(a, 3), bs, 4) > 0;
			}
		}
	}

	/* the output shape */
	out[0] = x->v[0];
	cout = (double)(t ? w->v[1] : w->v[0]);
	if (t && !rl_tracelens)
		cout *= (double)g;
	out[1] = (int64_t)cout;
	for (i = 0; i < nd; i++) {
		int64_t in = x->v[2 + i];

		ker = w->v[2 + i];
		if (t)
			out[2 + i] = (in - 1) * st[i] - 2 * pad[i] +
			    dil[i] * (ker - 1) + opad[i] + 1;
		else {
			int64_t num = in + 2 * pad[i] - dil[i] * (ker - 1) - 1;

			out[2 + i] = (int64_t)((double)num / (double)st[i] +
			    1);
			if (num < 0)
				out[2 + i] = num / st[i] + 1;
		}
		if (out[2 + i] < 1 || out[2 + i] > (INT64_C(1) << 40))
			return rl_fail(r, "output size %lld is out of range",
			    (long long)out[2 + i]);
	}

	snprintf(name, sizeof name, "conv%dd", nd);
	rl_pstr(r, P_CONVND, name);
	rl_pshape(r, P_INPUT_SHAPE, x);
	rl_pshape(r, P_FILTER_SHAPE, w);
	rl_pstrs(r, P_DTYPE_INPUT_WEIGHT, 2, tx, tw);
	rl_pshape(r, P_INPUT_STRIDE, rl_stride(a, o));
	rl_pshape(r, P_WEIGHT_STRIDE, rl_stride(a, o + 1));
	if (bwd && rl_tracelens && a->ndims > 3 && a->dims[3].flat &&
	    a->dims[3].n == 0)
		rl_pboollist(r, P_BIAS, 0, NULL);	/* Python's "[] and ..." */
	else
		rl_pbool(r, P_BIAS, bias);
	rl_pints(r, P_STRIDE, st, nd);
	rl_pints(r, P_PADDING, pad, nd);
	rl_pints(r, P_DILATION, dil, nd);
	rl_pbool(r, P_TRANSPOSED_CONV, t);
	rl_pints(r, P_OUTPUT_PADDING, opad, nd);
	rl_pint(r, P_GROUPS, g);
	if (bwd && !rl_tracelens)
		rl_pbools(r, P_OUTPUT_MASK, 3, mask);

	px = rl_prod(x);
	pw = rl_prod(w);
	pw1 = pw / (double)w->v[0];
	pout = 1;
	for (i = 0; i < nd + 2; i++)
		pout *= (double)out[i];
	bpe = rl_bpe(tx);
	r->hasbytes = bpe > 0;
	r->prec = rl_prec(tx);
	r->matrix = 1;
	if (!bwd) {
		r->flop = cflop(pw1, px, pout, t) + (bias ? pout : 0);
		r->bytes = (px + pw + (bias ? cout : 0) + pout) * bpe;
		return 0;
	}
	r->isbwd = 1;
	if (rl_tracelens) {
		/*
		 * input grad: the forward with x and out swapped and the
		 * transposed flag flipped; weight grad: the forward on the
		 * shapes with dims 0 and 1 swapped (x, out, w as input,
		 * weight, output).
		 */
		f_in = cflop(pw1, pout, px, !t);
		f_w = 2 * (pout / cout) * (t ? px : pw);
		r->flop = f_in + f_w + (bias ? pout : 0);
		r->bytes = (pout + pw + px) * bpe + (pout + pw + px) * bpe +
		    (bias ? pout + cout : 0);
		return 0;
	}
	f_in = cflop(pw1, px, pout, t);
	r->flop = (mask[0] ? f_in : 0) + (mask[1] ? f_in : 0) +
	    (mask[2] && bias ? pout : 0);
	r->bytes = ((mask[0] ? pout + pw + px : 0) +
	    (mask[1] ? pout + px + pw : 0) +
	    (mask[2] && bias ? pout + cout : 0)) * bpe;
	return 0;
}
