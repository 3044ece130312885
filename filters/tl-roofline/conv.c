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

/* A convolution's shapes and settings, as its op gives them. */
struct cv {
	const struct rl_shape *x, *w;
	const char *tx, *tw;
	int nd, bias, t, bwd, mask[3];
	int64_t st[MAXND], pad[MAXND], dil[MAXND], opad[MAXND], g;
	const struct rl_shape *sx, *sw;	/* their strides */
	int biaslist;		/* print bias as [] (TraceLens's and) */
	int fused;		/* ConvBias_*: a forward with a backward */
};

static int model(struct cv *, struct rl_res *);

/* x and w at inputs o and o + 1: the convolution's rank and dtypes. */
static int
shapes(const struct rl_args *a, struct rl_res *r, int o, struct cv *c)
{
	if ((c->x = rl_needdim(a, r, o, 3)) == NULL ||
	    (c->w = rl_needdim(a, r, o + 1, 3)) == NULL)
		return -1;
	c->nd = c->x->n - 2;
	if (c->nd < 1 || c->nd > MAXND)
		return rl_fail(r, "input has %d dims: not a 1, 2 or 3-d "
		    "convolution", c->x->n);
	if (c->w->n != c->x->n)
		return rl_fail(r, "input and weight differ in rank");
	if ((c->tx = rl_needtype(a, r, o)) == NULL ||
	    (c->tw = rl_needtype(a, r, o + 1)) == NULL)
		return -1;
	if (strcmp(c->tx, c->tw) != 0)
		return rl_fail(r, "input and weight dtypes differ");
	c->sx = rl_stride(a, o);
	c->sw = rl_stride(a, o + 1);
	return 0;
}

int
rl_conv(int cls, const struct rl_args *a, struct rl_res *r)
{
	struct cv c = { .mask = { 1, 1, 1 } };
	int o, i;
	const char *s;

	c.bwd = cls == C_CONV_BWD;
	o = c.bwd ? 1 : 0;
	if (shapes(a, r, o, &c) < 0)
		return -1;
	for (i = 3; i <= 8; i++)
		if (rl_needci(a, r, o + i) == NULL)
			return -1;
	if (spatial(r, rl_ci(a, o + 3), c.nd, 1, c.st, "stride") < 0 ||
	    spatial(r, rl_ci(a, o + 4), c.nd, 0, c.pad, "padding") < 0 ||
	    spatial(r, rl_ci(a, o + 5), c.nd, 1, c.dil, "dilation") < 0 ||
	    spatial(r, rl_ci(a, o + 7), c.nd, 0, c.opad, "output_padding") < 0)
		return -1;
	c.t = rl_truthy(rl_ci(a, o + 6));
	s = rl_ci(a, o + 8);
	if (tl_parse_i64(s, strlen(s), &c.g) != 0 || c.g < 1 ||
	    c.g > (1 << 20))
		return rl_fail(r, "groups is not a positive integer: "
		    "\"%.40s\"", s);

	if (!c.bwd) {
		if (rl_tracelens)
			c.bias = a->ndims == 3;
		else
			c.bias = rl_nonempty(rl_dim(a, 2));
	} else {
		c.bias = rl_nonempty(rl_dim(a, 3));
		c.biaslist = rl_tracelens && a->ndims > 3 &&
		    a->dims[3].flat && a->dims[3].n == 0;
		if (!rl_tracelens) {
			/* output_mask: which grads */
			if (rl_outmask(rl_ci(a, 10), c.mask) == 3)
				c.bias = c.mask[2];
			else {
				int64_t bs[4];

				c.bias = c.bias ||
				    rl_intlist(rl_ci(a, 3), bs, 4) > 0;
			}
		}
	}
	return model(&c, r);
}

/*
 * A fused convolution with bias (ConvBias_, ConvBiasReLU_ and their
 * backward ops, which have the arguments of their forward): stride
 * CI[3] and padding CI[4], each one integer for every dim, else 1 and
 * 0; no dilation, groups or transposition; always a bias.
 */
