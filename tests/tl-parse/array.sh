# The JSON Array Format: a bare array of events, with and without its "]".
cd "$TESTDATA" && tl-parse array.json && tl-parse array-open.json
