/*
 * tl-roofline: GPU arch files. An arch file is a tl-tsv(5) stream with
 * the columns key, value and source: one row per value, with where the
 * value comes from. Keys: name, match (a part of the deviceProperties
 * name that picks this arch; may repeat), mem_bw_gbps, memory_gb, and
 * matrix_DTYPE / vector_DTYPE in TFLOP/s. A TraceLens arch JSON
 * ({"name", "mem_bw_gbps", "max_achievable_tflops": {...}}) is read too.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../../common/err.h"
#include "../../common/file.h"
#include "../../common/input.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "../../common/share.h"
#include "../../common/tsv.h"
#include "roof.h"

void
rl_arch_free(struct rl_arch *a)
{
	int i;

	if (a == NULL)
		return;
	for (i = 0; i < a->nspec; i++)
		free(a->spec[i]);
	for (i = 0; i < a->nmatch; i++)
		free(a->match[i]);
	free(a->name);
	free(a->path);
	free(a);
}

static int
isspec(const char *k)
{
	const char *p;

	if (strncmp(k, "matrix_", 7) != 0 && strncmp(k, "vector_", 7) != 0)
		return 0;
	for (p = k + 7; *p != '\0'; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p))
			return 0;
	return p > k + 7;
}

/* Set a value; 0, or -1 with a message in err. */
static int
setkey(struct rl_arch *a, const char *k, const char *v, char *err,
    size_t errcap)
{
	char *end;
	double d;
	int i;

	if (strcmp(k, "name") == 0) {
		free(a->name);
		a->name = xstrdup(v);
		return 0;
	}
	if (strcmp(k, "match") == 0) {
		if (a->nmatch == (int)(sizeof a->match / sizeof *a->match)) {
			snprintf(err, errcap, "too many \"match\" rows");
			return -1;
		}
		a->match[a->nmatch++] = xstrdup(v);
		return 0;
	}
	if (strcmp(k, "mem_bw_gbps") != 0 && strcmp(k, "memory_gb") != 0 &&
	    !isspec(k)) {
		snprintf(err, errcap, "unknown key \"%.40s\"", k);
		return -1;
	}
	d = strtod(v, &end);
	if (*v == '\0' || *end != '\0' || !(d > 0) || d > 1e12) {
		snprintf(err, errcap, "%s: not a positive number: \"%.40s\"",
		    k, v);
		return -1;
	}
	if (strcmp(k, "mem_bw_gbps") == 0) {
		a->mem_bw_gbps = d;
		return 0;
	}
	if (strcmp(k, "memory_gb") == 0)
		return 0;
	for (i = 0; i < a->nspec; i++)
		if (strcmp(a->spec[i], k) == 0) {
			a->tflops[i] = d;
			return 0;
		}
	if (a->nspec == RL_MAXSPEC) {
		snprintf(err, errcap, "more than %d compute specs",
		    RL_MAXSPEC);
		return -1;
	}
	a->spec[a->nspec] = xstrdup(k);
	a->tflops[a->nspec++] = d;
	return 0;
}

/* Token i of d as text (a string unescaped) into buf: 0, -1 if too long. */
static int
jtext(const struct tl_jdoc *d, int i, char *buf, size_t cap)
{
	if ((size_t)(d->tok[i].end - d->tok[i].start) >= cap)
		return -1;
	rl_jtext(d, i, buf);
	return 0;
}

