/*
 * tl-parse: a Perfetto protobuf trace (.pftrace, as rocprofv3 writes it)
 * read packet by packet, without a protobuf runtime: the track-event
 * subset (track descriptors, slice begin/end/instant, interned names,
 * categories and debug annotations, packet defaults, incremental and
 * sequence-scoped clocks), each completed slice one row of the event
 * stream, in the order its end is read.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/intern.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "../../common/pb.h"
#include "../../common/pyfmt.h"
#include "amd.h"

#define PKTMAX	((size_t)256 << 20)	/* a larger packet is skipped */
#define CLOCK_BOOT	6

struct str {
	char *s;
	size_t n;
};

/* iid -> string, per sequence and table: open addressing. */
struct ient {
	uint64_t iid;
	struct str v;
	struct str json;	/* v as a JSON string, once asked for */
	int used;
};

struct imap {
	struct ient *e;
	size_t cap, n;
};

static struct str *
iget(const struct imap *m, uint64_t iid)
{
	size_t i;

	if (m->cap == 0)
		return NULL;
	for (i = tl_hash64(iid) & (m->cap - 1); m->e[i].used;
	    i = (i + 1) & (m->cap - 1))
		if (m->e[i].iid == iid)
			return &m->e[i].v;
	return NULL;
}

static void
iput(struct imap *m, uint64_t iid, const void *s, size_t n)
{
	struct ient *old = m->e;
	size_t oc = m->cap, i, j;
	struct str *v;

	if ((v = iget(m, iid)) != NULL) {
		free(v->s);
		v->s = xmemdup(s, n);
		v->n = n;
		v = &((struct ient *)(void *)((char *)v -
		    offsetof(struct ient, v)))->json;
		free(v->s);
		v->s = NULL;
		return;
	}
	if (2 * (m->n + 1) > m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->e = xcalloc(m->cap, sizeof *m->e);
		for (j = 0; j < oc; j++)
			if (old[j].used) {
				for (i = tl_hash64(old[j].iid) & (m->cap - 1);
				    m->e[i].used; i = (i + 1) & (m->cap - 1))
					;
				m->e[i] = old[j];
			}
		free(old);
	}
	for (i = tl_hash64(iid) & (m->cap - 1); m->e[i].used;
	    i = (i + 1) & (m->cap - 1))
		;
	m->e[i].used = 1;
	m->e[i].iid = iid;
	m->e[i].v.s = xmemdup(s, n);
	m->e[i].v.n = n;
	m->e[i].json.s = NULL;
	m->n++;
}

/* The string of iid as tlp_jstr writes it, made once; NULL if none. */
static const struct str *
ijson(const struct imap *m, uint64_t iid)
{
	static struct tl_out o;
	struct ient *e;
	struct str *v;

	if ((v = iget(m, iid)) == NULL)
		return NULL;
	e = (struct ient *)(void *)((char *)v - offsetof(struct ient, v));
	if (e->json.s == NULL) {
		if (o.buf == NULL)
			tl_out_init(&o, -1, "(name)");
		o.n = 0;
		tlp_jstr(&o, v->s, v->n, NULL);
		e->json.s = xmemdup(o.buf, o.n);
		e->json.n = o.n;
	}
	return &e->json;
}

static void
iclear(struct imap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->e[i].used) {
			free(m->e[i].v.s);
			free(m->e[i].json.s);
		}
	free(m->e);
	m->e = NULL;
	m->cap = m->n = 0;
}

/* A clock's relation to the trace clock, from the latest snapshot. */
struct clock {
	uint32_t id;
	int incremental, has6;
	uint64_t mult;
	int64_t snap, snap6;	/* the clock's and clock 6's values */
	int64_t last;		/* incremental: the latest absolute value */
};

enum { T_CAT, T_NAME, T_ANAME, T_ASTR, NTAB };
static const char *const tabname[NTAB] = {
	"event category", "event name", "debug annotation name",
	"debug annotation string value"
};

struct seq {
	uint32_t id;
	int valid;
	struct imap tab[NTAB];
	int hasclock, hastrack;
	uint32_t defclock;
	uint64_t deftrack;
	struct clock *clk;	/* sequence-scoped clocks (64..127) */
	size_t nclk;
};

struct open {
	int64_t ts;
	struct str name, cat, args;
	int hascorr, hasstream;
	int64_t corr, stream;
};

