/*
 * tl: unit tests of the JSON layer (common/json.c): microseconds to
 * nanoseconds, string decoding, jsmn helpers, and the streaming scanner on
 * awkward files written to the current (scratch) directory. The scanner's
 * diagnostics go to stderr, which the case compares verbatim.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/json.h"
#include "unit.h"

/* tl_us_to_ns(s) returns want_r and, when that is 0, want_ns. */
static void
ns(const char *s, int want_r, int64_t want_ns)
{
	int64_t v = 12345;
	int r = tl_us_to_ns(s, strlen(s), &v);
	int ok = r == want_r && (r != 0 || v == want_ns);

	if (!unit_check(ok, s, __FILE__, __LINE__))
		printf("#   got %d, %" PRId64 "; want %d, %" PRId64 "\n", r, v,
		    want_r, want_ns);
}

static void
test_us_to_ns(void)
{
	ns("1419247333291.708", 0, 1419247333291708);
	ns("22.51", 0, 22510);
	ns("0", 0, 0);
	ns("5", 0, 5000);
	ns("1.5", 0, 1500);
	ns("1.5e3", 0, 1500000);
	ns("1.5E+3", 0, 1500000);
	ns("15e-1", 0, 1500);
	ns("0.0005", 0, 1);		/* 0.5 ns: half away from zero */
	/* the short path (15 digits and up to 3 after the point) and
	 * just past it */
	ns("999999999999999.999", 0, INT64_C(999999999999999999));
	ns("1234567890123456.789", 0, INT64_C(1234567890123456789));
	ns("12.3456", 0, 12346);
	ns("007.1", 0, 7100);
	ns("1.", 0, 1000);
	ns(".5", 0, 500);
	ns("1.x", -1, 0);
	ns("12a", -1, 0);
	ns("0.0004", 0, 0);
	ns("0.00049999", 0, 0);
	ns("-0.0005", 0, -1);
	ns("-0.0004", 0, 0);
	ns("-1.2345", 0, -1235);
	ns("1.0005", 0, 1001);
	ns("1.00049", 0, 1000);
	ns("-0", 0, 0);
	ns("-0.0", 0, 0);
	ns("000123.000", 0, 123000);
	ns("0.000000000000000000000000000001e30", 0, 1000);
	ns("9223372036854775.807", 0, INT64_MAX);
	ns("9223372036854775.8074", 0, INT64_MAX);
	ns("9223372036854775.8075", -2, 0);
	ns("9223372036854775.808", -2, 0);
	ns("-9223372036854775.808", 0, INT64_MIN);
	ns("-9223372036854775.809", -2, 0);
	ns("9223372036854776", -2, 0);
	ns("99999999999999999999", -2, 0);
	ns("1e400", -2, 0);
	ns("1e-400", 0, 0);
	ns("1e99999999999999999999", -2, 0);
	ns("abc", -1, 0);
	ns("", -1, 0);
	ns("-", -1, 0);
	ns(".", -1, 0);
	ns("e5", -1, 0);
	ns("1e", -1, 0);
	ns("1e+", -1, 0);
	ns("1.5x", -1, 0);
	ns(" 1", -1, 0);
	ns("1 ", -1, 0);
	ns("+1", -1, 0);
	ns("0x10", -1, 0);
	ns("NaN", -1, 0);
	ns("Infinity", -1, 0);
	ns("--1", -1, 0);
}

/* tl_junescape(s) gives want (of wantn bytes) and counts wantbad. */
static void
unesc(const char *s, const char *want, size_t wantn, unsigned wantbad)
{
	char dst[256], inplace[256];
	size_t n = strlen(s), m;
	unsigned bad = 0, bad2 = 0;

	m = tl_junescape(dst, s, n, &bad);
	unit_check_mem(dst, m, want, wantn, s, __FILE__, __LINE__);
	if (bad != wantbad)
		unit_check(0, "bad count", __FILE__, __LINE__);
	/* In place gives the same. */
	memcpy(inplace, s, n);
	m = tl_junescape(inplace, inplace, n, &bad2);
	if (m != wantn || memcmp(inplace, want, m) != 0 || bad2 != wantbad)
		unit_check(0, "in place", __FILE__, __LINE__);
}

