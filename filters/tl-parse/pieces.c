/*
 * tl-parse: a plain trace (or one inflated in one call) read in pieces
 * on every core, the rows written in file order (tl-parse.c).
 */
#include "tlparse.h"

struct pieces sp = { .mu = PTHREAD_MUTEX_INITIALIZER,
	.cv = PTHREAD_COND_INITIALIZER };

/* Pieces of about this many bytes; 0: of the stream's size (startsplit). */
size_t piecesz;

/* A growing buffer's pieces, and the bytes asked for past the one needed. */
#define GROWPIECE	((size_t)1 << 20)
#define GROWSTEP	((uint64_t)1 << 20)
#define NOBOUND		UINT64_MAX

/*
 * The offset of the '{' of the first guessed boundary at or past from, in
 * p[0..*np), or 0 when there is none to the stream's end. While *grow, the
 * buffer is waited for as needed (*np, *grow as they are then), and when
 * it stops growing before a boundary (until this thread goes on), NOBOUND.
 */
static uint64_t
boundary(uint64_t from, size_t *np, int *grow)
{
	const char *hit, *p;
	uint64_t seen = from;
	size_t n = *np, m;
	int r;

	for (;;) {
		if (seen < n && (hit = memmem(sp.p + seen, n - seen, sp.pat,
		    sp.plen)) != NULL)
			return (uint64_t)(hit - sp.p) + sp.plen - 1;
		if (!*grow)
			return 0;
		if (n > from + sp.plen)
			seen = n - sp.plen + 1;
		r = tl_in_grown(sp.src, &p, &m, (n > from ? n : from) +
		    GROWSTEP);
		*grow = r == 1;
		if (r == 1 && m == n)
			return NOBOUND;
		*np = n = m;
	}
}

/* Read a piece, in a worker, as far as no event needs a message. */
static void
readpiece(struct piece *pc)
{
	struct tl_jscan *js;
	struct tl_jitem it;
	size_t mark;
	uint64_t nm, nm0 = nmapped, nl0 = nleft;

	o = &pc->out;
	pc->out.n = 0;
	pc->nev = pc->index = 0;
	pc->at = pc->start;
	pc->after = 0;
	js = tl_jscan_at(sp.proto, NULL, sp.p, pc->n, pc->start, 0, 0);
	if (!pc->last)
		tl_jscan_stopat(js, pc->stop);
	while (!atomic_load_explicit(&sp.cancel, memory_order_relaxed) &&
	    tl_jscan_next(js, &it) > 0 && (it.kind == TL_JLEFT ||
	    (it.kind == TL_JEVENT && it.badutf8 + it.ctrl + it.badesc == 0))) {
		mark = pc->out.n;
		nm = nmapped;
		dirty = 0;
		if (it.kind == TL_JLEFT)
			leftevent();
		else
			event(&it);
		if (dirty) {
			pc->out.n = mark;
			nmapped = nm;
			break;
		}
		pc->nev++;
		pc->at = tl_jscan_offset(js);
		pc->after = 1;
		pc->index = it.index + 1;
	}
	pc->nleft = nleft - nl0;
	pc->nmapped = nmapped - nm0;
	tl_jscan_free(js);
}

static void *
worker(void *arg)
{
	struct piece *pc;
	size_t size = *(size_t *)arg, n;
	uint64_t from, stop;
	int grow;

	inhalf = 1;
	for (;;) {
		pthread_mutex_lock(&sp.mu);
		while (!atomic_load(&sp.cancel) && !sp.ended && (sp.finding ||
		    sp.taken - sp.written >= NPIECE))
			pthread_cond_wait(&sp.cv, &sp.mu);
		if (atomic_load(&sp.cancel) || sp.ended) {
			pthread_mutex_unlock(&sp.mu);
			break;
		}
		/* The boundary found without the lock: it may wait for bytes. */
		sp.finding = 1;
		from = sp.bound;
		n = sp.n;
		grow = sp.grow;
		pthread_mutex_unlock(&sp.mu);
		stop = boundary(from + size, &n, &grow);
		pthread_mutex_lock(&sp.mu);
		sp.finding = 0;
		sp.n = n;
		sp.grow = grow;
		pthread_cond_broadcast(&sp.cv);
		if (stop == NOBOUND) {
			sp.ended = 1;
			pthread_mutex_unlock(&sp.mu);
			break;
		}
		pc = &sp.pc[sp.taken++ % NPIECE];
		pc->start = from;
		pc->stop = stop;
		pc->n = n;
		pc->done = 0;
		if ((pc->last = pc->stop == 0))
			sp.ended = 1;
		else
			sp.bound = pc->stop;
		pthread_mutex_unlock(&sp.mu);
		readpiece(pc);
		pthread_mutex_lock(&sp.mu);
		pc->done = 1;
		pthread_cond_broadcast(&sp.cv);
		pthread_mutex_unlock(&sp.mu);
	}
	free(scratch);
	free(rest);
	free(extra);
	free(sorted);
	free(tok2021);
	return NULL;
}