/* TraceLens's JSON: name, mem_bw_gbps, max_achievable_tflops. */
static struct rl_arch *
loadjson(const char *path, const char *js, size_t n)
{
	struct tl_jdoc d;
	struct rl_arch *a;
	char k[64], v[256], err[128];
	int i, j, end, e2, ok = 0;

	memset(&d, 0, sizeof d);
	if (tl_json_parse(&d, js, n) < 0 || d.tok[0].type != JSMN_OBJECT) {
		tl_warnx("%s: not an arch file: not JSON", path);
		tl_json_free(&d);
		return NULL;
	}
	a = xcalloc(1, sizeof *a);
	a->path = xstrdup(path);
	a->json = 1;
	end = tl_jskip(&d, 0);
	for (i = 1; i < end; i = tl_jskip(&d, i + 1)) {
		if (jtext(&d, i, k, sizeof k) < 0)
			continue;
		if (strcmp(k, "max_achievable_tflops") == 0 &&
		    d.tok[i + 1].type == JSMN_OBJECT) {
			e2 = tl_jskip(&d, i + 1);
			for (j = i + 2; j < e2; j = tl_jskip(&d, j + 1)) {
				if (d.tok[j + 1].type != JSMN_PRIMITIVE ||
				    jtext(&d, j, k, sizeof k) < 0 ||
				    jtext(&d, j + 1, v, sizeof v) < 0 ||
				    !isspec(k) || strcmp(v, "null") == 0)
					continue;
				if (setkey(a, k, v, err, sizeof err) < 0)
					goto bad;
			}
			ok = 1;
		} else if ((strcmp(k, "name") == 0 ||
		    strcmp(k, "mem_bw_gbps") == 0) &&
		    jtext(&d, i + 1, v, sizeof v) == 0 &&
		    setkey(a, k, v, err, sizeof err) < 0)
			goto bad;
	}
	tl_json_free(&d);
	if (!ok) {
		tl_warnx("%s: no \"max_achievable_tflops\"", path);
		rl_arch_free(a);
		return NULL;
	}
	return a;
bad:
	tl_warnx("%s: %s", path, err);
	tl_json_free(&d);
	rl_arch_free(a);
	return NULL;
}

