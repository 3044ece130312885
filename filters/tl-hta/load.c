/*
 * tl-hta: HTA's loading rules over the rows of a tree stream. Each trace
 * of the stream is a rank; its kept events become rows of 88 bytes
 * (struct row) and nothing else of the trace is held. Then, over all
 * ranks: the µs rounding of nanosecond traces, the links by
 * args.correlation, the iteration of each row, the alignment to the
 * earliest start, and the profiler-step window (tl-hta(1) LOADING).
 */
#define _GNU_SOURCE		/* memmem */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "../../common/trace.h"
#include "hta.h"

struct tl_intern *hta_str;
struct rank *hta_rk;
size_t hta_nrk;
int64_t hta_mints;
static uint16_t *ni;
static size_t nni;

static int
is(const char *s, size_t n, const char *p)
{
	return n == strlen(p) && memcmp(s, p, n) == 0;
}

/* hta_ni's way for a name not seen before (out of line: the way of a
 * name seen before stays short). */
static unsigned __attribute__((noinline))
newni(uint32_t name)
{
	static const char *const stats[] = { "cudaLaunchKernel",
	    "cudaLaunchKernelExC",
	    "runFunction - job_prep_and_submit_for_execution",
	    "cudaMemsetAsync", "cudaMemcpyAsync", NULL };
	static const char *const queue[] = { "cudaLaunchKernel",
	    "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
	    "cudaMemcpyAsync", "cudaMemsetAsync", "hipLaunchKernel",
	    "hipExtModuleLaunchKernel", "hipMemcpyAsync", "hipMemsetAsync",
	    "hipMemcpyWithStream",
	    "runFunction - job_prep_and_submit_for_execution", NULL };
	static const char *const mem[] = { "Memcpy", "Memset", "hipMemcpy",
	    "hipMemset", "dma", NULL };
	unsigned v;
	size_t n, i;
	const char *s;

	if (name >= nni) {
		size_t old = nni;

		nni = (size_t)name + 1024;
		ni = xreallocarray(ni, nni, sizeof *ni);
		memset(ni + old, 0, (nni - old) * sizeof *ni);
	}
	s = tl_intern_str(hta_str, name, &n);
	v = NI_KNOWN | (unsigned)hta_ktype(s, n) << 1;
	for (i = 0; stats[i] != NULL; i++)
		if (is(s, n, stats[i]))
			v |= NI_STATS;
	for (i = 0; queue[i] != NULL; i++)
		if (is(s, n, queue[i]))
			v |= NI_QUEUE;
	if (is(s, n, "Event Sync") || is(s, n, "Context Sync"))
		v |= NI_SYNC;
	if (n > 13 && memcmp(s, "ProfilerStep#", 13) == 0 && s[13] >= '0' &&
	    s[13] <= '9')
		v |= NI_STEP;
	if (n >= 12 && memcmp(s, "ProfilerStep", 12) == 0)
		v |= NI_PSTEP;
	for (i = 0; mem[i] != NULL; i++)
		if (n >= strlen(mem[i]) && memcmp(s, mem[i],
		    strlen(mem[i])) == 0)
			v |= NI_MEMNAME;
	ni[name] = (uint16_t)v;
	return v;
}

unsigned
hta_ni(uint32_t name)
{
	if (name < nni && (ni[name] & NI_KNOWN))
		return ni[name];
	return newni(name);
}

/* What is read of an event before the rounding rule is known. */
struct raw {
	int64_t index, ts, dur, stream, corr, ext;
	double bw;
	uint32_t cat, name, pid, tid;
};

const char *
hta_s(uint32_t id, size_t *n)
{
	return tl_intern_str(hta_str, id, n);
}

static int
named(uint32_t id, const char *p)
{
	size_t n;
	const char *s = hta_s(id, &n);

	return n == strlen(p) && memcmp(s, p, n) == 0;
}

/* ^ProfilerStep#\d+ */
static int
isstep(uint32_t id)
{
	return (hta_ni(id) & NI_STEP) != 0;
}

