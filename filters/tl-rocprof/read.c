/*
 * tl-rocprof: the events of tl-parse's stream, rocprofv3 JSON or Perfetto, and
 * the CSV cells as pandas writes them.
 */
#include "rocprof.h"

#if defined(__SSE2__) && defined(__GNUC__)
#define TL_SSE2	1
#include <emmintrin.h>
#endif

/* ---- Values as pandas writes them ---- */

/* The sheet the cells go to: each thread's own (rocprof's kernel_details
 * is written by a thread of its own). */
static struct tl_file mainsheet;
static _Thread_local struct tl_file *sheet = &mainsheet;
static _Thread_local int nfield;

void
opensheetf(struct tl_file *f, const char *dir, const char *name)
{
	char *fn = xmalloc(strlen(name) + 5);

	sprintf(fn, "%s.csv", name);
	if (tl_file_open(f, dir, fn) < 0)
		tl_exit(1);
	free(fn);
	usesheet(f);
}

void
opensheet(const char *dir, const char *name)
{
	opensheetf(&mainsheet, dir, name);
}

/* The cells of this thread go to f from now on. */
void
usesheet(struct tl_file *f)
{
	sheet = f;
	nfield = 0;
}

void
closesheetf(struct tl_file *f)
{
	if (tl_file_close(f) < 0)
		tl_exit(1);
}

void
closesheet(void)
{
	closesheetf(sheet);
}

static void
sep(void)
{
	if (nfield++ > 0)
		tl_out_char(&sheet->out, ',');
}

static void
cstr(const char *s, size_t n)
{
	sep();
	tl_out_csvfield(&sheet->out, s, n);
}

/* Cells already as CSV, s[0..n): one or more, commas between. */
void
craw(const char *s, size_t n)
{
	sep();
	tl_out_raw(&sheet->out, s, n);
}

void
ccstr(const char *s)
{
	cstr(s, strlen(s));
}

void
cint(int64_t v)
{
	char b[TL_I64_MAX];

	sep();
	tl_out_raw(&sheet->out, b, tl_fmt_i64(b, v));
}

void
cfloat(double v)
{
	sep();
	if (v != v)
		return;		/* NaN: an empty cell */
	tl_out_pyfloat(&sheet->out, v);
}

void
endline(void)
{
	tl_out_char(&sheet->out, '\n');
	nfield = 0;
}

void
header(const char *const *h)
{
	for (; *h; h++)
		ccstr(*h);
	endline();
}

/* An empty frame: pandas writes a single empty line. */
void
emptyframe(const char *dir, const char *name)
{
	opensheet(dir, name);
	endline();
	closesheet();
}

/* ---- Reading the stream ---- */

/*
 * Python's int() of a JSON value: an integer, a float (truncated), a
 * bool, or a string of an integer (blanks around, a sign, _ between
 * digits). 1 and *v, or 0.
 */
