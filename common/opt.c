/* tl: the command line, the same in every tool (opt.h). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "limit.h"
#include "mem.h"
#include "opt.h"

#ifndef TL_VERSION
#define TL_VERSION	"unknown"
#endif

enum {			/* getopt_long's values, beyond every character */
	OPT_HELP = 0x4c48,
	OPT_VERSION,
	OPT_LIMIT = 0x4c4d
};

static const struct option common[] = {
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ NULL, 0, NULL, 0 }
};

/*
 * After getopt_long returned ':' or '?': say which option was wrong,
 * "option -c needs an argument" or "unknown option -x" (or "--long").
 */
static void
badopt(int ch, char *const argv[])
{
	if (ch == ':' && strncmp(argv[optind - 1], "--", 2) == 0)
		tl_warnx("option %s needs an argument", argv[optind - 1]);
	else if (ch == ':')
		tl_warnx("option -%c needs an argument", optopt);
	else if (optopt != 0)
		tl_warnx("unknown option -%c", optopt);
	else
		tl_warnx("unknown option %s", argv[optind - 1]);
}

int
tl_getopt(int argc, char *argv[], const char *optstring,
    const struct option *longopts, const char *usage)
{
	static const struct option *had;
	static struct option *lopt;
	static const char *hadstr;
	static char *ostr;
	size_t n = 0, len;
	int ch;

	if (lopt == NULL || had != longopts) {
		while (longopts != NULL && longopts[n].name != NULL)
			n++;
		lopt = xreallocarray(lopt, n + 4, sizeof *lopt);
		if (n > 0)
			memcpy(lopt, longopts, n * sizeof *lopt);
		memcpy(lopt + n, common, sizeof common);
		had = longopts;
	}
	if (ostr == NULL || hadstr != optstring) {
		/* ':' first, after a '+' or '-' that must stay first */
		len = strlen(optstring);
		ostr = xrealloc(ostr, len + 3);
		n = *optstring == '+' || *optstring == '-';
		memcpy(ostr, optstring, n);
		ostr[n] = ':';
		strcpy(ostr + n + 1, optstring + n + (optstring[n] == ':'));
		hadstr = optstring;
	}
	opterr = 0;
	for (;;) {
		switch (ch = getopt_long(argc, argv, ostr, lopt, NULL)) {
		case OPT_LIMIT:
			tl_limit_set(optarg);
			continue;
		case OPT_HELP:
			fputs(usage, stdout);
			if (fflush(stdout) == EOF || ferror(stdout))
				tl_err(tl_failstatus, "stdout");
			exit(0);
		case OPT_VERSION:
			printf("%s %s\n", tl_progname, TL_VERSION);
			if (fflush(stdout) == EOF || ferror(stdout))
				tl_err(tl_failstatus, "stdout");
			exit(0);
		case ':':
		case '?':
			badopt(ch, argv);
			tl_usage(usage);
		}
		return ch;
	}
}

void
tl_usage(const char *usage)
{
	fflush(stdout);
	fputs(usage, stderr);
	tl_exit(tl_failstatus);
}

void
tl_optlist(char *s, char ***v, size_t *n)
{
	char *p;

	for (p = strtok(s, ","); p != NULL; p = strtok(NULL, ",")) {
		*v = xreallocarray(*v, *n + 1, sizeof **v);
		(*v)[(*n)++] = p;
	}
}

static noreturn void
badnum(const char *opt, const char *s, const char *what)
{
	char q[TL_QUOTE_MAX];

	tl_errx(tl_failstatus, "%s: not %s: \"%s\"", opt, what,
	    tl_quote(q, sizeof q, s, strlen(s)));
}

long long
tl_optnum(const char *opt, const char *s, long long min, long long max)
{
	char *end, what[96];
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end != s && *end == '\0' && errno == 0 && v >= min && v <= max)
		return v;
	if (max == LLONG_MAX)
		snprintf(what, sizeof what, "a whole number >= %lld", min);
	else
		snprintf(what, sizeof what, "a whole number from %lld to %lld",
		    min, max);
	badnum(opt, s, what);
}

double
tl_optfloat(const char *opt, const char *s, double min, double max)
{
	char *end, what[96];
	double v;

	v = strtod(s, &end);
	if (end != s && *end == '\0' && isfinite(v) && v >= min && v <= max)
		return v;
	if (max == HUGE_VAL)
		snprintf(what, sizeof what, "a number >= %g", min);
	else
		snprintf(what, sizeof what, "a number from %g to %g", min, max);
	badnum(opt, s, what);
}
