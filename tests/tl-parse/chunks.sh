# The same trace read in different chunks gives the same rows: a plain
# file (4 KiB, then 256 KiB reads), a pipe (reads of any size), gzip (1 MiB
# slots), and a zip member. The events hold escapes, UTF-8 and long names,
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
tl-parse big.zip | cut -f1-20 >zip.tsv || exit 1
wc -l <plain.tsv
sed -n '3p;30002p' plain.tsv
# All but the header and the trace_file row (they name the input).
sed 1,2d plain.tsv >want.tsv
for f in pipe gz zip; do
	sed 1,2d $f.tsv | cmp - want.tsv && echo "$f: same"
done
