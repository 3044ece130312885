/*
 * tl: unit tests of the protobuf wire layer (common/pb.c): fields of
 * every wire type, nested messages, packed varints, groups, and each kind
 * of malformed input, in memory and from a stream.
 */
#include <stdio.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/pb.h"
#include "unit.h"

/* field 1 varint 150; field 2 "hi"; field 3 {field 1: -2 zigzag = 3};
 * field 4 fixed64 1.5; field 5 fixed32 1.5f; field 6 packed 1, 300;
 * field 7 a group holding field 1 varint 1. */
static const unsigned char msg[] = {
	0x08, 0x96, 0x01,
	0x12, 0x02, 'h', 'i',
	0x1a, 0x02, 0x08, 0x03,
	0x21, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f,
	0x2d, 0, 0, 0xc0, 0x3f,
	0x32, 0x03, 0x01, 0xac, 0x02,
	0x3b, 0x08, 0x01, 0x3c,
};

static void
test_mem(void)
{
	struct tl_pb m, sub;
	struct tl_pbf f, g;
	size_t pos = 0;
	uint64_t v, packed[2];
	int n = 0;

	tl_pb_init(&m, msg, sizeof msg, 100);
	CHECK(tl_pb_next(&m, &f) == 1 && f.num == 1 && f.wire == TL_PB_VARINT);
	CHECK_I64(f.v, 150);
	CHECK_I64(f.off, 100);
	CHECK(tl_pb_next(&m, &f) == 1 && f.num == 2 && f.wire == TL_PB_LEN);
	CHECK_STR((const char *)f.data, f.len, "hi");
	CHECK(tl_pb_sub(&sub, &f) == 0);
	CHECK_I64(sub.off, 105);
	CHECK(tl_pb_next(&m, &f) == 1 && f.num == 3);
	CHECK(tl_pb_sub(&sub, &f) == 0);
	CHECK(tl_pb_next(&sub, &g) == 1 && g.num == 1);
	CHECK_I64(tl_pb_zigzag(g.v), -2);
	CHECK(tl_pb_next(&sub, &g) == 0);
	CHECK(tl_pb_next(&m, &f) == 1 && f.wire == TL_PB_I64);
	CHECK(tl_pb_double(f.v) == 1.5);
	CHECK(tl_pb_sub(&sub, &f) == -1);
	CHECK(strcmp(tl_pb_why(), "wire type does not match the field") == 0);
	CHECK(tl_pb_next(&m, &f) == 1 && f.wire == TL_PB_I32);
	CHECK(tl_pb_float(f.v) == 1.5f);
	CHECK(tl_pb_next(&m, &f) == 1 && f.num == 6);
	while (tl_pb_packed(&f, &pos, &v) == 1 && n < 2)
		packed[n++] = v;
	CHECK(n == 2 && packed[0] == 1 && packed[1] == 300);
	CHECK(tl_pb_next(&m, &f) == 1 && f.num == 7 &&
	    f.wire == TL_PB_SGROUP);
	CHECK(tl_pb_next(&m, &f) == 0);
	CHECK_I64(m.off, 100 + sizeof msg);
}

static void
bad(const unsigned char *p, size_t n, const char *why, uint64_t at)
{
	struct tl_pb m;
	struct tl_pbf f;
	int r;

	tl_pb_init(&m, p, n, 0);
	while ((r = tl_pb_next(&m, &f)) == 1)
		;
	CHECK(r == -1);
	CHECK_STR(tl_pb_why(), strlen(tl_pb_why()), why);
	CHECK_I64(tl_pb_at(), at);
}

