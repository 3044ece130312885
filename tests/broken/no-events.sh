# A top-level object without "traceEvents" (here spelled "traceevents"):
# its keys are written as trace_key rows, nothing is lost, and a warning
# says there are no events; status 0, or 1 with -s.
cd "$TESTDATA/broken" || exit 1
tl-parse no-events.json >"$OLDPWD/ev.tsv"
echo "exit $?"
tl-parse -s no-events.json >/dev/null 2>&1
echo "-s: exit $?"
cd "$OLDPWD" || exit 1
cut -f1-4,19 ev.tsv
# tl-tree keeps the rows: a tree without events.
tl-tree ev.tsv | cut -f3,4,21
echo "exit $?"
