# Elements of traceEvents that are not objects, events with no "ph" or a
# "ph" that is not a string, and a trailing {}: skipped, counted, reported;
# the uid of the other events is still their index. The status is 0.
cd "$TESTDATA" && tl-parse skipped.json
