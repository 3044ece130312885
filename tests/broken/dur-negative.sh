# A negative "dur": tl-parse writes it as it is (a faithful reading; -0.0
# gives 0); tl-tree takes it as 0 ns with a warning and a count; tl-agg,
# which reads the tree, says the same.
cd "$TESTDATA/broken" || exit 1
tl-parse dur-negative.json >"$OLDPWD/ev.tsv"
echo "exit $?"
cd "$OLDPWD" || exit 1
cut -f1,4,7,8 ev.tsv
tl-tree ev.tsv >tree.tsv
echo "exit $?"
cut -f1,4,7,8,21,22 tree.tsv
tl-agg timeline tree.tsv >/dev/null
echo "exit $?"
