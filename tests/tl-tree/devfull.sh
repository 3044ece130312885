# A write error on standard output (a full disk) is an error: status 1.
tl-parse "$TESTDATA/tree-ties.json" | tl-tree >/dev/full 2>err
echo "exit $?"
grep -v 'left out' err
tl-parse "$TESTDATA/tree-ties.json" | tl-tree -p >/dev/full 2>err
echo "exit $?"
grep -v 'left out' err