/* The number of ProfilerStep\s*#\s*(\d+), or NOITER. */
static int64_t
stepnum(uint32_t id)
{
	size_t n, i = 12;
	const char *s = hta_s(id, &n);
	int64_t v = 0;

	if (n < 12 || memcmp(s, "ProfilerStep", 12) != 0)
		return NOITER;
	while (i < n && strchr(" \t\n\r\f\v", s[i]) != NULL)
		i++;
	if (i == n || s[i] != '#')
		return NOITER;
	for (i++; i < n && strchr(" \t\n\r\f\v", s[i]) != NULL; i++)
		;
	if (i == n || s[i] < '0' || s[i] > '9')
		return NOITER;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* GPU side of the correlation join (GPUKernelFilter). */
static int
gpuside(const struct row *r)
{
	return (r->stream >= 0 && r->corr >= 0) ||
	    (hta_ni(r->name) & NI_SYNC);
}

static int64_t
num(struct tl_trace *tr, int c, int64_t dflt)
{
	size_t n;
	const char *s = tl_trace_raw(tr, c, &n);
	int64_t v = 0;
	size_t i = 0;
	int neg = 0;

	if (s == NULL)
		return dflt;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (n <= 8 && (size_t)(tr->t->end - s) >= 8) {
		/* eight bytes at once, as tl_tsv_i64 reads them */
		uint64_t w, u;
		unsigned sh = 8 * (8 - (unsigned)n);

		memcpy(&w, s, 8);
		w = w << sh | (0x3030303030303030u & (((uint64_t)1 << sh) - 1));
		if (tl_digits8(w, &u))
			return (int64_t)u;
		if (s[0] != '-')
			return dflt;
	}
#endif
	if (s[0] == '-') {
		neg = 1;
		i = 1;
	}
	if (i == n || n - i > 18)
		return dflt;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return dflt;
		v = v * 10 + (s[i] - '0');
	}
	return neg ? -v : v;
}

static double
bandwidth(struct tl_trace *tr)
{
	static const char key[] = "\"memory bandwidth (GB/s)\":";
	size_t n;
	const char *s = tl_trace_raw(tr, TL_C_ARGS, &n);
	const char *p;
	char buf[64];
	size_t k;

	if (s == NULL || n < sizeof key)
		return 0;
	p = memmem(s, n, key, sizeof key - 1);
	if (p == NULL)
		return 0;
	p += sizeof key - 1;
	for (k = 0; k < sizeof buf - 1 && p + k < s + n &&
	    strchr("0123456789+-.eE", p[k]) != NULL; k++)
		buf[k] = p[k];
	buf[k] = '\0';
	return k > 0 ? strtod(buf, NULL) : 0;
}

/* An integer after key in the args JSON, or dflt. */
static int64_t
argint(const char *s, size_t n, const char *key, int64_t dflt)
{
	const char *p = memmem(s, n, key, strlen(key)), *e = s + n;
	int64_t v = 0;
	int neg = 0;

	if (p == NULL)
		return dflt;
	p += strlen(key);
	if (p < e && *p == '-') {
		neg = 1;
		p++;
	}
	if (p == e || *p < '0' || *p > '9')
		return dflt;
	for (; p < e && *p >= '0' && *p <= '9' && v < INT64_MAX / 10; p++)
		v = v * 10 + (*p - '0');
	return neg ? -v : v;
}

/* The wait_on_ args of a sync event, kept aside: few events have them. */
static void
waitarg(struct tl_trace *tr, struct rank *rk, int64_t index)
{
	static const char key[] = "\"wait_on_cuda_event_record_corr_id\":";
	size_t n;
	const char *s = tl_trace_raw(tr, TL_C_ARGS, &n);
	static size_t cap;

	if (s == NULL || memmem(s, n, key, sizeof key - 1) == NULL)
		return;
	if (rk->nw == 0)
		cap = 0;
	xgrow(&rk->w, &cap, rk->nw + 1, sizeof *rk->w);
	rk->w[rk->nw].index = index;
	rk->w[rk->nw].corr = argint(s, n, key, -1);
	rk->w[rk->nw++].stream = argint(s, n, "\"wait_on_stream\":", -1);
}

const struct wait *
hta_wait(const struct rank *rk, int64_t index)
{
	size_t lo = 0, hi = rk->nw;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (rk->w[m].index < index)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < rk->nw && rk->w[lo].index == index ? &rk->w[lo] : NULL;
}

