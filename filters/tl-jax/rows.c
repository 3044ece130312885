/*
 * tl-jax: linking (spec 5.3), categories (5.4) and the kernel rows.
 */
#include "jax.h"

/* ---- linking (spec 5.3) ---- */

struct cu {
	int64_t corr;
	size_t i;
};

static int
cucmp(const void *a, const void *b)
{
	const struct cu *x = a, *y = b;

	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int *isgpu;	/* per pid index: pid's process is a GPU */

int
gpupid(int pid)
{
	if (pid != gpucache) {
		gpucache = pid;
		gpucached = hasstr(procname(pid), "/device:GPU");
	}
	return gpucached;
}

/* Whether host event h may link event u (h's device, by default). */
static int
canlink(const struct ev *h, const struct ev *u)
{
	return tflag || !h->hasdev || u->pid == 701 || u->pid == h->devid + 1;
}

/*
 * Every host event of pid 701 links the other events with its id, in UID
 * order, so the last one wins: each event's parent is the last such host
 * event but itself. Found per id, in time linear in the events (ids that
 * repeat many times cost no more).
 */
void
linkevents(void)
{
	struct cu *c = xreallocarray(NULL, nE ? nE : 1, sizeof *c);
	size_t i, n = 0, lo, hi, k;

	for (i = 0; i < nE; i++)
		if (E[i].hascorr) {
			c[n].corr = E[i].corr;
			c[n++].i = i;
		}
	qsort(c, n, sizeof *c, cucmp);
	for (lo = 0; lo < n; lo = hi) {
		size_t last = SIZE_MAX, prev = SIZE_MAX;

		for (hi = lo; hi < n && c[hi].corr == c[lo].corr; hi++)
			if (E[c[hi].i].pid == 701) {
				prev = last;
				last = c[hi].i;
			}
		if (last == SIZE_MAX)
			continue;
		for (k = lo; k < hi; k++) {
			size_t u = c[k].i, h = u == last ? prev : last, j;

			if (h != SIZE_MAX && !canlink(&E[h], &E[u])) {
				/* the last host event of u's device */
				h = SIZE_MAX;
				for (j = hi; j-- > lo;)
					if (c[j].i != u && E[c[j].i].pid == 701 &&
					    canlink(&E[c[j].i], &E[u])) {
						h = c[j].i;
						break;
					}
			}
			if (h != SIZE_MAX)
				E[u].parent = (int)h;
		}
	}
	free(c);
}

/* ---- categories (spec 5.4) ---- */

const char *const catname[] = {
	"GEMM", "FA BWD", "FA FWD", "FA V3", "Conv", "TE",
	"Communication rccl/nccl"
};

static int
catof(uint32_t id)
{
	size_t n;
	const char *s = S(id, &n);

	return tl_jax_kcat(s, n);
}

const char *
catstr(int c)
{
	return c == UNCAT ? "Uncategorized Events/XLA" : catname[c];
}

static int
kcat(const struct ev *e)
{
	int c = catof(e->name), h;

	/* hlo_op overrides, but not an FA kernel, nor (by default) a GEMM
	 * kernel, which is a GEMM whatever custom call launched it. */
	if (e->hloop != NONE && S(e->hloop, NULL)[0] != '\0' &&
	    c != 1 && c != 2 && c != 3 && (tflag || c != 0) &&
	    (h = catof(e->hloop)) >= 0)
		c = h;
	return c < 0 ? UNCAT : c;
}

/* ---- the kernel rows ---- */

#define MAXOP 16

struct krow *K;
size_t nK;

/* The first match of ([A-Za-z]+[0-9]+)\[([0-9,]+)\]\{([0-9,]+)\} in s. */
static int
shapeof(const char *s, size_t n, struct tl_xshape *sh)
{
	size_t i, j, k, d0, d1, l;

	for (i = 0; i < n; i++) {
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z')) || (i > 0 && ((s[i - 1] >= 'a' &&
		    s[i - 1] <= 'z') || (s[i - 1] >= 'A' && s[i - 1] <= 'Z'))))
			continue;
		for (j = i; j < n && ((s[j] >= 'a' && s[j] <= 'z') ||
		    (s[j] >= 'A' && s[j] <= 'Z')); j++)
			;
		/* [A-Za-z]+[0-9]+ may end the letters early: letters then
		 * digits, as many as there are, then '['. */
		k = j;
		while (k < n && s[k] >= '0' && s[k] <= '9')
			k++;
		if (k == j || k >= n || s[k] != '[')
			continue;
		d0 = d1 = k + 1;
		while (d1 < n && ((s[d1] >= '0' && s[d1] <= '9') ||
		    s[d1] == ','))
			d1++;
		if (d1 == d0 || d1 + 1 >= n || s[d1] != ']' || s[d1 + 1] != '{')
			continue;
		l = d1 + 2;
		while (l < n && ((s[l] >= '0' && s[l] <= '9') || s[l] == ','))
			l++;
		if (l == d1 + 2 || l >= n || s[l] != '}')
			continue;
		sh->nl = 0;
		for (j = d1 + 2; j < l && sh->nl < MAXD;) {
			int64_t v = 0;

			while (j < l && s[j] != ',')
				v = v * 10 + (s[j++] - '0');
			sh->lay[sh->nl++] = v;
			if (j < l)
				j++;
		}
		if (k - i >= sizeof sh->type)
			return 0;
		memcpy(sh->type, s + i, k - i);
		sh->type[k - i] = '\0';
		sh->nd = 0;
		for (j = d0; j < d1;) {
			int64_t v = 0;
			size_t st = j;

			while (j < d1 && s[j] != ',')
				v = v * 10 + (s[j++] - '0');
			if (j == st || sh->nd == MAXD)
				return 0;	/* int('') raises */
			sh->d[sh->nd++] = v;
			if (j < d1)
				j++;
		}
		return 1;
	}
	return 0;
}

