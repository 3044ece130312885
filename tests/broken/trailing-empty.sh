# A trailing {} after the last event, as JAX's profiler writes it: it is
# an event without "ph", skipped and counted; the others are written and
# keep their uid; status 0.
cd "$TESTDATA/broken" && tl-parse trailing-empty.json | cut -f1-8,19
