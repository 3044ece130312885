/*
 * tl-parse: a rocprofv3 JSON (*_results.json[.gz]) read as a stream. The
 * file is one object, {"rocprofiler-sdk-tool": [ {tool record}, ... ]};
 * only element 0 is read. A walker (rocwalk.c) goes through its
 * structure byte by byte and takes out whole only the small values it
 * needs (metadata,
 * agents, the kind/operation string table, each kernel symbol, each
 * marker message, each buffer record), which jsmn then tokenizes; every
 * other value is passed over. So memory is bounded by the name tables and
 * the largest single record, whatever the number of records. Each buffer
 * record becomes one row; metadata and agents become trace_key rows.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/err.h"
#include "../../common/intern.h"
#include "../../common/json.h"
#include "../../common/mem.h"
#include "rocwalk.h"

static int
symbol(uint64_t off, void *arg)
{
	struct sym s;
	struct str nm;
	int64_t id;
	char b[64];
	size_t i;

	(void)arg;
	if (rw_doc(off, "kernel symbol") < 0)
		return 0;
	memset(&s, 0, sizeof s);
	if (!rw_tint(rw_mem(0, "kernel_id"), &id)) {
		rw_warnat(off, "kernel symbol without a kernel_id (skipped)");
		return 0;
	}
	/* First non-empty of truncated, formatted, then kernel_name. */
	if (!rw_tstr(rw_mem(0, "truncated_kernel_name"), &s.name) ||
	    s.name.n == 0) {
		free(s.name.s);
		s.name.s = NULL;
		if (!rw_tstr(rw_mem(0, "formatted_kernel_name"), &s.name) ||
		    s.name.n == 0) {
			free(s.name.s);
			s.name.s = NULL;
			if (!rw_tstr(rw_mem(0, "kernel_name"), &s.name)) {
				snprintf(b, sizeof b, "unknown_kernel_%" PRId64,
				    id);
				s.name.s = xstrdup(b);
				s.name.n = strlen(b);
			}
		}
	}
	if (rw_tstr(rw_mem(0, "demangled_kernel_name"), &nm)) {
		/* Kept as JSON text, as every row of the kernel writes it. */
		RW.j.n = 0;
		tlp_jstr(&RW.j, nm.s, nm.n, NULL);
		s.demangled.s = xmemdup(RW.j.buf, RW.j.n);
		s.demangled.n = RW.j.n;
		free(nm.s);
	}
	s.plain = strcspn(s.name.s, "\\\t\n\r") == s.name.n;
	s.hasregs = rw_tint(rw_mem(0, "sgpr_count"), &s.sgpr);
	s.vgpr = rw_intor(rw_mem(0, "arch_vgpr_count"), 0);
	s.accum = rw_intor(rw_mem(0, "accum_vgpr_count"), 0);
	if ((i = rw_uget(&RW.symix, (uint64_t)id)) != 0) {
		free(RW.sym[i - 1].name.s);
		free(RW.sym[i - 1].demangled.s);
		RW.sym[i - 1] = s;
		return 0;
	}
	xgrow(&RW.sym, &RW.capsym, RW.nsym + 1, sizeof *RW.sym);
	RW.sym[RW.nsym++] = s;
	rw_uput(&RW.symix, (uint64_t)id, RW.nsym);
	return 0;
}

static int
marker(uint64_t off, void *arg)
{
	int64_t id;
	struct str s;

	(void)arg;
	if (rw_doc(off, "marker message") < 0)
		return 0;
	if (!rw_tint(rw_mem(0, "key"), &id) || !rw_tstr(rw_mem(0, "value"), &s)) {
		rw_warnat(off, "marker message without an integer key and a "
		    "string value (skipped)");
		return 0;
	}
	xgrow(&RW.marker, &RW.capmarker, RW.nmarker + 1, sizeof *RW.marker);
	RW.marker[RW.nmarker++] = s;
	rw_uput(&RW.markix, (uint64_t)id, RW.nmarker);
	return 0;
}

