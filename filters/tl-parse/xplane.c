/*
 * tl-parse: the XPlane reader. A JAX / XLA profile (*.xplane.pb) is one
 * serialized XSpace message: planes (a GPU each, the host, the compiled
 * HLO modules), each with lines (a GPU stream, a host thread) of events,
 * and per-plane maps from ids to event and stat names. The maps come
 * after the lines in the file, so the input is first mapped into memory
 * (the buffer of a stream held whole, the file itself with mmap(2), or
 * a spooled copy of a compressed or piped stream): a first pass records
 * where each plane's lines and maps are and reads the maps; a second
 * writes the events plane by plane in TraceLens's UID order, each line's
 * events sorted, releasing each line's pages once it is written. Memory
 * is the maps, the HLO modules, and an index of 40 bytes per event of
 * the largest line.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/mman.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/mem.h"
#include "../../common/pb.h"
#include "../../common/pyfmt.h"
#include "../../common/tsv.h"
#include "xplane.h"

struct xs {			/* a string: a view into the input or arena */
	const char *p;
	size_t n;
};

struct span {			/* a message's bytes, and their offset */
	const unsigned char *p;
	size_t n;
	uint64_t off;
};

struct emeta {			/* XEventMetadata */
	int64_t id;
	struct xs name, dname;
	struct span msg;
	int internal;		/* an event type the conversion drops */
	int nstats;		/* its stats */
};

struct smeta {			/* XStatMetadata */
	int64_t id;
	struct xs name;
};

enum { P_GPU, P_CUSTOM, P_HOST, P_OTHER };

struct plane {
	int64_t id;
	struct xs name;
	int kind, pid;
	size_t idx;			/* in the file */
	struct emeta *em;
	size_t nem;
	struct smeta *sm;
	size_t nsm;
	struct span *ln;
	size_t nln;
	uint64_t off;
};

/* An HLO instruction's facts, the strings TraceLens derives (spec 4.2). */
struct hinst {
	struct xs name;			/* without the % */
	struct xs output, meta, cct, bcfg;	/* empty p: absent */
	struct xs *ops;
	size_t nops;
	int hasmeta, hascct, hasbcfg;
};

struct module {
	struct xs name;			/* <module>(<program id>) */
	struct xs base;			/* <module> */
	int64_t progid;
	struct span proto;
	int parsed, bad;
	struct hinst *in;
	size_t nin;
};

/* A GPU or host event of the line being written. */
struct xev {
	int64_t ts, dur;		/* ps */
	struct emeta *m;
	struct xs name;
	struct span msg;
};

static const char *xname;	/* the trace's name, for messages */
static struct tl_out *xo;
static void (*xend)(void);
static int (*xleft)(const char *, size_t, void *);
static struct tl_warns xwarn;

static struct plane *pl;
static size_t npl, cappl;
static struct xs hostname;
static struct module *mods;
static size_t nmods, capmods;
static struct module *metaplane_mods;

static struct xev *evs;
static size_t capevs;
static char *arena;		/* strings made for the HLO facts */
static struct tl_out tmp, js;	/* scratch writers */
static int64_t nextuid, nextmuid;
static uint64_t nbadref, nbadstat, nbadmeta;

static const char *const internal_events[] = {
	"MemoryAllocation", "MemoryDeallocation", "PrefetchProduce",
	"PrefetchConsume", "ParallelInterleaveProduce",
	"ParallelInterleaveConsume", "ParallelMapProduce",
	"ParallelMapConsume", "MapAndBatchProduce", "MapAndBatchConsume",
	"ParseExampleProduce", "ParseExampleConsume", NULL
};

/* Stats the conversion leaves out of args (kernel_details is kept). */
static const char *const internal_stats[] = {
	"program_id", "flops", "bytes_accessed", "is_root", "symbol_id",
	"_p", "_pt", "_c", "_ct", "group_id", "flow", "is_async", NULL
};

static int
xseq(struct xs s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && memcmp(s.p, lit, n) == 0;
}

static int
xsprefix(struct xs s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n >= n && memcmp(s.p, lit, n) == 0;
}

static int
inlist(const char *const *v, struct xs s)
{
	for (; *v != NULL; v++)
		if (xseq(s, *v))
			return 1;
	return 0;
}

/* tl_pb_init, for an absent (NULL, 0) message too. */
static void
pbinit(struct tl_pb *m, const void *p, size_t n, uint64_t off)
{
	static const unsigned char none[1];

	tl_pb_init(m, p != NULL ? p : none, p != NULL ? n : 0, off);
}

/* A located error: "tl-parse: NAME:OFFSET: what". */
static int
bad(uint64_t off, const char *what)
{
	tl_warnx("%s:%" PRIu64 ": %s", xname, off, what);
	return -1;
}

static int
badpb(void)
{
	return bad(tl_pb_at(), tl_pb_why());
}

/* Enter LEN field f as a message: -1 with a message if it is not LEN. */
static int
sub(struct tl_pb *m, const struct tl_pbf *f, const char *what)
{
	char msg[128];

	if (tl_pb_sub(m, f) == 0)
		return 0;
	snprintf(msg, sizeof msg, "%s: wire type %d does not match the field",
	    what, (int)f->wire);
	return bad(f->off, msg);
}

static int
wantvar(const struct tl_pbf *f, const char *what)
{
	char msg[128];

	if (f->wire == TL_PB_VARINT)
		return 0;
	snprintf(msg, sizeof msg, "%s: wire type %d does not match the field",
	    what, (int)f->wire);
	return bad(f->off, msg);
}

static int
wantlen(const struct tl_pbf *f, const char *what)
{
	char msg[128];

	if (f->wire == TL_PB_LEN)
		return 0;
	snprintf(msg, sizeof msg, "%s: wire type %d does not match the field",
	    what, (int)f->wire);
	return bad(f->off, msg);
}

static struct xs
fstr(const struct tl_pbf *f)
{
	struct xs s = { (const char *)f->data, f->len };

	return s;
}

/* ---- pass 1: planes and their maps ---- */

