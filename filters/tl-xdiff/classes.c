/*
 * tl-xdiff: the operation of a kernel name, by the rules of
 * share/tl/kernel-classes.tsv (and of -c's file before them): the first
 * rule whose pattern (and "also" pattern) matches, with the phase that
 * rule tells; "Other" when none does.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/mem.h"
#include "../../common/tsv.h"
#include "xdiff.h"

/* A classification rule. */
struct rule {
	uint32_t op;			/* index in xd_ops */
	regex_t re, also;
	int hasalso;
	uint8_t phase;
};

static struct rule *rules;
static size_t nrules, caprules;
char **xd_ops;
size_t xd_nops;
static size_t capops;
uint32_t xd_opother;
/* The stream being read: reachable when an error exits (LeakSanitizer). */
static struct tl_tsv *volatile curt;
static struct tl_src *volatile cursrc;
static uint8_t *phcache;		/* per name id: phase + 1 of its rule */
static uint32_t *opcache;		/* per name id: op + 1 */
static size_t capcache;

uint32_t
xd_opindex(const char *name)
{
	size_t i;

	for (i = 0; i < xd_nops; i++)
		if (strcmp(xd_ops[i], name) == 0)
			return (uint32_t)i;
	xgrow(&xd_ops, &capops, xd_nops + 1, sizeof *xd_ops);
	xd_ops[xd_nops] = xstrdup(name);
	return (uint32_t)xd_nops++;
}

void
xd_loadrules(const char *path)
{
	struct tl_src *src;
	struct tl_tsv *t;
	struct rule *r;
	const char *s;
	char *pat, err[256];
	size_t n;
	int co, cm, ca, cp, e, k;

	if ((cursrc = src = tl_src_open(path)) == NULL)
		exit(2);
	if ((k = tl_src_next(src)) <= 0) {
		if (k == 0)
			tl_errx(2, "%s: empty input: no header", path);
		exit(2);
	}
	curt = t = tl_tsv_open(src);
	co = tl_tsv_need(t, "operation");
	cm = tl_tsv_need(t, "match");
	ca = tl_tsv_col(t, "also");
	cp = tl_tsv_col(t, "phase");
	while (tl_tsv_next(t)) {
		if ((s = tl_tsv_str(t, co, &n)) == NULL)
			tl_tsv_errx(t, "column \"operation\": empty");
		xgrow(&rules, &caprules, nrules + 1, sizeof *rules);
		r = &rules[nrules];
		memset(r, 0, sizeof *r);
		pat = xmemdup(s, n);
		r->op = xd_opindex(pat);
		free(pat);
		if ((s = tl_tsv_str(t, cm, &n)) == NULL)
			tl_tsv_errx(t, "column \"match\": empty");
		pat = xmemdup(s, n);
		if ((e = regcomp(&r->re, pat, REG_EXTENDED | REG_ICASE |
		    REG_NOSUB)) != 0) {
			regerror(e, &r->re, err, sizeof err);
			tl_tsv_errx(t, "column \"match\": %s: \"%.40s\"", err,
			    pat);
		}
		free(pat);
		if (ca >= 0 && (s = tl_tsv_str(t, ca, &n)) != NULL) {
			pat = xmemdup(s, n);
			if ((e = regcomp(&r->also, pat, REG_EXTENDED |
			    REG_ICASE | REG_NOSUB)) != 0) {
				regerror(e, &r->also, err, sizeof err);
				regfree(&r->re);
				tl_tsv_errx(t, "column \"also\": %s: \"%.40s\"",
				    err, pat);
			}
			free(pat);
			r->hasalso = 1;
		}
		if (cp >= 0 && (s = tl_tsv_str(t, cp, &n)) != NULL) {
			if (n == 7 && memcmp(s, "prefill", 7) == 0)
				r->phase = PH_PREFILL;
			else if (n == 6 && memcmp(s, "decode", 6) == 0)
				r->phase = PH_DECODE;
			else
				tl_tsv_errx(t, "column \"phase\": not prefill "
				    "or decode: \"%.*s\"", (int)(n > 40 ? 40 :
				    n), s);
		}
		nrules++;
	}
	tl_tsv_close(t);
	curt = NULL;
	tl_src_close(src);
}

void
xd_freerules(void)
{
	size_t i;

	for (i = 0; i < nrules; i++) {
		regfree(&rules[i].re);
		if (rules[i].hasalso)
			regfree(&rules[i].also);
	}
	free(rules);
	for (i = 0; i < xd_nops; i++)
		free(xd_ops[i]);
	free(xd_ops);
}

/* The operation of a kernel name, and the phase its rule tells. */
uint32_t
xd_classify(uint32_t name, uint8_t *phase)
{
	const char *s;
	size_t i, n;

	if (name >= capcache) {
		size_t old = capcache;

		xgrow(&opcache, &capcache, (size_t)name + 1, sizeof *opcache);
		phcache = xreallocarray(phcache, capcache, 1);
		memset(opcache + old, 0, (capcache - old) * sizeof *opcache);
		memset(phcache + old, 0, capcache - old);
	}
	if (opcache[name] == 0) {
		s = tl_intern_str(xd_in, name, &n);
		for (i = 0; i < nrules; i++)
			if (regexec(&rules[i].re, s, 0, NULL, 0) == 0 &&
			    (!rules[i].hasalso || regexec(&rules[i].also, s, 0,
			    NULL, 0) == 0))
				break;
		opcache[name] = (i < nrules ? rules[i].op : xd_opother) + 1;
		phcache[name] = i < nrules ? rules[i].phase : PH_NONE;
	}
	*phase = phcache[name];
	return opcache[name] - 1;
}

