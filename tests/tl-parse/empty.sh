# An empty traceEvents, and a trace with no traceEvents at all (a
# warning; tests/broken/no-events.sh has more).
cd "$TESTDATA" && tl-parse empty-events.json && tl-parse no-events.json
