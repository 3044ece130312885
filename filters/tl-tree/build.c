/*
 * tl-tree: build the tree of a trace from its records, as TraceLens's
 * Trace2Tree does (the spec's sections): the host events nested per
 * (pid, tid) by time, with their nn.Module stacks; the runtime launches
 * linked to the GPU events they started, and each GPU event's launcher;
 * the kernel busy time of each host node; forward/backward links.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/interval.h"
#include "../../common/limit.h"
#include "../../common/mem.h"
#include "../../common/sort.h"
#include "tree.h"

#define BLEED_NS	1000		/* TraceLens: overlap < 1.0 us */

static struct thr *
thread(struct trace *tr, uint32_t pid, uint32_t tid)
{
	uint64_t h = tl_hash64((uint64_t)pid << 32 | tid);
	struct hslot *s = hfind(&tr->thrtab, h, NULL, NULL);
	struct thr *th;

	if (s->v != 0)
		return &tr->thr[s->v - 1];
	xgrow(&tr->thr, &tr->capthr, tr->nthr + 1, sizeof *th);
	th = &tr->thr[tr->nthr];
	memset(th, 0, sizeof *th);
	th->pid = pid;
	th->tid = tid;
	hset(&tr->thrtab, s, h, (uint32_t)tr->nthr++);
	return th;
}

static void
pop(struct trace *tr, struct thr *th)
{
	if (tr->R[th->st[--th->n]].flags & F_MODULE)
		th->nmod--;
}

static void
push(struct trace *tr, struct thr *th, uint32_t i)
{
	struct mnode *m;
	const char *s;
	size_t n, k;

	if (th->n == th->cap)
		xgrow(&th->st, &th->cap, th->n + 1, sizeof *th->st);
	th->st[th->n++] = i;
	if (!(tr->R[i].flags & F_MODULE))
		return;
	/* The module's name without a trailing _<digits>. */
	s = tl_intern_str(tr->in, tr->rn[i].name, &n);
	for (k = n; k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9'; k--)
		;
	if (k < n && k > 0 && s[k - 1] == '_')
		n = k - 1;
	xgrow(&tr->mnode, &tr->capmnode, tr->nmnode + 1, sizeof *m);
	m = &tr->mnode[tr->nmnode];
	m->s = s;
	m->n = n;
	m->up = th->nmod > 0 ? th->mod[th->nmod - 1] : NONE;
	m->len = m->up != NONE ? tr->mnode[m->up].len + 1 + n : n;
	xgrow(&th->mod, &th->capmod, th->nmod + 1, sizeof *th->mod);
	th->mod[th->nmod++] = (uint32_t)tr->nmnode++;
}

/*
 * A trace of the 2021 generation has its times in whole microseconds, so
 * an op and the first op or launch it calls often start at the same
 * time, and the autograd profiler writes an op after the ops it calls:
 * in file order the caller would end after its callee and be left out of
 * the tree (the bleed rule). Of host events that start at the same time,
 * when one of positive duration comes before a longer one, put them
 * longest first, in file order among equals (and those of zero duration
 * last), so that the longer holds the others as it did in nanoseconds.
 * k[0..n) is sorted by start.
 */
static void
longfirst(const struct rec *R, struct tl_sortkey *k, size_t n)
{
	size_t lo, hi, j;
	int64_t d, min;
	uint64_t t;
	int need;

	for (lo = 0; lo < n; lo = hi) {
		need = 0;
		min = INT64_MAX;
		for (hi = lo; hi < n && k[hi].k == k[lo].k; hi++) {
			d = R[k[hi].i].end - R[k[hi].i].ts;
			if (d > min)
				need = 1;
			if (d > 0 && d < min)
				min = d;
		}
		if (!need)
			continue;
		t = k[lo].k;
		for (j = lo; j < hi; j++)
			k[j].k = ~(uint64_t)(R[k[j].i].end - R[k[j].i].ts);
		tl_key_sort(k + lo, hi - lo);
		for (j = lo; j < hi; j++)
			k[j].k = t;
	}
}

/*
 * -F: times as TraceLens has them, doubles in microseconds (the trace's
 * decimal text read as a double is ts_ns / 1000 rounded, the division
 * being exact to the last bit), and each end their sum.
 */
static double
fts(const struct rec *e)
{
	return (double)e->ts / 1000.0;
}

static double
fend(const struct rec *e)
{
	return (double)e->ts / 1000.0 + (double)(e->end - e->ts) / 1000.0;
}

/* A sort key in the order of the double d. */
static uint64_t
dkey(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof u);
	return (u >> 63) ? ~u : u | UINT64_C(1) << 63;
}

