# "ts" and "dur" as strings: one that holds a number is read as the number
# (exactly, as from a JSON number); one that does not ("soon", "", " 112")
# leaves the field empty, with a located warning, and the row stays.
# tl-tree then leaves the events without a start out of the tree, counted.
cd "$TESTDATA/broken" || exit 1
tl-parse ts-string.json >"$OLDPWD/ev.tsv"
echo "exit $?"
cd "$OLDPWD" || exit 1
cut -f1,4,7,8 ev.tsv
tl-tree ev.tsv | cut -f1,4,7,8,21,22
