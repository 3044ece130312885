/* tl: the input layer (plain files, stdin, gzip, libarchive). */
#define _GNU_SOURCE		/* F_SETPIPE_SZ */
#include <sys/mman.h>
#include <sys/stat.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>
#include <libdeflate.h>
#include <zlib.h>

#include "err.h"
#include "input.h"
#include "limit.h"
#include "mem.h"
#include "src.h"


/*
 * libarchive (zip, tar, 7z, cpio, and xz, zstd, bzip2, lz4 streams) is
 * loaded when an input needs it: with the dozen libraries it brings
 * (libxml2, ICU, libstdc++, ...) it would cost every program a millisecond
 * and a half at start, and most inputs are JSON, gzip or a stream. The
 * functions are called through la.NAME.
 */
#define LIBARCHIVE "libarchive.so.13"
#define LA_FUNCS(F) \
	F(struct archive *, archive_read_new, (void)) \
	F(int, archive_read_support_filter_all, (struct archive *)) \
	F(int, archive_read_support_format_tar, (struct archive *)) \
	F(int, archive_read_support_format_zip, (struct archive *)) \
	F(int, archive_read_support_format_7zip, (struct archive *)) \
	F(int, archive_read_support_format_cpio, (struct archive *)) \
	F(int, archive_read_support_format_raw, (struct archive *)) \
	F(int, archive_read_open, (struct archive *, void *, \
	    archive_open_callback *, archive_read_callback *, \
	    archive_close_callback *)) \
	F(int, archive_read_next_header, (struct archive *, \
	    struct archive_entry **)) \
	F(la_ssize_t, archive_read_data, (struct archive *, void *, size_t)) \
	F(int, archive_read_free, (struct archive *)) \
	F(int, archive_format, (struct archive *)) \
	F(const char *, archive_error_string, (struct archive *)) \
	F(void, archive_set_error, (struct archive *, int, const char *, \
	    ...)) \
	F(__LA_MODE_T, archive_entry_filetype, (struct archive_entry *)) \
	F(const char *, archive_entry_pathname, (struct archive_entry *))
#define LA_DECL(ret, name, args) ret (*name) args;
static struct {
	LA_FUNCS(LA_DECL)
} la;
static pthread_once_t laonce = PTHREAD_ONCE_INIT;
static char laerr[256];		/* why it could not be loaded, or "" */


/*
 * Progress, for a file of PROGRESSMIN bytes or more read while the
 * standard error is a terminal: "PROG: reading NAME: P% of M MB", one
 * line, redrawn at each whole percent, cleared at the end and before any
 * message (tl_progressline).
 */
#define PROGRESSMIN	((uint64_t)64 << 20)

static void
progress(struct tl_src *s)
{
	int pct;

	if (s->size == 0)
		return;
	pct = (int)(s->nraw * 100 / s->size);
	if (s->nraw >= s->size) {
		if (s->lastpct >= 0)
			fputs("\r\033[K", stderr);
		tl_progressline = 0;
		s->size = 0;	/* done */
		return;
	}
	if (pct == s->lastpct)
		return;
	s->lastpct = pct;
	fprintf(stderr, "\r\033[K%s: reading %s: %d%% of %" PRIu64 " MB",
	    tl_progname, s->name, pct, s->size >> 20);
	tl_progressline = 1;
}

/*
 * The progress line's size, for a large file read from a terminal; and
 * a pipe's buffer of 1 MiB rather than 64 KiB, as tl_out_init sets on
 * its writing end (a writer such as tee(1) does not): a stage reads its
 * input in a sixteenth of the calls.
 */
static void
fdstart(struct tl_src *s)
{
	struct stat st;

	s->lastpct = -1;
	if (fstat(s->fd, &st) != 0)
		return;
	if (S_ISFIFO(st.st_mode))
		(void)fcntl(s->fd, F_SETPIPE_SZ, 1024 * 1024);
	if (isatty(2) && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size >= PROGRESSMIN)
		s->size = (uint64_t)st.st_size;
}

static ssize_t
readfd(struct tl_src *s, char *buf, size_t cap)
{
	ssize_t n;

	if (s->fd < 0)		/* a memory source: all in peek */
		return 0;
	for (;;) {
		n = read(s->fd, buf, cap);
		if (n >= 0) {
			s->nraw += (uint64_t)n;
			progress(s);
			return n;
		}
		if (errno != EINTR) {
			s->rawerr = errno;
			return -1;
		}
	}
}

