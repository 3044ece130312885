/*
 * The perf models of JAX's XLA ops (jaxpm.h).
 */
#define _GNU_SOURCE		/* memmem */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jaxpm.h"

int
tl_jax_kcat(const char *s, size_t n)
{
	static const char *const kw[TL_JAX_NCAT][5] = {
		{ "Cijk", "gemm", "nvjet", "cublasLt", NULL },
		{ "FmhaBwd", "flash_bprop", "ck_fused_attn::dk_dv_reduce_thd",
		    "fmha_bwd", NULL },
		{ "FmhaFwd", "flash_fprop", "fmha_fwd", NULL },
		{ "kernel_func", NULL },
		{ "conv_", "conv.", "conv-", NULL },
		{ "transformer_engine", "te_fused_attn", NULL },
		{ "rccl", "nccl", NULL },
	};
	int c, k;

	for (c = 0; c < TL_JAX_NCAT; c++)
		for (k = 0; kw[c][k] != NULL; k++)
			if (memmem(s, n, kw[c][k], strlen(kw[c][k])) != NULL)
				return c;
	return -1;
}

static double
prod(const int64_t *d, int n)
{
	double p = 1;
	int i;

	for (i = 0; i < n; i++)
		p *= (double)d[i];
	return p;
}

static int
ints(const char *s, size_t n, size_t *i, char end, int64_t *v, int *nv)
{
	*nv = 0;
	while (*i < n && s[*i] != end) {
		int64_t x = 0;
		size_t k = *i;

		while (*i < n && s[*i] >= '0' && s[*i] <= '9') {
			if (x > (INT64_MAX - 9) / 10)
				return -1;
			x = x * 10 + (s[*i] - '0');
			(*i)++;
		}
		if (*i == k || *nv >= TL_XMAXD)
			return -1;
		v[(*nv)++] = x;
		if (*i < n && s[*i] == ',')
			(*i)++;
	}
	if (*i >= n)
		return -1;
	(*i)++;
	return 0;
}

