# Names with JSON escapes: quotes, backslashes, \n \r \t, \u escapes and
# surrogate pairs, raw UTF-8; the stream escapes \ TAB LF CR.
cd "$TESTDATA" && tl-parse escapes.json
