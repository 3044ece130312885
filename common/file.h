/*
 * tl: the files a tool writes into a directory (TraceLens's CSVs, the
 * sheets of a report): the directory made as mkdir -p does, and each
 * file written under a temporary name in it and renamed to its own name
 * only when all of it was written, so that a failed run leaves no file
 * cut short where a good one was.
 */
#ifndef TL_FILE_H
#define TL_FILE_H

#include <stdio.h>

#include "tsv.h"

/*
 * Make dir and its missing parents, mode 0777 less the umask, as
 * mkdir -p; a directory already there is no error. 0, or -1 with errno
 * set (the path is then in no message: the caller says it).
 */
int tl_mkdirs(const char *dir);

/* "DIR/NAME", newly allocated; NAME alone when dir is NULL or "". */
char *tl_path(const char *dir, const char *name);

/*
 * Scratch: "$TMPDIR/NAME.XXXXXX" (/tmp when TMPDIR is unset or empty),
 * newly allocated, for mkstemp or mkdtemp; and a scratch file made so
 * and unlinked at once, opened for reading and writing: NULL when it
 * cannot be made, warned with its path.
 */
char *tl_tmppath(const char *name);
/* The same in dir: "DIR/NAME.XXXXXX". */
char *tl_tmpin(const char *dir, const char *name);
FILE *tl_tmpfile(const char *name);

/*
 * A file being written: out is a tl_out (tsv.h) on DIR/.tl.PID.N.tmp
 * (a temporary name in the same directory, N counting the files the
 * program opened), path its own name.
 * tl_file_open makes the temporary file (mode 0666 less the umask) and
 * returns 0, or warns "PROG: PATH: strerror" and returns -1 (the
 * directory is not made: tl_mkdirs first). tl_file_close flushes, closes
 * and renames it to path: 0; when the close or the rename fails it warns,
 * removes the temporary file and returns -1 (a failed write exits, as on
 * any tl_out). A file still open when the program exits (a fatal error)
 * is removed then: nothing is left of a run that failed.
 */
struct tl_file {
	struct tl_out out;
	char *path;		/* DIR/NAME */
	char *tmp;		/* the temporary name */
	struct tl_file *next;	/* the files open, for the exit */
};

int tl_file_open(struct tl_file *, const char *dir, const char *name);
int tl_file_close(struct tl_file *);

#endif
