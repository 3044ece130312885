# Several files at once: one header, the trace and rank columns added.
cd "$TESTDATA" &&
tl-parse array.json empty-events.json flow.json.gz | cut -f1-8,21-
