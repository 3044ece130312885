# A write error on standard output (a full disk) is an error: status 1.
tl-parse "$TESTDATA/flow.json" >/dev/full
echo "exit $?"
