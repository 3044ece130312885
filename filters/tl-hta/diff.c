/*
 * tl-hta: HTA's trace diff (TraceDiff.compare_traces, spec 15): the
 * counts and total durations by name of one iteration of one rank of
 * each side, joined; and the memory timeline (MemoryAnalysis, spec 16)
 * of PyTorch's raw memory-timeline export.
 */
#define _GNU_SOURCE		/* memmem */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/mem.h"
#include "../../common/stats.h"
#include "hta.h"
#include "memtl.h"

/* shorten_name (spec 2.3), interned. */
uint32_t
hta_short(uint32_t name)
{
	size_t n, i, k = 0, a, b;
	const char *s = hta_s(name, &n);
	char *st;
	uint32_t id;

	if (hta_ktype(s, n) == KT_MEM || (memchr(s, '<', n) == NULL &&
	    memchr(s, '(', n) == NULL))
		return name;
	st = xmalloc(n + 1);
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (c == '-' && i + 1 < n && s[i + 1] == '>') {
			i++;
			continue;
		}
		if (c == '>' || c == ')') {
			char open = c == '>' ? '<' : '(';

			while (k > 0 && st[k - 1] != open)
				k--;
			if (k > 0)
				k--;
		} else
			st[k++] = c;
	}
	/* the last piece after a space */
	for (a = k; a > 0 && st[a - 1] != ' '; a--)
		;
	b = k;
	id = tl_intern(hta_str, st + a, b - a);
	free(st);
	return id;
}

/* A name of the summary: counts, durations of control (0), test (1). */
struct dname {
	uint32_t name;
	double cnt[2], dur[2];
	int has[2];
};

static struct dname *dn;
static size_t ndn, capdn;

static int
cmpdn(const void *a, const void *b)
{
	size_t n;
	const char *x = hta_s(((const struct dname *)a)->name, &n);
	const char *y = hta_s(((const struct dname *)b)->name, &n);

	return strcmp(x, y);
}

/* dn's index of each name id, checked against dn (stale after a sort
 * until reslot). */
static size_t *slot;
static size_t nslot;

static void
reslot(void)
{
	size_t i;

	for (i = 0; i < ndn; i++)
		slot[dn[i].name] = i;
}

static struct dname *
find(uint32_t name)
{
	size_t i;

	if (name >= nslot) {
		size_t old = nslot;

		nslot = (size_t)name + 1024;
		slot = xreallocarray(slot, nslot, sizeof *slot);
		for (i = old; i < nslot; i++)
			slot[i] = SIZE_MAX;
	}
	if (slot[name] != SIZE_MAX && slot[name] < ndn &&
	    dn[slot[name]].name == name)
		return &dn[slot[name]];
	xgrow(&dn, &capdn, ndn + 1, sizeof *dn);
	memset(&dn[ndn], 0, sizeof *dn);
	dn[ndn].name = name;
	slot[name] = ndn;
	return &dn[ndn++];
}

static const struct rank *
pickrank(const struct side *sd, int64_t want, const char *what)
{
	size_t i;

	if (want < 0)
		return &sd->rk[0];	/* ranks are ascending */
	for (i = 0; i < sd->n; i++)
		if (sd->rk[i].rank == want)
			return &sd->rk[i];
	tl_errx(1, "trace diff: the %s has no rank %" PRId64, what, want);
}

static int64_t
pickiter(const struct side *sd, int64_t want, const char *what)
{
	int64_t best = NOITER, v;
	size_t i, j;

	if (want >= 0)
		return want;
	for (i = 0; i < sd->n; i++)
		for (j = 0; j < sd->rk[i].n; j++) {
			v = hta_stepnum(sd->rk[i].r[j].name);
			if (v != NOITER && (best == NOITER || v < best))
				best = v;
		}
	if (best == NOITER)
		tl_errx(1, "trace diff: the %s has no ProfilerStep: no "
		    "iteration to compare (HTA fails)", what);
	return best;
}