static int
pyint(const struct tl_jdoc *d, int t, int64_t *v)
{
	const jsmntok_t *k;
	const char *s, *e;
	char buf[64];
	size_t n, i, m;
	double x;
	int neg = 0, dig = 0;
	uint64_t u = 0;

	if (t < 0)
		return 0;
	k = &d->tok[t];
	s = d->js + k->start;
	n = (size_t)(k->end - k->start);
	if (k->type == JSMN_PRIMITIVE) {
		/* Most are small integers without a sign: read here. */
		if (n > 0 && n <= 18 && s[0] >= '0' && s[0] <= '9' &&
		    (s[0] != '0' || n == 1)) {
			for (i = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
				u = u * 10 + (uint64_t)(s[i] - '0');
			if (i == n) {
				*v = (int64_t)u;
				return 1;
			}
			u = 0;
		}
		if (n == 4 && memcmp(s, "true", 4) == 0) {
			*v = 1;
			return 1;
		}
		if (n == 5 && memcmp(s, "false", 5) == 0) {
			*v = 0;
			return 1;
		}
		if (tl_parse_i64(s, n, v) == 0)
			return 1;
		if (n == 0 || n >= sizeof buf || !tl_jnumber(s, n))
			return 0;
		memcpy(buf, s, n);
		buf[n] = '\0';
		x = strtod(buf, NULL);
		if (!(x > -9.2e18 && x < 9.2e18))
			return 0;
		*v = (int64_t)x;
		return 1;
	}
	if (k->type != JSMN_STRING || memchr(s, '\\', n) != NULL)
		return 0;
	e = s + n;
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (s < e && (*s == '+' || *s == '-'))
		neg = *s++ == '-';
	m = (size_t)(e - s);
	for (i = 0; i < m; i++) {
		if (s[i] == '_' && dig && i + 1 < m && isdigit((unsigned char)
		    s[i + 1]))
			continue;
		if (!isdigit((unsigned char)s[i]))
			return 0;
		if (u > (UINT64_C(1) << 63) / 10)
			return 0;
		u = u * 10 + (uint64_t)(s[i] - '0');
		dig = 1;
	}
	if (!dig || u > (uint64_t)INT64_MAX + neg)
		return 0;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 1;
}

/* Member key of object token o, or -1. */
static int
jmem(const struct tl_jdoc *d, int o, const char *key)
{
	int i, k;

	if (o < 0 || o >= d->ntok || d->tok[o].type != JSMN_OBJECT)
		return -1;
	for (i = o + 1, k = 0; k < d->tok[o].size; k++) {
		if (tl_jeq(d, i, key))
			return i + 1;
		i = tl_jskip(d, i + 1);
	}
	return -1;
}

static int
jnull(const struct tl_jdoc *d, int t)
{
	return t >= 0 && d->tok[t].type == JSMN_PRIMITIVE &&
	    d->js[d->tok[t].start] == 'n';
}

/* A string token decoded, newly allocated. */
static char *
jstrdup(const struct tl_jdoc *d, int t, size_t *len)
{
	const jsmntok_t *k = &d->tok[t];
	size_t n = (size_t)(k->end - k->start);
	char *s = xmalloc(n + 1);

	n = tl_junescape(s, d->js + k->start, n, NULL);
	s[n] = '\0';
	if (len)
		*len = n;
	return s;
}

/* Python truthiness of a JSON value. */
static int
jtruthy(const struct tl_jdoc *d, int t)
{
	const jsmntok_t *k;
	const char *s;
	size_t n, i;

	if (t < 0)
		return 0;
	k = &d->tok[t];
	s = d->js + k->start;
	n = (size_t)(k->end - k->start);
	switch (k->type) {
	case JSMN_STRING:
		return n > 0;
	case JSMN_OBJECT:
	case JSMN_ARRAY:
		return k->size > 0;
	default:
		if (s[0] == 'n' || s[0] == 'f')
			return 0;
		if (s[0] == 't')
			return 1;
		for (i = 0; i < n; i++)
			if (s[i] >= '1' && s[i] <= '9')
				break;
			else if (s[i] == 'e' || s[i] == 'E')
				return 0;
		return i < n;
	}
}

struct ev *evs;
size_t nev, capev;
char **agents;		/* "s..." or "n..." keys, first-seen order */
size_t nagents;
int pfrows;		/* rows from tl-parse's Perfetto reader */

/* rocprof: the trace's times and the kernel rows. */
struct kern *kerns;
size_t nkern, capkern;
int64_t (*mems)[2];
size_t nmem, capmem;
int64_t init_time, fini_time;

static int
agentix(const struct tl_jdoc *d, int t)
{
	char *key;
	size_t i, n;
	const jsmntok_t *k;

	if (!jtruthy(d, t))
		return 0;
	k = &d->tok[t];
	if (k->type != JSMN_STRING && k->type != JSMN_PRIMITIVE)
		return 0;
	n = (size_t)(k->end - k->start);
	key = xmalloc(n + 2);
	key[0] = k->type == JSMN_STRING ? 's' : 'n';
	memcpy(key + 1, d->js + k->start, n);
	key[n + 1] = '\0';
	if (k->type == JSMN_STRING)
		key[1 + tl_junescape(key + 1, d->js + k->start, n, NULL)] =
		    '\0';
	for (i = 0; i < nagents; i++)
		if (strcmp(agents[i], key) == 0) {
			free(key);
			return (int)i + 1;
		}
	agents = xreallocarray(agents, nagents + 1, sizeof *agents);
	agents[nagents++] = key;
	return (int)nagents;
}

struct tl_jdoc jd;

/*
 * One copy of each distinct string (names and categories repeat on
 * every row), kept to the end: s[0..n) as a NUL-terminated string.
 */
struct uniqs uq;

const char *
uniq(const char *s, size_t n)
{
	char **old = uq.v, *p;
	size_t oc = uq.cap, i, j;

	if (2 * (uq.n + 1) > uq.cap) {
		uq.cap = uq.cap ? 2 * uq.cap : 1024;
		uq.v = xcalloc(uq.cap, sizeof *uq.v);
		for (j = 0; j < oc; j++)
			if (old[j]) {
				for (i = tl_hash(old[j], strlen(old[j])) &
				    (uq.cap - 1); uq.v[i]; i = (i + 1) &
				    (uq.cap - 1))
					;
				uq.v[i] = old[j];
			}
		free(old);
	}
	for (i = tl_hash(s, n) & (uq.cap - 1); (p = uq.v[i]) != NULL;
	    i = (i + 1) & (uq.cap - 1))
		if (strncmp(p, s, n) == 0 && p[n] == '\0')
			return p;
	uq.v[i] = xmemdup(s, n);
	uq.n++;
	return uq.v[i];
}

/* len[0..nk) as the lengths of key[0..nk), set on the first call. */
static const size_t *
keylens(const char *const *key, size_t *len, int nk)
{
	int k;

	if (len[0] == 0)
		for (k = 0; k < nk; k++)
			len[k] = strlen(key[k]);
	return len;
}

/* The closing quote of the string body at q, checked as tl_json_quick
 * checks it (no raw control byte, valid escapes), or NULL. */
static const unsigned char *
fstring(const unsigned char *q, const unsigned char *e)
{
	int c;

#ifdef TL_SSE2
	const __m128i quote = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'),
	    sp = _mm_set1_epi8(0x20);
	__m128i b;
	int m;
#endif

	for (;;) {
#ifdef TL_SSE2
		/* " \ and, compared as signed, controls and bytes >= 0x80 */
		for (; e - q >= 16; q += 16) {
			b = _mm_loadu_si128((const __m128i *)(const void *)q);
			m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
			    _mm_cmpeq_epi8(b, quote), _mm_cmpeq_epi8(b, bs)),
			    _mm_cmplt_epi8(b, sp)));
			if (m != 0) {
				q += __builtin_ctz((unsigned)m);
				break;
			}
		}
