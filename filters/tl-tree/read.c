/*
 * tl-tree: read the rows of a trace into compact records, one per event
 * the tree needs (interned strings, integer times, ids), with the flows,
 * sequence numbers and -e matches the tree is built from; keep the rows
 * themselves in a spool (memory, then a temporary file) until the tree
 * is built. Also the hash tables, and a trace's creation and freeing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/file.h"
#include "../../common/mem.h"
#include "tree.h"

#define SPOOLMEM	(16 << 20)	/* spool bytes kept in memory */
#define SPOOLBUF	(1 << 20)

int col[TL_NCOL];
int xcol = -1;
int argcol = -1;
#define FIELD(t, c)	(t)->f[col[c]], (t)->fl[col[c]]	/* as s, n */
struct tl_trace *rd;
struct trace *rtrace;

struct trace *
trace_new(const char *name)
{
	struct trace *tr = xcalloc(1, sizeof *tr);

	tr->name = name;
	tr->in = tl_intern_new();
	tr->uidsorted = 1;
	tr->lastpid = tr->lasttid = (struct tl_intern_last)TL_INTERN_LAST;
	tl_out_init(&tr->sp, -1, "spool");
	tr->mjoined = NONE;
	tr->parent.rec = tr->root.rec = NONE;
	tr->maxuid = INT64_MIN;
	tr->maxrow = SIZE_MAX;
	tr->firstev = SIZE_MAX;
	if (ncname > 0)
		tr->count = xcalloc(ncname, sizeof *tr->count);
	return tr;
}

void
trace_free(struct trace *tr)
{
	size_t j;

	if (tr == NULL)
		return;
	for (j = 0; j < tr->nthr; j++) {
		free(tr->thr[j].st);
		free(tr->thr[j].mod);
	}
	if (tr->sp.fd >= 0)
		close(tr->sp.fd);
	free(tr->sp.buf);
	free(tr->spmem);
	free(tr->count);
	free(tr->sppath);
	free(tr->thr);
	hfree(&tr->thrtab);
	hfree(&tr->uidtab);
	tl_intern_free(tr->in);
	free(tr->R);
	free(tr->rn);
	free(tr->corr);
	free(tr->extid);
	free(tr->rowbit);
	free(tr->flowbit);
	free(tr->flow);
	free(tr->fkey);
	free(tr->gpu);
	free(tr->sq);
	free(tr->pick);
	free(tr->order);
	free(tr->mnode);
	free(tr->fwd);
	free(tr->bwd);
	free(tr->mjoin);
	free(tr->kidoff);
	free(tr->kid);
	free(tr);
}