static void
test_junescape(void)
{
	unsigned bad = 0;
	char dst[16];

	unesc("plain", "plain", 5, 0);
	unesc("", "", 0, 0);
	unesc("\\\"\\\\\\/\\b\\f\\n\\r\\t", "\"\\/\b\f\n\r\t", 8, 0);
	unesc("a\\u00e9b", "a\xc3\xa9" "b", 4, 0);
	unesc("\\u0041\\u007f\\u0080\\u07ff\\u0800\\uFFFF",
	    "A\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf", 12, 0);
	unesc("\\u20AC\\u20ac", "\xe2\x82\xac\xe2\x82\xac", 6, 0);
	unesc("\\ud83d\\ude00", "\xf0\x9f\x98\x80", 4, 0);	/* U+1F600 */
	unesc("\\uD800\\uDC00", "\xf0\x90\x80\x80", 4, 0);	/* U+10000 */
	unesc("\\udbff\\udfff", "\xf4\x8f\xbf\xbf", 4, 0);	/* U+10FFFF */
	unesc("\\ud83dx", "\xef\xbf\xbdx", 4, 1);	/* lone high */
	unesc("\\ud83d", "\xef\xbf\xbd", 3, 1);	/* high at the end */
	unesc("\\ude00", "\xef\xbf\xbd", 3, 1);		/* lone low */
	unesc("\\ude00\\ud83d", "\xef\xbf\xbd\xef\xbf\xbd", 6, 2);
	unesc("\\ud83d\\u0041", "\xef\xbf\xbd" "A", 4, 1);
	unesc("\\ud83d\\ud83d\\ude00", "\xef\xbf\xbd\xf0\x9f\x98\x80", 7, 1);
	unesc("a\\u0000b", "a\xef\xbf\xbd" "b", 5, 1);
	unesc("\xc3\xa9\\n", "\xc3\xa9\n", 3, 0);	/* raw UTF-8 kept */

	/* A NULL count is allowed. */
	CHECK(tl_junescape(dst, "\\u0000", 6, NULL) == 3);
	CHECK(tl_junescape(dst, "\\ud800", 6, &bad) == 3 && bad == 1);
}

static void
test_parse(void)
{
	static const char js[] =
	    "{\"a\":{\"b\":[1,2,{\"c\":3}]},\"d\":\"e\",\"f\\\"\":[]}";
	struct tl_jdoc d;
	char big[4000], *p;
	int i;

	memset(&d, 0, sizeof d);
	CHECK(tl_json_parse(&d, js, strlen(js)) == 0);
	/*
	 * 0 {  1 "a"  2 {  3 "b"  4 [  5 1  6 2  7 {  8 "c"  9 3
	 * 10 "d"  11 "e"  12 "f\""  13 []
	 */
	CHECK(d.ntok == 14);
	CHECK(d.tok[0].type == JSMN_OBJECT && d.tok[0].size == 3);
	CHECK(tl_jskip(&d, 0) == 14);
	CHECK(tl_jskip(&d, 1) == 2);
	CHECK(tl_jskip(&d, 2) == 10);
	CHECK(tl_jskip(&d, 4) == 10);
	CHECK(tl_jskip(&d, 5) == 6);
	CHECK(tl_jskip(&d, 7) == 10);
	CHECK(tl_jskip(&d, 13) == 14);
	CHECK(tl_jeq(&d, 1, "a"));
	CHECK(!tl_jeq(&d, 1, "ab"));
	CHECK(!tl_jeq(&d, 1, ""));
	CHECK(!tl_jeq(&d, 5, "1"));	/* a number is not a string */
	CHECK(tl_jeq(&d, 10, "d"));
	CHECK(tl_jeq(&d, 11, "e"));
	CHECK(tl_jeq(&d, 12, "f\\\""));	/* raw, still escaped */
	CHECK(d.tok[4].type == JSMN_ARRAY && d.tok[4].size == 3);
	CHECK(d.tok[9].parent == 8 && d.tok[8].parent == 7);

	/* More tokens than the first allocation. */
	p = big;
	*p++ = '[';
	for (i = 0; i < 1000; i++)
		p += sprintf(p, "%s%d", i > 0 ? "," : "", i % 10);
	*p++ = ']';
	CHECK(tl_json_parse(&d, big, (size_t)(p - big)) == 0);
	CHECK(d.ntok == 1001 && d.tok[0].size == 1000);
	CHECK(tl_jskip(&d, 0) == 1001);

	/* Not JSON. */
	CHECK(tl_json_parse(&d, "", 0) == -1);
	CHECK(tl_json_parse(&d, "{", 1) == -1);
	CHECK(tl_json_parse(&d, "[1,", 3) == -1);
	CHECK(tl_json_parse(&d, "\"abc", 4) == -1);
	tl_json_free(&d);
}

