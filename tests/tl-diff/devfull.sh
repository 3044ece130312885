# A write error is trouble: status 2, on standard output. A file of -o
# dir is written under another name and renamed when whole: a link where
# it goes is replaced, not written through.
a=$TESTDATA/diff-conv-a.tsv
tl-diff "$a" "$a" >/dev/full
echo "exit $?"
tl-diff -p "$a" "$a" >/dev/full
echo "exit $?"
mkdir d && ln -s /dev/full d/lca.tsv
tl-diff -o d "$a" "$a"
echo "exit $?"
[ -f d/lca.tsv ] && ! [ -L d/lca.tsv ] && echo "d/lca.tsv replaced"
ls -A d | tr '\n' ' '
echo