/* Stop the workers and wait for them. */
void
endsplit(void)
{
	int i;

	if (sp.nwork == 0)
		return;
	pthread_mutex_lock(&sp.mu);
	atomic_store(&sp.cancel, 1);
	pthread_cond_broadcast(&sp.cv);
	pthread_mutex_unlock(&sp.mu);
	for (i = 0; i < sp.nwork; i++)
		pthread_join(sp.th[i], NULL);
	sp.nwork = 0;
	tl_jscan_free(sp.proto);
	sp.proto = NULL;
}

/*
 * At the second event, whose first byte is at next, the first's last
 * just before end: start the workers on the pieces past the first, and
 * give the scanner this thread goes on with, which stops at them (js,
 * when the trace is not read so).
 */
struct tl_jscan *
startsplit(struct tl_jscan *js, struct tl_src *src, uint64_t end,
    uint64_t next)
{
	static long ncpu;
	static size_t size;
	struct tl_jscan *t;
	const char *p;
	size_t n;
	uint64_t off, first;
	int grow = 0, r;

	if (ncpu == 0)
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 2 || end == 0 || next < end || next - end > 62)
		return js;
	off = tl_jscan_offset(js);
	if (!tl_in_whole(src, &p, &n)) {
		if ((r = tl_in_grown(src, &p, &n, off + (piecesz != 0 ?
		    piecesz : GROWPIECE) + GROWSTEP)) == 0)
			return js;
		grow = r == 1;
	}
	if (n < splitmin || next >= n || p[end - 1] != '}' || p[next] != '{')
		return js;
	size = piecesz;
	if (size == 0)
		size = grow ? GROWPIECE : n / 16 < (64 << 10) ? 64 << 10 :
		    n / 16 > (4 << 20) ? 4 << 20 : n / 16;
	sp.src = src;
	sp.p = p;
	sp.plen = (size_t)(next - end) + 2;
	memcpy(sp.pat, p + end - 1, sp.plen);	/* p's bytes may go */
	if ((first = boundary(off + size, &n, &grow)) == 0 ||
	    first == NOBOUND ||
	    (sp.proto = tl_jscan_at(js, NULL, p, n, off, 1, 0)) == NULL)
		return js;
	sp.n = n;
	sp.grow = grow;
	t = tl_jscan_at(js, src, p, n, off, 1, tl_jscan_nevents(js));
	tl_jscan_stopat(t, first);
	sp.bound = first;
	sp.ended = sp.finding = 0;
	sp.taken = sp.written = 0;
	atomic_store(&sp.cancel, 0);
	while (sp.nwork < ncpu && sp.nwork < MAXWORK &&
	    pthread_create(&sp.th[sp.nwork], NULL, worker, &size) == 0)
		sp.nwork++;
	if (sp.nwork == 0) {
		tl_jscan_free(t);
		tl_jscan_free(sp.proto);
		sp.proto = NULL;
		return js;
	}
	tl_in_taken(src, n);
	tl_jscan_free(js);
	return t;
}

/* Write a piece's rows, their uids moved on by base. */
static void
putrows(struct tl_out *from, uint64_t base)
{
	static struct tl_count uid;
	const char *p = from->buf, *end = p + from->n, *nl;
	uint64_t u;

	for (; p < end; p = nl + 1) {
		for (u = 0; *p >= '0' && *p <= '9'; p++)
			u = u * 10 + (uint64_t)(*p - '0');
		nl = memchr(p, '\n', (size_t)(end - p));
		tl_out_count(o, &uid, base + u);
		tl_out_raw(o, p, (size_t)(nl + 1 - p));
	}
	from->n = 0;
}

/*
 * This thread's scanner js has stopped at the next piece: the piece's
 * rows when the stop is before an event, and the scanner to go on with,
 * after them; or, at no boundary, the piece dropped and js read on.
 */
struct tl_jscan *
nextpiece(struct tl_jscan *js, struct tl_src *src, uint64_t *nev)
{
	struct piece *pc = &sp.pc[sp.written % NPIECE];
	struct tl_jscan *t = js;
	uint64_t base;
	size_t n;
	int none;

	pthread_mutex_lock(&sp.mu);
	while (sp.taken == sp.written ? !sp.ended : !pc->done)
		pthread_cond_wait(&sp.cv, &sp.mu);
	n = sp.n;
	none = sp.taken == sp.written;
	pthread_mutex_unlock(&sp.mu);
	if (none || !tl_jscan_atevent(js)) {
		/* No more pieces (no boundary in a growing buffer), or this
		 * one's start was no boundary: js reads on past its stop, over
		 * the buffer as far as it now is. */
		tl_jscan_unstop(js);
		if (tl_jscan_grow(js, sp.p, n))
			tl_in_taken(src, n);
		if (none)
			return js;
		pc->out.n = 0;
	} else {
		base = tl_jscan_nevents(js);
		putrows(&pc->out, base);
		*nev += pc->nev;
		nleft += pc->nleft;
		nmapped += pc->nmapped;
		t = tl_jscan_at(sp.proto, src, sp.p, n, pc->at, pc->after,
		    base + pc->index);
		tl_in_taken(src, n);
		tl_jscan_free(js);
	}
	if (!pc->last)
		tl_jscan_stopat(t, pc->stop);
	tl_in_drop(src, tl_jscan_offset(t));
	pthread_mutex_lock(&sp.mu);
	sp.written++;
	pthread_cond_broadcast(&sp.cv);
	pthread_mutex_unlock(&sp.mu);
	return t;
}

