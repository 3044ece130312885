/*
 * tl-hta: HTA's aten-op kernels and delay (get_aten_op_kernels_and_delay,
 * spec 11): for each kernel launch, the deepest aten:: op around it (of
 * any thread: the latest start among the ops that hold the launch, ties
 * as numpy's quicksort leaves them), the delay from the op's start to
 * the launch and from the launch to its kernel; then, per op instance,
 * its kernel sequence; and per op name and sequence, how often, with the
 * mean delays of the instances' first launches.
 */
#define _GNU_SOURCE		/* memmem */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/npsort.h"
#include "../../common/stats.h"
#include "hta.h"

struct rec {
	const struct row *op, *launch, *kern;
};

struct inst {
	const struct row *op;	/* the first record's op */
	uint32_t seq;		/* the kernel sequence, interned */
	double ld, rd;		/* the first record's delays */
};

struct arow {
	uint32_t name, seq;
	double count, ld, rd;
};

static const struct row *R;	/* the rank's rows, for the sorts */
static struct rec *REC;
static struct inst *INS;

static int
cmpts(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (R[x].ts != R[y].ts)
		return R[x].ts < R[y].ts ? -1 : 1;
	return (x > y) - (x < y);
}

static int
cmpic(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (R[x].ic != R[y].ic)
		return R[x].ic < R[y].ic ? -1 : 1;
	return (x > y) - (x < y);
}

static int
cmprow(size_t a, size_t b)
{
	return (a > b) - (a < b);
}

static int
strid(uint32_t a, uint32_t b)
{
	size_t n;

	return a == b ? 0 : strcmp(hta_s(a, &n), hta_s(b, &n));
}

/* The op instance of a record: (thread, op name, op start). */
static int
cmpinst(size_t a, size_t b)
{
	const struct row *x = REC[a].op, *y = REC[b].op;
	int c = strid(x->tid, y->tid);

	if (c == 0)
		c = strid(x->name, y->name);
	if (c == 0 && x->ts != y->ts)
		c = x->ts < y->ts ? -1 : 1;
	return c;
}

static int
cmpgrp(size_t a, size_t b)
{
	int c = strid(INS[a].op->name, INS[b].op->name);

	return c != 0 ? c : strid(INS[a].seq, INS[b].seq);
}

static int
islaunch(uint32_t name)
{
	size_t n;
	const char *s = hta_s(name, &n), *nl;

	if (n >= 4 && memcmp(s, "cuda", 4) == 0) {
		nl = memchr(s, '\n', n);
		return memmem(s + 4, (nl != NULL ? (size_t)(nl - s) : n) - 4,
		    "LaunchKernel", 12) != NULL;
	}
	return (n >= 14 && memcmp(s, "cuLaunchKernel", 14) == 0) ||
	    (n >= 11 && memcmp(s, "runFunction", 11) == 0);
}

/* The deepest op of each launch (opof[i] for launch L[i], SIZE_MAX for
 * none): a sweep of the ops by start over the launches by start. */