#endif
		while (q < e && *q != '"' && *q != '\\' && *q >= 0x20)
			q++;
		if (q == e)
			return NULL;
		if (*q == '"')
			return q;
		if (*q != '\\' || e - q < 6)
			return NULL;
		if (q[1] == 'u') {
			for (c = 2; c < 6; c++)
				if (!tl_jhexdig(q[c]))
					return NULL;
			q += 6;
		} else if (q[1] == '\0' || !strchr("\"/\\bfnrt", q[1]))
			return NULL;
		else
			q += 2;
	}
}

/*
 * The quick way to members() of a row's args, which tl-parse wrote and
 * checked (tl-tsv(5): a JSON object; common/json.h): js[0..n) scanned as
 * a flat object of compact JSON, as tl-parse writes args, with tokens
 * made only for the values of key[0..nk) (len[k] set), each the first
 * member of its name, into jd as tl_json_parse would make them: v[k] its
 * token, or -1. Once every key is found the rest is not read. 0 for a
 * value that is an object or an array of anything but strings and
 * literals, or for what is not such JSON: the caller parses js whole.
 */
static int
fastmembers(const char *js, size_t n, const char *const *key,
    const size_t *len, int nk, int *v)
{
	const unsigned char *p = (const unsigned char *)js, *e = p + n, *q,
	    *s, *ks;
	const unsigned char *te;
	size_t kl;
	int k, want, nt, arr, inarr, c, found = 0, nm = 0;
	jsmntok_t *t;

	if (n < 2 || n > INT_MAX / 2 || p[0] != '{')
		return 0;
	for (k = 0; k < nk; k++)
		v[k] = -1;
	if (jd.cap < 64) {
		jd.cap = 64;
		jd.tok = xreallocarray(jd.tok, jd.cap, sizeof *jd.tok);
	}
	jd.tok[0].type = JSMN_OBJECT;
	jd.tok[0].start = 0;
	jd.tok[0].end = (int)n;
	jd.tok[0].size = 0;
	jd.tok[0].parent = -1;
	nt = 1;
	q = p + 1;
	if (*q == '}')
		goto end;
	for (;;) {
		/* A key: its raw text, as members() compares it. */
		if (q == e || *q != '"')
			return 0;
		ks = ++q;
		if ((q = fstring(q, e)) == NULL)
			return 0;
		kl = (size_t)(q - ks);
		q++;
		if (q == e || *q != ':')
			return 0;
		q++;
		nm++;
		want = -1;
		for (k = 0; k < nk; k++)
			if (len[k] == kl && v[k] < 0 && key[k][0] == ks[0] &&
			    memcmp(key[k], ks, kl) == 0) {
				want = k;
				break;
			}
		/* The value: a string, a literal or an array of those. */
		arr = -1;
		inarr = *q == '[';
		if (inarr) {
			if (want >= 0) {
				arr = nt++;
				t = &jd.tok[arr];
				t->type = JSMN_ARRAY;
				t->start = (int)(q - p);
				t->size = 0;
				t->parent = 0;
				v[want] = arr;
			}
			if (++q < e && *q == ']')
				goto close;
		}
		for (;;) {
			if (want >= 0 && (size_t)nt + 2 >= jd.cap) {
				jd.cap *= 2;
				jd.tok = xreallocarray(jd.tok, jd.cap,
				    sizeof *jd.tok);
			}
			if (q == e || *q == '{' || *q == '[')
				return 0;
			if (*q == '"') {
				s = ++q;
				if ((q = fstring(q, e)) == NULL)
					return 0;
				c = JSMN_STRING;
				te = q++;
			} else {
				s = q;
				/* Most are integers, as tl_json_quick sees. */
				if (*q >= '1' && *q <= '9')
					while (q < e && *q >= '0' && *q <= '9')
						q++;
				if (q > s && q < e && !tl_jlitbyte(*q))
					goto lit;
				q = s;
				while (q < e && tl_jlitbyte(*q))
					q++;
				if (q == e || !((q - s == 4 && (memcmp(s, "true",
				    4) == 0 || memcmp(s, "null", 4) == 0)) ||
				    (q - s == 5 && memcmp(s, "false", 5) == 0) ||
				    tl_jnumber((const char *)s, (size_t)(q - s))))
					return 0;
lit:
				c = JSMN_PRIMITIVE;
				te = q;
			}
			if (want >= 0) {
				found += arr < 0;
				t = &jd.tok[nt++];
				t->type = c;
				t->start = (int)(s - p);
				t->end = (int)(te - p);
				t->size = 0;
				t->parent = arr >= 0 ? arr : 0;
				if (arr >= 0)
					jd.tok[arr].size++;
				else
					v[want] = nt - 1;
			}
			if (!inarr)
				break;
			if (q == e)
				return 0;
			if (*q == ',') {
				q++;
				continue;
			}
			if (*q != ']')
				return 0;
close:
			q++;
			if (arr >= 0) {
				jd.tok[arr].end = (int)(q - p);
				found++;
			}
			break;
		}
		if (found == nk)
			goto done;
		if (q < e && *q == ',') {
			q++;
			continue;
		}
		if (q == e || *q != '}')
			return 0;
		break;
	}
end:
	if (q + 1 != e)
		return 0;
done:
	jd.tok[0].size = nm;	/* those read */
	jd.js = js;
	jd.len = n;
	jd.ntok = nt;
	return 1;
}

