# Unit tests of the stream format: escapes, number formatting, the
# writer, the reader.
exec ${TL_VALGRIND:-} "$UNIT/t-tsv"
