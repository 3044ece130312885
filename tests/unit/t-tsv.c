/*
 * tl: unit tests of the stream format (common/tsv.c): escaping, number
 * formatting, the memory writer and the reader. Runs in a scratch
 * directory and writes its temporary files there.
 */
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/tsv.h"
#include "unit.h"

/* Escape s[0..n), check it holds no TAB, LF or CR, and unescape it. */
static int
roundtrip(const char *s, size_t n)
{
	char *e = malloc(2 * n + 1), *u = malloc(2 * n + 1);
	size_t en, i;
	ptrdiff_t un;
	int ok = 1;

	en = tl_tsv_escape(e, s, n);
	for (i = 0; i < en; i++)
		if (e[i] == '\t' || e[i] == '\n' || e[i] == '\r')
			ok = 0;
	un = tl_tsv_unescape(u, e, en);
	if (un < 0 || (size_t)un != n || memcmp(u, s, n) != 0)
		ok = 0;
	/* In place, too. */
	un = tl_tsv_unescape(e, e, en);
	if (un < 0 || (size_t)un != n || memcmp(e, s, n) != 0)
		ok = 0;
	free(e);
	free(u);
	return ok;
}

static void
test_escape(void)
{
	char s[3], all[256], buf[64];
	unsigned bad = 0;
	int c;
	ptrdiff_t r;

	for (c = 0; c < 256; c++) {
		s[0] = 'a';
		s[1] = (char)c;
		s[2] = 'z';
		if (!roundtrip(s, 3) || !roundtrip(s + 1, 1))
			bad++;
		all[c] = (char)c;
	}
	CHECK(bad == 0);	/* every byte value, alone and inside */
	CHECK(roundtrip(all, sizeof all));
	CHECK(roundtrip("", 0));
	CHECK(roundtrip("\\", 1));
	CHECK(roundtrip("\\t", 2));
	CHECK(roundtrip("\\\\\\", 3));
	CHECK(roundtrip("\t\n\r\\", 4));
	CHECK(roundtrip("a\\nb\n", 5));
	CHECK(roundtrip("\0\t\0", 3));

	/* The exact escapes, and nothing else escaped. */
	CHECK_STR(buf, tl_tsv_escape(buf, "a\tb\nc\rd\\e", 9),
	    "a\\tb\\nc\\rd\\\\e");
	CHECK_STR(buf, tl_tsv_escape(buf, "\\t", 2), "\\\\t");
	CHECK_STR(buf, tl_tsv_escape(buf, "\"\x01\x7f\xc3\xa9", 5),
	    "\"\x01\x7f\xc3\xa9");

	/* Bad escapes are rejected. */
	CHECK(tl_tsv_unescape(buf, "\\", 1) == -1);
	CHECK(tl_tsv_unescape(buf, "ab\\", 3) == -1);
	CHECK(tl_tsv_unescape(buf, "\\x", 2) == -1);
	CHECK(tl_tsv_unescape(buf, "\\0", 2) == -1);
	CHECK(tl_tsv_unescape(buf, "\\N", 2) == -1);
	CHECK(tl_tsv_unescape(buf, "\\T", 2) == -1);
	CHECK(tl_tsv_unescape(buf, "a\\\tb", 4) == -1);
	r = tl_tsv_unescape(buf, "\\\\\\t\\n\\r", 8);
	CHECK_MEM(buf, r < 0 ? 0 : (size_t)r, "\\\t\n\r", 4);
}

/* Format v, check the text, and that it reads back as the same double. */
static void
fmt(double v, const char *want)
{
	char buf[40];
	int n = tl_fmt_double(buf, sizeof buf, v);
	double back;

	CHECK_STR(buf, n < 0 ? 0 : (size_t)n, want);
	back = strtod(buf, NULL);
	CHECK(memcmp(&back, &v, sizeof v) == 0);	/* bit for bit */
}

/*
 * Random doubles of every exponent, and ratios as a perf tool prints
 * them: the text is the first of %.15g, %.16g, %.17g that reads back,
 * but for powers of two, where it is no longer and reads back.
 */
