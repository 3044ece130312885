# Every table of the default mode, and -o, which writes them all.
a=$TESTDATA/diff-conv-a.tsv
b=$TESTDATA/diff-conv-b.tsv
for t in lca ops args rows names uids tree; do
	echo "== $t"
	tl-diff -t $t "$a" "$b"
	echo "exit $?"
done
tl-diff -o dir "$a" "$b"
echo "exit $?"
ls dir
tl-diff -t lca "$a" "$b" | cmp - dir/lca.tsv && echo "lca.tsv: the same"
tl-diff -p "$a" "$b" | cmp - dir/tree.txt && echo "tree.txt: the same"
# Standard input for one of the two.
tl-diff - "$b" <"$a" | cmp - dir/lca.tsv && echo "stdin: the same"
