/*
 * tl-replay: the profiled inputs of an op, their match against the
 * schemas of its name, and the replay IR, by the rules of TraceLens's
 * EventReplayer (_is_schema_match, _get_event_replay_IR; event-replay
 * spec, 2.2 and 3), plus the checks of a tensor's sizes that TraceLens
 * leaves to torch.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/json.h"
#include "../../common/mem.h"
#include "replay.h"

const char *const reason_text[R_N] = {
	[R_OK] = "replayable",
	[R_NOARGS] = "no Input type, Input Strides or Concrete Inputs",
	[R_NOSCHEMA] = "no matching schema",
	[R_TLIST] = "tensor list argument",
	[R_ARGTYPE] = "unsupported argument type",
	[R_INTINIT] = "integer tensor with normal init",
	[R_BADLIST] = "bad input list",
	[R_DISAGREE] = "input lists of different lengths",
	[R_CONCRETE] = "concrete input disagrees with its type",
	[R_STRIDES] = "strides and dims of different lengths",
	[R_NEGATIVE] = "negative size or stride",
	[R_OVERFLOW] = "size or storage too large"
};

/* The replayable tensor dtypes (spec 2.2 rule 2), the floating ones. */
static const char *const dtypes[] = {
	"double", "float", "c10::Half", "c10::BFloat16", "long", "int",
	"bool", NULL
};