static void
write(const char *file, const char *key, size_t nc)
{
	struct csv *c = csv_open(file);
	size_t i, q;
	int fl[2] = { 0, 0 };

	for (i = 0; i < ndn; i++)
		for (q = 0; q < 2; q++)
			if (!dn[i].has[q])
				fl[q] = 1;
	csv_s(c, key, strlen(key));
	csv_hdr(c, ",control_counts,control_total_duration,test_counts,"
	    "test_total_duration,diff_counts,diff_duration,"
	    "counts_change_categories");
	(void)nc;
	for (i = 0; i < ndn; i++) {
		const struct dname *d = &dn[i];
		double dc = d->cnt[1] - d->cnt[0];

		csv_id(c, d->name);
		for (q = 0; q < 2; q++) {
			if (fl[q])
				csv_f(c, d->cnt[q]);
			else
				csv_i(c, (int64_t)d->cnt[q]);
			csv_f(c, d->dur[q]);
		}
		if (fl[0] || fl[1])
			csv_f(c, dc);
		else
			csv_i(c, (int64_t)dc);
		csv_f(c, d->dur[1] - d->dur[0]);
		csv_s(c, dc > 0 ? "+" : dc < 0 ? "-" : "=", 1);
		csv_end(c);
	}
	csv_close(c);
}

void
hta_diff(const struct side *ctl, const struct side *tst,
    const struct diffopt *o)
{
	static const char *const dev[3] = { "ALL", "CPU", "GPU" };
	const struct rank *rk[2];
	int64_t it[2];
	size_t q, i, nctl;
	int d, sh;
	char file[64];

	rk[0] = pickrank(ctl, o->crank, "control");
	rk[1] = pickrank(tst, o->trank, "test");
	it[0] = pickiter(ctl, o->citer, "control");
	it[1] = pickiter(tst, o->titer, "test");
	for (d = 0; d < 3; d++)
		for (sh = 0; sh < 2; sh++) {
			ndn = 0;
			for (q = 0; q < 2; q++) {
				/* control first: its names, then the test's */
				size_t first = ndn;

				for (i = 0; i < rk[q]->n; i++) {
					const struct row *r = &rk[q]->r[i];
					struct dname *x;

					if (r->iter == NOITER || r->iter != it[q])
						continue;
					if ((d == 1 && r->stream != -1) ||
					    (d == 2 && r->stream == -1))
						continue;
					x = find(sh ? hta_short(r->name) :
					    r->name);
					x->cnt[q] += 1;
					x->dur[q] += r->dur;
					x->has[q] = 1;
				}
				/* control's names sorted, then the names
				 * only in the test, sorted */
				if (ndn > first)
					qsort(dn + first, ndn - first,
					    sizeof *dn, cmpdn);
				reslot();
			}
			nctl = 0;
			for (i = 0; i < ndn; i++)
				nctl += dn[i].has[0];
			snprintf(file, sizeof file, "trace_diff_%s%s.csv",
			    dev[d], sh ? "_short_name" : "");
			write(file, sh ? "short_name" : "name", nctl);
		}
	free(dn);
	dn = NULL;
	ndn = capdn = 0;
}

/* The memory timeline (memtl.c) as memory_timeline.csv. */
static const char *const mcat[8] = { "Parameter", "Optimizer state",
    "Input", "Temporary", "Activation", "Gradient", "Autograd", "Unknown" };

void
hta_memtimeline(const char *path)
{
	struct tl_src *src = tl_src_open(path);
	struct memtl m;
	struct csv *c;
	size_t i, k;

	if (src == NULL || tl_src_next(src) != 1)
		tl_exit(1);
	memtl_read(&m, src, path);
	tl_src_close(src);
	c = csv_open("memory_timeline.csv");
	csv_s(c, "time", 4);
	for (k = 0; k < 8; k++)
		csv_s(c, mcat[k], strlen(mcat[k]));
	csv_end(c);
	for (i = 0; i < m.n; i++) {
		csv_i(c, m.t[i]);
		for (k = 0; k < 8; k++)
			csv_i(c, m.sz[i][k]);
		csv_end(c);
	}
	csv_close(c);
	memtl_free(&m);
}
