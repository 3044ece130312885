/*
 * tl: the input layer's streaming gzip inflaters (src.h): zlib's, and
 * ISA-L's for a regular file when tl is built with it, handing over to
 * zlib at any error so that what a damaged file gives is zlib's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "mem.h"
#include "src.h"

/* zlib's inflater for the current stream, made. */
static void
zbegin(struct tl_src *s)
{
	memset(&s->z, 0, sizeof s->z);
	if (inflateInit2(&s->z, 15 + 16) != Z_OK)
		tl_errx(tl_failstatus, "out of memory");
	s->zinit = 1;
}

/* Inflate the current gzip stream (one or more members) into out. */
static ssize_t
zfill1(struct tl_src *s, char *out, size_t cap)
{
	ssize_t n;
	int r;

	if (s->zerr)
		return -1;
	s->zpart = 0;
	s->z.next_out = (unsigned char *)out;
	s->z.avail_out = (unsigned)cap;
	while (s->z.avail_out > 0) {
		if (s->z.avail_in == 0) {
			if (s->zeof)
				break;
			if ((n = tl_src_rawin(s, s->zin, BLOCK)) < 0)
				goto err;
			if (n == 0) {
				s->zeof = 1;
				if (!s->zend) {
					snprintf(s->errmsg, sizeof s->errmsg,
					    "unexpected end of compressed data"
					    " (truncated file?)");
					goto err;
				}
				break;
			}
			s->z.next_in = (unsigned char *)s->zin;
			s->z.avail_in = (unsigned)n;
		}
		if (s->zend && s->z.next_in[0] == 0) {
			/* Zero padding after the last member is ignored. */
			while (s->z.avail_in > 0 && *s->z.next_in == 0)
				s->z.next_in++, s->z.avail_in--;
			if (s->z.avail_in == 0)
				continue;
		}
		if (s->zend) {
			/* Another gzip member follows, as gzip -dc allows. */
			if (s->z.next_in[0] != 0x1f) {
				snprintf(s->errmsg, sizeof s->errmsg,
				    "trailing garbage after compressed data");
				goto err;
			}
			inflateReset(&s->z);
			s->zend = 0;
		}
		r = inflate(&s->z, Z_NO_FLUSH);
		if (r == Z_STREAM_END)
			s->zend = 1;
		else if (r != Z_OK && r != Z_BUF_ERROR) {
			snprintf(s->errmsg, sizeof s->errmsg,
			    "invalid compressed data: %s",
			    s->z.msg != NULL ? s->z.msg : "error");
			goto err;
		}
	}
	return (ssize_t)(cap - s->z.avail_out);
err:
	s->zpart = cap - s->z.avail_out;
	return -1;
}

#ifdef TL_ISAL
/*
 * A gzip file (one or more members) inflated by ISA-L, several times
 * faster than zlib. Its output is zlib's up to an error, and the error
 * must be zlib's (its words, and the bytes given before it): at any
 * error of ISA-L, or a cut file, the stream is inflated again by zlib
 * from the file's start, the bytes ISA-L gave skipped, and zlib goes on
 * from there (zfallback). So it is taken only for a regular file read
 * from its start.
 */
static int
isalok(struct tl_src *s)
{
	struct stat st;
	const char *e = getenv("TL_INFLATE");

	if (e != NULL && strcmp(e, "zlib") == 0)
		return 0;
	return s->rawkind == RAW_FD && s->fd >= 0 && s->peekpos == 0 &&
	    fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode);
}

static ssize_t
zfallback(struct tl_src *s, char *out, size_t cap)
{
	uint64_t skip = s->isout;
	size_t k = 0;
	ssize_t n;

	s->isal = 0;
	if (lseek(s->fd, (off_t)s->npeek, SEEK_SET) < 0) {
		snprintf(s->errmsg, sizeof s->errmsg, "%s", strerror(errno));
		s->zpart = 0;
		return -1;
	}
	s->peekpos = 0;
	s->nraw = s->npeek;
	s->zend = s->zeof = 0;
	zbegin(s);
	/* The bytes given already: zlib's first, read past. */
	while (skip > 0) {
		if ((n = zfill1(s, out, cap)) <= 0) {
			s->zpart = 0;
			return n;
		}
		if ((uint64_t)n > skip) {
			k = (size_t)n - (size_t)skip;
			memmove(out, out + skip, k);
			break;
		}
		skip -= (uint64_t)n;
	}
	if (k == cap)
		return (ssize_t)k;
	if ((n = zfill1(s, out + k, cap - k)) < 0) {
		s->zpart += k;
		return -1;
	}
	return (ssize_t)k + n;
}

