# A missing file is reported; the other operands are still read; status 1.
cd "$TESTDATA" || exit 1
tl-parse no-such-file.json array.json no-such-dir/x.json.gz
