/*
 * tl-parse: what the JSON reader (tl-parse.c) and its pieces on every
 * core (pieces.c) share: the options, the row writer of the current
 * thread, the event and top-level handlers, the pieces' state.
 */
#ifndef TL_PARSE_TLPARSE_H
#define TL_PARSE_TLPARSE_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* memmem */
#endif
#include <inttypes.h>
#include <pthread.h>
#include <regex.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/err.h"
#include "../../common/input.h"
#include "../../common/json.h"
#include "../../common/limit.h"
#include "../../common/mem.h"
#include "../../common/opt.h"
#include "../../common/tsv.h"
#include "xplane.h"
#include "amd.h"

enum {
	C_UID, C_PH, C_CAT, C_NAME, C_PID, C_TID, C_TS, C_DUR, C_ID, C_BP,
	C_STREAM, C_CORR, C_EXTID, C_SEQ, C_DIMS, C_TYPES, C_STRIDES,
	C_CONCRETE, C_ARGS, C_EXTRA, C_TRACE, C_RANK, NCOL
};

/*
 * A trace held whole in memory (tl_in_whole: a mapped file, a gzip file
 * inflated in one call) of splitmin bytes or more, or a large gzip file
 * inflated into a buffer that grows (tl_in_grown), is read by several
 * threads, when there are two processors or more. It is cut into pieces
 * of about piecesz bytes at event boundaries that are guessed: the next
 * match of the bytes between the first two events ('}', blanks, ',',
 * blanks, '{'), which may be inside a value. Workers, one a processor,
 * read the pieces in file order, each into a buffer of rows whose uids
 * count from the piece's start, while this thread reads on from the
 * second event to the first piece and then writes the pieces' rows in
 * file order, their uids moved on. A worker takes only events that need
 * no message; at the first that would (or at bad JSON, the end of the
 * array, anything but an event) it stops, and this thread goes on after
 * the last event it took up to the next piece, so that every row, message
 * and count is the one a single thread makes. A guess that is no boundary
 * shows when this thread reaches it and is not then before an event: the
 * piece that begins there is dropped, and this thread reads on to the
 * next. At most NPIECE pieces are read ahead of the one being written,
 * which bounds the memory: their rows, and the pages of a mapped file,
 * given back behind this thread. In a growing buffer the next boundary is
 * looked for as the bytes come; when it is not there before the buffer
 * stops for this thread to go on (an event of tens of MiB), no more
 * pieces are made and this thread reads the rest alone.
 */
#define NPIECE	4
#define MAXWORK	8

struct piece {
	struct tl_out out;	/* rows, uids counted from its start */
	uint64_t start, stop;	/* its bytes (the last: from start on) */
	size_t n;		/* the buffer's bytes when it was taken */
	int last;		/* it runs to the end of the array */
	int done;
	uint64_t nev, nleft;	/* events taken, and of them left out */
	uint64_t nmapped;	/* ... and mapped from the 2021 generation */
	uint64_t at, index;	/* where this thread goes on */
	int after;		/* at is just after an event, not before */
};

struct pieces {
	int nwork;
	pthread_t th[MAXWORK];
	pthread_mutex_t mu;
	pthread_cond_t cv;
	atomic_int cancel;
	struct tl_jscan *proto;	/* between events: the state to copy */
	struct tl_src *src;
	const char *p;		/* the stream, whole or growing (grow) */
	size_t n;		/* its bytes, as far as known */
	int grow;		/* n may grow (tl_in_grown) */
	char pat[64];		/* a boundary's bytes */
	size_t plen;
	int finding;		/* a worker is finding the next boundary */
	uint64_t bound;		/* the next piece's start */
	int ended;		/* the last piece is taken, or no more will be */
	uint64_t taken, written;	/* pieces, ever */
	struct piece pc[NPIECE];
};

extern char **keepcat, **dropcat;
extern size_t nkeep, ndrop;
extern int readall;
extern int sflag, tflag, vflag;
extern regex_t rankre;
extern struct tl_out out;
extern struct tl_out pend;
extern struct tl_jdoc doc;
extern _Thread_local struct tl_out *o;
extern _Thread_local char *scratch;
extern _Thread_local int *rest, *extra, *sorted;
extern _Thread_local uint64_t nskipped, ncleared, nrepaired, nleft;
extern _Thread_local uint64_t nmapped;
extern _Thread_local jsmntok_t *tok2021;
extern _Thread_local int inhalf;
extern _Thread_local int dirty;
extern const char *tname;
extern char rank[24];
extern int seenevent, notarray;
extern uint64_t ntraces;
extern struct tl_warns warns;
extern size_t splitmin;
extern const char usage[];
void endrow(void);
void repaired(const struct tl_jitem *it, unsigned bad);
void flushpend(void);
int leftcat(const char *cat, size_t n, void *arg);
void leftevent(void);
void event(const struct tl_jitem *it);
void toplevel(const struct tl_jitem *it);
void namerank(void);
void header(void);
extern struct pieces sp;
extern size_t piecesz;	/* pieces of about this many bytes; 0: by size */
void endsplit(void);
struct tl_jscan *startsplit(struct tl_jscan *js, struct tl_src *src, uint64_t end, uint64_t next);
struct tl_jscan *nextpiece(struct tl_jscan *js, struct tl_src *src, uint64_t *nev);
int parse(struct tl_src *src);

#endif
