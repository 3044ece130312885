/*
 * tl-roofline: the Triton kernels that TorchInductor generates
 * (triton_poi_*, triton_red_*, triton_per_*), as TraceLens models them
 * for its unified perf summary (TritonCompiledPerfModel), for -p. The
 * fused ATen ops come from the kernel's name (Inductor names a kernel
 * after them, sorted), xnumel and rnumel from its last integer concrete
 * inputs:
 *
 *	flop  = sum over the fused ops of FLOPs per element * xnumel * rnumel
 *	bytes = sum over the tensor inputs of prod(dims) bpe
 *		+ bpe(input 0) * xnumel for a pointwise (poi) kernel
 *
 * TraceLens reads the ops from the kernel's file in the Inductor cache;
 * the trace names that file, which is gone by the time a trace is read
 * elsewhere. The FLOPs per element are fitted to TraceLens's reference
 * output (only the sums over the ops of its kernels are known there),
 * then TraceLens's own table; an op in neither gives no perf row rather
 * than a guess.
 *
 * With --tracelens, TraceLens's model from the trace's args (its "V2"):
 * the name cut into the ATen ops of share/tl/triton-known-aten-ops.txt,
 * an op outside its table of FLOPs 0, its own byte sizes (Kineto's float
 * is 0) and dtype names (tv2 below).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/intern.h"
#include "../../common/mem.h"
#include "../../common/share.h"
#include "../../common/tsv.h"
#include "roof.h"

/* FLOPs per element; 0 for the ops that only view or copy memory. */
static const struct {
	const char *op;
	int flop;
} perelem[] = {
	{ "_unsafe_view", 0 }, { "view", 0 }, { "reshape", 0 },
	{ "clone", 0 }, { "_to_copy", 0 }, { "copy", 0 }, { "permute", 0 },
	{ "expand", 0 }, { "squeeze", 0 }, { "unsqueeze", 0 }, { "t", 0 },
	{ "transpose", 0 }, { "slice", 0 }, { "select", 0 },
	{ "add", 1 }, { "mul", 1 }, { "mean", 1 },
	{ "silu", 4 },			/* with mul: 5 per element */
	{ "pow", 2 }, { "rsqrt", 2 },		/* together: 4 */
};

/* ATen op names with an underscore, to cut a kernel name into ops. */
static const char *const multi[] = {
	"_unsafe_view", "_to_copy", "_softmax", "_log_softmax",
	"native_layer_norm", "native_batch_norm", "native_group_norm",
	"embedding_dense_backward", "threshold_backward", "gelu_backward",
	"silu_backward", "sigmoid_backward", "tanh_backward",
	"native_layer_norm_backward", "convolution_backward", "index_put",
	"index_select", "scatter_add", "slice_scatter", "select_scatter",
	"as_strided", "new_zeros", "new_ones", "full_like", "zeros_like",
	"ones_like", "empty_like", "clamp_min", "clamp_max", "var_mean",
	"max_pool2d_with_indices", "avg_pool2d", "constant_pad_nd",
	"_scaled_dot_product_flash_attention", "bitwise_and", "bitwise_or",
	"bitwise_not", "logical_and", "logical_or", "logical_not",
	"masked_fill", "where_self", "scalar_tensor", "full_default",
	NULL
};

static int
ismulti(const char *s, size_t n)
{
	int i;

	for (i = 0; multi[i] != NULL; i++)
		if (strlen(multi[i]) == n && memcmp(multi[i], s, n) == 0)
			return 1;
	return 0;
}


/* TraceLens's dtype names in a Triton compute spec. */
static const char *
tprec(const char *t)
{
	if (strcmp(t, "c10::BFloat16") == 0)
		return "bfloat16";
	if (strcmp(t, "c10::Half") == 0)
		return "float16";
	if (strcmp(t, "float") == 0)
		return "float32";
	if (strcmp(t, "double") == 0)
		return "float64";
	return NULL;
}

