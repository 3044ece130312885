/*
 * tl-roofline: strings, Python reprs, the parameters of a model, dtype
 * tables and the helpers the models use to read an op's arguments.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../common/json.h"
#include "../../common/mem.h"
#include "../../common/pyfmt.h"
#include "../../common/tsv.h"
#include "roof.h"

int rl_tracelens;
int rl_emptyparams;
int rl_bykernels;

const char *const rl_paramname[NPARAMNAME] = {
	"M", "N", "K", "bias", "stride_A", "stride_B", "dtype_A_B", "B",
	"transpose",
	"N_Q", "H_Q", "N_KV", "H_KV", "d_h_qk", "d_h_v", "dropout", "causal",
	"flash_impl",
	"convNd", "input_shape", "filter_shape", "dtype_input_weight",
	"input_stride", "weight_stride", "stride", "padding", "dilation",
	"transposed_conv", "output_padding", "groups", "output_mask",
	"op_shape", "dtype_in_out", "stride_input", "stride_output",
	"output_shape",
	"shape_in1", "shape_in2", "dtype_in1_in2_out", "stride_input1",
	"stride_input2",
	"num_channels", "has_bias", "is_affine", "is_training",
	"num_input_elems", "num_output_elems", "reduce_type",
	"C", "L", "kernel_size", "dtype", "shape", "num_rows", "vocab_size",
	"num_seqs_q", "num_seqs_kv", "max_seqlen_q", "max_seqlen_kv",
	"dtype_in", "out_shape", "quant_scheme", "quant_granularity",
	"block_k", "block_n", "scale_dtype", "output_dtype", "dtype_scaleA",
	"dtype_scaleB", "G", "bpe_in", "bpe_out", "group_pairs",
	"num_tokens", "hidden_dim", "inter_dim", "num_experts", "topk",
	"gated", "input_dtype", "weight_dtype", "m_work", "operands", "bpe",
	"H_V", "H_K", "c_sq", "c_sk", "c_sqsq", "c_sqsk", "g_sq", "g_sk",
	"g_sqsq", "g_sqsk", "dtype_Q", "dtype_KV", "sliding_window",
	"prefill_pairs", "nelems", "T", "QH", "KH", "D_lora", "D_pe",
	"dtype_kv", "dtype_out", "x_shape", "y_shape", "num_elements", "V",
	"dtype_logits", "dtype_noise", "group_size", "num_groups", "shape_x",
	"dtype_x", "shape_out", "n", "hc3", "split_k", "E", "H", "P",
	"d_inner", "d_conv", "conv_channels", "combined_dim", "batch",
	"channels", "seq_len", "heads", "head_dim", "logits_shape",
	"q_stride", "k_stride", "v_stride",
	"bytes_per_element", "fused", "simulation_dtype"
};

/* Parameters. */

void
rl_reset(struct rl_res *r)
{
	struct tl_out py = r->py, js = r->js;

	memset(r, 0, sizeof *r);
	r->family = -1;
	r->py = py;
	r->js = js;
	r->py.n = r->js.n = 0;
}

/* A new parameter: its value is what is written until the next one. */
static struct rl_param *
pstart(struct rl_res *r, int key)
{
	struct rl_param *p;

	if (r->np == RL_MAXP)
		abort();
	p = &r->p[r->np++];
	memset(p, 0, sizeof *p);
	p->key = (uint8_t)key;
	p->py = (uint32_t)r->py.n;
	p->js = (uint32_t)r->js.n;
	return p;
}

/* A value in both texts: as Python's repr, as JSON. */
static void
put2(struct rl_res *r, const char *py, const char *js)
{
	rl_puts(&r->py, py);
	rl_puts(&r->js, js);
}

static void
putint(struct rl_res *r, int64_t v)
{
	tl_out_i64(&r->py, v);
	tl_out_i64(&r->js, v);
}

static void
putbool(struct rl_res *r, int v)
{
	put2(r, v ? "True" : "False", v ? "true" : "false");
}