/*
 * The quick way: plain JSON only, what it takes ending where it says;
 * all that jsmn is lenient about, blanks and the rest left to jsmn.
 */
static void
test_quick(void)
{
	static const char *const no[] = { "{\"a\"}", "[1,]", "[,1]", "[1 2]",
	    "{\"a\":1,}", "[01]", "[-]", "[1.]", "[tru]", "[\"\\q\"]",
	    "[\"\\u12g4\"]", "[\"\x01\"]", "{\"a\" :1}", "[1\"a\"]",
	    "{\"a\":1\"b\":2}", "1", "\"a\"", "[1", "{\"a\":[}", NULL };
	struct tl_jdoc d;
	char deep[200];
	size_t used;
	int i, high = 0;

	memset(&d, 0, sizeof d);
	for (i = 0; no[i]; i++)
		CHECK(!tl_json_quick(&d, no[i], strlen(no[i]), &used, &high));
	CHECK(tl_json_quick(&d, "{\"a\":[true,null,-1.5e3,\"\\u00e9\"]}x", 34,
	    &used, &high) && used == 33 && d.ntok == 7 && !high);
	CHECK(d.tok[2].parent == 1 && d.tok[1].size == 1 && d.tok[2].size == 4);
	CHECK(tl_json_quick(&d, "[\"\xc3\xa9\"]", 6, &used, &high) && high);
	memset(deep, '[', 64);
	memset(deep + 64, ']', 64);
	CHECK(tl_json_quick(&d, deep, 128, &used, &high) && used == 128);
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	CHECK(!tl_json_quick(&d, deep, 130, &used, &high));
	CHECK(tl_json_parse(&d, deep, 130) == 0 && d.ntok == 65);
	CHECK(tl_json_parse(&d, "{}{}", 4) == 0 && d.ntok == 2);
	tl_json_free(&d);
}

/* The scanner. */

/* Events whose tokens differ from the ones jsmn makes. */
static unsigned tokbad;

/* The scanner's tokens for an event are the ones jsmn makes. */
static void
cmptok(const struct tl_jitem *it)
{
	static struct tl_jdoc d;
	int i;

	if (tl_json_parse(&d, it->text, it->len) < 0 || d.ntok != it->ntok) {
		tokbad++;
		return;
	}
	for (i = 0; i < d.ntok; i++)
		if (d.tok[i].type != it->tok[i].type ||
		    d.tok[i].start != it->tok[i].start ||
		    d.tok[i].end != it->tok[i].end ||
		    d.tok[i].size != it->tok[i].size ||
		    d.tok[i].parent != it->tok[i].parent) {
			tokbad++;
			return;
		}
}

static void
cat(char **p, size_t *n, size_t *cap, const char *s, size_t len)
{
	if (*n + len + 1 > *cap) {
		*cap = 2 * (*n + len + 1);
		*p = realloc(*p, *cap);
		if (*p == NULL)
			exit(2);
	}
	memcpy(*p + *n, s, len);
	*n += len;
	(*p)[*n] = '\0';
}

/*
 * Write s[0..n) to path and scan it. The result lists the items, one per
 * line: "E<index>@<offset>:<text>" for an event, "K<key>@<offset>:<text>"
 * for a top-level key, with " !u<badutf8>c<ctrl>e<badesc>" when strings
 * were repaired, and ends with "=<return value>". Without offsets, the
 * "@<offset>" parts are left out. The result is static.
 */
