# A tree against itself: the same (0), quietly with -q; a kernel 5 ns
# longer: different (1), unless -e allows 5 ns. A renamed op makes the
# trees differ even where every kernel time is the same.
a=$TESTDATA/diff-conv-a.tsv
tl-diff -q "$a" "$a"
echo "exit $?"
tl-diff "$a" "$a"
echo "exit $?"
awk -F'\t' -v OFS='\t' '$3 == "relu_kernel" { $5 += 5 } { print }' "$a" >b.tsv
tl-diff -q "$a" b.tsv
echo "exit $?"
tl-diff -q -e 5 "$a" b.tsv
echo "exit $?"
tl-diff -q -e 4 "$a" b.tsv
echo "exit $?"
sed 's/aten::relu/aten::relu_/' "$a" >c.tsv
tl-diff -q -e 1000 "$a" c.tsv
echo "exit $?"
# With -T: TraceLens's notion (the trace1 rows equal the trace2 rows).
tl-diff -T -o out "$a" "$a"
echo "exit $?"
head -2 out/diff_stats.csv
cat out/cpu_op_map.json; echo
tl-diff -T -o out2 "$a" b.tsv
echo "exit $?"
