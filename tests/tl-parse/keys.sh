# Top-level keys before and after traceEvents become trace_key rows, with
# the value as JSON in args; the key is decoded like a name.
cd "$TESTDATA" && tl-parse keys.json
