# A large gzip file is inflated by ISA-L when tl is built with it, and by
# zlib otherwise (or with TL_INFLATE=zlib): the same rows, messages and
# exit status either way, on good files and damaged ones (an error of
# ISA-L's hands the stream to zlib, which says what it says). The files
# are streamed: a last member of 65 MiB of blanks after the trace (its
# trailer over the 64 MiB inflated whole; named.gz's first member has a
# file name in its header), read with no limit on the ratio.
awk 'BEGIN {
	printf "{\"traceEvents\": [\n";
	for (i = 0; i < 20000; i++)
		printf "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": " \
		    "\"k%d\", \"pid\": 0, \"tid\": %d, \"ts\": %d, \"dur\": 1}\n",
		    i ? "," : "", i % 7, i, i;
	print "]}";
}' >t.json || exit 1
gzip -n -c t.json >t1.gz &&
gzip -c t.json >named1.gz &&
head -c 68157440 /dev/zero | tr '\0' ' ' | gzip -c >pad.gz &&
cat t1.gz pad.gz >good.gz &&
cat named1.gz pad.gz >named.gz || exit 1
/usr/bin/python3 - <<'PY' || exit 1
b = open("good.gz", "rb").read()
n1 = len(open("t1.gz", "rb").read())
def w(name, data):
	open(name, "wb").write(data)
w("cut.gz", b[:n1 // 2] + b[-8:])		# cut mid-member, a big trailer
bad = bytearray(b)
for k in range(n1 // 2, n1 // 2 + 40):
	bad[k] ^= 0x5a
w("bad.gz", bytes(bad))				# damaged deflate data
crc = bytearray(b)
crc[n1 - 8] ^= 1
w("crc.gz", bytes(crc))				# the first member's CRC wrong
w("garbage.gz", b + b"garbage")
w("zeros.gz", b + bytes(4096))
PY
for f in good cut bad crc garbage zeros named; do
	tl-parse --limit ratio=none $f.gz >$f.out 2>$f.err
	echo "$f: exit $?, $(wc -l <$f.out) rows"
	TL_INFLATE=zlib tl-parse --limit ratio=none $f.gz >$f.zout 2>$f.zerr
	z=$?
	cmp -s $f.out $f.zout && cmp -s $f.err $f.zerr ||
		echo "$f: not what zlib gives (exit $z)"
done
cat cut.err bad.err crc.err garbage.err