/* strings.buffer_records: [{kind, operations: [...]}, ...] by kind. */
static void
kinds(uint64_t off)
{
	int i, k, o, n, e;

	if (rw_doc(off, "strings.buffer_records") < 0)
		return;
	if (RW.d.tok[0].type != JSMN_ARRAY) {
		rw_warnat(off, "strings.buffer_records is not an array");
		return;
	}
	RW.nkind = (size_t)RW.d.tok[0].size;
	RW.kind = xcalloc(RW.nkind + 1, sizeof *RW.kind);
	for (i = 1, k = 0; k < RW.d.tok[0].size; k++) {
		rw_tstr(rw_mem(i, "kind"), &RW.kind[k].name);
		if ((o = rw_mem(i, "operations")) >= 0 &&
		    RW.d.tok[o].type == JSMN_ARRAY) {
			n = RW.d.tok[o].size;
			RW.kind[k].op = xcalloc((size_t)n + 1,
			    sizeof *RW.kind[k].op);
			RW.kind[k].nop = (size_t)n;
			for (e = o + 1, n = 0; n < RW.d.tok[o].size; n++) {
				rw_tstr(e, &RW.kind[k].op[n]);
				e = tl_jskip(&RW.d, e);
			}
		}
		i = tl_jskip(&RW.d, i);
	}
}

static int
stringsmember(void *arg)
{
	uint64_t off;

	(void)arg;
	if (rw_iskey("buffer_records")) {
		if (rw_takeval(&off) < 0)
			return -1;
		kinds(off);
		return 0;
	}
	if (rw_iskey("marker_api"))
		return rw_elements(marker, NULL);
	return rw_skipval();
}

static void
agents(uint64_t off)
{
	int i, k;

	if (rw_doc(off, "agents") < 0)
		return;
	if (RW.d.tok[0].type != JSMN_ARRAY)
		return;
	RW.agent = xcalloc((size_t)RW.d.tok[0].size + 1, sizeof *RW.agent);
	for (i = 1, k = 0; k < RW.d.tok[0].size; k++) {
		RW.agent[k].handle = (uint64_t)rw_handle(rw_mem(i, "id"), -1);
		RW.agent[k].type = rw_intor(rw_mem(i, "type"), 0);
		RW.agent[k].index = rw_intor(rw_mem(i, "logical_node_type_id"), -1);
		RW.agent[k].node = rw_intor(rw_mem(i, "logical_node_id"), -1);
		i = tl_jskip(&RW.d, i);
	}
	RW.nagent = (size_t)RW.d.tok[0].size;
	RW.haveagent = 1;
}

static const struct agent *
findagent(int64_t h)
{
	size_t i;

	for (i = 0; i < RW.nagent; i++)
		if (RW.agent[i].handle == (uint64_t)h)
			return &RW.agent[i];
	return NULL;
}

/* A trace_key row: the key and its value, RW.d, as JSON. */
static void
keyrow(const char *key)
{
	struct tlp_row r;
	size_t n;

	n = tlp_utf8(&RW.ubuf, &RW.ucap, RW.d.js, RW.d.len, NULL);
	tlp_row_clear(&r);
	tlp_row_str(&r, TLP_CAT, "trace_key", sizeof "trace_key" - 1);
	tlp_row_str(&r, TLP_NAME, key, strlen(key));
	tlp_row_json(&r, TLP_ARGS, RW.ubuf, n);
	tlp_row_put(RW.x, &r);
}

/* The args JSON's next key, k: "k": (the quotes and colon in k, n
 * bytes). jkey("k") and the others take a string constant. */
#define jkey(k)		jkeyn("\"" k "\":", sizeof k + 2)
#define jint(k, v)	(jkey(k), jnum(v))
#define juint(k, v)	(jkey(k), junum(v))
#define jstrv(k, v)	(jkey(k), tlp_jstr(&RW.j, (v)->s, (v)->n, NULL))
#define jxyz(k, t)	(jkey(k), jtriple(t))

static void
jkeyn(const char *k, size_t n)
{
	if (RW.j.n > 1)
		tl_out_char(&RW.j, ',');
	tl_out_raw(&RW.j, k, n);
}

static void
jnum(int64_t v)
{
	char b[TL_I64_MAX];

	tl_out_raw(&RW.j, b, tl_fmt_i64(b, v));
}