/* A host event's sort key: by start. */
static uint64_t
startkey(const struct rec *e)
{
	return Fflag ? dkey(fts(e)) : (uint64_t)e->ts ^ UINT64_C(1) << 63;
}

static int
intree(const struct rec *e)
{
	return TL_K_ISHOST(e->kind) && !(e->flags & F_NOTS);
}

/*
 * The host events by start in a few runs in file order (a trace's are
 * in order but for a few jumps back, from one thread or kind to the
 * next) are merged, by the head of each run; else sorted by key. The
 * merge takes log2(runs) steps an event, the sort 8 passes: it merges
 * up to 2^8 runs.
 */
#define MAXRUNS	256

/* A run: the key and record of its head, the end of its records. */
struct run {
	uint64_t k;
	uint32_t i, end;
};

/* Whether run a's head comes first: by start, else in file order. */
static int
first(const struct run *a, const struct run *b)
{
	return a->k < b->k || (a->k == b->k && a->i < b->i);
}

static void
siftdown(struct run *h, size_t n, size_t at)
{
	struct run t;
	size_t c;

	for (; (c = 2 * at + 1) < n; at = c) {
		if (c + 1 < n && first(&h[c + 1], &h[c]))
			c++;
		if (!first(&h[c], &h[at]))
			break;
		t = h[c];
		h[c] = h[at];
		h[at] = t;
	}
}

/* Merge the runs h[0..n) into order. */
static void
merge(const struct rec *R, struct run *h, size_t n, uint32_t *order)
{
	size_t j = 0, at;
	uint32_t i;

	for (at = n / 2; at-- > 0;)
		siftdown(h, n, at);
	while (n > 0) {
		order[j++] = h[0].i;
		for (i = h[0].i + 1; i < h[0].end && !intree(&R[i]); i++)
			;
		if (i < h[0].end) {
			h[0].i = i;
			h[0].k = startkey(&R[i]);
		} else
			h[0] = h[--n];
		siftdown(h, n, 0);
	}
}

/* The host events in the tree, by start, stably; *np of them. */
static uint32_t *
bystart(struct trace *tr, size_t *np)
{
	struct rec *R = tr->R;
	struct run run[MAXRUNS];
	struct tl_sortkey *k;
	size_t i, j, nrec = tr->nrec, n = 0, nrun = 0;
	uint32_t *order;
	uint64_t key, last = 0;

	for (i = 0; i < nrec; i++) {
		if (!intree(&R[i]))
			continue;
		n++;
		key = startkey(&R[i]);
		if (nrun == 0 || key < last) {
			if (nrun > 0 && nrun <= MAXRUNS)
				run[nrun - 1].end = (uint32_t)i;
			if (++nrun <= MAXRUNS)
				run[nrun - 1] = (struct run){ key, (uint32_t)i,
				    (uint32_t)nrec };
		}
		last = key;
	}
	*np = n;
	/* the 2021 generation's are sorted: longfirst reorders the keys */
	if (nrun <= MAXRUNS && tr->n2021 == 0) {
		order = xmalloc((n ? n : 1) * sizeof *order);
		merge(R, run, nrun, order);
		return order;
	}
	k = xmalloc((n ? n : 1) * sizeof *k);
	for (i = 0, j = 0; i < nrec; i++)
		if (intree(&R[i])) {
			k[j].k = startkey(&R[i]);
			k[j++].i = (uint32_t)i;
		}
	tl_key_sort(k, n);
	if (tr->n2021 > 0)
		longfirst(R, k, n);
	/* The order in the keys' memory, which it fits in a quarter of. */
	order = (uint32_t *)(void *)k;
	for (j = 0; j < n; j++)
		order[j] = k[j].i;
	return xreallocarray(order, n ? n : 1, sizeof *order);
}

/* Whether e starts at or after the end of top (then top is popped). */
static int
after(const struct rec *e, const struct rec *top)
{
	return Fflag ? fts(e) >= fend(top) : e->ts >= top->end;
}

