/*
 * tl-roofline: TraceLens's inference attention models (vLLM's unified
 * attention, aiter's varlen, paged, MLA and sparse kernels, SGLang's
 * paged and tilelang kernels, DeepSeek-V4's paged decode, gated delta
 * net). The batch's statistics come from the iteration annotation
 * around the op: c_ the context (prefill) tokens, g_ the generation
 * (decode) ones, sq the query tokens, sk the key tokens, sqsq and sqsk
 * the sums of the products per sequence. With W the sliding window
 * (cap(v) = min(v, g_sq W) when W > 0):
 *
 *	FLOPs = H_Q (2 c_sqsk d_qk + 2 c_sqsk d_v - c_sqsq d_qk - c_sqsq d_v)
 *	    + H_Q (2 cap(g_sqsk) d_qk + 2 cap(g_sqsk) d_v)
 *	bytes = (c_sq + g_sq)(H_Q d_qk + H_Q d_v + H_KV d_qk + H_KV d_v) bpe
 *	    + (c_sk - c_sq + cap(g_sk) - g_sq)(H_KV d_qk + H_KV d_v) bpe_kv
 *
 * Without statistics (no annotation, or one that does not carry them)
 * the op has no row, as in TraceLens.
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../common/tsv.h"
#include "roof.h"

enum { SQ, SK, SQSQ, SQSK };

/* The literal s at *p: advance past it, 1; else 0. */
static int
lit(const char **p, const char *s)
{
	size_t n = strlen(s);

	if (strncmp(*p, s, n) != 0)
		return 0;
	*p += n;
	return 1;
}

/* Digits at *p: their value, 1; else 0. */
static int
digits(const char **p, double *v)
{
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return 0;
	for (*v = 0; isdigit((unsigned char)*s); s++)
		*v = *v * 10 + (*s - '0');
	*p = s;
	return 1;
}

/* "sq<a>sk<b>sqsq<c>sqsk<d>" at *p into v[4]. */
static int
vllmgroup(const char **p, double *v)
{
	return lit(p, "(sq") && digits(p, &v[SQ]) && lit(p, "sk") &&
	    digits(p, &v[SK]) && lit(p, "sqsq") && digits(p, &v[SQSQ]) &&
	    lit(p, "sqsk") && digits(p, &v[SQSK]) && lit(p, ")");
}

/* The integer after "key=" in s (key not preceded by a name char). */
static double
keyval(const char *s, const char *key)
{
	size_t n = strlen(key);
	const char *p;
	double v;

	for (p = s; (p = strstr(p, key)) != NULL; p++)
		if (p[n] == '=' && (p == s || (!isalnum((unsigned char)p[-1]) &&
		    p[-1] != '_'))) {
			p += n + 1;
			return digits(&p, &v) ? v : 0;
		}
	return 0;
}

/*
 * The statistics of an iteration annotation, c[4] and g[4]: 0, or -1
 * when it has none (vLLM's, SGLang's and ATOM's detailed formats have
 * them; their native formats and anything else do not).
 */
static int
stats(const char *s, double *c, double *g)
{
	static const char *const key[4] = { "sq", "sk", "sqsq", "sqsk" };
	const char *p = s;
	char k[8];
	double v;
	int i, pre;

	memset(c, 0, 4 * sizeof *c);
	memset(g, 0, 4 * sizeof *g);
	if (s == NULL)
		return -1;
	if (lit(&p, "execute_") && digits(&p, &v) && lit(&p, "_context_") &&
	    digits(&p, &v) && vllmgroup(&p, c) && lit(&p, "_generation_") &&
	    digits(&p, &v) && vllmgroup(&p, g))
		return 0;
	memset(c, 0, 4 * sizeof *c);
	if (strncmp(s, "step[", 5) == 0 && strstr(s, "sqsq=") != NULL) {
		for (i = 0; i < 4; i++) {
			snprintf(k, sizeof k, "c_%s", key[i]);
			c[i] = keyval(s, k);
			snprintf(k, sizeof k, "g_%s", key[i]);
			g[i] = keyval(s, k);
		}
		return 0;
	}
	pre = strncmp(s, "prefill[", 8) == 0;
	if ((pre || strncmp(s, "decode[", 7) == 0) &&
	    strstr(s, "sqsq=") != NULL) {
		double *d = pre ? c : g;

		d[SQ] = keyval(s, "tok");
		d[SK] = keyval(s, "sk");
		d[SQSQ] = keyval(s, "sqsq");
		d[SQSK] = keyval(s, "sqsk");
		return 0;
	}
	return -1;
}