static void
junum(int64_t v)
{
	struct tlp_row r;

	tlp_row_u64(&r, 0, (uint64_t)v);
	tl_out_raw(&RW.j, r.s[0], r.n[0]);
}

/* [x,y,z] of {"x": X, "y": Y, "z": Z} at token t, 1 for what is not an
 * integer or not there (the first of a repeated key). */
static void
jtriple(int t)
{
	int64_t v[3] = { 1, 1, 1 };
	int got[3] = { 0, 0, 0 }, i, k, c;

	if (t >= 0 && RW.d.tok[t].type == JSMN_OBJECT)
		for (i = t + 1, k = 0; k < RW.d.tok[t].size; k++) {
			c = RW.d.js[RW.d.tok[i].start] - 'x';
			if (c >= 0 && c < 3 && !got[c] &&
			    rw_keyis(i, "xyz" + c, 1)) {
				got[c] = 1;
				v[c] = rw_intor(i + 1, 1);
			}
			i = rw_after(i + 1);
		}
	tl_out_char(&RW.j, '[');
	jnum(v[0]);
	tl_out_char(&RW.j, ',');
	jnum(v[1]);
	tl_out_char(&RW.j, ',');
	jnum(v[2]);
	tl_out_char(&RW.j, ']');
}

/* The name of kind k and operation op: NULL when the table lacks it. */
static const struct str *
opname(int64_t k, int64_t op, const struct str **kname)
{
	*kname = NULL;
	if (k < 0 || (size_t)k >= RW.nkind)
		return NULL;
	*kname = RW.kind[k].name.s ? &RW.kind[k].name : NULL;
	if (op < 0 || (size_t)op >= RW.kind[k].nop || !RW.kind[k].op[op].s)
		return NULL;
	return &RW.kind[k].op[op];
}

static const char *const rkey[] = { "kind", "operation", "start_timestamp",
	"end_timestamp", "correlation_id", "stream_id", "dispatch_info",
	"thread_id", "src_agent_id", "dst_agent_id", NULL };
enum { R_KIND, R_OP, R_START, R_END, R_CORR, R_STREAM, R_DI, R_TID, R_SRC,
	R_DST, NR };
static const char *const dkey[] = { "kernel_id", "agent_id", "queue_id",
	"dispatch_id", "grid_size", "workgroup_size", "group_segment_size",
	"private_segment_size", NULL };
enum { D_KID, D_AGENT, D_QUEUE, D_DISP, D_GRID, D_WG, D_LDS, D_SCR, ND };
static struct keyset rkeys, dkeys;

/* One buffer record, in RW.d, of the array arr. */
static void
record(uint64_t off, int arr)
{
	static const struct str empty = { "", 0 };
	const char *cat = RW.arrname[arr];
	struct tlp_row r;
	const struct str *name = &empty, *kname, *on;
	const struct sym *s = NULL;
	const struct agent *ag = NULL, *dst = NULL, *src = NULL;
	struct str nm;
	int64_t kind, op, start, end, v, kid = 0, tid, in = -1;
	int di, corr, sid, i, k, kd, hasstart, hasend, hasin, rv[NR], dv[ND];
	size_t ix, nn;
	char b[64];

