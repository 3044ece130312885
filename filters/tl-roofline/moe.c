/*
 * tl-roofline: TraceLens's MoE models. With M the tokens, K the hidden
 * and N the intermediate size, g 2 for a gated up projection, and
 * E_active = E (1 - ((E - topk) / E)^M) the experts the tokens reach:
 *
 *	fused: FLOPs = 2 M K N topk g + 2 M K N topk + M K (2 topk - 1)
 *	    bytes = M K in + E_active N K w (g + 1) + M K out
 *	up: FLOPs = 2 M K N topk g,
 *	    bytes = M K in + E_active g K N w + M N topk out
 *	down: FLOPs = 2 M N K topk,
 *	    bytes = M N topk in + E_active N K w + M K out
 *	grouped GEMM (SGLang): m = M topk, FLOPs = 2 m N K,
 *	    bytes = m K in + E_active N K w + m N out
 *	top-k, sort: FLOPs = the largest operand, bytes = all operands
 *	dispatch, combine: 0 FLOPs, M K bpe bytes, the same backward
 *
 * aiter's weights are w1 (E, N g, K / p) and w2 (E, K, N / p): the
 * hidden size is w2[1], the packing p = K // w1[-1], N = w2[2] p.
 * TraceLens sizes MoE dtypes with a table of its own (case-sensitive:
 * Kineto's "float" is not in it), each tensor with a default when its
 * dtype is not a key; without --tracelens the general dtype table is
 * tried before the default.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "../../common/tsv.h"
#include "roof.h"

static const struct {
	const char *name;
	double bpe;
} moebpe[] = {
	{ "Float8_e4m3fn", 1 }, { "Float8_e4m3fnuz", 1 }, { "Float8_e5m2", 1 },
	{ "Float8_e5m2fnuz", 1 }, { "FP8", 1 }, { "FP4", 0.5 },
	{ "BFloat16", 2 }, { "Float16", 2 }, { "Half", 2 }, { "Float32", 4 },
	{ "Float", 4 }, { "c10::BFloat16", 2 }, { "c10::Float8_e4m3fn", 1 },
	{ "c10::Float8_e4m3fnuz", 1 }, { "c10::Float4_e2m1fn_x2", 0.5 },
	{ "c10::Half", 2 }, { "c10::Float", 4 }
};

/* The weights' dtype of a Triton MoE kernel, from its name, or NULL. */
static const char *
kname(const char *k)
{
	char low[256];
	size_t i;

	for (i = 0; k[i] != '\0' && i < sizeof low - 1; i++)
		low[i] = (char)(k[i] >= 'A' && k[i] <= 'Z' ? k[i] - 'A' + 'a' :
		    k[i]);
	low[i] = '\0';
	if (strstr(low, "fp4") != NULL)		/* mxfp4 too */
		return "FP4";
	if (strstr(low, "fp8") != NULL || strstr(low, "e4m3") != NULL)
		return "FP8";
	return NULL;
}

/* The size of an MoE tensor of dtype t, dflt when t is not known. */
static double
mbpe(const char *t, double dflt)
{
	size_t i;
	int b;

	if (t == NULL)
		return dflt;
	for (i = 0; i < sizeof moebpe / sizeof *moebpe; i++)
		if (strcmp(t, moebpe[i].name) == 0)
			return moebpe[i].bpe;
	if (!rl_tracelens && (b = rl_bpe(t)) > 0)
		return b;
	return dflt;
}

static double
eactive(double E, double topk, double M)
{
	if (E == 0)
		return 0;
	return E * (1 - pow((E - topk) / E, M));
}

/* aiter's weights w1, w2: hidden, inter, E and gated. */
static int
aiterw(const struct rl_args *a, struct rl_res *r, int i1, int i2,
    double *K, double *N, double *E, int *gated)
{
	const struct rl_shape *w1, *w2;

	if ((w1 = rl_needdim(a, r, i1, 2)) == NULL ||
	    (w2 = rl_needdim(a, r, i2, 3)) == NULL)
		return -1;
	if (w1->v[w1->n - 1] == 0)
		return rl_fail(r, "w1's last dim is 0");
	*K = (double)w2->v[1];
	*N = (double)w2->v[2] * floor(*K / (double)w1->v[w1->n - 1]);
	*E = (double)w1->v[0];
	*gated = (double)w1->v[1] == 2 * *N;
	return 0;
}