/*
 * Whether the lean analyses (hta_o.lean) never read row r: a CPU row
 * without a correlation, which no join reaches, nor the step window,
 * nor the lookup of index 0 (index_correlation 0, of an unlinked row).
 */
static int
unread(const struct row *r)
{
	return r->stream == -1 && r->corr == -1 && r->index != 0 &&
	    !(hta_ni(r->name) & (NI_PSTEP | NI_MEMNAME));
}

/* A launch or a sync without a correlation joins the rows that have
 * none (the launch statistics, the window's copies): keep them all. */
static int
poisoned(const struct row *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].corr == -1 &&
		    (hta_ni(v[i].name) & (NI_STATS | NI_SYNC)))
			return 1;
	return 0;
}

/* One trace of the stream into a rank: its rows (ts and dur in ns
 * until the rounding rule is known, spec 1.3); lean: without the rows
 * that unread says are not read. */
static void
readtrace(struct tl_trace *tr, struct rank *rk, int lean)
{
	struct row *v = NULL, *o;
	size_t nv = 0, cap = 0, n, i, k;
	const char *s;
	int r, frac = 0;
	int64_t ts, dur, t0;
	uint32_t trace_cat = tl_intern(hta_str, "Trace", 5);
	uint32_t prof_cat = tl_intern(hta_str, "cuda_profiler_range", 19);
	uint32_t esync = tl_intern(hta_str, "Event Sync", 10);
	uint32_t swait = tl_intern(hta_str, "Stream Wait Event", 17);
	/* cat, pid and tid come in runs: their last ids are tried first */
	struct tl_intern_last lcat = TL_INTERN_LAST, lpid = TL_INTERN_LAST,
	    ltid = TL_INTERN_LAST;

	while ((r = tl_trace_row(tr)) != TL_ROW_END) {
		if (r == TL_ROW_FACT) {
			s = tl_trace_raw(tr, TL_C_NAME, &n);
			if (tr->kind == TL_K_TRACE_KEY && s != NULL &&
			    n == 15 && memcmp(s, "distributedInfo", 15) == 0 &&
			    (s = tl_trace_raw(tr, TL_C_ARGS, &n)) != NULL &&
			    memmem(s, n, "mtia:hccl", 9) != NULL)
				rk->mtia = 1;
			if (rk->rank < 0 && tr->col[TL_C_RANK] >= 0)
				rk->rank = num(tr, TL_C_RANK, -1);
			continue;
		}
		if (!tl_trace_i64(tr, TL_C_TS, &ts)) {
			frac = 1;
			continue;
		}
		if (ts % 1000 != 0)
			frac = 1;
		if (!tl_trace_i64(tr, TL_C_DUR, &dur))
			continue;
		t0 = ts;
		if (tl_trace_raw(tr, TL_C_CAT, &n) == NULL)
			continue;
		s = tl_trace_str(tr, TL_C_CAT, &n);
		if (nv == cap) {	/* by a quarter: the table is the memory */
			cap += cap / 4 + 1024;
			v = xreallocarray(v, cap, sizeof *v);
		}
		o = &v[nv];
		o->cat = tl_intern_last(hta_str, &lcat, s, n);
		if (o->cat == trace_cat)
			continue;
		o->index = tl_trace_uid(tr);
		s = tl_trace_str(tr, TL_C_NAME, &n);
		o->name = tl_intern(hta_str, s != NULL ? s : "", n);
		s = tl_trace_str(tr, TL_C_PID, &n);
		o->pid = tl_intern_last(hta_str, &lpid, s != NULL ? s : "", n);
		s = tl_trace_str(tr, TL_C_TID, &n);
		o->tid = tl_intern_last(hta_str, &ltid, s != NULL ? s : "", n);
		o->ts = t0;
		o->dur = (double)dur;	/* exact: below 2^53 ns */
		o->stream = num(tr, TL_C_STREAM, -1);
		o->corr = num(tr, TL_C_CORR, -1);
		o->ext = num(tr, TL_C_EXT, -1);
		/* the args only the analyses read: of the MEMORY-type
		 * names, and of the waits of the critical path */
		o->bw = 0;
		if (hta_ni(o->name) & NI_MEM)
			o->bw = bandwidth(tr);
		if (o->cat == prof_cat) {
			size_t an;
			const char *a = tl_trace_raw(tr, TL_C_ARGS, &an);

			rk->prof = xreallocarray(rk->prof, rk->nprof + 1,
			    sizeof *rk->prof);
			rk->prof[rk->nprof].index = o->index;
			rk->prof[rk->nprof++].args = xmemdup(a != NULL ? a :
			    "{}", a != NULL ? an : 2);
		}
		if (o->name == esync || o->name == swait)
			waitarg(tr, rk, o->index);
		o->ic = o->corr < 0 ? o->corr : 0;
		o->iter = NOITER;
		nv++;
	}
	lean = lean && !poisoned(v, nv);
	for (i = 0, k = 0; i < nv; i++) {
		o = &v[i];
		double t = (double)o->ts / 1000, d = o->dur / 1000;

		if (frac) {
			double e = floor(t + d);

			o->ts = (int64_t)ceil(t);
			o->dur = e - (double)o->ts;
		} else {
			o->ts /= 1000;
			o->dur = d;
		}
		if (lean && unread(o)) {
			if (o->ts < rk->dmin)
				rk->dmin = o->ts;
			rk->dropped++;
		} else
			v[k++] = *o;
	}
	rk->r = xreallocarray(v, k + 1, sizeof *v);
	rk->n = k;
}

