/*
 * tl: unit tests of the command line (common/opt.c). A failing option
 * number exits, so each case is a run: opt.sh runs
 *	t-opt num OPT TEXT MIN MAX	tl_optnum: the value, or the error
 *	t-opt float OPT TEXT MIN MAX	tl_optfloat
 *	t-opt getopt ARG...		tl_getopt with "ab:" and --long=X
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/limit.h"
#include "../../common/opt.h"

static const char usage[] = "usage: t-opt [-a] [-b arg] [--long=x]\n";

static double
bound(const char *s)
{
	return strcmp(s, "huge") == 0 ? HUGE_VAL : strtod(s, NULL);
}

static long long
lbound(const char *s)
{
	if (strcmp(s, "max") == 0)
		return LLONG_MAX;
	if (strcmp(s, "min") == 0)
		return LLONG_MIN;
	return strtoll(s, NULL, 10);
}

int
main(int argc, char *argv[])
{
	static const struct option lopt[] = {
		{ "long", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 }
	};
	char buf[TL_LIMIT_STRMAX];
	int ch;

	tl_setprogname("t-opt");
	if (argc == 6 && strcmp(argv[1], "num") == 0)
		printf("%lld\n", tl_optnum(argv[2], argv[3], lbound(argv[4]),
		    lbound(argv[5])));
	else if (argc == 6 && strcmp(argv[1], "float") == 0)
		printf("%.17g\n", tl_optfloat(argv[2], argv[3],
		    bound(argv[4]), bound(argv[5])));
	else if (argc >= 2 && strcmp(argv[1], "getopt") == 0) {
		argv++;
		argc--;
		while ((ch = tl_getopt(argc, argv, "ab:", lopt, usage)) != -1)
			printf("option %c%s%s\n", ch, optarg != NULL ? " " : "",
			    optarg != NULL ? optarg : "");
		printf("%s\n", tl_limit_str(buf, TL_LIM_LINE));
		for (; optind < argc; optind++)
			printf("operand %s\n", argv[optind]);
		if (argc == 1)
			tl_usage(usage);
	} else
		return 2;
	return 0;
}