static int
emcmp(const void *a, const void *b)
{
	const struct emeta *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int
smcmp(const void *a, const void *b)
{
	const struct smeta *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* A map entry (key 1, value 2): the value's span, and the key. */
static int
mapentry(const struct tl_pbf *f, int64_t *key, struct tl_pbf *val,
    const char *what)
{
	struct tl_pb m;
	struct tl_pbf g;
	int r, have = 0;

	if (sub(&m, f, what) < 0)
		return -1;
	*key = 0;
	while ((r = tl_pb_next(&m, &g)) == 1) {
		if (g.num == 1) {
			if (wantvar(&g, what) < 0)
				return -1;
			*key = (int64_t)g.v;
		} else if (g.num == 2) {
			if (wantlen(&g, what) < 0)
				return -1;
			*val = g;
			have = 1;
		}
	}
	if (r < 0)
		return badpb();
	if (!have) {		/* an empty value message */
		memset(val, 0, sizeof *val);
		val->wire = TL_PB_LEN;
		val->data = m.end;
		val->off = m.off;
	}
	return 0;
}

static int
reademeta(struct plane *P, const struct tl_pbf *f)
{
	struct tl_pbf v, g;
	struct tl_pb m;
	struct emeta *e;
	int64_t key;
	int r;

	if (mapentry(f, &key, &v, "event_metadata") < 0 ||
	    sub(&m, &v, "event_metadata") < 0)
		return -1;
	P->em = xreallocarray(P->em, P->nem + 1, sizeof *P->em);
	e = &P->em[P->nem++];
	memset(e, 0, sizeof *e);
	e->name.p = e->dname.p = "";
	e->id = key;
	e->msg.p = v.data;
	e->msg.n = v.len;
	e->msg.off = m.off;
	while ((r = tl_pb_next(&m, &g)) == 1) {
		if (g.num == 2 || g.num == 4) {
			if (wantlen(&g, "event metadata name") < 0)
				return -1;
			if (g.num == 2)
				e->name = fstr(&g);
			else
				e->dname = fstr(&g);
		} else if (g.num == 1 && wantvar(&g, "event metadata id") < 0)
			return -1;
		else if (g.num == 5)
			e->nstats++;
	}
	if (r < 0)
		return badpb();
	e->internal = inlist(internal_events, e->name);
	return 0;
}

static int
readsmeta(struct plane *P, const struct tl_pbf *f)
{
	struct tl_pbf v, g;
	struct tl_pb m;
	struct smeta *s;
	int64_t key;
	int r;

	if (mapentry(f, &key, &v, "stat_metadata") < 0 ||
	    sub(&m, &v, "stat_metadata") < 0)
		return -1;
	P->sm = xreallocarray(P->sm, P->nsm + 1, sizeof *P->sm);
	s = &P->sm[P->nsm++];
	s->id = key;
	s->name.p = "";
	s->name.n = 0;
	while ((r = tl_pb_next(&m, &g)) == 1)
		if (g.num == 2) {
			if (wantlen(&g, "stat metadata name") < 0)
				return -1;
			s->name = fstr(&g);
		}
	if (r < 0)
		return badpb();
	return 0;
}

static struct emeta *
findem(const struct plane *P, int64_t id)
{
	size_t lo = 0, hi = P->nem, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (P->em[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < P->nem && P->em[lo].id == id ? &P->em[lo] : NULL;
}

static struct smeta *
findsm(const struct plane *P, int64_t id)
{
	size_t lo = 0, hi = P->nsm, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (P->sm[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < P->nsm && P->sm[lo].id == id ? &P->sm[lo] : NULL;
}

/* Keep the last of equal ids, as a protobuf map does. */
static void
dedupe(struct plane *P)
{
	size_t i, k;

	/* A stable sort keeps file order among equal ids: merge by hand. */
	if (P->nem > 1) {
		qsort(P->em, P->nem, sizeof *P->em, emcmp);
		for (i = k = 0; i < P->nem; i++) {
			if (k > 0 && P->em[k - 1].id == P->em[i].id &&
			    P->em[k - 1].msg.off < P->em[i].msg.off)
				P->em[k - 1] = P->em[i];
			else if (k > 0 && P->em[k - 1].id == P->em[i].id)
				continue;
			else
				P->em[k++] = P->em[i];
		}
		P->nem = k;
	}
	if (P->nsm > 1) {
		qsort(P->sm, P->nsm, sizeof *P->sm, smcmp);
		for (i = k = 0; i < P->nsm; i++)
			if (k == 0 || P->sm[k - 1].id != P->sm[i].id)
				P->sm[k++] = P->sm[i];
		P->nsm = k;
	}
}

static void release(struct span);
static uintptr_t mapbase, mapend;	/* the mapping, page aligned */

static int
readplane(const struct tl_pbf *f)
{
	struct tl_pb m;
	struct tl_pbf g;
	struct plane *P;
	int r;

	xgrow(&pl, &cappl, npl + 1, sizeof *pl);
	P = &pl[npl];
	memset(P, 0, sizeof *P);
	P->idx = npl++;
	P->off = f->off;
	P->name.p = "";
	if (sub(&m, f, "plane") < 0)
		return -1;
	while ((r = tl_pb_next(&m, &g)) == 1) {
		switch (g.num) {
		case 1:
			if (wantvar(&g, "plane id") < 0)
				return -1;
			P->id = (int64_t)g.v;
			break;
		case 2:
			if (wantlen(&g, "plane name") < 0)
				return -1;
			P->name = fstr(&g);
			break;
		case 3:
			if (wantlen(&g, "line") < 0)
				return -1;
			P->ln = xreallocarray(P->ln, P->nln + 1,
			    sizeof *P->ln);
			P->ln[P->nln].p = g.data;
			P->ln[P->nln].n = g.len;
			P->ln[P->nln].off = g.off;
			release(P->ln[P->nln]);
			P->nln++;
			break;
		case 4:
			if (reademeta(P, &g) < 0)
				return -1;
			break;
		case 5:
			if (readsmeta(P, &g) < 0)
				return -1;
			break;
		}
	}
	if (r < 0)
		return badpb();
	dedupe(P);
	return 0;
}

static int
readspace(const unsigned char *p, size_t n)
{
	struct tl_pb m;
	struct tl_pbf f;
	int r;

	pbinit(&m, p, n, 0);
	while ((r = tl_pb_next(&m, &f)) == 1) {
		if (f.num == 1) {
			if (readplane(&f) < 0)
				return -1;
		} else if (f.num == 4) {
			if (wantlen(&f, "hostname") < 0)
				return -1;
			if (hostname.p == NULL)
				hostname = fstr(&f);
		} else if (f.num == 2 || f.num == 3) {
			if (wantlen(&f, "error") < 0)
				return -1;
			tl_warns(&xwarn, "%s: the profiler %s: %.*s", xname,
			    f.num == 2 ? "reported an error" : "warned",
			    (int)(f.len > 200 ? 200 : f.len), f.data);
		}
	}
	if (r < 0)
		return badpb();
	return 0;
}

/* ---- the HLO modules (spec 4) ---- */

static const char *const ptype[] = {
	"invalid", "pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32",
	"u64", "f16", "f32", "f64", "tuple", "opaque", "c64", "bf16", "token",
	"c128", "f8e5m2", "f8e4m3fn", "s4", "u4", "f8e4m3b11fnuz",
	"f8e5m2fnuz", "f8e4m3fnuz", "s2", "u2", "f8e4m3", "f8e3m4",
	"f8e8m0fnu", "f4e2m1fn", "s1", "u1"
};

/* Print a ShapeProto as XLA does, without spaces, to o. */
static int
putshape(struct tl_out *o, const unsigned char *p, size_t n, int depth)
{
	struct tl_pb m, lm;
	struct tl_pbf f, g;
	uint64_t t = 0, v;
	size_t pos, nd = 0, nl = 0, ntup = 0;
	struct tl_pbf dims[64], lay[8];
	int r, i, haslayout = 0;
	char buf[32];

	if (depth > 32)
		return -1;
	pbinit(&m, p, n, 0);
	while ((r = tl_pb_next(&m, &f)) == 1) {
		if (f.num == 2 && f.wire == TL_PB_VARINT)
			t = f.v;
		else if (f.num == 3 && nd < 64)
			dims[nd++] = f;
		else if (f.num == 4 && f.wire == TL_PB_LEN)
			ntup++;
		else if (f.num == 5 && f.wire == TL_PB_LEN) {
			haslayout = 1;
			if (tl_pb_sub(&lm, &f) < 0)
				return -1;
			while ((r = tl_pb_next(&lm, &g)) == 1)
				if (g.num == 1 && nl < 8)
					lay[nl++] = g;
			if (r < 0)
				return -1;
		}
	}
	if (r < 0)
		return -1;
	if (t == 13) {
		tl_out_char(o, '(');
		pbinit(&m, p, n, 0);
		i = 0;
		while (tl_pb_next(&m, &f) == 1)
			if (f.num == 4 && f.wire == TL_PB_LEN) {
				if (i++ > 0)
					tl_out_char(o, ',');
				if (putshape(o, f.data, f.len, depth + 1) < 0)
					return -1;
			}
		tl_out_char(o, ')');
		return 0;
	}
	if (t < sizeof ptype / sizeof ptype[0])
		tl_out_raw(o, ptype[t], strlen(ptype[t]));
	else {
		snprintf(buf, sizeof buf, "type%" PRIu64, t);
		tl_out_raw(o, buf, strlen(buf));
	}
	tl_out_char(o, '[');
	i = 0;
	for (size_t k = 0; k < nd; k++)
		for (pos = 0; (r = tl_pb_packed(&dims[k], &pos, &v)) == 1;) {
			if (i++ > 0)
				tl_out_char(o, ',');
			tl_out_i64(o, (int64_t)v);
		}
	tl_out_char(o, ']');
	if (haslayout && i > 0) {
		int j = 0;

		tl_out_char(o, '{');
		for (size_t k = 0; k < nl; k++)
			for (pos = 0; tl_pb_packed(&lay[k], &pos, &v) == 1;) {
				if (j++ > 0)
					tl_out_char(o, ',');
				tl_out_i64(o, (int64_t)v);
			}
		tl_out_char(o, '}');
	}
	return 0;
}

/* An instruction as first read: what the facts are made from. */
struct rawinst {
	struct xs name, opcode, cct, bcfg;
	struct span shape, meta;
	int64_t id;
	struct tl_pbf opids[16];
	size_t nopf;
	int root, hascct, hasbcfg, hasmeta;
};

static char *
arenadup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1 + sizeof(char *));

	/* A list of blocks, freed at the end. */
	memcpy(p, &arena, sizeof(char *));
	arena = p;
	memcpy(p + sizeof(char *), s, n);
	p[sizeof(char *) + n] = '\0';
	return p + sizeof(char *);
}

static struct xs
keep(struct tl_out *o)
{
	struct xs s;

	s.p = arenadup(o->buf, o->n);
	s.n = o->n;
	o->n = 0;
	return s;
}

/* TraceLens's line munging on a piece of text. */
static void
munge(struct tl_out *o, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i + 1 < n && ((s[i] == ')' && s[i + 1] == ',') ||
		    (s[i] == ',' && s[i + 1] == ' ') ||
		    (s[i] == ' ' && s[i + 1] == '%'))) {
			tl_out_char(o, s[i] == ' ' ? '%' : s[i]);
			i++;
			continue;
		}
		tl_out_char(o, s[i]);
	}
}

static void
cescape(struct tl_out *o, const char *s, size_t n)
{
	size_t i;
	char b[8];

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\' || c == '\'') {
			tl_out_char(o, '\\');
			tl_out_char(o, (char)c);
		} else if (c == '\n')
			tl_out_raw(o, "\\n", 2);
		else if (c == '\t')
			tl_out_raw(o, "\\t", 2);
		else if (c == '\r')
			tl_out_raw(o, "\\r", 2);
		else if (c < 0x20 || c == 0x7f) {
			snprintf(b, sizeof b, "\\%03o", c);
			tl_out_raw(o, b, 4);
		} else
			tl_out_char(o, (char)c);
	}
}

