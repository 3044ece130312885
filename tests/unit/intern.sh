# Unit tests of string interning.
exec ${TL_VALGRIND:-} "$UNIT/t-intern"