size_t
rl_jtext(const struct tl_jdoc *d, int i, char *dst)
{
	const jsmntok_t *t = &d->tok[i];
	size_t n = (size_t)(t->end - t->start);
	unsigned bad = 0;

	if (t->type == JSMN_STRING)
		n = tl_junescape(dst, d->js + t->start, n, &bad);
	else
		memcpy(dst, d->js + t->start, n);
	dst[n] = '\0';
	return n;
}

void
rl_pint(struct rl_res *r, int key, int64_t v)
{
	pstart(r, key);
	putint(r, v);
}

void
rl_pnum(struct rl_res *r, int key, double v)
{
	if (v > -9.2e18 && v < 9.2e18 && v == (double)(int64_t)v)
		rl_pint(r, key, (int64_t)v);
	else
		rl_pfloat(r, key, v);
}

void
rl_pbool(struct rl_res *r, int key, int v)
{
	pstart(r, key);
	putbool(r, v);
}

void
rl_pfloat(struct rl_res *r, int key, double v)
{
	pstart(r, key);
	tl_out_pyfloat(&r->py, v);
	if (isfinite(v))
		tl_out_pyfloat(&r->js, v);
	else
		rl_puts(&r->js, "null");
}

void
rl_pstr(struct rl_res *r, int key, const char *s)
{
	struct rl_param *p = pstart(r, key);

	if (s == NULL) {
		p->none = 1;
		put2(r, "None", "null");
	} else {
		/* pandas prints a str cell as it is (str(), not repr()) */
		rl_puts(&r->py, s);
		tl_out_jsonstr(&r->js, s, strlen(s));
	}
}

/* A tuple: "(a, b)" and "[a,b]", "(a,)" for one item. */
static void
tstart(struct rl_res *r, int key)
{
	pstart(r, key)->tuple = 1;
	put2(r, "(", "[");
}

static void
tsep(struct rl_res *r, int i)
{
	if (i > 0)
		put2(r, ", ", ",");
}

static void
tend(struct rl_res *r, int n)
{
	put2(r, n == 1 ? ",)" : ")", "]");
}

void
rl_pints(struct rl_res *r, int key, const int64_t *v, int n)
{
	int i;

	tstart(r, key);
	for (i = 0; i < n; i++) {
		tsep(r, i);
		putint(r, v[i]);
	}
	tend(r, n);
}

void
rl_pshape(struct rl_res *r, int key, const struct rl_shape *s)
{
	if (s == NULL || !s->flat)
		rl_pstr(r, key, NULL);
	else
		rl_pints(r, key, s->v, s->n);
}

void
rl_pstrs(struct rl_res *r, int key, int n, ...)
{
	const char *s;
	va_list ap;
	int i;

	tstart(r, key);
	va_start(ap, n);
	for (i = 0; i < n; i++) {
		tsep(r, i);
		if ((s = va_arg(ap, const char *)) == NULL)
			put2(r, "None", "null");
		else {
			tl_out_pystr(&r->py, s, strlen(s));
			tl_out_jsonstr(&r->js, s, strlen(s));
		}
	}
	va_end(ap);
	tend(r, n);
}

void
rl_pbools(struct rl_res *r, int key, int n, const int *v)
{
	int i;

	tstart(r, key);
	for (i = 0; i < n; i++) {
		tsep(r, i);
		putbool(r, v[i]);
	}
	tend(r, n);
}

void
rl_poperands(struct rl_res *r, int key, int n,
    const struct rl_shape *const *s, const char *const *t)
{
	int i, j;

	pstart(r, key);
	put2(r, "[", "[");
	for (i = 0; i < n; i++) {
		tsep(r, i);
		put2(r, "[[", "[[");
		for (j = 0; j < s[i]->n; j++) {
			tsep(r, j);
			putint(r, s[i]->v[j]);
		}
		put2(r, "], ", "],");
		if (t[i] == NULL)
			put2(r, "None", "null");
		else {
			tl_out_pystr(&r->py, t[i], strlen(t[i]));
			tl_out_jsonstr(&r->js, t[i], strlen(t[i]));
		}
		put2(r, "]", "]");
	}
	put2(r, "]", "]");
}

