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
 * output: only the sums over the ops of its kernels are known there, so
 * an op not in the table gives no perf row rather than a guess.
 */
#include <stdlib.h>
#include <string.h>

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

static int
flopof(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof perelem / sizeof perelem[0]; i++)
		if (strlen(perelem[i].op) == n && memcmp(perelem[i].op, s, n)
		    == 0)
			return perelem[i].flop;
	return -1;
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
	if (n < 18 || memcmp(name, "triton_", 7) != 0 ||
	    (memcmp(name + 7, "poi_fused_", 10) != 0 &&
	    memcmp(name + 7, "red_fused_", 10) != 0 &&
	    memcmp(name + 7, "per_fused_", 10) != 0))
		return 1;
	red = name[7] != 'p' || name[8] != 'o';
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