struct track {
	uint64_t uuid, parent;
	int hasparent, isthread, isproc;
	int64_t pid, tid;
	struct str name, tname, pname;
	struct open *stk;
	size_t nstk, capstk;
};

/* The reader's state for one stream. */
static struct {
	const struct tlp_ctx *x;
	struct seq *seq;
	size_t nseq;
	struct track *trk;
	size_t ntrk, captrk;
	size_t *tix;		/* uuid -> index + 1: open addressing */
	size_t tcap;
	struct clock *gclk;	/* snapshots of the global clocks */
	size_t ngclk;
	uint64_t nslice, nrow, npkt, nskip, nwarn, nopen;	/* nrow: uids */
	struct tl_warns warns;
	struct tl_out j;	/* args JSON being built */
	struct tl_out e;	/* extra JSON */
	char *ubuf, *cbuf;
	size_t ucap, ccap;
	struct tl_out cat;	/* the event's categories */
	uint64_t off;		/* the packet's offset */
} S;

static void
warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
warn(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	S.nwarn++;
	tl_warns(&S.warns, "%s:%" PRIu64 ": %s", S.x->name, S.off, msg);
}

static struct seq *
getseq(uint32_t id)
{
	size_t i;

	for (i = 0; i < S.nseq; i++)
		if (S.seq[i].id == id)
			return &S.seq[i];
	S.seq = xreallocarray(S.seq, S.nseq + 1, sizeof *S.seq);
	memset(&S.seq[S.nseq], 0, sizeof *S.seq);
	S.seq[S.nseq].id = id;
	return &S.seq[S.nseq++];
}

static void
clearseq(struct seq *q)
{
	int t;

	for (t = 0; t < NTAB; t++)
		iclear(&q->tab[t]);
	free(q->clk);
	q->clk = NULL;
	q->nclk = 0;
	q->hasclock = q->hastrack = 0;
}

static struct track *
findtrack(uint64_t uuid)
{
	size_t i;

	if (S.tcap == 0)
		return NULL;
	for (i = tl_hash64(uuid) & (S.tcap - 1); S.tix[i];
	    i = (i + 1) & (S.tcap - 1))
		if (S.trk[S.tix[i] - 1].uuid == uuid)
			return &S.trk[S.tix[i] - 1];
	return NULL;
}

/* The track of uuid, made if new: pointers to tracks move. */
static struct track *
gettrack(uint64_t uuid)
{
	struct track *t;
	size_t i, j, oc;
	size_t *old;

	if ((t = findtrack(uuid)) != NULL)
		return t;
	if (2 * (S.ntrk + 1) > S.tcap) {
		old = S.tix;
		oc = S.tcap;
		S.tcap = S.tcap ? 2 * S.tcap : 64;
		S.tix = xcalloc(S.tcap, sizeof *S.tix);
		for (j = 0; j < oc; j++)
			if (old[j]) {
				for (i = tl_hash64(S.trk[old[j] - 1].uuid) &
				    (S.tcap - 1); S.tix[i];
				    i = (i + 1) & (S.tcap - 1))
					;
				S.tix[i] = old[j];
			}
		free(old);
	}
	xgrow(&S.trk, &S.captrk, S.ntrk + 1, sizeof *S.trk);
	memset(&S.trk[S.ntrk], 0, sizeof *S.trk);
	S.trk[S.ntrk].uuid = uuid;
	for (i = tl_hash64(uuid) & (S.tcap - 1); S.tix[i];
	    i = (i + 1) & (S.tcap - 1))
		;
	S.tix[i] = ++S.ntrk;
	return &S.trk[S.ntrk - 1];
}

static void
setstr(struct str *d, const void *s, size_t n)
{
	free(d->s);
	d->s = xmemdup(s, n);
	d->n = n;
}

/* Walk a message; on a malformed one, warn and return -1. */
#define EACH(m, f, r)	while (((r) = tl_pb_next((m), (f))) > 0)

static int
badmsg(const char *what)
{
	warn("%s: %s at byte %" PRIu64 " (packet skipped)", what,
	    tl_pb_why(), tl_pb_at());
	return -1;
}

static int
sub(struct tl_pb *m, const struct tl_pbf *f, const char *what)
{
	if (tl_pb_sub(m, f) < 0) {
		warn("%s: field %" PRIu32 " is not a message (packet skipped)",
		    what, f->num);
		return -1;
	}
	return 0;
}