/* TraceLens's FLOPs per element (V2); any other op is 0. */
static const struct {
	const char *op;
	int flop;
} v2flop[] = {
	{ "add", 1 }, { "sub", 1 }, { "mul", 1 }, { "div", 1 }, { "relu", 1 },
	{ "mean", 1 }, { "sum", 1 }, { "abs", 1 }, { "neg", 1 }, { "ne", 1 },
	{ "eq", 1 }, { "lt", 1 }, { "gt", 1 },
	{ "pow", 2 }, { "sqrt", 2 }, { "rsqrt", 2 }, { "var", 2 },
	{ "reciprocal", 2 },
	{ "exp", 4 }, { "log", 4 }, { "sigmoid", 4 }, { "tanh", 4 },
	{ "silu", 4 }, { "gelu", 8 },
};

/* The FLOPs per element of an op: the table above, else TraceLens's;
 * -1 for an op in neither. */
static int
flopof(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof perelem / sizeof perelem[0]; i++)
		if (strlen(perelem[i].op) == n && memcmp(perelem[i].op, s, n)
		    == 0)
			return perelem[i].flop;
	for (i = 0; i < sizeof v2flop / sizeof v2flop[0]; i++)
		if (strlen(v2flop[i].op) == n && memcmp(v2flop[i].op, s, n)
		    == 0)
			return v2flop[i].flop;
	return -1;
}