/* Spec 2.4: nest the host events of each (pid, tid) by time. */
void
hosttree(struct trace *tr)
{
	struct rec *R = tr->R, *e, *top;
	struct thr *th;
	size_t i, j, norder;
	uint32_t *order;

	tr->order = order = bystart(tr, &norder);
	tr->norder = tr->nhost = norder;

	for (th = NULL, j = 0; j < norder; j++) {
		i = order[j];
		e = &R[i];
		/* events of a thread often come in a row */
		if (th == NULL || th->pid != e->pid || th->tid != e->tid)
			th = thread(tr, e->pid, e->tid);
		while (th->n > 0 && after(e, &R[th->st[th->n - 1]]))
			pop(tr, th);
		e->flags |= F_TREE;
		if (th->n > 0 && (Fflag ? fend(e) > fend(top =
		    &R[th->st[th->n - 1]]) : e->end > (top =
		    &R[th->st[th->n - 1]])->end)) {
			if ((Fflag ? fend(top) - fts(e) < 1.0 : top->end -
			    e->ts < BLEED_NS) && th->n >= 2)
				pop(tr, th);
			else {
				e->flags |= F_DROPPED;
				e->root = (uint32_t)i;
				tr->ndrop++;
				if (e->end > top->end)
					warnev(tr, "event %" PRId64 ": ends %"
					    PRId64 " ns after event %" PRId64
					    ", in which it starts: left out of "
					    "the tree", e->uid, e->end -
					    top->end, top->uid);
				else	/* -F: in doubles only */
					warnev(tr, "event %" PRId64 ": ends "
					    "after event %" PRId64 " in "
					    "microseconds as doubles (-F), in "
					    "which it starts: left out of the "
					    "tree", e->uid, top->uid);
				continue;
			}
		}
		if (th->n >= tl_limit[TL_LIM_LEVELS]) {
			char lb[TL_LIMIT_STRMAX];

			tl_errx(1, "%s: event %" PRId64 ": nested deeper than "
			    "the limit (--limit %s)", tr->name, e->uid,
			    tl_limit_str(lb, TL_LIM_LEVELS));
		}
		if (Pflag && !sflag)	/* -s writes no nn_module */
			tr->rn[i].module = th->nmod > 0 ?
			    th->mod[th->nmod - 1] + 2 : 1;
		if (th->n > 0) {
			top = &R[th->st[th->n - 1]];
			e->parent = th->st[th->n - 1];
			e->depth = top->depth + 1;
			e->root = top->root;
		} else
			e->root = (uint32_t)i;
		push(tr, th, (uint32_t)i);
	}
}

static int
cmpkey(const void *a, const void *b)
{
	const struct keyrec *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->rec < y->rec ? -1 : x->rec > y->rec;
}

static void
attach(struct trace *tr, uint32_t r, uint32_t g)
{
	struct rec *R = tr->R;

	if (R[g].flags & F_LINKED) {
		tr->ndup++;
		warnev(tr, "event %" PRId64 ": linked by event %" PRId64
		    " and by event %" PRId64 ": the last kept", R[g].uid,
		    R[R[g].parent].uid, R[r].uid);
	}
	R[g].flags |= F_LINKED;
	R[g].parent = r;
}

/*
 * Bring the parent of GPU event g up to date: own is the last graph launch
 * of its key (or NONE), whose links linkgpu may not have made one by one;
 * the later of the two launches reached g last.
 */
static void
settle(struct rec *R, uint32_t g, uint32_t own)
{
	if (own != NONE && own > R[g].parent)
		R[g].parent = own;
}

/*
 * Make the flow events one flow per id, by id (in a table by id, flow
 * ids that come in order would each be a cache miss): an "s" and an "f"
 * if one of its events was, the pid and tid of its last "f", of the 2021
 * generation if one of its events was.
 */
