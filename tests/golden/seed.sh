# Outputs do not depend on the hash seed: the small traces' outputs under
# another seed are those recorded (see outputs.sh).
[ -d "$TRACES" ] || exit 77
TL_HASH_SEED=2862933555777941757
export TL_HASH_SEED
g=$TESTDATA/../golden
"$g/produce" "$TRACES" out small >got 2>err || exit 1
[ -s err ] && { echo "produce wrote to stderr:"; head err; }
awk 'NR == FNR { n[$2] = 1; next } ($2 in n)' got "$g/outputs.sha256" >want
diff want got >d && { echo "the small traces' outputs as recorded"; exit 0; }
grep '^[<>]' d | awk '{ print $3 }' | sort -u | head -50
exit 1
