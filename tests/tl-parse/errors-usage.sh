# Usage errors: an unknown option, a missing option argument, a bad -r
# regex, and one without a group. Each exits 1 before reading any input.
tl-parse -q "$TESTDATA/array.json"; echo "exit $?"
tl-parse -c; echo "exit $?"
tl-parse -r '(' "$TESTDATA/array.json"; echo "exit $?"
tl-parse -r rank "$TESTDATA/array.json"; echo "exit $?"
