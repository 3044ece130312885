# A write error is trouble: status 2, on standard output and in -o dir.
a=$TESTDATA/diff-conv-a.tsv
tl-diff "$a" "$a" >/dev/full
echo "exit $?"
tl-diff -p "$a" "$a" >/dev/full
echo "exit $?"
mkdir d && ln -s /dev/full d/lca.tsv
tl-diff -o d "$a" "$a"
echo "exit $?"
