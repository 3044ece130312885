/*
 * tl-parse: the XPlane reader's pass 2: the events of each plane as rows
 * of the event stream, in TraceLens's UID order.
 */
#include "xpint.h"

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
	int c = xscmp(x->name, y->name);

	if (c != 0)
		return c;
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
	tl_out_json(xo, tmp.buf, tmp.n);	/* JSON: no TAB, LF, CR */
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

/*
 * The XLA op rows: each host run of launches of one HLO instruction's
 * kernels (consecutive on a thread) gets a cpu_op row around it, so that
 * the tree has the op between the module's execution and its launches.
 * The kernels' instructions, by their correlation id (GPU planes come
 * before the host's), in an open-addressing table.
 */
struct kinst {
	int64_t corr;
	struct hinst *h;
	struct module *M;
};

static struct kinst *ktab;
static int opleft;		/* -c or -x leave cpu_op out */
static size_t kmask, nk;

static struct kinst *
kslot(int64_t corr)
{
	size_t i = (size_t)((uint64_t)corr * UINT64_C(0x9e3779b97f4a7c15) >>
	    20) & kmask;

	while (ktab[i].h != NULL && ktab[i].corr != corr)
		i = (i + 1) & kmask;
	return &ktab[i];
}

static void
kput(int64_t corr, struct hinst *h, struct module *M)
{
	struct kinst *k;

	if (ktab == NULL || (nk + 1) * 2 > kmask + 1) {
		struct kinst *old = ktab;
		size_t i, n = old != NULL ? kmask + 1 : 0;

		kmask = n > 0 ? 2 * n - 1 : 1023;
		ktab = xcalloc(kmask + 1, sizeof *ktab);
		for (i = 0; i < n; i++)
			if (old[i].h != NULL)
				*kslot(old[i].corr) = old[i];
		free(old);
	}
	k = kslot(corr);
	if (k->h == NULL)
		nk++;
	k->corr = corr;
	k->h = h;
	k->M = M;
}

static struct kinst *
kget(int64_t corr)
{
	struct kinst *k;

	if (ktab == NULL)
		return NULL;
	k = kslot(corr);
	return k->h != NULL ? k : NULL;
}

/* The run being written: its rows wait in xo (held in memory) until the
 * op row is put before them. */
static struct {
	struct kinst k;
	int open, fd, pid;
	uint32_t tid;
	int64_t ts, end, muid;
	size_t off;
} orun;

static void
putjsonmember(struct tl_out *o, const char *name, struct xs v, int comma)
{
	if (comma)
		tl_out_char(o, ',');
	tl_out_jsonstr(o, name, strlen(name));
	tl_out_char(o, ':');
	tl_out_jsonstr(o, v.p, v.n);
}

/*
 * An instruction's HLO facts as members of the args object being made
 * (after a ',' with comma): its output, operands, and the metadata,
 * custom call target and backend config it has.
 */
static void
puthlo(struct tl_out *o, const struct hinst *h, int comma)
{
	size_t k;

	putjsonmember(o, "hlo_output", h->output, comma);
	tl_out_raw(o, ",\"hlo_operands\":[", 17);
	for (k = 0; k < h->nops; k++) {
		if (k > 0)
			tl_out_char(o, ',');
		tl_out_jsonstr(o, h->ops[k].p, h->ops[k].n);
	}
	tl_out_char(o, ']');
	if (h->hasmeta)
		putjsonmember(o, "hlo_metadata", h->meta, 1);
	if (h->hascct)
		putjsonmember(o, "hlo_custom_call_target", h->cct, 1);
	if (h->hasbcfg)
		putjsonmember(o, "hlo_backend_config", h->bcfg, 1);
}