/* A warning about the trace. */
void
warnev(struct trace *tr, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (tr->warns.n >= TL_MAXSHOWN) {	/* counted, not formatted */
		tr->warns.n++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	tl_warns(&tr->warns, "%s: %s", tr->name, msg);
}

/* Hash tables. */

/* Set the slot that hfind returned to v; the slot pointer is stale after. */
void
hset(struct htab *t, struct hslot *s, uint64_t h, uint32_t v)
{
	struct hslot *old;
	size_t i, j, n;

	if (s->v != 0) {
		s->v = v + 1;
		return;
	}
	s->h = h;
	s->v = v + 1;
	if (++t->n * 2 <= t->mask)
		return;
	old = t->s;
	n = t->mask + 1;
	t->mask = 2 * n - 1;
	t->s = xcalloc(2 * n, sizeof *t->s);
	for (i = 0; i < n; i++) {
		if (old[i].v == 0)
			continue;
		for (j = old[i].h & t->mask; t->s[j].v != 0;
		    j = (j + 1) & t->mask)
			;
		t->s[j] = old[i];
	}
	free(old);
}

void
hfree(struct htab *t)
{
	free(t->s);
	memset(t, 0, sizeof *t);
}

/* The spool. */

/* Move the spool to a temporary file, unlinked at once. */
/*
 * The spool's memory is full (at a line's end): the lines in it stay
 * there, and the rest go to the file, written in pieces of SPOOLBUF.
 * (Written to the file too, they would be held twice: every page a
 * process first touches is dear on some hosts.)
 */
static void
spill(struct trace *tr)
{
	tr->sp.name = tr->sppath = tl_tmppath("tl-tree");
	if ((tr->sp.fd = mkstemp(tr->sppath)) < 0)
		tl_err(1, "%s", tr->sppath);
	unlink(tr->sppath);
	tr->spmem = tr->sp.buf;
	tr->nspmem = tr->sp.n;
	tr->sp.buf = xmalloc(SPOOLBUF);
	tr->sp.cap = SPOOLBUF;
	tr->sp.n = 0;
}

/* Hand the lines of buf[0..n) to fn, each without its LF. */
static void
unspoolmem(struct trace *tr, const char *buf, size_t n,
    void (*fn)(struct trace *, const char *, size_t, int more))
{
	const char *p, *nl;
	size_t pos;

	for (pos = 0; pos < n; pos = (size_t)(nl - buf) + 1) {
		p = buf + pos;
		nl = memchr(p, '\n', n - pos);
		fn(tr, p, (size_t)(nl - p), 0);
	}
}

/* Keep one line of two pieces (and its LF). */
static void
spool2(struct trace *tr, const char *p, size_t n, const char *q, size_t m)
{
	if (tr->sp.fd < 0 && tr->sp.n + n + m + 1 > SPOOLMEM)
		spill(tr);
	tl_out_raw(&tr->sp, p, n);
	tl_out_raw(&tr->sp, q, m);
	tl_out_char(&tr->sp, '\n');
}

/* Keep one line (and its LF). */
static void
spool(struct trace *tr, const char *p, size_t n)
{
	if (tr->sp.fd < 0 && tr->sp.n + n + 1 > SPOOLMEM)
		spill(tr);
	tl_out_raw(&tr->sp, p, n);
	tl_out_char(&tr->sp, '\n');
}

/*
 * Hand the spooled lines to fn, in order, each without its LF; then
 * empty the spool. A line longer than SPOOLBUF read back from the file
 * comes in parts, each but the last with more set, so that it is never
 * held whole a second time.
 */
void
unspool(struct trace *tr,
    void (*fn)(struct trace *, const char *, size_t, int more))
{
	char *nl, *rb = NULL;
	size_t pos, have, cap;
	ssize_t k;

	if (tr->sp.fd < 0) {
		unspoolmem(tr, tr->sp.buf, tr->sp.n, fn);
		tr->sp.n = 0;
		return;
	}
	unspoolmem(tr, tr->spmem, tr->nspmem, fn);
	free(tr->spmem);
	tr->spmem = NULL;
	tr->nspmem = 0;
	tl_out_flush(&tr->sp);
	if (lseek(tr->sp.fd, 0, SEEK_SET) < 0)
		tl_err(1, "%s", tr->sppath);
	cap = SPOOLBUF;
	rb = xmalloc(cap);
	have = 0;
	for (;;) {
		if (have == cap) {	/* a part of a long line */
			fn(tr, rb, have, 1);
			have = 0;
		}
		k = read(tr->sp.fd, rb + have, cap - have);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			tl_err(1, "%s", tr->sppath);
		}
		if (k == 0)
			break;
		have += (size_t)k;
		for (pos = 0; (nl = memchr(rb + pos, '\n', have - pos)) !=
		    NULL; pos = (size_t)(nl - rb) + 1)
			fn(tr, rb + pos, (size_t)(nl - (rb + pos)), 0);
		memmove(rb, rb + pos, have - pos);
		have -= pos;
	}
	free(rb);
}

/* Reading. */

int
same(const char *s, size_t n, const char *lit)
{
	return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

static int
prefix(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);

	return n >= k && memcmp(s, p, k) == 0;
}

/* s[0..n) contains "launch", in any case. */
static int
haslaunch(const char *s, size_t n)
{
	static const char w[] = "launch";
	size_t i, j;

	for (i = 0; i + sizeof w - 1 <= n; i++) {
		for (j = 0; j < sizeof w - 1; j++)
			if ((s[i + j] | 0x20) != w[j])
				break;
		if (j == sizeof w - 1)
			return 1;
	}
	return 0;
}

/* Record rec's id key on the list a (of *n, room for *cap). */
static void
keyrec(struct keyrec **a, size_t *cap, size_t *n, int64_t key, uint32_t rec)
{
	xgrow(a, cap, *n + 1, sizeof **a);
	(*a)[*n].key = key;
	(*a)[(*n)++].rec = rec;
}

/*
 * Field c as an integer id (correlation, External id, flow id, sequence
 * number): 1 when set; 0 when absent, or not an integer (counted and
 * reported, the value ignored).
 */