/* Up to cap of the bytes peeked, from *pos on (below npeek). */
static ssize_t
takepeek(char *buf, size_t cap, const char *peek, size_t *pos, size_t npeek)
{
	size_t n = npeek - *pos;

	if (n > cap)
		n = cap;
	memcpy(buf, peek + *pos, n);
	*pos += n;
	return (ssize_t)n;
}

/* Raw bytes of the operand: the peeked bytes first, then read(2). */
static ssize_t
rawfd(struct tl_src *s, char *buf, size_t cap)
{
	if (s->peekpos < s->npeek)
		return takepeek(buf, cap, s->peek, &s->peekpos, s->npeek);
	return readfd(s, buf, cap);
}

/* Raw bytes of the current stream (the file, or an archive member). */
ssize_t
tl_src_rawin(struct tl_src *s, char *buf, size_t cap)
{
	la_ssize_t r;
	ssize_t k;

	if (s->rawkind == RAW_FD) {
		if ((k = rawfd(s, buf, cap)) < 0)
			snprintf(s->errmsg, sizeof s->errmsg, "%s",
			    strerror(s->rawerr));
		return k;
	}
	if (s->mpeekpos < s->nmpeek)
		return takepeek(buf, cap, s->mpeek, &s->mpeekpos, s->nmpeek);
	r = la.archive_read_data(s->ar, buf, cap);
	if (r < 0) {
		snprintf(s->errmsg, sizeof s->errmsg, "%s",
		    la.archive_error_string(s->ar));
		return -1;
	}
	return r;
}


/*
 * Decoded bytes of the current stream. A source that decompresses to
 * tl_limit[TL_LIM_RATIO] times the bytes read of it or more is an error
 * (real traces shrink 10 to 50 times, a decompression bomb a thousand
 * times and more): from the first 64 MiB out, over all of it, and over
 * each stretch of 64 MiB out or more that took bytes read (a file read
 * whole at first has the first only), so that a bomb after ordinary
 * data is met as soon as one alone.
 */
#define RATIOWIN	((uint64_t)64 << 20)

static ssize_t
decode(struct tl_src *s, char *out, size_t cap)
{
	uint64_t lim = tl_limit[TL_LIM_RATIO];
	ssize_t n;
	int bad = 0;
	char b[TL_LIMIT_STRMAX];

	n = s->gz ? tl_gz_fill(s, out, cap) : tl_src_rawin(s, out, cap);
	if (n <= 0 || (!s->gz && s->kind != K_ARCHIVE))
		return n;
	s->ndec += (uint64_t)n;
	if (lim != 0 && s->ndec >= RATIOWIN) {
		bad = s->nraw == 0 || s->ndec / s->nraw >= lim;
		if (s->ndec - s->wdec >= RATIOWIN && s->nraw > s->wraw) {
			bad |= (s->ndec - s->wdec) / (s->nraw - s->wraw) >= lim;
			s->wdec = s->ndec;
			s->wraw = s->nraw;
		}
	}
	if (bad) {
		snprintf(s->errmsg, sizeof s->errmsg, "decompresses to more "
		    "than %" PRIu64 " times its size (--limit %s)", lim,
		    tl_limit_str(b, TL_LIM_RATIO));
		return -1;	/* the producer's last slot */
	}
	return n;
}

static void *
producer(void *arg)
{
	struct tl_src *s = arg;
	struct slot *sl;
	ssize_t n;

	for (;;) {
		pthread_mutex_lock(&s->mu);
		while (!s->cancel && s->wr - s->rd >= NSLOT)
			pthread_cond_wait(&s->cv, &s->mu);
		if (s->cancel) {
			pthread_mutex_unlock(&s->mu);
			return NULL;
		}
		sl = &s->ring[s->wr % NSLOT];
		pthread_mutex_unlock(&s->mu);

		n = decode(s, sl->buf, SLOT);

		pthread_mutex_lock(&s->mu);
		sl->n = n;
		s->wr++;
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
		if (n <= 0)
			return NULL;
	}
}

/*
 * A gzip regular file that ISA-L inflates, too large to inflate in one
 * call, for a reader of the whole (tl_src_readwhole) on two cores or
 * more: the producer inflates it into one buffer that grows, GROWMAX
 * bytes of address space reserved, so that the reader can scan parts of
 * it in threads of their own (tl_in_grown) as it would a mapped file.
 * tl_in_chunk gives the same bytes in windows. The producer keeps at most
 * GROWWIN bytes ahead of what the reader is done with (tl_in_drop, or a
 * window before the one asked for), and those pages are moved ahead of
 * it (mremap) to be written again, not given back and faulted in anew.
 * Where they were is no longer the buffer's (another mapping may come
 * there), so once a move fails they are given back (madvise) from there
 * on, and the buffer is unmapped from the lowest address it still has.
 * Past GROWMAX the stream goes on as chunks of pbuf.
 */
