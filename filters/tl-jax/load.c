/*
 * tl-jax: the event stream read: events, process and thread names.
 */
#include "jax.h"

struct ev *E;
size_t nE, capE;
struct tl_intern *in;
int tflag;
char **kw;
size_t nkw;

/* Process and thread names. */
struct pname {
	int pid;
	int64_t tid;
	int thread;
	uint32_t name;
	size_t pad;		/* its place, for a stable sort */
};
struct pname *names;
static size_t nnames, capnames, nproc;

struct tl_jdoc doc;
char *dec;
static size_t capdec;

const char *
S(uint32_t id, size_t *n)
{
	static size_t dummy;

	if (n == NULL)
		n = &dummy;
	if (id == NONE) {
		*n = 0;
		return "";
	}
	return tl_intern_str(in, id, n);
}

/* A JSON string token of doc, decoded and interned. */
static uint32_t
jstr(int i)
{
	const jsmntok_t *t = &doc.tok[i];
	size_t n = (size_t)(t->end - t->start);

	if (t->type != JSMN_STRING)
		return tl_intern(in, doc.js + t->start, n);
	xgrow(&dec, &capdec, n + 1, 1);
	n = tl_junescape(dec, doc.js + t->start, n, NULL);
	return tl_intern(in, dec, n);
}

static void
args(struct ev *e, const char *s, size_t n, int meta)
{
	int i, k, v;

	if (s == NULL || tl_json_parse(&doc, s, n) < 0 ||
	    doc.tok[0].type != JSMN_OBJECT)
		return;
	for (i = 1, k = 0; k < doc.tok[0].size; k++) {
		v = i + 1;
		if (meta) {
			if (tl_jeq(&doc, i, "name"))
				e->name = jstr(v);
		} else if (tl_jeq(&doc, i, "hlo_op"))
			e->hloop = jstr(v);
		else if (tl_jeq(&doc, i, "correlation_id") &&
		    doc.tok[v].type == JSMN_PRIMITIVE)
			e->rawcorr = strtoll(doc.js + doc.tok[v].start, NULL,
			    10);
		else if (tl_jeq(&doc, i, "device_id") &&
		    doc.tok[v].type == JSMN_PRIMITIVE) {
			e->devid = strtoll(doc.js + doc.tok[v].start, NULL, 10);
			e->hasdev = 1;
		} else if (tl_jeq(&doc, i, "hlo_metadata"))
			e->meta = jstr(v);
		else if (tl_jeq(&doc, i, "hlo_custom_call_target"))
			e->cct = jstr(v);
		else if (tl_jeq(&doc, i, "hlo_backend_config"))
			e->bcfg = jstr(v);
		else if (tl_jeq(&doc, i, "hlo_output"))
			e->out = jstr(v);
		else if (tl_jeq(&doc, i, "hlo_operands") &&
		    doc.tok[v].type == JSMN_ARRAY) {
			/* The list, as its repr: ['a', 'b'] */
			struct tl_out o;
			int j, w;

			tl_out_init(&o, -1, "(operands)");
			tl_out_pyjson(&o, doc.js + doc.tok[v].start,
			    (size_t)(doc.tok[v].end - doc.tok[v].start), 0);
			e->ops = tl_intern(in, o.buf, o.n);
			free(o.buf);
			(void)j;
			(void)w;
		}
		i = tl_jskip(&doc, v);
	}
}

static int namecmp(const void *, const void *);
static int nameposcmp(const void *, const void *);
int namesorted, gpucache = -1, gpucached;

