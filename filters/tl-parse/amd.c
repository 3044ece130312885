/*
 * tl-parse: what the rocprofv3 readers share (amd.h): the format of a
 * stream by its first bytes, and the row writer.
 */
#include <string.h>

#include "../../common/json.h"
#include "../../common/mem.h"
#include "../../common/pb.h"
#include "amd.h"

static int
endswith(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n >= k && strcmp(s + n - k, suf) == 0;
}

int
tlp_format(const char *p, size_t n, const char *name)
{
	static const char key[] = "\"rocprofiler-sdk-tool\"";
	const unsigned char *u = (const unsigned char *)p, *q, *end = u + n;
	struct tl_pb m;
	struct tl_pbf f;
	uint64_t len;
	size_t i = 0;
	int r;

	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
	    p[i] == '\r'))
		i++;
	if (i < n && p[i] == '{') {
		for (i++; i < n && (p[i] == ' ' || p[i] == '\t' ||
		    p[i] == '\n' || p[i] == '\r'); i++)
			;
		return n - i >= sizeof key - 1 &&
		    memcmp(p + i, key, sizeof key - 1) == 0 ? TLP_ROCPROF :
		    TLP_NONE;
	}
	if (i < n && p[i] == '[')
		return TLP_NONE;
	if (n < 2 || u[0] != 0x0A)
		return TLP_NONE;
	if (endswith(name, ".pftrace") || endswith(name, ".perfetto-trace"))
		return TLP_PFTRACE;
	/* The first packet: every field of what is there well formed. */
	q = u + 1;
	if (tl_pb_varint(&q, end, &len) < 0 || len == 0)
		return TLP_NONE;
	tl_pb_init(&m, q, (size_t)(end - q) < len ? (size_t)(end - q) :
	    (size_t)len, 0);
	while ((r = tl_pb_next(&m, &f)) > 0)
		if (f.num == 0 || f.wire == TL_PB_SGROUP ||
		    f.wire == TL_PB_EGROUP)
			return TLP_NONE;
	if (r < 0 && (size_t)(end - q) >= len)
		return TLP_NONE;
	return TLP_PFTRACE;
}

void
tlp_row_clear(struct tlp_row *r)
{
	memset(r->s, 0, sizeof r->s);
	memset(r->raw, 0, sizeof r->raw);
}

void
tlp_row_i64(struct tlp_row *r, int c, int64_t v)
{
	r->n[c] = tl_fmt_i64(r->num[c], v);
	r->s[c] = r->num[c];
	r->raw[c] = 1;
}