/* The first member of object 0 of jd named key[k] (k < nk, len[k] its
 * length, 0 before the first call): v[k] its value token, or -1. */
static void
members(const char *const *key, size_t *len, int nk, int *v)
{
	const jsmntok_t *t;
	int i, k, m;

	for (k = 0; k < nk; k++) {
		if (len[k] == 0)
			len[k] = strlen(key[k]);
		v[k] = -1;
	}
	for (i = 1, m = 0; m < jd.tok[0].size; m++, i = tl_jskip(&jd, i + 1)) {
		t = &jd.tok[i];
		if (t->type != JSMN_STRING)
			continue;
		for (k = 0; k < nk; k++)
			if (len[k] == (size_t)(t->end - t->start) &&
			    key[k][0] == jd.js[t->start] && v[k] < 0 &&
			    memcmp(key[k], jd.js + t->start, len[k]) == 0) {
				v[k] = i + 1;
				break;
			}
	}
}

/*
 * The args of a row as the pftrace reports need them: the first member
 * of each name, found in one pass over the members.
 */
static void
pfargs(struct ev *e, const char *js, size_t n)
{
	enum { K_DEV = NA - 1, K_CORR = K_DEV + 6, K_KN = K_CORR + 4,
	    K_AGENT = K_KN + 5, NK };
	static const char *const key[NK] = {
	    "begin_ns", "end_ns", "delta_ns", "grid_size", "workgroup_size",
	    "VGPR_Count", "Accum_VGPR_Count", "SGPR_Count", "LDS_Block_Size",
	    "Scratch_Size", "stream_ID", "operation", "tid", "copy_bytes",
	    "src_agent", "dst_agent",
	    "device_id", "deviceId", "dev_id", "DevId", "gpu_id", "gpuId",
	    "corr_id", "correlation_id", "correlationId", "CorrId",
	    "kernel_name", "KernelName", "symbol", "symbol_name", "funcName",
	    "agent" };
	static size_t len[NK];
	int k, v[NK];
	int64_t x;
	size_t kn;

	if (!fastmembers(js, n, key, keylens(key, len, NK), NK, v)) {
		if (n == 0 || tl_json_parse(&jd, js, n) < 0 ||
		    jd.tok[0].type != JSMN_OBJECT)
			return;
		members(key, len, NK, v);
	}
	for (k = 0; k < A_DEV; k++)
		if (pyint(&jd, v[k], &x)) {
			e->a[k] = x;
			e->has |= 1u << k;
		}
	for (k = K_DEV; k < K_CORR; k++)
		if (pyint(&jd, v[k], &x)) {
			e->a[A_DEV] = x;
			e->has |= 1u << A_DEV;
			break;
		}
	for (k = K_CORR; k < K_KN; k++)
		if (pyint(&jd, v[k], &x)) {
			e->hascorr = 1;
			e->corr = x;
			break;
		}
	e->corrapi = v[K_CORR] >= 0 && !jnull(&jd, v[K_CORR]);
	for (k = K_KN; k < K_AGENT; k++)
		if (jtruthy(&jd, v[k]) && jd.tok[v[k]].type == JSMN_STRING) {
			char *s = jstrdup(&jd, v[k], &kn);

			e->kname = uniq(s, kn);
			free(s);
			break;
		}
	e->agent = agentix(&jd, v[K_AGENT]);
}

