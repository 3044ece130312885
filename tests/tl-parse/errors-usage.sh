# Usage errors: an unknown option, a missing option argument, a bad -r
# regex, and one without a group. Each exits 1 before reading any input.
tl-parse -q "$TESTDATA/array.json"; echo "exit $?"
tl-parse -c; echo "exit $?"
tl-parse -r '(' "$TESTDATA/array.json"; echo "exit $?"
tl-parse -r rank "$TESTDATA/array.json"; echo "exit $?"
# --help: the synopsis on stdout, exit 0; --version: the name and the
# version; --limit with a bad name: one line, exit 1.
tl-parse --help; echo "exit $?"
tl-parse --version | sed 's/ [0-9][0-9.]*$/ VERSION/'
tl-parse --limit nope=1 "$TESTDATA/array.json"; echo "exit $?"
