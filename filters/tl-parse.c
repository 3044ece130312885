/*
 * tl-parse: read PyTorch profiler (Kineto) and Chrome JSON traces and write
 * the event stream: one row per entry of traceEvents, in file order, and a
 * row for each other top-level key, so that no later stage needs the file.
 */
#include "tl-parse/tlparse.h"

static const char *colname[NCOL + 1] = {
	"uid", "ph", "cat", "name", "pid", "tid", "ts_ns", "dur_ns", "id",
	"bp", "stream", "correlation", "external_id", "seq", "input_dims",
	"input_types", "input_strides", "concrete_inputs", "args", "extra",
	"trace", "rank", NULL
};

/* A key and its column, or a prefix (the 2021 generation's tables). */
struct key {
	const char *key;
	int col;
	size_t len;
};

#define K(s, c)	{ s, c, sizeof s - 1 }

/*
 * The 2021 generation of Kineto traces (PyTorch 1.8 and 1.9): its
 * categories and today's that they map to (tl-tsv(5)). "async" maps only
 * for flow events ("s", "f") named "launch"; an "Operator" that is one of
 * the ranges PyTorch itself opens with record_function (annot2021) is a
 * user_annotation, as today.
 */
struct gen {
	const char *cat, *to;
	size_t len, tolen;
};

#define G(s, t)	{ s, t, sizeof s - 1, sizeof t - 1 }

static const struct gen gen2021[] = {
	G("Operator", "cpu_op"), G("Runtime", "cuda_runtime"),
	G("Kernel", "kernel"), G("Memcpy", "gpu_memcpy"),
	G("Memset", "gpu_memset"), G("async", "ac2g"),
	G("Operator", "user_annotation"),
};

#define NGEN	(sizeof gen2021 / sizeof gen2021[0] - 1)
#define G_OP	0
#define G_ASYNC	5
#define G_ANNOT	6

static const struct key annot2021[] = {
	K("ProfilerStep#", 0), K("enumerate(DataLoader)#", 0),
	K("Optimizer.step#", 0), K("Optimizer.zero_grad#", 0),
};

/*
 * The args of a 2021 event that are spelled otherwise today: they give
 * the column when the event has no key of today's spelling, and stay in
 * args otherwise.
 */
static const struct key alt2021[] = {
	K("Input dims", C_DIMS), K("external id", C_EXTID),
};

#define NALT	(sizeof alt2021 / sizeof alt2021[0])

char **keepcat, **dropcat;
size_t nkeep, ndrop;
static char **noargcat;		/* -a: their args left empty */
static size_t nnoarg;
int readall;		/* read left-out events whole (tests) */
int sflag, tflag, vflag;
regex_t rankre;

struct tl_out out;
/*
 * Rows of a trace before its first event (trace_file, leading trace_key
 * rows) wait in pend until the rank is settled, so every row of a trace
 * carries the same rank; o is where rows go now.
 */
struct tl_out pend;
struct tl_jdoc doc;	/* owned: top-level values */

/*
 * What one event's reading uses: each thread has its own (see split()):
 * where rows go, the event's tokens, buffers, and counts.
 */
_Thread_local struct tl_out *o = &out;
static _Thread_local struct tl_jdoc ev;
_Thread_local char *scratch;
static _Thread_local size_t scratchcap;
_Thread_local int *rest, *extra, *sorted;
static _Thread_local size_t caprest, capextra, capsorted;
_Thread_local uint64_t nskipped, ncleared, nrepaired, nleft;
_Thread_local uint64_t nmapped;	/* events of 2021 mapped */
static _Thread_local const struct gen *mapto;	/* the event's, mapped */
_Thread_local jsmntok_t *tok2021;	/* its tokens, and one more */
static _Thread_local size_t captok2021;
static _Thread_local int cattok;		/* the key of the cat mapped */
static _Thread_local struct tl_count uidtext;	/* the last row's uid */
static _Thread_local int evbslash;	/* the event's text has a '\\' */
_Thread_local int inhalf;	/* a worker of startsplit */
_Thread_local int dirty;		/* it would have warned */

/* The trace being read. */
const char *tname;
char rank[24];
int seenevent, notarray;
uint64_t ntraces;	/* streams read as JSON traces */
struct tl_warns warns;

/* Traces held whole of at least this many bytes are read in pieces. */
size_t splitmin = 1 << 20;

/*
 * The column of an event's key s[0..len), or -1: "ph", "cat", "name",
 * "pid", "tid", "ts", "dur", "id", "bp" and "args", as a switch (every
 * key of every event is looked up here).
 */
