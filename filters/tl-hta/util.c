/*
 * tl-hta: the arithmetic and the orders of numpy and pandas that HTA's
 * numbers depend on (numpy's introsort argsort, the "quicksort" of
 * sort_values, is tl_argsort of common/npsort.c): np.round, describe();
 * HTA's kernel types; and the CSV files as pandas writes them.
 */
#define _GNU_SOURCE		/* memmem */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/csv.h"
#include "../../common/err.h"
#include "../../common/file.h"
#include "../../common/mem.h"
#include "../../common/npsort.h"
#include "../../common/pyfmt.h"
#include "../../common/stats.h"
#include "hta.h"

/* A stable merge sort of perm[0..n) by cmp. */
static int (*stcmp)(size_t, size_t);

static void
msort(size_t *a, size_t *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	msort(a, tmp, h);
	msort(a + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = stcmp(a[j], a[i]) < 0 ? a[j++] : a[i++];
	while (i < h)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof *a);
}

void
hta_stable(size_t *perm, size_t n, int (*cmp)(size_t, size_t))
{
	size_t *tmp = xreallocarray(NULL, n + 1, sizeof *tmp);

	stcmp = cmp;
	msort(perm, tmp, n);
	free(tmp);
}

/* np.round(x, d): rint(x * 10^d) / 10^d. */
double
hta_round(double x, int d)
{
	double p = pow(10, d);

	return nearbyint(x * p) / p;
}

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
lerp(double a, double b, double t)
{
	double d = b - a;

	return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

/* Series.describe(): count mean std min 25% 50% 75% max, NaN left out. */
void
hta_describe(const double *v, size_t n, double out[8])
{
	double *a = xreallocarray(NULL, n + 1, sizeof *a), *d, mean;
	size_t k = 0, i, q;
	static const double qs[3] = { 0.25, 0.5, 0.75 };

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			a[k++] = v[i];
	out[0] = (double)k;
	for (i = 1; i < 8; i++)
		out[i] = NAN;
	if (k == 0) {
		free(a);
		return;
	}
	mean = tl_np_sum(a, k) / (double)k;
	out[1] = mean;
	if (k > 1) {
		d = xreallocarray(NULL, k, sizeof *d);
		for (i = 0; i < k; i++)
			d[i] = (a[i] - mean) * (a[i] - mean);
		out[2] = sqrt(tl_np_sum(d, k) / (double)(k - 1));
		free(d);
	}
	qsort(a, k, sizeof *a, cmpd);
	out[3] = a[0];
	out[7] = a[k - 1];
	for (q = 0; q < 3; q++) {
		double pos = (double)(k - 1) * qs[q], lo = floor(pos);
		size_t l = (size_t)lo, h = l + 1 < k ? l + 1 : l;

		out[4 + q] = lerp(a[l], a[h], pos - lo);
	}
	free(a);
}

static int
starts(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);

	return n >= k && memcmp(s, p, k) == 0;
}

static int
has(const char *s, size_t n, const char *p)
{
	return memmem(s, n, p, strlen(p)) != NULL;
}

/* HTA's get_kernel_type (spec 2.2). A regex's . stops at a newline. */
int
hta_ktype(const char *s, size_t n)
{
	const char *nl = memchr(s, '\n', n);
	size_t l1 = nl != NULL ? (size_t)(nl - s) : n;	/* first line */
	const char *lk;

	if (starts(s, n, "nccl") || starts(s, n, "hip") ||
	    starts(s, n, "hccl") || has(s, l1, "ncclKernel"))
		return KT_COMM;
	if (starts(s, n, "Memcpy") || starts(s, n, "Memset") ||
	    starts(s, n, "hipMemcpy") || starts(s, n, "hipMemset") ||
	    starts(s, n, "dma"))
		return KT_MEM;
	lk = starts(s, n, "cuda") ? memmem(s, l1, "LaunchKernel", 12) : NULL;
	if (starts(s, n, "nccl") || has(s, l1, "Memcpy") ||
	    has(s, l1, "Memset") || has(s, l1, "dma") ||
	    has(s, l1, "Sync") || starts(s, n, "Stream Wait Event") ||
	    lk != NULL || starts(s, n, "runFunction") ||
	    starts(s, n, "hip") || starts(s, n, "job_exe") ||
	    starts(s, n, "packet") || starts(s, n, "pe_exe") ||
	    starts(s, n, "cpum_exe_subgraph") || starts(s, n, "hccl") ||
	    starts(s, n, "collective_subgraph_execution"))
		return KT_OTHER;
	return KT_COMP;
}

struct csv {
	struct tl_file f;
	int nf;
};

char **hta_written;	/* the CSV files written, for the workbook */
size_t hta_nwritten;

struct csv *
csv_open(const char *name)
{
	struct csv *c = xcalloc(1, sizeof *c);
	static size_t cap;

	xgrow(&hta_written, &cap, hta_nwritten + 1, sizeof *hta_written);
	hta_written[hta_nwritten++] = tl_path(hta_o.outdir, name);
	if (tl_file_open(&c->f, hta_o.outdir, name) != 0)
		tl_exit(1);
	return c;
}

void
csv_close(struct csv *c)
{
	if (tl_file_close(&c->f) != 0)
		tl_exit(1);
	free(c);
}

/*
 * A file opened here that another process (a fork) writes and closes:
 * this process lets go of its descriptor. The record stays, as the list
 * of open files has it.
 */
void
csv_handed(struct csv *c)
{
	close(c->f.out.fd);
	c->f.out.fd = -1;
}

static void
sep(struct csv *c)
{
	if (c->nf++ > 0)
		tl_out_char(&c->f.out, ',');
}

void
csv_s(struct csv *c, const char *s, size_t n)
{
	sep(c);
	tl_out_csvfield(&c->f.out, s, n);
}

/*
 * A name as a CSV field: most need no quotes, which is known once per
 * name (plain[id]: 1 as it is, 2 through tl_out_csvfield, 0 not yet).
 */
void
csv_id(struct csv *c, uint32_t id)
{
	static unsigned char *plain;
	static size_t nplain;
	size_t n;
	const char *s = hta_s(id, &n);

	if (id >= nplain) {
		size_t old = nplain;

		nplain = (size_t)id + 1024;
		plain = xrealloc(plain, nplain);
		memset(plain + old, 0, nplain - old);
	}
	if (plain[id] == 0) {
		struct tl_out o;

		tl_out_init(&o, -1, "memory");
		tl_out_csvfield(&o, s, n);
		plain[id] = o.n == n && (n == 0 || memcmp(o.buf, s, n) == 0) ?
		    1 : 2;
		free(o.buf);
	}
	sep(c);
	if (plain[id] == 1)
		tl_out_raw(&c->f.out, s, n);
	else
		tl_out_csvfield(&c->f.out, s, n);
}

void
csv_i(struct csv *c, int64_t v)
{
	sep(c);
	tl_out_i64(&c->f.out, v);
}

void
csv_f(struct csv *c, double v)
{
	sep(c);
	if (!isnan(v))
		tl_out_pyfloat(&c->f.out, v);
}

void
csv_num(struct csv *c, double v)
{
	if (v == floor(v) && fabs(v) < 9e15)
		csv_i(c, (int64_t)v);
	else
		csv_f(c, v);
}

void
csv_end(struct csv *c)
{
	tl_out_char(&c->f.out, '\n');
	c->nf = 0;
}

void
csv_hdr(struct csv *c, const char *line)
{
	tl_out_raw(&c->f.out, line, strlen(line));
	tl_out_char(&c->f.out, '\n');
	c->nf = 0;
}
