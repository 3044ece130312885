# Past 10 warnings for a trace, the rest are counted, not shown.
awk 'BEGIN {
	printf "{\"traceEvents\": [";
	for (i = 0; i < 14; i++)
		printf "%s{\"ph\": \"X\", \"name\": \"e%d\", " \
		    "\"ts\": \"bad%d\"}", i ? ", " : "", i, i;
	print "]}";
}' >many.json || exit 1
tl-parse many.json | wc -l
