# The same key twice in an event, or in its args: the last one wins, as
# in Python's json and most JSON readers. It gives the column ("ph",
# "name", "ts", "External id"); in args and extra only its last copy is
# kept, where it stands, so later stages that read args see the same
# value; a second "args" replaces the first. Objects deeper in args are
# written as they are. No warning, status 0.
cd "$TESTDATA/broken" && tl-parse dup-keys.json | cut -f1-8,12,13,19,20
