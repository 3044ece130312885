# Unit tests of the input layer: plain, stdin, gzip, zip, tar, xz, bzip2.
exec ${TL_VALGRIND:-} "$UNIT/t-input"
