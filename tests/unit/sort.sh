# Unit tests of the key sorts.
exec ${TL_VALGRIND:-} "$UNIT/t-sort"