	if (rw_doc(off, cat) < 0)
		return;
	if (RW.d.tok[0].type != JSMN_OBJECT) {
		RW.nbad++;
		rw_warnat(off, "%s record is not an object (skipped)", cat);
		return;
	}
	kd = strcmp(cat, "kernel_dispatch") == 0;
	rw_slots(0, &rkeys, rv);
	kind = rw_intor(rv[R_KIND], -1);
	op = rw_intor(rv[R_OP], -1);
	hasstart = rw_tint(rv[R_START], &start);
	hasend = rw_tint(rv[R_END], &end);
	corr = rv[R_CORR];
	hasin = rw_tint(rw_mem(corr, "internal"), &in);
	sid = rv[R_STREAM];
	di = rv[R_DI];
	tid = rw_intor(rv[R_TID], 0);
	rw_slots(di, &dkeys, dv);
	on = opname(kind, op, &kname);
	nm.s = NULL;
	tlp_row_clear(&r);
	RW.j.n = 0;
	tl_out_char(&RW.j, '{');
	if (kname)
		jstrv("kind", kname);
	else
		jint("kind", kind);
	if (kd) {
		kid = rw_intor(dv[D_KID], 0);
		if ((ix = rw_uget(&RW.symix, (uint64_t)kid)) != 0) {
			s = &RW.sym[ix - 1];
			name = &s->name;
		} else {
			snprintf(b, sizeof b, "unknown_kernel_%" PRId64, kid);
			nm.s = b;
			nm.n = strlen(b);
			name = &nm;
			rw_warnat(off, "kernel_id %" PRId64 " not in "
			    "kernel_symbols", kid);
		}
		v = rw_handle(dv[D_AGENT], 0);
		ag = findagent(v);
		if (ag != NULL && ag->type == 2 && ag->index >= 0)
			tlp_row_i64(&r, TLP_PID, ag->index);
		else
			tlp_row_i64(&r, TLP_PID, v);
		if (sid >= 0)
			tlp_row_i64(&r, TLP_TID, rw_handle(sid, 0));
		else
			tlp_row_i64(&r, TLP_TID, rw_handle(dv[D_QUEUE],
			    0));
		juint("agent", v);
		if (ag != NULL && ag->type == 2)
			jint("device", ag->index);
		juint("queue", rw_handle(dv[D_QUEUE], 0));
		jint("kernel_id", kid);
		jint("dispatch_id", rw_intor(dv[D_DISP], 0));
		jint("thread_id", tid);
		jxyz("grid", dv[D_GRID]);
		jxyz("block", dv[D_WG]);
		jint("lds", rw_intor(dv[D_LDS], 0));
		jint("scratch", rw_intor(dv[D_SCR], 0));
		if (s != NULL && s->hasregs) {
			jint("sgpr", s->sgpr);
			jint("vgpr", s->vgpr);
			jint("accum_vgpr", s->accum);
		}
		if (s != NULL && s->demangled.s != NULL) {
			jkey("demangled_name");
			tl_out_raw(&RW.j, s->demangled.s, s->demangled.n);
		}
	} else {
		if (strcmp(cat, "marker_api") == 0 && corr >= 0 &&
		    (ix = rw_uget(&RW.markix, (uint64_t)in)) != 0)
			name = &RW.marker[ix - 1];
		else if (on != NULL)
			name = on;
		else {
			rw_warnat(off, "%s record: kind %" PRId64 ", operation %"
			    PRId64 " not in strings.buffer_records (no name)",
			    cat, kind, op);
		}
		if (strcmp(cat, "memory_copy") == 0) {
			src = findagent(rw_handle(rv[R_SRC], -1));
			dst = findagent(rw_handle(rv[R_DST], -1));
			ag = dst != NULL && dst->type == 2 ? dst : src;
			if (ag != NULL && ag->type == 2)
				tlp_row_i64(&r, TLP_PID, ag->index);
			else if (RW.haspid)
				tlp_row_i64(&r, TLP_PID, RW.pid);
			if (sid >= 0)
				tlp_row_i64(&r, TLP_TID, rw_handle(sid, 0));
			else
				tlp_row_i64(&r, TLP_TID, tid);
		} else {
			if (RW.haspid)
				tlp_row_i64(&r, TLP_PID, RW.pid);
			tlp_row_i64(&r, TLP_TID, tid);
		}
		if (on != NULL)
			jstrv("operation", on);
		else
			jint("operation", op);
		jint("thread_id", tid);
		/* The record's other members as they are. */
		for (i = 1, k = 0; k < RW.d.tok[0].size; k++) {
			const jsmntok_t *kt = &RW.d.tok[i], *vt = &RW.d.tok[i + 1];
			static const char *const col[] = { "size", "kind",
			    "operation", "thread_id", "correlation_id",
			    "start_timestamp", "end_timestamp", "stream_id",
			    NULL };
			int c, skip = 0;

			for (c = 0; col[c]; c++)
				if (rw_keyis(i, col[c], strlen(col[c])))
					skip = 1;
			if (!skip) {
				if (RW.j.n > 1)
					tl_out_char(&RW.j, ',');
				nn = (size_t)(vt->end - kt->start + 1 +
				    (vt->type == JSMN_STRING));
				tl_out_raw(&RW.j, RW.d.js + kt->start - 1, nn);
			}
			i = rw_after(i + 1);
		}
		if (src != NULL && src->type == 2)
			jint("src_device", src->index);
		if (dst != NULL && dst->type == 2)
			jint("dst_device", dst->index);
	}
	tl_out_char(&RW.j, '}');
	tlp_row_u64(&r, TLP_UID, RW.nrow++);
	RW.nrec++;
	tlp_row_str(&r, TLP_PH, "X", 1);
	tlp_row_str(&r, TLP_CAT, cat, strlen(cat));
	tlp_row_str(&r, TLP_NAME, name->s, name->n);
	if (s != NULL && s->plain)
		r.raw[TLP_NAME] = 1;	/* written as it is */
	if (hasstart) {
		tlp_row_i64(&r, TLP_TS, start);
		if (hasend && end >= start)
			tlp_row_i64(&r, TLP_DUR, end - start);
		else if (hasend)
			rw_warnat(off, "%s record ends before it starts (%" PRId64
			    " < %" PRId64 "): no duration", cat, end, start);
	}
	if (sid >= 0)
		tlp_row_i64(&r, TLP_STREAM, rw_handle(sid, 0));
	if (corr >= 0) {
		if (hasin)
			tlp_row_i64(&r, TLP_CORR, in);
		if (rw_tint(rw_mem(corr, "external"), &v) && v != 0)
			tlp_row_i64(&r, TLP_EXTID, v);
	}
	/* Members copied as they are may hold bad UTF-8. */
	if (RW.high) {
		nn = tlp_utf8(&RW.ubuf, &RW.ucap, RW.j.buf, RW.j.n, NULL);
		tlp_row_json(&r, TLP_ARGS, RW.ubuf, nn);
	} else
		tlp_row_json(&r, TLP_ARGS, RW.j.buf, RW.j.n);
	tlp_row_put(RW.x, &r);
	if (hasin && (kd || strcmp(cat, "memory_copy") == 0)) {
		tlp_flows(RW.x, &r, RW.nrow, in);
		RW.nrow += 2;
	}
}

