# Fidelity: on every trace in $TRACES with a TraceLens reference (.ref/),
# tl-roofline -t -c writes the same perf-model sheets as TraceLens, and
# each sheet is the same cell by cell, numbers within 1e-6 relative
# (tests/lib/csvcmp.awk); "identical" when the file is the same byte for
# byte.
[ -d "$TRACES" ] || exit 77
cmp=$TESTDATA/../lib/csvcmp.awk
sheets="GEMM SDPA_fwd SDPA_bwd CONV_fwd CONV_bwd UnaryElementwise
BinaryElementwise Normalization Reduce_fwd Reduce_bwd SSM_fwd SSM_bwd
RoPE_fwd RoPE_bwd CrossEntropy_fwd CrossEntropy_bwd"
st=0
for ref in "$TRACES"/*/*.ref; do
	t=${ref%.ref}.json.gz
	[ -f "$t" ] || continue
	name=${ref#"$TRACES"/}
	name=${name%.ref}
	has=0
	for s in $sheets; do
		[ -f "$ref/$s.csv" ] && has=1
	done
	[ $has -eq 1 ] || continue
	rm -rf out
	tl-parse "$t" | tl-tree 2>/dev/null | tl-roofline -t -c out 2>/dev/null ||
	    { echo "$name: tl-roofline failed"; st=1; continue; }
	for s in $sheets; do
		if [ -f "$ref/$s.csv" ] && [ -f "out/$s.csv" ]; then
			awk -v name="$name $s" -v tol=1e-6 -v report=cells \
			    -f "$cmp" "$ref/$s.csv" "out/$s.csv" || st=1
			cmp -s "$ref/$s.csv" "out/$s.csv" && echo "  identical"
		elif [ -f "$ref/$s.csv" ]; then
			echo "$name $s: not written"
			st=1
		elif [ -f "out/$s.csv" ]; then
			echo "$name $s: written, not in the reference"
			st=1
		fi
	done
done
echo "exit $st"