/* The maximal run of s[0..n) whose bytes are in set. */
static size_t
run(const char *s, size_t n, const char *set)
{
	size_t i;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || (c != 0 && strchr(set, c))))
			break;
	}
	return i;
}

static int
hicmp(const void *a, const void *b)
{
	const struct hinst *x = a, *y = b;
	size_t n = x->name.n < y->name.n ? x->name.n : y->name.n;
	int c = memcmp(x->name.p, y->name.p, n);

	return c != 0 ? c : x->name.n < y->name.n ? -1 : x->name.n > y->name.n;
}

struct idmap {
	int64_t id;
	size_t i;
};

static int
idcmp(const void *a, const void *b)
{
	const struct idmap *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int
readinst(const struct tl_pbf *f, struct rawinst *ri)
{
	struct tl_pb m;
	struct tl_pbf g;
	int r;

	memset(ri, 0, sizeof *ri);
	ri->name.p = ri->opcode.p = ri->cct.p = ri->bcfg.p = "";
	ri->id = -1;
	if (tl_pb_sub(&m, f) < 0)
		return -1;
	while ((r = tl_pb_next(&m, &g)) == 1) {
		if (g.wire == TL_PB_LEN) {
			switch (g.num) {
			case 1: ri->name = fstr(&g); break;
			case 2: ri->opcode = fstr(&g); break;
			case 3:
				ri->shape.p = g.data;
				ri->shape.n = g.len;
				break;
			case 7:
				ri->meta.p = g.data;
				ri->meta.n = g.len;
				ri->hasmeta = 1;
				break;
			case 28: ri->cct = fstr(&g); ri->hascct = 1; break;
			case 43: ri->bcfg = fstr(&g); ri->hasbcfg = 1; break;
			case 36:
				if (ri->nopf < 16)
					ri->opids[ri->nopf++] = g;
				break;
			}
		} else if (g.wire == TL_PB_VARINT) {
			if (g.num == 35)
				ri->id = (int64_t)g.v;
			else if (g.num == 36 && ri->nopf < 16)
				ri->opids[ri->nopf++] = g;
		}
	}
	return r < 0 ? -1 : 0;
}

/* OpMetadata as XLA prints it: op_type="" op_name="" source_file="" ... */
static int
putmeta(struct tl_out *o, struct span s)
{
	struct tl_pb m;
	struct tl_pbf g;
	struct xs f[3] = { { NULL, 0 }, { NULL, 0 }, { NULL, 0 } };
	int64_t line = 0;
	int r, k = 0;
	static const char *const key[] = { "op_type", "op_name",
	    "source_file" };

	pbinit(&m, s.p, s.n, 0);
	while ((r = tl_pb_next(&m, &g)) == 1) {
		if (g.wire == TL_PB_LEN && g.num >= 1 && g.num <= 3)
			f[g.num - 1] = fstr(&g);
		else if (g.wire == TL_PB_VARINT && g.num == 4)
			line = (int32_t)g.v;
	}
	if (r < 0)
		return -1;
	for (int i = 0; i < 3; i++)
		if (f[i].n > 0) {
			if (k++ > 0)
				tl_out_char(o, ' ');
			tl_out_raw(o, key[i], strlen(key[i]));
			tl_out_raw(o, "=\"", 2);
			cescape(o, f[i].p, f[i].n);
			tl_out_char(o, '"');
		}
	if (line != 0) {
		if (k++ > 0)
			tl_out_char(o, ' ');
		tl_out_raw(o, "source_line=", sizeof "source_line=" - 1);
		tl_out_i64(o, line);
	}
	return 0;
}

static int
hastype(const char *s, size_t n)
{
	static const char *const ty[] = { "get-tuple-element", "bf16", "f8",
	    "f16", "f32", "f64", "s32", "s64", "u32", "u64", "pred", NULL };
	const char *const *t;

	for (t = ty; *t != NULL; t++)
		if (memmem(s, n, *t, strlen(*t)) != NULL)
			return 1;
	return 0;
}

/*
 * The operand strings of TraceLens's reference behaviour from the
 * operand text T: every match of [bfs][0-9[]{,a-z]+} left to right, or,
 * when none, T split on ','.
 */
static void
operands(struct hinst *h, const char *t, size_t n)
{
	static const char set[] = "[]{,";
	size_t i, j, cut, nm = 0;
	struct xs v[256];
	const char *q;

	if ((q = memchr(t, ')', n)) != NULL)
		n = (size_t)(q - t);
	for (i = 0; i < n && nm < 256; i++) {
		if (t[i] != 'b' && t[i] != 'f' && t[i] != 's')
			continue;
		for (j = i + 1; j < n; j++) {
			unsigned char c = (unsigned char)t[j];

			if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
			    strchr(set, c) != NULL))
				break;
		}
		if (j > i + 1 && j < n && t[j] == '}') {
			v[nm].p = t + i;
			v[nm++].n = j + 1 - i;
			i = j;
		}
	}
	if (nm == 0)
		for (i = cut = 0; i <= n && nm < 256; i++)
			if (i == n || t[i] == ',') {
				v[nm].p = t + cut;
				v[nm++].n = i - cut;
				cut = i + 1;
			}
	h->ops = xreallocarray(NULL, nm ? nm : 1, sizeof *h->ops);
	for (i = 0; i < nm; i++) {
		h->ops[i].p = arenadup(v[i].p, v[i].n);
		h->ops[i].n = v[i].n;
	}
	h->nops = nm;
}