void
puttuple(struct tl_out *o, const int64_t *d, int n)
{
	int i;

	tl_out_char(o, '(');
	for (i = 0; i < n; i++) {
		if (i > 0)
			tl_out_raw(o, ", ", 2);
		tl_out_i64(o, d[i]);
	}
	if (n == 1)
		tl_out_char(o, ',');
	tl_out_char(o, ')');
}

static uint32_t
dimsrepr(const struct tl_xshape *op, int from, int to)
{
	struct tl_out o;
	uint32_t id;
	int i;

	tl_out_init(&o, -1, "(dims)");
	tl_out_char(&o, '(');
	for (i = from; i < to; i++) {
		if (i > from)
			tl_out_raw(&o, ", ", 2);
		puttuple(&o, op[i].d, op[i].nd);
	}
	if (to - from == 1)
		tl_out_char(&o, ',');
	tl_out_char(&o, ')');
	id = tl_intern(in, o.buf, o.n);
	free(o.buf);
	return id;
}

static uint32_t
typesrepr(const struct tl_xshape *op, int from, int to)
{
	struct tl_out o;
	uint32_t id;
	int i;

	tl_out_init(&o, -1, "(types)");
	tl_out_char(&o, '(');
	for (i = from; i < to; i++) {
		if (i > from)
			tl_out_raw(&o, ", ", 2);
		tl_out_pystr(&o, op[i].type, strlen(op[i].type));
	}
	if (to - from == 1)
		tl_out_char(&o, ',');
	tl_out_char(&o, ')');
	id = tl_intern(in, o.buf, o.n);
	free(o.buf);
	return id;
}

/* Split the repr of a list of str back into the operand strings. */
int
operands(uint32_t ops, struct tl_xshape *op)
{
	size_t n, i;
	const char *s = S(ops, &n);
	int nop = 0;

	/* ['a', 'b']: no quotes inside shapes */
	for (i = 0; i < n && nop < MAXOP; i++) {
		if (s[i] != '\'' && s[i] != '"')
			continue;
		{
			char q = s[i];
			size_t j = i + 1;

			while (j < n && s[j] != q)
				j++;
			if (shapeof(s + i + 1, j - i - 1, &op[nop]))
				nop++;
			i = j;
		}
	}
	return nop;
}

