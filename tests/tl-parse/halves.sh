# A trace held whole (a plain file, mapped, or gzip inflated in one call)
# of 1 MiB or more is read in pieces by several threads, each piece from
# a guessed event boundary. Whatever the pieces hold, the rows, messages
# and counts are those of one thread reading it all, as from a pipe:
# events that need a message (ts not a number, no "ph", invalid UTF-8, a
# \u0000), a file cut, boundaries that are none (the bytes between two
# events, "}, {", inside a 200 KB string across pieces), and top-level
# keys after traceEvents.
gen() {	# gen N: 40000 events; the odd ones from event N on
	awk -v odd="$1" 'BEGIN {
	printf "{\"traceEvents\": [";
	for (i = 0; i < 40000; i++) {
		if (i)
			printf ", ";
		ts = "\"ts\": " i ".5";
		ph = "\"ph\": \"X\", ";
		nm = "op" i;
		if (odd != "" && i == odd)
			ts = "\"ts\": \"soon\"";
		if (odd != "" && i == odd + 7)
			ph = "";
		if (odd != "" && i == odd + 9)
			nm = "bad\377utf8";
		if (odd != "" && i == odd + 11)
			nm = "nul\\u0000";
		if (odd == "" && i == 20000)
			for (j = 0; j < 50000; j++)
				nm = nm "}, {";
		printf "{%s\"cat\": \"cpu_op\", \"name\": \"%s\", " \
		    "\"pid\": 1, \"tid\": 2, %s, \"dur\": 1, " \
		    "\"args\": {\"External id\": %d}}", ph, nm, ts, i;
	}
	printf "], \"deviceProperties\": [{\"id\": 0}], \"traceName\": \"t\"}";
}'
}
# Each way, against the same bytes from a pipe (one thread; a regular
# file on standard input is held whole too): stdout and stderr but for
# the name, and the exit status.
check() {	# check NAME FILE
	tl-parse -v "$2" >"$1.out" 2>"$1.err"
	echo "$1: exit $?"
	cat "$2" | tl-parse -v >"$1.pout" 2>"$1.perr"
	sed 1,2d "$1.out" >a
	sed 1,2d "$1.pout" >b
	cmp -s a b && echo "$1: rows the same ($(wc -l <a))"
	sed "s|<stdin>|$2|" "$1.perr" | cmp -s - "$1.err" &&
	    echo "$1: messages the same"
	cat "$1.err"
}
gen 30000 >odd.json || exit 1
check odd odd.json
gzip -c odd.json >odd.json.gz || exit 1
check oddgz odd.json.gz
gen "" >clean.json || exit 1
check clean clean.json
head -c 2800000 clean.json >cut.json || exit 1
check cut cut.json
