/*
 * tl-roofline: TraceLens's extension models of GEMMs (aiter, vLLM,
 * hipBLASLt), RoPE and KV-cache writes, DiT's fused layer norm, Mamba-2's
 * SSD, the evoformer attention and grouped GEMMs, and the dispatch of
 * every extension class (ext.h).
 */
#include "ext.h"

/*
 * The GEMM extensions: aiter's a8w8 block-scale, a16w16, afp4wfp4, a4w4
 * and batched GEMMs, vLLM's unquantized GEMM and Primus's hipBLASLt fp8
 * and fp4 GEMMs.
 *	FLOPs = (2 M N K + (M N if bias)) B
 *	bytes = (M K bpe_a + K N bpe_b + M N bpe_out + (N bpe_bias)) B
 *	fp4 (hipBLASLt, a4w4), K the logical K: M (K // 2) bpe_a
 *	    + N (K // 2) bpe_b + (M + N) ceil(K / 32) bpe_scale + 2 M N
 */
static int
xgemm(const struct xcls *X, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *A, *B, *s2 = NULL, *s3 = NULL;
	const char *ta, *tb, *to = "c10::bfloat16", *sa = NULL, *sb = NULL;
	double M, N, K, nb = 1, ba, bb, bo, bbias = 0, sza, szb;
	int bias = 0, batched = X->v == G_B16WFP4 || X->v == G_BA8W8, i;
	int hip = X->v == G_HIPFP8 || X->v == G_HIPFP4, fp4, ta_ = 0, tb_ = 0;

	if ((A = rl_needdim(a, r, 0, batched ? 3 : 2)) == NULL ||
	    (B = rl_needdim(a, r, X->c, batched ? 2 : hip ? 1 : 1)) == NULL)
		return -1;
	ta = typeor(a, 0, "");
	tb = typeor(a, X->c, "");
	if (hip) {
		ta_ = pybool(rl_ci(a, 5));
		tb_ = pybool(rl_ci(a, 6));
		if (pybool(rl_ci(a, 7))) {	/* C = B^T A^T */
			const struct rl_shape *t = A;
			const char *u = ta;

			A = B, B = t, ta = tb, tb = u;
			i = ta_, ta_ = !tb_, tb_ = !i;
		}
		if (A->n < 2 || (tb_ ? B->n < 1 : B->n < 2))
			return rl_fail(r, "a GEMM operand has too few dims");
		M = (double)(ta_ ? A->v[1] : A->v[0]);
		K = (double)(ta_ ? A->v[0] : A->v[1]);
		N = (double)(tb_ ? B->v[0] : B->v[1]);
		sa = rl_type(a, 1);
		sb = rl_type(a, 3);
	} else if (batched) {
		nb = (double)(X->v == G_BA8W8 ? B->v[0] : A->v[0]);
		K = (double)A->v[2];
		if (X->v == G_BA8W8) {
			N = (double)B->v[1];
			M = (double)(A->v[0] == B->v[0] ? A->v[1] : A->v[0]);
		} else {
			M = (double)A->v[1];
			N = (double)B->v[1];
		}
	} else {
		M = (double)A->v[0];
		K = (double)A->v[1];
		N = (double)B->v[0];
	}
	if (X->v == G_AFP4 || X->v == G_HIPFP4 || X->v == G_A4W4)
		K *= 2;			/* two fp4 values a byte */
	if (X->v == G_A4W4) {
		sa = rl_type(a, 2);
		sb = rl_type(a, 3);
	}
	s2 = rl_dim(a, 2);
	s3 = rl_dim(a, 3);
	if (X->v == G_UNQUANT || X->v == G_A16W16)
		bias = rl_nonempty(s2);
	switch (X->v) {
	case G_UNQUANT:
		to = typeor(a, 2, "");
		break;
	case G_ATOMIC:
		to = a->ntypes > 3 ? a->types[3] : "c10::bfloat16";
		break;
	case G_A16W16:
		to = ta;
		break;
	case G_ASM:
		to = a->ntypes > 2 && rl_bpe(a->types[2]) > 0 ? a->types[2] :
		    ta;
		break;
	}
	ba = dbpe(ta);
	bb = dbpe(tb);
	bo = dbpe(to);
	if (X->v == G_UNQUANT) {
		bo = bias ? dbpe(to) : bb;
		bbias = bo;
	} else if (X->v == G_A16W16)
		bbias = ba;
	else if (X->v == G_B16WFP4)
		bb = 0.5, bo = 2;
	else if (X->v == G_AFP4)
		ba = bb = 0.5, bo = 2;
	else if (X->v == G_BA8W8)
		bo = 2;
	else if (hip || X->v == G_A4W4)
		bo = ba == 1 ? 2 : ba;

	/* parameters */
	if (hip || X->v == G_A4W4) {
		rl_pnum(r, P_M, M);
		rl_pnum(r, P_N, N);
		rl_pnum(r, P_K, K);
		rl_pbool(r, P_BIAS, 0);
		rl_pshape(r, P_STRIDE_A, rl_stride(a, 0));
		rl_pshape(r, P_STRIDE_B, rl_stride(a, X->c));
		rl_pstrs(r, P_DTYPE_A_B, 2, ta, tb);
		rl_pstr(r, P_DTYPE_SCALEA, sa);
		rl_pstr(r, P_DTYPE_SCALEB, sb);
		rl_pint(r, P_B, 1);
	} else {
		if (X->v != G_UNQUANT)
			rl_pnum(r, P_B, nb);
		rl_pnum(r, P_M, M);
		rl_pnum(r, P_N, N);
		rl_pnum(r, P_K, K);
		rl_pbool(r, P_BIAS, bias);
		rl_pstrs(r, P_DTYPE_A_B, 3, ta, tb, to);
		if (X->v == G_UNQUANT)
			rl_pint(r, P_B, 1);
	}
	if (X->v == G_BLOCKSCALE) {
		int64_t o[2] = { (int64_t)M, (int64_t)N };

		if (a->ndims > 3) {
			rl_pstr(r, P_QUANT_SCHEME, "a8w8_blockscale");
			rl_pstr(r, P_QUANT_GRANULARITY, "per_block");
			if (s2 != NULL && s2->n > 0 && s2->v[s2->n - 1] > 0)
				rl_pnum(r, P_BLOCK_K, ceil(K /
				    (double)s2->v[s2->n - 1]));
			else
				rl_pstr(r, P_BLOCK_K, NULL);
			if (s3 != NULL && s3->n > 0 && s3->v[0] > 0)
				rl_pnum(r, P_BLOCK_N, ceil(N /
				    (double)s3->v[0]));
			else
				rl_pstr(r, P_BLOCK_N, NULL);
			rl_pstr(r, P_SCALE_DTYPE, typeor(a, 2, "float32"));
		}
		rl_pintlist(r, P_OUTPUT_SHAPE, o, 2);
		rl_pstr(r, P_OUTPUT_DTYPE, "c10::bfloat16");
	}

	r->flop = (2 * M * N * K + (bias ? M * N : 0)) * nb;
	fp4 = X->v == G_HIPFP4 || X->v == G_A4W4;
	if (fp4) {
		sza = dbpe(sa) > 0 ? dbpe(sa) : 1;
		szb = dbpe(sb) > 0 ? dbpe(sb) : 1;
		r->bytes = M * floor(K / 2) * ba + N * floor(K / 2) * bb +
		    M * ceil(K / 32) * sza + N * ceil(K / 32) * szb + 2 * M * N;
	} else
		r->bytes = (M * K * ba + K * N * bb + M * N * bo +
		    (bias ? N * bbias : 0)) * nb;
	r->hasbytes = ba > 0 && bb > 0 && bo > 0 && (!bias || bbias > 0);
	if (!r->hasbytes && (hip || X->v == G_A4W4))
		return rl_fail(r, "a GEMM operand's dtype has no size");
	r->prec = X->v == G_B16WFP4 || X->v == G_AFP4 ? "fp4" :
	    rl_prec(X->v == G_BA8W8 ? tb : ta);
	r->matrix = 1;
	return 0;
}