int
tl_xshape_parse(const char *s, size_t n, struct tl_xshape *x)
{
	size_t i = 0, t;

	memset(x, 0, sizeof *x);
	while (i < n && (s[i] == '(' || s[i] == ' '))
		i++;
	for (t = i; i < n && ((s[i] >= 'a' && s[i] <= 'z') ||
	    (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9'));
	    i++)
		;
	if (i == t || i - t >= sizeof x->type || i >= n || s[i] != '[')
		return -1;
	memcpy(x->type, s + t, i - t);
	i++;
	if (ints(s, n, &i, ']', x->d, &x->nd) < 0)
		return -1;
	if (i < n && s[i] == '{') {
		i++;
		if (ints(s, n, &i, '}', x->lay, &x->nl) < 0)
			return -1;
	}
	return 0;
}

int
tl_xbpe(const char *t)
{
	if (strcmp(t, "f32") == 0)
		return 4;
	if (strcmp(t, "f16") == 0 || strcmp(t, "bf16") == 0)
		return 2;
	if (strncmp(t, "f8", 2) == 0 || strncmp(t, "fp8", 3) == 0)
		return 1;
	return 0;
}

int
tl_jax_conv(const struct tl_xshape *op, int nop, const struct tl_xshape *out,
    int bwd, int tracelens, struct tl_jaxconv *c)
{
	const int64_t *x, *w, *o;
	int nx, nw, no;
	double po, px, pw, fl, by;

	if (nop < 2)
		return -1;
	x = op[0].d;
	nx = op[0].nd;
	if (nx < 3 || nx > 5)
		return -1;
	o = out->d;
	no = out->nd;
	w = bwd ? out->d : op[1].d;
	nw = bwd ? out->nd : op[1].nd;
	if (tracelens) {	/* the spatial dims only */
		w += 2;
		nw -= 2;
	}
	if (nw < 0)
		nw = 0;
	c->nx = nx;
	c->nw = nw;
	memcpy(c->w, w, (size_t)nw * sizeof *c->w);
	c->bias = nop == 3;
	c->bpe = tl_xbpe(op[0].type);
	po = prod(o, no);
	px = prod(x, nx);
	pw = prod(c->w, nw);
	fl = 2 * (nw > 1 ? prod(c->w + 1, nw - 1) : 1) * po +
	    (c->bias ? po : 0);
	by = (px + pw + po + (c->bias && no > 1 ? (double)o[1] : 0)) * c->bpe;
	if (bwd) {
		/* input grad (x and out swapped) + weight grad + bias */
		double wg = nw > 0 ? (double)c->w[0] * (nw > 2 ?
		    prod(c->w + 2, nw - 2) : 1) : 1;

		fl = 2 * (nw > 1 ? prod(c->w + 1, nw - 1) : 1) * px +
		    2 * wg * po + (c->bias ? po : 0);
		by = 2 * (px + pw + po) * c->bpe + (c->bias && no > 1 ? po +
		    (double)o[1] : 0);
	}
	c->flops = fl;
	c->bytes = c->bpe > 0 ? by : NAN;
	return 0;
}

int
tl_jax_te(const struct tl_xshape *op, int nop, int bwd, int tracelens,
    struct tl_jaxte *a)
{
	const int64_t *q, *k, *v;
	double B, NQ, HQ, NK, HK, dqk, dv, el, r;

	if (nop < 3 || op[0].nd != 4 || op[1].nd != 4 || op[2].nd != 4)
		return -1;
	q = op[0].d;
	k = op[1].d;
	v = op[2].d;
	if (k[0] != q[0] || v[0] != q[0] || k[2] != v[2] || k[1] != v[1] ||
	    k[3] != q[3])
		return -1;
	a->B = B = (double)q[0];
	a->NQ = NQ = (double)q[1];
	a->HQ = HQ = (double)q[2];
	a->dqk = dqk = (double)q[3];
	a->NKV = NK = (double)k[1];
	a->HKV = HK = (double)k[2];
	a->dv = dv = (double)v[3];
	a->bpe = tl_xbpe(op[0].type);
	if (tracelens || a->bpe == 0)
		a->bpe = 2;	/* TraceLens: bytes() at its default of 2 */
	if (!bwd) {
		a->flops = B * HQ * (2 * NQ * NK * dqk + 2 * NQ * NK * dv);
		el = B * NQ * HQ * dqk + B * NK * HK * dqk + B * NK * HK * dv +
		    B * NQ * HQ * dv;
	} else {
		r = HK > 0 ? floor(HQ / HK) - 1 : 0;
		a->flops = 2 * B * HQ * NQ * NK * dqk +
		    2 * B * HQ * NK * NQ * dv + B * NK * dv * r +
		    2 * B * HQ * NQ * NK * dv +
		    2 * B * HQ * NQ * NK * dqk +
		    2 * B * HQ * NK * NQ * dqk + B * NK * dqk * r;
		el = 2 * (B * NQ * HQ * dqk + B * NK * HK * dqk +
		    B * NK * HK * dv) + B * NQ * HQ * dv;
	}
	a->bytes = el * a->bpe;
	return 0;
}

/* A number after "key" in the backend config's text. */
static double
cfgnum(const char *s, const char *key, int *found)
{
	const char *p = strstr(s, key);

	*found = 0;
	if (p == NULL)
		return 0;
	p += strlen(key);
	while (*p == '"' || *p == ':' || *p == '[' || *p == ' ')
		p++;
	if ((*p < '0' || *p > '9') && *p != '-' && *p != '.')
		return 0;
	*found = 1;
	return strtod(p, NULL);
}

int
tl_jax_gemm(const struct tl_xshape *op, int nop, const struct tl_xshape *out,
    const char *cfg, struct tl_jaxgemm *g)
{
	const struct tl_xshape *a;
	int64_t ob[TL_XMAXD];
	int no, lc, f, swap, r, i, pm = -1, pn = -1;

	if (nop < 2)
		return -1;
	a = &op[0];
	g->B = 1;
	g->beta = cfgnum(cfg, "\"beta\"", &f);
	lc = (int)cfgnum(cfg, "\"lhs_contracting_dimensions\"", &f);
	if (!f)
		lc = a->nd - 1;
	if (lc < 0 || lc >= a->nd)
		return -1;
	g->K = (double)a->d[lc];
	no = out->nd;
	memcpy(ob, out->d, (size_t)no * sizeof *ob);
	if (no == 3) {
		g->B = (double)ob[0];
		memmove(ob, ob + 1, 2 * sizeof *ob);
		no = 2;
	}
	if (no != 2)
		return -1;
	/* The output's M dimension minor to its N: the roles swap. */
	r = out->nd;
	for (i = 0; i < out->nl; i++) {
		if (out->lay[i] == r - 2)
			pm = i;
		else if (out->lay[i] == r - 1)
			pn = i;
	}
	swap = pm >= 0 && pn >= 0 && pm < pn;
	g->M = (double)ob[swap ? 1 : 0];
	g->N = (double)ob[swap ? 0 : 1];
	g->bpe = tl_xbpe(a->type);
	g->flops = g->B * (2 * g->M * g->N * g->K + (g->beta != 0 ?
	    g->M * g->N : 0));
	g->bytes = g->bpe > 0 ? g->B * ((g->M * g->K + g->K * g->N +
	    g->M * g->N) * g->bpe + (g->beta != 0 ? g->N * g->bpe : 0)) : NAN;
	return 0;
}