struct rl_arch *
rl_arch_load(const char *path)
{
	struct tl_src *src;
	struct tl_tsv *t;
	struct rl_arch *a;
	int ck, cv, cs, r;
	const char *k, *v;
	const char *js, *p;
	char err[128], *ks, *vs;
	size_t n, kl, vl;

	if ((src = tl_src_open(path)) == NULL)
		return NULL;
	tl_src_readwhole(src);
	if ((r = tl_src_next(src)) <= 0) {
		if (r == 0)
			tl_warnx("%s: empty", path);
		tl_src_close(src);
		return NULL;
	}
	/* TraceLens's JSON: an object */
	if (tl_in_whole(src, &js, &n)) {
		for (p = js; p < js + n && isspace((unsigned char)*p); p++)
			;
		if (p < js + n && *p == '{') {
			a = loadjson(path, js, n);
			tl_src_close(src);
			return a;
		}
	}
	t = tl_tsv_open(src);
	ck = tl_tsv_need(t, "key");
	cv = tl_tsv_need(t, "value");
	cs = tl_tsv_need(t, "source");
	(void)cs;
	a = xcalloc(1, sizeof *a);
	a->path = xstrdup(path);
	while (tl_tsv_next(t)) {
		k = tl_tsv_str(t, ck, &kl);
		v = tl_tsv_str(t, cv, &vl);
		if (k == NULL)
			tl_tsv_errx(t, "empty key");
		ks = xmemdup(k, kl);
		vs = xmemdup(v != NULL ? v : "", vl);
		r = setkey(a, ks, vs, err, sizeof err);
		free(ks);
		free(vs);
		if (r < 0)
			tl_tsv_errx(t, "%s", err);
	}
	tl_tsv_close(t);
	tl_src_close(src);
	if (a->name == NULL) {
		tl_warnx("%s: no \"name\" row", path);
		rl_arch_free(a);
		return NULL;
	}
	return a;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The arch files of the share directory, sorted; NULL-terminated. */
static char **
archfiles(void)
{
	char *path = tl_path(tl_sharedir(), "arch"), **v = NULL;
	size_t n = 0, cap = 0, l;
	struct dirent *de;
	DIR *d;

	if ((d = opendir(path)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			l = strlen(de->d_name);
			if (l < 5 || strcmp(de->d_name + l - 4, ".tsv") != 0)
				continue;
			xgrow(&v, &cap, n + 2, sizeof *v);
			v[n++] = tl_path(path, de->d_name);
		}
		closedir(d);
	}
	free(path);
	xgrow(&v, &cap, n + 1, sizeof *v);
	v[n] = NULL;
	qsort(v, n, sizeof *v, cmpstr);
	return v;
}

static void
freefiles(char **v)
{
	size_t i;

	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

struct rl_arch *
rl_arch_byname(const char *name)
{
	char **v = archfiles(), *base;
	struct rl_arch *a = NULL;
	size_t i, l = strlen(name);

	for (i = 0; v[i] != NULL; i++) {
		base = strrchr(v[i], '/') + 1;
		if (strlen(base) == l + 4 && strncasecmp(base, name, l) == 0) {
			a = rl_arch_load(v[i]);
			break;
		}
	}
	freefiles(v);
	return a;
}

/* Case-insensitive strstr. */
static int
contains(const char *s, const char *sub)
{
	size_t n = strlen(sub);

	for (; *s != '\0'; s++)
		if (strncasecmp(s, sub, n) == 0)
			return 1;
	return n == 0;
}

struct rl_arch *
rl_arch_bydevice(const char *device)
{
	char **v = archfiles();
	struct rl_arch *a, *best = NULL;
	size_t i, bestlen = 0, l;
	int j;

	for (i = 0; v[i] != NULL; i++) {
		if ((a = rl_arch_load(v[i])) == NULL)
			continue;
		for (j = 0; j < a->nmatch; j++) {
			l = strlen(a->match[j]);
			if (l > bestlen && contains(device, a->match[j])) {
				rl_arch_free(best);
				best = a;
				bestlen = l;
				a = NULL;
				break;
			}
		}
		rl_arch_free(a);
	}
	freefiles(v);
	return best;
}

double
rl_arch_peak(const struct rl_arch *a, const char *spec)
{
	int i;

	if (a == NULL)
		return 0;
	for (i = 0; i < a->nspec; i++)
		if (strcmp(a->spec[i], spec) == 0)
			return a->tflops[i];
	return 0;
}

/* The rows of the arch file path, arch the name they are listed by. */
static int
listfile(struct tl_out *o, const char *path, const char *arch, size_t l)
{
	struct tl_src *src;
	struct tl_tsv *t;
	const char *s;
	size_t n;
	int c[3], i;

	if ((src = tl_src_open(path)) == NULL)
		return 1;
	if (tl_src_next(src) <= 0) {
		tl_src_close(src);
		return 0;
	}
	t = tl_tsv_open(src);
	c[0] = tl_tsv_need(t, "key");
	c[1] = tl_tsv_need(t, "value");
	c[2] = tl_tsv_need(t, "source");
	while (tl_tsv_next(t)) {
		tl_out_field(o, arch, l);
		for (i = 0; i < 3; i++) {
			tl_out_char(o, '\t');
			s = tl_tsv_str(t, c[i], &n);
			tl_out_field(o, s, n);
		}
		tl_out_char(o, '\t');
		tl_out_cstr(o, path);
		tl_out_char(o, '\n');
	}
	tl_tsv_close(t);
	tl_src_close(src);
	return 0;
}

/* A row of an arch read from TraceLens's JSON, whose source is that. */
static void
listrow(struct tl_out *o, const struct rl_arch *a, const char *k,
    const char *v, double d)
{
	tl_out_cstr(o, a->name);
	tl_out_char(o, '\t');
	tl_out_cstr(o, k);
	tl_out_char(o, '\t');
	if (v != NULL)
		tl_out_cstr(o, v);
	else
		tl_out_double(o, d);
	tl_out_raw(o, "\tTraceLens arch JSON\t", 21);
	tl_out_cstr(o, a->path);
	tl_out_char(o, '\n');
}

/*
 * Write every arch file as rows (arch, key, value, source, file), or
 * those of the arch a only.
 */
int
rl_arch_list(struct tl_out *o, const struct rl_arch *a)
{
	static const char *const hdr[] = {
		"arch", "key", "value", "source", "file", NULL
	};
	char **v, *base;
	size_t i;
	int status = 0;

	tl_out_header(o, hdr);
	if (a != NULL && !a->json)
		return listfile(o, a->path, a->name, strlen(a->name));
	if (a != NULL) {
		listrow(o, a, "name", a->name, 0);
		if (a->mem_bw_gbps > 0)
			listrow(o, a, "mem_bw_gbps", NULL, a->mem_bw_gbps);
		for (i = 0; i < (size_t)a->nspec; i++)
			listrow(o, a, a->spec[i], NULL, a->tflops[i]);
		return 0;
	}
	v = archfiles();
	for (i = 0; v[i] != NULL; i++) {
		base = strrchr(v[i], '/') + 1;
		status |= listfile(o, v[i], base, strlen(base) - 4);
	}
	freefiles(v);
	return status;
}