/*
 * RoPE and KV-cache writes (v 0 aiter cached positions, 1 SGLang rotary
 * embedding, 2 and 3 aiter's MLA q/k RoPE with the cache write, 4
 * SGLang's store_cache): bpe is the first input's dtype size, or 2.
 *	RoPE: FLOPs 3 n, bytes 2 n bpe
 *	MLA: FLOPs 3 T Dp (QH + KH), bytes T (Dl + Dp) (2 QH bpe + KH bpe
 *	    + KH bpe_kv) (q read and written, k read, k cached)
 *	store_cache: 0 FLOPs, 4 n bpe
 */
static int
rope(const struct xcls *X, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *x, *y, *q, *rot;
	const char *t = rl_type(a, X->v == 1 ? 1 : 0), *tkv = t, *tout = t;
	double bpe, bkv, bout, n, head, rd, T, QH, KH, Dl, Dp;
	int64_t h;

	bpe = rl_bpe(t) > 0 ? rl_bpe(t) : 2;
	r->prec = rl_prec(t);
	switch (X->v) {
	case 0:
		if ((x = rl_needdim(a, r, X->x, 0)) == NULL ||
		    (y = rl_needdim(a, r, X->c, 0)) == NULL)
			return -1;
		n = rl_prod(x) + rl_prod(y);
		rl_pshape(r, P_X_SHAPE, x);
		rl_pshape(r, P_Y_SHAPE, y);
		rl_pnum(r, P_NUM_ELEMENTS, n);
		break;
	case 1:
		if ((q = rl_needdim(a, r, X->x, 2)) == NULL ||
		    (x = rl_needdim(a, r, X->c, 2)) == NULL)
			return -1;
		head = (double)q->v[q->n - 1];
		if (ciint(a, X->q, &h))
			head = (double)h;
		rot = rl_dim(a, 4);
		rd = rot != NULL && rot->n > 1 ? (double)rot->v[1] : head;
		if (head <= 0)
			return rl_fail(r, "head size %g", head);
		n = (double)q->v[0] * (floor((double)q->v[1] / head) +
		    floor((double)x->v[1] / head)) * rd;
		rl_pnum(r, P_NUM_ELEMENTS, n);
		break;
	case 2:
	case 3:
		if ((x = rl_needdim(a, r, 0, 3)) == NULL ||
		    (y = rl_needdim(a, r, 1, 3)) == NULL)
			return -1;
		if (x->n != 3)
			return rl_fail(r, "q has %d dims, not 3", x->n);
		T = (double)x->v[0], QH = (double)x->v[1], Dl = (double)x->v[2];
		Dp = (double)y->v[2];
		KH = 1;
		if (X->v == 2) {
			if ((q = rl_needdim(a, r, X->c, 2)) == NULL)
				return -1;
			KH = (double)q->v[1];
		}
		if (a->ntypes > 4 && *a->types[4] != '\0')
			tkv = a->types[4];
		if (X->v == 3 && a->ntypes > 5 && *a->types[5] != '\0')
			tout = a->types[5];
		if (rl_bpe(t) <= 0) {
			r->hasbytes = 0;
			bpe = 0;
		}
		bkv = rl_bpe(tkv) > 0 ? rl_bpe(tkv) : bpe;
		bout = rl_bpe(tout) > 0 ? rl_bpe(tout) : bpe;
		rl_pnum(r, P_T, T);
		rl_pnum(r, P_QH, QH);
		rl_pnum(r, P_KH, KH);
		rl_pnum(r, P_D_LORA, Dl);
		rl_pnum(r, P_D_PE, Dp);
		rl_pstr(r, P_DTYPE_IN, t);
		rl_pstr(r, P_DTYPE_KV2, tkv);
		if (X->v == 3)
			rl_pstr(r, P_DTYPE_OUT, tout);
		r->flop = 3 * (T * QH * Dp + T * KH * Dp);
		r->bytes = T * QH * (Dl + Dp) * bpe + T * KH * (Dl + Dp) * bpe +
		    T * QH * (Dl + Dp) * bout + T * KH * (Dl + Dp) * bkv;
		r->hasbytes = rl_bpe(t) > 0;
		return 0;
	default:
		if ((x = rl_needdim(a, r, 0, 0)) == NULL)
			return -1;
		n = rl_prod(x);
		rl_pshape(r, P_OP_SHAPE, x);
		rl_pnum(r, P_NELEMS, n);
		rl_pstr(r, P_DTYPE, t);
		r->bytes = 4 * n * bpe;
		r->hasbytes = 1;
		return 0;
	}
	r->flop = 3 * n;
	r->bytes = 2 * n * bpe;
	r->hasbytes = 1;
	return 0;
}

