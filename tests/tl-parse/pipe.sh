# tl-parse big | head -1 ends quietly: no message, and head's status 0.
awk 'BEGIN {
	printf "{\"traceEvents\": [\n";
	for (i = 0; i < 20000; i++)
		printf "%s{\"ph\": \"X\", \"cat\": \"kernel\", " \
		    "\"name\": \"k%d\", \"pid\": 0, \"tid\": 7, " \
		    "\"ts\": %d.5, \"dur\": 1.25}\n", i ? "," : "", i, i;
	print "]}";
}' >big.json || exit 1
tl-parse big.json | head -1
echo "exit $?"
tl-parse big.json | head -3 | cut -f1-8