static ssize_t
ifill1(struct tl_src *s, char *out, size_t cap)
{
	struct inflate_state *is = s->is;
	ssize_t n;
	int r;

	if (s->zerr)
		return -1;
	s->zpart = 0;
	is->next_out = (uint8_t *)out;
	is->avail_out = (uint32_t)cap;
	while (is->avail_out > 0) {
		if (is->avail_in == 0) {
			if (s->zeof)
				break;
			if ((n = tl_src_rawin(s, s->zin, BLOCK)) < 0) {
				s->zpart = cap - is->avail_out;
				return -1;
			}
			if (n == 0) {
				s->zeof = 1;
				if (!s->zend)	/* cut: zlib's bytes and words */
					return zfallback(s, out, cap);
				break;
			}
			is->next_in = (uint8_t *)s->zin;
			is->avail_in = (uint32_t)n;
		}
		if (s->zend && is->next_in[0] == 0) {
			while (is->avail_in > 0 && *is->next_in == 0)
				is->next_in++, is->avail_in--;
			if (is->avail_in == 0)
				continue;
		}
		if (s->zend) {
			uint8_t *in = is->next_in;
			uint32_t nin = is->avail_in;

			if (in[0] != 0x1f) {
				snprintf(s->errmsg, sizeof s->errmsg,
				    "trailing garbage after compressed data");
				s->zpart = cap - is->avail_out;
				return -1;
			}
			isal_inflate_reset(is);
			is->crc_flag = ISAL_GZIP;
			is->next_in = in;
			is->avail_in = nin;
			s->zend = 0;
		}
		{
			uint32_t in0 = is->avail_in, out0 = is->avail_out;

			r = isal_inflate(is);
			/* An error, or a step that made no progress: zlib's. */
			if (r < 0 || (r != ISAL_DECOMP_OK && r != ISAL_END_INPUT &&
			    r != ISAL_OUT_OVERFLOW) || (is->avail_in == in0 &&
			    is->avail_out == out0 &&
			    is->block_state != ISAL_BLOCK_FINISH))
				return zfallback(s, out, cap);
		}
		if (is->block_state == ISAL_BLOCK_FINISH)
			s->zend = 1;
	}
	s->isout += cap - is->avail_out;
	return (ssize_t)(cap - is->avail_out);
}
#endif

/*
 * As zfill1, but the bytes inflated before an error are delivered first
 * and the error on the next call, so nothing decodable is lost.
 */
ssize_t
tl_gz_fill(struct tl_src *s, char *out, size_t cap)
{
	ssize_t n;

#ifdef TL_ISAL
	if (s->isal)
		n = ifill1(s, out, cap);
	else
#endif
		n = zfill1(s, out, cap);
	if (n < 0 && !s->zerr) {
		s->zerr = 1;
		n = (ssize_t)s->zpart;
		if (n == 0)
			return -1;
	}
	return n;
}

int
tl_gz_isal(struct tl_src *s)
{
#ifdef TL_ISAL
	return isalok(s);
#else
	(void)s;
	return 0;
#endif
}

/* Start inflating the current stream, a gzip one. */
void
tl_gz_begin(struct tl_src *s)
{
	s->gz = 1;
	if (s->zin == NULL)
		s->zin = xmalloc(BLOCK);
#ifdef TL_ISAL
	if (isalok(s)) {
		if (s->is == NULL)
			s->is = xmalloc(sizeof *s->is);
		isal_inflate_init(s->is);
		s->is->crc_flag = ISAL_GZIP;
		s->isal = 1;
		s->isout = 0;
		return;
	}
#endif
	zbegin(s);
}

/* End the current stream's inflating, if any. */
void
tl_gz_end(struct tl_src *s)
{
	if (s->zinit) {
		inflateEnd(&s->z);
		s->zinit = 0;
	}
	s->gz = s->zend = s->zeof = s->zerr = 0;
#ifdef TL_ISAL
	s->isal = 0;
#endif
}

/* Release the inflaters' buffers, with the source. */
void
tl_gz_free(struct tl_src *s)
{
	free(s->zin);
#ifdef TL_ISAL
	free(s->is);
#endif
}
