/*
 * tl: a tiny unit test harness. Each check prints "ok - WHAT" or
 * "not ok - WHAT" (with the file, the line and, for the typed checks, both
 * values); unit_done() prints the count of checks and failures and returns
 * the exit status: 0, or 1 if any check failed.
 *
 *	CHECK(cond)			a condition
 *	CHECK_I64(got, want)		two integers are equal
 *	CHECK_MEM(p, n, q, m)		two byte strings are equal
 *	CHECK_STR(p, n, s)		a byte string equals a C string
 *
 * Checks inside loops should fold into one check (count the bad cases,
 * then CHECK that the count is 0), so that the output stays short.
 */
#ifndef TL_UNIT_H
#define TL_UNIT_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Write s[0..n) to path, or exit 2 (the test itself failed to run). */
static inline void
writefile(const char *path, const char *s, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(s, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

static unsigned unit_nchecks, unit_nfailed;

static inline void
unit_show(const char *what, const char *p, size_t n)
{
	size_t i;
	unsigned char c;

	fprintf(stdout, "#   %s: \"", what);
	for (i = 0; i < n && i < 200; i++) {
		c = (unsigned char)p[i];
		if (c == '"' || c == '\\')
			fprintf(stdout, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			fputc(c, stdout);
		else
			fprintf(stdout, "\\x%02x", c);
	}
	fprintf(stdout, "\"%s (%zu bytes)\n", i < n ? "..." : "", n);
}

static inline int
unit_check(int ok, const char *what, const char *file, int line)
{
	unit_nchecks++;
	if (ok)
		printf("ok - %s\n", what);
	else {
		unit_nfailed++;
		printf("not ok - %s\n#   at %s:%d\n", what, file, line);
	}
	fflush(stdout);
	return ok;
}

static inline void
unit_check_i64(int64_t got, int64_t want, const char *what,
    const char *file, int line)
{
	if (!unit_check(got == want, what, file, line))
		printf("#   got %" PRId64 ", want %" PRId64 "\n", got, want);
}

static inline void
unit_check_mem(const char *p, size_t n, const char *q, size_t m,
    const char *what, const char *file, int line)
{
	int ok = p != NULL && q != NULL && n == m && memcmp(p, q, n) == 0;

	if (!unit_check(ok, what, file, line)) {
		if (p == NULL)
			printf("#   got: NULL\n");
		else
			unit_show("got", p, n);
		if (q == NULL)
			printf("#   want: NULL\n");
		else
			unit_show("want", q, m);
	}
}

static inline int
unit_done(void)
{
	printf("# %u checks, %u failed\n", unit_nchecks, unit_nfailed);
	return unit_nfailed > 0;
}

#define CHECK(c)	unit_check((c) != 0, #c, __FILE__, __LINE__)
#define CHECK_I64(a, b)	\
	unit_check_i64((int64_t)(a), (int64_t)(b), #a " == " #b, __FILE__, \
	    __LINE__)
#define CHECK_MEM(p, n, q, m) \
	unit_check_mem((p), (n), (q), (m), #p " == " #q, __FILE__, __LINE__)
#define CHECK_STR(p, n, s) \
	unit_check_mem((p), (n), (s), strlen(s), #p " == " #s, __FILE__, \
	    __LINE__)

#endif
