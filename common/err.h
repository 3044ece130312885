/* tl: diagnostics in the err(3) style: "prog: message[: strerror]". */
#ifndef TL_ERR_H
#define TL_ERR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>

extern const char *tl_progname;
/*
 * The exit status of the library's own fatal errors (bad input, I/O, no
 * memory): 1, or what a program sets, as tl-diff sets 2 after diff(1).
 */
extern int tl_failstatus;
/* Called once before tl_err and tl_errx print: flush pending output. */
extern void (*tl_err_hook)(void);

void tl_setprogname(const char *argv0);
/*
 * A progress line is on the standard error (a terminal): the next
 * message clears it first. Set by the input layer.
 */
extern volatile int tl_progressline;
/* Exit after an error already reported: tl_err_hook first, as tl_errx. */
noreturn void tl_exit(int status);
noreturn void tl_err(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
noreturn void tl_errx(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* tl_errx(tl_failstatus) of "name:line: message", message cut at 1 KiB. */
noreturn void tl_verrx_at(const char *name, uint64_t line, const char *fmt,
    va_list ap) __attribute__((format(printf, 3, 0)));
noreturn void tl_errx_at(const char *name, uint64_t line, const char *fmt,
    ...) __attribute__((format(printf, 3, 4)));
void tl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tl_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Warnings about one input that may repeat many times: the first
 * TL_MAXSHOWN are printed one by one, the rest only counted, and
 * tl_warns_end says how many were not shown. n counts them all.
 */
#define TL_MAXSHOWN	10

struct tl_warns {
	unsigned long long n;
};

void tl_warns(struct tl_warns *, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "PROG: NAME: N more warnings not shown", if any were held back. */
void tl_warns_end(struct tl_warns *, const char *name);

/*
 * Write s[0..n) into buf (of size cap) as a message shows a value: the
 * stream's escapes, cut to about 40 bytes with "...". Returns buf.
 */
char *tl_quote(char *buf, size_t cap, const char *s, size_t n);
#define TL_QUOTE_MAX 64

#endif