static void
flows(struct trace *tr)
{
	struct flow *fl, *w, *r;
	struct tl_sortkey *k;
	size_t i, n = 0, nev = tr->nflow;

	k = xmalloc((nev ? nev : 1) * sizeof *k);
	for (i = 0; i < nev; i++) {
		k[i].k = GLKEY(tr->flow[i].id);
		k[i].i = (uint32_t)i;
	}
	tl_key_sort(k, nev);
	fl = xmalloc((nev ? nev : 1) * sizeof *fl);
	for (i = 0; i < nev; i++) {
		r = &tr->flow[k[i].i];
		if (n > 0 && k[i].k == k[n - 1].k) {
			w = &fl[n - 1];
			w->s |= r->s;
			if (r->f) {
				w->f = 1;
				w->fpid = r->fpid;
				w->ftid = r->ftid;
			}
			w->old |= r->old;
			continue;
		}
		/* k[n] is read already: k's first n keys become the flows' */
		k[n].k = k[i].k;
		k[n].i = (uint32_t)n;
		fl[n] = *r;
		fl[n++].g = NONE;
	}
	free(tr->flow);
	tr->flow = fl;
	tr->capflow = nev;
	tr->nflow = n;
	tr->fkey = k;
}

/*
 * The flow of id, or NONE. Ids mostly come in order: the flow after the
 * one found last (*at) is tried first.
 */
static uint32_t
flowof(const struct trace *tr, size_t *at, int64_t id)
{
	uint64_t k = GLKEY(id);
	size_t i = *at;

	if (i >= tr->nflow || tr->fkey[i].k != k) {
		i = tl_key_find(tr->fkey, tr->nflow, k);
		if (i == tr->nflow)
			return NONE;
	}
	*at = i + 1;
	return (uint32_t)i;
}

/* The op that launched GPU event g: spec 4, step 2. */
static uint32_t
launcher(const struct rec *R, uint32_t g)
{
	uint32_t r = R[g].parent, c;

	for (c = R[r].parent; c != NONE; c = R[c].parent) {
		if (R[c].kind == TL_K_CPU_OP) {
			if (!(R[c].flags & F_EXECUTE))
				return c;
		} else if (R[c].kind != TL_K_PYTHON && R[c].kind != TL_K_ANNOT)
			break;
	}
	return r;
}