/* InternedData: the four tables used. */
static int
interned(struct seq *q, const struct tl_pbf *fd)
{
	struct tl_pb m, e;
	struct tl_pbf f, g;
	int r, r2, t;
	uint64_t iid;
	const unsigned char *s;
	size_t n;

	if (sub(&m, fd, "interned_data") < 0)
		return -1;
	EACH(&m, &f, r) {
		switch (f.num) {
		case 1: t = T_CAT; break;
		case 2: t = T_NAME; break;
		case 3: t = T_ANAME; break;
		case 29: t = T_ASTR; break;
		default: continue;
		}
		if (sub(&e, &f, "interned_data") < 0)
			return -1;
		iid = 0;
		s = NULL;
		n = 0;
		EACH(&e, &g, r2) {
			if (g.num == 1 && g.wire == TL_PB_VARINT)
				iid = g.v;
			else if (((t != T_ASTR && g.num == 2) ||
			    (t == T_ASTR && g.num == 2)) &&
			    g.wire == TL_PB_LEN) {
				s = g.data;
				n = g.len;
			}
		}
		if (r2 < 0)
			return badmsg("interned_data");
		iput(&q->tab[t], iid, s ? (const void *)s : "", n);
	}
	return r < 0 ? badmsg("interned_data") : 0;
}

static int
defaults(struct seq *q, const struct tl_pbf *fd)
{
	struct tl_pb m, e;
	struct tl_pbf f, g;
	int r, r2;

	if (sub(&m, fd, "trace_packet_defaults") < 0)
		return -1;
	EACH(&m, &f, r) {
		if (f.num == 58 && f.wire == TL_PB_VARINT) {
			q->hasclock = 1;
			q->defclock = (uint32_t)f.v;
		} else if (f.num == 11 && f.wire == TL_PB_LEN) {
			if (sub(&e, &f, "track_event_defaults") < 0)
				return -1;
			EACH(&e, &g, r2)
				if (g.num == 11 && g.wire == TL_PB_VARINT) {
					q->hastrack = 1;
					q->deftrack = g.v;
				}
			if (r2 < 0)
				return badmsg("track_event_defaults");
		}
	}
	return r < 0 ? badmsg("trace_packet_defaults") : 0;
}

static struct clock *
findclock(struct clock **v, size_t *n, uint32_t id, int add)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*v)[i].id == id)
			return &(*v)[i];
	if (!add)
		return NULL;
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	memset(&(*v)[*n], 0, sizeof **v);
	(*v)[*n].id = id;
	return &(*v)[(*n)++];
}

static int
snapshot(struct seq *q, const struct tl_pbf *fd)
{
	struct tl_pb m, e;
	struct tl_pbf f, g;
	int r, r2, inc, has6 = 0;
	uint32_t id;
	uint64_t ts, mult;
	int64_t t6 = 0;
	struct clock *c;
	size_t i;

	/* Clock 6's value first, then every clock against it. */
	for (i = 0; i < 2; i++) {
		if (sub(&m, fd, "clock_snapshot") < 0)
			return -1;
		EACH(&m, &f, r) {
			if (f.num != 1 || f.wire != TL_PB_LEN)
				continue;
			if (sub(&e, &f, "clock_snapshot") < 0)
				return -1;
			id = 0;
			ts = 0;
			mult = 1;
			inc = 0;
			EACH(&e, &g, r2) {
				if (g.wire != TL_PB_VARINT)
					continue;
				if (g.num == 1)
					id = (uint32_t)g.v;
				else if (g.num == 2)
					ts = g.v;
				else if (g.num == 3)
					inc = g.v != 0;
				else if (g.num == 4)
					mult = g.v ? g.v : 1;
			}
			if (r2 < 0)
				return badmsg("clock_snapshot");
			if (i == 0) {
				if (id == CLOCK_BOOT) {
					has6 = 1;
					t6 = (int64_t)ts;
				}
				continue;
			}
			c = id >= 64 && id < 128 ?
			    findclock(&q->clk, &q->nclk, id, 1) :
			    findclock(&S.gclk, &S.ngclk, id, 1);
			c->incremental = inc;
			c->mult = mult;
			c->snap = (int64_t)ts;
			c->last = (int64_t)ts;
			c->has6 = has6;
			c->snap6 = t6;
		}
		if (r < 0)
			return badmsg("clock_snapshot");
	}
	return 0;
}