#define GROWMAX	((size_t)1 << 44)
#define GROWWIN	((size_t)8 << 20)

static void *
growprod(void *arg)
{
	struct tl_src *s = arg;
	size_t cap;
	ssize_t n;

	for (;;) {
		pthread_mutex_lock(&s->mu);
		while (!s->cancel && s->gn - s->gdrop >= GROWWIN)
			pthread_cond_wait(&s->cv, &s->mu);
		if (s->cancel) {
			pthread_mutex_unlock(&s->mu);
			return NULL;
		}
		cap = GROWMAX - s->gn < SLOT ? GROWMAX - s->gn : SLOT;
		s->gw = s->gn + cap;
		pthread_mutex_unlock(&s->mu);

		n = cap == 0 ? 0 : decode(s, s->grow + s->gn, cap);

		pthread_mutex_lock(&s->mu);
		if (n > 0)
			s->gn += (size_t)n;
		s->gw = s->gn;
		if (n <= 0) {
			s->gdone = 1;
			s->gerr = n < 0;
			s->gfull = cap == 0;
		}
		pthread_cond_broadcast(&s->cv);
		pthread_mutex_unlock(&s->mu);
		if (n <= 0)
			return NULL;
	}
}

/*
 * The growing buffer's bytes below off (at most s->gn) are done with
 * (s->mu held): its
 * SLOT-sized, SLOT-aligned units below off, each moved past the
 * producer's write. A move is of one unit, so it never spans two of the
 * mappings that earlier moves made.
 */
static void
growdrop(struct tl_src *s, size_t off)
{
	size_t at;

	for (; s->gdrop + SLOT <= off; s->gdrop += SLOT) {
		at = (s->gw + SLOT - 1) / SLOT * SLOT;
		if (s->gahead > at)
			at = s->gahead;
		if (!s->gnomove && at <= GROWMAX - SLOT &&
		    mremap(s->grow + s->gdrop, SLOT, SLOT, MREMAP_MAYMOVE |
		    MREMAP_FIXED, s->grow + at) != MAP_FAILED) {
			s->gahead = at + SLOT;
			s->gkeep = s->gdrop + SLOT;
		} else {
			s->gnomove = 1;
			madvise(s->grow + s->gdrop, SLOT, MADV_DONTNEED);
		}
	}
	pthread_cond_broadcast(&s->cv);
}

static long
ncpus(void)
{
	static long ncpu;

	if (ncpu == 0)
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	return ncpu;
}

/* Whether growstart would take the stream, asked before tl_gz_begin. */
static int
growable(struct tl_src *s)
{
	return s->readwhole && ncpus() >= 2 && tl_gz_isal(s);
}

/* Inflate the current stream into a growing buffer, if it is one for it. */
static int
growstart(struct tl_src *s)
{
#ifdef TL_ISAL
	void *m;

	if (!s->readwhole || !s->isal || ncpus() < 2)
		return 0;
	m = mmap(NULL, GROWMAX, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return 0;
	s->grow = m;
	s->gn = s->gw = s->gpos = s->gdrop = s->gahead = s->gkeep = 0;
	s->gdone = s->gerr = s->gfull = s->gnomove = 0;
	if (s->pbuf == NULL)
		s->pbuf = xmalloc(BLOCK);
	s->cancel = 0;
	if (pthread_create(&s->th, NULL, growprod, s) != 0)
		tl_errx(tl_failstatus, "cannot start a thread");
	s->threaded = 1;
	return 1;
#else
	(void)s;
	return 0;
#endif
}

/* tl_in_chunk of a growing buffer: its next window, up to SLOT bytes. */
static int
growchunk(struct tl_src *s, char **p, size_t *n)
{
	ssize_t k;

	pthread_mutex_lock(&s->mu);
	growdrop(s, s->gpos);
	while (s->gpos == s->gn && !s->gdone)
		pthread_cond_wait(&s->cv, &s->mu);
	if (s->gpos < s->gn) {
		*p = s->grow + s->gpos;
		*n = s->gn - s->gpos < SLOT ? s->gn - s->gpos : SLOT;
		s->gpos += *n;
		pthread_mutex_unlock(&s->mu);
		return 1;
	}
	pthread_mutex_unlock(&s->mu);
	k = s->gerr ? -1 : 0;
	if (s->gfull && (k = decode(s, s->pbuf, BLOCK)) > 0) {
		*p = s->pbuf;
		*n = (size_t)k;
		return 1;
	}
	s->finished = 1;
	if (k < 0) {
		tl_warnx("%s: %s", tl_in_name(s), s->errmsg);
		return -1;
	}
	return 0;
}

static void
stopthread(struct tl_src *s)
{
	if (!s->threaded)
		return;
	pthread_mutex_lock(&s->mu);
	s->cancel = 1;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->th, NULL);
	s->threaded = 0;
}