static int64_t
jint(int t, int64_t def)
{
	int64_t v;

	return pyint(&jd, t, &v) ? v : def;
}

static void
rocargs(struct kern *k, const char *js, size_t n)
{
	static const char *const key[] = { "dispatch_id", "agent",
	    "thread_id", "grid", "block" };
	static size_t len[5];
	int t, i, v[5];

	if (!fastmembers(js, n, key, keylens(key, len, 5), 5, v)) {
		if (n == 0 || tl_json_parse(&jd, js, n) < 0 ||
		    jd.tok[0].type != JSMN_OBJECT)
			return;
		members(key, len, 5, v);
	}
	k->dispatch = jint(v[0], 0);
	k->agent = jint(v[1], 0);
	k->thread = jint(v[2], 0);
	if ((t = v[3]) >= 0 && jd.tok[t].type == JSMN_ARRAY &&
	    jd.tok[t].size == 3)
		for (i = 0; i < 3; i++)
			k->grid[i] = jint(t + 1 + i, 1);
	if ((t = v[4]) >= 0 && jd.tok[t].type == JSMN_ARRAY &&
	    jd.tok[t].size == 3)
		for (i = 0; i < 3; i++)
			k->block[i] = jint(t + 1 + i, 1);
}

static void
metadata(const char *js, size_t n)
{
	if (tl_json_parse(&jd, js, n) < 0 || jd.tok[0].type != JSMN_OBJECT)
		return;
	init_time = jint(jmem(&jd, 0, "init_time"), 0);
	fini_time = jint(jmem(&jd, 0, "fini_time"), 0);
}

