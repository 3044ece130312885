# Ops renamed on the variant, with the same children: aten::gelu inside
# my::block, and the root aten::mul (its kernel 2 ns longer). By default
# each pair is one renamed node and the kernels under it are compared one
# to one. TraceLens pairs roots by position, so the root pair is a
# "combined:" node; inside my::block, it replaces both ops by their
# children and aten::gelu leaves the merged tree.
a=$TESTDATA/diff-rename-a.tsv
b=$TESTDATA/diff-rename-b.tsv
tl-diff -p "$a" "$b"
tl-diff -t tree "$a" "$b"
echo "exit $?"
tl-diff "$a" "$b"
tl-diff -T -o out "$a" "$b"
echo "exit $?"
cat out/merged_tree_output.txt
cat out/diff_stats.csv