static int
parsemodule(struct module *M)
{
	struct tl_pb m, mm, cm;
	struct tl_pbf f, g, c;
	struct rawinst *ri = NULL;
	struct idmap *ids = NULL;
	size_t nri = 0, capri = 0, i, k, cstart;
	struct tl_out t;
	int r;

	M->parsed = 1;
	tl_out_init(&t, -1, "(hlo)");
	pbinit(&m, M->proto.p, M->proto.n, M->proto.off);
	while ((r = tl_pb_next(&m, &f)) == 1) {
		if (f.num != 1)
			continue;
		if (tl_pb_sub(&mm, &f) < 0)
			goto bad;
		while ((r = tl_pb_next(&mm, &g)) == 1) {
			int64_t root = -1;

			if (g.num != 3)
				continue;
			if (tl_pb_sub(&cm, &g) < 0)
				goto bad;
			cstart = nri;
			while ((r = tl_pb_next(&cm, &c)) == 1) {
				if (c.num == 6 && c.wire == TL_PB_VARINT)
					root = (int64_t)c.v;
				if (c.num != 2)
					continue;
				xgrow(&ri, &capri, nri + 1, sizeof *ri);
				if (readinst(&c, &ri[nri]) < 0)
					goto bad;
				nri++;
			}
			if (r < 0)
				goto bad;
			for (k = cstart; k < nri; k++)
				ri[k].root = ri[k].id == root && root >= 0;
			/* No root_id: the last instruction is the root. */
			if (root < 0 && nri > cstart)
				ri[nri - 1].root = 1;
		}
		if (r < 0)
			goto bad;
	}
	if (r < 0)
		goto bad;
	ids = xreallocarray(NULL, nri ? nri : 1, sizeof *ids);
	for (i = 0; i < nri; i++) {
		ids[i].id = ri[i].id;
		ids[i].i = i;
	}
	qsort(ids, nri, sizeof *ids, idcmp);
	M->in = xreallocarray(NULL, nri ? nri : 1, sizeof *M->in);
	for (i = 0; i < nri; i++) {
		struct rawinst *x = &ri[i];
		struct hinst *h = &M->in[M->nin];
		size_t opstart, ln;
		int nop = 0;

		if (x->root)
			continue;
		memset(h, 0, sizeof *h);
		h->name = x->name;
		t.n = 0;
		if (putshape(&t, x->shape.p, x->shape.n, 0) < 0)
			goto bad;
		h->output = keep(&t);
		/* The operand text: SHAPE%name,... with index comments. */
		for (k = 0; k < x->nopf; k++) {
			size_t pos = 0;
			uint64_t v;

			while ((r = tl_pb_packed(&x->opids[k], &pos, &v)) == 1) {
				struct idmap key = { (int64_t)v, 0 }, *hit;

				if (nop > 0)
					tl_out_char(&t, ',');
				if (nop > 0 && nop % 5 == 0) {
					tl_out_raw(&t, "/*index=", 8);
					tl_out_i64(&t, nop);
					tl_out_raw(&t, "*/", 2);
				}
				nop++;
				hit = bsearch(&key, ids, nri, sizeof *ids,
				    idcmp);
				if (hit != NULL) {
					struct rawinst *y = &ri[hit->i];

					if (putshape(&t, y->shape.p, y->shape.n,
					    0) < 0)
						goto bad;
					tl_out_char(&t, '%');
					tl_out_raw(&t, y->name.p, y->name.n);
				}
			}
			if (r < 0)
				goto bad;
		}
		opstart = 0;
		(void)opstart;
		operands(h, t.buf, t.n);
		/* The keep test, on the pieces of the printed line. */
		ln = t.n;
		if (!x->hasmeta && !hastype(t.buf, ln) &&
		    !hastype(h->output.p, h->output.n) &&
		    !hastype(x->name.p, x->name.n) &&
		    !hastype(x->opcode.p, x->opcode.n)) {
			free(h->ops);
			t.n = 0;
			continue;
		}
		t.n = 0;
		if (x->hasmeta) {
			struct tl_out u;
			size_t nr;

			tl_out_init(&u, -1, "(meta)");
			if (putmeta(&u, x->meta) < 0) {
				free(u.buf);
				goto bad;
			}
			tl_out_raw(&t, "metadata={", 10);
			{
				struct tl_out w;

				tl_out_init(&w, -1, "(munged)");
				munge(&w, u.buf, u.n);
				nr = run(w.buf, w.n, "_=\"()/ @.-");
				tl_out_raw(&t, w.buf, nr);
				free(w.buf);
			}
			free(u.buf);
			h->meta = keep(&t);
			h->hasmeta = 1;
		}
		if (x->hascct) {
			struct tl_out u;

			tl_out_init(&u, -1, "(cct)");
			cescape(&u, x->cct.p, x->cct.n);
			tl_out_char(&u, '"');
			tl_out_raw(&t, "custom_call_target=\"", 20);
			tl_out_raw(&t, u.buf, run(u.buf, u.n, "_=\"()/ @.$-"));
			free(u.buf);
			h->cct = keep(&t);
			h->hascct = 1;
		}
		if (x->hasbcfg && x->bcfg.n > 0) {
			struct tl_out u;
			const char *b = x->bcfg.p;
			size_t bn = x->bcfg.n;

			if (bn > 0 && b[0] == '{') {
				b++;
				bn--;
			}
			tl_out_init(&u, -1, "(bcfg)");
			munge(&u, b, bn);
			tl_out_raw(&t, "backend_config={", 16);
			tl_out_raw(&t, u.buf, run(u.buf, u.n,
			    "_=\"()/ @.,:[]{}-"));
			free(u.buf);
			h->bcfg = keep(&t);
			h->hasbcfg = 1;
		}
		M->nin++;
	}
	qsort(M->in, M->nin, sizeof *M->in, hicmp);
	free(ri);
	free(ids);
	free(t.buf);
	return 0;
bad:
	tl_warns(&xwarn, "%s: HLO module \"%.*s\" does not parse (its kernels "
	    "get no HLO facts)", xname, (int)M->name.n, M->name.p);
	for (i = 0; i < M->nin; i++)
		free(M->in[i].ops);
	free(M->in);
	M->in = NULL;
	M->nin = 0;
	M->bad = 1;
	free(ri);
	free(ids);
	free(t.buf);
	return -1;
}

/* The modules of the /host:metadata plane: "<name>(<id>)", "Hlo Proto". */
static void
findmodules(void)
{
	size_t i, j;

	for (i = 0; i < npl; i++) {
		struct plane *P = &pl[i];

		if (!xseq(P->name, "/host:metadata"))
			continue;
		for (j = 0; j < P->nem; j++) {
			struct emeta *e = &P->em[j];
			struct tl_pb m, sm;
			struct tl_pbf g, h;
			struct module *M;
			const char *lp;
			int r;

			pbinit(&m, e->msg.p, e->msg.n, e->msg.off);
			while ((r = tl_pb_next(&m, &g)) == 1) {
				struct smeta *s = NULL;
				struct tl_pbf val = { 0, TL_PB_LEN, 0, NULL, 0, 0 };
				int hasval = 0;

				if (g.num != 5 || tl_pb_sub(&sm, &g) < 0)
					continue;
				while (tl_pb_next(&sm, &h) == 1) {
					if (h.num == 1 && h.wire == TL_PB_VARINT)
						s = findsm(P, (int64_t)h.v);
					else if (h.num == 6 &&
					    h.wire == TL_PB_LEN) {
						val = h;
						hasval = 1;
					}
				}
				if (s == NULL || !hasval ||
				    !xseq(s->name, "Hlo Proto"))
					continue;
				xgrow(&mods, &capmods, nmods + 1,
				    sizeof *mods);
				M = &mods[nmods++];
				memset(M, 0, sizeof *M);
				M->name = e->name;
				M->base = e->name;
				M->progid = -1;
				lp = memrchr(e->name.p, '(', e->name.n);
				if (lp != NULL && e->name.n > 0 &&
				    e->name.p[e->name.n - 1] == ')') {
					M->base.n = (size_t)(lp - e->name.p);
					M->progid = strtoll(lp + 1, NULL, 10);
				}
				M->proto.p = val.data;
				M->proto.n = val.len;
				M->proto.off = val.off;
			}
		}
	}
}

/*
 * The module of an event: the one named "<hlo_module>(<program_id>)"
 * when the event has program_id; else, of the modules whose name starts
 * with hlo_module, the one with the lowest program id.
 */
static struct module *
findmodule(struct xs base, int64_t progid)
{
	struct module *best = NULL;
	size_t i;

	for (i = 0; i < nmods; i++) {
		struct module *M = &mods[i];

		if (progid >= 0 && M->progid == progid && M->base.n == base.n &&
		    memcmp(M->base.p, base.p, base.n) == 0)
			return M;
	}
	for (i = 0; i < nmods; i++) {
		struct module *M = &mods[i];

		if (M->name.n >= base.n && memcmp(M->name.p, base.p,
		    base.n) == 0 && (best == NULL || M->progid < best->progid))
			best = M;
	}
	return best;
}

static struct hinst *
findinst(struct module *M, struct xs op)
{
	struct hinst key;

	if (!M->parsed)
		(void)parsemodule(M);
	if (M->nin == 0)
		return NULL;
	if (op.n > 0 && op.p[0] == '%') {
		op.p++;
		op.n--;
	}
	key.name = op;
	return bsearch(&key, M->in, M->nin, sizeof *M->in, hicmp);
}

/* ---- pass 2: the events ---- */

enum { V_NONE, V_DOUBLE, V_U64, V_I64, V_STR, V_BYTES };

struct xstat {
	struct xs name;
	int type;
	double d;
	uint64_t u;
	int64_t i;
	struct xs s;
};

/* Decode one XStat of plane P: 0 (st->type V_NONE: no value), -1 bad. */
static int
readstat(const struct plane *P, const struct tl_pbf *f, struct xstat *st)
{
	struct tl_pb m;
	struct tl_pbf g;
	struct smeta *s;
	int64_t mid = 0;
	int r, unknown = 0;

	memset(st, 0, sizeof *st);
	if (sub(&m, f, "stat") < 0)
		return -1;
	while ((r = tl_pb_next(&m, &g)) == 1) {
		switch (g.num) {
		case 1:
			if (wantvar(&g, "stat metadata_id") < 0)
				return -1;
			mid = (int64_t)g.v;
			break;
		case 2:
			if (g.wire != TL_PB_I64)
				return bad(g.off, "double_value: wire type does "
				    "not match the field");
			st->type = V_DOUBLE;
			st->d = tl_pb_double(g.v);
			break;
		case 3:
		case 4:
		case 7:
			if (wantvar(&g, "stat value") < 0)
				return -1;
			if (g.num == 7) {
				struct smeta *ref = findsm(P, (int64_t)g.v);

				if (ref == NULL) {
					nbadref++;
					tl_warns(&xwarn, "%s:%" PRIu64 ": "
					    "ref_value %" PRIu64 " has no stat "
					    "metadata (stat left out)", xname,
					    g.off, g.v);
					st->type = V_NONE;
					break;
				}
				st->type = V_STR;
				st->s = ref->name;
			} else if (g.num == 3) {
				st->type = V_U64;
				st->u = g.v;
			} else {
				st->type = V_I64;
				st->i = (int64_t)g.v;
			}
			break;
		case 5:
		case 6:
			if (wantlen(&g, "stat value") < 0)
				return -1;
			st->type = g.num == 5 ? V_STR : V_BYTES;
			st->s = fstr(&g);
			break;
		default:
			unknown = 1;
		}
	}
	if (r < 0)
		return badpb();
	if ((s = findsm(P, mid)) == NULL) {
		nbadstat++;
		tl_warns(&xwarn, "%s:%" PRIu64 ": stat metadata id %" PRId64
		    " has no entry (stat left out)", xname, f->off, mid);
		st->type = V_NONE;
		return 0;
	}
	st->name = s->name;
	if (st->type == V_NONE && unknown) {
		nbadstat++;
		tl_warns(&xwarn, "%s:%" PRIu64 ": stat \"%.*s\" has a value of "
		    "an unknown type (stat left out)", xname, f->off,
		    (int)(s->name.n > 60 ? 60 : s->name.n), s->name.p);
	}
	return 0;
}

