/*
 * tl-replay: the schema table. Each line of the file is a TorchScript
 * schema as str(schema) prints it; it is split as TraceLens's
 * parse_schema_string splits it (event-replay spec, 2.1):
 * ^([^(]+)\((.*)\)\s*->\s*(.*)$, the argument text cut at its first '*'
 * into positional and keyword-only arguments, each side trimmed of ','
 * and blanks and split on ',', each item "<type> <name>[=<default>]".
 * The table keeps the file's order (the registry's, in which TraceLens
 * tries the candidates) and chains the schemas of one op name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/intern.h"
#include "../../common/mem.h"
#include "replay.h"

static int
isblank_(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\f' || c == '\v';
}

/* s[0..n) without leading and trailing blanks and ',' (str.strip(", ")). */
static char *
trim(char *s, size_t *n, int comma)
{
	while (*n > 0 && (isblank_((unsigned char)*s) || (comma && *s == ','))) {
		s++;
		(*n)--;
	}
	while (*n > 0 && (isblank_((unsigned char)s[*n - 1]) ||
	    (comma && s[*n - 1] == ',')))
		(*n)--;
	return s;
}

/* Split s[0..n) on ',' into args appended to sc. */
static void
split(struct schema *sc, char *s, size_t n, size_t *cap)
{
	char *item, *end = s + n, *e, *t;
	size_t k;

	if (n == 0)
		return;
	for (item = s; item <= end; item = e + 1) {
		struct sarg *a;

		e = memchr(item, ',', (size_t)(end - item));
		if (e == NULL)
			e = end;
		k = (size_t)(e - item);
		t = trim(item, &k, 0);
		xgrow(&sc->arg, cap, (size_t)sc->narg + 1, sizeof *sc->arg);
		a = &sc->arg[sc->narg++];
		/* type: the first run of non-blanks; name: the rest, to '=' */
		{
			size_t i = 0, j;

			while (i < k && !isblank_((unsigned char)t[i]))
				i++;
			a->type = xmemdup(t, i);
			while (i < k && isblank_((unsigned char)t[i]))
				i++;
			for (j = i; j < k && t[j] != '='; j++)
				;
			a->name = xmemdup(t + i, j - i);
		}
	}
}

int
schema_parse(char *s, struct schema *sc, size_t *namelen, const char **why)
{
	char *lp, *rp, *arrow, *star, *dot, *colon;
	size_t cap = 0, n;

	memset(sc, 0, sizeof *sc);
	sc->next = UINT32_MAX;
	/* ([^(]+)\( : the name, at least one byte */
	lp = strchr(s, '(');
	if (lp == NULL || lp == s) {
		*why = "not a schema: no NAME( at the start";
		return -1;
	}
	/* \((.*)\)\s*->\s*(.*)$ : the greedy .* takes the last ")" that
	 * is followed by blanks and "->" */
	rp = NULL;
	for (arrow = strstr(lp, "->"); arrow != NULL;
	    arrow = strstr(arrow + 1, "->")) {
		char *q = arrow;

		while (q > lp + 1 && isblank_((unsigned char)q[-1]))
			q--;
		if (q > lp && q[-1] == ')')
			rp = q - 1;
	}
	if (rp == NULL) {
		*why = "not a schema: no \") -> RETURNS\"";
		return -1;
	}
	if (strchr(s, '\n') != NULL) {
		*why = "not a schema: a line break in it";
		return -1;
	}
	*rp = '\0';
	sc->text = NULL;
	/* the name without its overload: up to the first '.' after "::" */
	colon = NULL;
	for (dot = s; dot < lp - 1; dot++)
		if (dot[0] == ':' && dot[1] == ':')
			colon = dot + 2;
	dot = memchr(colon != NULL ? colon : s, '.',
	    (size_t)(lp - (colon != NULL ? colon : s)));
	*namelen = (size_t)((dot != NULL ? dot : lp) - s);
	/* the arguments, cut at the first '*' */
	lp++;
	star = strchr(lp, '*');
	n = (size_t)((star != NULL ? star : rp) - lp);
	{
		char *p = trim(lp, &n, 1);

		split(sc, p, n, &cap);
	}
	sc->npos = sc->narg;
	if (star != NULL) {
		char *p;

		n = (size_t)(rp - star - 1);
		p = trim(star + 1, &n, 1);
		split(sc, p, n, &cap);
	}
	*rp = ')';
	return 0;
}

