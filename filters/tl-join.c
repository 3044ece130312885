/*
 * tl-join: N >= 2 tables of one kind side by side. The baseline first,
 * each with a tag, joined on the table's key (outer: a row of any table
 * is kept); every other column as <col>__<tag>, and for the numeric ones
 * <col>__<tag>_diff (variant - baseline) and <col>__<tag>_pct (100 * diff
 * / baseline); for each variant the split of the rows into intersect,
 * only_baseline and only_variant. The exit status is diff(1)'s: 0 same,
 * 1 different, 2 trouble.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/file.h"
#include "../common/err.h"
#include "../common/input.h"
#include "../common/intern.h"
#include "../common/mem.h"
#include "../common/opt.h"
#include "../common/tsv.h"

/*
 * The kinds of table that tl tools write: the columns that tell the
 * kind, and the default key. A kind with no key has none that makes
 * sense (-k names one). Most specific first.
 */
#define MAXSIG	6
#define MAXKEY	12
static const struct kind {
	const char *name;
	const char *sig[MAXSIG];
	const char *key[MAXKEY];
} kinds[] = {
	/* tl-roofline */
	{ "roofline rows", { "sheet", "model", "pass", "params",
	    "kernel_time_ns" }, { "uid", "pass" } },
	/* tl-parse and tl-tree: not tables */
	{ "tree stream", { "uid", "cat", "ts_ns", "parent", "depth" },
	    { NULL } },
	{ "event stream", { "uid", "ph", "cat", "ts_ns" }, { NULL } },
	/* tl-roofline */
	{ "roofline summary", { "name", "kernel_time_ns_sum", "count", "uid",
	    "tflops_per_s_mean" }, { "name", "param_*" } },
	/* tl-agg */
	{ "timeline", { "type", "time_ms", "percent" }, { "type" } },
	{ "categories", { "category", "count", "kernel_time_ms",
	    "cumulative_percent" }, { "category" } },
	{ "unified", { "name", "input_dims", "kernel_time_us_sum",
	    "has_perf_model" }, { "name", "input_dims", "input_types",
	    "input_strides", "concrete_inputs" } },
	{ "unique_args", { "name", "input_dims", "direct_kernel_time_us_sum",
	    "ex_uid" }, { "name", "input_dims", "input_types",
	    "input_strides", "concrete_inputs" } },
	{ "ops", { "name", "count", "direct_kernel_time_us_sum",
	    "categories" }, { "name" } },
	{ "kernels", { "category", "parent_op", "name", "stream",
	    "percent_of_kernels" }, { "category", "parent_op", "name",
	    "stream" } },
	{ "short_kernels", { "parent_op", "input_dims", "input_strides",
	    "concrete_inputs", "name", "percent_of_total" }, { "parent_op",
	    "input_dims", "input_strides", "concrete_inputs", "name" } },
	{ "short_histogram", { "bin_start_us", "bin_end_us", "count" },
	    { NULL } },
	{ "collectives", { "process_group", "collective", "in_nelems",
	    "duration_us_sum" }, { "rank", "process_group",
	    "process_group_ranks", "collective", "group_size", "dtype",
	    "in_nelems", "out_nelems", "in_split_size", "out_split_size",
	    "stream" } },
	{ "idle_gaps", { "device", "stream", "cause", "time_us" },
	    { "device", "stream", "cause" } },
	{ "launch_delays", { "uid", "launch_uid", "launch_delay_us" },
	    { "uid" } },
	{ "launch_delay_stats", { "name", "launch_delay_us_sum" },
	    { "name" } },
	{ "comm_exposure", { "device", "kind", "overlapped_us" },
	    { "device", "kind" } },
	{ "streams", { "device", "stream", "busy_us", "span_us" },
	    { "device", "stream" } },
	/* the comparison programs' own tables */
	{ "tl-xdiff ops", { "operation", "status", "time_ns_1",
	    "time_ns_2", "top_kernel_1" }, { "operation" } },
	{ "tl-xdiff layers", { "layer", "status", "time_ns_1",
	    "time_ns_2" }, { "layer" } },
	{ "tl-xdiff kernels", { "operation", "side", "kernel",
	    "time_ns" }, { "operation", "side", "kernel", "cpu_op" } },
	{ "tl-diff lca", { "lca_id", "op", "kernel_time_ns_diff" },
	    { NULL } },
	{ "tl-diff args", { "op", "input_dims", "lcas",
	    "kernel_time_ns_diff" }, { "op", "input_dims", "input_types",
	    "input_strides", "concrete_inputs" } },
	{ "tl-diff ops", { "op", "lcas", "kernel_time_ns_diff" },
	    { "op" } },
	{ "tl-diff names", { "op", "side", "cpu_op_name", "gpu_name",
	    "dur_ns_sum" }, { "op", "side", "cpu_op_name", "gpu_name" } },
	{ "tl-diff rows", { "lca_id", "side", "gpu_uid" }, { NULL } },
	{ "tl-diff uids", { "side", "uid", "other_uid" }, { "side", "uid" } },
	{ "tl-join summary", { "variant", "intersect", "only_baseline",
	    "only_variant" }, { "variant" } },
};
#define NKIND	(sizeof kinds / sizeof *kinds)