static int
modelof(const struct krow *k, const struct ev *e)
{
	const char *c = S(e->cct, NULL);
	int cat = k->cat;

	if (!k->hasmeta || e->ops == NONE || e->cct == NONE)
		return M_REST;
	if (strcmp(S(e->ops, NULL), "[]") == 0)
		return M_REST;
	if ((strstr(c, "matmul") || strstr(c, "cublas")) && cat == 0)
		return M_GEMM;
	if (strstr(c, "te_fused_attn_forward_ffi"))
		return M_TE;
	if (strstr(c, "te_fused_attn_backward_ffi"))
		return M_TEBWD;
	/* A conv custom call's kernels (its GEMM included) by default. */
	if ((strstr(c, "cudnn$convForward") ||
	    strstr(c, "cudnn$convBiasActivationForward")) &&
	    (cat == 4 || (!tflag && cat == 0)))
		return M_CONV;
	if (strstr(c, "cudnn$convBackward") && (cat == 4 ||
	    (!tflag && cat == 0)))
		return M_CONVBWD;
	return M_REST;
}

void
pyrepr(struct tl_out *o, uint32_t id)
{
	size_t n;
	const char *s = S(id, &n);

	tl_out_pystr(o, s, n);
}

void
kernelrows(void)
{
	static struct tl_xshape tmpop[MAXOP];
	size_t i;

	size_t nk = 0;

	for (i = 0; i < nE; i++)
		if (E[i].kind == TL_K_KERNEL && gpupid(E[i].pid))
			nk++;
	K = xreallocarray(NULL, nk ? nk : 1, sizeof *K);
	for (i = 0; i < nE; i++) {
		struct ev *e = &E[i];
		struct krow *k;

		if (e->kind != TL_K_KERNEL || !gpupid(e->pid))
			continue;
		k = &K[nK++];
		memset(k, 0, sizeof *k);
		k->e = i;
		k->cat = kcat(e);
		k->hasmeta = e->out != NONE && (e->parent >= 0 || !tflag);
		k->lat = e->parent >= 0 ? e->ts - E[e->parent].ts : NAN;
		k->op = tmpop;
		if (k->hasmeta && e->ops != NONE)
			k->nop = operands(e->ops, k->op);
		if (k->hasmeta && e->out != NONE) {
			size_t n;
			const char *s = S(e->out, &n);

			k->hasout = shapeof(s, n, &k->outs);
		}
		k->model = modelof(k, e);
		if (k->model == M_TE || k->model == M_TEBWD) {
			int m = k->nop < 3 ? k->nop : 3;

			k->dims = dimsrepr(k->op, 0, m);
			k->types = typesrepr(k->op, 0, m);
			k->conc = dimsrepr(k->op, 3, k->nop > 3 ? 4 : 3);
		} else {
			k->dims = dimsrepr(k->op, 0, k->nop);
			k->types = typesrepr(k->op, 0, k->nop);
			k->conc = tl_intern(in, "()", 2);
		}
		if (k->model != M_REST && k->nop > 0) {
			k->op = xreallocarray(NULL, (size_t)k->nop,
			    sizeof *k->op);
			memcpy(k->op, tmpop, (size_t)k->nop * sizeof *k->op);
		} else
			k->op = NULL;
	}
}

/* Rows of kernel_launchers: with -k, those whose metadata has a keyword. */
int
kept(const struct krow *k)
{
	size_t j;

	if (nkw == 0)
		return 1;
	if (!k->hasmeta || E[k->e].meta == NONE)
		return 0;
	for (j = 0; j < nkw; j++)
		if (hasstr(E[k->e].meta, kw[j]))
			return 1;
	return 0;
}

