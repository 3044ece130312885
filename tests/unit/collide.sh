# Names made to collide in tl_hash under one seed, as an attacker with
# the source in hand would make them (t-collide make), share one hash
# under that seed and not under another: each run's seed is its own
# (TL_HASH_SEED only for tests), so a crafted trace cannot make the
# string tables probe one long cluster.
TL_HASH_SEED=1 ${TL_VALGRIND:-} "$UNIT/t-collide" make 300 >names || exit 1
TL_HASH_SEED=1 ${TL_VALGRIND:-} "$UNIT/t-collide" count <names
TL_HASH_SEED=2 ${TL_VALGRIND:-} "$UNIT/t-collide" count <names
unset TL_HASH_SEED
${TL_VALGRIND:-} "$UNIT/t-collide" count <names
