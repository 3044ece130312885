# Metadata (ph M) events, a runtime launch and its kernel, flow events
# (ph s/f, cat ac2g) keeping id and bp, an instant event, a string id.
cd "$TESTDATA" && tl-parse flow.json
