# Several traces in one stream (tl-parse -t, or several files): each gets
# its own tables, named in a leading "trace" column. -C takes one trace:
# the second is an error.
ln -s "$TESTDATA/agg-small.json" "$TESTDATA/tree-gpu.json" . || exit 1
tl-parse agg-small.json tree-gpu.json | tl-tree 2>/dev/null >tree.tsv ||
    exit 1
tl-agg categories tree.tsv
echo "exit $?"
tl-agg comm_exposure tree.tsv
tl-agg -C out tree.tsv
echo "exit $?"
ls out
# Two tree streams as two operands.
tl-parse agg-small.json | tl-tree 2>/dev/null >a.tsv || exit 1
tl-parse tree-gpu.json | tl-tree 2>/dev/null >b.tsv || exit 1
tl-agg categories a.tsv b.tsv
echo "exit $?"