static inline int
evcol(const char *s, size_t len)
{
	switch (len) {
	case 2:
		if (s[0] == 'p' && s[1] == 'h')
			return C_PH;
		if (s[0] == 't' && s[1] == 's')
			return C_TS;
		if (s[0] == 'i' && s[1] == 'd')
			return C_ID;
		if (s[0] == 'b' && s[1] == 'p')
			return C_BP;
		break;
	case 3:
		if (memcmp(s, "pid", 3) == 0)
			return C_PID;
		if (memcmp(s, "tid", 3) == 0)
			return C_TID;
		if (memcmp(s, "dur", 3) == 0)
			return C_DUR;
		if (memcmp(s, "cat", 3) == 0)
			return C_CAT;
		break;
	case 4:
		if (memcmp(s, "name", 4) == 0)
			return C_NAME;
		if (memcmp(s, "args", 4) == 0)
			return C_ARGS;
		break;
	}
	return -1;
}

/*
 * The same for the keys of args with a column of their own; the rest
 * stay in "args".
 */
static inline int
argcol(const char *s, size_t len)
{
	switch (len) {
	case 6:
		return memcmp(s, "stream", 6) == 0 ? C_STREAM : -1;
	case 10:
		if (memcmp(s, "Input Dims", 10) == 0)
			return C_DIMS;
		if (memcmp(s, "Input type", 10) == 0)
			return C_TYPES;
		break;
	case 11:
		if (memcmp(s, "correlation", 11) == 0)
			return C_CORR;
		if (memcmp(s, "External id", 11) == 0)
			return C_EXTID;
		break;
	case 13:
		return memcmp(s, "Input Strides", 13) == 0 ? C_STRIDES : -1;
	case 15:
		if (memcmp(s, "Sequence number", 15) == 0)
			return C_SEQ;
		if (memcmp(s, "Concrete Inputs", 15) == 0)
			return C_CONCRETE;
		break;
	}
	return -1;
}

/* The column of key token i in table k[0..n), or -1. */
static int
keycol(const struct key *k, size_t n, int i)
{
	const char *s = ev.js + ev.tok[i].start;
	size_t len = (size_t)(ev.tok[i].end - ev.tok[i].start), j;

	for (j = 0; j < n; j++)
		if (k[j].len == len && s[0] == k[j].key[0] &&
		    memcmp(s, k[j].key, len) == 0)
			return k[j].col;
	return -1;
}

const char usage[] = "usage: tl-parse [-stv] [-a cat[,cat...]] "
    "[-c cat[,cat...]] [-r regex] [-x cat[,cat...]] [file ...]\n";