/*
 * Primus's fused layer norm with modulation (DiT), x (T, B, ..., H):
 *	fwd: FLOPs 12 n, bytes 2 n bpe + 2 B H bpe + 8 T B
 *	bwd: FLOPs 15 n, bytes 3 n bpe + 8 B T + 3 B H bpe
 */
static int
lnmod(const struct xcls *X, const struct rl_args *a, struct rl_res *r)
{
	static const int mask[3] = { 1, 1, 1 };
	const struct rl_shape *x;
	const char *t;
	double n, T, B, H, bpe = 0;

	if ((x = rl_needdim(a, r, 0, 3)) == NULL ||
	    (t = rl_needtype(a, r, 0)) == NULL || needbpe(r, t, &bpe) < 0)
		return -1;
	n = rl_prod(x);
	T = (double)x->v[0], B = (double)x->v[1], H = (double)x->v[x->n - 1];
	rl_pnormparams(r, x, t, rl_stride(a, 0), H, 1, 1, 1);
	if (X->v)
		rl_pboollist(r, P_OUTPUT_MASK, 3, mask);
	r->flop = (X->v ? 15 : 12) * n;
	r->bytes = X->v ? 3 * n * bpe + 8 * B * T + 3 * B * H * bpe :
	    2 * n * bpe + 2 * B * H * bpe + 8 * T * B;
	r->hasbytes = 1;
	r->isbwd = X->v;
	r->prec = rl_prec(t);
	return 0;
}