static void
deepest(const struct rank *rk, const size_t *A, size_t na, const size_t *L,
    size_t nl, size_t *opof)
{
	size_t *as = xreallocarray(NULL, na + 1, sizeof *as);
	size_t *ls = xreallocarray(NULL, nl + 1, sizeof *ls);
	size_t *pos = xreallocarray(NULL, rk->n + 1, sizeof *pos);
	size_t *act = xreallocarray(NULL, na + 1, sizeof *act);
	size_t *cand = xreallocarray(NULL, na + 1, sizeof *cand);
	size_t *p = xreallocarray(NULL, na + 1, sizeof *p);
	double *key = xreallocarray(NULL, na + 1, sizeof *key);
	size_t i, k, li, ai = 0, nact = 0, nc;

	for (i = 0; i < nl; i++)
		pos[L[i]] = i;
	memcpy(as, A, na * sizeof *as);
	memcpy(ls, L, nl * sizeof *ls);
	qsort(as, na, sizeof *as, cmpts);
	qsort(ls, nl, sizeof *ls, cmpts);
	for (li = 0; li < nl; li++) {
		const struct row *l = &rk->r[ls[li]];
		double lend = (double)l->ts + l->dur;

		opof[pos[ls[li]]] = SIZE_MAX;
		while (ai < na && rk->r[as[ai]].ts <= l->ts)
			act[nact++] = as[ai++];
		for (i = 0, k = 0, nc = 0; i < nact; i++) {
			const struct row *a = &rk->r[act[i]];
			double aend = (double)a->ts + a->dur;

			/* over for good (a launch's rounded dur is > -16) */
			if (aend + 16 < (double)l->ts)
				continue;
			act[k++] = act[i];
			if (aend >= lend)
				cand[nc++] = act[i];
		}
		nact = k;
		if (nc == 0)
			continue;
		hta_stable(cand, nc, cmprow);	/* the table's order */
		for (i = 0; i < nc; i++)
			key[i] = (double)rk->r[cand[i]].ts;
		tl_nargsort_desc(key, nc, p);
		opof[pos[ls[li]]] = cand[p[0]];
	}
	free(as);
	free(ls);
	free(pos);
	free(act);
	free(cand);
	free(p);
	free(key);
}

/*
 * The records of every rank so far: HTA keeps adding to one list over
 * the ranks, so the table of rank r counts the launches of the ranks
 * before it too (its reference for rank 1 shows it).
 */
static size_t nr, caprec;

/* One rank: its records added; -1 where HTA raises (why says what). */
static int
rank1(const struct rank *rk, struct arow **out, size_t *nout,
    const char **why)
{
	size_t *A = xreallocarray(NULL, rk->n + 1, sizeof *A);
	size_t *L = xreallocarray(NULL, rk->n + 1, sizeof *L);
	size_t *G = xreallocarray(NULL, rk->n + 1, sizeof *G);
	size_t *opof, *ord, na = 0, nl = 0, ng = 0, ni = 0, i, j;
	size_t k, no = 0, lo, hi, cap = 0;
	struct arow *o = NULL;
	double *key;
	struct tl_out sb;
	int ret = 0;

	R = rk->r;
	for (i = 0; i < rk->n; i++) {
		size_t n;
		const char *s = hta_s(rk->r[i].name, &n);

		if (n >= 6 && memcmp(s, "aten::", 6) == 0)
			A[na++] = i;
		if (islaunch(rk->r[i].name))
			L[nl++] = i;
		if (rk->r[i].stream != -1)
			G[ng++] = i;
	}
	qsort(G, ng, sizeof *G, cmpic);
	opof = xreallocarray(NULL, nl + 1, sizeof *opof);
	deepest(rk, A, na, L, nl, opof);
	xgrow(&REC, &caprec, nr + nl + 1, sizeof *REC);
	for (i = 0; i < nl; i++) {
		int64_t ix = rk->r[L[i]].index;

		if (opof[i] == SIZE_MAX)
			continue;
		for (lo = 0, hi = ng; lo < hi;) {
			size_t m = lo + (hi - lo) / 2;

			if (rk->r[G[m]].ic < ix)
				lo = m + 1;
			else
				hi = m;
		}
		if (lo == ng || rk->r[G[lo]].ic != ix ||
		    (lo + 1 < ng && rk->r[G[lo + 1]].ic == ix)) {
			*why = "a launch inside an aten op has no kernel or "
			    "several (HTA: ValueError)";
			ret = -1;
			goto done;
		}
		REC[nr].op = &rk->r[opof[i]];
		REC[nr].launch = &rk->r[L[i]];
		REC[nr++].kern = &rk->r[G[lo]];
	}
	if (nr == 0) {	/* over the ranks so far */
		*why = "no kernel launch inside an aten op (HTA: KeyError "
		    "'thread_id')";
		ret = -1;
		goto done;
	}
	/* op instances, records in order within each */
	ord = xreallocarray(NULL, nr + 1, sizeof *ord);
	for (i = 0; i < nr; i++)
		ord[i] = i;
	hta_stable(ord, nr, cmpinst);
	INS = xreallocarray(NULL, nr + 1, sizeof *INS);
	tl_out_init(&sb, -1, "sequence");
	for (i = 0; i < nr; i = j) {
		const struct rec *f = &REC[ord[i]];

		sb.n = 0;
		for (j = i; j < nr && cmpinst(ord[i], ord[j]) == 0; j++) {
			size_t n;
			const char *s = hta_s(REC[ord[j]].kern->name, &n);

			if (j > i)
				tl_out_raw(&sb, " -> ", 4);
			tl_out_raw(&sb, s, n);
		}
		INS[ni].op = f->op;
		INS[ni].seq = tl_intern(hta_str, sb.n > 0 ? sb.buf : "",
		    sb.n);
		INS[ni].ld = (double)f->launch->ts - (double)f->op->ts;
		INS[ni++].rd = (double)f->kern->ts - (double)f->launch->ts;
	}
	free(sb.buf);
	/* groups by (op name, sequence), in that order */
	for (i = 0; i < ni; i++)
		ord[i] = i;
	hta_stable(ord, ni, cmpgrp);
	for (i = 0; i < ni; i = j) {
		struct tl_kahan a = { 0, 0 }, b = { 0, 0 };

		for (j = i; j < ni && cmpgrp(ord[i], ord[j]) == 0; j++) {
			tl_kahan_add(&a, INS[ord[j]].ld);
			tl_kahan_add(&b, INS[ord[j]].rd);
		}
		xgrow(&o, &cap, no + 1, sizeof *o);
		o[no].name = INS[ord[i]].op->name;
		o[no].seq = INS[ord[i]].seq;
		o[no].count = (double)(j - i);
		o[no].ld = a.s / (double)(j - i);
		o[no++].rd = b.s / (double)(j - i);
	}
	free(ord);
	free(INS);
	(void)k;
	(void)key;
done:
	free(A);
	free(L);
	free(G);
	free(opof);
	*out = o;
	*nout = no;
	return ret;
}