static void
warnev(uint64_t uid, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A warning about an event, located. */
static void
warnev(uint64_t uid, uint64_t off, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (inhalf) {		/* the event is left to the first thread */
		dirty = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	tl_warns(&warns, "%s: event %" PRIu64 " (byte %" PRIu64 "): %s",
	    tname, uid, off, msg);
}

static char *
scratchbuf(size_t n)
{
	xgrow(&scratch, &scratchcap, n, 1);
	return scratch;
}

/* Decode a string token into scratch; return its length. */
static size_t
decode(int i, unsigned *bad)
{
	const jsmntok_t *t = &ev.tok[i];
	size_t n = (size_t)(t->end - t->start);

	return tl_junescape(scratchbuf(n + 1), ev.js + t->start, n, bad);
}

/* JSON text of the event as a field: as it is when it holds no '\\'. */
static inline void
putjtext(const char *s, size_t n)
{
	if (evbslash)
		tl_out_json(o, s, n);
	else
		tl_out_raw(o, s, n);
}

/* String token i decoded, in *n bytes: in the text itself when the
 * event has no escape, else in scratch (which decode may move). */
static const char *
catname(int i, size_t *n)
{
	if (!evbslash) {
		*n = (size_t)(ev.tok[i].end - ev.tok[i].start);
		return ev.js + ev.tok[i].start;
	}
	*n = decode(i, NULL);
	return scratch;
}

/* Write the value of token i as a field. */
static void
putval(int i, unsigned *bad)
{
	const jsmntok_t *t = &ev.tok[i];
	const char *s = ev.js + t->start;
	size_t n = (size_t)(t->end - t->start);

	switch (t->type) {
	case JSMN_UNDEFINED:	/* a cat that map2021 maps */
		tl_out_raw(o, mapto->to, mapto->tolen);
		break;
	case JSMN_STRING:
		/* Checked JSON holds no raw TAB, LF or CR in a string. */
		if (!evbslash || memchr(s, '\\', n) == NULL)
			tl_out_raw(o, s, n);
		else {
			/* decode may move scratch: call it first. */
			n = decode(i, bad);
			tl_out_field(o, scratch, n);
		}
		break;
	case JSMN_PRIMITIVE:
		if (n == 4 && memcmp(s, "null", 4) == 0)
			break;
		tl_out_raw(o, s, n);
		break;
	default:
		putjtext(s, n);
	}
}

/* Write the value of token i as JSON text. */
static void
putjson(int i)
{
	const jsmntok_t *t = &ev.tok[i];
	int q = t->type == JSMN_STRING;

	putjtext(ev.js + t->start - q, (size_t)(t->end - t->start + 2 * q));
}

/*
 * Write members of an object as a compact JSON object: the members whose
 * key tokens are listed in k[0..n).
 */
static void
putobj(const int *k, size_t n)
{
	size_t j;
	const jsmntok_t *kt, *vt;

	if (n == 0)
		return;
	tl_out_char(o, '{');
	for (j = 0; j < n; j++) {
		kt = &ev.tok[k[j]];
		vt = &ev.tok[k[j] + 1];
		if (j > 0)
			tl_out_char(o, ',');
		putjtext(ev.js + kt->start - 1, (size_t)(vt->end -
		    kt->start + 1 + (vt->type == JSMN_STRING)));
	}
	tl_out_char(o, '}');
}

/*
 * The common time, written without converting it: 1 to 15 digits, the
 * first not 0, and maybe a point and 1 to 3 more, as 1419119411976.285.
 * Its nanoseconds are the digits without the point, and a 0 for each
 * digit short of 3 after it (what tl_us_to_ns makes, in int64's range):
 * 1, having written them; 0 for any other text.
 */
static int
nstext(const char *s, size_t n)
{
	size_t d, f, k, lim = n < 16 ? n : 16;

	if (n == 0 || s[0] < '1' || s[0] > '9')
		return 0;
	for (d = 1; d < lim && (unsigned char)(s[d] - '0') < 10; d++)
		;
	if (d > 15)
		return 0;
	f = 0;
	if (d < n) {
		if (s[d] != '.' || (f = n - d - 1) == 0 || f > 3)
			return 0;
		for (k = d + 1; k < n; k++)
			if (s[k] < '0' || s[k] > '9')
				return 0;
	}
	if (o->cap - o->n < n + 3)
		tl_out_grow(o, n + 3);
	memcpy(o->buf + o->n, s, d);
	memcpy(o->buf + o->n + d, s + d + 1, f);
	memcpy(o->buf + o->n + d + f, "000", 3 - f);
	o->n += d + 3;
	return 1;
}

/* A time in microseconds to a field in nanoseconds. */
static void
puttime(int i, const char *what, uint64_t uid, uint64_t off)
{
	const jsmntok_t *t = &ev.tok[i];
	const char *s = ev.js + t->start;
	size_t n = (size_t)(t->end - t->start);
	char q[TL_QUOTE_MAX];
	int64_t ns;
	int r = -1;

	if (t->type == JSMN_PRIMITIVE && n == 4 && memcmp(s, "null", 4) == 0)
		return;
	if ((t->type == JSMN_PRIMITIVE || t->type == JSMN_STRING) &&
	    nstext(s, n))
		return;
	if (t->type == JSMN_PRIMITIVE || t->type == JSMN_STRING)
		r = tl_us_to_ns(s, n, &ns);
	if (r == 0) {
		tl_out_i64(o, ns);
		return;
	}
	ncleared++;
	warnev(uid, off, "\"%s\": %s: %s%s%s", what, r == -2 ?
	    "out of range" : "not a number",
	    t->type == JSMN_STRING ? "\"" : "",
	    tl_quote(q, sizeof q, t->type == JSMN_OBJECT ||
	    t->type == JSMN_ARRAY ? "(object or array)" : s,
	    t->type == JSMN_OBJECT || t->type == JSMN_ARRAY ?
	    sizeof "(object or array)" - 1 : n),
	    t->type == JSMN_STRING ? "\"" : "");
}

static int
listed(char **v, size_t n, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(v[i]) == len && memcmp(v[i], s, len) == 0)
			return 1;
	return 0;
}

void
endrow(void)
{
	if (tflag && o != &pend) {
		tl_out_char(o, '\t');
		tl_out_cstr(o, tname);
		tl_out_char(o, '\t');
		tl_out_raw(o, rank, strlen(rank));
	}
	tl_out_char(o, '\n');
}

void
repaired(const struct tl_jitem *it, unsigned bad)
{
	unsigned n = it->badutf8 + it->ctrl + it->badesc + bad;
	const char *what;

	if (n == 0)
		return;
	nrepaired++;
	what = it->badutf8 ? "invalid UTF-8 replaced by U+FFFD" :
	    it->ctrl ? "raw control characters escaped" : bad ?
	    "NUL or lone surrogate replaced by U+FFFD" :
	    "bad escapes kept as text";
	if (it->kind == TL_JEVENT)
		warnev(it->index, it->offset, "%u repairs in strings (%s)", n,
		    what);
	else
		tl_warns(&warns, "%s: byte %" PRIu64 ": %u repairs in strings "
		    "(%s)", tname, it->offset, n, what);
}

/* Write the pending rows, each with the trace's name and rank. */
void
flushpend(void)
{
	char *p = pend.buf, *end = pend.buf + pend.n, *nl;

	o = &out;
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		tl_out_raw(o, p, (size_t)(nl - p));
		endrow();
	}
	pend.n = 0;
}