static void
test_double_random(void)
{
	uint64_t x = 0x9e3779b97f4a7c15u, b;
	char buf[40], ref[40];
	size_t i, bad = 0, n = getenv("TL_VALGRIND") != NULL ? 5000 : 200000;
	double v;
	int p, k;

	for (i = 0; i < 2 * n; i++) {
		x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
		b = x * 0x2545f4914f6cdd1du;
		if (i < n)
			memcpy(&v, &b, sizeof v);
		else
			v = (double)((b >> 34) | 1) / (double)((b & 0xfffffff) | 1) *
			    pow(10, (double)(b >> 28 & 15) - 6);
		if (!isfinite(v))
			continue;
		k = tl_fmt_double(buf, sizeof buf, v);
		for (p = 15; p <= 17; p++) {
			snprintf(ref, sizeof ref, "%.*g", p, v);
			if (strtod(ref, NULL) == v)
				break;
		}
		if (strcmp(buf, ref) == 0)
			continue;
		memcpy(&b, &v, sizeof b);
		if ((b & 0xfffffffffffffu) == 0 && fabs(v) >= DBL_MIN &&
		    (size_t)k <= strlen(ref) && strtod(buf, NULL) == v)
			continue;	/* a power of two */
		if (bad++ < 5)
			fprintf(stderr, "%a: %s, not %s\n", v, buf, ref);
	}
	CHECK_I64(bad, 0);
}

/* Integers against printf: each side of every power of ten, and random. */
static void
test_i64(void)
{
	uint64_t x = 0x2545f4914f6cdd1du, p;
	char buf[TL_I64_MAX + 1], ref[32];
	size_t i, n, bad = 0;
	int64_t v[6], back = 0;
	int j;

	for (i = 0, p = 1; i < 20 + 100000; i++) {
		if (i < 20) {
			v[0] = (int64_t)(p - 1), v[1] = (int64_t)p;
			v[2] = (int64_t)(p + 1), v[3] = -v[0];
			v[4] = -v[1], v[5] = -v[2];
			if (i < 18)
				p *= 10;
			else
				v[1] = v[2] = v[4] = v[5] = INT64_MIN;
		} else {
			x ^= x >> 12, x ^= x << 25, x ^= x >> 27;
			v[0] = (int64_t)(x * 0x9e3779b97f4a7c15u);
			v[1] = v[0] >> (x & 63);
			v[2] = v[3] = v[4] = v[5] = INT64_MAX;
		}
		for (j = 0; j < 6; j++) {
			n = tl_fmt_i64(buf, v[j]);
			snprintf(ref, sizeof ref, "%lld", (long long)v[j]);
			if (n == strlen(ref) && memcmp(buf, ref, n) == 0 &&
			    tl_parse_i64(buf, n, &back) == 0 && back == v[j])
				continue;
			if (bad++ < 5)
				fprintf(stderr, "%s: %.*s\n", ref, (int)n, buf);
		}
	}
	CHECK_I64(bad, 0);
	/* Text that is not an int64. */
	CHECK(tl_parse_i64("9223372036854775808", 19, &back) == -2);
	CHECK(tl_parse_i64("-9223372036854775809", 20, &back) == -2);
	CHECK(tl_parse_i64("99999999999999999999x", 21, &back) == -2);
	CHECK(tl_parse_i64("9999999999999999999", 19, &back) == -2);
	CHECK(tl_parse_i64("0000000000000000000042", 22, &back) == 0 &&
	    back == 42);
	CHECK(tl_parse_i64("1700000000000000000", 19, &back) == 0 &&
	    back == 1700000000000000000);
	CHECK(tl_parse_i64("12x", 3, &back) == -1);
	CHECK(tl_parse_i64("+1", 2, &back) == -1);
	CHECK(tl_parse_i64("-", 1, &back) == -1);
	CHECK(tl_parse_i64("", 0, &back) == -1);
}

