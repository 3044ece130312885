# Strings that are not clean JSON are repaired and counted: a raw TAB in a
# name (it comes out as \t), invalid UTF-8, a lone surrogate, \u0000, a bad
# escape. The rows stay; the status is 0 without -s.
cd "$TESTDATA" && tl-parse repairs.json