/* Order key tokens by their text as written, then by position. */
static int
keyorder(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	const jsmntok_t *x = &ev.tok[i], *y = &ev.tok[j];
	int lx = x->end - x->start, ly = y->end - y->start, c;

	if (lx != ly)
		return lx < ly ? -1 : 1;
	if ((c = memcmp(ev.js + x->start, ev.js + y->start, (size_t)lx)) != 0)
		return c;
	return i < j ? -1 : i > j;
}

static int
intorder(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;

	return i < j ? -1 : i > j;
}

static int
samekey(int i, int j)
{
	const jsmntok_t *x = &ev.tok[i], *y = &ev.tok[j];

	return x->end - x->start == y->end - y->start &&
	    memcmp(ev.js + x->start, ev.js + y->start,
	    (size_t)(x->end - x->start)) == 0;
}

/*
 * Of the key tokens k[0..n) of one object, keep only the last of those
 * written the same, where it stands, as for the columns; return how many
 * are left. Few keys are checked pair by pair; many, or any repeat, are
 * sorted, so that no event takes quadratic time.
 */
static size_t
lastwins(int *k, size_t n)
{
	uint32_t sig[16];
	size_t i, j, m;
	const jsmntok_t *x;

	if (n < 2)
		return n;
	if (n <= 16) {
		/* Length, first and last byte: few pairs look alike. */
		for (i = 0; i < n; i++) {
			x = &ev.tok[k[i]];
			sig[i] = (uint32_t)(x->end - x->start) << 16 ^
			    (uint32_t)(unsigned char)ev.js[x->start] << 8 ^
			    (unsigned char)ev.js[x->end - 1];
		}
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				if (sig[i] == sig[j] && samekey(k[i], k[j]))
					goto sort;
		return n;
	}
sort:
	xgrow(&sorted, &capsorted, n, sizeof *sorted);
	memcpy(sorted, k, n * sizeof *k);
	qsort(sorted, n, sizeof *sorted, keyorder);
	for (i = m = 0; i < n; i++)
		if (i + 1 == n || !samekey(sorted[i], sorted[i + 1]))
			sorted[m++] = sorted[i];
	qsort(sorted, m, sizeof *sorted, intorder);
	memcpy(k, sorted, m * sizeof *k);
	return m;
}

/* The entry of gen2021 for category s[0..n) as written, or NULL. */
static const struct gen *
findgen(const char *s, size_t n)
{
	size_t j;

	for (j = 0; j < NGEN; j++)
		if (gen2021[j].len == n && memcmp(gen2021[j].cat, s, n) == 0)
			return &gen2021[j];
	return NULL;
}

/*
 * Is an event of category cat[0..n) one that -c or -x leaves out? A
 * category of the 2021 generation matches as written and as the one it
 * maps to ("async" as "ac2g", whatever the event's name).
 */
int
leftcat(const char *cat, size_t n, void *arg)
{
	const struct gen *g = NULL;

	(void)arg;
	if (n > 0 && ((cat[0] >= 'A' && cat[0] <= 'Z') || cat[0] == 'a'))
		g = findgen(cat, n);
	if (g == NULL)
		return (nkeep > 0 && !listed(keepcat, nkeep, cat, n)) ||
		    (ndrop > 0 && listed(dropcat, ndrop, cat, n));
	return (nkeep > 0 && !listed(keepcat, nkeep, cat, n) &&
	    !listed(keepcat, nkeep, g->to, g->tolen)) || (ndrop > 0 &&
	    (listed(dropcat, ndrop, cat, n) ||
	    listed(dropcat, ndrop, g->to, g->tolen)));
}

/* Are the args of an event of category cat[0..n) left empty (-a)? Its
 * category matched as for -x. */
static int
noargs(const char *cat, size_t n)
{
	const struct gen *g = NULL;

	if (n > 0 && ((cat[0] >= 'A' && cat[0] <= 'Z') || cat[0] == 'a'))
		g = findgen(cat, n);
	return listed(noargcat, nnoarg, cat, n) || (g != NULL &&
	    listed(noargcat, nnoarg, g->to, g->tolen));
}

