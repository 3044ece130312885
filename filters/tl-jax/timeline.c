/*
 * tl-jax: the CSV writer and gpu_timeline (spec 6).
 */
#include "jax.h"

/* ---- CSV writing ---- */

struct tl_out co, kdo;	/* a sheet; a kernel_details cell */
const char *csvdir, *onesheet;
static int ncol;

void
begin(const char *const *cols)
{
	int i;

	co.n = 0;
	for (i = 0; cols[i] != NULL; i++) {
		if (i > 0)
			tl_out_char(&co, ',');
		tl_out_csvfield(&co, cols[i], strlen(cols[i]));
	}
	tl_out_char(&co, '\n');
	ncol = 0;
}

void
cell(const char *s, size_t n)
{
	if (ncol++ > 0)
		tl_out_char(&co, ',');
	tl_out_csvfield(&co, s, n);
}

void
cells(const char *s)
{
	cell(s, strlen(s));
}

void
celli(int64_t v)
{
	char b[TL_I64_MAX];

	cell(b, tl_fmt_i64(b, v));
}

void
cellf(double v)
{
	char b[TL_PY_FLOATMAX];

	if (v != v) {
		cell("", 0);
		return;
	}
	cell(b, (size_t)tl_py_float(b, sizeof b, v));
}

void
cellid(uint32_t id)
{
	size_t n;
	const char *s = S(id, &n);

	cell(s, n);
}

void
endrec(void)
{
	tl_out_char(&co, '\n');
	ncol = 0;
}

void
finish(const char *name)
{
	char fn[256];
	struct tl_file f;

	if (onesheet != NULL) {
		struct tl_out so;

		if (strcmp(onesheet, name) != 0)
			return;
		tl_out_init(&so, 1, "<stdout>");
		tl_out_raw(&so, co.buf, co.n);
		tl_out_close(&so);
		return;
	}
	snprintf(fn, sizeof fn, "%s.csv", name);
	if (tl_file_open(&f, csvdir, fn) < 0)
		exit(1);
	tl_out_raw(&f.out, co.buf, co.n);
	if (tl_file_close(&f) < 0)
		exit(1);
}

/* ---- gpu_timeline (spec 6) ---- */

struct iv {
	double a, b;
};

static int
ivcmp(const void *x, const void *y)
{
	const struct iv *p = x, *q = y;

	return p->a < q->a ? -1 : p->a > q->a;
}

static size_t
merge(struct iv *v, size_t n)
{
	size_t i, k = 0;

	/* qsort is not stable, but equal starts merge whatever the order. */
	qsort(v, n, sizeof *v, ivcmp);
	for (i = 0; i < n; i++) {
		if (k > 0 && v[i].a <= v[k - 1].b) {
			if (v[i].b > v[k - 1].b)
				v[k - 1].b = v[i].b;
		} else
			v[k++] = v[i];
	}
	return k;
}

static double
ivlen(const struct iv *v, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i].b - v[i].a;
	return s;
}

/* a - b, both merged; into out (room for na + nb). */
static size_t
subtract(const struct iv *a, size_t na, const struct iv *b, size_t nb,
    struct iv *out)
{
	size_t i, j = 0, n = 0;

	for (i = 0; i < nb; i++) {
		double cur = b[i].a, b1 = b[i].b;
		size_t k;

		while (j < na && a[j].b <= b[i].a)
			j++;
		for (k = j; k < na && a[k].a < b1; k++) {
			if (a[k].a > cur)
				out[n++] = (struct iv){ cur, a[k].a < b1 ?
				    a[k].a : b1 };
			if (a[k].b > cur)
				cur = a[k].b;
			if (cur >= b1)
				break;
		}
		if (cur < b1)
			out[n++] = (struct iv){ cur, b1 };
	}
	return n;
}

static const char *const tlrow[8] = {
	"computation_time", "exposed_comm_time", "exposed_memcpy_time",
	"busy_time", "idle_time", "total_time", "total_comm_time",
	"total_memcpy_time"
};

static void
metrics(int pid, double m[8])
{
	struct iv *c[4], *t1, *t2;
	size_t nc[4] = { 0, 0, 0, 0 }, i, n1, n2;

	size_t ne = 0;

	for (i = 0; i < nE; i++)
		if (E[i].pid == pid)
			ne++;
	for (i = 0; i < 4; i++)
		c[i] = xreallocarray(NULL, ne + 1, sizeof **c);
	t1 = xreallocarray(NULL, 2 * ne + 2, sizeof *t1);
	t2 = xreallocarray(NULL, 2 * ne + 2, sizeof *t2);
	for (i = 0; i < nE; i++) {
		struct ev *e = &E[i];
		size_t n;
		const char *s;
		uint32_t th;
		int cl;
		char low[16];
		size_t k;

		if (e->pid != pid)
			continue;
		th = threadname(e->pid, e->tid);
		if (th == NONE ? !(e->tid < 100) : !prefix(th, "Stream #"))
			continue;
		s = S(e->name, &n);
		for (k = 0; k < n && k < sizeof low - 1; k++)
			low[k] = (char)((s[k] >= 'A' && s[k] <= 'Z') ?
			    s[k] + 32 : s[k]);
		low[k] = '\0';
		if (strncmp(low, "copy", 4) == 0 ||
		    strncmp(low, "memcpy", 6) == 0 ||
		    strncmp(low, "memset", 6) == 0)
			cl = 2;
		else if (strcasestr(s, "rccl") || strcasestr(s, "nccl") ||
		    strcasestr(s, "cross_device_reduce"))
			cl = 1;
		else
			cl = 0;
		c[cl][nc[cl]++] = (struct iv){ e->ts, e->ts + e->dur };
		c[3][nc[3]++] = (struct iv){ e->ts, e->ts + e->dur };
	}
	for (i = 0; i < 4; i++)
		nc[i] = merge(c[i], nc[i]);
	memset(m, 0, 8 * sizeof *m);
	if (nc[3] > 0) {
		m[5] = c[3][nc[3] - 1].b - c[3][0].a;
		m[0] = ivlen(c[0], nc[0]);
		n1 = subtract(c[0], nc[0], c[1], nc[1], t1);
		m[1] = ivlen(t1, n1);
		n1 = subtract(c[0], nc[0], c[2], nc[2], t1);
		n2 = subtract(c[1], nc[1], t1, n1, t2);
		m[2] = ivlen(t2, n2);
		m[3] = ivlen(c[3], nc[3]);
		m[4] = m[5] - m[3];
		m[6] = ivlen(c[1], nc[1]);
		m[7] = ivlen(c[2], nc[2]);
	}
	for (i = 0; i < 4; i++)
		free(c[i]);
	free(t1);
	free(t2);
}