/* The shape of the attention, and the statistics. */
struct att {
	double NQ, HQ, NKV, HKV, dqk, dv, c[4], g[4], W;
	const char *tq, *tkv;
};

static void
params(struct rl_res *r, const struct att *t, int kv, int window)
{
	static const int cp[4] = { P_C_SQ, P_C_SK, P_C_SQSQ, P_C_SQSK };
	static const int gp[4] = { P_G_SQ, P_G_SK, P_G_SQSQ, P_G_SQSK };
	int i;

	rl_pint(r, P_B, 1);
	rl_pnum(r, P_N_Q, t->NQ);
	rl_pnum(r, P_H_Q, t->HQ);
	rl_pnum(r, P_H_V, t->HKV);
	rl_pnum(r, P_H_K, t->HKV);
	rl_pnum(r, P_N_KV, t->NKV);
	rl_pnum(r, P_H_KV, t->HKV);
	rl_pnum(r, P_D_H_QK, t->dqk);
	rl_pnum(r, P_D_H_V, t->dv);
	rl_pfloat(r, P_DROPOUT, 0);
	rl_pbool(r, P_CAUSAL, 0);
	rl_pbool(r, P_FLASH_IMPL, 1);
	for (i = 0; i < 4; i++)
		rl_pnum(r, cp[i], t->c[i]);
	for (i = 0; i < 4; i++)
		rl_pnum(r, gp[i], t->g[i]);
	rl_pstr(r, P_DTYPE_Q, t->tq);
	if (kv)
		rl_pstr(r, P_DTYPE_KV, t->tkv);
	if (window)
		rl_pnum(r, P_SLIDING_WINDOW, t->W);
}

static double
cap(const struct att *t, double v)
{
	double m = t->g[SQ] * t->W;

	return t->W > 0 && t->g[SQ] > 0 && m < v ? m : v;
}

static int
formula(struct rl_res *r, const struct att *t)
{
	double bpe, bkv, gsk = cap(t, t->g[SK]);

	if (t->c[SQ] == 0 && t->g[SQ] == 0)
		return rl_fail(r, "the annotation has no query tokens");
	bpe = rl_bpe(t->tq) > 0 ? rl_bpe(t->tq) : 2;
	bkv = rl_bpe(t->tkv) > 0 ? rl_bpe(t->tkv) : bpe;
	r->flop = t->HQ * (2 * t->c[SQSK] * t->dqk + 2 * t->c[SQSK] * t->dv -
	    t->c[SQSQ] * t->dqk - t->c[SQSQ] * t->dv) +
	    t->HQ * (2 * cap(t, t->g[SQSK]) * t->dqk +
	    2 * cap(t, t->g[SQSK]) * t->dv);
	r->bytes = (t->c[SQ] + t->g[SQ]) * (t->HQ * t->dqk + t->HQ * t->dv +
	    t->HKV * t->dqk + t->HKV * t->dv) * bpe +
	    (t->c[SK] - t->c[SQ] + gsk - t->g[SQ]) *
	    (t->HKV * t->dqk + t->HKV * t->dv) * bkv;
	r->hasbytes = 1;
	r->prec = rl_prec(t->tq);
	r->matrix = 1;
	return 0;
}

/* A DeepSeek-V4 config: name, index_topk, window, heads, head dim. */
static const struct {
	const char *name;
	double topk, window, heads, dh;
} v4cfg[2] = {
	{ "deepseek-v4-pro", 1024, 128, 128, 512 },
	{ "", 512, 128, 64, 512 },
};

/* An args value, or dflt when absent or 0. */
static double
argor(const struct rl_args *a, const char *key, double dflt)
{
	double v;

	return rl_argnum(a, key, &v) && v != 0 ? v : dflt;
}