/* Is string token i the text lit? */
static int
tokis(int i, const char *lit, size_t n)
{
	const jsmntok_t *t = &ev.tok[i];

	return t->type == JSMN_STRING && (size_t)(t->end - t->start) == n &&
	    memcmp(ev.js + t->start, lit, n) == 0;
}

/* Does string token i begin with one of the names of annot2021? */
static int
annot(int i)
{
	const jsmntok_t *t = &ev.tok[i];
	size_t j, n = (size_t)(t->end - t->start);

	if (t->type != JSMN_STRING)
		return 0;
	for (j = 0; j < sizeof annot2021 / sizeof annot2021[0]; j++)
		if (n > annot2021[j].len && memcmp(ev.js + t->start,
		    annot2021[j].key, annot2021[j].len) == 0)
			return 1;
	return 0;
}

/*
 * The entry of gen2021 that an event maps by, from the tokens of its
 * cat, name and ph (or -1): or -1.
 */
static int
oldgen(int cat, int name, int ph)
{
	const jsmntok_t *t = &ev.tok[cat];
	const struct gen *g;

	if (t->type != JSMN_STRING)
		return -1;
	g = findgen(ev.js + t->start, (size_t)(t->end - t->start));
	if (g == NULL)
		return -1;
	if (g == &gen2021[G_ASYNC] && (name < 0 || ph < 0 ||
	    !tokis(name, "launch", 6) || (!tokis(ph, "s", 1) &&
	    !tokis(ph, "f", 1))))
		return -1;
	if (g == &gen2021[G_OP] && name >= 0 && annot(name))
		return G_ANNOT;
	return (int)(g - gen2021);
}

/* Put token index v into the ascending list k[0..*n). */
static void
insert(int **k, size_t *cap, size_t *n, int v)
{
	size_t j;

	xgrow(k, cap, *n + 1, sizeof **k);
	for (j = *n; j > 0 && (*k)[j - 1] > v; j--)
		(*k)[j] = (*k)[j - 1];
	(*k)[j] = v;
	++*n;
}

/*
 * An event of the 2021 generation, mapped by entry g, its args split:
 * the columns that today's spelling left empty go to the keys of the old
 * spelling, taken from the rest of args; an empty "Input type" beside
 * input dims is absent, and stays in args; the cat field is today's: a
 * token of its own, after the event's (ev.tok is then a copy), of type
 * JSMN_UNDEFINED (putval). The caller puts the cat as written first in
 * extra.
 */
static void
map2021(int *slot, int g, size_t *nrest)
{
	const jsmntok_t *t;
	size_t j, m;
	int c, last[NALT], a;

	for (a = 0; a < (int)NALT; a++) {
		last[a] = -1;
		for (j = 0; j < *nrest; j++)
			if (keycol(&alt2021[a], 1, rest[j]) >= 0)
				last[a] = rest[j];
	}
	for (a = 0; a < (int)NALT; a++) {
		c = alt2021[a].col;
		if (last[a] < 0 || slot[c] >= 0)
			continue;
		slot[c] = last[a] + 1;
		for (j = m = 0; j < *nrest; j++)
			if (!samekey(rest[j], last[a]))
				rest[m++] = rest[j];
		*nrest = m;
	}
	if (slot[C_TYPES] >= 0 && slot[C_DIMS] >= 0 &&
	    (t = &ev.tok[slot[C_TYPES]])->type == JSMN_ARRAY && t->size == 0 &&
	    ev.tok[slot[C_DIMS]].type == JSMN_ARRAY &&
	    ev.tok[slot[C_DIMS]].size > 0) {
		insert(&rest, &caprest, nrest, slot[C_TYPES] - 1);
		slot[C_TYPES] = -1;
	}
	/* The cat field: a token after the event's, that putval knows. */
	xgrow(&tok2021, &captok2021, (size_t)ev.ntok + 1, sizeof *tok2021);
	memcpy(tok2021, ev.tok, (size_t)ev.ntok * sizeof *tok2021);
	memset(&tok2021[ev.ntok], 0, sizeof *tok2021);
	tok2021[ev.ntok].type = JSMN_UNDEFINED;
	cattok = slot[C_CAT] - 1;
	slot[C_CAT] = ev.ntok;
	ev.tok = tok2021;
	mapto = &gen2021[g];
	nmapped++;
}

/* An event the scanner found to be left out, without reading it. */
void
leftevent(void)
{
	if (!seenevent) {
		flushpend();
		seenevent = 1;
	}
	nleft++;
}