/* TraceLens's byte sizes (V2), by exact dtype; any other is 0. */
static int
v2bpe(const char *t)
{
	static const struct {
		const char *t;
		int b;
	} tab[] = {
		{ "c10::BFloat16", 2 }, { "c10::Half", 2 }, { "c10::Float", 4 },
		{ "c10::Double", 8 }, { "c10::Byte", 1 }, { "c10::Char", 1 },
		{ "c10::Int", 4 }, { "c10::Long", 8 },
	};
	size_t i;

	for (i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (strcmp(t, tab[i].t) == 0)
			return tab[i].b;
	return 0;
}

/* The ATen op names of the name parser, read once; NULL if missing. */
static struct tl_intern *known;
static int knownread;
#define KNOWNFILE	"triton-known-aten-ops.txt"

static const struct tl_intern *
knownops(void)
{
	char *path, *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	if (knownread)
		return known;
	knownread = 1;
	path = tl_sharepath(KNOWNFILE);
	if ((f = fopen(path, "r")) != NULL) {
		known = tl_intern_new();
		while ((n = getline(&line, &cap, f)) > 0) {
			while (n > 0 && (line[n - 1] == '\n' ||
			    line[n - 1] == '\r'))
				n--;
			if (n > 0)
				tl_intern(known, line, (size_t)n);
		}
		free(line);
		fclose(f);
	}
	free(path);
	return known;
}

/*
 * TraceLens's cut of the ops part of a name, p..e, into known op names:
 * every way by dynamic programming over the "_"-separated tokens, then
 * from the end the longest candidate at each step (the first of the
 * longest, by start). Into r->js, "aten.a, aten.b"; the FLOPs per
 * element summed into *perop. 0, or -1 (why set).
 */
static int
v2ops(const char *p, const char *e, struct rl_res *r, double *perop)
{
	static size_t *tok, *dpn, *dpj, *pick;
	static size_t captok, capdpn, capdpj, cappick;
	const struct tl_intern *K = knownops();
	size_t nt = 0, w, i, j, k, best, bl, l, np, q;
	const char *c;

	if (K == NULL)
		return rl_fail(r, "no %s/%s", tl_sharedir(), KNOWNFILE);
	/* token starts; tok[nt] is one past the end (+ 1) */
	xgrow(&tok, &captok, (size_t)(e - p) + 2, sizeof *tok);
	tok[nt++] = 0;
	for (c = p; c < e; c++)
		if (*c == '_')
			tok[nt++] = (size_t)(c - p) + 1;
	tok[nt] = (size_t)(e - p) + 1;
	/* for each end i (1..nt), the starts j of its candidates */
	w = nt + 1;
	xgrow(&dpn, &capdpn, w, sizeof *dpn);
	xgrow(&dpj, &capdpj, w * w, sizeof *dpj);
	xgrow(&pick, &cappick, w, sizeof *pick);
	memset(dpn, 0, w * sizeof *dpn);
	for (i = 1; i <= nt; i++)
		for (j = 0; j < i; j++) {
			if (j > 0 && dpn[j] == 0)
				continue;
			l = tok[i] - 1 - tok[j];
			if (tl_intern_find(K, p + tok[j], l) != UINT32_MAX)
				dpj[i * w + dpn[i]++] = j;
		}
	rl_puts(&r->js, "{\"fused_ops\":\"");
	np = 0;
	for (i = dpn[nt] > 0 ? nt : 0; i > 0; i = best) {
		best = dpj[i * w];
		bl = tok[i] - 1 - tok[best];
		for (k = 1; k < dpn[i]; k++) {
			j = dpj[i * w + k];
			if (tok[i] - 1 - tok[j] > bl) {
				best = j;
				bl = tok[i] - 1 - tok[j];
			}
		}
		pick[np++] = i * w + best;
	}
	for (q = np; q-- > 0;) {
		i = pick[q] / w;
		j = pick[q] % w;
		l = tok[i] - 1 - tok[j];
		if (q + 1 < np)
			rl_puts(&r->js, ", ");
		rl_puts(&r->js, "aten.");
		tl_out_raw(&r->js, p + tok[j], l);
		for (k = 0; k < sizeof v2flop / sizeof v2flop[0]; k++)
			if (strlen(v2flop[k].op) == l &&
			    memcmp(v2flop[k].op, p + tok[j], l) == 0)
				*perop += v2flop[k].flop;
	}
	rl_puts(&r->js, "\"");
	return 0;
}

/* TraceLens's model (V2). */
static int
tv2(const char *name, size_t n, int red, const struct rl_args *a,
    struct rl_res *r)
{
	const char *p, *e, *q, *t, *d = NULL;
	int64_t v, xn = 0, rn = 1, sc[2] = { 0, 0 };
	int i, ns = 0, first = 1, b, b0 = 0;
	double perop = 0, bytes = 0;
	static char prec[32];

	/* the integer concrete inputs, in order: the last one or two */
	for (i = 0; a->hasci && i < a->nci; i++)
		if (*a->ci[i] != '\0' &&
		    tl_parse_i64(a->ci[i], strlen(a->ci[i]), &v) == 0) {
			sc[0] = sc[1];
			sc[1] = v;
			ns++;
		}
	if (ns == 0 || !a->hasdims || !a->hastypes)
		return rl_fail(r, "concrete_inputs lack xnumel");
	if (red && ns >= 2) {
		xn = sc[0];
		rn = sc[1];
	} else
		xn = sc[1];
	/* fused_(.+)_(\d+)$ */
	p = name + 17;
	e = name + n;
	for (q = e; q > p && q[-1] >= '0' && q[-1] <= '9'; q--)
		;
	if (q == e || q - 1 <= p || q[-1] != '_')
		return rl_fail(r, "no ops in the name");
	e = q - 1;
	if (v2ops(p, e, r, &perop) < 0)
		return -1;
	rl_puts(&r->js, ",\"xnumel\":");
	tl_out_i64(&r->js, xn);
	rl_puts(&r->js, ",\"rnumel\":");
	tl_out_i64(&r->js, rn);
	tl_out_char(&r->js, '}');
	r->flop = perop * (double)xn * (double)rn;
	for (i = 0; i < a->ndims && i < a->ntypes; i++) {
		t = a->types[i];
		if (strcmp(t, "Scalar") == 0 || !a->dims[i].flat ||
		    a->dims[i].n == 0)
			continue;
		b = v2bpe(t);
		if (first)
			b0 = b;
		first = 0;
		if (b > 0 && d == NULL)
			d = t;
		bytes += rl_prod(&a->dims[i]) * b;
	}
	if (!red)
		bytes += (double)b0 * (double)xn;
	r->bytes = bytes;
	r->hasbytes = 1;
	r->prec = NULL;
	if (d != NULL) {
		if ((q = strstr(d, "::")) != NULL)
			d = q + 2;
		for (i = 0; d[i] != '\0' && i < (int)sizeof prec - 1; i++)
			prec[i] = (char)(d[i] >= 'A' && d[i] <= 'Z' ?
			    d[i] - 'A' + 'a' : d[i]);
		prec[i] = '\0';
		r->prec = prec;
	}
	return 0;
}

int
rl_istriton(const char *name, size_t n)
{
	return n >= 18 && memcmp(name, "triton_", 7) == 0 &&
	    (memcmp(name + 7, "poi_fused_", 10) == 0 ||
	    memcmp(name + 7, "red_fused_", 10) == 0 ||
	    memcmp(name + 7, "per_fused_", 10) == 0);
}

int
rl_triton(const char *name, size_t n, const struct rl_args *a,
    struct rl_res *r)
{
	const char *p, *e, *q, *t0;
	size_t len;
	int64_t v, xn = 0, rn = 1, ints[2];
	int red, i, nint = 0, bpe, f, nops = 0;
	double perop = 0, bytes = 0;

	rl_reset(r);
	if (!rl_istriton(name, n))
		return 1;
	red = name[7] != 'p' || name[8] != 'o';
	if (rl_tracelens)
		return tv2(name, n, red, a, r);
	/* the integer concrete inputs: the last one or two */
	for (i = a->hasci ? a->nci - 1 : -1; i >= 0 && nint < 2; i--)
		if (tl_parse_i64(a->ci[i], strlen(a->ci[i]), &v) == 0)
			ints[nint++] = v;
	if (nint == 0 || (red && nint < 2))
		return rl_fail(r, "concrete_inputs lack xnumel%s", red ?
		    " and rnumel" : "");
	if (red) {
		xn = ints[1];
		rn = ints[0];
	} else
		xn = ints[0];
	/* the ops: between "fused_" and the "_N" at the end */
	p = name + 17;
	e = name + n;
	for (q = e; q > p && q[-1] >= '0' && q[-1] <= '9'; q--)
		;
	if (q < e && q > p && q[-1] == '_')
		e = q - 1;
	rl_puts(&r->js, "{\"fused_ops\":\"");
	while (p < e) {
		/* the longest name with underscores, else one word */
		len = 0;
		for (q = e; q > p; q--)
			if ((q == e || *q == '_') &&
			    ismulti(p, (size_t)(q - p))) {
				len = (size_t)(q - p);
				break;
			}
		if (len == 0) {
			q = memchr(p + (*p == '_'), '_', (size_t)(e - p) -
			    (*p == '_'));
			len = (size_t)((q != NULL ? q : e) - p);
		}
		if ((f = flopof(p, len)) < 0)
			return rl_fail(r, "no FLOP count for aten.%.*s in the "
			    "Triton model", (int)len, p);
		if (nops++ > 0)
			rl_puts(&r->js, ", ");
		rl_puts(&r->js, "aten.");
		tl_out_raw(&r->js, p, len);
		perop += f;
		p += len;
		if (p < e && *p == '_')
			p++;
	}
	rl_puts(&r->js, "\",\"xnumel\":");
	tl_out_i64(&r->js, xn);
	rl_puts(&r->js, ",\"rnumel\":");
	tl_out_i64(&r->js, rn);
	tl_out_char(&r->js, '}');
	r->flop = perop * (double)xn * (double)rn;
	/* bytes: the tensor inputs, and the output of a pointwise kernel */
	r->hasbytes = 1;
	for (i = 0; a->hasdims && i < a->ndims; i++) {
		const char *t = a->hastypes && i < a->ntypes ? a->types[i] : "";

		if (*t == '\0' || strcmp(t, "Scalar") == 0 ||
		    !a->dims[i].flat)
			continue;
		if ((bpe = rl_bpe(t)) < 0) {
			r->hasbytes = 0;
			continue;
		}
		bytes += rl_prod(&a->dims[i]) * bpe;
	}
	t0 = a->hastypes && a->ntypes > 0 ? a->types[0] : "";
	if (!red) {
		if ((bpe = rl_bpe(t0)) < 0)
			r->hasbytes = 0;
		else
			bytes += (double)bpe * (double)xn;
	}
	r->bytes = bytes;
	r->prec = tprec(t0);
	return 0;
}