/* The packet's time in the trace clock: 0, or -1 (warned). */
static int
packettime(struct seq *q, int hasts, uint64_t ts, int hasclk, uint32_t clk,
    int64_t *out)
{
	struct clock *c;
	int64_t v;

	if (!hasclk)
		clk = q->hasclock ? q->defclock : CLOCK_BOOT;
	c = clk >= 64 && clk < 128 ? findclock(&q->clk, &q->nclk, clk, 0) :
	    findclock(&S.gclk, &S.ngclk, clk, 0);
	if (c == NULL) {
		if (clk >= 64 && clk < 128) {
			warn("clock %" PRIu32 " has no snapshot on sequence %"
			    PRIu32 " (packet skipped)", clk, q->id);
			return -1;
		}
		*out = hasts ? (int64_t)ts : 0;
		return 0;
	}
	if (c->incremental) {
		if (__builtin_add_overflow(c->last, (int64_t)(hasts ? ts : 0),
		    &v))
			goto range;
		c->last = v;
	} else
		v = hasts ? (int64_t)ts : 0;
	if (!c->has6) {
		*out = v;
		return 0;
	}
	if (__builtin_sub_overflow(v, c->snap, &v) ||
	    __builtin_mul_overflow(v, (int64_t)c->mult, &v) ||
	    __builtin_add_overflow(v, c->snap6, out))
		goto range;
	return 0;
range:
	warn("clock %" PRIu32 " on sequence %" PRIu32 ": a time past the "
	    "64-bit range (packet skipped)", clk, q->id);
	return -1;
}

static int
descriptor(const struct tl_pbf *fd)
{
	struct tl_pb m, e;
	struct tl_pbf f, g;
	struct track *t;
	int r, r2, isthr;
	uint64_t uuid = 0;
	int hasuuid = 0;

	if (sub(&m, fd, "track_descriptor") < 0)
		return -1;
	EACH(&m, &f, r)
		if (f.num == 1 && f.wire == TL_PB_VARINT) {
			uuid = f.v;
			hasuuid = 1;
		}
	if (r < 0)
		return badmsg("track_descriptor");
	if (!hasuuid) {
		warn("track descriptor without a uuid (ignored)");
		return 0;
	}
	t = gettrack(uuid);
	tl_pb_sub(&m, fd);
	EACH(&m, &f, r) {
		switch (f.num) {
		case 5:
			if (f.wire == TL_PB_VARINT) {
				t->parent = f.v;
				t->hasparent = 1;
			}
			break;
		case 2: case 10: case 13:
			if (f.wire == TL_PB_LEN)
				setstr(&t->name, f.data, f.len);
			break;
		case 3: case 4:
			if (f.wire != TL_PB_LEN)
				break;
			isthr = f.num == 4;
			if (sub(&e, &f, "track_descriptor") < 0)
				return -1;
			if (isthr)
				t->isthread = 1;
			else
				t->isproc = 1;
			EACH(&e, &g, r2) {
				if (g.num == 1 && g.wire == TL_PB_VARINT)
					t->pid = (int32_t)g.v;
				else if (isthr && g.num == 2 &&
				    g.wire == TL_PB_VARINT)
					t->tid = (int32_t)g.v;
				else if (g.wire == TL_PB_LEN &&
				    g.num == (isthr ? 5u : 6u))
					setstr(isthr ? &t->tname : &t->pname,
					    g.data, g.len);
			}
			if (r2 < 0)
				return badmsg("track_descriptor");
			break;
		}
	}
	return 0;
}

/* The pid of a track: its own, or its nearest ancestor's. */
static int
trackpid(const struct track *t, int64_t *pid)
{
	int depth;

	for (depth = 0; t != NULL && depth < 64; depth++) {
		if (t->isthread || t->isproc) {
			*pid = t->pid;
			return 1;
		}
		if (!t->hasparent)
			return 0;
		t = findtrack(t->parent);
	}
	return 0;
}

static void
jnum(struct tl_out *j, double v)
{
	char b[TL_PY_FLOATMAX];

	if (!isfinite(v)) {
		tl_out_raw(j, "null", 4);
		return;
	}
	tl_py_float(b, sizeof b, v);
	tl_out_raw(j, b, strlen(b));
}

static void
ju64(struct tl_out *j, uint64_t v)
{
	struct tlp_row r;

	tlp_row_u64(&r, 0, v);
	tl_out_raw(j, r.s[0], r.n[0]);
}