void
event(const struct tl_jitem *it)
{
	int slot[NCOL], i, k, v, nk, na, c, g = -1, argsout = 1;
	size_t nrest = 0, nextra = 0;
	unsigned bad = 0;

	if (!seenevent) {
		flushpend();
		seenevent = 1;
	}
	ev.js = it->text;
	ev.len = it->len;
	ev.tok = it->tok;
	ev.ntok = it->ntok;
	evbslash = it->bslash;
	if (ev.tok[0].type != JSMN_OBJECT) {
		nskipped++;
		warnev(it->index, it->offset, "not an object (skipped)");
		return;
	}
	for (c = 0; c < NCOL; c++)
		slot[c] = -1;
	nk = ev.tok[0].size;
	for (i = 1, k = 0; k < nk; k++) {
		v = i + 1;
		if ((c = evcol(ev.js + ev.tok[i].start,
		    (size_t)(ev.tok[i].end - ev.tok[i].start))) >= 0)
			slot[c] = v;
		else {
			if (nextra == capextra)
				xgrow(&extra, &capextra, nextra + 1,
				    sizeof *extra);
			extra[nextra++] = i;
		}
		/* A value with nothing in it is one token. */
		i = ev.tok[v].size == 0 ? v + 1 : tl_jskip(&ev, v);
	}
	/*
	 * The 2021 generation: a capital, or "async"; today's categories
	 * begin with a small letter after 'a', but for "ac2g".
	 */
	if (slot[C_CAT] >= 0 && ev.js[ev.tok[slot[C_CAT]].start] <= 'a')
		g = oldgen(slot[C_CAT], slot[C_NAME], slot[C_PH]);
	/* Split args into the columns of their own and the rest. */
	if (slot[C_ARGS] >= 0 && ev.tok[slot[C_ARGS]].type == JSMN_OBJECT) {
		na = ev.tok[slot[C_ARGS]].size;
		for (i = slot[C_ARGS] + 1, k = 0; k < na; k++) {
			v = i + 1;
			if ((c = argcol(ev.js + ev.tok[i].start,
			    (size_t)(ev.tok[i].end - ev.tok[i].start))) >= 0)
				slot[c] = v;
			else {
				if (nrest == caprest)
					xgrow(&rest, &caprest, nrest + 1,
					    sizeof *rest);
				rest[nrest++] = i;
			}
			i = ev.tok[v].size == 0 ? v + 1 : tl_jskip(&ev, v);
		}
	}
	if (slot[C_PH] < 0 || ev.tok[slot[C_PH]].type != JSMN_STRING) {
		nskipped++;
		warnev(it->index, it->offset, slot[C_PH] < 0 ?
		    "no \"ph\" (skipped)" : "\"ph\" is not a string (skipped)");
		return;
	}
	if (nkeep > 0 || ndrop > 0) {
		const char *cs = "";
		size_t cn = 0;

		if (slot[C_CAT] >= 0 &&
		    ev.tok[slot[C_CAT]].type == JSMN_STRING)
			cs = catname(slot[C_CAT], &cn);
		if (leftcat(cs, cn, NULL)) {
			nleft++;
			return;
		}
	}
	if (nnoarg > 0 && slot[C_CAT] >= 0 &&
	    ev.tok[slot[C_CAT]].type == JSMN_STRING) {
		size_t cn;
		const char *cs = catname(slot[C_CAT], &cn);

		argsout = !noargs(cs, cn);
	}
	if (g >= 0)
		map2021(slot, g, &nrest);
	nrest = lastwins(rest, nrest);
	nextra = lastwins(extra, nextra);
	if (g >= 0) {		/* first, so that tl-tree finds it */
		xgrow(&extra, &capextra, nextra + 1, sizeof *extra);
		memmove(extra + 1, extra, nextra++ * sizeof *extra);
		extra[0] = cattok;
	}
	tl_out_count(o, &uidtext, it->index);
	for (c = C_PH; c <= C_EXTRA; c++) {
		tl_out_char(o, '\t');
		if (c == C_ARGS) {
			if (!argsout)
				;	/* -a */
			else if (slot[C_ARGS] >= 0 &&
			    ev.tok[slot[C_ARGS]].type != JSMN_OBJECT)
				putjson(slot[C_ARGS]);
			else
				putobj(rest, nrest);
		} else if (c == C_EXTRA)
			putobj(extra, nextra);
		else if (slot[c] < 0)
			continue;
		else if (c == C_TS || c == C_DUR)
			puttime(slot[c], c == C_TS ? "ts" : "dur", it->index,
			    it->offset);
		else
			putval(slot[c], &bad);
	}
	endrow();
	repaired(it, bad);
}

