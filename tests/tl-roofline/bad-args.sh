# Bad arguments to the core models and the numbers of concrete inputs
# (tests/data/roof-bad.tsv, in the format of the perf-model vectors; its
# source_test column says what each row is): too few inputs or dims or
# dtypes, a product of dims above 2^63 or a negative dim, shapes that do
# not broadcast, a dim out of range, a concrete input that is not a
# number (or is not finite): no row, counted by reason; a dtype without a
# size is a row without bytes, as TraceLens has it. The good GEMM's row
# is the same as when it is alone, and no field is inf or nan.
awk -f "$TESTDATA/../tl-roofline/vectors-tree.awk" \
    "$TESTDATA/roof-bad.tsv" >tree.tsv || exit 1
# the trace of the good GEMM alone
awk -F'\t' 'NR <= 2' "$TESTDATA/roof-bad.tsv" >good.tsv
awk -f "$TESTDATA/../tl-roofline/vectors-tree.awk" good.tsv >goodtree.tsv
cols='{ print $c["name"], $c["params"], $c["flop"], $c["bytes"],
    $c["flop_per_byte"], $c["kernel_time_ns"], $c["compute_spec"] }'
for t in "" -t; do
	echo "# $t"
	tl-roofline $t -a none tree.tsv >out
	echo "exit $?"
	awk -F'\t' -v OFS='\t' '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'"$cols" out
	awk -F'\t' '{ for (i = 1; i <= NF; i++)
	    if ($i ~ /^-?(inf|nan)$/) print "line " NR ": " $i }' out
	tl-roofline $t -a none goodtree.tsv | awk -F'\t' -v OFS='\t' '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'"$cols" >alone
	awk -F'\t' -v OFS='\t' '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["uid"] == 10'"$cols" out | cmp -s - alone &&
	    echo "the good GEMM as alone"
done
exit 0
