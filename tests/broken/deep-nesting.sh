# 10,000 nested arrays in an event's args, and 10,000 nested objects in a
# top-level value: past 512 levels, a located error ends the trace
# (status 1), after the events before it; no crash, no stack overflow.
awk 'BEGIN {
	printf "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"before\", " \
	    "\"ts\": 1},\n{\"ph\": \"X\", \"name\": \"deep\", \"ts\": 2, " \
	    "\"args\": {\"a\": "
	for (i = 0; i < 10000; i++) printf "["
	for (i = 0; i < 10000; i++) printf "]"
	print "}}, {\"ph\": \"X\", \"name\": \"after\", \"ts\": 3}]}"
}' >args.json || exit 1
awk 'BEGIN {
	printf "{\"deviceProperties\": "
	for (i = 0; i < 10000; i++) printf "{\"a\": "
	printf "1"
	for (i = 0; i < 10000; i++) printf "}"
	print ", \"traceEvents\": []}"
}' >toplevel.json || exit 1
for f in args toplevel; do
	tl-parse $f.json >$f.tsv
	echo "$f: exit $?"
	cut -f1-4 $f.tsv
done