static int
evcmp(const void *a, const void *b)
{
	const struct xev *x = a, *y = b;
	size_t n;
	int c;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	n = x->name.n < y->name.n ? x->name.n : y->name.n;
	if ((c = memcmp(x->name.p, y->name.p, n)) != 0)
		return c;
	if (x->name.n != y->name.n)
		return x->name.n < y->name.n ? -1 : 1;
	return x->msg.off < y->msg.off ? -1 : x->msg.off > y->msg.off;
}

/* The cat of an event from its thread's name (spec 5.1): the thread's
 * part, once per line, then the event's. */
enum { T_CPUOP, T_PYFUNC, T_STREAM, T_UNKNOWN };

static int
threadcat(struct xs thread)
{
	if (xseq(thread, "Framework Name Scope") ||
	    memmem(thread.p, thread.n, "py_xla", 6) != NULL)
		return T_CPUOP;
	if (xseq(thread, "XLA Ops"))
		return T_PYFUNC;
	if (xsprefix(thread, "Stream"))
		return T_STREAM;
	return T_UNKNOWN;
}

static const char *
catof(int tcat, struct xs name)
{
	if (tcat == T_CPUOP)
		return "cpu_op";
	if (tcat == T_PYFUNC)
		return "python function";
	if (tcat == T_STREAM) {
		if ((name.n >= 4 && strncasecmp(name.p, "copy", 4) == 0) ||
		    (name.n >= 6 && strncasecmp(name.p, "memcpy", 6) == 0))
			return "gpu_memcpy";
		if (name.n >= 6 && strncasecmp(name.p, "memset", 6) == 0)
			return "gpu_memset";
		return "kernel";
	}
	return "Unknown";
}

/* A JSON object's members: name views and rendered values. */
struct member {
	struct xs name;
	size_t v0, v1;		/* the value's bytes in js */
	size_t pos;
};

static struct member *mem;
static size_t capmem;

static void
putjsonval(struct tl_out *o, const struct xstat *st)
{
	switch (st->type) {
	case V_DOUBLE:
		if (st->d != st->d || st->d - st->d != 0)
			tl_out_raw(o, st->d != st->d ? "NaN" : st->d > 0 ?
			    "Infinity" : "-Infinity", st->d != st->d ? 3 :
			    st->d > 0 ? 8 : 9);
		else
			tl_out_pyfloat(o, st->d);
		break;
	case V_U64: {
		char b[24];

		snprintf(b, sizeof b, "%" PRIu64, st->u);
		tl_out_raw(o, b, strlen(b));
		break;
	}
	case V_I64:
		tl_out_i64(o, st->i);
		break;
	default:
		tl_out_jsonstr(o, st->s.p, st->s.n);
	}
}