void
load(int argc, char **argv)
{
	struct tl_trace *tr;
	int r;
	size_t n;
	const char *s;

	tr = tl_trace_open(argc, argv, TL_S_EVENT, TL_COL(TL_C_PID) |
	    TL_COL(TL_C_TID) | TL_COL(TL_C_TS) | TL_COL(TL_C_DUR) |
	    TL_COL(TL_C_PH), TL_COL(TL_C_CORR) | TL_COL(TL_C_ARGS));
	while (tl_trace_next(tr)) {
		if (tr->ntrace > 1)
			tl_errx(1, "%s: one trace at a time", tr->name);
		while ((r = tl_trace_row(tr)) != TL_ROW_END) {
			struct ev e;
			int64_t v;

			if (r != TL_ROW_EVENT)
				continue;
			memset(&e, 0, sizeof e);
			e.uid = tl_trace_uid(tr);
			e.parent = -1;
			e.name = e.hloop = e.ops = e.meta = e.cct = e.out =
			    e.bcfg = NONE;
			s = tl_trace_str(tr, TL_C_PH, &n);
			if (tl_trace_i64(tr, TL_C_PID, &v))
				e.pid = (int)v;
			if (tl_trace_i64(tr, TL_C_TID, &v))
				e.tid = v;
			if (s != NULL && n == 1 && s[0] == 'M') {
				struct pname *p;
				const char *nm = tl_trace_str(tr, TL_C_NAME, &n);
				int th = nm != NULL && n == 11 &&
				    memcmp(nm, "thread_name", 11) == 0;

				if (nm == NULL || (!th && (n != 12 ||
				    memcmp(nm, "process_name", 12) != 0)))
					continue;
				s = tl_trace_str(tr, TL_C_ARGS, &n);
				args(&e, s, n, 1);
				if (e.name == NONE)
					continue;
				xgrow(&names, &capnames, nnames + 1,
				    sizeof *names);
				p = &names[nnames++];
				p->pid = e.pid;
				p->tid = th ? e.tid : 0;
				p->thread = th;
				p->name = e.name;
				if (!th) {
					nproc++;
					gpucache = -1;
				}
				continue;
			}
			if (e.uid < 0)
				continue;
			/* Only GPU events, and host events that may launch. */
			if (tr->col[TL_C_CORR] >= 0 &&
			    tr->t->fl[tr->col[TL_C_CORR]] == 0 &&
			    !gpupid(e.pid))
				continue;
			s = tl_trace_str(tr, TL_C_NAME, &n);
			e.name = tl_intern(in, s ? s : "", n);
			e.kind = tr->kind;
			tl_trace_i64(tr, TL_C_TS, &e.tsns);
			tl_trace_i64(tr, TL_C_DUR, &e.durns);
			e.ts = (double)e.tsns / 1e3;
			e.dur = (double)e.durns / 1e3;
			if (tl_trace_i64(tr, TL_C_CORR, &e.corr))
				e.hascorr = 1;
			e.rawcorr = e.corr;
			s = tl_trace_str(tr, TL_C_ARGS, &n);
			args(&e, s, n, 0);
			/* TraceLens links by the profile's own id, which may
			 * repeat across GPUs; tl-parse's column is unique. */
			if (tflag)
				e.corr = e.rawcorr;
			xgrow(&E, &capE, nE + 1, sizeof *E);
			E[nE++] = e;
		}
	}
	if (tr->status)
		exit(1);
	tl_trace_close(tr);
	if (nE > 0 && nE < capE) {	/* give the slack back */
		E = xreallocarray(E, nE, sizeof *E);
		capE = nE;
	}
	/* The last name of a process or thread wins: stable sort, keep the
	 * last of equal keys. */
	{
		size_t i, k;

		for (i = 0; i < nnames; i++)
			names[i].pad = i;
		qsort(names, nnames, sizeof *names, nameposcmp);
		for (i = k = 0; i < nnames; i++) {
			if (k > 0 && namecmp(&names[k - 1], &names[i]) == 0)
				names[k - 1] = names[i];
			else
				names[k++] = names[i];
		}
		nnames = k;
		namesorted = 1;
	}
}

/* Names sorted: processes (thread 0) first, by pid and tid. */

static int
namecmp(const void *a, const void *b)
{
	const struct pname *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int
nameposcmp(const void *a, const void *b)
{
	const struct pname *x = a, *y = b;
	int c = namecmp(a, b);

	return c != 0 ? c : x->pad < y->pad ? -1 : x->pad > y->pad;
}

static uint32_t
findname(int thread, int pid, int64_t tid)
{
	struct pname key, *hit;
	size_t i;

	if (!namesorted) {	/* while loading: the processes, few */
		for (i = nnames; i-- > 0;)
			if (names[i].thread == thread && names[i].pid == pid &&
			    (!thread || names[i].tid == tid))
				return names[i].name;
		return NONE;
	}
	key.thread = thread;
	key.pid = pid;
	key.tid = thread ? tid : 0;
	hit = bsearch(&key, names, nnames, sizeof *names, namecmp);
	return hit != NULL ? hit->name : NONE;
}

uint32_t
procname(int pid)
{
	return findname(0, pid, 0);
}

uint32_t
threadname(int pid, int64_t tid)
{
	return findname(1, pid, tid);
}

int
hasstr(uint32_t id, const char *sub)
{
	size_t n;
	const char *s = S(id, &n);

	return id != NONE && memmem(s, n, sub, strlen(sub)) != NULL;
}

int
prefix(uint32_t id, const char *p)
{
	size_t n;
	const char *s = S(id, &n);

	return id != NONE && n >= strlen(p) && memcmp(s, p, strlen(p)) == 0;
}