/* The rank from a distributedInfo value: {"rank": N or "N", ...}. */
static void
distinfo(const struct tl_jitem *it)
{
	int i, k, v;
	size_t n, j;
	const char *p;

	if (tl_json_parse(&doc, it->text, it->len) < 0 ||
	    doc.tok[0].type != JSMN_OBJECT)
		return;
	for (i = 1, k = 0; k < doc.tok[0].size; k++) {
		v = i + 1;
		p = doc.js + doc.tok[v].start;
		n = (size_t)(doc.tok[v].end - doc.tok[v].start);
		for (j = 0; j < n && p[j] >= '0' && p[j] <= '9'; j++)
			;
		if (tl_jeq(&doc, i, "rank") && n > 0 && j == n &&
		    n < sizeof rank && (doc.tok[v].type == JSMN_PRIMITIVE ||
		    doc.tok[v].type == JSMN_STRING)) {
			memcpy(rank, p, n);
			rank[n] = '\0';
		}
		i = tl_jskip(&doc, v);
	}
}

void
toplevel(const struct tl_jitem *it)
{
	unsigned bad = 0;
	size_t n;
	int c;

	if (!seenevent && it->keylen == sizeof "distributedInfo" - 1 &&
	    memcmp(it->key, "distributedInfo", it->keylen) == 0)
		distinfo(it);
	if (it->keylen == sizeof "traceEvents" - 1 &&
	    memcmp(it->key, "traceEvents", it->keylen) == 0) {
		notarray = 1;
		tl_warns(&warns, "%s: byte %" PRIu64 ": \"traceEvents\" is not "
		    "an array (kept as a trace_key row)", tname, it->offset);
	}
	tl_out_raw(o, "\t\ttrace_key\t", sizeof "\t\ttrace_key\t" - 1);
	n = tl_junescape(scratchbuf(it->keylen + 1), it->key, it->keylen,
	    &bad);
	tl_out_field(o, scratch, n);
	for (c = C_PID; c <= C_ARGS; c++)
		tl_out_char(o, '\t');
	tl_out_json(o, it->text, it->len);
	tl_out_char(o, '\t');
	endrow();
	repaired(it, bad);
}

/* The rank from the trace's name, with the rank regex. */
void
namerank(void)
{
	regmatch_t m[2];
	size_t n;

	rank[0] = '\0';
	if (regexec(&rankre, tname, 2, m, 0) != 0 || m[1].rm_so < 0)
		return;
	n = (size_t)(m[1].rm_eo - m[1].rm_so);
	if (n == 0 || n >= sizeof rank)
		return;
	memcpy(rank, tname + m[1].rm_so, n);
	rank[n] = '\0';
}

void
header(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	colname[tflag ? NCOL : C_TRACE] = NULL;
	tl_out_header(o, colname);
}

/* Parse the current stream of src; 0, or -1 on an error. */
int
parse(struct tl_src *src)
{
	struct tl_jscan *js;
	struct tl_jitem it;
	uint64_t nev = 0, end = 0;
	int r, c;

	tname = tl_in_name(src);
	nskipped = ncleared = nrepaired = nleft = nmapped = 0;
	warns.n = 0;
	seenevent = notarray = 0;
	namerank();
	if (xp_is(src)) {	/* an XPlane protobuf: tl-parse/xplane.c */
		header();
		o = &out;
		ntraces++;
		return xp_parse(src, o, endrow, nkeep > 0 || ndrop > 0 ?
		    leftcat : NULL);
	}
	js = tl_jscan_new(src);
	if (tl_src_container(src))
		tl_jscan_quietroot(js);
	if ((nkeep > 0 || ndrop > 0) && !readall)
		tl_jscan_leaveout(js, leftcat, NULL);
	header();
	o = &pend;
	/* The trace_file row. */
	tl_out_raw(o, "\t\ttrace_file\t", sizeof "\t\ttrace_file\t" - 1);
	tl_out_cstr(o, tname);
	for (c = C_PID; c <= C_EXTRA; c++)
		tl_out_char(o, '\t');
	endrow();
	for (;;) {
		while ((r = tl_jscan_next(js, &it)) > 0) {
			if (it.kind != TL_JKEY) {
				if (it.kind == TL_JLEFT)
					leftevent();
				else
					event(&it);
				if (nev == 0)
					end = tl_jscan_offset(js);
				else if (nev == 1)
					js = startsplit(js, src, end,
					    it.offset);
				nev++;
			} else
				toplevel(&it);
		}
		if (r != TL_JSTOPPED)
			break;
		js = nextpiece(js, src, &nev);
	}
	endsplit();
	if (r == 0 && !tl_jscan_events(js) && !notarray)
		tl_warns(&warns, "%s: no \"traceEvents\" (no events)", tname);
	tl_jscan_free(js);
	if (r == -2) {
		pend.n = 0;
		o = &out;
		tl_warnx("%s: skipped: not a JSON trace", tname);
		return sflag ? -1 : 0;
	}
	ntraces++;
	flushpend();
	tl_warns_end(&warns, tname);
	if (nskipped + ncleared + nrepaired > 0 || vflag) {
		char left[48] = "";

		if (nkeep > 0 || ndrop > 0)
			snprintf(left, sizeof left, ", %" PRIu64 " left out by "
			    "-c or -x", nleft);
		tl_warnx("%s: %" PRIu64 " of %" PRIu64 " events skipped, %"
		    PRIu64 " values cleared, %" PRIu64 " values with repaired "
		    "strings%s",
		    tname, nskipped, nev, ncleared, nrepaired, left);
	}
	if (vflag && nmapped > 0)
		tl_warnx("%s: %" PRIu64 " events of the 2021 generation "
		    "(PyTorch 1.8-1.9) mapped to today's categories", tname,
		    nmapped);
	if (sflag && warns.n > 0)
		r = -1;
	return r;
}

