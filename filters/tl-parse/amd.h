/*
 * tl-parse: the readers of AMD's rocprofv3 outputs, its JSON
 * (rocprof.c) and its Perfetto protobuf trace (pftrace.c), and what they
 * share: the format of a stream told by its first bytes, and the writer
 * of one row of the event stream (tl-tsv(5)) in tl-parse's columns.
 */
#ifndef TLP_AMD_H
#define TLP_AMD_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/input.h"
#include "../../common/tsv.h"

enum { TLP_NONE, TLP_ROCPROF, TLP_PFTRACE };

/*
 * The format of p[0..n), the first bytes of a stream, named name:
 * TLP_ROCPROF for a JSON object whose first key is
 * "rocprofiler-sdk-tool", TLP_PFTRACE for a protobuf Trace whose first
 * field is a packet (tag 0x0A) holding well-formed fields, or a name
 * ending in .pftrace or .perfetto-trace that starts with a tag of field
 * 1; else TLP_NONE (tl-parse's JSON reader takes it).
 */
int tlp_format(const char *p, size_t n, const char *name);

/* How a reader writes its rows and what it reports. */
struct tlp_ctx {
	struct tl_out *o;
	const char *name;	/* the stream's name */
	const char *rank;	/* with trace: the rank column */
	int trace;		/* write the trace and rank columns */
	int strict;		/* -s: a warning makes the status 1 */
	int verbose;		/* -v: the counts even when clean */
	/* -c, -x: is an event of this category left out? (NULL: none is;
	 * trace_file and trace_key rows are always written) */
	int (*left)(const char *cat, size_t n, void *arg);
	uint64_t *nleft;	/* with left: the rows it left out */
};

/* Read the current stream of src as the format; 0, or -1 (reported). */
int tlp_rocprof(struct tl_src *, const struct tlp_ctx *);
int tlp_pftrace(struct tl_src *, const struct tlp_ctx *);

/* One row: the columns of tl-parse's stream, in its order. */
enum {
	TLP_UID, TLP_PH, TLP_CAT, TLP_NAME, TLP_PID, TLP_TID, TLP_TS, TLP_DUR,
	TLP_ID, TLP_BP, TLP_STREAM, TLP_CORR, TLP_EXTID, TLP_SEQ, TLP_DIMS,
	TLP_TYPES, TLP_STRIDES, TLP_CONCRETE, TLP_ARGS, TLP_EXTRA, TLP_NCOL
};

/*
 * Fields of a row, as text to write: s[c] of n[c] bytes (NULL: empty);
 * raw[c] set when s[c] is written as it is (numbers, and JSON text that
 * tlp_jstr made), else it is escaped (tl_out_field).
 */
struct tlp_row {
	const char *s[TLP_NCOL];
	size_t n[TLP_NCOL];
	char num[TLP_NCOL][TL_I64_MAX];
	unsigned char raw[TLP_NCOL];
};

void tlp_row_clear(struct tlp_row *);
void tlp_row_i64(struct tlp_row *, int c, int64_t v);
void tlp_row_u64(struct tlp_row *, int c, uint64_t v);
void tlp_row_str(struct tlp_row *, int c, const char *s, size_t n);
void tlp_row_json(struct tlp_row *, int c, const char *s, size_t n);
void tlp_row_put(const struct tlp_ctx *, const struct tlp_row *);

/*
 * After a GPU row (a kernel dispatch or a memory copy) whose correlation
 * id is corr: the pair of ac2g flow rows, ph s and f, with that id, at
 * the row's pid, tid and ts (uids uid and uid + 1), as Kineto links a
 * kernel to its launch, so that tl-tree links it to the hip_api call of
 * the same id. The row r is changed.
 */
void tlp_flows(const struct tlp_ctx *, struct tlp_row *r, uint64_t uid,
    int64_t corr);

/* The trace_file row that opens a trace's rows. */
void tlp_trace_file(const struct tlp_ctx *);

/*
 * s[0..n) as a JSON string on j, in quotes: invalid UTF-8 and NUL as
 * U+FFFD (counted in *bad when bad is not NULL), control characters
 * escaped. Text checked so can go into a TSV field with tl_out_json.
 */
void tlp_jstr(struct tl_out *j, const char *s, size_t n, unsigned *bad);

/* s[0..n) with invalid UTF-8 and NUL as U+FFFD, into *buf (grown). */
size_t tlp_utf8(char **buf, size_t *cap, const char *s, size_t n,
    unsigned *bad);

#endif