static int
memcmpname(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	size_t n = x->name.n < y->name.n ? x->name.n : y->name.n;
	int c = memcmp(x->name.p, y->name.p, n);

	if (c != 0)
		return c;
	if (x->name.n != y->name.n)
		return x->name.n < y->name.n ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int
memcmppos(const void *a, const void *b)
{
	const struct member *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Keep the first place of each name with its last value. */
static size_t
lastvalue(size_t n)
{
	size_t i, j, k;

	if (n < 2)
		return n;
	if (n <= 24) {
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				if (mem[j].name.n == mem[i].name.n &&
				    memcmp(mem[j].name.p, mem[i].name.p,
				    mem[i].name.n) == 0) {
					mem[i].v0 = mem[j].v0;
					mem[i].v1 = mem[j].v1;
					memmove(&mem[j], &mem[j + 1],
					    (n - j - 1) * sizeof *mem);
					n--;
					j--;
				}
		return n;
	}
	qsort(mem, n, sizeof *mem, memcmpname);
	for (i = k = 0; i < n; i = j) {
		for (j = i + 1; j < n && mem[j].name.n == mem[i].name.n &&
		    memcmp(mem[j].name.p, mem[i].name.p, mem[i].name.n) == 0;
		    j++)
			;
		mem[k] = mem[i];
		mem[k].v0 = mem[j - 1].v0;
		mem[k].v1 = mem[j - 1].v1;
		k++;
	}
	qsort(mem, k, sizeof *mem, memcmppos);
	return k;
}

struct evfacts {
	int64_t corr, dev;
	int hascorr, hasdev;
	struct xs hlo_op, hlo_module, stepname;
	int64_t progid;
};

/* Add the stats of message span s (field num) to the members. */
static int
addstats(const struct plane *P, struct span s, uint32_t num, size_t *nm,
    struct evfacts *fx)
{
	struct tl_pb m;
	struct tl_pbf f;
	struct xstat st;
	int r;

	pbinit(&m, s.p, s.n, s.off);
	while ((r = tl_pb_next(&m, &f)) == 1) {
		if (f.num != num)
			continue;
		if (readstat(P, &f, &st) < 0)
			return -1;
		if (st.type == V_NONE)
			continue;
		if (xseq(st.name, "correlation_id") && st.type != V_STR &&
		    st.type != V_BYTES && st.type != V_DOUBLE) {
			fx->corr = st.type == V_U64 ? (int64_t)st.u : st.i;
			fx->hascorr = 1;
		} else if (xseq(st.name, "device_id") && (st.type == V_U64 ||
		    st.type == V_I64)) {
			fx->dev = st.type == V_U64 ? (int64_t)st.u : st.i;
			fx->hasdev = 1;
		} else if (xseq(st.name, "program_id") && (st.type == V_U64 ||
		    st.type == V_I64))
			fx->progid = st.type == V_U64 ? (int64_t)st.u : st.i;
		else if (xseq(st.name, "hlo_op") && st.type == V_STR)
			fx->hlo_op = st.s;
		else if (xseq(st.name, "hlo_module") && st.type == V_STR)
			fx->hlo_module = st.s;
		else if (xseq(st.name, "step_name") && st.type == V_STR)
			fx->stepname = st.s;
		if (st.type == V_BYTES || inlist(internal_stats, st.name))
			continue;
		xgrow(&mem, &capmem, *nm + 1, sizeof *mem);
		mem[*nm].name = st.name;
		mem[*nm].pos = *nm;
		mem[*nm].v0 = js.n;
		putjsonval(&js, &st);
		mem[*nm].v1 = js.n;
		(*nm)++;
	}
	if (r < 0)
		return badpb();
	return 0;
}

static void
tab(void)
{
	tl_out_char(xo, '\t');
}

/* input_dims / input_types from the operand strings (spec 8.2). */
static void
putdims(const struct hinst *h, int types)
{
	size_t i, j, k, nout = 0;

	for (i = 0; i < h->nops; i++) {
		const char *s = h->ops[i].p;
		size_t n = h->ops[i].n;

		for (j = 0; j < n && ((s[j] >= 'a' && s[j] <= 'z') ||
		    (s[j] >= 'A' && s[j] <= 'Z')); j++)
			;
		if (j == 0 || j == n || s[j] < '0' || s[j] > '9')
			continue;
		for (k = j; k < n && s[k] >= '0' && s[k] <= '9'; k++)
			;
		if (k >= n || s[k] != '[')
			continue;
		{
			size_t d0 = k + 1, d1 = d0;

			while (d1 < n && ((s[d1] >= '0' && s[d1] <= '9') ||
			    s[d1] == ','))
				d1++;
			if (d1 == d0 || d1 >= n || s[d1] != ']' ||
			    d1 + 1 >= n || s[d1 + 1] != '{')
				continue;
			{
				size_t l = d1 + 2;

				while (l < n && ((s[l] >= '0' && s[l] <= '9') ||
				    s[l] == ','))
					l++;
				if (l == d1 + 2 || l >= n || s[l] != '}')
					continue;
			}
			tl_out_char(xo, nout++ == 0 ? '[' : ',');
			if (types) {
				tl_out_char(xo, '"');
				tl_out_raw(xo, s, k);
				tl_out_char(xo, '"');
			} else {
				tl_out_char(xo, '[');
				tl_out_raw(xo, s + d0, d1 - d0);
				tl_out_char(xo, ']');
			}
		}
	}
	if (nout > 0)
		tl_out_char(xo, ']');
}

static void
metarow(const char *what, int pid, int64_t tid, int hastid, struct xs v)
{
	tl_out_i64(xo, --nextmuid);
	tl_out_raw(xo, "\tM\t\t", 4);
	tl_out_cstr(xo, what);
	tab();
	tl_out_i64(xo, pid);
	tab();
	if (hastid)
		tl_out_i64(xo, tid);
	/* ts dur id bp stream corr ext seq dims types strides conc */
	tl_out_raw(xo, "\t\t\t\t\t\t\t\t\t\t\t\t\t", 13);
	tmp.n = 0;
	tl_out_raw(&tmp, "{\"name\":", 8);
	tl_out_jsonstr(&tmp, v.p, v.n);
	tl_out_char(&tmp, '}');
	tl_out_field(xo, tmp.buf, tmp.n);
	tab();
	xend();
}

/*
 * A flow row for a launch (s, on the host) or the GPU event it launched
 * (f), id the correlation id, as a Kineto trace has them; so tl-tree
 * links them. Its uid is negative: it is no event of TraceLens's.
 */
static void
flowrow(int start, int pid, uint32_t tid, int64_t ts, int64_t corr)
{
	tl_out_i64(xo, --nextmuid);
	tl_out_raw(xo, start ? "\ts\tac2g\tac2g\t" : "\tf\tac2g\tac2g\t",
	    sizeof "\ts\tac2g\tac2g\t" - 1);
	tl_out_i64(xo, pid);
	tab();
	tl_out_i64(xo, tid);
	tab();
	tl_out_i64(xo, ts >= 0 ? ts / 1000 : -((-ts + 999) / 1000));
	tab();
	tab();
	tl_out_i64(xo, corr);
	tab();
	if (!start)
		tl_out_char(xo, 'e');
	/* stream ... extra: 10 more fields */
	tl_out_raw(xo, "\t\t\t\t\t\t\t\t\t\t", 10);
	xend();
}

/* Write one line's events, sorted; 0 or -1. */
static int
putline(const struct plane *P, struct span L, int *named)
{
	struct tl_pb m, em;
	struct tl_pbf f, g;
	struct xs lname = { "", 0 }, dname = { "", 0 }, tname;
	int64_t id = 0, did = 0, tsns = 0;
	size_t nev = 0, i;
	uint32_t tid;
	int r, stream, tcat;

	pbinit(&m, L.p, L.n, L.off);
	while ((r = tl_pb_next(&m, &f)) == 1) {
		switch (f.num) {
		case 1: case 3: case 10:
			if (wantvar(&f, "line field") < 0)
				return -1;
			if (f.num == 1)
				id = (int64_t)f.v;
			else if (f.num == 3)
				tsns = (int64_t)f.v;
			else
				did = (int64_t)f.v;
			break;
		case 2: case 11:
			if (wantlen(&f, "line name") < 0)
				return -1;
			if (f.num == 2)
				lname = fstr(&f);
			else
				dname = fstr(&f);
			break;
		case 4:
			if (sub(&em, &f, "event") < 0)
				return -1;
			xgrow(&evs, &capevs, nev + 1, sizeof *evs);
			memset(&evs[nev], 0, sizeof *evs);
			evs[nev].msg.p = f.data;
			evs[nev].msg.n = f.len;
			evs[nev].msg.off = em.off;
			nev++;
			break;
		}
	}
	if (r < 0)
		return badpb();
	if (nev == 0 || xsprefix(lname, "counters_"))
		return 0;
	tname = dname.n > 0 ? dname : lname;
	tid = (uint32_t)(did != 0 ? did : id);
	stream = xsprefix(tname, "Stream");
	tcat = threadcat(tname);
	/* Each event's time, duration and name. */
	for (i = 0; i < nev; i++) {
		struct xev *e = &evs[i];
		int64_t mid = 0, off = 0, dur = 0;

		pbinit(&em, e->msg.p, e->msg.n, e->msg.off);
		while ((r = tl_pb_next(&em, &g)) == 1) {
			if (g.num >= 1 && g.num <= 5 && g.num != 4 &&
			    wantvar(&g, "event field") < 0)
				return -1;
			if (g.num == 1)
				mid = (int64_t)g.v;
			else if (g.num == 2)
				off = (int64_t)g.v;
			else if (g.num == 3)
				dur = (int64_t)g.v;
			else if (g.num == 5)
				off = 0;
		}
		if (r < 0)
			return badpb();
		if (__builtin_mul_overflow(tsns, 1000, &e->ts) ||
		    __builtin_add_overflow(e->ts, off, &e->ts))
			return bad(e->msg.off, "event time out of range");
		e->dur = dur;
		e->m = findem(P, mid);
		if (e->m == NULL) {
			nbadmeta++;
			tl_warns(&xwarn, "%s:%" PRIu64 ": event metadata id %"
			    PRId64 " has no entry (event named \"\")", xname,
			    e->msg.off, mid);
			e->name.p = "";
			e->name.n = 0;
		} else
			e->name = e->m->dname.n > 0 ? e->m->dname : e->m->name;
	}
	/* Drop the internal event types. */
	{
		size_t k = 0;

		for (i = 0; i < nev; i++)
			if (evs[i].m == NULL || !evs[i].m->internal)
				evs[k++] = evs[i];
		nev = k;
	}
	if (nev == 0)
		return 0;
	qsort(evs, nev, sizeof *evs, evcmp);
	if (!*named) {
		struct xs pn;

		tmp.n = 0;
		if (hostname.n > 0) {
			tl_out_raw(&tmp, hostname.p, hostname.n);
			tl_out_char(&tmp, ' ');
		}
		tl_out_raw(&tmp, P->name.p, P->name.n);
		pn.p = arenadup(tmp.buf, tmp.n);
		pn.n = tmp.n;
		metarow("process_name", P->pid, 0, 0, pn);
		*named = 1;
	}
	metarow("thread_name", P->pid, tid, 1, tname);
	for (i = 0; i < nev; i++) {
		struct xev *e = &evs[i];
		struct evfacts fx;
		struct hinst *h = NULL;
		struct xs name = e->name;
		size_t nm = 0, k;
		const char *cat;
		int sub1000;

		memset(&fx, 0, sizeof fx);
		fx.progid = -1;
		js.n = 0;
		if (e->m != NULL && e->m->nstats > 0) {
			struct span ms = e->m->msg;

			if (addstats(P, ms, 5, &nm, &fx) < 0)
				return -1;
		}
		if (addstats(P, e->msg, 4, &nm, &fx) < 0)
			return -1;
		if (fx.stepname.p != NULL)
			name = fx.stepname;
		/*
		 * The link key: JAX 0.8 starts the correlation ids again on
		 * each GPU, so the id of a GPU event, and of a launch that
		 * names its device, is made unique: id + device * 2^40.
		 */
		if (fx.hascorr) {
			int64_t dev = P->kind == P_GPU ? P->id : fx.hasdev ?
			    fx.dev : 0;

			if (fx.corr >= 0 && fx.corr < (INT64_C(1) << 40) &&
			    dev > 0 && dev < (1 << 20))
				fx.corr += dev << 40;
		}
		nm = lastvalue(nm);
		cat = catof(tcat, name);
		/* A host event that has a correlation id is a launch. */
		if (P->kind == P_HOST && fx.hascorr)
			cat = "cuda_runtime";
		if (xleft != NULL && xleft(cat, strlen(cat), NULL)) {
			nextuid++;	/* left out by -c or -x: uid kept */
			continue;
		}
		if (fx.hlo_op.n > 0 && fx.hlo_module.n > 0 &&
		    P->kind == P_GPU) {
			struct module *M = findmodule(fx.hlo_module, fx.progid);

			if (M != NULL)
				h = findinst(M, fx.hlo_op);
		}
		tl_out_i64(xo, nextuid++);
		tl_out_raw(xo, "\tX\t", 3);
		tl_out_cstr(xo, cat);
		tab();
		tl_out_field(xo, name.p, name.n);
		tab();
		tl_out_i64(xo, P->pid);
		tab();
		tl_out_i64(xo, tid);
		tab();
		tl_out_i64(xo, e->ts >= 0 ? e->ts / 1000 :
		    -((-e->ts + 999) / 1000));
		tab();
		tl_out_i64(xo, (e->dur > 0 ? e->dur : 1) / 1000);
		tab();
		tab();		/* id */
		tab();		/* bp */
		if (stream && P->kind == P_GPU)
			tl_out_i64(xo, tid);
		tab();
		if (fx.hascorr)
			tl_out_i64(xo, fx.corr);
		tab();
		/* external_id: the correlation id again, so that tl-tree
		 * links a launch not named like one (legacy layout). */
		if (fx.hascorr && (P->kind == P_HOST || P->kind == P_GPU))
			tl_out_i64(xo, fx.corr);
		tab();		/* seq */
		tab();
		if (h != NULL)
			putdims(h, 0);
		tab();
		if (h != NULL)
			putdims(h, 1);
		tab();		/* strides */
		tab();		/* concrete */
		tab();
		/* args */
		tmp.n = 0;
		if (nm > 0 || h != NULL || (e->m != NULL &&
		    e->m->dname.n > 0))
			tl_out_char(&tmp, '{');
		for (k = 0; k < nm; k++) {
			if (k > 0)
				tl_out_char(&tmp, ',');
			tl_out_jsonstr(&tmp, mem[k].name.p, mem[k].name.n);
			tl_out_char(&tmp, ':');
			tl_out_raw(&tmp, js.buf + mem[k].v0,
			    mem[k].v1 - mem[k].v0);
		}
		if (e->m != NULL && e->m->dname.n > 0) {
			size_t ln = e->m->name.n > 10000 ? 10000 :
			    e->m->name.n;

			if (nm++ > 0)
				tl_out_char(&tmp, ',');
			tl_out_raw(&tmp, "\"long_name\":", 12);
			if (ln < e->m->name.n) {
				struct tl_out u;

				tl_out_init(&u, -1, "(long name)");
				tl_out_raw(&u, e->m->name.p, ln);
				tl_out_raw(&u, "...<truncated>", 14);
				tl_out_jsonstr(&tmp, u.buf, u.n);
				free(u.buf);
			} else
				tl_out_jsonstr(&tmp, e->m->name.p, ln);
		}
		if (h != NULL) {
			if (nm++ > 0)
				tl_out_char(&tmp, ',');
			tl_out_raw(&tmp, "\"hlo_output\":", 13);
			tl_out_jsonstr(&tmp, h->output.p, h->output.n);
			tl_out_raw(&tmp, ",\"hlo_operands\":[", 17);
			for (k = 0; k < h->nops; k++) {
				if (k > 0)
					tl_out_char(&tmp, ',');
				tl_out_jsonstr(&tmp, h->ops[k].p, h->ops[k].n);
			}
			tl_out_char(&tmp, ']');
			if (h->hasmeta) {
				tl_out_raw(&tmp, ",\"hlo_metadata\":", 16);
				tl_out_jsonstr(&tmp, h->meta.p, h->meta.n);
			}
			if (h->hascct) {
				tl_out_raw(&tmp, ",\"hlo_custom_call_target\":",
				    26);
				tl_out_jsonstr(&tmp, h->cct.p, h->cct.n);
			}
			if (h->hasbcfg) {
				tl_out_raw(&tmp, ",\"hlo_backend_config\":",
				    22);
				tl_out_jsonstr(&tmp, h->bcfg.p, h->bcfg.n);
			}
		}
		if (tmp.n > 0)
			tl_out_char(&tmp, '}');
		tl_out_field(xo, tmp.buf, tmp.n);
		tab();
		/* extra: picoseconds when they are not whole nanoseconds */
		sub1000 = e->ts % 1000 != 0 || (e->dur > 0 ? e->dur : 1) %
		    1000 != 0;
		if (sub1000) {
			tl_out_raw(xo, "{\"ts_ps\":", 9);
			tl_out_i64(xo, e->ts);
			tl_out_raw(xo, ",\"dur_ps\":", 10);
			tl_out_i64(xo, e->dur > 0 ? e->dur : 1);
			tl_out_char(xo, '}');
		}
		xend();
		if (fx.hascorr && (P->kind == P_HOST || P->kind == P_GPU))
			flowrow(P->kind == P_HOST, P->pid, tid, e->ts, fx.corr);
	}
	return 0;
}

struct lineref {
	uint32_t tid;
	size_t i;
};

static int
lrcmp(const void *a, const void *b)
{
	const struct lineref *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The id of a line (display_id, else id), read from its fields. */
static uint32_t
lineid(struct span L)
{
	struct tl_pb m;
	struct tl_pbf f;
	int64_t id = 0, did = 0;

	pbinit(&m, L.p, L.n, L.off);
	while (tl_pb_next(&m, &f) == 1)
		if (f.wire == TL_PB_VARINT) {
			if (f.num == 1)
				id = (int64_t)f.v;
			else if (f.num == 10)
				did = (int64_t)f.v;
		}
	return (uint32_t)(did != 0 ? did : id);
}

/*
 * Give back the pages of a line once read (mapped input only). A page
 * fault maps the pages around it too (the kernel's fault-around, an
 * aligned window), so whole aligned windows of RELWIN bytes are given
 * back: what a line's reading mapped, and perhaps pages of lines not yet
 * read, which are then read again from the file (the mapping is private
 * and never written).
 */
#define RELWIN	((uintptr_t)256 << 10)
static int mapped;

static void
release(struct span L)
{
	uintptr_t a, b;

	if (!mapped || L.p == NULL)
		return;
	a = (uintptr_t)L.p & ~(RELWIN - 1);
	b = ((uintptr_t)L.p + L.n + RELWIN - 1) & ~(RELWIN - 1);
	if (a < mapbase)
		a = mapbase;
	if (b > mapend)
		b = mapend;
	if (b > a)
		(void)madvise((void *)a, b - a, MADV_DONTNEED);
}

static int
plcmp(const void *a, const void *b)
{
	const struct plane *x = *(struct plane *const *)a;
	const struct plane *y = *(struct plane *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int
hostcmp(const void *a, const void *b)
{
	const struct plane *x = *(struct plane *const *)a;
	const struct plane *y = *(struct plane *const *)b;
	size_t n = x->name.n < y->name.n ? x->name.n : y->name.n;
	int c = memcmp(x->name.p, y->name.p, n);

	if (c != 0)
		return c;
	if (x->name.n != y->name.n)
		return x->name.n < y->name.n ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void
freeall(void)
{
	size_t i, j;
	char *p;

	for (i = 0; i < npl; i++) {
		free(pl[i].em);
		free(pl[i].sm);
		free(pl[i].ln);
	}
	free(pl);
	pl = NULL;
	npl = cappl = 0;
	for (i = 0; i < nmods; i++) {
		for (j = 0; j < mods[i].nin; j++)
			free(mods[i].in[j].ops);
		free(mods[i].in);
	}
	free(mods);
	mods = NULL;
	nmods = capmods = 0;
	while (arena != NULL) {
		memcpy(&p, arena, sizeof p);
		free(arena);
		arena = p;
	}
	free(evs);
	evs = NULL;
	capevs = 0;
	free(mem);
	mem = NULL;
	capmem = 0;
	free(tmp.buf);
	free(js.buf);
	tmp.buf = js.buf = NULL;
	tmp.cap = js.cap = tmp.n = js.n = 0;
	hostname.p = NULL;
	hostname.n = 0;
}

static int
readall(const unsigned char *p, size_t n)
{
	struct plane **ord;
	struct lineref *lr = NULL;
	size_t i, j, ngpu = 0, nhost = 0, k;
	int status = 0, anygpu = 0, anytpu = 0;

	xwarn.n = 0;
	nextuid = nextmuid = 0;
	nbadref = nbadstat = nbadmeta = 0;
	(void)metaplane_mods;
	tl_out_init(&tmp, -1, "(scratch)");
	tl_out_init(&js, -1, "(scratch)");
	/* The trace_file row. */
	tl_out_raw(xo, "\t\ttrace_file\t", 13);
	tl_out_cstr(xo, xname);
	for (i = 0; i < 16; i++)
		tab();
	xend();
	if (readspace(p, n) < 0) {
		freeall();
		return -1;
	}
	findmodules();
	for (i = 0; i < npl; i++) {
		if (xsprefix(pl[i].name, "/device:GPU:"))
			anygpu = 1;
		else if (xsprefix(pl[i].name, "/device:TPU:"))
			anytpu = 1;
	}
	ord = xreallocarray(NULL, npl ? npl : 1, sizeof *ord);
	for (i = 0; i < npl; i++) {
		struct plane *P = &pl[i];

		P->kind = P_OTHER;
		if ((anygpu && xsprefix(P->name, "/device:GPU:")) ||
		    (!anygpu && anytpu && xsprefix(P->name,
		    "/device:TPU:"))) {
			P->kind = P_GPU;
			P->pid = P->id >= 0 && P->id < 500 ? (int)P->id + 1 : 1;
			ngpu++;
		} else if (xsprefix(P->name, "/device:CUSTOM:")) {
			P->kind = P_CUSTOM;
			P->pid = 501 + (int)(P->id >= 0 && P->id < 100 ?
			    P->id : 0);
		} else if (xsprefix(P->name, "/host:CPU"))
			P->kind = P_HOST;
	}
	for (i = 0; i < npl; i++)
		if (pl[i].kind == P_HOST)
			ord[nhost++] = &pl[i];
	qsort(ord, nhost, sizeof *ord, hostcmp);
	for (i = 0; i < nhost; i++)
		ord[i]->pid = 701 + (int)i;
	for (i = k = 0; i < npl; i++)
		if (pl[i].kind != P_OTHER)
			ord[k++] = &pl[i];
	qsort(ord, k, sizeof *ord, plcmp);
	if (ngpu == 0)
		tl_warns(&xwarn, "%s: no GPU planes (a profile of a CPU-only "
		    "run?): host events only", xname);
	for (i = 0; i < k && status == 0; i++) {
		struct plane *P = ord[i];
		int named = 0;

		lr = xreallocarray(lr, P->nln ? P->nln : 1, sizeof *lr);
		for (j = 0; j < P->nln; j++) {
			lr[j].tid = lineid(P->ln[j]);
			lr[j].i = j;
			release(P->ln[j]);
		}
		qsort(lr, P->nln, sizeof *lr, lrcmp);
		for (j = 0; j < P->nln && status == 0; j++) {
			if (putline(P, P->ln[lr[j].i], &named) < 0)
				status = -1;
			release(P->ln[lr[j].i]);
		}
	}
	free(lr);
	free(ord);
	tl_warns_end(&xwarn, xname);
	freeall();
	return status;
}

/* ---- getting the bytes ---- */

int
xp_sniff(const unsigned char *p, size_t n)
{
	struct tl_pb m, pm;
	struct tl_pbf f, g;
	int r, nf = 0;

	/* XSpace field 1 (planes) or 4 (hostnames) first; an XPlane inside
	 * whose fields have XPlane's wire types and that has a name. */
	if (n < 2 || (p[0] != 0x0a && p[0] != 0x22))
		return 0;
	pbinit(&m, p, n, 0);
	while ((r = tl_pb_next(&m, &f)) == 1 && nf < 4) {
		int named = 0;

		if (f.num == 4 || f.num == 2 || f.num == 3) {
			if (f.wire != TL_PB_LEN)
				return 0;
			nf++;
			continue;
		}
		if (f.num != 1 || f.wire != TL_PB_LEN)
			return 0;
		pbinit(&pm, f.data, f.len, 0);
		while ((r = tl_pb_next(&pm, &g)) == 1) {
			if (g.num == 1 && g.wire != TL_PB_VARINT)
				return 0;
			if (g.num >= 2 && g.num <= 6 && g.wire != TL_PB_LEN)
				return 0;
			if (g.num == 2 && g.len > 0 && (g.data[0] == '/' ||
			    (g.len == 16 && memcmp(g.data, "Task Environment",
			    16) == 0)))
				named = 1;
		}
		return r == 0 && named;
	}
	/* The first plane runs past what was given: look at its start. */
	if (r < 0 && nf < 4 && n > 8) {
		const unsigned char *q = p;
		uint64_t len;

		while (q < p + n && nf-- > 0) {
			uint64_t k, l;

			if (tl_pb_varint(&q, p + n, &k) < 0 ||
			    tl_pb_varint(&q, p + n, &l) < 0 ||
			    l > (uint64_t)(p + n - q))
				return 0;
			q += l;
		}
		if (q >= p + n || *q++ != 0x0a ||
		    tl_pb_varint(&q, p + n, &len) < 0)
			return 0;
		/* id (varint) and name: "/..." */
		if (q < p + n && *q == 0x08) {
			uint64_t v;

			q++;
			if (tl_pb_varint(&q, p + n, &v) < 0)
				return 0;
		}
		if (q + 2 < p + n && *q == 0x12) {
			q++;
			if (tl_pb_varint(&q, p + n, &len) < 0 || q >= p + n)
				return 0;
			return *q == '/' || *q == 'T';
		}
	}
	return 0;
}

int
xp_is(struct tl_src *src)
{
	const char *p, *name;
	size_t n, ln;
	static const char *const suf[] = { ".gz", ".zst", ".xz", ".bz2",
	    ".lz4", NULL };
	const char *const *s;

	name = tl_in_name(src);
	ln = strlen(name);
	for (s = suf; *s != NULL; s++)
		if (ln > strlen(*s) && strcmp(name + ln - strlen(*s), *s) == 0) {
			ln -= strlen(*s);
			break;
		}
	if (ln > 10 && memcmp(name + ln - 10, ".xplane.pb", 10) == 0)
		return 1;
	if (tl_in_whole(src, &p, &n))
		return xp_sniff((const unsigned char *)p, n);
	return 0;
}

int
xp_parse_mem(const char *name, const unsigned char *p, size_t n,
    struct tl_out *o, void (*endrow)(void))
{
	xname = name;
	xo = o;
	xend = endrow;
	xleft = NULL;
	mapped = 0;
	return readall(p, n);
}

int
xp_parse(struct tl_src *src, struct tl_out *o, void (*endrow)(void),
    int (*left)(const char *, size_t, void *))
{
	const char *p;
	char *c;
	size_t n, cn;
	void *map = MAP_FAILED;
	size_t maplen = 0;
	int fd = -1, r;
	FILE *spool = NULL;
	struct stat st;
	unsigned char head[6];

	xname = tl_in_name(src);
	xo = o;
	xend = endrow;
	xleft = left;
	mapped = 0;
	if (tl_in_whole(src, &p, &n))
		return readall((const unsigned char *)p, n);
	/* A plain regular file: map it. */
	if (strcmp(tl_in_name(src), tl_src_name(src)) == 0 &&
	    strcmp(tl_src_name(src), "<stdin>") != 0 &&
	    (fd = open(tl_src_name(src), O_RDONLY)) >= 0 &&
	    fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head &&
	    !(head[0] == 0x1f && head[1] == 0x8b) &&
	    !(head[0] == 0x28 && head[1] == 0xb5) &&
	    !(head[0] == 0xfd && head[1] == '7') &&
	    !(head[0] == 'B' && head[1] == 'Z' && head[2] == 'h') &&
	    !(head[0] == 0x04 && head[1] == 0x22)) {
		maplen = (size_t)st.st_size;
		map = mmap(NULL, maplen, PROT_READ, MAP_PRIVATE, fd, 0);
	}
	if (map == MAP_FAILED) {
		/* Compressed or piped: spool the stream to a file. */
		if (fd >= 0)
			close(fd);
		if ((spool = tmpfile()) == NULL) {
			tl_warn("%s: a temporary file for the stream", xname);
			return -1;
		}
		while ((r = tl_in_chunk(src, &c, &cn)) > 0)
			if (fwrite(c, 1, cn, spool) != cn) {
				tl_warn("%s: writing the temporary file", xname);
				fclose(spool);
				return -1;
			}
		if (r < 0 || fflush(spool) != 0) {
			fclose(spool);
			return -1;
		}
		fd = fileno(spool);
		if (fstat(fd, &st) != 0 || st.st_size == 0) {
			fclose(spool);
			return readall((const unsigned char *)"", 0);
		}
		maplen = (size_t)st.st_size;
		map = mmap(NULL, maplen, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			tl_warn("%s: mapping the temporary file", xname);
			fclose(spool);
			return -1;
		}
	}
	(void)madvise(map, maplen, MADV_SEQUENTIAL);
	mapped = 1;
	mapbase = (uintptr_t)map;
	mapend = (uintptr_t)map + ((maplen + (size_t)sysconf(_SC_PAGESIZE) -
	    1) & ~((size_t)sysconf(_SC_PAGESIZE) - 1));
	r = readall(map, maplen);
	munmap(map, maplen);
	if (spool != NULL)
		fclose(spool);
	else
		close(fd);
	/* The stream's own bytes are not read: the file was. */
	while (tl_in_chunk(src, &c, &cn) > 0)
		if (spool == NULL)
			break;
	return r;
}