static void
test_bad(void)
{
	static const unsigned char tag[] = { 0x08, 0x01, 0x88 };
	static const unsigned char var[] = { 0x08, 0x96 };
	static const unsigned char len[] = { 0x12, 0x05, 'a' };
	static const unsigned char fix[] = { 0x21, 0, 0 };
	static const unsigned char wire[] = { 0x0e, 0 };
	static const unsigned char zero[] = { 0x00, 0 };
	static const unsigned char eg[] = { 0x0c };
	static const unsigned char sg[] = { 0x0b, 0x08, 0x01 };
	static const unsigned char mis[] = { 0x0b, 0x14 };
	static const unsigned char eleven[] = { 0x08, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };

	bad(tag, sizeof tag, "truncated tag", 2);
	bad(var, sizeof var, "truncated varint", 0);
	bad(len, sizeof len, "length past the end", 0);
	bad(fix, sizeof fix, "truncated fixed-width value", 0);
	bad(wire, sizeof wire, "unknown wire type", 0);
	bad(zero, sizeof zero, "field number out of range", 0);
	bad(eg, sizeof eg, "group end without a start", 0);
	bad(sg, sizeof sg, "unterminated group", 0);
	bad(mis, sizeof mis, "mismatched group end", 1);
	bad(eleven, sizeof eleven, "truncated varint", 0);
}

static void
test_stream(void)
{
	/* All but the group, which a stream refuses. */
	struct tl_src *s = tl_src_mem("m.pb", msg, sizeof msg - 4);
	struct tl_pbin r;
	struct tl_pbf f;
	const unsigned char *p;
	int n = 0, r1;

	CHECK(tl_src_next(s) == 1);
	tl_pbin_init(&r, s);
	while ((r1 = tl_pbin_field(&r, &f)) == 1) {
		n++;
		if (f.num == 1)
			CHECK_I64(f.v, 150);
		if (f.num == 2) {
			CHECK(f.data == NULL && f.len == 2);
			CHECK(tl_pbin_take(&r, f.len, &p) == 0);
			CHECK_STR((const char *)p, 2, "hi");
		} else if (f.wire == TL_PB_LEN)
			CHECK(tl_pbin_skip(&r, f.len) == 0);
		if (f.num == 4)
			CHECK(tl_pb_double(f.v) == 1.5);
	}
	CHECK(r1 == 0 && n == 6);
	CHECK_I64(r.off, sizeof msg - 4);
	tl_pbin_free(&r);
	tl_src_close(s);

	/* Cut inside the string of field 2: the take fails, located. */
	s = tl_src_mem("cut.pb", msg, 5);
	CHECK(tl_src_next(s) == 1);
	tl_pbin_init(&r, s);
	CHECK(tl_pbin_field(&r, &f) == 1);
	CHECK(tl_pbin_field(&r, &f) == 1 && f.len == 2);
	CHECK(tl_pbin_take(&r, f.len, &p) == -1);
	CHECK_STR(tl_pb_why(), strlen(tl_pb_why()), "truncated field");
	CHECK_I64(tl_pb_at(), 5);
	tl_pbin_free(&r);
	tl_src_close(s);

	s = tl_src_mem("group.pb", msg + sizeof msg - 4, 4);
	CHECK(tl_src_next(s) == 1);
	tl_pbin_init(&r, s);
	CHECK(tl_pbin_field(&r, &f) == -1);
	CHECK_STR(tl_pb_why(), strlen(tl_pb_why()), "group in a streamed message");
	tl_pbin_free(&r);
	tl_src_close(s);

	/* Cut inside a tag's varint. */
	s = tl_src_mem("tag.pb", "\x08\x01\x88", 3);
	CHECK(tl_src_next(s) == 1);
	tl_pbin_init(&r, s);
	CHECK(tl_pbin_field(&r, &f) == 1);
	CHECK(tl_pbin_field(&r, &f) == -1);
	CHECK_STR(tl_pb_why(), strlen(tl_pb_why()), "truncated tag");
	CHECK_I64(tl_pb_at(), 2);
	tl_pbin_free(&r);
	tl_src_close(s);
}

int
main(int argc, char *argv[])
{
	(void)argc;
	tl_setprogname(argv[0]);
	test_mem();
	test_bad();
	test_stream();
	return unit_done();
}