static void
ji64(struct tl_out *j, int64_t v)
{
	char b[TL_I64_MAX];

	tl_out_raw(j, b, tl_fmt_i64(b, v));
}

/*
 * One DebugAnnotation as JSON: "name": value when named is set, else the
 * value alone (an array element). corr/stream: a top-level integer
 * annotation of that name. -1 on a malformed message (warned).
 */
static int
annot(struct seq *q, const struct tl_pbf *fd, int named, int depth,
    struct open *op)
{
	struct tl_pb m, e;
	struct tl_pbf f, vf;
	struct str *s, nm = { NULL, 0 };
	const struct str *nj = NULL;	/* nm's JSON when interned */
	int r, hasv = 0, n;
	char b[24];

	if (depth > 32) {
		warn("debug annotations nested too deep (packet skipped)");
		return -1;
	}
	if (sub(&m, fd, "debug_annotation") < 0)
		return -1;
	memset(&vf, 0, sizeof vf);
	EACH(&m, &f, r) {
		if (f.num == 1 && f.wire == TL_PB_VARINT) {
			if ((s = iget(&q->tab[T_ANAME], f.v)) == NULL)
				warn("interned id %" PRIu64 " (%s) not defined "
				    "on sequence %" PRIu32, f.v,
				    tabname[T_ANAME], q->id);
			else {
				nm = *s;
				nj = named ? ijson(&q->tab[T_ANAME], f.v) :
				    NULL;
			}
		} else if (f.num == 10 && f.wire == TL_PB_LEN) {
			nm.s = (char *)f.data;
			nm.n = f.len;
			nj = NULL;
		} else if ((f.num >= 2 && f.num <= 9) || f.num == 11 ||
		    f.num == 12 || f.num == 17) {
			vf = f;
			hasv = 1;
		}
	}
	if (r < 0)
		return badmsg("debug_annotation");
	if (named) {
		if (nj != NULL)
			tl_out_raw(&S.j, nj->s, nj->n);
		else
			tlp_jstr(&S.j, nm.s ? nm.s : "", nm.n, NULL);
		tl_out_char(&S.j, ':');
	}
	if (!hasv) {
		tl_out_raw(&S.j, "null", 4);
		return 0;
	}
	switch (vf.num) {
	case 2:
		if (vf.v)
			tl_out_raw(&S.j, "true", 4);
		else
			tl_out_raw(&S.j, "false", 5);
		break;
	case 3:
		ju64(&S.j, vf.v);
		break;
	case 4:
		ji64(&S.j, (int64_t)vf.v);
		break;
	case 5:
		jnum(&S.j, vf.wire == TL_PB_I64 ? tl_pb_double(vf.v) :
		    (double)vf.v);
		break;
	case 6: case 9:
		if (vf.wire == TL_PB_LEN)
			tlp_jstr(&S.j, (const char *)vf.data, vf.len, NULL);
		else
			tl_out_raw(&S.j, "null", 4);
		break;
	case 7:
		n = snprintf(b, sizeof b, "\"0x%" PRIx64 "\"", vf.v);
		tl_out_raw(&S.j, b, (size_t)n);
		break;
	case 17:
		if ((s = iget(&q->tab[T_ASTR], vf.v)) == NULL) {
			warn("interned id %" PRIu64 " (%s) not defined on "
			    "sequence %" PRIu32, vf.v, tabname[T_ASTR],
			    q->id);
			tl_out_raw(&S.j, "null", 4);
		} else
			tlp_jstr(&S.j, s->s, s->n, NULL);
		break;
	case 11: case 12:
		/* Every entry of the repeated field. */
		tl_out_char(&S.j, vf.num == 11 ? '{' : '[');
		tl_pb_sub(&m, fd);
		n = 0;
		EACH(&m, &f, r) {
			if (f.num != vf.num || f.wire != TL_PB_LEN)
				continue;
			if (n++ > 0)
				tl_out_char(&S.j, ',');
			if (annot(q, &f, vf.num == 11, depth + 1, NULL) < 0)
				return -1;
		}
		tl_out_char(&S.j, vf.num == 11 ? '}' : ']');
		break;
	default:		/* nested_value (legacy), proto_value */
		tl_out_raw(&S.j, "null", 4);
	}
	(void)e;
	if (op != NULL && named && (vf.num == 3 || vf.num == 4) && nm.s) {
		if (nm.n == 7 && memcmp(nm.s, "corr_id", 7) == 0) {
			op->hascorr = 1;
			op->corr = (int64_t)vf.v;
		} else if (nm.n == 9 && memcmp(nm.s, "stream_ID", 9) == 0) {
			op->hasstream = 1;
			op->stream = (int64_t)vf.v;
		}
	}
	return 0;
}

