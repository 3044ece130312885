# Unit tests of the file helper: mkdir -p, a file renamed into place
# when it is whole, and nothing left of one that failed.
exec ${TL_VALGRIND:-} "$UNIT/t-file"