void
rl_pgroups(struct rl_res *r, int key, int n, const double *v)
{
	int i, j;

	pstart(r, key);
	put2(r, "[", "[");
	for (i = 0; i < n; i++) {
		tsep(r, i);
		for (j = 0; j < 4; j++) {
			put2(r, j == 0 ? "[[" : j == 2 ? "], [" : ", ",
			    j == 0 ? "[[" : j == 2 ? "],[" : ",");
			putint(r, (int64_t)v[4 * i + j]);
		}
		put2(r, "]]", "]]");
	}
	put2(r, "]", "]");
}

/* A Python list of n integers (iv) or booleans (bv). */
static void
plist(struct rl_res *r, int key, int n, const int64_t *iv, const int *bv)
{
	int i;

	pstart(r, key);
	put2(r, "[", "[");
	for (i = 0; i < n; i++) {
		tsep(r, i);
		if (iv != NULL)
			putint(r, iv[i]);
		else
			putbool(r, bv[i]);
	}
	put2(r, "]", "]");
}

void
rl_pintlist(struct rl_res *r, int key, const int64_t *v, int n)
{
	plist(r, key, n, v, NULL);
}

void
rl_pboollist(struct rl_res *r, int key, int n, const int *v)
{
	plist(r, key, n, NULL, v);
}

/* dtypes (TraceLens's name2bpe and torch_dtype_map, case-insensitive). */

struct dtype {
	const char *name;
	int bpe;
	const char *prec;
	int fixed;	/* only without --tracelens */
};

static const struct dtype dtypes[] = {
	{ "double", 8, "fp64", 0 },
	{ "long int", 8, NULL, 0 },
	{ "float", 4, "fp32", 0 },
	{ "int", 4, NULL, 0 },
	{ "scalar", 4, NULL, 0 },
	{ "c10::half", 2, "fp16", 0 },
	{ "c10::bfloat16", 2, "bf16", 0 },
	{ "c10::float8_e4m3fnuz", 1, "fp8", 0 },
	{ "c10::float8_e4m3fn", 1, "fp8", 0 },
	{ "c10::float8_e5m2", 1, NULL, 0 },
	{ "c10::float8_e8m0fnu", 1, NULL, 0 },
	{ "unsigned char", 1, "fp8", 0 },
	{ "signed char", 1, NULL, 0 },
	{ "fp8", 1, "fp8", 0 },
	{ "c10::float4_e2m1fn_x2", 1, "fp4", 0 },
	{ "fp4", 1, "fp4", 0 },
	{ "mxfp4", -1, "fp4", 0 },
	/* tl's additions */
	{ "c10::float8_e5m2fnuz", 1, NULL, 1 },
	{ "bool", 1, NULL, 1 },
	{ "short int", 2, NULL, 1 },
	{ "c10::complex<c10::half>", 4, NULL, 1 },
	{ "c10::complex<float>", 8, NULL, 1 },
	{ "c10::complex<double>", 16, NULL, 1 },
};

