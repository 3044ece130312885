# Raw control characters inside strings (TAB, LF, CR, 0x01, 0x1f, ESC,
# BEL), which JSON forbids: each is counted as a repair; in a column it is
# decoded back (TAB, LF and CR with the stream's escapes, so one record
# stays one line), in the JSON columns it becomes \u00XX. tl-tree reads
# the stream back without trouble. Status 0.
cd "$TESTDATA/broken" || exit 1
tl-parse control-chars.json >"$OLDPWD/ev.tsv"
echo "exit $?"
cd "$OLDPWD" || exit 1
cut -f1,4,19 ev.tsv | sed -n l
tl-tree ev.tsv | cut -f1,4,21,22
echo "exit $?"