void
schemas_init(struct schemas *S, const char *path)
{
	memset(S, 0, sizeof *S);
	S->path = path;
	S->names = tl_intern_new();
}

int
schemas_add(struct schemas *S, char *line, const char **why)
{
	struct schema sc;
	size_t nl;
	uint32_t id;

	if (schema_parse(line, &sc, &nl, why) < 0)
		return -1;
	if (S->n >= UINT32_MAX - 1) {
		*why = "too many schemas";
		for (int k = 0; k < sc.narg; k++) {
			free(sc.arg[k].type);
			free(sc.arg[k].name);
		}
		free(sc.arg);
		return -1;
	}
	sc.text = xstrdup(line);
	id = tl_intern(S->names, line, nl);
	if (id >= S->nname) {
		xgrow(&S->first, &S->namecap, (size_t)id + 1, sizeof *S->first);
		S->last = xreallocarray(S->last, S->namecap, sizeof *S->last);
		S->first[id] = S->last[id] = UINT32_MAX;
		S->nname = (size_t)id + 1;
	}
	xgrow(&S->s, &S->cap, S->n + 1, sizeof *S->s);
	if (S->first[id] == UINT32_MAX)
		S->first[id] = (uint32_t)S->n;
	else
		S->s[S->last[id]].next = (uint32_t)S->n;
	S->last[id] = (uint32_t)S->n;
	S->s[S->n++] = sc;
	return 0;
}

void
schemas_load(struct schemas *S, const char *path)
{
	struct tl_src *src;
	char *p = NULL, *line = NULL;
	size_t n = 0, pos = 0, len = 0, cap = 0;
	uint64_t lineno = 0;
	int eof = 0, more;

	schemas_init(S, path);
	if ((src = tl_src_open(path)) == NULL || tl_src_next(src) <= 0)
		tl_exit(1);
	do {
		const char *why;

		/* one line into line[0..len) */
		len = 0;
		while ((more = tl_in_more(src, &p, &n, &pos, &eof)) != 0) {
			char *nlp = memchr(p + pos, '\n', n - pos);
			size_t k = (nlp != NULL ? (size_t)(nlp - p) : n) - pos;

			xgrow(&line, &cap, len + k + 1, 1);
			memcpy(line + len, p + pos, k);
			len += k;
			pos += k;
			if (nlp != NULL) {
				pos++;
				break;
			}
		}
		if (!more && len == 0)
			break;
		lineno++;
		line[len] = '\0';
		if (len > 0 && line[len - 1] == '\r')
			line[--len] = '\0';
		if (memchr(line, '\0', len) != NULL)
			tl_errx_at(path, lineno, "not a schema: a NUL byte");
		{
			size_t k = len;

			(void)trim(line, &k, 0);
			if (k == 0)
				continue;
		}
		if (schemas_add(S, line, &why) < 0)
			tl_errx_at(path, lineno, "%s", why);
	} while (more);
	free(line);
	tl_src_close(src);
}

uint32_t
schemas_find(const struct schemas *S, const char *name, size_t n)
{
	uint32_t id = tl_intern_find(S->names, name, n);

	return id == UINT32_MAX ? UINT32_MAX : S->first[id];
}

void
schemas_free(struct schemas *S)
{
	size_t i;
	int k;

	for (i = 0; i < S->n; i++) {
		for (k = 0; k < S->s[i].narg; k++) {
			free(S->s[i].arg[k].type);
			free(S->s[i].arg[k].name);
		}
		free(S->s[i].arg);
		free(S->s[i].text);
	}
	free(S->s);
	free(S->first);
	free(S->last);
	tl_intern_free(S->names);
}