/* DeepSeek-V4's paged decode (v 0 swa, 1 csa, 2 hca). */
static int
v4(int v, const struct rl_args *a, struct rl_res *r, struct att *t)
{
	const struct rl_shape *q = rl_dim(a, 0);
	char name[128], *p;
	double tp, win, topk;
	int k = 1;

	if (rl_argstr(a, "v4_model_name", name, sizeof name) >= 0) {
		for (p = name; *p != '\0'; p++)
			*p = (char)tolower((unsigned char)*p);
		if (strstr(name, v4cfg[0].name) != NULL)
			k = 0;
	}
	memset(t->c, 0, sizeof t->c);
	tp = argor(a, "v4_tp", 1);
	t->HQ = argor(a, "v4_H_Q", floor(v4cfg[k].heads / tp));
	if (t->HQ < 1)
		t->HQ = 1;
	t->dqk = t->dv = argor(a, "v4_d_h", v4cfg[k].dh);
	t->NQ = q != NULL && q->n > 0 && q->v[0] != 0 ? (double)q->v[0] :
	    t->g[SQ];
	t->HKV = 1;
	t->NKV = t->g[SK];
	t->tq = t->tkv = "c10::bfloat16";
	win = argor(a, "v4_window", v4cfg[k].window);
	topk = argor(a, "v4_index_topk", v4cfg[k].topk);
	if (v == 0)
		t->W = win;
	else if (v == 1)
		t->W = t->g[SQ] <= 0 ? win + topk : win +
		    fmin(ceil(t->g[SK] / t->g[SQ] / 4), topk);
	else
		t->W = t->g[SQ] <= 0 ? 0 : win +
		    ceil(t->g[SK] / t->g[SQ] / 128);
	params(r, t, 1, 1);
	return formula(r, t);
}

/* vLLM's gated delta net attention: fixed 2-byte tensors. */
static int
gdn(const struct rl_args *a, struct rl_res *r, struct att *t)
{
	const struct rl_shape *x, *h, *v;
	double D, HV, dv, HK, dk, n;

	if ((x = rl_needdim(a, r, 0, 2)) == NULL ||
	    (h = rl_needdim(a, r, 1, 2)) == NULL ||
	    (v = rl_needdim(a, r, 3, 3)) == NULL)
		return -1;
	D = (double)x->v[1], HV = (double)h->v[1], dv = (double)v->v[2];
	HK = floor(HV / 2);
	if (HK <= 0)
		return rl_fail(r, "no key heads");
	dk = floor(floor((D - HV * dv) / 2) / HK);
	n = t->c[SQ] + t->g[SQ];
	if (n == 0)
		return rl_fail(r, "the annotation has no query tokens");
	{
		static const int key[17] = { P_B, P_N_Q, P_H_Q, P_N_KV,
		    P_H_KV, P_H_V, P_H_K, P_D_H_QK, P_D_H_V, P_C_SQ, P_C_SK,
		    P_C_SQSQ, P_C_SQSK, P_G_SQ, P_G_SK, P_G_SQSQ, P_G_SQSK };
		const double val[17] = { 1, n, HK, 0, HK, HV, HK, dk, dv,
		    t->c[SQ], t->c[SQ], 0, 0, t->g[SQ], t->g[SQ], 0, 0 };
		int i;

		for (i = 0; i < 17; i++)
			rl_pnum(r, key[i], val[i]);
	}
	rl_pstr(r, P_DTYPE_Q, rl_type(a, 0));
	r->flop = n * HV * 7 * dv * dk;
	r->bytes = n * HV * (dk + 2 * dv + 2) * 2;
	r->hasbytes = 1;
	r->prec = rl_prec(rl_type(a, 0));
	r->matrix = 1;
	return 0;
}

