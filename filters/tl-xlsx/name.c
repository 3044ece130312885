/*
 * tl-xlsx: sheet names. Excel takes at most 31 characters (UTF-16 units),
 * none of [ ] : * ? / \, no apostrophe at either end, not "History", and
 * no two names that differ only in case.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../common/json.h"
#include "../../common/mem.h"
#include "xlsx.h"

static char **used;
static size_t nused, capused;

static int
forbidden(int c)
{
	return c == '[' || c == ']' || c == ':' || c == '*' || c == '?' ||
	    c == '/' || c == '\\';
}

/*
 * Copy s into out, at most max UTF-16 units (a 4-byte sequence is 2);
 * with fix, invalid bytes and forbidden characters become '_', else
 * they make it fail (return -1).
 */
static int
cut(const char *s, char *out, size_t max, int fix)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, o = 0, units = 0, k;

	while (i < n) {
		k = tl_utf8len(p + i, n - i);
		if (k == 0 || (k == 1 && (forbidden(p[i]) || p[i] < 0x20)) ||
		    XL_NONCHAR(p + i, k)) {
			if (!fix)
				return -1;
			if (units + 1 > max)
				break;
			out[o++] = '_';
			units++;
			i += k == 0 ? 1 : k;
			continue;
		}
		if (units + (k == 4 ? 2 : 1) > max)
			break;
		memcpy(out + o, p + i, k);
		o += k;
		i += k;
		units += k == 4 ? 2 : 1;
	}
	out[o] = '\0';
	return 0;
}

const char *
xl_name_check(const char *in, char *out)
{
	size_t n;

	if (*in == '\0')
		return "an empty sheet name";
	if (cut(in, out, XL_MAXNAME, 0) < 0)
		return "Excel does not take [ ] : * ? / \\, control "
		    "characters, U+FFFE, U+FFFF or invalid UTF-8 in a sheet "
		    "name";
	n = strlen(out);
	if (out[0] == '\'' || out[n - 1] == '\'')
		return "Excel does not take an apostrophe at either end of a "
		    "sheet name";
	if (strcasecmp(out, "History") == 0)
		return "Excel keeps the sheet name History for itself";
	return NULL;
}

/* Cut the first of the suffixes suf[] that s ends in; whether one was. */
static int
cutsuffix(char *s, const char *const *suf)
{
	size_t n = strlen(s), k;

	for (; *suf != NULL; suf++)
		if (n > (k = strlen(*suf)) && strcmp(s + n - k, *suf) == 0) {
			s[n - k] = '\0';
			return 1;
		}
	return 0;
}

/* The base name of path without a compression suffix, as a copy. */
static char *
base(const char *path)
{
	static const char *const zsuf[] = { ".gz", ".xz", ".zst", ".bz2",
	    ".lz4", NULL };
	const char *b = strrchr(path, '/');
	char *s = xstrdup(b != NULL ? b + 1 : path);

	cutsuffix(s, zsuf);
	return s;
}

int
xl_name_csv(const char *path)
{
	static const char *const csv[] = { ".csv", NULL };
	char *s = base(path);
	int r = cutsuffix(s, csv);

	free(s);
	return r;
}

void
xl_name_derive(const char *path, char *out)
{
	static const char *const tsuf[] = { ".tsv", ".tab", ".txt", ".csv",
	    NULL };
	char *s = base(path);
	size_t n;

	cutsuffix(s, tsuf);
	cut(s, out, XL_MAXNAME, 1);
	free(s);
	n = strlen(out);
	if (n == 0)
		strcpy(out, "sheet");
	else {
		if (out[0] == '\'')
			out[0] = '_';
		if (out[n - 1] == '\'')
			out[n - 1] = '_';
		if (strcasecmp(out, "History") == 0)
			strcpy(out, "History_");
	}
}

int
xl_name_taken(const char *name)
{
	size_t i;

	for (i = 0; i < nused; i++)
		if (strcasecmp(used[i], name) == 0)
			return 1;
	return 0;
}

void
xl_name_use(const char *name)
{
	xgrow(&used, &capused, nused + 1, sizeof *used);
	used[nused++] = xstrdup(name);
}

void
xl_name_unique(const char *base, unsigned start, char *out)
{
	char suf[24], head[XL_NAMECAP];
	unsigned k;

	if (start == 0) {
		if (!xl_name_taken(base)) {
			strcpy(out, base);
			xl_name_use(out);
			return;
		}
		start = 2;
	}
	for (k = start;; k++) {
		snprintf(suf, sizeof suf, " (%u)", k);
		cut(base, head, XL_MAXNAME - strlen(suf), 1);
		snprintf(out, XL_NAMECAP, "%s%s", head, suf);
		if (!xl_name_taken(out))
			break;
	}
	xl_name_use(out);
}

void
xl_name_free(void)
{
	xfreev(used, nused);
	used = NULL;
	nused = capused = 0;
}
