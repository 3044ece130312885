# An "X" event without "dur", or with "dur": null: tl-parse writes an empty
# dur_ns (absent, not zero) without a warning; tl-tree takes it as 0 ns,
# says so for each, counts them, and still places the events.
cd "$TESTDATA/broken" || exit 1
tl-parse dur-missing.json >"$OLDPWD/ev.tsv"
echo "exit $?"
cd "$OLDPWD" || exit 1
cut -f1,4,7,8 ev.tsv
tl-tree ev.tsv >tree.tsv
echo "exit $?"
cut -f1,4,7,8,21,22 tree.tsv
