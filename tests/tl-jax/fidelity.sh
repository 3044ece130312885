# Fidelity: on the JAX profile of ../shared/traces/jax, tl-jax -T writes
# the nine CSV files of TraceLens's reference (and no other), every cell
# equal, numbers within 1e-6 relative (tests/lib/csvcmp.awk: the
# references were converted from a workbook, so their floats have 16
# digits where pandas writes 17).
[ -d "$TRACES/jax" ] || exit 77
ref=$TRACES/jax/jax_conv_minimal.ref
cmp=$TESTDATA/../lib/csvcmp.awk
tl-parse "$TRACES/jax/jax_conv_minimal.xplane.pb" | tl-jax -T -C out ||
	exit 1
status=0
for f in "$ref"/*.csv; do
	s=${f##*/}
	s=${s%.csv}
	awk -v name="$s" -f "$cmp" "$f" "out/$s.csv" || status=1
done
for f in out/*.csv; do
	[ -f "$ref/${f#out/}" ] || { echo "${f#out/}: not in the reference"; status=1; }
done
exit $status