int
rl_convbias(int bwd, const struct rl_args *a, struct rl_res *r)
{
	struct cv c = { .mask = { 1, 1, 1 }, .bias = 1, .g = 1, .fused = 1 };
	const char *s[2] = { rl_ci(a, 3), rl_ci(a, 4) };
	int64_t v[2] = { 1, 0 };
	int i, k;

	c.bwd = bwd;
	if (shapes(a, r, 0, &c) < 0)
		return -1;
	for (k = 0; k < 2; k++)
		if (s[k] != NULL && *s[k] != '\0' &&
		    (tl_parse_i64(s[k], strlen(s[k]), &v[k]) != 0 ||
		    v[k] < 1 - k || v[k] > (1 << 20)))
			return rl_fail(r, "%s is not an integer: \"%.40s\"",
			    k ? "padding" : "stride", s[k]);
	for (i = 0; i < c.nd; i++) {
		c.st[i] = v[0];
		c.pad[i] = v[1];
		c.dil[i] = 1;
		c.opad[i] = 0;
	}
	return model(&c, r);
}

/* The output shape, the parameters, FLOPs and bytes. */
static int
model(struct cv *c, struct rl_res *r)
{
	const struct rl_shape *x = c->x, *w = c->w;
	int bwd = c->bwd, nd = c->nd, bias = c->bias, t = c->t, i, bpe;
	int64_t *st = c->st, *pad = c->pad, *dil = c->dil, *opad = c->opad;
	int64_t g = c->g, ker, out[2 + MAXND];
	int *mask = c->mask;
	double px, pw, pw1, pout, cout, f_in, f_w;
	char name[8];
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
	rl_pstrs(r, P_DTYPE_INPUT_WEIGHT, 2, c->tx, c->tw);
	rl_pshape(r, P_INPUT_STRIDE, c->sx);
	rl_pshape(r, P_WEIGHT_STRIDE, c->sw);
	if (c->biaslist)
		rl_pboollist(r, P_BIAS, 0, NULL);	/* "[] and ...": [] */
	else
		rl_pbool(r, P_BIAS, bias);
	rl_pints(r, P_STRIDE, st, nd);
	rl_pints(r, P_PADDING, pad, nd);
	rl_pints(r, P_DILATION, dil, nd);
	rl_pbool(r, P_TRANSPOSED_CONV, t);
	rl_pints(r, P_OUTPUT_PADDING, opad, nd);
	rl_pint(r, P_GROUPS, g);
	if (bwd && !rl_tracelens && !c->fused)
		rl_pbools(r, P_OUTPUT_MASK, 3, mask);

	px = rl_prod(x);
	pw = rl_prod(w);
	pw1 = pw / (double)w->v[0];
	pout = 1;
	for (i = 0; i < nd + 2; i++)
		pout *= (double)out[i];
	bpe = rl_bpe(c->tx);
	r->hasbytes = bpe > 0;
	r->prec = rl_prec(c->tx);
	r->matrix = 1;
	if (!bwd) {
		r->flop = cflop(pw1, px, pout, t) + (bias ? pout : 0);
		r->bytes = (px + pw + (bias ? cout : 0) + pout) * bpe;
		if (!c->fused)
			return 0;
		/* the backward pass of a fused forward: as below */
		r->hasbwd = 1;
		r->hasbytes_bwd = r->hasbytes;
		f_in = cflop(pw1, pout, px, !t);
		f_w = 2 * (pout / cout) * (t ? px : pw);
		r->flop_bwd = f_in + f_w + pout;
		r->bytes_bwd = 2 * (pout + pw + px) * bpe + (pout + cout) *
		    (rl_tracelens ? 1 : bpe);
		return 0;
	}
	r->isbwd = 1;
	if (rl_tracelens || c->fused) {
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
		    (bias ? (pout + cout) * (rl_tracelens ? 1 : bpe) : 0);
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