static const char *
scan(const char *path, const char *s, size_t n, int quiet, int offsets)
{
	static char *res;
	static size_t cap;
	size_t len = 0;
	struct tl_src *src;
	struct tl_jscan *js;
	struct tl_jitem it;
	char tmp[96];
	int r;

	writefile(path, s, n);
	src = tl_src_open(path);
	if (src == NULL || tl_src_next(src) != 1)
		return "(cannot open)";
	js = tl_jscan_new(src);
	if (quiet)
		tl_jscan_quietroot(js);
	cat(&res, &len, &cap, "", 0);
	while ((r = tl_jscan_next(js, &it)) > 0) {
		if (it.kind == TL_JEVENT) {
			snprintf(tmp, sizeof tmp, "E%" PRIu64, it.index);
			cat(&res, &len, &cap, tmp, strlen(tmp));
			cmptok(&it);
		} else {
			cat(&res, &len, &cap, "K", 1);
			cat(&res, &len, &cap, it.key, it.keylen);
		}
		if (offsets) {
			snprintf(tmp, sizeof tmp, "@%" PRIu64, it.offset);
			cat(&res, &len, &cap, tmp, strlen(tmp));
		}
		cat(&res, &len, &cap, ":", 1);
		cat(&res, &len, &cap, it.text, it.len);
		if (it.badutf8 + it.ctrl + it.badesc > 0) {
			snprintf(tmp, sizeof tmp, " !u%uc%ue%u", it.badutf8,
			    it.ctrl, it.badesc);
			cat(&res, &len, &cap, tmp, strlen(tmp));
		}
		cat(&res, &len, &cap, "\n", 1);
	}
	snprintf(tmp, sizeof tmp, "=%d", r);
	cat(&res, &len, &cap, tmp, strlen(tmp));
	tl_jscan_free(js);
	tl_src_close(src);
	return res;
}

#define SCAN(path, text, want) do {					\
	const char *res_ = scan(path, text, sizeof text - 1, 0, 1);	\
	CHECK_STR(res_, strlen(res_), want);				\
} while (0)

#define SCANQ(path, text, want) do {					\
	const char *res_ = scan(path, text, sizeof text - 1, 1, 1);	\
	CHECK_STR(res_, strlen(res_), want);				\
} while (0)

