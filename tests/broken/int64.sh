# Integers above int64: in args ("Comms Id", and "External id" and
# "correlation", which get columns) they are written as they stand in the
# file, never rounded; as "ts" or "dur" (in nanoseconds past int64, 1e300
# too) they are cleared with a warning. tl-tree then ignores the ids it
# cannot hold, with a located warning, and leaves the events without a
# start out of the tree; every row stays.
cd "$TESTDATA/broken" || exit 1
tl-parse int64.json >"$OLDPWD/ev.tsv"
echo "exit $?"
cd "$OLDPWD" || exit 1
cut -f1,4,7,8,12,13,19 ev.tsv
tl-tree ev.tsv >tree.tsv
echo "exit $?"
cut -f1,4,12,13,21,22 tree.tsv
