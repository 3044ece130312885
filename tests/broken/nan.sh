# NaN, Infinity and -Infinity, which Python's json.dump writes: they are
# values (a JSON extension). As "ts" or "dur" they are not a time: the
# field is cleared with a warning. In args and at the top level they are
# written as they stand, and "stream": NaN is kept as text. tl-tree reads
# the stream, and tl-agg its tree, without trouble.
cd "$TESTDATA/broken" || exit 1
tl-parse nan.json >"$OLDPWD/ev.tsv"
echo "exit $?"
cd "$OLDPWD" || exit 1
cut -f1,4,7,8,11,19 ev.tsv
tl-tree ev.tsv >tree.tsv
echo "exit $?"
cut -f1,4,11,21,22 tree.tsv
tl-agg timeline tree.tsv
echo "exit $?"
