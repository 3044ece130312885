# An empty traceEvents, and a trace with no traceEvents at all.
cd "$TESTDATA" && tl-parse empty-events.json && tl-parse no-events.json