static void unmap(struct tl_src *);

/* End the current stream and release what it holds. */
static void
endstream(struct tl_src *s)
{
	stopthread(s);
	if (s->grow != NULL) {
		munmap(s->grow + s->gkeep, GROWMAX - s->gkeep);
		s->grow = NULL;
	}
	tl_gz_end(s);
	free(s->inname);
	s->inname = NULL;
	free(s->whole);
	s->whole = NULL;
	s->nwhole = 0;
	s->wp = NULL;
	s->wn = 0;
	unmap(s);
	free(s->mpeek);
	s->mpeek = NULL;
	s->nmpeek = s->mpeekpos = 0;
	s->holding = 0;
	s->again = 0;
	s->rd = s->wr = 0;
	s->finished = 0;
}

static int
isgzip(const char *p, size_t n)
{
	return n >= 2 && (unsigned char)p[0] == 0x1f &&
	    (unsigned char)p[1] == 0x8b;
}

/*
 * The size of the current stream's file when the whole of it may be held
 * in peek: a regular file (not stdin, not an archive member) of at most
 * WHOLE bytes, nothing read past peek yet; else 0.
 */
static size_t
wholesize(struct tl_src *s)
{
	struct stat st;

	if (s->rawkind != RAW_FD || s->fd < 0 || s->peekpos != 0 ||
	    fstat(s->fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > WHOLE || (size_t)st.st_size < s->npeek)
		return 0;
	return (size_t)st.st_size;
}

/*
 * Read the file on into peek, up to size bytes in all (from there on the
 * raw bytes come from peek, then from the file); 1 when it holds them.
 */
static int
peekall(struct tl_src *s, size_t size)
{
	size_t n = s->npeek;
	ssize_t k;

	if (size > n)
		s->peek = xrealloc(s->peek, size);
	while (n < size && (k = readfd(s, s->peek + n, size - n)) > 0)
		n += (size_t)k;
	s->npeek = n;
	return n == size;
}

/*
 * A gzip file that inflates (its trailer says) to at most WHOLE bytes is
 * read whole and inflated in one call by libdeflate, several times faster
 * than zlib's streaming inflate; then s->whole holds it. Past GROWMIN
 * bytes, a file that the growing buffer can take (growable) goes there
 * instead: inflated by one thread while the reader's threads scan what is
 * out, not all of it before the first byte is scanned. Anything else (a
 * pipe, an archive member, a larger or multi-member stream, a trailer that
 * lies, damaged data) goes through zlib from the first byte, which keeps
 * what inflates before an error: the bytes read here are replayed first.
 */
static void
inflatewhole(struct tl_src *s)
{
	struct libdeflate_decompressor *d;
	unsigned char tr[4];
	size_t size, isize, in, out;
	char *obuf;
	int r;

	if ((size = wholesize(s)) < 18 ||
	    pread(s->fd, tr, 4, (off_t)size - 4) != 4)
		return;
	isize = (size_t)tr[0] | (size_t)tr[1] << 8 | (size_t)tr[2] << 16 |
	    (size_t)tr[3] << 24;
	if (isize == 0 || isize > WHOLE || (isize > GROWMIN && growable(s)) ||
	    !peekall(s, size))
		return;
	if ((d = libdeflate_alloc_decompressor()) == NULL)
		tl_errx(tl_failstatus, "out of memory");
	obuf = xmalloc(isize);
	r = libdeflate_gzip_decompress_ex(d, s->peek, size, obuf, isize, &in,
	    &out);
	libdeflate_free_decompressor(d);
	if (r != LIBDEFLATE_SUCCESS || in != size || out == 0) {
		free(obuf);
		return;
	}
	s->whole = obuf;
	s->nwhole = out;
	s->peekpos = size;
	s->wp = obuf;
	s->wn = out;
}

/*
 * A mapped file that shrinks under the reader makes its pages past the
 * new end fault: SIGBUS. It is a file changed while read, reported as
 * such (the name of the one mapped; one at a time is mapped).
 */
static const char *volatile mapname;

static void
onbus(int sig)
{
	static const char m[] = ": the file shrank while it was read\n";
	const char *p = tl_progname, *q = mapname;

	(void)sig;
	if (write(2, p, strlen(p)) < 0 || write(2, ": ", 2) < 0 ||
	    (q != NULL && write(2, q, strlen(q)) < 0) ||
	    write(2, m, sizeof m - 1) < 0)
		_exit(tl_failstatus);
	_exit(tl_failstatus);
}

/*
 * After tl_src_readwhole, a plain regular file of MAPMIN bytes or more
 * is mapped (mmap), not read: its bytes are the page cache's, never
 * copied. tl_in_whole gives it all; tl_in_chunk gives it in windows of
 * MAPWIN bytes, each given back to the page cache (madvise) when the
 * next is asked for, and tl_in_drop gives back what a reader of the
 * whole is done with, so what the process holds of it stays bounded.
 * A file that grows meanwhile goes on after it, from read(2). 1 when
 * mapped.
 */
static int
mapwhole(struct tl_src *s)
{
	struct sigaction sa;
	struct stat st;
	void *m;

	if (s->rawkind != RAW_FD || s->fd < 0 || s->peekpos != 0 ||
	    fstat(s->fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < MAPMIN || (uint64_t)st.st_size > SIZE_MAX / 2 ||
	    (size_t)st.st_size < s->npeek)
		return 0;
	/* Private and writable: tl_in_chunk's chunks are writable. */
	m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE, s->fd, 0);
	if (m == MAP_FAILED)
		return 0;
	if (lseek(s->fd, st.st_size, SEEK_SET) < 0) {
		munmap(m, (size_t)st.st_size);
		return 0;
	}
	mapname = s->name;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = onbus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	s->map = m;
	s->nmap = (size_t)st.st_size;
	s->mpos = s->mdrop = 0;
	s->peekpos = s->npeek;	/* the peeked bytes are the map's first */
	s->wp = s->map;
	s->wn = s->nmap;
	return 1;
}

/* Give the pages of the mapped file below off back to the page cache. */
static void
mapdrop(struct tl_src *s, size_t off)
{
	static size_t pg;
	size_t to;

	if (pg == 0)
		pg = (size_t)sysconf(_SC_PAGESIZE);
	if (off > s->nmap)
		off = s->nmap;
	to = off / pg * pg;
	if (to <= s->mdrop)
		return;
	madvise(s->map + s->mdrop, to - s->mdrop, MADV_DONTNEED);
	s->mdrop = to;
}

static void
unmap(struct tl_src *s)
{
	if (s->map == NULL)
		return;
	munmap(s->map, s->nmap);
	s->map = NULL;
	s->nmap = s->mpos = s->mdrop = 0;
	mapname = NULL;
}

/*
 * After tl_src_readwhole, a plain file of at most WHOLE bytes is read
 * whole into peek, which then is its first chunk; a file that grows
 * meanwhile goes on after it, from read(2), as any other.
 */
static void
readwhole(struct tl_src *s)
{
	size_t size;

	if (!s->readwhole)
		return;
	if (mapwhole(s))
		return;
	if ((size = wholesize(s)) == 0 || !peekall(s, size))
		return;
	s->wp = s->peek;
	s->wn = size;
}

/* Start decoding the current stream, whose first raw bytes are p[0..n). */
static void
beginstream(struct tl_src *s, const char *p, size_t n)
{
	int i;

	if (!s->asis && isgzip(p, n)) {
		inflatewhole(s);
		if (s->whole != NULL)
			return;
		tl_gz_begin(s);
		if (growstart(s))
			return;
	}
	s->errmsg[0] = '\0';
	if (s->gz || s->kind == K_ARCHIVE) {
		if (s->ring[0].buf == NULL)
			for (i = 0; i < NSLOT; i++)
				s->ring[i].buf = xmalloc(SLOT);
		s->cancel = 0;
		if (pthread_create(&s->th, NULL, producer, s) != 0)
			tl_errx(tl_failstatus, "cannot start a thread");
		s->threaded = 1;
	} else {
		if (s->kind == K_PLAIN)
			readwhole(s);
		if (s->pbuf == NULL)
			s->pbuf = xmalloc(BLOCK);
	}
}

/* A tar header, or an empty tar: its end, a block of zeros, first. */
static int
istar(const char *p, size_t n)
{
	size_t i;

	if (n >= 262 && memcmp(p + 257, "ustar", 5) == 0)
		return 1;
	for (i = 0; i < n && i < 512 && p[i] == '\0'; i++)
		;
	return i == 512;
}

/* The first 512 bytes that a gzip stream inflates to are a tar header. */
static int
isgztar(const char *p, size_t n)
{
	z_stream z;
	unsigned char out[512];
	int r;

	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)p;
	z.avail_in = (unsigned)n;
	z.next_out = out;
	z.avail_out = sizeof out;
	r = inflate(&z, Z_NO_FLUSH);
	n = sizeof out - z.avail_out;
	inflateEnd(&z);
	return (r == Z_OK || r == Z_STREAM_END) && istar((char *)out, n);
}