/* The size of the dtype of input i, or dflt when it has none known. */
static double
bpeor(const struct rl_args *a, int i, double dflt)
{
	int b = rl_bpe(rl_type(a, i));

	return b > 0 ? b : dflt;
}

/* A concrete input as an integer, or dflt when absent or empty. */
static int
ciintor(const struct rl_args *a, struct rl_res *r, int i, double dflt,
    double *v)
{
	const char *c = rl_ci(a, i);
	int64_t k;

	*v = dflt;
	if (c == NULL || *c == '\0')
		return 0;
	if (tl_parse_i64(c, strlen(c), &k) != 0)
		return rl_fail(r, "concrete_inputs[%d] is not an integer: "
		    "\"%.40s\"", i, c);
	*v = (double)k;
	return 0;
}

/*
 * Mamba-2's split conv1d + scan (the SSD), x (B, T, combined), conv
 * weight (channels, d_conv); the backward is the forward.
 *	FLOPs = 2 B ch T d_conv + 2 B G T C N + 2 B H T C P + 4 B H T N P
 *	bytes = B T combined bpe + ch d_conv bpe + ch bpe
 *	    + H (bpe_dt + bpe_A + bpe_D) + B T H P bpe
 */
static int
mamba(const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *x, *w;
	double Bt, T, comb, ch, dc, H, C, P, G, di, num, N, bpe;

	if ((x = rl_needdim(a, r, 0, 3)) == NULL ||
	    (w = rl_needdim(a, r, 1, 2)) == NULL ||
	    rl_dimat(a, r, 3, 0, &H) < 0 || ciintor(a, r, 6, 128, &C) < 0 ||
	    ciintor(a, r, 15, 64, &P) < 0 || ciintor(a, r, 16, 1, &G) < 0)
		return -1;
	Bt = (double)x->v[0], T = (double)x->v[1], comb = (double)x->v[2];
	ch = (double)w->v[0], dc = (double)w->v[1];
	di = H * P;
	num = comb - 2 * di - H;
	if (G <= 0 || num <= 0 || fmod(num, 2 * G) != 0)
		return rl_fail(r, "the combined dim %g does not fit the heads",
		    comb);
	N = num / (2 * G);
	bpe = bpeor(a, 0, 2);
	rl_pnum(r, P_B, Bt);
	rl_pnum(r, P_T, T);
	rl_pnum(r, P_H, H);
	rl_pnum(r, P_P, P);
	rl_pnum(r, P_G, G);
	rl_pnum(r, P_N, N);
	rl_pnum(r, P_C, C);
	rl_pnum(r, P_D_INNER, di);
	rl_pnum(r, P_D_CONV, dc);
	rl_pnum(r, P_CONV_CHANNELS, ch);
	rl_pnum(r, P_COMBINED_DIM, comb);
	r->flop = r->flop_bwd = 2 * Bt * ch * T * dc + 2 * Bt * G * T * C * N +
	    2 * Bt * H * T * C * P + 2 * (2 * Bt * H * T * N * P);
	r->bytes = r->bytes_bwd = Bt * T * comb * bpe + ch * dc * bpe +
	    ch * bpe + H * (bpeor(a, 3, 4) + bpeor(a, 4, 4) +
	    bpeor(a, 5, bpe)) + Bt * T * di * bpe;
	r->hasbytes = r->hasbytes_bwd = r->hasbwd = 1;
	r->prec = rl_prec(rl_type(a, 0));
	r->matrix = 1;
	return 0;
}