#define NONE	UINT32_MAX		/* no row */

/* Column flags, per table. */
enum { C_NUM = 1, C_INT = 2, C_DEC = 4 };

struct ktab {
	const char *path;		/* the operand, as shown */
	char *tag;
	int kind;			/* index in kinds, -1: unknown */
	size_t ncol;
	char **col;
	unsigned char *flag;		/* per column: C_* */
	uint64_t *bad;			/* line of the first non-number */
	char *arena;			/* rows, raw fields, TAB-joined */
	size_t narena, caparena;
	size_t *row;			/* row start in arena */
	uint32_t *rlen;
	size_t nrow, caprow;
	int *key;			/* key column indexes */
	int *map;			/* union column -> own column, -1 */
};

/* A union column: its name, and for each variant whether it is diffed. */
struct ucol {
	const char *name;
	unsigned char *metric;		/* per table (variants) */
};

static struct ktab *tab;
static size_t ntab;
static char **keyname;
static size_t nkey;
static struct ucol *ucol;
static size_t nucol;
static uint32_t *grp;			/* ngrp x ntab row indexes */
static size_t ngrp;
static double eps;
/* The stream being read: reachable when an error exits (LeakSanitizer). */
static struct tl_tsv *volatile curt;
static struct tl_src *volatile cursrc;

/* Field views of one row per table. */
static const char ***fv;
static size_t **fvl;

/* A field that is a decimal number: [-+]digits[.digits][e[-+]digits]. */
static int
isnum(const char *s, size_t n, int *isint, int *isdec)
{
	size_t i = 0, d = 0;

	*isint = *isdec = 0;
	if (n == 0)
		return 0;
	if (s[i] == '-' || s[i] == '+')
		i++;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		d++;
	*isint = i == n && d > 0;
	if (i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			d++;
	if (d == 0)
		return 0;
	*isdec = i == n;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '-' || s[i] == '+'))
			i++;
		if (i == n)
			return 0;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
	}
	return i == n;
}

static double
todouble(const char *s, size_t n)
{
	char tmp[64];

	if (n >= sizeof tmp)
		n = sizeof tmp - 1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	return strtod(tmp, NULL);
}

/*
 * A plain decimal as an integer scaled by 10^*scale: 1 when it fits in
 * 18 digits.
 */
static int
scaled(const char *s, size_t n, int64_t *v, int *scale)
{
	size_t i = 0;
	int neg = 0, digits = 0, frac = -1;
	int64_t x = 0;

	if (s[i] == '-' || s[i] == '+')
		neg = s[i++] == '-';
	for (; i < n; i++) {
		if (s[i] == '.') {
			frac = 0;
			continue;
		}
		if (x == 0 && s[i] == '0') {
			if (frac >= 0)
				frac++;
			continue;
		}
		if (++digits > 18)
			return 0;
		x = x * 10 + (s[i] - '0');
		if (frac >= 0)
			frac++;
	}
	*v = neg ? -x : x;
	*scale = frac < 0 ? 0 : frac;
	return 1;
}

/* x * 10^(to - from), within +-2^62: 1, or 0 if it does not fit. */
static int
up(int64_t *x, int from, int to)
{
	for (; from < to; from++) {
		if (*x > INT64_MAX / 20 || *x < -(INT64_MAX / 20))
			return 0;
		*x *= 10;
	}
	return 1;
}

/*
 * Write b - a: exactly when both are plain decimals that fit, else as
 * doubles. Its value as a double in *d.
 */
static void
outdiff(struct tl_out *o, const char *a, size_t na, const char *b,
    size_t nb, double *d)
{
	int64_t x, y;
	int sa, sb, s, isint, deca, decb;
	char buf[48], *e;
	size_t k;

	isnum(a, na, &isint, &deca);
	isnum(b, nb, &isint, &decb);
	if (deca && decb && scaled(a, na, &x, &sa) && scaled(b, nb, &y, &sb)) {
		s = sa > sb ? sa : sb;
		if (!up(&x, sa, s) || !up(&y, sb, s))
			goto dbl;
		y -= x;
		/* y / 10^s, trailing zeros off */
		k = (size_t)snprintf(buf, sizeof buf, "%s%0*" PRIu64,
		    y < 0 ? "-" : "", s + 1, (uint64_t)(y < 0 ? -y : y));
		if (s > 0) {
			e = buf + k - s;
			memmove(e + 1, e, (size_t)s + 1);
			*e = '.';
			k++;
			while (buf[k - 1] == '0')
				k--;
			if (buf[k - 1] == '.')
				k--;
			buf[k] = '\0';
		}
		*d = strtod(buf, NULL);
		tl_out_raw(o, buf, k);
		return;
	}
dbl:
	*d = todouble(b, nb) - todouble(a, na);
	tl_out_double(o, *d);
}