static void
freeopen(struct open *op)
{
	free(op->name.s);
	free(op->cat.s);
	free(op->args.s);
}

/* Write the slice op on track t, ending at end (hasend 0: still open). */
static void
emit(struct track *t, struct open *op, int hasend, int64_t end)
{
	struct tlp_row r;
	struct str *tn;
	int64_t pid;
	size_t nn, nc;
	char *cs;

	tlp_row_clear(&r);
	tlp_row_u64(&r, TLP_UID, S.nrow++);
	S.nslice++;
	tlp_row_str(&r, TLP_PH, "X", 1);
	/* Strings checked for UTF-8 (names come from the file). */
	nc = tlp_utf8(&S.cbuf, &S.ccap, op->cat.s, op->cat.n, NULL);
	cs = S.cbuf;
	tlp_row_str(&r, TLP_CAT, cs, nc);
	nn = tlp_utf8(&S.ubuf, &S.ucap, op->name.s, op->name.n, NULL);
	tlp_row_str(&r, TLP_NAME, S.ubuf, nn);
	if (trackpid(t, &pid))
		tlp_row_i64(&r, TLP_PID, pid);
	if (t->isthread)
		tlp_row_i64(&r, TLP_TID, t->tid);
	tlp_row_i64(&r, TLP_TS, op->ts);
	if (hasend) {
		if (end >= op->ts)
			tlp_row_i64(&r, TLP_DUR, end - op->ts);
		else
			warn("slice ends before it begins (%" PRId64 " < %"
			    PRId64 " ns): no duration", end, op->ts);
	}
	if (op->hasstream)
		tlp_row_i64(&r, TLP_STREAM, op->stream);
	if (op->hascorr)
		tlp_row_i64(&r, TLP_CORR, op->corr);
	tlp_row_json(&r, TLP_ARGS, op->args.s, op->args.n);
	tn = t->name.s ? &t->name : t->tname.s ? &t->tname : &t->pname;
	S.e.n = 0;
	tl_out_raw(&S.e, "{\"track\":", 9);
	tlp_jstr(&S.e, tn->s ? tn->s : "", tn->n, NULL);
	tl_out_char(&S.e, '}');
	tlp_row_json(&r, TLP_EXTRA, S.e.buf, S.e.n);
	tlp_row_put(S.x, &r);
	if (op->hascorr && ((nc == 15 && memcmp(cs, "kernel_dispatch", 15) ==
	    0) || (nc == 11 && memcmp(cs, "memory_copy", 11) == 0))) {
		tlp_flows(S.x, &r, S.nrow, op->corr);
		S.nrow += 2;
	}
}