static void
test_scan(void)
{
	char deep[1400], *p;
	int i;

	SCAN("pretty.json",
	    "\xef\xbb\xbf{\r\n"
	    "  \"schemaVersion\" : 1 ,\r\n"
	    "\t\"traceEvents\"\t:\t[\n"
	    "    {\n"
	    "      \"ph\" : \"X\" ,\n"
	    "      \"args\" : { \"a\" : [ 1 , -2.5e-3 , true , null ] ,\n"
	    "                 \"s\" : \" spaces  kept \" }\n"
	    "    } ,\n"
	    "    { }\n"
	    "  ] ,\n"
	    "  \"displayTimeUnit\" : \"ns\"\n"
	    "}\n\n",
	    "KschemaVersion@26:1\n"
	    "E0@54:{\"ph\":\"X\",\"args\":{\"a\":[1,-2.5e-3,true,null],"
	    "\"s\":\" spaces  kept \"}}\n"
	    "E1@184:{}\n"
	    "KdisplayTimeUnit@216:\"ns\"\n"
	    "=0");
	SCAN("escapes.json",
	    "{\"k\\\"e\\\\y\\u00e9\":\"v\\n\\t\\\"\\u00e9\\ud83d\\ude00\","
	    "\"traceEvents\":[{\"n\\u0061me\":\"a\\\"b\\\\c\\/d\",\"x\":[\"]\","
	    "\"}\",\"[{\",\",\",\":\"]}]}",
	    "Kk\\\"e\\\\y\\u00e9@17:\"v\\n\\t\\\"\\u00e9\\ud83d\\ude00\"\n"
	    "E0@60:{\"n\\u0061me\":\"a\\\"b\\\\c\\/d\",\"x\":[\"]\",\"}\","
	    "\"[{\",\",\",\":\"]}\n"
	    "=0");
	SCAN("keys.json",
	    "{\"a\":{\"traceEvents\":[1]},\"b\":[1,{\"c\":null}],"
	    "\"traceEvents\":[{\"x\":1},{\"x\":2}],\"c\":\"after\","
	    "\"d\":false,\"e\":-1.5E+10}",
	    "Ka@5:{\"traceEvents\":[1]}\n"
	    "Kb@29:[1,{\"c\":null}]\n"
	    "E0@59:{\"x\":1}\n"
	    "E1@67:{\"x\":2}\n"
	    "Kc@80:\"after\"\n"
	    "Kd@92:false\n"
	    "Ke@102:-1.5E+10\n"
	    "=0");
	SCAN("empty-events.json", "{\"traceEvents\":[]}", "=0");
	SCAN("empty-events2.json", "{ \"traceEvents\" : [ ] , \"x\" : { } }",
	    "Kx@30:{}\n=0");
	SCAN("empty-object.json", "{}", "=0");
	SCAN("events-object.json", "{\"traceEvents\":{\"a\":[1]}}",
	    "KtraceEvents@15:{\"a\":[1]}\n=0");
	SCAN("twice.json", "{\"traceEvents\":[{\"a\":1}],"
	    "\"traceEvents\":[{\"b\":2}]}",
	    "E0@16:{\"a\":1}\nE1@40:{\"b\":2}\n=0");
	SCAN("nonobject.json",
	    "{\"traceEvents\":[1,\"x\",[2,{}],null,true,-0.5e+3,{}]}",
	    "E0@16:1\nE1@18:\"x\"\nE2@22:[2,{}]\nE3@29:null\nE4@34:true\n"
	    "E5@39:-0.5e+3\nE6@47:{}\n=0");
	SCAN("nested.json",
	    "{\"traceEvents\":[{\"a\":{\"b\":{\"c\":[[[],[[{}]]],"
	    "{\"d\":[0]}]}}}]}",
	    "E0@16:{\"a\":{\"b\":{\"c\":[[[],[[{}]]],{\"d\":[0]}]}}}\n=0");
	SCAN("array.json", "[{\"a\":1},{\"b\":2}]",
	    "E0@1:{\"a\":1}\nE1@9:{\"b\":2}\n=0");
	SCAN("array-open.json", "[{\"a\":1},\n{\"b\":2}\n",
	    "E0@1:{\"a\":1}\nE1@10:{\"b\":2}\n=0");
	SCAN("array-comma.json", "[ {\"a\":1},\n {\"b\":2},\n",
	    "E0@2:{\"a\":1}\nE1@12:{\"b\":2}\n=0");
	SCAN("array-empty.json", "[]", "=0");
	SCAN("array-bare.json", "[", "=0");

	/* Repairs: invalid UTF-8, raw control bytes, bad escapes. */
	SCAN("utf8.json",
	    "{\"traceEvents\":[{\"n\":\"a\xff" "b\xc3(c\xe2\x82\"},"
	    "{\"n\":\"\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xf0\x9f\x98\"},"
	    "{\"n\":\"ok \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
	    "\xf4\x8f\xbf\xbf\"},"
	    "{\"n\x01\":\"\x1f\\q\\\\\"}]}",
	    "E0@16:{\"n\":\"a\xef\xbf\xbd" "b\xef\xbf\xbd(c\xef\xbf\xbd\"}"
	    " !u3c0e0\n"
	    "E1@33:{\"n\":\"\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd"
	    "\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|"
	    "\xef\xbf\xbd\"} !u10c0e0\n"
	    "E2@57:{\"n\":\"ok \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f"
	    "\xbf\xbf\"}\n"
	    "E3@82:{\"n\\u0001\":\"\\u001f\\\\q\\\\\"} !u0c2e1\n"
	    "=0");
	/* The same repairs in a top-level key. */
	SCAN("utf8-key.json", "{\"k\xff\":\"\xc3\",\"traceEvents\":[]}",
	    "Kk\xef\xbf\xbd@6:\"\xef\xbf\xbd\" !u2c0e0\n=0");

	/* Deep nesting inside an event, and too deep. */
	p = deep;
	p += sprintf(p, "{\"traceEvents\":[");
	for (i = 0; i < 500; i++)
		*p++ = '[';
	for (i = 0; i < 500; i++)
		*p++ = ']';
	p += sprintf(p, "]}");
	{
		const char *r = scan("deep.json", deep, (size_t)(p - deep), 0,
		    0);
		size_t n = strlen(r);

		CHECK(n == 3 + 1000 + 3 && memcmp(r, "E0:[[[", 6) == 0 &&
		    memcmp(r + n - 3, "\n=0", 3) == 0);
	}
	p = deep;
	p += sprintf(p, "{\"traceEvents\":[");
	for (i = 0; i < 600; i++)
		*p++ = '[';
	for (i = 0; i < 600; i++)
		*p++ = ']';
	p += sprintf(p, "]}");
	{
		const char *r = scan("toodeep.json", deep, (size_t)(p - deep),
		    0, 0);

		CHECK_STR(r, strlen(r), "=-1");
	}

	/* Errors, reported on stderr. */
	SCAN("empty.json", "", "=-1");
	SCAN("blank.json", " \n\t ", "=-1");
	SCAN("text.json", "hello", "=-1");
	SCAN("number.json", "42", "=-1");
	SCAN("cut-key.json", "{\"trace", "=-1");
	SCAN("cut-open.json", "{\"traceEvents\":[", "=-1");
	SCAN("cut-event.json", "{\"traceEvents\":[{\"a\":1},{\"b\":",
	    "E0@16:{\"a\":1}\n=-1");
	SCAN("cut-after.json", "{\"traceEvents\":[{\"a\":1},{\"b\":2}",
	    "E0@16:{\"a\":1}\nE1@24:{\"b\":2}\n=-1");
	SCAN("cut-after2.json", "{\"traceEvents\":[{\"a\":1}]",
	    "E0@16:{\"a\":1}\n=-1");
	SCAN("cut-string.json", "{\"traceEvents\":[{\"a\":\"xy", "=-1");
	SCAN("cut-escape.json", "{\"traceEvents\":[{\"a\":\"x\\", "=-1");
	SCAN("cut-uhex.json", "{\"traceEvents\":[{\"a\":\"x\\u00", "=-1");
	SCAN("cut-utf8.json", "{\"traceEvents\":[{\"a\":\"x\xc3", "=-1");
	SCAN("cut-number.json", "{\"traceEvents\":[{\"a\":12", "=-1");
	SCAN("cut-number2.json", "[{\"a\":12", "=-1");
	SCAN("cut-array.json", "[{\"a\":1},{\"b\":[1,", "E0@1:{\"a\":1}\n=-1");
	SCAN("cut-toplevel.json", "{\"traceEvents\":[],\"x\":{\"y\":", "=-1");
	SCAN("trailing.json", "{\"traceEvents\":[]} x", "=-1");
	SCAN("trailing2.json", "[{\"a\":1}] [", "E0@1:{\"a\":1}\n=-1");
	SCAN("mismatch.json", "{\"traceEvents\":[{\"a\":1}}",
	    "E0@16:{\"a\":1}\n=-1");
	SCAN("colon.json", "{\"traceEvents\" []}", "=-1");
	SCAN("comma.json", "{\"traceEvents\":[{\"a\":1,}]}", "=-1");
	SCAN("comma2.json", "[{\"a\":1},,{\"b\":2}]", "E0@1:{\"a\":1}\n=-1");
	SCAN("nocomma.json", "[{\"a\":1} {\"b\":2}]", "E0@1:{\"a\":1}\n=-1");
	SCAN("leadzero.json", "[{\"a\":01}]", "=-1");
	SCAN("literal.json", "[{\"a\":tru}]", "=-1");
	SCAN("literal2.json", "[{\"a\":True}]", "=-1");
	SCAN("number2.json", "[{\"a\":1.}]", "=-1");
	SCAN("number3.json", "[{\"a\":-}]", "=-1");
	SCAN("number4.json", "[{\"a\":1e}]", "=-1");
	SCAN("badu.json", "[{\"a\":\"\\u12G4\"}]", "=-1");
	SCAN("key-number.json", "[{1:2}]", "=-1");
	SCAN("byte.json", "[{\"a\":1}\x01]", "E0@1:{\"a\":1}\n=-1");
	SCAN("single-quote.json", "[{'a':1}]", "=-1");

	/* Quiet root: not JSON gives -2 and no message; JSON is as usual. */
	SCANQ("q-text.json", "hello", "=-2");
	SCANQ("q-empty.json", "", "=-2");
	SCANQ("q-number.json", "42", "=-2");
	SCANQ("q-trace.json", "[{\"a\":1}]", "E0@1:{\"a\":1}\n=0");
	SCANQ("q-cut.json", "[{\"a\":1},{", "E0@1:{\"a\":1}\n=-1");
}