/* A hash of correlation -> the last CPU and GPU row of it. */
struct slot {
	int64_t corr;
	int32_t cpu, gpu;	/* row numbers, -1 (a rank has < 2^31) */
};

static struct slot *
slotof(struct slot *h, size_t mask, int64_t corr)
{
	size_t i = tl_hash64((uint64_t)corr) & mask;

	while (h[i].corr != INT64_MIN && h[i].corr != corr)
		i = (i + 1) & mask;
	if (h[i].corr == INT64_MIN) {
		h[i].corr = corr;
		h[i].cpu = h[i].gpu = -1;
	}
	return &h[i];
}

static size_t
hashsize(size_t n)
{
	size_t m = 16;

	while (m < n + n / 2 + 2)
		m <<= 1;
	return m;
}

static struct slot *
newhash(size_t n, size_t *mask)
{
	size_t m = hashsize(n), i;
	struct slot *h = xreallocarray(NULL, m, sizeof *h);

	for (i = 0; i < m; i++)
		h[i].corr = INT64_MIN;
	*mask = m - 1;
	return h;
}

/*
 * Spec 1.6: index_correlation, the last pair of the join winning; and
 * lrow[i], the row that row i's index_correlation names (UINT32_MAX for
 * none), so that iterations need not look it up.
 */
static void
link(struct rank *rk, uint32_t *lrow)
{
	size_t mask, i, nc = 0;
	struct slot *h, *s;

	for (i = 0; i < rk->n; i++)
		nc += rk->r[i].corr != -1;
	h = newhash(nc, &mask);

	for (i = 0; i < rk->n; i++) {
		struct row *r = &rk->r[i];

		if (r->corr == -1)
			continue;
		s = slotof(h, mask, r->corr);
		if (gpuside(r))
			s->gpu = (int32_t)i;
		else
			s->cpu = (int32_t)i;
	}
	for (i = 0; i < rk->n; i++) {
		struct row *r = &rk->r[i];

		lrow[i] = UINT32_MAX;
		if (r->corr == -1)
			continue;
		s = slotof(h, mask, r->corr);
		if (s->cpu < 0 || s->gpu < 0)
			continue;
		lrow[i] = (uint32_t)(gpuside(r) ? s->cpu : s->gpu);
		r->ic = rk->r[lrow[i]].index;
	}
	free(h);
}

struct step {
	int64_t ts;
	double end, maxend;	/* maxend: of steps[0..i] */
	size_t row;
	int64_t num;
};

