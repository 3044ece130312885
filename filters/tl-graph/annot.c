/*
 * tl-graph: the iteration annotations of vLLM, SGLang, ATOM and xDiT
 * (TraceLens's IterationAnnotation): which user_annotation events are
 * execution roots, and the batch size each names. TraceLens's Python
 * regexes are written here in POSIX ERE (\d as [0-9], \b as a class of
 * the characters that may follow a word, (?:) as ()).
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/mem.h"
#include "graph.h"

enum {
	VLLM_D, ATOM_D, SGL_D,		/* tier 1, detailed */
	VLLM_N, SGL_N, ATOM_N, DIFF,	/* tier 2, native */
	SGL_NF,				/* sglang_native's parser */
	NRE
};

static const char *const pat[NRE] = {
	"^execute_[0-9]+_context_[0-9]+\\(sq[0-9]+sk[0-9]+sqsq[0-9]+"
	    "sqsk[0-9]+\\)_generation_[0-9]+\\(sq[0-9]+sk[0-9]+sqsq[0-9]+"
	    "sqsk[0-9]+\\)",
	"^(prefill|decode)\\[.*sqsq=[0-9]+.*\\]",
	"^step\\[(EXTEND|DECODE|MIXED)[^]A-Za-z0-9_][^]]*sqsq=[0-9]+"
	    "[^]]*\\]",
	"^execute_context_[0-9]+\\([0-9]+\\)_generation_[0-9]+"
	    "\\([0-9]+\\)",
	"^step\\[(EXTEND|DECODE|MIXED)([^A-Za-z0-9_].*)?\\]",
	"^(prefill|decode)\\[(.*)\\]",
	"^execute_diffusion_([0-9]+)_([0-9]+x[0-9]+)",
	"^step\\[([A-Za-z0-9_]+)[[:space:]]+bs=([0-9]+)"
	    "([[:space:]]+toks=([0-9]+))?\\]",
};

static regex_t re[NRE];
static char *abuf;
static size_t acap;

void
iter_init(void)
{
	int i;

	for (i = 0; i < NRE; i++)
		if (regcomp(&re[i], pat[i], REG_EXTENDED) != 0)
			tl_errx(1, "regcomp: %s", pat[i]);
}

static const char *
cstr(const char *s, size_t n)
{
	xgrow(&abuf, &acap, n + 1, 1);
	memcpy(abuf, s, n);
	abuf[n] = 0;
	return abuf;
}

/* 1 when the name matches a tier-1 pattern, 2 a tier-2 one, else 0. */
int
iter_tier(const char *s, size_t n)
{
	const char *c = cstr(s, n);
	int i;

	for (i = VLLM_D; i <= SGL_D; i++)
		if (regexec(&re[i], c, 0, NULL, 0) == 0)
			return 1;
	for (i = VLLM_N; i <= DIFF; i++)
		if (regexec(&re[i], c, 0, NULL, 0) == 0)
			return 2;
	return 0;
}

/* The integer at s, or 0 (Python's int() failing gives 0 there). */
static long long
num(const char *s, size_t n)
{
	long long v = 0;
	size_t i;

	if (n == 0 || n > 18)
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/*
 * vLLM's tokens: ( and ) become _, every run of the letters s, q, k
 * becomes _, then the text is split on _; token k as an integer.
 */
static long long
vtok(const char *c, int k)
{
	static char *t;
	static size_t tcap;
	size_t n = strlen(c), i, m = 0, start;
	int idx = 0;

	xgrow(&t, &tcap, n + 1, 1);
	for (i = 0; i < n; i++) {
		char ch = c[i];

		if (ch == '(' || ch == ')')
			t[m++] = '_';
		else if (ch == 's' || ch == 'q' || ch == 'k') {
			t[m++] = '_';
			while (i + 1 < n && (c[i + 1] == 's' || c[i + 1] ==
			    'q' || c[i + 1] == 'k'))
				i++;
		} else
			t[m++] = ch;
	}
	t[m] = '\0';
	for (i = 0, start = 0; i <= m; i++)
		if (i == m || t[i] == '_') {
			if (idx++ == k)
				return num(t + start, i - start);
			start = i + 1;
		}
	return 0;
}

/* The value of key=<digits> inside s (a whole key), or -1. */
static long long
keyval(const char *s, const char *key)
{
	size_t k = strlen(key);
	const char *p;

	for (p = s; (p = strstr(p, key)) != NULL; p++) {
		const char *d = p + k;
		size_t n = 0;

		if (p > s && ((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >=
		    'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9') ||
		    p[-1] == '_'))
			continue;
		if (*d != '=')
			continue;
		d++;
		while (d[n] >= '0' && d[n] <= '9')
			n++;
		if (n > 0)
			return num(d, n);
	}
	return -1;
}

/*
 * The batch size an iteration annotation names: 1 and *bs set, or 0
 * when no format parses it. The formats are tried in TraceLens's order.
 */
int
iter_bs(const char *s, size_t n, long long *bs)
{
	const char *c = cstr(s, n);
	regmatch_t m[5];
	long long a, b, v;

	if (regexec(&re[VLLM_D], c, 0, NULL, 0) == 0) {
		*bs = vtok(c, 5) + vtok(c, 13);
		return 1;
	}
	if (regexec(&re[VLLM_N], c, 0, NULL, 0) == 0) {
		*bs = vtok(c, 3) + vtok(c, 7);
		return 1;
	}
	if (regexec(&re[SGL_D], c, 0, NULL, 0) == 0) {
		a = keyval(c, "c_sq");
		b = keyval(c, "g_sq");
		v = (a > 0 ? a : 0) + (b > 0 ? b : 0);
		if (v == 0)
			v = keyval(c, "toks");
		if (v <= 0)
			v = keyval(c, "bs");
		if (v >= 0) {
			*bs = v;
			return 1;
		}
	}
	if (regexec(&re[SGL_N], c, 0, NULL, 0) == 0 &&
	    regexec(&re[SGL_NF], c, 5, m, 0) == 0) {
		long long bsz = num(c + m[2].rm_so, (size_t)(m[2].rm_eo -
		    m[2].rm_so));
		long long toks = m[4].rm_so >= 0 ? num(c + m[4].rm_so,
		    (size_t)(m[4].rm_eo - m[4].rm_so)) : 0;
		int decode = m[1].rm_eo - m[1].rm_so == 6 &&
		    memcmp(c + m[1].rm_so, "DECODE", 6) == 0;

		v = decode ? bsz : toks;
		*bs = v != 0 ? v : bsz;
		return 1;
	}
	if (regexec(&re[ATOM_D], c, 0, NULL, 0) == 0 ||
	    regexec(&re[ATOM_N], c, 0, NULL, 0) == 0) {
		v = keyval(c, "tok");
		if (v >= 0) {
			*bs = v;
			return 1;
		}
	}
	if (regexec(&re[DIFF], c, 2, m, 0) == 0) {
		*bs = num(c + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
		return 1;
	}
	return 0;
}
