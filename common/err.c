/* tl: diagnostics in the err(3) style. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

const char *tl_progname = "tl";
int tl_failstatus = 1;
void (*tl_err_hook)(void);

static void
runhook(void)
{
	void (*h)(void) = tl_err_hook;

	tl_err_hook = NULL;
	if (h != NULL)
		h();
}

void
tl_setprogname(const char *argv0)
{
	const char *p;

	if (argv0 == NULL || *argv0 == '\0')
		return;
	p = strrchr(argv0, '/');
	tl_progname = p != NULL ? p + 1 : argv0;
}

volatile int tl_progressline;

static void
vmsg(int errnum, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (tl_progressline) {
		tl_progressline = 0;
		fputs("\r\033[K", stderr);
	}
	fprintf(stderr, "%s: ", tl_progname);
	vfprintf(stderr, fmt, ap);
	if (errnum >= 0)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
}

void
tl_exit(int status)
{
	runhook();
	exit(status);
}

void
tl_err(int status, const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	runhook();
	va_start(ap, fmt);
	vmsg(e, fmt, ap);
	va_end(ap);
	exit(status);
}

void
tl_errx(int status, const char *fmt, ...)
{
	va_list ap;

	runhook();
	va_start(ap, fmt);
	vmsg(-1, fmt, ap);
	va_end(ap);
	exit(status);
}

void
tl_verrx_at(const char *name, uint64_t line, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof msg, fmt, ap);
	tl_errx(tl_failstatus, "%s:%" PRIu64 ": %s", name, line, msg);
}

void
tl_errx_at(const char *name, uint64_t line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tl_verrx_at(name, line, fmt, ap);
}

void
tl_warn(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	vmsg(e, fmt, ap);
	va_end(ap);
}

void
tl_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(-1, fmt, ap);
	va_end(ap);
}

void
tl_warns(struct tl_warns *w, const char *fmt, ...)
{
	va_list ap;

	if (w->n++ >= TL_MAXSHOWN)
		return;
	va_start(ap, fmt);
	vmsg(-1, fmt, ap);
	va_end(ap);
}

void
tl_warns_end(struct tl_warns *w, const char *name)
{
	if (w->n > TL_MAXSHOWN)
		tl_warnx("%s: %llu more warnings not shown", name,
		    w->n - TL_MAXSHOWN);
}

char *
tl_quote(char *buf, size_t cap, const char *s, size_t n)
{
	size_t i, o = 0, lim = cap < 48 ? cap - 8 : 40;
	unsigned char c;

	for (i = 0; i < n && o < lim; i++) {
		c = (unsigned char)s[i];
		switch (c) {
		case '\\': buf[o++] = '\\'; buf[o++] = '\\'; break;
		case '\t': buf[o++] = '\\'; buf[o++] = 't'; break;
		case '\n': buf[o++] = '\\'; buf[o++] = 'n'; break;
		case '\r': buf[o++] = '\\'; buf[o++] = 'r'; break;
		default:
			/* Never cut a UTF-8 sequence: stop before its lead byte. */
			if (c >= 0xc0 && o + 4 > lim)
				goto cut;
			buf[o++] = (char)c;
		}
	}
	if (i < n) {
cut:
		while (i < n && ((unsigned char)s[i] & 0xc0) == 0x80 && o < cap - 4)
			buf[o++] = s[i++];
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}