static int
cmpstep(const void *a, const void *b)
{
	const struct step *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* Spec 1.7, on the unaligned ts; lrow as link made it. */
static void
iterations(struct rank *rk, const uint32_t *lrow)
{
	struct step *st = NULL;
	size_t ns = 0, cap = 0, i, lo, hi;
	uint32_t cpu_op = tl_intern(hta_str, "cpu_op", 6);

	for (i = 0; i < rk->n; i++)
		if (hta_ni(rk->r[i].name) & NI_PSTEP) {
			xgrow(&st, &cap, ns + 1, sizeof *st);
			st[ns].ts = rk->r[i].ts;
			st[ns].end = ENDRAW(&rk->r[i]);
			st[ns].row = i;
			st[ns].num = stepnum(rk->r[i].name);
			ns++;
		}
	if (ns > 0)
		qsort(st, ns, sizeof *st, cmpstep);
	for (i = 0; i < ns; i++)
		st[i].maxend = i > 0 && st[i - 1].maxend > st[i].end ?
		    st[i - 1].maxend : st[i].end;
	for (i = 0; i < rk->n; i++) {
		struct row *r = &rk->r[i];
		size_t best = SIZE_MAX, k;

		if (!(r->stream < 0 || (r->stream == 0 && r->cat == cpu_op)))
			continue;
		r->iter = -1;
		lo = 0;
		hi = ns;
		while (lo < hi) {	/* the steps with ts <= r->ts */
			size_t m = lo + (hi - lo) / 2;

			if (st[m].ts <= r->ts)
				lo = m + 1;
			else
				hi = m;
		}
		for (k = lo; k-- > 0 && st[k].maxend > (double)r->ts;)
			if ((double)r->ts < st[k].end &&
			    (best == SIZE_MAX || st[k].row > st[best].row))
				best = k;
		if (best != SIZE_MAX)
			r->iter = st[best].num == NOITER ? -1 :
			    (int32_t)st[best].num;
	}
	for (i = 0; i < rk->n; i++) {
		struct row *r = &rk->r[i], *l;

		if (r->stream <= 0)
			continue;
		r->iter = -1;
		if (r->ic > 0 && lrow[i] != UINT32_MAX) {
			l = &rk->r[lrow[i]];
			r->iter = l->iter;
		}
	}
	free(st);
}

/*
 * Spec 1.12, non-MTIA: the CPU rows before the last step, the GPU rows
 * of their correlations, one copy per CPU row. In place when no GPU row
 * is repeated (the kept CPU rows copied aside meanwhile), so that the
 * peak is the table and its CPU part, not two tables.
 */
static void
window(struct rank *rk)
{
	size_t mask, i, k, nk = 0, no = 0, ng = 0, copies = 0;
	struct slot *h;
	struct row *o, *cpu;
	int64_t last = INT64_MIN;
	double lastend = -INFINITY;
	char *keep = xcalloc(rk->n + 1, 1);

	for (i = 0; i < rk->n; i++)
		if (!gpuside(&rk->r[i]) && isstep(rk->r[i].name)) {
			if (rk->r[i].ts > last)
				last = rk->r[i].ts;
			if (ENDRAW(&rk->r[i]) > lastend)
				lastend = ENDRAW(&rk->r[i]);
		}
	for (i = 0; i < rk->n; i++) {
		const struct row *r = &rk->r[i];

		if (gpuside(r) || last == INT64_MIN)
			continue;
		if (hta_o.include_last ? (double)r->ts <= lastend :
		    r->ts < last) {
			keep[i] = 1;
			nk++;
		}
	}
	/* the kept CPU rows of each correlation: s->cpu counts them (the
	 * GPU rows' lookups add theirs: room for every row) */
	h = newhash(rk->n, &mask);
	for (i = 0; i < rk->n; i++)
		if (keep[i]) {
			struct slot *s = slotof(h, mask, rk->r[i].corr);

			s->cpu = s->cpu < 0 ? 1 : s->cpu + 1;
		}
	for (i = 0; i < rk->n; i++) {
		struct slot *s;

		if (!gpuside(&rk->r[i]))
			continue;
		s = slotof(h, mask, rk->r[i].corr);
		if (s->cpu > 0) {
			keep[i] = 2;
			ng++;
			copies += (size_t)s->cpu;
		}
	}
	cpu = xreallocarray(NULL, nk + 1, sizeof *cpu);
	for (i = 0, k = 0; i < rk->n; i++)
		if (keep[i] == 1)
			cpu[k++] = rk->r[i];
	if (copies == ng) {
		for (i = 0; i < rk->n; i++)	/* no ≤ i: in place */
			if (keep[i] == 2)
				rk->r[no++] = rk->r[i];
		o = xreallocarray(rk->r, no + nk + 1, sizeof *o);
	} else {
		o = xreallocarray(NULL, copies + nk + 1, sizeof *o);
		for (i = 0; i < rk->n; i++)
			if (keep[i] == 2)
				for (k = (size_t)slotof(h, mask,
				    rk->r[i].corr)->cpu; k > 0; k--)
					o[no++] = rk->r[i];
		free(rk->r);
	}
	memcpy(o + no, cpu, nk * sizeof *o);
	rk->r = o;
	rk->n = no + nk;
	free(cpu);
	free(keep);
	free(h);
}

/* ^(.+)_runtime somewhere: a CPU category of the MTIA window. */
static int
mtiacpu(uint32_t cat)
{
	size_t n;
	const char *s = hta_s(cat, &n), *p;

	if (named(cat, "cpu_op") || named(cat, "user_annotation"))
		return 1;
	for (p = s + 1; p + 8 <= s + n; p++)
		if (memcmp(p, "_runtime", 8) == 0)
			return 1;
	return 0;
}

static int
mtiakernel(uint32_t cat)
{
	size_t n;
	const char *s = hta_s(cat, &n);

	return memmem(s, n, "kernel", 6) != NULL ||
	    (n > 7 && memmem(s, n - 1, "gpu_mem", 7) != NULL) ||
	    memmem(s, n, "mtia_ccp_events", 15) != NULL;
}

static int
memname(uint32_t name)
{
	return (hta_ni(name) & NI_MEMNAME) != 0;
}

/* Spec 1.12, MTIA: a real window [first step start, last step end];
 * the rows kept in index order. */
static void
mtiawindow(struct rank *rk)
{
	size_t mask, i, no = 0;
	int64_t t0 = INT64_MAX;
	double t1 = -INFINITY;
	struct slot *h = newhash(rk->n, &mask);
	char *keep = xcalloc(rk->n + 1, 1);
	struct row *o;

	for (i = 0; i < rk->n; i++) {
		const struct row *r = &rk->r[i];

		if (mtiacpu(r->cat) && isstep(r->name)) {
			if (r->ts < t0)
				t0 = r->ts;
			if (ENDRAW(r) > t1)
				t1 = ENDRAW(r);
		}
	}
	for (i = 0; i < rk->n; i++) {
		const struct row *r = &rk->r[i];

		if (mtiacpu(r->cat) && r->ts >= t0 && ENDRAW(r) <= t1) {
			keep[i] = 1;
			if (r->corr != -1)
				slotof(h, mask, r->corr)->cpu = 1;
		}
	}
	for (i = 0; i < rk->n; i++) {
		struct row *r = &rk->r[i];
		size_t k;

		if (keep[i])
			continue;
		if (mtiakernel(r->cat) && r->corr != -1 &&
		    slotof(h, mask, r->corr)->cpu == 1)
			keep[i] = 1;
		if (!memname(r->name))
			continue;
		for (k = 0; k < rk->n; k++) {
			const struct row *s = &rk->r[k];

			if (isstep(s->name) && mtiacpu(s->cat) &&
			    r->ts >= s->ts && (double)r->ts <=
			    (double)s->ts + s->dur) {
				keep[i] = 1;
				if (r->iter == -1 || r->iter == NOITER)
					r->iter = (int32_t)stepnum(s->name);
				if (r->stream == -1)
					r->stream = strtoll(hta_s(r->tid,
					    &no), NULL, 10);
				no = 0;
				break;
			}
		}
	}
	o = xreallocarray(NULL, rk->n + 1, sizeof *o);
	for (i = 0, no = 0; i < rk->n; i++)
		if (keep[i])
			o[no++] = rk->r[i];
	free(rk->r);
	rk->r = o;
	rk->n = no;
	free(keep);
	free(h);
}

static int
cmprank(const void *a, const void *b)
{
	const struct rank *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

void
hta_load(int nops, char *const *ops, int want,
    int64_t (*rankof)(const char *), int full)
{
	struct tl_trace *tr;
	uint64_t use = TL_COL(TL_C_PID) | TL_COL(TL_C_TID) |
	    TL_COL(TL_C_TS) | TL_COL(TL_C_DUR) | TL_COL(TL_C_STREAM) |
	    TL_COL(TL_C_CORR) | TL_COL(TL_C_EXT) | TL_COL(TL_C_ARGS) |
	    TL_COL(TL_C_RANK);
	size_t cap = 0, i, j, p = 0;
	int64_t mints = INT64_MAX;
	uint32_t *seen = NULL;
	size_t nseen = 0, capseen = 0;

	if (hta_str == NULL)
		hta_str = tl_intern_new();
	hta_rk = NULL;
	hta_nrk = 0;
	tr = tl_trace_open(nops, ops, want, TL_COL(TL_C_TS) |
	    TL_COL(TL_C_DUR), use);
	while (tl_trace_next(tr)) {
		struct rank rk;

		memset(&rk, 0, sizeof rk);
		rk.rank = -1;
		rk.dmin = INT64_MAX;
		readtrace(tr, &rk, full && hta_o.lean);
		rk.file = xstrdup(tr->name);
		if (rankof != NULL && rankof(rk.file) >= 0)
			rk.rank = rankof(rk.file);
		if (rk.rank < 0)
			rk.rank = 0;
		if (rk.n + rk.dropped >= INT32_MAX)
			tl_errx(1, "%s: %zu events: more than a rank can hold",
			    rk.file, rk.n + rk.dropped);
		if (rk.n + rk.dropped == 0) {
			tl_warnx("%s: no analyzable events: left out",
			    rk.file);
			free(rk.r);
			free(rk.file);
			continue;
		}
		for (i = 0; i < hta_nrk; i++)
			if (hta_rk[i].rank == rk.rank)
				break;
		if (i < hta_nrk) {
			tl_warnx("%s: rank %" PRId64 " again: it replaces "
			    "%s", rk.file, rk.rank, hta_rk[i].file);
			free(hta_rk[i].r);
			free(hta_rk[i].file);
			hta_rk[i] = rk;
			continue;
		}
		xgrow(&hta_rk, &cap, hta_nrk + 1, sizeof *hta_rk);
		hta_rk[hta_nrk++] = rk;
	}
	if (tr->status != 0)
		tl_exit(tr->status);
	tl_trace_close(tr);
	if (hta_nrk == 0)
		tl_errx(1, "no trace with analyzable events");
	qsort(hta_rk, hta_nrk, sizeof *hta_rk, cmprank);
	for (i = 0; i < hta_nrk; i++) {
		uint32_t *lrow = xreallocarray(NULL, hta_rk[i].n + 1,
		    sizeof *lrow);

		link(&hta_rk[i], lrow);
		iterations(&hta_rk[i], lrow);
		free(lrow);
		if (hta_rk[i].dmin < mints)
			mints = hta_rk[i].dmin;
		for (j = 0; j < hta_rk[i].n; j++) {
			struct row *r = &hta_rk[i].r[j];

			if (r->ts < mints)
				mints = r->ts;
			if (isstep(r->name)) {
				size_t k;

				for (k = 0; k < nseen && seen[k] != r->name;
				    k++)
					;
				if (k == nseen) {
					xgrow(&seen, &capseen, nseen + 1,
					    sizeof *seen);
					seen[nseen++] = r->name;
					p++;
				}
			}
		}
	}
	free(seen);
	if (!full)	/* trace diff: no alignment, no window */
		return;
	for (i = 0; i < hta_nrk; i++)
		for (j = 0; j < hta_rk[i].n; j++)
			hta_rk[i].r[j].ts -= mints;
	hta_mints = mints;
	if (p == 0)
		tl_warnx("ProfilerStep not found: no step window");
	else if (p == 1)
		tl_warnx("only one iteration (one ProfilerStep): no step "
		    "window");
	else
		for (i = 0; i < hta_nrk; i++) {
			if (hta_rk[0].mtia)
				mtiawindow(&hta_rk[i]);
			else
				window(&hta_rk[i]);
		}
}

/* The number of a ProfilerStep name, or NOITER (for trace diff). */
int64_t
hta_stepnum(uint32_t name)
{
	return stepnum(name);
}

void
hta_free(void)
{
	size_t i;

	for (i = 0; i < hta_nrk; i++) {
		free(hta_rk[i].r);
		free(hta_rk[i].file);
		free(hta_rk[i].gpu);
	}
	free(hta_rk);
	hta_rk = NULL;
	hta_nrk = 0;
}