/* The op row of the open run, put before the rows of its launches. */
static void
closerun(void)
{
	const struct hinst *h = orun.k.h;
	struct xs op, name;
	size_t at, len;
	int64_t ts = orun.ts, dur = orun.end - orun.ts;
	char *row;

	if (!orun.open)
		return;
	orun.open = 0;
	op = h->name;
	/* named by its custom call's target (the op's kind), or else by
	 * the instruction */
	name = h->target.n > 0 ? h->target : op;
	at = xo->n;
	tl_out_i64(xo, orun.muid);
	tl_out_raw(xo, "\tX\tcpu_op\t", 10);
	tl_out_field(xo, name.p, name.n);
	tab();
	tl_out_i64(xo, orun.pid);
	tab();
	tl_out_i64(xo, orun.tid);
	tab();
	tl_out_i64(xo, ts >= 0 ? ts / 1000 : -((-ts + 999) / 1000));
	tab();
	tl_out_i64(xo, dur / 1000);
	/* id bp stream corr ext seq */
	tl_out_raw(xo, "\t\t\t\t\t\t\t", 7);
	putdims(h, 0);
	tab();
	putdims(h, 1);
	tab();		/* strides */
	tab();		/* concrete */
	tab();
	tmp.n = 0;
	tl_out_char(&tmp, '{');
	putjsonmember(&tmp, "hlo_op", op, 0);
	putjsonmember(&tmp, "hlo_module", orun.k.M->base, 1);
	putjsonmember(&tmp, "hlo_opcode", h->opcode, 1);
	puthlo(&tmp, h, 1);
	tl_out_char(&tmp, '}');
	tl_out_json(xo, tmp.buf, tmp.n);	/* JSON: no TAB, LF, CR */
	tab();
	if (ts % 1000 != 0 || dur % 1000 != 0) {
		tl_out_raw(xo, "{\"ts_ps\":", 9);
		tl_out_i64(xo, ts);
		tl_out_raw(xo, ",\"dur_ps\":", 10);
		tl_out_i64(xo, dur);
		tl_out_char(xo, '}');
	}
	xend();
	/* rotate it before the run's rows */
	len = xo->n - at;
	row = xmalloc(len);
	memcpy(row, xo->buf + at, len);
	memmove(xo->buf + orun.off + len, xo->buf + orun.off, at - orun.off);
	memcpy(xo->buf + orun.off, row, len);
	free(row);
	xo->fd = orun.fd;
}

/* Before event e of the line (a launch of the kernels of k, or k NULL):
 * end the run that it does not continue, start one that it begins. */
static void
runstep(const struct kinst *k, const struct plane *P, uint32_t tid,
    const struct xev *e)
{
	int64_t end = e->ts + (e->dur > 0 ? e->dur : 1);

	if (orun.open && (k == NULL || k->h != orun.k.h))
		closerun();
	if (k == NULL)
		return;
	if (orun.open) {
		if (end > orun.end)
			orun.end = end;
		return;
	}
	/* room for a run in the buffer as it is, so that holding it does
	 * not grow the buffer */
	if (xo->fd >= 0 && xo->cap - xo->n < 65536)
		tl_out_flush(xo);
	orun.open = 1;
	orun.muid = --nextmuid;
	orun.k = *k;
	orun.pid = P->pid;
	orun.tid = tid;
	orun.ts = e->ts;
	orun.end = end;
	orun.off = xo->n;
	orun.fd = xo->fd;
	xo->fd = -1;		/* held until closerun */
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
		if (P->kind == P_HOST)
			runstep(fx.hascorr && nk > 0 && !opleft ?
			    kget(fx.corr) : NULL, P, tid, e);
		if (fx.hlo_op.n > 0 && fx.hlo_module.n > 0 &&
		    P->kind == P_GPU) {
			struct module *M = findmodule(fx.hlo_module, fx.progid);

			if (M != NULL)
				h = findinst(M, fx.hlo_op);
			if (h != NULL && fx.hascorr)
				kput(fx.corr, h, M);
		}
		if (xleft != NULL && xleft(cat, strlen(cat), NULL)) {
			nextuid++;	/* left out by -c or -x: uid kept */
			continue;
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
		if (h != NULL)
			puthlo(&tmp, h, nm++ > 0);
		if (tmp.n > 0)
			tl_out_char(&tmp, '}');
		tl_out_json(xo, tmp.buf, tmp.n);	/* JSON: no TAB, LF, CR */
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
	closerun();
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
 * Give back the pages of lines once read (mapped input only). Lines are
 * written in id order, not file order, and are often much smaller than
 * the window the kernel maps around a fault, so pages are not given back
 * line by line (each window would be read again for its other lines):
 * once RELBATCH bytes of lines have been read, the whole mapping is given
 * back in one call, and what is still needed (the planes' maps, the lines
 * to come) is read again from the file as it is touched (the mapping is
 * private and never written). Memory stays near RELBATCH.
 */
#define RELBATCH	((size_t)16 << 20)
int mapped;
static size_t relbytes;

void
release(struct span L)
{
	if (!mapped || L.p == NULL)
		return;
	relbytes += L.n;
	if (relbytes < RELBATCH)
		return;
	relbytes = 0;
	(void)madvise((void *)mapbase, mapend - mapbase, MADV_DONTNEED);
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
	int c = xscmp(x->name, y->name);

	if (c != 0)
		return c;
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
	free(ktab);
	ktab = NULL;
	kmask = nk = 0;
	if (orun.open) {		/* an error in a run */
		orun.open = 0;
		xo->fd = orun.fd;
	}
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

int
xp_readall(const unsigned char *p, size_t n)
{
	struct plane **ord;
	struct lineref *lr = NULL;
	size_t i, j, ngpu = 0, nhost = 0, k;
	int status = 0, anygpu = 0, anytpu = 0;

	xwarn.n = 0;
	nextuid = nextmuid = 0;
	opleft = xleft != NULL && xleft("cpu_op", 6, NULL);
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