/*
 * AlphaFold's evoformer attention, q (B, N_seq, N_res, H, D): SDPA over
 * B N_seq batches, bpe 2 (TraceLens's, whatever the dtype).
 */
static int
evo(const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *q;
	struct rl_qkv s;
	double e;

	if ((q = rl_needdim(a, r, 0, 5)) == NULL)
		return -1;
	s.B = (double)q->v[0] * (double)q->v[1];
	s.NQ = s.NKV = (double)q->v[2];
	s.HQ = s.HKV = (double)q->v[3];
	s.dqk = s.dv = (double)q->v[4];
	rl_pqkv(r, &s);
	rl_pbool(r, P_CAUSAL, 0);
	rl_pbool(r, P_FLASH_IMPL, 0);
	rl_pstrs(r, P_DTYPE_A_B, 1, rl_type(a, 0));
	e = s.B * s.NQ * s.HQ * s.dqk;	/* q, k, v and o alike */
	r->flop = rl_attn_fwdflop(&s, 0);
	r->bytes = 4 * e * 2;
	r->flop_bwd = rl_attn_bwdflop(&s, 0, 0);
	r->bytes_bwd = 7 * e * 2;
	r->hasbytes = r->hasbytes_bwd = r->hasbwd = 1;
	r->prec = rl_prec(rl_type(a, 0));
	r->matrix = 1;
	return 0;
}

/* The pairs of ints of a shape: itself if it is one, else those in it. */
static int
shapepairs(const struct rl_shape *s, const int64_t **p)
{
	*p = s->v;
	if (s->flat)
		return s->n == 2 && s->v[0] > 0 && s->v[1] > 0;
	return s->npair;
}

/*
 * Primus's grouped GEMMs (v 0 fixed K, 1 variable K): the groups' (M,
 * K) and (K, N), from a compact layout (x (M, K), w (G, N, K) or (G, K,
 * N); variable K: x (M, K), w (K, N)) or zipped lists of pairs.
 *	FLOPs = sum 2 M K N
 *	bytes = sum (M K + K N) bpe_in + M N bpe_out
 */
