# Bad arguments to the extension models (tests/data/roof-ext-bad.tsv, in
# the format of the perf-model vectors; its source_test column says what
# each row is): a shape whose product passes 2^63, a dtype without a
# size, too few inputs, a top-k that is not a number, no "MoE topk" in
# args, attention without an annotation or with one without statistics:
# no row, counted by reason; then the rows where -t differs: hipBLASLt's
# transpose flag "128" (true with -t, so N = B[0]; not without, so B's
# one dim does not fit) and an fp32 MoE (TraceLens's MoE dtype table
# has no "float": the default sizes).
awk -f "$TESTDATA/../tl-roofline/vectors-tree.awk" \
    "$TESTDATA/roof-ext-bad.tsv" >tree.tsv || exit 1
for t in "" -t; do
	echo "# $t"
	tl-roofline $t -a none tree.tsv >out
	echo "exit $?"
	awk -F'\t' -v OFS='\t' '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["name"], $c["params"], $c["flop"], $c["bytes"] }' out
done
# -p passes every row, those of ops that turn out to have no row too.
echo "# -p: $(tl-roofline -p -t -a none tree.tsv | wc -l) rows of $(wc -l <tree.tsv)"
