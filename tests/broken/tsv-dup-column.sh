# A header with the same column twice (an awk step that appended a column
# the stream had): an error on line 1 naming it, status 1 (tl-diff 2),
# for every reader.
tl-parse "$TESTDATA/broken/cut.json" >ev.tsv || exit 1
tl-tree ev.tsv >tree.tsv || exit 1
awk -F'\t' -v OFS='\t' '{ print $0, NR == 1 ? "name" : "x" }' ev.tsv >ev-dup.tsv
awk -F'\t' -v OFS='\t' '{ print $0, NR == 1 ? "depth" : "1" }' tree.tsv \
    >tree-dup.tsv
tl-tree ev-dup.tsv >/dev/null
echo "tl-tree: exit $?"
tl-agg ops tree-dup.tsv >/dev/null
echo "tl-agg: exit $?"
tl-roofline -a none tree-dup.tsv >/dev/null
echo "tl-roofline: exit $?"
tl-diff tree-dup.tsv tree.tsv >/dev/null
echo "tl-diff: exit $?"
tl-xlsx -o x.xlsx tree-dup.tsv
echo "tl-xlsx: exit $?"
[ -e x.xlsx ] || echo "no x.xlsx"
