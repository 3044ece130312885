# Names made to collide in tl_hash under one seed, as an attacker with
# the source in hand would make them (t-collide make), share one hash
# under that seed and not under another: each run's seed is its own
# (TL_HASH_SEED only for tests), so a crafted trace cannot make the
# string tables probe one long cluster. Where the seed is known, the
# names probe too long: the table takes a random key of its own and
# places them again (each probe stays short; under another seed the
# same names are as any others).
TL_HASH_SEED=1 ${TL_VALGRIND:-} "$UNIT/t-collide" make 1000 >names || exit 1
TL_HASH_SEED=1 ${TL_VALGRIND:-} "$UNIT/t-collide" count <names
TL_HASH_SEED=2 ${TL_VALGRIND:-} "$UNIT/t-collide" count <names
TL_HASH_SEED=1 ${TL_VALGRIND:-} "$UNIT/t-collide" intern <names
TL_HASH_SEED=2 ${TL_VALGRIND:-} "$UNIT/t-collide" intern <names
unset TL_HASH_SEED
${TL_VALGRIND:-} "$UNIT/t-collide" count <names