static int
getid(struct trace *tr, struct tl_tsv *t, int c, int64_t *v)
{
	const char *s = t->f[c];
	size_t n = t->fl[c];
	char q[TL_QUOTE_MAX];

	if (n == 0)
		return 0;
	if (tl_parse_i64(s, n, v) == 0 && *v != NOID)
		return 1;
	tr->nbadid++;
	tl_warns(&tr->warns, "%s:%" PRIu64 ": column \"%s\": not an integer: "
	    "\"%s\": ignored", t->name, t->lineno, t->col[c],
	    tl_quote(q, sizeof q, s, n));
	return 0;
}

/* Keep a flow event; flows (build.c) makes them one per id. */
static void
newflow(struct trace *tr, struct tl_tsv *t, int f, int old)
{
	struct flow *w;
	int64_t id;

	if (!getid(tr, t, col[TL_C_ID], &id))
		return;
	xgrow(&tr->flow, &tr->capflow, tr->nflow + 1, sizeof *w);
	w = &tr->flow[tr->nflow++];
	memset(w, 0, sizeof *w);
	w->id = id;
	w->old = (uint8_t)old;
	if (f) {
		w->f = 1;
		w->fpid = tl_intern_last(tr->in, &tr->lastpid,
		    FIELD(t, TL_C_PID));
		w->ftid = tl_intern_last(tr->in, &tr->lasttid,
		    FIELD(t, TL_C_TID));
	} else
		w->s = 1;
}

/* Check that the uid of record i is new to the trace. */
static void
checkuid(struct trace *tr, struct tl_tsv *t, uint32_t i)
{
	const struct rec *R = tr->R;
	struct hslot *s;
	uint64_t h;
	uint32_t j;

	if (tr->uidsorted) {
		if (i == 0 || R[i].uid > tr->lastuid) {
			tr->lastuid = R[i].uid;
			return;
		}
		/* Not increasing: from now on, look every uid up. */
		tr->uidsorted = 0;
		for (j = 0; j < i; j++) {
			h = tl_hash64((uint64_t)R[j].uid);
			hset(&tr->uidtab, hfind(&tr->uidtab, h, NULL, NULL), h,
			    j);
		}
	}
	h = tl_hash64((uint64_t)R[i].uid);
	s = hfind(&tr->uidtab, h, NULL, NULL);
	if (s->v != 0)
		tl_tsv_errx(t, "duplicate uid %" PRId64, R[i].uid);
	hset(&tr->uidtab, s, h, i);
}