/* aiter's sparse prefill: the (query, key) pairs it attends. */
static int
sparse(const struct rl_args *a, struct rl_res *r, struct att *t)
{
	const struct rl_shape *q, *p1, *p2;
	double pairs, bpe, bkv;

	if ((q = rl_needdim(a, r, 0, 3)) == NULL ||
	    (p1 = rl_needdim(a, r, 2, 1)) == NULL ||
	    (p2 = rl_needdim(a, r, 5, 1)) == NULL)
		return -1;
	pairs = (double)p1->v[0] + (double)p2->v[0];
	t->NQ = (double)q->v[0], t->HQ = (double)q->v[1];
	t->dqk = t->dv = (double)q->v[2];
	t->HKV = 1;
	t->NKV = pairs;
	rl_pint(r, P_B, 1);
	rl_pnum(r, P_N_Q, t->NQ);
	rl_pnum(r, P_H_Q, t->HQ);
	rl_pint(r, P_H_V, 1);
	rl_pint(r, P_H_K, 1);
	rl_pnum(r, P_N_KV, pairs);
	rl_pint(r, P_H_KV, 1);
	rl_pnum(r, P_D_H_QK, t->dqk);
	rl_pnum(r, P_D_H_V, t->dv);
	rl_pfloat(r, P_DROPOUT, 0);
	rl_pbool(r, P_CAUSAL, 0);
	rl_pbool(r, P_FLASH_IMPL, 1);
	rl_pnum(r, P_PREFILL_PAIRS, pairs);
	rl_pstr(r, P_DTYPE_Q, t->tq);
	rl_pstr(r, P_DTYPE_KV, t->tkv);
	bpe = rl_bpe(t->tq) > 0 ? rl_bpe(t->tq) : 2;
	bkv = rl_bpe(t->tkv) > 0 ? rl_bpe(t->tkv) : bpe;
	r->flop = pairs * t->HQ * 2 * (t->dqk + t->dv);
	r->bytes = 2 * t->NQ * t->HQ * t->dqk * bpe + pairs * t->dv * bkv;
	r->hasbytes = 1;
	r->prec = t->tq != NULL && *t->tq != '\0' ? rl_prec(t->tq) : "bf16";
	r->matrix = 1;
	return 0;
}

int
rl_attn(int v, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *q, *k, *s;
	struct att t;
	const char *c;
	int64_t w;
	int qi = v == ATT_RAGGED ? 2 : 0;

	memset(&t, 0, sizeof t);
	t.tq = rl_type(a, qi);
	t.tkv = a->ntypes > 1 ? a->types[1] : t.tq;
	if (v == ATT_SPARSE)
		return sparse(a, r, &t);
	if (stats(a->annot, t.c, t.g) < 0)
		return rl_fail(r, "no iteration statistics (no detailed "
		    "annotation around the op)");
	if (v == ATT_GDN)
		return gdn(a, r, &t);
	if (v >= ATT_V4_SWA)
		return v4(v - ATT_V4_SWA, a, r, &t);
	if ((q = rl_needdim(a, r, qi, 3)) == NULL)
		return -1;
	if (v != ATT_GLUON && q->n != 3)
		return rl_fail(r, "q has %d dims, not 3", q->n);
	t.NQ = (double)q->v[0], t.HQ = (double)q->v[1];
	t.dqk = (double)q->v[2];
	switch (v) {
	case ATT_RAGGED:
		if ((k = rl_needdim(a, r, 3, 2)) == NULL ||
		    (s = rl_needdim(a, r, 4, 1)) == NULL)
			return -1;
		t.HKV = (double)k->v[k->n - 2];
		t.dv = (double)s->v[s->n - 1];
		t.NKV = t.c[SK] + t.g[SK];
		t.tkv = t.tq;
		params(r, &t, 0, 0);
		return formula(r, &t);
	case ATT_GLUON:
		if ((k = rl_needdim(a, r, 2, 2)) == NULL)
			return -1;
		t.HKV = (double)k->v[1];
		t.dv = t.dqk;
		memset(t.c, 0, sizeof t.c);
		t.NKV = t.g[SK];
		t.tkv = a->ntypes > 2 ? a->types[2] : t.tq;
		c = rl_ci(a, 19);
		t.W = c != NULL && tl_parse_i64(c, strlen(c), &w) == 0 ?
		    (double)w : 0;
		params(r, &t, 1, 1);
		return formula(r, &t);
	}
	if ((k = rl_needdim(a, r, 1, 3)) == NULL)
		return -1;
	t.NKV = (double)k->v[k->n - 3], t.HKV = (double)k->v[k->n - 2];
	t.dv = (double)k->v[k->n - 1];
	if (v == ATT_VDIM && (s = rl_dim(a, 2)) != NULL && s->n > 0)
		t.dv = (double)s->v[s->n - 1];
	if (v == ATT_TILELANG) {
		/*
		 * TraceLens reads the head dim from a key events never
		 * have and takes 512; without -t, concrete input 4.
		 */
		t.dv = 512;
		c = rl_ci(a, 4);
		if (!rl_tracelens && c != NULL && tl_parse_i64(c, strlen(c),
		    &w) == 0 && w > 0)
			t.dv = (double)w;
	}
	params(r, &t, 1, 0);
	return formula(r, &t);
}
