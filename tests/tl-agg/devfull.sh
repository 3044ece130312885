# A write error is an error: status 1, on standard output and for an
# output directory.
ln -s "$TESTDATA/agg-small.json" . || exit 1
tl-parse agg-small.json | tl-tree 2>/dev/null >tree.tsv ||
    exit 1
tl-agg ops tree.tsv >/dev/full 2>err
echo "exit $?"
grep -v 'not linked' err
# An output directory that cannot be made.
touch f
tl-agg -d f/x tree.tsv
echo "exit $?"
tl-agg -C f/x tree.tsv
echo "exit $?"