/* Split row r of table t into fv[t], fvl[t]. */
static void
split(size_t t, uint32_t r)
{
	struct ktab *k = &tab[t];
	const char *p, *end, *q;
	size_t i;

	if (r == NONE)
		return;
	p = k->arena + k->row[r];
	end = p + k->rlen[r];
	for (i = 0; i < k->ncol; i++) {
		q = memchr(p, '\t', (size_t)(end - p));
		if (q == NULL)
			q = end;
		fv[t][i] = p;
		fvl[t][i] = (size_t)(q - p);
		p = q + 1;
	}
}

static void
load(struct ktab *k, const char *path)
{
	struct tl_src *src;
	struct tl_tsv *t;
	size_t i, j, n, need;
	int r, isint, isdec;
	const char *p;

	k->path = strcmp(path, "-") == 0 ? "<stdin>" : path;
	if ((cursrc = src = tl_src_open(path)) == NULL)
		exit(2);
	if ((r = tl_src_next(src)) <= 0) {
		if (r == 0)
			tl_errx(2, "%s: empty input: no header", k->path);
		exit(2);
	}
	curt = t = tl_tsv_open(src);
	k->ncol = t->ncol;
	k->col = xcalloc(k->ncol, sizeof *k->col);
	for (i = 0; i < k->ncol; i++)
		k->col[i] = xstrdup(t->col[i]);
	/* The first kind whose signature columns are all in the header. */
	k->kind = -1;
	for (i = 0; i < NKIND && k->kind < 0; i++) {
		for (j = 0; j < MAXSIG && kinds[i].sig[j] != NULL; j++)
			if (tl_tsv_col(t, kinds[i].sig[j]) < 0)
				break;
		if (j == MAXSIG || kinds[i].sig[j] == NULL)
			k->kind = (int)i;
	}
	k->flag = xmalloc(k->ncol);
	memset(k->flag, C_NUM | C_INT | C_DEC, k->ncol);
	k->bad = xcalloc(k->ncol, sizeof *k->bad);
	while (tl_tsv_next(t)) {
		if (k->nrow == UINT32_MAX - 1)
			tl_tsv_errx(t, "too many rows");
		p = t->f[0];
		n = (size_t)(t->f[k->ncol - 1] + t->fl[k->ncol - 1] - p);
		if (n > UINT32_MAX)
			tl_tsv_errx(t, "line too long");
		need = k->narena + n + 1;
		if (need > k->caparena)
			xgrow(&k->arena, &k->caparena, need, 1);
		memcpy(k->arena + k->narena, p, n);
		k->arena[k->narena + n] = '\n';
		xgrow(&k->row, &k->caprow, k->nrow + 1, sizeof *k->row);
		k->rlen = xreallocarray(k->rlen, k->caprow, sizeof *k->rlen);
		k->row[k->nrow] = k->narena;
		k->rlen[k->nrow++] = (uint32_t)n;
		k->narena = need;
		for (i = 0; i < k->ncol; i++) {
			if (t->fl[i] == 0 || !(k->flag[i] & C_NUM))
				continue;
			if (!isnum(t->f[i], t->fl[i], &isint, &isdec)) {
				k->flag[i] = 0;
				k->bad[i] = t->lineno;
				continue;
			}
			if (!isint)
				k->flag[i] &= (unsigned char)~C_INT;
			if (!isdec)
				k->flag[i] &= (unsigned char)~C_DEC;
		}
	}
	tl_tsv_close(t);
	curt = NULL;
	if ((r = tl_src_next(src)) != 0) {
		if (r > 0)
			tl_errx(2, "%s: more than one stream: give each table "
			    "as an operand", k->path);
		exit(2);
	}
	tl_src_close(src);
}

static int
owncol(const struct ktab *k, const char *name)
{
	size_t i;

	for (i = 0; i < k->ncol; i++)
		if (strcmp(k->col[i], name) == 0)
			return (int)i;
	return -1;
}

/* Split a comma list into a new NULL-terminated vector. */
static char **
commas(const char *s, size_t *n)
{
	char **v = NULL, *c = xstrdup(s), *p, *q;
	size_t cap = 0, k = 0;

	for (p = c;; p = q + 1) {
		q = strchr(p, ',');
		if (q != NULL)
			*q = '\0';
		xgrow(&v, &cap, k + 2, sizeof *v);
		v[k++] = xstrdup(p);
		if (q == NULL)
			break;
	}
	v[k] = NULL;
	free(c);
	*n = k;
	return v;
}

