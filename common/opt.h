/*
 * tl: the command line, the same in every tool. tl_getopt is getopt_long
 * with the options every tool has (--help, --version, --limit), and one
 * way to report a usage error; tl_optnum and tl_optfloat read an
 * option's number with a range, in the same words in every tool.
 */
#ifndef TL_OPT_H
#define TL_OPT_H

#include <getopt.h>
#include <stdnoreturn.h>

/*
 * getopt_long(3) over argv with the caller's short options and long
 * options (longopts NULL-terminated, or NULL for none), to which it adds
 * itself:
 *	--help		the usage text on stdout, exit 0
 *	--version	"PROG VERSION" on stdout (VERSION of config.mk),
 *			exit 0
 *	--limit NAME=SIZE	tl_limit_set (limit.h), and on to the
 *			next option
 * so a caller's longopts hold only its own options. optstring need not
 * have the ':' that makes getopt report a missing argument (it may start
 * with '+' or '-', as getopt_long's own). An unknown option or one without its argument: the
 * one line that names the option, then the usage text on stderr, exit
 * tl_failstatus. Returns the next option as getopt_long does, -1 at the
 * end (optind is then the first operand).
 *
 * usage is the whole text, "usage: PROG ...\n", one or more lines.
 * tl_setprogname must have been called first.
 */
int tl_getopt(int argc, char *argv[], const char *optstring,
    const struct option *longopts, const char *usage);

/* The usage text on stderr, exit tl_failstatus: a usage error found
 * after the options were read (a missing operand, options that do not
 * go together). */
noreturn void tl_usage(const char *usage);

/*
 * The items of a comma-separated option value s (cut in place, empty
 * items skipped) appended to (*v)[0..*n), which grows.
 */
void tl_optlist(char *s, char ***v, size_t *n);

/*
 * The value of option opt ("-z", "--zoom") whose text is s, as sbase's
 * strtonum reads it: the whole of s is a decimal integer (strtoll(3)
 * base 10: leading white space and a sign allowed, nothing after it)
 * from min to max. Anything else ("", "abc", "12x", out of the range,
 * beyond long long) exits tl_failstatus with the one line
 *	PROG: OPT: not a whole number from MIN to MAX: "TEXT"
 * or, when max is LLONG_MAX,
 *	PROG: OPT: not a whole number >= MIN: "TEXT"
 * (TEXT as tl_quote shows it). tl(7) has the same words.
 */
long long tl_optnum(const char *opt, const char *s, long long min,
    long long max);

/*
 * The same for a real number: the whole of s as strtod(3) reads it,
 * finite (no "nan" or "inf"), from min to max; otherwise
 *	PROG: OPT: not a number from MIN to MAX: "TEXT"
 * or, when max is HUGE_VAL,
 *	PROG: OPT: not a number >= MIN: "TEXT"
 * MIN and MAX as %g prints them.
 */
double tl_optfloat(const char *opt, const char *s, double min, double max);

#endif