static const struct dtype *
finddtype(const char *s)
{
	size_t i;

	if (s == NULL)
		return NULL;
	for (i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
		if (strcasecmp(s, dtypes[i].name) == 0)
			return dtypes[i].fixed && rl_tracelens ? NULL :
			    &dtypes[i];
	return NULL;
}

int
rl_bpe(const char *s)
{
	const struct dtype *d = finddtype(s);

	return d == NULL ? -1 : d->bpe;
}

const char *
rl_prec(const char *s)
{
	const struct dtype *d = finddtype(s);

	if (d == NULL)
		return NULL;
	if (!rl_tracelens && d->prec == NULL) {
		if (strcasecmp(s, "c10::float8_e5m2") == 0 ||
		    strcasecmp(s, "c10::float8_e5m2fnuz") == 0)
			return "fp8";
		if (strcasecmp(s, "signed char") == 0)
			return "int8";
	}
	return d->prec;
}

/* Arguments. */

double
rl_prod(const struct rl_shape *s)
{
	double p = 1;
	int i;

	for (i = 0; i < s->n; i++)
		p *= (double)s->v[i];
	return p;
}

/* A dim is at least 0 and at most 2^40, and the product of the dims
 * fits in an int64: products stay exact doubles. */
static int
dimsok(const struct rl_shape *s)
{
	double p = 1;
	int i;

	for (i = 0; i < s->n; i++) {
		if (s->v[i] < 0 || s->v[i] > (INT64_C(1) << 40))
			return 0;
		p *= (double)s->v[i];
	}
	return p < 9223372036854775807.0;
}

const struct rl_shape *
rl_dim(const struct rl_args *a, int i)
{
	if (i < 0 || i >= a->ndims || !a->dims[i].flat ||
	    !dimsok(&a->dims[i]))
		return NULL;
	return &a->dims[i];
}

const struct rl_shape *
rl_stride(const struct rl_args *a, int i)
{
	if (!a->hasstrides || i < 0 || i >= a->nstrides ||
	    !a->strides[i].flat)
		return NULL;
	return &a->strides[i];
}

const char *
rl_type(const struct rl_args *a, int i)
{
	if (i < 0 || i >= a->ntypes)
		return NULL;
	return a->types[i];
}

const char *
rl_ci(const struct rl_args *a, int i)
{
	if (i < 0 || i >= a->nci)
		return NULL;
	return a->ci[i];
}

int
rl_nonempty(const struct rl_shape *s)
{
	return s != NULL && s->n > 0;
}

int
rl_intlist(const char *s, int64_t *v, int max)
{
	const char *e;
	int n = 0;

	if (s == NULL)
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '[' || *s == '(')
		s++;
	for (;;) {
		while (isspace((unsigned char)*s) || *s == ',')
			s++;
		if (*s == ']' || *s == ')' || *s == '\0')
			break;
		if (n == max)
			return -1;
		for (e = s + (*s == '-'); isdigit((unsigned char)*e); e++)
			;
		if (tl_parse_i64(s, (size_t)(e - s), &v[n++]) != 0)
			return -1;
		s = e;
	}
	return n;
}

int
rl_outmask(const char *s, int *mask)
{
	int m[3], n = 0;

	if (s == NULL || *s != '[')
		return -1;
	for (s++;; s++) {
		s += strspn(s, " ,");
		if (*s == ']' && s[1] == '\0')
			break;
		if (n == 3)
			return -1;
		if (strncmp(s, "True", 4) == 0)
			m[n++] = 1, s += 3;
		else if (strncmp(s, "False", 5) == 0)
			m[n++] = 0, s += 4;
		else
			return -1;
	}
	if (n == 0)
		return -1;
	memcpy(mask, m, (size_t)n * sizeof *m);
	return n;
}

int
rl_truthy(const char *s)
{
	return s != NULL && (strcasecmp(s, "true") == 0 ||
	    strcmp(s, "1") == 0);
}

int
rl_fail(struct rl_res *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->whybuf, sizeof r->whybuf, fmt, ap);
	va_end(ap);
	r->why = r->whybuf;
	return -1;
}

const struct rl_shape *
rl_needdim(const struct rl_args *a, struct rl_res *r, int i, int minn)
{
	if (!a->hasdims) {
		rl_fail(r, "no input_dims");
		return NULL;
	}
	if (i >= a->ndims) {
		rl_fail(r, "input_dims has %d entries, the model reads %d",
		    a->ndims, i + 1);
		return NULL;
	}
	if (!a->dims[i].flat) {
		rl_fail(r, "input_dims[%d] is not a list of integers", i);
		return NULL;
	}
	if (a->dims[i].n < minn) {
		rl_fail(r, "input_dims[%d] has %d dims, the model needs %d",
		    i, a->dims[i].n, minn);
		return NULL;
	}
	if (!dimsok(&a->dims[i])) {
		rl_fail(r, "input_dims[%d] has a dim below 0 or above 2^40, "
		    "or a product above 2^63", i);
		return NULL;
	}
	return &a->dims[i];
}