/* CPython 3.11's set of small ints: its iteration order (spec 6.2). */
static size_t
pyset(const int *v, size_t n, int *out)
{
	size_t T = 8, fill = 0, i, k;
	long *slot = xcalloc(T, sizeof *slot), *old;

	for (i = 0; i < T; i++)
		slot[i] = -1;
	for (i = 0; i < n; i++) {
		size_t j, mask = T - 1, p;
		uint64_t perturb = (uint64_t)v[i];
		int dup = 0;

		for (j = 0; j < T; j++)
			if (slot[j] == v[i])
				dup = 1;
		if (dup)
			continue;
		p = (size_t)v[i] & mask;
		for (;;) {
			size_t q, lim = p + 9 <= mask ? 9 : 0, found = T;

			for (q = 0; q <= lim; q++)
				if (slot[p + q] == -1) {
					found = p + q;
					break;
				}
			if (found < T) {
				slot[found] = v[i];
				break;
			}
			perturb >>= 5;
			p = (5 * p + 1 + (size_t)perturb) & mask;
		}
		fill++;
		if (fill * 5 >= mask * 3) {
			size_t nt = 8, ot = T;

			while (nt <= 4 * fill)
				nt <<= 1;
			old = slot;
			slot = xcalloc(nt, sizeof *slot);
			T = nt;
			for (k = 0; k < T; k++)
				slot[k] = -1;
			for (k = 0; k < ot; k++) {
				size_t m2 = T - 1, pp;
				uint64_t pt = (uint64_t)old[k];

				if (old[k] == -1)
					continue;
				pp = (size_t)old[k] & m2;
				for (;;) {
					size_t q, lim = pp + 9 <= m2 ? 9 : 0,
					    f = T;

					for (q = 0; q <= lim; q++)
						if (slot[pp + q] == -1) {
							f = pp + q;
							break;
						}
					if (f < T) {
						slot[f] = old[k];
						break;
					}
					pt >>= 5;
					pp = (5 * pp + 1 + (size_t)pt) & m2;
				}
			}
			free(old);
		}
	}
	for (i = k = 0; i < T; i++)
		if (slot[i] != -1)
			out[k++] = (int)slot[i];
	free(slot);
	return k;
}

void
timeline(void)
{
	int *pids = xreallocarray(NULL, nE + 1, sizeof *pids);
	int *ord = xreallocarray(NULL, nE + 1, sizeof *ord);
	double (*m)[8];
	double avg[8];
	size_t np = 0, i, j, n;
	static const char *const cols[] = { "type", "time ms", "percent",
	    "gpu_pid", NULL };
	static const char *const acols[] = { "type", "time ms", "percent",
	    NULL };

	/* GPU pids with a Stream event, in UID order. */
	for (i = 0; i < nE; i++) {
		struct ev *e = &E[i];
		uint32_t th;

		if (!gpupid(e->pid))
			continue;
		th = threadname(e->pid, e->tid);
		if (th == NONE ? !(e->tid < 100) : !prefix(th, "Stream #"))
			continue;
		if (np == 0 || pids[np - 1] != e->pid)
			pids[np++] = e->pid;
	}
	n = pyset(pids, np, ord);
	m = xreallocarray(NULL, n + 1, sizeof *m);
	begin(cols);
	for (i = 0; i < n; i++) {
		metrics(ord[i], m[i]);
		for (j = 0; j < 8; j++) {
			cells(tlrow[j]);
			cellf(m[i][j] / 1e3);
			cellf(m[i][j] / m[i][5] * 100);
			celli(ord[i]);
			endrec();
		}
	}
	finish("gpu_timeline");
	begin(acols);
	for (j = 0; j < 8; j++) {
		avg[j] = n > 0 ? m[0][j] : 0;
		for (i = 1; i < n; i++)
			avg[j] += m[i][j];
		avg[j] /= (double)n;
	}
	for (j = 0; j < 8 && n > 0; j++) {
		cells(tlrow[j]);
		cellf(avg[j] / 1e3);
		cellf(avg[j] / avg[5] * 100);
		endrec();
	}
	finish("gpu_events_averages");
	free(pids);
	free(ord);
	free(m);
}

