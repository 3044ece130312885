/*
 * tl: the input layer. An operand (a path, or "-" for standard input) is a
 * source; a source yields one or more byte streams: the file itself, or each
 * regular member of an archive. Compression is recognised by content, not by
 * name: gzip through zlib, everything libarchive knows (zip, tar, xz, zstd,
 * bzip2, lz4, 7z, ...) through libarchive. Compressed streams are inflated
 * by a second thread, so decompression and parsing overlap.
 */
#ifndef TL_INPUT_H
#define TL_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct tl_src;

/* Open an operand; on failure print "PROG: PATH: strerror" and return NULL. */
struct tl_src *tl_src_open(const char *path);

/*
 * A source of one plain stream: a copy of p[0..n), taken as it is (no
 * decompression), shown as name. For tests and fuzz targets; files and
 * stdin go through tl_src_open.
 */
struct tl_src *tl_src_mem(const char *name, const void *p, size_t n);

/*
 * Hold a plain regular file whole, which tl_in_whole then gives (it does
 * so for gzip files that inflate to at most 64 MiB always): one of 1 MiB
 * or more is mapped (mmap), its bytes never copied, and tl_in_chunk gives
 * it in windows of 256 KiB, each given back when the next is asked for; a
 * smaller one is read whole, in one chunk.
 */
void tl_src_readwhole(struct tl_src *);

/*
 * Advance to the next stream of the source: 1 when there is one, 0 at the
 * end, -1 on an error (already reported). The first call gives the first.
 */
int tl_src_next(struct tl_src *);

/* Nonzero when the source is an archive that may hold several streams. */
int tl_src_container(const struct tl_src *);

/* Display name of the operand ("<stdin>" for "-"). */
const char *tl_src_name(const struct tl_src *);

/* Display name of the current stream: "a.zip(dir/b.json)" for a member. */
const char *tl_in_name(const struct tl_src *);

/*
 * Next chunk of the current stream's bytes, valid (and writable) until
 * the next call:
 * 1 with *p and *n set, 0 at the end, -1 on an error (already reported as
 * "PROG: NAME: what").
 */
int tl_in_chunk(struct tl_src *, char **p, size_t *n);

/*
 * For a reader that goes through the chunks with *pos, p[*pos..*n) the
 * bytes still to read: when none are left, the next chunk that has any.
 * 1 when there is a byte at *pos; 0 at the end, and *eof set (then 0
 * again). An error, reported, exits with tl_failstatus.
 */
int tl_in_more(struct tl_src *, char **p, size_t *n, size_t *pos, int *eof);

/*
 * 1 when the current stream is held in one buffer: a gzip file inflated
 * in one call, or a plain file held whole after tl_src_readwhole (as it
 * was when opened: one that grows goes on in further chunks); then
 * p[0..n) is that buffer, which other threads may read while the stream
 * is current. It is the first chunk tl_in_chunk gives, but for a mapped
 * file, which comes in windows of it. 0 otherwise.
 */
int tl_in_whole(const struct tl_src *, const char **p, size_t *n);
/* The buffer of tl_in_whole is the file mapped (a page of it given
 * back with madvise(MADV_DONTNEED) is read again from the file): 1, 0. */
int tl_in_ismapped(const struct tl_src *);

/*
 * A large gzip file after tl_src_readwhole, inflated by ISA-L on two
 * cores or more, is inflated by a thread of its own into one buffer that
 * grows; tl_in_grown gives it, as far as it is inflated: it waits until
 * the buffer holds want bytes, or the stream has ended, or the thread
 * waits for the reader (tl_in_drop) to go on, then sets p[0..n) to what
 * it holds, which other threads may read while the stream is current. 2
 * when n is the stream's end, 1 when it may grow, 0 when the stream is
 * not read so. tl_in_chunk gives the same bytes in windows.
 */
int tl_in_grown(struct tl_src *, const char **p, size_t *n, uint64_t want);

/*
 * For a reader of the whole buffer (tl_in_whole, tl_in_grown):
 * tl_in_taken says it reads its first n bytes itself, so the next
 * tl_in_chunk gives what follows them (when the file grew, or the buffer
 * did), not the rest of its windows; tl_in_drop(off), that it is done
 * with the bytes below off and never reads them again: a mapped file
 * gives them back to the page cache, a growing buffer has them written
 * over. Both do nothing when the stream is not so held.
 */
void tl_in_taken(struct tl_src *, size_t n);
void tl_in_drop(struct tl_src *, uint64_t off);

/*
 * The first chunk of the current stream, before any tl_in_chunk, without
 * taking it: the next tl_in_chunk gives it (to tell a format by content).
 * As tl_in_chunk: 1, 0 at the end, -1 on an error (reported).
 */
int tl_in_peek(struct tl_src *, const char **p, size_t *n);

/* Close the source and its current stream. */
void tl_src_close(struct tl_src *);

#endif