static int
isws(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* ------------------------------------------------------------------ */
/* JSON lists */

/*
 * The end of the JSON value at p[i..n): the index after it, or 0 when
 * it is not one. Strings, numbers, literals, arrays and objects, at
 * most 64 deep.
 */
static size_t
jvalue(const char *p, size_t n, size_t i, int depth)
{
	if (i >= n || depth > 64)
		return 0;
	switch (p[i]) {
	case '"':
		for (i++; i < n && p[i] != '"'; i++)
			if (p[i] == '\\' && ++i >= n)
				return 0;
			else if ((unsigned char)p[i] < 0x20)
				return 0;
		return i < n ? i + 1 : 0;
	case '[':
	case '{': {
		char close = p[i] == '[' ? ']' : '}';
		int obj = p[i] == '{', first = 1;

		for (i++;;) {
			while (i < n && isws(p[i]))
				i++;
			if (i < n && p[i] == close && first)
				return i + 1;
			if (obj) {
				if (i >= n || p[i] != '"' ||
				    (i = jvalue(p, n, i, depth + 1)) == 0)
					return 0;
				while (i < n && isws(p[i]))
					i++;
				if (i >= n || p[i++] != ':')
					return 0;
				while (i < n && isws(p[i]))
					i++;
			}
			if ((i = jvalue(p, n, i, depth + 1)) == 0)
				return 0;
			while (i < n && isws(p[i]))
				i++;
			if (i < n && p[i] == close)
				return i + 1;
			if (i >= n || p[i] != ',')
				return 0;
			i++;
			first = 0;
		}
	}
	default: {
		size_t j = i;

		while (j < n && !isws(p[j]) && p[j] != ',' && p[j] != ']' &&
		    p[j] != '}' && p[j] != ':')
			j++;
		if (j == i)
			return 0;
		if ((j - i == 4 && (memcmp(p + i, "true", 4) == 0 ||
		    memcmp(p + i, "null", 4) == 0)) ||
		    (j - i == 5 && memcmp(p + i, "false", 5) == 0) ||
		    tl_jnumber(p + i, j - i))
			return j;
		return 0;
	}
	}
}

/*
 * The elements of the JSON array p[0..n) into (*v)[0..*cnt): 0, or -1
 * when it is not an array.
 */
static int
jlist(const char *p, size_t n, struct span **v, size_t *cnt, size_t *cap)
{
	size_t i = 0, e;

	*cnt = 0;
	while (i < n && isws(p[i]))
		i++;
	if (i >= n || p[i] != '[' || jvalue(p, n, i, 0) == 0)
		return -1;
	for (i++;;) {
		while (i < n && isws(p[i]))
			i++;
		if (p[i] == ']')
			break;
		e = jvalue(p, n, i, 1);	/* checked by the call above */
		xgrow(v, cap, *cnt + 1, sizeof **v);
		(*v)[*cnt].p = p + i;
		(*v)[(*cnt)++].n = e - i;
		i = e;
		while (i < n && isws(p[i]))
			i++;
		if (p[i] == ',')
			i++;
	}
	for (i++; i < n && isws(p[i]); i++)
		;
	return i == n ? 0 : -1;
}

void
inputs_free(struct inputs *in)
{
	free(in->dims);
	free(in->strides);
	free(in->type);
	free(in->conc);
	free(in->buf);
}

/* The strings of list sp[0..n) decoded into out[0..n), bytes in in->buf
 * from *used: 0, or -1 when one is not a string. */
static int
strings(struct inputs *in, const struct span *sp, size_t n, char **out,
    size_t *used)
{
	size_t i;
	unsigned bad = 0;

	for (i = 0; i < n; i++) {
		if (sp[i].n < 2 || sp[i].p[0] != '"')
			return -1;
		out[i] = (char *)(uintptr_t)*used;	/* an offset for now */
		*used += tl_junescape(in->buf + *used, sp[i].p + 1,
		    sp[i].n - 2, &bad);
		in->buf[(*used)++] = '\0';
	}
	return 0;
}

int
inputs_read(struct inputs *in, const char *dims, size_t ndims,
    const char *types, size_t ntypes, const char *strides, size_t nstrides,
    const char *conc, size_t nconc, const char **detail)
{
	static struct span *tmp;
	static size_t tmpcap;
	size_t nd, ns, nt, nc, used, i;

	*detail = "";
	in->n = 0;
	if (types == NULL || strides == NULL || conc == NULL || dims == NULL) {
		*detail = types == NULL ? "no Input type" : dims == NULL ?
		    "no Input Dims" : strides == NULL ? "no Input Strides" :
		    "no Concrete Inputs";
		return R_NOARGS;
	}
	if (jlist(dims, ndims, &in->dims, &nd, &in->dcap) < 0) {
		*detail = "Input Dims is not a JSON list";
		return R_BADLIST;
	}
	if (jlist(strides, nstrides, &in->strides, &ns, &in->scap) < 0) {
		*detail = "Input Strides is not a JSON list";
		return R_BADLIST;
	}
	if (jlist(types, ntypes, &tmp, &nt, &tmpcap) < 0) {
		*detail = "Input type is not a JSON list";
		return R_BADLIST;
	}
	if (nt != nd || ns != nd) {
		*detail = nt != nd ? "Input type and Input Dims" :
		    "Input Strides and Input Dims";
		return R_DISAGREE;
	}
	xgrow(&in->buf, &in->bufcap, ntypes + nconc + 2, 1);
	xgrow(&in->type, &in->tcap, nt + 1, sizeof *in->type);
	xgrow(&in->conc, &in->ccap, nt + 1, sizeof *in->conc);
	used = 0;
	if (strings(in, tmp, nt, in->type, &used) < 0) {
		*detail = "an Input type entry is not a string";
		return R_BADLIST;
	}
	if (jlist(conc, nconc, &tmp, &nc, &tmpcap) < 0) {
		*detail = "Concrete Inputs is not a JSON list";
		return R_BADLIST;
	}
	if (nc != nt) {
		*detail = "Concrete Inputs and Input type";
		return R_DISAGREE;
	}
	if (strings(in, tmp, nc, in->conc, &used) < 0) {
		*detail = "a Concrete Inputs entry is not a string";
		return R_BADLIST;
	}
	for (i = 0; i < nt; i++) {
		in->type[i] = in->buf + (uintptr_t)in->type[i];
		in->conc[i] = in->buf + (uintptr_t)in->conc[i];
	}
	in->n = nt;
	/* The profiler records a value for a Scalar, a bracketed list
	 * for a ScalarList and nothing for the others (tensors, None,
	 * tensor lists). */
	for (i = 0; i < nt; i++) {
		const char *p = in->type[i], *c = in->conc[i];
		size_t n = strlen(c);
		int ok = strcmp(p, "Scalar") == 0 ? n > 0 :
		    strcmp(p, "ScalarList") == 0 ?
		    n >= 2 && c[0] == '[' && c[n - 1] == ']' : n == 0;

		if (!ok) {
			static char why[160];

			snprintf(why, sizeof why, "input %zu: Input type "
			    "\"%.40s\", Concrete Inputs \"%.40s\"", i, p, c);
			*detail = why;
			return R_CONCRETE;
		}
	}
	return R_OK;
}

/* ------------------------------------------------------------------ */
/* values as Python reads them */

/* re.fullmatch(r"-?[0-9]+", s) */
static int
isint(const char *s, size_t n)
{
	size_t i = n > 0 && s[0] == '-';

	if (i == n)
		return 0;
	for (; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* int(s) of an isint s, as its decimal text: no leading zeros, "-0" 0 */
static void
out_int(struct tl_out *o, const char *s, size_t n)
{
	int neg = s[0] == '-';
	size_t i = (size_t)neg;

	while (i + 1 < n && s[i] == '0')
		i++;
	if (neg && !(n - i == 1 && s[i] == '0'))
		tl_out_char(o, '-');
	tl_out_raw(o, s + i, n - i);
}

static int
lowereq(const char *s, size_t n, const char *lit)
{
	size_t i;

	if (strlen(lit) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (tolower((unsigned char)s[i]) != lit[i])
			return 0;
	return 1;
}

/* Python's str.strip() */
static const char *
strip(const char *s, size_t *n)
{
	while (*n > 0 && isspace((unsigned char)*s)) {
		s++;
		(*n)--;
	}
	while (*n > 0 && isspace((unsigned char)s[*n - 1]))
		(*n)--;
	return s;
}

/* Digits with single underscores between them, as Python's float()
 * takes them: the count of digits, the index after them in *i. */
static size_t
digits(const char *s, size_t *i, char *out, size_t *k)
{
	size_t nd = 0;

	while (isdigit((unsigned char)s[*i])) {
		out[(*k)++] = s[(*i)++];
		nd++;
		if (s[*i] == '_' && isdigit((unsigned char)s[*i + 1]))
			(*i)++;
	}
	return nd;
}

int
py_float(const char *s0, double *v)
{
	size_t n = strlen(s0), i = 0, k = 0, nd;
	const char *s = strip(s0, &n);
	char *buf, *end;
	int neg = 0;

	if (n == 0)
		return 0;
	buf = xmalloc(n + 2);
	memcpy(buf, s, n);
	buf[n] = '\0';
	s = buf;
	if (s[i] == '+' || s[i] == '-')
		neg = s[i++] == '-';
	if (lowereq(s + i, n - i, "inf") || lowereq(s + i, n - i, "infinity")) {
		*v = neg ? -HUGE_VAL : HUGE_VAL;
		free(buf);
		return 1;
	}
	if (lowereq(s + i, n - i, "nan")) {
		*v = neg ? -NAN : NAN;
		free(buf);
		return 1;
	}
	{
		char *out = xmalloc(n + 2);

		if (neg)
			out[k++] = '-';
		nd = digits(s, &i, out, &k);
		if (s[i] == '.') {
			out[k++] = s[i++];
			nd += digits(s, &i, out, &k);
		}
		if (nd > 0 && (s[i] == 'e' || s[i] == 'E')) {
			out[k++] = s[i++];
			if (s[i] == '+' || s[i] == '-')
				out[k++] = s[i++];
			if (digits(s, &i, out, &k) == 0)
				nd = 0;
		}
		out[k] = '\0';
		if (nd == 0 || i != n) {
			free(out);
			free(buf);
			return 0;
		}
		errno = 0;
		*v = strtod(out, &end);
		free(out);
	}
	free(buf);
	return 1;
}

/* The items of an int or bool list's concrete text c: c stripped, its
 * first and last characters cut, split on ','. Calls fn on each item
 * stripped; returns 0 at the first item fn refuses, else 1. */
static int
items(const char *c, int (*fn)(const char *, size_t, struct tl_out *, int,
    int), struct tl_out *o, int lvl)
{
	size_t n = strlen(c), k;
	const char *s = strip(c, &n), *e;
	int i = 0;

	if (n < 2)
		n = 0, s = "";
	else
		s++, n -= 2;
	for (;; s = e + 1, i++) {
		const char *it;

		e = memchr(s, ',', n);
		k = e != NULL ? (size_t)(e - s) : n;
		it = strip(s, &k);
		if (!fn(it, k, o, lvl, i))
			return 0;
		if (e == NULL)
			return 1;
		n -= (size_t)(e - s) + 1;
	}
}

static int
intitem(const char *s, size_t n, struct tl_out *o, int lvl, int i)
{
	if (!isint(s, n))
		return 0;
	if (o != NULL) {
		if (i > 0)
			tl_out_char(o, ',');
		j_indent(o, lvl);
		out_int(o, s, n);
	}
	return 1;
}

static int
boolitem(const char *s, size_t n, struct tl_out *o, int lvl, int i)
{
	if (!lowereq(s, n, "true") && !lowereq(s, n, "false"))
		return 0;
	if (o != NULL) {
		if (i > 0)
			tl_out_char(o, ',');
		j_indent(o, lvl);
		tl_out_cstr(o, lowereq(s, n, "true") ? "true" : "false");
	}
	return 1;
}

/* ------------------------------------------------------------------ */
/* the match */

static int
isdtype(const char *p)
{
	int i;

	for (i = 0; dtypes[i] != NULL; i++)
		if (strcmp(p, dtypes[i]) == 0)
			return 1;
	return 0;
}

static int
prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

enum { M_NO, M_YES, M_TLIST };

/* _is_schema_match for one argument: schema type s, profiled type p,
 * concrete input c. */
static int
match1(const char *s0, const char *p, const char *c)
{
	char s[256];
	size_t n = strlen(s0);
	double d;

	if (n >= sizeof s)
		n = sizeof s - 1;
	memcpy(s, s0, n);
	s[n] = '\0';
	if (n > 0 && s[n - 1] == '?') {
		s[--n] = '\0';
		if (*p == '\0')
			return M_YES;
		if (strcmp(p, "ScalarList") == 0 && strcmp(c, "[]") == 0)
			return M_YES;
	}
	if (strcmp(s, "Tensor") == 0 || strcmp(s, "Tensor(a!)") == 0)
		return isdtype(p) ? M_YES : M_NO;
	if (strcmp(s, "bool") == 0)
		return lowereq(c, strlen(c), "true") ||
		    lowereq(c, strlen(c), "false") ? M_YES : M_NO;
	if (strcmp(s, "int") == 0 || strcmp(s, "SymInt") == 0)
		return strcmp(p, "Scalar") == 0 && isint(c, strlen(c)) ?
		    M_YES : M_NO;
	if (strcmp(s, "float") == 0 || strcmp(s, "Scalar") == 0)
		return strcmp(p, "Scalar") == 0 && py_float(c, &d) ?
		    M_YES : M_NO;
	if (prefix(s, "int[") || prefix(s, "SymInt["))
		return strcmp(p, "ScalarList") == 0 &&
		    items(c, intitem, NULL, 0) ? M_YES : M_NO;
	if (prefix(s, "bool["))
		return strcmp(p, "ScalarList") == 0 &&
		    items(c, boolitem, NULL, 0) ? M_YES : M_NO;
	if (prefix(s, "Tensor["))
		return M_TLIST;
	/* any other type: no match when the profile has a value for it */
	return *p == '\0' ? M_YES : M_NO;
}

/* ------------------------------------------------------------------ */
/* the IR */

/*
 * A list of sizes or strides, the JSON text sp: its integers into
 * v[0..*n) (at most cap), written to o when o is not NULL. R_OK or the
 * reason.
 */
static int
intlist(const struct span *sp, int64_t *v, size_t *n, size_t cap)
{
	const char *p = sp->p, *end = sp->p + sp->n;

	*n = 0;
	while (p < end && isws(*p))
		p++;
	if (p >= end || *p++ != '[')
		return R_BADLIST;
	for (;;) {
		const char *q;
		int r;

		while (p < end && isws(*p))
			p++;
		if (p < end && *p == ']' && *n == 0)
			return R_OK;
		for (q = p; q < end && (*q == '-' || isdigit((unsigned char)*q));
		    q++)
			;
		if (q == p)
			return R_BADLIST;
		if (*n >= cap)
			return R_OVERFLOW;
		r = tl_parse_i64(p, (size_t)(q - p), &v[*n]);
		if (r == -2)
			return R_OVERFLOW;
		if (r < 0)
			return R_BADLIST;
		if (v[(*n)++] < 0)
			return R_NEGATIVE;
		for (p = q; p < end && isws(*p); p++)
			;
		if (p < end && *p == ']')
			return R_OK;
		if (p >= end || *p++ != ',')
			return R_BADLIST;
	}
}

#define MAXDIM	64

static void
out_ints(struct tl_out *o, int lvl, const int64_t *v, size_t n)
{
	size_t i;

	if (n == 0) {
		tl_out_cstr(o, "[]");
		return;
	}
	tl_out_char(o, '[');
	for (i = 0; i < n; i++) {
		if (i > 0)
			tl_out_char(o, ',');
		j_indent(o, lvl + 1);
		tl_out_i64(o, v[i]);
	}
	j_indent(o, lvl);
	tl_out_char(o, ']');
}

/* A TensorCfg: {"shape", "dtype", "strides", "init"}. */
static int
tensorcfg(struct tl_out *o, int lvl, const struct inputs *in, size_t i,
    int init, char *detail, size_t cap)
{
	int64_t dim[MAXDIM], st[MAXDIM];
	size_t nd, ns, k;
	int r;
	uint64_t size = 1;

	const char *list = "Input Dims";

	if ((r = intlist(&in->dims[i], dim, &nd, MAXDIM)) == R_OK) {
		list = "Input Strides";
		r = intlist(&in->strides[i], st, &ns, MAXDIM);
	}
	if (r != R_OK) {
		snprintf(detail, cap, "input %zu: %s: %s", i, list,
		    r == R_OVERFLOW ?
		    "more than 64 numbers, or one beyond int64" :
		    r == R_NEGATIVE ? "a negative number" :
		    "not a list of whole numbers");
		return r;
	}
	if (nd != ns) {
		snprintf(detail, cap, "input %zu: %zu dims, %zu strides", i,
		    nd, ns);
		return R_STRIDES;
	}
	/* the storage empty_strided makes: 1 + sum (d - 1) * s, 0 when
	 * a size is 0; and the number of elements */
	for (k = 0; k < nd; k++)
		if (dim[k] == 0)
			size = 0;
	if (size != 0) {
		uint64_t numel = 1;

		for (k = 0; k < nd; k++) {
			uint64_t d = (uint64_t)dim[k], s = (uint64_t)st[k];

			if ((s != 0 && d - 1 > (UINT64_C(1) << 62) / s) ||
			    (size += (d - 1) * s) > (UINT64_C(1) << 62) ||
			    d > (UINT64_C(1) << 62) / numel) {
				snprintf(detail, cap, "input %zu: the storage "
				    "of its sizes and strides is beyond 2^62 "
				    "elements", i);
				return R_OVERFLOW;
			}
			numel *= d;
		}
	}
	if (init && strcmp(in->type[i], "long") != 0 &&
	    strcmp(in->type[i], "int") != 0 &&
	    strcmp(in->type[i], "bool") != 0)
		;
	else if (init) {
		snprintf(detail, cap, "input %zu: %s", i, in->type[i]);
		return R_INTINIT;
	}
	tl_out_char(o, '{');
	j_key(o, lvl + 1, "shape", 1);
	out_ints(o, lvl + 1, dim, nd);
	j_key(o, lvl + 1, "dtype", 0);
	j_str(o, in->type[i], strlen(in->type[i]));
	j_key(o, lvl + 1, "strides", 0);
	out_ints(o, lvl + 1, st, ns);
	j_key(o, lvl + 1, "init", 0);
	tl_out_cstr(o, init ? "\"normal\"" : "null");
	j_indent(o, lvl);
	tl_out_char(o, '}');
	return R_OK;
}

/* The value of argument i, of schema type t (_get_event_replay_IR). */
static int
value(struct tl_out *o, int lvl, const char *op, const struct sarg *a,
    const struct inputs *in, size_t i, char *detail, size_t cap)
{
	const char *t = a->type, *p = in->type[i], *c = in->conc[i];
	size_t n = strlen(t);
	int opt = n > 0 && t[n - 1] == '?';
	double d;

	if (opt && *p == '\0') {
		tl_out_cstr(o, "null");
		return R_OK;
	}
	if (opt && strcmp(c, "[]") == 0) {
		tl_out_cstr(o, "[]");
		return R_OK;
	}
	if (strcmp(t, "Tensor") == 0 || strcmp(t, "Tensor?") == 0 ||
	    strcmp(t, "Tensor(a!)") == 0) {
		int init = strcmp(op, "aten::fill_") != 0 &&
		    (strcmp(op, "aten::copy_") != 0 ||
		    strcmp(a->name, "src") == 0);

		return tensorcfg(o, lvl, in, i, init, detail, cap);
	}
	if (strcmp(t, "bool") == 0 || strcmp(t, "bool?") == 0) {
		tl_out_cstr(o, lowereq(c, strlen(c), "true") ? "true" :
		    "false");
		return R_OK;
	}
	if ((strcmp(t, "int") == 0 || strcmp(t, "SymInt") == 0) &&
	    isint(c, strlen(c))) {
		out_int(o, c, strlen(c));
		return R_OK;
	}
	if ((strcmp(t, "float") == 0 || strcmp(t, "float?") == 0 ||
	    strcmp(t, "Scalar") == 0 || strcmp(t, "Scalar?") == 0) &&
	    py_float(c, &d)) {
		j_float(o, d);
		return R_OK;
	}
	if ((prefix(t, "int[") || prefix(t, "SymInt[")) &&
	    items(c, intitem, NULL, 0)) {
		tl_out_char(o, '[');
		items(c, intitem, o, lvl + 1);
		j_indent(o, lvl);
		tl_out_char(o, ']');
		return R_OK;
	}
	if (prefix(t, "bool[") && items(c, boolitem, NULL, 0)) {
		tl_out_char(o, '[');
		items(c, boolitem, o, lvl + 1);
		j_indent(o, lvl);
		tl_out_char(o, ']');
		return R_OK;
	}
	snprintf(detail, cap, "%s %s = \"%s\"", t, a->name, c);
	return R_ARGTYPE;
}

int
replay_ir(struct tl_out *o, int lvl, const struct schemas *S,
    const char *name, size_t nlen, const struct inputs *in, uint32_t *which,
    char *detail, size_t cap)
{
	uint32_t k;
	const struct schema *sc = NULL;
	char *op = xmemdup(name, nlen);
	int i, r = R_OK, list;

	*which = UINT32_MAX;
	detail[0] = '\0';
	for (k = schemas_find(S, name, nlen); k != UINT32_MAX;
	    k = S->s[k].next) {
		int m = M_YES;

		sc = &S->s[k];
		if ((size_t)sc->narg != in->n)
			continue;
		for (i = 0; i < sc->narg && m == M_YES; i++)
			m = match1(sc->arg[i].type, in->type[i], in->conc[i]);
		if (m == M_TLIST) {
			snprintf(detail, cap, "%s %s", sc->arg[i - 1].type,
			    sc->arg[i - 1].name);
			*which = k;
			free(op);
			return R_TLIST;
		}
		if (m == M_YES)
			break;
	}
	if (k == UINT32_MAX) {
		size_t at, j;

		at = (size_t)snprintf(detail, cap, "%s %zu inputs (",
		    schemas_find(S, name, nlen) == UINT32_MAX ?
		    "no schema of that name;" : "none takes these", in->n);
		for (j = 0; j < in->n && at < cap; j++)
			at += (size_t)snprintf(detail + at, cap - at, "%s\"%s\"",
			    j > 0 ? ", " : "", in->type[j]);
		if (at < cap)
			snprintf(detail + at, cap - at, ")");
		free(op);
		return R_NOSCHEMA;
	}
	*which = k;
	tl_out_char(o, '{');
	for (list = 0; list < 2; list++) {
		int from = list ? sc->npos : 0, to = list ? sc->narg : sc->npos;

		j_key(o, lvl + 1, list ? "list_kwargs" : "list_pos_args",
		    !list);
		if (from == to) {
			tl_out_cstr(o, "[]");
			continue;
		}
		tl_out_char(o, '[');
		for (i = from; i < to; i++) {
			const struct sarg *a = &sc->arg[i];

			if (i > from)
				tl_out_char(o, ',');
			j_indent(o, lvl + 2);
			tl_out_char(o, '{');
			j_key(o, lvl + 3, "arg_name", 1);
			j_str(o, a->name, strlen(a->name));
			j_key(o, lvl + 3, "arg_type", 0);
			j_str(o, a->type, strlen(a->type));
			j_key(o, lvl + 3, "value", 0);
			if ((r = value(o, lvl + 3, op, a, in, (size_t)i,
			    detail, cap)) != R_OK)
				goto out;
			j_indent(o, lvl + 2);
			tl_out_char(o, '}');
		}
		j_indent(o, lvl + 1);
		tl_out_char(o, ']');
	}
	j_indent(o, lvl);
	tl_out_char(o, '}');
out:
	free(op);
	return r;
}