static void
newrec(struct trace *tr, struct tl_tsv *t, int kind, int old, int64_t uid)
{
	const char *name = t->f[col[TL_C_NAME]];
	size_t nn = t->fl[col[TL_C_NAME]];
	struct rec *e;
	int64_t dur, v, corr, ext;
	uint32_t i, nm;

	tl_trace_hold(t, tr->nrec);
	if (tr->nrec >= NONE - 1)
		tl_tsv_errx(t, "too many events in one trace");
	i = (uint32_t)tr->nrec;
	xgrow(&tr->R, &tr->caprec, tr->nrec + 1, sizeof *tr->R);
	tr->nrec++;
	e = &tr->R[i];
	memset(e, 0, sizeof *e);
	e->kind = (uint8_t)kind;
	e->parent = e->root = NONE;
	e->uid = uid;
	checkuid(tr, t, i);
	/* -s reads no name, but --limit string and kept count them all */
	nm = tl_intern(tr->in, name, nn);
	if (!sflag) {
		xgrow(&tr->rn, &tr->caprn, tr->nrec, sizeof *tr->rn);
		tr->rn[i].name = nm;
		tr->rn[i].module = 0;
	}
	e->pid = tl_intern_last(tr->in, &tr->lastpid, FIELD(t, TL_C_PID));
	e->tid = tl_intern_last(tr->in, &tr->lasttid, FIELD(t, TL_C_TID));
	if (!tl_tsv_i64(t, col[TL_C_TS], &e->ts)) {
		e->flags |= F_NOTS;
		if (kind != TL_K_OTHER) {
			tr->nnots++;
			warnev(tr, "event %" PRId64 ": no ts_ns: left out of "
			    "the tree", e->uid);
		}
	} else {
		if (!tl_tsv_i64(t, col[TL_C_DUR], &dur) || dur < 0) {
			if (kind != TL_K_OTHER) {
				tr->nnodur++;
				warnev(tr, "event %" PRId64 ": %s dur_ns: "
				    "taken as 0", e->uid,
				    t->fl[col[TL_C_DUR]] == 0 ? "no" :
				    "negative");
			}
			dur = 0;
		}
		if (__builtin_add_overflow(e->ts, dur, &e->end)) {
			/* dur >= 0: only the end can pass the largest. */
			e->end = INT64_MAX;
			tr->nclip++;
			warnev(tr, "event %" PRId64 ": ts_ns + dur_ns past "
			    "the largest time: ends at it", e->uid);
		}
	}
	/*
	 * The records with an id of the linking key, which only linkgpu
	 * reads: once the first launch has chosen the key (tr->lk), those
	 * of the other are not kept.
	 */
	corr = getid(tr, t, col[TL_C_CORR], &v) ? v : NOID;
	if (corr != NOID && tr->lk != 2)
		keyrec(&tr->corr, &tr->capcorr, &tr->ncorr, corr, i);
	if (old) {
		e->flags |= F_2021;
		tr->n2021++;
		if (TL_K_ISGPU(kind) && corr == NOID) {
			tr->nnocorr++;
			warnev(tr, "event %" PRId64 ": a GPU event of the 2021 "
			    "generation without a correlation: not linked",
			    e->uid);
		}
	}
	ext = getid(tr, t, col[TL_C_EXT], &v) ? v : NOID;
	if (ext != NOID && tr->lk != 1)
		keyrec(&tr->extid, &tr->capextid, &tr->nextid, ext, i);
	if (TL_K_ISGPU(kind)) {
		xgrow(&tr->gpu, &tr->capgpu, tr->ngpurec + 1,
		    sizeof *tr->gpu);
		tr->gpu[tr->ngpurec++] = i;
	}
	if (getid(tr, t, col[TL_C_SEQ], &v)) {
		xgrow(&tr->sq, &tr->capsq, tr->nsq + 1, sizeof *tr->sq);
		tr->sq[tr->nsq].key = v;
		tr->sq[tr->nsq++].rec = i;
	}
	switch (kind) {
	case TL_K_CPU_OP:
		if (same(name, nn, "execute"))
			e->flags |= F_EXECUTE;
		break;
	case TL_K_RUNTIME:
	case TL_K_DRIVER:
		if (same(name, nn, "cudaGraphLaunch") ||
		    same(name, nn, "hipGraphLaunch")) {
			e->flags |= F_GRAPH;
			tr->ngraph++;
		}
		break;
	case TL_K_PYTHON:	/* -s writes no nn_module */
		if (!sflag && prefix(name, nn, "nn.Module:"))
			e->flags |= F_MODULE;
		break;
	}
	if (prefix(name, nn, "autograd::engine::evaluate_function:"))
		e->flags |= F_EVALFN;
	if (eflag && ext == eext && same(FIELD(t, TL_C_PID), epid) &&
	    same(FIELD(t, TL_C_TID), etid)) {
		xgrow(&tr->pick, &tr->cappick, tr->npick + 1,
		    sizeof *tr->pick);
		tr->pick[tr->npick++] = i;
	}
}

/* Count a row; say whether it has a record (and, for -s, whether it is
 * a flow event's). */
static void
newrow(struct trace *tr, int hasrec, int isflow)
{
	size_t n = tr->nrow;

	if (n % 64 == 0) {	/* a new word */
		xgrow(&tr->rowbit, &tr->caprowbit, n / 64 + 1,
		    sizeof *tr->rowbit);
		tr->rowbit[n / 64] = 0;
		if (sflag) {
			xgrow(&tr->flowbit, &tr->capflowbit, n / 64 + 1,
			    sizeof *tr->flowbit);
			tr->flowbit[n / 64] = 0;
		}
	}
	if (hasrec)
		tr->rowbit[n / 64] |= (uint64_t)1 << (n % 64);
	if (isflow)
		tr->flowbit[n / 64] |= (uint64_t)1 << (n % 64);
	tr->nrow++;
}

