# Every output of every tool, in every mode, on every Kineto trace of
# $TRACES (tests/golden/produce), byte for byte as recorded in
# tests/golden/outputs.sha256; prints the outputs that differ, are
# missing or are new. On a sanitizer build only the small traces run.
# TL_HASH_SEED=1: outputs must not depend on the hash seed (seed.sh runs
# another). It runs every tool on every trace: a minute or two.
# timeout: 900
[ -d "$TRACES" ] || exit 77
small=
[ -n "${TL_SANITIZED:-}" ] && small=small
TL_HASH_SEED=${TL_HASH_SEED:-1}
export TL_HASH_SEED
g=$TESTDATA/../golden
"$g/produce" "$TRACES" out $small >got 2>err || exit 1
[ -s err ] && { echo "produce wrote to stderr:"; head err; }
if [ -n "$small" ]; then
	awk 'NR == FNR { n[$2] = 1; next } ($2 in n)' got "$g/outputs.sha256"
else
	cat "$g/outputs.sha256"
fi >want
diff want got >d && { echo "the outputs as recorded"; exit 0; }
grep '^[<>]' d | awk '{ print $3 }' | sort -u | head -50
exit 1
