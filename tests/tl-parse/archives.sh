# Other containers, recognised by content, not by name: a .tar.gz of two
# traces (each named archive(member)), a .json.xz and a .json.bz2 (one
# trace named as the file), and a gzip file with no .gz in its name.
cp "$TESTDATA/array.json" "$TESTDATA/flow.json" . &&
mkdir -p r1 && cp "$TESTDATA/empty-events.json" r1/ &&
tar czf traces.tar.gz array.json r1 &&
python3 -c 'import lzma, bz2
d = open("array.json", "rb").read()
open("array.json.xz", "wb").write(lzma.compress(d))
open("array.json.bz2", "wb").write(bz2.compress(d))' &&
gzip -c flow.json >flow.trace || exit 1
tl-parse traces.tar.gz | cut -f1-4,21-
tl-parse array.json.xz array.json.bz2 | cut -f1-4,21-
tl-parse flow.trace | sed -n 2,3p | cut -f1-4
# An empty tar (only its end, blocks of zeros) is an archive without a
# trace, plain or gzipped: an error, status 1.
tar cf empty.tar --files-from /dev/null && gzip -c empty.tar >empty.tgz ||
	exit 1
tl-parse empty.tar empty.tgz 2>&1 >/dev/null
echo "exit $?"
