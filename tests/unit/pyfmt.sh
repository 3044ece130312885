# Unit tests of the Python writers.
exec ${TL_VALGRIND:-} "$UNIT/t-pyfmt"
