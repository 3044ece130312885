/*
 * tl-rocprof: the pftrace "api" report (T = A + Q + K per launch API and
 * kernel) and the "memcpy" report (copies by size and direction).
 */
#include "rocprof.h"

/* ---- pftrace: hip_api ---- */

int multik, nonlaunch;
const char *exclude = "(?:^|\\W)redzone_checker_kernel(?:\\W|$)";
static regex_t exre;
static int hasexre;

/* A Python regex as a POSIX one: (?: and the class escapes. */
static void
compilere(const char *re)
{
	static const char *const esc[][2] = {
		{ "\\W", "[^[:alnum:]_]" }, { "\\w", "[[:alnum:]_]" },
		{ "\\d", "[0-9]" }, { "\\D", "[^0-9]" },
		{ "\\s", "[[:space:]]" }, { "\\S", "[^[:space:]]" },
		{ "(?:", "(" },
	};
	struct tl_out o;
	size_t i, k;
	int r;
	char msg[256];

	if (*re == '\0')
		return;
	tl_out_init(&o, -1, "(regex)");
	for (i = 0; re[i];) {
		for (k = 0; k < sizeof esc / sizeof esc[0]; k++)
			if (strncmp(re + i, esc[k][0], strlen(esc[k][0])) ==
			    0)
				break;
		if (k < sizeof esc / sizeof esc[0]) {
			tl_out_cstr(&o, esc[k][1]);
			i += strlen(esc[k][0]);
		} else if (re[i] == '\\' && re[i + 1]) {
			tl_out_raw(&o, re + i, 2);
			i += 2;
		} else
			tl_out_char(&o, re[i++]);
	}
	tl_out_char(&o, '\0');
	if ((r = regcomp(&exre, o.buf, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(r, &exre, msg, sizeof msg);
		tl_errx(1, "--exclude_kernel_regex: %s: \"%s\"", msg, re);
	}
	hasexre = 1;
	tl_out_close(&o);
}

/* times(e): 1 with begin, duration and end; 0 when there are none. */
static int
apitimes(const struct ev *e, int64_t *b, int64_t *d, int64_t *en)
{
	int hb = (e->has >> A_BEGIN) & 1, he = (e->has >> A_END) & 1,
	    hd = (e->has >> A_DELTA) & 1;

	*b = e->a[A_BEGIN];
	*en = e->a[A_END];
	*d = e->a[A_DELTA];
	if (hb && he && !hd) {
		*d = *en - *b;
		hd = 1;
	}
	if (hb && he && hd)
		return 1;
	if (!e->hasts || !e->hasdur)
		return 0;
	*b = (pfrows ? (e->ts >= 0 ? e->ts / 1000 : -((-e->ts + 999) /
	    1000)) : e->ts / 1000) * 1000;
	*d = e->dur / 1000 * 1000;
	*en = *b + *d;
	return 1;
}

static int
islaunch(const struct ev *e)
{
	static const char *const set[] = { "hipModuleLaunchKernel",
	    "hipLaunchKernelGGL", "hipLaunchKernel", "hipExtLaunchKernelGGL",
	    "hipModuleLaunchCooperativeKernel", "hipExtModuleLaunchKernel",
	    "hipMemset", "hipMemcpyHtoDAsync", "hipMemcpyDtoHAsync",
	    "hipMemsetD32Async", NULL };
	const char *p;
	size_t i;

	if (strcmp(e->cat, "hip_api") != 0 || !e->corrapi)
		return 0;
	for (i = 0; set[i]; i++)
		if (strcmp(e->name, set[i]) == 0)
			return 1;
	for (p = e->name; *p; p++)
		if (strncasecmp(p, "launch", 6) == 0)
			return hasci(p + 6, "kernel");
	return 0;
}

char *
lower(const char *s)
{
	char *l = xstrdup(s), *p;

	for (p = l; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return l;
}

struct arow {
	int64_t pid, tid, dev;
	const char *api, *kern;
	int64_t count, qcount;
	int64_t *v[4];		/* T, A, Q, K */
	size_t n[4], cap[4];
};

static int
arowcmp(const void *a, const void *b)
{
	const struct arow *x = a, *y = b;
	int c;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if ((c = strcmp(x->api, y->api)) != 0)
		return c;
	return strcmp(x->kern, y->kern);
}

static void
apush(struct arow *r, int i, int64_t v)
{
	xgrow(&r->v[i], &r->cap[i], r->n[i] + 1, sizeof *r->v[i]);
	r->v[i][r->n[i]++] = v;
}

__extension__ typedef __int128 i128;

/* Avg, Med, Min, Max, StdDev (statistics.pstdev) of a list. */
static void
astats(int64_t *v, size_t n)
{
	i128 s1 = 0, s2 = 0, num;
	size_t i;

	if (n == 0) {
		cfloat(0.0);
		cfloat(0.0);
		cint(0);
		cint(0);
		cfloat(0.0);
		return;
	}
	qsort(v, n, sizeof *v, i64cmp);
	for (i = 0; i < n; i++) {
		s1 += v[i];
		s2 += (i128)v[i] * v[i];
	}
	cfloat((double)s1 / (double)n);
	cfloat(n % 2 ? (double)v[n / 2] : (double)((i128)v[n / 2 - 1] +
	    v[n / 2]) / 2);
	cint(v[0]);
	cint(v[n - 1]);
	num = (i128)n * s2 - s1 * s1;
	cfloat(n > 1 ? (double)sqrtl((long double)num / ((long double)n *
	    (long double)n)) : 0.0);
}

/* The correlation ids of the api report, for their index. */
struct cg {
	int64_t corr;
	const struct ev *api;
	const struct ev **k;
	size_t nk, capk;
	size_t apiorder;
};
static const struct cg *corrs;

static uint64_t
corrrehash(size_t i)
{
	return tl_hash64((uint64_t)corrs[i].corr);
}

static int
correq(size_t i, const void *arg)
{
	return corrs[i].corr == ((const struct ev *)arg)->corr;
}

void
apireport(const char *dir)
{
	static const char *const h[] = { "PID", "TID", "DevId", "Count",
	    "QCount", "TAvg_ns", "TMed_ns", "TMin_ns", "TMax_ns", "TStdDev_ns",
	    "AAvg_ns", "AMed_ns", "AMin_ns", "AMax_ns", "AStdDev_ns",
	    "QAvg_ns", "QMed_ns", "QMin_ns", "QMax_ns", "QStdDev_ns",
	    "KAvg_ns", "KMed_ns", "KMin_ns", "KMax_ns", "KStdDev_ns",
	    "API Name", "Kernel Name", NULL };
	/* corr -> api event and kernel events, in first-seen order */
	struct cg *c = NULL;
	struct hix cix = { NULL, 0, 0 };
	size_t nc = 0, capc = 0, i, j, napi = 0, m;
	struct arow *rows = NULL, *r;
	size_t nrow = 0, caprow = 0;
	const struct ev *e, *best;
	int64_t b, d, en, kb, kd, ke, A, Q, pid, tid, dev, bb = 0;
	char *l;
	int kern;
	const char *kn;
	size_t *ord;

	compilere(exclude);
	for (i = 0; i < nev; i++) {
		e = &evs[i];
		if (!e->hascorr)
			continue;
		l = lower(e->name);
		m = strlen(l);
		kern = (m >= 3 && strcmp(l + m - 3, ".kd") == 0) ||
		    strstr(l, ".kd ") != NULL;
		if (!kern) {
			char *lc = lower(e->cat);

			kern = (strstr(lc, "kernel_dispatch") ||
			    strstr(lc, "gpu_activity") || strstr(lc, "kernel") ||
			    strstr(lc, "memory_copy")) && apitimes(e, &b, &d,
			    &en) && d > 0 && !strstr(l, "register");
			free(lc);
		}
		free(l);
		if (!kern && !((strcmp(e->cat, "hip_api") == 0 && e->corrapi) ||
		    strcasecmp(e->cat, "cuda_api") == 0 ||
		    strcasecmp(e->cat, "cupti") == 0))
			continue;
		hgrow(&cix, corrrehash);
		m = hslot(&cix, tl_hash64((uint64_t)e->corr), correq, e);
		if (cix.v[m] == 0) {
			xgrow(&c, &capc, nc + 1, sizeof *c);
			corrs = c;
			memset(&c[nc], 0, sizeof *c);
			c[nc].corr = e->corr;
			cix.v[m] = ++nc;
			cix.n++;
		}
		j = cix.v[m] - 1;
		if (kern) {
			kn = e->kname ? e->kname : e->name;
			if (hasexre && regexec(&exre, kn, 0, NULL, 0) == 0)
				continue;
			xgrow(&c[j].k, &c[j].capk, c[j].nk + 1,
			    sizeof *c[j].k);
			c[j].k[c[j].nk++] = e;
		} else {
			if (c[j].api == NULL)
				c[j].apiorder = napi++;
			c[j].api = e;
		}
	}
	/* The APIs in their first insertion order. */
	ord = xcalloc(napi + 1, sizeof *ord);
	for (j = 0; j < nc; j++)
		if (c[j].api)
			ord[c[j].apiorder] = j;
	for (i = 0; i < napi; i++) {
		struct cg *g = &c[ord[i]];

		e = g->api;
		if (!nonlaunch && !islaunch(e))
			continue;
		if (!apitimes(e, &b, &d, &en))
			continue;
		A = d;
		pid = e->haspid ? e->pid : 0;
		tid = e->hastid ? e->tid : 0;
		best = NULL;
		for (j = 0; j < g->nk; j++) {
			if (!multik) {
				if (apitimes(g->k[j], &kb, &kd, &ke) &&
				    (best == NULL || kb < bb)) {
					best = g->k[j];
					bb = kb;
				}
				continue;
			}
		}
		if (g->nk == 0) {
			if (!nonlaunch)
				continue;
		}
		for (j = 0; j < (g->nk ? g->nk : 1); j++) {
			const struct ev *k = g->nk ? g->k[j] : NULL;

			if (k != NULL && !multik && k != best)
				continue;
			if (k != NULL && !apitimes(k, &kb, &kd, &ke))
				continue;
			dev = 0;
			if (k != NULL) {
				if (k->has & (1u << A_DEV))
					dev = k->a[A_DEV];
				else if (k->agent)
					dev = k->agent - 1;
			}
			kn = k == NULL ? "" : k->kname ? k->kname : k->name;
			for (m = 0; m < nrow; m++)
				if (rows[m].pid == pid && rows[m].tid == tid &&
				    rows[m].dev == dev &&
				    strcmp(rows[m].api, e->name) == 0 &&
				    strcmp(rows[m].kern, kn) == 0)
					break;
			if (m == nrow) {
				xgrow(&rows, &caprow, nrow + 1, sizeof *rows);
				memset(&rows[nrow], 0, sizeof *rows);
				rows[nrow].pid = pid;
				rows[nrow].tid = tid;
				rows[nrow].dev = dev;
				rows[nrow].api = e->name;
				rows[nrow].kern = kn;
				nrow++;
			}
			r = &rows[m];
			r->count++;
			if (k == NULL) {
				apush(r, 1, A);
				apush(r, 2, 0);
				apush(r, 3, 0);
				continue;
			}
			r->qcount++;
			Q = kb - en > 0 ? kb - en : 0;
			apush(r, 0, A + Q + kd);
			apush(r, 1, A);
			apush(r, 2, Q);
			apush(r, 3, kd);
		}
	}
	qsort(rows, nrow, sizeof *rows, arowcmp);
	opensheet(dir, "api_kernel_summary");
	header(h);
	for (m = 0; m < nrow; m++) {
		r = &rows[m];
		cint(r->pid);
		cint(r->tid);
		cint(r->dev);
		cint(r->count);
		cint(r->qcount);
		for (j = 0; j < 4; j++) {
			astats(r->v[j], r->n[j]);
			free(r->v[j]);
		}
		ccstr(r->api);
		ccstr(r->kern);
		endline();
	}
	closesheet();
	free(rows);
	free(ord);
	for (j = 0; j < nc; j++)
		free(c[j].k);
	free(c);
	hfree(&cix);
	if (hasexre)
		regfree(&exre);
}

/* ---- pftrace: memory_copy ---- */

struct mc {
	int64_t bytes;
	char *dir;
	int64_t n;
};

static int
mccmp(const void *a, const void *b)
{
	const struct mc *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? -1 : 1;
	return strcmp(x->dir, y->dir);
}

void
memcpyreport(const char *dir)
{
	static const char *const h[] = { "copy_bytes", "direction", "count",
	    NULL };
	struct mc *v = NULL;
	size_t n = 0, cap = 0, i, k;
	const struct ev *e;
	char b[128], s[24], d[24], *u, *cat, *p, *q;

	for (i = 0; i < nev; i++) {
		e = &evs[i];
		cat = lower(e->cat);
		for (p = cat; isspace((unsigned char)*p); p++)
			;
		for (q = p + strlen(p); q > p && isspace((unsigned char)q[-1]);
		    q--)
			;
		*q = '\0';
		k = strcmp(p, "memory_copy") == 0;
		free(cat);
		if (!k || !(e->has & (1u << A_BYTES)))
			continue;
		u = xstrdup(e->name);
		for (p = u; *p; p++)
			*p = (char)toupper((unsigned char)*p);
		if (e->has & (1u << A_SRC))
			snprintf(s, sizeof s, "%" PRId64, e->a[A_SRC]);
		else
			strcpy(s, "?");
		if (e->has & (1u << A_DST))
			snprintf(d, sizeof d, "%" PRId64, e->a[A_DST]);
		else
			strcpy(d, "?");
		if (strstr(u, "MEMORY_COPY_HOST_TO_DEVICE"))
			snprintf(b, sizeof b, "h2d (GPU %s)", d);
		else if (strstr(u, "MEMORY_COPY_DEVICE_TO_HOST"))
			snprintf(b, sizeof b, "d2h (GPU %s)", s);
		else if (strstr(u, "MEMORY_COPY_DEVICE_TO_DEVICE"))
			snprintf(b, sizeof b, "d2d (GPU %s -> GPU %s)", s, d);
		else
			snprintf(b, sizeof b, "other");
		free(u);
		for (k = 0; k < n; k++)
			if (v[k].bytes == e->a[A_BYTES] &&
			    strcmp(v[k].dir, b) == 0)
				break;
		if (k == n) {
			xgrow(&v, &cap, n + 1, sizeof *v);
			v[n].bytes = e->a[A_BYTES];
			v[n].dir = xstrdup(b);
			v[n].n = 0;
			n++;
		}
		v[k].n++;
	}
	qsort(v, n, sizeof *v, mccmp);
	opensheet(dir, "memory_copy_by_copy_bytes");
	header(h);
	for (k = 0; k < n; k++) {
		cint(v[k].bytes);
		ccstr(v[k].dir);
		cint(v[k].n);
		endline();
		free(v[k].dir);
	}
	closesheet();
	free(v);
}

