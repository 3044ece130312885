# A missing required column, an input that is a tree stream already, a
# table, a CSV file or a trace file instead of an event stream (the line
# names what was expected and what to run first), an empty input, a file
# that is not there: one located line each, status 1.
ln -s "$TESTDATA"/*.json . || exit 1
tl-parse tree-ties.json >ev || exit 1
cut -f1-5 ev | tl-tree
echo "exit $?"
awk -F'\t' -v OFS='\t' '{ $12 = NR == 1 ? "corr" : $12; print }' ev | tl-tree
echo "exit $?"
tl-tree <ev 2>/dev/null | tl-tree
echo "exit $?"
tl-tree <ev 2>/dev/null | tl-agg ops 2>/dev/null | tl-tree
echo "exit $?"
printf 'name,count\nK1,3\n' | tl-tree
echo "exit $?"
tl-tree tree-ties.json
echo "exit $?"
tl-tree </dev/null
echo "exit $?"
tl-tree no-such.tsv
echo "exit $?"