static void
test_double(void)
{
	fmt(0.1, "0.1");
	fmt(1e300, "1e+300");
	fmt(5e-324, "4.94065645841247e-324");
	fmt(-0.0, "-0");
	fmt(0.0, "0");
	fmt(123456789012345678.0, "1.2345678901234568e+17");
	fmt(1.0 / 3, "0.3333333333333333");
	fmt(0.3, "0.3");
	fmt(2.0 / 3, "0.6666666666666666");
	fmt(0.1 + 0.2, "0.30000000000000004");
	fmt(1.5, "1.5");
	fmt(-2.25e-10, "-2.25e-10");
	fmt(9007199254740993.0, "9007199254740992");
	/* Whole numbers: digits below 1e15, %.15g's exponent form above. */
	fmt(42.0, "42");
	fmt(-7.0, "-7");
	fmt(999999999999999.0, "999999999999999");
	fmt(1e15, "1e+15");
	fmt(-1e15, "-1e+15");
	fmt(123456789012.0, "123456789012");
	/* Whole numbers of thousandths. */
	fmt(12.345, "12.345");
	fmt(-0.125, "-0.125");
	fmt(0.001, "0.001");
	fmt(0.0005, "0.0005");
	fmt(99999999999.999, "99999999999.999");
	fmt(1234567890123.5, "1234567890123.5");
	/* Just above a power of two: 16 digits read back, %.16g's not. */
	fmt(0x1p-24, "5.960464477539063e-08");
	test_double_random();
}