static void
freev(char **v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/* A character of a tag. */
static int
tagchar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/* A tag from a path: the base name without its extensions. */
static char *
deftag(const char *path)
{
	const char *b = strrchr(path, '/');
	char *t, *p;

	if (strcmp(path, "-") == 0)
		return xstrdup("stdin");
	b = b == NULL ? path : b + 1;
	t = xstrdup(b);
	if ((p = strchr(t + (*t == '.'), '.')) != NULL && p != t)
		*p = '\0';
	for (p = t; *p != '\0'; p++)
		if (!tagchar(*p))
			*p = '_';
	return t;
}

/*
 * The default tags: the base names without extensions; when two are the
 * same, the names of the directories (a/ops.tsv b/ops.tsv: a, b).
 */
static char **
deftags(char *const *paths, size_t n)
{
	char **tags = xcalloc(n + 1, sizeof *tags), *dir, *p;
	size_t i, j;

	for (i = 0; i < n; i++)
		tags[i] = deftag(paths[i]);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (strcmp(tags[i], tags[j]) == 0)
				goto dirs;
	return tags;
dirs:
	for (i = 0; i < n; i++) {
		dir = xstrdup(paths[i]);
		while ((p = strrchr(dir, '/')) != NULL && p[1] == '\0' &&
		    p != dir)
			*p = '\0';
		if ((p = strrchr(dir, '/')) == NULL) {
			free(dir);
			continue;	/* no directory: keep the file's */
		}
		*p = '\0';
		free(tags[i]);
		tags[i] = deftag(*dir != '\0' ? dir : "/");
		free(dir);
	}
	return tags;
}

/*
 * Check the tags: not empty, of [A-Za-z0-9_.-], no "__", not ending in
 * "_diff" or "_pct" when another tag is what comes before, all distinct.
 */
static void
checktags(char **tags, const char *const *paths, size_t n)
{
	size_t i, j, l, m;
	const char *p;

	for (i = 0; i < n; i++) {
		if (*tags[i] == '\0')
			tl_errx(2, "%s: empty tag", paths[i]);
		for (p = tags[i]; *p != '\0'; p++)
			if (!tagchar(*p))
				tl_errx(2, "tag \"%s\" (%s): only letters, "
				    "digits, '_', '-' and '.' make a tag",
				    tags[i], paths[i]);
		if (strstr(tags[i], "__") != NULL)
			tl_errx(2, "tag \"%s\" (%s): \"__\" separates the "
			    "tag from the column: not in a tag", tags[i],
			    paths[i]);
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			if (i == j)
				continue;
			if (j > i && strcmp(tags[i], tags[j]) == 0)
				tl_errx(2, "tags collide: \"%s\" names %s and "
				    "%s (name them with -n)", tags[i],
				    paths[i], paths[j]);
			l = strlen(tags[i]);
			m = strlen(tags[j]);
			if (m > l && strncmp(tags[j], tags[i], l) == 0 &&
			    (strcmp(tags[j] + l, "_diff") == 0 ||
			    strcmp(tags[j] + l, "_pct") == 0))
				tl_errx(2, "tags collide: \"%s\" (%s) reads as "
				    "the %s column of \"%s\" (%s)", tags[j],
				    paths[j], tags[j] + l + 1, tags[i],
				    paths[i]);
		}
}

/* The key: -k, or the kind's. */
static void
setkey(const char *keyopt)
{
	const struct kind *k;
	size_t i, j, t, cap = 0;
	int c;

	if (keyopt != NULL) {
		keyname = commas(keyopt, &nkey);
		for (i = 0; i < nkey; i++) {
			if (*keyname[i] == '\0')
				tl_errx(2, "-k: empty column name");
			for (j = 0; j < i; j++)
				if (strcmp(keyname[i], keyname[j]) == 0)
					tl_errx(2, "-k: column \"%s\" twice",
					    keyname[i]);
		}
	} else {
		if (tab[0].kind < 0)
			tl_errx(2, "%s: not a table tl-join knows: name its "
			    "key columns with -k", tab[0].path);
		k = &kinds[tab[0].kind];
		if (strcmp(k->name, "tree stream") == 0 ||
		    strcmp(k->name, "event stream") == 0)
			tl_errx(2, "%s: %s %s, not a table: compare two "
			    "tree streams with tl-diff (or name key columns "
			    "with -k)", tab[0].path, k->name[0] == 'e' ?
			    "an" : "a", k->name);
		if (k->key[0] == NULL)
			tl_errx(2, "%s: a table of kind \"%s\" has no key: "
			    "name key columns with -k", tab[0].path,
			    k->name);
		keyname = NULL;
		nkey = 0;
		/* a trace column (several traces) is part of the key */
		for (t = 0; t < ntab && owncol(&tab[t], "trace") >= 0; t++)
			;
		if (t == ntab) {
			xgrow(&keyname, &cap, nkey + 2, sizeof *keyname);
			keyname[nkey++] = xstrdup("trace");
		}
		for (i = 0; i < MAXKEY && k->key[i] != NULL; i++) {
			if (strcmp(k->key[i], "param_*") != 0) {
				xgrow(&keyname, &cap, nkey + 2,
				    sizeof *keyname);
				keyname[nkey++] = xstrdup(k->key[i]);
				continue;
			}
			/* the param_ columns that every table has */
			for (j = 0; j < tab[0].ncol; j++) {
				if (strncmp(tab[0].col[j], "param_", 6) != 0)
					continue;
				for (t = 1; t < ntab &&
				    owncol(&tab[t], tab[0].col[j]) >= 0; t++)
					;
				if (t < ntab)
					continue;
				xgrow(&keyname, &cap, nkey + 2,
				    sizeof *keyname);
				keyname[nkey++] = xstrdup(tab[0].col[j]);
			}
		}
		keyname[nkey] = NULL;
	}
	/* two kinds tl-join knows must be the same */
	for (t = 1; t < ntab; t++)
		if (tab[t].kind >= 0 && tab[0].kind >= 0 &&
		    tab[t].kind != tab[0].kind)
			tl_errx(2, "%s: a table of kind \"%s\", not \"%s\" "
			    "like %s: tables of different kinds", tab[t].path,
			    kinds[tab[t].kind].name, kinds[tab[0].kind].name,
			    tab[0].path);
	for (t = 0; t < ntab; t++) {
		tab[t].key = xcalloc(nkey, sizeof *tab[t].key);
		for (i = 0; i < nkey; i++) {
			if ((c = owncol(&tab[t], keyname[i])) < 0)
				tl_errx(2, "%s:1: missing key column \"%s\"%s%s"
				    "%s", tab[t].path, keyname[i], keyopt !=
				    NULL ? "" : " (the key of kind \"", keyopt !=
				    NULL ? "" : kinds[tab[0].kind].name,
				    keyopt != NULL ? "" : "\")");
			tab[t].key[i] = c;
		}
	}
}

static int
iskey(const char *name)
{
	size_t i;

	for (i = 0; i < nkey; i++)
		if (strcmp(keyname[i], name) == 0)
			return 1;
	return 0;
}

/* The union of the other columns, in first-seen order; the metrics. */
static void
columns(const char *mopt)
{
	char **m = NULL;
	size_t nm = 0, i, j, t, cap = 0;
	struct ktab *k;
	int c, b, found;

	if (mopt != NULL)
		m = commas(mopt, &nm);
	for (t = 0; t < ntab; t++) {
		k = &tab[t];
		for (i = 0; i < k->ncol; i++) {
			if (iskey(k->col[i]))
				continue;
			for (j = 0; j < nucol; j++)
				if (strcmp(ucol[j].name, k->col[i]) == 0)
					break;
			if (j < nucol)
				continue;
			xgrow(&ucol, &cap, nucol + 1, sizeof *ucol);
			ucol[nucol].name = k->col[i];
			ucol[nucol++].metric = xcalloc(ntab, 1);
		}
	}
	for (t = 0; t < ntab; t++) {
		tab[t].map = xmalloc((nucol + 1) * sizeof *tab[t].map);
		for (j = 0; j < nucol; j++)
			tab[t].map[j] = owncol(&tab[t], ucol[j].name);
	}
	for (i = 0; i < nm; i++) {
		for (j = 0; j < nucol; j++)
			if (strcmp(ucol[j].name, m[i]) == 0)
				break;
		if (j == nucol)
			tl_errx(2, "-m: no column \"%s\" in any table%s", m[i],
			    iskey(m[i]) ? " but as a key" : "");
		for (t = 0; t < ntab; t++)
			if ((c = tab[t].map[j]) >= 0 &&
			    !(tab[t].flag[c] & C_NUM))
				tl_errx(2, "%s:%" PRIu64 ": column \"%s\": not a "
				    "number (-m)", tab[t].path, tab[t].bad[c],
				    m[i]);
	}
	for (j = 0; j < nucol; j++) {
		if (m != NULL) {
			for (i = 0, found = 0; i < nm; i++)
				found |= strcmp(m[i], ucol[j].name) == 0;
			if (!found)
				continue;
		}
		b = tab[0].map[j];
		if (b < 0 || !(tab[0].flag[b] & C_NUM))
			continue;
		for (t = 1; t < ntab; t++)
			if ((c = tab[t].map[j]) >= 0 &&
			    (tab[t].flag[c] & C_NUM))
				ucol[j].metric[t] = 1;
	}
	freev(m);
}

/* Room in *v for index id, the new entries bytes of fill. */
static void
growfill(uint32_t **v, size_t *cap, uint32_t id, int fill)
{
	size_t old = *cap;

	if (id < old)
		return;
	xgrow(v, cap, (size_t)id + 1, sizeof **v);
	memset(*v + old, fill, (*cap - old) * sizeof **v);
}

/* The outer join: groups in first-seen order, duplicates in order. */
static void
join(void)
{
	struct tl_intern *in = tl_intern_new();
	struct tl_out kb;
	uint32_t *gof = NULL, *occ = NULL, id, r;
	size_t capg = 0, capocc = 0, capgrp = 0, t, i, nid, ndup;
	char num[24];

	tl_out_init(&kb, -1, "key");
	for (t = 0; t < ntab; t++) {
		nid = tl_intern_count(in);
		if (capocc < nid)
			xgrow(&occ, &capocc, nid, sizeof *occ);
		if (occ != NULL)
			memset(occ, 0, capocc * sizeof *occ);
		ndup = 0;
		for (r = 0; r < tab[t].nrow; r++) {
			split(t, r);
			kb.n = 0;
			for (i = 0; i < nkey; i++) {
				tl_out_raw(&kb, fv[t][tab[t].key[i]],
				    fvl[t][tab[t].key[i]]);
				tl_out_char(&kb, '\t');
			}
			id = tl_intern(in, kb.buf, kb.n);
			growfill(&occ, &capocc, id, 0);
			if (occ[id]++ > 0) {
				/* the n-th row with a key: key + "#n" */
				ndup++;
				tl_out_raw(&kb, num, (size_t)snprintf(num,
				    sizeof num, "#%" PRIu32, occ[id] - 1));
				id = tl_intern(in, kb.buf, kb.n);
			}
			growfill(&gof, &capg, id, 0xff);
			if (gof[id] == NONE) {
				xgrow(&grp, &capgrp, (ngrp + 1) * ntab,
				    sizeof *grp);
				memset(grp + ngrp * ntab, 0xff,
				    ntab * sizeof *grp);
				gof[id] = (uint32_t)ngrp++;
			}
			grp[gof[id] * ntab + t] = r;
		}
		if (ndup > 0)
			tl_warnx("%s: %zu row%s with a key seen before in the "
			    "table: the n-th of a key is paired with the n-th "
			    "(-k for a key that is unique)", tab[t].path,
			    ndup, ndup == 1 ? "" : "s");
	}
	tl_out_close(&kb);
	free(gof);
	free(occ);
	tl_intern_free(in);
}

static void
outname(struct tl_out *o, const char *col, const char *tag,
    const char *suffix)
{
	tl_out_raw(o, "\t", 1);
	tl_out_raw(o, col, strlen(col));
	tl_out_raw(o, "__", 2);
	tl_out_raw(o, tag, strlen(tag));
	if (suffix != NULL)
		tl_out_raw(o, suffix, strlen(suffix));
}

/* Which tables a table shows: all, or the baseline and one variant. */
enum { T_ALL, T_INTERSECT, T_ONLYB, T_ONLYV };

static int
shows(int what, size_t v, size_t t)
{
	switch (what) {
	case T_ALL:
		return 1;
	case T_INTERSECT:
		return t == 0 || t == v;
	case T_ONLYB:
		return t == 0;
	default:
		return t == v;
	}
}

static const char *const splitname[] = {
	"", "intersect", "only_baseline", "only_variant"
};

/* Write the joined table (what T_ALL) or a split for variant v. */
static void
wtable(struct tl_out *o, int what, size_t v)
{
	size_t i, j, t, g, s;
	uint32_t r;
	int c, cb, na, nb;
	double d, base;

	/* header */
	for (i = 0; i < nkey; i++) {
		if (i > 0)
			tl_out_char(o, '\t');
		tl_out_raw(o, keyname[i], strlen(keyname[i]));
	}
	if (what == T_ALL)
		for (t = 1; t < ntab; t++)
			outname(o, "split", tab[t].tag, NULL);
	for (j = 0; j < nucol; j++)
		for (t = 0; t < ntab; t++) {
			if (!shows(what, v, t) || tab[t].map[j] < 0)
				continue;
			outname(o, ucol[j].name, tab[t].tag, NULL);
			if (t > 0 && ucol[j].metric[t] && what != T_ONLYV) {
				outname(o, ucol[j].name, tab[t].tag, "_diff");
				outname(o, ucol[j].name, tab[t].tag, "_pct");
			}
		}
	tl_out_char(o, '\n');
	tl_out_flush(o);

	for (g = 0; g < ngrp; g++) {
		const uint32_t *row = grp + g * ntab;

		if (what == T_INTERSECT && (row[0] == NONE || row[v] == NONE))
			continue;
		if (what == T_ONLYB && (row[0] == NONE || row[v] != NONE))
			continue;
		if (what == T_ONLYV && (row[0] != NONE || row[v] == NONE))
			continue;
		for (t = 0; t < ntab; t++)
			split(t, row[t]);
		for (t = 0; row[t] == NONE; t++)
			;
		for (i = 0; i < nkey; i++) {
			if (i > 0)
				tl_out_char(o, '\t');
			tl_out_raw(o, fv[t][tab[t].key[i]],
			    fvl[t][tab[t].key[i]]);
		}
		if (what == T_ALL)
			for (t = 1; t < ntab; t++) {
				s = row[0] != NONE ? (row[t] != NONE ?
				    T_INTERSECT : T_ONLYB) : row[t] != NONE ?
				    T_ONLYV : 0;
				tl_out_char(o, '\t');
				tl_out_raw(o, splitname[s],
				    strlen(splitname[s]));
			}
		for (j = 0; j < nucol; j++) {
			cb = tab[0].map[j];
			for (t = 0; t < ntab; t++) {
				if (!shows(what, v, t) ||
				    (c = tab[t].map[j]) < 0)
					continue;
				r = row[t];
				tl_out_char(o, '\t');
				if (r != NONE)
					tl_out_raw(o, fv[t][c], fvl[t][c]);
				if (t == 0 || !ucol[j].metric[t] ||
				    what == T_ONLYV)
					continue;
				tl_out_char(o, '\t');
				na = row[0] != NONE ? (int)fvl[0][cb] : 0;
				nb = r != NONE ? (int)fvl[t][c] : 0;
				if (na == 0 || nb == 0) {
					tl_out_char(o, '\t');
					continue;
				}
				outdiff(o, fv[0][cb], fvl[0][cb], fv[t][c],
				    fvl[t][c], &d);
				tl_out_char(o, '\t');
				base = todouble(fv[0][cb], fvl[0][cb]);
				if (base != 0 && isfinite(d / base))
					tl_out_double(o, 100.0 * d / base);
			}
		}
		tl_out_char(o, '\n');
	}
}

/* Per variant: the split counts and the rows that changed. */
struct count {
	uint64_t nb, nv, inter, onlyb, onlyv, changed;
};

static void
count(struct count *cn)
{
	size_t g, t, j;
	const uint32_t *row;
	int c, cb, ch;
	struct tl_out sink;
	double d;

	tl_out_init(&sink, -1, "sink");
	memset(cn, 0, ntab * sizeof *cn);
	for (g = 0; g < ngrp; g++) {
		row = grp + g * ntab;
		for (t = 0; t < ntab; t++)
			split(t, row[t]);
		for (t = 1; t < ntab; t++) {
			cn[t].nb += row[0] != NONE;
			cn[t].nv += row[t] != NONE;
			if (row[0] == NONE && row[t] == NONE)
				continue;
			if (row[0] == NONE) {
				cn[t].onlyv++;
				continue;
			}
			if (row[t] == NONE) {
				cn[t].onlyb++;
				continue;
			}
			cn[t].inter++;
			for (j = 0, ch = 0; j < nucol && !ch; j++) {
				if (!ucol[j].metric[t])
					continue;
				cb = tab[0].map[j];
				c = tab[t].map[j];
				if ((fvl[0][cb] == 0) != (fvl[t][c] == 0)) {
					ch = 1;
					continue;
				}
				if (fvl[0][cb] == 0)
					continue;
				sink.n = 0;
				outdiff(&sink, fv[0][cb], fvl[0][cb], fv[t][c],
				    fvl[t][c], &d);
				ch = fabs(d) > eps;
			}
			cn[t].changed += ch;
		}
	}
	tl_out_close(&sink);
}

static void
writesummary(struct tl_out *o, const struct count *cn)
{
	static const char *const hdr[] = {
		"variant", "rows_baseline", "rows_variant", "intersect",
		"only_baseline", "only_variant", "changed", NULL
	};
	size_t t, i;

	tl_out_header(o, hdr);
	for (t = 1; t < ntab; t++) {
		const uint64_t v[] = { cn[t].nb, cn[t].nv, cn[t].inter,
		    cn[t].onlyb, cn[t].onlyv, cn[t].changed };

		tl_out_cstr(o, tab[t].tag);
		for (i = 0; i < sizeof v / sizeof *v; i++) {
			tl_out_char(o, '\t');
			tl_out_i64(o, (int64_t)v[i]);
		}
		tl_out_char(o, '\n');
	}
}

/* Write one table by name; 0 if there is no such table. */
static int
table(struct tl_out *o, const char *name, const struct count *cn)
{
	size_t t, l;
	int s;

	if (strcmp(name, "all") == 0) {
		wtable(o, T_ALL, 0);
		return 1;
	}
	if (strcmp(name, "summary") == 0) {
		writesummary(o, cn);
		return 1;
	}
	for (s = T_INTERSECT; s <= T_ONLYV; s++) {
		l = strlen(splitname[s]);
		if (strncmp(name, splitname[s], l) != 0)
			continue;
		if (name[l] == '\0') {
			wtable(o, s, 1);
			return 1;
		}
		if (name[l] != '_')
			continue;
		for (t = 1; t < ntab; t++)
			if (strcmp(name + l + 1, tab[t].tag) == 0) {
				wtable(o, s, t);
				return 1;
			}
	}
	return 0;
}

/* Write table what of variant v (T_*; -1: the summary) into dir/name. */
static void
wfile(const char *dir, const char *name, int what, size_t v,
    const struct count *cn)
{
	struct tl_file f;

	if (tl_file_open(&f, dir, name) < 0)
		tl_exit(2);
	if (what < 0)
		writesummary(&f.out, cn);
	else
		wtable(&f.out, what, v);
	if (tl_file_close(&f) < 0)
		tl_exit(2);
}

static const char usage[] =
    "usage: tl-join [-q | -t table] [-e tol] [-k key,...] [-m col,...] "
    "[-n tag,...]\n"
    "               [-o dir] table table ...\n";

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "names", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "table", required_argument, NULL, 't' },
		{ "tolerance", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 }
	};
	const char *keys = NULL, *metrics = NULL, *names = NULL;
	const char *odir = NULL, *tname = NULL;
	struct count *cn;
	struct tl_out out;
	char **tags = NULL, name[256], **paths;
	size_t ntag, t, s;
	int ch, quiet = 0, same;

	tl_setprogname(argv[0]);
	tl_failstatus = 2;	/* diff(1): trouble is 2, even in libtl */
	while ((ch = tl_getopt(argc, argv, "e:k:m:n:o:qt:", lopt,
	    usage)) != -1) {
		switch (ch) {
		case 'e':
			eps = tl_optfloat("-e", optarg, 0, HUGE_VAL);
			break;
		case 'k':
			keys = optarg;
			break;
		case 'm':
			metrics = optarg;
			break;
		case 'n':
			names = optarg;
			break;
		case 'o':
			odir = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 't':
			tname = optarg;
			break;
		}
	}
	argc -= optind;
	paths = argv + optind;
	if (quiet && tname != NULL)
		tl_errx(2, "-q and -t exclude each other");
	if (argc < 2) {
		tl_warnx("two tables or more needed: the baseline, then the "
		    "variants");
		tl_usage(usage);
	}
	ntab = (size_t)argc;
	tab = xcalloc(ntab, sizeof *tab);
	if (names != NULL) {
		tags = commas(names, &ntag);
		if (ntag != ntab)
			tl_errx(2, "-n: %zu tag%s for %zu tables", ntag,
			    ntag == 1 ? "" : "s", ntab);
	} else {
		tags = deftags(paths, ntab);
	}
	for (t = 0; t < ntab; t++)
		if (strcmp(paths[t], "-") == 0)
			for (s = t + 1; s < ntab; s++)
				if (strcmp(paths[s], "-") == 0)
					tl_errx(2, "only one of the tables can "
					    "be the standard input");
	checktags(tags, (const char *const *)paths, ntab);
	if (tname != NULL) {
		for (t = 0; t < ntab; t++)
			tab[t].tag = tags[t];
		if (strcmp(tname, "all") != 0 &&
		    strcmp(tname, "summary") != 0 &&
		    strcmp(tname, "intersect") != 0 &&
		    strcmp(tname, "only_baseline") != 0 &&
		    strcmp(tname, "only_variant") != 0) {
			int ok = 0;

			for (s = T_INTERSECT; s <= (size_t)T_ONLYV; s++)
				for (t = 1; t < ntab; t++) {
					snprintf(name, sizeof name, "%s_%s",
					    splitname[s], tags[t]);
					ok |= strcmp(name, tname) == 0;
				}
			if (!ok)
				tl_errx(2, "-t: no such table: \"%s\" (all, "
				    "summary, intersect[_TAG], "
				    "only_baseline[_TAG], only_variant[_TAG])",
				    tname);
		}
	}
	for (t = 0; t < ntab; t++) {
		load(&tab[t], paths[t]);
		tab[t].tag = tags[t];
	}
	free(tags);
	setkey(keys);
	columns(metrics);
	fv = xcalloc(ntab, sizeof *fv);
	fvl = xcalloc(ntab, sizeof *fvl);
	for (t = 0; t < ntab; t++) {
		fv[t] = xcalloc(tab[t].ncol, sizeof **fv);
		fvl[t] = xcalloc(tab[t].ncol, sizeof **fvl);
	}
	join();
	cn = xcalloc(ntab, sizeof *cn);
	count(cn);
	for (t = 1, same = 1; t < ntab; t++)
		if (cn[t].onlyb > 0 || cn[t].onlyv > 0 || cn[t].changed > 0)
			same = 0;

	if (odir != NULL) {
		if (tl_mkdirs(odir) < 0)
			tl_err(2, "%s", odir);
		wfile(odir, "all.tsv", T_ALL, 0, cn);
		wfile(odir, "summary.tsv", -1, 0, cn);
		for (t = 1; t < ntab; t++)
			for (s = T_INTERSECT; s <= (size_t)T_ONLYV; s++) {
				snprintf(name, sizeof name, "%s_%s.tsv",
				    splitname[s], tab[t].tag);
				wfile(odir, name, (int)s, t, cn);
			}
	}
	if (!quiet && (odir == NULL || tname != NULL)) {
		tl_out_init(&out, 1, "<stdout>");
		table(&out, tname != NULL ? tname : "all", cn);
		tl_out_close(&out);
	}

	for (t = 0; t < ntab; t++) {
		struct ktab *k = &tab[t];

		for (s = 0; s < k->ncol; s++)
			free(k->col[s]);
		free(k->col);
		free(k->flag);
		free(k->bad);
		free(k->arena);
		free(k->row);
		free(k->rlen);
		free(k->key);
		free(k->map);
		free(k->tag);
		free(fv[t]);
		free(fvl[t]);
	}
	for (s = 0; s < nucol; s++)
		free(ucol[s].metric);
	free(ucol);
	freev(keyname);
	free(fv);
	free(fvl);
	free(grp);
	free(cn);
	free(tab);
	return same ? 0 : 1;
}
