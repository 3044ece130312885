# Unit tests of the key sorts and of tl_key_find.
exec ${TL_VALGRIND:-} "$UNIT/t-sort"