/* The input tensors with a shape: their shapes and dtypes. */
static int
operands(const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *s, *sv[64];
	const char *tv[64];
	double n, max = 0, bytes = 0;
	int i, k = 0, b;

	for (i = 0; i < a->ndims && k < 64; i++) {
		if ((s = rl_dim(a, i)) == NULL || s->n == 0)
			continue;
		sv[k] = s;
		tv[k] = rl_type(a, i);
		n = rl_prod(s);
		if (n > max || k == 0) {
			r->prec = rl_prec(tv[k]);
			max = n;
		}
		if ((b = rl_bpe(tv[k])) > 0)
			bytes += n * b;
		k++;
	}
	rl_poperands(r, P_OPERANDS, k, sv, tv);
	r->flop = max;
	r->bytes = bytes;
	r->hasbytes = bytes > 0;
	return 0;
}

/* SGLang's fused_append_shared_experts: an element-wise model. */
static int
append(const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *s1, *s2;
	const char *t1, *t2;
	double n1, n2, b1, b2;
	int64_t d1, d2;
	int i, n;

	if ((s1 = rl_needdim(a, r, 0, 0)) == NULL)
		return -1;
	s2 = rl_dim(a, 1);
	if (s2 == NULL || s2->n == 0)
		s2 = s1;
	n = s1->n > s2->n ? s1->n : s2->n;
	for (i = 0; i < n; i++) {
		d1 = i < s1->n ? s1->v[s1->n - 1 - i] : 1;
		d2 = i < s2->n ? s2->v[s2->n - 1 - i] : 1;
		if (d1 != d2 && d1 != 1 && d2 != 1)
			return rl_fail(r, "shapes do not broadcast");
	}
	t1 = a->ntypes > 0 && *a->types[0] != '\0' ? a->types[0] : "int";
	t2 = a->ntypes > 1 ? a->types[1] : "float";
	rl_pshape(r, P_SHAPE_IN1, s1);
	rl_pshape(r, P_SHAPE_IN2, s2);
	rl_pstrs(r, P_DTYPE_IN1_IN2_OUT, 3, t1, t2, t2);
	rl_pstr(r, P_STRIDE_INPUT1, NULL);
	rl_pstr(r, P_STRIDE_INPUT2, NULL);
	rl_pstr(r, P_STRIDE_OUTPUT, NULL);
	n1 = rl_prod(s1);
	n2 = rl_prod(s2);
	b1 = rl_bpe(t1) > 0 ? rl_bpe(t1) : 4;
	b2 = rl_bpe(t2) > 0 ? rl_bpe(t2) : 4;
	r->flop = n1;
	r->bytes = 2 * (n1 * b1 + n2 * b2);
	r->hasbytes = 1;
	r->prec = rl_prec(t2);
	return 0;
}

/* MoE dispatch and combine: bytes moved, no FLOPs. */
static int
comm(const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *x = rl_dim(a, 0);
	const char *t = rl_type(a, 0);
	int b = rl_bpe(t), has = x != NULL && x->n >= 2 && b > 0;

	if (x != NULL && x->n > 0)
		rl_pint(r, P_NUM_TOKENS, x->v[0]);
	else
		rl_pstr(r, P_NUM_TOKENS, NULL);
	if (x != NULL && x->n > 1)
		rl_pint(r, P_HIDDEN_DIM, x->v[1]);
	else
		rl_pstr(r, P_HIDDEN_DIM, NULL);
	if (b > 0)
		rl_pint(r, P_BPE, b);
	else
		rl_pstr(r, P_BPE, NULL);
	r->hasbytes = r->hasbytes_bwd = has;
	r->bytes = r->bytes_bwd = has ? (double)x->v[0] * (double)x->v[1] *
	    b : 0;
	r->hasbwd = 1;
	return 0;
}