int rocmode, pfmode;	/* 1 activity, 2 api, 3 memcpy */
int tracelens, nosummary, details, shortstudy;

void
readstream(const char *path)
{
	struct tl_src *src;
	struct tl_tsv *t;
	int cuid, cph, ccat, cname, cpid, ctid, cts, cdur, cargs, cextra, cstr;
	const char *s, *ph, *cat, *x;
	size_t n, nph, ncat, nx;
	struct ev *e;
	struct kern *k;
	int64_t v;
	uint64_t nact = 0;

	if ((src = tl_src_open(path)) == NULL)
		tl_exit(1);
	if (tl_src_next(src) <= 0)
		tl_errx(1, "%s: empty input: no header", tl_src_name(src));
	t = tl_tsv_open(src);
	cuid = tl_tsv_need(t, "uid");
	cph = tl_tsv_need(t, "ph");
	ccat = tl_tsv_need(t, "cat");
	cname = tl_tsv_need(t, "name");
	cpid = tl_tsv_need(t, "pid");
	ctid = tl_tsv_need(t, "tid");
	cts = tl_tsv_need(t, "ts_ns");
	cdur = tl_tsv_need(t, "dur_ns");
	cargs = tl_tsv_need(t, "args");
	cstr = tl_tsv_col(t, "stream");
	cextra = tl_tsv_col(t, "extra");
	while (tl_tsv_next(t)) {
		cat = tl_tsv_str(t, ccat, &ncat);
		if (t->fl[cuid] == 0) {
			if (rocmode && cat && ncat == 9 &&
			    memcmp(cat, "trace_key", 9) == 0 &&
			    (s = tl_tsv_str(t, cname, &n)) && n == 8 &&
			    memcmp(s, "metadata", 8) == 0 &&
			    (s = tl_tsv_str(t, cargs, &n)) != NULL)
				metadata(s, n);
			continue;
		}
		ph = tl_tsv_str(t, cph, &nph);
		if (rocmode) {
			if (cat == NULL || !tl_tsv_i64(t, cts, &v))
				continue;
			if (ncat == 11 && memcmp(cat, "memory_copy", 11) == 0) {
				xgrow(&mems, &capmem, nmem + 1, sizeof *mems);
				mems[nmem][0] = v;
				if (!tl_tsv_i64(t, cdur, &mems[nmem][1]))
					mems[nmem][1] = 0;
				nmem++;
				continue;
			}
			if (ncat != 15 || memcmp(cat, "kernel_dispatch", 15))
				continue;
			xgrow(&kerns, &capkern, nkern + 1, sizeof *kerns);
			k = &kerns[nkern];
			memset(k, 0, sizeof *k);
			nkern++;
			k->ts = v;
			tl_tsv_i64(t, cdur, &k->dur);
			if (cstr >= 0)
				tl_tsv_i64(t, cstr, &k->stream);
			s = tl_tsv_str(t, cname, &n);
			k->name = uniq(s ? s : "", s ? n : 0);
			k->grid[0] = k->grid[1] = k->grid[2] = 1;
			k->block[0] = k->block[1] = k->block[2] = 1;
			/* Only kernel_details shows what args hold. */
			if (details && (s = tl_tsv_str(t, cargs, &n)) != NULL)
				rocargs(k, s, n);
			continue;
		}
		/* traceconv's e halves carry no args; metadata no event. */
		if (ph == NULL || (nph == 1 && (ph[0] == 'e' || ph[0] == 'M' ||
		    ph[0] == 'E' || ph[0] == 's' || ph[0] == 'f')))
			continue;
		xgrow(&evs, &capev, nev + 1, sizeof *evs);
		e = &evs[nev];
		memset(e, 0, sizeof *e);
		e->order = nev++;
		e->isx = nph == 1 && ph[0] == 'X';
		s = tl_tsv_str(t, cname, &n);
		e->name = uniq(s ? s : "", s ? n : 0);
		e->nlen = s ? n : 0;
		e->cat = uniq(cat ? cat : "", cat ? ncat : 0);
		e->haspid = tl_tsv_i64(t, cpid, &e->pid);
		e->hastid = tl_tsv_i64(t, ctid, &e->tid);
		e->hasts = tl_tsv_i64(t, cts, &e->ts);
		e->hasdur = tl_tsv_i64(t, cdur, &e->dur);
		/* Perfetto slices: as traceconv would export them. */
		x = cextra >= 0 ? tl_tsv_str(t, cextra, &nx) : NULL;
		if (x != NULL && nx > 9 && memcmp(x, "{\"track\":", 9) == 0) {
			pfrows = 1;
			if (!e->hastid) {
				e->grp = 1;	/* async b/e: tid = pid */
				e->hastid = e->haspid;
				e->tid = e->pid;
				e->hasdur = 0;
			}
		}
		if ((s = tl_tsv_str(t, cargs, &n)) != NULL)
			pfargs(e, s, n);
		/* Keep only what the report reads; activity takes each
		 * event as it comes, and keeps none. */
		if (pfmode == 1) {
			e->order = nact++;
			if (e->agent != 0 || strcmp(e->cat, "hip_api") == 0)
				actev(e);
			nev--;
		} else if ((pfmode == 2 && !e->hascorr && e->agent == 0) ||
		    (pfmode == 3 && !(e->has & (1u << A_BYTES))))
			nev--;
	}
	tl_tsv_close(t);
	tl_src_close(src);
}

/*
 * The agents numbered in the order of the events as sorted (first seen
 * in traceconv's order, not in the stream's).
 */
void
reagent(void)
{
	size_t *map = xcalloc(nagents + 1, sizeof *map), i, n = 0;
	char **v = xcalloc(nagents + 1, sizeof *v);

	for (i = 0; i < nev; i++)
		if (evs[i].agent) {
			if (map[evs[i].agent] == 0) {
				v[n] = agents[evs[i].agent - 1];
				map[evs[i].agent] = ++n;
			}
			evs[i].agent = (int)map[evs[i].agent];
		}
	free(agents);
	agents = v;
	nagents = n;
	free(map);
}

int
pforder(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->grp != y->grp)
		return x->grp < y->grp ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}
