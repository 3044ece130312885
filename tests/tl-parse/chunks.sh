# The same trace read in different chunks gives the same rows: a plain
# file (4 KiB, then 256 KiB reads), a pipe (reads of any size), a gzip
# file (inflated whole, in one chunk), gzip from a pipe, of two members,
# and with a trailer that lies (1 MiB slots, streamed: all the rows, then
# the error), and a zip member. The events hold escapes, UTF-8 and long names,
# so that chunk boundaries fall inside every kind of token.
awk 'BEGIN {
	printf "{\"schemaVersion\": 1, \"traceEvents\": [\n";
	for (i = 0; i < 30000; i++) {
		n = "";
		for (j = 0; j < i % 37; j++)
			n = n "x";
		printf "%s{\"ph\": \"X\", \"cat\": \"kernel\", " \
		    "\"name\": \"k\\\"%d\\u00e9 caf\303\251 " \
		    "\\ud83d\\ude00 %s\\t\", \"pid\": %d, " \
		    "\"tid\": \"t%d\", \"ts\": %d.%03d, \"dur\": %de-3, " \
		    "\"args\": {\"External id\": %d, " \
		    "\"v\": [%d, -1.5e+2, true, null, {\"a\": \"\\\\\"}]}}\n",
		    i ? "," : "", i, n, i % 3, i % 5, i, i % 1000, i, i, i;
	}
	print "], \"traceName\": \"x\"}";
}' >big.json || exit 1
gzip -c big.json >big.json.gz &&
python3 -c 'import zipfile
zipfile.ZipFile("big.zip", "w").write("big.json")' ||
exit 1
tl-parse big.json >plain.tsv || exit 1
cat big.json | tl-parse >pipe.tsv || exit 1
tl-parse big.json.gz >gz.tsv || exit 1
tl-parse <big.json.gz >gzpipe.tsv || exit 1
head -c 1000000 big.json | gzip -c >two.json.gz &&
tail -c +1000001 big.json | gzip -c >>two.json.gz &&
tl-parse two.json.gz >gztwo.tsv || exit 1
# The size in the trailer (its last 4 bytes) one byte short: not inflated
# whole, and zlib, as gzip -dc, finds the damage only at the end.
python3 -c 'import sys
b = bytearray(open("big.json.gz", "rb").read())
n = int.from_bytes(b[-4:], "little") - 1
b[-4:] = n.to_bytes(4, "little")
open("lie.json.gz", "wb").write(b)' || exit 1
tl-parse lie.json.gz >gzlie.tsv
echo "lie: exit $?"
tl-parse big.zip | cut -f1-20 >zip.tsv || exit 1
wc -l <plain.tsv
sed -n '3p;30002p' plain.tsv
# All but the header and the trace_file row (they name the input).
sed 1,2d plain.tsv >want.tsv
for f in pipe gz gzpipe gztwo gzlie zip; do
	sed 1,2d $f.tsv | cmp - want.tsv && echo "$f: same"
done