/* Spec 2.2, 2.5: link runtime launches to GPU events. */
void
linkgpu(struct trace *tr)
{
	struct rec *R = tr->R;
	struct tl_sortkey *gl = NULL;
	struct flow *w;
	size_t i, j, ngl = 0, capgl = 0, lo, hi, nrec = tr->nrec, at;
	uint32_t f, g, *gend = NULL, *gown = NULL;
	const struct keyrec *ids;
	size_t x, nids;
	int64_t id;
	int bykey;

	if (tr->lk == 0)
		tr->lk = 2;		/* no launch event: External id */
	/*
	 * A trace without flow events (HTA links by args.correlation): each
	 * launch owns the GPU events of its key, as a graph launch does.
	 */
	bykey = 0;
	if (tr->nflow == 0) {
		int gpu = 0, launch = 0;

		for (i = 0; i < nrec && !(gpu && launch); i++) {
			gpu |= TL_K_ISGPU(R[i].kind);
			launch |= TL_K_ISLAUNCH(R[i].kind) &&
			    !(R[i].flags & F_GRAPH);
		}
		bykey = tr->bykey = gpu && launch;
	}
	flows(tr);
	ids = tr->lk == 1 ? tr->corr : tr->extid;
	nids = tr->lk == 1 ? tr->ncorr : tr->nextid;
	for (at = 0, x = 0; x < nids; x++) {
		i = ids[x].rec;
		id = ids[x].key;
		if ((R[i].flags & F_NOTS) || R[i].kind == TL_K_OTHER)
			continue;
		/*
		 * A flow leads to the last event of its id on the (pid, tid)
		 * of its "f": the only one a launch can reach by it, kept in
		 * the flow rather than every event in a table by (pid, tid,
		 * id).
		 */
		if (tr->nflow > 0 && (f = flowof(tr, &at, id)) != NONE &&
		    (w = &tr->flow[f])->f && w->fpid == R[i].pid &&
		    w->ftid == R[i].tid)
			w->g = (uint32_t)i;
		if ((tr->ngraph > 0 || bykey) && TL_K_ISGPU(R[i].kind)) {
			xgrow(&gl, &capgl, ngl + 1, sizeof *gl);
			gl[ngl].k = GLKEY(id);
			gl[ngl++].i = (uint32_t)i;
		}
	}
	/*
	 * The GPU events by key, in runs; at the start of each run, its end
	 * and the last graph launch of the key (NONE before the first).
	 */
	if (ngl > 0) {
		tl_key_sort(gl, ngl);
		gend = xmalloc(ngl * sizeof *gend);
		gown = xmalloc(ngl * sizeof *gown);
		for (lo = 0; lo < ngl; lo = hi) {
			for (hi = lo + 1; hi < ngl && gl[hi].k == gl[lo].k;
			    hi++)
				;
			gend[lo] = (uint32_t)hi;
			gown[lo] = NONE;
		}
	}
	for (at = 0, x = 0; x < nids; x++) {
		i = ids[x].rec;
		id = ids[x].key;
		if (!TL_K_ISLAUNCH(R[i].kind) || (R[i].flags & F_NOTS))
			continue;
		if ((R[i].flags & F_GRAPH) || bykey) {
			if ((lo = tl_key_find(gl, ngl, GLKEY(id))) == ngl)
				continue;
			hi = gend[lo];
			if (gown[lo] == NONE)
				for (j = lo; j < hi; j++)
					attach(tr, (uint32_t)i, gl[j].i);
			else {
				/*
				 * A graph launch of a key that had one: every
				 * event of the run is linked already. Attach
				 * the ones whose warnings are shown; count the
				 * rest, settled at the end (linear, not the
				 * launches times the events).
				 */
				for (j = lo; j < hi && tr->warns.n <
				    TL_MAXSHOWN; j++) {
					settle(R, gl[j].i, gown[lo]);
					attach(tr, (uint32_t)i, gl[j].i);
				}
				tr->ndup += hi - j;
				tr->warns.n += hi - j;
			}
			gown[lo] = (uint32_t)i;
			continue;
		}
		if ((f = flowof(tr, &at, id)) == NONE)
			continue;
		w = &tr->flow[f];
		if (!w->s || !w->f || (g = w->g) == NONE)
			continue;
		if (!TL_K_ISGPU(R[g].kind)) {
			tr->nrefused++;
			warnev(tr, "event %" PRId64 ": flow %" PRId64 " leads "
			    "to event %" PRId64 ", which is not a GPU event: "
			    "refused", R[i].uid, id, R[g].uid);
			continue;
		}
		if (ngl > 0 && (R[g].flags & F_LINKED) &&
		    (lo = tl_key_find(gl, ngl, GLKEY(id))) < ngl)
			settle(R, g, gown[lo]);
		attach(tr, (uint32_t)i, g);
	}
	for (lo = 0; lo < ngl; lo = gend[lo])
		for (j = lo; j < gend[lo]; j++)
			settle(R, gl[j].i, gown[lo]);
	free(gl);
	free(gend);
	free(gown);
	/* Read by nothing after: given back before kerneltime's arrays. */
	free(tr->fkey);
	free(tr->corr);
	free(tr->extid);
	tr->fkey = NULL;
	tr->corr = tr->extid = NULL;
	tr->ncorr = tr->nextid = tr->capcorr = tr->capextid = 0;
	for (x = 0; x < tr->ngpurec; x++) {
		i = tr->gpu[x];
		tr->ngpu++;
		if (!(R[i].flags & F_LINKED))
			continue;
		tr->nlinked++;
		g = R[i].parent;
		R[i].depth = R[g].depth + 1;
		R[i].root = R[g].root;
		R[i].u.launcher = launcher(R, (uint32_t)i);
	}
}

