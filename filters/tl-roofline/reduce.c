/*
 * tl-roofline: reductions (TraceLens's aten_reduce).
 *
 *	FLOPs = n_in
 *	bytes = n_in bpe_in + n_out bpe_out	(backward: the same)
 *
 * TraceLens reads the reduced dims only from Python ints and lists, and
 * the trace has strings, so its n_out is 1 (n_in for cumsum and cumprod)
 * unless the dim is a JSON number or list. Without --tracelens, n_out
 * comes from the dim argument, string or not, and max and min with a
 * dim also write int64 indices. The output dtype is the first of the
 * "Output type" arg, when the op has one; else the input's. With
 * --tracelens, an input shape of null (None) is 0 elements of no dtype.
 */
#include <string.h>

#include "roof.h"

#define MAXRANK	16

/* The elements of x but dims, or fail: -1. */
static double
outelems(const struct rl_shape *x, const int64_t *dims, int k,
    struct rl_res *r)
{
	int red[MAXRANK], i;
	int64_t d;
	double n = 1;

	if (x->n > MAXRANK)
		return rl_fail(r, "input has more than %d dims", MAXRANK);
	memset(red, 0, sizeof red);
	for (i = 0; i < k; i++) {
		d = dims[i] < 0 ? dims[i] + x->n : dims[i];
		if (d < 0 || d >= (x->n > 0 ? x->n : 1))
			return rl_fail(r, "dim %lld is out of range",
			    (long long)dims[i]);
		red[d] = 1;
	}
	for (i = 0; i < x->n; i++)
		if (!red[i])
			n *= (double)x->v[i];
	return n;
}

int
rl_reduce(int cls, const struct rl_args *a, struct rl_res *r)
{
	const struct rl_shape *x;
	const char *ti, *to = NULL, *op, *c, *t;
	char tout[64];
	int bpe, bo, idim = 1, k, cum, minmax, indices = 0, num;
	int64_t dims[MAXRANK];
	double nin, nout;

	(void)cls;
	if (rl_tracelens && a->ndims > 0 && a->dims[0].null) {
		rl_pint(r, P_NUM_INPUT_ELEMS, 0);
		rl_pint(r, P_NUM_OUTPUT_ELEMS, 0);
		rl_pstrs(r, P_DTYPE_IN_OUT, 2, rl_type(a, 0), (char *)NULL);
		r->hasbwd = 1;
		return 0;
	}
	if ((x = rl_needdim(a, r, 0, 0)) == NULL ||
	    (ti = rl_needtype(a, r, 0)) == NULL)
		return -1;
	if (rl_argstr0(a, "Output type", tout, sizeof tout) >= 0)
		to = tout;
	op = a->name + (strncmp(a->name, "aten::", 6) == 0 ? 6 : 0);
	if (strncmp(op, "linalg_", 7) == 0)
		op += 7;
	cum = strcmp(op, "cumsum") == 0 || strcmp(op, "cumprod") == 0;
	minmax = strcmp(op, "max") == 0 || strcmp(op, "min") == 0;
	if (strcmp(op, "norm") == 0)
		idim = 2;
	nin = rl_prod(x);
	nout = cum ? nin : 1;
	c = rl_ci(a, idim);
	num = c != NULL && !a->cistr[idim];	/* a JSON number or list */
	if (rl_tracelens && !cum && num) {
		if ((k = rl_intlist(c, dims, MAXRANK)) < 0)
			return rl_fail(r, "dim \"%.40s\" is not a list of "
			    "integers", c);
		if ((nout = outelems(x, dims, k, r)) < 0)
			return -1;
	} else if (!rl_tracelens && !cum) {
		if (x->n > MAXRANK)
			return rl_fail(r, "input has more than %d dims",
			    MAXRANK);
		t = rl_type(a, idim);
		if (minmax && rl_nonempty(rl_dim(a, 1))) {
			/* maximum/minimum of two tensors: element-wise */
			r->family = F_BINARY;
			return rl_binary(C_BINARY, a, r);
		}
		k = -1;
		if (c != NULL && (*c == '[' || num))
			k = rl_intlist(c, dims, MAXRANK);
		else if (minmax && c != NULL && *c != '\0' && t != NULL &&
		    strcmp(t, "Scalar") == 0) {
			k = rl_intlist(c, dims, 1);
			indices = k == 1;
		}
		if (k > 0 && (nout = outelems(x, dims, k, r)) < 0)
			return -1;
	}
	rl_pnum(r, P_NUM_INPUT_ELEMS, nin);
	rl_pnum(r, P_NUM_OUTPUT_ELEMS, nout);
	rl_pstrs(r, P_DTYPE_IN_OUT, 2, ti, to);
	/* TraceLens's cumsum reduces as a sum */
	rl_pstr(r, P_REDUCE_TYPE, rl_tracelens && strcmp(op, "cumsum") == 0 ?
	    "sum" : op);

	bpe = rl_bpe(ti);
	bo = to != NULL ? rl_bpe(to) : bpe;
	r->flop = nin;
	r->bytes = nin * bpe + nout * bo + (indices ? nout * 8 : 0);
	r->hasbytes = bpe > 0 && bo > 0;
	r->flop_bwd = nin;
	r->bytes_bwd = r->bytes;
	r->hasbytes_bwd = r->hasbytes;
	r->hasbwd = 1;
	r->prec = rl_prec(ti);
	return 0;
}