static int
ggemm(const struct xcls *X, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *x, *w;
	const int64_t *lp, *rp;
	double *g, M = 0, bi, bo, f = 0, b = 0;
	int nl, nr, ng = 0, i, fit = 0;

	if (!a->hasdims || a->ndims < 2)
		return rl_fail(r, "input_dims has %d entries, the model "
		    "reads 2", a->ndims);
	x = &a->dims[0];
	w = &a->dims[1];
	nl = shapepairs(x, &lp);
	nr = shapepairs(w, &rp);
	g = xcalloc((size_t)(nl > 0 ? nl : 1), 4 * sizeof *g);
	if (X->v == 0 && x->flat && x->n >= 2 && x->v[0] > 0 && x->v[1] > 0 &&
	    w->flat && w->n == 3 && w->v[0] > 0 && w->v[1] > 0 && w->v[2] > 0 &&
	    (w->v[1] == x->v[1] || w->v[2] == x->v[1])) {
		g[0] = (double)x->v[0], g[1] = g[2] = (double)x->v[1];
		g[3] = (double)(w->v[1] == x->v[1] ? w->v[2] : w->v[1]);
		ng = (int)w->v[0];	/* G groups of N K weights */
		fit = 1;
	} else if (X->v == 1 && x->flat && w->flat && x->n == 2 &&
	    w->n == 2 && nl == 1 && nr == 1) {
		g[0] = (double)x->v[0], g[1] = g[2] = (double)x->v[1];
		g[3] = (double)w->v[1];
		ng = fit = 1;
	} else if (nl > 0 && nl == nr) {
		fit = 1;
		for (i = 0; i < nl; i++) {
			g[4 * i] = (double)lp[2 * i];
			g[4 * i + 1] = (double)lp[2 * i + 1];
			g[4 * i + 2] = (double)rp[2 * i];
			g[4 * i + 3] = (double)rp[2 * i + 1];
			if (g[4 * i + 1] != g[4 * i + 2] || (X->v == 0 &&
			    (g[4 * i + 1] != g[1] || g[4 * i + 3] != g[3])))
				fit = 0;
		}
		ng = nl;
	}
	if (!fit) {
		free(g);
		return rl_fail(r, "the shapes are no grouped GEMM layout");
	}
	bi = rl_bpe(rl_type(a, 0));
	bo = a->ntypes > 1 ? rl_bpe(a->types[1]) : bi;
	if (bi <= 0 || bo <= 0) {
		free(g);
		return rl_fail(r, "a dtype has no size");
	}
	if (X->v == 0 && x->flat && w->flat && w->n == 3) {
		M = g[0];
		f = 2 * M * g[1] * g[3];
		b = (M * g[1] + ng * g[1] * g[3]) * bi + M * g[3] * bo;
	} else
		for (i = 0; i < ng; i++) {
			M += g[4 * i];
			f += 2 * g[4 * i] * g[4 * i + 1] * g[4 * i + 3];
			b += X->v == 0 ? g[4 * i] * g[1] * bi :
			    (g[4 * i] * g[4 * i + 1] + g[4 * i + 1] *
			    g[4 * i + 3]) * bi;
			b += g[4 * i] * g[4 * i + 3] * bo;
		}
	if (X->v == 0 && !(x->flat && w->flat && w->n == 3))
		b += ng * g[1] * g[3] * bi;
	rl_pnum(r, P_M, M);
	rl_pnum(r, P_K, g[1]);
	rl_pnum(r, P_N, g[3]);
	rl_pint(r, P_G, ng);
	rl_pnum(r, P_BPE_IN, bi);
	rl_pnum(r, P_BPE_OUT, bo);
	if (X->v == 1)
		rl_pgroups(r, P_GROUP_PAIRS, ng, g);
	free(g);
	r->flop = f;
	r->bytes = b;
	r->hasbytes = 1;
	r->prec = rl_prec(rl_type(a, 0));
	r->matrix = 1;
	return 0;
}

int
rl_ext(int cls, const struct rl_args *a, struct rl_res *r)
{
	const struct xcls *X = &xcls[cls - C_X0];
	const struct rl_shape *st;

	switch (X->kind) {
	case K_RMS:
		return rms(X, a, r);
	case K_ARRMS:
	case K_AR:
	case K_GATHER:
	case K_REGGATHER:
		return coll(X, a, r);
	case K_PGQ:
		return pgq(a, r);
	case K_TPGQ:
		return tpgq(X, a, r);
	case K_SAMPLE:
		return sample(a, r);
	case K_LIGER:
		if (needstride(a, r, 0, &st) < 0 ||
		    needstride(a, r, 1, &st) < 0)
			return -1;
		return rl_binary(C_BINARY, a, r);
	case K_MHC:
	case K_TOPK:
		return mhc(X, a, r);
	case K_GEMM:
		return xgemm(X, a, r);
	case K_MOE:
		return rl_moe(X->v, a, r);
	case K_ROPE:
		return rope(X, a, r);
	case K_LNMOD:
		return lnmod(X, a, r);
	case K_MAMBA:
		return mamba(a, r);
	case K_EVO:
		return evo(a, r);
	case K_ATTN:
		return rl_attn(X->v, a, r);
	case K_GGEMM:
		return ggemm(X, a, r);
	case K_CONVBIAS:
		return rl_convbias(X->q, a, r);
	default:
		return unary(X, a, r);
	}
}
