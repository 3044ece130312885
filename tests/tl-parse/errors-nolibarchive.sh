# libarchive is loaded only when an input needs it: without it a plain or
# gzip trace is still read, and an archive gets one located line and is
# counted as failed (status 1); the other operands are still read.
cp "$TESTDATA/array.json" . && gzip -c array.json >array.json.gz &&
tar cf traces.tar array.json && mkdir lib && : >lib/libarchive.so.13 ||
	exit 1
LD_LIBRARY_PATH=$PWD/lib tl-parse traces.tar array.json.gz >out 2>err
echo "exit $?"
cut -f1-4 out
sed "s|$PWD/||" err