/* Spec 2.8, 4: direct and subtree busy time of every host node. */
void
kerneltime(struct trace *tr)
{
	struct rec *R = tr->R;
	const uint32_t *order = tr->order;
	uint32_t *cnt, *cur, *gpu, g, p;
	struct tl_iv *iv, *tmp;
	size_t i, j, n = tr->nlinked, next = 0, nrec = tr->nrec;
	size_t norder = tr->norder;

	/* The linked GPU events, gone through three times below. */
	gpu = xmalloc((n ? n : 1) * sizeof *gpu);
	cnt = xcalloc(nrec, sizeof *cnt);
	cur = xmalloc((nrec ? nrec : 1) * sizeof *cur);
	for (i = 0, j = 0; i < tr->ngpurec; i++)
		if (R[g = tr->gpu[i]].flags & F_LINKED) {
			cnt[R[g].parent]++;
			gpu[j++] = g;
		}
	iv = xmalloc((n ? n : 1) * sizeof *iv);
	tmp = xmalloc((n ? n : 1) * sizeof *tmp);
	/*
	 * Give each node a range of iv, nested as the tree is: the GPU
	 * events of a subtree are then one range. Parents come before
	 * their children in order. Once filled, a node's range is the
	 * cnt entries that end at its cur. The nodes without a GPU event
	 * below them have an empty range and busy times of 0 (as newrec
	 * left them): their records are not gone through.
	 */
	for (j = norder; j-- > 0;)
		if (cnt[order[j]] > 0 && (p = R[order[j]].parent) != NONE)
			cnt[p] += cnt[order[j]];
	for (j = 0; j < norder; j++) {
		i = order[j];
		if (cnt[i] == 0)
			continue;
		if ((p = R[i].parent) == NONE) {
			cur[i] = (uint32_t)next;
			next += cnt[i];
		} else {
			cur[i] = cur[p];
			cur[p] += cnt[i];
		}
	}
	for (j = 0; j < n; j++) {
		g = gpu[j];
		iv[cur[R[g].parent]].start = R[g].ts;
		iv[cur[R[g].parent]++].end = R[g].end;
	}
	/* Children first, so each range is mostly sorted runs. */
	for (j = norder; j-- > 0;) {
		i = order[j];
		if (cnt[i] > 0)
			R[i].u.h.subtree = tl_iv_busy(iv + cur[i] - cnt[i],
			    cnt[i], tmp);
	}
	/* Direct: the GPU events each node is the launcher of. */
	memset(cnt, 0, nrec * sizeof *cnt);
	for (j = 0; j < n; j++)
		cnt[R[gpu[j]].u.launcher]++;
	for (i = 0, next = 0; i < nrec; i++) {
		cur[i] = (uint32_t)next;
		next += cnt[i];
	}
	for (j = 0; j < n; j++) {
		g = gpu[j];
		iv[cur[R[g].u.launcher]].start = R[g].ts;
		iv[cur[R[g].u.launcher]++].end = R[g].end;
	}
	for (i = 0; i < nrec; i++)	/* launchers are host nodes */
		if (cnt[i] > 0)
			R[i].u.h.direct = tl_iv_busy(iv + cur[i] - cnt[i],
			    cnt[i], tmp);
	free(gpu);
	free(cnt);
	free(cur);
	free(iv);
	free(tmp);
}

static int
cmppair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return x->b < y->b ? -1 : x->b > y->b;
}

/* Spec 2.6: forward/backward links by sequence number. */
void
fwdbwd(struct trace *tr)
{
	const struct rec *R = tr->R;
	struct keyrec *sq = tr->sq;
	size_t a, b, j, nsq = tr->nsq, nfb = 0;
	uint32_t B, F, x;

	if (nsq > 1)
		qsort(sq, nsq, sizeof *sq, cmpkey);
	for (a = 0; a < nsq; a = b) {
		for (b = a; b < nsq && sq[b].key == sq[a].key; b++)
			;
		for (B = NONE, j = a; j < b && B == NONE; j++)
			if (R[sq[j].rec].flags & F_EVALFN)
				B = sq[j].rec;
		if (B == NONE)
			continue;
		for (F = NONE, j = a; j < b; j++) {
			x = sq[j].rec;
			if ((R[x].pid == R[B].pid && R[x].tid == R[B].tid) ||
			    (R[x].flags & F_NOTS))
				continue;
			if (F == NONE || R[x].ts > R[F].ts)
				F = x;
		}
		if (F == NONE)
			continue;
		xgrow(&tr->fwd, &tr->capfwd, nfb + 1, sizeof *tr->fwd);
		tr->fwd[nfb].a = B;
		tr->fwd[nfb++].b = F;
	}
	tr->nfb = nfb;
	tr->bwd = xmalloc((nfb ? nfb : 1) * sizeof *tr->bwd);
	for (j = 0; j < nfb; j++) {
		tr->bwd[j].a = tr->fwd[j].b;
		tr->bwd[j].b = tr->fwd[j].a;
	}
	if (nfb > 1) {
		qsort(tr->fwd, nfb, sizeof *tr->fwd, cmppair);
		qsort(tr->bwd, nfb, sizeof *tr->bwd, cmppair);
	}
}
