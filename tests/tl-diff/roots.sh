# The variant has one more root, first. TraceLens pairs roots by position,
# so every pair after it is wrong (combined: a | b); by default the roots
# are aligned by edit distance and only aten::copy_ is on one side.
a=$TESTDATA/diff-roots-a.tsv
b=$TESTDATA/diff-roots-b.tsv
tl-diff -T -o out "$a" "$b"
echo "exit $?"
cat out/merged_tree_output.txt
cut -d, -f1,4,11,12 out/diff_stats.csv
echo "== default"
tl-diff -p "$a" "$b"
tl-diff "$a" "$b"
echo "exit $?"
tl-diff -t ops "$a" "$b"
echo "exit $?"
