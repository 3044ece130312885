# A truncated .json.gz: a message naming the file, and status 1. The
# events inflated from the cut stream before the cut are still written.
head -c 300 "$TESTDATA/flow.json.gz" >cut.json.gz || exit 1
tl-parse cut.json.gz