static int
recordel(uint64_t off, void *arg)
{
	int arr = (int)(intptr_t)arg;
	struct rec *d;

	if (!RW.havesym || !RW.havestr) {
		xgrow(&RW.defer, &RW.capdefer, RW.ndefer + 1, sizeof *RW.defer);
		d = &RW.defer[RW.ndefer++];
		d->text = xmemdup(RW.d.js, RW.d.len);
		d->len = RW.d.len;
		d->off = off;
		d->arr = arr;
		d->high = RW.high;
		return 0;
	}
	record(off, arr);
	return 0;
}

static int
bufmember(void *arg)
{
	(void)arg;
	RW.arrname = xreallocarray(RW.arrname, RW.narr + 1, sizeof *RW.arrname);
	RW.arrname[RW.narr++] = xstrdup(RW.key);
	return rw_elements(recordel, (void *)(intptr_t)(RW.narr - 1));
}

static int
toolmember(void *arg)
{
	uint64_t off;
	int64_t v;

	(void)arg;
	/* A value that is not valid JSON is no row (warned by doc). */
	if (rw_iskey("metadata")) {
		if (rw_takeval(&off) < 0)
			return -1;
		if (rw_doc(off, "metadata") < 0)
			return 0;
		keyrow("metadata");
		if (rw_tint(rw_mem(0, "pid"), &v)) {
			RW.pid = v;
			RW.haspid = 1;
		}
		return 0;
	}
	if (rw_iskey("agents")) {
		if (rw_takeval(&off) < 0)
			return -1;
		if (rw_doc(off, "agents") < 0)
			return 0;
		keyrow("agents");
		agents(off);
		return 0;
	}
	if (rw_iskey("strings")) {
		RW.havestr = 1;
		if (rw_cur() != '{')
			return rw_skipval();
		return rw_members(stringsmember, NULL);
	}
	if (rw_iskey("kernel_symbols")) {
		RW.havesym = 1;
		return rw_elements(symbol, NULL);
	}
	if (rw_iskey("buffer_records")) {
		if (rw_cur() != '{') {
			rw_warnat(RW.base + RW.pos, "buffer_records is not an "
			    "object (passed over)");
			return rw_skipval();
		}
		return rw_members(bufmember, NULL);
	}
	return rw_skipval();
}

