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
#include "xpint.h"

const char *xname;	/* the trace's name, for messages */
struct tl_out *xo;
void (*xend)(void);
int (*xleft)(const char *, size_t, void *);
struct tl_warns xwarn;

struct plane *pl;
size_t npl, cappl;
struct xs hostname;
struct module *mods;
size_t nmods, capmods;
struct module *metaplane_mods;

struct xev *evs;
size_t capevs;
char *arena;		/* strings made for the HLO facts */
struct tl_out tmp, js;	/* scratch writers */
int64_t nextuid, nextmuid;
uint64_t nbadref, nbadstat, nbadmeta;

const char *const internal_events[] = {
	"MemoryAllocation", "MemoryDeallocation", "PrefetchProduce",
	"PrefetchConsume", "ParallelInterleaveProduce",
	"ParallelInterleaveConsume", "ParallelMapProduce",
	"ParallelMapConsume", "MapAndBatchProduce", "MapAndBatchConsume",
	"ParseExampleProduce", "ParseExampleConsume", NULL
};

/* Stats the conversion leaves out of args (kernel_details is kept). */
const char *const internal_stats[] = {
	"program_id", "flops", "bytes_accessed", "is_root", "symbol_id",
	"_p", "_pt", "_c", "_ct", "group_id", "flow", "is_async", NULL
};

/* Strings in byte order, a prefix first. */
int
xscmp(struct xs a, struct xs b)
{
	size_t n = a.n < b.n ? a.n : b.n;
	int c = n > 0 ? memcmp(a.p, b.p, n) : 0;

	if (c != 0)
		return c;
	return a.n < b.n ? -1 : a.n > b.n;
}

int
xseq(struct xs s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && memcmp(s.p, lit, n) == 0;
}

int
xsprefix(struct xs s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n >= n && memcmp(s.p, lit, n) == 0;
}

int
inlist(const char *const *v, struct xs s)
{
	for (; *v != NULL; v++)
		if (xseq(s, *v))
			return 1;
	return 0;
}

/* tl_pb_init, for an absent (NULL, 0) message too. */
void
pbinit(struct tl_pb *m, const void *p, size_t n, uint64_t off)
{
	static const unsigned char none[1];

	tl_pb_init(m, p != NULL ? p : none, p != NULL ? n : 0, off);
}

/* A located error: "tl-parse: NAME:OFFSET: what". */
int
bad(uint64_t off, const char *what)
{
	tl_warnx("%s:%" PRIu64 ": %s", xname, off, what);
	return -1;
}

int
badpb(void)
{
	return bad(tl_pb_at(), tl_pb_why());
}

/* Enter LEN field f as a message: -1 with a message if it is not LEN. */
int
sub(struct tl_pb *m, const struct tl_pbf *f, const char *what)
{
	char msg[128];

	if (tl_pb_sub(m, f) == 0)
		return 0;
	snprintf(msg, sizeof msg, "%s: wire type %d does not match the field",
	    what, (int)f->wire);
	return bad(f->off, msg);
}

int
wantvar(const struct tl_pbf *f, const char *what)
{
	char msg[128];

	if (f->wire == TL_PB_VARINT)
		return 0;
	snprintf(msg, sizeof msg, "%s: wire type %d does not match the field",
	    what, (int)f->wire);
	return bad(f->off, msg);
}

int
wantlen(const struct tl_pbf *f, const char *what)
{
	char msg[128];

	if (f->wire == TL_PB_LEN)
		return 0;
	snprintf(msg, sizeof msg, "%s: wire type %d does not match the field",
	    what, (int)f->wire);
	return bad(f->off, msg);
}

struct xs
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

struct emeta *
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

struct smeta *
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

uintptr_t mapbase, mapend;	/* the mapping, page aligned */

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

int
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
	return xp_readall(p, n);
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
	if (tl_in_whole(src, &p, &n)) {
		/* a file the input layer mapped: its lines' pages are given
		 * back as they are written */
		if (tl_in_ismapped(src) && n > 0) {
			size_t pg = (size_t)sysconf(_SC_PAGESIZE);

			mapped = 1;
			mapbase = (uintptr_t)p;
			mapend = (uintptr_t)p + ((n + pg - 1) & ~(pg - 1));
		}
		r = xp_readall((const unsigned char *)p, n);
		mapped = 0;
		return r;
	}
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
		if ((spool = tl_tmpfile("tl-parse")) == NULL)
			return -1;
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
			return xp_readall((const unsigned char *)"", 0);
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
	r = xp_readall(map, maplen);
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