static int
trackevent(struct seq *q, const struct tl_pbf *fd, int64_t ts)
{
	struct tl_pb m;
	struct tl_pbf f;
	struct open op;
	struct track *t;
	struct str *s;
	uint64_t type = 0, uuid = 0, v;
	int hasuuid = 0, r, ncat = 0, hasname = 0;
	size_t pos;

	if (sub(&m, fd, "track_event") < 0)
		return -1;
	EACH(&m, &f, r) {
		if (f.num == 9 && f.wire == TL_PB_VARINT)
			type = f.v;
		else if (f.num == 11 && f.wire == TL_PB_VARINT) {
			uuid = f.v;
			hasuuid = 1;
		} else if (f.num == 16 && f.wire == TL_PB_VARINT) {
			/* timestamp_absolute_us */
			if (f.v > (uint64_t)INT64_MAX / 1000) {
				warn("track event on sequence %" PRIu32 ": "
				    "timestamp_absolute_us past the 64-bit "
				    "range (packet skipped)", q->id);
				return 0;
			}
			ts = (int64_t)f.v * 1000;
		}
	}
	if (r < 0)
		return badmsg("track_event");
	if (type != 1 && type != 2 && type != 3)
		return 0;	/* counters, legacy events */
	if (!hasuuid) {
		if (q->hastrack)
			uuid = q->deftrack;
		/* else track 0: a track without a descriptor */
	}
	t = gettrack(uuid);
	if (type == 2) {
		if (t->nstk == 0) {
			warn("slice end on a track with no open slice "
			    "(uuid %" PRIu64 ", ignored)", uuid);
			return 0;
		}
		op = t->stk[--t->nstk];
		emit(t, &op, 1, ts);
		freeopen(&op);
		return 0;
	}
	memset(&op, 0, sizeof op);
	op.ts = ts;
	S.cat.n = 0;
	S.j.n = 0;
	tl_out_char(&S.j, '{');
	tl_pb_sub(&m, fd);
	EACH(&m, &f, r) {
		switch (f.num) {
		case 3:
			pos = 0;
			while (tl_pb_packed(&f, &pos, &v) > 0) {
				if ((s = iget(&q->tab[T_CAT], v)) == NULL) {
					warn("interned id %" PRIu64 " (%s) not "
					    "defined on sequence %" PRIu32, v,
					    tabname[T_CAT], q->id);
					continue;
				}
				if (ncat++ > 0)
					tl_out_char(&S.cat, ',');
				tl_out_raw(&S.cat, s->s, s->n);
			}
			break;
		case 22:
			if (f.wire != TL_PB_LEN)
				break;
			if (ncat++ > 0)
				tl_out_char(&S.cat, ',');
			tl_out_raw(&S.cat, (const char *)f.data, f.len);
			break;
		case 10:
			if (f.wire != TL_PB_VARINT)
				break;
			if ((s = iget(&q->tab[T_NAME], f.v)) == NULL)
				warn("interned id %" PRIu64 " (%s) not defined "
				    "on sequence %" PRIu32, f.v,
				    tabname[T_NAME], q->id);
			else {
				setstr(&op.name, s->s, s->n);
				hasname = 1;
			}
			break;
		case 23:
			if (f.wire == TL_PB_LEN) {
				setstr(&op.name, f.data, f.len);
				hasname = 1;
			}
			break;
		case 4:
			if (f.wire != TL_PB_LEN)
				break;
			if (S.j.n > 1)
				tl_out_char(&S.j, ',');
			if (annot(q, &f, 1, 0, &op) < 0) {
				freeopen(&op);
				return -1;
			}
			break;
		}
	}
	tl_out_char(&S.j, '}');
	if (!hasname)
		setstr(&op.name, "", 0);
	setstr(&op.cat, S.cat.n ? S.cat.buf : "", S.cat.n);
	setstr(&op.args, S.j.buf, S.j.n);
	if (type == 3) {
		emit(t, &op, 1, ts);
		freeopen(&op);
		return 0;
	}
	xgrow(&t->stk, &t->capstk, t->nstk + 1, sizeof *t->stk);
	t->stk[t->nstk++] = op;
	return 0;
}

static void
packet(const unsigned char *p, size_t n)
{
	struct tl_pb m;
	struct tl_pbf f, ev, desc, snap, defs, *idata = NULL;
	size_t nidata = 0, i;
	int r, hasev = 0, hasdesc = 0, hassnap = 0, hasdefs = 0;
	int hasts = 0, hasclk = 0, clear = 0, dropped = 0, needs = 0;
	uint64_t ts = 0, flags;
	uint32_t clk = 0, seqid = 0;
	struct seq *q;
	int64_t t;

	S.npkt++;
	tl_pb_init(&m, p, n, S.off);
	EACH(&m, &f, r) {
		switch (f.num) {
		case 8:
			if (f.wire == TL_PB_VARINT) {
				hasts = 1;
				ts = f.v;
			}
			break;
		case 58:
			if (f.wire == TL_PB_VARINT) {
				hasclk = 1;
				clk = (uint32_t)f.v;
			}
			break;
		case 10:
			if (f.wire == TL_PB_VARINT)
				seqid = (uint32_t)f.v;
			break;
		case 13:
			if (f.wire == TL_PB_VARINT) {
				flags = f.v;
				clear |= (flags & 1) != 0;
				needs |= (flags & 2) != 0;
			}
			break;
		case 41:
			if (f.wire == TL_PB_VARINT && f.v)
				clear = 1;
			break;
		case 42:
			if (f.wire == TL_PB_VARINT && f.v)
				dropped = 1;
			break;
		case 12:
			idata = xreallocarray(idata, nidata + 1, sizeof *idata);
			idata[nidata++] = f;
			break;
		case 59:
			defs = f;
			hasdefs = 1;
			break;
		case 6:
			snap = f;
			hassnap = 1;
			break;
		case 11:
			ev = f;
			hasev = 1;
			break;
		case 60:
			desc = f;
			hasdesc = 1;
			break;
		case 50:
			warn("compressed packets are not supported (skipped)");
			break;
		}
	}
	if (r < 0) {
		badmsg("packet");
		goto out;
	}
	q = getseq(seqid);
	if (dropped)
		q->valid = 0;
	if (clear) {
		clearseq(q);
		q->valid = 1;
	}
	if (needs && !q->valid) {
		S.nskip++;
		goto out;
	}
	if (hasdefs && defaults(q, &defs) < 0)
		goto out;
	for (i = 0; i < nidata; i++)
		if (interned(q, &idata[i]) < 0)
			goto out;
	if (hassnap && snapshot(q, &snap) < 0)
		goto out;
	if (hasdesc && descriptor(&desc) < 0)
		goto out;
	if (hasts || hasev) {
		if (packettime(q, hasts, ts, hasclk, clk, &t) < 0)
			goto out;
		if (hasev)
			trackevent(q, &ev, t);
	}
out:
	free(idata);
}