void
hta_aten(void)
{
	struct arow **o = xcalloc(hta_nrk + 1, sizeof *o);
	size_t *n = xcalloc(hta_nrk + 1, sizeof *n), i, j, *p;
	const char *why = NULL;
	char name[96];
	double *key;

	for (i = 0; i < hta_nrk; i++)
		if (rank1(&hta_rk[i], &o[i], &n[i], &why) != 0) {
			tl_warnx("aten_op_kernels_and_delay: rank %" PRId64
			    ": %s: not written", hta_rk[i].rank, why);
			goto done;
		}
	for (i = 0; i < hta_nrk; i++) {
		struct csv *c;

		key = xreallocarray(NULL, n[i] + 1, sizeof *key);
		p = xreallocarray(NULL, n[i] + 1, sizeof *p);
		for (j = 0; j < n[i]; j++)
			key[j] = o[i][j].count;
		tl_nargsort_desc(key, n[i], p);
		snprintf(name, sizeof name, "aten_op_kernels_and_delay_rank%"
		    PRId64 ".csv", hta_rk[i].rank);
		c = csv_open(name);
		csv_hdr(c, ",aten_op_name,kernel_sequence,occurrence_count,"
		    "avg_aten_op_launch_delay,avg_runtime_delay");
		for (j = 0; j < n[i]; j++) {
			const struct arow *a = &o[i][p[j]];

			csv_i(c, (int64_t)p[j]);
			csv_id(c, a->name);
			csv_id(c, a->seq);
			csv_i(c, (int64_t)a->count);
			csv_f(c, hta_round(a->ld, 3));
			csv_f(c, hta_round(a->rd, 3));
			csv_end(c);
		}
		csv_close(c);
		free(key);
		free(p);
	}
done:
	free(REC);
	REC = NULL;
	nr = caprec = 0;
	for (i = 0; i < hta_nrk; i++)
		free(o[i]);
	free(o);
	free(n);
}