static int
isarchive(const char *p, size_t n)
{
	static const struct {
		const char *m;
		size_t n;
	} magic[] = {
		{ "PK\3\4", 4 }, { "PK\5\6", 4 },		/* zip */
		{ "\xfd" "7zXZ", 5 },				/* xz */
		{ "\x28\xb5\x2f\xfd", 4 },			/* zstd */
		{ "BZh", 3 },					/* bzip2 */
		{ "\x04\x22\x4d\x18", 4 },			/* lz4 */
		{ "7z\xbc\xaf\x27\x1c", 6 },			/* 7z */
		{ "\x1f\x9d", 2 },				/* compress */
		{ "\x5d\x00\x00", 3 },				/* lzma */
	};
	size_t i;

	for (i = 0; i < sizeof magic / sizeof magic[0]; i++)
		if (n >= magic[i].n && memcmp(p, magic[i].m, magic[i].n) == 0)
			return 1;
	return istar(p, n);
}

static void
laload(void)
{
	void *h;
	const char *e;

	if ((h = dlopen(LIBARCHIVE, RTLD_NOW | RTLD_LOCAL)) == NULL) {
		e = dlerror();
		snprintf(laerr, sizeof laerr, "%s", e ? e : LIBARCHIVE);
		return;
	}
#define LA_LOAD(ret, name, args) \
	if ((*(void **)&la.name = dlsym(h, #name)) == NULL) { \
		snprintf(laerr, sizeof laerr, "%s: no %s", LIBARCHIVE, #name); \
		return; \
	}
	LA_FUNCS(LA_LOAD)
#undef LA_LOAD
}

static la_ssize_t
arread(struct archive *a, void *arg, const void **buf)
{
	struct tl_src *s = arg;
	ssize_t n;

	n = rawfd(s, s->arbuf, BLOCK);
	if (n < 0) {
		la.archive_set_error(a, s->rawerr, "%s", strerror(s->rawerr));
		return -1;
	}
	*buf = s->arbuf;
	return n;
}

struct tl_src *
tl_src_open(const char *path)
{
	struct tl_src *s;
	ssize_t n;

	s = xcalloc(1, sizeof *s);
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	if (path == NULL || strcmp(path, "-") == 0) {
		s->name = xstrdup("<stdin>");
		s->fd = 0;
	} else {
		s->path = xstrdup(path);
		s->name = xstrdup(path);
		s->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0) {
			tl_warn("%s", path);
			goto fail;
		}
#ifdef POSIX_FADV_SEQUENTIAL
		posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	}
	fdstart(s);
	s->peek = xmalloc(PEEK);
	while (s->npeek < PEEK) {
		n = readfd(s, s->peek + s->npeek, PEEK - s->npeek);
		if (n < 0) {
			errno = s->rawerr;
			tl_warn("%s", s->name);
			goto fail;
		}
		if (n == 0)
			break;
		s->npeek += (size_t)n;
	}
	if (isarchive(s->peek, s->npeek) ||
	    (isgzip(s->peek, s->npeek) && isgztar(s->peek, s->npeek)))
		s->kind = K_ARCHIVE;
	else if (isgzip(s->peek, s->npeek))
		s->kind = K_GZIP;
	else
		s->kind = K_PLAIN;
	if (s->kind == K_ARCHIVE) {
		pthread_once(&laonce, laload);
		if (laerr[0] != '\0') {
			tl_warnx("%s: reading it needs libarchive: %s",
			    s->name, laerr);
			goto fail;
		}
		s->arbuf = xmalloc(BLOCK);
		s->ar = la.archive_read_new();
		if (s->ar == NULL)
			tl_errx(tl_failstatus, "out of memory");
		la.archive_read_support_filter_all(s->ar);
		/*
		 * Only real containers and "raw" (a bare compressed stream):
		 * format_all would let mtree claim a small compressed JSON
		 * file as a text archive.
		 */
		la.archive_read_support_format_tar(s->ar);
		la.archive_read_support_format_zip(s->ar);
		la.archive_read_support_format_7zip(s->ar);
		la.archive_read_support_format_cpio(s->ar);
		la.archive_read_support_format_raw(s->ar);
		if (la.archive_read_open(s->ar, s, NULL, arread, NULL) !=
		    ARCHIVE_OK) {
			tl_warnx("%s: %s", s->name,
			    la.archive_error_string(s->ar));
			goto fail;
		}
	}
	return s;
fail:
	tl_src_close(s);
	return NULL;
}

struct tl_src *
tl_src_mem(const char *name, const void *p, size_t n)
{
	struct tl_src *s;

	s = xcalloc(1, sizeof *s);
	s->name = xstrdup(name);
	s->fd = -1;
	s->peek = xmalloc(n > 0 ? n : 1);
	if (n > 0)
		memcpy(s->peek, p, n);
	s->npeek = n;
	s->kind = K_PLAIN;
	s->asis = 1;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	return s;
}

void
tl_src_readwhole(struct tl_src *s)
{
	s->readwhole = 1;
}

int
tl_src_container(const struct tl_src *s)
{
	return s->kind == K_ARCHIVE && !s->arraw;
}

const char *
tl_src_name(const struct tl_src *s)
{
	return s->name;
}

const char *
tl_in_name(const struct tl_src *s)
{
	return s->inname != NULL ? s->inname : s->name;
}

/* Next regular member of the archive: 1, 0 at the end, -1 on error. */
static int
nextmember(struct tl_src *s)
{
	struct archive_entry *e;
	const char *mname;
	la_ssize_t n;
	size_t len;
	int r;

	for (;;) {
		r = la.archive_read_next_header(s->ar, &e);
		if (r == ARCHIVE_EOF)
			return 0;
		if (r == ARCHIVE_WARN)
			tl_warnx("%s: %s", s->name,
			    la.archive_error_string(s->ar));
		else if (r != ARCHIVE_OK) {
			tl_warnx("%s: %s", s->name,
			    la.archive_error_string(s->ar));
			return -1;
		}
		s->arraw = la.archive_format(s->ar) == ARCHIVE_FORMAT_RAW;
		if (!s->arraw && la.archive_entry_filetype(e) != AE_IFREG)
			continue;
		mname = la.archive_entry_pathname(e);
		if (s->arraw || mname == NULL)
			s->inname = xstrdup(s->name);
		else {
			len = strlen(s->name) + strlen(mname) + 3;
			s->inname = xmalloc(len);
			snprintf(s->inname, len, "%s(%s)", s->name, mname);
		}
		s->rawkind = RAW_MEMBER;
		s->mpeek = xmalloc(PEEK);
		s->nmpeek = s->mpeekpos = 0;
		while (s->nmpeek < PEEK) {
			n = la.archive_read_data(s->ar, s->mpeek + s->nmpeek,
			    PEEK - s->nmpeek);
			if (n < 0) {
				tl_warnx("%s: %s", s->inname,
				    la.archive_error_string(s->ar));
				return -1;
			}
			if (n == 0)
				break;
			s->nmpeek += (size_t)n;
		}
		beginstream(s, s->mpeek, s->nmpeek);
		return 1;
	}
}

int
tl_src_next(struct tl_src *s)
{
	int r;

	if (s->ended)
		return 0;
	if (s->started)
		endstream(s);
	if (s->kind == K_ARCHIVE) {
		s->started = 1;
		if ((r = nextmember(s)) != 1)
			s->ended = 1;
		return r;
	}
	if (s->started) {
		s->ended = 1;
		return 0;
	}
	s->started = 1;
	s->rawkind = RAW_FD;
	beginstream(s, s->peek, s->npeek);
	return 1;
}

int
tl_in_more(struct tl_src *s, char **p, size_t *n, size_t *pos, int *eof)
{
	int r;

	while (*pos == *n) {
		if (*eof)
			return 0;
		if ((r = tl_in_chunk(s, p, n)) < 0)
			tl_exit(tl_failstatus);	/* reported */
		*pos = 0;
		if (r == 0) {
			*eof = 1;
			*n = 0;
			return 0;
		}
	}
	return 1;
}

int
tl_in_whole(const struct tl_src *s, const char **p, size_t *n)
{
	if (s->wp == NULL)
		return 0;
	*p = s->wp;
	*n = s->wn;
	return 1;
}

int
tl_in_ismapped(const struct tl_src *s)
{
	return s->map != NULL && s->wp == s->map;
}

/* Bytes of the mapped file read up to off, for progress. */
static void
mapprogress(struct tl_src *s, size_t off)
{
	if (off > s->nraw) {
		s->nraw = off;
		progress(s);
	}
}

int
tl_in_grown(struct tl_src *s, const char **p, size_t *n, uint64_t want)
{
	int r;

	if (s->grow == NULL || s->finished)
		return 0;
	pthread_mutex_lock(&s->mu);
	while (s->gn < want && !s->gdone && s->gn - s->gdrop < GROWWIN)
		pthread_cond_wait(&s->cv, &s->mu);
	*p = s->grow;
	*n = s->gn;
	r = s->gdone && !s->gfull ? 2 : 1;
	pthread_mutex_unlock(&s->mu);
	return r;
}

void
tl_in_taken(struct tl_src *s, size_t n)
{
	if (s->map != NULL)
		s->mpos = n;
	else if (s->grow != NULL) {
		pthread_mutex_lock(&s->mu);
		s->gpos = n;
		pthread_mutex_unlock(&s->mu);
	}
}

void
tl_in_drop(struct tl_src *s, uint64_t off)
{
	if (s->grow != NULL) {
		pthread_mutex_lock(&s->mu);
		growdrop(s, off > s->gn ? s->gn : (size_t)off);
		pthread_mutex_unlock(&s->mu);
		return;
	}
	if (s->map == NULL)
		return;
	mapdrop(s, off > s->nmap ? s->nmap : (size_t)off);
	mapprogress(s, off > s->nmap ? s->nmap : (size_t)off);
}

int
tl_in_chunk(struct tl_src *s, char **p, size_t *n)
{
	struct slot *sl;
	ssize_t k;

	if (!s->started || s->ended)
		return 0;
	if (s->again) {
		s->again = 0;
		*p = s->againp;
		*n = s->againn;
		return 1;
	}
	if (s->grow != NULL)
		return s->finished ? 0 : growchunk(s, p, n);
	if (!s->threaded) {
		if (s->finished)
			return 0;
		if (s->whole != NULL) {
			*p = s->whole;
			*n = s->nwhole;
			s->finished = 1;
			return 1;
		}
		if (s->map != NULL && s->mpos < s->nmap) {
			mapdrop(s, s->mpos);
			*p = s->map + s->mpos;
			*n = s->nmap - s->mpos < MAPWIN ? s->nmap - s->mpos :
			    MAPWIN;
			s->mpos += *n;
			mapprogress(s, s->mpos);
			return 1;
		}
		if (s->map != NULL)
			mapprogress(s, s->nmap);
		if (s->peekpos < s->npeek) {
			*p = s->peek + s->peekpos;
			*n = s->npeek - s->peekpos;
			s->peekpos = s->npeek;
			return 1;
		}
		k = tl_src_rawin(s, s->pbuf, BLOCK);
		if (k <= 0) {
			s->finished = 1;
			if (k < 0) {
				tl_warnx("%s: %s", tl_in_name(s), s->errmsg);
				return -1;
			}
			return 0;
		}
		*p = s->pbuf;
		*n = (size_t)k;
		return 1;
	}
	pthread_mutex_lock(&s->mu);
	if (s->holding) {
		s->rd++;
		s->holding = 0;
		pthread_cond_broadcast(&s->cv);
	}
	if (s->finished) {
		pthread_mutex_unlock(&s->mu);
		return 0;
	}
	while (s->wr == s->rd)
		pthread_cond_wait(&s->cv, &s->mu);
	sl = &s->ring[s->rd % NSLOT];
	k = sl->n;
	if (k <= 0)
		s->finished = 1;
	else
		s->holding = 1;
	pthread_mutex_unlock(&s->mu);
	if (k < 0) {
		tl_warnx("%s: %s", tl_in_name(s), s->errmsg);
		return -1;
	}
	if (k == 0)
		return 0;
	*p = sl->buf;
	*n = (size_t)k;
	return 1;
}

int
tl_in_peek(struct tl_src *s, const char **p, size_t *n)
{
	int r;

	if (s->again) {
		*p = s->againp;
		*n = s->againn;
		return 1;
	}
	if ((r = tl_in_chunk(s, &s->againp, &s->againn)) == 1) {
		s->again = 1;
		*p = s->againp;
		*n = s->againn;
	}
	return r;
}

void
tl_src_close(struct tl_src *s)
{
	int i;

	if (s == NULL)
		return;
	endstream(s);
	if (s->size != 0 && s->lastpct >= 0) {	/* closed before the end */
		fputs("\r\033[K", stderr);
		tl_progressline = 0;
	}
	if (s->ar != NULL)
		la.archive_read_free(s->ar);
	if (s->fd > 0)
		close(s->fd);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	for (i = 0; i < NSLOT; i++)
		free(s->ring[i].buf);
	tl_gz_free(s);
	free(s->pbuf);
	free(s->peek);
	free(s->arbuf);
	free(s->path);
	free(s->name);
	free(s);
}