/* A rocprofv3 JSON or Perfetto stream, told by content: read it, 1. */
static int
amd(struct tl_src *src, int *status)
{
	struct tlp_ctx x;
	const char *p;
	size_t n;
	int f;

	if ((f = tl_in_peek(src, &p, &n)) < 0) {
		*status = 1;	/* reported */
		return 1;
	}
	/* XPlane is protobuf too: its reader's test (by name) goes first. */
	if (f == 0 || xp_is(src) ||
	    (f = tlp_format(p, n, tl_in_name(src))) == TLP_NONE)
		return 0;
	tname = tl_in_name(src);
	namerank();
	header();
	nleft = 0;
	x = (struct tlp_ctx){ &out, tname, rank, tflag, sflag, vflag,
	    nkeep + ndrop > 0 ? leftcat : NULL, &nleft };
	if ((f == TLP_ROCPROF ? tlp_rocprof : tlp_pftrace)(src, &x) < 0)
		*status = 1;
	if (x.left != NULL && vflag)
		tl_warnx("%s: %" PRIu64 " rows left out by -c or -x", tname,
		    nleft);
	ntraces++;
	return 1;
}

int
main(int argc, char *argv[])
{
	const char *rankpat = "rank[-_]?([0-9]+)";
	struct tl_src *src;
	int ch, status = 0, i, nops, r;
	uint64_t before;
	char msg[256];

	tl_setprogname(argv[0]);
	while ((ch = tl_getopt(argc, argv, "a:c:r:stvx:", NULL, usage)) != -1) {
		switch (ch) {
		case 'a':
			tl_optlist(optarg, &noargcat, &nnoarg);
			break;
		case 'c':
			tl_optlist(optarg, &keepcat, &nkeep);
			break;
		case 'r':
			rankpat = optarg;
			break;
		case 's':
			sflag = 1;
			break;
		case 't':
			tflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		case 'x':
			tl_optlist(optarg, &dropcat, &ndrop);
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if ((r = regcomp(&rankre, rankpat, REG_EXTENDED | REG_ICASE)) != 0) {
		regerror(r, &rankre, msg, sizeof msg);
		tl_errx(1, "-r: %s: \"%s\"", msg, rankpat);
	}
	if (rankre.re_nsub < 1)
		tl_errx(1, "-r: the regex needs a (group) around the rank: "
		    "\"%s\"", rankpat);
	nops = argc > 0 ? argc : 1;
	if (nops > 1)
		tflag = 1;
	tl_out_init(&out, 1, "<stdout>");
	tl_out_init(&pend, -1, "(pending rows)");
	for (i = 0; i < NPIECE; i++)
		tl_out_init(&sp.pc[i].out, -1, "(a piece's rows)");
	for (i = 0; i < nops; i++) {
		src = tl_src_open(argc > 0 ? argv[i] : "-");
		if (src == NULL) {
			status = 1;
			continue;
		}
		tl_src_readwhole(src);
		before = ntraces;
		while ((r = tl_src_next(src)) > 0) {
			if (tl_src_container(src))
				tflag = 1;
			if (amd(src, &status))
				continue;
			if (parse(src) < 0)
				status = 1;
		}
		if (r < 0)
			status = 1;
		else if (tl_src_container(src) && ntraces == before) {
			tl_warnx("%s: no JSON trace in the archive",
			    tl_src_name(src));
			status = 1;
		}
		tl_src_close(src);
	}
	header();
	tl_out_close(&out);
	tl_out_close(&pend);
	for (i = 0; i < NPIECE; i++)
		tl_out_close(&sp.pc[i].out);
	tl_json_free(&doc);
	free(scratch);
	free(tok2021);
	free(keepcat);
	free(dropcat);
	free(noargcat);
	regfree(&rankre);
	return status;
}