static void
test_writer(void)
{
	struct tl_out o;
	static const char *const names[] = { "a", "b_ns", NULL };
	char buf[256];
	FILE *f;
	size_t n, i, bad;
	int fd;

	/* A memory writer. */
	tl_out_init(&o, -1, "(memory)");
	tl_out_field(&o, "x\ty\\z\n\r", 7);
	tl_out_char(&o, '\t');
	tl_out_cstr(&o, "");
	tl_out_char(&o, '\t');
	tl_out_i64(&o, INT64_MIN);
	tl_out_char(&o, '\t');
	tl_out_i64(&o, INT64_MAX);
	tl_out_char(&o, '\t');
	tl_out_i64(&o, 0);
	tl_out_char(&o, '\t');
	tl_out_i64(&o, -7);
	tl_out_char(&o, '\t');
	tl_out_double(&o, 0.1);
	tl_out_char(&o, '\t');
	tl_out_json(&o, "{\"k\":\"a\\\"b\"}", 12);
	tl_out_char(&o, '\n');
	CHECK_STR(o.buf, o.n,
	    "x\\ty\\\\z\\n\\r\t\t-9223372036854775808\t9223372036854775807"
	    "\t0\t-7\t0.1\t{\"k\":\"a\\\\\"b\"}\n");
	tl_out_close(&o);

	/* A memory writer grows past its first buffer. */
	tl_out_init(&o, -1, "(memory)");
	for (i = 0; i < 100000; i++)
		tl_out_field(&o, "ab\t", 3);
	for (i = 0, bad = 0; i < 100000; i++)
		bad += memcmp(o.buf + 4 * i, "ab\\t", 4) != 0;
	CHECK(o.n == 400000 && bad == 0);
	tl_out_close(&o);

	/* A file writer with a header. */
	fd = open("w.tsv", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	tl_out_init(&o, fd, "w.tsv");
	tl_out_header(&o, names);
	tl_out_cstr(&o, "a\tb");
	tl_out_char(&o, '\t');
	tl_out_i64(&o, 1);
	tl_out_char(&o, '\n');
	tl_out_close(&o);
	close(fd);
	f = fopen("w.tsv", "rb");
	n = f != NULL ? fread(buf, 1, sizeof buf, f) : 0;
	if (f != NULL)
		fclose(f);
	CHECK_STR(buf, n, "a\tb_ns\na\\tb\t1\n");
}

static void
test_reader(void)
{
	struct tl_src *src;
	struct tl_tsv *t;
	char *text, *p;
	size_t len, n;
	const char *s;
	int64_t i;
	double d;
	int ia, ib, ic;

	/*
	 * A header, then records; one long record crosses the first chunk
	 * boundary (the input layer reads 4 KiB first).
	 */
	n = 10000;
	text = malloc(n + 512);
	p = text;
	p += sprintf(p, "a\tb_ns\tc\n");
	p += sprintf(p, "x\\ty\t-9223372036854775808\t\n");
	p += sprintf(p, "\t42\t1e-3\n");
	p += sprintf(p, "\\\\\t9223372036854775807\t-0.5\n");
	memset(p, 'L', n);
	p += n;
	p += sprintf(p, "\t0\t12345678.25\n");
	writefile("t.tsv", text, (size_t)(p - text));

	src = tl_src_open("t.tsv");
	CHECK(src != NULL);
	if (src == NULL)
		return;
	CHECK(tl_src_next(src) == 1);
	t = tl_tsv_open(src);
	CHECK(t->ncol == 3);
	ia = tl_tsv_col(t, "a");
	ib = tl_tsv_col(t, "b_ns");
	ic = tl_tsv_need(t, "c");
	CHECK(ia == 0 && ib == 1 && ic == 2);
	CHECK(tl_tsv_col(t, "b") == -1);
	CHECK(tl_tsv_col(t, "") == -1);

	CHECK(tl_tsv_next(t) == 1);
	CHECK(t->lineno == 2);
	s = tl_tsv_str(t, ia, &len);
	CHECK_STR(s, len, "x\ty");
	/* A second call: the field is decoded once. */
	s = tl_tsv_str(t, ia, &len);
	CHECK_STR(s, len, "x\ty");
	CHECK(tl_tsv_i64(t, ib, &i) == 1);
	CHECK_I64(i, INT64_MIN);
	CHECK(tl_tsv_str(t, ic, &len) == NULL && len == 0);	/* absent */
	d = 7;
	CHECK(tl_tsv_double(t, ic, &d) == 0 && d == 7);

	CHECK(tl_tsv_next(t) == 1);
	CHECK(tl_tsv_str(t, ia, NULL) == NULL);
	i = 7;
	CHECK(tl_tsv_i64(t, ia, &i) == 0 && i == 7);
	CHECK(tl_tsv_i64(t, ib, &i) == 1);
	CHECK_I64(i, 42);
	CHECK(tl_tsv_double(t, ic, &d) == 1 && d == 1e-3);
	s = tl_tsv_str(t, ib, &len);	/* a number is a string too */
	CHECK_STR(s, len, "42");

	CHECK(tl_tsv_next(t) == 1);
	s = tl_tsv_str(t, ia, &len);
	CHECK_STR(s, len, "\\");
	CHECK(tl_tsv_i64(t, ib, &i) == 1);
	CHECK_I64(i, INT64_MAX);
	CHECK(tl_tsv_double(t, ic, &d) == 1 && d == -0.5);

	CHECK(tl_tsv_next(t) == 1);
	CHECK(t->lineno == 5);
	s = tl_tsv_str(t, ia, &len);
	CHECK(s != NULL && len == n && s[0] == 'L' && s[n - 1] == 'L');
	CHECK(tl_tsv_i64(t, ib, &i) == 1);
	CHECK_I64(i, 0);
	CHECK(tl_tsv_double(t, ic, &d) == 1 && d == 12345678.25);

	CHECK(tl_tsv_next(t) == 0);
	CHECK(tl_tsv_next(t) == 0);
	tl_tsv_close(t);
	CHECK(tl_src_next(src) == 0);
	tl_src_close(src);

	/* A header alone: no records. */
	writefile("h.tsv", "only\n", 5);
	src = tl_src_open("h.tsv");
	CHECK(src != NULL && tl_src_next(src) == 1);
	if (src == NULL)
		return;
	t = tl_tsv_open(src);
	CHECK(t->ncol == 1 && tl_tsv_col(t, "only") == 0);
	CHECK(tl_tsv_next(t) == 0);
	tl_tsv_close(t);
	tl_src_close(src);
	free(text);
}

int
main(int argc, char *argv[])
{
	(void)argc;
	tl_setprogname(argv[0]);
	test_escape();
	test_i64();
	test_double();
	test_writer();
	test_reader();
	return unit_done();
}
