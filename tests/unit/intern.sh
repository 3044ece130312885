# Unit tests of string interning, the comparator and the hashes
# (seeded with 1).
TL_HASH_SEED=1
export TL_HASH_SEED
exec ${TL_VALGRIND:-} "$UNIT/t-intern"