static int
rootmember(void *arg)
{
	int c, i;

	*(int *)arg = 1;
	if (!rw_iskey("rocprofiler-sdk-tool"))
		return rw_skipval();
	if (rw_cur() != '[')
		return rw_fail("\"rocprofiler-sdk-tool\" is not an array");
	RW.pos++;
	for (i = 0;; i++) {
		if ((c = rw_skipws()) == ']' && i == 0) {
			RW.pos++;
			return 0;
		}
		if (i == 0 && c == '{') {
			if (rw_members(toolmember, NULL) < 0)
				return -1;
		} else if (rw_skipval() < 0)
			return -1;
		c = rw_skipws();
		RW.pos++;
		if (c == ']')
			return 0;
		if (c != ',') {
			RW.pos--;
			return rw_fail(c < 0 ? "truncated: the file ends inside "
			    "an array" : "',' or ']' expected");
		}
	}
}

int
tlp_rocprof(struct tl_src *src, const struct tlp_ctx *x)
{
	int status = 0, seen = 0;
	size_t i, k;

	memset(&RW, 0, sizeof RW);
	RW.x = x;
	rw_classes();
	if (rkeys.key == NULL) {
		rw_keysinit(&rkeys, rkey);
		rw_keysinit(&dkeys, dkey);
	}
	RW.src = src;
	tl_out_init(&RW.cap, -1, "(value)");
	tl_out_init(&RW.j, -1, "(args)");
	tlp_trace_file(x);
	if (rw_skipws() != '{' || rw_members(rootmember, &seen) < 0)
		status = -1;
	else if (rw_skipws() >= 0) {
		rw_fail("data after the JSON object");
		status = -1;
	}
	(void)seen;
	/* Records read before the name tables. */
	for (i = 0; i < RW.ndefer; i++) {
		RW.cap.n = 0;
		tl_out_raw(&RW.cap, RW.defer[i].text, RW.defer[i].len);
		RW.high = RW.defer[i].high;
		RW.json = 0;
		RW.d.js = RW.cap.buf;
		RW.d.len = RW.cap.n;
		record(RW.defer[i].off, RW.defer[i].arr);
		free(RW.defer[i].text);
	}
	tl_warns_end(&RW.warns, x->name);
	if (RW.nbad + RW.nwarn > 0 || x->verbose)
		tl_warnx("%s: %" PRIu64 " records, %" PRIu64 " skipped, %" PRIu64
		    " warnings", x->name, RW.nrec, RW.nbad, RW.nwarn);
	if (x->strict && RW.nwarn + RW.nbad > 0)
		status = -1;
	tl_json_free(&RW.d);
	for (i = 0; i < RW.nsym; i++) {
		free(RW.sym[i].name.s);
		free(RW.sym[i].demangled.s);
	}
	free(RW.sym);
	rw_ufree(&RW.symix);
	rw_ufree(&RW.markix);
	for (i = 0; i < RW.nmarker; i++)
		free(RW.marker[i].s);
	free(RW.marker);
	for (i = 0; i < RW.nkind; i++) {
		free(RW.kind[i].name.s);
		for (k = 0; k < RW.kind[i].nop; k++)
			free(RW.kind[i].op[k].s);
		free(RW.kind[i].op);
	}
	free(RW.kind);
	free(RW.agent);
	free(RW.defer);
	for (i = 0; i < RW.narr; i++)
		free(RW.arrname[i]);
	free(RW.arrname);
	free(RW.ubuf);
	free(RW.ubuf2);
	tl_out_close(&RW.cap);
	tl_out_close(&RW.j);
	return status;
}