int
rl_dimat(const struct rl_args *a, struct rl_res *r, int i, int j, double *v)
{
	const struct rl_shape *s = rl_needdim(a, r, i, j < 0 ? -j : j + 1);

	if (s == NULL)
		return -1;
	*v = (double)s->v[j < 0 ? s->n + j : j];
	return 0;
}

/* Entry i of a string list (input_types, concrete_inputs): NULL, with
 * why in r, when it has none. */
static const char *
needstr(struct rl_res *r, int has, const char *const *v, int n, int i,
    const char *what)
{
	if (!has) {
		rl_fail(r, "no %s", what);
		return NULL;
	}
	if (i >= n) {
		rl_fail(r, "%s has %d entries, the model reads %d", what, n,
		    i + 1);
		return NULL;
	}
	return v[i];
}

const char *
rl_needtype(const struct rl_args *a, struct rl_res *r, int i)
{
	return needstr(r, a->hastypes, a->types, a->ntypes, i, "input_types");
}

const char *
rl_needci(const struct rl_args *a, struct rl_res *r, int i)
{
	return needstr(r, a->hasci, a->ci, a->nci, i, "concrete_inputs");
}

int
rl_cinum(const struct rl_args *a, struct rl_res *r, int i, double *v)
{
	const char *c = rl_needci(a, r, i);
	char *e;

	if (c == NULL)
		return -1;
	errno = 0;
	*v = strtod(c, &e);
	if (*c == '\0' || *e != '\0' || errno == ERANGE || !isfinite(*v))
		return rl_fail(r, "concrete_inputs[%d] is not a number: "
		    "\"%.40s\"", i, c);
	return 0;
}

/* The args column of the op asked about, parsed (each time: the row's
 * buffer is the next row's). */
static struct tl_jdoc argjd;

/* The args column's value for key: its token in argjd, or -1. */
static int
argtok(const struct rl_args *a, const char *key)
{
	int i, end;

	if (a->args == NULL || tl_json_parse(&argjd, a->args, a->argslen) <
	    0 || argjd.tok[0].type != JSMN_OBJECT)
		return -1;
	end = tl_jskip(&argjd, 0);
	for (i = 1; i < end; i = tl_jskip(&argjd, i + 1))
		if (tl_jeq(&argjd, i, key))
			return i + 1;
	return -1;
}

int
rl_argnum(const struct rl_args *a, const char *key, double *v)
{
	int i = argtok(a, key);
	const char *p;
	char *e;

	if (i < 0 || argjd.tok[i].type != JSMN_PRIMITIVE)
		return 0;
	p = argjd.js + argjd.tok[i].start;
	if (*p == 't' || *p == 'f') {
		*v = *p == 't';
		return 1;
	}
	*v = strtod(p, &e);
	return e != p && isfinite(*v);
}

int
rl_argstr(const struct rl_args *a, const char *key, char *buf, size_t cap)
{
	int i = argtok(a, key);
	size_t n;

	if (i < 0 || argjd.tok[i].type != JSMN_STRING)
		return -1;
	n = (size_t)(argjd.tok[i].end - argjd.tok[i].start);
	if (n >= cap)
		return -1;
	return (int)rl_jtext(&argjd, i, buf);
}

int
rl_argstr0(const struct rl_args *a, const char *key, char *buf, size_t cap)
{
	int i = argtok(a, key);
	size_t n;

	if (i < 0 || argjd.tok[i].type != JSMN_ARRAY ||
	    argjd.tok[i].size < 1 || argjd.tok[i + 1].type != JSMN_STRING)
		return -1;
	n = (size_t)(argjd.tok[i + 1].end - argjd.tok[i + 1].start);
	if (n >= cap)
		return -1;
	return (int)rl_jtext(&argjd, i + 1, buf);
}

void
rl_util_end(void)
{
	tl_json_free(&argjd);
}