/*
 * The first chunk of a plain file is 4 KiB: pad the file so that the chunk
 * boundary falls at every byte of an awkward event, and of a top-level key
 * after the events, and check that nothing changes.
 */
static void
test_split(void)
{
	static const char ev[] =
	    "{\"ph\" : \"X\", \"name\":\"a\\\"b\\\\c\\/\\u00e9\\ud83d\\ude00"
	    "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xff\xc3(\x01\\q\","
	    "\"ts\":1419247333291.708,\"dur\":-1.5e+3,\"n\":[true,false,"
	    "null,{},[],[[0]],{\"k\":{\"\":\"\"}}],\"args\":{\"s\":"
	    "\"0123456789abcdef0123456789abcdef\\t\"}}";
	static const char head[] = "{\"traceEvents\":[";
	static const char key[] = "\"m\\\"eta\" : ";
	char *buf, want[8192];
	const char *r;
	size_t evn = sizeof ev - 1, hn = sizeof head - 1;
	size_t kn = sizeof key - 1, n, k, pad;
	unsigned bad = 0, first = 0;
	int where;

	buf = malloc(8192 + 2 * evn);
	/* The reference: no padding. */
	n = (size_t)sprintf(buf, "%s%s,%s],%s%s}", head, ev, ev, key, ev);
	r = scan("split.json", buf, n, 0, 0);
	snprintf(want, sizeof want, "%s", r);
	CHECK(strncmp(want, "E0:{\"ph\":\"X\",\"name\":", 20) == 0);
	CHECK(strstr(want, " !u2c1e1\nE1:") != NULL);
	CHECK(strstr(want, "\nKm\\\"eta:{\"ph\":\"X\"") != NULL);
	CHECK(strcmp(want + strlen(want) - 11, " !u2c1e1\n=0") == 0);

	/* The boundary inside the first event, and then inside the key. */
	for (where = 0; where < 2; where++) {
		for (k = 0; k <= (where == 0 ? evn : kn + evn); k++) {
			if (where == 0) {
				pad = 4096 - hn - k;
				n = (size_t)sprintf(buf, "%s%*s%s,%s],%s%s}",
				    head, (int)pad, "", ev, ev, key, ev);
			} else {
				pad = 4096 - hn - 2 * evn - 3 - k;
				n = (size_t)sprintf(buf, "%s%s,%s],%*s%s%s}",
				    head, ev, ev, (int)pad, "", key, ev);
			}
			r = scan("split.json", buf, n, 0, 0);
			if (strcmp(r, want) != 0 && bad++ == 0)
				first = (unsigned)(where * 10000 + k);
		}
	}
	if (!CHECK(bad == 0))
		printf("#   first difference at %u\n", first);
	free(buf);
}

int
main(int argc, char *argv[])
{
	(void)argc;
	tl_setprogname(argv[0]);
	test_us_to_ns();
	test_junescape();
	test_parse();
	test_quick();
	test_scan();
	test_split();
	CHECK(tokbad == 0);	/* the scanner's tokens are jsmn's */
	return unit_done();
}
