# Parents that make a cycle (aten::mm under its own launch) are one
# error, the same in every tool that rebuilds the tree from the parent
# column: tl-agg no longer leaves the cycle out of its tables, exit 0.
cp "$TESTDATA/tree-gpu.json" . || exit 1
tl-parse tree-gpu.json | tl-tree 2>/dev/null >tree.tsv || exit 1
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++)
    if ($i == "parent") p = i } $1 == "0" { $p = 1 } { print }' \
    tree.tsv >cycle.tsv
tl-agg ops cycle.tsv
echo "exit $?"
tl-agg timeline cycle.tsv
echo "exit $?"
tl-diff cycle.tsv tree.tsv
echo "exit $?"
tl-agg ops tree.tsv >/dev/null 2>&1
echo "exit $?"
