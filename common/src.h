/*
 * tl: the input layer's own state (struct tl_src), shared by input.c
 * (sources, peeking, mapping, archives, the producer thread) and gzip.c
 * (the streaming gzip inflaters); not for the programs, whose interface
 * is input.h.
 */
#ifndef TL_SRC_H
#define TL_SRC_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>
#include <zlib.h>

struct archive;
#ifdef TL_ISAL
#include <isa-l/igzip_lib.h>
#endif

enum { K_PLAIN, K_GZIP, K_ARCHIVE };
enum { RAW_FD, RAW_MEMBER };

#define BLOCK	(256 * 1024)	/* read(2) and libarchive block */
#define SLOT	(1024 * 1024)	/* one decoded chunk of the pipeline */
#define NSLOT	4
#define PEEK	4096		/* bytes read before deciding the kind */
#define WHOLE	(64 << 20)	/* gzip files inflated in one call, at most */
#define GROWMIN	(16 << 20)	/* or this, when the growing buffer can be */
#define MAPMIN	(1 << 20)	/* plain files mapped (readwhole) from */
#define MAPWIN	BLOCK		/* a mapped file's chunks */

struct slot {
	char *buf;
	ssize_t n;		/* >0 data, 0 end, -1 error */
};

struct tl_src {
	char *path;		/* NULL for stdin */
	char *name;		/* "<stdin>" or the path */
	int fd;
	int kind;
	int asis;		/* tl_src_mem: no decompression */
	int readwhole;		/* tl_src_readwhole */

	/* Raw bytes read ahead of deciding the kind, replayed first. */
	char *peek;
	size_t npeek, peekpos;
	int rawerr;		/* read(2) failed: errno */
	uint64_t nraw, ndec;	/* bytes read, and decompressed from them */
	uint64_t wraw, wdec;	/* the same where the ratio's window began */
	uint64_t size;		/* of a large regular file on a terminal */
	int lastpct;		/* the percentage shown, -1 none */

	struct archive *ar;
	char *arbuf;
	int arraw;		/* libarchive's "raw" format: a bare stream */
	int started, ended;

	/* The current stream. */
	char *inname;
	int rawkind;		/* RAW_FD or RAW_MEMBER */
	char *mpeek;		/* member bytes read ahead */
	size_t nmpeek, mpeekpos;
	int gz;			/* the stream is gzip */
	z_stream z;
	int zinit, zend, zeof, zerr;
	size_t zpart;		/* bytes inflated into out before an error */
	char *zin;
#ifdef TL_ISAL
	struct inflate_state *is;	/* ISA-L's inflate, for a gzip file */
	int isal;		/* the stream is inflated by it */
	uint64_t isout;		/* the bytes it has given */
#endif
	char *whole;		/* the stream inflated in one call */
	size_t nwhole;
	const char *wp;		/* the stream whole in one buffer, its */
	size_t wn;		/* first chunk: whole, or peek */
	char errmsg[256];

	/* Plain streams: one buffer, no thread. */
	char *pbuf;
	/* ... or a plain file mapped whole (readwhole), given in windows. */
	char *map;
	size_t nmap;
	size_t mpos;		/* the next window's offset */
	size_t mdrop;		/* pages given back below this */

	/*
	 * A large gzip file for a reader of the whole: the producer inflates
	 * it into one buffer that grows (input.c, growstart).
	 */
	char *grow;		/* GROWMAX bytes of address space, or NULL */
	size_t gn;		/* bytes inflated into it */
	size_t gw;		/* the end of the producer's write under way */
	size_t gpos;		/* the next chunk's offset */
	size_t gdrop;		/* no byte below it is read again */
	size_t gahead;		/* pages moved past gw, up to here */
	size_t gkeep;		/* the buffer's address space from here on */
	int gnomove;		/* pages given back (madvise), not moved */
	int gdone;		/* the producer has ended: gn is all */
	int gerr;		/* ... at an error (errmsg) */
	int gfull;		/* ... at GROWMAX, the stream going on */

	/* Compressed streams: a producer thread and a ring of slots. */
	int threaded;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct slot ring[NSLOT];
	unsigned rd, wr;	/* slots taken and filled, ever */
	int holding;		/* the consumer holds slot rd % NSLOT */
	int again;		/* tl_in_peek: give this chunk again */
	char *againp;
	size_t againn;
	int cancel, finished;
};

/* Raw bytes of the current stream (input.c). */
ssize_t tl_src_rawin(struct tl_src *, char *, size_t);
/* The current stream's gzip inflater (gzip.c): made, run, ended. */
void tl_gz_begin(struct tl_src *);
/* Whether tl_gz_begin would take ISA-L for the stream. */
int tl_gz_isal(struct tl_src *);
ssize_t tl_gz_fill(struct tl_src *, char *out, size_t cap);
void tl_gz_end(struct tl_src *);
void tl_gz_free(struct tl_src *);

#endif