/* Read a row of the trace: an event's, or one about the trace. */
static void
row(struct trace *tr, struct tl_tsv *t, int event)
{
	char **f = t->f, *ph;
	size_t *fl = t->fl;
	int kind, keep, old;
	int64_t uid = 0;	/* an event's, as a record has it */
	size_t len = (size_t)(f[t->ncol - 1] + fl[t->ncol - 1] - f[0]);

	if (!event) {
		if (!pflag && !uflag)
			spool(tr, f[0], len);
		newrow(tr, 0, 0);
		tr->name = rd->name;	/* a trace_file row's */
		return;
	}
	/* The kinds the tree has no use for count as any other cat. */
	kind = rd->kind;
	if ((kind == TL_K_PYTHON && !Pflag) || (kind == TL_K_ANNOT &&
	    !Aflag) || (kind > TL_K_ANNOT && kind != TL_K_AC2G &&
	    !TL_K_ISGPU(kind)))
		kind = TL_K_OTHER;
	if (pflag || uflag)
		;
	else if (sflag && argcol >= 0 && (size_t)argcol < t->ncol &&
	    fl[argcol] > 0 && (kind == TL_K_PYTHON || TL_K_ISLAUNCH(kind))) {
		/* -s: a python frame or a launch without its args, which no
		 * later stage reads */
		size_t a = (size_t)(f[argcol] - f[0]);

		spool2(tr, f[0], a, f[argcol] + fl[argcol],
		    len - a - fl[argcol]);
	} else
		spool(tr, f[0], len);
	if (tr->lk == 0 && TL_K_ISLAUNCH(kind) &&
	    haslaunch(FIELD(t, TL_C_NAME)))
		tr->lk = fl[col[TL_C_CORR]] > 0 ? 1 : 2;
	/* tl-parse keeps the cat of a 2021 event, as written, in extra. */
	old = kind != TL_K_OTHER && xcol >= 0 && fl[xcol] > 8 &&
	    memcmp(f[xcol], "{\"cat\":\"", 8) == 0;
	ph = f[col[TL_C_PH]];
	if (kind == TL_K_AC2G && fl[col[TL_C_PH]] == 1 &&
	    (ph[0] == 's' || ph[0] == 'f'))
		newflow(tr, t, ph[0] == 'f', old);
	/* Events with a sequence number count for forward/backward. */
	keep = TL_K_ISHOST(kind) || TL_K_ISGPU(kind) || (kind == TL_K_OTHER &&
	    fl[col[TL_C_SEQ]] > 0);
	/* The uid, read once: a record's; with -s, the row of the largest
	 * stays (the first of equals). */
	if ((sflag || keep) && tl_tsv_i64(t, col[TL_C_UID], &uid) && sflag &&
	    uid > tr->maxuid) {
		tr->maxuid = uid;
		tr->maxrow = tr->nrow;
	}
	if (ncname > 0) {	/* -c */
		size_t j, nl = fl[col[TL_C_NAME]];

		if (tr->firstev == SIZE_MAX)
			tr->firstev = tr->nrow;
		for (j = 0; j < ncname; j++)
			if (nl == cname[j].n && memcmp(f[col[TL_C_NAME]],
			    cname[j].s, nl) == 0)
				tr->count[j]++;
	}
	newrow(tr, keep, sflag && kind == TL_K_AC2G);
	if (keep)
		newrec(tr, t, kind, old, uid);
}

/* The first stream's header: check it, and write the tree stream's. */
static void
header(struct tl_tsv *t)
{
	size_t i;

	memcpy(col, rd->col, sizeof col);
	xcol = tl_tsv_col(t, "extra");
	argcol = tl_tsv_col(t, "args");
	for (i = 0; treecol[i] != NULL; i++)
		if (tl_tsv_col(t, treecol[i]) >= 0)
			tl_errx(1, "%s:1: column \"%s\" is there already: "
			    "the input is a tree stream", t->name, treecol[i]);
	if (pflag || uflag)
		return;
	for (i = 0; i < t->ncol; i++) {
		tl_out_raw(&out, t->col[i], strlen(t->col[i]));
		tl_out_char(&out, '\t');
	}
	tl_out_header(&out, treecol);
}

/*
 * Read the traces of rd and write their trees: the whole input path
 * (tests/fuzz/fuzz-tree.c gives rd a memory source, and frees rd and
 * rtrace when a fatal error ends the stream early).
 */
void
tree(void)
{
	int r;

	while (tl_trace_next(rd)) {
		if (rd->ntrace == 1)
			header(rd->t);
		rtrace = trace_new(rd->name);
		while ((r = tl_trace_row(rd)) != TL_ROW_END)
			row(rtrace, rd->t, r == TL_ROW_EVENT);
		finish(rtrace);
		trace_free(rtrace);
		rtrace = NULL;
	}
}
