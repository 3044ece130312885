# Wrong types and out-of-range values where a time belongs: the value is
# cleared (an empty field), the row stays, each is reported and counted;
# a value at the int64 limit in ns still fits. The status is 0.
cd "$TESTDATA" && tl-parse bad-values.json | cut -f1-8