void
tlp_row_u64(struct tlp_row *r, int c, uint64_t v)
{
	char t[TL_I64_MAX];
	size_t k = 0, i;

	if (v <= INT64_MAX) {
		tlp_row_i64(r, c, (int64_t)v);
		return;
	}
	do
		t[k++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	for (i = 0; i < k; i++)
		r->num[c][i] = t[k - 1 - i];
	r->n[c] = k;
	r->s[c] = r->num[c];
	r->raw[c] = 1;
}

void
tlp_row_str(struct tlp_row *r, int c, const char *s, size_t n)
{
	r->s[c] = s;
	r->n[c] = n;
	r->raw[c] = 0;
}

void
tlp_row_json(struct tlp_row *r, int c, const char *s, size_t n)
{
	r->s[c] = s;
	r->n[c] = n;
	r->raw[c] = 2;
}

void
tlp_row_put(const struct tlp_ctx *x, const struct tlp_row *r)
{
	struct tl_out *o = x->o;
	const char *cat = r->s[TLP_CAT];
	size_t n = cat != NULL ? r->n[TLP_CAT] : 0;
	int c;

	if (x->left != NULL && !(n == 10 && memcmp(cat, "trace_file", 10) ==
	    0) && !(n == 9 && memcmp(cat, "trace_key", 9) == 0) &&
	    x->left(cat != NULL ? cat : "", n, NULL)) {
		(*x->nleft)++;
		return;
	}
	for (c = 0; c < TLP_NCOL; c++) {
		if (c > 0)
			tl_out_char(o, '\t');
		if (r->s[c] == NULL)
			continue;
		if (r->raw[c] == 1)
			tl_out_raw(o, r->s[c], r->n[c]);
		else if (r->raw[c] == 2)
			tl_out_json(o, r->s[c], r->n[c]);
		else
			tl_out_field(o, r->s[c], r->n[c]);
	}
	if (x->trace) {
		tl_out_char(o, '\t');
		tl_out_cstr(o, x->name);
		tl_out_char(o, '\t');
		tl_out_cstr(o, x->rank);
	}
	tl_out_char(o, '\n');
}

void
tlp_flows(const struct tlp_ctx *x, struct tlp_row *r, uint64_t uid,
    int64_t corr)
{
	int c;

	for (c = TLP_DUR; c < TLP_NCOL; c++)
		r->s[c] = NULL;
	tlp_row_str(r, TLP_CAT, "ac2g", 4);
	tlp_row_str(r, TLP_NAME, "ac2g", 4);
	tlp_row_i64(r, TLP_ID, corr);
	tlp_row_u64(r, TLP_UID, uid);
	tlp_row_str(r, TLP_PH, "s", 1);
	tlp_row_put(x, r);
	tlp_row_u64(r, TLP_UID, uid + 1);
	tlp_row_str(r, TLP_PH, "f", 1);
	tlp_row_str(r, TLP_BP, "e", 1);
	tlp_row_put(x, r);
}

void
tlp_trace_file(const struct tlp_ctx *x)
{
	struct tlp_row r;

	tlp_row_clear(&r);
	tlp_row_str(&r, TLP_CAT, "trace_file", sizeof "trace_file" - 1);
	tlp_row_str(&r, TLP_NAME, x->name, strlen(x->name));
	tlp_row_put(x, &r);
}

size_t
tlp_utf8(char **buf, size_t *cap, const char *s, size_t n, unsigned *bad)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k, m = 0;

	xgrow(buf, cap, 3 * n + 1, 1);
	while (i < n) {
		if (u[i] < 0x80 && u[i] != 0) {
			(*buf)[m++] = s[i++];
			continue;
		}
		if ((k = tl_utf8len(u + i, n - i)) == 0) {
			memcpy(*buf + m, "\xef\xbf\xbd", 3);
			m += 3;
			i++;
			if (bad != NULL)
				(*bad)++;
			continue;
		}
		memcpy(*buf + m, s + i, k);
		m += k;
		i += k;
	}
	return m;
}

void
tlp_jstr(struct tl_out *j, const char *s, size_t n, unsigned *bad)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, k;

	/* The plain printable ASCII run first, in one copy. */
	while (i < n && u[i] >= 0x20 && u[i] < 0x80 && u[i] != '"' &&
	    u[i] != '\\')
		i++;
	if (j->cap - j->n < i + 2)
		tl_out_grow(j, i + 2);
	j->buf[j->n++] = '"';
	memcpy(j->buf + j->n, s, i);
	j->n += i;
	while (i < n) {
		if (u[i] >= 0x20 && u[i] < 0x80) {
			if (u[i] == '"' || u[i] == '\\')
				tl_out_char(j, '\\');
			tl_out_char(j, s[i++]);
			continue;
		}
		if (u[i] < 0x20 && u[i] != 0) {
			tl_out_char(j, '\\');
			switch (u[i]) {
			case '\n':
				tl_out_char(j, 'n');
				break;
			case '\t':
				tl_out_char(j, 't');
				break;
			case '\r':
				tl_out_char(j, 'r');
				break;
			case '\b':
				tl_out_char(j, 'b');
				break;
			case '\f':
				tl_out_char(j, 'f');
				break;
			default:
				tl_out_raw(j, "u00", 3);
				tl_out_char(j, hex[u[i] >> 4]);
				tl_out_char(j, hex[u[i] & 15]);
			}
			i++;
			continue;
		}
		if ((k = tl_utf8len(u + i, n - i)) == 0) {
			tl_out_raw(j, "\xef\xbf\xbd", 3);
			i++;
			if (bad != NULL)
				(*bad)++;
			continue;
		}
		tl_out_raw(j, s + i, k);
		i += k;
	}
	tl_out_char(j, '"');
}
