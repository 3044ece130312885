/* tl: resource limits (--limit NAME=SIZE). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "limit.h"
#include "tsv.h"

static const char *const names[TL_NLIM] = {
	"line", "value", "depth", "ratio", "levels", "events", "string", "kept"
};

/*
 * The most a limit may be set to: the scanner's token offsets are ints,
 * and its depth, as tl-tree's levels, sizes arrays. Only a limit without
 * such a bound may be none.
 */
static const uint64_t maxval[TL_NLIM] = {
	UINT64_MAX, INT32_MAX, 1 << 20, UINT64_MAX, 1 << 20, UINT64_MAX,
	UINT64_MAX, UINT64_MAX
};

uint64_t tl_limit[TL_NLIM] = {
	(uint64_t)1 << 30,	/* line: 1 GiB */
	(uint64_t)1 << 30,	/* value: 1 GiB */
	512,			/* depth */
	200,			/* ratio, over each 64 MiB out */
	1000,			/* levels */
	(uint64_t)1 << 26,	/* events: 64M */
	(uint64_t)1 << 26,	/* string: 64 MiB */
	(uint64_t)1 << 32,	/* kept: 4 GiB */
};

static int
setone(const char *s, size_t n)
{
	char name[16], num[32], *end;
	const char *eq;
	int64_t v;
	int i, shift = 0;

	if ((eq = memchr(s, '=', n)) == NULL ||
	    (size_t)(eq - s) >= sizeof name ||
	    n - (size_t)(eq - s) - 1 >= sizeof num)
		return -1;
	memcpy(name, s, (size_t)(eq - s));
	name[eq - s] = '\0';
	memcpy(num, eq + 1, n - (size_t)(eq - s) - 1);
	num[n - (size_t)(eq - s) - 1] = '\0';
	for (i = 0; i < TL_NLIM; i++)
		if (strcmp(name, names[i]) == 0)
			break;
	if (i == TL_NLIM)
		return -1;
	if (strcmp(num, "none") == 0) {
		if (maxval[i] != UINT64_MAX)
			return -1;
		tl_limit[i] = 0;
		return 0;
	}
	for (end = num; *end >= '0' && *end <= '9'; end++)
		;
	if (tl_parse_i64(num, (size_t)(end - num), &v) < 0)
		return -1;
	switch (*end) {
	case 'k': shift = 10; end++; break;
	case 'M': shift = 20; end++; break;
	case 'G': shift = 30; end++; break;
	case 'T': shift = 40; end++; break;
	}
	if (*end != '\0' || v == 0 || (uint64_t)v > maxval[i] >> shift)
		return -1;
	tl_limit[i] = (uint64_t)v << shift;
	return 0;
}

void
tl_limit_set(const char *arg)
{
	const char *p = arg, *c;
	size_t n;

	for (;;) {
		c = strchr(p, ',');
		n = c != NULL ? (size_t)(c - p) : strlen(p);
		if (setone(p, n) < 0)
			tl_errx(tl_failstatus, "--limit: not NAME=SIZE with "
			    "NAME one of line, value, depth, ratio, levels, "
			    "events, string, kept and SIZE a whole number "
			    "above 0 (k, M, G, T) or none: "
			    "\"%s\"", arg);
		if (c == NULL)
			return;
		p = c + 1;
	}
}

const char *
tl_limit_str(char *buf, int lim)
{
	static const char suf[] = "kMGT";
	uint64_t v = tl_limit[lim];
	int i = -1;

	if (v == 0) {
		snprintf(buf, TL_LIMIT_STRMAX, "%s=none", names[lim]);
		return buf;
	}
	while (i < 3 && v % 1024 == 0) {
		v /= 1024;
		i++;
	}
	if (i >= 0)
		snprintf(buf, TL_LIMIT_STRMAX, "%s=%" PRIu64 "%c", names[lim], v, suf[i]);
	else
		snprintf(buf, TL_LIMIT_STRMAX, "%s=%" PRIu64, names[lim], v);
	return buf;
}
