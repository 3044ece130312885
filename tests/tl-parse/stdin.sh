# Standard input, as "-" and with no operand, is named <stdin>.
tl-parse - <"$TESTDATA/array.json" &&
tl-parse <"$TESTDATA/flow.json.gz" | head -3