int
rl_moe(int v, const struct rl_args *a, struct rl_res *r)
{
	const char *tin, *tw, *to;
	double M = 0, K = 0, N = 0, E = 0, topk = 0, in, w, out, g, Ea, m;
	int gated = 0, kind, i;
	int64_t k;
	const char *c;

	switch (v) {
	case MOE_TOPK:
	case MOE_SORT:
		return operands(a, r);
	case MOE_APPEND:
		return append(a, r);
	case MOE_DISPATCH:
		return comm(a, r);
	}

	/* shapes */
	switch (v) {
	case MOE_FUSED1:
	case MOE_FLY1:
	case MOE_FLY2:
		if (rl_dimat(a, r, 0, 0, &M) < 0 ||
		    aiterw(a, r, 1, 2, &K, &N, &E, &gated) < 0 ||
		    rl_dimat(a, r, 3, 1, &topk) < 0)
			return -1;
		break;
	case MOE_BLOCKSCALE:
		if (rl_dimat(a, r, 0, 0, &M) < 0 ||
		    aiterw(a, r, 2, 3, &K, &N, &E, &gated) < 0)
			return -1;
		if ((c = rl_needci(a, r, 8)) == NULL)
			return -1;
		if (tl_parse_i64(c, strlen(c), &k) != 0)
			return rl_fail(r, "topk is not an integer: \"%.40s\"",
			    c);
		topk = (double)k;
		break;
	case MOE_AUP:
		if (rl_dimat(a, r, 0, 1, &K) < 0 ||
		    rl_dimat(a, r, 1, 1, &E) < 0 ||
		    rl_dimat(a, r, 2, 2, &N) < 0)
			return -1;
		M = (double)a->dims[0].v[0];
		E = (double)a->dims[1].v[0];
		gated = (double)a->dims[1].v[1] == 2 * N;
		topk = (double)a->dims[2].v[1];
		break;
	case MOE_ADOWN:
	case MOE_CK2:
		if (rl_dimat(a, r, 0, 2, &N) < 0 ||
		    rl_dimat(a, r, v == MOE_CK2 ? 2 : 1, 1, &K) < 0)
			return -1;
		M = (double)a->dims[0].v[0];
		topk = (double)a->dims[0].v[1];
		E = (double)a->dims[v == MOE_CK2 ? 2 : 1].v[0];
		if (v == MOE_CK2 && rl_nonempty(rl_dim(a, 1))) {
			if (rl_dimat(a, r, 1, -1, &m) < 0)
				return -1;
			if (m == 0)
				return rl_fail(r, "w1's last dim is 0");
			N *= floor(K / m);
		}
		break;
	case MOE_CK1:
		if (rl_dimat(a, r, 0, 0, &M) < 0 ||
		    rl_dimat(a, r, 2, 2, &N) < 0 ||
		    rl_dimat(a, r, 1, -1, &m) < 0 ||
		    rl_dimat(a, r, 6, 1, &topk) < 0)
			return -1;
		E = (double)a->dims[2].v[0];
		K = (double)a->dims[2].v[1];
		if (m == 0)
			return rl_fail(r, "w1's last dim is 0");
		N *= floor(K / m);
		gated = (double)a->dims[1].v[1] == 2 * N;
		break;
	case MOE_GPTQ_UP:
	case MOE_GPTQ_DOWN:
		if (rl_dimat(a, r, 0, 1, &K) < 0)
			return -1;
		M = (double)a->dims[0].v[0];
		if (!rl_argnum(a, "MoE topk", &topk))
			return rl_fail(r, "no \"MoE topk\" in args");
		if (v == MOE_GPTQ_UP) {
			double gv = 1;

			if (rl_dimat(a, r, 1, 1, &N) < 0)
				return -1;
			E = (double)a->dims[1].v[0];
			rl_argnum(a, "MoE GEMM gated", &gv);
			gated = gv != 0;
			if (gated)
				N = floor(N / 2);
		} else {
			if (rl_dimat(a, r, 2, 2, &N) < 0)
				return -1;
			E = (double)a->dims[2].v[0];
			N *= 2;
		}
		break;
	case MOE_TRITON_UP:
	case MOE_TRITON_DOWN:
		if (rl_dimat(a, r, 0, 1, &K) < 0 ||
		    rl_dimat(a, r, 1, 1, &E) < 0)
			return -1;
		M = (double)a->dims[0].v[0];
		N = K;
		if (!rl_argnum(a, "MoE topk", &topk) ||
		    !rl_argnum(a, "MoE GEMM gated", &m))
			return rl_fail(r, "no \"MoE topk\" or \"MoE GEMM "
			    "gated\" in args");
		gated = m != 0;
		if (a->ntypes < 2)
			return rl_fail(r, "input_types has %d entries, the "
			    "model reads 2", a->ntypes);
		break;
	case MOE_INVOKE:
		if (a->ndims < 9)
			return rl_fail(r, "input_dims has %d entries, the "
			    "model reads 9", a->ndims);
		if (rl_dimat(a, r, 1, 2, &K) < 0 ||
		    rl_dimat(a, r, 8, 1, &topk) < 0)
			return -1;
		E = (double)a->dims[1].v[0];
		N = (double)a->dims[1].v[1];
		M = (double)a->dims[8].v[0];
		break;
	}

	/* dtypes */
	tin = rl_type(a, 0);
	tw = rl_type(a, 1);
	to = tin;
	if (v == MOE_BLOCKSCALE) {
		to = rl_type(a, 0);
		tin = rl_type(a, 1);
		tw = rl_type(a, 2);
	} else if (v == MOE_AUP || v == MOE_ADOWN)
		to = rl_type(a, 2);
	else if (v == MOE_CK2)
		tw = rl_type(a, 2);
	else if (v == MOE_INVOKE)
		to = a->ntypes > 3 && *a->types[3] != '\0' ? a->types[3] :
		    tin;
	else if (v == MOE_GPTQ_UP || v == MOE_GPTQ_DOWN) {
		if (tin == NULL)
			tin = to = "BFloat16";
		tw = NULL;
	} else if (v == MOE_TRITON_UP || v == MOE_TRITON_DOWN) {
		/* the weights' dtype from the kernel's name */
		if (mbpe(tin, -1) < 0)
			return rl_fail(r, "input dtype \"%.40s\" has no MoE "
			    "size", tin);
		if (a->kernel == NULL)
			return rl_fail(r, "no kernel");
		tw = kname(a->kernel);
		if (tw == NULL)
			return rl_fail(r, "kernel \"%.60s\" names no fp4 or "
			    "fp8 weights", a->kernel);
	}
	in = mbpe(tin, 2);
	w = v == MOE_GPTQ_UP || v == MOE_GPTQ_DOWN ? 0.5 : mbpe(tw, 1);
	out = mbpe(to, v == MOE_BLOCKSCALE ? 2 : in);
	if (v == MOE_AUP || v == MOE_ADOWN || v == MOE_INVOKE)
		out = mbpe(to, 2);

	/* parameters */
	if (v == MOE_INVOKE) {
		rl_pnum(r, P_M_WORK, M * topk);
		rl_pnum(r, P_NUM_TOKENS, M);
		rl_pnum(r, P_TOPK, topk);
		rl_pnum(r, P_N, N);
		rl_pnum(r, P_K, K);
		rl_pnum(r, P_NUM_EXPERTS, E);
	} else {
		rl_pnum(r, P_NUM_TOKENS, M);
		rl_pnum(r, P_HIDDEN_DIM, K);
		rl_pnum(r, P_INTER_DIM, N);
		rl_pnum(r, P_NUM_EXPERTS, E);
		rl_pnum(r, P_TOPK, topk);
		if (v != MOE_ADOWN && v != MOE_CK2 && v != MOE_GPTQ_DOWN)
			rl_pbool(r, P_GATED, gated);
	}
	rl_pstr(r, P_INPUT_DTYPE, tin);
	if (v != MOE_GPTQ_UP && v != MOE_GPTQ_DOWN)
		rl_pstr(r, P_WEIGHT_DTYPE, tw);
	if (v == MOE_BLOCKSCALE || v == MOE_AUP || v == MOE_ADOWN ||
	    v == MOE_INVOKE)
		rl_pstr(r, P_OUTPUT_DTYPE, to);

	/* the formula */
	kind = v == MOE_FUSED1 || v == MOE_BLOCKSCALE ? 0 : v == MOE_AUP ||
	    v == MOE_CK1 || v == MOE_FLY1 || v == MOE_GPTQ_UP ||
	    v == MOE_TRITON_UP ? 1 :
	    v == MOE_INVOKE ? 3 : 2;
	g = gated ? 2 : 1;
	Ea = eactive(E, topk, M);
	switch (kind) {
	case 0:
		r->flop = 2 * M * K * N * topk * g + 2 * M * K * N * topk +
		    M * K * (2 * topk - 1);
		r->bytes = M * K * in + Ea * N * K * w * g + Ea * N * K * w +
		    M * K * out;
		break;
	case 1:
		r->flop = 2 * M * K * N * topk * g;
		r->bytes = M * K * in + Ea * g * K * N * w + M * N * topk * out;
		break;
	case 2:
		r->flop = 2 * M * N * K * topk;
		r->bytes = M * N * topk * in + Ea * N * K * w + M * K * out;
		break;
	default:
		m = M * topk;
		r->flop = 2 * m * N * K;
		r->bytes = m * K * in + Ea * N * K * w + m * N * out;
		break;
	}
	r->hasbytes = isfinite(r->bytes);
	if (!r->hasbytes)
		r->bytes = 0;
	r->matrix = 1;
	i = v == MOE_FLY1 || v == MOE_FLY2 || v == MOE_INVOKE ||
	    v == MOE_TRITON_UP || v == MOE_TRITON_DOWN;
	r->prec = rl_prec(i ? tw : tin);
	if (v == MOE_BLOCKSCALE && tin != NULL && (strcmp(tin, "fp8") == 0 ||
	    strcmp(tin, "bf16") == 0))
		r->prec = "fp8";
	return 0;
}