int
tlp_pftrace(struct tl_src *src, const struct tlp_ctx *x)
{
	struct tl_pbin in;
	struct tl_pbf f;
	const unsigned char *p;
	size_t i, k;
	int r, status = 0;
	const char *why;

	memset(&S, 0, sizeof S);
	S.x = x;
	tl_out_init(&S.j, -1, "(args)");
	tl_out_init(&S.e, -1, "(extra)");
	tl_out_init(&S.cat, -1, "(category)");
	tlp_trace_file(x);
	tl_pbin_init(&in, src);
	for (;;) {
		S.off = in.off;
		if ((r = tl_pbin_field(&in, &f)) == 0)
			break;
		if (r < 0) {
			why = tl_pb_why();
			if (strncmp(why, "truncated", 9) == 0)
				warn("%s: the last packet is cut off (dropped)",
				    why);
			else {
				tl_warnx("%s:%" PRIu64 ": %s (not a Perfetto "
				    "trace from here on)", x->name, tl_pb_at(),
				    why);
				status = -1;
			}
			break;
		}
		if (f.wire != TL_PB_LEN)
			continue;
		if (f.num != 1 || f.len > PKTMAX) {
			if (f.num == 1)
				warn("packet of %zu bytes, above %zu "
				    "(skipped)", f.len, PKTMAX);
			if (tl_pbin_skip(&in, f.len) < 0) {
				warn("%s: the last packet is cut off "
				    "(dropped)", tl_pb_why());
				break;
			}
			continue;
		}
		if (tl_pbin_take(&in, f.len, &p) < 0) {
			warn("%s: the last packet is cut off (dropped)",
			    tl_pb_why());
			break;
		}
		S.off = in.off - f.len;
		/* An empty packet: no buffer (and no NULL + 0). */
		packet(f.len > 0 ? p : (const unsigned char *)"", f.len);
	}
	/* Slices still open: no duration. */
	for (i = 0; i < S.ntrk; i++)
		for (k = 0; k < S.trk[i].nstk; k++) {
			S.nopen++;
			emit(&S.trk[i], &S.trk[i].stk[k], 0, 0);
			freeopen(&S.trk[i].stk[k]);
		}
	tl_warns_end(&S.warns, x->name);
	if (S.nskip + S.nwarn + S.nopen > 0 || x->verbose)
		tl_warnx("%s: %" PRIu64 " slices from %" PRIu64 " packets; %"
		    PRIu64 " packets skipped (incremental state not valid), %"
		    PRIu64 " slices still open at the end, %" PRIu64
		    " warnings", x->name, S.nslice, S.npkt, S.nskip, S.nopen,
		    S.nwarn);
	if (x->strict && S.nwarn > 0)
		status = -1;
	tl_pbin_free(&in);
	for (i = 0; i < S.nseq; i++)
		clearseq(&S.seq[i]);
	free(S.seq);
	for (i = 0; i < S.ntrk; i++) {
		free(S.trk[i].name.s);
		free(S.trk[i].tname.s);
		free(S.trk[i].pname.s);
		free(S.trk[i].stk);
	}
	free(S.trk);
	free(S.tix);
	free(S.gclk);
	free(S.ubuf);
	free(S.cbuf);
	tl_out_close(&S.j);
	tl_out_close(&S.e);
	tl_out_close(&S.cat);
	return status;
}
